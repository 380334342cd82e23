"""Value forms of in-place ops that exist only in torch-mlir's Torch dialect, not in
PyTorch's registry (so `signature_check=False`): `aten.bernoulli.float`, the value form of
`aten.bernoulli_.float`. The signature is the in-place schema's, and the cases run the
in-place overload (`testing.op_overload`), whose result has `self`'s sizes and dtype.
"""

from typing import Any, List, Optional, Tuple

import torch

from .registry import dtype, shape
from .testing import Invocation, KernelErrorInvocation, TensorOfShape


def _check_probability(p: float) -> None:
    if not (p >= 0.0 and p <= 1.0):
        raise AssertionError("bernoulli expects p to be in [0, 1]")


@shape("aten.bernoulli.float", signature_check=False, invocations=[
    Invocation(TensorOfShape(2, 3), 0.5),
    Invocation(TensorOfShape(), 0.0),
    KernelErrorInvocation(TensorOfShape(2, 3), 1.5),
    KernelErrorInvocation(TensorOfShape(2, 3), -0.5),
])
def aten〇bernoulli〇float〡shape(self: List[int], p: float = 0.5, generator: Optional[Any] = None) -> List[int]:
    _check_probability(p)
    return self


@dtype("aten.bernoulli.float", signature_check=False, invocations=[
    Invocation(TensorOfShape(2, 3), 0.5),
    Invocation(TensorOfShape(2, 3, dtype=torch.int32), 0.5),
    Invocation(TensorOfShape(2, 3, dtype=torch.float64), 1.0),
    KernelErrorInvocation(TensorOfShape(2, 3), 1.5),
])
def aten〇bernoulli〇float〡dtype(self_rank_dtype: Tuple[int, int], p: float = 0.5, generator: Optional[Any] = None) -> int:
    _check_probability(p)
    return self_rank_dtype[1]
