"""torch_refine.refine / specialize: reports, errors, reproducers, signatures."""

from __future__ import annotations

import os

import pytest

import torch_refine
from torch_refine import report

MM = """
func.func @main(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[B,5],f32>) -> !torch.vtensor {
  %0 = torch.aten.mm %a, %b : !torch.vtensor<[2,3],f32>, !torch.vtensor<[B,5],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}
"""


def test_refine_narrows_the_signature_and_reports():
    module, result = torch_refine.refine(MM.replace("B", "3"))
    assert "-> !torch.vtensor<[2,5],f32>" in str(module)
    assert (result.exact, result.unknown) == (1, 0)
    assert result.to_dict()["exact"] == 1
    assert "exact" in str(result)


def test_pass_failure_raises_with_diagnostics_and_reproducer():
    with pytest.raises(torch_refine.RefinementError) as caught:
        torch_refine.refine(MM.replace("B", "4"))
    error = caught.value
    assert "error:" in error.diagnostics
    assert "torch.aten.mm" in str(error)
    assert error.reproducer is not None
    assert os.path.exists(error.reproducer)
    assert "torch-refine-opt --pass-pipeline=" in str(error)
    os.remove(error.reproducer)


def test_unknown_values_get_a_reason():
    text = """
    func.func @main(%a: !torch.vtensor) -> !torch.vtensor {
      %0 = torch.aten.tanh %a : !torch.vtensor -> !torch.vtensor
      %1 = torch.operator "nowhere.op"(%0) : (!torch.vtensor) -> !torch.vtensor
      return %1 : !torch.vtensor
    }
    """
    _, result = torch_refine.refine(text)
    reasons = [row.reason for row in result.unknown_rows]
    assert reasons == [report.UNKNOWN_OPERANDS, f"{report.NO_LIBRARY_FUNCTION}: nowhere.op"]
    assert "why values stayed unknown" in result.format_table()


def test_specialize_rejects_mismatched_arguments():
    refined = torch_refine.refine(MM.replace("B", "?").replace("[2,3]", "[?,3]"))
    with pytest.raises(ValueError, match=r"argument 1 \(%arg1\) of @main has rank 2"):
        torch_refine.specialize(refined, [None, (3,)])
    with pytest.raises(ValueError, match=r"argument 0 \(%arg0\) of @main has dtype f32"):
        torch_refine.specialize(refined, ["!torch.vtensor<[4,3],si64>", None])
    module, _ = torch_refine.specialize(refined, [(4, 3), (3, 5)])
    assert "-> !torch.vtensor<[4,5],f32>" in str(module)
