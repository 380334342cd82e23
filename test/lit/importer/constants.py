# RUN: %PYTHON %s | filecheck %s
# Functions print sorted by symbol, so each file defines them in alphabetical order.
from typing import Optional, Tuple

from _harness import print_imported


# CHECK-LABEL: func.func @scalars() -> !torch.tuple<int, float, bool, str, optional<int>>
# CHECK-DAG: %[[INT:.*]] = torch.constant.int -7
# CHECK-DAG: %[[FLOAT:.*]] = torch.constant.float 2.500000e-01
# CHECK-DAG: %[[BOOL:.*]] = torch.constant.bool true
# CHECK-DAG: %[[STR:.*]] = torch.constant.str "text"
# CHECK-DAG: %[[NONE:.*]] = torch.constant.none
# CHECK: %[[TUPLE:.*]] = torch.prim.TupleConstruct %[[INT]], %[[FLOAT]], %[[BOOL]], %[[STR]], %[[NONE]]
# CHECK: torch.derefine %[[TUPLE]] : !torch.tuple<int, float, bool, str, none> to !torch.tuple<int, float, bool, str, optional<int>>
def scalars() -> Tuple[int, float, bool, str, Optional[int]]:
    return (-7, 0.25, True, "text", None)


# CHECK-LABEL: func.func @special_values()
# CHECK-DAG: torch.constant.int 9223372036854775807
# CHECK-DAG: torch.constant.float 0x7FF0000000000000
def special_values() -> Tuple[int, float]:
    return (9223372036854775807, float("inf"))


print_imported(scalars, special_values)
