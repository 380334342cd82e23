"""Units of calculations/facts.py that the pipeline tests reach only through whole
programs: selects decided by their condition, equalities solved past a common factor,
defined symbols decided by replacements."""

from __future__ import annotations

from torch_refine.calculations import facts
from torch_refine.calculations.store import FactStore
from torch_refine.symbolic.polynomial import Polynomial

# The quotient forms of one run (`FactStore.quotient_forms`), shared by this module's tests.
FORMS: dict = {}

A = Polynomial.symbol(0, 0)
B = Polynomial.symbol(0, 1)
ZERO, ONE = Polynomial.constant(0), Polynomial.constant(1)
EQ, NE = "torch.aten.eq.int", "torch.aten.ne.int"


def _defines_select(value: Polynomial) -> bool:
    (symbol,) = value.symbols()
    return facts.definition(symbol)[0] == facts.SELECT


def test_select_is_the_side_its_condition_makes_equal():
    """ONNX Reshape's `d if s == 0 else s` is `s` where `d` is a multiple of `s`; a
    broadcast's `1 if a == 1 else a` is `a`; `!=` chooses the other side."""
    assert facts.select((EQ, A, ZERO), A * B, A) == A
    assert facts.select((EQ, A, ONE), ONE, A) == A
    assert facts.select((NE, A, ZERO), A, A * B) == A
    assert facts.select((EQ, A, B), B, A) == A
    assert facts.select((EQ, A, ZERO), B, A) == facts.select((EQ, A, ZERO), B, A)  # one symbol per key
    assert _defines_select(facts.select((EQ, A, ZERO), B, A))  # b is not 0 where a is
    assert _defines_select(facts.select((EQ, A * B, ZERO), A, A * B))


def test_equality_with_a_common_factor_replaces_a_symbol():
    """`20*s == 20*a*b` (a reshape's element count) replaces `s` by `a*b`."""
    computed = facts.fresh()
    (symbol,) = computed.symbols()
    assert facts.solve(Polynomial.constant(20) * (computed - A * B), {}) == (symbol, A * B)


def test_replacements_decide_a_select_through_its_sides():
    """`rows if b == 0 else b` where rows is `select(a*b == 0, a, a*b)`: once the first
    select is known to be `a*b` (a reshape's check), the second is `b`."""
    rows = facts.select((EQ, A * B, ZERO), A, A * B)
    copied = facts.select((EQ, B, ZERO), rows, B)
    assert _defines_select(copied)
    (rows_symbol,) = rows.symbols()
    assert facts.resolved(copied, {rows_symbol: A * B}, forms=FORMS) == B
    assert facts.resolved(copied, {}, forms=FORMS) == copied


def test_condition_of_a_comparison_read_as_an_int():
    assert facts.condition_of(facts.truth_of((EQ, A, ZERO))) == (EQ, A, ZERO)
    assert facts.condition_of(A) == (NE, A, ZERO)
    assert facts.truth_of((EQ, A + ONE, A)) == ZERO  # never holds: the select is its other side


def _value(polynomial: Polynomial, sizes: dict) -> int:
    """`polynomial` at argument sizes `sizes` (symbol -> int), its quotients by constants
    computed as Python computes `//`."""
    total = 0
    for monomial, coefficient in polynomial.terms.items():
        product = coefficient
        for symbol in monomial:
            found = facts.definition(symbol)
            product *= sizes[symbol] if found is None else _value(found[1], sizes) // found[2]
        total += product
    return total


def test_quotients_by_constants_have_one_normal_form():
    """The identities PyTorch's own algebra normalises by construction: `(x - 4) // 4` is
    `x // 4 - 1` (ConvNeXt's residual after its stride-4 stem asserted one equal to the
    other), `(x // 4 - 2) // 2` is `x // 8 - 1`, and `x - d*(x // d)` is `x % d`."""
    x = A
    four, two = Polynomial.constant(4), Polynomial.constant(2)
    assert facts.floor_divide(x - four, 4, forms=FORMS) + ONE == facts.floor_divide(x, 4, forms=FORMS)
    assert facts.floor_divide(facts.floor_divide(x, 4, forms=FORMS) - two, 2, forms=FORMS) + ONE == facts.floor_divide(x, 8, forms=FORMS)
    assert facts.floor_divide(facts.floor_divide(x, 4, forms=FORMS), 2, forms=FORMS) == facts.floor_divide(x, 8, forms=FORMS)
    assert x - four * facts.floor_divide(x, 4, forms=FORMS) == facts.remainder(x, 4, forms=FORMS)
    assert facts.floor_divide(four * x + Polynomial.constant(7), 4, forms=FORMS) == x + ONE
    assert facts.remainder(four * x + Polynomial.constant(7), 4, forms=FORMS) == Polynomial.constant(3)


def test_quotients_and_remainders_agree_with_python_ints():
    """Random polynomials in two sizes, divided by random constants (nested up to three
    deep), evaluated at random sizes: the normal form computes what Python computes."""
    import random

    generator = random.Random(0)
    (a,), (b,) = A.symbols(), B.symbols()
    for _ in range(400):
        expression = Polynomial({(): generator.randint(-20, 20)})
        for monomial in ((a,), (b,), (a, b)):
            expression = expression + Polynomial({monomial: generator.randint(-6, 6)})
        truth = lambda sizes, e=expression: _value(e, sizes)  # noqa: E731
        for _ in range(generator.randint(1, 3)):
            divisor, offset = generator.randint(1, 9), generator.randint(-9, 9)
            quotient = facts.floor_divide(expression, divisor, forms=FORMS) + Polynomial.constant(offset)
            truth = lambda sizes, t=truth, k=divisor, c=offset: t(sizes) // k + c  # noqa: E731
            expression = quotient
        modulus = generator.randint(1, 9)
        remainder = facts.remainder(expression, modulus, forms=FORMS)
        for _ in range(20):
            sizes = {a: generator.randint(0, 200), b: generator.randint(0, 200)}
            assert _value(expression, sizes) == truth(sizes)
            assert _value(remainder, sizes) == truth(sizes) % modulus


def test_a_quotients_range_reaches_its_dividend():
    """`x // 8 >= 1` asserted (the normal form of a second stage's `(x // 4 - 2) // 2 + 1
    >= 1`) puts `x` at 8 or more, so `x // 4 >= 2` needs no assert of its own; an upper
    bound reaches it too (`x // 4 <= 3` is `x <= 15`)."""
    x = Polynomial.symbol(7, 2)
    (symbol,) = x.symbols()
    function_key = 987654
    store = FactStore()
    assert store.add_range(function_key, ("torch.aten.ge.int", facts.floor_divide(x, 8, forms=FORMS), ONE), True)
    assert store.asserted_range(function_key, symbol) == (8, None)
    assert store.add_range(function_key, ("torch.aten.le.int", facts.floor_divide(x, 4, forms=FORMS), Polynomial.constant(3)),
                           True)
    assert store.asserted_range(function_key, symbol) == (8, 15)


def test_a_replaced_sizes_range_bounds_what_replaces_it():
    """`x >= 1` asserted, then `2*((x + 1) // 2) == x` (an even size, a stride-2 round trip)
    replaces x by `2*q`: q is at least 1 (its range is what x's was, halved), which decides
    a later `2*q >= 1` (a U-Net's convolution check)."""
    function_key = -41
    (x_symbol,) = A.symbols()
    half = facts.floor_divide(A + ONE, 2, forms=FORMS)
    (q_symbol,) = half.symbols()
    store = FactStore()
    store.add_range(function_key, ("torch.aten.ge.int", A, ONE), True)
    store.add_equality(function_key, Polynomial.constant(2) * half, A)
    assert store.replacements(function_key) == {x_symbol: Polynomial.constant(2) * half}
    assert store.asserted_range(function_key, q_symbol) == (1, None)


def test_an_equality_with_a_common_nonzero_factor_replaces_a_symbol():
    """A SegFormer view's `h*w*n == w*w*n` with `w >= 2` and `n >= 1` asserted is `h == w`
    (`w*n` divides out): w's quotient `h` replaces it, and a quotient through the replaced
    one follows (`(x + 7) // 8` is `(w + 1) // 2` for `w = (x + 3) // 4`, so `(y + 7) //
    8` once `w` is `(y + 3) // 4`)."""
    function_key = -42
    x, y, n = Polynomial.symbol(0, 2), Polynomial.symbol(0, 3), Polynomial.symbol(0, 0)
    w, h = facts.floor_divide(x + Polynomial.constant(3), 4, forms=FORMS), facts.floor_divide(y + Polynomial.constant(3), 4, forms=FORMS)
    store = FactStore()
    store.add_range(function_key, ("torch.aten.ge.int", w, Polynomial.constant(2)), True)
    store.add_range(function_key, ("torch.aten.ne.int", n, ZERO), True)
    store.add_equality(function_key, h * w * n, w * w * n)
    replacements = store.replacements(function_key)
    assert facts.resolved(w, replacements, forms=FORMS) == facts.resolved(h, replacements, forms=FORMS)
    eighth_x = facts.floor_divide(x + Polynomial.constant(7), 8, forms=FORMS)
    eighth_y = facts.floor_divide(y + Polynomial.constant(7), 8, forms=FORMS)
    assert facts.resolved(eighth_x, replacements, forms=FORMS) == facts.resolved(eighth_y, replacements, forms=FORMS)
