"""Vocabulary shared by the passes that build, inline and drop `torch.{shape,dtype}.calculate` ops.

A *library function* is a private `func.func` whose symbol starts with one of
`LIBRARY_PREFIXES`; every other function is a *user function*. A calculate op wraps one
user op (its `body` region) together with the calculation of the wrapped results'
shapes or dtypes (its `calculation` region).
"""

from __future__ import annotations

from torch_mlir import ir

from torch_refine.refinement import op_key

SHAPE_FN_PREFIX = "__torch_refine_shape_fn."
DTYPE_FN_PREFIX = "__torch_refine_dtype_fn."
HELPER_PREFIX = "__torch_refine_helper."
LIBRARY_PREFIXES = (SHAPE_FN_PREFIX, DTYPE_FN_PREFIX, HELPER_PREFIX)

CALCULATE_OPS = frozenset({"torch.shape.calculate", "torch.dtype.calculate"})

# What a library function sees of an operand (`FunctionImporter.parameter_views`): nothing,
# a tensor's sizes (shape functions), or its rank and dtype (dtype functions).
UNREAD, SIZES, RANK_DTYPE = "unread", "sizes", "rank-dtype"
YIELD_OPS = frozenset(
    {
        "torch.shape.calculate.yield",
        "torch.dtype.calculate.yield",
        "torch.shape.calculate.yield.shapes",
        "torch.dtype.calculate.yield.dtypes",
    }
)

# Ops that change a list in place: a list with one of these users cannot be read
# through its `torch.prim.ListConstruct` operands, nor rebuilt elsewhere. These are all the
# aten schemas with a written `t[](a!)` list argument; every other aten op only reads lists.
LIST_MUTATING_OPS = frozenset(
    {
        "torch.aten.Delete.t",
        "torch.aten._set_item.t",
        "torch.aten.add_.t",
        "torch.aten.append.t",
        "torch.aten.clear.t",
        "torch.aten.extend.t",
        "torch.aten.insert.t",
        "torch.aten.mul_.t",
        "torch.aten.pop.t",
        "torch.aten.remove.Tensor",
        "torch.aten.remove.bool",
        "torch.aten.remove.float",
        "torch.aten.remove.int",
        "torch.aten.remove.str",
        "torch.aten.reverse.t",
        "torch.aten.sort.Tensor",
        "torch.aten.sort.any",
        "torch.aten.sort.bool",
        "torch.aten.sort.float",
        "torch.aten.sort.int",
        "torch.aten.sort.str",
    }
)

# Ops that must never be moved, cloned or deleted even when their results are unused.
_EFFECTFUL_OPS = frozenset(
    {
        "torch.prim.RaiseException",
        "torch.prim.Print",
        "torch.runtime.assert",
        "torch.prim.Uninitialized",
    }
)


def is_library_symbol(symbol: str) -> bool:
    return symbol.startswith(LIBRARY_PREFIXES)


def symbol_name(func_op) -> str:
    return ir.StringAttr(func_op.operation.attributes["sym_name"]).value


def functions(module: ir.Operation) -> list:
    return [op for op in module.regions[0].blocks[0].operations if op.operation.name == "func.func"]


def user_functions(module: ir.Operation) -> list:
    return [fn for fn in functions(module) if not is_library_symbol(symbol_name(fn))]


def is_tensor_type_text(text: str) -> bool:
    return text.startswith(("!torch.vtensor", "!torch.tensor"))


def is_pure(op) -> bool:
    """True when `op` computes its results from its operands alone, so it may be moved,
    cloned or erased when unused. Conservative: region ops, calls and tensor producers
    are never pure; a list is pure only while nothing mutates it."""
    operation = op.operation
    name = operation.name
    if not name.startswith("torch.") or name in _EFFECTFUL_OPS or name in LIST_MUTATING_OPS:
        return False
    if name in CALCULATE_OPS or name in YIELD_OPS or len(operation.regions) > 0:
        return False
    if len(operation.results) == 0:
        return False
    if name == "torch.prim.NumToTensor.Scalar":
        return True  # a fresh tensor of a number: how `scalar_dtype` reads a number's type
    if any(is_tensor_type_text(str(result.type)) for result in operation.results):
        return False
    if name == "torch.prim.ListConstruct":
        return not any(use.owner.operation.name in LIST_MUTATING_OPS for use in operation.result.uses)
    return True


def erase_if_dead(ops) -> None:
    """Erase the pure ops among `ops` that have no uses, then their operands' definers in turn."""
    worklist = [(op_key(op), op) for op in ops]
    erased: set[int] = set()
    while worklist:
        key, op = worklist.pop()
        # Unused first: it is O(1), while is_pure scans a list's uses (a shared literal has
        # one per op using it, so testing it first made dropping quadratic).
        if key in erased or not all(_is_unused(r) for r in op.operation.results) or not is_pure(op):
            continue
        definers = [v.owner for v in op.operation.operands if isinstance(v, ir.OpResult)]
        worklist.extend((op_key(d), d) for d in definers)
        erased.add(key)
        op.operation.erase()


def _is_unused(value: ir.Value) -> bool:
    return next(iter(value.uses), None) is None


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
    operations = list(block.operations)
    terminator = operations.pop()
    for inner in operations:
        inner.operation.move_before(before)
    yielded = list(terminator.operands)
    copy.erase()
    return operations, yielded
