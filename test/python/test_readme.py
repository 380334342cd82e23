"""The README is a one-page front door whose figures hold (issue 29.11): its Quick start is
`make run` and `make test`, its comparison figures are those of the installed wheel and the
library, its links resolve, and (model tier) its `make run` sample is what `make run` prints."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from test_docs import assert_shown, blocks

from torch_refine import passes
from torch_refine.tools import ops

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md")),
        *sorted((ROOT / "examples").glob("*/README.md"))]


def _row(label: str) -> list[str]:
    line = next(line for line in README.splitlines() if line.startswith(f"| {label} |"))
    return [cell.strip() for cell in line.strip("|").split("|")][1:]


def _at_least(text: str) -> int:
    """`44,000+` -> 44000."""
    return int(re.match(r"([\d,]+)\+", text).group(1).replace(",", ""))


def _quick_start_block(lang: str) -> str:
    start = README[: README.index("## Quick start")].count("\n") + 1
    return next(b for b in blocks(ROOT / "README.md") if b.line > start and b.lang == lang).text


def test_quick_start_is_two_commands():
    block = _quick_start_block("sh")
    assert [line.split("#")[0].strip() for line in block.splitlines()] == ["make run", "make test"]


def test_versions_are_those_pyproject_asks_for():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    asked = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    for package in ("torch", "torch-mlir", "transformers"):
        requirement = next(r for r in asked if re.match(rf"{package}\b(?!-)", r))
        specifier = requirement.removeprefix(package)
        assert f"`{package}{specifier}`" in README, f"the README does not say {package}{specifier}"


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


@pytest.mark.slow  # make run's job: a real model exported, refined, executed and compared
def test_make_run_prints_the_readme_sample(tmp_path, capsys):
    from torch_refine.tools import run

    output = tmp_path / "refined.mlir"
    assert run.main(["-o", str(output)]) == 0
    printed = capsys.readouterr().out.replace(str(output), "out/refined.mlir")
    assert_shown(_quick_start_block("text"), printed, "README.md, make run's output")


def _makefile_targets() -> set[str]:
    return set(re.findall(r"^([a-z][\w-]*):", (ROOT / "Makefile").read_text(), re.M))


@pytest.mark.parametrize("doc", DOCS, ids=[doc.name for doc in DOCS])
def test_commands_the_docs_name_come_with_the_repository(doc):
    """A contributor gets every command a doc names from the repository and its
    dependencies: Makefile targets, the package's modules and console scripts, scripts."""
    import importlib.util

    text = doc.read_text()
    scripts = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"])
    missing = [f"make {t}" for t in re.findall(r"`make ([a-z][\w-]*)", text) if t not in _makefile_targets()]
    missing += [m for m in re.findall(r"python -m (torch_refine[\w.]*)", text) if importlib.util.find_spec(m) is None]
    tools = {s for s in re.findall(r"`(torch-refine-[a-z]+)\b(?![-.])", text) if not passes.is_registered(s)}
    missing += sorted(tools - scripts)
    missing += [p for p in re.findall(r"`((?:build_tools|bench)/[\w./-]+)", text) if not (ROOT / p).exists()]
    missing += [c for c in re.findall(r"\b[Rr]un `([a-z][\w-]*)", text) if c not in ("make", "python", "lit", "git")]
    assert missing == []
