"""Backend outputs of dynamic programs, through the API and the driver's backend pipeline:

- stablehlo: the asserts are dropped with a warning diagnostic (a `RefinementWarning`,
  `warning:` from torch-refine-opt), not kept for stablehlo to reject;
- linalg with a dynamic batch and sequence runs at every size (views lowered as reshapes
  on every path, not only in `compile_module`);
- `aten.histc`, which no backend of torch-mlir lowers, is decomposed, and a failing
  lowering's error holds its diagnostics.
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import torch
from torch_mlir import fx

import torch_refine
from torch_refine import jit
from torch_refine.driver import pipeline_syntax
from torch_refine.driver.passmanager import PassManager
from torch_refine.errors import RefinementError, RefinementWarning
from torch_refine.ir import parsing
from torch_refine.lowering.decompose import decompose_unlowerable

TORCH_REFINE_OPT = Path(sys.executable).parent / "torch-refine-opt"


def _layer():
    torch.manual_seed(0)
    return torch.nn.TransformerEncoderLayer(32, 4, 64, batch_first=True, dropout=0.0).eval()


def _batch_and_sequence():
    return ({0: torch.export.Dim("batch", min=2, max=64), 1: torch.export.Dim("seq", min=2, max=32)},)


SIZES = ((2, 8, 32), (5, 13, 32), (3, 2, 32))


def _runs_as_eager(compiled, model) -> None:
    for shape in SIZES:
        x = torch.randn(shape)
        (out,) = compiled("main", x)
        torch.testing.assert_close(out, model(x).detach(), rtol=1e-4, atol=1e-5)


def _driver_lowered(raw_text: str, backend: str):
    module = parsing.as_module(raw_text)
    pass_manager = PassManager(module.context)
    pass_manager.add_pipeline(pipeline_syntax.parse(f"builtin.module(torch-refine-backend-pipeline{{backend={backend}}})"))
    pass_manager.run(module.operation)
    return module


def test_stablehlo_output_of_a_dynamic_model_drops_the_asserts_with_a_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lowered = torch_refine.export_and_import(_layer(), torch.randn(2, 8, 32), output_type="stablehlo",
                                                 dynamic_shapes=_batch_and_sequence())
    text = str(lowered)
    assert "stablehlo." in text
    assert "torch.runtime.assert" not in text
    assert " = torch." not in text
    dropped = [w.message for w in caught if isinstance(w.message, RefinementWarning)]
    assert len(dropped) == 1
    assert "the stablehlo backend admits no runtime check" in dropped[0].text
    assert "4 runtime asserts are dropped ('input src (%arg0) dim 0 must be at least 2'" in dropped[0].text
    assert not [w for w in caught if w.category is RuntimeWarning]


def test_the_driver_says_it_drops_guards_for_stablehlo_as_a_warning_diagnostic(tmp_path):
    source = tmp_path / "layer.mlir"
    source.write_text(str(fx.export_and_import(_layer(), torch.randn(2, 8, 32), output_type="raw",
                                               dynamic_shapes=_batch_and_sequence())))
    done = subprocess.run([str(TORCH_REFINE_OPT), "--torch-refine-backend-pipeline=backend=stablehlo", str(source),
                           "-o", str(tmp_path / "out.mlir")], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert f"{source}:1:1: warning: the stablehlo backend admits no runtime check" in done.stderr
    assert "RuntimeWarning" not in done.stderr
    assert "stablehlo." in (tmp_path / "out.mlir").read_text()


def test_linalg_output_with_dynamic_batch_and_sequence_runs_at_every_size():
    model = _layer()
    lowered = torch_refine.export_and_import(model, torch.randn(2, 8, 32), output_type="linalg-on-tensors",
                                             dynamic_shapes=_batch_and_sequence())
    _runs_as_eager(jit.compile_linalg(lowered), model)


def test_the_drivers_linalg_pipeline_with_dynamic_batch_and_sequence_runs_at_every_size():
    model = _layer()
    raw = fx.export_and_import(model, torch.randn(2, 8, 32), output_type="raw", dynamic_shapes=_batch_and_sequence())
    _runs_as_eager(jit.compile_linalg(_driver_lowered(str(raw), "linalg-on-tensors")), model)


HISTC = """
func.func @main(%arg0: !torch.vtensor<[4,8],f32>) -> !torch.vtensor<[5],f32> {
  %bins = torch.constant.int 5
  %lo = torch.constant.float -1.5
  %hi = torch.constant.int 4
  %0 = torch.operator "torch.aten.histc"(%arg0, %bins, %lo, %hi) : (!torch.vtensor<[4,8],f32>, !torch.int, !torch.float, !torch.int) -> !torch.vtensor<[5],f32>
  return %0 : !torch.vtensor<[5],f32>
}
"""


def test_histc_is_decomposed_as_eager_counts():
    module = parsing.as_module(HISTC)
    with module.context:
        decompose_unlowerable(module.operation)
    assert "histc" not in str(module)
    compiled = jit.compile_module(module)
    edges = torch.tensor([-1.5, 4.0, -1.6, 4.1, float("nan"), 0.7, 0.69999, 3.99999])  # the range's ends, out, NaN
    for x in (torch.randn(4, 8) * 3, torch.cat([edges, torch.randn(24) * 3]).view(4, 8)):
        (counts,) = compiled("main", x)
        torch.testing.assert_close(counts, torch.histc(x, 5, -1.5, 4))


@pytest.mark.parametrize("backend", ["tosa", "stablehlo"])
def test_the_decomposed_histc_lowers_to_every_backend(backend):
    from torch_mlir.passmanager import PassManager as TorchMlirPassManager

    module = parsing.as_module(HISTC)
    with module.context:
        decompose_unlowerable(module.operation)
        TorchMlirPassManager.parse(f"builtin.module(torch-backend-to-{backend}-backend-pipeline)").run(module.operation)
    assert "torch." not in str(module)


class _ExpertCounts(torch.nn.Module):
    """How transformers' MoE layers count the tokens routed to each expert."""

    def forward(self, logits):
        experts = logits.topk(2, dim=-1).indices
        counts = torch.histc(experts.float(), bins=4, min=0, max=3)
        return logits * counts


@pytest.mark.parametrize("output_type", ["torch", "linalg-on-tensors"])
def test_a_program_with_histc_reaches_the_backends_and_runs_as_eager(output_type):
    model, logits = _ExpertCounts(), torch.randn(6, 4)
    lowered = torch_refine.export_and_import(model, logits, output_type=output_type)
    assert "histc" not in str(lowered)
    compiled = jit.compile_module(lowered) if output_type == "torch" else jit.compile_linalg(lowered)
    (out,) = compiled("main", logits)
    torch.testing.assert_close(out, model(logits))


torch.library.define("torch_refine_test::opaque", "(Tensor x) -> Tensor")


@torch.library.impl("torch_refine_test::opaque", "CompositeExplicitAutograd")
def _opaque(x):
    return x * 2


@torch.library.register_fake("torch_refine_test::opaque")
def _opaque_fake(x):
    return torch.empty_like(x)


class _Opaque(torch.nn.Module):
    def forward(self, x):
        return torch.ops.torch_refine_test.opaque(x) + 1


@pytest.mark.parametrize("output_type", ["torch", "linalg-on-tensors"])
def test_a_failing_lowering_says_what_failed(output_type):
    """torch-mlir's runner raised with "failed with the following diagnostics:" and none."""
    with pytest.raises(RefinementError) as caught:
        torch_refine.export_and_import(_Opaque(), torch.randn(3), output_type=output_type)
    message = str(caught.value)
    assert "error: failed to legalize operation 'torch.operator'" in message
    assert "torch_refine_test.opaque" in message


GROUPED_MM = """
func.func @main(%x: !torch.vtensor<[?,8],f32>, %w: !torch.vtensor<[4,8,6],f32>, %offs: !torch.vtensor<[4],si32>) -> !torch.vtensor<[?,6],f32> {
  %0 = torch.operator "torch.transformers.grouped_mm_fallback"(%x, %w, %offs) : (!torch.vtensor<[?,8],f32>, !torch.vtensor<[4,8,6],f32>, !torch.vtensor<[4],si32>) -> !torch.vtensor<[?,6],f32>
  return %0 : !torch.vtensor<[?,6],f32>
}
"""


def test_transformers_grouped_mm_fallback_is_decomposed_as_it_computes():
    moe = pytest.importorskip("transformers.integrations.moe")
    module = parsing.as_module(GROUPED_MM)
    with module.context:
        decompose_unlowerable(module.operation)
    assert "grouped_mm" not in str(module)
    compiled = jit.compile_module(module)
    # groups with rows, empty groups, rows past the last end (they stay 0)
    for rows, ends in ((10, [3, 3, 7, 9]), (5, [0, 2, 2, 5]), (7, [7, 7, 7, 7]), (6, [0, 0, 0, 0])):
        x, weight, offs = torch.randn(rows, 8), torch.randn(4, 8, 6), torch.tensor(ends, dtype=torch.int32)
        (got,) = compiled("main", x, weight, offs)
        torch.testing.assert_close(got, moe._grouped_mm_fallback(x, weight, offs))


def _qwen3_moe_runs_as_eager(dims: dict, sizes: tuple) -> None:
    """A 1-layer Qwen3Moe (4 experts, 2 per token) exported with `dims` of both inputs
    dynamic runs as eager through `compile_module` at each (batch, sequence) of `sizes`."""
    from models.corpus3 import _decoder

    build = _decoder("Qwen3MoeConfig", "Qwen3MoeModel", num_hidden_layers=1, num_key_value_heads=2, num_experts=4,
                     num_experts_per_tok=2, moe_intermediate_size=32, head_dim=8)
    torch.manual_seed(0)
    model, inputs = build()
    refined = torch_refine.export_and_import(model.eval(), *inputs, dynamic_shapes=(dims, dims))
    compiled = jit.compile_module(refined)
    for batch, sequence in sizes:
        ids, mask = torch.randint(0, 128, (batch, sequence)), torch.ones(batch, sequence, dtype=torch.int64)
        with torch.no_grad():
            expected = model(ids, mask)
        for ours, theirs in zip(compiled("main", ids, mask), expected, strict=True):
            torch.testing.assert_close(ours, theirs, rtol=1e-4, atol=1e-5)


@pytest.mark.slow
def test_qwen3_moe_reaches_the_backend_contract_and_runs_as_eager():
    """transformers' Qwen3Moe: `histc` and `grouped_mm_fallback`, which no backend lowers."""
    _qwen3_moe_runs_as_eager({0: torch.export.Dim("batch", min=2, max=64)}, ((2, 8), (3, 8)))


@pytest.mark.slow
def test_qwen3_moe_with_dynamic_batch_and_sequence_runs_as_eager():
    """Its router's `view(hidden, [-1, 32])` of `[b, s, 32]`: torch-mlir's view lowering made
    it `[b, 32]` (a static cast to `[b, 1, 32]`), and the heap was corrupted at run time."""
    dims = {0: torch.export.Dim("batch", min=2, max=64), 1: torch.export.Dim("seq", min=2, max=64)}
    _qwen3_moe_runs_as_eager(dims, ((2, 8), (3, 5)))


INFERRED_VIEWS = """
func.func @main(%arg0: !torch.vtensor<[?,?,32],f32>) -> (!torch.vtensor<[?,32],f32>, !torch.vtensor<[?,?],f32>) {
  %int-1 = torch.constant.int -1
  %int0 = torch.constant.int 0
  %int32 = torch.constant.int 32
  %rows = torch.prim.ListConstruct %int-1, %int32 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %arg0, %rows : !torch.vtensor<[?,?,32],f32>, !torch.list<int> -> !torch.vtensor<[?,32],f32>
  %batch = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,?,32],f32>, !torch.int -> !torch.int
  %flat = torch.prim.ListConstruct %batch, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.view %arg0, %flat : !torch.vtensor<[?,?,32],f32>, !torch.list<int> -> !torch.vtensor<[?,?],f32>
  return %0, %1 : !torch.vtensor<[?,32],f32>, !torch.vtensor<[?,?],f32>
}
"""


def test_a_view_with_an_inferred_dynamic_size_runs_as_eager():
    """A -1 among dynamic dims: torch-mlir's lowering paired `[-1, 32]` of `[b, s, 32]`
    with `b` and took `s` as 1 (a result `[b, 32]`); it is given as a reshape of the
    element count over the other sizes."""
    compiled = jit.compile_module(INFERRED_VIEWS)
    for shape in ((3, 5, 32), (2, 8, 32)):
        x = torch.randn(shape)
        rows, flat = compiled("main", x)
        torch.testing.assert_close(rows, x.view(-1, 32))
        torch.testing.assert_close(flat, x.view(x.shape[0], -1))


def _api_raw_text() -> str:
    return str(torch_refine.export_and_import(_layer(), torch.randn(2, 8, 32), output_type="raw",
                                              dynamic_shapes=_batch_and_sequence()))


def test_stablehlo_can_carry_guards_as_shape_assertions():
    """`shape-assertions=true`: JAX's convention, `stablehlo.custom_call @shape_assertion`."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        text = str(_driver_lowered(_api_raw_text(), "stablehlo shape-assertions=true"))
    assertions = [line for line in text.splitlines() if "stablehlo.custom_call @shape_assertion" in line]
    assert len(assertions) == 4
    assert 'error_message = "input src (%arg0) dim 1 must be at most 32"' in text
    assert "has_side_effect = true" in assertions[0]
    assert not [w for w in caught if isinstance(w.message, RefinementWarning)]


def test_export_input_checks_survive_the_drivers_backend_pipeline():
    """Canonicalization hoists the weights above the entry's input checks; refinement must
    still take them as facts, not erase them as decided by the ranges they check."""
    compiled = jit.compile_linalg(_driver_lowered(_api_raw_text(), "linalg-on-tensors"))
    with pytest.raises(jit.RuntimeCheckError, match=r"input src \(%arg0\) dim 1 must be at most 32"):
        compiled("main", torch.randn(2, 40, 32))
