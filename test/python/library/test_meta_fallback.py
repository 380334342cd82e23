"""The meta fallback (library/meta_fallback.py) against PyTorch, as the library is checked.

OpInfo samples run on CPU (float32 and int64; every dtype in the full sweep) while a
dispatch mode records each aten call of an overload the library has no shape or dtype
function for: the ops the fallback serves.
Each call becomes a function calling the op (`testing.build_ir`), refined twice:

- static: the operand types exact; every result must be PyTorch's type exactly, but for
  sizes PyTorch's fake kernel itself computes from the data (left `?`, said so);
- dynamic: every dim of every tensor operand `?`; the refined types must agree with
  PyTorch's (a `?` matches any size), and the refined program, run on the sample's own
  tensors with every type checked (`torch_refine.execute`), must pass its asserts, the
  fallback's guards among them, under the default broadcast rule (PyTorch's samples
  broadcast sizes of 1).

`make test` runs a fixed slice of OpInfos (SLICE); `make fallback-sweep`
(TORCH_REFINE_FALLBACK_SWEEP=full) runs every OpInfo.
"""

import functools
import itertools
import os
import subprocess
import sys
import time

import pytest
import torch
from test_opinfo import _NotTyped, _typed_invocation
from torch.overrides import TorchFunctionMode
from torch.testing._internal.common_methods_invocations import op_db
from torch.utils._python_dispatch import TorchDispatchMode

import torch_refine
from torch_refine.api import RefinementError, refine
from torch_refine.ir import types
from torch_refine.ir.context import create_context
from torch_refine.library import loader, meta_fallback
from torch_refine.library.testing import (
    Unbuildable,
    build_ir,
    is_in_place,
    parse_ir,
    pytorch_infos,
    result_infos,
    tensor_type,
)
from torch_refine.symbolic.polynomial import Polynomial

SAMPLES = 4
SAMPLES_OTHER_DTYPES = 2  # for dtypes: sizes are float32's to check
CALLS_PER_OPINFO = 8
# float32 for sizes; the others for the dtypes PyTorch's kernels give (the fallback's own).
DTYPES = (torch.float32, torch.int64)
FULL_DTYPES = (torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32,
               torch.uint8, torch.bool, torch.complex64)
# OpInfos whose samples reach ops without a library function, among those issue 42 names
# (logsumexp, cummax, diff, index_add, ... have library functions now: long_tail.py).
SLICE = ("cross", "vstack", "dstack", "block_diag", "isin", "take_along_dim", "trapezoid",
         "cumulative_trapezoid", "nn.functional.pdist", "linalg.inv", "linalg.solve", "linalg.qr", "fft.rfftn",
         "lu_unpack", "combinations")
FULL = os.environ.get("TORCH_REFINE_FALLBACK_SWEEP") == "full"
# (OpInfo name, dtype) -> where PyTorch's CPU kernel and its meta kernel, which the fallback
# follows (as the library does, docs/library.md), disagree.
KNOWN_DISAGREEMENTS = {
    ("nn.functional.embedding_bag", torch.bfloat16):
        "CPU's bfloat16 embedding_bag with per-sample weights returns an empty offset2bag; the "
        "meta kernel sizes it by the indices",
}
LIBRARY = loader.load(create_context())


def _op_name(func) -> str:
    name = func._schema.name.split("::", 1)[1]
    overload = func._overloadname
    return f"aten.{name}" if overload == "default" else f"aten.{name}.{overload}"


def _served(func) -> bool:
    if func.namespace != "aten":
        return False
    op = _op_name(func)
    return not (LIBRARY.has_function(op, ("shape",)) and LIBRARY.has_function(op, ("dtype",)))


def _tensors(schema, args: tuple, kwargs: dict) -> list:
    """The tensors of a call in schema order, as `build_ir` makes them arguments."""
    found = []

    def visit(value):
        if isinstance(value, torch.Tensor):
            found.append(value.clone())
        elif isinstance(value, list | tuple):
            for element in value:
                visit(element)

    for index, argument in enumerate(schema.arguments):
        visit(args[index] if index < len(args) else kwargs.get(argument.name))
    return found


def _call(calls: list, overload, args: tuple, kwargs: dict):
    """Run `overload`, recording the call (its invocation, tensors and PyTorch's types) when
    the fallback may serve it: value semantics, strided tensors."""
    invocation = _typed_invocation(overload, args, kwargs)
    tensors = _tensors(overload._schema, args, kwargs)
    result = overload(*args, **kwargs)
    outputs = list(result) if isinstance(result, tuple | list) else [result]
    strided = all(t.layout == torch.strided for t in [*tensors, *outputs] if isinstance(t, torch.Tensor))
    if strided and not is_in_place(overload._schema):
        calls.append((_op_name(overload), invocation, tensors, pytorch_infos(result, True)))
    return result


class _FallbackCalls(TorchDispatchMode):
    def __init__(self, calls: list):
        super().__init__()
        self.calls = calls

    def __torch_dispatch__(self, func, types_, args=(), kwargs=None):
        kwargs = kwargs or {}
        if not _served(func) or len(self.calls) >= CALLS_PER_OPINFO:
            return func(*args, **kwargs)
        try:
            return _call(self.calls, func, args, kwargs)
        except _NotTyped:
            return func(*args, **kwargs)


@functools.cache
def _composite_overloads(name: str) -> tuple:
    """The overloads of `aten.<name>` the fallback serves that decompose before a dispatch
    mode sees them (diff, cross, vstack, ...): a program imported without decomposition has them."""
    packet = getattr(torch.ops.aten, name, None) if name.isidentifier() else None
    if packet is None:
        return ()
    overloads = [getattr(packet, overload) for overload in packet.overloads()]
    return tuple(o for o in overloads if _served(o) and torch._C._dispatch_has_kernel_for_dispatch_key(
        o.name(), "CompositeImplicitAutograd"))


class _CompositeCalls(TorchFunctionMode):
    """Replays a public call on the first served composite overload that accepts it."""

    def __init__(self, calls: list):
        super().__init__()
        self.calls = calls

    def __torch_function__(self, func, types_, args=(), kwargs=None):
        kwargs = kwargs or {}
        for overload in _composite_overloads(getattr(func, "__name__", "")):
            if len(self.calls) >= CALLS_PER_OPINFO:
                break
            try:
                _call(self.calls, overload, args, kwargs)
            except Exception:  # not this overload's arguments
                continue
            break
        return func(*args, **kwargs)


def _record(opinfo, dtype=torch.float32) -> list:
    calls: list = []
    count = SAMPLES if dtype == torch.float32 else SAMPLES_OTHER_DTYPES
    for sample in itertools.islice(opinfo.sample_inputs("cpu", dtype), count):
        with _CompositeCalls(calls), _FallbackCalls(calls):
            try:
                opinfo(sample.input, *sample.args, **sample.kwargs)
            except Exception:  # the calls made before the failure count
                continue
    return calls


def _dynamic(tensor, value_semantics: bool) -> str:
    static = tensor_type(tensor, value_semantics)
    if tensor is None:
        return static
    head, element = static.split("<", 1)[0], static.rsplit(",", 1)[1]
    return f"{head}<[{','.join('?' * len(tensor.shape))}],{element}"


def _agrees(refined: types.TensorInfo | None, truth: types.TensorInfo) -> bool:
    """Whether the refined type says nothing PyTorch's result denies."""
    return refined is not None and types.meet(refined, truth) == truth


def _data_dependent(report) -> bool:
    """Whether every value left inexact is so because PyTorch's fake kernel needs the data
    (a `.item()` in corrcoef, a nonzero in combinations): static sizes are then `?` too."""
    rows = report.unknown_rows + report.partial_rows
    return bool(rows) and all(meta_fallback.DATA_DEPENDENT in (row.reason or "") for row in rows)


def _check(op: str, invocation, tensors: list, truth: list, dynamic: bool) -> str | None:
    try:
        text = build_ir(op, invocation, argument_type=_dynamic if dynamic else tensor_type)
        module = parse_ir(text)
    except Unbuildable:
        return None
    where = f"{op} {'dynamic' if dynamic else 'static'} on {invocation}"
    try:
        report = refine(module).report
    except RefinementError as error:
        return f"{where}: refinement fails: {error!s:.300}"
    refined = result_infos(module)
    if len(refined) != len(truth):
        return f"{where}: {len(refined)} results, PyTorch {len(truth)}"
    if not dynamic and refined != truth and not _data_dependent(report):
        return f"{where}: {[r and r.text() for r in refined]}, PyTorch {[t.text() for t in truth]}"
    if not all(_agrees(r, t) for r, t in zip(refined, truth, strict=True)):
        return f"{where}: {[r and r.text() for r in refined]} contradicts PyTorch {[t.text() for t in truth]}"
    if dynamic:
        try:
            torch_refine.execute(module, *tensors, check_types=True, allow_side_effects=True)
        except Exception as error:  # an assert failing, a type contradicted
            return f"{where}: running it fails: {error!s:.300}"
    return None


def _opinfos():
    chosen = op_db if FULL else [o for o in op_db if o.name in SLICE and not o.variant_test_name]
    for opinfo in chosen:
        name = opinfo.name + (f".{opinfo.variant_test_name}" if opinfo.variant_test_name else "")
        supported = opinfo.supported_dtypes("cpu")
        for dtype in FULL_DTYPES if FULL else DTYPES:
            if dtype not in supported:
                continue
            reason = KNOWN_DISAGREEMENTS.get((opinfo.name, dtype))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            yield pytest.param(opinfo, dtype, marks=marks, id=f"{name}-{str(dtype).removeprefix('torch.')}")


@pytest.mark.parametrize(("opinfo", "dtype"), list(_opinfos()))
def test_fallback_agrees_with_pytorch(opinfo, dtype, record_property):
    calls = _record(opinfo, dtype)
    if not calls:
        pytest.skip("no call of an op the fallback serves")
    failures = [failure for op, invocation, tensors, truth in calls for dynamic in (False, True)
                if (failure := _check(op, invocation, tensors, truth, dynamic)) is not None]
    record_property("fallback_cases", 2 * len(calls))
    assert not failures, "\n".join(failures[:10])


def test_slice_reaches_the_fallback():
    """The fixed slice keeps meaning something: each of its OpInfos reaches served ops."""
    missed = [o.name for o in op_db if o.name in SLICE and not o.variant_test_name and not _record(o)]
    assert not missed


# --- the answers themselves ---------------------------------------------------------------


A, B, C = Polynomial.symbol(0, 0), Polynomial.symbol(1, 0), Polynomial.symbol(2, 0)
RANGES = (((0, 0, 1), 0, None), ((1, 0, 1), 0, None), ((2, 0, 1), 0, None))


def _signature(op: str, *operands, results=(True,)) -> meta_fallback.Signature:
    return meta_fallback.Signature(op, operands, RANGES, results)


def _tensor(*sizes, dtype: int = 6) -> meta_fallback.TensorOperand:
    return meta_fallback.TensorOperand(tuple(sizes), dtype)


@pytest.mark.parametrize(("signature", "sizes", "guards"), [
    # a growing guard proved case by case: vstack's sum of sizes unequal to 0
    (_signature("aten.vstack", (_tensor(A, 3), _tensor(B, 3))), (A + B, 3), ()),
    # a two-symbol product: inner's `a*b >= 2` checked at a=0, b=0, a=b=1
    (_signature("aten.inner", _tensor(A, 3), _tensor(B, 3)), (A, B), ()),
    # a range: cdist's branch on sizes over 25, checked symbolically below it
    (_signature("aten.cdist", _tensor(A, 2), _tensor(B, 2), 2.0, None), (A, B), ()),
    # a stride's `Max(1, b) == b` is the comparison `1 <= b`, proved at b = 0
    (_signature("aten.index_add", _tensor(A, B), 0, _tensor(C, dtype=4), _tensor(C, B), 1), (A, B), ()),
    (_signature("aten.index_copy", _tensor(A, B), 0, _tensor(C, dtype=4), _tensor(C, B)), (A, B), ()),
    # a guard the answer needs is kept: at a == 0 diff's dim is 0, not a - 1
    (_signature("aten.diff", _tensor(A, 3), 1, 0, None, None), (A - Polynomial.constant(1), 3),
     (("torch.aten.le.int", Polynomial.constant(1), A),)),
])
def test_answers(signature, sizes, guards):
    answer = meta_fallback.infer(signature)
    expected = tuple(s.constant_value() if isinstance(s, Polynomial) and s.constant_value() is not None else s
                     for s in sizes)
    assert answer.results[0][0] == expected
    assert answer.guards == guards


def test_branches_are_no_checks():
    """A guard the kernel takes a branch on (squeeze's `a != 1`, diff's `1 <= a`, where the
    size would be 0) is no check it raises without: by default (broadcast-equal=false) it is not
    asserted, and the sizes it needs are not claimed."""
    diff = meta_fallback.infer(_signature("aten.diff", _tensor(A, 3), 1, 0, None, None))
    assert diff.guards
    assert diff.checks == ()
    squeeze = meta_fallback.infer(_signature("aten.squeeze_copy", _tensor(A, 3)))
    assert squeeze.guards == (("torch.aten.ne.int", A, Polynomial.constant(1)),)
    assert squeeze.checks == ()


def test_a_kernel_raising_after_one_guard_asserts_its_negation():
    """linalg_inv of `[a,3]` raises at a = 31 after `a != 3`: it raises wherever that holds,
    so `a == 3` is a check, and the answer is the kernel's at a = 3."""
    answer = meta_fallback.infer(_signature("aten.linalg_inv", _tensor(A, 3)))
    required = ("torch.aten.eq.int", A, Polynomial.constant(3))
    assert answer.results == (((3, 3), 6),)
    assert answer.guards == answer.checks == (required,)


def test_a_pinned_size_is_not_claimed():
    answer = meta_fallback.infer(_signature("aten.complex", _tensor(A, 2), _tensor(A, 2)))
    assert answer.results == ((None, 9),)
    assert "pinned" in answer.reason


def test_data_dependent_sizes_stay_unknown():
    answer = meta_fallback.infer(_signature("aten.nonzero", _tensor(A, 2)))
    assert answer.results == (((None, 2), 4),)
    assert answer.reason.startswith(meta_fallback.DATA_DEPENDENT)


def test_answers_are_cached():
    signature = _signature("aten.logcumsumexp", _tensor(A, 5), 1)
    started = time.perf_counter()
    first = meta_fallback.infer(signature)
    cold = time.perf_counter() - started
    started = time.perf_counter()
    assert meta_fallback.infer(signature) is first
    assert time.perf_counter() - started < cold


STARTUP = """
import sys
from torch_refine.tools.opt import main
status = main(['--pass-pipeline=builtin.module(torch-refine-pipeline)', sys.argv[1]])
print('torch' in sys.modules)
sys.exit(status)
"""


LIBRARY_OP = """func.func @f(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %0 = torch.aten.tanh %x : !torch.vtensor<[2,3],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}
"""
FALLBACK_OP = """func.func @f(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %float1 = torch.constant.float 1.0
  %int0 = torch.constant.int 0
  %0 = torch.operator "torch.aten.trapezoid.dx"(%x, %float1, %int0) : (!torch.vtensor<[2,3],f32>, !torch.float, !torch.int) -> !torch.vtensor
  return %0 : !torch.vtensor
}
"""


@pytest.mark.parametrize(("text", "imports"), [(LIBRARY_OP, False), (FALLBACK_OP, True)], ids=["library", "fallback"])
def test_torch_is_imported_only_for_the_fallback(tmp_path, text, imports):
    source = tmp_path / "f.mlir"
    source.write_text(text)
    completed = subprocess.run([sys.executable, "-c", STARTUP, str(source)], capture_output=True, text=True,
                               check=False)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip().splitlines()[-1] == str(imports)
    assert ("vtensor<[3],f32>" if imports else "vtensor<[2,3],f32>") in completed.stdout
