"""`torch-refine-pipeline`: shapes and dtypes refined with the library and through control
flow until nothing changes (`engine/refine.py`)."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from torch_refine.engine.refine import PipelineOptions, refine_to_fixed_point
from torch_refine.passes.base import ModulePass, option


@dataclasses.dataclass
class RefinePipeline(ModulePass):
    name: ClassVar[str] = "torch-refine-pipeline"
    description: ClassVar[str] = (
        "Refine shapes and dtypes with the library and through control flow until nothing changes"
    )

    extra_library: str = option("", "a file of extra shape and dtype functions: .mlir, or .py (compiled with torch)")
    runtime_asserts: bool = option(True, "keep undecided library checks as torch.runtime.assert")
    max_iterations: int = option(10, "rounds of refinement and propagation before giving up on a fixed point")
    keep_symbolic_dims: bool = option(False, "keep the torch_refine.dims attributes (docs/symbolic-dims.md)")
    explain: bool = option(False, "say why values stay unknown or partial (docs/explain.md)")
    evaluate: bool = option(True, "run library functions on known arguments before calculating in IR")
    broadcast_equal: bool = option(False, "a broadcast of two dynamic sizes asserts them equal where 1 is in range "
                                          "too (torch.export's rule)")
    meta_fallback: bool = option(True, "type ops without a library function with PyTorch's meta kernels "
                                       "(imports torch when it meets one; docs/library.md)")

    def run(self, module) -> None:
        refine_to_fixed_point(module, PipelineOptions(**dataclasses.asdict(self)))
