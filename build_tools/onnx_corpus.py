#!/usr/bin/env python3
"""Refinement on the ONNX corpus (test/python/onnx/onnx_corpus.py): every model exported
by both exporters at three dynamisms, imported with torch-mlir's ONNX importer and
converted, refined as converted and with intermediate types erased, compared with what
PyTorch computes at several sizes (cross-checked with onnxruntime); torch-mlir's
refinement of the same input beside it.

    build_tools/onnx_corpus.py [--jobs N] [--only gru,lstm] [--exporters legacy]
                               [--dynamisms static,batch] [--json out/onnx-corpus/outcomes.json]

Exports are cached under out/onnx-corpus/ (gitignored; delete it after changing a model).
Prints the table and the non-exact values grouped by op, and writes them all with every
failure to --out. Exits 1 on any contradiction.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "test" / "python" / "onnx"))
sys.path.insert(0, str(REPO / "test" / "python"))

from onnx_measure import CACHE_DIR, Outcome, measure_variant  # noqa: E402

from onnx_corpus import DYNAMISMS, EXPORTERS, FORMS, MODELS  # noqa: E402


def _measure(job: tuple[str, str, str]) -> list[Outcome]:
    """One variant in its own process: a crash in a kernel (PyTorch's or torch-mlir's
    importer) is that variant's failure, not the run's."""
    done = subprocess.run([sys.executable, __file__, "--variant", ",".join(job)], capture_output=True, text=True)
    if done.returncode == 0:
        return [Outcome(**record) for record in json.loads(done.stdout.splitlines()[-1])]
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    reason = f"the measuring process died (exit {done.returncode}): {lines[-1] if lines else ''}"[:400]
    return [Outcome(*job, form, failure=reason, stage="crash") for form in FORMS]


def _percent(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.2f}" if whole else "-"


def _converted(outcomes: list[Outcome]) -> list[Outcome]:
    """The variants with a converted program, PyTorch running it or not: where each
    pipeline's completing is measured."""
    return [o for o in outcomes if o.stage not in ("export", "n/a", "crash")]


def table(outcomes: list[Outcome]) -> str:
    header = (f"{'exporter':<8} {'dynamism':<13} {'form':<9} {'models':>6} {'values':>6} {'exact %':>7} "
              f"{'partial':>7} {'unknown':>7} {'contra':>6} {'mistyped':>8} {'failed':>6} {'n/a':>4} {'ops in':>6} "
              f"{'ops out':>7} {'asserts':>7} {'seconds':>7} | {'tm done':>7} {'ours done':>9} {'tm exact %':>10} "
              f"{'ours %':>6} {'tm s':>6}")
    lines = [header, "-" * len(header)]
    cells = ((e, d, f) for e in EXPORTERS for d in DYNAMISMS for f in FORMS)
    for exporter, dynamism, form in cells:
        cell = [o for o in outcomes if (o.exporter, o.dynamism, o.form) == (exporter, dynamism, form)]
        if not cell:
            continue
        done = [o for o in cell if o.failure is None]
        absent = sum(o.stage == "n/a" for o in cell)
        values = sum(o.values for o in done)
        completed = [o for o in done if o.torch_mlir == "ok"]
        converted = _converted(cell)
        tm_done, ours_done = (sum(getattr(o, tool) == "ok" for o in converted) for tool in ("torch_mlir", "ours"))
        theirs = sum(o.torch_mlir_values for o in completed)
        lines.append(
            f"{exporter:<8} {dynamism:<13} {form:<9} {len(done):>6} {values:>6} "
            f"{_percent(sum(o.exact for o in done), values):>7} {sum(o.partial for o in done):>7} "
            f"{sum(o.unknown for o in done):>7} {sum(o.contradictions for o in done):>6} "
            f"{sum(o.mistyped for o in done):>8} "
            f"{len(cell) - len(done) - absent:>6} {absent:>4} {sum(o.input_ops for o in done):>6} "
            f"{sum(o.output_ops for o in done):>7} {sum(o.asserts for o in done):>7} "
            f"{sum(o.seconds for o in done):>7.2f} | {tm_done:>3}/{len(converted):<3} "
            f"{ours_done:>5}/{len(converted):<3} "
            f"{_percent(sum(o.torch_mlir_exact for o in completed), theirs):>10} "
            f"{_percent(sum(o.ours_on_torch_mlir_values for o in completed), theirs):>6} "
            f"{sum(o.torch_mlir_seconds for o in completed):>6.1f}"
        )
    return "\n".join(lines)


def causes(outcomes: list[Outcome], limit: int = 30) -> str:
    """Non-exact values grouped by (op, refined, truth), most frequent first."""
    grouped: dict[tuple[str, str, str], list[str]] = {}
    for o in outcomes:
        for row in o.rows:
            if "op" in row:
                key = (row["op"], row["refined"], row["truth"])
                grouped.setdefault(key, []).append(f"{o.model}/{o.exporter}/{o.dynamism}/{o.form}")
    ranked = sorted(grouped.items(), key=lambda item: -len(item[1]))
    lines = [f"{len(seen):>5}  {op}: {refined} (truth {truth})  [{', '.join(sorted(set(seen))[:3])}]"
             for (op, refined, truth), seen in ranked[:limit]]
    failures = [f"{o.model}/{o.exporter}/{o.dynamism}/{o.form}: {o.stage}: {o.failure}"
                for o in outcomes if o.failure is not None and o.stage != "n/a"]
    converted = _converted(outcomes)
    not_done = [f"{o.model}/{o.exporter}/{o.dynamism}/{o.form}: {o.torch_mlir}"
                for o in converted if o.torch_mlir != "ok"]
    ours_not_done = [f"{o.model}/{o.exporter}/{o.dynamism}/{o.form}: {o.ours} (torch-mlir: {o.torch_mlir})"
                     for o in converted if o.ours != "ok"]
    return "\n".join(["non-exact values by op (refined, truth):", *lines, "failures:", *failures,
                      "torch-mlir did not complete:", *not_done, "torch-refine did not complete:", *ours_not_done])


def write_details(outcomes: list[Outcome], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as out:
        out.write("model\texporter\tdynamism\tform\tkind\top\tlocation\trefined\ttruth\n")
        for o in outcomes:
            where = f"{o.model}\t{o.exporter}\t{o.dynamism}\t{o.form}"
            if o.failure is not None:
                out.write(f"{where}\tfailed:{o.stage}\t\t\t\t{o.failure}\n")
            for row in o.rows:
                if "op" in row:
                    out.write(f"{where}\t{row['kind']}\t{row['op']}\t{row['location']}\t"
                              f"{row['refined']}\t{row['truth']}\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", default="", help="comma-separated model names")
    parser.add_argument("--exporters", default=",".join(EXPORTERS))
    parser.add_argument("--dynamisms", default=",".join(DYNAMISMS))
    parser.add_argument("--out", type=Path, default=CACHE_DIR / "non-exact.tsv")
    parser.add_argument("--json", type=Path, help="also write every outcome as JSON")
    parser.add_argument("--from-json", type=Path, help="print the table of an earlier run instead of measuring")
    parser.add_argument("--variant", help=argparse.SUPPRESS)  # model,exporter,dynamism: one, as JSON
    args = parser.parse_args()
    if args.variant:
        print(json.dumps([o.__dict__ for o in measure_variant(*args.variant.split(","))]))
        return 0
    names = [c.name for c in MODELS]
    if args.only:
        unknown = set(args.only.split(",")) - set(names)
        if unknown:
            parser.error(f"no such models: {', '.join(sorted(unknown))}")
        names = [n for n in names if n in args.only.split(",")]
    if args.from_json:
        outcomes = [Outcome(**record) for record in json.loads(args.from_json.read_text())]
    else:
        jobs = [(n, e, d) for n in names for e in args.exporters.split(",") for d in args.dynamisms.split(",")]
        outcomes = []
        with ThreadPoolExecutor(args.jobs) as pool:
            for measured in pool.map(_measure, jobs):
                outcomes.extend(measured)
                if args.json:  # written as they come, so an interrupted run keeps its numbers
                    args.json.parent.mkdir(parents=True, exist_ok=True)
                    args.json.write_text(json.dumps([o.__dict__ for o in outcomes], indent=1))
    print(table(outcomes))
    print(causes(outcomes))
    write_details(outcomes, args.out)
    print(f"non-exact values and failures: {args.out}")
    return 1 if any(o.contradictions for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
