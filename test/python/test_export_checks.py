"""torch.export's own runtime checks survive the import (issue 28, item 2).

A program exported with dynamic dims is valid only inside the ranges export derived and
where its inputs' dims are what export traced them as (the batch of every input); where
the program computes a number it checks (`torch._check`), export writes `_assert_scalar`.
`export_and_import` asserts the first two once each at the entry of the function, and the
third where it is, so a run outside them raises (in `execute`, and JIT-compiled) instead
of computing something else.
"""

from __future__ import annotations

import pytest
import torch

import torch_refine
from torch_refine import jit
from torch_refine.executor import ExecutionError, RaisedError


class Guarded(torch.nn.Module):
    def forward(self, x, y):
        torch._check(x.shape[1] <= 40)  # narrows export's range of the sequence
        half = x.shape[1] // 2
        return x[:, :half].sum(1, keepdim=True) + y


class CheckedItem(torch.nn.Module):
    def forward(self, x):
        count = (x > 0).sum().item()
        torch._check(count <= 8)
        return x * count


def _guarded():
    batch = torch.export.Dim("batch", min=2, max=64)
    program = torch.export.export(Guarded(), (torch.randn(3, 8), torch.randn(3, 1)),
                                  dynamic_shapes=({0: batch, 1: torch.export.Dim.DYNAMIC}, {0: batch}))
    return torch_refine.export_and_import(program)


def _asserts(refined) -> list[str]:
    return [line.split('"')[1] for line in str(refined).splitlines() if "torch.runtime.assert" in line]


def test_ranges_and_equal_dims_are_asserted_once_each_at_the_entry():
    refined = _guarded()
    messages = _asserts(refined)
    assert messages[:4] == [
        "input x (%arg0) dim 0 must be at least 2", "input x (%arg0) dim 0 must be at most 64",
        "input x (%arg0) dim 1 must be at least 2", "input x (%arg0) dim 1 must be at most 40",
    ]
    assert messages[4].startswith("input y (%arg1) dim 0 must be x.shape[0] (torch.export traced both as s")
    assert len(messages) == len(set(messages))
    entry = str(refined).split("torch.runtime.assert")[0]
    assert "torch.aten.slice" not in entry  # before any op of the program


@pytest.mark.parametrize(("x", "y", "message"), [
    (torch.randn(3, 50), torch.randn(3, 1), "dim 1 must be at most 40"),
    (torch.randn(3, 8), torch.randn(4, 1), r"input y \(%arg1\) dim 0 must be x.shape\[0\]"),
    (torch.randn(1, 8), torch.randn(1, 1), "dim 0 must be at least 2"),
])
def test_a_run_outside_them_raises_where_the_program_would(x, y, message):
    refined = _guarded()
    # execute checks the binds of the arguments, which come first (IREE needs them above
    # every read of an argument), against their symbols' ranges: the same facts
    with pytest.raises((RaisedError, ExecutionError), match=f"{message}|'torch.bind_symbolic_shape'"):
        torch_refine.execute(refined, x, y)
    with pytest.raises(jit.RuntimeCheckError, match=message):
        jit.compile_module(refined)("main", x, y)


def test_inside_them_it_runs_as_eager():
    refined = _guarded()
    x, y = torch.randn(5, 12), torch.randn(5, 1)
    torch.testing.assert_close(torch_refine.execute(refined, x, y, check_types=True), Guarded()(x, y))


class Patches(torch.nn.Module):
    """An image cut into 8x8 patches: export makes its sides multiples of 8."""

    def forward(self, x):
        b, c, h, w = x.shape
        return x.reshape(b, c, h // 8, 8, w // 8, 8).sum((3, 5))


def _patches(symbolic: bool):
    side = torch.export.Dim("side", min=2, max=16)
    program = torch.export.export(Patches(), (torch.randn(2, 3, 32, 32),),
                                  dynamic_shapes=({2: 8 * side, 3: 8 * side},))
    return torch_refine.export_and_import(program, import_symbolic_shape_expressions=symbolic)


@pytest.mark.parametrize("symbolic", [True, False])
def test_a_dim_traced_as_a_multiple_is_checked_as_export_checks_it(symbolic):
    """No input dim is the symbol alone: it is solved from the first dim `8*s` names, as
    torch.export's own input check does, and the other is that dim."""
    refined = _patches(symbolic)
    assert _asserts(refined) == [
        "input x (%arg0) dim 2 must be a multiple of 8 (torch.export traced it as 8*s77)".replace("s77", _symbol(refined)),
        "input x (%arg0) dim 2 must be at least 16", "input x (%arg0) dim 2 must be at most 128",
        "input x (%arg0) dim 3 must be x.shape[2] (torch.export traced both as 8*s77)".replace("s77", _symbol(refined)),
    ]
    x = torch.randn(2, 3, 40, 40)
    torch.testing.assert_close(torch_refine.execute(refined, x, check_types=True), Patches()(x))
    for outside, message in ((torch.randn(2, 3, 36, 36), "multiple of 8"), (torch.randn(2, 3, 40, 48), "x.shape"),
                             (torch.randn(2, 3, 136, 136), "at most 128")):
        with pytest.raises((RaisedError, ExecutionError), match=f"{message}|'torch.bind_symbolic_shape'"):
            torch_refine.execute(refined, outside)


def _symbol(refined) -> str:
    return str(refined).split("torch.export traced it as 8*")[1].split(")")[0]


def test_export_checks_of_computed_numbers_are_runtime_asserts_in_raw_imports():
    x = torch.tensor([1.0, -1.0, 2.0, -3.0] * 3)
    refined = torch_refine.export_and_import(CheckedItem(), x, output_type="raw")
    assert "_assert_scalar" not in str(refined)
    assert any("Runtime assertion failed for expression" in m for m in _asserts(refined))
    torch.testing.assert_close(torch_refine.execute(refined, x), CheckedItem()(x))
    with pytest.raises(RaisedError, match="Runtime assertion failed"):
        torch_refine.execute(refined, torch.ones(12))


class SizedItem(torch.nn.Module):
    """A data-dependent size: `item()` checked as a size."""

    def forward(self, x, k):
        count = k.item()
        torch._check_is_size(count)
        torch._check(count <= 8)
        return x[:count] * 2


class NonzeroRows(torch.nn.Module):
    def forward(self, x):
        return x.nonzero().float().sum(0)


def _with_range_constraints(program: torch.export.ExportedProgram) -> torch.export.ExportedProgram:
    """The program with `sym_constrain_range(_for_size)` of its `item()`, as a program not
    re-traced since `torch._check_is_size` has them (re-tracing turns them into
    `_assert_scalar`s)."""
    graph = program.graph
    item = next(n for n in graph.nodes if n.target is torch.ops.aten.item.default)
    with graph.inserting_after(item):
        graph.call_function(torch.ops.aten.sym_constrain_range_for_size.default, (item,), {"min": 2, "max": 8})
        graph.call_function(torch.ops.aten.sym_constrain_range.default, (item,), {"min": 2, "max": 8})
    return program


@pytest.mark.parametrize("output_type", ["raw", "torch"])
def test_range_constraints_of_data_dependent_numbers_are_runtime_asserts_once(output_type):
    x = torch.randn(10, 3)
    program = _with_range_constraints(torch.export.export(SizedItem(), (x, torch.tensor(4))))
    refined = torch_refine.export_and_import(program, output_type=output_type, decomposition_table={})
    text = str(refined)
    assert "sym_constrain_range" not in text.replace('"aten.sym_constrain_range', "")
    bounds = [m.split(": ")[1] for m in _asserts(refined) if "sym_constrain_range" in m]
    assert sorted(bounds) == ["the number must be at least 2", "the number must be at most 8"]
    torch.testing.assert_close(torch_refine.execute(refined, x, torch.tensor(4), check_types=True),
                               SizedItem()(x, torch.tensor(4)))
    for outside in (1, 9):
        with pytest.raises(RaisedError, match=r"sym_constrain_range.*the number must be at"):
            torch_refine.execute(refined, x, torch.tensor(outside))


def test_tensor_metadata_checks_become_asserts_a_known_dtype_decides():
    x = torch.tensor([[1.0, 0.0], [0.0, 2.0]])
    program = torch.export.export(NonzeroRows(), (x,))
    assert any(n.target is torch.ops.aten._assert_tensor_metadata.default for n in program.graph.nodes)
    refined = torch_refine.export_and_import(program, output_type="raw", decomposition_table={})
    assert "_assert_tensor_metadata" not in str(refined)
    assert "torch.prim.dtype" not in str(refined)  # nonzero's si64 is what the check names
    torch.testing.assert_close(torch_refine.execute(refined, x, check_types=True), NonzeroRows()(x))


class PositionBias(torch.nn.Module):
    """MPT's position bias: a [heads, 1, 64] table sliced from `max(0, 1 - seq)` and
    `max(0, 64 - seq)`, whose rows are `1 - max(0, 1 - seq)`, 1 wherever seq >= 2."""

    def __init__(self):
        super().__init__()
        self.register_buffer("alibi", torch.randn(2, 1, 64))

    def forward(self, states):
        scores = states @ states.transpose(-1, -2)
        sequence = states.shape[2]
        rows = max(0, self.alibi.size(1) - sequence)
        columns = max(0, self.alibi.size(2) - sequence)
        return scores + self.alibi[:, rows:, columns:]


def test_exports_ranges_decide_a_max_where_the_importer_drops_the_symbolic_shapes():
    model = PositionBias()
    sequence = torch.export.Dim("seq", min=2, max=16)
    program = torch.export.export(model, (torch.randn(3, 2, 5, 4),), dynamic_shapes=({2: sequence},))
    refined = torch_refine.export_and_import(program)
    assert "torch.bind_symbolic_shape %arg0" in str(refined)  # export's ranges, bound by us
    slices = [line for line in str(refined).splitlines() if "torch.aten.slice.Tensor" in line]
    assert slices[-1].endswith("-> !torch.vtensor<[2,1,?],f32>")  # the row is 1, not `?`
    compiled = jit.compile_module(refined)
    for size in (5, 9):
        states = torch.randn(3, 2, size, 4)
        torch.testing.assert_close(compiled("main", states)[0], model(states))


def test_specialize_refuses_sizes_outside_the_exported_range():
    class PermuteSum(torch.nn.Module):
        def forward(self, x):
            return x.permute(0, 2, 1).sum(-1)

    batch = torch.export.Dim("batch", min=2, max=32)
    expected = {True: r"argument 0 dim 0 is 100, outside the range \[2, 32\]",
                False: r"input check: input x \(%arg0\) dim 0 must be at most 32"}
    for symbolic, message in expected.items():
        refined = torch_refine.export_and_import(PermuteSum(), torch.randn(2, 3, 4), dynamic_shapes=({0: batch},),
                                                 import_symbolic_shape_expressions=symbolic)
        with pytest.raises(ValueError, match=message):
            torch_refine.specialize(refined, [(100, 3, 4)])
        specialized = torch_refine.specialize(refined, [(32, 3, 4)])
        assert "!torch.vtensor<[32,4],f32>" in str(specialized)
        assert "torch.runtime.assert" not in str(specialized)


def test_refined_is_the_pair_it_unpacks_as():
    refined = torch_refine.export_and_import(torch.nn.Tanh(), torch.randn(2, 3))
    module, report = refined
    assert refined[0] is module
    assert refined[1] is report
    assert refined[-1] is report
    assert len(refined) == 2
    assert tuple(refined) == (module, report)
