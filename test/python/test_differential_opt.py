"""torch-refine-opt against torch-mlir-opt: byte-identical output for the same C++ pipeline.

The inputs are small models exported to Torch-dialect IR at test time (importing torch is
fine here, not in the driver), each as exported and with its intermediate tensor types
erased to `!torch.vtensor`.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from torch_refine.tools.opt import main

TORCH_MLIR_OPT = shutil.which("torch-mlir-opt", path=str(Path(sys.executable).parent))

PIPELINES = [
    "builtin.module(canonicalize)",
    "builtin.module(cse)",
    "builtin.module(func.func(canonicalize,cse))",
    "builtin.module(torch-shape-refinement-pipeline)",
    "builtin.module(symbol-dce)",
]
VARIANTS = ["mlp", "mlp-erased", "mlp-dynamic", "mlp-dynamic-erased", "convnet", "convnet-erased"]
PRINT_FLAGS = {"plain": [], "debuginfo": ["--mlir-print-debuginfo"]}

pytestmark = pytest.mark.skipif(TORCH_MLIR_OPT is None, reason="torch-mlir-opt is not installed")


def _models():
    import torch

    class MLP(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.hidden = torch.nn.Linear(8, 16)
            self.out = torch.nn.Linear(16, 4)

        def forward(self, x):
            return torch.softmax(self.out(torch.relu(self.hidden(x))), dim=-1)

    class ConvNet(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = torch.nn.Conv2d(3, 4, kernel_size=3, padding=1)
            self.norm = torch.nn.BatchNorm2d(4)
            self.head = torch.nn.Linear(4 * 4 * 4, 10)

        def forward(self, x):
            y = torch.max_pool2d(torch.relu(self.norm(self.conv(x))), 2)
            return self.head(torch.flatten(y, 1))

    batch = torch.export.Dim("batch", min=2, max=64)
    return {
        "mlp": (MLP(), torch.randn(2, 8), None),
        "mlp-dynamic": (MLP(), torch.randn(2, 8), {"x": {0: batch}}),
        "convnet": (ConvNet(), torch.randn(2, 3, 8, 8), None),
    }


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> dict[str, Path]:
    """Each model as exported and erased, written with debug info."""
    import torch
    from torch_mlir import fx, ir

    from torch_refine.ir.context import create_context
    from torch_refine.ir.erase import erase_tensor_types

    directory = tmp_path_factory.mktemp("differential")
    paths = {}
    torch.manual_seed(0)
    for name, (model, example, dynamic_shapes) in _models().items():
        exported = fx.export_and_import(
            model.eval(), example, output_type="torch", dynamic_shapes=dynamic_shapes
        )
        text = exported.operation.get_asm(enable_debug_info=True)
        paths[name] = directory / f"{name}.mlir"
        paths[name].write_text(text)
        with create_context():
            module = ir.Module.parse(text)
            erase_tensor_types(module.operation)
            module.operation.verify()
            paths[f"{name}-erased"] = directory / f"{name}-erased.mlir"
            paths[f"{name}-erased"].write_text(module.operation.get_asm(enable_debug_info=True))
    return paths



@pytest.mark.parametrize("print_flags", PRINT_FLAGS.values(), ids=PRINT_FLAGS.keys())
@pytest.mark.parametrize("pipeline", PIPELINES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_same_output_as_torch_mlir_opt(inputs, tmp_path, variant, pipeline, print_flags):
    source = inputs[variant]
    argv = [str(source), f"--pass-pipeline={pipeline}", *print_flags]
    theirs = subprocess.run([TORCH_MLIR_OPT, *argv], capture_output=True, check=False)
    assert theirs.returncode == 0, theirs.stderr.decode()
    ours_path = tmp_path / "ours.mlir"
    assert main([*argv, "-o", str(ours_path)]) == 0
    assert ours_path.read_bytes() == theirs.stdout
