"""torch_refine.refine / specialize: reports, errors, reproducers, signatures, bad arguments."""

from __future__ import annotations

import io
import os
import shlex
import tempfile
from pathlib import Path

import pytest
from torch_mlir import ir

import torch_refine

MM = """
func.func @main(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[B,5],f32>) -> !torch.vtensor {
  %0 = torch.aten.mm %a, %b : !torch.vtensor<[2,3],f32>, !torch.vtensor<[B,5],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}
"""


def test_refine_narrows_the_signature_and_reports():
    module, result = torch_refine.refine(MM.replace("B", "3"))
    assert "-> !torch.vtensor<[2,5],f32>" in str(module)
    assert (result.exact, result.unknown) == (1, 0)
    assert result.to_dict()["exact"] == 1
    assert "exact" in str(result)


def test_diagnosed_error_raises_with_diagnostics_and_saves_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with pytest.raises(torch_refine.RefinementError) as caught:
        torch_refine.refine(MM.replace("B", "4"))
    error = caught.value
    assert "error:" in error.diagnostics
    assert "torch.aten.mm" in str(error)
    assert error.reproducer is None  # the user's error: nothing to report, nothing saved
    assert "saved" not in str(error)
    assert list(tmp_path.iterdir()) == []


def test_internal_error_saves_a_reproducer_and_says_where(tmp_path, monkeypatch):
    from torch_refine.passes.pipeline import RefinePipeline

    def crash(self, module):
        raise RuntimeError("boom")

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(RefinePipeline, "run", crash)
    library = tmp_path / "my lib.mlir"
    with pytest.raises(torch_refine.RefinementError) as caught:
        torch_refine.refine(MM.replace("B", "3"), extra_library=str(library))
    error = caught.value
    assert "internal error in pass 'torch-refine-pipeline'" in str(error)
    assert os.path.dirname(error.reproducer) == str(tmp_path)
    assert f"saved in {error.reproducer}" in str(error)
    assert "torch-refine-opt --pass-pipeline=" in str(error)
    assert f"--extra-library={shlex.quote(str(library))}" in str(error)
    assert "torch.aten.mm" in open(error.reproducer).read()


EXPLAIN = Path(__file__).parents[1] / "lit" / "passes" / "torch-refine-pipeline-explain.mlir"

# Reasons the report gives on the lit test's module: its remarks, and one inherited reason.
EXPLAINED = (
    "no shape function for foo.bar",
    "shape function did not simplify: a loop with a non-constant trip count "
    "(computed by aten.len.t); its list operand %arg1 is not a list literal (a function argument)",
    "data-dependent size (aten.nonzero)",
    "shape function did not simplify: an If on an unknown condition (computed by aten.lt.int)",
    "shape function did not simplify: a loop of 1001 iterations over the unroll cap",
    "is mutated (by aten.append.t at",
    "operand already unknown (from %0 at",
)


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def test_unknown_and_partial_values_get_the_passes_reasons():
    text = EXPLAIN.read_text()
    module, result = torch_refine.refine(text)
    reasons = [row.reason for row in result.unknown_rows + result.partial_rows]
    for expected in EXPLAINED:
        assert any(expected in reason for reason in reasons), expected
    foo_line = line_of(text, '"foo.bar"')
    tanh = next(row for row in result.unknown_rows if row.op_name == "torch.aten.tanh")
    assert tanh.reason == f"operand already unknown (from %0 at -:{foo_line}:8)"
    assert result.unknown_reasons() == {"no shape function": 1, "operand already unknown": 1}
    assert "why values stayed unknown" in result.format_table()
    assert "torch_refine." not in str(module)


def test_specialize_rejects_mismatched_arguments():
    refined = torch_refine.refine(MM.replace("B", "?").replace("[2,3]", "[?,3]"))
    with pytest.raises(ValueError, match=r"argument 1 \(%arg1\) of @main has rank 2"):
        torch_refine.specialize(refined, [None, (3,)])
    with pytest.raises(ValueError, match=r"argument 0 \(%arg0\) of @main has dtype f32"):
        torch_refine.specialize(refined, ["!torch.vtensor<[4,3],si64>", None])
    module, _ = torch_refine.specialize(refined, [(4, 3), (3, 5)])
    assert "-> !torch.vtensor<[4,5],f32>" in str(module)


@pytest.mark.parametrize("value", [None, 42, 2.5, ["func.func @main() { return }"]])
def test_refine_rejects_what_is_not_ir_with_a_type_error(value):
    with pytest.raises(TypeError, match=f"not {type(value).__name__}"):
        torch_refine.refine(value)


def test_refine_accepts_bytes_as_text_or_bytecode():
    module, _ = torch_refine.refine(MM.replace("B", "3").encode())
    assert "-> !torch.vtensor<[2,5],f32>" in str(module)
    bytecode = io.BytesIO()
    module.operation.write_bytecode(bytecode)
    again, result = torch_refine.refine(bytecode.getvalue())
    assert "-> !torch.vtensor<[2,5],f32>" in str(again)
    assert result.exact == 1
    with pytest.raises(torch_refine.RefinementError, match="invalid IR"):
        torch_refine.refine(b"\xff\xfe")


def test_refine_rejects_a_context_without_the_torch_dialect():
    module = ir.Module.parse("func.func @main() { return }", ir.Context())
    with pytest.raises(torch_refine.RefinementError, match="no Torch dialect registered"):
        torch_refine.refine(module)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"extra_library": 3}, TypeError, "extra_library must be a path, not int"),
        ({"runtime_asserts": "no"}, TypeError, "runtime_asserts must be a bool, not str"),
        ({"max_iterations": 0}, ValueError, "max_iterations must be at least 1, not 0"),
    ],
)
def test_refine_checks_its_options(options, error, message):
    with pytest.raises(error, match=message):
        torch_refine.refine(MM.replace("B", "3"), **options)


@pytest.mark.parametrize(
    ("dims", "error", "message"),
    [
        ((-1, 3), ValueError, r"argument 0 \(%arg0\) of @main: dim 0 is -1, not a size"),
        ((2**70, 3), ValueError, r"argument 0 \(%arg0\) of @main: dim 0 is 1180591620717411303424, "
                                 r"larger than 2\^63 - 1"),
        ((2.5, 3), TypeError, r"argument 0 \(%arg0\) of @main: dim 0 is 2.5 \(float\), not an int"),
        (("4", 3), TypeError, r"argument 0 \(%arg0\) of @main: dim 0 is '4' \(str\), not an int"),
        ((True, 3), TypeError, r"argument 0 \(%arg0\) of @main: dim 0 is True \(bool\), not an int"),
        (4, TypeError, r"argument 0 \(%arg0\) of @main: expected a shape .* not int"),
    ],
)
def test_specialize_validates_dims(dims, error, message):
    refined = torch_refine.refine(MM.replace("B", "?").replace("[2,3]", "[?,3]"))
    with pytest.raises(error, match=message):
        torch_refine.specialize(refined, [dims, None])


def test_specialize_an_argument_a_call_takes():
    """A call's operand must have the callee's parameter type: the argument's new type
    reaches it through a cast (set alone, it made IR that does not verify, an internal
    error; issue 25)."""
    text = """
    func.func private @helper(%x: !torch.vtensor) -> !torch.vtensor {
      %0 = torch.aten.tanh %x : !torch.vtensor -> !torch.vtensor
      return %0 : !torch.vtensor
    }
    func.func @main(%x: !torch.vtensor) -> !torch.vtensor {
      %0 = call @helper(%x) : (!torch.vtensor) -> !torch.vtensor
      return %0 : !torch.vtensor
    }
    """
    module, _ = torch_refine.specialize(text, ["!torch.vtensor<[?,2],f32>"])
    assert "@main(%arg0: !torch.vtensor<[?,2],f32>)" in str(module)


def test_specialize_rejects_input_types_that_are_not_a_sequence():
    refined = torch_refine.refine(MM.replace("B", "3"))
    with pytest.raises(TypeError, match="input_types must be a sequence"):
        torch_refine.specialize(refined, None)


def test_versions_for_a_bug_report():
    """torch_refine.__version__, versions() and `python -m torch_refine` name the versions
    a bug report needs, without importing torch."""
    import subprocess
    import sys

    import torch_refine

    found = torch_refine.versions()
    assert torch_refine.__version__ == found["torch-refine"]
    assert set(found) == {"torch-refine", "torch-mlir", "torch", "python"}
    assert found["torch"].startswith("2.13")
    shown = subprocess.run([sys.executable, "-m", "torch_refine"], capture_output=True,
                           text=True, check=True).stdout
    assert f"torch_refine (torch-refine {found['torch-refine']})" in shown
    assert f"torch-mlir {found['torch-mlir']}" in shown
