"""Extra libraries written in Python: users' shape and dtype functions, compiled at run time.

A Python extra library is a file of functions decorated like the built-in ones:

    @shape("mylib.rotary", signature_check=False)     # a custom op PyTorch does not know
    def mylib〇rotary〡shape(x: List[int], cos: List[int], sin: List[int]) -> List[int]: ...

    @dtype("aten.pixel_shuffle")                       # an ATen op: the registry check runs
    def aten〇pixel_shuffle〡dtype(self_rank_dtype: Tuple[int, int], upscale_factor: int) -> int:

`compile_extra_library` checks each function (PyTorch's registry signature for known ops, the
naming conventions for custom ops), scripts it and imports it with our importer into MLIR
text that the reify passes merge exactly like an MLIR extra library. Every problem raises
ExtraLibraryError naming the file, line and function.

Importing this module does not import torch; compiling does.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import os
import re
import sys
import textwrap
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path

from . import registry
from .registry import ENTRIES_ATTRIBUTE, LibraryFunction
from .signatures import SignatureError, check_signature, schemas

# `ns.name` or `ns.name.overload`: what follows `torch.` in a Torch dialect op name, or the
# `name` attribute of a `torch.operator`.
_OP_NAME = re.compile(r"[A-Za-z_]\w*\.[A-Za-z_]\w*(\.[A-Za-z_]\w*)?")
_SHAPE_ANNOTATIONS = {"List[int]", "List[List[int]]"}
_DTYPE_TENSOR = "Tuple[int, int]"


class ExtraLibraryError(ValueError):
    """A Python extra library that cannot be compiled; the message names file:line."""


def is_python_library(path: str | os.PathLike) -> bool:
    return str(path).endswith(".py")


def compile_extra_library(source: str | os.PathLike | Iterable[Callable]) -> str:
    """MLIR text of the functions in a Python file (a path) or of decorated functions.

    Save the text to a `.mlir` file to skip compiling on later runs: both kinds of file are
    accepted wherever an extra library is (`--extra-library`, `refine(extra_library=...)`).
    """
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        return _compile_file(str(path.resolve()), path.stat().st_mtime_ns, str(source))
    return _compile_entries(_entries_of(list(source)))


@functools.lru_cache(maxsize=16)
def _compile_file(resolved: str, mtime_ns: int, shown_path: str) -> str:
    """Once per file version: scripting the same file again would only rename its helpers."""
    return _compile_entries(load_file(shown_path))


def load_file(path: str) -> list[LibraryFunction]:
    """Execute a Python extra library and return the functions it declares."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ExtraLibraryError(f"cannot read '{path}': {error.strerror}") from None
    try:
        code = compile(text, path, "exec")
    except SyntaxError as error:
        raise ExtraLibraryError(f"{path}:{error.lineno}: syntax error: {error.msg}") from None
    module_name = Path(path).stem
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    previous = sys.modules.get(module_name)
    sys.modules[module_name] = module  # what dataclasses and typing look modules up in
    try:
        with registry.collecting() as table:
            exec(code, module.__dict__)
    except registry.DuplicateFunctionError as error:
        raise ExtraLibraryError(f"{path}: {error}") from None
    except Exception as error:
        raise ExtraLibraryError(_execution_error(path, error)) from None
    finally:
        if previous is None:
            sys.modules.pop(module_name, None)
        else:
            sys.modules[module_name] = previous
    if not table:
        raise ExtraLibraryError(
            f"{path}: no function decorated with torch_refine.library.registry.shape or dtype"
        )
    return list(table.values())


def _execution_error(path: str, error: Exception) -> str:
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == path]
    line = frames[-1].lineno if frames else 1
    return f"{path}:{line}: error while loading: {type(error).__name__}: {error}"


def _entries_of(functions: list[Callable]) -> list[LibraryFunction]:
    entries = []
    for fn in functions:
        found = getattr(fn, ENTRIES_ATTRIBUTE, None)
        if not found:
            raise ExtraLibraryError(
                f"{_where(fn)}: '{getattr(fn, '__name__', fn)}' is not decorated with "
                "torch_refine.library.registry.shape or dtype"
            )
        entries.extend(found)
    return entries


def _where(fn: Callable) -> str:
    code = getattr(fn, "__code__", None)
    return "<unknown>" if code is None else f"{code.co_filename}:{code.co_firstlineno}"


def _describe(entry: LibraryFunction) -> str:
    return f"{_where(entry.fn)}: {entry.kind} function '{entry.fn.__name__}' for '{entry.op}'"


# --- checks --------------------------------------------------------------------------------


def check_entry(entry: LibraryFunction) -> None:
    """PyTorch's registry signature for a known op; the conventions for a custom op."""
    if entry.kind not in ("shape", "dtype"):
        raise ExtraLibraryError(f"{_describe(entry)}: extra libraries hold shape and dtype functions")
    if not _OP_NAME.fullmatch(entry.op):
        raise ExtraLibraryError(
            f"{_describe(entry)}: '{entry.op}' is not an op name such as 'mylib.foo' or "
            "'aten.add.Tensor' (the Torch dialect name without 'torch.')"
        )
    try:
        source = entry.source
    except (OSError, TypeError):
        raise ExtraLibraryError(f"{_describe(entry)}: its source is not available") from None
    if entry.op in schemas():
        _check_registry_signature(entry, source)
        return
    if entry.signature_check:
        raise ExtraLibraryError(
            f"{_describe(entry)}: '{entry.op}' is not an op overload in PyTorch's registry; "
            f"for a custom op write @{entry.kind}(\"{entry.op}\", signature_check=False)"
        )
    _check_conventions(entry, source)


def _check_registry_signature(entry: LibraryFunction, source: str) -> None:
    try:
        check_signature(entry.op, entry.kind, source)
    except SignatureError as error:
        raise ExtraLibraryError(f"{_describe(entry)}: {error}") from None


def _check_conventions(entry: LibraryFunction, source: str) -> None:
    node = ast.parse(textwrap.dedent(source)).body[0]
    if not isinstance(node, ast.FunctionDef):
        raise ExtraLibraryError(f"{_describe(entry)}: must be a plain `def` function")
    arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
    for argument in arguments:
        _check_parameter(entry, argument)
    returned = ast.unparse(node.returns) if node.returns is not None else None
    if not _is_result_annotation(entry.kind, returned):
        expected = "List[int]" if entry.kind == "shape" else "int"
        raise ExtraLibraryError(
            f"{_describe(entry)}: returns '{returned}'; a {entry.kind} function returns "
            f"{expected} per result (a Tuple of them for several results)"
        )


def _check_parameter(entry: LibraryFunction, argument: ast.arg) -> None:
    if argument.annotation is None:
        raise ExtraLibraryError(f"{_describe(entry)}: parameter '{argument.arg}' has no annotation")
    annotation = ast.unparse(argument.annotation)
    if entry.kind != "dtype" or annotation != _DTYPE_TENSOR:
        return
    if not argument.arg.endswith("_rank_dtype"):
        raise ExtraLibraryError(
            f"{_describe(entry)}: tensor parameter '{argument.arg}' of a dtype function must be "
            f"named '<name>_rank_dtype' (it receives (rank, dtype code))"
        )


def _is_result_annotation(kind: str, text: str | None) -> bool:
    single = _SHAPE_ANNOTATIONS if kind == "shape" else {"int"}
    if text in single:
        return True
    if text is None or not (text.startswith("Tuple[") and text.endswith("]")):
        return False
    parts = [part.strip() for part in _split_top_level(text[len("Tuple[") : -1])]
    return all(part in single for part in parts)


def _split_top_level(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        depth += {"[": 1, "]": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    return [*parts, text[start:]]


# --- compiling -----------------------------------------------------------------------------


def _compile_entries(entries: list[LibraryFunction]) -> str:
    import torch

    from torch_refine.importer import UnsupportedNodeError
    from torch_refine.library.generate import import_library_functions

    scripted = {}
    for entry in entries:
        check_entry(entry)
        try:
            scripted[entry.symbol] = torch.jit.script(entry.fn)
        except Exception as error:
            raise ExtraLibraryError(f"{_describe(entry)}: not scriptable: {_first_lines(error)}") from None
    try:
        module = import_library_functions(scripted)
    except UnsupportedNodeError as error:
        raise ExtraLibraryError(f"cannot import the extra library: {error}") from None
    return module.operation.get_asm(assume_verified=True)


def _first_lines(error: Exception, count: int = 6) -> str:
    lines = [line for line in str(error).strip().splitlines() if line.strip()]
    return "\n".join(lines[:count])
