"""Random ops on a tensor: samples shaped like `self` (uniform, exponential, bernoulli,
normal_functional) or drawn from it (multinomial).

The result keeps `self`'s sizes and dtype, except multinomial's int64 indices. The dtype
checks follow the meta kernels, which let integral tensors through where only the CPU
kernels refuse them (uniform, bernoulli); checks that every device makes but the meta
kernels skip (bernoulli's probability range, multinomial's sample count) are verified
against the CPU kernels.
"""

from typing import Any, List, Optional, Tuple

import torch
import torch.jit._shape_functions as upstream

from .elementwise import DTYPE_SWEEP
from .promotion import is_complex_dtype, is_float_dtype
from .registry import dtype, shape
from .testing import (
    ErrorInvocation,
    Invocation,
    KernelErrorInvocation,
    KernelInvocation,
    TensorOfShape,
)

_SELF_SHAPES = [Invocation(TensorOfShape(*s)) for s in [(2, 3), (), (0, 4)]]


def _self_dtypes(*args, **kwargs) -> list[Invocation]:
    return [Invocation(TensorOfShape(2, 3, dtype=d), *args, **kwargs) for d in DTYPE_SWEEP]


def _float_only_errors(*args) -> list[ErrorInvocation]:
    return [ErrorInvocation(TensorOfShape(2, dtype=d), *args)
            for d in (torch.int64, torch.bool, torch.complex64)]


# --- Samples shaped like `self` --------------------------------------------------------------


@shape("aten.uniform", invocations=_SELF_SHAPES)
def aten〇uniform〡shape(self: List[int], from_: float = 0.0, to: float = 1.0, generator: Optional[Any] = None) -> List[int]:
    return upstream._copy(self)


@shape("aten.bernoulli", invocations=_SELF_SHAPES)
def aten〇bernoulli〡shape(self: List[int], generator: Optional[Any] = None) -> List[int]:
    return upstream._copy(self)


@dtype("aten.uniform", invocations=_self_dtypes() + _self_dtypes(1.0, 0.0))
def aten〇uniform〡dtype(self_rank_dtype: Tuple[int, int], from_: float = 0.0, to: float = 1.0, generator: Optional[Any] = None) -> int:
    return self_rank_dtype[1]


@dtype("aten.bernoulli", invocations=_self_dtypes())
def aten〇bernoulli〡dtype(self_rank_dtype: Tuple[int, int], generator: Optional[Any] = None) -> int:
    return self_rank_dtype[1]


@shape("aten.exponential", invocations=_SELF_SHAPES + [
    Invocation(TensorOfShape(2), 0.5),
    ErrorInvocation(TensorOfShape(2), 0.0),
    ErrorInvocation(TensorOfShape(2), -1.0),
])
def aten〇exponential〡shape(self: List[int], lambd: float = 1.0, generator: Optional[Any] = None) -> List[int]:
    if not lambd > 0.0:
        raise AssertionError("exponential: expects lambda > 0.0")
    return upstream._copy(self)


@dtype("aten.exponential", invocations=[
    case for case in _self_dtypes() if case.args[0].dtype.is_floating_point
] + _float_only_errors())
def aten〇exponential〡dtype(self_rank_dtype: Tuple[int, int], lambd: float = 1.0, generator: Optional[Any] = None) -> int:
    if not is_float_dtype(self_rank_dtype[1]):
        raise AssertionError("exponential: a continuous distribution, dtype must be floating point")
    return self_rank_dtype[1]


@shape("aten.normal_functional", invocations=_SELF_SHAPES + [
    Invocation(TensorOfShape(2), 3.0, 0.0),
    ErrorInvocation(TensorOfShape(2), 0.0, -1.0),
])
def aten〇normal_functional〡shape(self: List[int], mean: float = 0.0, std: float = 1.0, generator: Optional[Any] = None) -> List[int]:
    if not std >= 0.0:
        raise AssertionError("normal: expects std >= 0.0")
    return upstream._copy(self)


@dtype("aten.normal_functional", invocations=[
    case for case in _self_dtypes()
    if case.args[0].dtype.is_floating_point or case.args[0].dtype.is_complex
] + _float_only_errors()[:2])
def aten〇normal_functional〡dtype(self_rank_dtype: Tuple[int, int], mean: float = 0.0, std: float = 1.0, generator: Optional[Any] = None) -> int:
    self_dtype = self_rank_dtype[1]
    if not (is_float_dtype(self_dtype) or is_complex_dtype(self_dtype)):
        raise AssertionError("normal: expected a floating-point or complex dtype")
    return self_dtype


@shape("aten.bernoulli.p", invocations=_SELF_SHAPES + [
    Invocation(TensorOfShape(2, 3), 0.0),
    Invocation(TensorOfShape(2, 3), 1.0),
    KernelErrorInvocation(TensorOfShape(2, 3), 1.5),
    KernelErrorInvocation(TensorOfShape(2, 3), -0.5),
])
def aten〇bernoulli〇p〡shape(self: List[int], p: float, generator: Optional[Any] = None) -> List[int]:
    if not (p >= 0.0 and p <= 1.0):
        raise AssertionError("bernoulli: expects p to be in [0, 1]")
    return upstream._copy(self)


@dtype("aten.bernoulli.p", invocations=_self_dtypes(0.5))
def aten〇bernoulli〇p〡dtype(self_rank_dtype: Tuple[int, int], p: float, generator: Optional[Any] = None) -> int:
    return self_rank_dtype[1]


@shape("aten.bernoulli.Tensor", invocations=[
    Invocation(TensorOfShape(2, 3), TensorOfShape(2, 3)),
    Invocation(TensorOfShape(2, 3), TensorOfShape(3)),
    Invocation(TensorOfShape(2, 3), TensorOfShape()),
    Invocation(TensorOfShape(0, 3), TensorOfShape(1, 3)),
    KernelInvocation(TensorOfShape(2, 3), TensorOfShape(2, 1)),
    KernelErrorInvocation(TensorOfShape(2, 3), TensorOfShape(2)),
    KernelErrorInvocation(TensorOfShape(3), TensorOfShape(2, 3)),
    KernelInvocation(TensorOfShape(2, 0), TensorOfShape(3)),
    KernelInvocation(TensorOfShape(0, 3), TensorOfShape(5, 2, 7)),
])
def aten〇bernoulli〇Tensor〡shape(self: List[int], p: List[int], generator: Optional[Any] = None) -> List[int]:
    # The CPU kernel expands the probabilities to a non-empty `self` (the meta kernel skips
    # that check); an empty `self` is returned first.
    if upstream.numel(self) == 0:
        return upstream._copy(self)
    return upstream.broadcast_inplace(self, p)


@dtype("aten.bernoulli.Tensor", invocations=[
    Invocation(TensorOfShape(2, 3, dtype=a), TensorOfShape(3, dtype=b))
    for a in DTYPE_SWEEP for b in (torch.float32, torch.float64, torch.int64)
])
def aten〇bernoulli〇Tensor〡dtype(self_rank_dtype: Tuple[int, int], p_rank_dtype: Tuple[int, int], generator: Optional[Any] = None) -> int:
    return self_rank_dtype[1]


# --- Samples drawn from `self` ---------------------------------------------------------------


@shape("aten.multinomial", invocations=[
    Invocation(TensorOfShape(3), 2),
    Invocation(TensorOfShape(3), 3),
    Invocation(TensorOfShape(3), 5, True),
    Invocation(TensorOfShape(2, 3), 4, True),
    Invocation(TensorOfShape(0, 3), 2),
    ErrorInvocation(TensorOfShape(), 1),
    ErrorInvocation(TensorOfShape(2, 3, 4), 1),
    ErrorInvocation(TensorOfShape(3), -1, True),
    KernelErrorInvocation(TensorOfShape(3), 0, True),
    KernelErrorInvocation(TensorOfShape(3), 4),
    KernelErrorInvocation(TensorOfShape(2, 3), 4, False),
])
def aten〇multinomial〡shape(self: List[int], num_samples: int, replacement: bool = False, generator: Optional[Any] = None) -> List[int]:
    rank = len(self)
    if rank != 1 and rank != 2:
        raise AssertionError("multinomial: the probability distributions must be 1-D or 2-D")
    if num_samples <= 0:
        raise AssertionError("multinomial: cannot sample num_samples <= 0 samples")
    if not replacement and num_samples > self[-1]:
        raise AssertionError("multinomial: cannot sample more samples than categories "
                             "without replacement")
    if rank == 1:
        return [num_samples]
    return [self[0], num_samples]


@dtype("aten.multinomial", invocations=[
    KernelInvocation(TensorOfShape(3, dtype=d), 2)
    for d in (torch.float16, torch.bfloat16, torch.float32, torch.float64)
] + [
    KernelErrorInvocation(TensorOfShape(3, dtype=d), 2)
    for d in (torch.int64, torch.uint8, torch.bool, torch.complex64)
])
def aten〇multinomial〡dtype(self_rank_dtype: Tuple[int, int], num_samples: int, replacement: bool = False, generator: Optional[Any] = None) -> int:
    # The meta kernel accepts any input dtype; every real kernel wants floating point.
    if not is_float_dtype(self_rank_dtype[1]):
        raise AssertionError("multinomial: only supports floating-point dtypes for input")
    return 4  # int64
