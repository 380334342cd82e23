"""An equality over a quotient by a size, where the asserted conditions say the size divides
its dividend, is an equality of the dividend: a view's check that `64*b` divides `256*a`
makes linear's `(256*a) // (64*b) == 4` the equality `a == b`, which replaces a symbol
(engine/guards.py) and decides the broadcasts of `a` and `b` after it."""

from __future__ import annotations

from torch_refine.calculations import facts
from torch_refine.calculations.ranges import polynomial_range
from torch_refine.calculations.store import FactStore
from torch_refine.engine.cases import decide_by_cases
from torch_refine.engine.evaluator_values import _Condition
from torch_refine.symbolic.polynomial import Polynomial

_EQ = "torch.aten.eq.int"


def of_dividends(condition: _Condition, entry, run: FactStore) -> _Condition:
    """`condition`, an (in)equality or its negation, over a quotient by a size that divides
    its dividend, as the dividend's (`dividend_equality`): the same truth wherever the
    asserted conditions hold, so a check asserted in this form accepts the same sizes. (In
    a disjunction, the quotient's own equalities decide more: `q == 4 or q == 1` makes the
    broadcast `4 if q == 1 else q` 4.)"""
    if condition.op == "not":
        inner = of_dividends(condition.operands[0], entry, run)
        return condition if inner is condition.operands[0] else _Condition("not", inner)
    if condition.op not in (_EQ, "torch.aten.ne.int"):
        return condition
    found = dividend_equality((_EQ, *condition.operands), entry, run)
    return condition if found is None else _Condition(condition.op, *found[1:])


def dividend_equality(key: tuple, entry, run: FactStore) -> tuple | None:
    """`key`, an int equality `A*q + B == 0` with `q` a quotient `n // m` by a size `m` that
    is not 0 and divides `n` wherever the function's asserted conditions hold (`A` a
    constant once the factors every term reads that ranges keep from 0 are divided out,
    `B` without `q`), as the equality `A*n + B*m == 0` it then is (both sides times `m`,
    with `m*q` being `n`), where that solves for a symbol; None where that does not apply
    (an equality of products of broadcast sizes stays the quotient's, which replaces it)."""
    if key[0] != _EQ or not all(isinstance(side, Polynomial) for side in key[1:]):
        return None
    difference = _without_nonzero_factors(key[1] - key[2], entry, run)
    found = _linear_quotient(difference)
    if found is None:
        return None
    quotient, coefficient, rest = found
    _, dividend, divisor = facts.definition(quotient)
    least, greatest = polynomial_range(divisor, entry, run)
    if not ((least is not None and least > 0) or (greatest is not None and greatest < 0)):
        return None
    lhs, rhs = Polynomial.constant(coefficient) * dividend, -(rest * divisor)
    if facts.solve(lhs - rhs, {}) is None:
        return None  # replaces no symbol: the quotient's own equality may replace the quotient
    divides = (_EQ, dividend - divisor * Polynomial({(quotient,): 1}), Polynomial())  # as a view checks it
    return (_EQ, lhs, rhs) if decide_by_cases(divides, entry, run) is True else None


def _linear_quotient(difference: Polynomial) -> tuple | None:
    """(q, A, B) where `difference` is `A*q + B`, `q` the only quotient by a non-constant it
    reads, `A` a constant and `B` without `q`; else None."""
    quotients = {s for s in difference.symbols() if _by_size(s)}
    if len(quotients) != 1:
        return None
    (quotient,) = quotients
    coefficient = difference.terms.get((quotient,), 0)
    rest = Polynomial({m: c for m, c in difference.terms.items() if quotient not in m})
    if coefficient == 0 or len(rest.terms) + 1 != len(difference.terms):
        return None  # q in a product: `q*b`, or `q**2`
    return quotient, coefficient, rest


def _by_size(symbol) -> bool:
    definition = facts.definition(symbol)
    return definition is not None and definition[0] == facts.FLOOR_DIVIDE and isinstance(
        definition[2], Polynomial) and definition[2].constant_value() is None


def _without_nonzero_factors(difference: Polynomial, entry, run: FactStore) -> Polynomial:
    """`difference` without the factors every term reads whose range excludes 0 (an
    `_unsafe_view`'s `q*b == 2*b` with `b >= 1` is `q == 2`)."""
    found = difference.without_common_factors(
        lambda s: (polynomial_range(Polynomial({(s,): 1}), entry, run)[0] or 0) >= 1)
    return difference if found is None else found
