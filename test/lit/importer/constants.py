# RUN: %PYTHON %s | filecheck %s
# Functions print sorted by symbol, so each file defines them in alphabetical order.
from typing import List, Optional, Tuple

import torch

from _harness import print_imported


def _with_defaults(x: int, pad: Tuple[int, int] = (1, 2), sizes: List[int] = (3, 4)) -> int:
    return x + pad[0] + sizes[1]


# Default arguments arrive as list and tuple constants; they become construct ops.
# CHECK-LABEL: func.func @aggregate_constants(%arg0: !torch.int) -> !torch.int
# CHECK-DAG: %[[THREE:.*]] = torch.constant.int 3
# CHECK-DAG: %[[FOUR:.*]] = torch.constant.int 4
# CHECK-DAG: %[[SIZES:.*]] = torch.prim.ListConstruct %[[THREE]], %[[FOUR]] : (!torch.int, !torch.int) -> !torch.list<int>
# CHECK-DAG: %[[ONE:.*]] = torch.constant.int 1
# CHECK-DAG: %[[TWO:.*]] = torch.constant.int 2
# CHECK-DAG: %[[PAD:.*]] = torch.prim.TupleConstruct %[[ONE]], %[[TWO]] : !torch.int, !torch.int -> !torch.tuple<int, int>
# CHECK: call @{{.*}}_with_defaults(%arg0, %[[PAD]], %[[SIZES]])
def aggregate_constants(x: int) -> int:
    return _with_defaults(x)


# CHECK-LABEL: func.func @device_constant(%arg0: !torch.Device) -> !torch.bool
# CHECK: %[[CPU:.*]] = torch.constant.device "cpu"
# CHECK: torch.aten.eq.device %arg0, %[[CPU]] : !torch.Device, !torch.Device -> !torch.bool
def device_constant(device: torch.device) -> bool:
    return device == torch.device("cpu")


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


print_imported(aggregate_constants, device_constant, scalars, special_values)
