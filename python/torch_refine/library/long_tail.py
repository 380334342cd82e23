"""Ops the meta fallback (meta_fallback.py) would serve, written out where it loses what a
function keeps: PyTorch's fake kernels for `im2col` (ConvBERT's unfold) and `kron`
specialize a dynamic size to their example value, so the fallback claims no size of them;
these functions give their sizes as expressions of the operands' sizes, and run in the
evaluator in microseconds.
"""

from typing import List, Optional, Tuple

import torch

from . import promotion
from .registry import dtype, shape
from .testing import ErrorInvocation, Invocation, TensorOfShape

_SWEEP = (torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32,
          torch.uint8, torch.bool, torch.complex64)


def _T(*sizes: int, dtype=torch.float32) -> TensorOfShape:
    return TensorOfShape(*sizes, dtype=dtype)


@shape("aten.im2col", invocations=[
    Invocation(_T(2, 3, 5, 5), [2, 2], [1, 1], [0, 0], [1, 1]),
    Invocation(_T(3, 5, 7), [2, 3], [1, 2], [1, 0], [2, 1]),
    Invocation(_T(0, 3, 5, 5), [2, 2], [1, 1], [0, 0], [1, 1]),
    Invocation(_T(1, 4, 8, 1), [3, 1], [1, 1], [1, 0], [2, 1]),
    Invocation(_T(2, 3, 5, 5), [2, 2], [1, 1], [-1, 0], [1, 1]),
    ErrorInvocation(_T(2, 3, 5, 5), [2], [1, 1], [0, 0], [1, 1]),
    ErrorInvocation(_T(2, 3, 5, 5), [2, 2], [1], [0, 0], [1, 1]),
    ErrorInvocation(_T(2, 3, 5, 5), [2, 2], [1, 1], [0], [1, 1]),
    ErrorInvocation(_T(2, 3, 5, 5), [2, 2], [1, 1], [0, 0], [1]),
    ErrorInvocation(_T(2, 3, 5, 5), [0, 2], [1, 1], [0, 0], [1, 1]),
    ErrorInvocation(_T(2, 3, 5, 5), [2, 2], [1, 0], [0, 0], [1, 1]),
    ErrorInvocation(_T(2, 3, 5, 5), [2, 2], [1, 1], [0, 0], [0, 1]),
    ErrorInvocation(_T(3, 5), [2, 2], [1, 1], [0, 0], [1, 1]),
    ErrorInvocation(_T(2, 0, 5, 5), [2, 2], [1, 1], [0, 0], [1, 1]),
    ErrorInvocation(_T(2, 3, 5, 5), [6, 2], [1, 1], [0, 0], [1, 1]),
])
def aten〇im2col〡shape(self: List[int], kernel_size: List[int], dilation: List[int], padding: List[int], stride: List[int]) -> List[int]:
    _check_im2col_parameters(kernel_size, dilation, padding, stride)
    if len(self) != 3 and len(self) != 4:
        raise AssertionError("Expected 3D or 4D (batch mode) tensor for input with possible 0 batch size "
                             "and non-zero dimensions, but got: {}")
    rank = len(self)
    for d in range(rank - 3, rank):
        if self[d] == 0:
            raise AssertionError("Expected 3D or 4D (batch mode) tensor for input with possible 0 batch size "
                                 "and non-zero dimensions, but got: {}")
    blocks = 1
    for i in range(2):
        count = (self[rank - 2 + i] + 2 * padding[i] - dilation[i] * (kernel_size[i] - 1) - 1) // stride[i] + 1
        if count <= 0:
            raise AssertionError("Given an input with spatial size {}, kernel_size={}, dilation={}, padding={}, "
                                 "stride={}, the calculated shape of the array of sliding blocks is {}, but its "
                                 "components must be at least one.")
        blocks = blocks * count
    columns = self[rank - 3] * kernel_size[0] * kernel_size[1]
    if rank == 4:
        return [self[0], columns, blocks]
    return [columns, blocks]


def _check_im2col_parameters(kernel_size: List[int], dilation: List[int], padding: List[int], stride: List[int]):
    if len(kernel_size) != 2:
        raise AssertionError("im2col(): only 2D kernel supported")
    if len(dilation) != 2:
        raise AssertionError("im2col(): only 2D dilation supported")
    if len(padding) != 2:
        raise AssertionError("im2col(): only 2D padding supported")
    if len(stride) != 2:
        raise AssertionError("im2col(): only 2D stride supported")
    for i in range(2):
        if kernel_size[i] <= 0:
            raise AssertionError("kernel_size should be greater than zero, but got {}")
        if dilation[i] <= 0:
            raise AssertionError("dilation should be greater than zero, but got {}")
        if stride[i] <= 0:
            raise AssertionError("stride should be greater than zero, but got {}")
    # (PyTorch's check of the padding reads the dilation: a negative padding passes.)


@dtype("aten.im2col", invocations=[
    Invocation(_T(1, 3, 5, 5, dtype=d), [2, 2], [1, 1], [0, 0], [1, 1]) for d in _SWEEP])
def aten〇im2col〡dtype(self_rank_dtype: Tuple[int, int], kernel_size: List[int], dilation: List[int], padding: List[int], stride: List[int]) -> int:
    return self_rank_dtype[1]


@shape("aten.kron", invocations=[
    Invocation(_T(2, 3), _T(4, 5)),
    Invocation(_T(2, 3), _T(4)),
    Invocation(_T(3), _T(2, 1)),
    Invocation(_T(), _T(2, 5)),
    Invocation(_T(), _T()),
    Invocation(_T(0, 3), _T(2, 5)),
    Invocation(_T(2, 1, 3), _T(4, 5)),
])
def aten〇kron〡shape(self: List[int], other: List[int]) -> List[int]:
    rank = max(len(self), len(other))
    result: List[int] = []
    for d in range(rank):
        a = self[d - rank + len(self)] if d - rank + len(self) >= 0 else 1
        b = other[d - rank + len(other)] if d - rank + len(other) >= 0 else 1
        result.append(a * b)
    return result


@dtype("aten.kron", invocations=[
    *[Invocation(_T(2, dtype=a), _T(3, dtype=b)) for a in _SWEEP for b in _SWEEP],
    Invocation(_T(dtype=torch.float64), _T(2, dtype=torch.float32)),
    Invocation(_T(2, dtype=torch.int64), _T(dtype=torch.float16)),
])
def aten〇kron〡dtype(self_rank_dtype: Tuple[int, int], other_rank_dtype: Tuple[int, int]) -> int:
    # Both operands are viewed at the same rank before they multiply: a 0-dim one promotes
    # as a dimensioned tensor.
    ranks: List[Optional[int]] = [1, 1]
    return promotion.promote_dtypes(ranks, [self_rank_dtype[1], other_rank_dtype[1]])
