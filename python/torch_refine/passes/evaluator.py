"""Running a library function on an op whose arguments are all known at compile time.

The greedy way (reify, inline, simplify, drop) spends a few milliseconds of Python pattern
callbacks on each distinct calculation. When everything the function receives is a
constant (static sizes, known ranks and dtypes, constant scalars and list literals),
running it is cheaper: each library function is compiled once per process into steps
over Python values (ints, floats, bools, strings, lists, tuples) and executed.

The evaluator decides nothing the greedy way would not: a size that is not a constant, a
tensor op, an op it does not know, a check that raises, a Python error (an index out of
range, a division by zero, an int beyond int64) or too many steps make it give up, and the
op is calculated the greedy way, which also reports failed checks at the op.
"""

from __future__ import annotations

import math
import operator
import weakref

from torch_mlir import ir

from torch_refine.calculations.dim_facts import express, tensor_dims
from torch_refine.calculations.kind import SHAPE, CalculationKind
from torch_refine.calculations.ranges import enclosing_function, polynomial_range
from torch_refine.ir import types
from torch_refine.ir.constants import NotConstant, constant_value
from torch_refine.ir.polynomial import Polynomial, parse_polynomial
from torch_refine.ir.retype import most_precise_alias
from torch_refine.library.promotion import promote_dtypes
from torch_refine.passes.reify import _constructed_elements, _inner_type, bool_scalar_changes_promotion
from torch_refine.passes.simplifier import Options

# Steps one evaluation may run (loops count each iteration) before giving up: a loop over
# an odd huge size costs the greedy way's unroll cap, not an unbounded Python loop.
MAX_STEPS = 100_000
MAX_UNROLL = Options.max_unroll
_INT64 = (-(2**63), 2**63 - 1)


class GiveUp(Exception):
    """The evaluator cannot decide this op: calculate it the greedy way."""


class _Text:
    """A string the evaluator does not build (`aten.format`, `aten.str`): only ever part of
    a check's message; comparing it gives up."""


_TEXT = _Text()
_UNINITIALIZED = object()


class _ScalarTensor:
    """`prim.NumToTensor.Scalar` of a number: all `prim.dtype` reads of it."""

    def __init__(self, number) -> None:
        if isinstance(number, bool):
            self.dtype = 11
        elif isinstance(number, int):
            self.dtype = 4
        elif isinstance(number, float):
            self.dtype = 7
        else:
            raise GiveUp


def _int(value) -> int:
    if isinstance(value, Polynomial):
        return _settle(value)
    if isinstance(value, bool) or not isinstance(value, int) or not _INT64[0] <= value <= _INT64[1]:
        raise GiveUp  # TorchScript ints wrap at 64 bits; Python's do not
    return value


def _settle(polynomial: Polynomial):
    """A polynomial that is a constant as that int; any other stays symbolic."""
    constant = polynomial.constant_value()
    return polynomial if constant is None else _int(constant)


def _symbolic(value) -> Polynomial:
    return value if isinstance(value, Polynomial) else Polynomial.constant(_int(value))


def _arithmetic(combine):
    def run(a, b):
        if isinstance(a, Polynomial) or isinstance(b, Polynomial):
            return _settle(combine(_symbolic(a), _symbolic(b)))
        return _int(combine(a, b))

    return run


def _floor_divide(a, b):
    if isinstance(b, Polynomial):
        quotient = _symbolic(a).exact_divide(b)  # floor division that divides exactly
    elif b == 0:
        raise GiveUp
    elif isinstance(a, Polynomial):
        quotient = a.floor_divide(b)
    else:
        return a // b
    if quotient is None:
        raise GiveUp
    return _settle(quotient)


def _decide(test, low, high) -> bool:
    """`test(x, 0)` for every x in [low, high] (None: unbounded), or give up."""
    if low is not None and low == high:
        return test(low, 0)
    low = -math.inf if low is None else low
    high = math.inf if high is None else high
    if test is operator.eq or test is operator.ne:
        if low > 0 or high < 0:
            return test(1, 0)
        raise GiveUp
    answer = test(low, 0)
    if answer != test(high, 0):
        raise GiveUp
    return answer


class _SizeFloat:
    """A float that is integer arithmetic on sizes (`aten.Float.Scalar` of a symbolic
    size, then float steps): its polynomial. Sizes are below 2**53, where converting them
    is exact; further steps are kept only while their range stays within 2**53, where
    float arithmetic on integers is exact (as patterns/scalars.py folds them)."""

    __slots__ = ("polynomial",)

    def __init__(self, polynomial: Polynomial) -> None:
        self.polynomial = polynomial


_EXACT_FLOAT_INTEGERS = 2**53
# `x - 0.0`, `x + 0.0`, `x / 1.0`, `x * 1.0`: x.
_IDENTITY_OPERAND = {operator.sub: 0.0, operator.add: 0.0, operator.truediv: 1.0, operator.mul: 1.0}


def _to_float(value):
    if isinstance(value, Polynomial):
        return _SizeFloat(value)
    return float(value)


def _is(a, b) -> bool:
    if a is not None and b is not None:
        raise GiveUp  # identity of two objects: not a None check
    return a is None and b is None


def _text_equal(a, b) -> bool:
    if not isinstance(a, str) or not isinstance(b, str):
        raise GiveUp
    return a == b


def _add_text(a, b):
    return a + b if isinstance(a, str) and isinstance(b, str) else _TEXT


def _set_item(values: list, index: int, element) -> list:
    values[index] = element
    return values


def _append(values: list, element) -> list:
    values.append(element)
    return values


def _insert(values: list, index: int, element) -> list:
    if not -len(values) <= index <= len(values):
        raise GiveUp
    values.insert(index, element)
    return values


def _slice(values: list, start, end, step: int) -> list:
    if step <= 0:
        raise GiveUp
    return values[start:end:step]


def _range_length(low: int, high: int, step: int) -> int:
    if step == 0:
        raise GiveUp
    if step > 0:
        return 0 if low >= high else 1 + (high - 1 - low) // step
    return 0 if low <= high else 1 + (low - 1 - high) // -step


def _unchecked_cast(value):
    if value is None or value is _UNINITIALIZED:
        raise GiveUp  # the cast of None raises at run time
    return value


def _promote(ranks: list, dtypes: list) -> int:
    try:
        return promote_dtypes(ranks, dtypes)
    except AssertionError:
        raise GiveUp from None


def _dtype(value) -> int:
    if not isinstance(value, _ScalarTensor):
        raise GiveUp  # a tensor argument: the evaluator has none
    return value.dtype


def _divide(a, b) -> float:
    if b == 0:
        raise GiveUp
    return a / b


def _to_int(value) -> int:
    if isinstance(value, _SizeFloat):
        return _settle(value.polynomial)
    if not math.isfinite(value):
        raise GiveUp
    return _int(int(value))


def _ceil(value: float) -> int:
    if isinstance(value, _SizeFloat):
        return _settle(value.polynomial)
    if not math.isfinite(value):
        raise GiveUp
    return _int(math.ceil(value))


def _give_up(*_):
    raise GiveUp


# Ops of one result computed from their operands' values.
_PURE = {
    "torch.aten.add.int": _arithmetic(operator.add),
    "torch.aten.sub.int": _arithmetic(operator.sub),
    "torch.aten.mul.int": _arithmetic(operator.mul),
    "torch.aten.neg.int": lambda a: _arithmetic(operator.sub)(0, a),
    "torch.aten.floordiv.int": _floor_divide,
    "torch.aten.__derive_index": lambda index, start, step: _arithmetic(operator.add)(
        start, _arithmetic(operator.mul)(index, step)),
    "torch.aten.__range_length": _range_length,
    "torch.aten.eq.bool": operator.eq,
    "torch.aten.lt.float_int": operator.lt,
    "torch.aten.gt.float_int": operator.gt,
    "torch.aten.ge.float_int": operator.ge,
    "torch.aten.ne.float_int": operator.ne,
    "torch.aten.div": _divide,
    "torch.aten.ceil.float": _ceil,
    "torch.aten.Int.float": _to_int,
    "torch.aten.Int.Scalar": _to_int,
    "torch.aten.Float.Scalar": _to_float,
    "torch.aten.__not__": operator.not_,
    "torch.aten.__and__.bool": lambda a, b: a and b,
    "torch.aten.__is__": _is,
    "torch.aten.__isnot__": lambda a, b: not _is(a, b),
    "torch.aten.len.t": len,
    "torch.aten.__getitem__.t": operator.getitem,
    "torch.aten._set_item.t": _set_item,
    "torch.aten.append.t": _append,
    "torch.aten.insert.t": _insert,
    "torch.aten.slice.t": _slice,
    "torch.aten.add.t": operator.add,
    "torch.aten.mul.left_t": operator.mul,
    "torch.aten.__contains__.str_list": lambda values, value: any(_text_equal(e, value) for e in values),
    "torch.aten.eq.str": _text_equal,
    "torch.aten.ne.str": lambda a, b: not _text_equal(a, b),
    "torch.aten.add.str": _add_text,
    "torch.aten.str": lambda _: _TEXT,
    "torch.aten.format": lambda *_: _TEXT,
    "torch.prim.ListConstruct": lambda *elements: list(elements),
    "torch.prim.TupleConstruct": lambda *elements: elements,
    "torch.prim.TupleIndex": operator.getitem,
    "torch.prim.unchecked_cast": _unchecked_cast,
    "torch.derefine": lambda value: value,
    "torch.prim.Uninitialized": lambda: _UNINITIALIZED,
    "torch.prim.NumToTensor.Scalar": _ScalarTensor,
    "torch.prim.dtype": _dtype,
    "torch.promote_dtypes": _promote,
    "torch.prim.RaiseException": _give_up,  # the greedy way reports the check at the op
}

_COMPARISONS = {
    "torch.aten.eq.int": operator.eq,
    "torch.aten.ne.int": operator.ne,
    "torch.aten.lt.int": operator.lt,
    "torch.aten.le.int": operator.le,
    "torch.aten.gt.int": operator.gt,
    "torch.aten.ge.int": operator.ge,
}

_FLOAT_COMPARISONS = {
    "torch.aten.eq.float": operator.eq,
    "torch.aten.lt.float": operator.lt,
    "torch.aten.le.float": operator.le,
    "torch.aten.gt.float": operator.gt,
    "torch.aten.ge.float": operator.ge,
}
_FLOAT_ARITHMETIC = {
    "torch.aten.add.float": operator.add,
    "torch.aten.sub.float": operator.sub,
    "torch.aten.mul.float": operator.mul,
    "torch.aten.div.float": operator.truediv,
}

_CONSTANT_OPS = ("torch.constant.int", "torch.constant.float", "torch.constant.bool",
                 "torch.constant.str", "torch.constant.none")


_EVALUATORS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class _Block:
    __slots__ = ("arguments", "steps", "yielded")

    def __init__(self, arguments: list[int], steps: list, yielded: list[int]) -> None:
        self.arguments = arguments
        self.steps = steps
        self.yielded = yielded


class _Function:
    __slots__ = ("body", "slots")

    def __init__(self, body: _Block, slots: int) -> None:
        self.body = body
        self.slots = slots


def evaluator_for(library) -> Evaluator:
    """The evaluator of `library`: one per library, so a function compiles once."""
    if library not in _EVALUATORS:
        _EVALUATORS[library] = Evaluator(library)
    return _EVALUATORS[library]


class Evaluator:
    """Runs library functions (`library.get(symbol)`), each compiled on first use."""

    def __init__(self, library) -> None:
        self._library = library
        self._compiled: dict[str, _Function | None] = {}
        self._steps = 0
        self._entry = None  # the entry block of the evaluated op's function: its ranges

    def evaluate(self, op, unpack, kind: CalculationKind, symbol: str) -> list | None:
        """Per result of `op` (of `unpack` for a list result): the sizes (shape) or dtype
        code (dtype) its library function returns, None for a result it does not
        describe; None when the evaluator gives up."""
        function = self._function(symbol)
        if function is None:
            return None
        fn = self._library.get(symbol)
        parameter_types = list(ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value).inputs)
        parameters = [str(t) for t in parameter_types]
        operands = list(op.operation.operands)
        outer = list((unpack if unpack is not None else op).operation.results)
        self._steps = 0
        function_op = enclosing_function(op)
        self._entry = function_op.regions[0].blocks[0] if function_op is not None else None
        try:
            if len(operands) != len(parameters):
                raise GiveUp
            if kind is not SHAPE and bool_scalar_changes_promotion(operands, parameter_types):
                raise GiveUp  # reify passes no dtype then
            arguments = [_argument(v, p, kind) for v, p in zip(operands, parameters, strict=True)]
            (result,) = self._call(function, arguments)
            return _split(result, outer, kind, unpack is not None)
        except GiveUp:
            return None
        except (ArithmeticError, IndexError, TypeError, ValueError, RecursionError):
            return None  # what TorchScript raises on too: the greedy way reports it

    # -- compiling -----------------------------------------------------------------------

    def _function(self, symbol: str) -> _Function | None:
        if symbol not in self._compiled:
            self._compiled[symbol] = None  # a recursive call gives up rather than loop
            fn = self._library.get(symbol)
            if fn is not None and len(fn.regions[0].blocks):
                compiler = _Compiler()
                body = compiler.block(fn.regions[0].blocks[0])
                self._compiled[symbol] = _Function(body, len(compiler.slots))
        return self._compiled[symbol]

    # -- running -------------------------------------------------------------------------

    def _call(self, function: _Function, arguments: list) -> list:
        environment = [None] * function.slots
        return self._run(function.body, environment, arguments)

    def _run(self, block: _Block, environment: list, arguments: list) -> list:
        for slot, value in zip(block.arguments, arguments, strict=True):
            environment[slot] = value
        self._steps += len(block.steps)
        if self._steps > MAX_STEPS:
            raise GiveUp
        for kind, operands, results, payload in block.steps:
            values = [environment[i] for i in operands]
            if kind is _PURE_STEP:
                environment[results[0]] = payload(*values)
                continue
            outputs = kind(self, values, payload, environment)
            for slot, value in zip(results, outputs, strict=True):
                environment[slot] = value
        return [environment[i] for i in block.yielded]

    def _if(self, values: list, branches: tuple, environment: list) -> list:
        return self._run(branches[0] if values[0] else branches[1], environment, [])

    def _loop(self, values: list, body: _Block, environment: list) -> list:
        trip_count, condition, carried = values[0], values[1], values[2:]
        if trip_count > MAX_UNROLL:
            raise GiveUp  # the IR's unroll cap: both ways leave such a loop alone
        iteration = 0
        while condition and iteration < trip_count:
            condition, *carried = self._run(body, environment, [iteration, *carried])
            iteration += 1
        return carried

    def _func_call(self, values: list, symbol: str, environment: list) -> list:
        callee = self._function(symbol)
        if callee is None:
            raise GiveUp
        return self._call(callee, values)

    # Int comparisons, decided on symbolic sizes by the range of their difference
    # (calculations/ranges.py), as patterns/scalars.py decides them in the IR.
    def _compare(self, values: list, test, environment: list) -> list:
        return [self._test(test, *values)]

    def _test(self, test, a, b) -> bool:
        if not isinstance(a, Polynomial) and not isinstance(b, Polynomial):
            return test(a, b)
        return _decide(test, *polynomial_range(_symbolic(a) - _symbolic(b), self._entry))

    def _float_arithmetic(self, values: list, combine, environment: list) -> list:
        a, b = values
        if not isinstance(a, _SizeFloat) and not isinstance(b, _SizeFloat):
            if combine is operator.truediv and b == 0:
                raise GiveUp
            return [combine(a, b)]
        if isinstance(a, _SizeFloat) and b == _IDENTITY_OPERAND[combine]:
            return [a]
        if combine is operator.truediv:
            raise GiveUp
        polynomial = combine(self._exact_polynomial(a), self._exact_polynomial(b))
        self._exact_polynomial(_SizeFloat(polynomial))
        return [_SizeFloat(polynomial)]

    def _exact_polynomial(self, value) -> Polynomial:
        """The polynomial of a float computed exactly from sizes, or give up."""
        if isinstance(value, _SizeFloat):
            least, greatest = polynomial_range(value.polynomial, self._entry)
            if least is None or greatest is None or max(-least, greatest) > _EXACT_FLOAT_INTEGERS:
                raise GiveUp
            return value.polynomial
        if not value.is_integer() or abs(value) > _EXACT_FLOAT_INTEGERS:
            raise GiveUp
        return Polynomial.constant(int(value))

    def _compare_floats(self, values: list, test, environment: list) -> list:
        a, b = values
        if not isinstance(a, _SizeFloat) and not isinstance(b, _SizeFloat):
            return [test(a, b)]
        if not isinstance(a, _SizeFloat) or math.isnan(b):
            raise GiveUp
        if b == math.inf or b == -math.inf or (b == 0.0 and test in (operator.lt, operator.ge)):
            return [test(0.0, b)]  # a size is finite and at least 0
        least, greatest = polynomial_range(self._exact_polynomial(a), self._entry)
        if test is operator.eq:
            if b < least or b > greatest:
                return [False]
            raise GiveUp
        answer = test(least, b)
        if answer != test(greatest, b):
            raise GiveUp
        return [answer]

    def _extreme(self, values: list, test, environment: list) -> list:
        a, b = values
        return [a if self._test(test, a, b) else b]

    def _lists_equal(self, values: list, equal: bool, environment: list) -> list:
        a, b = values
        same = len(a) == len(b) and all(self._test(operator.eq, x, y) for x, y in zip(a, b))
        return [same == equal]

    def _contains(self, values: list, _payload, environment: list) -> list:
        elements, value = values
        found = [self._test(operator.eq, e, value) for e in elements]
        return [any(found)]

    def _tuple_unpack(self, values: list, _payload, environment: list) -> tuple:
        return values[0]

    def _constant(self, values: list, value, environment: list) -> list:
        return [value]


# Ops run by an Evaluator method (they read ranges or yield several results): the
# method, and what it is passed.
_METHOD_STEPS = {
    **{name: (Evaluator._compare, test) for name, test in _COMPARISONS.items()},
    **{name: (Evaluator._compare_floats, test) for name, test in _FLOAT_COMPARISONS.items()},
    **{name: (Evaluator._float_arithmetic, combine) for name, combine in _FLOAT_ARITHMETIC.items()},
    "torch.prim.min.int": (Evaluator._extreme, operator.le),
    "torch.prim.max.int": (Evaluator._extreme, operator.ge),
    "torch.aten.eq.int_list": (Evaluator._lists_equal, True),
    "torch.aten.ne.int_list": (Evaluator._lists_equal, False),
    "torch.aten.__contains__.int_list": (Evaluator._contains, None),
    "torch.prim.TupleUnpack": (Evaluator._tuple_unpack, None),
}
_PURE_STEP = object()  # the marker of a step run inline by `_run`
_SCRATCH = object()


class _Compiler:
    """Numbers a function's values (slots of one environment) and turns its ops into steps."""

    def __init__(self) -> None:
        self.slots: dict = {_SCRATCH: 0}  # slot 0 takes what ops without results return

    def slot(self, value: ir.Value) -> int:
        return self.slots.setdefault(value, len(self.slots))

    def block(self, block) -> _Block:
        arguments = [self.slot(a) for a in block.arguments]
        operations = list(block.operations)
        steps = [self.step(op) for op in operations[:-1]]
        terminator = operations[-1]
        yielded = [self.slot(v) for v in terminator.operands]
        return _Block(arguments, steps, yielded)

    def step(self, op) -> tuple:
        name = op.operation.name
        operands = [self.slot(v) for v in op.operands]
        results = [self.slot(r) for r in op.results]
        if name in _CONSTANT_OPS:
            return (Evaluator._constant, [], results, constant_value(op.result))
        if name == "torch.prim.If":
            branches = (self.block(op.regions[0].blocks[0]), self.block(op.regions[1].blocks[0]))
            return (Evaluator._if, operands, results, branches)
        if name == "torch.prim.Loop":
            return (Evaluator._loop, operands, results, self.block(op.regions[0].blocks[0]))
        if name == "func.call":
            callee = ir.FlatSymbolRefAttr(op.attributes["callee"]).value
            return (Evaluator._func_call, operands, results, callee)
        method = _METHOD_STEPS.get(name)
        if method is not None:
            return (method[0], operands, results, method[1])
        pure = _PURE.get(name)
        if pure is None or len(results) > 1:
            return (_PURE_STEP, operands, [0], _give_up)  # given up only if run
        return (_PURE_STEP, operands, results or [0], pure)


# -- arguments and results -----------------------------------------------------------------


def _argument(value: ir.Value, parameter: str, kind: CalculationKind):
    """What the calculation passes for `value` as a `parameter` (reify's `_Builder.adapt`)."""
    value_text = str(value.type)
    if parameter.startswith("!torch.optional<") and value_text != parameter:
        if value_text == "!torch.none":
            return None
        if value_text.startswith("!torch.optional<"):
            raise GiveUp
        return _argument(value, _inner_type(parameter), kind)
    if types.is_tensor_type_text(value_text):
        return _tensor_argument(value, parameter, kind)
    if value_text.startswith("!torch.list<") and parameter.startswith("!torch.list<"):
        elements = _literal_elements(value)
        inner = _inner_type(parameter)
        return [_argument(e, inner, kind) for e in elements]
    try:
        constant = constant_value(value)
    except NotConstant:
        return _symbolic_int(value, value_text, parameter)
    if value_text == parameter:
        return constant
    if value_text == "!torch.bool" and parameter in ("!torch.float", "!torch.number"):
        constant = int(constant)  # a bool Scalar arrives as the int 0/1
        value_text = "!torch.int"
    if parameter == "!torch.float" and value_text in ("!torch.int", "!torch.number"):
        return float(constant)
    if parameter == "!torch.number" and value_text in ("!torch.int", "!torch.float"):
        return constant
    raise GiveUp


def _symbolic_int(value: ir.Value, value_text: str, parameter: str):
    """An int that is not a constant, as a polynomial over argument dims (a size read
    off a dynamic tensor, and arithmetic on it), as the memo key knows it."""
    if value_text != "!torch.int" or parameter not in ("!torch.int", "!torch.number"):
        raise GiveUp
    polynomial = express(value)
    if polynomial is None:
        raise GiveUp
    return _settle(polynomial)


def _tensor_argument(value: ir.Value, parameter: str, kind: CalculationKind):
    info = types.parse(most_precise_alias(value).type)
    if info is None or info.sizes is None:
        raise GiveUp
    if kind is SHAPE and parameter == "!torch.list<int>":
        return _sizes(most_precise_alias(value), info.sizes)
    if kind is not SHAPE and parameter == "!torch.tuple<int, int>":
        code = types.ELEMENT_TO_DTYPE.get(info.dtype) if info.dtype is not None else None
        if code is None:
            raise GiveUp
        return (info.rank, code)
    raise GiveUp


def _sizes(tensor: ir.Value, sizes: tuple) -> list:
    """A tensor's sizes: ints, and polynomials for the dynamic dims whose symbolic dims
    are known (dim_facts); give up on any other."""
    if None not in sizes:
        return list(sizes)
    dims = tensor_dims(tensor)
    if dims is None or len(dims) != len(sizes):
        raise GiveUp
    found = []
    for size, text in zip(sizes, dims, strict=True):
        polynomial = parse_polynomial(text) if size is None and text else None
        if size is None and polynomial is None:
            raise GiveUp
        found.append(size if size is not None else _settle(polynomial))
    return found


def _literal_elements(value: ir.Value) -> list:
    """The elements of an unmutated `prim.ListConstruct` (reify copies only those)."""
    elements = _constructed_elements(value)
    if elements is None:
        raise GiveUp
    return elements


def _split(result, outer: list, kind: CalculationKind, from_list: bool) -> list:
    """Per wrapped result, what the function returned for it (reify's `split_list` and
    `split_results`), None for a result it does not describe."""
    if from_list:
        if kind is not SHAPE and isinstance(result, int):
            return [_dtype_code(result)] * len(outer)  # one dtype for every piece
        if not isinstance(result, list) or len(result) < len(outer):
            raise GiveUp
        return [_described(r, kind) for r in result[: len(outer)]]
    described = [i for i, r in enumerate(outer) if kind.describes(str(r.type))]
    values = [result] if len(described) == 1 else list(_tuple(result, len(described)))
    by_index = dict(zip(described, values, strict=True))
    return [_described(by_index[i], kind) if i in by_index else None for i in range(len(outer))]


def _tuple(result, length: int) -> tuple:
    if not isinstance(result, tuple) or len(result) != length:
        raise GiveUp
    return result


def _described(value, kind: CalculationKind):
    if kind is not SHAPE:
        return _dtype_code(value)
    if not isinstance(value, list):
        raise GiveUp
    if not all(isinstance(d, Polynomial) or (isinstance(d, int) and not isinstance(d, bool) and d >= 0)
               for d in value):
        raise GiveUp  # a negative dim is not a size: the greedy way leaves it unknown
    return value


def _dtype_code(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise GiveUp
    return value
