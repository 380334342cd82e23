"""Indexing, gathers and scatters: the result takes its sizes from `self` or the index, and
`self`'s dtype.

Checks follow what PyTorch enforces on meta tensors. Some CPU-only checks (index_put's
value shape, select_scatter's src shape) are left to run time: meta kernels accept those
programs, so a compile-time error would reject what PyTorch traces.

Not here: `nonzero` and boolean-mask indexing, whose result sizes depend on the data (the
meta kernels raise for them too).
"""

import itertools
from typing import List, Optional, Tuple, Union

import torch
import torch.jit._shape_functions as upstream

from ._helpers import broadcast_shapes
from .elementwise import DTYPE_SWEEP
from .registry import dtype, shape
from .testing import (
    ErrorInvocation,
    Invocation,
    KernelErrorInvocation,
    KernelInvocation,
    LongTensorOfShape,
    TensorOfShape,
)
from .views import keep_self_dtype

# A smaller sweep for pairs of dtypes that must agree.
_PAIR_SWEEP = (torch.int32, torch.float32, torch.float64, torch.bool)

# --- Family-private helpers (TorchScript) ----------------------------------------------------


def _nonempty_size(sizes: List[int], dim: int) -> int:
    """The size of `dim`, a zero-rank tensor counting as one element of rank 1."""
    if len(sizes) == 0:
        return 1
    if dim >= len(sizes):
        raise AssertionError("Dimension out of range")
    return sizes[dim]


def _check_index_shape(op: str, self: List[int], dim: int, index: List[int],
                       src: Optional[List[int]]) -> int:
    """gather/scatter's index checks; returns the wrapped dim. An empty index is not checked."""
    dim = upstream.maybe_wrap_dim(dim, len(self))
    if upstream.numel(index) == 0:
        return dim
    rank = max(len(self), 1)
    if rank != max(len(index), 1):
        raise AssertionError(op + ": index tensor must have the same number of dimensions "
                             "as self tensor")
    for d in range(rank):
        if d != dim and _nonempty_size(index, d) > _nonempty_size(self, d):
            raise AssertionError(op + ": index must be no larger than self apart from dim")
    if src is not None:
        if max(len(src), 1) != rank:
            raise AssertionError(op + ": index tensor must have the same number of dimensions "
                                 "as src tensor")
        for d in range(rank):
            if _nonempty_size(index, d) > _nonempty_size(src, d):
                raise AssertionError(op + ": index must be no larger than src")
    return dim


def _check_scatter_index_dtype(op: str, index_dtype: int) -> None:
    """PyTorch skips this check for an empty index; a dtype function cannot see that, so
    an empty float index is refused too."""
    if index_dtype != 4 and index_dtype != 3:  # int64, int32
        raise AssertionError(op + ": expected dtype int32/int64 for index")


def _check_same_dtype(op: str, self_dtype: int, src_dtype: int) -> None:
    if self_dtype != src_dtype:
        raise AssertionError(op + ": expected self.dtype to be equal to src.dtype")


def _advanced_index(self: List[int], indices: List[Optional[List[int]]]) -> List[int]:
    """Integer advanced indexing: the broadcast index shape replaces the indexed dims, in
    place when they are adjacent, else in front."""
    if len(indices) == 0:
        raise AssertionError("index: at least one index must be provided")
    if len(indices) > len(self):
        raise AssertionError("index: too many indices for tensor of dimension "
                             + str(len(self)))
    index_shapes: List[List[int]] = []
    first = -1
    last = -1
    for i in range(len(indices)):
        index = indices[i]
        if index is not None:
            index_shapes.append(index)
            if first == -1:
                first = i
            last = i
    if first == -1:
        return upstream._copy(self)
    broadcast = broadcast_shapes(index_shapes)
    adjacent = len(index_shapes) == last - first + 1
    out: List[int] = []
    if adjacent:
        for i in range(first):
            out.append(self[i])
    for s in broadcast:
        out.append(s)
    for i in range(len(self)):
        indexed = i < len(indices) and indices[i] is not None
        if indexed or (adjacent and i < first):
            continue
        out.append(self[i])
    return out


def _check_index_dtypes(indices: List[Optional[Tuple[int, int]]]) -> None:
    for index in indices:
        if index is not None:
            code = index[1]
            if code != 4 and code != 3 and code != 0 and code != 11:  # i64, i32, u8, bool
                raise AssertionError("index: tensors used as indices must be long, int, "
                                     "byte or bool tensors")


# --- Gathers ---------------------------------------------------------------------------------


@shape("aten.gather", invocations=[
    Invocation(TensorOfShape(3, 4), 1, LongTensorOfShape(3, 2)),
    Invocation(TensorOfShape(3, 4), -1, LongTensorOfShape(2, 7)),
    Invocation(TensorOfShape(3, 4), 0, LongTensorOfShape(5, 4)),
    Invocation(TensorOfShape(3, 4), 1, LongTensorOfShape(5, 0)),
    Invocation(TensorOfShape(), 0, LongTensorOfShape()),
    Invocation(TensorOfShape(), 0, LongTensorOfShape(1)),
    Invocation(TensorOfShape(3), 0, LongTensorOfShape()),
    ErrorInvocation(TensorOfShape(3, 4), 1, LongTensorOfShape(4, 2)),
    ErrorInvocation(TensorOfShape(3, 4), 1, LongTensorOfShape(3)),
    ErrorInvocation(TensorOfShape(3, 4), 2, LongTensorOfShape(3, 2)),
])
def aten〇gather〡shape(self: List[int], dim: int, index: List[int], sparse_grad: bool = False) -> List[int]:
    _check_index_shape("gather", self, dim, index, None)
    return upstream._copy(index)


@shape("aten.index_select", invocations=[
    Invocation(TensorOfShape(3, 4), 1, LongTensorOfShape(2)),
    Invocation(TensorOfShape(3, 4), -2, LongTensorOfShape(5)),
    Invocation(TensorOfShape(3, 4), 1, LongTensorOfShape()),
    Invocation(TensorOfShape(3, 4), 0, LongTensorOfShape(0)),
    Invocation(TensorOfShape(), 0, LongTensorOfShape(1)),
    Invocation(TensorOfShape(3, 4), 1, TensorOfShape(2, dtype=torch.int32)),
    ErrorInvocation(TensorOfShape(3, 4), 2, LongTensorOfShape(2)),
])
def aten〇index_select〡shape(self: List[int], dim: int, index: List[int]) -> List[int]:
    return upstream.index_select(self, dim, index)


_INDEX_CASES = [
    Invocation(TensorOfShape(3, 4), [LongTensorOfShape(2)]),
    Invocation(TensorOfShape(3, 4, 5), [None, LongTensorOfShape(2, 1), LongTensorOfShape(3)]),
    Invocation(TensorOfShape(3, 4, 5), [LongTensorOfShape(2), None, LongTensorOfShape(2)]),
    Invocation(TensorOfShape(3, 4, 5), [None, None, LongTensorOfShape(6)]),
    Invocation(TensorOfShape(3, 4, 5), [None, LongTensorOfShape(2, 2)]),
    Invocation(TensorOfShape(3, 4), [None]),
    Invocation(TensorOfShape(3, 4), [LongTensorOfShape()]),
    Invocation(TensorOfShape(3, 4), [TensorOfShape(2, dtype=torch.int32)]),
    Invocation(TensorOfShape(0, 4), [LongTensorOfShape(2)]),
    ErrorInvocation(TensorOfShape(3, 4), []),
    ErrorInvocation(TensorOfShape(3, 4, 5), [LongTensorOfShape(2), LongTensorOfShape(3)]),
    ErrorInvocation(TensorOfShape(), [LongTensorOfShape(2)]),
    ErrorInvocation(TensorOfShape(3), [None, LongTensorOfShape(2)]),
]

# Boolean mask indices are left out: their result size depends on the data.
_INDEX_DTYPE_CASES = [
    Invocation(TensorOfShape(3, 4, dtype=d), [LongTensorOfShape(2)]) for d in DTYPE_SWEEP
] + [
    Invocation(TensorOfShape(3, 4), [None, TensorOfShape(2, dtype=torch.int32)]),
    ErrorInvocation(TensorOfShape(3, 4), [TensorOfShape(2)]),
    ErrorInvocation(TensorOfShape(3, 4), [None, TensorOfShape(2, dtype=torch.int16)]),
]


@shape("aten.index.Tensor", invocations=_INDEX_CASES)
def aten〇index〇Tensor〡shape(self: List[int], indices: List[Optional[List[int]]]) -> List[int]:
    # Assumes integer indices; a boolean mask index has a data-dependent result.
    return _advanced_index(self, indices)


@dtype("aten.index.Tensor", invocations=_INDEX_DTYPE_CASES)
def aten〇index〇Tensor〡dtype(self_rank_dtype: Tuple[int, int], indices_rank_dtype: List[Optional[Tuple[int, int]]]) -> int:
    _check_index_dtypes(indices_rank_dtype)
    return self_rank_dtype[1]


def _without_none(cases):
    """The cases whose index lists hold no None (for Tensor[] overloads)."""
    return [c for c in cases if None not in c.args[1]]


@shape("aten.index.Tensor_hacked_twin", invocations=_without_none(_INDEX_CASES))
def aten〇index〇Tensor_hacked_twin〡shape(self: List[int], indices: List[List[int]]) -> List[int]:
    optional_indices: List[Optional[List[int]]] = []
    for index in indices:
        optional_indices.append(index)
    return _advanced_index(self, optional_indices)


@dtype("aten.index.Tensor_hacked_twin", invocations=_without_none(_INDEX_DTYPE_CASES))
def aten〇index〇Tensor_hacked_twin〡dtype(self_rank_dtype: Tuple[int, int], indices_rank_dtype: List[Tuple[int, int]]) -> int:
    optional_indices: List[Optional[Tuple[int, int]]] = []
    for index in indices_rank_dtype:
        optional_indices.append(index)
    _check_index_dtypes(optional_indices)
    return self_rank_dtype[1]


# --- Scatters --------------------------------------------------------------------------------

_INDEX_PUT_CASES = [
    Invocation(TensorOfShape(5, 4), [LongTensorOfShape(3)], TensorOfShape(4)),
    Invocation(TensorOfShape(5, 4), [None, LongTensorOfShape(3)], TensorOfShape(5, 3), True),
    Invocation(TensorOfShape(5, 4), [LongTensorOfShape(2), LongTensorOfShape(2)], TensorOfShape()),
    Invocation(TensorOfShape(0, 4), [LongTensorOfShape(0)], TensorOfShape(4)),
]


@shape("aten.index_put", "aten.index_put_", invocations=_INDEX_PUT_CASES)
def aten〇index_put〡shape(self: List[int], indices: List[Optional[List[int]]], values: List[int], accumulate: bool = False) -> List[int]:
    return upstream._copy(self)


@dtype("aten.index_put", "aten.index_put_", invocations=[
    Invocation(TensorOfShape(5, 4, dtype=d), [LongTensorOfShape(3)], TensorOfShape(4, dtype=d))
    for d in DTYPE_SWEEP
])
def aten〇index_put〡dtype(self_rank_dtype: Tuple[int, int], indices_rank_dtype: List[Optional[Tuple[int, int]]], values_rank_dtype: Tuple[int, int], accumulate: bool = False) -> int:
    return self_rank_dtype[1]


_SCATTER_SRC_CASES = [
    Invocation(TensorOfShape(3, 4), 1, LongTensorOfShape(3, 2), TensorOfShape(3, 3)),
    Invocation(TensorOfShape(3, 4), 1, LongTensorOfShape(3, 6), TensorOfShape(3, 6)),
    Invocation(TensorOfShape(3, 4), -2, LongTensorOfShape(5, 4), TensorOfShape(5, 4)),
    Invocation(TensorOfShape(3, 4), 0, LongTensorOfShape(0, 7), TensorOfShape(1, 1)),
    Invocation(TensorOfShape(), 0, LongTensorOfShape(), TensorOfShape()),
    Invocation(TensorOfShape(), 0, LongTensorOfShape(), TensorOfShape(2)),
    ErrorInvocation(TensorOfShape(), 0, LongTensorOfShape(), TensorOfShape(2, 1)),
    ErrorInvocation(TensorOfShape(3, 4), 1, LongTensorOfShape(3, 2), TensorOfShape(3, 1)),
    ErrorInvocation(TensorOfShape(3, 4), 1, LongTensorOfShape(4, 2), TensorOfShape(5, 5)),
    ErrorInvocation(TensorOfShape(3, 4), 1, LongTensorOfShape(3), TensorOfShape(3, 3)),
    ErrorInvocation(TensorOfShape(3, 4), 2, LongTensorOfShape(3, 2), TensorOfShape(3, 3)),
]


def _scatter_dtype_cases(*extra):
    return [
        Invocation(TensorOfShape(3, 4, dtype=a), 1, LongTensorOfShape(3, 2),
                   TensorOfShape(3, 3, dtype=b), *extra)
        for a, b in itertools.product(_PAIR_SWEEP, _PAIR_SWEEP)
    ] + [Invocation(TensorOfShape(3, 4, dtype=d), 1, LongTensorOfShape(3, 2),
                    TensorOfShape(3, 3, dtype=d), *extra) for d in DTYPE_SWEEP]


@shape("aten.scatter.src", "aten.scatter_add", invocations=_SCATTER_SRC_CASES)
def aten〇scatter〇src〡shape(self: List[int], dim: int, index: List[int], src: List[int]) -> List[int]:
    _check_index_shape("scatter", self, dim, index, src)
    return upstream._copy(self)


@dtype("aten.scatter.src", "aten.scatter_add", invocations=_scatter_dtype_cases()
    + [ErrorInvocation(
        TensorOfShape(3, 4, dtype=torch.int32),
        1,
        TensorOfShape(3, 2, dtype=torch.int64),
        TensorOfShape(3, 3),
    ), ErrorInvocation(TensorOfShape(3, 4), 1, TensorOfShape(3, 2), TensorOfShape(3, 3)),
        Invocation(TensorOfShape(3, 4), 1, TensorOfShape(3, 2, dtype=torch.int32),
                   TensorOfShape(3, 3))])
def aten〇scatter〇src〡dtype(self_rank_dtype: Tuple[int, int], dim: int, index_rank_dtype: Tuple[int, int], src_rank_dtype: Tuple[int, int]) -> int:
    _check_scatter_index_dtype("scatter", index_rank_dtype[1])
    _check_same_dtype("scatter", self_rank_dtype[1], src_rank_dtype[1])
    return self_rank_dtype[1]


@shape("aten.scatter.value", invocations=[
    Invocation(TensorOfShape(3, 4), 1, LongTensorOfShape(3, 2), 1.5),
    Invocation(TensorOfShape(3, 4), 1, LongTensorOfShape(3, 7), 1.5),
    Invocation(TensorOfShape(), 0, LongTensorOfShape(1), 2.0),
    ErrorInvocation(TensorOfShape(3, 4), 1, LongTensorOfShape(4, 2), 1.5),
    ErrorInvocation(TensorOfShape(3, 4), 1, LongTensorOfShape(2), 1.5),
])
def aten〇scatter〇value〡shape(self: List[int], dim: int, index: List[int], value: float) -> List[int]:
    _check_index_shape("scatter", self, dim, index, None)
    return upstream._copy(self)


@dtype("aten.scatter.value", invocations=[
    Invocation(TensorOfShape(3, 4, dtype=d), 1, LongTensorOfShape(3, 2), v)
    for d in DTYPE_SWEEP for v in (2, 2.5, True)
] + [
    ErrorInvocation(TensorOfShape(3, 4), 1, TensorOfShape(3, 2), 1.5),
    ErrorInvocation(TensorOfShape(3, 4), 1, TensorOfShape(3, 2, dtype=torch.uint8), 1.5),
    Invocation(TensorOfShape(3, 4), 1, TensorOfShape(3, 2, dtype=torch.int32), 1.5),
])
def aten〇scatter〇value〡dtype(self_rank_dtype: Tuple[int, int], dim: int, index_rank_dtype: Tuple[int, int], value: Union[int, float, complex]) -> int:
    _check_scatter_index_dtype("scatter", index_rank_dtype[1])
    return self_rank_dtype[1]


_REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")


@shape("aten.scatter_reduce.two", invocations=[
    Invocation(*case.args, reduce, **case.kwargs)
    for case in _SCATTER_SRC_CASES if not case.expects_error for reduce in _REDUCTIONS
] + [
    Invocation(TensorOfShape(3, 4), 1, LongTensorOfShape(3, 2), TensorOfShape(3, 3), "mean",
               include_self=False),
    ErrorInvocation(TensorOfShape(3, 4), 1, LongTensorOfShape(3, 2), TensorOfShape(3, 3), "max"),
    ErrorInvocation(TensorOfShape(3, 4), 1, LongTensorOfShape(3, 2), TensorOfShape(3, 1), "sum"),
])
def aten〇scatter_reduce〇two〡shape(self: List[int], dim: int, index: List[int], src: List[int], reduce: str, include_self: bool = True) -> List[int]:
    if reduce not in ["sum", "prod", "mean", "amax", "amin"]:
        raise AssertionError("scatter_reduce: reduce argument must be either sum, prod, "
                             "mean, amax or amin")
    _check_index_shape("scatter_reduce", self, dim, index, src)
    return upstream._copy(self)


@dtype("aten.scatter_reduce.two", invocations=_scatter_dtype_cases("sum")
       + _scatter_dtype_cases("mean")
    + [ErrorInvocation(
        TensorOfShape(3, 4, dtype=torch.int32),
        1,
        TensorOfShape(3, 2, dtype=torch.int64),
        TensorOfShape(3, 3),
        'sum',
    ), ErrorInvocation(TensorOfShape(3, 4), 1, TensorOfShape(3, 2), TensorOfShape(3, 3), "sum"),
        ErrorInvocation(TensorOfShape(3, 4), 1, TensorOfShape(3, 2, dtype=torch.bool),
                        TensorOfShape(3, 3), "amax")])
def aten〇scatter_reduce〇two〡dtype(self_rank_dtype: Tuple[int, int], dim: int, index_rank_dtype: Tuple[int, int], src_rank_dtype: Tuple[int, int], reduce: str, include_self: bool = True) -> int:
    _check_scatter_index_dtype("scatter_reduce", index_rank_dtype[1])
    _check_same_dtype("scatter_reduce", self_rank_dtype[1], src_rank_dtype[1])
    return self_rank_dtype[1]


@shape("aten.select_scatter", invocations=[
    Invocation(TensorOfShape(3, 4), TensorOfShape(4), 0, 1),
    Invocation(TensorOfShape(3, 4), TensorOfShape(3), -1, -1),
])
def aten〇select_scatter〡shape(self: List[int], src: List[int], dim: int, index: int) -> List[int]:
    return upstream._copy(self)


@dtype("aten.select_scatter", invocations=[
    Invocation(TensorOfShape(3, 4, dtype=d), TensorOfShape(4, dtype=d), 0, 1) for d in DTYPE_SWEEP
])
def aten〇select_scatter〡dtype(self_rank_dtype: Tuple[int, int], src_rank_dtype: Tuple[int, int], dim: int, index: int) -> int:
    return self_rank_dtype[1]


@shape("aten.slice_scatter", invocations=[
    Invocation(TensorOfShape(8, 4), TensorOfShape(2, 4), 0, 2, 4),
    Invocation(TensorOfShape(8, 4), TensorOfShape(8, 2), 1, None, None, 2),
    Invocation(TensorOfShape(8, 4), TensorOfShape(8, 4)),
])
def aten〇slice_scatter〡shape(self: List[int], src: List[int], dim: int = 0, start: Optional[int] = None, end: Optional[int] = None, step: int = 1) -> List[int]:
    return upstream._copy(self)


@dtype("aten.slice_scatter", invocations=[
    Invocation(TensorOfShape(8, 4, dtype=d), TensorOfShape(2, 4, dtype=d), 0, 2, 4)
    for d in DTYPE_SWEEP
])
def aten〇slice_scatter〡dtype(self_rank_dtype: Tuple[int, int], src_rank_dtype: Tuple[int, int], dim: int = 0, start: Optional[int] = None, end: Optional[int] = None, step: int = 1) -> int:
    return self_rank_dtype[1]


# --- Masked fills and scatters ---------------------------------------------------------------

_BOOL = torch.bool


@shape("aten.masked_scatter", invocations=[
    Invocation(TensorOfShape(3, 4), TensorOfShape(4, dtype=_BOOL), TensorOfShape(12)),
    Invocation(TensorOfShape(4), TensorOfShape(3, 4, dtype=_BOOL), TensorOfShape(2, 6)),
    Invocation(TensorOfShape(), TensorOfShape(dtype=_BOOL), TensorOfShape(1)),
    ErrorInvocation(TensorOfShape(3, 4), TensorOfShape(3, dtype=_BOOL), TensorOfShape(12)),
])
def aten〇masked_scatter〡shape(self: List[int], mask: List[int], source: List[int]) -> List[int]:
    return upstream.broadcast(self, mask)


@dtype("aten.masked_scatter", invocations=[
    Invocation(TensorOfShape(3, 4, dtype=a), TensorOfShape(4, dtype=_BOOL),
               TensorOfShape(12, dtype=b))
    for a, b in itertools.product(_PAIR_SWEEP, _PAIR_SWEEP)
] + [
    Invocation(TensorOfShape(3, 4, dtype=d), TensorOfShape(4, dtype=_BOOL),
               TensorOfShape(12, dtype=d)) for d in DTYPE_SWEEP
]
    + [ErrorInvocation(
        TensorOfShape(3, 4, dtype=torch.int32),
        TensorOfShape(4, dtype=torch.bool),
        TensorOfShape(12),
    ),
       # The meta kernel takes a uint8 mask too (the CPU kernel only bool).
       Invocation(TensorOfShape(3, 4), TensorOfShape(4, dtype=torch.uint8), TensorOfShape(12)),
       ErrorInvocation(TensorOfShape(3, 4), TensorOfShape(4, dtype=torch.bfloat16),
                       TensorOfShape(12)),
       ErrorInvocation(TensorOfShape(3, 4), TensorOfShape(4, dtype=torch.int64),
                       TensorOfShape(12))])
def aten〇masked_scatter〡dtype(self_rank_dtype: Tuple[int, int], mask_rank_dtype: Tuple[int, int], source_rank_dtype: Tuple[int, int]) -> int:
    _check_same_dtype("masked_scatter", self_rank_dtype[1], source_rank_dtype[1])
    if mask_rank_dtype[1] != 11 and mask_rank_dtype[1] != 0:  # bool, uint8
        raise AssertionError("masked_scatter: Mask must be bool or uint8")
    return self_rank_dtype[1]


def _check_mask_dtype(mask_dtype: int) -> None:
    if mask_dtype != 11:  # bool
        raise AssertionError("masked_fill: expected the mask to be bool")


def _check_fill_value(self_dtype: int, value_dtype: int) -> None:
    """A complex value does not fit a real tensor."""
    value_complex = value_dtype == 8 or value_dtype == 9 or value_dtype == 10
    self_complex = self_dtype == 8 or self_dtype == 9 or self_dtype == 10
    if value_complex and not self_complex:
        raise AssertionError("masked_fill: cannot fill a real tensor with a complex value")


_MASKED_FILL_SHAPE_CASES = [
    Invocation(TensorOfShape(3, 4), TensorOfShape(4, dtype=_BOOL), 1.5),
    Invocation(TensorOfShape(4), TensorOfShape(3, 4, dtype=_BOOL), 1.5),
    Invocation(TensorOfShape(), TensorOfShape(dtype=_BOOL), 1.5),
    Invocation(TensorOfShape(0, 4), TensorOfShape(1, 4, dtype=_BOOL), 1.5),
    ErrorInvocation(TensorOfShape(3, 4), TensorOfShape(3, dtype=_BOOL), 1.5),
]


@shape("aten.masked_fill.Scalar", invocations=_MASKED_FILL_SHAPE_CASES)
def aten〇masked_fill〇Scalar〡shape(self: List[int], mask: List[int], value: float) -> List[int]:
    return upstream.broadcast(self, mask)


_MASKED_FILL_DTYPE_CASES = [
    Invocation(TensorOfShape(3, 4, dtype=d), TensorOfShape(4, dtype=_BOOL), v)
    for d in DTYPE_SWEEP for v in (2, 2.5, True, 1j)
] + [
    ErrorInvocation(TensorOfShape(3, 4), TensorOfShape(4, dtype=torch.uint8), 2.5),
]


@dtype("aten.masked_fill.Scalar", invocations=_MASKED_FILL_DTYPE_CASES)
def aten〇masked_fill〇Scalar〡dtype(self_rank_dtype: Tuple[int, int], mask_rank_dtype: Tuple[int, int], value: Union[int, float, complex]) -> int:
    _check_mask_dtype(mask_rank_dtype[1])
    _check_fill_value(self_rank_dtype[1], torch.ops.prim.NumToTensor(value).dtype)
    return self_rank_dtype[1]


@shape("aten.masked_fill_.Scalar", invocations=[
    Invocation(TensorOfShape(3, 4), TensorOfShape(4, dtype=_BOOL), 1.5),
    Invocation(TensorOfShape(), TensorOfShape(dtype=_BOOL), 1.5),
    ErrorInvocation(TensorOfShape(4), TensorOfShape(3, 4, dtype=_BOOL), 1.5),
])
def aten〇masked_fill_〇Scalar〡shape(self: List[int], mask: List[int], value: float) -> List[int]:
    return upstream.broadcast_inplace(self, mask)


@shape("aten.masked_fill.Tensor", invocations=[
    Invocation(TensorOfShape(3, 4), TensorOfShape(4, dtype=_BOOL), TensorOfShape()),
    Invocation(TensorOfShape(4), TensorOfShape(3, 4, dtype=_BOOL), TensorOfShape()),
    ErrorInvocation(TensorOfShape(3, 4), TensorOfShape(4, dtype=_BOOL), TensorOfShape(1)),
    ErrorInvocation(TensorOfShape(3, 4), TensorOfShape(3, dtype=_BOOL), TensorOfShape()),
])
def aten〇masked_fill〇Tensor〡shape(self: List[int], mask: List[int], value: List[int]) -> List[int]:
    if len(value) != 0:
        raise AssertionError("masked_fill: only supports a 0-dimensional value tensor")
    return upstream.broadcast(self, mask)


@dtype("aten.masked_fill.Tensor", invocations=[
    Invocation(TensorOfShape(3, 4, dtype=a), TensorOfShape(4, dtype=_BOOL), TensorOfShape(dtype=b))
    for a, b in itertools.product(DTYPE_SWEEP, DTYPE_SWEEP)
] + [
    ErrorInvocation(TensorOfShape(3, 4), TensorOfShape(4, dtype=torch.uint8), TensorOfShape()),
])
def aten〇masked_fill〇Tensor〡dtype(self_rank_dtype: Tuple[int, int], mask_rank_dtype: Tuple[int, int], value_rank_dtype: Tuple[int, int]) -> int:
    _check_mask_dtype(mask_rank_dtype[1])
    _check_fill_value(self_rank_dtype[1], value_rank_dtype[1])
    return self_rank_dtype[1]


# --- Triangles -------------------------------------------------------------------------------


@shape("aten.tril", "aten.triu", invocations=[
    Invocation(TensorOfShape(3, 4)),
    Invocation(TensorOfShape(2, 3, 4), 1),
    Invocation(TensorOfShape(3, 4), -5),
    Invocation(TensorOfShape(0, 4)),
    ErrorInvocation(TensorOfShape(3)),
    ErrorInvocation(TensorOfShape()),
])
def aten〇tril〡shape(self: List[int], diagonal: int = 0) -> List[int]:
    if len(self) < 2:
        raise AssertionError("tril/triu: input tensor must have at least 2 dimensions")
    return upstream._copy(self)


# The in-place meta kernel checks neither the mask's nor the value's dtype.
keep_self_dtype(
    globals(),
    "aten.masked_fill_.Scalar", "aten.gather", "aten.index_select", "aten.tril", "aten.triu",
)


# --- More index_put overloads ----------------------------------------------------------------
# The meta kernels check nothing; every real kernel checks the index dtypes and wants
# `values` in `self`'s dtype, so those checks are verified on CPU (all-one indices).


def _index_put_dtype(self_dtype: int, indices: List[Optional[Tuple[int, int]]], values_dtype: int) -> int:
    _check_index_dtypes(indices)
    if values_dtype != self_dtype:
        raise AssertionError("index_put: requires the source and destination dtypes match")
    return self_dtype


def _optional_indices(indices: List[Tuple[int, int]]) -> List[Optional[Tuple[int, int]]]:
    optional_indices: List[Optional[Tuple[int, int]]] = []
    for index in indices:
        optional_indices.append(index)
    return optional_indices


_INDEX_PUT_DTYPE_CASES = [
    Invocation(TensorOfShape(5, 4, dtype=d), [LongTensorOfShape(3)], TensorOfShape(4, dtype=d))
    for d in DTYPE_SWEEP
] + [
    KernelInvocation(TensorOfShape(5, 4), [TensorOfShape(3, dtype=torch.int32)], TensorOfShape(4)),
    KernelErrorInvocation(TensorOfShape(5, 4), [LongTensorOfShape(3)],
                          TensorOfShape(4, dtype=torch.float64)),
    KernelErrorInvocation(TensorOfShape(5, 4, dtype=torch.int32), [LongTensorOfShape(3)],
                          TensorOfShape(4, dtype=torch.int64)),
    KernelErrorInvocation(TensorOfShape(5, 4), [TensorOfShape(3)], TensorOfShape(4)),
]


@shape("aten._index_put_impl", invocations=[
    Invocation(*case.args[:3], *extra) for case in _INDEX_PUT_CASES
    for extra in ((), (True, False), (False, True))
])
def aten〇_index_put_impl〡shape(self: List[int], indices: List[Optional[List[int]]], values: List[int], accumulate: bool = False, unsafe: bool = False) -> List[int]:
    return upstream._copy(self)


@dtype("aten._index_put_impl", invocations=_INDEX_PUT_DTYPE_CASES)
def aten〇_index_put_impl〡dtype(self_rank_dtype: Tuple[int, int], indices_rank_dtype: List[Optional[Tuple[int, int]]], values_rank_dtype: Tuple[int, int], accumulate: bool = False, unsafe: bool = False) -> int:
    return _index_put_dtype(self_rank_dtype[1], indices_rank_dtype, values_rank_dtype[1])


@shape("aten.index_put.hacked_twin", "aten._unsafe_index_put.hacked_twin",
       invocations=_without_none(_INDEX_PUT_CASES))
def aten〇index_put〇hacked_twin〡shape(self: List[int], indices: List[List[int]], values: List[int], accumulate: bool = False) -> List[int]:
    return upstream._copy(self)


@dtype("aten.index_put.hacked_twin", "aten._unsafe_index_put.hacked_twin",
       invocations=_INDEX_PUT_DTYPE_CASES)
def aten〇index_put〇hacked_twin〡dtype(self_rank_dtype: Tuple[int, int], indices_rank_dtype: List[Tuple[int, int]], values_rank_dtype: Tuple[int, int], accumulate: bool = False) -> int:
    return _index_put_dtype(self_rank_dtype[1], _optional_indices(indices_rank_dtype),
                            values_rank_dtype[1])


# --- Bucketing -------------------------------------------------------------------------------


@shape("aten.bucketize.Tensor", invocations=[
    Invocation(TensorOfShape(2, 3), TensorOfShape(4)),
    Invocation(TensorOfShape(), TensorOfShape(4), out_int32=True, right=True),
    Invocation(TensorOfShape(0, 3), TensorOfShape(0)),
    KernelErrorInvocation(TensorOfShape(2, 3), TensorOfShape(2, 4)),
    KernelErrorInvocation(TensorOfShape(2, 3), TensorOfShape()),
])
def aten〇bucketize〇Tensor〡shape(self: List[int], boundaries: List[int], out_int32: bool = False, right: bool = False) -> List[int]:
    # The meta kernel skips this check.
    if len(boundaries) != 1:
        raise AssertionError("bucketize: boundaries tensor must be 1 dimension")
    return upstream._copy(self)


@dtype("aten.bucketize.Tensor", invocations=[
    Invocation(TensorOfShape(2, 3, dtype=d), TensorOfShape(4, dtype=b), out_int32=flag)
    for d in DTYPE_SWEEP for b in (torch.float32, torch.int64) for flag in (False, True)
])
def aten〇bucketize〇Tensor〡dtype(self_rank_dtype: Tuple[int, int], boundaries_rank_dtype: Tuple[int, int], out_int32: bool = False, right: bool = False) -> int:
    return 3 if out_int32 else 4  # int32 or int64
