"""Symbolic dims in calculations: sizes of ops with recorded dims become arithmetic on
the function's argument dims, and int arithmetic that cancels them folds.

`(s*256) // (s*64)` is 4 and `(s*256) % (s*64)` is 0 for every `s` for which they do not
raise, so a view's inferred `-1` dim is found on a dynamic batch. A comparison folds only
when the two sides differ by a constant: different polynomials may still be equal at run
time.
"""

from __future__ import annotations

from torch_mlir import ir

from torch_refine.calculations.dim_facts import express, function_argument, tensor_dims
from torch_refine.ir.constants import is_constant, make_constant
from torch_refine.ir.polynomial import Polynomial, parse_polynomial
from torch_refine.patterns.scalars import size_int_dim


def size_from_symbols(op, rewriter):
    """`aten.size.int(x, d)` where the op producing `x` recorded dim d as a polynomial:
    that polynomial, computed from `aten.size.int` of function arguments; of an argument
    whose bind makes the dim a constant (export specialized it): that constant."""
    tensor = op.operands[0]
    found = size_int_dim(op)
    if found is None or found[0].sizes[found[1]] is not None:
        return True  # static: fold_size_int's
    info, dim = found
    dims = tensor_dims(tensor)
    if dims is None or len(dims) != info.rank or not dims[dim]:
        return True
    polynomial = parse_polynomial(dims[dim])
    if function_argument(tensor) is not None and polynomial.constant_value() is None:
        return True  # an argument's size is its own symbol: nothing simpler
    arguments = _function_of(op).regions[0].blocks[0].arguments
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [materialize(polynomial, arguments)])
    return None


def _function_of(op):
    parent = op.operation.parent
    while parent.operation.name != "func.func":
        parent = parent.operation.parent
    return parent


def materialize(polynomial: Polynomial, arguments) -> ir.Value:
    """`polynomial` in int ops on `aten.size.int` of the function `arguments` (its entry
    block arguments), built at the current insertion point and location."""
    int_type = ir.Type.parse("!torch.int")

    def binary(name, lhs, rhs):
        return ir.Operation.create(name, results=[int_type], operands=[lhs, rhs]).result

    total = None
    for monomial, coefficient in polynomial.terms.items():
        term = None if coefficient == 1 and monomial else make_constant(coefficient)
        for argument, dim, divisor in monomial:
            size = binary("torch.aten.size.int", arguments[argument], make_constant(dim))
            if divisor != 1:
                size = binary("torch.aten.floordiv.int", size, make_constant(divisor))
            term = size if term is None else binary("torch.aten.mul.int", term, size)
        total = term if total is None else binary("torch.aten.add.int", total, term)
    return make_constant(0) if total is None else total


# Ops whose result can be a constant when both operands are not (a product of two
# non-constant polynomials never is).
_ARITHMETIC = (
    "torch.aten.add.int",
    "torch.aten.sub.int",
    "torch.aten.floordiv.int",
    "torch.aten.remainder.int",
)
_SUMS = ("torch.aten.add.int", "torch.aten.sub.int")
# For a constant difference `lhs - rhs`: the comparison's answer.
_COMPARISONS = {
    "torch.aten.eq.int": lambda d: d == 0,
    "torch.aten.ne.int": lambda d: d != 0,
    "torch.aten.lt.int": lambda d: d < 0,
    "torch.aten.le.int": lambda d: d <= 0,
    "torch.aten.gt.int": lambda d: d > 0,
    "torch.aten.ge.int": lambda d: d >= 0,
}


def fold_arithmetic(op, rewriter):
    """Int arithmetic whose symbolic result is a constant."""
    if op.operation.name in _SUMS and any(is_constant(v) for v in op.operands):
        return True  # a constant and a non-constant polynomial sum to a non-constant
    polynomial = express(op.result)
    value = None if polynomial is None else polynomial.constant_value()
    if value is None:
        return True
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [make_constant(value)])
    return None


def fold_comparison(op, rewriter):
    """Int comparison of two polynomials differing by a constant."""
    if any(is_constant(v) for v in op.operands):
        return True  # the C++ folders' and fold_sign_comparison's case
    cache: dict = {}
    lhs, rhs = (express(v, cache) for v in op.operands)
    if lhs is None or rhs is None:
        return True
    difference = (lhs - rhs).constant_value()
    if difference is None:
        return True
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [make_constant(_COMPARISONS[op.operation.name](difference))])
    return None


def patterns(options) -> list:
    found = [(name, fold_arithmetic) for name in _ARITHMETIC]
    found += [(name, fold_comparison) for name in _COMPARISONS]
    return [*found, ("torch.aten.size.int", size_from_symbols)]
