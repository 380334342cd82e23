"""im2col and kron (library/long_tail.py) on dynamic dims against PyTorch, and im2col's
error messages.

PyTorch's fake kernels for these two ops pin a dynamic size to its example value, so the
meta fallback claims no size of them; their library functions must give every result dim
as an expression of the operands' sizes. Each case (hand-made, and the calls OpInfo samples
of `nn.functional.unfold` and `kron` make) becomes a program whose tensor operands have
every dim `?`, refined with `keep-symbolic-dims`:

- every result dim must be an expression (`torch_refine.dims`, no `""`), and the dtype
  PyTorch's;
- evaluated at the case's own sizes and at two other sets of sizes (a quotient symbol by
  its definition), the expressions must equal the sizes PyTorch's meta kernel gives, where
  it accepts those sizes;
- the refined program, run on CPU tensors of those sizes with every type checked, must
  pass its asserts (the functions' checks are no false errors), where the CPU kernel
  accepts them too (it rejects a negative padding, which the meta kernel and the
  library accept).
"""

import itertools
import re

import pytest
import torch
from test_meta_fallback import _dynamic
from torch.testing._internal.common_methods_invocations import op_db
from torch.utils._python_dispatch import TorchDispatchMode
from torch_mlir import ir

import torch_refine
from torch_refine import passes
from torch_refine.calculations import facts
from torch_refine.calculations.dim_facts import ATTRIBUTE
from torch_refine.driver.passmanager import PassManager
from torch_refine.ir import types
from torch_refine.ir.context import create_context
from torch_refine.library import registry
from torch_refine.library.testing import (
    Invocation,
    KernelInvocation,
    TensorOfShape,
    build_ir,
    pytorch_infos,
    run_pytorch,
    scripted,
)
from torch_refine.symbolic.polynomial import Polynomial, is_computed, parse_polynomial

SAMPLES = 40  # per OpInfo; unfold's vary kernel, dilation, padding and stride


def _T(*sizes: int, dtype=torch.float32) -> TensorOfShape:
    return TensorOfShape(*sizes, dtype=dtype)


HAND_MADE = [
    ("aten.im2col", Invocation(_T(2, 4, 9, 7), [3, 2], [1, 2], [1, 0], [2, 1])),
    ("aten.im2col", Invocation(_T(4, 9, 7), [3, 2], [1, 2], [1, 0], [2, 1])),
    ("aten.im2col", Invocation(_T(1, 3, 8, 8), [2, 2], [1, 1], [0, 0], [1, 1])),
    ("aten.im2col", Invocation(_T(0, 3, 6, 5), [1, 3], [2, 1], [2, 1], [3, 2])),
    ("aten.im2col", Invocation(_T(2, 2, 7, 6), [2, 2], [1, 1], [-1, 0], [1, 1])),
    ("aten.im2col", Invocation(_T(2, 3, 6, 6, dtype=torch.float64), [2, 2], [1, 1], [0, 0], [1, 1])),
    ("aten.kron", Invocation(_T(2, 3), _T(4, 5))),
    ("aten.kron", Invocation(_T(3), _T(2, 4, 5))),
    ("aten.kron", Invocation(_T(2, 1, 3), _T(4, 5))),
    ("aten.kron", Invocation(_T(0, 3), _T(2, 5))),
    ("aten.kron", Invocation(_T(2, 3, dtype=torch.int64), _T(4, dtype=torch.float16))),
]


def _described(value):
    if isinstance(value, torch.Tensor):
        return TensorOfShape(*value.shape, dtype=value.dtype)
    return list(value) if isinstance(value, tuple) else value


class _Im2colCalls(TorchDispatchMode):
    def __init__(self, calls: list) -> None:
        super().__init__()
        self.calls = calls

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if func is torch.ops.aten.im2col.default:
            self.calls.append(("aten.im2col", Invocation(*map(_described, args))))
        return func(*args, **(kwargs or {}))


def _opinfo_cases() -> list:
    calls: list = []
    for opinfo in op_db:
        if opinfo.variant_test_name or opinfo.name not in ("nn.functional.unfold", "kron"):
            continue
        for sample in itertools.islice(opinfo.sample_inputs("cpu", torch.float32), SAMPLES):
            if opinfo.name == "kron":  # a composite op: no dispatch mode sees the call itself
                calls.append(("aten.kron", Invocation(*map(_described, (sample.input, *sample.args)))))
                continue
            with _Im2colCalls(calls):
                opinfo(sample.input, *sample.args, **sample.kwargs)
    return calls


def _cases():
    unique = {f"{op} {invocation}": (op, invocation) for op, invocation in HAND_MADE + _opinfo_cases()}
    return [pytest.param(op, invocation, id=key) for key, (op, invocation) in unique.items()]


def _refined_with_dims(text: str) -> tuple[ir.Module, list[str], types.TensorInfo]:
    """The refined module, its op's `torch_refine.dims` for the first result and that
    result's type."""
    module = ir.Module.parse(text, create_context())
    pass_manager = PassManager(module.context)
    pass_manager.add_python_pass(passes.get("torch-refine-pipeline")(keep_symbolic_dims=True))
    pass_manager.run(module.operation)
    found: list = []

    def visit(op):
        if ATTRIBUTE in op.attributes:
            dims = [ir.StringAttr(d).value for d in ir.ArrayAttr(ir.ArrayAttr(op.attributes[ATTRIBUTE])[0])]
            found.append((dims, types.parse(op.results[0].type)))
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    assert len(found) == 1, f"{len(found)} ops with symbolic dims:\n{module}"
    return module, *found[0]


def _value(polynomial: Polynomial, sizes: list[tuple[int, ...]]) -> int:
    """The polynomial at the arguments' sizes; a computed symbol by its definition (this run's)."""
    total = 0
    for monomial, coefficient in polynomial.terms.items():
        term = coefficient
        for symbol in monomial:
            term *= _symbol_value(symbol, sizes)
        total += term
    return total


def _symbol_value(symbol, sizes: list[tuple[int, ...]]) -> int:
    if not is_computed(symbol):
        argument, dim, divisor = symbol
        return sizes[argument][dim] // divisor
    definition = facts.definition(symbol)
    assert definition is not None, f"{symbol} is a fresh symbol: an unknown size"
    assert definition[0] == facts.FLOOR_DIVIDE, f"{symbol}: {definition}"
    _, dividend, divisor = definition
    divisor = divisor if isinstance(divisor, int) else _value(divisor, sizes)
    return _value(dividend, sizes) // divisor


def _resized(invocation: Invocation, resize) -> Invocation:
    args = [TensorOfShape(*map(resize, a.shape), dtype=a.dtype) if isinstance(a, TensorOfShape) else a
            for a in invocation.args]
    return Invocation(*args)


SIZE_SETS = (lambda s: s, lambda s: s + 1, lambda s: 2 * s + 3)


@pytest.mark.parametrize(("op", "invocation"), _cases())
def test_dynamic_dims_are_pytorchs_expressions(op, invocation):
    module, dims, refined = _refined_with_dims(build_ir(op, invocation, argument_type=_dynamic))
    assert all(dims), f"dims left unknown: {dims}"
    polynomials = [parse_polynomial(d) for d in dims]
    accepted = []
    for resize in SIZE_SETS:  # the quotient symbols' definitions are this run's: read them first
        case = _resized(invocation, resize)
        result, error = run_pytorch(op, case)
        if error is not None:  # these sizes are no valid call (an im2col with no block)
            continue
        sizes = [tuple(a.shape) for a in case.args if isinstance(a, TensorOfShape)]
        assert [_value(p, sizes) for p in polynomials] == list(result.shape), f"{dims} at {sizes}"
        assert refined.dtype == pytorch_infos(result, True)[0].dtype
        accepted.append(case)
    assert accepted, "PyTorch accepts none of the sizes"
    for case in accepted:
        if run_pytorch(op, KernelInvocation(*case.args))[1] is not None:
            continue  # the CPU kernel's own check (a negative padding), which the meta kernel lacks
        tensors = [torch.zeros(a.shape, dtype=a.dtype) for a in case.args if isinstance(a, TensorOfShape)]
        torch_refine.execute(module, *tensors, check_types=True)


def _im2col_error_cases():
    entry = next(e for e in registry.functions("shape") if e.op == "aten.im2col")
    return [pytest.param(entry.fn, invocation, id=repr(invocation))
            for invocation in entry.invocations if invocation.expects_error]


@pytest.mark.parametrize(("fn", "invocation"), _im2col_error_cases())
def test_im2col_raises_pytorchs_message(fn, invocation):
    """PyTorch's message, the values (`{}` in the library's) aside: the same check fails first."""
    _, error = run_pytorch("aten.im2col", invocation)
    assert error is not None
    args, kwargs = invocation.shape_args()
    with pytest.raises(Exception) as raised:  # noqa: PT011 (TorchScript raises its own error types)
        scripted(fn)(*args, **kwargs)
    message = str(raised.value).rsplit("AssertionError: ", 1)[1].splitlines()[0]
    pattern = ".*".join(map(re.escape, message.split("{}")))
    assert re.fullmatch(pattern, str(error).splitlines()[0]), f"{message!r}, PyTorch {error}"
