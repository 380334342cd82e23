"""docs/driver.md against the driver: every flag the table marks *no* is one the driver
names with its reason, and every flag marked as served is one it accepts (issue 29.11, 29.12)."""

import re
import subprocess
import sys
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


def _timer_names(report: str) -> list[str]:
    return [line.split(")", 1)[1].rstrip() for line in report.splitlines() if re.match(r"\s+\d+\.\d+ \(", line)]


def test_the_timing_example_has_the_lines_the_driver_prints():
    documented = DOC.split("## Where the time goes", 1)[1].split("```", 2)[1]
    command = documented.splitlines()[1].removeprefix("$ ").split()
    root = Path(__file__).resolve().parents[2]
    run = subprocess.run([sys.executable, "-m", "torch_refine.tools.opt", *command[1:]], cwd=root,
                         capture_output=True, text=True, check=True)
    assert _timer_names(run.stderr) == _timer_names(documented)
