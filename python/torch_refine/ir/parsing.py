"""Reading MLIR the way mlir-opt does, and turning parse errors into located diagnostics.

`parse_source` is what torch-refine-opt, `make run` and the API share: one top-level
`module` is the module, anything else is wrapped in an implicit one, and every location
names the source (a bare `Module.parse` names the buffer `-`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from torch_mlir import ir

from torch_refine.errors import RefinementError
from torch_refine.ir import diagnostics
from torch_refine.ir.context import create_context

DEFAULT_SOURCE_NAME = "<refine>"

# MLIR's parser recurses once per nested region: past about 4,000 levels it overflows the C
# stack and the process dies. Deeper input is refused before parsing.
MAX_NESTING = 2000
# Braces, skipping those in strings and comments.
_BRACES = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|[{}]')
_OP_NAME = re.compile(r"\b([a-z_][\w$]*\.[\w$.]+)")


def nesting_too_deep(text: str, file: str) -> diagnostics.Diagnostic | None:
    """An error at the brace that opens level MAX_NESTING + 1 of `text`, or at the `<` that
    opens type level MAX_NESTING + 1 (the type parser recurses per level too), naming the
    op on its line; None when the text nests no deeper (a scan, no parse)."""
    if text.count("<") > MAX_NESTING and (too_deep := _types_too_deep(text, file)) is not None:
        return too_deep
    if text.count("{") <= MAX_NESTING:  # too few braces to nest that deep: skip the scan
        return None
    depth = 0
    line_start = 0
    for line in text.split("\n"):  # no string or comment spans lines
        code = line.lstrip()  # indentation grows with depth (quadratic text): not scanned
        if "{" in code or "}" in code:
            code_start = line_start + len(line) - len(code)
            for token in _BRACES.finditer(code):
                brace = token.group()
                if brace == "}":
                    depth -= 1
                elif brace == "{":
                    depth += 1
                    if depth > MAX_NESTING:
                        return _nesting_error(text, code_start + token.start(), file)
        line_start += len(line) + 1
    return None


# Angle brackets, skipping strings, comments and the arrows of function types and maps.
_ANGLES = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|->|[<>]')


def _types_too_deep(text: str, file: str) -> diagnostics.Diagnostic | None:
    depth = 0
    for token in _ANGLES.finditer(text):
        bracket = token.group()
        if bracket == ">":
            depth = max(depth - 1, 0)
        elif bracket == "<":
            depth += 1
            if depth > MAX_NESTING:
                return _nesting_error(text, token.start(), file, "nested types")
    return None


def _nesting_error(text: str, offset: int, file: str, what: str = "nested regions") -> diagnostics.Diagnostic:
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    line_text = text[line_start : line_end if line_end >= 0 else len(text)]
    position = diagnostics.Position(file, text.count("\n", 0, offset) + 1, offset - line_start + 1)
    op = _OP_NAME.search(line_text)
    subject = f"'{op.group(1)}' op " if op is not None else ""
    return diagnostics.error(f"{subject}nesting too deep: more than {MAX_NESTING} {what}", position)


def parse_source(
    text: str,
    source_name: str,
    implicit_module_at: tuple[int, int] = (0, 0),
    before_retry: Callable[[], None] | None = None,
):
    """Parse like mlir-opt: one top-level `module` is the module, anything else is wrapped.

    `Operation.parse` knows the file name but wraps nothing and verifies top-level ops in
    isolation (a `func.call` to a sibling fails); `Module.parse` wraps but names the
    buffer `-`. Use the first for a lone explicit module, else the second and rename
    locations (the implicit module's to `implicit_module_at`, line and column).
    `before_retry` runs before the second parse, whose diagnostics are the ones mlir-opt
    gives. Returns an OpView or a Module: keep it alive while using `.operation`.
    """
    if _starts_with_module(text):
        try:
            parsed = ir.Operation.parse(text, source_name=source_name)
            if parsed.operation.name == "builtin.module":
                return parsed
        except ir.MLIRError:
            pass  # parse again below
        if before_retry is not None:
            before_retry()
    module = ir.Module.parse(text)
    _rename_unnamed_locations(module.operation, source_name, implicit_module_at)
    return module


def _starts_with_module(text: str) -> bool:
    """Whether the first top-level op (after comments and alias definitions) is a `module`.
    Only then is a first parse worth trying: each parse interns the text's resources, and
    a second one renames them (`weights` becomes `weights_1`)."""
    for line in text.splitlines():
        stripped = line.lstrip()
        if not stripped or stripped.startswith(("//", "#", "!")):
            continue
        return stripped.startswith(("module", '"builtin.module"'))
    return False


def as_module(module) -> ir.Module:
    """The module to work on: an `ir.Module` or `builtin.module` op (checked for the Torch
    dialect), anything
    holding one as `.module` (a `Refined`), or IR as text or bytes (text or MLIR
    bytecode), parsed in a new context. Raises TypeError for anything else and
    RefinementError for IR that does not parse."""
    module = getattr(module, "module", module)
    if isinstance(module, ir.Module) or _is_module_op(module):
        if not module.context.is_registered_operation("torch.constant.int"):
            raise RefinementError(
                "the module's context has no Torch dialect registered: parse the IR in "
                "torch_refine.ir.context.create_context(), or pass it as text"
            )
        return module
    if not isinstance(module, str | bytes | bytearray):
        raise TypeError(
            f"expected a torch_mlir.ir.Module, a Refined, or IR as str or bytes, "
            f"not {type(module).__name__}"
        )
    if isinstance(module, str) and (too_deep := nesting_too_deep(module, DEFAULT_SOURCE_NAME)):
        sources = {DEFAULT_SOURCE_NAME: module.splitlines()}
        raise RefinementError("invalid IR", diagnostics.format_diagnostic(too_deep, sources))
    try:
        source = bytes(module) if isinstance(module, bytearray) else module
        return ir.Module.parse(source, create_context())  # wraps bare functions in a module
    except ir.MLIRError as error:
        text = module if isinstance(module, str) else None
        raise RefinementError("invalid IR", format_error(error, text)) from None


def _is_module_op(value) -> bool:
    """A `builtin.module` op (what `parse_source` returns for an explicit module)."""
    operation = getattr(value, "operation", None)
    return isinstance(operation, ir.Operation) and operation.name == "builtin.module"


def format_error(error: ir.MLIRError, source: str | None = None,
                 source_name: str = DEFAULT_SOURCE_NAME) -> str:
    """The diagnostics of `error`, locations in the unnamed buffer named `source_name`,
    with source lines when the text is given."""
    sources = {source_name: source.splitlines()} if source is not None else {}
    found = [diagnostics.from_mlir(d, source_name) for d in error.error_diagnostics]
    return "".join(diagnostics.format_diagnostic(d, sources) for d in found)


def _rename_unnamed_locations(module_op: ir.Operation, source_name: str, implicit_at) -> None:
    def renamed(location: ir.Location) -> ir.Location | None:
        if not isinstance(location, ir.FileLineColLoc):
            return None
        if location.filename != diagnostics.UNNAMED_BUFFER:
            return None
        if location.start_line == 0:  # the implicit module
            return ir.Location.file(source_name, *implicit_at)
        return ir.Location.file(source_name, location.start_line, location.start_col)

    def visit(op: ir.Operation) -> ir.WalkResult:
        if (location := renamed(op.location)) is not None:
            op.location = location
        for argument in _block_arguments(op):
            if (location := renamed(argument.location)) is not None:
                argument.set_location(location)
        return ir.WalkResult.ADVANCE

    module_op.walk(visit)


def _block_arguments(op: ir.Operation):
    for region in op.regions:
        for block in region.blocks:
            yield from block.arguments
