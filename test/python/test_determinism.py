"""The refined output does not depend on Python's string hash seed: a set or dict of
strings iterated where the order reaches the IR (which case is split first, which symbol
names a dim) would make two runs of one program differ. Each input is refined by
`torch-refine-opt` in processes with different PYTHONHASHSEEDs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PASSES = ROOT / "test" / "lit" / "passes"

# (input, flags): programs whose refinement splits cases, renames symbols and keeps checks.
INVOCATIONS = [
    (PASSES / "torch-refine-pipeline-adaptive-pool.mlir", ["--split-input-file", "--torch-refine-pipeline"]),
    (PASSES / "torch-refine-pipeline-broadcast-one.mlir", ["--split-input-file", "--torch-refine-pipeline"]),
    (PASSES / "torch-refine-pipeline-implied-asserts.mlir", ["--split-input-file", "--torch-refine-pipeline"]),
    (PASSES / "torch-refine-pipeline-facts.mlir", ["--split-input-file", "--torch-refine-pipeline"]),
    (ROOT / "python" / "torch_refine" / "examples" / "llama.mlir", ["--torch-refine-pipeline"]),
]
SEEDS = ("0", "1")


def _refined(path: Path, flags: list[str], seed: str) -> str:
    environment = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run([sys.executable, "-m", "torch_refine.tools.opt", *flags, str(path)],
                          capture_output=True, text=True, env=environment, check=False)
    return done.stdout + done.stderr


@pytest.mark.parametrize(("path", "flags"), INVOCATIONS, ids=lambda value: value.name if isinstance(value, Path) else None)
def test_the_output_is_the_same_under_every_hash_seed(path, flags):
    outputs = {seed: _refined(path, flags, seed) for seed in SEEDS}
    assert "func.func" in outputs["0"], outputs["0"][-2000:]  # a refined program, not an error
    assert outputs["1"] == outputs["0"]


# A size only `nonzero` knows: the symbol table names it with its next number, process-wide.
_FRESH_SIZE_IN_A_MESSAGE = """
func.func @f(%arg0: !torch.vtensor<[4],f32>, %arg1: !torch.vtensor<[5,3],si64>) -> !torch.vtensor {
  %0 = torch.aten.nonzero %arg0 : !torch.vtensor<[4],f32> -> !torch.vtensor
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %1 = torch.aten.transpose.int %0, %int0, %int1 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %2 = torch.aten.mm %1, %arg1 : !torch.vtensor, !torch.vtensor<[5,3],si64> -> !torch.vtensor
  return %2 : !torch.vtensor
}
"""


def test_a_computed_size_in_a_message_is_numbered_by_the_output_not_the_process():
    from torch_refine import refine

    first, again = (str(refine(_FRESH_SIZE_IN_A_MESSAGE).module) for _ in range(2))
    assert "(requires %s1 == 5)" in first
    assert again == first
