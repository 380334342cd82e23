"""The Torch dialect's int comparisons as data, in one place: what each tests, the one that
holds where it does not (`NEGATED`), and the one of the operands swapped (`MIRRORED`).

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
# The same for the tests themselves: `a < b` is `b > a`.
MIRRORED_TESTS = {INT_COMPARISONS[name]: INT_COMPARISONS[mirror] for name, mirror in MIRRORED.items()}
