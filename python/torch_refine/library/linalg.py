"""Linear algebra: matrix products, distances and FFTs.

Dtype rules follow what PyTorch computes on meta tensors, which is looser than some CPU
kernels: `mm` and a matmul that folds to `mm` keep the first operand's dtype whatever the
second one is, `mv` and `addmm` promote, and the batched products require equal dtypes.
"""

import itertools
from typing import List, Optional, Tuple, Union

import torch
import torch.jit._shape_functions as upstream

from ._helpers import check_broadcasts_to, check_fft_dims, rank_dtype_lists, scalar_dtype, unknown_dtype
from .einsum_equation import einsum_plan
from .promotion import (
    is_complex_dtype,
    is_float_dtype,
    is_integer_dtype,
    promote_dtypes,
    to_real_dtype,
)
from .registry import dtype, shape
from .testing import (
    ErrorInvocation,
    Invocation,
    KernelErrorInvocation,
    KernelInvocation,
    TensorOfShape,
    UnknownDtypeInvocation,
)

_SWEEP = (
    torch.uint8, torch.int32, torch.int64, torch.float16, torch.bfloat16,
    torch.float32, torch.float64, torch.bool, torch.complex64,
)
_FLOAT_SWEEP = (torch.float16, torch.bfloat16, torch.float32, torch.float64)


def _pairs(make, dtypes=_SWEEP) -> List[Invocation]:
    """One invocation per ordered pair of dtypes, built by `make(a, b)`."""
    return [make(a, b) for a, b in itertools.product(dtypes, dtypes)]


def _T(*sizes, dtype=torch.float32):
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
    check_broadcasts_to(self, product, "addmm: self cannot be broadcast to the shape of mat1 @ mat2")
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
    check_broadcasts_to(self, product, "baddbmm: self cannot be broadcast to the shape of batch1 @ batch2")
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
    Invocation(_T(3), _T(3), _T()),
    ErrorInvocation(_T(2, 3), _T(3), _T(2)),
    ErrorInvocation(_T(2, 3), _T(3), _T()),
])
def aten〇linear〡shape(input: List[int], weight: List[int], bias: Optional[List[int]] = None) -> List[int]:
    if len(input) == 0:
        raise AssertionError("linear: input must be at least 1D")
    in_features = weight[-1] if len(weight) > 0 else 1
    if input[-1] != in_features:
        raise AssertionError("linear: input and weight shapes cannot be multiplied")
    # A 2D input with a bias goes through addmm, which wants a 2D weight.
    if bias is not None and len(weight) < 2 and len(input) == 2:
        raise AssertionError("linear: a 2D input with a bias needs a 2D weight")
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
    ErrorInvocation(_T()),
])
def aten〇_pdist_forward〡shape(self: List[int], p: float = 2.0) -> List[int]:
    if len(self) == 0:
        raise AssertionError("_pdist_forward: expected a tensor with at least one dim")
    n = self[0]
    if n <= 1:
        return [0]
    return [n * (n - 1) // 2]


@dtype("aten._pdist_forward", invocations=[Invocation(_T(5, 3, dtype=d)) for d in _SWEEP])
def aten〇_pdist_forward〡dtype(self_rank_dtype: Tuple[int, int], p: float = 2.0) -> int:
    return self_rank_dtype[1]


# ---------------------------------------------------------------------------- FFT


def _fft_last_dim(shape: List[int], dim: List[int], op: str) -> int:
    if len(dim) == 0:
        raise AssertionError(op + ": dim must not be empty")
    check_fft_dims(op, shape, dim)
    return upstream.maybe_wrap_dim(dim[-1], len(shape))


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
    ErrorInvocation(_T(5, 8, dtype=torch.complex64), [1], 0, -1),
    ErrorInvocation(_T(2, 3, 7, dtype=torch.complex64), [1, 1], 0, 4),
])
def aten〇_fft_c2r〡shape(self: List[int], dim: List[int], normalization: int, last_dim_size: int) -> List[int]:
    last = _fft_last_dim(self, dim, "_fft_c2r")
    if last_dim_size < 0:
        raise AssertionError("_fft_c2r: trying to create tensor with negative dimension")
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


# ---------------------------------------------------------------------------- vector products


@shape("aten.dot", invocations=[
    Invocation(_T(3), _T(3)), Invocation(_T(0), _T(0)),
    ErrorInvocation(_T(3), _T(4)), ErrorInvocation(_T(1, 3), _T(3)), ErrorInvocation(_T(), _T()),
])
def aten〇dot〡shape(self: List[int], tensor: List[int]) -> List[int]:
    assert len(self) == 1 and len(tensor) == 1, "dot: 1D tensors expected"
    assert self[0] == tensor[0], "dot: inconsistent tensor size"
    return []


@dtype("aten.dot", invocations=_pairs(
    lambda a, b: (Invocation if a == b else ErrorInvocation)(_T(3, dtype=a), _T(3, dtype=b))))
def aten〇dot〡dtype(self_rank_dtype: Tuple[int, int], tensor_rank_dtype: Tuple[int, int]) -> int:
    _check_same_dtype("dot", self_rank_dtype[1], tensor_rank_dtype[1])
    return self_rank_dtype[1]


@shape("aten.mv", invocations=[
    Invocation(_T(2, 3), _T(3)), Invocation(_T(0, 3), _T(3)), Invocation(_T(2, 0), _T(0)),
    ErrorInvocation(_T(2, 3), _T(4)), ErrorInvocation(_T(3), _T(3)),
    ErrorInvocation(_T(1, 2, 3), _T(3)), ErrorInvocation(_T(2, 3), _T(3, 1)),
])
def aten〇mv〡shape(self: List[int], vec: List[int]) -> List[int]:
    assert len(self) == 2 and len(vec) == 1, "mv: matrix @ vector expected"
    assert self[1] == vec[0], "mv: size mismatch between the matrix and the vector"
    return [self[0]]


# The meta kernel promotes, like addmv's; the CPU kernel wants equal dtypes.
@dtype("aten.mv", invocations=_pairs(lambda a, b: Invocation(_T(2, 3, dtype=a), _T(3, dtype=b))))
def aten〇mv〡dtype(self_rank_dtype: Tuple[int, int], vec_rank_dtype: Tuple[int, int]) -> int:
    return _promote_all([self_rank_dtype[1], vec_rank_dtype[1]])


@shape("aten.outer", invocations=[
    Invocation(_T(2), _T(3)), Invocation(_T(0), _T(3)),
    ErrorInvocation(_T(2, 1), _T(3)), ErrorInvocation(_T(), _T(3)), ErrorInvocation(_T(2), _T(3, 1)),
])
def aten〇outer〡shape(self: List[int], vec2: List[int]) -> List[int]:
    assert len(self) == 1, "outer: expected a 1-D argument self"
    assert len(vec2) == 1, "outer: expected a 1-D argument vec2"
    return [self[0], vec2[0]]


@dtype("aten.outer", invocations=_pairs(lambda a, b: Invocation(_T(2, dtype=a), _T(3, dtype=b))))
def aten〇outer〡dtype(self_rank_dtype: Tuple[int, int], vec2_rank_dtype: Tuple[int, int]) -> int:
    return _promote_all([self_rank_dtype[1], vec2_rank_dtype[1]])


@shape("aten.linalg_cross", invocations=[
    Invocation(_T(2, 3), _T(2, 3)), Invocation(_T(3, 2), _T(3, 2), dim=0),
    Invocation(_T(3, 1), _T(3, 4), dim=0), Invocation(_T(0, 3), _T(1, 3)),
    Invocation(_T(3, 4), _T(3, 1), dim=-2),
    ErrorInvocation(_T(4, 1, 3), _T(5, 3)), ErrorInvocation(_T(2, 3), _T(2, 3), dim=0),
    ErrorInvocation(_T(2, 3), _T(2, 3), dim=2), ErrorInvocation(_T(2, 3), _T(4, 3)),
    ErrorInvocation(_T(2, 1), _T(2, 3)), ErrorInvocation(_T(), _T()),
])
def aten〇linalg_cross〡shape(self: List[int], other: List[int], dim: int = -1) -> List[int]:
    assert len(self) == len(other), "linalg_cross: inputs must have the same number of dimensions"
    wrapped = upstream.maybe_wrap_dim(dim, len(self))
    assert self[wrapped] == 3 and other[wrapped] == 3, \
        "linalg_cross: inputs must have length 3 in dim"
    return upstream.broadcast(self, other)


# The CPU kernel wants equal dtypes (the meta kernel keeps self's).
@dtype("aten.linalg_cross", invocations=[
    KernelInvocation(_T(3, dtype=d), _T(3, dtype=d)) for d in _SWEEP if d != torch.bool
] + [KernelErrorInvocation(_T(3), _T(3, dtype=torch.float64))])
def aten〇linalg_cross〡dtype(self_rank_dtype: Tuple[int, int], other_rank_dtype: Tuple[int, int], dim: int = -1) -> int:
    _check_same_dtype("linalg_cross", self_rank_dtype[1], other_rank_dtype[1])
    return self_rank_dtype[1]


# ---------------------------------------------------------------------------- addbmm, _int_mm


@shape("aten.addbmm", invocations=[
    Invocation(_T(2, 4), _T(5, 2, 3), _T(5, 3, 4)),
    Invocation(_T(4), _T(5, 2, 3), _T(5, 3, 4), beta=0.5, alpha=2.0),
    Invocation(_T(), _T(0, 2, 3), _T(0, 3, 4)),
    ErrorInvocation(_T(3), _T(5, 2, 3), _T(5, 3, 4)),
    ErrorInvocation(_T(2, 4), _T(5, 2, 3), _T(4, 3, 4)),
    ErrorInvocation(_T(2, 4), _T(5, 2, 3), _T(5, 2, 4)),
    ErrorInvocation(_T(2, 4), _T(2, 3), _T(3, 4)),
])
def aten〇addbmm〡shape(self: List[int], batch1: List[int], batch2: List[int], beta: float = 1, alpha: float = 1) -> List[int]:
    product = upstream.bmm(batch1, batch2)
    out = [product[1], product[2]]
    check_broadcasts_to(self, out, "addbmm: self cannot be broadcast to the shape of the summed products")
    return out


# The CPU kernel wants equal dtypes (the meta kernel keeps self's).
@dtype("aten.addbmm", invocations=[
    KernelInvocation(_T(2, 4, dtype=d), _T(1, 2, 3, dtype=d), _T(1, 3, 4, dtype=d))
    for d in _SWEEP if d not in (torch.bool, torch.float16)
] + [
    KernelInvocation(_T(2, 4, dtype=torch.int64), _T(1, 2, 3, dtype=torch.int64),
                     _T(1, 3, 4, dtype=torch.int64), beta=0.5),
    KernelErrorInvocation(_T(2, 4), _T(1, 2, 3, dtype=torch.float64), _T(1, 3, 4, dtype=torch.float64)),
    KernelErrorInvocation(_T(2, 4), _T(1, 2, 3), _T(1, 3, 4, dtype=torch.float64)),
])
def aten〇addbmm〡dtype(self_rank_dtype: Tuple[int, int], batch1_rank_dtype: Tuple[int, int], batch2_rank_dtype: Tuple[int, int], beta: Union[int, float, complex] = 1, alpha: Union[int, float, complex] = 1) -> int:
    _check_same_dtype("addbmm", batch1_rank_dtype[1], batch2_rank_dtype[1])
    _check_same_dtype("addbmm", self_rank_dtype[1], batch1_rank_dtype[1])
    return self_rank_dtype[1]


@shape("aten._int_mm", invocations=[
    Invocation(_T(17, 16, dtype=torch.int8), _T(16, 8, dtype=torch.int8)),
    Invocation(_T(0, 16, dtype=torch.int8), _T(16, 8, dtype=torch.int8)),
    ErrorInvocation(_T(17, 16, dtype=torch.int8), _T(8, 8, dtype=torch.int8)),
    ErrorInvocation(_T(1, 17, 16, dtype=torch.int8), _T(16, 8, dtype=torch.int8)),
])
def aten〇_int_mm〡shape(self: List[int], mat2: List[int]) -> List[int]:
    return upstream.mm(self, mat2)


@dtype("aten._int_mm", invocations=[
    (Invocation if a != torch.float32 and b == torch.int8 else ErrorInvocation)(
        _T(17, 16, dtype=a), _T(16, 8, dtype=b))
    for a, b in itertools.product((torch.int8, torch.uint8, torch.float32),
                                  (torch.int8, torch.uint8, torch.int32))
])
def aten〇_int_mm〡dtype(self_rank_dtype: Tuple[int, int], mat2_rank_dtype: Tuple[int, int]) -> int:
    self_dtype = self_rank_dtype[1]
    assert self_dtype == 1 or self_dtype == 0, "_int_mm: expected self to be int8 or uint8"
    assert mat2_rank_dtype[1] == 1, "_int_mm: expected mat2 to be int8"
    return 3  # int32


# ---------------------------------------------------------------------------- trace, determinants


@shape("aten.trace", invocations=[
    Invocation(_T(2, 3)), Invocation(_T(0, 3)),
    ErrorInvocation(_T(3)), ErrorInvocation(_T(2, 3, 4)),
])
def aten〇trace〡shape(self: List[int]) -> List[int]:
    assert len(self) == 2, "trace: expected a matrix"
    return []


@dtype("aten.trace", invocations=[Invocation(_T(2, 2, dtype=d)) for d in _SWEEP])
def aten〇trace〡dtype(self_rank_dtype: Tuple[int, int]) -> int:
    self_dtype = self_rank_dtype[1]
    if is_integer_dtype(self_dtype) or self_dtype == 11:  # sums integers and bools in int64
        return 4
    return self_dtype


def _square_batch(A: List[int], op: str) -> List[int]:
    """The batch dims of a batch of square matrices."""
    assert len(A) >= 2, op + ": the input tensor must have at least 2 dimensions"
    assert A[-1] == A[-2], op + ": A must be batches of square matrices"
    return A[:-2]


def _check_floating_or_complex(dtype: int, op: str) -> None:
    assert is_float_dtype(dtype) or is_complex_dtype(dtype), \
        op + ": expected a floating point or complex tensor as input"


def _floating_or_complex_case(tensor: TensorOfShape) -> Invocation:
    accepted = tensor.dtype.is_floating_point or tensor.dtype.is_complex
    return (Invocation if accepted else ErrorInvocation)(tensor)


_SQUARE_SHAPES = [
    Invocation(_T(3, 3)), Invocation(_T(2, 3, 3)), Invocation(_T(0, 0)), Invocation(_T(0, 3, 3)),
    ErrorInvocation(_T(2, 3)), ErrorInvocation(_T(3)),
]


@shape("aten.linalg_det", invocations=_SQUARE_SHAPES)
def aten〇linalg_det〡shape(A: List[int]) -> List[int]:
    return _square_batch(A, "linalg_det")


@dtype("aten.linalg_det", invocations=[_floating_or_complex_case(_T(3, 3, dtype=d)) for d in _SWEEP])
def aten〇linalg_det〡dtype(A_rank_dtype: Tuple[int, int]) -> int:
    _check_floating_or_complex(A_rank_dtype[1], "linalg_det")
    return A_rank_dtype[1]


@shape("aten._linalg_det", invocations=_SQUARE_SHAPES)
def aten〇_linalg_det〡shape(A: List[int]) -> Tuple[List[int], List[int], List[int]]:
    batch = _square_batch(A, "_linalg_det")
    pivots = upstream._copy(batch)
    pivots.append(A[-1])
    return batch, upstream._copy(A), pivots


@dtype("aten._linalg_det", invocations=[_floating_or_complex_case(_T(3, 3, dtype=d)) for d in _SWEEP])
def aten〇_linalg_det〡dtype(A_rank_dtype: Tuple[int, int]) -> Tuple[int, int, int]:
    _check_floating_or_complex(A_rank_dtype[1], "_linalg_det")
    return A_rank_dtype[1], A_rank_dtype[1], 3  # LU pivots are int32


@shape("aten.linalg_slogdet", invocations=_SQUARE_SHAPES)
def aten〇linalg_slogdet〡shape(A: List[int]) -> Tuple[List[int], List[int]]:
    batch = _square_batch(A, "linalg_slogdet")
    return batch, upstream._copy(batch)


@dtype("aten.linalg_slogdet", invocations=[
    (Invocation if d in (torch.float32, torch.float64, torch.complex64, torch.complex128)
     else ErrorInvocation)(_T(3, 3, dtype=d)) for d in _SWEEP + (torch.complex128,)
])
def aten〇linalg_slogdet〡dtype(A_rank_dtype: Tuple[int, int]) -> Tuple[int, int]:
    A_dtype = A_rank_dtype[1]
    _check_floating_or_complex(A_dtype, "linalg_slogdet")
    assert A_dtype != 5 and A_dtype != 15, "linalg_slogdet: low precision dtypes are not supported"
    return A_dtype, to_real_dtype(A_dtype)


# ---------------------------------------------------------------------------- renorm


@shape("aten.renorm", invocations=[
    Invocation(_T(2, 3), 2.0, 0, 1.0), Invocation(_T(0, 3), 1.0, -1, 0.0),
    Invocation(_T(2, 3, 4), 0.5, 1, 2.0),
    ErrorInvocation(_T(3), 2.0, 0, 1.0), ErrorInvocation(_T(), 2.0, 0, 1.0),
    ErrorInvocation(_T(2, 3), 0.0, 0, 1.0), ErrorInvocation(_T(2, 3), -1.0, 0, 1.0),
    ErrorInvocation(_T(2, 3), 2.0, 0, -1.0), ErrorInvocation(_T(2, 3), 2.0, 2, 1.0),
])
def aten〇renorm〡shape(self: List[int], p: float, dim: int, maxnorm: float) -> List[int]:
    assert len(self) >= 2, "renorm: input needs at least 2 dimensions"
    upstream.maybe_wrap_dim(dim, len(self))
    assert p > 0, "renorm: non-positive norm not supported"
    assert maxnorm >= 0, "renorm: expected maxnorm to be >= 0"
    return upstream.unary(self)


@dtype("aten.renorm", invocations=[
    Invocation(_T(2, 3, dtype=d), p, 0, maxnorm)
    for d in _SWEEP for p, maxnorm in ((2, 1), (1.5, 0.5), (True, False))
] + [ErrorInvocation(_T(2, 3), 1j, 0, 1), ErrorInvocation(_T(2, 3), 2, 0, 1j)])
def aten〇renorm〡dtype(self_rank_dtype: Tuple[int, int], p: Union[int, float, complex], dim: int, maxnorm: Union[int, float, complex]) -> int:
    assert not is_complex_dtype(scalar_dtype(p)), "renorm: p must be real-valued"
    assert not is_complex_dtype(scalar_dtype(maxnorm)), "renorm: maxnorm must be real-valued"
    _check_floating_or_complex(self_rank_dtype[1], "renorm")
    return self_rank_dtype[1]


# ---------------------------------------------------------------------------- scaled matmuls
#
# fp8 (or packed fp4) matrices times per-tensor, per-row or per-block scales. Only what the
# result depends on is checked: 2D operands of fp8/fp4 dtypes. The layout and scale checks
# of the CUDA kernels (row-major self, column-major mat2, sizes divisible by 16, the scales'
# shapes for each recipe) are left to the kernels: the CPU kernels skip some of them, and
# sizes alone do not decide a layout.


def _is_fp8_or_fp4(dtype: int) -> bool:
    # 23 float8_e5m2, 24 float8_e4m3fn, 25 float8_e5m2fnuz, 26 float8_e4m3fnuz, 45 float4_e2m1fn_x2
    return (dtype >= 23 and dtype <= 26) or dtype == 45


def _scaled_mm_shape(self: List[int], mat2: List[int]) -> List[int]:
    assert len(self) == 2 and len(mat2) == 2, "_scaled_mm: inputs must be 2D"
    # The meta kernels' (CUDA's) rule: the inner and mat2's dims multiples of 16.
    if self[1] % 16 != 0 or mat2[0] % 16 != 0 or mat2[1] % 16 != 0:
        raise AssertionError("_scaled_mm: expected self.size(1) and mat2's sizes divisible by 16")
    return [self[0], mat2[1]]


def _scaled_mm_dtype(self_dtype: int, mat2_dtype: int, out_dtype: Optional[int]) -> int:
    assert _is_fp8_or_fp4(self_dtype) and _is_fp8_or_fp4(mat2_dtype), \
        "_scaled_mm: expected both inputs to be fp8 or fp4 types"
    return self_dtype if out_dtype is None else out_dtype


_E4M3 = torch.float8_e4m3fn
_E5M2 = torch.float8_e5m2


def _scaled_mm_case(self_shape, mat2_shape, a=_E4M3, b=_E4M3, case=Invocation, **kwargs):
    """A tensor-wise scaled product; mat2 has a zero-size dim, the one layout a meta
    tensor's strides always satisfy."""
    return case(_T(*self_shape, dtype=a), _T(*mat2_shape, dtype=b), _T(), _T(), **kwargs)


@shape("aten._scaled_mm", invocations=[
    _scaled_mm_case((16, 32), (32, 0)), _scaled_mm_case((32, 16), (16, 0)),
    _scaled_mm_case((16, 32, 1), (32, 0), case=ErrorInvocation),
    _scaled_mm_case((16, 32), (32,), case=ErrorInvocation),
    _scaled_mm_case((2, 3), (32, 0), case=ErrorInvocation),
    _scaled_mm_case((16, 32), (24, 0), case=ErrorInvocation),
])
def aten〇_scaled_mm〡shape(self: List[int], mat2: List[int], scale_a: List[int], scale_b: List[int], bias: Optional[List[int]] = None, scale_result: Optional[List[int]] = None, out_dtype: Optional[int] = None, use_fast_accum: bool = False) -> List[int]:
    return _scaled_mm_shape(self, mat2)


@dtype("aten._scaled_mm", invocations=[
    _scaled_mm_case((16, 32), (32, 0), a, b, out_dtype=out)
    for a, b in ((_E4M3, _E4M3), (_E4M3, _E5M2), (_E5M2, _E4M3))
    for out in (None, torch.bfloat16, torch.float32, torch.float16)
] + [
    _scaled_mm_case((16, 32), (32, 0), torch.float32, torch.float32, ErrorInvocation),
    _scaled_mm_case((16, 32), (32, 0), _E4M3, torch.bfloat16, ErrorInvocation),
])
def aten〇_scaled_mm〡dtype(self_rank_dtype: Tuple[int, int], mat2_rank_dtype: Tuple[int, int], scale_a_rank_dtype: Tuple[int, int], scale_b_rank_dtype: Tuple[int, int], bias_rank_dtype: Optional[Tuple[int, int]] = None, scale_result_rank_dtype: Optional[Tuple[int, int]] = None, out_dtype: Optional[int] = None, use_fast_accum: bool = False) -> int:
    return _scaled_mm_dtype(self_rank_dtype[1], mat2_rank_dtype[1], out_dtype)


def _scaled_mm_v2_case(self_shape, mat2_shape, a=_E4M3, b=_E4M3, case=Invocation, out=None):
    """_scaled_mm_case with the v2 arguments: one tensor-wise (recipe 0) scale per operand,
    no swizzle (0)."""
    return case(_T(*self_shape, dtype=a), _T(*mat2_shape, dtype=b), [_T()], [0], [0], [_T()],
                [0], [0], None, out)


@shape("aten._scaled_mm_v2", invocations=[
    _scaled_mm_v2_case((16, 32), (32, 0)), _scaled_mm_v2_case((32, 16), (16, 0)),
    _scaled_mm_v2_case((16, 32, 1), (32, 0), case=ErrorInvocation),
    _scaled_mm_v2_case((16, 32), (32,), case=ErrorInvocation),
    _scaled_mm_v2_case((2, 3), (32, 0), case=ErrorInvocation),
    _scaled_mm_v2_case((16, 32), (24, 0), case=ErrorInvocation),
])
def aten〇_scaled_mm_v2〡shape(self: List[int], mat2: List[int], scale_a: List[List[int]], recipe_a: List[int], swizzle_a: List[int], scale_b: List[List[int]], recipe_b: List[int], swizzle_b: List[int], bias: Optional[List[int]], out_dtype: Optional[int], contraction_dim: List[int] = (), use_fast_accum: bool = False) -> List[int]:
    return _scaled_mm_shape(self, mat2)


@dtype("aten._scaled_mm_v2", invocations=[
    _scaled_mm_v2_case((16, 32), (32, 0), a, b, out=out)
    for a, b in ((_E4M3, _E4M3), (_E4M3, _E5M2))
    for out in (None, torch.bfloat16, torch.float32)
] + [
    _scaled_mm_v2_case((16, 32), (32, 0), torch.float32, torch.float32, ErrorInvocation),
])
def aten〇_scaled_mm_v2〡dtype(self_rank_dtype: Tuple[int, int], mat2_rank_dtype: Tuple[int, int], scale_a_rank_dtype: List[Tuple[int, int]], recipe_a: List[int], swizzle_a: List[int], scale_b_rank_dtype: List[Tuple[int, int]], recipe_b: List[int], swizzle_b: List[int], bias_rank_dtype: Optional[Tuple[int, int]], out_dtype: Optional[int], contraction_dim: List[int] = (), use_fast_accum: bool = False) -> int:
    return _scaled_mm_dtype(self_rank_dtype[1], mat2_rank_dtype[1], out_dtype)


# ---------------------------------------------------------------------------- einsum
# The equation is parsed by `einsum_plan` (an intrinsic: the simplify passes fold it when
# the equation is a constant); sizes, ranks and the operand count are checked here.


def _einsum_ellipsis_dims(plan: List[List[int]], ranks: List[int]) -> int:
    """Checks the operand count and each operand's subscripts against its rank; the number
    of dims the ellipsis stands for (the most any operand's covers)."""
    if len(ranks) == 0:
        raise AssertionError("einsum(): must provide at least one operand")
    if len(plan) - 1 > len(ranks):
        raise AssertionError("einsum(): fewer operands were provided than specified in the equation")
    if len(plan) - 1 < len(ranks):
        raise AssertionError("einsum(): more operands were provided than specified in the equation")
    ellipsis_dims = 0
    for i in range(len(ranks)):
        labels = plan[i + 1]
        if -1 not in labels:
            if len(labels) != ranks[i]:
                raise AssertionError("einsum(): the number of subscripts in the equation does not match the "
                                     "number of dimensions of an operand and no ellipsis was given")
            continue
        if len(labels) - 1 > ranks[i]:
            raise AssertionError("einsum(): the number of subscripts in the equation is more than the "
                                 "number of dimensions of an operand")
        ellipsis_dims = max(ellipsis_dims, ranks[i] - len(labels) + 1)
    return ellipsis_dims


def _einsum_label_count(plan: List[List[int]]) -> int:
    count = 0
    for i in range(1, len(plan)):
        for label in plan[i]:
            count = max(count, label + 1)
    return count


def _einsum_broadcast(seen: int, size: int) -> int:
    """A label's (or an ellipsis dim's) size so far, met with one more operand's."""
    if seen == 1:
        return size
    if size == 1:
        return seen
    if seen != size:
        raise AssertionError("einsum(): a subscript has sizes in two operands that do not broadcast")
    return seen


def _check_einsum_path(path: List[int], operand_count: int) -> None:
    """opt_einsum's path: pairs of positions among the operands left, each pair contracted
    into one operand appended at the end."""
    expected = 1 if operand_count == 1 else 2 * (operand_count - 1)
    if len(path) != expected:
        raise AssertionError("einsum(): expected contraction path given in path parameter to have size "
                             + str(expected))
    left = operand_count
    for step in range(operand_count - 1):
        first = min(path[2 * step], path[2 * step + 1])
        second = max(path[2 * step], path[2 * step + 1])
        if first == second or first < 0 or second >= left:
            raise AssertionError("einsum(): invalid contraction in the path")
        left -= 1


def _einsum_sizes(plan: List[List[int]], tensors: List[List[int]],
                  ellipsis_dims: int) -> Tuple[List[int], List[int]]:
    """(each label's size, the ellipsis dims' sizes): an operand's size meets the others'
    by broadcasting; a label repeated in one operand (a diagonal) needs equal sizes there."""
    label_sizes: List[int] = []
    for _ in range(_einsum_label_count(plan)):
        label_sizes.append(1)
    ellipsis_sizes: List[int] = []
    for _ in range(ellipsis_dims):
        ellipsis_sizes.append(1)
    for i in range(len(tensors)):
        labels = plan[i + 1]
        sizes = tensors[i]
        covered = len(sizes) - len(labels) + 1  # by the ellipsis, if there is one
        dim = 0
        position_dims: List[int] = []  # the first dim of each label, the ellipsis's
        for position in range(len(labels)):
            label = labels[position]
            position_dims.append(dim)
            if label == -1:
                for j in range(ellipsis_dims - covered, ellipsis_dims):
                    ellipsis_sizes[j] = _einsum_broadcast(ellipsis_sizes[j], sizes[dim])
                    dim += 1
                continue
            first = position
            for earlier in range(position):
                if labels[earlier] == label and first == position:
                    first = earlier
            if first < position:
                if sizes[position_dims[first]] != sizes[dim]:
                    raise AssertionError("einsum(): a subscript is repeated for an operand but the sizes don't match")
            else:
                label_sizes[label] = _einsum_broadcast(label_sizes[label], sizes[dim])
            dim += 1
    return label_sizes, ellipsis_sizes


@shape("aten.einsum", invocations=[
    Invocation("ij,jk->ik", [_T(2, 3), _T(3, 4)]),
    Invocation("bij,bjk->bik", [_T(5, 2, 3), _T(5, 3, 4)]),
    Invocation("ij->ji", [_T(2, 3)]),
    Invocation("ii->i", [_T(3, 3)]),
    Invocation("ii", [_T(3, 3)]),
    Invocation("iji->ij", [_T(3, 2, 3)]),
    Invocation("i,j->ij", [_T(2), _T(3)]),
    Invocation("ij,jk", [_T(2, 3), _T(3, 4)]),
    Invocation("ba,ab", [_T(2, 3), _T(3, 2)]),
    Invocation("iJ", [_T(2, 3)]),
    Invocation("Ba,aB->aB", [_T(2, 3), _T(3, 2)]),
    Invocation(" i j , j k -> i k ", [_T(2, 3), _T(3, 4)]),
    Invocation("ij,jk,kl->il", [_T(2, 3), _T(3, 4), _T(4, 5)]),
    Invocation("ij,jk,kl->il", [_T(2, 3), _T(3, 4), _T(4, 5)], path=[1, 2, 0, 1]),
    Invocation("ij,jk,kl->il", [_T(2, 3), _T(3, 4), _T(4, 5)], path=[1, 0, 1, 0]),
    Invocation("ij->i", [_T(2, 3)], path=[0]),
    Invocation("...ij,...jk->...ik", [_T(5, 1, 2, 3), _T(4, 3, 4)]),
    Invocation("...ij,...jk", [_T(5, 1, 2, 3), _T(4, 3, 4)]),
    Invocation("i...j,j...->...", [_T(2, 6, 7, 3), _T(3, 7)]),
    Invocation("i...i->...i", [_T(3, 5, 3)]),
    Invocation("...a,b...,...->b...", [_T(4, 1, 2), _T(6, 1, 7), _T(5, 1, 1)]),
    Invocation("...ij->ij", [_T(5, 2, 3)]),
    Invocation("...ij->...", [_T(5, 2, 3)]),
    Invocation("...ij->...", [_T(2, 3)]),
    Invocation("ij->...ij", [_T(2, 3)]),
    Invocation("ij->j...i", [_T(2, 3)]),
    Invocation("...->", [_T(2, 3)]),
    Invocation("...", [_T()]),
    Invocation("", [_T()]),
    Invocation("->", [_T()]),
    Invocation(",->", [_T(), _T()]),
    Invocation("ij,j->i", [_T(2, 3), _T(1)]),
    Invocation("ij,j->ij", [_T(2, 1), _T(3)]),
    Invocation("i,i->i", [_T(3), _T(1)]),
    Invocation("ij,ij->ij", [_T(2, 1), _T(1, 3)]),
    Invocation("...i,...i->...", [_T(2, 3), _T(1, 3)]),
    Invocation("...i,...i->...", [_T(0, 3), _T(1, 3)]),
    Invocation("i,i->", [_T(0), _T(1)]),
    Invocation("ij,jk->ik", [_T(0, 3), _T(3, 4)]),
    Invocation("ij,jk->ik", [_T(2, 0), _T(0, 4)]),
    Invocation("ii->i", [_T(0, 0)]),
    # The operand count, the subscripts against each rank.
    ErrorInvocation("ij", []),
    ErrorInvocation("ij,jk", [_T(2, 3)]),
    ErrorInvocation("ij", [_T(2, 3), _T(3, 4)]),
    ErrorInvocation("ij", [_T(2, 3, 4)]),
    ErrorInvocation("ijk", [_T(2, 3)]),
    ErrorInvocation("ijk...", [_T(2, 3)]),
    # Sizes: a label across operands broadcasts, repeated in one operand it must be equal.
    ErrorInvocation("ij,jk", [_T(2, 3), _T(4, 4)]),
    ErrorInvocation("i,i->", [_T(0), _T(3)]),
    ErrorInvocation("ii->i", [_T(3, 4)]),
    ErrorInvocation("ii", [_T(3, 1)]),
    ErrorInvocation("i...i", [_T(3, 5, 4)]),
    ErrorInvocation("...i,...i->...", [_T(2, 3), _T(4, 3)]),
    # The equation alone (einsum_plan).
    ErrorInvocation("i-j", [_T(2, 3)]),
    ErrorInvocation("i1", [_T(2, 3)]),
    ErrorInvocation("i.j", [_T(2, 3)]),
    ErrorInvocation("......", [_T(2, 3)]),
    ErrorInvocation("i->->i", [_T(2)]),
    ErrorInvocation("i->i..", [_T(2)]),
    ErrorInvocation("...i->......", [_T(2)]),
    ErrorInvocation("ij->ii", [_T(2, 3)]),
    ErrorInvocation("ij->k", [_T(2, 3)]),
    # The contraction path.
    ErrorInvocation("ij,jk->ik", [_T(2, 3), _T(3, 4)], path=[0, 1, 0, 1]),
    ErrorInvocation("ij,jk->ik", [_T(2, 3), _T(3, 4)], path=[0, 0]),
    ErrorInvocation("ij,jk->ik", [_T(2, 3), _T(3, 4)], path=[0, 2]),
    ErrorInvocation("ij,jk,kl->il", [_T(2, 3), _T(3, 4), _T(4, 5)], path=[0, 1, 0, 2]),
    ErrorInvocation("ij->i", [_T(2, 3)], path=[]),
])
def aten〇einsum〡shape(equation: str, tensors: List[List[int]], path: Optional[List[int]] = None) -> List[int]:
    plan = einsum_plan(equation)
    ranks: List[int] = []
    for sizes in tensors:
        ranks.append(len(sizes))
    ellipsis_dims = _einsum_ellipsis_dims(plan, ranks)
    if path is not None:
        _check_einsum_path(path, len(tensors))
    label_sizes, ellipsis_sizes = _einsum_sizes(plan, tensors, ellipsis_dims)
    out: List[int] = []
    for label in plan[0]:
        if label == -1:
            out = out + ellipsis_sizes
        else:
            out.append(label_sizes[label])
    return out


def _einsum_case(equation: str, shapes, dtypes, case=Invocation):
    return case(equation, [_T(*shape, dtype=d) for shape, d in zip(shapes, dtypes)])


@dtype("aten.einsum", invocations=[
    # Nothing summed: a permutation (diagonals included), or products that promote.
    _einsum_case("ij->ji", [(2, 3)], [d]) for d in _SWEEP] + [
    _einsum_case("ii->i", [(3, 3)], [d]) for d in _SWEEP] + [
    _einsum_case("...i->i", [(3,)], [d]) for d in _SWEEP] + [
    _einsum_case("i,j->ij", [(2,), (3,)], [a, b]) for a, b in itertools.product(_SWEEP, _SWEEP)] + [
    _einsum_case(",->", [(), ()], [a, b]) for a, b in itertools.product(_SWEEP, _SWEEP)] + [
    _einsum_case("i,j,k", [(2,), (3,), (4,)], [torch.int8, torch.bool, torch.float32]),
    # One operand summed: sum's dtype (integral and bool accumulate in int64).
] + [_einsum_case(equation, [shape], [d]) for d in _SWEEP
     for equation, shape in (("ij->i", (2, 3)), ("ii", (3, 3)), ("...->", (2, 3)), ("...i->i", (2, 3)),
                             ("ii->", (0, 0)))] + [
    # Products that sum: floating and complex operands of one dtype keep it; other ones sum
    # an operand first or not (sizes decide), so its dtype is unknown.
    _einsum_case("ij,jk->ik", [(2, 3), (3, 4)], [d, d]) for d in _SWEEP
    if d.is_floating_point or d.is_complex or d == torch.int64] + [
    _einsum_case("ij,jk->ik", [(2, 3), (3, 4)], [d, d], UnknownDtypeInvocation)
    for d in (torch.uint8, torch.int32, torch.bool)] + [
    _einsum_case("i,i->", [(3,), (1,)], [d, d], UnknownDtypeInvocation) for d in (torch.int8, torch.bool)] + [
    _einsum_case("i,i->", [(3,), (1,)], [torch.float32, torch.float64], UnknownDtypeInvocation),
    _einsum_case("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)], [torch.float16] * 3),
    _einsum_case("ij", [(2, 3, 4)], [torch.float32], ErrorInvocation),
    _einsum_case("ij,jk", [(2, 3)], [torch.float32], ErrorInvocation),
    _einsum_case("ij->k", [(2, 3)], [torch.float32], ErrorInvocation),
])
def aten〇einsum〡dtype(equation: str, tensors_rank_dtype: List[Tuple[int, int]], path: Optional[List[int]] = None) -> int:
    # PyTorch multiplies the operands pairwise (a mul, or a bmm when the pair sums a label
    # both have), summing first the labels only one operand of the pair has (sizes of 1
    # decide which), and sums a lone operand over every label not in the output.
    plan = einsum_plan(equation)
    ranks: List[int] = []
    dtypes: List[int] = []
    for rank, code in tensors_rank_dtype:
        ranks.append(rank)
        dtypes.append(code)
    ellipsis_dims = _einsum_ellipsis_dims(plan, ranks)
    kept = len(plan[0]) - 1 if -1 in plan[0] else len(plan[0])
    sums = kept < _einsum_label_count(plan) or (-1 not in plan[0] and ellipsis_dims > 0)
    if not sums:
        return _promote_all(dtypes)  # every operand is unsqueezed to the same rank
    first = dtypes[0]
    if len(dtypes) == 1:
        return 4 if is_integer_dtype(first) or first == 11 else first  # int64, bool
    for other in dtypes:
        if other != first:
            return unknown_dtype()
    if is_float_dtype(first) or is_complex_dtype(first) or first == 4:
        return first
    return unknown_dtype()
