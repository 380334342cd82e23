"""The value of a polynomial with quotients by constants, as a function: what makes two forms
of one value one polynomial (`calculations/facts.py`, `floor_divide`).

A polynomial whose quotient symbols divide by positive constants, each read as a term of its
own (not in a product), is a quasi-affine function of its other monomials (its atoms):
moving an atom by a period (the product of the divisors it is read under) moves the value
by a constant. The values over one box of periods and those steps give the value at every
integer point; with each period reduced to the least one, they are a key of the function
itself: two polynomials with one key are equal wherever their atoms are (taken as
independent values, which is sufficient). `(x % 5) // 2 // 2` and `(x % 5) // 4` are two
normal forms with one key (period 5, values 0 0 0 0 1, step 0). Pure Python.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

from torch_refine.symbolic.polynomial import Monomial, Polynomial, Symbol

# A symbol's (dividend, positive divisor) when it is a quotient by a constant, else None.
QuotientOf = Callable[[Symbol], "tuple[Polynomial, int] | None"]

MAX_POINTS = 4096  # a larger box is not tabulated: no key
MAX_ATOMS = 3


def value_key(polynomial: Polynomial, quotient_of: QuotientOf) -> tuple[tuple, int] | None:
    """(key, value at 0) of `polynomial` as a function of its atoms, the key the same for
    every polynomial equal to it up to a constant; None when it is not quasi-affine or its
    box is too large to tabulate."""
    periods = _periods(polynomial, quotient_of, {})
    if not periods or len(periods) > MAX_ATOMS or math.prod(p for p, _ in periods.values()) > MAX_POINTS:
        return None
    atoms = sorted(periods)
    sizes = [periods[atom][0] for atom in atoms]
    steps = [periods[atom][1] for atom in atoms]
    memo: dict = {}
    table = {point: _value(polynomial, dict(zip(atoms, point)), quotient_of, memo)
             for point in itertools.product(*(range(size) for size in sizes))}
    for axis in range(len(atoms)):
        table, sizes, steps = _least_period(table, sizes, steps, axis)
    origin = table[(0,) * len(atoms)]
    values = tuple(table[point] - origin for point in itertools.product(*(range(size) for size in sizes)))
    return (tuple(atoms), tuple(sizes), tuple(steps), values), origin


def _least_period(table: dict, sizes: list, steps: list, axis: int) -> tuple[dict, list, list]:
    """The table cut to the least period along `axis` that moves every value by one step."""
    size = sizes[axis]
    for period in (p for p in range(1, size) if size % p == 0):
        step = steps[axis] * period // size if steps[axis] * period % size == 0 else None
        if step is not None and all(_at(table, sizes, steps, point, axis, period) - value == step
                                    for point, value in table.items()):
            kept = {point: value for point, value in table.items() if point[axis] < period}
            return kept, [*sizes[:axis], period, *sizes[axis + 1:]], [*steps[:axis], step, *steps[axis + 1:]]
    return table, sizes, steps


def _at(table: dict, sizes: list, steps: list, point: tuple, axis: int, by: int) -> int:
    """The value at `point` moved by `by` along `axis`, from the table of one period."""
    coordinate = point[axis] + by
    wraps, inside = divmod(coordinate, sizes[axis])
    return table[(*point[:axis], inside, *point[axis + 1:])] + wraps * steps[axis]


def _periods(polynomial: Polynomial, quotient_of: QuotientOf, memo: dict) -> dict[Monomial, tuple] | None:
    """Atom -> (a period along it, what moving it by the period adds to the value); None
    where a quotient is read in a product (not quasi-affine)."""
    periods: dict[Monomial, tuple[int, int]] = {}
    for monomial, coefficient in polynomial.terms.items():
        if len(monomial) == 1 and quotient_of(monomial[0]) is not None:
            inner = _quotient_periods(monomial[0], quotient_of, memo)
        elif any(quotient_of(symbol) is not None for symbol in monomial):
            return None
        else:
            inner = {monomial: (1, 1)} if monomial else {}
        if inner is None:
            return None
        for atom, (period, step) in inner.items():
            known_period, known_step = periods.get(atom, (1, 0))
            common = math.lcm(known_period, period)
            periods[atom] = common, known_step * (common // known_period) + coefficient * step * (common // period)
    return periods


def _quotient_periods(symbol: Symbol, quotient_of: QuotientOf, memo: dict) -> dict[Monomial, tuple] | None:
    """A quotient's periods: where its dividend has moved by a multiple of its divisor."""
    if symbol not in memo:
        dividend, divisor = quotient_of(symbol)
        inner = _periods(dividend, quotient_of, memo)
        memo[symbol] = None if inner is None else {
            atom: (period * divisor // math.gcd(step, divisor), step // math.gcd(step, divisor))
            for atom, (period, step) in inner.items()}
    return memo[symbol]


def _value(polynomial: Polynomial, point: dict[Monomial, int], quotient_of: QuotientOf, memo: dict) -> int:
    total = 0
    for monomial, coefficient in polynomial.terms.items():
        if not monomial:
            total += coefficient
        elif monomial in point:
            total += coefficient * point[monomial]
        else:
            total += coefficient * _quotient_value(monomial[0], point, quotient_of, memo)
    return total


def _quotient_value(symbol: Symbol, point: dict, quotient_of: QuotientOf, memo: dict) -> int:
    key = (symbol, tuple(sorted(point.items())))
    if key not in memo:
        dividend, divisor = quotient_of(symbol)
        memo[key] = _value(dividend, point, quotient_of, memo) // divisor
    return memo[key]


def one_quotient_form(key: tuple, origin: int, quotient: Callable[[Polynomial, int], Polynomial]) -> Polynomial | None:
    """The function of one atom `x` that `key` names as `c*x + (a*x + b) // P + e` (the
    quotient normal, by `quotient`) where one quotient by its period `P` is it: `x // 2 - x //
    4` is `(x + 2) // 4`. None otherwise (a remainder's quotient, `(x % 5) // 4`, is no one
    quotient of `x`)."""
    atoms, periods, steps, values = key
    if len(atoms) != 1:
        return None
    (period,), (step,) = periods, steps
    single = _one_quotient(period, step, values)
    if single is None:
        return None
    slope, a, b = single
    x = Polynomial({atoms[0]: 1})
    return (Polynomial.constant(slope) * x + quotient(Polynomial.constant(a) * x + Polynomial.constant(b), period)
            + Polynomial.constant(origin))


def _one_quotient(period: int, step: int, values: tuple) -> tuple[int, int, int] | None:
    """(c, a, b) with `values[r] == c*r + (a*r + b) // P` for r in [0, P), 0 <= a, b < P:
    the slope fixes `a` and `c`, and `b` is tried."""
    slope, a = divmod(step, period)
    for b in range(period):
        if all(values[r] == slope * r + (a * r + b) // period for r in range(period)):
            return slope, a, b
    return None
