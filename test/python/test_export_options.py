"""Small surprises of `export_and_import` (issue 28, item 5): `backend_legal_ops` keeps its
ops out of the default decomposition table, which removed them before torch-mlir's backend
pipeline saw the option; `execute` says what to do with a lowered module instead of
refusing its first op as a side effect; `_assert_tensor_metadata` (a check) runs."""

from __future__ import annotations

import pytest
import torch

import torch_refine
from torch_refine import jit
from torch_refine.executor import ExecutionError


def _model_and_input():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(8, 4), torch.nn.ReLU()).eval(), torch.randn(3, 8)


def test_backend_legal_ops_are_kept():
    model, x = _model_and_input()
    kept = str(torch_refine.export_and_import(model, x, backend_legal_ops=["aten.linear"]))
    assert "torch.aten.linear" in kept
    assert "torch.aten.linear" not in str(torch_refine.export_and_import(model, x))


def test_execute_of_a_lowered_module_says_how_to_run_it():
    model, x = _model_and_input()
    lowered = torch_refine.export_and_import(model, x, output_type="linalg-on-tensors")
    with pytest.raises(ExecutionError, match=r"lowered to a backend .*jit\.compile_linalg"):
        torch_refine.execute(lowered, x)
    (out,) = jit.compile_linalg(lowered)("main", x)
    torch.testing.assert_close(out, model(x).detach())


def test_a_raw_import_with_tensor_metadata_checks_executes():
    class Cast(torch.nn.Module):
        def forward(self, x):
            return x.sum().to(torch.int64) + x.long()

    x = torch.randn(3, 4) * 10
    refined = torch_refine.export_and_import(Cast(), x, output_type="raw")
    # The checks' dtypes are the types' own: nothing is left to check at run time.
    assert "_assert_tensor_metadata" not in str(refined)
    assert "torch.prim.dtype" not in str(refined)
    torch.testing.assert_close(torch_refine.execute(refined, x, check_types=True), Cast()(x))
