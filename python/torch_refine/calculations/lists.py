"""The list vocabulary of the Torch dialect: which ops mutate a list in place, which only
read one, and whether a list value (through every alias) is only ever read. Calculations
build and read lists (`!torch.list<int>` sizes); what may change a list decides whether a
read can be answered from the literal that built it."""

from __future__ import annotations

import contextlib
import dataclasses

from torch_mlir import ir

from torch_refine.calculations.store import FactStore
from torch_refine.ir.constants import defining_op, op_key

# Ops that change a list in place: a list with one of these users cannot be read
# through its `torch.prim.ListConstruct` operands, nor rebuilt elsewhere. These are all the
# aten schemas with a written `t[](a!)` list argument; every other aten op, and every prims
# op, only reads lists.
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
        "func.return",  # the function's last op: a caller's change comes after every read here
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
    return op_name.startswith(("torch.aten.", "torch.prims.")) and op_name not in LIST_MUTATING_OPS


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


def only_read(value: ir.Value, memo: LiteralsMemo | None = None) -> bool:
    """True when no user of the list `value`, nor of any alias of it, may change it.

    Aliases are derefine/unchecked_cast results, `prim.If` results yielding it, and every
    element read back out of a container it is stored in; reading the list's own elements
    out (`__getitem__.t`, `prim.ListUnpack`) changes nothing. A worklist of (value, whether it
    is a container holding the list): alias chains can be longer than the recursion limit.
    In a greedy run (`memo`, its `LiteralsMemo`), containers already found to hand out only
    read elements are not walked again (the elements of one container would each walk all
    its reads).
    """
    containers = []
    pending = [(value, False)]
    while pending:
        current, is_container = pending.pop()
        for use in current.uses:
            name = use.owner.operation.name
            if (alias := _alias_result(use)) is not None:
                pending.append((alias, is_container))
            elif name in CONTAINER_BUILDERS:
                if not _known_to_hand_out_read_elements(use.owner, memo):
                    containers.append(use.owner)
                    pending.append((use.owner.result, True))
            elif is_container and name in ELEMENT_ACCESSORS:
                pending.extend((r, False) for r in use.owner.results if may_hold_list(r))
            elif name in ELEMENT_ACCESSORS:
                continue  # the list's own elements read out: no change to the list
            elif not reads_list(_stands_for(use.owner)):
                return False
    if memo is not None:
        memo.containers.update(op_key(c) for c in containers)
    return True


def _stands_for(op) -> str:
    """The op's name; of a `torch.operator`, the name of the op it stands for (torch-mlir
    imports an aten op it has no definition of so: `torch.aten.squeeze.dims`)."""
    name = op.operation.name
    if name != "torch.operator" or "name" not in op.attributes:
        return name
    stands_for = ir.StringAttr(op.attributes["name"]).value  # `torch.aten.x` (FX importer) or `aten.x`
    return stands_for if stands_for.startswith("torch.") else f"torch.{stands_for}"


def _known_to_hand_out_read_elements(container, memo: LiteralsMemo | None) -> bool:
    return memo is not None and op_key(container) in memo.containers


@dataclasses.dataclass
class LiteralsMemo:
    """By op_key: literals found unmutated, and containers (literals, tuples) found to hand
    out only elements that are not mutated."""

    literals: set = dataclasses.field(default_factory=set)
    containers: set = dataclasses.field(default_factory=set)


@contextlib.contextmanager
def unmutated_literals_memo(run: FactStore):
    """Remember, for one greedy run, the literals found unmutated (`run.unmutated_literals`,
    None outside a greedy run, which the readers in it are given): each read of a literal
    would otherwise rescan all its uses, quadratic in the reads of an unrolled loop.

    Within a run a literal stays unmutated: patterns fold reads, move ops, forward aliases
    to their source (whose uses were already followed), and copy loop bodies, whose copied
    users have the names of the users they copy. New ops may reuse the address of an
    erased one, so every literal or tuple created in a run is forgotten
    (`forget_new_literals`), and list concatenation and slicing, which put elements in new
    containers, forget all.
    """
    run.unmutated_literals = LiteralsMemo()
    try:
        yield
    finally:
        run.unmutated_literals = None


def forget_new_literals(op, memo: LiteralsMemo | None) -> None:
    """`op` and the ops nested in it are new: no key of theirs may be remembered (in the
    greedy run's `memo`)."""
    if memo is None or not (memo.literals or memo.containers):
        return

    def forget(nested):
        if nested.name in CONTAINER_BUILDERS:
            key = op_key(nested)
            memo.literals.discard(key)
            memo.containers.discard(key)
        return ir.WalkResult.ADVANCE

    op.operation.walk(forget)


def forget_all(memo: LiteralsMemo | None) -> None:
    """The elements of the literal being built are shared with another container now."""
    if memo is not None:
        memo.literals.clear()
        memo.containers.clear()


def unmutated(literal, value: ir.Value, memo: LiteralsMemo | None = None) -> bool:
    """Whether the list `value` that `literal` builds is never changed; within a greedy run
    (its `memo`, `unmutated_literals_memo`) an answer of yes is remembered."""
    if memo is None:
        return only_read(value)
    key = op_key(literal)
    if key in memo.literals:
        return True
    if not only_read(value, memo):
        return False
    memo.literals.add(key)
    return True


def literal_elements(value: ir.Value, memo: LiteralsMemo | None = None) -> list[ir.Value] | None:
    """The elements of the list literal making `value` when nothing changes the list
    (`unmutated`: through every alias), else None: the one reader of list literals. In a
    greedy run, given its `memo` (`FactStore.unmutated_literals`)."""
    literal = unmutated_literal(value, memo)
    return None if literal is None else list(literal.operands)


def unmutated_literal(value: ir.Value, memo: LiteralsMemo | None = None):
    """The `prim.ListConstruct` making `value` when the list is not mutated, else None."""
    producer = defining_op(value)
    if producer is None or producer.operation.name != "torch.prim.ListConstruct":
        return None
    return producer if unmutated(producer, value, memo) else None


# Mutations that never raise and only add to, reorder or empty a list: a list nothing
# reads may drop them (not `_set_item`, which raises out of range).
_WRITES = frozenset({"torch.aten.append.t", "torch.aten.insert.t", "torch.aten.extend.t",
                     "torch.aten.reverse.t", "torch.aten.clear.t"})


def erase_write_only_lists(root) -> None:
    """Erase each `torch.prim.ListConstruct` under `root` that is only written, never read
    (its users are appends and the like, whose results nothing uses), with those writes: the
    result list of a shape function's loop, left behind with the checks it holds."""
    found = []

    def visit(op):
        if op.name == "torch.prim.ListConstruct" and _only_written(op.results[0]):
            found.append(op)
        return ir.WalkResult.ADVANCE

    root.walk(visit)
    for literal in found:
        for use in list(literal.results[0].uses):
            use.owner.erase()
        literal.erase()


def _only_written(value: ir.Value) -> bool:
    users = [use.owner for use in value.uses]
    return bool(users) and all(
        user.name in _WRITES and user.operands[0] == value and not any(len(list(r.uses)) for r in user.results)
        and value not in list(user.operands)[1:]
        for user in users)
