# Self-contained lit configuration: no site config, no install step needed. The
# substitutions come from torch_refine.tools.lit_config, which downstream projects reuse.
import os
import sys

import lit.formats

config.name = "torch-refine"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".py"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["Inputs", "lit.cfg.py", "lit.local.cfg", "conftest.py"]
# Helper modules that tests import start with an underscore and have no RUN line.
config.excludes += [
    name for _, _, files in os.walk(config.test_source_root) for name in files
    if name.startswith("_") and name.endswith(".py")
]

_package_root = os.path.join(os.path.dirname(os.path.dirname(config.test_source_root)), "python")
sys.path.insert(0, _package_root)
from torch_refine.tools.lit_config import configure  # noqa: E402

configure(config, python_path=_package_root)
config.maxIndividualTestTime = 120
