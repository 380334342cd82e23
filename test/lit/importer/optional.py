# RUN: %PYTHON %s | filecheck %s
from typing import Optional

from _harness import print_imported


# CHECK-LABEL: func.func @is_none(%arg0: !torch.optional<list<int>>) -> !torch.bool
# CHECK: torch.aten.__is__ %arg0, %{{.*}} : !torch.optional<list<int>>, !torch.none -> !torch.bool
def is_none(x: Optional[list[int]]) -> bool:
    return x is None


# Refining an Optional with `is not None` gives prim::unchecked_cast in the taken branch.
# CHECK-LABEL: func.func @value_or(%arg0: !torch.optional<int>, %arg1: !torch.int) -> !torch.int
# CHECK: %[[NONE:.*]] = torch.constant.none
# CHECK: %[[SET:.*]] = torch.aten.__isnot__ %arg0, %[[NONE]] : !torch.optional<int>, !torch.none -> !torch.bool
# CHECK: torch.prim.If %[[SET]] -> (!torch.int) {
# CHECK:   %[[VALUE:.*]] = torch.prim.unchecked_cast %arg0 : !torch.optional<int> -> !torch.int
# CHECK:   torch.prim.If.yield %[[VALUE]] : !torch.int
def value_or(x: Optional[int], default: int) -> int:
    if x is not None:
        return x
    return default


# An int passed where Optional[int] is expected is derefined at the call.
# CHECK-LABEL: func.func @widen(%arg0: !torch.int) -> !torch.int
# CHECK: %[[WIDE:.*]] = torch.derefine %arg0 : !torch.int to !torch.optional<int>
# CHECK: call @__torch_refine_helper.value_or(%[[WIDE]], %{{.*}}) : (!torch.optional<int>, !torch.int) -> !torch.int
def widen(x: int) -> int:
    return value_or(x, 0)


print_imported(is_none, value_or, widen)
