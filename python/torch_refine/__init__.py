"""torch-refine: shape and dtype refinement for Torch-dialect MLIR.

Importing this package is cheap: nothing here imports torch. The PyTorch-facing
API (export_and_import, execute) imports torch on first use.

    export_and_import(model, *args)   torch.export + FX import + refinement -> Refined
    refine(module)                    refine any Torch-dialect module in place -> Refined
    specialize(module, input_types)   new argument types, derived types dropped, refined
    execute(module, *tensors)         run a Torch-dialect function op by op (an oracle)
    compile_module(module)            lower to linalg, then LLVM; JIT-compile; call it
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what type checkers see; at run time __getattr__ imports on first use
    from torch_refine.api import Refined, RefinementError, export_and_import, refine, specialize
    from torch_refine.executor import ExecutionError, TypeMismatchError, execute
    from torch_refine.jit import compile_module

_API = {
    "export_and_import": "api",
    "refine": "api",
    "specialize": "api",
    "Refined": "api",
    "RefinementError": "api",
    "execute": "executor",
    "ExecutionError": "executor",
    "TypeMismatchError": "executor",
    "compile_module": "jit",
}

__all__ = [  # noqa: RUF022 (grouped as the table above; a test checks they agree)
    "export_and_import", "refine", "specialize", "Refined", "RefinementError",
    "execute", "ExecutionError", "TypeMismatchError", "compile_module", "versions",
]


def versions() -> dict[str, str]:
    """torch-refine's, torch-mlir's, torch's and Python's versions, for a bug report."""
    from torch_refine.about import versions as installed

    return installed()


def __dir__() -> list[str]:
    """The API too, so that help(torch_refine) and completion list it."""
    return sorted({*globals(), *__all__})


def __getattr__(name: str):
    if name == "__version__":
        return versions()["torch-refine"]
    module_name = _API.get(name)
    if module_name is None:
        raise AttributeError(f"module 'torch_refine' has no attribute '{name}'")
    import importlib

    return getattr(importlib.import_module(f"{__name__}.{module_name}"), name)
