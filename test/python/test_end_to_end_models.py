"""End to end on real models: import, erase every intermediate tensor type, refine with
`torch-refine-pipeline`, and compare the result with the imported types (the truth).

Static models must come back (almost) exactly; dynamic-batch models must get back every
static dim and every dtype; no value may ever contradict the truth.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from models.corpus import MODELS
from models.export_cache import exported_ir, variants
from torch_mlir import ir

from torch_refine import passes, report
from torch_refine.ir.context import create_context

pytestmark = pytest.mark.slow

CORPUS_OPS = Path(__file__).parent / "models" / "corpus_ops.txt"

VARIANTS = variants()



def refine(truth_text: str) -> tuple[ir.Module, ir.Module]:
    """The truth and the refined module, parsed in one context."""
    from torch_refine.ir.erase import erase_tensor_types

    context = create_context()
    with context:
        truth = ir.Module.parse(truth_text)
        refined = ir.Module.parse(truth_text)
        erase_tensor_types(refined.operation)
        passes.get("torch-refine-pipeline")().run(refined.operation)
        refined.operation.verify()
    return truth, refined


@pytest.mark.parametrize(("name", "dynamic"), VARIANTS)
def test_refines_model(name, dynamic, corpus_dir):
    truth, refined = refine(exported_ir(name, dynamic, corpus_dir))
    with truth.context:
        result = report.compare_modules(refined.operation, truth.operation)
        truth_values, _ = report.tensor_values(truth.operation)
        refined_values, _ = report.tensor_values(refined.operation)

    assert result.contradictions == 0, result.format_table()
    if not dynamic:
        assert result.exact_fraction >= 0.99, result.format_table()
        return
    missing = [
        f"{ours.op_name} at {report.short_location(ours.location)}: {ours.info.text()}"
        f" (truth {theirs.info.text()})"
        for ours, theirs in report.pair_records(refined_values, truth_values)
        if not _has_static_dims_and_dtype_of(ours.info, theirs.info)
    ]
    assert not missing, "\n".join(missing[:20]) + "\n" + result.format_table()


def _has_static_dims_and_dtype_of(ours, truth) -> bool:
    if ours.dtype != truth.dtype or ours.rank != truth.rank:
        return False
    return all(t is None or o == t for o, t in zip(ours.sizes, truth.sizes, strict=True))


def test_corpus_op_list_is_current(corpus_dir):
    """test/python/models/corpus_ops.txt lists the ops the corpus imports to."""
    names = set()
    for case in MODELS:
        for dynamic in (False, True):
            text = exported_ir(case.name, dynamic, corpus_dir)
            names.update(re.findall(r"(?:= |^\s*)torch\.(operator \"[^\"]+\"|[\w.]+)", text,
                                    re.MULTILINE))
    assert sorted(names) == CORPUS_OPS.read_text().splitlines()
