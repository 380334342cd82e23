"""Units of passes/evaluator.py that the pipeline tests do not reach on their own."""

from __future__ import annotations

import pytest

from torch_refine.ir.polynomial import Polynomial
from torch_refine.passes import evaluator

BATCH = Polynomial.symbol(0, 0)
SEQUENCE = Polynomial.symbol(1, 0)


@pytest.mark.parametrize("convert", [evaluator._to_int, evaluator._ceil], ids=["Int.float", "ceil"])
def test_size_float_to_int(convert):
    """An exact size float is its size; an inexact product (rounded past 2**53) is no int
    the evaluator may claim."""
    assert convert(evaluator._SizeFloat(BATCH)) == BATCH
    with pytest.raises(evaluator.GiveUp):
        convert(evaluator._SizeFloat(BATCH * SEQUENCE, exact=False))
