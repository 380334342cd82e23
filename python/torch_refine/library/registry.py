"""The registry of calculation functions, keyed by (kind, op overload).

Library modules register functions with decorators:

    @shape("aten.mm", invocations=[Invocation(TensorOfShape(2, 3), TensorOfShape(3, 4)), ...])
    def aten〇mm〡shape(self: List[int], mat2: List[int]) -> List[int]:
        return _helpers.mm(self, mat2)

One function may serve several ops with the same signature (`@shape("aten.sin", "aten.cos")`).
Registering an (op, kind) twice is an error at import time, unlike a silently shadowed `def`.
Signatures are checked against PyTorch's registry by `check_all()` (the generator calls it).

The same decorators declare users' extension functions (an extra library, see
`extension.py`). Only functions defined in this package are built-ins; any other decorated
function is recorded on itself (`fn.__torch_refine_entries__`) and in the table of the extra
library being loaded, if any, so users can override built-ins without a duplicate error.
For a custom op that PyTorch's registry does not know, `signature_check=False` skips the
registry check (the naming conventions are still checked); for a known op it still runs.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from torch_refine.calculations.symbols import function_symbol

from .signatures import KINDS, check_signature, schemas

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
    "special",
    "data_dependent",
    "inplace",
    "backward",
    "losses",
    "complex",
    "spectral",
    "scalars",
    "random",
    "prims",
    "quantized",
    "value_forms",
    "torchvision_ops",
    "transformers_ops",
    "onnx_ops",
    "long_tail",
    "decompositions",
)


@dataclass(frozen=True)
class LibraryFunction:
    op: str  # "aten.add.Tensor": the Torch dialect op name without "torch."
    kind: str  # one of KINDS
    fn: Callable
    invocations: tuple = field(default=())  # Invocation / ErrorInvocation records
    signature_check: bool = True  # False: a custom op, not in PyTorch's registry

    @property
    def symbol(self) -> str:
        return function_symbol(self.kind, self.op)

    @property
    def source(self) -> str:
        return inspect.getsource(self.fn)


class DuplicateFunctionError(ValueError):
    pass


_FUNCTIONS: dict[tuple[str, str], LibraryFunction] = {}
_EXTENSION_TABLES: list[dict[tuple[str, str], LibraryFunction]] = []  # extra libraries loading
ENTRIES_ATTRIBUTE = "__torch_refine_entries__"


def _register(
    kind: str, ops: Sequence[str], invocations: Sequence, signature_check: bool = True
) -> Callable:
    def decorate(fn: Callable) -> Callable:
        entries = [LibraryFunction(op, kind, fn, tuple(invocations), signature_check) for op in ops]
        setattr(fn, ENTRIES_ATTRIBUTE, (*getattr(fn, ENTRIES_ATTRIBUTE, ()), *entries))
        table = _FUNCTIONS if _is_builtin(fn) else _extension_table()
        for entry in entries:
            key = (kind, entry.op)
            if (previous := table.get(key)) is not None:
                raise DuplicateFunctionError(
                    f"{kind} function for '{entry.op}' defined twice: "
                    f"{_where(previous.fn)} and {_where(fn)}"
                )
            table[key] = entry
        return fn

    return decorate


def _is_builtin(fn: Callable) -> bool:
    return getattr(fn, "__module__", "").startswith(__package__ + ".")


def _extension_table() -> dict:
    return _EXTENSION_TABLES[-1] if _EXTENSION_TABLES else {}


@contextlib.contextmanager
def collecting() -> Iterator[dict[tuple[str, str], LibraryFunction]]:
    """Collect the extension functions decorated while the block runs."""
    table: dict[tuple[str, str], LibraryFunction] = {}
    _EXTENSION_TABLES.append(table)
    try:
        yield table
    finally:
        _EXTENSION_TABLES.pop()


def _where(fn: Callable) -> str:
    code = fn.__code__
    return f"{code.co_filename}:{code.co_firstlineno} ({fn.__name__})"


def shape(*ops: str, invocations: Sequence = (), signature_check: bool = True) -> Callable:
    return _register("shape", ops, invocations, signature_check)


def dtype(*ops: str, invocations: Sequence = (), signature_check: bool = True) -> Callable:
    return _register("dtype", ops, invocations, signature_check)


def decomposition(*ops: str, invocations: Sequence = (), signature_check: bool = True) -> Callable:
    return _register("decomposition", ops, invocations, signature_check)


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
    """Check every signature against the registry; raises on the first mismatch. An op the
    registry does not know is skipped where its function says `signature_check=False`."""
    for entry in functions():
        if entry.signature_check or entry.op in schemas():
            check_signature(entry.op, entry.kind, entry.source)
