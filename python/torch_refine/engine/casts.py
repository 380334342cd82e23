"""Static-info casts the program states, narrowed by what refinement knows of their operand.

A `torch.tensor_static_info_cast` is the same tensor as its operand: what holds of the
operand holds of the result. torch-mlir's ONNX conversion writes casts whose result is
less precise than the operand becomes once refined (`[?,?,16]` of a `[2,?,16]` state, or
unknown where the types were erased); the result is given the meet of both types.

Casts are also refinement's own tool, and those stay: a cast whose user does not accept
the narrower type (a return, a region's yield, an op that keeps its operand types) holds
that user's type, and a loop's barrier (`OPAQUE_CAST`) hides an assumption on purpose.

A cast is a claim about the same tensor: one that contradicts what its source is known to
be (stated, or refined) is an error at the cast, as torch-mlir's verifier reports a folded
chain of casts, never a type for what follows. A loop's back edge is exempt: its cast
states the assumption under check, which propagation refutes and widens.
"""

from __future__ import annotations

from torch_mlir import ir

from torch_refine.calculations.lists import literal_elements
from torch_refine.calculations.symbols import user_functions
from torch_refine.errors import PassFailure
from torch_refine.ir import types
from torch_refine.ir.constants import typed_constant
from torch_refine.ir.retype import OPAQUE_CAST, accepts

_CAST = "torch.tensor_static_info_cast"
_UNCHECKED = "torch.prim.unchecked_cast"
_DEREFINE = "torch.derefine"
_BACK_EDGE = "torch.prim.Loop.condition"
_CLAIMING_OPS = frozenset({_CAST, _UNCHECKED, "torch.prim.ListUnpack", "torch.prim.TupleUnpack",
                           "torch.aten.__getitem__.t", "torch.prim.TupleIndex"})


def narrow_casts(module: ir.Operation) -> int:
    """Give each narrowable cast's result the meet of its type and its operand's; returns
    how many changed. Raises PassFailure, after an error at each, for casts that contradict
    their source."""
    claims = _claims(module)
    if not _report_contradictions(claims):
        raise PassFailure
    return sum(_narrow(claim.owner) for claim in claims if claim.owner.name == _CAST)


def check_casts(module: ir.Operation) -> None:
    """Raise PassFailure, after an error at each, for casts that contradict their source."""
    if not _report_contradictions(_claims(module)):
        raise PassFailure


def _claims(module: ir.Operation) -> list:
    """The results that state a type for a tensor their op does not compute: of
    static-info casts (but a loop's opaque barrier), of unchecked casts out of an optional
    `derefine` made, and of reads out of a list or tuple literal (`_source`)."""
    claims = []

    def collect(op):
        if op.name in _CLAIMING_OPS:
            claims.extend(result for result in op.results if _source(result) is not None)
        return ir.WalkResult.ADVANCE

    for function in user_functions(module):
        function.operation.walk(collect)
    return claims


def _source(value: ir.Value) -> ir.Value | None:
    """The value the claim `value` is the same tensor as, or None where it is no claim."""
    if not isinstance(value, ir.OpResult):
        return None
    op = value.owner.operation
    if op.name == _CAST:
        return None if OPAQUE_CAST in op.attributes else op.operands[0]
    if op.name == _UNCHECKED:
        optional = _made_by(op.operands[0], _DEREFINE)
        return None if optional is None else optional.operands[0]
    if op.name in ("torch.prim.ListUnpack", "torch.prim.TupleUnpack"):
        return _element(op.operands[0], value.result_number, len(op.results))
    if op.name in ("torch.aten.__getitem__.t", "torch.prim.TupleIndex"):
        return _element(op.operands[0], typed_constant(op.operands[1], int), None)
    return None


def _element(container: ir.Value, index: int | None, count: int | None) -> ir.Value | None:
    """Element `index` of a tuple literal (seen through a `derefine`), or of a list literal
    nothing changes; an unpack states how many elements it takes (`count`)."""
    if index is None:
        return None
    derefined = _made_by(container, _DEREFINE)
    literal = _made_by(derefined.operands[0] if derefined else container, "torch.prim.TupleConstruct")
    elements = list(literal.operands) if literal is not None else literal_elements(container)
    if elements is None:
        return None
    if (count is not None and count != len(elements)) or not -len(elements) <= index < len(elements):
        return None
    return elements[index]


def _made_by(value: ir.Value, name: str):
    """The op named `name` that makes `value`, or None."""
    return value.owner if isinstance(value, ir.OpResult) and value.owner.name == name else None


def _report_contradictions(claims: list) -> bool:
    """Emit an error at each claim whose stated type contradicts the types its source
    chain already holds (reported once, at the first claim of a chain that lies)."""
    consistent = True
    for result in claims:
        if any(use.owner.operation.name == _BACK_EDGE for use in result.uses):
            continue
        known = _chain_info(_source(result))
        stated = types.parse(result.type)
        if known is None or stated is None or types.meet(stated, known) is not None:
            continue
        owner = result.owner
        owner.location.emit_error(
            f"'{owner.name}' op operand type '{types.to_type(known)}' and result type '{result.type}' "
            "are cast incompatible: the result states what its source is known not to be")
        consistent = False
    return consistent


def _chain_info(value: ir.Value) -> types.TensorInfo | None:
    """The meet of the types along the claims producing `value` (the same tensor), or None
    where they contradict or are no tensor types; an opaque cast ends the chain."""
    info = types.parse(value.type)
    while info is not None and (value := _source(value)) is not None:
        source = types.parse(value.type)
        info = None if source is None else types.meet(info, source)
    return info


def _narrow(cast) -> bool:
    result = cast.results[0]
    stated, known = types.parse(result.type), types.parse(cast.operands[0].type)
    if stated is None or known is None:
        return False
    narrowed = types.meet(stated, known)
    if narrowed is None or narrowed == stated:
        return False  # contradictory types are the program's to report, not to merge
    new_type = types.to_type(narrowed)
    if not all(accepts(use, new_type) for use in result.uses):
        return False
    result.set_type(new_type)
    return True


def erase_identity_casts(module: ir.Operation) -> None:
    """Replace each cast whose result has its operand's type (one narrowed to it, or put
    in front of a yield whose type was refined to match) by its operand."""
    identities = []

    def collect(op):
        if op.name == _CAST and OPAQUE_CAST not in op.attributes and op.operands[0].type == op.results[0].type:
            identities.append(op)
        return ir.WalkResult.ADVANCE

    for function in user_functions(module):
        function.operation.walk(collect)
    for cast in identities:
        cast.results[0].replace_all_uses_with(cast.operands[0])
        cast.erase()
