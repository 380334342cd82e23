"""The reference executor on small hand-written IR."""

from __future__ import annotations

import subprocess
import sys

import pytest
import torch

import torch_refine
from torch_refine.executor import ExecutionError, SideEffectError, TypeMismatchError

ADD = """
func.func @main(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[3],f32>) -> RESULT {
  %int1 = torch.constant.int 1
  %0 = torch.aten.add.Tensor %a, %b, %int1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3],f32>, !torch.int -> RESULT
  return %0 : RESULT
}
"""


def test_runs_an_op_and_checks_types():
    a, b = torch.randn(2, 3), torch.randn(3)
    text = ADD.replace("RESULT", "!torch.vtensor<[2,3],f32>")
    torch.testing.assert_close(torch_refine.execute(text, a, b, check_types=True), a + b)


def test_check_types_reports_every_wrong_type():
    text = ADD.replace("RESULT", "!torch.vtensor<[2,4],f64>")
    with pytest.raises(TypeMismatchError) as caught:
        torch_refine.execute(text, torch.randn(2, 3), torch.randn(3), check_types=True)
    assert len(caught.value.mismatches) == 1
    message = str(caught.value)
    assert "torch.aten.add.Tensor" in message
    assert "!torch.vtensor<[2,4],f64>" in message
    assert "[2, 3] torch.float32" in message


def test_failing_runtime_assert_raises_its_message():
    text = """
    func.func @main(%a: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?],f32> {
      %int0 = torch.constant.int 0
      %int4 = torch.constant.int 4
      %0 = torch.aten.size.int %a, %int0 : !torch.vtensor<[?],f32>, !torch.int -> !torch.int
      %1 = torch.aten.eq.int %0, %int4 : !torch.int, !torch.int -> !torch.bool
      torch.runtime.assert %1, "size must be 4"
      return %a : !torch.vtensor<[?],f32>
    }
    """
    assert torch_refine.execute(text, torch.ones(4)).shape == (4,)
    with pytest.raises(ExecutionError, match="size must be 4"):
        torch_refine.execute(text, torch.ones(5))


def test_unsupported_op_names_op_and_location():
    text = """
    func.func @main(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
      %0 = torch.operator "nowhere.frobnicate"(%a) : (!torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>
      return %0 : !torch.vtensor<[2],f32>
    }
    """
    with pytest.raises(SideEffectError, match=r"refusing 'nowhere.frobnicate' at .*:3:\d+.*allow_side_effects"):
        torch_refine.execute(text, torch.ones(2))
    with pytest.raises(ExecutionError, match=r"'torch.operator' at .*:3:\d+.*nowhere.frobnicate"):
        torch_refine.execute(text, torch.ones(2), allow_side_effects=True)


def test_control_flow_lists_and_calls():
    text = """
    func.func @twice(%x: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
      %int1 = torch.constant.int 1
      %0 = torch.aten.add.Tensor %x, %x, %int1 : !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.int -> !torch.vtensor<[2],f32>
      return %0 : !torch.vtensor<[2],f32>
    }
    func.func @main(%a: !torch.vtensor<[2],f32>, %flag: !torch.bool) -> !torch.vtensor<[4],f32> {
      %int0 = torch.constant.int 0
      %int3 = torch.constant.int 3
      %true = torch.constant.bool true
      %0 = torch.prim.If %flag -> (!torch.vtensor<[2],f32>) {
        %r = func.call @twice(%a) : (!torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>
        torch.prim.If.yield %r : !torch.vtensor<[2],f32>
      } else {
        torch.prim.If.yield %a : !torch.vtensor<[2],f32>
      }
      %1 = torch.prim.Loop %int3, %true, init(%0) {
      ^bb0(%i: !torch.int, %acc: !torch.vtensor<[2],f32>):
        %s = func.call @twice(%acc) : (!torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>
        torch.prim.Loop.condition %true, iter(%s : !torch.vtensor<[2],f32>)
      } : (!torch.int, !torch.bool, !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>
      %list = torch.prim.ListConstruct %1, %a : (!torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>) -> !torch.list<vtensor>
      %2 = torch.aten.cat %list, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[4],f32>
      return %2 : !torch.vtensor<[4],f32>
    }
    """
    a = torch.tensor([1.0, 2.0])
    got = torch_refine.execute(text, a, True, check_types=True)
    torch.testing.assert_close(got, torch.cat([a * 16, a]))
    torch.testing.assert_close(torch_refine.execute(text, a, False), torch.cat([a * 8, a]))


BATCH_NORM = """
func.func @main(%x: !torch.vtensor<[2,4,3],f32>, %w: !torch.vtensor<[4],f32>, %training: !torch.bool) -> !torch.vtensor<[2,4,3],f32> {
  %float0.1 = torch.constant.float 1.000000e-01
  %float1e-05 = torch.constant.float 1.000000e-05
  %none = torch.constant.none
  %0:3 = torch.operator "aten._native_batch_norm_legit.no_stats"(%x, %w, %none, %training, %float0.1, %float1e-05) : (!torch.vtensor<[2,4,3],f32>, !torch.vtensor<[4],f32>, !torch.none, !torch.bool, !torch.float, !torch.float) -> (!torch.vtensor<[2,4,3],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>)
  return %0#0 : !torch.vtensor<[2,4,3],f32>
}
"""


def test_a_kernel_is_not_called_on_arguments_the_library_rejects():
    # PyTorch's CPU kernel segfaults on this call (batch norm in eval mode without running
    # statistics), so run it in a child: a crash fails this test instead of ending pytest.
    script = f"""
import torch, torch_refine
try:
    torch_refine.execute({BATCH_NORM!r}, torch.randn(2, 4, 3), torch.ones(4), False)
except torch_refine.ExecutionError as error:
    print(error)
"""
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           timeout=300)
    assert child.returncode == 0, child.stderr
    assert "'aten._native_batch_norm_legit.no_stats' at -:6:" in child.stdout
    assert "the kernel is not called" in child.stdout
    assert "running_mean and running_var must not be None in eval mode" in child.stdout


def test_the_library_check_passes_valid_arguments():
    x = torch.randn(2, 4, 3)
    got = torch_refine.execute(BATCH_NORM, x, torch.ones(4), True)
    expected = torch.ops.aten._native_batch_norm_legit.no_stats(x, torch.ones(4), None, True, 0.1, 1e-5)[0]
    torch.testing.assert_close(got, expected)


def test_refined_ir_keeps_the_guard_and_stops_before_the_kernel():
    # Unknown result types, so refinement wraps the op and keeps its undecided check.
    erased = BATCH_NORM.replace("-> (!torch.vtensor<[2,4,3],f32>, !torch.vtensor<[4],f32>, "
                                "!torch.vtensor<[4],f32>)", "-> (!torch.vtensor, !torch.vtensor, !torch.vtensor)")
    erased = erased.replace("return %0#0 : !torch.vtensor<[2,4,3],f32>", "return %0#0 : !torch.vtensor")
    erased = erased.replace(") -> !torch.vtensor<[2,4,3],f32> {", ") -> !torch.vtensor {")
    module, _ = torch_refine.refine(erased)
    assert "torch.runtime.assert" in str(module)
    with pytest.raises(ExecutionError, match=r"torch\.runtime\.assert failed .*eval mode"):
        torch_refine.execute(module, torch.randn(2, 4, 3), torch.ones(4), False)
