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
    with pytest.raises(ExecutionError, match=r"torch\.runtime\.assert failed.*eval mode"):
        torch_refine.execute(module, torch.randn(2, 4, 3), torch.ones(4), False)


# Each aliasing view op of a non-value tensor, as (IR of the view of %t : [2,3] f32 or
# [3] for expand, its type, the same view in eager PyTorch). A write through the view
# must reach the base, and a write to the base must reach the view, as in PyTorch.
_VIEWS = {
    "transpose": ("torch.aten.transpose.int %t, %int0, %int1 : !torch.tensor<[2,3],f32>, !torch.int, !torch.int",
                  "[3,2]", lambda t: t.transpose(0, 1)),
    "permute": ("torch.aten.permute %t, %dims : !torch.tensor<[2,3],f32>, !torch.list<int>",
                "[3,2]", lambda t: t.permute(1, 0)),
    "slice": ("torch.aten.slice.Tensor %t, %int1, %int1, %int3, %int1 : !torch.tensor<[2,3],f32>, !torch.int, "
              "!torch.int, !torch.int, !torch.int", "[2,2]", lambda t: t[:, 1:3]),
    "select": ("torch.aten.select.int %t, %int1, %int2 : !torch.tensor<[2,3],f32>, !torch.int, !torch.int",
               "[2]", lambda t: t.select(1, 2)),
    "expand": ("torch.aten.expand %t, %sizes, %false : !torch.tensor<[3],f32>, !torch.list<int>, !torch.bool",
               "[1,3]", lambda t: t.expand(1, 3)),
    "diagonal": ("torch.aten.diagonal %t, %int0, %int0, %int1 : !torch.tensor<[2,3],f32>, !torch.int, !torch.int, "
                 "!torch.int", "[2]", lambda t: t.diagonal(0, 0, 1)),
    "as_strided": ("torch.aten.as_strided %t, %sizes, %strides, %none : !torch.tensor<[2,3],f32>, !torch.list<int>, "
                   "!torch.list<int>, !torch.none", "[1,3]", lambda t: t.as_strided([1, 3], [1, 2])),
    "unsqueeze": ("torch.aten.unsqueeze %t, %int0 : !torch.tensor<[2,3],f32>, !torch.int",
                  "[1,2,3]", lambda t: t.unsqueeze(0)),
    "squeeze": ("torch.aten.squeeze.dim %u, %int0 : !torch.tensor, !torch.int",
                "[2,3]", lambda t: t.unsqueeze(0).squeeze(0)),
    "t": ("torch.aten.t %t : !torch.tensor<[2,3],f32>", "[3,2]", lambda t: t.t()),
    "narrow": ("torch.aten.narrow %t, %int1, %int1, %int2 : !torch.tensor<[2,3],f32>, !torch.int, !torch.int, "
               "!torch.int", "[2,2]", lambda t: t.narrow(1, 1, 2)),
}
_WRITE_THROUGH_VIEW = """
func.func @main(%x: !torch.vtensor<BASE,f32>) -> (!torch.vtensor<BASE,f32>, !torch.vtensor<VIEW,f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %false = torch.constant.bool false
  %none = torch.constant.none
  %dims = torch.prim.ListConstruct %int1, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %sizes = torch.prim.ListConstruct %int1, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %strides = torch.prim.ListConstruct %int1, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %t = torch.copy.to_tensor %x : !torch.tensor<BASE,f32>
  %u = torch.aten.unsqueeze %t, %int0 : !torch.tensor<BASE,f32>, !torch.int -> !torch.tensor
  %v = VIEW_OP -> !torch.tensor<VIEW,f32>
  %w = WRITE
  %r = torch.copy.to_vtensor %t : !torch.vtensor<BASE,f32>
  %s = torch.copy.to_vtensor %v : !torch.vtensor<VIEW,f32>
  return %r, %s : !torch.vtensor<BASE,f32>, !torch.vtensor<VIEW,f32>
}
"""
_THROUGH_VIEW = ("torch.aten.mul_.Scalar %v, %int2 : !torch.tensor<VIEW,f32>, !torch.int -> !torch.tensor<VIEW,f32>",
                 lambda base, view: view.mul_(2))
_THROUGH_BASE = ("torch.aten.add_.Scalar %t, %int3, %int1 : !torch.tensor<BASE,f32>, !torch.int, !torch.int "
                 "-> !torch.tensor<BASE,f32>", lambda base, view: base.add_(3))


@pytest.mark.parametrize("write", [_THROUGH_VIEW, _THROUGH_BASE], ids=["through_view", "through_base"])
@pytest.mark.parametrize("view_name", sorted(_VIEWS))
def test_an_inplace_write_reaches_every_alias(view_name, write):
    view_op, view_sizes, eager_view = _VIEWS[view_name]
    base_sizes = "[3]" if view_name == "expand" else "[2,3]"
    write_op, eager_write = write
    text = (_WRITE_THROUGH_VIEW.replace("VIEW_OP", view_op).replace("WRITE", write_op)
            .replace("BASE", base_sizes).replace("VIEW", view_sizes))
    x = torch.arange(3.0) if view_name == "expand" else torch.arange(6.0).reshape(2, 3)
    base = x.clone()
    view = eager_view(base)
    eager_write(base, view)
    got_base, got_view = torch_refine.execute(text, x, check_types=True)
    torch.testing.assert_close(got_base, base)
    torch.testing.assert_close(got_view, view)
    assert not torch.equal(got_base, x)  # the write happened


def test_a_call_of_a_declaration_is_an_error_naming_it():
    text = """
func.func private @ext(!torch.vtensor<[2,3],f32>) -> !torch.vtensor
func.func @main(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %0 = func.call @ext(%x) : (!torch.vtensor<[2,3],f32>) -> !torch.vtensor
  return %0 : !torch.vtensor
}
"""
    with pytest.raises(ExecutionError, match="@ext is a declaration"):
        torch_refine.execute(text, torch.ones(2, 3))


_PERMUTE_SUM = """
func.func @main(%x: !torch.vtensor<[?,3,4],f32>) -> !torch.vtensor<[?,4],f32> {
  %int-1 = torch.constant.int -1
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %false = torch.constant.bool false
  %none = torch.constant.none
  %dims = torch.prim.ListConstruct %int0, %int2, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.permute %x, %dims : !torch.vtensor<[?,3,4],f32>, !torch.list<int> -> !torch.vtensor<[?,4,3],f32>
  %last = torch.prim.ListConstruct %int-1 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.sum.dim_IntList %0, %last, %false, %none : !torch.vtensor<[?,4,3],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[?,4],f32>
  return %1 : !torch.vtensor<[?,4],f32>
}
"""


@pytest.mark.parametrize(("argument", "expected"), [
    (torch.randn(3, 4), r"@main argument 0 is !torch.vtensor<\[\?,3,4\],f32>; given a tensor of sizes \[3, 4\]"),
    (torch.randn(2, 3, 4, dtype=torch.float64), r"given a tensor of sizes \[2, 3, 4\] and dtype torch.float64"),
    (torch.randn(2, 4, 4), r"given a tensor of sizes \[2, 4, 4\]"),
])
def test_arguments_are_checked_against_the_signature_by_default(argument, expected):
    # Without the check a wrong-rank input runs deep into the program and fails in some op.
    with pytest.raises(ExecutionError, match=expected):
        torch_refine.execute(_PERMUTE_SUM, argument)
    torch.testing.assert_close(torch_refine.execute(_PERMUTE_SUM, torch.ones(5, 3, 4)), torch.full((5, 4), 3.0))


def test_input_checks_name_the_input_and_dim():
    class PermuteSum(torch.nn.Module):
        def forward(self, x, y):
            return x.permute(0, 2, 1).sum(-1) + y

    batch = torch.export.Dim("batch", min=2, max=32)
    shapes = ({0: batch}, {0: batch})
    for symbolic in (True, False):
        refined = torch_refine.export_and_import(PermuteSum(), torch.randn(2, 3, 4), torch.randn(2, 4),
                                                 dynamic_shapes=shapes, import_symbolic_shape_expressions=symbolic)
        with pytest.raises(ExecutionError, match=r"argument 0 \(x\) dim 0 is 40|input x \(%arg0\) dim 0 must be at most 32") as caught:
            torch_refine.execute(refined, torch.randn(40, 3, 4), torch.randn(40, 4))
        assert "loc(unknown)" not in str(caught.value)
        with pytest.raises(ExecutionError, match=r"argument 1 \(y\) is !torch.vtensor<\[\?,4\],f32>"):
            torch_refine.execute(refined, torch.randn(5, 3, 4), torch.randn(5, 3))
