"""docs/passes.md is generated from the pass registry and cannot go stale; every option of
every pass has its line of help (issue 29.4)."""

from pathlib import Path

import pytest

from torch_refine import passes
from torch_refine.driver import registry
from torch_refine.tools import pass_reference

DOC = Path(__file__).resolve().parents[2] / "docs" / "passes.md"


def test_docs_passes_md_is_the_generated_reference():
    assert DOC.read_text() == pass_reference.render(), (
        "docs/passes.md is stale: run python -m torch_refine.tools.pass_reference docs/passes.md"
    )


@pytest.mark.parametrize("name", passes.names())
def test_every_option_has_help(name):
    rows = registry.option_rows(passes.get(name))
    assert [row.flag for row in rows if not row.help] == []


@pytest.mark.parametrize("name", passes.names())
def test_every_pass_has_a_section(name):
    assert f"## `{name}`\n" in DOC.read_text()
