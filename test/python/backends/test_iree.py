"""IREE compiles and runs torch-refine's outputs wherever it does torch-mlir's (issue 40).

Skipped without the `iree` extra (`pip install 'torch-refine[iree]'`). `make iree` measures
every variant of `iree_flow.py` first (`build_tools/iree_table.py`, two processes, the
outcomes in out/iree/outcomes.json) and then runs these checks: the `corpus` test reads
that file (skipped without it), the `slow` one compiles a dynamic model itself.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("iree.compiler", reason="IREE is not installed: pip install 'torch-refine[iree]'")
pytest.importorskip("iree.runtime", reason="IREE is not installed: pip install 'torch-refine[iree]'")

import iree_flow

OUTCOMES = Path(__file__).resolve().parents[3] / "out" / "iree" / "outcomes.json"
MIN_MODELS = 8


@pytest.fixture(scope="module")
def outcomes() -> list[iree_flow.Outcome]:
    if not OUTCOMES.exists():
        pytest.skip(f"{OUTCOMES} not measured: run `make iree`")
    return [iree_flow.Outcome(**record) for record in json.loads(OUTCOMES.read_text())]


@pytest.mark.corpus
def test_ours_run_on_iree_wherever_torch_mlirs_do(outcomes):
    by_cell = {(o.model, o.dynamism, o.flow): o for o in outcomes}
    variants = sorted({(o.model, o.dynamism) for o in outcomes})
    assert len({model for model, _ in variants}) >= MIN_MODELS
    assert {dynamism for _, dynamism in variants} == set(iree_flow.DYNAMISMS)
    behind = [f"{model} {dynamism} {flow}: {by_cell[model, dynamism, flow].cell}"
              for model, dynamism in variants for flow in iree_flow.OURS
              if (model, dynamism, flow) in by_cell
              and by_cell[model, dynamism, iree_flow.THEIRS[flow]].matches
              and not by_cell[model, dynamism, flow].matches]
    assert not behind, "torch-mlir's output runs on IREE, ours does not:\n" + "\n".join(behind)


@pytest.mark.slow
def test_a_dynamic_models_outputs_compile_and_run_on_iree():
    """The API's outputs of a dynamic program (export's input checks at the entry) compile:
    they once read the arguments above their binds ("operand #0 does not dominate")."""
    outcomes = iree_flow.measure("transformer_encoder_layer", "batch", flows=("api-raw", "api-torch"))
    failed = [f"{o.flow}: {o.cell}" for o in outcomes if o.flow in ("api-raw", "api-torch") and not o.matches]
    assert not failed, failed
