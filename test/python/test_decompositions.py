"""Every decomposition function, executed: one pytest item per (function, invocation).

The invocation's call of the op is built as IR (`testing.build_ir`, tensor arguments with
their precise types), `torch-refine-decompose` replaces the op by its decomposition and
refines the new ops, and `torch_refine.execute` runs the result on random tensors, checking
every tensor against its refined type. The outputs must equal PyTorch's op on the same
tensors within TOLERANCE (relative and absolute): the decompositions compute in the op's
dtype, in another order of floating-point operations than PyTorch's fused kernels.
"""

import pytest
import torch

import torch_refine
from torch_refine.ir.context import create_context
from torch_refine.library import registry
from torch_refine.library.testing import TensorOfShape, build_ir, op_overload, parse_ir, reference_of
from torch_refine.passes.decompose import Decompose

TOLERANCE = {torch.float32: 1e-5, torch.float64: 1e-12, torch.float16: 1e-3}


def _cases():
    for entry in registry.functions("decomposition"):
        for index, invocation in enumerate(entry.invocations):
            yield pytest.param(entry, invocation, id=f"{entry.op}-{index}")


def _random_tensors(invocation, generator):
    """The invocation's op arguments with random tensors, and those tensors in order."""
    created = []

    def make(t: TensorOfShape) -> torch.Tensor:
        if t.dtype == torch.bool:
            tensor = torch.rand(t.shape, generator=generator) > 0.3
        else:
            tensor = torch.randn(t.shape, generator=generator, dtype=torch.float64).to(t.dtype)
        created.append(tensor)
        return tensor

    args, kwargs = invocation.op_args(make)
    return args, kwargs, created


def _list_result_ir(op: str, invocation) -> str:
    """`@main` calling a `(Tensor, int, int) -> Tensor[]` op and unpacking its list (what
    `build_ir` cannot build: the unpack's types come from PyTorch's result)."""
    args, _ = invocation.op_args()
    tensor, *numbers = args
    numbers += [0] * (2 - len(numbers))  # the default dim
    pieces = op_overload(op)(tensor, *numbers)
    types = [_type(p) for p in pieces]
    results = ", ".join(f"%1#{i}" for i in range(len(types)))
    return (
        f"func.func @main(%x: {_type(tensor)}) -> ({', '.join(types)}) {{\n"
        f"  %a = torch.constant.int {numbers[0]}\n  %b = torch.constant.int {numbers[1]}\n"
        f"  %0 = torch.{op} %x, %a, %b : {_type(tensor)}, !torch.int, !torch.int"
        " -> !torch.list<vtensor>\n"
        f"  %1:{len(types)} = torch.prim.ListUnpack %0 : !torch.list<vtensor>"
        f" -> {', '.join(types)}\n"
        f"  return {results} : {', '.join(types)}\n}}\n"
    )


def _type(tensor: torch.Tensor) -> str:
    return f"!torch.vtensor<[{','.join(str(d) for d in tensor.shape)}],f32>"


def _decomposed(op: str, invocation) -> str:
    returns_list = str(op_overload(op)._schema.returns[0].type) == "List[Tensor]"
    text = _list_result_ir(op, invocation) if returns_list else build_ir(op, invocation)
    module = parse_ir(text, create_context())
    Decompose().run(module.operation)
    return str(module)


@pytest.mark.parametrize(("entry", "invocation"), list(_cases()))
def test_decomposition_matches_pytorch(entry, invocation):
    text = _decomposed(entry.op, invocation)
    assert f"torch.{entry.op} " not in text, f"{entry.op} was not decomposed:\n{text}"
    args, kwargs, tensors = _random_tensors(invocation, torch.Generator().manual_seed(0))
    expected = reference_of(entry.op, invocation)(*args, **kwargs)
    actual = torch_refine.execute(text, *tensors, check_types=True)
    expected = tuple(expected) if isinstance(expected, tuple | list) else (expected,)
    actual = actual if isinstance(actual, tuple) else (actual,)
    assert len(actual) == len(expected)
    for got, want in zip(actual, expected, strict=True):
        assert got.dtype == want.dtype
        assert got.shape == want.shape
        tolerance = TOLERANCE.get(want.dtype, 0)
        torch.testing.assert_close(got, want, rtol=tolerance, atol=tolerance)


def test_every_decomposition_has_cases():
    missing = [e.op for e in registry.functions("decomposition") if not e.invocations]
    assert not missing, "decomposition functions without test cases: " + ", ".join(missing)
