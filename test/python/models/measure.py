"""Refinement measured on the broad corpus: export (cached), erase, refine, compare.

One `Outcome` per (model, level, dynamism): the counts against the imported types, every
value left non-exact with its op, location and reason, or the reason the variant could not
be exported, imported or refined. Shared by build_tools/corpus.py and test_corpus3.py.
"""

from __future__ import annotations

import os
import re
import traceback
from dataclasses import dataclass, field, replace
from pathlib import Path

from .corpus3 import BY_NAME, LEVELS, NotApplicable, export_texts, forms

REPO = Path(__file__).resolve().parents[3]
CACHE_DIR = REPO / "out" / "corpus"


@dataclass
class Outcome:
    model: str
    level: str
    dynamism: str
    failure: str | None = None  # why the variant has no numbers
    stage: str | None = None  # export, import (invalid IR), refine; n/a: no such variant
    exact: int = 0
    partial: int = 0
    unknown: int = 0
    contradictions: int = 0
    # Values whose imported type PyTorch contradicts when the op is run (`_recheck`):
    # compared with what PyTorch computes, counted in `exact` when ours agrees.
    mistyped_by_import: int = 0
    form: str = "symbolic"  # corpus3.FORMS
    # Ops in the imported program and in the refined one (func.func, func.return and the
    # module not counted), and the refined program's torch.runtime.asserts.
    input_ops: int = 0
    output_ops: int = 0
    asserts: int = 0
    # The refined program run (torch_refine.executor, types checked) at other sizes of its
    # dynamic dims where PyTorch runs the model: how many runs, and what went wrong in
    # each that failed (an assert that fired, a claimed type that did not hold).
    runs: int = 0
    run_failures: list[str] = field(default_factory=list)
    rows: list[dict] = field(default_factory=list)  # every non-exact value

    @property
    def values(self) -> int:
        return self.exact + self.partial + self.unknown + self.contradictions


def cached_export(name: str, level: str, dynamism: str, form: str = "symbolic", *,
                  cache_dir: Path = CACHE_DIR) -> str:
    """The variant's IR text, exported once (with the other levels and forms of the same
    dynamism); a failure is cached too (as its reason) and raised again as ExportFailure."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    text_path, error_path = _cache_paths(cache_dir, name, level, dynamism, form)
    if not text_path.exists() and not error_path.exists():
        _export_levels(name, dynamism, cache_dir)
    if error_path.exists():
        raise ExportFailure(error_path.read_text())
    return text_path.read_text()


def _cache_paths(cache_dir: Path, name: str, level: str, dynamism: str, form: str) -> tuple[Path, Path]:
    suffix = "" if form == "symbolic" else f"-{form}"
    stem = cache_dir / f"{name}-{level}-{dynamism}{suffix}"
    return stem.with_suffix(".mlir"), stem.with_suffix(".err")


def _export_levels(name: str, dynamism: str, cache_dir: Path) -> None:
    try:
        texts = export_texts(BY_NAME[name], dynamism)
    except Exception as error:  # any export failure is data, for every level and form
        texts = {(level, form): error for level in LEVELS for form in forms(dynamism)}
    for (level, form), text in texts.items():
        text_path, error_path = _cache_paths(cache_dir, name, level, dynamism, form)
        if isinstance(text, BaseException):
            _write(error_path, _reason(text))
        else:
            _write(text_path, text)


class ExportFailure(Exception):
    pass


def _reason(error: BaseException) -> str:
    lines = [line for line in str(error).strip().splitlines() if line.strip()]
    first = lines[0] if lines else ""
    return f"{type(error).__name__}: {first}"[:400]


def _write(path: Path, text: str) -> None:
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    partial.write_text(text)
    os.replace(partial, path)


def measure(name: str, level: str, dynamism: str, form: str = "symbolic", *,
            cache_dir: Path = CACHE_DIR) -> Outcome:
    outcome = Outcome(name, level, dynamism, form=form)
    try:
        text = cached_export(name, level, dynamism, form, cache_dir=cache_dir)
    except ExportFailure as failure:
        not_applicable = str(failure).startswith(NotApplicable.__name__)
        outcome.failure, outcome.stage = str(failure), "n/a" if not_applicable else "export"
        return outcome
    try:
        _parse(text)
    except Exception as error:  # the importer emitted IR that does not verify
        outcome.failure, outcome.stage = _reason(error) + _first_error(error), "import"
        return outcome
    try:
        _compare(text, outcome)
    except Exception as error:  # a refinement failure is recorded, not fatal
        outcome.failure, outcome.stage = _reason(error), "refine"
        outcome.rows = [{"traceback": traceback.format_exc(limit=3)}]
    return outcome


def _parse(text: str):
    from torch_mlir import ir

    from torch_refine.ir.context import create_context

    with create_context():
        return ir.Module.parse(text)


def _first_error(error: BaseException) -> str:
    """The verifier's message without its (long) location."""
    match = re.search(r"'([\w.]+)' op (.*)", str(error))
    return f" '{match[1]}' op {match[2][:300]}" if match else ""


def _compare(text: str, outcome: Outcome) -> None:
    from torch_mlir import ir

    import torch_refine
    from torch_refine import report
    from torch_refine.engine import explain
    from torch_refine.ir.context import create_context
    from torch_refine.ir.erase import erase_tensor_types
    from torch_refine.library import loader

    with create_context():
        truth = ir.Module.parse(text)
        erased = ir.Module.parse(text)
        erase_tensor_types(erased.operation)
    # Every variant is a torch.export program, whose dynamic dims are at least 2: the plain
    # form's import dropped those ranges, and broadcast-equal states them again.
    refined = torch_refine.refine(erased, broadcast_equal=True).module
    if outcome.dynamism != "static":
        _run_at_other_sizes(refined, outcome)
    with truth.context:
        outcome.input_ops = count_ops(truth.operation)
    with refined.context:
        outcome.output_ops = count_ops(refined.operation)
        outcome.asserts = count_ops(refined.operation, "torch.runtime.assert")
        library = loader.load(refined.context)
        explain.annotate(refined.operation, library.has_function, without_blockers=True)
        ours, _ = report.tensor_values(refined.operation)
    with truth.context:
        theirs, _ = report.tensor_values(truth.operation)
        truth_ops = _tensor_result_ops(truth.operation)
        for (mine, true), op in zip(report.pair_records(ours, theirs), truth_ops, strict=True):
            _count(outcome, mine, true, op)


def _count(outcome: Outcome, mine, true, op) -> None:
    from torch_refine import report

    kind = report.classify(mine.info, true.info)
    reason = mine.reason
    if kind == "contradiction":
        rechecked = _recheck(op, true.result_index)
        if rechecked is not None and rechecked != true.info:
            # The imported type is not what PyTorch computes: compare with PyTorch.
            outcome.mistyped_by_import += 1
            kind = report.classify(mine.info, rechecked)
            reason = f"imported as {true.info.text()}, PyTorch computes {rechecked.text()}"
            outcome.rows.append({"kind": "mistyped_by_import", "op": mine.op_name,
                                 "location": report.short_location(mine.location),
                                 "refined": mine.info.text(), "truth": rechecked.text(),
                                 "reason": reason})
            true = replace(true, info=rechecked)
    if kind == "contradiction" and _static_in_every_run(outcome, mine.info, true.info):
        # The import left `?` a dim PyTorch gives one size at every size the program ran
        # (types checked): the import's type is the imprecise one.
        outcome.mistyped_by_import += 1
        kind, reason = "exact", f"imported as {true.info.text()}, static in {outcome.runs} runs at other sizes"
        outcome.rows.append({"kind": "mistyped_by_import", "op": mine.op_name,
                             "location": report.short_location(mine.location),
                             "refined": mine.info.text(), "truth": true.info.text(), "reason": reason})
    if kind == "contradiction":
        kind = "contradictions"
    setattr(outcome, kind, getattr(outcome, kind) + 1)
    if kind == "exact":
        return
    outcome.rows.append({
        "kind": kind, "op": mine.op_name, "location": report.short_location(mine.location),
        "refined": mine.info.text(), "truth": true.info.text(),
        "reason": reason or _partial_reason(mine.info, true.info),
    })


def _static_in_every_run(outcome: Outcome, refined, truth) -> bool:
    """Whether `refined` contradicts `truth` only by static dims where the import says
    `?`, and the refined program ran at other sizes with every type checked (the dynamic
    variants' runs, `_run_at_other_sizes`): then PyTorch gave those dims one size in each."""
    from torch_refine.ir import types

    return types.meet(refined, truth) is not None and outcome.runs > 0 and not outcome.run_failures


_NOT_COUNTED = ("builtin.module", "func.func", "func.return")


def count_ops(module, name: str | None = None) -> int:
    """The ops of a module (not the module, functions and returns), or those named `name`."""
    from torch_mlir import ir

    found = 0

    def visit(op):
        nonlocal found
        found += op.name == name if name is not None else op.name not in _NOT_COUNTED
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


# Other sizes of the dynamic dims than the example's (batch 2, sequence 8, image 32).
_BATCHES = (3, 5)
_TEXT_EXTENTS = (5, 12)
_IMAGE_EXTENTS = (24, 40)


def _run_at_other_sizes(refined, outcome: Outcome) -> None:
    """Run `refined` where PyTorch runs the exported program at other sizes: no assert may
    fire and every type must hold (issue 26's contradiction check at run time). The
    exported program, not the model: export may have specialized a size (BEiT's position
    tables to the example's image size), and its own guards reject the others."""
    import torch

    from torch_refine import executor

    case = BY_NAME[outcome.model]
    _, inputs = case.make()
    program = _exported(outcome.model, outcome.dynamism)
    extents = _IMAGE_EXTENTS if case.extent_step != 1 else _TEXT_EXTENTS
    for batch, extent in zip(_BATCHES, extents, strict=True):
        extent = extent if outcome.dynamism == "batch+extent" else None
        sized = resized(case, inputs, batch, extent)
        try:
            with torch.no_grad():
                program.module()(*sized)
        except Exception:  # PyTorch does not run it at these sizes: nothing to compare
            continue
        outcome.runs += 1
        try:
            executor.execute(refined, *sized, check_types=True)
        except executor.TypeMismatchError as error:
            outcome.run_failures.append(f"batch {batch}, extent {extent}: {str(error)[:300]}")
        except executor.RaisedError as error:
            outcome.run_failures.append(f"batch {batch}, extent {extent}: {error.message[:300]}")
        except executor.ExecutionError:
            outcome.runs -= 1  # an op the executor cannot run: no verdict


_PROGRAMS: dict = {}  # (model, dynamism) -> its exported program, in this process


def _exported(name: str, dynamism: str):
    import torch

    if (name, dynamism) not in _PROGRAMS:
        case = BY_NAME[name]
        model, inputs = case.make()
        with torch.no_grad():
            _PROGRAMS[name, dynamism] = torch.export.export(
                model, inputs, dynamic_shapes=case.dynamic_shapes(dynamism == "batch+extent"))
    return _PROGRAMS[name, dynamism]


def resized(case, inputs: tuple, batch: int, extent: int | None) -> tuple:
    """The example inputs with `batch` rows and, given `extent`, that sequence length or
    image size: rows and positions repeated, float inputs drawn afresh."""
    import torch

    generator = torch.Generator().manual_seed(1)
    extent_dims = case.extent_dims or ((),) * len(inputs)
    result = []
    for tensor, batch_dims, dims in zip(inputs, case.batch_dims, extent_dims, strict=True):
        for dim in batch_dims:
            tensor = tensor.index_select(dim, torch.arange(batch) % tensor.shape[dim])
        for dim in dims if extent is not None else ():
            tensor = tensor.index_select(dim, torch.arange(extent) % tensor.shape[dim])
        if tensor.is_floating_point():
            tensor = torch.randn(tensor.shape, generator=generator, dtype=tensor.dtype)
        result.append(tensor)
    return tuple(result)


def _tensor_result_ops(module) -> list:
    """Per record of `report.tensor_values`, in its order: the op producing the value."""
    from torch_mlir import ir

    from torch_refine.ir import types

    found = []

    def visit(op):
        if op.name not in ("builtin.module", "func.func"):
            found.extend(op for result in op.results if types.parse(result.type) is not None)
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


def _recheck(op, result_index: int):
    """What PyTorch computes for an op whose operands are all constants (the importer
    materializes Python scalars so), run by the executor on its own; None otherwise."""
    from torch_mlir import ir
    from torch_mlir.dialects import func

    from torch_refine import executor
    from torch_refine.ir import types

    if not all(isinstance(v, ir.OpResult) for v in op.operands):
        return None
    producers = [v.owner.operation for v in op.operands]
    if not all(p.name.startswith("torch.constant.") for p in producers):
        return None
    with op.context, ir.Location.unknown():
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            function = func.FuncOp("main", ([], [r.type for r in op.results]))
            with ir.InsertionPoint(function.add_entry_block()):
                operands = [p.clone().results[v.result_number]
                            for v, p in zip(op.operands, producers, strict=True)]
                clone = op.clone()
                for index, operand in enumerate(operands):
                    clone.operands[index] = operand
                func.ReturnOp(clone.results)
    try:
        results = executor.execute(module)
    except executor.ExecutionError:
        return None
    value = (results if isinstance(results, tuple) else (results,))[result_index]
    element = {dtype: name for name, dtype in executor.ELEMENT_DTYPES.items()}[value.dtype]
    return types.TensorInfo(tuple(value.shape), element)


def _partial_reason(refined, truth) -> str:
    if refined.dtype != truth.dtype:
        return "dtype lost"
    if refined.sizes is None:
        return "rank lost"
    lost = [i for i, (r, t) in enumerate(zip(refined.sizes, truth.sizes, strict=True)) if r != t]
    return f"dims lost: {lost}"
