"""Import TorchScript functions into Torch-dialect MLIR, in pure Python.

Each scripted function's graph becomes one `func.func`. Most nodes map one to one onto the
Torch op named by their schema (`aten::add.int(int a, int b) -> int` becomes
`torch.aten.add.int`); structural nodes (constants, If, Loop, lists, tuples, calls) have
handlers of their own. A callee is imported once, as a private helper named
`<helper prefix><qualified name>`, except the *intrinsics* the caller names: callees that
become one Torch op applied to the call's operands (the library makes
`promotion.promote_dtypes` the `torch.promote_dtypes` op, `_helpers.unknown_dim`
`torch.prim.Uninitialized` and `einsum_equation.einsum_plan` a `torch.operator`, see
`library/generate.py`). The importer knows nothing of the
library: its naming and intrinsics are told.

The output is deterministic: functions are sorted by symbol and nothing depends on object
identity or dictionary order of the TorchScript runtime.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

import torch
from torch_mlir import ir
from torch_mlir.dialects import func

from torch_refine.ir.context import create_context

_QUALIFIED_PREFIX = "__torch__."
_NO_SCHEMA = "(no schema)"
# The trailing `# file:line:col` comment TorchScript prints on a node's first line.
_SOURCE_COMMENT = re.compile(r"# (.+):(\d+):(\d+)$")


class UnsupportedNodeError(ValueError):
    """A TorchScript node or type the importer has no Torch-dialect form for."""


def qualified_name(fn) -> str:
    """The TorchScript qualified name of a Python function (what a call node names)."""
    return f"{_QUALIFIED_PREFIX}{fn.__module__}.{fn.__qualname__}"


# --- Types -------------------------------------------------------------------------------

_LEAF_TYPES = {
    "IntType": "int",
    "FloatType": "float",
    "BoolType": "bool",
    "StringType": "str",
    "NumberType": "number",
    "NoneType": "none",
    "AnyType": "any",
    "DeviceObjType": "Device",
    "GeneratorType": "Generator",
    "TensorType": "vtensor",
}
_CONTAINER_TYPES = {
    "ListType": "list",
    "OptionalType": "optional",
    "TupleType": "tuple",
    "UnionType": "union",
}


def torch_type_body(ts_type) -> str:
    """The Torch type of a TorchScript type without the `!torch.` prefix, e.g. `list<int>`."""
    kind = ts_type.kind()
    if (leaf := _LEAF_TYPES.get(kind)) is not None:
        return leaf
    if (container := _CONTAINER_TYPES.get(kind)) is None:
        raise UnsupportedNodeError(f"no Torch type for TorchScript type '{ts_type}' ({kind})")
    contained = ", ".join(torch_type_body(t) for t in ts_type.containedTypes())
    return f"{container}<{contained}>"


# --- Constant folding of exception messages -------------------------------------------------


def _fold_format(fmt: object, *args: object) -> str | None:
    """aten::format on constants: each `{}` takes the next argument, as TorchScript does."""
    printable = all(isinstance(a, (str, int)) and not isinstance(a, bool) for a in args)
    if not isinstance(fmt, str) or not printable:
        return None
    pieces = fmt.split("{}")
    if len(pieces) - 1 > len(args):
        return None  # TorchScript raises at run time; keep the op
    text = pieces[0]
    for arg, piece in zip(args, pieces[1:], strict=False):
        text += str(arg) + piece
    return text


def _fold_add_str(a: object, b: object) -> str | None:
    if not isinstance(a, str) or not isinstance(b, str):
        return None
    return a + b


# Schema heads whose result is computed at import time when every input is a constant.
_FOLDERS: dict[str, Callable[..., str | None]] = {
    "aten::format": _fold_format,
    "aten::add.str": _fold_add_str,
}

# List-mutating ops: (list operand, element operand). The element is derefined to the list's
# element type, as ListConstruct elements are, so list contents always have one type.
_LIST_ELEMENT_OPERANDS = {
    "aten::append.t": (0, 1),
    "aten::insert.t": (0, 2),
    "aten::_set_item.t": (0, 2),
}


# Comparisons the Torch dialect lacks, rebuilt exactly (NaN included) from ones it has: the
# terms are or-ed, each (op, swap the operands, negate the result).
_REBUILT_COMPARISONS = {
    "aten::le.float": [("torch.aten.ge.float", True, False)],
    "aten::le.int_float": [("torch.aten.ge.float_int", True, False)],
    "aten::lt.int_float": [("torch.aten.gt.float_int", True, False)],
    "aten::gt.int_float": [("torch.aten.lt.float_int", True, False)],
    "aten::ne.int_float": [("torch.aten.ne.float_int", True, False)],
    "aten::ne.float": [("torch.aten.eq.float", False, True)],
    "aten::eq.float_int": [("torch.aten.ne.float_int", False, True)],
    "aten::eq.int_float": [("torch.aten.ne.float_int", True, True)],
    "aten::le.float_int": [
        ("torch.aten.lt.float_int", False, False),
        ("torch.aten.ne.float_int", False, True),
    ],
    "aten::ge.int_float": [
        ("torch.aten.lt.float_int", True, False),
        ("torch.aten.ne.float_int", True, True),
    ],
}

# c10::ScalarType codes of the tensor `prim::NumToTensor` makes from each number type.
_NUMBER_DTYPES = {"IntType": 4, "FloatType": 7, "ComplexType": 10, "BoolType": 11}


def _is_number(ts_type) -> bool:
    kind = ts_type.kind()
    if kind == "UnionType":
        return all(_is_number(t) for t in ts_type.containedTypes())
    return kind == "NumberType" or kind in _NUMBER_DTYPES


# --- Module-level importer ------------------------------------------------------------------


class Importer:
    """Imports scripted functions into one module; callees are imported once, on demand."""

    def __init__(self, module: ir.Module, helper_prefix: str, intrinsics: Mapping[str, str | tuple[str, str]]):
        self.module = module
        self.context = module.context
        self.helper_prefix = helper_prefix
        self.intrinsics = intrinsics  # callee qualified name -> Torch op name or ("torch.operator", name)
        self._types: dict[str, ir.Type] = {}
        self._helpers: dict[str, func.FuncOp] = {}

    def helper_symbol(self, qualified_name: str) -> str:
        return self.helper_prefix + qualified_name.removeprefix(_QUALIFIED_PREFIX)

    def torch_type(self, ts_type) -> ir.Type:
        return self.parse_type("!torch." + torch_type_body(ts_type))

    def parse_type(self, text: str) -> ir.Type:
        if (cached := self._types.get(text)) is None:
            cached = self._types[text] = ir.Type.parse(text, self.context)
        return cached

    def import_function(self, scripted, symbol: str, private: bool = False) -> func.FuncOp:
        graph = scripted.graph
        arg_types = [self.torch_type(v.type()) for v in graph.inputs()]
        result_types = [self.torch_type(r.type) for r in scripted.schema.returns]
        with self.context, ir.Location.name(scripted.qualified_name):
            func_op = func.FuncOp(
                symbol,
                ir.FunctionType.get(arg_types, result_types),
                visibility="private" if private else None,
                ip=ir.InsertionPoint(self.module.body),
            )
            _FunctionImporter(self, scripted.qualified_name).run(graph, func_op)
        return func_op

    def helper(self, qualified_name: str) -> func.FuncOp:
        """The private helper for a callee, imported the first time it is needed."""
        if (helper := self._helpers.get(qualified_name)) is not None:
            return helper
        # Every function torch.jit.script compiles from Python lives in this compilation unit;
        # it is the only way from a callee's qualified name back to its graph.
        scripted = torch.jit._state._python_cu.find_function(qualified_name)
        if scripted is None:
            raise UnsupportedNodeError(f"callee '{qualified_name}' is not a scripted function")
        helper = self.import_function(scripted, self.helper_symbol(qualified_name), private=True)
        self._helpers[qualified_name] = helper
        return helper

    def sort_functions(self) -> None:
        """Order the module's functions by symbol, so output never depends on import order."""
        ops = list(self.module.body.operations)
        for op in sorted(ops, key=lambda op: op.attributes["sym_name"].value):
            self.module.body.append(op)


def import_functions(
    functions: Mapping[str, object],
    context: ir.Context | None = None,
    *,
    helper_prefix: str = "__helper.",
    intrinsics: Mapping[str, str | tuple[str, str]] | None = None,
) -> ir.Module:
    """Import scripted functions as public funcs named by the mapping's keys, plus their
    callees as private helpers named `helper_prefix` + qualified name (but `intrinsics`,
    callee qualified name -> Torch op, or ("torch.operator", its name)), sorted by symbol;
    the module is verified."""
    context = context or create_context()
    module = ir.Module.create(ir.Location.unknown(context))
    importer = Importer(module, helper_prefix, intrinsics or {})
    for symbol, scripted in functions.items():
        importer.import_function(scripted, symbol)
    importer.sort_functions()
    module.operation.verify()
    return module


# --- Function-level importer ----------------------------------------------------------------


class _FunctionImporter:
    """Imports one graph; TorchScript values are keyed by `Value.unique()` within it."""

    def __init__(self, importer: Importer, qualified_name: str):
        self.importer = importer
        self.qualified_name = qualified_name
        self.values: dict[int, ir.Value] = {}
        self.constants: dict[int, object] = {}  # Python values of constant str/int values
        self.created_constants: list[ir.Operation] = []
        self.ip: ir.InsertionPoint | None = None
        self.loc = ir.Location.unknown()

    def run(self, graph, func_op: func.FuncOp) -> None:
        entry = func_op.add_entry_block()
        result_types = list(func_op.type.results)
        self._import_block(graph.block(), entry, "func.return", result_types)
        self._erase_unused_constants()

    # Blocks and values

    def _import_block(self, ts_block, block: ir.Block, terminator: str, types: list) -> None:
        """Import `ts_block`'s nodes into `block` and end it with `terminator`."""
        for ts_input, arg in zip(ts_block.inputs(), block.arguments, strict=True):
            self.values[ts_input.unique()] = arg
        outer_ip, self.ip = self.ip, ir.InsertionPoint(block)
        for node in ts_block.nodes():
            self._import_node(node)
        returned = list(ts_block.returnNode().inputs())
        self.loc = ir.Location.unknown()
        self._emit(terminator, self._coerced(returned, types), [])
        self.ip = outer_ip

    def _value(self, ts_value) -> ir.Value:
        return self.values[ts_value.unique()]

    def _coerced(self, ts_values, types: list) -> list[ir.Value]:
        return [self._coerce(self._value(v), t) for v, t in zip(ts_values, types, strict=True)]

    def _coerce(self, value: ir.Value, target: ir.Type) -> ir.Value:
        """TorchScript passes subtypes implicitly (int for Optional[int]); Torch derefines."""
        if value.type == target:
            return value
        return self._emit("torch.derefine", [value], [target]).result

    def _bind(self, node, op: ir.Operation) -> None:
        for ts_output, result in zip(node.outputs(), op.results, strict=True):
            self.values[ts_output.unique()] = result

    def _output_types(self, node) -> list[ir.Type]:
        return [self.importer.torch_type(v.type()) for v in node.outputs()]

    def _emit(self, name, operands, result_types, attributes=None, regions=0) -> ir.Operation:
        return ir.Operation.create(
            name,
            results=result_types,
            operands=operands,
            attributes=attributes,
            regions=regions,
            loc=self.loc,
            ip=self.ip,
        )

    # Nodes

    def _import_node(self, node) -> None:
        self.loc = self._location(node)
        handler = _NODE_HANDLERS.get(node.kind(), _FunctionImporter._import_schema_op)
        handler(self, node)

    def _location(self, node) -> ir.Location:
        first_line = str(node).split("\n", 1)[0]
        if (match := _SOURCE_COMMENT.search(first_line)) is None:
            return ir.Location.unknown()
        filename, line, col = match.groups()
        return ir.Location.file(filename, int(line), int(col))

    def _unsupported(self, node, reason: str) -> UnsupportedNodeError:
        return UnsupportedNodeError(
            f"cannot import node {node.kind()} ({node.schema()}) in {self.qualified_name} "
            f"at {self.loc}: {reason}"
        )

    def _import_schema_op(self, node) -> None:
        schema = node.schema()
        if schema == _NO_SCHEMA:
            raise self._unsupported(node, "no handler for this node kind and no schema")
        head = schema.split("(", 1)[0]
        if self._try_fold(head, node):
            return
        operands = [self._value(v) for v in node.inputs()]
        if (terms := _REBUILT_COMPARISONS.get(head)) is not None:
            self.values[node.output().unique()] = self._rebuilt_comparison(terms, operands)
            return
        if head == "aten::remainder.int":
            self.values[node.output().unique()] = self._floor_remainder(*operands)
            return
        name = "torch." + head.replace("::", ".")
        if not self.importer.context.is_registered_operation(name):
            raise self._unsupported(node, f"the Torch dialect has no op '{name}'")
        if (positions := _LIST_ELEMENT_OPERANDS.get(head)) is not None:
            list_index, element_index = positions
            element_type = self._element_type(node.inputsAt(list_index).type())
            operands[element_index] = self._coerce(operands[element_index], element_type)
        self._bind(node, self._emit(name, operands, self._output_types(node)))

    def _rebuilt_comparison(self, terms, operands: list[ir.Value]) -> ir.Value:
        bool_type = self.importer.parse_type("!torch.bool")
        result = None
        for name, swapped, negated in terms:
            term = self._emit(name, operands[::-1] if swapped else operands, [bool_type]).result
            if negated:
                term = self._emit("torch.aten.__not__", [term], [bool_type]).result
            if result is not None:
                term = self._emit("torch.aten.__or__.bool", [result, term], [bool_type]).result
            result = term
        return result

    def _floor_remainder(self, a: ir.Value, b: ir.Value) -> ir.Value:
        """TorchScript's int `%` is Python's (the sign of the divisor), but torch-mlir folds
        `aten.remainder.int` as C's `%` (`-1 % 4` gives -1, not 3): emit `a - a // b * b`,
        whose ops fold with Python's semantics."""
        int_type = [self.importer.parse_type("!torch.int")]
        quotient = self._emit("torch.aten.floordiv.int", [a, b], int_type).result
        product = self._emit("torch.aten.mul.int", [quotient, b], int_type).result
        return self._emit("torch.aten.sub.int", [a, product], int_type).result

    def _element_type(self, ts_list_type) -> ir.Type:
        return self.importer.torch_type(ts_list_type.getElementType())

    def _try_fold(self, head: str, node) -> bool:
        folder = _FOLDERS.get(head)
        inputs = [v.unique() for v in node.inputs()]
        if folder is None or not all(i in self.constants for i in inputs):
            return False
        folded = folder(*(self.constants[i] for i in inputs))
        if folded is None:
            return False
        self._bind_constant(node.output(), folded)
        return True

    def _import_unpack(self, node) -> None:
        name = "torch." + node.kind().replace("::", ".")
        operands = [self._value(v) for v in node.inputs()]
        self._bind(node, self._emit(name, operands, self._output_types(node)))

    def _import_list_construct(self, node) -> None:
        element_type = self._element_type(node.output().type())
        operands = self._coerced(node.inputs(), [element_type] * node.inputsSize())
        op = self._emit("torch.prim.ListConstruct", operands, self._output_types(node))
        self._bind(node, op)

    def _import_tuple_construct(self, node) -> None:
        contained = node.output().type().containedTypes()
        element_types = [self.importer.torch_type(t) for t in contained]
        operands = self._coerced(node.inputs(), element_types)
        op = self._emit("torch.prim.TupleConstruct", operands, self._output_types(node))
        self._bind(node, op)

    def _import_if(self, node) -> None:
        result_types = self._output_types(node)
        condition = self._value(node.inputsAt(0))
        op = self._emit("torch.prim.If", [condition], result_types, regions=2)
        for region, ts_block in zip(op.regions, node.blocks(), strict=True):
            block = region.blocks.append()
            self._import_block(ts_block, block, "torch.prim.If.yield", result_types)
        self._bind(node, op)

    def _import_loop(self, node) -> None:
        trip_count, condition, *carried = node.inputs()
        carried_types = self._output_types(node)
        operands = [self._value(trip_count), self._value(condition)]
        operands += self._coerced(carried, carried_types)
        op = self._emit("torch.prim.Loop", operands, carried_types, regions=1)
        (ts_body,) = node.blocks()
        induction_type = self.importer.parse_type("!torch.int")
        body = op.regions[0].blocks.append(induction_type, *carried_types)
        bool_type = self.importer.parse_type("!torch.bool")
        self._import_block(
            ts_body, body, "torch.prim.Loop.condition", [bool_type, *carried_types]
        )
        self._bind(node, op)

    def _import_isinstance(self, node) -> None:
        """A number's runtime type is tested through the dtype NumToTensor gives it: the same
        ops as `scalar_dtype`, so the simplify passes need no new op to fold it."""
        value = node.inputsAt(0)
        candidates = node.tys("types")
        if any(value.type().isSubtypeOf(t) for t in candidates):
            self._bind_constant(node.output(), True)
            return
        codes = [_NUMBER_DTYPES.get(t.kind()) for t in candidates]
        if not _is_number(value.type()) or None in codes:
            raise self._unsupported(node, f"isinstance of {value.type()} is only supported "
                                          "for numbers tested against int, float, complex, bool")
        parse = self.importer.parse_type
        tensor = self._emit("torch.prim.NumToTensor.Scalar", [self._value(value)],
                            [parse("!torch.vtensor")]).result
        dtype = self._emit("torch.prim.dtype", [tensor], [parse("!torch.int")]).result
        bool_type = parse("!torch.bool")
        matches = [
            self._emit("torch.aten.eq.int", [dtype, self._materialize(code)],
                       [bool_type]).result
            for code in codes
        ]
        result = matches[0]
        for match in matches[1:]:
            result = self._emit("torch.aten.__or__.bool", [result, match], [bool_type]).result
        self.values[node.output().unique()] = result

    def _import_call(self, node) -> None:
        callee, *args = node.inputs()
        qualified_name = callee.type().annotation_str
        if (intrinsic := self.importer.intrinsics.get(qualified_name)) is not None:
            self._bind(node, self._emit_intrinsic(intrinsic, args, node))
            return
        helper = self.importer.helper(qualified_name)
        function_type = helper.type
        symbol = ir.FlatSymbolRefAttr.get(helper.sym_name.value)
        operands = self._coerced(args, list(function_type.inputs))
        op = self._emit("func.call", operands, list(function_type.results), {"callee": symbol})
        self._bind(node, op)

    def _emit_intrinsic(self, intrinsic: str | tuple[str, str], args, node) -> ir.Operation:
        """A Torch op name, or ("torch.operator", name) for an op the dialect does not define."""
        operands = [self._value(a) for a in args]
        if isinstance(intrinsic, str):
            return self._emit(intrinsic, operands, self._output_types(node))
        op_name, operator_name = intrinsic
        return self._emit(op_name, operands, self._output_types(node),
                          {"name": ir.StringAttr.get(operator_name)})

    # Constants

    def _import_constant(self, node) -> None:
        output = node.output()
        if output.type().kind() == "FunctionType":
            return  # a callee: prim::CallFunction resolves it from the value's type
        self._bind_constant(output, output.toIValue())

    def _bind_constant(self, ts_value, value: object) -> None:
        if isinstance(value, (str, int)):
            self.constants[ts_value.unique()] = value
        self.values[ts_value.unique()] = self._materialize(value, ts_value.type())

    def _materialize(self, value: object, ts_type=None) -> ir.Value:
        """A constant op for `value`; `ts_type` is needed for lists and tuples only."""
        op = self._constant_op(value, ts_type)
        self.created_constants.append(op)
        return op.result

    def _constant_op(self, value: object, ts_type) -> ir.Operation:
        parse = self.importer.parse_type
        if value is None:
            return self._emit("torch.constant.none", [], [parse("!torch.none")])
        if isinstance(value, bool):
            return self._scalar_constant("bool", ir.BoolAttr.get(value))
        if isinstance(value, int):
            i64 = ir.IntegerType.get_signless(64)
            return self._scalar_constant("int", ir.IntegerAttr.get(i64, value))
        if isinstance(value, float):
            return self._scalar_constant("float", ir.FloatAttr.get_f64(value))
        if isinstance(value, str):
            return self._scalar_constant("str", ir.StringAttr.get(value))
        if isinstance(value, torch.device):
            return self._emit("torch.constant.device", [], [parse("!torch.Device")],
                              {"value": ir.StringAttr.get(str(value))})
        if isinstance(value, (list, tuple)):
            return self._aggregate_constant(value, ts_type)
        raise UnsupportedNodeError(
            f"cannot import constant {value!r} of type {ts_type} in {self.qualified_name}"
        )

    def _scalar_constant(self, kind: str, attribute: ir.Attribute) -> ir.Operation:
        result_type = self.importer.parse_type(f"!torch.{kind}")
        return self._emit(f"torch.constant.{kind}", [], [result_type], {"value": attribute})

    def _aggregate_constant(self, value: list | tuple, ts_type) -> ir.Operation:
        """A constant list or tuple becomes a construct op over element constants."""
        result_type = self.importer.torch_type(ts_type)
        if ts_type.kind() == "ListType":
            element_type = self._element_type(ts_type)
            elements = [self._coerce(self._materialize(v, ts_type.getElementType()), element_type)
                        for v in value]
            return self._emit("torch.prim.ListConstruct", elements, [result_type])
        contained = ts_type.containedTypes()
        elements = [self._materialize(v, t) for v, t in zip(value, contained, strict=True)]
        return self._emit("torch.prim.TupleConstruct", elements, [result_type])

    def _erase_unused_constants(self) -> None:
        """Folding can leave constants unused; newest first, so aggregates free their parts."""
        for op in reversed(self.created_constants):
            if next(iter(op.result.uses), None) is None:
                op.erase()


_NODE_HANDLERS: dict[str, Callable[[_FunctionImporter, object], None]] = {
    "prim::Constant": _FunctionImporter._import_constant,
    "prim::If": _FunctionImporter._import_if,
    "prim::Loop": _FunctionImporter._import_loop,
    "prim::CallFunction": _FunctionImporter._import_call,
    "prim::isinstance": _FunctionImporter._import_isinstance,
    "prim::ListConstruct": _FunctionImporter._import_list_construct,
    "prim::TupleConstruct": _FunctionImporter._import_tuple_construct,
    "prim::ListUnpack": _FunctionImporter._import_unpack,
    "prim::TupleUnpack": _FunctionImporter._import_unpack,
}
