"""Refined IR goes through torch-mlir's backend lowerings wherever the exact imported types do.

Every corpus model, static and dynamic batch, is imported (torch-mlir's decompositions,
exact types: the truth), its intermediate types erased and refined with the default
`torch-refine-pipeline` through the API (guards kept as `torch.runtime.assert`), and both
modules go through `torch-mlir-opt`'s linalg-on-tensors, tosa and stablehlo backend
pipelines. Where the truth lowers, the refined module must lower too.

Two facts of torch-mlir's backends shape the expectations: the stablehlo backend contract
admits no runtime check at all (no `torch.runtime.assert`, no `cf.assert`), so for it the
refinement runs with `runtime_asserts=False`; and tosa rejects `aten.size.int` of a dynamic
dim, so dynamic models do not reach tosa from the truth either (the test shows it rather
than assuming it).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from models.export_cache import exported_ir, variants
from torch_mlir import ir

import torch_refine
from torch_refine.ir.context import create_context
from torch_refine.ir.erase import erase_tensor_types

TORCH_MLIR_OPT = shutil.which("torch-mlir-opt", path=str(Path(sys.executable).parent))
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(TORCH_MLIR_OPT is None, reason="torch-mlir-opt is not installed"),
]

BACKENDS = ("linalg-on-tensors", "tosa", "stablehlo")
GUARD_FREE_BACKENDS = ("stablehlo",)  # its backend contract admits no runtime check


def lower(text: str, backend: str, tmp_path) -> tuple[bool, str]:
    """Whether torch-mlir-opt lowers the module to `backend`; its first error line if not."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    source = tmp_path / f"{backend}.mlir"
    source.write_text(text)
    done = subprocess.run(
        [TORCH_MLIR_OPT, f"--torch-backend-to-{backend}-backend-pipeline", str(source), "-o", "/dev/null"],
        capture_output=True, text=True, timeout=600, check=False,
    )
    errors = [line for line in done.stderr.splitlines() if "error:" in line]
    return done.returncode == 0, errors[0] if errors else done.stderr[-500:]


def refined_text(truth: str, runtime_asserts: bool) -> str:
    with create_context():
        module = ir.Module.parse(truth)
        erase_tensor_types(module.operation)
        return str(torch_refine.refine(module, runtime_asserts=runtime_asserts).module)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("name", "dynamic"), variants())
def test_refined_ir_lowers_where_the_truth_does(name, dynamic, backend, corpus_dir, tmp_path):
    truth = exported_ir(name, dynamic, corpus_dir)
    truth_lowers, truth_error = lower(truth, backend, tmp_path / "truth")
    if not truth_lowers:
        pytest.skip(f"the exact imported types do not reach {backend} either: {truth_error}")
    refined = refined_text(truth, runtime_asserts=backend not in GUARD_FREE_BACKENDS)
    refined_lowers, error = lower(refined, backend, tmp_path / "refined")
    assert refined_lowers, f"refined IR fails {backend} where the truth lowers: {error}"
