"""The calculation-function library: Python sources (one module per op family) and the
generated MLIR module embedded beside them in `_generated/`.

    compile_extra_library(path_or_functions)   users' shape/dtype functions -> MLIR text

Importing this package imports neither torch nor the family modules.
"""

_EXPORTS = {
    "compile_extra_library": "extension",
    "ExtraLibraryError": "extension",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module '{__name__}' has no attribute '{name}'")
    import importlib

    return getattr(importlib.import_module(f"{__name__}.{module_name}"), name)
