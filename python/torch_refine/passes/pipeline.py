"""`torch-refine-pipeline`: refine shapes and dtypes, and propagate them through control
flow, until no type changes.

Each round runs the shape pipeline, the dtype pipeline and
`torch-refine-propagate-control-flow`. The shape and dtype steps visit ops in program
order, after the producers of their operands, and shape functions read no dtypes; so only
types that propagation changes (results of `prim.If`, loop-carried values) can let another
round refine more, and a round whose propagation changes nothing ends the loop. Only the
first round keeps library checks as runtime asserts: every op still unrefined afterwards
was already wrapped (and its checks kept) in the first round, so later rounds would only
repeat them. Checks that later rounds decide to be false are still errors. The rounds are
capped (`max-iterations`) with a warning, and the end cleans up without `canonicalize`:
pure ops left unused and library functions nothing calls are erased.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import ClassVar

from torch_mlir import ir

from torch_refine import passes, symbolic_dims
from torch_refine.calculations import erase_if_dead, user_functions
from torch_refine.passes import ModulePass
from torch_refine.passes._calculation_pipeline import refine
from torch_refine.passes._reify import DTYPE, SHAPE, load_library
from torch_refine.passes.inline_library_calls import erase_unused_library_functions

PROPAGATE = "torch-refine-propagate-control-flow"


@dataclass
class Pipeline(ModulePass):
    name: ClassVar[str] = "torch-refine-pipeline"
    description: ClassVar[str] = (
        "Refine shapes and dtypes with the library and through control flow until nothing changes"
    )

    extra_library: str = ""  # path of an MLIR file of extra library functions
    runtime_asserts: bool = True  # keep undecided library checks as torch.runtime.assert
    max_iterations: int = 10
    keep_symbolic_dims: bool = False  # keep the torch_refine.dims attributes (docs/symbolic-dims.md)

    def run(self, module) -> None:
        symbolic_dims.strip(module)  # only facts this run derives are trusted
        library = load_library(module, self.extra_library)
        propagate = passes.get(PROPAGATE)()
        memos: dict[str, dict] = {SHAPE.name: {}, DTYPE.name: {}}  # kept across rounds
        for round_index in range(self.max_iterations):
            keep_asserts = self.runtime_asserts and round_index == 0
            refine(module, SHAPE, library, keep_asserts, memos[SHAPE.name])
            refine(module, DTYPE, library, keep_asserts, memos[DTYPE.name])
            with module.context:
                propagate.run(module)
            if not propagate.changed:
                break
        else:
            warnings.warn(
                f"{self.name}: types still changed after {self.max_iterations} rounds; stopping",
                RuntimeWarning,
                stacklevel=2,
            )
        _cleanup(module)
        if not self.keep_symbolic_dims:
            symbolic_dims.strip(module)


def _cleanup(module) -> None:
    ops = []

    def visit(op):
        ops.append(op)
        return ir.WalkResult.ADVANCE

    for fn in user_functions(module):
        fn.operation.walk(visit)
    erase_if_dead(ops)
    erase_unused_library_functions(module)
