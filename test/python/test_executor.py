"""The reference executor on small hand-written IR."""

from __future__ import annotations

import pytest
import torch

import torch_refine
from torch_refine.executor import ExecutionError, TypeMismatchError

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
    with pytest.raises(ExecutionError, match=r"'torch.operator' at .*:3:\d+.*nowhere.frobnicate"):
        torch_refine.execute(text, torch.ones(2))


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
