"""Measure the front-door zoo (test/python/models/zoo.py): every variant in its own process,
`--jobs` at a time (2), or only the models named; writes one JSON line per variant to
out/zoo/outcomes.jsonl and prints the table docs/corpus.md shows."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "test" / "python" / "models"
sys.path.insert(0, str(MODELS))

from zoo import CASES, DYNAMISMS  # noqa: E402


def run(variant: tuple[str, str]) -> dict:
    name, dynamism = variant
    done = subprocess.run([sys.executable, str(MODELS / "zoo_run.py"), name, dynamism], capture_output=True,
                          text=True, timeout=1800, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if lines:
        return json.loads(lines[-1])
    return {"model": name, "dynamism": dynamism, "export": f"the measuring process died: {done.stderr[-300:]}"}


def cell(value) -> str:
    if isinstance(value, float):
        return "ok" if value < 1e-3 else f"off by {value:.1e}"
    if value is None:
        return "wrong shape"
    return "ok" if value == "ok" else f"fails ({value.split(':')[0]})"


def row(outcome: dict) -> str:
    stages = [outcome.get("export", "")]
    columns = [outcome["model"], outcome["dynamism"], cell(stages[0])]
    for key in ("torch_mlir", "import"):
        columns.append(cell(outcome[key]) if key in outcome else "")
    report = outcome.get("report")
    columns.append("" if report is None else "{exact} / {symbolic_exact} / {partial} / {unknown}".format(**report))
    columns.append("" if report is None else "{export_compared} / {export_contradictions}".format(**report))
    for key in ("execute", "jit"):
        columns.append(", ".join(cell(v) for v in outcome.get(key, [])))
    return "| " + " | ".join(columns) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("models", nargs="*", help=f"the models to measure (all): {', '.join(CASES)}")
    parser.add_argument("--jobs", type=int, default=2)
    arguments = parser.parse_args()
    if unknown := set(arguments.models) - set(CASES):
        parser.error(f"no such model in the zoo: {', '.join(sorted(unknown))}")
    out = ROOT / "out" / "zoo"
    out.mkdir(parents=True, exist_ok=True)
    variants = [(name, dynamism) for name in arguments.models or CASES for dynamism in DYNAMISMS]
    with ThreadPoolExecutor(max_workers=arguments.jobs) as pool:
        outcomes = list(pool.map(run, variants))
    (out / "outcomes.jsonl").write_text("".join(json.dumps(o) + "\n" for o in outcomes))
    print("| model | dims | export | torch-mlir import | our import | exact / symbolic / partial / unknown "
          "| compared with export / contradictions | executed vs eager | JIT vs eager |")
    print("|---|---|---|---|---|---|---|---|---|")
    for outcome in outcomes:
        print(row(outcome))


if __name__ == "__main__":
    main()
