"""Library functions declared as data: the def line comes from PyTorch's registry and the
body from a family's rule, so one table row defines a shape or dtype function.

The synthesized source is registered with `linecache`, so `inspect.getsource` and
`torch.jit.script` see it like any hand-written function.
"""

from __future__ import annotations

import linecache
from collections.abc import Callable, Sequence

from .registry import _register
from .signatures import expected_signature, python_name


def define(
    kind: str, op: str, body: str, namespace: dict, invocations: Sequence = ()
) -> Callable:
    """Define `op`'s `kind` function with `body` (statements, indented by 4) in `namespace`."""
    source = f"{expected_signature(op, kind)}\n{body}\n"
    filename = f"<torch-refine {kind} function for {op}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), namespace)
    fn = namespace.pop(python_name(op, kind))
    return _register(kind, [op], invocations)(fn)
