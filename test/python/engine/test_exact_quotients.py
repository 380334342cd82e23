"""engine/exact_quotients.py on its own: an equality of a quotient by a size that divides
its dividend is the dividend's equality (issue 41: a plain DistilBERT's linear after a view
of the other input's batch, `(256*a) // (64*b) == 4`, is `a == b`), checked against Python
ints."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from torch_refine.calculations import facts
from torch_refine.calculations.store import FactStore
from torch_refine.engine import cases
from torch_refine.engine.exact_quotients import dividend_equality
from torch_refine.ir.constants import op_key
from torch_refine.symbolic.polynomial import Polynomial

A, B = Polynomial.symbol(0, 0), Polynomial.symbol(1, 0)
(A_SYMBOL,), (B_SYMBOL,) = A.symbols(), B.symbols()
EQ, GT, NE = "torch.aten.eq.int", "torch.aten.gt.int", "torch.aten.ne.int"
# The parsed program is only read: one for every example.
PROPERTIES = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                      suppress_health_check=[HealthCheck.function_scoped_fixture])

_PROGRAM = """func.func @main(%x: !torch.vtensor<[?,256],f32>, %y: !torch.vtensor<[?,256],f32>) -> !torch.vtensor<[?,256],f32> {
  return %x : !torch.vtensor<[?,256],f32>
}"""


def _constant(value: int) -> Polynomial:
    return Polynomial.constant(value)


def _view_check(dividend: Polynomial, divisor: Polynomial, quotient: Polynomial) -> tuple:
    """A view's check that `divisor` divides `dividend` (PyTorch's infer-size)."""
    same = (EQ, dividend, divisor)
    divides = (EQ, dividend - divisor * quotient, _constant(0))
    return ("or", same, ("and", ("not", same), ("and", (GT, divisor, _constant(0)), divides)))


def _store(program, c: int, d: int, viewed: bool = True) -> tuple[FactStore, Polynomial]:
    """A run's store where `b != 0` and (where `viewed`) a view's check that `d*b` divides
    `c*a` are asserted, and the quotient `(c*a) // (d*b)`."""
    function_key = op_key(program.function)
    store = FactStore()
    store.add_range(function_key, (NE, B, _constant(0)), True)
    quotient = facts.quotient(_constant(c) * A, _constant(d) * B, store.quotient_forms, guarded=True)
    if viewed:
        store.assume(function_key, _view_check(_constant(c) * A, _constant(d) * B, quotient), True, "a view")
    return store, quotient


def _value(polynomial: Polynomial, a: int, b: int) -> int:
    return sum(coefficient * (a ** monomial.count(A_SYMBOL)) * (b ** monomial.count(B_SYMBOL))
               for monomial, coefficient in polynomial.terms.items())


def test_a_linears_check_after_a_view_is_the_equality_of_the_batches(parse):
    program = parse(_PROGRAM)
    store, quotient = _store(program, 256, 64)
    found = dividend_equality((EQ, quotient, _constant(4)), program.entry, store)
    assert found is not None
    assert cases._canonical(found) == cases._canonical((EQ, A, B))


@pytest.mark.parametrize(("c", "d", "k", "expected"), [(256, 64, 4, (EQ, A, B)), (512, 256, 2, (EQ, A, B)),
                                                      (64, 64, 2, (EQ, A, _constant(2) * B)), (4, 1, 1, (EQ, _constant(4) * A, B))])
def test_an_equality_of_the_quotient_is_one_of_sizes(parse, c, d, k, expected):
    program = parse(_PROGRAM)
    store, quotient = _store(program, c, d)
    found = dividend_equality((EQ, quotient, _constant(k)), program.entry, store)
    assert found is not None
    assert cases._canonical(found) == cases._canonical(expected)


def test_without_the_views_check_the_quotient_stays(parse):
    """`(256*a) // (64*b) == 4` holds at a = 5, b = 4 too, where `64*b` does not divide."""
    program = parse(_PROGRAM)
    store, quotient = _store(program, 256, 64, viewed=False)
    assert dividend_equality((EQ, quotient, _constant(4)), program.entry, store) is None


@PROPERTIES
@given(st.sampled_from([1, 2, 4, 8, 64, 3]), st.integers(1, 8), st.integers(0, 6), st.integers(-3, 3))
def test_the_dividends_equality_holds_where_the_quotients_does(parse, d, m, k, offset):
    """Wherever the asserted facts hold (`b >= 1`, `d*b` divides `c*a`, `c` being `m*d`), the
    equality given for `k*q + offset*b == k*k` (a multiple of the quotient, another size
    beside it) has the truth of that equality."""
    program = parse(_PROGRAM)
    c = m * d
    store, quotient = _store(program, c, d)
    lhs = _constant(k) * quotient + _constant(offset) * B
    found = dividend_equality((EQ, lhs, _constant(k * k)), program.entry, store)
    if found is None:
        return
    for a in range(0, 40):
        for b in range(1, 40):
            if (c * a) % (d * b):
                continue  # the view raises
            quotient_value = (c * a) // (d * b)
            assert (k * quotient_value + offset * b == k * k) == (_value(found[1], a, b) == _value(found[2], a, b))
