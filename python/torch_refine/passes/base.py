"""What every torch-refine pass is: a `ModulePass` with a name, a description and options
as dataclass fields, which raises `PassFailure` after emitting its diagnostics."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from torch_refine.errors import PassFailure

__all__ = ["FILE_OPTIONS", "ModulePass", "PassFailure", "option"]  # PassFailure: what passes raise

# Options that read or run a file (an extra library may be Python code): honoured only
# from the command line or the API, never from text inside the input (docs/trust-model.md).
FILE_OPTIONS = frozenset({"extra_library"})


def option(default, help: str):
    """A pass option: a dataclass field with one line of help (`--help`, docs/passes.md)."""
    return dataclasses.field(default=default, metadata={"help": help})


@dataclasses.dataclass
class ModulePass:
    name: ClassVar[str]
    description: ClassVar[str]

    def run(self, module) -> None:  # module: torch_mlir.ir.Operation (builtin.module)
        raise NotImplementedError

    @classmethod
    def options(cls) -> list[dataclasses.Field]:
        return list(dataclasses.fields(cls))
