"""Evaluating the einsum plan (`torch.operator "torch_refine.einsum_plan"`) of a constant
equation with the library's own parser, `einsum_equation.einsum_plan`."""

from __future__ import annotations

from torch_mlir import ir

from torch_refine.calculations.store import FactStore
from torch_refine.ir.constants import NotConstant, constant_value, make_constant
from torch_refine.library.einsum_equation import EINSUM_PLAN_OPERATOR, einsum_plan


def is_einsum_plan(op) -> bool:
    if op.operation.name != "torch.operator":
        return False
    return ir.StringAttr(op.attributes["name"]).value == EINSUM_PLAN_OPERATOR


def fold_einsum_plan(op, rewriter):
    """The plan as a literal of int literals; an equation PyTorch rejects becomes a raise
    of PyTorch's message (reported at the einsum op) and an unknown plan."""
    if not is_einsum_plan(op):
        return True
    try:
        equation = constant_value(op.operands[0])
    except NotConstant:
        return True
    if not isinstance(equation, str):
        return True
    try:
        plan = einsum_plan(equation)
    except AssertionError as error:
        with rewriter.ip, op.location:
            message = make_constant(f"AssertionError: {error}")  # as the library's raises read
            ir.Operation.create("torch.prim.RaiseException", operands=[message, make_constant(None)])
            unknown = ir.Operation.create("torch.prim.Uninitialized", results=[op.result.type]).result
        rewriter.replace_op(op, [unknown])
        return None
    with rewriter.ip, op.location:
        int_list = ir.Type.parse("!torch.list<int>")
        terms = [
            ir.Operation.create("torch.prim.ListConstruct", results=[int_list],
                                operands=[make_constant(label) for label in labels]).result
            for labels in plan
        ]
        literal = ir.Operation.create("torch.prim.ListConstruct", results=[op.result.type], operands=terms)
    rewriter.replace_op(op, [literal.result])
    return None


def patterns(options, run: FactStore) -> list:
    return [("torch.operator", fold_einsum_plan)]
