"""The steps shared by the shape, dtype and combined refinement pipelines."""

from __future__ import annotations

from torch_refine import passes
from torch_refine.passes._reify import Kind, Library, reify
from torch_refine.passes.drop_calculations import DropCalculations
from torch_refine.passes.inline_library_calls import InlineLibraryCalls

_SIMPLIFY = {
    "shape": "torch-refine-simplify-shape-calculations",
    "dtype": "torch-refine-simplify-dtype-calculations",
}


def refine(module, kind: Kind, library: Library, runtime_asserts: bool) -> None:
    """Reify, inline, simplify and drop the calculations of one kind; the later steps are
    skipped when no op needed wrapping."""
    with module.context:  # some passes build IR without naming the context
        if reify(module, kind, library) == 0:
            return
        InlineLibraryCalls().run(module)
        passes.get(_SIMPLIFY[kind.name])().run(module)
        DropCalculations(runtime_asserts=runtime_asserts).run(module)
