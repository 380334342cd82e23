"""bench/fallback.py: the meta fallback's cost per op (its structure, not its timings)."""

import importlib.util
import sys
from pathlib import Path

_PATH = Path(__file__).resolve().parents[2] / "bench" / "fallback.py"
_spec = importlib.util.spec_from_file_location("bench_fallback", _PATH)
fallback = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = fallback
_spec.loader.exec_module(fallback)


def test_first_cached_and_library_calls_are_timed_per_form(tmp_path, monkeypatch):
    results = fallback.measure(1, {"aten.vstack"})
    (row,) = results["ops"]
    assert row["op"] == "aten.vstack"
    for form in ("static", "dynamic"):
        assert set(row[form]) == {"first_s", "cached_s", "library_s"}
        assert all(seconds > 0 for seconds in row[form].values())
    table = fallback.markdown(results)
    assert "| dynamic |" in table
    assert "vstack" in table
    readme = tmp_path / "README.md"
    readme.write_text(f"head\n{fallback.BEGIN_MARKER}\nold\n{fallback.END_MARKER}\ntail\n")
    monkeypatch.setattr(fallback, "README", readme)
    fallback.update_readme(table)
    assert readme.read_text() == f"head\n{fallback.BEGIN_MARKER}\n{table}{fallback.END_MARKER}\ntail\n"


def test_the_readme_has_the_markers():
    text = fallback.README.read_text()
    assert fallback.BEGIN_MARKER in text
    assert fallback.END_MARKER in text
