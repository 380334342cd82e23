"""TorchScript to Torch-dialect MLIR."""

from .torchscript import (
    Importer,
    UnsupportedNodeError,
    import_functions,
    qualified_name,
)

__all__ = [
    "Importer",
    "UnsupportedNodeError",
    "import_functions",
    "qualified_name",
]
