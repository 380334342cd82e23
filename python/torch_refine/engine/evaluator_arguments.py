"""An op's operands as the values its library function receives (constants, sizes as
polynomials, ranks, dtypes, list literals), and the function's result as the op's
sizes or dtypes."""

from __future__ import annotations

from torch_mlir import ir

from torch_refine.calculations.dim_facts import express, tensor_dims
from torch_refine.calculations.kind import SHAPE, CalculationKind
from torch_refine.calculations.lists import literal_elements
from torch_refine.calculations.store import Scope
from torch_refine.engine.convention import Step, inner_type, passing
from torch_refine.engine.evaluator_ops import _to_float
from torch_refine.engine.evaluator_values import _DEVICE, _UNKNOWN_RANK, _UNKNOWN_SIZE, GiveUp, _is_size, _settle
from torch_refine.ir import types
from torch_refine.ir.constants import NotConstant, constant_value
from torch_refine.ir.retype import most_precise_alias
from torch_refine.symbolic.polynomial import Polynomial, parse_polynomial


def _argument(value: ir.Value, parameter: str, kind: CalculationKind, scope: Scope):
    """What the calculation passes for `value` as a `parameter`: each step of the calling
    convention (engine/convention.py, which reify builds in IR) computed on values, its
    sizes read in the evaluation's `scope`."""
    value_text = str(value.type)
    step = passing(value_text, parameter, kind.name)
    if step is Step.NONE:
        return None
    if step is Step.OPTIONAL:
        return _argument(value, inner_type(parameter), kind, scope)
    if step is Step.UNWRAP:
        raise GiveUp
    if types.is_tensor_type_text(value_text):
        return _tensor_argument(value, step, kind, scope)
    if step is Step.ELEMENTS or (step is Step.SAME and value_text.startswith("!torch.list<")):
        inner = inner_type(parameter)
        return [_argument(e, inner, kind, scope) for e in _literal_elements(value)]
    return _scalar_argument(value, value_text, parameter, step, scope)


def _scalar_argument(value: ir.Value, value_text: str, parameter: str, step: Step, scope: Scope):
    try:
        constant = constant_value(value)
    except NotConstant:
        if step is Step.SAME and value_text == "!torch.Device":
            return _DEVICE  # opaque: an op that reads it gives up
        return _symbolic_int(value, value_text, parameter, scope)
    if step is Step.BOOL_AS_INT:
        constant, value_text = int(constant), "!torch.int"
        step = passing(value_text, parameter, "")
    if step is Step.SAME:
        return constant
    if step is Step.TO_FLOAT:
        return float(constant)
    if step is Step.DEREFINE and parameter == "!torch.number" and value_text in ("!torch.int", "!torch.float"):
        return constant
    raise GiveUp


def _symbolic_int(value: ir.Value, value_text: str, parameter: str, scope: Scope):
    """An int that is not a constant, as a polynomial over argument dims (a size read
    off a dynamic tensor, and arithmetic on it), as the memo key knows it."""
    if value_text != "!torch.int" or parameter not in ("!torch.int", "!torch.number", "!torch.float"):
        raise GiveUp
    polynomial = express(value, scope.store)
    if polynomial is None:
        raise GiveUp
    if parameter == "!torch.float":
        return _to_float(_settle(polynomial, scope))  # reify's aten.Float.Scalar
    return _settle(polynomial, scope)


def _tensor_argument(value: ir.Value, step: Step, kind: CalculationKind, scope: Scope):
    info = types.parse(most_precise_alias(value).type)
    if info is None or (info.sizes is None and kind is SHAPE):
        raise GiveUp
    if step is Step.SIZES:
        return _sizes(most_precise_alias(value), info.sizes, scope)
    if step is Step.RANK_DTYPE:
        code = types.ELEMENT_TO_DTYPE.get(info.dtype) if info.dtype is not None else None
        if code is None:
            raise GiveUp
        return (_UNKNOWN_RANK if info.rank is None else info.rank, code)
    raise GiveUp


def _sizes(tensor: ir.Value, sizes: tuple, scope: Scope) -> list:
    """A tensor's sizes: ints, polynomials for the dynamic dims whose symbolic dims are
    known (dim_facts), an unknown size for the others (reading it gives up)."""
    if None not in sizes:
        return list(sizes)
    dims = tensor_dims(tensor, scope.store)
    if dims is None or len(dims) != len(sizes):
        dims = [""] * len(sizes)
    return [_size(size, text, scope) for size, text in zip(sizes, dims, strict=True)]


def _size(static, polynomial_text: str, scope: Scope):
    if static is not None:
        return static
    return _settle(parse_polynomial(polynomial_text), scope) if polynomial_text else _UNKNOWN_SIZE


def _literal_elements(value: ir.Value) -> list:
    """The elements of an unmutated `prim.ListConstruct` (reify copies only those)."""
    elements = literal_elements(value)
    if elements is None:
        raise GiveUp
    return elements


def _split(result, outer: list, kind: CalculationKind, from_list: bool, scope: Scope) -> list:
    """Per wrapped result, what the function returned for it (reify's `split_list` and
    `split_results`), None for a result it does not describe."""
    if from_list:
        if kind is not SHAPE and isinstance(result, int):
            return [_dtype_code(result)] * len(outer)  # one dtype for every piece
        if not isinstance(result, list) or len(result) < len(outer):
            raise GiveUp
        return [_described(r, kind, scope) for r in result[: len(outer)]]
    described = [i for i, r in enumerate(outer) if kind.describes(str(r.type))]
    values = [result] if len(described) == 1 else list(_tuple(result, len(described)))
    by_index = dict(zip(described, values, strict=True))
    return [_described(by_index[i], kind, scope) if i in by_index else None for i in range(len(outer))]


def _tuple(result, length: int) -> tuple:
    if not isinstance(result, tuple) or len(result) != length:
        raise GiveUp
    return result


def _described(value, kind: CalculationKind, scope: Scope):
    """The sizes (ints, polynomials, None for an unknown size) or the dtype code."""
    if kind is not SHAPE:
        return _dtype_code(value)
    if not isinstance(value, list):
        raise GiveUp
    if not all(_is_size(d) and (not isinstance(d, int) or d >= 0) for d in value):
        raise GiveUp  # a negative dim is not a size: the greedy way leaves it unknown
    return [None if d is _UNKNOWN_SIZE else _settle(d, scope) if isinstance(d, Polynomial) else d for d in value]


def _dtype_code(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise GiveUp
    return value
