"""Symbolic integers: polynomials with integer coefficients over the dims of a function's
arguments.

A symbol `(n, d)` stands for dim `d` of the function's argument `n`, spelled `%argN[d]`
(how the printer names a function's block arguments). A monomial is a sorted tuple of
symbols (repeats are powers); the constant monomial is `()`. Pure Python.
"""

from __future__ import annotations

import functools
import re

Symbol = tuple[int, int]
Monomial = tuple[Symbol, ...]


class Polynomial:
    __slots__ = ("terms",)

    def __init__(self, terms: dict[Monomial, int] | None = None) -> None:
        self.terms = {m: c for m, c in (terms or {}).items() if c != 0}

    @classmethod
    def constant(cls, value: int) -> Polynomial:
        return cls({(): value})

    @classmethod
    def symbol(cls, argument: int, dim: int) -> Polynomial:
        return cls({((argument, dim),): 1})

    def constant_value(self) -> int | None:
        """The value when the polynomial has no symbol."""
        if not self.terms:
            return 0
        if len(self.terms) == 1 and () in self.terms:
            return self.terms[()]
        return None

    def __add__(self, other: Polynomial) -> Polynomial:
        terms = dict(self.terms)
        for monomial, coefficient in other.terms.items():
            terms[monomial] = terms.get(monomial, 0) + coefficient
        return Polynomial(terms)

    def __neg__(self) -> Polynomial:
        return Polynomial({m: -c for m, c in self.terms.items()})

    def __sub__(self, other: Polynomial) -> Polynomial:
        return self + -other

    def __mul__(self, other: Polynomial) -> Polynomial:
        terms: dict[Monomial, int] = {}
        for m1, c1 in self.terms.items():
            for m2, c2 in other.terms.items():
                monomial = tuple(sorted(m1 + m2))
                terms[monomial] = terms.get(monomial, 0) + c1 * c2
        return Polynomial(terms)

    def exact_divide(self, divisor: Polynomial) -> Polynomial | None:
        """`self / divisor` when the divisor is one term (a monomial times a constant)
        dividing every term exactly; None otherwise. Where the divisor is zero at run
        time the division raises, so the quotient holds wherever execution continues."""
        if len(divisor.terms) != 1:
            return None
        ((div_monomial, div_coefficient),) = divisor.terms.items()
        quotient: dict[Monomial, int] = {}
        for monomial, coefficient in self.terms.items():
            remaining = _remove_factors(monomial, div_monomial)
            if remaining is None or coefficient % div_coefficient != 0:
                return None
            quotient[remaining] = coefficient // div_coefficient
        return Polynomial(quotient)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Polynomial) and self.terms == other.terms

    def __hash__(self) -> int:
        return hash(frozenset(self.terms.items()))

    def __repr__(self) -> str:
        return f"Polynomial({format_polynomial(self)!r})"

    def __str__(self) -> str:
        return format_polynomial(self)


def _remove_factors(monomial: Monomial, factors: Monomial) -> Monomial | None:
    remaining = list(monomial)
    for symbol in factors:
        if symbol not in remaining:
            return None
        remaining.remove(symbol)
    return tuple(remaining)


def symbol_name(symbol: Symbol) -> str:
    return f"%arg{symbol[0]}[{symbol[1]}]"


def format_polynomial(polynomial: Polynomial) -> str:
    """`%arg0[0]*%arg1[1] + 8*%arg0[0] - 3`: higher-degree terms first, constant last."""
    if not polynomial.terms:
        return "0"
    ordered = sorted(polynomial.terms.items(), key=lambda item: (-len(item[0]), item[0]))
    text = ""
    for monomial, coefficient in ordered:
        factors = [symbol_name(s) for s in monomial]
        magnitude = abs(coefficient)
        if magnitude != 1 or not factors:
            factors.insert(0, str(magnitude))
        term = "*".join(factors)
        if not text:
            text = term if coefficient > 0 else f"-{term}"
        else:
            text += f" + {term}" if coefficient > 0 else f" - {term}"
    return text


_FACTOR = re.compile(r"%arg(\d+)\[(\d+)\]|(\d+)")


@functools.lru_cache(maxsize=4096)
def parse_polynomial(text: str) -> Polynomial | None:
    """The inverse of `format_polynomial`; None when `text` is not in that form.
    (Cached: a polynomial is never changed in place.)"""
    normalized = text.strip()
    if not normalized:
        return None
    sign = 1
    if normalized.startswith("-"):
        sign, normalized = -1, normalized[1:]
    result = Polynomial()
    for index, chunk in enumerate(re.split(r" ([+-]) ", normalized)):
        if index % 2:
            sign = 1 if chunk == "+" else -1
            continue
        term = _parse_term(chunk)
        if term is None:
            return None
        result = result + Polynomial.constant(sign) * term
    return result


def _parse_term(text: str) -> Polynomial | None:
    term = Polynomial.constant(1)
    for factor in text.split("*"):
        match = _FACTOR.fullmatch(factor)
        if match is None:
            return None
        if match.group(3) is not None:
            term = term * Polynomial.constant(int(match.group(3)))
        else:
            term = term * Polynomial.symbol(int(match.group(1)), int(match.group(2)))
    return term
