"""Deciding a condition over sizes case by case: each size split into its least few values
and the rest of its range, a select split by its own condition (`decide_by_cases`)."""

from __future__ import annotations

import functools
import itertools

from torch_refine.calculations import facts
from torch_refine.calculations.ranges import (
    ANY,
    decide,
    meet,
    polynomial_range,
    within_condition,
)
from torch_refine.calculations.store import FactStore
from torch_refine.engine import comparison_groups, guards
from torch_refine.engine.evaluator_values import GiveUp, _decide
from torch_refine.ir.constants import op_key
from torch_refine.symbolic.comparisons import INT_COMPARISONS, MIRRORED, HashedKey
from torch_refine.symbolic.polynomial import Polynomial

# Conditions over at most this many sizes are decided case by case; each size's least
# values, one by one, then the rest of its range.
_CASE_SYMBOLS = 2
_CASE_VALUES = 3


def _truth(question: _Question, range_of) -> bool | None:
    """A condition's truth (`question`) where each polynomial ranges over `range_of(p)`
    and the assumptions (asserted before) hold; None when that leaves it open.
    Comparisons the ranges do not decide are free bools (at most `_FREE_ATOMS`): `a or
    (not a and b)` with b decided true holds whatever a is, and `not (a != b and a != 1
    and b != 1)` holds where it was asserted. Float comparisons are always free."""
    if question.excluded:
        return _EXCLUDED  # an assumption its case's sizes, solved in, make false
    decided = tuple(None if comparison is None else decide(comparison[0], *range_of(comparison[1]))
                    for comparison in question.comparisons)
    ranges = tuple(range_of(difference) for difference in question.groups)
    answer = question.answers.get((decided, ranges), _UNASKED)
    if answer is _UNASKED:
        answer = question.answers[decided, ranges] = _truth_of_atoms(question, decided, ranges)
    return answer


class _Question:
    """What `_truth` asks of a condition: its canonical key, the assumptions that speak of
    it (`relevant`, `_question`), whether one of constants is false (`excluded`), the
    comparisons they read (`atoms`), those of one polynomial with constants by it
    (`groups`), and the answers so far by the atoms the ranges decide and those polynomials'
    ranges (pure: cases of a split, and splits of other sizes, decide atoms alike)."""

    __slots__ = ("answers", "atoms", "comparisons", "excluded", "groups", "key", "relevant")

    def __init__(self, key: tuple, relevant: tuple, excluded: bool) -> None:
        self.key = key
        atoms = _atoms(key)
        for assumed, _ in relevant:
            atoms = atoms | _atoms(assumed)
        self.atoms = tuple(atoms)
        # (test, difference of sides) of each int comparison among them (`_atom_truth`)
        self.comparisons = tuple(None if INT_COMPARISONS.get(atom[0]) is None else
                                 (INT_COMPARISONS[atom[0]], _difference(atom)) for atom in self.atoms)
        self.relevant = relevant
        self.excluded = excluded
        self.groups = comparison_groups.by_polynomial(self.atoms)
        self.answers: dict[tuple, object] = {}


# One per canonical key, relevant assumptions and exclusion (shares answers).
_question_of = functools.lru_cache(maxsize=1 << 16)(_Question)


@functools.lru_cache(maxsize=1 << 16)  # one per condition and assumptions
def _question(key: tuple, assumptions: tuple) -> _Question:
    """The question `_truth` asks of a condition (a key, `_Condition.key`) under assumptions
    ((key, truth) pairs): those that speak of it (share a comparison with it or with one
    taken before, at most `_FREE_ATOMS` comparisons in all unless its own are more), and
    whether one of them is of constants and false."""
    canonical = _canonical(key)
    atoms = _atoms(canonical)
    relevant, excluded = [], False
    for assumed, holds in ((_canonical(k), holds) for k, holds in assumptions):
        if _of_constants(assumed) and _constant_truth(assumed) is (not holds):
            excluded = True
        more = _atoms(assumed)
        if more & atoms and len(atoms | more) <= _FREE_ATOMS:  # it speaks of this condition
            relevant.append((assumed, holds))
            atoms = atoms | more
    return _question_of(canonical, tuple(relevant), excluded)

_UNASKED = object()


def _truth_of_atoms(question: _Question, decided: tuple, ranges: tuple) -> bool | None:
    """`_truth` once the ranges decided some atoms (`decided`, None where open) and put
    each group's polynomial in `ranges`."""
    atoms, relevant, key = question.atoms, question.relevant, question.key
    known = dict(zip(atoms, decided, strict=True))
    free = [atom for atom, value in known.items() if value is None]
    if len(free) > _FREE_ATOMS:
        return None
    answers = set()
    groups = [(comparison_groups.candidates(members, bounds), members)
              for members, bounds in zip(question.groups.values(), ranges, strict=True)] if len(free) > 1 else []
    for values in itertools.product((False, True), repeat=len(free)):
        assignment = {**known, **dict(zip(free, values, strict=True))}
        if any(_value(assumed, assignment) is not holds for assumed, holds in relevant):
            continue  # a case the asserted conditions exclude
        if not all(comparison_groups.satisfiable(group, assignment) for group in groups):
            continue  # comparisons of one size that no value of it makes as assigned
        if relevant and not _consistent(assignment):
            continue  # equalities it takes contradict one another (a == b, b == c, a != c)
        answers.add(_value(key, assignment))
        if len(answers) > 1:
            return None
    return answers.pop() if answers else _EXCLUDED


# `_truth` of a case the assumptions exclude (no assignment of its atoms satisfies them).
_EXCLUDED = object()


def _consistent(assignment: dict) -> bool:
    """Whether the int (in)equalities an assignment of atoms takes can hold together: the
    sides each equality joins are one class (two constants never), and no disequality
    separates one class from itself."""
    parent: dict = {}

    def root(p):
        while parent.get(p, p) != p:
            p = parent[p]
        return p

    equal = [(a[1], a[2]) for a, v in assignment.items() if v is not None and _is_equality(a, v)]
    for lhs, rhs in equal:
        parent[root(lhs)] = root(rhs)
    constants: dict = {}
    for side in {side for pair in equal for side in pair}:
        value = side.constant_value()
        if value is not None and constants.setdefault(root(side), value) != value:
            return False
    return not any(root(a[1]) == root(a[2]) for a, v in assignment.items()
                   if v is not None and _is_equality(a, not v))


def _is_equality(atom: tuple, value: bool) -> bool:
    """Whether the atom, taken as `value`, says its sides are equal."""
    if not all(isinstance(side, Polynomial) for side in atom[1:]) or len(atom) != 3:
        return False
    return (atom[0] == "torch.aten.eq.int" and value) or (atom[0] == "torch.aten.ne.int" and not value)


@functools.lru_cache(maxsize=1 << 16)  # pure, and asked of each assumption in every case split
def _canonical(key):
    """A condition key with each int comparison of two polynomials in one order (the
    mirror where swapped) and `!=` as `not ==`, so that `b != a`, `a != b` and `a == b`
    read one atom; an equality's sides divided by their common factor (`guards.reduced`:
    `64*x == 64*y` is `x == y`)."""
    if isinstance(key, bool):
        return key
    if key[0] in ("not", "and", "or"):
        return HashedKey((key[0], *(_canonical(part) for part in key[1:])))
    if key[0] not in MIRRORED or not all(isinstance(side, Polynomial) for side in key[1:]):
        return HashedKey(key)
    if key[0] == "torch.aten.ne.int":
        return HashedKey(("not", _canonical(("torch.aten.eq.int", *key[1:]))))
    lhs, rhs = guards.reduced(key)[1:]
    if sorted(lhs.terms.items()) <= sorted(rhs.terms.items()):
        return HashedKey((key[0], lhs, rhs))
    return HashedKey((MIRRORED[key[0]], rhs, lhs))


_FREE_ATOMS = 6


@functools.lru_cache(maxsize=1 << 16)
def _atoms(key) -> frozenset:
    if isinstance(key, bool):
        return frozenset()
    if key[0] in ("not", "and", "or"):
        return frozenset().union(*(_atoms(part) for part in key[1:]))
    return frozenset((key,))


@functools.lru_cache(maxsize=1 << 16)  # asked of every assumption in every case
def _of_constants(key) -> bool:
    return not _key_symbols(key)


def _constant_truth(key) -> bool | None:
    """The truth of a condition of constants (int comparisons of constant polynomials), or
    None where it has another atom."""
    values = {atom: _atom_truth(atom, lambda p: (p.constant_value(),) * 2) for atom in _atoms(key)}
    return None if None in values.values() else _value(key, values)


def _atom_truth(atom: tuple, range_of) -> bool | None:
    test = INT_COMPARISONS.get(atom[0])
    if test is None:
        return None
    try:
        return _decide(test, *range_of(_difference(atom)))
    except GiveUp:
        return None


@functools.lru_cache(maxsize=1 << 16)  # pure, and asked in every case of a split
def _difference(comparison: tuple) -> Polynomial:
    return comparison[1] - comparison[2]


def _value(key, values: dict) -> bool:
    if isinstance(key, bool):
        return key
    op = key[0]
    if op == "not":
        return not _value(key[1], values)
    if op == "and":
        return all(_value(part, values) for part in key[1:])
    if op == "or":
        return any(_value(part, values) for part in key[1:])
    return values[key]


def decide_by_cases(key: tuple, entry, run: FactStore, within: dict | None = None,
                    assumptions: tuple | None = None, splits: int = 1) -> bool | None:
    """A condition over at most `_CASE_SYMBOLS` sizes that is the same in every case: each
    size is split into its least few values, one by one, and the rest of its range
    (`256*s == 64*s or 64*s > 0`, a view's check, holds at s = 0 and for s >= 1). A
    condition reading a select is first split by the select's own condition
    (`_decide_by_select`). `within` narrows some symbols' ranges; `assumptions` are the
    conditions of several comparisons asserted at the function's entry that share a size
    with it (a broadcast kept open), taken as given in every case, and (`splits` deep)
    split by their equalities where that decides it (`_decide_by_disjuncts`). `run` is the
    run's store: its asserted ranges and conditions, and its cache of decisions."""
    key = key if isinstance(key, HashedKey) else HashedKey(key)  # hashed again in every cache below
    if assumptions is None:
        function_key = None if entry is None else op_key(entry.owner)
        assumptions = _relevant(key, run.compound_assumptions(function_key))
    assumptions = assumptions if isinstance(assumptions, HashedKey) else HashedKey(assumptions)
    answer = _answer(key, entry, run, within, assumptions, splits)
    return None if answer is _EXCLUDED else answer


def _answer(key: tuple, entry, run: FactStore, within: dict | None, assumptions: tuple, splits: int):
    """`decide_by_cases`' answer, remembered for the run, or `_EXCLUDED` where the
    assumptions and ranges leave no case at all (a case of a split that cannot happen)."""
    cache = run.run_cache()
    # A block hashes and compares as its pointer (cheaper than `op_key`; never to None: it raises).
    cache_key = ("cases", key, () if entry is None else entry, run.range_count(),
                 tuple(sorted((within or {}).items())), assumptions, splits)
    answer = cache.get(cache_key, _UNASKED)
    if answer is _UNASKED:
        answer = cache[cache_key] = _decided(key, entry, run, within, assumptions, splits)
    return answer


def _decided(key: tuple, entry, run: FactStore, within: dict | None, assumptions: tuple,
             splits: int) -> bool | None:
    symbols = sorted(_key_symbols(key))
    selects = [s for s in symbols if facts.defined_as(s, facts.SELECT)] or sorted(  # else one a quotient reads
        s for s in _with_select_sides(frozenset(symbols), quotients=True)
        if facts.defined_as(s, facts.SELECT))
    if selects:
        answer = _decide_by_select(key, selects[0], entry, run, within, assumptions, splits)
    elif not symbols or len(symbols) > _CASE_SYMBOLS:
        # constants (a quotient the asserted equalities made exact), or too many sizes to
        # split: decided, if at all, by the ranges and the asserted conditions as they are
        answer = _truth(_question(key, assumptions), lambda p: polynomial_range(p, entry, run, within))
    else:
        answer = _decide_by_cases(key, symbols, entry, run, within or {}, assumptions)
    if answer is None and splits > 0 and symbols:
        answer = _decide_by_disjuncts(key, entry, run, within, assumptions, splits - 1)
    return answer


def _decide_by_disjuncts(key: tuple, entry, run: FactStore, within: dict | None, assumptions: tuple,
                         splits: int) -> bool | None:
    """A condition the same under each equality of an asserted condition that one of them
    holds (a broadcast's `a == b or a == 1 or b == 1`), each solved in (the one the ranges
    exclude skipped): ConvNeXt's `(y // 2) // 2 == x // 4` once `y // 2 == x // 2`."""
    def range_of(polynomial):
        return polynomial_range(polynomial, entry, run, within)

    for index, (assumption, holds) in enumerate(assumptions):
        equalities = _one_of(_canonical(assumption) if holds else ("not", _canonical(assumption)))
        if not equalities or len(equalities) > _MAX_DISJUNCTS:
            continue
        rest = assumptions[:index] + assumptions[index + 1:]
        answers = set()
        for equality in equalities:
            if _atom_truth(equality, range_of) is False:
                continue  # the ranges exclude it
            solved = _solved(equality, range_of)
            if solved is None:  # taken as given in its case, split no further: a view's `n - m*(n // m) == 0`
                answers.add(_truth(_question(key, (*rest, (equality, True))), range_of))
            else:
                substitution = dict([solved])
                answers.add(_answer(
                    _substituted(key, substitution, run), entry, run, _within_solved(solved, entry, run, within),
                    _substituted_assumptions(rest, substitution, run), splits))
            answers.discard(_EXCLUDED)  # a case the other assumptions rule out
            if None in answers or len(answers) > 1:
                break
        if len(answers) == 1 and None not in answers:
            return answers.pop()
        if not answers:
            return _EXCLUDED  # none of its equalities can hold: neither can this case
    return None


_MAX_DISJUNCTS = 3


def _solved(equality: tuple, range_of) -> tuple | None:
    """An int equality solved for one symbol (symbol, what it equals): `facts.solve`, else
    of powers of sizes (`facts.solve_powers`: `(h // 8)**2 == 1` is `h // 8 == 1`); or None."""
    difference = equality[1] - equality[2]
    return facts.solve(difference, {}) or facts.solve_powers(
        difference, lambda symbol: range_of(Polynomial({(symbol,): 1}))[0])


def _within_solved(solved: tuple, entry, run: FactStore, within: dict | None) -> dict | None:
    """`within` narrowed by what a symbol solved to a constant says of the symbols it is
    computed from (`ranges.within_condition`: `(y + 7) // 8 == 1` puts y in [1, 8])."""
    symbol, value = solved
    if value.constant_value() is None:
        return within
    narrowed = within_condition(("torch.aten.eq.int", Polynomial({(symbol,): 1}), value), True, entry, run) or {}
    merged = dict(within or {})
    for narrowed_symbol, bounds in narrowed.items():
        merged[narrowed_symbol] = meet(bounds, merged.get(narrowed_symbol, ANY))
    return merged


def _one_of(key) -> list | None:
    """Int equalities one of which holds wherever a condition holds (of a conjunction, the
    fewest one part implies), or None."""
    if isinstance(key, bool):
        return None
    if key[0] == "and":
        found = [equalities for equalities in map(_one_of, key[1:]) if equalities]
        return min(found, key=len) if found else None
    if key[0] == "torch.aten.eq.int" and len(key) == 3 and all(isinstance(o, Polynomial) for o in key[1:]):
        return [key]
    if key[0] == "or":
        parts = [_one_of(part) for part in key[1:]]
        return None if None in parts else [e for part in parts for e in part]
    if key[0] == "not" and not isinstance(key[1], bool) and key[1][0] == "not":
        return _one_of(key[1][1])
    if key[0] == "not" and not isinstance(key[1], bool) and key[1][0] == "and":
        return _one_of(("or", *(("not", part) for part in key[1][1:])))
    return None


_MAX_ASSUMPTIONS = 6


def _relevant(key: tuple, assumptions: list, most: int = _MAX_ASSUMPTIONS) -> tuple:
    """The asserted conditions sharing a size with `key` (a select's own sides count), the
    smallest first, at most `most` of them: what can decide it."""
    wanted, read = _with_select_sides(_key_symbols(key)), _with_select_sides(_key_symbols(key), quotients=True)
    found = []
    for assumption, holds in assumptions:
        symbols = _key_symbols(assumption)
        sides = _with_select_sides(symbols)
        if _with_select_sides(symbols, quotients=True) & read:
            # sharing a size only through a quotient's dividend: after the others
            found.append((not sides & wanted, len(_atoms(assumption)), (assumption, holds)))
    found.sort(key=lambda item: item[:2])
    return tuple(item[2] for item in found[:most])


@functools.lru_cache(maxsize=1 << 16)  # pure: definitions never change
def _with_select_sides(symbols: frozenset, quotients: bool = False) -> frozenset:
    """The symbols and those the selects among them read (their sides and conditions), and
    where `quotients`, those a quotient's dividend reads too (`(x if c else y) // 2`)."""
    found, pending = set(), list(symbols)
    while pending:
        symbol = pending.pop()
        if symbol in found:
            continue
        found.add(symbol)
        definition = facts.definition(symbol)
        if definition is not None and definition[0] == facts.SELECT:
            pending += [s for part in (definition[2], definition[3]) for s in part.symbols()]
            pending += [s for side in definition[1][1:] if isinstance(side, Polynomial) for s in side.symbols()]
        elif definition is not None and quotients:
            pending += [s for part in definition[1:] if isinstance(part, Polynomial) for s in part.symbols()]
    return frozenset(found)


def _decide_by_select(key: tuple, select, entry, run: FactStore, within: dict | None, assumptions: tuple = (),
                      splits: int = 1) -> bool | None:
    """A condition reading `select` (`then if c else otherwise`), the same where `c` holds,
    with the select its `then` (and `c`'s equality solved in: `s == 0` makes `s` 0), and
    where `c` fails, with the select its `otherwise` and `c`'s symbol narrowed (`s >= 1`):
    ONNX Reshape's `-1` among sizes `6 if s == 0 else s` divides either way. The assumptions
    are read the same way in each case."""
    _, condition, then, otherwise = facts.definition(select)
    answers = set()
    comparison = len(condition) == 3 and all(isinstance(o, Polynomial) for o in condition[1:])
    ranged = _atom_truth(condition, lambda p: polynomial_range(p, entry, run, within)) if comparison else None
    for holds, side in ((True, then), (False, otherwise)):
        if ranged is not None and ranged is not holds:
            continue  # a case the ranges exclude (`(y + 3) // 4 == 0` where y >= 1)
        substitution = {select: side}
        if holds and condition[0] == "torch.aten.eq.int" and all(isinstance(o, Polynomial) for o in condition[1:]):
            solved = facts.solve(condition[1] - condition[2], {})
            if solved is not None:
                substitution = {select: side.substitute(dict([solved])), solved[0]: solved[1]}
        narrowed = within_condition(condition, holds, entry, run)
        case_assumptions = _substituted_assumptions(assumptions, substitution, run)
        answer = _answer(_substituted(key, substitution, run), entry, run, {**(within or {}), **(narrowed or {})},
                         HashedKey((*case_assumptions, (_canonical(condition), holds))), splits)
        if answer is None:
            return None
        answers.add(answer)
    answers.discard(_EXCLUDED)  # a case the assumptions rule out
    return answers.pop() if len(answers) == 1 else _EXCLUDED if not answers else None


def _decide_by_cases(key: tuple, symbols: list, entry, run: FactStore, within: dict,
                     assumptions: tuple = ()) -> bool | None:
    cases = [{}]
    for symbol in symbols:
        low, high = polynomial_range(Polynomial({(symbol,): 1}), entry, run, within)
        low = 0 if low is None else low
        pieces = [(v, v) for v in range(low, low + _CASE_VALUES) if high is None or v <= high]
        if high is None or low + _CASE_VALUES <= high:
            pieces.append((low + _CASE_VALUES, high))
        cases = [{**case, symbol: piece} for case in cases for piece in pieces]
    question = _question(key, assumptions)
    answers, excluded = set(), True
    for case in cases:
        narrowed = {**within, **case}
        answers.add(_truth(question, lambda p, narrowed=narrowed: polynomial_range(p, entry, run, narrowed)))
        excluded = excluded and answers == {_EXCLUDED}
        answers.discard(_EXCLUDED)
        if None in answers or len(answers) > 1:
            return None  # open in some case, or different in two: the rest cannot decide it
    return answers.pop() if answers else _EXCLUDED if excluded and cases else None


@functools.lru_cache(maxsize=1 << 16)  # pure: a split asks it of each assumption again
def _key_symbols(key: tuple) -> frozenset:
    found = set()
    for operand in key[1:]:
        if isinstance(operand, tuple):
            found |= _key_symbols(operand)
        elif isinstance(operand, Polynomial):
            found |= operand.symbols()
    return frozenset(found)


def _substituted(key: tuple, replacements: dict, run: FactStore) -> tuple:
    return _substituted_by(key, tuple(sorted(replacements.items())), run)


def _substituted_assumptions(assumptions: tuple, replacements: dict, run: FactStore) -> HashedKey:
    """`assumptions` with `replacements` made in each, as a tuple remembering its hash."""
    items = tuple(sorted(replacements.items()))
    return HashedKey(tuple((_substituted_by(a, items, run), holds) for a, holds in assumptions))


def _substituted_by(key: tuple, replacements: tuple, run: FactStore) -> tuple:
    """`key` with `replacements` (sorted items) made in it, remembered in the run
    (`FactStore.substituted`): a case split makes the same substitutions in the same keys
    over and over, and rebuilding the quotients and selects they read was half of a plain
    Llama's refinement. A function of the key, the replacements, the symbol table, whose
    definitions never change, and the run's quotient forms, which only grow."""
    remembered = run.substituted.get((key, replacements))
    if remembered is not None:
        return remembered
    found = HashedKey((key[0], *(_substituted_by(o, replacements, run) if isinstance(o, tuple) else
                                 _substituted_polynomial(o, replacements, run) if isinstance(o, Polynomial)
                                 else o for o in key[1:])))
    run.substituted[(key, replacements)] = found
    return found


def _substituted_polynomial(polynomial: Polynomial, replacements: tuple, run: FactStore) -> Polynomial:
    """A key's side with `replacements` made in it, remembered as keys are (sides recur)."""
    remembered = run.substituted.get((polynomial, replacements))
    if remembered is None:
        known = dict(replacements)
        remembered = run.resolved(facts.rebuilt(polynomial, known, run.quotient_forms), known)
        run.substituted[(polynomial, replacements)] = remembered
    return remembered
