"""The lit configuration of torch-refine's own lit tests, reusable by downstream projects.

A project's `lit.cfg.py` calls `configure(config)` after naming its suite; its RUN lines
can then use `torch-refine-opt`, `torch-mlir-opt` (when the wheel's binary is installed),
`filecheck` (also spelled `FileCheck`, as torch-mlir's tests do) and `%PYTHON`, all from
the Python environment lit runs in (docs/driver.md). Tool names are substituted as whole
words, by lit's `ToolSubst` rules: `%t.torch-refine-opt.mlir` is left alone.
"""

from __future__ import annotations

import os
import shlex
import sys

from lit.llvm.subst import ToolSubst


def configure(config, python_path: str | None = None) -> None:
    """Add the substitutions and the environment to a lit `config`.

    `python_path` puts a source tree first on the drivers' import path (torch-refine's own
    tests run from a checkout); it travels with every command, since lit's internal shell
    drops environment settings for commands after a builtin on the same RUN line.
    """
    venv_bin = os.path.dirname(sys.executable)
    config.environment["PATH"] = os.pathsep.join([venv_bin, config.environment.get("PATH", "")])
    for name, value in os.environ.items():
        if name.startswith("TORCH_REFINE_"):
            config.environment[name] = value
    python = shlex.quote(sys.executable)
    if python_path is not None:
        config.environment["PYTHONPATH"] = python_path
        python = f"env PYTHONPATH={shlex.quote(python_path)} {python}"
    config.substitutions.append(("%PYTHON", python))
    tools = {"torch-refine-opt": f"{python} -m torch_refine.tools.opt"}
    for name, executable in (("torch-mlir-opt", "torch-mlir-opt"), ("FileCheck", "filecheck")):
        if os.path.exists(path := os.path.join(venv_bin, executable)):
            tools[name] = shlex.quote(path)
    for name, command in tools.items():
        config.substitutions.append((ToolSubst(name, command=command).regex, command))
