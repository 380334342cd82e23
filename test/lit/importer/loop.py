# RUN: %PYTHON %s | filecheck %s
from typing import List

from _harness import print_imported


# range(start, stop, step) goes through __range_length and __derive_index.
# CHECK-LABEL: func.func @strided(%arg0: !torch.int, %arg1: !torch.int, %arg2: !torch.int)
# CHECK: %[[LENGTH:.*]] = torch.aten.__range_length %arg0, %arg1, %arg2
# CHECK: torch.prim.Loop %[[LENGTH]]
# CHECK: ^bb0(%[[IV:.*]]: !torch.int):
# CHECK:   torch.aten.__derive_index %[[IV]], %arg0, %arg2
# CHECK:   torch.prim.Loop.condition %{{.*}}, iter()
def strided(start: int, stop: int, step: int) -> List[int]:
    out: List[int] = []
    for i in range(start, stop, step):
        out.append(i)
    return out


# A for loop over range(n): trip count n, initial condition true, one carried value.
# CHECK-LABEL: func.func @sum_range(%arg0: !torch.int) -> !torch.int
# CHECK: %[[TRUE:.*]] = torch.constant.bool true
# CHECK: %[[ZERO:.*]] = torch.constant.int 0
# CHECK: %[[SUM:.*]] = torch.prim.Loop %arg0, %[[TRUE]], init(%[[ZERO]]) {
# CHECK: ^bb0(%[[IV:.*]]: !torch.int, %[[ACC:.*]]: !torch.int):
# CHECK:   %[[NEXT:.*]] = torch.aten.add.int %[[ACC]], %[[IV]]
# CHECK:   torch.prim.Loop.condition %[[TRUE]], iter(%[[NEXT]] : !torch.int)
# CHECK: } : (!torch.int, !torch.bool, !torch.int) -> !torch.int
# CHECK: return %[[SUM]]
def sum_range(n: int) -> int:
    total = 0
    for i in range(n):
        total = total + i
    return total


# A while loop: the maximum trip count, the condition carried through the terminator.
# CHECK-LABEL: func.func @while_halving(%arg0: !torch.int) -> !torch.int
# CHECK: %[[MAX:.*]] = torch.constant.int 9223372036854775807
# CHECK: %[[FIRST:.*]] = torch.aten.gt.int %arg0, %{{.*}}
# CHECK: torch.prim.Loop %[[MAX]], %[[FIRST]], init(%arg0) {
# CHECK: ^bb0(%{{.*}}: !torch.int, %[[X:.*]]: !torch.int):
# CHECK:   %[[HALF:.*]] = torch.aten.floordiv.int %[[X]]
# CHECK:   %[[AGAIN:.*]] = torch.aten.gt.int %[[HALF]]
# CHECK:   torch.prim.Loop.condition %[[AGAIN]], iter(%[[HALF]] : !torch.int)
def while_halving(x: int) -> int:
    while x > 1:
        x = x // 2
    return x


print_imported(strided, sum_range, while_halving)
