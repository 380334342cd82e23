"""Convolution, pooling, padding and upsampling.

The rules are PyTorch's meta kernels, which check less than the CPU kernels: `convolution`
checks the channel count and that the kernel fits the padded input, but not the bias shape,
the sign of the padding or the divisibility of the output channels by `groups`.
"""

import itertools
from typing import List, Optional, Tuple

import torch
import torch.jit._shape_functions as upstream

from ._helpers import (
    check_contiguous_strides_fit,
    check_numel_fits,
    check_symint_values,
    padded_size,
    rank_dtype_lists,
)
from .promotion import is_complex_dtype, is_float_dtype, promote_dtypes
from .registry import dtype, shape
from .testing import (
    ErrorInvocation,
    Invocation,
    KernelErrorInvocation,
    LongTensorOfShape,
    TensorOfShape,
    TorchMlirInvocation,
    TorchMlirKernelInvocation,
    torch_mlir_meaning,
)
from .views import aten〇constant_pad_nd〡shape

_SWEEP = (
    torch.uint8, torch.int32, torch.int64, torch.float16, torch.bfloat16,
    torch.float32, torch.float64, torch.bool, torch.complex64,
)


def _check_interpolation_dtype(op: str, dtype: int, uint8: bool = True) -> None:
    # The CPU kernels compute for floats (and, forward, uint8) only; the meta kernels
    # accept any dtype.
    if not is_float_dtype(dtype) and not (uint8 and dtype == 0):
        raise AssertionError(op + ": not implemented for this dtype")


_INTERPOLATION_DTYPES = (torch.uint8, torch.float16, torch.bfloat16, torch.float32, torch.float64)


def _interpolation_dtype_cases(make, accepted=_INTERPOLATION_DTYPES):
    """The dtype sweep of an interpolation: `make(dtype)` gives the arguments; CPU refuses
    the dtypes not accepted."""
    return [(Invocation if d in accepted else KernelErrorInvocation)(*make(d)) for d in _SWEEP]


def _T(*sizes, dtype=torch.float32):
    return TensorOfShape(*sizes, dtype=dtype)


# ---------------------------------------------------------------------------- helpers


def _expand_param(values: List[int], n: int) -> List[int]:
    """A one-element stride/padding/dilation list stands for the same value in every dim."""
    if len(values) != 1:
        return values
    out: List[int] = []
    for _ in range(n):
        out.append(values[0])
    return out


def _check_conv_params(stride: List[int], padding: List[int], dilation: List[int],
                       output_padding: List[int], transposed: bool) -> None:
    """at::_convolution's parameter checks (the meta rule alone would make some of these
    sizes negative, others sizes the kernels refuse)."""
    for i in range(len(stride)):
        if stride[i] <= 0:
            raise AssertionError("convolution: non-positive stride is not supported")
        if padding[i] < 0:
            raise AssertionError("convolution: negative padding is not supported")
        if dilation[i] < 0:
            raise AssertionError("convolution: dilation should be greater than zero")
        if transposed and output_padding[i] < 0:
            raise AssertionError("convolution: negative output_padding is not supported")


def _conv_shape(input: List[int], weight: List[int], stride: List[int], padding: List[int],
                dilation: List[int], transposed: bool, output_padding: List[int],
                groups: int) -> List[int]:
    """The output sizes of a batched convolution (PyTorch's meta rule)."""
    if len(input) < 3:
        raise AssertionError("convolution: expected an input with at least one spatial dim")
    if len(weight) < len(input):
        raise AssertionError("convolution: weight has fewer dims than input")
    n = len(input) - 2
    if not transposed and weight[1] * groups != input[1]:
        raise AssertionError(
            "convolution: invalid channel dimensions (input[1] != weight[1] * groups)")
    stride = _expand_param(stride, n)
    padding = _expand_param(padding, n)
    dilation = _expand_param(dilation, n)
    # An empty output_padding selects the direct formula even for a transposed convolution.
    use_transposed_formula = transposed and len(output_padding) > 0
    output_padding = _expand_param(output_padding, n)
    out_channels = groups * weight[1] if transposed else weight[0]
    if input[1] == 0:
        out_channels = 0
    out = [input[0], out_channels]
    any_positive = False
    _check_conv_params(stride, padding, dilation, output_padding, use_transposed_formula)
    for i in range(n):
        size = input[i + 2]
        kernel = weight[i + 2]
        if not transposed and size + 2 * padding[i] < dilation[i] * (kernel - 1) + 1:
            raise AssertionError(
                "convolution: kernel size can't be greater than the padded input size")
        if use_transposed_formula:
            length = ((size - 1) * stride[i] - 2 * padding[i] + dilation[i] * (kernel - 1)
                      + output_padding[i] + 1)
            estimate = ((float(size) - 1.0) * float(stride[i]) - 2.0 * float(padding[i])
                        + float(dilation[i]) * float(kernel - 1) + float(output_padding[i]) + 1.0)
        else:
            length = (size + 2 * padding[i] - dilation[i] * (kernel - 1) - 1) // stride[i] + 1
            estimate = ((float(size) + 2.0 * float(padding[i]) - float(dilation[i]) * float(kernel - 1)
                         - 1.0) / float(stride[i]) + 1.0)
        # The meta rule computes in exact ints and then refuses a size past int64, where
        # TorchScript's ints wrap around: floats tell, but for sizes within 2**-50 of it.
        if estimate >= 9223372036854775808.0:
            raise AssertionError("convolution: an output size past int64: storage size calculation overflowed")
        any_positive = any_positive or length > 0
        out.append(length)
    if not any_positive:
        raise AssertionError("convolution: calculated output size is too small")
    return out


def _convnd_shape(op: str, n: int, input: List[int], weight: List[int], stride: List[int],
                  padding: List[int], dilation: List[int], groups: int) -> List[int]:
    """conv1d/2d/3d: a batched or unbatched input of `n` spatial dims."""
    if len(input) != n + 1 and len(input) != n + 2:
        raise AssertionError(op + ": expected an unbatched or batched input of the right rank")
    if len(input) == n + 2:
        return _conv_shape(input, weight, stride, padding, dilation, False, [0], groups)
    batched = upstream.unsqueeze(input, 0)
    return _conv_shape(batched, weight, stride, padding, dilation, False, [0], groups)[1:]


def _same_padding_input(op: str, input: List[int], weight: List[int], stride: List[int],
                        dilation: List[int]) -> Tuple[List[int], List[int]]:
    """For padding='same': the input grown by the odd part of the padding, and the even part."""
    n = len(weight) - 2
    for s in stride:
        if s != 1:
            raise AssertionError(op + ": padding='same' is not supported for strided convolutions")
    dilation = _expand_param(dilation, n)
    padded = upstream._copy(input)
    padding: List[int] = []
    first_spatial = len(input) - n
    for i in range(n):
        total = dilation[i] * (weight[i + 2] - 1)
        padding.append(total // 2)
        padded[first_spatial + i] = input[first_spatial + i] + total - 2 * (total // 2)
    return padded, padding


def _convnd_padding_shape(op: str, n: int, input: List[int], weight: List[int], stride: List[int],
                          padding: str, dilation: List[int], groups: int) -> List[int]:
    if padding == "valid":
        return _convnd_shape(op, n, input, weight, stride, [0], dilation, groups)
    if padding != "same":
        raise AssertionError(op + ": invalid padding string, expected 'valid' or 'same'")
    if len(input) != n + 1 and len(input) != n + 2:
        raise AssertionError(op + ": expected an unbatched or batched input of the right rank")
    if len(weight) != n + 2:
        raise AssertionError(op + ": weight has the wrong rank")
    padded, even_padding = _same_padding_input(op, input, weight, stride, dilation)
    return _convnd_shape(op, n, padded, weight, stride, even_padding, dilation, groups)


def _convnd_dtype(op: str, input_dtype: int, weight_dtype: int,
                  bias_rank_dtype: Optional[Tuple[int, int]]) -> int:
    """conv1d/2d/3d: the bias must match the input, and a complex input the weight."""
    if bias_rank_dtype is not None and bias_rank_dtype[1] != input_dtype:
        raise AssertionError(op + ": input type and bias type should be the same")
    return _convnd_padding_dtype(op, input_dtype, weight_dtype, bias_rank_dtype)


def _convnd_padding_dtype(op: str, input_dtype: int, weight_dtype: int,
                          bias_rank_dtype: Optional[Tuple[int, int]]) -> int:
    """The `.padding` overloads check the weight and bias dtypes of complex inputs only."""
    if not is_complex_dtype(input_dtype):
        return input_dtype
    if weight_dtype != input_dtype:
        raise AssertionError(op + ": input type and weight type should be the same")
    if bias_rank_dtype is not None and bias_rank_dtype[1] != input_dtype:
        raise AssertionError(op + ": input type and bias type should be the same")
    return input_dtype


# ---------------------------------------------------------------------------- convolution


@torch_mlir_meaning("aten.convolution")
def _convolution_of_spatial_output_padding(input: torch.Tensor, weight: torch.Tensor, bias: Optional[torch.Tensor],
                                           stride: List[int], padding: List[int], dilation: List[int],
                                           transposed: bool, output_padding: List[int], groups: int) -> torch.Tensor:
    """convolution as torch-mlir lowers it: output_padding read only by a transposed
    convolution, and there only its first entry per spatial dim (its ONNX Conv conversion
    writes two entries for a 1-d convolution). PyTorch's op rejects any other length."""
    spatial = input.dim() - 2
    kept = list(output_padding)[:spatial] if transposed else [0] * spatial
    return torch.ops.aten.convolution(input, weight, bias, stride, padding, dilation, transposed, kept, groups)


@shape("aten.convolution", invocations=[
    Invocation(_T(1, 2, 5, 5), _T(3, 2, 3, 3), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1),
    Invocation(_T(1, 2, 5, 5), _T(3, 2, 3, 3), _T(3), [2], [1], [1], False, [0], 1),
    Invocation(_T(2, 2, 9, 9), _T(3, 2, 3, 3), None, [2, 1], [1, 2], [2, 1], False, [0, 0], 1),
    Invocation(_T(1, 2, 5), _T(3, 2, 3), None, [1], [0], [1], False, [0], 1),
    Invocation(_T(1, 2, 5, 5, 5), _T(3, 2, 3, 3, 3), None, [1, 1, 1], [0, 0, 0], [1, 1, 1],
               False, [0, 0, 0], 1),
    Invocation(_T(1, 4, 5, 5), _T(6, 2, 3, 3), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 2),
    Invocation(_T(0, 2, 5, 5), _T(3, 2, 3, 3), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1),
    Invocation(_T(1, 0, 5, 5), _T(3, 0, 3, 3), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1),
    Invocation(_T(1, 2, 1, 5), _T(2, 2, 1, 1), None, [1], [0], [1], False, [0], 1),
    Invocation(_T(1, 2, 5, 5), _T(2, 3, 3, 3), None, [2, 2], [1, 1], [1, 1], True, [1, 1], 1),
    Invocation(_T(1, 4, 5, 5), _T(4, 3, 3, 3), _T(6), [2], [1], [1], True, [1], 2),
    Invocation(_T(1, 2, 5, 5), _T(2, 3, 3, 3), None, [2, 2], [1, 1], [1, 1], True, [], 1),
    Invocation(_T(1, 2, 5, 5), _T(2, 3, 3, 3), None, [2, 2], [1, 1], [2, 2], True, [0], 1),
    ErrorInvocation(_T(1, 3, 5, 5), _T(3, 2, 3, 3), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1),
    ErrorInvocation(_T(1, 2, 2, 2), _T(3, 2, 3, 3), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1),
    ErrorInvocation(_T(1, 2, 5, 5), _T(3, 2, 3, 3), None, [0, 1], [0, 0], [1, 1], False, [0, 0], 1),
    ErrorInvocation(_T(1, 2, 0, 5), _T(3, 2, 1, 1), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1),
    ErrorInvocation(_T(1, 2, 5, 5), _T(3, 2, 3), None, [1], [0], [1], False, [0], 1),
    ErrorInvocation(_T(1, 2, 5, 5, 5), _T(2, 2, 3, 3, 3), None, [1], [1, 1], [1], False, [0], 1),
    ErrorInvocation(_T(1, 2, 1, 1), _T(2, 3, 1, 1), None, [1, 1], [2, 2], [1, 1], True, [0], 1),
    ErrorInvocation(_T(1, 2), _T(2, 2), None, [1], [0], [1], False, [0], 1),
    TorchMlirKernelInvocation(_T(2, 8, 40), _T(16, 8, 3), _T(16), [2], [0], [1], False, [0, 0], 1),
    TorchMlirKernelInvocation(_T(1, 2, 9), _T(3, 2, 3), None, [2], [0], [1], False, [], 1),
    TorchMlirKernelInvocation(_T(1, 2, 5, 5), _T(3, 2, 3, 3), None, [1, 1], [0, 0], [1, 1], False, [1, 2, 3], 1),
    TorchMlirKernelInvocation(_T(1, 2, 9), _T(2, 3, 3), None, [2], [0], [1], True, [1, 0], 1),
])
def aten〇convolution〡shape(input: List[int], weight: List[int], bias: Optional[List[int]], stride: List[int], padding: List[int], dilation: List[int], transposed: bool, output_padding: List[int], groups: int) -> List[int]:
    return _conv_shape(input, weight, stride, padding, dilation, transposed, output_padding, groups)


@dtype("aten.convolution", invocations=[
    Invocation(_T(1, 2, 5, 5, dtype=a), _T(3, 2, 3, 3, dtype=b), bias, [1, 1], [0, 0], [1, 1],
               False, [0, 0], 1)
    for a, b in itertools.product(_SWEEP, _SWEEP)
    for bias in (None, _T(3, dtype=torch.float64))
])
def aten〇convolution〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Tuple[int, int], bias_rank_dtype: Optional[Tuple[int, int]], stride: List[int], padding: List[int], dilation: List[int], transposed: bool, output_padding: List[int], groups: int) -> int:
    return input_rank_dtype[1]


_CONV_BACKWARD_ARGS = ([1, 1], [0, 0], [1, 1], False, [0, 0], 1, [True, True, True])


@shape("aten.convolution_backward", invocations=[
    Invocation(_T(1, 3, 3, 3), _T(1, 2, 5, 5), _T(3, 2, 3, 3), [3], *_CONV_BACKWARD_ARGS),
    Invocation(_T(1, 6, 9, 9), _T(1, 4, 5, 5), _T(4, 3, 3, 3), [6], [2, 2], [1, 1], [1, 1], True,
               [0, 0], 2, [True, True, True]),
    Invocation(_T(0, 3, 3), _T(0, 2, 5), _T(3, 2, 3), [3], [1], [0], [1], False, [0], 1,
               [True, True, True]),
    ErrorInvocation(_T(1, 3, 3, 3), _T(1, 2, 5, 5), _T(3, 2, 3, 3), None, *_CONV_BACKWARD_ARGS),
    ErrorInvocation(_T(1, 3, 3, 3), _T(1, 2, 5, 5), _T(3, 2, 3, 3), [-5], *_CONV_BACKWARD_ARGS),
])
def aten〇convolution_backward〡shape(grad_output: List[int], input: List[int], weight: List[int], bias_sizes: Optional[List[int]], stride: List[int], padding: List[int], dilation: List[int], transposed: bool, output_padding: List[int], groups: int, output_mask: List[bool]) -> Tuple[List[int], List[int], List[int]]:
    # Results whose output_mask entry is False are undefined; their sizes are still given.
    if output_mask[2] and bias_sizes is None:
        raise AssertionError(
            "convolution_backward: bias_sizes is required when output_mask[2] is set")
    if bias_sizes is None:
        return upstream._copy(input), upstream._copy(weight), [grad_output[1]]
    for size in bias_sizes:
        if size < 0:
            raise AssertionError(
                "convolution_backward: trying to create tensor with negative dimension")
    return upstream._copy(input), upstream._copy(weight), upstream._copy(bias_sizes)


@dtype("aten.convolution_backward", invocations=[
    Invocation(_T(1, 3, 3, 3, dtype=a), _T(1, 2, 5, 5, dtype=b), _T(3, 2, 3, 3, dtype=b), [3],
               *_CONV_BACKWARD_ARGS)
    for a, b in itertools.product(_SWEEP, (torch.float32, torch.int64, torch.float16))
])
def aten〇convolution_backward〡dtype(grad_output_rank_dtype: Tuple[int, int], input_rank_dtype: Tuple[int, int], weight_rank_dtype: Tuple[int, int], bias_sizes: Optional[List[int]], stride: List[int], padding: List[int], dilation: List[int], transposed: bool, output_padding: List[int], groups: int, output_mask: List[bool]) -> Tuple[int, int, int]:
    grad_dtype = grad_output_rank_dtype[1]
    return grad_dtype, grad_dtype, grad_dtype


def _convnd_dtype_invocations(input_shape, weight_shape, *tail):
    return [
        Invocation(_T(*input_shape, dtype=a), _T(*weight_shape, dtype=b), bias, *tail)
        for a, b in itertools.product(_SWEEP + (torch.complex128,), _SWEEP + (torch.complex128,))
        for bias in (None, _T(weight_shape[0], dtype=a), _T(weight_shape[0], dtype=torch.float32))
    ]


@shape("aten.conv1d", invocations=[
    Invocation(_T(1, 2, 5), _T(3, 2, 3)),
    Invocation(_T(2, 5), _T(3, 2, 3), _T(3), [2], [1], [1], 1),
    Invocation(_T(1, 4, 9), _T(4, 2, 3), None, [2], [1], [2], 2),
    ErrorInvocation(_T(5), _T(3, 2, 3)),
    ErrorInvocation(_T(1, 1, 2, 5), _T(3, 2, 3)),
    ErrorInvocation(_T(1, 3, 5), _T(3, 2, 3)),
])
def aten〇conv1d〡shape(input: List[int], weight: List[int], bias: Optional[List[int]] = None, stride: List[int] = (1,), padding: List[int] = (0,), dilation: List[int] = (1,), groups: int = 1) -> List[int]:
    return _convnd_shape("conv1d", 1, input, weight, stride, padding, dilation, groups)


@dtype("aten.conv1d", invocations=_convnd_dtype_invocations((1, 2, 5), (3, 2, 3)))
def aten〇conv1d〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Tuple[int, int], bias_rank_dtype: Optional[Tuple[int, int]] = None, stride: List[int] = (1,), padding: List[int] = (0,), dilation: List[int] = (1,), groups: int = 1) -> int:
    return _convnd_dtype("conv1d", input_rank_dtype[1], weight_rank_dtype[1], bias_rank_dtype)


@shape("aten.conv2d", invocations=[
    Invocation(_T(1, 2, 5, 5), _T(3, 2, 3, 3)),
    Invocation(_T(2, 5, 5), _T(3, 2, 3, 3)),
    Invocation(_T(1, 2, 5, 5), _T(3, 2, 3, 3), _T(3), [2]),
    Invocation(_T(1, 2, 8, 7), _T(3, 2, 3, 2), None, [2, 1], [1, 0], [1, 2]),
    Invocation(_T(1, 4, 5, 5), _T(6, 2, 3, 3), None, [1, 1], [0, 0], [1, 1], 2),
    Invocation(_T(0, 2, 5, 5), _T(3, 2, 3, 3)),
    ErrorInvocation(_T(5, 5), _T(3, 2, 3, 3)),
    ErrorInvocation(_T(1, 1, 2, 5, 5), _T(3, 2, 3, 3)),
    ErrorInvocation(_T(1, 3, 5, 5), _T(3, 2, 3, 3)),
    ErrorInvocation(_T(1, 2, 2, 2), _T(3, 2, 3, 3)),
])
def aten〇conv2d〡shape(input: List[int], weight: List[int], bias: Optional[List[int]] = None, stride: List[int] = (1, 1), padding: List[int] = (0, 0), dilation: List[int] = (1, 1), groups: int = 1) -> List[int]:
    return _convnd_shape("conv2d", 2, input, weight, stride, padding, dilation, groups)


@dtype("aten.conv2d", invocations=_convnd_dtype_invocations((1, 2, 5, 5), (3, 2, 3, 3)))
def aten〇conv2d〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Tuple[int, int], bias_rank_dtype: Optional[Tuple[int, int]] = None, stride: List[int] = (1, 1), padding: List[int] = (0, 0), dilation: List[int] = (1, 1), groups: int = 1) -> int:
    return _convnd_dtype("conv2d", input_rank_dtype[1], weight_rank_dtype[1], bias_rank_dtype)


@shape("aten.conv3d", invocations=[
    Invocation(_T(1, 2, 5, 5, 5), _T(3, 2, 3, 3, 3)),
    Invocation(_T(2, 5, 6, 7), _T(3, 2, 3, 2, 1), _T(3), [1, 2, 3], [1], [1]),
    ErrorInvocation(_T(5, 5, 5), _T(3, 2, 3, 3, 3)),
    ErrorInvocation(_T(1, 3, 5, 5, 5), _T(3, 2, 3, 3, 3)),
])
def aten〇conv3d〡shape(input: List[int], weight: List[int], bias: Optional[List[int]] = None, stride: List[int] = (1, 1, 1), padding: List[int] = (0, 0, 0), dilation: List[int] = (1, 1, 1), groups: int = 1) -> List[int]:
    return _convnd_shape("conv3d", 3, input, weight, stride, padding, dilation, groups)


@dtype("aten.conv3d", invocations=_convnd_dtype_invocations((1, 2, 3, 3, 3), (3, 2, 1, 1, 1)))
def aten〇conv3d〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Tuple[int, int], bias_rank_dtype: Optional[Tuple[int, int]] = None, stride: List[int] = (1, 1, 1), padding: List[int] = (0, 0, 0), dilation: List[int] = (1, 1, 1), groups: int = 1) -> int:
    return _convnd_dtype("conv3d", input_rank_dtype[1], weight_rank_dtype[1], bias_rank_dtype)


@shape("aten.conv1d.padding", invocations=[
    Invocation(_T(1, 2, 5), _T(3, 2, 4), None, [1], "same", [1]),
    Invocation(_T(2, 5), _T(3, 2, 3), None, [1], "same", [2]),
    Invocation(_T(1, 2, 5), _T(3, 2, 3), None, [2], "valid", [1]),
    Invocation(_T(1, 2, 5), _T(3, 2, 3)),
    ErrorInvocation(_T(1, 2, 5), _T(3, 2, 3), None, [2], "same", [1]),
    ErrorInvocation(_T(1, 2, 5), _T(3, 2, 3), None, [1], "full", [1]),
    ErrorInvocation(_T(1, 2, 0), _T(3, 2, 2), None, [1], "same", [1]),
])
def aten〇conv1d〇padding〡shape(input: List[int], weight: List[int], bias: Optional[List[int]] = None, stride: List[int] = (1,), padding: str = 'valid', dilation: List[int] = (1,), groups: int = 1) -> List[int]:
    return _convnd_padding_shape("conv1d", 1, input, weight, stride, padding, dilation, groups)


@dtype("aten.conv1d.padding",
       invocations=_convnd_dtype_invocations((1, 2, 5), (3, 2, 3), [1], "same"))
def aten〇conv1d〇padding〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Tuple[int, int], bias_rank_dtype: Optional[Tuple[int, int]] = None, stride: List[int] = (1,), padding: str = 'valid', dilation: List[int] = (1,), groups: int = 1) -> int:
    return _convnd_padding_dtype("conv1d", input_rank_dtype[1], weight_rank_dtype[1],
                                 bias_rank_dtype)


@shape("aten.conv2d.padding", invocations=[
    Invocation(_T(1, 2, 5, 6), _T(3, 2, 3, 4), None, [1, 1], "same", [1, 1]),
    Invocation(_T(1, 2, 5, 6), _T(3, 2, 4, 4), None, [1], "same", [2]),
    Invocation(_T(2, 5, 6), _T(3, 2, 3, 4), _T(3), [1, 1], "same", [1, 1]),
    Invocation(_T(1, 4, 5, 5), _T(4, 2, 2, 2), None, [1], "same", [1], 2),
    Invocation(_T(1, 2, 5, 6), _T(3, 2, 3, 4), None, [2, 1], "valid", [1, 1]),
    ErrorInvocation(_T(1, 2, 5, 6), _T(3, 2, 3, 4), None, [2, 1], "same", [1, 1]),
    ErrorInvocation(_T(1, 3, 5, 5), _T(4, 2, 2, 2), None, [1], "same", [1], 1),
    ErrorInvocation(_T(1, 2, 0, 5), _T(4, 2, 2, 2), None, [1, 1], "same", [1]),
    ErrorInvocation(_T(1, 2, 2, 2), _T(3, 2, 3, 3), None, [1], "valid", [1]),
])
def aten〇conv2d〇padding〡shape(input: List[int], weight: List[int], bias: Optional[List[int]] = None, stride: List[int] = (1, 1), padding: str = 'valid', dilation: List[int] = (1, 1), groups: int = 1) -> List[int]:
    return _convnd_padding_shape("conv2d", 2, input, weight, stride, padding, dilation, groups)


@dtype("aten.conv2d.padding",
       invocations=_convnd_dtype_invocations((1, 2, 5, 5), (3, 2, 3, 3), [1, 1], "same"))
def aten〇conv2d〇padding〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Tuple[int, int], bias_rank_dtype: Optional[Tuple[int, int]] = None, stride: List[int] = (1, 1), padding: str = 'valid', dilation: List[int] = (1, 1), groups: int = 1) -> int:
    return _convnd_padding_dtype("conv2d", input_rank_dtype[1], weight_rank_dtype[1],
                                 bias_rank_dtype)


@shape("aten.conv3d.padding", invocations=[
    Invocation(_T(1, 2, 5, 5, 5), _T(3, 2, 2, 3, 4), None, [1], "same", [1]),
    Invocation(_T(2, 5, 5, 5), _T(3, 2, 2, 3, 4), None, [1, 1, 1], "same", [1, 2, 1]),
    Invocation(_T(1, 2, 5, 5, 5), _T(3, 2, 2, 3, 4), None, [1, 2, 1], "valid", [1]),
    ErrorInvocation(_T(1, 2, 5, 5, 5), _T(3, 2, 2, 3, 4), None, [1, 2, 1], "same", [1]),
])
def aten〇conv3d〇padding〡shape(input: List[int], weight: List[int], bias: Optional[List[int]] = None, stride: List[int] = (1, 1, 1), padding: str = 'valid', dilation: List[int] = (1, 1, 1), groups: int = 1) -> List[int]:
    return _convnd_padding_shape("conv3d", 3, input, weight, stride, padding, dilation, groups)


@dtype("aten.conv3d.padding",
       invocations=_convnd_dtype_invocations((1, 2, 3, 3, 3), (3, 2, 1, 1, 1), [1], "same"))
def aten〇conv3d〇padding〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Tuple[int, int], bias_rank_dtype: Optional[Tuple[int, int]] = None, stride: List[int] = (1, 1, 1), padding: str = 'valid', dilation: List[int] = (1, 1, 1), groups: int = 1) -> int:
    return _convnd_padding_dtype("conv3d", input_rank_dtype[1], weight_rank_dtype[1],
                                 bias_rank_dtype)


# ---------------------------------------------------------------------------- pooling helpers


def _pool_output_size(size: int, kernel: int, pad: int, stride: int, dilation: int,
                      ceil_mode: bool) -> int:
    """One pooled dim (PyTorch's pooling_output_shape, with its checks)."""
    if stride == 0:
        raise AssertionError("pooling: stride should not be zero")
    if pad < 0:
        raise AssertionError("pooling: pad must be non-negative")
    if pad > ((kernel - 1) * dilation + 1) // 2:
        raise AssertionError("pooling: pad should be at most half of effective kernel size")
    return upstream.pooling_output_shape_pad_lr(size, kernel, pad, pad, stride, dilation, ceil_mode)


def _pool_param(op: str, name: str, values: List[int], n: int, default: List[int]) -> List[int]:
    """A pooling parameter: one value for every dim, `n` values, or (if allowed) the default."""
    if len(values) == 0 and len(default) == n:
        return default
    if len(values) == 1:
        return _expand_param(values, n)
    if len(values) != n:
        raise AssertionError(op + ": " + name + " must be a single int or one int per pooled dim")
    return values


def _check_pool_params(op: str, kernel: List[int], strides: List[int],
                       dilations: List[int]) -> None:
    for i in range(len(kernel)):
        if kernel[i] <= 0:
            raise AssertionError(op + ": kernel size should be greater than zero")
        if strides[i] <= 0:
            raise AssertionError(op + ": stride should be greater than zero")
        if dilations[i] <= 0:
            raise AssertionError(op + ": dilation should be greater than zero")


def _pooled_sizes(input: List[int], kernel: List[int], pads: List[int], strides: List[int],
                  dilations: List[int], ceil_mode: bool) -> List[int]:
    """The input's leading dims followed by its last len(kernel) dims pooled."""
    n = len(kernel)
    out = input[:-n]
    for i in range(n):
        size = input[len(input) - n + i]
        out.append(_pool_output_size(size, kernel[i], pads[i], strides[i], dilations[i], ceil_mode))
    return out


def _pool2d_shape(op: str, input: List[int], kernel_size: List[int], stride: List[int],
                  padding: List[int], dilation: List[int], ceil_mode: bool) -> List[int]:
    empty: List[int] = []
    kernel = _pool_param(op, "kernel_size", kernel_size, 2, empty)
    strides = _pool_param(op, "stride", stride, 2, kernel)
    pads = _pool_param(op, "padding", padding, 2, empty)
    dilations = _pool_param(op, "dilation", dilation, 2, empty)
    if len(input) != 3 and len(input) != 4:
        raise AssertionError(op + ": expected a 3D or 4D (batch mode) input")
    out = _pooled_sizes(input, kernel, pads, strides, dilations, ceil_mode)
    _check_pool_params(op, kernel, strides, dilations)
    for i in range(len(input) - 3, len(input)):
        if input[i] == 0:
            raise AssertionError(op + ": expected non-zero sizes except for the batch dim")
    if kernel[0] // 2 < pads[0] or kernel[1] // 2 < pads[1]:
        raise AssertionError(op + ": pad should be smaller than or equal to half of kernel size")
    if out[-2] < 1 or out[-1] < 1:
        raise AssertionError(op + ": output size is too small")
    return out


def _pool3d_shape(op: str, input: List[int], kernel_size: List[int], stride: List[int],
                  padding: List[int], dilation: List[int], ceil_mode: bool,
                  check_input_size: bool) -> List[int]:
    empty: List[int] = []
    kernel = _pool_param(op, "kernel_size", kernel_size, 3, empty)
    strides = _pool_param(op, "stride", stride, 3, kernel)
    pads = _pool_param(op, "padding", padding, 3, empty)
    dilations = _pool_param(op, "dilation", dilation, 3, empty)
    if len(input) != 4 and len(input) != 5:
        raise AssertionError(op + ": expected a 4D or 5D (batch mode) input")
    out = _pooled_sizes(input, kernel, pads, strides, dilations, ceil_mode)
    _check_pool_params(op, kernel, strides, dilations)
    for i in range(len(input) - 4, len(input)):
        if input[i] <= 0:
            raise AssertionError(
                op + ": expected input's non-batch dimensions to have positive length")
    for i in range(3):
        if check_input_size and input[i - 3] < kernel[i]:
            raise AssertionError(op + ": input image smaller than kernel size")
        if 2 * pads[i] > kernel[i]:
            raise AssertionError(
                op + ": pad should be smaller than or equal to half of kernel size")
        if out[i - 3] < 1:
            raise AssertionError(op + ": output size is too small")
    return out


def _check_avg_pool_dtype(op: str, dtype: int) -> None:
    if dtype == 0 or dtype == 27 or dtype == 28 or dtype == 29:  # uint8, uint16, uint32, uint64
        raise AssertionError(op + ": not implemented for unsigned integer inputs")


def _is_onnx_pool_form(n: int, stride: List[int], padding: List[int]) -> bool:
    """Whether an avg_pool{n}d call has the lists torch-mlir's ONNX AveragePool conversion
    writes and PyTorch rejects: `stride` n strides then n dilations (ONNX's, 1 unless the
    model sets them), or `padding` n begin pads then n end pads."""
    return len(stride) == 2 * n or len(padding) == 2 * n


def _onnx_avg_pool_shape(op: str, n: int, input: List[int], kernel_size: List[int],
                         stride: List[int], padding: List[int], ceil_mode: bool) -> List[int]:
    """avg_pool{n}d of the ONNX form as torch-mlir's linalg lowering reads it (its shape
    function ignores the dilations and reads the pads as symmetric, and the pipeline then
    fails on any other than 1s and symmetric pads). PyTorch's eager-only checks (a pad at
    most half the kernel, non-empty dims) are no errors here."""
    empty: List[int] = []
    kernel = _pool_param(op, "kernel_size", kernel_size, n, empty)
    strides = stride[:n] if len(stride) == 2 * n else _pool_param(op, "stride", stride, n, kernel)
    dilations = stride[n:] if len(stride) == 2 * n else _expand_param([1], n)
    begins = padding[:n] if len(padding) == 2 * n else _pool_param(op, "padding", padding, n, empty)
    ends = padding[n:] if len(padding) == 2 * n else begins
    if len(input) != n + 1 and len(input) != n + 2:
        raise AssertionError(op + ": expected an unbatched or batched input")
    _check_pool_params(op, kernel, strides, dilations)
    out = input[:-n]
    for i in range(n):
        if begins[i] < 0 or ends[i] < 0:
            raise AssertionError(op + ": pad must be non-negative")
        size = upstream.pooling_output_shape_pad_lr(
            input[len(input) - n + i], kernel[i], begins[i], ends[i], strides[i], dilations[i],
            ceil_mode)
        if size < 1:
            raise AssertionError(op + ": output size is too small")
        out.append(size)
    return out


def _onnx_avg_pool(n: int):
    """The ONNX form's meaning, values included (the executor runs it): strides then
    dilations, begin then end pads, as torch-mlir's lowering reads them. Each window of the
    zero-padded input is summed by a convolution with a kernel of ones (dilated as the
    dilations say) and divided by what it covers of the input (and of the padding, as
    `count_include_pad` says) or by `divisor_override`."""
    convolution = (torch.nn.functional.conv1d, torch.nn.functional.conv2d, torch.nn.functional.conv3d)[n - 1]

    def reference(input, kernel_size, stride, padding, ceil_mode=False, count_include_pad=True,
                  divisor_override=None):
        kernel = list(kernel_size) * n if len(kernel_size) == 1 else list(kernel_size)
        strides, dilations = (stride[:n], stride[n:]) if len(stride) == 2 * n else (stride, [1] * n)
        pads = padding * n if len(padding) == 1 else padding
        begins, ends = (pads[:n], pads[n:]) if len(pads) == 2 * n else (pads, pads)
        sizes = input.shape[input.dim() - n:]
        spans = [d * (k - 1) + 1 for d, k in zip(dilations, kernel)]
        outs = [_pooled_size(L + b + e, span, s, L + b, ceil_mode)
                for L, b, e, span, s in zip(sizes, begins, ends, spans, strides)]
        overhang = [(o - 1) * s + span - (L + b + e)
                    for o, s, span, L, b, e in zip(outs, strides, spans, sizes, begins, ends)]
        explicit = [p for i in reversed(range(n)) for p in (begins[i], ends[i])]
        beyond = [p for i in reversed(range(n)) for p in (0, max(0, overhang[i]))]
        flat = input.reshape(-1, 1, *sizes)
        padded = torch.constant_pad_nd(torch.constant_pad_nd(flat, explicit), beyond)
        covered = torch.constant_pad_nd(torch.ones_like(flat), explicit, 1.0 if count_include_pad else 0.0)
        covered = torch.constant_pad_nd(covered, beyond)
        ones = torch.ones(1, 1, *kernel, dtype=input.dtype)
        total = convolution(padded, ones, stride=strides, dilation=dilations)
        divisor = divisor_override if divisor_override else convolution(covered, ones, stride=strides,
                                                                          dilation=dilations)
        return (total / divisor).reshape(*input.shape[:input.dim() - n], *total.shape[2:])

    return reference


def _pooled_size(padded: int, span: int, stride: int, last_start_limit: int, ceil_mode: bool) -> int:
    """A pooled dim's size as PyTorch computes it: with `ceil_mode` a window may overhang
    the end, but none may start past the input and its begin padding."""
    if not ceil_mode:
        return (padded - span) // stride + 1
    size = -(-(padded - span) // stride) + 1
    return size - 1 if (size - 1) * stride >= last_start_limit else size


for _n, _op in enumerate(("aten.avg_pool1d", "aten.avg_pool2d", "aten.avg_pool3d"), start=1):
    torch_mlir_meaning(_op)(_onnx_avg_pool(_n))


def _check_divisor(op: str, divisor_override: Optional[int]) -> None:
    if divisor_override is not None and divisor_override == 0:
        raise AssertionError(op + ": divisor must be not zero")


def _check_grad_sizes(op: str, grad: List[int], expected: List[int]) -> None:
    """The gradient must have the rank of the input and the forward result's last 3 sizes."""
    if len(grad) != len(expected):
        raise AssertionError(op + ": grad_output has the wrong rank")
    for i in range(len(expected) - 3, len(expected)):
        if grad[i] != expected[i]:
            raise AssertionError(op + ": grad_output has the wrong size")


# ---------------------------------------------------------------------------- max pooling


_MAX_POOL2D_CASES = [
    Invocation(_T(1, 2, 8, 8), [2, 2]),
    Invocation(_T(2, 8, 8), [3], [2], [1], [1], True),
    Invocation(_T(1, 2, 8, 8), [3, 3], [2, 2], [1, 1], [1, 1], True),
    Invocation(_T(1, 2, 9, 7), [3, 2], [2, 1], [1, 0], [2, 1], False),
    Invocation(_T(0, 2, 8, 8), [3, 3]),
    ErrorInvocation(_T(1, 0, 8, 8), [3, 3]),
    ErrorInvocation(_T(0, 8, 8), [3, 3]),
    ErrorInvocation(_T(8, 8), [3, 3]),
    ErrorInvocation(_T(1, 2, 8, 8), [3, 3], [1], [-1]),
    ErrorInvocation(_T(1, 2, 8, 8), [3, 3], [1], [2], [2]),
    ErrorInvocation(_T(1, 2, 8, 8), [3, 3], [0]),
    ErrorInvocation(_T(1, 2, 2, 2), [3, 3]),
    ErrorInvocation(_T(1, 2, 8, 8), [3, 3, 3]),
    ErrorInvocation(_T(1, 2, 8, 8), [3, 3], [1, 1, 1]),
]


@shape("aten.max_pool2d", invocations=_MAX_POOL2D_CASES)
def aten〇max_pool2d〡shape(self: List[int], kernel_size: List[int], stride: List[int] = (), padding: List[int] = (0, 0), dilation: List[int] = (1, 1), ceil_mode: bool = False) -> List[int]:
    return _pool2d_shape("max_pool2d", self, kernel_size, stride, padding, dilation, ceil_mode)


@dtype("aten.max_pool2d", invocations=[Invocation(_T(1, 2, 8, 8, dtype=d), [2, 2]) for d in _SWEEP])
def aten〇max_pool2d〡dtype(self_rank_dtype: Tuple[int, int], kernel_size: List[int], stride: List[int] = (), padding: List[int] = (0, 0), dilation: List[int] = (1, 1), ceil_mode: bool = False) -> int:
    return self_rank_dtype[1]


@shape("aten.max_pool2d_with_indices", invocations=_MAX_POOL2D_CASES)
def aten〇max_pool2d_with_indices〡shape(self: List[int], kernel_size: List[int], stride: List[int] = (), padding: List[int] = (0, 0), dilation: List[int] = (1, 1), ceil_mode: bool = False) -> Tuple[List[int], List[int]]:
    out = _pool2d_shape("max_pool2d", self, kernel_size, stride, padding, dilation, ceil_mode)
    return out, upstream._copy(out)


@dtype("aten.max_pool2d_with_indices", invocations=[
    Invocation(_T(1, 2, 8, 8, dtype=d), [2, 2]) for d in _SWEEP])
def aten〇max_pool2d_with_indices〡dtype(self_rank_dtype: Tuple[int, int], kernel_size: List[int], stride: List[int] = (), padding: List[int] = (0, 0), dilation: List[int] = (1, 1), ceil_mode: bool = False) -> Tuple[int, int]:
    return self_rank_dtype[1], 4  # int64 indices


@shape("aten.max_pool2d_with_indices_backward", invocations=[
    Invocation(_T(1, 2, 4, 4), _T(1, 2, 8, 8), [2, 2], [], [0], [1], False,
               LongTensorOfShape(1, 2, 4, 4)),
    Invocation(_T(2, 5, 5), _T(2, 8, 8), [3], [2], [1], [1], True, LongTensorOfShape(2, 5, 5)),
    ErrorInvocation(_T(1, 2, 4, 3), _T(1, 2, 8, 8), [2, 2], [], [0], [1], False,
                    LongTensorOfShape(1, 2, 4, 4)),
    ErrorInvocation(_T(1, 2, 4, 4), _T(1, 2, 8, 8), [2, 2], [], [0], [1], False,
                    LongTensorOfShape(1, 2, 4)),
    ErrorInvocation(_T(1, 2, 4, 4), _T(1, 2, 8, 8), [2, 2], [], [3], [1], False,
                    LongTensorOfShape(1, 2, 4, 4)),
])
def aten〇max_pool2d_with_indices_backward〡shape(grad_output: List[int], self: List[int], kernel_size: List[int], stride: List[int], padding: List[int], dilation: List[int], ceil_mode: bool, indices: List[int]) -> List[int]:
    out = _pool2d_shape("max_pool2d_with_indices_backward", self, kernel_size, stride, padding,
                        dilation, ceil_mode)
    _check_grad_sizes("max_pool2d_with_indices_backward", grad_output, out)
    _check_grad_sizes("max_pool2d_with_indices_backward", indices, out)
    return upstream._copy(self)


@dtype("aten.max_pool2d_with_indices_backward", invocations=[
    Invocation(_T(1, 2, 4, 4, dtype=a), _T(1, 2, 8, 8, dtype=b), [2, 2], [], [0], [1], False,
               LongTensorOfShape(1, 2, 4, 4))
    for a, b in itertools.product(_SWEEP, (torch.float32, torch.float16, torch.int64))]
    + [ErrorInvocation(
        _T(1, 2, 4, 4, dtype=torch.uint8),
        _T(1, 2, 8, 8),
        [2, 2],
        [],
        [0],
        [1],
        False,
        _T(1, 2, 4, 4, dtype=torch.int64),
    )])
def aten〇max_pool2d_with_indices_backward〡dtype(grad_output_rank_dtype: Tuple[int, int], self_rank_dtype: Tuple[int, int], kernel_size: List[int], stride: List[int], padding: List[int], dilation: List[int], ceil_mode: bool, indices_rank_dtype: Tuple[int, int]) -> int:
    if grad_output_rank_dtype[1] != self_rank_dtype[1]:
        raise AssertionError(
            "max_pool2d_with_indices_backward: expected grad_output to have the dtype of self")
    return self_rank_dtype[1]


@shape("aten.max_pool3d_with_indices", invocations=[
    Invocation(_T(1, 2, 8, 8, 8), [2, 2, 2]),
    Invocation(_T(2, 8, 7, 6), [3], [2], [1], [1], True),
    Invocation(_T(1, 2, 9, 8, 7), [3, 2, 1], [2, 1, 1], [1, 1, 0], [2, 1, 1], False),
    Invocation(_T(0, 2, 8, 8, 8), [3, 3, 3]),
    ErrorInvocation(_T(0, 8, 8, 8), [3]),
    ErrorInvocation(_T(1, 2, 8, 8), [3, 3, 3]),
    ErrorInvocation(_T(1, 2, 8, 8, 8), [3], [], [2], [2]),
    ErrorInvocation(_T(1, 2, 2, 8, 8), [3]),
    ErrorInvocation(_T(1, 2, 8, 8, 8), [3, 3]),
])
def aten〇max_pool3d_with_indices〡shape(self: List[int], kernel_size: List[int], stride: List[int] = (), padding: List[int] = (0, 0, 0), dilation: List[int] = (1, 1, 1), ceil_mode: bool = False) -> Tuple[List[int], List[int]]:
    out = _pool3d_shape("max_pool3d_with_indices", self, kernel_size, stride, padding, dilation,
                        ceil_mode, False)
    return out, upstream._copy(out)


@dtype("aten.max_pool3d_with_indices", invocations=[
    Invocation(_T(1, 2, 4, 4, 4, dtype=d), [2]) for d in _SWEEP])
def aten〇max_pool3d_with_indices〡dtype(self_rank_dtype: Tuple[int, int], kernel_size: List[int], stride: List[int] = (), padding: List[int] = (0, 0, 0), dilation: List[int] = (1, 1, 1), ceil_mode: bool = False) -> Tuple[int, int]:
    return self_rank_dtype[1], 4  # int64 indices


# ---------------------------------------------------------------------------- average pooling


@shape("aten.avg_pool1d", invocations=[
    Invocation(_T(1, 2, 8), [2]),
    Invocation(_T(2, 8), [2]),
    Invocation(_T(1, 2, 8), [3], [2], [1], True, False),
    Invocation(_T(0, 2, 8), [2]),
    Invocation(_T(1, 2, 8), [2], []),
    ErrorInvocation(_T(8), [2]),
    ErrorInvocation(_T(1, 1, 2, 8), [2]),
    ErrorInvocation(_T(1, 2, 8), [2, 2]),
    ErrorInvocation(_T(1, 2, 8), [3], [2], [2]),
    ErrorInvocation(_T(1, 2, 8), [0]),
    ErrorInvocation(_T(1, 2, 2), [3]),
    ErrorInvocation(_T(1, 0, 8), [2]),
    ErrorInvocation(_T(1, 2, 8), [2], [0]),
    TorchMlirInvocation(_T(1, 2, 9), [3], [2, 1], [0]),
    TorchMlirInvocation(_T(2, 30), [3], [2, 3], [0]),
    TorchMlirInvocation(_T(1, 2, 8), [3], [2, 1], [2, 1]),
    ErrorInvocation(_T(1, 2, 9), [3], [2, 0], [0]),
])
def aten〇avg_pool1d〡shape(self: List[int], kernel_size: List[int], stride: List[int] = (), padding: List[int] = (0,), ceil_mode: bool = False, count_include_pad: bool = True) -> List[int]:
    if _is_onnx_pool_form(1, stride, padding):
        return _onnx_avg_pool_shape("avg_pool1d", 1, self, kernel_size, stride, padding, ceil_mode)
    if len(kernel_size) != 1:
        raise AssertionError("avg_pool1d: kernel_size should contain one int")
    if len(stride) > 1:
        raise AssertionError("avg_pool1d: stride should contain one int")
    if len(padding) != 1:
        raise AssertionError("avg_pool1d: padding should contain one int")
    if len(self) != 2 and len(self) != 3:
        raise AssertionError("avg_pool1d: expected a 2D or 3D input")
    stride_2d = [1, kernel_size[0] if len(stride) == 0 else stride[0]]
    input_2d = upstream.unsqueeze(self, -2)
    out = _pool2d_shape("avg_pool1d", input_2d, [1, kernel_size[0]], stride_2d, [0, padding[0]],
                        [1], ceil_mode)
    return upstream.squeeze(out, -2)


@dtype("aten.avg_pool1d", invocations=[Invocation(_T(1, 2, 8, dtype=d), [2]) for d in _SWEEP]
    + [ErrorInvocation(_T(1, 2, 8, dtype=torch.uint8), [2])])
def aten〇avg_pool1d〡dtype(self_rank_dtype: Tuple[int, int], kernel_size: List[int], stride: List[int] = (), padding: List[int] = (0,), ceil_mode: bool = False, count_include_pad: bool = True) -> int:
    _check_avg_pool_dtype("avg_pool1d", self_rank_dtype[1])
    return self_rank_dtype[1]


@shape("aten.avg_pool2d", invocations=[
    Invocation(_T(1, 2, 8, 8), [2, 2]),
    Invocation(_T(2, 8, 8), [3], [2], [1], True, False, 3),
    Invocation(_T(1, 2, 9, 7), [3, 2], [2, 1], [1, 0]),
    Invocation(_T(0, 2, 8, 8), [3, 3]),
    ErrorInvocation(_T(1, 2, 8, 8), [3, 3], [1], [1], False, True, 0),
    ErrorInvocation(_T(1, 2, 8, 8), [3, 3], [1, 1, 1]),
    ErrorInvocation(_T(8, 8), [3, 3]),
    ErrorInvocation(_T(1, 0, 8, 8), [3, 3]),
    ErrorInvocation(_T(1, 2, 8, 8), [3, 3], [1], [2]),
    ErrorInvocation(_T(1, 2, 2, 2), [3, 3]),
    TorchMlirInvocation(_T(1, 2, 9, 9), [3, 3], [2, 2, 1, 1], [1, 1]),
    TorchMlirInvocation(_T(1, 2, 30, 30), [3, 3], [2, 3, 5, 7], [1, 0]),
    TorchMlirInvocation(_T(2, 12, 12), [3, 3], [2, 2], [1, 0, 0, 1]),
    TorchMlirInvocation(_T(1, 2, 8, 8), [2, 2], [1, 1, 1, 1], [0, 0, 1, 1]),
    ErrorInvocation(_T(1, 2, 8, 8), [3, 3], [2, 2, 1, 0]),
    ErrorInvocation(_T(1, 2, 8, 8), [3, 3], [1, 1], [0, 0, -1, 0]),
    ErrorInvocation(_T(1, 2, 4, 4), [3, 3], [1, 1, 2, 2]),
])
def aten〇avg_pool2d〡shape(self: List[int], kernel_size: List[int], stride: List[int] = (), padding: List[int] = (0, 0), ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: Optional[int] = None) -> List[int]:
    _check_divisor("avg_pool2d", divisor_override)
    if _is_onnx_pool_form(2, stride, padding):
        return _onnx_avg_pool_shape("avg_pool2d", 2, self, kernel_size, stride, padding, ceil_mode)
    return _pool2d_shape("avg_pool2d", self, kernel_size, stride, padding, [1], ceil_mode)


@dtype("aten.avg_pool2d", invocations=[Invocation(_T(1, 2, 8, 8, dtype=d), [2, 2]) for d in _SWEEP]
    + [ErrorInvocation(_T(1, 2, 8, 8, dtype=torch.uint8), [2, 2])])
def aten〇avg_pool2d〡dtype(self_rank_dtype: Tuple[int, int], kernel_size: List[int], stride: List[int] = (), padding: List[int] = (0, 0), ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: Optional[int] = None) -> int:
    _check_avg_pool_dtype("avg_pool2d", self_rank_dtype[1])
    return self_rank_dtype[1]


@shape("aten.avg_pool2d_backward", invocations=[
    Invocation(_T(1, 2, 4, 4), _T(1, 2, 8, 8), [2, 2], [], [0], False, True, None),
    Invocation(_T(2, 5, 5), _T(2, 8, 8), [3], [2], [1], True, False, 2),
    ErrorInvocation(_T(1, 2, 4, 3), _T(1, 2, 8, 8), [2, 2], [], [0], False, True, None),
    ErrorInvocation(_T(1, 2, 4, 4), _T(1, 2, 8, 8), [2, 2], [], [0], False, True, 0),
    ErrorInvocation(_T(2, 4, 4), _T(1, 2, 8, 8), [2, 2], [], [0], False, True, None),
])
def aten〇avg_pool2d_backward〡shape(grad_output: List[int], self: List[int], kernel_size: List[int], stride: List[int], padding: List[int], ceil_mode: bool, count_include_pad: bool, divisor_override: Optional[int]) -> List[int]:
    _check_divisor("avg_pool2d_backward", divisor_override)
    out = _pool2d_shape("avg_pool2d_backward", self, kernel_size, stride, padding, [1], ceil_mode)
    _check_grad_sizes("avg_pool2d_backward", grad_output, out)
    return upstream._copy(self)


@dtype("aten.avg_pool2d_backward", invocations=[
    Invocation(_T(1, 2, 4, 4, dtype=a), _T(1, 2, 8, 8, dtype=b), [2, 2], [], [0], False, True, None)
    for a, b in itertools.product(_SWEEP, (torch.float32, torch.int64))])
def aten〇avg_pool2d_backward〡dtype(grad_output_rank_dtype: Tuple[int, int], self_rank_dtype: Tuple[int, int], kernel_size: List[int], stride: List[int], padding: List[int], ceil_mode: bool, count_include_pad: bool, divisor_override: Optional[int]) -> int:
    return self_rank_dtype[1]


@shape("aten.avg_pool3d", invocations=[
    Invocation(_T(1, 2, 8, 8, 8), [2, 2, 2]),
    Invocation(_T(2, 8, 7, 6), [3], [2], [1], True, False, 5),
    Invocation(_T(1, 2, 9, 8, 7), [3, 2, 1], [2, 1, 1], [1, 1, 0]),
    Invocation(_T(0, 2, 8, 8, 8), [3, 3, 3]),
    ErrorInvocation(_T(1, 2, 2, 8, 8), [3, 3, 3], [], [1]),
    ErrorInvocation(_T(1, 2, 8, 8, 8), [3], [], [0], False, True, 0),
    ErrorInvocation(_T(1, 2, 8, 8), [3, 3, 3]),
    ErrorInvocation(_T(1, 2, 8, 8, 8), [3], [1, 1]),
    TorchMlirInvocation(_T(1, 2, 6, 6, 6), [2, 2, 2], [2, 2, 2, 1, 1, 1], [0, 0, 0]),
    TorchMlirInvocation(_T(2, 9, 8, 7), [3, 2, 1], [1, 2, 1, 2, 1, 1], [1, 0, 0, 0, 1, 0]),
    ErrorInvocation(_T(1, 2, 6, 6, 6), [2, 2, 2], [2, 2, 2, 1, 1, 0]),
])
def aten〇avg_pool3d〡shape(self: List[int], kernel_size: List[int], stride: List[int] = (), padding: List[int] = (0, 0, 0), ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: Optional[int] = None) -> List[int]:
    _check_divisor("avg_pool3d", divisor_override)
    if _is_onnx_pool_form(3, stride, padding):
        return _onnx_avg_pool_shape("avg_pool3d", 3, self, kernel_size, stride, padding, ceil_mode)
    return _pool3d_shape("avg_pool3d", self, kernel_size, stride, padding, [1], ceil_mode, True)


@dtype("aten.avg_pool3d", invocations=[Invocation(_T(1, 2, 4, 4, 4, dtype=d), [2]) for d in _SWEEP]
    + [ErrorInvocation(_T(1, 2, 4, 4, 4, dtype=torch.uint8), [2])])
def aten〇avg_pool3d〡dtype(self_rank_dtype: Tuple[int, int], kernel_size: List[int], stride: List[int] = (), padding: List[int] = (0, 0, 0), ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: Optional[int] = None) -> int:
    _check_avg_pool_dtype("avg_pool3d", self_rank_dtype[1])
    return self_rank_dtype[1]


# ---------------------------------------------------------------------------- adaptive pooling


def _check_output_size(op: str, output_size: List[int]) -> None:
    for size in output_size:
        if size < 0:
            raise AssertionError(
                op + ": elements of output_size must be greater than or equal to 0")


def _adaptive_shape(op: str, self: List[int], output_size: List[int], n: int) -> List[int]:
    """The leading dims of a rank n+1 or n+2 input followed by `output_size`."""
    if len(self) != n + 1 and len(self) != n + 2:
        raise AssertionError(op + ": expected an unbatched or batched input of the right rank")
    _check_output_size(op, output_size)
    # The leading dims' strides are products of the output sizes: their overflow is an
    # error whatever the leading dims are (0 too), which the checks over `out` would leave
    # undecided where those are dynamic.
    check_contiguous_strides_fit(op, [1] + output_size)
    out = self[:-n]
    for size in output_size:
        out.append(size)
    check_contiguous_strides_fit(op, out)
    check_numel_fits(op, out)
    return out


_ADAPTIVE_2D_CASES = [
    Invocation(_T(2, 3, 8, 8), [2, 3]),
    Invocation(_T(3, 8, 8), [2, 3]),
    Invocation(_T(2, 0, 8, 8), [2, 3]),
    Invocation(_T(0, 3, 8, 8), [1, 1]),
    Invocation(_T(2, 3, 0, 8), [2, 3]),
    Invocation(_T(2, 3, 8, 8), [0, 3]),
    ErrorInvocation(_T(8, 8), [2, 3]),
    ErrorInvocation(_T(2, 3, 8, 8), [-1, 3]),
    ErrorInvocation(_T(2, 3, 8, 8), [4611686018427387904, 3]),
    ErrorInvocation(_T(0, 3, 8, 8), [4611686018427387904, 3]),
    ErrorInvocation(_T(2, 3, 8, 8), [9223372036854775807, 3]),
    ErrorInvocation(_T(2, 2, 8, 8), [0, 9223372036854775807]),
    Invocation(_T(2, 1, 8, 8), [0, 9223372036854775807]),
]


@shape("aten._adaptive_avg_pool2d", invocations=_ADAPTIVE_2D_CASES + [
    Invocation(_T(2, 3, 8, 8), [2]),
    Invocation(_T(2, 3, 8, 8), [2, 2, 2]),
])
def aten〇_adaptive_avg_pool2d〡shape(self: List[int], output_size: List[int]) -> List[int]:
    # The kernel takes output_size as it is; adaptive_avg_pool2d checks its length.
    return _adaptive_shape("_adaptive_avg_pool2d", self, output_size, 2)


@dtype("aten._adaptive_avg_pool2d", invocations=[
    Invocation(_T(2, 3, 8, 8, dtype=d), [2, 3]) for d in _SWEEP])
def aten〇_adaptive_avg_pool2d〡dtype(self_rank_dtype: Tuple[int, int], output_size: List[int]) -> int:
    return self_rank_dtype[1]


@shape("aten.adaptive_avg_pool2d", invocations=_ADAPTIVE_2D_CASES + [
    ErrorInvocation(_T(2, 3, 8, 8), [2]),
    ErrorInvocation(_T(2, 3, 8, 8), [2, 2, 2]),
])
def aten〇adaptive_avg_pool2d〡shape(self: List[int], output_size: List[int]) -> List[int]:
    if len(output_size) != 2:
        raise AssertionError("adaptive_avg_pool2d: output_size must be 2")
    return _adaptive_shape("adaptive_avg_pool2d", self, output_size, 2)


@dtype("aten.adaptive_avg_pool2d", invocations=[
    Invocation(_T(2, 3, 8, 8, dtype=d), [2, 3]) for d in _SWEEP])
def aten〇adaptive_avg_pool2d〡dtype(self_rank_dtype: Tuple[int, int], output_size: List[int]) -> int:
    return self_rank_dtype[1]


@shape("aten._adaptive_avg_pool3d", invocations=[
    Invocation(_T(2, 3, 8, 8, 8), [2, 3, 4]),
    Invocation(_T(3, 8, 8, 8), [2, 3, 4]),
    Invocation(_T(2, 0, 8, 8, 8), [2, 3, 4]),
    Invocation(_T(2, 3, 8, 8, 8), [0, 3, 4]),
    Invocation(_T(2, 3, 8, 8, 8), [2]),
    ErrorInvocation(_T(8, 8, 8), [2, 3, 4]),
    ErrorInvocation(_T(2, 3, 8, 8, 8), [2, -3, 4]),
    ErrorInvocation(_T(2, 0, 8, 8, 8), [9223372036854775807, 3, 4]),
])
def aten〇_adaptive_avg_pool3d〡shape(self: List[int], output_size: List[int]) -> List[int]:
    return _adaptive_shape("_adaptive_avg_pool3d", self, output_size, 3)


@dtype("aten._adaptive_avg_pool3d", invocations=[
    Invocation(_T(2, 3, 8, 8, 8, dtype=d), [2, 3, 4]) for d in _SWEEP])
def aten〇_adaptive_avg_pool3d〡dtype(self_rank_dtype: Tuple[int, int], output_size: List[int]) -> int:
    return self_rank_dtype[1]


@shape("aten.adaptive_avg_pool1d", invocations=[
    Invocation(_T(2, 3, 8), [4]),
    Invocation(_T(3, 8), [4]),
    Invocation(_T(2, 0, 8), [4]),
    Invocation(_T(2, 3, 0), [4]),
    Invocation(_T(2, 3, 8), [0]),
    ErrorInvocation(_T(1, 2, 3, 8), [4]),
    ErrorInvocation(_T(2, 3, 8), [4, 4]),
    ErrorInvocation(_T(2, 3, 8), [-4]),
])
def aten〇adaptive_avg_pool1d〡shape(self: List[int], output_size: List[int]) -> List[int]:
    if len(output_size) != 1:
        raise AssertionError("adaptive_avg_pool1d: output_size should contain one int")
    return _adaptive_shape("adaptive_avg_pool1d", self, output_size, 1)


@dtype("aten.adaptive_avg_pool1d", invocations=[
    Invocation(_T(2, 3, 8, dtype=d), [4]) for d in _SWEEP])
def aten〇adaptive_avg_pool1d〡dtype(self_rank_dtype: Tuple[int, int], output_size: List[int]) -> int:
    return self_rank_dtype[1]


@shape("aten._adaptive_avg_pool2d_backward", invocations=[
    Invocation(_T(2, 3, 2, 2), _T(2, 3, 8, 8)),
    Invocation(_T(3, 2, 2), _T(3, 8, 8)),
    Invocation(_T(0, 3, 2, 2), _T(0, 3, 8, 8)),
    ErrorInvocation(_T(2, 0, 2, 2), _T(2, 0, 8, 8)),
    ErrorInvocation(_T(1, 2, 3, 2, 2), _T(1, 2, 3, 8, 8)),
])
def aten〇_adaptive_avg_pool2d_backward〡shape(grad_output: List[int], self: List[int]) -> List[int]:
    for i in range(1, len(grad_output)):
        if grad_output[i] <= 0:
            raise AssertionError(
                "_adaptive_avg_pool2d_backward: expected grad_output to have non-zero sizes for"
                " non-batch dims")
    if len(grad_output) != 3 and len(grad_output) != 4:
        raise AssertionError("_adaptive_avg_pool2d_backward: expected a 3D or 4D grad_output")
    return upstream._copy(self)


@dtype("aten._adaptive_avg_pool2d_backward", invocations=[
    Invocation(_T(2, 3, 2, 2, dtype=a), _T(2, 3, 8, 8, dtype=b))
    for a, b in itertools.product(_SWEEP, (torch.float32, torch.int64, torch.bfloat16))]
    + [ErrorInvocation(_T(2, 3, 2, 2, dtype=torch.uint8), _T(2, 3, 8, 8))])
def aten〇_adaptive_avg_pool2d_backward〡dtype(grad_output_rank_dtype: Tuple[int, int], self_rank_dtype: Tuple[int, int]) -> int:
    if grad_output_rank_dtype[1] != self_rank_dtype[1]:
        raise AssertionError(
            "_adaptive_avg_pool2d_backward: expected grad_output to have the dtype of self")
    return self_rank_dtype[1]


# ---------------------------------------------------------------------------- padding


def _pad_shape(op: str, self: List[int], padding: List[int], n: int,
               is_reflection: bool) -> List[int]:
    """Reflection/replication padding of the last `n` dims of a rank n+1 or n+2 input."""
    if len(padding) != 2 * n:
        raise AssertionError(
            op + ": padding size is expected to be twice the number of padded dims")
    if len(self) != n + 1 and len(self) != n + 2:
        raise AssertionError(op + ": expected an unbatched or batched input of the right rank")
    return _padded_last_dims(op, self, padding, is_reflection, len(self) - n - 1)


def _padded_last_dims(op: str, self: List[int], padding: List[int], is_reflection: bool,
                      first_non_empty: int) -> List[int]:
    """Reflection/replication padding of the last len(padding) // 2 dims; the dims from
    `first_non_empty` on must not be empty."""
    n = len(padding) // 2
    for i in range(first_non_empty, len(self)):
        if self[i] == 0:
            raise AssertionError(op + ": expected non-zero sizes except for the batch dim")
    out = upstream._copy(self)
    any_positive = False
    for i in range(n):
        # padding lists pairs for the last dim first.
        dim = len(self) - 1 - i
        before = padding[2 * i]
        after = padding[2 * i + 1]
        if is_reflection and (before >= self[dim] or after >= self[dim]):
            raise AssertionError(
                op + ": padding size should be less than the corresponding input dimension")
        out[dim] = padded_size(op, self[dim], before, after)
        any_positive = any_positive or out[dim] >= 1
    if n > 0 and not any_positive:
        raise AssertionError(op + ": input is too small for the padding")
    check_numel_fits(op, out)
    return out


@shape("aten.reflection_pad1d", invocations=[
    Invocation(_T(2, 3, 5), [1, 2]),
    Invocation(_T(3, 5), [4, 0]),
    Invocation(_T(0, 3, 5), [1, 1]),
    Invocation(_T(2, 5), [-2, 1]),
    ErrorInvocation(_T(2, 5), [-3, -3]),
    ErrorInvocation(_T(2, 5), [5, 0]),
    ErrorInvocation(_T(2, 5), [1]),
    ErrorInvocation(_T(5), [1, 1]),
    ErrorInvocation(_T(2, 0, 5), [1, 1]),
])
def aten〇reflection_pad1d〡shape(self: List[int], padding: List[int]) -> List[int]:
    return _pad_shape("reflection_pad1d", self, padding, 1, True)


@dtype("aten.reflection_pad1d", invocations=[Invocation(_T(2, 5, dtype=d), [1, 1]) for d in _SWEEP])
def aten〇reflection_pad1d〡dtype(self_rank_dtype: Tuple[int, int], padding: List[int]) -> int:
    return self_rank_dtype[1]


@shape("aten.reflection_pad2d", invocations=[
    Invocation(_T(2, 3, 5, 6), [1, 2, 3, 4]),
    Invocation(_T(3, 5, 6), [0, 5, 4, 0]),
    Invocation(_T(0, 3, 5, 6), [1, 1, 1, 1]),
    Invocation(_T(3, 5, 6), [-2, -2, 1, 1]),
    ErrorInvocation(_T(3, 5, 6), [1, 6, 0, 0]),
    ErrorInvocation(_T(3, 5, 6), [1, 1, 5, 0]),
    ErrorInvocation(_T(5, 6), [1, 1, 1, 1]),
    ErrorInvocation(_T(3, 5, 6), [1, 1]),
])
def aten〇reflection_pad2d〡shape(self: List[int], padding: List[int]) -> List[int]:
    return _pad_shape("reflection_pad2d", self, padding, 2, True)


@dtype("aten.reflection_pad2d", invocations=[
    Invocation(_T(2, 5, 5, dtype=d), [1, 1, 1, 1]) for d in _SWEEP])
def aten〇reflection_pad2d〡dtype(self_rank_dtype: Tuple[int, int], padding: List[int]) -> int:
    return self_rank_dtype[1]


@shape("aten.reflection_pad3d", invocations=[
    Invocation(_T(2, 3, 5, 6, 7), [1, 2, 3, 4, 0, 1]),
    Invocation(_T(3, 5, 6, 7), [1, 1, 1, 1, 1, 1]),
    Invocation(_T(0, 3, 5, 6, 7), [1, 1, 1, 1, 1, 1]),
    ErrorInvocation(_T(3, 5, 6, 7), [1, 1, 1, 1, 5, 1]),
    ErrorInvocation(_T(3, 5, 6, 7), [1, 1, 1, 1]),
    ErrorInvocation(_T(5, 6, 7), [1, 1, 1, 1, 1, 1]),
])
def aten〇reflection_pad3d〡shape(self: List[int], padding: List[int]) -> List[int]:
    return _pad_shape("reflection_pad3d", self, padding, 3, True)


@dtype("aten.reflection_pad3d", invocations=[
    Invocation(_T(2, 5, 5, 5, dtype=d), [1, 1, 1, 1, 1, 1]) for d in _SWEEP])
def aten〇reflection_pad3d〡dtype(self_rank_dtype: Tuple[int, int], padding: List[int]) -> int:
    return self_rank_dtype[1]


@shape("aten.replication_pad2d", invocations=[
    Invocation(_T(2, 3, 5, 6), [1, 2, 3, 4]),
    Invocation(_T(3, 5, 6), [7, 7, 0, 0]),
    Invocation(_T(0, 3, 5, 6), [1, 1, 1, 1]),
    Invocation(_T(2, 5, 5), [-5, 0, 0, 0]),
    ErrorInvocation(_T(2, 5, 5), [-5, 0, -5, 0]),
    ErrorInvocation(_T(2, 5, 5), [-6, 0, 0, 0]),
    ErrorInvocation(_T(5, 6), [1, 1, 1, 1]),
])
def aten〇replication_pad2d〡shape(self: List[int], padding: List[int]) -> List[int]:
    return _pad_shape("replication_pad2d", self, padding, 2, False)


def _check_replication_pad_dtype(op: str, dtype: int) -> None:
    if dtype == 11:
        raise AssertionError(op + ": not implemented for bool tensors")


@dtype("aten.replication_pad2d", invocations=[
    Invocation(_T(2, 5, 5, dtype=d), [1, 1, 1, 1]) for d in _SWEEP]
    + [ErrorInvocation(_T(2, 5, 5, dtype=torch.bool), [1, 1, 1, 1])])
def aten〇replication_pad2d〡dtype(self_rank_dtype: Tuple[int, int], padding: List[int]) -> int:
    _check_replication_pad_dtype("replication_pad2d", self_rank_dtype[1])
    return self_rank_dtype[1]


@shape("aten.replication_pad3d", invocations=[
    Invocation(_T(2, 3, 5, 6, 7), [1, 2, 3, 4, 0, 1]),
    Invocation(_T(3, 5, 6, 7), [9, 9, 1, 1, 1, 1]),
    Invocation(_T(0, 3, 5, 6, 7), [1, 1, 1, 1, 1, 1]),
    ErrorInvocation(_T(3, 5, 6, 7), [1, 1, 1, 1]),
    ErrorInvocation(_T(5, 6, 7), [1, 1, 1, 1, 1, 1]),
    Invocation(_T(3, 5, 6, 7), [-7, 0, 1, 1, 1, 1]),
    ErrorInvocation(_T(3, 5, 6, 7), [-8, 0, 1, 1, 1, 1]),
    ErrorInvocation(_T(2, 1, 1, 5), [1, 1, 2**63 - 1, 1, 1, 0]),
    ErrorInvocation(_T(2, 3, 1, 5), [1, 1, 2**63 - 1, 2**63 - 1, 1, 0]),
    ErrorInvocation(_T(2, 5, 1, 1), [1, 1, 1, 1, 2**62, 1]),
])
def aten〇replication_pad3d〡shape(self: List[int], padding: List[int]) -> List[int]:
    return _pad_shape("replication_pad3d", self, padding, 3, False)


@dtype("aten.replication_pad3d", invocations=[
    Invocation(_T(2, 5, 5, 5, dtype=d), [1, 1, 1, 1, 1, 1]) for d in _SWEEP]
    + [ErrorInvocation(_T(2, 5, 5, 5, dtype=torch.bool), [1, 1, 1, 1, 1, 1])])
def aten〇replication_pad3d〡dtype(self_rank_dtype: Tuple[int, int], padding: List[int]) -> int:
    _check_replication_pad_dtype("replication_pad3d", self_rank_dtype[1])
    return self_rank_dtype[1]


# ---------------------------------------------------------------------------- upsampling


def _upsample_output_size(op: str, input: List[int], output_size: Optional[List[int]],
                          scale_factors: Optional[List[float]]) -> List[int]:
    """The spatial output sizes from exactly one of output_size and scale_factors."""
    if (output_size is None) == (scale_factors is None):
        raise AssertionError(op + ": must specify exactly one of output_size and scale_factors")
    spatial = len(input) - 2
    if output_size is not None:
        if len(output_size) != spatial:
            raise AssertionError(op + ": output_size must have one size per spatial dim")
        return upstream._copy(output_size)
    assert scale_factors is not None
    if len(scale_factors) != spatial:
        raise AssertionError(op + ": scale_factors must have one factor per spatial dim")
    sizes: List[int] = []
    for i in range(spatial):
        sizes.append(int(float(input[i + 2]) * scale_factors[i]))
    return sizes


def _upsample_2d_vec_shape(op: str, input: List[int], output_size: Optional[List[int]],
                           scale_factors: Optional[List[float]]) -> List[int]:
    """upsample_bilinear2d.vec and upsample_bicubic2d.vec as PyTorch's decompositions (what
    FakeTensor and torch.export give) check them: they accept empty channels and spatial dims,
    which the CPU and CUDA kernels reject."""
    sizes = _upsample_output_size(op, input, output_size, scale_factors)
    if len(input) != 4:
        raise AssertionError(op + ": expected a 4D input")
    for size in sizes:
        # PyTorch accepts a zero size computed from scale_factors but not a given one.
        if size < 0 or (size == 0 and output_size is not None):
            raise AssertionError(op + ": output sizes should be greater than 0")
    out = [input[0], input[1], sizes[0], sizes[1]]
    check_numel_fits(op, out)
    return out


@shape("aten.upsample_nearest2d.vec", invocations=[
    Invocation(_T(1, 2, 5, 5), [3, 4], None),
    Invocation(_T(1, 2, 5, 5), None, [2.0, 1.5]),
    Invocation(_T(1, 2, 5, 7), None, [1.3, 0.5]),
    ErrorInvocation(_T(1, 2, 5, 5), [3, 3], [2.0, 1.5]),
    ErrorInvocation(_T(1, 2, 5, 5), None, None),
    ErrorInvocation(_T(2, 5, 5), [3, 3], None),
    ErrorInvocation(_T(1, 2, 5, 5), [3], None),
    ErrorInvocation(_T(1, 2, 5, 5), [0, 3], None),
    ErrorInvocation(_T(1, 2, 0, 5), [3, 3], None),
    ErrorInvocation(_T(1, 2, 5, 5), None, [0.1, 1.0]),
    ErrorInvocation(_T(1, 2, 5, 5), None, [2.0]),
    ErrorInvocation(_T(1, 2, 5, 5), [2**62, 4], None),  # element count past int64
])
def aten〇upsample_nearest2d〇vec〡shape(input: List[int], output_size: Optional[List[int]], scale_factors: Optional[List[float]]) -> List[int]:
    sizes = _upsample_output_size("upsample_nearest2d", input, output_size, scale_factors)
    if len(input) != 4:
        raise AssertionError("upsample_nearest2d: expected a 4D input")
    # A zero batch is fine (PyTorch's meta kernel rejects any empty input, the CPU kernel does not).
    for i in range(1, 4):
        if input[i] <= 0:
            raise AssertionError("upsample_nearest2d: input sizes should be greater than 0")
    for size in sizes:
        if size <= 0:
            raise AssertionError("upsample_nearest2d: output sizes should be greater than 0")
    out = [input[0], input[1], sizes[0], sizes[1]]
    check_numel_fits("upsample_nearest2d", out)
    return out


@dtype("aten.upsample_nearest2d.vec", invocations=_interpolation_dtype_cases(
    lambda d: (_T(1, 2, 5, 5, dtype=d), [3, 4], None)))
def aten〇upsample_nearest2d〇vec〡dtype(input_rank_dtype: Tuple[int, int], output_size: Optional[List[int]], scale_factors: Optional[List[float]]) -> int:
    _check_interpolation_dtype("upsample_nearest2d", input_rank_dtype[1])
    return input_rank_dtype[1]


# Cases every 2-D `.vec` interpolation shares (bicubic adds its own).
_UPSAMPLE_2D_VEC_CASES = [
    Invocation(_T(1, 2, 5, 5), [3, 4], False, None),
    Invocation(_T(1, 2, 5, 5), None, True, [2.0, 1.5]),
    Invocation(_T(1, 2, 5, 7), None, False, [1.3, 0.5]),
    Invocation(_T(0, 2, 5, 5), [3, 3], False, None),
    Invocation(_T(1, 0, 5, 5), [3, 3], False, None),
    Invocation(_T(1, 2, 5, 5), None, False, [0.1, 1.0]),
    ErrorInvocation(_T(1, 2, 5, 5), [3, 3], False, [2.0, 1.5]),
    ErrorInvocation(_T(1, 2, 5, 5), None, False, None),
    ErrorInvocation(_T(2, 5, 5), [3, 3], False, None),
    ErrorInvocation(_T(1, 1, 2, 5, 5), [3, 3], False, None),
    ErrorInvocation(_T(1, 2, 5, 5), [0, 3], False, None),
    ErrorInvocation(_T(1, 2, 5, 5), [-1, 3], False, None),
    ErrorInvocation(_T(1, 2, 5, 5), None, False, [-1.0, 1.0]),
]


@shape("aten.upsample_bilinear2d.vec", invocations=_UPSAMPLE_2D_VEC_CASES)
def aten〇upsample_bilinear2d〇vec〡shape(input: List[int], output_size: Optional[List[int]], align_corners: bool, scale_factors: Optional[List[float]]) -> List[int]:
    return _upsample_2d_vec_shape("upsample_bilinear2d", input, output_size, scale_factors)


@dtype("aten.upsample_bilinear2d.vec", invocations=_interpolation_dtype_cases(
    lambda d: (_T(1, 2, 5, 5, dtype=d), [3, 4], False, None)))
def aten〇upsample_bilinear2d〇vec〡dtype(input_rank_dtype: Tuple[int, int], output_size: Optional[List[int]], align_corners: bool, scale_factors: Optional[List[float]]) -> int:
    _check_interpolation_dtype("upsample_bilinear2d", input_rank_dtype[1])
    return input_rank_dtype[1]


@shape("aten.upsample_bicubic2d.vec", invocations=_UPSAMPLE_2D_VEC_CASES + [
    Invocation(_T(1, 2, 0, 5), [3, 3], False, None),
    ErrorInvocation(_T(1, 2, 5, 5), [3], False, None),
    ErrorInvocation(_T(1, 2, 5, 5), None, False, [2.0]),
])
def aten〇upsample_bicubic2d〇vec〡shape(input: List[int], output_size: Optional[List[int]], align_corners: bool, scale_factors: Optional[List[float]]) -> List[int]:
    return _upsample_2d_vec_shape("upsample_bicubic2d", input, output_size, scale_factors)


@dtype("aten.upsample_bicubic2d.vec", invocations=_interpolation_dtype_cases(
    lambda d: (_T(1, 2, 5, 5, dtype=d), [3, 4], False, None)))
def aten〇upsample_bicubic2d〇vec〡dtype(input_rank_dtype: Tuple[int, int], output_size: Optional[List[int]], align_corners: bool, scale_factors: Optional[List[float]]) -> int:
    _check_interpolation_dtype("upsample_bicubic2d", input_rank_dtype[1])
    return input_rank_dtype[1]


# ---------------------------------------------------------------------------- col2im, grid_sampler


@shape("aten.col2im", invocations=[
    Invocation(_T(1, 12, 12), [5, 5], [2, 3], [1, 1], [0, 0], [1, 1]),
    Invocation(_T(12, 12), [5, 5], [2, 3], [1, 1], [0, 0], [1, 1]),
    Invocation(_T(0, 12, 12), [5, 5], [2, 3], [1, 1], [0, 0], [1, 1]),
    Invocation(_T(2, 6, 9), [5, 5], [2, 3], [1, 1], [0, 1], [2, 2]),
    Invocation(_T(1, 4, 9), [6, 6], [2, 2], [2, 2], [1, 1], [2, 2]),
    ErrorInvocation(_T(1, 12, 15), [5, 5], [2, 3], [1, 1], [0, 0], [1, 1]),
    ErrorInvocation(_T(1, 13, 12), [5, 5], [2, 3], [1, 1], [0, 0], [1, 1]),
    ErrorInvocation(_T(1, 12, 12), [5, 5], [0, 3], [1, 1], [0, 0], [1, 1]),
    ErrorInvocation(_T(1, 12, 12), [5], [2, 3], [1, 1], [0, 0], [1, 1]),
    ErrorInvocation(_T(1, 1, 12, 12), [5, 5], [2, 3], [1, 1], [0, 0], [1, 1]),
    ErrorInvocation(_T(1, 12, 0), [5, 5], [2, 3], [1, 1], [0, 0], [1, 1]),
    ErrorInvocation(_T(1, 12, 12), [5, 5], [2, 3], [1, 1], [-1, 0], [1, 1]),
])
def aten〇col2im〡shape(self: List[int], output_size: List[int], kernel_size: List[int], dilation: List[int], padding: List[int], stride: List[int]) -> List[int]:
    for param in [output_size, kernel_size, dilation, padding, stride]:
        if len(param) != 2:
            raise AssertionError(
                "col2im: output_size, kernel_size, dilation, padding and stride must be 2D")
    for i in range(2):
        if kernel_size[i] <= 0 or dilation[i] <= 0 or stride[i] <= 0 or output_size[i] <= 0:
            raise AssertionError(
                "col2im: kernel_size, dilation, stride and output_size should be greater than zero")
        if padding[i] < 0:
            raise AssertionError("col2im: padding should be non-negative")
    if len(self) != 2 and len(self) != 3:
        raise AssertionError("col2im: expected a 2D or 3D (batch mode) input")
    if self[-2] == 0 or self[-1] == 0:
        raise AssertionError("col2im: expected non-zero sizes except for the batch dim")
    kernel_numel = kernel_size[0] * kernel_size[1]
    if self[-2] % kernel_numel != 0:
        raise AssertionError(
            "col2im: expected input.size(-2) to be divisible by the product of kernel_size")
    blocks = 1
    for i in range(2):
        kernel_extent = dilation[i] * (kernel_size[i] - 1) + 1
        blocks = blocks * ((output_size[i] + 2 * padding[i] - kernel_extent) // stride[i] + 1)
    if self[-1] != blocks or blocks <= 0:
        raise AssertionError("col2im: input.size(-1) does not match the number of sliding blocks")
    out = self[:-2]
    out.append(self[-2] // kernel_numel)
    out.append(output_size[0])
    out.append(output_size[1])
    return out


@dtype("aten.col2im", invocations=[
    Invocation(_T(1, 12, 12, dtype=d), [5, 5], [2, 3], [1, 1], [0, 0], [1, 1]) for d in _SWEEP])
def aten〇col2im〡dtype(self_rank_dtype: Tuple[int, int], output_size: List[int], kernel_size: List[int], dilation: List[int], padding: List[int], stride: List[int]) -> int:
    return self_rank_dtype[1]


@shape("aten.grid_sampler_2d", invocations=[
    Invocation(_T(2, 3, 5, 5), _T(2, 4, 6, 2), 0, 0, False),
    Invocation(_T(0, 3, 5, 5), _T(0, 4, 6, 2), 1, 2, True),
    Invocation(_T(2, 3, 0, 5), _T(2, 4, 6, 2), 2, 1, False),
    ErrorInvocation(_T(2, 3, 5, 5), _T(1, 4, 6, 2), 0, 0, False),
    ErrorInvocation(_T(2, 3, 5, 5), _T(2, 4, 6, 3), 0, 0, False),
    ErrorInvocation(_T(2, 3, 5), _T(2, 4, 6, 2), 0, 0, False),
    ErrorInvocation(_T(2, 3, 5, 5), _T(2, 4, 6, 2), 5, 0, False),
    ErrorInvocation(_T(2, 3, 5, 5), _T(2, 4, 6, 2), 0, 5, False),
])
def aten〇grid_sampler_2d〡shape(input: List[int], grid: List[int], interpolation_mode: int, padding_mode: int, align_corners: bool) -> List[int]:
    if interpolation_mode < 0 or interpolation_mode > 2:
        raise AssertionError("grid_sampler_2d: invalid interpolation mode")
    if padding_mode < 0 or padding_mode > 2:
        raise AssertionError("grid_sampler_2d: invalid padding mode")
    if len(input) != 4 or len(grid) != 4:
        raise AssertionError("grid_sampler_2d: expected 4D input and grid")
    if grid[3] != 2:
        raise AssertionError("grid_sampler_2d: grid last dimension must be 2 (for x,y coords)")
    if grid[0] != input[0]:
        raise AssertionError("grid_sampler_2d: input and grid must have the same batch size")
    return [input[0], input[1], grid[1], grid[2]]


@dtype("aten.grid_sampler_2d", invocations=[
    Invocation(_T(2, 3, 5, 5, dtype=a), _T(2, 4, 6, 2, dtype=b), mode, 0, False)
    for a, b in itertools.product(_SWEEP, _SWEEP) for mode in (0, 1)])
def aten〇grid_sampler_2d〡dtype(input_rank_dtype: Tuple[int, int], grid_rank_dtype: Tuple[int, int], interpolation_mode: int, padding_mode: int, align_corners: bool) -> int:
    # PyTorch decomposes the op into elementwise arithmetic on both tensors.
    ranks, dtypes = rank_dtype_lists([input_rank_dtype, grid_rank_dtype])
    return promote_dtypes(ranks, dtypes)


# ---------------------------------------------------------------------------- more convolutions


_CONVOLUTION_FLAGS = (False, False, True)  # benchmark, deterministic, cudnn_enabled


def _with_flags(invocations, flags):
    """The cases of aten.convolution with the backend flags of `_convolution` appended."""
    return [type(case)(*case.args, *flags) for case in invocations]


_CONVOLUTION_CASES = [
    Invocation(_T(1, 2, 5, 5), _T(3, 2, 3, 3), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1),
    Invocation(_T(1, 2, 5, 5), _T(3, 2, 3, 3), _T(3), [2, 2], [1, 1], [1, 1], False, [0, 0], 1),
    Invocation(_T(2, 2, 9, 9), _T(3, 2, 3, 3), None, [2, 1], [1, 2], [2, 1], False, [0, 0], 1),
    Invocation(_T(1, 2, 5), _T(3, 2, 3), None, [1], [0], [1], False, [0], 1),
    Invocation(_T(1, 4, 5, 5), _T(6, 2, 3, 3), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 2),
    Invocation(_T(1, 2, 5, 5), _T(2, 3, 3, 3), None, [2, 2], [1, 1], [1, 1], True, [1, 1], 1),
    Invocation(_T(1, 4, 5, 5), _T(4, 3, 3, 3), _T(6), [2, 2], [1, 1], [1, 1], True, [1, 1], 2),
    ErrorInvocation(_T(1, 3, 5, 5), _T(3, 2, 3, 3), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1),
    ErrorInvocation(_T(1, 2, 2, 2), _T(3, 2, 3, 3), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1),
    ErrorInvocation(_T(1, 2, 5, 5), _T(3, 2, 3), None, [1], [0], [1], False, [0], 1),
    ErrorInvocation(_T(1, 4, 5, 5), _T(6, 2, 1, 3, 3), None, [1, 1], [0, 0],
                    [1, -4611686018427387904], False, [0, -1], 2),
    ErrorInvocation(_T(1, 2, 5, 5), _T(2, 3, 3, 3), None, [4611686018427387904, 1], [0, 0], [1, 1],
                    True, [0, 0], 1),
    # A negative stride (the meta rule's size would be negative) and padding.
    ErrorInvocation(_T(1, 2, 5, 5), _T(3, 2, 3, 3), None, [-1, 1], [0, 0], [1, 1], False, [0, 0], 1),
    ErrorInvocation(_T(1, 2, 5, 5), _T(2, 3, 3, 3), None, [-2, 2], [1, 1], [1, 1], True, [1, 1], 1),
    ErrorInvocation(_T(1, 2, 5, 5), _T(3, 2, 3, 3), None, [1, 1], [-4, 0], [1, 1], False, [0, 0], 1),
]


@shape("aten._convolution", invocations=_with_flags(_CONVOLUTION_CASES, (*_CONVOLUTION_FLAGS, True)))
def aten〇_convolution〡shape(input: List[int], weight: List[int], bias: Optional[List[int]], stride: List[int], padding: List[int], dilation: List[int], transposed: bool, output_padding: List[int], groups: int, benchmark: bool, deterministic: bool, cudnn_enabled: bool, allow_tf32: bool) -> List[int]:
    return _conv_shape(input, weight, stride, padding, dilation, transposed, output_padding, groups)


@dtype("aten._convolution", invocations=[
    Invocation(_T(1, 2, 5, 5, dtype=a), _T(3, 2, 3, 3, dtype=b), None, [1, 1], [0, 0], [1, 1],
               False, [0, 0], 1, *_CONVOLUTION_FLAGS, True)
    for a, b in itertools.product(_SWEEP, _SWEEP)])
def aten〇_convolution〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Tuple[int, int], bias_rank_dtype: Optional[Tuple[int, int]], stride: List[int], padding: List[int], dilation: List[int], transposed: bool, output_padding: List[int], groups: int, benchmark: bool, deterministic: bool, cudnn_enabled: bool, allow_tf32: bool) -> int:
    return input_rank_dtype[1]


@shape("aten._convolution.deprecated", invocations=_with_flags(_CONVOLUTION_CASES + [
    ErrorInvocation(_T(1, 2, 5, 5), _T(3, 2, 2, 3), None, [-9223372036854775807, 1], [-1, 0],
                    [-9223372036854775807, 0], False, [0, 0], 1),
    ErrorInvocation(_T(1, 2, 5, 5), _T(3, 2, 2, 3), None, [1, 1], [0, 0], [1, 1], False,
                    [0, -4611686018427387905], 1),
], _CONVOLUTION_FLAGS))
def aten〇_convolution〇deprecated〡shape(input: List[int], weight: List[int], bias: Optional[List[int]], stride: List[int], padding: List[int], dilation: List[int], transposed: bool, output_padding: List[int], groups: int, benchmark: bool, deterministic: bool, cudnn_enabled: bool) -> List[int]:
    # This overload's int lists become SymInts.
    check_symint_values("_convolution.deprecated", stride + padding + dilation + output_padding)
    return _conv_shape(input, weight, stride, padding, dilation, transposed, output_padding, groups)


@dtype("aten._convolution.deprecated", invocations=[
    Invocation(_T(1, 2, 5, 5, dtype=a), _T(3, 2, 3, 3, dtype=b), None, [1, 1], [0, 0], [1, 1],
               False, [0, 0], 1, *_CONVOLUTION_FLAGS)
    for a, b in itertools.product(_SWEEP, _SWEEP)])
def aten〇_convolution〇deprecated〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Tuple[int, int], bias_rank_dtype: Optional[Tuple[int, int]], stride: List[int], padding: List[int], dilation: List[int], transposed: bool, output_padding: List[int], groups: int, benchmark: bool, deterministic: bool, cudnn_enabled: bool) -> int:
    return input_rank_dtype[1]


@shape("aten.conv_tbc", invocations=[
    Invocation(_T(7, 2, 3), _T(3, 3, 4), _T(4)),
    Invocation(_T(7, 2, 3), _T(3, 3, 4), _T(4), 1),
    Invocation(_T(3, 2, 3), _T(3, 3, 4), _T(4)),
    ErrorInvocation(_T(7, 2, 3), _T(3, 2, 4), _T(4)),
    ErrorInvocation(_T(7, 2, 3), _T(3, 3, 4), _T(5)),
    ErrorInvocation(_T(7, 3), _T(3, 3, 4), _T(4)),
    ErrorInvocation(_T(7, 2, 3), _T(3, 3, 4, 1), _T(4)),
    ErrorInvocation(_T(7, 2, 3), _T(3, 3, 4), _T(1, 4)),
])
def aten〇conv_tbc〡shape(self: List[int], weight: List[int], bias: List[int], pad: int = 0) -> List[int]:
    # Time-batch-channel layout: weight is (kernel width, input channels, output channels).
    if len(self) != 3 or len(weight) != 3 or len(bias) != 1:
        raise AssertionError("conv_tbc: expected a 3D input, a 3D weight and a 1D bias")
    if self[2] != weight[1]:
        raise AssertionError("conv_tbc: input channels must match the weight's second dim")
    if bias[0] != weight[2]:
        raise AssertionError("conv_tbc: bias size must match the weight's output channels")
    return [self[0] + 2 * pad - weight[0] + 1, self[1], weight[2]]


@dtype("aten.conv_tbc", invocations=[
    Invocation(_T(7, 2, 3, dtype=a), _T(3, 3, 4, dtype=b), _T(4, dtype=b))
    for a, b in itertools.product(_SWEEP, (torch.float32, torch.float64, torch.int64))])
def aten〇conv_tbc〡dtype(self_rank_dtype: Tuple[int, int], weight_rank_dtype: Tuple[int, int], bias_rank_dtype: Tuple[int, int], pad: int = 0) -> int:
    return self_rank_dtype[1]


def _conv_transpose_shape(op: str, n: int, input: List[int], weight: List[int], stride: List[int],
                          padding: List[int], output_padding: List[int], groups: int,
                          dilation: List[int]) -> List[int]:
    """conv_transpose1d/2d/3d: a batched or unbatched input of `n` spatial dims."""
    if len(input) != n + 1 and len(input) != n + 2:
        raise AssertionError(op + ": expected an unbatched or batched input of the right rank")
    batched = input if len(input) == n + 2 else upstream.unsqueeze(input, 0)
    out = _conv_shape(batched, weight, stride, padding, dilation, True, output_padding, groups)
    return out if len(input) == n + 2 else out[1:]


@shape("aten.conv_transpose1d", invocations=[
    Invocation(_T(1, 2, 5), _T(2, 3, 3)),
    Invocation(_T(2, 5), _T(2, 3, 3), _T(3), [2], [1], [1], 1, [1]),
    Invocation(_T(1, 4, 5), _T(4, 3, 3), None, [3], [0], [2], 2, [2]),
    ErrorInvocation(_T(5), _T(2, 3, 3)),
    ErrorInvocation(_T(1, 1, 2, 5), _T(2, 3, 3)),
    ErrorInvocation(_T(1, 2, 1), _T(2, 3, 1), None, [1], [2]),
])
def aten〇conv_transpose1d〡shape(input: List[int], weight: List[int], bias: Optional[List[int]] = None, stride: List[int] = (1,), padding: List[int] = (0,), output_padding: List[int] = (0,), groups: int = 1, dilation: List[int] = (1,)) -> List[int]:
    return _conv_transpose_shape("conv_transpose1d", 1, input, weight, stride, padding,
                                 output_padding, groups, dilation)


@dtype("aten.conv_transpose1d", invocations=_convnd_dtype_invocations((1, 3, 5), (3, 2, 3)))
def aten〇conv_transpose1d〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Tuple[int, int], bias_rank_dtype: Optional[Tuple[int, int]] = None, stride: List[int] = (1,), padding: List[int] = (0,), output_padding: List[int] = (0,), groups: int = 1, dilation: List[int] = (1,)) -> int:
    return _convnd_padding_dtype("conv_transpose1d", input_rank_dtype[1], weight_rank_dtype[1],
                                 bias_rank_dtype)


@shape("aten.conv_transpose2d.input", invocations=[
    Invocation(_T(1, 2, 5, 5), _T(2, 3, 3, 3)),
    Invocation(_T(2, 5, 6), _T(2, 3, 3, 2), _T(3), [2, 1], [1, 0], [1, 0], 1, [1, 2]),
    Invocation(_T(1, 4, 5, 5), _T(4, 3, 3, 3), _T(6), [2], [1], [1], 2),
    Invocation(_T(0, 2, 5, 5), _T(2, 3, 3, 3)),
    ErrorInvocation(_T(5, 5), _T(2, 3, 3, 3)),
    ErrorInvocation(_T(1, 2, 1, 1), _T(2, 3, 1, 1), None, [1], [2]),
])
def aten〇conv_transpose2d〇input〡shape(input: List[int], weight: List[int], bias: Optional[List[int]] = None, stride: List[int] = (1, 1), padding: List[int] = (0, 0), output_padding: List[int] = (0, 0), groups: int = 1, dilation: List[int] = (1, 1)) -> List[int]:
    return _conv_transpose_shape("conv_transpose2d", 2, input, weight, stride, padding,
                                 output_padding, groups, dilation)


@dtype("aten.conv_transpose2d.input",
       invocations=_convnd_dtype_invocations((1, 3, 5, 5), (3, 2, 3, 3)))
def aten〇conv_transpose2d〇input〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Tuple[int, int], bias_rank_dtype: Optional[Tuple[int, int]] = None, stride: List[int] = (1, 1), padding: List[int] = (0, 0), output_padding: List[int] = (0, 0), groups: int = 1, dilation: List[int] = (1, 1)) -> int:
    return _convnd_padding_dtype("conv_transpose2d", input_rank_dtype[1], weight_rank_dtype[1],
                                 bias_rank_dtype)


@shape("aten.conv_transpose3d.input", invocations=[
    Invocation(_T(1, 2, 3, 4, 5), _T(2, 3, 3, 2, 1)),
    Invocation(_T(2, 3, 4, 5), _T(2, 3, 1, 2, 3), _T(3), [2], [0], [1], 1, [1, 2, 1]),
    ErrorInvocation(_T(3, 4, 5), _T(2, 3, 3, 2, 1)),
])
def aten〇conv_transpose3d〇input〡shape(input: List[int], weight: List[int], bias: Optional[List[int]] = None, stride: List[int] = (1, 1, 1), padding: List[int] = (0, 0, 0), output_padding: List[int] = (0, 0, 0), groups: int = 1, dilation: List[int] = (1, 1, 1)) -> List[int]:
    return _conv_transpose_shape("conv_transpose3d", 3, input, weight, stride, padding,
                                 output_padding, groups, dilation)


@dtype("aten.conv_transpose3d.input",
       invocations=_convnd_dtype_invocations((1, 3, 2, 2, 2), (3, 2, 1, 1, 1)))
def aten〇conv_transpose3d〇input〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Tuple[int, int], bias_rank_dtype: Optional[Tuple[int, int]] = None, stride: List[int] = (1, 1, 1), padding: List[int] = (0, 0, 0), output_padding: List[int] = (0, 0, 0), groups: int = 1, dilation: List[int] = (1, 1, 1)) -> int:
    return _convnd_padding_dtype("conv_transpose3d", input_rank_dtype[1], weight_rank_dtype[1],
                                 bias_rank_dtype)


# ---------------------------------------------------------------------------- more pooling


def _pool1d_shape(op: str, self: List[int], kernel_size: List[int], stride: List[int],
                  padding: List[int], dilation: List[int], ceil_mode: bool) -> List[int]:
    """max_pool1d: the 2d pool of the input with a unit dim inserted before the last."""
    for param in [kernel_size, padding, dilation]:
        if len(param) != 1:
            raise AssertionError(op + ": kernel_size, padding and dilation must contain one int")
    if len(stride) > 1:
        raise AssertionError(op + ": stride must be empty or contain one int")
    if len(self) != 2 and len(self) != 3:
        raise AssertionError(op + ": expected a 2D or 3D input")
    stride_2d = [1, kernel_size[0] if len(stride) == 0 else stride[0]]
    out = _pool2d_shape(op, upstream.unsqueeze(self, -2), [1, kernel_size[0]], stride_2d,
                        [0, padding[0]], [1, dilation[0]], ceil_mode)
    return upstream.squeeze(out, -2)


_MAX_POOL1D_CASES = [
    Invocation(_T(1, 2, 8), [2]),
    Invocation(_T(2, 8), [3], [2], [1], [2], True),
    Invocation(_T(0, 2, 8), [2], []),
    ErrorInvocation(_T(8), [2]),
    ErrorInvocation(_T(1, 2, 8), [2, 2]),
    ErrorInvocation(_T(1, 2, 8), [2], [1, 1]),
    ErrorInvocation(_T(1, 2, 8), [3], [1], [2]),
    ErrorInvocation(_T(1, 2, 2), [3]),
    ErrorInvocation(_T(1, 0, 8), [2]),
    ErrorInvocation(_T(1, 2, 8), [2], [0]),
]


@shape("aten.max_pool1d", invocations=_MAX_POOL1D_CASES)
def aten〇max_pool1d〡shape(self: List[int], kernel_size: List[int], stride: List[int] = (), padding: List[int] = (0,), dilation: List[int] = (1,), ceil_mode: bool = False) -> List[int]:
    return _pool1d_shape("max_pool1d", self, kernel_size, stride, padding, dilation, ceil_mode)


@dtype("aten.max_pool1d", invocations=[Invocation(_T(1, 2, 8, dtype=d), [2]) for d in _SWEEP])
def aten〇max_pool1d〡dtype(self_rank_dtype: Tuple[int, int], kernel_size: List[int], stride: List[int] = (), padding: List[int] = (0,), dilation: List[int] = (1,), ceil_mode: bool = False) -> int:
    return self_rank_dtype[1]


@shape("aten.max_pool1d_with_indices", invocations=_MAX_POOL1D_CASES)
def aten〇max_pool1d_with_indices〡shape(self: List[int], kernel_size: List[int], stride: List[int] = (), padding: List[int] = (0,), dilation: List[int] = (1,), ceil_mode: bool = False) -> Tuple[List[int], List[int]]:
    out = _pool1d_shape("max_pool1d_with_indices", self, kernel_size, stride, padding, dilation,
                        ceil_mode)
    return out, upstream._copy(out)


@dtype("aten.max_pool1d_with_indices", invocations=[
    Invocation(_T(1, 2, 8, dtype=d), [2]) for d in _SWEEP])
def aten〇max_pool1d_with_indices〡dtype(self_rank_dtype: Tuple[int, int], kernel_size: List[int], stride: List[int] = (), padding: List[int] = (0,), dilation: List[int] = (1,), ceil_mode: bool = False) -> Tuple[int, int]:
    return self_rank_dtype[1], 4  # int64 indices


@shape("aten.max_pool3d", invocations=[
    Invocation(_T(1, 2, 8, 8, 8), [2, 2, 2]),
    Invocation(_T(2, 8, 7, 6), [3], [2], [1], [1], True),
    Invocation(_T(1, 2, 9, 8, 7), [3, 2, 1], [2, 1, 1], [1, 1, 0], [2, 1, 1], False),
    Invocation(_T(0, 2, 8, 8, 8), [3, 3, 3]),
    ErrorInvocation(_T(0, 8, 8, 8), [3]),
    ErrorInvocation(_T(1, 2, 8, 8), [3, 3, 3]),
    ErrorInvocation(_T(1, 2, 8, 8, 8), [3], [], [2], [2]),
    ErrorInvocation(_T(1, 2, 2, 8, 8), [3]),
])
def aten〇max_pool3d〡shape(self: List[int], kernel_size: List[int], stride: List[int] = (), padding: List[int] = (0, 0, 0), dilation: List[int] = (1, 1, 1), ceil_mode: bool = False) -> List[int]:
    return _pool3d_shape("max_pool3d", self, kernel_size, stride, padding, dilation, ceil_mode,
                         False)


@dtype("aten.max_pool3d", invocations=[Invocation(_T(1, 2, 4, 4, 4, dtype=d), [2]) for d in _SWEEP])
def aten〇max_pool3d〡dtype(self_rank_dtype: Tuple[int, int], kernel_size: List[int], stride: List[int] = (), padding: List[int] = (0, 0, 0), dilation: List[int] = (1, 1, 1), ceil_mode: bool = False) -> int:
    return self_rank_dtype[1]


@shape("aten.adaptive_avg_pool3d", invocations=[
    Invocation(_T(2, 3, 8, 8, 8), [2, 3, 4]),
    Invocation(_T(3, 8, 8, 8), [2, 3, 4]),
    Invocation(_T(2, 0, 8, 8, 8), [2, 3, 4]),
    Invocation(_T(2, 3, 8, 8, 8), [0, 3, 4]),
    ErrorInvocation(_T(2, 3, 8, 8, 8), [2]),
    ErrorInvocation(_T(8, 8, 8), [2, 3, 4]),
    ErrorInvocation(_T(2, 3, 8, 8, 8), [2, -3, 4]),
    ErrorInvocation(_T(2, 3, 8, 8, 8), [4611686018427387904, 3, 4]),
])
def aten〇adaptive_avg_pool3d〡shape(self: List[int], output_size: List[int]) -> List[int]:
    if len(output_size) != 3:
        raise AssertionError("adaptive_avg_pool3d: output_size must be 3")
    return _adaptive_shape("adaptive_avg_pool3d", self, output_size, 3)


@dtype("aten.adaptive_avg_pool3d", invocations=[
    Invocation(_T(2, 3, 8, 8, 8, dtype=d), [2, 3, 4]) for d in _SWEEP])
def aten〇adaptive_avg_pool3d〡dtype(self_rank_dtype: Tuple[int, int], output_size: List[int]) -> int:
    return self_rank_dtype[1]


def _adaptive_max_shape(op: str, self: List[int], output_size: List[int],
                        n: int) -> Tuple[List[int], List[int]]:
    """adaptive_max_pool1d/2d/3d: the pooled sizes, twice (values and int64 indices)."""
    if len(self) != n + 1 and len(self) != n + 2:
        raise AssertionError(op + ": expected an unbatched or batched input of the right rank")
    for i in range(1, len(self)):
        if self[i] <= 0:
            raise AssertionError(op + ": expected non-zero sizes for the non-batch dims")
    if len(output_size) != n:
        raise AssertionError(op + ": output_size must have one size per pooled dim")
    out = _adaptive_shape(op, self, output_size, n)
    return out, upstream._copy(out)


@shape("aten.adaptive_max_pool1d", invocations=[
    Invocation(_T(2, 3, 8), [4]),
    Invocation(_T(3, 8), [5]),
    Invocation(_T(0, 3, 8), [4]),
    ErrorInvocation(_T(2, 0, 8), [4]),
    ErrorInvocation(_T(1, 2, 3, 8), [4]),
    ErrorInvocation(_T(2, 3, 8), [4, 4]),
])
def aten〇adaptive_max_pool1d〡shape(self: List[int], output_size: List[int]) -> Tuple[List[int], List[int]]:
    return _adaptive_max_shape("adaptive_max_pool1d", self, output_size, 1)


@shape("aten.adaptive_max_pool2d", invocations=[
    Invocation(_T(2, 3, 8, 8), [2, 3]),
    Invocation(_T(3, 8, 8), [4, 4]),
    Invocation(_T(0, 3, 8, 8), [2, 3]),
    ErrorInvocation(_T(2, 3, 0, 8), [2, 3]),
    ErrorInvocation(_T(8, 8), [2, 3]),
    ErrorInvocation(_T(2, 3, 8, 8), [2]),
])
def aten〇adaptive_max_pool2d〡shape(self: List[int], output_size: List[int]) -> Tuple[List[int], List[int]]:
    return _adaptive_max_shape("adaptive_max_pool2d", self, output_size, 2)


@shape("aten.adaptive_max_pool3d", invocations=[
    Invocation(_T(2, 3, 8, 8, 8), [2, 3, 4]),
    Invocation(_T(3, 8, 8, 8), [2, 3, 4]),
    ErrorInvocation(_T(2, 3, 8, 0, 8), [2, 3, 4]),
    ErrorInvocation(_T(8, 8, 8), [2, 3, 4]),
    ErrorInvocation(_T(2, 3, 8, 8, 8), [2, 3]),
])
def aten〇adaptive_max_pool3d〡shape(self: List[int], output_size: List[int]) -> Tuple[List[int], List[int]]:
    return _adaptive_max_shape("adaptive_max_pool3d", self, output_size, 3)


@dtype("aten.adaptive_max_pool1d", invocations=[
    Invocation(_T(2, 3, 8, dtype=d), [4]) for d in _SWEEP])
def aten〇adaptive_max_pool1d〡dtype(self_rank_dtype: Tuple[int, int], output_size: List[int]) -> Tuple[int, int]:
    return self_rank_dtype[1], 4  # int64 indices


@dtype("aten.adaptive_max_pool2d", invocations=[
    Invocation(_T(2, 3, 8, 8, dtype=d), [2, 3]) for d in _SWEEP])
def aten〇adaptive_max_pool2d〡dtype(self_rank_dtype: Tuple[int, int], output_size: List[int]) -> Tuple[int, int]:
    return self_rank_dtype[1], 4  # int64 indices


@dtype("aten.adaptive_max_pool3d", invocations=[
    Invocation(_T(2, 3, 8, 8, 8, dtype=d), [2, 3, 4]) for d in _SWEEP])
def aten〇adaptive_max_pool3d〡dtype(self_rank_dtype: Tuple[int, int], output_size: List[int]) -> Tuple[int, int]:
    return self_rank_dtype[1], 4  # int64 indices


def _max_unpool_shape(op: str, self: List[int], indices: List[int],
                      output_size: List[int], n: int) -> List[int]:
    if len(output_size) != n:
        raise AssertionError(op + ": output_size must have one size per unpooled dim")
    if len(self) != n + 1 and len(self) != n + 2:
        raise AssertionError(op + ": expected an unbatched or batched input of the right rank")
    if self != indices:
        raise AssertionError(op + ": indices must have the shape of the input")
    for i in range(1, len(self)):
        if self[i] <= 0:
            raise AssertionError(op + ": expected non-zero sizes for the non-batch dims")
    return _adaptive_shape(op, self, output_size, n)


def _check_unpool_indices_dtype(op: str, dtype: int) -> None:
    if dtype != 4:
        raise AssertionError(op + ": elements in indices should be type int64")


@shape("aten.max_unpool2d", invocations=[
    Invocation(_T(2, 3, 4, 4), LongTensorOfShape(2, 3, 4, 4), [8, 8]),
    Invocation(_T(3, 4, 4), LongTensorOfShape(3, 4, 4), [8, 9]),
    Invocation(_T(0, 3, 4, 4), LongTensorOfShape(0, 3, 4, 4), [8, 8]),
    ErrorInvocation(_T(2, 3, 4, 4), LongTensorOfShape(2, 3, 4, 4), [8]),
    ErrorInvocation(_T(2, 3, 4, 4), LongTensorOfShape(2, 3, 4, 3), [8, 8]),
    ErrorInvocation(_T(4, 4), LongTensorOfShape(4, 4), [8, 8]),
    ErrorInvocation(_T(2, 0, 4, 4), LongTensorOfShape(2, 0, 4, 4), [8, 8]),
    ErrorInvocation(_T(2, 3, 4, 4), LongTensorOfShape(2, 3, 4, 4), [8, -1]),
])
def aten〇max_unpool2d〡shape(self: List[int], indices: List[int], output_size: List[int]) -> List[int]:
    return _max_unpool_shape("max_unpool2d", self, indices, output_size, 2)


@dtype("aten.max_unpool2d", invocations=[
    Invocation(_T(2, 3, 4, 4, dtype=d), LongTensorOfShape(2, 3, 4, 4), [8, 8]) for d in _SWEEP]
    + [ErrorInvocation(_T(2, 3, 4, 4), _T(2, 3, 4, 4, dtype=torch.int32), [8, 8])])
def aten〇max_unpool2d〡dtype(self_rank_dtype: Tuple[int, int], indices_rank_dtype: Tuple[int, int], output_size: List[int]) -> int:
    _check_unpool_indices_dtype("max_unpool2d", indices_rank_dtype[1])
    return self_rank_dtype[1]


@shape("aten.max_unpool3d", invocations=[
    Invocation(_T(2, 3, 2, 4, 4), LongTensorOfShape(2, 3, 2, 4, 4), [4, 8, 8], [2, 2, 2], [0, 0, 0]),
    Invocation(_T(3, 2, 4, 4), LongTensorOfShape(3, 2, 4, 4), [3, 8, 9], [1, 2, 2], [0, 1, 0]),
    ErrorInvocation(_T(3, 2, 4, 4), LongTensorOfShape(3, 2, 4, 4), [3, 8], [1, 2, 2], [0, 0, 0]),
    ErrorInvocation(_T(3, 2, 4, 4), LongTensorOfShape(3, 2, 4, 4), [3, 8, 8], [1, 2], [0, 0, 0]),
    ErrorInvocation(_T(3, 2, 4, 4), LongTensorOfShape(3, 2, 4, 4), [3, 8, 8], [1, 2, 2], [0, 0]),
    ErrorInvocation(_T(3, 2, 4, 4), LongTensorOfShape(3, 2, 4, 4), [3, 8, 8], [1, 0, 2], [0, 0, 0]),
    ErrorInvocation(_T(3, 2, 4, 4), LongTensorOfShape(3, 2, 4, 3), [3, 8, 8], [1, 2, 2], [0, 0, 0]),
    ErrorInvocation(_T(2, 4, 4), LongTensorOfShape(2, 4, 4), [3, 8, 8], [1, 2, 2], [0, 0, 0]),
])
def aten〇max_unpool3d〡shape(self: List[int], indices: List[int], output_size: List[int], stride: List[int], padding: List[int]) -> List[int]:
    if len(stride) != 3 or len(padding) != 3:
        raise AssertionError("max_unpool3d: stride and padding must have three elements")
    for s in stride:
        if s <= 0:
            raise AssertionError("max_unpool3d: strides should be greater than zero")
    return _max_unpool_shape("max_unpool3d", self, indices, output_size, 3)


@dtype("aten.max_unpool3d", invocations=[
    Invocation(_T(3, 2, 4, 4, dtype=d), LongTensorOfShape(3, 2, 4, 4), [3, 8, 8], [1, 2, 2],
               [0, 0, 0]) for d in _SWEEP]
    + [ErrorInvocation(_T(3, 2, 4, 4), _T(3, 2, 4, 4), [3, 8, 8], [1, 2, 2], [0, 0, 0])])
def aten〇max_unpool3d〡dtype(self_rank_dtype: Tuple[int, int], indices_rank_dtype: Tuple[int, int], output_size: List[int], stride: List[int], padding: List[int]) -> int:
    _check_unpool_indices_dtype("max_unpool3d", indices_rank_dtype[1])
    return self_rank_dtype[1]


# ---------------------------------------------------------------------------- more upsampling


def _upsample_shape(op: str, input: List[int], output_size: List[int], n: int,
                    check_input_sizes: bool) -> List[int]:
    """upsample_*{n}d with a given output_size (PyTorch's upsample_common_check)."""
    if len(output_size) != n:
        raise AssertionError(op + ": output_size must have one size per spatial dim")
    if len(input) != n + 2:
        raise AssertionError(op + ": expected a batched input with channels")
    for i in range(1, len(input)):
        if check_input_sizes and input[i] <= 0:
            raise AssertionError(op + ": input sizes should be greater than 0 except the batch")
    for size in output_size:
        if size <= 0:
            raise AssertionError(op + ": output sizes should be greater than 0")
    out = input[:2]
    for size in output_size:
        out.append(size)
    check_numel_fits(op, out)
    check_contiguous_strides_fit(op, out)  # an empty batch still has strides
    return out


@shape("aten.upsample_nearest1d", invocations=[
    Invocation(_T(1, 2, 5), [7]),
    Invocation(_T(1, 2, 5), [3], 0.5),
    ErrorInvocation(_T(1, 2, 5), [3, 3]),
    ErrorInvocation(_T(2, 5), [3]),
    ErrorInvocation(_T(1, 2, 0), [3]),
    ErrorInvocation(_T(1, 0, 5), [3]),
    ErrorInvocation(_T(1, 2, 5), [0]),
    KernelErrorInvocation(_T(0, 3, 2), [2**62]),
])
def aten〇upsample_nearest1d〡shape(self: List[int], output_size: List[int], scales: Optional[float] = None) -> List[int]:
    return _upsample_shape("upsample_nearest1d", self, output_size, 1, True)


@dtype("aten.upsample_nearest1d", invocations=_interpolation_dtype_cases(
    lambda d: (_T(1, 2, 5, dtype=d), [7])))
def aten〇upsample_nearest1d〡dtype(self_rank_dtype: Tuple[int, int], output_size: List[int], scales: Optional[float] = None) -> int:
    _check_interpolation_dtype("upsample_nearest1d", self_rank_dtype[1])
    return self_rank_dtype[1]


@shape("aten.upsample_nearest2d", invocations=[
    Invocation(_T(1, 2, 5, 5), [7, 3]),
    Invocation(_T(2, 2, 5, 5), [3, 4], 0.5, 0.7),
    ErrorInvocation(_T(1, 2, 5, 5), [3]),
    ErrorInvocation(_T(2, 5, 5), [3, 3]),
    ErrorInvocation(_T(1, 2, 0, 5), [3, 3]),
    ErrorInvocation(_T(1, 0, 5, 5), [3, 3]),
    ErrorInvocation(_T(1, 2, 5, 5), [3, 0]),
])
def aten〇upsample_nearest2d〡shape(self: List[int], output_size: List[int], scales_h: Optional[float] = None, scales_w: Optional[float] = None) -> List[int]:
    return _upsample_shape("upsample_nearest2d", self, output_size, 2, True)


@dtype("aten.upsample_nearest2d", invocations=_interpolation_dtype_cases(
    lambda d: (_T(1, 2, 5, 5, dtype=d), [7, 3])))
def aten〇upsample_nearest2d〡dtype(self_rank_dtype: Tuple[int, int], output_size: List[int], scales_h: Optional[float] = None, scales_w: Optional[float] = None) -> int:
    _check_interpolation_dtype("upsample_nearest2d", self_rank_dtype[1])
    return self_rank_dtype[1]


@shape("aten.upsample_bilinear2d", invocations=[
    Invocation(_T(1, 2, 5, 5), [7, 3], False),
    Invocation(_T(0, 2, 5, 5), [3, 4], True, 0.5, 0.7),
    Invocation(_T(1, 0, 5, 5), [3, 3], False),
    ErrorInvocation(_T(1, 2, 5, 5), [3], False),
    Invocation(_T(1, 2, 0, 5), [3, 3], False),
    ErrorInvocation(_T(1, 2, 5, 5), [3, 0], False),
    ErrorInvocation(_T(1, 2, 0, 5), [3, 4611686018427387904], False),  # numel past int64
])
def aten〇upsample_bilinear2d〡shape(self: List[int], output_size: List[int], align_corners: bool, scales_h: Optional[float] = None, scales_w: Optional[float] = None) -> List[int]:
    # PyTorch's decomposition accepts empty channels and spatial dims (its CPU kernel does not).
    return _upsample_shape("upsample_bilinear2d", self, output_size, 2, False)


@dtype("aten.upsample_bilinear2d", invocations=_interpolation_dtype_cases(
    lambda d: (_T(1, 2, 5, 5, dtype=d), [7, 3], False)))
def aten〇upsample_bilinear2d〡dtype(self_rank_dtype: Tuple[int, int], output_size: List[int], align_corners: bool, scales_h: Optional[float] = None, scales_w: Optional[float] = None) -> int:
    _check_interpolation_dtype("upsample_bilinear2d", self_rank_dtype[1])
    return self_rank_dtype[1]


@shape("aten.upsample_bicubic2d", invocations=[
    Invocation(_T(1, 2, 5, 5), [7, 3], False),
    Invocation(_T(0, 2, 5, 5), [3, 4], True, 0.5, 0.7),
    Invocation(_T(1, 0, 5, 5), [3, 3], False),
    Invocation(_T(1, 2, 0, 5), [3, 3], False),
    ErrorInvocation(_T(1, 2, 5, 5), [3], False),
    ErrorInvocation(_T(2, 5, 5), [3, 3], False),
    ErrorInvocation(_T(1, 2, 5, 5), [3, 0], False),
])
def aten〇upsample_bicubic2d〡shape(self: List[int], output_size: List[int], align_corners: bool, scales_h: Optional[float] = None, scales_w: Optional[float] = None) -> List[int]:
    # As with bilinear, the decomposition accepts empty channels and spatial dims.
    return _upsample_shape("upsample_bicubic2d", self, output_size, 2, False)


@dtype("aten.upsample_bicubic2d", invocations=_interpolation_dtype_cases(
    lambda d: (_T(1, 2, 5, 5, dtype=d), [7, 3], False)))
def aten〇upsample_bicubic2d〡dtype(self_rank_dtype: Tuple[int, int], output_size: List[int], align_corners: bool, scales_h: Optional[float] = None, scales_w: Optional[float] = None) -> int:
    _check_interpolation_dtype("upsample_bicubic2d", self_rank_dtype[1])
    return self_rank_dtype[1]


@shape("aten.upsample_nearest1d.vec", invocations=[
    Invocation(_T(1, 2, 5), [3], None),
    Invocation(_T(1, 2, 5), None, [2.0]),
    Invocation(_T(1, 2, 7), None, [1.3]),
    ErrorInvocation(_T(1, 2, 5), [3], [2.0]),
    ErrorInvocation(_T(1, 2, 5), None, None),
    ErrorInvocation(_T(2, 5), [3], None),
    ErrorInvocation(_T(1, 2, 5), [3, 3], None),
    ErrorInvocation(_T(1, 2, 5), [0], None),
    ErrorInvocation(_T(1, 2, 0), [3], None),
    ErrorInvocation(_T(1, 2, 5), None, [0.1]),
])
def aten〇upsample_nearest1d〇vec〡shape(input: List[int], output_size: Optional[List[int]], scale_factors: Optional[List[float]]) -> List[int]:
    sizes = _upsample_output_size("upsample_nearest1d", input, output_size, scale_factors)
    return _upsample_shape("upsample_nearest1d", input, sizes, 1, True)


@dtype("aten.upsample_nearest1d.vec", invocations=_interpolation_dtype_cases(
    lambda d: (_T(1, 2, 5, dtype=d), [3], None)))
def aten〇upsample_nearest1d〇vec〡dtype(input_rank_dtype: Tuple[int, int], output_size: Optional[List[int]], scale_factors: Optional[List[float]]) -> int:
    _check_interpolation_dtype("upsample_nearest1d", input_rank_dtype[1])
    return input_rank_dtype[1]


@shape("aten.upsample_nearest2d_backward", invocations=[
    Invocation(_T(1, 2, 7, 3), [7, 3], [1, 2, 5, 5]),
    Invocation(_T(0, 2, 7, 3), [7, 3], [0, 2, 5, 5], 1.5, 0.5),
    ErrorInvocation(_T(1, 2, 7, 4), [7, 3], [1, 2, 5, 5]),
    ErrorInvocation(_T(1, 3, 7, 3), [7, 3], [1, 2, 5, 5]),
    ErrorInvocation(_T(2, 7, 3), [7, 3], [1, 2, 5, 5]),
    ErrorInvocation(_T(1, 2, 7, 3), [7], [1, 2, 5, 5]),
    ErrorInvocation(_T(1, 2, 7, 3), [7, 3], [2, 5, 5]),
    ErrorInvocation(_T(1, 2, 7, 0), [7, 0], [1, 2, 5, 5]),
    ErrorInvocation(_T(1, 2, 7, 3), [7, 3], [1, 2, 2**62, 5]),  # element count past int64
])
def aten〇upsample_nearest2d_backward〡shape(grad_output: List[int], output_size: List[int], input_size: List[int], scales_h: Optional[float] = None, scales_w: Optional[float] = None) -> List[int]:
    if len(output_size) != 2:
        raise AssertionError("upsample_nearest2d_backward: output_size must have two sizes")
    if len(input_size) != 4:
        raise AssertionError("upsample_nearest2d_backward: input_size must have four sizes")
    for size in input_size[2:] + output_size:
        if size <= 0:
            raise AssertionError(
                "upsample_nearest2d_backward: input and output sizes should be greater than 0")
    if grad_output != [input_size[0], input_size[1], output_size[0], output_size[1]]:
        raise AssertionError("upsample_nearest2d_backward: grad_output has the wrong sizes")
    check_numel_fits("upsample_nearest2d_backward", input_size)
    return upstream._copy(input_size)


@dtype("aten.upsample_nearest2d_backward", invocations=_interpolation_dtype_cases(
    lambda d: (_T(1, 2, 7, 3, dtype=d), [7, 3], [1, 2, 5, 5]), accepted=_INTERPOLATION_DTYPES[1:]))
def aten〇upsample_nearest2d_backward〡dtype(grad_output_rank_dtype: Tuple[int, int], output_size: List[int], input_size: List[int], scales_h: Optional[float] = None, scales_w: Optional[float] = None) -> int:
    _check_interpolation_dtype("upsample_nearest2d_backward", grad_output_rank_dtype[1], uint8=False)
    return grad_output_rank_dtype[1]


# ---------------------------------------------------------------------------- more padding


@shape("aten.replication_pad1d", invocations=[
    Invocation(_T(2, 3, 5), [1, 2]),
    Invocation(_T(3, 5), [7, 0]),
    Invocation(_T(0, 3, 5), [1, 1]),
    Invocation(_T(2, 5), [-2, 1]),
    ErrorInvocation(_T(2, 5), [-3, -3]),
    ErrorInvocation(_T(2, 5), [1]),
    ErrorInvocation(_T(5), [1, 1]),
    ErrorInvocation(_T(2, 0, 5), [1, 1]),
])
def aten〇replication_pad1d〡shape(self: List[int], padding: List[int]) -> List[int]:
    return _pad_shape("replication_pad1d", self, padding, 1, False)


@dtype("aten.replication_pad1d", invocations=[
    Invocation(_T(2, 5, dtype=d), [1, 1]) for d in _SWEEP]
    + [ErrorInvocation(_T(2, 5, dtype=torch.bool), [1, 1])])
def aten〇replication_pad1d〡dtype(self_rank_dtype: Tuple[int, int], padding: List[int]) -> int:
    _check_replication_pad_dtype("replication_pad1d", self_rank_dtype[1])
    return self_rank_dtype[1]


def _circular_pad_shape(self: List[int], pad: List[int]) -> List[int]:
    """Circular padding of the last len(pad) // 2 dims; a pad may not wrap around twice."""
    out = upstream._copy(self)
    for i in range(len(pad) // 2):
        dim = len(self) - 1 - i
        before = pad[2 * i]
        after = pad[2 * i + 1]
        if before > self[dim] or after > self[dim]:
            raise AssertionError(
                "pad: padding value causes wrapping around more than once")
        out[dim] = self[dim] + before + after
        if out[dim] < 0:
            raise AssertionError("pad: negative padding results in a negative output size")
    return out


@torch_mlir_meaning("aten.pad")
def _pad_as_torch_mlir(self: torch.Tensor, pad: List[int], mode: str = "constant",
                       value: Optional[float] = None) -> torch.Tensor:
    """aten.pad as torch-mlir decomposes it where PyTorch rejects the ranks: the trailing
    pairs of zeros dropped, the last dims left padded as a batch of the rank PyTorch takes."""
    kept = list(pad)
    while kept and kept[-2:] == [0, 0]:
        kept = kept[:-2]
    n = len(kept) // 2
    if n == 0:
        return self.clone()
    padded = torch.nn.functional.pad(self.reshape(-1, *self.shape[self.dim() - n:]), kept, mode)
    return padded.reshape(*self.shape[:self.dim() - n], *padded.shape[1:])


@shape("aten.pad", invocations=[
    Invocation(_T(2, 3, 5), [1, 2]),
    Invocation(_T(2, 3, 5), [1, 2, 0, 3, 1, 1], "constant", 1.5),
    Invocation(_T(2, 3, 5), [-1, -2]),
    Invocation(_T(2, 3, 5), [1, 2], "reflect"),
    Invocation(_T(2, 3, 5), [1, 2, 2, 1], "reflect"),
    Invocation(_T(2, 3, 4, 5), [1, 2, 2, 1, 1, 1], "replicate"),
    Invocation(_T(2, 3, 5), [1, 2], "circular"),
    Invocation(_T(2, 3, 5), [5, -2, 3, 0], "circular"),
    Invocation(_T(1, 2, 3, 4, 5), [1, 1, 1, 1, 1, 1], "circular"),
    ErrorInvocation(_T(2, 3, 5), [1]),
    ErrorInvocation(_T(2, 3, 5), [1, 1, 1, 1, 1, 1, 1, 1]),
    ErrorInvocation(_T(2, 3, 5), [-3, -3]),
    ErrorInvocation(_T(2, 3, 5), [1, 2], "reflect", 1.0),
    ErrorInvocation(_T(2, 3, 5), [5, 2], "reflect"),
    ErrorInvocation(_T(2, 3, 5), [6, 0], "circular"),
    ErrorInvocation(_T(2, 3, 5), [2**63 - 1, 2**63 - 1]),
    ErrorInvocation(_T(2, 3, 5), [1, 2], "wrap"),
    TorchMlirInvocation(_T(2, 3, 12, 8), [1, 2, 3, 0, 0, 0, 0, 0], "reflect"),
    TorchMlirInvocation(_T(2, 3, 12, 8), [1, 2, 3, 0, 0, 0, 0, 0], "replicate"),
    TorchMlirInvocation(_T(2, 3, 12, 8), [1, 2, 3, 0, 1, 1, 0, 0], "reflect"),
    TorchMlirInvocation(_T(3, 4), [1, 1, 2, 1], "reflect"),
    TorchMlirInvocation(_T(2, 2, 3, 4, 5), [1, 1], "replicate"),
    TorchMlirInvocation(_T(5), [1, 2], "replicate"),
    TorchMlirInvocation(_T(2, 3, 5), [1, 2, 1, 1, 1, 1], "replicate"),
    TorchMlirInvocation(_T(3, 5), [0, 0, 0, 0, 0, 0], "reflect"),
    TorchMlirInvocation(_T(3, 5), [], "replicate"),
    ErrorInvocation(_T(2, 3, 12, 8), [1, 1, 1, 1, 1, 1, 1, 1], "reflect"),
    ErrorInvocation(_T(2, 3, 12, 8), [8, 0, 0, 0, 0, 0, 0, 0], "reflect"),
    ErrorInvocation(_T(2, 3, 0, 8), [1, 2, 3, 0, 0, 0, 0, 0], "replicate"),
    ErrorInvocation(_T(2, 3, 5), [1, 2, 0, 0, 0, 0, 0, 0], "circular"),
])
def aten〇pad〡shape(self: List[int], pad: List[int], mode: str = 'constant', value: Optional[float] = None) -> List[int]:
    if len(pad) % 2 != 0:
        raise AssertionError("pad: padding length must be divisible by 2")
    if mode != "constant" and mode != "reflect" and mode != "replicate" and mode != "circular":
        raise AssertionError("pad: unrecognised padding mode " + mode)
    if mode != "constant" and value is not None and value != 0.0:
        raise AssertionError("pad: padding mode " + mode + " doesn't take in value argument")
    n = len(pad) // 2
    eager_ranks = n > 0 and n <= 3 and (len(self) == n + 1 or len(self) == n + 2)
    if mode != "circular" and mode != "constant" and not eager_ranks:
        return _pad_as_torch_mlir_decomposes(self, pad, mode == "reflect")
    if len(pad) > 2 * len(self):
        raise AssertionError("pad: padding length should be at most twice the input's rank")
    if mode == "constant":
        return aten〇constant_pad_nd〡shape(self, pad)
    if not eager_ranks:
        raise AssertionError(
            "pad: only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now")
    if mode == "circular":
        return _circular_pad_shape(self, pad)
    return _pad_shape("pad", self, pad, n, mode == "reflect")


def _pad_as_torch_mlir_decomposes(self: List[int], pad: List[int],
                                  is_reflection: bool) -> List[int]:
    """Reflection or replication padding where PyTorch rejects the ranks (torch-mlir's ONNX
    Pad conversion writes a pair per dim, 8 entries for a 4-d input): torch-mlir's
    decomposition drops the trailing pairs of zeros and pads the last dims left, at most 3,
    of an input of any rank at least that. A pair of zeros pads nothing, so the pairs past
    the last three dims (or past the rank) need only be zeros; no loop reads the values,
    which a converted ONNX model often knows only when run."""
    pairs = len(pad) // 2
    padded = min(min(pairs, 3), len(self))
    for i in range(padded, pairs):
        if pad[2 * i] != 0 or pad[2 * i + 1] != 0:
            raise AssertionError(
                "pad: reflect and replicate padding pad at most the last 3 dims, and no more "
                "than the input has; a pair for an earlier dim must be zeros")
    return _padded_last_dims("pad", self, pad[:2 * padded], is_reflection, len(self) - padded)


@dtype("aten.pad", invocations=[
    Invocation(_T(2, 3, 5, dtype=d), [1, 2], mode) for d in _SWEEP
    for mode in ("constant", "reflect", "replicate", "circular")
    if d != torch.bool or mode != "replicate"]
    + [ErrorInvocation(_T(2, 3, 5, dtype=torch.bool), [1, 2], "replicate")])
def aten〇pad〡dtype(self_rank_dtype: Tuple[int, int], pad: List[int], mode: str = 'constant', value: Optional[float] = None) -> int:
    if mode == "replicate":
        _check_replication_pad_dtype("pad", self_rank_dtype[1])
    return self_rank_dtype[1]


# ---------------------------------------------------------------------------- pixel and channel shuffle


@shape("aten.pixel_shuffle", invocations=[
    Invocation(_T(1, 8, 2, 3), 2),
    Invocation(_T(9, 2, 3), 3),
    Invocation(_T(2, 1, 4, 2, 3), 1),
    ErrorInvocation(_T(8, 3), 2),
    ErrorInvocation(_T(1, 6, 2, 3), 2),
    ErrorInvocation(_T(1, 6, 2, 3), 0),
])
def aten〇pixel_shuffle〡shape(self: List[int], upscale_factor: int) -> List[int]:
    if len(self) < 3:
        raise AssertionError("pixel_shuffle: expected an input with at least 3 dims")
    factor_squared = upscale_factor * upscale_factor
    if factor_squared == 0 or self[-3] % factor_squared != 0:
        raise AssertionError("pixel_shuffle: channels must be divisible by upscale_factor**2")
    if upscale_factor < 0:
        raise AssertionError("pixel_shuffle: upscale_factor must be positive")
    out = self[:-3]
    out.append(self[-3] // factor_squared)
    out.append(self[-2] * upscale_factor)
    out.append(self[-1] * upscale_factor)
    return out


@dtype("aten.pixel_shuffle", invocations=[Invocation(_T(1, 4, 2, 3, dtype=d), 2) for d in _SWEEP])
def aten〇pixel_shuffle〡dtype(self_rank_dtype: Tuple[int, int], upscale_factor: int) -> int:
    return self_rank_dtype[1]


@shape("aten.pixel_unshuffle", invocations=[
    Invocation(_T(1, 2, 4, 6), 2),
    Invocation(_T(2, 3, 6), 3),
    Invocation(_T(2, 1, 2, 4, 6), 1),
    ErrorInvocation(_T(4, 6), 2),
    ErrorInvocation(_T(1, 2, 3, 6), 2),
    ErrorInvocation(_T(1, 2, 4, 5), 2),
    ErrorInvocation(_T(1, 2, 4, 6), 0),
])
def aten〇pixel_unshuffle〡shape(self: List[int], downscale_factor: int) -> List[int]:
    if len(self) < 3:
        raise AssertionError("pixel_unshuffle: expected an input with at least 3 dims")
    if downscale_factor <= 0:
        raise AssertionError("pixel_unshuffle: downscale_factor must be positive")
    if self[-2] % downscale_factor != 0 or self[-1] % downscale_factor != 0:
        raise AssertionError(
            "pixel_unshuffle: height and width must be divisible by downscale_factor")
    out = self[:-3]
    out.append(self[-3] * downscale_factor * downscale_factor)
    out.append(self[-2] // downscale_factor)
    out.append(self[-1] // downscale_factor)
    return out


@dtype("aten.pixel_unshuffle", invocations=[
    Invocation(_T(1, 2, 4, 6, dtype=d), 2) for d in _SWEEP])
def aten〇pixel_unshuffle〡dtype(self_rank_dtype: Tuple[int, int], downscale_factor: int) -> int:
    return self_rank_dtype[1]


@shape("aten.channel_shuffle", invocations=[
    Invocation(_T(1, 6, 2, 3), 2),
    Invocation(_T(2, 6, 5), 3),
    Invocation(_T(0, 6, 5), 6),
    ErrorInvocation(_T(6, 5), 2),
    ErrorInvocation(_T(1, 6, 5), 4),
    ErrorInvocation(_T(1, 6, 5), 0),
])
def aten〇channel_shuffle〡shape(self: List[int], groups: int) -> List[int]:
    if len(self) <= 2:
        raise AssertionError("channel_shuffle: expected an input with more than 2 dims")
    if groups <= 0:
        raise AssertionError("channel_shuffle: the number of groups must be positive")
    if self[1] % groups != 0:
        raise AssertionError("channel_shuffle: channels must be divisible by groups")
    return upstream._copy(self)


@dtype("aten.channel_shuffle", invocations=[Invocation(_T(1, 6, 2, dtype=d), 2) for d in _SWEEP])
def aten〇channel_shuffle〡dtype(self_rank_dtype: Tuple[int, int], groups: int) -> int:
    return self_rank_dtype[1]


# ---------------------------------------------------------------------------- grid_sampler


@shape("aten.grid_sampler", invocations=[
    Invocation(_T(2, 3, 5, 5), _T(2, 4, 6, 2), 0, 0, False),
    Invocation(_T(2, 3, 5, 5, 5), _T(2, 4, 6, 7, 3), 1, 2, True),
    Invocation(_T(0, 3, 5, 5), _T(0, 4, 6, 2), 1, 1, False),
    ErrorInvocation(_T(2, 3, 5, 5), _T(1, 4, 6, 2), 0, 0, False),
    ErrorInvocation(_T(2, 3, 5, 5), _T(2, 4, 6, 3), 0, 0, False),
    ErrorInvocation(_T(2, 3, 5, 5), _T(2, 4, 6, 7, 3), 0, 0, False),
    ErrorInvocation(_T(2, 3, 5), _T(2, 4, 2), 0, 0, False),
    Invocation(_T(2, 3, 0, 5), _T(2, 4, 6, 2), 0, 0, False),
    ErrorInvocation(_T(2, 3, 5, 5), _T(2, 4, 6, 2), 5, 0, False),
    ErrorInvocation(_T(2, 3, 5, 5), _T(2, 4, 6, 2), 0, 5, False),
    ErrorInvocation(_T(2, 3, 5, 5, 5), _T(2, 4, 6, 7, 3), 2, 0, False),
    Invocation(_T(2, 3, 5, 5, 5), _T(2, 4, 6, 7, 3), -1, 3, False),
    Invocation(_T(2, 3, 5, 5, 5), _T(2, 4, 6, 7, 3), 5, -1, False),
])
def aten〇grid_sampler〡shape(input: List[int], grid: List[int], interpolation_mode: int, padding_mode: int, align_corners: bool) -> List[int]:
    if len(input) != len(grid) or (len(input) != 4 and len(input) != 5):
        raise AssertionError("grid_sampler: expected 4D or 5D input and grid of the same rank")
    if input[0] != grid[0]:
        raise AssertionError("grid_sampler: input and grid must have the same batch size")
    if grid[-1] != len(input) - 2:
        raise AssertionError("grid_sampler: grid's last dim must hold one coordinate per spatial dim")
    # Only the 2D kernel checks the modes' range; the 3D one takes any but bicubic.
    invalid_mode = interpolation_mode < 0 or interpolation_mode > 2 or padding_mode < 0 or padding_mode > 2
    if len(input) == 4 and invalid_mode:
        raise AssertionError("grid_sampler: invalid interpolation or padding mode")
    if len(input) == 5 and interpolation_mode == 2:
        raise AssertionError("grid_sampler: bicubic interpolation supports 4D input only")
    out = input[:2]
    for size in grid[1:-1]:
        out.append(size)
    return out


@dtype("aten.grid_sampler", invocations=[
    Invocation(_T(2, 3, 5, 5, dtype=a), _T(2, 4, 6, 2, dtype=b), 0, 0, False)
    for a, b in itertools.product(_SWEEP, (torch.float32, torch.float64, torch.float16))])
def aten〇grid_sampler〡dtype(input_rank_dtype: Tuple[int, int], grid_rank_dtype: Tuple[int, int], interpolation_mode: int, padding_mode: int, align_corners: bool) -> int:
    return aten〇grid_sampler_2d〡dtype(input_rank_dtype, grid_rank_dtype, interpolation_mode,
                                       padding_mode, align_corners)


# ---------------------------------------------------------------------------- interpolate


@torch_mlir_meaning("aten.__interpolate.size_list_scale_list")
def _interpolate_nearest_without_corners(input: torch.Tensor, size: Optional[List[int]] = None,
                                         scale_factor: Optional[List[float]] = None, mode: str = "nearest",
                                         align_corners: Optional[bool] = None,
                                         recompute_scale_factor: Optional[bool] = None,
                                         antialias: bool = False) -> torch.Tensor:
    """__interpolate as torch-mlir lowers it: mode "nearest" ignores align_corners (its ONNX
    Resize conversion writes false). PyTorch's op rejects any align_corners there."""
    corners = None if mode == "nearest" else align_corners
    return torch.ops.aten.__interpolate(input, size, scale_factor, mode, corners, recompute_scale_factor, antialias)


@shape("aten.__interpolate.size_list_scale_list", invocations=[
    Invocation(_T(1, 2, 5, 6), [3, 4]),
    Invocation(_T(1, 2, 5, 6), None, [2.0, 1.5]),
    Invocation(_T(1, 2, 5, 6), None, [1.3, 0.5], "bilinear", False, True),
    Invocation(_T(1, 2, 5, 6), [3, 4], [1.0, 1.0]),
    Invocation(_T(1, 2, 5, 6), None, [2.0, 1.5, 1.0]),
    Invocation(_T(1, 2, 5, 6), [3, 4], None, "bicubic", True),
    Invocation(_T(1, 2, 5, 6), [0, 4], None, "area"),
    Invocation(_T(1, 2, 5, 6), None, [2.5, 1.0], "area", None, True),
    Invocation(_T(1, 2, 5), [3], None, "linear"),
    Invocation(_T(1, 2, 5), [3]),
    Invocation(_T(1, 2, 5, 5, 5), [3, 3, 3], None, "trilinear"),
    Invocation(_T(1, 0, 5, 6), [3, 4], None, "bilinear"),
    ErrorInvocation(_T(1, 2, 5, 6), [3]),
    ErrorInvocation(_T(1, 2, 5, 6), [3, 4, 5]),
    ErrorInvocation(_T(1, 2, 5, 6), None, [2.0]),
    ErrorInvocation(_T(1, 2, 5, 6), [0, 4]),
    ErrorInvocation(_T(1, 2, 5, 6), None, [0.1, 1.0]),
    TorchMlirInvocation(_T(1, 2, 5, 6), [3, 4], None, "nearest", True),
    TorchMlirInvocation(_T(2, 3, 5, 6), None, [1.5, 2.0], "nearest", False),
    TorchMlirInvocation(_T(1, 2, 5), [7], None, "nearest", False),
    ErrorInvocation(_T(1, 2, 5, 6), [3, 4], None, "area", True),
    ErrorInvocation(_T(1, 2, 5, 6), [3, 4], None, "linear"),
    ErrorInvocation(_T(1, 2, 5, 6), [3, 4], None, "trilinear"),
    ErrorInvocation(_T(1, 2, 5), [3], None, "bicubic"),
    ErrorInvocation(_T(1, 2, 5, 6), [3, 4], None, "nearest-exact"),
    ErrorInvocation(_T(1, 2, 5, 6), [3, 4], None, "bilinear", False, None, True),
    ErrorInvocation(_T(2, 5), [3]),
    ErrorInvocation(_T(1, 2, 5, 6, 7, 8), [3, 4, 5, 6]),
])
def aten〇__interpolate〇size_list_scale_list〡shape(input: List[int], size: Optional[List[int]] = None, scale_factor: Optional[List[float]] = None, mode: str = 'nearest', align_corners: Optional[bool] = None, recompute_scale_factor: Optional[bool] = None, antialias: bool = False) -> List[int]:
    op = "__interpolate"
    if antialias:
        raise AssertionError(op + ": antialias is not supported")
    spatial = len(input) - 2
    if spatial < 1 or spatial > 3:
        raise AssertionError(op + ": only 3D, 4D and 5D inputs are supported")
    # torch-mlir's lowering ignores align_corners in mode "nearest"; PyTorch rejects a set one.
    if mode == "area" and align_corners is not None:
        raise AssertionError(op + ": align_corners can only be set with interpolating modes")
    if mode == "linear" or mode == "bilinear" or mode == "bicubic" or mode == "trilinear":
        needed = 1 if mode == "linear" else (3 if mode == "trilinear" else 2)
        if spatial != needed:
            raise AssertionError(op + ": mode " + mode + " does not take an input of this rank")
    elif mode != "nearest" and mode != "area":
        raise AssertionError(op + ": unsupported mode " + mode)
    # A given size wins over scale factors; extra scale factors are ignored.
    scales = scale_factor if size is None else None
    if scales is not None and len(scales) > spatial:
        scales = scales[:spatial]
    sizes = _upsample_output_size(op, input, size, scales)
    if mode == "area":
        return _adaptive_shape(op, input, sizes, spatial)
    return _upsample_shape(op, input, sizes, spatial, mode == "nearest")


@dtype("aten.__interpolate.size_list_scale_list", invocations=[
    Invocation(_T(1, 2, 5, 6, dtype=d), [3, 4], None, mode)
    for d in _SWEEP for mode in ("nearest", "bilinear", "area")])
def aten〇__interpolate〇size_list_scale_list〡dtype(input_rank_dtype: Tuple[int, int], size: Optional[List[int]] = None, scale_factor: Optional[List[float]] = None, mode: str = 'nearest', align_corners: Optional[bool] = None, recompute_scale_factor: Optional[bool] = None, antialias: bool = False) -> int:
    return input_rank_dtype[1]
