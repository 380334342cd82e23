"""Threads and interrupts leave callers whole (docs/python-api.md, docs/trust-model.md):
`refine` from many threads gives each module what a lone call gives it, with no internal
attribute left; an interrupt is an interrupt (KeyboardInterrupt from the API, exit 130 from
torch-refine-opt, no reproducer), and a failed `refine` leaves the caller's module as it
was."""

from __future__ import annotations

import glob
import os
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import torch_refine
from torch_refine.engine import refine as engine_refine

ROOT = Path(__file__).resolve().parents[3]

# Dynamic dims (symbolic facts), a loop (propagation), a view reading the facts.
PROGRAM = """
func.func @main(%x: !torch.vtensor<[?,WIDTH],f32>, %n: !torch.int) -> !torch.vtensor {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %int8 = torch.constant.int 8
  %int-1 = torch.constant.int -1
  %b = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,WIDTH],f32>, !torch.int -> !torch.int
  %shape = torch.prim.ListConstruct %b, %int-1, %int8 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %v = torch.aten.view %x, %shape : !torch.vtensor<[?,WIDTH],f32>, !torch.list<int> -> !torch.vtensor
  %e = torch.tensor_static_info_cast %v : !torch.vtensor to !torch.vtensor
  %l = torch.prim.Loop %n, %true, init(%e) {
  ^bb0(%i: !torch.int, %acc: !torch.vtensor):
    %t = torch.aten.tanh %acc : !torch.vtensor -> !torch.vtensor
    %u = torch.aten.unsqueeze %t, %int0 : !torch.vtensor, !torch.int -> !torch.vtensor
    %s = torch.aten.squeeze.dim %u, %int0 : !torch.vtensor, !torch.int -> !torch.vtensor
    torch.prim.Loop.condition %true, iter(%s : !torch.vtensor)
  } : (!torch.int, !torch.bool, !torch.vtensor) -> !torch.vtensor
  %r = torch.aten.relu %l : !torch.vtensor -> !torch.vtensor
  return %r : !torch.vtensor
}
"""
THREADS = 8
CALLS_PER_THREAD = 6


def _program(width: int) -> str:
    return PROGRAM.replace("WIDTH", str(width))


def test_refine_from_many_threads_matches_lone_calls():
    widths = [8 * (k + 1) for k in range(THREADS)]
    expected = {w: str(torch_refine.refine(_program(w)).module) for w in widths}

    def work(width: int) -> list[str]:
        return [str(torch_refine.refine(_program(width)).module) for _ in range(CALLS_PER_THREAD)]

    with ThreadPoolExecutor(len(widths)) as pool:
        results = dict(zip(widths, pool.map(work, widths)))
    for width, texts in results.items():
        for text in texts:
            assert "torch_refine." not in text
            assert text == expected[width]


def _reproducers() -> set[str]:
    return set(glob.glob(os.path.join(tempfile.gettempdir(), "torch-refine-repro-*.mlir")))


def test_interrupt_in_refine_is_an_interrupt_and_restores_the_module(monkeypatch):
    from torch_mlir import ir

    from torch_refine.ir.context import create_context

    module = ir.Module.parse(_program(16), create_context())
    before = str(module)
    calls = 0
    original = engine_refine.refine

    def interrupted(*args, **kwargs):  # the second calculation kind: after IR changed
        nonlocal calls
        calls += 1
        if calls == 2:
            raise KeyboardInterrupt
        return original(*args, **kwargs)

    _assert_interrupt_keeps_module(monkeypatch, interrupted, module, before)


def _assert_interrupt_keeps_module(monkeypatch, interrupted, module, before: str) -> None:
    """With `interrupted` in place of the per-op loop, refine raises KeyboardInterrupt,
    leaves `module` as `before` and saves no reproducer."""
    monkeypatch.setattr(engine_refine, "refine", interrupted)
    saved = _reproducers()
    with pytest.raises(KeyboardInterrupt):
        torch_refine.refine(module)
    assert str(module) == before
    assert _reproducers() == saved


def test_interrupt_inside_an_ir_walk_is_an_interrupt(monkeypatch):
    """Ctrl-C while MLIR calls back into Python (an op.walk visitor) reaches the pass as a
    RuntimeError the bindings made of it: still an interrupt, not an internal error with a
    reproducer (make check's Ctrl-C test met it in dim_facts' walk under load)."""
    from torch_mlir import ir

    from torch_refine.ir.context import create_context

    module = ir.Module.parse(_program(16), create_context())
    before = str(module)

    def interrupted(module_op, *args, **kwargs):
        def visit(op):
            raise KeyboardInterrupt

        module_op.walk(visit)

    _assert_interrupt_keeps_module(monkeypatch, interrupted, module, before)


def test_failed_refine_leaves_the_module_as_it_was():
    from torch_mlir import ir

    from torch_refine.ir.context import create_context

    bad = _program(16).replace(
        "%r = torch.aten.relu %l : !torch.vtensor -> !torch.vtensor",
        "%w = torch.tensor_static_info_cast %x : !torch.vtensor<[?,16],f32> to !torch.vtensor\n"
        "  %mm = torch.aten.mm %w, %w : !torch.vtensor, !torch.vtensor -> !torch.vtensor\n"
        "  %r = torch.aten.relu %l : !torch.vtensor -> !torch.vtensor")
    bad = bad.replace("!torch.vtensor<[?,16],f32>", "!torch.vtensor<[3,16],f32>")
    module = ir.Module.parse(bad, create_context())
    before = str(module)
    with pytest.raises(torch_refine.RefinementError, match="Matrix dimensions"):
        torch_refine.refine(module)
    assert str(module) == before


def test_ctrl_c_in_torch_refine_opt_exits_130_and_saves_nothing(tmp_path):
    sys.path.insert(0, str(ROOT / "bench"))
    import run as bench

    source = tmp_path / "nest.mlir"
    source.write_text(bench.chain_text(20000))  # 9 s of refinement on an idle host
    saved = _reproducers()
    process = subprocess.Popen(
        [sys.executable, "-m", "torch_refine.tools.opt", "--torch-refine-pipeline", str(source),
         "--mlir-pass-pipeline-crash-reproducer", str(tmp_path / "crash.mlir")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "python")})
    time.sleep(1.5)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert stdout == ""
    assert stderr == ""
    assert _reproducers() == saved
    assert not (tmp_path / "crash.mlir").exists()
