"""The tensor-type lattice: what a `!torch.vtensor` type says about sizes and dtype.

`TensorInfo` is the knowledge in one tensor type: sizes (None: unknown rank; a None dim:
`?`) and element type (None: `unk`). `meet` combines two facts about the same value (and
finds contradictions); `join` is the least upper bound used where control flow merges.
Types are parsed from their text once per distinct type and cached.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from torch_mlir import ir

# c10::ScalarType code -> Torch-dialect element type text, and back.
DTYPE_TO_ELEMENT = {
    0: "ui8",
    1: "si8",
    2: "si16",
    3: "si32",
    4: "si64",
    5: "f16",
    6: "f32",
    7: "f64",
    8: "complex<f16>",
    9: "complex<f32>",
    10: "complex<f64>",
    11: "i1",
    12: "!torch.qint8",
    13: "!torch.quint8",
    14: "!torch.qint32",
    15: "bf16",
    23: "f8E5M2",
    24: "f8E4M3FN",
    25: "f8E5M2FNUZ",
    26: "f8E4M3FNUZ",
}
ELEMENT_TO_DTYPE = {element: code for code, element in DTYPE_TO_ELEMENT.items()}

_TENSOR_TYPE = re.compile(r"^!torch\.(v?tensor)(?:<(\*|\[[^\]]*\]),(.+)>)?$")


@dataclass(frozen=True)
class TensorInfo:
    sizes: tuple[int | None, ...] | None = None
    dtype: str | None = None  # element type text, e.g. "f32"
    value_semantics: bool = True

    @property
    def rank(self) -> int | None:
        return None if self.sizes is None else len(self.sizes)

    @property
    def has_sizes(self) -> bool:
        return self.sizes is not None and None not in self.sizes

    @property
    def is_exact(self) -> bool:
        return self.has_sizes and self.dtype is not None

    @property
    def is_unknown(self) -> bool:
        return self.sizes is None and self.dtype is None

    def text(self) -> str:
        head = "!torch.vtensor" if self.value_semantics else "!torch.tensor"
        if self.is_unknown:
            return head
        sizes = "*" if self.sizes is None else "[" + ",".join(_dim(d) for d in self.sizes) + "]"
        return f"{head}<{sizes},{self.dtype or 'unk'}>"


def is_tensor_type_text(text: str) -> bool:
    return text.startswith(("!torch.vtensor", "!torch.tensor"))


def _dim(d: int | None) -> str:
    return "?" if d is None else str(d)


_PARSED: dict[str, TensorInfo | None] = {}


def parse_text(text: str) -> TensorInfo | None:
    """The TensorInfo of a type's text, or None when it is not a tensor type."""
    if text in _PARSED:
        return _PARSED[text]
    info = _parse_uncached(text)
    _PARSED[text] = info
    return info


def _parse_uncached(text: str) -> TensorInfo | None:
    match = _TENSOR_TYPE.match(text)
    if match is None:
        return None
    kind, sizes_text, dtype_text = match.groups()
    value_semantics = kind == "vtensor"
    if sizes_text is None:
        return TensorInfo(None, None, value_semantics)
    sizes = None
    if sizes_text != "*":
        inner = sizes_text[1:-1]
        sizes = tuple(None if d == "?" else int(d) for d in inner.split(",")) if inner else ()
    dtype = None if dtype_text == "unk" else dtype_text
    return TensorInfo(sizes, dtype, value_semantics)


def parse(type_: ir.Type) -> TensorInfo | None:
    return parse_text(str(type_))


def to_type(info: TensorInfo, context: ir.Context | None = None) -> ir.Type:
    return ir.Type.parse(info.text(), context)


class TypeCache:
    """Types' texts by type object, and types by TensorInfo, for one pass run: a large
    module repeats a few types many times, and printing or parsing a type costs far more
    than a lookup (types are uniqued: equal types hash alike). It keeps its types'
    context alive: keep it no longer than the run."""

    def __init__(self) -> None:
        self._texts: dict[ir.Type, str] = {}
        self._types: dict[TensorInfo, ir.Type] = {}

    def text(self, type_: ir.Type) -> str:
        text = self._texts.get(type_)
        if text is None:
            text = self._texts[type_] = str(type_)
        return text

    def info(self, type_: ir.Type) -> TensorInfo | None:
        return parse_text(self.text(type_))

    def type_of(self, info: TensorInfo) -> ir.Type:
        """`to_type` in the current context."""
        type_ = self._types.get(info)
        if type_ is None:
            type_ = self._types[info] = to_type(info)
        return type_


def meet(a: TensorInfo, b: TensorInfo) -> TensorInfo | None:
    """Both facts at once; None when they contradict (different rank, dim or dtype)."""
    if a.dtype is not None and b.dtype is not None and a.dtype != b.dtype:
        return None
    dtype = a.dtype if a.dtype is not None else b.dtype
    if a.sizes is None or b.sizes is None:
        sizes = a.sizes if b.sizes is None else b.sizes
        return TensorInfo(sizes, dtype, a.value_semantics)
    if len(a.sizes) != len(b.sizes):
        return None
    dims = []
    for x, y in zip(a.sizes, b.sizes, strict=True):
        if x is not None and y is not None and x != y:
            return None
        dims.append(x if x is not None else y)
    return TensorInfo(tuple(dims), dtype, a.value_semantics)


def join(a: TensorInfo, b: TensorInfo) -> TensorInfo:
    """What holds of a value that is either `a` or `b`."""
    dtype = a.dtype if a.dtype == b.dtype else None
    if a.sizes is None or b.sizes is None or len(a.sizes) != len(b.sizes):
        return TensorInfo(None, dtype, a.value_semantics)
    dims = tuple(x if x == y else None for x, y in zip(a.sizes, b.sizes, strict=True))
    return TensorInfo(dims, dtype, a.value_semantics)


def is_at_least_as_precise(a: TensorInfo, b: TensorInfo) -> bool:
    """True when `a` says everything `b` says (a ⊑ b in the lattice)."""
    return meet(a, b) == a


def erased(info: TensorInfo) -> TensorInfo:
    return TensorInfo(None, None, info.value_semantics)
