"""The front-door zoo (issue 28; `zoo.py`, table in docs/corpus.md): every dynamic variant
torch.export accepts imports through `export_and_import`, refines with no type contradicting
those export traced, executes op by op as eager does at two sizes with every type holding,
and runs JIT-compiled as eager does at both sizes. Each variant is measured in its own process (`zoo_run.py`): nothing it does
can kill the test process. `build_tools/zoo.py` measures the static variants too.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from models.zoo import CASES

pytestmark = pytest.mark.slow

RUNNER = Path(__file__).with_name("zoo_run.py")
TOLERANCE = 1e-3


@pytest.mark.parametrize("name", CASES)
def test_dynamic_variant_imports_runs_and_compiles_as_eager(name):
    done = subprocess.run([sys.executable, str(RUNNER), name, "dynamic"], capture_output=True, text=True,
                          timeout=1800, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    outcome = json.loads(done.stdout.strip().splitlines()[-1])
    if outcome["export"] != "ok":
        pytest.skip(f"torch.export rejects it: {outcome['export']}")
    assert outcome["import"] == "ok", outcome
    assert outcome["report"]["unknown"] == 0, outcome
    assert outcome["report"]["export_compared"] > 0, outcome
    assert outcome["report"]["export_contradictions"] == 0, outcome["export_contradiction_rows"]
    stages = ["execute"]
    if not str(outcome["jit"][0]).startswith("lowering:"):  # where the backend lowers it
        stages.append("jit")
    for stage in stages:
        assert len(outcome[stage]) == 2, outcome
        for difference in outcome[stage]:
            assert isinstance(difference, float), (stage, outcome)
            assert difference < TOLERANCE, (stage, outcome)
