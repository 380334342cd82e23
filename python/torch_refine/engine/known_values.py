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

from torch_refine.calculations import contents, dim_facts, facts
from torch_refine.calculations.lists import literal_elements
from torch_refine.calculations.purity import erase_if_dead
from torch_refine.calculations.ranges import decide, enclosing_function, polynomial_range
from torch_refine.calculations.store import ENTRY_GUARD, FactStore
from torch_refine.calculations.symbols import user_functions
from torch_refine.ir import types
from torch_refine.ir.constants import (
    NotConstant,
    constant_value,
    defining_op,
    is_constant,
    make_constant,
    op_key,
    typed_constant,
)
from torch_refine.patterns.symbolic import Sizes
from torch_refine.symbolic.comparisons import INT_COMPARISONS
from torch_refine.symbolic.polynomial import is_computed
from torch_refine.symbolic.semantics import MEANINGS

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
    info = types.parse(op.results[0].type)
    return info is not None and info.dtype is None and _bool_used_as_condition(op)


def is_typed_condition(value: ir.Value) -> bool:
    """A `where` condition `type_bool_conditions` typed: resets of derived types keep it
    (erased, it would be refined as PyTorch's int64, which `where` rejects)."""
    producer = defining_op(value)
    return (producer is not None and producer.operation.name == "torch.prim.NumToTensor.Scalar"
            and str(value.type) == _BOOL_CONDITION and _bool_used_as_condition(producer))


def _bool_used_as_condition(op) -> bool:
    """A `NumToTensor` of a bool (`aten.Int.bool`) whose every use is a `where` condition."""
    producer = defining_op(op.operands[0])
    if producer is None or producer.operation.name != "torch.aten.Int.bool":
        return False
    uses = list(op.results[0].uses)
    return bool(uses) and all(use.owner.operation.name == "torch.aten.where.self" and use.operand_number == 0
                              for use in uses)


def fold_tensor_reads(module: ir.Operation, run: FactStore, selects: bool = False) -> None:
    """Replace each int read out of a tensor whose value is known (a constant or sizes of
    the function's arguments, and with `selects`, at clean-up, selects of them: before
    refinement a select is one a later fact may still decide), and each `prim.tolist` of
    such a vector, by that value. `run`: the run's fact store."""
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
        polynomials = _known_ints(op, cache, run)
        if polynomials is None or not all(_materializes_safely(p, selects) for p in polynomials):
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
    erase_if_dead(folded, lambda op: _known_tensor_op(op, cache, run) or _is_float_read(op))


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


def _materializes_safely(polynomial, selects: bool) -> bool:
    """Whether `polynomial` is built from argument dims by ops that cannot fail: computed
    sizes (where `selects`) only as selects (a broadcast's `b if a == 1 else a`) and
    quotients by constants, never a quotient by a size, which could be 0 where the tensor
    read it replaces is not."""
    for symbol in polynomial.symbols():
        if not is_computed(symbol):
            continue
        definition = facts.definition(symbol) if selects else None
        if definition is None:
            return False
        if definition[0] == facts.FLOOR_DIVIDE:
            if not isinstance(definition[2], int) or not _materializes_safely(definition[1], selects):
                return False
            continue
        _, condition, then, otherwise = definition
        sides = [p for p in condition[1:] if not isinstance(p, (tuple, float))]
        if isinstance(condition[1], tuple) or not all(_materializes_safely(p, selects)
                                                      for p in (*sides, then, otherwise)):
            return False
    return True


def _known_ints(op, cache: dict, run: FactStore) -> list | None:
    """The polynomial an int read gives, or those of the elements `prim.tolist` lists."""
    if op.name != "torch.prim.tolist":
        polynomial = dim_facts.express(op.results[0], run, cache)
        return None if polynomial is None else [polynomial]
    if len(op.operands) != 1:
        return None
    known = dim_facts.contents_reader(run, cache).contents(op.operands[0])
    if known is None or len(known.shape) != 1 or None in known.elements:
        return None
    return list(known.elements)


def _known_tensor_op(op, cache: dict, run: FactStore) -> bool:
    """A tensor op on small int tensors whose contents are known (so it cannot fail)."""
    if op.operation.name not in contents.HANDLED or len(op.operation.results) != 1:
        return False
    reader = dim_facts.contents_reader(run, cache)
    return reader.contents(op.operation.results[0]) is not None


# The ops of ints, bools and floats computed here, with their meanings in symbolic/semantics.py.
_COMPUTED = frozenset(name for name, meaning in MEANINGS.items()
                      if {*meaning.operands, meaning.result} <= {"int", "bool", "float"})
_CONNECTIVES = ("torch.aten.__and__.bool", "torch.aten.__or__.bool")
_MAX_DEPTH = 64


def erase_decided_checks(module: ir.Operation, store: FactStore) -> None:
    """Erase the checks the final types decide: an assert whose condition holds, and a
    result-less If whose branch taken does nothing. A check kept while an operand's type
    was still unknown (a shape behind a loop's barrier) may read sizes that a later round
    made static. Only sizes a type states decide: a guard asserted at the entry is a fact
    later ops were refined under, and stays, unless constants alone decide it (its sizes
    became constants: a pad's `0 != 0`); then it holds whatever the types say."""
    found = []

    def visit(op):
        if op.name == "torch.runtime.assert" and (ENTRY_GUARD not in op.attributes
                                                  or _reads_no_size(op.operands[0], 0)):
            found.append(op)
        elif op.name == "torch.prim.If" and len(op.results) == 0:
            found.append(op)
        return ir.WalkResult.ADVANCE

    for function in user_functions(module):
        function.operation.walk(visit)  # post-order: an If's checks before the If
    cache: dict = {}
    for op in found:
        decided = _decided_check(op.operands[0], cache, store)
        if decided is None:
            continue
        if op.name == "torch.runtime.assert":
            if decided is True:
                op.erase()
            continue
        taken = op.regions[0 if decided else 1].blocks[0]
        if len(list(taken.operations)) == 1:  # its yield alone
            op.erase()


def _decided_check(condition: ir.Value, cache: dict, store: FactStore) -> bool | None:
    """A check's condition decided by the types and constants, else by the run's facts;
    an `all.bool` or `any.bool` of a list literal by its elements (torch-mlir's
    decomposition of a strided view asserts `all([4*s*s == s*s*4, s*s == s*s, True, True])`)."""
    decided = _decided(condition, cache, 0)
    if decided is not None:
        return decided
    producer = defining_op(condition)
    if producer is not None and producer.name in _LIST_TESTS:
        elements = literal_elements(producer.operands[0])
        answers = None if elements is None else [_decided_check(e, cache, store) for e in elements]
        return None if answers is None else _LIST_TESTS[producer.name](answers)
    return _decided_by_facts(condition, store)


# `all` and `any` of bools some of which are unknown (None): decided, or None.
_LIST_TESTS = {
    "torch.aten.all.bool": lambda answers: False if False in answers else (None if None in answers else True),
    "torch.aten.any.bool": lambda answers: True if True in answers else (None if None in answers else False),
}


def _decided(value: ir.Value, cache: dict, depth: int):
    """The int or bool `value` is wherever it runs, from constants and the sizes types
    state; None when they do not decide it."""
    if value in cache:
        return cache[value]
    result = None if depth > _MAX_DEPTH else _decide(value, cache, depth + 1)
    cache[value] = result
    return result


def _decide(value: ir.Value, cache: dict, depth: int):
    try:
        constant = constant_value(value)
        return constant if isinstance(constant, (int, float)) else None  # bools are ints
    except NotConstant:
        pass
    op = defining_op(value)
    if op is None:
        return None
    if op.name == "torch.aten.size.int":
        return _stated_size(op, cache, depth)
    if op.name == "torch.prim.If":
        condition = _decided(op.operands[0], cache, depth)
        if condition is None:
            return None
        yielded = list(op.regions[0 if condition else 1].blocks[0].operations)[-1]
        return _decided(yielded.operands[value.result_number], cache, depth)
    arguments = [_decided(v, cache, depth) for v in op.operands]
    if op.name in _CONNECTIVES:
        deciding = op.name == "torch.aten.__or__.bool"  # the value either side decides
        return deciding if deciding in arguments else (not deciding if None not in arguments else None)
    if None in arguments:
        return None
    if op.name not in _COMPUTED:
        return None
    try:
        return MEANINGS[op.name].compute(*arguments)
    except (ArithmeticError, ValueError):
        return None  # a division by zero, a zero step: the op raises where it runs


def _reads_no_size(value: ir.Value, depth: int) -> bool:
    """Whether `value` is computed from constants alone, by ops `_decide` computes."""
    if is_constant(value):
        return True
    op = defining_op(value)
    if op is None or depth > _MAX_DEPTH or op.name == "torch.aten.size.int" or op.regions:
        return False
    return all(_reads_no_size(operand, depth + 1) for operand in op.operands)


def _decided_by_facts(condition: ir.Value, store: FactStore) -> bool | None:
    """An int comparison of sizes decided by the range of their difference under the
    function's facts (its entry asserts hold before any op runs): the `onnx.Expand` checks
    of torch-mlir's ONNX conversion compare a size with itself read off a shape tensor. Not
    a condition that is itself a fact (an input check the function starts with): its own
    range would decide it."""
    op = defining_op(condition)
    if op is None or op.name not in INT_COMPARISONS:
        return None
    sides = [dim_facts.express(v, store) for v in op.operands]
    function = enclosing_function(op)
    if None in sides or function is None:
        return None
    return decided_in(function, (op.name, *sides), store)


def decided_in(function, key: tuple, store: FactStore) -> bool | None:
    """A comparison of sizes (a condition key) decided in `function` by its facts (not by
    asserting it: None then) or by the range of the difference of its sides."""
    function_key = op_key(function)
    decision = store.decided(function_key, key)
    if decision is not None:
        return None if decision.by_assertion else decision.holds
    difference = facts.resolved(key[1] - key[2], store.replacements(function_key), store.quotient_forms)
    return decide(INT_COMPARISONS[key[0]], *polynomial_range(difference, function.regions[0].blocks[0], store))


def _stated_size(op, cache: dict, depth: int) -> int | None:
    """The size `aten.size.int` reads where its tensor's type states it."""
    info = types.parse(op.operands[0].type)
    dim = _decided(op.operands[1], cache, depth)
    if info is None or info.sizes is None or not isinstance(dim, int) or not -info.rank <= dim < info.rank:
        return None
    return info.sizes[dim]
