"""The one place that makes MLIR contexts with the Torch dialect registered."""

from torch_mlir import ir
from torch_mlir.dialects import torch as torch_d


def create_context(allow_unregistered_dialects: bool = False) -> ir.Context:
    context = ir.Context()
    torch_d.register_dialect(context)
    context.allow_unregistered_dialects = allow_unregistered_dialects
    return context
