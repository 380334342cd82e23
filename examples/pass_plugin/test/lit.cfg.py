# The example plugin's lit suite: torch-refine-opt finds its pass through the entry point.
# PYTHONPATH is passed on, so that a plugin installed into a scratch directory is found.
import os

import lit.formats

from torch_refine.tools.lit_config import configure

config.name = "pass-plugin-example"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py"]
configure(config, python_path=os.environ.get("PYTHONPATH"))
