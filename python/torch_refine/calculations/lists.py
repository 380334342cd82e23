"""The list vocabulary of the Torch dialect: which ops mutate a list in place, which only
read one, and whether a list value (through every alias) is only ever read. Calculations build and read lists (`!torch.list<int>` sizes); what may change
a list decides whether a read can be answered from the literal that built it."""

from __future__ import annotations

from torch_mlir import ir

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

# List users that only read the list (besides every aten op that is not a mutation).
READ_ONLY_USERS = frozenset(
    {
        "torch.aten.len.t",
        "torch.aten.__getitem__.t",
        "torch.aten.add.t",
        "torch.aten.slice.t",
        "torch.aten.eq.int_list",
        "torch.aten.ne.int_list",
        "torch.aten.__contains__.int_list",
        "torch.aten.count.int",
        "torch.aten.index.list_int",
        "torch.aten.format",
        "torch.prim.max.self_int",
        "torch.prim.min.self_int",
        "torch.aten.sum.int",
        "torch.shape.calculate.yield.shapes",
        "torch.promote_dtypes",
    }
)

# Ops whose result is the same list object as their operand.
TRANSPARENT_ALIASES = frozenset({"torch.derefine", "torch.prim.unchecked_cast"})
# Ops that store their operands in a new list or tuple, and ops that read elements back out.
CONTAINER_BUILDERS = frozenset({"torch.prim.ListConstruct", "torch.prim.TupleConstruct"})
ELEMENT_ACCESSORS = frozenset(
    {"torch.aten.__getitem__.t", "torch.prim.TupleIndex", "torch.prim.ListUnpack",
     "torch.prim.TupleUnpack"}
)


def reads_list(op_name: str) -> bool:
    if op_name in READ_ONLY_USERS:
        return True
    return op_name.startswith("torch.aten.") and op_name not in LIST_MUTATING_OPS


def may_hold_list(value: ir.Value) -> bool:
    return "list" in str(value.type)


def _alias_result(use) -> ir.Value | None:
    """The value that is the same object as the used operand, for alias-forwarding users."""
    owner = use.owner
    name = owner.operation.name
    if name in TRANSPARENT_ALIASES:
        return owner.result
    if name == "torch.prim.If.yield":
        return owner.operation.parent.results[use.operand_number]
    return None


def only_read(value: ir.Value) -> bool:
    """True when no user of the list `value`, nor of any alias of it, may change it.

    Aliases are derefine/unchecked_cast results, `prim.If` results yielding it, and every
    element read back out of a container it is stored in.
    """
    for use in value.uses:
        name = use.owner.operation.name
        if (alias := _alias_result(use)) is not None:
            if not only_read(alias):
                return False
        elif name in CONTAINER_BUILDERS:
            if not _elements_only_read(use.owner.result):
                return False
        elif not reads_list(name):
            return False
    return True


def _elements_only_read(container: ir.Value) -> bool:
    """True when nothing read out of `container` (or its aliases) may be changed."""
    for use in container.uses:
        name = use.owner.operation.name
        if (alias := _alias_result(use)) is not None:
            if not _elements_only_read(alias):
                return False
        elif name in CONTAINER_BUILDERS:
            if not _elements_only_read(use.owner.result):
                return False
        elif name in ELEMENT_ACCESSORS:
            if not all(only_read(r) for r in use.owner.results if may_hold_list(r)):
                return False
        elif not reads_list(name):
            return False
    return True
