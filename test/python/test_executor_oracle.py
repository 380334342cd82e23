"""Refined programs run, on the reference executor and on a real backend, as the eager model.

For each model and variant: erase every intermediate type, refine, run the refined module
with `check_types=True` (every refined type must hold of the tensor PyTorch computes) and
compare the outputs with the eager model. Dynamic variants are also re-specialized to
batch 3 with `specialize` and run again. Then the refined module (guards kept) is lowered
through torch-mlir's linalg-on-tensors backend to LLVM, JIT-compiled and run: static
variants at their batch, dynamic ones at batch 2 and 5. Tolerance: rtol 1e-4, atol 1e-5.
"""

from __future__ import annotations

import pytest
import torch
from models.corpus import BY_NAME, rebatched
from models.export_cache import exported_ir, variants

import torch_refine
from torch_refine import jit
from torch_refine.ir import parsing
from torch_refine.ir.erase import erase_tensor_types

pytestmark = pytest.mark.slow

VARIANTS = variants()
RESPECIALIZED_BATCH = 3
JIT_BATCHES = (2, 5)  # the export's batch and another



def _flat(outputs) -> list[torch.Tensor]:
    return [outputs] if isinstance(outputs, torch.Tensor) else list(outputs)


def _assert_close(got, expected) -> None:
    got, expected = _flat(got), _flat(expected)
    assert len(got) == len(expected)
    for ours, theirs in zip(got, expected, strict=True):
        assert ours.shape == theirs.shape
        assert ours.dtype == theirs.dtype
        torch.testing.assert_close(ours, theirs, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize(("name", "dynamic"), VARIANTS)
def test_refined_model_runs_as_eager(name, dynamic, corpus_dir):
    case = BY_NAME[name]
    model, inputs = case.make()
    refined = torch_refine.refine(_erased(exported_ir(name, dynamic, corpus_dir)))
    assert refined.report.values > 0

    with torch.no_grad():
        _assert_close(torch_refine.execute(refined, *inputs, check_types=True), model(*inputs))
    if not dynamic:
        return

    batched = rebatched(case, inputs, RESPECIALIZED_BATCH)
    shapes = [tuple(t.shape) for t in batched]
    respecialized = torch_refine.specialize(refined, shapes)
    with torch.no_grad():
        _assert_close(torch_refine.execute(respecialized, *batched, check_types=True),
                      model(*batched))


def _erased(text: str):
    module = parsing.as_module(text)
    with module.context:
        erase_tensor_types(module.operation)
    return module


@pytest.mark.parametrize(("name", "dynamic"), VARIANTS)
def test_refined_model_runs_on_the_jit(name, dynamic, corpus_dir):
    case = BY_NAME[name]
    model, inputs = case.make()
    compiled = jit.compile_module(torch_refine.refine(_erased(exported_ir(name, dynamic, corpus_dir))))
    for batch in JIT_BATCHES if dynamic else (inputs[0].shape[0],):
        batched = rebatched(case, inputs, batch)
        with torch.no_grad():
            _assert_close(compiled("main", *batched), model(*batched))
