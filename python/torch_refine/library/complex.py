"""Complex numbers: building complex tensors from real ones (polar, view_as_complex) and
taking them apart (real, imag, view_as_real). Each complex dtype pairs with one real dtype:
complex32 with float16, complex64 with float32 (and bfloat16's promotion), complex128 with
float64.
"""

from typing import List, Tuple

import torch
import torch.jit._shape_functions as upstream

from .promotion import is_complex_dtype, to_complex_dtype, to_real_dtype
from .registry import dtype, shape
from .testing import (
    ErrorInvocation,
    Invocation,
    KernelErrorInvocation,
    KernelInvocation,
    TensorOfShape,
)

_SWEEP = (
    torch.uint8, torch.int32, torch.int64, torch.float16, torch.bfloat16, torch.float32,
    torch.float64, torch.bool, torch.complex32, torch.complex64, torch.complex128,
)
_UNARY_SHAPES = [Invocation(TensorOfShape(*s)) for s in [(2, 3), (), (0, 4)]]


def _is_half_float_or_double(dtype: int) -> bool:
    return dtype == 5 or dtype == 6 or dtype == 7


def _complex_shapes(*shapes) -> list:
    return [Invocation(TensorOfShape(*s, dtype=torch.complex64)) for s in shapes]


@shape("aten.polar", invocations=[
    Invocation(TensorOfShape(2, 1), TensorOfShape(3)), Invocation(TensorOfShape(), TensorOfShape(0)),
    Invocation(TensorOfShape(2, 3), TensorOfShape(2, 3)),
    ErrorInvocation(TensorOfShape(2), TensorOfShape(3)),
])
def aten〇polar〡shape(abs: List[int], angle: List[int]) -> List[int]:
    return upstream.broadcast(abs, angle)


# The CPU kernel's checks: equal dtypes, float16, float32 or float64 (the meta kernel also
# takes bfloat16 and promotes mixed dtypes). float16 itself has no CPU kernel.
@dtype("aten.polar", invocations=[
    KernelInvocation(TensorOfShape(2, dtype=d), TensorOfShape(2, dtype=d))
    for d in (torch.float32, torch.float64)
] + [Invocation(TensorOfShape(2, dtype=torch.float16), TensorOfShape(2, dtype=torch.float16))] + [
    ErrorInvocation(TensorOfShape(2, dtype=d), TensorOfShape(2, dtype=d))
    for d in (torch.int64, torch.bool, torch.complex64)
] + [
    KernelErrorInvocation(TensorOfShape(2, dtype=a), TensorOfShape(2, dtype=b))
    for a, b in ((torch.bfloat16, torch.bfloat16), (torch.float32, torch.float64),
                 (torch.float16, torch.float32))
])
def aten〇polar〡dtype(abs_rank_dtype: Tuple[int, int], angle_rank_dtype: Tuple[int, int]) -> int:
    abs_dtype = abs_rank_dtype[1]
    assert _is_half_float_or_double(abs_dtype), "polar: abs must be float16, float32 or float64"
    assert angle_rank_dtype[1] == abs_dtype, "polar: abs and angle must have the same dtype"
    return to_complex_dtype(abs_dtype)


@shape("aten.real", invocations=_UNARY_SHAPES + _complex_shapes((2, 3), ()))
def aten〇real〡shape(self: List[int]) -> List[int]:
    return upstream.unary(self)


@dtype("aten.real", invocations=[Invocation(TensorOfShape(2, dtype=d)) for d in _SWEEP])
def aten〇real〡dtype(self_rank_dtype: Tuple[int, int]) -> int:
    return to_real_dtype(self_rank_dtype[1])


@shape("aten.imag", invocations=_complex_shapes((2, 3), (), (0, 4)))
def aten〇imag〡shape(self: List[int]) -> List[int]:
    return upstream.unary(self)


@dtype("aten.imag", invocations=[
    Invocation(TensorOfShape(2, dtype=d)) if d.is_complex else ErrorInvocation(TensorOfShape(2, dtype=d))
    for d in _SWEEP
])
def aten〇imag〡dtype(self_rank_dtype: Tuple[int, int]) -> int:
    assert is_complex_dtype(self_rank_dtype[1]), "imag: only complex tensors have an imaginary part"
    return to_real_dtype(self_rank_dtype[1])


@shape("aten.view_as_complex", invocations=[
    Invocation(TensorOfShape(3, 2)), Invocation(TensorOfShape(2)), Invocation(TensorOfShape(0, 2)),
    ErrorInvocation(TensorOfShape()), ErrorInvocation(TensorOfShape(3, 3)),
])
def aten〇view_as_complex〡shape(self: List[int]) -> List[int]:
    assert len(self) >= 1, "view_as_complex: the input tensor must have one or more dimensions"
    assert self[-1] == 2, "view_as_complex: the last dimension must have size 2"
    return self[:-1]


@dtype("aten.view_as_complex", invocations=[
    Invocation(TensorOfShape(3, 2, dtype=d)) if d in (torch.float16, torch.float32, torch.float64)
    else ErrorInvocation(TensorOfShape(3, 2, dtype=d))
    for d in _SWEEP
])
def aten〇view_as_complex〡dtype(self_rank_dtype: Tuple[int, int]) -> int:
    assert _is_half_float_or_double(self_rank_dtype[1]), \
        "view_as_complex: only float16, float32 and float64 tensors are supported"
    return to_complex_dtype(self_rank_dtype[1])


@shape("aten.view_as_real", invocations=_complex_shapes((3,), (), (2, 0)))
def aten〇view_as_real〡shape(self: List[int]) -> List[int]:
    out = upstream._copy(self)
    out.append(2)
    return out


@dtype("aten.view_as_real", invocations=[
    Invocation(TensorOfShape(3, dtype=d)) if d.is_complex else ErrorInvocation(TensorOfShape(3, dtype=d))
    for d in _SWEEP
])
def aten〇view_as_real〡dtype(self_rank_dtype: Tuple[int, int]) -> int:
    assert is_complex_dtype(self_rank_dtype[1]), "view_as_real: only complex tensors are supported"
    return to_real_dtype(self_rank_dtype[1])
