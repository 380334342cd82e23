"""A reference executor for Torch-dialect functions: an oracle for refinement.

`execute(module, *tensors)` runs a function op by op: each `torch.aten.*` / `torch.prim.*`
op calls `torch.ops.<ns>.<name>.<overload>` with arguments rebuilt from the operator's
schema (Python scalars where a Tensor is expected are wrapped, dtype/layout/memory-format
codes become torch objects, keyword-only arguments are passed by keyword). Constants,
literals (dense and `dense_resource` blobs), lists, tuples, `prim.If`, `prim.Loop`,
`func.call`, casts, copies and `torch.runtime.assert` are interpreted here. An op it cannot
run is an `ExecutionError` naming the op and its location, never a guess.

IR is data, not code (docs/trust-model.md): by default the executor runs only an
allow-list, the ops interpreted here, the ops the built-in library has functions for (pure
tensor computations whose semantics torch-refine checks against PyTorch) and a few pure
scalar ops (`_PURE_OPS`). Anything else (`aten.from_file`, `prim.Print`, custom ops) is
refused with an error naming the op and its location, unless the caller passes
`allow_side_effects=True`. Argument tensors are copied, so in-place ops never reach the
caller's tensors, and random ops draw from a generator seeded with `seed` inside a forked
RNG state, so the caller's RNG state is untouched. Before calling a kernel, the op's
library functions are run on the runtime sizes and dtypes: where they raise (the check
refinement would report or keep as `torch.runtime.assert`), the kernel is not called.

With `check_types=True` every tensor produced (and every argument) is compared with its
static type in the IR; all mismatches are collected and raised at the end as one
`TypeMismatchError`. The results are still computed by PyTorch, so the comparison is
against what really happens, not against another model of the op.
"""

from __future__ import annotations

import operator
import re
from collections import ChainMap
from dataclasses import dataclass

import numpy as np
import torch
from torch_mlir import ir

from torch_refine.calculations.symbols import DTYPE_FN_PREFIX, SHAPE_FN_PREFIX, is_library_symbol
from torch_refine.ir import parsing, types
from torch_refine.library.einsum_equation import EINSUM_PLAN_OPERATOR, einsum_plan
from torch_refine.library.promotion import promote_dtypes
from torch_refine.report import short_location

DTYPES = {
    0: torch.uint8,
    1: torch.int8,
    2: torch.int16,
    3: torch.int32,
    4: torch.int64,
    5: torch.float16,
    6: torch.float32,
    7: torch.float64,
    8: torch.complex32,
    9: torch.complex64,
    10: torch.complex128,
    11: torch.bool,
    15: torch.bfloat16,
}
_DTYPE_CODES = {dtype: code for code, dtype in DTYPES.items()}
ELEMENT_DTYPES = {types.DTYPE_TO_ELEMENT[code]: dtype for code, dtype in DTYPES.items()}
# Builtin (MLIR) element types of literals; signless integers are signed, i1 is bool.
_BUILTIN_DTYPES = {
    "f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32, "f64": torch.float64,
    "i1": torch.bool, "i8": torch.int8, "si8": torch.int8, "ui8": torch.uint8,
    "i16": torch.int16, "si16": torch.int16, "i32": torch.int32, "si32": torch.int32,
    "i64": torch.int64, "si64": torch.int64, "complex<f32>": torch.complex64,
    "complex<f64>": torch.complex128,
}
_MEMORY_FORMATS = [torch.contiguous_format, torch.preserve_format, torch.channels_last,
                   torch.channels_last_3d]
_LAYOUTS = {0: torch.strided, 1: torch.sparse_coo}

_TERMINATORS = frozenset({
    "func.return", "torch.prim.If.yield", "torch.prim.Loop.condition",
    "torch.shape.calculate.yield", "torch.dtype.calculate.yield",
})
_IDENTITY_OPS = frozenset({
    "torch.tensor_static_info_cast", "torch.derefine", "torch.prim.unchecked_cast",
    "torch.static_info_cast",
})


# Pure scalar and list ops run through torch.ops that have no library function (the library's
# own functions use most of them). With the library's ops and the ops interpreted here,
# the allow-list of what runs without `allow_side_effects`.
_PURE_OPS = frozenset({
    "aten.Bool.Tensor", "aten.Float.Scalar", "aten.Float.Tensor", "aten.Int.Scalar",
    "aten.Int.Tensor", "aten.item", "aten.Int.bool", "aten.Bool.int", "aten.Int.float", "aten.ScalarImplicit",
    "aten.__and__.bool", "aten.__or__.bool", "aten.__contains__.int_list",
    "aten.__contains__.str_list", "aten.__derive_index", "aten.__range_length",
    "aten.add.str", "aten.all.bool", "aten.any.bool", "aten.ceil.float", "aten.div.float",
    "aten.div.int", "aten.eq.bool", "aten.eq.int_list", "aten.eq.str", "aten.floor.float",
    "aten.ne.bool", "aten.ne.int_list", "aten.ne.str", "aten.neg.float", "aten.neg.int",
    "aten.sqrt.int", "aten.__not__", "prim.NumToTensor.Scalar", "prim.max.float", "prim.max.int",
    "prim.max.self_int", "prim.max.int_float", "prim.max.float_int", "prim.min.float", "prim.min.int",
    "prim.min.self_int", "prim.min.int_float", "prim.min.float_int",
    # torch.export's checks of its inputs' metadata: they read and raise, nothing else.
    "aten._assert_tensor_metadata",
    # Core ATen's inference batch norm (no library function: the meta fallback types it).
    "aten._native_batch_norm_legit_no_training",
})


# (library symbol, runtime arguments as the function sees them) -> the message it raises, or
# None. The built-in library is the same in every context, so verdicts are kept across runs.
_LIBRARY_VERDICTS: dict = {}
_MAX_LIBRARY_VERDICTS = 100_000


class ExecutionError(Exception):
    """An op failed or cannot be run; the message names the op and its location."""


class RaisedError(ExecutionError):
    """The program raised: a `torch.prim.RaiseException` or a failing `torch.runtime.assert`;
    `message` is the program's own message."""

    def __init__(self, text: str, message: str):
        super().__init__(text)
        self.message = message


class SideEffectError(ExecutionError):
    """An op outside the allow-list, refused without `allow_side_effects=True`."""


@dataclass(frozen=True)
class Mismatch:
    op_name: str
    location: str
    ir_type: str
    shape: tuple[int, ...]
    dtype: str

    def __str__(self) -> str:
        return (f"{self.op_name} at {self.location}: IR type {self.ir_type}, "
                f"runtime {list(self.shape)} {self.dtype}")


class TypeMismatchError(ExecutionError):
    """Tensors whose runtime shape or dtype contradicts their static type."""

    def __init__(self, mismatches: list[Mismatch]):
        lines = [f"{len(mismatches)} tensor(s) contradict their IR type:"]
        lines += [f"  {m}" for m in mismatches]
        super().__init__("\n".join(lines))
        self.mismatches = mismatches


def execute(module, *tensors, function: str = "main", check_types: bool = False,
            allow_side_effects: bool = False, seed: int = 0, **named_tensors):
    """Run `function` of a Torch-dialect module (an `ir.Module`, a `Refined` or MLIR text)
    on `tensors`; returns one value, or a tuple for several results.

    Keyword arguments are the model's keyword arguments: a `Refined` from
    `export_and_import` places them by the exported program's input names; for other IR
    they follow the positional ones in the order given.

    Only the allow-list of pure ops runs (see the module docstring); `allow_side_effects=True`
    runs any op `torch.ops` has, file I/O and printing included: only for trusted IR.
    Random ops draw from a generator seeded with `seed`; the caller's RNG state and
    argument tensors are left as they were.
    """
    input_names = getattr(module, "input_names", None)
    ordered = _ordered_arguments(input_names, tensors, named_tensors)
    module = parsing.as_module(module)
    arguments = [t.clone() if isinstance(t, torch.Tensor) else t for t in ordered]
    with module.context, torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        interpreter = _Interpreter(module, check_types, allow_side_effects)
        try:
            results = interpreter.call(function, arguments, input_names or ())
        except ExecutionError as error:
            # A type contradicted before the program raised is the worse finding.
            if interpreter.mismatches:
                raise TypeMismatchError(interpreter.mismatches) from error
            raise
    if interpreter.mismatches:
        raise TypeMismatchError(interpreter.mismatches)
    return results[0] if len(results) == 1 else tuple(results)


def _ordered_arguments(names, positional: tuple, named: dict) -> list:
    """Positional then keyword arguments, the keyword ones in the order of `names` (the
    program's inputs) when it is known."""
    if not named:
        return list(positional)
    if names is None:
        return [*positional, *named.values()]
    expected = names[len(positional):]
    unexpected = [name for name in named if name not in expected]
    missing = [name for name in expected if name not in named]
    if unexpected or missing:
        raise TypeError(f"the program's inputs after {len(positional)} positional ones are "
                        f"{list(expected)}; unexpected {unexpected}, missing {missing}")
    return [*positional, *(named[name] for name in expected)]


@dataclass
class _SymbolicInt:
    """A `torch.symbolic_int`: the range torch.export gave a dynamic size, and the size
    it takes in this run once a `torch.bind_symbolic_shape` binds it."""

    name: str
    min_val: int
    max_val: int
    value: int | None = None


def _has_value_semantics(value: ir.Value) -> bool:
    return not str(value.type).startswith("!torch.tensor")


def _symbolic_int(self: _Interpreter, op, operands):
    attributes = op.attributes
    return [_SymbolicInt(ir.StringAttr(attributes["symbol_name"]).value,
                         ir.IntegerAttr(attributes["min_val"]).value,
                         ir.IntegerAttr(attributes["max_val"]).value)]


def _bind_symbolic_shape(self: _Interpreter, op, operands):
    """Binds each size that is a lone symbol, checking it against the symbol's range and
    earlier bindings; compound expressions constrain nothing here."""
    tensor, symbols = operands[0], operands[1:]
    expressions = ir.AffineMapAttr(op.attributes["shape_expressions"]).value.results
    for dim, expression in enumerate(expressions):
        expression = expression.maybe_downcast()
        if not isinstance(expression, ir.AffineSymbolExpr):
            continue
        symbol = symbols[expression.position]
        size = tensor.shape[dim]
        if not symbol.min_val <= size <= symbol.max_val:
            raise ExecutionError(
                f"'torch.bind_symbolic_shape'{_at(op)}: {self.describe(op.operands[0])}dim {dim} is "
                f"{size}, outside the range [{symbol.min_val}, {symbol.max_val}] of {symbol.name}")
        if symbol.value is not None and symbol.value != size:
            raise ExecutionError(
                f"'torch.bind_symbolic_shape'{_at(op)}: {self.describe(op.operands[0])}dim {dim} is "
                f"{size}, but "
                f"{symbol.name} is {symbol.value}")
        symbol.value = size
    return []


class _Interpreter:
    def __init__(self, module: ir.Module, check_types: bool, allow_side_effects: bool = False):
        self.module = module
        self.check_types = check_types
        self.allow_side_effects = allow_side_effects
        self.mismatches: list[Mismatch] = []
        self.functions = {}
        for op in module.body.operations:
            if op.operation.name == "func.func":
                self.functions[ir.StringAttr(op.attributes["sym_name"]).value] = op
        self._resources: dict[str, str] | None = None
        self._callables: dict[str, object] = {}
        self._library = _builtin_library(module)
        self._checking_library = False
        self._entry: tuple[ir.Block, tuple] | None = None  # the entry call's block, its input names

    # --- structure ---------------------------------------------------------------------

    def call(self, name: str, args: list, input_names=None) -> list:
        """Run function `name` on `args`. `input_names` (the program's, for the entry call)
        name the arguments in errors; the entry call's tensors must agree with the
        signature, as the JIT checks them, whatever `check_types` says."""
        # Library symbols resolve to the built-in library, never to a same-named input function.
        fn = self._library.get(name) if is_library_symbol(name) else self.functions.get(name)
        if fn is None:
            raise ExecutionError(f"no function @{name} in the module")
        if not len(fn.regions[0].blocks):
            raise ExecutionError(f"@{name} is a declaration: its body is external, so execute cannot run it")
        block = fn.regions[0].blocks[0]
        if lowered := [str(a.type) for a in block.arguments if not str(a.type).startswith("!torch.")]:
            raise ExecutionError(
                f"@{name} takes {lowered[0]}, not a Torch-dialect type: execute runs Torch-dialect IR, "
                f"and this module is lowered to a backend (linalg-on-tensors output runs JIT-compiled: "
                f"torch_refine.jit.compile_linalg)")
        if len(args) != len(block.arguments):
            raise ExecutionError(
                f"@{name} takes {len(block.arguments)} arguments, {len(args)} given")
        if input_names is not None:
            self._entry = (block, input_names)
        for index, (argument, value) in enumerate(zip(block.arguments, args)):
            if input_names is not None:
                _check_argument(name, index, input_names, argument.type, value)
            self._check(f"@{name} argument {index}", str(fn.location), argument.type, value)
        return self.run_block(block, args)

    def describe(self, value: ir.Value) -> str:
        """`argument 0 (x) ` for an argument of the entry call, else empty."""
        if self._entry is None or not isinstance(value, ir.BlockArgument) or value.owner != self._entry[0]:
            return ""
        index, names = value.arg_number, self._entry[1]
        return f"argument {index}{f' ({names[index]})' if index < len(names) else ''} "

    def run_block(self, block: ir.Block, args: list, outer: dict | None = None) -> list:
        """Run the ops of `block`; values from enclosing blocks are looked up in `outer`."""
        env = dict(zip(block.arguments, args))
        if outer is not None:
            env = ChainMap(env, outer)
        for op in block.operations:
            name = op.operation.name
            if name in _TERMINATORS:
                return [env[v] for v in op.operands]
            try:
                results = self.run_op(op, name, [env[v] for v in op.operands], env)
            except (ExecutionError, KeyboardInterrupt):
                raise
            except Exception as error:
                raise ExecutionError(f"'{name}' at {_where(op)} failed: {error}") from error
            for value, result in zip(op.results, results, strict=True):
                env[value] = result
                self._check(name, str(op.location), value.type, result)
        raise ExecutionError(f"block without terminator in {block.owner.operation.name}")

    def run_op(self, op, name: str, operands: list, env) -> list:
        if name in _REGION_OPS:
            return _REGION_OPS[name](self, op, operands, env)
        special = _SPECIAL.get(name)
        if special is not None:
            return special(self, op, operands)
        if name in _IDENTITY_OPS:
            return operands[:1]
        if name.startswith("torch.constant."):
            return [_constant(op)]
        if name == "torch.operator" and ir.StringAttr(op.attributes["name"]).value == EINSUM_PLAN_OPERATOR:
            return [_einsum_plan(op, operands[0])]
        return self.call_torch_op(op, name, operands)

    # --- torch.ops ---------------------------------------------------------------------

    def call_torch_op(self, op, name: str, operands: list) -> list:
        qualified = name.removeprefix("torch.")
        if name == "torch.operator":  # named as an ATen op the dialect lacks: `torch.aten.<op>`
            qualified = ir.StringAttr(op.attributes["name"]).value.removeprefix("torch.")
        if not self.allow_side_effects and not self._allowed(qualified):
            raise SideEffectError(
                f"refusing '{qualified}' at {_where(op)}: the executor runs only pure tensor "
                f"and scalar computations it knows (no file I/O, printing or global state); "
                f"pass allow_side_effects=True to run it on trusted IR")
        target = self._callables.get(qualified)
        if target is None:
            target = _resolve(qualified, op)
            self._callables[qualified] = target
        overload, arguments = target
        if (refusal := self._library_refusal(qualified, operands)) is not None:
            raise ExecutionError(
                f"'{qualified}' at {_where(op)}: its library function rejects these arguments, "
                f"so the kernel is not called: {refusal}")
        args, kwargs = [], {}
        for argument, value in zip(arguments, operands):
            value = _convert(value, argument)
            if argument.kwarg_only:
                kwargs[argument.name] = value
            else:
                args.append(value)
        try:
            result = overload(*args, **kwargs)
        except Exception:
            # An ONNX conversion's call PyTorch's eager check rejects (trailing pool strides,
            # a long pad list): the program means what torch-mlir's lowering makes of it.
            meaning = _torch_mlir_meaning(qualified)
            if meaning is None:
                raise
            result = meaning(*args, **kwargs)
        count = len(op.results)
        if count == 0:
            return []
        results = [result] if count == 1 else list(result)
        # Value semantics: no strides, so a later `view` of a permuted tensor must work. A
        # `!torch.tensor` result keeps PyTorch's strides and storage: a view aliases its
        # base, and a write through it reaches the base.
        return [r.contiguous() if isinstance(r, torch.Tensor) and _has_value_semantics(value) else r
                for r, value in zip(results, op.results)]

    def _allowed(self, qualified: str) -> bool:
        if qualified in _PURE_OPS:
            return True
        symbols = (SHAPE_FN_PREFIX + qualified, DTYPE_FN_PREFIX + qualified)
        return any(self._library.get(symbol) is not None for symbol in symbols)

    # --- the library's checks ------------------------------------------------------------

    def _library_refusal(self, qualified: str, operands: list) -> str | None:
        """The message of the op's shape or dtype function raising on the runtime sizes and
        dtypes of `operands`, or None (it passes, or cannot be evaluated here)."""
        if self._checking_library:
            return None
        for prefix in (SHAPE_FN_PREFIX, DTYPE_FN_PREFIX):
            fn = self._library.get(prefix + qualified)
            if fn is None:
                continue
            parameters = fn.regions[0].blocks[0].arguments
            if len(parameters) != len(operands):
                continue
            try:
                arguments = [_library_value(str(p.type), v) for p, v in zip(parameters, operands)]
            except _NoVerdict:
                continue
            key = (prefix + qualified, _frozen(arguments))
            if key not in _LIBRARY_VERDICTS:
                if len(_LIBRARY_VERDICTS) >= _MAX_LIBRARY_VERDICTS:
                    _LIBRARY_VERDICTS.clear()
                _LIBRARY_VERDICTS[key] = self._run_library_function(prefix + qualified, arguments)
            if (message := _LIBRARY_VERDICTS[key]) is not None:
                return message
        return None

    def _run_library_function(self, symbol: str, arguments: list) -> str | None:
        self._checking_library = True
        try:
            self.call(symbol, arguments)
        except RaisedError as error:
            return error.message
        except Exception:  # an op this interpreter cannot evaluate: no verdict
            return None
        finally:
            self._checking_library = False
        return None

    # --- literals ----------------------------------------------------------------------

    def literal(self, op, operands) -> list:
        attr = op.attributes["value"]
        shaped = ir.ShapedType(attr.type)
        dtype = _BUILTIN_DTYPES[str(shaped.element_type)]
        shape = list(shaped.shape)
        text = str(attr)
        if text.startswith("dense_resource<"):
            key = text[len("dense_resource<"): text.index(">")]
            return [self._resource(key, dtype, shape, op)]
        dense = ir.DenseElementsAttr(attr)
        if dense.is_splat:
            return [torch.full(shape, _scalar_of(dense.get_splat_value()), dtype=dtype)]
        return [_dense_to_tensor(dense, dtype, shape)]

    def _resource(self, key: str, dtype, shape, op) -> torch.Tensor:
        if self._resources is None:
            asm = self.module.operation.get_asm(assume_verified=True)
            self._resources = dict(re.findall(r'^\s*([\w.$-]+): "0x([0-9A-Fa-f]*)"', asm, re.M))
        blob = self._resources.get(key)
        if blob is None:
            raise ExecutionError(f"'torch.vtensor.literal' at {_where(op)}: no blob '{key}'")
        data = bytes.fromhex(blob)[4:]  # the first 4 bytes are the blob's alignment
        if dtype == torch.bool:
            return torch.frombuffer(bytearray(data), dtype=torch.uint8).bool().reshape(shape)
        return torch.frombuffer(bytearray(data), dtype=dtype).reshape(shape).clone()

    # --- type checks -------------------------------------------------------------------

    def _check(self, op_name: str, location: str, type_: ir.Type, value) -> None:
        if not self.check_types or self._checking_library or not isinstance(value, torch.Tensor):
            return
        info = types.parse(type_)
        if info is None or _agrees(info, value):
            return
        self.mismatches.append(Mismatch(op_name, short_location(location), info.text(),
                                        tuple(value.shape), str(value.dtype)))


def _check_argument(function: str, index: int, input_names, type_: ir.Type, value) -> None:
    """Raise an ExecutionError naming the argument when `value` is a tensor its type
    contradicts."""
    info = types.parse(type_)
    if info is None or not isinstance(value, torch.Tensor) or _agrees(info, value):
        return
    name = f" ({input_names[index]})" if index < len(input_names) else ""
    raise ExecutionError(f"@{function} argument {index}{name} is {info.text()}; given a tensor of "
                         f"sizes {list(value.shape)} and dtype {value.dtype}")


def _agrees(info: types.TensorInfo, value: torch.Tensor) -> bool:
    if info.dtype is not None and ELEMENT_DTYPES.get(info.dtype) != value.dtype:
        return False
    if info.sizes is None:
        return True
    if len(info.sizes) != value.dim():
        return False
    return all(d is None or d == n for d, n in zip(info.sizes, value.shape))


def _where(op) -> str:
    return short_location(str(op.location))


def _at(op) -> str:
    """` at file:line:col`, or nothing for an op without a location (export's input
    checks and binds, whose messages name the input)."""
    where = _where(op)
    return "" if where == "loc(unknown)" else f" at {where}"


# --- ops interpreted here ----------------------------------------------------------------


def _if(self: _Interpreter, op, operands, env):
    region = op.regions[0] if operands[0] else op.regions[1]
    return self.run_block(region.blocks[0], [], env)


def _loop(self: _Interpreter, op, operands, env):
    trip_count, condition, *carried = operands
    body = op.regions[0].blocks[0]
    iteration = 0
    while condition and iteration < trip_count:
        condition, *carried = self.run_block(body, [iteration, *carried], env)
        iteration += 1
    return carried


def _calculate(self: _Interpreter, op, operands, env):
    return self.run_block(op.regions[0].blocks[0], [], env)  # the calculation is abstract


_REGION_OPS = {
    "torch.prim.If": _if,
    "torch.prim.Loop": _loop,
    "torch.shape.calculate": _calculate,
    "torch.dtype.calculate": _calculate,
}


def _call(self: _Interpreter, op, operands):
    return self.call(ir.FlatSymbolRefAttr(op.attributes["callee"]).value, operands)


def _runtime_assert(self: _Interpreter, op, operands):
    if not operands[0]:
        message = ir.StringAttr(op.attributes["message"]).value
        raise RaisedError(f"torch.runtime.assert failed{_at(op)}: {message}", message)
    return []


def _raise(self: _Interpreter, op, operands):
    raise RaisedError(f"torch.prim.RaiseException at {_where(op)}: {operands[0]}", str(operands[0]))


def _einsum_plan(op, equation: str) -> list:
    try:
        return einsum_plan(equation)
    except AssertionError as error:  # the library's check, as a raise in the IR would be
        raise RaisedError(f"einsum plan at {_where(op)}: {error}", str(error)) from error


def _overwrite(self: _Interpreter, op, operands):
    value, overwritten = operands
    overwritten.copy_(value)
    return []


def _list_append(self, op, operands):
    operands[0].append(operands[1])
    return [operands[0]]


def _list_insert(self, op, operands):
    operands[0].insert(operands[1], operands[2])
    return []


def _list_set_item(self, op, operands):
    operands[0][operands[1]] = operands[2]
    return [operands[0]]


def _list_sort(self, op, operands):
    operands[0].sort(reverse=bool(operands[1]))
    return []


_SPECIAL = {
    "torch.vtensor.literal": _Interpreter.literal,
    "torch.tensor.literal": _Interpreter.literal,
    "func.call": _call,
    "torch.runtime.assert": _runtime_assert,
    "torch.symbolic_int": _symbolic_int,
    "torch.bind_symbolic_shape": _bind_symbolic_shape,
    "torch.prim.RaiseException": _raise,
    "torch.overwrite.tensor.contents": _overwrite,
    "torch.copy.to_tensor": lambda self, op, o: [o[0].clone()],
    "torch.copy.to_vtensor": lambda self, op, o: [o[0].clone()],
    "torch.prim.ListConstruct": lambda self, op, o: [list(o)],
    "torch.prim.ListUnpack": lambda self, op, o: list(o[0]),
    "torch.prim.TupleConstruct": lambda self, op, o: [tuple(o)],
    "torch.prim.TupleIndex": lambda self, op, o: [o[0][o[1]]],
    "torch.prim.TupleUnpack": lambda self, op, o: list(o[0]),
    "torch.prim.Uninitialized": lambda self, op, o: [None],
    "torch.prim.dtype": lambda self, op, o: [_dtype_code(o[0].dtype)],
    "torch.promote_dtypes": lambda self, op, o: [promote_dtypes(o[0], o[1])],
    "torch.aten.append.t": _list_append,
    "torch.aten.insert.t": _list_insert,
    "torch.aten._set_item.t": _list_set_item,
    "torch.aten.sort.int": _list_sort,
    "torch.aten.__getitem__.t": lambda self, op, o: [o[0][o[1]]],
    "torch.aten.len.t": lambda self, op, o: [len(o[0])],
    "torch.aten.slice.t": lambda self, op, o: [o[0][o[1]:o[2]:o[3]]],
    "torch.aten.format": lambda self, op, o: [o[0].format(*map(str, o[1:]))],
    "torch.aten.__not__": lambda self, op, o: [not o[0]],
    "torch.aten.__is__": lambda self, op, o: [o[0] is o[1]],
    "torch.aten.__isnot__": lambda self, op, o: [o[0] is not o[1]],
    "torch.aten.size": lambda self, op, o: [list(o[0].shape)],
    "torch.aten.dim": lambda self, op, o: [o[0].dim()],
    # Generic list and string ops, which torch.ops cannot call with Python values.
    "torch.aten.add.t": lambda self, op, o: [o[0] + o[1]],
    "torch.aten.str": lambda self, op, o: [str(o[0])],
    # How kept guards negate a condition (patterns.scalars.negation).
    "torch.aten.eq.bool": lambda self, op, o: [o[0] == o[1]],
    "torch.aten.ne.bool": lambda self, op, o: [o[0] != o[1]],
}
# Int and float arithmetic and comparisons, as Python does them.
_SCALAR_OPERATORS = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul,
    "floordiv": operator.floordiv, "remainder": operator.mod, "eq": operator.eq,
    "ne": operator.ne, "lt": operator.lt, "gt": operator.gt, "le": operator.le,
    "ge": operator.ge,
}
for _name, _function in _SCALAR_OPERATORS.items():
    for _overload in ("int", "float", "int_float", "float_int"):
        _SPECIAL[f"torch.aten.{_name}.{_overload}"] = (
            lambda self, op, o, f=_function: [f(o[0], o[1])])


class _NoVerdict(Exception):
    """A runtime value a library function's parameter cannot see: no check is made."""


def _builtin_library(module: ir.Module):
    from torch_refine.library import loader

    return loader.load(module.context)


def _library_value(parameter_type: str, value):
    """A runtime operand as a library function's parameter sees it: a tensor as its sizes
    (`!torch.list<int>`) or as (rank, dtype code) (`!torch.tuple<int, int>`)."""
    if isinstance(value, list | tuple):
        converted = [_library_value(parameter_type, v) for v in value]
        return converted if isinstance(value, list) else tuple(converted)
    if not isinstance(value, torch.Tensor):
        return value
    if "tuple<int, int>" in parameter_type and value.dtype in _DTYPE_CODES:
        return (value.dim(), _DTYPE_CODES[value.dtype])
    if "list<int>" in parameter_type:
        return list(value.shape)
    raise _NoVerdict


def _frozen(value):
    if isinstance(value, list | tuple):
        return (type(value).__name__, *(_frozen(v) for v in value))
    return (type(value).__name__, value) if isinstance(value, bool | int | float | str) else repr(value)


def _dtype_code(dtype: torch.dtype) -> int:
    return _DTYPE_CODES[dtype]


def _constant(op):
    if op.operation.name == "torch.constant.none":
        return None
    attr = op.attributes["value"]
    if op.operation.name == "torch.constant.device":
        return torch.device(ir.StringAttr(attr).value)
    if op.operation.name == "torch.constant.str":
        return ir.StringAttr(attr).value
    return _scalar_of(attr)


def _scalar_of(attr: ir.Attribute):
    attr = attr.maybe_downcast() if hasattr(attr, "maybe_downcast") else attr
    if isinstance(attr, ir.BoolAttr):
        return attr.value
    if isinstance(attr, ir.IntegerAttr):
        return bool(attr.value) if str(attr.type) == "i1" else attr.value
    if isinstance(attr, ir.FloatAttr):
        return attr.value
    raise ExecutionError(f"cannot read constant {attr}")


def _dense_to_tensor(dense: ir.DenseElementsAttr, dtype, shape) -> torch.Tensor:
    if dtype in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
        array = np.array(ir.DenseFPElementsAttr(dense))
    else:
        array = np.array(ir.DenseIntElementsAttr(dense))
    return torch.from_numpy(array.copy()).to(dtype).reshape(shape)


def _torch_mlir_meaning(qualified: str):
    """The function computing `qualified` as torch-mlir's lowering does where it accepts
    more than PyTorch's eager op (library.testing.TORCH_MLIR_MEANINGS), or None."""
    from torch_refine.library import registry, testing

    registry.load_all()  # the family modules register the meanings
    return testing.TORCH_MLIR_MEANINGS.get(qualified)


def _resolve(qualified: str, op):
    """(the OpOverload, its schema arguments) for `aten.add.Tensor`, `prims.x`, ..."""
    namespace, _, rest = qualified.partition(".")
    packet_name, _, overload_name = rest.partition(".")
    try:
        packet = getattr(getattr(torch.ops, namespace), packet_name)
        overload = getattr(packet, overload_name or "default")
    except (AttributeError, RuntimeError):
        raise ExecutionError(
            f"cannot execute '{op.operation.name}' at {_where(op)}: no operator "
            f"torch.ops.{namespace}.{packet_name}.{overload_name or 'default'}") from None
    return overload, list(overload._schema.arguments)


def _convert(value, argument):
    """A value read from the IR as the schema argument wants it."""
    kind = str(argument.real_type)
    if value is None:
        return None
    if "Tensor" in kind and not isinstance(value, (torch.Tensor, list)):
        return torch.tensor(value)
    if "ScalarType" in kind:
        return DTYPES[value] if isinstance(value, int) else value
    if "MemoryFormat" in kind:
        return _MEMORY_FORMATS[value] if isinstance(value, int) else value
    if "Layout" in kind:
        return _LAYOUTS[value] if isinstance(value, int) else value
    if "Device" in kind and isinstance(value, str):
        return torch.device(value)
    return value
