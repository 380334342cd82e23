"""The calling convention of library functions: how an op's operand of one type is passed as a
parameter of another, one step at a time (`passing`). Reify builds each step in IR
(`reify._Builder.adapt`); the evaluator computes it on values (`evaluator_arguments._argument`).
"""

from __future__ import annotations

import enum

from torch_refine.ir.types import is_tensor_type_text


class Step(enum.Enum):
    SAME = "the value as it is"
    NONE = "None for an optional parameter"
    OPTIONAL = "a present value: passed as the optional's inner type"
    UNWRAP = "an optional value to another optional: its inner value where present, at run time"
    SIZES = "a tensor to a shape function's list<int>: its sizes"
    RANK_DTYPE = "a tensor to a dtype function's tuple<int, int>: its rank and dtype"
    ELEMENTS = "a list to a list of another element type: element by element"
    TO_FLOAT = "an int or number to a float parameter: converted"
    BOOL_AS_INT = "a bool Scalar (torch.operator only): the int 0/1, then passed on"
    DEREFINE = "a value of a subtype (an int for a number): as the parameter's type"


def passing(value_text: str, parameter_text: str, kind_name: str) -> Step:
    """The step that passes a value typed `value_text` as a `parameter_text` parameter of a
    `kind_name` ("shape" or "dtype") function."""
    if value_text == parameter_text:
        return Step.SAME
    if parameter_text.startswith("!torch.optional<"):
        if value_text == "!torch.none":
            return Step.NONE
        return Step.UNWRAP if value_text.startswith("!torch.optional<") else Step.OPTIONAL
    if is_tensor_type_text(value_text):
        if kind_name == "shape" and parameter_text == "!torch.list<int>":
            return Step.SIZES
        if kind_name == "dtype" and parameter_text == "!torch.tuple<int, int>":
            return Step.RANK_DTYPE
        return Step.DEREFINE
    if value_text.startswith("!torch.list<") and parameter_text.startswith("!torch.list<"):
        return Step.ELEMENTS
    if parameter_text == "!torch.float" and value_text in ("!torch.int", "!torch.number"):
        return Step.TO_FLOAT
    if value_text == "!torch.bool" and parameter_text in ("!torch.float", "!torch.number"):
        return Step.BOOL_AS_INT
    return Step.DEREFINE


def inner_type(text: str) -> str:
    """`!torch.optional<list<int>>` -> `!torch.list<int>` (also for list<...>)."""
    return "!torch." + text[text.index("<") + 1 : -1]
