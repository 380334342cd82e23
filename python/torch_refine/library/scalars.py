"""Number ops of TorchScript programs: arithmetic on Scalars (`aten.add`, `prim.abs.Scalar`)
and the conversions between numbers and zero-rank tensors (`prim.NumToTensor.Scalar`,
`aten.ScalarImplicit`).

A number's dtype code says its kind: int64 for int, float64 for float, complex128 for
complex (bool is no Scalar: TorchScript's `number` excludes it, and these ops refuse it).
"""

from typing import List, Tuple, Union

import torch

from ._helpers import scalar_dtype
from .registry import dtype, shape
from .testing import (
    ErrorInvocation,
    Invocation,
    KernelErrorInvocation,
    KernelInvocation,
    TensorOfShape,
)

_NUMBERS = (2, 2.5, 1j)


def _number_kind(value: Union[int, float, complex], op: str) -> int:
    code = scalar_dtype(value)
    assert code != 11, op + ": bool is not a Scalar"  # 11: bool
    return code


@dtype("aten.add", invocations=[Invocation(a, b) for a in _NUMBERS for b in _NUMBERS]
       + [ErrorInvocation(True, 2), ErrorInvocation(2, True)])
def aten〇add〡dtype(a: Union[int, float, complex], b: Union[int, float, complex]) -> int:
    a_kind = _number_kind(a, "aten.add")
    b_kind = _number_kind(b, "aten.add")
    if a_kind == 10 or b_kind == 10:  # 10: complex128
        return 10
    if a_kind == 7 or b_kind == 7:  # 7: float64
        return 7
    return 4  # int64


@dtype("prim.abs.Scalar", invocations=[Invocation(v) for v in (-2, -2.5, 1 + 1j)]
       + [ErrorInvocation(True)])
def prim〇abs〇Scalar〡dtype(a: Union[int, float, complex]) -> int:
    kind = _number_kind(a, "prim.abs.Scalar")
    return 7 if kind == 10 else kind  # the magnitude of a complex is a float


@shape("prim.NumToTensor.Scalar", invocations=[Invocation(2.5), Invocation(-1.0)])
def prim〇NumToTensor〇Scalar〡shape(a: float) -> List[int]:
    return []


@dtype("prim.NumToTensor.Scalar", invocations=[Invocation(v) for v in (2, 2.5, True, 1j)])
def prim〇NumToTensor〇Scalar〡dtype(a: Union[int, float, complex]) -> int:
    return scalar_dtype(a)


# The number keeps the tensor's dtype (callers refine `!torch.number` with it). Checked on
# the dtypes whose Python number has that same dtype (meta tensors have no value).
@dtype("aten.ScalarImplicit", invocations=[
    KernelInvocation(TensorOfShape(dtype=d))
    for d in (torch.int64, torch.float64, torch.bool, torch.complex128)
] + [KernelErrorInvocation(TensorOfShape(1)), KernelErrorInvocation(TensorOfShape(2, 3))])
def aten〇ScalarImplicit〡dtype(a_rank_dtype: Tuple[int, int]) -> int:
    assert a_rank_dtype[0] == 0, "ScalarImplicit: only a zero-rank tensor converts to a Scalar"
    return a_rank_dtype[1]
