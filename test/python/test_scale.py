"""Inputs of a few kilobytes that once overflowed the recursion limit or took minutes.

Each must end as PyTorch would have it (refined types, or a located error for invalid IR)
without a traceback. The inputs are the benchmark's scale series (bench/run.py), which
measures their growth; here the only time limit is a generous one that catches hangs.
"""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from torch_refine.api import RefinementError, refine

_RUN = Path(__file__).resolve().parents[2] / "bench" / "run.py"
_spec = importlib.util.spec_from_file_location("bench_run", _RUN)
bench = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = bench  # dataclasses look their module up
_spec.loader.exec_module(bench)

HANG = 600  # seconds: each input takes a few seconds; this only stops a hang
X23 = "!torch.vtensor<[2,3],f32>"


def opt(tmp_path, text: str) -> subprocess.CompletedProcess:
    source = tmp_path / "input.mlir"
    source.write_text(text)
    return subprocess.run(
        [sys.executable, "-m", "torch_refine.tools.opt",
         "--pass-pipeline=builtin.module(torch-refine-pipeline)", str(source)],
        capture_output=True, text=True, timeout=HANG, check=False,
    )


def refined(tmp_path, text: str) -> str:
    completed = opt(tmp_path, text)
    assert "Traceback" not in completed.stderr
    assert completed.returncode == 0, completed.stderr[-2000:]
    return completed.stdout


def test_if_nested_1000_deep_refines(tmp_path):
    out = refined(tmp_path, bench.nested_if_text(1000))
    assert f"torch.aten.tanh %arg1 : {X23} -> {X23}" in out
    assert f"torch.prim.If %arg0 -> ({X23})" in out


def test_loop_nested_1000_deep_finishes(tmp_path):
    out = refined(tmp_path, bench.nested_loop_text(1000))
    assert out.count("torch.prim.Loop ") == 1000


def test_list_aliased_through_1000_nested_ifs_is_read(tmp_path):
    """Whether a list literal is mutated follows its aliases: here a chain of 1000 ifs."""
    lines = [f"func.func @f(%c: !torch.bool, %x: {X23}) -> (!torch.vtensor, !torch.list<int>) {{",
             "  %i3 = torch.constant.int 3", "  %i2 = torch.constant.int 2",
             "  %l = torch.prim.ListConstruct %i3, %i2 : (!torch.int, !torch.int) -> !torch.list<int>",
             f"  %v = torch.aten.view %x, %l : {X23}, !torch.list<int> -> !torch.vtensor"]
    lines += [f"  %r{d} = torch.prim.If %c -> (!torch.list<int>) {{" for d in range(1000)]
    lines.append("  torch.prim.If.yield %l : !torch.list<int>")
    for d in reversed(range(1000)):
        lines += ["  } else {", "  torch.prim.If.yield %l : !torch.list<int>", "  }"]
        if d > 0:
            lines.append(f"  torch.prim.If.yield %r{d} : !torch.list<int>")
    lines += ["  return %v, %r0 : !torch.vtensor, !torch.list<int>", "}"]
    out = refined(tmp_path, "\n".join(lines) + "\n")
    assert "-> !torch.vtensor<[3,2],f32>" in out


def test_cat_of_1000_tensors_refines(tmp_path):
    out = refined(tmp_path, bench.cat_text(1000))
    assert "torch.aten.cat %0, %int0 : !torch.list<vtensor>, !torch.int -> " \
        "!torch.vtensor<[2000,3],f32>" in out


def test_permute_of_rank_200_refines(tmp_path):
    out = refined(tmp_path, bench.permute_text(200))
    reversed_sizes = ",".join(map(str, reversed(bench.permute_sizes(200))))
    assert f"-> !torch.vtensor<[{reversed_sizes}],f32>" in out


def test_sum_over_1000_repeated_dims_is_a_located_error(tmp_path):
    completed = opt(tmp_path, bench.sum_dims_text(1000))
    assert completed.returncode == 1
    assert "Traceback" not in completed.stderr
    assert (f"input.mlir:{bench.SUM_DIMS_LINE}:12: error: 'torch.aten.sum.dim_IntList' op shape "
            "check failed: AssertionError: reduction: a dim appears twice in the list of dims"
            in completed.stderr)


def test_sum_over_repeated_dims_raises_from_the_api():
    with pytest.raises(RefinementError) as raised:
        refine(bench.sum_dims_text(1000))
    assert f"<refine>:{bench.SUM_DIMS_LINE}:12: error: 'torch.aten.sum.dim_IntList'" \
        in raised.value.diagnostics


def test_error_location_nested_1000_deep_is_found(tmp_path):
    """A diagnostic's position is searched through nested locations (here name locations)."""
    location = '"deep.mlir":7:5'
    for depth in range(1000):
        location = f'"n{depth}"({location})'
    text = bench.sum_dims_text(3).replace(
        "-> !torch.vtensor\n    return", f"-> !torch.vtensor loc({location})\n    return")
    completed = opt(tmp_path, text)
    assert completed.returncode == 1
    assert "Traceback" not in completed.stderr
    assert "deep.mlir:7:5: error: 'torch.aten.sum.dim_IntList'" in completed.stderr


def test_nesting_beyond_the_parser_limit_is_a_located_error(tmp_path):
    """MLIR's parser overflows the C stack past about 4,000 nested regions: refused first."""
    text = bench.nested_if_text(2500)
    completed = opt(tmp_path, text)
    assert completed.returncode == 1
    assert "Traceback" not in completed.stderr
    assert "input.mlir:2002:51: error: 'torch.prim.If' op nesting too deep: more than 2000 " \
        "nested regions" in completed.stderr
    with pytest.raises(RefinementError) as raised:
        refine(text)
    assert "<refine>:2002:51: error: 'torch.prim.If' op nesting too deep" in raised.value.diagnostics


def test_type_nesting_beyond_the_parser_limit_is_a_located_error(tmp_path):
    """The Torch type parser recurses per nested type: a list type nested 20,000 deep
    killed the process with signal 11. Refused first, at the `<` that goes too deep."""
    depth = 20_000
    nested = "!torch." + "list<" * depth + "int" + ">" * depth
    text = f"func.func @f(%a: {nested}) -> {nested} {{\n  return %a : {nested}\n}}\n"
    completed = opt(tmp_path, text)
    assert completed.returncode == 1
    assert "Traceback" not in completed.stderr
    column = len("func.func @f(%a: !torch.") + len("list<") * 2001  # the 2,001st "<"
    assert f"input.mlir:1:{column}: error: 'func.func' op nesting too deep: more than 2000 " \
        "nested types" in completed.stderr
    with pytest.raises(RefinementError) as raised:
        refine(text)
    assert "nesting too deep: more than 2000 nested types" in raised.value.diagnostics


@pytest.mark.slow  # about 30 s of CPU
def test_chain_of_100k_cheap_ops_refines(tmp_path):
    """100,000 dependent tanh ops (about 7 MB): linear time, every one refined."""
    count = 100_000
    lines = [f"func.func @chain(%x: {X23}) -> !torch.vtensor {{",
             f"  %v1 = torch.aten.tanh %x : {X23} -> !torch.vtensor"]
    lines += [f"  %v{i + 1} = torch.aten.tanh %v{i} : !torch.vtensor -> !torch.vtensor"
              for i in range(1, count)]
    lines += [f"  return %v{count} : !torch.vtensor", "}"]
    out = refined(tmp_path, "\n".join(lines) + "\n")
    assert out.count("torch.aten.tanh") == count
    assert out.count(f": {X23} -> {X23}") == count
