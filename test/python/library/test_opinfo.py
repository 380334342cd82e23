"""The library against PyTorch's OpInfo database: real calls, real arguments, many dtypes.

Every OpInfo's sample inputs (at most SAMPLES in float32, fewer in other dtypes) run on CPU
while two modes record the aten calls they make: a TorchDispatchMode sees every op that
reaches a kernel, and a TorchFunctionMode replays the public call on the
CompositeImplicitAutograd overloads we have functions for (those decompose before any
dispatch mode sees them). Each recorded call of an overload with a shape or dtype function is
one case: its arguments, described before the call (in-place ops resize), go to our function,
whose result must equal the sizes and dtypes of what the kernel returned (a size the library
leaves to the data matches any). One pytest item per (OpInfo, dtype).
"""

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import torch
from torch.overrides import TorchFunctionMode
from torch.testing._internal.common_methods_invocations import op_db
from torch.utils._python_dispatch import TorchDispatchMode

from torch_refine.library import registry
from torch_refine.library.testing import (
    UNKNOWN_DIM,
    Invocation,
    dtype_code,
    dtype_of,
    dtypes_agree,
    expected_dtypes,
    expected_shapes,
    normalized,
    op_overload,
    scalar_dtype,
    scripted,
)

# Samples per (OpInfo, dtype): float32 runs more of them, for shapes; the other dtypes mostly
# exercise dtype rules, for which a few samples do.
SAMPLES = 8
SAMPLES_OTHER_DTYPES = 3
DTYPES = (
    torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32,
    torch.uint8, torch.bool, torch.complex64,
)
CHECKED_KINDS = ("shape", "dtype")

# Where PyTorch's CPU kernels and its meta kernels disagree, the library follows the meta
# kernels (device-independent, and what CUDA computes), the native batch norms excepted.
# Listed in docs/library.md.
REDUCED_STATISTICS = (
    "CPU kernels keep the float16/bfloat16 statistics (mean, rstd) of normalizations in the "
    "input dtype; the meta kernels, and the library, give float32"
)
REDUCED = (torch.float16, torch.bfloat16)
# (OpInfo name, variant, dtype or None for all) -> why our function disagrees with PyTorch there.
KNOWN_DISAGREEMENTS: dict[tuple[str, str, torch.dtype | None], str] = {
    **{(name, "", dtype): REDUCED_STATISTICS
       for name in ("native_layer_norm", "nn.functional.layer_norm")
       for dtype in REDUCED},
}


def _covered() -> dict:
    """Op overload -> our shape and dtype functions for it."""
    table: dict = {}
    for entry in registry.functions():
        if entry.kind not in CHECKED_KINDS:
            continue
        if not entry.signature_check:  # not PyTorch's op (torchvision, ONNX): no OpInfo samples
            continue
        overload = op_overload(entry.op)
        if torch._C._dispatch_has_kernel(overload.name()):  # not TorchScript's hacked_twin
            table.setdefault(overload, []).append(entry)
    return table


COVERED = _covered()
# CompositeImplicitAutograd overloads by their public name (`linear`, `softmax`, ...).
COMPOSITE: dict[str, list] = {}
for _overload in COVERED:
    if torch._C._dispatch_has_kernel_for_dispatch_key(
            _overload.name(), "CompositeImplicitAutograd"):
        COMPOSITE.setdefault(_overload._opname, []).append(_overload)


class _NotTyped(Exception):
    """A captured argument the Torch dialect cannot carry as its schema type."""


def _holds_tensor(value) -> bool:
    if isinstance(value, list | tuple):
        return any(_holds_tensor(v) for v in value)
    return isinstance(value, torch.Tensor)


def _typed(argument, value):
    """`value` as the Torch dialect carries `argument`: the dispatcher also accepts a number
    for a Tensor (wrapping it), a 0-dim tensor for an int and an int for an int list."""
    text = argument.type.annotation_str
    if "Tensor" in text:
        if value is not None and not _holds_tensor(value):
            raise _NotTyped(argument.name)
        return value
    if _holds_tensor(value):
        raise _NotTyped(argument.name)
    if "List[int]" in text and isinstance(value, bool):
        raise _NotTyped(argument.name)
    if "List[int]" in text and isinstance(value, int):
        return [value] * (argument.N or 1)
    return value


def _typed_invocation(overload, args: tuple, kwargs: dict) -> Invocation:
    """Positional operands up to the last one given (defaults between), then keyword-only."""
    arguments = overload._schema.arguments
    kwargs = dict(kwargs)
    positional = list(args)
    last = max((i for i, a in enumerate(arguments) if a.name in kwargs and not a.kwarg_only),
               default=-1)
    for argument in arguments[len(positional):last + 1]:
        positional.append(kwargs.pop(argument.name) if argument.name in kwargs
                          else argument.default_value)
    typed_args = [_typed(a, v) for a, v in zip(arguments, positional, strict=False)]
    by_name = {a.name: a for a in arguments}
    typed_kwargs = {k: _typed(by_name[k], v) for k, v in kwargs.items()}
    return Invocation.of_call(tuple(typed_args), typed_kwargs)


def _has_complex(invocation: Invocation) -> bool:
    return any(isinstance(v, complex) for v in (*invocation.args, *invocation.kwargs.values()))


@dataclass
class Call:
    overload: object
    invocation: Invocation
    expected: dict  # kind -> the result's sizes or dtype codes, taken at once (in-place ops)
    number: bool  # a Python number result


def _call(overload, invocation: Invocation, result) -> Call:
    expected = {"dtype": expected_dtypes(result)}
    try:
        expected["shape"] = expected_shapes(result)
    except TypeError:  # a number result has a dtype only
        pass
    return Call(overload, invocation, expected, _is_number(result))


def _is_number(value) -> bool:
    return isinstance(value, bool | int | float | complex)


def _number_kind(code: int) -> int:
    """The dtype of the Python number a tensor of dtype `code` reads as (`.item()`).

    A dtype function gives a number result its tensor's dtype (a caller refines
    `!torch.number` with it); Python only keeps the kind: bool, int64, float64, complex128.
    """
    return dtype_code(scalar_dtype(torch.zeros((), dtype=dtype_of(code)).item()))


class _KernelCalls(TorchDispatchMode):
    def __init__(self, calls: list[Call]):
        super().__init__()
        self.calls = calls

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func not in COVERED:
            return func(*args, **kwargs)
        try:
            invocation = _typed_invocation(func, args, kwargs)
        except _NotTyped:
            return func(*args, **kwargs)
        result = func(*args, **kwargs)
        self.calls.append(_call(func, invocation, result))
        return result


class _CompositeCalls(TorchFunctionMode):
    """Replays a public call on the first covered composite overload that accepts it."""

    def __init__(self, calls: list[Call]):
        super().__init__()
        self.calls = calls

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        for overload in COMPOSITE.get(getattr(func, "__name__", ""), ()):
            try:
                invocation = _typed_invocation(overload, args, kwargs)
                result = overload(*args, **kwargs)
            except Exception:  # not this overload's arguments
                continue
            self.calls.append(_call(overload, invocation, result))
            break
        return func(*args, **kwargs)


def _record(op, samples) -> list[Call]:
    calls: list[Call] = []
    for sample in samples:
        with _CompositeCalls(calls), _KernelCalls(calls):
            try:
                op(sample.input, *sample.args, **sample.kwargs)
            except Exception:  # the calls made before the failure count
                continue
    return calls


def _matches(actual, expected) -> bool:
    """Equal, except that a size the library leaves to the data (UNKNOWN_DIM) and a dtype it
    leaves to the sizes (UNKNOWN_DTYPE, the same -1) match any."""
    if isinstance(actual, int) and isinstance(expected, list):
        return dtypes_agree(actual, expected)  # one dtype for every piece of a Tensor[]
    if isinstance(actual, list | tuple) and isinstance(expected, list | tuple):
        return (type(actual) is type(expected) and len(actual) == len(expected)
                and all(_matches(a, e) for a, e in zip(actual, expected, strict=True)))
    return actual == expected or (actual == UNKNOWN_DIM and isinstance(expected, int))


def _comparable(entry, call: Call) -> bool:
    """Shape functions take a Scalar as `float`: a complex one has no shape-function call."""
    return entry.kind != "shape" or not _has_complex(call.invocation)


def _disagreement(entry, call: Call) -> str | None:
    if entry.kind == "shape":
        args, kwargs = call.invocation.shape_args()
    else:
        args, kwargs = call.invocation.dtype_args()
    expected = call.expected[entry.kind]
    try:
        actual = normalized(scripted(entry.fn)(*args, **kwargs))
    except Exception as error:  # any failure of ours is a disagreement
        return f"{entry.op} {entry.kind} raises on {call.invocation}: {error!s:.300}"
    if call.number and entry.kind == "dtype":
        actual = _number_kind(actual)
    if not _matches(actual, expected):
        return f"{entry.op} {entry.kind} on {call.invocation}: {actual}, PyTorch {expected}"
    return None


def _cases() -> Iterator:
    for op in op_db:
        supported = op.supported_dtypes("cpu")
        for dtype in DTYPES:
            if dtype not in supported:
                continue
            name = str(dtype).removeprefix("torch.")
            marks = []
            for key in ((op.name, op.variant_test_name, dtype),
                        (op.name, op.variant_test_name, None)):
                if (reason := KNOWN_DISAGREEMENTS.get(key)) is not None:
                    marks.append(pytest.mark.xfail(strict=True, reason=reason))
            variant = f".{op.variant_test_name}" if op.variant_test_name else ""
            yield pytest.param(op, dtype, marks=marks, id=f"{op.name}{variant}-{name}")


@pytest.mark.parametrize(("op", "dtype"), list(_cases()))
def test_opinfo_samples_agree(op, dtype, record_property):
    count = SAMPLES if dtype == torch.float32 else SAMPLES_OTHER_DTYPES
    samples = list(itertools.islice(op.sample_inputs("cpu", dtype), count))
    seen: set[str] = set()
    failures: list[str] = []
    for call in _record(op, samples):
        for entry in COVERED[call.overload]:
            key = f"{entry.op}-{entry.kind}{call.invocation}"
            if key in seen or not _comparable(entry, call):
                continue
            seen.add(key)
            if (failure := _disagreement(entry, call)) is not None:
                failures.append(failure)
    record_property("opinfo_cases", len(seen))  # for the session summary (conftest.py)
    record_property("opinfo_disagreements", len(failures))
    assert not failures, "\n".join(failures[:20])
