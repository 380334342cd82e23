# RUN: %PYTHON %s | filecheck %s
from typing import List, Optional

from _harness import print_imported
from torch_refine.library.promotion import promote_dtypes


def twice(x: int) -> int:
    return x * 2


# A callee is imported once, as a private helper; every call site refers to it.
# CHECK-LABEL: func.func private @__torch_refine_helper.twice(%arg0: !torch.int) -> !torch.int
# CHECK-NOT: func.func private @__torch_refine_helper.twice
# CHECK-LABEL: func.func @calls_twice(%arg0: !torch.int) -> !torch.int
# CHECK: %[[ONCE:.*]] = call @__torch_refine_helper.twice(%arg0) : (!torch.int) -> !torch.int
# CHECK: call @__torch_refine_helper.twice(%[[ONCE]]) : (!torch.int) -> !torch.int
def calls_twice(x: int) -> int:
    return twice(twice(x))


# promotion.promote_dtypes becomes the torch.promote_dtypes op, not a call.
# CHECK-LABEL: func.func @promotes(%arg0: !torch.list<optional<int>>, %arg1: !torch.list<int>) -> !torch.int
# CHECK: %[[DTYPE:.*]] = torch.promote_dtypes %arg0, %arg1 : (!torch.list<optional<int>>, !torch.list<int>) -> !torch.int
# CHECK: return %[[DTYPE]]
# CHECK-NOT: promotion.promote_dtypes
def promotes(ranks: List[Optional[int]], dtypes: List[int]) -> int:
    return promote_dtypes(ranks, dtypes)


print_imported(calls_twice, promotes)
