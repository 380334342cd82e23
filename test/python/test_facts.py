"""Units of calculations/facts.py that the pipeline tests reach only through whole
programs: selects decided by their condition, equalities solved past a common factor,
defined symbols decided by replacements."""

from __future__ import annotations

from torch_refine.calculations import facts
from torch_refine.ir.polynomial import Polynomial

A = Polynomial.symbol(0, 0)
B = Polynomial.symbol(0, 1)
ZERO, ONE = Polynomial.constant(0), Polynomial.constant(1)
EQ, NE = "torch.aten.eq.int", "torch.aten.ne.int"


def _defines_select(value: Polynomial) -> bool:
    (symbol,) = value.symbols()
    return facts.definition(symbol)[0] == facts.SELECT


def test_select_is_the_side_its_condition_makes_equal():
    """ONNX Reshape's `d if s == 0 else s` is `s` where `d` is a multiple of `s`; a
    broadcast's `1 if a == 1 else a` is `a`; `!=` chooses the other side."""
    assert facts.select((EQ, A, ZERO), A * B, A) == A
    assert facts.select((EQ, A, ONE), ONE, A) == A
    assert facts.select((NE, A, ZERO), A, A * B) == A
    assert facts.select((EQ, A, B), B, A) == A
    assert facts.select((EQ, A, ZERO), B, A) == facts.select((EQ, A, ZERO), B, A)  # one symbol per key
    assert _defines_select(facts.select((EQ, A, ZERO), B, A))  # b is not 0 where a is
    assert _defines_select(facts.select((EQ, A * B, ZERO), A, A * B))


def test_equality_with_a_common_factor_replaces_a_symbol():
    """`20*s == 20*a*b` (a reshape's element count) replaces `s` by `a*b`."""
    computed = facts.fresh()
    (symbol,) = computed.symbols()
    assert facts.solve(Polynomial.constant(20) * (computed - A * B), {}) == (symbol, A * B)


def test_replacements_decide_a_select_through_its_sides():
    """`rows if b == 0 else b` where rows is `select(a*b == 0, a, a*b)`: once the first
    select is known to be `a*b` (a reshape's check), the second is `b`."""
    rows = facts.select((EQ, A * B, ZERO), A, A * B)
    copied = facts.select((EQ, B, ZERO), rows, B)
    assert _defines_select(copied)
    (rows_symbol,) = rows.symbols()
    assert facts.resolved(copied, {rows_symbol: A * B}) == B
    assert facts.resolved(copied, {}) == copied


def test_condition_of_a_comparison_read_as_an_int():
    assert facts.condition_of(facts.truth_of((EQ, A, ZERO))) == (EQ, A, ZERO)
    assert facts.condition_of(A) == (NE, A, ZERO)
    assert facts.truth_of((EQ, A + ONE, A)) == ZERO  # never holds: the select is its other side
