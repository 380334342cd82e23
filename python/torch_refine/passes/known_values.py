"""Ints the program reads out of tensors, folded where refinement knows them.

An ONNX import reads its sizes with `aten.item` of small int tensors
(calculations/contents.py). Where such an int is a constant, or a polynomial over the
function's argument dims, it is replaced by that constant or by `aten.size.int`
arithmetic on the arguments: a backend then sees `reshape(x, [size(x, 0), 16, 4, 8])`, and
the tensor computations that produced the sizes are left unused (and erased with the
rest at clean-up). torch-mlir's linalg conversion has no lowering for most of them.
"""

from __future__ import annotations

from torch_mlir import ir

from torch_refine.calculations import contents, dim_facts
from torch_refine.calculations.purity import erase_if_dead
from torch_refine.calculations.ranges import enclosing_function
from torch_refine.ir.constants import make_constant
from torch_refine.ir.polynomial import is_computed
from torch_refine.patterns.symbolic import Sizes

TENSOR_READS = ("torch.aten.item", "torch.aten.Int.Tensor", "torch.aten.IntImplicit")


def fold_tensor_reads(module: ir.Operation) -> None:
    found = []

    def visit(op):
        if op.name in TENSOR_READS and str(op.results[0].type) == "!torch.int":
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    cache: dict = {}
    folded = []
    for op in found:
        polynomial = dim_facts.express(op.results[0], cache)
        if polynomial is None or any(is_computed(s) for s in polynomial.symbols()):
            continue
        arguments = enclosing_function(op).regions[0].blocks[0].arguments
        with ir.InsertionPoint(op), op.location:
            constant = polynomial.constant_value()
            value = make_constant(constant) if constant is not None else Sizes(arguments).int(polynomial)
        op.results[0].replace_all_uses_with(value)
        folded.append(op)
    erase_if_dead(folded, lambda op: _known_tensor_op(op, cache))


def _known_tensor_op(op, cache: dict) -> bool:
    """A tensor op on small int tensors whose contents are known (so it cannot fail)."""
    if op.operation.name not in contents.HANDLED or len(op.operation.results) != 1:
        return False
    reader = contents.Reader(dim_facts.express, dim_facts.tensor_dims, cache)
    return reader.contents(op.operation.results[0]) is not None
