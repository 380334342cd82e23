"""torch-refine-simplify-shape-calculations: fold shape calculations and refine result sizes."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from torch_refine.calculations import dim_facts
from torch_refine.calculations.kind import SHAPE
from torch_refine.calculations.store import FactStore
from torch_refine.engine.simplifier import Options, Statistics, simplify
from torch_refine.passes.base import ModulePass, option


@dataclasses.dataclass
class SimplifyShapeCalculations(ModulePass):
    name: ClassVar[str] = "torch-refine-simplify-shape-calculations"
    description: ClassVar[str] = (
        "Simplify each torch.shape.calculate region (folds, list interpretation, If/Loop) and "
        "refine its results to the calculated sizes"
    )
    max_unroll: int = option(1000, "the most iterations of one loop to unroll")
    max_unroll_ops: int = option(200_000, "the most ops one calculation may grow to by unrolling")
    keep_symbolic_dims: bool = option(False, "keep the torch_refine.dims attributes (docs/symbolic-dims.md)")

    def run(self, module) -> None:
        store = FactStore()  # this run's: nothing asserted
        dim_facts.strip(module)  # only facts this run derives are trusted
        self.statistics: Statistics = simplify(module, SHAPE, Options(self.max_unroll, self.max_unroll_ops), store)
        if not self.keep_symbolic_dims:
            dim_facts.strip_derived(module, store)
