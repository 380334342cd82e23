"""Decomposition functions: composite ops rewritten into ops a backend lowers directly.

`torch-refine-decompose` replaces each op that has one of these functions by a copy of its
body, so the body computes exactly what PyTorch's op computes, in the op's own types
(Tensors in, Tensors out; a Scalar is a `Union[int, float, complex]`, the Torch dialect's
`!torch.number`). The bodies follow PyTorch's reference decompositions (torch/_refs,
torch/_decomp) and use only value-semantic ops. `test/python/test_decompositions.py` runs
each invocation's decomposed IR on real tensors and compares with PyTorch's op.

Bodies stay loop-free where they can: a loop the decompose pass cannot unroll (one over a
dynamic size) would stay in the user's program.
"""

import math
from typing import List, Optional, Tuple, Union

import torch
from torch import Tensor

from .registry import decomposition
from .testing import Invocation, TensorOfShape


@decomposition("aten.linear", invocations=[
    Invocation(TensorOfShape(2, 3), TensorOfShape(4, 3), TensorOfShape(4)),
    Invocation(TensorOfShape(5, 2, 3), TensorOfShape(4, 3)),
    Invocation(TensorOfShape(3), TensorOfShape(4, 3), TensorOfShape(4)),
])
def aten〇linear〡decomposition(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None) -> Tensor:
    output = torch.matmul(input, weight.t())
    if bias is None:
        return output
    return output + bias


@decomposition("aten.addmm", invocations=[
    Invocation(TensorOfShape(2, 4), TensorOfShape(2, 3), TensorOfShape(3, 4)),
    Invocation(TensorOfShape(4), TensorOfShape(2, 3), TensorOfShape(3, 4), beta=0.5, alpha=2),
])
def aten〇addmm〡decomposition(self: Tensor, mat1: Tensor, mat2: Tensor, beta: Union[int, float, complex] = 1, alpha: Union[int, float, complex] = 1) -> Tensor:
    return torch.add(torch.mul(self, beta), torch.mm(mat1, mat2), alpha=alpha)


@decomposition("aten.addcmul", invocations=[
    Invocation(TensorOfShape(2, 3), TensorOfShape(2, 3), TensorOfShape(3)),
    Invocation(TensorOfShape(2, 3), TensorOfShape(1, 3), TensorOfShape(2, 1), value=0.5),
])
def aten〇addcmul〡decomposition(self: Tensor, tensor1: Tensor, tensor2: Tensor, value: Union[int, float, complex] = 1) -> Tensor:
    return torch.add(self, torch.mul(tensor1, tensor2), alpha=value)


@decomposition("aten.silu", invocations=[Invocation(TensorOfShape(2, 3))])
def aten〇silu〡decomposition(self: Tensor) -> Tensor:
    return self * torch.sigmoid(self)


@decomposition("aten.hardsigmoid", invocations=[Invocation(TensorOfShape(2, 3))])
def aten〇hardsigmoid〡decomposition(self: Tensor) -> Tensor:
    return torch.clamp(self + 3.0, 0.0, 6.0) / 6.0


@decomposition("aten.hardswish", invocations=[Invocation(TensorOfShape(2, 3))])
def aten〇hardswish〡decomposition(self: Tensor) -> Tensor:
    return self * torch.clamp(self + 3.0, 0.0, 6.0) / 6.0


@decomposition("aten.gelu", invocations=[
    Invocation(TensorOfShape(2, 3)),
    Invocation(TensorOfShape(2, 3), approximate="tanh"),
])
def aten〇gelu〡decomposition(self: Tensor, approximate: str = 'none') -> Tensor:
    if approximate == "tanh":
        inner = math.sqrt(2.0 / math.pi) * (self + 0.044715 * self * self * self)
        return 0.5 * self * (1.0 + torch.tanh(inner))
    return 0.5 * self * (1.0 + torch.erf(self * (1.0 / math.sqrt(2.0))))


def _softmax(x: Tensor, dim: int) -> Tensor:
    # Shifted by the maximum so that exp cannot overflow, as PyTorch's kernels do.
    shifted = torch.exp(x - torch.amax(x, [dim], True))
    return shifted / torch.sum(shifted, [dim], True)


def _log_softmax(x: Tensor, dim: int) -> Tensor:
    shifted = x - torch.amax(x, [dim], True)
    return shifted - torch.log(torch.sum(torch.exp(shifted), [dim], True))


@decomposition("aten.softmax.int", invocations=[
    Invocation(TensorOfShape(2, 3), 1),
    Invocation(TensorOfShape(2, 3, 4), -1, torch.float64),
])
def aten〇softmax〇int〡decomposition(self: Tensor, dim: int, dtype: Optional[int] = None) -> Tensor:
    if dtype is None:
        return _softmax(self, dim)
    return _softmax(self.to(dtype), dim)


@decomposition("aten._softmax", invocations=[
    Invocation(TensorOfShape(2, 3), 1, False),
    Invocation(TensorOfShape(2, 3, 4, dtype=torch.float64), 0, False),
])
def aten〇_softmax〡decomposition(self: Tensor, dim: int, half_to_float: bool) -> Tensor:
    if half_to_float:
        return _softmax(self.to(torch.float32), dim)
    return _softmax(self, dim)


@decomposition("aten.log_softmax.int", invocations=[
    Invocation(TensorOfShape(2, 3), 1),
    Invocation(TensorOfShape(2, 3, 4), -1, torch.float64),
])
def aten〇log_softmax〇int〡decomposition(self: Tensor, dim: int, dtype: Optional[int] = None) -> Tensor:
    if dtype is None:
        return _log_softmax(self, dim)
    return _log_softmax(self.to(dtype), dim)


@decomposition("aten._log_softmax", invocations=[
    Invocation(TensorOfShape(2, 3), 1, False),
    Invocation(TensorOfShape(2, 3, 4, dtype=torch.float64), 0, False),
])
def aten〇_log_softmax〡decomposition(self: Tensor, dim: int, half_to_float: bool) -> Tensor:
    if half_to_float:
        return _log_softmax(self.to(torch.float32), dim)
    return _log_softmax(self, dim)


@decomposition("aten.var_mean.correction", invocations=[
    Invocation(TensorOfShape(2, 3, 4), [2], correction=0, keepdim=True),
    Invocation(TensorOfShape(2, 3, 4), [0, 2]),
    Invocation(TensorOfShape(2, 3)),
])
def aten〇var_mean〇correction〡decomposition(self: Tensor, dim: Optional[List[int]] = None, correction: Optional[Union[int, float, complex]] = None, keepdim: bool = False) -> Tuple[Tensor, Tensor]:
    variance = torch.var(self, dim, correction=correction, keepdim=keepdim)
    return variance, torch.mean(self, dim, keepdim)


@decomposition("aten.native_layer_norm", invocations=[
    Invocation(TensorOfShape(2, 3, 4), [4], TensorOfShape(4), TensorOfShape(4), 1e-5),
    Invocation(TensorOfShape(2, 3, 4), [3, 4], None, None, 1e-6),
])
def aten〇native_layer_norm〡decomposition(input: Tensor, normalized_shape: List[int], weight: Optional[Tensor], bias: Optional[Tensor], eps: float) -> Tuple[Tensor, Tensor, Tensor]:
    axes: List[int] = []
    for axis in range(input.dim() - len(normalized_shape), input.dim()):
        axes.append(axis)
    variance, mean = torch.var_mean(input, axes, correction=0, keepdim=True)
    rstd = torch.rsqrt(variance + eps)
    output = (input - mean) * rstd
    if weight is not None:
        output = output * weight
    if bias is not None:
        output = output + bias
    return output, mean, rstd


@decomposition("aten.layer_norm", invocations=[
    Invocation(TensorOfShape(2, 3, 4), [4], TensorOfShape(4), TensorOfShape(4)),
    Invocation(TensorOfShape(2, 3, 4), [3, 4]),
])
def aten〇layer_norm〡decomposition(input: Tensor, normalized_shape: List[int], weight: Optional[Tensor] = None, bias: Optional[Tensor] = None, eps: float = 1e-05, cudnn_enable: bool = True) -> Tensor:
    output, _mean, _rstd = torch.native_layer_norm(input, normalized_shape, weight, bias, eps)
    return output


@decomposition("aten.scaled_dot_product_attention", invocations=[
    Invocation(TensorOfShape(2, 4, 5, 8), TensorOfShape(2, 4, 6, 8), TensorOfShape(2, 4, 6, 3)),
    Invocation(TensorOfShape(2, 4, 5, 8), TensorOfShape(2, 4, 5, 8), TensorOfShape(2, 4, 5, 8),
               is_causal=True),
    Invocation(TensorOfShape(2, 4, 5, 8), TensorOfShape(2, 4, 6, 8), TensorOfShape(2, 4, 6, 8),
               TensorOfShape(5, 6, dtype=torch.bool), scale=0.5),
    Invocation(TensorOfShape(2, 4, 5, 8), TensorOfShape(2, 4, 6, 8), TensorOfShape(2, 4, 6, 8),
               TensorOfShape(2, 1, 5, 6)),
    Invocation(TensorOfShape(2, 4, 5, 8), TensorOfShape(2, 2, 6, 8), TensorOfShape(2, 2, 6, 8),
               enable_gqa=True),
])
def aten〇scaled_dot_product_attention〡decomposition(query: Tensor, key: Tensor, value: Tensor, attn_mask: Optional[Tensor] = None, dropout_p: float = 0.0, is_causal: bool = False, scale: Optional[float] = None, enable_gqa: bool = False) -> Tensor:
    if enable_gqa:
        key = key.repeat_interleave(query.size(-3) // key.size(-3), -3)
        value = value.repeat_interleave(query.size(-3) // value.size(-3), -3)
    if scale is None:
        factor = 1.0 / math.sqrt(query.size(-1))
    else:
        factor = scale
    scores = torch.matmul(query, key.transpose(-2, -1)) * factor
    if is_causal:
        causal = torch.ones([query.size(-2), key.size(-2)], dtype=torch.bool).tril()
        scores = scores.masked_fill(causal.logical_not(), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            scores = scores.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            scores = scores + attn_mask
    weights = _softmax(scores, -1)
    if dropout_p > 0.0:
        weights = torch.dropout(weights, dropout_p, True)
    return torch.matmul(weights, value)


@decomposition("aten.split.Tensor", invocations=[
    Invocation(TensorOfShape(5, 4), 2),
    Invocation(TensorOfShape(3, 6), 3, 1),
])
def aten〇split〇Tensor〡decomposition(self: Tensor, split_size: int, dim: int = 0) -> List[Tensor]:
    # Unrolled by the decompose pass when the size along `dim` is known.
    size = self.size(dim)
    count = max((size + split_size - 1) // split_size, 1)
    pieces: List[Tensor] = []
    for index in range(count):
        start = index * split_size
        pieces.append(self.narrow(dim, start, min(split_size, size - start)))
    return pieces


@decomposition("aten.chunk", invocations=[
    Invocation(TensorOfShape(5, 4), 2),
    Invocation(TensorOfShape(3, 6), 4, 1),
])
def aten〇chunk〡decomposition(self: Tensor, chunks: int, dim: int = 0) -> List[Tensor]:
    size = self.size(dim)
    return torch.split(self, (size + chunks - 1) // chunks, dim)
