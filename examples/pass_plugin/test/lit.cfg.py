# The example plugin's lit suite: torch-refine-opt finds its pass through the entry point.
# PYTHONPATH is passed on, so that a plugin installed into a scratch directory is found.
import os
from importlib import metadata

import lit.formats

from torch_refine.tools.lit_config import configure

config.name = "pass-plugin-example"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py"]
configure(config, python_path=os.environ.get("PYTHONPATH"))

# Without the package installed, every RUN line would fail on an unknown flag.
if "example-strip-runtime-asserts" not in {entry.name for entry in metadata.entry_points(group="torch_refine.passes")}:
    lit_config.fatal("the example pass is not installed: pip install ./examples/pass_plugin (examples/pass_plugin/README.md)")
