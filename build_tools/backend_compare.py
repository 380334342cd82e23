"""Compare two flows from raw `torch.export` IR to torch-mlir's backends, on the corpus
models, static and dynamic batch, in one run:

- torch-refine: `torch-refine-backend-pipeline{backend=B}` (our refinement, torch-mlir's
  decompositions and simplifications, then its backend pipeline);
- torch-mlir: `torch-lower-to-backend-contract` (its own refinement and decompositions),
  then `torch-backend-to-B-backend-pipeline`.

    .venv/bin/python build_tools/backend_compare.py [--models bert,gpt2] [--backends tosa]
        [--refine-options decomposition=torch-refine-decompose]

Each lowering runs in its own process (a crash or hang costs one cell) and is timed
without the parse; raw IR is exported once into --cache. Prints a Markdown table: seconds
per cell, or the first error line for a failure.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "test" / "python"))
sys.path.insert(0, str(ROOT / "python"))

BACKENDS = ("linalg-on-tensors", "tosa", "stablehlo")
FLOWS = ("torch-refine", "torch-mlir")


def lower(flow: str, backend: str, path: str, refine_options: str = "") -> dict:
    """Lower one file in this process; returns {ok, seconds, error}."""
    import warnings

    from torch_mlir import ir
    from torch_mlir.passmanager import PassManager

    from torch_refine.driver import pipeline_syntax
    from torch_refine.driver.passmanager import PassManager as RefinePassManager
    from torch_refine.ir.context import create_context

    warnings.simplefilter("ignore")
    with create_context() as context:
        module = ir.Module.parse(Path(path).read_text())
        if flow == "torch-refine":
            pipeline = pipeline_syntax.parse(
                f"builtin.module(torch-refine-backend-pipeline{{backend={backend} {refine_options}}})"
            )
            pass_manager = RefinePassManager(context)
            pass_manager.add_pipeline(pipeline)
        else:
            pass_manager = PassManager.parse(
                f"builtin.module(torch-lower-to-backend-contract,torch-backend-to-{backend}-backend-pipeline)"
            )
        start = time.perf_counter()
        try:
            pass_manager.run(module.operation)
        except ir.MLIRError as error:
            messages = [d.message for d in error.error_diagnostics] or [str(error)]
            return {"ok": False, "seconds": time.perf_counter() - start,
                    "error": messages[0].splitlines()[0]}
        return {"ok": True, "seconds": time.perf_counter() - start, "error": ""}


def export_raw(name: str, dynamic: bool, cache: Path) -> Path:
    from models.export_cache import exported_ir, variant_name

    exported_ir(name, dynamic, cache, output_type="raw")
    return cache / f"{name}-{variant_name(dynamic)}.raw.mlir"


def run_cell(flow: str, backend: str, path: Path, timeout: float, refine_options: str) -> dict:
    command = [sys.executable, __file__, "--one", flow, backend, str(path), "--refine-options", refine_options]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"ok": False, "seconds": timeout, "error": f"timed out after {timeout:.0f} s"}
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        return {"ok": False, "seconds": 0.0, "error": f"crashed (rc {done.returncode}): {last}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def cell(result: dict) -> str:
    if result["ok"]:
        return f"{result['seconds']:.1f} s"
    return f"FAIL ({result['error'][:80]})".replace("|", "\\|")


def main(argv: list[str]) -> int:
    from models.corpus import MODELS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=",".join(case.name for case in MODELS))
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--cache", type=Path, default=Path("/tmp/torch-refine-backend-compare"))
    parser.add_argument("--timeout", type=float, default=900.0)
    parser.add_argument("--refine-options", default="",
                        help="more options of torch-refine-backend-pipeline (decomposition=...)")
    parser.add_argument("--one", nargs=3, metavar=("FLOW", "BACKEND", "FILE"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(lower(*args.one, args.refine_options)))
        return 0

    args.cache.mkdir(parents=True, exist_ok=True)
    backends = args.backends.split(",")
    header = ["model", "variant"] + [f"{flow} → {b}" for b in backends for flow in FLOWS]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    totals = {(flow, b): 0 for b in backends for flow in FLOWS}
    rows = 0
    for name in args.models.split(","):
        for dynamic in (False, True):
            path = export_raw(name, dynamic, args.cache)
            cells = []
            for backend in backends:
                for flow in FLOWS:
                    result = run_cell(flow, backend, path, args.timeout, args.refine_options)
                    totals[(flow, backend)] += result["ok"]
                    cells.append(cell(result))
            rows += 1
            variant = "dynamic" if dynamic else "static"
            print(f"| {name} | {variant} | " + " | ".join(cells) + " |", flush=True)
    print("| **passed** | | " + " | ".join(f"{totals[key]}/{rows}" for key in totals) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
