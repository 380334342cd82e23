"""The refined types against torch.export's own (issue 28): the types export traced each
node's results as (`importer.fx.traced_types`) are a truth; `export_and_import`'s report
counts the values it compared with them and the contradictions, and a planted mismatch is
found."""

from __future__ import annotations

import re

import pytest
import torch

import torch_refine
from torch_refine import report
from torch_refine.importer import fx as graph_prepass
from torch_refine.ir import types


class Halves(torch.nn.Module):
    def forward(self, x, y):
        half = x.shape[1] // 2
        return (x[:, :half].sum(1, keepdim=True) + y).relu(), x.softmax(-1)


def _program():
    batch = torch.export.Dim("batch", min=2, max=64)
    # The sequence unbounded (Dim.DYNAMIC): export's range ends at its int_oo.
    return torch.export.export(Halves(), (torch.randn(3, 8), torch.randn(3, 1)),
                               dynamic_shapes=({0: batch, 1: torch.export.Dim.DYNAMIC}, {0: batch}))


@pytest.mark.parametrize("output_type", ["raw", "torch"])
def test_the_report_counts_the_values_compared_with_exports_types(output_type):
    refined = torch_refine.export_and_import(_program(), output_type=output_type)
    assert refined.report.export_compared >= 3
    assert refined.report.export_contradictions == 0, refined.report
    assert "against torch.export's traced types" in str(refined.report)
    assert refined.report.to_dict()["export_compared"] == refined.report.export_compared


def _relu(program) -> torch.fx.Node:
    return next(n for n in program.graph.nodes if n.target is torch.ops.aten.relu.default)


def _compared_after(program, plant) -> report.TypeReport:
    refined = torch_refine.export_and_import(program, output_type="raw")
    relu = _relu(program)
    with relu.meta["val"].fake_mode:
        relu.meta["val"] = plant(relu.meta["val"])
    with refined.context:
        return report.compare_traced(report.TypeReport(), refined.operation, graph_prepass.traced_types(program))


@pytest.mark.parametrize(("plant", "why"), [
    (lambda val: val.new_empty((val.shape[0], 2)), "dim 1 is 1, export traced 2"),
    (lambda val: val.to(torch.float64), "dtype f32, export traced f64"),
    (lambda val: val.new_empty((val.shape[0], 1, 1)), "rank 2, export traced 3"),
    (lambda val: val.new_empty((val.shape[0], val.shape[0])), r"dim 1 is 1, export traced s\d+ \(= 3 at"),
])
def test_a_planted_mismatch_is_a_contradiction(plant, why):
    compared = _compared_after(_program(), plant)
    assert compared.export_compared >= 3
    rows = compared.export_contradiction_rows
    assert len(rows) == 1, rows
    assert rows[0].op_name == "torch.aten.relu"
    assert re.search(why, rows[0].reason), rows[0].reason


def test_a_static_size_where_exports_range_holds_only_it_is_no_contradiction():
    info = types.TensorInfo((1, 4), "f32")
    held = graph_prepass.TracedType((graph_prepass.TracedDim("1 - Max(0, 1 - s0)", 1, 1, 1), 4), "f32")
    ranged = graph_prepass.TracedType((graph_prepass.TracedDim("s0 - 1", 1, 1, 63), 4), "f32")
    assert report.traced_contradiction(info, held) is None
    assert "within [1, 63]" in report.traced_contradiction(info, ranged)
