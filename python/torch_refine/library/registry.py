"""The registry of calculation functions, keyed by (kind, op overload).

Library modules register functions with decorators:

    @shape("aten.mm", invocations=[Invocation(TensorOfShape(2, 3), TensorOfShape(3, 4)), ...])
    def aten〇mm〡shape(self: List[int], mat2: List[int]) -> List[int]:
        return _helpers.mm(self, mat2)

One function may serve several ops with the same signature (`@shape("aten.sin", "aten.cos")`).
Registering an (op, kind) twice is an error at import time, unlike a silently shadowed `def`.
Signatures are checked against PyTorch's registry by `check_all()` (the generator calls it).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .signatures import KINDS, check_signature

SYMBOL_PREFIX = "__torch_refine_{kind}_fn."
HELPER_PREFIX = "__torch_refine_helper."

# The library's modules, one per op family. Importing them fills the registry.
FAMILY_MODULES = (
    "elementwise",
    "reductions",
    "linalg",
    "conv_pool",
    "nn",
    "views",
    "indexing",
    "creation",
)


@dataclass(frozen=True)
class LibraryFunction:
    op: str  # "aten.add.Tensor": the Torch dialect op name without "torch."
    kind: str  # one of KINDS
    fn: Callable
    invocations: tuple = field(default=())  # Invocation / ErrorInvocation records

    @property
    def symbol(self) -> str:
        return symbol_name(self.kind, self.op)

    @property
    def source(self) -> str:
        return inspect.getsource(self.fn)


class DuplicateFunctionError(ValueError):
    pass


_FUNCTIONS: dict[tuple[str, str], LibraryFunction] = {}


def symbol_name(kind: str, op: str) -> str:
    return SYMBOL_PREFIX.format(kind=kind) + op


def _register(kind: str, ops: Sequence[str], invocations: Sequence) -> Callable:
    def decorate(fn: Callable) -> Callable:
        for op in ops:
            key = (kind, op)
            if (previous := _FUNCTIONS.get(key)) is not None:
                raise DuplicateFunctionError(
                    f"{kind} function for '{op}' defined twice: "
                    f"{_where(previous.fn)} and {_where(fn)}"
                )
            _FUNCTIONS[key] = LibraryFunction(op, kind, fn, tuple(invocations))
        return fn

    return decorate


def _where(fn: Callable) -> str:
    code = fn.__code__
    return f"{code.co_filename}:{code.co_firstlineno} ({fn.__name__})"


def shape(*ops: str, invocations: Sequence = ()) -> Callable:
    return _register("shape", ops, invocations)


def dtype(*ops: str, invocations: Sequence = ()) -> Callable:
    return _register("dtype", ops, invocations)


def decomposition(*ops: str, invocations: Sequence = ()) -> Callable:
    return _register("decomposition", ops, invocations)


def load_all() -> dict[tuple[str, str], LibraryFunction]:
    """Import every family module and return the full registry."""
    for module in FAMILY_MODULES:
        importlib.import_module(f"{__package__}.{module}")
    return _FUNCTIONS


def functions(kind: str | None = None) -> list[LibraryFunction]:
    entries = load_all().values()
    selected = [f for f in entries if kind is None or f.kind == kind]
    return sorted(selected, key=lambda f: (f.op, KINDS.index(f.kind)))


def check_all() -> None:
    """Check every signature against the registry; raises on the first mismatch."""
    for entry in functions():
        check_signature(entry.op, entry.kind, entry.source)
