"""Diagnostics as mlir-opt shows them.

Formatting follows MLIR's SourceMgrDiagnosticHandler: `file:line:col: error: message`,
the source line with a caret, then `note:` lines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

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
OP_NOTE_PREFIX = "see current operation:"


class Position(NamedTuple):
    file: str
    line: int
    col: int


class Diagnostic(NamedTuple):
    severity: str  # error, warning, remark or note
    position: Position | None  # None: no file location
    message: str
    notes: tuple[Diagnostic, ...] = ()
    width: int = 1  # columns to underline, as `^~~~`
    name: str | None = None  # without a position, the location's name (an ONNX node's)


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


def name_of(location: ir.Location) -> str | None:
    """The first name in `location` (torch-mlir's ONNX importer locates each op by its
    node's name only), or None."""
    pending = [location]
    while pending:
        location = pending.pop()
        if type(location) is ir.Location:
            location = ir.Location.from_attr(location.attr, location.context)
        if isinstance(location, ir.NameLoc):
            return location.name_str
        if isinstance(location, ir.CallSiteLoc):
            pending.append(location.callee)
        elif isinstance(location, ir.FusedLoc):
            pending.extend(reversed(list(location.locations)))
    return None


def from_mlir(diagnostic, unnamed_file: str | None = None) -> Diagnostic:
    """Copy an ir.Diagnostic or ir.DiagnosticInfo, which may not outlive its callback."""
    position = position_of(diagnostic.location, unnamed_file)
    return Diagnostic(
        _SEVERITY_NAMES[diagnostic.severity],
        position,
        diagnostic.message,
        tuple(from_mlir(note, unnamed_file) for note in diagnostic.notes),
        name=None if position is not None else name_of(diagnostic.location),
    )


def error(message: str, position: Position | None = None, width: int = 1) -> Diagnostic:
    return Diagnostic("error", position, message, width=width)


def format_diagnostic(diagnostic: Diagnostic, sources: Mapping[str, Sequence[str]]) -> str:
    """`sources` maps file names to their lines, for the source line and caret."""
    text = _format_one(diagnostic, sources, show_source=True)
    for note in diagnostic.notes:
        text += _format_one(note, sources, show_source=note.position != diagnostic.position)
    return text


def _format_one(diagnostic: Diagnostic, sources: Mapping[str, Sequence[str]], show_source: bool):
    position = diagnostic.position
    if position is None:
        where = "<unknown>:0" if diagnostic.name is None else f'loc("{diagnostic.name}")'
        return f"{where}: {diagnostic.severity}: {diagnostic.message}\n"
    head = f"{position.file}:{position.line}:{position.col}: {diagnostic.severity}: "
    text = head + diagnostic.message + "\n"
    lines = sources.get(position.file, ())
    if not show_source or not 0 < position.line <= len(lines):
        return text
    underline = "^" + "~" * (diagnostic.width - 1)
    # tabs expanded to stops of 8, as LLVM's SourceMgr prints them, so the caret lines up
    line = lines[position.line - 1]
    indent = len(line[: position.col - 1].expandtabs(8))
    return text + line.expandtabs(8) + "\n" + " " * indent + underline + "\n"
