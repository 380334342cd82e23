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
from torch import Tensor, device

from .registry import decomposition
from .testing import Invocation, TensorOfShape, TorchMlirInvocation


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
    maximum, _ = torch.max(x, dim, True)
    shifted = torch.exp(x - maximum)
    return shifted / torch.sum(shifted, [dim], True)


def _log_softmax(x: Tensor, dim: int) -> Tensor:
    maximum, _ = torch.max(x, dim, True)
    shifted = x - maximum
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
    # Masked scores become -inf, in the query's dtype (known here, unlike the scores').
    excluded = torch.full([], float("-inf"), dtype=query.dtype)
    if is_causal:
        causal = torch.ones([query.size(-2), key.size(-2)], dtype=torch.bool).tril()
        scores = torch.where(causal, scores, excluded)
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            scores = torch.where(attn_mask, scores, excluded)
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


# Ops the corpus (test/python/test_decompose_corpus.py) leaves for the backend, rewritten
# into ops torch-mlir's linalg conversion lowers: reductions, views, creation ops and
# dtype conversions.


def _reduced_dims(self: Tensor, dim: Optional[List[int]]) -> List[int]:
    """The dims a reduction over `dim` covers, non-negative; None or [] means all. The rank
    is read only where needed: a decomposition's input may not have a known rank yet."""
    if dim is None or len(dim) == 0:
        return list(range(self.dim()))
    dims: List[int] = []
    for d in dim:
        dims.append(d if d >= 0 else d + self.dim())
    return dims


def _element_count(self: Tensor, dims: List[int]) -> int:
    count = 1
    for d in dims:
        count *= self.size(d)
    return count


@decomposition("aten.mean.dim", invocations=[
    Invocation(TensorOfShape(2, 3, 4), [1]),
    Invocation(TensorOfShape(2, 3, 4), [-1, 0], True),
    Invocation(TensorOfShape(2, 3), None),
    Invocation(TensorOfShape(2, 3), [1], dtype=torch.float64),
])
def aten〇mean〇dim〡decomposition(self: Tensor, dim: Optional[List[int]], keepdim: bool = False, dtype: Optional[int] = None) -> Tensor:
    dims = _reduced_dims(self, dim)
    source = self if dtype is None else self.to(dtype)
    return torch.sum(source, dims, keepdim) / _element_count(self, dims)


@decomposition("aten.var.correction", invocations=[
    Invocation(TensorOfShape(2, 3, 4), [1]),
    Invocation(TensorOfShape(2, 3, 4), [-1, 0], correction=0, keepdim=True),
    Invocation(TensorOfShape(2, 3)),
    Invocation(TensorOfShape(2, 3), [1], correction=2.5),
])
def aten〇var〇correction〡decomposition(self: Tensor, dim: Optional[List[int]] = None, correction: Optional[Union[int, float, complex]] = None, keepdim: bool = False) -> Tensor:
    dims = _reduced_dims(self, dim)
    centered = self - torch.mean(self, dims, True)
    squares = torch.sum(centered * centered, dims, keepdim)
    count = _element_count(self, dims)
    denominator = float(count) - (1.0 if correction is None else float(correction))
    if denominator < 0.0:  # as PyTorch: more correction than elements divides by zero
        denominator = 0.0
    return squares / denominator


@decomposition("aten.amax", invocations=[
    Invocation(TensorOfShape(2, 3, 4), [1]),
    Invocation(TensorOfShape(2, 3, 4), [-1, 0], True),
    Invocation(TensorOfShape(2, 3)),
])
def aten〇amax〡decomposition(self: Tensor, dim: List[int] = (), keepdim: bool = False) -> Tensor:
    dims = _reduced_dims(self, dim)
    if len(dims) == 1:
        maximum, _ = torch.max(self, dims[0], keepdim)
        return maximum
    result = self
    # From the last dim down, so that dropping a dim leaves the others' indices alone.
    for axis in range(self.dim() - 1, -1, -1):
        if axis in dims:
            result, _ = torch.max(result, axis, keepdim)
    return result


@decomposition("aten.expand", invocations=[
    Invocation(TensorOfShape(3, 1), [2, 3, 4]),
    Invocation(TensorOfShape(3, 1), [-1, 5]),
])
def aten〇expand〡decomposition(self: Tensor, size: List[int], implicit: bool = False) -> Tensor:
    return torch.broadcast_to(self, size)


@decomposition("aten.reshape", invocations=[
    Invocation(TensorOfShape(2, 3, 4), [6, -1]),
    Invocation(TensorOfShape(2, 3), [6]),
])
def aten〇reshape〡decomposition(self: Tensor, shape: List[int]) -> Tensor:
    # Value semantics: a copy and a view cannot be told apart, so a view always does.
    return self.view(shape)


@decomposition("aten.t", invocations=[
    Invocation(TensorOfShape(2, 3)),
    Invocation(TensorOfShape(3)),
])
def aten〇t〡decomposition(self: Tensor) -> Tensor:
    if self.dim() < 2:
        return self
    return self.transpose(0, 1)


@decomposition("aten.narrow", invocations=[
    Invocation(TensorOfShape(5, 4), 0, 1, 3),
    Invocation(TensorOfShape(5, 4), -1, -3, 2),
])
def aten〇narrow〡decomposition(self: Tensor, dim: int, start: int, length: int) -> Tensor:
    if start < 0:
        start += self.size(dim)
    return torch.ops.aten.slice(self, dim, start, start + length, 1)


@decomposition("aten.select.int", invocations=[
    Invocation(TensorOfShape(5, 4), 0, 1),
    Invocation(TensorOfShape(5, 4), -1, -3),
])
def aten〇select〇int〡decomposition(self: Tensor, dim: int, index: int) -> Tensor:
    return self.narrow(dim, index, 1).squeeze(dim)


@decomposition("aten.conv2d", invocations=[
    Invocation(TensorOfShape(2, 4, 8, 8), TensorOfShape(6, 4, 3, 3), TensorOfShape(6)),
    Invocation(TensorOfShape(2, 4, 8, 8), TensorOfShape(4, 2, 3, 3), None, [2, 1], [1, 0],
               [1, 2], 2),
])
def aten〇conv2d〡decomposition(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride: List[int] = (1, 1), padding: List[int] = (0, 0), dilation: List[int] = (1, 1), groups: int = 1) -> Tensor:
    return torch.convolution(input, weight, bias, stride, padding, dilation, False, [0, 0], groups)


@decomposition("aten.conv1d", invocations=[
    Invocation(TensorOfShape(2, 4, 8), TensorOfShape(6, 4, 3), TensorOfShape(6)),
    Invocation(TensorOfShape(2, 4, 8), TensorOfShape(4, 2, 3), None, [2], [1], [2], 2),
])
def aten〇conv1d〡decomposition(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride: List[int] = (1,), padding: List[int] = (0,), dilation: List[int] = (1,), groups: int = 1) -> Tensor:
    return torch.convolution(input, weight, bias, stride, padding, dilation, False, [0], groups)


@decomposition("aten.hardtanh", invocations=[
    Invocation(TensorOfShape(2, 3)),
    Invocation(TensorOfShape(2, 3), 0.0, 6.0),
])
def aten〇hardtanh〡decomposition(self: Tensor, min_val: Union[int, float, complex] = -1, max_val: Union[int, float, complex] = 1) -> Tensor:
    return torch.clamp(self, min_val, max_val)


@decomposition("aten.baddbmm", invocations=[
    Invocation(TensorOfShape(2, 3, 5), TensorOfShape(2, 3, 4), TensorOfShape(2, 4, 5)),
    Invocation(TensorOfShape(5), TensorOfShape(2, 3, 4), TensorOfShape(2, 4, 5), beta=0.5,
               alpha=2),
])
def aten〇baddbmm〡decomposition(self: Tensor, batch1: Tensor, batch2: Tensor, beta: Union[int, float, complex] = 1, alpha: Union[int, float, complex] = 1) -> Tensor:
    return torch.add(torch.mul(self, beta), torch.bmm(batch1, batch2), alpha=alpha)


@decomposition("aten.type_as", invocations=[
    Invocation(TensorOfShape(2, 3), TensorOfShape(3, dtype=torch.float64)),
])
def aten〇type_as〡decomposition(self: Tensor, other: Tensor) -> Tensor:
    return self.to(other.dtype)


@decomposition("aten.scalar_tensor", invocations=[
    Invocation(2.5),
    Invocation(3, dtype=torch.int32),
    Invocation(-1.0, dtype=torch.float64),
])
def aten〇scalar_tensor〡decomposition(s: Union[int, float, complex], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> Tensor:
    # scalar_tensor's dtype is the default float (float32) whatever the number's kind.
    if dtype is None:
        return torch.full([], s, dtype=torch.float32)
    return torch.full([], s, dtype=dtype)


@decomposition("aten.full_like", invocations=[
    Invocation(TensorOfShape(2, 3), 1.5),
    Invocation(TensorOfShape(2, 3, dtype=torch.int64), 3),
    Invocation(TensorOfShape(2, 3), 2, dtype=torch.float64),
])
def aten〇full_like〡decomposition(self: Tensor, fill_value: Union[int, float, complex], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None, memory_format: Optional[int] = None) -> Tensor:
    if dtype is None:
        return torch.full(self.size(), fill_value, dtype=self.dtype)
    return torch.full(self.size(), fill_value, dtype=dtype)


@decomposition("aten.new_ones", invocations=[
    Invocation(TensorOfShape(2, 3), [4, 1]),
    Invocation(TensorOfShape(2, 3, dtype=torch.int64), [], dtype=torch.bool),
])
def aten〇new_ones〡decomposition(self: Tensor, size: List[int], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> Tensor:
    if dtype is None:
        return torch.ones(size, dtype=self.dtype)
    return torch.ones(size, dtype=dtype)


@decomposition("aten.arange", invocations=[
    Invocation(8),
    Invocation(4.5),
    Invocation(5, dtype=torch.float32),
])
def aten〇arange〡decomposition(end: Union[int, float, complex], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> Tensor:
    return torch.arange(0, end, 1, dtype=dtype, layout=layout, device=device, pin_memory=pin_memory)


@decomposition("aten.arange.start", invocations=[
    Invocation(2, 8),
    Invocation(-1, 2.5),
    Invocation(1, 5, dtype=torch.float64),
])
def aten〇arange〇start〡decomposition(start: Union[int, float, complex], end: Union[int, float, complex], dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None) -> Tensor:
    return torch.arange(start, end, 1, dtype=dtype, layout=layout, device=device, pin_memory=pin_memory)


# The backend runs on one device: a device move is the dtype conversion alone.
@decomposition("aten.to.device", invocations=[
    Invocation(TensorOfShape(2, 3), torch.device("cpu"), torch.float64),
    Invocation(TensorOfShape(2, 3), torch.device("cpu"), torch.float32, copy=True),
])
def aten〇to〇device〡decomposition(self: Tensor, device: device, dtype: int, non_blocking: bool = False, copy: bool = False, memory_format: Optional[int] = None) -> Tensor:
    return self.to(dtype)


@decomposition("aten._to_copy", invocations=[
    Invocation(TensorOfShape(2, 3), dtype=torch.float64),
    Invocation(TensorOfShape(2, 3, dtype=torch.int64), dtype=torch.bool),
    Invocation(TensorOfShape(2, 3)),
])
def aten〇_to_copy〡decomposition(self: Tensor, dtype: Optional[int] = None, layout: Optional[int] = None, device: Optional[device] = None, pin_memory: Optional[bool] = None, non_blocking: bool = False, memory_format: Optional[int] = None) -> Tensor:
    if dtype is None:
        return self.clone()
    return self.to(dtype)


@decomposition("aten.masked_fill.Scalar", invocations=[
    Invocation(TensorOfShape(2, 3), TensorOfShape(2, 3, dtype=torch.bool), -1e9),
    Invocation(TensorOfShape(2, 3, dtype=torch.int64), TensorOfShape(3, dtype=torch.bool), 7),
])
def aten〇masked_fill〇Scalar〡decomposition(self: Tensor, mask: Tensor, value: Union[int, float, complex]) -> Tensor:
    # The value takes self's dtype (no promotion).
    return torch.where(mask, torch.full([], value, dtype=self.dtype), self)


@decomposition("aten.where.ScalarOther", invocations=[
    Invocation(TensorOfShape(2, 3, dtype=torch.bool), TensorOfShape(2, 3), -3.4e38),
    Invocation(TensorOfShape(2, 3, dtype=torch.bool), TensorOfShape(3, dtype=torch.int32), 2),
    Invocation(TensorOfShape(2, 3, dtype=torch.bool), TensorOfShape(3, dtype=torch.int64), 0.5),
])
def aten〇where〇ScalarOther〡decomposition(condition: Tensor, self: Tensor, other: Union[int, float, complex]) -> Tensor:
    # `full` without a dtype gives the number the dtype PyTorch gives a wrapped number (int
    # int64, float the default float), and a 0-d tensor promotes as that number would.
    return torch.where(condition, self, torch.full([], other))


@decomposition("aten.__and__.Tensor", invocations=[
    Invocation(TensorOfShape(2, 3, dtype=torch.bool), TensorOfShape(3, dtype=torch.bool)),
    Invocation(TensorOfShape(2, 3, dtype=torch.int64), TensorOfShape(2, 3, dtype=torch.int64)),
])
def aten〇__and__〇Tensor〡decomposition(self: Tensor, other: Tensor) -> Tensor:
    return torch.bitwise_and(self, other)


def _channel_shape(input: Tensor) -> List[int]:
    """A per-channel vector's shape broadcast against an (N, C, ...) input."""
    shape = [-1]
    for _ in range(input.dim() - 2):
        shape.append(1)
    return shape


@decomposition("aten.batch_norm", invocations=[
    # Test tensors are normal samples: eps 10 keeps a random running variance + eps positive.
    Invocation(TensorOfShape(2, 3, 4, 4), TensorOfShape(3), TensorOfShape(3), TensorOfShape(3),
               TensorOfShape(3), False, 0.1, 10.0, False),
    Invocation(TensorOfShape(2, 3, 5), None, None, None, None, True, 0.1, 1e-3, False),
    Invocation(TensorOfShape(4, 3), TensorOfShape(3), None, TensorOfShape(3),
               TensorOfShape(3), True, 0.1, 1e-5, False),
])
def aten〇batch_norm〡decomposition(input: Tensor, weight: Optional[Tensor], bias: Optional[Tensor], running_mean: Optional[Tensor], running_var: Optional[Tensor], training: bool, momentum: float, eps: float, cudnn_enabled: bool) -> Tensor:
    # In training, the statistics are the batch's (the running ones' update is a side
    # effect value semantics has no place for; the result does not depend on it).
    shape = _channel_shape(input)
    if training or running_mean is None or running_var is None:
        axes = [0] + list(range(2, input.dim()))
        variance, mean = torch.var_mean(input, axes, correction=0, keepdim=True)
    else:
        mean, variance = running_mean.view(shape), running_var.view(shape)
    output = (input - mean) * torch.rsqrt(variance + eps)
    if weight is not None:
        output = output * weight.view(shape)
    if bias is not None:
        output = output + bias.view(shape)
    return output


@decomposition("aten.native_group_norm", invocations=[
    Invocation(TensorOfShape(2, 6, 5), TensorOfShape(6), TensorOfShape(6), 2, 6, 5, 3, 1e-5),
    Invocation(TensorOfShape(2, 4, 3, 3), None, None, 2, 4, 9, 2, 1e-5),
])
def aten〇native_group_norm〡decomposition(input: Tensor, weight: Optional[Tensor], bias: Optional[Tensor], N: int, C: int, HxW: int, group: int, eps: float) -> Tuple[Tensor, Tensor, Tensor]:
    grouped = input.view([N, group, -1])
    variance, mean = torch.var_mean(grouped, [2], correction=0, keepdim=True)
    rstd = torch.rsqrt(variance + eps)
    output = ((grouped - mean) * rstd).view(input.size())
    shape = _channel_shape(input)
    if weight is not None:
        output = output * weight.view(shape)
    if bias is not None:
        output = output + bias.view(shape)
    return output, mean.view([N, group]), rstd.view([N, group])


@decomposition("aten.index.Tensor", invocations=[
    Invocation(TensorOfShape(2, 8, dtype=torch.bool),
               [TensorOfShape(2, 1, 1, 1, dtype=torch.int64),
                TensorOfShape(1, 1, 1, 8, dtype=torch.int64)]),
    Invocation(TensorOfShape(3, 4, 5), [None, TensorOfShape(2, dtype=torch.int64)]),
    Invocation(TensorOfShape(3, 4, 5), [TensorOfShape(2, dtype=torch.int64), None,
                                        TensorOfShape(2, dtype=torch.int64)]),
    Invocation(TensorOfShape(3, 4, 5, 2), [None, TensorOfShape(2, 1, dtype=torch.int64),
                                           TensorOfShape(3, dtype=torch.int64)]),
])
def aten〇index〇Tensor〡decomposition(self: Tensor, indices: List[Optional[Tensor]]) -> Tensor:
    # torch-mlir's linalg conversion takes only a list without None (index.Tensor_hacked_twin),
    # indexing the leading dims: the indexed dims are permuted to the front, and the result's
    # indexed block moved back where PyTorch puts it (in place of the indexed dims when they
    # are adjacent, in front otherwise).
    tensors: List[Tensor] = []
    indexed: List[int] = []
    for axis in range(len(indices)):
        index = indices[axis]
        if index is not None:
            tensors.append(index)
            indexed.append(axis)
    order: List[int] = []
    for axis in indexed:
        order.append(axis)
    for axis in range(self.dim()):
        if axis not in indexed:
            order.append(axis)
    result = torch.ops.aten.index(self.permute(order), tensors)
    adjacent = indexed[-1] - indexed[0] + 1 == len(indexed)
    first = indexed[0]
    if not adjacent or first == 0:
        return result
    # The result is [indexed block, dims before `first`, dims after the indexed ones].
    block = 0
    for index in indices:  # not `tensors`: the simplifier reads an unmutated list's elements
        if index is not None:
            block = max(block, index.dim())
    back: List[int] = []
    for axis in range(first):
        back.append(block + axis)
    for axis in range(block):
        back.append(axis)
    for axis in range(block + first, block + self.dim() - len(indexed)):
        back.append(axis)
    return result.permute(back)


def _pad_circular(self: Tensor, pad: List[int]) -> Tensor:
    # Per padded dim (pairs from the last dim backwards): negative amounts crop, then the
    # positive ones wrap around what is left; later dims wrap the already padded tensor,
    # which gives the corners PyTorch gives.
    result = self
    for pair in range(len(pad) // 2):
        axis = self.dim() - 1 - pair
        before, after = pad[2 * pair], pad[2 * pair + 1]
        if before < 0:
            result = result.narrow(axis, -before, result.size(axis) + before)
        if after < 0:
            result = result.narrow(axis, 0, result.size(axis) + after)
        pieces: List[Tensor] = []
        if before > 0:
            pieces.append(result.narrow(axis, result.size(axis) - before, before))
        pieces.append(result)
        if after > 0:
            pieces.append(result.narrow(axis, 0, after))
        result = torch.cat(pieces, axis)
    return result


def _pad_reflecting_or_replicating(self: Tensor, pad: List[int], mode: str) -> Tensor:
    """Reflection or replication padding of the last len(pad) // 2 dims (1 to 3) of an input
    of one or two more dims, as PyTorch's kernels take it."""
    padded_dims = len(pad) // 2
    if mode == "reflect":
        if padded_dims == 1:
            return torch.ops.aten.reflection_pad1d(self, pad)
        if padded_dims == 2:
            return torch.ops.aten.reflection_pad2d(self, pad)
        return torch.ops.aten.reflection_pad3d(self, pad)
    if padded_dims == 1:
        return torch.ops.aten.replication_pad1d(self, pad)
    if padded_dims == 2:
        return torch.ops.aten.replication_pad2d(self, pad)
    return torch.ops.aten.replication_pad3d(self, pad)


@decomposition("aten.pad", invocations=[
    Invocation(TensorOfShape(2, 3, 4), [1, 2]),
    Invocation(TensorOfShape(2, 3, 4, 4), [1, 0, 2, 1], value=0.5),
    Invocation(TensorOfShape(2, 3, 4), [-1, 2]),
    Invocation(TensorOfShape(2, 3, 5), [2, 1], "reflect"),
    Invocation(TensorOfShape(2, 3, 4, 5), [1, 1, 2, 0], "replicate"),
    Invocation(TensorOfShape(1, 2, 4, 5), [-1, 2, 1, 0], "circular"),
    TorchMlirInvocation(TensorOfShape(2, 3, 12, 8), [1, 2, 3, 0, 0, 0, 0, 0], "reflect"),
    TorchMlirInvocation(TensorOfShape(3, 4), [1, 1, 2, 1], "replicate"),
    TorchMlirInvocation(TensorOfShape(2, 2, 3, 4, 5), [1, 1], "reflect"),
])
def aten〇pad〡decomposition(self: Tensor, pad: List[int], mode: str = 'constant', value: Optional[float] = None) -> Tensor:
    if mode == "constant":
        return torch.constant_pad_nd(self, pad, 0.0 if value is None else value)
    if mode == "circular":
        return _pad_circular(self, pad)
    padded_dims = len(pad) // 2
    if padded_dims <= 3 and (self.dim() == padded_dims + 1 or self.dim() == padded_dims + 2):
        return _pad_reflecting_or_replicating(self, pad, mode)
    # Ranks PyTorch rejects, as torch-mlir means them (pad's shape function): the pairs past
    # the last dims left, at most 3, are zeros; those dims are padded as a batch of one
    # channel, so that only they must be non-empty.
    padded_dims = min(min(padded_dims, 3), self.dim())
    if padded_dims == 0:
        return self
    sizes = self.shape
    batch = self.reshape([-1, 1] + sizes[self.dim() - padded_dims:])
    result = _pad_reflecting_or_replicating(batch, pad[:2 * padded_dims], mode)
    out = sizes[:self.dim() - padded_dims]
    for i in range(padded_dims):
        pair = padded_dims - 1 - i  # pad lists the last dim's pair first
        out.append(sizes[self.dim() - padded_dims + i] + pad[2 * pair] + pad[2 * pair + 1])
    return result.reshape(out)
