"""torch-refine-decompose: replace ops by the library's decomposition functions.

Each op of a user function that has a decomposition function (`library/decompositions.py`)
and is not in `legal-ops` is replaced by a copy of the function's body: the op's operands
are passed as the function's parameters (a tensor through a static-info cast to
`!torch.vtensor` that users which accept the precise type skip, an optional through
`torch.derefine`), and the body's returned values replace the op's results (a tuple's
elements one by one; a tensor-list result through its `torch.prim.ListUnpack`). The copy is
then simplified on its own with the refinement patterns and MLIR's folders (`None` tests,
constant `prim.If`s and loops over known ranks go away), never touching the rest of the
function. Ops a decomposition introduces are decomposed in turn. A loop over a size the
types leave unknown (`split` along a dynamic dim) stays in the program, and the list it
builds then replaces the op's list result.

With `refine=true` (the default) `torch-refine-pipeline` runs afterwards, so the new ops
get shapes and dtypes; the casts back to the replaced ops' result types that became
no-ops are then erased. `legal-ops` mirrors torch-mlir's `backend-legal-ops`: a comma list
of op names (`aten.softmax.int` or `torch.aten.softmax.int`) to keep.
"""

from __future__ import annotations

import math

from torch_mlir import ir, rewrite

from torch_refine.calculations.purity import erase_if_dead
from torch_refine.calculations.store import FactStore
from torch_refine.calculations.symbols import DECOMPOSITION_FN_PREFIX, library_key, user_functions
from torch_refine.engine.inline import (
    erase_unused_library_functions,
    inline_library_calls_in,
)
from torch_refine.engine.refine import PipelineOptions, refine_to_fixed_point
from torch_refine.engine.reify import LibraryCloner, _list_result_unpack, load_library
from torch_refine.engine.simplifier import Options
from torch_refine.errors import PassFailure
from torch_refine.ir import types
from torch_refine.ir.constants import NotConstant, constant_value, defining_name, defining_op, make_constant
from torch_refine.ir.module import copy_body_before, move_body_before, ops_in
from torch_refine.ir.retype import accepts, cast
from torch_refine.patterns import control_flow, lists, scalars

# A decomposition that (through others) keeps producing decomposable ops is cut off here.
MAX_ROUNDS = 16


def decompose(module, legal_ops: str, refine: bool, extra_library: str) -> None:
    """Every decomposable op not in `legal_ops` replaced, for up to `MAX_ROUNDS` rounds;
    with `refine`, `torch-refine-pipeline` afterwards."""
    legal = legal_op_names(legal_ops)
    library = load_library(module, extra_library)
    with module.context:
        simplify = _simplifier()
        for _ in range(MAX_ROUNDS):
            if not decompose_once(module, LibraryCloner(module, library), legal, simplify):
                break
        _finish_casts(module)
    erase_unused_library_functions(module)
    if not refine:
        return
    refine_to_fixed_point(module, PipelineOptions(extra_library=extra_library))
    _erase_identity_casts(module)


def decompose_unlowerable(module) -> None:
    """Rewrite ops torch-mlir's backend conversions have no lowering for into ops every
    backend lowers: `aten.histc` (how transformers' MoE layers count the tokens routed to
    each expert), where its bins and range are constants and the range is not empty, and
    transformers' `grouped_mm_fallback` (their grouped matmul of the tokens sorted by
    expert, where `torch.nn.functional.grouped_mm` cannot be used)."""
    rewrites = {"aten.histc": _decompose_histc, "transformers.grouped_mm_fallback": _decompose_grouped_mm}
    for fn in user_functions(module):
        for op in ops_in(fn.regions[0], lambda o: library_key(o) in rewrites):
            rewrites[library_key(op)](op)


def _tensor_type(sizes, dtype: str) -> ir.Type:
    return types.to_type(types.TensorInfo(tuple(sizes), dtype))


def _create(name: str, result_type: ir.Type, *operands) -> ir.Value:
    return ir.Operation.create(name, results=[result_type], operands=list(operands)).result


def _replace_op(op, value: ir.Value) -> None:
    """`op`'s one result replaced by `value` (through a cast to its type), the op and the
    operands only it read erased."""
    result = op.results[0]
    with op.location, ir.InsertionPoint(op):
        result.replace_all_uses_with(value if value.type == result.type else cast(value, result.type))
    definers = [d for v in op.operands if (d := defining_op(v)) is not None]
    op.erase()
    erase_if_dead(definers)


def _decompose_grouped_mm(op) -> None:
    """`grouped_mm_fallback(x [S,K], w [E,K,N], offs [E])`: row r of the result is
    `x[r] @ w[g]` where g, its group, counts the ends `offs` at most r; rows past the last
    end stay 0. As a batched matmul of each row with its group's weight."""
    x, weight, offs = op.operands
    x_info, weight_info, offs_info = (types.parse(v.type) for v in (x, weight, offs))
    infos = (x_info, weight_info, offs_info)
    if None in infos or any(i.sizes is None or i.dtype is None for i in infos) or len(weight_info.sizes) != 3:
        return
    (rows, _), (groups, inner, outer) = x_info.sizes, weight_info.sizes
    if groups is None:
        return
    dtype = x_info.dtype
    with op.location, ir.InsertionPoint(op):
        none, false, zero, one = make_constant(None), make_constant(False), make_constant(0), make_constant(1)
        int64 = make_constant(types.ELEMENT_TO_DTYPE["si64"])
        ends = _create("torch.aten.to.dtype", _tensor_type([groups], "si64"), offs, int64, false, false, none)
        ends = _create("torch.aten.unsqueeze", _tensor_type([1, groups], "si64"), ends, zero)
        row_ids = _create("torch.aten.arange.start_step", _tensor_type([rows], "si64"), zero,
                          _create("torch.aten.size.int", ir.Type.parse("!torch.int"), x, zero), one, int64,
                          none, none, none)
        row_ids = _create("torch.aten.unsqueeze", _tensor_type([rows, 1], "si64"), row_ids, one)
        passed = _create("torch.aten.le.Tensor", _tensor_type([rows, groups], "i1"), ends, row_ids)
        dims = _create("torch.prim.ListConstruct", ir.Type.parse("!torch.list<int>"), one)
        group = _create("torch.aten.sum.dim_IntList", _tensor_type([rows], "si64"), passed, dims, false, int64)
        inside = _create("torch.aten.lt.Scalar", _tensor_type([rows], "i1"), group, make_constant(groups))
        inside = _create("torch.aten.to.dtype", _tensor_type([rows], dtype), inside,
                         make_constant(types.ELEMENT_TO_DTYPE[dtype]), false, false, none)
        inside = _create("torch.aten.unsqueeze", _tensor_type([rows, 1], dtype), inside, one)
        group = _create("torch.aten.clamp", _tensor_type([rows], "si64"), group, none, make_constant(groups - 1))
        row_weights = _create("torch.aten.index_select", _tensor_type([rows, inner, outer], weight_info.dtype),
                              weight, zero, group)
        product = _create("torch.aten.bmm", _tensor_type([rows, 1, outer], dtype),
                          _create("torch.aten.unsqueeze", _tensor_type([rows, 1, inner], dtype), x, one), row_weights)
        product = _create("torch.aten.squeeze.dim", _tensor_type([rows, outer], dtype), product, one)
        product = _create("torch.aten.mul.Tensor", _tensor_type([rows, outer], dtype), product, inside)
    _replace_op(op, product)


def _decompose_histc(op) -> None:
    """`histc(x, bins, lo, hi)` as the count, per bin b, of the elements inside [lo, hi]
    whose bucket `min(floor((x - lo) * bins / (hi - lo)), bins - 1)` is b: a comparison of
    the buckets with `arange(bins)`, summed over the elements (PyTorch's rule: `hi` falls
    in the last bin, NaN and values outside the range in none). A range read from the
    data (`lo == hi`) is left as it is."""
    x = op.operands[0]
    info = types.parse(x.type)
    try:
        bins, lo, hi = (constant_value(v) for v in list(op.operands)[1:4])
    except NotConstant:
        return
    if info is None or info.sizes is None or info.dtype not in ("f16", "bf16", "f32", "f64") or not lo < hi:
        return
    count, dtype = (None if None in info.sizes else math.prod(info.sizes)), info.dtype
    with op.location, ir.InsertionPoint(op):
        flat_type = _tensor_type([count], dtype)
        none, false, one = make_constant(None), make_constant(False), make_constant(1)
        dtype_code = make_constant(types.ELEMENT_TO_DTYPE[dtype])
        flat = x if len(info.sizes) == 1 else _create(  # a view every backend lowers, a `?` size included
            "torch.aten.view", flat_type, x,
            _create("torch.prim.ListConstruct", ir.Type.parse("!torch.list<int>"), make_constant(-1)))
        shifted = _create("torch.aten.sub.Scalar", flat_type, flat, make_constant(float(lo)), one)
        scaled = _create("torch.aten.mul.Scalar", flat_type, shifted, make_constant(float(bins)))
        scaled = _create("torch.aten.div.Scalar", flat_type, scaled, make_constant(float(hi - lo)))
        bucket = _create("torch.aten.floor", flat_type, scaled)
        bucket = _create("torch.aten.clamp", flat_type, bucket, none, make_constant(float(bins - 1)))
        bucket = _create("torch.aten.unsqueeze", _tensor_type([count, 1], dtype), bucket, one)
        bin_ids = _create("torch.aten.arange.start_step", _tensor_type([bins], dtype), make_constant(0),
                          make_constant(bins), one, dtype_code, none, none, none)
        hits = _create("torch.aten.eq.Tensor", _tensor_type([count, bins], "i1"), bucket, bin_ids)
        inside = _create("torch.aten.logical_and", _tensor_type([count], "i1"),
                         _create("torch.aten.ge.Scalar", _tensor_type([count], "i1"), flat, make_constant(float(lo))),
                         _create("torch.aten.le.Scalar", _tensor_type([count], "i1"), flat, make_constant(float(hi))))
        inside = _create("torch.aten.unsqueeze", _tensor_type([count, 1], "i1"), inside, one)
        hits = _create("torch.aten.logical_and", _tensor_type([count, bins], "i1"), hits, inside)
        hits = _create("torch.aten.to.dtype", _tensor_type([count, bins], dtype), hits, dtype_code, false, false, none)
        dims = _create("torch.prim.ListConstruct", ir.Type.parse("!torch.list<int>"), make_constant(0))
        counts = _create("torch.aten.sum.dim_IntList", _tensor_type([bins], dtype), hits, dims, false, none)
    _replace_op(op, counts)


def legal_op_names(text: str) -> frozenset[str]:
    """`aten.softmax.int,torch.aten.gelu` -> {"aten.softmax.int", "aten.gelu"}."""
    names = (name.strip() for name in text.split(","))
    return frozenset(name.removeprefix("torch.") for name in names if name)


def decomposable_ops(module, has_function, legal: frozenset[str]) -> list:
    """The ops of user functions with a decomposition function that are not legal."""
    found = []
    for fn in user_functions(module):
        found += ops_in(fn.regions[0], lambda op: _decomposable(op, has_function, legal))
    return found


def _decomposable(op, has_function, legal: frozenset[str]) -> bool:
    key = library_key(op)
    return key is not None and key not in legal and has_function(DECOMPOSITION_FN_PREFIX + key)


def decompose_once(module, cloner: LibraryCloner, legal: frozenset[str], simplify) -> int:
    """Decompose every decomposable op once; returns how many."""
    found = decomposable_ops(module, cloner.has, legal)
    for op in found:
        key = library_key(op)
        fn = cloner.import_function(DECOMPOSITION_FN_PREFIX + key, op)
        _replace(op, fn, cloner.functions, simplify)
    return len(found)


def _replace(op, fn, by_symbol: dict, simplify) -> None:
    location = op.location
    parameters = fn.regions[0].blocks[0].arguments
    with location, ir.InsertionPoint(op):
        arguments = [_adapt(value, p.type, op)
                     for value, p in zip(op.operands, parameters, strict=True)]
        container = _container(fn, arguments)
    inline_library_calls_in(container, by_symbol)
    adapters = [defining_op(a) for a, v in zip(arguments, op.operands, strict=True) if a != v]
    definers = [d for v in op.operands if (d := defining_op(v)) is not None]
    # Folding an optional's None test exposes the cast under it: bypass, simplify again.
    for _ in range(2):
        _bypass_casts(adapters, container.regions[1])
        simplify(container)
    _bypass_casts(adapters, container.regions[1])
    operations, returned = _unwrap(container)
    _replace_results(op, returned, location)
    erase_if_dead([*adapters, *operations, *definers])


def _adapt(value: ir.Value, param_type: ir.Type, op) -> ir.Value:
    """`value` as the parameter type: a cast to `!torch.vtensor`, a derefine to an optional."""
    if value.type == param_type:
        return value
    text = str(param_type)
    if text.startswith("!torch.optional<") and str(value.type) != "!torch.none":
        value = _adapt(value, ir.Type.parse("!torch." + text[len("!torch.optional<"):-1]), op)
    if types.parse(param_type) is not None and types.parse(value.type) is not None:
        erasing = cast(value, param_type)
        erasing.owner.attributes[_MARK] = ir.UnitAttr.get()
        return erasing
    if text.startswith(_DEREFINED):
        return ir.Operation.create("torch.derefine", results=[param_type], operands=[value]).result
    op.location.emit_error(
        f"'{op.operation.name}' op operand of type {value.type} does not fit its decomposition's "
        f"parameter of type {param_type}"
    )
    raise PassFailure


_DEREFINED = ("!torch.optional<", "!torch.number", "!torch.union<")


def _container(fn, arguments: list):
    """A `torch.shape.calculate` whose calculation region holds a copy of `fn`'s body on
    `arguments` while it is simplified: the library-call inliner and the simplifier's
    patterns then see the copy alone, as they see a calculation. Never verified: it is
    unwrapped right after."""
    container = ir.Operation.create("torch.shape.calculate", results=_result_types(fn), regions=2)
    body = ir.Block.create_at_start(container.regions[0])
    calculation = ir.Block.create_at_start(container.regions[1])
    with ir.InsertionPoint(body):
        ir.Operation.create("torch.shape.calculate.yield", operands=[])
    with ir.InsertionPoint(calculation):
        placeholder = ir.Operation.create("torch.shape.calculate.yield.shapes", operands=[])
    _, returned = copy_body_before(fn, arguments, placeholder)
    with ir.InsertionPoint(placeholder):
        ir.Operation.create("torch.shape.calculate.yield.shapes", operands=returned)
    placeholder.erase()
    return container


_CAST = "torch.tensor_static_info_cast"
# Marks the casts to `!torch.vtensor` that pass operands as parameters: users that accept
# the operand's own type read it instead (the cast would hide what the type says).
_MARK = "torch_refine.decompose_cast"


def _is_cast(op) -> bool:
    return op.operation.name == _CAST


def _bypass_casts(adapters: list, region) -> None:
    for adapter in adapters:
        _bypass_adapter(adapter)
    for cast_op in ops_in(region, _is_erasing_cast):
        _bypass(cast_op)


def _bypass_adapter(adapter) -> None:
    """An operand's cast, also under the derefine that makes it an optional."""
    if adapter.operation.name == "torch.derefine" and defining_name(adapter.operands[0]) == _CAST:
        adapter = defining_op(adapter.operands[0])
    if _is_erasing_cast(adapter):
        _bypass(adapter)


def _is_erasing_cast(op) -> bool:
    """A cast this pass made to pass an operand as a `!torch.vtensor` parameter."""
    return _is_cast(op) and _MARK in op.operation.attributes


def _bypass(cast_op) -> None:
    """Users of a static-info cast that accept its operand's type read the operand directly:
    a cast to `!torch.vtensor` made for a parameter would hide what the operand's type says."""
    source = cast_op.operands[0]
    for use in list(cast_op.results[0].uses):
        if accepts(use, source.type):
            use.owner.operands[use.operand_number] = source


def _simplifier():
    pattern_set = rewrite.RewritePatternSet()
    run = FactStore()  # a lowering asserts no facts: sizes have only the ranges the binds state
    for family in (scalars, lists, control_flow):
        for root, fn in family.patterns(Options(), run):
            pattern_set.add(root, fn)
    frozen = pattern_set.freeze()
    config = rewrite.GreedyRewriteConfig()
    config.use_top_down_traversal = True
    config.max_iterations = -1
    # As the simplifier's: hoisting folded constants out of the container (to the
    # function's entry) can break dominance inside peeled loops.
    config.region_simplification_level = rewrite.GreedySimplifyRegionLevel.DISABLED
    config.enable_constant_cse = False

    def simplify(container) -> None:
        scalars.mark_divisors(container.regions[1])
        rewrite.apply_patterns_and_fold_greedily(container, frozen, config)
        scalars.unmark_divisors(container.regions[1])

    return simplify


def _unwrap(container) -> tuple[list, list]:
    """Move the simplified body out before the container; returns its ops and what it yielded."""
    found = move_body_before(container.regions[1].blocks[0], container)
    container.erase()
    return found


def _replace_results(op, returned: list, location) -> None:
    results = list(op.results)
    unpack = _list_result_unpack(results, [str(r.type) for r in results])
    values = _list_elements(returned, unpack)
    if values is None:
        unpack = None
        values = _elements(returned, len(op.results))
    if values is None:
        location.emit_error(
            f"'{op.operation.name}' op: its decomposition's results do not match the op's"
        )
        raise PassFailure
    targets = list(unpack.results) if unpack is not None else list(op.results)
    with location, ir.InsertionPoint(op):
        for old, new in zip(targets, values, strict=True):
            old.replace_all_uses_with(new if new.type == old.type else cast(new, old.type))
    if unpack is not None:
        unpack.erase()
    op.erase()


def _elements(returned: list, count: int) -> list | None:
    if len(returned) == count:
        return returned
    producer = defining_op(returned[0]) if len(returned) == 1 else None
    if producer is None or producer.operation.name != "torch.prim.TupleConstruct":
        return None
    elements = list(producer.operands)
    return elements if len(elements) == count else None


def _list_elements(returned: list, unpack) -> list | None:
    if unpack is None or len(returned) != 1:
        return None
    producer = defining_op(returned[0])
    if producer is None or producer.operation.name != "torch.prim.ListConstruct":
        return None
    elements = list(producer.operands)
    return elements if len(elements) == len(unpack.results) else None


def _finish_casts(module) -> None:
    """Bypass the marked casts everywhere (one made for an op a later decomposition
    replaced may now feed another), erase the unused ones and unmark the rest."""
    for fn in user_functions(module):
        marked = ops_in(fn.regions[0], _is_erasing_cast)
        for cast_op in marked:
            _bypass(cast_op)
            if list(cast_op.results[0].uses):
                del cast_op.operation.attributes[_MARK]
            else:
                cast_op.operation.erase()


def _erase_identity_casts(module) -> None:
    def identity(op) -> bool:
        return _is_cast(op) and op.operands[0].type == op.results[0].type

    for fn in user_functions(module):
        for cast_op in ops_in(fn.regions[0], identity):
            cast_op.results[0].replace_all_uses_with(cast_op.operands[0])
            cast_op.erase()


def _result_types(fn) -> list:
    function_type = ir.TypeAttr(fn.operation.attributes["function_type"]).value
    return list(ir.FunctionType(function_type).results)
