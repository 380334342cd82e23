"""The two kinds of calculation, shape and dtype, and the ops that hold them.

A calculate op wraps one user op (its `body` region) together with the calculation of the
wrapped results' shapes or dtypes (its `calculation` region):

    %r = torch.shape.calculate {
      %0 = torch.aten.tanh %x : !torch.vtensor -> !torch.vtensor
      torch.shape.calculate.yield %0 : !torch.vtensor
    } shapes {
      ...
      torch.shape.calculate.yield.shapes %c : !torch.list<int>
    } : !torch.vtensor

`CalculationKind` is the one description of a kind every pass uses: its library symbol
prefix, its op names, which result types it describes and when one counts as refined.
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_refine.calculations.symbols import DTYPE_FN_PREFIX, SHAPE_FN_PREFIX
from torch_refine.ir.types import is_tensor_type_text, parse_text

RAISE = "torch.prim.RaiseException"  # a library check that fails
# The ends of the library's messages for int64 overflow of a size product (_helpers.py)
# and of a size (arange's, near 2**63 elements).
_OVERFLOW_MESSAGES = ("storage size calculation overflowed", "stride calculation overflowed",
                      "invalid size, possible overflow", "the padded size is past the int64 maximum",
                      "the diagonal's size overflows int64", "the square of the diagonal's offset overflows int64")


def is_overflow_check(message: str | None) -> bool:
    """Whether a library check guards an int64 overflow of sizes. Undecided, it is no guard:
    sizes a program runs with never overflow (torch.export's symbolic shapes keep no such
    guard either); decided, it stays an error."""
    return message is not None and message.endswith(_OVERFLOW_MESSAGES)


CALCULATE_OPS = frozenset({"torch.shape.calculate", "torch.dtype.calculate"})
BODY_YIELD_OPS = frozenset({"torch.shape.calculate.yield", "torch.dtype.calculate.yield"})
YIELD_OPS = frozenset(
    {
        "torch.shape.calculate.yield",
        "torch.dtype.calculate.yield",
        "torch.shape.calculate.yield.shapes",
        "torch.dtype.calculate.yield.dtypes",
    }
)

# What a library function sees of an operand (`LibraryCloner.parameter_views`): nothing,
# a tensor's sizes (shape functions), or its rank and dtype (dtype functions).
UNREAD, SIZES, RANK_DTYPE = "unread", "sizes", "rank-dtype"


@dataclass(frozen=True)
class CalculationKind:
    name: str  # "shape" or "dtype"
    prefix: str  # library symbol prefix of this kind's functions
    calculate_op: str
    body_yield_op: str
    calculation_yield_op: str

    def describes(self, type_text: str) -> bool:
        if is_tensor_type_text(type_text):
            return True
        return self.name == "dtype" and type_text in ("!torch.number", "!torch.int", "!torch.float")

    def is_refined(self, type_text: str) -> bool:
        info = parse_text(type_text)
        if info is None:
            return type_text != "!torch.number"
        return info.has_sizes if self.name == "shape" else info.dtype is not None

    def result_type(self) -> str:
        """What the library function returns for one described result."""
        return "!torch.list<int>" if self.name == "shape" else "!torch.int"

    @property
    def deferred_checks(self) -> str:
        """The mark of an op whose checks of this kind wait for its loop to settle
        (engine/refine.py)."""
        return f"torch_refine.deferred_{self.name}_checks"


SHAPE = CalculationKind(
    "shape",
    SHAPE_FN_PREFIX,
    "torch.shape.calculate",
    "torch.shape.calculate.yield",
    "torch.shape.calculate.yield.shapes",
)
DTYPE = CalculationKind(
    "dtype",
    DTYPE_FN_PREFIX,
    "torch.dtype.calculate",
    "torch.dtype.calculate.yield",
    "torch.dtype.calculate.yield.dtypes",
)
KINDS = {kind.name: kind for kind in (SHAPE, DTYPE)}
