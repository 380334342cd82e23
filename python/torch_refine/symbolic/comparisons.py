"""The Torch dialect's int comparisons as data, in one place: what each tests, the one that
holds where it does not (`NEGATED`), and the one of the operands swapped (`MIRRORED`); and
a condition key that remembers its hash (`HashedKey`), for the caches that look keys up.

Int comparisons only: for floats `not a < b` is not `a >= b` when one is NaN.
"""

from __future__ import annotations

import operator

# Each comparison's test of its sides (or of their difference against 0).
INT_COMPARISONS = {
    "torch.aten.eq.int": operator.eq, "torch.aten.ne.int": operator.ne,
    "torch.aten.lt.int": operator.lt, "torch.aten.le.int": operator.le,
    "torch.aten.gt.int": operator.gt, "torch.aten.ge.int": operator.ge,
}
NEGATED = {
    "torch.aten.eq.int": "torch.aten.ne.int", "torch.aten.ne.int": "torch.aten.eq.int",
    "torch.aten.lt.int": "torch.aten.ge.int", "torch.aten.ge.int": "torch.aten.lt.int",
    "torch.aten.le.int": "torch.aten.gt.int", "torch.aten.gt.int": "torch.aten.le.int",
}
MIRRORED = {
    "torch.aten.eq.int": "torch.aten.eq.int", "torch.aten.ne.int": "torch.aten.ne.int",
    "torch.aten.lt.int": "torch.aten.gt.int", "torch.aten.gt.int": "torch.aten.lt.int",
    "torch.aten.le.int": "torch.aten.ge.int", "torch.aten.ge.int": "torch.aten.le.int",
}
# How Python spells each test, by the op's base name.
_SPELLINGS = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


def spelled(name: str) -> str | None:
    """`<` for a comparison named `torch.aten.lt.<overload>` (int, float, float_int), else None."""
    parts = name.split(".")
    return _SPELLINGS.get(parts[2]) if len(parts) == 4 and parts[:2] == ["torch", "aten"] else None


# The same for the tests themselves: `a < b` is `b > a`.
MIRRORED_TESTS = {INT_COMPARISONS[name]: INT_COMPARISONS[mirror] for name, mirror in MIRRORED.items()}
# The int comparison of each test.
INT_COMPARISON_OF_TEST = {test: name for name, test in INT_COMPARISONS.items()}


def negated(key: tuple) -> tuple:
    """`not key` for a condition key (`(op, *operands)`, sub-conditions as keys) with the
    negation moved onto its int comparisons (De Morgan): `not (a != b and a != 1)` is
    `a == b or a == 1`. A float comparison keeps its `("not", ...)`."""
    op, operands = key[0], key[1:]
    if op == "not":
        return operands[0]
    if op in ("and", "or"):
        return ("or" if op == "and" else "and", *(negated(c) for c in operands))
    if op in NEGATED:
        return (NEGATED[op], *operands)
    return ("not", key)


class HashedKey(tuple):
    """A condition key (a comparison's or a connective's tuple), or a case split's tuple of
    assumptions ((key, truth) pairs), that remembers its hash: equal to, and hashing as,
    the plain tuple. A case split looks the same keys up in a dozen caches, and a tuple
    hashes every polynomial it holds again each time."""

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            self._hash = tuple.__hash__(self)
            return self._hash

