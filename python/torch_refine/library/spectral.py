"""Spectral ops: one-dimensional FFTs (fft_fft, fft_ifft, fft_rfft), n-dimensional ones
(fft_fftn, fft_ifftn, _fft_c2c) and the short-time Fourier transform (stft). Integral and bool inputs transform as float32; a real input gives
the complex dtype of its precision (float16 gives complex32, bfloat16 is unsupported).
"""

from typing import List, Optional, Tuple

import torch
import torch.jit._shape_functions as upstream

from ._helpers import check_fft_dims, check_numel_fits, rank_dtype_lists, unknown_dim
from .promotion import (
    is_complex_dtype,
    is_float_dtype,
    is_integer_dtype,
    promote_dtypes,
    to_complex_dtype,
    to_real_dtype,
)
from .registry import dtype, shape
from .testing import ErrorInvocation, Invocation, TensorOfShape

_SWEEP = (
    torch.uint8, torch.int32, torch.int64, torch.float16, torch.bfloat16, torch.float32,
    torch.float64, torch.bool, torch.complex32, torch.complex64, torch.complex128,
)


def _check_norm(norm: Optional[str]) -> None:
    if norm is not None:
        assert norm == "forward" or norm == "backward" or norm == "ortho", \
            "fft: invalid normalization mode"


def _fft_points(self: List[int], n: Optional[int], dim: int) -> Tuple[int, int]:
    """(the wrapped dim, the number of points transformed along it)."""
    assert len(self) >= 1, "fft: the input must have at least one dimension"
    wrapped = upstream.maybe_wrap_dim(dim, len(self))
    points = self[wrapped] if n is None else n
    assert points >= 1, "fft: invalid number of data points specified"
    return wrapped, points


def _fft_complex_dtype(self_dtype: int) -> int:
    """The complex dtype an FFT computes in: integral and bool inputs become float32."""
    assert self_dtype != 15, "fft: bfloat16 is not supported"
    if is_integer_dtype(self_dtype) or self_dtype == 11:
        return 9  # complex64
    return to_complex_dtype(self_dtype) if is_float_dtype(self_dtype) else self_dtype


_FFT_SHAPES = [
    Invocation(TensorOfShape(2, 8)), Invocation(TensorOfShape(2, 8), 5),
    Invocation(TensorOfShape(2, 7), None, 0), Invocation(TensorOfShape(2, 0), 4),
    Invocation(TensorOfShape(0, 8)), Invocation(TensorOfShape(2, 8), norm="ortho"),
    Invocation(TensorOfShape(8), 3, -1, "forward"),
    ErrorInvocation(TensorOfShape(2, 8), 0), ErrorInvocation(TensorOfShape(2, 8), -1),
    ErrorInvocation(TensorOfShape(2, 8), None, 2), ErrorInvocation(TensorOfShape()),
    ErrorInvocation(TensorOfShape(), 3, 0), ErrorInvocation(TensorOfShape(2, 0)),
    ErrorInvocation(TensorOfShape(2, 8), norm="bad"),
    ErrorInvocation(TensorOfShape(2, 8), 9223372036854775807),
]


@shape("aten.fft_fft", "aten.fft_ifft", invocations=_FFT_SHAPES)
def aten〇fft_fft〡shape(self: List[int], n: Optional[int] = None, dim: int = -1, norm: Optional[str] = None) -> List[int]:
    _check_norm(norm)
    wrapped, points = _fft_points(self, n, dim)
    out = upstream._copy(self)
    out[wrapped] = points
    check_numel_fits("fft", out, 4)  # a complex result: 4 bytes an element at least
    return out


@dtype("aten.fft_fft", "aten.fft_ifft", invocations=[
    Invocation(TensorOfShape(2, 8, dtype=d)) if d != torch.bfloat16
    else ErrorInvocation(TensorOfShape(2, 8, dtype=d)) for d in _SWEEP
])
def aten〇fft_fft〡dtype(self_rank_dtype: Tuple[int, int], n: Optional[int] = None, dim: int = -1, norm: Optional[str] = None) -> int:
    return _fft_complex_dtype(self_rank_dtype[1])


@shape("aten.fft_rfft", invocations=_FFT_SHAPES)
def aten〇fft_rfft〡shape(self: List[int], n: Optional[int] = None, dim: int = -1, norm: Optional[str] = None) -> List[int]:
    _check_norm(norm)
    wrapped, points = _fft_points(self, n, dim)
    out = upstream._copy(self)
    out[wrapped] = points // 2 + 1
    check_numel_fits("fft", out, 4)  # a complex result: 4 bytes an element at least
    return out


@dtype("aten.fft_rfft", invocations=[
    Invocation(TensorOfShape(2, 8, dtype=d)) if d != torch.bfloat16 and not d.is_complex
    else ErrorInvocation(TensorOfShape(2, 8, dtype=d)) for d in _SWEEP
])
def aten〇fft_rfft〡dtype(self_rank_dtype: Tuple[int, int], n: Optional[int] = None, dim: int = -1, norm: Optional[str] = None) -> int:
    assert not is_complex_dtype(self_rank_dtype[1]), "fft_rfft: expected a real input tensor"
    return _fft_complex_dtype(self_rank_dtype[1])


# fftn and ifftn: a transform over several dims, each resized to its number of points.

def _fftn_shape(self: List[int], s: Optional[List[int]], dim: Optional[List[int]], norm: Optional[str]) -> List[int]:
    _check_norm(norm)
    rank = len(self)
    dims: List[int] = []
    if dim is None:
        count = rank if s is None else len(s)
        assert count <= rank, "fftn: got a shape with more values than the input has dimensions"
        dims = [d for d in range(rank - count, rank)]
    else:
        for d in dim:
            wrapped = upstream.maybe_wrap_dim(d, rank)
            assert wrapped not in dims, "fftn: FFT dims must be unique"
            dims.append(wrapped)
        if s is not None:
            assert len(s) == len(dims), "fftn: when given, dim and shape arguments must have the same length"
    out = upstream._copy(self)
    for i in range(len(dims)):
        points = self[dims[i]] if s is None or s[i] == -1 else s[i]
        assert points >= 1, "fftn: invalid number of data points specified"
        out[dims[i]] = points
    return out


@shape("aten.fft_fftn", "aten.fft_ifftn", invocations=[
    Invocation(TensorOfShape(2, 3, 4)), Invocation(TensorOfShape(2, 3, 4), [5]),
    Invocation(TensorOfShape(2, 3, 4), None, [0]), Invocation(TensorOfShape(2, 3, 4), [5, -1], [0, 2]),
    Invocation(TensorOfShape(2, 3, 4), None, [-1, 1], "ortho"), Invocation(TensorOfShape(2, 3), None, []),
    Invocation(TensorOfShape(2, 3), []), Invocation(TensorOfShape(2, 0), None, [0]),
    ErrorInvocation(TensorOfShape(2, 3), [1, 2, 3]), ErrorInvocation(TensorOfShape(2, 3), [0]),
    ErrorInvocation(TensorOfShape(2, 3), None, [0, 0]), ErrorInvocation(TensorOfShape(2, 3), None, [0, -2]),
    ErrorInvocation(TensorOfShape(2, 3), [4], [0, 1]), ErrorInvocation(TensorOfShape(2, 0)),
    ErrorInvocation(TensorOfShape(2, 3), None, [2]), ErrorInvocation(TensorOfShape(2, 3), norm="bad"),
])
def aten〇fft_fftn〡shape(self: List[int], s: Optional[List[int]] = None, dim: Optional[List[int]] = None, norm: Optional[str] = None) -> List[int]:
    return _fftn_shape(self, s, dim, norm)


@dtype("aten.fft_fftn", "aten.fft_ifftn", invocations=[
    Invocation(TensorOfShape(2, 8, dtype=d)) if d != torch.bfloat16
    else ErrorInvocation(TensorOfShape(2, 8, dtype=d)) for d in _SWEEP
])
def aten〇fft_fftn〡dtype(self_rank_dtype: Tuple[int, int], s: Optional[List[int]] = None, dim: Optional[List[int]] = None, norm: Optional[str] = None) -> int:
    return _fft_complex_dtype(self_rank_dtype[1])


# _fft_c2c: what fft_fftn of a complex input and Core ATen's decompositions call.

@shape("aten._fft_c2c", invocations=[
    Invocation(TensorOfShape(2, 3, dtype=torch.complex64), [1], 0, True),
    Invocation(TensorOfShape(2, 3, 4, dtype=torch.complex64), [0, 2], 2, False),
    Invocation(TensorOfShape(2, 3, dtype=torch.complex64), [], 0, True),
    Invocation(TensorOfShape(0, 2, dtype=torch.complex64), [1], 0, True),
    ErrorInvocation(TensorOfShape(2, 0, dtype=torch.complex64), [1], 0, True),
    ErrorInvocation(TensorOfShape(2, 3, 7, dtype=torch.complex64), [1, 1], 0, True),
    ErrorInvocation(TensorOfShape(2, 3, dtype=torch.complex64), [2], 0, True),
])
def aten〇_fft_c2c〡shape(self: List[int], dim: List[int], normalization: int, forward: bool) -> List[int]:
    check_fft_dims("_fft_c2c", self, dim)
    return upstream._copy(self)


@dtype("aten._fft_c2c", invocations=[
    Invocation(TensorOfShape(2, 3, dtype=d), [1], 0, True) if d.is_complex
    else ErrorInvocation(TensorOfShape(2, 3, dtype=d), [1], 0, True) for d in _SWEEP
])
def aten〇_fft_c2c〡dtype(self_rank_dtype: Tuple[int, int], dim: List[int], normalization: int, forward: bool) -> int:
    assert is_complex_dtype(self_rank_dtype[1]), "_fft_c2c: expected a complex input"
    return self_rank_dtype[1]


# stft: frames of n_fft points every hop_length points, each windowed and transformed.

def _stft_shape(self: List[int], n_fft: int, hop_length: Optional[int], win_length: Optional[int], window: Optional[List[int]], onesided: Optional[bool], return_complex: Optional[bool], align_to_window: Optional[bool], length: int) -> List[int]:
    """The result of stft on `self` whose last dim holds `length` points after padding."""
    assert len(self) == 1 or len(self) == 2, "stft: expected a 1D or 2D input"
    hop = n_fft // 4 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    assert n_fft > 0 and n_fft <= length, "stft: expected 0 < n_fft <= the input length"
    assert hop > 0, "stft: expected hop_length > 0"
    assert win > 0 and win <= n_fft, "stft: expected 0 < win_length <= n_fft"
    if window is not None:
        assert len(window) == 1 and window[0] == win, \
            "stft: expected a 1D window of size win_length"
    frame = win if align_to_window is not None and align_to_window else n_fft
    out = self[:-1]
    if onesided is None:
        # One-sided unless the input or the window is complex: a dtype, which sizes do not show.
        out.append(unknown_dim())
    else:
        out.append(n_fft // 2 + 1 if onesided else n_fft)
    out.append(1 + (length - frame) // hop)
    if return_complex is not None and not return_complex:
        out.append(2)
    return out


def _stft_dtype(self_rank_dtype: Tuple[int, int], window_rank_dtype: Optional[Tuple[int, int]], onesided: Optional[bool], return_complex: Optional[bool]) -> int:
    self_dtype = self_rank_dtype[1]
    assert is_float_dtype(self_dtype) or is_complex_dtype(self_dtype), \
        "stft: expected a floating-point or complex input"
    tensors = [self_rank_dtype]
    if window_rank_dtype is not None:
        tensors.append(window_rank_dtype)
    ranks, dtypes = rank_dtype_lists(tensors)
    promoted = promote_dtypes(ranks, dtypes)
    complex_input = is_complex_dtype(promoted)
    if onesided is not None and onesided:
        assert not complex_input, "stft: cannot have onesided output if window or input is complex"
    assert return_complex is not None or complex_input, \
        "stft: return_complex must be given for real inputs"
    complex_dtype = promoted if complex_input else to_complex_dtype(promoted)
    if return_complex is not None and not return_complex:
        return to_real_dtype(complex_dtype)
    return complex_dtype


_STFT_SHAPES = [
    Invocation(TensorOfShape(100), 16, return_complex=True),
    Invocation(TensorOfShape(3, 100), 16, return_complex=True),
    Invocation(TensorOfShape(0, 100), 16, return_complex=True),
    Invocation(TensorOfShape(100), 16, return_complex=False),
    Invocation(TensorOfShape(100), 16, 5, return_complex=True),
    Invocation(TensorOfShape(100), 16, 4, 8, TensorOfShape(8), return_complex=True),
    Invocation(TensorOfShape(100), 16, window=TensorOfShape(16), onesided=False, return_complex=True),
    Invocation(TensorOfShape(100, dtype=torch.complex64), 16, onesided=False),
    Invocation(TensorOfShape(16), 16, return_complex=True),
    Invocation(TensorOfShape(100), 16, 4, 8, align_to_window=True, return_complex=True),
    Invocation(TensorOfShape(100), 16, 4, 8, align_to_window=False, return_complex=True),
    Invocation(TensorOfShape(100), 15, return_complex=True),
    ErrorInvocation(TensorOfShape(2, 3, 100), 16, return_complex=True),
    ErrorInvocation(TensorOfShape(), 16, return_complex=True),
    ErrorInvocation(TensorOfShape(100), 16, 0, return_complex=True),
    ErrorInvocation(TensorOfShape(100), 16, 4, 17, return_complex=True),
    ErrorInvocation(TensorOfShape(100), 16, 4, 0, return_complex=True),
    ErrorInvocation(TensorOfShape(100), 16, 4, None, TensorOfShape(15), return_complex=True),
    ErrorInvocation(TensorOfShape(100), 16, 4, None, TensorOfShape(16, 1), return_complex=True),
    ErrorInvocation(TensorOfShape(10), 16, return_complex=True),
    ErrorInvocation(TensorOfShape(10), 0, return_complex=True),
    ErrorInvocation(TensorOfShape(10), 16, 4, 8, align_to_window=True, return_complex=True),
]


def _stft_dtype_cases() -> list:
    cases = []
    for d in _SWEEP:
        for return_complex in (True, False, None):
            real = not d.is_complex
            valid = d not in (torch.uint8, torch.int32, torch.int64, torch.bool) and (
                not real or return_complex is not None)
            case = Invocation if valid else ErrorInvocation
            cases.append(case(TensorOfShape(100, dtype=d), 16, return_complex=return_complex))
    for w in (torch.float64, torch.int64, torch.bool, torch.float16, torch.complex64):
        cases.append(Invocation(TensorOfShape(100, dtype=torch.float16), 16,
                                window=TensorOfShape(16, dtype=w), return_complex=True))
    cases.append(Invocation(TensorOfShape(100), 16, window=TensorOfShape(16, dtype=torch.complex64)))
    cases.append(ErrorInvocation(TensorOfShape(100, dtype=torch.complex64), 16, onesided=True,
                                 return_complex=True))
    cases.append(ErrorInvocation(TensorOfShape(100), 16, window=TensorOfShape(16, dtype=torch.complex64),
                                 onesided=True, return_complex=True))
    return cases


def _onesided(cases: list) -> list:
    """`cases` with onesided=True where they leave it to the dtypes (see _stft_shape)."""
    return [type(case)(*case.args, **{"onesided": True, **case.kwargs}) for case in cases]


@shape("aten.stft", invocations=_onesided(_STFT_SHAPES))
def aten〇stft〡shape(self: List[int], n_fft: int, hop_length: Optional[int] = None, win_length: Optional[int] = None, window: Optional[List[int]] = None, normalized: bool = False, onesided: Optional[bool] = None, return_complex: Optional[bool] = None, align_to_window: Optional[bool] = None) -> List[int]:
    length = self[-1] if len(self) > 0 else 0
    return _stft_shape(self, n_fft, hop_length, win_length, window, onesided, return_complex,
                       align_to_window, length)


@dtype("aten.stft", invocations=_stft_dtype_cases())
def aten〇stft〡dtype(self_rank_dtype: Tuple[int, int], n_fft: int, hop_length: Optional[int] = None, win_length: Optional[int] = None, window_rank_dtype: Optional[Tuple[int, int]] = None, normalized: bool = False, onesided: Optional[bool] = None, return_complex: Optional[bool] = None, align_to_window: Optional[bool] = None) -> int:
    return _stft_dtype(self_rank_dtype, window_rank_dtype, onesided, return_complex)


def _check_center_padding(self: List[int], length: int, pad: int, pad_mode: str) -> None:
    """The checks of the 1D padding stft applies to both ends of the signal (a batch of
    signals is padded as channels, which reflect and replicate padding need non-empty)."""
    if pad_mode == "constant":
        return
    if pad_mode == "circular":
        assert pad <= length, "stft: circular padding must not wrap around more than once"
        return
    assert pad_mode == "reflect" or pad_mode == "replicate", "stft: unrecognised padding mode"
    assert upstream.numel(self) != 0, "stft: reflect and replicate padding need a non-empty input"
    if pad_mode == "reflect":
        assert pad < length, "stft: reflect padding must be less than the input length"


@shape("aten.stft.center", invocations=_onesided([
    Invocation(*case.args, **case.kwargs) if not case.expects_error
    else ErrorInvocation(*case.args, **case.kwargs)
    for case in _STFT_SHAPES
    # Centering pads: a short signal has frames; an empty batch cannot be reflected.
    if "align_to_window" not in case.kwargs
    and case.args[0] not in (TensorOfShape(10), TensorOfShape(0, 100))
] + [
    ErrorInvocation(TensorOfShape(0, 100), 16, return_complex=True),
    Invocation(TensorOfShape(10), 16, return_complex=True),
    Invocation(TensorOfShape(0), 16, pad_mode="constant", return_complex=True),
    Invocation(TensorOfShape(0, 100), 16, pad_mode="circular", return_complex=True),
    ErrorInvocation(TensorOfShape(0), 16, pad_mode="circular", return_complex=True),
    ErrorInvocation(TensorOfShape(0), 16, pad_mode="replicate", return_complex=True),
    Invocation(TensorOfShape(100), 16, center=False, align_to_window=True, return_complex=True),
    Invocation(TensorOfShape(100), 16, center=False, return_complex=True),
    Invocation(TensorOfShape(9), 16, return_complex=True),
    Invocation(TensorOfShape(5), 16, pad_mode="constant", return_complex=True),
    Invocation(TensorOfShape(8), 16, pad_mode="circular", return_complex=True),
    Invocation(TensorOfShape(2), 16, pad_mode="replicate", return_complex=True),
    Invocation(TensorOfShape(3, 100), 15, pad_mode="replicate", return_complex=False),
    ErrorInvocation(TensorOfShape(8), 16, return_complex=True),
    ErrorInvocation(TensorOfShape(7), 16, pad_mode="circular", return_complex=True),
    ErrorInvocation(TensorOfShape(100), 16, pad_mode="bad", return_complex=True),
    ErrorInvocation(TensorOfShape(100), 16, align_to_window=False, return_complex=True),
    ErrorInvocation(TensorOfShape(10), 16, center=False, return_complex=True),
]))
def aten〇stft〇center〡shape(self: List[int], n_fft: int, hop_length: Optional[int] = None, win_length: Optional[int] = None, window: Optional[List[int]] = None, center: bool = True, pad_mode: str = 'reflect', normalized: bool = False, onesided: Optional[bool] = None, return_complex: Optional[bool] = None, align_to_window: Optional[bool] = None) -> List[int]:
    length = self[-1] if len(self) > 0 else 0
    if center:
        assert align_to_window is None, "stft: align_to_window should only be set when center is false"
        pad = n_fft // 2
        _check_center_padding(self, length, pad, pad_mode)
        length = length + 2 * pad
    return _stft_shape(self, n_fft, hop_length, win_length, window, onesided, return_complex,
                       align_to_window, length)


@dtype("aten.stft.center", invocations=_stft_dtype_cases())
def aten〇stft〇center〡dtype(self_rank_dtype: Tuple[int, int], n_fft: int, hop_length: Optional[int] = None, win_length: Optional[int] = None, window_rank_dtype: Optional[Tuple[int, int]] = None, center: bool = True, pad_mode: str = 'reflect', normalized: bool = False, onesided: Optional[bool] = None, return_complex: Optional[bool] = None, align_to_window: Optional[bool] = None) -> int:
    return _stft_dtype(self_rank_dtype, window_rank_dtype, onesided, return_complex)
