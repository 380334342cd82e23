"""Reductions (sum, mean, amax, argmax, max.dim, var ...), scans (cumsum), softmax and
sorting ops. Shapes drop or keep (as 1) the reduced dims; dtypes follow each op's rule.

Dtype checks that only the real kernels make (argmax of bools, var of integers, softmax of
integers) are verified against the CPU kernels (KernelInvocation).
"""

import itertools
from typing import List, Optional, Tuple, Union

import torch
import torch.jit._shape_functions as upstream

from ._helpers import scalar_dtype
from .promotion import is_complex_dtype, is_float_dtype, is_integer_dtype, to_real_dtype
from .registry import dtype, shape
from .testing import (
    ErrorInvocation,
    Invocation,
    KernelErrorInvocation,
    KernelInvocation,
    TensorOfShape,
)

_DTYPE_SWEEP = (
    torch.uint8, torch.int32, torch.int64, torch.float16, torch.bfloat16,
    torch.float32, torch.float64, torch.bool, torch.complex64,
)


def _reduced_flags(self: List[int], dims: Optional[List[int]]) -> List[bool]:
    """Per dim of `self`, whether it is reduced; no dims (None or []) reduces every dim."""
    rank = len(self)
    flags: List[bool] = []
    for _ in range(rank):
        flags.append(dims is None or len(dims) == 0)
    if dims is None:
        return flags
    # More dims than the tensor has means one repeats: fail before looping over them. Then
    # the flags themselves tell repeats, one check per dim (not a pairwise scan, whose
    # unrolling grows as the square of the list).
    assert len(dims) <= max(rank, 1), "reduction: a dim appears twice in the list of dims"
    for d in dims:
        wrapped = upstream.maybe_wrap_dim(d, rank)
        if rank > 0:
            assert not flags[wrapped], "reduction: a dim appears twice in the list of dims"
            flags[wrapped] = True
    return flags


def _reduce(self: List[int], flags: List[bool], keepdim: bool) -> List[int]:
    out: List[int] = []
    for i in range(len(self)):
        if not flags[i]:
            out.append(self[i])
        elif keepdim:
            out.append(1)
    return out


def _check_nonzero_reduced(self: List[int], flags: List[bool]) -> None:
    """Reductions without an identity (max, argmax ...) cannot reduce a zero-size dim."""
    for i in range(len(self)):
        assert not flags[i] or self[i] != 0, \
            "reduction: cannot reduce over a zero-size dim without an identity"


def _sum_dtype(self_dtype: int, dtype: Optional[int]) -> int:
    """sum, prod, cumsum: integral and bool accumulate in int64 unless `dtype` says."""
    if dtype is not None:
        return dtype
    if is_integer_dtype(self_dtype) or self_dtype == 11:
        return 4
    return self_dtype


def _mean_dtype(self_dtype: int, dtype: Optional[int]) -> int:
    result = self_dtype if dtype is None else dtype
    assert is_float_dtype(result) or is_complex_dtype(result), \
        "mean: the result dtype must be floating-point or complex"
    return result


def _check_orderable(self_dtype: int, op: str, bool_ok: bool) -> None:
    assert not is_complex_dtype(self_dtype), op + ": complex tensors are not supported"
    assert bool_ok or self_dtype != 11, op + ": bool tensors are not supported"


def _var_dtype(self_dtype: int) -> int:
    assert is_float_dtype(self_dtype) or is_complex_dtype(self_dtype), \
        "var/std: only floating-point and complex tensors are supported"
    return to_real_dtype(self_dtype)


# Shape cases for ops that take a list of dims.
_DIMS_SHAPES = [
    Invocation(TensorOfShape(2, 3, 4), [1]),
    Invocation(TensorOfShape(2, 3, 4), [0, -1], True),
    Invocation(TensorOfShape(2, 3, 4), [], True),
    Invocation(TensorOfShape(0, 3), [1]),
    Invocation(TensorOfShape(), [0]),
    Invocation(TensorOfShape(), [-1], True),
    ErrorInvocation(TensorOfShape(2, 3), [0, -2]),
    ErrorInvocation(TensorOfShape(2, 3), [2]),
    ErrorInvocation(TensorOfShape(), [1]),
]
_OPTIONAL_DIMS_SHAPES = _DIMS_SHAPES + [
    Invocation(TensorOfShape(2, 3), None),
    Invocation(TensorOfShape(2, 3), None, True),
]
# Shape cases for ops that take one dim.
_DIM_SHAPES = [
    Invocation(TensorOfShape(2, 3, 4), 1),
    Invocation(TensorOfShape(2, 3, 4), -1, True),
    Invocation(TensorOfShape(0, 3), 1),
    Invocation(TensorOfShape(), 0),
    Invocation(TensorOfShape(), -1, True),
    ErrorInvocation(TensorOfShape(2, 3), 2),
    ErrorInvocation(TensorOfShape(2, 3), -3),
]
_WHOLE_SHAPES = [Invocation(TensorOfShape(*s)) for s in [(2, 3), (), (0, 4)]]


def _sweep(case=Invocation, *args, **kwargs) -> list:
    return [case(TensorOfShape(2, 3, dtype=d), *args, **kwargs) for d in _DTYPE_SWEEP]


def _dtype_arg_sweep(*args) -> list:
    """Every input dtype with no `dtype` argument and with each of a few."""
    return [Invocation(TensorOfShape(2, 3, dtype=d), *args, dtype=out)
            for d, out in itertools.product(_DTYPE_SWEEP, (None, torch.int32, torch.float16,
                                                            torch.float64, torch.complex64))]


# sum, prod, mean over every dim.

@shape("aten.sum", "aten.prod", "aten.mean", invocations=_WHOLE_SHAPES)
def aten〇sum〡shape(self: List[int], dtype: Optional[int] = None) -> List[int]:
    return []


@dtype("aten.sum", "aten.prod", invocations=_dtype_arg_sweep())
def aten〇sum〡dtype(self_rank_dtype: Tuple[int, int], dtype: Optional[int] = None) -> int:
    return _sum_dtype(self_rank_dtype[1], dtype)


@dtype("aten.mean", invocations=_dtype_arg_sweep())
def aten〇mean〡dtype(self_rank_dtype: Tuple[int, int], dtype: Optional[int] = None) -> int:
    return _mean_dtype(self_rank_dtype[1], dtype)


# sum, mean over a list of dims.

@shape("aten.sum.dim_IntList", "aten.mean.dim", invocations=_OPTIONAL_DIMS_SHAPES)
def aten〇sum〇dim_IntList〡shape(self: List[int], dim: Optional[List[int]], keepdim: bool = False, dtype: Optional[int] = None) -> List[int]:
    return _reduce(self, _reduced_flags(self, dim), keepdim)


@dtype("aten.sum.dim_IntList", invocations=_dtype_arg_sweep([0]))
def aten〇sum〇dim_IntList〡dtype(self_rank_dtype: Tuple[int, int], dim: Optional[List[int]], keepdim: bool = False, dtype: Optional[int] = None) -> int:
    return _sum_dtype(self_rank_dtype[1], dtype)


@dtype("aten.mean.dim", invocations=_dtype_arg_sweep([0]))
def aten〇mean〇dim〡dtype(self_rank_dtype: Tuple[int, int], dim: Optional[List[int]], keepdim: bool = False, dtype: Optional[int] = None) -> int:
    return _mean_dtype(self_rank_dtype[1], dtype)


# prod over one dim, cumsum along one dim.

@shape("aten.prod.dim_int", invocations=_DIM_SHAPES)
def aten〇prod〇dim_int〡shape(self: List[int], dim: int, keepdim: bool = False, dtype: Optional[int] = None) -> List[int]:
    return _reduce(self, _reduced_flags(self, [dim]), keepdim)


@dtype("aten.prod.dim_int", invocations=_dtype_arg_sweep(0))
def aten〇prod〇dim_int〡dtype(self_rank_dtype: Tuple[int, int], dim: int, keepdim: bool = False, dtype: Optional[int] = None) -> int:
    return _sum_dtype(self_rank_dtype[1], dtype)


@shape("aten.cumsum", invocations=[
    Invocation(TensorOfShape(2, 3), 1), Invocation(TensorOfShape(0, 3), -2),
    Invocation(TensorOfShape(), 0), Invocation(TensorOfShape(), -1),
    ErrorInvocation(TensorOfShape(2, 3), 2), ErrorInvocation(TensorOfShape(), 1),
])
def aten〇cumsum〡shape(self: List[int], dim: int, dtype: Optional[int] = None) -> List[int]:
    upstream.maybe_wrap_dim(dim, len(self))
    return upstream.unary(self)


@dtype("aten.cumsum", invocations=_dtype_arg_sweep(0))
def aten〇cumsum〡dtype(self_rank_dtype: Tuple[int, int], dim: int, dtype: Optional[int] = None) -> int:
    return _sum_dtype(self_rank_dtype[1], dtype)


# amax, amin: no identity, so no zero-size reduced dim.

@shape("aten.amax", "aten.amin", invocations=_DIMS_SHAPES + [
    Invocation(TensorOfShape(2, 3)),
    ErrorInvocation(TensorOfShape(0, 3)),
    ErrorInvocation(TensorOfShape(0, 3), [0]),
])
def aten〇amax〡shape(self: List[int], dim: List[int] = (), keepdim: bool = False) -> List[int]:
    flags = _reduced_flags(self, dim)
    _check_nonzero_reduced(self, flags)
    return _reduce(self, flags, keepdim)


@dtype("aten.amax", "aten.amin", invocations=_sweep(KernelInvocation, [0])
    + [KernelErrorInvocation(TensorOfShape(2, 3, dtype=torch.complex64), [0])])
def aten〇amax〡dtype(self_rank_dtype: Tuple[int, int], dim: List[int] = (), keepdim: bool = False) -> int:
    _check_orderable(self_rank_dtype[1], "amax/amin", True)
    return self_rank_dtype[1]


# any, all: bool results, except that uint8 stays uint8.

def _any_dtype(self_dtype: int) -> int:
    return 0 if self_dtype == 0 else 11


@shape("aten.any", invocations=_WHOLE_SHAPES)
def aten〇any〡shape(self: List[int]) -> List[int]:
    return []


@dtype("aten.any", invocations=_sweep())
def aten〇any〡dtype(self_rank_dtype: Tuple[int, int]) -> int:
    return _any_dtype(self_rank_dtype[1])


@shape("aten.any.dim", "aten.all.dim", invocations=_DIM_SHAPES)
def aten〇any〇dim〡shape(self: List[int], dim: int, keepdim: bool = False) -> List[int]:
    return _reduce(self, _reduced_flags(self, [dim]), keepdim)


@dtype("aten.any.dim", "aten.all.dim", invocations=_sweep(Invocation, 0))
def aten〇any〇dim〡dtype(self_rank_dtype: Tuple[int, int], dim: int, keepdim: bool = False) -> int:
    return _any_dtype(self_rank_dtype[1])


@shape("aten.any.dims", invocations=_OPTIONAL_DIMS_SHAPES)
def aten〇any〇dims〡shape(self: List[int], dim: Optional[List[int]] = None, keepdim: bool = False) -> List[int]:
    # Unlike sum, an empty list of dims reduces nothing.
    if dim is not None and len(dim) == 0:
        return upstream.unary(self)
    return _reduce(self, _reduced_flags(self, dim), keepdim)


@dtype("aten.any.dims", invocations=_sweep(Invocation, [0]))
def aten〇any〇dims〡dtype(self_rank_dtype: Tuple[int, int], dim: Optional[List[int]] = None, keepdim: bool = False) -> int:
    return _any_dtype(self_rank_dtype[1])


# argmax, argmin: int64 indices; no dim means the flattened tensor.

@shape("aten.argmax", "aten.argmin", invocations=[
    Invocation(TensorOfShape(2, 3)), Invocation(TensorOfShape(2, 3), None, True),
    Invocation(TensorOfShape(0, 3), 1), Invocation(TensorOfShape(), 0, True),
    Invocation(TensorOfShape(2, 3, 4), -2, True),
    ErrorInvocation(TensorOfShape(0, 3)), ErrorInvocation(TensorOfShape(0, 3), 0),
    ErrorInvocation(TensorOfShape(2, 3), 2),
])
def aten〇argmax〡shape(self: List[int], dim: Optional[int] = None, keepdim: bool = False) -> List[int]:
    if dim is None:
        assert upstream.numel(self) != 0, \
            "argmax/argmin: a reduction dim must be given for a tensor with no elements"
        if keepdim:
            return _reduce(self, _reduced_flags(self, None), True)
        return []
    flags = _reduced_flags(self, [dim])
    _check_nonzero_reduced(self, flags)
    return _reduce(self, flags, keepdim)


@dtype("aten.argmax", "aten.argmin", invocations=_sweep(KernelInvocation)
    + [KernelErrorInvocation(TensorOfShape(2, 3, dtype=torch.bool))])
def aten〇argmax〡dtype(self_rank_dtype: Tuple[int, int], dim: Optional[int] = None, keepdim: bool = False) -> int:
    _check_orderable(self_rank_dtype[1], "argmax/argmin", False)
    return 4


# max.dim, min.dim: (values, int64 indices).

@shape("aten.max.dim", "aten.min.dim", invocations=_DIM_SHAPES)
def aten〇max〇dim〡shape(self: List[int], dim: int, keepdim: bool = False) -> Tuple[List[int], List[int]]:
    out = _reduce(self, _reduced_flags(self, [dim]), keepdim)
    return out, out


@dtype("aten.max.dim", "aten.min.dim", invocations=_sweep(KernelInvocation, 0)
    + [KernelErrorInvocation(TensorOfShape(2, 3, dtype=torch.complex64), 0)])
def aten〇max〇dim〡dtype(self_rank_dtype: Tuple[int, int], dim: int, keepdim: bool = False) -> Tuple[int, int]:
    _check_orderable(self_rank_dtype[1], "max/min", True)
    return self_rank_dtype[1], 4


# sort, topk: (values, int64 indices).

@shape("aten.sort", invocations=[
    Invocation(TensorOfShape(2, 3)), Invocation(TensorOfShape(2, 3), 0, True),
    Invocation(TensorOfShape(0, 3), -2), Invocation(TensorOfShape(), 0),
    KernelErrorInvocation(TensorOfShape(2), 1),
])
def aten〇sort〡shape(self: List[int], dim: int = -1, descending: bool = False) -> Tuple[List[int], List[int]]:
    upstream.maybe_wrap_dim(dim, len(self))
    return upstream.unary(self), upstream.unary(self)


@dtype("aten.sort", invocations=_sweep())
def aten〇sort〡dtype(self_rank_dtype: Tuple[int, int], dim: int = -1, descending: bool = False) -> Tuple[int, int]:
    return self_rank_dtype[1], 4


@shape("aten.topk", invocations=[
    Invocation(TensorOfShape(2, 5), 3), Invocation(TensorOfShape(2, 5), 2, 0),
    Invocation(TensorOfShape(2, 5), 0, -1), Invocation(TensorOfShape(), 1),
    Invocation(TensorOfShape(), 0), Invocation(TensorOfShape(0, 3), 0, 0),
    ErrorInvocation(TensorOfShape(2, 5), 6), ErrorInvocation(TensorOfShape(2, 5), -1),
    ErrorInvocation(TensorOfShape(), 2), ErrorInvocation(TensorOfShape(2, 5), 1, 2),
])
def aten〇topk〡shape(self: List[int], k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Tuple[List[int], List[int]]:
    wrapped = upstream.maybe_wrap_dim(dim, len(self))
    size = 1 if len(self) == 0 else self[wrapped]
    assert k >= 0, "aten.topk: k must not be negative"
    assert k <= size, "aten.topk: k is larger than the size of dim"
    result = upstream.unary(self)
    if len(self) > 0:
        result[wrapped] = k
    return result, result


@dtype("aten.topk", invocations=_sweep(Invocation, 1))
def aten〇topk〡dtype(self_rank_dtype: Tuple[int, int], k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Tuple[int, int]:
    return self_rank_dtype[1], 4


# var, std: real results of floating-point or complex inputs.

@shape("aten.var.correction", "aten.std.correction", invocations=[
    Invocation(*case.args) for case in _OPTIONAL_DIMS_SHAPES if len(case.args) == 2
] + [
    Invocation(TensorOfShape(2, 3), [1], correction=0, keepdim=True),
    Invocation(TensorOfShape(2, 3), correction=1.5),
    ErrorInvocation(TensorOfShape(2, 3), [0, 0]),
])
def aten〇var〇correction〡shape(self: List[int], dim: Optional[List[int]] = None, correction: Optional[float] = None, keepdim: bool = False) -> List[int]:
    return _reduce(self, _reduced_flags(self, dim), keepdim)


@dtype("aten.var.correction", "aten.std.correction", invocations=_sweep(KernelInvocation) + [
    KernelInvocation(TensorOfShape(3), correction=0),
    KernelInvocation(TensorOfShape(3, dtype=torch.float64), [0], correction=1.5),
    ErrorInvocation(TensorOfShape(3), correction=1j),
])
def aten〇var〇correction〡dtype(self_rank_dtype: Tuple[int, int], dim: Optional[List[int]] = None, correction: Optional[Union[int, float, complex]] = None, keepdim: bool = False) -> int:
    if correction is not None:
        assert not is_complex_dtype(scalar_dtype(correction)), \
            "var/std: correction must be an integer or a float"
    return _var_dtype(self_rank_dtype[1])


@shape("aten.var.dim", "aten.std.dim", invocations=_OPTIONAL_DIMS_SHAPES + [
    Invocation(TensorOfShape(2, 3), [0], False, True),
])
def aten〇var〇dim〡shape(self: List[int], dim: Optional[List[int]], unbiased: bool = True, keepdim: bool = False) -> List[int]:
    return _reduce(self, _reduced_flags(self, dim), keepdim)


@dtype("aten.var.dim", "aten.std.dim", invocations=_sweep(KernelInvocation, [0]))
def aten〇var〇dim〡dtype(self_rank_dtype: Tuple[int, int], dim: Optional[List[int]], unbiased: bool = True, keepdim: bool = False) -> int:
    return _var_dtype(self_rank_dtype[1])


# softmax, log_softmax: same shape; floating-point only, unless `dtype` converts first.

_SOFTMAX_SHAPES = [
    Invocation(TensorOfShape(2, 3), 1), Invocation(TensorOfShape(2, 3), -2),
    Invocation(TensorOfShape(0, 3), 0), Invocation(TensorOfShape(), 0),
    KernelErrorInvocation(TensorOfShape(2, 3), 2),
]


@shape("aten._softmax", "aten._log_softmax",
       invocations=[Invocation(*case.args, False) for case in _SOFTMAX_SHAPES[:-1]]
       + [KernelErrorInvocation(*_SOFTMAX_SHAPES[-1].args, False)])
def aten〇_softmax〡shape(self: List[int], dim: int, half_to_float: bool) -> List[int]:
    upstream.maybe_wrap_dim(dim, len(self))
    return upstream.unary(self)


def _softmax_dtype(self_dtype: int, half_to_float: bool, bfloat16_to_float: bool) -> int:
    if half_to_float:
        assert self_dtype == 5 or (bfloat16_to_float and self_dtype == 15), \
            "softmax: half_to_float needs a float16 tensor (or bfloat16 for _softmax)"
        return 6
    assert is_float_dtype(self_dtype), "softmax: only floating-point tensors are supported"
    return self_dtype


# CPU kernels have no half_to_float; the meta kernels define it.
_SOFTMAX_DTYPES = _sweep(KernelInvocation, 0, False) + _sweep(Invocation, 0, True)


@dtype("aten._softmax", invocations=_SOFTMAX_DTYPES)
def aten〇_softmax〡dtype(self_rank_dtype: Tuple[int, int], dim: int, half_to_float: bool) -> int:
    return _softmax_dtype(self_rank_dtype[1], half_to_float, True)


@dtype("aten._log_softmax", invocations=_SOFTMAX_DTYPES)
def aten〇_log_softmax〡dtype(self_rank_dtype: Tuple[int, int], dim: int, half_to_float: bool) -> int:
    return _softmax_dtype(self_rank_dtype[1], half_to_float, False)


@shape("aten.softmax.int", "aten.log_softmax.int", invocations=_SOFTMAX_SHAPES)
def aten〇softmax〇int〡shape(self: List[int], dim: int, dtype: Optional[int] = None) -> List[int]:
    upstream.maybe_wrap_dim(dim, len(self))
    return upstream.unary(self)


@dtype("aten.softmax.int", "aten.log_softmax.int", invocations=[
    KernelInvocation(TensorOfShape(2, 3, dtype=d), 0, out)
    for d, out in itertools.product(_DTYPE_SWEEP, (None, torch.float16, torch.float64))
]
    + [KernelErrorInvocation(TensorOfShape(2, 3, dtype=torch.uint8), 0, None)])
def aten〇softmax〇int〡dtype(self_rank_dtype: Tuple[int, int], dim: int, dtype: Optional[int] = None) -> int:
    result = self_rank_dtype[1] if dtype is None else dtype
    assert is_float_dtype(result), "softmax: only floating-point tensors are supported"
    return result
