"""The op meanings of symbolic/semantics.py against Python and PyTorch (issue 41, item 3): each
op's `compute` is Python's (TorchScript's) meaning, its symbolic meaning agrees with it at
sizes, and its interval holds every result of operands in the operands' intervals."""

from __future__ import annotations

import itertools
import math

import pytest
import torch

from torch_refine.calculations import facts
from torch_refine.symbolic.polynomial import Polynomial
from torch_refine.symbolic.semantics import MEANINGS, names

SAMPLES = (-7, -3, -2, -1, 0, 1, 2, 3, 5, 8)
INTERVALS = ((None, None), (None, -2), (-3, None), (0, 0), (-4, 4), (1, 6), (2, None), (-9, -1))


def _int_ops(arity: int) -> list[str]:
    return [name for name in names(result="int") if MEANINGS[name].operands == ("int",) * arity]


@pytest.mark.parametrize("name", ["torch.aten.floordiv.int", "torch.aten.remainder.int"])
def test_division_rounds_toward_minus_infinity(name):
    compute = MEANINGS[name].compute
    for a, b in itertools.product(SAMPLES, SAMPLES):
        if b == 0:
            continue
        expected = torch.floor_divide(torch.tensor(a), b) if "floordiv" in name else torch.remainder(torch.tensor(a), b)
        assert compute(a, b) == int(expected), (a, b)


def test_float_int_comparisons_convert_the_int_to_float():
    """2**53 + 1 is 2**53 as a double: TorchScript's `float == int` converts the int first."""
    assert MEANINGS["torch.aten.ne.float_int"].compute(2.0**53, 2**53 + 1) is False
    assert MEANINGS["torch.aten.lt.float_int"].compute(2.0**53, 2**53 + 1) is False


def test_conversions_and_range_length():
    assert MEANINGS["torch.aten.ceil.float"].compute(2.5) == 3
    assert MEANINGS["torch.aten.Int.float"].compute(-2.5) == -2  # toward zero, as int() in TorchScript
    assert MEANINGS["torch.aten.__range_length"].compute(5, -1, -2) == 3
    with pytest.raises(ValueError, match="must not be zero"):
        MEANINGS["torch.aten.__range_length"].compute(0, 4, 0)


FORMS: dict = {}  # the quotient forms of one run (`FactStore.quotient_forms`)


class _Facts:
    @staticmethod
    def quotient(dividend, divisor):
        return facts.quotient(dividend, divisor, FORMS)

    @staticmethod
    def modulo(dividend, divisor):
        return facts.modulo(dividend, divisor, FORMS)

    @staticmethod
    def truth(comparison, a, b):
        return facts.truth_of((comparison, a, b))


@pytest.mark.parametrize("name", [n for n in names(symbolic=True) if MEANINGS[n].result == "int"])
def test_symbolic_meaning_agrees_with_python_at_sizes(name):
    """The meaning over a size `x` (constant divisors: what every division by a size's
    polynomial normalises to), evaluated at x, is Python's on x's value."""
    meaning = MEANINGS[name]
    x = Polynomial.symbol(0, 0)
    for size in (0, 1, 2, 7, 12):
        for constants in itertools.product((-3, 2, 5), repeat=len(meaning.operands) - 1):
            if name in ("torch.aten.floordiv.int", "torch.aten.remainder.int") and constants[0] < 0:
                continue  # a negative divisor's symbol: facts.md's floor_divide
            operands = (x, *(Polynomial.constant(c) for c in constants))
            result = meaning.symbolic(_Facts, *operands)
            expected = meaning.compute(size, *constants)
            assert _value_at(result, x, size) == expected, (name, size, constants)


def _value_at(polynomial: Polynomial, x: Polynomial, size: int) -> int:
    """The polynomial at x = size, each quotient symbol of x computed as Python's `//`."""
    (symbol,) = x.symbols()
    values = {symbol: size}
    for other in polynomial.symbols() - {symbol}:
        definition = facts.definition(other)
        assert definition is not None
        assert definition[0] == facts.FLOOR_DIVIDE, definition
        values[other] = _value_at(definition[1], x, size) // definition[2]
    total = 0
    for monomial, coefficient in polynomial.terms.items():
        total += coefficient * math.prod(values[s] for s in monomial)
    return total


@pytest.mark.parametrize("name", [n for n in MEANINGS if MEANINGS[n].bounds is not None])
def test_bounds_hold_every_result(name):
    meaning = MEANINGS[name]
    for intervals in itertools.product(INTERVALS, repeat=len(meaning.operands)):
        least, greatest = meaning.bounds(*intervals)
        members = [[v for v in range(-12, 13) if _within(v, i)] for i in intervals]
        for values in itertools.product(*members):
            result = meaning.compute(*values)
            assert _within(result, (least, greatest)), (name, intervals, values, result)


def _within(value: int, interval: tuple) -> bool:
    return (interval[0] is None or interval[0] <= value) and (interval[1] is None or value <= interval[1])


@pytest.mark.parametrize("name", _int_ops(2) + _int_ops(1))
def test_int_ops_agree_with_torch(name):
    """The ops torch's TorchScript runs: their results on samples are PyTorch's."""
    aten = {"add": torch.add, "sub": torch.sub, "mul": torch.mul, "neg": torch.neg,
            "floordiv": torch.floor_divide, "remainder": torch.remainder,
            "max": torch.maximum, "min": torch.minimum}
    meaning = MEANINGS[name]
    op = name.split(".")[-2]
    if op not in aten:
        pytest.skip("no tensor op of the same meaning")
    for values in itertools.product(SAMPLES, repeat=len(meaning.operands)):
        if op in ("floordiv", "remainder") and values[1] == 0:
            continue
        expected = aten[op](*[torch.tensor(v) for v in values])
        assert meaning.compute(*values) == int(expected), (name, values)


@pytest.mark.parametrize("name", [n for n in MEANINGS if MEANINGS[n].holds is not None])
def test_a_comparison_holds_exactly_where_the_difference_is_in_its_interval(name):
    meaning = MEANINGS[name]
    for a, b in itertools.product(SAMPLES, SAMPLES):
        assert meaning.compute(a, b) == _within(a - b, meaning.holds), (name, a, b)


@pytest.mark.parametrize("name", [n for n in MEANINGS if MEANINGS[n].result == "bool" and MEANINGS[n].bounds])
def test_a_comparison_on_intervals_is_decided_where_every_member_agrees(name):
    """Comparisons' interval meaning (what the float folds decide a range by) is exact:
    wherever every pair of members gives one answer, it gives that answer."""
    meaning = MEANINGS[name]
    for a, b in itertools.product(INTERVALS, repeat=2):
        answers = {meaning.compute(x, y) for x in range(-12, 13) if _within(x, a)
                   for y in range(-12, 13) if _within(y, b)}
        least, greatest = meaning.bounds(a, b)
        assert (least == greatest) == (len(answers) == 1), (name, a, b, answers)
        assert least == greatest or (least, greatest) == (False, True), (name, a, b)
