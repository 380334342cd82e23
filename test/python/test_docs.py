"""Every example of the docs runs and prints what the doc shows (issue 43).

A doc's fenced blocks, by their info string:
- ```` ```python ````: run in its own namespace; what it prints must be the ```` ```text ````
  block right after it (only blank lines between), or nothing when none follows.
- ```` ```console ````: each `$ command` runs in bash from the repository root (the
  environment's console scripts first on PATH); its output, stdout and stderr together, must
  be the lines under it.
- ```` ```lang file=PATH ````: an excerpt of that file of the repository.
- ```` ```lang checked-by=FILE::TEST ````: compared by that test of test/python/ (the README's
  `make run` sample, a lit configuration run as a suite).
In shown output a line `...` stands for any lines and `...` within a line for any text:
only what must vary (timings, temporary paths, long IR) is elided.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md")),
        *sorted((ROOT / "examples").glob("*/README.md"))]
PYTHON_API, README = ROOT / "docs" / "python-api.md", ROOT / "README.md"

# Blocks no test compares, each with the reason; anything else unhandled fails.
NOT_RUN = {
    ("docs/corpus.md", "text"): "measurements that make corpus and make onnx-corpus print, dated in the doc",
    ("docs/backends.md", "sh"): "the reader's own model.mlir and model.onnx (outside issue 43's doc files)",
    ("docs/backends.md", "python"): "the reader's own model and inputs (outside issue 43's doc files)",
    ("docs/library.md", "python"): "library function sources to paste and adapt, as library/*.py holds them",
    ("docs/symbolic-dims.md", "mlir"): "an excerpt of IR the text explains; the console run below refines it",
}


class Block(NamedTuple):
    doc: Path
    line: int  # 1-based line of the opening fence
    end: int  # line of the closing fence
    lang: str
    info: dict[str, str]
    text: str  # without the fence's indentation

    @property
    def where(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}"


_FENCE = re.compile(r"^( *)```(\S*)(.*)$")


def blocks(doc: Path) -> list[Block]:
    lines = doc.read_text().splitlines()
    found, index = [], 0
    while index < len(lines):
        if (opening := _FENCE.match(lines[index])) is None:
            index += 1
            continue
        indent = len(opening.group(1))
        end = next(i for i in range(index + 1, len(lines)) if lines[i].strip() == "```")
        text = "".join(line[indent:] + "\n" for line in lines[index + 1 : end])
        info = dict(item.partition("=")[::2] for item in opening.group(3).split())
        found.append(Block(doc, index + 1, end + 1, opening.group(2), info, text))
        index = end + 1
    return found


def _pattern(shown: str) -> str:
    parts = []
    for line in shown.rstrip("\n").splitlines():
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
            continue
        parts.append(".*?".join(re.escape(piece) for piece in line.rstrip().split("...")) + r"\n")
    return "".join(parts)


def _normalized(text: str) -> str:
    return "".join(line.rstrip() + "\n" for line in text.rstrip("\n").splitlines()) if text.strip() else ""


def assert_shown(shown: str, printed: str, where: str) -> None:
    if re.fullmatch(_pattern(shown), _normalized(printed)):
        return
    pytest.fail(f"{where}: the doc shows\n{shown}\nbut the example prints\n{printed}")


def _output_block(block: Block, all_blocks: list[Block]) -> Block | None:
    """The ```text block right after a python block, only blank lines between."""
    following = [b for b in all_blocks if b.line > block.end]
    if not following or following[0].lang != "text" or following[0].info:
        return None
    between = block.doc.read_text().splitlines()[block.end : following[0].line - 1]
    return following[0] if not any(line.strip() for line in between) else None


def _examples():
    for doc in DOCS:
        found = blocks(doc)
        outputs = {output.line for b in found if b.lang == "python" if (output := _output_block(b, found))}
        for block in found:
            if block.line in outputs:
                continue  # compared with its python block
            yield pytest.param(block, found, id=block.where)


EXAMPLES = list(_examples())


@pytest.mark.parametrize(("block", "siblings"), EXAMPLES)
def test_doc_example(block: Block, siblings: list[Block]):
    if (reason := NOT_RUN.get((str(block.doc.relative_to(ROOT)), block.lang))) is not None:
        pytest.skip(reason)
    if "file" in block.info:
        _check_excerpt(block)
    elif "checked-by" in block.info:
        _check_checker(block)
    elif block.lang == "python":
        _run_python(block, _output_block(block, siblings))
    elif block.lang == "console":
        _run_console(block)
    else:
        pytest.fail(f"{block.where}: a ```{block.lang} block no test runs: make it `console` with its "
                    "output, name the file it shows (file=) or the test that compares it (checked-by=)")


def _check_excerpt(block: Block) -> None:
    source = _normalized((ROOT / block.info["file"]).read_text())
    assert re.search("(?m)^" + _pattern(block.text), source), f"{block.where} is not an excerpt of {block.info['file']}"


def _check_checker(block: Block) -> None:
    file, _, test = block.info["checked-by"].partition("::")
    assert f"def {test}(" in (ROOT / "test" / "python" / file).read_text(), f"{block.where}: no {file}::{test}"


def _run_python(block: Block, output: Block | None) -> None:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block.text, block.where, "exec"), {})
    assert_shown(output.text if output else "", printed.getvalue(), block.where)


def commands(text: str) -> list[tuple[str, str]]:
    """(command, the output shown under it) for each `$ ` line; a command goes on over lines
    after a `\\` and to the end of a here-document (`<<'EOF'`)."""
    found: list[tuple[str, list[str]]] = []
    going_on, ending = False, None
    for line in text.splitlines():
        if going_on:
            found[-1] = (f"{found[-1][0]}\n{line}", [])
            ending = None if line == ending else ending
        elif line.startswith("$ "):
            found.append((line[2:], []))
            ending = heredoc.group(1) if (heredoc := _HEREDOC.search(line)) else None
        else:
            found[-1][1].append(line)
        going_on = ending is not None or (line.endswith("\\") and not found[-1][1])
    return [(command, "".join(f"{line}\n" for line in shown)) for command, shown in found]


_HEREDOC = re.compile(r"<<-?'?(\w+)'?")


def _run_console(block: Block) -> None:
    scripts = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{scripts}{os.pathsep}{os.environ.get('PATH', '')}",
           "PYTHONPATH": str(ROOT / "python")}
    for command, shown in commands(block.text):
        run = subprocess.run(["bash", "-c", command], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, timeout=300, check=False)
        assert_shown(shown, run.stdout, f"{block.where}: $ {command}")


def test_the_matcher_elides_only_where_the_doc_says():
    assert re.fullmatch(_pattern("a\n...\nz ... s\n"), "a\nb\nc\nz 1.2 s\n")
    assert not re.fullmatch(_pattern("a\nz\n"), "a\nb\nz\n")
    assert not re.fullmatch(_pattern("x ... s\n"), "x 1\n2 s\n")
    assert commands("$ a \\\n  b\nout\n$ c\n") == [("a \\\n  b", "out\n"), ("c", "")]
    assert commands("$ cat <<'EOF'\nx\nEOF\nx\n") == [("cat <<'EOF'\nx\nEOF", "x\n")]


def test_python_api_has_an_example_per_function():
    text = "\n".join(b.text for b in blocks(PYTHON_API) if b.lang == "python")
    for function in ("export_and_import", "refine", "specialize", "execute", "compile_module"):
        assert f"torch_refine.{function}(" in text


def test_readme_shows_the_api_at_work():
    assert "torch_refine.export_and_import(" in "\n".join(b.text for b in blocks(README) if b.lang == "python")
