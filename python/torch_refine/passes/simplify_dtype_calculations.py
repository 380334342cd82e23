"""torch-refine-simplify-dtype-calculations: fold dtype calculations and refine result dtypes."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from torch_refine.calculations.kind import DTYPE
from torch_refine.calculations.store import FactStore
from torch_refine.engine.simplifier import Options, Statistics, simplify
from torch_refine.passes.base import ModulePass, option


@dataclasses.dataclass
class SimplifyDtypeCalculations(ModulePass):
    name: ClassVar[str] = "torch-refine-simplify-dtype-calculations"
    description: ClassVar[str] = (
        "Simplify each torch.dtype.calculate region (folds, promotion, If/Loop) and "
        "refine its results to the calculated dtypes"
    )
    max_unroll: int = option(1000, "the most iterations of one loop to unroll")
    max_unroll_ops: int = option(200_000, "the most ops one calculation may grow to by unrolling")

    def run(self, module) -> None:
        store = FactStore()  # this run's: nothing asserted
        self.statistics: Statistics = simplify(module, DTYPE, Options(self.max_unroll, self.max_unroll_ops), store)
