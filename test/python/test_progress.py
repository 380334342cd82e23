"""Long work shows progress (issue 29.8): the corpus prints a line per model and dynamism
as it finishes (the benchmark prints one per input, the fuzzer a count every 100 cases), and
the first set-up says what it is doing instead of a silent `pip install --quiet`."""

import importlib.util
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _corpus_script():
    spec = importlib.util.spec_from_file_location("corpus_script", REPO / "build_tools" / "corpus.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_corpus_prints_a_line_per_job():
    corpus = _corpus_script()
    from models.measure import Outcome

    measured = [Outcome("bert", "raw", "batch", exact=9, partial=1), Outcome("bert", "core", "batch", failure="x")]
    line = corpus.progress_line(3, 80, ("bert", "batch", ("raw", "core")), measured, 12.3)
    assert line == "corpus [3/80] bert batch: 2 variants, 90.0% exact, 1 failed (12 s)"


def test_set_up_says_what_it_does():
    makefile = (REPO / "Makefile").read_text()
    recipe = makefile.split("$(STAMP): pyproject.toml\n", 1)[1].split("\n\n", 1)[0]
    assert len(re.findall(r'@echo "set-up: ', recipe)) >= 2
    assert "install --quiet -e" not in recipe  # pip lists what it collects and installs
