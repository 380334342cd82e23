"""Contents of small int tensors: the values ONNX-style programs compute sizes with.

An ONNX import reads its sizes through tensors: `Shape` is `aten._shape_as_tensor`, a
constant shape is a `torch.vtensor.literal`, and a Reshape's sizes are `aten.item` of
`select.int` of those, passed through `where.self`, `cat`, `index_select` and arithmetic.
`Reader.contents(value)` knows such a tensor element by element, each a polynomial over
the function's argument dims and computed sizes (`Reader.express` says what an int operand
is), None for an element it does not know; `dim_facts.express` reads an element through
`aten.item` and `aten.Int.Tensor`, so a reshape to `item(select(literal, 0, 2))` is a
reshape to 4. Only integer and bool tensors of at most `MAX_ELEMENTS` elements.

A `Contents` is row-major: `shape` (a tuple of ints) and `elements` (a list).
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

from torch_mlir import ir

from torch_refine.calculations import facts, ranges
from torch_refine.calculations.lists import literal_elements
from torch_refine.calculations.store import FactStore
from torch_refine.ir import types
from torch_refine.ir.constants import NotConstant, constant_value, defining_op
from torch_refine.symbolic.polynomial import Polynomial, parse_polynomial
from torch_refine.symbolic.semantics import MEANINGS

MAX_ELEMENTS = 64
_INTEGRAL = ("si64", "si32", "si16", "si8", "ui8", "i1")


@dataclass(frozen=True)
class Contents:
    shape: tuple[int, ...]
    elements: tuple  # Polynomial | None, row-major


class Reader:
    """What the handlers read an op's operands with: their contents, an int operand as a
    polynomial (`express(value, cache)`), a tensor's dims (`dims(value)`: texts as
    dim_facts.tensor_dims gives them), in the run `run`: the algebra the int ops' meanings
    take (`ranges.SizesAlgebra`), and list literals read with its greedy rewrite's memo
    (`FactStore.unmutated_literals`, None outside one)."""

    def __init__(self, express, dims, cache: dict, run: FactStore) -> None:
        self._express = express
        self.dims = dims
        self._cache = cache
        self.algebra = ranges.SizesAlgebra(run)
        self.literals = run.unmutated_literals

    def express(self, value: ir.Value) -> Polynomial | None:
        return self._express(value, self._cache)

    def contents(self, value: ir.Value) -> Contents | None:
        key = ("contents", value)
        if key not in self._cache:
            self._cache[key] = None  # a cycle (never in SSA) gives up rather than loops
            self._cache[key] = _contents(value, self)
        return self._cache[key]


def _contents(value: ir.Value, reader: Reader) -> Contents | None:
    producer = defining_op(value)
    if producer is None:
        return None
    info = types.parse(value.type)
    if info is not None and info.dtype is not None and info.dtype not in _INTEGRAL:
        return None
    handler = _HANDLERS.get(producer.operation.name)
    if handler is None:
        return None
    try:
        found = handler(producer, reader)
    except (NotConstant, IndexError, ValueError, ZeroDivisionError):
        return None
    if found is None or math.prod(found.shape) != len(found.elements) or len(found.elements) > MAX_ELEMENTS:
        return None
    return found


def _constant(value: ir.Value):
    return constant_value(value)


def _known_int(value: ir.Value, reader: Reader):
    """A constant operand, or an int the reader expresses as a constant (an ONNX Slice's
    bounds are `item`s of literals)."""
    try:
        return constant_value(value)
    except NotConstant:
        known = reader.express(value)
        if known is None or known.constant_value() is None:
            raise
        return known.constant_value()


def _literal(op, reader) -> Contents | None:
    attribute = op.attributes["value"]
    if not isinstance(attribute, ir.DenseIntElementsAttr):
        try:
            attribute = ir.DenseIntElementsAttr(attribute)
        except ValueError:
            return None
    shape = tuple(ir.ShapedType(attribute.type).shape)
    count = math.prod(shape)
    if count > MAX_ELEMENTS:
        return None
    if attribute.is_splat:
        return Contents(shape, (Polynomial.constant(int(attribute.get_splat_value().value)),) * count)
    return Contents(shape, tuple(Polynomial.constant(int(attribute[i])) for i in range(count)))


def _number_to_tensor(op, reader) -> Contents | None:
    """A number as a tensor: of rank 0 (PyTorch), or `[1]` where the type says so
    (torch-mlir's ONNX conversion writes such index vectors)."""
    info = types.parse(op.results[0].type)
    shape = (1,) if info is not None and info.sizes == (1,) else ()
    return Contents(shape, (reader.express(op.operands[0]),))


# Integer dtype codes (torch.int64, int32, int16, int8, uint8) `ones` and `zeros` may take.
_INTEGRAL_CODES = (4, 3, 2, 1, 0)


def _filled(value: int):
    """`ones` or `zeros` of constant sizes and an integer dtype: given, or stated by the
    type (torch-mlir's conversion types `ones` without a dtype si64)."""

    def handler(op, reader) -> Contents | None:
        return _fill(op, Polynomial.constant(value), op.operands[1], int_fill=False, reader=reader)

    return handler


def _full(op, reader) -> Contents | None:
    """`full` of constant sizes by an int (its dtype then int64 unless given)."""
    if str(op.operands[1].type) != "!torch.int":
        return None
    value = reader.express(op.operands[1])
    return None if value is None else _fill(op, value, op.operands[2], int_fill=True, reader=reader)


def _fill(op, value: Polynomial, dtype_operand: ir.Value, int_fill: bool, reader) -> Contents | None:
    """A new tensor of `value`s: sizes known as constants (a size read out of a shape
    tensor too: ONNX's ConstantOfShape), an integer dtype."""
    listed = literal_elements(op.operands[0], reader.literals)
    if listed is None:
        return None
    sizes = [reader.express(v) for v in listed]
    if any(size is None or size.constant_value() is None for size in sizes):
        return None
    shape = tuple(size.constant_value() for size in sizes)
    info = types.parse(op.results[0].type)
    dtype = None if str(dtype_operand.type) == "!torch.none" else _constant(dtype_operand)
    stated = info is not None and info.dtype in _INTEGRAL and info.dtype != "i1"
    if dtype not in _INTEGRAL_CODES and not (dtype is None and (stated or int_fill)):
        return None
    return Contents(shape, (value,) * math.prod(shape))


def _shape_as_tensor(op, reader) -> Contents | None:
    info = types.parse(op.operands[0].type)
    if info is None or info.sizes is None:
        return None
    dims = reader.dims(op.operands[0]) or [""] * info.rank
    elements = tuple(Polynomial.constant(size) if size is not None else (parse_polynomial(text) if text else None)
                     for size, text in zip(info.sizes, dims, strict=True))
    return Contents((info.rank,), elements)


def _select(op, reader) -> Contents | None:
    source = reader.contents(op.operands[0])
    if source is None or not source.shape:
        return None
    dim = _dim(_known_int(op.operands[1], reader), len(source.shape))
    size, index = source.shape[dim], _known_int(op.operands[2], reader)
    index = index + size if index < 0 else index
    if not 0 <= index < size:
        return None
    return _take(source, dim, [index], keep=False)


def _index_select(op, reader) -> Contents | None:
    source, indices = reader.contents(op.operands[0]), reader.contents(op.operands[2])
    if source is None or indices is None or len(indices.shape) > 1 or not source.shape:
        return None
    dim = _dim(_constant(op.operands[1]), len(source.shape))
    picked = [_constant_element(i) for i in indices.elements]
    size = source.shape[dim]
    picked = [i + size if i < 0 else i for i in picked]
    if not all(0 <= i < size for i in picked):
        return None
    return _take(source, dim, picked, keep=True)


def _gather(op, reader) -> Contents | None:
    """`gather(source, dim, index)`: the index's shape, each element the source's at the
    element's position with the index's value along `dim` (ONNX GatherElements)."""
    source, indices = reader.contents(op.operands[0]), reader.contents(op.operands[2])
    if source is None or indices is None or len(source.shape) != len(indices.shape) or not source.shape:
        return None
    dim = _dim(_constant(op.operands[1]), len(source.shape))
    picked = [_constant_element(i) for i in indices.elements]
    size = source.shape[dim]
    if not all(-size <= i < size for i in picked):
        return None
    source_strides = [math.prod(source.shape[d + 1:]) for d in range(len(source.shape))]
    elements = []
    for flat, index in enumerate(picked):
        position = _unravel(flat, indices.shape)
        if any(p >= s for p, s in zip(position, source.shape, strict=True)):
            return None
        position[dim] = index % size
        elements.append(source.elements[sum(p * t for p, t in zip(position, source_strides, strict=True))])
    return Contents(indices.shape, tuple(elements))


def _unravel(flat: int, shape: tuple) -> list[int]:
    position = []
    for size in reversed(shape):
        position.append(flat % size)
        flat //= size
    return position[::-1]


def _slice(op, reader) -> Contents | None:
    source = reader.contents(op.operands[0])
    if source is None or not source.shape:
        return None
    dim = _dim(_known_int(op.operands[1], reader), len(source.shape))
    start, end, step = (_known_int(v, reader) for v in op.operands[2:5])
    if not step:
        return None
    # Python's slicing of the indices: torch-mlir's meaning, a negative step included (its
    # ONNX Slice conversion reverses a dim so: the legacy exporter's Pad reverses its pads).
    picked = list(range(source.shape[dim]))[slice(start, end, step)]
    return _take(source, dim, picked, keep=True)


def _transpose(op, reader) -> Contents | None:
    source = reader.contents(op.operands[0])
    if source is None or not source.shape:
        return None
    order = list(range(len(source.shape)))
    a, b = (_dim(_constant(v), len(order)) for v in op.operands[1:3])
    order[a], order[b] = order[b], order[a]
    return _permuted(source, order)


def _permute(op, reader) -> Contents | None:
    source, listed = reader.contents(op.operands[0]), literal_elements(op.operands[1], reader.literals)
    if source is None or listed is None or len(listed) != len(source.shape):
        return None
    return _permuted(source, [_dim(_constant(v), len(listed)) for v in listed])


def _permuted(source: Contents, order: list[int]) -> Contents | None:
    """The result's dim i is the source's dim `order[i]`."""
    if sorted(order) != list(range(len(order))):
        return None
    strides = [math.prod(source.shape[d + 1:]) for d in range(len(order))]
    shape = tuple(source.shape[d] for d in order)
    elements = tuple(source.elements[sum(i * strides[d] for i, d in zip(index, order))]
                     for index in itertools.product(*(range(n) for n in shape)))
    return Contents(shape, elements)


def _cat(op, reader) -> Contents | None:
    listed = literal_elements(op.operands[0], reader.literals)
    if listed is None:
        return None
    parts = [reader.contents(v) for v in listed]
    if not parts or any(p is None or len(p.shape) != 1 for p in parts):
        return None
    if _dim(_constant(op.operands[1]), 1) != 0:
        return None
    elements = tuple(e for p in parts for e in p.elements)
    return Contents((len(elements),), elements)


def _reshaped(op, reader, shape_of) -> Contents | None:
    source = reader.contents(op.operands[0])
    if source is None:
        return None
    shape = shape_of(op, source)
    return None if shape is None else Contents(tuple(shape), source.elements)


def _unsqueeze_shape(op, source: Contents):
    dim = _dim(_constant(op.operands[1]), len(source.shape) + 1)
    return [*source.shape[:dim], 1, *source.shape[dim:]]


def _squeeze_dim_shape(op, source: Contents):
    dim = _dim(_constant(op.operands[1]), max(len(source.shape), 1))
    if not source.shape or source.shape[dim] != 1:
        return source.shape
    return [*source.shape[:dim], *source.shape[dim + 1:]]


def _squeeze_shape(_op, source: Contents):
    return [s for s in source.shape if s != 1]


def _result_shape(op, source: Contents):
    """The result's static shape (view, reshape, flatten, to a known type)."""
    info = types.parse(op.results[0].type)
    if info is None or info.sizes is None or None in info.sizes:
        return None
    return info.sizes


def _same_shape(_op, source: Contents):
    return source.shape


def _binary(combine):
    def handler(op, reader) -> Contents | None:
        lhs = reader.contents(op.operands[0])
        rhs = reader.contents(op.operands[1]) if types.parse(op.operands[1].type) is not None else None
        if rhs is None and types.parse(op.operands[1].type) is None:
            scalar = reader.express(op.operands[1])
            rhs = None if scalar is None else Contents((), (scalar,))
        if lhs is None or rhs is None:
            return None
        if len(op.operands) > 2 and str(op.operands[2].type) == "!torch.int" and _constant(op.operands[2]) != 1:
            return None  # an alpha other than 1
        return _broadcast(lhs, rhs, functools.partial(combine, reader.algebra))

    return handler


def _broadcast(lhs: Contents, rhs: Contents, combine) -> Contents | None:
    """`combine` element by element; one side may be a single element."""
    # The shape with more elements, or of higher rank where both have one: [] and [1] make [1].
    shape = max(lhs.shape, rhs.shape, key=lambda s: (math.prod(s), len(s)))
    parts = [_expanded(c, shape) for c in (lhs, rhs)]
    if None in parts:
        return None
    return Contents(tuple(shape), tuple(None if a is None or b is None else combine(a, b) for a, b in zip(*parts)))


def _expanded(known: Contents, shape: tuple) -> tuple | None:
    if known.shape == tuple(shape):
        return known.elements
    return known.elements * math.prod(shape) if len(known.elements) == 1 else None


def _exact_quotient(_algebra, a: Polynomial, b: Polynomial) -> Polynomial | None:
    """True division where a nonzero constant divides exactly: its float is that int, which
    a later cast to int keeps (ONNX's `Div` of a head size by 2, converted to `div.Tensor`)."""
    divisor = b.constant_value()
    return None if divisor is None or divisor == 0 else a.exact_divide(b)


def _truncated_quotient(algebra, a: Polynomial, b: Polynomial) -> Polynomial | None:
    """`div.Tensor` typed as an integer tensor: torch-mlir lowers it to a division rounding
    toward zero (`arith.divsi`), as ONNX's integer `Div` means (a WavLM export's conv output
    length, `(L - 10) / 5 + 1`). It is floor division where the dividend cannot be negative
    (a size polynomial of non-negative coefficients) and the divisor is a positive constant."""
    dividend, divisor = a.constant_value(), b.constant_value()
    if divisor is None or divisor == 0:
        return a.exact_divide(b) if divisor is None else None
    if dividend is not None:
        quotient = abs(dividend) // abs(divisor)
        return Polynomial.constant(quotient if (dividend < 0) == (divisor < 0) else -quotient)
    if divisor < 0 or any(coefficient < 0 for coefficient in a.terms.values()):
        return a.exact_divide(b)
    return algebra.quotient(a, b)  # floor division, as symbolic/semantics.py means it


def _divide(op, reader) -> Contents | None:
    result = types.parse(op.result.type)
    integral = result is not None and result.dtype in _INTEGRAL
    return _binary(_truncated_quotient if integral else _exact_quotient)(op, reader)


def _elementwise(name: str):
    """The int op `name`'s meaning over polynomials (symbolic/semantics.py), element by
    element: a comparison is 0 or 1 where the range of its sides' difference decides it
    (ONNX Expand's `shape == -1` of a shape read off a tensor is false), else the truth
    symbol (`ranges.SizesAlgebra`)."""
    return _binary(MEANINGS[name].symbolic)


def _where(op, reader) -> Contents | None:
    known = [reader.contents(v) for v in op.operands]
    if None in known:
        return None
    shape = max((k.shape for k in known), key=len)
    parts = [_expanded(k, shape) for k in known]
    if None in parts:
        return None
    return Contents(tuple(shape), tuple(_pick(*chosen) for chosen in zip(*parts)))


def _pick(condition: Polynomial | None, then: Polynomial | None, otherwise: Polynomial | None):
    """`then if condition else otherwise`: a select where the condition is not decided
    (ONNX Reshape's `size(x, d) if s == 0 else s`, which is `s` where that size is a
    multiple of it, `facts.select`)."""
    if then is not None and then == otherwise:
        return then
    if condition is None:
        return None
    decided = condition.constant_value()
    if decided is not None:
        return then if decided else otherwise
    if then is None or otherwise is None:
        return None
    return facts.select(facts.condition_of(condition), then, otherwise)


def _converted(op, reader) -> Contents | None:
    """`to.dtype`, `_to_copy` of known (integral) contents: to si64 or si32 they keep their
    values (sizes fit in 32 bits); to bool, 0 or 1; to a narrower type, not known (it may
    wrap). The target is the dtype operand (`_to_copy` without one keeps the dtype), so it
    is known before the result's type is refined."""
    source = reader.contents(op.operands[0])
    if source is None:
        return None
    try:
        code = constant_value(op.operands[1])
    except NotConstant:
        return None
    if code is None and op.operation.name == "torch.aten._to_copy":
        return source
    if code not in _CONVERSIONS:
        return None
    if _CONVERSIONS[code] != "i1":
        return source
    return Contents(source.shape, tuple(_truth(e) for e in source.elements))


_CONVERSIONS = {4: "si64", 3: "si32", 11: "i1"}  # dtype codes contents survive


def _truth(element: Polynomial | None) -> Polynomial | None:
    value = None if element is None else element.constant_value()
    return None if value is None else Polynomial.constant(int(value != 0))


def _take(source: Contents, dim: int, picked: list[int], keep: bool) -> Contents:
    outer = math.prod(source.shape[:dim])
    size = source.shape[dim]
    inner = math.prod(source.shape[dim + 1:])
    elements = [source.elements[(o * size + i) * inner + k]
                for o in range(outer) for i in picked for k in range(inner)]
    middle = [len(picked)] if keep else []
    return Contents((*source.shape[:dim], *middle, *source.shape[dim + 1:]), tuple(elements))


def _dim(dim: int, rank: int) -> int:
    if not -rank <= dim < rank:
        raise IndexError(dim)
    return dim + rank if dim < 0 else dim


def _constant_element(element: Polynomial | None) -> int:
    value = None if element is None else element.constant_value()
    if value is None:
        raise ValueError("not a constant index")
    return value


_HANDLERS = {
    "torch.vtensor.literal": _literal,
    "torch.prim.NumToTensor.Scalar": _number_to_tensor,
    "torch.aten.ones": _filled(1),
    "torch.aten.zeros": _filled(0),
    "torch.aten.full": _full,
    "torch.aten._shape_as_tensor": _shape_as_tensor,
    "torch.aten.select.int": _select,
    "torch.aten.index_select": _index_select,
    "torch.aten.gather": _gather,
    "torch.aten.slice.Tensor": _slice,
    "torch.aten.cat": _cat,
    "torch.aten.transpose.int": _transpose,
    "torch.aten.permute": _permute,
    "torch.aten.unsqueeze": lambda op, reader: _reshaped(op, reader, _unsqueeze_shape),
    "torch.aten.squeeze.dim": lambda op, reader: _reshaped(op, reader, _squeeze_dim_shape),
    "torch.aten.squeeze": lambda op, reader: _reshaped(op, reader, _squeeze_shape),
    "torch.aten.view": lambda op, reader: _reshaped(op, reader, _result_shape),
    "torch.aten.reshape": lambda op, reader: _reshaped(op, reader, _result_shape),
    "torch.aten.flatten.using_ints": lambda op, reader: _reshaped(op, reader, _result_shape),
    "torch.tensor_static_info_cast": lambda op, reader: _reshaped(op, reader, _same_shape),
    "torch.aten.clone": lambda op, reader: _reshaped(op, reader, _same_shape),
    "torch.aten.add.Tensor": _elementwise("torch.aten.add.int"),
    "torch.aten.add.Scalar": _elementwise("torch.aten.add.int"),
    "torch.aten.sub.Tensor": _elementwise("torch.aten.sub.int"),
    "torch.aten.sub.Scalar": _elementwise("torch.aten.sub.int"),
    "torch.aten.mul.Tensor": _elementwise("torch.aten.mul.int"),
    "torch.aten.mul.Scalar": _elementwise("torch.aten.mul.int"),
    "torch.aten.div.Tensor": _divide,
    "torch.aten.floor_divide": _elementwise("torch.aten.floordiv.int"),
    "torch.aten.floor_divide.Scalar": _elementwise("torch.aten.floordiv.int"),
    "torch.aten.remainder.Tensor": _elementwise("torch.aten.remainder.int"),  # ONNX Mod: Python's %
    "torch.aten.remainder.Scalar": _elementwise("torch.aten.remainder.int"),
    "torch.aten.eq.Tensor": _elementwise("torch.aten.eq.int"),
    "torch.aten.eq.Scalar": _elementwise("torch.aten.eq.int"),
    "torch.aten.ne.Tensor": _elementwise("torch.aten.ne.int"),
    "torch.aten.ne.Scalar": _elementwise("torch.aten.ne.int"),
    "torch.aten.lt.Tensor": _elementwise("torch.aten.lt.int"),
    "torch.aten.lt.Scalar": _elementwise("torch.aten.lt.int"),
    "torch.aten.gt.Tensor": _elementwise("torch.aten.gt.int"),
    "torch.aten.gt.Scalar": _elementwise("torch.aten.gt.int"),
    "torch.aten.where.self": _where,
    "torch.aten.to.dtype": _converted,
    "torch.aten._to_copy": _converted,
}

# The ops whose results `Reader.contents` may know.
HANDLED = frozenset(_HANDLERS)
