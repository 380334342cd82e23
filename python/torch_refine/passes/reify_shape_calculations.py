"""`torch-refine-reify-shape-calculations`: wrap ops in `torch.shape.calculate` ops that
call their library shape functions (see `engine/reify.py` for the form)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from torch_refine.calculations.kind import SHAPE
from torch_refine.engine.reify import load_library, reify
from torch_refine.passes.base import ModulePass, option


@dataclass
class ReifyShapeCalculations(ModulePass):
    name: ClassVar[str] = "torch-refine-reify-shape-calculations"
    description: ClassVar[str] = (
        "Wrap each op that has a library shape function in a torch.shape.calculate op calling it"
    )

    extra_library: str = option("", "a file of extra shape and dtype functions: .mlir, or .py (compiled with torch)")
    reify_refined_ops: bool = option(False, "also wrap ops whose tensor results all have static sizes")

    def run(self, module) -> None:
        reify(module, SHAPE, load_library(module, self.extra_library), self.reify_refined_ops)
