"""TorchScript-able helpers shared by the library's families.

Shape helpers reuse `torch.jit._shape_functions` where it has the rule; dtype helpers
build on `promotion`. Everything here is scripted into the embedded library.
"""

from typing import List, Optional, Tuple, Union

import torch
import torch.jit._shape_functions as upstream

from .promotion import apply_promotion_kind, promote_dtypes


def scalar_dtype(value: Union[int, float, complex]) -> int:
    """The dtype code of a Python number: int64, float64, complex128 or bool."""
    return torch.ops.prim.NumToTensor(value).dtype


def broadcast_shapes(shapes: List[List[int]]) -> List[int]:
    result: List[int] = []
    if len(shapes) < 2:
        for shape in shapes:
            result = upstream.broadcast(result, shape)
        return result
    # Not from [] on: that broadcast copies the first shape by a loop over its rank, which
    # a shape of unknown rank keeps in a check.
    result = upstream.broadcast(shapes[0], shapes[1])
    for index in range(2, len(shapes)):
        result = upstream.broadcast(result, shapes[index])
    return result


def check_broadcasts_to(shape: List[int], target: List[int], message: str) -> None:
    """Raise `message` unless `shape` broadcasts to `target` unchanged (what
    `upstream.broadcast(shape, target) == target` tests): no more dims, each trailing one 1
    or the target's. One comparison per dim of `shape`, so the check of a shape of unknown
    rank is a loop of at most `len(target)` steps that builds nothing."""
    rank = len(shape)
    if rank > len(target):
        raise AssertionError(message)
    offset = len(target) - rank
    for i in range(rank):
        size = shape[i]
        if size != 1 and size != target[offset + i]:
            raise AssertionError(message)


def check_broadcast_padded(shape: List[int], other: List[int], rank: int) -> None:
    """The checks of `upstream.broadcast(shape, other + [1] * (rank - len(other)))` (a
    statistic or parameter unsqueezed at the end, then broadcast), without building the
    padded list: a check of an `other` of unknown rank is one loop that builds nothing."""
    padded = max(len(other), rank)
    total = max(len(shape), padded)
    for i in range(total):
        a = shape[len(shape) - 1 - i] if i < len(shape) else 1
        j = padded - 1 - i
        b = other[j] if 0 <= j and j < len(other) else 1
        if a != b and a != 1 and b != 1:
            raise AssertionError(f"The size of tensor a ({a}) must match the size of tensor b ({b}) "
                                 f"at non-singleton dimension {total - 1 - i}")


def _product_overflows(sizes: List[int], itemsize: int) -> bool:
    """Whether `itemsize` times the product of non-negative `sizes` surely exceeds the
    int64 maximum, where PyTorch's size checks raise.

    In floats first: the rounding of the product is at most ~2**-46 of it over 64 dims, so
    a float product below 2**63 - 2**23 is surely within and one at or above 2**63 + 2**23
    surely past; between the two the integer product decides. It is below 2**64 there, so
    where int64 multiplication wraps (TorchScript) a product past the maximum is negative,
    and where it does not (Python) it is past the maximum. Sizes with a 0 pass too, though
    PyTorch also raises where the product before the 0 wrapped around 2**64: checking that
    costs a guard many times this size on every dynamic shape, for sizes no program has."""
    product = float(itemsize)
    for size in sizes:
        product = product * float(size)
    if product < 9223372036846387200.0:  # 2**63 - 2**23
        return False
    if product >= 9223372036863164416.0:  # 2**63 + 2**23
        return True
    exact = itemsize
    for size in sizes:
        exact = exact * size
    return exact < 0 or exact > 9223372036854775807


def dtype_itemsize(dtype: int) -> int:
    """Bytes per element of a dtype code; 1 for codes not listed, a lower bound, so that
    size checks using it never refuse what PyTorch accepts."""
    if dtype == 10:  # complex128
        return 16
    if dtype == 4 or dtype == 7 or dtype == 9 or dtype == 29:  # int64, float64, complex64, uint64
        return 8
    if dtype == 3 or dtype == 6 or dtype == 8 or dtype == 28:  # int32, float32, complex32, uint32
        return 4
    if dtype == 2 or dtype == 5 or dtype == 15 or dtype == 27:  # int16, float16, bfloat16, uint16
        return 2
    return 1


def check_numel_fits(op: str, sizes: List[int], itemsize: int = 1) -> None:
    """PyTorch's overflow check of a tensor's sizes (c10::safe_compute_numel; with the
    element size, computeStorageNbytesContiguous of a new tensor), see _product_overflows."""
    if _product_overflows(sizes, itemsize):
        raise AssertionError(op + ": storage size calculation overflowed")


def padded_size(op: str, size: int, before: int, after: int) -> int:
    """`size + before + after` of a padded dim, an error where it is negative or past the
    int64 maximum. PyTorch adds exactly; TorchScript's int64 would wrap, even back to a
    plausible size ([3] padded by 2**63 - 1 twice would be [1]). `size` is non-negative, so
    no bound below wraps."""
    if before > 9223372036854775807 - size:
        raise AssertionError(op + ": the padded size is past the int64 maximum")
    partial = size + before
    if after > 0 and partial > 9223372036854775807 - after:
        raise AssertionError(op + ": the padded size is past the int64 maximum")
    if after < 0 and partial < -9223372036854775807 - 1 - after:
        raise AssertionError(op + ": the padding results in a negative output size")
    padded = partial + after
    if padded < 0:
        raise AssertionError(op + ": the padding results in a negative output size")
    return padded


def check_symint_values(op: str, values: List[int]) -> None:
    """Int lists of SymInt[] arguments hold no value below -2**62 (the range c10::SymInt
    keeps for symbolic ones): PyTorch raises on them."""
    for value in values:
        if value < -4611686018427387904:
            raise AssertionError(op + ": an int that cannot be represented as a SymInt")


def check_fft_dims(op: str, shape: List[int], dim: List[int]) -> None:
    """The transformed dims of an FFT: in range, each once (the meta kernels permute by them),
    none empty."""
    seen: List[int] = []
    for d in dim:
        wrapped = upstream.maybe_wrap_dim(d, len(shape))
        if wrapped in seen:
            raise AssertionError(op + ": a transformed dim is repeated")
        seen.append(wrapped)
        if shape[wrapped] == 0:
            raise AssertionError(op + ": invalid number of data points (0) in a transformed dim")


def check_contiguous_strides_fit(op: str, sizes: List[int]) -> None:
    """The contiguous strides of a new tensor (products of the later sizes, 0 counting as
    1) must fit in int64."""
    later: List[int] = []
    for i in range(1, len(sizes)):
        later.append(max(sizes[i], 1))
    if _product_overflows(later, 1):
        raise AssertionError(op + ": stride calculation overflowed")


def elementwise_dtype(
    kind: int, ranks: List[Optional[int]], dtypes: List[int]
) -> int:
    """The result dtype of an elementwise op of the given promotion kind."""
    return apply_promotion_kind(kind, promote_dtypes(ranks, dtypes))


def rank_dtype_lists(
    tensors: List[Tuple[int, int]],
) -> Tuple[List[Optional[int]], List[int]]:
    ranks: List[Optional[int]] = []
    dtypes: List[int] = []
    for rank, dtype in tensors:
        ranks.append(rank)
        dtypes.append(dtype)
    return ranks, dtypes


def check_dtypes_not_bool(dtypes: List[int]) -> None:
    for dtype in dtypes:
        if dtype == 11:
            raise AssertionError("the operation does not support bool tensors")


def unknown_dim() -> int:
    """A size PyTorch computes from the tensor data (nonzero's count, unique's length).

    Run as Python or TorchScript it is -1, a value no size takes, so tests can tell it from
    every computed size. The importer lowers each call to `torch.prim.Uninitialized :
    !torch.int`: an int no folder or pattern decides, so the refined dim is `?` and a check
    comparing it stays undecided. Every call is its own unknown; never compare two of them
    (CSE, which the refinement passes do not run, would merge them into one value).
    """
    return -1


def unknown_dtype() -> int:
    """A dtype PyTorch decides from sizes, which a dtype function does not see (the dtype of
    an einsum that sums integers). Like `unknown_dim`: -1 when run, and
    `torch.prim.Uninitialized : !torch.int` when imported, so the dtype stays unknown."""
    return -1
