"""Ranges of symbolic sizes: what a program says of its dynamic dims.

Imported with symbolic shape expressions, a program states the range torch.export gave
each dynamic dim: `torch.symbolic_int "s0" {min_val = 2, max_val = 64}`, bound to argument
dims by `torch.bind_symbolic_shape`. torch.export only accepts inputs in those ranges (its
program checks them), so a calculation may rely on them: `seq >= 64` is false when the
sequence length is at most 32 (a slice of a 64-long buffer keeps the symbol), `batch != 1`
is true when the batch is at least 2 (a broadcast keeps the batch). Every other size is
at least 0.

A memo key of a calculation that may read ranges carries its function's
`range_signature`: functions whose symbols have other ranges do not share results.
"""

from __future__ import annotations

import operator

from torch_mlir import ir

from torch_refine.calculations import facts
from torch_refine.calculations.dim_facts import bound_expression, function_argument
from torch_refine.ir import types
from torch_refine.ir.constants import op_key
from torch_refine.ir.polynomial import Polynomial, Symbol, is_computed

Range = tuple[int, int | None]  # (least, greatest or None when unbounded)
_SIZE = (0, None)
# torch.export's unbounded max (int_oo) is imported as a huge number.
_UNBOUNDED = 2**62


def enclosing_function(op):
    """The `func.func` an op is nested in, or None."""
    parent = op.operation.parent
    while parent is not None and parent.name != "func.func":
        parent = parent.parent
    return parent


def symbol_range(entry_block: ir.Block, symbol: Symbol) -> Range:
    """A symbol's range as the program states it (`_stated_range`), narrowed by the
    comparisons asserted at the function's entry (`facts.add_range`)."""
    least, greatest = _stated_range(entry_block, symbol)
    if not facts.has_ranges():
        return least, greatest
    asserted = facts.asserted_range(op_key(entry_block.owner), symbol)
    if asserted is None:
        return least, greatest
    low, high = asserted
    return max(least, low), high if greatest is None else greatest if high is None else min(greatest, high)


def _stated_range(entry_block: ir.Block, symbol: Symbol) -> Range:
    """The range of an argument dim over its divisor (polynomial.Symbol): its bind's
    expression over `torch.symbolic_int`s (a symbol, or sums and products of symbols and
    constants, as `s0 * 8` for an image size exported as a multiple of 8) divided."""
    argument_number, dim, divisor = symbol
    if is_computed(symbol):
        return _computed_range(entry_block, symbol)
    if argument_number >= len(entry_block.arguments):
        return _SIZE
    bound = bound_expression(entry_block.arguments[argument_number], dim)
    if bound is None:
        return _SIZE
    bind, expression = bound
    least, greatest = _expression_range(expression, list(bind.operands)[1:])
    least = -(-max(least, 0) // divisor)
    return least, None if greatest is None else greatest // divisor


def _computed_range(entry_block: ir.Block, symbol: Symbol) -> Range:
    """A fresh symbol is a size; a select is within both sides' ranges; a floor division
    within its dividend's divided."""
    definition = facts.definition(symbol)
    if definition is None:
        return _SIZE
    if definition[0] == facts.FLOOR_DIVIDE:
        _, dividend, divisor = definition
        low, high = polynomial_range(dividend, entry_block)
        return (0 if low is None else max(0, low // divisor)), None if high is None else high // divisor
    (low_a, high_a), (low_b, high_b) = (polynomial_range(p, entry_block) for p in definition[2:])
    least = 0 if low_a is None or low_b is None else max(0, min(low_a, low_b))
    greatest = None if high_a is None or high_b is None else max(high_a, high_b)
    return least, greatest


def _expression_range(expression, symbols: list) -> Range:
    if isinstance(expression, ir.AffineConstantExpr):
        return expression.value, expression.value
    if isinstance(expression, ir.AffineSymbolExpr):
        return _symbolic_int_range(symbols[expression.position])
    if not isinstance(expression, (ir.AffineAddExpr, ir.AffineMulExpr)):
        return _SIZE
    (lhs_low, lhs_high), (rhs_low, rhs_high) = (
        _expression_range(e, symbols) for e in (expression.lhs, expression.rhs))
    if lhs_low < 0 or rhs_low < 0:
        return _SIZE  # only sizes, whose parts are never negative
    if isinstance(expression, ir.AffineAddExpr):
        combine = operator.add
    else:
        combine = operator.mul
    high = None if lhs_high is None or rhs_high is None else combine(lhs_high, rhs_high)
    return combine(lhs_low, rhs_low), high


def _symbolic_int_range(value: ir.Value) -> Range:
    if not isinstance(value, ir.OpResult) or value.owner.name != "torch.symbolic_int":
        return _SIZE
    attributes = value.owner.attributes
    least = max(ir.IntegerAttr(attributes["min_val"]).value, 0)
    greatest = ir.IntegerAttr(attributes["max_val"]).value
    return least, None if greatest >= _UNBOUNDED else greatest


def polynomial_range(polynomial: Polynomial, entry_block: ir.Block | None, within: dict | None = None) -> tuple:
    """(least, greatest) of a polynomial over sizes, None for an unbounded side; without
    an entry block every symbol is a plain size; `within` narrows some symbols' ranges."""
    least, greatest = 0, 0
    for monomial, coefficient in polynomial.terms.items():
        low, high = 1, 1
        zero = False  # a factor that is always 0 makes the term 0, however large the rest
        for symbol in monomial:
            if within is not None and symbol in within:
                symbol_low, symbol_high = within[symbol]
            else:
                symbol_low, symbol_high = _SIZE if entry_block is None else symbol_range(entry_block, symbol)
            zero = zero or symbol_low == symbol_high == 0
            low *= symbol_low
            high = None if high is None or symbol_high is None else high * symbol_high
        if zero:
            low = high = 0
        if coefficient < 0:
            low, high = (None if high is None else coefficient * high), coefficient * low
        else:
            low, high = coefficient * low, None if high is None else coefficient * high
        least = None if least is None or low is None else least + low
        greatest = None if greatest is None or high is None else greatest + high
    return least, greatest


def range_signature(function) -> tuple:
    """Every argument dim's range that is not a plain size's, in argument order, and the
    ranges asserted comparisons give (`facts.range_items`)."""
    if function is None:
        return ()
    entry = function.regions[0].blocks[0]
    found: list = [facts.range_items(op_key(function))] if facts.has_ranges() else []
    for argument in entry.arguments:
        for use in argument.uses:
            if use.owner.name == "torch.bind_symbolic_shape" and use.operand_number == 0:
                found.append((function_argument(argument), _bound_ranges(entry, argument)))
                break
    return tuple(found)


def _bound_ranges(entry: ir.Block, argument: ir.BlockArgument) -> tuple:
    info = types.parse(argument.type)
    rank = 0 if info is None or info.rank is None else info.rank
    return tuple(symbol_range(entry, (argument.arg_number, dim, 1)) for dim in range(rank))
