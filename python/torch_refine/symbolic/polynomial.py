"""Symbolic integers: polynomials with integer coefficients over the dims of a function's
arguments.

A symbol `(n, d, k)` stands for dim `d` of the function's argument `n` divided by `k`:
`%argN[d]` when `k` is 1 (how the printer names a function's block arguments),
`(%argN[d]/k)` otherwise, for a dim torch.export made a multiple of `k` (an image size
`8*s0` gives the symbol `s0` itself, so a stride-4 convolution's `(8*s0 - 1) // 4 + 1` is
`2*s0`). A symbol `(-i, 0, 1)`, printed `%sI`, is a size the program computes that is no
polynomial in argument dims (calculations/facts.py says what it stands for). A monomial
is a sorted tuple of symbols (repeats are powers); the constant monomial is `()`. Pure
Python.
"""

from __future__ import annotations

import functools
import re

Symbol = tuple[int, int, int]  # (argument, dim, divisor)
Monomial = tuple[Symbol, ...]


class Polynomial:
    """Immutable once built: nothing writes `terms` after `__init__`, so the hash is kept."""

    __slots__ = ("_hash", "terms")

    def __init__(self, terms: dict[Monomial, int] | None = None) -> None:
        self.terms = {m: c for m, c in (terms or {}).items() if c != 0}
        self._hash: int | None = None

    @classmethod
    def constant(cls, value: int) -> Polynomial:
        return cls({(): value})

    @classmethod
    def symbol(cls, argument: int, dim: int, divisor: int = 1) -> Polynomial:
        return cls({((argument, dim, divisor),): 1})

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

    def linear_in_one_symbol(self) -> tuple[Symbol, int, int] | None:
        """(symbol, coefficient, constant) of `coefficient*symbol + constant`, else None."""
        linear = [(monomial, coefficient) for monomial, coefficient in self.terms.items() if monomial]
        if len(linear) != 1 or len(linear[0][0]) != 1:
            return None
        ((symbol,), coefficient) = linear[0]
        return symbol, coefficient, self.terms.get((), 0)

    def symbols(self) -> set[Symbol]:
        return {s for monomial in self.terms for s in monomial}

    def substitute(self, replacements: dict[Symbol, Polynomial]) -> Polynomial:
        """Each symbol `replacements` names replaced by its polynomial."""
        if not replacements or not any(s in replacements for m in self.terms for s in m):
            return self
        total = Polynomial()
        for monomial, coefficient in self.terms.items():
            term = Polynomial.constant(coefficient)
            for symbol in monomial:
                term = term * replacements.get(symbol, Polynomial({(symbol,): 1}))
            total = total + term
        return total

    def without_common_factors(self, removable) -> Polynomial | None:
        """`self` divided by the symbols every term reads for which `removable(symbol)`
        (sizes whose range excludes 0: `2*h*p - p*p` with `p >= 1` is `2*h - p`); None
        where there is none."""
        if not self.terms:
            return None
        common = set.intersection(*(set(monomial) for monomial in self.terms))
        factors = tuple(sorted(s for s in common if removable(s)))
        return self.exact_divide(Polynomial({factors: 1})) if factors else None

    def exact_divide(self, divisor: Polynomial) -> Polynomial | None:
        """`self / divisor` when the divisor divides `self` exactly (a polynomial with
        integer coefficients); None otherwise. Where the divisor is zero at run time the
        division raises, so the quotient holds wherever execution continues."""
        if not divisor.terms:
            return None
        if len(divisor.terms) == 1:
            return self._divide_by_term(*next(iter(divisor.terms.items())))
        # Long division by leading terms: if self = q * divisor, each leading term of
        # what remains is a leading term of q times the divisor's.
        order = _monomial_order(self, divisor)
        lead_monomial = max(divisor.terms, key=order)
        lead_coefficient = divisor.terms[lead_monomial]
        quotient, remainder = Polynomial(), self
        for _ in range(_MAX_DIVISION_STEPS):
            if not remainder.terms:
                return quotient
            monomial = max(remainder.terms, key=order)
            step = Polynomial({monomial: remainder.terms[monomial]})._divide_by_term(lead_monomial, lead_coefficient)
            if step is None:
                return None
            quotient, remainder = quotient + step, remainder - step * divisor
        return None

    def _divide_by_term(self, monomial: Monomial, coefficient: int) -> Polynomial | None:
        quotient: dict[Monomial, int] = {}
        for own_monomial, own_coefficient in self.terms.items():
            remaining = _remove_factors(own_monomial, monomial)
            if remaining is None or own_coefficient % coefficient != 0:
                return None
            quotient[remaining] = own_coefficient // coefficient
        return Polynomial(quotient)

    def floor_divide(self, divisor: int) -> Polynomial | None:
        """`self // divisor` when every coefficient but the constant's is a multiple of
        the (nonzero) divisor: `(k*q + c) // k` is `q + c // k` for every integer `q`."""
        if divisor == 0:
            return None
        constant = self.terms.get((), 0)
        quotient = (self - Polynomial.constant(constant)).exact_divide(Polynomial.constant(divisor))
        return None if quotient is None else quotient + Polynomial.constant(constant // divisor)

    def floor_remainder(self, divisor: int) -> Polynomial | None:
        """`self % divisor` (Python's sign) under `floor_divide`'s condition: `c % k`."""
        if self.floor_divide(divisor) is None:
            return None
        return Polynomial.constant(self.terms.get((), 0) % divisor)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Polynomial) and self.terms == other.terms

    def __hash__(self) -> int:
        # Case splits hash the same polynomials thousands of times (dict keys, memo keys).
        if self._hash is None:
            self._hash = hash(frozenset(self.terms.items()))
        return self._hash

    def __repr__(self) -> str:
        return f"Polynomial({format_polynomial(self)!r})"

    def __str__(self) -> str:
        return format_polynomial(self)


_MAX_DIVISION_STEPS = 256


def _monomial_order(*polynomials: Polynomial):
    """A key ordering monomials by degree, then lexicographically by exponents (a
    monomial order: multiplying by a monomial keeps the order)."""
    symbols = sorted({s for p in polynomials for m in p.terms for s in m}, reverse=True)
    return lambda monomial: (len(monomial), tuple(monomial.count(s) for s in symbols))


def _remove_factors(monomial: Monomial, factors: Monomial) -> Monomial | None:
    remaining = list(monomial)
    for symbol in factors:
        if symbol not in remaining:
            return None
        remaining.remove(symbol)
    return tuple(remaining)


def is_computed(symbol: Symbol) -> bool:
    """Whether `symbol` is a computed size's (`%sI`), not an argument dim's."""
    return symbol[0] < 0


# How `symbol_name` spells a computed size: `%s12`.
COMPUTED_NAME = re.compile(r"%s(\d+)")


def symbol_name(symbol: Symbol) -> str:
    argument, dim, divisor = symbol
    if argument < 0:
        return f"%s{-argument}"
    name = f"%arg{argument}[{dim}]"
    return name if divisor == 1 else f"({name}/{divisor})"


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


_FACTOR = re.compile(r"%arg(\d+)\[(\d+)\]|\(%arg(\d+)\[(\d+)\]/(\d+)\)|(\d+)|%s(\d+)")


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
        if match.group(6) is not None:
            term = term * Polynomial.constant(int(match.group(6)))
        elif match.group(7) is not None:
            term = term * Polynomial.symbol(-int(match.group(7)), 0)
        elif match.group(1) is not None:
            term = term * Polynomial.symbol(int(match.group(1)), int(match.group(2)))
        else:
            term = term * Polynomial.symbol(*(int(match.group(g)) for g in (3, 4, 5)))
    return term


def solved_range(coefficient: int, offset: int, low: int | None, high: int | None) -> tuple:
    """The integers y with `coefficient*y + offset` in [low, high] (None: unbounded), for a
    nonzero coefficient: (least, greatest), None for an unbounded side."""
    if coefficient < 0:
        coefficient, offset = -coefficient, -offset
        low, high = (None if high is None else -high), (None if low is None else -low)
    least = None if low is None else -((offset - low) // coefficient)
    greatest = None if high is None else (high - offset) // coefficient
    return least, greatest
