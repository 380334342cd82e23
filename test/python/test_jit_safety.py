"""Running JIT-compiled code never kills the caller (issue 28, item 3).

- torch-mlir's view lowering pairs a dynamic size computed from another tensor's sizes
  with the wrong input dim (RoFormer, BigBird, ... with a dynamic sequence: `[b, s, 32]`
  viewed as `[b * s, 32]` became `[b, 1, 32]`, then a failed broadcast check aborted the
  process); `jit.lower_to_linalg` gives such views to the lowering as reshapes;
- a failing runtime check raises `RuntimeCheckError` naming the check and where it is;
- arguments are checked against the signature before the code runs.
"""

from __future__ import annotations

import pytest
import torch

import torch_refine
from torch_refine import jit


class Collapse(torch.nn.Module):
    """Views a computed tensor by sizes read from the input, as exported programs do."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(32, 32)

    def forward(self, x):
        batch, sequence = x.shape[0], x.shape[1]
        flat = (x * 2).view(batch * sequence, 32)
        return self.linear(flat).view(batch, sequence, 32) + x


class Add(torch.nn.Module):
    def forward(self, a, b):
        return a + b


def _dynamic(model, *examples, dims):
    return torch_refine.export_and_import(model, *examples, dynamic_shapes=tuple(dims for _ in examples))


def test_a_view_of_sizes_read_elsewhere_runs_at_every_size():
    torch.manual_seed(0)
    model = Collapse().eval()
    dims = {0: torch.export.Dim("batch", min=2, max=16), 1: torch.export.Dim("seq", min=2, max=16)}
    compiled = jit.compile_module(_dynamic(model, torch.randn(2, 3, 32), dims=dims))
    for shape in ((2, 3, 32), (5, 7, 32)):
        x = torch.randn(shape)
        (out,) = compiled("main", x)
        torch.testing.assert_close(out, model(x).detach())


def test_the_view_is_lowered_as_a_reshape():
    dims = {0: torch.export.Dim("batch", min=2, max=16), 1: torch.export.Dim("seq", min=2, max=16)}
    linalg = str(jit.lower_to_linalg(_dynamic(Collapse(), torch.randn(2, 3, 32), dims=dims)))
    assert "tensor.reshape" in linalg
    assert "x1x32" not in linalg  # the wrong pairing's assumed size-1 dim


def test_a_failing_check_raises_and_the_caller_lives():
    examples = (torch.randn(3, 4), torch.randn(3, 4))
    dims = {0: torch.export.Dim("batch", min=2, max=64)}
    compiled = jit.compile_module(_dynamic(Add(), *examples, dims=dims))
    with pytest.raises(jit.RuntimeCheckError, match=r"input b \(%arg1\) dim 0 must be a.shape\[0\]"):
        compiled("main", torch.randn(5, 4), torch.randn(6, 4))  # export's own check, at the entry
    (out,) = compiled("main", torch.ones(5, 4), torch.ones(5, 4))  # and it still runs
    torch.testing.assert_close(out, torch.full((5, 4), 2.0))
    unguarded = torch_refine.export_and_import(Add(), *examples, dynamic_shapes=(dims, dims), runtime_asserts=False)
    with pytest.raises(jit.RuntimeCheckError, match="mismatched size for broadcast") as caught:
        jit.compile_module(unguarded)("main", torch.randn(5, 4), torch.randn(6, 4))  # the lowering's check
    assert "test_jit_safety.py" in caught.value.check  # where it is


@pytest.mark.parametrize(("argument", "error", "message"), [
    (torch.randn(5, 8), ValueError, r"argument 0 has shape \[3, 8\], given a tensor of shape \[5, 8\]"),
    (torch.randn(3, 8, 1), ValueError, r"has shape \[3, 8\]"),
    (torch.randn(3, 8, dtype=torch.float64), TypeError, r"is tensor<3x8xf32>, given a tensor of torch.float64"),
    ([1.0] * 8, TypeError, "must be a torch.Tensor"),
])
def test_arguments_are_checked_against_the_signature(argument, error, message):
    model = torch.nn.Sequential(torch.nn.Linear(8, 4), torch.nn.ReLU())
    compiled = jit.compile_module(torch_refine.export_and_import(model, torch.randn(3, 8)))
    with pytest.raises(error, match=message):
        compiled("main", argument)


def test_in_process_calls_remain_available():
    model = torch.nn.Sequential(torch.nn.Linear(8, 4), torch.nn.ReLU())
    x = torch.randn(3, 8)
    compiled = jit.compile_module(torch_refine.export_and_import(model, x), isolate=False)
    (out,) = compiled("main", x)
    torch.testing.assert_close(out, model(x).detach())


def test_a_call_without_the_function_name_says_how_to_call():
    model = torch.nn.Sequential(torch.nn.Linear(8, 4), torch.nn.ReLU())
    x = torch.randn(3, 8)
    compiled = jit.compile_module(torch_refine.export_and_import(model, x))
    with pytest.raises(TypeError, match=r"the function's name first.*functions: 'main'.*not with a Tensor"):
        compiled(x)
