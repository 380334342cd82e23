"""`torch-refine-drop-calculations`: replace each calculate op by the op it wraps.

The calculation region is dropped, but the checks it still contains are kept: a
`torch.prim.If` whose one branch raises (`torch.prim.RaiseException`) is a guard that
the simplify passes could not decide, and it becomes

    torch.runtime.assert %ok, "<the library's message>"

(`%ok` negated, where the branch raises on true, with ops every torch-mlir backend
conversion lowers, not `aten.__not__`) in front of the wrapped op, with the pure ops
computing `%ok` moved out of the region. An undecided check of int64 overflow of sizes
(`is_overflow_check`) is dropped: sizes a program runs with never overflow.
Guards nested in the non-raising branch of a guard are kept too (that branch runs
whenever the op does). A condition's slice may contain `torch.prim.If`s made of pure ops
(short-circuit `and`/`or`). A message built with `aten.format` keeps its format string.

A check that cannot become an assert (its condition depends on a loop induction
variable, on a list that is mutated, on another region op) is kept as the library wrote
it: the top-level ops of the calculation holding such a raise move in front of the op,
in their order, with every top-level op they depend on, and every op using a list they
read (so that its mutations come along). The op never runs where PyTorch raises. With
`runtime-asserts=false` all checks are dropped.

A check that fails whenever the op runs (a raise outside any If, an If raising on both
sides, or on the side its constant condition selects) is an error at the op, unless the op
sits in a branch or loop body that the program may never run (PyTorch runs such a program
as long as it does not get there): then it is a warning (`RefinementWarning`), the check
becomes `torch.runtime.assert %false` in front of the op, and the op's types stay as they
were.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import ClassVar

from torch_mlir import ir

from torch_refine.calculations import facts
from torch_refine.calculations.kind import CALCULATE_OPS, RAISE, is_overflow_check
from torch_refine.calculations.lists import may_hold_list
from torch_refine.calculations.purity import erase_if_dead, is_pure
from torch_refine.calculations.ranges import enclosing_function
from torch_refine.calculations.symbols import user_functions
from torch_refine.errors import RefinementWarning
from torch_refine.ir.constants import make_constant, op_key, string_text, typed_constant
from torch_refine.ir.diagnostics import position_of
from torch_refine.ir.module import enclosing_ops, symbol_name
from torch_refine.passes.base import ModulePass, PassFailure, option
from torch_refine.passes.guards import check_message, described_condition
from torch_refine.passes.known_values import negative_size_note
from torch_refine.passes.propagate_control_flow import under_assumption
from torch_refine.patterns.lists import ancestor_in
from torch_refine.patterns.scalars import negation


@dataclass
class DropCalculations(ModulePass):
    name: ClassVar[str] = "torch-refine-drop-calculations"
    description: ClassVar[str] = (
        "Replace calculate ops by the ops they wrap, keeping undecided checks as torch.runtime.assert"
    )

    runtime_asserts: bool = option(True, "keep undecided library checks as torch.runtime.assert")

    def run(self, module) -> None:
        with module.context:
            for calculate in _calculate_ops(module):
                drop(calculate, self.runtime_asserts)


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
    condition: ir.Value
    raises_when: bool  # the condition value that takes the raising branch
    message: str
    location: ir.Location
    raising_block: ir.Block  # the branch that raises


def drop(calculate, runtime_asserts: bool) -> None:
    """Replace one calculate op by the op it wraps, keeping its undecided checks."""
    body = calculate.regions[0].blocks[0]
    wrapped = list(body.operations)
    terminator = wrapped.pop()
    anchor = wrapped[0] if wrapped else calculate  # a body may wrap no op (hand-written IR)
    calculation = calculate.regions[1].blocks[0]
    guards: list[_Guard] = []
    try:
        _find_guards(calculation, anchor, guards)
    except _CertainFailure as failure:
        if not guard_certain_failure(anchor, failure.message, calculate):
            raise PassFailure from None
        guards = []
        _drop_all_checks(calculation)
    inside = _values_defined_in(calculate.regions[1])
    cleanup = _outside_definers(calculate.regions[1], inside)
    if runtime_asserts:
        # An undecided overflow check is no guard (is_overflow_check): dropped as if asserted.
        asserted = [guard.raising_block for guard in guards
                    if is_overflow_check(guard.message) or _materialize(guard, calculate, anchor, inside, cleanup)]
        _keep_other_checks(calculation, calculate, anchor, asserted, cleanup)
    for op in wrapped:
        op.operation.move_before(calculate)
    for result, value in zip(calculate.results, terminator.operands, strict=True):
        result.replace_all_uses_with(value)
    calculate.erase()
    erase_if_dead(cleanup)


def _find_guards(block, wrapped_op, guards: list[_Guard]) -> None:
    """Collect the guards that run whenever `block` does; fail on a certain raise.

    A worklist of the non-raising branches, not recursion: library IR from an extra
    library can nest ifs deeper than Python's recursion limit."""
    pending = [block]
    while pending:
        _find_guards_in(pending.pop(), wrapped_op, guards, pending)


def _find_guards_in(block, wrapped_op, guards: list[_Guard], pending: list) -> None:
    for op in block.operations:
        name = op.operation.name
        if name == RAISE:
            _fail_always(wrapped_op, op)
        if name != "torch.prim.If":
            continue
        branches = [op.operation.regions[i].blocks[0] for i in (0, 1)]
        raising = [_raise_in(b) for b in branches]
        if raising[0] is not None and raising[1] is not None:
            _fail_always(wrapped_op, raising[0])
        if raising[0] is None and raising[1] is None:
            continue
        raises_when = raising[0] is not None
        raise_op = raising[0] if raises_when else raising[1]
        condition = op.operation.operands[0]
        constant = typed_constant(condition, bool)
        if constant is not None and constant == raises_when:
            _fail_always(wrapped_op, raise_op)
        if constant is None:
            guards.append(_Guard(
                condition, raises_when, _message(raise_op, wrapped_op), raise_op.location,
                branches[0 if raises_when else 1],
            ))
        pending.append(branches[1 if raises_when else 0])


def _raise_in(block):
    return next((op for op in block.operations if op.operation.name == RAISE), None)


def _message(raise_op, wrapped_op) -> str:
    text = string_text(raise_op.operation.operands[0])
    return text if text is not None else f"a check of '{wrapped_op.operation.name}' failed"


class _CertainFailure(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _fail_always(wrapped_op, raise_op):
    raise _CertainFailure(f"always fails its check: {_message(raise_op, wrapped_op)}")


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


def _materialize(guard: _Guard, calculate, wrapped_op, inside: set, cleanup: list) -> bool:
    """Assert the guard in front of `calculate` (marked as `wrapped_op`'s); False when its
    condition cannot be moved."""
    condition = _hoist(guard.condition, calculate, inside, cleanup)
    if condition is None:
        return False
    ip = ir.InsertionPoint(calculate)
    if guard.raises_when:
        with ip, guard.location:
            condition = negation(condition)
    message = check_message(wrapped_op, guard.message)
    if (described := described_condition(condition)) is not None:
        message += f" (requires {described})"
    assertion = ir.Operation.create(
        "torch.runtime.assert",
        operands=[condition],
        attributes={"message": ir.StringAttr.get(message)},
        loc=guard.location,
        ip=ip,
    )
    facts.mark_guard(assertion, wrapped_op)
    return True


def _keep_other_checks(calculation, calculate, wrapped_op, asserted_blocks: list, cleanup: list) -> None:
    """Move the top-level ops of `calculation` holding a raise no assert covers in front of
    `calculate`, with the top-level ops they depend on, in their order (the raising ones
    marked as `wrapped_op`'s checks)."""
    raises = _raises_outside(calculation, asserted_blocks)
    if not raises:
        return
    units = list(calculation.operations)[:-1]  # the yield stays
    position = {op_key(unit): index for index, unit in enumerate(units)}
    chosen: set[int] = set()
    worklist = [ancestor_in(raise_op, calculation) for raise_op in raises]
    for unit in worklist:
        facts.mark_guard(unit, wrapped_op)
    while worklist:
        unit = worklist.pop()
        index = position.get(op_key(unit))
        if index is None or index in chosen:
            continue
        chosen.add(index)
        worklist.extend(_units_needed_by(unit, calculation))
    for index in sorted(chosen):
        units[index].operation.move_before(calculate)
        cleanup.append(units[index])


def _raises_outside(block, excluded_blocks: list) -> list:
    """The raise ops in `block` and its nested blocks, except in `excluded_blocks`; a
    worklist, not recursion (input IR can nest deeper than the recursion limit)."""
    found = []
    pending = [block]
    while pending:
        for op in pending.pop().operations:
            if op.operation.name == RAISE:
                found.append(op)
            for region in op.operation.regions:
                pending.extend(
                    nested for nested in region.blocks
                    if not any(nested == excluded for excluded in excluded_blocks)
                )
    return found


def _units_needed_by(unit, calculation) -> list:
    """The top-level ops of `calculation` defining a value `unit` uses and, for a value
    that may hold a list (used or made by `unit`: an alias, a container), every top-level
    op using that value (its mutations among them)."""
    needed = []
    lists = [result for result in unit.operation.results if may_hold_list(result)]
    for value in _operands_within(unit):
        if not isinstance(value, ir.OpResult):
            continue  # a block argument of `unit` itself, or of the enclosing function
        definer = ancestor_in(value.owner, calculation)
        if definer is None or op_key(definer) == op_key(unit):
            continue
        needed.append(definer)
        if may_hold_list(value):
            lists.append(value)
    for value in lists:
        users = (ancestor_in(use.owner, calculation) for use in value.uses)
        needed.extend(user for user in users if user is not None)
    return needed


def _hoist(value: ir.Value, calculate, inside: set, cleanup: list):
    """`value`, computed in front of `calculate` by moving its pure backward slice there;
    None when the slice cannot be moved."""
    backward_slice = _movable_slice(value, inside)
    if backward_slice is None:
        return None
    for op, defined in backward_slice:
        op.operation.move_before(calculate)
        inside.difference_update(defined)
        cleanup.append(op)
    return value


def _movable_slice(value: ir.Value, inside: set) -> list | None:
    """(op, values it defines) for the ops inside the calculation that compute `value`,
    producers first; None when one of them cannot move. A depth-first walk with a stack:
    after loop unrolling a condition can depend on a chain longer than the recursion limit."""
    ordered: list = []
    planned: set = set()
    pending: list = [(value, None)]
    while pending:
        needed_value, finished = pending.pop()
        if finished is not None:
            ordered.append(finished)
            continue
        if needed_value not in inside or needed_value in planned:
            continue
        if not isinstance(needed_value, ir.OpResult):
            return None
        op = needed_value.owner
        if is_pure(op):
            needed = list(op.operation.operands)
            defined = set(op.operation.results)
        elif _is_pure_if(op):
            defined = _values_defined_in(op.operation.regions[0]) | _values_defined_in(op.operation.regions[1])
            defined.update(op.operation.results)
            needed = [v for v in _operands_within(op) if v not in defined]
        else:
            return None
        planned |= defined
        pending.append((None, (op, defined)))
        pending.extend((operand, None) for operand in reversed(needed))
    return ordered


def _is_pure_if(op) -> bool:
    """A `torch.prim.If` computing a value from pure ops only (e.g. a short-circuit `and`);
    nested ifs are checked with a worklist, not recursion."""
    pending = [op]
    while pending:
        if_op = pending.pop()
        if if_op.operation.name != "torch.prim.If":
            return False
        for region in if_op.operation.regions:
            for nested in region.blocks[0].operations:
                if nested.operation.name != "torch.prim.If.yield" and not is_pure(nested):
                    pending.append(nested)
    return True


def _operands_within(op) -> list:
    operands = []

    def visit(nested):
        operands.extend(nested.operands)
        return ir.WalkResult.ADVANCE

    op.operation.walk(visit)
    return operands
