"""`torch-refine-backend-pipeline`: from Torch IR as `torch.export` leaves it to one of
torch-mlir's backends (`lowering/backend.py`)."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from torch_refine import passes
from torch_refine.lowering.backend import DEFAULT_DECOMPOSITION, BackendOptions, lower_to_backend, run_passes
from torch_refine.passes.base import ModulePass, option


@dataclasses.dataclass
class BackendPipeline(ModulePass):
    name: ClassVar[str] = "torch-refine-backend-pipeline"
    description: ClassVar[str] = (
        "Refine, decompose and simplify until torch-mlir's backend contract holds, then "
        "lower to a torch-mlir backend"
    )

    backend: str = option("linalg-on-tensors", "linalg-on-tensors, tosa or stablehlo")
    legal_ops: str = option("", "comma-separated ops the decomposition keeps (aten.foo,aten.bar)")
    runtime_asserts: bool = option(True, "keep guards (never for stablehlo and tosa)")
    decomposition: str = option(DEFAULT_DECOMPOSITION, "a pass taking `legal-ops`")
    extra_library: str = option("", "a file of extra shape and dtype functions: .mlir, or .py (compiled with torch)")
    max_iterations: int = option(10, "rounds of refinement and propagation before giving up on a fixed point")
    shape_assertions: bool = option(False, "stablehlo: keep guards as stablehlo.custom_call @shape_assertion "
                                           "(JAX's convention) instead of dropping them")

    def run(self, module) -> None:
        lower_to_backend(module, BackendOptions(**dataclasses.asdict(self)), self._decompose)

    def _decompose(self, module) -> None:
        """The `decomposition` pass: one of ours (or a plugin's) by its class, else MLIR's."""
        if passes.is_registered(self.decomposition):
            passes.get(self.decomposition)(legal_ops=self.legal_ops).run(module)
            return
        options = f"{{legal-ops={self.legal_ops}}}" if self.legal_ops else ""
        run_passes(module, f"func.func({self.decomposition}{options})")
