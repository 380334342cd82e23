"""ONNX ops that torch-mlir's ONNX importer keeps as Torch dialect ops of their own:
`onnx.rotary_embedding` (`torch.onnx.rotary_embedding`), ONNX's RotaryEmbedding with its
attributes as operands. PyTorch has no such op (`signature_check=False`): the function
follows the ONNX spec, whose output has the input's shape and element type, for an input
of rank 3 (batch, sequence, hidden) or 4 (batch, heads, sequence, head size). The cases
are checked against a reference that applies those rules to meta tensors.
"""

from typing import List, Tuple

import torch

from .registry import dtype, shape
from .testing import ErrorInvocation, Invocation, TensorOfShape
from .testing import with_reference as ref


def _rotary_embedding_reference(input, position_ids, cos_cache, sin_cache, interleaved,
                                is_packed_batching, num_heads, rotary_embedding_dim, scale):
    if input.dim() not in (3, 4):
        raise ValueError("RotaryEmbedding: input must be 3-D or 4-D")
    return torch.empty_like(input)


def _rotary_case(input: TensorOfShape, cls=Invocation) -> Invocation:
    position_ids = TensorOfShape(1, 2, dtype=torch.int64)
    cache = TensorOfShape(4, 3, dtype=input.dtype)
    return ref(cls(input, position_ids, cache, cache, 0, 0, 0, 0, 1.0),
               _rotary_embedding_reference)


@shape("onnx.rotary_embedding", signature_check=False, invocations=[
    _rotary_case(TensorOfShape(1, 3, 2, 6)),
    _rotary_case(TensorOfShape(1, 2, 18)),
    _rotary_case(TensorOfShape(2, 6), ErrorInvocation),
])
def onnx〇rotary_embedding〡shape(input: List[int], position_ids: List[int], cos_cache: List[int], sin_cache: List[int], interleaved: int, is_packed_batching: int, num_heads: int, rotary_embedding_dim: int, scale: float) -> List[int]:
    if len(input) != 3 and len(input) != 4:
        raise AssertionError("RotaryEmbedding: input must be 3-D or 4-D")
    return input


@dtype("onnx.rotary_embedding", signature_check=False, invocations=[
    _rotary_case(TensorOfShape(1, 3, 2, 6)),
    _rotary_case(TensorOfShape(1, 3, 2, 6, dtype=torch.float16)),
])
def onnx〇rotary_embedding〡dtype(input_rank_dtype: Tuple[int, int], position_ids_rank_dtype: Tuple[int, int], cos_cache_rank_dtype: Tuple[int, int], sin_cache_rank_dtype: Tuple[int, int], interleaved: int, is_packed_batching: int, num_heads: int, rotary_embedding_dim: int, scale: float) -> int:
    return input_rank_dtype[1]
