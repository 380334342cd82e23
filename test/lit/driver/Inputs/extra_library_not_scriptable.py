from typing import List

from torch_refine.library.registry import shape


@shape("mylib.double_last", signature_check=False)
def mylib〇double_last〡shape(self: List[int]) -> List[int]:
    return [size * 2 for size in {1: self}[1]] if globals() else self
