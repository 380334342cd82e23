"""torch-refine-propagate-control-flow: joins across `prim.If`, fixed points over `prim.Loop`.

Region yields must have exactly their parent's types, so branch and back-edge values reach
their yield through `tensor_static_info_cast`s; the facts are read through those casts.

If: each tensor result becomes meet(result, join(then value, else value)).

Loop (one step per run; the refinement pipeline iterates until `propagate` reports no
change, re-refining the body in between): a carried tensor whose type is still unknown is
optimistically given its init value's type, and the body's derived types are reset so
the next round recomputes them under that assumption. Once the back-edge value is
computed, the assumption holds if it is at least as precise as the carried type; if not,
the carried type is widened to the join and the body is reset again. Widening to a fully
unknown type marks the loop (`torch_refine.loop_widened`) so it is not assumed again.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from torch_mlir import ir

from torch_refine.ir import types
from torch_refine.ir.constants import defining_op
from torch_refine.ir.erase import erase_types_below, required_type
from torch_refine.ir.retype import allows_type_refinement, cast, refine_value
from torch_refine.passes.base import ModulePass

_WIDENED = "torch_refine.loop_widened"


@dataclasses.dataclass
class PropagateControlFlow(ModulePass):
    name: ClassVar[str] = "torch-refine-propagate-control-flow"
    description: ClassVar[str] = (
        "Refine prim.If results to the join of their branches and loop-carried tensors to a "
        "fixed point over the back edge"
    )

    def run(self, module) -> None:
        self.changed = propagate(module)


def propagate(module: ir.Operation) -> bool:
    """One propagation step over the module; True when any type changed."""
    ops: list = []

    def collect(op):
        if op.name in ("torch.prim.If", "torch.prim.Loop"):
            ops.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(collect, ir.WalkOrder.POST_ORDER)  # inner constructs first
    changed = False
    for op in ops:
        step = _join_if if op.name == "torch.prim.If" else _step_loop
        changed |= step(op.opview)
    return changed


def source_info(value: ir.Value) -> types.TensorInfo | None:
    """What the value's origin states, looking through static-info casts.

    Casts on the way are not facts here: the back-edge cast states the very assumption
    being checked.
    """
    return types.parse(cast_source(value).type)


def cast_source(value: ir.Value) -> ir.Value:
    producer = defining_op(value)
    while producer is not None and producer.operation.name == "torch.tensor_static_info_cast":
        value = producer.operands[0]
        producer = defining_op(value)
    return value


def _terminator(region: ir.Region):
    return list(region.blocks[0].operations)[-1]


def _join_if(if_op) -> bool:
    then_yield, else_yield = _terminator(if_op.regions[0]), _terminator(if_op.regions[1])
    changed = False
    for index, result in enumerate(if_op.results):
        stated = types.parse(result.type)
        then_info, else_info = source_info(then_yield.operands[index]), source_info(else_yield.operands[index])
        if stated is None or then_info is None or else_info is None:
            continue
        refined = types.meet(stated, types.join(then_info, else_info))
        if refined is None or refined == stated:
            continue
        new_type = types.to_type(refined)
        refine_value(result, new_type, if_op)
        for terminator in (then_yield, else_yield):
            _retype_yielded(terminator, index, new_type)
        changed = True
    return changed


def _retype_yielded(terminator, index: int, new_type: ir.Type) -> None:
    """Make the terminator's operand `index` have `new_type` (by a cast from its source)."""
    value = terminator.operands[index]
    if value.type == new_type:
        return
    producer = defining_op(value)
    if producer is not None and producer.operation.name == "torch.tensor_static_info_cast":
        if len(list(value.uses)) == 1:
            value.set_type(new_type)
            return
        value = producer.operands[0]
    with ir.InsertionPoint(terminator), terminator.location:
        terminator.operands[index] = cast(value, new_type)


def _step_loop(loop) -> bool:
    condition = _terminator(loop.regions[0])
    widened_before = _WIDENED in loop.attributes
    changed = False
    for index, result in enumerate(loop.results):
        carried = types.parse(result.type)
        init = source_info(loop.operands[index + 2])
        back = source_info(condition.operands[index + 1])
        if carried is None or init is None:
            continue
        if carried.is_unknown:
            if widened_before or init.is_unknown:
                continue
            target = init  # optimistic assumption, checked in a later step
        elif back is not None and types.is_at_least_as_precise(back, carried):
            continue  # the assumption holds
        else:
            target = types.join(carried, back if back is not None else types.erased(carried))
            if target.is_unknown:
                loop.attributes[_WIDENED] = ir.UnitAttr.get()
        _reset_body(loop)
        _set_carried_type(loop, index, types.to_type(target))
        changed = True
    return changed


def _reset_body(loop) -> None:
    """Forget the types derived inside the body (the next round recomputes them)."""
    erase_types_below(loop, keep_entry_arguments=True)


def _set_carried_type(loop, index: int, new_type: ir.Type) -> None:
    body = loop.regions[0].blocks[0]
    condition = _terminator(loop.regions[0])
    _retype_with_casts(body.arguments[index + 1], new_type, ir.InsertionPoint.at_block_begin(body))
    _retype_with_casts(loop.results[index], new_type, None)
    _retype_yielded(condition, index + 1, new_type)
    old_init = loop.operands[index + 2]
    source = cast_source(old_init)
    if source.type != new_type:
        with ir.InsertionPoint(loop), loop.location:
            source = cast(source, new_type)
    loop.operands[index + 2] = source
    _erase_if_unused_cast(old_init)


def _erase_if_unused_cast(value: ir.Value) -> None:
    producer = defining_op(value)
    is_cast = producer is not None and producer.operation.name == "torch.tensor_static_info_cast"
    if is_cast and not len(list(value.uses)):
        producer.operation.erase()


def _retype_with_casts(value: ir.Value, new_type: ir.Type, insertion_point) -> None:
    """Retype a carried value; users that need another type get a cast to it.

    The needed type is the user's own (a list's element type, a yield's parent type, the
    signature at a return), never the value's stale old type: widening must not assert
    facts that no longer hold.
    """
    old_type = value.type
    value.set_type(new_type)
    for use in list(value.uses):
        if allows_type_refinement(use.owner.operation.name):
            continue
        required = required_type(use, old_type)
        if required == new_type:
            continue
        with insertion_point or ir.InsertionPoint(use.owner), use.owner.location:
            use.owner.operands[use.operand_number] = cast(value, required)
