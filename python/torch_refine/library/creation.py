"""Tensor creation, conversions and copies.

Factories take their sizes from a list (or from `self` for the `*_like` ops); their dtype
follows PyTorch's defaults when `dtype` is None: float32 for factories of unspecified
values, the fill value's category for `full` (bool, int64, float32, complex64), `self`'s
dtype for `*_like` and `new_*`. Layout, device and pin_memory do not affect either result.
Factory cases run on PyTorch's default device (CPU), whose kernels check dtypes that the
meta kernels do not (integer `rand`, `arange` in bool).
"""

import math
from typing import Any, List, Optional, Tuple, Union

import torch
import torch.jit._shape_functions as upstream
from torch import device

from ._helpers import (
    check_contiguous_strides_fit,
    check_numel_fits,
    dtype_itemsize,
    scalar_dtype,
    unknown_dim,
)
from .elementwise import DTYPE_SWEEP
from .registry import dtype, shape
from .testing import ErrorInvocation, Invocation, KernelInvocation, TensorOfShape, UnknownSizeInvocation
from .views import keep_self_dtype

_DTYPES_OR_NONE = (None, *DTYPE_SWEEP)

# --- Family-private helpers (TorchScript) ----------------------------------------------------


def _new_size(op: str, size: List[int], itemsize: int = 1) -> List[int]:
    """The sizes of a new tensor: non-negative, their product (in bytes, with the element
    size) fitting in int64."""
    for s in size:
        if s < 0:
            raise AssertionError(op + ": trying to create tensor with negative dimension")
    check_numel_fits(op, size, itemsize)
    return upstream._copy(size)


def _new_contiguous_size(op: str, size: List[int], dtype_: Optional[int]) -> List[int]:
    """The sizes of a new contiguous tensor of `dtype_` (None: not known here, so its
    bytes are not checked): its strides fit in int64 too."""
    result = _new_size(op, size, 1 if dtype_ is None else dtype_itemsize(dtype_))
    check_contiguous_strides_fit(op, size)
    return result


def _check_physical_layout(size: List[int], physical_layout: List[int]) -> List[int]:
    """The sizes in physical order (outermost first); `physical_layout` must be a
    permutation of the dims of `size`."""
    rank = len(size)
    if len(physical_layout) != rank:
        raise AssertionError("empty_permuted: number of dimensions in size does not match "
                             "the length of the physical_layout")
    physical_sizes: List[int] = []
    for index, dim in enumerate(physical_layout):
        if dim < 0 or dim >= rank:
            raise AssertionError("empty_permuted: dimension out of range")
        for earlier in range(index):  # no list of seen dims: a program's constants fold through reads only
            if physical_layout[earlier] == dim:
                raise AssertionError("empty_permuted: duplicate dim not allowed")
        physical_sizes.append(size[dim])
    return physical_sizes


def _is_complex(dtype_: int) -> bool:
    return dtype_ == 8 or dtype_ == 9 or dtype_ == 10


def _is_integral(dtype_: int) -> bool:
    """Integral, bool included."""
    return (dtype_ >= 0 and dtype_ <= 4) or dtype_ == 11


def _or_default_float(dtype_: Optional[int]) -> int:
    if dtype_ is None:
        return 6  # float32, PyTorch's default dtype
    return dtype_


def _value_dtype(value: Union[int, float, complex]) -> int:
    """The default dtype for a fill value: bool, int64, float32 or complex64."""
    code = scalar_dtype(value)
    if code == 7:  # float64 -> the default float dtype
        return 6
    if code == 10:  # complex128 -> the default complex dtype
        return 9
    return code


def _check_fits(op: str, value: Union[int, float, complex], dtype_: int) -> None:
    """A complex value does not convert to a real dtype."""
    if _is_complex(scalar_dtype(value)) and not _is_complex(dtype_) and dtype_ != 11:
        raise AssertionError(op + ": a complex value cannot be converted to a real dtype")


def _check_random_dtype(op: str, dtype_: int) -> None:
    if _is_integral(dtype_):
        raise AssertionError(op + ": not implemented for integral or bool dtypes")


def _is_finite(x: float) -> bool:
    return x == x and x != math.inf and x != -math.inf


def _past_exact_ints(x: float) -> bool:
    """Whether a double is past 2**52, where it is an int but not every int is a double."""
    return x >= 4503599627370496.0 or x <= -4503599627370496.0


def _arange_size(start: float, end: float, step: float, dtype_: Optional[int]) -> List[int]:
    """PyTorch's compute_arange_size. Integer-valued int64 ranges compute in integers on
    truncated bounds; every other range computes ceil((end - start) / step) in doubles.

    The bounds arrive as doubles: past 2**52 an int is no longer told from its neighbours,
    and without a dtype an int bound (an int64 result, computed in int64 with wrapping:
    `arange(0, 10, 2**63 - 1)` is empty) is not told from a float one. Such a step (a
    constant in programs) leaves the size unknown; such a start or end, in int64, is an
    error, as an overflow (undecided on a program's sizes, it is no guard)."""
    if step == 0:
        raise AssertionError("arange: step must be nonzero")
    if not (_is_finite(start) and _is_finite(end)):
        raise AssertionError("arange: unsupported range")
    if not ((step > 0 and end >= start) or (step < 0 and end <= start)):
        raise AssertionError("arange: upper bound and lower bound inconsistent with step sign")
    in_int64 = dtype_ is None or dtype_ == 4
    if in_int64 and _past_exact_ints(step):
        return [unknown_dim()]
    if in_int64 and (_past_exact_ints(start) or _past_exact_ints(end)):
        raise AssertionError("arange: a bound past 2**52 is not told from its neighbours in int64: "
                             "invalid size, possible overflow")
    if dtype_ is not None and dtype_ == 4:
        int_start = int(start)
        int_end = int(end)
        int_step = int(step)
        if int_step == 0:
            raise AssertionError("arange: step must be nonzero")
        sign = 1 if int_step > 0 else -1
        # The bounds check makes the numerator's sign the step's, so floor division
        # of the magnitudes equals C++'s truncating division.
        numerator = int_end - int_start + int_step - sign
        size = [(numerator * sign) // (int_step * sign)]
    else:
        quotient = (end - start) / step
        # ceil rounds a quotient past the last double below 2**63 to 2**63, which the
        # kernel's conversion to int64 turns negative.
        if quotient > 9223372036854774784.0:
            raise AssertionError("arange: invalid size, possible overflow")
        size = [math.ceil(quotient)]
    # Without a dtype the element size is not known: 2 bytes (a float16 default dtype), a
    # lower bound.
    check_numel_fits("arange", size, 2 if dtype_ is None else dtype_itemsize(dtype_))
    return size


def _arange_dtype(bound_dtypes: List[int], dtype_: Optional[int]) -> int:
    """int64 when every bound is integral (bools included), else float32; complex raises."""
    result = 4
    for code in bound_dtypes:
        if _is_complex(code):
            raise AssertionError("arange: complex bounds are not supported")
        if not _is_integral(code):
            result = 6
    if dtype_ is not None:
        result = dtype_
    if result == 11 or _is_complex(result):
        raise AssertionError("arange: not implemented for bool or complex dtypes")
    return result


# --- Factories from a size list --------------------------------------------------------------

_SIZE_CASES = [
    Invocation([2, 3]),
    Invocation([]),
    Invocation([0, 4]),
    ErrorInvocation([2, -1]),
    # Sizes whose product, bytes or strides overflow int64 (on meta tensors: CPU ones
    # would be allocated).
    ErrorInvocation([2**40, 2**40], device="meta"),
    ErrorInvocation([2**62, 4], device="meta"),
    ErrorInvocation([2**61, 2], device="meta"),  # 2**64 bytes of float32
    ErrorInvocation([0, 2**62, 8], device="meta"),  # the first dim's stride
    Invocation([2**62, 2, 0], device="meta"),
    Invocation([0, 2**60, 4], device="meta"),
]
_SIZE_DTYPE_CASES = [Invocation([2, 3], dtype=d) for d in _DTYPES_OR_NONE]
_ITEMSIZE_CASES = [
    Invocation([2**62, 1], dtype=torch.int8, device="meta"),
    ErrorInvocation([2**62, 1], dtype=torch.int32, device="meta"),
    ErrorInvocation([2**60], dtype=torch.complex128, device="meta"),
]


@shape("aten.zeros", "aten.ones", "aten.rand", invocations=_SIZE_CASES + _ITEMSIZE_CASES)
def aten〇zeros〡shape(size: List[int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    return _new_contiguous_size("zeros", size, _or_default_float(dtype))


# randn's meta kernel (a Python reference) checks the element count, not the bytes.
@shape("aten.randn", invocations=[case for case in _SIZE_CASES if case.args[0] != [2**61, 2]])
def aten〇randn〡shape(size: List[int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    return _new_contiguous_size("randn", size, None)


@dtype("aten.zeros", "aten.ones", invocations=_SIZE_DTYPE_CASES)
def aten〇zeros〡dtype(size: List[int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    return _or_default_float(dtype)


@dtype("aten.rand", "aten.randn", invocations=_SIZE_DTYPE_CASES
    + [ErrorInvocation([2, 3], dtype=torch.uint8)])
def aten〇rand〡dtype(size: List[int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    result = _or_default_float(dtype)
    _check_random_dtype("rand", result)
    return result


@shape("aten.empty.memory_format", invocations=[
    *_SIZE_CASES,
    *_ITEMSIZE_CASES,
    Invocation([2, 3], memory_format=torch.contiguous_format),
])
def aten〇empty〇memory_format〡shape(size: List[int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None, memory_format: Optional[int] = None) -> List[int]:
    if memory_format is not None and memory_format != 0:  # 0: torch.contiguous_format
        return _new_size("empty", size)
    return _new_contiguous_size("empty", size, _or_default_float(dtype))


@dtype("aten.empty.memory_format", invocations=_SIZE_DTYPE_CASES)
def aten〇empty〇memory_format〡dtype(size: List[int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None, memory_format: Optional[int] = None) -> int:
    return _or_default_float(dtype)


@shape("aten.empty_strided", invocations=[
    Invocation([2, 3], [3, 1]),
    Invocation([2, 3], [1, 2]),
    Invocation([], []),
    Invocation([0, 4], [4, 1]),
    ErrorInvocation([2, -1], [1, 1]),
    ErrorInvocation([2, 3], [1]),
])
def aten〇empty_strided〡shape(size: List[int], stride: List[int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    if len(size) != len(stride):
        raise AssertionError("empty_strided: dimensionality of sizes must match "
                             "dimensionality of strides")
    return _new_size("empty_strided", size)


@dtype("aten.empty_strided", invocations=[
    Invocation([2, 3], [3, 1], dtype=d) for d in _DTYPES_OR_NONE
])
def aten〇empty_strided〡dtype(size: List[int], stride: List[int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    return _or_default_float(dtype)


@shape("aten.empty_permuted", invocations=[
    Invocation([2, 3, 4], [2, 0, 1]), Invocation([2, 3], [0, 1]), Invocation([], []),
    Invocation([0, 3], [1, 0]), Invocation([5], [0], dtype=torch.int64),
    ErrorInvocation([2, 3, 4], [2, 0, 0]), ErrorInvocation([2, 3, 4], [1, 0]),
    ErrorInvocation([2, 3], [1, 0, 2]), ErrorInvocation([2, 3, 4], [3, 0, 1]),
    ErrorInvocation([2, 3, 4], [-1, 0, 1]), ErrorInvocation([2, -3, 4], [0, 1, 2]),
    # Bytes and strides that overflow int64; the strides follow the physical order.
    Invocation([2**62, 1], [0, 1], dtype=torch.int8, device="meta"),
    ErrorInvocation([2**62, 1], [1, 0], dtype=torch.int32, device="meta"),
    Invocation([2, 2**62, 0], [0, 1, 2], dtype=torch.int8, device="meta"),
    ErrorInvocation([4, 2**62, 0], [2, 1, 0], dtype=torch.int8, device="meta"),
    ErrorInvocation([2**62, 4, 0], [2, 1, 0], dtype=torch.int8, device="meta"),
    Invocation([0, 2**40, 2**30], [1, 0, 2], dtype=torch.int8, device="meta"),
    ErrorInvocation([0, 2**40, 2**30], [0, 1, 2], dtype=torch.int8, device="meta"),
])
def aten〇empty_permuted〡shape(size: List[int], physical_layout: List[int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    physical_sizes = _check_physical_layout(size, physical_layout)
    _new_contiguous_size("empty_permuted", physical_sizes, _or_default_float(dtype))
    return upstream._copy(size)


@dtype("aten.empty_permuted", invocations=[
    Invocation([2, 3], [1, 0], dtype=d) for d in _DTYPES_OR_NONE
])
def aten〇empty_permuted〡dtype(size: List[int], physical_layout: List[int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    return _or_default_float(dtype)


@shape("aten.full", invocations=[
    Invocation([2, 3], 1.5),
    Invocation([], 2.0),
    Invocation([0], 2.0),
    ErrorInvocation([-1], 2.0),
    ErrorInvocation([2**62, 4], True, device="meta"),
    ErrorInvocation([2**61, 2], 2.0, dtype=torch.float32, device="meta"),
    Invocation([2**62, 1], True, device="meta"),
])
def aten〇full〡shape(size: List[int], fill_value: float, dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    return _new_contiguous_size("full", size, dtype)


_FILL_VALUES = (2, 2.5, True, 1j)


@dtype("aten.full", invocations=[
    Invocation([2], v, dtype=d) for v in _FILL_VALUES for d in _DTYPES_OR_NONE
]
    + [ErrorInvocation([2], 1j, dtype=torch.uint8)])
def aten〇full〡dtype(size: List[int], fill_value: Union[int, float, complex], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    result = _value_dtype(fill_value) if dtype is None else dtype
    _check_fits("full", fill_value, result)
    return result


@shape("aten.scalar_tensor", invocations=[Invocation(1.5), Invocation(2.0, dtype=torch.int32)])
def aten〇scalar_tensor〡shape(s: float, dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    return []


@dtype("aten.scalar_tensor", invocations=[
    Invocation(v, dtype=d) for v in _FILL_VALUES for d in _DTYPES_OR_NONE
]
    + [ErrorInvocation(1j, dtype=None)])
def aten〇scalar_tensor〡dtype(s: Union[int, float, complex], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    result = _or_default_float(dtype)
    _check_fits("scalar_tensor", s, result)
    return result


@shape("aten.randperm", invocations=[
    Invocation(5),
    Invocation(0),
    Invocation(5, dtype=torch.float32),
    ErrorInvocation(-1),
    ErrorInvocation(2**61, device="meta"),  # 2**64 bytes of int64
    Invocation(2**59, device="meta"),
])
def aten〇randperm〡shape(n: int, dtype: Optional[int] = 4, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    return _new_contiguous_size("randperm", [n], dtype)


def _randperm_limit(dtype_: int) -> int:
    """The largest n whose permutation `dtype_` holds exactly; -1 for no limit."""
    if dtype_ == 0:  # uint8
        return 256
    if dtype_ == 1:  # int8
        return 128
    if dtype_ == 2:  # int16
        return 32768
    if dtype_ == 3:  # int32
        return 2147483648
    if dtype_ == 5:  # float16: 2**11 + 1
        return 2049
    if dtype_ == 6:  # float32: 2**24 + 1
        return 16777217
    return -1


@dtype("aten.randperm", invocations=[
    Invocation(5, dtype=d) for d in _DTYPES_OR_NONE
] + [
    Invocation(n, dtype=d) for d, limit in ((torch.uint8, 256), (torch.int8, 128),
                                            (torch.float16, 2049), (torch.bfloat16, 257))
    for n in (limit, limit + 1)
] + [Invocation(0, dtype=torch.uint8)]
    + [ErrorInvocation(5, dtype=torch.bool)])
def aten〇randperm〡dtype(n: int, dtype: Optional[int] = 4, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    result = 4 if dtype is None else dtype  # None means int64 here, unlike other factories
    if result == 11 or _is_complex(result):
        raise AssertionError("randperm: not implemented for bool or complex dtypes")
    limit = _randperm_limit(result)
    if limit != -1 and n > limit:
        raise AssertionError("randperm: n is too large for the result dtype")
    return result


# --- Ranges ----------------------------------------------------------------------------------

_ARANGE_CASES = [
    Invocation(0, 10, 3),
    Invocation(0, 10, 2.5),
    Invocation(10, 0, -3),
    Invocation(-2.5, 2.5, 0.5),
    Invocation(1, 1),
    Invocation(0.5, 3.7, 0.5, dtype=torch.int32),
    Invocation(0.5, 3.7, 1.5, dtype=torch.int64),
    Invocation(-0.5, -7.9, -1.9, dtype=torch.int64),
    Invocation(0, 300, dtype=torch.uint8),
    Invocation(0, 10, 3, dtype=torch.float64),
    ErrorInvocation(0, 10, 0),
    ErrorInvocation(0, 10, -1),
    ErrorInvocation(10, 0, 1),
    ErrorInvocation(0, float("inf"), 1),
    ErrorInvocation(0.5, 3.7, 0.5, dtype=torch.int64),
    ErrorInvocation(0, -9223372036854775807, -1),
    # Past 2**52 an int bound is not told from a float one (int64 wraps: empty), nor from
    # its neighbours: the size is unknown.
    UnknownSizeInvocation(0, 10, 9223372036854775807),
    UnknownSizeInvocation(10, 0, -9223372036854775807),
    UnknownSizeInvocation(0, 2**53 + 1, 2**52, dtype=torch.int64),
    ErrorInvocation(0, 2**62, 2, device="meta"),  # 2**61 int64 elements: 2**64 bytes
    ErrorInvocation(0, 2**61, 1, dtype=torch.float64, device="meta"),  # 2**64 bytes
]

_ARANGE_DTYPE_CASES = [
    Invocation(start, end, step, dtype=d)
    for start, end, step in ((0, 10, 3), (0, 10, 2.5), (0.5, 10, 1), (False, True, True))
    for d in _DTYPES_OR_NONE
] + [ErrorInvocation(0, 1j, 1)]


@shape("aten.arange.start_step", invocations=_ARANGE_CASES)
def aten〇arange〇start_step〡shape(start: float, end: float, step: float = 1, dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    return _arange_size(start, end, step, dtype)


@dtype("aten.arange.start_step", invocations=_ARANGE_DTYPE_CASES)
def aten〇arange〇start_step〡dtype(start: Union[int, float, complex], end: Union[int, float, complex], step: Union[int, float, complex] = 1, dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    return _arange_dtype([scalar_dtype(start), scalar_dtype(end), scalar_dtype(step)], dtype)


@shape("aten.arange.start", invocations=[
    Invocation(0, 10), Invocation(2.5, 7), Invocation(3, 3),
    Invocation(0.5, 3.7, dtype=torch.int64),
    ErrorInvocation(10, 0), ErrorInvocation(0, float("nan")),
])
def aten〇arange〇start〡shape(start: float, end: float, dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    return _arange_size(start, end, 1.0, dtype)


@dtype("aten.arange.start", invocations=[
    Invocation(start, end, dtype=d) for start, end in ((0, 10), (0.5, 10), (False, True))
    for d in _DTYPES_OR_NONE
])
def aten〇arange〇start〡dtype(start: Union[int, float, complex], end: Union[int, float, complex], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    return _arange_dtype([scalar_dtype(start), scalar_dtype(end)], dtype)


@shape("aten.arange", invocations=[
    Invocation(10), Invocation(5.5), Invocation(0), Invocation(5.5, dtype=torch.int64),
    ErrorInvocation(-5), ErrorInvocation(float("inf")),
])
def aten〇arange〡shape(end: float, dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    return _arange_size(0.0, end, 1.0, dtype)


@dtype("aten.arange", invocations=[
    Invocation(end, dtype=d) for end in (10, 5.5, True) for d in _DTYPES_OR_NONE
])
def aten〇arange〡dtype(end: Union[int, float, complex], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    return _arange_dtype([scalar_dtype(end)], dtype)


@shape("aten.linspace", invocations=[
    Invocation(0, 1, 5), Invocation(0, 1, 0), Invocation(0, 10, 5, dtype=torch.int64),
    ErrorInvocation(0, 1, -1),
])
def aten〇linspace〡shape(start: float, end: float, steps: int, dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    if steps < 0:
        raise AssertionError("linspace: number of steps must be non-negative")
    return [steps]


@dtype("aten.linspace", invocations=[
    Invocation(start, end, 5, dtype=d) for start, end in ((0, 10), (0.5, 10), (0, 1j))
    for d in _DTYPES_OR_NONE
]
    + [ErrorInvocation(0, 10, 5, dtype=torch.bool)])
def aten〇linspace〡dtype(start: Union[int, float, complex], end: Union[int, float, complex], steps: int, dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    bounds_complex = _is_complex(scalar_dtype(start)) or _is_complex(scalar_dtype(end))
    if dtype is None:
        return 9 if bounds_complex else 6  # complex64 or float32, the defaults
    if dtype == 11:
        raise AssertionError("linspace: not implemented for bool")
    if bounds_complex and not _is_complex(dtype):
        raise AssertionError("linspace: complex bounds can't be cast to a real dtype")
    return dtype


# --- Factories shaped like `self` ------------------------------------------------------------

_LIKE_CASES = [
    Invocation(TensorOfShape(2, 3)),
    Invocation(TensorOfShape()),
    Invocation(TensorOfShape(0, 3), memory_format=torch.preserve_format),
]
_LIKE_DTYPE_CASES = [
    Invocation(TensorOfShape(2, 3, dtype=a), dtype=b)
    for a in DTYPE_SWEEP for b in (None, torch.int32, torch.float64)
]


@shape("aten.zeros_like", "aten.ones_like", "aten.empty_like", invocations=_LIKE_CASES)
def aten〇zeros_like〡shape(self: List[int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None, memory_format: Optional[int] = None) -> List[int]:
    return upstream._copy(self)


@dtype("aten.zeros_like", "aten.ones_like", "aten.empty_like", invocations=_LIKE_DTYPE_CASES)
def aten〇zeros_like〡dtype(self_rank_dtype: Tuple[int, int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None, memory_format: Optional[int] = None) -> int:
    return self_rank_dtype[1] if dtype is None else dtype


@shape("aten.full_like", invocations=[
    Invocation(TensorOfShape(2, 3), 1.5),
    Invocation(TensorOfShape(), 2.0),
])
def aten〇full_like〡shape(self: List[int], fill_value: float, dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None, memory_format: Optional[int] = None) -> List[int]:
    return upstream._copy(self)


@dtype("aten.full_like", invocations=[
    Invocation(TensorOfShape(2, 3, dtype=a), v, dtype=b)
    for a in DTYPE_SWEEP for v in _FILL_VALUES for b in (None, torch.int32, torch.float64)
])
def aten〇full_like〡dtype(self_rank_dtype: Tuple[int, int], fill_value: Union[int, float, complex], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None, memory_format: Optional[int] = None) -> int:
    # The value is converted by fill_, which accepts a complex value for a real tensor.
    return self_rank_dtype[1] if dtype is None else dtype


_NEW_CASES = [
    Invocation(TensorOfShape(2, 3), [4, 5]),
    Invocation(TensorOfShape(), []),
    Invocation(TensorOfShape(2), [0]),
    ErrorInvocation(TensorOfShape(2), [-1]),
    ErrorInvocation(TensorOfShape(2), [2**62, 4]),
    ErrorInvocation(TensorOfShape(2), [2**61, 2], dtype=torch.int32),
    ErrorInvocation(TensorOfShape(2), [0, 2**62, 8]),
]
_NEW_DTYPE_CASES = [
    Invocation(TensorOfShape(2, 3, dtype=a), [4], dtype=b)
    for a in DTYPE_SWEEP for b in (None, torch.int32, torch.float64)
]


@shape("aten.new_zeros", "aten.new_ones", "aten.new_empty", invocations=_NEW_CASES)
def aten〇new_zeros〡shape(self: List[int], size: List[int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    return _new_contiguous_size("new_zeros", size, dtype)


@dtype("aten.new_zeros", "aten.new_ones", "aten.new_empty", invocations=_NEW_DTYPE_CASES)
def aten〇new_zeros〡dtype(self_rank_dtype: Tuple[int, int], size: List[int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    return self_rank_dtype[1] if dtype is None else dtype


@shape("aten.new_full", invocations=[
    Invocation(TensorOfShape(2, 3), [4, 5], 1.5),
    Invocation(TensorOfShape(), [], 2.0),
    ErrorInvocation(TensorOfShape(2), [-1], 2.0),
])
def aten〇new_full〡shape(self: List[int], size: List[int], fill_value: float, dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    return _new_contiguous_size("new_full", size, dtype)


@dtype("aten.new_full", invocations=[
    Invocation(TensorOfShape(2, 3, dtype=a), [4], v, dtype=b)
    for a in DTYPE_SWEEP for v in _FILL_VALUES for b in (None, torch.int32, torch.complex64)
])
def aten〇new_full〡dtype(self_rank_dtype: Tuple[int, int], size: List[int], fill_value: Union[int, float, complex], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    # The value is converted by fill_, which accepts a complex value for a real tensor.
    return self_rank_dtype[1] if dtype is None else dtype


@shape("aten.new_empty_strided", invocations=[
    Invocation(TensorOfShape(2), [2, 3], [3, 1]),
    Invocation(TensorOfShape(2), [], []),
    ErrorInvocation(TensorOfShape(2), [2, -3], [3, 1]),
    ErrorInvocation(TensorOfShape(2), [2, 3], [3]),
])
def aten〇new_empty_strided〡shape(self: List[int], size: List[int], stride: List[int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    if len(size) != len(stride):
        raise AssertionError("new_empty_strided: dimensionality of sizes must match "
                             "dimensionality of strides")
    return _new_size("new_empty_strided", size)


@dtype("aten.new_empty_strided", invocations=[
    Invocation(TensorOfShape(2, dtype=a), [2, 3], [3, 1], dtype=b)
    for a in DTYPE_SWEEP for b in (None, torch.int32, torch.float64)
])
def aten〇new_empty_strided〡dtype(self_rank_dtype: Tuple[int, int], size: List[int], stride: List[int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    return self_rank_dtype[1] if dtype is None else dtype


# --- Conversions and copies ------------------------------------------------------------------

_COPY_CASES = [Invocation(TensorOfShape(2, 3)), Invocation(TensorOfShape()),
               Invocation(TensorOfShape(0, 3))]


@shape("aten.clone", invocations=[
    *_COPY_CASES,
    Invocation(TensorOfShape(2, 3), memory_format=torch.contiguous_format),
])
def aten〇clone〡shape(self: List[int], memory_format: Optional[int] = None) -> List[int]:
    return upstream._copy(self)


@shape("aten.lift_fresh_copy", "aten.zero", invocations=_COPY_CASES)
def aten〇lift_fresh_copy〡shape(self: List[int]) -> List[int]:
    return upstream._copy(self)


@shape("aten.contiguous", invocations=[
    *_COPY_CASES,
    Invocation(TensorOfShape(2, 3), memory_format=torch.contiguous_format),
])
def aten〇contiguous〡shape(self: List[int], memory_format: int = 0) -> List[int]:
    return upstream._copy(self)


@shape("aten._to_copy", invocations=[
    *_COPY_CASES,
    Invocation(TensorOfShape(2, 3), dtype=torch.int32, non_blocking=True),
])
def aten〇_to_copy〡shape(self: List[int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None, non_blocking: bool = False, memory_format: Optional[int] = None) -> List[int]:
    return upstream._copy(self)


@dtype("aten._to_copy", invocations=_LIKE_DTYPE_CASES)
def aten〇_to_copy〡dtype(self_rank_dtype: Tuple[int, int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None, non_blocking: bool = False, memory_format: Optional[int] = None) -> int:
    return self_rank_dtype[1] if dtype is None else dtype


@shape("aten.to.dtype_layout", invocations=[
    *_COPY_CASES,
    Invocation(TensorOfShape(2, 3), dtype=torch.int32, copy=True),
])
def aten〇to〇dtype_layout〡shape(self: List[int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None, non_blocking: bool = False, copy: bool = False, memory_format: Optional[int] = None) -> List[int]:
    return upstream._copy(self)


@dtype("aten.to.dtype_layout", invocations=_LIKE_DTYPE_CASES)
def aten〇to〇dtype_layout〡dtype(self_rank_dtype: Tuple[int, int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None, non_blocking: bool = False, copy: bool = False, memory_format: Optional[int] = None) -> int:
    return self_rank_dtype[1] if dtype is None else dtype


_TO_DTYPE_CASES = [Invocation(TensorOfShape(2, 3, dtype=a), b)
                   for a in DTYPE_SWEEP for b in DTYPE_SWEEP]


@shape("aten.to.dtype", invocations=[
    Invocation(TensorOfShape(2, 3), torch.int32),
    Invocation(TensorOfShape(), torch.float64, False, True),
    Invocation(TensorOfShape(0, 3), torch.bool),
])
def aten〇to〇dtype〡shape(self: List[int], dtype: int, non_blocking: bool = False, copy: bool = False, memory_format: Optional[int] = None) -> List[int]:
    return upstream._copy(self)


@dtype("aten.to.dtype", invocations=_TO_DTYPE_CASES)
def aten〇to〇dtype〡dtype(self_rank_dtype: Tuple[int, int], dtype: int, non_blocking: bool = False, copy: bool = False, memory_format: Optional[int] = None) -> int:
    return dtype


_META = torch.device("meta")


@shape("aten.to.device", invocations=[
    Invocation(TensorOfShape(2, 3), _META, torch.int32),
    Invocation(TensorOfShape(), _META, torch.float64),
])
def aten〇to〇device〡shape(self: List[int], device: device, dtype: int, non_blocking: bool = False, copy: bool = False, memory_format: Optional[int] = None) -> List[int]:
    return upstream._copy(self)


@dtype("aten.to.device", invocations=[
    Invocation(TensorOfShape(2, 3, dtype=a), _META, b) for a in DTYPE_SWEEP for b in DTYPE_SWEEP
])
def aten〇to〇device〡dtype(self_rank_dtype: Tuple[int, int], device: device, dtype: int, non_blocking: bool = False, copy: bool = False, memory_format: Optional[int] = None) -> int:
    return dtype


_OTHER_DTYPE_CASES = [Invocation(TensorOfShape(2, 3, dtype=a), TensorOfShape(4, dtype=b))
                      for a in DTYPE_SWEEP for b in DTYPE_SWEEP]


@shape("aten.to.other", invocations=[
    Invocation(TensorOfShape(2, 3), TensorOfShape(5, dtype=torch.int32)),
    Invocation(TensorOfShape(), TensorOfShape(2, 2)),
])
def aten〇to〇other〡shape(self: List[int], other: List[int], non_blocking: bool = False, copy: bool = False, memory_format: Optional[int] = None) -> List[int]:
    return upstream._copy(self)


@dtype("aten.to.other", invocations=_OTHER_DTYPE_CASES)
def aten〇to〇other〡dtype(self_rank_dtype: Tuple[int, int], other_rank_dtype: Tuple[int, int], non_blocking: bool = False, copy: bool = False, memory_format: Optional[int] = None) -> int:
    return other_rank_dtype[1]


@shape("aten.type_as", invocations=[
    Invocation(TensorOfShape(2, 3), TensorOfShape(5, dtype=torch.int32)),
    Invocation(TensorOfShape(), TensorOfShape(2, 2)),
])
def aten〇type_as〡shape(self: List[int], other: List[int]) -> List[int]:
    return upstream._copy(self)


@dtype("aten.type_as", invocations=_OTHER_DTYPE_CASES)
def aten〇type_as〡dtype(self_rank_dtype: Tuple[int, int], other_rank_dtype: Tuple[int, int]) -> int:
    return other_rank_dtype[1]


_COPY_FROM_CASES = [
    Invocation(TensorOfShape(2, 3), TensorOfShape(2, 3)),
    Invocation(TensorOfShape(2, 3), TensorOfShape(3)),
    Invocation(TensorOfShape(2, 3), TensorOfShape()),
    Invocation(TensorOfShape(0, 3), TensorOfShape(1, 3)),
    ErrorInvocation(TensorOfShape(3), TensorOfShape(2, 3)),
    ErrorInvocation(TensorOfShape(2, 3), TensorOfShape(2)),
]


@shape("aten.copy", "aten.copy_", invocations=_COPY_FROM_CASES)
def aten〇copy〡shape(self: List[int], src: List[int], non_blocking: bool = False) -> List[int]:
    return upstream.broadcast_inplace(self, src)


@dtype("aten.copy", "aten.copy_", invocations=[
    Invocation(TensorOfShape(2, 3, dtype=a), TensorOfShape(3, dtype=b))
    for a in DTYPE_SWEEP for b in DTYPE_SWEEP
])
def aten〇copy〡dtype(self_rank_dtype: Tuple[int, int], src_rank_dtype: Tuple[int, int], non_blocking: bool = False) -> int:
    return self_rank_dtype[1]


@shape("aten.resize_", invocations=[
    Invocation(TensorOfShape(3), [2, 5]),
    Invocation(TensorOfShape(3), []),
    Invocation(TensorOfShape(3), [0]),
    ErrorInvocation(TensorOfShape(3), [-2, 5]),
    ErrorInvocation(TensorOfShape(3), [2**62, 4]),
    ErrorInvocation(TensorOfShape(3), [0, 2**62, 8]),
    Invocation(TensorOfShape(3), [2**62, 1]),
])
def aten〇resize_〡shape(self: List[int], size: List[int], memory_format: Optional[int] = None) -> List[int]:
    if memory_format is not None and memory_format != 0:  # 0: torch.contiguous_format
        return _new_size("resize_", size)
    result = _new_size("resize_", size)
    check_contiguous_strides_fit("resize_", size)
    return result


# --- Fills -----------------------------------------------------------------------------------


@shape("aten.fill.Tensor", invocations=[
    Invocation(TensorOfShape(2, 3), TensorOfShape()),
    Invocation(TensorOfShape(), TensorOfShape()),
    ErrorInvocation(TensorOfShape(2, 3), TensorOfShape(1)),
])
def aten〇fill〇Tensor〡shape(self: List[int], value: List[int]) -> List[int]:
    if len(value) != 0:
        raise AssertionError("fill: only supports a 0-dimension value tensor")
    return upstream._copy(self)


@dtype("aten.fill.Tensor", invocations=[
    Invocation(TensorOfShape(2, 3, dtype=a), TensorOfShape(dtype=b))
    for a in DTYPE_SWEEP for b in DTYPE_SWEEP
])
def aten〇fill〇Tensor〡dtype(self_rank_dtype: Tuple[int, int], value_rank_dtype: Tuple[int, int]) -> int:
    return self_rank_dtype[1]


keep_self_dtype(
    globals(),
    "aten.clone", "aten.lift_fresh_copy", "aten.zero", "aten.contiguous", "aten.resize_",
)


# --- More factories: identity, triangle indices, windows, number tensors ---------------------


def _check_non_negative(op: str, name: str, value: int) -> None:
    if value < 0:
        raise AssertionError(f"{op}: {name} must be non-negative, got {value}")


@shape("aten.eye", invocations=[
    Invocation(3), Invocation(0), ErrorInvocation(-1),
])
def aten〇eye〡shape(n: int, dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    _check_non_negative("eye", "n", n)
    return [n, n]


@dtype("aten.eye", invocations=[Invocation(3, dtype=d) for d in _DTYPES_OR_NONE])
def aten〇eye〡dtype(n: int, dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    return _or_default_float(dtype)


@shape("aten.eye.m", invocations=[
    Invocation(2, 3), Invocation(3, 0), Invocation(0, 0),
    ErrorInvocation(-1, 2), ErrorInvocation(2, -1),
])
def aten〇eye〇m〡shape(n: int, m: int, dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    _check_non_negative("eye", "n", n)
    _check_non_negative("eye", "m", m)
    return [n, m]


@dtype("aten.eye.m", invocations=[Invocation(2, 3, dtype=d) for d in _DTYPES_OR_NONE])
def aten〇eye〇m〡dtype(n: int, m: int, dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    return _or_default_float(dtype)


def _clamped_ramp_sum(count: int, start: int, cap: int) -> int:
    """sum(min(max(start + i, 0), cap) for i in range(count)) in closed form (cap >= 0)."""
    low = min(max(-start, 0), count)  # before `low` the ramp is at most 0
    high = min(max(cap - start, low), count)  # from `high` on it is at least cap
    ramp = (high - low) * start + (low + high - 1) * (high - low) // 2
    return ramp + (count - high) * cap


def _tril_count(row: int, col: int, offset: int) -> int:
    """How many (i, j) of a row x col matrix have j - i <= offset: row i holds i + offset + 1
    of them, clamped to [0, col]."""
    return _clamped_ramp_sum(row, offset + 1, col)


def _check_triangle(op: str, row: int, col: int) -> None:
    _check_non_negative(op, "row", row)
    _check_non_negative(op, "col", col)


def _triangle_sizes(op: str, count: int, dtype_: Optional[int]) -> List[int]:
    sizes = [2, count]
    check_numel_fits(op, sizes, dtype_itemsize(4 if dtype_ is None else dtype_))
    return sizes


_TRIANGLE_CASES = [
    Invocation(row, col, offset)
    for row, col in ((3, 4), (5, 2), (4, 4), (0, 4), (3, 0), (1, 1))
    for offset in (0, -1, 1, 2, -3, 10, -10)
] + [
    Invocation(3, 4),
    ErrorInvocation(-1, 4),
    ErrorInvocation(3, -4, 0),
]
_TRIANGLE_DTYPE_CASES = [
    Invocation(3, 4, dtype=d) for d in (None, torch.int32, torch.int64)
] + [Invocation(3, 4)] + [
    ErrorInvocation(3, 4, dtype=d) for d in (torch.float32, torch.uint8, torch.bool)
]


@shape("aten.tril_indices", invocations=_TRIANGLE_CASES + [
    ErrorInvocation(1, 4611686018427387904, 4611686018427387904, dtype=torch.int32),
])
def aten〇tril_indices〡shape(row: int, col: int, offset: int = 0, dtype: Optional[int] = 4, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    _check_triangle("tril_indices", row, col)
    return _triangle_sizes("tril_indices", _tril_count(row, col, offset), dtype)


@shape("aten.triu_indices", invocations=_TRIANGLE_CASES + [
    ErrorInvocation(1, 9223372036854775807, 10),
    ErrorInvocation(1, 4611686018427387904, 0, dtype=torch.int32),
])
def aten〇triu_indices〡shape(row: int, col: int, offset: int = 0, dtype: Optional[int] = 4, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    _check_triangle("triu_indices", row, col)
    # j - i >= offset is the complement of j - i <= offset - 1.
    return _triangle_sizes("triu_indices", row * col - _tril_count(row, col, offset - 1), dtype)


def _index_dtype(op: str, dtype_: Optional[int]) -> int:
    """int64 by default; the kernels produce int32 or int64 only."""
    result = 4 if dtype_ is None else dtype_
    if result != 3 and result != 4:
        raise AssertionError(op + ": only int32 and int64 results are implemented")
    return result


@dtype("aten.tril_indices", invocations=_TRIANGLE_DTYPE_CASES)
def aten〇tril_indices〡dtype(row: int, col: int, offset: int = 0, dtype: Optional[int] = 4, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    return _index_dtype("tril_indices", dtype)


@dtype("aten.triu_indices", invocations=_TRIANGLE_DTYPE_CASES)
def aten〇triu_indices〡dtype(row: int, col: int, offset: int = 0, dtype: Optional[int] = 4, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    return _index_dtype("triu_indices", dtype)


@shape("aten.hann_window.periodic", invocations=[
    Invocation(5, True), Invocation(5, False), Invocation(0, True), Invocation(1, False),
    ErrorInvocation(-1, True),
])
def aten〇hann_window〇periodic〡shape(window_length: int, periodic: bool, dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    _check_non_negative("hann_window", "window_length", window_length)
    return [window_length]


@dtype("aten.hann_window.periodic", invocations=[
    Invocation(length, True, dtype=d) for length in (0, 1)
    for d in _DTYPES_OR_NONE if d is None or d.is_floating_point or d.is_complex
] + [
    ErrorInvocation(5, True, dtype=d) for d in (torch.int32, torch.uint8, torch.bool)
])
def aten〇hann_window〇periodic〡dtype(window_length: int, periodic: bool, dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    # Complex passes this check (and works for lengths 0 and 1); integral types never do.
    result = _or_default_float(dtype)
    if _is_integral(result):
        raise AssertionError("hann_window: expects floating point dtypes")
    return result


@shape("aten.tensor.bool", invocations=[Invocation(True), Invocation(False, dtype=torch.int32)])
def aten〇tensor〇bool〡shape(t: bool, dtype: Optional[int] = None, device: Optional[device] = None, requires_grad: bool = False) -> List[int]:
    return []


@shape("aten.tensor.float", invocations=[Invocation(1.5), Invocation(2.0, dtype=torch.int32)])
def aten〇tensor〇float〡shape(t: float, dtype: Optional[int] = None, device: Optional[device] = None, requires_grad: bool = False) -> List[int]:
    return []


@shape("aten.tensor.int", invocations=[Invocation(3), Invocation(-2, dtype=torch.float64)])
def aten〇tensor〇int〡shape(t: int, dtype: Optional[int] = None, device: Optional[device] = None, requires_grad: bool = False) -> List[int]:
    return []


@dtype("aten.tensor.bool", invocations=[Invocation(True, dtype=d) for d in _DTYPES_OR_NONE])
def aten〇tensor〇bool〡dtype(t: bool, dtype: Optional[int] = None, device: Optional[device] = None, requires_grad: bool = False) -> int:
    return 11 if dtype is None else dtype  # bool


@dtype("aten.tensor.float", invocations=[Invocation(1.5, dtype=d) for d in _DTYPES_OR_NONE])
def aten〇tensor〇float〡dtype(t: float, dtype: Optional[int] = None, device: Optional[device] = None, requires_grad: bool = False) -> int:
    return _or_default_float(dtype)


@dtype("aten.tensor.int", invocations=[Invocation(3, dtype=d) for d in _DTYPES_OR_NONE])
def aten〇tensor〇int〡dtype(t: int, dtype: Optional[int] = None, device: Optional[device] = None, requires_grad: bool = False) -> int:
    return 4 if dtype is None else dtype  # int64


# --- More random factories -------------------------------------------------------------------


def _randint_bounds(dtype_: int) -> Tuple[int, int]:
    """The values `dtype_` holds exactly for random_; (1, 0) when it holds every int64."""
    if dtype_ == 11:  # bool
        return 0, 1
    if dtype_ == 0:  # uint8
        return 0, 255
    if dtype_ == 1:  # int8
        return -128, 127
    if dtype_ == 2:  # int16
        return -32768, 32767
    if dtype_ == 3:  # int32
        return -2147483648, 2147483647
    if dtype_ == 5:  # float16: its largest finite value
        return -65504, 65504
    return 1, 0


def _check_randint(low: int, high: int, dtype_: int) -> None:
    """random_'s checks: a non-empty range whose ends the dtype holds."""
    if low >= high:
        raise AssertionError("randint: expects 'low' to be less than 'high'")
    if _is_complex(dtype_):
        raise AssertionError("randint: handles only integral, floating-point and boolean types")
    smallest, largest = _randint_bounds(dtype_)
    if smallest > largest:
        return
    if low < smallest or low > largest or high - 1 < smallest or high - 1 > largest:
        raise AssertionError("randint: the range is out of bounds for the result dtype")


_RANDINT_DTYPE_CASES = [Invocation(5, [2, 3], dtype=d) for d in _DTYPES_OR_NONE
                        if d is None or not d.is_complex] + [
    Invocation(5, [2, 3]),
    Invocation(2, [2], dtype=torch.bool),
    Invocation(65505, [2], dtype=torch.float16),
    Invocation(256, [2], dtype=torch.uint8),
    ErrorInvocation(65506, [2], dtype=torch.float16),
    ErrorInvocation(257, [2], dtype=torch.uint8),
    ErrorInvocation(3, [2], dtype=torch.bool),
    ErrorInvocation(3, [0], dtype=torch.bool),
    ErrorInvocation(5, [2], dtype=torch.complex64),
]


@shape("aten.randint", invocations=[
    Invocation(5, [2, 3]), Invocation(5, []), Invocation(5, [0, 2]),
    ErrorInvocation(5, [2, -1]), ErrorInvocation(0, [2]), ErrorInvocation(-3, [0]),
])
def aten〇randint〡shape(high: int, size: List[int], dtype: Optional[int] = 4, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    if high <= 0:
        raise AssertionError("randint: expects 'high' to be positive")
    return _new_size("randint", size)


@dtype("aten.randint", invocations=_RANDINT_DTYPE_CASES)
def aten〇randint〡dtype(high: int, size: List[int], dtype: Optional[int] = 4, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    result = _or_default_float(dtype)  # an explicit None is float32, unlike the default int64
    _check_randint(0, high, result)
    return result


@shape("aten.randint.low", invocations=[
    Invocation(-2, 5, [2, 3]), Invocation(3, 4, []), Invocation(0, 5, [0]),
    ErrorInvocation(0, 5, [-1]), ErrorInvocation(3, 3, [2]), ErrorInvocation(4, 3, [0]),
])
def aten〇randint〇low〡shape(low: int, high: int, size: List[int], dtype: Optional[int] = 4, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    if low >= high:
        raise AssertionError("randint: expects 'low' to be less than 'high'")
    return _new_size("randint", size)


@dtype("aten.randint.low", invocations=[
    Invocation(-2, 5, [2, 3], dtype=d) for d in _DTYPES_OR_NONE
    if d is None or d not in (torch.complex64, torch.uint8, torch.bool)
] + [
    Invocation(-128, 128, [2], dtype=torch.int8),
    Invocation(0, 2, [2], dtype=torch.bool),
    Invocation(-2, 5, [2]),
    ErrorInvocation(-129, 5, [2], dtype=torch.int8),
    ErrorInvocation(-1, 5, [2], dtype=torch.uint8),
    ErrorInvocation(-1, 1, [2], dtype=torch.bool),
    ErrorInvocation(-70000, 0, [2], dtype=torch.float16),
    ErrorInvocation(0, 5, [2], dtype=torch.complex64),
])
def aten〇randint〇low〡dtype(low: int, high: int, size: List[int], dtype: Optional[int] = 4, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    result = _or_default_float(dtype)  # an explicit None is float32, unlike the default int64
    _check_randint(low, high, result)
    return result


@shape("aten.randn.generator", invocations=[
    Invocation([2, 3], generator=None), Invocation([], generator=None),
    ErrorInvocation([2, -1], generator=None),
])
def aten〇randn〇generator〡shape(size: List[int], generator: Optional[Any], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> List[int]:
    return _new_size("randn", size)


@dtype("aten.randn.generator", invocations=[
    Invocation([2, 3], generator=None, dtype=d) for d in _DTYPES_OR_NONE
] + [ErrorInvocation([2, 3], generator=None, dtype=torch.int64)])
def aten〇randn〇generator〡dtype(size: List[int], generator: Optional[Any], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> int:
    result = _or_default_float(dtype)
    _check_random_dtype("randn", result)
    return result


@shape("aten.randn_like", "aten.rand_like", invocations=_LIKE_CASES)
def aten〇randn_like〡shape(self: List[int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None, memory_format: Optional[int] = None) -> List[int]:
    return upstream._copy(self)


@dtype("aten.randn_like", invocations=[
    Invocation(TensorOfShape(2, 3, dtype=a), dtype=b)
    for a in DTYPE_SWEEP for b in (None, torch.float64, torch.complex64)
    if b is not None or a.is_floating_point or a.is_complex
] + [
    ErrorInvocation(TensorOfShape(2, dtype=torch.int64)),
    ErrorInvocation(TensorOfShape(2, dtype=torch.bool)),
    ErrorInvocation(TensorOfShape(2), dtype=torch.int32),
])
def aten〇randn_like〡dtype(self_rank_dtype: Tuple[int, int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None, memory_format: Optional[int] = None) -> int:
    result = self_rank_dtype[1] if dtype is None else dtype
    if _is_integral(result):
        raise AssertionError("randn_like: expected a floating-point or complex dtype")
    return result


@dtype("aten.rand_like", invocations=_LIKE_DTYPE_CASES)
def aten〇rand_like〡dtype(self_rank_dtype: Tuple[int, int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None, memory_format: Optional[int] = None) -> int:
    # The meta kernel accepts integral dtypes, which the CPU kernel refuses.
    return self_rank_dtype[1] if dtype is None else dtype


# --- More conversions ------------------------------------------------------------------------


@shape("aten.cpu", invocations=[KernelInvocation(TensorOfShape(2, 3)),
                                KernelInvocation(TensorOfShape())])
def aten〇cpu〡shape(self: List[int]) -> List[int]:
    return upstream._copy(self)


@dtype("aten.cpu", invocations=[KernelInvocation(TensorOfShape(2, dtype=d)) for d in DTYPE_SWEEP])
def aten〇cpu〡dtype(self_rank_dtype: Tuple[int, int]) -> int:
    return self_rank_dtype[1]


@shape("aten.to.prim_Device", invocations=[
    Invocation(TensorOfShape(2, 3), None),
    Invocation(TensorOfShape(), _META, torch.int32, copy=True),
])
def aten〇to〇prim_Device〡shape(self: List[int], device: Optional[device], dtype: Optional[int] = None, non_blocking: bool = False, copy: bool = False) -> List[int]:
    return upstream._copy(self)


@dtype("aten.to.prim_Device", invocations=[
    Invocation(TensorOfShape(2, dtype=a), None, b)
    for a in DTYPE_SWEEP for b in (None, torch.int32, torch.float64, torch.bool)
])
def aten〇to〇prim_Device〡dtype(self_rank_dtype: Tuple[int, int], device: Optional[device], dtype: Optional[int] = None, non_blocking: bool = False, copy: bool = False) -> int:
    return self_rank_dtype[1] if dtype is None else dtype


@shape("aten._cast_Float", "aten._cast_Long", invocations=[
    *_COPY_CASES, Invocation(TensorOfShape(2, 3), True),
])
def aten〇_cast_Float〡shape(self: List[int], non_blocking: bool = False) -> List[int]:
    return upstream._copy(self)


@dtype("aten._cast_Float", invocations=[Invocation(TensorOfShape(2, dtype=d)) for d in DTYPE_SWEEP])
def aten〇_cast_Float〡dtype(self_rank_dtype: Tuple[int, int], non_blocking: bool = False) -> int:
    return 6  # float32


@dtype("aten._cast_Long", invocations=[Invocation(TensorOfShape(2, dtype=d)) for d in DTYPE_SWEEP])
def aten〇_cast_Long〡dtype(self_rank_dtype: Tuple[int, int], non_blocking: bool = False) -> int:
    return 4  # int64


@shape("aten._shape_as_tensor", invocations=[
    Invocation(TensorOfShape(2, 3)), Invocation(TensorOfShape()), Invocation(TensorOfShape(0, 1, 2)),
])
def aten〇_shape_as_tensor〡shape(self: List[int]) -> List[int]:
    return [len(self)]


@dtype("aten._shape_as_tensor", invocations=[Invocation(TensorOfShape(2, dtype=d)) for d in DTYPE_SWEEP])
def aten〇_shape_as_tensor〡dtype(self_rank_dtype: Tuple[int, int]) -> int:
    return 4  # int64
