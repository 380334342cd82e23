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

from .corpus3 import BY_NAME, LEVELS, NotApplicable, export_texts

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
    rows: list[dict] = field(default_factory=list)  # every non-exact value

    @property
    def values(self) -> int:
        return self.exact + self.partial + self.unknown + self.contradictions


def cached_export(name: str, level: str, dynamism: str, cache_dir: Path = CACHE_DIR) -> str:
    """The variant's IR text, exported once (with the other levels of the same dynamism); a
    failure is cached too (as its reason) and raised again as ExportFailure."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    text_path, error_path = _cache_paths(cache_dir, name, level, dynamism)
    if not text_path.exists() and not error_path.exists():
        _export_levels(name, dynamism, cache_dir)
    if error_path.exists():
        raise ExportFailure(error_path.read_text())
    return text_path.read_text()


def _cache_paths(cache_dir: Path, name: str, level: str, dynamism: str) -> tuple[Path, Path]:
    stem = cache_dir / f"{name}-{level}-{dynamism}"
    return stem.with_suffix(".mlir"), stem.with_suffix(".err")


def _export_levels(name: str, dynamism: str, cache_dir: Path) -> None:
    try:
        texts = export_texts(BY_NAME[name], dynamism)
    except Exception as error:  # any export failure is data, for every level
        texts = dict.fromkeys(LEVELS, error)
    for level, text in texts.items():
        text_path, error_path = _cache_paths(cache_dir, name, level, dynamism)
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


def measure(name: str, level: str, dynamism: str, cache_dir: Path = CACHE_DIR) -> Outcome:
    outcome = Outcome(name, level, dynamism)
    try:
        text = cached_export(name, level, dynamism, cache_dir)
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
    from torch_refine.ir.context import create_context
    from torch_refine.ir.erase import erase_tensor_types
    from torch_refine.library import loader
    from torch_refine.passes import explain

    with create_context():
        truth = ir.Module.parse(text)
        erased = ir.Module.parse(text)
        erase_tensor_types(erased.operation)
    refined = torch_refine.refine(erased).module
    with refined.context:
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
