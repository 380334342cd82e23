"""Barriers: while a loop's assumed carried types are unchecked, the ops after the loop
see its result through an opaque static-info cast (`BARRIER`) to the type it had before
the assumption; and what is computed from a value (`computed_from`), for the types to
forget when an assumption falls."""

from __future__ import annotations

from torch_mlir import ir

from torch_refine.calculations import dim_facts
from torch_refine.calculations.ranges import enclosing_function
from torch_refine.engine.known_values import is_typed_condition
from torch_refine.ir.erase import erase_value_types
from torch_refine.ir.retype import OPAQUE_CAST, accepts, cast

BARRIER = OPAQUE_CAST


def behind_barriers(module: ir.Operation) -> set:
    """The values computed from a loop result through a barrier that hides part of its
    type (the result is already more precise than the barrier states): those the last
    round refined without knowing what the loop gives."""
    pending: list = []

    def collect(op):
        if hides_type(op):
            pending.append(op.results[0])
        return ir.WalkResult.ADVANCE

    module.walk(collect)
    return computed_from(pending)


def hides_type(op) -> bool:
    return BARRIER in op.attributes and op.operands[0].type != op.results[0].type


def computed_from(pending: list) -> set:
    hidden: set = set()
    while pending:
        value = pending.pop()
        if value in hidden:
            continue
        hidden.add(value)
        for use in value.uses:
            pending.extend(_dependents(use.owner))
    return hidden


def _dependents(user) -> list:
    """The values computed from any operand of `user`: its results, the arguments of its
    regions, and for a terminator its parent's results (and a loop's carried arguments)."""
    found = list(user.results)
    for region in user.regions:
        for block in region.blocks:
            found.extend(block.arguments)
    if user.operation.name in ("torch.prim.If.yield", "torch.prim.Loop.condition"):
        found.extend(_dependents(user.operation.parent))
    return found


def reads_any(loop, values: set) -> bool:
    """Whether the loop or an op in its body has an operand among `values`."""
    if not values:
        return False
    found = False

    def visit(op):
        nonlocal found
        found = any(operand in values for operand in op.operands)
        return ir.WalkResult.INTERRUPT if found else ir.WalkResult.ADVANCE

    loop.operation.walk(visit)
    return found


def reset_users(result: ir.Value) -> None:
    """Forget the types derived from a loop result behind its barrier: torch-mlir's
    folders look through a `tensor_static_info_cast`, so a calculation of a user could read
    the assumed type the barrier hides (a `cat` of the result typed by the refuted
    assumption's sizes). The next round refines them under the widened type."""
    barriers = [use.owner.results[0] for use in result.uses if BARRIER in use.owner.attributes]
    if not barriers:
        return
    function = enclosing_function(result.owner)
    erase_value_types([v for v in computed_from(barriers) if v not in barriers], function, is_typed_condition)


def forget_derived(results: list) -> None:
    """Forget the types and dims derived from loop results whose assumed dims a back edge
    refuted: the ops reading them are refined again (their checks were deferred)."""
    if not results:
        return
    derived = [v for v in computed_from(list(results)) if v not in results]
    for value in derived:
        if isinstance(value, ir.OpResult) and dim_facts.ATTRIBUTE in value.owner.attributes:
            del value.owner.attributes[dim_facts.ATTRIBUTE]
    erase_value_types(derived, enclosing_function(results[0].owner), is_typed_condition)


def install_barrier(loop, result: ir.Value) -> None:
    """Let the result's users keep seeing its type until the assumption is checked."""
    uses = list(result.uses)
    if not uses:
        return
    with ir.InsertionPoint.after(loop), loop.location:
        barrier = cast(result, result.type)
    barrier.owner.attributes[BARRIER] = ir.UnitAttr.get()
    for use in uses:
        use.owner.operands[use.operand_number] = barrier


def remove_barrier(result: ir.Value) -> bool:
    """Hand the users the result itself; True when users that may be refined now see it."""
    for use in list(result.uses):
        if BARRIER in use.owner.attributes:
            return open_barrier(use.owner)
    return False


def open_barrier(barrier) -> bool:
    """Users that allow refinement take the barrier's source, a plain cast stays for the
    others; True when any user took the source."""
    del barrier.attributes[BARRIER]
    source = barrier.operands[0]
    rewired = False
    for use in list(barrier.result.uses):
        if accepts(use, source.type):
            use.owner.operands[use.operand_number] = source
            # Casts are read through (`source_info`): only other users refine anew.
            rewired |= use.owner.operation.name != "torch.tensor_static_info_cast"
    if not len(list(barrier.result.uses)):
        barrier.operation.erase()
    return rewired
