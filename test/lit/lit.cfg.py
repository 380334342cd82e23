# Self-contained lit configuration: no site config, no install step needed.
import os
import shlex
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

_repo_root = os.path.dirname(os.path.dirname(config.test_source_root))
_python = shlex.quote(sys.executable)
_venv_bin = os.path.dirname(sys.executable)

config.environment["PATH"] = os.pathsep.join([_venv_bin, config.environment.get("PATH", "")])
config.environment["PYTHONPATH"] = os.path.join(_repo_root, "python")
for name, value in os.environ.items():
    if name.startswith("TORCH_REFINE_"):
        config.environment[name] = value

# lit's internal shell loses the environment set here for commands after a builtin (`cat`,
# `diff`) on the same RUN line, so the package path travels with every command that needs it.
_with_package = f"env PYTHONPATH={shlex.quote(config.environment['PYTHONPATH'])} {_python}"
config.substitutions.append(("%PYTHON", _with_package))
config.substitutions.append(("torch-refine-opt", f"{_with_package} -m torch_refine.tools.opt"))
config.substitutions.append(("torch-mlir-opt", shlex.quote(os.path.join(_venv_bin, "torch-mlir-opt"))))

config.maxIndividualTestTime = 120
