"""torchvision's detection ops (`torchvision.nms`, `roi_align`, `roi_pool`,
`deform_conv2d`), which reach the passes as `torch.operator "torchvision.<op>"`.

torchvision is not installed with torch-refine, so the signatures follow torchvision's
documented schemas (`signature_check=False`) and each case is checked against a
reference built from PyTorch's own ops: `conv2d` for deform_conv2d's output size, adaptive
pooling of one crop per box for the RoI ops, `nonzero` (a data-dependent count) for nms.
"""

from typing import List, Tuple

import torch
import torch.nn.functional as F

from ._helpers import unknown_dim
from .registry import dtype, shape
from .testing import DataDependentInvocation, ErrorInvocation, Invocation, TensorOfShape
from .testing import with_reference as ref

# --- References (Python, run on meta or fake tensors) ---------------------------------------


def _check_roi_tensors(input: torch.Tensor, rois: torch.Tensor) -> None:
    if input.dim() != 4:
        raise ValueError("RoI ops: input must be a 4-D tensor [N, C, H, W]")
    if rois.dim() != 2 or rois.shape[1] != 5:
        raise ValueError("rois must have shape as Tensor[K, 5]")


def _roi_reference(input, rois, spatial_scale, pooled_height, pooled_width, *_):
    _check_roi_tensors(input, rois)
    crops = input.new_empty(rois.shape[0], *input.shape[1:])  # one crop of input per box
    return F.adaptive_avg_pool2d(crops, (pooled_height, pooled_width))


def _roi_pool_reference(input, rois, spatial_scale, pooled_height, pooled_width):
    return F.adaptive_max_pool2d(
        _roi_reference(input, rois, spatial_scale, pooled_height, pooled_width),
        (pooled_height, pooled_width), return_indices=True)


def _deform_conv2d_reference(input, weight, offset, mask, bias, stride_h, stride_w, pad_h,
                             pad_w, dilation_h, dilation_w, groups, offset_groups, use_mask):
    return F.conv2d(input, weight, None, (stride_h, stride_w), (pad_h, pad_w),
                    (dilation_h, dilation_w), groups)


def _nms_reference(dets, scores, iou_threshold):
    if dets.dim() != 2 or dets.shape[1] != 4 or scores.dim() != 1:
        raise ValueError("nms: boxes must be [N, 4] and scores [N]")
    if dets.shape[0] != scores.shape[0]:
        raise ValueError("nms: boxes and scores must have the same number of elements")
    return torch.nonzero(scores)[:, 0]  # as many indices as boxes kept: data-dependent


# --- Family-private helpers (TorchScript) ----------------------------------------------------


def _check_roi_operands(input: List[int], rois: List[int]) -> None:
    if len(input) != 4:
        raise AssertionError("RoI ops: input must be a 4-D tensor [N, C, H, W]")
    if len(rois) != 2 or rois[1] != 5:
        raise AssertionError("rois must have shape as Tensor[K, 5]")


def _roi_sizes(input: List[int], rois: List[int], pooled_height: int, pooled_width: int) -> List[int]:
    _check_roi_operands(input, rois)
    return [rois[0], input[1], pooled_height, pooled_width]


# --- nms ------------------------------------------------------------------------------------

_BOXES = TensorOfShape(5, 4)
_SCORES = TensorOfShape(5)


@shape("torchvision.nms", signature_check=False, invocations=[
    ref(DataDependentInvocation(_BOXES, _SCORES, 0.5), _nms_reference),
    ref(ErrorInvocation(TensorOfShape(5, 3), _SCORES, 0.5), _nms_reference),
    ref(ErrorInvocation(_BOXES, TensorOfShape(4), 0.5), _nms_reference),
])
def torchvision〇nms〡shape(dets: List[int], scores: List[int], iou_threshold: float) -> List[int]:
    if len(dets) != 2 or dets[1] != 4 or len(scores) != 1:
        raise AssertionError("nms: boxes must be [N, 4] and scores [N]")
    if dets[0] != scores[0]:
        raise AssertionError("nms: boxes and scores must have the same number of elements")
    return [unknown_dim()]


@dtype("torchvision.nms", signature_check=False, invocations=[
    ref(DataDependentInvocation(_BOXES, _SCORES, 0.5), _nms_reference),
])
def torchvision〇nms〡dtype(dets_rank_dtype: Tuple[int, int], scores_rank_dtype: Tuple[int, int], iou_threshold: float) -> int:
    return 4  # int64 indices


# --- RoI ops --------------------------------------------------------------------------------

_IMAGES = TensorOfShape(2, 3, 16, 16)
_ROIS = TensorOfShape(4, 5)


@shape("torchvision.roi_align", signature_check=False, invocations=[
    ref(Invocation(_IMAGES, _ROIS, 0.5, 7, 5, 2, True), _roi_reference),
    ref(ErrorInvocation(_IMAGES, TensorOfShape(4, 4), 0.5, 7, 7, 2, False), _roi_reference),
    ref(ErrorInvocation(TensorOfShape(3, 16, 16), _ROIS, 0.5, 7, 7, 2, False), _roi_reference),
])
def torchvision〇roi_align〡shape(input: List[int], rois: List[int], spatial_scale: float, pooled_height: int, pooled_width: int, sampling_ratio: int, aligned: bool) -> List[int]:
    return _roi_sizes(input, rois, pooled_height, pooled_width)


@dtype("torchvision.roi_align", signature_check=False, invocations=[
    ref(Invocation(_IMAGES, _ROIS, 0.5, 7, 7, 2, False), _roi_reference),
    ref(Invocation(TensorOfShape(1, 3, 8, 8, dtype=torch.float64), _ROIS, 1.0, 2, 2, 0, True),
        _roi_reference),
])
def torchvision〇roi_align〡dtype(input_rank_dtype: Tuple[int, int], rois_rank_dtype: Tuple[int, int], spatial_scale: float, pooled_height: int, pooled_width: int, sampling_ratio: int, aligned: bool) -> int:
    return input_rank_dtype[1]


@shape("torchvision.roi_pool", signature_check=False, invocations=[
    ref(Invocation(_IMAGES, _ROIS, 0.5, 7, 5), _roi_pool_reference),
    ref(ErrorInvocation(_IMAGES, TensorOfShape(4), 0.5, 7, 7), _roi_pool_reference),
])
def torchvision〇roi_pool〡shape(input: List[int], rois: List[int], spatial_scale: float, pooled_height: int, pooled_width: int) -> Tuple[List[int], List[int]]:
    sizes = _roi_sizes(input, rois, pooled_height, pooled_width)
    return sizes, sizes


@dtype("torchvision.roi_pool", signature_check=False, invocations=[
    ref(Invocation(_IMAGES, _ROIS, 0.5, 7, 7), _roi_pool_reference),
    ref(Invocation(TensorOfShape(1, 3, 8, 8, dtype=torch.float16), _ROIS, 1.0, 2, 2),
        _roi_pool_reference),
])
def torchvision〇roi_pool〡dtype(input_rank_dtype: Tuple[int, int], rois_rank_dtype: Tuple[int, int], spatial_scale: float, pooled_height: int, pooled_width: int) -> Tuple[int, int]:
    return input_rank_dtype[1], 4  # the pooled values and the int64 argmax


# --- deform_conv2d --------------------------------------------------------------------------

_X = TensorOfShape(2, 4, 10, 12)
_W = TensorOfShape(6, 4, 3, 3)
_W_GROUPED = TensorOfShape(6, 2, 3, 3)
_OFFSET = TensorOfShape(2, 18, 8, 10)
_MASK = TensorOfShape(2, 9, 8, 10)
_BIAS = TensorOfShape(6)


@shape("torchvision.deform_conv2d", signature_check=False, invocations=[
    ref(Invocation(_X, _W, _OFFSET, _MASK, _BIAS, 1, 1, 0, 0, 1, 1, 1, 1, True),
        _deform_conv2d_reference),
    ref(Invocation(_X, _W_GROUPED, TensorOfShape(2, 18, 5, 6), _MASK, _BIAS, 2, 2, 1, 1, 1, 1,
                   2, 1, False), _deform_conv2d_reference),
    ref(Invocation(_X, _W, TensorOfShape(2, 18, 6, 8), _MASK, _BIAS, 1, 1, 0, 0, 2, 2, 1, 1,
                   False), _deform_conv2d_reference),
    ref(ErrorInvocation(_X, TensorOfShape(6, 3, 3, 3), _OFFSET, _MASK, _BIAS, 1, 1, 0, 0, 1, 1,
                        1, 1, True), _deform_conv2d_reference),
    ref(ErrorInvocation(TensorOfShape(2, 4, 2, 2), _W, _OFFSET, _MASK, _BIAS, 1, 1, 0, 0, 1, 1,
                        1, 1, True), _deform_conv2d_reference),
])
def torchvision〇deform_conv2d〡shape(input: List[int], weight: List[int], offset: List[int], mask: List[int], bias: List[int], stride_h: int, stride_w: int, pad_h: int, pad_w: int, dilation_h: int, dilation_w: int, groups: int, offset_groups: int, use_mask: bool) -> List[int]:
    if len(input) != 4 or len(weight) != 4:
        raise AssertionError("deform_conv2d: input and weight must be 4-D")
    if input[1] != weight[1] * groups:
        raise AssertionError("deform_conv2d: input channels must equal weight channels * groups")
    out_h = (input[2] + 2 * pad_h - (dilation_h * (weight[2] - 1) + 1)) // stride_h + 1
    out_w = (input[3] + 2 * pad_w - (dilation_w * (weight[3] - 1) + 1)) // stride_w + 1
    if out_h <= 0 or out_w <= 0:
        raise AssertionError("deform_conv2d: the output would be empty")
    return [input[0], weight[0], out_h, out_w]


@dtype("torchvision.deform_conv2d", signature_check=False, invocations=[
    ref(Invocation(_X, _W, _OFFSET, _MASK, _BIAS, 1, 1, 0, 0, 1, 1, 1, 1, True),
        _deform_conv2d_reference),
    ref(Invocation(TensorOfShape(2, 4, 10, 12, dtype=torch.float64),
                   TensorOfShape(6, 4, 3, 3, dtype=torch.float64), _OFFSET, _MASK, _BIAS, 1, 1,
                   0, 0, 1, 1, 1, 1, True), _deform_conv2d_reference),
])
def torchvision〇deform_conv2d〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Tuple[int, int], offset_rank_dtype: Tuple[int, int], mask_rank_dtype: Tuple[int, int], bias_rank_dtype: Tuple[int, int], stride_h: int, stride_w: int, pad_h: int, pad_w: int, dilation_h: int, dilation_w: int, groups: int, offset_groups: int, use_mask: bool) -> int:
    return input_rank_dtype[1]
