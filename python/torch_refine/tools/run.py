"""`make run`: refine a Torch-dialect module and report how precise its tensor types are.

    python -m torch_refine.tools.run [INPUT.mlir] [-o OUT]

Without INPUT, refines the bundled example (a tiny Llama with a dynamic batch, as
torch-mlir's FX importer emits it): its intermediate tensor types are erased, refined back
by `torch-refine-pipeline`, and compared with the imported ones. With INPUT, the file is
refined as given and its tensor values are counted (no truth to compare against). The
refined IR goes to out/refined.mlir unless -o says otherwise. Never imports torch.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from torch_mlir import ir

from torch_refine import passes, report
from torch_refine.context import create_context
from torch_refine.erase import erase_tensor_types

PIPELINE = "torch-refine-pipeline"
EXAMPLE = "llama.mlir"
DEFAULT_OUTPUT = Path("out") / "refined.mlir"


def parse(text: str, source_name: str) -> ir.Operation:
    """The builtin.module, with locations naming the file (shown in the report's rows)."""
    return ir.Operation.parse(text, source_name=source_name).operation


def refine(module: ir.Operation) -> float:
    """Runs the pipeline on the module; the seconds it took."""
    start = time.perf_counter()
    passes.get(PIPELINE)().run(module)
    seconds = time.perf_counter() - start
    module.verify()
    return seconds


def run_example(output: Path) -> None:
    text = (resources.files("torch_refine") / "examples" / EXAMPLE).read_text()
    with create_context():
        truth = parse(text, EXAMPLE)
        module = parse(text, EXAMPLE)
        erase_tensor_types(module)
        erased = report.count_module(module)
        seconds = refine(module)
        result = report.compare_modules(module, truth)
        output.write_text(str(module))
    print(f"bundled example {EXAMPLE}: a tiny Llama (transformers), dynamic batch")
    print(f"erased {erased.unknown} of {erased.values} tensor types, then ran {PIPELINE}")
    _print_result(result, seconds, output)


def run_file(path: Path, output: Path) -> None:
    with create_context():
        module = parse(path.read_text(), str(path))
        before = report.count_module(module)
        seconds = refine(module)
        result = report.count_module(module)
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
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT_OUTPUT,
                        help=f"where to write the refined IR (default: {DEFAULT_OUTPUT})")
    args = parser.parse_args(argv)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    try:
        if args.input is None:
            run_example(args.output)
        else:
            run_file(args.input, args.output)
    except (ir.MLIRError, passes.PassFailure) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
