"""Why a tensor value stayed unknown or partial: the one source of reasons for the
pipeline's `explain` option (torch-refine-opt's remarks), the API's report and `make run`.

Reasons come from what the passes saw. While explaining, the simplifier marks each op
whose calculation left something unknown with the first op of the calculation that
blocked folding (`record_blocker`; nothing is recorded otherwise). `annotate` then gives
every op with a tensor result that is not exact one reason, in this order:

- control flow (`prim.If`, `prim.Loop`: branches or iterations disagree), a call;
- no shape (or dtype) function for the op;
- an operand the function needs is already unknown: the reason names that operand and
  where it was made, so a chain of reasons leads to its first cause;
- a data-dependent size, or a dtype PyTorch decides from sizes (einsum's);
- what blocked the calculation (a loop with a non-constant trip count, an unroll cap hit,
  an If on an unknown condition, a list mutated where it cannot be followed) when an
  operand the calculation could not see explains it: a scalar that is not a constant, a
  list that is not a literal or is mutated (named in the reason);
- an operand already partial: its dynamic dims (or a size read off a tensor) flow on, and
  are what blocked folding;
- what blocked the calculation; otherwise the function left it undecided.

Reasons are kept as a `torch_refine.why` string attribute on the op until `take` reads and
removes them (a mark on the module says there are some: `take` costs nothing otherwise).
An op whose reason is not inherited from an operand (or a cast) stopped refinement.
"""

from __future__ import annotations

from torch_mlir import ir

from torch_refine.calculations.kind import DTYPE, SHAPE, CalculationKind
from torch_refine.calculations.lists import LIST_MUTATING_OPS
from torch_refine.calculations.symbols import library_key, user_functions
from torch_refine.engine.fallback import MARK as FALLBACK_MARK
from torch_refine.engine.fallback import SERVED
from torch_refine.ir import types
from torch_refine.ir.constants import NotConstant, constant_value, is_constant
from torch_refine.ir.diagnostics import position_of

WHY = "torch_refine.why"
_EXPLAINED = "torch_refine.explained"  # on the module: `take` has reasons to read
_BLOCKED = {SHAPE.name: "torch_refine.shape_blocked", DTYPE.name: "torch_refine.dtype_blocked"}
CAST = "a cast to the type its users need (its operand holds the refined type)"
INHERITED = ("operand already unknown", "operand already partial", CAST)
CONTROL_FLOW = "control flow: the branches or iterations yield different types"
CALL_RESULT = "function call: the callee's result type"
DATA_DEPENDENT = "data-dependent size"
SIZE_DEPENDENT = "dtype decided by sizes"


def location_text(location: ir.Location) -> str:
    """`file:line:col`, the file without its directory; `unknown` without a file position."""
    position = position_of(location)
    if position is None:
        return "unknown"
    return f"{position.file.rsplit('/', 1)[-1]}:{position.line}:{position.col}"


# --- what blocked a calculation (recorded by the simplifier) ---------------------------------


def blocker(calc, kind: CalculationKind, op_key: str) -> str | None:
    """Why a simplified calculation left something unknown: the first op in it that blocked
    folding, `op_key` naming the wrapped op; None when nothing blocked it (sizes that
    depend on dynamic operand sizes). Read only when explaining."""
    found: list = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        found.append(op)
        return ir.WalkResult.ADVANCE

    for op in calc.regions[1].blocks[0].operations:
        op.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    if kind is SHAPE and _yields_unknown_dim(calc):
        return f"{DATA_DEPENDENT} ({op_key})"
    if kind is DTYPE and _yields_unknown_dtype(calc):
        return f"{SIZE_DEPENDENT} ({op_key})"
    for op in found:
        if (text := _blocking(op)) is not None:
            where = location_text(op.location)
            at = "" if where == "unknown" else f" at {where}"
            return f"{kind.name} function did not simplify: {text}{at}"
    return None


def _yields_unknown_dim(calc) -> bool:
    """Whether the yielded sizes may hold a dim the library function left unknown on
    purpose (`unknown_dim()`, lowered to `torch.prim.Uninitialized`), directly or out of
    the branches of an undecided If."""
    terminator = list(calc.regions[1].blocks[0].operations)[-1]
    pending = []
    for value in terminator.operands:
        literal = value.owner if isinstance(value, ir.OpResult) else None
        if literal is not None and literal.name == "torch.prim.ListConstruct":
            pending += list(literal.operands)
    return _may_be_uninitialized(pending)


def _yields_unknown_dtype(calc) -> bool:
    """Whether a yielded dtype may be one the library function left to the sizes
    (`unknown_dtype()`, lowered to `torch.prim.Uninitialized`)."""
    terminator = list(calc.regions[1].blocks[0].operations)[-1]
    return _may_be_uninitialized(list(terminator.operands))


def _may_be_uninitialized(pending: list) -> bool:
    """Whether one of the values is a `torch.prim.Uninitialized`, directly or out of the
    branches of an undecided If."""
    seen = 0
    while pending and seen < 10_000:  # an If's branches can nest deeply; stop somewhere
        seen += 1
        value = pending.pop()
        producer = value.owner if isinstance(value, ir.OpResult) else None
        if producer is None:
            continue
        if producer.name == "torch.prim.Uninitialized":
            return True
        if producer.name == "torch.prim.If":
            for region in producer.regions:
                branch_yield = list(region.blocks[0].operations)[-1]
                pending.append(branch_yield.operands[value.result_number])
    return False


def _blocking(op: ir.Operation) -> str | None:
    name = op.name
    if name in LIST_MUTATING_OPS:
        return f"a list mutated by {name.removeprefix('torch.')} where it cannot be followed"
    if name == "torch.prim.If" and not is_constant(op.operands[0]):
        return f"an If on an unknown condition ({_made_by(op.operands[0])})"
    if name != "torch.prim.Loop":
        return None
    try:
        trip_count = constant_value(op.operands[0])
    except NotConstant:
        return f"a loop with a non-constant trip count ({_made_by(op.operands[0])})"
    if not is_constant(op.operands[1]):  # a while-like loop is peeled while this is known
        return f"a loop whose condition is unknown ({_made_by(op.operands[1])})"
    return f"a loop of {trip_count} iterations over the unroll cap"


def _made_by(value: ir.Value) -> str:
    if isinstance(value, ir.OpResult):
        return f"computed by {value.owner.name.removeprefix('torch.')}"
    return "a block argument"


def record_blocker(wrapped, kind: CalculationKind, text: str) -> None:
    wrapped.operation.attributes[_BLOCKED[kind.name]] = ir.StringAttr.get(text)


def recorded_blocker(wrapped, kind: CalculationKind) -> str | None:
    attributes = wrapped.operation.attributes
    name = _BLOCKED[kind.name]
    return ir.StringAttr(attributes[name]).value if name in attributes else None


# --- one reason per op ------------------------------------------------------------------------


def annotate(module: ir.Operation, has_function, without_blockers: bool = False) -> None:
    """Give each op with a tensor result that is not exact its reason (`WHY`, kept when it
    has one), in program order; remove the simplifier's blocker marks.
    `has_function(key, kind_names)` is the library's `has_function`; `without_blockers`:
    the simplifier recorded nothing (the pipeline did not run, or not with `explain`)."""
    module.operation.attributes[_EXPLAINED] = ir.UnitAttr.get()
    for fn in user_functions(module):
        state = None  # value names as printed; built once, for the first inherited reason
        ops: list = []

        def visit(op: ir.Operation) -> ir.WalkResult:
            ops.append(op)
            return ir.WalkResult.ADVANCE

        fn.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
        for op in ops[1:]:
            if WHY not in op.attributes and (missing := _missing(op)) is not None:
                if state is None:
                    state = ir.AsmState(fn.operation)
                reason = _reason(op, missing, has_function, state)
                if without_blockers and reason == _undecided(missing):
                    reason += " (torch-refine-pipeline{explain=true} says why)"
                op.attributes[WHY] = ir.StringAttr.get(reason)
            elif FALLBACK_MARK in op.attributes:  # exact: say it went through the fallback
                op.attributes[WHY] = ir.StringAttr.get(SERVED)
            if FALLBACK_MARK in op.attributes:
                del op.attributes[FALLBACK_MARK]
            for name in _BLOCKED.values():
                if name in op.attributes:
                    del op.attributes[name]


def _missing(op: ir.Operation) -> CalculationKind | None:
    """SHAPE when a tensor result lacks sizes, DTYPE when one lacks only a dtype."""
    lacking = None
    for result in op.results:
        info = types.parse(result.type)
        if info is None or info.is_exact:
            continue
        if info.sizes is None or None in info.sizes:
            return SHAPE
        lacking = DTYPE
    return lacking


def _reason(op: ir.Operation, kind: CalculationKind, has_function, state) -> str:
    if op.name in ("torch.prim.If", "torch.prim.Loop"):
        return CONTROL_FLOW
    if op.name == "func.call":
        return CALL_RESULT
    if op.name == "torch.tensor_static_info_cast":
        return CAST
    key = library_key(op) or op.name
    if not has_function(key, (kind.name,)):
        return _fallback_reason(op, kind, state) or f"no {kind.name} function for {key}"
    unknown, partial = _lacking_operands(op, kind)
    if unknown is not None:
        return f"operand already unknown (from {_describe(unknown, state)})"
    blocked = recorded_blocker(op, kind)
    if blocked is not None and blocked.startswith((DATA_DEPENDENT, SIZE_DEPENDENT)):
        return blocked
    opaque = _opaque_operand(op, state) if blocked is not None else None
    if opaque is not None:
        return f"{blocked}; {opaque}"
    if partial is not None:  # what blocked the calculation were the operand's dynamic dims
        return f"operand already partial (from {_describe(partial, state)})"
    return blocked or _undecided(kind)


def _fallback_reason(op: ir.Operation, kind: CalculationKind, state) -> str | None:
    """The reason of an op the meta fallback typed (engine/fallback.py), None for others:
    what it left unknown, else the operand it inherited that from."""
    if FALLBACK_MARK not in op.attributes:
        return None
    reason = ir.StringAttr(op.attributes[FALLBACK_MARK]).value
    if reason:
        return reason
    unknown, partial = _lacking_operands(op, kind)
    if unknown is not None:
        return f"operand already unknown (from {_describe(unknown, state)})"
    return SERVED if partial is None else f"{SERVED}; dynamic dims from {_describe(partial, state)}"


def _undecided(kind: CalculationKind) -> str:
    return f"{kind.name} function left it undecided"


def _lacking_operands(op: ir.Operation, kind: CalculationKind):
    """The first tensor operand lacking what the function reads (a rank for shapes, a rank
    or dtype for dtypes), and the first operand that is otherwise not exact (a tensor with
    dynamic dims, a size read off one); each may be None. A list literal's elements count
    as operands."""
    unknown = partial = None
    pending = list(reversed(list(op.operands)))
    while pending and unknown is None:
        value = pending.pop()
        info = types.parse(value.type)
        if info is None:
            producer = value.owner if isinstance(value, ir.OpResult) else None
            if producer is not None and producer.name == "torch.prim.ListConstruct":
                pending.extend(reversed(list(producer.operands)))
            elif partial is None and _is_dynamic_size(value):
                partial = value
            continue
        if info.sizes is None or (kind is DTYPE and info.dtype is None):
            unknown = value
        elif partial is None and not info.is_exact:
            partial = value
    return unknown, partial


def _opaque_operand(op: ir.Operation, state) -> str | None:
    """A hint at why a calculation did not fold: the first scalar operand that is not a
    constant, or list operand whose elements the calculation could not see (not a list
    literal, or one something mutates); None when there is none."""
    for value in op.operands:
        type_text = str(value.type)
        if types.parse_text(type_text) is not None or type_text == "!torch.none":
            continue
        producer = value.owner if isinstance(value, ir.OpResult) else None
        name = value.get_name(state)
        where = "a function argument" if producer is None else _made_at(producer)
        if not type_text.startswith("!torch.list<"):
            made_by_constant = producer is not None and producer.name.startswith("torch.constant.")
            if not (made_by_constant or is_constant(value) or _is_dynamic_size(value)):
                return f"its operand {name} is not a constant ({where})"
            continue
        if producer is None or producer.name != "torch.prim.ListConstruct":
            return f"its list operand {name} is not a list literal ({where})"
        for use in value.uses:
            if use.owner.name in LIST_MUTATING_OPS:
                return f"its list operand {name} is mutated ({_made_at(use.owner)})"
    return None


def _is_dynamic_size(value: ir.Value) -> bool:
    """A size read off a tensor (`aten.size.int`): unknown only because the tensor's dim is."""
    return isinstance(value, ir.OpResult) and value.owner.name == "torch.aten.size.int"


def _made_at(op: ir.Operation) -> str:
    return f"by {op.name.removeprefix('torch.')} at {location_text(op.location)}"


def _describe(value: ir.Value, state) -> str:
    name = value.get_name(state)
    if isinstance(value, ir.BlockArgument):
        return f"{name}, an argument"
    return f"{name} at {location_text(value.owner.location)}"


def category(reason: str) -> str:
    """A reason without what locates it: the op, the operand, the blocking op."""
    for mark in (" for ", " (", ":"):
        reason = reason.split(mark, 1)[0]
    return reason


def take(module: ir.Operation) -> list[tuple[ir.Location, str]]:
    """The reasons `annotate` left, as (location of the op, reason) in program order,
    removed from the IR; nothing, without a walk, when `annotate` did not run."""
    attributes = module.operation.attributes
    if _EXPLAINED not in attributes:
        return []
    del attributes[_EXPLAINED]
    found: list = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if (reason := reason_of(op)) is not None:
            found.append((op.location, reason))
            del op.attributes[WHY]
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


def reason_of(op: ir.Operation) -> str | None:
    """The reason `annotate` gave `op`, if any."""
    attributes = op.attributes
    return ir.StringAttr(attributes[WHY]).value if WHY in attributes else None


def stopped_refinement(reason: str) -> bool:
    """Whether the op with this reason stopped refinement itself (not through an operand)."""
    return not reason.startswith(INHERITED)
