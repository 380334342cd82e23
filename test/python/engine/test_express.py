"""`dim_facts.express` on its own: an int of a program as a polynomial over its function's
argument dims, through the ops sizes are computed with."""

from __future__ import annotations

import pytest

from torch_refine.calculations import facts
from torch_refine.calculations.dim_facts import express
from torch_refine.calculations.store import FactStore
from torch_refine.symbolic.polynomial import Polynomial

# The quotient forms of one run (`FactStore.quotient_forms`), shared by this module's tests.
FORMS: dict = {}

H, W = Polynomial.symbol(0, 0), Polynomial.symbol(0, 1)
T = "!torch.vtensor<[?,?,3],f32>"
I2 = "!torch.int, !torch.int"


def _function(body: str, arguments: str = f"%arg0: {T}") -> str:
    return f"""
func.func @main({arguments}) -> !torch.int {{
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %h = torch.aten.size.int %arg0, %int0 : {T}, !torch.int -> !torch.int loc("h")
  %w = torch.aten.size.int %arg0, %int1 : {T}, !torch.int -> !torch.int loc("w")
{body}
  return %h : !torch.int
}}"""


def test_sizes_of_arguments_are_symbols_and_static_sizes_constants(parse):
    program = parse(_function(f"""
  %c = torch.aten.size.int %arg0, %int2 : {T}, !torch.int -> !torch.int loc("c")
  %minus = torch.constant.int -1
  %last = torch.aten.size.int %arg0, %minus : {T}, !torch.int -> !torch.int loc("last")
"""))
    assert express(program.value("h"), FactStore()) == H
    assert express(program.value("w"), FactStore()) == W
    assert express(program.value("c"), FactStore()) == Polynomial.constant(3)
    assert express(program.value("last"), FactStore()) == Polynomial.constant(3)


def test_arithmetic_is_polynomial_arithmetic(parse):
    program = parse(_function(f"""
  %0 = torch.aten.mul.int %h, %w : {I2} -> !torch.int loc("hw")
  %1 = torch.aten.sub.int %0, %int4 : {I2} -> !torch.int loc("hw4")
  %2 = torch.aten.neg.int %1 : !torch.int -> !torch.int loc("negated")
"""))
    assert express(program.value("hw"), FactStore()) == H * W
    assert express(program.value("hw4"), FactStore()) == H * W - Polynomial.constant(4)
    assert express(program.value("negated"), FactStore()) == Polynomial.constant(4) - H * W


def test_a_stride_four_stem_and_its_residual_are_one_polynomial(parse):
    """Issue 41's first tautology: `(h - 4) // 4 + 1` and `h // 4` express alike."""
    program = parse(_function(f"""
  %0 = torch.aten.sub.int %h, %int4 : {I2} -> !torch.int
  %1 = torch.aten.floordiv.int %0, %int4 : {I2} -> !torch.int
  %2 = torch.aten.add.int %1, %int1 : {I2} -> !torch.int loc("stem")
  %3 = torch.aten.floordiv.int %h, %int4 : {I2} -> !torch.int loc("quarter")
  %4 = torch.aten.floordiv.int %3, %int2 : {I2} -> !torch.int loc("eighth_of_quarter")
  %int8 = torch.constant.int 8
  %5 = torch.aten.floordiv.int %h, %int8 : {I2} -> !torch.int loc("eighth")
"""))
    assert express(program.value("stem"), FactStore()) == express(program.value("quarter"), FactStore())
    assert express(program.value("quarter"), FactStore()) == facts.floor_divide(H, 4, forms=FORMS)
    assert express(program.value("eighth_of_quarter"), FactStore()) == express(program.value("eighth"), FactStore())


def test_a_remainder_is_what_the_quotient_leaves(parse):
    program = parse(_function(f"""
  %0 = torch.aten.remainder.int %h, %int4 : {I2} -> !torch.int loc("remainder")
"""))
    assert express(program.value("remainder"), FactStore()) == H - Polynomial.constant(4) * facts.floor_divide(H, 4, forms=FORMS)


def test_truth_of_an_int_and_its_negation_are_selects_of_one_and_zero(parse):
    """torch-mlir's adaptive pool kernel `h // 7 + int(bool(h % 7))`: `bool(x)` is `x != 0`,
    `not b` is `1 - b`, and `bool(w % 1)` is 0."""
    program = parse(_function(f"""
  %int7 = torch.constant.int 7
  %0 = torch.aten.remainder.int %h, %int7 : {I2} -> !torch.int
  %1 = torch.aten.Bool.int %0 : !torch.int -> !torch.bool
  %2 = torch.aten.Int.bool %1 : !torch.bool -> !torch.int loc("nonzero")
  %3 = torch.aten.__not__ %1 : !torch.bool -> !torch.bool
  %4 = torch.aten.Int.bool %3 : !torch.bool -> !torch.int loc("zero")
  %5 = torch.aten.remainder.int %w, %int1 : {I2} -> !torch.int
  %6 = torch.aten.Bool.int %5 : !torch.int -> !torch.bool
  %7 = torch.aten.Int.bool %6 : !torch.bool -> !torch.int loc("never")
"""))
    remainder = facts.remainder(H, 7, forms=FORMS)
    nonzero = facts.truth_of(("torch.aten.ne.int", remainder, Polynomial.constant(0)))
    assert express(program.value("nonzero"), FactStore()) == nonzero
    assert express(program.value("zero"), FactStore()) == Polynomial.constant(1) - nonzero
    assert express(program.value("never"), FactStore()) == Polynomial.constant(0)


def test_an_if_whose_branches_yield_one_polynomial_is_that_polynomial(parse):
    program = parse(_function(f"""
  %0 = torch.aten.eq.int %h, %int1 : {I2} -> !torch.bool
  %1 = torch.prim.If %0 -> (!torch.int) {{
    %2 = torch.aten.add.int %h, %w : {I2} -> !torch.int
    torch.prim.If.yield %2 : !torch.int
  }} else {{
    %3 = torch.aten.add.int %w, %h : {I2} -> !torch.int
    torch.prim.If.yield %3 : !torch.int
  }} loc("same")
"""))
    assert express(program.value("same"), FactStore()) == H + W


def test_a_broadcast_select_of_a_size_is_the_size(parse):
    """`1 if h == 1 else h` (a broadcast's result size) is `h`."""
    program = parse(_function(f"""
  %0 = torch.aten.eq.int %h, %int1 : {I2} -> !torch.bool
  %1 = torch.prim.If %0 -> (!torch.int) {{
    torch.prim.If.yield %int1 : !torch.int
  }} else {{
    torch.prim.If.yield %h : !torch.int
  }} loc("broadcast")
"""))
    assert express(program.value("broadcast"), FactStore()) == H


def test_a_comparison_read_as_an_int_is_its_truth(parse):
    program = parse(_function(f"""
  %0 = torch.aten.eq.int %h, %w : {I2} -> !torch.bool
  %1 = torch.aten.Int.bool %0 : !torch.bool -> !torch.int loc("truth")
"""))
    assert express(program.value("truth"), FactStore()) == facts.truth_of(("torch.aten.eq.int", H, W))


def test_an_element_read_out_of_a_literal_is_its_value(parse):
    """ONNX exports read sizes with `aten.item` of small int tensors."""
    program = parse(_function("""
  %0 = torch.vtensor.literal(dense<[2, 4, 6]> : tensor<3xsi64>) : !torch.vtensor<[3],si64>
  %1 = torch.aten.select.int %0, %int0, %int1 : !torch.vtensor<[3],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %2 = torch.aten.item %1 : !torch.vtensor<[],si64> -> !torch.int loc("element")
"""))
    assert express(program.value("element"), FactStore()) == Polynomial.constant(4)


@pytest.mark.parametrize("body", [
    # an int argument of the function: no dim of a tensor
    "  %0 = torch.aten.add.int %arg1, %int1 : !torch.int, !torch.int -> !torch.int loc(\"x\")",
    # a float
    "  %f = torch.constant.float 2.5\n"
    "  %0 = torch.aten.mul.float %f, %f : !torch.float, !torch.float -> !torch.float loc(\"x\")",
], ids=["int argument", "float"])
def test_what_is_no_polynomial_over_sizes_is_none(parse, body):
    program = parse(_function(body, arguments=f"%arg0: {T}, %arg1: !torch.int"))
    assert express(program.value("x"), FactStore()) is None


def test_a_comparison_the_sizes_decide_is_a_constant(parse):
    """`int(h >= 0)` is 1 and `int(h * w < 0)` is 0 for every size (the comparison's meaning
    in symbolic/semantics.py decides by range); `int(h == w)` stays the truth symbol."""
    program = parse(_function(f"""
  %0 = torch.aten.ge.int %h, %int0 : {I2} -> !torch.bool
  %1 = torch.aten.Int.bool %0 : !torch.bool -> !torch.int loc("nonnegative")
  %2 = torch.aten.mul.int %h, %w : {I2} -> !torch.int
  %3 = torch.aten.lt.int %2, %int0 : {I2} -> !torch.bool
  %4 = torch.aten.Int.bool %3 : !torch.bool -> !torch.int loc("negative")
  %5 = torch.aten.eq.int %h, %w : {I2} -> !torch.bool
  %6 = torch.aten.Int.bool %5 : !torch.bool -> !torch.int loc("equal")
"""))
    assert express(program.value("nonnegative"), FactStore()) == Polynomial.constant(1)
    assert express(program.value("negative"), FactStore()) == Polynomial.constant(0)
    assert express(program.value("equal"), FactStore()).constant_value() is None
