"""Diagnostics as mlir-opt shows them, and the `--verify-diagnostics` matcher.

Formatting follows MLIR's SourceMgrDiagnosticHandler: `file:line:col: error: message`,
the source line with a caret, then `note:` lines. Matching follows
SourceMgrDiagnosticVerifierHandler, including its wording for mismatches.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence

from torch_mlir import ir

# What the MLIR bindings name a buffer parsed without a source name (ir.Module.parse).
UNNAMED_BUFFER = "-"

_SEVERITY_NAMES = {
    ir.DiagnosticSeverity.ERROR: "error",
    ir.DiagnosticSeverity.WARNING: "warning",
    ir.DiagnosticSeverity.REMARK: "remark",
    ir.DiagnosticSeverity.NOTE: "note",
}
# MLIR attaches this note to a diagnostic on an op; mlir-opt turns it off when verifying.
_OP_NOTE_PREFIX = "see current operation:"


@dataclasses.dataclass(frozen=True)
class Position:
    file: str
    line: int
    col: int


@dataclasses.dataclass(frozen=True)
class Diagnostic:
    severity: str  # error, warning, remark or note
    position: Position | None  # None: no file location
    message: str
    notes: tuple[Diagnostic, ...] = ()
    width: int = 1  # columns to underline, as `^~~~`


def position_of(location: ir.Location, unnamed_file: str | None = None) -> Position | None:
    """The file position MLIR would show for `location`; `unnamed_file` renames `-`.
    Nested locations are searched depth-first with a stack (input IR can nest them deeply)."""
    pending = [location]
    while pending:
        location = pending.pop()
        if type(location) is ir.Location:  # ir.DiagnosticInfo gives the base class: downcast
            location = ir.Location.from_attr(location.attr, location.context)
        if isinstance(location, ir.FileLineColLoc):
            file = location.filename
            if file == UNNAMED_BUFFER and unnamed_file is not None:
                file = unnamed_file
            return Position(file, location.start_line, location.start_col)
        if isinstance(location, ir.NameLoc):
            pending.append(location.child_loc)
        elif isinstance(location, ir.CallSiteLoc):
            pending.append(location.callee)
        elif isinstance(location, ir.FusedLoc):
            pending.extend(reversed(list(location.locations)))
    return None


def from_mlir(diagnostic, unnamed_file: str | None = None) -> Diagnostic:
    """Copy an ir.Diagnostic or ir.DiagnosticInfo, which may not outlive its callback."""
    return Diagnostic(
        _SEVERITY_NAMES[diagnostic.severity],
        position_of(diagnostic.location, unnamed_file),
        diagnostic.message,
        tuple(from_mlir(note, unnamed_file) for note in diagnostic.notes),
    )


def error(message: str, position: Position | None = None, width: int = 1) -> Diagnostic:
    return Diagnostic("error", position, message, width=width)


# MLIR's parser recurses once per nested region: past about 4,000 levels it overflows the C
# stack and the process dies. Deeper input is refused before parsing.
MAX_NESTING = 2000
# Braces, skipping those in strings and comments.
_BRACES = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|[{}]')
_OP_NAME = re.compile(r"\b([a-z_][\w$]*\.[\w$.]+)")


def nesting_too_deep(text: str, file: str) -> Diagnostic | None:
    """An error at the brace that opens level MAX_NESTING + 1 of `text`, naming the op on
    its line; None when the text nests no deeper (a scan, no parse)."""
    depth = 0
    for token in _BRACES.finditer(text):
        brace = token.group()
        if brace == "}":
            depth -= 1
        elif brace == "{":
            depth += 1
            if depth > MAX_NESTING:
                return _nesting_error(text, token.start(), file)
    return None


def _nesting_error(text: str, offset: int, file: str) -> Diagnostic:
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    line_text = text[line_start : line_end if line_end >= 0 else len(text)]
    position = Position(file, text.count("\n", 0, offset) + 1, offset - line_start + 1)
    op = _OP_NAME.search(line_text)
    subject = f"'{op.group(1)}' op " if op is not None else ""
    return error(f"{subject}nesting too deep: more than {MAX_NESTING} nested regions", position)


def format_diagnostic(diagnostic: Diagnostic, sources: Mapping[str, Sequence[str]]) -> str:
    """`sources` maps file names to their lines, for the source line and caret."""
    text = _format_one(diagnostic, sources, show_source=True)
    for note in diagnostic.notes:
        text += _format_one(note, sources, show_source=note.position != diagnostic.position)
    return text


def _format_one(diagnostic: Diagnostic, sources: Mapping[str, Sequence[str]], show_source: bool):
    position = diagnostic.position
    if position is None:
        return f"<unknown>:0: {diagnostic.severity}: {diagnostic.message}\n"
    head = f"{position.file}:{position.line}:{position.col}: {diagnostic.severity}: "
    text = head + diagnostic.message + "\n"
    lines = sources.get(position.file, ())
    if not show_source or not 0 < position.line <= len(lines):
        return text
    underline = "^" + "~" * (diagnostic.width - 1)
    return text + lines[position.line - 1] + "\n" + " " * (position.col - 1) + underline + "\n"


# --- --verify-diagnostics ----------------------------------------------------------------

_EXPECTATION = re.compile(
    r"// *expected-(?P<severity>error|note|remark|warning) *"
    r"(?:@(?P<offset>[+-]\d+|above|below|unknown))? *\{\{(?P<message>.*)\}\}\s*$"
)


@dataclasses.dataclass
class Expectation:
    severity: str
    line: int  # the line the diagnostic must be on; 0 for @unknown
    message: str  # a substring of the diagnostic's message
    written_at: Position  # the `expected-...` comment itself
    matched: bool = False


def parse_expectations(text: str, file: str) -> list[Expectation]:
    expectations: list[Expectation] = []
    waiting_for_next_line: list[Expectation] = []
    last_plain_line = 0
    for line_number, line in enumerate(text.splitlines(), start=1):
        match = _EXPECTATION.search(line)
        if match is None:
            for expectation in waiting_for_next_line:
                expectation.line = line_number
            waiting_for_next_line = []
            last_plain_line = line_number
            continue
        column = match.start("severity") - len("expected-") + 1
        written_at = Position(file, line_number, column)
        expectation = Expectation(match["severity"], line_number, match["message"], written_at)
        offset = match["offset"] or ""
        if offset == "unknown":
            expectation.line = 0
        elif offset == "above":
            expectation.line = last_plain_line
        elif offset == "below":
            waiting_for_next_line.append(expectation)
        elif offset:
            expectation.line = line_number + int(offset)
        expectations.append(expectation)
    return expectations


def verify(expectations: list[Expectation], diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Match diagnostics (and their notes) to expectations; return errors for mismatches."""
    problems: list[Diagnostic] = []
    for diagnostic in _flatten(diagnostics):
        problem = _match(expectations, diagnostic)
        if problem is not None:
            problems.append(problem)
    for expectation in expectations:
        if not expectation.matched:
            message = f'expected {expectation.severity} "{expectation.message}" was not produced'
            width = len(expectation.message)  # as mlir-opt, though the range starts early
            problems.append(error(message, expectation.written_at, width))
    return problems


def _flatten(diagnostics: Iterable[Diagnostic]) -> Iterable[Diagnostic]:
    for diagnostic in diagnostics:
        yield diagnostic
        notes = diagnostic.notes
        yield from (note for note in notes if not note.message.startswith(_OP_NOTE_PREFIX))


def _match(expectations: list[Expectation], diagnostic: Diagnostic) -> Diagnostic | None:
    position = diagnostic.position
    near_miss = None
    for expectation in expectations:
        if not _same_place(expectation, position) or expectation.message not in diagnostic.message:
            continue
        if expectation.severity == diagnostic.severity:
            expectation.matched = True
            return None
        near_miss = expectation
    if near_miss is not None:
        message = (
            f"'{diagnostic.severity}' diagnostic emitted when expecting a '{near_miss.severity}'"
        )
        return error(message, near_miss.written_at)  # mlir-opt underlines nothing here
    message = f"unexpected {diagnostic.severity}: {diagnostic.message}"
    return error(message, position)


def _same_place(expectation: Expectation, position: Position | None) -> bool:
    if position is None:
        return expectation.line == 0
    return position.file == expectation.written_at.file and position.line == expectation.line
