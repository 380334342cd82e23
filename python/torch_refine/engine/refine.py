"""The refinement pipelines: `torch-refine-shape-pipeline`, `torch-refine-dtype-pipeline`
and `torch-refine-pipeline`, and the per-op loop they share (`refine`).

The shape and dtype pipelines run reify, inline, simplify and drop once, one op at a time
in program order. `torch-refine-pipeline` runs rounds of the shape pipeline, the dtype
pipeline and `torch-refine-propagate-control-flow` until no type changes; after each
kind, the program's static-info casts take what their operands became (`engine.casts`;
their users read through them already, so this needs no round of its own). The shape and
dtype steps visit ops after the producers of their operands, and shape functions read no
dtypes; so only types that propagation changes (results of `prim.If`, loop-carried values)
can let another round refine more, and a round whose propagation changes nothing ends the
loop. The first round keeps library checks as runtime asserts: every op still unrefined
afterwards was already wrapped (and its checks kept) then, so later rounds would only
repeat them. The exception is an op in the body of a loop whose carried types may still
change (`LoopRounds`): it keeps no check until the loop has settled, and then keeps the
checks the settled types leave (a loop body refined with its carried types unknown would
keep the library's generic checks, loops over lists included). Checks that later rounds
decide to be false are still errors. The rounds are capped (`max-iterations`) with a warning; a loop whose assumed
carried type is then still unconfirmed is widened to unknown and refined again, so no type
rests on an unchecked assumption. The end cleans up
without `canonicalize`: pure ops left unused and library functions nothing calls are erased.
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass, field

from torch_mlir import ir

from torch_refine.calculations import dim_facts
from torch_refine.calculations.kind import DTYPE, SHAPE, CalculationKind
from torch_refine.calculations.lists import erase_write_only_lists, only_read
from torch_refine.calculations.purity import erase_if_dead, is_pure_if, is_unused
from torch_refine.calculations.ranges import enclosing_function
from torch_refine.calculations.store import GUARD_ID, GUARD_OF, MARKS, FactStore, take_guard_id
from torch_refine.calculations.symbols import library_key, user_functions
from torch_refine.engine import instrumentation
from torch_refine.engine.casts import check_casts, erase_identity_casts, narrow_casts
from torch_refine.engine.drop import drop
from torch_refine.engine.evaluator import evaluator_for
from torch_refine.engine.explain import annotate
from torch_refine.engine.fallback import Fallback
from torch_refine.engine.guards import (
    adopt_entry_asserts,
    erase_repeated_asserts,
    hoist_program_asserts,
    number_computed_sizes,
    raising_branches_to_asserts,
)
from torch_refine.engine.inline import (
    erase_unused_library_functions,
    inline_library_calls_in,
)
from torch_refine.engine.known_values import erase_decided_checks, fold_tensor_reads, type_bool_conditions
from torch_refine.engine.propagate import (
    after_unsettled_loops,
    in_unsettled_loop,
    propagate,
    remove_barriers,
    widen_unconfirmed,
)
from torch_refine.engine.pruning import prune_implied_guards
from torch_refine.engine.reify import LibraryCloner, checks_only, load_library, targets, wrap
from torch_refine.engine.simplifier import Options, Simplifier
from torch_refine.ir import types
from torch_refine.ir.constants import op_key
from torch_refine.library.loader import Library
from torch_refine.library.meta_fallback import SYMBOL as FALLBACK_SYMBOL


def refine_shapes_once(module, extra_library: str, runtime_asserts: bool, keep_symbolic_dims: bool,
                       evaluate: bool, broadcast_equal: bool) -> None:
    """`torch-refine-shape-pipeline`: every op's sizes refined once, in program order."""
    dim_facts.strip(module)  # only facts this run derives are trusted
    facts = FactStore(broadcast_equal=broadcast_equal)
    with module.context:
        adopt_entry_asserts(module, facts)
    library = load_library(module, extra_library)
    refine(module, SHAPE, library, runtime_asserts, facts, evaluate_constants=evaluate)
    with module.context:
        check_casts(module)
    erase_unused_library_functions(module)
    if not keep_symbolic_dims:
        dim_facts.strip_derived(module, facts)


def refine_dtypes_once(module, extra_library: str, runtime_asserts: bool, evaluate: bool) -> None:
    """`torch-refine-dtype-pipeline`: every op's dtypes refined once, in program order."""
    facts = FactStore()
    library = load_library(module, extra_library)
    refine(module, DTYPE, library, runtime_asserts, facts, evaluate_constants=evaluate)
    with module.context:
        check_casts(module)
    erase_unused_library_functions(module)


@dataclass(frozen=True)
class PipelineOptions:
    """The options of `torch-refine-pipeline` (passes/pipeline.py declares them with their
    help; test_pass_registry checks that the defaults agree)."""

    extra_library: str = ""
    runtime_asserts: bool = True
    max_iterations: int = 10
    keep_symbolic_dims: bool = False
    explain: bool = False
    evaluate: bool = True
    broadcast_equal: bool = False
    meta_fallback: bool = True


def refine_to_fixed_point(module, options: PipelineOptions) -> None:
    """`torch-refine-pipeline`: rounds of shape and dtype refinement and propagation
    through control flow until no type changes, then clean-up."""
    dim_facts.strip(module)  # only facts this run derives are trusted
    facts = FactStore(broadcast_equal=options.broadcast_equal, marking=True)
    with module.context:
        adopt_entry_asserts(module, facts)
        type_bool_conditions(module)
        fold_tensor_reads(module, facts)  # sizes read off literals are constants for every calculation
    _refine_rounds(module, options, facts)
    if not options.keep_symbolic_dims:
        dim_facts.strip_derived(module, facts)
    else:
        dim_facts.strip(module, MARKS)


def _refine_rounds(module, options: PipelineOptions, facts: FactStore) -> None:
    with instrumentation.stage("load library"):
        library = load_library(module, options.extra_library)
    memos: dict[str, dict] = {SHAPE.name: {}, DTYPE.name: {}}  # kept across rounds
    deferred = 0
    for round_index in range(options.max_iterations):
        round_name = f"round {round_index + 1}"
        with instrumentation.stage(round_name):
            late = False
            for kind in (SHAPE, DTYPE):
                run = refine(module, kind, library, options.runtime_asserts, facts, memos[kind.name],
                             options.explain, options.evaluate, LoopRounds(round_index == 0, facts),
                             meta_fallback=options.meta_fallback)
                deferred += run.deferred
                late |= run.late
                if kind is SHAPE and round_index == 0 and _hoisted_program_asserts(module, facts):
                    run.added_facts = True
                    run.settled.clear()  # no op saw them
                if kind is SHAPE:
                    refine_under_new_facts(module, library, options.runtime_asserts, facts, memos[kind.name],
                                           options.explain, options.evaluate, run)
                with module.context:
                    narrow_casts(module)  # their users read through them: no round more
                instrumentation.after_stage(f"{round_name}/{kind.name}", module)
            with module.context, instrumentation.stage("propagate"):
                changed = propagate(module, facts)
            instrumentation.after_stage(f"{round_name}/propagate", module)
        if not (changed or late):
            break
    else:
        warnings.warn(
            f"torch-refine-pipeline: types still changed after {options.max_iterations} rounds; stopping",
            RuntimeWarning,
            stacklevel=3,
        )
        with module.context:
            widened = True
            while widened:  # no assumption is left unchecked, no deferred check unkept
                widened = widen_unconfirmed(module)
                for kind in (SHAPE, DTYPE):
                    refine(module, kind, library, options.runtime_asserts, facts, memos[kind.name],
                           options.explain, options.evaluate, LoopRounds(False, facts),
                           meta_fallback=options.meta_fallback)
    if deferred and _deferral_marks_left(module):  # no round came after their loop settled
        for kind in (SHAPE, DTYPE):
            refine(module, kind, library, options.runtime_asserts, facts, memos[kind.name],
                   options.explain, options.evaluate, LoopRounds(False, facts), meta_fallback=options.meta_fallback)
    with instrumentation.stage("cleanup"):
        with module.context:
            remove_barriers(module)
            with facts.pruning():
                prune_implied_guards(module, facts)
        _cleanup(module, facts)
    if options.explain:
        with module.context:
            annotate(module, library.has_function)
    if deferred:  # marks left where a run ended before a loop settled: no internal attribute leaves
        dim_facts.remove_attributes(module, _DEFERRAL_MARKS)


def _hoisted_program_asserts(module, facts: FactStore) -> bool:
    with module.context:
        return hoist_program_asserts(module, facts)


def erase_checks_of(module, guard_ids: set) -> None:
    """Erase the checks kept for ops since refined again (`GUARD_OF`): asserts, and
    raising Ifs whose results nothing uses; what only they used goes at clean-up."""
    if not guard_ids:
        return
    found = []

    def visit(op):
        attributes = op.attributes
        if GUARD_OF in attributes and attributes[GUARD_OF] in guard_ids:
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    for op in found:
        if all(not list(r.uses) for r in op.results):
            op.erase()


def refine_under_new_facts(module, library: Library, runtime_asserts: bool, facts: FactStore, memo: dict,
                           explain: bool, evaluate: bool, last_run: RefineRun) -> None:
    """Shapes again while facts asserted during the last refinement replace symbols or
    narrow ranges: an op before the op whose check asserted `%arg1[0] == %arg0[0]` was
    refined without it (a view of a dim read off the other input), and its dynamic dims
    may now be known. The ops refined after the last new fact saw every fact and are not
    visited again (in a 24-layer model, all but the first few)."""
    while last_run.added_facts:
        last_run = refine(module, SHAPE, library, runtime_asserts, facts, memo, explain, evaluate,
                          LoopRounds(False, facts), revisit_dynamic=True, settled=last_run.settled)


@dataclass
class RefineRun:
    """What one `refine` did: how many ops it deferred (`LoopRounds`), whether checks it
    asserted added facts (`FactStore.fact_count`: replacements, ranges), and the ops
    (`op_key`) it refined after the last of them, under every fact."""

    deferred: int = 0
    added_facts: bool = False
    settled: set = field(default_factory=set)
    late: bool = False  # the meta fallback's dtype step gave sizes: the ops after it need a round


@dataclass
class LoopRounds:
    """How `refine` keeps checks in the rounds of `torch-refine-pipeline`: an op in the
    body of a loop whose carried types may still change (`in_unsettled_loop`) keeps none
    and is marked (`CalculationKind.deferred_checks`); once the loop has settled, a later
    round wraps the marked op again and keeps its checks, computed from types that now
    hold. So does an op reading what such a loop gives (`after_unsettled_loops`: a view
    of a loop's result keeps one assert, not the first round's calculation for an operand
    of unknown rank). Other ops keep their checks in the first round only. Without it (the
    shape and dtype pipelines) every op keeps its checks."""

    first_round: bool
    run: FactStore  # the run's facts (the binds' scans the loops' dims read)
    _unsettled: dict = field(default_factory=dict)  # loop key -> unsettled, per call
    _waiting: dict = field(default_factory=dict)  # function key -> after_unsettled_loops

    def keeps_checks(self, op, kind: CalculationKind) -> bool:
        marked = kind.deferred_checks in op.operation.attributes
        if in_unsettled_loop(op, self.first_round, self._unsettled, self.run) or self._after_unsettled_loop(op):
            if not marked:
                op.operation.attributes[kind.deferred_checks] = ir.UnitAttr.get()
            return False
        if marked:
            del op.operation.attributes[kind.deferred_checks]
            return True
        return self.first_round

    def _after_unsettled_loop(self, op) -> bool:
        function = enclosing_function(op)
        if function is None:
            return False
        key = op_key(function)
        if key not in self._waiting:
            self._waiting[key] = after_unsettled_loops(function, self.first_round, self.run)
        waiting = self._waiting[key]
        return bool(waiting) and any(operand in waiting for operand in op.operation.operands)


def refine(
    module,
    kind: CalculationKind,
    library: Library,
    runtime_asserts: bool,
    facts: FactStore,
    memo: dict | None = None,
    explain: bool = False,
    evaluate_constants: bool = True,
    rounds: LoopRounds | None = None,
    revisit_dynamic: bool = False,
    settled: set = frozenset(),
    meta_fallback: bool = False,
) -> RefineRun:
    """Reify, inline, simplify and drop the calculation of each op of one kind, one op at
    a time in program order, under the run's facts (`facts`: read, and added to by the
    checks asserted at a function's entry).

    What the separate passes do over the whole module, done per op: an op's operand
    types are final once the ops before it are refined, so its memo key is too. An op the
    memo (`memo`, kept by the caller across rounds, or a fresh one) already knows gets its
    types without a calculation; the others are wrapped, their library calls inlined,
    simplified and dropped at once. Library functions left unused are the caller's to
    erase. `explain` marks what blocked calculations that left something unknown.
    `evaluate_constants` first tries running the op's library function on its arguments
    (`engine.evaluator`: constants and sizes known as polynomials); an op it cannot
    decide is calculated in the IR.

    With timing on (`instrumentation`), reify, inline, simplify and drop are timed as
    stages of `kind`; with it off they are the plain functions. `rounds` decides per op
    whether its checks are kept (`LoopRounds`). `revisit_dynamic` also takes ops already
    refined with a dynamic dim, except those in `settled` (see `refine_under_new_facts`).
    `meta_fallback` types ops without a function of `kind` from PyTorch's meta kernels
    (engine/fallback.py).
    """
    with module.context, instrumentation.stage(kind.name), facts.refining():
        per_op = _PerOp(module, kind, library, facts, runtime_asserts, rounds, {} if memo is None else memo,
                        explain, evaluate_constants, revisit_dynamic, meta_fallback)
        run = RefineRun()
        known_facts = facts.fact_count()
        for op, unpack, symbol in targets(module, kind, per_op.cloner, revisit_dynamic=revisit_dynamic,
                                          fallback=per_op.fallback):
            key = op_key(op)
            if key in settled or (revisit_dynamic and _only_renamed(op, unpack, kind, facts)):
                continue
            per_op.refine(op, unpack, symbol, run)
            if facts.fact_count() == known_facts:
                run.settled.add(key)
                continue
            known_facts = facts.fact_count()
            run.added_facts = True
            run.settled.clear()
        per_op.finish(module, run)
    return run


class _PerOp:
    """`refine`'s stages for one op (timed when instrumentation is on) and what they share
    across ops: the library's cloned functions and their parameter views, the simplifier
    and its memo, the evaluator, the meta fallback, and the guards of ops refined again."""

    def __init__(self, module, kind: CalculationKind, library: Library, facts: FactStore, runtime_asserts: bool,
                 rounds: LoopRounds | None, memo: dict, explain: bool, evaluate_constants: bool,
                 revisit_dynamic: bool, meta_fallback: bool):
        self.kind, self.facts, self.runtime_asserts, self.rounds = kind, facts, runtime_asserts, rounds
        self.revisit_dynamic = revisit_dynamic
        self.cloner = LibraryCloner(module, library)
        self.simplifier = Simplifier(kind, Options(), memo, memoize_undecided=not runtime_asserts,
                                     record_blockers=explain, store=facts)
        evaluator = evaluator_for(library, facts) if evaluate_constants else None
        self.evaluate_op = instrumentation.timed("evaluate", evaluator.evaluate) if evaluator else None
        self.reify = instrumentation.timed("reify", wrap)
        self.inline_in = instrumentation.timed("inline", inline_library_calls_in)
        self.simplify = instrumentation.timed("simplify", self.simplifier.simplify)
        self.drop = instrumentation.timed("drop", drop)
        self.fallback = Fallback.for_step(meta_fallback, kind, library.has_function, explain, facts)
        self.views: dict[str, tuple] = {}
        self.wrapped = 0
        self.obsolete: set = set()  # guard ids of ops refined again
        self.guards_before = _count_guards(module)

    def refine(self, op, unpack, symbol: str, run: RefineRun) -> None:
        keep = self.runtime_asserts and (self.rounds is None or self.rounds.keeps_checks(op, self.kind))
        if symbol == FALLBACK_SYMBOL:
            self.fallback.refine(op, unpack, keep)
            return
        only_checks = checks_only(op, unpack)  # no result to type: no evaluator, no facts
        described = [] if only_checks else list((op if unpack is None else unpack).operation.results)
        if symbol not in self.views:
            self.views[symbol] = self.cloner.parameter_views(symbol)
        run.deferred += self.runtime_asserts and not keep and self.kind.deferred_checks in op.operation.attributes
        use_evaluator = self.evaluate_op is not None and not only_checks
        evaluate = functools.partial(self.evaluate_op, op, unpack, self.kind, symbol) if use_evaluator else None
        if self.revisit_dynamic:
            self._refine_again(op, described, evaluate, keep, symbol)
            return  # the evaluator or nothing: the op's calculation ran before
        if self.simplifier.refine_known(op, described, self.views[symbol], evaluate, keep):
            return
        calculate = self.reify(op, unpack, self.kind, self.cloner.import_function(symbol, op))
        self.wrapped += 1
        if self.simplify(calculate, prepare=self._inline, views=self.views[symbol]):
            claims = only_checks or _claims(op, list(calculate.results), self.kind)
            self.drop(calculate, keep and claims, self.facts)

    def _refine_again(self, op, described: list, evaluate, keep: bool, symbol: str) -> None:
        old_guards = take_guard_id(op)
        if self.simplifier.refine_known(op, described, self.views[symbol], evaluate, keep):
            self.obsolete.add(old_guards)
        elif old_guards is not None:
            op.operation.attributes[GUARD_ID] = old_guards

    def _inline(self, calculate) -> None:
        self.inline_in(calculate, self.cloner.functions)

    def finish(self, module, run: RefineRun) -> None:
        self.simplifier.finish()
        run.late = Fallback.gave_late_sizes(self.fallback)
        run.deferred += Fallback.deferred_marks(self.fallback)
        erase_checks_of(module, self.obsolete - {None})
        _count_statistics(self.simplifier, self.wrapped, _count_guards(module) - self.guards_before)


def _only_renamed(op, unpack, kind: CalculationKind, facts: FactStore) -> bool:
    """Whether new facts can only rename the symbols of `op`'s dims, which are then
    substituted (`dim_facts.substitute`) instead of refining the op again: it kept no
    checks (a fact may imply them), and each dim of its results is a polynomial in the
    arguments' dims (not a fresh symbol, a select or a quotient, which a fact may decide)
    that the facts do not make a constant."""
    if kind is not SHAPE or GUARD_ID in op.operation.attributes or checks_only(op, unpack):
        return False
    producer = op if unpack is None else unpack
    if not all(dim_facts.only_argument_dims(producer, value.result_number) for value in producer.operation.results):
        return False
    function = enclosing_function(op)
    replacements = facts.replacements(None if function is None else op_key(function))
    return not dim_facts.substitute(producer, replacements, facts)


def _claims(op, results: list, kind: CalculationKind) -> bool:
    """Whether the types of an op's results say anything of their kind (a `cat` of
    unranked tensors stays unranked) that its operands do not: an in-place op typed as
    its `self` claims nothing new. Checks exist to make claims hold where PyTorch would
    raise: an op claiming nothing keeps none, and PyTorch's own check in the op raises
    as it would have (the checks of a cat of unranked tensors were about 200 ops of
    loops over ranks, those of `mul_` of a `[3,4]` by an unranked tensor 70)."""
    def claim(value: ir.Value):
        info = types.parse(value.type)
        return info if info is None else info.sizes if kind is SHAPE else info.dtype

    if _in_place(op):
        self_claim = claim(op.operation.operands[0])
        if all(claim(result) == self_claim for result in results):
            return False
    for result in results:
        if types.parse(result.type) is None or claim(result) is not None:
            return True  # a scalar's type, a rank or a dtype
    return False


def _in_place(op) -> bool:
    """An ATen op writing its `self` and returning it (`add_.Tensor`, `relu_`, `__iand__`),
    named by the dialect or a `torch.operator`."""
    name = (library_key(op) or "").split(".")
    if len(name) < 2 or name[0] != "aten":
        return False
    base = name[1]
    return base.startswith("__i") if base.startswith("__") else base.endswith("_")


def _count_guards(module) -> int:
    """The module's runtime asserts, counted only when statistics are on."""
    if not instrumentation.statistics_enabled():
        return 0
    found = 0

    def visit(op):
        nonlocal found
        found += op.name == "torch.runtime.assert"
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return found


def _count_statistics(simplifier: Simplifier, wrapped: int, guards_kept: int) -> None:
    statistics = simplifier.statistics
    instrumentation.count(instrumentation.OPS_WRAPPED, wrapped)
    instrumentation.count(instrumentation.CALCULATIONS, statistics.calculations)
    instrumentation.count(instrumentation.MEMO_HITS, statistics.memo_hits)
    instrumentation.count(instrumentation.EVALUATED, statistics.evaluated)
    instrumentation.count(instrumentation.TYPES_REFINED, statistics.refined)
    instrumentation.count(instrumentation.GUARDS_KEPT, guards_kept)


_DEFERRAL_MARKS = tuple(kind.deferred_checks for kind in (SHAPE, DTYPE))


def _deferral_marks_left(module) -> bool:
    found = False

    def visit(op):
        nonlocal found
        found = any(name in op.attributes for name in _DEFERRAL_MARKS)
        return ir.WalkResult.INTERRUPT if found else ir.WalkResult.ADVANCE

    module.walk(visit)
    return found


# Scalar ops of the entry block merged with an equal earlier one: constants, and the size
# reads and int arithmetic the guards and folds build.
_MERGED = ("torch.aten.size.int", "torch.aten.add.int", "torch.aten.sub.int", "torch.aten.mul.int",
           "torch.aten.floordiv.int", "torch.aten.eq.int", "torch.aten.ne.int", "torch.aten.lt.int",
           "torch.aten.le.int", "torch.aten.gt.int", "torch.aten.ge.int", "torch.aten.Int.bool",
           "torch.aten.__and__.bool", "torch.aten.__or__.bool", "torch.aten.ne.bool")


def _merge_duplicates(module) -> None:
    """Each constant, size read, int computation and pure select of a function's entry
    block is built once, and each condition asserted once: a later equal op is replaced by
    the earlier, which dominates every op after it (a later check the pipeline kept of the
    same condition is erased). Only pure scalar ops (a list or tensor literal is a new
    object each time), and reads of a tensor's size list that nothing changes."""
    for fn in user_functions(module):
        seen: dict = {}
        for op in list(fn.regions[0].blocks[0].operations):
            key = _merge_key(op, {})
            if key is None:
                continue
            if op.operation.name == "torch.runtime.assert":
                if key in seen and GUARD_OF in op.operation.attributes:
                    op.operation.erase()  # a check of ours; the program's own asserts stay
                seen.setdefault(key, None)
                continue
            earlier = seen.setdefault(key, op.results[0])
            if earlier != op.results[0]:
                op.results[0].replace_all_uses_with(earlier)
                op.operation.erase()


def _merge_key(op, local: dict) -> tuple | None:
    """What makes `op` equal to another op, or None when it is not merged; `local` numbers
    the values defined in the branch being keyed."""
    name = op.operation.name
    if name == "torch.runtime.assert":
        return (name, _operand_key(op.operands[0], local))
    if name == "torch.prim.If":
        return _select_key(op, local)
    if len(op.results) != 1 or not (name.startswith("torch.constant.") or name in _MERGED or _reads_size_list(op)):
        return None
    attributes = op.operation.attributes  # indexing gives NamedAttributes
    return (name, str(op.results[0].type), tuple(_operand_key(v, local) for v in op.operands),
            tuple(sorted((attributes[i].name, str(attributes[i].attr)) for i in range(len(attributes)))))


def _reads_size_list(op) -> bool:
    if op.operation.name not in ("torch.aten.__getitem__.t", "torch.aten.len.t"):
        return False
    source = op.operands[0]
    return (isinstance(source, ir.OpResult) and source.owner.name == "torch.aten.size"
            and only_read(source))


def _select_key(op, local: dict) -> tuple | None:
    """An If of one result (a short-circuit `and`) whose branches hold only merged ops."""
    if len(op.results) != 1:
        return None
    branches = []
    for region in op.operation.regions:
        ops = list(region.blocks[0].operations)
        keys = []
        for inner in ops[:-1]:
            if inner.operation.name in ("torch.runtime.assert", "torch.prim.If"):
                return None  # no nesting: an If nested 1,000 deep would recurse past the limit
            key = _merge_key(inner, local)
            if key is None:
                return None
            local[inner.results[0]] = ("local", len(local))
            keys.append(key)
        keys.append(tuple(_operand_key(v, local) for v in ops[-1].operands))
        branches.append(tuple(keys))
    return ("torch.prim.If", str(op.results[0].type), _operand_key(op.operands[0], local), tuple(branches))


def _operand_key(value: ir.Value, local: dict) -> tuple:
    return local.get(value) or _value_key(value)


def _value_key(value: ir.Value) -> tuple:
    if isinstance(value, ir.BlockArgument):
        return ("argument", value.arg_number)
    return (op_key(value.owner), value.result_number)  # operands are merged before their users


def _cleanup(module, facts: FactStore) -> None:
    erase_decided_checks(module, facts)
    raising_branches_to_asserts(module)
    erase_identity_casts(module)
    fold_tensor_reads(module, facts, selects=True)
    erase_decided_checks(module, facts)  # again: a check reading ints the reads folded to constants (a pad's)
    for fn in user_functions(module):
        erase_write_only_lists(fn.operation)
    unused = []

    def visit(op):
        if is_unused(op):
            unused.append(op)
        return ir.WalkResult.ADVANCE

    for fn in user_functions(module):
        fn.operation.walk(visit)
    erase_if_dead(unused, is_pure_if)  # and the definers its erasures leave unused
    erase_unused_library_functions(module)
    _merge_duplicates(module)
    erase_repeated_asserts(module)  # merged, two ops' checks may be one condition
    number_computed_sizes(module)
