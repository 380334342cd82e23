"""Corpus models reach linalg with torch-refine's decompositions alone.

A few models of the broad corpus (models/corpus3.py), static shapes, exported at the raw
level (`torch.export` without any decomposition table) and at the Core ATen level, go
through `torch-refine-backend-pipeline{backend=linalg-on-tensors
decomposition=torch-refine-decompose}`: no torch-mlir decomposition runs, so every op the
linalg conversion cannot take must be rewritten by library/decompositions.py. The measured
counts over 25 models are in docs/backends.md ("Decompositions of our own").
"""

from __future__ import annotations

import warnings

import pytest
from models.measure import cached_export
from torch_mlir import ir

from torch_refine.driver import pipeline_syntax
from torch_refine.driver.passmanager import PassManager
from torch_refine.ir.context import create_context

pytestmark = pytest.mark.slow

PIPELINE = ("builtin.module(torch-refine-backend-pipeline{backend=linalg-on-tensors "
            "decomposition=torch-refine-decompose})")

# Small and varied: attention with a causal mask (gpt2), encoder-decoder (bart), 1-D
# convolutions (whisper), depthwise convolutions and layer norms over channels (convnext),
# rotary decoder at the Core ATen level (llama).
CASES = [("gpt2", "raw"), ("bart", "raw"), ("whisper_encoder", "raw"), ("convnext", "core"),
         ("llama", "core")]


@pytest.mark.parametrize(("name", "level"), CASES, ids=[f"{n}-{lv}" for n, lv in CASES])
def test_our_decompositions_reach_linalg(name, level, corpus_dir):
    context = create_context()
    module = ir.Module.parse(cached_export(name, level, "static", cache_dir=corpus_dir), context)
    pass_manager = PassManager(context)
    pass_manager.add_pipeline(pipeline_syntax.parse(PIPELINE))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        pass_manager.run(module.operation)
    left = set()

    def visit(op):
        if op.name.startswith("torch."):
            left.add(op.name)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    assert not left, f"Torch ops left after lowering: {sorted(left)}"
