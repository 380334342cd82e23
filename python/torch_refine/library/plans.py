"""Plans: library functions as plain data for the evaluator (engine/evaluator.py).

A plan is what the evaluator compiles a function into, before it binds the steps to the
Python callables that run them: (parameter type texts, environment size, body). A block is
(argument slots, steps, yielded slots, its top-level raise as (the message's compile-time
text, the message's slot) or None); a step is (op name, operand slots, result slots, what
the op needs besides its operands: a constant's value, an If's two blocks, a Loop's body, a
call's callee). Values are numbered as slots of one environment per call.

Plans hold only what `marshal` stores (ints, floats, strings, None, tuples: no lists, which
the garbage collector would scan for as long as a plan is cached), so the
generator writes the embedded library's plans beside it (`_generated/library.plans`) and an
evaluated op parses no IR.
"""

from __future__ import annotations

from torch_mlir import ir

from torch_refine.calculations.kind import RAISE
from torch_refine.ir.constants import CONSTANT_OPS, constant_value, string_text

IF = "torch.prim.If"
LOOP = "torch.prim.Loop"
_SCRATCH = object()  # the key of slot 0, which takes what ops without results return


class _RegionOp(Exception):
    """An op with regions other than If and Loop: the library has none, and the evaluator
    would not run one."""


def function_plan(fn) -> tuple | None:
    """The plan of library function `fn`; None for a declaration (or None), or a function
    holding a region op the evaluator does not run."""
    if fn is None or not len(fn.regions[0].blocks):
        return None
    planner = _Planner()
    try:
        body = planner.block(fn.regions[0].blocks[0])
    except _RegionOp:
        return None
    function_type = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
    return (tuple(str(t) for t in function_type.inputs), len(planner.slots), body)


def parameter_reads(plan: tuple) -> list[bool]:
    """Per parameter of a planned function, whether any op (or a yield) reads it."""
    read = set()
    pending = [plan[2]]
    while pending:
        _, steps, yielded, _ = pending.pop()
        read.update(yielded)
        for name, operands, _, extra in steps:
            read.update(operands)
            if name == IF:
                pending.extend(extra)
            elif name == LOOP:
                pending.append(extra)
    return [slot in read for slot in plan[2][0]]


class _Planner:
    """Numbers a function's values and describes its blocks and ops."""

    def __init__(self) -> None:
        self.slots: dict = {_SCRATCH: 0}

    def slot(self, value: ir.Value) -> int:
        return self.slots.setdefault(value, len(self.slots))

    def block(self, block) -> tuple:
        arguments = tuple(self.slot(a) for a in block.arguments)
        operations = list(block.operations)
        steps = tuple(self.step(op) for op in operations[:-1])
        yielded = tuple(self.slot(v) for v in operations[-1].operands)
        raise_op = next((op for op in operations if op.operation.name == RAISE), None)
        raises = None
        if raise_op is not None:
            raises = (string_text(raise_op.operands[0]), self.slot(raise_op.operands[0]))
        return (arguments, steps, yielded, raises)

    def step(self, op) -> tuple:
        name = op.operation.name
        operands = tuple(self.slot(v) for v in op.operands)
        results = tuple(self.slot(r) for r in op.results)
        extra = None
        if name in CONSTANT_OPS:
            extra = constant_value(op.result)
        elif name == IF:
            extra = (self.block(op.regions[0].blocks[0]), self.block(op.regions[1].blocks[0]))
        elif name == LOOP:
            extra = self.block(op.regions[0].blocks[0])
        elif name == "func.call":
            extra = ir.FlatSymbolRefAttr(op.attributes["callee"]).value
        elif op.operation.regions:
            raise _RegionOp
        return (name, operands, results, extra)
