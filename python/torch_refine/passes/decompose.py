"""`torch-refine-decompose`: replace ops by the library's decomposition functions
(`lowering/decompose.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from torch_refine.lowering.decompose import decompose
from torch_refine.passes.base import ModulePass, option


@dataclass
class Decompose(ModulePass):
    name: ClassVar[str] = "torch-refine-decompose"
    description: ClassVar[str] = (
        "Replace ops by the library's decomposition functions (except legal-ops), then refine types"
    )

    legal_ops: str = option("", "comma list of ops to keep, like torch-mlir's backend-legal-ops")
    refine: bool = option(True, "run torch-refine-pipeline on the result")
    extra_library: str = option("", "a file of extra shape and dtype functions: .mlir, or .py (compiled with torch)")

    def run(self, module) -> None:
        decompose(module, self.legal_ops, self.refine, self.extra_library)
