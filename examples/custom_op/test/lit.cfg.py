# A downstream project's lit suite: the configuration docs/driver.md gives, run by CI
# (test/python/test_downstream_examples.py) from a source tree and from a wheel install.
import os

import lit.formats

from torch_refine.tools.lit_config import configure

config.name = "custom-op-example"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["Inputs", "lit.cfg.py"]
configure(config)
