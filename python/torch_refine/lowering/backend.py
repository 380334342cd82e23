"""`torch-refine-backend-pipeline`: from Torch IR as `torch.export` leaves it (raw, not
decomposed, not refined by torch-mlir) to one of torch-mlir's backends.

Rounds of: our refinement (`torch-refine-pipeline`), a decomposition pass (torch-mlir's
`torch-decompose-complex-ops` by default; `decomposition=` names another, ours or C++,
that takes `legal-ops`), and torch-mlir's simplification passes, until a round leaves
the module unchanged. Then torch-mlir's own contract check
(`torch-verify-backend-contract-no-decompositions`: value semantics, known ranks and
dtypes) and the backend pipeline `torch-backend-to-<backend>-backend-pipeline`, whose
conversions reject any op left that the backend cannot take.

Guards (`torch.runtime.assert`) are kept, except for stablehlo and tosa, whose contracts
admit no runtime check: for them they are dropped with a warning (a `RefinementWarning`,
which torch-refine-opt prints as a `warning:` diagnostic), the program's own asserts too;
for stablehlo with `shape-assertions=true` they are kept as `stablehlo.custom_call
@shape_assertion` instead. For tosa they are asserted first, so that refinement's facts
give the sizes a program reads as TOSA's constant shapes (`sizes_for_tosa`), and the
warning names those dropped.

`prepare_for_backend` is what every path into torch-mlir's backend pipelines does first
(this pass, `export_and_import`'s backend output types, `jit.compile_module`): ops no
backend lowers decomposed, symbolic shape ops erased, asserts dropped for stablehlo and
tosa, for linalg dynamic views given to the lowering as reshapes, and for tosa the sizes a
program reads given as constants where refinement proves them (`sizes_for_tosa`).

The C++ passes run through nested PassManagers on the module; no op handle is kept
across them (docs/design.md, "Rules the bindings impose").
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

from torch_mlir import ir
from torch_mlir.passmanager import PassManager

from torch_refine.calculations import dim_facts
from torch_refine.calculations.purity import erase_if_dead, is_unused
from torch_refine.calculations.store import FactStore
from torch_refine.engine.refine import PipelineOptions, refine_to_fixed_point
from torch_refine.errors import PassFailure, RefinementWarning
from torch_refine.ir import types
from torch_refine.ir.constants import NotConstant, constant_value, defining_op, make_constant
from torch_refine.ir.diagnostics import position_of
from torch_refine.ir.module import erase_symbolic_shape_ops, ops_in
from torch_refine.lowering.decompose import decompose_unlowerable

PIPELINE = "torch-refine-backend-pipeline"  # the pass whose messages these are
BACKENDS = ("linalg-on-tensors", "tosa", "stablehlo")
GUARD_FREE_BACKENDS = ("stablehlo", "tosa")  # their backend contract admits no runtime check
DEFAULT_DECOMPOSITION = "torch-decompose-complex-ops"
# torch-mlir's simplifications, without its refinement and decompositions.
SIMPLIFICATION = (
    "canonicalize",
    "func.func(torch-recompose-complex-ops)",
    "func.func(torch-reduce-op-variants)",
    "canonicalize",
    "symbol-dce",
    "func.func(torch-maximize-value-semantics)",
    "torch-refine-public-return",
    "canonicalize",
)
CONTRACT_CHECK = "torch-verify-backend-contract-no-decompositions"


@dataclass(frozen=True)
class BackendOptions:
    """The options of `torch-refine-backend-pipeline` (passes/backend_pipeline.py declares
    them with their help)."""

    backend: str
    legal_ops: str
    runtime_asserts: bool
    decomposition: str
    extra_library: str
    max_iterations: int
    shape_assertions: bool


def lower_to_backend(module, options: BackendOptions, decompose: Callable[[ir.Operation], None]) -> None:
    """Rounds of refinement, `decompose` (the decomposition pass) and simplification to
    the backend contract, then the backend's lowering."""
    if options.backend not in BACKENDS:
        expected = ", ".join(BACKENDS)
        module.location.emit_error(
            f"{PIPELINE}: unknown backend '{options.backend}'; expected one of {expected}"
        )
        raise PassFailure
    as_assertions = options.shape_assertions and options.backend == "stablehlo"
    # tosa: asserted for the facts sizes_for_tosa reads, then dropped, each named.
    keep_guards = options.runtime_asserts and (options.backend not in GUARD_FREE_BACKENDS or as_assertions
                                               or options.backend == "tosa")
    with module.context:
        decompose_unlowerable(module)
        _reach_contract(module, options, decompose, keep_guards)
        if not keep_guards:
            drop_runtime_asserts(module, options.backend if options.runtime_asserts else None, guards_unasserted=True)
        elif options.backend == "tosa":
            drop_runtime_asserts(module, options.backend)
        erase_symbolic_shape_ops(module)  # refinement has read them; no backend takes them
        run_passes(module, CONTRACT_CHECK)
        if options.backend == "linalg-on-tensors":
            dynamic_views_as_reshapes(module)
        if options.backend == "tosa":
            sizes_for_tosa(module)
        if as_assertions:
            asserts_as_shape_assertions(module)
        run_passes(module, backend_lowering(options.backend))


def _reach_contract(module, options: BackendOptions, decompose, keep_guards: bool) -> None:
    """Refine, decompose and simplify until a round changes nothing."""
    for round_index in range(options.max_iterations):
        refine_options = PipelineOptions(extra_library=options.extra_library,
                                         runtime_asserts=keep_guards and round_index == 0,
                                         keep_symbolic_dims=options.backend == "tosa")  # sizes_for_tosa reads them
        refine_to_fixed_point(module, refine_options)
        before = _fingerprint(module)
        decompose(module)
        run_passes(module, *SIMPLIFICATION)
        if _fingerprint(module) == before:
            return
    warnings.warn(
        f"{PIPELINE}: the module still changed after {options.max_iterations} rounds; stopping",
        RuntimeWarning,
        stacklevel=3,
    )


def run_passes(module, *pipeline: str) -> None:
    """Run C++ passes on the module; their errors are re-emitted at their locations."""
    try:
        PassManager.parse(f"builtin.module({','.join(pipeline)})").run(module)
    except ir.MLIRError as error:
        for diagnostic in error.error_diagnostics:
            diagnostic.location.emit_error(diagnostic.message)
        raise PassFailure from None
    except ValueError as error:  # a pass name or option MLIR does not know
        module.location.emit_error(str(error))
        raise PassFailure from None


def _fingerprint(module) -> str:
    return module.get_asm(enable_debug_info=False)


def backend_lowering(backend: str, allow_non_finites: bool = True) -> str:
    """torch-mlir's pipeline from backend-contract Torch IR to `backend`, as a module pass."""
    options = "" if backend == "tosa" else f"{{allow-non-finites={str(allow_non_finites).lower()}}}"
    return f"torch-backend-to-{backend}-backend-pipeline{options}"


def prepare_for_backend(module_op: ir.Operation, backend: str) -> None:
    """What backend-contract Torch IR needs before torch-mlir's `backend` pipeline: ops no
    backend lowers decomposed, no symbolic shape ops (no backend legalizes them), no
    runtime assert for a backend that admits none (dropped with a warning), for linalg
    dynamic views as reshapes (`dynamic_views_as_reshapes`), and for tosa constant sizes
    where refinement proves them (`sizes_for_tosa`)."""
    decompose_unlowerable(module_op)
    if backend == "tosa":  # the symbolic dims sizes_for_tosa reads, while binds and asserts say them
        refine_to_fixed_point(module_op, PipelineOptions(keep_symbolic_dims=True))
    erase_symbolic_shape_ops(module_op)
    if backend in GUARD_FREE_BACKENDS:
        drop_runtime_asserts(module_op, backend)
    if backend == "linalg-on-tensors":
        dynamic_views_as_reshapes(module_op)
    if backend == "tosa":
        sizes_for_tosa(module_op)


def load_backend_dialects(context: ir.Context, backend: str) -> None:
    """Load the dialects `backend`'s lowering makes (torch_c, tensor, stablehlo), so that
    ops of them are created registered: they are in no registry Python sees, and running
    the lowering on a trivial module is what loads them."""
    trivial = ir.Module.parse("func.func @f() {\n  return\n}", context)
    PassManager.parse(f"builtin.module({backend_lowering(backend)})").run(trivial.operation)


def asserts_as_shape_assertions(module_op: ir.Operation) -> None:
    """Each `torch.runtime.assert` as `stablehlo.custom_call @shape_assertion` of its
    condition (a `tensor<i1>`), its message as `error_message`: the convention of JAX's
    exporter for the checks of a program with symbolic shapes, which consumers that know it
    check and others skip. The stablehlo lowering converts the condition's ops."""
    asserts = ops_in(module_op.regions[0], lambda op: op.name == "torch.runtime.assert")
    if not asserts:
        return
    load_backend_dialects(module_op.context, "stablehlo")
    i1 = ir.IntegerType.get_signless(1)
    for op in asserts:
        with ir.InsertionPoint(op), op.location:
            condition = ir.Operation.create("torch_c.to_i1", results=[i1], operands=[op.operands[0]]).result
            condition = ir.Operation.create("tensor.from_elements", results=[ir.RankedTensorType.get([], i1)],
                                            operands=[condition]).result
            ir.Operation.create("stablehlo.custom_call", results=[], operands=[condition], attributes={
                "call_target_name": ir.StringAttr.get("shape_assertion"),
                "has_side_effect": ir.BoolAttr.get(True),
                "api_version": ir.IntegerAttr.get(ir.IntegerType.get_signless(32), 2),
                "error_message": op.attributes["message"],
            })
        op.erase()


def drop_runtime_asserts(module_op: ir.Operation, backend: str | None, guards_unasserted: bool = False) -> None:
    """Erase every `torch.runtime.assert` (and the conditions only they read). For a
    `backend` whose contract admits no runtime check, say so where something goes
    unchecked (the asserts dropped; `guards_unasserted`: refinement asserted none): a
    `RefinementWarning` at the module naming them. None drops them silently (asserts off)."""
    asserts = ops_in(module_op.regions[0], lambda op: op.name == "torch.runtime.assert")
    messages = [ir.StringAttr(op.attributes["message"]).value for op in asserts]
    conditions = [defining_op(op.operands[0]) for op in asserts]
    for op in asserts:
        op.erase()
    # Their conditions are dead now (canonicalize keeps torch's int comparisons: no backend
    # without runtime checks takes the size reads they make).
    erase_if_dead([op for op in conditions if op is not None])
    PassManager.parse("builtin.module(canonicalize)").run(module_op)
    if backend is None or not (messages or guards_unasserted):
        return
    unchecked = ["guards are not asserted"] if guards_unasserted else []
    if messages:
        shown = "; ".join(f"'{m}'" for m in messages[:3]) + ("; ..." if len(messages) > 3 else "")
        unchecked.append(f"{len(messages)} runtime asserts are dropped ({shown})")
    text = (f"the {backend} backend admits no runtime check: {' and '.join(unchecked)}; "
            "a run that breaks them is not detected")
    warnings.warn(RefinementWarning(text, position_of(module_op.location)), stacklevel=2)


def dynamic_views_as_reshapes(module_op: ir.Operation) -> None:
    """Give every `aten.view` with a dynamic size to the lowering as a `tensor.reshape` of
    the sizes it is given.

    torch-mlir's view lowering pairs input and output dims by their static sizes and by
    `aten.size.int` of the view's own input; a dynamic size computed any other way (the
    product of another tensor's batch and sequence, as exported programs compute it) is
    paired with the first dynamic input dim, and what remains is assumed to be 1: RoFormer
    viewing `[b, s, 32]` as `[b * s, 32]` became `[b, 1, 32]` and failed "mismatched size
    for broadcast" at run time. A size of -1 is paired the same way: Qwen3Moe's
    `view(hidden, [-1, 32])` of `[b, s, 32]` became a `tensor.cast` to `[b, 1, 32]` and a
    collapse to `[b, 32]` (no runtime check), and the ops around it, given the cast's static
    1, computed `b` rows where there are `b * s`. A reshape to the runtime sizes, a -1 as
    the input's element count over the other sizes, needs no pairing."""
    views = ops_in(module_op.regions[0], lambda op: op.operation.name == "torch.aten.view")
    if not views:
        return
    load_backend_dialects(module_op.context, "linalg-on-tensors")
    for view in views:
        if (plan := _reshape_plan(view)) is not None:
            _replace_by_reshape(view, *plan)


def _reshape_plan(view) -> tuple[ir.Type, ir.Type, list] | None:
    """The builtin types of a dynamic view's input and result and its size elements (an
    int for a constant, None for a -1 the result's type leaves dynamic), or None where the
    view is static or not expressible."""
    source, result = view.operands[0], view.results[0]
    source_info, result_info = types.parse(source.type), types.parse(result.type)
    if source_info is None or result_info is None or not source_info.sizes or not result_info.sizes:
        return None
    if source_info.has_sizes and result_info.has_sizes:
        return None
    sizes = defining_op(view.operands[1])
    if sizes is None or sizes.operation.name != "torch.prim.ListConstruct":
        return None
    elements = []
    for element, static in zip(sizes.operands, result_info.sizes, strict=True):
        try:
            value = constant_value(element)
        except NotConstant:
            elements.append(element)
            continue
        elements.append(static if value < 0 else value)
    builtin = (_builtin_tensor_type(source_info), _builtin_tensor_type(result_info))
    if None in builtin:
        return None
    return (*builtin, elements)


def _replace_by_reshape(view, source_type: ir.Type, result_type: ir.Type, elements: list) -> None:
    i64 = ir.IntegerType.get_signless(64)
    with ir.InsertionPoint(view), view.location:
        source = _create("torch_c.to_builtin_tensor", source_type, [view.operands[0]])
        sizes = [
            _i64_constant(e) if isinstance(e, int) else _create("torch_c.to_i64", i64, [e])
            for e in elements if e is not None
        ]
        inferred = [k for k, e in enumerate(elements) if e is None]  # `in` would compare Values with None
        if inferred:
            sizes.insert(inferred[0], _inferred_size(source, source_type, sizes))
        shape_type = ir.RankedTensorType.get([len(sizes)], i64)
        shape = _create("tensor.from_elements", shape_type, sizes)
        reshaped = _create("tensor.reshape", result_type, [source, shape])
        back = _create("torch_c.from_builtin_tensor", view.results[0].type, [reshaped])
    view.results[0].replace_all_uses_with(back)
    view.erase()


def _inferred_size(source: ir.Value, source_type: ir.Type, known_sizes: list) -> ir.Value:
    """The i64 a view's -1 stands for: `source`'s element count over the product of the
    other sizes, that product taken as at least 1 (PyTorch rejects a -1 beside a 0; the
    division must not trap on it)."""
    i64, index = ir.IntegerType.get_signless(64), ir.IndexType.get()
    ranked = ir.RankedTensorType(source_type)
    count = _i64_constant(1)
    for dim in range(ranked.rank):
        if not ranked.is_dynamic_dim(dim):
            extent = _i64_constant(ranked.get_dim_size(dim))
        else:
            position = _create("arith.constant", index, [], {"value": ir.IntegerAttr.get(index, dim)})
            extent = _create("arith.index_cast", i64, [_create("tensor.dim", index, [source, position])])
        count = _create("arith.muli", i64, [count, extent])
    known = _i64_constant(1)
    for size in known_sizes:
        known = _create("arith.muli", i64, [known, size])
    known = _create("arith.maxsi", i64, [known, _i64_constant(1)])
    return _create("arith.divsi", i64, [count, known])


def _i64_constant(value: int) -> ir.Value:
    i64 = ir.IntegerType.get_signless(64)
    return _create("arith.constant", i64, [], {"value": ir.IntegerAttr.get(i64, value)})


def _create(name: str, result_type: ir.Type, operands: list, attributes: dict | None = None) -> ir.Value:
    return ir.Operation.create(name, results=[result_type], operands=operands, attributes=attributes).result


# Torch-dialect element types whose builtin type differs (integers are signless there).
_BUILTIN_ELEMENTS = {"ui8": "i8", "si8": "i8", "si16": "i16", "si32": "i32", "si64": "i64"}


def _builtin_tensor_type(info: types.TensorInfo) -> ir.Type | None:
    if info.dtype is None or info.dtype.startswith("!torch."):
        return None
    dims = "".join("?x" if size is None else f"{size}x" for size in info.sizes)
    return ir.Type.parse(f"tensor<{dims}{_BUILTIN_ELEMENTS.get(info.dtype, info.dtype)}>")




# Ops whose size list TOSA takes as a `tosa.const_shape` of constants and at most one -1.
_VIEWS = ("torch.aten.view", "torch.aten.reshape", "torch.aten._unsafe_view")
_BROADCASTS = ("torch.aten.broadcast_to", "torch.aten.expand")


def sizes_for_tosa(module_op: ir.Operation) -> None:
    """Dynamic sizes as TOSA takes them: its shapes are constants, so torch-mlir's TOSA
    conversion rejects every `aten.size.int` of a dynamic dim, and a broadcast of a tensor
    with a dynamic dim. Where refinement's types and symbolic dims (kept on the ops by
    `torch-refine-pipeline{keep-symbolic-dims}`) prove it, the sizes a program reads
    become constants:

    - a view's size list with one size not constant: that size is the result's static
      size, or -1 (`tosa.reshape` infers one dim: the element count fixes it when the
      other sizes are constants, none 0);
    - a broadcast whose every size is its input's own (equal constants, -1, or the same
      symbolic dim) is its input;
    - an elementwise op (`where.self`, `add`, `sub`, `mul`, `div` of tensors) broadcasts
      its operands itself: a broadcast operand of the dtype of the others is given as its
      input where the others already make every dim of the result (its symbolic dims).

    What remains reading a dynamic size (a broadcast that grows a dynamic dim, an
    `arange` of a dynamic length) is rejected by the conversion, at its op."""
    replaced = []  # size lists no longer read, with the size reads computing them
    run = FactStore()  # reads the dims refinement left; asserts nothing
    for op in ops_in(module_op.regions[0], lambda op: op.operation.name in _VIEWS):
        sizes = defining_op(op.operands[1])
        if _constant_view_sizes(op):
            replaced.append(sizes)
    for op in ops_in(module_op.regions[0], lambda op: op.operation.name in _BROADCASTS):
        if _is_identity_broadcast(op, run):
            op.results[0].replace_all_uses_with(op.operands[0])
        else:
            _absorb_broadcast(op, run)
        if is_unused(op):
            replaced.append(defining_op(op.operands[1]))
            op.erase()
    dim_facts.strip(module_op)
    erase_if_dead([op for op in replaced if op is not None])


def _constant_view_sizes(view) -> bool:
    """Give the view a size list of constants and one -1 if that is its meaning; whether it did."""
    result = types.parse(view.results[0].type)
    sizes = defining_op(view.operands[1])
    if result is None or result.sizes is None or sizes is None:
        return False
    if sizes.operation.name != "torch.prim.ListConstruct" or len(sizes.operands) != len(result.sizes):
        return False
    given = [_constant_or_none(e) for e in sizes.operands]
    if None not in given:
        return False  # TOSA takes it as it is
    constants = [size if static is None else static for size, static in zip(given, result.sizes, strict=True)]
    unknown = [i for i, c in enumerate(constants) if c is None or c < 0]
    if len(unknown) > 1 or 0 in constants:
        return False
    constants = [-1 if i in unknown else c for i, c in enumerate(constants)]
    with ir.InsertionPoint(view), view.location:
        elements = [make_constant(c) for c in constants]
        view.operands[1] = _create("torch.prim.ListConstruct", sizes.results[0].type, elements)
    return True


def _constant_or_none(value: ir.Value) -> int | None:
    try:
        return constant_value(value)
    except NotConstant:
        return None


def _is_identity_broadcast(op, run: FactStore) -> bool:
    source, result = op.operands[0], op.results[0]
    sizes = defining_op(op.operands[1])
    if source.type != result.type or sizes is None or sizes.operation.name != "torch.prim.ListConstruct":
        return False
    info = types.parse(source.type)
    if info is None or info.sizes is None or len(info.sizes) != len(sizes.operands):
        return False
    source_dims, result_dims = _symbolic_dims(source, run), _symbolic_dims(result, run)
    for dim, (element, static) in enumerate(zip(sizes.operands, info.sizes, strict=True)):
        size = _constant_or_none(element)
        if size == -1 or (static is not None and size == static):
            continue
        if static is not None or size is not None:
            return False  # a constant size of a dynamic dim, or a dynamic size of a static one
        if not source_dims or not result_dims or not source_dims[dim] or source_dims[dim] != result_dims[dim]:
            return False
    return True


# Elementwise ops whose tensor operands broadcast to the result, with the first operand
# whose dtype the result's promotes (where's condition takes no part).
_ELEMENTWISE = {"torch.aten.where.self": 1, "torch.aten.add.Tensor": 0, "torch.aten.sub.Tensor": 0,
                "torch.aten.mul.Tensor": 0, "torch.aten.div.Tensor": 0}


def _absorb_broadcast(broadcast, run: FactStore) -> None:
    """Give `broadcast`'s input instead of it to each elementwise user whose other operands
    make every dim of its result, where the result's dtype cannot change: the operands
    promoted all have the input's dtype (a 0-d tensor promotes as a lesser category)."""
    source = broadcast.operands[0]
    info = types.parse(source.type)
    if info is None or info.dtype is None:
        return
    for use in list(broadcast.results[0].uses):
        user = use.owner
        first_promoted = _ELEMENTWISE.get(user.operation.name)
        if first_promoted is None:
            continue
        others = [(i, v) for i, v in enumerate(user.operands)
                  if i != use.operand_number and str(v.type).startswith("!torch.vtensor")]
        promoted = [v for i, v in others if i >= first_promoted]
        if use.operand_number >= first_promoted and any(_dtype(v) != info.dtype for v in promoted):
            continue
        if _others_make_result(user.results[0], [v for _, v in others], run):
            user.operands[use.operand_number] = source


def _dtype(value: ir.Value) -> str | None:
    info = types.parse(value.type)
    return None if info is None else info.dtype


def _others_make_result(result: ir.Value, others: list, run: FactStore) -> bool:
    """Whether `others` broadcast to every dim of `result` by themselves: per dim, the
    result's size is 1 or some operand's same symbolic dim (right-aligned)."""
    result_dims = _symbolic_dims(result, run)
    other_dims = [_symbolic_dims(v, run) for v in others]
    if not result_dims or any(d is None for d in other_dims):
        return False
    rank = len(result_dims)
    if not any(len(d) == rank for d in other_dims):
        return False
    for index, size in enumerate(result_dims):
        if size == "1":
            continue
        aligned = [d[index - rank + len(d)] for d in other_dims if index - rank + len(d) >= 0]
        if not size or size not in aligned:
            return False
    return True


def _symbolic_dims(value: ir.Value, run: FactStore) -> list[str] | None:
    """Per dim, its symbolic size as refinement found it ("" when unknown), or the static
    sizes of a value no calculation described (a literal)."""
    dims = dim_facts.tensor_dims(value, run)
    if dims is not None:
        return dims
    info = types.parse(value.type)
    if info is None or info.sizes is None or None in info.sizes:
        return None
    return [str(size) for size in info.sizes]
