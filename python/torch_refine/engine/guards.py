"""Guards: asserting the conditions an evaluation relied on, each once per function.

A guard of an op in its function's entry block whose sizes exist at the entry (argument
dims, and select symbols over them) is asserted at the start of the entry block, after
the guards asserted there before, and recorded in the fact store
(calculations/facts.py): every later op of the function relies on it without asserting
it again, and an evaluation that meets the condition takes it as decided. Any other guard
(one reading a size only the op's operands carry, or of an op in a nested region, which
may not run) is asserted in front of the op.

A message names the op, the check (PyTorch's text, its `{}` placeholders as `?`) and the
condition over the function's argument dims (`%argN[d]`) and computed sizes (`%sI`).
"""

from __future__ import annotations

import math
import re

from torch_mlir import ir

from torch_refine.calculations import facts
from torch_refine.calculations.dim_facts import express, tensor_dims
from torch_refine.calculations.kind import RAISE
from torch_refine.calculations.lists import literal_elements
from torch_refine.calculations.purity import is_pure
from torch_refine.calculations.ranges import enclosing_function
from torch_refine.calculations.store import ENTRY_GUARD, MARKS, FactStore
from torch_refine.calculations.symbols import user_functions
from torch_refine.engine.known_values import decided_in
from torch_refine.ir import types
from torch_refine.ir.constants import NotConstant, constant_value, op_key, string_text, typed_constant
from torch_refine.patterns.scalars import negation
from torch_refine.patterns.symbolic import Sizes
from torch_refine.symbolic.comparisons import INT_COMPARISONS, negated, spelled
from torch_refine.symbolic.polynomial import COMPUTED_NAME, Polynomial, format_polynomial, is_computed, parse_polynomial


def assert_guards(op, guards: list, store: FactStore) -> bool:
    """Assert `guards` (evaluator_values.Guard) for `op`, those at the entry recorded in
    `store`; False, with nothing built, when a guard reads a computed size that neither
    the entry nor `op`'s operands carry."""
    function_op = enclosing_function(op)
    entry = function_op.regions[0].blocks[0]
    function_key = op_key(function_op)
    at_entry_block = op.operation.block == entry
    entry_sizes = Sizes(entry.arguments)
    local_sizes = Sizes(entry.arguments, carried_sizes(op, store))
    plans = []
    for guard in guards:
        key = guard.condition.key()
        if at_entry_block and entry_sizes.condition_available(key):
            plans.append((guard, key, True))
        elif local_sizes.condition_available(key):
            plans.append((guard, key, False))
        else:
            return False
    for guard, key, hoisted in plans:
        decision = store.decided(function_key, key)
        if decision is not None and decision.by_assertion and decision.holds == guard.holds:
            continue  # asserted at the entry, before every op that needs it
        point = _after_entry_guards(entry, function_key, store) if hoisted else ir.InsertionPoint(op)
        with point, op.location:
            sizes = entry_sizes if hoisted else local_sizes
            stated = reduced(key)
            condition = sizes.condition(stated)
            if not guard.holds:
                condition = negation(condition)
            message = guard_message(op, guard.message, stated, guard.holds)
            assertion = ir.Operation.create("torch.runtime.assert", operands=[condition],
                                            attributes={"message": ir.StringAttr.get(message)})
        if not hoisted:
            store.mark_guard(assertion, op)
            continue
        assertion.attributes[ENTRY_GUARD] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64),
                                                                store.entry_guard_id(key, guard.holds))
        store.set_last_entry_guard(function_key, assertion)
        _rely_on(store, function_key, key, guard.holds, f"entry guard of {op.operation.name} at {op.location}")
    return True


def adopt_entry_asserts(module: ir.Operation, store: FactStore) -> None:
    """The asserts a function's entry block starts with (the input checks of
    `torch_refine.import_program`, a front end's, a user's) that compare sizes of its
    arguments are facts from the start, as if refinement had asserted them: equalities
    replace symbols, comparisons with a constant narrow ranges. Only asserts before the
    first op that makes a tensor or holds a region: an op before an assert runs whether
    or not the assert would fail. A literal tensor computes nothing (canonicalization
    hoists the weights above the asserts: they would be erased as decided by the very
    ranges they check). An assert that holds for every size is no fact but a check the
    facts decide (`known_values.erase_decided_checks` erases it), unless the function binds
    its arguments: a bind may make two dims one symbol whose equality the assert checks."""
    for function in user_functions(module):
        function_key = op_key(function)
        entry = function.regions[0].blocks[0]
        binds = any(binds_argument(op.operation) for op in entry.operations)
        for op in entry.operations:
            operation = op.operation
            if operation.name == "torch.vtensor.literal":
                continue
            if len(operation.regions) or any(types.is_tensor_type_text(str(r.type)) for r in operation.results):
                break
            if operation.name != "torch.runtime.assert" or not (key := _comparison_key(operation.operands[0], store)):
                continue
            if binds or decided_in(function, key, store) is not True:
                _rely_on(store, function_key, key, True, f"the program's entry assert at {operation.location}")


def hoist_program_asserts(module: ir.Operation, store: FactStore) -> bool:
    """A program's own assert in a function's entry block, after an op `adopt_entry_asserts`
    stops at, that compares sizes the entry has (argument dims, quotients and selects of
    them) goes to the entry, as a guard of ours does, and is a fact from then on: the
    program raises at it all the same, only before computing values nobody sees
    (torch-mlir's adaptive pool asserts `7 > 6 * (h % 7)` after the convolution giving h).
    Not past a loop, whose carried dims the first round assumes. True when one moved."""
    moved = False
    for function in user_functions(module):
        function_key = op_key(function)
        entry = function.regions[0].blocks[0]
        sizes = Sizes(entry.arguments)
        for op in list(entry.operations):
            operation = op.operation
            if operation.name == "torch.prim.Loop":
                break  # the sizes after it may rest on dims its carried tensors are assumed to keep
            if operation.name != "torch.runtime.assert" or any(mark in operation.attributes for mark in MARKS):
                continue  # not the program's: a check kept this run, marked
            key = _comparison_key(operation.operands[0], store)
            if key is None or _asserted_true(store, function_key, key) or not sizes.condition_available(key):
                continue
            with _after_entry_guards(entry, function_key, store), operation.location:
                assertion = ir.Operation.create("torch.runtime.assert", operands=[sizes.condition(key)],
                                                attributes={"message": operation.attributes["message"]})
            assertion.attributes[ENTRY_GUARD] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64),
                                                                    store.entry_guard_id(key, True))
            store.set_last_entry_guard(function_key, assertion)
            _rely_on(store, function_key, key, True, f"the program's assert at {operation.location}, hoisted")
            operation.erase()
            moved = True
    return moved


def _asserted_true(store: FactStore, function_key: int, key: tuple) -> bool:
    decision = store.decided(function_key, key)
    return decision is not None and decision.by_assertion and decision.holds


def _comparison_key(condition: ir.Value, run: FactStore) -> tuple | None:
    """A condition key (the evaluator's) of an int comparison of sizes, or None."""
    producer = condition.owner if isinstance(condition, ir.OpResult) else None
    if producer is None or producer.name not in INT_COMPARISONS:
        return None
    operands = [express(operand, run) for operand in producer.operands]
    return None if None in operands else (producer.name, *operands)




def _rely_on(store: FactStore, function_key: int, key: tuple, holds: bool, source: str) -> None:
    """Record a condition asserted at the function's entry, and where it came from, in the
    fact store (a negated condition also as the condition itself, whose equality may
    replace a symbol)."""
    store.assume(function_key, key, holds, source)
    key, holds = positive(key, holds)
    store.assume(function_key, key, holds, source)
    if defines_replacement(key, holds):
        store.add_equality(function_key, key[1], key[2], source)
    store.add_range(function_key, key, holds, source)


def reduced(key: tuple) -> tuple:
    """A condition with each (in)equality's sides divided by their common factor:
    `256*a == 256*b` is asserted as `a == b`."""
    if key[0] == "not":
        return ("not", reduced(key[1]))
    if key[0] not in ("torch.aten.eq.int", "torch.aten.ne.int") or not all(
            isinstance(side, Polynomial) for side in key[1:]):
        return key
    common = math.gcd(*key[1].terms.values(), *key[2].terms.values())
    if common <= 1:
        return key
    divisor = Polynomial.constant(common)
    return (key[0], *(side.exact_divide(divisor) for side in key[1:]))


def positive(key: tuple, holds: bool) -> tuple[tuple, bool]:
    """A condition and its truth without the negations around it (`not (a == b)` false is
    `a == b` true)."""
    while key[0] == "not":
        key, holds = key[1], not holds
    return key, holds


def defines_replacement(key: tuple, holds: bool) -> bool:
    """Whether an asserted condition is an equality the fact store solves into a
    replacement."""
    return key[0] == ("torch.aten.eq.int" if holds else "torch.aten.ne.int")


def entry_guards(module: ir.Operation, store: FactStore) -> list:
    """(function key, entry block, assert op, condition key, truth) of each guard asserted
    at a function's entry in this run."""
    found = []
    for function in user_functions(module):
        entry = function.regions[0].blocks[0]
        for op in entry.operations:
            if ENTRY_GUARD in op.attributes:
                key, holds = positive(*store.entry_guard(ir.IntegerAttr(op.attributes[ENTRY_GUARD]).value))
                found.append((op_key(function), entry, op, key, holds))
    return found


def _after_entry_guards(entry: ir.Block, function_key: int, store: FactStore) -> ir.InsertionPoint:
    """After the last entry guard: the one this run asserted last, or, the first time,
    the last marked one before the entry block's first tensor op; else after the
    arguments' binds (`after_argument_binds`), each next one after the last."""
    last = store.last_entry_guard(function_key)
    if last is not None:
        return ir.InsertionPoint.after(last)
    following = None  # the op after the last guard seen
    after_guard = False
    for op in entry.operations:
        operation = op.operation
        following = op if after_guard else following
        after_guard = ENTRY_GUARD in operation.attributes
        if any(types.is_tensor_type_text(str(r.type)) for r in operation.results):
            break
    return ir.InsertionPoint(following) if following is not None else after_argument_binds(entry)


def binds_argument(operation: ir.Operation) -> bool:
    """Whether `operation` is a `torch.bind_symbolic_shape` of a function argument. An op
    reading the argument must come after it: IREE's torch input replaces the argument's
    uses after its bind, and a use above it no longer sees a dominating value."""
    return operation.name == "torch.bind_symbolic_shape" and isinstance(operation.operands[0], ir.BlockArgument)


def after_argument_binds(entry: ir.Block) -> ir.InsertionPoint:
    """The entry block's start, or after its last bind of an argument (`binds_argument`)."""
    last = None
    for op in entry.operations:
        if binds_argument(op.operation):
            last = op
    return ir.InsertionPoint.at_block_begin(entry) if last is None else ir.InsertionPoint.after(last)


def carried_sizes(op, run: FactStore) -> dict:
    """The computed sizes `op`'s operands carry: symbol -> (tensor, dim) for a tensor's
    dim, (int, None) for an int operand or list literal element that is that size."""
    carried: dict = {}
    for value in op.operation.operands:
        text = str(value.type)
        if types.is_tensor_type_text(text):
            for dim, dim_text in enumerate(tensor_dims(value, run) or []):
                _note(carried, parse_polynomial(dim_text) if dim_text else None, (value, dim))
        elif text == "!torch.int":
            _note(carried, express(value, run), (value, None))
        elif text == "!torch.list<int>":
            for element in literal_elements(value) or []:
                _note(carried, express(element, run), (element, None))
    return carried


def _note(carried: dict, polynomial: Polynomial | None, source: tuple) -> None:
    if polynomial is None or len(polynomial.terms) != 1:
        return
    ((monomial, coefficient),) = polynomial.terms.items()
    if coefficient == 1 and len(monomial) == 1 and is_computed(monomial[0]):
        carried.setdefault(monomial[0], source)


_PLACEHOLDER = re.compile(r"\{\}")


def guard_message(op, check: str | None, key: tuple, holds: bool) -> str:
    """`aten.add.Tensor: The size of tensor a must match ... (requires %arg0[0] == ...)`."""
    return f"{check_message(op, check)} (requires {describe(key if holds else negated(key))})"


def check_message(op, check: str | None) -> str:
    """`aten.view: invalid shape`: the op (a `torch.operator` by its own name) and the
    check's text, its `{}` placeholders as `?` (the values are known only at run time),
    without Python's exception name."""
    text = _PLACEHOLDER.sub("?", check) if check else "a check failed"
    operation = op.operation
    name = operation.name.removeprefix("torch.")
    if name == "operator":
        name = ir.StringAttr(operation.attributes["name"]).value
    return f"{name}: {text.removeprefix('AssertionError: ')}"


def describe(key: tuple) -> str:
    """A condition key as text: `%arg0[0] == %arg1[0] or %arg0[0] == 1`."""
    op, operands = key[0], key[1:]
    if op == "not":
        flipped = negated(operands[0])
        return f"not ({describe(operands[0])})" if flipped[0] == "not" else describe(flipped)
    if op in ("and", "or"):
        return f" {op} ".join(_describe_part(c, op) for c in operands)
    lhs, rhs = (_describe_polynomial(o) if isinstance(o, Polynomial) else repr(o) for o in operands)
    return f"{lhs} {spelled(op) or op} {rhs}"


def format_message(template: str, values) -> str | None:
    """A check's `aten.format` message, each value as `value_text` prints it; None unless
    there is one value per placeholder."""
    if template.count("{}") != len(values):
        return None
    pieces = template.split("{}")
    return pieces[0] + "".join(value_text(value) + piece for value, piece in zip(values, pieces[1:]))


def message_text(message: ir.Value, run: FactStore) -> str | None:
    """A library raise's message where it is known (`string_text`), each format's constants
    as Python prints them and its sizes by their expressions (`%arg0[2]`), anything else `?`."""
    return string_text(message, lambda producer: _formatted(producer, run))


def _formatted(producer, run: FactStore) -> str | None:
    template = string_text(producer.operands[0])
    if template is None:
        return None
    text = format_message(template, [_known_value(value, run) for value in list(producer.operands)[1:]])
    return template if text is None else text


def _known_value(value: ir.Value, run: FactStore):
    """What a message's value is at compile time: a constant, a size's polynomial, or None."""
    try:
        return constant_value(value)
    except NotConstant:
        return express(value, run) if str(value.type) == "!torch.int" else None


def value_text(value) -> str:
    """A value a check's message formats, as Python prints it, a size by its expression
    (`%arg0[0]`) and anything else unknown as `?`."""
    if isinstance(value, Polynomial):
        constant = value.constant_value()
        return str(constant) if constant is not None else _describe_polynomial(value)
    if isinstance(value, (bool, int, float, str)):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(value_text(element) for element in value) + "]"
    return "?"


def _describe_polynomial(polynomial: Polynomial) -> str:
    """The polynomial with each defined symbol (`%sI`) spelled out by its definition."""
    return COMPUTED_NAME.sub(lambda match: _describe_symbol(int(match[1])), format_polynomial(polynomial))



def _describe_symbol(number: int) -> str:
    definition = facts.definition((-number, 0, 1))
    if definition is None:
        return f"%s{number}"
    if definition[0] == facts.FLOOR_DIVIDE:
        divisor = definition[2]
        divisor_text = f"({_describe_polynomial(divisor)})" if isinstance(divisor, Polynomial) else str(divisor)
        return f"({_describe_polynomial(definition[1])}) // {divisor_text}"
    _, condition, then, otherwise = definition
    return f"({_describe_polynomial(then)} if {describe(condition)} else {_describe_polynomial(otherwise)})"


def _describe_part(key: tuple, parent: str) -> str:
    if key[0] == "not" and (flipped := negated(key[1]))[0] != "not":
        key = flipped  # described as its De Morgan form: parenthesized as that
    text = describe(key)
    return f"({text})" if key[0] in ("and", "or") and key[0] != parent else text


def described_condition(condition: ir.Value, run: FactStore) -> str | None:
    """`condition` (a kept check's) as text over the function's argument dims and
    computed sizes (`%arg0[0] == %arg1[0] or %arg1[0] == 1`), or None where a size it
    reads has no such name."""
    key = _condition_key(condition, run, 0)
    return None if key is None else describe(key)


def _condition_key(value: ir.Value, run: FactStore, depth: int) -> tuple | None:
    """An evaluator-style condition key of a bool computed by comparisons, `not`, `and`,
    `or` and the Ifs TorchScript makes of short-circuits."""
    producer = value.owner if isinstance(value, ir.OpResult) else None
    if producer is None or depth > 16:
        return None
    name, operands = producer.name, list(producer.operands)
    if name in INT_COMPARISONS:
        return _comparison_key(value, run)
    if name == "torch.aten.__not__":
        inner = _condition_key(operands[0], run, depth + 1)
        return None if inner is None else ("not", inner)
    if name in ("torch.aten.eq.bool", "torch.aten.ne.bool") and (side := typed_constant(operands[1], bool)) is not None:
        inner = _condition_key(operands[0], run, depth + 1)
        negated = side != (name == "torch.aten.eq.bool")  # ne(x, true), eq(x, false)
        return None if inner is None else (("not", inner) if negated else inner)
    if name in ("torch.aten.__and__.bool", "torch.aten.__or__.bool"):
        parts = [_condition_key(v, run, depth + 1) for v in operands]
        return None if None in parts else (name.split("__")[1], *parts)
    if name == "torch.prim.If" and len(producer.results) == 1:
        return _short_circuit_key(producer, run, depth)
    return None


def _short_circuit_key(if_op, run: FactStore, depth: int) -> tuple | None:
    """`c and t` for `If c then t else false`, `c or e` for `If c then true else e`."""
    then, otherwise = (list(r.blocks[0].operations)[-1].operands[0] for r in if_op.regions)
    condition = _condition_key(if_op.operands[0], run, depth + 1)
    if condition is None:
        return None
    for connective, constant, other in (("and", False, then), ("or", True, otherwise)):
        decided = otherwise if connective == "and" else then
        if typed_constant(decided, bool) is constant:
            part = _condition_key(other, run, depth + 1)
            return None if part is None else (connective, condition, part)
    return None


def raising_branches_to_asserts(module: ir.Operation) -> int:
    """Each `prim.If` one of whose branches only computes values and raises becomes an
    assert of the condition that takes the other branch, followed by that branch's ops:
    a check kept from a library calculation (a reshape's infer-size on a size read with
    `aten.item`) or written by the program reads as the fact it states, and backends,
    which lower no `prim.RaiseException`, take it. Innermost first; returns how many."""
    found = []

    def visit(op):
        if op.name == "torch.prim.If":
            found.append(op)
        return ir.WalkResult.ADVANCE

    for function in user_functions(module):
        function.operation.walk(visit)  # post-order: an inner If before the If holding it
    return sum(_raising_branch_to_assert(if_op) for if_op in found)


def erase_repeated_asserts(module: ir.Operation) -> None:
    """An assert of a condition value asserted before it (earlier in its block or in an
    enclosing one) cannot fail: two ops kept the same check (a reshape and the view after
    it), or a raising branch became an assert of a condition already asserted. Blocks are
    walked with a stack: programs nest Ifs a thousand deep."""
    pending = [(block, frozenset()) for function in user_functions(module) for block in function.regions[0].blocks]
    while pending:
        block, asserted = pending.pop()
        seen = set(asserted)
        for op in list(block.operations):
            if op.name == "torch.runtime.assert":
                if op.operands[0] in seen:
                    op.erase()
                    continue
                seen.add(op.operands[0])
            pending += [(nested, frozenset(seen)) for region in op.regions for nested in region.blocks]


def number_computed_sizes(module: ir.Operation) -> None:
    """Renumber the computed sizes the asserts' messages name (`%s67`) in the order they
    first appear: the symbol table is process-wide, so its own numbers depend on what the
    process refined before, and the output must not."""
    numbers: dict[str, str] = {}

    def renumber(match: re.Match) -> str:
        return numbers.setdefault(match[0], f"%s{len(numbers) + 1}")

    def visit(op):
        if op.name == "torch.runtime.assert":
            message = ir.StringAttr(op.attributes["message"]).value
            renumbered = COMPUTED_NAME.sub(renumber, message)
            if renumbered != message:
                op.attributes["message"] = ir.StringAttr.get(renumbered, op.context)
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.PRE_ORDER)


def _raising_branch_to_assert(if_op) -> bool:
    raising = [index for index in (0, 1) if _only_raises(if_op.regions[index].blocks[0])]
    if len(raising) != 1:
        return False
    kept = if_op.regions[1 - raising[0]].blocks[0]
    raise_op = next(op for op in if_op.regions[raising[0]].blocks[0].operations if op.name == RAISE)
    text = string_text(raise_op.operands[0])
    message = "the program's check failed" if text is None else text.removeprefix("AssertionError: ")
    with ir.InsertionPoint(if_op), if_op.location:
        condition = if_op.operands[0] if raising[0] == 1 else negation(if_op.operands[0])
        ir.Operation.create("torch.runtime.assert", operands=[condition],
                            attributes={"message": ir.StringAttr.get(message)})
    *body, kept_yield = list(kept.operations)
    for op in body:
        op.move_before(if_op)
    for result, value in zip(if_op.results, kept_yield.operands, strict=True):
        result.replace_all_uses_with(value)
    if_op.erase()
    return True


def _only_raises(block: ir.Block) -> bool:
    """Whether the branch raises, and before that only computes values."""
    operations = list(block.operations)
    return any(op.name == RAISE for op in operations) and all(
        op.name in (RAISE, "torch.prim.If.yield") or is_pure(op) for op in operations)
