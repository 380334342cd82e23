"""The one place that makes MLIR contexts with the Torch dialect registered."""

from torch_mlir import ir
from torch_mlir._mlir_libs._torchMlir import register_dialect

# The dialects whose ops torch-refine creates from Python (an op of a dialect not loaded
# yet would be created unregistered). Parsing loads any other registered dialect on
# demand; loading all of them up front (the bindings' default) costs ~11 MB per context.
_CREATED_DIALECTS = ("builtin", "func")


def create_context(allow_unregistered_dialects: bool = False) -> ir.Context:
    context = ir.Context(load_on_create_dialects=list(_CREATED_DIALECTS))
    register_dialect(context)  # and loads it
    context.allow_unregistered_dialects = allow_unregistered_dialects
    return context
