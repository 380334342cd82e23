"""torch-refine-ops: rows per op overload, core tags, coverage, counts, filters, JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from torch_refine.library import registry
from torch_refine.tools import ops

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "custom_op"

MODEL = """\
func.func @f(%x: !torch.vtensor<[2,3],f32>, %y: !torch.vtensor<[3,4],f32>) -> !torch.vtensor {
  %0 = torch.aten.mm %x, %y : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3,4],f32> -> !torch.vtensor
  %1 = torch.aten.tanh %0 : !torch.vtensor -> !torch.vtensor
  %2 = torch.aten.tanh %1 : !torch.vtensor -> !torch.vtensor
  %3 = torch.operator "mylib.custom"(%2) : (!torch.vtensor) -> !torch.vtensor
  return %3 : !torch.vtensor
}
"""


def _json(capsys, *argv: str) -> list[dict]:
    assert ops.main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture
def model(tmp_path) -> str:
    path = tmp_path / "model.mlir"
    path.write_text(MODEL)
    return str(path)


def test_json_schema_is_a_list_of_objects_with_the_stable_keys(capsys, model):
    rows = _json(capsys, model)
    assert rows
    for row in rows:
        assert tuple(row) == ops.JSON_KEYS
        assert all(isinstance(row[k], bool) for k in ("core", "decomposition"))
        assert all(row[k] is None or isinstance(row[k], bool) for k in ("shape", "dtype"))
        assert isinstance(row["cases"], int)
        assert isinstance(row["count"], int)


def test_a_file_gives_one_row_per_op_with_its_count(capsys, model):
    rows = {row["op"]: row for row in _json(capsys, model)}
    assert set(rows) == {"aten.mm", "aten.tanh", "mylib.custom"}
    assert rows["aten.tanh"]["count"] == 2
    assert rows["aten.mm"]["count"] == 1
    assert rows["mylib.custom"] == {
        "op": "mylib.custom", "core": False, "shape": False, "dtype": False,
        "decomposition": False, "cases": 0, "count": 1, "served": "none", "meta": ops.NOT_REGISTERED,
    }


def test_registry_rows_have_functions_and_their_cases(capsys, model):
    rows = {row["op"]: row for row in _json(capsys, model)}
    mm = rows["aten.mm"]
    assert mm["shape"]
    assert mm["dtype"]
    entries = [e for e in registry.functions() if e.op == "aten.mm"]
    assert mm["cases"] == len({id(i) for e in entries for i in e.invocations})
    assert mm["cases"] > 0


def test_core_detection(capsys, model):
    rows = {row["op"]: row for row in _json(capsys, model)}
    assert rows["aten.mm"]["core"]
    assert rows["aten.tanh"]["core"]
    assert not rows["mylib.custom"]["core"]
    assert "aten.mm" in ops.torch_facts().core
    assert "aten.add.Tensor" in ops.torch_facts().core
    assert "aten.add.int" not in ops.torch_facts().core


def test_all_core_lists_every_core_overload(capsys):
    rows = _json(capsys, "--all-core", "--core-only")
    assert len(rows) == len(ops.torch_facts().core) == 193
    assert all(row["count"] is None for row in rows)


def test_every_core_overload_has_every_applicable_function(capsys):
    rows = {row["op"]: row for row in _json(capsys, "--all-core", "--core-only")}
    assert [op for op, row in rows.items() if False in (row["shape"], row["dtype"])] == []
    assert ops.main(["--all-core", "--core-only"]) == 0
    assert "(Core ATen: 193 of 193)" in capsys.readouterr().out.splitlines()[-1]


def test_functions_that_cannot_apply_are_na(capsys):
    rows = {row["op"]: row for row in _json(capsys, "--all-core", "--core-only")}
    # Scalar results: a dtype function and no shape function.
    for op in ("aten.sym_size.int", "aten.sym_numel", "aten._local_scalar_dense"):
        assert (rows[op]["shape"], rows[op]["dtype"]) == (None, True)
    # A bool result has one type: neither applies.
    contiguous = rows["aten.sym_is_contiguous"]
    assert (contiguous["shape"], contiguous["dtype"]) == (None, None)
    assert (rows["aten.nonzero"]["shape"], rows["aten.nonzero"]["dtype"]) == (True, True)
    assert ops.main(["--all-core", "--core-only"]) == 0
    table = capsys.readouterr().out
    line = next(line for line in table.splitlines() if line.startswith("aten.sym_is_contiguous "))
    assert line.split()[1:4] == ["yes", "n/a", "n/a"]


def test_missing_and_core_only_filters(capsys, model):
    missing = {row["op"] for row in _json(capsys, model, "--missing")}
    assert missing == {"mylib.custom"}
    core = {row["op"] for row in _json(capsys, model, "--core-only")}
    assert core == {"aten.mm", "aten.tanh"}


def test_extra_library_covers_the_example_ops(capsys):
    model = str(EXAMPLE / "model.mlir")
    before = {row["op"] for row in _json(capsys, model, "--missing")}
    assert before == {"mylib.rotary"}  # the meta fallback serves aten.native_channel_shuffle
    after = _json(capsys, model, "--missing", "--extra-library", str(EXAMPLE / "my_ops.py"))
    assert after == []


def test_text_table_and_summary(capsys, model):
    assert ops.main([model]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["op", "core", "shape", "dtype", "decomposition", "cases", "count", "served"]
    assert out[2].split()[:2] == ["aten.tanh", "yes"]
    assert out[2].split()[-1] == "function"
    assert out[-1] == (
        "3 ops, 2 Core ATen; with all applicable shape and dtype functions: 2 of 3 "
        "(Core ATen: 2 of 2); served by the meta fallback: 0; neither: 1"
    )


def test_library_functions_in_the_file_are_not_counted():
    text = MODEL + (
        'func.func private @"__torch_refine_shape_fn.aten.neg"(%a: !torch.list<int>)'
        " -> !torch.list<int> {\n"
        "  %0 = torch.aten.len.t %a : !torch.list<int> -> !torch.int\n"
        "  return %a : !torch.list<int>\n}\n"
    )
    assert "aten.len.t" not in ops.ops_in_text(text)


def test_bad_input_is_an_error(tmp_path, capsys):
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f(")
    assert ops.main([str(bad)]) == 1
    assert "torch-refine-ops: error: cannot parse" in capsys.readouterr().err
    assert ops.main([str(tmp_path / "absent.mlir")]) == 1


def test_module_runs_as_a_script(model):
    run = subprocess.run(
        [sys.executable, "-m", "torch_refine.tools.ops", model, "--core-only"],
        capture_output=True, text=True, check=True,
    )
    assert run.stdout.splitlines()[-1].startswith("2 ops, 2 Core ATen")


def test_missing_without_a_file_lists_both_sections(capsys, monkeypatch):
    monkeypatch.setattr(ops, "torch_mlir_ops", lambda: frozenset({"aten.mm", "mylib.custom"}))
    monkeypatch.setattr(ops, "registry_aten_ops", lambda: frozenset({"aten.tanh", "aten.nope"}))
    sections = json.loads(_stdout(capsys, "--missing", "--json"))
    assert set(sections) == {"torch-mlir", "registry"}
    assert [row["op"] for row in sections["torch-mlir"]] == ["mylib.custom"]
    assert [row["op"] for row in sections["registry"]] == ["aten.nope"]
    assert ops.main(["--missing", "--against=torch-mlir"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("== missing against torch-mlir: 1 of 2 ops ==")
    assert "mylib.custom" in text
    assert "== missing against registry" not in text


def test_ops_without_functions_are_served_by_the_meta_fallback_where_pytorch_runs_them(capsys, monkeypatch):
    monkeypatch.setattr(ops, "registry_aten_ops", lambda: frozenset({"aten.take_along_dim", "aten.histogram.bin_ct"}))
    rows = json.loads(_stdout(capsys, "--missing", "--json", "--against=registry"))["registry"]
    assert [row["op"] for row in rows] == ["aten.histogram.bin_ct"]
    assert rows[0]["served"] == "none"
    assert rows[0]["meta"].startswith("no meta kernel or decomposition")
    served = ops.build_rows(ops._argument_parser().parse_args([]), None, against="registry")[1]
    assert (served.op, served.served, served.meta) == ("aten.take_along_dim", "fallback", None)


def test_registry_list_leaves_out_the_out_variants():
    registry_ops = ops.registry_aten_ops()
    assert "aten.mm" in registry_ops
    assert "aten.mm.out" not in registry_ops


def _stdout(capsys, *argv: str) -> str:
    assert ops.main(list(argv)) == 0
    return capsys.readouterr().out


# --- --legal: what a backend must implement after decomposition --------------------------

DECOMPOSABLE = """\
func.func @f(%x: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[4,3],f32>) -> !torch.vtensor {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %0 = torch.aten.linear %x, %w, %none
      : !torch.vtensor<[2,3],f32>, !torch.vtensor<[4,3],f32>, !torch.none -> !torch.vtensor
  %1 = torch.aten.softmax.int %0, %int1, %none
      : !torch.vtensor, !torch.int, !torch.none -> !torch.vtensor
  %2 = torch.aten.tanh %1 : !torch.vtensor -> !torch.vtensor
  return %2 : !torch.vtensor
}
"""


@pytest.fixture
def decomposable(tmp_path) -> str:
    path = tmp_path / "decomposable.mlir"
    path.write_text(DECOMPOSABLE)
    return str(path)


def _legal_rows(capsys, *argv: str) -> dict[str, dict]:
    assert ops.main([*argv, "--json"]) == 0
    return {row["op"]: row for row in json.loads(capsys.readouterr().out)}


def test_legal_lists_the_ops_left_after_decomposing_a_module(capsys, decomposable):
    rows = _legal_rows(capsys, decomposable, "--legal=aten.softmax.int,torch.aten.tanh")
    assert rows["aten.softmax.int"] == {"op": "aten.softmax.int", "legal": True, "count": 1}
    assert rows["aten.tanh"]["legal"]
    assert "aten.linear" not in rows  # decomposed: its pieces remain instead
    assert rows["aten.matmul"] == {"op": "aten.matmul", "legal": False, "count": 1}
    assert not any(op in rows for op in ("aten.max.dim", "aten.exp"))  # softmax kept


def test_legal_reads_a_file_with_comments(capsys, decomposable, tmp_path):
    legal = tmp_path / "legal.txt"
    legal.write_text("# my backend\naten.linear  # fused GEMM\n\naten.tanh\n")
    rows = _legal_rows(capsys, decomposable, f"--legal={legal}")
    assert rows["aten.linear"]["legal"]
    assert rows["aten.tanh"]["legal"]
    assert {"aten.max.dim", "aten.exp", "aten.sum.dim_IntList", "aten.div.Tensor"} <= set(rows)
    assert "aten.softmax.int" not in rows


def test_legal_table_ends_with_the_number_still_missing(capsys, decomposable):
    assert ops.main([decomposable, "--legal=aten.tanh"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "aten.tanh  legal  1" in lines
    assert lines[-1].endswith(f"(the backend must implement): {len(lines) - 2}")


def test_legal_without_a_file_expands_every_decomposition_of_the_library(capsys):
    rows = _legal_rows(capsys, "--legal=aten.mm")
    assert rows["aten.mm"]["legal"]
    assert rows["aten.mm"]["count"] is None
    for decomposed in ("aten.linear", "aten.silu", "aten.layer_norm", "aten.softmax.int"):
        assert decomposed not in rows
    assert {"aten.matmul", "aten.sigmoid", "aten.sum.dim_IntList", "aten.max.dim"} <= set(rows)
    assert not {"aten.var.correction", "aten.amax"} & set(rows)  # decomposed further


# --- speed and manners (issue 29.7) --------------------------------------------------------

OPS = [sys.executable, "-m", "torch_refine.tools.ops"]


@pytest.fixture(scope="module")
def warm_cache(tmp_path_factory) -> dict[str, str]:
    """An environment whose facts cache has been filled by one run."""
    env = {**os.environ, "TORCH_REFINE_CACHE_DIR": str(tmp_path_factory.mktemp("cache"))}
    first = subprocess.run([*OPS, str(EXAMPLE / "model.mlir")], env=env, capture_output=True, text=True, check=False)
    assert first.returncode == 0, first.stderr
    assert first.stderr == ""  # PyTorch's C++ warnings while computing the facts are silenced
    return env


def test_a_listing_from_the_cache_imports_no_torch(warm_cache):
    probe = ("import sys; from torch_refine.tools import ops; "
             f"code = ops.main([{str(EXAMPLE / 'model.mlir')!r}]); assert 'torch' not in sys.modules; sys.exit(code)")
    run = subprocess.run([sys.executable, "-c", probe], env=warm_cache, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert "aten.tanh" in run.stdout


def test_the_cache_gives_the_rows_a_computation_gives(warm_cache, capsys, monkeypatch):
    cached = subprocess.run([*OPS, str(EXAMPLE / "model.mlir"), "--json"], env=warm_cache, capture_output=True,
                            text=True, check=False)
    assert json.loads(cached.stdout) == _json(capsys, str(EXAMPLE / "model.mlir"))


def test_a_closed_pipe_ends_it_quietly(warm_cache):
    run = subprocess.run(f"{' '.join(OPS)} | head -1", shell=True, env=warm_cache, capture_output=True, text=True,
                         check=False)
    assert run.stdout.startswith("op ")
    assert run.stderr == ""


def test_nothing_missing_is_a_sentence(capsys, tmp_path):
    covered = tmp_path / "covered.mlir"
    covered.write_text(MODEL.replace('%3 = torch.operator "mylib.custom"(%2) : (!torch.vtensor) -> !torch.vtensor',
                                     "%3 = torch.aten.relu %2 : !torch.vtensor -> !torch.vtensor"))
    assert ops.main([str(covered), "--missing"]) == 0
    assert capsys.readouterr().out == ops.NOTHING_MISSING + "\n"


def test_an_unreadable_extra_library_is_one_line(capsys):
    assert ops.main([str(EXAMPLE / "model.mlir"), "--extra-library=no-such.mlir"]) == 1
    assert capsys.readouterr().err == "torch-refine-ops: error: cannot read extra-library 'no-such.mlir': No such file or directory\n"
