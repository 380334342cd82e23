"""`torch-refine-drop-calculations`: replace each calculate op by the op it wraps.

The calculation region is dropped, but the checks it still contains are kept: a
`torch.prim.RaiseException` the simplify passes could not decide is a guard, and it
becomes

    torch.runtime.assert %ok, "<op>: <the library's message> (requires <condition>)"

in front of the wrapped op, at its location, with the pure ops computing `%ok`
moved out of the region. `%ok` says that some condition on the way to the raise does
not take it: for a raise in a branch of a `prim.If` on `%c` it is `%c` (or its negation,
with ops every torch-mlir backend conversion lowers, not `aten.__not__`); for a raise
nested in a branch of an If that computes values (a reshape's infer-size: "invalid shape
dimensions" where the size is not -1), the `__or__.bool` of each condition on the way
failing. Guards nested in the non-raising branch of a guard are kept too (that branch
runs whenever the op does). What a condition reads is computed without library code:
an If result as a select (`__and__.bool`/`__or__.bool` of bools, a short-circuit `and`
among them; `otherwise + int(condition) * (then - otherwise)` of ints; `x is None` of an
optional as the select of what it is in each branch), a branch whose check is asserted
before as reaching nothing. An op computed only on one side of an If is computed anyway
where it cannot fail (comparisons, int arithmetic, a size of a ranked tensor at a dim in
range), a division by `d + int(d == 0)`, which is `d` wherever the If divides. A message
built with `aten.format` keeps its format string. An undecided check of int64 overflow of
sizes (`is_overflow_check`) is dropped: sizes a program runs with never overflow.

A check that cannot become such an assert (one in a loop, reading its induction variable;
one reading a mutated list, or an op that may fail where the If would not run it, a size
only some ranks have) is dropped, as torch-mlir drops every check: no library code
(`prim.If`, `prim.Loop`, `prim.RaiseException`) goes into the program, which a backend
could not lower. The claims it protected go with it: the op's result types go back to
what they were before the calculation (reify records them on the calculate op), and
PyTorch's own check in the op raises where it fails. With `runtime-asserts=false` all
checks are dropped and the claims stay.

A check that fails whenever the op runs (a raise outside any If, an If raising on both
sides, or on the side its constant condition selects) is an error at the op, unless the op
sits in a branch or loop body that the program may never run (PyTorch runs such a program
as long as it does not get there): then it is a warning (`RefinementWarning`), the check
becomes `torch.runtime.assert %false` in front of the op, and the op's types stay as they
were.
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass

from torch_mlir import ir

from torch_refine.calculations.dim_facts import ATTRIBUTE
from torch_refine.calculations.kind import CALCULATE_OPS, RAISE, is_overflow_check
from torch_refine.calculations.purity import erase_if_dead
from torch_refine.calculations.ranges import enclosing_function
from torch_refine.calculations.store import FactStore
from torch_refine.calculations.symbols import user_functions
from torch_refine.engine.check_slices import Reach, movable_slice
from torch_refine.engine.guards import check_message, described_condition, message_text
from torch_refine.engine.known_values import negative_size_note
from torch_refine.engine.propagate import under_assumption
from torch_refine.engine.reify import STATED_TYPES
from torch_refine.errors import PassFailure, RefinementWarning
from torch_refine.ir.constants import make_constant, typed_constant
from torch_refine.ir.diagnostics import position_of
from torch_refine.ir.module import enclosing_ops, symbol_name
from torch_refine.patterns.scalars import negation


def drop_all(module, runtime_asserts: bool, store: FactStore) -> None:
    """Drop every calculate op of the module's user functions (a run of its own, `store`)."""
    with module.context:
        for calculate in _calculate_ops(module):
            drop(calculate, runtime_asserts, store)


def _calculate_ops(module) -> list:
    found = []

    def visit(op):
        if op.name in CALCULATE_OPS:
            found.append(op)
            return ir.WalkResult.SKIP
        return ir.WalkResult.ADVANCE

    for fn in user_functions(module):
        fn.operation.walk(visit)
    return found


@dataclass
class _Guard:
    path: tuple | None  # (condition, the value it has) of each If on the way to the raise; None in a loop
    message: str
    raising_block: ir.Block  # no op runs past it once the guard is asserted
    certain_block: ir.Block | None  # the non-raising branch of a guard nothing else conditions


def drop(calculate, runtime_asserts: bool, store: FactStore) -> None:
    """Replace one calculate op by the op it wraps, keeping its undecided checks as asserts
    (marked as the op's where the run's `store` marks checks)."""
    body = calculate.regions[0].blocks[0]
    wrapped = list(body.operations)
    terminator = wrapped.pop()
    anchor = wrapped[0] if wrapped else calculate  # a body may wrap no op (hand-written IR)
    calculation = calculate.regions[1].blocks[0]
    guards: list[_Guard] = []
    try:
        _find_guards(calculation, anchor, guards, store)
    except _CertainFailure as failure:
        if not guard_certain_failure(anchor, failure.message, calculate):
            raise PassFailure from None
        guards = []
        _drop_all_checks(calculation)
    inside = _values_defined_in(calculate.regions[1])
    cleanup = _outside_definers(calculate.regions[1], inside)
    reach = Reach([calculation], [])
    kept_every_check = True
    # An undecided overflow check is no guard (is_overflow_check): dropped as if asserted.
    for guard in guards if runtime_asserts else []:
        asserted = is_overflow_check(guard.message) or _materialize(guard, calculate, anchor, inside, reach, cleanup,
                                                                    store)
        kept_every_check &= asserted
        if not asserted:
            continue
        reach.dead.append(guard.raising_block)
        if guard.certain_block is not None:
            reach.certain.append(guard.certain_block)
    if not kept_every_check:
        _withdraw_claims(calculate, wrapped, terminator)
    for op in wrapped:
        op.operation.move_before(calculate)
    for result, value in zip(calculate.results, terminator.operands, strict=True):
        result.replace_all_uses_with(value)
    calculate.erase()
    erase_if_dead(cleanup)


def _withdraw_claims(calculate, wrapped: list, terminator) -> None:
    """A check the calculation kept could not become an assert: the op's results go back
    to the types they had before the calculation (reify recorded them), and their dims to
    no expressions. A claim that needs the check would hold only where PyTorch does not
    raise; the op now claims nothing the check protects, and PyTorch's own check in the
    op raises where it fails, as for an op whose types claim nothing (pipelines `_claims`)."""
    if STATED_TYPES not in calculate.attributes:
        return  # hand-written calculate ops: their types are what the program states
    stated = [ir.TypeAttr(attribute).value for attribute in ir.ArrayAttr(calculate.attributes[STATED_TYPES])]
    for value, stated_type in zip(terminator.operands, stated, strict=True):
        value.set_type(stated_type)
    for op in wrapped:
        if ATTRIBUTE in op.operation.attributes:
            del op.operation.attributes[ATTRIBUTE]


def _find_guards(block, wrapped_op, guards: list[_Guard], store: FactStore) -> None:
    """Collect the guards of the raises in `block`, in program order (a check reading what
    an If computes comes after the checks in its branches); fail on a certain raise.

    A stack of blocks being read, with the If conditions on the way to each, not
    recursion: library IR from an extra library can nest ifs deeper than Python's
    recursion limit. Loop bodies are not entered: their checks read the induction
    variable."""
    stack = [(iter(block.operations), block, ())]
    while stack:
        operations, current, path = stack[-1]
        op = next(operations, None)
        if op is None:
            stack.pop()
            continue
        nested, stops = _guards_at(op, current, path, wrapped_op, guards, store)
        if stops:
            stack.pop()  # nothing after a raise runs
        stack.extend((iter(b.operations), b, p) for b, p in reversed(nested))


def _guards_at(op, block, path: tuple, wrapped_op, guards: list[_Guard], store: FactStore) -> tuple[list, bool]:
    """The guards `op` (in `block`, reached on `path`) raises by, its blocks to read
    next with their paths, and whether it always raises."""
    name = op.operation.name
    if name == RAISE:
        if not path:
            _fail_always(wrapped_op, op, store)
        guards.append(_Guard(path, _message(op, wrapped_op, store), block, None))
        return [], True
    if name != "torch.prim.If":
        if len(op.operation.regions) and (raise_op := _first_raise(op)) is not None:
            # A check in a loop reads its induction variable: a guard no assert can state.
            guards.append(_Guard(None, _message(raise_op, wrapped_op, store), block, None))
        return [], False
    branches = [op.operation.regions[i].blocks[0] for i in (0, 1)]
    condition = op.operation.operands[0]
    constant = typed_constant(condition, bool)
    if constant is not None:
        return [(branches[0 if constant else 1], path)], False
    raising = [_raise_in(b) for b in branches]
    if raising[0] is not None and raising[1] is not None:
        if not path:
            _fail_always(wrapped_op, raising[0], store)
        guards.append(_Guard(path, _message(raising[0], wrapped_op, store), block, None))
        return [], True
    if raising[0] is None and raising[1] is None:
        # An If computing values: a check nested in a branch raises where its condition takes it.
        return [(branch, (*path, (condition, index == 0)))
                for index, branch in enumerate(branches) if _holds_raise(branch)], False
    raises_when = raising[0] is not None
    raise_op = raising[0] if raises_when else raising[1]
    kept = branches[1 if raises_when else 0]
    guards.append(_Guard((*path, (condition, raises_when)), _message(raise_op, wrapped_op, store),
                         branches[0 if raises_when else 1], None if path else kept))
    return [(kept, path)], False


def _holds_raise(block) -> bool:
    return any(_first_raise(op) is not None for op in block.operations)


def _first_raise(op):
    found = None

    def visit(nested):
        nonlocal found
        if nested.name != RAISE:
            return ir.WalkResult.ADVANCE
        found = nested
        return ir.WalkResult.INTERRUPT

    op.operation.walk(visit)
    return found


def _raise_in(block):
    return next((op for op in block.operations if op.operation.name == RAISE), None)


def _message(raise_op, wrapped_op, store: FactStore) -> str:
    text = message_text(raise_op.operation.operands[0], store)
    return text if text is not None else f"a check of '{wrapped_op.operation.name}' failed"


class _CertainFailure(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _fail_always(wrapped_op, raise_op, store: FactStore):
    raise _CertainFailure(f"always fails its check: {_message(raise_op, wrapped_op, store)}")


def guard_certain_failure(wrapped_op, message: str, before) -> bool:
    """A check of `wrapped_op` fails whenever it runs: where the op may never run (inside a
    `prim.If` branch or a `prim.Loop` body), warn and assert false in front of `before`
    (True); in a loop body refined under an assumption not yet checked, do nothing (True:
    the first round's guards stand); elsewhere report the error at the op (False)."""
    name = wrapped_op.operation.name
    if under_assumption(wrapped_op):
        return True
    if not may_not_run(wrapped_op):
        wrapped_op.location.emit_error(f"'{name}' op {message}{negative_size_note(wrapped_op)}")
        return False
    assert_message = f"{name}: {message}"
    if _asserted_false_before(before, assert_message):
        return True  # an earlier round kept it
    text = f"'{name}' op {message}; kept as a runtime assert: it fails if the program gets here"
    warnings.warn(RefinementWarning(text, position_of(wrapped_op.location)), stacklevel=2)
    with ir.InsertionPoint(before), wrapped_op.location:
        never = make_constant(False)
        ir.Operation.create("torch.runtime.assert", operands=[never],
                            attributes={"message": ir.StringAttr.get(assert_message)})
    return True


def _asserted_false_before(op, message: str) -> bool:
    """Whether the op just before `op` asserts false with `message`."""
    previous = None
    for sibling in op.operation.block.operations:
        if sibling.operation == op.operation:
            break
        previous = sibling
    if previous is None or previous.operation.name != "torch.runtime.assert":
        return False
    if ir.StringAttr(previous.operation.attributes["message"]).value != message:
        return False
    return typed_constant(previous.operation.operands[0], bool) is False


def may_not_run(op) -> bool:
    """Whether `op` sits in a `prim.If` branch or `prim.Loop` body of its function, or in
    a private function nothing in the module calls (torch-mlir's pipeline drops it)."""
    if any(parent.name in ("torch.prim.If", "torch.prim.Loop") for parent in enclosing_ops(op)):
        return True
    function = enclosing_function(op)
    return function is not None and _never_called(function)


def _never_called(function) -> bool:
    attributes = function.attributes
    if "sym_visibility" not in attributes or ir.StringAttr(attributes["sym_visibility"]).value != "private":
        return False
    name = symbol_name(function)
    called = False

    def visit(op):
        nonlocal called
        if "callee" in op.attributes and ir.FlatSymbolRefAttr(op.attributes["callee"]).value == name:
            called = True
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    function.operation.parent.walk(visit)
    return not called


def _drop_all_checks(calculation) -> None:
    """Erase the raising ops of a calculation whose failure became a guard."""
    raises = []

    def visit(op):
        if op.name == RAISE:
            raises.append(op)
        return ir.WalkResult.ADVANCE

    for op in calculation.operations:
        op.operation.walk(visit)
    for op in raises:
        op.erase()


def _values_defined_in(region) -> set:
    values = set()

    def visit(op):
        values.update(op.results)
        for nested in op.regions:
            for block in nested.blocks:
                values.update(block.arguments)
        return ir.WalkResult.ADVANCE

    for block in region.blocks:
        values.update(block.arguments)
        for op in block.operations:
            op.operation.walk(visit)
    return values


def _outside_definers(region, inside: set) -> list:
    """The ops outside `region` whose results it uses: they may die with it."""
    definers = []

    def visit(op):
        for operand in op.operands:
            if operand not in inside and isinstance(operand, ir.OpResult):
                definers.append(operand.owner)
        return ir.WalkResult.ADVANCE

    for block in region.blocks:
        for op in block.operations:
            op.operation.walk(visit)
    return definers


def _materialize(guard: _Guard, calculate, wrapped_op, inside: set, reach: Reach, cleanup: list,
                 store: FactStore) -> bool:
    """Assert the guard in front of `calculate` (marked as `wrapped_op`'s); False when a
    condition on the way to its raise cannot be computed there."""
    if guard.path is None:
        return False
    conditions = [condition for condition, _ in guard.path]
    backward_slice = movable_slice(conditions, inside, reach)
    if backward_slice is None:
        return False
    with ir.InsertionPoint(calculate), wrapped_op.location:  # the library's raise has no location of the program
        computed = _hoist(backward_slice, calculate, inside, cleanup)
        # The raise needs each condition at its value on the way: the check is that one is not.
        on_path = [computed.get(c, c) for c, _ in guard.path]
        avoided = [negation(v) if taken else v for v, (_, taken) in zip(on_path, guard.path)]
        cleanup.extend(v.owner for v in on_path if isinstance(v, ir.OpResult))  # a negation may build anew
        condition = functools.reduce(functools.partial(_bool_op, "torch.aten.__or__.bool"), avoided)
        message = check_message(wrapped_op, guard.message)
        if (described := described_condition(condition, store)) is not None:
            message += f" (requires {described})"
        assertion = ir.Operation.create("torch.runtime.assert", operands=[condition],
                                        attributes={"message": ir.StringAttr.get(message)})
    store.mark_guard(assertion, wrapped_op)
    return True


def _hoist(backward_slice: list, calculate, inside: set, cleanup: list) -> dict:
    """Build the slice in front of `calculate`: its ops moved there, each If result it
    reads as the select it means (`_select`), each `is None` test of an If's optional
    result as the select of what it is in each branch; the values that replace them."""
    built: dict = {}  # slice key (a value, or ("is none", value)) -> the value computing it
    for kind, key, payload in backward_slice:
        if kind == "move":
            _move(key.owner, calculate, inside, cleanup, guard_divisor=payload)
            continue
        if kind == "constant":
            built[key] = make_constant(payload)
            continue
        if kind == "test":
            is_none = built[payload]
            built[key] = negation(is_none) if key.owner.operation.name == "torch.aten.__isnot__" else is_none
        else:  # "select": payload is the If and its branches' keys (None: a branch no run reaches)
            if_op, branch_keys = payload
            condition = if_op.operands[0]
            built[key] = _select(built.get(condition, condition), *(
                None if k is None else built.get(k, k) for k in branch_keys))
        if isinstance(key, ir.Value):
            inside.discard(key)
            key.replace_all_uses_with(built[key])
    return built


def _move(op, calculate, inside: set, cleanup: list, guard_divisor: bool) -> None:
    inside.difference_update(op.operation.results)
    op.operation.move_before(calculate)
    cleanup.append(op)
    if guard_divisor:
        with ir.InsertionPoint(op):
            op.operation.operands[1] = _nonzero(op.operation.operands[1])


def _select(condition: ir.Value, then, otherwise) -> ir.Value:
    """`then if condition else otherwise`, without an If: a branch no run reaches (None)
    gives the other's value; bools in `__and__`/`__or__`, ints as
    `otherwise + int(condition) * (then - otherwise)`."""
    if then is None or otherwise is None:
        return otherwise if then is None else then
    if str(then.type) == "!torch.bool":
        return _select_bool(condition, then, otherwise)
    if then == otherwise:
        return then
    as_int = ir.Operation.create("torch.aten.Int.bool", results=[then.type], operands=[condition]).result
    difference = _int_op("torch.aten.sub.int", then, otherwise)
    return _int_op("torch.aten.add.int", otherwise, _int_op("torch.aten.mul.int", as_int, difference))


def _nonzero(divisor: ir.Value) -> ir.Value:
    """`divisor + int(divisor == 0)`: the divisor wherever it is not 0."""
    zero = _int_op("torch.aten.eq.int", divisor, make_constant(0), "!torch.bool")
    as_int = ir.Operation.create("torch.aten.Int.bool", results=[divisor.type], operands=[zero]).result
    return _int_op("torch.aten.add.int", divisor, as_int)


def _int_op(name: str, lhs: ir.Value, rhs: ir.Value, result_type: str | None = None) -> ir.Value:
    result = lhs.type if result_type is None else ir.Type.parse(result_type)
    return ir.Operation.create(name, results=[result], operands=[lhs, rhs]).result


def _select_bool(condition: ir.Value, then: ir.Value, otherwise: ir.Value) -> ir.Value:
    """`then if condition else otherwise` of bools, in `__and__`/`__or__`, at the current
    insertion point: `condition and then` where `otherwise` is false, and so on."""
    then_constant, otherwise_constant = typed_constant(then, bool), typed_constant(otherwise, bool)
    if then_constant is not None and then_constant == otherwise_constant:
        return then
    if then_constant is True and otherwise_constant is False:
        return condition
    if otherwise_constant is not None:
        connective = "torch.aten.__or__.bool" if otherwise_constant else "torch.aten.__and__.bool"
        return _bool_op(connective, condition if not otherwise_constant else negation(condition), then)
    if then_constant is not None:
        connective = "torch.aten.__or__.bool" if then_constant else "torch.aten.__and__.bool"
        return _bool_op(connective, condition if then_constant else negation(condition), otherwise)
    return _bool_op("torch.aten.__or__.bool", _bool_op("torch.aten.__and__.bool", condition, then),
                    _bool_op("torch.aten.__and__.bool", negation(condition), otherwise))


def _bool_op(name: str, lhs: ir.Value, rhs: ir.Value) -> ir.Value:
    if lhs == rhs:
        return lhs  # `x or x`: a check of two pad sizes that are one constant
    return ir.Operation.create(name, results=[lhs.type], operands=[lhs, rhs]).result


