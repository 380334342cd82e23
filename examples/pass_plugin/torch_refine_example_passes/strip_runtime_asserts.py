"""A pass for a backend that checks shapes itself: erase the `torch.runtime.assert` guards
that torch-refine-pipeline keeps, or only those whose message names one op."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from torch_mlir import ir

from torch_refine.passes.base import ModulePass, option

ASSERT = "torch.runtime.assert"


@dataclass
class StripRuntimeAsserts(ModulePass):
    name: ClassVar[str] = "example-strip-runtime-asserts"
    description: ClassVar[str] = "Erase torch.runtime.assert ops (an example third-party pass)"

    only_op: str = option("", "erase only the asserts whose message names this op (aten.mm)")

    def run(self, module: ir.Operation) -> None:
        doomed = []

        def visit(op: ir.Operation) -> ir.WalkResult:
            if op.name == ASSERT and self.only_op in ir.StringAttr(op.attributes["message"]).value:
                doomed.append(op)
            return ir.WalkResult.ADVANCE

        module.walk(visit)
        for op in doomed:  # erased after the walk: never while walking
            op.erase()
