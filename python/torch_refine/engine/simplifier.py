"""The simplifier engine shared by the simplify-{shape,dtype}-calculations passes and the pipelines.

For each calculate op of the requested kind, in program order: run the greedy driver
(our patterns plus every C++ folder, top-down) on that op alone, report a check that
fails unconditionally, read the calculated shape or dtype from the calculation's yield,
and refine the result types (meet with what the IR states; a contradiction is an error).

Memo: ops with the same name, attributes, operand types, operand values and operand
aliasing pattern calculate the same types, so a repeat reuses the first result and its
calculation is replaced by a trivial one (or, in the pipelines, never built). An operand
value is known to the key as a constant, as a polynomial over the function's argument
dims (`dim_facts.express`: the same polynomial is the same number), or, for an
unmutated list literal, element by element (constants, polynomials, tensor types with
their symbolic dims). Of each operand the key keeps only what the library function
sees (the pipelines pass these views): nothing of one it never reads, a tensor's rank and
dtype for a dtype function, its sizes for a shape function. An op with an operand known in none of these ways is never
memoized, nor is one whose calculation left an undecided check while checks are kept
(each such op keeps its own guard).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

from torch_mlir import ir, rewrite

from torch_refine.calculations import dim_facts, ranges
from torch_refine.calculations.kind import (
    BODY_YIELD_OPS,
    DTYPE,
    SHAPE,
    CalculationKind,
)
from torch_refine.calculations.lists import unmutated_literals_memo
from torch_refine.calculations.store import FactStore
from torch_refine.calculations.symbols import library_key
from torch_refine.engine import guards
from torch_refine.engine.drop import guard_certain_failure
from torch_refine.engine.explain import blocker, record_blocker
from torch_refine.engine.memo import memo_key, operand_fact
from torch_refine.engine.yielded import dtype_fact, dtype_of, shape_of_literal, with_constant_dims
from torch_refine.errors import PassFailure
from torch_refine.ir import types
from torch_refine.ir.constants import (
    NotConstant,
    constant_value,
    defining_op,
    make_constant,
    op_key,
)
from torch_refine.ir.retype import (
    accepts,
    cast,
    refine_value,
    result_allows_refinement,
)
from torch_refine.patterns import control_flow, dtypes, einsum, lists, scalars, symbolic


@dataclass
class Options:
    max_unroll: int = 1000
    max_unroll_ops: int = 200_000


@dataclass
class Statistics:
    calculations: int = 0
    memo_hits: int = 0
    evaluated: int = 0  # answered by running the library function on constants
    refined: int = 0
    loops_unrolled: int = 0
    unroll_cap_hits: list = field(default_factory=list)


@dataclass
class Simplifier:
    """Simplifies calculate ops one at a time; `memo` may outlive the driver (the
    pipelines keep one per kind across rounds)."""

    kind: CalculationKind
    options: Options
    memo: dict = field(default_factory=dict)
    # Memoize calculations that left a check undecided too: right when nothing keeps
    # checks (each op otherwise keeps its own guard).
    memoize_undecided: bool = False
    # Record why a calculation left something unknown (`blocker`): off by default,
    # since it walks every calculation that did not fold completely.
    record_blockers: bool = False
    # The run's facts: the asserted ranges and replacements memo keys carry, where the
    # guards of evaluated answers are recorded.
    store: FactStore = field(default_factory=FactStore)
    statistics: Statistics = field(default_factory=Statistics)
    failed: bool = False

    def __post_init__(self) -> None:
        # (producer op key, result number) -> what a memo key knows of that value (or None).
        # Shared literals (a view's sizes) have one use per op using them, and deciding that
        # none mutates them scans every use: once per driver, not once per op. Calculations cannot change them
        # (reify passes literals in as copies), and an op using one keeps it alive.
        self._operand_facts: dict[tuple[int, int], tuple | None] = {}
        # Int value -> its polynomial (`dim_facts.express`), shared by the operand facts of
        # every op: the sizes a view reads were read once, for all its layers. Emptied when a
        # calculation runs in the IR, which creates and erases ops.
        self._expressed: dict = {}
        self._range_signatures: dict[tuple, tuple] = {}  # (function op key, range count) -> its ranges
        self._types = types.TypeCache()
        self._merged: dict[tuple, ir.Type | None] = {}  # (fact, stated type) -> `_merge`
        pattern_set = rewrite.RewritePatternSet()
        self._unrollers = []
        for family in (scalars, lists, control_flow, dtypes, einsum, symbolic):
            for root, fn in family.patterns(self.options, self.store):
                pattern_set.add(root, fn)
                if isinstance(fn, control_flow.Unroller):
                    self._unrollers.append(fn)
        self._patterns = pattern_set.freeze()
        self._config = rewrite.GreedyRewriteConfig()
        self._config.use_top_down_traversal = True
        self._config.max_iterations = -1  # until a fixed point, like the C++ passes
        # Calculations are single blocks (and so are their Ifs and Loops): region
        # simplification after every iteration only costs time (a fifth of the pipeline's).
        self._config.region_simplification_level = rewrite.GreedySimplifyRegionLevel.DISABLED
        # Folded constants stay where they fold instead of being deduplicated and hoisted
        # to the function's entry: cheaper, and those a kept check needs sit next to it.
        self._config.enable_constant_cse = False

    def run(self, module: ir.Operation) -> None:
        for calc in _calculate_ops(module, self.kind.calculate_op):
            self.simplify(calc)
        self.finish()

    def simplify(self, calc, prepare=None, views: tuple = ()) -> bool:
        """Simplify and refine one calculate op; False when a check failed (reported).
        `prepare(calc)` runs before the rewrites, unless the memo already knows the op;
        `views` say what the library function sees of each operand (see `memo_key`)."""
        self.statistics.calculations += 1
        self._expressed.clear()
        key = self._memo_key(_wrapped_op(calc), len(calc.results), views, calc)
        known = self.memo.get(key) if key is not None else None
        if (_GUARDS, key) in self.memo:
            known = None  # a guarded answer is used only in front of the op (refine_known)
        if known is not None and all(k is not None for k in known):
            self.statistics.memo_hits += 1
            self._replace_calculation(calc, known)
            self._refine(calc, known)
            if self.kind is SHAPE:
                dim_facts.restore(_described_op(calc), self.memo, key, self.store)
            self._restore_blocker(_wrapped_op(calc), key)
            return True
        if prepare is not None:
            prepare(calc)
        scalars.mark_divisors(calc.regions[1])  # or the folders fold divisions by zero
        lists.negate_list_equalities(calc.regions[1])  # or the folders compare mutated lists
        with _wrapped_ops_detached(calc):
            with unmutated_literals_memo(self.store):
                rewrite.apply_patterns_and_fold_greedily(calc, self._patterns, self._config)
        scalars.unmark_divisors(calc.regions[1])
        failure = self._failed_check(calc)
        if failure is not None:
            return self._guard_or_report(calc, failure)  # nothing refined, nothing memoized
        calculated = self._calculated(calc)
        if self.kind is SHAPE:
            yielded_dims = dim_facts.record(_described_op(calc), self._yield(calc), self.memo, key, self.store)
            calculated = with_constant_dims(calculated, yielded_dims)
        self._refine(calc, calculated)
        if self.record_blockers and not _complete(calculated, self.kind):
            self._record_blocker(calc, key)
        if key is not None and (self.memoize_undecided or _is_decided(calc)):
            self.memo[key] = calculated  # a None (nothing calculated) is a result too
        return True

    def refine_known(self, op, results, views: tuple = (), evaluate=None, keep_guards: bool = True) -> bool:
        """Refine `results` (of `op`, or of its list's unpack) from the memo, without a
        calculation; False when the memo does not know the op or it cannot be done so.
        `evaluate()`, when given, runs the library function on the op's known
        arguments (`engine.evaluator`); a complete answer is remembered as a
        calculation's result would be, and with `keep_guards` its guards are asserted for
        the op (engine/guards.py); a guarded answer is remembered with its guards, which
        each op reusing it asserts again (nothing new where the function asserted them)."""
        key = self._memo_key(op, len(results), views, op)
        known = self.memo.get(key) if key is not None else None
        remembered_guards = self.memo.get((_GUARDS, key)) if known is not None else None
        guards_built = remembered_guards is None or not keep_guards or guards.assert_guards(
            op, remembered_guards, self.store)
        if not guards_built:
            known = None  # a guard reads a size this op's operands do not carry: evaluate
        remembered = known is not None
        producer = defining_op(results[0]) if results else op  # one op produces them all
        if not remembered and key is not None and evaluate is not None:
            known = self._evaluate(op, producer, results, key, evaluate, keep_guards)
        if known is None:
            return False
        if results and not result_allows_refinement(producer.operation.name):
            return False
        self.statistics.memo_hits += remembered
        if self.kind is SHAPE:
            dim_facts.restore(producer, self.memo, key, self.store)
        self._restore_blocker(op, key)
        for value, fact in zip(results, known, strict=True):
            if fact is None:
                continue
            stated = value.type
            new_type = self._merged_type(fact, stated)
            if new_type is None:
                self._report_contradiction(op, fact, [value])
                continue
            if stated != new_type:
                self.statistics.refined += 1
                refine_value(value, new_type, producer)
        return True

    def _evaluate(self, op, producer, results, key, evaluate, keep_guards: bool) -> list | None:
        """The evaluator's facts for `results`, remembered (with the guards they need);
        with `keep_guards` the guards are asserted for `op`."""
        evaluation = evaluate()
        known = self._evaluated(evaluation, results)
        if known is None:
            return None
        if evaluation.guards and keep_guards and not evaluation.assert_guards(op, self.store):
            return None  # a guard reads a size nothing in reach carries
        self.statistics.evaluated += 1
        self.memo[key] = known
        if evaluation.guards and not self.memoize_undecided:
            # Asserted again for each op that reuses the answer (once per function: facts).
            self.memo[(_GUARDS, key)] = evaluation.guards
        if self.kind is SHAPE:
            dim_facts.remember(producer, evaluation.values, self.memo, key)
        return known

    def _merged_type(self, fact, stated: ir.Type) -> ir.Type | None:
        key = (fact, stated)
        if key not in self._merged:
            self._merged[key] = _merge(fact, [stated], self._types)
        return self._merged[key]

    def _evaluated(self, evaluation, results: list) -> list | None:
        """The facts of what the evaluator returned; None unless it decided every
        described result (the greedy way then explains what it leaves unknown)."""
        if evaluation is None:
            return None
        values = evaluation.values
        if self.kind is SHAPE:
            facts = [None if v is None else types.TensorInfo(tuple(d if isinstance(d, int) else None for d in v), None)
                     for v in values]
        else:
            facts = [None if v is None else dtype_fact(v, r.type) for v, r in zip(values, results, strict=True)]
        if any(f is None for v, f in zip(values, facts, strict=True) if v is not None):
            return None
        if self.record_blockers and not _evaluated_completely(values, facts, self.kind):
            return None  # the greedy way says what blocked the rest
        return facts

    def _record_blocker(self, calc, key) -> None:
        wrapped = _wrapped_op(calc)
        text = blocker(calc, self.kind, library_key(wrapped) or wrapped.operation.name)
        if text is None:
            return
        record_blocker(wrapped, self.kind, text)
        if key is not None:
            self.memo[(_BLOCKER, key)] = text

    def _restore_blocker(self, op, key) -> None:
        if self.record_blockers and (text := self.memo.get((_BLOCKER, key))) is not None:
            record_blocker(op, self.kind, text)

    def _memo_key(self, op, result_count: int, views: tuple, place) -> tuple | None:
        """`memo_key` with the ranges and the replacements of the symbols it names that a
        calculation in `place`'s function may read (calculations/ranges.py,
        calculations/facts.py)."""
        function = ranges.enclosing_function(place)
        function_key = op_key(function) if function is not None else None
        signature_key = (function_key, self.store.range_count())  # asserted ranges narrow as it runs
        if function is not None and signature_key not in self._range_signatures:
            self._range_signatures[signature_key] = ranges.range_signature(function, self.store)
        key = memo_key(op, result_count, self.store, self._operand_fact, views,
                       self._range_signatures.get(signature_key, ()), self._types.text)
        if key is None or not self.store.replacements(function_key):
            return key
        replaced = self.store.replacement_signature(function_key, str(key))
        return (*key, replaced) if replaced else key

    def _operand_fact(self, value: ir.Value) -> tuple | None:
        producer = defining_op(value)
        if producer is None:
            return None
        key = (op_key(producer), value.result_number)  # an If yields several ints
        if key not in self._operand_facts:
            self._operand_facts[key] = operand_fact(value, self.store, self._expressed)
        return self._operand_facts[key]

    def finish(self) -> None:
        self.statistics.loops_unrolled = sum(u.unrolled for u in self._unrollers)
        self.statistics.unroll_cap_hits = [hit for u in self._unrollers for hit in u.cap_hits]
        if self.failed:
            raise PassFailure(f"{self.kind.name} calculation failed")

    # -- reading the calculation -------------------------------------------------------

    def _yield(self, calc):
        return list(calc.regions[1].blocks[0].operations)[-1]

    def _calculated(self, calc) -> list:
        """Per result: a TensorInfo, a scalar type text (number results), or None."""
        yielded = list(self._yield(calc).operands)
        if self.kind is SHAPE:
            return [shape_of_literal(v) for v in yielded]
        return [dtype_of(v, r.type) for v, r in zip(yielded, calc.results, strict=True)]

    def _guard_or_report(self, calc, message: str) -> bool:
        """A check the calculation decided to fail: where the op may never run it becomes a
        guard in front of it (`guard_certain_failure`) and the calculation yields nothing,
        so the op's types stay as they were (True); elsewhere it is reported (False)."""
        if guard_certain_failure(_wrapped_op(calc), message, calc):
            self._yield_nothing(calc)
            return True
        self.failed = True
        return False

    def _failed_check(self, calc) -> str | None:
        for op in calc.regions[1].blocks[0].operations:
            name = op.operation.name
            if name == "torch.promote_dtypes":
                try:
                    dtypes.evaluate_promotion(op)
                except dtypes.PromotionError as error:
                    return f"dtype check failed: type promotion: {error}"
            if name != "torch.prim.RaiseException":
                continue
            try:
                message = constant_value(op.operands[0])
            except NotConstant:
                message = "<message not known at compile time>"
            return f"{self.kind.name} check failed: {message}"
        return None

    def _yield_nothing(self, calc) -> None:
        block = calc.regions[1].blocks[0]
        old_ops = list(block.operations)
        yield_type = "!torch.list<int>" if self.kind is SHAPE else "!torch.int"
        with ir.InsertionPoint(old_ops[0]), calc.location:
            unknown = [
                ir.Operation.create("torch.prim.Uninitialized", results=[ir.Type.parse(yield_type)]).result
                for _ in calc.results
            ]
            ir.Operation.create(self.kind.calculation_yield_op, operands=unknown)
        for op in reversed(old_ops):
            op.operation.erase()

    # -- memo hits ---------------------------------------------------------------------

    def _replace_calculation(self, calc, known: list) -> None:
        block = calc.regions[1].blocks[0]
        old_ops = list(block.operations)
        with ir.InsertionPoint(old_ops[0]), calc.location:
            values = [self._materialize(k, r.type) for k, r in zip(known, calc.results, strict=True)]
            ir.Operation.create(self.kind.calculation_yield_op, operands=values)
        for op in reversed(old_ops):
            op.operation.erase()

    def _materialize(self, known, result_type: ir.Type) -> ir.Value:
        if self.kind is DTYPE:
            code = types.ELEMENT_TO_DTYPE[known.dtype] if isinstance(known, types.TensorInfo) else None
            if code is None:
                code = 4 if known == "!torch.int" else 7
            return make_constant(code)
        int_type = ir.Type.parse("!torch.int")
        dims = [
            make_constant(d)
            if d is not None
            else ir.Operation.create("torch.prim.Uninitialized", results=[int_type]).result
            for d in known.sizes
        ]
        list_type = ir.Type.parse("!torch.list<int>")
        return ir.Operation.create("torch.prim.ListConstruct", results=[list_type], operands=dims).result

    # -- refinement --------------------------------------------------------------------

    def _refine(self, calc, calculated: list) -> None:
        for index, fact in enumerate(calculated):
            if fact is None:
                continue
            chain = _result_chain(calc, index)
            new_type = _merge(fact, [v.type for v in chain], self._types)
            if new_type is None:
                self._report_contradiction(calc, fact, chain)
                continue
            if all(v.type == new_type for v in chain):
                continue
            self.statistics.refined += 1
            _retype_chain(calc, index, chain, new_type)

    def _report_contradiction(self, op, fact, chain) -> None:
        wrapped = _wrapped_op(op)
        stated = ", ".join(sorted({str(v.type) for v in chain}))
        calculated = fact.text() if isinstance(fact, types.TensorInfo) else fact
        wrapped.location.emit_error(
            f"'{wrapped.operation.name}' op calculated {self.kind.name} ({calculated}) "
            f"contradicts the stated type {stated}"
        )
        self.failed = True


_GUARDS = "evaluator.guards"  # memo: (_GUARDS, key) -> the guards an evaluated answer needs
_BLOCKER = "explain.blocker"  # memo: (_BLOCKER, key) -> why the calculation left an unknown


def _evaluated_completely(values: list, facts: list, kind: CalculationKind) -> bool:
    """Whether an evaluation gave every result all the kind describes: a dynamic size as
    a polynomial (over argument dims or computed sizes) is known, not a loss to explain."""
    if kind is not SHAPE:
        return _complete(facts, kind)
    return all(v is not None and None not in v for v in values)


def _complete(calculated: list, kind: CalculationKind) -> bool:
    """Whether every result got all the kind describes (all sizes, or a dtype)."""
    for fact in calculated:
        if fact is None:
            return False
        if kind is SHAPE and isinstance(fact, types.TensorInfo) and None in (fact.sizes or (None,)):
            return False
    return True


@contextlib.contextmanager
def _wrapped_ops_detached(calc):
    """Keep the wrapped ops out of the rewrite: only the calculation is simplified. The
    wrapped op is the user's, and torch-mlir's folders can crash on one whose result types
    are erased (`aten.any.dims` segfaults in its folder; so does `canonicalize` on it)."""
    block = calc.regions[0].blocks[0]
    operations = list(block.operations)
    terminator = operations.pop()
    detached = [op.operation.detach_from_parent() for op in operations]
    try:
        yield
    finally:
        insertion_point = ir.InsertionPoint(terminator)
        for op in detached:
            insertion_point.insert(op)


def _calculate_ops(module: ir.Operation, name: str) -> list:
    found = []

    def visit(op):
        if op.name == name:
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


def _wrapped_op(calc):
    """The op a calculate wraps, looking through a nested calculate; the calculate itself
    when its body wraps no op (it yields a value defined outside, as hand-written IR may)."""
    return _inner_op(calc, 0)


def _described_op(calc):
    """The op whose results a calculate's results are: the wrapped op, or the
    `prim.ListUnpack` of its list result (reify wraps both); the calculate itself when
    its body wraps no op."""
    return _inner_op(calc, -2)


def _inner_op(calc, position: int):
    op = calc
    while op.operation.name in ("torch.shape.calculate", "torch.dtype.calculate"):
        operations = list(op.regions[0].blocks[0].operations)
        if len(operations) < 2:  # only the terminator
            return op
        op = operations[position]
    return op


def _is_decided(calc) -> bool:
    undecided = []

    def visit(op):
        if op.name == "torch.prim.RaiseException":
            undecided.append(op)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    for op in calc.regions[1].blocks[0].operations:
        op.operation.walk(visit)
        if undecided:
            return False
    return True


def _merge(fact, stated: list[ir.Type], cache: types.TypeCache) -> ir.Type | None:
    """The type combining the calculated fact with every stated type; None on contradiction."""
    if not isinstance(fact, types.TensorInfo):
        texts = {cache.text(t) for t in stated}
        if texts <= {"!torch.number", fact}:
            return ir.Type.parse(fact)
        return None
    merged = cache.info(stated[0])
    if merged is None:
        return None
    for stated_type in stated[1:]:
        merged = types.meet(merged, cache.info(stated_type))
        if merged is None:
            return None
    merged = types.meet(merged, types.TensorInfo(fact.sizes, fact.dtype, merged.value_semantics))
    return None if merged is None else cache.type_of(merged)


def _result_chain(calc, index: int) -> list:
    """The values that must share the type of `calc` result `index`, outermost first.

    Upward: enclosing calculates that yield it. Downward: nested calculates' results and
    the value the innermost body yields.
    """
    chain = [calc.results[index]]
    body_index = index
    outer = calc
    while True:
        uses = list(outer.results[index].uses)
        yields = [u for u in uses if u.owner.operation.name in BODY_YIELD_OPS]
        if not yields:
            break
        outer = yields[0].owner.operation.parent
        chain.insert(0, outer.results[yields[0].operand_number])
        index = yields[0].operand_number
    inner = calc
    while inner.operation.name in ("torch.shape.calculate", "torch.dtype.calculate"):
        body_yield = list(inner.regions[0].blocks[0].operations)[-1]
        value = body_yield.operands[body_index]
        chain.append(value)
        producer = defining_op(value)
        if producer is None:
            break
        inner = producer
    return chain


def _retype_chain(calc, index: int, chain: list, new_type: ir.Type) -> None:
    bottom = chain[-1]
    producer = defining_op(bottom)
    if producer is None or not result_allows_refinement(producer.operation.name):
        _cast_into_body_yield(chain, new_type)
        chain = chain[:-1]
    for value in chain:
        old_type = value.type
        keep = [
            u
            for u in value.uses
            if u.owner.operation.name not in BODY_YIELD_OPS and not accepts(u, new_type)
        ]
        value.set_type(new_type)
        if not keep:
            continue
        with ir.InsertionPoint.after(value.owner), value.owner.location:
            back = cast(value, old_type)
        for use in keep:
            use.owner.operands[use.operand_number] = back


def _cast_into_body_yield(chain: list, new_type: ir.Type) -> None:
    """The innermost body yields a value we may not retype: yield a cast of it instead."""
    yielding = chain[-2].owner
    body_yield = list(yielding.regions[0].blocks[0].operations)[-1]
    position = chain[-2].result_number
    with ir.InsertionPoint(body_yield), body_yield.location:
        body_yield.operands[position] = cast(chain[-1], new_type)


def simplify(module: ir.Operation, kind: CalculationKind, options: Options, store: FactStore) -> Statistics:
    """Every calculate op of `kind` simplified, a run of its own with the fact store `store`."""
    simplifier = Simplifier(kind, options, store=store)
    simplifier.run(module)
    return simplifier.statistics
