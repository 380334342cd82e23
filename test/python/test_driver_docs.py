"""docs/driver.md against the driver: every flag the table marks *no* is one the driver
names with its reason, and every flag marked as served is one it accepts (issue 29.11, 29.12)."""

import re
from pathlib import Path

import pytest

from torch_refine.driver import opt_main

DOC = (Path(__file__).resolve().parents[2] / "docs" / "driver.md").read_text()
ROWS = [line for line in DOC.splitlines() if line.startswith("| `-")]


def _flags(row: str) -> list[str]:
    first_cell = row.split("|")[1]
    return [flag.split("=")[0].split("[")[0] for flag in re.findall(r"`(--?[a-z][^`]*)`", first_cell)]


UNSERVED = [flag for row in ROWS if "| no:" in row for flag in _flags(row)]
SERVED = [flag for row in ROWS if "| yes" in row for flag in _flags(row) if not flag.startswith("--<")]


@pytest.mark.parametrize("flag", UNSERVED)
def test_a_flag_documented_as_unserved_is_named_with_its_reason(flag):
    assert flag in opt_main._UNSERVED_FLAGS


@pytest.mark.parametrize("flag", SERVED)
def test_a_flag_documented_as_served_is_accepted(flag):
    known = opt_main._argument_parser()._option_string_actions
    assert flag in known
    assert flag not in opt_main._UNSERVED_FLAGS


def test_every_unserved_flag_is_documented():
    assert sorted(opt_main._UNSERVED_FLAGS) == sorted(UNSERVED)
