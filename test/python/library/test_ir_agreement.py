"""The whole chain against PyTorch, one op at a time: library function, TorchScript, our
importer, the MLIR library and the refinement passes.

For every op overload with shape or dtype functions, the first of its cases that PyTorch
accepts, on meta tensors and on CPU ones (a shape function's cases are float32 whatever the
op's dtype rules; the dtype functions follow the CPU kernels), becomes a function that calls
the op on statically typed tensors and constant operands, its tensor results erased to
`!torch.vtensor`. Error cases and data-dependent ones are not used. An in-place op takes
non-value tensors, and an op the Torch dialect does not define is a `torch.operator`, as the
importers emit them. `torch-refine-pipeline` must give each result PyTorch's sizes and dtype:

- exact: sizes and dtype equal PyTorch's;
- imprecise: consistent but less precise (a `?` dim, an unknown dtype or rank); allowed only
  for the ops listed in KNOWN_IMPRECISE, with exactly the listed types, so a precision
  regression fails and so does an improvement, until the table is updated;
- contradiction (a static dim or a dtype PyTorch denies), or a pipeline error on a case
  PyTorch accepts: a failure.

A case the Torch dialect cannot express as built here (an operand type it rejects, a
schema type the builder does not handle, a Tensor[] result) is skipped with the reason.
"""

import pytest
import torch
from torch_mlir import ir

from torch_refine import report
from torch_refine.api import RefinementError, refine
from torch_refine.ir import types
from torch_refine.ir.context import create_context
from torch_refine.library import registry
from torch_refine.library.testing import (
    DataDependentInvocation,
    DataDependentKernelInvocation,
    KernelInvocation,
    TensorOfShape,
    dtype_code,
    op_overload,
    run_pytorch,
)

CHECKED_KINDS = ("shape", "dtype")

# Op -> the refined types of its tensor results where they are less precise than PyTorch's
# (none at present).
KNOWN_IMPRECISE: dict[str, tuple[str, ...]] = {}

_DIALECT = create_context()  # only asked which ops the Torch dialect defines


class Unbuildable(Exception):
    """The case has no Torch-dialect form as this test builds it."""


def _cases():
    by_op: dict[str, list] = {}
    for entry in registry.functions():  # sorted by op, then shape before dtype
        if entry.kind in CHECKED_KINDS:
            by_op.setdefault(entry.op, []).extend(entry.invocations)
    for op, invocations in by_op.items():
        yield pytest.param(op, tuple(invocations), id=op)


def _agreement_case(op: str, invocations):
    """The first usable case and PyTorch's result on it; (None, None) when there is none.
    Chosen when the test runs: PyTorch has to run each candidate."""
    for invocation in invocations:
        if invocation.expects_error:
            continue
        if isinstance(invocation, DataDependentInvocation | DataDependentKernelInvocation):
            continue
        result, error = run_pytorch(op, invocation)
        on_cpu = KernelInvocation(*invocation.args, **invocation.kwargs)
        if error is None and run_pytorch(op, on_cpu)[1] is None:
            return invocation, result
    return None, None


# --- building the IR ---------------------------------------------------------------------


def _bound_arguments(schema, invocation) -> list:
    """The invocation's values in schema order, with the schema's defaults filled in."""
    positional = [a.name for a in schema.arguments if not a.kwarg_only]
    values = dict(zip(positional, invocation.args, strict=False))  # PyTorch accepted the call
    values.update(invocation.kwargs)
    return [_as_schema_list(values[a.name], a) if a.name in values else a.default_value
            for a in schema.arguments]


def _as_schema_list(value, argument):
    """PyTorch takes one int for an `int[N]` (`kernel_size=3` is `[3, 3]`)."""
    jit_type = argument.type
    if jit_type.kind() == "OptionalType":
        jit_type = jit_type.getElementType()
    if jit_type.kind() != "ListType" or value is None or isinstance(value, list | tuple):
        return value
    return [value] * (argument.N or 1)


def _is_in_place(schema) -> bool:
    return any(a.alias_info is not None and a.alias_info.is_write for a in schema.arguments)


def _tensor_type(tensor: TensorOfShape | None, value_semantics: bool) -> str:
    """`!torch.vtensor<[2,3],f32>`, or `!torch.tensor<...>` (an in-place op's)."""
    head = "!torch.vtensor" if value_semantics else "!torch.tensor"
    if tensor is None:
        return head
    element = types.DTYPE_TO_ELEMENT.get(dtype_code(tensor.dtype))
    if element is None:
        raise Unbuildable(f"no Torch-dialect element type for {tensor.dtype}")
    return f"{head}<[{','.join(map(str, tensor.shape))}],{element}>"


def _list_element(jit_type, value_semantics: bool) -> str:
    """The contained type of a `!torch.list<...>` for a schema list's element type."""
    kind = jit_type.kind()
    if kind == "OptionalType":
        return f"optional<{_list_element(jit_type.getElementType(), value_semantics)}>"
    tensor = "vtensor" if value_semantics else "tensor"
    element = {"TensorType": tensor, "IntType": "int", "FloatType": "float",
               "BoolType": "bool"}.get(kind)
    if element is None:
        raise Unbuildable(f"list of {jit_type}")
    return element


class FunctionBuilder:
    """One `func.func @main` calling the op: tensors are arguments, the rest constants."""

    def __init__(self, value_semantics: bool):
        self.value_semantics = value_semantics
        self.argument_types: list[str] = []
        self.lines: list[str] = []

    def _constant(self, op_text: str, type_text: str) -> tuple[str, str]:
        name = f"%c{len(self.lines)}"
        self.lines.append(f"{name} = {op_text}")
        return name, type_text

    def _argument(self, type_text: str) -> tuple[str, str]:
        self.argument_types.append(type_text)
        return f"%arg{len(self.argument_types) - 1}", type_text

    def operand(self, value, jit_type) -> tuple[str, str]:
        """The SSA name and type of `value` passed where the schema says `jit_type`."""
        kind = jit_type.kind()
        if kind == "OptionalType":
            if value is None:
                return self._constant("torch.constant.none", "!torch.none")
            return self.operand(value, jit_type.getElementType())
        if kind == "TensorType":
            if not isinstance(value, TensorOfShape):
                raise Unbuildable(f"{value!r} where the schema has a Tensor")
            return self._argument(_tensor_type(value, self.value_semantics))
        if kind == "ListType":
            return self._list(value, jit_type.getElementType())
        if kind == "DeviceObjType":
            return self._constant(f'torch.constant.device "{torch.device(value)}"', "!torch.Device")
        return self._scalar(value)

    def _list(self, values, element_type) -> tuple[str, str]:
        elements = [self.operand(v, element_type) for v in values]
        names = ", ".join(name for name, _ in elements)
        element_types = ", ".join(type_text for _, type_text in elements)
        list_type = f"!torch.list<{_list_element(element_type, self.value_semantics)}>"
        name = f"%l{len(self.lines)}"
        self.lines.append(
            f'{name} = "torch.prim.ListConstruct"({names}) : ({element_types}) -> {list_type}')
        return name, list_type

    def _scalar(self, value) -> tuple[str, str]:
        if isinstance(value, torch.dtype):
            value = dtype_code(value)
        if isinstance(value, bool):
            return self._constant(f"torch.constant.bool {str(value).lower()}", "!torch.bool")
        if isinstance(value, int):
            return self._constant(f"torch.constant.int {value}", "!torch.int")
        if isinstance(value, float):
            return self._constant(f"torch.constant.float {value:.17e}", "!torch.float")
        if isinstance(value, str):
            return self._constant(f'torch.constant.str "{value}"', "!torch.str")
        raise Unbuildable(f"a constant of type {type(value).__name__}")

    def function(self, op: str, operands, result_types: list[str], returned: list[int]) -> str:
        names = ", ".join(name for name, _ in operands)
        operand_types = ", ".join(type_text for _, type_text in operands)
        results = "%r" if len(result_types) == 1 else f"%r:{len(result_types)}"
        callee = (f'"torch.{op}"' if _DIALECT.is_registered_operation(f"torch.{op}")
                  else f'torch.operator "{op}"')
        call = (f"{results} = {callee}({names}) : ({operand_types}) -> "
                f"({', '.join(result_types)})")
        result_names = ["%r" if len(result_types) == 1 else f"%r#{i}" for i in returned]
        returned_types = [result_types[i] for i in returned]
        arguments = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(self.argument_types))
        body = [*self.lines, call,
                f"return {', '.join(result_names)} : {', '.join(returned_types)}"]
        return (f"func.func @main({arguments}) -> ({', '.join(returned_types)}) {{\n"
                + "".join(f"  {line}\n" for line in body) + "}\n")


def _result_type(result, value_semantics: bool) -> str:
    kind = result.type.kind()
    if kind == "TensorType":
        return _tensor_type(None, value_semantics)
    simple = {"IntType": "!torch.int", "FloatType": "!torch.float", "BoolType": "!torch.bool",
              "NumberType": "!torch.number"}.get(kind)
    if simple is None:
        raise Unbuildable(f"a {result.type} result")
    return simple


def build_ir(op: str, invocation) -> str:
    schema = op_overload(op)._schema
    if any(str(r.type) == "List[Tensor]" for r in schema.returns):
        raise Unbuildable("a Tensor[] result (refined only through its ListUnpack)")
    tensor_results = [i for i, r in enumerate(schema.returns) if r.type.kind() == "TensorType"]
    if not tensor_results:
        raise Unbuildable("no tensor result")
    value_semantics = not _is_in_place(schema)
    builder = FunctionBuilder(value_semantics)
    values = _bound_arguments(schema, invocation)
    operands = [builder.operand(value, argument.type)
                for value, argument in zip(values, schema.arguments, strict=True)]
    result_types = [_result_type(result, value_semantics) for result in schema.returns]
    return builder.function(op, operands, result_types, tensor_results)


def _parsed(text: str) -> ir.Module:
    try:
        return ir.Module.parse(text, create_context())
    except ir.MLIRError as error:
        message = error.error_diagnostics[0].message if error.error_diagnostics else str(error)
        raise Unbuildable(f"the Torch dialect rejects the call: {message}") from None


# --- comparing ---------------------------------------------------------------------------


def _expected_infos(result, value_semantics: bool) -> list[types.TensorInfo]:
    results = result if isinstance(result, tuple | list) else (result,)
    return [
        types.TensorInfo(tuple(r.shape), types.DTYPE_TO_ELEMENT[dtype_code(r.dtype)],
                         value_semantics)
        for r in results if isinstance(r, torch.Tensor)
    ]


def _refined_infos(module: ir.Module) -> list[types.TensorInfo]:
    with module.context:
        main = module.body.operations[0]
        signature = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
        return [types.parse(t) for t in signature.results]


@pytest.mark.parametrize(("op", "invocations"), list(_cases()))
def test_refined_types_agree_with_pytorch(op, invocations):
    invocation, result = _agreement_case(op, invocations)
    if invocation is None:
        pytest.skip("no case PyTorch accepts on meta and CPU tensors that is not data-dependent")
    try:
        text = build_ir(op, invocation)
        module = _parsed(text)
    except Unbuildable as reason:
        pytest.skip(str(reason))
    expected = _expected_infos(result, not _is_in_place(op_overload(op)._schema))
    try:
        refined = _refined_infos(refine(module).module)
    except RefinementError as error:
        pytest.fail(f"{invocation}: the pipeline fails on\n{text}{error}")
    assert len(refined) == len(expected), f"{invocation}: PyTorch returns {len(expected)} tensors"
    verdicts = [report.classify(r, e) for r, e in zip(refined, expected, strict=True)]
    comparison = ", ".join(f"{r.text()} (PyTorch: {e.text()})"
                           for r, e in zip(refined, expected, strict=True))
    assert "contradiction" not in verdicts, f"{invocation}: {comparison}\n{text}"
    imprecise = tuple(r.text() for r in refined) if set(verdicts) != {"exact"} else None
    assert imprecise == KNOWN_IMPRECISE.get(op), (
        f"{invocation}: {comparison}; update KNOWN_IMPRECISE if this is an improvement")


def test_known_failures_name_registered_ops():
    registered = {entry.op for entry in registry.functions()}
    stale = set(KNOWN_IMPRECISE) - registered
    assert not stale, f"entries for ops without library functions: {sorted(stale)}"
