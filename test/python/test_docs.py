"""The examples in docs/python-api.md and in the README run: each ```python block, in its own
namespace."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
DOCS = (ROOT / "docs" / "python-api.md", ROOT / "README.md")


def _blocks(doc: Path) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", doc.read_text(), re.S | re.M)


# README blocks that sketch an extension file's signatures are not meant to run alone.
EXAMPLES = [
    pytest.param(doc, code, id=f"{doc.name}-block{i}")
    for doc in DOCS
    for i, code in enumerate(_blocks(doc))
    if "signature_check=False" not in code
]


@pytest.mark.parametrize(("doc", "code"), EXAMPLES)
def test_doc_example_runs(doc, code):
    exec(compile(code, str(doc), "exec"), {})


def test_python_api_has_an_example_per_function():
    text = "\n".join(_blocks(DOCS[0]))
    for function in ("export_and_import", "refine", "specialize", "execute", "compile_module"):
        assert f"torch_refine.{function}(" in text


def test_readme_shows_the_api_at_work():
    assert "torch_refine.export_and_import(" in "\n".join(_blocks(DOCS[1]))
