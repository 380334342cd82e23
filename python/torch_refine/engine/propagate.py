"""torch-refine-propagate-control-flow: joins across `prim.If`, fixed points over `prim.Loop`.

Region yields must have exactly their parent's types, so branch and back-edge values reach
their yield through `tensor_static_info_cast`s; the facts are read through those casts.

If: each tensor result becomes meet(result, join(then value, else value)).

Loop (one step per run; the refinement pipeline iterates until `propagate` reports no
change, re-refining the body in between): a carried tensor whose type is still unknown is
optimistically given its init value's type, and the body's derived types are reset so
the next round recomputes them under that assumption. Once the back-edge value is
computed, the assumption holds if it is at least as precise as the carried type; if not,
the carried type is widened to the join and the body is reset again, unless the body
reads a value computed behind another loop's unconfirmed barrier (below): its back edge
was computed without what that barrier hides, so the check waits for it. Widening to a
fully unknown type marks the loop (`torch_refine.loop_widened`) so it is not assumed again.
A carried type known in part whose init says more (refined after the type was stated or
settled) is narrowed to the init's type once per loop, as an assumption checked the same
way, without a reset: what the body derived under the wider type still holds. A
reset also drops the symbolic-dims facts of the ops it resets (they were derived under the
assumption). Ops after the loop see no assumption: while one is unchecked, the loop's
result reaches its users through a *barrier*, a static-info cast back to the result's
type before the assumption (`torch_refine.loop_assumption`); the step that confirms the
assumption removes the barrier, and the next round refines the users. Neither can a check
of the body fail on an assumption and stop refinement: only errors of the first round,
which assumes nothing, stop it: a loop whose carried types are not yet checked is marked
(`torch_refine.loop_assuming`), and `under_assumption` tells the passes that a check
failing in its body says nothing yet.
"""

from __future__ import annotations

from torch_mlir import ir

from torch_refine.calculations import dim_facts
from torch_refine.calculations.store import FactStore
from torch_refine.engine.barriers import (
    BARRIER,
    behind_barriers,
    computed_from,
    forget_derived,
    hides_type,
    install_barrier,
    open_barrier,
    reads_any,
    remove_barrier,
    reset_users,
)
from torch_refine.engine.known_values import is_typed_condition
from torch_refine.ir import types
from torch_refine.ir.constants import defining_op, op_key
from torch_refine.ir.erase import erase_types_below, erase_unused_casts, required_type
from torch_refine.ir.module import enclosing_ops
from torch_refine.ir.retype import (
    allows_type_refinement,
    cast,
    cast_source,
    refine_value,
)
from torch_refine.patterns.control_flow import PEELED

_WIDENED = "torch_refine.loop_widened"
_ASSUMING = "torch_refine.loop_assuming"  # on a loop whose carried types are not yet checked
_NARROWED = "torch_refine.loop_narrowed"  # on a loop not to narrow (again): narrowed once, or widened
_NARROWING = "torch_refine.loop_narrowing"  # on a loop whose narrowed carried types are not yet checked
_LOOP_DIMS = dim_facts.LOOP_DIMS  # on a loop whose body assumes its carried values keep their init's dims
_DIMS_WIDENED = "torch_refine.loop_dims_widened"  # on a loop whose back edge did not keep them


def propagate(module: ir.Operation, run: FactStore) -> bool:
    """One propagation step over the module; True when another round is needed (a type
    changed, a check is still to come, or a loop settled and its deferred checks wait).
    `run`: the run's fact store, which keeps what the binds say of argument dims.

    Loops first make their assumptions outermost first (an inner loop's init is often an
    outer loop's carried value); then Ifs are joined and loops checked innermost first (an
    outer loop's back edge is often an inner loop's result). A loop whose body changed in
    this step is not checked: its back edge is recomputed by the next round."""
    constructs: list = []

    def collect(op):
        if op.name in ("torch.prim.If", "torch.prim.Loop"):
            constructs.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(collect, ir.WalkOrder.PRE_ORDER)
    hidden = behind_barriers(module)  # before this step's assumptions add barriers
    changed = False
    stale: set = set()  # ops whose body changed in this step: their back edges are stale
    for op in constructs:
        if op.name != "torch.prim.Loop":
            continue
        ancestors = _ancestor_keys(op)
        if _assume(op.opview, run, body_reset=any(key in stale for key in ancestors)):
            changed = True
            stale.add(op_key(op))
            stale.update(ancestors)
    for op in reversed(constructs):  # inner constructs first
        if op.name == "torch.prim.If":
            types_changed = another_round = _join_if(op.opview)
        else:
            types_changed, another_round = _step_loop(op.opview, run, check=op_key(op) not in stale, hidden=hidden)
        changed |= another_round
        if types_changed:
            _mark_ancestors_stale(op, stale)
    return changed


def widen_unconfirmed(module: ir.Operation) -> bool:
    """Widen to unknown every loop-carried value whose assumption the body's back edge does
    not confirm: for a pipeline that stops before the fixed point. True when any was
    widened (the caller refines again, then asks again)."""
    loops: list = []

    def collect(op):
        if op.name == "torch.prim.Loop":
            loops.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(collect, ir.WalkOrder.POST_ORDER)
    widened = False
    for loop in loops:
        loop = loop.opview
        condition = _terminator(loop.regions[0])
        backs = [source_info(condition.operands[index + 1]) for index in range(len(loop.results))]
        for index, result in enumerate(loop.results):
            carried = types.parse(result.type)
            back = backs[index]
            if carried is None or carried.is_unknown:
                continue
            if back is not None and types.is_at_least_as_precise(back, carried):
                continue
            loop.attributes[_WIDENED] = ir.UnitAttr.get()
            _reset_body(loop)
            widened = True
            _set_carried_type(loop, index, types.to_type(types.erased(carried)))
        if _ASSUMING in loop.attributes:  # confirmed or widened: settled either way
            del loop.attributes[_ASSUMING]
        _end_narrowing(loop)
    return widened


def _ancestor_keys(op) -> list:
    return [op_key(parent) for parent in enclosing_ops(op)]


def _mark_ancestors_stale(op, stale: set) -> None:
    """Add the keys of the constructs holding `op` to `stale`, up to the first one there: a
    key is only ever added with all of its ancestors', so the rest are too (marking every
    ancestor of every changed If made 1,000 nested Ifs quadratic)."""
    for parent in enclosing_ops(op):
        key = op_key(parent)
        if key in stale:
            return
        stale.add(key)


def source_info(value: ir.Value) -> types.TensorInfo | None:
    """What the value's origin states, looking through static-info casts.

    Casts on the way are not facts here: the back-edge cast states the very assumption
    being checked.
    """
    return types.parse(cast_source(value).type)


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
    """Make the terminator's operand `index` have `new_type`, by one cast from its source:
    a chain of casts may hold one to a type assumed earlier, which no longer holds."""
    value = terminator.operands[index]
    source = cast_source(value)
    if value.type == new_type and (value == source or defining_op(value).operands[0] == source):
        return
    if source.type == new_type:
        terminator.operands[index] = source
    else:
        with ir.InsertionPoint(terminator), terminator.location:
            terminator.operands[index] = cast(source, new_type)
    erase_unused_casts(value)


def in_unsettled_loop(op, first_round: bool, cache: dict, run: FactStore) -> bool:
    """Whether `op` is in the body of a loop whose carried types may still change: one
    whose assumption is unchecked, or in the first round one that the next step will
    assume (a carried tensor still unknown, its init's type known). `cache` holds the
    answer per loop for one refinement of the module."""
    for parent in enclosing_ops(op):
        if parent.name != "torch.prim.Loop":
            continue
        key = op_key(parent)
        if key not in cache:
            cache[key] = _ASSUMING in parent.attributes or (first_round and _will_assume(parent.opview, run))
        if cache[key]:
            return True
    return False


def _will_assume(loop, run: FactStore) -> bool:
    if _WIDENED in loop.attributes:
        return False
    if _dims_to_assume(loop, run) is not None:
        return True
    for index, result in enumerate(loop.results):
        carried = types.parse(result.type)
        init = source_info(loop.operands[index + 2])
        if carried is not None and carried.is_unknown and init is not None and not init.is_unknown:
            return True
    return False


def under_assumption(op) -> bool:
    """Whether `op` sits in the body of a loop whose assumed carried types are unchecked."""
    return any(_ASSUMING in parent.attributes or _NARROWING in parent.attributes for parent in enclosing_ops(op))


def _end_narrowing(loop) -> None:
    if _NARROWING in loop.attributes:
        del loop.attributes[_NARROWING]


def _assume(loop, run: FactStore, body_reset: bool) -> bool:
    """Give each carried value still unknown its init value's type; True when any.
    `body_reset`: an enclosing loop's reset of this step already erased the body."""
    if _WIDENED in loop.attributes:
        return False
    assumed = False
    for index, result in enumerate(loop.results):
        carried = types.parse(result.type)
        init = source_info(loop.operands[index + 2])
        if carried is None or init is None or not carried.is_unknown or init.is_unknown:
            continue
        if not assumed and not body_reset:
            _reset_body(loop)
        loop.attributes[_ASSUMING] = ir.UnitAttr.get()
        install_barrier(loop, result)
        _set_carried_type(loop, index, types.to_type(init))
        assumed = True
    dims = _dims_to_assume(loop, run)
    if dims is None:
        dims = _renamed_init_dims(loop, run)
    if dims is not None:
        if not assumed and not body_reset:
            _reset_body(loop)
        loop.attributes[_LOOP_DIMS] = ir.ArrayAttr.get(
            [ir.ArrayAttr.get([ir.StringAttr.get(d) for d in value_dims]) for value_dims in dims])
        loop.attributes[_ASSUMING] = ir.UnitAttr.get()
        assumed = True
    return assumed or _narrow(loop)


def _dims_to_assume(loop, run: FactStore) -> list | None:
    """Induction over loop-carried sizes: per carried tensor, its init's dims where they
    name every dynamic size of its type (else []), when any does and the loop has not
    assumed (or refuted) them yet. The body is refined under them; the back edge must give
    them again (`_dims_hold`), so each iteration starts with them: an LSTM's state batch
    is the input's in every step, checked once instead of per step."""
    if any(name in loop.attributes for name in (_LOOP_DIMS, _DIMS_WIDENED, _WIDENED)):
        return None
    found = _init_dims(loop, run)
    return found if any(found) else None


def _renamed_init_dims(loop, run: FactStore) -> list | None:
    """The dims to assume anew while the loop still assumes: an init computed after an
    earlier loop was first named by that loop's fresh sizes, and once the earlier loop's
    induction names them by the arguments', so does this one's (a second LSTM layer's
    output keeps the input's batch, not the first layer's fresh symbol for it)."""
    if _ASSUMING not in loop.attributes or _LOOP_DIMS not in loop.attributes:
        return None
    assumed = dim_facts.assumed_loop_dims(loop)
    current_dims = _init_dims(loop, run)
    renamed = [current if dims and current else dims for dims, current in zip(assumed, current_dims, strict=True)]
    return renamed if renamed != assumed else None


def _init_dims(loop, run: FactStore) -> list:
    """Per carried value, its init's dims where they name every dynamic size of its type,
    else []."""
    found = []
    for index, result in enumerate(loop.results):
        carried = types.parse(result.type)
        dims = None
        if carried is not None and carried.sizes is not None and None in carried.sizes:
            dims = dim_facts.tensor_dims(loop.operands[index + 2], run)
        usable = (dims is not None and len(dims) == len(carried.sizes) and all(dims)
                  and all(size is None or d == str(size) for d, size in zip(dims, carried.sizes, strict=True)))
        found.append(dims if usable else [])
    return found


def _dims_hold(loop, condition, run: FactStore) -> bool:
    """Whether each back edge gives the dims its carried value was assumed to keep."""
    return all(not dims or dim_facts.tensor_dims(condition.operands[index + 1], run) == dims
               for index, dims in enumerate(dim_facts.assumed_loop_dims(loop)))


def _narrow(loop) -> bool:
    """Once per loop, assume a carried value known in part to be its init value's type
    where that says more (the init was refined after the carried type was stated or
    settled: an ONNX LSTM's output buffer, `[?,?,16]` carried, `[8,?,16]` given); True
    when any. The body is not reset: what it derived under the wider type still holds,
    and its partial types are refined again, keeping no more checks (those kept under the
    wider type stand); a back edge that disagrees widens (and resets) as for any
    assumption."""
    if _NARROWED in loop.attributes or _ASSUMING in loop.attributes:
        return False
    narrowed = False
    for index, result in enumerate(loop.results):
        carried = types.parse(result.type)
        init = source_info(loop.operands[index + 2])
        if carried is None or init is None or carried.is_unknown:
            continue
        target = types.meet(carried, init)
        if target is None or target == carried:
            continue
        install_barrier(loop, result)
        _set_carried_type(loop, index, types.to_type(target))
        narrowed = True
    if narrowed:
        loop.attributes[_NARROWED] = ir.UnitAttr.get()
        loop.attributes[_NARROWING] = ir.UnitAttr.get()
    return narrowed


def _step_loop(loop, run: FactStore, check: bool, hidden: set) -> tuple[bool, bool]:
    """Check each assumed carried value, widening it when the back edge disagrees. Returns
    whether types in or after the loop changed, and whether another round is needed (they
    changed, a check is still to come, or the loop settled and its body's deferred checks
    are to be kept). With check=False (the body changed in this step, so its back edge is
    stale) nothing is checked. A back edge that disagrees while the loop reads a value
    computed behind another loop's barrier (`hidden`) is not widened to yet: the body
    was refined without what the barrier hides, and a widened carried value feeds back
    into itself (an LSTM's state would keep an unknown dtype for good)."""
    condition = _terminator(loop.regions[0])
    changed = unchecked = False
    # Read every back edge first: a reset for one carried value erases the others'.
    backs = [source_info(condition.operands[index + 1]) for index in range(len(loop.results))]
    for index, result in enumerate(loop.results):
        carried = types.parse(result.type)
        if carried is None or carried.is_unknown:  # not a tensor, or nothing assumed (`_assume`)
            continue
        if not check:
            unchecked = True  # a later step checks it
            continue
        back = backs[index]
        if back is not None and types.is_at_least_as_precise(back, carried):
            changed |= remove_barrier(result)  # the assumption holds
            continue
        if reads_any(loop, hidden):
            unchecked = True  # checked once the barrier it reads through is open
            continue
        target = types.join(carried, back if back is not None else types.erased(carried))
        if target.is_unknown:
            loop.attributes[_WIDENED] = ir.UnitAttr.get()
        loop.attributes[_NARROWED] = ir.UnitAttr.get()  # a widened loop is not narrowed again
        _end_narrowing(loop)  # the reset body is refined anew, its checks deferred
        _reset_body(loop)
        reset_users(result)
        _set_carried_type(loop, index, types.to_type(target))
        changed = unchecked = True
    if check and not unchecked and _LOOP_DIMS in loop.attributes and not _dims_hold(loop, condition, run):
        assumed = _results_with_assumed_dims(loop)
        del loop.attributes[_LOOP_DIMS]  # the body is refined anew, each iteration's sizes its own
        loop.attributes[_DIMS_WIDENED] = ir.UnitAttr.get()
        _reset_body(loop)
        forget_derived(assumed)
        changed = unchecked = True
    narrowing = _NARROWING in loop.attributes
    if unchecked:
        if not narrowing:
            loop.attributes[_ASSUMING] = ir.UnitAttr.get()
        return changed, True
    if narrowing:
        _end_narrowing(loop)
        return changed, changed  # nothing deferred: the checks kept under the wider type stand
    if _ASSUMING in loop.attributes:
        del loop.attributes[_ASSUMING]
        return changed, True  # settled: the next round keeps the checks its body deferred
    return changed, changed


def after_unsettled_loops(function, first_round: bool, run: FactStore) -> set:
    """The values computed from what a loop gives before its carried types settle: behind
    a barrier, and in the first round from the results of a loop carrying a tensor of
    unknown type (their types come later). Their ops' checks wait for the types, as the
    body's do."""
    pending: list = []

    def collect(op):
        if hides_type(op):
            pending.append(op.results[0])
        elif op.name == "torch.prim.Loop" and first_round and _carries_unknown(op):
            pending.extend(op.results)
        elif op.name == "torch.prim.Loop":
            pending.extend(_results_under_unchecked_dims(op, first_round, run))
        return ir.WalkResult.ADVANCE

    function.walk(collect)
    return computed_from(pending)


def _results_under_unchecked_dims(loop, first_round: bool, run: FactStore) -> list:
    """The results whose dims are the loop's induction (`dim_facts.assumed_result_dims`)
    before a back edge has confirmed them; in the first round, those it will assume."""
    if _ASSUMING in loop.attributes:
        return _results_with_assumed_dims(loop)
    dims = _dims_to_assume(loop, run) if first_round else None
    return [loop.results[index] for index, value_dims in enumerate(dims or []) if value_dims]


def _results_with_assumed_dims(loop) -> list:
    return [loop.results[index] for index, dims in enumerate(dim_facts.assumed_loop_dims(loop)) if dims]


def _carries_unknown(loop) -> bool:
    """A loop that the first round leaves with a carried tensor of unknown type (whose init
    is refined only as that round goes on)."""
    if _WIDENED in loop.attributes:
        return False
    return any((info := types.parse(result.type)) is not None and info.is_unknown for result in loop.results)


def _reset_body(loop) -> None:
    """Forget the types and facts derived inside the body (the next round recomputes them)."""
    erase_types_below(loop, keep_entry_arguments=True, keep=is_typed_condition)
    _strip_body_facts(loop)


def remove_barriers(module: ir.Operation) -> None:
    """Remove the barriers and marks a refinement run leaves (loops widened to unknown keep
    their barrier and mark; a capped run leaves more): every loop is confirmed or widened
    by then (`widen_unconfirmed`), and users refined behind a barrier saw a less precise
    type. No internal attribute leaves the pipeline."""
    marked = []

    def visit(op):
        if any(name in op.attributes for name in _MARKS):
            marked.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    for op in marked:
        for name in _LOOP_MARKS:
            if name in op.attributes:
                del op.attributes[name]
        if BARRIER in op.attributes:
            open_barrier(op)


_LOOP_MARKS = (_ASSUMING, _WIDENED, _NARROWED, _NARROWING, PEELED, _LOOP_DIMS, _DIMS_WIDENED)
_MARKS = (BARRIER, *_LOOP_MARKS)


def _strip_body_facts(loop) -> None:
    """Drop the symbolic-dims facts of the ops in the loop's body."""
    def visit(inner):
        if dim_facts.ATTRIBUTE in inner.attributes:
            del inner.attributes[dim_facts.ATTRIBUTE]
        return ir.WalkResult.ADVANCE

    for region in loop.regions:
        for block in region.blocks:
            for inner in block.operations:
                inner.operation.walk(visit)


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
    erase_unused_casts(old_init)


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
