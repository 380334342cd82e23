"""IREE on torch-mlir's outputs and torch-refine's: the table in docs/backends.md ("IREE").

Every variant of `test/python/backends/iree_flow.py` (10 corpus models; static, dynamic
batch, dynamic batch and sequence or image size), each flow's output compiled by
`iree-compile --iree-input-type=torch` for the local CPU and run with `iree.runtime`
against eager PyTorch; one process per variant at a time, `--jobs` at once. Prints the
table; `--json` also writes the outcomes, which `test_iree.py` checks (`make iree`).

    python build_tools/iree_table.py --jobs 2 --json out/iree/outcomes.json
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "test" / "python" / "backends"))
sys.path.insert(0, str(ROOT / "test" / "python"))
sys.path.insert(0, str(ROOT / "python"))

import iree_flow  # noqa: E402

COLUMNS = {"torch-mlir": "torch-mlir's output", "api-raw": "ours: API raw", "api-torch": "ours: API torch",
           "driver": "ours: driver", "onnx-converted": "ONNX as converted", "onnx-ours": "ONNX, ours"}


def _measure(variant: tuple[str, str], flows: tuple[str, ...]) -> list[dict]:
    import warnings

    warnings.simplefilter("ignore")  # export's and the exporters' deprecations, per variant
    return [asdict(outcome) for outcome in iree_flow.measure(*variant, flows=flows)]


def table(outcomes: list[iree_flow.Outcome]) -> str:
    by_cell = {(o.model, o.dynamism, o.flow): o for o in outcomes}
    variants = list(dict.fromkeys((o.model, o.dynamism) for o in outcomes))
    columns = [flow for flow in COLUMNS if any(o.flow == flow for o in outcomes)]
    lines = ["| model | variant | " + " | ".join(COLUMNS[flow] for flow in columns) + " |",
             "|---|---|" + "---|" * len(columns)]
    for model, dynamism in variants:
        cells = [by_cell[model, dynamism, flow].cell if (model, dynamism, flow) in by_cell else "" for flow in columns]
        lines.append(f"| {model} | {dynamism} | " + " | ".join(cells) + " |")
    totals = [sum(o.matches for o in outcomes if o.flow == flow) for flow in columns]
    lines.append("| **compile, run and match eager** | | " + " | ".join(f"{t}/{len(variants)}" for t in totals) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", type=Path, help="write the outcomes here")
    parser.add_argument("--models", nargs="*", default=None, help="a subset of the models")
    parser.add_argument("--flows", nargs="*", default=list(iree_flow.FLOWS), choices=list(COLUMNS),
                        help="the flows to measure (default: all but ONNX's, which export with the legacy exporter)")
    args = parser.parse_args()
    if iree_flow.IREE_COMPILE is None:
        print("iree-compile is not installed: pip install 'torch-refine[iree]'", file=sys.stderr)
        return 1
    variants = [v for v in iree_flow.variants() if args.models is None or v[0] in args.models]
    outcomes: list[iree_flow.Outcome] = []
    start = time.perf_counter()
    context = multiprocessing.get_context("spawn")  # no forked torch state
    with ProcessPoolExecutor(max_workers=args.jobs, mp_context=context) as pool:
        futures = {pool.submit(_measure, variant, tuple(args.flows)): variant for variant in variants}
        for done, future in enumerate(as_completed(futures), 1):
            measured = [iree_flow.Outcome(**record) for record in future.result()]
            outcomes += measured
            cells = ", ".join(f"{o.flow}: {'ok' if o.matches else 'FAIL'}" for o in measured)
            print(f"[{done}/{len(variants)} {time.perf_counter() - start:.0f} s] {' '.join(futures[future])}: {cells}",
                  file=sys.stderr, flush=True)
    order = {variant: index for index, variant in enumerate(variants)}
    outcomes.sort(key=lambda o: (order[o.model, o.dynamism], list(COLUMNS).index(o.flow)))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps([asdict(o) for o in outcomes], indent=1))
    print(table(outcomes))
    print(f"\n{len(variants)} variants in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
