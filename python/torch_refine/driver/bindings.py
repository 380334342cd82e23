"""Load the MLIR bindings for a command-line tool, fast: import this before `torch_mlir.ir`.

torch_mlir.ir imports numpy only to register DenseElementsAttr builders of generated op
classes, which the tools do not use; numpy's import is a third of start-up. It is hidden
while the bindings load, unless something imported it already; a later `import numpy` works.
"""

import sys

if "numpy" not in sys.modules:
    sys.modules["numpy"] = None  # type: ignore[assignment]
    try:
        import torch_mlir.ir  # noqa: F401
    finally:
        del sys.modules["numpy"]



def libraries_dir():
    """The wheel's `_mlir_libs`: the bindings' shared libraries and `torch-mlir-opt`."""
    from pathlib import Path

    import torch_mlir._mlir_libs as libraries

    return Path(libraries.__file__).parent


def aggregate_libraries() -> list:
    """The shared library (per platform, one) that holds MLIR, torch-mlir and their C API."""
    return sorted(libraries_dir().glob("*AggregateCAPI*"))


def name_llvm_program(name: str) -> None:
    """Give LLVM the program name it puts before the errors it prints itself (a bad pass
    option: `name: for the --max-iterations option: ...`, as torch-mlir-opt prints it;
    unnamed, the line starts with `: `). Parsing no arguments only sets the name."""
    import ctypes

    for library in aggregate_libraries():
        argv = (ctypes.c_char_p * 1)(name.encode())
        ctypes.CDLL(str(library)).LLVMParseCommandLineOptions(1, argv, None)
