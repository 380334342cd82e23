"""The fact store of one run (calculations/store.py): which facts decide a condition."""

from __future__ import annotations

from torch_refine.calculations.store import Fact, FactStore
from torch_refine.ir.polynomial import Polynomial

A, B = Polynomial.symbol(0, 0), Polynomial.symbol(0, 1)
(A_SYMBOL,), (B_SYMBOL,) = A.symbols(), B.symbols()
EQ, NE, GE, LT = "torch.aten.eq.int", "torch.aten.ne.int", "torch.aten.ge.int", "torch.aten.lt.int"
FUNCTION = 1


def _constant(value: int) -> Polynomial:
    return Polynomial.constant(value)


def test_an_asserted_condition_is_decided_by_itself_with_its_source():
    store = FactStore()
    store.assume(FUNCTION, (EQ, A, B), True, "entry guard of aten.add.Tensor")
    decision = store.decided(FUNCTION, (EQ, A, B))
    assert decision.holds is True
    assert decision.by_assertion
    assert decision.facts == (Fact("asserted", (EQ, A, B), True, "entry guard of aten.add.Tensor"),)
    assert store.decided(FUNCTION + 1, (EQ, A, B)) is None  # another function's facts


def test_a_comparison_the_replacements_make_constant_is_decided_by_them():
    """`a == b` asserted replaces one symbol by the other: `a + 1 > b` then holds, and
    the decision names the replacement, not an assertion."""
    store = FactStore()
    store.add_equality(FUNCTION, A, B)
    decision = store.decided(FUNCTION, ("torch.aten.gt.int", A + _constant(1), B))
    assert decision.holds is True
    assert not decision.by_assertion
    ((fact),) = decision.facts
    assert fact.kind == "replacement"
    assert fact.key in (A_SYMBOL, B_SYMBOL)
    assert store.decided(FUNCTION, (EQ, A, A * B)) is None  # `a == a*b` stays open


def test_a_comparison_of_one_symbol_is_decided_by_its_asserted_range():
    store = FactStore()
    assert store.add_range(FUNCTION, (GE, A, _constant(4)), True)
    decision = store.decided(FUNCTION, (LT, _constant(2) * A, _constant(7)))
    assert decision.holds is False
    assert decision.facts == (Fact("range", A_SYMBOL, (4, None), "asserted comparison"),)
    assert store.decided(FUNCTION, (NE, A, _constant(9))) is None  # 9 is in a's range
    assert store.decided(FUNCTION, (NE, A, _constant(3))).holds is True
    assert store.decided(FUNCTION, (GE, B, _constant(1))) is None  # nothing asserted of b


def test_two_stores_do_not_share_facts():
    first, second = FactStore(), FactStore()
    first.assume(FUNCTION, (EQ, A, B), True, "first")
    first.add_equality(FUNCTION, A, B)
    assert second.decided(FUNCTION, (EQ, A, B)) is None
    assert second.replacements(FUNCTION) == {}
    assert second.fact_count() == 0
