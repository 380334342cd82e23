"""`make run`: refine a Torch-dialect module and report how precise its tensor types are.

    python -m torch_refine.tools.run [INPUT.mlir | --example-ir] [-o OUT]

Without INPUT, the main job runs through the Python API: a real model (transformers'
LlamaModel at a tiny config, dynamic batch) is exported and imported into the Torch
dialect, its intermediate tensor types are erased, refined back by `torch-refine-pipeline`
and compared with the imported ones; then the refined program is executed op by op on two
batch sizes, every tensor checked against its refined type and the outputs against the
eager model, and once more on torch-mlir's linalg-on-tensors backend, JIT-compiled to
machine code. `--example-ir` does the refinement part on the bundled IR of that model
without PyTorch. With INPUT, the file is refined as given and its tensor values are counted
(no truth to compare against); that path never imports torch. The refined IR goes to
out/refined.mlir unless -o says otherwise.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import warnings
from collections.abc import Sequence
from importlib import metadata, resources
from pathlib import Path

from torch_mlir import ir

import torch_refine
from torch_refine import jit, report
from torch_refine.ir.context import create_context
from torch_refine.ir.erase import erase_tensor_types
from torch_refine.ir.parsing import format_error, parse_source

PIPELINE = "torch-refine-pipeline"
EXAMPLE = "llama.mlir"
DEFAULT_OUTPUT = Path("out") / "refined.mlir"
MODEL_PACKAGES = ("torch", "transformers")  # what the main job imports beyond torch-mlir


def parse(text: str, source_name: str):
    """The module, with locations naming the file (shown in the report's rows), parsed as
    torch-refine-opt does: bare top-level ops get mlir-opt's implicit module."""
    return parse_source(text, source_name)


def refine(module) -> tuple[torch_refine.Refined, float]:
    """`torch_refine.refine` on the module, in place; the result and the seconds it took."""
    start = time.perf_counter()
    refined = torch_refine.refine(module)
    return refined, time.perf_counter() - start


def run_example(output: Path) -> None:
    text = (resources.files("torch_refine") / "examples" / EXAMPLE).read_text()
    with create_context():
        truth = parse(text, EXAMPLE)
        module = parse(text, EXAMPLE)
        erase_tensor_types(module.operation)
        erased = report.count_module(module.operation)
        _, seconds = refine(module)
        result = report.compare_modules(module.operation, truth.operation)
        output.write_text(str(module))
    print(f"bundled example {EXAMPLE}: a tiny Llama (transformers), dynamic batch")
    print(f"erased {erased.unknown} of {erased.values} tensor types, then ran {PIPELINE}")
    _print_result(result, seconds, output)


def run_model(output: Path) -> None:
    """The main job, through the Python API: export a real model, erase its types, refine,
    execute the refined program and check every refined type against the tensors it makes."""
    import torch

    from torch_refine.examples import tiny_llama

    model, example = tiny_llama.build()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # torch.export's own deprecations
        imported = torch_refine.export_and_import(
            model, *example, dynamic_shapes=tiny_llama.dynamic_shapes(), refine=False
        )
    module = imported.module
    with module.context:
        truth = parse(str(module), "tiny_llama")
        module = parse(str(module), "tiny_llama")
        erase_tensor_types(module.operation)
        refined, seconds = refine(module)
        result = report.compare_modules(module.operation, truth.operation)
        refined_text = str(module)
        output.write_text(refined_text)
        compiled = jit.compile_module(refined)
        for batch in (tiny_llama.BATCH, 5):
            inputs = tiny_llama.inputs(batch)
            with torch.no_grad():
                eager = model(*inputs)
            ours = torch_refine.execute(refined_text, *inputs, check_types=True)
            error = _max_error(ours if isinstance(ours, tuple) else (ours,), eager)
            print(f"batch {batch}: executed the refined IR op by op; every tensor matches its "
                  f"refined type; max |refined - eager| = {error:.1e}")
            jit_error = _max_error(compiled("main", *inputs), eager)
            print(f"batch {batch}: ran it on the linalg-on-tensors backend (LLVM JIT); "
                  f"max |jit - eager| = {jit_error:.1e}")
            assert max(error, jit_error) < 1e-4, "the refined program computes something else"
    print("model: transformers.LlamaModel (tiny config, random weights), dynamic batch")
    print(f"erased every intermediate tensor type, then ran {PIPELINE}")
    _print_result(result, seconds, output)


def _what_to_install(package: str) -> str:
    """The one line for a missing package of the main job: the requirement torch-refine
    declares for it, and the jobs that need neither."""
    try:
        declared = [r.split(";")[0].replace(" ", "") for r in metadata.requires("torch-refine") or ()]
    except metadata.PackageNotFoundError:  # a source tree, not installed
        declared = []
    requirement = next((r for r in declared if re.match(rf"{package}\b", r)), package)
    return (
        f"error: the main job builds transformers' LlamaModel and needs {package}, which is not "
        f"installed: pip install '{requirement}' (or torch-refine's test extra: "
        "pip install 'torch-refine[test]'); without it, refine a file "
        "(python -m torch_refine.tools.run model.mlir) or the bundled IR (--example-ir)"
    )


def _max_error(ours, eager) -> float:
    return max((a - b).abs().max().item() for a, b in zip(ours, eager, strict=True))


class InputError(Exception):
    """The input file cannot be read or parsed; the message is the diagnostic to print."""


def run_file(path: Path, output: Path) -> None:
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read input file '{path}': {getattr(error, 'strerror', None) or error}") from None
    with create_context():
        try:
            module = parse(text, str(path))
        except ir.MLIRError as error:
            raise InputError(format_error(error, text, str(path)).rstrip()) from None
        before = report.count_module(module.operation)
        refined, seconds = refine(module)
        result = refined.report
        output.write_text(str(module))
    print(f"{path}: ran {PIPELINE}")
    print(
        f"before: {before.exact} exact, {before.partial} partial, {before.unknown} unknown "
        f"of {before.values} tensor values"
    )
    _print_result(result, seconds, output)


def _print_result(result: report.TypeReport, seconds: float, output: Path) -> None:
    print(result.format_table())
    print(f"time: {seconds:.2f} s ({1e6 * seconds / max(result.op_count, 1):.0f} us/op)")
    print(f"refined IR written to {output}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m torch_refine.tools.run", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input", nargs="?", type=Path, help="a Torch-dialect .mlir file")
    parser.add_argument("--example-ir", action="store_true",
                        help="refine the bundled example IR instead (no torch needed)")
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT_OUTPUT,
                        help=f"where to write the refined IR (default: {DEFAULT_OUTPUT})")
    args = parser.parse_args(argv)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    try:
        if args.input is not None:
            run_file(args.input, args.output)
        elif args.example_ir:
            run_example(args.output)
        else:
            run_model(args.output)
    except InputError as error:
        print(error, file=sys.stderr)
        return 1
    except ModuleNotFoundError as error:
        if error.name not in MODEL_PACKAGES:
            raise
        print(_what_to_install(error.name), file=sys.stderr)
        return 1
    except (ir.MLIRError, torch_refine.RefinementError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
