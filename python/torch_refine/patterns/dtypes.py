"""Evaluating `torch.promote_dtypes`, and typing `prim.NumToTensor.Scalar` from its scalar."""

from __future__ import annotations

from torch_mlir import ir

from torch_refine.library.promotion import promote_dtypes
from torch_refine.patterns.lists import constant_elements
from torch_refine.patterns.scalars import scalar_dtype_code
from torch_refine.refinement import make_constant, refine_value
from torch_refine import types


class PromotionError(Exception):
    pass


def evaluate_promotion(op) -> int | None:
    """The promoted dtype code once both operand lists are constant literals, else None.

    Raises PromotionError when promotion is undefined for these dtypes (the library's
    RaiseException): the caller reports it at the op.
    """
    ranks = constant_elements(op.operands[0])
    dtypes = constant_elements(op.operands[1])
    if ranks is None or dtypes is None or len(ranks) != len(dtypes):
        return None
    try:
        return promote_dtypes(ranks, dtypes)
    except AssertionError as error:
        raise PromotionError(str(error)) from error


def fold_promote_dtypes(op, rewriter):
    try:
        code = evaluate_promotion(op)
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


def patterns(options) -> list:
    return [
        ("torch.promote_dtypes", fold_promote_dtypes),
        ("torch.prim.NumToTensor.Scalar", refine_num_to_tensor),
    ]
