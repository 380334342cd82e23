"""In-place variants (`add_`, `relu_`, `masked_fill_` ...): the result is `self`, so it has
`self`'s sizes and dtype. Each function calls its out-of-place counterpart and checks what
PyTorch checks when it writes the result into `self`:

- elementwise ops cannot resize `self`: the broadcast shape must be `self`'s shape;
- the result dtype must cast to `self`'s dtype (c10::canCast: no float to integral, no
  complex to real, nothing but bool to bool), so `int_tensor.add_(2.5)` raises.

In-place views (`unsqueeze_`, `t_` ...) change `self`'s sizes like their out-of-place view.
The variants are declared as data below and verified on their out-of-place op's cases.
Random fills (`uniform_`, `normal_` ...) keep `self` as it is and are written out.
"""

from typing import Any, List, Optional, Tuple, Union  # noqa: F401 (used by synthesized functions)

import torch

from . import (  # noqa: F401 (the out-of-place functions must be registered first)
    conv_pool,
    creation,
    elementwise,
    indexing,
    linalg,
    nn,
    reductions,
    special,
    views,
)
from ._synthesize import define
from .elementwise import DTYPE_SWEEP, _can_cast
from .promotion import is_complex_dtype, is_float_dtype, is_integer_dtype
from .registry import _FUNCTIONS, dtype, shape
from .signatures import expected_parameters, python_name
from .testing import (
    ErrorInvocation,
    Invocation,
    KernelErrorInvocation,
    KernelInvocation,
    TensorOfShape,
    op_overload,
)


def _inplace_shape(self: List[int], result: List[int], op: str) -> List[int]:
    assert len(result) == len(self), op + ": the result's rank differs from self's"
    for i in range(len(self)):
        assert result[i] == self[i], op + ": the broadcast shape differs from self's shape"
    return self


def _inplace_dtype(self_rank_dtype: Tuple[int, int], result: int, op: str) -> int:
    self_dtype = self_rank_dtype[1]
    assert _can_cast(result, self_dtype), op + ": the result type cannot be cast to self's dtype"
    return self_dtype


def _callee(kind: str, op: str, namespace: dict) -> str:
    """Bind `op`'s `kind` function in `namespace` under a Python name and return the name."""
    name = "_" + python_name(op, kind)
    namespace[name] = _FUNCTIONS[(kind, op)].fn
    return name


def _declare(inplace: str, op: str, is_view: bool, namespace: dict) -> None:
    entry_shape, entry_dtype = _FUNCTIONS[("shape", op)], _FUNCTIONS[("dtype", op)]
    shape_args = ", ".join(p.name for p in expected_parameters(inplace, "shape"))
    dtype_args = ", ".join(p.name for p in expected_parameters(inplace, "dtype"))
    result = f"{_callee('shape', op, namespace)}({shape_args})"
    shape_body = (f"    return {result}" if is_view
                  else f"    return _inplace_shape(self, {result}, {inplace!r})")
    dtype_result = f"{_callee('dtype', op, namespace)}({dtype_args})"
    dtype_body = f"    return _inplace_dtype(self_rank_dtype, {dtype_result}, {inplace!r})"
    define("shape", inplace, shape_body, namespace, _on_kernels(op, entry_shape.invocations))
    define("dtype", inplace, dtype_body, namespace, _on_kernels(op, entry_dtype.invocations))


def _on_kernels(op: str, cases) -> list[Invocation]:
    """`op`'s cases run on the CPU kernels: meta kernels of in-place ops skip the shape and
    cast checks (a [2, 1] meta tensor's `lt_` with a [1, 3] one returns a [2, 3] tensor).

    Cases on which `op`'s own CPU kernel refuses a dtype that its meta kernel accepts (gcd of
    floats, heaviside of mixed dtypes) are left out: the library follows the meta kernels.
    """
    kernel_cases = []
    for case in cases:
        if case.expects_error:
            kernel_cases.append(KernelErrorInvocation(*case.args, **case.kwargs))
            continue
        for variant in (case, _as_int64(case)):
            kernel_case = KernelInvocation(*variant.args, **variant.kwargs)
            if _kernel_accepts(op, kernel_case):
                kernel_cases.append(kernel_case)
                break
    return kernel_cases


def _as_int64(case: Invocation) -> Invocation:
    """`case` with its float32 tensors as int64 ones and its float Scalars as ints: shape
    cases of integral-only kernels."""
    def convert(value):
        if isinstance(value, TensorOfShape) and value.dtype == torch.float32:
            return TensorOfShape(*value.shape, dtype=torch.int64)
        if isinstance(value, float):
            return int(value)
        return value
    return Invocation(*[convert(a) for a in case.args],
                      **{k: convert(v) for k, v in case.kwargs.items()})


def _kernel_accepts(op: str, case: Invocation) -> bool:
    args, kwargs = case.op_args()
    try:
        op_overload(op)(*args, **kwargs)
    except Exception:  # any refusal of the kernel
        return False
    return True


def inplace_variants(namespace: dict, ops: tuple[str, ...], is_view: bool = False) -> None:
    """Declare `op_`'s functions from `op`'s for each `op` (or `(inplace, op)` pair)."""
    for item in ops:
        inplace, op = item if isinstance(item, tuple) else (_inplace_name(item), item)
        _declare(inplace, op, is_view, namespace)


def _inplace_name(op: str) -> str:
    namespace, name, *overload = op.split(".")
    return ".".join([namespace, name + "_", *overload])


inplace_variants(globals(), (
    "aten.acos", "aten.acosh", "aten.add.Scalar", "aten.add.Tensor",
    "aten.addmm", "aten.arccos", "aten.arccosh", "aten.arcsin", "aten.arcsinh", "aten.arctan",
    "aten.arctan2", "aten.arctanh", "aten.asin", "aten.asinh", "aten.atan", "aten.atan2",
    "aten.atanh", "aten.baddbmm", "aten.bitwise_and.Scalar", "aten.bitwise_and.Tensor",
    "aten.bitwise_left_shift.Tensor", "aten.bitwise_left_shift.Tensor_Scalar",
    "aten.bitwise_not", "aten.bitwise_or.Scalar", "aten.bitwise_or.Tensor",
    "aten.bitwise_right_shift.Tensor", "aten.bitwise_right_shift.Tensor_Scalar",
    "aten.bitwise_xor.Scalar", "aten.bitwise_xor.Tensor", "aten.ceil", "aten.celu",
    "aten.clamp", "aten.clamp.Tensor", "aten.clamp_max", "aten.clamp_max.Tensor",
    "aten.clamp_min", "aten.clamp_min.Tensor", "aten.conj_physical", "aten.copysign.Scalar",
    "aten.copysign.Tensor", "aten.cos", "aten.cosh", "aten.deg2rad",
    "aten.digamma", "aten.div.Scalar", "aten.div.Scalar_mode", "aten.div.Tensor",
    "aten.div.Tensor_mode", "aten.divide.Scalar", "aten.divide.Tensor", "aten.dropout",
    "aten.elu", "aten.eq.Scalar", "aten.eq.Tensor", "aten.erf", "aten.erfc", "aten.erfinv",
    "aten.exp", "aten.exp2", "aten.expm1", "aten.fill.Scalar", "aten.fill.Tensor", "aten.fix",
    "aten.floor", "aten.floor_divide.Scalar", "aten.fmod.Scalar", "aten.fmod.Tensor",
    "aten.frac", "aten.gcd", "aten.ge.Scalar", "aten.ge.Tensor", "aten.gelu",
    "aten.greater.Scalar", "aten.greater.Tensor", "aten.greater_equal.Scalar",
    "aten.greater_equal.Tensor", "aten.gt.Scalar", "aten.gt.Tensor", "aten.hardsigmoid",
    "aten.hardswish", "aten.hardtanh", "aten.heaviside", "aten.hypot", "aten.i0",
    "aten.igamma", "aten.igammac", "aten.lcm", "aten.le.Scalar", "aten.le.Tensor",
    "aten.leaky_relu", "aten.less.Scalar", "aten.less.Tensor", "aten.less_equal.Scalar",
    "aten.less_equal.Tensor", "aten.lgamma", "aten.log", "aten.log10", "aten.log1p",
    "aten.log2", "aten.logical_and", "aten.logical_not", "aten.logical_or",
    "aten.logical_xor", "aten.logit", "aten.lt.Scalar", "aten.lt.Tensor",
    "aten.masked_scatter", "aten.mish", "aten.mul.Scalar",
    "aten.mul.Tensor", "aten.multiply.Scalar", "aten.multiply.Tensor", "aten.nan_to_num",
    "aten.ne.Scalar", "aten.ne.Tensor", "aten.neg", "aten.negative", "aten.nextafter",
    "aten.not_equal.Scalar", "aten.not_equal.Tensor", "aten.rad2deg", "aten.reciprocal",
    "aten.relu", "aten.relu6", "aten.remainder.Scalar", "aten.remainder.Tensor", "aten.round",
    "aten.rsqrt", "aten.scatter.src", "aten.scatter.value", "aten.scatter_add",
    "aten.selu", "aten.sgn", "aten.sigmoid", "aten.sign",
    "aten.silu", "aten.sin", "aten.sinc", "aten.sinh", "aten.sqrt", "aten.square",
    "aten.sub.Scalar", "aten.sub.Tensor", "aten.subtract.Scalar", "aten.subtract.Tensor",
    "aten.tan", "aten.tanh", "aten.threshold", "aten.tril", "aten.triu",
    "aten.true_divide.Scalar", "aten.true_divide.Tensor", "aten.trunc",
    "aten.xlogy.Scalar_Other", "aten.xlogy.Tensor", "aten.zero",
    ("aten.pow_.Tensor", "aten.pow.Tensor_Tensor"),
    ("aten.floor_divide_.Tensor", "aten.floor_divide"),
    ("aten.__iand__.Tensor", "aten.__and__.Tensor"),
    ("aten.__iand__.Scalar", "aten.__and__.Scalar"),
    ("aten.__ior__.Tensor", "aten.__or__.Tensor"), ("aten.__ior__.Scalar", "aten.__or__.Scalar"),
    ("aten.__ixor__.Tensor", "aten.__xor__.Tensor"),
    ("aten.__ixor__.Scalar", "aten.__xor__.Scalar"),
    ("aten.__ilshift__.Scalar", "aten.__lshift__.Scalar"),
    ("aten.__irshift__.Scalar", "aten.__rshift__.Scalar"),
))
inplace_variants(globals(), (
    "aten.as_strided", "aten.detach", "aten.squeeze", "aten.squeeze.dim", "aten.squeeze.dims",
    "aten.t", "aten.unsqueeze", ("aten.transpose_", "aten.transpose.int"),
    ("aten.swapaxes_", "aten.transpose.int"), ("aten.swapdims_", "aten.transpose.int"),
), is_view=True)


# Left out, where the CPU kernels of the in-place op disagree with the out-of-place rule:
# cumsum_ (its `dtype` must be self's), masked_fill_.Tensor (a complex value fills integral
# tensors in place), pow_.Scalar (a bool tensor to a bool power), scatter_reduce_.two (in-place
# `max` accepts an index larger than src), __ilshift__/__irshift__.Tensor (bool shifts).


@shape("aten.abs_", "aten.absolute_", invocations=[
    KernelInvocation(TensorOfShape(*s)) for s in [(2, 3), (), (0, 4)]
])
def aten〇abs_〡shape(self: List[int]) -> List[int]:
    return self


@dtype("aten.abs_", "aten.absolute_", invocations=[
    KernelInvocation(TensorOfShape(2, 3, dtype=d)) for d in DTYPE_SWEEP
] + [  # the meta kernel accepts bool, the CPU kernel refuses it
    KernelErrorInvocation(TensorOfShape(2, dtype=torch.bool)),
    KernelErrorInvocation(TensorOfShape(2, dtype=torch.complex64)),
])
def aten〇abs_〡dtype(self_rank_dtype: Tuple[int, int]) -> int:
    self_dtype = self_rank_dtype[1]
    assert self_dtype != 11, "abs_: bool tensors are not supported"
    assert not is_complex_dtype(self_dtype), "abs_: complex tensors are not supported"
    return self_dtype


# Random fills: `self` keeps its sizes and dtype; the dtypes a distribution can fill and the
# parameters are checked like the meta kernels do (they leave `from < to` unchecked).

_FILL_SHAPES = [Invocation(TensorOfShape(*s)) for s in [(2, 3), (), (0, 4)]]


def _fill_dtypes(*args, **kwargs) -> list[Invocation]:
    return [Invocation(TensorOfShape(2, 3, dtype=d), *args, **kwargs) for d in DTYPE_SWEEP]


@shape("aten.uniform_", invocations=_FILL_SHAPES + [Invocation(TensorOfShape(2), 1.0, 0.0)])
def aten〇uniform_〡shape(self: List[int], from_: float = 0.0, to: float = 1.0, generator: Optional[Any] = None) -> List[int]:
    return self


@dtype("aten.uniform_", invocations=_fill_dtypes())
def aten〇uniform_〡dtype(self_rank_dtype: Tuple[int, int], from_: float = 0.0, to: float = 1.0, generator: Optional[Any] = None) -> int:
    return self_rank_dtype[1]


@shape("aten.normal_", invocations=_FILL_SHAPES + [
    ErrorInvocation(TensorOfShape(2), 0.0, -1.0), Invocation(TensorOfShape(2), 3.0, 0.0),
])
def aten〇normal_〡shape(self: List[int], mean: float = 0.0, std: float = 1.0, generator: Optional[Any] = None) -> List[int]:
    assert std >= 0.0, "normal_: std must be non-negative"
    return self


@dtype("aten.normal_", invocations=_fill_dtypes() + [
    ErrorInvocation(TensorOfShape(2, dtype=torch.int64)),
    ErrorInvocation(TensorOfShape(2, dtype=torch.bool)),
])
def aten〇normal_〡dtype(self_rank_dtype: Tuple[int, int], mean: float = 0.0, std: float = 1.0, generator: Optional[Any] = None) -> int:
    self_dtype = self_rank_dtype[1]
    assert is_float_dtype(self_dtype) or is_complex_dtype(self_dtype), \
        "normal_: only floating-point and complex tensors are supported"
    return self_dtype


@shape("aten.log_normal_", invocations=_FILL_SHAPES + [
    ErrorInvocation(TensorOfShape(2), 0.0, -1.0), ErrorInvocation(TensorOfShape(2), 3.0, 0.0),
])
def aten〇log_normal_〡shape(self: List[int], mean: float = 1.0, std: float = 2.0, generator: Optional[Any] = None) -> List[int]:
    assert std > 0.0, "log_normal_: std must be positive"
    return self


@dtype("aten.log_normal_", invocations=_fill_dtypes() + [
    ErrorInvocation(TensorOfShape(2, dtype=torch.int64)),
    ErrorInvocation(TensorOfShape(2, dtype=torch.complex64)),
])
def aten〇log_normal_〡dtype(self_rank_dtype: Tuple[int, int], mean: float = 1.0, std: float = 2.0, generator: Optional[Any] = None) -> int:
    assert is_float_dtype(self_rank_dtype[1]), "log_normal_: only floating-point tensors are supported"
    return self_rank_dtype[1]


@shape("aten.cauchy_", invocations=_FILL_SHAPES)
def aten〇cauchy_〡shape(self: List[int], median: float = 0.0, sigma: float = 1.0, generator: Optional[Any] = None) -> List[int]:
    return self


@dtype("aten.cauchy_", invocations=_fill_dtypes() + [
    ErrorInvocation(TensorOfShape(2, dtype=torch.int64)),
    ErrorInvocation(TensorOfShape(2, dtype=torch.complex64)),
])
def aten〇cauchy_〡dtype(self_rank_dtype: Tuple[int, int], median: float = 0.0, sigma: float = 1.0, generator: Optional[Any] = None) -> int:
    assert is_float_dtype(self_rank_dtype[1]), "cauchy_: only floating-point tensors are supported"
    return self_rank_dtype[1]


@shape("aten.exponential_", invocations=_FILL_SHAPES + [ErrorInvocation(TensorOfShape(2), -1.0)])
def aten〇exponential_〡shape(self: List[int], lambd: float = 1.0, generator: Optional[Any] = None) -> List[int]:
    assert lambd > 0.0, "exponential_: lambd must be positive"
    return self


@dtype("aten.exponential_", invocations=_fill_dtypes() + [
    ErrorInvocation(TensorOfShape(2, dtype=torch.int64)),
    ErrorInvocation(TensorOfShape(2, dtype=torch.complex64)),
])
def aten〇exponential_〡dtype(self_rank_dtype: Tuple[int, int], lambd: float = 1.0, generator: Optional[Any] = None) -> int:
    assert is_float_dtype(self_rank_dtype[1]), "exponential_: only floating-point tensors are supported"
    return self_rank_dtype[1]


@shape("aten.geometric_", invocations=[Invocation(*c.args, 0.5) for c in _FILL_SHAPES] + [
    ErrorInvocation(TensorOfShape(2), 1.5), ErrorInvocation(TensorOfShape(2), 0.0),
])
def aten〇geometric_〡shape(self: List[int], p: float, generator: Optional[Any] = None) -> List[int]:
    assert p > 0.0, "geometric_: p must be in (0, 1)"
    assert p < 1.0, "geometric_: p must be in (0, 1)"
    return self


@dtype("aten.geometric_", invocations=_fill_dtypes(0.5) + [
    ErrorInvocation(TensorOfShape(2, dtype=torch.bool), 0.5),
    ErrorInvocation(TensorOfShape(2, dtype=torch.complex64), 0.5),
])
def aten〇geometric_〡dtype(self_rank_dtype: Tuple[int, int], p: float, generator: Optional[Any] = None) -> int:
    self_dtype = self_rank_dtype[1]
    assert is_integer_dtype(self_dtype) or is_float_dtype(self_dtype), \
        "geometric_: bool and complex tensors are not supported"
    return self_dtype


@shape("aten.bernoulli_.float", invocations=_FILL_SHAPES)
def aten〇bernoulli_〇float〡shape(self: List[int], p: float = 0.5, generator: Optional[Any] = None) -> List[int]:
    return self


@dtype("aten.bernoulli_.float", invocations=_fill_dtypes())
def aten〇bernoulli_〇float〡dtype(self_rank_dtype: Tuple[int, int], p: float = 0.5, generator: Optional[Any] = None) -> int:
    return self_rank_dtype[1]


@shape("aten.random_", invocations=_FILL_SHAPES)
def aten〇random_〡shape(self: List[int], generator: Optional[Any] = None) -> List[int]:
    return self


@dtype("aten.random_", invocations=_fill_dtypes())
def aten〇random_〡dtype(self_rank_dtype: Tuple[int, int], generator: Optional[Any] = None) -> int:
    return self_rank_dtype[1]


@shape("aten.random_.to", invocations=[Invocation(*c.args, 5) for c in _FILL_SHAPES])
def aten〇random_〇to〡shape(self: List[int], to: int, generator: Optional[Any] = None) -> List[int]:
    return self


@dtype("aten.random_.to", invocations=_fill_dtypes(5))
def aten〇random_〇to〡dtype(self_rank_dtype: Tuple[int, int], to: int, generator: Optional[Any] = None) -> int:
    return self_rank_dtype[1]


@shape("aten.random_.from", invocations=[Invocation(*c.args, 0, 5) for c in _FILL_SHAPES] + [
    Invocation(TensorOfShape(2), -4, None),
])
def aten〇random_〇from〡shape(self: List[int], from_: int, to: Optional[int], generator: Optional[Any] = None) -> List[int]:
    return self


@dtype("aten.random_.from", invocations=_fill_dtypes(0, 5))
def aten〇random_〇from〡dtype(self_rank_dtype: Tuple[int, int], from_: int, to: Optional[int], generator: Optional[Any] = None) -> int:
    return self_rank_dtype[1]
