"""Generate the embedded library: check every signature, script every registered function,
import the lot into one module and write it to `_generated/`.

    python -m torch_refine.library.generate          # or build_tools/update_abstract_interp_lib.sh

Each (kind, op) becomes a public `func.func` named `LibraryFunction.symbol`; callees become
private `__torch_refine_helper.*` funcs. The reify passes clone what they need as private.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from pathlib import Path

import torch
from torch_mlir import ir
from torch_mlir.dialects import func
from torch_mlir.passmanager import PassManager

from torch_refine.calculations.symbols import HELPER_PREFIX
from torch_refine.importer import import_functions
from torch_refine.ir.context import create_context
from torch_refine.ir.module import callees, functions, symbol_name

from . import registry
from .einsum_equation import EINSUM_PLAN_OPERATOR
from .plans import function_plan
from .signatures import SignatureError
from .storage import CHUNKS_PATH, GENERATED_DIR, HEADER, PLANS_PATH, TEXT_PATH, write_chunks, write_plans

# Library callees that become one Torch op instead of a helper call: the simplify passes
# evaluate `torch.promote_dtypes` and the einsum plan (a `torch.operator`: the dialect
# cannot read a string's characters) with the same Python functions, and an unknown dim
# or dtype is an int nothing folds (`torch.prim.Uninitialized`), so it stays unknown.
INTRINSICS = {
    "__torch__.torch_refine.library.promotion.promote_dtypes": "torch.promote_dtypes",
    "__torch__.torch_refine.library._helpers.unknown_dim": "torch.prim.Uninitialized",
    "__torch__.torch_refine.library._helpers.unknown_dtype": "torch.prim.Uninitialized",
    "__torch__.torch_refine.library.einsum_equation.einsum_plan": ("torch.operator", EINSUM_PLAN_OPERATOR),
}


def import_library_functions(scripted: dict, context: ir.Context | None = None) -> ir.Module:
    """Import scripted library functions with the library's helper prefix and intrinsics."""
    return import_functions(
        scripted, context or create_context(), helper_prefix=HELPER_PREFIX, intrinsics=INTRINSICS
    )


def generate_module(context: ir.Context | None = None) -> ir.Module:
    """The library as a verified module; raises SignatureError on a signature mismatch."""
    registry.check_all()
    scripted = {entry.symbol: torch.jit.script(entry.fn) for entry in registry.functions()}
    module = import_library_functions(scripted, context)
    # Locations name absolute source paths; the checked-in files must not depend on the checkout.
    PassManager.parse("builtin.module(strip-debuginfo)", module.context).run(module.operation)
    return module


def module_text(module: ir.Module) -> str:
    return HEADER + module.operation.get_asm(assume_verified=True)


def module_chunks(module: ir.Module) -> bytes:
    """The library as `library.chunks` (storage.py): per function, a bytecode module of the
    function and declarations of the functions it calls, so each parses on its own."""
    by_symbol = {symbol_name(fn): fn for fn in functions(module.operation)}
    chunks = []
    for symbol, fn in by_symbol.items():
        chunk = ir.Module.create(loc=ir.Location.unknown(module.context))
        with ir.InsertionPoint(chunk.body), ir.Location.unknown(module.context):
            for callee in sorted(set(callees(fn))):
                callee_type = ir.TypeAttr(by_symbol[callee].attributes["function_type"]).value
                func.FuncOp(callee, callee_type, visibility="private")
            fn.operation.clone()
        buffer = io.BytesIO()
        chunk.operation.write_bytecode(buffer)
        chunks.append((symbol, buffer.getvalue()))
    return write_chunks(chunks)


def library_plans(module: ir.Module) -> dict[str, tuple]:
    """The evaluator's plan of each function of `module` that has one, by symbol."""
    plans = {symbol_name(fn): function_plan(fn) for fn in functions(module.operation)}
    return {symbol: plan for symbol, plan in plans.items() if plan is not None}


def module_plans(module: ir.Module) -> bytes:
    """The library as `library.plans` (storage.py): per function, the evaluator's plan of
    it, so evaluating an op needs neither parsing nor compiling its function."""
    return write_plans(library_plans(module))


def _in_source_checkout() -> bool:
    """Whether this package is the checkout's `python/torch_refine` (an installed package
    is not regenerated in place: it would rewrite site-packages)."""
    root = Path(__file__).resolve().parents[3]
    return (root / "build_tools" / "update_abstract_interp_lib.sh").is_file()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m torch_refine.library.generate",
        description="Regenerate python/torch_refine/library/_generated/ from the library "
                    "sources of a source checkout (build_tools/update_abstract_interp_lib.sh).",
    )
    parser.add_argument("--output-dir", default="",
                        help="write the three files here instead of the checkout's _generated/")
    args = parser.parse_args(argv)
    if not args.output_dir and not _in_source_checkout():
        print(f"{parser.prog}: error: this torch_refine is installed, not a source checkout; "
              "regenerating would rewrite the installed package (give --output-dir)",
              file=sys.stderr)
        return 2
    try:
        module = generate_module()
    except SignatureError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 1
    directory = args.output_dir or GENERATED_DIR
    os.makedirs(directory, exist_ok=True)
    paths = [os.path.join(directory, os.path.basename(p)) for p in (TEXT_PATH, CHUNKS_PATH, PLANS_PATH)]
    Path(paths[0]).write_text(module_text(module), encoding="utf-8")
    Path(paths[1]).write_bytes(module_chunks(module))
    Path(paths[2]).write_bytes(module_plans(module))
    print(f"wrote {paths[0]}, {os.path.basename(paths[1])} and {os.path.basename(paths[2])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
