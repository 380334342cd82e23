"""Erasing the entry guards the function's other facts imply, at clean-up
(`prune_implied_guards`): each decided case by case (engine/cases.py) under the asserted
equalities and conditions."""

from __future__ import annotations

from torch_refine.calculations import facts
from torch_refine.calculations.ranges import ANY, meet, polynomial_range
from torch_refine.calculations.store import FactStore
from torch_refine.engine import guards
from torch_refine.engine.cases import (
    _MAX_ASSUMPTIONS,
    _canonical,
    _key_symbols,
    _relevant,
    _substituted,
    _with_select_sides,
    decide_by_cases,
)
from torch_refine.symbolic.polynomial import Polynomial


def prune_implied_guards(module, store: FactStore) -> None:
    """Erase the guards asserted at a function's entry that the function's equalities,
    asserted since, imply (`96*a*b == 96*c*d` once `c == a` and `d == b` are): each was
    needed by an op refined before those equalities, or the same as one kept (`b != 0`
    once `b` is `a` and `a != 0` is asserted). The equalities that replaced a symbol stay
    (their own replacement is no evidence), but one that the others imply through a
    quotient (`(16*a*b) // (8*c*d) == 2` once `c == a` and `d == b` are): every entry
    assert holds before the first op runs. `store` holds the run's facts."""
    kept = set()
    set_aside: set = set()  # the selects whose range guards went: no later decision reads them
    erased: set = set()  # the facts of the guards that went: no later decision assumes them
    ranged: dict = {}  # (function key, symbol) -> the range the range guards kept give it
    for function_key, entry, assertion, key, holds in guards.entry_guards(module, store):
        replacements = store.replacements(function_key)
        if guards.defines_replacement(key, holds) and store.replaces(function_key, key[1], key[2]):
            own = {s for p in key[1:] if isinstance(p, Polynomial) for m in p.terms for s in m}
            others = {s: p for s, p in replacements.items() if s not in own}
            if decide_by_cases(_substituted(key, others, store), entry, store, assumptions=()) is holds:
                assertion.erase()
            continue
        if store.defines_range(function_key, key, holds):
            bounds = _range_of_guard(key, holds, replacements, entry, store)
            if _within_kept(ranged, function_key, bounds) or _implied_but_for_its_range(
                    _substituted(key, replacements, store), holds, entry, store, set_aside):
                assertion.erase()
            elif bounds is not None:
                ranged[function_key, bounds[0]] = meet(ranged.get((function_key, bounds[0]), ANY), bounds[1:])
            continue  # what the store relies on; its own range would decide it
        substituted = _substituted(key, replacements, store)
        within = {select: ANY for select in set_aside}
        others = _others(store, function_key, substituted, holds, erased)
        if (function_key, _fact(substituted, holds)) in kept or any(
                decide_by_cases(form, entry, store, within, _relevant(form, others, _PRUNING_ASSUMPTIONS)
                                + _replaced_quotients(form, replacements), _PRUNING_SPLITS) is holds
                for form in dict.fromkeys((substituted, key))):
            assertion.erase()
            erased.add(_fact(substituted, holds))
        else:
            kept.add((function_key, _fact(substituted, holds)))  # `4 == q` repeats `q == 4`


def _replaced_quotients(key: tuple, replacements: dict) -> tuple:
    """The asserted equalities that replaced a quotient reading a size `key` reads, as
    assumptions: a case of a select rebuilds the quotient from what it reads there (a plain
    ConvBERT's view asserted `(s0*s1) // b0 == b1` of the broadcasts `si`; where `s0` is
    `b0`, `s1 == b1`, which its matmul checks)."""
    read = _with_select_sides(_key_symbols(key), quotients=True)
    return tuple((("torch.aten.eq.int", Polynomial({(symbol,): 1}), value), True)
                 for symbol, value in replacements.items()
                 if facts.defined_as(symbol, facts.FLOOR_DIVIDE)
                 and _with_select_sides(frozenset((symbol,)), quotients=True) & read)


def _range_of_guard(key: tuple, holds: bool, replacements: dict, entry, store: FactStore) -> tuple | None:
    """(symbol, least, greatest) a guard giving one size a range says (`s + 2 >= 3`: s >= 1),
    for a size never negative; None for any other guard."""
    bounds = facts.condition_bounds(key, holds, replacements, lambda _symbol: (0, None))
    least = None if bounds is None else polynomial_range(Polynomial({(bounds[0],): 1}), entry, store)[0]
    return None if least is None or least < 0 else bounds


def _within_kept(ranged: dict, function_key: int, bounds: tuple | None) -> bool:
    """Whether the range guards kept before put the size within the guard's bounds (a
    conv1d's `s > 0` after its `s + 2 >= 3`): the earlier one is the fact."""
    if bounds is None or (function_key, bounds[0]) not in ranged:
        return False
    (least, greatest), (_, low, high) = ranged[function_key, bounds[0]], bounds
    return least is not None and least >= low and (high is None or (greatest is not None and greatest <= high))


# At clean-up, once per entry guard, a guard may be split by two asserted conditions' equalities
# (a view after two broadcasts, one per dim), and read one more of them (a plain Llama's
# attention after two broadcasts: both, two views' checks and three of their heads).
_PRUNING_SPLITS = 2
_PRUNING_ASSUMPTIONS = _MAX_ASSUMPTIONS + 1


def _others(store: FactStore, function_key: int, key: tuple, holds: bool, erased: set) -> list:
    """The function's asserted conditions of several comparisons (its replacements made),
    but the guard's own (`key` with them made) and those of guards erased before: each erased
    guard follows from the ones kept when it went, so none is erased on the word of one
    erased after it. A guard is decided as its sizes are replaced and as it reads them (a
    view's check after two broadcasts, which the broadcasts imply, reads its quotient; an
    equality asserted since makes the quotient 4, and the check one that needs it)."""
    replacements = store.replacements(function_key)
    own = _fact(key, holds)
    found, seen = [], set()
    for assumed, truth in store.compound_assumptions(function_key):
        assumed = _substituted(assumed, replacements, store)
        fact = _fact(assumed, truth)
        if fact != own and fact not in erased and fact not in seen:  # `(c, True)` and `(not c, False)` are one
            found.append((assumed, truth))
            seen.add(fact)
    return found


def _fact(key: tuple, holds: bool) -> tuple:
    """What a condition asserted with `holds` says, one key for `(c, True)` and `(not c, False)`."""
    fact = _canonical(key) if holds else ("not", _canonical(key))
    while fact[0] == "not" and isinstance(fact[1], tuple) and fact[1][0] == "not":
        fact = fact[1][1]
    return fact


def _implied_but_for_its_range(key: tuple, holds: bool, entry, run: FactStore, set_aside: set) -> bool:
    """Whether a guard giving a select its range is implied by the other facts: decided by
    the select's cases (`(x if y == 1 else y) >= 2` where `x >= 2` is asserted and `y >= 1`),
    its own range and those of the selects whose guards went before (`set_aside`, which it
    joins) set aside. (A guard on a size's own range would decide itself.)"""
    symbols = _key_symbols(key)
    if len(symbols) != 1:
        return False
    (symbol,) = symbols
    if not facts.defined_as(symbol, facts.SELECT):
        return False
    within = {select: ANY for select in set_aside | {symbol}}
    if decide_by_cases(key, entry, run, within, assumptions=()) is not holds:
        return False
    set_aside.add(symbol)
    return True
