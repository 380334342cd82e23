"""Custom ops that the `transformers` package registers and torch.export keeps, reaching the
passes as `torch.operator "torch.transformers.<op>"`: `grouped_mm_fallback`, the grouped
matmul of its Mixture-of-Experts layers (Mixtral, Qwen2-MoE).

transformers registers the op when `transformers.integrations.moe` is imported, which the
library build does not do, so the signatures follow its registered schema
(`(Tensor input, Tensor weight, Tensor offs) -> Tensor`, `signature_check=False`). The cases
run the registered op itself (its fake kernel, on meta tensors); transformers is a test
dependency.
"""

from typing import List, Tuple

import torch

from .registry import dtype, shape
from .testing import ErrorInvocation, Invocation, TensorOfShape
from .testing import with_reference as ref


def _grouped_mm_fallback(input, weight, offs):
    import transformers.integrations.moe  # noqa: F401  registers torch.ops.transformers

    return torch.ops.transformers.grouped_mm_fallback(input, weight, offs)


# --- grouped_mm_fallback --------------------------------------------------------------------
# input (S, K) sorted by expert, weight (E, K, N), offs (E,) the cumulative token counts per
# expert: the rows of expert i are input[offs[i-1]:offs[i]], multiplied by weight[i], giving
# (S, N) in the input's dtype. The checks are those of the op's fake kernel; its CPU kernel
# checks less (int16 or short offs pass when no rows go unmatched) and more (`mm` wants one
# dtype for input and weight, once some expert has rows).

_INPUT = TensorOfShape(32, 16)
_WEIGHT = TensorOfShape(4, 16, 24)
_OFFS = TensorOfShape(4, dtype=torch.int32)


@shape("transformers.grouped_mm_fallback", signature_check=False, invocations=[
    ref(Invocation(_INPUT, _WEIGHT, _OFFS), _grouped_mm_fallback),
    ref(Invocation(TensorOfShape(0, 16), _WEIGHT, TensorOfShape(4, dtype=torch.int64)),
        _grouped_mm_fallback),
    ref(ErrorInvocation(TensorOfShape(2, 32, 16), _WEIGHT, _OFFS), _grouped_mm_fallback),
    ref(ErrorInvocation(_INPUT, TensorOfShape(16, 24), _OFFS), _grouped_mm_fallback),
    ref(ErrorInvocation(_INPUT, _WEIGHT, TensorOfShape(4, 1, dtype=torch.int32)),
        _grouped_mm_fallback),
    ref(ErrorInvocation(_INPUT, _WEIGHT, TensorOfShape(3, dtype=torch.int32)),
        _grouped_mm_fallback),
    ref(ErrorInvocation(TensorOfShape(32, 8), _WEIGHT, _OFFS), _grouped_mm_fallback),
])
def transformers〇grouped_mm_fallback〡shape(input: List[int], weight: List[int], offs: List[int]) -> List[int]:
    if len(input) != 2:
        raise AssertionError("grouped_mm_fallback: input must be 2D (S, input_dim)")
    if len(weight) != 3:
        raise AssertionError("grouped_mm_fallback: weight must be 3D "
                             "(num_experts, input_dim, output_dim)")
    if len(offs) != 1:
        raise AssertionError("grouped_mm_fallback: offs must be 1D (num_experts,)")
    if offs[0] != weight[0]:
        raise AssertionError("grouped_mm_fallback: offs length must match the number of experts")
    if input[1] != weight[1]:
        raise AssertionError("grouped_mm_fallback: input_dim mismatch")
    return [input[0], weight[2]]


@dtype("transformers.grouped_mm_fallback", signature_check=False, invocations=[
    *[ref(Invocation(TensorOfShape(32, 16, dtype=d), TensorOfShape(4, 16, 24, dtype=d), offs),
          _grouped_mm_fallback)
      for d in (torch.float32, torch.bfloat16, torch.float16, torch.float64, torch.int64)
      for offs in (_OFFS, TensorOfShape(4, dtype=torch.int64))],
    ref(Invocation(TensorOfShape(32, 16, dtype=torch.float64), _WEIGHT, _OFFS),
        _grouped_mm_fallback),
    ref(ErrorInvocation(_INPUT, _WEIGHT, TensorOfShape(4)), _grouped_mm_fallback),
    ref(ErrorInvocation(_INPUT, _WEIGHT, TensorOfShape(4, dtype=torch.int16)),
        _grouped_mm_fallback),
])
def transformers〇grouped_mm_fallback〡dtype(input_rank_dtype: Tuple[int, int], weight_rank_dtype: Tuple[int, int], offs_rank_dtype: Tuple[int, int]) -> int:
    offs_dtype = offs_rank_dtype[1]
    if offs_dtype != 3 and offs_dtype != 4:  # int32, int64
        raise AssertionError("grouped_mm_fallback: offs must be an integer tensor")
    return input_rank_dtype[1]
