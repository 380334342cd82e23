"""Dtype codes and PyTorch's type promotion, as data.

Pure Python with no `import torch`: the simplify passes evaluate `torch.promote_dtypes`
with `promote_dtypes` below, and the library's TorchScript functions call it too (the
importer lowers that call to the `torch.promote_dtypes` op). So there is one definition
of promotion, tested against `torch.result_type`.

Dtype codes are c10::ScalarType values, which is how TorchScript represents `torch.dtype`.
TorchScript cannot read module globals, so function bodies spell the codes as literals
(the named constants above say which is which).
"""

from typing import List, Optional

UINT8 = 0
INT8 = 1
INT16 = 2
INT32 = 3
INT64 = 4
FLOAT16 = 5
FLOAT32 = 6
FLOAT64 = 7
COMPLEX32 = 8
COMPLEX64 = 9
COMPLEX128 = 10
BOOL = 11
BFLOAT16 = 15

# The elementwise promotion kinds of torch._prims_common.ELEMENTWISE_TYPE_PROMOTION_KIND.
DEFAULT = 0
NO_OPMATH = 1
INT_TO_FLOAT = 2
ALWAYS_BOOL = 3
COMPLEX_TO_FLOAT = 4
BOOL_TO_LONG = 5


def _slot(dtype: int) -> int:
    """Row of `dtype` in the promotion table: codes 0..11 map to themselves, bfloat16 to 12."""
    if dtype >= 0 and dtype <= 11:
        return dtype
    if dtype == 15:
        return 12
    raise AssertionError("type promotion is not defined for this dtype")


def promote_types(a: int, b: int) -> int:
    """torch.promote_types on dtype codes (c10's promoteTypes lattice)."""
    table = [
        [0, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 15],
        [2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 15],
        [2, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 2, 15],
        [3, 3, 3, 3, 4, 5, 6, 7, 8, 9, 10, 3, 15],
        [4, 4, 4, 4, 4, 5, 6, 7, 8, 9, 10, 4, 15],
        [5, 5, 5, 5, 5, 5, 6, 7, 8, 9, 10, 5, 6],
        [6, 6, 6, 6, 6, 6, 6, 7, 9, 9, 10, 6, 6],
        [7, 7, 7, 7, 7, 7, 7, 7, 10, 10, 10, 7, 7],
        [8, 8, 8, 8, 8, 8, 9, 10, 8, 9, 10, 8, 9],
        [9, 9, 9, 9, 9, 9, 9, 10, 9, 9, 10, 9, 9],
        [10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10],
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15],
        [15, 15, 15, 15, 15, 6, 6, 7, 9, 9, 10, 15, 15],
    ]
    if a == b:
        return a
    return table[_slot(a)][_slot(b)]


def is_complex_dtype(dtype: int) -> bool:
    return dtype == 8 or dtype == 9 or dtype == 10


def is_float_dtype(dtype: int) -> bool:
    return dtype == 5 or dtype == 6 or dtype == 7 or dtype == 15


def is_integer_dtype(dtype: int) -> bool:
    """Integral, bool excluded."""
    return dtype >= 0 and dtype <= 4


def _combine_categories(higher: int, lower: int) -> int:
    """c10's combine_categories; -1 stands for 'no value in this category'."""
    if higher == -1:
        return lower
    if lower == -1:
        return higher
    if is_complex_dtype(higher):
        return higher
    if is_complex_dtype(lower):
        if is_float_dtype(higher):
            return to_complex_dtype(higher)
        return lower
    if is_float_dtype(higher):
        return higher
    if higher == 11 or is_float_dtype(lower):
        return promote_types(higher, lower)
    return higher


def to_complex_dtype(dtype: int) -> int:
    if dtype == 5:
        return 8
    if dtype == 7:
        return 10
    return 9


def to_real_dtype(dtype: int) -> int:
    if dtype == 8:
        return 5
    if dtype == 10:
        return 7
    if dtype == 9:
        return 6
    return dtype


def _promote_into(current: int, dtype: int) -> int:
    if current == -1:
        return dtype
    return promote_types(current, dtype)


def promote_dtypes(ranks: List[Optional[int]], dtypes: List[int]) -> int:
    """torch.result_type over tensors (rank) and Python scalars (rank None).

    Three categories promote separately and then combine: tensors of rank > 0, zero-rank
    tensors, and scalars (a float scalar counts as the default float dtype, float32).
    """
    dim_result = -1
    zero_result = -1
    scalar_result = -1
    for i in range(len(ranks)):
        rank = ranks[i]
        dtype = dtypes[i]
        if rank is None:
            if is_complex_dtype(dtype):
                dtype = 9
            elif is_float_dtype(dtype):
                dtype = 6
            scalar_result = _promote_into(scalar_result, dtype)
        elif rank == 0:
            zero_result = _promote_into(zero_result, dtype)
        else:
            dim_result = _promote_into(dim_result, dtype)
    return _combine_categories(dim_result, _combine_categories(zero_result, scalar_result))


def apply_promotion_kind(kind: int, dtype: int) -> int:
    """The result dtype of an elementwise op of promotion `kind` computing in `dtype`."""
    if kind == 3:
        return 11
    if kind == 2 and (is_integer_dtype(dtype) or dtype == 11):
        return 6
    if kind == 4:
        return to_real_dtype(dtype)
    if kind == 5 and dtype == 11:
        return 4
    return dtype
