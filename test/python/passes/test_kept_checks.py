"""Refined programs keep every check the library could not decide: run on valid input
they agree with PyTorch, and where PyTorch raises they raise too (issue 15). A check no
assert can state (one reading a loop's induction variable, a size only some ranks have)
is dropped with the claims it protects (issue 41): the op raises itself there."""

from __future__ import annotations

import pytest
import torch
from torch.utils._pytree import tree_map

import torch_refine
from torch_refine.api import RefinementError
from torch_refine.executor import ExecutionError
from torch_refine.library.testing import Invocation, TensorOfShape, build_ir, op_overload, unranked_at

AVG_POOL3D_UNRANKED = """
func.func @main(%x: !torch.vtensor<*,f32>) -> !torch.vtensor {
  %int2 = torch.constant.int 2
  %kernel = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %stride = torch.prim.ListConstruct  : () -> !torch.list<int>
  %int0 = torch.constant.int 0
  %padding = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none = torch.constant.none
  %0 = torch.aten.avg_pool3d %x, %kernel, %stride, %padding, %false, %true, %none : !torch.vtensor<*,f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}
"""

MASKED_SELECT_UNRANKED_MASK = """
func.func @main(%x: !torch.vtensor<[2,3],f32>, %mask: !torch.vtensor<*,i1>) -> !torch.vtensor {
  %0 = torch.aten.masked_select %x, %mask : !torch.vtensor<[2,3],f32>, !torch.vtensor<*,i1> -> !torch.vtensor
  return %0 : !torch.vtensor
}
"""

GATHER_DYNAMIC_DIM = """
func.func @main(%x: !torch.vtensor<[2,3],f32>, %index: !torch.vtensor<[?,4],si64>, %dim: !torch.int) -> !torch.vtensor {
  %false = torch.constant.bool false
  %0 = torch.aten.gather %x, %dim, %index, %false : !torch.vtensor<[2,3],f32>, !torch.int, !torch.vtensor<[?,4],si64>, !torch.bool -> !torch.vtensor
  return %0 : !torch.vtensor
}
"""

VIEW_ZERO_ELEMENTS_TO_INFERRED = """
func.func @main(%x: !torch.vtensor<[0,3],f32>) -> !torch.vtensor {
  %int-1 = torch.constant.int -1
  %int0 = torch.constant.int 0
  %size = torch.prim.ListConstruct %int-1, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %x, %size : !torch.vtensor<[0,3],f32>, !torch.list<int> -> !torch.vtensor
  return %0 : !torch.vtensor
}
"""

CAT_UNRANKED_FIRST = """
func.func @main(%a: !torch.vtensor<*,f32>, %b: !torch.vtensor<[4,3],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<*,f32>, !torch.vtensor<[4,3],f32>) -> !torch.list<vtensor>
  %r = torch.aten.cat %l, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor
  return %r : !torch.vtensor
}
"""

BATCH_NORM_UNRANKED = """
func.func @main(%x: !torch.vtensor<*,f32>, %c: !torch.vtensor<[4],f32>) -> !torch.vtensor {
  %false = torch.constant.bool false
  %momentum = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %r:3 = torch.aten.native_batch_norm %x, %c, %c, %c, %c, %false, %momentum, %eps : !torch.vtensor<*,f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.bool, !torch.float, !torch.float -> !torch.vtensor, !torch.vtensor, !torch.vtensor
  return %r#1 : !torch.vtensor
}
"""

MSE_LOSS_UNRANKED_TARGET = """
func.func @main(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<*,f32>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %r = torch.aten.mse_loss %a, %b, %int1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<*,f32>, !torch.int -> !torch.vtensor
  return %r : !torch.vtensor
}
"""


RESHAPE_BY_AN_ITEM = """
func.func @main(%x: !torch.vtensor<[?,4],f32>, %s: !torch.vtensor<[],si64>) -> !torch.vtensor {
  %int-1 = torch.constant.int -1
  %n = torch.aten.item %s : !torch.vtensor<[],si64> -> !torch.int
  %l = torch.prim.ListConstruct %n, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.reshape %x, %l : !torch.vtensor<[?,4],f32>, !torch.list<int> -> !torch.vtensor
  return %0 : !torch.vtensor
}
"""


KEPT_CHECK = r"^(torch\.runtime\.assert|torch\.prim\.RaiseException) "
OP_ITSELF = r"^'aten\.[\w.]+' at .*: its library function rejects these arguments"
EITHER = f"{KEPT_CHECK}|{OP_ITSELF}"


def _agrees_with_pytorch(module, reference, *args, raises=KEPT_CHECK) -> None:
    """Run the refined `module` and `reference` on `args`: both give a tensor of the same
    shape (the refined types checked against it), or both raise, the module where
    `raises` says: in a kept check before the op runs, or, for an op whose type claims
    nothing, in the op itself (the executor runs its library function first)."""
    try:
        expected = reference(*args)
    except (RuntimeError, IndexError):
        with pytest.raises(ExecutionError, match=raises):
            torch_refine.execute(module, *args, check_types=True)
        return
    got = torch_refine.execute(module, *args, check_types=True)
    if isinstance(expected, tuple):
        assert [g.shape for g in got] == [e.shape for e in expected]
    else:
        assert got.shape == expected.shape


@pytest.fixture(scope="module")
def avg_pool3d_refined():
    return torch_refine.refine(AVG_POOL3D_UNRANKED).module


@pytest.mark.parametrize(
    "shape", [(1, 2, 4, 4, 4), (2, 3, 3, 3), (1, 1, 2, 5, 7), (1, 2, 1, 4, 4), (1, 0, 4, 4, 4), (4, 4, 4)]
)
def test_avg_pool3d_of_unknown_rank_claims_nothing_and_keeps_no_check(avg_pool3d_refined, shape):
    # Its result stays unranked: no claim for a check to protect (docs/limitations.md).
    # (Its checks, kept once, read the pooled sizes appended to `input[:-3]`: without the
    # appends they read `input[:-3][-3]` and failed every valid input.)
    assert "torch.runtime.assert" not in str(avg_pool3d_refined)
    assert "-> !torch.vtensor<*,f32>" in str(avg_pool3d_refined)
    _agrees_with_pytorch(avg_pool3d_refined, lambda x: torch.ops.aten.avg_pool3d(x, [2]), torch.randn(*shape),
                         raises=OP_ITSELF)


@pytest.mark.parametrize("mask_shape", [(2, 3), (3,), (1, 2, 3), (4,), (2, 2)])
def test_masked_select_with_unranked_mask_drops_its_broadcast_check_with_its_claim(mask_shape):
    module = torch_refine.refine(MASKED_SELECT_UNRANKED_MASK).module
    # The broadcast check loops over the mask's dims: no assert states it, so the op
    # claims no shape it would protect, and raises itself where PyTorch does.
    assert "vtensor<[?],f32>" not in str(module)
    assert "torch.prim.Loop" not in str(module)
    mask = torch.rand(*mask_shape) > 0.5
    _agrees_with_pytorch(module, torch.masked_select, torch.randn(2, 3), mask, raises=OP_ITSELF)


@pytest.mark.parametrize(("rows", "size"), [(6, 3), (6, -1), (6, 12), (6, 4), (6, 5), (6, -2), (0, 3), (6, 0)])
def test_reshape_by_an_item_keeps_its_infer_size_checks_as_asserts(rows, size):
    # ONNX exports read sizes with aten.item: the infer-size's checks stay, as asserts of
    # int and bool ops (no prim.If, no prim.RaiseException), and fail where PyTorch raises.
    module = torch_refine.refine(RESHAPE_BY_AN_ITEM).module
    assert "torch.prim.If" not in str(module)
    assert "torch.prim.RaiseException" not in str(module)
    assert str(module).count("torch.runtime.assert") == 3
    _agrees_with_pytorch(module, lambda x, s: x.reshape(int(s), -1), torch.randn(rows, 4), torch.tensor(size))


@pytest.mark.parametrize(("rows", "dim"), [(2, 1), (1, -1), (3, 1), (2, 0), (1, -2)])
def test_gather_with_dynamic_dim_keeps_its_index_checks(rows, dim):
    module = torch_refine.refine(GATHER_DYNAMIC_DIM).module
    index = torch.zeros(rows, 4, dtype=torch.int64)
    _agrees_with_pytorch(module, lambda x, i, d: torch.gather(x, d, i), torch.randn(2, 3), index, dim)


def test_view_of_zero_elements_to_an_inferred_dim_fails_like_pytorch():
    with pytest.raises(RuntimeError):
        torch.empty(0, 3).view(-1, 0)
    with pytest.raises(RefinementError, match=r"'torch\.aten\.view' op shape check failed: ZeroDivision"):
        torch_refine.refine(VIEW_ZERO_ELEMENTS_TO_INFERRED)


# Checks of an operand of unknown rank, made small (ranks' ranges decide dim wrapping, the
# lists only a check's loop wrote are gone, one condition asserted once): still PyTorch's.


@pytest.mark.parametrize("shape", [(2, 3), (5, 3), (0,), (2, 4), (3,), (2, 3, 1), (0, 3)])
def test_cat_with_unranked_operand_keeps_the_checks_an_assert_states(shape):
    module = torch_refine.refine(CAT_UNRANKED_FIRST).module
    # Its rank is asserted; its dim 1's size only rank 2 lets an assert read: that check
    # is dropped with the claim it protects ([?,3]), and the op raises itself.
    assert "same number of dimensions" in str(module)
    assert "vtensor<[?,3],f32>" not in str(module)
    assert "out of range" not in str(module)  # dim 0 is in range for every rank of at least 1
    _agrees_with_pytorch(module, lambda a, b: torch.cat([a, b]), torch.randn(*shape), torch.randn(4, 3), raises=EITHER)


@pytest.mark.parametrize("shape", [(2, 4, 3), (2, 4), (1, 4, 2, 2), (2, 3, 3), (2, 1, 3), (4,)])
def test_batch_norm_of_unranked_input_checks_its_channels_once(shape):
    module = torch_refine.refine(BATCH_NORM_UNRANKED).module
    assert str(module).count("torch.runtime.assert") == 2  # a channel dim; its size, once
    assert "torch.prim.Loop" not in str(module)
    channels = torch.randn(4)

    def reference(x, c):  # meta's checks (the CPU kernel has none), the CPU kernel's shapes
        torch.ops.aten.native_batch_norm(*(t.to("meta") for t in (x, c, c, c, c)), False, 0.1, 1e-5)
        return torch.ops.aten.native_batch_norm(x, c, c, c, c, False, 0.1, 1e-5)[1]

    _agrees_with_pytorch(module, reference, torch.randn(*shape), channels)


@pytest.mark.parametrize("shape", [(2, 3), (3,), (1, 3), (4, 2, 3), (2, 1), (2, 2), (5, 2, 3)])
def test_broadcast_with_unranked_operand_drops_its_loop_with_its_claim(shape):
    module = torch_refine.refine(MSE_LOSS_UNRANKED_TARGET).module
    assert "torch.aten.append.t" not in str(module)
    assert "torch.prim.Loop" not in str(module)  # no library loop: the op raises itself
    _agrees_with_pytorch(module, lambda a, b: torch.ops.aten.mse_loss(a, b, 1), torch.randn(2, 3), torch.randn(*shape),
                         raises=OP_ITSELF)


# Checks the library states per dim (no list of the operand's sizes built), so an operand
# of unknown rank keeps a few comparisons: op, a call, which of its tensors (in argument
# order) is declared `*`, and that tensor's shapes at run time.
_T = TensorOfShape
_LSTM = Invocation(_T(7, 2, 3), [_T(1, 2, 5), _T(1, 2, 5)], [_T(20, 3), _T(20, 5), _T(20), _T(20)],
                   True, 1, 0.0, False, False, False)
_TRILINEAR = Invocation(_T(2, 4), _T(5, 4, 3), _T(2, 3), [1, 3], [0], [1, 2], [2, 3])
PER_DIM_CHECKS = [
    ("aten._trilinear", _TRILINEAR, 0, [(2, 4), (1, 4), (2, 1), (3, 4), (0, 4), (2, 4, 1), (2,)]),
    ("aten._trilinear", _TRILINEAR, 1,
     [(5, 4, 3), (1, 4, 3), (5, 4, 1), (5, 3, 3), (5, 4), (0, 4, 3), (5, 4, 3, 1), (5, 1, 3)]),
    ("aten._trilinear", _TRILINEAR, 2, [(2, 3), (2, 1), (1, 3), (3, 3), (2,), (0, 3), (2, 3, 1)]),
    # The CPU kernel reads a g of another shape than the norm's unchecked: the library
    # keeps meta's check and gives the kernel's shapes (docs/library.md).
    ("aten._weight_norm_interface", Invocation(_T(4, 3, 2), _T(4, 1, 1)), 1,
     [(4, 1, 1), (1, 1, 1), (4, 3, 2), (2, 4, 1, 1), (5, 1, 1), (1,), ()]),
    # The CPU kernel checks few sizes (it reads past a wrong input size): meta's checks.
    ("aten.lstm.input", _LSTM, 0, [(7, 2, 3), (7, 2, 4), (7, 1, 3), (0, 2, 3), (3,), (7, 2, 3, 1)]),
    ("aten.lstm.input", _LSTM, 5, [(20,), (1,), (), (5,), (2, 20)]),
    ("aten.lstm.input", _LSTM, 6, [(20,), (1,), (), (5,), (2, 20)]),
]


@pytest.mark.parametrize(("op", "invocation", "unranked", "shapes"), PER_DIM_CHECKS,
                         ids=[f"{case[0]}-{case[2]}" for case in PER_DIM_CHECKS])
def test_checks_of_an_unranked_operand_build_no_list(op, invocation, unranked, shapes):
    meta_checks = op != "aten._trilinear"
    module = torch_refine.refine(build_ir(op, invocation, unranked_at(unranked))).module
    assert "torch.aten.append.t" not in str(module)
    call = next(line for line in str(module).splitlines()
                if f"torch.{op} " in line or f'torch.operator "{op}"' in line)
    # Without a claim of sizes the op's own check may raise (its dtype's checks are kept).
    claims_sizes = "[" in call.rsplit("->", 1)[1]
    for shape in shapes:
        inputs = []

        def tensor_fn(tensor, shape=shape):
            sizes = shape if len(inputs) == unranked else tensor.shape
            inputs.append(torch.ones(sizes, dtype=tensor.dtype))
            return inputs[-1]

        args, _ = invocation.op_args(tensor_fn)
        kernel = op_overload(op)

        def reference(*_, args=args):
            if meta_checks:
                kernel(*tree_map(lambda a: a.to("meta") if isinstance(a, torch.Tensor) else a, args))
            return kernel(*args)

        _agrees_with_pytorch(module, reference, *inputs,
                             raises=KEPT_CHECK if claims_sizes else f"{KEPT_CHECK}|{OP_ITSELF}")
