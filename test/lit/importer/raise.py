# RUN: %PYTHON %s | filecheck %s
from typing import List

from _harness import print_imported


# A bare assert raises a constant message.
# CHECK-LABEL: func.func @assert_constant(%arg0: !torch.int)
# CHECK-DAG: %[[MESSAGE:.*]] = torch.constant.str "AssertionError: "
# CHECK-DAG: %[[NONE:.*]] = torch.constant.none
# CHECK: torch.prim.If %{{.*}} -> () {
# CHECK:   torch.prim.RaiseException %[[MESSAGE]], %[[NONE]] : !torch.str, !torch.none
def assert_constant(x: int) -> int:
    assert x > 0
    return x


# A message built from constants only is folded into one string; its parts are not left behind.
# CHECK-LABEL: func.func @folded_message(%arg0: !torch.int)
# CHECK-NOT: torch.aten.format
# CHECK-NOT: torch.aten.add.str
# CHECK-NOT: torch.constant.str "rank {} is not {}"
# CHECK: %[[MESSAGE:.*]] = torch.constant.str "AssertionError: rank 2 is not 3"
# CHECK: torch.prim.RaiseException %[[MESSAGE]]
def folded_message(x: int) -> int:
    assert x > 0, "rank {} is not {}".format(2, 3)
    return x


# An explicit raise names the exception class.
# CHECK-LABEL: func.func @raise_value_error(%arg0: !torch.int)
# CHECK: torch.prim.RaiseException %{{.*}}, %{{.*}} : !torch.str, !torch.str
def raise_value_error(x: int) -> int:
    if x < 0:
        raise ValueError("negative")
    return x


# A message that depends on arguments stays as format and add.str ops.
# CHECK-LABEL: func.func @runtime_message(%arg0: !torch.list<int>)
# CHECK: %[[TEXT:.*]] = torch.aten.format(%{{.*}}, %[[LENGTH:.*]]) : !torch.str, !torch.int -> !torch.str
# CHECK: %[[MESSAGE:.*]] = torch.aten.add.str %{{.*}}, %[[TEXT]] : !torch.str, !torch.str -> !torch.str
# CHECK: torch.prim.RaiseException %[[MESSAGE]], %{{.*}} : !torch.str, !torch.none
def runtime_message(values: List[int]) -> int:
    assert len(values) == 2, f"expected 2 values, got {len(values)}"
    return values[0]


print_imported(assert_constant, folded_message, raise_value_error, runtime_message)
