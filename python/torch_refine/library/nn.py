"""Normalization, dropout, embedding and attention.

The rules are what PyTorch computes on meta tensors. Several of these ops are device
dependent and the meta device answers like an accelerator, not like the CPU:

- batch norm in eval mode saves the running statistics ([C]); the CPU kernels save empty
  [0] tensors;
- the saved statistics of batch and layer norm on float16/bfloat16 inputs are float32 on
  meta; the CPU kernels follow the parameters' dtype.
"""

import itertools
from typing import List, Optional, Tuple

import torch
import torch.jit._shape_functions as upstream

from ._helpers import rank_dtype_lists
from .promotion import is_complex_dtype, is_float_dtype, promote_dtypes, to_real_dtype
from .registry import dtype, shape
from .testing import ErrorInvocation, Invocation, LongTensorOfShape, TensorOfShape

_SWEEP = (
    torch.uint8, torch.int32, torch.int64, torch.float16, torch.bfloat16,
    torch.float32, torch.float64, torch.bool, torch.complex64,
)
_PARAM_SWEEP = (torch.float32, torch.float16, torch.float64, torch.int64)


def _T(*sizes, dtype=torch.float32):  # noqa: N802 (reads like a type)
    return TensorOfShape(*sizes, dtype=dtype)


# ---------------------------------------------------------------------------- helpers


def _computation_dtype(dtype: int) -> int:
    """Reduced-precision floats compute in float32."""
    if dtype == 5 or dtype == 15:  # float16, bfloat16
        return 6
    return dtype


def _check_float_or_complex(op: str, dtype: int) -> None:
    if not is_float_dtype(dtype) and not is_complex_dtype(dtype):
        raise AssertionError(op + ": expected a floating point or complex input")


def _unsqueeze_to_rank(sizes: List[int], rank: int) -> List[int]:
    out = upstream._copy(sizes)
    for _ in range(rank - len(sizes)):
        out.append(1)
    return out


def _channel_param(param: Optional[List[int]], rank: int) -> List[int]:
    """A per-channel parameter flattened and shaped to broadcast against dims 1.. of the input."""
    if param is None:
        return []
    return _unsqueeze_to_rank([upstream.numel(param)], rank - 1)


# ---------------------------------------------------------------------------- batch norm


def _batch_norm_shapes(input: List[int], weight: Optional[List[int]], bias: Optional[List[int]], running_mean: Optional[List[int]], running_var: Optional[List[int]], training: bool) -> Tuple[List[int], List[int], List[int]]:
    """native_batch_norm as PyTorch decomposes it: output, save_mean, save_rstd."""
    rank = len(input)
    if training:
        stat: List[int] = []
        if rank >= 2:
            stat.append(input[1])
        if running_mean is not None:
            upstream.broadcast(stat, running_mean)
        if running_var is not None:
            if rank < 2 or input[1] == 0:
                raise AssertionError("batch_norm: updating running_var needs a non-empty channel dim")
            upstream.broadcast(stat, running_var)
        output = upstream._copy(input)
        save_mean = upstream._copy(stat)
        save_rstd = upstream._copy(stat)
    else:
        if running_mean is None or running_var is None:
            raise AssertionError("batch_norm: running_mean and running_var must not be None in eval mode")
        output = upstream.broadcast(input, _unsqueeze_to_rank(running_mean, rank - 1))
        output = upstream.broadcast(output, _unsqueeze_to_rank(running_var, rank - 1))
        save_mean = upstream._copy(running_mean)
        save_rstd = upstream._copy(running_var)
    output = upstream.broadcast(output, _channel_param(weight, rank))
    output = upstream.broadcast(output, _channel_param(bias, rank))
    return output, save_mean, save_rstd


def _batch_norm_dtypes(input_dtype: int, training: bool) -> Tuple[int, int, int]:
    computation = _computation_dtype(input_dtype)
    if training:
        _check_float_or_complex("batch_norm", input_dtype)
        return input_dtype, computation, to_real_dtype(computation)
    if input_dtype == 11:
        raise AssertionError("batch_norm: bool inputs are not supported")
    rstd = computation if is_float_dtype(computation) or is_complex_dtype(computation) else 6
    return input_dtype, computation, rstd


_BN_SHAPE_CASES = [
    Invocation(_T(2, 4, 3), _T(4), _T(4), _T(4), _T(4), True, 0.1, 1e-5),
    Invocation(_T(2, 4, 3), _T(4), _T(4), _T(4), _T(4), False, 0.1, 1e-5),
    Invocation(_T(2, 4), None, None, _T(4), _T(4), True, 0.1, 1e-5),
    Invocation(_T(2, 4, 3, 5), _T(1), None, _T(4), _T(4), False, 0.1, 1e-5),
    Invocation(_T(0, 4, 3), _T(4), _T(4), _T(4), _T(4), True, 0.1, 1e-5),
    Invocation(_T(4), None, None, _T(4), _T(4), False, 0.1, 1e-5),
    Invocation(_T(), None, None, _T(4), _T(4), False, 0.1, 1e-5),
    Invocation(_T(2, 1, 3), _T(4), None, _T(4), _T(4), False, 0.1, 1e-5),
    ErrorInvocation(_T(2, 4, 3), _T(5), _T(4), _T(4), _T(4), True, 0.1, 1e-5),
    ErrorInvocation(_T(2, 4, 3), _T(4), _T(5), _T(4), _T(4), False, 0.1, 1e-5),
    ErrorInvocation(_T(2, 4, 3), _T(4), _T(4), _T(5), _T(4), True, 0.1, 1e-5),
    ErrorInvocation(_T(2, 4, 3), _T(4), _T(4), _T(4), _T(5), False, 0.1, 1e-5),
    ErrorInvocation(_T(4), _T(4), _T(4), _T(4), _T(4), True, 0.1, 1e-5),
    ErrorInvocation(_T(2, 0, 3), None, None, _T(0), _T(0), True, 0.1, 1e-5),
]


def _bn_dtype_cases(make):
    return [make(d, p, training) for d in _SWEEP for p in _PARAM_SWEEP for training in (True, False)]


@shape("aten.native_batch_norm", invocations=_BN_SHAPE_CASES + [
    Invocation(_T(2, 4, 3), None, None, None, None, True, 0.1, 1e-5),
    Invocation(_T(4), None, None, None, None, True, 0.1, 1e-5),
    Invocation(_T(), None, None, None, None, True, 0.1, 1e-5),
    ErrorInvocation(_T(2, 4, 3), None, None, None, None, False, 0.1, 1e-5),
])
def aten〇native_batch_norm〡shape(input: List[int], weight: Optional[List[int]], bias: Optional[List[int]], running_mean: Optional[List[int]], running_var: Optional[List[int]], training: bool, momentum: float, eps: float) -> Tuple[List[int], List[int], List[int]]:
    return _batch_norm_shapes(input, weight, bias, running_mean, running_var, training)


@dtype("aten.native_batch_norm", invocations=_bn_dtype_cases(
    lambda d, p, training: Invocation(_T(2, 4, 3, dtype=d), _T(4, dtype=p), _T(4, dtype=p),
                                      _T(4, dtype=p), _T(4, dtype=p), training, 0.1, 1e-5)))
def aten〇native_batch_norm〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Optional[Tuple[int, int]], bias_rank_dtype: Optional[Tuple[int, int]], running_mean_rank_dtype: Optional[Tuple[int, int]], running_var_rank_dtype: Optional[Tuple[int, int]], training: bool, momentum: float, eps: float) -> Tuple[int, int, int]:
    return _batch_norm_dtypes(input_rank_dtype[1], training)


@shape("aten._native_batch_norm_legit", invocations=_BN_SHAPE_CASES)
def aten〇_native_batch_norm_legit〡shape(input: List[int], weight: Optional[List[int]], bias: Optional[List[int]], running_mean: List[int], running_var: List[int], training: bool, momentum: float, eps: float) -> Tuple[List[int], List[int], List[int]]:
    return _batch_norm_shapes(input, weight, bias, running_mean, running_var, training)


@dtype("aten._native_batch_norm_legit", invocations=_bn_dtype_cases(
    lambda d, p, training: Invocation(_T(2, 4, 3, dtype=d), _T(4, dtype=p), None,
                                      _T(4, dtype=p), _T(4, dtype=p), training, 0.1, 1e-5)))
def aten〇_native_batch_norm_legit〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Optional[Tuple[int, int]], bias_rank_dtype: Optional[Tuple[int, int]], running_mean_rank_dtype: Tuple[int, int], running_var_rank_dtype: Tuple[int, int], training: bool, momentum: float, eps: float) -> Tuple[int, int, int]:
    return _batch_norm_dtypes(input_rank_dtype[1], training)


@shape("aten._native_batch_norm_legit.no_stats", invocations=[
    Invocation(_T(2, 4, 3), _T(4), _T(4), True, 0.1, 1e-5),
    Invocation(_T(2, 4), None, None, True, 0.1, 1e-5),
    Invocation(_T(4), None, None, True, 0.1, 1e-5),
    Invocation(_T(0, 4, 3), _T(4), None, True, 0.1, 1e-5),
    ErrorInvocation(_T(2, 4, 3), _T(4), _T(4), False, 0.1, 1e-5),
    ErrorInvocation(_T(2, 4, 3), _T(3), None, True, 0.1, 1e-5),
])
def aten〇_native_batch_norm_legit〇no_stats〡shape(input: List[int], weight: Optional[List[int]], bias: Optional[List[int]], training: bool, momentum: float, eps: float) -> Tuple[List[int], List[int], List[int]]:
    return _batch_norm_shapes(input, weight, bias, None, None, training)


@dtype("aten._native_batch_norm_legit.no_stats", invocations=[
    Invocation(_T(2, 4, 3, dtype=d), _T(4, dtype=p), None, True, 0.1, 1e-5)
    for d in _SWEEP for p in _PARAM_SWEEP])
def aten〇_native_batch_norm_legit〇no_stats〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Optional[Tuple[int, int]], bias_rank_dtype: Optional[Tuple[int, int]], training: bool, momentum: float, eps: float) -> Tuple[int, int, int]:
    if not training:
        raise AssertionError("batch_norm: running_mean and running_var must not be None in eval mode")
    return _batch_norm_dtypes(input_rank_dtype[1], training)


@shape("aten._native_batch_norm_legit_no_training", invocations=[
    Invocation(_T(2, 4, 3), _T(4), _T(4), _T(4), _T(4), 0.1, 1e-5),
    Invocation(_T(2, 4, 3), None, None, _T(4), _T(4), 0.1, 1e-5),
    Invocation(_T(4), None, None, _T(4), _T(4), 0.1, 1e-5),
    Invocation(_T(), None, None, _T(4), _T(4), 0.1, 1e-5),
    Invocation(_T(0, 4, 3, 3), _T(4), _T(4), _T(4), _T(4), 0.1, 1e-5),
    ErrorInvocation(_T(2, 4, 3), None, None, _T(5), _T(4), 0.1, 1e-5),
    ErrorInvocation(_T(2, 4, 3), _T(3), None, _T(4), _T(4), 0.1, 1e-5),
])
def aten〇_native_batch_norm_legit_no_training〡shape(input: List[int], weight: Optional[List[int]], bias: Optional[List[int]], running_mean: List[int], running_var: List[int], momentum: float, eps: float) -> Tuple[List[int], List[int], List[int]]:
    return _batch_norm_shapes(input, weight, bias, running_mean, running_var, False)


@dtype("aten._native_batch_norm_legit_no_training", invocations=[
    Invocation(_T(2, 4, 3, dtype=d), _T(4, dtype=p), _T(4, dtype=p), _T(4, dtype=p),
               _T(4, dtype=p), 0.1, 1e-5)
    for d in _SWEEP for p in _PARAM_SWEEP])
def aten〇_native_batch_norm_legit_no_training〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Optional[Tuple[int, int]], bias_rank_dtype: Optional[Tuple[int, int]], running_mean_rank_dtype: Tuple[int, int], running_var_rank_dtype: Tuple[int, int], momentum: float, eps: float) -> Tuple[int, int, int]:
    return _batch_norm_dtypes(input_rank_dtype[1], False)


def _check_num_features(op: str, name: str, param: Optional[List[int]], num_features: int) -> None:
    if param is not None and upstream.numel(param) != num_features:
        raise AssertionError(op + ": " + name + " should contain one element per channel")


@shape("aten.batch_norm", invocations=[
    Invocation(_T(2, 4, 3), _T(4), _T(4), _T(4), _T(4), True, 0.1, 1e-5, False),
    Invocation(_T(2, 4, 3), _T(4), _T(4), _T(4), _T(4), False, 0.1, 1e-5, False),
    Invocation(_T(2, 4, 3), None, None, None, None, True, 0.1, 1e-5, False),
    Invocation(_T(1, 4), None, None, None, None, True, 0.1, 1e-5, True),
    Invocation(_T(0, 4, 3, 3), _T(4), None, _T(4), _T(4), False, 0.1, 1e-5, False),
    Invocation(_T(4), None, None, None, None, True, 0.1, 1e-5, False),
    ErrorInvocation(_T(2, 4, 3), _T(5), _T(4), _T(4), _T(4), True, 0.1, 1e-5, False),
    ErrorInvocation(_T(2, 4, 3), _T(4), _T(4), _T(5), _T(4), False, 0.1, 1e-5, False),
    ErrorInvocation(_T(4), _T(4), _T(4), _T(4), _T(4), True, 0.1, 1e-5, False),
    ErrorInvocation(_T(2, 4, 3), None, None, None, None, False, 0.1, 1e-5, False),
    Invocation(_T(2, 4, 3), None, None, _T(4), None, True, 0.1, 1e-5, False),
])
def aten〇batch_norm〡shape(input: List[int], weight: Optional[List[int]], bias: Optional[List[int]], running_mean: Optional[List[int]], running_var: Optional[List[int]], training: bool, momentum: float, eps: float, cudnn_enabled: bool) -> List[int]:
    num_features = input[1] if len(input) > 1 else 0
    _check_num_features("batch_norm", "weight", weight, num_features)
    _check_num_features("batch_norm", "bias", bias, num_features)
    _check_num_features("batch_norm", "running_mean", running_mean, num_features)
    _check_num_features("batch_norm", "running_var", running_var, num_features)
    if not training and (running_mean is None or running_var is None):
        raise AssertionError("batch_norm: running_mean and running_var must be defined in evaluation mode")
    return _batch_norm_shapes(input, weight, bias, running_mean, running_var, training)[0]


@dtype("aten.batch_norm", invocations=_bn_dtype_cases(
    lambda d, p, training: Invocation(_T(2, 4, 3, dtype=d), _T(4, dtype=p), _T(4, dtype=p),
                                      _T(4, dtype=p), _T(4, dtype=p), training, 0.1, 1e-5, False)))
def aten〇batch_norm〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Optional[Tuple[int, int]], bias_rank_dtype: Optional[Tuple[int, int]], running_mean_rank_dtype: Optional[Tuple[int, int]], running_var_rank_dtype: Optional[Tuple[int, int]], training: bool, momentum: float, eps: float, cudnn_enabled: bool) -> int:
    return _batch_norm_dtypes(input_rank_dtype[1], training)[0]


@shape("aten.instance_norm", invocations=[
    Invocation(_T(2, 4, 3), _T(4), _T(4), _T(4), _T(4), True, 0.1, 1e-5, False),
    Invocation(_T(2, 4, 3), _T(4), _T(4), _T(4), _T(4), False, 0.1, 1e-5, False),
    Invocation(_T(2, 4, 3, 3), None, None, None, None, True, 0.1, 1e-5, False),
    Invocation(_T(2, 4), None, None, None, None, True, 0.1, 1e-5, False),
    ErrorInvocation(_T(2, 4, 3), None, None, None, None, False, 0.1, 1e-5, False),
    ErrorInvocation(_T(2, 4, 3), _T(5), None, None, None, True, 0.1, 1e-5, False),
    ErrorInvocation(_T(2, 4, 3), None, None, _T(5), _T(5), True, 0.1, 1e-5, False),
])
def aten〇instance_norm〡shape(input: List[int], weight: Optional[List[int]], bias: Optional[List[int]], running_mean: Optional[List[int]], running_var: Optional[List[int]], use_input_stats: bool, momentum: float, eps: float, cudnn_enabled: bool) -> List[int]:
    if not use_input_stats and (running_mean is None or running_var is None):
        raise AssertionError("instance_norm: expected running_mean and running_var to be defined when use_input_stats is false")
    num_features = input[1] if len(input) > 1 else 0
    _check_num_features("instance_norm", "weight", weight, num_features)
    _check_num_features("instance_norm", "bias", bias, num_features)
    _check_num_features("instance_norm", "running_mean", running_mean, num_features)
    _check_num_features("instance_norm", "running_var", running_var, num_features)
    return upstream._copy(input)


@dtype("aten.instance_norm", invocations=_bn_dtype_cases(
    lambda d, p, training: Invocation(_T(2, 4, 3, dtype=d), _T(4, dtype=p), _T(4, dtype=p),
                                      _T(4, dtype=p), _T(4, dtype=p), training, 0.1, 1e-5, False)))
def aten〇instance_norm〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Optional[Tuple[int, int]], bias_rank_dtype: Optional[Tuple[int, int]], running_mean_rank_dtype: Optional[Tuple[int, int]], running_var_rank_dtype: Optional[Tuple[int, int]], use_input_stats: bool, momentum: float, eps: float, cudnn_enabled: bool) -> int:
    if use_input_stats and running_mean_rank_dtype is not None:
        # The running statistics are updated with a mean over the batch.
        _check_float_or_complex("instance_norm", running_mean_rank_dtype[1])
    return _batch_norm_dtypes(input_rank_dtype[1], use_input_stats)[0]


# ---------------------------------------------------------------------------- layer norm


def _layer_norm_shapes(op: str, input: List[int], normalized_shape: List[int], weight: Optional[List[int]], bias: Optional[List[int]]) -> Tuple[List[int], List[int], List[int]]:
    if len(normalized_shape) == 0:
        raise AssertionError(op + ": expected normalized_shape to contain at least one element")
    if weight is not None and weight != normalized_shape:
        raise AssertionError(op + ": expected weight to be of same shape as normalized_shape")
    if bias is not None and bias != normalized_shape:
        raise AssertionError(op + ": expected bias to be of same shape as normalized_shape")
    axis = len(input) - len(normalized_shape)
    if axis < 0 or input[axis:] != normalized_shape:
        raise AssertionError(op + ": input's trailing dims do not match normalized_shape")
    return upstream.native_layer_norm(input, normalized_shape)


def _check_layer_norm_dtype(op: str, dtype: int) -> None:
    if not is_float_dtype(dtype):
        raise AssertionError(op + ": expected a floating point input")


_LAYER_NORM_SHAPE_CASES = [
    Invocation(_T(2, 4, 3), [3], _T(3), _T(3), 1e-5),
    Invocation(_T(2, 4, 3), [4, 3], None, None, 1e-5),
    Invocation(_T(0, 4, 3), [3], None, _T(3), 1e-5),
    Invocation(_T(3), [3], _T(3), None, 1e-5),
    ErrorInvocation(_T(2, 4, 3), [], None, None, 1e-5),
    ErrorInvocation(_T(2, 4, 3), [5], None, None, 1e-5),
    ErrorInvocation(_T(3), [2, 3], None, None, 1e-5),
    ErrorInvocation(_T(2, 4, 3), [3], _T(4), None, 1e-5),
    ErrorInvocation(_T(2, 4, 3), [3], _T(1, 3), None, 1e-5),
    ErrorInvocation(_T(2, 4, 3), [3], None, _T(4), 1e-5),
]


@shape("aten.native_layer_norm", invocations=_LAYER_NORM_SHAPE_CASES)
def aten〇native_layer_norm〡shape(input: List[int], normalized_shape: List[int], weight: Optional[List[int]], bias: Optional[List[int]], eps: float) -> Tuple[List[int], List[int], List[int]]:
    return _layer_norm_shapes("native_layer_norm", input, normalized_shape, weight, bias)


@dtype("aten.native_layer_norm", invocations=[
    Invocation(_T(2, 3, dtype=d), [3], _T(3, dtype=p), _T(3, dtype=p), 1e-5)
    for d in _SWEEP for p in _PARAM_SWEEP])
def aten〇native_layer_norm〡dtype(input_rank_dtype: Tuple[int, int], normalized_shape: List[int], weight_rank_dtype: Optional[Tuple[int, int]], bias_rank_dtype: Optional[Tuple[int, int]], eps: float) -> Tuple[int, int, int]:
    _check_layer_norm_dtype("native_layer_norm", input_rank_dtype[1])
    stat = _computation_dtype(input_rank_dtype[1])
    return input_rank_dtype[1], stat, stat


@shape("aten.layer_norm", invocations=_LAYER_NORM_SHAPE_CASES + [
    Invocation(_T(2, 4, 3), [3]),
])
def aten〇layer_norm〡shape(input: List[int], normalized_shape: List[int], weight: Optional[List[int]] = None, bias: Optional[List[int]] = None, eps: float = 1e-05, cudnn_enable: bool = True) -> List[int]:
    return _layer_norm_shapes("layer_norm", input, normalized_shape, weight, bias)[0]


@dtype("aten.layer_norm", invocations=[
    Invocation(_T(2, 3, dtype=d), [3], _T(3, dtype=p), _T(3, dtype=p))
    for d in _SWEEP for p in _PARAM_SWEEP])
def aten〇layer_norm〡dtype(input_rank_dtype: Tuple[int, int], normalized_shape: List[int], weight_rank_dtype: Optional[Tuple[int, int]] = None, bias_rank_dtype: Optional[Tuple[int, int]] = None, eps: float = 1e-05, cudnn_enable: bool = True) -> int:
    _check_layer_norm_dtype("layer_norm", input_rank_dtype[1])
    return input_rank_dtype[1]


_ALL_GRADS = [True, True, True]


@shape("aten.native_layer_norm_backward", invocations=[
    Invocation(_T(2, 4, 3), _T(2, 4, 3), [3], _T(2, 4, 1), _T(2, 4, 1), _T(3), _T(3), _ALL_GRADS),
    Invocation(_T(2, 4, 3), _T(2, 4, 3), [4, 3], _T(2, 1, 1), _T(2, 1, 1), _T(4, 3), _T(4, 3),
               _ALL_GRADS),
    Invocation(_T(0, 3), _T(0, 3), [3], _T(0, 1), _T(0, 1), _T(3), _T(3), _ALL_GRADS),
])
def aten〇native_layer_norm_backward〡shape(grad_out: List[int], input: List[int], normalized_shape: List[int], mean: List[int], rstd: List[int], weight: Optional[List[int]], bias: Optional[List[int]], output_mask: List[bool]) -> Tuple[List[int], List[int], List[int]]:
    # Without weight (bias) the weight (bias) gradient is undefined; its sizes are still given.
    grad_weight = upstream._copy(normalized_shape) if weight is None else upstream._copy(weight)
    grad_bias = upstream._copy(normalized_shape) if bias is None else upstream._copy(bias)
    return upstream._copy(input), grad_weight, grad_bias


@dtype("aten.native_layer_norm_backward", invocations=[
    Invocation(_T(2, 3, dtype=g), _T(2, 3, dtype=d), [3], _T(2, 1), _T(2, 1), _T(3, dtype=w),
               _T(3, dtype=b), _ALL_GRADS)
    for g, d, w, b in itertools.product((torch.float32, torch.float64),
                                        (torch.float16, torch.float32, torch.bfloat16),
                                        _PARAM_SWEEP, (torch.float32, torch.bfloat16))])
def aten〇native_layer_norm_backward〡dtype(grad_out_rank_dtype: Tuple[int, int], input_rank_dtype: Tuple[int, int], normalized_shape: List[int], mean_rank_dtype: Tuple[int, int], rstd_rank_dtype: Tuple[int, int], weight_rank_dtype: Optional[Tuple[int, int]], bias_rank_dtype: Optional[Tuple[int, int]], output_mask: List[bool]) -> Tuple[int, int, int]:
    input_dtype = input_rank_dtype[1]
    weight_dtype = input_dtype if weight_rank_dtype is None else weight_rank_dtype[1]
    bias_dtype = input_dtype if bias_rank_dtype is None else bias_rank_dtype[1]
    return input_dtype, weight_dtype, bias_dtype


# ---------------------------------------------------------------------------- group norm


def _check_group_norm_params(op: str, input: List[int], weight: Optional[List[int]], bias: Optional[List[int]], group: int) -> None:
    if len(input) < 2:
        raise AssertionError(op + ": expected at least 2 dimensions for input tensor")
    if group == 0 or input[1] % group != 0:
        raise AssertionError(op + ": expected number of channels in input to be divisible by num_groups")
    upstream.broadcast(input, _channel_param(weight, len(input)))
    upstream.broadcast(input, _channel_param(bias, len(input)))


@shape("aten.native_group_norm", invocations=[
    Invocation(_T(2, 4, 3), None, None, 2, 4, 3, 2, 1e-5),
    Invocation(_T(2, 4, 3, 5), _T(4), _T(4), 2, 4, 15, 2, 1e-5),
    Invocation(_T(2, 4), None, None, 2, 4, 1, 4, 1e-5),
    Invocation(_T(0, 4, 3), None, None, 0, 4, 3, 2, 1e-5),
    ErrorInvocation(_T(2, 4, 3), _T(5), None, 2, 4, 3, 2, 1e-5),
    ErrorInvocation(_T(2, 4, 3), None, None, 3, 4, 3, 2, 1e-5),
    ErrorInvocation(_T(2, 4, 3), None, None, 2, 4, 4, 2, 1e-5),
    ErrorInvocation(_T(2, 4, 3), None, None, 2, 4, 3, 3, 1e-5),
    ErrorInvocation(_T(4), None, None, 1, 4, 1, 2, 1e-5),
    ErrorInvocation(_T(2, 4, 3), None, None, 2, 4, 3, 0, 1e-5),
])
def aten〇native_group_norm〡shape(input: List[int], weight: Optional[List[int]], bias: Optional[List[int]], N: int, C: int, HxW: int, group: int, eps: float) -> Tuple[List[int], List[int], List[int]]:
    _check_group_norm_params("native_group_norm", input, weight, bias, group)
    if N * C * HxW != upstream.numel(input):
        raise AssertionError("native_group_norm: N * C * HxW must equal the number of input elements")
    return upstream._copy(input), [N, group], [N, group]


@dtype("aten.native_group_norm", invocations=[
    Invocation(_T(2, 4, 3, dtype=d), _T(4, dtype=p), _T(4, dtype=p), 2, 4, 3, 2, 1e-5)
    for d in _SWEEP for p in _PARAM_SWEEP])
def aten〇native_group_norm〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Optional[Tuple[int, int]], bias_rank_dtype: Optional[Tuple[int, int]], N: int, C: int, HxW: int, group: int, eps: float) -> Tuple[int, int, int]:
    _check_float_or_complex("native_group_norm", input_rank_dtype[1])
    return input_rank_dtype[1], input_rank_dtype[1], input_rank_dtype[1]


@shape("aten.native_group_norm_backward", invocations=[
    Invocation(_T(2, 4, 3), _T(2, 4, 3), _T(2, 2), _T(2, 2), _T(4), 2, 4, 3, 2, _ALL_GRADS),
    Invocation(_T(2, 4, 3), _T(2, 4, 3), _T(2, 2), _T(2, 2), None, 2, 4, 3, 2, _ALL_GRADS),
    ErrorInvocation(_T(2, 4, 3), _T(2, 4, 3), _T(2, 3), _T(2, 2), _T(4), 2, 4, 3, 2, _ALL_GRADS),
    ErrorInvocation(_T(2, 4, 3), _T(2, 4, 3), _T(2, 2), _T(1, 2), _T(4), 2, 4, 3, 2, _ALL_GRADS),
    ErrorInvocation(_T(2, 4, 4), _T(2, 4, 3), _T(2, 2), _T(2, 2), _T(4), 2, 4, 3, 2, _ALL_GRADS),
])
def aten〇native_group_norm_backward〡shape(grad_out: List[int], input: List[int], mean: List[int], rstd: List[int], weight: Optional[List[int]], N: int, C: int, HxW: int, group: int, output_mask: List[bool]) -> Tuple[List[int], List[int], List[int]]:
    if grad_out != input:
        raise AssertionError("native_group_norm_backward: grad_out must have the shape of input")
    if mean != [N, group] or rstd != [N, group]:
        raise AssertionError("native_group_norm_backward: mean and rstd must have shape [N, group]")
    return upstream._copy(input), [C], [C]


@dtype("aten.native_group_norm_backward", invocations=[
    Invocation(_T(2, 4, 3, dtype=g), _T(2, 4, 3, dtype=d), _T(2, 2, dtype=d), _T(2, 2, dtype=d),
               _T(4, dtype=w), 2, 4, 3, 2, _ALL_GRADS)
    for g, d, w in itertools.product((torch.float32, torch.float64, torch.float16, torch.bfloat16),
                                     (torch.float16, torch.float32, torch.bfloat16),
                                     (torch.float32, torch.bfloat16, torch.float16))])
def aten〇native_group_norm_backward〡dtype(grad_out_rank_dtype: Tuple[int, int], input_rank_dtype: Tuple[int, int], mean_rank_dtype: Tuple[int, int], rstd_rank_dtype: Tuple[int, int], weight_rank_dtype: Optional[Tuple[int, int]], N: int, C: int, HxW: int, group: int, output_mask: List[bool]) -> Tuple[int, int, int]:
    tensors = [grad_out_rank_dtype, input_rank_dtype, mean_rank_dtype, rstd_rank_dtype]
    if weight_rank_dtype is not None:
        tensors.append(weight_rank_dtype)
    ranks, dtypes = rank_dtype_lists(tensors)
    result = promote_dtypes(ranks, dtypes)
    return result, result, result


@shape("aten.group_norm", invocations=[
    Invocation(_T(2, 4, 3), 2),
    Invocation(_T(2, 4, 3, 5), 4, _T(4), _T(4)),
    Invocation(_T(0, 4, 3), 2),
    ErrorInvocation(_T(2, 4, 3), 3),
    ErrorInvocation(_T(2, 4, 3), 2, _T(5), _T(4)),
    ErrorInvocation(_T(2, 4, 3), 2, _T(4), _T(1)),
    ErrorInvocation(_T(4), 2),
])
def aten〇group_norm〡shape(input: List[int], num_groups: int, weight: Optional[List[int]] = None, bias: Optional[List[int]] = None, eps: float = 1e-05, cudnn_enabled: bool = True) -> List[int]:
    if len(input) < 2:
        raise AssertionError("group_norm: expected at least 2 dimensions for input tensor")
    channels = input[1]
    if num_groups == 0 or channels % num_groups != 0:
        raise AssertionError("group_norm: expected number of channels in input to be divisible by num_groups")
    if weight is not None and weight != [channels]:
        raise AssertionError("group_norm: expected weight to be a vector of size equal to the number of channels")
    if bias is not None and bias != [channels]:
        raise AssertionError("group_norm: expected bias to be a vector of size equal to the number of channels")
    return upstream._copy(input)


@dtype("aten.group_norm", invocations=[
    Invocation(_T(2, 4, 3, dtype=d), 2, _T(4, dtype=p), _T(4, dtype=p))
    for d in _SWEEP for p in _PARAM_SWEEP])
def aten〇group_norm〡dtype(input_rank_dtype: Tuple[int, int], num_groups: int, weight_rank_dtype: Optional[Tuple[int, int]] = None, bias_rank_dtype: Optional[Tuple[int, int]] = None, eps: float = 1e-05, cudnn_enabled: bool = True) -> int:
    _check_float_or_complex("group_norm", input_rank_dtype[1])
    return input_rank_dtype[1]


# ---------------------------------------------------------------------------- dropout


@shape("aten.native_dropout", invocations=[
    Invocation(_T(2, 3), 0.5, True),
    Invocation(_T(), 0.5, False),
    Invocation(_T(0, 3), 0.0, None),
])
def aten〇native_dropout〡shape(input: List[int], p: float, train: Optional[bool]) -> Tuple[List[int], List[int]]:
    return upstream._copy(input), upstream._copy(input)


@dtype("aten.native_dropout", invocations=[
    Invocation(_T(2, 3, dtype=d), p, train)
    for d in _SWEEP for p in (0.0, 0.5, 1.0) for train in (True, False, None)])
def aten〇native_dropout〡dtype(input_rank_dtype: Tuple[int, int], p: float, train: Optional[bool]) -> Tuple[int, int]:
    input_dtype = input_rank_dtype[1]
    # (Float `!=` has no Torch-dialect op; `==` has.)
    drops_some = not (p == 0.0 or p == 1.0)
    if train is not None and train and drops_some and not is_float_dtype(input_dtype):
        raise AssertionError("native_dropout: expected a floating point input")
    return input_dtype, 11  # bool mask


@shape("aten.dropout", invocations=[
    Invocation(_T(2, 3), 0.5, True),
    Invocation(_T(), 0.5, False),
    Invocation(_T(0, 3), 0.0, True),
])
def aten〇dropout〡shape(input: List[int], p: float, train: bool) -> List[int]:
    return upstream._copy(input)


@dtype("aten.dropout", invocations=[
    Invocation(_T(2, 3, dtype=d), p, train)
    for d in _SWEEP for p in (0.0, 0.5, 1.0) for train in (True, False)])
def aten〇dropout〡dtype(input_rank_dtype: Tuple[int, int], p: float, train: bool) -> int:
    input_dtype = input_rank_dtype[1]
    drops_some = not (p == 0.0 or p == 1.0)
    if train and drops_some:
        _check_float_or_complex("dropout", input_dtype)
    return input_dtype
