"""Sizes and conditions at Python ints: what the engine's algebra and case splits must agree
with. `at` maps each argument symbol to an int; a defined symbol (a quotient or a select)
is computed from its definition, as Python computes it."""

from __future__ import annotations

from torch_refine.calculations import facts
from torch_refine.symbolic.comparisons import INT_COMPARISONS
from torch_refine.symbolic.polynomial import Polynomial


def value(polynomial: Polynomial, at: dict) -> int:
    total = 0
    for monomial, coefficient in polynomial.terms.items():
        for symbol in monomial:
            coefficient *= at[symbol] if symbol in at else _defined_value(symbol, at)
        total += coefficient
    return total


def holds_at(key: tuple, at: dict) -> bool:
    """A condition key (`(op, lhs, rhs)`, `not`, `and`, `or`) at `at`."""
    if key[0] == "not":
        return not holds_at(key[1], at)
    if key[0] in ("and", "or"):
        parts = [holds_at(part, at) for part in key[1:]]
        return all(parts) if key[0] == "and" else any(parts)
    return INT_COMPARISONS[key[0]](value(key[1], at), value(key[2], at))


def _defined_value(symbol, at: dict) -> int:
    kind, *operands = facts.definition(symbol)
    if kind == facts.SELECT:
        condition, then, otherwise = operands
        return value(then if holds_at(condition, at) else otherwise, at)
    dividend, divisor = operands
    return value(dividend, at) // (divisor if isinstance(divisor, int) else value(divisor, at))
