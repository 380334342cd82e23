"""Loss functions: the unreduced loss broadcasts the input with the target; reduction 1
(mean) or 2 (sum) makes it a scalar, any other value keeps it (PyTorch's
apply_loss_reduction).
"""

import itertools
from typing import List, Optional, Tuple

import torch

from ._helpers import broadcast_shapes, rank_dtype_lists
from .promotion import (
    apply_promotion_kind,
    is_complex_dtype,
    is_float_dtype,
    promote_dtypes,
    to_real_dtype,
)
from .registry import dtype, shape
from .testing import (
    ErrorInvocation,
    Invocation,
    KernelErrorInvocation,
    KernelInvocation,
    LongTensorOfShape,
    TensorOfShape,
)

_FLOATS = (torch.float16, torch.bfloat16, torch.float32, torch.float64)
_SWEEP = (torch.int64, torch.bool, torch.complex64) + _FLOATS


def _T(*sizes, dtype=torch.float32):
    return TensorOfShape(*sizes, dtype=dtype)


def _reduced(loss: List[int], reduction: int) -> List[int]:
    if reduction == 1 or reduction == 2:  # mean, sum
        return []
    return loss


def _check_mean_dtype(op: str, dtype: int, reduction: int) -> None:
    """The mean of an integer loss has no dtype (PyTorch's mean raises)."""
    if reduction == 1 and not is_float_dtype(dtype) and not is_complex_dtype(dtype):
        raise AssertionError(op + ": the mean of an integer or bool loss is not supported")


def _difference_dtype(op: str, self_rank_dtype: Tuple[int, int],
                      target_rank_dtype: Tuple[int, int]) -> int:
    """The dtype of self - target."""
    if self_rank_dtype[1] == 11 and target_rank_dtype[1] == 11:
        raise AssertionError(op + ": subtraction of two bool tensors is not supported")
    ranks, dtypes = rank_dtype_lists([self_rank_dtype, target_rank_dtype])
    return promote_dtypes(ranks, dtypes)


def _binary_loss_shape_cases(*tail):
    return [
        Invocation(_T(2, 3), _T(2, 3), *tail),
        Invocation(_T(2, 3), _T(2, 3), *tail, 0),
        Invocation(_T(2, 3), _T(3), *tail, 0),
        Invocation(_T(1, 3), _T(2, 1), *tail, 2),
        Invocation(_T(2, 3), _T(3), *tail, 1),
        ErrorInvocation(_T(2, 3), _T(4), *tail),
    ]


def _binary_loss_dtype_cases(dtypes, *tail):
    return [Invocation(_T(2, 3, dtype=a), _T(2, 3, dtype=b), *tail, reduction)
            for a, b in itertools.product(dtypes, dtypes) for reduction in (0, 1)
            if a != torch.bool or b != torch.bool]


@shape("aten.mse_loss", "aten.l1_loss", invocations=_binary_loss_shape_cases())
def aten〇mse_loss〡shape(self: List[int], target: List[int], reduction: int = 1) -> List[int]:
    return _reduced(broadcast_shapes([self, target]), reduction)


_BOOL_DIFFERENCE = ErrorInvocation(_T(2, 3, dtype=torch.bool), _T(2, 3, dtype=torch.bool), 0)


@dtype("aten.mse_loss", invocations=_binary_loss_dtype_cases(_SWEEP) + [_BOOL_DIFFERENCE])
def aten〇mse_loss〡dtype(self_rank_dtype: Tuple[int, int], target_rank_dtype: Tuple[int, int], reduction: int = 1) -> int:
    result = _difference_dtype("mse_loss", self_rank_dtype, target_rank_dtype)
    _check_mean_dtype("mse_loss", result, reduction)
    return result


@dtype("aten.l1_loss", invocations=_binary_loss_dtype_cases(_SWEEP) + [_BOOL_DIFFERENCE])
def aten〇l1_loss〡dtype(self_rank_dtype: Tuple[int, int], target_rank_dtype: Tuple[int, int], reduction: int = 1) -> int:
    # abs(self - target): a complex difference has a real absolute value.
    result = to_real_dtype(_difference_dtype("l1_loss", self_rank_dtype, target_rank_dtype))
    _check_mean_dtype("l1_loss", result, reduction)
    return result


@shape("aten.kl_div", invocations=_binary_loss_shape_cases() + [
    Invocation(_T(2, 3), _T(2, 3), 0, log_target=True),
    Invocation(_T(2, 3), _T(3), 2, log_target=True),
])
def aten〇kl_div〡shape(self: List[int], target: List[int], reduction: int = 1, log_target: bool = False) -> List[int]:
    return _reduced(broadcast_shapes([self, target]), reduction)


@dtype("aten.kl_div", invocations=[
    Invocation(_T(2, 3, dtype=a), _T(2, 3, dtype=b), reduction, log_target=log_target)
    for a, b in itertools.product(_FLOATS, _FLOATS) for reduction in (0, 1)
    for log_target in (False, True)]
    + [ErrorInvocation(_T(2, 3, dtype=a), _T(2, 3, dtype=b))
       for a, b in ((torch.int64, torch.float32), (torch.float32, torch.bool),
                    (torch.complex64, torch.float32), (torch.float32, torch.complex64))])
def aten〇kl_div〡dtype(self_rank_dtype: Tuple[int, int], target_rank_dtype: Tuple[int, int], reduction: int = 1, log_target: bool = False) -> int:
    for tensor_dtype in [self_rank_dtype[1], target_rank_dtype[1]]:
        if not is_float_dtype(tensor_dtype):
            raise AssertionError("kl_div: integral and complex inputs are not supported")
    ranks, dtypes = rank_dtype_lists([self_rank_dtype, target_rank_dtype])
    return promote_dtypes(ranks, dtypes)


@shape("aten.binary_cross_entropy_with_logits", invocations=[
    Invocation(_T(2, 3), _T(2, 3)),
    Invocation(_T(2, 3), _T(2, 3), _T(3), _T(3), 0),
    Invocation(_T(2, 3), _T(2, 3), None, _T(1, 3), 2),
    Invocation(_T(3), _T(2, 3), _T(2, 1), None, 0),
    Invocation(_T(2, 3), _T(3), None, None, 0),
    ErrorInvocation(_T(2, 3), _T(4)),
    ErrorInvocation(_T(2, 3), _T(2, 3), _T(4)),
    ErrorInvocation(_T(2, 3), _T(2, 3), None, _T(4)),
])
def aten〇binary_cross_entropy_with_logits〡shape(self: List[int], target: List[int], weight: Optional[List[int]] = None, pos_weight: Optional[List[int]] = None, reduction: int = 1) -> List[int]:
    shapes = [self, target]
    if pos_weight is not None:
        shapes.append(pos_weight)
    if weight is not None:
        shapes.append(weight)
    return _reduced(broadcast_shapes(shapes), reduction)


@dtype("aten.binary_cross_entropy_with_logits", invocations=[
    Invocation(_T(2, 3, dtype=a), _T(2, 3, dtype=b), None, None, reduction)
    for a, b in itertools.product(_FLOATS, _FLOATS + (torch.int64,)) for reduction in (0, 1)
    if b != torch.int64 or reduction == 0]
    + [Invocation(_T(2, 3), _T(2, 3, dtype=torch.float16), _T(3, dtype=torch.float64),
                  _T(3, dtype=torch.float64))]
    + [ErrorInvocation(_T(2, 3), _T(2, 3, dtype=torch.int64), None, None, 1),
       KernelErrorInvocation(_T(2, 3), _T(2, 3, dtype=torch.bool), None, None, 0)])
def aten〇binary_cross_entropy_with_logits〡dtype(self_rank_dtype: Tuple[int, int], target_rank_dtype: Tuple[int, int], weight_rank_dtype: Optional[Tuple[int, int]] = None, pos_weight_rank_dtype: Optional[Tuple[int, int]] = None, reduction: int = 1) -> int:
    # The loss is cast to the target's dtype (the kernel computes it in place in 1 - target).
    target_dtype = target_rank_dtype[1]
    if target_dtype == 11:
        raise AssertionError("binary_cross_entropy_with_logits: bool targets are not supported")
    _check_mean_dtype("binary_cross_entropy_with_logits", target_dtype, reduction)
    return target_dtype


@shape("aten.poisson_nll_loss", invocations=[
    Invocation(_T(2, 3), _T(2, 3), True, False, 1e-8, 1),
    Invocation(_T(2, 3), _T(3), False, True, 1e-8, 0),
    Invocation(_T(1, 3), _T(2, 1), True, True, 1e-8, 0),
    Invocation(_T(2, 3), _T(3), False, False, 1e-8, 2),
    ErrorInvocation(_T(2, 3), _T(4), True, False, 1e-8, 0),
])
def aten〇poisson_nll_loss〡shape(input: List[int], target: List[int], log_input: bool, full: bool, eps: float, reduction: int) -> List[int]:
    return _reduced(broadcast_shapes([input, target]), reduction)


@dtype("aten.poisson_nll_loss", invocations=[
    Invocation(_T(2, 3, dtype=a), _T(2, 3, dtype=b), log_input, full, 1e-8, 0)
    for a, b in itertools.product(_FLOATS + (torch.int64,), _FLOATS + (torch.int64,))
    for log_input, full in ((True, False), (False, True))])
def aten〇poisson_nll_loss〡dtype(input_rank_dtype: Tuple[int, int], target_rank_dtype: Tuple[int, int], log_input: bool, full: bool, eps: float, reduction: int) -> int:
    # exp(input) or log(input + eps) is floating point; the target multiplies the input.
    input_rank, input_dtype = input_rank_dtype
    floating = apply_promotion_kind(2, input_dtype)  # INT_TO_FLOAT
    ranks, dtypes = rank_dtype_lists([(input_rank, floating), target_rank_dtype, input_rank_dtype])
    return promote_dtypes(ranks, dtypes)


def _nll_loss_shapes(op: str, self: List[int], target: List[int],
                     weight: Optional[List[int]]) -> None:
    """The checks of nll_loss: a (C) or (N, C) input, a () or (N) target, C weights."""
    if len(self) < 1 or len(self) > 2:
        raise AssertionError(op + ": expected a 1D or 2D input")
    if len(target) > 1:
        raise AssertionError(op + ": expected a 0D or 1D target (multi-target is not supported)")
    no_batch_dim = len(self) == 1 and len(target) == 0
    if not no_batch_dim and (len(target) == 0 or len(self) == 1 or self[0] != target[0]):
        raise AssertionError(op + ": the input and target batch sizes do not match")
    if weight is not None and (len(weight) != 1 or weight[0] != self[-1]):
        raise AssertionError(op + ": weight must be defined for all classes or none")


@shape("aten.nll_loss_forward", invocations=[
    Invocation(_T(2, 3), LongTensorOfShape(2), None, 1, -100),
    Invocation(_T(2, 3), LongTensorOfShape(2), _T(3), 0, -100),
    Invocation(_T(3), LongTensorOfShape(), None, 0, -100),
    Invocation(_T(0, 3), LongTensorOfShape(0), None, 0, 1),
    Invocation(_T(2, 3), LongTensorOfShape(2), None, 2, 1),
    # A reduction code past 0..2 (no Python API passes one) reduces in the CPU kernel; the
    # meta kernel alone gives [N] (only 1 and 2 reduce there). What runs is the truth.
    *[KernelInvocation(_T(2, 3), LongTensorOfShape(2), None, r, -100) for r in (3, -1, 2**62)],
    ErrorInvocation(_T(2, 3), LongTensorOfShape(3), None, 1, -100),
    ErrorInvocation(_T(3), LongTensorOfShape(3), None, 1, -100),
    ErrorInvocation(_T(2, 3), LongTensorOfShape(), None, 1, -100),
    ErrorInvocation(_T(2, 3, 4), LongTensorOfShape(2, 4), None, 1, -100),
    ErrorInvocation(_T(), LongTensorOfShape(), None, 1, -100),
    ErrorInvocation(_T(2, 3), LongTensorOfShape(2), _T(4), 1, -100),
])
def aten〇nll_loss_forward〡shape(self: List[int], target: List[int], weight: Optional[List[int]], reduction: int, ignore_index: int) -> Tuple[List[int], List[int]]:
    _nll_loss_shapes("nll_loss_forward", self, target, weight)
    total_weight: List[int] = []
    if reduction == 0 and len(self) == 2:  # none
        return [self[0]], total_weight
    return [], total_weight


def _check_nll_target_dtype(op: str, dtype: int) -> None:
    if dtype != 4:
        raise AssertionError(op + ": expected an int64 target")


@dtype("aten.nll_loss_forward", invocations=[
    Invocation(_T(2, 3, dtype=d), LongTensorOfShape(2), weight, reduction, -100)
    for d in _FLOATS for weight in (None, _T(3, dtype=torch.float64)) for reduction in (0, 1)]
    + [KernelErrorInvocation(_T(2, 3), _T(2, dtype=torch.int32), None, 1, -100),
       KernelErrorInvocation(_T(2, 3, dtype=torch.int64), LongTensorOfShape(2), None, 0, -100)])
def aten〇nll_loss_forward〡dtype(self_rank_dtype: Tuple[int, int], target_rank_dtype: Tuple[int, int], weight_rank_dtype: Optional[Tuple[int, int]], reduction: int, ignore_index: int) -> Tuple[int, int]:
    _check_nll_target_dtype("nll_loss_forward", target_rank_dtype[1])
    if not is_float_dtype(self_rank_dtype[1]):
        raise AssertionError("nll_loss_forward: expected a floating-point input")
    if weight_rank_dtype is None:
        return self_rank_dtype[1], self_rank_dtype[1]
    # The meta kernel multiplies the input by the weights.
    ranks, dtypes = rank_dtype_lists([self_rank_dtype, weight_rank_dtype])
    result = promote_dtypes(ranks, dtypes)
    return result, result


@shape("aten.nll_loss_backward", invocations=[
    Invocation(_T(), _T(2, 3), LongTensorOfShape(2), None, 1, -100, _T()),
    Invocation(_T(2), _T(2, 3), LongTensorOfShape(2), _T(3), 0, -100, _T()),
    Invocation(_T(), _T(3), LongTensorOfShape(), None, 0, -100, _T()),
    ErrorInvocation(_T(3), _T(2, 3), LongTensorOfShape(2), None, 0, -100, _T()),
    ErrorInvocation(_T(2), _T(2, 3), LongTensorOfShape(2), None, 1, -100, _T()),
    ErrorInvocation(_T(), _T(2, 3), LongTensorOfShape(2), None, 1, -100, _T(2)),
    ErrorInvocation(_T(), _T(2, 3), LongTensorOfShape(3), None, 1, -100, _T()),
    ErrorInvocation(_T(), _T(2, 3), LongTensorOfShape(2), _T(2), 1, -100, _T()),
])
def aten〇nll_loss_backward〡shape(grad_output: List[int], self: List[int], target: List[int], weight: Optional[List[int]], reduction: int, ignore_index: int, total_weight: List[int]) -> List[int]:
    _nll_loss_shapes("nll_loss_backward", self, target, weight)
    total_weight_numel = 1
    for size in total_weight:
        total_weight_numel = total_weight_numel * size
    if total_weight_numel != 1:
        raise AssertionError("nll_loss_backward: expected a single element total_weight")
    if reduction == 0 and len(self) == 2:  # none
        if len(grad_output) != 1 or grad_output[0] != self[0]:
            raise AssertionError("nll_loss_backward: expected grad_output of the batch size")
        return self[:]
    if len(grad_output) > 1 or (len(grad_output) == 1 and grad_output[0] != 1):
        raise AssertionError("nll_loss_backward: expected a single element grad_output")
    return self[:]


@dtype("aten.nll_loss_backward", invocations=[
    Invocation(_T(dtype=a), _T(2, 3, dtype=b), LongTensorOfShape(2), weight, 1, -100, _T(dtype=b))
    for a, b in itertools.product(_FLOATS, _FLOATS)
    for weight in (None, _T(3, dtype=torch.float16), _T(3, dtype=torch.float64))]
    # The mean divides by total_weight; the mask makes a bool gradient int64.
    + [Invocation(_T(dtype=g), _T(1, 3, dtype=s), LongTensorOfShape(1), None, reduction, -100,
                  _T(dtype=t))
       for g, s, t in ((torch.bfloat16, torch.int16, torch.float64),
                       (torch.int64, torch.int16, torch.int64),
                       (torch.bool, torch.uint8, torch.float16))
       for reduction in (1, 2)]
    + [KernelErrorInvocation(_T(), _T(2, 3), _T(2, dtype=torch.int32), None, 1, -100, _T())])
def aten〇nll_loss_backward〡dtype(grad_output_rank_dtype: Tuple[int, int], self_rank_dtype: Tuple[int, int], target_rank_dtype: Tuple[int, int], weight_rank_dtype: Optional[Tuple[int, int]], reduction: int, ignore_index: int, total_weight_rank_dtype: Tuple[int, int]) -> int:
    _check_nll_target_dtype("nll_loss_backward", target_rank_dtype[1])
    # What PyTorch's decomposition (the meta kernel) computes: grad_output (divided by
    # total_weight for a mean, times the weight reshaped to self's rank), masked where the
    # target (unsqueezed, so at least 1D) is ignored, times zeros like self.
    grad_rank, grad_dtype = grad_output_rank_dtype
    self_rank, self_dtype = self_rank_dtype
    if reduction == 1:  # mean
        total_rank, total_dtype = total_weight_rank_dtype
        quotient_ranks: List[Optional[int]] = [grad_rank, total_rank]
        grad_dtype = promote_dtypes(quotient_ranks, [grad_dtype, total_dtype])
        if not is_float_dtype(grad_dtype) and not is_complex_dtype(grad_dtype):
            grad_dtype = 6  # float32: true division of integers
        grad_rank = max(grad_rank, total_rank)
    if weight_rank_dtype is not None:
        weighted_ranks: List[Optional[int]] = [grad_rank, self_rank]
        grad_dtype = promote_dtypes(weighted_ranks, [grad_dtype, weight_rank_dtype[1]])
    if grad_dtype == 11:  # bool: where(..., 0) makes it int64
        grad_dtype = 4
    product_ranks: List[Optional[int]] = [self_rank, 1]
    return promote_dtypes(product_ranks, [self_dtype, grad_dtype])


@shape("aten.cross_entropy_loss", invocations=[
    Invocation(_T(2, 3), LongTensorOfShape(2)),
    Invocation(_T(2, 3), LongTensorOfShape(2), _T(3), 0),
    Invocation(_T(3), LongTensorOfShape(), None, 0),
    Invocation(_T(2, 3, 4, 5), LongTensorOfShape(2, 4, 5), None, 0),
    Invocation(_T(2, 3, 4), LongTensorOfShape(2, 4), None, 0, 1, 0.1),
    Invocation(_T(2, 3, 4), LongTensorOfShape(2, 4), None, 2),
    Invocation(_T(2, 3), _T(2, 3), None, 0),
    Invocation(_T(2, 3, 4), _T(2, 3, 4), _T(3), 0, -100, 0.2),
    Invocation(_T(3), _T(3), None, 0),
    Invocation(_T(2, 3), _T(2, 3)),
    ErrorInvocation(_T(2, 3), LongTensorOfShape(3)),
    ErrorInvocation(_T(2, 3, 4), LongTensorOfShape(2, 5)),
    KernelErrorInvocation(_T(2, 3, 4, 5), LongTensorOfShape(2, 4, 4)),
    ErrorInvocation(_T(), LongTensorOfShape()),
    ErrorInvocation(_T(2, 3), LongTensorOfShape(2), _T(4)),
    ErrorInvocation(_T(2, 3), _T(2, 3), _T(4)),
    ErrorInvocation(_T(2, 3), LongTensorOfShape(2), None, 1, -100, 1.5),
    ErrorInvocation(_T(2, 3), _T(2, 3), None, 2**63 - 1),
    ErrorInvocation(_T(2, 3), LongTensorOfShape(2), None, -1, -100, 0.1),
    Invocation(_T(2, 3), LongTensorOfShape(2), None, 3),
])
def aten〇cross_entropy_loss〡shape(self: List[int], target: List[int], weight: Optional[List[int]] = None, reduction: int = 1, ignore_index: int = -100, label_smoothing: float = 0.0) -> List[int]:
    if label_smoothing < 0.0 or label_smoothing > 1.0:
        raise AssertionError("cross_entropy_loss: label_smoothing must be between 0.0 and 1.0")
    if len(self) == 0:
        raise AssertionError("cross_entropy_loss: expected an input with 1 or more dims")
    class_dim = 1 if len(self) >= 2 else 0
    if weight is not None and (len(weight) != 1 or weight[0] != self[class_dim]):
        raise AssertionError("cross_entropy_loss: weight must be defined for all classes or none")
    unreduced = self[:class_dim] + self[class_dim + 1:]
    # Equal sizes mean class probabilities; otherwise the target holds class indices.
    if target != self and target != unreduced:
        raise AssertionError("cross_entropy_loss: the target does not match the input")
    # Probabilities and label smoothing reduce by hand, refusing an unknown reduction; plain
    # class indices go through nll_loss, which takes it as 'none'.
    if (target == self or label_smoothing > 0.0) and (reduction < 0 or reduction > 2):
        raise AssertionError("cross_entropy_loss: invalid reduction type")
    return _reduced(unreduced, reduction)


@dtype("aten.cross_entropy_loss", invocations=[
    Invocation(_T(2, 3, dtype=d), LongTensorOfShape(2), weight, reduction)
    for d in _FLOATS for weight in (None, _T(3, dtype=d)) for reduction in (0, 1)]
    + [Invocation(_T(2, 3, dtype=d), _T(2, 3, dtype=d), None, reduction)
       for d in _FLOATS for reduction in (0, 1)]
    + [KernelErrorInvocation(_T(2, 3), _T(2, dtype=torch.int32)),
       ErrorInvocation(_T(2, 3), _T(2, 3, dtype=torch.int64)),
       KernelErrorInvocation(_T(2, 3, dtype=torch.int64), LongTensorOfShape(2))])
def aten〇cross_entropy_loss〡dtype(self_rank_dtype: Tuple[int, int], target_rank_dtype: Tuple[int, int], weight_rank_dtype: Optional[Tuple[int, int]] = None, reduction: int = 1, ignore_index: int = -100, label_smoothing: float = 0.0) -> int:
    self_dtype = self_rank_dtype[1]
    if not is_float_dtype(self_dtype) and not is_complex_dtype(self_dtype):
        raise AssertionError("cross_entropy_loss: expected a floating-point input")
    if target_rank_dtype[0] == self_rank_dtype[0]:
        if not is_float_dtype(target_rank_dtype[1]):
            raise AssertionError("cross_entropy_loss: class probabilities must be floating point")
    else:
        _check_nll_target_dtype("cross_entropy_loss", target_rank_dtype[1])
    return self_dtype
