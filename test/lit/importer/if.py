# RUN: %PYTHON %s | filecheck %s
from typing import List, Optional

from _harness import print_imported


# CHECK-LABEL: func.func @no_results(%arg0: !torch.list<int>, %arg1: !torch.bool)
# CHECK: torch.prim.If %arg1 -> () {
# CHECK:   torch.aten.append.t %arg0
# CHECK:   torch.prim.If.yield{{$}}
# CHECK: } else {
# CHECK:   torch.prim.If.yield{{$}}
def no_results(values: List[int], flag: bool) -> List[int]:
    if flag:
        values.append(1)
    return values


# Branch results of a narrower type are derefined to the If's result type.
# CHECK-LABEL: func.func @optional_result(%arg0: !torch.bool) -> !torch.optional<int>
# CHECK: torch.prim.If %arg0 -> (!torch.optional<int>) {
# CHECK:   %[[SOME:.*]] = torch.derefine %{{.*}} : !torch.int to !torch.optional<int>
# CHECK:   torch.prim.If.yield %[[SOME]] : !torch.optional<int>
# CHECK: } else {
# CHECK:   %[[NONE:.*]] = torch.derefine %{{.*}} : !torch.none to !torch.optional<int>
# CHECK:   torch.prim.If.yield %[[NONE]] : !torch.optional<int>
def optional_result(flag: bool) -> Optional[int]:
    if flag:
        return 1
    return None


# CHECK-LABEL: func.func @select(%arg0: !torch.int) -> !torch.int
# CHECK: %[[COND:.*]] = torch.aten.gt.int %arg0, %{{.*}} : !torch.int, !torch.int -> !torch.bool
# CHECK: %[[RESULT:.*]] = torch.prim.If %[[COND]] -> (!torch.int) {
# CHECK:   %[[DOUBLED:.*]] = torch.aten.mul.int %arg0, %{{.*}}
# CHECK:   torch.prim.If.yield %[[DOUBLED]] : !torch.int
# CHECK: } else {
# CHECK:   %[[NEGATED:.*]] = torch.aten.neg.int %arg0
# CHECK:   torch.prim.If.yield %[[NEGATED]] : !torch.int
# CHECK: }
# CHECK: return %[[RESULT]] : !torch.int
def select(x: int) -> int:
    if x > 0:
        y = x * 2
    else:
        y = -x
    return y


print_imported(no_results, optional_result, select)
