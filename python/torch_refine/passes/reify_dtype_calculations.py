"""`torch-refine-reify-dtype-calculations`: wrap ops in `torch.dtype.calculate` ops that
call their library dtype functions (see `engine/reify.py` for the form)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from torch_refine.calculations.kind import DTYPE
from torch_refine.engine.reify import load_library, reify
from torch_refine.passes.base import ModulePass, option


@dataclass
class ReifyDtypeCalculations(ModulePass):
    name: ClassVar[str] = "torch-refine-reify-dtype-calculations"
    description: ClassVar[str] = (
        "Wrap each op that has a library dtype function in a torch.dtype.calculate op calling it"
    )

    extra_library: str = option("", "a file of extra shape and dtype functions: .mlir, or .py (compiled with torch)")
    reify_refined_ops: bool = option(False, "also wrap ops whose results all have known dtypes")

    def run(self, module) -> None:
        reify(module, DTYPE, load_library(module, self.extra_library), self.reify_refined_ops)
