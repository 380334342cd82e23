"""Quantization ops: the `quantized_decomposed` ops of PyTorch's PT2E flow (plain integer
tensors, with the quantization parameters as arguments) and ATen's quantize, dequantize
and fake-quantize ops. Every result keeps the input's sizes.

Dtype codes (c10::ScalarType): uint8 0, int8 1, int16 2, int32 3, float16 5, float32 6,
float64 7, bool 11, qint8 12, quint8 13, qint32 14, bfloat16 15, quint4x2 16, quint2x4 17,
uint16 27. The `quantized_decomposed` ops are verified on meta tensors (their kernels are
Python); ATen's quantization ops have no meta kernels, so they are verified on CPU.
"""

from typing import List, Optional, Tuple

import torch
import torch.jit._shape_functions as upstream

from .promotion import is_float_dtype
from .registry import dtype, shape
from .testing import (
    ErrorInvocation,
    Invocation,
    KernelErrorInvocation,
    KernelInvocation,
    TensorOfShape,
)

# --- Family-private helpers (TorchScript) ----------------------------------------------------


def _check_quantizable(input_dtype: int) -> None:
    """quantized_decomposed's quantize ops take float32 (float16 and bfloat16 are cast)."""
    if input_dtype not in [5, 6, 15]:
        raise AssertionError("quantize: expecting input to have dtype torch.float32")


def _check_quant_range(quant_min: int, quant_max: int, dtype: int) -> None:
    """quant_min and quant_max within the integer dtype's range (other dtypes unchecked)."""
    bounds: List[int] = []
    if dtype == 0:
        bounds = [0, 255]
    elif dtype == 1:
        bounds = [-128, 127]
    elif dtype == 2:
        bounds = [-32768, 32767]
    elif dtype == 3:
        bounds = [-2147483648, 2147483647]
    elif dtype == 27:
        bounds = [0, 65535]
    if len(bounds) == 0:
        return
    if quant_min < bounds[0]:
        raise AssertionError("quant_min out of bounds for dtype")
    if quant_max > bounds[1]:
        raise AssertionError("quant_max out of bounds for dtype")


def _check_axis_below_rank(axis: int, rank: int) -> None:
    if axis >= rank:
        raise AssertionError("quantize_per_channel: expecting axis to be < the input's rank")


def _check_channel_group(input: List[int], scales: List[int], group_size: int) -> None:
    if group_size <= 1:
        raise AssertionError("group_size must be > 1")
    if len(input) != 2:
        raise AssertionError("input must be 2-dimensional")
    # A single-column scale quantizes a whole row as one group (GPTQ).
    if group_size > input[-1] and scales[-1] == 1:
        return
    if input[-1] % group_size != 0:
        raise AssertionError("input.shape[-1] must be divisible by group_size")


def _check_fake_quant_range(quant_min: int, quant_max: int) -> None:
    if quant_min > quant_max:
        raise AssertionError("fake_quantize: quant_min should be less than or equal to quant_max")


def _check_fake_quant_zero_point(zero_point: int, quant_min: int, quant_max: int) -> None:
    if zero_point < quant_min or zero_point > quant_max:
        raise AssertionError("fake_quantize: zero_point must be between quant_min and quant_max")


def _check_single_elements(qparams: List[List[int]]) -> None:
    """The tensor quantization parameters are read as Scalars: one element each."""
    for sizes in qparams:
        if upstream.numel(sizes) != 1:
            raise AssertionError("fake_quantize: a quantization parameter tensor must have one element")


def _check_per_channel_qparam_dtypes(scale_dtype: int, zero_point_dtype: int) -> None:
    # float32 or bfloat16 scales; int32, float32 or float16 zero points
    if scale_dtype not in [6, 15]:
        raise AssertionError("fake_quantize per channel: scale must be float32 or bfloat16")
    if zero_point_dtype not in [3, 5, 6]:
        raise AssertionError("fake_quantize per channel: zero_point must be int32, float32 or float16")


def _check_fake_quant_input(self_dtype: int) -> None:
    # float16, float32, float64, bfloat16
    if self_dtype not in [5, 6, 7, 15]:
        raise AssertionError("fake_quantize: the input must be a floating-point tensor")


def _check_per_channel_params(self: List[int], scale: List[int], zero_point: List[int], axis: int) -> None:
    if axis < 0 or axis >= len(self):  # a negative axis is refused too
        raise AssertionError("per-channel quantization: axis out of range")
    if len(zero_point) != 1:
        raise AssertionError("per-channel quantization: zero point should be a 1-D tensor")
    if len(scale) != 1 or scale[0] != self[axis] or zero_point[0] != scale[0]:
        raise AssertionError("dimensions of scale and zero-point are not consistent with input")


def _is_floating(dtype: int) -> bool:
    # float16, float32, float64, bfloat16 and the float8 types (e5m2, e4m3fn, e5m2fnuz,
    # e4m3fnuz, e8m0fnu)
    return dtype in [5, 6, 7, 15, 23, 24, 25, 26, 44]


def _check_quantized_dtype(dtype: int) -> None:
    # qint8, quint8, qint32, quint4x2, quint2x4
    if dtype not in [12, 13, 14, 16, 17]:
        raise AssertionError("quantize: the dtype must be a quantized dtype")


def _quantized_of(int_dtype: int) -> int:
    """The quantized dtype whose integer representation is `int_dtype`."""
    if int_dtype == 0:
        return 13
    if int_dtype == 1:
        return 12
    if int_dtype == 3:
        return 14
    raise AssertionError("Creation of quantized tensor requires quantized dtype like torch.quint8")


# --- quantized_decomposed -------------------------------------------------------------------

_F32 = TensorOfShape(2, 3)
_U8 = TensorOfShape(2, 3, dtype=torch.uint8)
_SCALES = TensorOfShape(3)
_ZEROS = TensorOfShape(3, dtype=torch.int64)


@shape("quantized_decomposed.quantize_per_tensor", invocations=[
    Invocation(_F32, 0.1, 0, 0, 255, torch.uint8),
    Invocation(TensorOfShape(), 0.1, 0, -128, 127, torch.int8),
])
def quantized_decomposed〇quantize_per_tensor〡shape(input: List[int], scale: float, zero_point: int, quant_min: int, quant_max: int, dtype: int) -> List[int]:
    return input


@dtype("quantized_decomposed.quantize_per_tensor", invocations=[
    Invocation(_F32, 0.1, 0, 0, 255, torch.uint8),
    Invocation(TensorOfShape(2, dtype=torch.bfloat16), 0.1, 0, -128, 127, torch.int8),
    ErrorInvocation(TensorOfShape(2, dtype=torch.float64), 0.1, 0, -128, 127, torch.int8),
    ErrorInvocation(TensorOfShape(2, dtype=torch.int32), 0.1, 0, -128, 127, torch.int8),
])
def quantized_decomposed〇quantize_per_tensor〡dtype(input_rank_dtype: Tuple[int, int], scale: float, zero_point: int, quant_min: int, quant_max: int, dtype: int) -> int:
    _check_quantizable(input_rank_dtype[1])
    return dtype


@shape("quantized_decomposed.dequantize_per_tensor", invocations=[
    Invocation(_U8, 0.1, 0, 0, 255, torch.uint8),
    Invocation(TensorOfShape(), 0.1, 0, 0, 255, torch.uint8, out_dtype=torch.float16),
])
def quantized_decomposed〇dequantize_per_tensor〡shape(input: List[int], scale: float, zero_point: int, quant_min: int, quant_max: int, dtype: int, out_dtype: Optional[int] = None) -> List[int]:
    return input


@dtype("quantized_decomposed.dequantize_per_tensor", invocations=[
    Invocation(_U8, 0.1, 0, 0, 255, torch.uint8),
    Invocation(_U8, 0.1, 0, 0, 255, torch.uint8, out_dtype=torch.float16),
])
def quantized_decomposed〇dequantize_per_tensor〡dtype(input_rank_dtype: Tuple[int, int], scale: float, zero_point: int, quant_min: int, quant_max: int, dtype: int, out_dtype: Optional[int] = None) -> int:
    if out_dtype is None:
        return 6
    return out_dtype


@shape("quantized_decomposed.quantize_per_channel", invocations=[
    Invocation(_F32, _SCALES, _ZEROS, 1, 0, 255, torch.uint8),
    ErrorInvocation(_F32, _SCALES, _ZEROS, 2, 0, 255, torch.uint8),
])
def quantized_decomposed〇quantize_per_channel〡shape(input: List[int], scales: List[int], zero_points: List[int], axis: int, quant_min: int, quant_max: int, dtype: int) -> List[int]:
    _check_axis_below_rank(axis, len(input))
    return input


@dtype("quantized_decomposed.quantize_per_channel", invocations=[
    Invocation(_F32, _SCALES, _ZEROS, 1, 0, 255, torch.uint8),
    Invocation(_F32, _SCALES, _ZEROS, 1, -128, 127, torch.int8),
    ErrorInvocation(_F32, _SCALES, _ZEROS, 1, -129, 127, torch.int8),
    ErrorInvocation(_F32, _SCALES, _ZEROS, 1, 0, 256, torch.uint8),
    ErrorInvocation(TensorOfShape(2, 3, dtype=torch.float64), _SCALES, _ZEROS, 1, 0, 255,
                    torch.uint8),
    ErrorInvocation(_F32, _SCALES, _ZEROS, 2, 0, 255, torch.uint8),
])
def quantized_decomposed〇quantize_per_channel〡dtype(input_rank_dtype: Tuple[int, int], scales_rank_dtype: Tuple[int, int], zero_points_rank_dtype: Tuple[int, int], axis: int, quant_min: int, quant_max: int, dtype: int) -> int:
    _check_quantizable(input_rank_dtype[1])
    _check_axis_below_rank(axis, input_rank_dtype[0])
    _check_quant_range(quant_min, quant_max, dtype)
    return dtype


@shape("quantized_decomposed.dequantize_per_channel", invocations=[
    Invocation(_U8, _SCALES, _ZEROS, 1, 0, 255, torch.uint8),
    Invocation(_U8, _SCALES, None, 0, 0, 255, torch.uint8),
    ErrorInvocation(_U8, _SCALES, _ZEROS, 2, 0, 255, torch.uint8),
])
def quantized_decomposed〇dequantize_per_channel〡shape(input: List[int], scales: List[int], zero_points: Optional[List[int]], axis: int, quant_min: int, quant_max: int, dtype: int, out_dtype: Optional[int] = None) -> List[int]:
    _check_axis_below_rank(axis, len(input))
    return input


@dtype("quantized_decomposed.dequantize_per_channel", invocations=[
    Invocation(_U8, _SCALES, _ZEROS, 1, 0, 255, torch.uint8),
    Invocation(_U8, _SCALES, None, 1, 0, 255, torch.uint8, out_dtype=torch.bfloat16),
    ErrorInvocation(_U8, _SCALES, _ZEROS, 1, -128, 127, torch.int8),
    ErrorInvocation(TensorOfShape(2, 3, dtype=torch.int8), _SCALES, _ZEROS, 1, -129, 127,
                    torch.int8),
    ErrorInvocation(_U8, _SCALES, _ZEROS, 2, 0, 255, torch.uint8),
])
def quantized_decomposed〇dequantize_per_channel〡dtype(input_rank_dtype: Tuple[int, int], scales_rank_dtype: Tuple[int, int], zero_points_rank_dtype: Optional[Tuple[int, int]], axis: int, quant_min: int, quant_max: int, dtype: int, out_dtype: Optional[int] = None) -> int:
    if input_rank_dtype[1] != dtype:
        raise AssertionError("dequantize_per_channel: the input's dtype must be `dtype`")
    _check_axis_below_rank(axis, input_rank_dtype[0])
    _check_quant_range(quant_min, quant_max, dtype)
    if out_dtype is None:
        return 6
    return out_dtype


_GROUP_SCALES = TensorOfShape(2, 2)
_GROUP_ZEROS = TensorOfShape(2, 2, dtype=torch.int64)


@shape("quantized_decomposed.quantize_per_channel_group", invocations=[
    Invocation(TensorOfShape(2, 4), _GROUP_SCALES, _GROUP_ZEROS, -8, 7, torch.int8, 2),
    Invocation(TensorOfShape(2, 4), TensorOfShape(2, 1), _GROUP_ZEROS, -8, 7, torch.int8, 8),
    ErrorInvocation(TensorOfShape(2, 4), _GROUP_SCALES, _GROUP_ZEROS, -8, 7, torch.int8, 1),
    ErrorInvocation(TensorOfShape(2, 5), _GROUP_SCALES, _GROUP_ZEROS, -8, 7, torch.int8, 2),
    ErrorInvocation(TensorOfShape(2, 2, 4), _GROUP_SCALES, _GROUP_ZEROS, -8, 7, torch.int8, 2),
])
def quantized_decomposed〇quantize_per_channel_group〡shape(input: List[int], scales: List[int], zero_points: List[int], quant_min: int, quant_max: int, dtype: int, group_size: int) -> List[int]:
    _check_channel_group(input, scales, group_size)
    return input


@dtype("quantized_decomposed.quantize_per_channel_group", invocations=[
    Invocation(TensorOfShape(2, 4), _GROUP_SCALES, _GROUP_ZEROS, -8, 7, torch.int8, 2),
    Invocation(TensorOfShape(2, 4, dtype=torch.float16), _GROUP_SCALES, _GROUP_ZEROS, 0, 15,
               torch.uint8, 2),
])
def quantized_decomposed〇quantize_per_channel_group〡dtype(input_rank_dtype: Tuple[int, int], scales_rank_dtype: Tuple[int, int], zero_points_rank_dtype: Tuple[int, int], quant_min: int, quant_max: int, dtype: int, group_size: int) -> int:
    return dtype


@shape("quantized_decomposed.dequantize_per_channel_group", invocations=[
    KernelInvocation(TensorOfShape(2, 4, dtype=torch.int8), _GROUP_SCALES, _GROUP_ZEROS, -8, 7,
                     torch.int8, 2, torch.float32),
    ErrorInvocation(TensorOfShape(2, 3, dtype=torch.int8), _GROUP_SCALES, _GROUP_ZEROS, -8, 7,
                    torch.int8, 2, torch.float32),
    ErrorInvocation(TensorOfShape(2, 4, 4, dtype=torch.int8), _GROUP_SCALES, _GROUP_ZEROS, -8, 7,
                    torch.int8, 2, torch.float32),
    KernelInvocation(TensorOfShape(2, 4, dtype=torch.int8), TensorOfShape(1), None, -8, 7,
                     torch.int8, 2, torch.float32),
    KernelInvocation(TensorOfShape(1, 4, dtype=torch.int8), TensorOfShape(2, 1),
                     TensorOfShape(1, dtype=torch.int64), -8, 7, torch.int8, 2, torch.float32),
    ErrorInvocation(TensorOfShape(2, 4, dtype=torch.int8), TensorOfShape(1, 2), _GROUP_ZEROS, -8,
                    7, torch.int8, 2, torch.float32),
    ErrorInvocation(TensorOfShape(2, 4, dtype=torch.int8), TensorOfShape(0, 2), _GROUP_ZEROS, -8,
                    7, torch.int8, 2, torch.float32),
    ErrorInvocation(TensorOfShape(2, 4, dtype=torch.int8), _GROUP_SCALES,
                    TensorOfShape(3, dtype=torch.int64), -8, 7, torch.int8, 2, torch.float32),
    ErrorInvocation(TensorOfShape(1, 4, dtype=torch.int8), TensorOfShape(3, 1), None, -8, 7,
                    torch.int8, 2, torch.float32),
    ErrorInvocation(TensorOfShape(2, 0, dtype=torch.int8), TensorOfShape(2, 1), None, -8, 7,
                    torch.int8, 2, torch.float32),
])
def quantized_decomposed〇dequantize_per_channel_group〡shape(input: List[int], scales: List[int], zero_points: Optional[List[int]], quant_min: int, quant_max: int, dtype: int, group_size: int, output_dtype: int) -> List[int]:
    _check_channel_group(input, scales, group_size)
    if group_size > input[-1] and scales[-1] == 1:
        group_size = input[-1]
    if group_size == 0:  # PyTorch divides the row length by it
        raise AssertionError("dequantize_per_channel_group: rows of no elements have no groups")
    # One row per group, minus the zero points and times the scales (each a column,
    # broadcast), reshaped back to the input.
    groups = [upstream.numel(input) // group_size, group_size]
    if zero_points is not None:
        groups = upstream.broadcast(groups, [upstream.numel(zero_points), 1])
    groups = upstream.broadcast(groups, [upstream.numel(scales), 1])
    if upstream.numel(groups) != upstream.numel(input):
        raise AssertionError("dequantize_per_channel_group: one scale per group expected")
    return input


@dtype("quantized_decomposed.dequantize_per_channel_group", invocations=[
    KernelInvocation(TensorOfShape(2, 4, dtype=torch.int8), _GROUP_SCALES, _GROUP_ZEROS, -8, 7,
                     torch.int8, 2, torch.float16),
    KernelInvocation(TensorOfShape(2, 4, dtype=torch.int8), _GROUP_SCALES, None, -8, 7,
                     torch.int8, 2, torch.float32),
])
def quantized_decomposed〇dequantize_per_channel_group〡dtype(input_rank_dtype: Tuple[int, int], scales_rank_dtype: Tuple[int, int], zero_points_rank_dtype: Optional[Tuple[int, int]], quant_min: int, quant_max: int, dtype: int, group_size: int, output_dtype: int) -> int:
    return output_dtype


# --- ATen: quantize into quantized dtypes ---------------------------------------------------


@shape("aten.quantize_per_tensor", invocations=[
    KernelInvocation(_F32, 0.1, 0, torch.quint8),
    KernelInvocation(TensorOfShape(), 0.1, 0, torch.qint32),
])
def aten〇quantize_per_tensor〡shape(self: List[int], scale: float, zero_point: int, dtype: int) -> List[int]:
    return self


@dtype("aten.quantize_per_tensor", invocations=[
    KernelInvocation(_F32, 0.1, 0, torch.quint8),
    KernelInvocation(_F32, 0.1, 0, torch.qint8),
    KernelErrorInvocation(TensorOfShape(2, dtype=torch.float64), 0.1, 0, torch.qint8),
    KernelErrorInvocation(TensorOfShape(2, dtype=torch.float16), 0.1, 0, torch.qint8),
    KernelErrorInvocation(_F32, 0.1, 0, torch.uint8),
])
def aten〇quantize_per_tensor〡dtype(self_rank_dtype: Tuple[int, int], scale: float, zero_point: int, dtype: int) -> int:
    if self_rank_dtype[1] != 6:
        raise AssertionError("Quantize only works on Float Tensor")
    _check_quantized_dtype(dtype)
    return dtype


_F64_SCALES = TensorOfShape(3, dtype=torch.float64)


@shape("aten.quantize_per_channel", invocations=[
    KernelInvocation(_F32, _F64_SCALES, _ZEROS, 1, torch.qint8),
    KernelInvocation(_F32, TensorOfShape(2, dtype=torch.float64), TensorOfShape(
        2, dtype=torch.int64), 0, torch.quint8),
    KernelErrorInvocation(_F32, _F64_SCALES, _ZEROS, 2, torch.qint8),
    KernelInvocation(TensorOfShape(2, 0), TensorOfShape(0, dtype=torch.float64),
                     TensorOfShape(0, dtype=torch.int64), 1, torch.qint8),
    KernelErrorInvocation(TensorOfShape(2, 1, 2, 2), _F64_SCALES, _ZEROS, 1, torch.qint8),
    KernelErrorInvocation(_F32, _F64_SCALES, TensorOfShape(2, dtype=torch.int64), 1, torch.qint8),
    KernelErrorInvocation(_F32, TensorOfShape(1, 3, dtype=torch.float64), _ZEROS, 1, torch.qint8),
    KernelErrorInvocation(_F32, _F64_SCALES, TensorOfShape(1, 3, dtype=torch.int64), 1,
                          torch.qint8),
])
def aten〇quantize_per_channel〡shape(self: List[int], scales: List[int], zero_points: List[int], axis: int, dtype: int) -> List[int]:
    if axis < 0 or axis >= len(self):
        raise AssertionError("Channel axis out of range in per channel affine quantization")
    if len(scales) != 1 or len(zero_points) != 1:
        raise AssertionError("quantize_per_channel: scales and zero_points must have dimension 1")
    if scales[0] != zero_points[0]:
        raise AssertionError("number of elements in scales and zero_points must match")
    if scales[0] != self[axis]:
        raise AssertionError("length of scales must equal to channel")
    return self


@dtype("aten.quantize_per_channel", invocations=[
    KernelInvocation(_F32, _F64_SCALES, _ZEROS, 1, torch.qint8),
    KernelInvocation(_F32, _F64_SCALES, _ZEROS, 1, torch.qint32),
    KernelErrorInvocation(TensorOfShape(2, 3, dtype=torch.float64), _F64_SCALES, _ZEROS, 1,
                          torch.qint8),
    KernelInvocation(_F32, TensorOfShape(3, dtype=torch.bfloat16), _ZEROS, 1, torch.qint8),
    KernelErrorInvocation(_F32, TensorOfShape(3, dtype=torch.complex64), _ZEROS, 1, torch.qint8),
    KernelErrorInvocation(_F32, TensorOfShape(3, dtype=torch.int64), _ZEROS, 1, torch.qint8),
])
def aten〇quantize_per_channel〡dtype(self_rank_dtype: Tuple[int, int], scales_rank_dtype: Tuple[int, int], zero_points_rank_dtype: Tuple[int, int], axis: int, dtype: int) -> int:
    if self_rank_dtype[1] != 6:
        raise AssertionError("Quantize only works on Float Tensor")
    if not is_float_dtype(scales_rank_dtype[1]):
        raise AssertionError("quantize_per_channel: scale tensor must be floating point")
    _check_quantized_dtype(dtype)
    return dtype


@shape("aten._make_per_tensor_quantized_tensor", invocations=[
    KernelInvocation(_U8, 0.1, 0),
])
def aten〇_make_per_tensor_quantized_tensor〡shape(self: List[int], scale: float, zero_point: int) -> List[int]:
    return self


@dtype("aten._make_per_tensor_quantized_tensor", invocations=[
    KernelInvocation(_U8, 0.1, 0),
    KernelInvocation(TensorOfShape(2, dtype=torch.int8), 0.1, 0),
    KernelInvocation(TensorOfShape(2, dtype=torch.int32), 0.1, 0),
    KernelErrorInvocation(_F32, 0.1, 0),
])
def aten〇_make_per_tensor_quantized_tensor〡dtype(self_rank_dtype: Tuple[int, int], scale: float, zero_point: int) -> int:
    return _quantized_of(self_rank_dtype[1])


@shape("aten._make_per_channel_quantized_tensor", invocations=[
    KernelInvocation(TensorOfShape(2, 3, dtype=torch.int8), _F64_SCALES, _ZEROS, 1),
    KernelInvocation(TensorOfShape(2, 3, dtype=torch.int8), TensorOfShape(2), TensorOfShape(2, dtype=torch.int64), 1),
    KernelErrorInvocation(TensorOfShape(2, 3, dtype=torch.int8), _F64_SCALES, TensorOfShape(1, dtype=torch.int64), 1),
    KernelErrorInvocation(TensorOfShape(2, 3, dtype=torch.int8), TensorOfShape(1, 3), TensorOfShape(1, 3, dtype=torch.int64), 1),
    KernelErrorInvocation(TensorOfShape(2, 3, dtype=torch.int8), _F64_SCALES, TensorOfShape(1, 3, dtype=torch.int64), 1),
])
def aten〇_make_per_channel_quantized_tensor〡shape(self: List[int], scale: List[int], zero_point: List[int], axis: int) -> List[int]:
    # No check against self[axis]: PyTorch makes none either.
    if upstream.numel(scale) != upstream.numel(zero_point):
        raise AssertionError("_make_per_channel_quantized_tensor: number of elements in scales and zero_points must match")
    if len(scale) != 1 or len(zero_point) != 1:
        raise AssertionError("_make_per_channel_quantized_tensor: scale and zero_points must have dimension 1")
    return self


@dtype("aten._make_per_channel_quantized_tensor", invocations=[
    KernelInvocation(TensorOfShape(2, 3, dtype=torch.int8), _F64_SCALES, _ZEROS, 1),
    KernelInvocation(_U8, _F64_SCALES, _ZEROS, 1),
    KernelInvocation(_U8, TensorOfShape(3), TensorOfShape(3, dtype=torch.float32), 1),
    KernelInvocation(_U8, TensorOfShape(3, dtype=torch.float8_e4m3fn), _ZEROS, 1),
    KernelErrorInvocation(_F32, _F64_SCALES, _ZEROS, 1),
    KernelErrorInvocation(_U8, _ZEROS, _ZEROS, 1),
])
def aten〇_make_per_channel_quantized_tensor〡dtype(self_rank_dtype: Tuple[int, int], scale_rank_dtype: Tuple[int, int], zero_point_rank_dtype: Tuple[int, int], axis: int) -> int:
    if not _is_floating(scale_rank_dtype[1]):
        raise AssertionError("_make_per_channel_quantized_tensor: scale tensor must be floating point")
    return _quantized_of(self_rank_dtype[1])


# --- ATen: fake quantization (float in, float out) ------------------------------------------


@shape("aten.fake_quantize_per_tensor_affine", invocations=[
    KernelInvocation(_F32, 0.1, 0, 0, 255),
    KernelInvocation(_F32, 0.1, 255, 0, 255),
    KernelErrorInvocation(_F32, 0.1, 0, 255, 0),
    KernelErrorInvocation(_F32, 0.1, 0, 1, 255),
])
def aten〇fake_quantize_per_tensor_affine〡shape(self: List[int], scale: float, zero_point: int, quant_min: int, quant_max: int) -> List[int]:
    _check_fake_quant_range(quant_min, quant_max)
    _check_fake_quant_zero_point(zero_point, quant_min, quant_max)
    return self


@dtype("aten.fake_quantize_per_tensor_affine", invocations=[
    KernelInvocation(_F32, 0.1, 0, 0, 255),
    KernelInvocation(TensorOfShape(2, dtype=torch.float64), 0.1, 0, 0, 255),
    KernelErrorInvocation(TensorOfShape(2, dtype=torch.int32), 0.1, 0, 0, 255),
    KernelErrorInvocation(_F32, 0.1, 0, 255, 0),
])
def aten〇fake_quantize_per_tensor_affine〡dtype(self_rank_dtype: Tuple[int, int], scale: float, zero_point: int, quant_min: int, quant_max: int) -> int:
    _check_fake_quant_range(quant_min, quant_max)
    _check_fake_quant_input(self_rank_dtype[1])
    return self_rank_dtype[1]


@shape("aten.fake_quantize_per_tensor_affine_cachemask", invocations=[
    KernelInvocation(_F32, 0.1, 0, 0, 255),
    KernelErrorInvocation(_F32, 0.1, 0, 255, 0),
    KernelErrorInvocation(_F32, 0.1, 256, 0, 255),
])
def aten〇fake_quantize_per_tensor_affine_cachemask〡shape(self: List[int], scale: float, zero_point: int, quant_min: int, quant_max: int) -> Tuple[List[int], List[int]]:
    _check_fake_quant_range(quant_min, quant_max)
    _check_fake_quant_zero_point(zero_point, quant_min, quant_max)
    return self, self


@dtype("aten.fake_quantize_per_tensor_affine_cachemask", invocations=[
    KernelInvocation(_F32, 0.1, 0, 0, 255),
    KernelInvocation(TensorOfShape(2, dtype=torch.float16), 0.1, 0, 0, 255),
    KernelErrorInvocation(TensorOfShape(2, dtype=torch.int32), 0.1, 0, 0, 255),
])
def aten〇fake_quantize_per_tensor_affine_cachemask〡dtype(self_rank_dtype: Tuple[int, int], scale: float, zero_point: int, quant_min: int, quant_max: int) -> Tuple[int, int]:
    _check_fake_quant_range(quant_min, quant_max)
    _check_fake_quant_input(self_rank_dtype[1])
    return self_rank_dtype[1], 11


_SCALE1 = TensorOfShape(1)
_ZERO1 = TensorOfShape(1, dtype=torch.int32)


@shape("aten.fake_quantize_per_tensor_affine.tensor_qparams", invocations=[
    KernelInvocation(_F32, _SCALE1, _ZERO1, 0, 255),
    KernelInvocation(_F32, TensorOfShape(), TensorOfShape(1, 1, dtype=torch.int32), 0, 255),
    KernelErrorInvocation(_F32, TensorOfShape(2), _ZERO1, 0, 255),
    KernelErrorInvocation(_F32, _SCALE1, TensorOfShape(0, dtype=torch.int32), 0, 255),
    KernelErrorInvocation(_F32, _SCALE1, _ZERO1, 255, 0),
])
def aten〇fake_quantize_per_tensor_affine〇tensor_qparams〡shape(self: List[int], scale: List[int], zero_point: List[int], quant_min: int, quant_max: int) -> List[int]:
    _check_fake_quant_range(quant_min, quant_max)
    _check_single_elements([scale, zero_point])
    return self


@dtype("aten.fake_quantize_per_tensor_affine.tensor_qparams", invocations=[
    KernelInvocation(_F32, _SCALE1, _ZERO1, 0, 255),
    KernelInvocation(TensorOfShape(2, dtype=torch.float64), _SCALE1, _ZERO1, 0, 255),
    KernelErrorInvocation(TensorOfShape(2, dtype=torch.int64), _SCALE1, _ZERO1, 0, 255),
])
def aten〇fake_quantize_per_tensor_affine〇tensor_qparams〡dtype(self_rank_dtype: Tuple[int, int], scale_rank_dtype: Tuple[int, int], zero_point_rank_dtype: Tuple[int, int], quant_min: int, quant_max: int) -> int:
    _check_fake_quant_input(self_rank_dtype[1])
    return self_rank_dtype[1]


_ENABLED = TensorOfShape(1, dtype=torch.int64)


@shape("aten._fake_quantize_per_tensor_affine_cachemask_tensor_qparams", invocations=[
    KernelInvocation(_F32, _SCALE1, _ZERO1, _ENABLED, 0, 255),
    KernelErrorInvocation(_F32, _SCALE1, _ZERO1, TensorOfShape(0, dtype=torch.int64), 0, 255),
    KernelErrorInvocation(_F32, TensorOfShape(2), _ZERO1, _ENABLED, 0, 255),
])
def aten〇_fake_quantize_per_tensor_affine_cachemask_tensor_qparams〡shape(self: List[int], scale: List[int], zero_point: List[int], fake_quant_enabled: List[int], quant_min: int, quant_max: int) -> Tuple[List[int], List[int]]:
    _check_single_elements([scale, zero_point, fake_quant_enabled])
    return self, self


@dtype("aten._fake_quantize_per_tensor_affine_cachemask_tensor_qparams", invocations=[
    KernelInvocation(_F32, _SCALE1, _ZERO1, _ENABLED, 0, 255),
    KernelInvocation(TensorOfShape(2, dtype=torch.bfloat16), _SCALE1, _ZERO1, _ENABLED, 0, 255),
    KernelErrorInvocation(TensorOfShape(2, dtype=torch.int32), _SCALE1, _ZERO1, _ENABLED, 0,
                          255),
])
def aten〇_fake_quantize_per_tensor_affine_cachemask_tensor_qparams〡dtype(self_rank_dtype: Tuple[int, int], scale_rank_dtype: Tuple[int, int], zero_point_rank_dtype: Tuple[int, int], fake_quant_enabled_rank_dtype: Tuple[int, int], quant_min: int, quant_max: int) -> Tuple[int, int]:
    _check_fake_quant_input(self_rank_dtype[1])
    return self_rank_dtype[1], 11


_ZEROS32 = TensorOfShape(3, dtype=torch.int32)


@shape("aten.fake_quantize_per_channel_affine", invocations=[
    KernelInvocation(_F32, _SCALES, _ZEROS32, 1, 0, 255),
    KernelInvocation(_F32, TensorOfShape(2), TensorOfShape(2, dtype=torch.int32), 0, 0, 255),
    KernelErrorInvocation(_F32, _SCALES, _ZEROS32, 2, 0, 255),
    KernelErrorInvocation(_F32, TensorOfShape(2), TensorOfShape(2, dtype=torch.int32), 1, 0,
                          255),
    KernelErrorInvocation(_F32, _SCALES, _ZEROS32, 1, 255, 0),
    KernelErrorInvocation(_F32, _SCALES, _ZEROS32, -1, 0, 255),
    KernelErrorInvocation(_F32, _SCALES, TensorOfShape(3, 1, dtype=torch.int32), 1, 0, 255),
    KernelErrorInvocation(_F32, _SCALES, TensorOfShape(2, dtype=torch.int32), 1, 0, 255),
])
def aten〇fake_quantize_per_channel_affine〡shape(self: List[int], scale: List[int], zero_point: List[int], axis: int, quant_min: int, quant_max: int) -> List[int]:
    _check_fake_quant_range(quant_min, quant_max)
    _check_per_channel_params(self, scale, zero_point, axis)
    return self


@dtype("aten.fake_quantize_per_channel_affine", invocations=[
    KernelInvocation(_F32, _SCALES, _ZEROS32, 1, 0, 255),
    KernelInvocation(TensorOfShape(2, 3, dtype=torch.float64), _SCALES, _ZEROS32, 1, 0, 255),
    KernelInvocation(_F32, _SCALES, TensorOfShape(3, dtype=torch.float16), 1, 0, 255),
    KernelErrorInvocation(TensorOfShape(2, 3, dtype=torch.int32), _SCALES, _ZEROS32, 1, 0, 255),
    KernelErrorInvocation(_F32, _SCALES, TensorOfShape(3, dtype=torch.uint8), 1, 0, 255),
    KernelErrorInvocation(_F32, TensorOfShape(3, dtype=torch.float64), _ZEROS32, 1, 0, 255),
])
def aten〇fake_quantize_per_channel_affine〡dtype(self_rank_dtype: Tuple[int, int], scale_rank_dtype: Tuple[int, int], zero_point_rank_dtype: Tuple[int, int], axis: int, quant_min: int, quant_max: int) -> int:
    _check_fake_quant_range(quant_min, quant_max)
    _check_fake_quant_input(self_rank_dtype[1])
    _check_per_channel_qparam_dtypes(scale_rank_dtype[1], zero_point_rank_dtype[1])
    return self_rank_dtype[1]


@shape("aten.fake_quantize_per_channel_affine_cachemask", invocations=[
    KernelInvocation(_F32, _SCALES, _ZEROS32, 1, 0, 255),
    KernelErrorInvocation(_F32, _SCALES, _ZEROS32, 0, 0, 255),
    KernelErrorInvocation(_F32, _SCALES, _ZEROS32, -1, 0, 255),
    KernelErrorInvocation(_F32, _SCALES, TensorOfShape(1, 3, 3, 3, dtype=torch.int32), 1, 0, 255),
])
def aten〇fake_quantize_per_channel_affine_cachemask〡shape(self: List[int], scale: List[int], zero_point: List[int], axis: int, quant_min: int, quant_max: int) -> Tuple[List[int], List[int]]:
    _check_fake_quant_range(quant_min, quant_max)
    _check_per_channel_params(self, scale, zero_point, axis)
    return self, self


@dtype("aten.fake_quantize_per_channel_affine_cachemask", invocations=[
    KernelInvocation(_F32, _SCALES, _ZEROS32, 1, 0, 255),
    KernelErrorInvocation(TensorOfShape(2, 3, dtype=torch.int64), _SCALES, _ZEROS32, 1, 0, 255),
    KernelErrorInvocation(_F32, _SCALES, TensorOfShape(3, dtype=torch.int64), 1, 0, 255),
])
def aten〇fake_quantize_per_channel_affine_cachemask〡dtype(self_rank_dtype: Tuple[int, int], scale_rank_dtype: Tuple[int, int], zero_point_rank_dtype: Tuple[int, int], axis: int, quant_min: int, quant_max: int) -> Tuple[int, int]:
    _check_fake_quant_range(quant_min, quant_max)
    _check_fake_quant_input(self_rank_dtype[1])
    _check_per_channel_qparam_dtypes(scale_rank_dtype[1], zero_point_rank_dtype[1])
    return self_rank_dtype[1], 11


# --- ATen: out of quantized dtypes ----------------------------------------------------------

_QU8 = TensorOfShape(2, 3, dtype=torch.quint8)


@shape("aten.dequantize.self", invocations=[
    KernelInvocation(_QU8),
    KernelInvocation(TensorOfShape(dtype=torch.qint8)),
])
def aten〇dequantize〇self〡shape(self: List[int]) -> List[int]:
    return self


@dtype("aten.dequantize.self", invocations=[
    KernelInvocation(_QU8),
    KernelInvocation(TensorOfShape(2, dtype=torch.qint32)),
    KernelInvocation(TensorOfShape(2, dtype=torch.float16)),  # a float tensor: cast to float32
    KernelInvocation(TensorOfShape(2, dtype=torch.int64)),
])
def aten〇dequantize〇self〡dtype(self_rank_dtype: Tuple[int, int]) -> int:
    return 6


@shape("aten.dequantize.tensor", invocations=[
    KernelInvocation(_QU8),
])
def aten〇dequantize〇tensor〡shape(qtensor: List[int]) -> List[int]:
    return qtensor


@dtype("aten.dequantize.tensor", invocations=[
    KernelInvocation(_QU8),
    KernelInvocation(TensorOfShape(2, dtype=torch.qint8)),
])
def aten〇dequantize〇tensor〡dtype(qtensor_rank_dtype: Tuple[int, int]) -> int:
    return 6


@shape("aten.int_repr", invocations=[
    KernelInvocation(_QU8),
    KernelInvocation(TensorOfShape(dtype=torch.qint32)),
])
def aten〇int_repr〡shape(self: List[int]) -> List[int]:
    return self


@dtype("aten.int_repr", invocations=[
    KernelInvocation(_QU8),
    KernelInvocation(TensorOfShape(2, dtype=torch.qint8)),
    KernelInvocation(TensorOfShape(2, dtype=torch.qint32)),
    KernelErrorInvocation(TensorOfShape(2, dtype=torch.float32)),
])
def aten〇int_repr〡dtype(self_rank_dtype: Tuple[int, int]) -> int:
    self_dtype = self_rank_dtype[1]
    if self_dtype == 12:
        return 1
    if self_dtype == 14:
        return 3
    # quint8, quint4x2 and quint2x4 are stored as uint8
    if self_dtype in [13, 16, 17]:
        return 0
    raise AssertionError("int_repr: the input must be a quantized tensor")
