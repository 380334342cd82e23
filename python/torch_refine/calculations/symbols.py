"""Library symbols: how a library function is named, and which functions are the user's.

A *library function* is a `func.func` whose symbol starts with one of `LIBRARY_PREFIXES`:
`__torch_refine_<kind>_fn.<op>` for the function of an op overload (`<op>` is the Torch
dialect op name without `torch.`, or a `torch.operator`'s `name`), and
`__torch_refine_helper.<qualified name>` for a helper they call. Every other function is
a *user function*.
"""

from __future__ import annotations

from torch_mlir import ir

from torch_refine.ir.module import functions, symbol_name

SHAPE_FN_PREFIX = "__torch_refine_shape_fn."
DTYPE_FN_PREFIX = "__torch_refine_dtype_fn."
DECOMPOSITION_FN_PREFIX = "__torch_refine_decomposition_fn."
HELPER_PREFIX = "__torch_refine_helper."
LIBRARY_PREFIXES = (SHAPE_FN_PREFIX, DTYPE_FN_PREFIX, DECOMPOSITION_FN_PREFIX, HELPER_PREFIX)
_FN_PREFIX = "__torch_refine_{kind}_fn."


def function_symbol(kind: str, op: str) -> str:
    """The symbol of `op`'s function of `kind` ("shape", "dtype" or "decomposition")."""
    return _FN_PREFIX.format(kind=kind) + op


def is_library_symbol(symbol: str) -> bool:
    return symbol.startswith(LIBRARY_PREFIXES)


def user_functions(module: ir.Operation) -> list:
    """The user's functions that have a body: a declaration (an external kernel) has
    nothing to refine."""
    return [fn for fn in functions(module)
            if len(fn.regions[0].blocks) and not is_library_symbol(symbol_name(fn))]


def library_key(op) -> str | None:
    """The name library functions are keyed by: the op name without `torch.`, or the
    `name` attribute of a `torch.operator`, also without `torch.` (torch-mlir's importer
    names an ATen op the dialect lacks `torch.aten.<op>`)."""
    name = op.operation.name
    if name == "torch.operator":
        name = ir.StringAttr(op.operation.attributes["name"]).value
        return name.removeprefix("torch.")
    if not name.startswith("torch."):
        return None
    return name[len("torch.") :]
