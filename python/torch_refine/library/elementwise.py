"""Elementwise ops: the result broadcasts the tensor operands; the dtype follows PyTorch's
promotion kinds. Most ops are one row of data: (ops, promotion kind[, dtype checks]).

A dtype check is a boolean expression over `dtypes` (the operands' dtypes, tensors then
Scalars), `promoted` (their promoted dtype) and the op's own parameters. PyTorch's meta
kernels skip most of these checks (bitwise ops accept floats there, `sub` accepts bools),
so rows with checks are verified against the CPU kernels (`reference=KERNEL`).
"""

import itertools
from typing import List, Optional, Tuple, Union

import torch
import torch.jit._shape_functions as upstream

from . import promotion
from ._helpers import (
    broadcast_shapes,
    elementwise_dtype,
    rank_dtype_lists,
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

# Dtype checks: (expression that must hold, what PyTorch rejects, a dtype it rejects or None).
NO_BOOL = ("not _has_bool(dtypes)", "bool tensors are not supported", torch.bool)
INTEGRAL = ("is_integer_dtype(promoted) or promoted == 11",
            "only integral and bool tensors are supported", torch.float32)
NOT_COMPLEX = ("not is_complex_dtype(promoted)", "complex tensors are not supported",
               torch.complex64)
REAL = ("is_integer_dtype(promoted) or is_float_dtype(promoted)",
        "bool and complex tensors are not supported", torch.complex64)
FLOATING = ("is_float_dtype(promoted)", "only floating-point tensors are supported",
            torch.int64)
# PyTorch's alpha_check on the result dtype (`alpha` scales the other operand of add/sub).
ALPHA_BOOL = ("scalar_dtype(alpha) != 11 or promoted == 11",
              "Boolean alpha only supported for Boolean results", None)
ALPHA_FLOAT = ("_alpha_fits(scalar_dtype(alpha), promoted)",
               "For integral input tensors, argument alpha must not be a floating point number",
               None)
ALPHA_COMPLEX = ("scalar_dtype(alpha) != 10 or is_complex_dtype(promoted)",
                 "For non-complex input tensors, argument alpha must not be a complex number",
                 None)
GELU_APPROXIMATE = ("approximate == 'none' or approximate == 'tanh'",
                    "approximate must be 'none' or 'tanh'", None)


def _has_bool(dtypes: List[int]) -> bool:
    for code in dtypes:
        if code == 11:
            return True
    return False


def _alpha_fits(alpha_dtype: int, result: int) -> bool:
    """Whether a float or complex `alpha` (codes 7, 10) scales into a floating or complex result."""
    if alpha_dtype != 7 and alpha_dtype != 10:
        return True
    return is_float_dtype(result) or is_complex_dtype(result)


def operands(op: str, non_promoting: frozenset = _NON_PROMOTING) -> tuple[list[str], list[str]]:
    """Names of the tensor and the promoting Scalar parameters of `op`, in schema order."""
    tensors, scalars = [], []
    for arg in lookup_schema(op).arguments:
        text = arg.type.annotation_str
        if text == "Tensor":
            tensors.append(arg.name)
        elif text == "number" and arg.name not in non_promoting:
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
    lines += [f"    assert {expr}, {f'{op}: {message}'!r}" for expr, message, *_ in checks]
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


def _error_invocations(n_tensors: int, n_scalars: int, checks: tuple,
                       reference) -> list[Invocation]:
    """One case per check: every tensor operand of a dtype the check rejects."""
    error = KernelErrorInvocation if reference is KERNEL else ErrorInvocation
    return [error(*[TensorOfShape(2, dtype=rejected)] * n_tensors, *[2] * n_scalars)
            for _, _, rejected in checks if rejected is not None]


def elementwise(ops: tuple[str, ...], kind: int, checks: tuple = (), reference=META,
                extra_dtype_cases: tuple = ()) -> None:
    """Declare shape and dtype functions for elementwise `ops` of promotion `kind`.

    `checks` are the dtype checks (see NO_BOOL ...) by which the op raises like PyTorch.
    """
    for op in ops:
        tensors, scalars = operands(op)
        in_order = _schema_order(op, tensors + scalars)
        define("shape", op, _shape_body(tensors), globals(),
               in_order(_shape_invocations(len(tensors), len(scalars))))
        cases = _dtype_invocations(len(tensors), len(scalars), reference)
        errors = _error_invocations(len(tensors), len(scalars), checks, reference)
        define("dtype", op, _dtype_body(op, kind, tensors, scalars, checks), globals(),
               in_order(cases + errors) + list(extra_dtype_cases))


def _schema_order(op: str, names: list[str]):
    """A function putting invocations built tensors first, then scalars, into `op`'s
    argument order (`pow.Scalar` takes the Scalar first)."""
    order = [a.name for a in lookup_schema(op).arguments if a.name in names]

    def reorder(invocations: list[Invocation]) -> list[Invocation]:
        if order == names:
            return invocations
        positions = [names.index(name) for name in order]
        return [type(i)(*[i.args[p] for p in positions], *i.args[len(names):], **i.kwargs)
                for i in invocations]

    return reorder


_FLOAT_UNARY = (
    "aten.acos", "aten.acosh", "aten.asin", "aten.asinh", "aten.atan", "aten.atanh",
    "aten.cos", "aten.cosh", "aten.erf", "aten.exp", "aten.expm1", "aten.log",
    "aten.log10", "aten.log1p", "aten.log2", "aten.reciprocal", "aten.rsqrt",
    "aten.sigmoid", "aten.sin", "aten.sinh", "aten.sqrt", "aten.tan", "aten.tanh",
)
elementwise(_FLOAT_UNARY + ("aten.atan2", "aten.div.Tensor", "aten.div.Scalar"),
            promotion.INT_TO_FLOAT)
elementwise(("aten.mul.Tensor", "aten.mul.Scalar"), promotion.DEFAULT)
_ALPHA = (ALPHA_BOOL, ALPHA_FLOAT, ALPHA_COMPLEX)
_ALPHA_ERRORS = (
    KernelErrorInvocation(TensorOfShape(2, dtype=torch.int64), TensorOfShape(2, dtype=torch.int64),
                          alpha=1.5),
    KernelErrorInvocation(TensorOfShape(2, dtype=torch.float32), TensorOfShape(2), alpha=True),
    KernelErrorInvocation(TensorOfShape(2, dtype=torch.float32), TensorOfShape(2), alpha=1j),
    KernelInvocation(TensorOfShape(2, dtype=torch.int64), TensorOfShape(2), alpha=1.5),
    KernelInvocation(TensorOfShape(2, dtype=torch.int32), TensorOfShape(2, dtype=torch.complex64),
                     alpha=1j),
)
_ALPHA_SCALAR_ERRORS = (
    KernelErrorInvocation(TensorOfShape(2, dtype=torch.int64), 2, alpha=1.5),
    KernelErrorInvocation(TensorOfShape(2, dtype=torch.bool), 2, alpha=True),
    KernelInvocation(TensorOfShape(2, dtype=torch.int64), 2.5, alpha=1.5),
)
elementwise(("aten.add.Tensor",), promotion.DEFAULT, _ALPHA, KERNEL,
            _ALPHA_ERRORS + (KernelInvocation(TensorOfShape(2, dtype=torch.bool),
                                              TensorOfShape(2, dtype=torch.bool), alpha=True),))
elementwise(("aten.add.Scalar",), promotion.DEFAULT, _ALPHA, KERNEL, _ALPHA_SCALAR_ERRORS)
elementwise(("aten.sub.Tensor",), promotion.DEFAULT, (NO_BOOL,) + _ALPHA, KERNEL, _ALPHA_ERRORS)
elementwise(("aten.sub.Scalar",), promotion.DEFAULT, (NO_BOOL,) + _ALPHA, KERNEL,
            _ALPHA_SCALAR_ERRORS)
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


# Ops whose rule does not fit a row.

def _optional_shapes(self: List[int], others: List[Optional[List[int]]]) -> List[List[int]]:
    shapes: List[List[int]] = [self]
    for other in others:
        if other is not None:
            shapes.append(other)
    return shapes


def _can_cast(from_: int, to: int) -> bool:
    """c10::canCast: no complex to real, no floating to integral, nothing but bool to bool."""
    if is_complex_dtype(from_) and not is_complex_dtype(to):
        return False
    if is_float_dtype(from_) and (is_integer_dtype(to) or to == 11):
        return False
    return from_ == 11 or to != 11


def _is_negative_integer(value: Union[int, float, complex]) -> bool:
    """Whether `value` converted to an integer (truncated toward zero) is negative."""
    code = scalar_dtype(value)
    if code == 11 or code == 10:  # 11 bool, 10 complex128: never negative integers
        return False
    if code == 7:  # 7 float64
        return -1.0 >= float(value)  # no aten.le.float in the Torch dialect
    return int(value) < 0


_UNARY_SHAPES = [Invocation(TensorOfShape(*s)) for s in [(2, 3), (), (0, 4)]]
_BINARY_SHAPES = [
    Invocation(TensorOfShape(*a), TensorOfShape(*b))
    for a, b in [((2, 3), (2, 3)), ((2, 1), (1, 3)), ((3,), (2, 3)), ((), (2, 3)), ((4, 0), (1,))]
] + [ErrorInvocation(TensorOfShape(2, 3), TensorOfShape(4))]


@shape("aten.clamp", invocations=[
    Invocation(TensorOfShape(2, 3), 0.0),
    Invocation(TensorOfShape(), None, 1.0),
    Invocation(TensorOfShape(0, 4), -1.0, 1.0),
    ErrorInvocation(TensorOfShape(2, 3)),
])
def aten〇clamp〡shape(self: List[int], min: Optional[float] = None, max: Optional[float] = None) -> List[int]:
    assert min is not None or max is not None, "aten.clamp: min and max cannot both be None"
    return upstream.unary(self)


@dtype("aten.clamp", invocations=[
    KernelInvocation(TensorOfShape(2, 3, dtype=d), *bounds)
    for d in DTYPE_SWEEP
    for bounds in [(2,), (None, 2.5), (True, None), (1, 2.5)]
] + [
    KernelErrorInvocation(TensorOfShape(2, dtype=torch.int32), None, 1j),
    KernelErrorInvocation(TensorOfShape(2, dtype=torch.float32)),
])
def aten〇clamp〡dtype(self_rank_dtype: Tuple[int, int], min: Optional[Union[int, float, complex]] = None, max: Optional[Union[int, float, complex]] = None) -> int:
    assert min is not None or max is not None, "aten.clamp: min and max cannot both be None"
    ranks: List[Optional[int]] = [self_rank_dtype[0]]
    dtypes: List[int] = [self_rank_dtype[1]]
    if min is not None:
        ranks.append(None)
        dtypes.append(scalar_dtype(min))
    if max is not None:
        ranks.append(None)
        dtypes.append(scalar_dtype(max))
    promoted = promote_dtypes(ranks, dtypes)
    assert is_integer_dtype(promoted) or is_float_dtype(promoted), \
        "aten.clamp: bool and complex tensors are not supported"
    return promoted


@shape("aten.clamp.Tensor", invocations=[
    Invocation(TensorOfShape(2, 1), TensorOfShape(3), TensorOfShape(4, 1, 1)),
    Invocation(TensorOfShape(2, 3), None, TensorOfShape()),
    Invocation(TensorOfShape(), TensorOfShape(0, 1)),
    ErrorInvocation(TensorOfShape(2, 3), TensorOfShape(4)),
    ErrorInvocation(TensorOfShape(2, 3), None, TensorOfShape(2, 2)),
    ErrorInvocation(TensorOfShape(2, 3)),
])
def aten〇clamp〇Tensor〡shape(self: List[int], min: Optional[List[int]] = None, max: Optional[List[int]] = None) -> List[int]:
    assert min is not None or max is not None, "aten.clamp.Tensor: min and max cannot both be None"
    return broadcast_shapes(_optional_shapes(self, [min, max]))


@dtype("aten.clamp.Tensor", invocations=[
    KernelInvocation(TensorOfShape(2, 3, dtype=a), TensorOfShape(3, dtype=b))
    for a, b in itertools.product(DTYPE_SWEEP, DTYPE_SWEEP)
] + [
    KernelInvocation(TensorOfShape(2, dtype=a), None, TensorOfShape(dtype=b))
    for a, b in itertools.product(DTYPE_SWEEP, DTYPE_SWEEP)
] + [
    KernelInvocation(TensorOfShape(2, dtype=torch.int32), TensorOfShape(dtype=torch.float16),
                     TensorOfShape(2, dtype=torch.float64)),
    KernelErrorInvocation(TensorOfShape(2)),
])
def aten〇clamp〇Tensor〡dtype(self_rank_dtype: Tuple[int, int], min_rank_dtype: Optional[Tuple[int, int]] = None, max_rank_dtype: Optional[Tuple[int, int]] = None) -> int:
    assert min_rank_dtype is not None or max_rank_dtype is not None, \
        "aten.clamp.Tensor: min and max cannot both be None"
    ranks: List[Optional[int]] = [self_rank_dtype[0]]
    dtypes: List[int] = [self_rank_dtype[1]]
    if min_rank_dtype is not None:
        ranks.append(min_rank_dtype[0])
        dtypes.append(min_rank_dtype[1])
    if max_rank_dtype is not None:
        ranks.append(max_rank_dtype[0])
        dtypes.append(max_rank_dtype[1])
    promoted = promote_dtypes(ranks, dtypes)
    assert not is_complex_dtype(promoted), "aten.clamp.Tensor: complex tensors are not supported"
    return promoted


@shape("aten.where.self", invocations=[
    Invocation(TensorOfShape(2, 1, dtype=torch.bool), TensorOfShape(3), TensorOfShape(4, 1, 1)),
    Invocation(TensorOfShape(dtype=torch.bool), TensorOfShape(), TensorOfShape(0)),
    Invocation(TensorOfShape(2, 3, dtype=torch.bool), TensorOfShape(2, 3), TensorOfShape()),
    ErrorInvocation(TensorOfShape(2, 3, dtype=torch.bool), TensorOfShape(4), TensorOfShape()),
])
def aten〇where〇self〡shape(condition: List[int], self: List[int], other: List[int]) -> List[int]:
    return broadcast_shapes([condition, self, other])


@dtype("aten.where.self", invocations=[
    KernelInvocation(TensorOfShape(2, dtype=torch.bool), TensorOfShape(2, dtype=a),
                     TensorOfShape(dtype=b))
    for a, b in itertools.product(DTYPE_SWEEP, DTYPE_SWEEP)
] + [
    KernelInvocation(TensorOfShape(2, dtype=c), TensorOfShape(2), TensorOfShape(2))
    for c in DTYPE_SWEEP
] + [KernelErrorInvocation(TensorOfShape(2, dtype=torch.int64), TensorOfShape(2), TensorOfShape(2))])
def aten〇where〇self〡dtype(condition_rank_dtype: Tuple[int, int], self_rank_dtype: Tuple[int, int], other_rank_dtype: Tuple[int, int]) -> int:
    condition = condition_rank_dtype[1]
    # The real kernels still take uint8 conditions (deprecated); meta kernels refuse them.
    assert condition == 11 or condition == 0, "aten.where.self: condition must be a bool tensor"
    ranks: List[Optional[int]] = [self_rank_dtype[0], other_rank_dtype[0]]
    return promote_dtypes(ranks, [self_rank_dtype[1], other_rank_dtype[1]])


def _div_mode_dtype(ranks: List[Optional[int]], dtypes: List[int],
                    rounding_mode: Optional[str]) -> int:
    if rounding_mode is None:
        return elementwise_dtype(2, ranks, dtypes)  # 2: INT_TO_FLOAT
    assert rounding_mode == "trunc" or rounding_mode == "floor", \
        "div: rounding_mode must be None, 'trunc' or 'floor'"
    promoted = promote_dtypes(ranks, dtypes)
    assert is_integer_dtype(promoted) or is_float_dtype(promoted), \
        "div: rounding division does not support bool or complex tensors"
    return promoted


_ROUNDING_MODES = (None, "trunc", "floor")


@shape("aten.div.Tensor_mode", invocations=[
    Invocation(*case.args, rounding_mode=mode)
    for case in _BINARY_SHAPES for mode in _ROUNDING_MODES
])
def aten〇div〇Tensor_mode〡shape(self: List[int], other: List[int], rounding_mode: Optional[str]) -> List[int]:
    return broadcast_shapes([self, other])


@dtype("aten.div.Tensor_mode", invocations=[
    (KernelInvocation if mode else Invocation)(case.args[0], case.args[1], rounding_mode=mode)
    for case in _dtype_invocations(2, 0) for mode in _ROUNDING_MODES
] + [ErrorInvocation(TensorOfShape(2), TensorOfShape(2), rounding_mode="round")])
def aten〇div〇Tensor_mode〡dtype(self_rank_dtype: Tuple[int, int], other_rank_dtype: Tuple[int, int], rounding_mode: Optional[str]) -> int:
    ranks: List[Optional[int]] = [self_rank_dtype[0], other_rank_dtype[0]]
    return _div_mode_dtype(ranks, [self_rank_dtype[1], other_rank_dtype[1]], rounding_mode)


@shape("aten.div.Scalar_mode", invocations=[
    Invocation(*case.args, rounding_mode=mode)
    for case in _shape_invocations(1, 1) for mode in _ROUNDING_MODES
])
def aten〇div〇Scalar_mode〡shape(self: List[int], other: float, rounding_mode: Optional[str]) -> List[int]:
    return upstream.unary(self)


@dtype("aten.div.Scalar_mode", invocations=[
    (KernelInvocation if mode else Invocation)(case.args[0], case.args[1], rounding_mode=mode)
    for case in _dtype_invocations(1, 1) for mode in _ROUNDING_MODES
] + [ErrorInvocation(TensorOfShape(2), 2, rounding_mode="round")])
def aten〇div〇Scalar_mode〡dtype(self_rank_dtype: Tuple[int, int], other: Union[int, float, complex], rounding_mode: Optional[str]) -> int:
    ranks: List[Optional[int]] = [self_rank_dtype[0], None]
    return _div_mode_dtype(ranks, [self_rank_dtype[1], scalar_dtype(other)], rounding_mode)


@shape("aten.fill.Scalar", invocations=_shape_invocations(1, 1))
def aten〇fill〇Scalar〡shape(self: List[int], value: float) -> List[int]:
    return upstream.unary(self)


@dtype("aten.fill.Scalar", invocations=_dtype_invocations(1, 1))
def aten〇fill〇Scalar〡dtype(self_rank_dtype: Tuple[int, int], value: Union[int, float, complex]) -> int:
    return self_rank_dtype[1]


@shape("aten.hardtanh", invocations=_UNARY_SHAPES + [Invocation(TensorOfShape(3), 0.0, 6.0)])
def aten〇hardtanh〡shape(self: List[int], min_val: float = -1, max_val: float = 1) -> List[int]:
    return upstream.unary(self)


@dtype("aten.hardtanh", invocations=[
    KernelInvocation(TensorOfShape(2, 3, dtype=d), *bounds)
    for d in DTYPE_SWEEP for bounds in [(), (0, 6), (-0.5, 0.5), (-1.0, 0.5), (0, -2), (False, True)]
] + [
    KernelErrorInvocation(TensorOfShape(2, dtype=torch.bool)),
    KernelErrorInvocation(TensorOfShape(2, dtype=torch.complex64)),
    KernelErrorInvocation(TensorOfShape(2, dtype=torch.uint8), -1, 1),
])
def aten〇hardtanh〡dtype(self_rank_dtype: Tuple[int, int], min_val: Union[int, float, complex] = -1, max_val: Union[int, float, complex] = 1) -> int:
    self_dtype = self_rank_dtype[1]
    assert self_dtype != 11, "aten.hardtanh: bool tensors are not supported"
    assert not is_complex_dtype(self_dtype), "aten.hardtanh: complex tensors are not supported"
    if self_dtype == 0:
        assert not _is_negative_integer(min_val), \
            "aten.hardtanh: min_val cannot be negative for an unsigned tensor"
        assert not _is_negative_integer(max_val), \
            "aten.hardtanh: max_val cannot be negative for an unsigned tensor"
    return self_dtype


@shape("aten.atan2.out", invocations=[
    Invocation(*case.args, out=TensorOfShape(*out))
    for case in _BINARY_SHAPES for out in [(0,), (2, 3)]
])
def aten〇atan2〇out〡shape(self: List[int], other: List[int], out: List[int]) -> List[int]:
    # PyTorch resizes `out` to the broadcast shape.
    return broadcast_shapes([self, other])


@dtype("aten.atan2.out", invocations=[
    Invocation(TensorOfShape(2, dtype=a), TensorOfShape(dtype=b), out=TensorOfShape(2, dtype=o))
    for a, b, o in itertools.product(DTYPE_SWEEP, DTYPE_SWEEP, DTYPE_SWEEP)
] + [ErrorInvocation(TensorOfShape(2), TensorOfShape(2), out=TensorOfShape(2, dtype=torch.int64))])
def aten〇atan2〇out〡dtype(self_rank_dtype: Tuple[int, int], other_rank_dtype: Tuple[int, int], out_rank_dtype: Tuple[int, int]) -> int:
    ranks: List[Optional[int]] = [self_rank_dtype[0], other_rank_dtype[0]]
    result = elementwise_dtype(2, ranks, [self_rank_dtype[1], other_rank_dtype[1]])  # 2: INT_TO_FLOAT
    out = out_rank_dtype[1]
    assert _can_cast(result, out), "aten.atan2.out: the result type cannot be cast to out's dtype"
    return out


# The number's dtype is the tensor's: a caller refines `!torch.number` with it. Checked on
# the dtypes whose Python number has that same dtype (meta tensors have no value).
@dtype("aten._local_scalar_dense", invocations=[
    KernelInvocation(TensorOfShape(dtype=d))
    for d in (torch.int64, torch.float64, torch.bool, torch.complex128)
] + [KernelInvocation(TensorOfShape(1, 1, dtype=torch.int64))])
def aten〇_local_scalar_dense〡dtype(self_rank_dtype: Tuple[int, int]) -> int:
    return self_rank_dtype[1]




# addcmul, addcdiv: self + value * tensor1 (* or /) tensor2. `value` scales and does not
# promote; the CPU kernels refuse a complex value for a real result.

def _check_real_value(promoted: int, value: Union[int, float, complex], op: str) -> None:
    assert is_complex_dtype(promoted) or not is_complex_dtype(scalar_dtype(value)), \
        op + ": a complex value cannot be converted to the real result dtype"


_TERNARY_SHAPES = [
    Invocation(TensorOfShape(2, 1), TensorOfShape(3), TensorOfShape(4, 1, 1)),
    Invocation(TensorOfShape(), TensorOfShape(2, 3), TensorOfShape(3), value=2.0),
    Invocation(TensorOfShape(0, 3), TensorOfShape(1), TensorOfShape()),
    ErrorInvocation(TensorOfShape(2, 3), TensorOfShape(4), TensorOfShape(3)),
]


def _ternary_dtype_cases(case=Invocation) -> list:
    """(self, tensor1, tensor2) over dtype pairs, with one of them a zero-rank tensor."""
    return [case(TensorOfShape(2, dtype=a), TensorOfShape(2, dtype=b), TensorOfShape(dtype=b))
            for a, b in itertools.product(DTYPE_SWEEP, DTYPE_SWEEP)] + [
        case(TensorOfShape(dtype=a), TensorOfShape(2, dtype=b), TensorOfShape(2, dtype=a))
        for a, b in itertools.product(DTYPE_SWEEP, DTYPE_SWEEP)]


@shape("aten.addcmul", "aten.addcdiv", invocations=_TERNARY_SHAPES)
def aten〇addcmul〡shape(self: List[int], tensor1: List[int], tensor2: List[int], value: float = 1) -> List[int]:
    return broadcast_shapes([self, tensor1, tensor2])


@dtype("aten.addcmul", invocations=_ternary_dtype_cases() + [
    KernelInvocation(TensorOfShape(2, dtype=torch.int64), TensorOfShape(2, dtype=torch.int64),
                     TensorOfShape(2, dtype=torch.int64), value=0.5),
    KernelInvocation(TensorOfShape(2, dtype=torch.complex64), TensorOfShape(2),
                     TensorOfShape(2), value=1j),
    KernelErrorInvocation(TensorOfShape(2), TensorOfShape(2), TensorOfShape(2), value=1j),
])
def aten〇addcmul〡dtype(self_rank_dtype: Tuple[int, int], tensor1_rank_dtype: Tuple[int, int], tensor2_rank_dtype: Tuple[int, int], value: Union[int, float, complex] = 1) -> int:
    ranks, dtypes = rank_dtype_lists([self_rank_dtype, tensor1_rank_dtype, tensor2_rank_dtype])
    promoted = promote_dtypes(ranks, dtypes)
    _check_real_value(promoted, value, "addcmul")
    return promoted


@dtype("aten.addcdiv", invocations=_ternary_dtype_cases(KernelInvocation) + [
    KernelErrorInvocation(TensorOfShape(2), TensorOfShape(2, dtype=torch.int64),
                          TensorOfShape(2, dtype=torch.bool)),
    KernelErrorInvocation(TensorOfShape(2), TensorOfShape(2), TensorOfShape(2), value=1j),
])
def aten〇addcdiv〡dtype(self_rank_dtype: Tuple[int, int], tensor1_rank_dtype: Tuple[int, int], tensor2_rank_dtype: Tuple[int, int], value: Union[int, float, complex] = 1) -> int:
    tensor1_dtype = tensor1_rank_dtype[1]
    tensor2_dtype = tensor2_rank_dtype[1]
    assert not ((is_integer_dtype(tensor1_dtype) or tensor1_dtype == 11)
                and (is_integer_dtype(tensor2_dtype) or tensor2_dtype == 11)), \
        "addcdiv: integer division of tensor1 by tensor2 is not supported"
    ranks, dtypes = rank_dtype_lists([self_rank_dtype, tensor1_rank_dtype, tensor2_rank_dtype])
    promoted = promote_dtypes(ranks, dtypes)
    _check_real_value(promoted, value, "addcdiv")
    return promoted


# lerp: self + weight * (end - self), in self's dtype; end (and a weight tensor of rank > 0)
# must have it too.

@shape("aten.lerp.Scalar", invocations=[
    Invocation(*case.args[:2], 0.5) if not case.expects_error
    else ErrorInvocation(*case.args[:2], 0.5) for case in _BINARY_SHAPES
])
def aten〇lerp〇Scalar〡shape(self: List[int], end: List[int], weight: float) -> List[int]:
    return broadcast_shapes([self, end])


@dtype("aten.lerp.Scalar", invocations=[
    Invocation(TensorOfShape(2, dtype=d), TensorOfShape(2, dtype=d), w)
    for d in DTYPE_SWEEP for w in (0.5, 2, True)
] + [
    KernelInvocation(TensorOfShape(2, dtype=torch.complex64),
                     TensorOfShape(2, dtype=torch.complex64), 1j),
    ErrorInvocation(TensorOfShape(2), TensorOfShape(2, dtype=torch.float64), 0.5),
    ErrorInvocation(TensorOfShape(2), TensorOfShape(dtype=torch.float64), 0.5),
    KernelErrorInvocation(TensorOfShape(2), TensorOfShape(2), 1j),
])
def aten〇lerp〇Scalar〡dtype(self_rank_dtype: Tuple[int, int], end_rank_dtype: Tuple[int, int], weight: Union[int, float, complex]) -> int:
    self_dtype = self_rank_dtype[1]
    assert end_rank_dtype[1] == self_dtype, "lerp: end must have the dtype of self"
    _check_real_value(self_dtype, weight, "lerp")
    return self_dtype


@shape("aten.lerp.Tensor", invocations=_TERNARY_SHAPES[:1] + [
    Invocation(TensorOfShape(), TensorOfShape(2, 3), TensorOfShape(3)),
    Invocation(TensorOfShape(0, 3), TensorOfShape(1), TensorOfShape()),
    ErrorInvocation(TensorOfShape(2, 3), TensorOfShape(4), TensorOfShape(3)),
])
def aten〇lerp〇Tensor〡shape(self: List[int], end: List[int], weight: List[int]) -> List[int]:
    return broadcast_shapes([self, end, weight])


@dtype("aten.lerp.Tensor", invocations=[
    Invocation(TensorOfShape(2, dtype=d), TensorOfShape(2, dtype=d), TensorOfShape(2, dtype=d))
    for d in DTYPE_SWEEP
] + [
    Invocation(TensorOfShape(2), TensorOfShape(2), TensorOfShape(dtype=torch.float64)),
    Invocation(TensorOfShape(), TensorOfShape(2), TensorOfShape()),
    ErrorInvocation(TensorOfShape(2), TensorOfShape(2), TensorOfShape(2, dtype=torch.float64)),
    ErrorInvocation(TensorOfShape(2), TensorOfShape(dtype=torch.float64), TensorOfShape(2)),
])
def aten〇lerp〇Tensor〡dtype(self_rank_dtype: Tuple[int, int], end_rank_dtype: Tuple[int, int], weight_rank_dtype: Tuple[int, int]) -> int:
    self_dtype = self_rank_dtype[1]
    assert end_rank_dtype[1] == self_dtype, "lerp: end must have the dtype of self"
    assert weight_rank_dtype[0] == 0 or weight_rank_dtype[1] == self_dtype, \
        "lerp: a weight tensor of rank > 0 must have the dtype of self"
    return self_dtype


@shape("aten.isclose", invocations=_BINARY_SHAPES + [
    Invocation(TensorOfShape(2), TensorOfShape(2), 0.0, 0.0, True),
    ErrorInvocation(TensorOfShape(2), TensorOfShape(2), -1.0),
    ErrorInvocation(TensorOfShape(2), TensorOfShape(2), 1e-5, -1.0),
])
def aten〇isclose〡shape(self: List[int], other: List[int], rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> List[int]:
    assert rtol >= 0, "isclose: rtol must be greater than or equal to zero"
    assert atol >= 0, "isclose: atol must be greater than or equal to zero"
    return broadcast_shapes([self, other])


@dtype("aten.isclose", invocations=[
    (Invocation if a == b else ErrorInvocation)(TensorOfShape(2, dtype=a), TensorOfShape(2, dtype=b))
    for a, b in itertools.product(DTYPE_SWEEP, DTYPE_SWEEP)
])
def aten〇isclose〡dtype(self_rank_dtype: Tuple[int, int], other_rank_dtype: Tuple[int, int], rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> int:
    assert self_rank_dtype[1] == other_rank_dtype[1], "isclose: self and other must have the same dtype"
    return 11


@shape("aten.round.decimals", invocations=[
    Invocation(TensorOfShape(*s), decimals=d) for s in [(2, 3), (), (0, 4)] for d in (0, 2, -1)
])
def aten〇round〇decimals〡shape(self: List[int], decimals: int) -> List[int]:
    return upstream.unary(self)


# The meta kernel takes every dtype; the CPU kernel rounds floating-point tensors only.
@dtype("aten.round.decimals", invocations=[
    KernelInvocation(TensorOfShape(2, dtype=d), decimals=2) for d in DTYPE_SWEEP
] + [KernelErrorInvocation(TensorOfShape(2, dtype=torch.int64), decimals=0)])
def aten〇round〇decimals〡dtype(self_rank_dtype: Tuple[int, int], decimals: int) -> int:
    assert is_float_dtype(self_rank_dtype[1]), "round: only floating-point tensors are supported"
    return self_rank_dtype[1]


# where with Scalar branches: the branches promote like the operands of an elementwise op.

def _check_condition(condition_dtype: int) -> None:
    # The real kernels still take uint8 conditions (deprecated); meta kernels refuse them.
    assert condition_dtype == 11 or condition_dtype == 0, "where: condition must be a bool tensor"


_WHERE_CONDITIONS = [
    KernelInvocation(TensorOfShape(2, dtype=c), 1, 2.5) for c in (torch.bool, torch.uint8)
] + [KernelErrorInvocation(TensorOfShape(2, dtype=torch.int64), 1, 2)]


@shape("aten.where.Scalar", invocations=[
    Invocation(TensorOfShape(*s, dtype=torch.bool), 1.0, 2.0) for s in [(2, 3), (), (0, 4)]
])
def aten〇where〇Scalar〡shape(condition: List[int], self: float, other: float) -> List[int]:
    return upstream.unary(condition)


@dtype("aten.where.Scalar", invocations=[
    Invocation(TensorOfShape(2, dtype=torch.bool), a, b)
    for a, b in itertools.product(_SCALAR_SWEEP, _SCALAR_SWEEP)
] + _WHERE_CONDITIONS)
def aten〇where〇Scalar〡dtype(condition_rank_dtype: Tuple[int, int], self: Union[int, float, complex], other: Union[int, float, complex]) -> int:
    _check_condition(condition_rank_dtype[1])
    ranks: List[Optional[int]] = [None, None]
    return promote_dtypes(ranks, [scalar_dtype(self), scalar_dtype(other)])


_WHERE_SHAPES = [
    Invocation(TensorOfShape(2, 1, dtype=torch.bool), TensorOfShape(3)),
    Invocation(TensorOfShape(dtype=torch.bool), TensorOfShape(0)),
    Invocation(TensorOfShape(2, 3, dtype=torch.bool), TensorOfShape()),
    ErrorInvocation(TensorOfShape(2, 3, dtype=torch.bool), TensorOfShape(4)),
]


@shape("aten.where.ScalarOther", invocations=[
    type(case)(*case.args, 2.0) for case in _WHERE_SHAPES
])
def aten〇where〇ScalarOther〡shape(condition: List[int], self: List[int], other: float) -> List[int]:
    return broadcast_shapes([condition, self])


@dtype("aten.where.ScalarOther", invocations=[
    Invocation(TensorOfShape(2, dtype=torch.bool), TensorOfShape(*s, dtype=d), v)
    for d in DTYPE_SWEEP for v in _SCALAR_SWEEP for s in [(2,), ()]
] + [type(case)(case.args[0], TensorOfShape(2), case.args[1]) for case in _WHERE_CONDITIONS])
def aten〇where〇ScalarOther〡dtype(condition_rank_dtype: Tuple[int, int], self_rank_dtype: Tuple[int, int], other: Union[int, float, complex]) -> int:
    _check_condition(condition_rank_dtype[1])
    ranks: List[Optional[int]] = [self_rank_dtype[0], None]
    return promote_dtypes(ranks, [self_rank_dtype[1], scalar_dtype(other)])


@shape("aten.where.ScalarSelf", invocations=[
    type(case)(case.args[0], 2.0, case.args[1]) for case in _WHERE_SHAPES
])
def aten〇where〇ScalarSelf〡shape(condition: List[int], self: float, other: List[int]) -> List[int]:
    return broadcast_shapes([condition, other])


@dtype("aten.where.ScalarSelf", invocations=[
    Invocation(TensorOfShape(2, dtype=torch.bool), v, TensorOfShape(*s, dtype=d))
    for d in DTYPE_SWEEP for v in _SCALAR_SWEEP for s in [(2,), ()]
] + [type(case)(case.args[0], case.args[1], TensorOfShape(2)) for case in _WHERE_CONDITIONS])
def aten〇where〇ScalarSelf〡dtype(condition_rank_dtype: Tuple[int, int], self: Union[int, float, complex], other_rank_dtype: Tuple[int, int]) -> int:
    _check_condition(condition_rank_dtype[1])
    ranks: List[Optional[int]] = [None, other_rank_dtype[0]]
    return promote_dtypes(ranks, [scalar_dtype(self), other_rank_dtype[1]])


# ldexp: self * 2.0**other, with the 2.0 a zero-rank tensor of self's dtype (float32 for an
# integral or bool self), as the meta kernel's decomposition computes it. The CPU kernel
# differs in one corner: an integral self times a zero-rank float16 or bfloat16 exponent
# gives that 16-bit dtype there, float32 here.

@shape("aten.ldexp.Tensor", invocations=_BINARY_SHAPES)
def aten〇ldexp〇Tensor〡shape(self: List[int], other: List[int]) -> List[int]:
    return broadcast_shapes([self, other])


@dtype("aten.ldexp.Tensor", invocations=_dtype_invocations(2, 0))
def aten〇ldexp〇Tensor〡dtype(self_rank_dtype: Tuple[int, int], other_rank_dtype: Tuple[int, int]) -> int:
    self_rank, self_dtype = self_rank_dtype
    other_rank, other_dtype = other_rank_dtype
    two_dtype = 6 if is_integer_dtype(self_dtype) or self_dtype == 11 else self_dtype  # 6: float32
    power_ranks: List[Optional[int]] = [0, other_rank]
    power_dtype = elementwise_dtype(5, power_ranks, [two_dtype, other_dtype])  # 5: BOOL_TO_LONG
    ranks: List[Optional[int]] = [self_rank, other_rank]
    return promote_dtypes(ranks, [self_dtype, power_dtype])
