"""More elementwise math: special functions, aliases, activations, shifts and the ternary
pointwise ops (addcmul, addcdiv, lerp). The result broadcasts the tensor operands and the
dtype follows a promotion kind, so most ops are a row of data like in `elementwise`.

The rows are verified on meta tensors: where a meta kernel raises (deg2rad of complex,
logaddexp of two bools ...) the row carries a check; dtypes that only some backends' real
kernels reject (erfinv of complex on the CPU) are not refused here.
"""

from typing import List, Optional, Tuple, Union

import torch
import torch.jit._shape_functions as upstream

from . import promotion
from ._helpers import (  # noqa: F401 (used by synthesized functions)
    broadcast_shapes,
    elementwise_dtype,
    scalar_dtype,
)
from ._synthesize import define
from .elementwise import (
    DTYPE_SWEEP,
    NOT_COMPLEX,
    _dtype_body,
    _dtype_invocations,
    _shape_body,
    _shape_invocations,
    operands,
)
from .promotion import (  # noqa: F401 (used by synthesized functions)
    apply_promotion_kind,
    is_complex_dtype,
    is_float_dtype,
    is_integer_dtype,
    promote_dtypes,
)
from .registry import dtype, shape
from .signatures import lookup_schema
from .testing import ErrorInvocation, Invocation, TensorOfShape

# Scalar parameters that are an op's constants rather than operands: they do not promote.
_NON_PROMOTING = frozenset({
    "alpha", "scale", "input_scale", "negative_slope", "min_val", "max_val", "beta",
    "threshold", "value", "lambd",
})

# Dtype checks that the meta kernels make: (expression that must hold, what PyTorch rejects,
# a dtype it rejects).
NOT_BOOL = ("promoted != 11", "bool tensors are not supported", torch.bool)
FLOAT_OR_COMPLEX = ("is_float_dtype(promoted) or is_complex_dtype(promoted)",
                    "integral and bool tensors are not supported", torch.int64)


def _scalar_first(op: str) -> bool:
    """Whether a Scalar operand precedes the tensor (`rsub`-like `.Scalar_Tensor` overloads)."""
    for arg in lookup_schema(op).arguments:
        text = arg.type.annotation_str
        if text in ("Tensor", "number"):
            return text == "number"
    return False


def _swap_first_two(cases: list[Invocation]) -> list[Invocation]:
    return [type(c)(c.args[1], c.args[0], *c.args[2:], **c.kwargs) for c in cases]


def _error_invocations(n_tensors: int, n_scalars: int, checks: tuple) -> list[Invocation]:
    """One case per check: every tensor operand of the dtype the check rejects, and Scalars
    that keep that dtype the promoted one (True with bool tensors, 2 otherwise)."""
    return [ErrorInvocation(*[TensorOfShape(2, dtype=rejected)] * n_tensors,
                            *[True if rejected == torch.bool else 2] * n_scalars)
            for _, _, rejected in checks]


def rows(ops: tuple[str, ...], kind: int, checks: tuple = ()) -> None:
    """Shape and dtype functions for elementwise `ops` of promotion `kind` (see elementwise);
    each check brings an error case on the dtype it rejects."""
    for op in ops:
        tensors, scalars = operands(op, _NON_PROMOTING)
        shape_cases = _shape_invocations(len(tensors), len(scalars))
        dtype_cases = (_dtype_invocations(len(tensors), len(scalars))
                       + _error_invocations(len(tensors), len(scalars), checks))
        if _scalar_first(op):
            shape_cases, dtype_cases = _swap_first_two(shape_cases), _swap_first_two(dtype_cases)
        define("shape", op, _shape_body(tensors), globals(), shape_cases)
        define("dtype", op, _dtype_body(op, kind, tensors, scalars, checks), globals(),
               dtype_cases)


def _special(*names: str) -> tuple[str, ...]:
    return tuple(f"aten.special_{name}" for name in names)


def _polynomials(*names: str) -> tuple[str, ...]:
    return tuple(f"aten.special_{name}_polynomial_{letter}{overload}"
                 for name, letters in (n.split(":") for n in names)
                 for letter in letters.split(",")
                 for overload in ("", ".x_scalar", ".n_scalar"))


rows((
    "aten.arccos", "aten.arccosh", "aten.arcsin", "aten.arcsinh", "aten.arctan",
    "aten.arctanh", "aten.arctan2", "aten.copysign.Tensor", "aten.copysign.Scalar",
    "aten.digamma", "aten.divide.Tensor", "aten.divide.Scalar", "aten.erfc", "aten.erfinv",
    "aten.exp2", "aten.i0", "aten.igamma", "aten.igammac", "aten.lgamma",
    "aten.logit", "aten.sinc", "aten.true_divide.Tensor", "aten.true_divide.Scalar",
    "aten.xlogy.Tensor", "aten.xlogy.Scalar_Other", "aten.xlogy.Scalar_Self",
) + _special(
    "airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "digamma", "entr", "erf",
    "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1", "gammainc", "gammaincc", "gammaln",
    "i0", "i0e", "i1", "i1e", "log1p", "log_ndtr", "logit", "modified_bessel_i0",
    "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1", "ndtr", "ndtri", "psi",
    "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "sinc", "spherical_bessel_j0",
    "xlog1py", "xlog1py.other_scalar", "xlog1py.self_scalar", "xlogy", "xlogy.other_scalar",
    "xlogy.self_scalar", "zeta", "zeta.other_scalar", "zeta.self_scalar",
) + _polynomials(
    "chebyshev:t,u,v,w", "shifted_chebyshev:t,u,v,w", "hermite:h,he", "laguerre:l",
    "legendre:p",
), promotion.INT_TO_FLOAT)
rows(("aten.deg2rad", "aten.rad2deg"), promotion.INT_TO_FLOAT, (NOT_COMPLEX,))
rows((
    "aten.sgn", "aten.fix", "aten.hypot", "aten.nextafter", "aten.fmax", "aten.fmin",
    "aten.gcd", "aten.heaviside", "aten.nan_to_num", "aten.multiply.Tensor",
    "aten.multiply.Scalar", "aten.max.other", "aten.min.other", "aten.resolve_conj",
    "aten.resolve_neg", "aten.conj_physical", "aten.celu", "aten.hardsigmoid",
    "aten.hardswish", "aten.mish", "aten.silu", "aten.softplus",
    "aten.clamp_max", "aten.clamp_min", "aten.clamp_max.Tensor", "aten.clamp_min.Tensor",
    "aten.remainder.Scalar_Tensor", "aten.rsub.Scalar", "aten.subtract.Scalar",
    "aten.bitwise_and.Scalar_Tensor", "aten.bitwise_or.Scalar_Tensor",
    "aten.bitwise_xor.Scalar_Tensor", "aten.bitwise_left_shift.Tensor",
    "aten.bitwise_left_shift.Tensor_Scalar", "aten.bitwise_left_shift.Scalar_Tensor",
    "aten.bitwise_right_shift.Tensor", "aten.bitwise_right_shift.Tensor_Scalar",
    "aten.bitwise_right_shift.Scalar_Tensor", "aten.__and__.Tensor", "aten.__and__.Scalar",
    "aten.__or__.Tensor", "aten.__or__.Scalar", "aten.__xor__.Tensor", "aten.__xor__.Scalar",
    "aten.special_round",
), promotion.DEFAULT)
rows(("aten.frac", "aten.log_sigmoid", "aten.negative", "aten.positive", "aten.relu6",
      "aten.logaddexp", "aten.rsub.Tensor", "aten.subtract.Tensor", "aten.lcm"),
     promotion.DEFAULT, (NOT_BOOL,))
rows(("aten.logaddexp2", "aten.floor_divide", "aten.floor_divide.Scalar"), promotion.DEFAULT,
     (NOT_BOOL, NOT_COMPLEX))
rows(("aten.selu", "aten.softshrink"), promotion.DEFAULT, (FLOAT_OR_COMPLEX,))
rows(("aten.greater.Tensor", "aten.greater.Scalar", "aten.greater_equal.Tensor",
      "aten.greater_equal.Scalar", "aten.less.Tensor", "aten.less.Scalar",
      "aten.less_equal.Tensor", "aten.less_equal.Scalar", "aten.not_equal.Tensor",
      "aten.not_equal.Scalar", "aten.isfinite", "aten.isreal", "aten.signbit"),
     promotion.ALWAYS_BOOL)
rows(("aten.isposinf", "aten.isneginf"), promotion.ALWAYS_BOOL, (NOT_COMPLEX,))
rows(("aten.absolute",), promotion.COMPLEX_TO_FLOAT)
rows(("aten.square", "aten.hardshrink"), promotion.BOOL_TO_LONG)


# Shifts by operator (`x << y`): both operands must be integral, bool excluded for tensors.

_INT_SHIFT_SHAPES = [
    Invocation(TensorOfShape(*a, dtype=torch.int64), TensorOfShape(*b, dtype=torch.int32))
    for a, b in [((2, 3), (2, 3)), ((2, 1), (1, 3)), ((), (2, 3)), ((4, 0), (1,))]
] + [ErrorInvocation(TensorOfShape(2, 3, dtype=torch.int64), TensorOfShape(4, dtype=torch.int64))]


@shape("aten.__lshift__.Tensor", "aten.__rshift__.Tensor", invocations=_INT_SHIFT_SHAPES)
def aten〇__lshift__〇Tensor〡shape(self: List[int], other: List[int]) -> List[int]:
    return broadcast_shapes([self, other])


@dtype("aten.__lshift__.Tensor", "aten.__rshift__.Tensor",
       invocations=_dtype_invocations(2, 0) + [
           ErrorInvocation(TensorOfShape(2, dtype=a), TensorOfShape(2, dtype=b))
           for a, b in [(torch.float32, torch.int64), (torch.int64, torch.float32),
                        (torch.bool, torch.bool)]
       ])
def aten〇__lshift__〇Tensor〡dtype(self_rank_dtype: Tuple[int, int], other_rank_dtype: Tuple[int, int]) -> int:
    assert is_integer_dtype(self_rank_dtype[1]), "shift: self must be an integral tensor"
    assert is_integer_dtype(other_rank_dtype[1]), "shift: other must be an integral tensor"
    ranks: List[Optional[int]] = [self_rank_dtype[0], other_rank_dtype[0]]
    return promote_dtypes(ranks, [self_rank_dtype[1], other_rank_dtype[1]])


@shape("aten.__lshift__.Scalar", "aten.__rshift__.Scalar", invocations=[
    Invocation(TensorOfShape(*s, dtype=torch.int32), 2) for s in [(2, 3), (), (0, 4)]
])
def aten〇__lshift__〇Scalar〡shape(self: List[int], other: float) -> List[int]:
    return upstream.unary(self)


@dtype("aten.__lshift__.Scalar", "aten.__rshift__.Scalar", invocations=_dtype_invocations(1, 1) + [
    ErrorInvocation(TensorOfShape(2, dtype=torch.float32), 2),
    ErrorInvocation(TensorOfShape(2, dtype=torch.int64), 2.5),
])
def aten〇__lshift__〇Scalar〡dtype(self_rank_dtype: Tuple[int, int], other: Union[int, float, complex]) -> int:
    assert is_integer_dtype(self_rank_dtype[1]), "shift: self must be an integral tensor"
    other_dtype = scalar_dtype(other)
    assert other_dtype == 4 or other_dtype == 11, "shift: other must be an integer"  # int64, bool
    return promote_dtypes([self_rank_dtype[0], None], [self_rank_dtype[1], other_dtype])


# threshold's Scalars are constants without defaults: every case passes them.

@shape("aten.threshold", invocations=[
    Invocation(TensorOfShape(*s), 0.5, 2) for s in [(2, 3), (), (0, 4)]
])
def aten〇threshold〡shape(self: List[int], threshold: float, value: float) -> List[int]:
    return upstream.unary(self)


@dtype("aten.threshold", invocations=[
    Invocation(TensorOfShape(2, 3, dtype=d), t, v)
    for d in DTYPE_SWEEP for t, v in [(0.5, 2), (1, 2.5), (True, 1j)]
])
def aten〇threshold〡dtype(self_rank_dtype: Tuple[int, int], threshold: Union[int, float, complex], value: Union[int, float, complex]) -> int:
    return self_rank_dtype[1]
