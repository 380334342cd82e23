"""Loading the library: the embedded functions (each parsed when first asked for, at most
once per context) and an optional extra library (an MLIR file, or a Python file of decorated
functions compiled on load), merged into one `Library` that every pass, the API and the
tools use.

The embedded library is stored function by function (`library.chunks`): a module of
`model.mlir`'s dozens of ops needs a few hundred of its 2,000-odd functions, and parsing
only those is a fraction of parsing the whole (docs/design.md, "Load").

No `import torch` here (directly or through the library sources): torch-refine-opt loads the
library on every run and must start fast. Only a `.py` extra library imports torch.
"""

from __future__ import annotations

import marshal
import os
import weakref

from torch_mlir import ir

from torch_refine.calculations.symbols import function_symbol
from torch_refine.ir.module import functions, symbol_name
from torch_refine.library.storage import CHUNKS_PATH, LibraryError, read_chunks, read_plans


def builtin_symbols() -> list[str]:
    """Every function of the embedded library, in its order."""
    return list(read_chunks()[1])


def _parse_chunk(symbol: str, context: ir.Context) -> tuple[ir.Module, object]:
    """The embedded library's function `symbol` parsed into `context`, in a module of its
    own with declarations of its callees: (that module, which owns it, and the function)."""
    blobs, index = read_chunks()
    offset, size = index[symbol]
    module = ir.Module.parse(bytes(blobs[offset : offset + size]), context)
    for op in functions(module.operation):
        if symbol_name(op) == symbol and len(op.regions[0].blocks):
            return module, op
    raise LibraryError(f"{CHUNKS_PATH} holds no body for @{symbol}; regenerate it")


class Library:
    """Library functions by symbol, from an optional extra library (whose functions take
    precedence, so users can fix or add functions) and the embedded one, whose functions
    are parsed into the context when first asked for."""

    def __init__(self, context: ir.Context, extra_modules: list[ir.Operation], builtin: bool = True):
        self._context = context
        self._modules = list(extra_modules)  # own the functions below
        self._functions: dict[str, object] = {}
        self._clone_texts: dict[str, str | None] = {}
        self._builtin = read_chunks()[1] if builtin else {}  # symbol -> where its chunk is
        for module in extra_modules:
            for op in functions(module):
                self._functions[symbol_name(op)] = op
        self._extra_symbols = frozenset(self._functions)
        self._plans: dict[str, tuple | None] = {}

    def get(self, symbol: str):
        found = self._functions.get(symbol)
        if found is not None or symbol not in self._builtin:
            return found
        module, found = _parse_chunk(symbol, self._context)
        self._modules.append(module)
        self._functions[symbol] = found
        return found

    def plan(self, symbol: str) -> tuple | None:
        """The evaluator plan stored for an embedded function (not one an extra library
        replaces), without parsing the function; None when there is none."""
        if symbol in self._extra_symbols or symbol not in self._builtin:
            return None
        if symbol not in self._plans:
            blob = read_plans().get(symbol)
            self._plans[symbol] = None if blob is None else marshal.loads(blob)
        return self._plans[symbol]

    def is_clone(self, fn) -> bool:
        """True when `fn` is exactly what cloning the library function of its symbol into
        a module makes (`engine.reify.LibraryCloner`): the same text, private."""
        symbol = symbol_name(fn)
        if symbol not in self._clone_texts:
            source = self.get(symbol)
            self._clone_texts[symbol] = (
                None if source is None else _asm(source).replace("func.func @", "func.func private @", 1)
            )
        expected = self._clone_texts[symbol]
        return expected is not None and _asm(fn) == expected

    def has_function(self, op: str, kinds: tuple[str, ...] = ("shape", "dtype")) -> bool:
        """Whether `op` (a Torch dialect op name without `torch.`) has a function of any of `kinds`."""
        return any(self.has(function_symbol(kind, op)) for kind in kinds)

    def has(self, symbol: str) -> bool:
        return symbol in self._functions or symbol in self._builtin

    def symbols(self) -> list[str]:
        return list(dict.fromkeys([*self._functions, *self._builtin]))


# context -> {extra-library path: Library}; the built-in library is parsed once per context.
_LIBRARIES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def load(context: ir.Context, extra_library: str = "") -> Library:
    """The built-in library, plus `extra_library` when given, parsed into `context`.

    Raises LibraryError for an extra library that cannot be used.
    """
    per_context = _LIBRARIES.setdefault(context, {})
    if extra_library in per_context:
        return per_context[extra_library]
    extra = [_parse_extra_library(context, extra_library)] if extra_library else []
    # Before the first generation there is no embedded library.
    library = Library(context, extra, builtin=os.path.exists(CHUNKS_PATH))
    per_context[extra_library] = library
    return library


def _parse_extra_library(context: ir.Context, path: str) -> ir.Operation:
    from torch_refine.library import extension  # imports torch only for a .py library

    try:
        text = extra_library_text(path)
    except OSError as error:
        raise LibraryError(f"cannot read extra-library '{path}': {error.strerror}") from None
    except extension.ExtraLibraryError as error:
        raise LibraryError(f"cannot compile extra-library '{path}': {error}") from None
    try:
        return ir.Operation.parse(text, source_name=path, context=context)
    except ir.MLIRError as error:
        details = "; ".join(f"{_location_text(d.location)}: {d.message}" for d in error.error_diagnostics)
        raise LibraryError(f"failed to parse extra-library '{path}': {details}") from None


def extra_library_text(path: str) -> str:
    """The MLIR text of an extra library: the file itself, or a `.py` file compiled."""
    from torch_refine.library import extension

    if extension.is_python_library(path):
        return extension.compile_extra_library(path)
    with open(path, encoding="utf-8") as file:
        return file.read()


def _asm(fn) -> str:
    return fn.operation.get_asm(assume_verified=True)


def _location_text(location: ir.Location) -> str:
    """`loc("lib.mlir":2:21)` -> `lib.mlir:2:21`."""
    return str(location).removeprefix("loc(").removesuffix(")").replace('"', "")
