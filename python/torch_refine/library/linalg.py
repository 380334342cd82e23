"""Linear algebra: matrix products, distances and FFTs.

Dtype rules follow what PyTorch computes on meta tensors, which is looser than some CPU
kernels: `mm` and a matmul that folds to `mm` keep the first operand's dtype whatever the
second one is, `mv` and `addmm` promote, and the batched products require equal dtypes.
"""

import itertools
from typing import List, Optional, Tuple, Union

import torch
import torch.jit._shape_functions as upstream

from ._helpers import rank_dtype_lists
from .promotion import is_complex_dtype, is_float_dtype, promote_dtypes
from .registry import dtype, shape
from .testing import ErrorInvocation, Invocation, TensorOfShape

_SWEEP = (
    torch.uint8, torch.int32, torch.int64, torch.float16, torch.bfloat16,
    torch.float32, torch.float64, torch.bool, torch.complex64,
)
_FLOAT_SWEEP = (torch.float16, torch.bfloat16, torch.float32, torch.float64)


def _pairs(make, dtypes=_SWEEP) -> List[Invocation]:
    """One invocation per ordered pair of dtypes, built by `make(a, b)`."""
    return [make(a, b) for a, b in itertools.product(dtypes, dtypes)]


def _T(*sizes, dtype=torch.float32):  # noqa: N802 (reads like a type)
    return TensorOfShape(*sizes, dtype=dtype)


# ---------------------------------------------------------------------------- helpers


def _check_same_dtype(op: str, a: int, b: int) -> None:
    if a != b:
        raise AssertionError(op + ": expected both operands to have the same dtype")


def _promote_all(dtypes: List[int]) -> int:
    ranks: List[Optional[int]] = []
    for _ in range(len(dtypes)):
        ranks.append(1)
    return promote_dtypes(ranks, dtypes)


def _matmul_dtype(self_rank: int, self_dtype: int, other_rank: int, other_dtype: int) -> int:
    """matmul dispatches on ranks: dot and batched products require equal dtypes, `mv`
    promotes, and a product that folds into `mm` keeps the first operand's dtype."""
    if self_rank == 1 and other_rank == 1:
        _check_same_dtype("matmul", self_dtype, other_dtype)
        return self_dtype
    if other_rank == 1:
        return _promote_all([self_dtype, other_dtype])
    if other_rank == 2:
        return self_dtype
    _check_same_dtype("matmul", self_dtype, other_dtype)
    return self_dtype


# ---------------------------------------------------------------------------- mm, bmm


@shape("aten.mm", invocations=[
    Invocation(_T(2, 3), _T(3, 4)),
    Invocation(_T(0, 3), _T(3, 4)),
    Invocation(_T(2, 0), _T(0, 4)),
    ErrorInvocation(_T(2, 3), _T(4, 5)),
    ErrorInvocation(_T(2, 3, 1), _T(3, 4)),
    ErrorInvocation(_T(3), _T(3, 4)),
])
def aten〇mm〡shape(self: List[int], mat2: List[int]) -> List[int]:
    return upstream.mm(self, mat2)


@dtype("aten.mm", invocations=_pairs(lambda a, b: Invocation(_T(2, 3, dtype=a), _T(3, 4, dtype=b))))
def aten〇mm〡dtype(self_rank_dtype: Tuple[int, int], mat2_rank_dtype: Tuple[int, int]) -> int:
    return self_rank_dtype[1]


@shape("aten.bmm", invocations=[
    Invocation(_T(5, 2, 3), _T(5, 3, 4)),
    Invocation(_T(0, 2, 3), _T(0, 3, 4)),
    ErrorInvocation(_T(5, 2, 3), _T(4, 3, 4)),
    ErrorInvocation(_T(5, 2, 3), _T(5, 4, 4)),
    ErrorInvocation(_T(2, 3), _T(3, 4)),
])
def aten〇bmm〡shape(self: List[int], mat2: List[int]) -> List[int]:
    return upstream.bmm(self, mat2)


@dtype("aten.bmm", invocations=_pairs(
    lambda a, b: Invocation(_T(1, 2, 3, dtype=a), _T(1, 3, 4, dtype=b)))
    + [ErrorInvocation(_T(1, 2, 3, dtype=torch.uint8), _T(1, 3, 4, dtype=torch.int32))])
def aten〇bmm〡dtype(self_rank_dtype: Tuple[int, int], mat2_rank_dtype: Tuple[int, int]) -> int:
    _check_same_dtype("bmm", self_rank_dtype[1], mat2_rank_dtype[1])
    return self_rank_dtype[1]


# ---------------------------------------------------------------------------- addmm, baddbmm


@shape("aten.addmm", invocations=[
    Invocation(_T(2, 4), _T(2, 3), _T(3, 4)),
    Invocation(_T(4), _T(2, 3), _T(3, 4)),
    Invocation(_T(1, 1), _T(2, 3), _T(3, 4), beta=0.5, alpha=2.0),
    Invocation(_T(), _T(0, 3), _T(3, 4)),
    ErrorInvocation(_T(2, 4), _T(2, 3), _T(2, 4)),
    ErrorInvocation(_T(3), _T(2, 3), _T(3, 4)),
])
def aten〇addmm〡shape(self: List[int], mat1: List[int], mat2: List[int], beta: float = 1, alpha: float = 1) -> List[int]:
    product = upstream.mm(mat1, mat2)
    if upstream.broadcast(self, product) != product:
        raise AssertionError("addmm: self cannot be broadcast to the shape of mat1 @ mat2")
    return product


@dtype("aten.addmm", invocations=_pairs(
    lambda a, b: Invocation(_T(2, 4, dtype=b), _T(2, 3, dtype=a), _T(3, 4, dtype=a)))
    + _pairs(lambda a, b: Invocation(_T(2, 4, dtype=a), _T(2, 3, dtype=a), _T(3, 4, dtype=b)))
    + [Invocation(_T(2, 4, dtype=torch.int64), _T(2, 3, dtype=torch.int64),
                  _T(3, 4, dtype=torch.int64), beta=2.5)])
def aten〇addmm〡dtype(self_rank_dtype: Tuple[int, int], mat1_rank_dtype: Tuple[int, int], mat2_rank_dtype: Tuple[int, int], beta: Union[int, float, complex] = 1, alpha: Union[int, float, complex] = 1) -> int:
    return _promote_all([self_rank_dtype[1], mat1_rank_dtype[1], mat2_rank_dtype[1]])


@shape("aten.baddbmm", invocations=[
    Invocation(_T(5, 2, 4), _T(5, 2, 3), _T(5, 3, 4)),
    Invocation(_T(4), _T(5, 2, 3), _T(5, 3, 4)),
    Invocation(_T(1, 2, 1), _T(5, 2, 3), _T(5, 3, 4), beta=0.0, alpha=3.0),
    ErrorInvocation(_T(3), _T(5, 2, 3), _T(5, 3, 4)),
    ErrorInvocation(_T(5, 2, 4), _T(5, 2, 3), _T(4, 3, 4)),
])
def aten〇baddbmm〡shape(self: List[int], batch1: List[int], batch2: List[int], beta: float = 1, alpha: float = 1) -> List[int]:
    product = upstream.bmm(batch1, batch2)
    if upstream.broadcast(self, product) != product:
        raise AssertionError("baddbmm: self cannot be broadcast to the shape of batch1 @ batch2")
    return product


@dtype("aten.baddbmm", invocations=_pairs(
    lambda a, b: Invocation(_T(1, 2, 4, dtype=b), _T(1, 2, 3, dtype=a), _T(1, 3, 4, dtype=a)))
    + _pairs(lambda a, b: Invocation(_T(1, 2, 4, dtype=a), _T(1, 2, 3, dtype=a),
                                     _T(1, 3, 4, dtype=b)))
    + [ErrorInvocation(
        _T(1, 2, 4, dtype=torch.int32),
        _T(1, 2, 3, dtype=torch.uint8),
        _T(1, 3, 4, dtype=torch.uint8),
    )])
def aten〇baddbmm〡dtype(self_rank_dtype: Tuple[int, int], batch1_rank_dtype: Tuple[int, int], batch2_rank_dtype: Tuple[int, int], beta: Union[int, float, complex] = 1, alpha: Union[int, float, complex] = 1) -> int:
    _check_same_dtype("baddbmm", batch1_rank_dtype[1], batch2_rank_dtype[1])
    _check_same_dtype("baddbmm", self_rank_dtype[1], batch1_rank_dtype[1])
    return self_rank_dtype[1]


# ---------------------------------------------------------------------------- matmul, linear

_MATMUL_RANK_PAIRS = (
    ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)),
    ((5, 2, 3), (3, 4)), ((2, 3), (5, 3, 4)), ((5, 2, 3), (5, 3, 4)), ((5, 2, 3), (3,)),
    ((3,), (5, 3, 4)),
)


@shape("aten.matmul", invocations=[
    *[Invocation(_T(*a), _T(*b)) for a, b in _MATMUL_RANK_PAIRS],
    Invocation(_T(7, 1, 2, 3), _T(5, 3, 4)),
    Invocation(_T(0, 2, 3), _T(1, 3, 0)),
    ErrorInvocation(_T(3), _T(4)),
    ErrorInvocation(_T(2, 3), _T(4, 5)),
    ErrorInvocation(_T(5, 2, 3), _T(5, 4, 4)),
    ErrorInvocation(_T(2, 2, 3), _T(5, 3, 4)),
    ErrorInvocation(_T(), _T(3)),
])
def aten〇matmul〡shape(self: List[int], other: List[int]) -> List[int]:
    if len(self) == 0 or len(other) == 0:
        raise AssertionError("matmul: both arguments need to be at least 1D")
    if len(self) >= 3 or len(other) >= 3:
        contracted = self[-1]
        other_rows = other[0] if len(other) == 1 else other[-2]
        if contracted != other_rows:
            raise AssertionError(
                "matmul: shapes cannot be multiplied (contracted dimensions differ)")
    return upstream.matmul(self, other)


@dtype("aten.matmul", invocations=[
    Invocation(_T(*ra, dtype=a), _T(*rb, dtype=b))
    for ra, rb in _MATMUL_RANK_PAIRS
    for a, b in itertools.product(_SWEEP[::2], _SWEEP[1::2] + (torch.float32,))
])
def aten〇matmul〡dtype(self_rank_dtype: Tuple[int, int], other_rank_dtype: Tuple[int, int]) -> int:
    return _matmul_dtype(self_rank_dtype[0], self_rank_dtype[1], other_rank_dtype[0],
                         other_rank_dtype[1])


@shape("aten.linear", invocations=[
    Invocation(_T(2, 3), _T(4, 3)),
    Invocation(_T(2, 3), _T(4, 3), _T(4)),
    Invocation(_T(3), _T(4, 3), _T(4)),
    Invocation(_T(5, 2, 3), _T(4, 3), _T(1)),
    Invocation(_T(6, 5, 2, 3), _T(4, 3), _T()),
    Invocation(_T(0, 3), _T(4, 3), _T(4)),
    Invocation(_T(2, 3), _T(3)),
    ErrorInvocation(_T(2, 3), _T(4, 5)),
    ErrorInvocation(_T(2, 3), _T(4, 3), _T(5)),
])
def aten〇linear〡shape(input: List[int], weight: List[int], bias: Optional[List[int]] = None) -> List[int]:
    if len(input) == 0:
        raise AssertionError("linear: input must be at least 1D")
    in_features = weight[-1] if len(weight) > 0 else 1
    if input[-1] != in_features:
        raise AssertionError("linear: input and weight shapes cannot be multiplied")
    return upstream.linear(input, weight, bias)


@dtype("aten.linear", invocations=[
    *_pairs(lambda a, b: Invocation(_T(2, 3, dtype=a), _T(4, 3, dtype=b))),
    *_pairs(lambda a, b: Invocation(_T(2, 3, dtype=a), _T(4, 3, dtype=a), _T(4, dtype=b))),
    *_pairs(lambda a, b: Invocation(_T(2, 3, dtype=a), _T(4, 3, dtype=b), _T(4, dtype=a))),
    *_pairs(lambda a, b: Invocation(_T(5, 2, 3, dtype=a), _T(4, 3, dtype=a), _T(4, dtype=b))),
    *_pairs(lambda a, b: Invocation(_T(5, 2, 3, dtype=a), _T(4, 3, dtype=b), _T(4, dtype=a))),
    *_pairs(lambda a, b: Invocation(_T(3, dtype=a), _T(4, 3, dtype=b), _T(4, dtype=a))),
    *_pairs(lambda a, b: Invocation(_T(2, 3, dtype=a), _T(4, 3, dtype=a), _T(dtype=b))),
])
def aten〇linear〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Tuple[int, int], bias_rank_dtype: Optional[Tuple[int, int]] = None) -> int:
    if bias_rank_dtype is None:
        return input_rank_dtype[1]
    ranks, dtypes = rank_dtype_lists([input_rank_dtype, weight_rank_dtype, bias_rank_dtype])
    return promote_dtypes(ranks, dtypes)


# ---------------------------------------------------------------------------- distances


@shape("aten._cdist_forward", invocations=[
    Invocation(_T(2, 3), _T(4, 3), 2.0, None),
    Invocation(_T(5, 1, 2, 3), _T(6, 4, 3), 1.0, 0),
    Invocation(_T(0, 3), _T(4, 3), 0.0, 2),
    Invocation(_T(2, 0), _T(4, 0), 2.0, 1),
    ErrorInvocation(_T(3), _T(4, 3), 2.0, None),
    ErrorInvocation(_T(2, 3), _T(4, 2), 2.0, None),
    ErrorInvocation(_T(2, 3), _T(4, 3), -1.0, None),
    ErrorInvocation(_T(2, 3), _T(4, 3), 2.0, 3),
    ErrorInvocation(_T(2, 2, 3), _T(3, 4, 3), 2.0, None),
])
def aten〇_cdist_forward〡shape(x1: List[int], x2: List[int], p: float, compute_mode: Optional[int]) -> List[int]:
    if len(x1) < 2 or len(x2) < 2:
        raise AssertionError("_cdist_forward: x1 and x2 must be at least 2D")
    if x1[-1] != x2[-1]:
        raise AssertionError("_cdist_forward: x1 and x2 must have the same number of columns")
    if p < 0:
        raise AssertionError("_cdist_forward: p must be non-negative")
    if compute_mode is not None:
        if compute_mode < 0 or compute_mode > 2:
            raise AssertionError("_cdist_forward: compute_mode must be None, 0, 1 or 2")
    out = upstream.broadcast(x1[:-2], x2[:-2])
    out.append(x1[-2])
    out.append(x2[-2])
    return out


@dtype("aten._cdist_forward", invocations=_pairs(
    lambda a, b: Invocation(_T(2, 3, dtype=a), _T(4, 3, dtype=b), 2.0, None))
    + [ErrorInvocation(_T(2, 3, dtype=torch.uint8), _T(4, 3, dtype=torch.uint8), 2.0, None)])
def aten〇_cdist_forward〡dtype(x1_rank_dtype: Tuple[int, int], x2_rank_dtype: Tuple[int, int], p: float, compute_mode: Optional[int]) -> int:
    if not is_float_dtype(x1_rank_dtype[1]) or not is_float_dtype(x2_rank_dtype[1]):
        raise AssertionError("_cdist_forward: x1 and x2 must be floating point tensors")
    return x1_rank_dtype[1]


@shape("aten._pdist_forward", invocations=[
    Invocation(_T(5, 3)),
    Invocation(_T(5, 3), 1.0),
    Invocation(_T(1, 3)),
    Invocation(_T(0, 3)),
    Invocation(_T(2, 5, 3)),
])
def aten〇_pdist_forward〡shape(self: List[int], p: float = 2.0) -> List[int]:
    n = self[0]
    if n <= 1:
        return [0]
    return [n * (n - 1) // 2]


@dtype("aten._pdist_forward", invocations=[Invocation(_T(5, 3, dtype=d)) for d in _SWEEP])
def aten〇_pdist_forward〡dtype(self_rank_dtype: Tuple[int, int], p: float = 2.0) -> int:
    return self_rank_dtype[1]


# ---------------------------------------------------------------------------- FFT


def _fft_last_dim(shape: List[int], dim: List[int], op: str) -> int:
    rank = len(shape)
    if len(dim) == 0:
        raise AssertionError(op + ": dim must not be empty")
    for d in dim:
        if shape[upstream.maybe_wrap_dim(d, rank)] == 0:
            raise AssertionError(op + ": invalid number of data points (0) in a transformed dim")
    return upstream.maybe_wrap_dim(dim[-1], rank)


@shape("aten._fft_r2c", invocations=[
    Invocation(_T(5, 8), [1], 0, True),
    Invocation(_T(5, 8), [0, 1], 1, True),
    Invocation(_T(5, 8), [0, 1], 2, False),
    Invocation(_T(5, 8), [-1], 0, True),
    Invocation(_T(5, 7), [0], 0, True),
    Invocation(_T(2, 0, 7), [2], 0, True),
    Invocation(_T(0, 8), [1], 0, True),
    ErrorInvocation(_T(2, 0, 7), [1], 0, True),
    ErrorInvocation(_T(5, 7), [], 0, True),
])
def aten〇_fft_r2c〡shape(self: List[int], dim: List[int], normalization: int, onesided: bool) -> List[int]:
    last = _fft_last_dim(self, dim, "_fft_r2c")
    out = upstream._copy(self)
    if onesided:
        out[last] = self[last] // 2 + 1
    return out


@dtype("aten._fft_r2c", invocations=[
    Invocation(_T(5, 8, dtype=d), [1], 0, True) for d in _SWEEP + (torch.complex128,)]
    + [ErrorInvocation(_T(5, 8, dtype=torch.uint8), [1], 0, True)])
def aten〇_fft_r2c〡dtype(self_rank_dtype: Tuple[int, int], dim: List[int], normalization: int, onesided: bool) -> int:
    self_dtype = self_rank_dtype[1]
    if self_dtype == 5:  # float16
        return 8  # complex32
    if self_dtype == 7:  # float64
        return 10  # complex128
    if self_dtype == 6 or self_dtype == 15:  # float32, bfloat16
        return 9  # complex64
    raise AssertionError("_fft_r2c: expected a real floating point input")


@shape("aten._fft_c2r", invocations=[
    Invocation(_T(5, 8, dtype=torch.complex64), [1], 0, 14),
    Invocation(_T(5, 8, dtype=torch.complex64), [0, 1], 2, 3),
    Invocation(_T(5, 8, dtype=torch.complex64), [-2], 0, 3),
    Invocation(_T(5, 8, dtype=torch.complex64), [0], 0, 0),
    Invocation(_T(2, 3, 0, dtype=torch.complex64), [1], 0, 4),
    ErrorInvocation(_T(2, 0, 7, dtype=torch.complex64), [0, 1], 0, 4),
    ErrorInvocation(_T(5, 8, dtype=torch.complex64), [], 0, 3),
])
def aten〇_fft_c2r〡shape(self: List[int], dim: List[int], normalization: int, last_dim_size: int) -> List[int]:
    last = _fft_last_dim(self, dim, "_fft_c2r")
    out = upstream._copy(self)
    out[last] = last_dim_size
    return out


@dtype("aten._fft_c2r", invocations=[
    Invocation(_T(5, 8, dtype=d), [1], 0, 14)
    for d in _SWEEP + (torch.complex32, torch.complex128)]
    + [ErrorInvocation(_T(5, 8, dtype=torch.uint8), [1], 0, 14)])
def aten〇_fft_c2r〡dtype(self_rank_dtype: Tuple[int, int], dim: List[int], normalization: int, last_dim_size: int) -> int:
    self_dtype = self_rank_dtype[1]
    if not is_complex_dtype(self_dtype):
        raise AssertionError("_fft_c2r: expected a complex input")
    if self_dtype == 8:  # complex32
        return 5  # float16
    if self_dtype == 10:  # complex128
        return 7  # float64
    return 6  # float32
