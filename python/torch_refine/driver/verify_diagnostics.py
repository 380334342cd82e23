"""The `--verify-diagnostics` matcher: `// expected-error @+1 {{...}}` comments against the
diagnostics a run reported. Matching follows MLIR's SourceMgrDiagnosticVerifierHandler,
including its wording for mismatches."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable

from torch_refine.ir.diagnostics import OP_NOTE_PREFIX, Diagnostic, Position, error

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


def verify(
    expectations: list[Expectation], diagnostics: Iterable[Diagnostic], only_expected: bool = False
) -> list[Diagnostic]:
    """Match diagnostics (and their notes) to expectations; return errors for mismatches
    (with `only_expected`, for expectations not met only)."""
    problems: list[Diagnostic] = []
    for diagnostic in _flatten(diagnostics):
        problem = _match(expectations, diagnostic)
        if problem is not None and not only_expected:
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
        yield from (note for note in notes if not note.message.startswith(OP_NOTE_PREFIX))


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
