"""Parse `builtin.module(a,b{k=v},func.func(cse))` pipeline text and route its elements.

Elements naming a torch-refine pass (or a third-party one, `registry`) become `PythonStage`s; runs of consecutive other
elements become one `TextStage`, the exact substring of the pipeline text, which MLIR's
own parser receives. Keeping source offsets lets every error point at its column.
"""

from __future__ import annotations

import re
import typing
from typing import NamedTuple

from torch_refine.driver import registry
from torch_refine.passes.base import FILE_OPTIONS, ModulePass

ROOT_ANCHOR = "builtin.module"
ANY_ANCHOR = "any"
_DELIMITERS = "(){},"


class PipelineError(ValueError):
    """A bad pipeline: `message` about the 1-based `column` of `text`."""

    def __init__(self, message: str, column: int, text: str, notes: tuple[str, ...] = ()):
        super().__init__(message)
        self.message = message
        self.column = column
        self.text = text
        self.notes = notes

    def format(self) -> str:
        caret = " " * (self.column - 1) + "^"
        lines = [f"<pass-pipeline>:1:{self.column}: error: {self.message}", self.text, caret]
        lines += [f"<pass-pipeline>:1:{self.column}: note: {note}" for note in self.notes]
        return "\n".join(lines) + "\n"


class PipelineElement(NamedTuple):
    name: str
    options: str | None  # the text between braces; None without braces
    nested: tuple[PipelineElement, ...] | None  # the sub-pipeline of an op anchor
    start: int  # offset of the name in the pipeline text
    end: int  # offset just past the element


class PassPipeline(NamedTuple):
    text: str
    elements: tuple[PipelineElement, ...]


class TextStage(NamedTuple):
    """Consecutive elements for MLIR's registry, as one slice of the pipeline text."""

    text: str
    elements: tuple[PipelineElement, ...]


class PythonStage(NamedTuple):
    element: PipelineElement
    pass_instance: ModulePass


Stage = TextStage | PythonStage


def pipeline_text_from_flags(flags: list[tuple[str, str | None]]) -> str:
    """The pipeline equivalent to `--<name>[=options]` flags given in this order."""
    elements = [name if options is None else f"{name}{{{options}}}" for name, options in flags]
    return f"{ROOT_ANCHOR}({','.join(elements)})"


def parse(text: str) -> PassPipeline:
    parser = _Parser(text)
    anchor_start = parser.skip_space()
    anchor = parser.name()
    # `any(...)` on the input's top-level module runs what `builtin.module(...)` runs
    if anchor not in (ROOT_ANCHOR, ANY_ANCHOR) or not parser.peek("("):
        raise parser.error(
            f"expected pass pipeline to be wrapped with the anchor operation type, "
            f"e.g. '{ROOT_ANCHOR}(...)'",
            anchor_start,
        )
    elements = parser.nested_elements()
    parser.skip_space()
    if parser.pos != len(text):
        raise parser.error("unexpected text after the pass pipeline", parser.pos)
    return PassPipeline(text, elements)


def file_options(pipeline: PassPipeline) -> list[tuple[str, str, str]]:
    """(pass, option, value) of each option that reads or runs a file (`FILE_OPTIONS`) set
    in the pipeline."""
    found = []
    for stage in plan(pipeline):
        if not isinstance(stage, PythonStage):
            continue
        for field in stage.pass_instance.options():
            value = getattr(stage.pass_instance, field.name)
            if field.name in FILE_OPTIONS and value != field.default:
                found.append((stage.pass_instance.name, field.name.replace("_", "-"), value))
    return found


def plan(pipeline: PassPipeline) -> list[Stage]:
    stages: list[Stage] = []
    text_run: list[PipelineElement] = []
    for element in pipeline.elements:
        if not registry.is_registered(element.name):
            _reject_nested_python_passes(pipeline.text, element)
            text_run.append(element)
            continue
        if text_run:
            stages.append(_text_stage(pipeline.text, text_run))
            text_run = []
        stages.append(PythonStage(element, _instantiate(pipeline.text, element)))
    if text_run:
        stages.append(_text_stage(pipeline.text, text_run))
    return stages


def error_from_mlir(pipeline_text: str, stage: TextStage, error: ValueError) -> PipelineError:
    """Re-anchor the ValueError of `PassManager.add(stage.text)` on the full pipeline text."""
    stage_start = stage.elements[0].start
    message = str(error)
    located = re.search(r"Parser:1:(\d+): error: ([^\n]*)", message)
    if located is not None:
        return PipelineError(located.group(2), stage_start + int(located.group(1)), pipeline_text)
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    culprit = re.search(r"failed to add `([^`]*)`", message)
    column = stage_start + 1
    if culprit is not None:
        named = [e for e in _flatten(stage.elements) if e.name == culprit.group(1)]
        column = named[0].start + 1 if named else column
    head = lines[0].removeprefix("<Pass-Options-Parser>: ") if lines else "invalid pass pipeline"
    return PipelineError(head, column, pipeline_text, tuple(lines[1:]))


def _text_stage(text: str, elements: list[PipelineElement]) -> TextStage:
    return TextStage(text[elements[0].start : elements[-1].end], tuple(elements))


def _reject_nested_python_passes(text: str, element: PipelineElement) -> None:
    for child in _flatten(element.nested or ()):
        if registry.is_registered(child.name):
            raise PipelineError(
                f"torch-refine pass '{child.name}' cannot be nested under '{element.name}': "
                f"torch-refine passes run on '{ROOT_ANCHOR}'",
                child.start + 1,
                text,
            )


def _flatten(elements: tuple[PipelineElement, ...]):
    for element in elements:
        yield element
        yield from _flatten(element.nested or ())


def _instantiate(text: str, element: PipelineElement) -> ModulePass:
    try:
        pass_class = registry.get(element.name)
    except registry.PluginError as error:
        raise PipelineError(str(error), element.start + 1, text) from None
    if element.nested is not None:
        raise PipelineError(
            f"'{element.name}' is a pass, not an operation anchor", element.start + 1, text
        )
    fields = {field.name.replace("_", "-"): field for field in pass_class.options()}
    hints = typing.get_type_hints(pass_class)
    kwargs = {}
    for key, value in split_options(element.options or ""):
        field = fields.get(key.replace("_", "-"))
        if field is None:
            valid = ", ".join(sorted(fields)) or "none"
            raise PipelineError(
                f"no such option '{key}' for pass '{element.name}'; valid options: {valid}",
                element.start + 1,
                text,
            )
        if field.name in kwargs:  # as MLIR: a later occurrence must not silently win
            raise PipelineError(
                f"option '{key}' of pass '{element.name}' is given more than once",
                element.start + 1,
                text,
            )
        kwargs[field.name] = _convert(text, element, key, value, hints[field.name])
    return pass_class(**kwargs)


def _convert(text: str, element: PipelineElement, key: str, value: str | None, kind: type):
    if kind is bool and value in (None, "true", "1"):
        return True
    if kind is bool and value in ("false", "0"):
        return False
    try:
        if value is not None and kind in (int, float, str):
            return kind(value)
    except ValueError:
        pass
    raise PipelineError(
        f"invalid value {value!r} for option '{key}' of pass '{element.name}': "
        f"expected {getattr(kind, '__name__', kind)}",
        element.start + 1,
        text,
    )


def split_options(options: str) -> list[tuple[str, str | None]]:
    """`k=v k2="a b" k3='x"y' flag` -> [(k, v), (k2, a b), (k3, x"y), (flag, None)], as
    MLIR's option parser splits them: spaces separate options except inside quotes or
    braces, and one pair of quotes around a whole value is removed."""
    pairs = []
    pos = 0
    while (pos := _skip_spaces(options, pos)) < len(options):
        end = _option_end(options, pos)
        key, sep, value = options[pos:end].partition("=")
        pairs.append((key, _unquote(value) if sep else None))
        pos = end
    return pairs


def quote_option_value(value: str) -> str:
    """`value` quoted so that `split_options` reads it back unchanged, as one value.
    Raises ValueError for a value that no quoting expresses (both kinds of quote)."""
    for quote in ('"', "'"):
        if quote not in value:
            return f"{quote}{value}{quote}"
    raise ValueError(f"option value {value!r} contains both '\"' and \"'\": it cannot be quoted")


def _skip_spaces(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def _option_end(text: str, pos: int) -> int:
    """The offset just past the option starting at `pos`: its first space outside quotes
    and braces (an unclosed quote is an ordinary character, as in MLIR)."""
    depth = 0
    while pos < len(text) and (depth or not text[pos].isspace()):
        char = text[pos]
        if char in "\"'" and (close := text.find(char, pos + 1)) != -1:
            pos = close
        elif char == "{":
            depth += 1
        elif char == "}" and depth:
            depth -= 1
        pos += 1
    return pos


def _unquote(value: str) -> str:
    for open_char, close_char in ('""', "''", "{}"):
        if len(value) >= 2 and value[0] == open_char and value[-1] == close_char:
            return value[1:-1].strip()
    return value


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def error(self, message: str, offset: int) -> PipelineError:
        return PipelineError(message, offset + 1, self.text)

    def skip_space(self) -> int:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1
        return self.pos

    def peek(self, char: str) -> bool:
        self.skip_space()
        return self.text.startswith(char, self.pos)

    def name(self) -> str:
        start = self.skip_space()
        while self.pos < len(self.text) and not self._at_delimiter():
            self.pos += 1
        if self.pos == start:
            raise self.error("expected pass or pipeline name", start)
        return self.text[start : self.pos]

    def _at_delimiter(self) -> bool:
        char = self.text[self.pos]
        return char in _DELIMITERS or char.isspace()

    def nested_elements(self) -> tuple[PipelineElement, ...]:
        open_paren = self.pos
        self.pos += 1
        if self.peek(")"):
            self.pos += 1
            return ()
        elements = [self.element()]
        while self.peek(","):
            self.pos += 1
            elements.append(self.element())
        if not self.peek(")"):
            if self.pos == len(self.text):
                raise self.error("encountered unbalanced parentheses in pipeline", open_paren)
            raise self.error("expected ',' or ')' after pipeline element", self.pos)
        self.pos += 1
        return tuple(elements)

    def element(self) -> PipelineElement:
        start = self.skip_space()
        name = self.name()
        if self.peek("("):
            nested = self.nested_elements()
            return PipelineElement(name, None, nested, start, self.pos)
        if not self.peek("{"):
            return PipelineElement(name, None, None, start, self.pos)
        options = self.braced_options()
        return PipelineElement(name, options, None, start, self.pos)

    def braced_options(self) -> str:
        open_brace = self.pos
        depth = 0
        in_quote, quote = False, ""
        for index in range(open_brace, len(self.text)):
            char = self.text[index]
            if in_quote:
                in_quote = char != quote
                continue
            if char in "\"'" and self.text.find(char, index + 1) != -1:
                in_quote, quote = True, char
                continue
            depth += {"{": 1, "}": -1}.get(char, 0)
            if depth == 0:
                self.pos = index + 1
                return self.text[open_brace + 1 : index]
        raise self.error("missing closing '}' while processing pass options", open_brace)
