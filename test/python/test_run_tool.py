"""`make run` (torch_refine.tools.run): the bundled example and a user file."""

from __future__ import annotations

import subprocess
import sys

from torch_refine.tools import run

USER_MODULE = """
func.func @f(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[3,4],f32>) -> !torch.vtensor {
  %0 = torch.aten.mm %arg0, %arg1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3,4],f32> -> !torch.vtensor
  %1 = torch.aten.tanh %0 : !torch.vtensor -> !torch.vtensor
  return %1 : !torch.vtensor
}
"""


def test_bundled_example_refines_without_contradictions(tmp_path, capsys):
    output = tmp_path / "refined.mlir"
    assert run.main(["-o", str(output)]) == 0
    printed = capsys.readouterr().out
    assert "against the imported types" in printed
    contradictions = next(line for line in printed.splitlines() if "contradictions" in line)
    assert contradictions.split()[1] == "0"
    assert "torch.aten.mm" in output.read_text()


def test_user_file_is_refined_as_given(tmp_path, capsys):
    source = tmp_path / "model.mlir"
    source.write_text(USER_MODULE)
    output = tmp_path / "out" / "refined.mlir"
    assert run.main([str(source), "-o", str(output)]) == 0
    printed = capsys.readouterr().out
    assert "no truth: counts only" in printed
    assert "!torch.vtensor<[2,4],f32>" in output.read_text()


def test_run_does_not_import_torch(tmp_path):
    source = tmp_path / "model.mlir"
    source.write_text(USER_MODULE)
    code = (
        "import sys; from torch_refine.tools import run; "
        f"run.main([{str(source)!r}, '-o', {str(tmp_path / 'refined.mlir')!r}]); "
        "assert 'torch' not in sys.modules, 'run imported torch'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
