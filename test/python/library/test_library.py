"""Every library function against PyTorch itself: one pytest item per (function, invocation).

The expected value is what the op computes on meta tensors (fake ones for sizes computed
from the data, see `testing.DataDependentInvocation`). When PyTorch raises, the
library function must raise too; an ErrorInvocation on which PyTorch does not raise is a
broken test case, not a pass.
"""

import pytest

from torch_refine.library import registry
from torch_refine.library.testing import (
    UNKNOWN_DIM,
    UNKNOWN_DTYPE,
    UnknownDtypeInvocation,
    UnknownSizeInvocation,
    dtypes_agree,
    expected_dtypes,
    expected_shapes,
    normalized,
    run_pytorch,
    scripted,
)

CHECKED_KINDS = ("shape", "dtype")


def _cases():
    for entry in registry.functions():
        if entry.kind not in CHECKED_KINDS:
            continue
        for index, invocation in enumerate(entry.invocations):
            yield pytest.param(entry, invocation, id=f"{entry.op}-{entry.kind}-{index}")


def _library_args(entry, invocation):
    return invocation.shape_args() if entry.kind == "shape" else invocation.dtype_args()


@pytest.mark.parametrize(("entry", "invocation"), list(_cases()))
def test_library_function_matches_pytorch(entry, invocation):
    result, torch_error = run_pytorch(entry.op, invocation)
    args, kwargs = _library_args(entry, invocation)
    fn = scripted(entry.fn)
    if torch_error is not None:
        with pytest.raises(Exception):  # noqa: PT011 (TorchScript raises its own error types)
            fn(*args, **kwargs)
        return
    assert not invocation.expects_error, f"PyTorch accepts {invocation}; it is no error case"
    actual = normalized(fn(*args, **kwargs))
    if entry.kind == "shape" and isinstance(invocation, UnknownSizeInvocation):
        expected = expected_shapes(result)
        assert len(actual) == len(expected)
        assert UNKNOWN_DIM in actual
        assert all(a in (UNKNOWN_DIM, e) for a, e in zip(actual, expected, strict=True))
    elif entry.kind == "shape":
        assert actual == expected_shapes(result)
    elif isinstance(invocation, UnknownDtypeInvocation) and isinstance(actual, tuple):
        # Of several results, those whose dtype sizes decide are unknown; the others agree.
        expected = expected_dtypes(result)
        assert UNKNOWN_DTYPE in actual
        assert all(a in (UNKNOWN_DTYPE, e) for a, e in zip(actual, expected, strict=True))
    elif isinstance(invocation, UnknownDtypeInvocation):
        assert actual == UNKNOWN_DTYPE
    else:
        assert dtypes_agree(actual, expected_dtypes(result))


def test_every_function_has_cases(record_property):
    for kind in CHECKED_KINDS:  # for the session summary (test/python/conftest.py)
        record_property(f"library_{kind}_functions", len(registry.functions(kind)))
    missing = [f"{e.op} ({e.kind})" for e in registry.functions() if e.kind in CHECKED_KINDS
               and not e.invocations]
    assert not missing, "library functions without test cases: " + ", ".join(missing)
