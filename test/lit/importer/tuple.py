# RUN: %PYTHON %s | filecheck %s
from typing import Tuple

from _harness import print_imported


# CHECK-LABEL: func.func @construct(%arg0: !torch.int, %arg1: !torch.list<int>) -> !torch.tuple<int, list<int>>
# CHECK: %[[TUPLE:.*]] = torch.prim.TupleConstruct %arg0, %arg1 : !torch.int, !torch.list<int> -> !torch.tuple<int, list<int>>
# CHECK: return %[[TUPLE]]
def construct(x: int, values: list[int]) -> Tuple[int, list[int]]:
    return (x, values)


# CHECK-LABEL: func.func @index(%arg0: !torch.tuple<int, float>) -> !torch.float
# CHECK: %[[ONE:.*]] = torch.constant.int 1
# CHECK: torch.prim.TupleIndex %arg0, %[[ONE]] : !torch.tuple<int, float>, !torch.int -> !torch.float
def index(pair: Tuple[int, float]) -> float:
    return pair[1]


# CHECK-LABEL: func.func @unpack(%arg0: !torch.tuple<int, int>) -> !torch.int
# CHECK: %[[PARTS:.*]]:2 = torch.prim.TupleUnpack %arg0 : !torch.tuple<int, int> -> !torch.int, !torch.int
# CHECK: torch.aten.sub.int %[[PARTS]]#0, %[[PARTS]]#1
def unpack(pair: Tuple[int, int]) -> int:
    a, b = pair
    return a - b


print_imported(construct, index, unpack)
