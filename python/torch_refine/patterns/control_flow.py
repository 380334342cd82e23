"""`prim.If` with a decided condition, identical yields, selects of equals, unrolling
`prim.Loop`, tuples."""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass, field

from torch_mlir import ir

from torch_refine.calculations.lists import LiteralsMemo, forget_new_literals
from torch_refine.calculations.ranges import entry_block_of
from torch_refine.calculations.store import FactStore
from torch_refine.calculations.value_ranges import value_range
from torch_refine.ir.constants import NotConstant, constant_value, make_constant, op_key, typed_constant
from torch_refine.ir.diagnostics import position_of
from torch_refine.ir.module import copy_body_before
from torch_refine.patterns.lists import replace_by_element
from torch_refine.patterns.scalars import negation


def _block_ops(region: ir.Region) -> list:
    return list(region.blocks[0].operations)


def inline_constant_if(op, rewriter):
    """Replace an If whose condition is a constant by its live branch."""
    try:
        condition = constant_value(op.operands[0])
    except NotConstant:
        return True
    ops = _block_ops(op.regions[0 if condition else 1])
    terminator = ops.pop()
    for inner in ops:
        inner.operation.move_before(op)
    yielded = list(terminator.operands)
    if yielded:
        rewriter.replace_op(op, yielded)
    else:
        rewriter.erase_op(op)
    return None


def forward_identical_yields(op, rewriter):
    """A result both branches yield as the same value is that value."""
    then_yield = _block_ops(op.regions[0])[-1]
    else_yield = _block_ops(op.regions[1])[-1]
    changed = False
    for result, a, b in zip(op.results, then_yield.operands, else_yield.operands, strict=True):
        if a.type != result.type or not len(list(result.uses)):
            continue
        if a == b:
            result.replace_all_uses_with(a)
            changed = True
            continue
        same_constant = _same_constant(a, b)
        if same_constant is not _DIFFERENT:
            with rewriter.ip, op.location:
                result.replace_all_uses_with(make_constant(same_constant))
            changed = True
    return None if changed else True


_DIFFERENT = object()


def forward_single_valued_results(op, rewriter, run: FactStore):
    """An int result whose range is one value (`value_ranges.value_range`: a wrapped dim of a
    tensor of unknown rank, `0 if d is None else d` with d = 0) is that constant."""
    changed = False
    for result in op.results:
        if str(result.type) != "!torch.int" or not len(list(result.uses)):
            continue
        least, greatest = value_range(result, entry_block_of(op), run)
        if least is None or least != greatest:
            continue
        with rewriter.ip, op.location:
            result.replace_all_uses_with(make_constant(least))
        changed = True
    return None if changed else True


def forward_condition_yields(op, rewriter):
    """A bool result yielded as `true` by the then branch and `false` by the else branch is
    the condition (a library's `ok = True if c else False`); the other way round, its
    negation."""
    condition = op.operands[0]
    yields = [_block_ops(op.regions[i])[-1].operands for i in (0, 1)]
    changed = False
    for result, a, b in zip(op.results, *yields, strict=True):
        if not len(list(result.uses)) or a.type != condition.type:
            continue
        pair = (typed_constant(a, bool), typed_constant(b, bool))
        if pair == (True, False):
            result.replace_all_uses_with(condition)
            changed = True
        elif pair == (False, True):
            with rewriter.ip, op.location:
                result.replace_all_uses_with(negation(condition))
            changed = True
    return None if changed else True

# `x == y` and `x != y` on ints: the branch in which the two are known equal.
_EQUAL_BRANCH = {"torch.aten.eq.int": 0, "torch.aten.ne.int": 1}


def forward_select_of_equals(op, rewriter):
    """`y if x == y else x` is `x`: a result one branch yields as x or y and the branch
    where x == y yields as x or y too is what the other branch yields (broadcasting's
    `b if a == 1 else a` with b = 1 keeps a's symbolic size)."""
    condition = op.operands[0].owner if isinstance(op.operands[0], ir.OpResult) else None
    if condition is None or (equal_branch := _EQUAL_BRANCH.get(condition.operation.name)) is None:
        return True
    yields = [_block_ops(op.regions[i])[-1].operands for i in (0, 1)]
    compared = list(condition.operands)
    changed = False
    for number, result in enumerate(op.results):
        if not len(list(result.uses)):
            continue
        when_equal, otherwise = yields[equal_branch][number], yields[1 - equal_branch][number]
        if _matching(when_equal, compared) is None:
            continue
        if (source := _matching(otherwise, compared)) is not None and source.type == result.type:
            result.replace_all_uses_with(source)
            changed = True
    return None if changed else True


def _matching(value: ir.Value, candidates: list[ir.Value]) -> ir.Value | None:
    """The candidate that is `value`, or a constant of the same value."""
    for candidate in candidates:
        if value == candidate or _same_constant(value, candidate) is not _DIFFERENT:
            return candidate
    return None


def _same_constant(a: ir.Value, b: ir.Value):
    """The common constant value of `a` and `b`, or _DIFFERENT."""
    try:
        a_value, b_value = constant_value(a), constant_value(b)
    except NotConstant:
        return _DIFFERENT
    if a_value != b_value or type(a_value) is not type(b_value):
        return _DIFFERENT
    return a_value


@dataclass
class Unroller:
    """Unrolls loops whose iterations are decided at compile time, within a budget.

    A for-like loop (its body always continues) with a constant trip count is unrolled
    at once. A while-like loop (TorchScript's lowering of `for` with `break`/`continue`,
    and of `while`) is peeled one iteration at a time while its entry condition is a
    constant: the peeled body is simplified by the driver, and the rest of the loop starts
    from the condition and values it yields. A loop entered with a false condition is its
    initial values.
    """

    max_unroll: int
    max_unroll_ops: int
    run: FactStore  # the run's store: the greedy rewrite's memo of unmutated literals
    warned: set = field(default_factory=set)
    cap_hits: list = field(default_factory=list)
    unrolled: int = 0

    def __call__(self, op, rewriter):
        try:
            trip_count = max(constant_value(op.operands[0]), 0)
            entered = constant_value(op.operands[1])
        except NotConstant:
            return True
        if entered is False or trip_count == 0:
            return self._skip(op, rewriter)
        body = op.regions[0].blocks[0]
        ops = list(body.operations)
        terminator = ops.pop()
        try:
            always_continues = constant_value(terminator.operands[0]) is True
        except NotConstant:
            always_continues = False
        if not always_continues:
            return self._peel(op, rewriter, trip_count, len(ops))
        if trip_count > self.max_unroll or trip_count * len(ops) > self.max_unroll_ops:
            self._warn(op, trip_count, len(ops))
            return True
        carried = list(op.operands[2:])
        with rewriter.ip, op.location:
            for iteration in range(trip_count):
                carried = _copy_iteration(op, iteration, carried, self.run.unmutated_literals)[1]
        self.unrolled += 1
        return _replace_loop(op, rewriter, carried)

    def _skip(self, op, rewriter):
        return _replace_loop(op, rewriter, list(op.operands[2:]))

    def _peel(self, op, rewriter, trip_count: int, body_ops: int):
        peeled = _peeled_count(op)
        if peeled >= self.max_unroll or (peeled + 1) * body_ops > self.max_unroll_ops:
            self._warn(op, peeled + 1, body_ops)
            return True
        with rewriter.ip, op.location:
            condition, carried = _copy_iteration(op, 0, list(op.operands[2:]), self.run.unmutated_literals)
            remaining = make_constant(trip_count - 1)  # before the clone, which uses it
            rest = op.operation.clone(ip=rewriter.ip)
            rest.operands[0] = remaining
        forget_new_literals(rest, self.run.unmutated_literals)
        rest.operands[1] = condition
        for index, value in enumerate(carried):
            rest.operands[2 + index] = value
        rest.attributes[PEELED] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), peeled + 1)
        _shift_induction_variable(rest)
        self.unrolled += 1
        return _replace_loop(op, rewriter, list(rest.results))

    def _warn(self, op, trip_count: int, body_ops: int) -> None:
        """Record the cap hit once per loop and print it as an MLIR-style warning.

        The Python bindings can only emit errors (Location.emit_error), so the warning goes
        to stderr in mlir-opt's format and into `cap_hits` for the pass statistics.
        """
        key = op_key(op)
        if key in self.warned:
            return
        self.warned.add(key)
        message = (
            f"'torch.prim.Loop' op not unrolled: {trip_count} iterations of {body_ops} ops exceed "
            f"the unroll cap (max-unroll={self.max_unroll}, max-unroll-ops={self.max_unroll_ops})"
        )
        position = position_of(op.location)
        where = f"{position.file}:{position.line}:{position.col}: " if position is not None else ""
        self.cap_hits.append(where + message)
        print(f"{where}warning: {message}", file=sys.stderr)


PEELED = "torch_refine.peeled"


def _peeled_count(op) -> int:
    attributes = op.operation.attributes
    return ir.IntegerAttr(attributes[PEELED]).value if PEELED in attributes else 0


def _copy_iteration(loop, iteration: int, carried: list, memo: LiteralsMemo | None):
    """Copy one iteration of a loop body in front of the loop: (condition, carried)."""
    copied, (condition, *yielded) = copy_body_before(loop, [make_constant(iteration), *carried], loop)
    for op in copied:
        forget_new_literals(op, memo)
    return condition, yielded


def _shift_induction_variable(loop) -> None:
    """The rest of a peeled loop counts from one iteration later: iv becomes iv + 1."""
    body = loop.regions[0].blocks[0]
    iv = body.arguments[0]
    uses = [(use.owner, use.operand_number) for use in iv.uses]
    if not uses:
        return
    first = body.operations[0]
    with ir.InsertionPoint(first), loop.location:
        one = make_constant(1)
        shifted = ir.Operation.create(
            "torch.aten.add.int", results=[iv.type], operands=[iv, one]
        ).result
    for owner, number in uses:
        owner.operands[number] = shifted


def _replace_loop(op, rewriter, values: list):
    if values:
        rewriter.replace_op(op, values)
    else:
        rewriter.erase_op(op)
    return None


def _tuple_elements(value: ir.Value) -> list | None:
    producer = value.owner if isinstance(value, ir.OpResult) else None
    if producer is None or producer.operation.name != "torch.prim.TupleConstruct":
        return None
    return list(producer.operands)


def fold_tuple_index(op, rewriter):
    return replace_by_element(op, rewriter, _tuple_elements(op.operands[0]))


def fold_tuple_unpack(op, rewriter):
    elements = _tuple_elements(op.operands[0])
    if elements is None or [v.type for v in elements] != [r.type for r in op.results]:
        return True
    rewriter.replace_op(op, elements)
    return None


def patterns(options, run: FactStore) -> list:
    unroller = Unroller(options.max_unroll, options.max_unroll_ops, run)
    return [
        ("torch.prim.If", inline_constant_if),
        ("torch.prim.If", forward_identical_yields),
        ("torch.prim.If", forward_select_of_equals),
        ("torch.prim.If", forward_condition_yields),
        ("torch.prim.If", functools.partial(forward_single_valued_results, run=run)),
        ("torch.prim.Loop", unroller),
        ("torch.prim.TupleIndex", fold_tuple_index),
        ("torch.prim.TupleUnpack", fold_tuple_unpack),
    ]
