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
    for shape in shapes:
        result = upstream.broadcast(result, shape)
    return result


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
