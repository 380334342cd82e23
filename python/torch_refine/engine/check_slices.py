"""What a kept check's condition reads, planned to be computed in front of the op: the ops
of the calculation that may move there (pure, and either unable to fail or in a block that
runs whenever the op does), the If results read as selects of their branches, and the
`is None` tests of optionals (`movable_slice`); `engine/drop.py` builds the plan."""

from __future__ import annotations

from dataclasses import dataclass

from torch_mlir import ir

from torch_refine.calculations.kind import RAISE
from torch_refine.calculations.purity import is_pure
from torch_refine.ir import types
from torch_refine.ir.constants import typed_constant
from torch_refine.symbolic.comparisons import INT_COMPARISONS


@dataclass
class Reach:
    """What the asserts built so far say about the calculation's blocks."""
    certain: list  # blocks that run whenever the op does
    dead: list  # blocks that raise, where an assert in front of the op already fails

    def is_dead(self, block) -> bool:
        return any(block == dead for dead in self.dead)

    def is_certain(self, block) -> bool:
        return any(block == certain for certain in self.certain)


# Pure ops that cannot fail, whatever their operands: computed in front of the op even
# where the calculation computed them only on one side of an If (a short-circuit `and`).
_SPECULATABLE = frozenset({
    *INT_COMPARISONS, "torch.aten.eq.float", "torch.aten.ne.float", "torch.aten.lt.float", "torch.aten.le.float",
    "torch.aten.gt.float", "torch.aten.ge.float", "torch.aten.eq.bool", "torch.aten.ne.bool",
    "torch.aten.__and__.bool", "torch.aten.__or__.bool", "torch.aten.__not__", "torch.aten.__is__",
    "torch.aten.__isnot__", "torch.aten.add.int", "torch.aten.sub.int", "torch.aten.mul.int", "torch.aten.neg.int",
    "torch.aten.add.float", "torch.aten.sub.float", "torch.aten.mul.float", "torch.aten.Float.Scalar",
    "torch.aten.Int.bool", "torch.derefine", "torch.aten.len.t", "torch.aten.dim", "torch.aten.numel",
    "torch.aten.size",
})


_SELECTABLE = ("!torch.bool", "!torch.int")


# Int divisions a short-circuit protects (`d > 0 and n % d == 0`): computed in front of
# the op by `d + int(d == 0)`, which is `d` wherever the If would have computed them.
_DIVISIONS = ("torch.aten.floordiv.int", "torch.aten.remainder.int")


def _speculatable(op, reach: Reach) -> bool:
    """Whether `op`, pure, may run in front of the calculation: it sits in a block that
    runs whenever the op does, or cannot fail (a size of a ranked tensor at a dim in
    range among them)."""
    name = op.operation.name
    if name in _SPECULATABLE or name.startswith("torch.constant.") or _size_in_range(op):
        return True
    return reach.is_certain(op.operation.block)


def _size_in_range(op) -> bool:
    if op.operation.name != "torch.aten.size.int":
        return False
    info = types.parse(op.operation.operands[0].type)
    dim = typed_constant(op.operation.operands[1], int)
    return info is not None and info.sizes is not None and dim is not None and -len(info.sizes) <= dim < len(info.sizes)


def movable_slice(values: list, inside: set, reach: Reach) -> list | None:
    """How to compute `values` in front of the op: slice entries (kind, key, payload),
    producers first, each an op of the calculation moved there ("move"), an If result
    read as a select of its branches' values ("select"), or whether an optional value is
    None ("constant", "select", and "test" for `is`/`is not`); None when one cannot be
    computed there. A depth-first walk with a stack: after loop unrolling a condition can
    depend on a chain longer than the recursion limit."""
    ordered: list = []
    planned: set = set()
    pending: list = [(value, None) for value in reversed(values)]
    while pending:
        key, finished = pending.pop()
        if finished is not None:
            ordered.append(finished)
            continue
        if key in planned or (isinstance(key, ir.Value) and key not in inside):
            continue
        step = _none_step(key[1], reach) if isinstance(key, tuple) else _step(key, reach)
        if step is None:
            return None
        entry, needed = step
        planned.add(key)
        if entry[0] == "move":
            planned.update(key.owner.operation.results)
        pending.append((None, entry))
        pending.extend((k, None) for k in reversed(needed))
    return ordered


def _step(value: ir.Value, reach: Reach) -> tuple | None:
    """The slice entry computing `value` and the keys it needs; None when it cannot be
    computed in front of the op."""
    if not isinstance(value, ir.OpResult):
        return None  # a block argument: a loop's induction variable
    op = value.owner
    name = op.operation.name
    if name in ("torch.aten.__is__", "torch.aten.__isnot__") and _tests_an_if_for_none(op):
        tested = ("is none", op.operation.operands[0])
        return ("test", value, tested), [tested]
    if is_pure(op) and _speculatable(op, reach):
        return ("move", value, False), list(op.operation.operands)
    if name in _DIVISIONS:
        return ("move", value, True), list(op.operation.operands)
    if name != "torch.prim.If" or str(value.type) not in _SELECTABLE:
        return None
    return _select_step(op, value, value.result_number, lambda yielded: yielded, reach)


def _none_step(optional: ir.Value, reach: Reach) -> tuple | None:
    """The slice entry computing whether `optional` is None: a None, a value made
    optional, or an If's result, the select of what it is in each branch."""
    key = ("is none", optional)
    if _is_none(optional):
        return ("constant", key, True), []
    producer = optional.owner if isinstance(optional, ir.OpResult) else None
    if producer is None:
        return None
    if producer.operation.name == "torch.derefine":
        source = producer.operation.operands[0]
        if _is_none(source):
            return ("constant", key, True), []
        return None if str(source.type).startswith("!torch.optional") else (("constant", key, False), [])
    if producer.operation.name != "torch.prim.If":
        return None
    return _select_step(producer, key, optional.result_number, lambda yielded: ("is none", yielded), reach)


def _select_step(if_op, key, result_number: int, branch_key, reach: Reach) -> tuple | None:
    """A select of `if_op`'s branches' (their yielded value's `branch_key`) for `key`."""
    if not _computes_only(if_op):
        return None
    branch_keys = []
    for region in if_op.operation.regions:
        block = region.blocks[0]
        yielded = list(block.operations)[-1].operands[result_number]
        branch_keys.append(None if reach.is_dead(block) else branch_key(yielded))
    if all(k is None for k in branch_keys):
        return None
    needed = [if_op.operation.operands[0], *(k for k in branch_keys if k is not None)]
    return ("select", key, (if_op, branch_keys)), needed


def _tests_an_if_for_none(test_op) -> bool:
    """`x is None` (or `is not`) of an If's result: an infer-size's "a dim is inferred"."""
    tested, other = test_op.operation.operands
    return _is_none(other) and isinstance(tested, ir.OpResult) and tested.owner.operation.name == "torch.prim.If"


def _is_none(value: ir.Value) -> bool:
    return isinstance(value, ir.OpResult) and value.owner.operation.name == "torch.constant.none"


def _computes_only(if_op) -> bool:
    """Whether an If's branches only compute values (pure ops, Ifs, the raises of checks
    asserted in front of the op): what is not asked of it need not be computed."""
    pending = [if_op]
    while pending:
        for region in pending.pop().operation.regions:
            for nested in region.blocks[0].operations:
                name = nested.operation.name
                if name == "torch.prim.If":
                    pending.append(nested)
                elif name not in ("torch.prim.If.yield", RAISE, "torch.prim.Uninitialized") and not is_pure(nested):
                    return False
    return True
