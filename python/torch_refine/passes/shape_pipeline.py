"""`torch-refine-shape-pipeline`: every op's sizes refined once (`engine/refine.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from torch_refine.engine.refine import refine_shapes_once
from torch_refine.passes.base import ModulePass, option


@dataclass
class ShapePipeline(ModulePass):
    name: ClassVar[str] = "torch-refine-shape-pipeline"
    description: ClassVar[str] = "Refine tensor sizes once with the library's shape functions"

    extra_library: str = option("", "a file of extra shape and dtype functions: .mlir, or .py (compiled with torch)")
    runtime_asserts: bool = option(True, "keep undecided library checks as torch.runtime.assert")
    keep_symbolic_dims: bool = option(False, "keep the torch_refine.dims attributes (docs/symbolic-dims.md)")
    evaluate: bool = option(True, "run library functions on known arguments before calculating in IR")
    broadcast_equal: bool = option(False, "a broadcast of two dynamic sizes asserts them equal where 1 is in range "
                                          "too (torch.export's rule)")

    def run(self, module) -> None:
        refine_shapes_once(module, self.extra_library, self.runtime_asserts, self.keep_symbolic_dims,
                           self.evaluate, self.broadcast_equal)
