"""What each int, float, bool and string op of the Torch dialect means, declared once per op
(`@meaning`, as xDSL's interpreter declares `@impl`s), over the domains its consumers read:

- `compute`: on Python values, Python's meaning (`//` and `%` round toward -inf; a
  `float_int` comparison converts the int to float, as the kernels do);
- `symbolic`: on polynomials over sizes, given the `Algebra` that says what floor
  division, modulo and the truth of a comparison are over symbols;
- `bounds`: on intervals `(least, greatest)` (None: unbounded that way) of the operands,
  an interval holding every result.

The evaluator, `express`, value ranges, known values, contents and the scalar folds read
their ops' meanings here; each keeps only what is its own (giving up, guards, settling).
"""

from __future__ import annotations

import dataclasses
import math
import operator
from collections.abc import Callable
from typing import Protocol

from torch_refine.symbolic.comparisons import INT_COMPARISONS

Bound = tuple  # (least | None, greatest | None)


class Algebra(Protocol):
    """What the symbolic meanings need beyond `+ - *` of polynomials."""

    def quotient(self, dividend, divisor): ...

    def modulo(self, dividend, divisor): ...

    def truth(self, comparison: str, a, b): ...


@dataclasses.dataclass(frozen=True)
class Meaning:
    name: str
    operands: tuple[str, ...]  # "int", "float", "bool", "str", "number" (int or float), "any"
    result: str
    compute: Callable
    test: Callable | None = None  # the `operator` a comparison or arithmetic op is
    symbolic: Callable | None = None  # (algebra, *polynomials) -> polynomial | None
    bounds: Callable | None = None  # (*bounds) -> bound
    identity: float | None = None  # the right operand that gives the left back (`x * 1.0`)
    holds: Bound | None = None  # a comparison's: the interval of `lhs - rhs` where it holds


MEANINGS: dict[str, Meaning] = {}


def meaning(name: str, signature: str, test=None, symbolic=None, bounds=None, identity=None, holds=None):
    """Declare `name`'s meaning: the decorated function is its `compute`; `signature`
    reads "int, int -> int"."""
    operands, result = (part.strip() for part in signature.split("->"))
    operand_types = tuple(t.strip() for t in operands.split(",")) if operands else ()

    def register(compute: Callable) -> Callable:
        assert name not in MEANINGS, name
        MEANINGS[name] = Meaning(name, operand_types, result, compute, test, symbolic, bounds, identity, holds)
        return compute

    return register


def names(operands: tuple[str, ...] | None = None, result: str | None = None, symbolic: bool = False) -> tuple:
    """The ops whose operands and result are these types (None: any), with a symbolic
    meaning when `symbolic`."""
    return tuple(m.name for m in MEANINGS.values()
                 if (operands is None or m.operands == operands) and (result is None or m.result == result)
                 and (not symbolic or m.symbolic is not None))


# -- intervals ------------------------------------------------------------------------


def add_bounds(a: Bound, b: Bound) -> Bound:
    return (None if None in (a[0], b[0]) else a[0] + b[0]), (None if None in (a[1], b[1]) else a[1] + b[1])


def negate_bounds(a: Bound) -> Bound:
    return (None if a[1] is None else -a[1]), (None if a[0] is None else -a[0])


def maximum_bounds(a: Bound, b: Bound) -> Bound:
    least = a[0] if b[0] is None else b[0] if a[0] is None else max(a[0], b[0])
    return least, None if None in (a[1], b[1]) else max(a[1], b[1])


def minimum_bounds(a: Bound, b: Bound) -> Bound:
    greatest = a[1] if b[1] is None else b[1] if a[1] is None else min(a[1], b[1])
    return (None if None in (a[0], b[0]) else min(a[0], b[0])), greatest


# -- int -------------------------------------------------------------------------------

meaning("torch.aten.add.int", "int, int -> int", operator.add, lambda _, a, b: a + b, add_bounds)(operator.add)
meaning("torch.aten.sub.int", "int, int -> int", operator.sub, lambda _, a, b: a - b,
        lambda a, b: add_bounds(a, negate_bounds(b)))(operator.sub)
meaning("torch.aten.mul.int", "int, int -> int", operator.mul, lambda _, a, b: a * b)(operator.mul)
meaning("torch.aten.neg.int", "int -> int", operator.neg, lambda _, a: -a, negate_bounds)(operator.neg)
meaning("torch.aten.floordiv.int", "int, int -> int", operator.floordiv,
        lambda algebra, a, b: algebra.quotient(a, b))(operator.floordiv)
meaning("torch.aten.remainder.int", "int, int -> int", operator.mod,
        lambda algebra, a, b: algebra.modulo(a, b))(operator.mod)
meaning("torch.prim.max.int", "int, int -> int", bounds=maximum_bounds)(max)
meaning("torch.prim.min.int", "int, int -> int", bounds=minimum_bounds)(min)


@meaning("torch.aten.__derive_index", "int, int, int -> int", symbolic=lambda _, i, start, step: start + i * step)
def _derive_index(index, start, step):
    return start + index * step


@meaning("torch.aten.__range_length", "int, int, int -> int")
def _range_length(low, high, step):
    return len(range(low, high, step))  # a zero step raises ValueError, as TorchScript raises


def _truth_of(name: str):
    return lambda algebra, a, b: algebra.truth(name, a, b)


# Where an int comparison holds, the interval of the difference of its sides.
_HOLDS = {"eq": (0, 0), "ne": None, "lt": (None, -1), "le": (None, 0), "gt": (1, None), "ge": (0, None)}


def _always_less(a: Bound, b: Bound, or_equal: bool) -> bool:
    """Whether every value of `a` is below (or at most) every value of `b`."""
    if a[1] is None or b[0] is None:
        return False
    return a[1] <= b[0] if or_equal else a[1] < b[0]


# A comparison on intervals: (always holds, never holds) of `a OP b`.
_DECIDED_ON_BOUNDS = {
    "lt": lambda a, b: (_always_less(a, b, False), _always_less(b, a, True)),
    "le": lambda a, b: (_always_less(a, b, True), _always_less(b, a, False)),
    "gt": lambda a, b: (_always_less(b, a, False), _always_less(a, b, True)),
    "ge": lambda a, b: (_always_less(b, a, True), _always_less(a, b, False)),
    "eq": lambda a, b: (None not in (*a, *b) and len({*a, *b}) == 1,
                        _always_less(a, b, False) or _always_less(b, a, False)),
}
_DECIDED_ON_BOUNDS["ne"] = lambda a, b: _DECIDED_ON_BOUNDS["eq"](a, b)[::-1]


def _comparison_bounds(kind: str):
    """A comparison's result on intervals: (True, True) where it always holds, (False,
    False) where it never does, (False, True) otherwise."""
    def bounds(a: Bound, b: Bound) -> Bound:
        always, never = _DECIDED_ON_BOUNDS[kind](a, b)
        return (True, True) if always else (False, False) if never else (False, True)

    return bounds


def _declare_tests(suffix: str, signature: str, tests: str, compute=lambda test: test) -> None:
    """The comparisons `torch.aten.<test>.<suffix>` for each of `tests`."""
    for kind in tests.split():
        test = getattr(operator, kind)
        name = f"torch.aten.{kind}.{suffix}"
        bounds = _comparison_bounds(kind)
        if name in INT_COMPARISONS:
            meaning(name, signature, test, _truth_of(name), bounds, holds=_HOLDS[kind])(compute(test))
        else:
            meaning(name, signature, test, bounds=bounds)(compute(test))


_declare_tests("int", "int, int -> bool", "eq ne lt le gt ge")


# -- bool ------------------------------------------------------------------------------

_declare_tests("bool", "bool, bool -> bool", "eq ne")


@meaning("torch.aten.__and__.bool", "bool, bool -> bool")
def _and(a, b):
    return a and b


@meaning("torch.aten.__or__.bool", "bool, bool -> bool")
def _or(a, b):
    return a or b


meaning("torch.aten.__not__", "bool -> bool", operator.not_)(operator.not_)
meaning("torch.aten.Int.bool", "bool -> int")(int)
meaning("torch.aten.Bool.int", "int -> bool")(bool)


# -- float -----------------------------------------------------------------------------

meaning("torch.aten.add.float", "float, float -> float", operator.add, identity=0.0)(operator.add)
meaning("torch.aten.sub.float", "float, float -> float", operator.sub, identity=0.0)(operator.sub)
meaning("torch.aten.mul.float", "float, float -> float", operator.mul, identity=1.0)(operator.mul)
meaning("torch.aten.div.float", "float, float -> float", operator.truediv, identity=1.0)(operator.truediv)
meaning("torch.aten.div", "number, number -> float", operator.truediv)(operator.truediv)
_declare_tests("float", "float, float -> bool", "eq lt gt ge")  # the dialect has no le.float, ne.float


def _against_float(test):
    """A float compared with an int: the int converted to float first, as the kernels do."""
    return lambda a, b: test(a, float(b))


_declare_tests("float_int", "float, int -> bool", "ne lt gt ge", _against_float)

meaning("torch.aten.ceil.float", "float -> int")(math.ceil)
meaning("torch.aten.Int.float", "float -> int")(int)
meaning("torch.aten.Int.Scalar", "number -> int")(int)
meaning("torch.aten.Float.Scalar", "number -> float")(float)


# -- str -------------------------------------------------------------------------------


def torchscript_str(value) -> str:
    return value if isinstance(value, str) else str(value)


meaning("torch.aten.add.str", "str, str -> str", operator.add)(operator.add)
meaning("torch.aten.eq.str", "str, str -> bool", operator.eq)(operator.eq)
meaning("torch.aten.ne.str", "str, str -> bool", operator.ne)(operator.ne)
meaning("torch.aten.str", "any -> str")(torchscript_str)


@meaning("torch.aten.format", "str, any -> str")
def _format(template, *values):
    return template.format(*[torchscript_str(v) for v in values])
