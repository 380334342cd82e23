"""`torch-refine-inline-library-calls`: inline library functions into calculate regions
(`engine/inline.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from torch_refine.engine.inline import inline_library_calls
from torch_refine.passes.base import ModulePass


@dataclass
class InlineLibraryCalls(ModulePass):
    name: ClassVar[str] = "torch-refine-inline-library-calls"
    description: ClassVar[str] = (
        "Inline calls to library functions inside calculate ops and erase unused library functions"
    )

    def run(self, module) -> None:
        inline_library_calls(module)
