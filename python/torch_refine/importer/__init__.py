"""TorchScript to Torch-dialect MLIR."""

from .torchscript import (
    PROMOTE_DTYPES,
    Importer,
    UnsupportedNodeError,
    helper_symbol,
    import_functions,
)

__all__ = [
    "PROMOTE_DTYPES",
    "Importer",
    "UnsupportedNodeError",
    "helper_symbol",
    "import_functions",
]
