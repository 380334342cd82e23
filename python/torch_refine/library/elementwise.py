"""Elementwise ops: the result broadcasts the tensor operands; the dtype follows PyTorch's
promotion kinds. Most ops are one row of data: (ops, promotion kind[, dtype check])."""

import itertools
from typing import List, Optional, Tuple, Union  # noqa: F401 (used by synthesized functions)

import torch
import torch.jit._shape_functions as upstream  # noqa: F401 (used by synthesized functions)

from . import promotion
from ._helpers import (  # noqa: F401 (used by synthesized functions)
    broadcast_shapes,
    check_dtypes_not_bool,
    elementwise_dtype,
    scalar_dtype,
)
from ._synthesize import define
from .signatures import lookup_schema
from .testing import ErrorInvocation, Invocation, TensorOfShape

# Scalar parameters that scale an operand and do not take part in promotion.
_NON_PROMOTING = frozenset({"alpha"})

# The dtypes every elementwise dtype function is checked on, pairwise for binary ops.
DTYPE_SWEEP = (
    torch.uint8, torch.int32, torch.int64, torch.float16, torch.bfloat16,
    torch.float32, torch.float64, torch.bool, torch.complex64,
)
_SCALAR_SWEEP = (2, 2.5, True, 1j)


def _operands(op: str) -> tuple[list[str], list[str]]:
    """Names of the tensor and the promoting Scalar parameters of `op`, in schema order."""
    tensors, scalars = [], []
    for arg in lookup_schema(op).arguments:
        text = arg.type.annotation_str
        if text == "Tensor":
            tensors.append(arg.name)
        elif text == "number" and arg.name not in _NON_PROMOTING:
            scalars.append(arg.name)
    return tensors, scalars


def _shape_body(tensors: list[str]) -> str:
    if len(tensors) == 1:
        return f"    return upstream.unary({tensors[0]})"
    return f"    return broadcast_shapes([{', '.join(tensors)}])"


def _dtype_body(kind: int, tensors: list[str], scalars: list[str], check: str | None) -> str:
    ranks = [f"{t}_rank_dtype[0]" for t in tensors] + ["None"] * len(scalars)
    dtypes = [f"{t}_rank_dtype[1]" for t in tensors] + [f"scalar_dtype({s})" for s in scalars]
    lines = [
        f"    ranks: List[Optional[int]] = [{', '.join(ranks)}]",
        f"    dtypes: List[int] = [{', '.join(dtypes)}]",
    ]
    if check is not None:
        lines.append(f"    {check}(dtypes)")
    lines.append(f"    return elementwise_dtype({kind}, ranks, dtypes)")
    return "\n".join(lines)


def _shape_invocations(n_tensors: int, n_scalars: int) -> list[Invocation]:
    scalars = (2.5,) * n_scalars
    if n_tensors == 1:
        shapes = [(2, 3), (), (0, 4)]
        return [Invocation(TensorOfShape(*s), *scalars) for s in shapes]
    pairs = [((2, 3), (2, 3)), ((2, 1), (1, 3)), ((3,), (2, 3)), ((), (2, 3)), ((4, 0), (1,))]
    cases = [Invocation(TensorOfShape(*a), TensorOfShape(*b), *scalars) for a, b in pairs]
    cases.append(ErrorInvocation(TensorOfShape(2, 3), TensorOfShape(4), *scalars))
    return cases


def _dtype_invocations(n_tensors: int, n_scalars: int) -> list[Invocation]:
    if n_tensors == 1 and n_scalars == 0:
        return [Invocation(TensorOfShape(2, 3, dtype=d)) for d in DTYPE_SWEEP]
    if n_tensors == 1:
        return [Invocation(TensorOfShape(2, 3, dtype=d), s)
                for d, s in itertools.product(DTYPE_SWEEP, _SCALAR_SWEEP)]
    cases = [Invocation(TensorOfShape(2, 3, dtype=a), TensorOfShape(3, dtype=b))
             for a, b in itertools.product(DTYPE_SWEEP, DTYPE_SWEEP)]
    # A zero-rank tensor promotes like a scalar of its category, not like a dim tensor.
    cases += [Invocation(TensorOfShape(2, dtype=a), TensorOfShape(dtype=b))
              for a, b in itertools.product(DTYPE_SWEEP, DTYPE_SWEEP)]
    return cases


def elementwise(ops: tuple[str, ...], kind: int, check: str | None = None) -> None:
    """Declare shape and dtype functions for elementwise `ops` of promotion `kind`.

    `check` names a helper that raises, like PyTorch, for dtypes the op rejects.
    """
    for op in ops:
        tensors, scalars = _operands(op)
        define("shape", op, _shape_body(tensors), globals(),
               _shape_invocations(len(tensors), len(scalars)))
        define("dtype", op, _dtype_body(kind, tensors, scalars, check), globals(),
               _dtype_invocations(len(tensors), len(scalars)))


elementwise(("aten.add.Tensor", "aten.mul.Tensor", "aten.add.Scalar", "aten.mul.Scalar"),
            promotion.DEFAULT)
elementwise(("aten.div.Tensor", "aten.div.Scalar"), promotion.INT_TO_FLOAT)
elementwise(("aten.tanh", "aten.sigmoid", "aten.exp", "aten.rsqrt", "aten.sqrt"),
            promotion.INT_TO_FLOAT)
elementwise(("aten.neg",), promotion.DEFAULT, check="check_dtypes_not_bool")
elementwise(("aten.relu",), promotion.DEFAULT)
