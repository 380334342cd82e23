"""How a kept check is written: the forms `patterns/symbolic.Sizes` materializes and
`guards.describe` prints must mean what the condition means, in fewer ops.

- `argument_bound`: an ordering that holds exactly where one argument dim is past a
  constant is that comparison (`(x + 1) // 2 - 1 >= 1` is `x >= 3`), checked against
  Python ints for every size up to 200.
- `negated`: `not` moved onto int comparisons by De Morgan, checked by truth tables.
- The ops of a kept broadcast check and of a select, counted in a refined program.
"""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from torch_refine.calculations import facts
from torch_refine.engine.guards import describe
from torch_refine.patterns.symbolic import argument_bound
from torch_refine.symbolic.comparisons import INT_COMPARISONS, negated
from torch_refine.symbolic.polynomial import Polynomial

# The quotient forms of one run (`FactStore.quotient_forms`), shared by this module's tests.
FORMS: dict = {}

X = Polynomial.symbol(0, 2)
ORDERINGS = ["torch.aten.ge.int", "torch.aten.gt.int", "torch.aten.le.int", "torch.aten.lt.int"]
SIZES = range(0, 201)


def _floor_chain(steps) -> tuple[Polynomial, callable]:
    """`((c1*x + k1) // d1 * c2 + k2) // d2 ...` as a polynomial of defined symbols, and as
    a Python function of x."""
    polynomial, compute = X, (lambda x: x)
    for coefficient, offset, divisor in steps:
        polynomial = facts.floor_divide(Polynomial.constant(coefficient) * polynomial + Polynomial.constant(offset),
                                        divisor, forms=FORMS)
        compute = (lambda inner, c, k, d: lambda x: (c * inner(x) + k) // d)(compute, coefficient, offset, divisor)
    return polynomial, compute


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 4), st.integers(-6, 6), st.integers(1, 5)), max_size=3),
       st.sampled_from(ORDERINGS), st.integers(-3, 3), st.integers(-8, 8), st.booleans())
def test_an_argument_bound_holds_exactly_where_the_comparison_does(steps, comparison, scale, constant, swapped):
    chain, compute = _floor_chain(steps)
    side = Polynomial.constant(scale) * chain + Polynomial.constant(constant)
    key = (comparison, Polynomial.constant(0), side) if swapped else (comparison, side, Polynomial.constant(0))
    bound = argument_bound(key)
    if bound is None:
        return
    test = INT_COMPARISONS[comparison]
    for x in SIZES:
        value = scale * compute(x) + constant
        expected = test(0, value) if swapped else test(value, 0)
        assert INT_COMPARISONS[bound[0]](x, bound[2].constant_value()) == expected, (key, bound, x)


def test_a_pool_output_check_is_a_bound_of_the_input_size():
    """avg_pool1d's `(x + 1) // 2 - 1 >= 1` (kernel 3, stride 2, padding 0 with ceil mode)."""
    quotient = facts.floor_divide(X + Polynomial.constant(1), 2, forms=FORMS)
    bound = argument_bound(("torch.aten.ge.int", quotient - Polynomial.constant(1), Polynomial.constant(1)))
    assert bound == ("torch.aten.ge.int", X, Polynomial.constant(3))


def test_two_sided_and_products_are_not_bounds():
    assert argument_bound(("torch.aten.eq.int", X, Polynomial.constant(3))) is None
    assert argument_bound(("torch.aten.ge.int", X * X, Polynomial.constant(3))) is None
    assert argument_bound(("torch.aten.ge.int", X - Polynomial.symbol(1, 0), Polynomial.constant(0))) is None


COMPARISON_KEYS = [("torch.aten.eq.int", "a", "b"), ("torch.aten.ne.int", "a", 1), ("torch.aten.lt.int", "b", 2),
                   ("torch.aten.ge.int", "a", "b")]
CONNECTED = [*COMPARISON_KEYS, ("and", COMPARISON_KEYS[0], COMPARISON_KEYS[1]),
             ("or", ("and", COMPARISON_KEYS[1], COMPARISON_KEYS[2]), ("not", COMPARISON_KEYS[3])),
             ("not", ("or", COMPARISON_KEYS[0], COMPARISON_KEYS[2]))]


def _truth(key, at: dict) -> bool:
    op, operands = key[0], key[1:]
    if op == "not":
        return not _truth(operands[0], at)
    if op in ("and", "or"):
        parts = [_truth(c, at) for c in operands]
        return all(parts) if op == "and" else any(parts)
    lhs, rhs = (at.get(o, o) for o in operands)
    return INT_COMPARISONS[op](lhs, rhs)


@pytest.mark.parametrize("key", CONNECTED, ids=str)
def test_a_negation_moved_onto_comparisons_is_the_negation(key):
    flipped = negated(key)
    assert "not" not in str(flipped)
    for a, b in itertools.product(range(4), repeat=2):
        assert _truth(flipped, {"a": a, "b": b}) is not _truth(key, {"a": a, "b": b})


def test_a_float_comparison_keeps_its_not():
    key = ("torch.aten.lt.float", X, 0.5)  # with a NaN, `not a < b` is not `a >= b`
    assert negated(key) == ("not", key)


def test_a_broadcast_check_reads_as_pytorch_states_it():
    a, b, one = Polynomial.symbol(0, 0), Polynomial.symbol(1, 0), Polynomial.constant(1)
    key = ("and", ("and", ("torch.aten.ne.int", a, b), ("torch.aten.ne.int", a, one)), ("torch.aten.ne.int", b, one))
    assert describe(("not", key)) == "%arg0[0] == %arg1[0] or %arg0[0] == 1 or %arg1[0] == 1"
    assert describe(("and", ("torch.aten.gt.int", a, one), ("not", key))) == \
        "%arg0[0] > 1 and (%arg0[0] == %arg1[0] or %arg0[0] == 1 or %arg1[0] == 1)"


_BROADCAST_THEN_POOL = """
func.func @main(%arg0: !torch.vtensor<[?,4,?],f32>, %arg1: !torch.vtensor<[?,4,?],f32>) -> (!torch.vtensor, !torch.vtensor) {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %0 = torch.aten.add.Tensor %arg0, %arg1, %int1 : !torch.vtensor<[?,4,?],f32>, !torch.vtensor<[?,4,?],f32>, !torch.int -> !torch.vtensor
  %k = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.avg_pool1d %arg0, %k, %s, %p, %false, %true : !torch.vtensor<[?,4,?],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool -> !torch.vtensor
  %2 = torch.aten.tanh %0 : !torch.vtensor -> !torch.vtensor
  %3 = torch.aten.mul.Tensor %2, %2 : !torch.vtensor, !torch.vtensor -> !torch.vtensor
  return %1, %3 : !torch.vtensor, !torch.vtensor
}
"""


def test_kept_checks_use_few_ops():
    """A broadcast's check is `eq`s joined by `__or__` (no `__and__`, no negated `ne.bool`);
    the pool's output check `(x + 1) // 2 - 1 >= 1` reads the input size alone, `x > 2`."""
    import torch_refine

    refined = str(torch_refine.refine(_BROADCAST_THEN_POOL).module)
    body = [line.split(" loc(")[0].strip() for line in refined.splitlines()]
    names = [line.split(" = ")[1].split(" ")[0] for line in body if " = torch." in line]
    assert "torch.aten.__and__.bool" not in names, refined
    assert "torch.aten.ne.bool" not in names, refined
    assert names.count("torch.aten.__or__.bool") == 4, refined  # two dims' checks, three terms each
    assert "torch.aten.floordiv.int" not in names, refined
    assert re.search(r"= torch\.aten\.gt\.int %\d+, %int2 ", refined), refined  # x > 2, the size read once
    assert "requires (%arg0[2] + 1) // 2 - 1 >= 1" in refined  # the message keeps the op's own terms


_ARANGE_TO_SIZE = """
func.func @main(%arg0: !torch.vtensor<[?],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %0 = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?],f32>, !torch.int -> !torch.int
  %1 = torch.aten.sub.int %0, %int1 : !torch.int, !torch.int -> !torch.int
  %2 = torch.aten.arange.start_step %int0, %1, %int1, %none, %none, %none, %none : !torch.int, !torch.int, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor
  return %2 : !torch.vtensor
}
"""


def test_an_int_converted_to_float_is_compared_as_an_int():
    """arange's checks of an int end: `isinf(float(n - 1))` never holds (an int64 is never
    inf), and `float(n - 1) >= 0.0` is `n - 1 >= 0`; the one that can fail still does."""
    import torch

    import torch_refine
    from torch_refine.executor import RaisedError

    refined = str(torch_refine.refine(_ARANGE_TO_SIZE).module)
    assert "unsupported range" not in refined, refined
    assert "torch.aten.Float.Scalar" not in refined, refined
    assert refined.count("torch.runtime.assert") == 1, refined
    assert "(requires %arg0[0] - 1 >= 0)" in refined, refined
    assert torch_refine.execute(refined, torch.zeros(5), check_types=True).tolist() == [0, 1, 2, 3]
    with pytest.raises(RaisedError, match="inconsistent with step sign"):
        torch_refine.execute(refined, torch.zeros(0))
