"""The refinement pipelines on small programs, checked against PyTorch on meta tensors."""

from __future__ import annotations

import pytest
import torch
from torch_mlir import ir

from torch_refine import passes
from torch_refine.ir.context import create_context
from torch_refine.ir.types import DTYPE_TO_ELEMENT, parse
from torch_refine.passes.base import PassFailure

pytestmark = pytest.mark.skipif(
    not all(
        passes.is_registered(name)
        for name in (
            "torch-refine-simplify-shape-calculations",
            "torch-refine-simplify-dtype-calculations",
            "torch-refine-propagate-control-flow",
        )
    ),
    reason="simplify/propagate passes not available",
)

_ELEMENT = {
    torch.float32: "f32",
    torch.float16: "f16",
    torch.float64: "f64",
    torch.int64: "si64",
    torch.int32: "si32",
    torch.bool: "i1",
}
assert set(_ELEMENT.values()) <= set(DTYPE_TO_ELEMENT.values())


def _tensor_type(shape, dtype) -> str:
    return f"!torch.vtensor<[{','.join(map(str, shape))}],{_ELEMENT[dtype]}>"


# (MLIR op name, operand names, torch callable); operands name function arguments or earlier results.
PROGRAMS = {
    "tanh_add_mul": (
        [((2, 3), torch.float32), ((3,), torch.float32), ((2, 1), torch.float16)],
        [
            ("torch.aten.tanh", ["a0"]),
            ("torch.aten.add.Tensor", ["r0", "a1", "int1"]),
            ("torch.aten.mul.Tensor", ["r1", "a2"]),
        ],
    ),
    "int_div_promotes": (
        [((4, 1), torch.int64), ((5,), torch.int32)],
        [("torch.aten.div.Tensor", ["a0", "a1"]), ("torch.aten.relu", ["r0"])],
    ),
    "scalar_add_keeps_int": (
        [((3,), torch.int32)],
        [("torch.aten.add.Scalar", ["a0", "int1", "int1"]), ("torch.aten.neg", ["r0"])],
    ),
    "unary_chain": (
        [((2, 3), torch.float16)],
        [("torch.aten.tanh", ["a0"]), ("torch.aten.exp", ["r0"]), ("torch.aten.neg", ["r1"])],
    ),
    "zero_rank_operand": (
        [((), torch.float64), ((2, 2), torch.float32)],
        [("torch.aten.mul.Tensor", ["a1", "a0"]), ("torch.aten.sigmoid", ["r0"]), ("torch.aten.exp", ["r1"])],
    ),
}

_TORCH = {
    "torch.aten.tanh": torch.ops.aten.tanh.default,
    "torch.aten.relu": torch.ops.aten.relu.default,
    "torch.aten.neg": torch.ops.aten.neg.default,
    "torch.aten.sigmoid": torch.ops.aten.sigmoid.default,
    "torch.aten.exp": torch.ops.aten.exp.default,
    "torch.aten.add.Tensor": lambda a, b, alpha: torch.ops.aten.add.Tensor(a, b, alpha=alpha),
    "torch.aten.mul.Tensor": torch.ops.aten.mul.Tensor,
    "torch.aten.div.Tensor": torch.ops.aten.div.Tensor,
    "torch.aten.add.Scalar": torch.ops.aten.add.Scalar,
}


def _program_text(args, ops) -> tuple[str, dict[str, str]]:
    types = {f"a{i}": _tensor_type(shape, dtype) for i, (shape, dtype) in enumerate(args)}
    types["int1"] = "!torch.int"
    params = ", ".join(f"%a{i}: {types[f'a{i}']}" for i in range(len(args)))
    lines = [f"func.func @main({params}) -> !torch.vtensor {{", "  %int1 = torch.constant.int 1"]
    for index, (name, operands) in enumerate(ops):
        types[f"r{index}"] = "!torch.vtensor"
        operand_text = ", ".join(f"%{o}" for o in operands)
        operand_types = ", ".join(types[o] for o in operands)
        lines.append(f"  %r{index} = {name} {operand_text} : {operand_types} -> !torch.vtensor")
    lines += [f"  return %r{len(ops) - 1} : !torch.vtensor", "}"]
    return "\n".join(lines), types


def _expected(args, ops) -> list[tuple[tuple[int, ...], str]]:
    values = {f"a{i}": torch.empty(shape, dtype=dtype, device="meta") for i, (shape, dtype) in enumerate(args)}
    values["int1"] = 1
    expected = []
    for index, (name, operands) in enumerate(ops):
        result = _TORCH[name](*[values[o] for o in operands])
        values[f"r{index}"] = result
        expected.append((tuple(result.shape), _ELEMENT[result.dtype]))
    return expected


def _run(pipeline_name: str, text: str):
    context = create_context()
    module = ir.Module.parse(text, context)
    passes.get(pipeline_name)().run(module.operation)
    module.operation.verify()
    fn = module.body.operations[0]
    results = [op.results[0] for op in fn.regions[0].blocks[0].operations if op.operation.name in _TORCH]
    return [parse(r.type) for r in results], str(module)


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_pipeline_matches_meta_tensors(program):
    args, ops = PROGRAMS[program]
    text, _ = _program_text(args, ops)
    infos, printed = _run("torch-refine-pipeline", text)
    actual = [(info.sizes, info.dtype) for info in infos]
    assert actual == _expected(args, ops), printed
    assert "torch.shape.calculate" not in printed
    assert "torch.dtype.calculate" not in printed
    assert "__torch_refine_" not in printed


def test_shape_pipeline_refines_sizes_only():
    args, ops = PROGRAMS["tanh_add_mul"]
    text, _ = _program_text(args, ops)
    infos, _ = _run("torch-refine-shape-pipeline", text)
    assert [info.sizes for info in infos] == [(2, 3)] * 3
    assert [info.dtype for info in infos] == [None] * 3


def test_dtype_pipeline_refines_dtypes_only():
    # Dtype functions need their operands' ranks, so each op here reads a ranked argument.
    args = [((2, 3), torch.float16)]
    ops = [("torch.aten.tanh", ["a0"]), ("torch.aten.exp", ["a0"]), ("torch.aten.neg", ["a0"])]
    text, _ = _program_text(args, ops)
    infos, _ = _run("torch-refine-dtype-pipeline", text)
    assert [info.dtype for info in infos] == ["f16"] * 3
    assert [info.sizes for info in infos] == [None] * 3


def test_undecided_broadcast_check_becomes_runtime_assert():
    text = """
    func.func @main(%a: !torch.vtensor<[?,3],f32>, %b: !torch.vtensor<[?],f32>) -> !torch.vtensor {
      %int1 = torch.constant.int 1
      %0 = torch.aten.add.Tensor %a, %b, %int1 : !torch.vtensor<[?,3],f32>, !torch.vtensor<[?],f32>, !torch.int -> !torch.vtensor
      return %0 : !torch.vtensor
    }"""
    infos, printed = _run("torch-refine-pipeline", text)
    assert (infos[0].sizes, infos[0].dtype) == ((None, 3), "f32")
    assert printed.count("torch.runtime.assert") == 1
    assert "must match the size of tensor b" in printed


def test_static_broadcast_mismatch_is_an_error():
    text = """
    func.func @main(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor {
      %int1 = torch.constant.int 1
      %0 = torch.aten.add.Tensor %a, %b, %int1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[4],f32>, !torch.int -> !torch.vtensor
      return %0 : !torch.vtensor
    }"""
    context = create_context()
    module = ir.Module.parse(text, context)
    with pytest.raises(PassFailure):
        passes.get("torch-refine-pipeline")().run(module.operation)
