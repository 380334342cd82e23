"""Running a library function on an op whose arguments are all known at compile time.

The greedy way (reify, inline, simplify, drop) spends a few milliseconds of Python pattern
callbacks on each distinct calculation. When everything the function receives is a
constant (static sizes, known ranks and dtypes, constant scalars and list literals),
running it is cheaper: each library function is compiled once per process into steps
over Python values (ints, floats, bools, strings, lists, tuples) and executed. The steps
are linked from the function's plan (`function_plan`: its ops as plain data), which the
generator stores for the embedded library (library/storage.py), so no IR is parsed.

The evaluator decides nothing the greedy way would not: a size that is not a constant, a
tensor op, an op it does not know, a check that raises, a Python error (an index out of
range, a division by zero, an int beyond int64) or too many steps make it give up, and the
op is calculated the greedy way, which also reports failed checks at the op.

A comparison of sizes that their ranges do not decide is a `_Condition` (a bool known only
at run time). A check raising on it becomes a guard: the evaluation goes on along the
branch that does not raise, and `Evaluation.assert_guards` asserts the condition in front of the
op (`torch.runtime.assert`, as drop_calculations keeps an undecided check). An If on a
condition whose branches only compute values yields `and`/`or` of conditions for bools
and an unknown size for two different sizes; anything else that reads a condition gives up.
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
import weakref

from torch_mlir import ir

from torch_refine.calculations import facts
from torch_refine.calculations.dim_facts import express, tensor_dims
from torch_refine.calculations.kind import SHAPE, CalculationKind, is_overflow_check
from torch_refine.calculations.ranges import (
    decide,
    enclosing_function,
    polynomial_range,
    quotient_by_ranges,
    within_condition,
)
from torch_refine.engine import guards
from torch_refine.engine.reify import _constructed_elements, _inner_type, bool_scalar_changes_promotion
from torch_refine.engine.simplifier import Options
from torch_refine.ir import types
from torch_refine.ir.constants import CONSTANT_OPS, NotConstant, constant_value, op_key
from torch_refine.ir.polynomial import Polynomial, is_computed, parse_polynomial
from torch_refine.ir.retype import most_precise_alias
from torch_refine.library.plans import IF, LOOP, function_plan
from torch_refine.library.promotion import promote_dtypes
from torch_refine.symbolic.comparisons import INT_COMPARISONS, MIRRORED, MIRRORED_TESTS

# Steps one evaluation may run (loops count each iteration) before giving up: a loop over
# an odd huge size costs the greedy way's unroll cap, not an unbounded Python loop.
MAX_STEPS = 100_000
MAX_UNROLL = Options.max_unroll
_INT64 = (-(2**63), 2**63 - 1)


class GiveUp(Exception):
    """The evaluator cannot decide this op: calculate it the greedy way."""


class _Text:
    """A string the evaluator does not build (`aten.format`, `aten.str`): only ever part of
    a check's message; comparing it gives up."""


_TEXT = _Text()
_DEVICE = object()  # a `torch.constant.device` argument
_UNINITIALIZED = object()


class _ScalarTensor:
    """`prim.NumToTensor.Scalar` of a number: all `prim.dtype` reads of it."""

    def __init__(self, number) -> None:
        if isinstance(number, bool):
            self.dtype = 11
        elif isinstance(number, (int, Polynomial)):
            self.dtype = 4
        elif isinstance(number, (float, _SizeFloat, _OpaqueFloat)):
            self.dtype = 7
        else:
            raise GiveUp


def _int(value) -> int:
    if isinstance(value, Polynomial):
        return _settle(value)
    if isinstance(value, bool) or not isinstance(value, int) or not _INT64[0] <= value <= _INT64[1]:
        raise GiveUp  # TorchScript ints wrap at 64 bits; Python's do not
    return value


# The replacements of the evaluated op's function (calculations/facts.py) and those the
# evaluation's own guards add: every polynomial is read through them.
_replacements: dict = {}


def _settle(polynomial: Polynomial):
    """A polynomial that is a constant as that int; any other stays symbolic (in the
    symbols the replacements leave, and the defined symbols they do not decide)."""
    polynomial = facts.resolved(polynomial, _replacements)
    constant = polynomial.constant_value()
    return polynomial if constant is None else _int(constant)


def _symbolic(value) -> Polynomial:
    if isinstance(value, Polynomial):
        return value.substitute(_replacements)
    return Polynomial.constant(_int(value))


def _arithmetic(combine):
    def run(a, b):
        if isinstance(a, Polynomial) or isinstance(b, Polynomial):
            return _settle(combine(_symbolic(a), _symbolic(b)))
        return _int(combine(a, b))

    return run


# Symbolic divisors of the current evaluation: each must not be 0 where the op runs.
_divisors: list = []
_entry = None  # the entry block of the evaluated op's function: its ranges


def _floor_divide(a, b):
    """Python's `//` (aten.floordiv.int): on ints, else `facts.quotient`'s meaning, a
    symbolic divisor guarded nonzero where the op runs."""
    if not isinstance(a, Polynomial) and not isinstance(b, Polynomial):
        if b == 0:
            raise GiveUp
        return a // b
    if isinstance(b, Polynomial) and (whole := quotient_by_ranges(_symbolic(a), _symbolic(b), _entry)) is not None:
        return whole  # the divisor is positive there
    return _settle(_by_symbols(facts.quotient, a, b))


def _remainder(a, b):
    """Python's `%` (aten.remainder.int): on ints, else `facts.modulo`'s meaning."""
    if not isinstance(a, Polynomial) and not isinstance(b, Polynomial):
        if b == 0:
            raise GiveUp
        return a % b
    return _settle(_by_symbols(facts.modulo, a, b))


def _by_symbols(meaning, a, b) -> Polynomial:
    if isinstance(b, Polynomial):
        _divisors.append(b)
    elif b == 0:
        raise GiveUp
    divisor = b if isinstance(b, Polynomial) else Polynomial.constant(b)
    result = meaning(_symbolic(a), divisor, guarded=True)
    if result is None:
        raise GiveUp
    return result


def _decide(test, low, high) -> bool:
    """`test(x, 0)` for every x in [low, high] (`ranges.decide`), or give up."""
    answer = decide(test, low, high)
    if answer is None:
        raise GiveUp
    return answer


class _SizeFloat:
    """A float that is integer arithmetic on sizes (`aten.Float.Scalar` of a symbolic
    size, then float steps): its polynomial. Sizes are below 2**53, where converting them
    is exact; further steps are exact while their range stays within 2**53, where float
    arithmetic on integers is exact (as patterns/scalars.py folds them). Past that, only a
    product of sizes and non-negative integral constants goes on, inexact (a storage-size
    check's product): a comparison reads its sign, or its range with a margin for the
    rounding, or becomes a condition computed in floats at run time."""

    __slots__ = ("exact", "polynomial")

    def __init__(self, polynomial: Polynomial, exact: bool = True) -> None:
        self.polynomial = polynomial
        self.exact = exact


class _Undecided:
    """Reading a value known only at run time as a Python value gives up."""

    def _give_up(self, *_):
        raise GiveUp

    __bool__ = __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _give_up
    __hash__ = object.__hash__


class _Condition(_Undecided):
    """A bool known only at run time: `op` (an int or float comparison's op name, or
    `not`, `and`, `or`) of its operands (polynomials, a float constant, conditions)."""

    __slots__ = ("op", "operands")

    def __init__(self, op: str, *operands) -> None:
        self.op = op
        self.operands = operands

    def key(self) -> tuple:
        """The condition as hashable data: equal keys, one condition."""
        return (self.op, *(o.key() if isinstance(o, _Condition) else o for o in self.operands))

    def symbols(self) -> set:
        found = set()
        for operand in self.operands:
            if isinstance(operand, _Condition):
                found |= operand.symbols()
            elif isinstance(operand, Polynomial):
                found |= {s for monomial in operand.terms for s in monomial}
        return found


class _OpaqueFloat(_Undecided):
    """A float computed from sizes past what a `_SizeFloat` follows (a sum beyond 2**53, a
    quotient): finite, and below the int64 range in magnitude, as every dynamic size is
    taken to be (overflow of dynamic sizes is not guarded: docs/facts.md). Only its
    comparisons with the int64 bounds (a storage-size check's) and infinities decide."""

    __float__ = __int__ = __index__ = _Undecided._give_up


_OPAQUE_FLOAT = _OpaqueFloat()
# A value below this in magnitude compares with a constant at least this large as 0.0 does.
_INT64_SCALE = 2.0**62


class _UnknownSize(_Undecided):
    """A size chosen at run time between two (an If on a condition): an unknown dim."""


_UNKNOWN_SIZE = _UnknownSize()


class _UnknownRank(_Undecided):
    """An unranked tensor's rank in a dtype calculation: most promote without reading it."""


_UNKNOWN_RANK = _UnknownRank()


class Guard:
    """A check the ranges do not decide: the op runs only where `condition` is `holds`."""

    __slots__ = ("condition", "holds", "message")

    def __init__(self, condition: _Condition, holds: bool, message: str | None) -> None:
        self.condition = condition
        self.holds = holds
        self.message = message


class Evaluation:
    """Per result, the sizes (shape) or dtype code (dtype) a library function returned,
    None for a result it does not describe; the guards those answers need."""

    __slots__ = ("guards", "values")

    def __init__(self, values: list, guards: list[Guard]) -> None:
        self.values = values
        self.guards = guards

    def assert_guards(self, op) -> bool:
        """Assert the guards for `op` (engine/guards.py); False, with nothing built, when
        one reads a size nothing in reach carries."""
        return guards.assert_guards(op, self.guards)


def _copied(value):
    """A list and the lists in it copied (the evaluator's lists hold ints, sizes and lists)."""
    return [_copied(v) for v in value] if isinstance(value, list) else value


def _not(value):
    if isinstance(value, _Condition):
        return value.operands[0] if value.op == "not" else _Condition("not", value)
    return not value


def _connect(op: str, a, b):
    """`a and b` (op "and") or `a or b` ("or") of bools and conditions."""
    deciding = op == "or"  # the value that is the answer whatever the other is
    if a is deciding or b is deciding:
        return deciding
    if a is (not deciding) or b is (not deciding):
        return b if a is (not deciding) else a
    return _Condition(op, a, b)


def _choose(condition: _Condition, then, otherwise):
    """`then if condition else otherwise` for an undecided condition."""
    if then is otherwise:
        return then
    if isinstance(then, (bool, _Condition)) and isinstance(otherwise, (bool, _Condition)):
        return _connect("or", _connect("and", condition, then), _connect("and", _not(condition), otherwise))
    if isinstance(then, list) and isinstance(otherwise, list) and len(then) == len(otherwise):
        return [_choose(condition, a, b) for a, b in zip(then, otherwise, strict=True)]
    if not (_is_size(then) and _is_size(otherwise)):
        raise GiveUp
    if then is not _UNKNOWN_SIZE and otherwise is not _UNKNOWN_SIZE and _symbolic(then) == _symbolic(otherwise):
        return _settle(_symbolic(then))
    if then is _UNKNOWN_SIZE or otherwise is _UNKNOWN_SIZE:
        return _UNKNOWN_SIZE
    return _settle(facts.select(condition.key(), _symbolic(then), _symbolic(otherwise)))


# Conditions over at most this many sizes are decided case by case; each size's least
# values, one by one, then the rest of its range.
_CASE_SYMBOLS = 2
_CASE_VALUES = 3


def _truth(key: tuple, range_of, assumptions: tuple = ()) -> bool | None:
    """A condition's truth (its key, `_Condition.key`) where each polynomial ranges over
    `range_of(p)` and the `assumptions` ((key, truth) asserted before) hold; None when that
    leaves it open. Comparisons the ranges do not decide are free bools (at most
    `_FREE_ATOMS`): `a or (not a and b)` with b decided true holds whatever a is, and
    `not (a != b and a != 1 and b != 1)` holds where it was asserted. Float comparisons are
    always free."""
    key = _canonical(key)
    atoms = _atoms(key)
    relevant = []
    for assumed, holds in ((_canonical(k), holds) for k, holds in assumptions):
        more = _atoms(assumed)
        if more & atoms and len(atoms | more) <= _FREE_ATOMS:  # it speaks of this condition
            relevant.append((assumed, holds))
            atoms = atoms | more
    known = {atom: _atom_truth(atom, range_of) for atom in atoms}
    free = [atom for atom, value in known.items() if value is None]
    if len(free) > _FREE_ATOMS:
        return None
    answers = set()
    for values in itertools.product((False, True), repeat=len(free)):
        assignment = {**known, **dict(zip(free, values, strict=True))}
        if any(_value(assumed, assignment) is not holds for assumed, holds in relevant):
            continue  # a case the asserted conditions exclude
        if relevant and not _consistent(assignment):
            continue  # equalities it takes contradict one another (a == b, b == c, a != c)
        answers.add(_value(key, assignment))
        if len(answers) > 1:
            return None
    return answers.pop() if answers else _EXCLUDED


# `_truth` of a case the assumptions exclude (no assignment of its atoms satisfies them).
_EXCLUDED = object()


def _consistent(assignment: dict) -> bool:
    """Whether the int (in)equalities an assignment of atoms takes can hold together: the
    sides each equality joins are one class (two constants never), and no disequality
    separates one class from itself."""
    parent: dict = {}

    def root(p):
        while parent.get(p, p) != p:
            p = parent[p]
        return p

    equal = [(a[1], a[2]) for a, v in assignment.items() if v is not None and _is_equality(a, v)]
    for lhs, rhs in equal:
        parent[root(lhs)] = root(rhs)
    constants: dict = {}
    for side in {side for pair in equal for side in pair}:
        value = side.constant_value()
        if value is not None and constants.setdefault(root(side), value) != value:
            return False
    return not any(root(a[1]) == root(a[2]) for a, v in assignment.items()
                   if v is not None and _is_equality(a, not v))


def _is_equality(atom: tuple, value: bool) -> bool:
    """Whether the atom, taken as `value`, says its sides are equal."""
    if not all(isinstance(side, Polynomial) for side in atom[1:]) or len(atom) != 3:
        return False
    return (atom[0] == "torch.aten.eq.int" and value) or (atom[0] == "torch.aten.ne.int" and not value)


@functools.lru_cache(maxsize=1 << 16)  # pure, and asked of each assumption in every case split
def _canonical(key):
    """A condition key with each int comparison of two polynomials in one order (the
    mirror where swapped) and `!=` as `not ==`, so that `b != a`, `a != b` and `a == b`
    read one atom."""
    if isinstance(key, bool):
        return key
    if key[0] in ("not", "and", "or"):
        return (key[0], *(_canonical(part) for part in key[1:]))
    if key[0] not in MIRRORED or not all(isinstance(side, Polynomial) for side in key[1:]):
        return key
    if key[0] == "torch.aten.ne.int":
        return ("not", _canonical(("torch.aten.eq.int", *key[1:])))
    lhs, rhs = key[1:]
    if sorted(lhs.terms.items()) <= sorted(rhs.terms.items()):
        return key
    return (MIRRORED[key[0]], rhs, lhs)


_FREE_ATOMS = 6


@functools.lru_cache(maxsize=1 << 16)
def _atoms(key) -> frozenset:
    if isinstance(key, bool):
        return frozenset()
    if key[0] in ("not", "and", "or"):
        return frozenset().union(*(_atoms(part) for part in key[1:]))
    return frozenset((key,))


def _atom_truth(atom: tuple, range_of) -> bool | None:
    test = INT_COMPARISONS.get(atom[0])
    if test is None:
        return None
    a, b = atom[1:]
    try:
        return _decide(test, *range_of(a - b))
    except GiveUp:
        return None


def _value(key, values: dict) -> bool:
    if isinstance(key, bool):
        return key
    op = key[0]
    if op == "not":
        return not _value(key[1], values)
    if op == "and":
        return all(_value(part, values) for part in key[1:])
    if op == "or":
        return any(_value(part, values) for part in key[1:])
    return values[key]


def decide_by_cases(key: tuple, entry, within: dict | None = None, assumptions: tuple | None = None) -> bool | None:
    """A condition over at most `_CASE_SYMBOLS` sizes that is the same in every case: each
    size is split into its least few values, one by one, and the rest of its range
    (`256*s == 64*s or 64*s > 0`, a view's check, holds at s = 0 and for s >= 1). A
    condition reading a select is first split by the select's own condition
    (`_decide_by_select`). `within` narrows some symbols' ranges; `assumptions` are the
    conditions of several comparisons asserted at the function's entry that share a size
    with it (a broadcast kept open), taken as given in every case."""
    if assumptions is None:
        function_key = None if entry is None else op_key(entry.owner)
        assumptions = _relevant(key, facts.compound_assumptions(function_key))
    symbols = sorted(_key_symbols(key))
    if not symbols:  # constants (a quotient the asserted equalities made exact)
        answer = _truth(key, lambda p: polynomial_range(p, entry, within), assumptions)
        return None if answer is _EXCLUDED else answer
    selects = [s for s in symbols if (facts.definition(s) or (None,))[0] == facts.SELECT]
    if not selects and len(symbols) > _CASE_SYMBOLS:
        return None
    cache = facts.run_cache()
    cache_key = ("cases", key, None if entry is None else op_key(entry.owner), facts.range_count(),
                 tuple(sorted((within or {}).items())), assumptions)
    if cache_key not in cache:
        cache[cache_key] = (_decide_by_select(key, selects[0], entry, within, assumptions) if selects
                            else _decide_by_cases(key, symbols, entry, within or {}, assumptions))
    return cache[cache_key]


_MAX_ASSUMPTIONS = 6


def _relevant(key: tuple, assumptions: list) -> tuple:
    """The asserted conditions sharing a size with `key` (a select's own sides count), the
    smallest first: what can decide it."""
    wanted = _with_select_sides(_key_symbols(key))
    found = [(assumption, holds) for assumption, holds in assumptions
             if _with_select_sides(_key_symbols(assumption)) & wanted]
    found.sort(key=lambda item: len(_atoms(item[0])))
    return tuple(found[:_MAX_ASSUMPTIONS])


def _with_select_sides(symbols: set) -> set:
    found, pending = set(), list(symbols)
    while pending:
        symbol = pending.pop()
        if symbol in found:
            continue
        found.add(symbol)
        definition = facts.definition(symbol)
        if definition is not None and definition[0] == facts.SELECT:
            pending += [s for part in (definition[2], definition[3]) for s in part.symbols()]
            pending += [s for side in definition[1][1:] if isinstance(side, Polynomial) for s in side.symbols()]
    return found


def _decide_by_select(key: tuple, select, entry, within: dict | None, assumptions: tuple = ()) -> bool | None:
    """A condition reading `select` (`then if c else otherwise`), the same where `c` holds,
    with the select its `then` (and `c`'s equality solved in: `s == 0` makes `s` 0), and
    where `c` fails, with the select its `otherwise` and `c`'s symbol narrowed (`s >= 1`):
    ONNX Reshape's `-1` among sizes `6 if s == 0 else s` divides either way. The assumptions
    are read the same way in each case."""
    _, condition, then, otherwise = facts.definition(select)
    answers = set()
    for holds, side in ((True, then), (False, otherwise)):
        substitution = {select: side}
        if holds and condition[0] == "torch.aten.eq.int" and all(isinstance(o, Polynomial) for o in condition[1:]):
            solved = facts.solve(condition[1] - condition[2], {})
            if solved is not None:
                substitution = {select: side.substitute(dict([solved])), solved[0]: solved[1]}
        narrowed = within_condition(condition, holds, entry)
        case_assumptions = tuple((_substituted(a, substitution), h) for a, h in assumptions)
        answer = decide_by_cases(_substituted(key, substitution), entry, {**(within or {}), **(narrowed or {})},
                                 (*case_assumptions, (_canonical(condition), holds)))
        if answer is None:
            return None
        answers.add(answer)
    return answers.pop() if len(answers) == 1 else None


def _decide_by_cases(key: tuple, symbols: list, entry, within: dict, assumptions: tuple = ()) -> bool | None:
    cases = [{}]
    for symbol in symbols:
        low, high = polynomial_range(Polynomial({(symbol,): 1}), entry, within)
        low = 0 if low is None else low
        pieces = [(v, v) for v in range(low, low + _CASE_VALUES) if high is None or v <= high]
        if high is None or low + _CASE_VALUES <= high:
            pieces.append((low + _CASE_VALUES, high))
        cases = [{**case, symbol: piece} for case in cases for piece in pieces]
    answers = {_truth(key, lambda p, case=case: polynomial_range(p, entry, {**within, **case}), assumptions)
               for case in cases} - {_EXCLUDED}
    return answers.pop() if len(answers) == 1 and None not in answers else None


def _key_symbols(key: tuple) -> set:
    found = set()
    for operand in key[1:]:
        if isinstance(operand, tuple):
            found |= _key_symbols(operand)
        elif isinstance(operand, Polynomial):
            found |= operand.symbols()
    return found


def _substituted(key: tuple, replacements: dict) -> tuple:
    return (key[0], *(_substituted(o, replacements) if isinstance(o, tuple) else
                      facts.resolved(o, replacements) if isinstance(o, Polynomial) else o for o in key[1:]))


def prune_implied_guards(module) -> None:
    """Erase the guards asserted at a function's entry that the function's equalities,
    asserted since, imply (`96*a*b == 96*c*d` once `c == a` and `d == b` are): each was
    needed by an op refined before those equalities, or the same as one kept (`b != 0`
    once `b` is `a` and `a != 0` is asserted). The equalities that replaced a symbol stay
    (their own replacement is no evidence), but one that the others imply through a
    quotient (`(16*a*b) // (8*c*d) == 2` once `c == a` and `d == b` are): every entry
    assert holds before the first op runs."""
    kept = set()
    for function_key, entry, assertion, key, holds in guards.entry_guards(module):
        replacements = facts.replacements(function_key)
        if guards.defines_replacement(key, holds) and facts.replaces(function_key, key[1], key[2]):
            own = {s for p in key[1:] if isinstance(p, Polynomial) for m in p.terms for s in m}
            others = {s: p for s, p in replacements.items() if s not in own}
            if decide_by_cases(_substituted(key, others), entry, assumptions=()) is holds:
                assertion.erase()
            continue
        if facts.defines_range(function_key, key, holds):
            continue  # what the store relies on; its own range would decide it
        key = _substituted(key, replacements)
        if (function_key, key, holds) in kept or decide_by_cases(key, entry, assumptions=()) is holds:
            assertion.erase()
        else:
            kept.add((function_key, key, holds))


_BOUND_OF_CLAMP = {"torch.aten.ge.int": "torch.aten.le.int", "torch.aten.le.int": "torch.aten.ge.int"}


def _clamp_bound(size: Polynomial, clamped: Polynomial) -> _Condition | None:
    """`size == clamped` where `clamped` is `t if size >= t else size` (a size clamped to
    a bound: the end of a slice of a position table) is `size <= t` (`size >= t` for a
    clamp from below): a range the fact store keeps, which decides every later clamp."""
    terms = list(clamped.terms.items())
    if len(terms) != 1 or len(terms[0][0]) != 1 or terms[0][1] != 1 or not is_computed(terms[0][0][0]):
        return None
    definition = facts.definition(terms[0][0][0])
    if definition is None or definition[0] != facts.SELECT:
        return None
    _, condition, then, otherwise = definition
    if otherwise != size or condition[0] not in _BOUND_OF_CLAMP or tuple(condition[1:]) != (size, then):
        return None
    return _Condition(_BOUND_OF_CLAMP[condition[0]], size, then)


def _never_one_when_clamped(bound: _Condition) -> bool:
    """Whether a broadcast of a size with its clamp to `bound` (`size <= t`, t a constant
    of 2 or more) fails exactly where the bound does: past t neither side is 1."""
    if bound.op != "torch.aten.le.int":
        return False
    least = bound.operands[1].constant_value()
    return least is not None and least >= 2


def _nonzero_parts(divisor: Polynomial) -> list[Polynomial]:
    """What must not be 0 for `divisor` not to be: each symbol of a single term
    (`64*a*b`: a, b), else the polynomial over the gcd of its coefficients."""
    if len(divisor.terms) == 1:
        ((monomial, _),) = divisor.terms.items()
        return [Polynomial({(symbol,): 1}) for symbol in set(monomial)]
    content = math.gcd(*divisor.terms.values())
    return [divisor.exact_divide(Polynomial.constant(content)) or divisor]


def _broadcast_pair(condition: _Condition) -> tuple[Polynomial, Polynomial] | None:
    """(a, b) when `condition` is broadcast's `a != b and a != 1 and b != 1` (in any
    order and nesting; `b != 1` is gone when b is a constant), else None."""
    atoms = _conjuncts(condition)
    if atoms is None or not all(a.op == "torch.aten.ne.int" for a in atoms):
        return None
    one = Polynomial.constant(1)
    pairs = [tuple(a.operands) for a in atoms]
    not_one = {p for p, q in pairs if q == one} | {q for p, q in pairs if p == one}
    others = [(p, q) for p, q in pairs if one not in (p, q)]
    if len(others) != 1:
        return None
    a, b = others[0]
    needed = {x for x in (a, b) if x.constant_value() is None}
    if not_one != needed or len(pairs) != 1 + len(needed):
        return None
    return a, b


def _conjuncts(condition: _Condition) -> list | None:
    if condition.op == "and":
        parts = [_conjuncts(c) if isinstance(c, _Condition) else None for c in condition.operands]
        return None if None in parts else [atom for part in parts for atom in part]
    return [condition] if condition.op in INT_COMPARISONS else None


def _is_size(value) -> bool:
    return isinstance(value, (Polynomial, _UnknownSize)) or (isinstance(value, int) and not isinstance(value, bool))


_EXACT_FLOAT_INTEGERS = 2**53
# `x - 0.0`, `x + 0.0`, `x / 1.0`, `x * 1.0`: x.
_IDENTITY_OPERAND = {operator.sub: 0.0, operator.add: 0.0, operator.truediv: 1.0, operator.mul: 1.0}


def _to_float(value):
    if isinstance(value, Polynomial):
        return _SizeFloat(value)
    return float(value)


def _compare_opaque(a, b, test) -> bool:
    """`test(a, b)` where one side is an `_OpaqueFloat` and the other a constant at least
    2**62 in magnitude or infinite (the opaque float compares as 0.0 does); else give up."""
    constant = b if isinstance(a, _OpaqueFloat) else a
    if not isinstance(constant, float) or math.isnan(constant) or abs(constant) < _INT64_SCALE:
        raise GiveUp
    return test(0.0, b) if isinstance(a, _OpaqueFloat) else test(a, 0.0)


def _opaque(combine, divisor) -> _OpaqueFloat:
    """The result of float arithmetic on sizes that no polynomial follows; a quotient only
    by a non-zero finite constant (TorchScript raises on a zero divisor)."""
    if combine is operator.truediv and (not isinstance(divisor, float) or divisor == 0 or not math.isfinite(divisor)):
        raise GiveUp
    return _OPAQUE_FLOAT


def _product_factor(value) -> Polynomial:
    """A factor of an inexact product: a single term of sizes with a non-negative
    coefficient, or a non-negative integral float, so that the product is at least 0."""
    if isinstance(value, _SizeFloat):
        terms = value.polynomial.terms
        if len(terms) > 1 or any(c < 0 for c in terms.values()):
            raise GiveUp
        return value.polynomial
    if not math.isfinite(value) or value < 0 or not value.is_integer():
        raise GiveUp
    return Polynomial.constant(int(value))


def _is(a, b) -> bool:
    if a is not None and b is not None:
        raise GiveUp  # identity of two objects: not a None check
    return a is None and b is None


def _text_equal(a, b) -> bool:
    if not isinstance(a, str) or not isinstance(b, str):
        raise GiveUp
    return a == b


def _format(template, values: tuple):
    """`aten.format` of a message: sizes PyTorch prints by value are named by their
    expressions (`%arg0[0]`), so a kept check says which dims it compares."""
    if not isinstance(template, str) or template.count("{}") != len(values):
        return _TEXT
    pieces = template.split("{}")
    return pieces[0] + "".join(guards.value_text(value) + piece for value, piece in zip(values, pieces[1:]))


def _add_text(a, b):
    return a + b if isinstance(a, str) and isinstance(b, str) else _TEXT


def _set_item(values: list, index: int, element) -> list:
    values[index] = element
    return values


def _append(values: list, element) -> list:
    values.append(element)
    return values


def _insert(values: list, index: int, element) -> list:
    if not -len(values) <= index <= len(values):
        raise GiveUp
    values.insert(index, element)
    return values


def _slice(values: list, start, end, step: int) -> list:
    if step <= 0:
        raise GiveUp
    return values[start:end:step]


def _range_length(low: int, high: int, step: int) -> int:
    if step == 0:
        raise GiveUp
    if step > 0:
        return 0 if low >= high else 1 + (high - 1 - low) // step
    return 0 if low <= high else 1 + (low - 1 - high) // -step


def _unchecked_cast(value):
    if value is None or value is _UNINITIALIZED:
        raise GiveUp  # the cast of None raises at run time
    return value


def _promote(ranks: list, dtypes: list) -> int:
    try:
        return promote_dtypes(ranks, dtypes)
    except AssertionError:
        raise GiveUp from None


def _dtype(value) -> int:
    if not isinstance(value, _ScalarTensor):
        raise GiveUp  # a tensor argument: the evaluator has none
    return value.dtype


def _divide(a, b) -> float:
    if b == 0:
        raise GiveUp
    return a / b


def _to_int(value) -> int:
    if isinstance(value, _SizeFloat):
        return _integral(value)
    if not math.isfinite(value):
        raise GiveUp
    return _int(int(value))


def _ceil(value: float) -> int:
    if isinstance(value, _SizeFloat):
        return _integral(value)
    if not math.isfinite(value):
        raise GiveUp
    return _int(math.ceil(value))


def _integral(value: _SizeFloat):
    """The int an exact size float is; an inexact one was rounded, so give up."""
    if not value.exact:
        raise GiveUp
    return _settle(value.polynomial)


def _give_up(*_):
    raise GiveUp


# Ops of one result computed from their operands' values.
_PURE = {
    "torch.aten.add.int": _arithmetic(operator.add),
    "torch.aten.sub.int": _arithmetic(operator.sub),
    "torch.aten.mul.int": _arithmetic(operator.mul),
    "torch.aten.neg.int": lambda a: _arithmetic(operator.sub)(0, a),
    "torch.aten.floordiv.int": _floor_divide,
    "torch.aten.remainder.int": _remainder,
    "torch.aten.__derive_index": lambda index, start, step: _arithmetic(operator.add)(
        start, _arithmetic(operator.mul)(index, step)),
    "torch.aten.__range_length": _range_length,
    "torch.aten.eq.bool": operator.eq,
    "torch.aten.div": _divide,
    "torch.aten.ceil.float": _ceil,
    "torch.aten.Int.float": _to_int,
    "torch.aten.Int.Scalar": _to_int,
    "torch.aten.Float.Scalar": _to_float,
    "torch.aten.__not__": _not,
    "torch.aten.__and__.bool": lambda a, b: _connect("and", a, b),
    "torch.aten.__is__": _is,
    "torch.aten.__isnot__": lambda a, b: not _is(a, b),
    "torch.aten.len.t": len,
    "torch.aten.__getitem__.t": operator.getitem,
    "torch.aten._set_item.t": _set_item,
    "torch.aten.append.t": _append,
    "torch.aten.insert.t": _insert,
    "torch.aten.slice.t": _slice,
    "torch.aten.add.t": operator.add,
    "torch.aten.mul.left_t": operator.mul,
    "torch.aten.__contains__.str_list": lambda values, value: any(_text_equal(e, value) for e in values),
    "torch.aten.eq.str": _text_equal,
    "torch.aten.ne.str": lambda a, b: not _text_equal(a, b),
    "torch.aten.add.str": _add_text,
    "torch.aten.str": lambda _: _TEXT,
    "torch.aten.format": lambda template, *values: _format(template, values),
    "torch.prim.ListConstruct": lambda *elements: list(elements),
    "torch.prim.TupleConstruct": lambda *elements: elements,
    "torch.prim.TupleIndex": operator.getitem,
    "torch.prim.unchecked_cast": _unchecked_cast,
    "torch.derefine": lambda value: value,
    "torch.prim.Uninitialized": lambda: _UNINITIALIZED,
    "torch.prim.NumToTensor.Scalar": _ScalarTensor,
    "torch.prim.dtype": _dtype,
    "torch.promote_dtypes": _promote,
    "torch.prim.RaiseException": _give_up,  # the greedy way reports the check at the op
}


_FLOAT_COMPARISONS = {
    "torch.aten.eq.float": operator.eq,
    "torch.aten.ne.float_int": operator.ne,
    "torch.aten.lt.float_int": operator.lt,
    "torch.aten.gt.float_int": operator.gt,
    "torch.aten.ge.float_int": operator.ge,
    "torch.aten.lt.float": operator.lt,
    "torch.aten.gt.float": operator.gt,
    "torch.aten.ge.float": operator.ge,
}
# The float comparisons of the Torch dialect (it has no `le.float`, no `ne.float`).
_FLOAT_CONDITION_OPS = {operator.eq: "torch.aten.eq.float", operator.lt: "torch.aten.lt.float",
                        operator.gt: "torch.aten.gt.float", operator.ge: "torch.aten.ge.float"}
_FLOAT_ARITHMETIC = {
    "torch.aten.add.float": operator.add,
    "torch.aten.sub.float": operator.sub,
    "torch.aten.mul.float": operator.mul,
    "torch.aten.div.float": operator.truediv,
}

# Ops a branch run on an undecided condition must not hold (besides region ops): they
# change lists or run other functions.
_NOT_SPECULATIVE = frozenset({"func.call", "torch.aten._set_item.t", "torch.aten.append.t",
                              "torch.aten.insert.t"})

_EVALUATORS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class _Raise:
    """A block's `prim.RaiseException`: its message's text where it is known at compile
    time (see ir.constants.string_text), and the message's slot."""

    __slots__ = ("slot", "text")

    def __init__(self, text: str | None, slot: int) -> None:
        self.text = text
        self.slot = slot


class _Block:
    """Steps and yielded slots; `raises`: the block's top-level raise, or None; `pure`:
    its steps but a raise only compute values (no loop, call, list mutation, or If that
    may raise), so it may run on a branch that is not taken."""

    __slots__ = ("arguments", "pure", "raises", "steps", "yielded")

    def __init__(self, arguments: list[int], steps: list, yielded: list[int], raises, pure: bool) -> None:
        self.arguments = arguments
        self.steps = steps
        self.yielded = yielded
        self.raises = raises
        self.pure = pure


class _Function:
    """A compiled function: its body, its environment's size, its parameter types' texts
    (read on every evaluation)."""

    __slots__ = ("body", "parameter_texts", "slots")

    def __init__(self, body: _Block, slots: int, parameter_texts: list[str]) -> None:
        self.body = body
        self.slots = slots
        self.parameter_texts = parameter_texts


def evaluator_for(library) -> Evaluator:
    """The evaluator of `library`: one per library, so a function compiles once."""
    if library not in _EVALUATORS:
        _EVALUATORS[library] = Evaluator(library)
    return _EVALUATORS[library]


class Evaluator:
    """Runs library functions (`library.plan(symbol)`, else `library.get(symbol)`), each
    compiled on first use."""

    def __init__(self, library) -> None:
        self._library = library
        self._compiled: dict[str, _Function | None] = {}
        self._steps = 0
        self._entry = None  # the entry block of the evaluated op's function: its ranges
        self._function_key = None  # and its asserted facts
        self._guards: list[Guard] = []

    def evaluate(self, op, unpack, kind: CalculationKind, symbol: str) -> Evaluation | None:
        """What the library function returns for `op` (for `unpack`'s results for a list
        result) and the guards that needs; None when the evaluator gives up."""
        function = self._function(symbol)
        if function is None:
            return None
        parameters = function.parameter_texts
        operands = list(op.operation.operands)
        outer = list((unpack if unpack is not None else op).operation.results)
        self._steps = 0
        self._guards = []
        function_op = enclosing_function(op)
        self._entry = function_op.regions[0].blocks[0] if function_op is not None else None
        self._function_key = op_key(function_op) if function_op is not None else None
        global _replacements, _entry
        _entry = self._entry
        _replacements = dict(facts.replacements(self._function_key))
        _divisors.clear()
        try:
            if len(operands) != len(parameters):
                raise GiveUp
            if kind is not SHAPE and bool_scalar_changes_promotion(operands, function.parameter_texts):
                raise GiveUp  # reify passes no dtype then
            arguments = [_argument(v, p, kind) for v, p in zip(operands, parameters, strict=True)]
            (result,) = self._call(function, arguments)
            values = _split(result, outer, kind, unpack is not None)
            self._guard_divisors()
            return Evaluation(values, [g for g in self._guards if not self._holds_already(g)])
        except GiveUp:
            return None
        except (ArithmeticError, IndexError, TypeError, ValueError, RecursionError):
            return None  # what TorchScript raises on too: the greedy way reports it

    # -- compiling -----------------------------------------------------------------------

    def _function(self, symbol: str) -> _Function | None:
        if symbol not in self._compiled:
            self._compiled[symbol] = None  # a recursive call gives up rather than loop
            plan = self._library.plan(symbol)
            if plan is None:
                plan = function_plan(self._library.get(symbol))
            if plan is not None:
                self._compiled[symbol] = _link_function(plan)
        return self._compiled[symbol]

    # -- running -------------------------------------------------------------------------

    def _call(self, function: _Function, arguments: list) -> list:
        environment = [None] * function.slots
        return self._run(function.body, environment, arguments)

    def _run(self, block: _Block, environment: list, arguments: list) -> list:
        for slot, value in zip(block.arguments, arguments, strict=True):
            environment[slot] = value
        self._steps += len(block.steps)
        if self._steps > MAX_STEPS:
            raise GiveUp
        for kind, operands, results, payload in block.steps:
            values = [environment[i] for i in operands]
            if kind is _PURE_STEP:
                environment[results[0]] = payload(*values)
                continue
            outputs = kind(self, values, payload, environment)
            for slot, value in zip(results, outputs, strict=True):
                environment[slot] = value
        return [environment[i] for i in block.yielded]

    def _if(self, values: list, branches: tuple, environment: list) -> list:
        condition = self._assumed(values[0])
        if isinstance(condition, _Condition):
            return self._if_undecided(condition, *branches, environment)
        return self._run(branches[0] if condition else branches[1], environment, [])

    def _if_undecided(self, condition: _Condition, then: _Block, otherwise: _Block, environment: list) -> list:
        """A check raising on one side is a guard, and the other side runs; an If whose
        sides only compute values runs both and chooses per result at run time."""
        if then.raises is not None and otherwise.raises is not None:
            raise GiveUp  # raises either way: the greedy way reports it
        if then.raises is not None or otherwise.raises is not None:
            decided = decide_by_cases(condition.key(), self._entry)
            if decided is not None:
                return self._run(then if decided else otherwise, environment, [])
            raises_on = then.raises is not None
            message = self._message(then if raises_on else otherwise, environment)
            if not is_overflow_check(message):
                self._guards.append(self._specialized(condition, raises_on, message))
            return self._run(otherwise if raises_on else then, environment, [])
        if not (then.pure and otherwise.pure):
            return self._both_branches(condition, then, otherwise, environment)
        chosen = self._run(then, environment, [])
        others = self._run(otherwise, environment, [])
        condition = self._equality_at_bound(condition)
        return [self._choose_assumed(condition, a, b) for a, b in zip(chosen, others, strict=True)]

    def _choose_assumed(self, condition: _Condition, then, otherwise):
        """`_choose`, where the function's asserted conditions and this evaluation's own
        guards make one side the value in every case: `7 if n == 1 else n` after the
        broadcast check `n == 7 or n == 1` is 7."""
        if not (_is_size(then) and _is_size(otherwise)) or then is _UNKNOWN_SIZE or otherwise is _UNKNOWN_SIZE:
            return _choose(condition, then, otherwise)
        assumed = [*facts.compound_assumptions(self._function_key),
                   *((g.condition.key(), g.holds) for g in self._guards if isinstance(g.condition, _Condition))]
        if not assumed:
            return _choose(condition, then, otherwise)
        same = ("torch.aten.eq.int", _symbolic(then), _symbolic(otherwise))
        for key, side in (((("or", condition.key(), same)), then), (("or", ("not", condition.key()), same), otherwise)):
            if decide_by_cases(key, self._entry, assumptions=_relevant(key, assumed)) is True:
                return side
        return _choose(condition, then, otherwise)

    def _equality_at_bound(self, condition: _Condition) -> _Condition:
        """`a >= b` where the ranges say `a <= b` holds only at `a == b` (and `a <= b`
        where `a >= b`): as that equality, `_choose` sees that `b if a >= b else a`, the
        clamp of a size `a` to an asserted bound `b`, is `a`."""
        if condition.op not in ("torch.aten.ge.int", "torch.aten.le.int"):
            return condition
        a, b = condition.operands
        least, greatest = polynomial_range(a - b, self._entry)
        if (greatest if condition.op == "torch.aten.ge.int" else least) != 0:
            return condition
        return _Condition("torch.aten.eq.int", a, b)

    def _both_branches(self, condition: _Condition, then: _Block, otherwise: _Block, environment: list) -> list:
        """An If whose branches check (or call, or mutate lists): each branch runs on a copy
        of the lists it may change; where one changed a list that exists outside it, give up.
        A guard of a branch holds only where the branch runs: `not condition or guard`; an
        equality it asserts replaces symbols only inside it."""
        original, replacements, guards = list(environment), dict(_replacements), self._guards
        results = []
        for block, taken in ((then, condition), (otherwise, _not(condition))):
            environment[:] = [_copied(v) for v in original]
            self._guards = []
            results.append(self._run(block, environment, []))
            if any(isinstance(v, list) and v != environment[i] for i, v in enumerate(original)):
                raise GiveUp  # the branch changed a list the code after the If may read
            guards.extend(Guard(_connect("or", _not(taken), g.condition if g.holds else _not(g.condition)),
                                True, g.message) for g in self._guards)
            _replacements.clear()
            _replacements.update(replacements)
        environment[:] = original
        self._guards = guards
        return [_choose(condition, a, b) for a, b in zip(*results, strict=True)]

    def _holds_already(self, guard: Guard) -> bool:
        """A guard whose whole condition the ranges and the asserted conditions decide as it
        must hold: each If of a check asked only for its own comparison."""
        if not isinstance(guard.condition, _Condition):
            return False
        key = guard.condition.key()
        own = {_canonical(key), _canonical(("not", key))}
        assumptions = _relevant(key, [(a, h) for a, h in facts.compound_assumptions(self._function_key)
                                      if _canonical(a) not in own])
        return decide_by_cases(key, self._entry, assumptions=assumptions) is guard.holds

    def _guard_divisors(self) -> None:
        """A quotient by a symbolic size holds where the size is not 0: where the ranges
        do not say so, that is a guard (TorchScript raises on it; so does PyTorch's op)."""
        for divisor in {p for d in _divisors for p in _nonzero_parts(_symbolic(d))}:
            try:
                if _decide(operator.ne, *polynomial_range(_symbolic(divisor), self._entry)):
                    continue
            except GiveUp:
                pass
            condition = self._assumed(_Condition("torch.aten.ne.int", _symbolic(divisor), Polynomial.constant(0)))
            if isinstance(condition, _Condition):
                self._guards.append(Guard(condition, True, "division by zero in the shape calculation"))

    def _specialized(self, condition: _Condition, raises_on: bool, message: str | None) -> Guard:
        """The guard for a check. A broadcast check of two dynamic sizes (`a != b and a != 1
        and b != 1` raises) is asserted as `a == b` where the ranges put both at 2 or more
        (torch.export's dims), or everywhere under `broadcast-equal`: then one size stands
        for both, here and, once asserted at the entry, in every later op. Elsewhere it is
        PyTorch's own check, and the size stays `b if a == 1 else a`."""
        pair = _broadcast_pair(condition) if raises_on else None
        if pair is None:
            return Guard(condition, not raises_on, message)
        a, b = pair
        bound = _clamp_bound(a, b)
        if bound is None:
            bound = _clamp_bound(b, a)
        if bound is not None and _never_one_when_clamped(bound):
            return Guard(bound, True, message)
        if not self._equal_when_broadcast(a, b):
            return Guard(condition, not raises_on, message)
        facts.extend(_replacements, a, b)
        return Guard(_Condition("torch.aten.eq.int", a, b) if bound is None else bound, True, message)

    def _equal_when_broadcast(self, a: Polynomial, b: Polynomial) -> bool:
        """Whether a broadcast of `a` and `b` asserts their equality: where neither can be 1
        (PyTorch's check then says no more), and under torch.export's rule
        (`broadcast-equal`) wherever both can be 2 or more (a computed size at most 1, a
        slice of a dim of 1, broadcasts as PyTorch says)."""
        ranges = [polynomial_range(size, self._entry) for size in (a, b)]
        if facts.broadcast_equal():
            return all(greatest is None or greatest >= 2 for _, greatest in ranges)
        return all(least is not None and least >= 2 for least, _ in ranges)

    def _message(self, raising: _Block, environment: list) -> str | None:
        """A raise's message: the string its block builds before raising (from a function
        argument, as `op + ": ..."`, its formatted sizes named), else its compile-time
        text."""
        if not raising.pure:
            return raising.raises.text
        environment[raising.raises.slot] = None
        try:
            self._run(raising, environment, [])
        except GiveUp:
            pass  # the raise, or a step before it: either way the slot says what it built
        message = environment[raising.raises.slot]
        return message if isinstance(message, str) else raising.raises.text

    def _loop(self, values: list, body: _Block, environment: list) -> list:
        trip_count, condition, carried = values[0], values[1], values[2:]
        iteration = 0
        while condition and iteration < trip_count:
            if iteration == MAX_UNROLL:
                raise GiveUp  # the IR's unroll cap: both ways leave such a loop alone
            condition, *carried = self._run(body, environment, [iteration, *carried])
            iteration += 1
        return carried

    def _func_call(self, values: list, symbol: str, environment: list) -> list:
        callee = self._function(symbol)
        if callee is None:
            raise GiveUp
        return self._call(callee, values)

    # Int comparisons, decided on symbolic sizes by the range of their difference
    # (calculations/ranges.py), as patterns/scalars.py decides them in the IR; one the
    # ranges do not decide is a condition.
    def _compare(self, values: list, name: str, environment: list) -> list:
        a, b = values
        test = INT_COMPARISONS[name]
        if not isinstance(a, Polynomial) and not isinstance(b, Polynomial):
            return [test(a, b)]
        a, b = _symbolic(a), _symbolic(b)
        try:
            return [_decide(test, *polynomial_range(a - b, self._entry))]
        except GiveUp:
            return [self._assumed(_Condition(name, a, b))]

    def _assumed(self, condition):
        """A condition asserted at the function's entry is decided. It stays a guard of
        the evaluation (asserted there already, so nothing is built), so an answer that
        relies on it is not remembered for other functions."""
        if not isinstance(condition, _Condition):
            return condition
        holds = facts.asserted(self._function_key, condition.key())
        if holds is None:
            return condition
        self._guards.append(Guard(condition, holds, None))
        return holds

    def _test(self, test, a, b) -> bool:
        if not isinstance(a, Polynomial) and not isinstance(b, Polynomial):
            return test(a, b)
        return _decide(test, *polynomial_range(_symbolic(a) - _symbolic(b), self._entry))

    def _float_arithmetic(self, values: list, combine, environment: list) -> list:
        a, b = values
        if isinstance(a, _OpaqueFloat) or isinstance(b, _OpaqueFloat):
            return [_opaque(combine, b)]
        if not isinstance(a, _SizeFloat) and not isinstance(b, _SizeFloat):
            if combine is operator.truediv and b == 0:
                raise GiveUp
            return [combine(a, b)]
        if isinstance(a, _SizeFloat) and b == _IDENTITY_OPERAND[combine]:
            return [a]
        if combine is operator.truediv:
            return [_opaque(combine, b)]
        try:
            polynomial = combine(self._exact_polynomial(a), self._exact_polynomial(b))
            self._exact_polynomial(_SizeFloat(polynomial))
            return [_SizeFloat(polynomial)]
        except GiveUp:
            if combine is not operator.mul:
                return [_opaque(combine, b)]
            return [_SizeFloat(_product_factor(a) * _product_factor(b), exact=False)]

    def _exact_polynomial(self, value) -> Polynomial:
        """The polynomial of a float computed exactly from sizes, or give up."""
        if isinstance(value, _SizeFloat):
            if not value.exact:
                raise GiveUp
            least, greatest = polynomial_range(value.polynomial, self._entry)
            if least is None or greatest is None or max(-least, greatest) > _EXACT_FLOAT_INTEGERS:
                raise GiveUp
            return value.polynomial
        if not value.is_integer() or abs(value) > _EXACT_FLOAT_INTEGERS:
            raise GiveUp
        return Polynomial.constant(int(value))

    def _compare_floats(self, values: list, test, environment: list) -> list:
        a, b = values
        if isinstance(a, _OpaqueFloat) or isinstance(b, _OpaqueFloat):
            return [_compare_opaque(a, b, test)]
        if not isinstance(a, _SizeFloat) and not isinstance(b, _SizeFloat):
            return [test(a, b)]
        if not isinstance(a, _SizeFloat):
            a, b, test = b, a, MIRRORED_TESTS[test]
        if isinstance(b, _SizeFloat):
            if a is b or (a.exact and b.exact and a.polynomial == b.polynomial):
                return [test(0, 0)]  # one exact value (`x == x`: a size is not NaN)
            difference = self._exact_polynomial(a) - self._exact_polynomial(b)
            return [_decide(test, *polynomial_range(difference, self._entry))]
        if math.isnan(b):
            raise GiveUp
        if b == math.inf or b == -math.inf:
            return [test(0.0, b)]  # sizes are finite
        low, high = self._float_range(a)
        if test is operator.eq or test is operator.ne:
            if b < low or b > high:
                return [test(0, 1)]
        elif test(low, b) == test(high, b):
            return [test(low, b)]
        if test not in _FLOAT_CONDITION_OPS:
            raise GiveUp
        return [_Condition(_FLOAT_CONDITION_OPS[test], a.polynomial, b)]

    def _float_range(self, value: _SizeFloat) -> tuple[float, float]:
        """Bounds of the float: its polynomial's range (rounding a size to a float is
        monotonic), widened for an inexact product by more than its rounding (2**-46 over
        64 factors)."""
        least, greatest = polynomial_range(value.polynomial, self._entry)
        low = -math.inf if least is None else float(least)
        high = math.inf if greatest is None else float(greatest)
        if value.exact:
            return low, high
        return low * (1 - 2**-40), high * (1 + 2**-40)

    def _extreme(self, values: list, name: str, environment: list) -> list:
        """`min`/`max` of two ints (`name` the comparison choosing `a`); where the ranges
        do not decide it (`max(s, 1)` of a size that may be 0), the select of the two."""
        a, b = values
        (chosen,) = self._compare(values, name, environment)
        if isinstance(chosen, _Condition):
            return [_choose(self._equality_at_bound(chosen), a, b)]
        return [a if chosen else b]

    def _lists_equal(self, values: list, equal: bool, environment: list) -> list:
        a, b = values
        same = len(a) == len(b) and all(self._test(operator.eq, x, y) for x, y in zip(a, b))
        return [same == equal]

    def _contains(self, values: list, _payload, environment: list) -> list:
        elements, value = values
        found = [self._test(operator.eq, e, value) for e in elements]
        return [any(found)]

    def _tuple_unpack(self, values: list, _payload, environment: list) -> tuple:
        return values[0]

    def _constant(self, values: list, value, environment: list) -> list:
        return [value]


# Ops run by an Evaluator method (they read ranges or yield several results): the
# method, and what it is passed.
_METHOD_STEPS = {
    **{name: (Evaluator._compare, name) for name in INT_COMPARISONS},
    **{name: (Evaluator._compare_floats, test) for name, test in _FLOAT_COMPARISONS.items()},
    **{name: (Evaluator._float_arithmetic, combine) for name, combine in _FLOAT_ARITHMETIC.items()},
    "torch.prim.min.int": (Evaluator._extreme, "torch.aten.le.int"),
    "torch.prim.max.int": (Evaluator._extreme, "torch.aten.ge.int"),
    "torch.aten.eq.int_list": (Evaluator._lists_equal, True),
    "torch.aten.ne.int_list": (Evaluator._lists_equal, False),
    "torch.aten.__contains__.int_list": (Evaluator._contains, None),
    "torch.prim.TupleUnpack": (Evaluator._tuple_unpack, None),
}
_PURE_STEP = object()  # the marker of a step run inline by `_run`


def _link_function(plan: tuple) -> _Function:
    parameter_texts, slots, body = plan
    return _Function(_link_block(body), slots, parameter_texts)


def _link_block(plan: tuple) -> _Block:
    arguments, step_plans, yielded, raises = plan
    steps = tuple(_link_step(*step) for step in step_plans)
    pure = all(_speculative(step_plan[0], step) for step_plan, step in zip(step_plans, steps))
    return _Block(arguments, steps, yielded, None if raises is None else _Raise(*raises), pure)


def _link_step(name: str, operands: list, results: list, extra) -> tuple:
    if name in CONSTANT_OPS:
        return (Evaluator._constant, (), results, extra)
    if name == IF:
        return (Evaluator._if, operands, results, (_link_block(extra[0]), _link_block(extra[1])))
    if name == LOOP:
        return (Evaluator._loop, operands, results, _link_block(extra))
    if name == "func.call":
        return (Evaluator._func_call, operands, results, extra)
    method = _METHOD_STEPS.get(name)
    if method is not None:
        return (method[0], operands, results, method[1])
    pure = _PURE.get(name)
    if pure is None or len(results) > 1:
        return (_PURE_STEP, operands, (0,), _give_up)  # given up only if run
    return (_PURE_STEP, operands, results or (0,), pure)


def _speculative(name: str, step: tuple) -> bool:
    """Whether running the op `name` where it may not run changes nothing but its results."""
    if name == IF:
        return all(branch.pure and branch.raises is None for branch in step[3])
    return name != LOOP and name not in _NOT_SPECULATIVE


# -- arguments and results -----------------------------------------------------------------


def _argument(value: ir.Value, parameter: str, kind: CalculationKind):
    """What the calculation passes for `value` as a `parameter` (reify's `_Builder.adapt`)."""
    value_text = str(value.type)
    if parameter.startswith("!torch.optional<") and value_text != parameter:
        if value_text == "!torch.none":
            return None
        if value_text.startswith("!torch.optional<"):
            raise GiveUp
        return _argument(value, _inner_type(parameter), kind)
    if types.is_tensor_type_text(value_text):
        return _tensor_argument(value, parameter, kind)
    if value_text.startswith("!torch.list<") and parameter.startswith("!torch.list<"):
        elements = _literal_elements(value)
        inner = _inner_type(parameter)
        return [_argument(e, inner, kind) for e in elements]
    try:
        constant = constant_value(value)
    except NotConstant:
        if value_text == parameter == "!torch.Device":
            return _DEVICE  # opaque: an op that reads it gives up
        return _symbolic_int(value, value_text, parameter)
    if value_text == parameter:
        return constant
    if value_text == "!torch.bool" and parameter in ("!torch.float", "!torch.number"):
        constant = int(constant)  # a bool Scalar arrives as the int 0/1
        value_text = "!torch.int"
    if parameter == "!torch.float" and value_text in ("!torch.int", "!torch.number"):
        return float(constant)
    if parameter == "!torch.number" and value_text in ("!torch.int", "!torch.float"):
        return constant
    raise GiveUp


def _symbolic_int(value: ir.Value, value_text: str, parameter: str):
    """An int that is not a constant, as a polynomial over argument dims (a size read
    off a dynamic tensor, and arithmetic on it), as the memo key knows it."""
    if value_text != "!torch.int" or parameter not in ("!torch.int", "!torch.number", "!torch.float"):
        raise GiveUp
    polynomial = express(value)
    if polynomial is None:
        raise GiveUp
    if parameter == "!torch.float":
        return _to_float(_settle(polynomial))  # reify's aten.Float.Scalar
    return _settle(polynomial)


def _tensor_argument(value: ir.Value, parameter: str, kind: CalculationKind):
    info = types.parse(most_precise_alias(value).type)
    if info is None or (info.sizes is None and kind is SHAPE):
        raise GiveUp
    if kind is SHAPE and parameter == "!torch.list<int>":
        return _sizes(most_precise_alias(value), info.sizes)
    if kind is not SHAPE and parameter == "!torch.tuple<int, int>":
        code = types.ELEMENT_TO_DTYPE.get(info.dtype) if info.dtype is not None else None
        if code is None:
            raise GiveUp
        return (_UNKNOWN_RANK if info.rank is None else info.rank, code)
    raise GiveUp


def _sizes(tensor: ir.Value, sizes: tuple) -> list:
    """A tensor's sizes: ints, polynomials for the dynamic dims whose symbolic dims are
    known (dim_facts), an unknown size for the others (reading it gives up)."""
    if None not in sizes:
        return list(sizes)
    dims = tensor_dims(tensor)
    if dims is None or len(dims) != len(sizes):
        dims = [""] * len(sizes)
    return [_size(size, text) for size, text in zip(sizes, dims, strict=True)]


def _size(static, polynomial_text: str):
    if static is not None:
        return static
    return _settle(parse_polynomial(polynomial_text)) if polynomial_text else _UNKNOWN_SIZE


def _literal_elements(value: ir.Value) -> list:
    """The elements of an unmutated `prim.ListConstruct` (reify copies only those)."""
    elements = _constructed_elements(value)
    if elements is None:
        raise GiveUp
    return elements


def _split(result, outer: list, kind: CalculationKind, from_list: bool) -> list:
    """Per wrapped result, what the function returned for it (reify's `split_list` and
    `split_results`), None for a result it does not describe."""
    if from_list:
        if kind is not SHAPE and isinstance(result, int):
            return [_dtype_code(result)] * len(outer)  # one dtype for every piece
        if not isinstance(result, list) or len(result) < len(outer):
            raise GiveUp
        return [_described(r, kind) for r in result[: len(outer)]]
    described = [i for i, r in enumerate(outer) if kind.describes(str(r.type))]
    values = [result] if len(described) == 1 else list(_tuple(result, len(described)))
    by_index = dict(zip(described, values, strict=True))
    return [_described(by_index[i], kind) if i in by_index else None for i in range(len(outer))]


def _tuple(result, length: int) -> tuple:
    if not isinstance(result, tuple) or len(result) != length:
        raise GiveUp
    return result


def _described(value, kind: CalculationKind):
    """The sizes (ints, polynomials, None for an unknown size) or the dtype code."""
    if kind is not SHAPE:
        return _dtype_code(value)
    if not isinstance(value, list):
        raise GiveUp
    if not all(_is_size(d) and (not isinstance(d, int) or d >= 0) for d in value):
        raise GiveUp  # a negative dim is not a size: the greedy way leaves it unknown
    return [None if d is _UNKNOWN_SIZE else _settle(d) if isinstance(d, Polynomial) else d for d in value]


def _dtype_code(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise GiveUp
    return value


