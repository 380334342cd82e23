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

from torch_refine.calculations.symbols import user_functions
from torch_refine.ir import types
from torch_refine.ir.retype import OPAQUE_CAST, accepts
from torch_refine.passes.base import PassFailure

_CAST = "torch.tensor_static_info_cast"
_BACK_EDGE = "torch.prim.Loop.condition"


def narrow_casts(module: ir.Operation) -> int:
    """Give each narrowable cast's result the meet of its type and its operand's; returns
    how many changed. Raises PassFailure, after an error at each, for casts that contradict
    their source."""
    casts = _casts(module)
    if not _report_contradictions(casts):
        raise PassFailure
    return sum(_narrow(cast.opview) for cast in casts)


def check_casts(module: ir.Operation) -> None:
    """Raise PassFailure, after an error at each, for casts that contradict their source."""
    if not _report_contradictions(_casts(module)):
        raise PassFailure


def _casts(module: ir.Operation) -> list:
    casts = []

    def collect(op):
        if op.name == _CAST and OPAQUE_CAST not in op.attributes:
            casts.append(op)
        return ir.WalkResult.ADVANCE

    for function in user_functions(module):
        function.operation.walk(collect)
    return casts


def _report_contradictions(casts: list) -> bool:
    """Emit an error at each cast whose stated type contradicts the types its source
    chain already holds (reported once, at the first cast of a chain that lies)."""
    consistent = True
    for cast in casts:
        result = cast.results[0]
        if any(use.owner.operation.name == _BACK_EDGE for use in result.uses):
            continue
        known = _chain_info(cast.operands[0])
        stated = types.parse(result.type)
        if known is None or stated is None or types.meet(stated, known) is not None:
            continue
        cast.location.emit_error(
            f"'{_CAST}' op operand type '{types.to_type(known)}' and result type '{result.type}' "
            "are cast incompatible: the cast states what its source is known not to be")
        consistent = False
    return consistent


def _chain_info(value: ir.Value) -> types.TensorInfo | None:
    """The meet of the types along the casts producing `value` (the same tensor), or None
    where they contradict or are no tensor types; an opaque cast ends the chain."""
    info = types.parse(value.type)
    while (info is not None and isinstance(value, ir.OpResult) and value.owner.operation.name == _CAST
           and OPAQUE_CAST not in value.owner.attributes):
        value = value.owner.operands[0]
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
