"""The ONNX flow end to end (issue 27): a PyTorch module exported to ONNX (the legacy
exporter, a dynamic batch), imported by torch-mlir's ONNX importer, converted by
`convert-torch-onnx-to-torch`, refined (the sizes the program computes in small int
tensors give exact types, and the reads of them fold to sizes of the input), lowered by
`torch-refine-backend-pipeline{backend=linalg-on-tensors}` and run by the JIT at another
batch, against onnxruntime.
"""

from __future__ import annotations

import pytest
import torch

onnx = pytest.importorskip("onnx")
onnxruntime = pytest.importorskip("onnxruntime")


class ReshapeHeads(torch.nn.Module):
    """`view(b, 16, 4, 8)` of a linear's output: the legacy exporter computes `b` with
    Shape, Gather and Concat, and ONNX Reshape's sizes go through int tensors."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(32, 32)

    def forward(self, x):
        y = self.linear(x)
        return y.reshape(y.size(0), 16, 4, 8).mean(dim=2) + 1


class FlattenMlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.first = torch.nn.Linear(12, 16)
        self.second = torch.nn.Linear(16, 4)

    def forward(self, x):
        return self.second(torch.relu(self.first(x.flatten(1))))


CASES = [
    (ReshapeHeads, (2, 16, 32), "torch.aten.reshape", "[?,16,4,8]"),
    (FlattenMlp, (2, 3, 4), "torch.prims.collapse", "[?,12]"),
]


def _import(model: torch.nn.Module, example: torch.Tensor, path) -> str:
    """ONNX file -> torch-mlir's importer -> convert-torch-onnx-to-torch, as text."""
    from torch_mlir import ir
    from torch_mlir.extras import onnx_importer
    from torch_mlir.passmanager import PassManager

    from torch_refine.ir.context import create_context

    torch.onnx.export(model, (example,), path, dynamo=False, input_names=["x"],
                      dynamic_axes={"x": {0: "batch"}})
    proto = onnx.shape_inference.infer_shapes(onnx.load(path))
    with create_context() as context:
        info = onnx_importer.ModelInfo(proto)
        module = info.create_module(context=context)
        onnx_importer.NodeImporter.define_function(info.main_graph, module.operation).import_all()
        PassManager.parse("builtin.module(func.func(convert-torch-onnx-to-torch))").run(module.operation)
        assert isinstance(module, ir.Module)
        return module.operation.get_asm()


def _result_type(module, op_name: str) -> str:
    from torch_mlir import ir

    found = []

    def visit(op):
        if op.name == op_name:
            found.append(str(op.results[0].type))
        return ir.WalkResult.ADVANCE

    with module.context:
        module.operation.walk(visit)
    return found[0]


@pytest.mark.parametrize(("model_class", "shape", "op_name", "sizes"), CASES,
                         ids=[case[0].__name__ for case in CASES])
def test_onnx_model_refines_and_runs_like_onnxruntime(tmp_path, model_class, shape, op_name, sizes):
    import torch_refine
    from torch_refine import jit

    torch.manual_seed(0)
    model = model_class().eval()
    text = _import(model, torch.randn(*shape), tmp_path / "model.onnx")
    refined = torch_refine.refine(text)
    assert sizes in _result_type(refined.module, op_name)

    assert "torch.aten.item" not in str(refined.module)  # folded: no tensor read is left

    batch = torch.randn(5, *shape[1:])
    session = onnxruntime.InferenceSession(str(tmp_path / "model.onnx"))
    (expected,) = session.run(None, {"x": batch.numpy()})
    (got,) = jit.compile_linalg(_to_linalg(refined.module))("main_graph", batch)
    torch.testing.assert_close(got, torch.from_numpy(expected), rtol=1e-5, atol=1e-5)


def _to_linalg(module):
    from torch_refine.driver import pipeline_syntax
    from torch_refine.driver.passmanager import PassManager

    pass_manager = PassManager(module.context)
    pass_manager.add_pipeline(
        pipeline_syntax.parse("builtin.module(torch-refine-backend-pipeline{backend=linalg-on-tensors})"))
    pass_manager.run(module.operation)
    return module


class GatedNorm(torch.nn.Module):
    """Two inputs, each with its own dynamic batch, multiplied (PyTorch broadcasts a batch
    of 1 against the other), then reshaped by the product's batch (Shape, Gather, Concat
    and ONNX Reshape's `where(s == 0, dim, s)` in int tensors)."""

    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(16, 16)
        self.norm = torch.nn.LayerNorm(16)

    def forward(self, x, gate):
        h = self.norm(self.proj(x) * torch.sigmoid(gate) + x)
        return h.reshape(h.shape[0], -1, 4, 4).sum(-1)


@pytest.mark.parametrize(("x_batch", "gate_batch"), [(1, 3), (3, 1), (3, 3)])
def test_unrelated_batches_broadcast_as_pytorch_does(tmp_path, x_batch, gate_batch):
    """Issue 41, item 5: the IR relates neither batch to the other, so refinement keeps
    PyTorch's check (`a == b or a == 1 or b == 1`) and the product's batch as a select: the
    refined program runs where PyTorch broadcasts (every type holding), and only a batch
    PyTorch rejects fails, at an assert naming the op."""
    from torch_mlir import ir
    from torch_mlir.extras import onnx_importer
    from torch_mlir.passmanager import PassManager

    import torch_refine
    from torch_refine.executor import execute
    from torch_refine.ir.context import create_context

    torch.manual_seed(0)
    model = GatedNorm().eval()
    path = tmp_path / "model.onnx"
    torch.onnx.export(model, (torch.randn(2, 6, 16), torch.randn(2, 6, 16)), path, dynamo=False,
                      input_names=["x", "gate"],
                      dynamic_axes={"x": {0: "b1", 1: "s1"}, "gate": {0: "b2", 1: "s2"}})
    with create_context() as context:
        info = onnx_importer.ModelInfo(onnx.shape_inference.infer_shapes(onnx.load(path)))
        module = info.create_module(context=context)
        onnx_importer.NodeImporter.define_function(info.main_graph, module.operation).import_all()
        PassManager.parse("builtin.module(func.func(convert-torch-onnx-to-torch))").run(module.operation)
        assert isinstance(module, ir.Module)
        text = module.operation.get_asm()
    refined = torch_refine.refine(text).module
    assert "torch.aten.item" not in str(refined)  # the reshape's batch is the select, built from sizes

    x, gate = torch.randn(x_batch, 6, 16), torch.randn(gate_batch, 6, 16)
    got = execute(refined, x, gate, function="main_graph", check_types=True)
    torch.testing.assert_close(got, model(x, gate), rtol=1e-5, atol=1e-5)
    with pytest.raises(Exception, match=r"torch.runtime.assert failed at .*aten.mul.Tensor"):
        execute(refined, torch.randn(2, 6, 16), torch.randn(3, 6, 16), function="main_graph")
