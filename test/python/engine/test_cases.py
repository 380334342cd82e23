"""engine/cases.py on its own: conditions decided case by case under the function's
asserted conditions, without IR (every symbol a plain size)."""

from __future__ import annotations

from torch_refine.calculations import facts
from torch_refine.calculations.store import FactStore
from torch_refine.engine import cases
from torch_refine.ir.polynomial import Polynomial
from torch_refine.symbolic.comparisons import HashedKey

# The quotient forms of one run (`FactStore.quotient_forms`), shared by this module's tests.
FORMS: dict = {}

A, B = Polynomial.symbol(0, 0), Polynomial.symbol(1, 0)
EQ = "torch.aten.eq.int"


def _constant(value: int) -> Polynomial:
    return Polynomial.constant(value)


def test_a_quotient_of_a_select_is_decided_by_an_assert_on_its_side():
    """A plain Llama's expand after a broadcast: `(128*s) // (64*b)` in {2, 1} for the
    broadcast `s = b if a == 1 else a`, once `(128*a) // (64*b)` in {2, 1} is asserted.
    Where `a == 1` the quotient is `(128*b) // (64*b)`, 2; elsewhere it is the asserted
    one, which the assertion reaches through the quotient's dividend (not a select side)."""
    asserted_quotient = facts.quotient(_constant(128) * A, _constant(64) * B, guarded=True, forms=FORMS)
    asserted = ("or", (EQ, asserted_quotient, _constant(2)), (EQ, asserted_quotient, _constant(1)))
    side = facts.select((EQ, A, _constant(1)), B, A)
    quotient = facts.quotient(_constant(128) * side, _constant(64) * B, guarded=True, forms=FORMS)
    key = ("or", (EQ, quotient, _constant(2)), (EQ, quotient, _constant(1)))
    assumptions = cases._relevant(key, [(asserted, True)])
    assert assumptions == ((asserted, True),)
    assert cases.decide_by_cases(key, None, FactStore(), {(1, 0, 1): (1, None)}, assumptions) is True


def test_a_broadcasts_equality_decides_by_its_cases():
    """`(y // 2) // 2 == x // 4` is open, but holds under each equality of an asserted
    `y // 2 == x // 2 or y // 2 == 1 or x // 2 == 1` that the ranges leave (x // 2 >= 2):
    `y // 4` is `(y // 2) // 2`, so `x // 4` once `y // 2` is `x // 2`."""
    half_x, half_y = facts.floor_divide(A, 2, forms=FORMS), facts.floor_divide(B, 2, forms=FORMS)
    key = (EQ, facts.floor_divide(half_y, 2, forms=FORMS), facts.floor_divide(A, 4, forms=FORMS))
    asserted = ("or", (EQ, half_y, half_x), ("or", (EQ, half_y, _constant(1)), (EQ, half_x, _constant(1))))
    (x_symbol,) = A.symbols()
    within = {x_symbol: (4, None)}
    assert cases.decide_by_cases(key, None, FactStore(), within, ()) is None
    assert cases.decide_by_cases(key, None, FactStore(), within, ((asserted, True),)) is None  # y // 2 == 1 is left
    (y_symbol,) = B.symbols()
    within[y_symbol] = (4, None)
    assert cases.decide_by_cases(key, None, FactStore(), within, ((asserted, True),)) is True


def test_a_select_case_the_ranges_exclude_is_skipped():
    """ONNX Reshape's `d if q == 0 else q` for `q = (y + 3) // 4`: where y >= 1, q is never
    0, so the select is `q` in every case that can happen (a legacy ShuffleNet's reshapes
    and concatenations: 8 asserts)."""
    quarter = facts.floor_divide(B + _constant(3), 4, forms=FORMS)
    chosen = facts.select((EQ, quarter, _constant(0)), A, quarter)
    (y_symbol,) = B.symbols()
    key = (EQ, chosen, quarter)
    assert cases.decide_by_cases(key, None, FactStore(), {}, ()) is None  # y == 0 makes it `x`
    assert cases.decide_by_cases(key, None, FactStore(), {y_symbol: (1, None)}, ()) is True


def test_a_hashed_key_is_the_plain_tuple_in_every_cache():
    """The case split's keys remember their hash (symbolic.comparisons.HashedKey): each
    equals, and hashes as, the plain tuple, so a cache filled with either finds the other."""
    plain = ("or", (EQ, A, _constant(1)), ("not", (EQ, B, A)))
    hashed = HashedKey(plain)
    assert hashed == plain
    assert hash(hashed) == hash(plain) == hash(hashed)
    assert {plain: True}[hashed]
    assert {hashed: True}[plain]
    assert cases._canonical(plain) == cases._canonical(hashed)
