
from typing import List, Tuple

from torch_refine.library.registry import dtype, shape


@shape("mylib.double_last", signature_check=False)
def mylib〇double_last〡shape(self: List[int]) -> List[int]:
    assert len(self) >= 1, "double_last needs a dimension"
    return self[:-1] + [self[-1] * 2]


@dtype("mylib.double_last", signature_check=False)
def mylib〇double_last〡dtype(self_rank_dtype: Tuple[int, int]) -> int:
    return self_rank_dtype[1]
