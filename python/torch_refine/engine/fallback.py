"""Typing an op without a library function from PyTorch's meta kernels: the hook of
`library/meta_fallback.py` in the per-op loop (`engine.refine.refine`).

`reify.targets` gives such an op (an ATen op whose results lack what the library
cannot give) the symbol `meta_fallback.SYMBOL`; `Fallback.refine` describes it, asks
PyTorch (cached per op and operand signature), asserts the guards the answer needs
(engine/guards.py) and refines its results. A check PyTorch's kernel fails at every size
(on operands without a dynamic size, or on a path no guard of a dynamic size leads to) is
an error at the op (an assert of false where it may not run), as a library function's
certain failure is. A kind with a library function keeps it:
the shape step takes only sizes, and dtypes only where the op has no dtype function.
Shapes need the operands' dtypes: where one is not known yet (an erased-type program's
shape step), the dtype step gives the sizes too, and says so (`late`) so that another
round refines the ops after it; those ops are marked to keep their checks then, as the
ops behind a loop are (`LoopRounds`). With `explain`, the op is marked: every op that went
through the fallback gets a reason (engine/explain.py).
"""

from __future__ import annotations

from torch_mlir import ir

from torch_refine.calculations import dim_facts
from torch_refine.calculations.kind import DTYPE, SHAPE, CalculationKind
from torch_refine.calculations.store import FactStore
from torch_refine.calculations.symbols import library_key
from torch_refine.engine import guards
from torch_refine.engine.drop import guard_certain_failure
from torch_refine.errors import PassFailure
from torch_refine.ir import types
from torch_refine.ir.retype import refine_value, result_allows_refinement
from torch_refine.library import meta_fallback
from torch_refine.symbolic.polynomial import Polynomial, format_polynomial

MARK = "torch_refine.meta_fallback"  # the reason, or "" when the fallback typed everything
SERVED = "served by PyTorch's meta kernel (no library function)"


class _Comparison:
    """A guard's condition as engine/guards.py reads it."""

    __slots__ = ("_key",)

    def __init__(self, key: tuple) -> None:
        self._key = key

    def key(self) -> tuple:
        return self._key


class _Guard:
    __slots__ = ("condition", "holds", "message")

    def __init__(self, key: tuple) -> None:
        self.condition = _Comparison(key)
        self.holds = True
        self.message = "PyTorch's meta kernel assumes it"


class Fallback:
    """The fallback for one kind's step; `has_function(key, kinds)` is the library's;
    `store` holds the run's facts."""

    def __init__(self, kind: CalculationKind, has_function, explain: bool, store: FactStore) -> None:
        self.kind = kind
        self.store = store
        self.has_function = has_function
        self.explain = explain
        self.late = False  # the dtype step gave sizes the shape step could not
        self.deferred = 0  # ops marked to keep their checks when the next round refines them

    @classmethod
    def for_step(cls, enabled: bool, kind: CalculationKind, has_function, explain: bool,
                 store: FactStore) -> Fallback | None:
        return cls(kind, has_function, explain, store) if enabled else None

    @staticmethod
    def gave_late_sizes(fallback: Fallback | None) -> bool:
        return fallback is not None and fallback.late

    @staticmethod
    def deferred_marks(fallback: Fallback | None) -> int:
        return 0 if fallback is None else fallback.deferred

    def serves(self, op) -> bool:
        """Whether `op` is the fallback's (reify's targets ask for ops without a function)."""
        return meta_fallback.serves(op, lambda key: self.has_function(key, (self.kind.name,)))

    @staticmethod
    def wanted(results) -> bool:
        """Whether some tensor result is not exact."""
        return any((info := types.parse(r.type)) is not None and not info.is_exact for r in results)

    def refine(self, op, unpack, keep_guards: bool) -> None:
        """Type `op`'s results (`unpack`'s, for a tensor list) from PyTorch's answer; its
        guards are asserted (with `keep_guards`) the first time its sizes are given."""
        producer = op if unpack is None else unpack
        results = list(producer.operation.results)
        if not result_allows_refinement(producer.operation.name):
            return
        try:
            signature = meta_fallback.describe(op, results, self.store)
        except meta_fallback.Undescribable as error:
            self._mark(producer, f"meta fallback: {error}")
            return
        answer = meta_fallback.infer(signature)
        # A `torch.operator`'s diagnostic names only that: the check names the op it runs.
        named = f" of {signature.op}" if op.operation.name == "torch.operator" else ""
        failed = f"meta kernel check{named} failed: {answer.failure}"
        if answer.failure is not None and not guard_certain_failure(op, failed, op):
            raise PassFailure
        key = library_key(op)
        static = [None if entry is None else _static(entry[0]) for entry in answer.results]
        given = _stated(results, static) and _dims_recorded(results, answer.results, self.store)
        give_sizes = not (self.has_function(key, (SHAPE.name,)) or given)
        reason = answer.reason
        if give_sizes and answer.guards and not (keep_guards and self._assert(op, answer)):
            give_sizes, reason = False, reason or "the sizes need guards not asserted here"
        give_dtype = not self.has_function(key, (DTYPE.name,))
        before = [result.type for result in results]
        for result, entry, sizes in zip(results, answer.results, static, strict=True):
            if entry is not None:
                dtype = types.DTYPE_TO_ELEMENT.get(entry[1]) if give_dtype else None
                self._refine_result(result, types.TensorInfo(sizes if give_sizes else None, dtype), producer)
        if give_sizes:
            self._record_dims(producer, answer.results)
            if self.kind is DTYPE and [result.type for result in results] != before:
                self.late = True
                self.deferred += _defer_checks_of_users(results)
        self._mark(producer, "" if reason is None else f"meta fallback: {reason}")

    def _assert(self, op, answer: meta_fallback.Answer) -> bool:
        """Assert the answer's guards; False when they cannot be: a size nothing in reach
        carries, or, with `broadcast-equal=false` (PyTorch's meaning at every size), a
        guard that is a branch the kernel took at the example sizes (squeeze's `s != 1`,
        a broadcast's `a == b`), not a check it raises without."""
        if not self.store.broadcast_equal and any(key not in answer.checks for key in answer.guards):
            return False
        return guards.assert_guards(op, [_Guard(key) for key in answer.guards], self.store)

    def _refine_result(self, result: ir.Value, fact: types.TensorInfo, producer) -> None:
        stated = types.parse(result.type)
        if stated is None:
            return
        merged = types.meet(stated, types.TensorInfo(fact.sizes, fact.dtype, stated.value_semantics))
        if merged is None:  # PyTorch disagrees with the IR's type: claim nothing
            return
        new_type = types.to_type(merged)
        if new_type != result.type:
            refine_value(result, new_type, producer)

    def _record_dims(self, producer, entries: tuple) -> None:
        """The symbolic dims of the results (`torch_refine.dims`), as a calculation's."""
        sizes = [[] if e is None or e[0] is None else list(e[0]) for e in entries]
        memo: dict = {}
        dim_facts.remember(producer, sizes, memo, SERVED)
        dim_facts.restore(producer, memo, SERVED, self.store)

    def _mark(self, producer, reason: str) -> None:
        """With `explain`, the op whose results the fallback typed (a tensor list's unpack)
        carries the reason explain gives them."""
        if self.explain:
            producer.operation.attributes[MARK] = ir.StringAttr.get(reason)


def _defer_checks_of_users(results: list) -> int:
    """Mark the ops that read `results`, directly or through other ops, to keep their shape
    checks when the next round refines them (`LoopRounds`, as behind a loop): the first
    round wrapped them while these sizes were unknown, and they claimed nothing then.
    Returns how many were marked."""
    pending = [use.owner for result in results for use in result.uses]
    marked = 0
    while pending:
        op = pending.pop()
        attributes = op.operation.attributes
        if SHAPE.deferred_checks in attributes:
            continue
        attributes[SHAPE.deferred_checks] = ir.UnitAttr.get()
        marked += 1
        values = list(op.operation.results)
        parent = op.operation.parent
        if not values and parent is not None and parent.name in ("torch.prim.If", "torch.prim.Loop"):
            values = list(parent.results)  # a yield: the region's results
        pending += [use.owner for value in values for use in value.uses]
    return marked


def _dims_recorded(results: list, entries: tuple, run: FactStore) -> bool:
    """Whether the results carry the answer's symbolic dims (an earlier step recorded them;
    a program's own types may state the sizes without them)."""
    for result, entry in zip(results, entries, strict=True):
        if entry is None or entry[0] is None:
            continue
        known = dim_facts.tensor_dims(result, run)
        symbolic = [(size, text) for size, text in zip(entry[0], known or [], strict=False)
                    if isinstance(size, Polynomial)]
        if known is None or any(text != format_polynomial(size) for size, text in symbolic):
            return False
    return True


def _static(sizes: tuple | None) -> tuple | None:
    """An answer's sizes as a type states them: a polynomial is `?`."""
    return None if sizes is None else tuple(d if isinstance(d, int) else None for d in sizes)


def _stated(results: list, sizes: list) -> bool:
    """Whether the results' types already state these sizes (an earlier step gave them)."""
    for result, expected in zip(results, sizes, strict=True):
        info = types.parse(result.type)
        if expected is not None and info is not None and info.sizes != expected:
            return False
    return True
