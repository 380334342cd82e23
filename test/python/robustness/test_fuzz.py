"""The fuzzer's `make test` tier: a fixed seed and a few hundred cases (one per op, in an
order the seed shuffles), plus every case known_failures.json lists for that seed.

A failure the file does not list fails the test with its reproducer; a listed case that
no longer fails as listed fails it too (strict), so a fix shows up and the file stays honest.
`build_tools/fuzz.py` runs thousands of cases.
"""

from robustness import fuzzer
from robustness.known import known_failures

SEED = 0
CASES = 400


def test_fuzzed_cases_agree_with_pytorch():
    known = known_failures(SEED)
    ops = fuzzer.fuzzed_ops()
    stale = sorted(case for case in known if case.rpartition("#")[0] not in ops)
    assert not stale, f"known_failures.json lists cases of ops without library functions: {stale}"
    cases = fuzzer.case_ids(SEED, CASES, ops)
    cases += sorted(set(known) - set(cases))
    outcomes = fuzzer.run(SEED, cases, jobs=1)

    unexpected = [o for o in outcomes if o.failed and known.get(o.case, (None,))[0] != o.verdict]
    fixed = [f"{o.case} ({o.verdict}; listed as {known[o.case][0]}: {known[o.case][1]})"
             for o in outcomes if o.case in known and o.verdict != known[o.case][0]]
    problems = [o.reproducer() for o in unexpected]
    if fixed:
        problems.append("listed in known_failures.json but no longer failing that way "
                        "(update the file):\n  " + "\n  ".join(fixed))
    assert not problems, fuzzer.summary(outcomes) + "\n" + "\n".join(problems)
