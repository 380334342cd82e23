"""The control-flow fuzzer's `make test` tier: 300 programs with `prim.If` and `prim.Loop`
(cf_fuzzer.py), refined and run against eager PyTorch at four instantiations each, in six
slices so that pytest-xdist spreads them. `make fuzz` runs thousands."""

import pytest

from robustness import cf_fuzzer, fuzzer

SEED = 0
CASES = 300
SLICES = 6
# TorchScript rejects few generated programs; more would mean the generator drifted.
MAX_SKIPPED_SHARE = 0.05


@pytest.mark.parametrize("part", range(SLICES))
def test_control_flow_programs_agree_with_pytorch(part):
    cases = cf_fuzzer.case_ids(CASES)[part::SLICES]
    outcomes = fuzzer.run(SEED, cases, jobs=1, checker=cf_fuzzer.check_case)
    failed = [o.reproducer() for o in outcomes if o.failed]
    assert not failed, fuzzer.summary(outcomes) + "\n" + "\n".join(failed)
    skipped = sum(o.verdict == "skipped" for o in outcomes)
    assert skipped <= MAX_SKIPPED_SHARE * len(outcomes), fuzzer.summary(outcomes)
