"""Ops whose result sizes PyTorch computes from the tensor data: nonzero, masked_select,
unique, repeat_interleave by a tensor, one_hot without num_classes, bincount (and
nonzero_static, whose size the caller fixes).

Such a size is `unknown_dim()`: the refined dim is `?` and the other dims stay exact. A
size the data cannot change is still computed (nonzero's second dim is the rank; unique of
an empty tensor has no values). Each function is verified on fake tensors, where PyTorch
makes a data-dependent size an unbacked SymInt (`testing.DataDependentInvocation`); checks
that only the CPU kernels make (mask dtype, repeats rank) against them.

Not here: `unique_dim_consecutive`, which PyTorch cannot run on fake tensors either.
Boolean-mask `aten.index.Tensor` stays with indexing: its shape function cannot see the
index dtype and assumes integer indices.
"""

from typing import List, Optional, Tuple

import torch
import torch.jit._shape_functions as upstream

from ._helpers import broadcast_shapes, check_numel_fits, unknown_dim, unknown_dtype
from .elementwise import DTYPE_SWEEP
from .registry import dtype, shape
from .testing import (
    DataDependentInvocation,
    DataDependentKernelInvocation,
    ErrorInvocation,
    Invocation,
    KernelErrorInvocation,
    KernelInvocation,
    LongTensorOfShape,
    TensorOfShape,
    UnknownDtypeKernelInvocation,
)

# --- Family-private helpers (TorchScript) ----------------------------------------------------


def _numel(sizes: List[int]) -> int:
    count = 1
    for size in sizes:
        count *= size
    return count


def _selected_count(sizes: List[int]) -> int:
    """How many elements (distinct values, slices) the data selects: none of an empty tensor."""
    if _numel(sizes) == 0:
        return 0
    return unknown_dim()


def _flat_unique(
    self: List[int], return_inverse: bool, return_counts: bool
) -> Tuple[List[int], List[int], List[int]]:
    count = _selected_count(self)
    inverse = upstream._copy(self) if return_inverse else [0]
    counts = [count] if return_counts else [0]
    return [count], inverse, counts


def _unique_along(
    op: str, self: List[int], dim: int
) -> Tuple[List[int], List[int], List[int]]:
    """Unique slices along `dim`: the inverse and counts are always computed."""
    if len(self) == 0:  # maybe_wrap_dim accepts dims 0 and -1 of a zero-rank tensor
        raise AssertionError(op + ": Dimension specified as " + str(dim)
                             + " but tensor has no dimensions")
    dim = upstream.maybe_wrap_dim(dim, len(self))
    if self[dim] != 0 and _numel(self) == 0:
        raise AssertionError(
            f"{op}: there are 0 sized dimensions, and they aren't selected, "
            "so unique cannot be applied"
        )
    count = _selected_count(self)
    values = upstream._copy(self)
    values[dim] = count
    return values, [self[dim]], [count]


def _check_not_complex(op: str, dtype: int) -> None:
    if dtype == 8 or dtype == 9 or dtype == 10:  # complex32, complex64, complex128
        raise AssertionError(f"{op}: self must not be complex")


# --- nonzero, argwhere -----------------------------------------------------------------------

_NONZERO_CASES = [
    DataDependentInvocation(TensorOfShape(3, 4)),
    DataDependentInvocation(TensorOfShape()),
    DataDependentInvocation(TensorOfShape(5)),
    DataDependentInvocation(TensorOfShape(1, 1, 1, 1, 1, dtype=torch.bool)),
    DataDependentInvocation(TensorOfShape(2, 0, 3)),
]
_NONZERO_DTYPE_CASES = [DataDependentInvocation(TensorOfShape(3, 4, dtype=d)) for d in DTYPE_SWEEP]


@shape("aten.nonzero", "aten.argwhere", invocations=_NONZERO_CASES)
def aten〇nonzero〡shape(self: List[int]) -> List[int]:
    return [_selected_count(self), len(self)]


@dtype("aten.nonzero", "aten.argwhere", invocations=_NONZERO_DTYPE_CASES)
def aten〇nonzero〡dtype(self_rank_dtype: Tuple[int, int]) -> int:
    return 4  # int64


@shape("aten.nonzero_numpy", invocations=_NONZERO_CASES)
def aten〇nonzero_numpy〡shape(self: List[int]) -> List[List[int]]:
    # One index tensor per dim (one for a zero-dim tensor), all of the same unknown length.
    count = _selected_count(self)
    result: List[List[int]] = []
    for _ in range(max(len(self), 1)):
        result.append([count])
    return result


@dtype("aten.nonzero_numpy", invocations=[
    *_NONZERO_DTYPE_CASES,
    DataDependentInvocation(TensorOfShape(2, 3, 4)),
    DataDependentInvocation(TensorOfShape()),
])
def aten〇nonzero_numpy〡dtype(self_rank_dtype: Tuple[int, int]) -> List[int]:
    result: List[int] = []
    for _ in range(max(self_rank_dtype[0], 1)):
        result.append(4)  # int64
    return result


# --- masked_select ---------------------------------------------------------------------------


@shape("aten.masked_select", invocations=[
    DataDependentInvocation(TensorOfShape(3, 4), TensorOfShape(4, dtype=torch.bool)),
    DataDependentInvocation(TensorOfShape(3, 1), TensorOfShape(4, dtype=torch.bool)),
    DataDependentInvocation(TensorOfShape(), TensorOfShape(dtype=torch.bool)),
    DataDependentInvocation(TensorOfShape(0, 4), TensorOfShape(4, dtype=torch.bool)),
    KernelErrorInvocation(TensorOfShape(3, 4), TensorOfShape(3, dtype=torch.bool)),
])
def aten〇masked_select〡shape(self: List[int], mask: List[int]) -> List[int]:
    broadcast_shapes([self, mask])
    return [unknown_dim()]


@dtype("aten.masked_select", invocations=[
    DataDependentInvocation(TensorOfShape(3, 4, dtype=d), TensorOfShape(4, dtype=torch.bool))
    for d in DTYPE_SWEEP
] + [
    KernelErrorInvocation(TensorOfShape(3, 4), TensorOfShape(4)),
    KernelErrorInvocation(TensorOfShape(3, 4), TensorOfShape(4, dtype=torch.uint8)),
])
def aten〇masked_select〡dtype(self_rank_dtype: Tuple[int, int], mask_rank_dtype: Tuple[int, int]) -> int:
    if mask_rank_dtype[1] != 11:  # bool
        raise AssertionError("masked_select: expected BoolTensor for mask")
    return self_rank_dtype[1]


# --- unique ----------------------------------------------------------------------------------

_FLAGS = [(False, False), (True, False), (False, True), (True, True)]


@shape("aten._unique2", invocations=[
    DataDependentInvocation(TensorOfShape(3, 4), True, inverse, counts)
    for inverse, counts in _FLAGS
] + [
    DataDependentInvocation(TensorOfShape(), True, True, True),
    DataDependentInvocation(TensorOfShape(0, 3), True, True, True),
])
def aten〇_unique2〡shape(self: List[int], sorted: bool = True, return_inverse: bool = False, return_counts: bool = False) -> Tuple[List[int], List[int], List[int]]:
    return _flat_unique(self, return_inverse, return_counts)


@shape("aten._unique", invocations=[
    DataDependentInvocation(TensorOfShape(3, 4), True, False),
    DataDependentInvocation(TensorOfShape(3, 4), False, True),
    DataDependentInvocation(TensorOfShape(0), True, True),
])
def aten〇_unique〡shape(self: List[int], sorted: bool = True, return_inverse: bool = False) -> Tuple[List[int], List[int]]:
    values, inverse, _ = _flat_unique(self, return_inverse, False)
    return values, inverse


@shape("aten.unique_dim", invocations=[
    DataDependentInvocation(TensorOfShape(3, 4), 0, True, inverse, counts)
    for inverse, counts in _FLAGS
] + [
    DataDependentInvocation(TensorOfShape(3, 4), -1, True, False, False),
    DataDependentInvocation(TensorOfShape(0, 4), 0, True, True, True),
    ErrorInvocation(TensorOfShape(3, 4), 2),
    ErrorInvocation(TensorOfShape(), 0),
    ErrorInvocation(TensorOfShape(), -1),
    KernelErrorInvocation(TensorOfShape(0, 4), 1),
])
def aten〇unique_dim〡shape(self: List[int], dim: int, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False) -> Tuple[List[int], List[int], List[int]]:
    return _unique_along("unique_dim", self, dim)


@shape("aten.unique_consecutive", invocations=[
    DataDependentInvocation(TensorOfShape(3, 4), inverse, counts, None)
    for inverse, counts in _FLAGS
] + [
    DataDependentInvocation(TensorOfShape(3, 4), True, True, 1),
    DataDependentInvocation(TensorOfShape(3, 4), False, False, -2),
    DataDependentInvocation(TensorOfShape(), True, True, None),
    DataDependentInvocation(TensorOfShape(0, 2), True, True, None),
    DataDependentInvocation(TensorOfShape(0, 2), True, True, 0),
    ErrorInvocation(TensorOfShape(3, 4), True, True, 2),
    ErrorInvocation(TensorOfShape(), True, True, 0),
    ErrorInvocation(TensorOfShape(), False, False, -1),
])
def aten〇unique_consecutive〡shape(self: List[int], return_inverse: bool = False, return_counts: bool = False, dim: Optional[int] = None) -> Tuple[List[int], List[int], List[int]]:
    if dim is None:
        return _flat_unique(self, return_inverse, return_counts)
    return _unique_along("unique_consecutive", self, dim)


_UNIQUE_DTYPE_CASES = [
    DataDependentInvocation(TensorOfShape(3, 4, dtype=d)) for d in DTYPE_SWEEP if not d.is_complex
] + [KernelErrorInvocation(TensorOfShape(3, 4, dtype=torch.complex64))]


@dtype("aten._unique2", invocations=_UNIQUE_DTYPE_CASES)
def aten〇_unique2〡dtype(self_rank_dtype: Tuple[int, int], sorted: bool = True, return_inverse: bool = False, return_counts: bool = False) -> Tuple[int, int, int]:
    _check_not_complex("unique", self_rank_dtype[1])
    return self_rank_dtype[1], 4, 4  # inverse and counts: int64


@dtype("aten.unique_consecutive", invocations=_UNIQUE_DTYPE_CASES)
def aten〇unique_consecutive〡dtype(self_rank_dtype: Tuple[int, int], return_inverse: bool = False, return_counts: bool = False, dim: Optional[int] = None) -> Tuple[int, int, int]:
    _check_not_complex("unique_consecutive", self_rank_dtype[1])
    return self_rank_dtype[1], 4, 4  # inverse and counts: int64


@dtype("aten._unique", invocations=_UNIQUE_DTYPE_CASES)
def aten〇_unique〡dtype(self_rank_dtype: Tuple[int, int], sorted: bool = True, return_inverse: bool = False) -> Tuple[int, int]:
    _check_not_complex("unique", self_rank_dtype[1])
    return self_rank_dtype[1], 4  # inverse: int64


@dtype("aten.unique_dim", invocations=[
    DataDependentInvocation(TensorOfShape(3, 4, dtype=d), 0)
    for d in DTYPE_SWEEP if not d.is_complex
] + [KernelErrorInvocation(TensorOfShape(3, 4, dtype=torch.complex64), 0)])
def aten〇unique_dim〡dtype(self_rank_dtype: Tuple[int, int], dim: int, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False) -> Tuple[int, int, int]:
    _check_not_complex("unique_dim", self_rank_dtype[1])
    return self_rank_dtype[1], 4, 4  # inverse and counts: int64


# --- repeat_interleave by a tensor, one_hot --------------------------------------------------


@shape("aten.repeat_interleave.Tensor", invocations=[
    DataDependentInvocation(LongTensorOfShape(5)),
    DataDependentInvocation(LongTensorOfShape(0)),
    DataDependentInvocation(LongTensorOfShape(5), output_size=7),
    DataDependentInvocation(LongTensorOfShape(3), output_size=0),
    ErrorInvocation(LongTensorOfShape(3), output_size=-1),
    KernelErrorInvocation(LongTensorOfShape(2, 3)),
    KernelErrorInvocation(LongTensorOfShape()),
])
def aten〇repeat_interleave〇Tensor〡shape(repeats: List[int], output_size: Optional[int] = None) -> List[int]:
    if len(repeats) != 1:
        raise AssertionError("repeat_interleave: repeats must be a 1-D tensor")
    if output_size is None:
        return [unknown_dim()]
    if output_size < 0:
        raise AssertionError(
            f"repeat_interleave: output_size must be non-negative, got {output_size}"
        )
    return [output_size]


@dtype("aten.repeat_interleave.Tensor", invocations=[
    DataDependentInvocation(LongTensorOfShape(5)),
    DataDependentInvocation(TensorOfShape(5, dtype=torch.int32)),
    KernelErrorInvocation(TensorOfShape(5)),
    KernelErrorInvocation(TensorOfShape(5, dtype=torch.int16)),
])
def aten〇repeat_interleave〇Tensor〡dtype(repeats_rank_dtype: Tuple[int, int], output_size: Optional[int] = None) -> int:
    dtype = repeats_rank_dtype[1]
    if dtype != 3 and dtype != 4:  # int32, int64
        raise AssertionError("repeat_interleave: repeats must be an int32 or int64 tensor")
    return dtype


@shape("aten.one_hot", invocations=[
    DataDependentInvocation(LongTensorOfShape(3, 4), 5),
    DataDependentInvocation(LongTensorOfShape(), 2),
    DataDependentInvocation(LongTensorOfShape(3), 0),
    DataDependentInvocation(LongTensorOfShape(0), 0),
    DataDependentKernelInvocation(LongTensorOfShape(3, 4), -1),
    DataDependentKernelInvocation(LongTensorOfShape(), -1),
    ErrorInvocation(LongTensorOfShape(3), -2),
    KernelErrorInvocation(LongTensorOfShape(0), -1),
    ErrorInvocation(LongTensorOfShape(1), 2**62),  # int64 elements' bytes past int64
])
def aten〇one_hot〡shape(self: List[int], num_classes: int = -1) -> List[int]:
    if num_classes < -1:
        raise AssertionError(f"one_hot: num_classes must be -1 or non-negative, got {num_classes}")
    if num_classes != -1:
        check_numel_fits("one_hot", self + [num_classes], 8)  # int64 elements
        return self + [num_classes]
    if _numel(self) == 0:
        raise AssertionError("one_hot: can not infer the number of classes from an empty tensor")
    return self + [unknown_dim()]


@dtype("aten.one_hot", invocations=[
    DataDependentInvocation(LongTensorOfShape(3, 4), 5),
    DataDependentKernelInvocation(LongTensorOfShape(3), -1),
    ErrorInvocation(TensorOfShape(3), 5),
    ErrorInvocation(TensorOfShape(3, dtype=torch.int32), 5),
])
def aten〇one_hot〡dtype(self_rank_dtype: Tuple[int, int], num_classes: int = -1) -> int:
    if self_rank_dtype[1] != 4:  # int64
        raise AssertionError("one_hot: self must be an int64 (LongTensor) index tensor")
    return 4  # int64


# --- bincount, nonzero_static ----------------------------------------------------------------


@shape("aten.bincount", invocations=[
    DataDependentInvocation(LongTensorOfShape(5)),
    DataDependentInvocation(LongTensorOfShape(5), TensorOfShape(5), 7),
    KernelInvocation(LongTensorOfShape(0), None, 7),
    KernelInvocation(LongTensorOfShape(0)),
    KernelInvocation(LongTensorOfShape(0), TensorOfShape(), 3),
    KernelInvocation(LongTensorOfShape(0), TensorOfShape(2, 3)),
    KernelErrorInvocation(LongTensorOfShape(5), None, -1),
    KernelErrorInvocation(LongTensorOfShape(2, 3)),
    KernelErrorInvocation(LongTensorOfShape()),
    KernelErrorInvocation(LongTensorOfShape(5), TensorOfShape(4)),
    KernelErrorInvocation(LongTensorOfShape(5), TensorOfShape(5, 1)),
])
def aten〇bincount〡shape(self: List[int], weights: Optional[List[int]] = None, minlength: int = 0) -> List[int]:
    # max(self) + 1 bins, at least minlength: only an empty input fixes the count.
    if minlength < 0:
        raise AssertionError("bincount: minlength should be >= 0")
    if len(self) != 1:
        raise AssertionError("bincount: only supports 1-d non-negative integral inputs")
    if self[0] == 0:  # counts nothing, before the weights are looked at
        return [minlength]
    if weights is not None and (len(weights) != 1 or weights[0] != self[0]):
        raise AssertionError("bincount: weights should be 1-d and have the same length as input")
    return [unknown_dim()]


@dtype("aten.bincount", invocations=[
    DataDependentInvocation(TensorOfShape(5, dtype=d)) for d in (torch.int64, torch.int32, torch.uint8)
] + [
    UnknownDtypeKernelInvocation(LongTensorOfShape(5), TensorOfShape(5, dtype=d)) for d in DTYPE_SWEEP
] + [
    KernelErrorInvocation(TensorOfShape(5, dtype=d)) for d in (torch.float32, torch.bool)
] + [
    # An empty input counts nothing: int64, whatever the weights.
    UnknownDtypeKernelInvocation(LongTensorOfShape(0), TensorOfShape(0, dtype=torch.float32)),
])
def aten〇bincount〡dtype(self_rank_dtype: Tuple[int, int], weights_rank_dtype: Optional[Tuple[int, int]] = None, minlength: int = 0) -> int:
    self_dtype = self_rank_dtype[1]
    if not (self_dtype >= 0 and self_dtype <= 4):  # integral, bool excluded
        raise AssertionError("bincount: only supports 1-d non-negative integral inputs")
    if weights_rank_dtype is None:
        return 4  # int64 counts
    # float32 weights sum in float32, any other weights in float64; but an empty input
    # gives int64 counts whatever the weights, and emptiness is a size.
    return unknown_dtype()


@shape("aten.nonzero_static", invocations=[
    Invocation(TensorOfShape(3, 4), size=4),
    Invocation(TensorOfShape(), size=4),
    Invocation(TensorOfShape(0, 3), size=2, fill_value=7),
    Invocation(TensorOfShape(5), size=0),
    KernelErrorInvocation(TensorOfShape(3, 4), size=-1),
    ErrorInvocation(TensorOfShape(3, 4), size=2**62),
])
def aten〇nonzero_static〡shape(self: List[int], size: int, fill_value: int = -1) -> List[int]:
    if size < 0:
        raise AssertionError("nonzero_static: 'size' must be a non-negative integer")
    check_numel_fits("nonzero_static", [size, len(self)], 8)  # int64 indices
    return [size, len(self)]


@dtype("aten.nonzero_static", invocations=[
    Invocation(TensorOfShape(3, dtype=d), size=2) for d in DTYPE_SWEEP
])
def aten〇nonzero_static〡dtype(self_rank_dtype: Tuple[int, int], size: int, fill_value: int = -1) -> int:
    return 4  # int64
