"""Functions of a module and copying a region's body."""

from __future__ import annotations

from torch_mlir import ir


def symbol_name(func_op) -> str:
    return ir.StringAttr(func_op.operation.attributes["sym_name"]).value


def enclosing_ops(op):
    """The ops whose regions hold `op`, innermost first, up to (not including) its
    function."""
    parent = op.operation.parent
    while parent is not None and parent.name != "func.func":
        yield parent
        parent = parent.parent


def functions(module: ir.Operation) -> list:
    return [op for op in module.regions[0].blocks[0].operations if op.operation.name == "func.func"]


def callees(fn) -> list[str]:
    """The symbols `fn`'s `func.call`s call, in order (repeats included)."""
    calls = ops_in(fn.regions[0], lambda op: op.operation.name == "func.call")
    return [ir.FlatSymbolRefAttr(call.operation.attributes["callee"]).value for call in calls]


def ops_in(region, wanted) -> list:
    """The ops in `region` (nested ones included) for which `wanted(op)` holds."""
    found = []

    def visit(op):
        if wanted(op):
            found.append(op)
        return ir.WalkResult.ADVANCE

    for block in region.blocks:
        for op in block.operations:
            op.operation.walk(visit)
    return found


def completing_yields(if_op) -> list:
    """The terminators of a `prim.If`'s branches that complete (do not raise)."""
    found = []
    for region in if_op.regions:
        operations = list(region.blocks[0].operations)
        if not any(op.operation.name == "torch.prim.RaiseException" for op in operations):
            found.append(operations[-1])
    return found


def copy_body_before(op, arguments: list, before) -> tuple[list, list]:
    """Copy the single block of `op`'s first region (a loop body, a function body) in
    front of `before`, its block arguments replaced by `arguments`; returns the copied ops
    and the values its terminator yields, in the copy.

    One clone of the whole op maps every value inside it (the bindings' clone takes no
    mapping of its own); only the block arguments are replaced, then the ops are moved
    out and the emptied clone erased.
    """
    copy = op.operation.clone(ip=ir.InsertionPoint(before))
    block = copy.regions[0].blocks[0]
    for argument, value in zip(block.arguments, arguments, strict=True):
        argument.replace_all_uses_with(value)
    found = move_body_before(block, before)
    copy.erase()
    return found


def move_body_before(block, before) -> tuple[list, list]:
    """Move `block`'s ops but its terminator in front of `before`; returns the moved ops and
    the values the terminator yields."""
    operations = list(block.operations)
    terminator = operations.pop()
    for inner in operations:
        inner.operation.move_before(before)
    return operations, list(terminator.operands)


SYMBOLIC_SHAPE_OPS = ("torch.bind_symbolic_shape", "torch.symbolic_int")


def erase_symbolic_shape_ops(module: ir.Operation) -> None:
    """Erase `torch.symbolic_int` and `torch.bind_symbolic_shape`: no backend lowering of
    torch-mlir legalizes them, and refinement has read what they say."""
    found: list = []

    def visit(op):
        if op.name in SYMBOLIC_SHAPE_OPS:
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    # Binding ops first: they are the symbols' only users.
    for op in sorted(found, key=lambda op: op.name != "torch.bind_symbolic_shape"):
        op.erase()
