"""Raw `torch.export` IR reaches torch-mlir's backends through `torch-refine-backend-pipeline`,
without torch-mlir's refinement, and the linalg result runs as the eager model.

Every corpus model, static and dynamic batch, is imported with
`fx.export_and_import(..., output_type="raw")` (no decompositions, no refinement), run
through `torch-refine-backend-pipeline{backend=linalg-on-tensors}` by torch-refine's pass
manager (guards kept), JIT-compiled from linalg with `jit.compile_linalg` and run: static
variants at their batch, dynamic ones at batch 2 and 5; tolerance rtol 1e-4, atol 1e-5.
For tosa and stablehlo the outcome is recorded (user property `backend_outcome`): tosa
refuses sizes known only at run time, slices of dynamic shapes and some casts (docs/backends.md), so
most dynamic models are expected not to reach it.
"""

from __future__ import annotations

import warnings

import pytest
import torch
from models.corpus import BY_NAME, rebatched
from models.export_cache import exported_ir, variants
from torch_mlir import ir

from torch_refine import jit
from torch_refine.driver import pipeline_syntax
from torch_refine.driver.passmanager import PassManager
from torch_refine.errors import RefinementWarning
from torch_refine.ir.context import create_context

pytestmark = pytest.mark.slow

JIT_BATCHES = (2, 5)  # the export's batch and another


def lowered(raw: str, backend: str) -> ir.Module:
    """The raw module through torch-refine-backend-pipeline; raises MLIRError on failure."""
    context = create_context()
    module = ir.Module.parse(raw, context)
    pass_manager = PassManager(context)
    pass_manager.add_pipeline(
        pipeline_syntax.parse(f"builtin.module(torch-refine-backend-pipeline{{backend={backend}}})")
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RefinementWarning)  # stablehlo drops guards
        pass_manager.run(module.operation)
    return module


def _ops(module: ir.Module) -> set[str]:
    names = set()

    def visit(op):
        names.add(op.name)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return names


def _assert_close(got, expected) -> None:
    expected = [expected] if isinstance(expected, torch.Tensor) else list(expected)
    assert len(got) == len(expected)
    for ours, theirs in zip(got, expected, strict=True):
        assert ours.shape == theirs.shape
        assert ours.dtype == theirs.dtype
        torch.testing.assert_close(ours, theirs, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize(("name", "dynamic"), variants())
def test_raw_ir_reaches_linalg_and_runs_as_eager(name, dynamic, corpus_dir):
    module = lowered(exported_ir(name, dynamic, corpus_dir, output_type="raw"), "linalg-on-tensors")
    assert not any(op.startswith("torch.") for op in _ops(module))

    compiled = jit.compile_linalg(module)
    case = BY_NAME[name]
    model, inputs = case.make()
    for batch in JIT_BATCHES if dynamic else (inputs[0].shape[0],):
        batched = rebatched(case, inputs, batch) if dynamic else inputs
        with torch.no_grad():
            _assert_close(compiled("main", *batched), model(*batched))


@pytest.mark.parametrize("backend", ["tosa", "stablehlo"])
@pytest.mark.parametrize(("name", "dynamic"), variants())
def test_raw_ir_outcome_on_other_backends(name, dynamic, backend, corpus_dir, record_property):
    raw = exported_ir(name, dynamic, corpus_dir, output_type="raw")
    try:
        lowered(raw, backend)
    except ir.MLIRError as error:
        first = error.error_diagnostics[0].message if error.error_diagnostics else str(error)
        record_property("backend_outcome", f"fails: {first.splitlines()[0]}")
        if backend == "tosa" and dynamic:
            pytest.xfail(f"tosa refuses some dynamic sizes (docs/backends.md): {first.splitlines()[0]}")
        raise
    record_property("backend_outcome", "lowers")
