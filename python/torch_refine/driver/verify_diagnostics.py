"""The `--verify-diagnostics` matcher: `// expected-error @+1 {{...}}` comments against the
diagnostics a run reported. Matching follows MLIR's SourceMgrDiagnosticVerifierHandler,
including its wording for mismatches."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable

from torch_refine.ir.diagnostics import OP_NOTE_PREFIX, Diagnostic, Position, error

_EXPECTATION = re.compile(
    r"// *expected-(?P<severity>error|note|remark|warning)(?P<regex>-re)? *"
    r"(?:@(?P<offset>[+-]\d+|above|below|unknown))? *\{\{(?P<message>.*)\}\}\s*$"
)
# In an `expected-*-re` message, `{{...}}` parts are regular expressions, the rest literal.
_REGEX_PART = re.compile(r"\{\{(.*?)\}\}")


@dataclasses.dataclass
class Expectation:
    severity: str
    line: int  # the line the diagnostic must be on; 0 for @unknown
    message: str  # a substring of the diagnostic's message, as written
    written_at: Position  # the `expected-...` comment itself
    pattern: re.Pattern[str] | None = None  # for `expected-*-re`: searched in the message
    matched: bool = False

    def matches(self, message: str) -> bool:
        if self.pattern is None:
            return self.message in message
        return self.pattern.search(message) is not None


def parse_expectations(text: str, file: str) -> list[Expectation]:
    """Raises ExpectationError for an `expected-*-re` whose regular expression is invalid."""
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
        pattern = _regex_of(match["message"], written_at) if match["regex"] else None
        expectation = Expectation(match["severity"], line_number, match["message"], written_at, pattern)
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


class ExpectationError(Exception):
    """An expectation that cannot be matched against anything; carries its diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _regex_of(message: str, written_at: Position) -> re.Pattern[str]:
    """MLIR's `-re` form: literal text with `{{regex}}` parts."""
    pieces, last = [], 0
    for part in _REGEX_PART.finditer(message):
        pieces += [re.escape(message[last : part.start()]), f"(?:{part.group(1)})"]
        last = part.end()
    pieces.append(re.escape(message[last:]))
    try:
        return re.compile("".join(pieces))
    except re.error as problem:
        raise ExpectationError(error(f"invalid regex: {problem}", written_at)) from None


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
        if not _same_place(expectation, position) or not expectation.matches(diagnostic.message):
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
