"""Normalization, dropout, embedding and attention.

The rules are what PyTorch computes on meta tensors. Several of these ops are device
dependent and the meta device answers like an accelerator, not like the CPU:

- the saved statistics of layer norm on float16/bfloat16 inputs are float32 on meta; the
  CPU kernels follow the parameters' dtype.

The native batch norms follow the CPU kernels instead (what runs, and, but for mixed
precision, what FakeTensor and so torch.export give): in eval mode they save empty [0]
statistics (meta: [C]), the statistics have the parameters' dtype (meta: float32 for a
float16/bfloat16 input), and non-float inputs and parameters of another dtype raise.
"""

import itertools
from typing import Any, List, Optional, Tuple, Union

import torch
import torch.jit._shape_functions as upstream

from ._helpers import broadcast_shapes, check_broadcast_padded, check_broadcasts_to, rank_dtype_lists, unknown_dtype
from .elementwise import _can_cast
from .promotion import is_complex_dtype, is_float_dtype, promote_dtypes
from .reductions import aten〇softmax〇int〡dtype, aten〇softmax〇int〡shape
from .registry import dtype, shape
from .testing import (
    ErrorInvocation,
    Invocation,
    KernelErrorInvocation,
    KernelInvocation,
    LongTensorOfShape,
    TensorOfShape,
    TorchMlirInvocation,
    UnknownDtypeInvocation,
    torch_mlir_meaning,
)

_SWEEP = (
    torch.uint8, torch.int32, torch.int64, torch.float16, torch.bfloat16,
    torch.float32, torch.float64, torch.bool, torch.complex64,
)
_PARAM_SWEEP = (torch.float32, torch.float16, torch.float64, torch.int64)


def _T(*sizes, dtype=torch.float32):
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


def _check_channels(input: List[int], param: List[int]) -> None:
    """Meta's check of a per-channel `param` broadcast against the dims 1.. of an input of
    rank 2 or more (`param` then 1s). For a one-size `param` only dim 1 meets a size other
    than 1, so that one comparison is the check, also for an input of unknown rank (no loop
    over its dims)."""
    if len(param) != 1:
        check_broadcast_padded(input, param, len(input) - 1)
        return
    size = input[1]
    channels = param[0]
    if size != channels and size != 1 and channels != 1:
        raise AssertionError(f"batch_norm: the channel dim's size ({size}) must match the "
                             f"per-channel parameter's size ({channels})")


def _check_channel_param(input: List[int], param: Optional[List[int]]) -> None:
    if param is not None:
        _check_channels(input, [upstream.numel(param)])


# ---------------------------------------------------------------------------- batch norm


def _check_running_update(stat: List[int], running: List[int]) -> None:
    # Training updates the running statistic in place: the update must broadcast into it.
    check_broadcasts_to(stat, running, "batch_norm: the update of a running statistic does not fit its shape")


def _batch_norm_shapes(input: List[int], weight: Optional[List[int]], bias: Optional[List[int]],
                       running_mean: Optional[List[int]], running_var: Optional[List[int]],
                       training: bool) -> Tuple[List[int], List[int], List[int]]:
    """native_batch_norm as PyTorch decomposes it: output, save_mean, save_rstd."""
    rank = len(input)
    if training:
        stat: List[int] = []
        if rank >= 2:
            stat.append(input[1])
        if running_mean is not None:
            _check_running_update(stat, running_mean)
        if running_var is not None:
            if rank < 2 or input[1] == 0:
                raise AssertionError(
                    "batch_norm: updating running_var needs a non-empty channel dim")
            _check_running_update(stat, running_var)
        output = upstream._copy(input)
        save_mean = upstream._copy(stat)
        save_rstd = upstream._copy(stat)
    else:
        if running_mean is None or running_var is None:
            raise AssertionError(
                "batch_norm: running_mean and running_var must not be None in eval mode")
        if rank < 2:
            raise AssertionError("batch_norm: expected an input with a channel dim (dim 1)")
        _check_channels(input, running_mean)
        _check_channels(input, running_var)
        _check_channel_param(input, weight)
        _check_channel_param(input, bias)
        # The CPU kernels save nothing in eval mode (FakeTensor agrees; meta saves [C]).
        return upstream._copy(input), [0], [0]
    if rank < 2:
        # Meta broadcasts a per-channel weight into an input without a channel dim.
        output = upstream.broadcast(output, _channel_param(weight, rank))
        output = upstream.broadcast(output, _channel_param(bias, rank))
    else:
        # The CPU kernels keep the input's shape where meta broadcasts a channel dim of 1.
        _check_channel_param(input, weight)
        _check_channel_param(input, bias)
    return output, save_mean, save_rstd


def _batch_norm_output_dtype(input_dtype: int, training: bool) -> int:
    """The composites' (batch_norm, instance_norm) output dtype, as meta computes it."""
    if training:
        _check_float_or_complex("batch_norm", input_dtype)
    elif input_dtype == 11:
        raise AssertionError("batch_norm: bool inputs are not supported")
    return input_dtype


def _native_batch_norm_dtypes(input_dtype: int,
                              params: List[Optional[Tuple[int, int]]]) -> Tuple[int, int, int]:
    """output, save_mean, save_rstd as the CPU kernels give them, in either mode: the
    statistics have the parameters' dtype, which is the input's, or float32 for a
    float16/bfloat16 input (mixed precision; FakeTensor then says the input's dtype)."""
    if not is_float_dtype(input_dtype):
        raise AssertionError("batch_norm: not implemented for non-float inputs")
    param_dtypes: List[int] = []
    for param in params:
        if param is not None:
            param_dtypes.append(param[1])
    # Mixed precision is decided by the first parameter given.
    if len(param_dtypes) == 0 or param_dtypes[0] == input_dtype:
        return input_dtype, input_dtype, input_dtype
    if input_dtype != 5 and input_dtype != 15:
        raise AssertionError("batch_norm: mixed dtype (CPU): all inputs must share same datatype")
    for param_dtype in param_dtypes:
        if param_dtype != 6:
            raise AssertionError(
                "batch_norm: mixed dtype (CPU): expect parameter to have scalar type of Float")
    return input_dtype, 6, 6


_BN_SHAPE_CASES = [
    Invocation(_T(2, 4, 3), _T(4), _T(4), _T(4), _T(4), True, 0.1, 1e-5),
    Invocation(_T(2, 4), None, None, _T(4), _T(4), True, 0.1, 1e-5),
    Invocation(_T(0, 4, 3), _T(4), _T(4), _T(4), _T(4), True, 0.1, 1e-5),
    # Eval mode follows the CPU kernels (empty statistics), which also reject an input
    # without a channel dim; their size checks are missing, so the error cases are meta's.
    KernelInvocation(_T(2, 4, 3), _T(4), _T(4), _T(4), _T(4), False, 0.1, 1e-5),
    KernelInvocation(_T(2, 4, 3, 5), _T(1), None, _T(4), _T(4), False, 0.1, 1e-5),
    KernelInvocation(_T(0, 4, 3, 3), None, None, _T(4), _T(4), False, 0.1, 1e-5),
    KernelErrorInvocation(_T(4), None, None, _T(4), _T(4), False, 0.1, 1e-5),
    KernelErrorInvocation(_T(), None, None, _T(4), _T(4), False, 0.1, 1e-5),
    ErrorInvocation(_T(2, 4, 3), _T(5), _T(4), _T(4), _T(4), True, 0.1, 1e-5),
    ErrorInvocation(_T(2, 4, 3), _T(4), _T(5), _T(4), _T(4), False, 0.1, 1e-5),
    ErrorInvocation(_T(2, 4, 3), _T(4), _T(4), _T(5), _T(4), True, 0.1, 1e-5),
    ErrorInvocation(_T(2, 4, 3), _T(4), _T(4), _T(4), _T(5), False, 0.1, 1e-5),
    ErrorInvocation(_T(4), _T(4), _T(4), _T(4), _T(4), True, 0.1, 1e-5),
    ErrorInvocation(_T(2, 0, 3), None, None, _T(0), _T(0), True, 0.1, 1e-5),
    ErrorInvocation(_T(2, 4, 3), None, None, _T(), _T(4), True, 0.1, 1e-5),
    ErrorInvocation(_T(2, 4, 3), None, None, _T(4), _T(1), True, 0.1, 1e-5),
    Invocation(_T(2, 4, 3), None, None, _T(2, 4), _T(1, 4), True, 0.1, 1e-5),
]


def _bn_dtype_cases(make):
    return [make(d, p, training)
            for d, p, training in itertools.product(_SWEEP, _PARAM_SWEEP, (True, False))]


def _empty_input_promotes(input_dtype: torch.dtype, param_dtype: torch.dtype) -> bool:
    """Whether batch_norm's empty-input arithmetic (`input * weight[0]`) changes the input's
    dtype, the dtype meta gives a non-empty input (the CPU kernel refuses those inputs)."""
    return torch.result_type(torch.empty(1, dtype=input_dtype),
                             torch.empty((), dtype=param_dtype)) != input_dtype


def _cpu_batch_norm_accepts(input_dtype: torch.dtype, param_dtype: torch.dtype) -> bool:
    """Float inputs only, with parameters of their dtype or float32 (mixed precision)."""
    if input_dtype not in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
        return False
    return param_dtype == input_dtype or (
        input_dtype in (torch.float16, torch.bfloat16) and param_dtype == torch.float32)


def _native_bn_dtype_cases(make, modes=(True, False)):
    """The dtype sweep on CPU tensors: `make(input dtype, param dtype, training)` gives the
    arguments."""
    return [(KernelInvocation if _cpu_batch_norm_accepts(d, p) else KernelErrorInvocation)(
                *make(d, p, training))
            for d, p, training in itertools.product(_SWEEP, _PARAM_SWEEP, modes)]


@shape("aten.native_batch_norm", invocations=_BN_SHAPE_CASES + [
    Invocation(_T(2, 4, 3), None, None, None, None, True, 0.1, 1e-5),
    Invocation(_T(4), None, None, None, None, True, 0.1, 1e-5),
    Invocation(_T(), None, None, None, None, True, 0.1, 1e-5),
    ErrorInvocation(_T(2, 4, 3), None, None, None, None, False, 0.1, 1e-5),
    # A channel dim of 1 against 4 channels: the CPU kernel keeps [2, 1, 3], meta gives [2, 4, 3].
    KernelInvocation(_T(2, 1, 3), _T(4), _T(4), _T(4), _T(4), True, 0.1, 1e-5),
    KernelInvocation(_T(2, 1, 3), _T(4), None, None, None, True, 0.1, 1e-5),
    KernelInvocation(_T(2, 1), _T(4), _T(4), _T(4), _T(4), False, 0.1, 1e-5),
])
def aten〇native_batch_norm〡shape(input: List[int], weight: Optional[List[int]], bias: Optional[List[int]], running_mean: Optional[List[int]], running_var: Optional[List[int]], training: bool, momentum: float, eps: float) -> Tuple[List[int], List[int], List[int]]:
    return _batch_norm_shapes(input, weight, bias, running_mean, running_var, training)


@dtype("aten.native_batch_norm", invocations=_native_bn_dtype_cases(
    lambda d, p, training: (_T(2, 4, 3, dtype=d), _T(4, dtype=p), _T(4, dtype=p),
                            _T(4, dtype=p), _T(4, dtype=p), training, 0.1, 1e-5)) + [
    KernelInvocation(_T(2, 4, 3, dtype=torch.float16), None, None, None, None, True, 0.1, 1e-5),
    KernelInvocation(_T(2, 4, 3, dtype=torch.bfloat16), None, None, _T(4), _T(4), False, 0.1,
                     1e-5),
    KernelErrorInvocation(_T(2, 4, 3, dtype=torch.float16), _T(4, dtype=torch.float32),
                          _T(4, dtype=torch.float64), _T(4), _T(4), False, 0.1, 1e-5),
])
def aten〇native_batch_norm〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Optional[Tuple[int, int]], bias_rank_dtype: Optional[Tuple[int, int]], running_mean_rank_dtype: Optional[Tuple[int, int]], running_var_rank_dtype: Optional[Tuple[int, int]], training: bool, momentum: float, eps: float) -> Tuple[int, int, int]:
    return _native_batch_norm_dtypes(input_rank_dtype[1], [
        weight_rank_dtype, bias_rank_dtype, running_mean_rank_dtype, running_var_rank_dtype])


@shape("aten._native_batch_norm_legit", invocations=_BN_SHAPE_CASES)
def aten〇_native_batch_norm_legit〡shape(input: List[int], weight: Optional[List[int]], bias: Optional[List[int]], running_mean: List[int], running_var: List[int], training: bool, momentum: float, eps: float) -> Tuple[List[int], List[int], List[int]]:
    return _batch_norm_shapes(input, weight, bias, running_mean, running_var, training)


@dtype("aten._native_batch_norm_legit", invocations=_native_bn_dtype_cases(
    lambda d, p, training: (_T(2, 4, 3, dtype=d), _T(4, dtype=p), None,
                            _T(4, dtype=p), _T(4, dtype=p), training, 0.1, 1e-5)))
def aten〇_native_batch_norm_legit〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Optional[Tuple[int, int]], bias_rank_dtype: Optional[Tuple[int, int]], running_mean_rank_dtype: Tuple[int, int], running_var_rank_dtype: Tuple[int, int], training: bool, momentum: float, eps: float) -> Tuple[int, int, int]:
    return _native_batch_norm_dtypes(input_rank_dtype[1], [
        weight_rank_dtype, bias_rank_dtype, running_mean_rank_dtype, running_var_rank_dtype])


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


@dtype("aten._native_batch_norm_legit.no_stats", invocations=_native_bn_dtype_cases(
    lambda d, p, training: (_T(2, 4, 3, dtype=d), _T(4, dtype=p), None, training, 0.1, 1e-5),
    modes=(True,)) + [
    KernelInvocation(_T(2, 4, 3, dtype=torch.bfloat16), None, None, True, 0.1, 1e-5),
    # Eval mode without statistics crashes the CPU kernel: meta's error only.
    ErrorInvocation(_T(2, 4, 3), _T(4), None, False, 0.1, 1e-5),
])
def aten〇_native_batch_norm_legit〇no_stats〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Optional[Tuple[int, int]], bias_rank_dtype: Optional[Tuple[int, int]], training: bool, momentum: float, eps: float) -> Tuple[int, int, int]:
    if not training:
        raise AssertionError(
            "batch_norm: running_mean and running_var must not be None in eval mode")
    return _native_batch_norm_dtypes(input_rank_dtype[1], [weight_rank_dtype, bias_rank_dtype])


@shape("aten._native_batch_norm_legit_no_training", invocations=[
    KernelInvocation(_T(2, 4, 3), _T(4), _T(4), _T(4), _T(4), 0.1, 1e-5),
    KernelInvocation(_T(2, 8, 4, 4), None, None, _T(8), _T(8), 0.1, 1e-5),
    KernelErrorInvocation(_T(4), None, None, _T(4), _T(4), 0.1, 1e-5),
    KernelErrorInvocation(_T(), None, None, _T(4), _T(4), 0.1, 1e-5),
    KernelInvocation(_T(0, 4, 3, 3), _T(4), _T(4), _T(4), _T(4), 0.1, 1e-5),
    ErrorInvocation(_T(2, 4, 3), None, None, _T(5), _T(4), 0.1, 1e-5),
    ErrorInvocation(_T(2, 4, 3), _T(3), None, _T(4), _T(4), 0.1, 1e-5),
    KernelInvocation(_T(2, 1, 3, 3), _T(4), _T(4), _T(4), _T(4), 0.1, 1e-5),
    KernelInvocation(_T(2, 1, 3), None, None, _T(4), _T(1), 0.1, 1e-5),
])
def aten〇_native_batch_norm_legit_no_training〡shape(input: List[int], weight: Optional[List[int]], bias: Optional[List[int]], running_mean: List[int], running_var: List[int], momentum: float, eps: float) -> Tuple[List[int], List[int], List[int]]:
    return _batch_norm_shapes(input, weight, bias, running_mean, running_var, False)


@dtype("aten._native_batch_norm_legit_no_training", invocations=_native_bn_dtype_cases(
    lambda d, p, training: (_T(2, 4, 3, dtype=d), _T(4, dtype=p), _T(4, dtype=p),
                            _T(4, dtype=p), _T(4, dtype=p), 0.1, 1e-5),
    modes=(False,)))
def aten〇_native_batch_norm_legit_no_training〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Optional[Tuple[int, int]], bias_rank_dtype: Optional[Tuple[int, int]], running_mean_rank_dtype: Tuple[int, int], running_var_rank_dtype: Tuple[int, int], momentum: float, eps: float) -> Tuple[int, int, int]:
    return _native_batch_norm_dtypes(input_rank_dtype[1], [
        weight_rank_dtype, bias_rank_dtype, running_mean_rank_dtype, running_var_rank_dtype])


def _check_num_features(op: str, name: str, param: Optional[List[int]], num_features: int) -> None:
    if param is not None and upstream.numel(param) != num_features:
        raise AssertionError(op + ": " + name + " should contain one element per channel")


def _times_first_entry(sizes: List[int], param: Optional[List[int]]) -> List[int]:
    """`sizes` broadcast with `param[0]` (batch_norm's arithmetic on an empty input)."""
    if param is None:
        return sizes
    if len(param) == 0 or param[0] == 0:
        raise AssertionError("batch_norm: select(): index 0 out of range")
    return upstream.broadcast(sizes, param[1:])


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
    # An empty input skips the checks (the composite returns early, meta and CPU alike) but
    # multiplies by weight[0] and adds bias[0].
    Invocation(_T(0, 4, 3, 0), _T(4), _T(3), _T(5), _T(4), False, 0.1, 1e-5, False),
    Invocation(_T(0, 4), None, None, None, None, False, 0.1, 1e-5, False),
    Invocation(_T(0), _T(3), None, None, None, True, 0.1, 1e-5, False),
    Invocation(_T(0, 4, 3), _T(2, 1, 1, 4, 3), _T(3, 5, 1, 1, 1, 1), None, None, False, 0.1,
               1e-5, False),
    ErrorInvocation(_T(0, 4, 3), _T(2), _T(0), _T(4), _T(4), False, 0.1, 1e-5, False),
    ErrorInvocation(_T(0, 4, 3), _T(), None, None, None, False, 0.1, 1e-5, False),
    ErrorInvocation(_T(0, 4, 3), _T(2, 5), None, None, None, False, 0.1, 1e-5, False),
])
def aten〇batch_norm〡shape(input: List[int], weight: Optional[List[int]], bias: Optional[List[int]], running_mean: Optional[List[int]], running_var: Optional[List[int]], training: bool, momentum: float, eps: float, cudnn_enabled: bool) -> List[int]:
    if upstream.numel(input) == 0:
        return _times_first_entry(_times_first_entry(upstream._copy(input), weight), bias)
    num_features = input[1] if len(input) > 1 else 0
    _check_num_features("batch_norm", "weight", weight, num_features)
    _check_num_features("batch_norm", "bias", bias, num_features)
    _check_num_features("batch_norm", "running_mean", running_mean, num_features)
    _check_num_features("batch_norm", "running_var", running_var, num_features)
    if not training and (running_mean is None or running_var is None):
        raise AssertionError(
            "batch_norm: running_mean and running_var must be defined in evaluation mode")
    return _batch_norm_shapes(input, weight, bias, running_mean, running_var, training)[0]


@dtype("aten.batch_norm", invocations=_bn_dtype_cases(
    lambda d, p, training: (UnknownDtypeInvocation if _empty_input_promotes(d, p) else Invocation)(
        _T(2, 4, 3, dtype=d), _T(4, dtype=p), _T(4, dtype=p), _T(4, dtype=p), _T(4, dtype=p),
        training, 0.1, 1e-5, False))
    # A weight of rank > 1 promotes with an empty input (weight[0] is no 0-dim tensor).
    + [UnknownDtypeInvocation(_T(0, 2, 1, dtype=torch.uint8), _T(2, 1, 1, dtype=torch.int64),
                              None, None, None, False, 0.1, 1e-5, False),
       ErrorInvocation(_T(2, 4, 3, dtype=torch.bool), _T(4), _T(4), _T(4), _T(4), False, 0.1,
                       1e-5, False)])
def aten〇batch_norm〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Optional[Tuple[int, int]], bias_rank_dtype: Optional[Tuple[int, int]], running_mean_rank_dtype: Optional[Tuple[int, int]], running_var_rank_dtype: Optional[Tuple[int, int]], training: bool, momentum: float, eps: float, cudnn_enabled: bool) -> int:
    output_dtype = _batch_norm_output_dtype(input_rank_dtype[1], training)
    # An empty input gives `input * weight[0] + bias[0]`, promoted; where that differs from
    # the dtype of a non-empty input, the dtype depends on the sizes' values.
    if _empty_input_dtype(input_rank_dtype, [weight_rank_dtype, bias_rank_dtype]) != output_dtype:
        return unknown_dtype()
    return output_dtype


def _empty_input_dtype(input_rank_dtype: Tuple[int, int],
                       params: List[Optional[Tuple[int, int]]]) -> int:
    """batch_norm's result dtype on an empty input: the input times `weight[0]` plus
    `bias[0]` (entries one rank below their parameter)."""
    result = input_rank_dtype[1]
    for param in params:
        if param is not None:
            ranks: List[Optional[int]] = [input_rank_dtype[0], max(param[0] - 1, 0)]
            result = promote_dtypes(ranks, [result, param[1]])
    return result


@shape("aten.instance_norm", invocations=[
    ErrorInvocation(_T(2, 4, 3), _T(4), _T(1, 4), _T(4), _T(4), True, 0.1, 1e-5, False),
    ErrorInvocation(_T(2, 4, 3), _T(4, 1), _T(4), None, None, True, 0.1, 1e-5, False),
    ErrorInvocation(_T(2, 4, 3), _T(4), _T(4), _T(1, 4), _T(4), True, 0.1, 1e-5, False),
    ErrorInvocation(_T(2, 4, 3), _T(4), _T(4), _T(4), _T(1, 4), False, 0.1, 1e-5, False),
    Invocation(_T(2, 4, 3), _T(4), _T(4), _T(4), _T(4), True, 0.1, 1e-5, False),
    Invocation(_T(2, 4, 3), _T(4), _T(4), _T(4), _T(4), False, 0.1, 1e-5, False),
    Invocation(_T(2, 4, 3, 3), None, None, None, None, True, 0.1, 1e-5, False),
    Invocation(_T(2, 4), None, None, None, None, True, 0.1, 1e-5, False),
    ErrorInvocation(_T(2, 4, 3), None, None, None, None, False, 0.1, 1e-5, False),
    ErrorInvocation(_T(2, 4, 3), _T(5), None, None, None, True, 0.1, 1e-5, False),
    ErrorInvocation(_T(2, 4, 3), None, None, _T(5), _T(5), True, 0.1, 1e-5, False),
    Invocation(_T(3, 4, 0), _T(4), _T(4), _T(), _T(4), False, 0.1, 1e-5, False),
    Invocation(_T(3, 4, 0), _T(5), None, _T(1), _T(4), False, 0.1, 1e-5, False),
    Invocation(_T(3, 4, 0), _T(5), None, _T(4), _T(4), True, 0.1, 1e-5, False),
    ErrorInvocation(_T(3, 4, 0), _T(4), None, _T(1), _T(4), True, 0.1, 1e-5, False),
    Invocation(_T(0, 4, 3), None, None, _T(4), _T(4), True, 0.1, 1e-5, False),
    ErrorInvocation(_T(0, 4, 3), _T(4), _T(4), _T(4), _T(4), True, 0.1, 1e-5, False),
    ErrorInvocation(_T(3, 4, 2), _T(4), _T(4), _T(), _T(4), False, 0.1, 1e-5, False),
])
def aten〇instance_norm〡shape(input: List[int], weight: Optional[List[int]], bias: Optional[List[int]], running_mean: Optional[List[int]], running_var: Optional[List[int]], use_input_stats: bool, momentum: float, eps: float, cudnn_enabled: bool) -> List[int]:
    if not use_input_stats and (running_mean is None or running_var is None):
        raise AssertionError(
            "instance_norm: expected running_mean and running_var to be defined when"
            " use_input_stats is false")
    # The parameters and statistics are repeated once per batch entry (`repeat` with one
    # count), which takes at most 1 dim.
    for param in [weight, bias, running_mean, running_var]:
        if param is not None and len(param) > 1:
            raise AssertionError(
                "instance_norm: expected weight, bias, running_mean and running_var of 1 dim")
    num_features = input[1] if len(input) > 1 else 0
    if upstream.numel(input) == 0:
        # batch_norm gives an empty input `input * weight[0] + bias[0]` and checks no sizes:
        # the weight and bias, repeated per batch entry, need an entry; with input stats the
        # updated statistics are written back through a view of them as [b, c].
        for param in [weight, bias]:
            if param is not None and input[0] * upstream.numel(param) == 0:
                raise AssertionError("instance_norm: select(): index 0 out of range")
        if use_input_stats:
            _check_num_features("instance_norm", "running_mean", running_mean, num_features)
            _check_num_features("instance_norm", "running_var", running_var, num_features)
        return upstream._copy(input)
    _check_num_features("instance_norm", "weight", weight, num_features)
    _check_num_features("instance_norm", "bias", bias, num_features)
    _check_num_features("instance_norm", "running_mean", running_mean, num_features)
    _check_num_features("instance_norm", "running_var", running_var, num_features)
    return upstream._copy(input)


@dtype("aten.instance_norm", invocations=_bn_dtype_cases(
    lambda d, p, training: (UnknownDtypeInvocation if _empty_input_promotes(d, p) else Invocation)(
        _T(2, 4, 3, dtype=d), _T(4, dtype=p), _T(4, dtype=p), _T(4, dtype=p), _T(4, dtype=p),
        training, 0.1, 1e-5, False))
    + [ErrorInvocation(
        _T(2, 4, 3, dtype=torch.uint8),
        _T(4),
        _T(4),
        _T(4),
        _T(4),
        True,
        0.1,
        1e-05,
        False,
    ),
    # An empty input returns `input * weight[0] + bias[0]` (batch_norm's early return):
    # promoted, so its dtype depends on the sizes' values.
    UnknownDtypeInvocation(_T(2, 0, 2, dtype=torch.uint8), _T(4), _T(4), _T(4), _T(4), False, 0.1,
                           1e-5, False)])
def aten〇instance_norm〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Optional[Tuple[int, int]], bias_rank_dtype: Optional[Tuple[int, int]], running_mean_rank_dtype: Optional[Tuple[int, int]], running_var_rank_dtype: Optional[Tuple[int, int]], use_input_stats: bool, momentum: float, eps: float, cudnn_enabled: bool) -> int:
    if use_input_stats and running_mean_rank_dtype is not None:
        # The running statistics are updated with a mean over the batch.
        _check_float_or_complex("instance_norm", running_mean_rank_dtype[1])
    output_dtype = _batch_norm_output_dtype(input_rank_dtype[1], use_input_stats)
    if _empty_input_dtype(input_rank_dtype, [weight_rank_dtype, bias_rank_dtype]) != output_dtype:
        return unknown_dtype()
    return output_dtype


# ---------------------------------------------------------------------------- layer norm


def _layer_norm_shapes(op: str, input: List[int], normalized_shape: List[int],
                       weight: Optional[List[int]], bias: Optional[List[int]]) -> Tuple[List[int],
                       List[int], List[int]]:
    if len(normalized_shape) == 0:
        raise AssertionError(op + ": expected normalized_shape to contain at least one element")
    normalized_shape = _normalized_dims(input, normalized_shape)
    if weight is not None and weight != normalized_shape:
        raise AssertionError(op + ": expected weight to be of same shape as normalized_shape")
    if bias is not None and bias != normalized_shape:
        raise AssertionError(op + ": expected bias to be of same shape as normalized_shape")
    axis = len(input) - len(normalized_shape)
    if axis < 0 or input[axis:] != normalized_shape:
        raise AssertionError(op + ": input's trailing dims do not match normalized_shape")
    return upstream.native_layer_norm(input, normalized_shape)


def _normalized_dims(input: List[int], normalized_shape: List[int]) -> List[int]:
    """normalized_shape as torch-mlir reads it: a -1 is the input's own dim there (its ONNX
    LayerNormalization conversion writes -1 for a dim the input types `?`; its lowering
    takes the normalized dims' sizes from the input). PyTorch's op rejects a -1."""
    axis = len(input) - len(normalized_shape)
    dims: List[int] = []
    for i, size in enumerate(normalized_shape):
        dims.append(input[axis + i] if size == -1 and 0 <= axis + i < len(input) else size)
    return dims


@torch_mlir_meaning("aten.native_layer_norm")
def _native_layer_norm_of_input_dims(input: torch.Tensor, normalized_shape: List[int], weight: Optional[torch.Tensor],
                                     bias: Optional[torch.Tensor], eps: float) -> Any:
    """native_layer_norm as torch-mlir lowers it: a -1 in normalized_shape is the input's dim."""
    dims = _normalized_dims(list(input.shape), list(normalized_shape))
    return torch.ops.aten.native_layer_norm(input, dims, weight, bias, eps)


@torch_mlir_meaning("aten.layer_norm")
def _layer_norm_of_input_dims(input: torch.Tensor, normalized_shape: List[int], weight: Optional[torch.Tensor] = None,
                              bias: Optional[torch.Tensor] = None, eps: float = 1e-5, cudnn_enable: bool = True) -> Any:
    """layer_norm as torch-mlir lowers it: a -1 in normalized_shape is the input's dim."""
    dims = _normalized_dims(list(input.shape), list(normalized_shape))
    return torch.ops.aten.layer_norm(input, dims, weight, bias, eps, cudnn_enable)


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
    TorchMlirInvocation(_T(2, 4, 3), [-1], _T(3), _T(3), 1e-5),
    TorchMlirInvocation(_T(2, 4, 3), [4, -1], None, None, 1e-5),
    ErrorInvocation(_T(2, 4, 3), [-1], _T(4), None, 1e-5),
]


@shape("aten.native_layer_norm", invocations=_LAYER_NORM_SHAPE_CASES)
def aten〇native_layer_norm〡shape(input: List[int], normalized_shape: List[int], weight: Optional[List[int]], bias: Optional[List[int]], eps: float) -> Tuple[List[int], List[int], List[int]]:
    return _layer_norm_shapes("native_layer_norm", input, normalized_shape, weight, bias)


@dtype("aten.native_layer_norm", invocations=[
    Invocation(_T(2, 3, dtype=d), [3], _T(3, dtype=p), _T(3, dtype=p), 1e-5)
    for d in _SWEEP for p in _PARAM_SWEEP]
    + [ErrorInvocation(_T(2, 3, dtype=torch.uint8), [3], _T(3), _T(3), 1e-05)])
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
    for d in _SWEEP for p in _PARAM_SWEEP]
    + [ErrorInvocation(_T(2, 3, dtype=torch.uint8), [3], _T(3), _T(3))])
def aten〇layer_norm〡dtype(input_rank_dtype: Tuple[int, int], normalized_shape: List[int], weight_rank_dtype: Optional[Tuple[int, int]] = None, bias_rank_dtype: Optional[Tuple[int, int]] = None, eps: float = 1e-05, cudnn_enable: bool = True) -> int:
    _check_layer_norm_dtype("layer_norm", input_rank_dtype[1])
    return input_rank_dtype[1]


_ALL_GRADS = [True, True, True]


@shape("aten.native_layer_norm_backward", invocations=[
    Invocation(_T(2, 4, 3), _T(2, 4, 3), [3], _T(2, 4, 1), _T(2, 4, 1), _T(3), _T(3), _ALL_GRADS),
    Invocation(_T(2, 4, 3), _T(2, 4, 3), [4, 3], _T(2, 1, 1), _T(2, 1, 1), _T(4, 3), _T(4, 3),
               _ALL_GRADS),
    Invocation(_T(0, 3), _T(0, 3), [3], _T(0, 1), _T(0, 1), _T(3), _T(3), _ALL_GRADS),
    Invocation(_T(0, 0), _T(0, 3), [3], _T(0, 1), _T(1, 1), _T(3), _T(3), _ALL_GRADS),
    ErrorInvocation(_T(2, 4, 5), _T(2, 4, 3), [3], _T(2, 4, 1), _T(2, 4, 1), _T(3), _T(3),
                    _ALL_GRADS),
    ErrorInvocation(_T(2, 4, 3), _T(2, 4, 3), [5], _T(2, 4, 1), _T(2, 4, 1), _T(5), _T(5),
                    _ALL_GRADS),
    ErrorInvocation(_T(2, 4, 3), _T(2, 4, 3), [3], _T(2, 4, 1), _T(2, 4, 1), _T(4), _T(3),
                    [True, False, False]),
    Invocation(_T(2, 3), _T(2, 3), [3], _T(2), _T(), _T(3), _T(3), _ALL_GRADS),
    ErrorInvocation(_T(2, 3), _T(2, 3), [3], _T(1, 2), _T(1, 1), _T(3), _T(3), _ALL_GRADS),
    ErrorInvocation(_T(2, 3), _T(2, 3), [3], _T(2, 1), _T(3), _T(3), _T(3), _ALL_GRADS),
    # Checks of the CPU and CUDA kernels that the meta decomposition skips.
    KernelErrorInvocation(_T(2, 4, 3), _T(2, 4, 3), [3], _T(2, 4, 1), _T(2, 4, 1), _T(3), _T(4),
                          _ALL_GRADS),
    KernelErrorInvocation(_T(2, 4, 3), _T(2, 4, 3), [], _T(2, 4, 3), _T(2, 4, 3), _T(), _T(),
                          _ALL_GRADS),
])
def aten〇native_layer_norm_backward〡shape(grad_out: List[int], input: List[int], normalized_shape: List[int], mean: List[int], rstd: List[int], weight: Optional[List[int]], bias: Optional[List[int]], output_mask: List[bool]) -> Tuple[List[int], List[int], List[int]]:
    _layer_norm_shapes("native_layer_norm_backward", input, normalized_shape, weight, bias)
    # Without weight (bias) the weight (bias) gradient is undefined; its sizes are still given.
    grad_weight = upstream._copy(normalized_shape) if weight is None else upstream._copy(weight)
    grad_bias = upstream._copy(normalized_shape) if bias is None else upstream._copy(bias)
    if upstream.numel(input) == 0:  # zeros, before grad_out and the statistics are read
        return upstream._copy(input), grad_weight, grad_bias
    if grad_out != input:
        raise AssertionError("native_layer_norm_backward: grad_out's shape differs from input's")
    # The meta decomposition computes (input - mean) * rstd, the statistics unsqueezed at
    # the end to the input's rank.
    for stat in [mean, rstd]:
        check_broadcast_padded(input, stat, len(input))
    return upstream._copy(input), grad_weight, grad_bias


@dtype("aten.native_layer_norm_backward", invocations=[
    (Invocation if w == d and b == d else UnknownDtypeInvocation)(
        _T(2, 3, dtype=g), _T(2, 3, dtype=d), [3], _T(2, 1), _T(2, 1), _T(3, dtype=w),
        _T(3, dtype=b), _ALL_GRADS)
    for g, d, w, b in itertools.product((torch.float32, torch.float64),
                                        (torch.float16, torch.float32, torch.bfloat16),
                                        _PARAM_SWEEP, (torch.float32, torch.bfloat16))]
    # An empty input's weight gradient is float16 here, a non-empty one's float64.
    + [UnknownDtypeInvocation(_T(0, 3, dtype=torch.float16), _T(0, 3, dtype=torch.float16), [3],
                              _T(0, 1), _T(0, 1), _T(3, dtype=torch.float64), _T(3), _ALL_GRADS)])
def aten〇native_layer_norm_backward〡dtype(grad_out_rank_dtype: Tuple[int, int], input_rank_dtype: Tuple[int, int], normalized_shape: List[int], mean_rank_dtype: Tuple[int, int], rstd_rank_dtype: Tuple[int, int], weight_rank_dtype: Optional[Tuple[int, int]], bias_rank_dtype: Optional[Tuple[int, int]], output_mask: List[bool]) -> Tuple[int, int, int]:
    input_dtype = input_rank_dtype[1]
    return (input_dtype, _layer_norm_param_grad_dtype(input_dtype, weight_rank_dtype),
            _layer_norm_param_grad_dtype(input_dtype, bias_rank_dtype))


def _layer_norm_param_grad_dtype(input_dtype: int, param_rank_dtype: Optional[Tuple[int, int]]) -> int:
    """A parameter's gradient has the parameter's dtype, but an empty input's zeros have the
    input's: a size decides between two different dtypes."""
    if param_rank_dtype is None or param_rank_dtype[1] == input_dtype:
        return input_dtype
    return unknown_dtype()


# ---------------------------------------------------------------------------- group norm


def _check_group_norm_params(op: str, input: List[int], weight: Optional[List[int]],
                             bias: Optional[List[int]], group: int) -> None:
    if len(input) < 2:
        raise AssertionError(op + ": expected at least 2 dimensions for input tensor")
    if group <= 0:
        raise AssertionError(op + ": expected num groups to be greater than 0")
    if input[1] % group != 0:
        raise AssertionError(
            op + ": expected number of channels in input to be divisible by num_groups")
    _check_channel_param(input, weight)
    _check_channel_param(input, bias)


@shape("aten.native_group_norm", invocations=[
    Invocation(_T(2, 4, 3), None, None, 2, 4, 3, 2, 1e-5),
    Invocation(_T(2, 4, 3, 5), _T(4), _T(4), 2, 4, 15, 2, 1e-5),
    Invocation(_T(2, 4), None, None, 2, 4, 1, 4, 1e-5),
    Invocation(_T(0, 4, 3), None, None, 0, 4, 3, 2, 1e-5),
    ErrorInvocation(_T(2, 4, 3), None, None, 2, 4, 3, -1, 1e-5),
    ErrorInvocation(_T(2, 4, 3), None, None, 2, 4, 3, -4, 1e-5),
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
        raise AssertionError(
            "native_group_norm: N * C * HxW must equal the number of input elements")
    return upstream._copy(input), [N, group], [N, group]


@dtype("aten.native_group_norm", invocations=[
    Invocation(_T(2, 4, 3, dtype=d), _T(4, dtype=p), _T(4, dtype=p), 2, 4, 3, 2, 1e-5)
    for d in _SWEEP for p in _PARAM_SWEEP]
    + [ErrorInvocation(_T(2, 4, 3, dtype=torch.uint8), _T(4), _T(4), 2, 4, 3, 2, 1e-05)])
def aten〇native_group_norm〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Optional[Tuple[int, int]], bias_rank_dtype: Optional[Tuple[int, int]], N: int, C: int, HxW: int, group: int, eps: float) -> Tuple[int, int, int]:
    _check_float_or_complex("native_group_norm", input_rank_dtype[1])
    return input_rank_dtype[1], input_rank_dtype[1], input_rank_dtype[1]


@shape("aten.native_group_norm_backward", invocations=[
    Invocation(_T(2, 4, 3), _T(2, 4, 3), _T(2, 2), _T(2, 2), _T(4), 2, 4, 3, 2, _ALL_GRADS),
    Invocation(_T(2, 4, 3), _T(2, 4, 3), _T(2, 2), _T(2, 2), None, 2, 4, 3, 2, _ALL_GRADS),
    ErrorInvocation(_T(2, 4, 3), _T(2, 4, 3), _T(2, 3), _T(2, 2), _T(4), 2, 4, 3, 2, _ALL_GRADS),
    ErrorInvocation(_T(2, 4, 3), _T(2, 4, 3), _T(2, 2), _T(1, 2), _T(4), 2, 4, 3, 2, _ALL_GRADS),
    ErrorInvocation(_T(2, 4, 4), _T(2, 4, 3), _T(2, 2), _T(2, 2), _T(4), 2, 4, 3, 2, _ALL_GRADS),
    Invocation(_T(3, 4, 2), _T(3, 4, 2), _T(2, 2), _T(2, 2), _T(4), 2, 4, 3, 2, _ALL_GRADS),
    Invocation(_T(0, 4, 3), _T(0, 4, 3), _T(0, 2), _T(0, 2), _T(4), 0, 4, 3, 2, _ALL_GRADS),
    ErrorInvocation(_T(2, 3), _T(2, 3), _T(2, 2), _T(2, 2), _T(4), 2, 4, 3, 2, _ALL_GRADS),
    ErrorInvocation(_T(2, 4, 3), _T(2, 4, 3), _T(2, 2), _T(2, 2), _T(5), 2, 4, 3, 2, _ALL_GRADS),
    ErrorInvocation(_T(2, 4, 3), _T(2, 4, 3), _T(2, 3), _T(2, 3), _T(4), 2, 4, 3, 3, _ALL_GRADS),
    ErrorInvocation(_T(2, 4, 3), _T(2, 4, 3), _T(2, 0), _T(2, 0), _T(4), 2, 4, 3, 0, _ALL_GRADS),
])
def aten〇native_group_norm_backward〡shape(grad_out: List[int], input: List[int], mean: List[int], rstd: List[int], weight: Optional[List[int]], N: int, C: int, HxW: int, group: int, output_mask: List[bool]) -> Tuple[List[int], List[int], List[int]]:
    if grad_out != input:
        raise AssertionError("native_group_norm_backward: grad_out must have the shape of input")
    if mean != [N, group] or rstd != [N, group]:
        raise AssertionError("native_group_norm_backward: mean and rstd must have shape [N, group]")
    if upstream.numel(input) != N * C * HxW:
        raise AssertionError("native_group_norm_backward: input must have N * C * HxW elements")
    if weight is not None and upstream.numel(weight) != C:
        raise AssertionError("native_group_norm_backward: weight must have C elements")
    if group == 0 or C % group != 0:
        raise AssertionError(
            "native_group_norm_backward: expected the channels to be divisible by the groups")
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
    ErrorInvocation(_T(2, 4, 3), -1),
    ErrorInvocation(_T(2, 4, 3), -4),
    ErrorInvocation(_T(2, 4, 3), 2, _T(5), _T(4)),
    ErrorInvocation(_T(2, 4, 3), 2, _T(4), _T(1)),
    ErrorInvocation(_T(4), 2),
])
def aten〇group_norm〡shape(input: List[int], num_groups: int, weight: Optional[List[int]] = None, bias: Optional[List[int]] = None, eps: float = 1e-05, cudnn_enabled: bool = True) -> List[int]:
    if len(input) < 2:
        raise AssertionError("group_norm: expected at least 2 dimensions for input tensor")
    channels = input[1]
    if num_groups <= 0:
        raise AssertionError("group_norm: expected num groups to be greater than 0")
    if channels % num_groups != 0:
        raise AssertionError(
            "group_norm: expected number of channels in input to be divisible by num_groups")
    if weight is not None and weight != [channels]:
        raise AssertionError(
            "group_norm: expected weight to be a vector of size equal to the number of channels")
    if bias is not None and bias != [channels]:
        raise AssertionError(
            "group_norm: expected bias to be a vector of size equal to the number of channels")
    return upstream._copy(input)


@dtype("aten.group_norm", invocations=[
    Invocation(_T(2, 4, 3, dtype=d), 2, _T(4, dtype=p), _T(4, dtype=p))
    for d in _SWEEP for p in _PARAM_SWEEP]
    + [ErrorInvocation(_T(2, 4, 3, dtype=torch.uint8), 2, _T(4), _T(4))])
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
    for d in _SWEEP for p in (0.0, 0.5, 1.0) for train in (True, False, None)]
    + [ErrorInvocation(_T(2, 3, dtype=torch.uint8), 0.5, True)])
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
    for d in _SWEEP for p in (0.0, 0.5, 1.0) for train in (True, False)]
    + [ErrorInvocation(_T(2, 3, dtype=torch.uint8), 0.5, True)])
def aten〇dropout〡dtype(input_rank_dtype: Tuple[int, int], p: float, train: bool) -> int:
    input_dtype = input_rank_dtype[1]
    drops_some = not (p == 0.0 or p == 1.0)
    if train and drops_some:
        _check_float_or_complex("dropout", input_dtype)
    return input_dtype


# ---------------------------------------------------------------------------- embedding


def _check_index_dtype(op: str, name: str, dtype: int) -> None:
    if dtype != 3 and dtype != 4:  # int32, int64
        raise AssertionError(op + ": expected " + name + " to be an int32 or int64 tensor")


@shape("aten.embedding", invocations=[
    Invocation(_T(10, 3), LongTensorOfShape(2, 4)),
    Invocation(_T(10, 3), LongTensorOfShape()),
    Invocation(_T(10, 3), LongTensorOfShape(0), 2, True, False),
    ErrorInvocation(_T(10), LongTensorOfShape(4)),
    ErrorInvocation(_T(10, 3, 2), LongTensorOfShape(4)),
])
def aten〇embedding〡shape(weight: List[int], indices: List[int], padding_idx: int = -1, scale_grad_by_freq: bool = False, sparse: bool = False) -> List[int]:
    if len(weight) != 2:
        raise AssertionError("embedding: weight must be 2-D")
    out = upstream._copy(indices)
    out.append(weight[1])
    return out


@dtype("aten.embedding", invocations=[
    Invocation(_T(10, 3, dtype=w), _T(4, dtype=i))
    for w in _SWEEP
    for i in (torch.int64, torch.int32, torch.int16, torch.uint8, torch.float32, torch.bool)]
    + [ErrorInvocation(_T(10, 3, dtype=torch.uint8), _T(4, dtype=torch.int16))])
def aten〇embedding〡dtype(weight_rank_dtype: Tuple[int, int], indices_rank_dtype: Tuple[int, int], padding_idx: int = -1, scale_grad_by_freq: bool = False, sparse: bool = False) -> int:
    _check_index_dtype("embedding", "indices", indices_rank_dtype[1])
    return weight_rank_dtype[1]


@shape("aten.embedding_dense_backward", invocations=[
    Invocation(_T(2, 4, 3), LongTensorOfShape(2, 4), 10, -1, False),
    Invocation(_T(3), LongTensorOfShape(), 10, 2, True),
    Invocation(_T(0, 3), LongTensorOfShape(0), 0, -1, False),
    ErrorInvocation(_T(), LongTensorOfShape(), 10, -1, False),
    ErrorInvocation(_T(2, 4, 3), LongTensorOfShape(2, 4), -9223372036854775807, -1, False),
])
def aten〇embedding_dense_backward〡shape(grad_output: List[int], indices: List[int], num_weights: int, padding_idx: int, scale_grad_by_freq: bool) -> List[int]:
    if len(grad_output) == 0:
        raise AssertionError("embedding_dense_backward: grad_output must have at least one dim")
    if num_weights < 0:
        raise AssertionError("embedding_dense_backward: num_weights must not be negative")
    return [num_weights, grad_output[-1]]


@dtype("aten.embedding_dense_backward", invocations=[
    Invocation(_T(2, 4, 3, dtype=g), _T(2, 4, dtype=i), 10, -1, False)
    for g in _SWEEP for i in (torch.int64, torch.int32, torch.float32)])
def aten〇embedding_dense_backward〡dtype(grad_output_rank_dtype: Tuple[int, int], indices_rank_dtype: Tuple[int, int], num_weights: int, padding_idx: int, scale_grad_by_freq: bool) -> int:
    return grad_output_rank_dtype[1]


@shape("aten._embedding_bag", invocations=[
    Invocation(_T(10, 3), LongTensorOfShape(8), LongTensorOfShape(4)),
    Invocation(_T(10, 3), LongTensorOfShape(8), LongTensorOfShape(4), False, 1, False, None, True),
    Invocation(_T(10, 3), LongTensorOfShape(8), LongTensorOfShape(4), False, 2, False, None, False,
               1),
    Invocation(_T(10, 3), LongTensorOfShape(8), LongTensorOfShape(4), False, 0, False, _T(8)),
    Invocation(_T(10, 3), LongTensorOfShape(0), LongTensorOfShape(1), False, 2, False, None, True),
    ErrorInvocation(_T(10, 3), LongTensorOfShape(8), LongTensorOfShape(0), False, 0, False, None,
                    True),
    ErrorInvocation(_T(10, 3), LongTensorOfShape(8), LongTensorOfShape(4), False, 1, False, _T(8)),
    ErrorInvocation(_T(10, 3), LongTensorOfShape(8), LongTensorOfShape(4), False, 0, False, _T(7)),
    ErrorInvocation(_T(10, 3), LongTensorOfShape(8), LongTensorOfShape(4), False, 0, False,
                    _T(8, 1)),
    Invocation(_T(10, 3, 2), LongTensorOfShape(8), LongTensorOfShape(4, 2)),
    ErrorInvocation(_T(), LongTensorOfShape(8), LongTensorOfShape(4)),
    ErrorInvocation(_T(10), LongTensorOfShape(8), LongTensorOfShape(4)),
    ErrorInvocation(_T(10, 3), LongTensorOfShape(), LongTensorOfShape(4)),
    ErrorInvocation(_T(10, 3), LongTensorOfShape(8), LongTensorOfShape()),
])
def aten〇_embedding_bag〡shape(weight: List[int], indices: List[int], offsets: List[int], scale_grad_by_freq: bool = False, mode: int = 0, sparse: bool = False, per_sample_weights: Optional[List[int]] = None, include_last_offset: bool = False, padding_idx: int = -1) -> Tuple[List[int], List[int], List[int], List[int]]:
    # The meta kernel reads weight.size(1), indices.size(0) and offsets.size(0) (the CPU
    # kernel wants exactly 2, 1 and 1 dims).
    if len(weight) < 2:
        raise AssertionError("_embedding_bag: expected weight to have at least 2 dims")
    if len(indices) < 1 or len(offsets) < 1:
        raise AssertionError("_embedding_bag: expected indices and offsets to have a dim")
    num_bags = offsets[0]
    if include_last_offset:
        if num_bags < 1:
            raise AssertionError("_embedding_bag: include_last_offset needs at least one offset")
        num_bags = num_bags - 1
    if per_sample_weights is not None:
        if mode != 0:
            raise AssertionError(
                "_embedding_bag: per_sample_weights only supported with mode='sum'")
        if len(per_sample_weights) != 1:
            raise AssertionError("_embedding_bag: expected per_sample_weights to be a 1D tensor")
        if per_sample_weights[0] != upstream.numel(indices):
            raise AssertionError(
                "_embedding_bag: expected per_sample_weights to have one weight per index")
    # The meta kernel's rule; the CPU kernel sizes offset2bag by its fast path.
    max_indices = [num_bags, weight[1]] if mode == 2 else [0]
    return [num_bags, weight[1]], [indices[0]], upstream._copy(offsets), max_indices


@dtype("aten._embedding_bag", invocations=[
    Invocation(_T(10, 3, dtype=w), _T(8, dtype=i), _T(4, dtype=o))
    for w in _SWEEP for i in (torch.int64, torch.int32, torch.int16)
    for o in (torch.int64, torch.int32, torch.float32)]
    + [ErrorInvocation(
        _T(10, 3, dtype=torch.uint8),
        _T(8, dtype=torch.int64),
        _T(4, dtype=torch.int64),
    )])
def aten〇_embedding_bag〡dtype(weight_rank_dtype: Tuple[int, int], indices_rank_dtype: Tuple[int, int], offsets_rank_dtype: Tuple[int, int], scale_grad_by_freq: bool = False, mode: int = 0, sparse: bool = False, per_sample_weights_rank_dtype: Optional[Tuple[int, int]] = None, include_last_offset: bool = False, padding_idx: int = -1) -> Tuple[int, int, int, int]:
    _check_index_dtype("_embedding_bag", "indices", indices_rank_dtype[1])
    _check_index_dtype("_embedding_bag", "offsets", offsets_rank_dtype[1])
    if not is_float_dtype(weight_rank_dtype[1]):
        raise AssertionError("_embedding_bag: expected weight to be a floating point tensor")
    index_dtype = indices_rank_dtype[1]
    return weight_rank_dtype[1], index_dtype, index_dtype, index_dtype


# ---------------------------------------------------------------------------- attention


def _sdpa_shape(query: List[int], key: List[int], value: List[int], attn_mask: Optional[List[int]],
                is_causal: bool, enable_gqa: bool) -> List[int]:
    """softmax(query @ key^T + attn_mask) @ value, batch dims broadcast."""
    if len(query) < 2 or len(key) < 2 or len(value) < 2:
        raise AssertionError(
            "scaled_dot_product_attention: expected query, key and value to be at least 2D")
    # An empty result (no query rows, or an empty value) returns before any other check.
    if query[-2] == 0 or upstream.numel(value) == 0:
        return query[:-1] + [value[-1]]
    if is_causal and attn_mask is not None:
        raise AssertionError(
            "scaled_dot_product_attention: explicit attn_mask should not be set when"
            " is_causal=True")
    key = upstream._copy(key)
    value = upstream._copy(value)
    if enable_gqa and len(query) >= 3 and len(key) >= 3 and len(value) >= 3:
        heads = query[-3]
        if heads % key[-3] != 0 or heads % value[-3] != 0:
            raise AssertionError(
                "scaled_dot_product_attention: number of heads in key and value must divide the"
                " number of heads in query")
        key[-3] = heads
        value[-3] = heads
    if query[-1] != key[-1]:
        raise AssertionError(
            "scaled_dot_product_attention: query and key must have the same embedding size")
    scores = upstream.matmul(query, upstream.transpose(key, -2, -1))
    if attn_mask is not None:
        scores = upstream.broadcast(scores, attn_mask)
    if scores[-1] != value[-2]:
        raise AssertionError(
            "scaled_dot_product_attention: key and value must have the same sequence length")
    return upstream.matmul(scores, value)


@shape("aten.scaled_dot_product_attention", invocations=[
    Invocation(_T(2, 3, 4, 8), _T(2, 3, 5, 8), _T(2, 3, 5, 6)),
    Invocation(_T(3, 4, 8), _T(3, 5, 8), _T(3, 5, 6)),
    Invocation(_T(4, 8), _T(5, 8), _T(5, 6)),
    Invocation(_T(2, 1, 4, 8), _T(1, 3, 5, 8), _T(1, 3, 5, 6)),
    Invocation(_T(2, 3, 4, 8), _T(2, 3, 5, 8), _T(1, 1, 5, 6)),
    Invocation(_T(2, 3, 4, 8), _T(2, 3, 5, 8), _T(2, 3, 5, 6), _T(4, 5)),
    Invocation(_T(1, 3, 4, 8), _T(1, 3, 5, 8), _T(1, 3, 5, 6), _T(2, 1, 4, 5)),
    Invocation(_T(2, 3, 4, 8), _T(2, 3, 5, 8), _T(2, 3, 5, 6), None, 0.5, True),
    Invocation(_T(2, 6, 4, 8), _T(2, 3, 5, 8), _T(2, 3, 5, 6), enable_gqa=True),
    Invocation(_T(6, 4, 8), _T(3, 5, 8), _T(3, 5, 6), None, 0.0, False, scale=0.3, enable_gqa=True),
    Invocation(_T(0, 3, 4, 8), _T(0, 3, 5, 8), _T(0, 3, 5, 6)),
    Invocation(_T(2, 3, 0, 8), _T(2, 3, 5, 8), _T(2, 3, 5, 6)),
    Invocation(_T(2, 3, 4, 8), _T(2, 3, 0, 8), _T(2, 3, 0, 6)),
    Invocation(_T(1, 2, 0, 0), _T(1, 2, 4, 8), _T(1, 2, 3, 0)),
    Invocation(_T(3, 0, 5), _T(2, 4, 8), _T(2, 3, 7), _T(7, 7), 0.0, True),
    Invocation(_T(2, 2, 5), _T(2, 3, 8), _T(0, 3, 6)),
    ErrorInvocation(_T(0, 2, 5), _T(1, 3, 8), _T(1, 3, 6)),
    ErrorInvocation(_T(8), _T(8), _T(6)),
    ErrorInvocation(_T(2, 3, 4, 8), _T(2, 3, 5, 8), _T(2, 3, 5, 6), _T(4, 6)),
    ErrorInvocation(_T(2, 3, 4, 8), _T(2, 3, 5, 7), _T(2, 3, 5, 6)),
    ErrorInvocation(_T(2, 3, 4, 8), _T(2, 3, 5, 8), _T(2, 3, 6, 6)),
    ErrorInvocation(_T(2, 3, 4, 8), _T(2, 3, 5, 8), _T(2, 3, 5, 6), _T(4, 5), 0.0, True),
    ErrorInvocation(_T(2, 6, 4, 8), _T(2, 4, 5, 8), _T(2, 4, 5, 6), enable_gqa=True),
    ErrorInvocation(_T(2, 6, 4, 8), _T(2, 3, 5, 8), _T(2, 3, 5, 6)),
])
def aten〇scaled_dot_product_attention〡shape(query: List[int], key: List[int], value: List[int], attn_mask: Optional[List[int]] = None, dropout_p: float = 0.0, is_causal: bool = False, scale: Optional[float] = None, enable_gqa: bool = False) -> List[int]:
    return _sdpa_shape(query, key, value, attn_mask, is_causal, enable_gqa)


_ATTENTION_SWEEP = (torch.int32, torch.float16, torch.bfloat16, torch.float32, torch.float64,
                    torch.bool, torch.complex64)


@dtype("aten.scaled_dot_product_attention", invocations=[
    Invocation(_T(1, 2, 4, 8, dtype=q), _T(1, 2, 4, 8, dtype=kv), _T(1, 2, 4, 8, dtype=kv))
    for q, kv in itertools.product(_ATTENTION_SWEEP, _ATTENTION_SWEEP)] + [
    Invocation(_T(1, 2, 4, 8, dtype=q), _T(1, 2, 4, 8, dtype=q), _T(1, 2, 4, 8, dtype=q),
               _T(4, 4, dtype=m))
    for q, m in itertools.product(_ATTENTION_SWEEP, _ATTENTION_SWEEP)]
    + [ErrorInvocation(
        _T(1, 2, 4, 8, dtype=torch.int32),
        _T(1, 2, 4, 8, dtype=torch.int32),
        _T(1, 2, 4, 8, dtype=torch.int32),
    )])
def aten〇scaled_dot_product_attention〡dtype(query_rank_dtype: Tuple[int, int], key_rank_dtype: Tuple[int, int], value_rank_dtype: Tuple[int, int], attn_mask_rank_dtype: Optional[Tuple[int, int]] = None, dropout_p: float = 0.0, is_causal: bool = False, scale: Optional[float] = None, enable_gqa: bool = False) -> int:
    query_dtype = query_rank_dtype[1]
    if key_rank_dtype[1] != query_dtype or value_rank_dtype[1] != query_dtype:
        raise AssertionError(
            "scaled_dot_product_attention: expected query, key and value to have the same dtype")
    _check_float_or_complex("scaled_dot_product_attention", query_dtype)
    if attn_mask_rank_dtype is not None:
        mask_dtype = attn_mask_rank_dtype[1]
        if mask_dtype != 11 and mask_dtype != query_dtype and mask_dtype != 6:
            raise AssertionError(
                "scaled_dot_product_attention: expected attn_mask to be bool or float32 or of the"
                " query's dtype")
    return query_dtype


@shape("aten._scaled_dot_product_flash_attention_for_cpu", invocations=[
    Invocation(_T(2, 3, 4, 8), _T(2, 3, 5, 8), _T(2, 3, 5, 8)),
    Invocation(_T(2, 3, 4, 8), _T(2, 3, 5, 8), _T(2, 3, 5, 6), 0.0, True),
    Invocation(_T(3, 4, 8), _T(3, 5, 8), _T(3, 5, 8)),
    Invocation(_T(2, 3, 4, 8), _T(2, 3, 5, 8), _T(2, 3, 5, 8), attn_mask=_T(4, 5), scale=0.5),
    Invocation(_T(0, 3, 4, 8), _T(0, 3, 5, 8), _T(0, 3, 5, 8)),
    ErrorInvocation(_T(4, 8), _T(5, 8), _T(5, 8)),
])
def aten〇_scaled_dot_product_flash_attention_for_cpu〡shape(query: List[int], key: List[int], value: List[int], dropout_p: float = 0.0, is_causal: bool = False, attn_mask: Optional[List[int]] = None, scale: Optional[float] = None) -> Tuple[List[int], List[int]]:
    # The meta kernel checks nothing: the output is shaped like query, logsumexp like its
    # first three dims.
    if len(query) < 3:
        raise AssertionError(
            "_scaled_dot_product_flash_attention_for_cpu: expected query to have at least 3 dims")
    return upstream._copy(query), [query[0], query[1], query[2]]


@dtype("aten._scaled_dot_product_flash_attention_for_cpu", invocations=[
    Invocation(_T(1, 2, 4, 8, dtype=q), _T(1, 2, 4, 8, dtype=kv), _T(1, 2, 4, 8, dtype=kv))
    for q, kv in itertools.product(_ATTENTION_SWEEP, (torch.float32, torch.float16))])
def aten〇_scaled_dot_product_flash_attention_for_cpu〡dtype(query_rank_dtype: Tuple[int, int], key_rank_dtype: Tuple[int, int], value_rank_dtype: Tuple[int, int], dropout_p: float = 0.0, is_causal: bool = False, attn_mask_rank_dtype: Optional[Tuple[int, int]] = None, scale: Optional[float] = None) -> Tuple[int, int]:
    query_dtype = query_rank_dtype[1]
    return query_dtype, _computation_dtype(query_dtype)


# ---------------------------------------------------------------------------- recurrent layers


def _rnn_shapes(op: str, input: List[int], hidden: List[int], params: List[List[int]],
                group_size: int, has_biases: bool, num_layers: int, bidirectional: bool,
                batch_first: bool, steps_of_vectors: bool) -> Tuple[List[int], List[int]]:
    """The output and final hidden state sizes of a multi-layer RNN (PyTorch's decomposition).
    With `steps_of_vectors` (LSTM's cells), a 2D input is a sequence of vectors, each step's
    gates broadcast over the hidden state's batch."""
    if num_layers <= 0:
        raise AssertionError(op + ": num_layers must be positive")
    unbatched = steps_of_vectors and len(input) == 2 and not batch_first
    if (len(input) != 3 and not unbatched) or len(hidden) != 3:
        raise AssertionError(op + ": expected a batched 3D input and 3D hidden states")
    directions = 2 if bidirectional else 1
    # Exactly: PyTorch's stacked RNN expects every weight group and hidden state consumed.
    if len(params) % group_size != 0 or len(params) // group_size != num_layers * directions:
        raise AssertionError(op + ": Expected more weights in stacked_rnn "
                             "(one weight group per layer and direction)")
    if hidden[0] != num_layers * directions:
        raise AssertionError(op + ": Expected more hidden states in stacked_rnn "
                             "(one per layer and direction)")
    if len(params[0]) != 2 or params[0][1] != input[-1]:
        raise AssertionError(op + ": input size does not match the first layer's weight")
    seq_len = input[1] if batch_first else input[0]
    if seq_len == 0:
        raise AssertionError(op + ": expected a non-empty sequence")
    # Each cell's first step multiplies its [1, batch, hidden] state by the hidden-to-hidden
    # weight and adds that bias (F.linear in PyTorch's decomposition; the gates need a 2D
    # weight). The input-to-hidden side of the later layers depends on the layer below: not
    # checked.
    for cell in range(num_layers * directions):
        weight = params[cell * group_size + 1]
        if len(weight) != 2:
            raise AssertionError(op + ": expected 2D hidden-to-hidden weights")
        if weight[1] != hidden[2]:
            raise AssertionError(op + ": a hidden-to-hidden weight does not match the hidden size")
        if has_biases:
            upstream.broadcast([1, hidden[1], weight[0]], params[cell * group_size + 3])
            _check_input_bias(params[cell * group_size], params[cell * group_size + 2])
    output = [input[0], hidden[1]] if unbatched else input[:2]
    output.append(directions * hidden[2])
    return output, [num_layers * directions, hidden[1], hidden[2]]


def _check_input_bias(weight: List[int], bias: List[int]) -> None:
    """Every cell's input gates are F.linear(input, weight, bias), whatever the layer: the
    bias broadcasts with the gates' last dim, the weight's rows."""
    if len(weight) == 2:
        upstream.broadcast([weight[0]], bias)


def _rnn_params(gates: int, layers: int, bidirectional: bool, has_biases: bool,
                input_size: int = 3, hidden: int = 5, dtype=torch.float32):
    """Flat weights of an RNN whose cells have `gates` gates (LSTM 4, GRU 3)."""
    rows = gates * hidden
    params = []
    for layer in range(layers):
        for _ in range(2 if bidirectional else 1):
            features = input_size if layer == 0 else hidden * (2 if bidirectional else 1)
            params += [_T(rows, features, dtype=dtype), _T(rows, hidden, dtype=dtype)]
            if has_biases:
                params += [_T(rows, dtype=dtype), _T(rows, dtype=dtype)]
    return params


def _lstm_params(*args, **kwargs):
    return _rnn_params(4, *args, **kwargs)


def _gru_params(*args, **kwargs):
    return _rnn_params(3, *args, **kwargs)


def _lstm_hx(n: int, batch: int = 2, hidden: int = 5, dtype=torch.float32):
    return [_T(n, batch, hidden, dtype=dtype), _T(n, batch, hidden, dtype=dtype)]


def _rnn_case(input, hx, params, num_layers, bidirectional=False, has_biases=True,
              batch_first=False, error=False):
    """An lstm/gru invocation: dropout 0.5 in training mode for the multi-layer cases."""
    train = num_layers > 1
    make = ErrorInvocation if error else Invocation
    return make(input, hx, params, has_biases, num_layers, 0.5 if train else 0.0, train,
                bidirectional, batch_first)


@shape("aten.lstm.input", invocations=[
    _rnn_case(_T(7, 2, 3), _lstm_hx(1), _lstm_params(1, False, True), 1),
    _rnn_case(_T(2, 7, 3), _lstm_hx(1), _lstm_params(1, False, True), 1, batch_first=True),
    _rnn_case(_T(7, 2, 3), _lstm_hx(4), _lstm_params(2, True, True), 2, bidirectional=True),
    _rnn_case(_T(7, 2, 3), _lstm_hx(2), _lstm_params(2, False, False), 2, has_biases=False),
    _rnn_case(_T(7, 3), [_T(1, 5), _T(1, 5)], _lstm_params(1, False, True), 1, error=True),
    _rnn_case(_T(7, 2, 4), _lstm_hx(1), _lstm_params(1, False, True), 1, error=True),
    _rnn_case(_T(7, 2, 3), _lstm_hx(1), _lstm_params(1, False, True), 2, error=True),
    _rnn_case(_T(0, 2, 3), _lstm_hx(1), _lstm_params(1, False, True), 1, error=True),
    _rnn_case(_T(7, 2, 3), _lstm_hx(1), _lstm_params(1, False, True), 0, error=True),
    _rnn_case(_T(7, 2, 3), _lstm_hx(1), _lstm_params(1, False, True), -1, error=True),
    # Gates of other sizes broadcast; the hidden-to-hidden product and its bias must fit.
    _rnn_case(_T(7, 2, 3), _lstm_hx(1), [_T(4, 3), _T(4, 5), _T(4), _T(4)], 1),
    _rnn_case(_T(7, 3), _lstm_hx(1), _lstm_params(1, False, True), 1),
    _rnn_case(_T(7, 3), [_T(1, 2, 3), _T(1, 2, 5)],
              [_T(20, 3), _T(20, 3), _T(20), _T(20), _T(3, 5)], 1),
    _rnn_case(_T(7, 3), _lstm_hx(1), _lstm_params(1, False, True), 1, batch_first=True,
              error=True),
    _rnn_case(_T(7, 2, 3), _lstm_hx(1), [_T(20, 3), _T(2, 5), _T(20), _T(20)], 1, error=True),
    _rnn_case(_T(7, 2, 3), _lstm_hx(1), [_T(20, 3), _T(0), _T(20), _T(20)], 1, error=True),
    _rnn_case(_T(7, 2, 3), _lstm_hx(4), _lstm_params(2, True, True)[:10] + [_T(0)]
              + _lstm_params(2, True, True)[11:], 2, bidirectional=True, error=True),
    _rnn_case(_T(7, 2, 3), _lstm_hx(1), [_T(20, 3), _T(20, 5, 1)], 1, has_biases=False,
              error=True),
    _rnn_case(_T(7, 2, 3), _lstm_hx(1), [_T(20, 3), _T(20, 4), _T(20), _T(20)], 1, error=True),
    _rnn_case(_T(7, 2, 3), _lstm_hx(1), [_T(20, 3), _T(20, 4)], 1, has_biases=False,
              error=True),
    _rnn_case(_T(7, 2, 3), [_T(1, 2, 3), _T(1, 2, 5)],
              [_T(20, 3), _T(20, 3), _T(20), _T(20), _T(3, 5)], 1),
    _rnn_case(_T(7, 2, 3), [_T(1, 2, 3), _T(1, 2, 5)],
              [_T(20, 3), _T(20, 5), _T(20), _T(20), _T(3, 5)], 1, error=True),
    # The input gates are added into the hidden gates in place.
    _rnn_case(_T(1, 2, 3), [_T(1, 2, 3), _T(1, 2, 5)],
              [_T(20, 3), _T(1, 3), _T(20), _T(), _T(3, 5)], 1, error=True),
    _rnn_case(_T(1, 2, 3), [_T(1, 2, 3), _T(1, 2, 5)],
              [_T(4, 3), _T(20, 3), _T(4), _T(20), _T(3, 5)], 1, error=True),
    _rnn_case(_T(1, 2, 3), [_T(1, 2, 3), _T(1, 2, 5)],
              [_T(20, 3), _T(20, 3), _T(20), _T(), _T(3, 5)], 1),
])
def aten〇lstm〇input〡shape(input: List[int], hx: List[List[int]], params: List[List[int]], has_biases: bool, num_layers: int, dropout: float, train: bool, bidirectional: bool, batch_first: bool) -> Tuple[List[int], List[int], List[int]]:
    if len(hx) != 2:
        raise AssertionError("lstm: expected two hidden states")
    has_projections = hx[0][2] != hx[1][2]
    group_size = 2 + (2 if has_biases else 0) + (1 if has_projections else 0)
    output, hy = _rnn_shapes("lstm", input, hx[0], params, group_size, has_biases, num_layers,
                             bidirectional, batch_first, True)
    _check_lstm_gates_add(input, hx[0], params, has_biases, batch_first)
    cy = [hy[0], hx[1][1], hx[1][2]]
    return output, hy, cy


def _check_lstm_gates_add(input: List[int], hidden: List[int], params: List[List[int]],
                          has_biases: bool, batch_first: bool) -> None:
    """The first cell adds its input gates into its hidden gates in place (`add_`): the input
    gates must broadcast to the hidden gates' sizes. (A bias of rank > 1 broadcasts with the
    whole sequence's gates first: not checked.) Checked per dim, building no list, so an
    input or bias of unknown rank keeps a few comparisons."""
    hidden_gates = [hidden[1], params[1][0]]
    hidden_bias: List[int] = []
    rows = params[0][0]
    if has_biases:
        input_bias = params[2]
        if len(input_bias) > 1:
            return
        if len(input_bias) == 1:
            rows = _broadcast_size(rows, input_bias[0], "lstm: the input bias does not broadcast with the input gates")
        hidden_bias = params[3]
    message = "lstm: the input gates do not broadcast to the hidden gates' sizes"
    # The input gates are [rows] for a 2D (unbatched) input, else [batch, rows]; the hidden
    # gates have at least 2 dims.
    _check_broadcasts_to_size(rows, _trailing_broadcast_size(hidden_gates, hidden_bias, 0), message)
    if len(input) != 2:
        batch = input[0] if batch_first else input[1]
        _check_broadcasts_to_size(batch, _trailing_broadcast_size(hidden_gates, hidden_bias, 1), message)


def _broadcast_size(a: int, b: int, message: str) -> int:
    if a != b and a != 1 and b != 1:
        raise AssertionError(message)
    return b if a == 1 else a


def _trailing_broadcast_size(a: List[int], b: List[int], i: int) -> int:
    """The size of `upstream.broadcast(a, b)` at its `i`-th dim from the end, where the two
    broadcast (the caller checked)."""
    x = a[len(a) - 1 - i] if i < len(a) else 1
    y = b[len(b) - 1 - i] if i < len(b) else 1
    return x if y == 1 else y


def _check_broadcasts_to_size(size: int, target: int, message: str) -> None:
    if size != 1 and size != target:
        raise AssertionError(message)


@dtype("aten.lstm.input", invocations=[
    Invocation(_T(7, 2, 3, dtype=d), _lstm_hx(1, dtype=d), _lstm_params(1, False, True, dtype=d),
               True, 1, 0.0, False, False, False)
    for d in (torch.float16, torch.bfloat16, torch.float32, torch.float64)])
def aten〇lstm〇input〡dtype(input_rank_dtype: Tuple[int, int], hx_rank_dtype: List[Tuple[int, int]], params_rank_dtype: List[Tuple[int, int]], has_biases: bool, num_layers: int, dropout: float, train: bool, bidirectional: bool, batch_first: bool) -> Tuple[int, int, int]:
    input_dtype = input_rank_dtype[1]
    return input_dtype, input_dtype, input_dtype


@shape("aten.gru.input", invocations=[
    _rnn_case(_T(7, 2, 3), _T(1, 2, 5), _gru_params(1, False, True), 1),
    _rnn_case(_T(2, 7, 3), _T(1, 2, 5), _gru_params(1, False, True), 1, batch_first=True),
    _rnn_case(_T(7, 2, 3), _T(4, 2, 5), _gru_params(2, True, True), 2, bidirectional=True),
    _rnn_case(_T(7, 2, 3), _T(2, 2, 5), _gru_params(2, False, False), 2, has_biases=False),
    _rnn_case(_T(7, 2, 4), _T(1, 2, 5), _gru_params(1, False, True), 1, error=True),
    _rnn_case(_T(7, 2, 3), _T(1, 2, 5), _gru_params(1, False, True), 2, error=True),
    _rnn_case(_T(7, 2, 3), _T(1, 2, 5), _gru_params(1, False, True), 0, error=True),
    _rnn_case(_T(7, 2, 3), _T(1, 2, 5), _gru_params(1, False, True), -1, error=True),
    _rnn_case(_T(7, 2, 3), _T(1, 2, 5), [_T(15, 3), _T(15, 5), _T(15), _T(1)], 1),
    _rnn_case(_T(7, 3), _T(1, 2, 5), _gru_params(1, False, True), 1, error=True),
    _rnn_case(_T(7, 2, 3), _T(1, 2, 5), [_T(15, 3), _T(5), _T(15), _T(15)], 1, error=True),
    _rnn_case(_T(7, 2, 3), _T(1, 2, 5), [_T(15, 3), _T(5)], 1, has_biases=False, error=True),
    _rnn_case(_T(7, 2, 3), _T(1, 2, 5), [_T(15, 3), _T(15, 5), _T(15), _T(2, 15)], 1),
    _rnn_case(_T(7, 2, 3), _T(1, 2, 2), _gru_params(1, False, True), 1, error=True),
    _rnn_case(_T(7, 0, 3), _T(1, 0, 2), _gru_params(1, False, True), 1, error=True),
    _rnn_case(_T(7, 2, 3), _T(1, 2, 5), [_T(15, 3), _T(15, 5), _T(15), _T(14)], 1, error=True),
    _rnn_case(_T(7, 2, 3), _T(1, 2, 5), [_T(15, 3), _T(15, 5), _T(3), _T(15)], 1, error=True),
    _rnn_case(_T(7, 2, 3), _T(1, 2, 5), [_T(15, 3), _T(15, 5), _T(7, 2, 15), _T(15)], 1,
              error=True),
    _rnn_case(_T(7, 2, 3), _T(1, 2, 5), [_T(15, 3), _T(15, 5), _T(2, 15), _T(15)], 1),
    _rnn_case(_T(7, 2, 3), _T(2, 2, 5),
              _gru_params(1, False, True) + [_T(15, 5), _T(15, 4), _T(15), _T(15)], 2,
              error=True),
    _rnn_case(_T(7, 2, 3), _T(2, 2, 5),
              _gru_params(1, False, True) + [_T(15, 3), _T(15, 4), _T(15), _T(15)], 1,
              bidirectional=True, error=True),
    # More weight groups or hidden states than layers times directions: PyTorch raises.
    _rnn_case(_T(7, 2, 3), _T(4, 2, 5), _gru_params(2, True, True), 1, bidirectional=True,
              error=True),
    _rnn_case(_T(7, 2, 3), _T(2, 2, 5), _gru_params(1, False, True), 1, error=True),
    _rnn_case(_T(7, 2, 3), _T(1, 2, 5), _gru_params(2, False, True), 1, error=True),
])
def aten〇gru〇input〡shape(input: List[int], hx: List[int], params: List[List[int]], has_biases: bool, num_layers: int, dropout: float, train: bool, bidirectional: bool, batch_first: bool) -> Tuple[List[int], List[int]]:
    group_size = 4 if has_biases else 2
    shapes = _rnn_shapes("gru", input, hx, params, group_size, has_biases, num_layers,
                         bidirectional, batch_first, False)
    if has_biases:
        # The first layer adds its input-to-hidden bias into [batch, gates] (meta).
        for cell in range(2 if bidirectional else 1):
            upstream.expand(params[cell * 4 + 2], [hx[1], params[cell * 4][0]])
    return shapes


@dtype("aten.gru.input", invocations=[
    Invocation(_T(7, 2, 3, dtype=d), _T(1, 2, 5, dtype=d), _gru_params(1, False, True, dtype=d),
               True, 1, 0.0, False, False, False)
    for d in (torch.float16, torch.bfloat16, torch.float32, torch.float64)])
def aten〇gru〇input〡dtype(input_rank_dtype: Tuple[int, int], hx_rank_dtype: Tuple[int, int], params_rank_dtype: List[Tuple[int, int]], has_biases: bool, num_layers: int, dropout: float, train: bool, bidirectional: bool, batch_first: bool) -> Tuple[int, int]:
    return input_rank_dtype[1], input_rank_dtype[1]


# ---------------------------------------------------------------------------- rnn cells


_FLOAT_SWEEP = (torch.float16, torch.bfloat16, torch.float32, torch.float64)


def _rnn_cell_shape(op: str, input: List[int], hidden: List[List[int]], w_ih: List[int],
                    w_hh: List[int], b_ih: Optional[List[int]], b_hh: Optional[List[int]],
                    gates: int) -> List[int]:
    """One step's hidden state sizes (PyTorch's check_rnn_cell_forward_* and gate checks).
    Inputs and hidden states of other ranks than 2 are rejected (PyTorch accepts a few whose
    gates happen to broadcast)."""
    if len(input) != 2 or len(w_ih) != 2 or len(w_hh) != 2:
        raise AssertionError(op + ": expected a 2D input and 2D weights")
    if input[1] != w_ih[1]:
        raise AssertionError(op + ": input has inconsistent input_size")
    hidden_size = w_hh[1]
    for hx in hidden:
        if len(hx) != 2:
            raise AssertionError(op + ": expected 2D hidden states")
        if hx[0] != input[0]:
            raise AssertionError(op + ": input batch size doesn't match the hidden state's")
        if hx[1] != hidden_size:
            raise AssertionError(op + ": hidden state has inconsistent hidden_size")
    if w_ih[0] != gates * hidden_size or w_hh[0] != gates * hidden_size:
        raise AssertionError(op + ": weights' first dim must be the gates times hidden_size")
    gate_sizes = [input[0], gates * hidden_size]
    for bias in (b_ih, b_hh):
        # The bias is added in place to the gates (addmm), so it must broadcast to them.
        if bias is not None:
            check_broadcasts_to(bias, gate_sizes, op + ": bias does not broadcast to the gates")
    return [input[0], hidden_size]


def _check_rnn_cell_dtypes(op: str, input_rank_dtype: Tuple[int, int], hx_rank_dtype: Tuple[int, int],
                           w_ih_rank_dtype: Tuple[int, int], w_hh_rank_dtype: Tuple[int, int],
                           b_ih_rank_dtype: Optional[Tuple[int, int]],
                           b_hh_rank_dtype: Optional[Tuple[int, int]]) -> None:
    """The matmuls want each weight (and its bias) in the dtype of what it multiplies (the
    meta kernels do not check)."""
    if w_ih_rank_dtype[1] != input_rank_dtype[1] or w_hh_rank_dtype[1] != hx_rank_dtype[1]:
        raise AssertionError(op + ": each weight must have the dtype of what it multiplies")
    if b_ih_rank_dtype is not None and b_ih_rank_dtype[1] != w_ih_rank_dtype[1]:
        raise AssertionError(op + ": b_ih must have w_ih's dtype")
    if b_hh_rank_dtype is not None and b_hh_rank_dtype[1] != w_hh_rank_dtype[1]:
        raise AssertionError(op + ": b_hh must have w_hh's dtype")
    if input_rank_dtype[1] == 11 or w_hh_rank_dtype[1] == 11:  # bool
        raise AssertionError(op + ": the matmuls do not support bool")


def _hidden_gates_dtype(op: str, input_dtype: int, hx_dtype: int) -> int:
    """The gates of the simple cells and lstm_cell: the input's are added in place to the
    hidden state's."""
    if not _can_cast(input_dtype, hx_dtype):
        raise AssertionError(op + ": the input's gates cannot be added to the hidden state's")
    return hx_dtype


def _cell_case(batch, input_size, hidden_size, gates, dtype=torch.float32, biases=True,
               make=Invocation, hidden_count=1):
    hx = [_T(batch, hidden_size, dtype=dtype) for _ in range(hidden_count)]
    bias = [_T(gates * hidden_size, dtype=dtype)] * 2 if biases else []
    return make(_T(batch, input_size, dtype=dtype), hx if hidden_count > 1 else hx[0],
                _T(gates * hidden_size, input_size, dtype=dtype),
                _T(gates * hidden_size, hidden_size, dtype=dtype), *bias)


def _cell_shape_cases(gates: int, hidden_count: int = 1) -> List[Invocation]:
    """Cases for the shape function of a cell with `gates` gates and `hidden_count` states."""
    g = gates

    def hx(*sizes):
        return [_T(*sizes)] * hidden_count if hidden_count > 1 else _T(*sizes)

    return [
        _cell_case(2, 3, 5, g, hidden_count=hidden_count),
        _cell_case(2, 3, 5, g, biases=False, hidden_count=hidden_count),
        _cell_case(0, 3, 5, g, hidden_count=hidden_count),
        _cell_case(2, 3, 0, g, hidden_count=hidden_count),
        Invocation(_T(2, 3), hx(2, 5), _T(g * 5, 3), _T(g * 5, 5), _T(2, g * 5), _T(1)),
        Invocation(_T(2, 3), hx(2, 5), _T(g * 5, 3), _T(g * 5, 5), _T(g * 5), None),
        ErrorInvocation(_T(3), hx(5), _T(g * 5, 3), _T(g * 5, 5)),
        ErrorInvocation(_T(2, 4), hx(2, 5), _T(g * 5, 3), _T(g * 5, 5)),
        ErrorInvocation(_T(2, 3), hx(2, 4), _T(g * 5, 3), _T(g * 5, 5)),
        ErrorInvocation(_T(2, 3), hx(3, 5), _T(g * 5, 3), _T(g * 5, 5)),
        ErrorInvocation(_T(2, 3), hx(5), _T(g * 5, 3), _T(g * 5, 5)),
        ErrorInvocation(_T(2, 3), hx(2, 5, 1), _T(g * 5, 3), _T(g * 5, 5)),
        ErrorInvocation(_T(2, 4, 3), hx(2, 5), _T(g * 5, 3), _T(g * 5, 5)),
        ErrorInvocation(_T(2, 3), hx(2, 5), _T((g + 1) * 5, 3), _T(g * 5, 5)),
        ErrorInvocation(_T(2, 3), hx(2, 5), _T(g * 5, 3), _T((g + 1) * 5, 5)),
        ErrorInvocation(_T(2, 3), hx(2, 5), _T(g * 5, 3, 1), _T(g * 5, 5)),
        ErrorInvocation(_T(2, 3), hx(2, 5), _T(g * 5, 3), _T(g * 5)),
        ErrorInvocation(_T(2, 3), hx(2, 5), _T(g * 5, 3), _T(g * 5, 5), _T(g * 5 + 1), None),
        # (lstm_cell's meta kernel crashes on this one.)
        KernelErrorInvocation(_T(2, 3), hx(2, 5), _T(g * 5, 3), _T(g * 5, 5), None,
                              _T(1, 2, g * 5)),
    ]


def _cell_dtype_cases(gates: int, hidden_count: int = 1) -> List[Invocation]:
    """Same-dtype cases, mixed input and hidden dtypes, and the CPU kernels' dtype errors."""
    g = gates
    f32, f64 = torch.float32, torch.float64

    def hx(dtype):
        return [_T(2, 5, dtype=dtype)] * hidden_count if hidden_count > 1 else _T(2, 5, dtype=dtype)

    return ([_cell_case(2, 3, 5, g, dtype=d, hidden_count=hidden_count) for d in _FLOAT_SWEEP]
            + [Invocation(_T(2, 3, dtype=a), hx(b), _T(g * 5, 3, dtype=a), _T(g * 5, 5, dtype=b))
               for a, b in itertools.permutations(_FLOAT_SWEEP + (torch.int64,), 2)]
            + [Invocation(_T(2, 3, dtype=torch.int8), hx(torch.int32),
                          _T(g * 5, 3, dtype=torch.int8), _T(g * 5, 5, dtype=torch.int32)),
               KernelInvocation(_T(2, 3), hx(f64), _T(g * 5, 3), _T(g * 5, 5, dtype=f64)),
               KernelErrorInvocation(_T(2, 3, dtype=f64), hx(f32), _T(g * 5, 3), _T(g * 5, 5)),
               KernelErrorInvocation(_T(2, 3), hx(f64), _T(g * 5, 3), _T(g * 5, 5)),
               KernelErrorInvocation(_T(2, 3), hx(f32), _T(g * 5, 3), _T(g * 5, 5),
                                     _T(g * 5, dtype=f64), None),
               KernelErrorInvocation(_T(2, 3), hx(f32), _T(g * 5, 3), _T(g * 5, 5),
                                     None, _T(g * 5, dtype=f64)),
               KernelErrorInvocation(_T(2, 3, dtype=torch.bool), hx(torch.bool),
                                     _T(g * 5, 3, dtype=torch.bool),
                                     _T(g * 5, 5, dtype=torch.bool))])


def _integer_cell_cases(gates: int, make) -> List[Invocation]:
    return [_cell_case(2, 3, 5, gates, dtype=d, make=make, hidden_count=1)
            for d in (torch.uint8, torch.int32, torch.int64)]


@shape("aten.gru_cell", invocations=_cell_shape_cases(3))
def aten〇gru_cell〡shape(input: List[int], hx: List[int], w_ih: List[int], w_hh: List[int], b_ih: Optional[List[int]] = None, b_hh: Optional[List[int]] = None) -> List[int]:
    return _rnn_cell_shape("gru_cell", input, [hx], w_ih, w_hh, b_ih, b_hh, 3)


@dtype("aten.gru_cell", invocations=_cell_dtype_cases(3)
       + [_cell_case(2, 3, 5, 3, dtype=torch.complex64)]
       + _integer_cell_cases(3, ErrorInvocation))
def aten〇gru_cell〡dtype(input_rank_dtype: Tuple[int, int], hx_rank_dtype: Tuple[int, int], w_ih_rank_dtype: Tuple[int, int], w_hh_rank_dtype: Tuple[int, int], b_ih_rank_dtype: Optional[Tuple[int, int]] = None, b_hh_rank_dtype: Optional[Tuple[int, int]] = None) -> int:
    _check_rnn_cell_dtypes("gru_cell", input_rank_dtype, hx_rank_dtype, w_ih_rank_dtype,
                           w_hh_rank_dtype, b_ih_rank_dtype, b_hh_rank_dtype)
    # The reset and update gates add the input's in place to the hidden state's; the new
    # gate and the result promote.
    _hidden_gates_dtype("gru_cell", input_rank_dtype[1], hx_rank_dtype[1])
    ranks, dtypes = rank_dtype_lists([input_rank_dtype, hx_rank_dtype])
    result = promote_dtypes(ranks, dtypes)
    # The gates' sigmoid and tanh results are written back into integer gates.
    _check_float_or_complex("gru_cell", result)
    return result


@shape("aten.lstm_cell", invocations=_cell_shape_cases(4, 2) + [
    ErrorInvocation(_T(2, 3), [_T(2, 5)], _T(20, 3), _T(20, 5)),
    ErrorInvocation(_T(2, 3), [_T(2, 5), _T(2, 4)], _T(20, 3), _T(20, 5)),
    ErrorInvocation(_T(2, 3), [_T(2, 5), _T(3, 5)], _T(20, 3), _T(20, 5)),
])
def aten〇lstm_cell〡shape(input: List[int], hx: List[List[int]], w_ih: List[int], w_hh: List[int], b_ih: Optional[List[int]] = None, b_hh: Optional[List[int]] = None) -> Tuple[List[int], List[int]]:
    if len(hx) != 2:
        raise AssertionError("lstm_cell: expected two hidden states")
    sizes = _rnn_cell_shape("lstm_cell", input, hx, w_ih, w_hh, b_ih, b_hh, 4)
    return sizes, sizes


@dtype("aten.lstm_cell", invocations=_cell_dtype_cases(4, 2) + [
    _cell_case(2, 3, 5, 4, dtype=torch.complex64, hidden_count=2),
    Invocation(_T(2, 3), [_T(2, 5), _T(2, 5, dtype=torch.float64)], _T(20, 3), _T(20, 5)),
    Invocation(_T(2, 3), [_T(2, 5), _T(2, 5, dtype=torch.float16)], _T(20, 3), _T(20, 5)),
    ErrorInvocation(LongTensorOfShape(2, 3), [LongTensorOfShape(2, 5)] * 2,
                    LongTensorOfShape(20, 3), LongTensorOfShape(20, 5)),
])
def aten〇lstm_cell〡dtype(input_rank_dtype: Tuple[int, int], hx_rank_dtype: List[Tuple[int, int]], w_ih_rank_dtype: Tuple[int, int], w_hh_rank_dtype: Tuple[int, int], b_ih_rank_dtype: Optional[Tuple[int, int]] = None, b_hh_rank_dtype: Optional[Tuple[int, int]] = None) -> Tuple[int, int]:
    if len(hx_rank_dtype) != 2:
        raise AssertionError("lstm_cell: expected two hidden states")
    _check_rnn_cell_dtypes("lstm_cell", input_rank_dtype, hx_rank_dtype[0], w_ih_rank_dtype,
                           w_hh_rank_dtype, b_ih_rank_dtype, b_hh_rank_dtype)
    gates = _hidden_gates_dtype("lstm_cell", input_rank_dtype[1], hx_rank_dtype[0][1])
    # As in gru_cell, the gates' activations are written back into the gates.
    _check_float_or_complex("lstm_cell", gates)
    ranks, dtypes = rank_dtype_lists([(2, gates), hx_rank_dtype[1]])
    result = promote_dtypes(ranks, dtypes)
    return result, result


@shape("aten.rnn_tanh_cell", invocations=_cell_shape_cases(1))
def aten〇rnn_tanh_cell〡shape(input: List[int], hx: List[int], w_ih: List[int], w_hh: List[int], b_ih: Optional[List[int]] = None, b_hh: Optional[List[int]] = None) -> List[int]:
    return _rnn_cell_shape("rnn_tanh_cell", input, [hx], w_ih, w_hh, b_ih, b_hh, 1)


@dtype("aten.rnn_tanh_cell", invocations=_cell_dtype_cases(1)
       + [_cell_case(2, 3, 5, 1, dtype=torch.complex64)]
       + _integer_cell_cases(1, Invocation)
       + [Invocation(LongTensorOfShape(2, 3), _T(2, 5), LongTensorOfShape(5, 3), _T(5, 5))])
def aten〇rnn_tanh_cell〡dtype(input_rank_dtype: Tuple[int, int], hx_rank_dtype: Tuple[int, int], w_ih_rank_dtype: Tuple[int, int], w_hh_rank_dtype: Tuple[int, int], b_ih_rank_dtype: Optional[Tuple[int, int]] = None, b_hh_rank_dtype: Optional[Tuple[int, int]] = None) -> int:
    _check_rnn_cell_dtypes("rnn_tanh_cell", input_rank_dtype, hx_rank_dtype, w_ih_rank_dtype,
                           w_hh_rank_dtype, b_ih_rank_dtype, b_hh_rank_dtype)
    result = _hidden_gates_dtype("rnn_tanh_cell", input_rank_dtype[1], hx_rank_dtype[1])
    # tanh of integer gates is a float of the default dtype.
    return result if is_float_dtype(result) or is_complex_dtype(result) else 6  # float32


@shape("aten.rnn_relu_cell", invocations=_cell_shape_cases(1))
def aten〇rnn_relu_cell〡shape(input: List[int], hx: List[int], w_ih: List[int], w_hh: List[int], b_ih: Optional[List[int]] = None, b_hh: Optional[List[int]] = None) -> List[int]:
    return _rnn_cell_shape("rnn_relu_cell", input, [hx], w_ih, w_hh, b_ih, b_hh, 1)


@dtype("aten.rnn_relu_cell", invocations=_cell_dtype_cases(1)
       + [KernelErrorInvocation(*_cell_case(2, 3, 5, 1, dtype=torch.complex64).args)]
       + _integer_cell_cases(1, Invocation))
def aten〇rnn_relu_cell〡dtype(input_rank_dtype: Tuple[int, int], hx_rank_dtype: Tuple[int, int], w_ih_rank_dtype: Tuple[int, int], w_hh_rank_dtype: Tuple[int, int], b_ih_rank_dtype: Optional[Tuple[int, int]] = None, b_hh_rank_dtype: Optional[Tuple[int, int]] = None) -> int:
    _check_rnn_cell_dtypes("rnn_relu_cell", input_rank_dtype, hx_rank_dtype, w_ih_rank_dtype,
                           w_hh_rank_dtype, b_ih_rank_dtype, b_hh_rank_dtype)
    result = _hidden_gates_dtype("rnn_relu_cell", input_rank_dtype[1], hx_rank_dtype[1])
    if is_complex_dtype(result):
        raise AssertionError("rnn_relu_cell: relu does not support complex")  # clamp's CPU kernel
    return result


# ---------------------------------------------------------------------------- more norms


@shape("aten.rms_norm", invocations=[
    Invocation(_T(2, 4, 3), [3]),
    Invocation(_T(2, 4, 3), [4, 3], _T(4, 3), 1e-5),
    Invocation(_T(0, 3), [3], _T(3)),
    ErrorInvocation(_T(2, 4, 3), []),
    ErrorInvocation(_T(2, 4, 3), [4]),
    ErrorInvocation(_T(3), [2, 3]),
    ErrorInvocation(_T(2, 4, 3), [3], _T(4)),
])
def aten〇rms_norm〡shape(input: List[int], normalized_shape: List[int], weight: Optional[List[int]] = None, eps: Optional[float] = None) -> List[int]:
    return _layer_norm_shapes("rms_norm", input, normalized_shape, weight, None)[0]


@dtype("aten.rms_norm", invocations=[
    Invocation(_T(2, 3, dtype=d), [3], weight)
    for d in (torch.float16, torch.bfloat16, torch.float32, torch.float64)
    for weight in (None, _T(3, dtype=torch.float16), _T(3, dtype=torch.float64))]
    + [Invocation(_T(2, 3, dtype=torch.complex64), [3], _T(3, dtype=torch.complex64))]
    + [KernelErrorInvocation(_T(2, 3, dtype=torch.int64), [3])])
def aten〇rms_norm〡dtype(input_rank_dtype: Tuple[int, int], normalized_shape: List[int], weight_rank_dtype: Optional[Tuple[int, int]] = None, eps: Optional[float] = None) -> int:
    _check_float_or_complex("rms_norm", input_rank_dtype[1])
    return input_rank_dtype[1]


@shape("aten._weight_norm_interface", invocations=[
    Invocation(_T(4, 3, 2), _T(4, 1, 1)),
    Invocation(_T(4, 3, 2), _T(1, 3, 1), 1),
    Invocation(_T(4, 3), _T(4, 1), 0),
    Invocation(_T(4, 3, 2), _T(1, 1, 2), 2),
    ErrorInvocation(_T(4, 3, 2), _T(5, 1, 1)),
    # A g of another shape than the norm's: the kernels' shapes, not meta's broadcast.
    KernelInvocation(_T(4, 3, 2), _T(1, 1, 1)),
    KernelInvocation(_T(4, 3, 2), _T(4, 3, 2)),
    KernelInvocation(_T(4, 3, 2), _T(2, 4, 1, 1)),
    KernelInvocation(_T(4, 3, 2), _T()),
])
def aten〇_weight_norm_interface〡shape(v: List[int], g: List[int], dim: int = 0) -> Tuple[List[int], List[int]]:
    # Meta's check: g broadcasts with v times the norm (v's size at `dim`, 1 elsewhere,
    # which broadcasts to v). The CPU and CUDA kernels make w like v and the norm like g;
    # meta's w and norm (the broadcast, v's norm shape) agree with them only for a g of the
    # norm's shape, the one weight norm makes (docs/library.md).
    upstream.broadcast(v, g)
    return v, g


@dtype("aten._weight_norm_interface", invocations=[
    Invocation(_T(4, 3, dtype=a), _T(4, 1, dtype=b))
    for a, b in itertools.product(_FLOAT_SWEEP, _FLOAT_SWEEP)
    if a != torch.float64 or b != torch.bfloat16]
    + [ErrorInvocation(_T(4, 3, dtype=torch.float64), _T(4, 1, dtype=torch.bfloat16))])
def aten〇_weight_norm_interface〡dtype(v_rank_dtype: Tuple[int, int], g_rank_dtype: Tuple[int, int], dim: int = 0) -> Tuple[int, int]:
    # The norm is kept in float32 for a bfloat16 g (as CUDA does), else in v's dtype.
    norm_dtype = 6 if g_rank_dtype[1] == 15 else v_rank_dtype[1]  # float32, bfloat16
    if norm_dtype == 6 and v_rank_dtype[1] == 7:  # float32, float64
        raise AssertionError("_weight_norm_interface: a float64 v cannot have a float32 norm")
    ranks, dtypes = rank_dtype_lists([v_rank_dtype, g_rank_dtype])
    return promote_dtypes(ranks, dtypes), norm_dtype


@shape("aten._weight_norm", invocations=[
    Invocation(_T(4, 3, 2), _T(4, 1, 1)),
    Invocation(_T(4, 3, 2), _T(1, 3, 1), 1),
    Invocation(_T(4, 3, 2), _T(1, 1, 2), 2),
    Invocation(_T(4, 3, 2), _T(1, 3, 1), -2),
    Invocation(_T(4, 3, 2), _T(), -1),
    Invocation(_T(4, 3, 2), _T(4, 1, 1), -1),
    Invocation(_T(4, 3, 2), _T(4, 3, 2)),
    Invocation(_T(4, 3, 2), _T(2, 4, 3, 2)),
    Invocation(_T(4, 3, 4), _T(4), 0),
    Invocation(_T(4), _T(4)),
    Invocation(_T(8, 4, 16), _T(1, 1, 16), 2),
    ErrorInvocation(_T(4, 3, 2), _T(1, 1, 2), 3),
    ErrorInvocation(_T(4, 3, 2), _T(1, 1, 2), -4),
    ErrorInvocation(_T(4, 3, 2), _T(5, 1, 1)),
    ErrorInvocation(_T(4, 3, 2), _T(4)),
    KernelErrorInvocation(_T(), _T()),
    KernelErrorInvocation(_T(), _T(), -1),
])
def aten〇_weight_norm〡shape(v: List[int], g: List[int], dim: int = 0) -> List[int]:
    # v * (g / norm), the norm taken over every dim but `dim` (over all of them for -1).
    # PyTorch's CPU kernel for dim 0 and the last dim reads g without checking its shape;
    # this follows the meta kernel, which broadcasts.
    if len(v) == 0:
        raise AssertionError("_weight_norm: v must have at least one dim")
    if dim != -1:
        upstream.maybe_wrap_dim(dim, len(v))
    # The norm (v's size at `dim`, 1 elsewhere) broadcasts to v.
    return upstream.broadcast(v, g)


@dtype("aten._weight_norm", invocations=[
    Invocation(_T(4, 3, dtype=d), _T(4, 1, dtype=d)) for d in _FLOAT_SWEEP] + [
    Invocation(_T(4, 3, 2, dtype=a), _T(1, 3, 1, dtype=b), 1)
    for a, b in itertools.product(_FLOAT_SWEEP, _FLOAT_SWEEP)] + [
    Invocation(_T(4, 3, dtype=torch.float64), _T(dtype=torch.float32), -1),
    Invocation(_T(4, 3, dtype=torch.complex64), _T(), -1),
    KernelErrorInvocation(_T(4, 3, dtype=torch.float32), _T(4, 1, dtype=torch.float64)),
    KernelErrorInvocation(_T(4, 3, dtype=torch.float16), _T(1, 3, dtype=torch.bfloat16), 1),
    KernelErrorInvocation(_T(4, 3, dtype=torch.complex64), _T(4, 1, dtype=torch.complex64)),
    ErrorInvocation(LongTensorOfShape(4, 3), LongTensorOfShape(4, 1)),
    ErrorInvocation(LongTensorOfShape(4, 3, 2), _T(1, 3, 1), 1),
])
def aten〇_weight_norm〡dtype(v_rank_dtype: Tuple[int, int], g_rank_dtype: Tuple[int, int], dim: int = 0) -> int:
    v_rank, v_dtype = v_rank_dtype
    if dim == 0 or dim == v_rank - 1:
        # The fused kernel (_weight_norm_interface) wants one float dtype.
        if not is_float_dtype(v_dtype) or g_rank_dtype[1] != v_dtype:
            raise AssertionError("_weight_norm: v and g must have the same floating dtype")
        return v_dtype
    _check_float_or_complex("_weight_norm", v_dtype)
    ranks, dtypes = rank_dtype_lists([v_rank_dtype, g_rank_dtype])
    return promote_dtypes(ranks, dtypes)


# ---------------------------------------------------------------------------- more embedding


@shape("aten.embedding_bag.padding_idx", invocations=[
    Invocation(_T(10, 3), LongTensorOfShape(8), LongTensorOfShape(4), False, 0, False, None, False,
               None),
    Invocation(_T(10, 3), LongTensorOfShape(8), LongTensorOfShape(4), False, 1, False, None, True,
               2),
    Invocation(_T(10, 3), LongTensorOfShape(8), LongTensorOfShape(4), False, 2, False, None, False,
               1),
    Invocation(_T(10, 3), LongTensorOfShape(8), LongTensorOfShape(4), False, 0, False, _T(8), False,
               None),
    ErrorInvocation(_T(10, 3), LongTensorOfShape(8), LongTensorOfShape(4), False, 1, False, _T(8),
                    False, None),
    ErrorInvocation(_T(10, 3), LongTensorOfShape(8), LongTensorOfShape(0), False, 0, False, None,
                    True, None),
    Invocation(_T(10, 3), LongTensorOfShape(8), LongTensorOfShape(4), False, 2, False, None, False,
               -10),
    ErrorInvocation(_T(0, 3), LongTensorOfShape(8), LongTensorOfShape(4), False, 2, False, None,
                    False, 2),
    ErrorInvocation(_T(10, 3), LongTensorOfShape(8), LongTensorOfShape(4), False, 2, False, None,
                    False, -11),
])
def aten〇embedding_bag〇padding_idx〡shape(weight: List[int], indices: List[int], offsets: List[int], scale_grad_by_freq: bool, mode: int, sparse: bool, per_sample_weights: Optional[List[int]], include_last_offset: bool, padding_idx: Optional[int]) -> Tuple[List[int], List[int], List[int], List[int]]:
    if padding_idx is not None and len(weight) > 0:
        if padding_idx < -weight[0] or padding_idx >= weight[0]:
            raise AssertionError("embedding_bag: padding_idx must be within the number of embeddings")
    return aten〇_embedding_bag〡shape(weight, indices, offsets, scale_grad_by_freq, mode, sparse,
                                     per_sample_weights, include_last_offset,
                                     -1 if padding_idx is None else padding_idx)


@dtype("aten.embedding_bag.padding_idx", invocations=[
    Invocation(_T(10, 3, dtype=w), _T(8, dtype=i), _T(4, dtype=o), False, 0, False, None, False,
               None)
    for w in (torch.float16, torch.float32, torch.float64, torch.int64)
    for i in (torch.int64, torch.int32) for o in (torch.int64, torch.int32)]
    + [ErrorInvocation(_T(10, 3), _T(8, dtype=torch.int16), _T(4, dtype=torch.int64), False, 0,
                       False, None, False, None)])
def aten〇embedding_bag〇padding_idx〡dtype(weight_rank_dtype: Tuple[int, int], indices_rank_dtype: Tuple[int, int], offsets_rank_dtype: Tuple[int, int], scale_grad_by_freq: bool, mode: int, sparse: bool, per_sample_weights_rank_dtype: Optional[Tuple[int, int]], include_last_offset: bool, padding_idx: Optional[int]) -> Tuple[int, int, int, int]:
    return aten〇_embedding_bag〡dtype(weight_rank_dtype, indices_rank_dtype, offsets_rank_dtype,
                                     scale_grad_by_freq, mode, sparse,
                                     per_sample_weights_rank_dtype, include_last_offset,
                                     -1 if padding_idx is None else padding_idx)


# ---------------------------------------------------------------------------- bilinear


def _trilinear_dims(dims: List[int], total_dim: int) -> List[int]:
    """The kernel's dims of a dim list: wrapped, each at most once."""
    wrapped: List[int] = []
    for d in dims:
        dim = upstream.maybe_wrap_dim(d, total_dim)
        for earlier in wrapped:
            if earlier == dim:
                raise AssertionError("_trilinear: a dim appears twice in a list of dims")
        wrapped.append(dim)
    return wrapped


def _trilinear_has(dims: List[int], dim: int) -> bool:
    for d in dims:
        if d == dim:
            return True
    return False


def _trilinear_size(sizes: List[int], expanded: List[int], dim: int) -> int:
    """The size at `dim` of `sizes` unsqueezed at the expanded dims in order, as the
    kernel does: 1 at an expanded dim, else the next of `sizes`. One read, no list built,
    so the sizes of an input of unknown rank stay a few comparisons."""
    if _trilinear_has(expanded, dim):
        return 1
    before = 0
    for d in expanded:
        if d < dim:
            before += 1
    return sizes[dim - before]


def _trilinear_output_size(inputs: List[List[int]], expanded: List[List[int]], dim: int) -> int:
    """The kernel sizes the output by the last input not expanded at `dim` (0 if none)."""
    for k in range(2, -1, -1):
        if not _trilinear_has(expanded[k], dim):
            return _trilinear_size(inputs[k], expanded[k], dim)
    return 0


def _check_trilinear_product(inputs: List[List[int]], expanded: List[List[int]],
                             summed: List[int], total_dim: int, unroll_dim: int) -> None:
    """The kernel's loop over unroll_dim: one slice of each input not expanded there per
    step, multiplied (broadcasting) and added into the output in place."""
    for k in range(3):
        if len(inputs[k]) + len(expanded[k]) != total_dim:
            raise AssertionError("_trilinear: the inputs and expand dims give different ranks")
    unrolled = _trilinear_output_size(inputs, expanded, unroll_dim)
    for k in range(3):
        if (not _trilinear_has(expanded[k], unroll_dim)
                and _trilinear_size(inputs[k], expanded[k], unroll_dim) < unrolled):
            raise AssertionError("_trilinear: an input is shorter than the unrolled dim")
    for dim in range(total_dim):
        if dim == unroll_dim:
            continue
        product = 1
        for k in range(3):
            size = _trilinear_size(inputs[k], expanded[k], dim)
            if size != 1:
                if product != 1 and product != size:
                    raise AssertionError("_trilinear: the sizes of a product do not broadcast")
                product = size
        if not _trilinear_has(summed, dim) and product != _trilinear_output_size(inputs, expanded, dim):
            raise AssertionError("_trilinear: the product does not fit the output")


def _trilinear_shape(i1: List[int], i2: List[int], i3: List[int], expand1: List[int],
                     expand2: List[int], expand3: List[int], sumdim: List[int],
                     unroll_dim: int) -> List[int]:
    """Each input unsqueezed at its expand dims; the product summed over sumdim. The kernel
    sizes the output by the last input not expanded at each dim, and multiplies (checking
    sizes) only when no input is empty."""
    total_dim = len(i1) + len(expand1)
    if unroll_dim < 0 or unroll_dim >= total_dim:
        raise AssertionError("_trilinear: unroll_dim out of range")
    summed = _trilinear_dims(sumdim, total_dim)
    inputs = [i1, i2, i3]
    expanded = [_trilinear_dims(expand1, total_dim), _trilinear_dims(expand2, total_dim),
                _trilinear_dims(expand3, total_dim)]
    # The kernel's unsqueezes fail unless an input has a size for every dim it does not
    # expand (the checks at each expanded dim follow from that one).
    for k in range(3):
        if total_dim - len(expanded[k]) > len(inputs[k]):
            raise AssertionError("_trilinear: an input has fewer dims than the output")
    if upstream.numel(i1) != 0 and upstream.numel(i2) != 0 and upstream.numel(i3) != 0:
        _check_trilinear_product(inputs, expanded, summed, total_dim, unroll_dim)
    out: List[int] = []
    for dim in range(total_dim):
        if not _trilinear_has(summed, dim):
            out.append(_trilinear_output_size(inputs, expanded, dim))
    return out


def _trilinear_pair_dtype(left: int, right: int, sums: bool) -> Optional[int]:
    """The dtype of one product of _trilinear, None when the sizes decide it. A bmm wants
    operands of one dtype, after summing an operand over a summed dim only it has (sizes
    decide which), which makes an integral or bool operand int64."""
    if not sums:
        ranks: List[Optional[int]] = [1, 1]  # both unsqueezed to the output's rank
        return promote_dtypes(ranks, [left, right])
    left_integral = not is_float_dtype(left) and not is_complex_dtype(left)
    right_integral = not is_float_dtype(right) and not is_complex_dtype(right)
    if left_integral and right_integral:
        # Either may be summed to int64; both kept agree only for one dtype.
        if left == right and left != 4:  # int64
            return None
        return 4
    if left != right:
        raise AssertionError("_trilinear: the operands of a summed product have different dtypes")
    return left


@shape("aten._trilinear", invocations=[
    Invocation(_T(2, 4), _T(5, 4, 3), _T(2, 3), [1, 3], [0], [1, 2], [2, 3]),
    Invocation(_T(2, 4), _T(5, 4, 3), _T(2, 3), [1, 3], [0], [1, 2], [2, 3], 0),
    Invocation(_T(2, 3), _T(2, 3), _T(2, 3), [], [], [], [1]),
    Invocation(_T(2, 3), _T(2, 3), _T(2, 3), [], [], [], []),
    ErrorInvocation(_T(2, 4), _T(5, 5, 3), _T(2, 3), [1, 3], [0], [1, 2], [2, 3]),
    ErrorInvocation(_T(2, 4), _T(5, 4, 3), _T(2, 3), [1, 3], [0], [1, 2], [2, 3], 4),
    ErrorInvocation(_T(2, 4), _T(5, 4, 3), _T(2, 3), [1, 3], [0], [1], [2, 3]),
    # An empty input: no size is checked, each output size is the last input's not expanded.
    Invocation(_T(2, 3), _T(2, 3), _T(0, 2), [], [], [], [0]),
    Invocation(_T(2, 3), _T(2, 3, 4), _T(0, 2), [], [], [], []),
    Invocation(_T(2), _T(2, 3), _T(0), [1], [], [0], []),
    Invocation(_T(0), _T(3), _T(4), [0], [0], [0], []),
    ErrorInvocation(_T(2), _T(2, 3), _T(0), [1], [], [], []),
    ErrorInvocation(_T(2, 3), _T(2, 3), _T(0, 2), [0], [], [], []),
    # Dims wrap; each appears once.
    Invocation(_T(2, 3), _T(2, 3), _T(2, 3), [], [], [], [-1]),
    Invocation(_T(2), _T(2, 3), _T(2, 3), [-1], [], [], []),
    ErrorInvocation(_T(2), _T(2, 3), _T(2, 3), [1, 1], [], [], []),
    ErrorInvocation(_T(2, 3), _T(2, 3), _T(2, 3), [], [], [], [1, -1]),
    # The unrolled dim is sliced, the output sized by the last input.
    Invocation(_T(2, 3), _T(3, 3), _T(1, 3), [], [], [], [], 0),
    Invocation(_T(3, 3), _T(2, 3), _T(2, 3), [], [], [], [], 0),
    Invocation(_T(2, 3), _T(2, 3), _T(2, 1), [], [], [], [1], 0),
    ErrorInvocation(_T(1, 3), _T(3, 3), _T(2, 3), [], [], [], [], 0),
    ErrorInvocation(_T(2, 3), _T(2, 3), _T(2, 1), [], [], [], [], 0),
    ErrorInvocation(_T(2, 3), _T(2, 3, 4), _T(2, 3), [], [], [], []),
])
def aten〇_trilinear〡shape(i1: List[int], i2: List[int], i3: List[int], expand1: List[int], expand2: List[int], expand3: List[int], sumdim: List[int], unroll_dim: int = 1) -> List[int]:
    return _trilinear_shape(i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim)


@dtype("aten._trilinear", invocations=[
    Invocation(_T(2, 3, dtype=a), _T(2, 3, dtype=b), _T(2, 3, dtype=c), [], [], [], [1])
    for a, b, c in itertools.product(_PARAM_SWEEP, _PARAM_SWEEP, _PARAM_SWEEP)
    if a != torch.int64 or b == c == torch.int64]
    + [Invocation(_T(2, 3, dtype=d), _T(2, 3, dtype=d), _T(2, 3, dtype=d), [], [], [], [0])
       for d in _SWEEP]
    + [Invocation(_T(2, 3, dtype=a), _T(2, 3, dtype=b), _T(2, 3, dtype=c), [], [], [], sumdim)
       for a, b, c in ((torch.float16, torch.float32, torch.float32),
                       (torch.int32, torch.int32, torch.int32),
                       (torch.float32, torch.float16, torch.float32))
       for sumdim in ([], [0])]
    + [ErrorInvocation(_T(2, 3, dtype=torch.int64), _T(2, 3), _T(2, 3), [], [], [], [1]),
       ErrorInvocation(_T(2, 3), _T(2, 3), _T(2, 3, dtype=torch.float16), [], [], [], [0]),
       ErrorInvocation(_T(2, 3), _T(2, 3, dtype=torch.float16), _T(2, 3, dtype=torch.float16),
                       [], [], [], [0]),
       ErrorInvocation(_T(2, 3, dtype=torch.uint8), _T(2, 3, dtype=torch.uint8),
                       _T(2, 3, dtype=torch.float16), [], [], [], [0])])
def aten〇_trilinear〡dtype(i1_rank_dtype: Tuple[int, int], i2_rank_dtype: Tuple[int, int], i3_rank_dtype: Tuple[int, int], expand1: List[int], expand2: List[int], expand3: List[int], sumdim: List[int], unroll_dim: int = 1) -> int:
    # The output is zeros like i1, the products added into it in place. Each product of a
    # pair is a mul, or a bmm (operands of one dtype) where the pair sums a dim other than
    # unroll_dim: sums over i3's expanded dims in the first pair, the rest in the second.
    total_dim = i1_rank_dtype[0] + len(expand1)
    summed = _trilinear_dims(sumdim, total_dim)
    expanded3 = _trilinear_dims(expand3, total_dim)
    first_sums = False
    second_sums = False
    for dim in summed:
        if dim != unroll_dim:
            if _trilinear_has(expanded3, dim):
                first_sums = True
            else:
                second_sums = True
    product = _trilinear_pair_dtype(i1_rank_dtype[1], i2_rank_dtype[1], first_sums)
    if product is None:
        return i1_rank_dtype[1]
    product = _trilinear_pair_dtype(product, i3_rank_dtype[1], second_sums)
    if product is None:
        return i1_rank_dtype[1]
    if not _can_cast(product, i1_rank_dtype[1]):
        raise AssertionError("_trilinear: the product's dtype cannot be cast to i1's dtype")
    return i1_rank_dtype[1]


@shape("aten.bilinear", invocations=[
    Invocation(_T(2, 4), _T(2, 3), _T(5, 4, 3)),
    Invocation(_T(6, 2, 4), _T(6, 2, 3), _T(5, 4, 3), _T(5)),
    Invocation(_T(4), _T(3), _T(5, 4, 3), _T(5)),
    ErrorInvocation(_T(2, 4), _T(3), _T(5, 4, 3)),
    ErrorInvocation(_T(2, 4), _T(3, 3), _T(5, 4, 3)),
    ErrorInvocation(_T(2, 4), _T(2, 3), _T(5, 3, 3)),
    ErrorInvocation(_T(2, 4), _T(2, 2), _T(5, 4, 3)),
    ErrorInvocation(_T(2, 4), _T(2, 3), _T(5, 4, 3), _T(4)),
])
def aten〇bilinear〡shape(input1: List[int], input2: List[int], weight: List[int], bias: Optional[List[int]] = None) -> List[int]:
    if len(input1) != len(input2):
        raise AssertionError("bilinear: input dimensions do not match")
    if input1[:-1] != input2[:-1]:
        raise AssertionError("bilinear: input batch dimensions do not match")
    if len(weight) != 3 or input1[-1] != weight[1] or input2[-1] != weight[2]:
        raise AssertionError("bilinear: input sizes do not match the weight's")
    if bias is not None and (len(bias) == 0 or bias[0] != weight[0]):
        raise AssertionError("bilinear: bias size does not match weight size")
    out = input1[:-1]
    out.append(weight[0])
    if bias is None:
        return out
    return broadcast_shapes([out, bias])


@dtype("aten.bilinear", invocations=[
    Invocation(_T(2, 4, dtype=d), _T(2, 3, dtype=d), _T(5, 4, 3, dtype=d), bias)
    for d in _SWEEP for bias in (None, _T(5, dtype=d))]
    + [ErrorInvocation(_T(2, 4, dtype=a), _T(2, 3, dtype=b), _T(5, 4, 3, dtype=c), bias)
       for a, b, c, bias in ((torch.float16, torch.float32, torch.float32, None),
                             (torch.float32, torch.float64, torch.float32, None),
                             (torch.float32, torch.float32, torch.int64, None),
                             (torch.float32, torch.float32, torch.float32, _T(5, dtype=torch.float64)))])
def aten〇bilinear〡dtype(input1_rank_dtype: Tuple[int, int], input2_rank_dtype: Tuple[int, int], weight_rank_dtype: Tuple[int, int], bias_rank_dtype: Optional[Tuple[int, int]] = None) -> int:
    result = input1_rank_dtype[1]
    others = [input2_rank_dtype[1], weight_rank_dtype[1]]
    if bias_rank_dtype is not None:
        others.append(bias_rank_dtype[1])
    for other in others:
        if other != result:
            raise AssertionError("bilinear: all tensors must have the same dtype")
    return result


# ---------------------------------------------------------------------------- more activations


@shape("aten.glu", invocations=[
    Invocation(_T(2, 6)),
    Invocation(_T(4, 3), 0),
    Invocation(_T(4, 0), 1),
    ErrorInvocation(_T(2, 5)),
    ErrorInvocation(_T()),
    ErrorInvocation(_T(2, 4), 2),
])
def aten〇glu〡shape(self: List[int], dim: int = -1) -> List[int]:
    if len(self) == 0:
        raise AssertionError("glu: scalars are not supported (the halved dim must be even)")
    wrapped = upstream.maybe_wrap_dim(dim, len(self))
    if self[wrapped] % 2 != 0:
        raise AssertionError("glu: halving dimension must be even")
    out = upstream._copy(self)
    out[wrapped] = self[wrapped] // 2
    return out


@dtype("aten.glu", invocations=[Invocation(_T(2, 6, dtype=d)) for d in _SWEEP])
def aten〇glu〡dtype(self_rank_dtype: Tuple[int, int], dim: int = -1) -> int:
    return self_rank_dtype[1]


@shape("aten.prelu", invocations=[
    Invocation(_T(2, 3, 4), _T(3)),
    Invocation(_T(2, 3, 4), _T(1)),
    Invocation(_T(2, 3, 4), _T()),
    Invocation(_T(), _T(1)),
    Invocation(_T(5), _T(1)),
    ErrorInvocation(_T(2, 3, 4), _T(4)),
    ErrorInvocation(_T(2, 3, 4), _T(1, 3)),
    ErrorInvocation(_T(5), _T(5)),
])
def aten〇prelu〡shape(self: List[int], weight: List[int]) -> List[int]:
    if len(weight) > 1:
        raise AssertionError("prelu: expected weight to be a scalar or 1D tensor")
    weight_numel = upstream.numel(weight)
    channels = self[1] if len(self) >= 2 else 1
    if weight_numel != 1 and (len(self) == 0 or weight_numel != channels):
        raise AssertionError("prelu: the number of weights does not match the channels")
    return upstream._copy(self)


@dtype("aten.prelu", invocations=[Invocation(_T(2, 3, dtype=d), _T(3, dtype=d)) for d in _SWEEP]
    + [ErrorInvocation(_T(2, 3, dtype=a), _T(3, dtype=b))
       for a, b in ((torch.float32, torch.float64), (torch.int64, torch.float32))])
def aten〇prelu〡dtype(self_rank_dtype: Tuple[int, int], weight_rank_dtype: Tuple[int, int]) -> int:
    if self_rank_dtype[1] != weight_rank_dtype[1]:
        raise AssertionError("prelu: type promotion is not supported (self and weight dtypes differ)")
    return self_rank_dtype[1]


@shape("aten.rrelu", invocations=[
    Invocation(_T(2, 3)),
    Invocation(_T(2, 3), 0.1, 0.3, True),
    ErrorInvocation(_T(2, 3), 0.5, 0.3),
])
def aten〇rrelu〡shape(self: List[int], lower: float = 0.125, upper: float = 0.3333333333333333, training: bool = False, generator: Optional[Any] = None) -> List[int]:
    if lower > upper:
        raise AssertionError("rrelu: lower bound should be less than or equal to the upper bound")
    return upstream._copy(self)


@dtype("aten.rrelu", invocations=[Invocation(_T(2, 3, dtype=d)) for d in _FLOAT_SWEEP])
def aten〇rrelu〡dtype(self_rank_dtype: Tuple[int, int], lower: Union[int, float, complex] = 0.125, upper: Union[int, float, complex] = 0.3333333333333333, training: bool = False, generator: Optional[Any] = None) -> int:
    return self_rank_dtype[1]


@shape("aten.rrelu_with_noise", invocations=[
    Invocation(_T(2, 3), _T(2, 3)),
    Invocation(_T(2, 3), _T(2, 3), 0.1, 0.3, True),
])
def aten〇rrelu_with_noise〡shape(self: List[int], noise: List[int], lower: float = 0.125, upper: float = 0.3333333333333333, training: bool = False, generator: Optional[Any] = None) -> List[int]:
    return upstream._copy(self)


@dtype("aten.rrelu_with_noise", invocations=[
    Invocation(_T(2, 3, dtype=a), _T(2, 3, dtype=b))
    for a, b in itertools.product(_FLOAT_SWEEP, _FLOAT_SWEEP)])
def aten〇rrelu_with_noise〡dtype(self_rank_dtype: Tuple[int, int], noise_rank_dtype: Tuple[int, int], lower: Union[int, float, complex] = 0.125, upper: Union[int, float, complex] = 0.3333333333333333, training: bool = False, generator: Optional[Any] = None) -> int:
    return self_rank_dtype[1]


@shape("aten.rrelu_with_noise_functional", invocations=[
    Invocation(_T(2, 3), _T(2, 3)),
    Invocation(_T(2, 3), _T(2, 3), 0.1, 0.3, True),
])
def aten〇rrelu_with_noise_functional〡shape(self: List[int], noise: List[int], lower: float = 0.125, upper: float = 0.3333333333333333, training: bool = False, generator: Optional[Any] = None) -> Tuple[List[int], List[int]]:
    return upstream._copy(self), upstream._copy(noise)


@dtype("aten.rrelu_with_noise_functional", invocations=[
    Invocation(_T(2, 3, dtype=a), _T(2, 3, dtype=b))
    for a, b in itertools.product(_FLOAT_SWEEP, _FLOAT_SWEEP)])
def aten〇rrelu_with_noise_functional〡dtype(self_rank_dtype: Tuple[int, int], noise_rank_dtype: Tuple[int, int], lower: Union[int, float, complex] = 0.125, upper: Union[int, float, complex] = 0.3333333333333333, training: bool = False, generator: Optional[Any] = None) -> Tuple[int, int]:
    return self_rank_dtype[1], noise_rank_dtype[1]


@shape("aten.cosine_similarity", invocations=[
    Invocation(_T(2, 3), _T(2, 3)),
    Invocation(_T(2, 3), _T(3), 1),
    Invocation(_T(4, 1, 3), _T(5, 1), 0, 1e-6),
    Invocation(_T(3), _T(3), 0),
    ErrorInvocation(_T(2, 3), _T(4)),
    ErrorInvocation(_T(2, 3), _T(2, 3), 2),
])
def aten〇cosine_similarity〡shape(x1: List[int], x2: List[int], dim: int = 1, eps: float = 1e-08) -> List[int]:
    common = broadcast_shapes([x1, x2])
    return upstream.sum_mean_dim(common, [dim], False, None)


@dtype("aten.cosine_similarity", invocations=[
    Invocation(_T(2, 3, dtype=a), _T(2, 3, dtype=b))
    for a, b in itertools.product(_FLOAT_SWEEP, _FLOAT_SWEEP)]
    + [ErrorInvocation(_T(2, 3, dtype=torch.int64), _T(2, 3, dtype=torch.int64)),
       ErrorInvocation(_T(2, 3, dtype=torch.complex64), _T(2, 3))])
def aten〇cosine_similarity〡dtype(x1_rank_dtype: Tuple[int, int], x2_rank_dtype: Tuple[int, int], dim: int = 1, eps: float = 1e-08) -> int:
    ranks, dtypes = rank_dtype_lists([x1_rank_dtype, x2_rank_dtype])
    common = promote_dtypes(ranks, dtypes)
    if not is_float_dtype(common):
        raise AssertionError("cosine_similarity: expected the common dtype to be floating point")
    return common


@shape("aten._safe_softmax", invocations=[
    Invocation(_T(2, 3), 1),
    Invocation(_T(2, 3), -2, torch.float64),
    ErrorInvocation(_T(2, 3), 2),
])
def aten〇_safe_softmax〡shape(self: List[int], dim: int, dtype: Optional[int] = None) -> List[int]:
    return aten〇softmax〇int〡shape(self, dim, dtype)


@dtype("aten._safe_softmax", invocations=[
    Invocation(_T(2, 3, dtype=d), 1, out)
    for d in _FLOAT_SWEEP + (torch.int64, torch.bool) for out in (None, torch.float16, torch.float64)])
def aten〇_safe_softmax〡dtype(self_rank_dtype: Tuple[int, int], dim: int, dtype: Optional[int] = None) -> int:
    return aten〇softmax〇int〡dtype(self_rank_dtype, dim, dtype)
