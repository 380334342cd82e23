"""Changing the type of a value in place while keeping the IR valid.

MLIR's `AllowsTypeRefinement` trait cannot be queried from Python, so which users accept
a more precise operand type is a static allow-list here (`allows_type_refinement`).
Every other user keeps the type it was built with through a cast back to the old type:
`torch.tensor_static_info_cast` for tensors, `torch.derefine` for `!torch.number`.
Region terminators whose operand types must equal their parent's result types
(calculate yields, `prim.If.yield`, `prim.Loop.condition`) are in the deny side too, so
refining a value yielded out of a region never breaks the region-branch verifier.
"""

from __future__ import annotations

from torch_mlir import ir

from torch_refine.ir import types

# Users that accept a more precise operand type (they have AllowsTypeRefinement in
# torch-mlir, or only read sizes/dtype). Deny everything else, in particular
# func.return, func.call, torch.prim.If.yield, torch.prim.Loop.condition, torch.prim.Loop
# (init operands), torch.prim.TupleConstruct (the tuple type names each element type),
# torch.operator (opaque), and the calculate yields. A `!torch.list<vtensor>` takes
# elements of any refined vtensor type (the FX importer emits exactly that).
_REFINABLE_PREFIXES = ("torch.aten.", "torch.prims.", "torch.quantized_decomposed.", "torch.onnx.")
_REFINABLE_OPS = frozenset(
    {
        "torch.tensor_static_info_cast",
        "torch.copy.to_tensor",
        "torch.prim.dtype",
        "torch.prim.device",
        "torch.prim.layout",
        "torch.prim.NumToTensor.Scalar",
        "torch.prim.abs.Scalar",
        "torch.prim.ListConstruct",
        "torch.bind_symbolic_shape",  # any tensor: it binds the dims, whatever the type says
    }
)


def allows_type_refinement(op_name: str) -> bool:
    return op_name.startswith(_REFINABLE_PREFIXES) or op_name in _REFINABLE_OPS


def result_allows_refinement(op_name: str) -> bool:
    """Whether an op's own result types may become more precise: the ops above,
    `torch.operator`, whose results mean what its library functions say (opaque only as a
    user), and `prim.ListUnpack`, whose results are the pieces of a tensor list (its
    verifier ties no result type to the list's element type)."""
    return allows_type_refinement(op_name) or op_name in ("torch.operator", "torch.prim.ListUnpack")


def accepts(use, new_type: ir.Type) -> bool:
    """Whether the user of `use` stays valid when the operand becomes `new_type`.

    A static-info cast accepts only a type compatible with its result (a loop back edge
    cast to an assumed type may disagree with what the body now computes); a copy to a
    non-value tensor only its result's own sizes and dtype (its verifier ties them).
    """
    owner = use.owner
    name = owner.operation.name
    if not allows_type_refinement(name):
        return False
    if name == "torch.copy.to_tensor":  # its result type is its operand's, without value semantics
        new_info, target = types.parse(new_type), types.parse(owner.result.type)
        return new_info is not None and target is not None and (new_info.sizes, new_info.dtype) == (
            target.sizes, target.dtype)
    if name != "torch.tensor_static_info_cast":
        return True
    new_info, target = types.parse(new_type), types.parse(owner.result.type)
    return new_info is None or target is None or types.meet(new_info, target) is not None


def tensor_info(value: ir.Value) -> types.TensorInfo | None:
    return types.parse(value.type)


# A static-info cast with this attribute hides its source's type on purpose: a loop's
# result whose type is an assumption not yet checked (engine/propagate.py).
OPAQUE_CAST = "torch_refine.loop_assumption"


def cast_source(value: ir.Value) -> ir.Value:
    """The value the static-info casts producing `value` start from, stopping at an opaque
    cast: the same tensor, whatever each cast states."""
    while (isinstance(value, ir.OpResult) and value.owner.operation.name == "torch.tensor_static_info_cast"
           and OPAQUE_CAST not in value.owner.attributes):
        value = value.owner.operands[0]
    return value


def most_precise_alias(value: ir.Value) -> ir.Value:
    """`value`, or the source of the `tensor_static_info_cast`s producing it while each
    source says at least what its cast says: the same tensor, typed better (the casts
    that keep a `torch.operator` user's operand type hide the refined type from it). An
    opaque cast (`OPAQUE_CAST`) is never looked through."""
    while isinstance(value, ir.OpResult) and value.owner.operation.name == "torch.tensor_static_info_cast":
        if OPAQUE_CAST in value.owner.attributes:
            return value
        source = value.owner.operands[0]
        source_info, cast_info = types.parse(source.type), types.parse(value.type)
        if source_info is None or cast_info is None or not types.is_at_least_as_precise(source_info, cast_info):
            return value
        value = source
    return value


def refine_value(value: ir.Value, new_type: ir.Type, insert_after) -> None:
    """Give `value` the type `new_type`; users that do not allow it get a cast to the old type.

    `insert_after` is the op after which the cast goes (the producer, or for a block
    argument None: the cast goes at the start of the block).
    """
    old_type = value.type
    if old_type == new_type:
        return
    keep = [use for use in value.uses if not accepts(use, new_type)]
    value.set_type(new_type)
    if not keep:
        return
    cast = _cast_back(value, old_type, insert_after)
    for use in keep:
        use.owner.operands[use.operand_number] = cast


def _cast_back(value: ir.Value, old_type: ir.Type, insert_after) -> ir.Value:
    if insert_after is None:
        block = value.owner
        ip = ir.InsertionPoint.at_block_begin(block)
    else:
        ip = ir.InsertionPoint.after(insert_after)
    location = insert_after.location if insert_after is not None else ir.Location.unknown()
    with ip, location:
        return cast(value, old_type)


def cast(value: ir.Value, to_type: ir.Type) -> ir.Value:
    """A static-info cast (tensors) or derefine (scalars) of `value` to `to_type`."""
    name = "torch.tensor_static_info_cast" if types.parse(to_type) is not None else "torch.derefine"
    return ir.Operation.create(name, results=[to_type], operands=[value]).result
