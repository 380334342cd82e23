"""`torch-refine-shape-pipeline`: reify, inline, simplify and drop shape calculations."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from torch_refine import symbolic_dims
from torch_refine.passes import ModulePass
from torch_refine.passes._calculation_pipeline import refine
from torch_refine.passes._reify import SHAPE, load_library
from torch_refine.passes.inline_library_calls import erase_unused_library_functions


@dataclass
class ShapePipeline(ModulePass):
    name: ClassVar[str] = "torch-refine-shape-pipeline"
    description: ClassVar[str] = "Refine tensor sizes once with the library's shape functions"

    extra_library: str = ""  # path of an MLIR file of extra library functions
    runtime_asserts: bool = True  # keep undecided library checks as torch.runtime.assert
    keep_symbolic_dims: bool = False  # keep the torch_refine.dims attributes (docs/symbolic-dims.md)

    def run(self, module) -> None:
        symbolic_dims.strip(module)  # only facts this run derives are trusted
        refine(module, SHAPE, load_library(module, self.extra_library), self.runtime_asserts)
        erase_unused_library_functions(module)
        if not self.keep_symbolic_dims:
            symbolic_dims.strip(module)
