"""What every torch-refine pass is: a `ModulePass` with a name, a description and options
as dataclass fields, which raises `PassFailure` after emitting its diagnostics."""

from __future__ import annotations

import dataclasses
from typing import ClassVar


class PassFailure(Exception):
    """Raised by a pass after it has emitted its diagnostics."""


@dataclasses.dataclass
class ModulePass:
    name: ClassVar[str]
    description: ClassVar[str]

    def run(self, module) -> None:  # module: torch_mlir.ir.Operation (builtin.module)
        raise NotImplementedError

    @classmethod
    def options(cls) -> list[dataclasses.Field]:
        return list(dataclasses.fields(cls))
