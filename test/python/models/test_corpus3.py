"""The broad corpus (models/corpus3.py): refinement never contradicts the imported types,
and the exact fraction per import level stays at what was measured (docs/corpus.md).

Marked `corpus` and skipped unless selected with `-m corpus` (`make corpus`): too slow for
every `make test`. One test per level and
dynamism over every model; variants that cannot be exported or imported are left out of the
counts (build_tools/corpus.py lists them with their reasons).
"""

from __future__ import annotations

import pytest

from models.corpus3 import DYNAMISMS, LEVELS, MODELS
from models.measure import measure

pytestmark = pytest.mark.corpus

# The exact fraction measured per level and dynamism (docs/corpus.md), rounded down; the
# target is 0.995 everywhere. Only the dynamic-batch column was measured on the corpus
# (17 models before the deadline); None: not measured yet, only contradictions asserted.
MEASURED_EXACT = {
    ("raw", "batch"): 0.73, ("core", "batch"): 0.82, ("torch", "batch"): 1.0,
}

# Refinement bugs found by the corpus (docs/corpus.md): loop peeling leaves a
# `torch.prim.Loop` whose trip count does not dominate it (invalid IR).
KNOWN_REFINE_FAILURES = {("phi3", "core", "batch"), ("gpt_neox", "raw", "batch")}


@pytest.fixture(autouse=True)
def _only_when_asked(request):
    # Collected by every `pytest test/python`, run only by `-m corpus` (`make corpus`).
    if "corpus" not in (request.config.option.markexpr or ""):
        pytest.skip("the broad corpus runs with -m corpus (make corpus)")


@pytest.mark.parametrize("dynamism", DYNAMISMS)
@pytest.mark.parametrize("level", LEVELS)
def test_corpus_cell(level, dynamism):
    outcomes = [measure(case.name, level, dynamism) for case in MODELS]
    refine_failures = [(o.model, o.failure) for o in outcomes if o.stage == "refine"
                       and (o.model, level, dynamism) not in KNOWN_REFINE_FAILURES]
    assert not refine_failures
    contradictions = [(o.model, row) for o in outcomes for row in o.rows
                      if row["kind"] == "contradictions"]
    assert not contradictions, contradictions[:10]
    values = sum(o.values for o in outcomes)
    exact = sum(o.exact for o in outcomes) / values if values else 1.0
    worst = sorted(outcomes, key=lambda o: o.exact / o.values if o.values else 1.0)[:5]
    floor = MEASURED_EXACT.get((level, dynamism))
    assert floor is None or exact >= floor, [(o.model, o.rows[:3]) for o in worst]
