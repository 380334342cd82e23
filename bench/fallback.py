"""The meta fallback's cost per op (library/meta_fallback.py): refinement of single-op
programs whose op has no library function, so PyTorch's meta kernel types it.

Every op of the fallback corpus (test/python/robustness/fallback_corpus.py: ops without
library functions, as test_fallback_corpus.py checks), on its first template, static and
with every dim dynamic, is refined in one process (`api.refine`, the default pipeline):

- `first`: the first refinement of that op and signature in the process: the fallback runs
  PyTorch's kernel on fake tensors (and again at each case a guard is proved on);
- `cached`: the same program refined again, from a fresh parse: the answer comes from the
  fallback's cache;
- `library`: a program of one library-served op (`aten.tanh`) of the same operand, the
  pipeline's own cost around one op, for comparison.

Before the first op, `torch_import_s` is what importing torch and its fake-tensor and
symbolic-shape modules costs the first op of a process that never needed torch (once per
process; torch-refine-opt does not import torch otherwise). Each timing is the median of
`--runs` runs (first calls: each run in a fresh answer cache).

Usage: .venv/bin/python bench/fallback.py [--runs N] [--only OP,OP] [--update-readme]
Results: bench/results/fallback.json and fallback.md; `--update-readme` writes the table
between `<!-- fallback:begin -->` and `<!-- fallback:end -->` in bench/README.md.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "test" / "python"))

RESULTS = ROOT / "bench" / "results"
README = ROOT / "bench" / "README.md"
BEGIN_MARKER = "<!-- fallback:begin -->"
END_MARKER = "<!-- fallback:end -->"
LIBRARY_OP = "aten.tanh"


def _dynamic(tensor, value_semantics: bool) -> str:
    from torch_refine.library.testing import tensor_type

    static = tensor_type(tensor, value_semantics)
    head, element = static.split("<", 1)[0], static.rsplit(",", 1)[1]
    return f"{head}<[{','.join('?' * len(tensor.shape))}],{element}"


def _programs(op: str, invocation) -> dict[str, str]:
    """The op's program, static and dynamic, and the library op's on its first tensor."""
    from torch_refine.library.testing import Invocation, TensorOfShape, build_ir, tensor_type

    first = next((a for a in _flat(invocation.args) if isinstance(a, TensorOfShape)), TensorOfShape(4, 3))
    library = Invocation(first)
    return {
        "static": build_ir(op, invocation, argument_type=tensor_type),
        "dynamic": build_ir(op, invocation, argument_type=_dynamic),
        "library static": build_ir(LIBRARY_OP, library, argument_type=tensor_type),
        "library dynamic": build_ir(LIBRARY_OP, library, argument_type=_dynamic),
    }


def _flat(values) -> list:
    found = []
    for value in values:
        found += _flat(value) if isinstance(value, list | tuple) else [value]
    return found


def _refine_seconds(text: str) -> float:
    from torch_refine.api import refine
    from torch_refine.library.testing import parse_ir

    module = parse_ir(text)
    started = time.perf_counter()
    refine(module)
    return time.perf_counter() - started


def measure(runs: int, only: set[str] | None) -> dict:
    from torch_refine.library import meta_fallback

    started = time.perf_counter()  # nothing imported torch yet
    for module in ("torch", "torch._subclasses.fake_tensor", "torch.fx.experimental.symbolic_shapes"):
        importlib.import_module(module)
    torch_import = time.perf_counter() - started
    from robustness.fallback_corpus import TEMPLATES

    from torch_refine.library.testing import Unbuildable

    _refine_seconds(_programs("aten.vstack", TEMPLATES["aten.vstack"][0])["library static"])  # loads the library
    rows = []
    for op, templates in sorted(TEMPLATES.items()):
        if only and op not in only:
            continue
        try:
            programs = _programs(op, templates[0])
        except Unbuildable:
            continue
        row = {"op": op}
        for form in ("static", "dynamic"):
            first = []
            for _ in range(runs):
                meta_fallback._ANSWERS.clear()
                first.append(_refine_seconds(programs[form]))
            row[form] = {
                "first_s": statistics.median(first),
                "cached_s": statistics.median(_refine_seconds(programs[form]) for _ in range(runs)),
                "library_s": statistics.median(_refine_seconds(programs[f"library {form}"]) for _ in range(runs)),
            }
        rows.append(row)
        print(f"{op}: first {row['static']['first_s'] * 1e3:.0f} / {row['dynamic']['first_s'] * 1e3:.0f} ms, "
              f"cached {row['static']['cached_s'] * 1e3:.1f} / {row['dynamic']['cached_s'] * 1e3:.1f} ms",
              file=sys.stderr, flush=True)
    return {"date": time.strftime("%Y-%m-%d"), "runs": runs, "torch_import_s": torch_import, "ops": rows}


def markdown(results: dict) -> str:
    rows = results["ops"]
    lines = [f"Measured {results['date']}, {len(rows)} ops of the fallback corpus, median of "
             f"{results['runs']} runs each; torch's import before the first op: "
             f"{results['torch_import_s']:.2f} s (once per process).", "",
             "| form | first call, median (max) | cached call, median (max) | library op (tanh), median | "
             "first minus library, median |",
             "|---|---|---|---|---|"]
    for form in ("static", "dynamic"):
        first = [r[form]["first_s"] for r in rows]
        cached = [r[form]["cached_s"] for r in rows]
        library = [r[form]["library_s"] for r in rows]
        extra = [r[form]["first_s"] - r[form]["library_s"] for r in rows]
        lines.append(f"| {form} | {_ms(statistics.median(first))} ({_ms(max(first))}) | "
                     f"{_ms(statistics.median(cached))} ({_ms(max(cached))}) | {_ms(statistics.median(library))} | "
                     f"{_ms(statistics.median(extra))} |")
    slowest = sorted(rows, key=lambda r: -r["dynamic"]["first_s"])[:5]
    lines += ["", "Slowest first calls (dynamic): " + ", ".join(
        f"{r['op'].removeprefix('aten.')} {_ms(r['dynamic']['first_s'])}" for r in slowest) + "."]
    return "\n".join(lines) + "\n"


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms" if seconds < 0.1 else f"{seconds * 1e3:.0f} ms"


def update_readme(table: str) -> None:
    text = README.read_text()
    head, found, rest = text.partition(BEGIN_MARKER)
    _, ended, tail = rest.partition(END_MARKER)
    if not (found and ended):
        raise SystemExit(f"bench/fallback.py: {README.name} lacks the markers {BEGIN_MARKER} {END_MARKER}")
    README.write_text(f"{head}{BEGIN_MARKER}\n{table}{END_MARKER}{tail}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per op and form")
    parser.add_argument("--only", help="ops separated by commas (default: the whole corpus)")
    parser.add_argument("--update-readme", action="store_true",
                        help=f"write the table between the markers in {README.name}")
    args = parser.parse_args(argv)
    results = measure(args.runs, set(args.only.split(",")) if args.only else None)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "fallback.json").write_text(json.dumps(results, indent=1))
    table = markdown(results)
    (RESULTS / "fallback.md").write_text(table)
    print(table)
    if args.update_readme:
        update_readme(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
