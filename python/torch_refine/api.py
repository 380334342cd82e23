"""The Python API: import a PyTorch model, refine any Torch-dialect module, re-specialize.

- `export_and_import(model, *args)`: `torch.export` + torch-mlir's FX importer + refinement;
- `refine(module)`: refine IR from anywhere (text or a `torch_mlir.ir.Module`), in place;
- `specialize(module, input_types)`: new argument types, derived types dropped, refined again.

Each returns a `Refined(module, report)`, which stands in for the module; the report
(`report.TypeReport`, no truth) counts the tensor values fully refined, partially refined
and unknown, with a reason for every unknown one. Function signatures: after refinement the
result types of every function that nothing in the module calls are narrowed to what its
returned values are known to be, so the signature says what refinement learned; called
functions keep their signatures, which their call sites depend on.

Only `export_and_import` imports torch; it takes torch_mlir.fx.export_and_import's
arguments, so switching from torch-mlir is a change of module name.
"""

from __future__ import annotations

import operator
import os
import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from torch_mlir import ir

from torch_refine import passes, report
from torch_refine.calculations import dim_facts
from torch_refine.calculations.symbols import user_functions
from torch_refine.driver.passmanager import InternalPassError, PassManager, save_reproducer
from torch_refine.errors import RefinementError
from torch_refine.ir import parsing, types
from torch_refine.ir.constants import typed_constant
from torch_refine.ir.erase import erase_tensor_types, retype
from torch_refine.ir.module import symbol_name
from torch_refine.library import loader as library_loader
from torch_refine.symbolic.comparisons import INT_COMPARISONS

PIPELINE = "torch-refine-pipeline"


@dataclass
class Refined:
    """A refined module and its report. It stands in for its `ir.Module` (`str()` is the IR;
    `.operation`, `.body`, `.context` and every other attribute are the module's), and
    unpacks and indexes as the pair `(module, report)`. `input_names` names the arguments of an exported
    program (`execute` places keyword arguments by them); None for other IR."""

    module: ir.Module
    report: report.TypeReport
    input_names: tuple[str, ...] | None = None

    def __iter__(self):
        return iter((self.module, self.report))

    def __getitem__(self, index):
        return (self.module, self.report)[index]

    def __len__(self) -> int:
        return 2

    def __str__(self) -> str:
        return str(self.module)

    def __getattr__(self, name: str):
        if name in ("module", "report", "input_names"):  # not set yet (copy, pickle)
            raise AttributeError(name)
        return getattr(self.module, name)


# torch_mlir.fx.export_and_import's options, passed through unchanged.
_FX_OPTIONS = ("fx_importer", "strict", "experimental_support_mutation",
               "import_symbolic_shape_expressions", "hooks", "func_name",
               "enable_graph_printing", "verbose", "enable_ir_printing", "backend_legal_ops",
               "allow_non_finites")


def export_and_import(
    f,
    *args,
    output_type="torch",
    dynamic_shapes=None,
    strict: bool = False,
    decomposition_table=None,
    refine: bool = True,
    extra_library: str = "",
    runtime_asserts: bool = True,
    max_iterations: int = 10,
    **kwargs,
) -> Refined:
    """`torch_mlir.fx.export_and_import` with refinement: export `f(*args, **kwargs)` (an
    `nn.Module`, or an `ExportedProgram` as it is), import it with torch-mlir's FX importer
    and, unless `refine=False`, run `torch-refine-pipeline` on the Torch-dialect IR.

    Takes every argument torch-mlir's function takes (`output_type`, `fx_importer`,
    `strict`, `experimental_support_mutation`, `import_symbolic_shape_expressions`,
    `hooks`, `decomposition_table`, `func_name`, the printing flags, `backend_legal_ops`,
    `allow_non_finites`), plus `refine`'s options. The report also compares the refined
    types with those torch.export traced (`report.compare_traced`: values compared,
    contradictions). `output_type` "raw" refines the imported
    IR, "torch" (the default) the backend-contract IR; "linalg-on-tensors", "tosa" and
    "stablehlo" refine the Torch IR first, then run torch-mlir's backend lowering (the
    report is of the refined Torch IR). Non-persistent buffers (rotary frequencies,
    position ids) are imported from the program's constants; the model is not changed.
    """
    import torch
    from torch_mlir.compiler_utils import OutputType
    from torch_mlir.extras.fx_decomp_util import get_decomposition_table

    from torch_refine.importer import fx as graph_prepass

    fx_options = {name: kwargs.pop(name) for name in _FX_OPTIONS if name in kwargs}
    output = OutputType.get(output_type)
    _check_options(extra_library, runtime_asserts, max_iterations)
    if isinstance(f, torch.export.ExportedProgram):
        program = f
    else:
        program = torch.export.export(f, args, kwargs, dynamic_shapes=dynamic_shapes,
                                      strict=strict)
    if decomposition_table is None:
        decomposition_table = _keeping(get_decomposition_table(), fx_options.get("backend_legal_ops"))
    if decomposition_table:
        program = program.run_decompositions(decomposition_table)
    if output != OutputType.RAW:  # torch-mlir's backend pipeline rejects complex values
        program = graph_prepass.real_fourier_transforms(program)
    if not fx_options.get("experimental_support_mutation", False):
        program = _with_buffers_in_state_dict(program)
    torch_ir = OutputType.RAW if output == OutputType.RAW else OutputType.TORCH
    module = import_program(program, torch_ir, **fx_options)
    names = tuple(program.graph_signature.user_inputs)
    if runtime_asserts and not fx_options.get("experimental_support_mutation", False):
        # before refinement, which relies on them as facts (engine/guards.py)
        _assert_input_checks(module, graph_prepass.input_checks(program), fx_options.get("func_name", "main"))
    if refine:  # an export's program: its dynamic dims are at least 2, ranges imported or not
        refined = _refine(module, extra_library, runtime_asserts, max_iterations, broadcast_equal=True)
    else:
        with module.context:
            refined = Refined(module, _count(module.operation))
    refined.input_names = names
    with module.context:
        report.compare_traced(refined.report, module.operation, graph_prepass.traced_types(program))
    if output not in (OutputType.RAW, OutputType.TORCH):
        _lower_to_backend(module, output.value, fx_options.get("allow_non_finites", True))
    return refined


def _lower_to_backend(module: ir.Module, backend: str, allow_non_finites: bool) -> None:
    """torch-mlir's backend pipeline, after what every path to a backend does first
    (`backend_pipeline.prepare_for_backend`: for stablehlo the asserts dropped with a
    warning, for linalg dynamic views as reshapes); its diagnostics in the error."""
    from torch_refine.lowering.backend import backend_lowering, prepare_for_backend

    with module.context:
        prepare_for_backend(module.operation, backend)
        _run_torch_mlir(module, f"builtin.module({backend_lowering(backend, allow_non_finites)})",
                        f"lowering to {backend}")


def _run_torch_mlir(module: ir.Module, pipeline: str, what: str) -> None:
    """A pipeline of torch-mlir's passes; a failure raises RefinementError with its
    diagnostics (torch-mlir's own runner prints them to the process's stderr and raises
    with none)."""
    from torch_mlir.passmanager import PassManager as TorchMlirPassManager

    try:
        with module.context:
            TorchMlirPassManager.parse(pipeline).run(module.operation)
    except ir.MLIRError as error:
        raise RefinementError(f"{what} failed", parsing.format_error(error)) from None


def _keeping(table: dict, legal_ops) -> dict:
    """The default decomposition table less the ops `backend_legal_ops` names (as
    `aten.linear`), which torch-mlir passes only to its backend pipeline: by then the
    table has decomposed them."""
    if not legal_ops:
        return table
    legal = {name.removeprefix("torch.") for name in legal_ops}
    return {op: fn for op, fn in table.items() if _op_name(op) not in legal}


def _op_name(op) -> str:
    """`aten.linear` for torch.ops.aten.linear.default, `aten.add.Tensor` for add.Tensor."""
    namespace, name = op.name().split("::")
    overload = op._overloadname
    return f"{namespace}.{name}" if overload == "default" else f"{namespace}.{name}.{overload}"


def import_program(program, output_type, **fx_options) -> ir.Module:
    """`torch_mlir.fx.export_and_import` of an ExportedProgram (no decompositions), so
    that refinement sees what the program knows:

    - a program with dynamic dims is imported with its symbolic shape expressions unless
      `import_symbolic_shape_expressions` says otherwise: each dim's range and which dims
      are equal (docs/symbolic-dims.md); where the importer cannot translate one (it has
      no `FloorDiv`), without them;
    - a raw program whose in-place ops the importer emits on value tensors (which does not
      verify) is functionalized first with an empty decomposition table: no op decomposed.
    """
    import copy

    from torch_mlir import fx
    from torch_mlir.compiler_utils import OutputType

    from torch_refine.importer import fx as graph_prepass

    options = dict(fx_options)
    if _has_dynamic_dims(program):
        options.setdefault("import_symbolic_shape_expressions", True)

    def imported(source):
        prepared = graph_prepass.prepare(copy.deepcopy(source))
        return fx.export_and_import(prepared, output_type="raw", decomposition_table={}, **options)

    untranslated = False  # symbolic shape expressions asked for, which the importer cannot translate
    try:
        module = imported(program)
    except NotImplementedError as error:
        if "sympy" not in str(error) or not options.get("import_symbolic_shape_expressions"):
            raise
        options["import_symbolic_shape_expressions"] = False
        untranslated = True
        module = imported(program)
    if not _verifies(module):
        module = imported(program.run_decompositions({}))
    if OutputType.get(output_type) == OutputType.TORCH:
        _to_backend_contract(module, options.get("backend_legal_ops"))
    _checks_as_runtime_asserts(module)
    if untranslated:
        _bind_input_symbols(module, program, options.get("func_name", "main"))
    return module


def _to_backend_contract(module: ir.Module, backend_legal_ops) -> None:
    """What torch-mlir's importer runs for `output_type="torch"`, after the ops no backend
    lowers are decomposed (`decompose.decompose_unlowerable`: Qwen3Moe's `histc`), with the
    diagnostics of a failure in the error."""
    from torch_refine.lowering.decompose import decompose_unlowerable

    legal = f"backend-legal-ops={','.join(backend_legal_ops)} " if backend_legal_ops else ""
    with module.context:
        decompose_unlowerable(module.operation)
    _run_torch_mlir(module, "builtin.module(func.func(torch-match-quantized-custom-ops), "
                            f"torchdynamo-export-to-torch-backend-pipeline{{{legal}extra-library=}})",
                    "torch-mlir's lowering to the backend contract")


# torch.export's unbounded range (int_oo), as the importer writes it.
_UNBOUNDED = 2**63 - 1


def _bind_input_symbols(module: ir.Module, program, function: str) -> None:
    """Export's symbols of the inputs' dims (`importer.fx.input_symbols`) as
    `torch.symbolic_int`s bound to the arguments, for a program whose symbolic shape
    expressions the importer could not translate (MPT's `Max`): refinement reads their
    ranges (calculations/ranges.py), which export's input checks assert at run time."""
    from torch_refine.importer import fx as graph_prepass

    symbols, inputs = graph_prepass.input_symbols(program)
    if not inputs:
        return
    with module.context:
        entry = _function(module.operation, function).regions[0].blocks[0]
        with ir.InsertionPoint(entry.operations[0]), ir.Location.unknown():
            values = {}
            for name, (least, greatest) in symbols.items():
                attributes = {"symbol_name": ir.StringAttr.get(name),
                              "min_val": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), least or 0),
                              "max_val": ir.IntegerAttr.get(ir.IntegerType.get_signless(64),
                                                            _UNBOUNDED if greatest is None else greatest)}
                values[name] = ir.Operation.create("torch.symbolic_int", results=[ir.Type.parse("!torch.int")],
                                                   attributes=attributes).result
            for index, dims in inputs.items():
                _bind(entry.arguments[index], dims, values)


def _bind(argument: ir.Value, dims: list, values: dict) -> None:
    """`torch.bind_symbolic_shape` of an argument: each dim an int or (symbol, multiple)."""
    names = list(dict.fromkeys(d[0] for d in dims if isinstance(d, tuple)))
    expressions = [str(d) if isinstance(d, int) else f"s{names.index(d[0])} * {d[1]}" for d in dims]
    symbols = ", ".join(f"s{i}" for i in range(len(names)))
    shape = ir.Attribute.parse(f"affine_map<()[{symbols}] -> ({', '.join(expressions)})>")
    ir.Operation.create("torch.bind_symbolic_shape", operands=[argument, *(values[n] for n in names)],
                        attributes={"shape_expressions": shape})


def _checks_as_runtime_asserts(module: ir.Module) -> None:
    """What a program checks of the numbers and tensors it computes, as `torch.runtime.assert`s
    (which refinement decides and the backend pipeline lowers):

    - `aten._assert_scalar` (export's checks of computed numbers; a raw import keeps it);
    - `aten.sym_constrain_range` and `sym_constrain_range_for_size` (a data-dependent
      number's range, from `torch._check_is_size` or a program not re-traced by
      `run_decompositions`): each bound once per number, a size at least 0;
    - `aten._assert_tensor_metadata` (what `.to`/`.float()` checks of its input): the
      dtype and the sizes it names.
    """
    from torch_refine.ir.module import ops_in

    converters = {
        "torch.aten._assert_scalar": _scalar_assert,
        "torch.aten.sym_constrain_range": _range_asserts,
        "torch.aten.sym_constrain_range_for_size": _range_asserts,
        "torch.aten._assert_tensor_metadata": _metadata_asserts,
    }
    asserted: set = set()  # (number, comparison, bound) already asserted
    with module.context:
        for op in ops_in(module.operation.regions[0], lambda o: o.operation.name in converters):
            with ir.InsertionPoint(op), op.location:
                if converters[op.operation.name](op, asserted):
                    op.operation.erase()


def _runtime_assert(condition: ir.Value, message: str) -> None:
    ir.Operation.create("torch.runtime.assert", operands=[condition],
                        attributes={"message": ir.StringAttr.get(message)})


def _bool_op(name: str, operands: list) -> ir.Value:
    return ir.Operation.create(name, results=[ir.Type.parse("!torch.bool")], operands=operands).result


def _scalar_assert(op, asserted: set) -> bool:
    from torch_refine.ir.constants import NotConstant, constant_value

    try:
        message = constant_value(op.operands[1])
    except NotConstant:
        return False
    _runtime_assert(_bool_op("torch.aten.Bool.int", [op.operands[0]]), str(message))
    return True


def _range_asserts(op, asserted: set) -> bool:
    """`least <= number <= greatest` for the bounds given; a size's least is at least 0."""
    from torch_refine.ir.constants import NotConstant, constant_value, make_constant

    number, *bounds = op.operands
    try:
        least, greatest = (constant_value(b) for b in bounds)
    except NotConstant:
        return False
    if op.operation.name.endswith("_for_size"):
        least = max(least or 0, 0)
    name = op.operation.name.removeprefix("torch.")
    for comparison, bound, words in (("ge", least, "at least"), ("le", greatest, "at most")):
        if bound is None or (number, comparison, bound) in asserted:
            continue
        asserted.add((number, comparison, bound))
        holds = _bool_op(f"torch.aten.{comparison}.int", [number, make_constant(bound)])
        _runtime_assert(holds, f"{name}: the number must be {words} {bound}")
    return True


def _metadata_asserts(op, asserted: set) -> bool:
    """The dtype (`prim.dtype`) and the sizes (`aten.size`) the op names; device, layout
    and strides say nothing of a value tensor here. A dtype the tensor's type already has
    needs no assert."""
    from torch_refine.ir.constants import NotConstant, constant_value, make_constant

    tensor, sizes, _strides, dtype = op.operands[:4]
    try:
        dtype_code = constant_value(dtype)
    except NotConstant:
        return False
    info = types.parse(tensor.type)
    element = types.DTYPE_TO_ELEMENT.get(dtype_code)
    if dtype_code is not None and (info is None or info.dtype is None or info.dtype != element):
        actual = ir.Operation.create("torch.prim.dtype", results=[ir.Type.parse("!torch.int")],
                                     operands=[tensor]).result
        _runtime_assert(_bool_op("torch.aten.eq.int", [actual, make_constant(dtype_code)]),
                        f"_assert_tensor_metadata: the tensor's dtype must be {element or dtype_code}")
    if str(sizes.type) == "!torch.list<int>":
        actual = ir.Operation.create("torch.aten.size", results=[ir.Type.parse("!torch.list<int>")],
                                     operands=[tensor]).result
        _runtime_assert(_bool_op("torch.aten.eq.int_list", [actual, sizes]),
                        "_assert_tensor_metadata: the tensor's sizes differ from those traced")
    return True


def _assert_input_checks(module: ir.Module, checks: list, function: str) -> None:
    """What the ExportedProgram checks of its inputs' sizes (`importer.fx.input_checks`:
    ranges, and dims equal to what export traced them as) as `torch.runtime.assert`s at
    the start of `function`, after the arguments' binds (IREE rejects a read of an argument
    above its bind) and before any other op: refinement relied on them (a symbol's range
    decides comparisons), and a run outside them is not the program export traced
    (mobilevit exported with a dynamic image size computes wrong results past 64)."""
    from torch_refine.engine.guards import after_argument_binds

    if not checks:
        return
    with module.context:
        entry = _function(module.operation, function).regions[0].blocks[0]
        _hoist_argument_binds(entry)
        with after_argument_binds(entry), ir.Location.unknown():
            built: dict = {}
            for message, size, comparison, term in checks:
                operands = [_int_term(size, entry, built), _int_term(term, entry, built)]
                condition = ir.Operation.create(f"torch.aten.{comparison}.int", results=[ir.Type.parse("!torch.bool")],
                                                operands=operands).result
                ir.Operation.create("torch.runtime.assert", operands=[condition],
                                    attributes={"message": ir.StringAttr.get(message)})
        _erase_repeated_equalities(entry)


def _hoist_argument_binds(entry: ir.Block) -> None:
    """The symbols and the arguments' binds first in the entry block, ahead of the
    constants torch-mlir's canonicalization hoists: the input checks go after the binds and
    still before every op that makes a tensor, where refinement adopts them as facts
    (`guards.adopt_entry_asserts`) instead of erasing them as decided by the binds' ranges."""
    from torch_refine.engine.guards import binds_argument

    leading = [op for op in entry.operations if op.operation.name == "torch.symbolic_int"]
    leading += [op for op in entry.operations if binds_argument(op.operation)]
    for op in reversed(leading):
        op.move_before(entry.operations[0])


def _erase_repeated_equalities(entry: ir.Block) -> None:
    """Once per fact: an assert of two argument dims equal (refinement's broadcast rule on
    IR without symbolic shapes) after one of the same dims is erased, its ops with it."""
    seen = set()
    for op in list(entry.operations):
        if op.operation.name != "torch.runtime.assert" or (key := _equality_key(op.operands[0])) is None:
            continue
        if key not in seen:
            seen.add(key)
            continue
        condition = op.operands[0].owner
        op.operation.erase()
        for producer in [condition, *(o.owner for o in condition.operands)]:
            if isinstance(producer, ir.Operation | ir.OpView) and not list(producer.results[0].uses):
                producer.operation.erase()


def _equality_key(condition: ir.Value) -> frozenset | None:
    """The two (argument, dim) an `eq.int` of two `size.int`s of arguments compares."""
    from torch_refine.ir.constants import NotConstant, constant_value, defining_op

    op = defining_op(condition)
    if op is None or op.operation.name != "torch.aten.eq.int":
        return None
    dims = []
    for operand in op.operands:
        size = defining_op(operand)
        if size is None or size.operation.name != "torch.aten.size.int":
            return None
        argument = size.operands[0]
        if not isinstance(argument, ir.BlockArgument):
            return None
        try:
            dims.append((argument.arg_number, constant_value(size.operands[1])))
        except NotConstant:
            return None
    return frozenset(dims)


def _int_term(term, entry: ir.Block, built: dict) -> ir.Value:
    """An `importer.fx.Term` as ops at the insertion point, each distinct term once."""
    from torch_refine.ir.constants import make_constant

    if term in built:
        return built[term]
    if isinstance(term, int):
        value = make_constant(term)
    elif term[0] == "size":
        operands = [entry.arguments[term[1]], _int_term(term[2], entry, built)]
        value = ir.Operation.create("torch.aten.size.int", results=[ir.Type.parse("!torch.int")],
                                    operands=operands).result
    else:
        operands = [_int_term(term[1], entry, built), _int_term(term[2], entry, built)]
        value = ir.Operation.create(f"torch.aten.{term[0]}.int", results=[ir.Type.parse("!torch.int")],
                                    operands=operands).result
    built[term] = value
    return value


def _has_dynamic_dims(program) -> bool:
    import torch

    for node in program.graph.nodes:
        value = node.meta.get("val")
        if isinstance(value, torch.Tensor) and any(not isinstance(d, int) for d in value.shape):
            return True
    return False


def _verifies(module: ir.Module) -> bool:
    try:
        return module.operation.verify()
    except ir.MLIRError:
        return False


def _with_buffers_in_state_dict(program):
    """A shallow copy of `program` whose state dict also holds its non-persistent buffers.

    torch-mlir's frozen import looks every buffer up in the state dict, but `torch.export`
    keeps non-persistent ones (never saved with the model) in `constants`."""
    import copy
    import warnings

    missing = {name: program.constants[name]
               for name in program.graph_signature.inputs_to_buffers.values()
               if name not in program.state_dict and name in program.constants}
    if not missing:
        return program
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # torch's pytree deprecations
        frozen = copy.copy(program)
    frozen._state_dict = {**program.state_dict, **missing}
    return frozen


def refine(
    module: ir.Module | str,
    *,
    extra_library: str = "",
    runtime_asserts: bool = True,
    max_iterations: int = 10,
    evaluate: bool = True,
    broadcast_equal: bool = False,
) -> Refined:
    """Refine a Torch-dialect module in place (text is parsed in a new context first).

    `extra_library` adds or overrides shape and dtype functions: an MLIR file, or a Python
    file of decorated functions (compiled with torch, once per file version; see
    `torch_refine.library.compile_extra_library` to precompile it to MLIR).
    `evaluate=False` calculates every op in the IR instead of first running its library
    function on known arguments (the same types, slower; for debugging the passes).
    A broadcast of two dynamic sizes whose ranges hold 1 stays PyTorch's check (`a == b or
    a == 1 or b == 1`, the size `b if a == 1 else a`); where both are at least 2 it asserts
    them equal. `broadcast_equal=True` asserts them equal wherever both can be 2 or more,
    torch.export's rule (its dynamic dims are at least 2): for export's programs imported
    without their ranges (docs/facts.md).
    Raises RefinementError for IR that does not parse or verify, and when a pass fails.
    """
    return _refine(
        parsing.as_module(module),
        extra_library=extra_library,
        runtime_asserts=runtime_asserts,
        max_iterations=max_iterations,
        evaluate=evaluate,
        broadcast_equal=broadcast_equal,
    )


def _refine(
    module: ir.Module,
    extra_library: str = "",
    runtime_asserts: bool = True,
    max_iterations: int = 10,
    evaluate: bool = True,
    broadcast_equal: bool = False,
) -> Refined:
    _check_options(extra_library, runtime_asserts, max_iterations)
    for name, value in (("evaluate", evaluate), ("broadcast_equal", broadcast_equal)):
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be a bool, not {type(value).__name__}")
    # Options are data on the pass object, never spliced into pipeline text: a path
    # such as 'x.mlir" extra-library="evil.py' stays one (nonexistent) file name.
    pipeline_pass = passes.get(PIPELINE)(
        extra_library=str(extra_library),
        runtime_asserts=runtime_asserts,
        max_iterations=max_iterations,
        evaluate=evaluate,
        broadcast_equal=broadcast_equal,
        explain=True,  # the report says why values stay unknown
        keep_symbolic_dims=True,  # the report counts the dims they name, then they go
    )
    with module.context:
        _run_pipeline(module, pipeline_pass)
        _refine_signatures(module.operation)
        try:
            counted = _count(module.operation, str(extra_library))
        finally:
            dim_facts.remove_attributes(module.operation)
        return Refined(module, counted)


def specialize(
    module: ir.Module | str,
    input_types: Sequence,
    *,
    function: str = "main",
    **refine_options,
) -> Refined:
    """Give `function` new argument types, drop every derived type and refine again.

    `input_types` has one entry per argument: a shape such as `(4, None, 16)` (None: `?`;
    the dtype stays), a type such as `"!torch.vtensor<[4,?,16],f32>"`, or None to keep
    the argument's type. A rank or dtype that differs from the argument's raises
    ValueError naming the argument.
    """
    if isinstance(input_types, str) or not isinstance(input_types, Sequence):
        raise TypeError(
            f"input_types must be a sequence of shapes, types or None, "
            f"not {type(input_types).__name__}"
        )
    module = parsing.as_module(module)
    with module.context:
        fn = _function(module.operation, function)
        block = fn.regions[0].blocks[0]
        if len(input_types) != len(block.arguments):
            raise ValueError(
                f"@{function} has {len(block.arguments)} arguments, "
                f"{len(input_types)} input types given"
            )
        for index, (argument, wanted) in enumerate(zip(block.arguments, input_types)):
            if wanted is not None:
                # A call taking the argument keeps its old type through a cast.
                retype(argument, _argument_type(function, index, argument.type, wanted))
        _set_signature(fn, [a.type for a in block.arguments], _erased_results(fn))
        _refuse_failing_input_checks(function, block)
        erase_tensor_types(module.operation)
    return _refine(module, **refine_options)


def _refuse_failing_input_checks(function: str, entry: ir.Block) -> None:
    """Raise ValueError when the new static sizes fail the program's own input checks: a
    bind's range (torch.export's `Dim(min=, max=)`) or an entry assert comparing an
    argument's size with a constant (refined, it would be an assert that always fails)."""
    for op in entry.operations:
        operation = op.operation
        if operation.name == "torch.bind_symbolic_shape" and isinstance(operation.operands[0], ir.BlockArgument):
            _check_bound_ranges(function, operation)
        if operation.name != "torch.runtime.assert":
            continue
        condition = operation.operands[0]
        producer = condition.owner if isinstance(condition, ir.OpResult) else None
        if producer is None or producer.name not in INT_COMPARISONS:
            continue
        sides = [_static_int(operand) for operand in producer.operands]
        if None not in sides and not INT_COMPARISONS[producer.name](*sides):
            message = ir.StringAttr(operation.attributes["message"]).value
            raise ValueError(f"specialize @{function}: the new input types fail the program's input check: {message}")


def _check_bound_ranges(function: str, bind: ir.Operation) -> None:
    argument = bind.operands[0]
    sizes = types.parse(argument.type).sizes or ()
    expressions = ir.AffineMapAttr(bind.attributes["shape_expressions"]).value.results
    for dim, expression in enumerate(expressions):
        expression = expression.maybe_downcast()
        if not isinstance(expression, ir.AffineSymbolExpr) or dim >= len(sizes) or sizes[dim] is None:
            continue
        symbol = bind.operands[1 + expression.position].owner
        least = ir.IntegerAttr(symbol.attributes["min_val"]).value
        greatest = ir.IntegerAttr(symbol.attributes["max_val"]).value
        if not least <= sizes[dim] <= greatest:
            raise ValueError(
                f"specialize @{function}: argument {argument.arg_number} dim {dim} is {sizes[dim]}, outside "
                f"the range [{least}, {greatest}] the program gives it "
                f"({ir.StringAttr(symbol.attributes['symbol_name']).value})")


def _static_int(value: ir.Value) -> int | None:
    """An int constant, or the static size an `aten.size.int` of an argument reads."""
    if (constant := typed_constant(value, int)) is not None:
        return constant
    producer = value.owner if isinstance(value, ir.OpResult) else None
    if producer is None or producer.name != "torch.aten.size.int":
        return None
    tensor, dim = producer.operands
    info, index = types.parse(tensor.type), typed_constant(dim, int)
    if not isinstance(tensor, ir.BlockArgument) or info is None or info.sizes is None or index is None:
        return None
    return info.sizes[index] if -len(info.sizes) <= index < len(info.sizes) else None


# --- helpers -----------------------------------------------------------------------------


def _check_options(extra_library, runtime_asserts, max_iterations) -> None:
    if not isinstance(extra_library, str | os.PathLike):
        raise TypeError(f"extra_library must be a path, not {type(extra_library).__name__}")
    if not isinstance(runtime_asserts, bool):
        raise TypeError(f"runtime_asserts must be a bool, not {type(runtime_asserts).__name__}")
    if not isinstance(max_iterations, int) or isinstance(max_iterations, bool):
        raise TypeError(f"max_iterations must be an int, not {type(max_iterations).__name__}")
    if max_iterations < 1:
        raise ValueError(f"max_iterations must be at least 1, not {max_iterations}")


def _run_pipeline(module: ir.Module, pipeline_pass) -> None:
    """Errors in the input are diagnostics; only a failure torch-refine is to blame for
    (a pass raising, an undiagnosed failure, invalid IR out of the pipeline) saves the
    input for a bug report. After any failure, an interrupt included, the module is as
    it was."""
    before = module.operation.get_asm(enable_debug_info=True, assume_verified=True)
    try:
        _run_and_verify(module, pipeline_pass, before)
    except BaseException:
        _restore(module, before)
        raise


def _restore(module: ir.Module, asm: str) -> None:
    """Put the ops `asm` holds back into the module's body, in place of what it has."""
    with module.context:
        saved = ir.Module.parse(asm)
    body = module.body
    for op in list(body.operations):
        op.erase()
    for op in list(saved.body.operations):
        body.append(op)


def _run_and_verify(module: ir.Module, pipeline_pass, before: str) -> None:
    pass_manager = PassManager(module.context)
    pass_manager.add_python_pass(pipeline_pass)
    pass_manager.enable_verifier(False)
    try:
        pass_manager.run(module.operation)
    except ir.MLIRError as error:
        if error.error_diagnostics:
            raise RefinementError(f"{PIPELINE} failed", parsing.format_error(error)) from None
        reproducer = _save_reproducer(before, pipeline_pass)
        raise RefinementError(f"{PIPELINE} failed without a diagnostic (internal error)",
                              str(error), reproducer) from None
    except InternalPassError as error:
        reproducer = _save_reproducer(before, pipeline_pass)
        raise RefinementError(f"{error}: {error.__cause__!r}", "", reproducer) from error
    try:
        module.operation.verify()
    except ir.MLIRError as error:
        reproducer = _save_reproducer(before, pipeline_pass)
        raise RefinementError(f"{PIPELINE} produced invalid IR (internal error)",
                              parsing.format_error(error), reproducer) from None


def _save_reproducer(asm: str, pipeline_pass) -> tuple[str, str]:
    options = f"runtime-asserts={str(pipeline_pass.runtime_asserts).lower()} " \
              f"max-iterations={pipeline_pass.max_iterations}"
    flags = ()
    if pipeline_pass.extra_library:  # a flag, shell-quoted, not spliced into the pipeline
        flags = (f"--extra-library={shlex.quote(pipeline_pass.extra_library)}",)
    return save_reproducer(asm, f"builtin.module({PIPELINE}{{{options}}})", flags)


def _count(module_op: ir.Operation, extra_library: str = "") -> report.TypeReport:
    library = library_loader.load(module_op.context, extra_library)
    return report.count_module(module_op, library.has_function)


def _function(module_op: ir.Operation, name: str):
    for fn in user_functions(module_op):
        if symbol_name(fn) == name:
            return fn
    raise ValueError(f"no function @{name} in the module")


def _argument_type(function: str, index: int, old: ir.Type, wanted) -> ir.Type:
    old_info = types.parse(old)
    where = f"argument {index} (%arg{index}) of @{function}"
    if old_info is None:
        raise ValueError(f"{where} is {old}, not a tensor")
    if isinstance(wanted, str):
        new_info = types.parse_text(wanted)
        if new_info is None:
            raise ValueError(f"{where}: '{wanted}' is not a tensor type")
    elif isinstance(wanted, Sequence):
        sizes = tuple(_dim(where, index, d) for index, d in enumerate(wanted))
        new_info = types.TensorInfo(sizes, old_info.dtype, old_info.value_semantics)
    else:
        raise TypeError(
            f"{where}: expected a shape such as (4, None), a type or None, "
            f"not {type(wanted).__name__}"
        )
    if old_info.rank is not None and new_info.rank is not None and old_info.rank != new_info.rank:
        raise ValueError(
            f"{where} has rank {old_info.rank} ({old}), the new type has rank {new_info.rank}"
        )
    if old_info.dtype and new_info.dtype and old_info.dtype != new_info.dtype:
        raise ValueError(f"{where} has dtype {old_info.dtype} ({old}), not {new_info.dtype}")
    return types.to_type(new_info)


def _dim(where: str, index: int, dim) -> int | None:
    """A size of a shape given to `specialize`: None (`?`) or an int in MLIR's range."""
    if dim is None:
        return None
    if isinstance(dim, bool) or not hasattr(dim, "__index__"):
        raise TypeError(f"{where}: dim {index} is {dim!r} ({type(dim).__name__}), not an int")
    size = operator.index(dim)
    if size < 0:
        raise ValueError(f"{where}: dim {index} is {size}, not a size (None for '?')")
    if size >= 2**63:
        raise ValueError(f"{where}: dim {index} is {size}, larger than 2^63 - 1")
    return size


def _signature(fn) -> ir.FunctionType:
    return ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)


def _set_signature(fn, inputs, results) -> None:
    fn.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(inputs, results))


def _erased_results(fn) -> list[ir.Type]:
    from torch_refine.ir.erase import erased_type

    return [erased_type(t) or t for t in _signature(fn).results]


def _refine_signatures(module_op: ir.Operation) -> None:
    """Narrow the result types of functions nothing calls to their returned values' types."""
    called = _called_symbols(module_op)
    for fn in user_functions(module_op):
        if symbol_name(fn) in called or not len(fn.regions[0].blocks):
            continue
        returns = [op for op in fn.regions[0].blocks[-1].operations if op.name == "func.return"]
        if len(returns) != 1:
            continue
        results = [_narrowed(returns[0], i, t) for i, t in enumerate(_signature(fn).results)]
        _set_signature(fn, _signature(fn).inputs, results)


def _narrowed(return_op, index: int, declared: ir.Type) -> ir.Type:
    """The returned value's own type when it is more precise, dropping the cast to the
    declared type that refinement left at the return."""
    operand = return_op.operands[index]
    source = operand
    owner = operand.owner if isinstance(operand, ir.OpResult) else None
    if owner is not None and owner.operation.name == "torch.tensor_static_info_cast":
        source = owner.operation.operands[0]
    declared_info, source_info = types.parse(declared), types.parse(source.type)
    if declared_info is None or source_info is None or source_info == declared_info:
        return declared
    if not types.is_at_least_as_precise(source_info, declared_info):
        return declared
    return_op.operands[index] = source
    if owner is not None and source is not operand and not list(operand.uses):
        owner.operation.erase()
    return source.type


def _called_symbols(module_op: ir.Operation) -> set[str]:
    called: set[str] = set()

    def visit(op):
        if op.name == "func.call":
            called.add(ir.FlatSymbolRefAttr(op.attributes["callee"]).value)
        return ir.WalkResult.ADVANCE

    module_op.walk(visit)
    return called
