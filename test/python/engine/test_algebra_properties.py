"""Properties of the integer algebra (symbolic/polynomial.py, and calculations/facts.py's quotients
and remainders by constants) against Python ints, over random expressions (issue 41, item 2).

Each expression is built twice: as Python computes it at given sizes, and as a polynomial
through the algebra's public functions, whose value at those sizes (its quotient symbols
computed as Python's `//`) must be the same. The identities issue 41 names must hold as
equal normal forms, not only as equal values.
"""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st
from python_ints import value

from torch_refine.calculations import facts
from torch_refine.symbolic.polynomial import Polynomial, format_polynomial, parse_polynomial

# The quotient forms of one run (`FactStore.quotient_forms`), shared by this module's tests.
FORMS: dict = {}

X, Y = Polynomial.symbol(0, 0), Polynomial.symbol(0, 1)
(X_SYMBOL,), (Y_SYMBOL,) = X.symbols(), Y.symbols()
PROPERTIES = settings(max_examples=100, deadline=None, derandomize=True, database=None)

sizes = st.fixed_dictionaries({X_SYMBOL: st.integers(-50, 300), Y_SYMBOL: st.integers(-50, 300)})
small = st.integers(-12, 12)
positive = st.integers(1, 12)


# An expression is a tree: ("x",) ("y",) ("int", c) ("add"|"sub"|"mul", a, b)
# ("floordiv"|"remainder", a, k) with k a positive constant.
leaves = st.one_of(st.just(("x",)), st.just(("y",)), st.tuples(st.just("int"), small))


def _extend(children):
    binary = st.tuples(st.sampled_from(["add", "sub", "mul"]), children, children)
    by_constant = st.tuples(st.sampled_from(["floordiv", "remainder"]), children, positive)
    return st.one_of(binary, by_constant)


expressions = st.recursive(leaves, _extend, max_leaves=8)


def python_value(tree, at: dict) -> int:
    kind = tree[0]
    if kind in ("x", "y"):
        return at[X_SYMBOL if kind == "x" else Y_SYMBOL]
    if kind == "int":
        return tree[1]
    lhs = python_value(tree[1], at)
    rhs = tree[2] if kind in ("floordiv", "remainder") else python_value(tree[2], at)
    return {"add": lhs + rhs, "sub": lhs - rhs, "mul": lhs * rhs,
            "floordiv": lhs // max(rhs, 1), "remainder": lhs % max(rhs, 1)}[kind]


def polynomial_of(tree) -> Polynomial:
    kind = tree[0]
    if kind in ("x", "y"):
        return X if kind == "x" else Y
    if kind == "int":
        return Polynomial.constant(tree[1])
    lhs = polynomial_of(tree[1])
    if kind == "floordiv":
        return facts.floor_divide(lhs, tree[2], forms=FORMS)
    if kind == "remainder":
        return facts.remainder(lhs, tree[2], forms=FORMS)
    rhs = polynomial_of(tree[2])
    return {"add": lhs + rhs, "sub": lhs - rhs, "mul": lhs * rhs}[kind]


@PROPERTIES
@given(expressions, sizes)
def test_the_algebra_computes_what_python_computes(tree, at):
    assert value(polynomial_of(tree), at) == python_value(tree, at)


@PROPERTIES
@given(expressions, positive, small)
def test_a_multiple_of_the_divisor_leaves_the_quotient(tree, divisor, multiple):
    """`(x - k*d) // d == x // d - k`, as one normal form."""
    x = polynomial_of(tree)
    shifted = x - Polynomial.constant(multiple * divisor)
    assert facts.floor_divide(shifted, divisor, forms=FORMS) == facts.floor_divide(x, divisor, forms=FORMS) - Polynomial.constant(multiple)


@PROPERTIES
@given(small, positive, positive)
def test_a_quotient_of_a_quotient_of_a_size_is_one_quotient(offset, inner, outer):
    """`(x + c) // a // b == (x + c) // (a*b)`: ConvNeXt's stages (issue 41's second tautology)."""
    x = X + Polynomial.constant(offset)
    assert facts.floor_divide(facts.floor_divide(x, inner, forms=FORMS), outer, forms=FORMS) == facts.floor_divide(x, inner * outer, forms=FORMS)


polynomials = st.recursive(leaves, lambda children: st.tuples(st.sampled_from(["add", "sub", "mul"]), children, children),
                           max_leaves=8)


@PROPERTIES
@given(polynomials, positive, positive)
def test_a_quotient_of_a_quotient_of_a_polynomial_is_one_quotient(tree, inner, outer):
    """`(p // a) // b == p // (a*b)` for every integer polynomial and positive constants,
    common factors included (`(2*x) // 4` is `x // 2`)."""
    x = polynomial_of(tree)
    assert facts.floor_divide(facts.floor_divide(x, inner, forms=FORMS), outer, forms=FORMS) == facts.floor_divide(x, inner * outer, forms=FORMS)


@PROPERTIES
@example(("remainder", ("x",), 5), 2, 2)
@given(expressions, positive, positive)
def test_a_quotient_of_a_quotient_is_one_quotient(tree, inner, outer):
    """`(x // a) // b == x // (a*b)` for positive constants, as one normal form."""
    x = polynomial_of(tree)
    assert facts.floor_divide(facts.floor_divide(x, inner, forms=FORMS), outer, forms=FORMS) == facts.floor_divide(x, inner * outer, forms=FORMS)


@PROPERTIES
@given(polynomials, positive, small, positive)
def test_a_quotient_of_a_remainder_within_one_multiple_is_a_constant(tree, modulus, offset, divisor):
    """`(p % d + c) // k` for an integer polynomial p is the constant `c // k` where `c`
    and `d - 1 + c` divide to it: `(x % 2) // 4` is 0, at every size, negative ones too.
    (Over p reading remainders itself the relaxation may lose the relation: `(x + x % 2)
    % 4` is `4*t2 - 2*t1`, two quotients of x relaxed apart.)"""
    quotient = facts.floor_divide(facts.remainder(polynomial_of(tree), modulus, forms=FORMS) + Polynomial.constant(offset), divisor, forms=FORMS)
    if offset // divisor == (modulus - 1 + offset) // divisor:
        assert quotient == Polynomial.constant(offset // divisor)


@PROPERTIES
@given(expressions, positive)
def test_the_remainder_is_what_the_quotient_leaves(tree, divisor):
    """`x - d*(x // d) == x % d`, as one normal form."""
    x = polynomial_of(tree)
    assert x - Polynomial.constant(divisor) * facts.floor_divide(x, divisor, forms=FORMS) == facts.remainder(x, divisor, forms=FORMS)


@PROPERTIES
@given(expressions, positive, sizes)
def test_a_remainder_is_within_its_divisor(tree, divisor, at):
    assert 0 <= value(facts.remainder(polynomial_of(tree), divisor, forms=FORMS), at) < divisor


@PROPERTIES
@given(polynomials, positive)
def test_the_range_of_a_remainder_is_within_its_divisor(tree, divisor):
    """The range fact of `x % d` for d > 0: [0, d - 1], as `ranges.polynomial_range` states
    it over any integer polynomial x (each size at least 0; negative coefficients too). (Of
    an x reading remainders the relaxation may lose it: `(x + x % 2) % 4` is `2*x - 2*(x //
    2) - 4*((x + 1) // 4)`, its quotients relaxed apart, in [-1, 3].)"""
    from torch_refine.calculations.ranges import polynomial_range

    least, greatest = polynomial_range(facts.remainder(polynomial_of(tree), divisor, forms=FORMS), None, None)
    assert least is not None
    assert greatest is not None
    assert 0 <= least <= greatest <= divisor - 1


@PROPERTIES
@given(st.integers(0, 200), st.integers(0, 200), small, positive, small)
def test_the_range_of_a_quotient_is_its_dividends_divided(low, width, offset, divisor, multiple):
    """The range fact of `(x + c) // d` over x in [lo, hi]: exactly [(lo + c) // d, (hi + c)
    // d], and the same shifted by k for `(x + c - k*d) // d`."""
    from torch_refine.calculations.ranges import polynomial_range

    within = {X_SYMBOL: (low, low + width)}
    dividend = X + Polynomial.constant(offset)
    expected = ((low + offset) // divisor, (low + width + offset) // divisor)
    assert polynomial_range(facts.floor_divide(dividend, divisor, forms=FORMS), None, None, within) == expected
    shifted = facts.floor_divide(dividend - Polynomial.constant(multiple * divisor), divisor, forms=FORMS)
    assert polynomial_range(shifted, None, None, within) == (expected[0] - multiple, expected[1] - multiple)


@PROPERTIES
@given(st.integers(1, 5), small, positive, st.integers(-3, 10), st.one_of(st.none(), st.integers(0, 6)))
def test_a_quotients_bounds_are_its_dividends_symbols(coefficient, offset, divisor, low, width):
    """`facts.dividend_bounds`: `(c*y + d) // k` in [low, high] exactly where y is in the
    bounds it gives (`(y + 7) // 8 == 1` is y in [1, 8]), over every y."""
    normal = facts.floor_divide(Polynomial.constant(coefficient) * X + Polynomial.constant(offset), divisor,
                                forms=FORMS)
    quotients = [symbol for symbol in normal.symbols() if facts.definition(symbol)]
    if not quotients:  # k divides it
        return
    (symbol,) = quotients
    _, dividend, symbol_divisor = facts.definition(symbol)
    high = None if width is None else low + width
    inner, least, greatest = facts.dividend_bounds(symbol, low, high)
    assert inner == X_SYMBOL
    for y in range(-100, 101):
        quotient = value(dividend, {X_SYMBOL: y}) // symbol_divisor
        inside = low <= quotient and (high is None or quotient <= high)
        assert inside == (least <= y and (greatest is None or y <= greatest)), y


@PROPERTIES
@given(st.integers(1, 4), st.integers(-5, 5).filter(bool), st.integers(-6, 6), st.booleans())
def test_equal_powers_of_sizes_are_equal_sizes(exponent, coefficient, root, sizes_only):
    """`facts.solve_powers`: `c*u**k == c*v**k` and `c*u**k == c*r**k` say `u == v` and `u ==
    r` wherever they hold, u and v at least 0 (`sizes_only`) or any integer for an odd k."""
    power = Polynomial.constant(coefficient)
    for _ in range(exponent):
        power = power * X
    other = Polynomial.constant(coefficient)
    for _ in range(exponent):
        other = other * Y
    low = 0 if sizes_only else -20
    least = (lambda _symbol: 0) if sizes_only else (lambda _symbol: None)
    for difference in (power - other, power - Polynomial.constant(coefficient * root**exponent)):
        solved = facts.solve_powers(difference, least)
        if solved is None:
            continue
        symbol, solution = solved
        for x in range(low, 21):
            for y in range(low, 21):
                at = {X_SYMBOL: x, Y_SYMBOL: y}
                if value(difference, at) == 0:
                    assert at[symbol] == value(solution, at), (difference, at)


# -- the polynomial ring alone (symbolic/polynomial.py) -------------------------------------------

ring_leaves = st.one_of(st.just(X), st.just(Y), small.map(Polynomial.constant))
polynomials = st.recursive(
    ring_leaves,
    lambda children: st.tuples(st.sampled_from(["add", "sub", "mul"]), children, children).map(
        lambda t: {"add": t[1] + t[2], "sub": t[1] - t[2], "mul": t[1] * t[2]}[t[0]]),
    max_leaves=6)


@PROPERTIES
@given(polynomials, polynomials, sizes)
def test_ring_operations_agree_with_ints(a, b, at):
    assert value(a + b, at) == value(a, at) + value(b, at)
    assert value(a - b, at) == value(a, at) - value(b, at)
    assert value(a * b, at) == value(a, at) * value(b, at)
    assert value(-a, at) == -value(a, at)


@PROPERTIES
@given(polynomials, polynomials)
def test_exact_division_undoes_multiplication(a, b):
    if not b.terms:
        return
    assert (a * b).exact_divide(b) == a
    quotient = a.exact_divide(b)
    if quotient is not None:
        assert quotient * b == a


@PROPERTIES
@given(polynomials, polynomials, sizes)
def test_substitution_is_evaluation(a, replacement, at):
    substituted = a.substitute({X_SYMBOL: replacement})
    assert value(substituted, at) == value(a, {**at, X_SYMBOL: value(replacement, at)})


@PROPERTIES
@given(polynomials, st.integers(-12, 12).filter(bool), sizes)
def test_polynomial_floor_division_is_pythons_where_defined(a, divisor, at):
    quotient, rest = a.floor_divide(divisor), a.floor_remainder(divisor)
    if quotient is None:
        assert rest is None
        return
    assert value(quotient, at) == value(a, at) // divisor
    assert value(rest, at) == value(a, at) % divisor


@PROPERTIES
@given(polynomials)
def test_text_round_trips(a):
    assert parse_polynomial(format_polynomial(a)) == a


# -- ranges of quotients of one size (calculations/ranges.py) -------------------------------

quotient_terms = st.lists(st.tuples(st.integers(-3, 3), st.integers(1, 4), st.integers(-6, 6), st.integers(1, 16)),
                          min_size=1, max_size=3)


@PROPERTIES
@given(quotient_terms, st.integers(-3, 3), st.integers(0, 400))
def test_the_range_of_quotients_of_one_size_holds_at_every_size(terms, slope, at):
    """`sum c * ((a*x + b) // k) + slope*x` lies in polynomial_range's range at every size:
    the relaxed range (each quotient `p / k - t`) is never tighter than the truth."""
    from torch_refine.calculations.ranges import polynomial_range

    polynomial = Polynomial.constant(slope) * X
    truth = slope * at
    for coefficient, a, b, k in terms:
        dividend = Polynomial.constant(a) * X + Polynomial.constant(b)
        polynomial = polynomial + Polynomial.constant(coefficient) * facts.floor_divide(dividend, k, forms=FORMS)
        truth += coefficient * ((a * at + b) // k)
    least, greatest = polynomial_range(polynomial, None, None)
    assert least is None or least <= truth
    assert greatest is None or truth <= greatest


def test_quotients_of_one_size_are_related_by_their_ranges():
    """What the relaxation decides: `x // 4 >= (3*x) // 16`, `(x + 3) // 4 - x // 4` in
    [0, 1], `x % 4` in [0, 3] (a SegFormer stage's `2*((x + 7) // 8) - (x + 3) // 4` too)."""
    from torch_refine.calculations.ranges import polynomial_range

    def quotient(a: int, b: int, k: int) -> Polynomial:
        return facts.floor_divide(Polynomial.constant(a) * X + Polynomial.constant(b), k, forms=FORMS)

    assert polynomial_range(quotient(1, 0, 4) - quotient(3, 0, 16), None, None) == (0, None)
    assert polynomial_range(quotient(1, 3, 4) - quotient(1, 0, 4), None, None) == (0, 1)
    assert polynomial_range(X - Polynomial.constant(4) * quotient(1, 0, 4), None, None) == (0, 3)
    assert polynomial_range(Polynomial.constant(2) * quotient(1, 7, 8) - quotient(1, 3, 4), None, None) == (0, 1)
