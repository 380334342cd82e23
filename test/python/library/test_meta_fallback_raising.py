"""The meta fallback where PyTorch's kernel raises at the example sizes of dynamic dims
(library/meta_fallback.py `_off_the_path`), against PyTorch on CPU tensors: a kernel
that raises at every size is an error at the op; one that runs in a few cases of pinned
sizes asserts that it is one of them; one that fails only on symbolic sizes stays unknown.
Programs refine as the fuzzer does (the default broadcast rule, PyTorch's meaning at every size).
"""

from __future__ import annotations

import re

import pytest
import torch

from torch_refine.api import RefinementError, refine
from torch_refine.executor import execute
from torch_refine.library.testing import pytorch_infos, result_infos

VSTACK = """
func.func @main(%arg0: !torch.vtensor<[3],f32>, %arg1: !torch.vtensor<[?],f32>) -> !torch.vtensor {
  %0 = torch.prim.ListConstruct %arg0, %arg1 : (!torch.vtensor<[3],f32>, !torch.vtensor<[?],f32>) -> !torch.list<vtensor>
  %1 = torch.operator "aten.vstack"(%0) : (!torch.list<vtensor>) -> !torch.vtensor
  return %1 : !torch.vtensor
}
"""

HUBER_LOSS = """
func.func @main(%arg0: !torch.vtensor<[?,3],f32>, %arg1: !torch.vtensor<[4,3],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %float = torch.constant.float 5.000000e-01
  %0 = torch.operator "aten.huber_loss"(%arg0, %arg1, %int0, %float) : (!torch.vtensor<[?,3],f32>, !torch.vtensor<[4,3],f32>, !torch.int, !torch.float) -> !torch.vtensor
  return %0 : !torch.vtensor
}
"""

# A stride's `Max(1, s) > 1` on the path to the raise is `s > 1`.
FLOAT_POWER = """
func.func @main(%arg0: !torch.vtensor<[4,?],f32>, %arg1: !torch.vtensor<[3],f32>) -> !torch.vtensor {
  %0 = torch.aten.float_power.Tensor_Tensor %arg0, %arg1 : !torch.vtensor<[4,?],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}
"""

MOVEAXIS = """
func.func @main(%arg0: !torch.vtensor<[?,3,5],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %big = torch.constant.int 4611686018427387904
  %0 = torch.prim.ListConstruct %int0, %big : (!torch.int, !torch.int) -> !torch.list<int>
  %int2 = torch.constant.int 2
  %1 = torch.prim.ListConstruct %int2, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %2 = torch.operator "aten.moveaxis.intlist"(%arg0, %0, %1) : (!torch.vtensor<[?,3,5],f32>, !torch.list<int>, !torch.list<int>) -> !torch.vtensor
  return %2 : !torch.vtensor
}
"""

# atleast_3d makes [2,3,1] and [1,a,1]: dim 0 differs whatever a is.
DSTACK = """
func.func @main(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[?],f32>) -> !torch.vtensor {
  %0 = torch.prim.ListConstruct %arg0, %arg1 : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[?],f32>) -> !torch.list<vtensor>
  %1 = torch.operator "aten.dstack"(%0) : (!torch.list<vtensor>) -> !torch.vtensor
  return %1 : !torch.vtensor
}
"""

# PyTorch's fake kernel fails on a symbolic last dim for a reason of its own (it modifies
# sizes of a tensor subclass), at every size but its own check's (a last dim of 1).
FFT_IRFFT2 = """
func.func @main(%arg0: !torch.vtensor<[2,4,?],complex<f32>>) -> !torch.vtensor {
  %none = torch.constant.none
  %int-2 = torch.constant.int -2
  %int-1 = torch.constant.int -1
  %0 = torch.prim.ListConstruct %int-2, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.operator "aten.fft_irfft2"(%arg0, %none, %0, %none) : (!torch.vtensor<[2,4,?],complex<f32>>, !torch.none, !torch.list<int>, !torch.none) -> !torch.vtensor
  return %1 : !torch.vtensor
}
"""


def _refined(text: str):
    return refine(text).module


def _run(module, *shapes, dtype=torch.float32) -> str | None:
    """The refined program on tensors of `shapes`: None, or its error's first line."""
    try:
        execute(module, *(torch.ones(shape, dtype=dtype) for shape in shapes), allow_side_effects=True)
    except Exception as error:
        return str(error).strip().splitlines()[0]
    return None


def _pytorch_raises(call) -> bool:
    try:
        call()
    except (RuntimeError, IndexError, ValueError):
        return True
    return False


@pytest.mark.parametrize(("text", "op", "call"), [
    (MOVEAXIS, "aten.moveaxis.intlist", lambda n: torch.moveaxis(torch.ones(n, 3, 5), [0, 2**62], [2, 0])),
    (DSTACK, "aten.dstack", lambda n: torch.dstack([torch.ones(2, 3), torch.ones(n)])),
], ids=["moveaxis", "dstack"])
def test_a_kernel_raising_at_every_size_is_an_error_at_the_op(text, op, call):
    assert all(_pytorch_raises(lambda n=n: call(n)) for n in (0, 1, 2, 3, 31))
    with pytest.raises(RefinementError) as failure:
        _refined(text)
    located = re.search(r"^\S+:\d+:\d+: error: 'torch.operator' op meta kernel check of (\S+) failed",
                        failure.value.diagnostics, re.M)
    assert located is not None, failure.value.diagnostics
    assert located[1] == op


def test_one_case_where_the_kernel_runs_is_asserted():
    module = _refined(VSTACK)
    assert [info.text() for info in result_infos(module)] == ["!torch.vtensor<[2,3],f32>"]
    assert _run(module, (3,), (3,)) is None
    for size in (1, 4):
        assert _pytorch_raises(lambda size=size: torch.vstack([torch.ones(3), torch.ones(size)]))
        assert _run(module, (3,), (size,)).startswith("torch.runtime.assert failed")


@pytest.mark.parametrize(("text", "valid", "invalid", "call"), [
    (HUBER_LOSS, (1, 4), (0, 2, 5), lambda n: torch.ops.aten.huber_loss(torch.ones(n, 3), torch.ones(4, 3), 0, 0.5)),
    (FLOAT_POWER, (1, 3), (0, 2, 4), lambda n: torch.float_power(torch.ones(4, n), torch.ones(3))),
], ids=["huber_loss", "float_power"])
def test_several_cases_where_the_kernel_runs_are_asserted_as_one_of_them(text, valid, invalid, call):
    module = _refined(text)
    shapes = {HUBER_LOSS: lambda n: ((n, 3), (4, 3)), FLOAT_POWER: lambda n: ((4, n), (3,))}[text]
    for size in valid:
        assert _run(module, *shapes(size)) is None
        assert [info.text() for info in result_infos(module)] == [t.text() for t in pytorch_infos(call(size), True)]
    for size in invalid:
        assert _pytorch_raises(lambda size=size: call(size))
        assert _run(module, *shapes(size)).startswith("torch.runtime.assert failed")


def test_a_kernel_failing_only_on_symbolic_sizes_stays_unknown():
    """Not an error: PyTorch accepts the op at most sizes."""
    operand = torch.ones(2, 4, 3, dtype=torch.complex64)
    assert torch.fft.irfft2(operand).shape == (2, 4, 4)
    module = _refined(FFT_IRFFT2)
    assert result_infos(module)[0] is None or result_infos(module)[0].sizes is None
