"""Evaluating `torch.promote_dtypes`, and typing `prim.NumToTensor.Scalar` from its scalar."""

from __future__ import annotations

import functools
import itertools

from torch_refine.calculations.lists import LiteralsMemo, literal_elements
from torch_refine.calculations.store import FactStore
from torch_refine.ir import types
from torch_refine.ir.constants import NotConstant, constant_value, make_constant
from torch_refine.ir.retype import refine_value
from torch_refine.library.promotion import promote_dtypes
from torch_refine.patterns.lists import constant_elements
from torch_refine.patterns.scalars import scalar_dtype_code

# A tensor of unknown rank promotes either as a zero-rank tensor or as a dim tensor; with
# at most this many such tensors every combination is tried.
_MAX_UNKNOWN_RANKS = 6


class PromotionError(Exception):
    pass


def evaluate_promotion(op, memo: LiteralsMemo | None = None) -> int | None:
    """The promoted dtype code once the dtypes are constants and the ranks known enough.

    A rank that is not a constant belongs to a tensor of unknown rank: the result is known
    when promoting it as a zero-rank and as a dim tensor agree (e.g. equal dtypes).

    Raises PromotionError when promotion is undefined for these dtypes (the library's
    RaiseException): the caller reports it at the op.
    """
    rank_choices = _rank_choices(op.operands[0], memo)
    dtypes = constant_elements(op.operands[1], memo)
    if rank_choices is None or dtypes is None or len(rank_choices) != len(dtypes):
        return None
    outcomes = {_promote_or_error(list(ranks), dtypes) for ranks in itertools.product(*rank_choices)}
    if len(outcomes) != 1:
        return None  # the result depends on a rank we do not know
    outcome = outcomes.pop()
    if isinstance(outcome, str):
        raise PromotionError(outcome)
    return outcome


def _rank_choices(ranks_list, memo: LiteralsMemo | None) -> list[tuple] | None:
    """Per operand, the ranks it may have: a constant (None for a scalar), or 0 and 1."""
    elements = literal_elements(ranks_list, memo)
    if elements is None:
        return None
    choices = []
    for element in elements:
        try:
            choices.append((constant_value(element),))
        except NotConstant:
            choices.append((0, 1))
    if sum(len(c) > 1 for c in choices) > _MAX_UNKNOWN_RANKS:
        return None
    return choices


def _promote_or_error(ranks: list, dtypes: list) -> int | str:
    try:
        return promote_dtypes(ranks, dtypes)
    except AssertionError as error:
        return str(error)


def fold_promote_dtypes(op, rewriter, run: FactStore):
    try:
        code = evaluate_promotion(op, run.unmutated_literals)
    except PromotionError:
        return True  # left for the driver to report
    if code is None:
        return True
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [make_constant(code)])
    return None


def refine_num_to_tensor(op, rewriter):
    """`prim.NumToTensor.Scalar` of an int/float/bool is a zero-rank si64/f64/i1 tensor."""
    code = scalar_dtype_code(op.operands[0])
    info = types.parse(op.result.type)
    if code is None or info is None:
        return True
    refined = types.meet(info, types.TensorInfo((), types.DTYPE_TO_ELEMENT[code], info.value_semantics))
    if refined is None or refined == info:
        return True
    refine_value(op.result, types.to_type(refined), op)
    return None


def patterns(options, run: FactStore) -> list:
    return [
        ("torch.promote_dtypes", functools.partial(fold_promote_dtypes, run=run)),
        ("torch.prim.NumToTensor.Scalar", refine_num_to_tensor),
    ]
