"""Which ops may be moved, cloned or erased: the effects the passes must respect."""

from __future__ import annotations

from torch_mlir import ir

from torch_refine.calculations.kind import CALCULATE_OPS, YIELD_OPS
from torch_refine.calculations.lists import LIST_MUTATING_OPS, may_hold_list, only_read
from torch_refine.ir.constants import op_key
from torch_refine.ir.types import is_tensor_type_text

# Ops that must never be moved, cloned or deleted even when their results are unused.
_EFFECTFUL_OPS = frozenset(
    {
        "torch.prim.RaiseException",
        "torch.prim.Print",
        "torch.runtime.assert",
        "torch.prim.Uninitialized",
    }
)


def is_pure(op) -> bool:
    """True when `op` computes its results from its operands alone, so it may be moved,
    cloned or erased when unused. Conservative: region ops, calls and tensor producers
    are never pure; an op returning a list (a literal, a slice, `aten.size`, ...) is pure
    only while nothing may mutate that list."""
    operation = op.operation
    name = operation.name
    if not name.startswith("torch.") or name in _EFFECTFUL_OPS or name in LIST_MUTATING_OPS:
        return False
    if name in CALCULATE_OPS or name in YIELD_OPS or len(operation.regions) > 0:
        return False
    if len(operation.results) == 0:
        return False
    if name == "torch.prim.NumToTensor.Scalar":
        return True  # a fresh tensor of a number: how `scalar_dtype` reads a number's type
    if any(is_tensor_type_text(str(result.type)) for result in operation.results):
        return False
    # Any list an op returns is a new object: moving or cloning the op without the ops that
    # change that object (through any alias) would let a read see the wrong elements.
    return all(only_read(result) for result in operation.results if may_hold_list(result))


def is_pure_if(op) -> bool:
    """A `prim.If` whose branches only compute values (pure ops, yields, such Ifs): one
    left unused, as a calculation's kept check leaves it once the check is erased, may go."""
    if op.operation.name != "torch.prim.If":
        return False
    for region in op.operation.regions:
        for block in region.blocks:
            for inner in block.operations:
                if inner.operation.name != "torch.prim.If.yield" and not (is_pure(inner) or is_pure_if(inner)):
                    return False
    return True


def erase_if_dead(ops, erasable=None) -> None:
    """Erase the pure ops among `ops` that have no uses, then their operands' definers in
    turn; `erasable(op)`, when given, says which ops besides the pure ones may go."""
    worklist = [(op_key(op), op) for op in ops]
    erased: set[int] = set()
    while worklist:
        key, op = worklist.pop()
        # Unused first: it is O(1), while is_pure scans a list's uses (a shared literal has
        # one per op using it, so testing it first made dropping quadratic).
        if key in erased or not is_unused(op) or not (is_pure(op) or (erasable is not None and erasable(op))):
            continue
        worklist.extend((op_key(d), d) for d in _definers(op, erased))
        erased.add(key)
        op.operation.erase()


def _definers(op, nested: set[int]) -> list:
    """The ops outside `op` defining what it, or an op in its regions, reads; the ops in
    its regions are added to `nested` (they go with it)."""
    if not len(op.operation.regions):
        return [v.owner for v in op.operation.operands if isinstance(v, ir.OpResult)]
    inside: set[int] = set()
    read = []

    def visit(inner):
        inside.add(op_key(inner))
        read.extend(v.owner for v in inner.operands if isinstance(v, ir.OpResult))
        return ir.WalkResult.ADVANCE

    op.operation.walk(visit)
    nested |= inside
    return [d for d in read if op_key(d) not in inside]


def is_unused(op) -> bool:
    """No result of `op` has a use (true of an op without results)."""
    for result in op.operation.results:
        for _ in result.uses:
            return False
    return True
