"""Scalar folds the C++ folders miss, and type-directed folds on scalars and tensors."""

from __future__ import annotations

import functools

from torch_mlir import ir

from torch_refine.calculations.dim_facts import (
    DIVISOR_MARKER,
    express,
    is_divisor_marker,
    through_divisor_marker,
)
from torch_refine.calculations.ranges import decide, entry_block_of, polynomial_range
from torch_refine.calculations.store import FactStore
from torch_refine.calculations.value_ranges import difference_range
from torch_refine.ir import types
from torch_refine.ir.constants import (
    NotConstant,
    constant_value,
    defining_op,
    fits_int64,
    make_constant,
    typed_constant,
)
from torch_refine.ir.module import ops_in
from torch_refine.ir.retype import accepts, cast
from torch_refine.symbolic.comparisons import INT_COMPARISONS, MIRRORED, NEGATED
from torch_refine.symbolic.polynomial import Polynomial
from torch_refine.symbolic.semantics import MEANINGS, names

# Evaluated by their meanings (symbolic/semantics.py) when every operand is a constant.
# Only ops without a C++ folder need to be here.
_FOLDED_BY_MEANING = (
    "torch.aten.__and__.bool", "torch.aten.__or__.bool", "torch.aten.ne.bool", "torch.aten.eq.bool",
    "torch.aten.add.str", "torch.aten.eq.str", "torch.aten.ne.str", "torch.aten.str", "torch.aten.format",
    "torch.aten.Bool.int", "torch.aten.Int.bool",
    "torch.aten.__range_length",  # torch-mlir's folder takes positive steps only (`range(n - 1, -1, -1)`)
    "torch.aten.ne.float_int", "torch.aten.lt.float_int", "torch.aten.gt.float_int", "torch.aten.ge.float_int",
)


def fold_constant_operands(op, rewriter):
    try:
        args = [constant_value(v) for v in op.operands]
    except NotConstant:
        return True
    try:
        result = MEANINGS[op.operation.name].compute(*args)
    except (ValueError, TypeError, IndexError, KeyError):
        return True
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [make_constant(result)])
    return None


def negation(condition: ir.Value) -> ir.Value:
    """`not condition` in ops every torch-mlir backend conversion lowers (never
    `aten.__not__`, which none does), built at the current insertion point and location:
    the operand of a `__not__`, the inverse of a comparison, a conjunction's or disjunction's
    negation as the other of its operands' negations (fewer ops than negating it), else
    `ne.bool(condition, true)`."""
    producer = defining_op(condition)
    name = producer.operation.name if producer is not None else None
    if name == "torch.aten.__not__" or _is_negation(producer):
        return producer.operands[0]
    if (inverse := NEGATED.get(name)) is not None:
        operands = list(producer.operands)
        return ir.Operation.create(inverse, results=[condition.type], operands=operands).result
    if (dual := _DE_MORGAN.get(name)) is not None:
        operands = [negation(operand) for operand in producer.operands]
        return ir.Operation.create(dual, results=[condition.type], operands=operands).result
    operands = [condition, make_constant(True)]
    return ir.Operation.create("torch.aten.ne.bool", results=[condition.type], operands=operands).result


_DE_MORGAN = {"torch.aten.__and__.bool": "torch.aten.__or__.bool", "torch.aten.__or__.bool": "torch.aten.__and__.bool"}


def _is_negation(op) -> bool:
    """`ne.bool(x, true)`: what `negation` builds when nothing simpler is exact."""
    if op is None or op.operation.name != "torch.aten.ne.bool":
        return False
    try:
        return constant_value(op.operands[1]) is True
    except NotConstant:
        return False


def lower_not(op, rewriter):
    """`aten.__not__` becomes what `negation` builds, so kept guards reach every backend."""
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [negation(op.operands[0])])
    return None


def size_int_dim(op) -> tuple[types.TensorInfo, int] | None:
    """The ranked tensor type and the constant, in-range dim (negative ones count from the
    end) of an `aten.size.int`; None when either is not known."""
    info = types.parse(op.operands[0].type)
    if info is None or info.sizes is None:
        return None
    try:
        dim = constant_value(op.operands[1])
    except NotConstant:
        return None
    if not isinstance(dim, int) or not -info.rank <= dim < info.rank:
        return None
    return info, dim


def fold_size_int(op, rewriter):
    """`aten.size.int` of a static dim, negative dims included."""
    found = size_int_dim(op)
    if found is None or found[0].sizes[found[1]] is None:
        return True
    info, dim = found
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [make_constant(info.sizes[dim])])
    return None


def fold_dim(op, rewriter):
    info = types.parse(op.operands[0].type)
    if info is None or info.rank is None:
        return True
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [make_constant(info.rank)])
    return None


def _may_be_none(value: ir.Value) -> bool | None:
    """True: is none; False: cannot be none; None: unknown (optional, any, union)."""
    while defining_op(value) is not None and defining_op(value).operation.name == "torch.derefine":
        value = defining_op(value).operands[0]
    text = str(value.type)
    if text == "!torch.none":
        return True
    if text.startswith(("!torch.optional", "!torch.any", "!torch.union")):
        return None
    return False


def fold_is(op, rewriter):
    """`x is y` / `x is not y` decided by types when one side is none."""
    lhs, rhs = (_may_be_none(v) for v in op.operands)
    if lhs is None or rhs is None or (lhs is False and rhs is False):
        return True
    same = lhs == rhs
    if op.operation.name == "torch.aten.__isnot__":
        same = not same
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [make_constant(same)])
    return None


def fold_unchecked_cast(op, rewriter):
    """`prim.unchecked_cast` whose source (seen through derefines) already has the target type."""
    source = op.operands[0]
    while source.type != op.result.type and defining_op(source) is not None:
        producer = defining_op(source)
        if producer.operation.name != "torch.derefine":
            break
        source = producer.operands[0]
    if source.type == op.result.type:
        rewriter.replace_op(op, [source])
        return None
    if not _same_tensor_kind(source.type, op.result.type):
        return True
    # A tensor whose type is more precise than the target's: users that accept it read it
    # (its rank and dtype then fold), the others a static-info cast (an unchecked cast
    # between two tensor types does not verify).
    for use in list(op.result.uses):
        if accepts(use, source.type):
            use.owner.operands[use.operand_number] = source
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [cast(source, op.result.type)])
    return None


def _same_tensor_kind(source: ir.Type, target: ir.Type) -> bool:
    """Both value-semantic tensor types, or both non-value-semantic ones."""
    if types.parse(source) is None or types.parse(target) is None:
        return False
    return str(source).startswith("!torch.vtensor") == str(target).startswith("!torch.vtensor")


def scalar_dtype_code(value: ir.Value) -> int | None:
    """The dtype of `NumToTensor` of this scalar: si64 for int, f64 for float, i1 for bool."""
    while True:
        text = str(value.type)
        if text == "!torch.int":
            return 4
        if text == "!torch.float":
            return 7
        if text == "!torch.bool":
            return 11
        producer = defining_op(value)
        if producer is None or producer.operation.name != "torch.derefine":
            return None
        value = producer.operands[0]


def fold_prim_dtype(op, rewriter):
    """`prim.dtype` of a tensor with a known dtype, or of `prim.NumToTensor` of a typed scalar."""
    tensor = op.operands[0]
    info = types.parse(tensor.type)
    code = None if info is None or info.dtype is None else types.ELEMENT_TO_DTYPE.get(info.dtype)
    producer = defining_op(tensor)
    if code is None and producer is not None and producer.operation.name == "torch.prim.NumToTensor.Scalar":
        code = scalar_dtype_code(producer.operands[0])
    if code is None:
        return True
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [make_constant(code)])
    return None


# Ints that are sizes, counts or ranks, and arithmetic that keeps them non-negative.
_NON_NEGATIVE_PRODUCERS = frozenset(
    {"torch.aten.size.int", "torch.aten.len.t", "torch.aten.dim", "torch.aten.numel"}
)
_NON_NEGATIVE_ARITHMETIC = frozenset(
    {"torch.aten.mul.int", "torch.aten.add.int", "torch.aten.floordiv.int"}
)
_MAX_DEPTH = 8


def is_non_negative(value: ir.Value, depth: int = 0) -> bool:
    """True when the int `value` is provably >= 0 (a size, a count, or arithmetic of them)."""
    try:
        constant = constant_value(value)
        return isinstance(constant, int) and constant >= 0
    except NotConstant:
        pass
    producer = defining_op(through_divisor_marker(value))
    if producer is None or depth > _MAX_DEPTH:
        return False
    name = producer.operation.name
    if name in _NON_NEGATIVE_PRODUCERS:
        return True
    if name in _NON_NEGATIVE_ARITHMETIC:
        return all(is_non_negative(v, depth + 1) for v in producer.operands)
    if name == "torch.prim.max.int":
        return any(is_non_negative(v, depth + 1) for v in producer.operands)
    return False


def fold_sign_comparison(op, rewriter, run: FactStore):
    """Compare a non-negative int with a constant: `size == -1` is false, `size >= 0` true;
    else compare two sizes by the range of their difference (calculations/ranges.py).

    This decides the `-1` (inferred dim) and negative-dim checks of shape functions on
    dynamic sizes, and bounds checks against the ranges torch.export gave the dynamic
    dims, which the C++ folders leave alone.
    """
    answer = _sign_answer(op)
    if answer is None:
        answer = _range_answer(op, run)
    if answer is None:
        answer = _interval_answer(op, run)
    if answer is None:
        return True
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [make_constant(answer)])
    return None


def _sign_answer(op) -> bool | None:
    name = op.operation.name
    lhs, rhs = op.operands
    try:
        constant, other = constant_value(rhs), lhs
    except NotConstant:
        try:
            constant, other, name = constant_value(lhs), rhs, MIRRORED[name]
        except NotConstant:
            return None
    if not isinstance(constant, int) or isinstance(constant, bool):
        return None
    answer = decide(INT_COMPARISONS[name], -constant, None)  # other - constant is at least -constant
    return answer if answer is not None and is_non_negative(other) else None


def _range_answer(op, run: FactStore) -> bool | None:
    lhs, rhs = (express(v, run) for v in op.operands)
    if lhs is None or rhs is None:
        return None
    difference = lhs - rhs
    if difference.constant_value() is not None:
        return None  # the C++ folder's case
    entry = entry_block_of(op)
    return decide(INT_COMPARISONS[op.operation.name], *polynomial_range(difference, entry, run))


def _interval_answer(op, run: FactStore) -> bool | None:
    """Compare by the ranges of both sides' values (`value_ranges.difference_range`), for ints
    without a polynomial: ranks, lengths, and selects of them."""
    difference = difference_range(*op.operands, entry_block_of(op), run)
    return None if difference is None else decide(INT_COMPARISONS[op.operation.name], *difference)


# A size converted to float (`aten.Float.Scalar`, what reification passes for a `Scalar`
# argument such as arange's `end`) is finite and integral, so the float arithmetic of
# `math.ceil((end - 0.0) / 1.0)` gives the size back; folding it keeps the size symbolic.
# Sizes are below 2**53, where the conversion is exact.
_IDENTITIES = tuple(name for name, meaning in MEANINGS.items() if meaning.identity is not None)


def _converted_int(value: ir.Value) -> ir.Value | None:
    """The int `value` is `aten.Float.Scalar` of, if it is one."""
    producer = defining_op(value)
    if producer is None or producer.operation.name != "torch.aten.Float.Scalar":
        return None
    source = producer.operands[0]
    return source if str(source.type) == "!torch.int" else None


def _converted_size(value: ir.Value) -> ir.Value | None:
    """The non-negative int `value` is `aten.Float.Scalar` of, if it is one."""
    source = _converted_int(value)
    return source if source is not None and is_non_negative(source) else None


def fold_float_identity(op, rewriter):
    """`x - 0.0`, `x + 0.0`, `x / 1.0`, `x * 1.0` of a converted size: the conversion."""
    lhs, rhs = op.operands
    if typed_constant(rhs, float) != MEANINGS[op.operation.name].identity or _converted_size(lhs) is None:
        return True
    rewriter.replace_op(op, [lhs])
    return None


def fold_ceil_of_size(op, rewriter):
    source = _converted_size(op.operands[0])
    if source is None:
        return True
    rewriter.replace_op(op, [source])
    return None


def fold_float_comparison(op, rewriter, run: FactStore):
    """A float computed from sizes against a constant: a converted size is never an
    infinity and never below 0.0; a product of sizes (the storage-size overflow check)
    compares by its range where the ranges torch.export gave the sizes bound it below
    2**53, where float arithmetic on integers is exact."""
    lhs, rhs = op.operands
    constant = typed_constant(rhs, float)
    if constant is None:
        return True
    answer = _converted_size_answer(op.operation.name, lhs, constant)
    if answer is None:
        answer = _float_range_answer(op, lhs, constant, run)
    if answer is not None:
        with rewriter.ip, op.location:
            rewriter.replace_op(op, [make_constant(answer)])
        return None
    return _compare_as_ints(op, rewriter, lhs, constant)


def _compare_as_ints(op, rewriter, lhs: ir.Value, constant: float):
    """`float(i) < c` for an int `i` and an integral `c` below 2**53 is `i < int(c)`: where
    `i` rounds, it is past 2**53 on the same side of `c` (arange's `float(n - 1) >= 0.0`
    is `n - 1 >= 0`, which the int rules read)."""
    source = _converted_int(lhs)
    if source is None or not constant.is_integer() or abs(constant) >= _EXACT_FLOAT_INTEGERS \
            or op.operation.name not in _AS_INT_COMPARISON:
        return True
    with rewriter.ip, op.location:
        compared = ir.Operation.create(_AS_INT_COMPARISON[op.operation.name], results=[op.results[0].type],
                                       operands=[source, make_constant(int(constant))]).result
        rewriter.replace_op(op, [compared])
    return None


_AS_INT_COMPARISON = {f"torch.aten.{name}.float": f"torch.aten.{name}.int" for name in ("lt", "gt", "ge", "eq")}


def _converted_size_answer(name: str, value: ir.Value, constant: float) -> bool | None:
    if _converted_size(value) is None:
        return None
    if constant in (float("inf"), float("-inf")) and name == "torch.aten.eq.float":
        return False
    if constant == 0.0 and name in ("torch.aten.ge.float", "torch.aten.lt.float"):
        return name == "torch.aten.ge.float"
    return None


_EXACT_FLOAT_INTEGERS = 2**53
# Float arithmetic exact on integers below 2**53: its meaning's operator on polynomials.
_EXACT_ON_INTEGERS = ("torch.aten.mul.float", "torch.aten.add.float", "torch.aten.sub.float")
# The float comparisons a range decides against a constant.
_FLOAT_DECIDED = names(operands=("float", "float"), result="bool")


def _float_polynomial(value: ir.Value, entry, run: FactStore, depth: int = 0) -> Polynomial | None:
    """A float that is integer arithmetic on converted ints and integral constants, as a
    polynomial over sizes; None unless every step's range (given the function's entry
    block, `ranges.polynomial_range`) stays within 2**53, where each float step is exact."""
    constant = typed_constant(value, float)
    if constant is not None:
        exact = constant.is_integer() and abs(constant) <= _EXACT_FLOAT_INTEGERS
        return Polynomial.constant(int(constant)) if exact else None
    producer = defining_op(value)
    if producer is None or depth > _MAX_DEPTH:
        return None
    name = producer.operation.name
    if (source := _converted_int(value)) is not None:
        polynomial = express(source, run)
    elif name in _EXACT_ON_INTEGERS:
        operands = [_float_polynomial(v, entry, run, depth + 1) for v in producer.operands]
        polynomial = None if None in operands else MEANINGS[name].test(*operands)
    else:
        return None
    if polynomial is None:
        return None
    least, greatest = polynomial_range(polynomial, entry, run)
    if least is None or greatest is None:
        return None
    return polynomial if max(-least, greatest) <= _EXACT_FLOAT_INTEGERS else None


def _float_range_answer(op, value: ir.Value, constant: float, run: FactStore) -> bool | None:
    if constant != constant:  # NaN: every comparison is false, but say nothing
        return None
    bounds = _float_bounds(value, entry_block_of(op), run)
    if bounds is None:
        return None
    least, greatest = MEANINGS[op.operation.name].bounds(bounds, (constant, constant))
    return least if least == greatest else None


_INT64_ENDS = (-(2**63), 2**63 - 1)


def _float_bounds(value: ir.Value, entry, run: FactStore) -> tuple | None:
    """The least and greatest a float is: exact integer arithmetic within 2**53
    (`_float_polynomial`), or one int converted, whatever its range: the conversion is
    monotone and an int64 is never inf or NaN (arange's check that an int end is finite
    holds for every size)."""
    polynomial = _float_polynomial(value, entry, run)
    if polynomial is not None:
        return polynomial_range(polynomial, entry, run)
    source = _converted_int(value)
    if source is None or (converted := express(source, run)) is None:
        return None
    least, greatest = polynomial_range(converted, entry, run)
    return (float(_INT64_ENDS[0] if least is None else least), float(_INT64_ENDS[1] if greatest is None else greatest))


# Int division by zero raises, but torch-mlir's folders fold it anyway (`floordiv.int` to
# a garbage constant, `div.int` to inf; `remainder.int` kills the process with SIGFPE),
# and the greedy driver folds an op before any pattern sees it. So while a calculation is
# simplified, a divisor not known to be non-zero reaches its division through an opaque
# marker (`mark_divisors`); `unmark_divisor` removes the marker once the divisor is a
# non-zero constant or a symbolic size (which no folder folds), and turns a division by
# a constant zero into the raise it is; `unmark_divisors` removes the markers left.
# `floordiv.int`'s folder also computes in doubles (9223372036854775807 // 1 gives -2**63),
# so its divisor stays marked until the end, and `fold_floordiv` divides two constants
# exactly (`express` and `is_non_negative` look through the marker).
DIVISIONS = frozenset({"torch.aten.floordiv.int", "torch.aten.remainder.int", "torch.aten.div.int"})
FLOORDIV = "torch.aten.floordiv.int"
ZERO_DIVISION = "ZeroDivisionError: integer division or modulo by zero"


def mark_divisors(region) -> None:
    def may_divide_by_zero(op) -> bool:
        if op.name == FLOORDIV:
            return True
        return op.name in DIVISIONS and not _is_non_zero_constant(op.operands[1])

    for division in ops_in(region, may_divide_by_zero):
        divisor = division.operands[1]
        marker = ir.Operation.create(
            "torch.operator",
            results=[divisor.type],
            operands=[divisor],
            attributes={"name": ir.StringAttr.get(DIVISOR_MARKER)},
            loc=division.location,
            ip=ir.InsertionPoint(division),
        )
        division.operands[1] = marker.result


def _is_non_zero_constant(value: ir.Value) -> bool:
    try:
        return constant_value(value) != 0
    except NotConstant:
        return False


def fold_floordiv(op, rewriter):
    """`a // b` of two int constants (b marked), in Python's exact ints."""
    try:
        dividend, divisor = (constant_value(through_divisor_marker(v)) for v in op.operands)
    except NotConstant:
        return True
    if not isinstance(dividend, int) or not isinstance(divisor, int) or divisor == 0:
        return True  # a zero divisor is unmark_divisor's
    quotient = dividend // divisor
    if not fits_int64(quotient):
        return True  # -2**63 // -1 overflows int64
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [make_constant(quotient)])
    return None


def unmark_divisor(op, rewriter, run: FactStore):
    if not is_divisor_marker(op):
        return True
    divisor = op.operands[0]
    try:
        zero = constant_value(divisor) == 0
    except NotConstant:
        polynomial = express(divisor, run)
        if polynomial is None or polynomial.constant_value() is not None:
            return True
        zero = False
    if not zero:
        if any(use.owner.operation.name == FLOORDIV for use in op.result.uses):
            return True  # stays opaque: fold_floordiv divides exactly
        rewriter.replace_op(op, [divisor])
        return None
    for use in list(op.result.uses):
        division = use.owner
        with ir.InsertionPoint(division), division.location:
            message = make_constant(ZERO_DIVISION)
            none = make_constant(None)
            ir.Operation.create("torch.prim.RaiseException", operands=[message, none])
            result_type = division.result.type
            unreachable = ir.Operation.create("torch.prim.Uninitialized", results=[result_type]).result
        division.result.replace_all_uses_with(unreachable)
        rewriter.erase_op(division)
    rewriter.erase_op(op)
    return None


def unmark_divisors(region) -> None:
    for marker in ops_in(region, is_divisor_marker):
        marker.result.replace_all_uses_with(marker.operands[0])
        marker.erase()


def patterns(options, run: FactStore) -> list:
    found = [(name, fold_constant_operands) for name in _FOLDED_BY_MEANING]
    found += [(name, functools.partial(fold_sign_comparison, run=run)) for name in INT_COMPARISONS]
    return [
        *found,
        ("torch.aten.size.int", fold_size_int),
        ("torch.aten.dim", fold_dim),
        ("torch.aten.__is__", fold_is),
        ("torch.aten.__isnot__", fold_is),
        ("torch.prim.unchecked_cast", fold_unchecked_cast),
        ("torch.prim.dtype", fold_prim_dtype),
        ("torch.aten.__not__", lower_not),
        ("torch.operator", functools.partial(unmark_divisor, run=run)),
        (FLOORDIV, fold_floordiv),
        *[(name, fold_float_identity) for name in _IDENTITIES],
        ("torch.aten.ceil.float", fold_ceil_of_size),
        *[(name, functools.partial(fold_float_comparison, run=run)) for name in _FLOAT_DECIDED],
    ]
