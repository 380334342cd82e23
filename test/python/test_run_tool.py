"""`make run` (torch_refine.tools.run): the main job on a real model, the bundled example
IR, and a user file."""

from __future__ import annotations

import subprocess
import sys

import pytest

from torch_refine.tools import run

USER_MODULE = """
func.func @f(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[3,4],f32>) -> !torch.vtensor {
  %0 = torch.aten.mm %arg0, %arg1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3,4],f32> -> !torch.vtensor
  %1 = torch.aten.tanh %0 : !torch.vtensor -> !torch.vtensor
  return %1 : !torch.vtensor
}
"""


def _count(printed: str, row: str) -> str:
    return next(line for line in printed.splitlines() if line.strip().startswith(row)).split()[1]


@pytest.mark.slow  # make run's job: a real model exported, refined, executed and compared
def test_main_job_refines_executes_and_checks_a_real_model(tmp_path, capsys):
    output = tmp_path / "refined.mlir"
    assert run.main(["-o", str(output)]) == 0
    printed = capsys.readouterr().out
    assert "every tensor matches its refined type" in printed
    assert _count(printed, "contradictions") == "0"
    assert _count(printed, "unknown") == "0"
    assert "torch.aten.mm" in output.read_text()


def test_bundled_example_refines_without_contradictions(tmp_path, capsys):
    output = tmp_path / "refined.mlir"
    assert run.main(["--example-ir", "-o", str(output)]) == 0
    printed = capsys.readouterr().out
    assert "against the imported types" in printed
    assert _count(printed, "contradictions") == "0"
    assert "torch.aten.mm" in output.read_text()


def test_user_file_is_refined_as_given(tmp_path, capsys):
    source = tmp_path / "model.mlir"
    source.write_text(USER_MODULE)
    output = tmp_path / "out" / "refined.mlir"
    assert run.main([str(source), "-o", str(output)]) == 0
    printed = capsys.readouterr().out
    assert "no truth: counts only" in printed
    assert "!torch.vtensor<[2,4],f32>" in output.read_text()


def test_user_file_says_why_values_stay_unknown(tmp_path, capsys):
    """The same reasons as the API's report and torch-refine-opt's remarks, on the same module."""
    from test_api import EXPLAIN, EXPLAINED, line_of

    assert run.main([str(EXPLAIN), "-o", str(tmp_path / "refined.mlir")]) == 0
    printed = capsys.readouterr().out
    foo_line = line_of(EXPLAIN.read_text(), '"foo.bar"')
    where = f"{EXPLAIN.name}:{foo_line}:8"
    assert f'torch.operator "foo.bar" #0 at {where}: !torch.vtensor  ({EXPLAINED[0]})' in printed
    for reason in EXPLAINED:
        assert reason in printed
    assert "data-dependent size (foo.bar)" not in printed


def test_ir_paths_do_not_import_torch(tmp_path):
    source = tmp_path / "model.mlir"
    source.write_text(USER_MODULE)
    output = str(tmp_path / "refined.mlir")
    for argv in ([str(source), "-o", output], ["--example-ir", "-o", output]):
        code = (
            "import sys; from torch_refine.tools import run; "
            f"assert run.main({argv!r}) == 0; "
            "assert 'torch' not in sys.modules, 'run imported torch'"
        )
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


def test_missing_input_is_one_line_not_a_traceback(tmp_path, capsys):
    assert run.main([str(tmp_path / "missing.mlir"), "-o", str(tmp_path / "out.mlir")]) == 1
    err = capsys.readouterr().err
    assert err == f"cannot read input file '{tmp_path / 'missing.mlir'}': No such file or directory\n"


def test_malformed_input_is_located_in_its_file(tmp_path, capsys):
    source = tmp_path / "bad.mlir"
    source.write_text("func.func @f() {\n  %0 = torch.aten.bad\n}\n")
    assert run.main([str(source), "-o", str(tmp_path / "out.mlir")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{source}:2:8: error: custom op 'torch.aten.bad' is unknown")
    assert "Traceback" not in err


def test_main_job_without_transformers_says_what_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "transformers", None)  # `import transformers` fails
    assert run.main(["-o", str(tmp_path / "out.mlir")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: the main job builds transformers' LlamaModel and needs transformers")
    assert "pip install 'transformers" in err
    assert "--example-ir" in err
    assert "Traceback" not in err
