"""Polynomials over function argument dims (torch_refine.symbolic.polynomial)."""

from __future__ import annotations

import pytest

from torch_refine.symbolic.polynomial import Polynomial, format_polynomial, parse_polynomial

S0 = Polynomial.symbol(0, 0)
S1 = Polynomial.symbol(1, 2)
EIGHTH = Polynomial.symbol(0, 2, 8)  # dim 2 of argument 0 over 8: the symbol of `s0 * 8`


def const(value: int) -> Polynomial:
    return Polynomial.constant(value)


def test_arithmetic_cancels_symbols():
    assert (S0 * const(8) - S0 * const(8)).constant_value() == 0
    assert (S0 + S1) * (S0 - S1) == S0 * S0 - S1 * S1
    assert (-S0 + S0).terms == {}
    assert (S0 * const(0)).constant_value() == 0


def test_constant_value_only_without_symbols():
    assert const(4).constant_value() == 4
    assert Polynomial().constant_value() == 0
    assert (S0 + const(1)).constant_value() is None


def test_exact_division_by_a_term():
    numel = S0 * const(256)
    assert numel.exact_divide(S0 * const(64)) == const(4)
    dividend = S0 * S1 * const(6) + S0 * const(3)
    assert dividend.exact_divide(S0 * const(3)) == S1 * const(2) + const(1)
    assert (S0 * const(8) + const(3)).exact_divide(const(8)) is None  # 3 is not a multiple
    assert numel.exact_divide(S1) is None  # S1 does not divide S0
    assert numel.exact_divide(S0 + const(2)) is None  # S0 + 2 does not divide 256*S0
    assert (S0 * S0).exact_divide(S0) == S0
    assert (S0 * const(-6)).exact_divide(S0 * const(3)) == const(-2)


def test_exact_division_by_a_sum_of_terms():
    tokens = EIGHTH * EIGHTH * const(4) + const(1)
    assert (S0 * tokens * const(32)).exact_divide(S0 * tokens * const(8)) == const(4)
    assert (S0 * S0 - const(1)).exact_divide(S0 + const(1)) == S0 - const(1)
    assert (S0 * S0 + const(1)).exact_divide(S0 + const(1)) is None  # remainder 2
    assert (S0 + const(1)).exact_divide(S0 * const(2) + const(2)) is None  # quotient 1/2
    assert (S0 * S1 + S0).exact_divide(S1 + const(1)) == S0


@pytest.mark.parametrize(
    ("dividend", "divisor", "quotient", "remainder"),
    [
        (EIGHTH * const(8) - const(1), 4, EIGHTH * const(2) - const(1), const(3)),
        (EIGHTH * const(8) + const(6), 4, EIGHTH * const(2) + const(1), const(2)),
        (S0 * const(6) + const(-7), -3, S0 * const(-2) + const(2), const(-1)),
        (const(7), 2, const(3), const(1)),
        (S0 * const(6) + const(1), 4, None, None),  # 6 is not a multiple of 4
        (S0, 0, None, None),
    ],
)
def test_floor_division_by_a_constant(dividend, divisor, quotient, remainder):
    assert dividend.floor_divide(divisor) == quotient
    assert dividend.floor_remainder(divisor) == remainder
    if quotient is None:
        return
    for value in range(0, 40):  # Python's floor semantics, for every symbol value
        assignment = _evaluate(dividend, value)
        assert _evaluate(quotient, value) == assignment // divisor
        assert _evaluate(remainder, value) == assignment % divisor


def _evaluate(polynomial: Polynomial, value: int) -> int:
    total = 0
    for monomial, coefficient in polynomial.terms.items():
        term = coefficient
        for _ in monomial:
            term *= value
        total += term
    return total


def test_equality_and_hash_ignore_zero_terms():
    assert S0 + S1 - S1 == S0
    assert hash(S0 + S1 - S1) == hash(S0)
    assert S0 != S1
    assert S0 != 0


@pytest.mark.parametrize(
    ("polynomial", "text"),
    [
        (S0, "%arg0[0]"),
        (S0 * const(8), "8*%arg0[0]"),
        (S0 * S1 - S0 * const(8) + const(3), "%arg0[0]*%arg1[2] - 8*%arg0[0] + 3"),
        (-S0, "-%arg0[0]"),
        (const(-5), "-5"),
        (Polynomial(), "0"),
        (S0 * S0, "%arg0[0]*%arg0[0]"),
        (EIGHTH * EIGHTH * const(4) + const(1), "4*(%arg0[2]/8)*(%arg0[2]/8) + 1"),
        (S0 * EIGHTH, "%arg0[0]*(%arg0[2]/8)"),
    ],
)
def test_text_round_trips(polynomial, text):
    assert format_polynomial(polynomial) == text
    assert parse_polynomial(text) == polynomial


@pytest.mark.parametrize("text", ["", "x", "%arg0", "8*", "%arg0[0] +", "1.5", "(%arg0[0]/)", "%arg0[0]/8"])
def test_parse_rejects_other_text(text):
    assert parse_polynomial(text) is None
