"""What each op the evaluator runs computes, on the values of engine/evaluator_values.py:
the pure ops (`_PURE`): float and bool ops by their meanings in symbolic/semantics.py
(the evaluator's own where its values are more than Python's: conditions, floats of sizes),
string, list and tuple ops; the ops that read sizes through the evaluation's scope
(`_SCOPED`: int ops, divisors to guard, floats of sizes made ints); the float comparisons
and arithmetic the evaluator runs on sizes."""

from __future__ import annotations

import math
import operator

from torch_refine.calculations.store import Scope
from torch_refine.engine import guards
from torch_refine.engine.evaluator_values import (
    _INT64_SCALE,
    _OPAQUE_FLOAT,
    _TEXT,
    _UNINITIALIZED,
    GiveUp,
    _connect,
    _floor_divide,
    _int,
    _int_op,
    _not,
    _OpaqueFloat,
    _remainder,
    _ScalarTensor,
    _settle,
    _SizeFloat,
)
from torch_refine.library.promotion import promote_dtypes
from torch_refine.symbolic.polynomial import Polynomial
from torch_refine.symbolic.semantics import MEANINGS, names

_EXACT_FLOAT_INTEGERS = 2**53


def _to_float(value):
    if isinstance(value, Polynomial):
        return _SizeFloat(value)
    return float(value)


def _compare_opaque(a, b, test) -> bool:
    """`test(a, b)` where one side is an `_OpaqueFloat` and the other a constant at least
    2**62 in magnitude or infinite (the opaque float compares as 0.0 does); else give up."""
    constant = b if isinstance(a, _OpaqueFloat) else a
    if not isinstance(constant, float) or math.isnan(constant) or abs(constant) < _INT64_SCALE:
        raise GiveUp
    return test(0.0, b) if isinstance(a, _OpaqueFloat) else test(a, 0.0)


def _opaque(combine, divisor) -> _OpaqueFloat:
    """The result of float arithmetic on sizes that no polynomial follows; a quotient only
    by a non-zero finite constant (TorchScript raises on a zero divisor)."""
    if combine is operator.truediv and (not isinstance(divisor, float) or divisor == 0 or not math.isfinite(divisor)):
        raise GiveUp
    return _OPAQUE_FLOAT


def _product_factor(value) -> Polynomial:
    """A factor of an inexact product: a single term of sizes with a non-negative
    coefficient, or a non-negative integral float, so that the product is at least 0."""
    if isinstance(value, _SizeFloat):
        terms = value.polynomial.terms
        if len(terms) > 1 or any(c < 0 for c in terms.values()):
            raise GiveUp
        return value.polynomial
    if not math.isfinite(value) or value < 0 or not value.is_integer():
        raise GiveUp
    return Polynomial.constant(int(value))


def _scaled_by_power_of_two(size, factor) -> _SizeFloat | None:
    """`size * factor` for an exact size float and a float constant that is a positive
    integral power of two: exact whatever the size's range (scaling by a power of two only
    moves the exponent; the size itself is below 2**53), so `int(float(h) * 2.0)` is
    `2*h`, as torch.export's ShapeEnv gives an upsampling by 2. None otherwise."""
    if not isinstance(size, _SizeFloat) or not size.exact or not isinstance(factor, float):
        return None
    if not math.isfinite(factor) or factor < 2 or not factor.is_integer() or int(factor) & (int(factor) - 1):
        return None
    return _SizeFloat(size.polynomial * Polynomial.constant(int(factor)))


def _is(a, b) -> bool:
    if a is not None and b is not None:
        raise GiveUp  # identity of two objects: not a None check
    return a is None and b is None


def _text_equal(a, b) -> bool:
    if not isinstance(a, str) or not isinstance(b, str):
        raise GiveUp
    return a == b


def _format(template, values: tuple):
    """`aten.format` of a message: sizes PyTorch prints by value are named by their
    expressions (`%arg0[0]`), so a kept check says which dims it compares."""
    text = guards.format_message(template, values) if isinstance(template, str) else None
    return _TEXT if text is None else text


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


def _by_meaning(name: str):
    """The op's Python meaning (symbolic/semantics.py); where it raises (a zero divisor, a
    zero step), the evaluator gives up."""
    compute = MEANINGS[name].compute

    def run(*values):
        try:
            return compute(*values)
        except (ArithmeticError, ValueError):
            raise GiveUp from None

    return run


def _to_int(scope: Scope, value) -> int:
    if isinstance(value, _SizeFloat):
        return _integral(value, scope)
    if not math.isfinite(value):
        raise GiveUp
    return _int(int(value))


def _ceil(scope: Scope, value: float) -> int:
    if isinstance(value, _SizeFloat):
        return _integral(value, scope)
    if not math.isfinite(value):
        raise GiveUp
    return _int(math.ceil(value))


def _integral(value: _SizeFloat, scope: Scope):
    """The int an exact size float is; an inexact one was rounded, so give up."""
    if not value.exact:
        raise GiveUp
    return _settle(value.polynomial, scope)


def _give_up(*_):
    raise GiveUp


_DIVISIONS = ("torch.aten.floordiv.int", "torch.aten.remainder.int")


# Ops of one result computed from their operands' values and the evaluation's scope (the
# replacements their sizes are read through, the divisors to guard): `fn(scope, *values)`.
_SCOPED = {
    **{name: _int_op(MEANINGS[name]) for name in names(result="int", symbolic=True) if name not in _DIVISIONS},
    "torch.aten.floordiv.int": _floor_divide,
    "torch.aten.remainder.int": _remainder,
    "torch.aten.ceil.float": _ceil,
    "torch.aten.Int.float": _to_int,
    "torch.aten.Int.Scalar": _to_int,
}


# Ops of one result computed from their operands' values alone.
_PURE = {
    **{name: _by_meaning(name) for name in ("torch.aten.__range_length", "torch.aten.eq.bool", "torch.aten.div")},
    "torch.aten.Float.Scalar": _to_float,
    "torch.aten.__not__": _not,
    "torch.aten.__and__.bool": lambda a, b: _connect("and", a, b),
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
    "torch.aten.format": lambda template, *values: _format(template, values),
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


# The float comparisons and arithmetic `Evaluator` runs on floats of sizes, by their meanings.
_FLOAT_COMPARISONS = tuple(name for name, meaning in MEANINGS.items()
                           if meaning.result == "bool" and "float" in meaning.operands)
_FLOAT_ARITHMETIC = names(operands=("float", "float"), result="float")


# The comparison a float condition is built as, by its test (the dialect has no `le.float`).
_FLOAT_CONDITION_OPS = {MEANINGS[name].test: name for name in names(operands=("float", "float"), result="bool")}
