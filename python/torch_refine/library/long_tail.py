"""Ops the meta fallback (meta_fallback.py) would serve, written out where it loses what a
function keeps: PyTorch's fake kernels for `im2col` (ConvBERT's unfold) and `kron`
specialize a dynamic size to their example value, so the fallback claims no size of them;
these functions give their sizes as expressions of the operands' sizes, and run in the
evaluator in microseconds.
"""

from typing import List, Optional, Tuple, Union

import torch
import torch.jit._shape_functions as upstream

from . import promotion
from .reductions import _reduce, _reduced_flags
from .registry import dtype, shape
from .testing import ErrorInvocation, Invocation, TensorOfShape

_SWEEP = (torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32,
          torch.uint8, torch.bool, torch.complex64)


def _T(*sizes: int, dtype=torch.float32) -> TensorOfShape:
    return TensorOfShape(*sizes, dtype=dtype)


def _L(*sizes: int) -> TensorOfShape:
    return TensorOfShape(*sizes, dtype=torch.int64)


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
    ErrorInvocation(_T(2, 3, 5, 5), [2, 0], [0, 1], [0, 0], [1, 0]),
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
    # Each list whole before the next, as PyTorch checks them (the first failing one is named).
    if kernel_size[0] <= 0 or kernel_size[1] <= 0:
        raise AssertionError("kernel_size should be greater than zero, but got {}")
    if dilation[0] <= 0 or dilation[1] <= 0:
        raise AssertionError("dilation should be greater than zero, but got {}")
    if stride[0] <= 0 or stride[1] <= 0:
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


# --- Ops the fallback serves but loses a relation of on dynamic dims, or serves slowly -------
# (docs/library.md, "Three ways an op is served": the fallback's sizes of diff, inner,
# tensordot and batched cdist are unknown on dynamic dims; the rest cost it a kernel run.)


@shape("aten.diff", invocations=[
    Invocation(_T(5, 4), 1, 0, None, None),
    Invocation(_T(5, 4), 2, -1, None, None),
    Invocation(_T(3, 4), 5, 0, None, None),
    Invocation(_T(3, 4), 0, 0, _T(2, 4), None),
    Invocation(_T(3, 4), 1, 0, _T(2, 4), _T(1, 4)),
    Invocation(_T(3, 4), 2, 1, None, _T(3, 2)),
    Invocation(_T(0, 4), 1, 0, None, None),
    ErrorInvocation(_T(), 1, 0, None, None),
    ErrorInvocation(_T(3, 4), -1, 0, None, None),
    ErrorInvocation(_T(3, 4), 1, 2, None, None),
    ErrorInvocation(_T(3, 4), 1, 0, _T(4), None),
    ErrorInvocation(_T(3, 4), 1, 0, _T(2, 5), None),
    ErrorInvocation(_T(3, 4), 1, 0, None, _T(2, 4, 1)),
    ErrorInvocation(_T(3, 4), 0, 0, _T(2, 5), None),
])
def aten〇diff〡shape(self: List[int], n: int = 1, dim: int = -1, prepend: Optional[List[int]] = None, append: Optional[List[int]] = None) -> List[int]:
    if len(self) == 0:
        raise AssertionError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise AssertionError("order must be non-negative but got {}")
    dim = upstream.maybe_wrap_dim(dim, len(self))
    size = self[dim] + _diff_extent(self, dim, prepend) + _diff_extent(self, dim, append)
    result = upstream._copy(self)
    if n == 0:  # the input itself, whatever is prepended or appended
        return result
    result[dim] = size - n if n < size else 0
    return result


def _diff_extent(self: List[int], dim: int, other: Optional[List[int]]) -> int:
    """What a prepended or appended tensor adds along `dim`."""
    if other is None:
        return 0
    if len(other) != len(self):
        raise AssertionError("diff expects prepend or append to be the same dimension as input")
    for d in range(len(self)):
        if d != dim and other[d] != self[d]:
            raise AssertionError("diff expects the shape of tensor to prepend or append to match that of "
                                 "input except along the differencing dimension")
    return other[dim]


@dtype("aten.diff", invocations=[
    *[Invocation(_T(3, 4, dtype=d), 1, 0, None, None) for d in _SWEEP],
    Invocation(_T(3, 4), 1, 0, _T(2, 4, dtype=torch.float64), None),
    Invocation(_T(3, 4, dtype=torch.int64), 1, 0, _T(2, 4, dtype=torch.float16), None),
    Invocation(_T(3, 4, dtype=torch.bool), 1, 0, _T(1, 4, dtype=torch.int64), None),
    Invocation(_T(3, 4, dtype=torch.int32), 1, 0, None, _T(1, 4, dtype=torch.uint8)),
    Invocation(_T(3, 4, dtype=torch.int32), 0, 0, _T(1, 4, dtype=torch.float32), None),
])
def aten〇diff〡dtype(self_rank_dtype: Tuple[int, int], n: int = 1, dim: int = -1, prepend_rank_dtype: Optional[Tuple[int, int]] = None, append_rank_dtype: Optional[Tuple[int, int]] = None) -> int:
    # prepend, self and append are concatenated (cat promotes), then differenced; n == 0
    # gives the input itself.
    if n == 0:
        return self_rank_dtype[1]
    ranks: List[Optional[int]] = [self_rank_dtype[0]]
    dtypes = [self_rank_dtype[1]]
    if prepend_rank_dtype is not None:
        ranks.append(prepend_rank_dtype[0])
        dtypes.append(prepend_rank_dtype[1])
    if append_rank_dtype is not None:
        ranks.append(append_rank_dtype[0])
        dtypes.append(append_rank_dtype[1])
    return promotion.promote_dtypes(ranks, dtypes)


@shape("aten.inner", invocations=[
    Invocation(_T(2, 3), _T(4, 3)),
    Invocation(_T(3), _T(3)),
    Invocation(_T(2, 5, 3), _T(3)),
    Invocation(_T(), _T(4, 2)),
    Invocation(_T(4, 2), _T()),
    Invocation(_T(0, 3), _T(2, 3)),
    ErrorInvocation(_T(2, 3), _T(4, 2)),
    ErrorInvocation(_T(3), _T(1)),
])
def aten〇inner〡shape(self: List[int], other: List[int]) -> List[int]:
    if len(self) == 0:
        return upstream._copy(other)
    if len(other) == 0:
        return upstream._copy(self)
    if self[-1] != other[-1]:
        raise AssertionError("inner() the last dimension must match on both input tensors but got shapes {} and {}")
    return self[:-1] + other[:-1]


@dtype("aten.inner", invocations=[
    *[Invocation(_T(2, 3, dtype=d), _T(4, 3, dtype=d)) for d in _SWEEP if d != torch.bool],
    Invocation(_T(dtype=torch.float64), _T(4, 2, dtype=torch.int64)),
    Invocation(_T(4, 2, dtype=torch.int64), _T(dtype=torch.float16)),
    ErrorInvocation(_T(2, 3), _T(4, 3, dtype=torch.float64)),
])
def aten〇inner〡dtype(self_rank_dtype: Tuple[int, int], other_rank_dtype: Tuple[int, int]) -> int:
    # A 0-dim operand multiplies (promoting); otherwise the matrix product needs one dtype.
    if self_rank_dtype[0] == 0 or other_rank_dtype[0] == 0:
        ranks: List[Optional[int]] = [self_rank_dtype[0], other_rank_dtype[0]]
        return promotion.promote_dtypes(ranks, [self_rank_dtype[1], other_rank_dtype[1]])
    if self_rank_dtype[1] != other_rank_dtype[1]:
        raise AssertionError("both inputs should have same dtype")
    return self_rank_dtype[1]


@shape("aten.tensordot", invocations=[
    Invocation(_T(2, 3, 4), _T(3, 4, 5), [1, 2], [0, 1]),
    Invocation(_T(2, 3, 4), _T(3, 4, 5), [-2, -1], [0, 1]),
    Invocation(_T(2, 1, 4), _T(3, 4, 5), [1, 2], [0, 1]),
    Invocation(_T(2, 3, 4), _T(1, 4, 5), [1, 2], [0, 1]),
    Invocation(_T(2, 3), _T(3, 4), [], []),
    Invocation(_T(4, 3), _T(5, 4), [0], [1]),
    Invocation(_T(0, 3), _T(3, 0), [1], [0]),
    ErrorInvocation(_T(2, 3, 4), _T(2, 4, 5), [1, 2], [0, 1]),
    ErrorInvocation(_T(2, 3, 4), _T(3, 4, 5), [1, 2], [0]),
    ErrorInvocation(_T(2, 3, 3), _T(3, 3, 5), [1, 1], [0, 1]),
    ErrorInvocation(_T(2, 3, 3), _T(3, 3, 5), [1, 2], [0, 0]),
    ErrorInvocation(_T(2, 3), _T(3, 4), [2], [0]),
])
def aten〇tensordot〡shape(self: List[int], other: List[int], dims_self: List[int], dims_other: List[int]) -> List[int]:
    if len(dims_self) != len(dims_other):
        raise AssertionError("both dimension lists should have same length")
    contracted_self = _contracted(self, dims_self)
    contracted_other = _contracted(other, dims_other)
    for i in range(len(dims_self)):
        a = self[upstream.maybe_wrap_dim(dims_self[i], len(self))]
        b = other[upstream.maybe_wrap_dim(dims_other[i], len(other))]
        if a != b and a != 1 and b != 1:
            raise AssertionError("contracted dimensions need to match, but first has size {} in dim {} and "
                                 "second has size {} in dim {}")
    result: List[int] = []
    for d in range(len(self)):
        if not contracted_self[d]:
            result.append(self[d])
    for d in range(len(other)):
        if not contracted_other[d]:
            result.append(other[d])
    return result


def _contracted(sizes: List[int], dims: List[int]) -> List[bool]:
    """Per dim of `sizes` (a 0-dim tensor has one), whether `dims` names it; each dim in range
    and named once."""
    flags: List[bool] = [False for _ in range(max(len(sizes), 1))]
    for d in dims:
        wrapped = upstream.maybe_wrap_dim(d, len(sizes))
        if flags[wrapped]:
            raise AssertionError("dim {} appears multiple times in the list of dims")
        flags[wrapped] = True
    return flags


@dtype("aten.tensordot", invocations=[
    *[Invocation(_T(2, 3, dtype=d), _T(3, 4, dtype=d), [1], [0]) for d in _SWEEP if d != torch.bool],
    ErrorInvocation(_T(2, 3), _T(3, 4, dtype=torch.float64), [1], [0]),
])
def aten〇tensordot〡dtype(self_rank_dtype: Tuple[int, int], other_rank_dtype: Tuple[int, int], dims_self: List[int], dims_other: List[int]) -> int:
    if self_rank_dtype[1] != other_rank_dtype[1]:
        raise AssertionError("both inputs should have same dtype")
    return self_rank_dtype[1]


@shape("aten.cdist", invocations=[
    Invocation(_T(5, 3), _T(4, 3), 2.0, None),
    Invocation(_T(2, 1, 5, 3), _T(6, 4, 3), 2.0, None),
    Invocation(_T(5, 0), _T(4, 0), 1.0, 0),
    Invocation(_T(0, 3), _T(4, 3), 0.0, 2),
    ErrorInvocation(_T(3), _T(4, 3), 2.0, None),
    ErrorInvocation(_T(5, 3), _T(3), 2.0, None),
    ErrorInvocation(_T(5, 3), _T(4, 2), 2.0, None),
    ErrorInvocation(_T(5, 3), _T(4, 3), -1.0, None),
    ErrorInvocation(_T(5, 3), _T(4, 3), 2.0, 3),
    ErrorInvocation(_T(2, 5, 3), _T(3, 4, 3), 2.0, None),
])
def aten〇cdist〡shape(x1: List[int], x2: List[int], p: float = 2., compute_mode: Optional[int] = None) -> List[int]:
    if len(x1) < 2:
        raise AssertionError("cdist only supports at least 2D tensors, X1 got: {}D")
    if len(x2) < 2:
        raise AssertionError("cdist only supports at least 2D tensors, X2 got: {}D")
    if x1[-1] != x2[-1]:
        raise AssertionError("X1 and X2 must have the same number of columns. X1: {} X2: {}")
    if p < 0:
        raise AssertionError("cdist only supports non-negative p values")
    if compute_mode is not None and (compute_mode < 0 or compute_mode > 2):
        raise AssertionError("possible modes: None, 0, 1, 2, but was: {}")
    return upstream.broadcast(x1[:-2], x2[:-2]) + [x1[-2], x2[-2]]


@dtype("aten.cdist", invocations=[
    *[Invocation(_T(5, 3, dtype=d), _T(4, 3, dtype=d), 2.0, None)
      for d in (torch.float32, torch.float64, torch.float16, torch.bfloat16)],
    Invocation(_T(5, 3), _T(4, 3, dtype=torch.float64), 2.0, None),
    ErrorInvocation(_T(5, 3, dtype=torch.int64), _T(4, 3, dtype=torch.int64), 2.0, None),
    ErrorInvocation(_T(5, 3, dtype=torch.complex64), _T(4, 3, dtype=torch.complex64), 2.0, None),
])
def aten〇cdist〡dtype(x1_rank_dtype: Tuple[int, int], x2_rank_dtype: Tuple[int, int], p: float = 2., compute_mode: Optional[int] = None) -> int:
    # The meta kernel reads x1's dtype alone (the CPU kernel also asks x2's to be the same).
    if not promotion.is_float_dtype(x1_rank_dtype[1]):
        raise AssertionError("cdist only supports floating-point dtypes, X1 got: {}")
    return x1_rank_dtype[1]


def _index_count(index: List[int]) -> int:
    """How many indices an index_add/index_copy index holds (a vector or a scalar)."""
    if len(index) > 1:
        raise AssertionError("Index should have dimension 1 or 0 (got {})")
    return index[0] if len(index) == 1 else 1


@shape("aten.index_add", invocations=[
    Invocation(_T(5, 3), 0, _L(2), _T(2, 3)),
    Invocation(_T(5, 3), -1, _L(2), _T(5, 2), alpha=2),
    Invocation(_T(5, 3), 0, _L(), _T(1, 3)),
    Invocation(_T(5), 0, _L(1), _T()),
    Invocation(_T(), 0, _L(1), _T()),
    Invocation(_T(0, 3), 0, _L(0), _T(0, 3)),
    ErrorInvocation(_T(5, 3), 0, _L(2, 1), _T(2, 3)),
    ErrorInvocation(_T(5, 3), 0, _L(3), _T(2, 3)),
    ErrorInvocation(_T(5, 3), 2, _L(2), _T(2, 3)),
])
def aten〇index_add〡shape(self: List[int], dim: int, index: List[int], source: List[int], alpha: float = 1) -> List[int]:
    # The meta kernel checks only the index against the source (the CPU kernel also checks
    # dtypes, ranks and the other dims); the library follows it.
    dim = upstream.maybe_wrap_dim(dim, len(self))
    count = _index_count(index)
    along = source[upstream.maybe_wrap_dim(dim, len(source))] if len(source) > 0 else 1
    if count != along:
        raise AssertionError("Number of indices ({}) should be equal to tensor.size(dim) ({}), for dim={}")
    return upstream._copy(self)


@shape("aten.index_copy", invocations=[
    Invocation(_T(5, 3), 0, _L(2), _T(2, 3)),
    Invocation(_T(5, 3), -1, _L(2), _T(5, 2)),
    Invocation(_T(5, 3), 0, _L(), _T(1, 3)),
    Invocation(_T(5), 0, _L(1), _T()),
    Invocation(_T(), 0, _L(1), _T(1)),
    ErrorInvocation(_T(5, 3), 0, _L(2, 1), _T(2, 3)),
    ErrorInvocation(_T(5, 3), 0, _L(3), _T(2, 3)),
    ErrorInvocation(_T(5, 3), 0, _L(2), _T(2)),
    ErrorInvocation(_T(5, 3), 0, _L(2), _T(2, 4)),
    ErrorInvocation(_T(5, 3), 2, _L(2), _T(2, 3)),
])
def aten〇index_copy〡shape(self: List[int], dim: int, index: List[int], source: List[int]) -> List[int]:
    dim = upstream.maybe_wrap_dim(dim, len(self))
    count = _index_count(index)
    if len(source) > 0 and len(self) > 0:
        if len(source) != len(self):
            raise AssertionError("index_copy_(): When source and destination are not scalars, their "
                                 "dimensionality must match.")
        for d in range(len(self)):
            if d != dim and source[d] != self[d]:
                raise AssertionError("index_copy_(): Source/destination tensor must have same slice shapes.")
    along = source[dim] if len(source) > 0 and len(self) > 0 else 1
    if count != along:
        raise AssertionError("index_copy_(): Number of indices ({}) should be equal to source.size(dim) ({})")
    return upstream._copy(self)


@dtype("aten.index_add", invocations=[
    *[Invocation(_T(5, 3, dtype=d), 0, _L(2), _T(2, 3, dtype=d)) for d in _SWEEP]])
def aten〇index_add〡dtype(self_rank_dtype: Tuple[int, int], dim: int, index_rank_dtype: Tuple[int, int], source_rank_dtype: Tuple[int, int], alpha: Union[int, float, complex] = 1) -> int:
    return self_rank_dtype[1]


@dtype("aten.index_copy", invocations=[
    *[Invocation(_T(5, 3, dtype=d), 0, _L(2), _T(2, 3, dtype=d)) for d in _SWEEP]])
def aten〇index_copy〡dtype(self_rank_dtype: Tuple[int, int], dim: int, index_rank_dtype: Tuple[int, int], source_rank_dtype: Tuple[int, int]) -> int:
    return self_rank_dtype[1]


@shape("aten.logsumexp", invocations=[
    Invocation(_T(2, 3), [1], False),
    Invocation(_T(2, 3, 4), [0, -1], True),
    Invocation(_T(2, 3), [], False),
    Invocation(_T(), [0], False),
    Invocation(_T(0, 3), [0], False),
    ErrorInvocation(_T(2, 3), [1, 1], False),
    ErrorInvocation(_T(2, 3), [2], False),
])
def aten〇logsumexp〡shape(self: List[int], dim: List[int], keepdim: bool = False) -> List[int]:
    if len(dim) == 0:  # the meta kernel's: every dim kept as 1 (the CPU kernel raises)
        return [1 for _ in self]
    return _reduce(self, _reduced_flags(self, dim), keepdim)


@dtype("aten.logsumexp", invocations=[Invocation(_T(2, 3, dtype=d), [1], False) for d in _SWEEP])
def aten〇logsumexp〡dtype(self_rank_dtype: Tuple[int, int], dim: List[int], keepdim: bool = False) -> int:
    return promotion.apply_promotion_kind(promotion.INT_TO_FLOAT, self_rank_dtype[1])


@shape("aten.movedim.intlist", invocations=[
    Invocation(_T(2, 3, 4), [0, 1], [2, 0]),
    Invocation(_T(2, 3, 4), [-1], [0]),
    Invocation(_T(2, 3, 4), [], []),
    Invocation(_T(), [0], [0]),
    ErrorInvocation(_T(2, 3, 4), [0, 0], [2, 1]),
    ErrorInvocation(_T(2, 3, 4), [0, 1], [2, 2]),
    ErrorInvocation(_T(2, 3, 4), [0, 1], [2]),
    ErrorInvocation(_T(2, 3, 4), [3], [0]),
])
def aten〇movedim〇intlist〡shape(self: List[int], source: List[int], destination: List[int]) -> List[int]:
    if len(source) != len(destination):
        raise AssertionError("movedim: Invalid source or destination dims: source ({} dims) should contain the "
                             "same number of dims as destination ({} dims)")
    _contracted(self, source)  # each dim in range, none repeated
    _contracted(self, destination)
    return upstream._copy(upstream.movedim(self, source, destination))


@dtype("aten.movedim.intlist", invocations=[*[Invocation(_T(2, 3, dtype=d), [0], [1]) for d in _SWEEP]])
def aten〇movedim〇intlist〡dtype(self_rank_dtype: Tuple[int, int], source: List[int], destination: List[int]) -> int:
    return self_rank_dtype[1]  # a view: without a dtype function the meta fallback imported torch for it


@shape("aten.cummax", "aten.cummin", invocations=[
    Invocation(_T(2, 3), 1),
    Invocation(_T(2, 3), -2),
    Invocation(_T(), 0),
    Invocation(_T(), 3),
    Invocation(_T(0, 3), 0),
    Invocation(_T(0), 1),
    ErrorInvocation(_T(2, 3), 2),
    ErrorInvocation(_T(3), -2),
])
def aten〇cummax〡shape(self: List[int], dim: int) -> Tuple[List[int], List[int]]:
    # The meta kernel checks the dim only of a tensor with elements and dims.
    if len(self) != 0 and upstream.numel(self) != 0:
        upstream.maybe_wrap_dim(dim, len(self))
    return upstream._copy(self), upstream._copy(self)


@dtype("aten.cummax", "aten.cummin", invocations=[Invocation(_T(2, 3, dtype=d), 1) for d in _SWEEP])
def aten〇cummax〡dtype(self_rank_dtype: Tuple[int, int], dim: int) -> Tuple[int, int]:
    return self_rank_dtype[1], 4


_MEDIAN_CASES = [
    Invocation(_T(2, 3), 1, False),
    Invocation(_T(2, 3), -1, True),
    Invocation(_T(), 0, True),
    Invocation(_T(0, 3), 0, False),
    Invocation(_T(0, 3), 1, False),
    ErrorInvocation(_T(2, 3), 2, False),
]


@shape("aten.median.dim", "aten.nanmedian.dim", invocations=_MEDIAN_CASES)
def aten〇median〇dim〡shape(self: List[int], dim: int, keepdim: bool = False) -> Tuple[List[int], List[int]]:
    # The meta kernels reduce a dim of size 0 too (the CPU kernels raise).
    out = _reduce(self, _reduced_flags(self, [dim]), keepdim)
    return out, out


@dtype("aten.median.dim", "aten.nanmedian.dim", invocations=[
    Invocation(_T(2, 3, dtype=d), 1, False) for d in _SWEEP])
def aten〇median〇dim〡dtype(self_rank_dtype: Tuple[int, int], dim: int, keepdim: bool = False) -> Tuple[int, int]:
    return self_rank_dtype[1], 4


@shape("aten.mode", invocations=[*_MEDIAN_CASES, Invocation(_T(2, 3))])
def aten〇mode〡shape(self: List[int], dim: int = -1, keepdim: bool = False) -> Tuple[List[int], List[int]]:
    return aten〇median〇dim〡shape(self, dim, keepdim)


@dtype("aten.mode", invocations=[Invocation(_T(2, 3, dtype=d)) for d in _SWEEP])
def aten〇mode〡dtype(self_rank_dtype: Tuple[int, int], dim: int = -1, keepdim: bool = False) -> Tuple[int, int]:
    return self_rank_dtype[1], 4


@shape("aten.searchsorted.Tensor", invocations=[
    Invocation(_T(5), _T(3)),
    Invocation(_T(5), _T(3, 4)),
    Invocation(_T(2, 5), _T(2, 3)),
    Invocation(_T(5), _T()),
    Invocation(_T(), _T(3)),
    Invocation(_T(5), _T(3), out_int32=True, right=True, side="right"),
    Invocation(_T(5), _T(3), side="right"),
    Invocation(_T(0), _T(0), side="left", sorter=_L(0)),
    Invocation(_T(5), _T(3), sorter=_L(5)),
    ErrorInvocation(_T(2, 5), _T(3, 3)),
    ErrorInvocation(_T(2, 5), _T(3)),
    ErrorInvocation(_T(2, 5), _T()),
    ErrorInvocation(_T(5), _T(3), right=True, side="left"),
    ErrorInvocation(_T(5), _T(3), sorter=_L(4)),
])
def aten〇searchsorted〇Tensor〡shape(sorted_sequence: List[int], self: List[int], out_int32: bool = False, right: bool = False, side: Optional[str] = None, sorter: Optional[List[int]] = None) -> List[int]:
    _check_searchsorted(sorted_sequence, self, right, side, sorter)
    return upstream._copy(self)


def _check_searchsorted(boundaries: List[int], values: List[int], right: bool, side: Optional[str], sorter: Optional[List[int]]):
    if side is not None and side == "left" and right:
        raise AssertionError("torch.searchsorted(): side and right can't be set to opposites, got side of {} "
                             "while right was {}")
    if sorter is not None and sorter != boundaries:
        raise AssertionError("torch.searchsorted(): boundary and sorter must have the same size, but got "
                             "boundary tensor {} and got sorter tensor {}")
    if len(boundaries) <= 1:
        return
    if len(values) != len(boundaries) or boundaries[:-1] != values[:-1]:
        raise AssertionError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                             "dimensions of boundaries tensor and input value tensor must match")


@dtype("aten.searchsorted.Tensor", invocations=[
    *[Invocation(_T(5, dtype=d), _T(3, dtype=d)) for d in _SWEEP],
    Invocation(_T(5), _T(3), out_int32=True),
])
def aten〇searchsorted〇Tensor〡dtype(sorted_sequence_rank_dtype: Tuple[int, int], self_rank_dtype: Tuple[int, int], out_int32: bool = False, right: bool = False, side: Optional[str] = None, sorter_rank_dtype: Optional[Tuple[int, int]] = None) -> int:
    return 3 if out_int32 else 4


@shape("aten.bucketize.Scalar", invocations=[
    Invocation(2.0, _T(5)),
    Invocation(2, _T(5, dtype=torch.int64), out_int32=True),
    Invocation(2.0, _T(2, 5)),
])
def aten〇bucketize〇Scalar〡shape(self: float, boundaries: List[int], out_int32: bool = False, right: bool = False) -> List[int]:
    return []


@dtype("aten.bucketize.Scalar", invocations=[
    Invocation(2.0, _T(5)),
    Invocation(2, _T(5, dtype=torch.int64), out_int32=True),
    Invocation(True, _T(5, dtype=torch.bool)),
])
def aten〇bucketize〇Scalar〡dtype(self: Union[int, float, complex], boundaries_rank_dtype: Tuple[int, int], out_int32: bool = False, right: bool = False) -> int:
    return 3 if out_int32 else 4
