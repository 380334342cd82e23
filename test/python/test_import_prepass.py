"""Programs torch.export exports that torch-mlir's FX importer rejects import through
`export_and_import` (issue 28, item 1; `torch_refine.importer.fx`), and run as eager does.

Each case failed in torch-mlir's importer with the message in its id: a list holding a
parameter, buffer or constant ("Heterogeneous lists are not supported": swin, levit,
efficientformer, coatnet), `aten.as_strided` of a dynamic size ("`size` must be a static
int list": torch-mlir's decomposition of group_norm with a dynamic batch, in poolformer,
edgenext, coatnet, hubert) and the `torch.sym_*` functions ("Unimplemented
call_function: sym_max": mpt with a dynamic sequence) and `**` of sizes ("Unsupported
builtin function for symbolic types: pow").
"""

from __future__ import annotations

import math

import pytest
import torch

import torch_refine


class RelativePositionBias(torch.nn.Module):
    """Swin's window attention bias: a table indexed by a precomputed index buffer."""

    def __init__(self, window: int = 4, heads: int = 2, persistent: bool = True):
        super().__init__()
        self.table = torch.nn.Parameter(torch.randn((2 * window - 1) ** 2, heads))
        coords = torch.stack(torch.meshgrid(torch.arange(window), torch.arange(window), indexing="ij")).flatten(1)
        relative = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0) + (window - 1)
        index = relative[..., 0] * (2 * window - 1) + relative[..., 1]
        self.register_buffer("index", index.flatten(), persistent=persistent)
        self.tokens = window * window

    def forward(self, attention):
        bias = self.table[self.index].view(self.tokens, self.tokens, -1).permute(2, 0, 1)
        return (attention + bias.unsqueeze(0)).softmax(-1)


class AttentionBiasIndex(torch.nn.Module):
    """LeViT's attention biases: `biases[:, index]`, a list of None and a buffer."""

    def __init__(self, persistent: bool = False):
        super().__init__()
        self.biases = torch.nn.Parameter(torch.randn(2, 7))
        self.register_buffer("index", torch.randint(0, 7, (16, 16)), persistent=persistent)

    def forward(self, attention):
        return attention + self.biases[:, self.index]


class Strided(torch.nn.Module):
    def forward(self, x):
        return torch.as_strided(x, (x.shape[0], 2, 2), (4, 2, 1)) * 2


class PooledStrided(torch.nn.Module):
    """Swin's pooled map as torch-mlir's decompositions leave it: any stride on size-1 dims."""

    def forward(self, x):
        pooled = x.mean((-1, -2), keepdim=True)
        return torch.as_strided(pooled, (x.shape[0], 4, 1, 1), (4, 1, 4, 4)) + 1


class SymFunctions(torch.nn.Module):
    def forward(self, x, y):
        n, m = x.shape[1], y.shape[1]
        longest = torch.sym_max(n, m)
        shortest = torch.sym_min(n, m)
        padded = torch.nn.functional.pad(x, (0, longest - n)) + torch.nn.functional.pad(y, (0, longest - m))
        total = torch.sym_sum([n, m, shortest])
        scale = torch.sym_float(total) / torch.sym_sqrt(longest)
        chosen = torch.sym_ite(torch.sym_not(n > m), shortest, m)
        return padded * scale + chosen, torch.sym_int(scale * 2.0) + x.new_zeros(())


class SymPow(torch.nn.Module):
    """`**` of sizes (transformers' ConvNextV2 with a dynamic batch and image size)."""

    def forward(self, x):
        b, c = x.shape
        scale = b ** -0.5 + math.pow(c, 0.5)
        return x.new_ones(b ** 2) * scale, x * (c ** 3) + x.new_zeros(b ** 0), x.new_zeros(2 ** c)


BATCH = torch.export.Dim("batch", min=2, max=64)
CASES = {
    "heterogeneous list: relative position index (parameter table, buffer)": (
        RelativePositionBias(), (torch.randn(3, 2, 16, 16),), None),
    "heterogeneous list: non-persistent index buffer": (
        RelativePositionBias(persistent=False), (torch.randn(3, 2, 16, 16),), None),
    "heterogeneous list: None and a constant index": (AttentionBiasIndex(), (torch.randn(3, 2, 16, 16),), None),
    "heterogeneous list: dynamic batch": (
        RelativePositionBias(), (torch.randn(3, 2, 16, 16),), ({0: BATCH},)),
    "as_strided size must be static: direct": (Strided(), (torch.randn(3, 4),), ({0: BATCH},)),
    "as_strided size must be static: strides of size-1 dims": (
        PooledStrided(), (torch.randn(3, 4, 5, 5),), ({0: BATCH},)),
    "as_strided size must be static: group_norm decomposed": (
        torch.nn.Sequential(torch.nn.Conv2d(4, 8, 3), torch.nn.GroupNorm(1, 8)), (torch.randn(3, 4, 8, 8),),
        ({0: BATCH},)),
    "unimplemented call_function: sym_max and the other torch.sym_*": (
        SymFunctions(), (torch.randn(3, 4), torch.randn(3, 6)),
        ({1: torch.export.Dim("n", min=2, max=64)}, {1: torch.export.Dim("m", min=2, max=64)})),
    "unsupported builtin function for symbolic types: pow": (
        SymPow(), (torch.randn(3, 4),), ({0: BATCH, 1: torch.export.Dim("c", min=2, max=16)},)),
}


@pytest.mark.parametrize("output_type", ["raw", "torch"])
@pytest.mark.parametrize("case", CASES)
def test_exported_program_imports_refines_and_runs_as_eager(case, output_type):
    torch.manual_seed(0)
    model, args, dynamic_shapes = CASES[case]
    model.eval()
    refined = torch_refine.export_and_import(model, *args, dynamic_shapes=dynamic_shapes, output_type=output_type)
    assert refined.report.unknown == 0
    with torch.no_grad():
        expected = model(*args)
    torch.testing.assert_close(torch_refine.execute(refined, *args, check_types=True), expected)


def test_the_program_passed_in_is_left_alone():
    program = torch.export.export(AttentionBiasIndex(), (torch.randn(3, 2, 16, 16),))
    before = str(program.graph)
    torch_refine.export_and_import(program)
    assert str(program.graph) == before


class FourierMixing(torch.nn.Module):
    """FNet's token mixing: the real part of a 2-D DFT over sequence and hidden dims."""

    def forward(self, x):
        return torch.fft.fftn(x, dim=(1, 2)).real + torch.fft.fft(x).real.sum(-1, keepdim=True)


def test_real_fourier_transforms_reach_the_backend_as_real_ops():
    from torch_refine import jit

    model = FourierMixing()
    x = torch.randn(3, 7, 6, dtype=torch.float64)
    dims = ({0: BATCH, 1: torch.export.Dim("seq", min=2, max=64)},)
    refined = torch_refine.export_and_import(model, x, dynamic_shapes=dims)
    assert "complex" not in str(refined)
    assert refined.report.unknown == 0
    compiled = jit.compile_module(refined)
    for inputs in (x, torch.randn(2, 12, 6, dtype=torch.float64)):
        torch.testing.assert_close(torch_refine.execute(refined, inputs, check_types=True), model(inputs))
        torch.testing.assert_close(compiled("main", inputs)[0], model(inputs))
    raw = torch_refine.export_and_import(model, x, dynamic_shapes=dims, output_type="raw")
    assert "torch.aten.fft_fftn" in str(raw)  # the backend only: a raw import keeps the transform
