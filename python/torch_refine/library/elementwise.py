"""Elementwise ops: the result broadcasts the tensor operands; the dtype follows PyTorch's
promotion kinds. Most ops are one row of data: (ops, promotion kind[, dtype checks]).

A dtype check is a boolean expression over `dtypes` (the operands' dtypes, tensors then
Scalars), `promoted` (their promoted dtype) and the op's own parameters. PyTorch's meta
kernels skip most of these checks (bitwise ops accept floats there, `sub` accepts bools),
so rows with checks are verified against the CPU kernels (`reference=KERNEL`).
"""

import itertools
from typing import List, Optional, Tuple, Union  # noqa: F401 (used by synthesized functions)

import torch
import torch.jit._shape_functions as upstream  # noqa: F401 (used by synthesized functions)

from . import promotion
from ._helpers import (  # noqa: F401 (used by synthesized functions)
    broadcast_shapes,
    elementwise_dtype,
    scalar_dtype,
)
from ._synthesize import define
from .promotion import (  # noqa: F401 (used by synthesized functions)
    apply_promotion_kind,
    is_complex_dtype,
    is_float_dtype,
    is_integer_dtype,
    promote_dtypes,
)
from .registry import dtype, shape
from .signatures import lookup_schema
from .testing import (
    ErrorInvocation,
    Invocation,
    KernelErrorInvocation,
    KernelInvocation,
    TensorOfShape,
)

# Scalar parameters that do not take part in promotion: they scale an operand (`alpha`)
# or are an activation's constants.
_NON_PROMOTING = frozenset(
    {"alpha", "scale", "input_scale", "negative_slope", "min_val", "max_val"}
)

# The dtypes every elementwise dtype function is checked on, pairwise for binary ops.
DTYPE_SWEEP = (
    torch.uint8, torch.int32, torch.int64, torch.float16, torch.bfloat16,
    torch.float32, torch.float64, torch.bool, torch.complex64,
)
_SCALAR_SWEEP = (2, 2.5, True, 1j)

# Where a row's dtype function is verified: meta tensors, or the CPU kernels (for checks
# that only the real kernels make).
META = Invocation
KERNEL = KernelInvocation

# Dtype checks: (expression that must hold, what PyTorch rejects).
NO_BOOL = ("not _has_bool(dtypes)", "bool tensors are not supported")
INTEGRAL = ("is_integer_dtype(promoted) or promoted == 11",
            "only integral and bool tensors are supported")
NOT_COMPLEX = ("not is_complex_dtype(promoted)", "complex tensors are not supported")
REAL = ("is_integer_dtype(promoted) or is_float_dtype(promoted)",
        "bool and complex tensors are not supported")
FLOATING = ("is_float_dtype(promoted)", "only floating-point tensors are supported")
GELU_APPROXIMATE = ("approximate == 'none' or approximate == 'tanh'",
                    "approximate must be 'none' or 'tanh'")


def _has_bool(dtypes: List[int]) -> bool:
    for dtype in dtypes:
        if dtype == 11:
            return True
    return False


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


def _dtype_body(op: str, kind: int, tensors: list[str], scalars: list[str],
                checks: tuple) -> str:
    ranks = [f"{t}_rank_dtype[0]" for t in tensors] + ["None"] * len(scalars)
    dtypes = [f"{t}_rank_dtype[1]" for t in tensors] + [f"scalar_dtype({s})" for s in scalars]
    lines = [
        f"    ranks: List[Optional[int]] = [{', '.join(ranks)}]",
        f"    dtypes: List[int] = [{', '.join(dtypes)}]",
    ]
    if not checks:
        lines.append(f"    return elementwise_dtype({kind}, ranks, dtypes)")
        return "\n".join(lines)
    lines.append("    promoted = promote_dtypes(ranks, dtypes)")
    lines += [f"    assert {expr}, {f'{op}: {message}'!r}" for expr, message in checks]
    lines.append(f"    return apply_promotion_kind({kind}, promoted)")
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


def _dtype_invocations(n_tensors: int, n_scalars: int, case=Invocation) -> list[Invocation]:
    if n_tensors == 1 and n_scalars == 0:
        return [case(TensorOfShape(2, 3, dtype=d)) for d in DTYPE_SWEEP]
    if n_tensors == 1:
        return [case(TensorOfShape(2, 3, dtype=d), s)
                for d, s in itertools.product(DTYPE_SWEEP, _SCALAR_SWEEP)]
    cases = [case(TensorOfShape(2, 3, dtype=a), TensorOfShape(3, dtype=b))
             for a, b in itertools.product(DTYPE_SWEEP, DTYPE_SWEEP)]
    # A zero-rank tensor promotes like a scalar of its category, not like a dim tensor.
    cases += [case(TensorOfShape(2, dtype=a), TensorOfShape(dtype=b))
              for a, b in itertools.product(DTYPE_SWEEP, DTYPE_SWEEP)]
    return cases


def elementwise(ops: tuple[str, ...], kind: int, checks: tuple = (), reference=META,
                extra_dtype_cases: tuple = ()) -> None:
    """Declare shape and dtype functions for elementwise `ops` of promotion `kind`.

    `checks` are the dtype checks (see NO_BOOL ...) by which the op raises like PyTorch.
    """
    for op in ops:
        tensors, scalars = _operands(op)
        define("shape", op, _shape_body(tensors), globals(),
               _shape_invocations(len(tensors), len(scalars)))
        cases = _dtype_invocations(len(tensors), len(scalars), reference)
        define("dtype", op, _dtype_body(op, kind, tensors, scalars, checks), globals(),
               cases + list(extra_dtype_cases))


_FLOAT_UNARY = (
    "aten.acos", "aten.acosh", "aten.asin", "aten.asinh", "aten.atan", "aten.atanh",
    "aten.cos", "aten.cosh", "aten.erf", "aten.exp", "aten.expm1", "aten.log",
    "aten.log10", "aten.log1p", "aten.log2", "aten.reciprocal", "aten.rsqrt",
    "aten.sigmoid", "aten.sin", "aten.sinh", "aten.sqrt", "aten.tan", "aten.tanh",
)
elementwise(_FLOAT_UNARY + ("aten.atan2", "aten.div.Tensor", "aten.div.Scalar"),
            promotion.INT_TO_FLOAT)
elementwise(("aten.add.Tensor", "aten.mul.Tensor", "aten.add.Scalar", "aten.mul.Scalar"),
            promotion.DEFAULT)
elementwise(("aten.sub.Tensor", "aten.sub.Scalar"), promotion.DEFAULT, (NO_BOOL,), KERNEL)
elementwise(("aten.neg",), promotion.DEFAULT, (NO_BOOL,))
elementwise(("aten.abs",), promotion.COMPLEX_TO_FLOAT)
elementwise(("aten.ceil", "aten.floor", "aten.round", "aten.trunc", "aten.relu"),
            promotion.DEFAULT, (REAL,), KERNEL)
elementwise(("aten.sign",), promotion.DEFAULT, (NOT_COMPLEX,), KERNEL)
elementwise(("aten.pow.Tensor_Tensor", "aten.pow.Tensor_Scalar", "aten.pow.Scalar"),
            promotion.BOOL_TO_LONG)
elementwise(("aten.fmod.Tensor", "aten.fmod.Scalar", "aten.remainder.Tensor",
             "aten.remainder.Scalar"), promotion.DEFAULT, (REAL,), KERNEL)
elementwise(("aten.maximum", "aten.minimum"), promotion.DEFAULT, (NOT_COMPLEX,), KERNEL)
elementwise(("aten.bitwise_and.Tensor", "aten.bitwise_or.Tensor", "aten.bitwise_xor.Tensor",
             "aten.bitwise_and.Scalar", "aten.bitwise_or.Scalar", "aten.bitwise_xor.Scalar",
             "aten.bitwise_not"), promotion.DEFAULT, (INTEGRAL,), KERNEL)
elementwise(("aten.eq.Tensor", "aten.ne.Tensor", "aten.eq.Scalar", "aten.ne.Scalar",
             "aten.logical_and", "aten.logical_or", "aten.logical_xor", "aten.logical_not",
             "aten.isinf", "aten.isnan"), promotion.ALWAYS_BOOL)
elementwise(("aten.lt.Tensor", "aten.le.Tensor", "aten.gt.Tensor", "aten.ge.Tensor",
             "aten.lt.Scalar", "aten.le.Scalar", "aten.gt.Scalar", "aten.ge.Scalar"),
            promotion.ALWAYS_BOOL, (NOT_COMPLEX,), KERNEL)
elementwise(("aten.elu", "aten.leaky_relu"), promotion.DEFAULT, (FLOATING,), KERNEL)
elementwise(("aten.gelu",), promotion.DEFAULT, (FLOATING, GELU_APPROXIMATE), KERNEL,
            (ErrorInvocation(TensorOfShape(2), approximate="erf"),
             Invocation(TensorOfShape(2, dtype=torch.float16), approximate="tanh")))
