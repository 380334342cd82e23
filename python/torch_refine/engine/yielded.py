"""What a calculation yields, read as types: the sizes a yielded list literal states (also
through `prim.If`s and `_set_item.t`s), and the dtype a yielded code stands for."""

from __future__ import annotations

from torch_mlir import ir

from torch_refine.calculations.lists import READ_ONLY_USERS
from torch_refine.ir import types
from torch_refine.ir.constants import NotConstant, constant_value, defining_op
from torch_refine.ir.module import completing_yields

_NUMBER_BY_DTYPE = {code: "!torch.int" for code in (0, 1, 2, 3, 4)} | {
    code: "!torch.float" for code in (5, 6, 7, 15)
}


def shape_of_literal(value: ir.Value, yielded_by_if: bool = False) -> types.TensorInfo | None:
    """The sizes a yielded list literal states; `_set_item.t` users clobber elements. An
    If that yields a literal in each branch that completes states the dims the literals
    agree on (the rank, at least, when the calculation could not decide the condition)."""
    producer = defining_op(value)
    if producer is not None and producer.operation.name == "torch.prim.If":
        return _shape_of_if(producer, value)
    if producer is None or producer.operation.name != "torch.prim.ListConstruct":
        return None
    dims: list[int | None] = []
    for element in producer.operands:
        try:
            dim = constant_value(element)
        except NotConstant:
            dim = None
        dims.append(dim if isinstance(dim, int) and dim >= 0 else None)
    for use in value.uses:
        name = use.owner.operation.name
        if name == "torch.aten._set_item.t" and use.operand_number == 0:
            _clobber(dims, use.owner.operands[1])
        elif name not in READ_ONLY_USERS and not (yielded_by_if and name == "torch.prim.If.yield"):
            return None
    return types.TensorInfo(tuple(dims), None)


def with_constant_dims(calculated: list, yielded_dims: list | None) -> list:
    """The calculated shapes with the dims whose polynomials are constants: a size read
    off a static dim outside the calculation (`size.int` of the op's operand, or a value
    read from a shape tensor) is no constant to the folders, but its polynomial is."""
    if yielded_dims is None:
        return calculated
    merged = []
    for fact, dims in zip(calculated, yielded_dims, strict=True):
        if fact is None or fact.sizes is None or len(dims) != len(fact.sizes):
            merged.append(fact)
            continue
        sizes = tuple(size if size is not None or dim is None else dim.constant_value()
                      for size, dim in zip(fact.sizes, dims, strict=True))
        merged.append(types.TensorInfo(sizes, fact.dtype, fact.value_semantics))
    return merged


def _shape_of_if(if_op, value: ir.Value) -> types.TensorInfo | None:
    if any(use.owner.operation.name not in READ_ONLY_USERS for use in value.uses):
        return None
    shapes = [shape_of_literal(terminator.operands[value.result_number], True)
              for terminator in completing_yields(if_op)]
    if not shapes or None in shapes or len({s.rank for s in shapes}) != 1:
        return None
    dims = tuple(d if all(s.sizes[i] == d for s in shapes) else None
                 for i, d in enumerate(shapes[0].sizes))
    return types.TensorInfo(dims, None)


def _clobber(dims: list, index_value: ir.Value) -> None:
    indices = _possible_ints(index_value, depth=0)
    if indices is None or not all(-len(dims) <= i < len(dims) for i in indices):
        dims[:] = [None] * len(dims)
        return
    for index in indices:
        dims[index] = None


def _possible_ints(value: ir.Value, depth: int) -> set[int] | None:
    """The ints `value` may be: a constant, or what the branches of the `prim.If`s it is
    read out of (through casts) yield, None left out (an unchecked cast of None raises);
    None when not known."""
    try:
        constant = constant_value(value)
        return {constant} if isinstance(constant, int) else set() if constant is None else None
    except NotConstant:
        pass
    producer = defining_op(value)
    if producer is None or depth > 8:
        return None
    name = producer.operation.name
    if name in ("torch.prim.unchecked_cast", "torch.derefine"):
        return _possible_ints(producer.operands[0], depth + 1)
    if name != "torch.prim.If":
        return None
    found: set[int] = set()
    for region in producer.regions:
        terminator = list(region.blocks[0].operations)[-1]
        branch = _possible_ints(terminator.operands[value.result_number], depth + 1)
        if branch is None:
            return None
        found |= branch
    return found


def dtype_of(value: ir.Value, result_type: ir.Type):
    try:
        code = constant_value(value)
    except NotConstant:
        return None
    if not isinstance(code, int):
        return None
    return dtype_fact(code, result_type)


def dtype_fact(code: int, result_type: ir.Type):
    if types.parse(result_type) is None:
        return _NUMBER_BY_DTYPE.get(code)
    element = types.DTYPE_TO_ELEMENT.get(code)
    return None if element is None else types.TensorInfo(None, element)
