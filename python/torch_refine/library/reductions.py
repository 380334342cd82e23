"""Reductions (sum, mean, amax, argmax, max.dim, var ...), scans (cumsum), softmax and
sorting ops. Shapes drop or keep (as 1) the reduced dims; dtypes follow each op's rule.

Dtype checks that only the real kernels make (argmax of bools, var of integers, softmax of
integers) are verified against the CPU kernels (KernelInvocation).
"""

import itertools
import math
from typing import List, Optional, Tuple, Union

import torch
import torch.jit._shape_functions as upstream

from ._helpers import scalar_dtype
from .promotion import (
    is_complex_dtype,
    is_float_dtype,
    is_integer_dtype,
    promote_types,
    to_real_dtype,
)
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


@shape("aten.cumsum", "aten.cumprod", invocations=[
    Invocation(TensorOfShape(2, 3), 1), Invocation(TensorOfShape(0, 3), -2),
    Invocation(TensorOfShape(), 0), Invocation(TensorOfShape(), -1),
    ErrorInvocation(TensorOfShape(2, 3), 2), ErrorInvocation(TensorOfShape(), 1),
])
def aten〇cumsum〡shape(self: List[int], dim: int, dtype: Optional[int] = None) -> List[int]:
    upstream.maybe_wrap_dim(dim, len(self))
    return upstream.unary(self)


@dtype("aten.cumsum", "aten.cumprod", invocations=_dtype_arg_sweep(0))
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


@shape("aten.any", "aten.all", invocations=_WHOLE_SHAPES)
def aten〇any〡shape(self: List[int]) -> List[int]:
    return []


@dtype("aten.any", "aten.all", invocations=_sweep())
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


def _softmax_dtype(result: int, log: bool) -> int:
    """Any dtype, as the meta kernels have it (the CPU kernels reject integral, bool and
    complex tensors, but only non-empty ones, which a dtype function cannot tell apart);
    log_softmax of bool subtracts two bool tensors, which raises."""
    assert not (log and result == 11), "log_softmax: bool tensors are not supported"
    return result


def _half_to_float_dtype(self_dtype: int, half_to_float: bool, bfloat16_to_float: bool) -> int:
    if not half_to_float:
        return self_dtype
    assert self_dtype == 5 or (bfloat16_to_float and self_dtype == 15), \
        "softmax: half_to_float needs a float16 tensor (or bfloat16 for _softmax)"
    return 6


_SOFTMAX_DTYPES = _sweep(Invocation, 0, False) + _sweep(Invocation, 0, True) + [
    ErrorInvocation(TensorOfShape(2, 3, dtype=torch.float32), 0, True)]


@dtype("aten._softmax", invocations=_SOFTMAX_DTYPES)
def aten〇_softmax〡dtype(self_rank_dtype: Tuple[int, int], dim: int, half_to_float: bool) -> int:
    return _softmax_dtype(_half_to_float_dtype(self_rank_dtype[1], half_to_float, True), False)


@dtype("aten._log_softmax", invocations=_SOFTMAX_DTYPES
       + [ErrorInvocation(TensorOfShape(2, 3, dtype=torch.bool), 0, False)])
def aten〇_log_softmax〡dtype(self_rank_dtype: Tuple[int, int], dim: int, half_to_float: bool) -> int:
    return _softmax_dtype(_half_to_float_dtype(self_rank_dtype[1], half_to_float, False), True)


@shape("aten.softmax.int", "aten.log_softmax.int", invocations=_SOFTMAX_SHAPES)
def aten〇softmax〇int〡shape(self: List[int], dim: int, dtype: Optional[int] = None) -> List[int]:
    upstream.maybe_wrap_dim(dim, len(self))
    return upstream.unary(self)


_SOFTMAX_INT_DTYPES = [
    Invocation(TensorOfShape(2, 3, dtype=d), 0, out)
    for d, out in itertools.product(_DTYPE_SWEEP, (None, torch.float16, torch.float64, torch.int32))
]


@dtype("aten.softmax.int", invocations=_SOFTMAX_INT_DTYPES)
def aten〇softmax〇int〡dtype(self_rank_dtype: Tuple[int, int], dim: int, dtype: Optional[int] = None) -> int:
    return _softmax_dtype(self_rank_dtype[1] if dtype is None else dtype, False)


@dtype("aten.log_softmax.int", invocations=_SOFTMAX_INT_DTYPES
       + [ErrorInvocation(TensorOfShape(2, 3, dtype=torch.bool), 0, None)])
def aten〇log_softmax〇int〡dtype(self_rank_dtype: Tuple[int, int], dim: int, dtype: Optional[int] = None) -> int:
    return _softmax_dtype(self_rank_dtype[1] if dtype is None else dtype, True)


# max, min over every dim: no identity, so no empty tensor (the CPU kernels check it; the
# meta kernels do not).

@shape("aten.max", "aten.min", invocations=[
    Invocation(TensorOfShape(2, 3)), Invocation(TensorOfShape()),
    KernelErrorInvocation(TensorOfShape(0, 3)),
])
def aten〇max〡shape(self: List[int]) -> List[int]:
    assert upstream.numel(self) != 0, \
        "max/min: a reduction dim must be given for a tensor with no elements"
    return []


@dtype("aten.max", "aten.min", invocations=_sweep(KernelInvocation)
    + [KernelErrorInvocation(TensorOfShape(2, 3, dtype=torch.complex64))])
def aten〇max〡dtype(self_rank_dtype: Tuple[int, int]) -> int:
    _check_orderable(self_rank_dtype[1], "max/min", True)
    return self_rank_dtype[1]


# aminmax: (min, max), over one dim or, without one, over every dim.

@shape("aten.aminmax", invocations=[
    Invocation(TensorOfShape(2, 3)), Invocation(TensorOfShape(2, 3), keepdim=True),
    Invocation(TensorOfShape(2, 3), dim=1), Invocation(TensorOfShape(0, 3), dim=1),
    Invocation(TensorOfShape(2, 3, 4), dim=-2, keepdim=True),
    Invocation(TensorOfShape(), dim=0, keepdim=True), Invocation(TensorOfShape()),
    ErrorInvocation(TensorOfShape(0, 3)), ErrorInvocation(TensorOfShape(0, 3), dim=0),
    ErrorInvocation(TensorOfShape(), dim=1),
])
def aten〇aminmax〡shape(self: List[int], dim: Optional[int] = None, keepdim: bool = False) -> Tuple[List[int], List[int]]:
    flags = _reduced_flags(self, None if dim is None else [dim])
    _check_nonzero_reduced(self, flags)
    out = _reduce(self, flags, keepdim)
    return out, out


@dtype("aten.aminmax", invocations=_sweep(KernelInvocation) + _sweep(KernelInvocation, dim=0)
    + [KernelErrorInvocation(TensorOfShape(2, 3, dtype=torch.complex64))])
def aten〇aminmax〡dtype(self_rank_dtype: Tuple[int, int], dim: Optional[int] = None, keepdim: bool = False) -> Tuple[int, int]:
    _check_orderable(self_rank_dtype[1], "aminmax", True)
    return self_rank_dtype[1], self_rank_dtype[1]


# argsort: sort's int64 indices.

@shape("aten.argsort", invocations=[
    Invocation(TensorOfShape(2, 3)), Invocation(TensorOfShape(2, 3), 0, True),
    Invocation(TensorOfShape(0, 3), -2), Invocation(TensorOfShape(), 0),
    KernelErrorInvocation(TensorOfShape(2), 1), KernelErrorInvocation(TensorOfShape(), 1),
])
def aten〇argsort〡shape(self: List[int], dim: int = -1, descending: bool = False) -> List[int]:
    upstream.maybe_wrap_dim(dim, len(self))
    return upstream.unary(self)


@dtype("aten.argsort", invocations=_sweep(KernelInvocation)
    + [KernelErrorInvocation(TensorOfShape(2, 3, dtype=torch.complex64))])
def aten〇argsort〡dtype(self_rank_dtype: Tuple[int, int], dim: int = -1, descending: bool = False) -> int:
    _check_orderable(self_rank_dtype[1], "argsort", True)
    return 4


# kthvalue: (values, int64 indices) of the k-th smallest along one dim, 1 <= k <= its size.

@shape("aten.kthvalue", invocations=[
    Invocation(TensorOfShape(2, 3), 3), Invocation(TensorOfShape(2, 3), 2, 0, True),
    Invocation(TensorOfShape(0, 3), 1, 1), Invocation(TensorOfShape(), 1),
    Invocation(TensorOfShape(), 1, -1, True), Invocation(TensorOfShape(2, 3, 4), 1, -2),
    ErrorInvocation(TensorOfShape(2, 3), 0), ErrorInvocation(TensorOfShape(2, 3), 4),
    ErrorInvocation(TensorOfShape(), 2), ErrorInvocation(TensorOfShape(0, 3), 1, 0),
    ErrorInvocation(TensorOfShape(2, 3), 1, 2),
])
def aten〇kthvalue〡shape(self: List[int], k: int, dim: int = -1, keepdim: bool = False) -> Tuple[List[int], List[int]]:
    wrapped = upstream.maybe_wrap_dim(dim, len(self))
    size = 1 if len(self) == 0 else self[wrapped]
    assert k >= 1 and k <= size, "kthvalue: k is out of range for the size of dim"
    out = _reduce(self, _reduced_flags(self, [dim]), keepdim)
    return out, out


@dtype("aten.kthvalue", invocations=_sweep(KernelInvocation, 1)
    + [KernelErrorInvocation(TensorOfShape(2, 3, dtype=torch.bool), 1)])
def aten〇kthvalue〡dtype(self_rank_dtype: Tuple[int, int], k: int, dim: int = -1, keepdim: bool = False) -> Tuple[int, int]:
    _check_orderable(self_rank_dtype[1], "kthvalue", False)
    return self_rank_dtype[1], 4


# logcumsumexp: same shape; floating-point and complex only (the CPU kernels check it).

@shape("aten.logcumsumexp", invocations=[
    Invocation(TensorOfShape(2, 3), 1), Invocation(TensorOfShape(0, 3), -2),
    Invocation(TensorOfShape(), 0), ErrorInvocation(TensorOfShape(2, 3), 2),
])
def aten〇logcumsumexp〡shape(self: List[int], dim: int) -> List[int]:
    upstream.maybe_wrap_dim(dim, len(self))
    return upstream.unary(self)


@dtype("aten.logcumsumexp", invocations=_sweep(KernelInvocation, 0)
    + [KernelErrorInvocation(TensorOfShape(2, 3, dtype=torch.int64), 0)])
def aten〇logcumsumexp〡dtype(self_rank_dtype: Tuple[int, int], dim: int) -> int:
    self_dtype = self_rank_dtype[1]
    assert is_float_dtype(self_dtype) or is_complex_dtype(self_dtype), \
        "logcumsumexp: only floating-point and complex tensors are supported"
    return self_dtype


# var, std, var_mean over every dim (the unbiased overloads) or over dims.

@shape("aten.var", "aten.std", invocations=[
    Invocation(TensorOfShape(2, 3)), Invocation(TensorOfShape(), False),
    Invocation(TensorOfShape(0, 4), True),
])
def aten〇var〡shape(self: List[int], unbiased: bool = True) -> List[int]:
    return []


@dtype("aten.var", "aten.std", invocations=_sweep(KernelInvocation)
    + [KernelErrorInvocation(TensorOfShape(2, 3, dtype=torch.int64))])
def aten〇var〡dtype(self_rank_dtype: Tuple[int, int], unbiased: bool = True) -> int:
    return _var_dtype(self_rank_dtype[1])


@shape("aten.var_mean", invocations=[
    Invocation(TensorOfShape(2, 3)), Invocation(TensorOfShape(), False),
    Invocation(TensorOfShape(0, 4), True),
])
def aten〇var_mean〡shape(self: List[int], unbiased: bool = True) -> Tuple[List[int], List[int]]:
    return [], []


@dtype("aten.var_mean", invocations=_sweep(KernelInvocation)
    + [KernelErrorInvocation(TensorOfShape(2, 3, dtype=torch.int64))])
def aten〇var_mean〡dtype(self_rank_dtype: Tuple[int, int], unbiased: bool = True) -> Tuple[int, int]:
    return _var_dtype(self_rank_dtype[1]), self_rank_dtype[1]


@shape("aten.var_mean.correction", invocations=[
    Invocation(*case.args) for case in _OPTIONAL_DIMS_SHAPES if len(case.args) == 2
] + [
    Invocation(TensorOfShape(2, 3), [1], correction=0, keepdim=True),
    Invocation(TensorOfShape(2, 3), correction=1.5),
    ErrorInvocation(TensorOfShape(2, 3), [0, 0]),
])
def aten〇var_mean〇correction〡shape(self: List[int], dim: Optional[List[int]] = None, correction: Optional[float] = None, keepdim: bool = False) -> Tuple[List[int], List[int]]:
    out = _reduce(self, _reduced_flags(self, dim), keepdim)
    return out, out


@dtype("aten.var_mean.correction", invocations=_sweep(KernelInvocation) + [
    KernelInvocation(TensorOfShape(3), correction=0),
    KernelInvocation(TensorOfShape(3, dtype=torch.float64), [0], correction=1.5),
    ErrorInvocation(TensorOfShape(3), correction=1j),
])
def aten〇var_mean〇correction〡dtype(self_rank_dtype: Tuple[int, int], dim: Optional[List[int]] = None, correction: Optional[Union[int, float, complex]] = None, keepdim: bool = False) -> Tuple[int, int]:
    if correction is not None:
        assert not is_complex_dtype(scalar_dtype(correction)), \
            "var_mean: correction must be an integer or a float"
    return _var_dtype(self_rank_dtype[1]), self_rank_dtype[1]


@shape("aten.var_mean.dim", invocations=_OPTIONAL_DIMS_SHAPES + [
    Invocation(TensorOfShape(2, 3), [0], False, True),
])
def aten〇var_mean〇dim〡shape(self: List[int], dim: Optional[List[int]], unbiased: bool = True, keepdim: bool = False) -> Tuple[List[int], List[int]]:
    out = _reduce(self, _reduced_flags(self, dim), keepdim)
    return out, out


@dtype("aten.var_mean.dim", invocations=_sweep(KernelInvocation, [0])
    + [KernelErrorInvocation(TensorOfShape(2, 3, dtype=torch.int64), [0])])
def aten〇var_mean〇dim〡dtype(self_rank_dtype: Tuple[int, int], dim: Optional[List[int]], unbiased: bool = True, keepdim: bool = False) -> Tuple[int, int]:
    return _var_dtype(self_rank_dtype[1]), self_rank_dtype[1]


# count_nonzero: int64 counts; an empty list of dims counts over every dim.

@shape("aten.count_nonzero", invocations=[
    Invocation(TensorOfShape(2, 3)), Invocation(TensorOfShape(2, 3), 1),
    Invocation(TensorOfShape(0, 3), -2), Invocation(TensorOfShape(), 0),
    ErrorInvocation(TensorOfShape(2, 3), 2),
])
def aten〇count_nonzero〡shape(self: List[int], dim: Optional[int] = None) -> List[int]:
    if dim is None:
        return []
    return _reduce(self, _reduced_flags(self, [dim]), False)


@dtype("aten.count_nonzero", invocations=_sweep() + _sweep(Invocation, 0))
def aten〇count_nonzero〡dtype(self_rank_dtype: Tuple[int, int], dim: Optional[int] = None) -> int:
    return 4


@shape("aten.count_nonzero.dim_IntList", invocations=[
    Invocation(*case.args[:2]) if case.expects_error is False else ErrorInvocation(*case.args[:2])
    for case in _DIMS_SHAPES
])
def aten〇count_nonzero〇dim_IntList〡shape(self: List[int], dim: List[int]) -> List[int]:
    return _reduce(self, _reduced_flags(self, dim), False)


@dtype("aten.count_nonzero.dim_IntList", invocations=_sweep(Invocation, [0]))
def aten〇count_nonzero〇dim_IntList〡dtype(self_rank_dtype: Tuple[int, int], dim: List[int]) -> int:
    return 4


# histc: `bins` counts in the input's dtype. The meta kernel takes every dtype (CPU's
# rejects non-floating inputs, CUDA's takes integers too), and so does the dtype function.
# An infinite range passes the meta kernel; the CPU kernel rejects it once run.

@shape("aten.histc", invocations=[
    Invocation(TensorOfShape(32), 4, 0, 3), Invocation(TensorOfShape(2, 3)),
    Invocation(TensorOfShape(), 7, 1.5, 1.5), Invocation(TensorOfShape(0, 2), 1, -2, 2.5),
    Invocation(TensorOfShape(5), 3, 0, math.inf),
    ErrorInvocation(TensorOfShape(5), 0), ErrorInvocation(TensorOfShape(5), -1, 0, 1),
    ErrorInvocation(TensorOfShape(5), 4, 3, 0), ErrorInvocation(TensorOfShape(5), 4, math.nan, 3),
])
def aten〇histc〡shape(self: List[int], bins: int = 100, min: float = 0, max: float = 0) -> List[int]:
    if bins <= 0:
        raise AssertionError("histc(): bins must be > 0")
    if not max >= min:  # NaN bounds fail too
        raise AssertionError("histc(): max must be larger than min")
    return [bins]


@dtype("aten.histc", invocations=_sweep(Invocation, 4, 0, 3))
def aten〇histc〡dtype(self_rank_dtype: Tuple[int, int], bins: int = 100, min: Union[int, float, complex] = 0, max: Union[int, float, complex] = 0) -> int:
    return self_rank_dtype[1]


# Vector and matrix norms: real results of floating-point or complex inputs.

def _norm_dtype(self_dtype: int, dtype: Optional[int]) -> int:
    """The real dtype of a norm of `self_dtype`, computed in `dtype` if given."""
    assert is_float_dtype(self_dtype) or is_complex_dtype(self_dtype), \
        "norm: expected a floating-point or complex tensor as input"
    if dtype is None:
        return to_real_dtype(self_dtype)
    assert is_float_dtype(dtype) or is_complex_dtype(dtype), \
        "norm: dtype should be floating point or complex"
    assert is_complex_dtype(self_dtype) == is_complex_dtype(dtype), \
        "norm: dtype should be complex for complex inputs and real for real inputs"
    assert promote_types(self_dtype, dtype) == dtype, \
        "norm: the input dtype should be convertible without narrowing to dtype"
    return to_real_dtype(dtype)


def _check_real_order(ord: Union[int, float, complex]) -> None:
    assert not is_complex_dtype(scalar_dtype(ord)), "norm: the order must not be complex"


def _vector_norm_shape(self: List[int], ord: float, dim: Optional[List[int]], keepdim: bool) -> List[int]:
    flags = _reduced_flags(self, dim)
    if ord < 0 or ord == math.inf:  # the norms without an identity: min, max, negative powers
        _check_nonzero_reduced(self, flags)
    return _reduce(self, flags, keepdim)


_NORM_DTYPE_CASES = [
    Invocation(TensorOfShape(2, 3, dtype=d), dtype=out)
    for d, out in itertools.product(_DTYPE_SWEEP + (torch.complex128,),
                                    (None, torch.float16, torch.float32, torch.float64,
                                     torch.complex64, torch.complex128, torch.int64))
]


@shape("aten.linalg_vector_norm", invocations=[
    Invocation(*case.args[:1], 2.0, *case.args[1:2], *case.args[2:])
    if not case.expects_error else ErrorInvocation(case.args[0], 2.0, *case.args[1:])
    for case in _OPTIONAL_DIMS_SHAPES
] + [
    Invocation(TensorOfShape(0, 3), 0.0), Invocation(TensorOfShape(0, 3), math.inf, [1]),
    Invocation(TensorOfShape(2, 3), -1.0, [0], True),
    ErrorInvocation(TensorOfShape(0, 3), math.inf), ErrorInvocation(TensorOfShape(0, 3), -1.0),
    ErrorInvocation(TensorOfShape(0, 3), -math.inf, [0]),
])
def aten〇linalg_vector_norm〡shape(self: List[int], ord: float = 2, dim: Optional[List[int]] = None, keepdim: bool = False, dtype: Optional[int] = None) -> List[int]:
    return _vector_norm_shape(self, ord, dim, keepdim)


@dtype("aten.linalg_vector_norm", invocations=[
    Invocation(*case.args, **case.kwargs) for case in _NORM_DTYPE_CASES
] + [Invocation(TensorOfShape(2, 3), True), ErrorInvocation(TensorOfShape(2, 3), 1j)])
def aten〇linalg_vector_norm〡dtype(self_rank_dtype: Tuple[int, int], ord: Union[int, float, complex] = 2, dim: Optional[List[int]] = None, keepdim: bool = False, dtype: Optional[int] = None) -> int:
    _check_real_order(ord)
    return _norm_dtype(self_rank_dtype[1], dtype)


def _is_matrix_norm(rank: int, ord_given: bool, dim: Optional[List[int]]) -> bool:
    """linalg_norm computes a matrix norm when given an order and two dims (or a matrix)."""
    if not ord_given:
        return False
    if dim is not None:
        return len(dim) == 2
    return rank == 2


def _check_linalg_norm_dims(rank: int, ord_given: bool, dim: Optional[List[int]]) -> None:
    if dim is not None:
        assert len(dim) == 1 or len(dim) == 2, "linalg_norm: dim must have length 1 or 2"
    elif ord_given:
        assert rank == 1 or rank == 2, \
            "linalg_norm: with an order but no dim, the input must be 1D or 2D"


@shape("aten.linalg_norm", invocations=[
    Invocation(TensorOfShape(2, 3, 4)), Invocation(TensorOfShape(2, 3, 4), keepdim=True),
    Invocation(TensorOfShape(2, 3), 2.0), Invocation(TensorOfShape(3), 3.0),
    Invocation(TensorOfShape(2, 3, 4), 3.0, [1]), Invocation(TensorOfShape(2, 3, 4), 2.0, [0, 1]),
    Invocation(TensorOfShape(2, 3, 4), -2.0, [0, 2], True),
    Invocation(TensorOfShape(2, 3, 4), math.inf, [-1, -3]),
    Invocation(TensorOfShape(2, 3, 4), None, [0, 1]), Invocation(TensorOfShape(2, 3, 4), None, [0]),
    Invocation(TensorOfShape(0, 3), 1.0), Invocation(TensorOfShape()),
    ErrorInvocation(TensorOfShape(2, 3, 4), 2.0), ErrorInvocation(TensorOfShape(2, 3), 3.0),
    ErrorInvocation(TensorOfShape(2, 3, 4), 3.0, [0, 1]),
    ErrorInvocation(TensorOfShape(2, 3, 4), -2.0, [0, 0]),
    ErrorInvocation(TensorOfShape(2, 3, 4), None, [0, 1, 2]),
    ErrorInvocation(TensorOfShape(2, 3, 4), None, []), ErrorInvocation(TensorOfShape(), 2.0),
    ErrorInvocation(TensorOfShape(0), math.inf), ErrorInvocation(TensorOfShape(2, 3, 4), 1.0, [0, 3]),
])
def aten〇linalg_norm〡shape(self: List[int], ord: Optional[float] = None, dim: Optional[List[int]] = None, keepdim: bool = False, dtype: Optional[int] = None) -> List[int]:
    _check_linalg_norm_dims(len(self), ord is not None, dim)
    if ord is None:
        return _vector_norm_shape(self, 2.0, dim, keepdim)
    if not _is_matrix_norm(len(self), True, dim):
        return _vector_norm_shape(self, ord, dim, keepdim)
    assert ord == 1.0 or ord == -1.0 or ord == 2.0 or ord == -2.0 or ord == math.inf \
        or ord == -math.inf, "linalg_norm: this order is not supported for matrix norms"
    dims = [-2, -1] if dim is None else dim
    first = upstream.maybe_wrap_dim(dims[0], len(self))
    second = upstream.maybe_wrap_dim(dims[1], len(self))
    assert first != second, "linalg_norm: the dims of a matrix norm must be different"
    return _reduce(self, _reduced_flags(self, dims), keepdim)


@dtype("aten.linalg_norm", invocations=_NORM_DTYPE_CASES + [
    Invocation(TensorOfShape(2, 3, dtype=d), o, dim, dtype=out)
    for d in (torch.float16, torch.bfloat16, torch.float32, torch.complex64)
    for o, dim in ((2, None), (-2, [0, 1]), (1, None), (2, [1]), (2.5, [0]))
    for out in (None, torch.float64)
] + [Invocation(TensorOfShape(2, 3), True), ErrorInvocation(TensorOfShape(2, 3), 1j)])
def aten〇linalg_norm〡dtype(self_rank_dtype: Tuple[int, int], ord: Optional[Union[int, float, complex]] = None, dim: Optional[List[int]] = None, keepdim: bool = False, dtype: Optional[int] = None) -> int:
    self_rank, self_dtype = self_rank_dtype
    result = _norm_dtype(self_dtype, dtype)
    if ord is None:
        return result
    _check_real_order(ord)
    if not _is_matrix_norm(self_rank, True, dim) or scalar_dtype(ord) == 11:
        return result  # a bool order is 0 or 1
    order = float(ord)
    if order == 2.0 or order == -2.0:  # through singular values, which need float32 or wider
        assert self_dtype != 5 and self_dtype != 15, \
            "linalg_norm: low precision dtypes are not supported for the 2-norm of a matrix"
    return result


@shape("aten.norm.Scalar", invocations=[
    Invocation(TensorOfShape(2, 3)), Invocation(TensorOfShape(), 1.0),
    Invocation(TensorOfShape(0, 3), 0.0),
    ErrorInvocation(TensorOfShape(0, 3), math.inf), ErrorInvocation(TensorOfShape(0, 3), -1.0),
])
def aten〇norm〇Scalar〡shape(self: List[int], p: float = 2) -> List[int]:
    return _vector_norm_shape(self, p, None, False)


@dtype("aten.norm.Scalar", invocations=[Invocation(TensorOfShape(2, 3, dtype=d), p)
                                         for d in _DTYPE_SWEEP for p in (2, 1.5, True)]
       + [ErrorInvocation(TensorOfShape(2, 3), 1j)])
def aten〇norm〇Scalar〡dtype(self_rank_dtype: Tuple[int, int], p: Union[int, float, complex] = 2) -> int:
    _check_real_order(p)
    return _norm_dtype(self_rank_dtype[1], None)


@shape("aten.norm.ScalarOpt_dim", invocations=[
    Invocation(case.args[0], 2.0, *case.args[1:])
    if not case.expects_error else ErrorInvocation(case.args[0], 2.0, *case.args[1:])
    for case in _DIMS_SHAPES
] + [
    Invocation(TensorOfShape(2, 3), None, [1]), Invocation(TensorOfShape(2, 3, 4), 3.0, [0, 1, 2]),
    ErrorInvocation(TensorOfShape(0, 3), math.inf, [0]),
])
def aten〇norm〇ScalarOpt_dim〡shape(self: List[int], p: Optional[float], dim: List[int], keepdim: bool = False) -> List[int]:
    return _vector_norm_shape(self, 2.0 if p is None else p, dim, keepdim)


@dtype("aten.norm.ScalarOpt_dim", invocations=[
    Invocation(TensorOfShape(2, 3, dtype=d), p, [0]) for d in _DTYPE_SWEEP for p in (None, 2, 1.5)
] + [ErrorInvocation(TensorOfShape(2, 3), 1j, [0])])
def aten〇norm〇ScalarOpt_dim〡dtype(self_rank_dtype: Tuple[int, int], p: Optional[Union[int, float, complex]], dim: List[int], keepdim: bool = False) -> int:
    if p is not None:
        _check_real_order(p)
    return _norm_dtype(self_rank_dtype[1], None)


@shape("aten.frobenius_norm.dim", invocations=[
    Invocation(TensorOfShape(2, 3, 4), [0, 1]), Invocation(TensorOfShape(2, 3, 4), [1], True),
    Invocation(TensorOfShape(2, 3, 4), []), Invocation(TensorOfShape(0, 3), [0]),
    ErrorInvocation(TensorOfShape(2, 3, 4), [0, 1, 2]), ErrorInvocation(TensorOfShape(2, 3), [1, 1]),
    ErrorInvocation(TensorOfShape(2, 3), [2]),
])
def aten〇frobenius_norm〇dim〡shape(self: List[int], dim: List[int], keepdim: bool = False) -> List[int]:
    assert len(dim) <= 2, "frobenius_norm: expected at most 2 dims"
    return _vector_norm_shape(self, 2.0, dim, keepdim)


@dtype("aten.frobenius_norm.dim", invocations=_sweep(Invocation, [0]))
def aten〇frobenius_norm〇dim〡dtype(self_rank_dtype: Tuple[int, int], dim: List[int], keepdim: bool = False) -> int:
    return _norm_dtype(self_rank_dtype[1], None)
