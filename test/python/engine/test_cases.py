"""engine/cases.py on its own: conditions decided case by case under the function's
asserted conditions, without IR (every symbol a plain size); and engine/pruning.py's use of
it at clean-up."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st
from python_ints import holds_at

from torch_refine.calculations import facts
from torch_refine.calculations.store import FactStore
from torch_refine.engine import cases, comparison_groups, pruning
from torch_refine.symbolic.comparisons import INT_COMPARISONS, HashedKey
from torch_refine.symbolic.polynomial import Polynomial

# The quotient forms of one run (`FactStore.quotient_forms`), shared by this module's tests.
FORMS: dict = {}

A, B = Polynomial.symbol(0, 0), Polynomial.symbol(1, 0)
EQ = "torch.aten.eq.int"


def _constant(value: int) -> Polynomial:
    return Polynomial.constant(value)


def test_a_quotient_of_a_select_is_decided_by_an_assert_on_its_side():
    """A plain Llama's expand after a broadcast: `(128*s) // (64*b)` in {2, 1} for the
    broadcast `s = b if a == 1 else a`, once `(128*a) // (64*b)` in {2, 1} is asserted.
    Where `a == 1` the quotient is `(128*b) // (64*b)`, 2; elsewhere it is the asserted
    one, which the assertion reaches through the quotient's dividend (not a select side)."""
    asserted_quotient = facts.quotient(_constant(128) * A, _constant(64) * B, guarded=True, forms=FORMS)
    asserted = ("or", (EQ, asserted_quotient, _constant(2)), (EQ, asserted_quotient, _constant(1)))
    side = facts.select((EQ, A, _constant(1)), B, A)
    quotient = facts.quotient(_constant(128) * side, _constant(64) * B, guarded=True, forms=FORMS)
    key = ("or", (EQ, quotient, _constant(2)), (EQ, quotient, _constant(1)))
    assumptions = cases._relevant(key, [(asserted, True)])
    assert assumptions == ((asserted, True),)
    assert cases.decide_by_cases(key, None, FactStore(), {(1, 0, 1): (1, None)}, assumptions) is True


def test_a_broadcasts_equality_decides_by_its_cases():
    """`(y // 2) // 2 == x // 4` is open, but holds under each equality of an asserted
    `y // 2 == x // 2 or y // 2 == 1 or x // 2 == 1` that the ranges leave (x // 2 >= 2):
    `y // 4` is `(y // 2) // 2`, so `x // 4` once `y // 2` is `x // 2`."""
    half_x, half_y = facts.floor_divide(A, 2, forms=FORMS), facts.floor_divide(B, 2, forms=FORMS)
    key = (EQ, facts.floor_divide(half_y, 2, forms=FORMS), facts.floor_divide(A, 4, forms=FORMS))
    asserted = ("or", (EQ, half_y, half_x), ("or", (EQ, half_y, _constant(1)), (EQ, half_x, _constant(1))))
    (x_symbol,) = A.symbols()
    within = {x_symbol: (4, None)}
    assert cases.decide_by_cases(key, None, FactStore(), within, ()) is None
    assert cases.decide_by_cases(key, None, FactStore(), within, ((asserted, True),)) is None  # y // 2 == 1 is left
    (y_symbol,) = B.symbols()
    within[y_symbol] = (4, None)
    assert cases.decide_by_cases(key, None, FactStore(), within, ((asserted, True),)) is True


def test_a_select_case_the_ranges_exclude_is_skipped():
    """ONNX Reshape's `d if q == 0 else q` for `q = (y + 3) // 4`: where y >= 1, q is never
    0, so the select is `q` in every case that can happen (a legacy ShuffleNet's reshapes
    and concatenations: 8 asserts)."""
    quarter = facts.floor_divide(B + _constant(3), 4, forms=FORMS)
    chosen = facts.select((EQ, quarter, _constant(0)), A, quarter)
    (y_symbol,) = B.symbols()
    key = (EQ, chosen, quarter)
    assert cases.decide_by_cases(key, None, FactStore(), {}, ()) is None  # y == 0 makes it `x`
    assert cases.decide_by_cases(key, None, FactStore(), {y_symbol: (1, None)}, ()) is True


def test_a_hashed_key_is_the_plain_tuple_in_every_cache():
    """The case split's keys remember their hash (symbolic.comparisons.HashedKey): each
    equals, and hashes as, the plain tuple, so a cache filled with either finds the other."""
    plain = ("or", (EQ, A, _constant(1)), ("not", (EQ, B, A)))
    hashed = HashedKey(plain)
    assert hashed == plain
    assert hash(hashed) == hash(plain) == hash(hashed)
    assert {plain: True}[hashed]
    assert {hashed: True}[plain]
    assert cases._canonical(plain) == cases._canonical(hashed)


def _implied(key, assumptions, symbols, low: int = 0, high: int = 12) -> bool:
    """Whether `key` holds at every size of `symbols` in [low, high] where the assumptions
    hold (a division by zero is no case: the program stops before)."""
    for values in itertools.product(range(low, high + 1), repeat=len(symbols)):
        at = dict(zip(symbols, values, strict=True))
        try:
            if all(holds_at(assumed, at) is holds for assumed, holds in assumptions) and not holds_at(key, at):
                return False
        except ZeroDivisionError:
            continue
    return True


def _broadcast(a: Polynomial, b: Polynomial) -> tuple:
    """PyTorch's check of a broadcast of a and b, and its size."""
    return ("or", (EQ, a, b), (EQ, a, _constant(1)), (EQ, b, _constant(1))), facts.select((EQ, a, _constant(1)), b, a)


def test_a_view_after_two_broadcasts_is_decided_by_both():
    """A plain BERT's heads: the sum of two [?, ?, 32] tensors viewed as `[b0, b1, -1, 8]`
    checks `32*S0*S1 == 8*b0*b1 or (32*S0*S1) % (8*b0*b1) == 0` (S0, S1 the broadcast
    sizes). Each case of one broadcast's equalities leaves the other's open: it takes both,
    two splits deep (as clean-up splits)."""
    a0, a1, b0, b1 = (Polynomial.symbol(argument, dim) for argument in (0, 1) for dim in (0, 1))
    (check0, s0), (check1, s1) = _broadcast(a0, b0), _broadcast(a1, b1)
    numel, newsize = _constant(32) * s0 * s1, _constant(8) * b0 * b1
    remainder = numel - newsize * facts.quotient(numel, newsize, guarded=True, forms=FORMS)
    key = ("or", (EQ, numel, newsize), ("and", ("not", (EQ, numel, newsize)), (EQ, remainder, _constant(0))))
    assumptions = ((check0, True), (check1, True))
    symbols = sorted(s for p in (a0, a1, b0, b1) for s in p.symbols())
    assert _implied(key, assumptions, symbols, high=6)
    within = {symbol: (1, None) for symbol in (*b0.symbols(), *b1.symbols())}  # the view's division guards
    assert cases.decide_by_cases(key, None, FactStore(), within, assumptions, splits=1) is None
    assert cases.decide_by_cases(key, None, FactStore(), within, assumptions, splits=2) is True


def test_heads_after_two_views_make_the_batches_equal():
    """A plain Llama's views of x ([a, 256]) and its half to [b, -1, 64]: the checks say
    `(128*a) // (64*b)` is 2 or 1 and divides, and `(256*a) // (64*b)` is 4 or 1. Then `a ==
    b`: split by the first (`== 2`, `== 1`), a view check's conjunction gives its equality,
    and `b == 2*a` makes the second quotient 2, an assumption of constants that is false."""
    half, whole = (facts.quotient(_constant(n) * A, _constant(64) * B, guarded=True, forms=FORMS) for n in (128, 256))
    exact = ("or", (EQ, _constant(128) * A, _constant(64) * B),
             ("and", ("not", (EQ, _constant(128) * A, _constant(64) * B)),
              (EQ, _constant(128) * A - _constant(64) * half * B, _constant(0))))
    heads = ("or", (EQ, half, _constant(2)), (EQ, half, _constant(1)))
    broadcast = ("or", (EQ, whole, _constant(4)), (EQ, whole, _constant(1)))
    key = ("or", (EQ, A, B), ("or", (EQ, A, _constant(1)), (EQ, B, _constant(1))))
    assumptions = ((exact, True), (heads, True), (broadcast, True))
    assert _implied((EQ, A, B), assumptions, [(0, 0, 1), (1, 0, 1)], low=1, high=40)
    within = {(1, 0, 1): (1, None)}
    assert cases.decide_by_cases(key, None, FactStore(), within, assumptions, splits=1) is None
    assert cases.decide_by_cases(key, None, FactStore(), within, assumptions, splits=2) is True


def test_equal_squares_of_quotients_decide_a_view_after_their_broadcast():
    """SegFormer's stages: `P = ((y + 3) // 8)**2` and `Q = ((y + 7) // 8)**2` rows broadcast
    (`P == Q or P == 1 or Q == 1` asserted) and viewed to Q rows, where y >= 5 and the batch b
    >= 1: where `P != 1`, `P == Q` is `(y + 3) // 8 == (y + 7) // 8` (equal squares of sizes)
    and `Q == 1` puts y in [1, 8], so in [5, 8], where P is 1: no case."""
    y = Polynomial.symbol(0, 3)
    low, high = facts.floor_divide(y + _constant(3), 8, FORMS), facts.floor_divide(y + _constant(7), 8, FORMS)
    check, size = _broadcast(low * low, high * high)
    key = (EQ, size * A, high * high * A)
    (y_symbol,), (b_symbol,) = y.symbols(), A.symbols()
    assert _implied(key, [(check, True), (("torch.aten.ge.int", y, _constant(5)), True)], [y_symbol, b_symbol],
                    high=40)
    within = {y_symbol: (5, None), b_symbol: (1, None)}
    assert cases.decide_by_cases(key, None, FactStore(), within, ((check, True),)) is True
    assert cases.decide_by_cases(key, None, FactStore(), {b_symbol: (1, None)}, ((check, True),)) is None  # y in [1, 4]: 0 != 1


atoms = st.builds(lambda i, j: (EQ, _ATOM_SIDES[i], _ATOM_SIDES[j]), st.integers(0, 3), st.integers(0, 3))
conditions = st.recursive(atoms, lambda children: st.one_of(
    st.tuples(st.sampled_from(["and", "or"]), children, children), st.tuples(st.just("not"), children)),
    max_leaves=6)
_ATOM_SIDES = (A, B, _constant(1), A + B)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(conditions, st.integers(0, 3), st.integers(0, 3))
def test_a_condition_implies_one_of_its_equalities(condition, a, b):
    """Wherever a condition holds, one of the equalities `_one_of` reads off it holds (a
    conjunction's from one part): what splitting by them relies on."""
    equalities = cases._one_of(cases._canonical(condition))
    at = {(0, 0, 1): a, (1, 0, 1): b}
    if equalities is not None and holds_at(condition, at):
        assert any(holds_at(equality, at) for equality in equalities)


def test_an_assumption_of_constants_excludes_only_where_it_is_false():
    """An assumption a split made of constants excludes its case where it is false (`2 == 4`
    asserted), and says nothing where it is not an int comparison (a float's, whose truth
    the cases do not compute): the condition stays open there."""
    key = (EQ, A, B)
    false = (("or", (EQ, _constant(2), _constant(4)), (EQ, _constant(2), _constant(1))), True)
    opaque = (("or", ("torch.aten.lt.float", _constant(2), 4.0), ("torch.aten.lt.float", _constant(3), 1.0)), True)
    assert cases._truth(cases._question(key, (false,)), lambda p: (None, None)) is cases._EXCLUDED
    assert cases._truth(cases._question(key, (opaque,)), lambda p: (None, None)) is None


def test_questions_share_answers_only_under_the_same_assumptions_about_them():
    """A condition asked under assumptions that say nothing of it is one question with the
    condition asked alone (their answers shared); under one that speaks of it, or one of
    constants that is false, it is another."""
    key = ("or", (EQ, A, B), (EQ, A, _constant(1)))
    unrelated = (("or", (EQ, B, _constant(5)), (EQ, B, _constant(7))), True)
    speaking = ((EQ, B, A), True)
    false = ((EQ, _constant(2), _constant(4)), True)
    alone = cases._question(key, ())
    assert cases._question(key, (unrelated,)) is alone
    assert cases._question(key, (speaking,)) is not alone
    assert cases._question(key, (false,)) is not alone
    assert cases._truth(cases._question(key, (speaking,)), lambda p: (None, None)) is True
    assert cases._truth(alone, lambda p: (None, None)) is None
    assert cases._truth(cases._question(key, (false,)), lambda p: (None, None)) is cases._EXCLUDED


@settings(max_examples=100, deadline=None, derandomize=True, database=None)
@given(st.integers(-3, 3), st.integers(-3, 3), st.integers(-6, 6).filter(bool), st.integers(0, 4), st.integers(0, 4))
def test_an_equality_and_its_multiple_are_one_atom(a, b, factor, x, y):
    """`c*p == c*q` is the atom `p == q` for c > 0 (`_canonical`), and holds where it does at
    Python ints for every c != 0: an asserted view's `32*S0*S1 == 32*b0*b1` decides a
    broadcast's `b0*b1 == S0*S1`."""
    p, q = _constant(a) * A * B + B, _constant(b) * A + _constant(1)
    c = _constant(factor)
    if factor > 0:
        assert cases._canonical((EQ, c * p, c * q)) == cases._canonical((EQ, q, p))
    at = {(0, 0, 1): x, (1, 0, 1): y}
    assert holds_at(cases._canonical((EQ, c * p, c * q)), at) == holds_at((EQ, p, q), at)


def test_a_broadcast_of_rows_an_asserted_multiple_decides():
    """The rows `b0*b1` of a view and `S0*S1` of a broadcast: `b0*b1 == S0*S1 or b0*b1 == 1 or
    S0*S1 == 1` holds where `32*S0*S1 == 32*b0*b1` is asserted (fails without the reduction)."""
    a0, a1, b0, b1 = (Polynomial.symbol(argument, dim) for argument in (0, 1) for dim in (0, 1))
    (_, s0), (_, s1) = _broadcast(a0, b0), _broadcast(a1, b1)
    rows, broadcast_rows = b0 * b1, s0 * s1
    key = ("or", (EQ, rows, broadcast_rows), ("or", (EQ, rows, _constant(1)), (EQ, broadcast_rows, _constant(1))))
    asserted = (("not", (EQ, _constant(32) * broadcast_rows, _constant(32) * rows)), False)
    assert cases._truth(cases._question(key, (asserted,)), lambda p: (None, None)) is True


comparisons = st.tuples(st.sampled_from(sorted(INT_COMPARISONS)), st.integers(-4, 4).filter(bool), st.integers(-9, 9))


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.lists(comparisons, min_size=2, max_size=4), st.lists(st.booleans(), min_size=4, max_size=4),
       st.one_of(st.none(), st.integers(-5, 5)), st.one_of(st.none(), st.integers(0, 8)))
def test_comparisons_of_one_polynomial_are_satisfiable_where_a_value_is(members, truths, low, width):
    """`comparison_groups`: comparisons `c*n + k OP 0` of one polynomial
    n (here `a*b`) as assigned are satisfiable exactly where some value of n in its range
    makes them so, checked against Python ints over the range."""
    high = None if low is None or width is None else low + width
    n = A * B
    atoms = [(op, _constant(c) * n + _constant(k), _constant(0)) for op, c, k in members]
    if len(set(atoms)) != len(atoms):
        return
    assignment = dict(zip(atoms, truths, strict=False))
    groups = [(comparison_groups.candidates(members, (low, high)), members)
              for members in comparison_groups.by_polynomial(tuple(atoms)).values()]
    assert len(groups) == 1
    values = range(-30 if low is None else low, 31 if high is None else high + 1)
    expected = any(all(INT_COMPARISONS[op](c * v + k, 0) == assignment[atom]
                       for atom, (op, c, k) in zip(atoms, members, strict=True)) for v in values)
    assert comparison_groups.satisfiable(groups[0], assignment) == expected


def test_a_view_of_three_sizes_holds_for_every_product():
    """`32*n == 8*n or (32*n != 8*n and 8*n > 0)` holds for every n >= 0 (n over three sizes,
    too many to split): the two comparisons both compare n with 0 (fails without)."""
    n = A * B * Polynomial.symbol(2, 0) + A * B
    numel, newsize = _constant(32) * n, _constant(8) * n
    key = ("or", (EQ, numel, newsize), ("and", ("not", (EQ, numel, newsize)), ("torch.aten.gt.int", newsize, _constant(0))))
    assert cases.decide_by_cases(key, None, FactStore(), {}, ()) is True


range_guards = st.tuples(st.sampled_from(["torch.aten.ge.int", "torch.aten.gt.int", "torch.aten.le.int",
                                          "torch.aten.lt.int", "torch.aten.ne.int"]),
                         st.integers(1, 3), st.integers(-6, 6), st.booleans())


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(range_guards, range_guards)
def test_a_range_guard_within_a_kept_one_is_implied_by_it(first, second):
    """`_within_kept`: a guard giving a size a range is erased only where the range guards
    kept before put the size within it: wherever the first holds, so does the second
    (checked at Python ints over the sizes 0..60)."""
    def guard(op, coefficient, offset, holds):
        return (op, _constant(coefficient) * A + _constant(offset), _constant(0)), holds

    (key, holds), (later, later_holds) = guard(*first), guard(*second)
    bounds = pruning._range_of_guard(key, holds, {}, None, FactStore())
    if bounds is None:
        return
    ranged = {(0, bounds[0]): pruning.meet(pruning.ANY, bounds[1:])}
    if not pruning._within_kept(ranged, 0, pruning._range_of_guard(later, later_holds, {}, None, FactStore())):
        return
    for size in range(0, 61):
        at = {(0, 0, 1): size}
        if holds_at(key, at) is holds:
            assert holds_at(later, at) is later_holds, size


def test_an_equality_that_solves_for_no_size_is_taken_as_given_in_its_case():
    """A view's check that `64*b` divides `256*a`: `256*a == 64*b`, or `256*a - 64*b*q == 0`
    (q the quotient), which solves for no size. Split by the two, the first makes q 1 and
    the remainder 0; the second, taken as given in its case, is the remainder's equality:
    the remainder is 0 wherever the check holds (what makes a later `q == 4` an equality of
    `a` and `b`, engine/exact_quotients.py)."""
    dividend, divisor = _constant(256) * A, _constant(64) * B
    quotient = facts.quotient(dividend, divisor, forms=FORMS, guarded=True)
    remainder_zero = (EQ, dividend - divisor * quotient, _constant(0))
    same = (EQ, dividend, divisor)
    view = ("or", same, ("and", ("not", same), ("and", ("torch.aten.gt.int", divisor, _constant(0)), remainder_zero)))
    (b_symbol,) = B.symbols()
    assert cases.decide_by_cases(remainder_zero, None, FactStore(), {b_symbol: (1, None)}, ((view, True),)) is True


def test_a_check_over_two_broadcasts_reads_seven_asserted_conditions():
    """A plain Llama's attention after broadcasting two [?, ?] inputs (P = a0*a1 the first's
    sizes, Q = b0*b1 the second's): two views of P-sized rows by Q checked (`64*Q` divides
    `32*P`, and `16*P`), their heads `(32*P) // (8*Q)` in {4, 1} and `(16*P) // (8*Q)` in {2,
    1}, both broadcasts, and the expand of the broadcast rows `S = S0*S1` in {2, 1}: the
    attention's `(32*S) // (8*Q)` in {4, 1} follows from the seven, split by both
    broadcasts (a cross broadcast, a0 == 1 and b1 == 1, makes the expand's `2*a1` 2), as
    the clean-up reads a guard (`prune_implied_guards`)."""
    a0, a1, b0, b1 = (Polynomial.symbol(argument, dim) for argument in (0, 1) for dim in (0, 1))
    rows, other = a0 * a1, b0 * b1

    def heads(factor: int, sizes: Polynomial) -> Polynomial:
        return facts.quotient(_constant(factor) * sizes, _constant(8) * other, forms=FORMS, guarded=True)

    def one_of(quotient: Polynomial, value: int) -> tuple:
        return ("or", (EQ, quotient, _constant(value)), (EQ, quotient, _constant(1)))

    def view(factor: int) -> tuple:
        dividend, divisor = _constant(factor) * rows, _constant(8) * other
        same = (EQ, dividend, divisor)
        return ("or", same, ("and", ("not", same), (EQ, dividend - divisor * heads(factor, rows), _constant(0))))

    def broadcast(x: Polynomial, y: Polynomial) -> tuple:
        return ("or", (EQ, x, y), ("or", (EQ, x, _constant(1)), (EQ, y, _constant(1))))

    broadcast_rows = facts.select((EQ, a0, _constant(1)), b0, a0) * facts.select((EQ, a1, _constant(1)), b1, a1)
    asserted = [view(32), view(16), one_of(heads(16, rows), 2), one_of(heads(32, rows), 4), broadcast(a0, b0),
                broadcast(a1, b1), one_of(heads(16, broadcast_rows), 2)]
    key = one_of(heads(32, broadcast_rows), 4)
    within = {symbol: (1, None) for symbol in (*b0.symbols(), *b1.symbols())}
    assumptions = cases._relevant(key, [(condition, True) for condition in asserted], pruning._PRUNING_ASSUMPTIONS)
    assert cases.decide_by_cases(key, None, FactStore(), within, assumptions, pruning._PRUNING_SPLITS) is True


class _Assertion:
    """An entry guard's assert op, as much of it as the clean-up touches."""

    def __init__(self) -> None:
        self.erased = False

    def erase(self) -> None:
        self.erased = True


def test_a_guard_repeating_a_kept_one_with_its_sides_swapped_goes(monkeypatch):
    """A plain T5's attention checks its heads against 4 twice, once as `q == 4 or ...` and
    once as `4 == q or ...`: one fact, so the second goes at clean-up (the case split,
    which leaves a guard's own fact out of its assumptions, cannot decide it)."""
    quotient = facts.quotient(_constant(256) * A, _constant(64) * B, forms=FORMS, guarded=True)
    empty = (EQ, _constant(64) * quotient * B, _constant(0))
    first = ("or", empty, ("or", (EQ, quotient, _constant(4)), (EQ, quotient, _constant(1))))
    second = ("or", empty, ("or", (EQ, _constant(4), quotient), (EQ, quotient, _constant(1))))
    store = FactStore()
    assertions = [_Assertion(), _Assertion()]
    for key in (first, second):
        store.assume(0, key, True, "an entry guard")
    monkeypatch.setattr(pruning.guards, "entry_guards",
                        lambda module, run: [(0, None, op, key, True) for op, key in zip(assertions, (first, second))])
    pruning.prune_implied_guards(None, store)
    assert [op.erased for op in assertions] == [False, True]


def test_an_equality_that_replaced_a_quotient_is_assumed_in_each_case():
    """A plain ConvBERT's view asserted `(s*t) // b0 == b1`, `s = b0 if a0 == 1 else a0` a
    broadcast of the batches, and replaced the quotient by b1; its matmul then checks
    `b0*b1 == s*t`. Split by the broadcast's check, the quotient is rebuilt from what it
    reads in each case (`t` where s is b0, `a0*t` where b0 is 1), and the replacement, taken
    as given there, makes the matmul's check hold."""
    a0, b0, b1, t = (Polynomial.symbol(argument, 0) for argument in range(4))
    broadcast = facts.select((EQ, a0, _constant(1)), b0, a0)
    quotient = facts.quotient(broadcast * t, b0, forms=FORMS, guarded=True)
    (quotient_symbol,) = quotient.symbols()
    key = (EQ, b0 * b1, broadcast * t)
    asserted = (("or", (EQ, a0, b0), ("or", (EQ, a0, _constant(1)), (EQ, b0, _constant(1)))), True)
    within = {symbol: (1, None) for symbol in b0.symbols()}
    replaced = pruning._replaced_quotients(key, {quotient_symbol: b1})
    assert len(replaced) == 1
    assert cases.decide_by_cases(key, None, FactStore(), within, (asserted,), pruning._PRUNING_SPLITS) is None
    assert cases.decide_by_cases(key, None, FactStore(), within, (asserted, *replaced), pruning._PRUNING_SPLITS) is True
