"""List literals: reads of `prim.ListConstruct`, and abstract interpretation of mutation.

A literal is *unmutated* when every user only reads it: the list ops of `READ_ONLY_USERS`,
any `torch.aten.*` op that is not a list mutation (aten schemas take lists by value unless
they mark them written), or a `derefine` / `unchecked_cast` alias whose users only read;
only then can a read be answered from its operands. A literal with `append.t`, `insert.t`
or `_set_item.t` users is interpreted: the mutations in the literal's own block are applied
to the operand list in program order, reads after a mutation get a fresh literal of the
state at that point, and the applied mutations are erased. Interpretation stops at the
first user it cannot follow: a mutation at a position not known, an op holding a mutation
in a nested region, or a user through which the list may be changed or aliased where we
cannot see (a call, a container storing it, a region yield, a cast, an op not modelled, a
mutation whose returned alias is used). From there on, every user uses one fresh literal of
the state reached, which keeps at least the length known: the same single object as before.

List equality is compared here too: torch-mlir's folder of `aten.eq.int_list` reads the
operands of two literals without asking whether either is mutated (an empty literal that a
loop appends to "differs" from a two-element one). So before a calculation is simplified
every `eq.int_list` becomes the negation of an `ne.int_list`, which no C++ folder touches,
and `fold_ne_int_list` compares unmutated literals only.
"""

from __future__ import annotations

import functools

from torch_mlir import ir

from torch_refine.calculations.kind import RAISE
from torch_refine.calculations.lists import (
    LiteralsMemo,
    forget_all,
    forget_new_literals,
    literal_elements,
    reads_list,
    unmutated_literal,
)
from torch_refine.calculations.store import FactStore
from torch_refine.ir import types
from torch_refine.ir.constants import (
    NotConstant,
    constant_value,
    defining_op,
    make_constant,
    op_key,
    typed_constant,
)
from torch_refine.ir.module import ops_in
from torch_refine.patterns.scalars import negation

MODELLED_MUTATIONS = frozenset({"torch.aten.append.t", "torch.aten.insert.t", "torch.aten._set_item.t"})
MAX_CHECKED_RANK = 64  # PyTorch's tensors have at most 64 dims: no longer list of sizes
_SIZE_PRODUCT_BODY = ["torch.aten.__getitem__.t", "torch.aten.mul.int", "torch.prim.Loop.condition"]


def constant_elements(value: ir.Value, memo: LiteralsMemo | None = None) -> list | None:
    """The Python values of an unmutated literal of constants (None allowed), else None (in
    a greedy run, given its `memo`)."""
    elements = literal_elements(value, memo)
    if elements is None:
        return None
    try:
        return [constant_value(v) for v in elements]
    except NotConstant:
        return None


def _list_construct(elements: list[ir.Value], list_type: ir.Type, memo: LiteralsMemo | None) -> ir.Value:
    op = ir.Operation.create("torch.prim.ListConstruct", results=[list_type], operands=elements)
    forget_new_literals(op, memo)
    return op.result


def decompose_size(op, rewriter, run: FactStore):
    """`aten.size(t)` of a ranked tensor -> `[size.int(t, 0), ...]`."""
    tensor = op.operands[0]
    info = types.parse(tensor.type)
    if info is None or info.rank is None:
        return True
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [_sizes_literal(tensor, info.rank, op.result.type, run.unmutated_literals)])
    return None


def _sizes_literal(tensor: ir.Value, rank: int, list_type: ir.Type, memo: LiteralsMemo | None) -> ir.Value:
    """`[size.int(tensor, 0), ..., size.int(tensor, rank - 1)]`, at the current insertion point."""
    int_type = ir.Type.parse("!torch.int")
    sizes = [ir.Operation.create("torch.aten.size.int", results=[int_type],
                                 operands=[tensor, make_constant(dim)]).result for dim in range(rank)]
    return _list_construct(sizes, list_type, memo)


def specialize_checked_rank(check, rewriter, run: FactStore):
    """After a check raising unless an unranked tensor `t` has rank r (`len(aten.size(t))
    == r`: `permute`, `mm`, `bmm`...), the calculation's later reads of that rank are r
    and of those sizes `[size.int(t, 0), ...]`: its other checks of `t` shrink to what
    they check of those r dims, or are decided."""
    required = _rank_required_by(check)
    if required is None:
        return True
    rank_read, sizes, rank = required
    block = check.operation.block
    later = [use for value in (rank_read, sizes) for use in value.uses
             if _after(ancestor_in(use.owner, block), check)]
    if not later:
        return True
    first = min((ancestor_in(use.owner, block) for use in later), key=_position_in(block))
    tensor = defining_op(sizes).operation.operands[0]
    with ir.InsertionPoint(first), check.location:
        replacements = {rank_read: make_constant(rank),
                        sizes: _sizes_literal(tensor, rank, sizes.type, run.unmutated_literals)}
    for use in later:
        owner, number = use.owner, use.operand_number
        owner.operands[number] = replacements[owner.operands[number]]
    return None


def _after(op, check) -> bool:
    return op is not None and op_key(op) != op_key(check) and check.operation.is_before_in_block(op.operation)


def _position_in(block: ir.Block):
    order = {op_key(op): index for index, op in enumerate(block.operations)}
    return lambda op: order[op_key(op)]


def _rank_required_by(check) -> tuple | None:
    """(the rank read, the sizes list, r) when `check` is a `prim.If` raising in exactly one
    branch unless `len(aten.size(t)) == r` for an unranked `t` and a constant r."""
    if len(check.operation.results):
        return None
    then_raises, else_raises = (_raises(region.blocks[0]) for region in check.operation.regions)
    comparison = defining_op(check.operation.operands[0])
    if then_raises == else_raises or comparison is None:
        return None
    passes_when_equal = {"torch.aten.ne.int": then_raises, "torch.aten.eq.int": else_raises}
    if not passes_when_equal.get(comparison.operation.name, False):
        return None
    lhs, rhs = comparison.operation.operands
    for read, bound in ((lhs, rhs), (rhs, lhs)):
        sizes = _unranked_sizes_counted_by(read)
        if sizes is None:
            continue
        try:
            rank = constant_value(bound)
        except NotConstant:
            continue
        if isinstance(rank, int) and not isinstance(rank, bool) and 0 <= rank <= MAX_CHECKED_RANK:
            return read, sizes, rank
    return None


def _unranked_sizes_counted_by(value: ir.Value) -> ir.Value | None:
    """`aten.size(t)` of an unranked `t` when `value` is its `len.t`, else None."""
    counter = defining_op(value)
    if counter is None or counter.operation.name != "torch.aten.len.t":
        return None
    sizes = counter.operation.operands[0]
    reader = defining_op(sizes)
    if reader is None or reader.operation.name != "torch.aten.size":
        return None
    info = types.parse(reader.operation.operands[0].type)
    return sizes if info is not None and info.rank is None else None


def numel_of_size_product(loop, rewriter):
    """The product of an unranked `t`'s sizes as a loop (`prim.Loop len(aten.size(t)), true,
    init(1)` multiplying each size into the carried int) is `aten.numel(t)`: one op."""
    if len(loop.operands) != 3 or len(loop.results) != 1:
        return True
    count, go_on, initial = loop.operands
    sizes = _unranked_sizes_counted_by(count)
    if sizes is None or typed_constant(go_on, bool) is not True or typed_constant(initial, int) != 1:
        return True
    body = loop.regions[0].blocks[0]
    index, product = body.arguments
    ops = list(body.operations)
    if [op.operation.name for op in ops] != _SIZE_PRODUCT_BODY:
        return True
    read, multiply, condition = ops
    if list(read.operands) != [sizes, index] or set(multiply.operands) != {product, read.result}:
        return True
    if typed_constant(condition.operands[0], bool) is not True or condition.operands[1] != multiply.result:
        return True
    with rewriter.ip, loop.location:
        numel = ir.Operation.create("torch.aten.numel", results=[loop.results[0].type],
                                    operands=[defining_op(sizes).operation.operands[0]])
    rewriter.replace_op(loop, [numel.result])
    return None


def _raises(block: ir.Block) -> bool:
    return any(op.operation.name == RAISE for op in block.operations)


def fold_len(op, rewriter, run: FactStore):
    elements = literal_elements(op.operands[0], run.unmutated_literals)
    if elements is None:
        return True
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [make_constant(len(elements))])
    return None


def fold_getitem(op, rewriter, run: FactStore):
    literal = unmutated_literal(op.operands[0], run.unmutated_literals)
    # The operand list itself, not a copy: reading one element of a long literal is O(1).
    return replace_by_element(op, rewriter, None if literal is None else literal.operands)


def replace_by_element(op, rewriter, elements):
    """Replace `op`, an index into `elements` (a list or tuple literal's), by the element."""
    if elements is None:
        return True
    try:
        index = constant_value(op.operands[1])
    except NotConstant:
        return True
    if not -len(elements) <= index < len(elements):
        return True
    element = elements[index]
    if element.type == op.result.type:
        rewriter.replace_op(op, [element])
        return None
    if not str(op.result.type).startswith("!torch.optional<"):
        return True
    # An element of a list of optionals (None or a tensor) read as the optional it is.
    with rewriter.ip, op.location:
        derefined = ir.Operation.create("torch.derefine", results=[op.result.type],
                                        operands=[element])
    rewriter.replace_op(op, [derefined.result])
    return None


def fold_add(op, rewriter, run: FactStore):
    memo = run.unmutated_literals
    lhs, rhs = (literal_elements(v, memo) for v in op.operands)
    if lhs is None or rhs is None:
        return True
    forget_all(memo)
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [_list_construct(lhs + rhs, op.result.type, memo)])
    return None


def fold_slice(op, rewriter, run: FactStore):
    memo = run.unmutated_literals
    elements = literal_elements(op.operands[0], memo)
    if elements is None:
        return True
    try:
        start, end, step = (constant_value(v) for v in op.operands[1:])
    except NotConstant:
        return True
    if step == 0:
        return True
    forget_all(memo)
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [_list_construct(elements[start:end:step], op.result.type, memo)])
    return None


def negate_list_equalities(region) -> None:
    """Every `eq.int_list` of `region` becomes `not ne.int_list` (see the module doc)."""
    for equality in ops_in(region, lambda op: op.name == "torch.aten.eq.int_list"):
        with ir.InsertionPoint(equality), equality.location:
            differ = ir.Operation.create(
                "torch.aten.ne.int_list", results=[equality.result.type], operands=list(equality.operands)
            ).result
            equality.result.replace_all_uses_with(negation(differ))
        equality.erase()


def fold_ne_int_list(op, rewriter, run: FactStore):
    lhs, rhs = (literal_elements(v, run.unmutated_literals) for v in op.operands)
    if lhs is None or rhs is None:
        return True
    differ = _lists_differ(lhs, rhs)
    if differ is None:
        return True
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [make_constant(differ)])
    return None


def _lists_differ(lhs: list[ir.Value], rhs: list[ir.Value]) -> bool | None:
    """Whether two lists of ints differ: decided by their lengths, by one pair of distinct
    constants, or by every pair being one value or equal constants; else None."""
    if len(lhs) != len(rhs):
        return True
    undecided = False
    for a, b in zip(lhs, rhs, strict=True):
        if a == b:
            continue
        try:
            if constant_value(a) != constant_value(b):
                return True
        except NotConstant:
            undecided = True
    return None if undecided else False


def ancestor_in(op, block: ir.Block):
    """The op of `block` that is or contains `op`, or None. Stops at the function: a
    module has no block to ask for."""
    while op is not None and op.operation.name != "func.func":
        if op.operation.block == block:
            return op
        op = op.operation.parent
    return None


def _classify_users(literal):
    """The users of a literal, by the op of its block that is or holds them: (in-block
    mutations, readers with their uses, barriers where interpretation must stop), each
    keyed by op_key; None when a user is outside the literal's block."""
    block = literal.operation.block
    mutations: dict[int, object] = {}
    readers: dict[int, tuple] = {}
    barriers: dict[int, object] = {}
    for use in literal.result.uses:
        user = use.owner
        name = user.operation.name
        ancestor = ancestor_in(user, block)
        if ancestor is None:
            return None
        is_mutation = name in MODELLED_MUTATIONS and use.operand_number == 0
        if is_mutation and user.operation.block == block and not _result_used(user):
            mutations[op_key(user)] = user
        elif is_mutation or not reads_list(name):
            barriers[op_key(ancestor)] = ancestor
        else:
            readers.setdefault(op_key(ancestor), (ancestor, []))[1].append(use)
    return mutations, readers, barriers


def _result_used(op) -> bool:
    return any(len(list(r.uses)) for r in op.results)


def _in_program_order(ops: dict) -> list:
    """(key, op) pairs of ops of one block, first op first."""
    def compare(a, b) -> int:
        return -1 if a[1].operation.is_before_in_block(b[1].operation) else 1

    return sorted(ops.items(), key=functools.cmp_to_key(compare))


def _apply(state: list, mutation) -> bool:
    """Apply one modelled mutation to `state`; False when it is not decidable here."""
    name = mutation.operation.name
    operands = list(mutation.operands)
    if name == "torch.aten.append.t":
        state.append(operands[1])
        return True
    try:
        index = constant_value(operands[1])
    except NotConstant:
        return False
    if name == "torch.aten.insert.t":
        state.insert(index, operands[2])
        return True
    if not -len(state) <= index < len(state):
        return False  # raises at run time: leave it
    state[index] = operands[2]
    return True


def interpret_mutations(op, rewriter, run: FactStore):
    """Abstractly interpret the mutations of a list literal (see module doc)."""
    if not any(use.owner.operation.name in MODELLED_MUTATIONS for use in op.result.uses):
        return True  # most literals are only read
    classified = _classify_users(op)
    if classified is None:
        return True
    mutations, readers, barriers = classified
    if not mutations:
        return True
    plan, applied, stop, state = _plan_mutations(op, mutations, readers, barriers)
    if not applied:
        return True
    # Second pass: rewrite.
    list_type = op.result.type
    for reader, uses, elements in plan:
        with ir.InsertionPoint(reader), reader.location:
            fresh = _list_construct(elements, list_type, run.unmutated_literals)
        for use in uses:
            use.owner.operands[use.operand_number] = fresh
    if stop is not None:
        _continue_from(op, stop, state, run.unmutated_literals)
    for mutation in applied:
        rewriter.erase_op(mutation)
    return None


def _plan_mutations(op, mutations: dict, readers: dict, barriers: dict):
    """Decide everything without touching the IR: (reads to rewrite with the state they
    see, mutations applied, the user interpretation stops at or None, the final state)."""
    plan = []
    state = list(op.operands)
    applied = []
    stop = None
    anchors = {**mutations, **{k: a for k, (a, _) in readers.items()}, **barriers}
    for key, anchor in _in_program_order(anchors):
        if key in barriers or (key in mutations and not _apply(state, anchor)):
            stop = anchor
            break
        if key in mutations:
            applied.append(anchor)
        elif applied:
            plan.append((anchor, readers[key][1], list(state)))
    return plan, applied, stop, state


def _continue_from(literal, stop, state: list, memo: LiteralsMemo | None) -> None:
    """Every user of `literal` at or after `stop` (in its block) uses a fresh literal of
    `state`, built just before `stop`."""
    block = literal.operation.block
    with ir.InsertionPoint(stop), stop.location:
        fresh = _list_construct(state, literal.result.type, memo)
    stop_key = op_key(stop)
    for use in list(literal.result.uses):
        ancestor = ancestor_in(use.owner, block)
        if op_key(ancestor) == stop_key or stop.operation.is_before_in_block(ancestor.operation):
            use.owner.operands[use.operand_number] = fresh


def patterns(options, run: FactStore) -> list:
    def bound(pattern):
        return functools.partial(pattern, run=run)

    return [
        ("torch.aten.size", bound(decompose_size)),
        ("torch.aten.len.t", bound(fold_len)),
        ("torch.aten.__getitem__.t", bound(fold_getitem)),
        ("torch.aten.add.t", bound(fold_add)),
        ("torch.aten.slice.t", bound(fold_slice)),
        ("torch.aten.ne.int_list", bound(fold_ne_int_list)),
        ("torch.prim.ListConstruct", bound(interpret_mutations)),
        ("torch.prim.If", bound(specialize_checked_rank)),
        ("torch.prim.Loop", numel_of_size_product),
    ]
