"""Elementwise ops: the result broadcasts the tensor operands; the dtype follows PyTorch's
promotion kinds. Most ops are one row of data: (op, promotion kind)."""

from typing import List, Optional, Tuple, Union  # noqa: F401 (used by synthesized functions)

import torch  # noqa: F401 (used by synthesized functions)
import torch.jit._shape_functions as upstream  # noqa: F401

from . import promotion
from ._helpers import broadcast_shapes, elementwise_dtype, scalar_dtype  # noqa: F401
from ._synthesize import define
from .signatures import lookup_schema

# Scalar parameters that scale an operand and do not take part in promotion.
_NON_PROMOTING = frozenset({"alpha"})


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


def _dtype_body(kind: int, tensors: list[str], scalars: list[str]) -> str:
    ranks = [f"{t}_rank_dtype[0]" for t in tensors] + ["None"] * len(scalars)
    dtypes = [f"{t}_rank_dtype[1]" for t in tensors] + [f"scalar_dtype({s})" for s in scalars]
    return (
        f"    ranks: List[Optional[int]] = [{', '.join(ranks)}]\n"
        f"    return elementwise_dtype({kind}, ranks, [{', '.join(dtypes)}])"
    )


def elementwise(ops: tuple[str, ...], kind: int) -> None:
    """Declare shape and dtype functions for elementwise `ops` of promotion `kind`."""
    for op in ops:
        tensors, scalars = _operands(op)
        define("shape", op, _shape_body(tensors), globals())
        define("dtype", op, _dtype_body(kind, tensors, scalars), globals())


elementwise(("aten.add.Tensor", "aten.mul.Tensor", "aten.add.Scalar", "aten.mul.Scalar"),
            promotion.DEFAULT)
elementwise(("aten.div.Tensor", "aten.div.Scalar"), promotion.INT_TO_FLOAT)
elementwise(("aten.tanh", "aten.sigmoid", "aten.exp", "aten.rsqrt", "aten.sqrt"),
            promotion.INT_TO_FLOAT)
elementwise(("aten.relu", "aten.neg"), promotion.DEFAULT)
