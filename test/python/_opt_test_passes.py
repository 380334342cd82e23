"""Python passes that exist only for the driver's tests (see test_opt_cli.py)."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from torch_mlir import ir

from torch_refine.passes.base import ModulePass, PassFailure


def _first_op(module) -> ir.Operation:
    return module.regions[0].blocks[0].operations[0].operation


@dataclasses.dataclass
class Annotate(ModulePass):
    name: ClassVar[str] = "test-opt-annotate"
    description: ClassVar[str] = "Record the pass options in a module attribute"

    count: int = 1
    scale: float = 1.0
    enabled: bool = True
    label: str = "none"

    def run(self, module) -> None:
        text = f"{self.label}:{self.count}:{self.scale}:{self.enabled}"
        module.attributes["test.annotation"] = ir.StringAttr.get(text)


@dataclasses.dataclass
class Refuse(ModulePass):
    name: ClassVar[str] = "test-opt-refuse"
    description: ClassVar[str] = "Fail on the first top-level op, as a pass rejecting input"

    def run(self, module) -> None:
        _first_op(module).location.emit_error("refusing this op")
        raise PassFailure


@dataclasses.dataclass
class Crash(ModulePass):
    name: ClassVar[str] = "test-opt-crash"
    description: ClassVar[str] = "Raise an unexpected exception, as a buggy pass"

    def run(self, module) -> None:
        raise RuntimeError("boom")


PASSES = (Annotate, Refuse, Crash)
