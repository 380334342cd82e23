"""torch-refine against torch-mlir's own refinement, on the same erased real models.

torch-mlir's C++ shape and dtype passes run in `torch-mlir-opt` (a black box: nothing of
it is copied). On every value both tools typed, torch-refine must be at least as precise
(ours ⊑ theirs in the lattice), unless the truth contradicts torch-mlir's type.

Pairing. torch-mlir's output does not keep the imported module's ops: canonicalize and cse
erase and merge ops. Values are paired through the source locations the FX importer
records (`report.pair_by_location`, shared with bench/run.py); the test checks that most
values do pair.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from models.export_cache import exported_ir, variants
from torch_mlir import ir

from torch_refine import passes, report
from torch_refine.ir import types
from torch_refine.ir.context import create_context

pytestmark = pytest.mark.slow

TORCH_MLIR_OPT = Path(sys.executable).parent / "torch-mlir-opt"
TORCH_MLIR_REFINEMENT = (
    "builtin.module(torch-shape-refinement-pipeline, torch-reify-dtype-calculations, inline, "
    "func.func(torch-simplify-dtype-calculations, cse, torch-simplify-dtype-calculations, "
    "torch-drop-abstract-interp-calculations), torch-refine-public-return, "
    "func.func(canonicalize))"
)
# Below this share of paired values, the pairing (not the refinement) has gone wrong.
MIN_PAIRED_FRACTION = 0.6

VARIANTS = variants()



def erased_text(truth_text: str) -> str:
    from torch_refine.ir.erase import erase_tensor_types

    with create_context():
        module = ir.Module.parse(truth_text)
        erase_tensor_types(module.operation)
        return module.operation.get_asm(enable_debug_info=True)


def refine_with_torch_refine(erased: str) -> list[report.ValueRecord]:
    with create_context():
        module = ir.Module.parse(erased)
        passes.get("torch-refine-pipeline")().run(module.operation)
        return report.tensor_values(module.operation)[0]


def refine_with_torch_mlir(erased: str, tmp_path: Path) -> list[report.ValueRecord]:
    source = tmp_path / "erased.mlir"
    source.write_text(erased)
    completed = subprocess.run(
        [TORCH_MLIR_OPT, source, "--mlir-print-debuginfo",
         f"--pass-pipeline={TORCH_MLIR_REFINEMENT}"],
        capture_output=True, text=True, check=False,
    )
    assert completed.returncode == 0, completed.stderr
    with create_context():
        return report.tensor_values(ir.Module.parse(completed.stdout).operation)[0]


@pytest.mark.parametrize(("name", "dynamic"), VARIANTS)
def test_at_least_as_precise_as_torch_mlir(name, dynamic, corpus_dir, tmp_path):
    truth_text = exported_ir(name, dynamic, corpus_dir)
    with create_context():
        truth = report.tensor_values(ir.Module.parse(truth_text).operation)[0]
    erased = erased_text(truth_text)
    ours = refine_with_torch_refine(erased)
    theirs = refine_with_torch_mlir(erased, tmp_path)
    report.pair_records(ours, truth)  # raises unless ours has the truth's ops (and casts)

    triples = report.pair_by_location(truth, ours, theirs)
    assert len(triples) >= MIN_PAIRED_FRACTION * len(truth), (len(triples), len(truth))
    worse = [
        f"{t.op_name} at {report.short_location(t.location)}: ours {o.info.text()},"
        f" torch-mlir {m.info.text()}"
        f" (truth {t.info.text()})"
        for t, o, m in triples
        if not types.is_at_least_as_precise(o.info, m.info)
        and report.classify(m.info, t.info) != "contradiction"
    ]
    assert not worse, "\n".join(worse[:20])
