"""The fuzzer's known failures (known_failures.json): case -> (verdict, reason)."""

import json
from pathlib import Path

KNOWN_FAILURES = Path(__file__).with_name("known_failures.json")


def known_failures(seed: int, path: Path = KNOWN_FAILURES) -> dict[str, tuple[str, str]]:
    entries = json.loads(path.read_text())
    return {e["case"]: (e["verdict"], e["reason"]) for e in entries if e["seed"] == seed}
