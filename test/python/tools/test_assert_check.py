"""build_tools/assert_check.py on small hand-written programs: a tautology is listed as never
failing, a real check is not, and a condition it cannot evaluate is reported as such."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
_SPEC = importlib.util.spec_from_file_location("assert_check", REPO / "build_tools" / "assert_check.py")
assert_check = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = assert_check  # dataclasses look their module up there
_SPEC.loader.exec_module(assert_check)

TENSOR = "!torch.vtensor<[?,?],f32>"
INT2 = "!torch.int, !torch.int"


def _program(body: str, arguments: str = f"%arg0: {TENSOR}") -> str:
    return f"""
func.func @main({arguments}) -> {TENSOR} {{
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %h = torch.aten.size.int %arg0, %int0 : {TENSOR}, !torch.int -> !torch.int
  %w = torch.aten.size.int %arg0, %int1 : {TENSOR}, !torch.int -> !torch.int
{body}
  return %arg0 : {TENSOR}
}}"""


def _verdicts(body: str, **kwargs) -> list[tuple[str, str]]:
    result = assert_check.check_text(_program(body, **kwargs))
    return [(a.message, a.verdict) for a in result.asserts]


# `(h - 4) // 4 + 1 == h // 4`: the residual add after a stride-4 stem (issue 41).
STEM_TAUTOLOGY = f"""
  %0 = torch.aten.sub.int %h, %int4 : {INT2} -> !torch.int
  %1 = torch.aten.floordiv.int %0, %int4 : {INT2} -> !torch.int
  %2 = torch.aten.add.int %1, %int1 : {INT2} -> !torch.int
  %3 = torch.aten.floordiv.int %h, %int4 : {INT2} -> !torch.int
  %4 = torch.aten.eq.int %2, %3 : {INT2} -> !torch.bool
  torch.runtime.assert %4, "stem"
"""


def test_a_tautology_is_listed_as_never_failing():
    assert _verdicts(STEM_TAUTOLOGY) == [("stem", "never fails")]
    (assertion,) = assert_check.check_text(_program(STEM_TAUTOLOGY)).asserts
    assert assertion.reason.startswith("a tautology")


def test_a_real_check_is_not_listed():
    """`h // 2 == w // 2` fails at h = 0, w = 2; `h >= 1` fails for an empty tensor."""
    body = f"""
  %0 = torch.aten.floordiv.int %h, %int2 : {INT2} -> !torch.int
  %1 = torch.aten.floordiv.int %w, %int2 : {INT2} -> !torch.int
  %2 = torch.aten.eq.int %0, %1 : {INT2} -> !torch.bool
  torch.runtime.assert %2, "residual"
  %3 = torch.aten.ge.int %h, %int1 : {INT2} -> !torch.bool
  torch.runtime.assert %3, "not empty"
"""
    assert _verdicts(body) == [("residual", "can fail"), ("not empty", "can fail")]


def test_the_smallest_size_of_an_unbound_dim_is_an_option():
    body = f"""
  %0 = torch.aten.ge.int %h, %int1 : {INT2} -> !torch.bool
  torch.runtime.assert %0, "not empty"
"""
    (assertion,) = assert_check.check_text(_program(body), min_size=1).asserts
    assert assertion.verdict == "never fails"


@pytest.mark.parametrize(("read", "reason"), [
    ("%0 = torch.aten.Int.Tensor %arg1 : !torch.vtensor<[],si64> -> !torch.int",
     "torch.aten.Int.Tensor has no meaning here"),
    (f"%0 = torch.aten.size.int %arg0, %arg2 : {TENSOR}, !torch.int -> !torch.int",
     "aten.size.int of a dim that is no constant"),
    (f"%r = torch.aten.relu %arg0 : {TENSOR} -> {TENSOR}\n"
     f"  %0 = torch.aten.size.int %r, %int0 : {TENSOR}, !torch.int -> !torch.int",
     "a dynamic size of a tensor the program computes"),
], ids=["tensor contents", "dim argument", "computed tensor"])
def test_a_condition_it_cannot_evaluate_is_reported_as_such(read, reason):
    body = f"""
  {read}
  %1 = torch.aten.ge.int %0, %int1 : {INT2} -> !torch.bool
  torch.runtime.assert %1, "unknown"
"""
    arguments = f"%arg0: {TENSOR}, %arg1: !torch.vtensor<[],si64>, %arg2: !torch.int"
    (assertion,) = assert_check.check_text(_program(body, arguments=arguments)).asserts
    assert (assertion.verdict, assertion.reason) == ("unevaluated", reason)


@pytest.mark.parametrize(("size", "verdict"), [(3, "never fails"), (4, "can fail")])
def test_a_condition_on_static_sizes_is_decided_at_once(size, verdict):
    """A static size is a constant: `3 == 3` cannot fail, `3 == 4` fails at every size."""
    text = f"""
func.func @main(%arg0: !torch.vtensor<[?,3],f32>) -> !torch.vtensor<[?,3],f32> {{
  %int1 = torch.constant.int 1
  %expected = torch.constant.int {size}
  %0 = torch.aten.size.int %arg0, %int1 : !torch.vtensor<[?,3],f32>, !torch.int -> !torch.int
  %1 = torch.aten.eq.int %0, %expected : {INT2} -> !torch.bool
  torch.runtime.assert %1, "static"
  return %arg0 : !torch.vtensor<[?,3],f32>
}}"""
    (assertion,) = assert_check.check_text(text).asserts
    assert assertion.verdict == verdict


def test_a_check_implied_by_an_earlier_assert_never_fails():
    body = f"""
  %0 = torch.aten.ge.int %h, %int4 : {INT2} -> !torch.bool
  torch.runtime.assert %0, "at least 4"
  %1 = torch.aten.ge.int %h, %int2 : {INT2} -> !torch.bool
  torch.runtime.assert %1, "at least 2"
"""
    result = assert_check.check_text(_program(body))
    assert [a.verdict for a in result.asserts] == ["can fail", "never fails"]
    assert result.asserts[1].reason.startswith("implied by earlier asserts")


def test_a_select_through_prim_if_is_evaluated():
    """`1 if h == 1 else h` is `h`: comparing it with `h` cannot fail."""
    body = f"""
  %0 = torch.aten.eq.int %h, %int1 : {INT2} -> !torch.bool
  %1 = torch.prim.If %0 -> (!torch.int) {{
    torch.prim.If.yield %int1 : !torch.int
  }} else {{
    torch.prim.If.yield %h : !torch.int
  }}
  %2 = torch.aten.eq.int %1, %h : {INT2} -> !torch.bool
  torch.runtime.assert %2, "broadcast"
"""
    assert _verdicts(body) == [("broadcast", "never fails")]


def test_a_bound_symbol_samples_only_its_range():
    """`h >= 2` cannot fail where a bind says h is `s0` in [2, 64]; `w == 2*s0` holds too."""
    arguments = f"%arg0: {TENSOR}"
    body = f"""
  %0 = torch.aten.ge.int %h, %int2 : {INT2} -> !torch.bool
  torch.runtime.assert %0, "at least 2"
  %1 = torch.aten.mul.int %h, %int2 : {INT2} -> !torch.int
  %2 = torch.aten.eq.int %1, %w : {INT2} -> !torch.bool
  torch.runtime.assert %2, "twice"
"""
    text = _program(body, arguments=arguments).replace(
        "  %int0 = torch.constant.int 0",
        '  %s0 = torch.symbolic_int "s0" {min_val = 2, max_val = 64} : !torch.int\n'
        f"  torch.bind_symbolic_shape %arg0, [%s0], affine_map<()[s0] -> (s0, s0 * 2)> : {TENSOR}\n"
        "  %int0 = torch.constant.int 0", 1)
    result = assert_check.check_text(text)
    assert [a.verdict for a in result.asserts] == ["never fails", "never fails"]


def test_the_tool_prints_a_table_and_can_fail_on_never_failing_asserts(tmp_path, capsys):
    path = tmp_path / "stem.mlir"
    path.write_text(_program(STEM_TAUTOLOGY), encoding="utf-8")
    assert assert_check.main([str(path)]) == 0
    output = capsys.readouterr().out
    assert "asserts  never-fail  unevaluated" in output
    assert "stem.mlir: never fails" in output
    assert output.rstrip().endswith(": stem")
    assert assert_check.main([str(path), "--fail-on-never-fail"]) == 1


@pytest.mark.parametrize(("low", "high"), [(0, None), (2, 9)])
def test_samples_cover_the_range_edges(low, high):
    samples = assert_check.Variable("x", low, high).samples()
    assert samples[0] == low
    assert high is None or samples[-1] == high
    assert high is not None or {1, 64, 128, 1024} <= set(samples)


def test_refine_checks_the_refined_program(tmp_path, capsys):
    """`--refine` checks what torch-refine-opt's pipeline makes of the file: the stem's
    tautology after a tensor op is gone from it (the engine decides it), the residual check
    stays."""
    relu = f"  %relu = torch.aten.relu %arg0 : {TENSOR} -> {TENSOR}"
    residual = f"""
  %5 = torch.aten.floordiv.int %h, %int2 : {INT2} -> !torch.int
  %6 = torch.aten.floordiv.int %w, %int2 : {INT2} -> !torch.int
  %7 = torch.aten.eq.int %5, %6 : {INT2} -> !torch.bool
  torch.runtime.assert %7, "residual"
"""
    path = tmp_path / "stem.mlir"
    path.write_text(_program(relu + STEM_TAUTOLOGY + residual), encoding="utf-8")
    assert assert_check.main([str(path), "--refine", "--fail-on-never-fail"]) == 0
    output = capsys.readouterr().out
    assert "stem.mlir (refined)        1           0            0" in output


def test_a_check_failing_at_one_small_point_of_four_sizes_is_found():
    """Four sizes have too many samples to try all; the failure at (1, 2, 2, 1) (a broadcast's
    sizes after a transpose) is among the smallest ones, which are all tried."""
    pair = f"%arg0: {TENSOR}, %arg1: {TENSOR}"
    body = f"""
  %a = torch.aten.size.int %arg1, %int0 : {TENSOR}, !torch.int -> !torch.int
  %b = torch.aten.size.int %arg1, %int1 : {TENSOR}, !torch.int -> !torch.int
  %0 = torch.aten.ne.int %h, %int1 : {INT2} -> !torch.bool
  %1 = torch.aten.ne.int %w, %int2 : {INT2} -> !torch.bool
  %2 = torch.aten.ne.int %a, %int2 : {INT2} -> !torch.bool
  %3 = torch.aten.ne.int %b, %int1 : {INT2} -> !torch.bool
  %4 = torch.aten.__or__.bool %0, %1 : !torch.bool, !torch.bool -> !torch.bool
  %5 = torch.aten.__or__.bool %2, %3 : !torch.bool, !torch.bool -> !torch.bool
  %6 = torch.aten.__or__.bool %4, %5 : !torch.bool, !torch.bool -> !torch.bool
  torch.runtime.assert %6, "not 1, 2, 2, 1"
"""
    assert _verdicts(body, arguments=pair) == [("not 1, 2, 2, 1", "can fail")]
