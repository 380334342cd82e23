"""`torch-refine-dtype-pipeline`: every op's dtypes refined once (`engine/refine.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from torch_refine.engine.refine import refine_dtypes_once
from torch_refine.passes.base import ModulePass, option


@dataclass
class DtypePipeline(ModulePass):
    name: ClassVar[str] = "torch-refine-dtype-pipeline"
    description: ClassVar[str] = "Refine dtypes once with the library's dtype functions"

    extra_library: str = option("", "a file of extra shape and dtype functions: .mlir, or .py (compiled with torch)")
    runtime_asserts: bool = option(True, "keep undecided library checks as torch.runtime.assert")
    evaluate: bool = option(True, "run library functions on known arguments before calculating in IR")

    def run(self, module) -> None:
        refine_dtypes_once(module, self.extra_library, self.runtime_asserts, self.evaluate)
