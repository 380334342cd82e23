"""Symbolic dims in calculations: sizes of ops with recorded dims become arithmetic on
the function's argument dims, and int arithmetic that cancels them folds.

`(s*256) // (s*64)` is 4 and `(s*256) % (s*64)` is 0 for every `s` for which they do not
raise, so a view's inferred `-1` dim is found on a dynamic batch. A comparison folds only
when the two sides differ by a constant: different polynomials may still be equal at run
time.
"""

from __future__ import annotations

import functools

from torch_mlir import ir

from torch_refine.calculations import facts
from torch_refine.calculations.binds import function_argument
from torch_refine.calculations.dim_facts import express, tensor_dims
from torch_refine.calculations.store import FactStore
from torch_refine.ir.constants import fits_int64, is_constant, make_constant
from torch_refine.patterns.scalars import negation, size_int_dim
from torch_refine.symbolic.comparisons import INT_COMPARISONS, negated
from torch_refine.symbolic.polynomial import Polynomial, is_computed, parse_polynomial, solved_range


def size_from_symbols(op, rewriter, run: FactStore):
    """`aten.size.int(x, d)` where the op producing `x` recorded dim d as a polynomial:
    that polynomial, computed from `aten.size.int` of function arguments; of an argument
    whose bind makes the dim a constant (export specialized it): that constant."""
    tensor = op.operands[0]
    found = size_int_dim(op)
    if found is None or found[0].sizes[found[1]] is not None:
        return True  # static: fold_size_int's
    info, dim = found
    dims = tensor_dims(tensor, run)
    if dims is None or len(dims) != info.rank or not dims[dim]:
        return True
    polynomial = parse_polynomial(dims[dim])
    if function_argument(tensor) is not None and polynomial.constant_value() is None:
        return True  # an argument's size is its own symbol: nothing simpler
    if any(is_computed(s) for monomial in polynomial.terms for s in monomial):
        return True  # computed sizes are read where they are: nothing simpler
    arguments = _function_of(op).regions[0].blocks[0].arguments
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [materialize(polynomial, arguments)])
    return None


def _function_of(op):
    parent = op.operation.parent
    while parent.operation.name != "func.func":
        parent = parent.operation.parent
    return parent


class Unmaterializable(Exception):
    """A computed size (`%sI`) that nothing at the insertion point carries."""


class Sizes:
    """Builds ints and conditions over symbolic sizes at the current insertion point and
    location: argument dims as `aten.size.int` of the function's `arguments`, computed
    sizes from what `carried` says holds them (symbol -> (tensor, dim), or (int, None) for
    an int value), a defined symbol from its definition (calculations/facts.py) when
    nothing carries it. A size nothing gives raises Unmaterializable; `available`
    says so without building anything."""

    def __init__(self, arguments, carried: dict | None = None) -> None:
        self._arguments = arguments
        self._carried = carried or {}

    def available(self, polynomial: Polynomial) -> bool:
        return all(self._symbol_available(s) for monomial in polynomial.terms for s in monomial)

    def condition_available(self, key: tuple) -> bool:
        return all(self.available(p) if isinstance(p, Polynomial) else
                   not isinstance(p, tuple) or self.condition_available(p) for p in key[1:])

    def _symbol_available(self, symbol) -> bool:
        if not is_computed(symbol) or symbol in self._carried:
            return True
        definition = facts.definition(symbol)
        if definition is None:
            return False
        if definition[0] == facts.FLOOR_DIVIDE:
            divisor = definition[2]
            return self.available(definition[1]) and (not isinstance(divisor, Polynomial) or self.available(divisor))
        _, condition, then, otherwise = definition
        return self.condition_available(condition) and self.available(then) and self.available(otherwise)

    def int(self, polynomial: Polynomial) -> ir.Value:
        """Positive terms first, then each negative one subtracted: `a - b`, not `a + -1*b`."""
        total = None
        for monomial, coefficient in sorted(polynomial.terms.items(), key=lambda item: item[1] < 0):
            subtracted = total is not None and coefficient < 0
            term = self._term(monomial, -coefficient if subtracted else coefficient)
            if total is None:
                total = term
            else:
                total = _int_op("torch.aten.sub.int" if subtracted else "torch.aten.add.int", total, term)
        return make_constant(0) if total is None else total

    def _term(self, monomial, coefficient: int) -> ir.Value:
        term = None if coefficient == 1 and monomial else make_constant(coefficient)
        for symbol in monomial:
            size = self._symbol(symbol)
            term = size if term is None else _int_op("torch.aten.mul.int", term, size)
        return term

    def _symbol(self, symbol) -> ir.Value:
        argument, dim, divisor = symbol
        if not is_computed(symbol):
            size = _int_op("torch.aten.size.int", self._arguments[argument], make_constant(dim))
            return size if divisor == 1 else _int_op("torch.aten.floordiv.int", size, make_constant(divisor))
        if symbol in self._carried:
            value, dim = self._carried[symbol]
            return value if dim is None else _int_op("torch.aten.size.int", value, make_constant(dim))
        definition = facts.definition(symbol)
        if definition is None:
            raise Unmaterializable(symbol)
        if definition[0] == facts.FLOOR_DIVIDE:
            divisor = definition[2]
            divisor_value = self.int(divisor) if isinstance(divisor, Polynomial) else make_constant(divisor)
            return _int_op("torch.aten.floordiv.int", self.int(definition[1]), divisor_value)
        # otherwise + (then - otherwise) * c, c = int(condition): branch-free int arithmetic
        _, condition, then, otherwise = definition
        chosen = ir.Operation.create("torch.aten.Int.bool", results=[ir.Type.parse("!torch.int")],
                                     operands=[self.condition(condition)]).result
        step = _int_op("torch.aten.mul.int", self.int(then - otherwise), chosen)
        return _int_op("torch.aten.add.int", self.int(otherwise), step)

    def condition(self, key: tuple) -> ir.Value:
        """A condition (its key: `(op, *operands)`, sub-conditions as keys) in ops every
        torch-mlir backend conversion lowers: int and float comparisons, `__and__.bool`,
        `__or__.bool`, and `negation`'s forms of `not`."""
        op, operands = key[0], key[1:]
        if op == "not":
            flipped = negated(operands[0])
            return negation(self.condition(operands[0])) if flipped[0] == "not" else self.condition(flipped)
        if op in ("and", "or"):
            both = [self.condition(c) for c in operands]
            name = "torch.aten.__and__.bool" if op == "and" else "torch.aten.__or__.bool"
            return ir.Operation.create(name, results=[ir.Type.parse("!torch.bool")], operands=both).result
        if op in INT_COMPARISONS:
            op, *sides = argument_bound(key) or key
            both = [self.int(p) for p in sides]
        else:
            both = [self._float(operands[0]), make_constant(operands[1])]
        return ir.Operation.create(op, results=[ir.Type.parse("!torch.bool")], operands=both).result

    def _float(self, polynomial: Polynomial) -> ir.Value:
        """A product of sizes in float ops (`aten.Float.Scalar` of each size, `mul.float`):
        the product in ints could wrap where the check is about to fail."""
        total = None
        for monomial, coefficient in polynomial.terms.items():
            term = make_constant(float(coefficient))
            for symbol in monomial:
                size = self._symbol(symbol)
                as_float = ir.Operation.create("torch.aten.Float.Scalar", results=[ir.Type.parse("!torch.float")],
                                               operands=[size]).result
                term = _float_op("torch.aten.mul.float", term, as_float)
            total = term if total is None else _float_op("torch.aten.add.float", total, term)
        return make_constant(0.0) if total is None else total


# The values of an int that each ordering comparison with 0 admits: (least, greatest).
_ADMITTED = {
    "torch.aten.ge.int": (0, None), "torch.aten.gt.int": (1, None),
    "torch.aten.le.int": (None, 0), "torch.aten.lt.int": (None, -1),
}


def argument_bound(key: tuple) -> tuple | None:
    """An ordering of two sizes that holds exactly where one argument dim is at least (or
    at most) a constant, as that comparison: `(x + 1) // 2 - 1 >= 1` is `x >= 3`, one op
    where there were four, and a check a reader sees at once. Solved through floor
    divisions of `c*y + k` by positive constants, which are monotone; None for anything
    else, and where both ends bind (two comparisons are no shorter)."""
    if key[0] not in _ADMITTED or not all(isinstance(side, Polynomial) for side in key[1:]):
        return None
    linear = (key[1] - key[2]).linear_in_one_symbol()
    if linear is None:
        return None
    symbol, coefficient, offset = linear
    bounds = solved_range(coefficient, offset, *_ADMITTED[key[0]])
    while is_computed(symbol):
        definition = facts.definition(symbol)
        if definition is None or definition[0] != facts.FLOOR_DIVIDE or not isinstance(definition[2], int) \
                or definition[2] <= 0 or (linear := definition[1].linear_in_one_symbol()) is None:
            return None
        # (c*y + k) // d in [low, high] exactly where c*y + k is in [low*d, high*d + d - 1]
        divisor, (low, high) = definition[2], bounds
        symbol, coefficient, offset = linear
        bounds = solved_range(coefficient, offset, None if low is None else low * divisor,
                         None if high is None else high * divisor + divisor - 1)
    low, high = bounds
    size = Polynomial({(symbol,): 1})
    if high is None and low is not None and low > 0:
        return ("torch.aten.ge.int", size, Polynomial.constant(low))
    if high is not None and (low is None or low <= 0) and high >= 0:
        return ("torch.aten.le.int", size, Polynomial.constant(high))  # a size is at least 0
    return None


def materialize(polynomial: Polynomial, arguments) -> ir.Value:
    """`polynomial` over argument dims in int ops on `aten.size.int` of the function
    `arguments` (its entry block arguments), at the current insertion point and location."""
    return Sizes(arguments).int(polynomial)


def _int_op(name, lhs, rhs):
    return ir.Operation.create(name, results=[ir.Type.parse("!torch.int")], operands=[lhs, rhs]).result


def _float_op(name, lhs, rhs):
    return ir.Operation.create(name, results=[ir.Type.parse("!torch.float")], operands=[lhs, rhs]).result


# Ops whose result can be a constant when both operands are not (a product of two
# non-constant polynomials never is).
_ARITHMETIC = (
    "torch.aten.add.int",
    "torch.aten.sub.int",
    "torch.aten.floordiv.int",
    "torch.aten.remainder.int",
)
_SUMS = ("torch.aten.add.int", "torch.aten.sub.int")


def fold_arithmetic(op, rewriter, run: FactStore):
    """Int arithmetic whose symbolic result is a constant."""
    if op.operation.name in _SUMS and any(is_constant(v) for v in op.operands):
        return True  # a constant and a non-constant polynomial sum to a non-constant
    polynomial = express(op.result, run)
    value = None if polynomial is None else polynomial.constant_value()
    if value is None or not fits_int64(value):
        return True
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [make_constant(value)])
    return None


def fold_comparison(op, rewriter, run: FactStore):
    """Int comparison of two polynomials differing by a constant."""
    if any(is_constant(v) for v in op.operands):
        return True  # the C++ folders' and fold_sign_comparison's case
    cache: dict = {}
    lhs, rhs = (express(v, run, cache) for v in op.operands)
    if lhs is None or rhs is None:
        return True
    difference = (lhs - rhs).constant_value()
    if difference is None:
        return True
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [make_constant(INT_COMPARISONS[op.operation.name](difference, 0))])
    return None


def patterns(options, run: FactStore) -> list:
    found = [(name, functools.partial(fold_arithmetic, run=run)) for name in _ARITHMETIC]
    found += [(name, functools.partial(fold_comparison, run=run)) for name in INT_COMPARISONS]
    return [*found, ("torch.aten.size.int", functools.partial(size_from_symbols, run=run))]
