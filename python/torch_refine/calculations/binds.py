"""A function's arguments and the `torch.bind_symbolic_shape`s that state their dims: what
ranges and symbolic dims read first."""

from __future__ import annotations

from torch_mlir import ir

from torch_refine.calculations.store import FactStore
from torch_refine.ir.constants import op_key


def function_argument(value: ir.Value) -> int | None:
    """The position of `value` among its function's arguments, if it is one."""
    if not isinstance(value, ir.BlockArgument):
        return None
    block = value.owner
    parent = block.owner
    if parent is None or parent.operation.name != "func.func":
        return None
    if parent.regions[0].blocks[0] != block:
        return None
    return value.arg_number


BIND = "torch.bind_symbolic_shape"


def bound_expression(argument: ir.BlockArgument, dim: int, run: FactStore | None):
    """(bind, affine expression) a `torch.bind_symbolic_shape` of `argument` gives dim
    `dim`, or None. (Remembered per refinement of `run`: finding it scans every use of the
    argument, and ranges ask for every argument dim they meet.)"""
    cache = None if run is None else run.refinement_cache()
    if cache is None:
        return _find_bound_expression(argument, dim)
    key = ("bound", op_key(argument.owner.owner), argument.arg_number, dim)
    if key not in cache:
        cache[key] = _find_bound_expression(argument, dim)
    return cache[key]


def _find_bound_expression(argument: ir.BlockArgument, dim: int):
    for use in argument.uses:
        bind = use.owner
        if bind.operation.name != BIND or use.operand_number != 0:
            continue
        results = ir.AffineMapAttr(bind.operation.attributes["shape_expressions"]).value.results
        if dim < len(results):
            return bind, results[dim]
    return None
