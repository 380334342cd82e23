"""Test vocabulary for library functions: invocations are data that pytest parametrizes.

An `Invocation` holds the arguments of one call of an op. The same record is turned into
three argument lists: shape-function arguments (a tensor becomes its sizes), dtype-function
arguments (a tensor becomes `(rank, dtype code)`), and real-op arguments (a meta tensor).
`ErrorInvocation` requires both the library function and PyTorch to raise, so two unrelated
failures never pass for agreement.

A size PyTorch computes from the data (nonzero's count) has no value before the data
exists: `DataDependentInvocation` runs the op on fake tensors whose shape environment makes
such a size an unbacked SymInt, and the library function must give `UNKNOWN_DIM` (what
`_helpers.unknown_dim()` returns when run) exactly there, and every other size exactly.

`build_ir` turns one invocation into a Torch-dialect function that calls the op (the IR
agreement test and the robustness fuzzer use it).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch
from torch_mlir import ir

from torch_refine.ir import types
from torch_refine.ir.context import create_context

_DTYPE_CODES = {
    torch.uint8: 0,
    torch.int8: 1,
    torch.int16: 2,
    torch.int32: 3,
    torch.int64: 4,
    torch.float16: 5,
    torch.float32: 6,
    torch.float64: 7,
    torch.complex32: 8,
    torch.complex64: 9,
    torch.complex128: 10,
    torch.bool: 11,
    torch.qint8: 12,
    torch.quint8: 13,
    torch.qint32: 14,
    torch.bfloat16: 15,
    torch.quint4x2: 16,
    torch.quint2x4: 17,
    torch.float8_e5m2: 23,
    torch.float8_e4m3fn: 24,
    torch.float8_e5m2fnuz: 25,
    torch.float8_e4m3fnuz: 26,
    torch.uint16: 27,
    torch.uint32: 28,
    torch.uint64: 29,
    torch.float8_e8m0fnu: 44,
    torch.float4_e2m1fn_x2: 45,
}


def dtype_code(dtype: torch.dtype) -> int:
    return _DTYPE_CODES[dtype]


def dtype_of(code: int) -> torch.dtype:
    return next(dtype for dtype, known in _DTYPE_CODES.items() if known == code)


def scalar_dtype(value: Any) -> torch.dtype:
    """The dtype PyTorch gives a Python number result (torch.tensor(value).dtype)."""
    if isinstance(value, bool):
        return torch.bool
    if isinstance(value, int):
        return torch.int64
    if isinstance(value, float):
        return torch.float64
    return torch.complex128


@dataclass(frozen=True)
class TensorOfShape:
    shape: tuple[int, ...]
    dtype: torch.dtype = torch.float32

    def __init__(self, *shape: int, dtype: torch.dtype = torch.float32):
        object.__setattr__(self, "shape", tuple(shape))
        object.__setattr__(self, "dtype", dtype)

    def __repr__(self) -> str:
        dtype = str(self.dtype).removeprefix("torch.")
        return f"T{list(self.shape)}:{dtype}"


def LongTensorOfShape(*shape: int) -> TensorOfShape:
    return TensorOfShape(*shape, dtype=torch.int64)


def described(value: Any) -> Any:
    """A real call's argument with its tensors replaced by TensorOfShape (sizes and dtype)."""
    if isinstance(value, torch.Tensor):
        return TensorOfShape(*value.shape, dtype=value.dtype)
    if isinstance(value, list | tuple):
        converted = [described(v) for v in value]
        return converted if isinstance(value, list) else tuple(converted)
    return value


def _convert(value: Any, tensor_fn) -> Any:
    if isinstance(value, TensorOfShape):
        return tensor_fn(value)
    if isinstance(value, list | tuple):
        converted = [_convert(v, tensor_fn) for v in value]
        return converted if isinstance(value, list) else tuple(converted)
    if isinstance(value, torch.dtype):
        return dtype_code(value) if tensor_fn in (_to_sizes, _to_rank_dtype) else value
    return value


def _to_sizes(t: TensorOfShape) -> list[int]:
    return list(t.shape)


def _to_rank_dtype(t: TensorOfShape) -> tuple[int, int]:
    return (len(t.shape), dtype_code(t.dtype))


def _to_meta(t: TensorOfShape) -> torch.Tensor:
    return torch.empty(t.shape, dtype=t.dtype, device="meta")


_QUANTIZED_DTYPES = (torch.qint8, torch.quint8, torch.qint32)


def _to_cpu(t: TensorOfShape) -> torch.Tensor:
    if t.dtype in _QUANTIZED_DTYPES:  # no factory makes quantized tensors: quantize ones
        return torch.quantize_per_tensor(torch.ones(t.shape), 1.0, 0, t.dtype)
    # Ones, not uninitialized memory: integer division by zero raises on CPU.
    return torch.ones(t.shape, dtype=t.dtype)


def _holds_tensor(value: Any) -> bool:
    if isinstance(value, list | tuple):
        return any(_holds_tensor(v) for v in value)
    return isinstance(value, TensorOfShape)


def _rename_keyword(name: str) -> str:
    return "from_" if name == "from" else name


@dataclass(frozen=True)
class Invocation:
    args: tuple
    kwargs: dict

    expects_error = False
    tensor_fn = staticmethod(_to_meta)

    def __init__(self, *args: Any, **kwargs: Any):
        object.__setattr__(self, "args", args)
        object.__setattr__(self, "kwargs", kwargs)

    def __repr__(self) -> str:
        parts = [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.kwargs.items()]
        return f"{type(self).__name__}({', '.join(parts)})"

    def _library_args(self, tensor_fn) -> tuple[list, dict]:
        args = [_convert(a, tensor_fn) for a in self.args]
        kwargs = {_rename_keyword(k): _convert(v, tensor_fn) for k, v in self.kwargs.items()}
        return args, kwargs

    def shape_args(self) -> tuple[list, dict]:
        return self._library_args(_to_sizes)

    def dtype_args(self) -> tuple[list, dict]:
        args, kwargs = self._library_args(_to_rank_dtype)
        # Dtype functions name a tensor parameter `<name>_rank_dtype`.
        names = [name + "_rank_dtype" if _holds_tensor(value) else name
                 for name, value in zip(kwargs, self.kwargs.values(), strict=True)]
        return args, dict(zip(names, kwargs.values(), strict=True))

    def op_args(self, tensor_fn=None) -> tuple[list, dict]:
        tensor_fn = tensor_fn or self.tensor_fn
        args = [_convert(a, tensor_fn) for a in self.args]
        kwargs = {k: _convert(v, tensor_fn) for k, v in self.kwargs.items()}
        return args, kwargs

    def run(self, op) -> Any:
        """What PyTorch's `op` returns on this invocation (raises where it raises)."""
        args, kwargs = self.op_args()
        return op(*args, **kwargs)


    @classmethod
    def of_call(cls, args: tuple, kwargs: dict) -> Invocation:
        """The invocation of a captured real call (taken before the call mutates anything)."""
        return cls(*described(args), **{k: described(v) for k, v in kwargs.items()})


class ErrorInvocation(Invocation):
    """An invocation on which PyTorch raises, so the library function must raise too."""

    expects_error = True


class KernelInvocation(Invocation):
    """An invocation run on CPU tensors instead of meta ones.

    Meta kernels skip many of the dtype checks of the real kernels (bitwise ops accept
    floats, `sub` accepts bools, comparisons accept complex), so a function that checks
    dtypes the way the real kernels do is verified against them.
    """

    tensor_fn = staticmethod(_to_cpu)


class KernelErrorInvocation(KernelInvocation):
    """A KernelInvocation on which PyTorch's CPU kernel raises."""

    expects_error = True


# op -> a function computing it with PyTorch's own ops as torch-mlir means it, where that
# meaning is wider than eager PyTorch's (docs/library.md, "Where torch-mlir's meaning is
# wider than eager PyTorch"): what a TorchMlirInvocation of the op is checked against.
TORCH_MLIR_MEANINGS: dict[str, Callable] = {}


def torch_mlir_meaning(*ops: str):
    """Registers the decorated function as the torch-mlir meaning of `ops`."""

    def register(fn: Callable) -> Callable:
        for op in ops:
            TORCH_MLIR_MEANINGS[op] = fn
        return fn

    return register


class TorchMlirInvocation(Invocation):
    """A call PyTorch's eager checks reject and torch-mlir's pipeline accepts, as one of its
    front ends writes it. The library follows torch-mlir there: the function is checked
    against the op's TORCH_MLIR_MEANINGS entry, and test_torch_mlir_meanings.py requires
    PyTorch's op itself to still reject the call."""


class TorchMlirKernelInvocation(KernelInvocation, TorchMlirInvocation):
    """A TorchMlirInvocation only PyTorch's CPU kernel rejects (its meta kernel skips the check)."""


UNKNOWN_DIM = -1  # _helpers.unknown_dim() when run
UNKNOWN_DTYPE = -1  # _helpers.unknown_dtype() when run


class UnknownDtypeInvocation(Invocation):
    """An invocation PyTorch accepts whose result dtype depends on sizes, which a dtype
    function does not see: the function must return UNKNOWN_DTYPE."""


class UnknownSizeInvocation(Invocation):
    """An invocation PyTorch accepts one of whose result sizes the shape function's
    arguments do not tell (a Scalar bound arrives as a double, so an int past 2**52 is not
    told from its neighbours): the function returns UNKNOWN_DIM there, every other size
    exactly."""


class UnknownDtypeKernelInvocation(KernelInvocation, UnknownDtypeInvocation):
    """An UnknownDtypeInvocation PyTorch's CPU kernel judges (no meta kernel)."""


@functools.cache
def _fake_mode():
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.fx.experimental.symbolic_shapes import ShapeEnv

    return FakeTensorMode(shape_env=ShapeEnv())


def _to_fake(t: TensorOfShape) -> torch.Tensor:
    with _fake_mode():
        return torch.empty(t.shape, dtype=t.dtype)


class DataDependentInvocation(Invocation):
    """An invocation run on fake tensors: a size computed from the data is an unbacked
    SymInt, which the library function must report as UNKNOWN_DIM."""

    tensor_fn = staticmethod(_to_fake)

    def run(self, op) -> Any:
        with _fake_mode():  # composite ops create tensors of their own
            return super().run(op)


class DataDependentKernelInvocation(Invocation):
    """For an op whose fake kernel itself needs the data (one_hot's num_classes=-1): the
    CPU kernel runs on all-zero and on all-one tensors, and a size that differs between
    the two is data-dependent (an unbacked SymInt, as DataDependentInvocation sees it)."""

    def run(self, op) -> Any:
        assert not self.kwargs, "positional arguments only"
        zeros = op(*self.op_args(lambda t: torch.zeros(t.shape, dtype=t.dtype))[0])
        ones = op(*self.op_args(lambda t: torch.ones(t.shape, dtype=t.dtype))[0])
        assert isinstance(zeros, torch.Tensor), "one tensor result only"
        shape_env = _fake_mode().shape_env
        sizes = [a if a == b else shape_env.create_unbacked_symint()
                 for a, b in zip(zeros.shape, ones.shape, strict=True)]
        with _fake_mode():
            return torch.empty(sizes, dtype=zeros.dtype)


def _expected_size(size) -> int:
    if isinstance(size, int):
        return size
    from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols

    if free_unbacked_symbols(size):
        return UNKNOWN_DIM
    raise TypeError(f"size {size} is symbolic but not data-dependent")


def op_overload(op: str):
    """`aten.add.Tensor` -> torch.ops.aten.add.Tensor (`aten.tanh` -> .default).

    A value form that only torch-mlir has (`aten.bernoulli.float`) runs its in-place
    overload (`aten.bernoulli_.float`), which gives the same sizes and dtype.
    """
    namespace, name, *overload = op.split(".")
    overload_name = overload[0] if overload else "default"
    packet = getattr(getattr(torch.ops, namespace), name)
    if not hasattr(packet, overload_name) and hasattr(getattr(torch.ops, namespace), name + "_"):
        packet = getattr(getattr(torch.ops, namespace), name + "_")
    return getattr(packet, overload_name)


def with_reference(invocation: Invocation, reference) -> Invocation:
    """`invocation`, checked against `reference` (a Python function that computes the op
    with PyTorch's own ops on the same tensors) instead of a registry op: for ops PyTorch's
    registry lacks (torchvision's, ONNX's)."""
    object.__setattr__(invocation, "reference", reference)
    return invocation


def reference_of(op: str, invocation: Invocation) -> Callable:
    """What computes `op` on `invocation` for the tests: its `with_reference` function, the
    op's torch-mlir meaning for a TorchMlirInvocation, else PyTorch's op."""
    if (reference := getattr(invocation, "reference", None)) is not None:
        return reference
    if isinstance(invocation, TorchMlirInvocation):
        return TORCH_MLIR_MEANINGS[op]
    return op_overload(op)


def run_pytorch(op: str, invocation: Invocation) -> tuple[Any, Exception | None]:
    """(what PyTorch's `op` returns on `invocation`, None), or (None, the error it raises)."""
    try:
        return invocation.run(reference_of(op, invocation)), None
    except Exception as error:
        return None, error


def expected_shapes(result: Any) -> Any:
    """PyTorch's result turned into what a shape function returns."""
    if isinstance(result, torch.Tensor):
        return [_expected_size(size) for size in result.shape]
    if isinstance(result, list | tuple):
        shapes = [expected_shapes(r) for r in result if isinstance(r, torch.Tensor | list)]
        return shapes if isinstance(result, list) else tuple(shapes)
    raise TypeError(f"no shape for a result of type {type(result).__name__}")


def expected_dtypes(result: Any) -> Any:
    """PyTorch's result turned into what a dtype function returns (dtype codes)."""
    if isinstance(result, torch.Tensor):
        return dtype_code(result.dtype)
    if isinstance(result, bool | int | float | complex):
        return dtype_code(scalar_dtype(result))
    if isinstance(result, list):
        return [expected_dtypes(r) for r in result]
    return tuple(expected_dtypes(r) for r in result)


def dtypes_agree(actual: Any, expected: Any) -> bool:
    """A dtype function's result against PyTorch's. A `Tensor[]` result's function may
    return one int, the dtype of every piece, when the piece count depends on sizes (a
    dtype function does not see them)."""
    if isinstance(actual, int) and isinstance(expected, list):
        return all(e == actual for e in expected)
    return actual == expected


@functools.cache
def scripted(fn):
    return torch.jit.script(fn)


def normalized(value: Any) -> Any:
    """A library result with TorchScript's lists and tuples as Python ones, for comparison."""
    if isinstance(value, tuple | list):
        items = [normalized(v) for v in value]
        return tuple(items) if isinstance(value, tuple) else items
    return value


# --- one call of an op as a Torch-dialect function ---------------------------------------


class Unbuildable(Exception):
    """The case has no Torch-dialect form as `build_ir` builds it."""


@functools.cache
def _dialect() -> ir.Context:
    """Only asked which ops the Torch dialect defines."""
    return create_context()


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


def is_in_place(schema) -> bool:
    return any(a.alias_info is not None and a.alias_info.is_write for a in schema.arguments)


def tensor_type(tensor: TensorOfShape | None, value_semantics: bool) -> str:
    """`!torch.vtensor<[2,3],f32>`, or `!torch.tensor<...>` (an in-place op's)."""
    head = "!torch.vtensor" if value_semantics else "!torch.tensor"
    if tensor is None:
        return head
    element = types.DTYPE_TO_ELEMENT.get(dtype_code(tensor.dtype))
    if element is None:
        raise Unbuildable(f"no Torch-dialect element type for {tensor.dtype}")
    return f"{head}<[{','.join(map(str, tensor.shape))}],{element}>"


def unranked_at(position: int):
    """An `argument_type` for `build_ir` that declares the tensor at `position` (in
    argument order) `*`, the others static."""
    count = itertools.count()

    def argument_type(tensor: TensorOfShape | None, value_semantics: bool) -> str:
        static = tensor_type(tensor, value_semantics)
        if next(count) != position:
            return static
        head, element = static.split("<", 1)[0], static.rsplit(",", 1)[1]
        return f"{head}<*,{element}"

    return argument_type


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
    """One `func.func @main` calling the op: tensors are arguments, the rest constants.
    `argument_type(tensor, value_semantics)` gives each tensor argument's type."""

    def __init__(self, value_semantics: bool, argument_type=tensor_type):
        self.value_semantics = value_semantics
        self.argument_type = argument_type
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
            return self._argument(self.argument_type(value, self.value_semantics))
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
        callee = (f'"torch.{op}"' if _dialect().is_registered_operation(f"torch.{op}")
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
        return tensor_type(None, value_semantics)
    simple = {"IntType": "!torch.int", "FloatType": "!torch.float", "BoolType": "!torch.bool",
              "NumberType": "!torch.number"}.get(kind)
    if simple is None:
        raise Unbuildable(f"a {result.type} result")
    return simple


def build_ir(op: str, invocation: Invocation, argument_type=tensor_type) -> str:
    """`func.func @main` calling `op` on `invocation`'s values, its tensor results erased
    to `!torch.vtensor` (`!torch.tensor` for an in-place op) and returned; its tensors are
    arguments typed by `argument_type(tensor, value_semantics)` in order, the rest constants."""
    schema = op_overload(op)._schema
    if any(str(r.type) == "List[Tensor]" for r in schema.returns):
        raise Unbuildable("a Tensor[] result (refined only through its ListUnpack)")
    tensor_results = [i for i, r in enumerate(schema.returns) if r.type.kind() == "TensorType"]
    if not tensor_results:
        raise Unbuildable("no tensor result")
    value_semantics = not is_in_place(schema)
    builder = FunctionBuilder(value_semantics, argument_type)
    values = _bound_arguments(schema, invocation)
    operands = [builder.operand(value, argument.type)
                for value, argument in zip(values, schema.arguments, strict=True)]
    result_types = [_result_type(result, value_semantics) for result in schema.returns]
    return builder.function(op, operands, result_types, tensor_results)


def parse_ir(text: str, context: ir.Context | None = None) -> ir.Module:
    """`text` parsed (in a new context unless one is given); Unbuildable when the Torch
    dialect rejects it."""
    try:
        return ir.Module.parse(text, context or create_context())
    except ir.MLIRError as error:
        message = error.error_diagnostics[0].message if error.error_diagnostics else str(error)
        raise Unbuildable(f"the Torch dialect rejects the call: {message}") from None


def pytorch_infos(result, value_semantics: bool) -> list[types.TensorInfo]:
    """The types of the tensors PyTorch returned (the truth for the refined results)."""
    results = result if isinstance(result, tuple | list) else (result,)
    return [
        types.TensorInfo(tuple(r.shape), types.DTYPE_TO_ELEMENT[dtype_code(r.dtype)],
                         value_semantics)
        for r in results if isinstance(r, torch.Tensor)
    ]


def result_infos(module: ir.Module) -> list[types.TensorInfo]:
    """The result types of the module's first function (`@main` as `build_ir` builds it)."""
    with module.context:
        main = module.body.operations[0]
        signature = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
        return [types.parse(t) for t in signature.results]
