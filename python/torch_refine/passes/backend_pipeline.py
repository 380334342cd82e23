"""`torch-refine-backend-pipeline`: from Torch IR as `torch.export` leaves it (raw, not
decomposed, not refined by torch-mlir) to one of torch-mlir's backends.

Rounds of: our refinement (`torch-refine-pipeline`), a decomposition pass (torch-mlir's
`torch-decompose-complex-ops` by default; `decomposition=` names another, ours or C++,
that takes `legal-ops`), and torch-mlir's simplification passes, until a round leaves
the module unchanged. Then torch-mlir's own contract check
(`torch-verify-backend-contract-no-decompositions`: value semantics, known ranks and
dtypes) and the backend pipeline `torch-backend-to-<backend>-backend-pipeline`, whose
conversions reject any op left that the backend cannot take.

Guards (`torch.runtime.assert`) are kept, except for stablehlo, whose contract admits no
runtime check: for it they are dropped with a warning, the program's own asserts too.

The C++ passes run through nested PassManagers on the module; no op handle is kept
across them (docs/design.md, "Rules the bindings impose").
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import ClassVar

from torch_mlir import ir
from torch_mlir.passmanager import PassManager

from torch_refine import passes
from torch_refine.ir.module import erase_symbolic_shape_ops, ops_in
from torch_refine.passes.base import ModulePass, PassFailure, option
from torch_refine.passes.pipelines import RefinePipeline

BACKENDS = ("linalg-on-tensors", "tosa", "stablehlo")
GUARD_FREE_BACKENDS = ("stablehlo",)  # their backend contract admits no runtime check
DEFAULT_DECOMPOSITION = "torch-decompose-complex-ops"
# torch-mlir's simplifications, without its refinement and decompositions.
SIMPLIFICATION = (
    "canonicalize",
    "func.func(torch-recompose-complex-ops)",
    "func.func(torch-reduce-op-variants)",
    "canonicalize",
    "symbol-dce",
    "func.func(torch-maximize-value-semantics)",
    "torch-refine-public-return",
    "canonicalize",
)
CONTRACT_CHECK = "torch-verify-backend-contract-no-decompositions"


@dataclass
class BackendPipeline(ModulePass):
    name: ClassVar[str] = "torch-refine-backend-pipeline"
    description: ClassVar[str] = (
        "Refine, decompose and simplify until torch-mlir's backend contract holds, then "
        "lower to a torch-mlir backend"
    )

    backend: str = option("linalg-on-tensors", "linalg-on-tensors, tosa or stablehlo")
    legal_ops: str = option("", "comma-separated ops the decomposition keeps (aten.foo,aten.bar)")
    runtime_asserts: bool = option(True, "keep guards (never for stablehlo)")
    decomposition: str = option(DEFAULT_DECOMPOSITION, "a pass taking `legal-ops`")
    extra_library: str = option("", "a file of extra shape and dtype functions: .mlir, or .py (compiled with torch)")
    max_iterations: int = option(10, "rounds of refinement and propagation before giving up on a fixed point")

    def run(self, module) -> None:
        if self.backend not in BACKENDS:
            expected = ", ".join(BACKENDS)
            module.location.emit_error(
                f"{self.name}: unknown backend '{self.backend}'; expected one of {expected}"
            )
            raise PassFailure
        keep_guards = self._keep_guards()
        with module.context:
            self._reach_contract(module, keep_guards)
            if not keep_guards:
                _erase_runtime_asserts(module)
                _run(module, "canonicalize")  # their conditions are dead now
            erase_symbolic_shape_ops(module)  # refinement has read them; no backend takes them
            _run(module, CONTRACT_CHECK)
            _run(module, f"torch-backend-to-{self.backend}-backend-pipeline")

    def _keep_guards(self) -> bool:
        if not self.runtime_asserts or self.backend not in GUARD_FREE_BACKENDS:
            return self.runtime_asserts
        warnings.warn(
            f"{self.name}: the {self.backend} backend admits no runtime check; "
            "guards are dropped (runtime-asserts=false)",
            RuntimeWarning,
            stacklevel=2,
        )
        return False

    def _reach_contract(self, module, keep_guards: bool) -> None:
        """Refine, decompose and simplify until a round changes nothing."""
        for round_index in range(self.max_iterations):
            self._refine(module, keep_guards and round_index == 0)
            before = _fingerprint(module)
            self._decompose(module)
            _run(module, *SIMPLIFICATION)
            if _fingerprint(module) == before:
                return
        warnings.warn(
            f"{self.name}: the module still changed after {self.max_iterations} rounds; stopping",
            RuntimeWarning,
            stacklevel=2,
        )

    def _refine(self, module, runtime_asserts: bool) -> None:
        refine = RefinePipeline(extra_library=self.extra_library, runtime_asserts=runtime_asserts)
        refine.run(module)

    def _decompose(self, module) -> None:
        if passes.is_registered(self.decomposition):  # one of ours, a module pass
            passes.get(self.decomposition)(legal_ops=self.legal_ops).run(module)
            return
        options = f"{{legal-ops={self.legal_ops}}}" if self.legal_ops else ""
        _run(module, f"func.func({self.decomposition}{options})")


def _run(module, *pipeline: str) -> None:
    """Run C++ passes on the module; their errors are re-emitted at their locations."""
    try:
        PassManager.parse(f"builtin.module({','.join(pipeline)})").run(module)
    except ir.MLIRError as error:
        for diagnostic in error.error_diagnostics:
            diagnostic.location.emit_error(diagnostic.message)
        raise PassFailure from None
    except ValueError as error:  # a pass name or option MLIR does not know
        module.location.emit_error(str(error))
        raise PassFailure from None


def _fingerprint(module) -> str:
    return module.get_asm(enable_debug_info=False)


def _erase_runtime_asserts(module) -> None:
    for op in ops_in(module.regions[0], lambda op: op.name == "torch.runtime.assert"):
        op.erase()
