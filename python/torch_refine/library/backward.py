"""Backward ops of activations and softmax (the gradient with respect to the input).

The activation backwards are binary TensorIterator ops on the gradient and the saved tensor:
the result broadcasts the two and has their promoted dtype. The meta kernels do not check
dtypes (the CPU kernels take floating-point tensors only).
"""

import itertools
from typing import List, Tuple, Union

import torch
import torch.jit._shape_functions as upstream

from ._helpers import broadcast_shapes, rank_dtype_lists
from .promotion import is_float_dtype, promote_dtypes
from .registry import dtype, shape
from .testing import ErrorInvocation, Invocation, KernelErrorInvocation, TensorOfShape

_SWEEP = (torch.int64, torch.float16, torch.bfloat16, torch.float32, torch.float64)
_INTEGRAL = (torch.int32, torch.uint8, torch.bool)


def _T(*sizes, dtype=torch.float32):
    return TensorOfShape(*sizes, dtype=dtype)


def _binary_dtype(a: Tuple[int, int], b: Tuple[int, int]) -> int:
    ranks, dtypes = rank_dtype_lists([a, b])
    return promote_dtypes(ranks, dtypes)


def _binary_shape_cases(*tail):
    return [
        Invocation(_T(2, 3), _T(2, 3), *tail),
        Invocation(_T(2, 3), _T(3), *tail),
        Invocation(_T(1, 3), _T(2, 1), *tail),
        Invocation(_T(0, 3), _T(3), *tail),
        ErrorInvocation(_T(2, 3), _T(4), *tail),
    ]


def _binary_dtype_cases(*tail, **kwargs):
    return [Invocation(_T(2, 3, dtype=a), _T(2, 3, dtype=b), *tail, **kwargs)
            for a, b in itertools.product(_SWEEP, _SWEEP)]


@shape("aten.sigmoid_backward", "aten.tanh_backward", invocations=_binary_shape_cases())
def aten〇sigmoid_backward〡shape(grad_output: List[int], output: List[int]) -> List[int]:
    return broadcast_shapes([grad_output, output])


@dtype("aten.sigmoid_backward", "aten.tanh_backward", invocations=_binary_dtype_cases())
def aten〇sigmoid_backward〡dtype(grad_output_rank_dtype: Tuple[int, int], output_rank_dtype: Tuple[int, int]) -> int:
    return _binary_dtype(grad_output_rank_dtype, output_rank_dtype)


@shape("aten.gelu_backward", invocations=_binary_shape_cases() + [
    Invocation(_T(2, 3), _T(2, 3), approximate="tanh"),
])
def aten〇gelu_backward〡shape(grad_output: List[int], self: List[int], approximate: str = 'none') -> List[int]:
    return broadcast_shapes([grad_output, self])


@dtype("aten.gelu_backward", invocations=_binary_dtype_cases(approximate="tanh"))
def aten〇gelu_backward〡dtype(grad_output_rank_dtype: Tuple[int, int], self_rank_dtype: Tuple[int, int], approximate: str = 'none') -> int:
    return _binary_dtype(grad_output_rank_dtype, self_rank_dtype)


@shape("aten.hardtanh_backward", invocations=_binary_shape_cases(-1.0, 1.0))
def aten〇hardtanh_backward〡shape(grad_output: List[int], self: List[int], min_val: float, max_val: float) -> List[int]:
    return broadcast_shapes([grad_output, self])


@dtype("aten.hardtanh_backward", invocations=_binary_dtype_cases(-1.0, 2))
def aten〇hardtanh_backward〡dtype(grad_output_rank_dtype: Tuple[int, int], self_rank_dtype: Tuple[int, int], min_val: Union[int, float, complex], max_val: Union[int, float, complex]) -> int:
    return _binary_dtype(grad_output_rank_dtype, self_rank_dtype)


@shape("aten.leaky_relu_backward", invocations=_binary_shape_cases(0.01, False) + [
    Invocation(_T(2, 3), _T(2, 3), 0.5, True),
    Invocation(_T(2, 3), _T(2, 3), -0.5, True),  # the meta kernel allows it, the CPU one not
])
def aten〇leaky_relu_backward〡shape(grad_output: List[int], self: List[int], negative_slope: float, self_is_result: bool) -> List[int]:
    return broadcast_shapes([grad_output, self])


@dtype("aten.leaky_relu_backward", invocations=_binary_dtype_cases(0.01, False))
def aten〇leaky_relu_backward〡dtype(grad_output_rank_dtype: Tuple[int, int], self_rank_dtype: Tuple[int, int], negative_slope: Union[int, float, complex], self_is_result: bool) -> int:
    return _binary_dtype(grad_output_rank_dtype, self_rank_dtype)


@shape("aten.elu_backward", invocations=[
    Invocation(_T(2, 3), 1.0, 1.0, 1.0, False, _T(2, 3)),
    Invocation(_T(2, 3), 1.0, 1.0, 1.0, True, _T(3)),
    Invocation(_T(1, 3), -1.0, 1.0, 1.0, False, _T(2, 1)),
    ErrorInvocation(_T(2, 3), 1.0, 1.0, 1.0, False, _T(4)),
    Invocation(_T(2, 3), -1.0, 1.0, 1.0, True, _T(2, 3)),  # the CPU kernel rejects it
])
def aten〇elu_backward〡shape(grad_output: List[int], alpha: float, scale: float, input_scale: float, is_result: bool, self_or_result: List[int]) -> List[int]:
    return broadcast_shapes([grad_output, self_or_result])


@dtype("aten.elu_backward", invocations=[
    Invocation(_T(2, 3, dtype=a), 1.0, 1, 1.0, False, _T(2, 3, dtype=b))
    for a, b in itertools.product(_SWEEP, _SWEEP)])
def aten〇elu_backward〡dtype(grad_output_rank_dtype: Tuple[int, int], alpha: Union[int, float, complex], scale: Union[int, float, complex], input_scale: Union[int, float, complex], is_result: bool, self_or_result_rank_dtype: Tuple[int, int]) -> int:
    return _binary_dtype(grad_output_rank_dtype, self_or_result_rank_dtype)


@shape("aten.softplus_backward", invocations=_binary_shape_cases(1.0, 20.0))
def aten〇softplus_backward〡shape(grad_output: List[int], self: List[int], beta: float, threshold: float) -> List[int]:
    return broadcast_shapes([grad_output, self])


@dtype("aten.softplus_backward", invocations=_binary_dtype_cases(1.0, 20))
def aten〇softplus_backward〡dtype(grad_output_rank_dtype: Tuple[int, int], self_rank_dtype: Tuple[int, int], beta: Union[int, float, complex], threshold: Union[int, float, complex]) -> int:
    return _binary_dtype(grad_output_rank_dtype, self_rank_dtype)


@shape("aten.threshold_backward", invocations=_binary_shape_cases(0.5))
def aten〇threshold_backward〡shape(grad_output: List[int], self: List[int], threshold: float) -> List[int]:
    return broadcast_shapes([grad_output, self])


@dtype("aten.threshold_backward", invocations=_binary_dtype_cases(0))
def aten〇threshold_backward〡dtype(grad_output_rank_dtype: Tuple[int, int], self_rank_dtype: Tuple[int, int], threshold: Union[int, float, complex]) -> int:
    # Unlike the other backwards, the result keeps the gradient's dtype.
    return grad_output_rank_dtype[1]


@shape("aten.rrelu_with_noise_backward", invocations=[
    Invocation(_T(2, 3), _T(2, 3), _T(2, 3), 0.1, 0.3, False, False),
    Invocation(_T(2, 3), _T(3), _T(2, 1, 3), 0.1, 0.3, True, False),
    Invocation(_T(2, 3), _T(3), _T(2, 1, 3), 0.1, 0.3, False, False),
    ErrorInvocation(_T(2, 3), _T(4), _T(2, 3), 0.1, 0.3, False, False),
    ErrorInvocation(_T(2, 3), _T(2, 3), _T(4), 0.1, 0.3, True, False),
])
def aten〇rrelu_with_noise_backward〡shape(grad_output: List[int], self: List[int], noise: List[int], lower: float, upper: float, training: bool, self_is_result: bool) -> List[int]:
    # Training multiplies by the sampled noise; evaluation is leaky_relu's backward.
    if training:
        return broadcast_shapes([grad_output, noise])
    return aten〇leaky_relu_backward〡shape(grad_output, self, (lower + upper) / 2, self_is_result)


@dtype("aten.rrelu_with_noise_backward", invocations=[
    Invocation(_T(2, 3, dtype=a), _T(2, 3, dtype=b), _T(2, 3, dtype=c), 0.1, 0.3, training, False)
    for a, b, c in itertools.product(_SWEEP, (torch.float32, torch.float64),
                                     (torch.float16, torch.float64))
    for training in (False, True)])
def aten〇rrelu_with_noise_backward〡dtype(grad_output_rank_dtype: Tuple[int, int], self_rank_dtype: Tuple[int, int], noise_rank_dtype: Tuple[int, int], lower: Union[int, float, complex], upper: Union[int, float, complex], training: bool, self_is_result: bool) -> int:
    # PyTorch's decomposition computes in the promoted dtype of all three tensors.
    ranks, dtypes = rank_dtype_lists([grad_output_rank_dtype, self_rank_dtype, noise_rank_dtype])
    return promote_dtypes(ranks, dtypes)


# PyTorch's decompositions (which the meta kernels are) broadcast grad_output with output and
# give the result input_dtype; the CPU kernels require equal sizes and keep the grad's dtype.
_SOFTMAX_BACKWARD_SHAPES = [
    Invocation(_T(2, 3), _T(2, 3), 1, torch.float32),
    Invocation(_T(2, 3), _T(2, 3), -2, torch.float32),
    Invocation(_T(), _T(), 0, torch.float32),
    Invocation(_T(2, 3), _T(3), 1, torch.float32),
    ErrorInvocation(_T(2, 3), _T(4), 1, torch.float32),
    ErrorInvocation(_T(2, 3), _T(2, 3), 2, torch.float32),
]

_SOFTMAX_BACKWARD_DTYPES = [
    Invocation(_T(2, 3, dtype=a), _T(2, 3, dtype=a), 1, b)
    for a, b in itertools.product(_SWEEP, _SWEEP)]


@shape("aten._softmax_backward_data", invocations=_SOFTMAX_BACKWARD_SHAPES)
def aten〇_softmax_backward_data〡shape(grad_output: List[int], output: List[int], dim: int, input_dtype: int) -> List[int]:
    # grad_output * output, less output times its sum over dim.
    result = broadcast_shapes([grad_output, output])
    upstream.maybe_wrap_dim(dim, len(result))
    return result


@shape("aten._log_softmax_backward_data", invocations=_SOFTMAX_BACKWARD_SHAPES)
def aten〇_log_softmax_backward_data〡shape(grad_output: List[int], output: List[int], dim: int, input_dtype: int) -> List[int]:
    # grad_output less exp(output) times grad_output's sum over dim.
    upstream.maybe_wrap_dim(dim, len(grad_output))
    return broadcast_shapes([grad_output, output])


@dtype("aten._softmax_backward_data", invocations=_SOFTMAX_BACKWARD_DTYPES)
def aten〇_softmax_backward_data〡dtype(grad_output_rank_dtype: Tuple[int, int], output_rank_dtype: Tuple[int, int], dim: int, input_dtype: int) -> int:
    return input_dtype


_FLOATS = (torch.float16, torch.bfloat16, torch.float32, torch.float64)


@dtype("aten._log_softmax_backward_data", invocations=[
    Invocation(_T(2, 3, dtype=a), _T(2, 3, dtype=b), 1, c)
    for a, b, c in itertools.product(_FLOATS, _FLOATS, _FLOATS) if c == a or c == b]
    + [KernelErrorInvocation(_T(2, 3, dtype=d), _T(2, 3, dtype=d), 1, d) for d in _INTEGRAL])
def aten〇_log_softmax_backward_data〡dtype(grad_output_rank_dtype: Tuple[int, int], output_rank_dtype: Tuple[int, int], dim: int, input_dtype: int) -> int:
    # The CPU kernel takes floating-point gradients only. PyTorch's decomposition, which the
    # meta kernel is, gives integer ones a dtype that no kernel computes.
    if not is_float_dtype(grad_output_rank_dtype[1]):
        raise AssertionError("_log_softmax_backward_data: expected a floating-point grad_output")
    return input_dtype
