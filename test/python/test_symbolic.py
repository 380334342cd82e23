"""Polynomials over function argument dims (torch_refine.symbolic)."""

from __future__ import annotations

import pytest

from torch_refine.ir.polynomial import Polynomial, format_polynomial, parse_polynomial

S0 = Polynomial.symbol(0, 0)
S1 = Polynomial.symbol(1, 2)


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
    assert numel.exact_divide(S0 + const(1)) is None  # not a single term
    assert (S0 * S0).exact_divide(S0) == S0
    assert (S0 * const(-6)).exact_divide(S0 * const(3)) == const(-2)


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
    ],
)
def test_text_round_trips(polynomial, text):
    assert format_polynomial(polynomial) == text
    assert parse_polynomial(text) == polynomial


@pytest.mark.parametrize("text", ["", "x", "%arg0", "8*", "%arg0[0] +", "1.5"])
def test_parse_rejects_other_text(text):
    assert parse_polynomial(text) is None
