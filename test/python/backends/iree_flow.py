"""IREE as a consumer of torch-refine's outputs and of torch-mlir's (docs/backends.md, "IREE").

For a corpus model at one dynamism (static, dynamic batch, dynamic batch and sequence or
image size), one `torch.export` feeds every flow:

- `torch-mlir`: torch-mlir's own output, `torch_mlir.fx.export_and_import(program)` with
  its defaults (raw IR, its decompositions, no symbolic shapes);
- `api-raw`, `api-torch`: `torch_refine.export_and_import(program, output_type=...)`;
- `driver`: `torch-refine-opt --torch-refine-pipeline` on torch-mlir's output above (no
  symbolic bindings; the driver's public results stay as they are);
- with `ONNX_FLOWS` asked for, the model exported to ONNX (the legacy exporter, the same
  dims dynamic), imported by torch-mlir's ONNX importer and converted by
  `convert-torch-onnx-to-torch`: `onnx-converted` as converted (IREE's torch input refines
  it with torch-mlir's passes), `onnx-ours` refined by `torch_refine.refine`.

Each output is compiled by `iree-compile --iree-input-type=torch` for the local CPU and run
with `iree.runtime` at the example's sizes and, for a dynamic variant, at another batch
(and sequence or image size), against eager PyTorch. Used by `test_iree.py` (`make iree`)
and `build_tools/iree_table.py` (the table in docs/backends.md).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import torch

BIN = Path(sys.executable).parent
IREE_COMPILE = shutil.which("iree-compile", path=str(BIN)) or shutil.which("iree-compile")
TORCH_REFINE_OPT = shutil.which("torch-refine-opt", path=str(BIN)) or "torch-refine-opt"
COMPILE_FLAGS = (
    "--iree-input-type=torch",
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=host",
)
MODELS = ("bert", "llama", "gpt2", "vit", "resnet", "t5_encoder", "convnext", "lstm",
          "transformer_encoder_layer", "multihead_attention")
DYNAMISMS = ("static", "batch", "batch+extent")
FLOWS = ("torch-mlir", "api-raw", "api-torch", "driver")
ONNX_FLOWS = ("onnx-converted", "onnx-ours")
OURS = ("api-raw", "api-torch", "driver", "onnx-ours")
THEIRS = {"api-raw": "torch-mlir", "api-torch": "torch-mlir", "driver": "torch-mlir", "onnx-ours": "onnx-converted"}
# A dynamic variant also runs at this batch, and sequence length or image size.
OTHER_BATCH, OTHER_TEXT_EXTENT, OTHER_IMAGE_EXTENT = 3, 5, 24
TIMED_RUNS = 5
COMPILE_TIMEOUT = 600


@dataclass
class Outcome:
    model: str
    dynamism: str
    flow: str
    produced: bool = True  # the flow gave IR (export, import and refinement succeeded)
    compiled: bool = False
    matches: bool = False  # ran at every size and matched eager PyTorch
    error: str = ""
    compile_seconds: float | None = None
    run_ms: float | None = None  # the best of TIMED_RUNS calls at the example's sizes

    @property
    def cell(self) -> str:
        if not self.produced:
            return f"no IR ({self.error})"
        if not self.compiled:
            return f"compile fails ({self.error})"
        if not self.matches:
            return f"runs wrong ({self.error})"
        return f"{self.run_ms:.2f} ms"


def variants() -> list[tuple[str, str]]:
    """(model, dynamism) for every model and every dynamism it has a dim for."""
    from models.corpus3 import BY_NAME

    return [(name, dynamism) for name in MODELS for dynamism in DYNAMISMS
            if dynamism != "batch+extent" or BY_NAME[name].extent_dims]


def measure(name: str, dynamism: str, flows=FLOWS) -> list[Outcome]:
    """Every flow of one variant: its output compiled by IREE and run against eager."""
    from models.corpus3 import BY_NAME

    case = BY_NAME[name]
    model, inputs = case.make()
    shapes = None if dynamism == "static" else case.dynamic_shapes(dynamism == "batch+extent")
    with torch.no_grad():
        program = torch.export.export(model, inputs, dynamic_shapes=shapes)
    runs = [inputs] + ([] if dynamism == "static" else [_other_sizes(case, inputs, dynamism)])
    with torch.no_grad():
        expected = [_tensors(model(*sized)) for sized in runs]
    outcomes = []
    with tempfile.TemporaryDirectory(prefix=f"iree-{name}-") as scratch:
        texts = _sources(program, Path(scratch), flows)
        if set(flows) & set(ONNX_FLOWS):
            texts.update(_onnx_sources(case, model, inputs, dynamism, Path(scratch)))
        for flow in flows:
            outcome = Outcome(name, dynamism, flow)
            text = texts[flow]
            if isinstance(text, BaseException):
                outcome.produced, outcome.error = False, _first_line(text)
            else:
                function = "main_graph" if flow in ONNX_FLOWS else "main"
                _compile_and_run(text, Path(scratch) / flow, function, runs, expected, outcome)
            outcomes.append(outcome)
    return outcomes


def _other_sizes(case, inputs: tuple, dynamism: str) -> tuple:
    from models.measure import resized

    extent = None
    if dynamism == "batch+extent":
        extent = OTHER_IMAGE_EXTENT if case.extent_step != 1 else OTHER_TEXT_EXTENT
    return resized(case, inputs, OTHER_BATCH, extent)


def _tensors(out) -> list[torch.Tensor]:
    if isinstance(out, torch.Tensor):
        return [out]
    return [t for t in out if isinstance(t, torch.Tensor)]


def _sources(program, scratch: Path, flows) -> dict:
    """Each flow's Torch-dialect text, or the exception that stopped it."""
    from torch_mlir import fx

    import torch_refine

    producers = {
        "torch-mlir": lambda: str(fx.export_and_import(program)),
        "api-raw": lambda: str(torch_refine.export_and_import(program, output_type="raw")),
        "api-torch": lambda: str(torch_refine.export_and_import(program, output_type="torch")),
    }
    texts = {flow: _attempt(produce) for flow, produce in producers.items()
             if flow in flows or (flow == "torch-mlir" and "driver" in flows)}
    if "driver" in flows:
        torch_mlir_text = texts["torch-mlir"]
        texts["driver"] = torch_mlir_text if isinstance(torch_mlir_text, BaseException) else \
            _attempt(lambda: _driver(torch_mlir_text, scratch))
    return texts


def _onnx_sources(case, model, inputs: tuple, dynamism: str, scratch: Path) -> dict:
    """`onnx-converted` and `onnx-ours` (or the exception that stopped the export or import)."""
    import torch_refine

    converted = _attempt(lambda: _onnx_converted(case, model, inputs, dynamism, scratch / "model.onnx"))
    if isinstance(converted, BaseException):
        return dict.fromkeys(ONNX_FLOWS, converted)
    return {"onnx-converted": converted, "onnx-ours": _attempt(lambda: str(torch_refine.refine(converted)))}


def _onnx_converted(case, model, inputs: tuple, dynamism: str, path: Path) -> str:
    import onnx
    from torch_mlir.extras import onnx_importer
    from torch_mlir.passmanager import PassManager as TorchMlirPassManager

    from torch_refine.ir.context import create_context

    names = [f"input{index}" for index in range(len(inputs))]
    axes = {}
    extents = case.extent_dims or ((),) * len(inputs)
    for input_name, batch_dims, extent_dims in zip(names, case.batch_dims, extents, strict=True):
        if dynamism != "static":
            axes[input_name] = {dim: "batch" for dim in batch_dims}
        if dynamism == "batch+extent":
            axes[input_name].update({dim: "extent" for dim in extent_dims})
    with torch.no_grad():
        torch.onnx.export(model, inputs, str(path), dynamo=False, input_names=names, dynamic_axes=axes or None)
    proto = onnx.shape_inference.infer_shapes(onnx.load(str(path)))
    with create_context() as context:
        info = onnx_importer.ModelInfo(proto)
        module = info.create_module(context=context)
        onnx_importer.NodeImporter.define_function(info.main_graph, module.operation).import_all()
        TorchMlirPassManager.parse("builtin.module(func.func(convert-torch-onnx-to-torch))").run(module.operation)
        return module.operation.get_asm()


def _attempt(produce):
    try:
        return produce()
    except Exception as error:
        return error


def _driver(text: str, scratch: Path) -> str:
    source, refined = scratch / "torch-mlir.mlir", scratch / "driver.mlir"
    source.write_text(text)
    done = subprocess.run([TORCH_REFINE_OPT, "--torch-refine-pipeline", str(source), "-o", str(refined)],
                          capture_output=True, text=True, timeout=COMPILE_TIMEOUT, check=False)
    if done.returncode != 0:
        raise RuntimeError(_first_error(done.stderr))
    return refined.read_text()


def _compile_and_run(text: str, stem: Path, function_name: str, runs: list, expected: list,
                     outcome: Outcome) -> None:
    source, binary = stem.with_suffix(".mlir"), stem.with_suffix(".vmfb")
    source.write_text(text)
    start = time.perf_counter()
    done = subprocess.run([IREE_COMPILE, str(source), *COMPILE_FLAGS, "-o", str(binary)],
                          capture_output=True, text=True, timeout=COMPILE_TIMEOUT, check=False)
    outcome.compile_seconds = time.perf_counter() - start
    if done.returncode != 0:
        outcome.error = _first_error(done.stderr)
        return
    outcome.compiled = True
    try:
        function = _load(binary, function_name)
        for sized, truth in zip(runs, expected, strict=True):
            _check(_call(function, sized), truth)
        outcome.run_ms = _best_time(function, runs[0])
    except Exception as error:
        outcome.error = _first_line(error)
        return
    outcome.matches = True


def _load(binary: Path, function_name: str):
    import iree.runtime as ireert

    config = ireert.Config("local-task")
    context = ireert.SystemContext(config=config)
    context.add_vm_module(ireert.VmModule.copy_buffer(config.vm_instance, binary.read_bytes()))
    return context.modules.module[function_name]


def _call(function, inputs: tuple) -> list[torch.Tensor]:
    results = function(*(t.numpy() for t in inputs))
    results = results if isinstance(results, tuple | list) else [results]
    return [torch.from_numpy(result.to_host().copy()) for result in results]


def _check(got: list[torch.Tensor], expected: list[torch.Tensor]) -> None:
    if len(got) != len(expected):
        raise AssertionError(f"{len(got)} results, eager has {len(expected)}")
    for index, (ours, truth) in enumerate(zip(got, expected, strict=True)):
        if ours.shape != truth.shape:
            raise AssertionError(f"result {index} has shape {list(ours.shape)}, eager {list(truth.shape)}")
        torch.testing.assert_close(ours.to(truth.dtype), truth, rtol=1e-3, atol=1e-4)


def _best_time(function, inputs: tuple) -> float:
    arrays = [t.numpy() for t in inputs]
    best = float("inf")
    for _ in range(TIMED_RUNS):
        start = time.perf_counter()
        results = function(*arrays)
        for result in results if isinstance(results, tuple | list) else [results]:
            result.to_host()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def _first_error(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if "error:" in line]
    return (lines[0] if lines else stderr.strip()[-300:]).split("error:", 1)[-1].strip()[:200]


def _first_line(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0][:200]
