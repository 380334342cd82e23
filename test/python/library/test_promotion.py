"""promotion.promote_dtypes (the one definition the library and the simplify passes share)
against torch.result_type, for every pair of common dtypes and operand categories."""

import itertools

import pytest
import torch

from torch_refine.library import promotion
from torch_refine.library.testing import dtype_code, scalar_dtype

DTYPES = (
    torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16,
    torch.float32, torch.float64, torch.complex64, torch.complex128, torch.bool, torch.bfloat16,
)
RANKS = (None, 0, 1, 2)  # None: a Python scalar


def _operand(rank, dtype):
    if rank is not None:
        return torch.empty([2] * rank, dtype=dtype, device="meta")
    if dtype == torch.bool:
        return True
    if dtype.is_complex:
        return 1.5j
    return 1.5 if dtype.is_floating_point else 3


def _cases():
    for a, b in itertools.product(DTYPES, DTYPES):
        for rank_a, rank_b in itertools.product(RANKS, RANKS):
            if rank_a is None and rank_b is None:
                continue
            yield pytest.param(a, rank_a, b, rank_b, id=f"{a}-{rank_a}-{b}-{rank_b}")


@pytest.fixture(scope="module")
def scripted_promote():
    return torch.jit.script(promotion.promote_dtypes)


@pytest.mark.parametrize(("dtype_a", "rank_a", "dtype_b", "rank_b"), list(_cases()))
def test_promote_dtypes_matches_result_type(scripted_promote, dtype_a, rank_a, dtype_b, rank_b):
    x, y = _operand(rank_a, dtype_a), _operand(rank_b, dtype_b)
    expected = torch.result_type(y, x) if rank_a is None else torch.result_type(x, y)
    codes = [
        dtype_code(v.dtype) if isinstance(v, torch.Tensor) else dtype_code(scalar_dtype(v))
        for v in (x, y)
    ]
    ranks = [rank_a, rank_b]
    assert promotion.promote_dtypes(ranks, codes) == dtype_code(expected)
    assert scripted_promote(ranks, codes) == dtype_code(expected)
