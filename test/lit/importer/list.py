# RUN: %PYTHON %s | filecheck %s
from typing import List, Optional

from _harness import print_imported


# CHECK-LABEL: func.func @construct_and_mutate(%arg0: !torch.int) -> !torch.list<int>
# CHECK: %[[LIST:.*]] = torch.prim.ListConstruct %arg0, %{{.*}} : (!torch.int, !torch.int) -> !torch.list<int>
# CHECK: torch.aten.append.t %[[LIST]], %arg0 : !torch.list<int>, !torch.int -> !torch.list<int>
# CHECK: torch.aten.insert.t %[[LIST]], %{{.*}}, %arg0 : !torch.list<int>, !torch.int, !torch.int{{$}}
# CHECK: torch.aten._set_item.t %[[LIST]], %{{.*}}, %arg0 : !torch.list<int>, !torch.int, !torch.int -> !torch.list<int>
# CHECK: return %[[LIST]]
def construct_and_mutate(x: int) -> List[int]:
    values = [x, 2]
    values.append(x)
    values.insert(0, x)
    values[1] = x
    return values


# Elements of a narrower type are derefined to the element type, in literals and mutations.
# CHECK-LABEL: func.func @optional_elements(%arg0: !torch.int) -> !torch.list<optional<int>>
# CHECK: %[[SOME:.*]] = torch.derefine %arg0 : !torch.int to !torch.optional<int>
# CHECK: %[[NONE:.*]] = torch.derefine %{{.*}} : !torch.none to !torch.optional<int>
# CHECK: %[[LIST:.*]] = torch.prim.ListConstruct %[[SOME]], %[[NONE]] : (!torch.optional<int>, !torch.optional<int>) -> !torch.list<optional<int>>
# CHECK: %[[ELEMENT:.*]] = torch.derefine %arg0 : !torch.int to !torch.optional<int>
# CHECK: torch.aten.append.t %[[LIST]], %[[ELEMENT]] : !torch.list<optional<int>>, !torch.optional<int>
def optional_elements(x: int) -> List[Optional[int]]:
    values: List[Optional[int]] = [x, None]
    values.append(x)
    return values


# CHECK-LABEL: func.func @read(%arg0: !torch.list<int>) -> !torch.tuple<int, int, bool, list<int>>
# CHECK-DAG: torch.aten.len.t %arg0 : !torch.list<int> -> !torch.int
# CHECK-DAG: torch.aten.__getitem__.t %arg0, %{{.*}} : !torch.list<int>, !torch.int -> !torch.int
# CHECK-DAG: torch.aten.__contains__.int_list %arg0, %{{.*}} : !torch.list<int>, !torch.int -> !torch.bool
# CHECK-DAG: torch.aten.slice.t %arg0, %{{.*}}, %{{.*}}, %{{.*}} : !torch.list<int>, !torch.int, !torch.none, !torch.int -> !torch.list<int>
def read(values: List[int]) -> tuple[int, int, bool, List[int]]:
    return (len(values), values[-1], 3 in values, values[1:])


# CHECK-LABEL: func.func @unpack(%arg0: !torch.list<int>) -> !torch.int
# CHECK: %[[PARTS:.*]]:2 = torch.prim.ListUnpack %arg0 : !torch.list<int> -> !torch.int, !torch.int
# CHECK: torch.aten.add.int %[[PARTS]]#0, %[[PARTS]]#1
def unpack(values: List[int]) -> int:
    a, b = values
    return a + b


print_imported(construct_and_mutate, optional_elements, read, unpack)
