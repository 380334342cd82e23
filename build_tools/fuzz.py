#!/usr/bin/env python3
"""Differential fuzzing of torch-refine against PyTorch: single ops
(test/python/robustness/fuzzer.py) or programs with control flow (cf_fuzzer.py).

    build_tools/fuzz.py --seed 0 --cases 3000 --jobs 2
    build_tools/fuzz.py --seed 0 --case 'aten.mm#1'     # one case, with its reproducer
    build_tools/fuzz.py --control-flow --cases 3000     # programs: cases cf#0 to cf#2999

Single ops are the library's (its registry invocations as templates), then
`--fallback-cases` (default 500) cases of the ops the meta fallback serves
(fallback_corpus.py's templates; `--fallback-cases 0` leaves them out).

Prints a summary line (cases, and the count of each verdict) and the reproducer IR of every
failure; exits 1 when a case fails that test/python/robustness/known_failures.json does not
list for this seed.
"""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "test" / "python"))
sys.path.insert(0, str(ROOT / "python"))

from robustness import cf_fuzzer, fallback_corpus, fuzzer  # noqa: E402
from robustness.known import known_failures  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=fuzzer.TIMEOUT_SECONDS,
                        help="seconds per case before it counts as a hang")
    parser.add_argument("--case", action="append", default=[],
                        help="run only this case (`<op>#<k>`); repeatable")
    parser.add_argument("--verbose", action="store_true",
                        help="also print skipped and cpu-only cases, with their reasons")
    parser.add_argument("--control-flow", action="store_true",
                        help="fuzz programs with prim.If and prim.Loop instead of single ops")
    parser.add_argument("--fallback-cases", type=int, default=500,
                        help="single-op cases of the ops the meta fallback serves, after the library's")
    options = parser.parse_args()

    if options.control_flow:
        runs = [(cf_fuzzer.check_case, options.case or cf_fuzzer.case_ids(options.cases))]
    else:
        runs = _op_runs(options)
    cases = [case for _, run_cases in runs for case in run_cases]
    done = 0

    def progress(outcome):
        nonlocal done
        done += 1
        if outcome.failed or (options.verbose and outcome.verdict != "ok"):
            print(outcome.reproducer(), flush=True)
        elif done % 100 == 0:
            print(f"... {done}/{len(cases)}", file=sys.stderr, flush=True)

    outcomes = [outcome for checker, run_cases in runs if run_cases
                for outcome in fuzzer.run(options.seed, run_cases, options.jobs, options.timeout, progress, checker)]
    known = {} if options.control_flow else known_failures(options.seed) | fallback_corpus.known(options.seed)
    new = [o for o in outcomes if o.failed and known.get(o.case, (None,))[0] != o.verdict]
    print(fuzzer.summary(outcomes))
    if new:
        print(f"{len(new)} not in known_failures.json: " + ", ".join(o.case for o in new))
    return 1 if new else 0


def _op_runs(options) -> list[tuple]:
    """(checker, cases) for the library's ops and for the fallback's; `--case` goes to the
    checker whose templates hold its op."""
    fallback_ops = fallback_corpus.TEMPLATES
    if options.case:
        library = [c for c in options.case if c.rpartition("#")[0] not in fallback_ops]
        served = [c for c in options.case if c.rpartition("#")[0] in fallback_ops]
    else:
        library = fuzzer.case_ids(options.seed, options.cases, fuzzer.fuzzed_ops())
        served = fuzzer.case_ids(options.seed, options.fallback_cases, fallback_ops)
    return [(fuzzer.check_op_case, library), (fallback_corpus.check_case, served)]


if __name__ == "__main__":
    sys.exit(main())
