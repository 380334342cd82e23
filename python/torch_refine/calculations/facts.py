"""The fact store: names for sizes the program computes, and the conditions asserted so far.

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

**Asserted conditions.** A guard asserted at a function's entry block holds for every op
after it (`asserted`, `assume`): a later op needing the same condition does not assert it
again, and an evaluation reading it takes it as decided. An equality solved for a symbol
replaces it (`add_equality`); a comparison of one symbol with a constant narrows its range
(`add_range`: `%arg0[1] <= 512` decides `%arg0[1] <= 1024` and `%arg0[1] >= 600`).

The store is process-wide; `forget_asserted` starts a pass run's conditions afresh (the
symbols stay: memo entries may name them).
"""

from __future__ import annotations

import contextlib

from torch_mlir import ir

from torch_refine.ir.polynomial import Polynomial, Symbol, is_computed, symbol_name

# Defined symbols by definition, and each one's definition.
_DEFINED: dict[tuple, Symbol] = {}
_DEFINITIONS: dict[int, tuple] = {}
_counter = 0

# (function key, condition key) -> the truth asserted at the function's entry block.
_ASSERTED: dict[tuple, bool] = {}

# Marks the asserts (not their conditions) asserted at a function's entry, so the next one
# goes after them; dim_facts.strip removes them with the dim facts.
ENTRY_GUARD = "torch_refine.entry_guard"
# A check kept in front of one op (an assert, or a raising If) carries the op's guard id
# (`GUARD_ID` on the op): refined again under new facts, the op's old checks go.
GUARD_OF = "torch_refine.guard_of"
GUARD_ID = "torch_refine.guard_id"
MARKS = (ENTRY_GUARD, GUARD_OF, GUARD_ID)
_guard_ids = 0
_marking = False  # only a pipeline that strips the marks again marks checks
_guards_marked = False  # whether mark_guard marked a check since forget_asserted


@contextlib.contextmanager
def marking_guards():
    global _marking
    _marking = True
    try:
        yield
    finally:
        _marking = False


_ENTRY_GUARDS: list[tuple[tuple, bool]] = []  # by id: the condition key and its truth


def entry_guard_id(key: tuple, holds: bool) -> int:
    """The id an entry guard's mark carries (`ENTRY_GUARD`): it names its condition."""
    _ENTRY_GUARDS.append((key, holds))
    return len(_ENTRY_GUARDS) - 1


def entry_guard(identifier: int) -> tuple[tuple, bool]:
    return _ENTRY_GUARDS[identifier]


# function key -> the entry guard asserted last: the next goes after it.
_LAST_ENTRY_GUARDS: dict[int, ir.Operation] = {}
# What was derived from the store as it stood (decisions by cases, keyed by the count of
# ranges they read).
_RUN_CACHE: dict = {}


@contextlib.contextmanager
def refining():
    """One refinement of a module, which erases no entry guard: within it the handle of
    the last one and the derived decisions hold. Both are keyed by function keys, which a
    later module's functions may reuse: they start empty and end empty."""
    global _REFINING
    _LAST_ENTRY_GUARDS.clear()
    _RUN_CACHE.clear()
    _REFINING = True
    try:
        yield
    finally:
        _REFINING = False
        _LAST_ENTRY_GUARDS.clear()
        _RUN_CACHE.clear()


_REFINING = False


def run_cache() -> dict:
    return _RUN_CACHE


def refinement_cache() -> dict | None:
    """The run cache while a refinement runs (which erases no op it may hold), else None."""
    return _RUN_CACHE if _REFINING else None


def last_entry_guard(function_key: int) -> ir.Operation | None:
    return _LAST_ENTRY_GUARDS.get(function_key)


def set_last_entry_guard(function_key: int, assertion: ir.Operation) -> None:
    _LAST_ENTRY_GUARDS[function_key] = assertion


def mark_guard(check, op) -> None:
    """Mark `check` as kept for `op` (ir operations), inside `marking_guards`."""
    global _guard_ids, _guards_marked
    if not _marking:
        return
    _guards_marked = True
    attributes = op.operation.attributes
    if GUARD_ID not in attributes:
        _guard_ids += 1
        attributes[GUARD_ID] = _int_attribute(_guard_ids)
    check.operation.attributes[GUARD_OF] = attributes[GUARD_ID]


def take_guard_id(op) -> object | None:
    """The op's guard id (an attribute), removed: checks kept from now on get a new one."""
    attributes = op.operation.attributes
    if GUARD_ID not in attributes:
        return None
    found = attributes[GUARD_ID]
    del attributes[GUARD_ID]
    return found


def _int_attribute(value: int):
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), value)


def _next_symbol() -> Symbol:
    global _counter
    _counter += 1
    return (-_counter, 0, 1)


def fresh() -> Polynomial:
    """A symbol for one op result's dim that nothing else names."""
    return Polynomial({(_next_symbol(),): 1})


def _defined(definition: tuple) -> Polynomial:
    symbol = _DEFINED.get(definition)
    if symbol is None:
        symbol = _DEFINED[definition] = _next_symbol()
        _DEFINITIONS[-symbol[0]] = definition
    return Polynomial({(symbol,): 1})


def select(condition_key: tuple, then: Polynomial, otherwise: Polynomial) -> Polynomial:
    """The symbol of `then if condition else otherwise`, the same for the same key."""
    return _defined((SELECT, condition_key, then, otherwise))


def floor_divide(dividend: Polynomial, divisor: int | Polynomial) -> Polynomial:
    """The symbol of `dividend // divisor` (a positive constant, or a polynomial)."""
    return _defined((FLOOR_DIVIDE, dividend, divisor))


SELECT, FLOOR_DIVIDE = "select", "floordiv"


def resolved(polynomial: Polynomial, replacements: dict[Symbol, Polynomial]) -> Polynomial:
    """`polynomial` with `replacements` made, and each quotient by a polynomial that they
    make divide exactly replaced by its value (`(32*a*b) // (8*c*d)` is 4 once `c == a`
    and `d == b` are asserted)."""
    polynomial = polynomial.substitute(replacements)
    exact = {}
    for monomial in polynomial.terms:
        for symbol in monomial:
            definition = _DEFINITIONS.get(-symbol[0]) if is_computed(symbol) else None
            if definition is None or definition[0] != FLOOR_DIVIDE or not isinstance(definition[2], Polynomial):
                continue
            dividend, divisor = (part.substitute(replacements) for part in definition[1:])
            quotient = dividend.exact_divide(divisor)
            if quotient is not None:
                exact[symbol] = quotient
    return polynomial.substitute(exact)


def definition(symbol: Symbol) -> tuple | None:
    """`(SELECT, condition key, then, otherwise)` or `(FLOOR_DIVIDE, dividend, divisor)`
    of a defined symbol; None for a fresh one."""
    return _DEFINITIONS.get(-symbol[0])


def asserted(function_key: int, condition_key: tuple) -> bool | None:
    """The truth of a condition asserted at the function's entry, or None."""
    return _ASSERTED.get((function_key, condition_key))


def assume(function_key: int, condition_key: tuple, holds: bool) -> None:
    """Record a condition asserted at the function's entry block (before every op that
    relies on it)."""
    _ASSERTED[(function_key, condition_key)] = holds


def any_marked() -> bool:
    """Whether a fact was asserted or a guard marked since `forget_asserted`: attributes
    to strip."""
    return bool(_ASSERTED) or _guards_marked


# function key -> symbol -> the polynomial it equals (over symbols not replaced).
_REPLACEMENTS: dict[int, dict[Symbol, Polynomial]] = {}


def replacements(function_key: int | None) -> dict[Symbol, Polynomial]:
    return _REPLACEMENTS.get(function_key, {})


def replacement_count() -> int:
    """How many symbols are replaced, in all functions (grows when an equality is
    asserted)."""
    return sum(len(known) for known in _REPLACEMENTS.values())


def replacement_signature(function_key: int | None, mentioned: str) -> tuple:
    """The function's replacements of the symbols `mentioned` names (a memo key's text) as
    data: part of memo keys, since a calculation reading a replaced symbol may decide what
    it could not before. A replacement of a symbol the key does not name cannot change the
    calculation, so an op whose operands hold none keeps its memo entry. (A name that is a
    prefix of another, `%s1` of `%s12`, only costs a miss.)"""
    known = _REPLACEMENTS.get(function_key)
    if not known:
        return ()
    return tuple(sorted((item for item in known.items() if symbol_name(item[0]) in mentioned),
                        key=lambda item: item[0]))


# function key -> symbol -> (least, greatest or None): what asserted comparisons of one
# symbol with a constant say of it.
_RANGES: dict[int, dict[Symbol, tuple[int, int | None]]] = {}
_range_updates = 0
# An int comparison -> the comparison that holds where it does not.
NEGATIONS = {"torch.aten.eq.int": "torch.aten.ne.int", "torch.aten.lt.int": "torch.aten.ge.int",
             "torch.aten.le.int": "torch.aten.gt.int"}
NEGATIONS.update({negated: name for name, negated in NEGATIONS.items()})
# A comparison `c*s + k OP 0` as bounds on `c*s + k`: op -> (least, greatest).
_BOUNDS = {
    "torch.aten.ge.int": (0, None),
    "torch.aten.gt.int": (1, None),
    "torch.aten.le.int": (None, 0),
    "torch.aten.lt.int": (None, -1),
    "torch.aten.eq.int": (0, 0),
}


def has_ranges() -> bool:
    return bool(_RANGES)


def fact_count() -> int:
    """Grows with each replacement or range the store gains: what an op refined before
    may now refine further with."""
    return replacement_count() + _range_updates


def range_count() -> int:
    """How many asserted ranges there are (grows, or narrows one, with each `add_range`)."""
    return _range_updates


def asserted_range(function_key: int, symbol: Symbol) -> tuple[int, int | None] | None:
    """The range asserted comparisons give `symbol` in the function, or None."""
    return _RANGES.get(function_key, {}).get(symbol)


def range_items(function_key: int | None) -> tuple:
    """The function's asserted ranges as data (part of memo keys, with the ranges its
    binds state)."""
    return tuple(sorted(_RANGES.get(function_key, {}).items()))


def add_range(function_key: int, key: tuple, holds: bool) -> bool:
    """Rely on a condition (a calculation's key) that compares one size symbol with a
    constant from now on; False, with nothing recorded, for any other condition."""
    bounds = _symbol_bounds(function_key, key, holds)
    if bounds is None:
        return False
    _narrow(function_key, *bounds)
    return True


def _narrow(function_key: int, symbol: Symbol, low: int, high: int | None) -> None:
    global _range_updates
    known = _RANGES.setdefault(function_key, {})
    old_low, old_high = known.get(symbol, (0, None))
    narrowed = (max(low, old_low), high if old_high is None else old_high if high is None else min(high, old_high))
    if known.get(symbol) != narrowed:
        known[symbol] = narrowed
        _range_updates += 1


def defines_range(function_key: int, key: tuple, holds: bool) -> bool:
    """Whether `add_range` records something for the condition."""
    return _symbol_bounds(function_key, key, holds) is not None


def _symbol_bounds(function_key: int, key: tuple, holds: bool) -> tuple[Symbol, int, int | None] | None:
    """(symbol, least, greatest or None) a condition comparing `c*symbol + k` with 0 says,
    or None."""
    if len(key) != 3 or not all(isinstance(operand, Polynomial) for operand in key[1:]):
        return None
    name = key[0]
    if not holds:
        name = NEGATIONS.get(name)
    if name not in _BOUNDS:
        return None
    difference = (key[1] - key[2]).substitute(_REPLACEMENTS.get(function_key, {}))
    linear = [(m, c) for m, c in difference.terms.items() if m]
    if len(linear) != 1 or len(linear[0][0]) != 1:
        return None
    ((symbol,), coefficient), offset = linear[0], difference.terms.get((), 0)
    least, greatest = _BOUNDS[name]
    # least <= coefficient*symbol + offset <= greatest, solved for the symbol
    bounds = [None if b is None else b - offset for b in (least, greatest)]
    if coefficient < 0:
        bounds = [None if b is None else -b for b in reversed(bounds)]
        coefficient = -coefficient
    low = 0 if bounds[0] is None else max(0, -(-bounds[0] // coefficient))
    high = None if bounds[1] is None else bounds[1] // coefficient
    return symbol, low, high


def substitute(function_key: int | None, polynomial: Polynomial) -> Polynomial:
    return polynomial.substitute(_REPLACEMENTS.get(function_key, {}))


def solve(difference: Polynomial, known: dict[Symbol, Polynomial]) -> tuple[Symbol, Polynomial] | None:
    """`difference == 0` solved for one symbol that appears only in a term `±symbol`:
    (symbol, what it equals); None when there is none."""
    difference = difference.substitute(known)
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


def add_equality(function_key: int, lhs: Polynomial, rhs: Polynomial) -> None:
    """Rely on `lhs == rhs` (asserted at the function's entry) from now on; a replaced
    symbol's range goes to the symbol that replaces it."""
    known = _REPLACEMENTS.setdefault(function_key, {})
    extend(known, lhs, rhs)
    ranged = _RANGES.get(function_key, {})
    for symbol in [s for s in ranged if s in known]:
        low, high = ranged.pop(symbol)
        replacement = list(known[symbol].terms.items())
        if len(replacement) == 1 and len(replacement[0][0]) == 1 and replacement[0][1] == 1:
            _narrow(function_key, replacement[0][0][0], low, high)


def extend(known: dict[Symbol, Polynomial], lhs: Polynomial, rhs: Polynomial) -> None:
    """Replacements `known` extended by `lhs == rhs` solved for one symbol (if any)."""
    solved = solve(lhs - rhs, known)
    if solved is None:
        return
    symbol, value = solved
    for other, replacement in known.items():
        known[other] = replacement.substitute({symbol: value})
    known[symbol] = value


_broadcast_equal = True


@contextlib.contextmanager
def broadcasting(equal: bool):
    """Within: whether a broadcast of two sizes neither known to be 1 is asserted as their
    equality (torch.export's rule), or as `equal, or one of them 1`."""
    global _broadcast_equal
    before, _broadcast_equal = _broadcast_equal, equal
    try:
        yield
    finally:
        _broadcast_equal = before


def broadcast_equal() -> bool:
    return _broadcast_equal


def forget_asserted() -> None:
    global _guards_marked
    _guards_marked = False
    _ASSERTED.clear()
    _REPLACEMENTS.clear()
    _RANGES.clear()  # `_range_updates` goes on: signatures cached under a count stay apart
    _ENTRY_GUARDS.clear()
