from typing import List

from torch_refine.library.registry import shape


@shape("aten.pixel_shuffle")
def aten〇pixel_shuffle〡shape(self: List[int]) -> List[int]:
    return self
