"""The list vocabulary of the Torch dialect: which ops mutate a list in place and which
only read one. Calculations build and read lists (`!torch.list<int>` sizes); what may change
a list decides whether a read can be answered from the literal that built it."""

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
