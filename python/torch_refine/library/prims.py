"""PyTorch's primitives (`prims.*`) that torch-mlir's library covers: views that keep the
dtype, reductions over a list of dims (no `keepdim`, no dim wrapping: prims take dims in
`[0, rank)`), `convert_element_type`, `iota` and `sqrt`. `squeeze` alone wraps a negative
dim, as torch-mlir's decomposition does (its ONNX conversion writes them).

Verified on meta tensors, whose prims kernels are the reference (`torch/_prims/__init__.py`).
"""

from typing import List, Optional, Tuple

import torch
from torch import device

from .promotion import to_real_dtype
from .registry import dtype, shape
from .testing import ErrorInvocation, Invocation, TensorOfShape, TorchMlirInvocation, torch_mlir_meaning

# --- Family-private helpers (TorchScript) ----------------------------------------------------


def _check_index(index: int, rank: int) -> None:
    """prims' bounds check: an index in [0, rank), where a 0-d tensor counts as rank 1."""
    bound = rank if rank > 0 else 1
    if index < 0 or index >= bound:
        raise AssertionError("prims: index out of bounds for the tensor's rank")


def _reduced(inp: List[int], dims: Optional[List[int]]) -> List[int]:
    """The sizes left after removing `dims` (each listed once or more)."""
    if dims is None:
        raise AssertionError("prims reductions: dims must be a list")
    for d in dims:
        _check_index(d, len(inp))
    out: List[int] = []
    for i in range(len(inp)):
        if i not in dims:
            out.append(inp[i])
    return out


def _reduced_dtype(inp_dtype: int, output_dtype: Optional[int]) -> int:
    if output_dtype is not None:
        return output_dtype
    return inp_dtype


# --- Views ----------------------------------------------------------------------------------


@shape("prims.collapse", invocations=[
    Invocation(TensorOfShape(2, 3, 4, 5), 1, 2),
    Invocation(TensorOfShape(2, 3, 4, 5), 0, 3),
    Invocation(TensorOfShape(2, 3, 4, 5), 2, 2),
    Invocation(TensorOfShape(), 0, 0),
    ErrorInvocation(TensorOfShape(2, 3, 4, 5), 2, 1),
    ErrorInvocation(TensorOfShape(2, 3, 4, 5), 1, 4),
    ErrorInvocation(TensorOfShape(2, 3, 4, 5), -2, -1),
])
def prims〇collapse〡shape(a: List[int], start: int, end: int) -> List[int]:
    _check_index(start, len(a))
    _check_index(end, len(a))
    if end < start:
        raise AssertionError("prims.collapse: end is less than start")
    if len(a) == 0:
        return [1]
    length = 1
    for i in range(start, end + 1):
        length *= a[i]
    return a[:start] + [length] + a[end + 1:]


@shape("prims.split_dim", invocations=[
    Invocation(TensorOfShape(2, 6, 4), 1, 2),
    Invocation(TensorOfShape(2, 6, 4), 2, 1),
    Invocation(TensorOfShape(2, 6, 4), 1, 6),
    ErrorInvocation(TensorOfShape(2, 6, 4), 1, 4),
    ErrorInvocation(TensorOfShape(2, 6, 4), -2, 2),
    ErrorInvocation(TensorOfShape(2, 6, 4), 3, 2),
])
def prims〇split_dim〡shape(a: List[int], dim: int, outer_length: int) -> List[int]:
    _check_index(dim, len(a))
    if outer_length <= 0 or a[dim] % outer_length != 0:
        raise AssertionError("prims.split_dim: the outer length does not divide the dimension")
    return a[:dim] + [outer_length, a[dim] // outer_length] + a[dim + 1:]


@torch_mlir_meaning("prims.squeeze")
def _squeeze_wrapping(a: torch.Tensor, dimensions: List[int]) -> torch.Tensor:
    """prims.squeeze as torch-mlir decomposes it: a negative dim counts from the end (its
    ONNX Squeeze conversion writes such dims; PyTorch's prim rejects them)."""
    return torch.ops.prims.squeeze(a, [d + a.dim() if d < 0 else d for d in dimensions])


@shape("prims.squeeze", invocations=[
    Invocation(TensorOfShape(2, 1, 3, 1), [1, 3]),
    Invocation(TensorOfShape(2, 1, 3, 1), [1, 1]),
    Invocation(TensorOfShape(2, 1, 3, 1), []),
    TorchMlirInvocation(TensorOfShape(2, 1, 3, 1), [-1]),
    TorchMlirInvocation(TensorOfShape(1, 5, 1, 1, 8), [-2, 0]),
    ErrorInvocation(TensorOfShape(2, 1, 3, 1), [0]),
    ErrorInvocation(TensorOfShape(2, 1, 3, 1), [-2]),
    ErrorInvocation(TensorOfShape(2, 1, 3, 1), [-5]),
    ErrorInvocation(TensorOfShape(2, 1, 3, 1), [4]),
])
def prims〇squeeze〡shape(a: List[int], dimensions: List[int]) -> List[int]:
    # PyTorch's prim takes dims in [0, rank); torch-mlir's decomposition wraps a negative one.
    dims: List[int] = []
    for d in dimensions:
        dims.append(d + len(a) if d < 0 else d)
    for d in dims:
        _check_index(d, len(a))
        if a[d] != 1:
            raise AssertionError("prims.squeeze: cannot squeeze a dimension whose size is not 1")
    return _reduced(a, dims)


@shape("prims.view_of", invocations=[
    Invocation(TensorOfShape(2, 3)),
    Invocation(TensorOfShape()),
])
def prims〇view_of〡shape(a: List[int]) -> List[int]:
    return a


@dtype("prims.collapse", invocations=[
    Invocation(TensorOfShape(2, 3, dtype=torch.int32), 0, 1),
    Invocation(TensorOfShape(2, 3, dtype=torch.bool), 0, 1),
])
def prims〇collapse〡dtype(a_rank_dtype: Tuple[int, int], start: int, end: int) -> int:
    return a_rank_dtype[1]


@dtype("prims.split_dim", invocations=[
    Invocation(TensorOfShape(2, 6, dtype=torch.float16), 1, 2),
])
def prims〇split_dim〡dtype(a_rank_dtype: Tuple[int, int], dim: int, outer_length: int) -> int:
    return a_rank_dtype[1]


@dtype("prims.squeeze", invocations=[
    Invocation(TensorOfShape(2, 1, dtype=torch.complex64), [1]),
])
def prims〇squeeze〡dtype(a_rank_dtype: Tuple[int, int], dimensions: List[int]) -> int:
    return a_rank_dtype[1]


@dtype("prims.view_of", invocations=[
    Invocation(TensorOfShape(2, 3, dtype=torch.int64)),
    Invocation(TensorOfShape(2, 3, dtype=torch.bool)),
])
def prims〇view_of〡dtype(a_rank_dtype: Tuple[int, int]) -> int:
    return a_rank_dtype[1]


# --- Elementwise ----------------------------------------------------------------------------


@shape("prims.sqrt", invocations=[
    Invocation(TensorOfShape(2, 3)),
    Invocation(TensorOfShape()),
])
def prims〇sqrt〡shape(self: List[int]) -> List[int]:
    return self


@dtype("prims.sqrt", invocations=[
    Invocation(TensorOfShape(2, 3)),
    Invocation(TensorOfShape(2, 3, dtype=torch.int32)),  # prims do not promote
    Invocation(TensorOfShape(2, 3, dtype=torch.complex64)),
    Invocation(TensorOfShape(2, 3, dtype=torch.bool)),
])
def prims〇sqrt〡dtype(self_rank_dtype: Tuple[int, int]) -> int:
    return self_rank_dtype[1]


@shape("prims.convert_element_type", invocations=[
    Invocation(TensorOfShape(2, 3), torch.int32),
    Invocation(TensorOfShape(), torch.bool),
])
def prims〇convert_element_type〡shape(a: List[int], dtype: int) -> List[int]:
    return a


@dtype("prims.convert_element_type", invocations=[
    Invocation(TensorOfShape(2, 3), torch.int32),
    Invocation(TensorOfShape(2, 3, dtype=torch.int64), torch.float16),
    Invocation(TensorOfShape(2, 3, dtype=torch.complex64), torch.float64),
])
def prims〇convert_element_type〡dtype(a_rank_dtype: Tuple[int, int], dtype: int) -> int:
    return dtype


# --- Creation -------------------------------------------------------------------------------

_META = torch.device("meta")


@shape("prims.iota", invocations=[
    Invocation(5, start=0, step=1, dtype=torch.int64, device=_META, requires_grad=False),
    Invocation(0, start=3, step=-2, dtype=torch.int32, device=_META, requires_grad=False),
    ErrorInvocation(-1, start=0, step=1, dtype=torch.int64, device=_META, requires_grad=False),
    ErrorInvocation(5, start=0, step=0, dtype=torch.int64, device=_META, requires_grad=False),
])
def prims〇iota〡shape(length: int, start: int, step: int, dtype: int, device: device, requires_grad: bool) -> List[int]:
    if length < 0:
        raise AssertionError("prims.iota: negative length")
    if step == 0:
        raise AssertionError("prims.iota: step must be nonzero")
    return [length]


@dtype("prims.iota", invocations=[
    Invocation(5, start=0, step=1, dtype=torch.int64, device=_META, requires_grad=False),
    Invocation(5, start=0, step=1, dtype=torch.uint8, device=_META, requires_grad=False),
    ErrorInvocation(5, start=0, step=1, dtype=torch.float32, device=_META, requires_grad=False),
    ErrorInvocation(5, start=0, step=1, dtype=torch.bool, device=_META, requires_grad=False),
])
def prims〇iota〡dtype(length: int, start: int, step: int, dtype: int, device: device, requires_grad: bool) -> int:
    # uint8, int8, int16, int32, int64 and the unsigned 16/32/64-bit codes.
    if dtype not in [0, 1, 2, 3, 4, 27, 28, 29]:
        raise AssertionError("prims.iota only supports integer dtypes")
    return dtype


# --- Reductions -----------------------------------------------------------------------------


@shape("prims.sum", "prims.prod", invocations=[
    Invocation(TensorOfShape(2, 3, 4), [0, 2]),
    Invocation(TensorOfShape(2, 3, 4), [1, 1]),
    Invocation(TensorOfShape(2, 3, 4), []),
    Invocation(TensorOfShape(2, 3, 4), [0, 1, 2], output_dtype=torch.float64),
    ErrorInvocation(TensorOfShape(2, 3, 4), None),
    ErrorInvocation(TensorOfShape(2, 3, 4), [-1]),
    ErrorInvocation(TensorOfShape(2, 3, 4), [3]),
])
def prims〇sum〡shape(inp: List[int], dims: Optional[List[int]], output_dtype: Optional[int] = None) -> List[int]:
    return _reduced(inp, dims)


@dtype("prims.sum", "prims.prod", invocations=[
    Invocation(TensorOfShape(2, 3), [1]),
    Invocation(TensorOfShape(2, 3, dtype=torch.int32), [1]),
    Invocation(TensorOfShape(2, 3, dtype=torch.bool), [0]),
    Invocation(TensorOfShape(2, 3), [1], output_dtype=torch.float64),
])
def prims〇sum〡dtype(inp_rank_dtype: Tuple[int, int], dims: Optional[List[int]], output_dtype: Optional[int] = None) -> int:
    return _reduced_dtype(inp_rank_dtype[1], output_dtype)


@shape("prims.var", invocations=[
    Invocation(TensorOfShape(2, 3, 4), [1], 1.0),
    Invocation(TensorOfShape(2, 3, 4), [0, 2], None),
    ErrorInvocation(TensorOfShape(2, 3, 4), [3], 1.0),
    ErrorInvocation(TensorOfShape(2, 3, 4), [1], 1.0, output_dtype=torch.float64),
])
def prims〇var〡shape(inp: List[int], dims: Optional[List[int]], correction: Optional[float] = 1, output_dtype: Optional[int] = None) -> List[int]:
    # The prim's meta kernel takes no output_dtype: PyTorch rejects the argument.
    if output_dtype is not None:
        raise AssertionError("prims.var: output_dtype is not supported")
    return _reduced(inp, dims)


@dtype("prims.var", invocations=[
    Invocation(TensorOfShape(2, 3), [1], 1.0),
    Invocation(TensorOfShape(2, 3, dtype=torch.complex64), [1], 1.0),
    Invocation(TensorOfShape(2, 3, dtype=torch.complex128), [1], 0.0),
    Invocation(TensorOfShape(2, 3, dtype=torch.int32), [1], 1.0),
    ErrorInvocation(TensorOfShape(2, 3), [1], 1.0, output_dtype=torch.float64),
])
def prims〇var〡dtype(inp_rank_dtype: Tuple[int, int], dims: Optional[List[int]], correction: Optional[float] = 1, output_dtype: Optional[int] = None) -> int:
    if output_dtype is not None:
        raise AssertionError("prims.var: output_dtype is not supported")
    return to_real_dtype(inp_rank_dtype[1])
