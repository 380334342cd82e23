"""The fallback for ops without a library function: PyTorch's own meta kernels.

Almost every ATen op has a meta kernel or a decomposition, which is how torch.export
traces sizes symbolically. An op the library has no function for is described from the
IR (`describe`: operand types, constant scalars, sizes as polynomials over the symbols
of docs/symbolic-dims.md, their ranges) and run on fake tensors of those types under a
`ShapeEnv` whose symbols are the dynamic dims (`infer`). The result sizes come back as
sympy expressions of the symbols: a polynomial with integer coefficients is a dim the IR
can name, anything else (a quotient, a max, a data-dependent size) is `?`.

Every dynamic dim gets the same example value (`HINT`), so where the kernel compares two
sizes it takes the branch that holds when they are equal, and ShapeEnv records the guard
that branch needs. A guard the ranges decide is dropped; one whose failing cases are
few (`s != 1`, `s >= 2`, `a*b != 0`) is checked case by case (the kernel run again at
each failing value, the result substituted) and dropped when the result holds there
too; a guard left is an int comparison the caller asserts (engine/guards.py), unless it
pins a size to a constant (the kernel specialized it: the sizes stay unknown) or is no
comparison of polynomials (the sizes stay unknown). A kernel that raises at the example
sizes is read by the guards on its path to the raise (`_off_the_path`): it raises at
every size (an error at the op), or runs only in a few cases of pinned sizes (asserted).
Nothing here is claimed that a kept guard does not make hold.

Answers are cached per op name and operand signature for the process. torch is
imported only when an op is inferred: start-up (torch-refine-opt) stays torch-free.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import re
from dataclasses import dataclass

from torch_mlir import ir

from torch_refine.calculations.dim_facts import express, tensor_dims
from torch_refine.calculations.lists import LIST_MUTATING_OPS
from torch_refine.calculations.ranges import enclosing_function, symbol_range
from torch_refine.calculations.store import FactStore
from torch_refine.calculations.symbols import library_key
from torch_refine.ir import types
from torch_refine.ir.constants import NotConstant, constant_value, defining_op, op_key
from torch_refine.ir.retype import most_precise_alias
from torch_refine.symbolic.comparisons import NEGATED, spelled
from torch_refine.symbolic.polynomial import Polynomial, format_polynomial, parse_polynomial

SYMBOL = "meta_fallback"  # what `reify.targets` gives an op the fallback serves
HINT = 31  # the example value of every dynamic dim: prime, above the usual small constants
_MAX_CASES = 6  # cases failing a guard checked one by one
DATA_DEPENDENT = "data-dependent size"
_COMPARISONS = {
    "Equality": "torch.aten.eq.int", "Unequality": "torch.aten.ne.int",
    "StrictLessThan": "torch.aten.lt.int", "LessThan": "torch.aten.le.int",
    "StrictGreaterThan": "torch.aten.gt.int", "GreaterThan": "torch.aten.ge.int",
}
_QUIET_LOGGERS = ("torch._subclasses.fake_tensor", "torch.fx.experimental.symbolic_shapes",
                  "torch.fx.experimental.recording")


@dataclass(frozen=True)
class TensorOperand:
    sizes: tuple  # per dim: an int, a Polynomial, or an Opaque (a size nothing names)
    dtype: int  # c10::ScalarType code


@dataclass(frozen=True)
class Opaque:
    """An int known only at run time that no polynomial names: a symbol of its own, and
    any size it reaches is unknown."""

    index: int


@dataclass(frozen=True)
class Signature:
    op: str  # `aten.kron`
    operands: tuple
    ranges: tuple  # (symbol, least, greatest or None), sorted
    results: tuple  # per IR result: whether it is a tensor


@dataclass(frozen=True)
class Answer:
    """Per IR result, (sizes, dtype code) for a tensor (a size is an int, a Polynomial or
    None) or None; the guards the answer needs as (comparison op, lhs, rhs); why
    something stayed unknown, or None; and `failure`, the check PyTorch's kernel failed
    where the operands have no dynamic size: the op raises whenever it runs."""

    results: tuple
    guards: tuple
    reason: str | None
    failure: str | None = None
    checks: tuple = ()  # the guards PyTorch's kernel raises without (not a branch it takes)


class Undescribable(Exception):
    """An operand the fallback cannot pass to PyTorch; the message says which."""


# --- from the IR ------------------------------------------------------------------------------


def serves(op, kind_has_function) -> bool:
    """Whether `op` is an ATen op with results (by name; PyTorch decides when inferring)
    that the library does not serve (`kind_has_function(key)`): what the fallback may type."""
    key = library_key(op)
    if key is None or not key.startswith("aten.") or kind_has_function(key):
        return False
    return bool(len(op.operation.results))


def describe(op, results: list, store: FactStore) -> Signature:
    """The signature `infer` answers for `op`, whose typed results are `results`, its
    sizes read through the run's replacements (`store`); raises Undescribable."""
    function = enclosing_function(op)
    replacements = store.replacements(op_key(function) if function is not None else None)
    opaque: list = []
    operands = tuple(_operand(v, replacements, opaque, store) for v in op.operation.operands)
    entry = function.regions[0].blocks[0] if function is not None else None
    symbols = sorted({s for p in _polynomials(operands) for m in p.terms for s in m})
    ranges = tuple((s, *_range(entry, s, store)) for s in symbols)
    kinds = tuple(types.parse(r.type) is not None for r in results)
    return Signature(library_key(op), operands, ranges, kinds)


def _range(entry, symbol, run: FactStore) -> tuple:
    return (0, None) if entry is None else symbol_range(entry, symbol, run)


def _polynomials(operands) -> list[Polynomial]:
    found = []
    for operand in operands:
        if isinstance(operand, Polynomial):
            found.append(operand)
        elif isinstance(operand, TensorOperand):
            found += [d for d in operand.sizes if isinstance(d, Polynomial)]
        elif isinstance(operand, tuple):
            found += _polynomials(operand)
    return found


def _operand(value: ir.Value, replacements: dict, opaque: list, run: FactStore):
    producer = defining_op(value)
    if producer is not None and producer.operation.name == "torch.derefine":  # an Optional's value
        return _operand(producer.operands[0], replacements, opaque, run)
    text = str(value.type)
    if types.is_tensor_type_text(text):
        return _tensor(value, replacements, opaque, run)
    if text.startswith("!torch.list<"):
        return tuple(_operand(e, replacements, opaque, run) for e in _literal(value))
    if text == "!torch.Device":
        return "cpu"  # sizes do not depend on the device; fake tensors live on the CPU
    try:
        return constant_value(value)
    except NotConstant:
        pass
    if text != "!torch.int":
        raise Undescribable(f"an operand of type {text} that is not a constant")
    polynomial = express(value, run)
    if polynomial is None:
        return _opaque(opaque)
    return _named(replacements, polynomial)


def _named(replacements: dict, polynomial: Polynomial):
    polynomial = polynomial.substitute(replacements)
    value = polynomial.constant_value()
    return polynomial if value is None else value


def _opaque(opaque: list) -> Opaque:
    opaque.append(None)
    return Opaque(len(opaque))


def _literal(value: ir.Value) -> list:
    producer = defining_op(value)
    while producer is not None and producer.operation.name == "torch.derefine":
        producer = defining_op(producer.operands[0])
    if producer is None or producer.operation.name != "torch.prim.ListConstruct":
        raise Undescribable("a list operand that is not a list literal")
    if any(use.owner.operation.name in LIST_MUTATING_OPS for use in producer.results[0].uses):
        raise Undescribable("a list operand that is mutated")
    return list(producer.operation.operands)


def _tensor(value: ir.Value, replacements: dict, opaque: list, run: FactStore) -> TensorOperand:
    value = most_precise_alias(value)
    info = types.parse(value.type)
    if info is None or not info.value_semantics:
        raise Undescribable("a tensor operand without value semantics")
    if info.sizes is None:
        raise Undescribable("a tensor operand of unknown rank")
    if info.dtype not in types.ELEMENT_TO_DTYPE:
        raise Undescribable("a tensor operand of unknown dtype")
    named = tensor_dims(value, run) if None in info.sizes else None
    sizes = []
    for dim, size in enumerate(info.sizes):
        if size is not None:
            sizes.append(size)
            continue
        polynomial = parse_polynomial(named[dim]) if named is not None and named[dim] else None
        sizes.append(_opaque(opaque) if polynomial is None else _named(replacements, polynomial))
    return TensorOperand(tuple(sizes), types.ELEMENT_TO_DTYPE[info.dtype])


# --- from PyTorch -----------------------------------------------------------------------------

_ANSWERS: dict[Signature, Answer] = {}


def infer(signature: Signature) -> Answer:
    """What PyTorch's meta kernel (or decomposition) gives for `signature` (cached)."""
    if signature not in _ANSWERS:
        _ANSWERS[signature] = _infer(signature, _Cases())
    return _ANSWERS[signature]


class _Cases:
    """The cases of pinned sizes inferred for one op's answer (each may pin further):
    each once, and at most `_MAX_PINNED` of them (a kernel raising on many dynamic dims
    would otherwise try every combination)."""

    def __init__(self) -> None:
        self.left = _MAX_PINNED
        self.answers: dict[Signature, Answer] = {}

    def infer(self, signature: Signature) -> Answer | None:
        """The answer for `signature`, or None past the budget."""
        if signature not in self.answers:
            if self.left <= 0:
                return None
            self.left -= 1
            self.answers[signature] = _infer(signature, self)
        return self.answers[signature]


_MAX_PINNED = 24


def _infer(signature: Signature, cases: _Cases) -> Answer:
    try:
        overload = _overload(signature.op)
    except ImportError:
        return _unknown(signature, "PyTorch is not installed")
    except (AttributeError, RuntimeError):
        return _unknown(signature, f"{signature.op} is no op of PyTorch's registry")
    arguments = overload._schema.arguments
    if len(arguments) != len(signature.operands):
        return _unknown(signature, f"{len(signature.operands)} operands where PyTorch's schema has {len(arguments)}")
    run = _Run(signature, overload, {})
    general = run.outcome()
    if isinstance(general, str):
        return _off_the_path(signature, overload, run, cases) or Answer(
            _unknown(signature, general).results, (), general, run.failure)
    results, guards, dims_reason = general
    prover = _Prover(signature, overload, results, guards)
    # The kernel's checks come before the branches they make safe: trying the last guards
    # first drops a branch's guard under the check (diff's `3*a - 3 >= 2` under `a >= 1`).
    kept = [g for g in reversed(guards) if prover.needed(g)][::-1]
    reason = dims_reason
    unstated = [g for g in kept if not isinstance(g, tuple)]
    pinned = [g for g in kept if isinstance(g, tuple) and _pins(g)]
    if unstated or pinned:
        shown = str(unstated[0]) if unstated else _text(pinned[0])
        why = "a condition no int comparison states" if unstated else "a size pinned to its example value"
        sizes_free = tuple(None if r is None else (None, r[1]) for r in results)
        return Answer(sizes_free, (), f"PyTorch's kernel needs {why} ({shown})")
    checks = tuple(g for g in kept if prover.raises_without(g))
    return Answer(results, tuple(kept), reason, checks=checks)


def _off_the_path(signature: Signature, overload, run: _Run, cases: _Cases) -> Answer | None:
    """Where the kernel raised one of its checks at the example sizes, it raises wherever
    the guards it recorded on the way hold (the same path), so it can run only where one
    of them fails. With no guard it raises at every size: a certain failure, once a run at
    the example sizes as static operands raises too (a kernel that fails only on symbolic
    sizes is no check of the program's). Where the guards fail in a few cases that pin
    sizes, each case is inferred in turn: when the kernel raises in every one, at every
    size; when it may run in one only, pinning its sizes is a check to assert, and the
    answer is that case's (linalg_inv of [a,3] raises after `a != 3`: assert `a == 3`,
    sizes [3,3]; vstack of [3] and [a] after `a != 1` and `a != 3`, and raises at a = 1:
    assert `a == 3`). Where it runs in several cases, that it is one of them (with that
    case's guards) is asserted, and the answer is what theirs agree on (huber_loss of
    [a,3] and [4,3]: `a == 1 or a == 4`, sizes [4,3])."""
    if not run.raised_check or not run.symbols:
        return None
    path = run.recorded_guards()
    if not path:
        return _confirmed_failure(signature, overload, run)
    pins = _pins_failing(path, {s: (least, greatest) for s, least, greatest in signature.ranges})
    if pins is None:
        return None
    answers = [(pin, cases.infer(_pinned(signature, pin))) for pin in pins]
    if any(answer is None for _, answer in answers):
        return None
    running = [(pin, answer) for pin, answer in answers if answer.failure is None]
    if not running:
        return _failed(signature, run.readable_message())
    if len(running) == 1:
        pin, answer = running[0]
        required = tuple(_pin_conditions(pin))
        return Answer(answer.results, required + answer.guards, answer.reason, checks=required + answer.checks)
    # Each case's guards hold only in it: one of the cases with its guards is required.
    required = (_any_of([_all_of(_pin_conditions(pin) + list(answer.guards)) for pin, answer in running]),)
    checks_only = all(set(answer.guards) <= set(answer.checks) for _, answer in running)
    reasons = [answer.reason for _, answer in running if answer.reason is not None]
    return Answer(_merged([answer.results for _, answer in running]), required, (reasons or [None])[0],
                  checks=required if checks_only else ())


def _pin_conditions(pin: dict) -> list[tuple]:
    return [("torch.aten.eq.int", Polynomial({(symbol,): 1}), Polynomial.constant(value))
            for symbol, value in sorted(pin.items())]


def _all_of(conditions: list[tuple]) -> tuple:
    return conditions[0] if len(conditions) == 1 else ("and", conditions[0], _all_of(conditions[1:]))


def _any_of(conditions: list[tuple]) -> tuple:
    return conditions[0] if len(conditions) == 1 else ("or", conditions[0], _any_of(conditions[1:]))


def _merged(answers: list[tuple]) -> tuple:
    """Per result, what the answers of several cases agree on (a size or dtype they
    differ in is unknown)."""
    merged = []
    for entries in zip(*answers, strict=True):
        if entries[0] is None:
            merged.append(None)
            continue
        sizes = {entry[0] for entry in entries}
        dtypes = {entry[1] for entry in entries}
        ranks = {None if s is None else len(s) for s in sizes}
        dims = None
        if None not in ranks and len(ranks) == 1:
            dims = tuple(column[0] if len(set(column)) == 1 else None for column in zip(*sizes, strict=True))
        merged.append((dims, dtypes.pop() if len(dtypes) == 1 else None))
    return tuple(merged)


def _pins_failing(path: list, ranges: dict) -> list[dict] | None:
    """The cases where some guard of `path` fails, each pinning sizes to values (at most
    `_MAX_CASES`); None where they are not such cases."""
    pins: dict = {}
    for guard in path:
        cases = _failing_cases(guard, ranges) if isinstance(guard, tuple) else None
        if cases is None or any(not case or not all(isinstance(v, int) for v in case.values()) for case in cases):
            return None
        pins |= {tuple(sorted(case.items())): case for case in cases}
    return list(pins.values()) if len(pins) <= _MAX_CASES else None


def _pinned(signature: Signature, pin: dict) -> Signature:
    """`signature` with the symbols of `pin` given its values."""
    replacements = {symbol: Polynomial.constant(value) for symbol, value in pin.items()}

    def size(operand):
        if isinstance(operand, Polynomial):
            polynomial = operand.substitute(replacements)
            value = polynomial.constant_value()
            return polynomial if value is None else value
        if isinstance(operand, TensorOperand):
            return TensorOperand(tuple(size(d) for d in operand.sizes), operand.dtype)
        if isinstance(operand, tuple):
            return tuple(size(o) for o in operand)
        return operand

    ranges = tuple(r for r in signature.ranges if r[0] not in pin)
    return Signature(signature.op, size(signature.operands), ranges, signature.results)


def _confirmed_failure(signature: Signature, overload, run: _Run) -> Answer | None:
    """The kernel raised without a guard on the symbolic dims: it raises at every size if
    it does at the example sizes as static operands."""
    example = {key: int(symbol.node.hint) for key, symbol in run.symbols.items()}
    static = _Run(signature, overload, example)
    if not isinstance(static.outcome(), str) or static.failure is None:
        return None
    return _failed(signature, run.readable_message())


def _failed(signature: Signature, failure: str) -> Answer:
    reason = f"PyTorch's kernel raises at every size: {failure[:200]}"
    return Answer(_unknown(signature, reason).results, (), reason, failure)


def _unknown(signature: Signature, reason: str) -> Answer:
    return Answer(tuple((None, None) if tensor else None for tensor in signature.results), (), reason)


def _text(guard: tuple) -> str:
    name, lhs, rhs = guard
    return f"{format_polynomial(lhs)} {spelled(name)} {format_polynomial(rhs)}"


def _pins(guard: tuple) -> bool:
    """An equality of one symbol with a constant: the kernel specialized a size."""
    name, lhs, rhs = guard
    difference = lhs - rhs
    symbols = {s for m in difference.terms for s in m}
    return name == "torch.aten.eq.int" and len(symbols) == 1


@functools.cache
def _overload(op: str):
    from torch_refine.library.testing import op_overload

    return op_overload(op)


class _Prover:
    """Drops the guards an answer does not need. A guard is not needed where, at every
    case failing it (the others kept holding), the kernel gives the same answer and
    needs no guard but those kept, or ones it proves the same way (`_DEPTH` deep). The
    cases run under the answer's equalities of two sizes (`_equalities`). Guards are
    tried in order and a dropped one is no longer assumed by the proofs after it: each
    proof assumes only guards kept or proved after it, so together they cover every
    size where the kept guards hold."""

    def __init__(self, signature: Signature, overload, results: tuple, guards: list) -> None:
        self.signature = signature
        self.overload = overload
        self.results = results
        self.ranges = {s: (least, greatest) for s, least, greatest in signature.ranges}
        self.equal = _equalities(guards)
        self.assumed = {g for g in guards if isinstance(g, tuple)}

    def needed(self, guard) -> bool:
        if not isinstance(guard, tuple):
            return True
        self.assumed.discard(guard)
        if _decided_true(guard, self.ranges):
            return False
        cases = self._cases(guard, {})
        if cases is not None and all(self._holds_in(case, _DEPTH) for case in cases):
            return False
        self.assumed.add(guard)
        return True

    def raises_without(self, guard: tuple) -> bool:
        """Whether the kernel raises at every case failing `guard` (a check, where a guard
        the kernel does not raise without is a branch taken at the example sizes)."""
        cases = self._cases(guard, {}) if isinstance(guard, tuple) else None
        return bool(cases) and all(_raises(self.signature, self.overload, case, self.equal) for case in cases)

    def _cases(self, guard: tuple, context: dict) -> list[dict] | None:
        ranges = {**self.ranges, **{s: (v, v) if isinstance(v, int) else v for s, v in context.items()}}
        cases = _failing_cases(guard, ranges)
        return None if cases is None else [{**context, **case} for case in cases]

    def _holds_in(self, case: dict, depth: int) -> bool:
        ranges = {**self.ranges, **{s: (v, v) if isinstance(v, int) else v for s, v in case.items()}}
        if any(_decided_true(_negated(g), ranges) for g in self.assumed):
            return True  # no size there passes the guards kept
        outcome = _Run(self.signature, self.overload, case, self.equal).outcome()
        if isinstance(outcome, str):
            return False  # PyTorch raises there: the guard is its check
        fixed = {s: Polynomial.constant(v) for s, v in case.items() if isinstance(v, int)}
        expected = _substituted_results(_substituted_results(self.results, self.equal), fixed)
        if not _agree(expected, outcome[0]):
            return False
        assumed = {_substituted(_substituted(g, self.equal), fixed) for g in self.assumed}
        for guard in outcome[1]:
            if not isinstance(guard, tuple):
                return False
            if guard in assumed or _decided_true(guard, ranges):
                continue
            cases = self._cases(guard, case) if depth else None
            if cases is None or not all(self._holds_in(c, depth - 1) for c in cases):
                return False
        return True


_DEPTH = 3


def _raises(signature: Signature, overload, case: dict, equal: dict) -> bool:
    run = _Run(signature, overload, case, equal)
    return isinstance(run.outcome(), str) and run.raised_check


def _equalities(guards) -> dict:
    """The guards equating two symbols (`a == b`), as a replacement of one by the other."""
    replacements: dict = {}
    for guard in guards:
        if not isinstance(guard, tuple) or guard[0] != "torch.aten.eq.int":
            continue
        difference = guard[1] - guard[2]
        if difference.terms.get((), 0) or len(difference.terms) != 2:
            continue
        (first, a), (second, b) = sorted(difference.terms.items())
        if len(first) == len(second) == 1 and a == -b:
            replacements[second[0]] = Polynomial({first: 1})
    return replacements


def _substituted(guard: tuple, replacements: dict) -> tuple:
    name, lhs, rhs = guard
    return name, lhs.substitute(replacements), rhs.substitute(replacements)


def _substituted_results(results: tuple, replacements: dict) -> tuple:
    def size(d):
        if not isinstance(d, Polynomial):
            return d
        substituted = d.substitute(replacements)
        value = substituted.constant_value()
        return substituted if value is None else value

    return tuple(None if r is None else (None if r[0] is None else tuple(size(d) for d in r[0]), r[1])
                 for r in results)


def _negated(guard: tuple) -> tuple:
    name, lhs, rhs = guard
    return NEGATED[name], lhs, rhs


def _decided_true(guard: tuple, ranges: dict) -> bool:
    name, lhs, rhs = guard
    low, high = _bounds(lhs - rhs, ranges)
    test = name.split(".")[2]
    if test == "eq":
        return low == high == 0
    if test == "ne":
        return (low is not None and low > 0) or (high is not None and high < 0)
    if test in ("ge", "gt"):
        return low is not None and (low > 0 or (test == "ge" and low == 0))
    return high is not None and (high < 0 or (test == "le" and high == 0))


def _bounds(polynomial: Polynomial, ranges: dict) -> tuple:
    """Interval bounds of `polynomial` over the symbols' ranges (None: unbounded)."""
    low = high = 0
    for monomial, coefficient in polynomial.terms.items():
        term_low = term_high = coefficient
        for symbol in monomial:
            least, greatest = ranges.get(symbol, (0, None))
            products = [_times(a, b) for a in (term_low, term_high) for b in (least, math.inf if greatest is None else greatest)]
            term_low, term_high = min(products), max(products)
        low, high = low + term_low, high + term_high
    return (None if math.isinf(low) else low), (None if math.isinf(high) else high)


def _times(a, b):
    return 0 if a == 0 or b == 0 else a * b


def _failing_cases(guard: tuple, ranges: dict) -> list[dict] | None:
    """Where `guard` fails, as cases each giving symbols a value (or one symbol a range):
    a comparison of sizes that grows with each of them (`a*b >= 2`, `a + b != 0`) fails
    in few cases (`_growing_cases`); a linear comparison of one symbol fails at a value
    or on a range. None otherwise."""
    name, lhs, rhs = guard
    growing = _growing(name, lhs - rhs, ranges)
    if growing is not None and (cases := _growing_cases(growing, ranges, _MAX_CASES)) is not None:
        return cases
    difference = lhs - rhs
    monomials = [m for m in difference.terms if m]
    symbols = sorted({s for m in monomials for s in m})
    constant = difference.terms.get((), 0)
    if len(symbols) != 1 or any(len(m) != 1 for m in monomials):
        return None
    (symbol,) = symbols
    least, greatest = ranges.get(symbol, (0, None))
    coefficient = difference.terms[(symbol,)]
    test = name.split(".")[2]
    if test in ("eq", "ne"):
        root, remainder = divmod(-constant, coefficient)
        if test == "eq" or remainder or root < least or (greatest is not None and root > greatest):
            return None if test == "eq" else []
        return [{symbol: root}]
    # coefficient*s + constant compared with 0: the failing side is a half-line
    bound = -constant / coefficient
    strict = test in ("gt", "lt")
    above = (test in ("ge", "gt")) == (coefficient > 0)  # the guard holds above the bound
    if above:
        high = math.ceil(bound) - 1 if not strict or bound != int(bound) else int(bound)
        low = least
    else:
        low = math.floor(bound) + 1 if not strict or bound != int(bound) else int(bound)
        high = greatest
    if low is None or (high is not None and high < low):
        return []
    if high is not None and high - low < _MAX_CASES:
        return [{symbol: value} for value in range(low, high + 1)]
    return [{symbol: (low, high)}]


def _growing(name: str, difference: Polynomial, ranges: dict) -> Polynomial | None:
    """`q` such that the guard holds exactly where `q >= 0`, when each of its terms but
    the constant has a positive coefficient over symbols at least 0; else None."""
    test = name.split(".")[2]
    if test == "ne":  # a sum of sizes unequal to 0 is one at least 1
        difference = difference if all(c > 0 for m, c in difference.terms.items() if m) else -difference
        test = "gt" if difference.terms.get((), 0) == 0 else "eq"
    q = {"ge": difference, "gt": difference - Polynomial.constant(1), "le": -difference,
         "lt": -difference - Polynomial.constant(1)}.get(test)
    if q is None or any(c <= 0 for m, c in q.terms.items() if m):
        return None
    if any(ranges.get(s, (0, None))[0] < 0 for m in q.terms for s in m):
        return None
    return q


def _growing_cases(q: Polynomial, ranges: dict, budget: int) -> list[dict] | None:
    """The cases where `q < 0`, `q` growing with each symbol: a symbol at its least
    making `q` negative whatever the others are is one case (the rest with that symbol
    above it); else the first symbol's values from its least, each with the cases of
    the others, until `q` holds at the others' least. None past `budget` cases."""
    value = q.constant_value()
    if value is not None:
        return [{}] if value < 0 else []
    if budget <= 0:
        return None
    symbols = sorted({s for m in q.terms for s in m})
    least = {s: ranges.get(s, (0, None))[0] for s in symbols}
    for symbol in symbols:
        at_least = q.substitute({symbol: Polynomial.constant(least[symbol])}).constant_value()
        if at_least is None or at_least >= 0:
            continue
        greatest = ranges.get(symbol, (0, None))[1]
        if greatest is not None and greatest <= least[symbol]:
            return [{symbol: least[symbol]}]
        rest = _growing_cases(q, {**ranges, symbol: (least[symbol] + 1, greatest)}, budget - 1)
        return None if rest is None else [{symbol: least[symbol]}, *rest]
    symbol, others = symbols[0], {s: Polynomial.constant(least[s]) for s in symbols[1:]}
    greatest = ranges.get(symbol, (0, None))[1]
    cases: list[dict] = []
    value = least[symbol]
    while greatest is None or value <= greatest:
        fixed = q.substitute({symbol: Polynomial.constant(value)})
        if fixed.substitute(others).constant_value() >= 0:
            return cases
        found = _growing_cases(fixed, ranges, budget - len(cases))
        if found is None or len(cases) + len(found) > budget:
            return None
        cases += [{symbol: value, **case} for case in found]
        value += 1
    return cases


def _agree(results: tuple, case_results: tuple) -> bool:
    """Whether two answers' results are the same."""
    return _substituted_results(results, {}) == _substituted_results(case_results, {})


class _Run:
    """One run of the kernel on fake tensors: the dims of `signature`, with the symbols
    `fixed` maps given that value."""

    def __init__(self, signature: Signature, overload, case: dict, equal: dict | None = None) -> None:
        self.signature = signature
        self.overload = overload
        self.fixed = {s: v for s, v in case.items() if isinstance(v, int)}
        self.case_ranges = {s: v for s, v in case.items() if not isinstance(v, int)}
        self.equal = equal or {}
        self.symbols: dict = {}  # our symbol or Opaque -> SymInt
        self.back: dict = {}  # sympy symbol -> Polynomial of our symbol, or None (opaque)
        self.failure: str | None = None  # the check the kernel failed on static operands
        self.raised_check = False  # the kernel raised one of its checks
        self.message = ""  # the first line of what it raised

    def outcome(self):
        """(results, guards, reason) of the run, or the reason it gave nothing."""
        import torch
        from torch._subclasses.fake_tensor import (
            DataDependentOutputException,
            DynamicOutputShapeException,
            FakeTensorMode,
            UnsupportedOperatorException,
        )
        from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode, ShapeEnv

        self.env = ShapeEnv(specialize_zero_one=False, assume_static_by_default=False, duck_shape=False)
        self.ranges = {**{s: (least, greatest) for s, least, greatest in self.signature.ranges}, **self.case_ranges}
        try:
            with _quiet(), FakeTensorMode(shape_env=self.env, allow_non_fake_inputs=True):
                args, kwargs = self._arguments(torch)
                output = self.overload(*args, **kwargs)
                results, reason = self._results(output, torch)
        except (GuardOnDataDependentSymNode, DataDependentOutputException, DynamicOutputShapeException) as error:
            return f"{DATA_DEPENDENT} ({type(error).__name__} in PyTorch's kernel)"
        except UnsupportedOperatorException:
            return "PyTorch has no meta kernel or decomposition for it"
        except Exception as error:
            first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            self.raised_check = isinstance(error, _CHECK_ERRORS)
            self.message = first
            if self.raised_check and not self.symbols:
                self.failure = first
            return f"PyTorch's kernel raises: {first[:200]}"
        if results is None:
            return reason
        return results, self._guards(), reason

    def readable_message(self) -> str:
        """What the kernel raised, its symbols named as the IR names the dims (`%arg1[0]`)."""
        names = {str(symbol): format_polynomial(p) for symbol, p in self.back.items() if p is not None}
        return _SYMBOL_NAME.sub(lambda m: names.get(m.group(0), m.group(0)), self.message)

    # -- operands --

    def _arguments(self, torch) -> tuple[list, dict]:
        args, kwargs = [], {}
        for argument, operand in zip(self.overload._schema.arguments, self.signature.operands, strict=True):
            value = self._value(operand, str(argument.type), torch)
            if argument.kwarg_only:
                kwargs[argument.name] = value
            else:
                args.append(value)
        return args, kwargs

    def _value(self, operand, schema_type: str, torch):
        inner = schema_type.removeprefix("Optional[").removesuffix("]") if operand is not None else schema_type
        if isinstance(operand, TensorOperand):
            return torch.empty([self._size(d) for d in operand.sizes], dtype=_dtype(operand.dtype))
        if isinstance(operand, tuple):
            element = inner.removeprefix("List[").removesuffix("]")
            return [self._value(o, element, torch) for o in operand]
        if isinstance(operand, (Polynomial, Opaque)):
            return self._size(operand)
        if operand is None:
            return None
        if inner == "ScalarType":
            return _dtype(operand)
        if inner == "Device":
            return torch.device("cpu")  # sizes do not depend on the device
        if inner == "Layout":
            return _enum(torch, "layout", operand)
        if inner == "MemoryFormat":
            return _enum(torch, "memory_format", operand)
        return operand

    def _size(self, size):
        if isinstance(size, int):
            return size
        if isinstance(size, Opaque):
            return self._symbol(size, None)
        size = size.substitute(self.equal) if self.equal else size
        value = 0
        for monomial, coefficient in size.terms.items():
            term = coefficient
            for symbol in monomial:
                term = term * self._symbol(symbol, Polynomial.symbol(*symbol))
            value = value + term
        return value

    def _symbol(self, key, polynomial: Polynomial | None):
        if key in self.fixed:
            return self.fixed[key]
        if key not in self.symbols:
            from torch.fx.experimental.symbolic_shapes import DimDynamic

            least, greatest = self.ranges.get(key, (0, None)) if polynomial is not None else (None, None)
            hint = HINT if least is None else max(least, HINT if greatest is None else min(HINT, greatest))
            name = f"fallback{len(self.symbols)}"
            expression = self.env.create_symbol(hint, _source(name), dynamic_dim=DimDynamic.DYNAMIC,
                                                positive=None, do_not_specialize_zero_one=True)
            if least is not None:
                self.env.constrain_symbol_range(expression, least, _INT_MAX if greatest is None else greatest)
            self.symbols[key] = self.env.create_symintnode(expression, hint=hint)
            self.back[expression] = polynomial
        return self.symbols[key]

    # -- results --

    def _results(self, output, torch) -> tuple:
        flat = list(output) if isinstance(output, (tuple, list)) else [output]
        if len(flat) != len(self.signature.results):
            return None, f"PyTorch's kernel gives {len(flat)} results, the IR {len(self.signature.results)}"
        results, reason = [], None
        for value, tensor in zip(flat, self.signature.results, strict=True):
            if not tensor:
                results.append(None)
                continue
            if not isinstance(value, torch.Tensor):
                return None, "a result that is no tensor where the IR has one"
            sizes = tuple(self._dim(size) for size in value.shape)
            if any(size is _DATA for size in sizes):
                reason = f"{DATA_DEPENDENT} (PyTorch's kernel)"
            results.append((tuple(None if s is _DATA else s for s in sizes), _code(value.dtype)))
        return tuple(results), reason

    def _dim(self, size):
        if isinstance(size, int):
            return size
        expression = self.env.replace(size.node.expr)
        if self._unbacked(expression):
            return _DATA
        polynomial = self._polynomial(expression)
        if polynomial is None:
            return None
        value = polynomial.constant_value()
        return polynomial if value is None else value

    def _unbacked(self, expression) -> bool:
        from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols

        return bool(free_unbacked_symbols(expression))

    def _polynomial(self, expression) -> Polynomial | None:
        """`expression` as a polynomial over our symbols with integer coefficients, or None."""
        import sympy

        expression = sympy.expand(expression)
        generators = sorted(expression.free_symbols, key=str)
        if any(self.back.get(g) is None for g in generators):
            return None
        if generators and not expression.is_polynomial(*generators):
            return None
        try:
            poly = sympy.Poly(expression, *generators) if generators else None
        except sympy.PolynomialError:
            return None
        if poly is None:
            return Polynomial.constant(int(expression)) if expression.is_Integer else None
        result = Polynomial()
        for powers, coefficient in poly.terms():
            if not coefficient.is_Integer:
                return None
            term = Polynomial.constant(int(coefficient))
            for generator, power in zip(generators, powers, strict=True):
                for _ in range(power):
                    term = term * self.back[generator]
            result = result + term
        return result

    def recorded_guards(self) -> list:
        """The guards recorded so far (after a raise: the path to it)."""
        return self._guards()

    def _guards(self) -> list:
        """The guards ShapeEnv recorded, each (comparison op, lhs, rhs) or, when no int
        comparison of polynomials states it, its sympy text."""
        found = []
        expressions = [g.expr for g in self.env.guards]
        for asserts in self.env.deferred_runtime_asserts.values():
            expressions += [a.expr for a in asserts if not self._unbacked(a.expr)]
        for expression in expressions:
            for guard in self._comparisons(expression):
                if guard not in found:
                    found.append(guard)
        return found

    def _comparisons(self, expression) -> list:
        """The guard as int comparisons that together state it (none where it always
        holds), or its sympy text."""
        import sympy

        expression = _without_extremum(expression)
        if expression is sympy.true:
            return []
        parts = expression.args if isinstance(expression, sympy.And) else (expression,)
        return [self._comparison(part) for part in parts]

    def _comparison(self, expression):
        name = _COMPARISONS.get(type(expression).__name__)
        if name is None:
            return str(expression)
        lhs, rhs = self._polynomial(expression.lhs), self._polynomial(expression.rhs)
        if lhs is None or rhs is None:
            return str(expression)
        return name, lhs, rhs


def _without_extremum(expression):
    """`Max(a, b) == b` as `a <= b` (and `Min`'s as `>=`): the form a stride's
    `Max(1, size)` leaves in contiguity checks (cdist, inner, tensordot, index_add), which
    only an int comparison lets the prover check case by case."""
    import sympy
    from torch.utils._sympy.functions import Max, Min

    if isinstance(expression, sympy.Rel) and not isinstance(expression, sympy.Eq | sympy.Ne):
        return _inequality_without_extremum(expression)
    if not isinstance(expression, sympy.Eq):
        return expression
    for extremum, other in ((expression.lhs, expression.rhs), (expression.rhs, expression.lhs)):
        if not isinstance(extremum, Max | Min | sympy.Max | sympy.Min) or len(extremum.args) != 2:
            continue
        if other not in extremum.args:
            continue
        (rest,) = [a for a in extremum.args if a != other] or [other]
        return sympy.Le(rest, other) if isinstance(extremum, Max | sympy.Max) else sympy.Ge(rest, other)
    return expression


def _inequality_without_extremum(expression):
    """`Max(x, y) > c` as `x > c or y > c` (`Min`'s and `<`'s likewise), which sympy
    decides in part: a stride's `Max(1, s) > 1` is `s > 1`, `Max(1, s) >= s` always holds.
    Unchanged where the extremum is not one side or the result is still a disjunction."""
    import sympy
    from torch.utils._sympy.functions import Max, Min

    extremum, relation = expression.lhs, expression
    if not isinstance(extremum, Max | Min | sympy.Max | sympy.Min):
        extremum, relation = expression.rhs, expression.reversed
    if not isinstance(extremum, Max | Min | sympy.Max | sympy.Min) or len(extremum.args) != 2:
        return expression
    above = isinstance(relation, sympy.StrictGreaterThan | sympy.GreaterThan)
    any_of = above == isinstance(extremum, Max | sympy.Max)  # Max(x, y) > c: x > c or y > c
    parts = [relation.func(argument, relation.rhs) for argument in extremum.args]
    combined = sympy.Or(*parts) if any_of else sympy.And(*parts)
    return expression if isinstance(combined, sympy.Or) else combined


# What PyTorch's checks raise (TORCH_CHECK, a dim out of range, a bad value): an error of
# the program, not of the operands the fallback made.
_CHECK_ERRORS = (RuntimeError, IndexError, ValueError)
_DATA = object()  # a size computed from the data
_SYMBOL_NAME = re.compile(r"\bs\d+\b")  # a ShapeEnv symbol in a message
_INT_MAX = 2**63 - 1


@functools.cache
def _source_class():
    """A ShapeEnv symbol's source: a name (torch._dynamo's sources cost 1.5 s to import)."""
    from dataclasses import dataclass as frozen_dataclass

    from torch._guards import GuardSource, Source

    @frozen_dataclass(frozen=True)
    class DimSource(Source):
        label: str

        @property
        def _name_template(self) -> str:
            return self.label

        @property
        def guard_source(self):
            return GuardSource.CONSTANT

    return DimSource


def _source(name: str):
    return _source_class()(name)


def _dtype(code: int):
    from torch_refine.library.testing import dtype_of

    return dtype_of(code)


def _code(dtype) -> int:
    from torch_refine.library.testing import dtype_code

    return dtype_code(dtype)


def _enum(torch, kind: str, code: int):
    """A Layout or MemoryFormat code as PyTorch's object (c10's order)."""
    if kind == "layout":
        return [torch.strided, torch.sparse_coo, torch.sparse_csr][code]
    return [torch.contiguous_format, torch.preserve_format, torch.channels_last, torch.channels_last_3d][code]


@contextlib.contextmanager
def _quiet():
    """Fake-tensor failures log tracebacks at ERROR level: the reason is what we report."""
    loggers = [logging.getLogger(name) for name in _QUIET_LOGGERS]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


# --- which ops PyTorch runs on meta -------------------------------------------------------------


# Why PyTorch cannot run an op on meta: the first words of `meta_support`'s answers.
NO_DISPATCHER_OP = "TorchScript's own op"
FOREACH = "_foreach op"
BACKWARD = "backward op"
BACKEND_ONLY = "backend- or layout-only"
CPU_ONLY = "no meta kernel or decomposition: a CPU kernel only"
NEEDS_CPU_DATA = "needs data on the CPU"
NO_META = "no meta kernel or decomposition"
META_REASONS = (NO_DISPATCHER_OP, FOREACH, BACKWARD, BACKEND_ONLY, CPU_ONLY, NEEDS_CPU_DATA, NO_META)
# Names of ops for a backend, a sparse, nested or quantized layout, or their tensors' parts.
_BACKEND_NAMES = ("cudnn", "miopen", "mps", "mkldnn", "nested", "sparse", "quantize", "fbgemm", "cslt",
                  "triton", "vulkan", "nnpack", "conv_depthwise", "indices", "values", "_nnz", "_dimI",
                  "_dimV", "q_per_channel", "q_scale", "q_zero_point", "overrideable")


def meta_support(op: str) -> str | None:
    """Why PyTorch cannot run `op` (`aten.kron`) on fake tensors, or None when it can: a
    meta kernel, a Python meta registration or decomposition, a CompositeImplicitAutograd
    kernel (what FakeTensor runs), or a kernel the dispatcher runs for Meta
    (CompositeExplicitAutograd) that a sample made from the schema does not find missing.
    The answer starts with one of META_REASONS."""
    import torch
    from torch._decomp import decomposition_table, meta_table

    try:
        overload = _overload(op)
        has = functools.partial(torch._C._dispatch_has_kernel_for_dispatch_key, overload.name())
        has("Meta")
    except (AttributeError, RuntimeError):
        return f"{NO_DISPATCHER_OP} (a scalar, list or string op its interpreter runs; no dispatcher kernel)"
    if has("Meta") or has("CompositeImplicitAutograd") or overload in meta_table or overload in decomposition_table:
        return None
    if torch._C.DispatchKey.Meta in overload.py_kernels:
        return None
    error = _try_on_meta(overload, torch)
    if error is None:
        return None
    message = str(error).strip().splitlines()
    tried = f"on meta: {type(error).__name__}: {message[0][:160] if message else ''}"
    category = _category(op, has, error)
    composite = has("CompositeExplicitAutograd") or has("CompositeExplicitAutogradNonFunctional")
    if category == NO_META and composite and not isinstance(error, NotImplementedError | _NoSample):
        return None  # the kernel ran on meta: its own checks rejected the schema's sample
    return f"{category}; {tried}"


def _category(op: str, has, error: Exception) -> str:
    name = op.removeprefix("aten.").split(".")[0]
    if name.startswith("_foreach_"):
        return FOREACH
    if "backward" in name:
        return BACKWARD
    backends = [key for key in _BACKENDS if has(key)]
    if any(part in name for part in _BACKEND_NAMES) or (backends and not set(backends) & _GENERAL_KEYS):
        return f"{BACKEND_ONLY} (kernels for {', '.join(backends) or 'no dispatch key we list'})"
    if "CPU" in backends:
        return f"{CPU_ONLY} (FakeTensor runs it on zeros at static sizes only)"
    if "cpu" in name or (not isinstance(error, NotImplementedError) and "cpu" in str(error).lower()):
        return NEEDS_CPU_DATA
    return NO_META


_BACKENDS = ("CPU", "CUDA", "SparseCPU", "SparseCsrCPU", "QuantizedCPU", "MkldnnCPU", "NestedTensorCPU",
             "CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional")
_GENERAL_KEYS = {"CPU", "CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional"}


class _NoSample(Exception):
    """The schema has an argument no sample is made for."""


def _try_on_meta(overload, torch) -> Exception | None:
    """None when `overload` runs on meta tensors of a sample made from its schema, else
    what it raised."""
    try:
        args, kwargs = _sample(overload._schema, torch)
    except ValueError as error:
        return _NoSample(f"no sample: {error}")
    try:
        with _quiet(), contextlib.redirect_stderr(None):
            overload(*args, **kwargs)
    except Exception as error:  # what PyTorch raises is the answer
        return error
    return None


def _sample(schema, torch) -> tuple[list, dict]:
    args, kwargs = [], {}
    for argument in schema.arguments:
        value = _sample_value(argument, torch)
        if argument.kwarg_only:
            kwargs[argument.name] = value
        else:
            args.append(value)
    return args, kwargs


def _sample_value(argument, torch):
    text = str(argument.type)
    if argument.has_default_value():
        return argument.default_value
    if text.startswith("Optional["):
        return None
    tensor = torch.empty(2, 3, device="meta")
    samples = {"Tensor": tensor, "List[Tensor]": [tensor, tensor], "List[Optional[Tensor]]": [tensor],
               "int": 1, "SymInt": 1, "List[int]": [1], "List[SymInt]": [1], "float": 1.0, "bool": False,
               "Scalar": 1, "number": 1, "ScalarType": torch.float32, "str": "", "Device": torch.device("meta"),
               "Layout": torch.strided, "MemoryFormat": torch.contiguous_format, "List[float]": [1.0],
               "List[bool]": [False]}
    if text not in samples:
        raise ValueError(f"an argument of type {text}")
    return samples[text]
