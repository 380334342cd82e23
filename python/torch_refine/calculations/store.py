"""The fact store of one refinement run (`FactStore`): the conditions asserted at each
function's entry with where each came from, the equalities solved into replacements, the
ranges asserted comparisons give symbols, and the run's bookkeeping of the asserts it
builds. One store is made where a run starts and passed to every part that reads or adds
facts; nothing else keeps a copy, so two runs (two threads) never see each other's facts.

The symbols the facts speak of, and their definitions, are `facts.py`'s: a symbol table
shared by every run (docs/facts.md says why).
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass

from torch_mlir import ir

from torch_refine.calculations import facts
from torch_refine.symbolic.comparisons import INT_COMPARISONS, HashedKey
from torch_refine.symbolic.polynomial import COMPUTED_NAME, Polynomial, Symbol, symbol_name

# Marks the asserts (not their conditions) asserted at a function's entry, so the next one
# goes after them; dim_facts.strip removes them with the dim facts.
ENTRY_GUARD = "torch_refine.entry_guard"
# A check kept in front of one op (an assert, or a raising If) carries the op's guard id
# (`GUARD_ID` on the op): refined again under new facts, the op's old checks go.
GUARD_OF = "torch_refine.guard_of"
GUARD_ID = "torch_refine.guard_id"
MARKS = (ENTRY_GUARD, GUARD_OF, GUARD_ID)


@dataclass(frozen=True)
class Fact:
    """One fact a decision used: an asserted condition (`key`, `holds`), a replacement
    (`key` is the symbol, `holds` what it equals) or a range (`key` the symbol, `holds` its
    bounds), with where it came from (`source`)."""

    kind: str  # "asserted", "replacement" or "range"
    key: object
    holds: object
    source: str


@dataclass(frozen=True)
class Decision:
    """A condition decided by the store: its truth, and the facts that decide it."""

    holds: bool
    facts: tuple[Fact, ...]

    @property
    def by_assertion(self) -> bool:
        """Whether the condition is decided as asserted itself (nothing to assert again)."""
        return self.facts[0].kind == "asserted"


class FactStore:
    """The facts of one refinement run, by function (`op_key` of its `func.func`)."""

    def __init__(self, broadcast_equal: bool = False, marking: bool = False) -> None:
        # How a broadcast of two sizes neither known to be 1 is asserted: their equality
        # (torch.export's rule) or `equal, or one of them 1`; from the run's option.
        self.broadcast_equal = broadcast_equal
        # Whether kept checks are marked with their op's guard id: set by
        # `torch-refine-pipeline`, which strips the marks again at its end.
        self.marking = marking
        # (function key, condition key) -> (truth, where it came from): conditions asserted
        # at the function's entry block; from `guards` (an op's guard, a program's assert
        # hoisted or adopted at the entry).
        self._asserted: dict[tuple, tuple[bool, str]] = {}
        # function key -> the asserted conditions of several comparisons (a broadcast kept
        # open, `a == b or a == 1 or b == 1`) with their truth: what a case split takes as
        # given; from `assume`.
        self._compound: dict[int, list[tuple[tuple, bool]]] = {}
        # function key -> symbol -> the polynomial it equals (over symbols not replaced);
        # from asserted equalities (`add_equality`).
        self._replacements: dict[int, dict[Symbol, Polynomial]] = {}
        # (function key, lhs, rhs) of each asserted equality that replaced a symbol.
        self._replacing: set[tuple] = set()
        # (function key, symbol) -> where the equality replacing it, or the comparison
        # bounding it, came from: what `decided` names.
        self._sources: dict[tuple, str] = {}
        # function key -> symbol -> (least, greatest or None): from asserted comparisons of
        # one symbol (or one remainder) with a constant (`add_range`).
        self._ranges: dict[int, dict[Symbol, tuple[int, int | None]]] = {}
        # (function key, condition key, truth) of each asserted comparison that narrowed a range.
        self._ranging: set[tuple] = set()
        # How many times `add_range` narrowed a range: part of cache keys.
        self._range_updates = 0
        # The condition key and truth of each entry guard, by the id its `ENTRY_GUARD` mark
        # carries; from `entry_guard_id` (guards).
        self._entry_guards: list[tuple[tuple, bool]] = []
        # function key -> the entry guard asserted last, for the next to go after it;
        # within one `refine` call (`refining`), which erases none.
        self._last_entry_guards: dict[int, ir.Operation] = {}
        # What was derived from the facts as they stood (decisions by cases, keyed by the
        # range count they read); within one `refine` call (`refining`).
        self._run_cache: dict = {}
        # Whether dims attributes (`dim_facts.ATTRIBUTE`) were put on ops: to strip at the end.
        self.dims_set = False
        # What the binds say, scanned once per run (dim_facts): (function, argument, dim) ->
        # that dim's polynomial, and `torch.symbolic_int` op -> the first argument dim bound to it.
        self.argument_dims: dict = {}
        self.representatives: dict = {}
        # A quotient's value as a function (`quasi_affine.value_key`) -> the form of it this
        # run made first, and that form's value at 0: where a value has several normal forms
        # (`(x % 5) // 2 // 2` and `(x % 5) // 4`), every later one is that one
        # (`facts._by_constant`). The run's own, so no other run's forms decide its output.
        self.quotient_forms: dict = {}
        # (condition key or a side of one, sorted replacements) -> it with them made in it (cases'
        # `_substituted`): a case split makes the same substitutions over and over. Of the
        # run, since what it makes is in the run's quotient forms.
        self.substituted: dict = {}
        # The literals and containers found unmutated in the greedy rewrite running
        # (`lists.unmutated_literals_memo`: a `lists.LiteralsMemo`), None outside one.
        self.unmutated_literals = None
        self._refining = False  # inside `refining`
        self._guard_ids = 0  # the last guard id given an op (`mark_guard`)
        self._guards_marked = False  # whether `mark_guard` marked a check

    # -- one refinement of a module ---------------------------------------------------

    @contextlib.contextmanager
    def refining(self):
        """One refinement of a module, which erases no entry guard: within it the handle
        of the last one and the derived decisions hold. Both start empty and end empty."""
        self._last_entry_guards.clear()
        try:
            with self.pruning():
                yield
        finally:
            self._last_entry_guards.clear()

    @contextlib.contextmanager
    def pruning(self):
        """The clean-up's pruning of implied guards, which erases only asserts: within it,
        as within a refinement, ranges and binds are remembered (`refinement_cache`)."""
        self._run_cache.clear()
        self._refining = True
        try:
            yield
        finally:
            self._refining = False
            self._run_cache.clear()

    def resolved(self, polynomial: Polynomial, replacements: dict) -> Polynomial:
        """`facts.resolved` under the run's quotient forms, remembered (in the run cache): a
        function of the polynomial, the replacements (in their order, which
        `_through_replaced_quotient` reads), the symbol table and the forms, which only
        grow. The evaluator settles the same sizes again and again."""
        key = ("resolved", polynomial, tuple(replacements.items()))
        found = self._run_cache.get(key)
        if found is None:
            found = self._run_cache[key] = facts.resolved(polynomial, replacements, self.quotient_forms)
        return found

    def run_cache(self) -> dict:
        return self._run_cache

    def refinement_cache(self) -> dict | None:
        """The run cache while a refinement runs (which erases no op it may hold), else None."""
        return self._run_cache if self._refining else None

    # -- the asserts built -------------------------------------------------------------

    def entry_guard_id(self, key: tuple, holds: bool) -> int:
        """The id an entry guard's mark carries (`ENTRY_GUARD`): it names its condition."""
        self._entry_guards.append((key, holds))
        return len(self._entry_guards) - 1

    def entry_guard(self, identifier: int) -> tuple[tuple, bool]:
        return self._entry_guards[identifier]

    def last_entry_guard(self, function_key: int) -> ir.Operation | None:
        return self._last_entry_guards.get(function_key)

    def set_last_entry_guard(self, function_key: int, assertion: ir.Operation) -> None:
        self._last_entry_guards[function_key] = assertion

    def mark_guard(self, check, op) -> None:
        """Mark `check` as kept for `op` (ir operations), where the run marks checks."""
        if not self.marking:
            return
        self._guards_marked = True
        attributes = op.operation.attributes
        if GUARD_ID not in attributes:
            self._guard_ids += 1
            attributes[GUARD_ID] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), self._guard_ids)
        check.operation.attributes[GUARD_OF] = attributes[GUARD_ID]

    def any_marked(self) -> bool:
        """Whether a fact was asserted or a guard marked: attributes to strip."""
        return bool(self._asserted) or self._guards_marked

    # -- asserted conditions -------------------------------------------------------------

    def assume(self, function_key: int, condition_key: tuple, holds: bool, source: str) -> None:
        """Record a condition asserted at the function's entry block (before every op that
        relies on it), and where it came from."""
        self._asserted[(function_key, condition_key)] = (holds, source)
        if condition_key[0] in ("not", "and", "or"):
            self._compound.setdefault(function_key, []).append((HashedKey(condition_key), holds))

    def asserted(self, function_key: int | None, condition_key: tuple) -> bool | None:
        """The truth of a condition asserted at the function's entry, or None."""
        found = self._asserted.get((function_key, condition_key))
        return None if found is None else found[0]

    def source(self, function_key: int | None, condition_key: tuple) -> str | None:
        """Where an asserted condition came from, or None."""
        found = self._asserted.get((function_key, condition_key))
        return None if found is None else found[1]

    def compound_assumptions(self, function_key: int | None) -> list[tuple[tuple, bool]]:
        return self._compound.get(function_key, [])

    def decided(self, function_key: int | None, condition_key: tuple, by_replacements: bool = True) -> Decision | None:
        """Whether the function's facts decide a condition, and by which: the condition
        asserted itself; else a comparison whose sides the replacements make differ by a
        constant (`by_replacements`); else one whose difference is one symbol plus a
        constant, bounded by the symbol's asserted range. None where they do not."""
        found = self._asserted.get((function_key, condition_key))
        if found is not None:
            return Decision(found[0], (Fact("asserted", condition_key, found[0], found[1]),))
        test = INT_COMPARISONS.get(condition_key[0])
        if test is None or len(condition_key) != 3 or not all(isinstance(o, Polynomial) for o in condition_key[1:]):
            return None
        difference = condition_key[1] - condition_key[2]
        known = self._replacements.get(function_key, {})
        used = tuple(Fact("replacement", s, known[s], self._sources.get((function_key, s), "asserted equality"))
                     for s in sorted(difference.symbols()) if s in known) if by_replacements else ()
        if used:
            difference = facts.resolved(difference, known, self.quotient_forms)
        constant = difference.constant_value()
        if constant is not None:
            return Decision(test(constant, 0), used) if used else None
        return self._decided_by_range(function_key, test, difference, used)

    def _decided_by_range(self, function_key, test, difference: Polynomial, used: tuple) -> Decision | None:
        linear = difference.linear_in_one_symbol()
        if linear is None:
            return None
        symbol, coefficient, offset = linear
        bounds = self.asserted_range(function_key, symbol)
        if bounds is None:
            return None
        least, greatest = bounds
        at_greatest = math.copysign(math.inf, coefficient) if greatest is None else coefficient * greatest + offset
        low, high = sorted((coefficient * least + offset, at_greatest))
        truths = {test(low, 0), test(high, 0)}
        if len(truths) != 1 or not _monotone_truth(test, low, high):
            return None
        source = self._sources.get((function_key, symbol), "asserted comparison")
        return Decision(truths.pop(), (*used, Fact("range", symbol, bounds, source)))

    # -- replacements ----------------------------------------------------------------------

    def replacements(self, function_key: int | None) -> dict[Symbol, Polynomial]:
        return self._replacements.get(function_key, {})

    def substitute(self, function_key: int | None, polynomial: Polynomial) -> Polynomial:
        return polynomial.substitute(self._replacements.get(function_key, {}))

    def replacement_count(self) -> int:
        """How many symbols are replaced, in all functions (grows when an equality is
        asserted)."""
        return sum(len(known) for known in self._replacements.values())

    def replacement_signature(self, function_key: int | None, mentioned: str) -> tuple:
        """The function's replacements of the symbols `mentioned` names (a memo key's text)
        as data: part of memo keys, since a calculation reading a replaced symbol may decide
        what it could not before. A replacement of a symbol the key does not name cannot
        change the calculation, so an op whose operands hold none keeps its memo entry. (A
        name that is a prefix of another, `%s1` of `%s12`, only costs a miss.)"""
        known = self._replacements.get(function_key)
        if not known:
            return ()
        found = [item for item in known.items() if symbol_name(item[0]) in mentioned]
        for number in {int(n) for n in COMPUTED_NAME.findall(mentioned)}:
            if facts.definition((-number, 0, 1)) is None:
                continue
            symbol = Polynomial({((-number, 0, 1),): 1})  # a select or quotient they may decide
            value = facts.resolved(symbol, known, self.quotient_forms)
            if value != symbol:
                found.append(((-number, 0, 1), value))
        return tuple(sorted(found, key=lambda item: item[0]))

    def add_equality(self, function_key: int, lhs: Polynomial, rhs: Polynomial, source: str = "") -> None:
        """Rely on `lhs == rhs` (asserted at the function's entry, from `source`) from now
        on; a replaced symbol's range goes to the symbol that replaces it. An equality that
        replaces a symbol is remembered (`replaces`)."""
        known = self._replacements.setdefault(function_key, {})
        reduced = self._without_nonzero_factors(function_key, (lhs - rhs).substitute(known))
        before = set(known)
        if facts.extend(known, lhs, rhs) or (reduced is not None and facts.extend(known, reduced, Polynomial())):
            self._replacing.add((function_key, lhs, rhs))
            self._sources.update({(function_key, symbol): source for symbol in set(known) - before if source})
        ranged = self._ranges.get(function_key, {})
        for symbol in [s for s in ranged if s in known]:
            low, high = ranged.pop(symbol)
            # `c*t + d` in [low, high] bounds t: `x >= 1` with `x == 2*(x + 1) // 2` (x even)
            # makes the quotient at least 1
            bounds = [("torch.aten.ge.int", low), *([("torch.aten.le.int", high)] if high is not None else [])]
            for comparison, bound in bounds:
                found = facts.condition_bounds((comparison, known[symbol], Polynomial.constant(bound)), True, {},
                                               _any_size)
                if found is not None:
                    self._narrow(function_key, *found)

    def _without_nonzero_factors(self, function_key: int, difference: Polynomial) -> Polynomial | None:
        """`difference` without the factors whose asserted range excludes 0 (a view's
        `p*p*n == 2*h*p*n` with `p >= 2` asserted is `p == 2*h`), or None where there is none."""
        ranged = self._ranges.get(function_key, {})
        return difference.without_common_factors(lambda s: ranged.get(s, (0, None))[0] >= 1)

    def replaces(self, function_key: int, lhs: Polynomial, rhs: Polynomial) -> bool:
        """Whether the asserted `lhs == rhs` replaced a symbol (its own replacement would
        decide it: it is not implied by the others)."""
        return (function_key, lhs, rhs) in self._replacing

    # -- ranges ------------------------------------------------------------------------------

    def has_ranges(self) -> bool:
        return bool(self._ranges)

    def fact_count(self) -> int:
        """Grows with each replacement or range the store gains: what an op refined before
        may now refine further with."""
        return self.replacement_count() + self._range_updates

    def range_count(self) -> int:
        """How many asserted ranges there are (grows, or narrows one, with each `add_range`)."""
        return self._range_updates

    def asserted_range(self, function_key: int | None, symbol: Symbol) -> tuple[int, int | None] | None:
        """The range asserted comparisons give `symbol` in the function, or None."""
        return self._ranges.get(function_key, {}).get(symbol)

    def range_items(self, function_key: int | None) -> tuple:
        """The function's asserted ranges as data (part of memo keys, with the ranges its
        binds state)."""
        return tuple(sorted(self._ranges.get(function_key, {}).items()))

    def add_range(self, function_key: int, key: tuple, holds: bool, source: str = "") -> bool:
        """Rely on a condition (a calculation's key, asserted from `source`) that compares
        one size symbol with a constant from now on; False, with nothing recorded, for any
        other condition. A size unequal to its least (`s != 0`) is above it."""
        known = self._ranges.get(function_key, {})
        bounds = facts.condition_bounds(key, holds, self._replacements.get(function_key, {}),
                                        lambda symbol: known.get(symbol, (0, None)))
        if bounds is None:  # of a remainder (`7 > 6 * (h % 7)`), under ranges.remainder_key
            from torch_refine.calculations.ranges import remainder_bounds  # ranges imports this module
            bounds = remainder_bounds(key, holds, known.get)
        if bounds is None:
            return False
        self._narrow(function_key, *bounds)
        self._ranging.add((function_key, key, holds))
        if source:
            self._sources[(function_key, bounds[0])] = source
        return True

    def defines_range(self, function_key: int, key: tuple, holds: bool) -> bool:
        """Whether `add_range` recorded something for the condition (its own range would
        decide it: it is not implied by the others)."""
        return (function_key, key, holds) in self._ranging

    def _narrow(self, function_key: int, symbol: Symbol, low: int, high: int | None) -> None:
        known = self._ranges.setdefault(function_key, {})
        old_low, old_high = known.get(symbol, (0, None))
        narrowed = (max(low, old_low), high if old_high is None else old_high if high is None else min(high, old_high))
        if known.get(symbol) != narrowed:
            known[symbol] = narrowed
            self._range_updates += 1
            self._narrow_dividend(function_key, symbol, *narrowed)

    def _narrow_dividend(self, function_key: int, symbol: Symbol, low: int, high: int | None) -> None:
        """The normal form names `x // 8` where the program asserted `(x // 4 - 2) // 2 >= 1`,
        and the range must reach `x` for `x // 4` to be decided by it (`facts.dividend_bounds`)."""
        found = facts.dividend_bounds(symbol, low, high)
        if found is not None:
            inner, least, greatest = found
            self._narrow(function_key, inner, max(0, least), greatest)


def _any_size(_symbol: Symbol) -> tuple[int, None]:
    return 0, None


def _monotone_truth(test, low: int, high: int) -> bool:
    """Whether a comparison with 0 of every value in [low, high] is that of its ends:
    `!=` is not where 0 lies strictly inside."""
    return not (test(1, 0) == test(-1, 0) != test(0, 0) and low < 0 < high)


def take_guard_id(op) -> object | None:
    """The op's guard id (an attribute), removed: checks kept from now on get a new one."""
    attributes = op.operation.attributes
    if GUARD_ID not in attributes:
        return None
    found = attributes[GUARD_ID]
    del attributes[GUARD_ID]
    return found



class Scope:
    """A function's facts as one evaluation reads them (engine/evaluator.py): the store's
    replacements and those the evaluation's own guards add (a broadcast's equality, not
    yet asserted), the symbolic divisors it met, and the function's entry block, whose
    binds state the ranges. A branch of a select runs in `branch`: what it adds is gone
    after it."""

    def __init__(self, store: FactStore, function_key: int | None, entry) -> None:
        self.store = store
        self.function_key = function_key
        self.entry = entry
        self.replacements = dict(store.replacements(function_key))
        self.divisors: list = []

    def extend(self, lhs: Polynomial, rhs: Polynomial) -> None:
        facts.extend(self.replacements, lhs, rhs)

    @contextlib.contextmanager
    def branch(self):
        before = dict(self.replacements)
        try:
            yield
        finally:
            self.replacements.clear()
            self.replacements.update(before)
