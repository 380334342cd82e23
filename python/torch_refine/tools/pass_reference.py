"""docs/passes.md, generated from the pass registry: every torch-refine pass with its
description and options (type, default, help). `python -m torch_refine.tools.pass_reference
docs/passes.md` rewrites it; test/python/test_pass_reference.py fails when it is stale."""

from __future__ import annotations

import sys

from torch_refine import passes
from torch_refine.driver import registry

HEADER = """\
# Pass reference

Generated from the pass registry by `python -m torch_refine.tools.pass_reference
docs/passes.md` (a test fails when this page is stale). Every pass runs on `builtin.module`;
options go in braces in a pipeline (`torch-refine-pipeline{explain=true}`) or after `=` on
a pass flag (`--torch-refine-pipeline=explain=true`). `torch-refine-opt --help` prints the
same. How the passes work together: [design.md](design.md); the driver: [driver.md](driver.md).
"""


def render() -> str:
    sections = [HEADER]
    for name in passes.names():
        pass_class = passes.get(name)
        lines = [f"## `{name}`", "", " ".join(pass_class.description.split()) + ".", ""]
        rows = registry.option_rows(pass_class)
        if rows:
            lines += ["| option | type | default | |", "|---|---|---|---|"]
            lines += [f"| `{row.flag}` | {row.kind} | `{row.default}` | {row.help} |" for row in rows]
        else:
            lines.append("No options.")
        sections.append("\n".join(lines) + "\n")
    return "\n".join(sections)


def main() -> None:
    text = render()
    if len(sys.argv) < 2:
        sys.stdout.write(text)
        return
    with open(sys.argv[1], "w", encoding="utf-8") as file:
        file.write(text)


if __name__ == "__main__":
    main()
