"""The registry of torch-refine passes and pipelines.

Each pass is a class (a `base.ModulePass`) in its own module, `passes/<snake_name>.py`,
with `name` (kebab-case, prefixed `torch-refine-`), `description`, options as dataclass
fields, and `run(self, module: ir.Operation) -> None` operating on a `builtin.module`.
The registry maps names to `module:Class` strings so that start-up imports nothing
until a pass is used. A pass module holds only that class: its `run` calls the engine
(`engine/`, `lowering/`), where the work is done.

A pass that finds bad input emits diagnostics at the offending op's location
(`op.location.emit_error(...)`) and raises `PassFailure`; the pass-manager adapter
turns that into an MLIR pass failure.
"""

from __future__ import annotations

import importlib

from torch_refine.passes.base import ModulePass

# name -> "module:Class", relative to this package. Keep sorted by name.
_REGISTRY: dict[str, str] = {
    "torch-refine-backend-pipeline": "backend_pipeline:BackendPipeline",
    "torch-refine-decompose": "decompose:Decompose",
    "torch-refine-drop-calculations": "drop_calculations:DropCalculations",
    "torch-refine-dtype-pipeline": "dtype_pipeline:DtypePipeline",
    "torch-refine-inline-library-calls": "inline_library_calls:InlineLibraryCalls",
    "torch-refine-pipeline": "pipeline:RefinePipeline",
    "torch-refine-propagate-control-flow": "propagate_control_flow:PropagateControlFlow",
    "torch-refine-reify-dtype-calculations": "reify_dtype_calculations:ReifyDtypeCalculations",
    "torch-refine-reify-shape-calculations": "reify_shape_calculations:ReifyShapeCalculations",
    "torch-refine-shape-pipeline": "shape_pipeline:ShapePipeline",
    "torch-refine-simplify-dtype-calculations": "simplify_dtype_calculations:SimplifyDtypeCalculations",
    "torch-refine-simplify-shape-calculations": "simplify_shape_calculations:SimplifyShapeCalculations",
}


def names() -> list[str]:
    return sorted(_REGISTRY)


def is_registered(name: str) -> bool:
    return name in _REGISTRY


def get(name: str) -> type[ModulePass]:
    module_name, class_name = _REGISTRY[name].split(":")
    module = importlib.import_module(f"{__name__}.{module_name}")
    return getattr(module, class_name)
