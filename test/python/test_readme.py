"""The README is a one-page front door whose figures hold (issue 29.11): its Quick start is
`make run` and `make test`, its comparison figures are those of the installed wheel and the
library, its links resolve, and (model tier) its `make run` sample is what `make run` prints."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from torch_refine.tools import ops

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]


def _row(label: str) -> list[str]:
    line = next(line for line in README.splitlines() if line.startswith(f"| {label} |"))
    return [cell.strip() for cell in line.strip("|").split("|")][1:]


def _at_least(text: str) -> int:
    """`44,000+` -> 44000."""
    return int(re.match(r"([\d,]+)\+", text).group(1).replace(",", ""))


def test_quick_start_is_two_commands():
    block = README.split("## Quick start", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    assert [line.split("#")[0].strip() for line in block.splitlines()] == ["make run", "make test"]


def test_one_page():
    assert len(README) < 10_000


def test_core_aten_coverage():
    facts, library = ops.torch_facts(), ops.library_ops()
    core = facts.core
    covered = {op for op in core if all(op in library[kind] or not facts.applies(op, kind) for kind in ("shape", "dtype"))}
    theirs, ours = _row("Core ATen ops with shape and dtype functions")
    assert theirs == f"{len(core & ops.torch_mlir_ops())} of {len(core)}"
    assert ours.startswith(f"{len(covered)} of {len(core)} ")


def test_library_size_against_torch_mlirs():
    theirs, ours = _row("op overloads in the library")
    assert theirs == str(len(ops.torch_mlir_ops()))
    count = len(set().union(*ops.library_ops().values()))
    assert _at_least(ours) <= count < _at_least(ours) + 20, f"the README says {ours}, the library has {count}"


def test_verified_cases():
    cases = sum(ops.torch_facts().cases.values())
    stated = _at_least(_row("functions checked against PyTorch")[1].removeprefix("every function, "))
    assert stated <= cases < stated + 2_000, f"the README says {stated}+, the registry has {cases}"


@pytest.mark.parametrize("doc", DOCS, ids=[doc.name for doc in DOCS])
def test_relative_links_resolve(doc):
    text = doc.read_text()
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    missing = [t for t in targets if "://" not in t and not (doc.parent / t).exists()]
    assert missing == []


def test_what_moved_out_is_linked():
    assert "there is no `lib/` or `include/`" in README.replace("so there is", "there is")
    assert "(docs/limitations.md)" in README
    assert (ROOT / "docs" / "limitations.md").read_text().count("\n- ") >= 5


def _sample() -> list[str]:
    block = README.split("## Quick start", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    return block.splitlines()


@pytest.mark.slow  # make run's job: a real model exported, refined, executed and compared
def test_make_run_prints_the_readme_sample(tmp_path, capsys):
    from torch_refine.tools import run

    assert run.main(["-o", str(tmp_path / "refined.mlir")]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert [line for line in printed if line in _sample()] == _sample()
