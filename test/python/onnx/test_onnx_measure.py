"""The ONNX corpus' measuring (onnx_measure.py, build_tools/onnx_corpus.py): whether each
pipeline completes is measured on every converted program, PyTorch running it or not, and
the table counts both (issue 40: "torch-mlir's pipeline completes / ours completes")."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import onnx_measure
import pytest

pytest.importorskip("onnx")

# What a conversion could write and PyTorch rejects: a negative size. torch-mlir's pipeline
# passes it through; refinement stops at the op.
_NEGATIVE_SIZE = """
func.func @main(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor attributes {torch.onnx_meta.opset_version = 17 : si64} {
  %int-1 = torch.constant.int -1
  %int3 = torch.constant.int 3
  %none = torch.constant.none
  %sizes = torch.prim.ListConstruct %int-1, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.zeros %sizes, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor
  %1 = torch.aten.add.Tensor %arg0, %0, %int3 : !torch.vtensor<[2,3],f32>, !torch.vtensor, !torch.int -> !torch.vtensor
  return %1 : !torch.vtensor
}
"""

_RELU = """
func.func @main(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor attributes {torch.onnx_meta.opset_version = 17 : si64} {
  %0 = torch.aten.relu %arg0 : !torch.vtensor<[2,3],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}
"""


def _measured(monkeypatch, tmp_path, text: str) -> list[onnx_measure.Outcome]:
    def no_truth(*args):
        raise RuntimeError("PyTorch rejects the program")

    monkeypatch.setattr(onnx_measure, "cached_import", lambda *variant: (tmp_path / "model.onnx", text))
    monkeypatch.setattr(onnx_measure, "truth", no_truth)
    return onnx_measure.measure_variant("mlp", "legacy", "static", tmp_path)


@pytest.mark.parametrize(("text", "ours"), [(_RELU, "ok"), (_NEGATIVE_SIZE, "")])
def test_both_pipelines_run_where_pytorch_rejects_the_program(monkeypatch, tmp_path, text, ours):
    for outcome in _measured(monkeypatch, tmp_path, text):
        assert outcome.stage == "truth"
        assert outcome.torch_mlir == "ok"
        assert (outcome.ours == "ok") == (ours == "ok")
        assert outcome.ours  # the reason when not "ok"


def test_the_table_counts_completions_of_every_converted_variant(monkeypatch, tmp_path):
    spec = importlib.util.spec_from_file_location(
        "onnx_corpus_tool", Path(__file__).resolve().parents[3] / "build_tools" / "onnx_corpus.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    outcomes = _measured(monkeypatch, tmp_path, _NEGATIVE_SIZE)
    rows = tool.table(outcomes).splitlines()
    assert "tm done ours done" in rows[0]
    assert "1/1       0/1" in rows[2]
