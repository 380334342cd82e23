"""Ranges of int values by interval arithmetic over their producers (sizes through the
polynomials `express` gives them, ranks, lengths, Ifs narrowed by their conditions)."""

from __future__ import annotations

import dataclasses

from torch_mlir import ir

from torch_refine.calculations.dim_facts import express
from torch_refine.calculations.ranges import ANY, Bound, join, polynomial_range
from torch_refine.calculations.store import FactStore
from torch_refine.ir.constants import NotConstant, constant_value, defining_op, typed_constant
from torch_refine.symbolic.comparisons import MIRRORED, NEGATED
from torch_refine.symbolic.semantics import MEANINGS, add_bounds, maximum_bounds, minimum_bounds, negate_bounds

# The int ops whose results' ranges follow from their operands' (symbolic/semantics.py).
_BOUNDED = frozenset(name for name, meaning in MEANINGS.items() if meaning.bounds is not None)

_SIZE: Bound = (0, None)
_COUNTS = frozenset({"torch.aten.size.int", "torch.aten.len.t", "torch.aten.dim", "torch.aten.numel"})
_PASS_THROUGH = frozenset({"torch.derefine", "torch.prim.unchecked_cast"})
_VALUE_DEPTH = 12


def value_range(value: ir.Value, entry_block: ir.Block | None, run: FactStore | None) -> Bound:
    """(least, greatest) of an int value, None for an unbounded side, by interval
    arithmetic over its producers (a comparison of two polynomials over sizes is decided
    by `polynomial_range` of their difference before this): a size is within the range
    its polynomial has, a rank or length is at least 0, and an If yields within its
    branches' ranges, each narrowed by the comparison of the yielded value its condition
    makes (`if n <= 0: n = 1` gives n >= 1), which decides the dim wrapping of a tensor
    of unknown rank. `run`: the run's store, whose asserted ranges narrow the stated ones."""
    return _value_range(value, _Walk(entry_block, run), 0)


def difference_range(lhs: ir.Value, rhs: ir.Value, entry_block: ir.Block | None,
                     run: FactStore | None) -> Bound | None:
    """`value_range` of `lhs - rhs`; None where a side is made by no op the walk reads (a
    cheap test before the walk)."""
    if not (_may_bound(lhs) and _may_bound(rhs)):
        return None
    return add_bounds(value_range(lhs, entry_block, run), negate_bounds(value_range(rhs, entry_block, run)))


def _may_bound(value: ir.Value) -> bool:
    producer = defining_op(value)
    if producer is None:
        return False
    name = producer.operation.name
    return (name.startswith("torch.constant.") or name in _COUNTS or name in _PASS_THROUGH
            or name == "torch.prim.If" or name in _BOUNDED)


@dataclasses.dataclass
class _Walk:
    entry_block: ir.Block | None
    run: FactStore | None
    found: dict = dataclasses.field(default_factory=dict)
    expressed: dict = dataclasses.field(default_factory=dict)  # express's own cache


def _value_range(value: ir.Value, walk: _Walk, depth: int) -> Bound:
    if value in walk.found:
        return walk.found[value]
    walk.found[value] = ANY  # a cycle through a loop's carried value bounds nothing
    found = ANY if depth > _VALUE_DEPTH else _producer_range(value, walk, depth)
    walk.found[value] = found
    return found


def _producer_range(value: ir.Value, walk: _Walk, depth: int) -> Bound:
    constant = typed_constant(value, int)
    if constant is not None:
        return constant, constant
    producer = defining_op(value)
    if producer is None:
        return ANY
    name = producer.operation.name
    if name in _COUNTS:
        polynomial = express(value, walk.run, walk.expressed)  # a size the program bounds
        return _SIZE if polynomial is None else polynomial_range(polynomial, walk.entry_block, walk.run)
    if name in _PASS_THROUGH:
        return _value_range(producer.operands[0], walk, depth + 1)
    if name == "torch.prim.If":
        return _if_range(producer, value.result_number, walk, depth)
    if name not in _BOUNDED:
        return ANY
    return MEANINGS[name].bounds(*(_value_range(v, walk, depth + 1) for v in producer.operands))


def _if_range(if_op, index: int, walk: _Walk, depth: int) -> Bound:
    """The join of what the branches yield at `index`; a branch yielding None adds nothing
    (an optional int is only read as an int where it is not None)."""
    joined = None
    condition = if_op.operands[0]
    for region, taken in zip(if_op.operation.regions, (True, False)):
        yielded = list(region.blocks[0].operations)[-1].operands[index]
        if _is_none(yielded):
            continue
        bound = _narrowed(_value_range(yielded, walk, depth + 1), yielded, condition, taken)
        joined = bound if joined is None else join(joined, bound)
    return ANY if joined is None else joined


def _is_none(value: ir.Value) -> bool:
    try:
        return constant_value(value) is None
    except NotConstant:
        return False


def _narrowed(bound: Bound, value: ir.Value, condition: ir.Value, holds: bool) -> Bound:
    """`bound` of `value` in the branch where `condition` is `holds`, when the condition
    compares that very value with a constant."""
    comparison = defining_op(condition)
    if comparison is None or len(comparison.operands) != 2:
        return bound
    name = comparison.operation.name
    lhs, rhs = comparison.operands
    if rhs == value:
        lhs, rhs, name = rhs, lhs, MIRRORED.get(name, name)
    constant = typed_constant(rhs, int)
    if lhs != value or constant is None:
        return bound
    if not holds:
        name = NEGATED.get(name)
    implied = MEANINGS[name].holds if name in MEANINGS else None  # of value - constant
    return bound if implied is None else _meet(bound, add_bounds(implied, (constant, constant)))


def _meet(a: Bound, b: Bound) -> Bound:
    return maximum_bounds(a, b)[0], minimum_bounds(a, b)[1]
