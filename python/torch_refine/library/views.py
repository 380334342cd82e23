"""Views and shape manipulation: the result rearranges `self`'s sizes and keeps its dtype.

Shape functions are written out; the dtype functions that just return `self`'s dtype are
declared as data at the end (`keep_self_dtype`) and checked on a dtype sweep of the op's
first accepted shape case.
"""

from typing import List, Optional, Tuple, Union

import torch
import torch.jit._shape_functions as upstream
from torch import device  # noqa: F401 (annotation of synthesized functions)

from ._helpers import (
    broadcast_shapes,
    check_contiguous_strides_fit,
    check_numel_fits,
    check_symint_values,
    elementwise_dtype,
    padded_size,
    rank_dtype_lists,
)
from ._synthesize import define
from .elementwise import DTYPE_SWEEP
from .promotion import is_integer_dtype
from .registry import _FUNCTIONS, dtype, shape
from .testing import (
    ErrorInvocation,
    Invocation,
    KernelErrorInvocation,
    KernelInvocation,
    LongTensorOfShape,
    TensorOfShape,
    TorchMlirInvocation,
    torch_mlir_meaning,
)

# --- Declaring "same dtype as self" functions ------------------------------------------------


def dtype_sweep(cases) -> list[Invocation]:
    """The first accepted case with its first tensor in each dtype of DTYPE_SWEEP."""
    base = next(case for case in cases if not case.expects_error)
    position = next(i for i, a in enumerate(base.args) if isinstance(a, TensorOfShape))
    sweep = []
    for dtype_ in DTYPE_SWEEP:
        args = list(base.args)
        args[position] = TensorOfShape(*args[position].shape, dtype=dtype_)
        sweep.append(Invocation(*args, **base.kwargs))
    return sweep


def keep_self_dtype(namespace: dict, *ops: str) -> None:
    """Dtype functions returning `self`'s dtype, tested on the op's shape cases."""
    for op in ops:
        cases = _FUNCTIONS[("shape", op)].invocations
        define("dtype", op, "    return self_rank_dtype[1]", namespace, dtype_sweep(cases))


# --- Family-private helpers (TorchScript) ----------------------------------------------------


def _check_sizes_non_negative(op: str, size: List[int]) -> None:
    for s in size:
        if s < 0:
            raise AssertionError(op + ": sizes must be non-negative")


def _expand(self: List[int], size: List[int]) -> List[int]:
    """expand's rule: `-1` keeps a size, a size-1 dim stretches, new dims lead. Fewer sizes
    than dims (PyTorch raises) are torch-mlir's ONNX Expand, a bidirectional broadcast: the
    sizes align with the last dims and the leading dims are kept."""
    if len(size) < len(self):
        kept: List[int] = []
        for _ in range(len(self) - len(size)):
            kept.append(-1)
        size = kept + size
    out: List[int] = []
    offset = len(size) - len(self)
    for i in range(len(size)):
        target = size[i]
        if i < offset:
            if target < 0:
                raise AssertionError("expand: the expanded size -1 is not allowed in a "
                                     "leading, non-existing dimension")
            out.append(target)
            continue
        current = self[i - offset]
        if target == -1:
            out.append(current)
            continue
        if target < 0:
            raise AssertionError("expand: negative expanded size")
        if current != target and current != 1:
            raise AssertionError("expand: the expanded size must match the existing size "
                                 "at a non-singleton dimension")
        out.append(target)
    check_numel_fits("expand", out)
    return out


def _remove_dim(self: List[int], dim: int) -> List[int]:
    out: List[int] = []
    for i in range(len(self)):
        if i != dim:
            out.append(self[i])
    return out


def _wrap_dims(dims: List[int], rank: int, op: str) -> List[int]:
    """Wrapped dims; a dim named twice is an error."""
    wrapped: List[int] = []
    for d in dims:
        w = upstream.maybe_wrap_dim(d, rank)
        if w in wrapped:
            raise AssertionError(op + ": dim appears multiple times in the list of dims")
        wrapped.append(w)
    return wrapped


def _split_with_sizes(self: List[int], split_sizes: List[int], dim: int) -> List[List[int]]:
    if len(self) == 0:
        raise AssertionError("split_with_sizes: expects at least a 1-dimensional tensor")
    dim = upstream.maybe_wrap_dim(dim, len(self))
    total = 0
    for s in split_sizes:
        if s < 0:
            raise AssertionError("split_with_sizes: split sizes must be non-negative")
        total += s
    if total != self[dim]:
        raise AssertionError("split_with_sizes: split sizes must sum exactly to the size "
                             "of the split dimension")
    out: List[List[int]] = []
    for s in split_sizes:
        piece = upstream._copy(self)
        piece[dim] = s
        out.append(piece)
    return out


def _split(self: List[int], split_size: int, dim: int) -> List[List[int]]:
    if len(self) == 0:
        raise AssertionError("split: expects at least a 1-dimensional tensor")
    if split_size < 0:
        raise AssertionError("split: split_size must be non-negative")
    dim = upstream.maybe_wrap_dim(dim, len(self))
    dim_size = self[dim]
    if split_size == 0 and dim_size != 0:
        raise AssertionError("split: split_size can only be 0 if the dimension size is 0")
    num_splits = 1
    if split_size != 0:
        num_splits = max((dim_size + split_size - 1) // split_size, 1)
    last = split_size - (split_size * num_splits - dim_size)
    out: List[List[int]] = []
    for i in range(num_splits):
        piece = upstream._copy(self)
        piece[dim] = last if i == num_splits - 1 else split_size
        out.append(piece)
    return out


def _view(self: List[int], size: List[int]) -> List[int]:
    # Unlike expand, no overflow check: the sizes multiply to self's element count, which
    # fits; only an empty self lets the other sizes overflow (PyTorch then raises), too
    # rare a case for a guard on every view of dynamic sizes.
    return upstream.view(self, size)


# --- Identity views --------------------------------------------------------------------------

_UNARY_CASES = [Invocation(TensorOfShape(2, 3)), Invocation(TensorOfShape()),
                Invocation(TensorOfShape(0, 4))]


@shape("aten.alias", "aten.alias_copy", "aten.detach", invocations=_UNARY_CASES)
def aten〇alias〡shape(self: List[int]) -> List[int]:
    return upstream.unary(self)


# --- Reshapes --------------------------------------------------------------------------------

_VIEW_CASES = [
    Invocation(TensorOfShape(2, 3), [6]),
    Invocation(TensorOfShape(2, 3), [3, -1]),
    Invocation(TensorOfShape(2, 3, 4), [-1]),
    Invocation(TensorOfShape(), [1, 1]),
    Invocation(TensorOfShape(1), []),
    Invocation(TensorOfShape(0, 3), [3, 0]),
    Invocation(TensorOfShape(0, 3), [-1, 3]),
    ErrorInvocation(TensorOfShape(0, 3), [0, -1]),
    ErrorInvocation(TensorOfShape(2, 3), [4, -1]),
    ErrorInvocation(TensorOfShape(2, 3), [-1, -1]),
    ErrorInvocation(TensorOfShape(2, 3), [7]),
    ErrorInvocation(TensorOfShape(2, 3), [-2, -3]),
    Invocation(TensorOfShape(0), [2**62, 2, 0]),
]


@shape("aten.view", "aten._unsafe_view", "aten.view_copy", invocations=_VIEW_CASES)
def aten〇view〡shape(self: List[int], size: List[int]) -> List[int]:
    return _view(self, size)


@shape("aten.reshape", invocations=_VIEW_CASES)
def aten〇reshape〡shape(self: List[int], shape: List[int]) -> List[int]:
    return _view(self, shape)


@shape("aten.view_as", invocations=[
    Invocation(TensorOfShape(2, 3), TensorOfShape(3, 2)),
    Invocation(TensorOfShape(), TensorOfShape(1, 1)),
    ErrorInvocation(TensorOfShape(2, 3), TensorOfShape(4)),
])
def aten〇view_as〡shape(self: List[int], other: List[int]) -> List[int]:
    return _view(self, other)


@shape("aten.flatten.using_ints", invocations=[
    Invocation(TensorOfShape(2, 3, 4)),
    Invocation(TensorOfShape(2, 3, 4), 1),
    Invocation(TensorOfShape(2, 3, 4), 0, 1),
    Invocation(TensorOfShape(2, 3, 4), -2, -2),
    Invocation(TensorOfShape(2, 0, 4), 1, 2),
    Invocation(TensorOfShape()),
    Invocation(TensorOfShape(), -1, 0),
    ErrorInvocation(TensorOfShape(2, 3, 4), 2, 1),
    ErrorInvocation(TensorOfShape(2, 3, 4), 0, 3),
])
def aten〇flatten〇using_ints〡shape(self: List[int], start_dim: int = 0, end_dim: int = -1) -> List[int]:
    return upstream.flatten(self, start_dim, end_dim)


@shape("aten.unflatten.int", invocations=[
    Invocation(TensorOfShape(6, 4), 0, [2, 3]),
    Invocation(TensorOfShape(4, 6), -1, [3, -1]),
    Invocation(TensorOfShape(4, 6), 1, [6]),
    Invocation(TensorOfShape(4, 0), 1, [0, 5]),
    ErrorInvocation(TensorOfShape(4, 6), 1, [4, -1]),
    ErrorInvocation(TensorOfShape(4, 6), 1, []),
    ErrorInvocation(TensorOfShape(4, 6), 2, [2, 3]),
    ErrorInvocation(TensorOfShape(4, 0), 1, [0, -1]),
])
def aten〇unflatten〇int〡shape(self: List[int], dim: int, sizes: List[int]) -> List[int]:
    dim = upstream.maybe_wrap_dim(dim, len(self))
    if len(sizes) == 0:
        raise AssertionError("unflatten: sizes must be non-empty")
    inferred = upstream.infer_size_impl(sizes, self[dim])
    out: List[int] = []
    for i in range(dim):
        out.append(self[i])
    for s in inferred:
        out.append(s)
    for i in range(dim + 1, len(self)):
        out.append(self[i])
    return out


_SQUEEZE_DIM_CASES = [
    Invocation(TensorOfShape(2, 1, 3), 1),
    Invocation(TensorOfShape(2, 1, 3), 0),
    Invocation(TensorOfShape(2, 1, 3), -2),
    Invocation(TensorOfShape(), 0),
    Invocation(TensorOfShape(), -1),
    ErrorInvocation(TensorOfShape(2, 1, 3), 3),
]


@shape("aten.squeeze.dim", "aten.squeeze_copy.dim", invocations=_SQUEEZE_DIM_CASES)
def aten〇squeeze〇dim〡shape(self: List[int], dim: int) -> List[int]:
    return upstream.squeeze(self, dim)


@shape("aten.squeeze.dims", invocations=[
    Invocation(TensorOfShape(2, 1, 3, 1), [1, 3]),
    Invocation(TensorOfShape(2, 1, 3, 1), [-1, 0]),
    Invocation(TensorOfShape(2, 1, 3), []),
    Invocation(TensorOfShape(), [0]),
    ErrorInvocation(TensorOfShape(2, 1, 3), [1, -2]),
    ErrorInvocation(TensorOfShape(2, 1, 3), [3]),
])
def aten〇squeeze〇dims〡shape(self: List[int], dim: List[int]) -> List[int]:
    wrapped = _wrap_dims(dim, len(self), "squeeze")
    out: List[int] = []
    for i in range(len(self)):
        if self[i] != 1 or i not in wrapped:
            out.append(self[i])
    return out


@shape("aten.squeeze", invocations=[
    Invocation(TensorOfShape(2, 1, 3, 1)),
    Invocation(TensorOfShape(1, 1)),
    Invocation(TensorOfShape()),
    Invocation(TensorOfShape(0, 1)),
])
def aten〇squeeze〡shape(self: List[int]) -> List[int]:
    return upstream.squeeze_nodim(self)


@shape("aten.unsqueeze", "aten.unsqueeze_copy", invocations=[
    Invocation(TensorOfShape(2, 3), 0),
    Invocation(TensorOfShape(2, 3), 2),
    Invocation(TensorOfShape(2, 3), -1),
    Invocation(TensorOfShape(2, 3), -3),
    Invocation(TensorOfShape(), 0),
    ErrorInvocation(TensorOfShape(2, 3), 3),
    ErrorInvocation(TensorOfShape(2, 3), -4),
])
def aten〇unsqueeze〡shape(self: List[int], dim: int) -> List[int]:
    return upstream.unsqueeze(self, dim)


# --- Broadcasting views ----------------------------------------------------------------------

@torch_mlir_meaning("aten.expand", "aten.expand_copy", "aten.broadcast_to")
def _expand_keeping_leading(self: torch.Tensor, size: List[int], implicit: bool = False) -> torch.Tensor:
    """expand as torch-mlir's ONNX Expand writes it: fewer sizes than dims keep the
    leading dims (PyTorch's expand rejects the call)."""
    return self.expand([-1] * (self.dim() - len(size)) + list(size))


_EXPAND_CASES = [
    Invocation(TensorOfShape(3, 1), [3, 4]),
    Invocation(TensorOfShape(3, 1), [2, -1, 4]),
    Invocation(TensorOfShape(), [2, 3]),
    Invocation(TensorOfShape(), []),
    Invocation(TensorOfShape(1), [0]),
    Invocation(TensorOfShape(0, 1), [0, 5]),
    ErrorInvocation(TensorOfShape(3, 2), [3, 4]),
    ErrorInvocation(TensorOfShape(3, 2), [4]),
    ErrorInvocation(TensorOfShape(3, 1), [-1, 3, 4]),
    ErrorInvocation(TensorOfShape(3, 1), [3, -2]),
    ErrorInvocation(TensorOfShape(1, 1), [2**62, 4]),
    Invocation(TensorOfShape(1, 1, 1), [2**62, 2, 0]),
    TorchMlirInvocation(TensorOfShape(3, 1), [4]),
    TorchMlirInvocation(TensorOfShape(2, 3, 4), [-1, -1]),
    TorchMlirInvocation(TensorOfShape(2, 3, 1), [3, 5]),
]


@shape("aten.expand", invocations=_EXPAND_CASES + [
    Invocation(TensorOfShape(1, 1, 1), [0, 2**62, 4]),
])
def aten〇expand〡shape(self: List[int], size: List[int], implicit: bool = False) -> List[int]:
    return _expand(self, size)


@shape("aten.expand_copy", invocations=_EXPAND_CASES + [
    ErrorInvocation(TensorOfShape(1, 1, 1), [0, 2**62, 8]),
])
def aten〇expand_copy〡shape(self: List[int], size: List[int], implicit: bool = False) -> List[int]:
    out = _expand(self, size)
    check_contiguous_strides_fit("expand_copy", out)  # the copy is a new contiguous tensor
    return out


@shape("aten.broadcast_to", invocations=_EXPAND_CASES)
def aten〇broadcast_to〡shape(self: List[int], size: List[int]) -> List[int]:
    return _expand(self, size)


@shape("aten.expand_as", invocations=[
    Invocation(TensorOfShape(3, 1), TensorOfShape(2, 3, 4)),
    Invocation(TensorOfShape(), TensorOfShape(2)),
    ErrorInvocation(TensorOfShape(3, 2), TensorOfShape(3, 4)),
])
def aten〇expand_as〡shape(self: List[int], other: List[int]) -> List[int]:
    return _expand(self, other)


# --- Dim permutations ------------------------------------------------------------------------


@shape("aten.permute", "aten.permute_copy", invocations=[
    Invocation(TensorOfShape(2, 3, 4), [2, 0, 1]),
    Invocation(TensorOfShape(2, 3, 4), [-1, 0, -2]),
    Invocation(TensorOfShape(), []),
    Invocation(TensorOfShape(0, 3), [1, 0]),
    ErrorInvocation(TensorOfShape(2, 3, 4), [0, 1]),
    ErrorInvocation(TensorOfShape(2, 3, 4), [0, 1, 1]),
    ErrorInvocation(TensorOfShape(2, 3, 4), [0, 1, 3]),
])
def aten〇permute〡shape(self: List[int], dims: List[int]) -> List[int]:
    # upstream.permute checks repeats pairwise: its unrolling grows as the square of the rank.
    rank = len(self)
    assert len(dims) == rank, "permute: the number of dims must equal the tensor's rank"
    seen: List[bool] = []
    for _ in range(rank):
        seen.append(False)
    sizes: List[int] = []
    for d in dims:
        dim = upstream.maybe_wrap_dim(d, rank)
        assert not seen[dim], "permute: a dim appears twice in the list of dims"
        seen[dim] = True
        sizes.append(self[dim])
    return sizes


@shape("aten.transpose.int", "aten.transpose_copy.int", invocations=[
    Invocation(TensorOfShape(2, 3, 4), 0, 2),
    Invocation(TensorOfShape(2, 3, 4), -1, 1),
    Invocation(TensorOfShape(2, 3), 1, 1),
    Invocation(TensorOfShape(), 0, -1),
    ErrorInvocation(TensorOfShape(2, 3), 0, 2),
])
def aten〇transpose〇int〡shape(self: List[int], dim0: int, dim1: int) -> List[int]:
    return upstream.transpose(self, dim0, dim1)


@shape("aten.t", invocations=[
    Invocation(TensorOfShape(2, 3)),
    Invocation(TensorOfShape(3)),
    Invocation(TensorOfShape()),
    ErrorInvocation(TensorOfShape(2, 3, 4)),
])
def aten〇t〡shape(self: List[int]) -> List[int]:
    return upstream.t(self)


@shape("aten.movedim.int", invocations=[
    Invocation(TensorOfShape(2, 3, 4), 0, 2),
    Invocation(TensorOfShape(2, 3, 4), -1, 0),
    Invocation(TensorOfShape(5), 0, 0),
    Invocation(TensorOfShape(), 0, -1),
    ErrorInvocation(TensorOfShape(2, 3, 4), 3, 0),
    ErrorInvocation(TensorOfShape(5), 0, 1),
    ErrorInvocation(TensorOfShape(3), -2**63, 2),
    ErrorInvocation(TensorOfShape(), 1, 0),
])
def aten〇movedim〇int〡shape(self: List[int], source: int, destination: int) -> List[int]:
    # upstream.movedim checks no dim of a rank 0 or 1 tensor; PyTorch does.
    upstream.maybe_wrap_dim(source, len(self))
    upstream.maybe_wrap_dim(destination, len(self))
    return upstream._copy(upstream.movedim(self, [source], [destination]))


# --- Selections and slices -------------------------------------------------------------------

_SELECT_CASES = [
    Invocation(TensorOfShape(2, 3, 4), 1, 2),
    Invocation(TensorOfShape(2, 3, 4), -1, -4),
    Invocation(TensorOfShape(5), 0, 4),
    ErrorInvocation(TensorOfShape(2, 3, 4), 1, 3),
    ErrorInvocation(TensorOfShape(2, 3, 4), 1, -4),
    ErrorInvocation(TensorOfShape(2, 0), 1, 0),
    ErrorInvocation(TensorOfShape(), 0, 0),
    ErrorInvocation(TensorOfShape(2, 3), 2, 0),
]


@shape("aten.select.int", "aten.select_copy.int", invocations=_SELECT_CASES)
def aten〇select〇int〡shape(self: List[int], dim: int, index: int) -> List[int]:
    return upstream.select(self, dim, index)


_SLICE_CASES = [
    Invocation(TensorOfShape(8, 3)),
    Invocation(TensorOfShape(8, 3), 0, 2, 6),
    Invocation(TensorOfShape(8, 3), 0, 1, None, 3),
    Invocation(TensorOfShape(8, 3), 0, -3),
    Invocation(TensorOfShape(8, 3), 0, -20, -2),
    Invocation(TensorOfShape(8, 3), -1, 1, 100),
    Invocation(TensorOfShape(8, 3), 0, 6, 2),
    Invocation(TensorOfShape(8, 3), 0, 20, 30),
    Invocation(TensorOfShape(8, 3), 0, 0, 9223372036854775807, 2),
    # Bounds of int64 are clamped like any index (upstream reads a start of 2**63-1 as none).
    Invocation(TensorOfShape(9), 0, 9223372036854775807, -1, 2),
    Invocation(TensorOfShape(9), 0, -9223372036854775808, 9223372036854775807, 2),
    Invocation(TensorOfShape(9), 0, 4611686018427387904, None),
    Invocation(TensorOfShape(9), 0, -4611686018427387904, -9223372036854775808),
    Invocation(TensorOfShape(9), 0, -9, 9),
    Invocation(TensorOfShape(0, 3), 0, 1, 2),
    ErrorInvocation(TensorOfShape(8, 3), 0, 0, 4, 0),
    ErrorInvocation(TensorOfShape(8, 3), 2),
    ErrorInvocation(TensorOfShape(), 0, 0, 1),
    TorchMlirInvocation(TensorOfShape(4, 2), 0, -1, -9223372036854775807, -1),
    TorchMlirInvocation(TensorOfShape(8, 3), 0, 0, 4, -1),
    TorchMlirInvocation(TensorOfShape(5), 0, 3, 0, -1),
    TorchMlirInvocation(TensorOfShape(8, 3), 0, 7, None, -2),
    TorchMlirInvocation(TensorOfShape(5, 3), 1, 10, -10, -1),
    TorchMlirInvocation(TensorOfShape(5), 0, -2, -5, -3),
    TorchMlirInvocation(TensorOfShape(0, 3), 0, None, None, -1),
]


@torch_mlir_meaning("aten.slice.Tensor", "aten.slice_copy.Tensor")
def _slice_stepping_back(self: torch.Tensor, dim: int = 0, start: Optional[int] = None,
                         end: Optional[int] = None, step: int = 1) -> torch.Tensor:
    """A slice as torch-mlir lowers it, a negative step included (its ONNX Slice conversion
    writes one to reverse a dim: the legacy exporter's Pad reverses its pads so): Python's
    slicing of the indices."""
    indices = list(range(self.shape[dim]))[start:end:step]
    return self.index_select(dim, torch.tensor(indices, dtype=torch.int64, device=self.device))


def _backward_slice_length(size: int, start: Optional[int], end: Optional[int], step: int) -> int:
    """How many elements a slice with a negative step takes, as Python counts them: from
    `start` (default the last) down to just after `end` (default past the first)."""
    first = size - 1 if start is None else start
    if first < 0:
        first += size
    if first < 0:
        first = -1
    elif first >= size:
        first = size - 1
    last = -1 if end is None else end
    if end is not None and last < 0:
        last += size
    if last < 0:
        last = -1
    elif last >= size:
        last = size - 1
    if first <= last:
        return 0
    return (first - last - step - 1) // -step


@shape("aten.slice.Tensor", "aten.slice_copy.Tensor", invocations=_SLICE_CASES)
def aten〇slice〇Tensor〡shape(self: List[int], dim: int = 0, start: Optional[int] = None, end: Optional[int] = None, step: int = 1) -> List[int]:
    assert len(self) > 0, "Cannot slice a 0-dimensional tensor"
    dim = upstream.maybe_wrap_dim(dim, len(self))
    assert step != 0, "slice step cannot be zero"
    size = self[dim]
    if step < 0:  # PyTorch raises; torch-mlir's lowering reverses (its ONNX Slice conversion)
        out = upstream._copy(self)
        out[dim] = _backward_slice_length(size, start, end, step)
        return out
    start_value = 0 if start is None else start
    end_value = 9223372036854775807 if end is None else end
    if start_value < 0:
        start_value += size
    if end_value < 0:
        end_value += size
    if start_value < 0:
        start_value = 0
    elif start_value >= size:
        start_value = size
    if end_value < start_value:
        end_value = start_value
    elif end_value >= size:
        end_value = size
    out = upstream._copy(self)
    out[dim] = (end_value - start_value + step - 1) // step
    return out


@shape("aten.narrow", invocations=[
    Invocation(TensorOfShape(8, 3), 0, 2, 3),
    Invocation(TensorOfShape(8, 3), -1, -2, 2),
    Invocation(TensorOfShape(8, 3), 0, 8, 0),
    Invocation(TensorOfShape(8, 3), 0, 0, 8),
    ErrorInvocation(TensorOfShape(8, 3), 0, 6, 3),
    ErrorInvocation(TensorOfShape(8, 3), 0, -9, 1),
    ErrorInvocation(TensorOfShape(8, 3), 0, 0, -1),
    ErrorInvocation(TensorOfShape(), 0, 0, 1),
    ErrorInvocation(TensorOfShape(8, 3), 2, 0, 1),
])
def aten〇narrow〡shape(self: List[int], dim: int, start: int, length: int) -> List[int]:
    if len(self) == 0:
        raise AssertionError("narrow: cannot be applied to a 0-dim tensor")
    dim = upstream.maybe_wrap_dim(dim, len(self))
    size = self[dim]
    if start < -size or start > size:
        raise AssertionError("narrow: start out of range")
    if start < 0:
        start += size
    if length < 0:
        raise AssertionError("narrow: length must be non-negative")
    if start > size - length:
        raise AssertionError("narrow: start + length exceeds the dimension size")
    out = upstream._copy(self)
    out[dim] = length
    return out


@shape("aten.diagonal", "aten.diagonal_copy", invocations=[
    Invocation(TensorOfShape(3, 4)),
    Invocation(TensorOfShape(3, 4), 1),
    Invocation(TensorOfShape(3, 4), -2),
    Invocation(TensorOfShape(3, 4), 5),
    Invocation(TensorOfShape(3, 4), -5),
    Invocation(TensorOfShape(2, 3, 4), 0, -1, 0),
    Invocation(TensorOfShape(2, 3, 4, 5), 1, 1, 3),
    Invocation(TensorOfShape(0, 4)),
    ErrorInvocation(TensorOfShape(3, 4), 0, 1, -1),
    ErrorInvocation(TensorOfShape(3, 4), 0, 0, 2),
    ErrorInvocation(TensorOfShape(3)),
])
def aten〇diagonal〡shape(self: List[int], offset: int = 0, dim1: int = 0, dim2: int = 1) -> List[int]:
    rank = len(self)
    d1 = upstream.maybe_wrap_dim(dim1, rank)
    d2 = upstream.maybe_wrap_dim(dim2, rank)
    if d1 == d2:
        raise AssertionError("diagonal: dim1 and dim2 cannot be identical")
    if offset >= 0:
        diag = min(self[d1], self[d2] - offset)
    else:
        diag = min(self[d1] + offset, self[d2])
    out: List[int] = []
    for i in range(rank):
        if i != d1 and i != d2:
            out.append(self[i])
    out.append(max(diag, 0))
    return out


@shape("aten.unfold", invocations=[
    Invocation(TensorOfShape(8, 3), 0, 3, 2),
    Invocation(TensorOfShape(8, 3), -1, 3, 1),
    Invocation(TensorOfShape(8, 3), 0, 0, 1),
    Invocation(TensorOfShape(), 0, 1, 1),
    ErrorInvocation(TensorOfShape(8, 3), 0, 9, 1),
    ErrorInvocation(TensorOfShape(8, 3), 0, 2, 0),
    ErrorInvocation(TensorOfShape(8, 3), 0, -1, 1),
    ErrorInvocation(TensorOfShape(), 0, 2, 1),
])
def aten〇unfold〡shape(self: List[int], dimension: int, size: int, step: int) -> List[int]:
    dim = upstream.maybe_wrap_dim(dimension, len(self))
    dim_size = self[dim] if len(self) > 0 else 1
    if size > dim_size:
        raise AssertionError("unfold: the window size exceeds the size of the dimension")
    if size < 0:
        raise AssertionError("unfold: the window size must be non-negative")
    if step <= 0:
        raise AssertionError("unfold: step must be positive")
    if len(self) == 0:
        return [size]
    out = upstream._copy(self)
    out[dim] = (dim_size - size) // step + 1
    out.append(size)
    return out


# --- Splits: a Tensor[] result ---------------------------------------------------------------


@shape("aten.split_with_sizes", invocations=[
    Invocation(TensorOfShape(8, 3), [2, 6]),
    Invocation(TensorOfShape(8, 3), [1, 1, 1], 1),
    Invocation(TensorOfShape(8, 3), [0, 3], -1),
    Invocation(TensorOfShape(0, 3), [0]),
    ErrorInvocation(TensorOfShape(8, 3), [2, 5]),
    ErrorInvocation(TensorOfShape(8, 3), [10, -2]),
    ErrorInvocation(TensorOfShape(), [1]),
])
def aten〇split_with_sizes〡shape(self: List[int], split_sizes: List[int], dim: int = 0) -> List[List[int]]:
    return _split_with_sizes(self, split_sizes, dim)


@dtype("aten.split_with_sizes", invocations=[
    Invocation(TensorOfShape(8, 3, dtype=d), [2, 6]) for d in DTYPE_SWEEP
])
def aten〇split_with_sizes〡dtype(self_rank_dtype: Tuple[int, int], split_sizes: List[int], dim: int = 0) -> List[int]:
    # One dtype per piece (split.Tensor, chunk and unbind return one int for all pieces:
    # their piece count depends on sizes, which a dtype function does not see).
    dtypes: List[int] = []
    for _ in split_sizes:
        dtypes.append(self_rank_dtype[1])
    return dtypes


@shape("aten.split.Tensor", invocations=[
    Invocation(TensorOfShape(8, 3), 3),
    Invocation(TensorOfShape(8, 3), 2, 1),
    Invocation(TensorOfShape(8, 3), 4, -1),
    Invocation(TensorOfShape(8, 3), 8),
    Invocation(TensorOfShape(0, 3), 3),
    Invocation(TensorOfShape(0, 3), 0),
    ErrorInvocation(TensorOfShape(8, 3), 0),
    ErrorInvocation(TensorOfShape(8, 3), -1),
    ErrorInvocation(TensorOfShape(), 1),
])
def aten〇split〇Tensor〡shape(self: List[int], split_size: int, dim: int = 0) -> List[List[int]]:
    return _split(self, split_size, dim)


# Every piece has self's dtype: one int for all of them (testing.dtypes_agree).
@dtype("aten.split.Tensor", invocations=[
    Invocation(TensorOfShape(8, 3, dtype=d), 3) for d in DTYPE_SWEEP
] + [Invocation(TensorOfShape(0, 3), 0)])
def aten〇split〇Tensor〡dtype(self_rank_dtype: Tuple[int, int], split_size: int, dim: int = 0) -> int:
    return self_rank_dtype[1]


@shape("aten.chunk", invocations=[
    Invocation(TensorOfShape(8, 3), 3),
    Invocation(TensorOfShape(8, 3), 4),
    Invocation(TensorOfShape(8, 3), 10),
    Invocation(TensorOfShape(8, 3), 2, -1),
    Invocation(TensorOfShape(0, 3), 3),
    ErrorInvocation(TensorOfShape(8, 3), 0),
    ErrorInvocation(TensorOfShape(), 1),
])
def aten〇chunk〡shape(self: List[int], chunks: int, dim: int = 0) -> List[List[int]]:
    if len(self) == 0:
        raise AssertionError("chunk: expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise AssertionError("chunk: expects `chunks` to be greater than 0")
    dim = upstream.maybe_wrap_dim(dim, len(self))
    dim_size = self[dim]
    split_size = (dim_size + chunks - 1) // chunks
    if split_size == 0 and dim_size == 0:
        # Zero-size chunks keep their count, which `split` would lose.
        sizes: List[int] = []
        for _ in range(chunks):
            sizes.append(0)
        return _split_with_sizes(self, sizes, dim)
    return _split(self, split_size, dim)


@dtype("aten.chunk", invocations=[
    Invocation(TensorOfShape(8, 3, dtype=d), 3) for d in DTYPE_SWEEP
])
def aten〇chunk〡dtype(self_rank_dtype: Tuple[int, int], chunks: int, dim: int = 0) -> int:
    return self_rank_dtype[1]


@shape("aten.unbind.int", invocations=[
    Invocation(TensorOfShape(3, 4)),
    Invocation(TensorOfShape(3, 4), -1),
    Invocation(TensorOfShape(0, 4)),
    ErrorInvocation(TensorOfShape()),
    ErrorInvocation(TensorOfShape(3, 4), 2),
])
def aten〇unbind〇int〡shape(self: List[int], dim: int = 0) -> List[List[int]]:
    if len(self) == 0:
        raise AssertionError("unbind: dimension specified as 0 but tensor has no dimensions")
    dim = upstream.maybe_wrap_dim(dim, len(self))
    out: List[List[int]] = []
    for _ in range(self[dim]):
        out.append(_remove_dim(self, dim))
    return out


@dtype("aten.unbind.int", invocations=[
    Invocation(TensorOfShape(3, 4, dtype=d)) for d in DTYPE_SWEEP
] + [Invocation(TensorOfShape(0, 4))])
def aten〇unbind〇int〡dtype(self_rank_dtype: Tuple[int, int], dim: int = 0) -> int:
    return self_rank_dtype[1]


def _meshgrid(tensors: List[List[int]], indexing: str) -> List[List[int]]:
    if len(tensors) == 0:
        raise AssertionError("meshgrid expects a non-empty TensorList")
    if indexing != "ij" and indexing != "xy":
        raise AssertionError("torch.meshgrid: indexing must be one of \"xy\" or \"ij\"")
    grid: List[int] = []
    for tensor in tensors:
        if len(tensor) > 1:
            raise AssertionError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list")
        grid.append(tensor[0] if len(tensor) == 1 else 1)
    if indexing == "xy" and len(grid) >= 2:
        first = grid[0]
        grid[0] = grid[1]
        grid[1] = first
    out: List[List[int]] = []
    for _ in tensors:
        out.append(upstream._copy(grid))
    return out


def _meshgrid_dtypes(tensors_rank_dtype: List[Tuple[int, int]]) -> List[int]:
    if len(tensors_rank_dtype) == 0:
        raise AssertionError("meshgrid expects a non-empty TensorList")
    dtypes: List[int] = []
    for rank_dtype in tensors_rank_dtype:
        if rank_dtype[1] != tensors_rank_dtype[0][1]:
            raise AssertionError("meshgrid expects all tensors to have the same dtype")
        dtypes.append(rank_dtype[1])
    return dtypes


_MESHGRID_CASES = [
    Invocation([TensorOfShape(3), TensorOfShape(4)]),
    Invocation([TensorOfShape(3), TensorOfShape(), TensorOfShape(5)]),
    Invocation([TensorOfShape(0), TensorOfShape(2)]),
    Invocation([TensorOfShape(2)]),
    ErrorInvocation([]),
    ErrorInvocation([TensorOfShape(2, 3), TensorOfShape(4)]),
]
_MESHGRID_DTYPE_CASES = [
    Invocation([TensorOfShape(3, dtype=d), TensorOfShape(4, dtype=d)]) for d in DTYPE_SWEEP
] + [
    ErrorInvocation([TensorOfShape(3, dtype=torch.float32), TensorOfShape(4, dtype=torch.int64)]),
    ErrorInvocation([]),
]


@shape("aten.meshgrid", invocations=_MESHGRID_CASES)
def aten〇meshgrid〡shape(tensors: List[List[int]]) -> List[List[int]]:
    return _meshgrid(tensors, "ij")


@dtype("aten.meshgrid", invocations=_MESHGRID_DTYPE_CASES)
def aten〇meshgrid〡dtype(tensors_rank_dtype: List[Tuple[int, int]]) -> List[int]:
    return _meshgrid_dtypes(tensors_rank_dtype)


@shape("aten.meshgrid.indexing", invocations=[
    Invocation(c.args[0], indexing=i) for c in _MESHGRID_CASES if type(c) is Invocation for i in ("ij", "xy")
] + [
    ErrorInvocation([], indexing="ij"),
    ErrorInvocation([TensorOfShape(2, 3), TensorOfShape(4)], indexing="xy"),
    ErrorInvocation([TensorOfShape(3), TensorOfShape(4)], indexing="yx"),
])
def aten〇meshgrid〇indexing〡shape(tensors: List[List[int]], indexing: str) -> List[List[int]]:
    return _meshgrid(tensors, indexing)


@dtype("aten.meshgrid.indexing", invocations=[
    Invocation([TensorOfShape(3, dtype=d), TensorOfShape(4, dtype=d)], indexing="xy") for d in DTYPE_SWEEP
] + [
    ErrorInvocation([TensorOfShape(3, dtype=torch.float32), TensorOfShape(4, dtype=torch.int64)], indexing="ij"),
])
def aten〇meshgrid〇indexing〡dtype(tensors_rank_dtype: List[Tuple[int, int]], indexing: str) -> List[int]:
    return _meshgrid_dtypes(tensors_rank_dtype)


# --- Concatenation ---------------------------------------------------------------------------

_CAT_DTYPE_CASES = [
    Invocation([TensorOfShape(2, 3, dtype=a), TensorOfShape(4, 3, dtype=b)])
    for a in DTYPE_SWEEP for b in DTYPE_SWEEP
] + [
    # Legacy empty 1-D tensors are skipped for shapes but still promote.
    Invocation([TensorOfShape(2, 3, dtype=torch.int32), TensorOfShape(0, dtype=torch.float64)]),
    Invocation([TensorOfShape(2, dtype=torch.int64)]),
    ErrorInvocation([]),
]


@shape("aten.cat", invocations=[
    Invocation([TensorOfShape(2, 3), TensorOfShape(4, 3)]),
    Invocation([TensorOfShape(2, 3), TensorOfShape(2, 5)], 1),
    Invocation([TensorOfShape(2, 3), TensorOfShape(2, 5)], -1),
    Invocation([TensorOfShape(2, 3)]),
    Invocation([TensorOfShape(2, 3), TensorOfShape(0)], 1),
    Invocation([TensorOfShape(0), TensorOfShape(0)]),
    Invocation([TensorOfShape(0, 3), TensorOfShape(2, 3)]),
    ErrorInvocation([TensorOfShape(2, 3), TensorOfShape(2, 4)]),
    ErrorInvocation([TensorOfShape(2, 3), TensorOfShape(2, 3, 1)]),
    ErrorInvocation([TensorOfShape(), TensorOfShape()]),
    ErrorInvocation([TensorOfShape(2, 3)], 2),
    ErrorInvocation([]),
])
def aten〇cat〡shape(tensors: List[List[int]], dim: int = 0) -> List[int]:
    if len(tensors) == 0:
        raise AssertionError("cat: expected a non-empty list of Tensors")
    return upstream.cat(tensors, dim)


@dtype("aten.cat", invocations=_CAT_DTYPE_CASES)
def aten〇cat〡dtype(tensors_rank_dtype: List[Tuple[int, int]], dim: int = 0) -> int:
    if len(tensors_rank_dtype) == 0:
        raise AssertionError("cat: expected a non-empty list of Tensors")
    ranks, dtypes = rank_dtype_lists(tensors_rank_dtype)
    return elementwise_dtype(0, ranks, dtypes)  # 0: DEFAULT promotion


@shape("aten.stack", invocations=[
    Invocation([TensorOfShape(2, 3), TensorOfShape(2, 3)]),
    Invocation([TensorOfShape(2, 3), TensorOfShape(2, 3)], 2),
    Invocation([TensorOfShape(2, 3)], -1),
    Invocation([TensorOfShape(), TensorOfShape()]),
    Invocation([TensorOfShape(0), TensorOfShape(0)], 1),
    ErrorInvocation([TensorOfShape(2, 3), TensorOfShape(3, 2)]),
    ErrorInvocation([TensorOfShape(2, 3), TensorOfShape(0)]),
    ErrorInvocation([TensorOfShape(2, 3)], 3),
    ErrorInvocation([]),
])
def aten〇stack〡shape(tensors: List[List[int]], dim: int = 0) -> List[int]:
    if len(tensors) == 0:
        raise AssertionError("stack: expects a non-empty TensorList")
    for t in tensors:
        if t != tensors[0]:
            raise AssertionError("stack: expects each tensor to be equal size")
    dim = upstream.maybe_wrap_dim(dim, len(tensors[0]) + 1)
    out = upstream._copy(tensors[0])
    out.insert(dim, len(tensors))
    return out


@dtype("aten.stack", invocations=[
    Invocation([TensorOfShape(2, 3, dtype=a), TensorOfShape(2, 3, dtype=b)])
    for a in DTYPE_SWEEP for b in DTYPE_SWEEP
] + [
    Invocation([TensorOfShape(dtype=torch.int32), TensorOfShape(dtype=torch.float64)]),
    ErrorInvocation([]),
])
def aten〇stack〡dtype(tensors_rank_dtype: List[Tuple[int, int]], dim: int = 0) -> int:
    if len(tensors_rank_dtype) == 0:
        raise AssertionError("stack: expects a non-empty TensorList")
    # stack concatenates unsqueezed tensors, so zero-rank tensors promote as rank 1.
    ranks: List[Optional[int]] = []
    dtypes: List[int] = []
    for rank, dtype_ in tensors_rank_dtype:
        ranks.append(rank + 1)
        dtypes.append(dtype_)
    return elementwise_dtype(0, ranks, dtypes)  # 0: DEFAULT promotion


# --- Repetition and padding ------------------------------------------------------------------


@shape("aten.repeat", invocations=[
    Invocation(TensorOfShape(2, 3), [2, 2]),
    Invocation(TensorOfShape(2, 3), [4, 1, 3]),
    Invocation(TensorOfShape(), [3]),
    Invocation(TensorOfShape(), []),
    Invocation(TensorOfShape(2, 3), [0, 1]),
    ErrorInvocation(TensorOfShape(2, 3), [2]),
    ErrorInvocation(TensorOfShape(2, 3), [2, -1]),
])
def aten〇repeat〡shape(self: List[int], repeats: List[int]) -> List[int]:
    if len(repeats) < len(self):
        raise AssertionError("repeat: the number of repeat dims can not be smaller than the "
                             "number of dimensions of the tensor")
    _check_sizes_non_negative("repeat", repeats)
    offset = len(repeats) - len(self)
    out: List[int] = []
    for i in range(len(repeats)):
        size = 1 if i < offset else self[i - offset]
        # Each product is a size of its own (TorchScript would wrap it around).
        check_numel_fits("repeat", [size, repeats[i]])
        out.append(size * repeats[i])
    check_numel_fits("repeat", out)
    return out


@shape("aten.repeat_interleave.self_int", invocations=[
    Invocation(TensorOfShape(2, 3), 2),
    Invocation(TensorOfShape(2, 3), 2, 1),
    Invocation(TensorOfShape(2, 3), 3, -2),
    Invocation(TensorOfShape(2, 3), 0, 0),
    Invocation(TensorOfShape(), 4),
    ErrorInvocation(TensorOfShape(2, 3), -1, 0),
    ErrorInvocation(TensorOfShape(2, 3), 2, 2),
    ErrorInvocation(TensorOfShape(4), 2**62),
    ErrorInvocation(TensorOfShape(1, 4), 2**61, 1),
    ErrorInvocation(TensorOfShape(0, 4), 2**62, 1),
    Invocation(TensorOfShape(0, 4), 2**62),
])
def aten〇repeat_interleave〇self_int〡shape(self: List[int], repeats: int, dim: Optional[int] = None, output_size: Optional[int] = None) -> List[int]:
    if repeats < 0:
        raise AssertionError("repeat_interleave: repeats can not be negative")
    # The result is a reshape of the input expanded by `repeats` after the repeated dim
    # (the flattened input's one dim when dim is None): those sizes must fit in int64,
    # where TorchScript's product would wrap (4 * 2**62 to 0).
    if dim is None:
        check_numel_fits("repeat_interleave", self + [repeats])
        return [upstream.numel(self) * repeats]
    wrapped = upstream.maybe_wrap_dim(dim, len(self))
    if len(self) == 0:
        return [repeats]
    expanded = upstream._copy(self)
    expanded.insert(wrapped + 1, repeats)
    check_numel_fits("repeat_interleave", expanded)
    check_contiguous_strides_fit("repeat_interleave", expanded)
    out = upstream._copy(self)
    out[wrapped] = self[wrapped] * repeats
    return out


@shape("aten.constant_pad_nd", invocations=[
    Invocation(TensorOfShape(2, 3), [1, 2]),
    Invocation(TensorOfShape(2, 3), [1, 2, 0, 3], 1.5),
    Invocation(TensorOfShape(2, 3), [-1, -1]),
    Invocation(TensorOfShape(2, 3), [-3, 0]),
    Invocation(TensorOfShape(2, 3), []),
    Invocation(TensorOfShape(0, 3), [1, 1, 2, 0]),
    ErrorInvocation(TensorOfShape(2, 3), [1]),
    ErrorInvocation(TensorOfShape(2, 3), [1, 1, 1, 1, 1, 1]),
    ErrorInvocation(TensorOfShape(2, 3), [-2, -2]),
    # The negative sides narrow first: [4, -4] would be 3, [-4, 4] too, but both raise.
    ErrorInvocation(TensorOfShape(2, 3), [4, -4]),
    ErrorInvocation(TensorOfShape(2, 3), [-4, 4]),
    ErrorInvocation(TensorOfShape(2, 3), [9223372036854775807, -3]),  # numel past int64
    # Within 2**-40 of the int64 maximum, where a float product cannot tell.
    ErrorInvocation(TensorOfShape(2, 3, dtype=torch.uint8), [2**62, 1]),
    Invocation(TensorOfShape(2, 3, dtype=torch.uint8), [2**62 - 4, 0]),
    ErrorInvocation(TensorOfShape(2, 3), [2**63 - 1, 2**63 - 1]),
    ErrorInvocation(TensorOfShape(2, 3), [-2**63, -2**63]),
])
def aten〇constant_pad_nd〡shape(self: List[int], pad: List[int], value: float = 0) -> List[int]:
    if len(pad) % 2 != 0:
        raise AssertionError("constant_pad_nd: length of pad must be even")
    if len(pad) // 2 > len(self):
        raise AssertionError("constant_pad_nd: length of pad should be no more than twice "
                             "the number of dimensions of the input")
    out = upstream._copy(self)
    for i in range(len(pad) // 2):
        dim = len(self) - 1 - i
        before, after = pad[2 * i], pad[2 * i + 1]
        # Negative padding narrows the dim first: together it removes at most all of it.
        if self[dim] + min(before, 0) + min(after, 0) < 0:
            raise AssertionError("constant_pad_nd: narrow(): length must be non-negative")
        out[dim] = padded_size("constant_pad_nd", self[dim], before, after)
    check_numel_fits("constant_pad_nd", out)
    return out


@dtype("aten.constant_pad_nd", invocations=[
    Invocation(TensorOfShape(2, 3, dtype=d), [1, 1], v)
    for d in DTYPE_SWEEP for v in (0, 1.5, True)
])
def aten〇constant_pad_nd〡dtype(self_rank_dtype: Tuple[int, int], pad: List[int], value: Union[int, float, complex] = 0) -> int:
    return self_rank_dtype[1]


# --- Reorderings that keep the shape ---------------------------------------------------------


@shape("aten.flip", invocations=[
    Invocation(TensorOfShape(2, 3), [0]),
    Invocation(TensorOfShape(2, 3), [-1, 0]),
    Invocation(TensorOfShape(2, 3), []),
    Invocation(TensorOfShape(), [0]),
    ErrorInvocation(TensorOfShape(2, 3), [0, -2]),
    ErrorInvocation(TensorOfShape(2, 3), [2]),
])
def aten〇flip〡shape(self: List[int], dims: List[int]) -> List[int]:
    _wrap_dims(dims, len(self), "flip")
    return upstream._copy(self)


@shape("aten.roll", invocations=[
    Invocation(TensorOfShape(2, 3), [1]),
    Invocation(TensorOfShape(2, 3), [1, -2], [0, 1]),
    Invocation(TensorOfShape(2, 3), [1], [-1]),
    ErrorInvocation(TensorOfShape(2, 3), []),
    ErrorInvocation(TensorOfShape(2, 3), [1, 2], [0]),
    ErrorInvocation(TensorOfShape(2, 3), [1, 2]),
    ErrorInvocation(TensorOfShape(2, 3), [1], [2]),
])
def aten〇roll〡shape(self: List[int], shifts: List[int], dims: List[int] = ()) -> List[int]:
    if len(shifts) == 0:
        raise AssertionError("roll: `shifts` required")
    if len(dims) == 0 and len(shifts) == 1:
        return upstream._copy(self)
    if len(shifts) != len(dims):
        raise AssertionError("roll: shifts and dimensions must align")
    for d in dims:
        upstream.maybe_wrap_dim(d, len(self))
    return upstream._copy(self)


# --- Strided views ---------------------------------------------------------------------------


@shape("aten.as_strided", "aten.as_strided_copy", invocations=[
    Invocation(TensorOfShape(4, 6), [2, 3], [6, 1]),
    Invocation(TensorOfShape(4, 6), [3, 3], [1, 6], 2),
    Invocation(TensorOfShape(4, 6), [], []),
    Invocation(TensorOfShape(4, 6), [0, 5], [1, 1]),
    ErrorInvocation(TensorOfShape(4, 6), [2, 3], [1]),
    ErrorInvocation(TensorOfShape(4, 6), [2, -3], [1, 1]),
    ErrorInvocation(TensorOfShape(4, 6), [2, 3], [1, -1]),
    ErrorInvocation(TensorOfShape(4, 6), [2, 3], [1, 1], -1),
    ErrorInvocation(TensorOfShape(4, 6), [9223372036854775807, 3], [6, 1]),  # numel past int64
])
def aten〇as_strided〡shape(self: List[int], size: List[int], stride: List[int], storage_offset: Optional[int] = None) -> List[int]:
    # The storage bounds check is left to run time: `self` may view a larger storage.
    if len(size) != len(stride):
        raise AssertionError("as_strided: mismatch in length of strides and shape")
    _check_sizes_non_negative("as_strided", size)
    for s in stride:
        if s < 0:
            raise AssertionError("as_strided: negative strides are not supported")
    if storage_offset is not None and storage_offset < 0:
        raise AssertionError("as_strided: storage offset must be non-negative")
    check_numel_fits("as_strided", size)
    return upstream._copy(size)


# --- Metadata queries: a number result, no shape ---------------------------------------------


_INT_QUERY_CASES = [Invocation(TensorOfShape(2, 3, dtype=d)) for d in DTYPE_SWEEP]
_INT_DIM_QUERY_CASES = [Invocation(TensorOfShape(2, 3, dtype=d), -1) for d in DTYPE_SWEEP] + [
    ErrorInvocation(TensorOfShape(2, 3), 2),
]


@dtype("aten.sym_numel", "aten.sym_storage_offset", "aten.numel", "aten.dim",
       invocations=_INT_QUERY_CASES)
def aten〇sym_numel〡dtype(self_rank_dtype: Tuple[int, int]) -> int:
    return 4  # int64


@dtype("aten.sym_size.int", "aten.sym_stride.int", "aten.size.int",
       invocations=_INT_DIM_QUERY_CASES)
def aten〇sym_size〇int〡dtype(self_rank_dtype: Tuple[int, int], dim: int) -> int:
    upstream.maybe_wrap_dim(dim, self_rank_dtype[0])
    return 4  # int64


# --- Dtype functions: the result has `self`'s dtype ------------------------------------------


keep_self_dtype(
    globals(),
    "aten.alias", "aten.alias_copy", "aten.detach",
    "aten.view", "aten._unsafe_view", "aten.view_copy", "aten.reshape", "aten.view_as",
    "aten.flatten.using_ints", "aten.unflatten.int",
    "aten.squeeze.dim", "aten.squeeze_copy.dim", "aten.squeeze.dims", "aten.squeeze",
    "aten.unsqueeze", "aten.unsqueeze_copy",
    "aten.expand", "aten.expand_copy", "aten.broadcast_to", "aten.expand_as",
    "aten.permute", "aten.permute_copy", "aten.transpose.int", "aten.transpose_copy.int",
    "aten.t", "aten.movedim.int",
    "aten.select.int", "aten.select_copy.int", "aten.slice.Tensor", "aten.slice_copy.Tensor",
    "aten.narrow", "aten.diagonal", "aten.diagonal_copy", "aten.unfold",
    "aten.repeat", "aten.repeat_interleave.self_int", "aten.flip", "aten.roll",
    "aten.as_strided", "aten.as_strided_copy",
)


# --- More views: at-least ranks, flips and rotations, tiling, reshapes -----------------------


@shape("aten.atleast_1d", invocations=[
    Invocation(TensorOfShape()), Invocation(TensorOfShape(3)), Invocation(TensorOfShape(2, 3)),
])
def aten〇atleast_1d〡shape(self: List[int]) -> List[int]:
    if len(self) == 0:
        return [1]
    return upstream._copy(self)


@shape("aten.atleast_2d", invocations=[
    Invocation(TensorOfShape()), Invocation(TensorOfShape(3)), Invocation(TensorOfShape(0)),
    Invocation(TensorOfShape(2, 3)), Invocation(TensorOfShape(2, 3, 4)),
])
def aten〇atleast_2d〡shape(self: List[int]) -> List[int]:
    if len(self) == 0:
        return [1, 1]
    if len(self) == 1:
        return [1, self[0]]
    return upstream._copy(self)


def _check_rank_at_least(op: str, self: List[int], rank: int) -> None:
    if len(self) < rank:
        raise AssertionError(f"{op}: input must be >= {rank}-d")


@shape("aten.fliplr", invocations=[
    Invocation(TensorOfShape(2, 3)), Invocation(TensorOfShape(2, 3, 4)),
    ErrorInvocation(TensorOfShape(3)), ErrorInvocation(TensorOfShape()),
])
def aten〇fliplr〡shape(self: List[int]) -> List[int]:
    _check_rank_at_least("fliplr", self, 2)
    return upstream._copy(self)


@shape("aten.flipud", invocations=[
    Invocation(TensorOfShape(3)), Invocation(TensorOfShape(2, 3)), Invocation(TensorOfShape(0)),
    ErrorInvocation(TensorOfShape()),
])
def aten〇flipud〡shape(self: List[int]) -> List[int]:
    _check_rank_at_least("flipud", self, 1)
    return upstream._copy(self)


@shape("aten.rot90", invocations=[
    Invocation(TensorOfShape(2, 3)),
    Invocation(TensorOfShape(2, 3), 2),
    Invocation(TensorOfShape(2, 3, 4), -1, [2, 0]),
    Invocation(TensorOfShape(2, 3, 4), 0, [0, 2]),
    Invocation(TensorOfShape(2, 3, 4), 4, [0, 2]),
    Invocation(TensorOfShape(2, 3, 4), 5, [-1, 1]),
    Invocation(TensorOfShape(2, 3, 4), -7, [0, 1]),
    ErrorInvocation(TensorOfShape(3)),
    ErrorInvocation(TensorOfShape(2, 3, 4), 1, [0, 1, 2]),
    ErrorInvocation(TensorOfShape(2, 3, 4), 1, [1, 1]),
    ErrorInvocation(TensorOfShape(2, 3, 4), 1, [-1, 2]),
    ErrorInvocation(TensorOfShape(2, 3, 4), 1, [0, 3]),
])
def aten〇rot90〡shape(self: List[int], k: int = 1, dims: List[int] = (0, 1)) -> List[int]:
    if len(dims) != 2:
        raise AssertionError("rot90: expected total rotation dims == 2")
    _check_rank_at_least("rot90", self, 2)
    wrapped = _wrap_dims(dims, len(self), "rot90")
    out = upstream._copy(self)
    # Written so that C's remainder (the Torch dialect's folder: -1 % 4 == -1) agrees too.
    turns = (k % 4 + 4) % 4
    if turns == 1 or turns == 3:  # a quarter turn swaps the two sizes
        out[wrapped[0]] = self[wrapped[1]]
        out[wrapped[1]] = self[wrapped[0]]
    return out


@shape("aten.tile", invocations=[
    Invocation(TensorOfShape(2, 3), [2]),
    Invocation(TensorOfShape(2, 3), [2, 1, 3]),
    Invocation(TensorOfShape(2, 3), []),
    Invocation(TensorOfShape(), [2, 3]),
    Invocation(TensorOfShape(), []),
    Invocation(TensorOfShape(2, 3, 4), [0, 2]),
    ErrorInvocation(TensorOfShape(2, 3), [-1]),
    ErrorInvocation(TensorOfShape(2, 3), [2, 1, 9223372036854775807]),
    ErrorInvocation(TensorOfShape(2, 3), [3037000500, 3037000500]),
])
def aten〇tile〡shape(self: List[int], dims: List[int]) -> List[int]:
    # Fewer dims than `self` has are padded with leading ones; then it is `repeat`.
    repeats: List[int] = []
    for _ in range(len(self) - len(dims)):
        repeats.append(1)
    return aten〇repeat〡shape(self, repeats + dims)


@shape("aten.numpy_T", invocations=[
    Invocation(TensorOfShape(2, 3)), Invocation(TensorOfShape(2, 3, 4)),
    Invocation(TensorOfShape(3)), Invocation(TensorOfShape()),
])
def aten〇numpy_T〡shape(self: List[int]) -> List[int]:
    out: List[int] = []
    for i in range(len(self) - 1, -1, -1):
        out.append(self[i])
    return out


@shape("aten.reshape_as", invocations=[
    Invocation(TensorOfShape(2, 3), TensorOfShape(3, 2)),
    Invocation(TensorOfShape(2, 3), TensorOfShape(6)),
    Invocation(TensorOfShape(1), TensorOfShape()),
    ErrorInvocation(TensorOfShape(2, 3), TensorOfShape(3, 3)),
])
def aten〇reshape_as〡shape(self: List[int], other: List[int]) -> List[int]:
    return _view(self, other)


@shape("aten._reshape_alias", invocations=[
    Invocation(TensorOfShape(2, 3), [3, 2], [2, 1]),
    Invocation(TensorOfShape(2, 3), [6], [1]),
    Invocation(TensorOfShape(2, 3), [], []),
    ErrorInvocation(TensorOfShape(2, 3), [-1, 2], [2, 1]),
    ErrorInvocation(TensorOfShape(2, 3), [3, 2], [1]),
    Invocation(TensorOfShape(5, 3), [3, 2], [-2**62, 1]),
    ErrorInvocation(TensorOfShape(5, 3), [3, 2], [-2**62 - 1, 1]),
    ErrorInvocation(TensorOfShape(3, 3), [3, 2**62], [2, 1]),  # numel past int64
])
def aten〇_reshape_alias〡shape(self: List[int], size: List[int], stride: List[int]) -> List[int]:
    # A view with the given sizes and strides: like as_strided, no numel check.
    if len(size) != len(stride):
        raise AssertionError("_reshape_alias: dimensionality of sizes must match "
                             "dimensionality of strides")
    _check_sizes_non_negative("_reshape_alias", size)
    check_symint_values("_reshape_alias", stride)
    check_numel_fits("_reshape_alias", size)
    return upstream._copy(size)


def _narrow_length(self: List[int], dim: int, length: int) -> List[int]:
    """narrow's result when the start is unknown: `length` must fit in the dim anyway."""
    if len(self) == 0:
        raise AssertionError("narrow: cannot be applied to a 0-dim tensor")
    dim = upstream.maybe_wrap_dim(dim, len(self))
    if length < 0:
        raise AssertionError("narrow: length must be non-negative")
    if length > self[dim]:
        raise AssertionError("narrow: start + length exceeds the dimension size")
    out = upstream._copy(self)
    out[dim] = length
    return out


# The start tensor is read with .item(), so these cases run on CPU (all-one tensors: start 1).
@shape("aten.narrow.Tensor", invocations=[
    KernelInvocation(TensorOfShape(5, 3), 0, LongTensorOfShape(), 2),
    KernelInvocation(TensorOfShape(5, 3), -1, LongTensorOfShape(), 2),
    KernelInvocation(TensorOfShape(5, 3), 0, LongTensorOfShape(), 0),
    KernelErrorInvocation(TensorOfShape(5, 3), 0, LongTensorOfShape(), 6),
    KernelErrorInvocation(TensorOfShape(5, 3), 0, LongTensorOfShape(), -1),
    KernelErrorInvocation(TensorOfShape(5, 3), 2, LongTensorOfShape(), 1),
    KernelErrorInvocation(TensorOfShape(5, 3), 0, LongTensorOfShape(1), 2),
    KernelErrorInvocation(TensorOfShape(), 0, LongTensorOfShape(), 1),
])
def aten〇narrow〇Tensor〡shape(self: List[int], dim: int, start: List[int], length: int) -> List[int]:
    if len(start) != 0:
        raise AssertionError("narrow: start must be a 0-dim integral Tensor")
    return _narrow_length(self, dim, length)


@dtype("aten.narrow.Tensor", invocations=[
    KernelInvocation(TensorOfShape(5, 3, dtype=d), 0, LongTensorOfShape(), 2) for d in DTYPE_SWEEP
] + [
    KernelInvocation(TensorOfShape(5, 3), 0, TensorOfShape(dtype=d), 2)
    for d in (torch.int32, torch.uint8)
] + [
    KernelErrorInvocation(TensorOfShape(5, 3), 0, TensorOfShape(dtype=d), 2)
    for d in (torch.float32, torch.bool)
])
def aten〇narrow〇Tensor〡dtype(self_rank_dtype: Tuple[int, int], dim: int, start_rank_dtype: Tuple[int, int], length: int) -> int:
    if not is_integer_dtype(start_rank_dtype[1]):
        raise AssertionError("narrow: start must be a 0-dim integral Tensor")
    return self_rank_dtype[1]


@shape("aten.diag", invocations=[
    Invocation(TensorOfShape(3)),
    Invocation(TensorOfShape(3), -1),
    Invocation(TensorOfShape(3), 5),
    Invocation(TensorOfShape(0)),
    Invocation(TensorOfShape(2, 3)),
    Invocation(TensorOfShape(2, 3), 1),
    Invocation(TensorOfShape(2, 3), -1),
    Invocation(TensorOfShape(2, 3), 5),
    Invocation(TensorOfShape(2, 3), -5),
    ErrorInvocation(TensorOfShape()),
    ErrorInvocation(TensorOfShape(2, 3, 4)),
    ErrorInvocation(TensorOfShape(2), -4611686018427387904),
    ErrorInvocation(TensorOfShape(2), 3037000499),
])
def aten〇diag〡shape(self: List[int], diagonal: int = 0) -> List[int]:
    if len(self) == 1:
        # size**2 from |diagonal| alone past int64 (3037000499**2 is the last square that
        # fits): an error whatever the size, which a numel check over `?` would not decide.
        if max(diagonal, -diagonal) > 3037000499:
            raise AssertionError("diag: the square of the diagonal's offset overflows int64")
        size = self[0] + max(diagonal, -diagonal)
        check_numel_fits("diag", [size, size])
        return [size, size]
    if len(self) == 2:
        return aten〇diagonal〡shape(self, diagonal)
    raise AssertionError("diag: supports 1D or 2D tensors")


@shape("aten.diag_embed", invocations=[
    Invocation(TensorOfShape(3)),
    ErrorInvocation(TensorOfShape(2, 3), 4611686018427387904),  # numel past int64
    ErrorInvocation(TensorOfShape(0, 3), -9223372036854775808),
    Invocation(TensorOfShape(2, 3)),
    Invocation(TensorOfShape(2, 3), 2, 0, 2),
    Invocation(TensorOfShape(2, 3), -1, 0, 2),
    Invocation(TensorOfShape(2, 3, 4), -1, 2, 0),
    Invocation(TensorOfShape(0)),
    ErrorInvocation(TensorOfShape()),
    ErrorInvocation(TensorOfShape(2, 3), 0, 1, 1),
    ErrorInvocation(TensorOfShape(2, 3), 0, 1, -2),
    ErrorInvocation(TensorOfShape(2, 3), 0, 0, 3),
])
def aten〇diag_embed〡shape(self: List[int], offset: int = 0, dim1: int = -2, dim2: int = -1) -> List[int]:
    # The last dim becomes a diagonal of the plane (dim1, dim2) of a result one rank higher.
    rank = len(self) + 1
    d1 = upstream.maybe_wrap_dim(dim1, rank)
    d2 = upstream.maybe_wrap_dim(dim2, rank)
    if d1 == d2:
        raise AssertionError("diag_embed: diagonal dimensions cannot be identical")
    # PyTorch's sizes are exact ints: |-2**63| is past int64 whatever the input (TorchScript
    # would wrap it around to a negative size).
    if offset < -9223372036854775807:
        raise AssertionError("diag_embed: the diagonal's size overflows int64")
    size = self[-1] + max(offset, -offset)
    out: List[int] = []
    kept = 0
    for i in range(rank):
        if i == d1 or i == d2:
            out.append(size)
        else:
            out.append(self[kept])
            kept += 1
    check_numel_fits("diag_embed", out)
    return out


keep_self_dtype(
    globals(),
    "aten.atleast_1d", "aten.atleast_2d", "aten.fliplr", "aten.flipud", "aten.rot90",
    "aten.tile", "aten.numpy_T", "aten.reshape_as", "aten._reshape_alias", "aten.diag",
    "aten.diag_embed",
)


# --- More lists of tensors: broadcast_tensors, hstack, column_stack --------------------------


@shape("aten.broadcast_tensors", invocations=[
    Invocation([TensorOfShape(2, 1), TensorOfShape(3), TensorOfShape()]),
    Invocation([TensorOfShape(2, 3)]),
    Invocation([TensorOfShape(0, 1), TensorOfShape(4)]),
    Invocation([]),
    ErrorInvocation([TensorOfShape(2), TensorOfShape(3)]),
])
def aten〇broadcast_tensors〡shape(tensors: List[List[int]]) -> List[List[int]]:
    shape_ = broadcast_shapes(tensors)
    out: List[List[int]] = []
    for _ in tensors:
        out.append(upstream._copy(shape_))
    return out


@dtype("aten.broadcast_tensors", invocations=[
    Invocation([TensorOfShape(2, 1, dtype=a), TensorOfShape(3, dtype=b)])
    for a in DTYPE_SWEEP for b in (torch.int32, torch.float64, torch.bool)
] + [Invocation([])])
def aten〇broadcast_tensors〡dtype(tensors_rank_dtype: List[Tuple[int, int]]) -> List[int]:
    # Each tensor keeps its own dtype.
    dtypes: List[int] = []
    for _, dtype_ in tensors_rank_dtype:
        dtypes.append(dtype_)
    return dtypes


def _check_non_empty(op: str, tensors: List[List[int]]) -> None:
    if len(tensors) == 0:
        raise AssertionError(op + ": expects a non-empty TensorList")


@shape("aten.hstack", invocations=[
    Invocation([TensorOfShape(3), TensorOfShape(4)]),
    Invocation([TensorOfShape(), TensorOfShape()]),
    Invocation([TensorOfShape(), TensorOfShape(2)]),
    Invocation([TensorOfShape(2, 3), TensorOfShape(2, 1)]),
    Invocation([TensorOfShape(2, 3, 4), TensorOfShape(2, 1, 4)]),
    Invocation([TensorOfShape(0), TensorOfShape(2, 3)]),
    ErrorInvocation([TensorOfShape(3), TensorOfShape(3, 2)]),
    ErrorInvocation([TensorOfShape(2, 3), TensorOfShape(3)]),
    ErrorInvocation([]),
])
def aten〇hstack〡shape(tensors: List[List[int]]) -> List[int]:
    _check_non_empty("hstack", tensors)
    at_least_1d: List[List[int]] = []
    for t in tensors:
        at_least_1d.append(t if len(t) > 0 else [1])
    # 1-D tensors concatenate along their only dim, others along the second.
    return upstream.cat(at_least_1d, 0 if len(at_least_1d[0]) == 1 else 1)


@shape("aten.column_stack", invocations=[
    Invocation([TensorOfShape(3), TensorOfShape(3)]),
    Invocation([TensorOfShape(), TensorOfShape()]),
    Invocation([TensorOfShape(2, 3), TensorOfShape(2, 1)]),
    Invocation([TensorOfShape(2, 3), TensorOfShape(2)]),
    Invocation([TensorOfShape(3), TensorOfShape(3, 2)]),
    Invocation([TensorOfShape(2, 3, 4), TensorOfShape(2, 1, 4)]),
    ErrorInvocation([TensorOfShape(3), TensorOfShape(4)]),
    ErrorInvocation([TensorOfShape(), TensorOfShape(2)]),
    ErrorInvocation([TensorOfShape(0), TensorOfShape(2, 3)]),
    ErrorInvocation([]),
])
def aten〇column_stack〡shape(tensors: List[List[int]]) -> List[int]:
    _check_non_empty("column_stack", tensors)
    columns: List[List[int]] = []
    for t in tensors:  # a tensor of rank 0 or 1 becomes one column
        columns.append([upstream.numel(t), 1] if len(t) <= 1 else t)
    return upstream.cat(columns, 1)


def _stack_dtype(op: str, tensors_rank_dtype: List[Tuple[int, int]]) -> int:
    """cat's promotion after atleast_1d: a zero-rank tensor promotes as a dimensioned one."""
    if len(tensors_rank_dtype) == 0:
        raise AssertionError(op + ": expects a non-empty TensorList")
    ranks: List[Optional[int]] = []
    dtypes: List[int] = []
    for rank, dtype_ in tensors_rank_dtype:
        ranks.append(max(rank, 1))
        dtypes.append(dtype_)
    return elementwise_dtype(0, ranks, dtypes)  # 0: DEFAULT promotion


_STACK_DTYPE_CASES = [
    Invocation([TensorOfShape(3, dtype=a), TensorOfShape(3, dtype=b)])
    for a in DTYPE_SWEEP for b in DTYPE_SWEEP
] + [
    Invocation([TensorOfShape(dtype=torch.float32), TensorOfShape(dtype=torch.int32)]),
    Invocation([TensorOfShape(dtype=torch.float64), TensorOfShape(1, dtype=torch.float32)]),
    ErrorInvocation([]),
]


@dtype("aten.hstack", invocations=_STACK_DTYPE_CASES)
def aten〇hstack〡dtype(tensors_rank_dtype: List[Tuple[int, int]]) -> int:
    return _stack_dtype("hstack", tensors_rank_dtype)


@dtype("aten.column_stack", invocations=_STACK_DTYPE_CASES)
def aten〇column_stack〡dtype(tensors_rank_dtype: List[Tuple[int, int]]) -> int:
    return _stack_dtype("column_stack", tensors_rank_dtype)
