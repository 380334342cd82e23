"""The values an evaluation computes with (engine/evaluator.py): ints and polynomials over sizes,
read through the evaluation's replacements (its `store.Scope`, passed to each reader); bools
known only at run time (`_Condition`); floats over sizes; what reading such a value as a
Python value gives up on (`GiveUp`); and an evaluation's answer with the guards it needs
(`Evaluation`)."""

from __future__ import annotations

import math

from torch_refine.calculations import facts
from torch_refine.calculations.ranges import (
    decide,
    quotient_by_ranges,
)
from torch_refine.calculations.store import Scope
from torch_refine.engine import guards
from torch_refine.symbolic.comparisons import INT_COMPARISONS
from torch_refine.symbolic.polynomial import Polynomial, is_computed
from torch_refine.symbolic.semantics import MEANINGS

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
    if isinstance(value, bool) or not isinstance(value, int) or not _INT64[0] <= value <= _INT64[1]:
        raise GiveUp  # TorchScript ints wrap at 64 bits; Python's do not
    return value


def _settle(polynomial: Polynomial, scope: Scope):
    """A polynomial that is a constant as that int; any other stays symbolic (in the
    symbols the replacements of the evaluation's `scope` leave, and the defined symbols
    they do not decide)."""
    polynomial = scope.store.resolved(polynomial, scope.replacements)
    constant = polynomial.constant_value()
    return polynomial if constant is None else _int(constant)


def _symbolic(value, scope: Scope) -> Polynomial:
    if isinstance(value, Polynomial):
        return value.substitute(scope.replacements)
    return Polynomial.constant(_int(value))


def _int_op(meaning):
    """An int op by its meaning (symbolic/semantics.py): Python's on ints, within int64;
    over polynomials on sizes, settled in the evaluation's `scope`."""

    def run(scope: Scope, *values):
        if any(isinstance(v, Polynomial) for v in values):
            return _settle(meaning.symbolic(_GuardedSizes(scope), *(_symbolic(v, scope) for v in values)), scope)
        return _int(meaning.compute(*values))

    return run


def _floor_divide(scope: Scope, a, b):
    """Python's `//` (aten.floordiv.int): on ints, else `facts.quotient`'s meaning, a
    symbolic divisor guarded nonzero where the op runs."""
    if not isinstance(a, Polynomial) and not isinstance(b, Polynomial):
        if b == 0:
            raise GiveUp
        return a // b
    if isinstance(b, Polynomial) and (whole := quotient_by_ranges(_symbolic(a, scope), _symbolic(b, scope),
                                                                  scope.entry, scope.store)) is not None:
        return whole  # the divisor is positive there
    return _settle(_by_symbols(scope, "torch.aten.floordiv.int", a, b), scope)


def _remainder(scope: Scope, a, b):
    """Python's `%` (aten.remainder.int): on ints, else `facts.modulo`'s meaning."""
    if not isinstance(a, Polynomial) and not isinstance(b, Polynomial):
        if b == 0:
            raise GiveUp
        return a % b
    return _settle(_by_symbols(scope, "torch.aten.remainder.int", a, b), scope)


def _by_symbols(scope: Scope, name: str, a, b) -> Polynomial:
    if isinstance(b, Polynomial):
        scope.divisors.append(b)  # each must not be 0 where the op runs
    elif b == 0:
        raise GiveUp
    divisor = b if isinstance(b, Polynomial) else Polynomial.constant(b)
    result = MEANINGS[name].symbolic(_GuardedSizes(scope), _symbolic(a, scope), divisor)
    if result is None:
        raise GiveUp
    return result


class _GuardedSizes:
    """The algebra the evaluation's meanings take: floor division and modulo as the fact
    store means them (in the forms of the run of `scope`), a symbolic divisor guarded
    nonzero where the op runs (`Scope.divisors`); comparisons are `Evaluator._compare`'s."""

    __slots__ = ("forms",)

    def __init__(self, scope: Scope) -> None:
        self.forms = scope.store.quotient_forms

    def quotient(self, dividend: Polynomial, divisor: Polynomial) -> Polynomial | None:
        return facts.quotient(dividend, divisor, self.forms, guarded=True)

    def modulo(self, dividend: Polynomial, divisor: Polynomial) -> Polynomial | None:
        return facts.modulo(dividend, divisor, self.forms, guarded=True)

    @staticmethod
    def truth(comparison: str, a: Polynomial, b: Polynomial):
        raise GiveUp


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

    def assert_guards(self, op, store) -> bool:
        """Assert the guards for `op` (engine/guards.py), those at the entry recorded in the
        run's `store`; False, with nothing built, when one reads a size nothing in reach
        carries."""
        return guards.assert_guards(op, self.guards, store)


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


def _choose(condition: _Condition, then, otherwise, scope: Scope):
    """`then if condition else otherwise` for an undecided condition (sizes read in the
    evaluation's `scope`)."""
    if then is otherwise:
        return then
    if isinstance(then, (bool, _Condition)) and isinstance(otherwise, (bool, _Condition)):
        return _connect("or", _connect("and", condition, then), _connect("and", _not(condition), otherwise))
    if isinstance(then, list) and isinstance(otherwise, list) and len(then) == len(otherwise):
        return [_choose(condition, a, b, scope) for a, b in zip(then, otherwise, strict=True)]
    if not (_is_size(then) and _is_size(otherwise)):
        raise GiveUp
    known = then is not _UNKNOWN_SIZE and otherwise is not _UNKNOWN_SIZE
    if known and _symbolic(then, scope) == _symbolic(otherwise, scope):
        return _settle(_symbolic(then, scope), scope)
    if then is _UNKNOWN_SIZE or otherwise is _UNKNOWN_SIZE:
        return _UNKNOWN_SIZE
    return _settle(facts.select(condition.key(), _symbolic(then, scope), _symbolic(otherwise, scope)), scope)


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

