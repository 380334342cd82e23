"""Small programs for the engine's unit tests, parsed from text.

`parse(text)` gives a `Program`: its module, its first function's entry block, and each op
by the name its location gives it (`%h = torch.aten.size.int ... loc("h")`: the printer
renumbers SSA names, a name location survives). `facts_store` is a fact store of a run of
its own, for the test to pass where a run's store goes.
"""

from __future__ import annotations

import pytest
from torch_mlir import ir

from torch_refine.calculations.store import FactStore
from torch_refine.ir.context import create_context


class Program:
    def __init__(self, text: str, context: ir.Context) -> None:
        self.module = ir.Module.parse(text, context)

    @property
    def function(self):
        return next(op for op in self.module.body.operations if op.operation.name == "func.func")

    @property
    def entry(self) -> ir.Block:
        return self.function.regions[0].blocks[0]

    def op(self, name: str):
        found = []

        def visit(op):
            if str(op.location) == f'loc("{name}")':
                found.append(op)
            return ir.WalkResult.ADVANCE

        self.module.operation.walk(visit)
        assert len(found) == 1, f"no single op located {name!r}: {len(found)}"
        return found[0]

    def value(self, name: str) -> ir.Value:
        return self.op(name).results[0]

    def ops_named(self, op_name: str) -> list:
        found = []

        def visit(op):
            if op.name == op_name:
                found.append(op)
            return ir.WalkResult.ADVANCE

        self.module.operation.walk(visit)
        return found

    def __str__(self) -> str:
        return str(self.module)


@pytest.fixture
def parse():
    context = create_context()
    with context, ir.Location.unknown():
        yield lambda text: Program(text, context)


@pytest.fixture
def facts_store():
    return FactStore()
