"""Entry asserts come after the arguments' `torch.bind_symbolic_shape`s.

IREE's torch input replaces an argument's uses after its bind: an assert reading the
argument above the bind fails there with "operand #0 does not dominate this use"."""

from __future__ import annotations

import re

import pytest
import torch

import torch_refine


def _first_reads_after_binds(text: str) -> None:
    """Every line reading `%argN` other than its bind comes after that bind."""
    lines = text.splitlines()
    binds = {match[1]: index for index, line in enumerate(lines)
             if (match := re.search(r"torch\.bind_symbolic_shape (%arg\d+)\b", line))}
    assert binds, "the module has no argument binds"
    for argument, bind in binds.items():
        reads = [index for index, line in enumerate(lines)
                 if re.search(rf"{argument}\b", line) and "func.func" not in line and index != bind]
        assert reads, f"{argument} is never read"
        assert min(reads) > bind, f"{argument} is read above its bind:\n{lines[min(reads)]}"


class _Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(64, 32)
        self.layer = torch.nn.TransformerEncoderLayer(32, 4, 64, batch_first=True, dropout=0.0)

    def forward(self, ids):
        return self.layer(self.embed(ids))


@pytest.mark.parametrize("output_type", ["raw", "torch"])
def test_input_checks_follow_the_binds(output_type):
    torch.manual_seed(0)
    batch, seq = torch.export.Dim("batch", min=2, max=64), torch.export.Dim("seq", min=2, max=32)
    refined = torch_refine.export_and_import(_Encoder().eval(), torch.randint(0, 64, (2, 8)),
                                             output_type=output_type, dynamic_shapes=({0: batch, 1: seq},))
    text = str(refined)
    assert "must be at most 64" in text  # the input checks are there
    _first_reads_after_binds(text)


def test_entry_guards_follow_the_binds():
    """A guard refinement hoists to the entry (the two batches equal) goes after the binds."""
    refined = torch_refine.refine("""
func.func @main(%arg0: !torch.vtensor<[?,4],f32>, %arg1: !torch.vtensor<[?,4],f32>) -> !torch.vtensor {
  %0 = torch.symbolic_int "s0" {min_val = 2, max_val = 64} : !torch.int
  %1 = torch.symbolic_int "s1" {min_val = 2, max_val = 64} : !torch.int
  torch.bind_symbolic_shape %arg0, [%0], affine_map<()[s0] -> (s0, 4)> : !torch.vtensor<[?,4],f32>
  torch.bind_symbolic_shape %arg1, [%1], affine_map<()[s0] -> (s0, 4)> : !torch.vtensor<[?,4],f32>
  %int1 = torch.constant.int 1
  %2 = torch.aten.add.Tensor %arg0, %arg1, %int1 : !torch.vtensor<[?,4],f32>, !torch.vtensor<[?,4],f32>, !torch.int -> !torch.vtensor
  return %2 : !torch.vtensor
}
""")
    text = str(refined)
    assert "requires %arg0[0] == %arg1[0]" in text
    _first_reads_after_binds(text)
