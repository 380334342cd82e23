"""compile_module compiles once: calls after the first reuse the compiled code in one
long-lived forked worker (isolation kept: a failing check kills only the worker)."""

from __future__ import annotations

import gc
import os
import time

import pytest
import torch

import torch_refine
from torch_refine import jit


class _Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        layer = torch.nn.TransformerEncoderLayer(32, 4, 64, batch_first=True, dropout=0.0)
        self.encoder = torch.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)

    def forward(self, x):
        return self.encoder(x)


def test_calls_after_the_first_cost_at_most_10_ms():
    torch.manual_seed(0)
    model, x = _Encoder().eval(), torch.randn(2, 8, 32)
    compiled = torch_refine.compile_module(torch_refine.export_and_import(model, x))
    (first,) = compiled("main", x)
    times = []
    for _ in range(5):  # the best of five: the machine is shared
        start = time.perf_counter()
        (out,) = compiled("main", x)
        times.append(time.perf_counter() - start)
    torch.testing.assert_close(out, first)
    torch.testing.assert_close(out, model(x).detach(), rtol=1e-4, atol=1e-4)
    assert min(times) <= 0.010, f"calls after the first took {[f'{t * 1000:.1f} ms' for t in times]}"


def test_a_failed_check_kills_only_the_worker_and_the_worker_is_reaped():
    class Add(torch.nn.Module):
        def forward(self, a, b):
            return a + b

    batch = torch.export.Dim("batch", min=2, max=64)
    compiled = torch_refine.compile_module(torch_refine.export_and_import(
        Add(), torch.randn(3, 4), torch.randn(3, 4), dynamic_shapes=({0: batch}, {0: batch})))
    compiled("main", torch.ones(3, 4), torch.ones(3, 4))
    first_worker = compiled._worker.pid
    with pytest.raises(jit.RuntimeCheckError, match=r"dim 0 must be a.shape\[0\]"):
        compiled("main", torch.ones(5, 4), torch.ones(6, 4))
    (out,) = compiled("main", torch.ones(5, 4), torch.ones(5, 4))
    torch.testing.assert_close(out, torch.full((5, 4), 2.0))
    second_worker = compiled._worker.pid
    assert second_worker != first_worker
    del compiled
    gc.collect()
    for pid in (first_worker, second_worker):
        with pytest.raises(ChildProcessError):  # reaped: no zombie left
            os.waitpid(pid, os.WNOHANG)
