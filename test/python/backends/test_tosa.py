"""TOSA outputs run as the eager model: every corpus variant TOSA takes, and dynamic batch
where TOSA's rules allow it.

A module lowered to TOSA (`torch-refine-backend-pipeline{backend=tosa}` on raw IR, or
`export_and_import(..., output_type="tosa")`) is run by lowering TOSA to linalg (MLIR's
`tosa-to-linalg-named`, `tosa-to-linalg`, `tosa-to-arith`, `tosa-to-tensor`) and
JIT-compiling that (`jit.compile_linalg`); outputs are compared with eager PyTorch (rtol
1e-4, atol 1e-5), dynamic ones at two batch sizes.

TOSA's shapes are constants: torch-mlir's conversion rejects every `aten.size.int` of a
dynamic dim, and every runtime check. `backend_pipeline.sizes_for_tosa` gives a view the
sizes it reads as constants and one -1 and drops broadcasts refinement proves
unnecessary; guards are dropped with a warning, as for stablehlo.
"""

from __future__ import annotations

import warnings

import pytest
import torch
from models.corpus import BY_NAME, rebatched
from models.export_cache import exported_ir, variant_name
from test_backend_pipeline import _assert_close, _ops
from torch_mlir import ir
from torch_mlir.passmanager import PassManager as TorchMlirPassManager

import torch_refine
from torch_refine import jit
from torch_refine.driver import pipeline_syntax
from torch_refine.driver.passmanager import PassManager
from torch_refine.errors import RefinementWarning
from torch_refine.ir.context import create_context

TOSA_TO_LINALG = ("func.func(tosa-to-linalg-named)", "func.func(tosa-to-linalg)",
                  "func.func(tosa-to-arith)", "func.func(tosa-to-tensor)", "canonicalize")
STATIC = ("bert", "llama", "gpt2", "vit", "resnet", "t5_encoder", "convnext", "lstm",
          "transformer_encoder_layer", "multihead_attention")
# The dynamic corpus variants TOSA takes, and the decomposition each needs: torch-mlir's
# decomposition of convnext's `var_mean` computes in f64, and its TOSA conversion takes a
# cast (`aten.to.dtype`) of static shapes only; ours has no cast.
DYNAMIC = {"resnet": "torch-decompose-complex-ops", "convnext": "torch-refine-decompose"}
BATCHES = (2, 5)


def to_tosa(raw: str, decomposition: str = "torch-decompose-complex-ops") -> ir.Module:
    """Raw Torch IR through torch-refine-backend-pipeline{backend=tosa}."""
    context = create_context()
    module = ir.Module.parse(raw, context)
    pass_manager = PassManager(context)
    pass_manager.add_pipeline(pipeline_syntax.parse(
        f"builtin.module(torch-refine-backend-pipeline{{backend=tosa decomposition={decomposition}}})"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RefinementWarning)  # guards dropped
        pass_manager.run(module.operation)
    return module


def run_tosa(module: ir.Module) -> jit.CompiledModule:
    """A TOSA module lowered to linalg and JIT-compiled."""
    with module.context:
        TorchMlirPassManager.parse(f"builtin.module({','.join(TOSA_TO_LINALG)})").run(module.operation)
    return jit.compile_linalg(module)


class FlattenHead(torch.nn.Module):
    """A convolution, `view(batch, -1)` and a masked activation: a view whose size list
    reads the batch, and a broadcast zero `where` takes as it is."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.conv = torch.nn.Conv2d(3, 4, 3)
        self.fc = torch.nn.Linear(4 * 6 * 6, 5)

    def forward(self, x):
        y = self.conv(x)
        y = y.view(y.size(0), -1)
        y = self.fc(y)
        return torch.where(y > 0, y, torch.zeros(()).expand(y.shape))


def _dynamic_batch():
    return ({0: torch.export.Dim("batch", min=2, max=64)},)


def test_view_of_the_batch_reaches_tosa_and_runs():
    model = FlattenHead().eval()
    example = torch.randn(3, 3, 8, 8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RefinementWarning)
        module = torch_refine.export_and_import(model, example, output_type="tosa",
                                                dynamic_shapes=_dynamic_batch()).module
    names = _ops(module)
    assert "tosa.reshape" in names
    assert not any(name.startswith("torch.") for name in names)
    compiled = run_tosa(module)
    for batch in BATCHES:
        x = torch.randn(batch, 3, 8, 8)
        with torch.no_grad():
            _assert_close(compiled("main", x), model(x))


def test_guards_are_dropped_for_tosa_with_a_warning_naming_them():
    """TOSA admits no runtime check: export's input range checks go, each named."""
    model = FlattenHead().eval()
    with pytest.warns(RefinementWarning, match="tosa backend admits no runtime check: .*dim 0 must be"):
        torch_refine.export_and_import(model, torch.randn(3, 3, 8, 8), output_type="tosa",
                                       dynamic_shapes=_dynamic_batch())


def test_view_of_the_batch_through_the_driver():
    model = FlattenHead().eval()
    raw = torch_refine.export_and_import(model, torch.randn(3, 3, 8, 8), output_type="raw", refine=False,
                                         dynamic_shapes=_dynamic_batch()).module
    compiled = run_tosa(to_tosa(raw.operation.get_asm()))
    x = torch.randn(4, 3, 8, 8)
    with torch.no_grad():
        _assert_close(compiled("main", x), model(x))


def test_what_tosa_cannot_take_is_a_located_error():
    """An `arange` of the batch: TOSA has no dynamic length; the conversion's error, no crash."""

    class Positions(torch.nn.Module):
        def forward(self, x):
            return x + torch.arange(x.size(0)).unsqueeze(1)

    raw = torch_refine.export_and_import(Positions(), torch.randn(3, 4), output_type="raw", refine=False,
                                         dynamic_shapes=_dynamic_batch()).module
    with pytest.raises(ir.MLIRError) as raised:
        to_tosa(raw.operation.get_asm(enable_debug_info=True))
    diagnostics = raised.value.error_diagnostics
    assert diagnostics
    assert "failed to legalize operation 'torch.aten.size.int'" in diagnostics[0].message


def _check_variant(name: str, dynamic: bool, corpus_dir, decomposition: str = "torch-decompose-complex-ops") -> None:
    compiled = run_tosa(to_tosa(exported_ir(name, dynamic, corpus_dir, output_type="raw"), decomposition))
    case = BY_NAME[name]
    model, inputs = case.make()
    for batch in BATCHES if dynamic else (inputs[0].shape[0],):
        batched = rebatched(case, inputs, batch) if dynamic else inputs
        with torch.no_grad():
            _assert_close(compiled("main", *batched), model(*batched))


@pytest.mark.slow
@pytest.mark.parametrize("name", STATIC)
def test_static_corpus_runs_through_tosa(name, corpus_dir):
    _check_variant(name, False, corpus_dir)


@pytest.mark.slow
@pytest.mark.parametrize("name", DYNAMIC, ids=[f"{n}-{variant_name(True)}" for n in DYNAMIC])
def test_dynamic_corpus_runs_through_tosa(name, corpus_dir):
    _check_variant(name, True, corpus_dir, DYNAMIC[name])
