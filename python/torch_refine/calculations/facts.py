"""Names for sizes the program computes, and the algebra over them (floor division,
remainder, selects); the facts a run asserts are its `store.FactStore`'s.

**Computed sizes.** A dim that is no polynomial in the function's argument dims still has
one value wherever its tensor exists: it gets a symbol of its own (`%sI`,
`polynomial.is_computed`), so `view(x, [size(x, 0), 8, -1, 8])` cancels it as it cancels
an argument dim. Two kinds:
- a *fresh* symbol names one op result's dim (an unknown size the calculation yielded, or
  a tensor no calculation describes). Nothing else is known of it but that it is a size.
  It is never shared: memo entries keep the dim unknown, and each op gets its own.
- a *defined* symbol names a function of other sizes: `then if condition else otherwise`
  (`select`, when the condition is not decided) or `p // k` of a polynomial not divisible
  by the constant `k` (`floor_divide`: a stride-2 convolution of an odd-or-even size), or
  by a polynomial `q` that does not divide it (a view's -1 over sizes read off another
  tensor, before a fact relates them; the evaluator guards `q != 0`). It
  is a function of its definition, so every op that computes the same gets the same
  symbol, and the memo may share it. Its range follows from its operands'.

Symbols of either kind are function-relative like argument dims: `%s3` in two functions
names the same expression of each function's own arguments.

**A symbol table, shared.** Symbols outlive a run (dims attributes kept on ops, the meta
fallback's answers cached by signatures reading them), so the same definition is the same
symbol in every run and every thread: the table is process-wide and grows under a lock.
It holds no fact: what a run asserts of its symbols is its own `FactStore`
(calculations/store.py, docs/facts.md). Nor does it choose among forms: where a value has
several normal forms, the form a run uses is the first that run made, in the run's own
table (`forms`, the store's `quotient_forms`), which the algebra is given.
"""

from __future__ import annotations

import math
import threading

from torch_refine.symbolic.comparisons import INT_COMPARISONS, NEGATED
from torch_refine.symbolic.polynomial import Polynomial, Symbol, is_computed, solved_range
from torch_refine.symbolic.quasi_affine import one_quotient_form, value_key
from torch_refine.symbolic.semantics import MEANINGS

# Defined symbols by definition, and each one's definition.
_DEFINED: dict[tuple, Symbol] = {}
_DEFINITIONS: dict[int, tuple] = {}
_counter = 0
_INTERNING = threading.Lock()  # two runs in two threads may define symbols at once


def _next_symbol() -> Symbol:
    with _INTERNING:
        return _numbered()


def _numbered() -> Symbol:
    """The next symbol; the caller holds `_INTERNING`."""
    global _counter
    _counter += 1
    return (-_counter, 0, 1)


def fresh() -> Polynomial:
    """A symbol for one op result's dim that nothing else names."""
    return Polynomial({(_next_symbol(),): 1})


def _defined(definition: tuple) -> Polynomial:
    symbol = _DEFINED.get(definition)
    if symbol is None:
        with _INTERNING:  # one symbol per definition, whichever thread defines it first
            symbol = _DEFINED.get(definition)
            if symbol is None:
                symbol = _DEFINED[definition] = _numbered()
                _DEFINITIONS[-symbol[0]] = definition
    return Polynomial({(symbol,): 1})


def select(condition_key: tuple, then: Polynomial, otherwise: Polynomial) -> Polynomial:
    """The symbol of `then if condition else otherwise`, the same for the same key; one
    side when it is the other wherever the condition decides between them (ONNX
    Reshape's `d if s == 0 else s` is `s` where `d` is a multiple of `s`)."""
    side = _select_side(condition_key, then, otherwise)
    return side if side is not None else _defined((SELECT, condition_key, then, otherwise))


def truth_of(condition_key: tuple) -> Polynomial:
    """An int comparison as an int: 1 where it holds, else 0."""
    return select(condition_key, Polynomial.constant(1), Polynomial.constant(0))


def condition_of(value: Polynomial) -> tuple:
    """The condition key under which an int is true (not 0): the comparison it is the
    truth of (`truth_of`), or `value != 0`."""
    if len(value.terms) == 1:
        ((monomial, coefficient),) = value.terms.items()
        found = definition(monomial[0]) if coefficient == 1 and len(monomial) == 1 else None
        if found is not None and found[0] == SELECT and found[2:] == (Polynomial.constant(1), Polynomial.constant(0)):
            return found[1]
    return ("torch.aten.ne.int", value, Polynomial.constant(0))


def _select_side(condition_key: tuple, then: Polynomial, otherwise: Polynomial) -> Polynomial | None:
    """The side a select always is, or None."""
    if then == otherwise:
        return then
    if condition_key[0] not in _EQUALITY_TESTS or not _equal_where_equal(condition_key[1:], then, otherwise):
        return None
    return otherwise if condition_key[0] == "torch.aten.eq.int" else then


_EQUALITY_TESTS = ("torch.aten.eq.int", "torch.aten.ne.int")


def _equal_where_equal(sides: tuple, then: Polynomial, otherwise: Polynomial) -> bool:
    """Whether `then == otherwise` wherever `sides[0] == sides[1]`: their difference is a
    multiple of the sides' (`a*b - a` of `a` where `a == 0`; `1 - n` of `n - 1`)."""
    if len(sides) != 2 or not all(isinstance(side, Polynomial) for side in sides):
        return False
    return (then - otherwise).exact_divide(sides[0] - sides[1]) is not None


def quotient(dividend: Polynomial, divisor: Polynomial, forms: dict, guarded: bool = False) -> Polynomial | None:
    """`dividend // divisor`, floor division's one meaning over sizes: by a positive
    constant in normal form (`floor_divide`; `forms`: the run's forms by value), by another
    nonzero constant where it divides, by a polynomial where it divides exactly, and else,
    where the caller guards the divisor nonzero (`guarded`), as a symbol of its own; None
    where none of these holds."""
    constant = divisor.constant_value()
    if constant is not None:
        return _by_constant(dividend, constant, forms) if constant > 0 else dividend.floor_divide(constant)
    exact = dividend.exact_divide(divisor)
    if exact is not None or not guarded:
        return exact
    return floor_divide(dividend, divisor, forms)


def modulo(dividend: Polynomial, divisor: Polynomial, forms: dict, guarded: bool = False) -> Polynomial | None:
    """`dividend % divisor` as Python defines it, `dividend - divisor * (dividend // divisor)`
    over `quotient`'s meaning (by a constant: `remainder`)."""
    constant = divisor.constant_value()
    if constant is not None:
        return remainder(dividend, constant, forms) if constant > 0 else dividend.floor_remainder(constant)
    whole = quotient(dividend, divisor, forms, guarded)
    return None if whole is None else dividend - divisor * whole


def floor_divide(dividend: Polynomial, divisor: int | Polynomial, forms: dict) -> Polynomial:
    """`dividend // divisor` (a positive constant, or a polynomial) as a defined symbol;
    by a constant in normal form (`_by_constant`), so equal quotients are one symbol."""
    if isinstance(divisor, int) and divisor > 0:
        return _by_constant(dividend, divisor, forms)
    return _defined((FLOOR_DIVIDE, dividend, divisor))


def _by_constant(dividend: Polynomial, divisor: int, forms: dict) -> Polynomial:
    """`dividend // divisor` in normal form (`_normal_quotient`), one per value. A normal form
    reading no quotient of a quotient is the only one of its value; one that reads one may be
    one of several (`(x % 5) // 2 // 2` and `(x % 5) // 4`), so its value as a function
    (`quasi_affine.value_key`, exact) names its form: one quotient of one size where one is
    it (`quasi_affine.one_quotient_form`), else the first form of that value the run made
    (`forms`: value key -> that form and its value at 0, the run's `quotient_forms`). (So
    does a form reading several quotients.)"""
    normal = _normal_quotient(dividend, divisor, forms)
    found = value_key(normal, _quotient_of) if _several(normal) else None
    if found is None:
        return normal
    key, origin = found
    single = one_quotient_form(key, origin, lambda p, k: _normal_quotient(p, k, forms))
    if single is not None:
        return single
    known = forms.setdefault(key, (normal, origin))
    return known[0] + Polynomial.constant(origin - known[1])


def _quotient_of(symbol: Symbol) -> tuple[Polynomial, int] | None:
    found = definition(symbol)
    if found is None or found[0] != FLOOR_DIVIDE or not isinstance(found[2], int) or found[2] <= 0:
        return None
    return found[1], found[2]


def _several(polynomial: Polynomial) -> bool:
    """Whether `polynomial` reads more than one quotient by a constant, or one of a polynomial
    reading one: one quotient of a polynomial of sizes is the only form of its value."""
    quotients = [found for symbol in polynomial.symbols() if (found := _quotient_of(symbol))]
    return len(quotients) > 1 or any(_quotient_of(s) for found in quotients for s in found[0].symbols())


def _normal_quotient(dividend: Polynomial, divisor: int, forms: dict) -> Polynomial:
    """`dividend // divisor` in normal form: `(k*q + r) // k` is `q + r // k` for every
    integer polynomial `q`, so the symbol divides only what is left with coefficients in
    [0, k) (`(x - 4) // 4` is `x // 4 - 1`); a constant left divides to 0; a quotient of a
    quotient plus what does not read it is one quotient, `(r // a + p) // k` being
    `(r + a*p) // (a*k)` (`(x // 4 - 2) // 2` is `x // 8 - 1`); and a common factor of the
    divisor and every coefficient divides out (`(2*x + 1) // 4` is `x // 2`)."""
    from torch_refine.calculations.ranges import constant_quotient  # ranges imports this module
    if (known := constant_quotient(dividend, divisor)) is not None:  # `(x % 2) // 4` is 0
        return Polynomial.constant(known)
    whole = Polynomial({monomial: coefficient // divisor for monomial, coefficient in dividend.terms.items()})
    rest = dividend - whole * Polynomial.constant(divisor)
    if divisor == 1 or rest.constant_value() is not None:
        return whole
    nested = _quotient_plus(rest)
    if nested is not None:
        inner, inner_divisor, others = nested
        return whole + _by_constant(inner + Polynomial.constant(inner_divisor) * others, inner_divisor * divisor,
                                    forms)
    common = math.gcd(divisor, *(c for monomial, c in rest.terms.items() if monomial))
    if common > 1:  # (g*q + g*c + r) // (g*k) is (q + c) // k for 0 <= r < g: `(2*x) // 4` is `x // 2`
        constant = rest.terms.get((), 0)
        scaled = (rest - Polynomial.constant(constant)).exact_divide(Polynomial.constant(common))
        return whole + _by_constant(scaled + Polynomial.constant(constant // common), divisor // common, forms)
    return whole + _defined((FLOOR_DIVIDE, rest, divisor))


def _quotient_plus(polynomial: Polynomial) -> tuple[Polynomial, int, Polynomial] | None:
    """(r, a, p) when `polynomial` is `r // a + p` for a defined quotient by a constant that
    `p` does not read, through definitions too (of `x // 5 + (x + x // 5) // 2`, the second:
    the first is read by it). Of several, the least by `_quotient_order`: one normal form."""
    candidates = []
    for monomial, coefficient in polynomial.terms.items():
        if len(monomial) != 1 or coefficient != 1:
            continue
        found = definition(monomial[0])
        if found is None or found[0] != FLOOR_DIVIDE or not isinstance(found[2], int):
            continue
        rest = polynomial - Polynomial({monomial: 1})
        if monomial[0] not in _symbols_read(rest):
            candidates.append((found[1], found[2], rest))
    return min(candidates, key=_quotient_order, default=None)


def _quotient_order(candidate: tuple[Polynomial, int, Polynomial]) -> tuple:
    """A key independent of the order symbols were made in."""
    dividend, divisor, _ = candidate
    return divisor, str(dividend)


def _symbols_read(polynomial: Polynomial) -> set[Symbol]:
    """The symbols `polynomial` reads, and those its defined symbols' definitions read."""
    read: set[Symbol] = set()
    pending = list(polynomial.symbols())
    while pending:
        symbol = pending.pop()
        if symbol in read:
            continue
        read.add(symbol)
        for operand in definition(symbol) or ():
            if isinstance(operand, Polynomial):
                pending.extend(operand.symbols())
            elif isinstance(operand, tuple):  # a select's condition key
                pending.extend(s for o in operand if isinstance(o, Polynomial) for s in o.symbols())
    return read


def remainder(dividend: Polynomial, divisor: int, forms: dict) -> Polynomial:
    """`dividend % divisor` by a positive constant, as Python defines it: `a - k*(a // k)`
    over the normal form of the quotient."""
    return dividend - Polynomial.constant(divisor) * _by_constant(dividend, divisor, forms)


SELECT, FLOOR_DIVIDE = "select", "floordiv"


def resolved(polynomial: Polynomial, replacements: dict[Symbol, Polynomial], forms: dict) -> Polynomial:
    """`polynomial` with `replacements` made, and each defined symbol they decide replaced
    by its value: a quotient by a polynomial that they make divide exactly (`(32*a*b) //
    (8*c*d)` is 4 once `c == a` and `d == b` are asserted), a select whose sides they
    make equal where its condition decides (`a*b if a == 0 else a` once the first is
    known to be `a*b`), or whose condition they make a constant. (`forms`: the run's forms
    of quotients by value.)"""
    return _resolved(polynomial, replacements, forms, frozenset())


def _resolved(polynomial: Polynomial, replacements: dict[Symbol, Polynomial], forms: dict,
              active: frozenset) -> Polynomial:
    """`resolved`, not deciding the symbols in `active` again (a replacement may name a
    symbol defined from the one being decided)."""
    polynomial = polynomial.substitute(replacements)
    decided = {}
    for symbol in polynomial.symbols():
        definition = _DEFINITIONS.get(-symbol[0]) if is_computed(symbol) and symbol not in active else None
        value = None if definition is None else _decided(definition, replacements, forms, active | {symbol})
        if value is not None:
            decided[symbol] = value
    return polynomial.substitute(decided) if decided else polynomial


def _decided(definition: tuple, replacements: dict[Symbol, Polynomial], forms: dict,
             active: frozenset) -> Polynomial | None:
    """The value of a defined symbol under `replacements`, where they decide it."""
    if definition[0] == FLOOR_DIVIDE:
        if not isinstance(definition[2], Polynomial):
            return _through_replaced_quotient(definition, replacements, forms)
        dividend, divisor = (_resolved(part, replacements, forms, active) for part in definition[1:])
        return dividend.exact_divide(divisor)
    _, key, then, otherwise = definition
    sides = tuple(_resolved(o, replacements, forms, active) if isinstance(o, Polynomial) else o for o in key[1:])
    then, otherwise = _resolved(then, replacements, forms, active), _resolved(otherwise, replacements, forms, active)
    test = INT_COMPARISONS.get(key[0])
    if test is not None and all(isinstance(side, Polynomial) for side in sides):
        difference = (sides[0] - sides[1]).constant_value()
        if difference is not None:
            return then if test(difference, 0) else otherwise
    return _select_side((key[0], *sides), then, otherwise)


def rebuilt(polynomial: Polynomial, replacements: dict[Symbol, Polynomial], forms: dict) -> Polynomial:
    """`polynomial` with `replacements` made in it and in the definitions of the defined
    symbols it reads: a quotient or select reading a replaced symbol is the quotient or
    select of what it reads then (`(256*s) // (64*b)`, `s` replaced by `a`, is `(256*a) //
    (64*b)`, the symbol an assert reading `a` reads)."""
    changed = {}
    for symbol in polynomial.symbols() - replacements.keys():
        found = definition(symbol) if is_computed(symbol) else None
        if found is None:
            continue
        if (_symbols_read(Polynomial({(symbol,): 1})) - {symbol}) & replacements.keys():
            value = _rebuilt_definition(found, replacements, forms)
        else:
            value = _through_replaced_quotient(found, replacements, forms)
        if value is not None:
            changed[symbol] = value
    return polynomial.substitute({**replacements, **changed})


def _through_replaced_quotient(found: tuple, replacements: dict[Symbol, Polynomial], forms: dict) -> Polynomial | None:
    """`(p + a*k) // c` where `p // a` is replaced by `v` and `a` divides `c`: `(v + k) // (c /
    a)` (`y // 4` is `(y // 2) // 2`, so `x // 4` once `y // 2` is `x // 2`)."""
    if found[0] != FLOOR_DIVIDE or not isinstance(found[2], int) or found[2] <= 0:
        return None
    _, dividend, divisor = found
    for symbol, value in replacements.items():
        inner = _quotient_of(symbol)
        if inner is None or divisor % inner[1] or divisor == inner[1]:
            continue
        offset = (dividend - inner[0]).constant_value()
        if offset is not None and offset % inner[1] == 0:
            return _by_constant(value + Polynomial.constant(offset // inner[1]), divisor // inner[1], forms)
    return None


def _rebuilt_definition(found: tuple, replacements: dict[Symbol, Polynomial], forms: dict) -> Polynomial | None:
    if found[0] == FLOOR_DIVIDE:
        _, dividend, divisor = found
        divisor = Polynomial.constant(divisor) if isinstance(divisor, int) else rebuilt(divisor, replacements, forms)
        return quotient(rebuilt(dividend, replacements, forms), divisor, forms, guarded=True)
    _, key, then, otherwise = found
    sides = tuple(rebuilt(o, replacements, forms) if isinstance(o, Polynomial) else o for o in key[1:])
    then, otherwise = rebuilt(then, replacements, forms), rebuilt(otherwise, replacements, forms)
    test = INT_COMPARISONS.get(key[0])
    if test is not None and len(sides) == 2 and all(isinstance(side, Polynomial) for side in sides):
        difference = (sides[0] - sides[1]).constant_value()
        if difference is not None:
            return then if test(difference, 0) else otherwise
    return select((key[0], *sides), then, otherwise)


def dividend_bounds(symbol: Symbol, low: int, high: int | None) -> tuple[Symbol, int, int | None] | None:
    """(y, least, greatest or None) where a quotient `(c*y + d) // k` (c > 0, k a positive
    constant) in [low, high] puts `c*y + d` in [low*k, high*k + k - 1]; None for any other
    symbol. `(y + 7) // 8 == 1` is y in [1, 8]."""
    found = definition(symbol)
    if found is None or found[0] != FLOOR_DIVIDE or not isinstance(found[2], int) or found[2] <= 0:
        return None
    _, dividend, divisor = found
    linear = dividend.linear_in_one_symbol()
    if linear is None or linear[1] <= 0:
        return None
    inner, coefficient, offset = linear
    greatest = None if high is None else high * divisor + divisor - 1
    return inner, *solved_range(coefficient, offset, low * divisor, greatest)


def definition(symbol: Symbol) -> tuple | None:
    """`(SELECT, condition key, then, otherwise)` or `(FLOOR_DIVIDE, dividend, divisor)`
    of a defined symbol; None for a fresh one."""
    return _DEFINITIONS.get(-symbol[0])


def defined_as(symbol: Symbol, kind: str) -> bool:
    """Whether `symbol` is defined as a `kind` (SELECT or FLOOR_DIVIDE)."""
    found = _DEFINITIONS.get(-symbol[0])
    return found is not None and found[0] == kind


def condition_bounds(key: tuple, holds: bool, replacements: dict,
                     range_of) -> tuple[Symbol, int, int | None] | None:
    """(symbol, least, greatest or None) a condition comparing `c*symbol + k` with 0 says,
    or `symbol != v` where v is its least (`range_of(symbol)`): then it is above it."""
    bounds = _symbol_bounds(replacements, key, holds)
    if bounds is not None:
        return bounds
    excluded = _excluded_value(key, holds, replacements)
    if excluded is None:
        return None
    symbol, value = excluded
    low, high = range_of(symbol)
    return (symbol, value + 1, high) if value == low else None


def _excluded_value(key: tuple, holds: bool, replacements: dict) -> tuple[Symbol, int] | None:
    """(symbol, value) when a condition says `symbol != value`, or None."""
    name = key[0] if holds else NEGATED.get(key[0])
    if name != "torch.aten.ne.int" or len(key) != 3 or not all(isinstance(o, Polynomial) for o in key[1:]):
        return None
    linear = (key[1] - key[2]).substitute(replacements).linear_in_one_symbol()
    if linear is None:
        return None
    symbol, coefficient, offset = linear
    if offset % coefficient:
        return None  # never equal: nothing excluded
    return symbol, -offset // coefficient


def _symbol_bounds(replacements: dict, key: tuple, holds: bool) -> tuple[Symbol, int, int | None] | None:
    """(symbol, least, greatest or None) a condition comparing `c*symbol + k` with 0 says,
    or None."""
    if len(key) != 3 or not all(isinstance(operand, Polynomial) for operand in key[1:]):
        return None
    name = key[0]
    if not holds:
        name = NEGATED.get(name)
    interval = MEANINGS[name].holds if name in MEANINGS else None  # of `c*s + k`, where it holds
    if interval is None:
        return None
    linear = (key[1] - key[2]).substitute(replacements).linear_in_one_symbol()
    if linear is None:
        return None
    symbol, coefficient, offset = linear
    low, high = solved_range(coefficient, offset, *interval)  # a size: at least 0
    return symbol, 0 if low is None else max(0, low), high


def solve(difference: Polynomial, known: dict[Symbol, Polynomial]) -> tuple[Symbol, Polynomial] | None:
    """`difference == 0` solved for one symbol that appears only in a term `±symbol`:
    (symbol, what it equals); None when there is none."""
    difference = difference.substitute(known)
    common = math.gcd(*difference.terms.values())
    if common > 1:  # `20*s == 20*a*b` is `s == a*b`
        difference = Polynomial({monomial: c // common for monomial, c in difference.terms.items()})
    candidates = []
    for monomial, coefficient in difference.terms.items():
        if len(monomial) != 1 or coefficient not in (1, -1):
            continue
        symbol = monomial[0]
        if sum(symbol in m for m in difference.terms) == 1:
            candidates.append((symbol[0] < 0, symbol, coefficient))
    if not candidates:
        return None
    _, symbol, coefficient = max(candidates)
    rest = difference - Polynomial({(symbol,): coefficient})
    return symbol, rest * Polynomial.constant(-coefficient)


def solve_powers(difference: Polynomial, least) -> tuple[Symbol, Polynomial] | None:
    """`difference == 0` solved where it says `u**k == v**k` or `u**k == r**k` (times a
    constant; r an integer) for symbols u, v not negative where k is even (`least(symbol)`,
    None where unbounded): `u == v`, `u == r`. A view after broadcasting two squared sizes
    checks `(h // 8)**2 == (w // 8)**2`. None where it says no such thing."""
    if len(difference.terms) != 2:
        return None
    (first, a), (second, b) = sorted(difference.terms.items())  # a constant sorts first
    powers = [power for power in (_power(first), _power(second)) if power is not None]
    if len(powers) != (1 if not first else 2) or len({k for _, k in powers}) != 1:
        return None
    exponent = powers[0][1]
    if exponent % 2 == 0 and any(least(symbol) is None or least(symbol) < 0 for symbol, _ in powers):
        return None  # (-2)**2 == 2**2
    if first:
        return solve(Polynomial({(powers[0][0],): 1, (powers[1][0],): -1}), {}) if a == -b else None
    root = _integer_root(-a // b, exponent) if a % b == 0 else None
    return None if root is None else (powers[0][0], Polynomial.constant(root))


def _power(monomial: tuple) -> tuple[Symbol, int] | None:
    """(u, k) of a monomial `u**k`, else None."""
    return (monomial[0], len(monomial)) if monomial and len(set(monomial)) == 1 else None


def _integer_root(value: int, exponent: int) -> int | None:
    """The integer r with `r**exponent == value` (the one not negative, for an even
    exponent), or None."""
    if value < 0:
        root = None if exponent % 2 == 0 else _integer_root(-value, exponent)
        return None if root is None else -root
    guess = round(value ** (1 / exponent))
    return next((r for r in (guess - 1, guess, guess + 1) if r >= 0 and r**exponent == value), None)


def extend(known: dict[Symbol, Polynomial], lhs: Polynomial, rhs: Polynomial) -> bool:
    """Replacements `known` extended by `lhs == rhs` solved for one symbol; False when it
    solves for none."""
    solved = solve(lhs - rhs, known)
    if solved is None:
        return False
    symbol, value = solved
    for other, replacement in known.items():
        known[other] = replacement.substitute({symbol: value})
    known[symbol] = value
    return True
