#!/usr/bin/env python3
"""Refinement on the broad model corpus (test/python/models/corpus3.py): every model at
three import levels and three dynamisms, each dynamic one in two forms (with symbolic shape
expressions and without them), erased, refined and compared with the imported types
(re-checked: where running an op with constant operands gives another type than the import
states, the value is compared with PyTorch and counted in the `mistyped` column).

    build_tools/corpus.py [--jobs N] [--only llama,bert] [--levels raw,core]
                          [--dynamisms static,batch] [--out out/corpus/non-exact.tsv]

Exports are cached under out/corpus/ (gitignored; delete it after changing a model).
Prints the table (level x dynamism x form: exactness, the largest output/input op ratio,
the asserts in all and the most in one variant, and the runs of each dynamic variant's
refined program at two other sizes with the asserts that fired or types that did not hold)
and writes every non-exact value, run failure and failed variant with its reason to the
--out file. Exits 1 on any contradiction or run failure.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "test" / "python"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from models.corpus3 import DYNAMISMS, LEVELS, MODELS, forms  # noqa: E402
from models.measure import CACHE_DIR, Outcome, measure  # noqa: E402


def _measure(job: tuple[str, str, tuple[str, ...]]) -> list[Outcome]:
    # One job per model and dynamism: its levels share one torch.export.
    name, dynamism, levels = job
    return [measure(name, level, dynamism, form) for level in levels for form in forms(dynamism)]


def progress_line(done: int, total: int, job: tuple, measured: list[Outcome], elapsed: float) -> str:
    """One line per model and dynamism as it finishes, so a long run shows where it is."""
    name, dynamism, _ = job
    values = sum(o.values for o in measured)
    exact = sum(o.exact for o in measured)
    failed = sum(o.failure is not None for o in measured)
    share = f"{100 * exact / values:.1f}% exact" if values else "no values"
    return (f"corpus [{done}/{total}] {name} {dynamism}: {len(measured)} variants, {share}, "
            f"{failed} failed ({elapsed:.0f} s)")


def table(outcomes: list[Outcome]) -> str:
    header = (f"{'level':<6} {'dynamism':<13} {'form':<8} {'models':>6} {'values':>7} {'exact %':>8} "
              f"{'partial':>7} {'unknown':>7} {'contra':>6} {'failed':>6} {'n/a':>4} {'mistyped':>8} "
              f"{'ops x':>5} {'asserts':>7} {'max':>4} {'runs':>5} {'fired':>5}")
    lines = [header, "-" * len(header)]
    for level, dynamism, form in ((lv, d, f) for lv in LEVELS for d in DYNAMISMS for f in forms(d)):
        cell = [o for o in outcomes if o.level == level and o.dynamism == dynamism and o.form == form]
        if not cell:
            continue
        done = [o for o in cell if o.failure is None]
        absent = sum(o.stage == "n/a" for o in cell)
        values = sum(o.values for o in done)
        exact = sum(o.exact for o in done)
        percent = 100.0 * exact / values if values else 100.0
        growth = max((o.output_ops / o.input_ops for o in done if o.input_ops), default=0.0)
        lines.append(
            f"{level:<6} {dynamism:<13} {form:<8} {len(done):>6} {values:>7} {percent:>8.3f} "
            f"{sum(o.partial for o in done):>7} {sum(o.unknown for o in done):>7} "
            f"{sum(o.contradictions for o in done):>6} {len(cell) - len(done) - absent:>6} "
            f"{absent:>4} {sum(o.mistyped_by_import for o in done):>8} {growth:>5.2f} "
            f"{sum(o.asserts for o in done):>7} {max((o.asserts for o in done), default=0):>4} "
            f"{sum(o.runs for o in done):>5} {sum(len(o.run_failures) for o in done):>5}"
        )
    return "\n".join(lines)


_DOWNSTREAM = "operand already"


def causes(outcomes: list[Outcome], limit: int = 40) -> str:
    """Non-exact values grouped by (op, reason), most frequent first, with where seen: root
    causes first, then values that only inherit an operand's loss (counted per op). Values
    the importer mistyped (compared with what PyTorch computes) are root causes too."""
    roots: dict[tuple[str, str], list[str]] = {}
    downstream: dict[str, int] = {}
    for o in outcomes:
        for row in o.rows:
            if "op" not in row:
                continue
            if row["reason"].startswith(_DOWNSTREAM):
                downstream[row["op"]] = downstream.get(row["op"], 0) + 1
                continue
            roots.setdefault((row["op"], row["reason"]), []).append(f"{o.model}/{o.level}/{o.dynamism}/{o.form}")
    ranked = sorted(roots.items(), key=lambda item: -len(item[1]))
    lines = [f"{len(seen):>6}  {op}: {reason}  [{', '.join(sorted(set(seen))[:4])}]"
             for (op, reason), seen in ranked[:limit]]
    inherited = sorted(downstream.items(), key=lambda item: -item[1])
    return "\n".join([
        "non-exact values by op and reason (root causes):", *lines,
        f"values that inherit an operand's loss: {sum(downstream.values())} "
        f"({', '.join(f'{op} {count}' for op, count in inherited[:8])})",
    ])


def write_details(outcomes: list[Outcome], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as out:
        out.write("model\tlevel\tdynamism\tform\tkind\top\tlocation\trefined\ttruth\treason\n")
        for o in outcomes:
            where = f"{o.model}\t{o.level}\t{o.dynamism}\t{o.form}"
            if o.failure is not None:
                out.write(f"{where}\tfailed:{o.stage}\t\t\t\t\t{o.failure}\n")
                continue
            for failure in o.run_failures:
                out.write(f"{where}\trun failure\t\t\t\t\t{failure}\n")
            for row in o.rows:
                out.write(f"{where}\t{row['kind']}\t{row['op']}\t{row['location']}\t"
                          f"{row['refined']}\t{row['truth']}\t{row['reason']}\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", default="", help="comma-separated model names")
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--dynamisms", default=",".join(DYNAMISMS))
    parser.add_argument("--out", type=Path, default=CACHE_DIR / "non-exact.tsv")
    parser.add_argument("--json", type=Path, help="also write every outcome as JSON")
    parser.add_argument("--from-json", type=Path, nargs="*", default=[],
                        help="print the table of earlier runs' JSON instead of measuring")
    args = parser.parse_args()
    names = [c.name for c in MODELS]
    if args.only:
        unknown = set(args.only.split(",")) - set(names)
        if unknown:
            parser.error(f"no such models: {', '.join(sorted(unknown))}")
        names = [n for n in names if n in args.only.split(",")]
    if args.from_json:
        outcomes = [Outcome(**record) for path in args.from_json
                    for record in json.loads(path.read_text())]
        print(table(outcomes))
        print(causes(outcomes))
        write_details(outcomes, args.out)
        return 1 if any(o.contradictions or o.run_failures for o in outcomes) else 0
    levels = tuple(args.levels.split(","))
    jobs = [(n, dyn, levels) for n in names for dyn in args.dynamisms.split(",")]
    outcomes = []
    began = time.monotonic()
    with ProcessPoolExecutor(args.jobs) as pool:
        for done, (job, measured) in enumerate(zip(jobs, pool.map(_measure, jobs), strict=True), start=1):
            outcomes.extend(measured)
            print(progress_line(done, len(jobs), job, measured, time.monotonic() - began), file=sys.stderr, flush=True)
            if args.json:  # written as they come, so an interrupted run keeps its numbers
                args.json.write_text(json.dumps([o.__dict__ for o in outcomes], indent=1))
    print(table(outcomes))
    print(causes(outcomes))
    write_details(outcomes, args.out)
    print(f"non-exact values and failures: {args.out}")
    return 1 if any(o.contradictions or o.run_failures for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
