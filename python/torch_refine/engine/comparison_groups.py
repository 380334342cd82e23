"""Comparisons of one polynomial with constants, taken together (engine/cases.py's case
split): `32*n == 8*n` and `8*n > 0` both compare n with 0, and no n at least 0 makes both
false. `by_polynomial` groups an assignment's atoms by that polynomial, `satisfiable` says
whether some value of it in its range makes them as assigned."""

from __future__ import annotations

import functools
import math
from fractions import Fraction

from torch_refine.symbolic.comparisons import INT_COMPARISONS
from torch_refine.symbolic.polynomial import Polynomial


@functools.lru_cache(maxsize=1 << 16)
def as_multiple(atom: tuple) -> tuple | None:
    """(P, test, g, k) of an int comparison of polynomials whose sides differ by `g*P + k`
    (P without a constant, its coefficients coprime, the first positive): it holds where
    `test(g*v + k, 0)` for the value v of P. None for any other atom."""
    test = INT_COMPARISONS.get(atom[0])
    if test is None or len(atom) != 3 or not all(isinstance(side, Polynomial) for side in atom[1:]):
        return None
    difference = atom[1] - atom[2]
    constant = difference.terms.get((), 0)
    rest = difference - Polynomial.constant(constant)
    if not rest.terms:
        return None
    factor = math.gcd(*rest.terms.values()) * (1 if min(rest.terms.items())[1] > 0 else -1)
    return rest.exact_divide(Polynomial.constant(factor)), test, factor, constant


def by_polynomial(atoms: tuple) -> dict:
    """The atoms comparing one polynomial P with constants (`32*n == 8*n` and `8*n > 0` both
    compare n with 0), by P, where two or more do: P -> [(atom, test, g, k)]."""
    by_difference: dict = {}
    for atom in atoms:
        found = as_multiple(atom)
        if found is not None:
            by_difference.setdefault(found[0], []).append((atom, *found[1:]))
    return {difference: members for difference, members in by_difference.items() if len(members) > 1}


def candidates(members: list, bounds: tuple) -> list:
    """The values of P worth trying (`satisfiable`) within its range `bounds`: its ends and
    the points beside each comparison's threshold."""
    low, high = bounds
    candidates = {low, high} - {None}
    for _, _, factor, constant in members:
        threshold = Fraction(-constant, factor)
        candidates |= {math.floor(threshold) + step for step in (-1, 0, 1, 2)}
    return [v for v in candidates if (low is None or v >= low) and (high is None or v <= high)]


def satisfiable(group: tuple, assignment: dict) -> bool:
    """Whether a value of P in its range makes each comparison of P as assigned: where one
    does, one among the ends of its range and the points beside each comparison's
    threshold does (the least such value is one of them)."""
    candidates, members = group
    return any(all(test(factor * v + constant, 0) == assignment[atom] for atom, test, factor, constant in members)
               for v in candidates)
