"""calculations/ranges.py and value_ranges.py on their own: the ranges a program states for its sizes (binds of
`torch.symbolic_int`s), of polynomials over them, of int values by interval arithmetic, and
comparisons they decide."""

from __future__ import annotations

import operator

import pytest

from torch_refine.calculations import ranges, value_ranges
from torch_refine.calculations.store import FactStore
from torch_refine.symbolic.polynomial import Polynomial

# The quotient forms of one run (`FactStore.quotient_forms`), shared by this module's tests.
FORMS: dict = {}

T = "!torch.vtensor<[?,?],f32>"
I2 = "!torch.int, !torch.int"
X = Polynomial.symbol(0, 0)
ONE, FOUR = Polynomial.constant(1), Polynomial.constant(4)

BOUND = f"""
func.func @main(%arg0: {T}) -> !torch.int {{
  %s0 = torch.symbolic_int "s0" {{min_val = 2, max_val = 64}} : !torch.int
  %s1 = torch.symbolic_int "s1" {{min_val = 0, max_val = 9223372036854775806}} : !torch.int
  torch.bind_symbolic_shape %arg0, [%s0, %s1], affine_map<()[s0, s1] -> (s0, s1 * 8)> : {T}
  %int0 = torch.constant.int 0
  %h = torch.aten.size.int %arg0, %int0 : {T}, !torch.int -> !torch.int loc("h")
  return %h : !torch.int
}}"""


@pytest.mark.parametrize(("test", "low", "high", "decided"), [
    (operator.ge, 2, None, True),  # at least 2: >= 0 always
    (operator.lt, None, -1, True),
    (operator.le, 1, 5, False),
    (operator.eq, 1, 5, False),  # never 0
    (operator.eq, -1, 5, None),
    (operator.ne, 1, None, True),
    (operator.eq, 0, 0, True),
    (operator.gt, -3, 3, None),
    (operator.ge, None, None, None),
])
def test_decide_compares_a_whole_range_with_zero(test, low, high, decided):
    assert ranges.decide(test, low, high) is decided


@pytest.mark.parametrize(("polynomial", "expected"), [
    (X - FOUR, (-4, None)),
    (Polynomial.constant(3) + Polynomial.constant(2) * X * Polynomial.symbol(0, 1), (3, None)),
    (-X, (None, 0)),
    (Polynomial.constant(7), (7, 7)),
])
def test_a_polynomial_over_plain_sizes(polynomial, expected):
    """Without an entry block every symbol is a size: 0 or more, unbounded above."""
    assert ranges.polynomial_range(polynomial, None, None) == expected


def test_a_common_factor_multiplies_ranges(parse):
    """`b*(w // 8) - b` is `b * (w // 8 - 1)`: at least 1 where `b >= 2` and `w >= 16`
    (the terms' own ranges say nothing of the difference); the bound holds at every size."""
    from torch_refine.calculations import facts

    program = parse(BOUND)
    batch, width = Polynomial.symbol(0, 0), Polynomial.symbol(0, 1, 8)  # b in [2, 64]; w/8 >= 0
    product = batch * width - batch
    assert ranges.polynomial_range(product, program.entry, FactStore()) == (-64, None)  # w/8 may be 0
    quotient = facts.floor_divide(Polynomial.symbol(0, 1), 8, forms=FORMS)
    (w,) = Polynomial.symbol(0, 1).symbols()
    narrowed = ranges.polynomial_range(batch * quotient - batch, program.entry, FactStore(), within={w: (16, 40)})
    assert narrowed == (2, 256)
    assert all(narrowed[0] <= b * (x // 8) - b <= narrowed[1] for b in range(2, 65) for x in range(16, 41))


def test_binds_state_the_ranges_of_argument_dims(parse):
    program = parse(BOUND)
    entry, run = program.entry, FactStore()
    assert ranges.symbol_range(entry, (0, 0, 1), run) == (2, 64)
    assert ranges.symbol_range(entry, (0, 1, 1), run) == (0, None)  # int_oo is unbounded
    assert ranges.symbol_range(entry, (0, 1, 8), run) == (0, None)
    assert ranges.polynomial_range(X - Polynomial.constant(2), entry, run) == (0, 62)
    assert ranges.polynomial_range(X * X, entry, run) == (4, 4096)


def test_within_narrows_a_symbols_range(parse):
    (symbol,) = X.symbols()
    assert ranges.polynomial_range(X - FOUR, None, None, within={symbol: (4, 10)}) == (0, 6)


def test_the_range_signature_tells_functions_apart_by_their_binds(parse):
    bound, plain, run = parse(BOUND), parse(BOUND.replace("max_val = 64", "max_val = 32")), FactStore()
    assert ranges.range_signature(bound.function, run) != ranges.range_signature(plain.function, run)
    assert ranges.range_signature(bound.function, run) == ranges.range_signature(parse(BOUND).function, run)
    unbound = parse(f"func.func @main(%arg0: {T}) -> !torch.vtensor<[?,?],f32> {{\n"
                    f"  return %arg0 : {T}\n}}")
    assert ranges.range_signature(unbound.function, run) == ()
    assert ranges.range_signature(None, run) == ()


def test_the_enclosing_function_of_a_nested_op(parse):
    program = parse(f"""
func.func @main(%arg0: {T}, %arg1: !torch.bool) -> !torch.int {{
  %int0 = torch.constant.int 0
  %0 = torch.prim.If %arg1 -> (!torch.int) {{
    %1 = torch.aten.size.int %arg0, %int0 : {T}, !torch.int -> !torch.int loc("nested")
    torch.prim.If.yield %1 : !torch.int
  }} else {{
    torch.prim.If.yield %int0 : !torch.int
  }}
  return %0 : !torch.int
}}""")
    nested = program.op("nested")
    assert ranges.enclosing_function(nested) == program.function.operation
    assert ranges.entry_block_of(nested) == program.entry


def test_value_ranges_by_interval_arithmetic(parse):
    """A size is at least 0 (or its bind's range); sums, differences, max and min combine
    intervals; an If's branches are narrowed by its condition (`n if n > 0 else 1` >= 1)."""
    program = parse(BOUND.replace("  return %h", f"""
  %int5 = torch.constant.int 5
  %int1 = torch.constant.int 1
  %n = torch.aten.sub.int %h, %int5 : {I2} -> !torch.int loc("n")
  %big = torch.prim.max.int %n, %int1 : {I2} -> !torch.int loc("big")
  %small = torch.prim.min.int %n, %int1 : {I2} -> !torch.int loc("small")
  %positive = torch.aten.gt.int %n, %int0 : {I2} -> !torch.bool
  %clamped = torch.prim.If %positive -> (!torch.int) {{
    torch.prim.If.yield %n : !torch.int
  }} else {{
    torch.prim.If.yield %int1 : !torch.int
  }} loc("clamped")
  return %h"""))
    entry, run = program.entry, FactStore()
    assert value_ranges.value_range(program.value("h"), entry, run) == (2, 64)
    assert value_ranges.value_range(program.value("n"), entry, run) == (-3, 59)
    assert value_ranges.value_range(program.value("big"), entry, run) == (1, 59)
    assert value_ranges.value_range(program.value("small"), entry, run) == (-3, 1)
    assert value_ranges.value_range(program.value("clamped"), entry, run) == (1, 59)
    assert value_ranges.difference_range(program.value("big"), program.value("small"), entry, run) == (0, 62)


def test_a_difference_of_values_no_op_bounds_is_unknown(parse):
    program = parse("""
func.func @main(%arg0: !torch.int, %arg1: !torch.int) -> !torch.int {
  return %arg0 : !torch.int
}""")
    first, second = program.entry.arguments
    assert value_ranges.difference_range(first, second, program.entry, FactStore()) is None


def test_a_symbol_unbounded_below_bounds_products_by_interval_arithmetic():
    """A select of a program's number (`min(x, 0)`) may be negative without bound: its
    products and sums are ranged, not a crash (a Swin exported by the legacy ONNX exporter)."""
    negative = (0, 1, 1)  # the second dim, ranged only through `within`
    y = Polynomial({(negative,): 1})
    assert ranges.polynomial_range(X * y, None, None, {negative: (None, 0)}) == (None, 0)
    assert ranges.polynomial_range(X * y + FOUR, None, None, {negative: (-3, -1)}) == (None, 4)
    assert ranges.polynomial_range(y * y, None, None, {negative: (-3, 2)}) == (-6, 9)
    assert ranges.polynomial_range(X * y, None, None, {negative: (0, 0)}) == (0, 0)


# -- remainders and quotients by a size (issue 41: torch-mlir's adaptive pools) -----------

PLAIN = f"""
func.func @main(%arg0: {T}) -> !torch.int {{
  %int0 = torch.constant.int 0
  %h = torch.aten.size.int %arg0, %int0 : {T}, !torch.int -> !torch.int loc("h")
  return %h : !torch.int
}}"""
GT, NE, GE = "torch.aten.gt.int", "torch.aten.ne.int", "torch.aten.ge.int"


def _adaptive_pool(out: int) -> tuple[Polynomial, Polynomial, Polynomial]:
    """(h % out, the stride h // out, the rows `(h - kernel) // stride` divides) of
    torch-mlir's adaptive pool of `out` on h: kernel `h // out + (h % out != 0)`."""
    from torch_refine.calculations import facts

    remainder = facts.remainder(X, out, forms=FORMS)
    stride = facts.floor_divide(X, out, forms=FORMS)
    kernel = stride + facts.truth_of((NE, remainder, Polynomial.constant(0)))
    return remainder, stride, X - kernel


def test_a_comparison_of_one_remainder_bounds_it():
    """`7 > 6 * (h % 7)` puts `h % 7` in [0, 1]; `h % 7 != 0` within that, at 1."""
    remainder, stride, _ = _adaptive_pool(7)
    key, low, high = ranges.remainder_bounds((GT, Polynomial.constant(7), Polynomial.constant(6) * remainder),
                                             True, lambda _: None)
    assert (low, high) == (0, 1)
    assert key == ranges.remainder_key(next(iter(stride.symbols())))
    assert ranges.remainder_bounds((NE, remainder, Polynomial.constant(0)), True, lambda _: (0, 1))[1:] == (1, 1)
    assert ranges.remainder_bounds((GT, X, Polynomial.constant(6) * remainder), True, lambda _: None) is None


def test_the_rows_of_an_adaptive_pool_are_decided_by_the_programs_asserts(parse, facts_store):
    """`(h - kernel) // stride` is 6 (7 rows pooled) where `h % 7` is 0 or 1 and the
    stride at least 1; not where `h % 7` may be 2 (h = 9: kernel 2, stride 1, 8 rows)."""
    from torch_refine.ir.constants import op_key

    program = parse(PLAIN)
    remainder, stride, rows = _adaptive_pool(7)
    function_key = op_key(program.function)
    assert facts_store.add_range(function_key, (GE, stride, Polynomial.constant(1)), True)
    assert ranges.quotient_by_ranges(rows, stride, program.entry, facts_store) is None
    assert facts_store.add_range(function_key, (GT, Polynomial.constant(7), Polynomial.constant(6) * remainder), True)
    assert ranges.quotient_by_ranges(rows, stride, program.entry, facts_store) == 6


@pytest.mark.parametrize("out", [2, 3, 5, 7, 9])
@pytest.mark.parametrize("greatest", [0, 1, 2, 4])
def test_a_quotient_by_ranges_is_pythons_at_every_size_the_facts_allow(parse, out, greatest, facts_store):
    """Whatever `quotient_by_ranges` decides for the adaptive pool's rows holds at every h
    with `h // out >= 1` and `h % out <= greatest`."""
    from torch_refine.ir.constants import op_key

    program = parse(PLAIN)
    remainder, stride, rows = _adaptive_pool(out)
    function_key = op_key(program.function)
    facts_store.add_range(function_key, (GE, stride, Polynomial.constant(1)), True)
    facts_store.add_range(function_key, (GE, Polynomial.constant(greatest), remainder), True)
    decided = ranges.quotient_by_ranges(rows, stride, program.entry, facts_store)
    allowed = [h for h in range(out, 400) if h % out <= greatest]
    truths = {(h - (h // out + (h % out != 0))) // (h // out) for h in allowed}
    if decided is not None:
        assert truths == {decided}
    if greatest <= 1:
        assert decided == out - 1


def test_the_refinement_cache_keys_a_range_by_the_narrowings_it_reads(parse):
    """Within a refinement a polynomial's range is remembered under the `within` bounds of
    what it reads: a bound on another size shares the entry, a bound on a quotient's
    dividend or on its remainder (read through the relaxation) does not."""
    from torch_refine.calculations import facts

    program, run = parse(BOUND), FactStore()
    (b,), (w,) = X.symbols(), Polynomial.symbol(0, 1).symbols()
    quotient = facts.floor_divide(Polynomial.symbol(0, 1), 8, forms=FORMS)
    (q,) = quotient.symbols()
    with run.refining():
        assert ranges.polynomial_range(quotient, program.entry, run) == (0, None)
        assert ranges.polynomial_range(quotient, program.entry, run, within={b: (3, 3)}) == (0, None)
        assert ranges.polynomial_range(quotient, program.entry, run, within={w: (16, 40)}) == (2, 5)
        remainder = Polynomial.symbol(0, 1) - Polynomial.constant(8) * quotient
        assert ranges.polynomial_range(remainder, program.entry, run) == (0, 7)
        narrowed = {ranges.remainder_key(q): (2, 3)}
        assert ranges.polynomial_range(remainder, program.entry, run, within=narrowed) == (2, 3)
