"""The single-op corpus of ops the meta fallback serves (fallback_corpus.py) against PyTorch:
each template refined as written (static: PyTorch's result types exactly, but sizes its fake
kernel computes from the data) and with every dim of every tensor dynamic (no refined type
contradicts PyTorch's), then a few fuzzer cases of each op (mutated, partly dynamic or
unranked; fuzzer.py's verdicts).

`make test` runs a fixed slice (SLICE ops, FUZZ_CASES fuzzer cases); TORCH_REFINE_FALLBACK_CORPUS=full
runs every op, and `build_tools/fuzz.py --fallback-cases N` thousands of fuzzer cases.
"""

from __future__ import annotations

import os

import pytest

from robustness import fallback_corpus, fuzzer
from torch_refine import report
from torch_refine.api import RefinementError, refine
from torch_refine.ir.context import create_context
from torch_refine.library import loader
from torch_refine.library.testing import (
    Unbuildable,
    build_ir,
    parse_ir,
    pytorch_infos,
    result_infos,
    run_pytorch,
    tensor_type,
)

FULL = os.environ.get("TORCH_REFINE_FALLBACK_CORPUS") == "full"
SLICE = ("aten.vstack", "aten.block_diag", "aten.take_along_dim", "aten.sort.stable", "aten.linalg_qr",
         "aten.fft_rfftn", "aten.pdist", "aten.nansum")
OPS = sorted(fallback_corpus.TEMPLATES) if FULL else SLICE
SEED = 0
FUZZ_CASES = 8


def _dynamic(tensor, value_semantics: bool) -> str:
    static = tensor_type(tensor, value_semantics)
    head, element = static.split("<", 1)[0], static.rsplit(",", 1)[1]
    return f"{head}<[{','.join('?' * len(tensor.shape))}],{element}"


def _cases():
    for op in OPS:
        for index, invocation in enumerate(fallback_corpus.TEMPLATES[op]):
            for dynamic in (False, True):
                yield pytest.param(op, invocation, dynamic, id=f"{op}-{index}-{'dynamic' if dynamic else 'static'}")


def test_every_op_is_served_by_the_fallback():
    """No corpus op has library functions: the corpus measures the fallback."""
    library = loader.load(create_context())
    with_functions = [op for op in fallback_corpus.TEMPLATES
                      if library.has_function(op, ("shape",)) and library.has_function(op, ("dtype",))]
    assert not with_functions
    assert len(fallback_corpus.TEMPLATES) >= 40


@pytest.mark.parametrize(("op", "invocation", "dynamic"), list(_cases()))
def test_corpus_agrees_with_pytorch(op, invocation, dynamic):
    result, error = run_pytorch(op, invocation)
    assert error is None, f"a corpus template PyTorch rejects: {error}"
    try:
        module = parse_ir(build_ir(op, invocation, argument_type=_dynamic if dynamic else tensor_type))
    except Unbuildable as reason:
        pytest.skip(str(reason))
    try:
        refine(module)
    except RefinementError as failure:
        pytest.fail(f"refinement fails: {failure!s:.300}")
    truth = pytorch_infos(result, True)
    refined = result_infos(module)
    assert len(refined) == len(truth)
    contradictions = [(r.text(), t.text()) for r, t in zip(refined, truth, strict=True)
                      if r is not None and report.classify(r, t) == "contradiction"]
    assert not contradictions
    if not dynamic:
        assert [r and r.text() for r in refined] == [t.text() for t in truth]


def test_fuzzed_cases_agree_with_pytorch():
    """As test_fuzz.py: a failure fallback_known_failures.json does not list fails, and so
    does a listed case that no longer fails as listed."""
    known = fallback_corpus.known(SEED)
    cases = fuzzer.case_ids(SEED, FUZZ_CASES if not FULL else 4 * len(OPS), OPS)
    outcomes = fuzzer.run(SEED, cases, jobs=1, checker=fallback_corpus.check_case)
    unexpected = [o for o in outcomes if o.failed and known.get(o.case, (None,))[0] != o.verdict]
    fixed = [o.case for o in outcomes if o.case in known and o.verdict != known[o.case][0]]
    problems = [o.reproducer() for o in unexpected] + [f"listed but no longer failing so: {fixed}"] * bool(fixed)
    assert not problems, fuzzer.summary(outcomes) + "\n" + "\n".join(problems)


def test_known_failures_are_corpus_ops():
    stale = sorted(case for case in fallback_corpus.known(SEED) if case.rpartition("#")[0] not in fallback_corpus.TEMPLATES)
    assert not stale
