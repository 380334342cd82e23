"""The steps shared by the shape, dtype and combined refinement pipelines."""

from __future__ import annotations

from torch_refine import simplify
from torch_refine.passes._reify import FunctionImporter, Kind, Library, targets, wrap
from torch_refine.passes.drop_calculations import drop
from torch_refine.passes.inline_library_calls import inline_library_calls_in

_SIMPLIFY_KINDS = {"shape": simplify.SHAPE, "dtype": simplify.DTYPE}


def refine(module, kind: Kind, library: Library, runtime_asserts: bool, memo: dict | None = None) -> None:
    """Reify, inline, simplify and drop the calculation of each op of one kind, one op at
    a time in program order.

    What the separate passes do over the whole module, done per op: an op's operand
    types are final once the ops before it are refined, so its memo key is too. An op the
    memo (`memo`, kept by the caller across rounds, or a fresh one) already knows gets its
    types without a calculation; the others are wrapped, their library calls inlined,
    simplified and dropped at once. Library functions left unused are the caller's to
    erase.
    """
    with module.context:  # some steps build IR without naming the context
        importer = FunctionImporter(module, library)
        driver = simplify.Driver(
            _SIMPLIFY_KINDS[kind.name], simplify.Options(), {} if memo is None else memo,
            memoize_undecided=not runtime_asserts,
        )

        def inline(calculate) -> None:
            inline_library_calls_in(calculate, importer.functions)

        views: dict[str, tuple] = {}
        for op, unpack, symbol in targets(module, kind, importer):
            described = list((op if unpack is None else unpack).operation.results)
            if symbol not in views:
                views[symbol] = importer.parameter_views(symbol)
            if driver.refine_known(op, described, views[symbol]):
                continue
            calculate = wrap(op, unpack, kind, importer.import_function(symbol, op))
            if driver.simplify(calculate, prepare=inline, views=views[symbol]):
                drop(calculate, runtime_asserts)
        driver.finish()
