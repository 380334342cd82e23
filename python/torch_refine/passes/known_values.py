"""Ints the program reads out of tensors, folded where refinement knows them.

An ONNX import reads its sizes with `aten.item` of small int tensors
(calculations/contents.py). Where such an int is a constant, or a polynomial over the
function's argument dims, it is replaced by that constant or by `aten.size.int`
arithmetic on the arguments: a backend then sees `reshape(x, [size(x, 0), 16, 4, 8])`, and
the tensor computations that produced the sizes are left unused (and erased with the
rest at clean-up). torch-mlir's linalg conversion has no lowering for most of them.
"""

from __future__ import annotations

from torch_mlir import ir

from torch_refine.calculations import contents, dim_facts
from torch_refine.calculations.purity import erase_if_dead
from torch_refine.calculations.ranges import enclosing_function
from torch_refine.ir import types
from torch_refine.ir.constants import defining_op, make_constant, typed_constant
from torch_refine.ir.polynomial import is_computed
from torch_refine.patterns.symbolic import Sizes

TENSOR_READS = ("torch.aten.item", "torch.aten.Int.Tensor", "torch.aten.IntImplicit")
_BOOL_CONDITION = "!torch.vtensor<[],i1>"
_CREATION_OPS = ("torch.aten.zeros", "torch.aten.ones", "torch.aten.empty.memory_format", "torch.aten.full")


def negative_size_note(op) -> str:
    """What to add to a failed check of an op creating a tensor of a literal size -1:
    torch-mlir's ONNX conversion writes a dynamic dim so (its GRU conversion, for the
    output of a dynamic batch), which no PyTorch kernel accepts."""
    if op.operation.name not in _CREATION_OPS:
        return ""
    sizes = defining_op(op.operands[0])
    if sizes is None or sizes.operation.name != "torch.prim.ListConstruct":
        return ""
    negative = [i for i, size in enumerate(sizes.operands) if typed_constant(size, int) == -1]
    if not negative:
        return ""
    return (f" (size {negative[0]} is the literal -1: torch-mlir's convert-torch-onnx-to-torch writes a "
            "dynamic dim so, as its GRU conversion does for a dynamic batch; PyTorch creates no such "
            "tensor and the program cannot run: export the model with a static batch)")


def type_bool_conditions(module: ir.Operation) -> None:
    """torch-mlir's ONNX conversion writes a `where.self` condition as
    `prim.NumToTensor.Scalar(aten.Int.bool(b))` typed `[],i1`: a bool tensor by the type
    (PyTorch's op gives int64, which `where` rejects). With that type erased, the only
    meaning under which the program runs is the bool: it gets its type back. Only where
    every use is a condition, so no program PyTorch runs changes meaning."""
    found = []

    def visit(op):
        if op.name == "torch.prim.NumToTensor.Scalar" and _is_bool_condition(op):
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    for op in found:
        op.results[0].set_type(ir.Type.parse(_BOOL_CONDITION))


def _is_bool_condition(op) -> bool:
    producer = defining_op(op.operands[0])
    if producer is None or producer.operation.name != "torch.aten.Int.bool":
        return False
    info = types.parse(op.results[0].type)
    if info is None or info.dtype is not None:
        return False
    uses = list(op.results[0].uses)
    return bool(uses) and all(use.owner.operation.name == "torch.aten.where.self" and use.operand_number == 0
                              for use in uses)


def fold_tensor_reads(module: ir.Operation) -> None:
    """Replace each int read out of a tensor whose value is known (a constant or sizes of
    the function's arguments), and each `prim.tolist` of such a vector, by that value."""
    found, floats = [], []

    def visit(op):
        if op.name in TENSOR_READS and str(op.results[0].type) == "!torch.int":
            found.append(op)
        elif op.name == "torch.prim.tolist" and str(op.results[0].type) == "!torch.list<int>":
            found.append(op)
        elif op.name == "torch.aten.item" and str(op.results[0].type) == "!torch.float":
            floats.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    cache: dict = {}
    folded = []
    for op in found:
        polynomials = _known_ints(op, cache)
        if polynomials is None or any(is_computed(s) for p in polynomials for s in p.symbols()):
            continue
        sizes = Sizes(enclosing_function(op).regions[0].blocks[0].arguments)
        with ir.InsertionPoint(op), op.location:
            values = [make_constant(p.constant_value()) if p.constant_value() is not None else sizes.int(p)
                      for p in polynomials]
            if op.name == "torch.prim.tolist":
                values = [ir.Operation.create("torch.prim.ListConstruct", results=[op.results[0].type],
                                              operands=values).result]
        op.results[0].replace_all_uses_with(values[0])
        folded.append(op)
    for op in floats:
        value = _float_element(op.operands[0])
        if value is None:
            continue
        with ir.InsertionPoint(op), op.location:
            op.results[0].replace_all_uses_with(make_constant(value))
        folded.append(op)
    erase_if_dead(folded, lambda op: _known_tensor_op(op, cache) or _is_float_read(op))


def _is_float_read(op) -> bool:
    """A float literal or a `select.int` of one (`_float_element`): nothing that can fail."""
    name = op.operation.name
    return name == "torch.vtensor.literal" or (name == "torch.aten.select.int" and
                                               _float_element(op.operation.results[0]) is not None)


def _float_element(value: ir.Value) -> float | None:
    """An element `select.int` picks out of a float vector literal (ONNX Resize's scales)."""
    select = defining_op(value)
    if select is None or select.operation.name != "torch.aten.select.int":
        return None
    literal = defining_op(select.operands[0])
    if literal is None or literal.operation.name != "torch.vtensor.literal":
        return None
    attribute = literal.attributes["value"]
    if not isinstance(attribute, ir.DenseFPElementsAttr) or len(ir.ShapedType(attribute.type).shape) != 1:
        return None
    dim, index = typed_constant(select.operands[1], int), typed_constant(select.operands[2], int)
    size = ir.ShapedType(attribute.type).shape[0]
    if dim not in (0, -1) or not isinstance(index, int) or not -size <= index < size:
        return None
    return float(attribute.get_splat_value().value if attribute.is_splat else attribute[index % size])


def _known_ints(op, cache: dict) -> list | None:
    """The polynomial an int read gives, or those of the elements `prim.tolist` lists."""
    if op.name != "torch.prim.tolist":
        polynomial = dim_facts.express(op.results[0], cache)
        return None if polynomial is None else [polynomial]
    if len(op.operands) != 1:
        return None
    known = contents.Reader(dim_facts.express, dim_facts.tensor_dims, cache).contents(op.operands[0])
    if known is None or len(known.shape) != 1 or None in known.elements:
        return None
    return list(known.elements)


def _known_tensor_op(op, cache: dict) -> bool:
    """A tensor op on small int tensors whose contents are known (so it cannot fail)."""
    if op.operation.name not in contents.HANDLED or len(op.operation.results) != 1:
        return False
    reader = contents.Reader(dim_facts.express, dim_facts.tensor_dims, cache)
    return reader.contents(op.operation.results[0]) is not None
