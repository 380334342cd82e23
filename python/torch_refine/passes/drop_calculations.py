"""`torch-refine-drop-calculations`: replace each calculate op by the op it wraps, keeping
undecided checks (`engine/drop.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from torch_refine.calculations.store import FactStore
from torch_refine.engine.drop import drop_all
from torch_refine.passes.base import ModulePass, option


@dataclass
class DropCalculations(ModulePass):
    name: ClassVar[str] = "torch-refine-drop-calculations"
    description: ClassVar[str] = (
        "Replace calculate ops by the ops they wrap, keeping undecided checks as torch.runtime.assert"
    )

    runtime_asserts: bool = option(True, "keep undecided library checks as torch.runtime.assert")

    def run(self, module) -> None:
        drop_all(module, self.runtime_asserts, FactStore())  # no fact is asserted, no check marked
