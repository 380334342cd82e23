"""The examples in docs/python-api.md run: each ```python block, in its own namespace."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).parents[2] / "docs" / "python-api.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", DOC.read_text(), re.S | re.M)


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_doc_example_runs(code):
    exec(compile(code, str(DOC), "exec"), {})


def test_doc_has_an_example_per_function():
    text = "\n".join(BLOCKS)
    for function in ("export_and_import", "refine", "specialize", "execute"):
        assert f"torch_refine.{function}(" in text
