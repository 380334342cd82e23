"""Identity and constants of IR values: a stable key per operation, the op defining a
value, and `torch.constant.*` values read as Python values or built from them."""

from __future__ import annotations

import ctypes

from torch_mlir import ir

_ptr_of_capsule = ctypes.pythonapi.PyCapsule_GetPointer
_ptr_of_capsule.restype = ctypes.c_void_p
_ptr_of_capsule.argtypes = [ctypes.py_object, ctypes.c_char_p]


def op_key(op) -> int:
    """A stable identity for an operation (hash(Operation) is structural)."""
    return _ptr_of_capsule(op.operation._CAPIPtr, b"torch_mlir.ir.Operation._CAPIPtr")


def defining_op(value: ir.Value):
    """The op producing `value`, or None for a block argument."""
    return value.owner if isinstance(value, ir.OpResult) else None


def defining_name(value: ir.Value) -> str | None:
    op = defining_op(value)
    return None if op is None else op.operation.name


CONSTANT_OPS = frozenset(
    {
        "torch.constant.int",
        "torch.constant.float",
        "torch.constant.bool",
        "torch.constant.str",
        "torch.constant.none",
    }
)


class NotConstant(Exception):
    pass


def constant_value(value: ir.Value):
    """The Python value of a `torch.constant.*` (seen through `torch.derefine`).

    Raises NotConstant otherwise; None is a legitimate constant (`torch.constant.none`).
    """
    op = defining_op(value)
    while op is not None and op.operation.name == "torch.derefine":
        op = defining_op(op.operands[0])
    if op is None or op.operation.name not in CONSTANT_OPS:
        raise NotConstant
    name = op.operation.name
    if name == "torch.constant.none":
        return None
    attr = op.attributes["value"]
    if name == "torch.constant.int":
        return ir.IntegerAttr(attr).value
    if name == "torch.constant.float":
        return ir.FloatAttr(attr).value
    if name == "torch.constant.bool":
        return ir.BoolAttr(attr).value
    return ir.StringAttr(attr).value


def typed_constant(value: ir.Value, python_type: type):
    """The constant `value` is when its Python type is exactly `python_type` (a bool is no
    int), else None."""
    try:
        constant = constant_value(value)
    except NotConstant:
        return None
    return constant if type(constant) is python_type else None


def is_constant(value: ir.Value) -> bool:
    try:
        constant_value(value)
    except NotConstant:
        return False
    return True


def fits_int64(value: int) -> bool:
    """Whether a folded int is a `torch.constant.int` (past int64 it is no constant: the
    op computing it stays, to run as its program says)."""
    return -(2**63) <= value < 2**63


def make_constant(py_value) -> ir.Value:
    """A `torch.constant.*` at the current insertion point and location."""
    if py_value is None:
        return _create("torch.constant.none", "!torch.none", {})
    if isinstance(py_value, bool):
        return _create("torch.constant.bool", "!torch.bool", {"value": ir.BoolAttr.get(py_value)})
    if isinstance(py_value, int):
        attr = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), py_value)
        return _create("torch.constant.int", "!torch.int", {"value": attr})
    if isinstance(py_value, float):
        return _create("torch.constant.float", "!torch.float", {"value": ir.FloatAttr.get_f64(py_value)})
    return _create("torch.constant.str", "!torch.str", {"value": ir.StringAttr.get(py_value)})


def _create(name: str, type_text: str, attributes: dict) -> ir.Value:
    return ir.Operation.create(name, results=[ir.Type.parse(type_text)], attributes=attributes).result


def string_text(value: ir.Value, formatted=None) -> str | None:
    """The text of a constant string, of a concatenation, or of a format string (its
    placeholders left as `{}`, or its text as `formatted(op)` gives it, None: unknown): the
    part of a library message known at compile time. Concatenations are walked with a
    stack (they can chain beyond the recursion limit)."""
    parts = []
    pending = [value]
    while pending:
        value = pending.pop()
        if not isinstance(value, ir.OpResult):
            return None
        op = value.owner.operation
        if op.name == "torch.constant.str":
            parts.append(ir.StringAttr(op.attributes["value"]).value)
        elif op.name == "torch.aten.format" and formatted is not None:
            text = formatted(op)
            if text is None:
                return None
            parts.append(text)
        elif op.name == "torch.aten.format":
            pending.append(op.operands[0])
        elif op.name == "torch.aten.add.str":
            pending.extend(reversed(list(op.operands)))
        else:
            return None
    return "".join(parts)
