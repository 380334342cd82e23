"""`torch-refine-propagate-control-flow`: joins across `prim.If`, fixed points over
`prim.Loop` (`engine/propagate.py`)."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from torch_refine.calculations.store import FactStore
from torch_refine.engine.propagate import propagate
from torch_refine.passes.base import ModulePass


@dataclasses.dataclass
class PropagateControlFlow(ModulePass):
    name: ClassVar[str] = "torch-refine-propagate-control-flow"
    description: ClassVar[str] = (
        "Refine prim.If results to the join of their branches and loop-carried tensors to a "
        "fixed point over the back edge"
    )

    def run(self, module) -> None:
        self.changed = propagate(module, FactStore())  # this run's: nothing asserted
