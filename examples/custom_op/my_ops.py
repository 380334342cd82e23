
"""Shape and dtype functions for torch-refine, compiled at run time from this file:

    torch-refine-opt --extra-library=my_ops.py --torch-refine-pipeline model.mlir

Each function mirrors its op's operands (a Tensor is its sizes, `List[int]`, in a shape
function and `<name>_rank_dtype: Tuple[int, int]` in a dtype function) and must script with
torch.jit.script. Dtype codes are c10::ScalarType values (6 is float32).
"""

from typing import List, Tuple

from torch_refine.library.registry import dtype, shape


# A custom op, `torch.operator "mylib.rotary"(%x, %cos, %sin)`: rotary position embedding of
# x [..., seq, head_dim] with cos/sin tables [seq, head_dim / 2]. PyTorch's registry does not
# know it, so its signature cannot be checked against a schema.
@shape("mylib.rotary", signature_check=False)
def mylib〇rotary〡shape(x: List[int], cos: List[int], sin: List[int]) -> List[int]:
    assert len(x) >= 2, "rotary: x needs a sequence and a head dimension"
    assert x[-1] % 2 == 0, "rotary: the head dimension must be even"
    assert cos == sin, "rotary: cos and sin tables differ in shape"
    assert len(cos) == 2, "rotary: tables must be [seq, head_dim / 2]"
    assert cos[0] == x[-2], "rotary: tables must have one row per position"
    assert cos[1] == x[-1] // 2, "rotary: tables must have head_dim / 2 columns"
    return x


@dtype("mylib.rotary", signature_check=False)
def mylib〇rotary〡dtype(
    x_rank_dtype: Tuple[int, int], cos_rank_dtype: Tuple[int, int], sin_rank_dtype: Tuple[int, int]
) -> int:
    assert cos_rank_dtype[1] == sin_rank_dtype[1], "rotary: cos and sin dtypes differ"
    return x_rank_dtype[1]


# An ATen op the built-in library lacks: its signature is checked against PyTorch's registry.
@shape("aten.native_channel_shuffle")
def aten〇native_channel_shuffle〡shape(self: List[int], groups: int) -> List[int]:
    assert len(self) >= 3, "channel_shuffle expects at least 3 dimensions"
    assert groups > 0, "channel_shuffle: groups must be positive"
    assert self[1] % groups == 0, "channel_shuffle: channels not divisible by groups"
    return self


@dtype("aten.native_channel_shuffle")
def aten〇native_channel_shuffle〡dtype(self_rank_dtype: Tuple[int, int], groups: int) -> int:
    return self_rank_dtype[1]
