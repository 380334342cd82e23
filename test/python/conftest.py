"""Session fixtures, and the library's verification summary after a session that ran its tests.

Counts come from the test reports (their user_properties), so the summary is the same under
pytest-xdist, whose controller never runs the tests itself.
"""

from collections import Counter

import pytest


@pytest.fixture(scope="session")
def corpus_dir(tmp_path_factory):
    """Where the corpus models are exported once per session (shared by xdist workers)."""
    from models.export_cache import session_cache_dir

    return session_cache_dir(tmp_path_factory)

INVOCATION_TEST = "test_library.py::test_library_function_matches_pytorch"
OPINFO_TEST = "test_opinfo.py::test_opinfo_samples_agree"


def _call_reports(stats: dict):
    for outcome in ("passed", "failed", "xfailed", "xpassed"):
        for report in stats.get(outcome, []):
            if getattr(report, "when", None) == "call":
                yield outcome, report


def _library_counts(stats: dict) -> Counter:
    counts = Counter()
    for outcome, report in _call_reports(stats):
        properties = dict(report.user_properties)
        counts["shape functions"] = max(counts["shape functions"],
                                        properties.get("library_shape_functions", 0))
        counts["dtype functions"] = max(counts["dtype functions"],
                                        properties.get("library_dtype_functions", 0))
        if INVOCATION_TEST in report.nodeid:
            counts["invocation cases"] += 1
            counts[outcome] += 1
        elif OPINFO_TEST in report.nodeid:
            cases = properties.get("opinfo_cases", 0)
            disagreements = properties.get("opinfo_disagreements", 0)
            counts["opinfo cases"] += cases
            counts["passed"] += cases - disagreements
            counts[outcome] += disagreements
    return counts


def pytest_terminal_summary(terminalreporter):
    counts = _library_counts(terminalreporter.stats)
    if not counts["invocation cases"] and not counts["opinfo cases"]:
        return
    judged = counts["passed"] + counts["failed"] + counts["xpassed"]
    agreement = 100.0 * counts["passed"] / judged if judged else 100.0
    functions = counts["shape functions"] + counts["dtype functions"]
    terminalreporter.write_line(
        f"library: {functions} functions ({counts['shape functions']} shape, "
        f"{counts['dtype functions']} dtype), {counts['invocation cases']} cases from "
        f"invocations, {counts['opinfo cases']} cases from OpInfo, agreement "
        f"{agreement:.1f}% ({counts['xfailed']} xfail documented)"
    )
