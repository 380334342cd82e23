"""The error every entry point of the API raises for bad input or a failing pass, and the
warning passes give for a finding that does not stop them."""

from __future__ import annotations


class RefinementError(Exception):
    """Bad IR or a failing pass. `diagnostics` are `file:line:col: error: ...` lines;
    `reproducer` is the path of the input IR saved for `torch-refine-opt` after an internal
    error (never for a diagnosed error in the input), else None."""

    def __init__(self, message: str, diagnostics_text: str = "", reproducer=None):
        details = f"{message}\n{diagnostics_text}".rstrip()
        path = None
        if reproducer is not None:
            path, command = reproducer
            details += (f"\nthis is a bug in torch-refine; the input IR is saved in {path} "
                        f"(remove it when done); reproduce with:\n  {command}")
        super().__init__(details)
        self.diagnostics = diagnostics_text
        self.reproducer = path


class RefinementWarning(UserWarning):
    """A located finding that does not stop refinement (an op that fails its check in a
    branch or loop body the program may never run). `position` is (file, line, col) or None;
    `text` is the message without it. `torch-refine-opt` prints it as a `warning:`
    diagnostic."""

    def __init__(self, text: str, position=None):
        where = f"{position[0]}:{position[1]}:{position[2]}: " if position is not None else ""
        super().__init__(f"{where}warning: {text}")
        self.text = text
        self.position = position


class PassFailure(Exception):
    """Raised by a pass, or the engine under it, after it has emitted its diagnostics."""
