"""Ranges of symbolic sizes: what a program says of its dynamic dims.

Imported with symbolic shape expressions, a program states the range torch.export gave
each dynamic dim: `torch.symbolic_int "s0" {min_val = 2, max_val = 64}`, bound to argument
dims by `torch.bind_symbolic_shape`. torch.export only accepts inputs in those ranges (its
program checks them), so a calculation may rely on them: `seq >= 64` is false when the
sequence length is at most 32 (a slice of a 64-long buffer keeps the symbol), `batch != 1`
is true when the batch is at least 2 (a broadcast keeps the batch). Every other size is
at least 0.

A memo key of a calculation that may read ranges carries its function's
`range_signature`: functions whose symbols have other ranges do not share results.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import operator
from fractions import Fraction

from torch_mlir import ir

from torch_refine.calculations import facts
from torch_refine.calculations.binds import bound_expression, function_argument
from torch_refine.calculations.store import FactStore
from torch_refine.ir import types
from torch_refine.ir.constants import op_key
from torch_refine.symbolic.comparisons import INT_COMPARISONS, NEGATED
from torch_refine.symbolic.polynomial import Polynomial, Symbol, is_computed

Range = tuple[int, int | None]  # (least, greatest or None when unbounded)
Bound = tuple[int | None, int | None]  # (least, greatest), None where unbounded
ANY: Bound = (None, None)
_SIZE = (0, None)
# torch.export's unbounded max (int_oo) is imported as a huge number.
_UNBOUNDED = 2**62


def enclosing_function(op):
    """The `func.func` an op is nested in, or None."""
    parent = op.operation.parent
    while parent is not None and parent.name != "func.func":
        parent = parent.parent
    return parent


def entry_block_of(op) -> ir.Block | None:
    """The entry block of the function `op` is nested in, whose binds state the ranges."""
    function = enclosing_function(op)
    return function.regions[0].blocks[0] if function is not None else None


def symbol_range(entry_block: ir.Block, symbol: Symbol, run: FactStore | None) -> Range:
    """A symbol's range as the program states it (`_stated_range`), narrowed by the
    comparisons asserted at the function's entry (`FactStore.add_range` of the run's store
    `run`; None: no run, the stated range alone). Within a refinement it is remembered
    until a range changes: a defined symbol's range is its definition's, which a case
    split asks for thousands of times."""
    cache = None if run is None else run.refinement_cache()
    if cache is None:
        return _narrowed_range(entry_block, symbol, run)
    key = ("symbol range", entry_block, symbol, run.range_count())  # a block hashes as its pointer
    if key not in cache:
        cache[key] = _narrowed_range(entry_block, symbol, run)
    return cache[key]


def _narrowed_range(entry_block: ir.Block, symbol: Symbol, run: FactStore | None) -> Range:
    least, greatest = _stated_range(entry_block, symbol, run)
    asserted = _asserted_range(entry_block, symbol, run)
    if asserted is None:
        return least, greatest
    low, high = asserted
    return max(least, low), high if greatest is None else greatest if high is None else min(greatest, high)


def _stated_range(entry_block: ir.Block, symbol: Symbol, run: FactStore | None) -> Range:
    """The range of an argument dim over its divisor (polynomial.Symbol): its bind's
    expression over `torch.symbolic_int`s (a symbol, or sums and products of symbols and
    constants, as `s0 * 8` for an image size exported as a multiple of 8) divided."""
    argument_number, dim, divisor = symbol
    if is_computed(symbol):
        return _computed_range(entry_block, symbol, run)
    if argument_number >= len(entry_block.arguments):
        return _SIZE
    bound = bound_expression(entry_block.arguments[argument_number], dim, run)
    if bound is None:
        return _SIZE
    bind, expression = bound
    least, greatest = _expression_range(expression, list(bind.operands)[1:])
    least = -(-max(least, 0) // divisor)
    return least, None if greatest is None else greatest // divisor


def _computed_range(entry_block: ir.Block, symbol: Symbol, run: FactStore | None) -> Range:
    """A fresh symbol is a size; a select is within its sides' ranges, each where the
    select's condition picks it (`min(x, 0)` of a program's number may be negative); a
    floor division within its dividend's divided."""
    definition = facts.definition(symbol)
    if definition is None:
        return _SIZE
    if definition[0] == facts.FLOOR_DIVIDE:
        _, dividend, divisor = definition
        low, high = polynomial_range(dividend, entry_block, run)
        if isinstance(divisor, Polynomial):
            return _quotient_range(low, high, polynomial_range(divisor, entry_block, run)[0])
        return (0 if low is None else max(0, low // divisor)), None if high is None else high // divisor
    _, condition, then, otherwise = definition
    low_a, high_a = polynomial_range(then, entry_block, run, within_condition(condition, True, entry_block, run))
    low_b, high_b = polynomial_range(otherwise, entry_block, run, within_condition(condition, False, entry_block, run))
    least = None if low_a is None or low_b is None else min(low_a, low_b)
    greatest = None if high_a is None or high_b is None else max(high_a, high_b)
    return least, greatest


def within_condition(condition: tuple, holds: bool, entry_block: ir.Block | None,
                     run: FactStore | None) -> dict | None:
    """The range of the symbol a condition bounds where it holds (`holds`) or fails, for
    `polynomial_range`'s `within`: `s >= 1` where `s == 0` fails, for the side of a select
    (ONNX Reshape's `6 if s == 0 else s` is at least 1)."""
    def own_range(symbol: Symbol) -> Range:
        return polynomial_range(Polynomial({(symbol,): 1}), entry_block, run)

    bounds = facts.condition_bounds(condition, holds, {}, own_range)
    if bounds is None:  # of a remainder; no value at all is the empty range (1, 0)
        found = _remainder_values(condition, holds, lambda key: _asserted_range(entry_block, key, run))
        return None if found is None else {found[0]: (min(found[1]), max(found[1])) if found[1] else (1, 0)}
    symbol, low, high = bounds
    narrowed = {symbol: meet((low, high), own_range(symbol))}
    through = facts.dividend_bounds(symbol, *narrowed[symbol])  # `(y + 7) // 8 == 1`: y in [1, 8]
    if through is not None:
        narrowed[through[0]] = meet(through[1:], own_range(through[0]))
    return narrowed


def _asserted_range(entry_block: ir.Block | None, symbol: Symbol, run: FactStore | None) -> Range | None:
    """What the asserted comparisons of the run `run` say of `symbol`, or None."""
    if entry_block is None or run is None or not run.has_ranges():
        return None
    return run.asserted_range(op_key(entry_block.owner), symbol)


def quotient_by_ranges(dividend: Polynomial, divisor: Polynomial, entry_block: ir.Block | None,
                       run: FactStore | None) -> int | None:
    """`dividend // divisor` (a polynomial) where the ranges decide it: the dividend is
    `m * divisor + rest`, m the ratio of their linear forms, with rest in [0, divisor)
    wherever each select it reads is split by its condition. torch-mlir's adaptive pool
    of 7 on h pools `(h - h // 7 - s) // (h // 7)` rows, `s` being `h % 7 != 0`: 6 where
    the program asserts `h % 7` in [0, 1] and `h // 7 >= 1`. None where they do not."""
    if entry_block is None or not any(_linear_quotient(s) for monomial in divisor.terms for s in monomial):
        return None  # only a quotient's relaxation relates a divisor to the dividend beyond its range
    multiple = _ratio(dividend, divisor)
    if multiple is None:
        return None
    low, high = _range_by_selects(dividend - Polynomial.constant(multiple) * divisor, entry_block, run, {}, 0)
    divisor_low = polynomial_range(divisor, entry_block, run)[0]
    if low is None or high is None or divisor_low is None or low < 0 or divisor_low <= high:
        return None
    return multiple


def _ratio(dividend: Polynomial, divisor: Polynomial) -> int | None:
    """The whole ratio of the two linear forms' coefficients of a size the divisor reads."""
    divisor_terms, _ = _linear_form(divisor, _RELAXATION_DEPTH)
    dividend_terms, _ = _linear_form(dividend, _RELAXATION_DEPTH)
    for variable, coefficient in divisor_terms.items():
        if isinstance(variable, _Share):
            continue
        ratio = dividend_terms.get(variable, 0) / coefficient
        return int(ratio) if ratio.denominator == 1 else None
    return None


# Selects split at most this deep.
_SELECT_SPLITS = 2


def _range_by_selects(polynomial: Polynomial, entry_block: ir.Block, run: FactStore | None, within: dict,
                      depth: int) -> Range:
    """`polynomial_range` joined over the two sides of a select it reads, each where the
    select's condition picks it (narrowing the size or remainder the condition bounds)."""
    selects = [s for s in polynomial.symbols() if (facts.definition(s) or (None,))[0] == facts.SELECT]
    if not selects or depth >= _SELECT_SPLITS:
        return polynomial_range(polynomial, entry_block, run, within)
    _, condition, then, otherwise = facts.definition(selects[0])
    joined = None
    for holds, side in ((True, then), (False, otherwise)):
        narrowed = within_condition(condition, holds, entry_block, run) or {}
        if any(_is_remainder_key(key) and low > high for key, (low, high) in narrowed.items()):
            continue  # no remainder makes the condition `holds`
        bound = _range_by_selects(polynomial.substitute({selects[0]: side}), entry_block, run,
                                  {**within, **narrowed}, depth + 1)
        joined = bound if joined is None else join(joined, bound)
    return ANY if joined is None else joined


def _quotient_range(low: int | None, high: int | None, divisor_low: int | None) -> Range:
    """A size's floor division by a positive polynomial (a nonzero one at least 0): from 0
    up to the dividend; unbounded where either may be negative."""
    if low is None or low < 0 or divisor_low is None or divisor_low < 0:
        return None, None
    return 0, high


def _expression_range(expression, symbols: list) -> Range:
    if isinstance(expression, ir.AffineConstantExpr):
        return expression.value, expression.value
    if isinstance(expression, ir.AffineSymbolExpr):
        return _symbolic_int_range(symbols[expression.position])
    if not isinstance(expression, (ir.AffineAddExpr, ir.AffineMulExpr)):
        return _SIZE
    (lhs_low, lhs_high), (rhs_low, rhs_high) = (
        _expression_range(e, symbols) for e in (expression.lhs, expression.rhs))
    if lhs_low < 0 or rhs_low < 0:
        return _SIZE  # only sizes, whose parts are never negative
    if isinstance(expression, ir.AffineAddExpr):
        combine = operator.add
    else:
        combine = operator.mul
    high = None if lhs_high is None or rhs_high is None else combine(lhs_high, rhs_high)
    return combine(lhs_low, rhs_low), high


def _symbolic_int_range(value: ir.Value) -> Range:
    if not isinstance(value, ir.OpResult) or value.owner.name != "torch.symbolic_int":
        return _SIZE
    attributes = value.owner.attributes
    least = max(ir.IntegerAttr(attributes["min_val"]).value, 0)
    greatest = ir.IntegerAttr(attributes["max_val"]).value
    return least, None if greatest >= _UNBOUNDED else greatest


def decide(test, low: int | None, high: int | None) -> bool | None:
    """`test(x, 0)` (an `operator` comparison) for every x in [low, high] (None:
    unbounded), or None where the range holds both answers."""
    if low is not None and low == high:
        return test(low, 0)
    low = -math.inf if low is None else low
    high = math.inf if high is None else high
    if test is operator.eq or test is operator.ne:
        return test(1, 0) if low > 0 or high < 0 else None
    answer = test(low, 0)
    return answer if answer == test(high, 0) else None


class SizesAlgebra:
    """The algebra symbolic/semantics.py's meanings take, over sizes: floor division and
    modulo as the fact store means them (`facts.quotient`, `facts.modulo`, in the forms of
    the run `run`); a comparison as 0 or 1 where the range of its sides' difference
    decides it (`entry_block`'s ranges under the run's store, else plain sizes), else as
    the truth symbol (`facts.truth_of`)."""

    def __init__(self, run: FactStore, entry_block: ir.Block | None = None) -> None:
        self.run = run
        self.entry_block = entry_block

    def quotient(self, dividend: Polynomial, divisor: Polynomial) -> Polynomial | None:
        return facts.quotient(dividend, divisor, self.run.quotient_forms)

    def modulo(self, dividend: Polynomial, divisor: Polynomial) -> Polynomial | None:
        return facts.modulo(dividend, divisor, self.run.quotient_forms)

    def truth(self, comparison: str, a: Polynomial, b: Polynomial) -> Polynomial:
        decided = decide(INT_COMPARISONS[comparison], *polynomial_range(a - b, self.entry_block, self.run))
        return facts.truth_of((comparison, a, b)) if decided is None else Polynomial.constant(int(decided))


def polynomial_range(polynomial: Polynomial, entry_block: ir.Block | None, run: FactStore | None,
                     within: dict | None = None) -> tuple:
    """(least, greatest) of a polynomial over sizes, None for an unbounded side; without
    an entry block every symbol is a plain size; the run's store `run` narrows the ranges
    the entry block's binds state by its asserted comparisons (`symbol_range`); `within`
    narrows some symbols' ranges. A symbol may be unbounded below too (a select of a
    program's number, `min(x, 0)`). Within a refinement it is remembered until a range
    changes, as `symbol_range` is: a case split asks for the same ranges in case after case."""
    cache = None if run is None else run.refinement_cache()
    if cache is None or entry_block is None:
        return _polynomial_range(polynomial, entry_block, run, within)
    narrowed = ()
    if within:  # only the sizes and remainders it reads: cases narrowing others share its range
        read = _read_keys(polynomial)
        narrowed = tuple(sorted(item for item in within.items() if item[0] in read))
    # A block hashes and compares as its pointer (cheaper than `op_key`; never to None: it raises).
    key = ("polynomial range", polynomial, entry_block, narrowed, run.range_count())
    found = cache.get(key)
    if found is None:
        found = cache[key] = _polynomial_range(polynomial, entry_block, run, dict(narrowed) if narrowed else None)
    return found


@functools.lru_cache(maxsize=1 << 16)
def _read_keys(polynomial: Polynomial) -> frozenset:
    """The symbols and remainder keys whose `within` bounds `_polynomial_range` may read:
    the polynomial's symbols and, through each quotient by a constant (which the relaxation
    reads as its dividend), the dividend's, with the quotient's remainder key. Pure:
    definitions never change."""
    found = set()
    for symbol in polynomial.symbols():
        found.add(symbol)
        quotient = _linear_quotient(symbol)
        if quotient is not None:
            found.add(remainder_key(symbol))
            found |= _read_keys(quotient[0])
    return frozenset(found)


def _polynomial_range(polynomial: Polynomial, entry_block: ir.Block | None, run: FactStore | None,
                      within: dict | None) -> tuple:
    def own_range(symbol: Symbol) -> Range:
        if within is not None and symbol in within:
            return within[symbol]
        return _SIZE if entry_block is None else symbol_range(entry_block, symbol, run)

    def remainder_range(quotient: Symbol, divisor: int) -> Range:
        key = remainder_key(quotient)
        if within is not None and key in within:
            return within[key]
        return _asserted_range(entry_block, key, run) or (0, divisor - 1)

    least, greatest = 0, 0
    for monomial, coefficient in polynomial.terms.items():
        low, high = 1, 1
        for symbol in monomial:
            low, high = _interval_product(low, high, *own_range(symbol))
        low, high = _interval_product(low, high, coefficient, coefficient)
        least += low
        greatest += high
    for narrower in (_relaxed_range(polynomial, own_range, remainder_range),
                     _factored_range(polynomial, entry_block, run, within)):
        if narrower is not None:  # the tighter on each side
            least, greatest = max(least, narrower[0]), min(greatest, narrower[1])
    return (None if least == -math.inf else least), (None if greatest == math.inf else greatest)


def _factored_range(polynomial: Polynomial, entry_block: ir.Block | None, run: FactStore | None,
                    within: dict | None) -> tuple | None:
    """The range of `s * q` for a symbol `s` every term reads, as the product of the two
    ranges: `b*(x // 10) - b` is at least 1 where `b >= 1` and `x // 10 >= 2`, which the
    terms' own ranges (one up, one down) do not say. None where no symbol is common."""
    if len(polynomial.terms) < 2:
        return None
    common = set.intersection(*(set(monomial) for monomial in polynomial.terms))
    if not common:
        return None
    factor = Polynomial({(min(common),): 1})
    low, high = polynomial_range(factor, entry_block, run, within)
    low, high = -math.inf if low is None else low, math.inf if high is None else high
    return _interval_product(low, high, *polynomial_range(polynomial.exact_divide(factor), entry_block, run, within))


_RELAXATION_DEPTH = 4


def _relaxed_range(polynomial: Polynomial, own_range, remainder_range=None) -> tuple | None:
    """The range of a linear polynomial with quotients by constants, each `p // k` read as
    `p / k - t` for a `t` in [0, (k - 1) / k] (exact for every integer `p`), one `t` per
    quotient however often it is read: what relates the quotients of one size, which
    their own ranges do not (`x // 4 - (3*x) // 16` is `x / 16 - t1 + t2`, at least -3/4,
    so at least 0; `x % 4`, `x - 4*(x // 4)`, is `4*t`). A product of symbols is one
    variable. None where no quotient by a constant is read."""
    form = _integral_linear_form(polynomial)
    if form is None:
        return None
    scale, terms, constant = form
    remainder_range = remainder_range or _any_remainder
    low = high = constant
    for variable, coefficient in terms:
        if isinstance(variable, _Share):
            least, greatest = remainder_range(variable.quotient, variable.divisor)
            ends = (coefficient * least, coefficient * greatest)
            low, high = low + min(ends), high + max(ends)
            continue
        product = 1, 1
        for symbol in variable:
            product = _interval_product(*product, *own_range(symbol))
        product = _interval_product(*product, coefficient, coefficient)
        low, high = low + product[0], high + product[1]
    return (-(-low // scale) if low != -math.inf else low), (high // scale if high != math.inf else high)


@functools.lru_cache(maxsize=1 << 16)
def _integral_linear_form(polynomial: Polynomial) -> tuple | None:
    """`_linear_form` times its least common denominator, as (that scale, ((variable,
    int coefficient), ...), int constant), a share's coefficient taken over its divisor
    (`c * t` is `c/k * (p % k)`): `_relaxed_range` sums ints, not Fractions, and divides
    once. None where no quotient by a constant is read. Pure, as `_linear_form` is."""
    if not any(_linear_quotient(symbol) for monomial in polynomial.terms for symbol in monomial):
        return None
    terms, constant = _linear_form(polynomial, _RELAXATION_DEPTH)
    exact = {v: Fraction(c) / v.divisor if isinstance(v, _Share) else Fraction(c) for v, c in terms.items()}
    scale = math.lcm(constant.denominator, *(c.denominator for c in exact.values()))
    return scale, tuple((v, int(c * scale)) for v, c in exact.items()), int(constant * scale)


@dataclasses.dataclass(frozen=True)
class _Share:
    """The `t` of one quotient `p // k` read as `p / k - t`: `(p % k) / k`."""
    quotient: Symbol
    divisor: int


def remainder_key(quotient: Symbol) -> Symbol:
    """The fact store's key of the range of `p % k`, the remainder of the quotient symbol
    `p // k` (a divisor of 0 marks it: no size has it, and it names no definition)."""
    return 0, -quotient[0], 0


def _is_remainder_key(symbol: Symbol) -> bool:
    return symbol[2] == 0


# How many values of a remainder a condition on it is tried at.
_REMAINDER_VALUES = 64


def remainder_bounds(key: tuple, holds: bool, range_of) -> tuple[Symbol, int, int] | None:
    """(remainder key, least, greatest) a comparison says of one remainder `p % k` when it
    reads nothing else (torch-mlir's adaptive pool asserts `7 > 6 * (h % 7)`: `h % 7` in
    [0, 1]), within its range so far (`range_of(remainder key)`, or None); None otherwise,
    and where no value satisfies it."""
    found = _remainder_values(key, holds, range_of)
    return None if not found or not found[1] else (found[0], min(found[1]), max(found[1]))


def _remainder_values(key: tuple, holds: bool, range_of) -> tuple[Symbol, list[int]] | None:
    test = INT_COMPARISONS.get(key[0] if holds else NEGATED.get(key[0]))
    if test is None or len(key) != 3 or not all(isinstance(side, Polynomial) for side in key[1:]):
        return None
    difference = key[1] - key[2]
    if not any(_linear_quotient(s) for monomial in difference.terms for s in monomial):
        return None
    terms, constant = _linear_form(difference, _RELAXATION_DEPTH)
    if len(terms) != 1 or not isinstance(share := next(iter(terms)), _Share) or share.divisor > _REMAINDER_VALUES:
        return None
    slope = terms[share] / share.divisor  # the difference is slope * (p % k) + constant
    low, high = range_of(remainder_key(share.quotient)) or (0, share.divisor - 1)
    return remainder_key(share.quotient), [r for r in range(low, high + 1) if test(slope * r + constant, 0)]


def _any_remainder(_quotient: Symbol, divisor: int) -> Range:
    return 0, divisor - 1


def _unbounded(_symbol: Symbol) -> Range:
    return None, None


def constant_quotient(dividend: Polynomial, divisor: int) -> int | None:
    """`dividend // divisor` (a positive constant) where the relaxation alone puts the
    dividend within one multiple's span, whatever its symbols' values (negative too):
    `(x % 2) // 4` is 0, `x % 2` being `2*t` for a `t` in [0, 1/2]. None otherwise."""
    relaxed = _relaxed_range(dividend, _unbounded)
    if relaxed is None or math.isinf(relaxed[0]) or math.isinf(relaxed[1]):
        return None
    low, high = relaxed[0] // divisor, relaxed[1] // divisor
    return low if low == high else None


def _linear_quotient(symbol: Symbol) -> tuple | None:
    """(dividend, divisor) of a quotient of a polynomial by a positive constant."""
    definition = facts.definition(symbol) if is_computed(symbol) else None
    if definition is None or definition[0] != facts.FLOOR_DIVIDE or not isinstance(definition[2], int):
        return None
    return (definition[1], definition[2]) if definition[2] > 0 else None


@functools.lru_cache(maxsize=1 << 16)
def _linear_form(polynomial: Polynomial, depth: int) -> tuple:
    """`polynomial` as ({monomial or _Share: Fraction coefficient}, Fraction constant), each
    quotient by a constant relaxed (`_relaxed_range`); a product is one variable. A pure
    function of the polynomial (a defined symbol's definition never changes), remembered:
    callers only read it."""
    terms: dict = {}
    constant = Fraction(0)
    for monomial, coefficient in polynomial.terms.items():
        if not monomial:
            constant += coefficient
            continue
        quotient = _linear_quotient(monomial[0]) if depth > 0 and len(monomial) == 1 else None
        if quotient is None:
            terms[monomial] = terms.get(monomial, 0) + Fraction(coefficient)
            continue
        inner = _linear_form(quotient[0], depth - 1)
        scale = Fraction(coefficient, quotient[1])
        for variable, inner_coefficient in inner[0].items():
            terms[variable] = terms.get(variable, 0) + scale * inner_coefficient
        constant += scale * inner[1]
        share = _Share(monomial[0], quotient[1])
        terms[share] = terms.get(share, 0) - coefficient
    return {v: c for v, c in terms.items() if c}, constant


def _interval_product(low, high, other_low: int | None, other_high: int | None) -> tuple:
    """The range of a product of two ranges, ends infinite where unbounded; a factor that is
    always 0 makes the product 0, however large the other."""
    other_low = -math.inf if other_low is None else other_low
    other_high = math.inf if other_high is None else other_high
    products = [0 if a == 0 or b == 0 else a * b for a in (low, high) for b in (other_low, other_high)]
    return min(products), max(products)


def range_signature(function, run: FactStore | None) -> tuple:
    """Every argument dim's range that is not a plain size's, in argument order, and the
    ranges asserted comparisons give (`FactStore.range_items` of the run's store `run`)."""
    if function is None:
        return ()
    entry = function.regions[0].blocks[0]
    has_ranges = run is not None and run.has_ranges()
    found: list = [run.range_items(op_key(function))] if has_ranges else []
    for argument in entry.arguments:
        for use in argument.uses:
            if use.owner.name == "torch.bind_symbolic_shape" and use.operand_number == 0:
                found.append((function_argument(argument), _bound_ranges(entry, argument, run)))
                break
    return tuple(found)


def _bound_ranges(entry: ir.Block, argument: ir.BlockArgument, run: FactStore | None) -> tuple:
    info = types.parse(argument.type)
    rank = 0 if info is None or info.rank is None else info.rank
    return tuple(symbol_range(entry, (argument.arg_number, dim, 1), run) for dim in range(rank))


def meet(a: Bound, b: Bound) -> Bound:
    """The range both hold (least above greatest where none)."""
    least = b[0] if a[0] is None else a[0] if b[0] is None else max(a[0], b[0])
    greatest = b[1] if a[1] is None else a[1] if b[1] is None else min(a[1], b[1])
    return least, greatest


def join(a: Bound, b: Bound) -> Bound:
    """The least range holding both."""
    least = None if a[0] is None or b[0] is None else min(a[0], b[0])
    greatest = None if a[1] is None or b[1] is None else max(a[1], b[1])
    return least, greatest
