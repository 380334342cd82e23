"""Erasing tensor types to `!torch.vtensor` while keeping the IR valid.

Used to test refinement on real models (erase, then refine, then compare), by
re-specialization, and by control-flow propagation to reset the types derived inside a
loop body. Every use that does not allow type refinement gets a cast to the type it
requires: the signature's type at `func.return`, the parent's type at region yields and
loop inits, the old type anywhere else (calls, list and tuple construction, ...).
"""

from __future__ import annotations

import re

from torch_mlir import ir

from torch_refine.ir import types
from torch_refine.ir.retype import OPAQUE_CAST, allows_type_refinement, cast, cast_source


def erase_tensor_types(module_op: ir.Operation, keep_arguments: bool = True) -> None:
    """Erase every intermediate tensor type in every function of the module.

    With keep_arguments=False the entry-block arguments and the function_type inputs are
    erased too (callers are not adjusted: meant for modules without internal calls).
    """
    for func in module_op.regions[0].blocks[0].operations:
        if func.operation.name != "func.func" or not len(func.regions[0].blocks):
            continue
        erase_types_below(func, keep_entry_arguments=keep_arguments)
        if not keep_arguments:
            _erase_signature_inputs(func)


def erase_types_below(op, keep_entry_arguments: bool = True, keep=None) -> None:
    """Erase the tensor types of every value defined inside `op`'s regions.

    keep_entry_arguments keeps the arguments of `op`'s own entry blocks (a function's
    signature, a loop's carried values); nested regions are always erased. `keep(value)`
    spares values whose type gives their op its meaning.
    """
    values: list[ir.Value] = []
    for region in op.regions:
        for block_number, block in enumerate(region.blocks):
            skip = keep_entry_arguments and block_number == 0
            _collect_block(block, values, collect_arguments=not skip)
    erase_value_types(values, op, keep)


def erase_value_types(values: list[ir.Value], root, keep=None) -> None:
    """Erase the tensor types of `values` (but those `keep(value)` spares); users that need
    the old type get casts, and the region edges under `root` (an op enclosing every value
    and use) are fixed."""
    erased: list[tuple[ir.Value, ir.Type]] = []
    for value in values:
        new_type = erased_type(value.type)
        if new_type is None or _pins_container_type(value) or (keep is not None and keep(value)):
            continue
        erased.append((value, value.type))
        value.set_type(new_type)
    for value, old_type in erased:
        _cast_strict_uses(value, old_type)
    _fix_edges(root)


def _pins_container_type(value: ir.Value) -> bool:
    """Whether a list, tuple or optional holding tensors must keep its type: no cast makes
    a container's element types more precise again, so a user needing the old type (a
    call, a return) keeps the value as it is. `prim.ListUnpack` takes the erased list (its
    results are erased too)."""
    if types.parse(value.type) is not None:
        return False
    return any(not allows_type_refinement(use.owner.operation.name)
               and use.owner.operation.name not in _CONTAINER_TAKERS for use in value.uses)


# Users of a container that take it with its element types erased.
_CONTAINER_TAKERS = frozenset({"torch.prim.ListUnpack"})


def retype(value: ir.Value, new_type: ir.Type) -> None:
    """Give `value` a new type; users that take no other type than the old one (a call's
    operand) get a cast to it. Region edges (returns, yields) are left to _fix_edges."""
    old_type = value.type
    value.set_type(new_type)
    _cast_strict_uses(value, old_type)


def _cast_strict_uses(value: ir.Value, old_type: ir.Type) -> None:
    for use in list(value.uses):
        name = use.owner.operation.name
        if allows_type_refinement(name) or name in _EDGE_USERS or name in _CONTAINER_TAKERS:
            continue
        _cast_operand(use.owner, use.operand_number, required_type(use, old_type))


# Users whose operand types must equal a type stated elsewhere (the parent's results, the
# loop's block arguments, the signature): fixed after erasure whatever the operand is.
_EDGE_USERS = frozenset(
    {
        "func.return",
        "torch.prim.If.yield",
        "torch.prim.Loop.condition",
        "torch.prim.Loop",
        "torch.shape.calculate.yield",
        "torch.dtype.calculate.yield",
    }
)


def _fix_edges(root) -> None:
    users = []

    def visit(op):
        if op.name in _EDGE_USERS:
            users.append(op)
        return ir.WalkResult.ADVANCE

    root.operation.walk(visit)
    for user in users:
        for use_number, operand in enumerate(list(user.operands)):
            if types.parse(operand.type) is None:
                continue
            required = _edge_type(user, use_number)
            if required is not None:
                _cast_operand(user, use_number, required)


def _edge_type(user, number: int) -> ir.Type | None:
    name = user.name
    parent = user.parent
    if name == "func.return":
        return ir.FunctionType(ir.TypeAttr(parent.attributes["function_type"]).value).results[number]
    if name == "torch.prim.Loop":
        return user.regions[0].blocks[0].arguments[number - 1].type if number >= 2 else None
    if name == "torch.prim.Loop.condition":
        return user.block.arguments[number].type if number >= 1 else None
    return parent.results[number].type


def _cast_operand(user, number: int, required: ir.Type) -> None:
    """Give the use the required type, by one cast from the source of the casts before
    it: one of them may state a type the erased value no longer has."""
    operand = user.operands[number]
    if operand.type == required:
        return
    source = cast_source(operand)
    with ir.InsertionPoint(user), user.location:
        user.operands[number] = source if source.type == required else cast(source, required)
    erase_unused_casts(operand)


def erase_unused_casts(value: ir.Value) -> None:
    """Erase the chain of static-info casts ending at `value` as far as nothing uses it."""
    while (isinstance(value, ir.OpResult) and value.owner.name == "torch.tensor_static_info_cast"
           and not len(list(value.uses)) and OPAQUE_CAST not in value.owner.attributes):
        producer = value.owner
        value = producer.operands[0]
        producer.operation.erase()


def _collect_block(block: ir.Block, values: list, collect_arguments: bool) -> None:
    """The values of the block and its nested blocks, with a worklist: input IR can nest
    regions deeper than Python's recursion limit."""
    if collect_arguments:
        values.extend(block.arguments)
    pending = [block]
    while pending:
        for op in pending.pop().operations:
            if op.operation.name not in _SIGNATURE_RESULTS:
                values.extend(op.results)
            for region in op.regions:
                for inner in region.blocks:
                    values.extend(inner.arguments)
                    pending.append(inner)


# A tensor type nested in an aggregate (list, optional, tuple): `vtensor<[2,3],complex<f32>>`.
_NESTED_TENSOR = re.compile(r"(v?tensor)<(?:\[[^\]]*\]|\*),[^<>]*(?:<[^<>]*>)?>")


def erased_type(type_: ir.Type) -> ir.Type | None:
    """The type with every tensor type in it erased; None when nothing changes."""
    info = types.parse(type_)
    if info is not None:
        return None if info.is_unknown else types.to_type(types.erased(info))
    text = str(type_)
    erased = _NESTED_TENSOR.sub(r"\1", text)
    return None if erased == text else ir.Type.parse(erased)


# Ops whose result types are fixed elsewhere: by a signature (the callee's) or by the op's
# own attributes (a literal's type is inferred from its value; erasing it fails to verify).
_SIGNATURE_RESULTS = frozenset({"func.call", "torch.vtensor.literal"})


def required_type(use, old_type: ir.Type) -> ir.Type:
    """The type a user that does not allow refinement needs at this operand."""
    owner = use.owner
    name = owner.operation.name
    number = use.operand_number
    parent = owner.operation.parent
    if name == "func.return":
        return ir.FunctionType(ir.TypeAttr(parent.attributes["function_type"]).value).results[number]
    if name in ("torch.prim.If.yield", "torch.shape.calculate.yield", "torch.dtype.calculate.yield"):
        return parent.results[number].type
    if name == "torch.prim.Loop.condition":
        return owner.operation.block.arguments[number].type
    if name == "torch.prim.Loop" and number >= 2:
        return owner.regions[0].blocks[0].arguments[number - 1].type
    if name == "torch.prim.ListConstruct":
        return ir.Type.parse(_list_element(str(owner.result.type)))
    return old_type


def _list_element(list_text: str) -> str:
    inner = list_text[len("!torch.list<") : -1]
    return inner if inner.startswith("!") else "!torch." + inner


def _erase_signature_inputs(func) -> None:
    function_type = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
    inputs = [a.type for a in func.regions[0].blocks[0].arguments]
    func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(inputs, function_type.results))
