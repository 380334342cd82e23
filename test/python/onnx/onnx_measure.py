"""Refinement measured on the ONNX corpus (onnx_corpus.py): export (cached), import and
convert, run for the truth, refine in two forms, compare; torch-mlir beside it.

Every op with a tensor result is tagged with its position (`corpus.value`, a discardable
attribute every pass keeps) before anything runs, so a value is the same value in the
converted program, in torch-refine's output and in torch-mlir's, whatever each removed.

The truth is what PyTorch computes: the converted program run op by op
(`torch_refine.executor`) at the example's sizes and, for a dynamic variant, at two other
sizes of its dynamic dims; a dim is static only if it never changes. The outputs are
checked against onnxruntime on the same inputs.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from models.measure import ExportFailure, count_ops, resized
from models.measure import _reason as reason
from models.measure import _write as write_atomically

from onnx_corpus import BY_NAME, FORMS, NotApplicable, export, import_onnx

REPO = Path(__file__).resolve().parents[3]
CACHE_DIR = REPO / "out" / "onnx-corpus"
TAG = "corpus.value"
# torch-mlir's refinement of an ONNX import: its ONNX backend pipeline, then the
# backend-contract loop without decompositions (dtypes too), as a user would run them.
TORCH_MLIR_PIPELINE = ("builtin.module(torch-onnx-to-torch-backend-pipeline,"
                       "torch-lower-to-backend-contract{decompose=false})")
TORCH_MLIR_TIMEOUT = 300
# Other sizes of the dynamic dims than the example's (batch 2, sequence 8, image 32).
_BATCHES = (3, 5)
_IMAGE_EXTENTS = (24, 40)
_TOLERANCE = 1e-4


@dataclass
class Outcome:
    model: str
    exporter: str
    dynamism: str
    form: str
    failure: str | None = None  # why the variant has no numbers
    stage: str | None = None  # export, import, truth, refine; n/a: no such variant
    exact: int = 0
    partial: int = 0
    unknown: int = 0
    contradictions: int = 0
    # Values whose type the converted IR states, PyTorch contradicts, and refinement kept.
    mistyped: int = 0
    # Values of the converted program whose ops refinement erased (size computations
    # folded into the ints they gave): not counted above.
    removed: int = 0
    input_ops: int = 0
    output_ops: int = 0
    asserts: int = 0
    seconds: float = 0.0
    runs: int = 0  # sizes the truth was computed at
    onnxruntime_mismatches: int = 0  # runs whose outputs differ from onnxruntime's
    # Whether each pipeline completed on the converted program, whether or not PyTorch
    # runs it: "ok", or why not (a crash included). torch-mlir's exact values among the
    # values it kept, and ours among the same values.
    ours: str = ""
    torch_mlir: str = ""
    torch_mlir_values: int = 0
    torch_mlir_exact: int = 0
    ours_on_torch_mlir_values: int = 0
    torch_mlir_seconds: float = 0.0
    rows: list[dict] = field(default_factory=list)  # every non-exact value

    @property
    def values(self) -> int:
        return self.exact + self.partial + self.unknown + self.contradictions


def cached_import(name: str, exporter: str, dynamism: str, cache_dir: Path = CACHE_DIR) -> tuple[Path, str]:
    """The variant's ONNX file and its converted Torch IR, exported and imported once; a
    failure is cached as its reason and raised again as ExportFailure."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    stem = cache_dir / f"{name}-{exporter}-{dynamism}"
    model_path, text_path, error_path = (stem.with_suffix(s) for s in (".onnx", ".mlir", ".err"))
    if not text_path.exists() and not error_path.exists():
        try:
            export(BY_NAME[name], exporter, dynamism, model_path)
            write_atomically(text_path, import_onnx(model_path))
        except Exception as error:  # a failed export or import is data
            write_atomically(error_path, reason(error))
    if error_path.exists():
        raise ExportFailure(error_path.read_text())
    return model_path, text_path.read_text()


# -- tagging and reading types ---------------------------------------------------------


def tagged(text: str) -> str:
    """The module with every op that has a tensor result tagged by its position."""
    from torch_mlir import ir

    from torch_refine.ir.context import create_context

    with create_context():
        module = ir.Module.parse(text)
        ops = _tensor_ops(module.operation)
        for position, op in enumerate(ops):
            op.attributes[TAG] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), position)
        return module.operation.get_asm(enable_debug_info=True)


def _tensor_ops(module) -> list:
    from torch_mlir import ir

    from torch_refine.ir import types

    found = []

    def visit(op):
        if op.name not in ("builtin.module", "func.func") and any(types.parse(r.type) for r in op.results):
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


def tagged_types(module) -> dict[tuple[int, int], object]:
    """(tag, result index) -> TensorInfo of every tagged tensor value in `module`."""
    from torch_mlir import ir

    from torch_refine.ir import types

    found = {}
    for op in _tensor_ops(module):
        if TAG not in op.attributes:
            continue
        tag = ir.IntegerAttr(op.attributes[TAG]).value
        for index, result in enumerate(op.results):
            info = types.parse(result.type)
            if info is not None:
                found[tag, index] = info
    return found


# -- the truth ----------------------------------------------------------------------------


def truth(text: str, name: str, dynamism: str, model_path: Path, outcome: Outcome) -> dict:
    """(tag, result index) -> TensorInfo: the shapes PyTorch computes at every size the
    program runs at, a dim static only where it never changes; the dtype it computes."""
    import numpy as np
    import onnxruntime
    from torch_mlir import ir

    from torch_refine import executor
    from torch_refine.ir import types
    from torch_refine.ir.context import create_context

    case = BY_NAME[name]
    _, inputs = case.make()
    session = onnxruntime.InferenceSession(str(model_path))
    observed: dict[tuple[int, int], list] = {}
    with create_context():
        module = ir.Module.parse(text)
        function = _function_name(module)
        accepted = _argument_types(module, function)
        for sized in _sizes(case, inputs, dynamism):
            if not all(_fits(info, tensor) for info, tensor in zip(accepted, sized, strict=True)):
                continue  # the export fixed a size (dynamo's LSTM, the sequence): not an input it takes
            try:
                with _observing(observed):
                    results = executor.execute(module, *sized, function=function, allow_side_effects=True)
            except executor.ExecutionError:
                if outcome.runs == 0:
                    raise  # not even the example runs
                continue  # the export specialized a size: nothing to compare there
            outcome.runs += 1
            results = results if isinstance(results, tuple) else (results,)
            feeds = {i.name: t.numpy() for i, t in zip(session.get_inputs(), sized, strict=True)}
            expected = session.run(None, feeds)
            if not all(np.allclose(r.numpy(), e, atol=_TOLERANCE, rtol=_TOLERANCE, equal_nan=True)
                       for r, e in zip(results, expected, strict=True)):
                outcome.onnxruntime_mismatches += 1
    dtypes = {dtype: element for element, dtype in executor.ELEMENT_DTYPES.items()}
    found = {}
    for key, seen in observed.items():
        ranks = {len(shape) for shape, _ in seen}
        kinds = {dtype for _, dtype in seen}
        if len(ranks) != 1 or len(kinds) != 1:
            continue  # no single type holds it
        sizes = tuple(sizes[0] if len(set(sizes)) == 1 else None for sizes in zip(*(s for s, _ in seen)))
        found[key] = types.TensorInfo(sizes, dtypes.get(kinds.pop()))
    return found


def _argument_types(module, function: str) -> list:
    from torch_mlir import ir

    from torch_refine.ir import types

    for op in module.body.operations:
        if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == function:
            return [types.parse(a.type) for a in op.regions[0].blocks[0].arguments]
    return []


def _fits(info, tensor) -> bool:
    if info is None or info.sizes is None:
        return True
    return len(info.sizes) == tensor.dim() and all(s is None or s == n for s, n in zip(info.sizes, tensor.shape))


def _function_name(module) -> str:
    from torch_mlir import ir

    for op in module.body.operations:
        if op.operation.name == "func.func":
            return ir.StringAttr(op.attributes["sym_name"]).value
    raise ValueError("no function")


def _sizes(case, inputs: tuple, dynamism: str):
    yield inputs
    if dynamism == "static":
        return
    low = case.extent_range[0]
    extents = _IMAGE_EXTENTS if case.extent_step != 1 else (low + 1, low + 4)
    for batch, extent in zip(_BATCHES, extents, strict=True):
        yield resized(case, inputs, batch, extent if dynamism == "batch+extent" else None)


# Ops whose static result type is part of their meaning in torch-mlir's ONNX conversion:
# `prim.NumToTensor.Scalar` typed `[],i1` (a `where` condition) or `[1],si64`, `ones`
# without a dtype typed si64. Its backends build the result by the type; PyTorch's
# kernels would give int64, rank 0, float32.
_TYPED_BY_RESULT = frozenset({
    "torch.prim.NumToTensor.Scalar", "torch.aten.ones", "torch.aten.zeros", "torch.aten.full",
    "torch.aten.empty.memory_format",
})


def _integer_typed(type_) -> bool:
    from torch_refine.ir import types

    info = types.parse(type_)
    return info is not None and info.dtype in ("si64", "si32", "si16", "si8", "ui8")


def _as_typed(value, type_):
    import math

    from torch_refine import executor
    from torch_refine.ir import types

    info = types.parse(type_)
    if info is None or info.sizes is None or None in info.sizes or info.dtype is None:
        return value
    if value.numel() != math.prod(info.sizes):
        return value
    return value.to(executor.ELEMENT_DTYPES[info.dtype]).reshape(info.sizes)


class _observing:
    """Records the shape and dtype of every tagged tensor the executor computes, ops
    typed by their result (`_TYPED_BY_RESULT`, and `div.Tensor` typed as an integer tensor)
    computed as their type says."""

    def __init__(self, observed: dict):
        self.observed = observed

    def __enter__(self):
        import torch
        from torch_mlir import ir

        from torch_refine import executor

        self.original = original = executor._Interpreter.run_op
        observed = self.observed

        def run_op(interpreter, op, name, operands, env):
            results = original(interpreter, op, name, operands, env)
            if name in _TYPED_BY_RESULT:
                results = [_as_typed(results[0], op.results[0].type)]
            if name == "torch.aten.div.Tensor" and _integer_typed(op.results[0].type):
                # ONNX's integer Div: torch-mlir divides as integers (arith.divsi), rounding to 0
                quotient = torch.div(operands[0], operands[1], rounding_mode="trunc")
                results = [_as_typed(quotient, op.results[0].type)]
            if TAG in op.attributes:
                tag = ir.IntegerAttr(op.attributes[TAG]).value
                for index, value in enumerate(results):
                    if isinstance(value, torch.Tensor):
                        observed.setdefault((tag, index), []).append((tuple(value.shape), value.dtype))
            return results

        executor._Interpreter.run_op = run_op

    def __exit__(self, *exc):
        from torch_refine import executor

        executor._Interpreter.run_op = self.original


# -- refinement ------------------------------------------------------------------------


def measure_variant(name: str, exporter: str, dynamism: str, cache_dir: Path = CACHE_DIR,
                    with_torch_mlir: bool = True) -> list[Outcome]:
    """The variant's outcome in every form."""
    outcomes = [Outcome(name, exporter, dynamism, form) for form in FORMS]
    try:
        model_path, text = cached_import(name, exporter, dynamism, cache_dir)
    except ExportFailure as failure:
        not_applicable = str(failure).startswith(NotApplicable.__name__)
        for outcome in outcomes:
            outcome.failure, outcome.stage = str(failure), "n/a" if not_applicable else "export"
        return outcomes
    text = tagged(text)
    stated = _stated_types(text)
    probe = Outcome(name, exporter, dynamism, "truth")
    try:
        true_types = truth(text, name, dynamism, model_path, probe)
    except Exception as error:
        # No numbers, but both pipelines still run: whether each completes is measured.
        true_types = None
        for outcome in outcomes:
            outcome.failure, outcome.stage = reason(error), "truth"
    for outcome in outcomes:
        outcome.runs, outcome.onnxruntime_mismatches = probe.runs, probe.onnxruntime_mismatches
        form_text = _in_form(text, outcome.form)
        try:
            ours, locations = _refine(form_text, outcome)
            outcome.ours = "ok"
        except Exception as error:  # a refinement failure is recorded, not fatal
            ours, outcome.ours = None, reason(error)
            if true_types is not None:
                outcome.failure, outcome.stage = outcome.ours, "refine"
                outcome.rows = [{"traceback": traceback.format_exc(limit=3)}]
        if ours is not None and true_types is not None:
            _count(outcome, ours, locations, true_types, stated)
        if with_torch_mlir:
            _torch_mlir(form_text, outcome, ours, true_types)
    return outcomes


def _in_form(text: str, form: str) -> str:
    """The converted program, or it with every intermediate tensor type erased but those
    that give an op a meaning PyTorch's rule does not (`_means_its_type`)."""
    if form == "converted":
        return text
    from torch_mlir import ir

    from torch_refine.ir.context import create_context
    from torch_refine.ir.erase import erase_tensor_types

    with create_context():
        module = ir.Module.parse(text)
        kept = {ir.IntegerAttr(op.attributes[TAG]).value: [r.type for r in op.results]
                for op in _tensor_ops(module.operation) if _means_its_type(op)}
        erase_tensor_types(module.operation)
        for op in _tensor_ops(module.operation):
            if TAG in op.attributes and (found := kept.get(ir.IntegerAttr(op.attributes[TAG]).value)):
                for result, type_ in zip(op.results, found, strict=True):
                    result.set_type(type_)
        return module.operation.get_asm(enable_debug_info=True)


def _means_its_type(op) -> bool:
    """torch-mlir's conversion states types PyTorch's rule does not give and backends
    build by: `prim.NumToTensor.Scalar` typed `[1]` (PyTorch's is `[]`), `ones`, `zeros`
    and `empty` without a dtype typed other than f32, `div.Tensor` typed as an integer
    tensor (ONNX's integer Div: torch-mlir divides as integers, PyTorch's rule gives a
    float). Erased, the program would compute another thing (a float where a slice reads
    its step). Not the `[],i1` of a `where` condition: refinement gives that back itself."""
    from torch_refine.ir import types

    info = types.parse(op.results[0].type) if len(op.results) == 1 else None
    if info is None or info.sizes is None:
        return False
    if op.name == "torch.prim.NumToTensor.Scalar":
        return info.rank != 0
    if op.name == "torch.aten.div.Tensor":
        return info.dtype in ("si64", "si32", "si16", "si8", "ui8")
    if op.name not in ("torch.aten.ones", "torch.aten.zeros", "torch.aten.empty.memory_format"):
        return False
    return str(op.operands[1].type) == "!torch.none" and info.dtype not in (None, "f32")


def _refine(text: str, outcome: Outcome) -> tuple[dict, dict]:
    """Our types of the tagged values, and each tag's op and location."""
    from torch_mlir import ir

    import torch_refine
    from torch_refine.ir.context import create_context
    from torch_refine.report import short_location

    with create_context():
        module = ir.Module.parse(text)
        outcome.input_ops = count_ops(module.operation)
    started = time.perf_counter()
    refined = torch_refine.refine(text).module
    outcome.seconds = time.perf_counter() - started
    with refined.context:
        outcome.output_ops = count_ops(refined.operation)
        outcome.asserts = count_ops(refined.operation, "torch.runtime.assert")
        found = tagged_types(refined.operation)
        locations = {}
        for op in _tensor_ops(refined.operation):
            if TAG in op.attributes:
                locations[ir.IntegerAttr(op.attributes[TAG]).value] = (op.name, short_location(str(op.location)))
    return found, locations


def _stated_types(text: str) -> dict:
    from torch_mlir import ir

    from torch_refine.ir.context import create_context

    with create_context():
        return tagged_types(ir.Module.parse(text).operation)


def _count(outcome: Outcome, ours: dict, locations: dict, true_types: dict, stated: dict) -> None:
    """Classify each value against the truth. A type the converted IR states, which
    PyTorch contradicts (torch-mlir types `select.int` of a vector `[1]`: PyTorch's is
    `[]`), kept as stated, is the import's: counted as mistyped, not as ours."""
    from torch_refine import report

    for key, true in true_types.items():
        mine = ours.get(key)
        if mine is None:
            outcome.removed += 1
            continue
        kind = report.classify(mine, true)
        if kind == "contradiction" and stated.get(key) == mine:
            kind = "mistyped"
        kind = "contradictions" if kind == "contradiction" else kind
        setattr(outcome, kind, getattr(outcome, kind) + 1)
        if kind != "exact":
            op, location = locations.get(key[0], ("?", "?"))
            outcome.rows.append({"kind": kind, "op": op, "location": location, "refined": mine.text(),
                                 "truth": true.text()})


# -- torch-mlir ------------------------------------------------------------------------


def _torch_mlir(text: str, outcome: Outcome, ours: dict | None, true_types: dict | None) -> None:
    """torch-mlir's refinement of the same input, in a subprocess (it crashes on some):
    whether it completes; where both tools did and PyTorch runs the program, its exact
    values among those it kept, and ours among the same."""
    import tempfile

    from torch_mlir import ir

    from torch_refine import report
    from torch_refine.ir.context import create_context

    tool = Path(sys.executable).with_name("torch-mlir-opt")
    with tempfile.TemporaryDirectory() as directory:
        source = Path(directory) / "input.mlir"
        source.write_text(text)
        started = time.perf_counter()
        try:
            done = subprocess.run([str(tool), f"--pass-pipeline={TORCH_MLIR_PIPELINE}", str(source)],
                                  capture_output=True, text=True, timeout=TORCH_MLIR_TIMEOUT)
        except subprocess.TimeoutExpired:
            outcome.torch_mlir = f"timeout after {TORCH_MLIR_TIMEOUT} s"
            return
        outcome.torch_mlir_seconds = time.perf_counter() - started
    if done.returncode < 0 or "Stack dump:" in done.stderr:
        frames = re.findall(r"^ *#\d+ 0x[0-9a-f]+ (mlir::[\w:]+)", done.stderr, re.MULTILINE)
        outcome.torch_mlir = f"crashed (exit {done.returncode}) in {frames[0] if frames else '?'}"
        return
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        errors = [line.split("error:", 1)[1] for line in lines if "error:" in line] or lines[-1:] or ["?"]
        outcome.torch_mlir = f"failed: {errors[0].strip()}"[:200]
        return
    outcome.torch_mlir = "ok"
    if ours is None or true_types is None:
        return
    with create_context():
        theirs = tagged_types(ir.Module.parse(done.stdout).operation)
    for key, mine in theirs.items():
        true = true_types.get(key)
        if true is None or key not in ours:
            continue  # compared where both kept the value
        outcome.torch_mlir_values += 1
        outcome.torch_mlir_exact += report.classify(mine, true) == "exact"
        outcome.ours_on_torch_mlir_values += report.classify(ours[key], true) == "exact"
