"""The benchmark's inputs and its verdicts on the issue's targets (not its timings)."""

import importlib.util
import sys
from pathlib import Path

import pytest
from torch_mlir import ir

from torch_refine import report
from torch_refine.api import refine
from torch_refine.ir.context import create_context

_RUN = Path(__file__).resolve().parents[2] / "bench" / "run.py"
_spec = importlib.util.spec_from_file_location("bench_run", _RUN)
bench = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = bench  # dataclasses look their module up
_spec.loader.exec_module(bench)


def _exact_after_refining(truth_text: str) -> tuple[int, int]:
    """(exact tensor values, all tensor values) of the erased input once refined."""
    with create_context():
        truth, op_count = report.tensor_values(ir.Module.parse(truth_text).operation)
        refined_module, _ = refine(bench.erased_text(truth_text))
        refined = report.tensor_values(refined_module.operation)[0]
    type_report = report.compare_records(refined, truth, op_count)
    assert type_report.contradictions == 0
    return type_report.exact, len(truth)


def test_chain_links_carry_their_own_constants():
    text = bench.chain_text(3)
    with create_context():
        module = ir.Module.parse(text)
        _, op_count = report.tensor_values(module.operation)
    assert op_count == 3 * bench.CHAIN_OPS_PER_LINK + 1  # and the return
    assert text.count("torch.constant.int 8") == 3
    assert _exact_after_refining(text) == (24, 24)


@pytest.mark.slow
def test_block_series_exports_the_tiny_llama_with_n_layers():
    one, two = (bench.truth_text(bench.Input(f"llama-{n}x", "blocks", n)) for n in (1, 2))
    per_layer = two.count("torch.aten.") - one.count("torch.aten.")
    assert per_layer > 50
    exact, values = _exact_after_refining(one)
    assert exact == values


def _result(name, series, scale, ops, ours_s, theirs_s, ours_mb=70.0, theirs_mb=20.0):
    def timing(seconds, megabytes):
        return {"median_s": seconds, "median_cpu_s": seconds, "min_s": seconds,
                "max_s": seconds, "runs": 5, "peak_rss_mb": megabytes,
                "peak_anon_mb": megabytes / 4}

    counts = {"exact": ops // 2, "partial": 0, "unknown": 0, "contradictions": 0}
    return {
        "input": name, "series": series, "scale": scale, "ops": ops,
        "torch_refine": timing(ours_s, ours_mb), "torch_mlir": timing(theirs_s, theirs_mb),
        "precision": None if series == "empty" else {
            "torch_refine": counts, "torch_refine_on_paired": counts,
            "torch_mlir_on_paired": counts,
        },
    }


def test_targets_are_marked_from_the_numbers():
    empty = _result("empty", "empty", 0, 0, 0.2, 0.1)
    results = [
        empty,
        _result("llama-1x", "blocks", 1, 200, 0.4, 0.2),
        _result("llama-4x", "blocks", 4, 800, 1.0, 0.8),
        _result("llama-16x", "blocks", 16, 3200, 3.4, 10.0, ours_mb=90.0, theirs_mb=100.0),
        _result("chain-24x", "chain", 24, 400, 0.3, 0.2),
        _result("chain-96x", "chain", 96, 1600, 0.9, 1.5),
    ]
    text = bench._targets(results, empty)
    assert "zero contradictions: **met** (5 of 5 inputs; 0 contradictions)" in text
    # llama-16x 0.34x (met), chain-96x 0.60x (not met)
    assert "largest inputs: **not met** (llama-16x 0.34x, chain-96x 0.60x)" in text
    # wall µs/op 2000, 1250, 1062 is not flat; net of the empty module (0.2 s) it is
    assert "from llama-1x to llama-16x: **not met** (wall 2000 to 1062 µs/op, spread 88%" in text
    assert "net of the empty module 1000 to 1000 µs/op, spread 0%" in text
    assert "along the series: 1000, 1000 µs" in text
    assert "Peak memory no more than torch-mlir's: **not met** (peak RSS on 1 of 6 inputs: " \
        "llama-16x; anonymous memory on 1: llama-16x)" in text
