# RUN: %PYTHON %s | filecheck %s
# Scalar nodes map onto the Torch op named by their schema overload.
from typing import List, Tuple, Union

import torch

from _harness import print_imported


# CHECK-LABEL: func.func @arithmetic(%arg0: !torch.int, %arg1: !torch.int, %arg2: !torch.float)
# CHECK: torch.aten.add.int %arg0, %arg1
# CHECK: torch.aten.sub.int
# CHECK: torch.aten.mul.int
# CHECK: torch.aten.floordiv.int
# CHECK: torch.aten.floordiv.int
# CHECK: torch.aten.mul.int
# CHECK: torch.aten.sub.int
# CHECK: torch.aten.neg.int
# CHECK: torch.aten.mul.int_float %arg0, %arg2 : !torch.int, !torch.float -> !torch.float
# CHECK: torch.aten.div.int %{{.*}}, %{{.*}} : !torch.int, !torch.int -> !torch.float
# CHECK: torch.aten.ceil.float %{{.*}} : !torch.float -> !torch.int
def arithmetic(a: int, b: int, f: float) -> Tuple[int, float, float, int]:
    c = -((((a + b) - a) * b // a) % b)
    return (c, a * f, a / b, torch.ceil(f))


# CHECK-LABEL: func.func @comparisons(%arg0: !torch.int, %arg1: !torch.int, %arg2: !torch.bool)
# CHECK: torch.aten.eq.int %arg0, %arg1
# CHECK: torch.aten.ne.int
# CHECK: torch.aten.lt.int
# CHECK: torch.aten.le.int
# CHECK: torch.aten.gt.int
# CHECK: torch.aten.ge.int
# CHECK: torch.aten.__not__ %arg2 : !torch.bool -> !torch.bool
def comparisons(a: int, b: int, flag: bool) -> List[bool]:
    return [a == b, a != b, a < b, a <= b, a > b, a >= b, not flag]


# CHECK-LABEL: func.func @conversions(%arg0: !torch.float, %arg1: !torch.number)
# CHECK: torch.aten.Int.float %arg0 : !torch.float -> !torch.int
# CHECK: torch.aten.Int.Scalar %arg1 : !torch.number -> !torch.int
# CHECK: torch.aten.Float.Scalar %arg1 : !torch.number -> !torch.float
def conversions(f: float, s: Union[int, float, complex]) -> Tuple[int, int, float]:
    return (int(f), int(s), float(s))


# CHECK-LABEL: func.func @min_max(%arg0: !torch.int, %arg1: !torch.int, %arg2: !torch.list<int>)
# CHECK: torch.prim.max.int %arg0, %arg1 : !torch.int, !torch.int -> !torch.int
# CHECK: torch.prim.min.int %arg0, %arg1 : !torch.int, !torch.int -> !torch.int
# CHECK: torch.prim.max.self_int %arg2 : !torch.list<int> -> !torch.int
# CHECK: torch.prim.min.self_int %arg2 : !torch.list<int> -> !torch.int
def min_max(a: int, b: int, values: List[int]) -> List[int]:
    return [max(a, b), min(a, b), max(values), min(values)]


# Comparisons the Torch dialect lacks are rebuilt exactly from ones it has: swapped
# operands, a negation, or both or-ed.
# CHECK-LABEL: func.func @rebuilt(%arg0: !torch.float, %arg1: !torch.float, %arg2: !torch.int)
# CHECK: torch.aten.ge.float %arg1, %arg0 : !torch.float, !torch.float -> !torch.bool
# CHECK: %[[NE:.*]] = torch.aten.ne.float_int %arg0, %arg2 : !torch.float, !torch.int -> !torch.bool
# CHECK: torch.aten.__not__ %[[NE]] : !torch.bool -> !torch.bool
# CHECK: %[[LT:.*]] = torch.aten.lt.float_int %arg0, %arg2
# CHECK: %[[NE2:.*]] = torch.aten.ne.float_int %arg0, %arg2
# CHECK: %[[EQ:.*]] = torch.aten.__not__ %[[NE2]]
# CHECK: torch.aten.__or__.bool %[[LT]], %[[EQ]] : !torch.bool, !torch.bool -> !torch.bool
def rebuilt(a: float, b: float, i: int) -> List[bool]:
    return [a <= b, a == i, a <= i]


# CHECK-LABEL: func.func @scalar_dtype(%arg0: !torch.number) -> !torch.int
# CHECK: %[[TENSOR:.*]] = torch.prim.NumToTensor.Scalar %arg0 : !torch.number -> !torch.vtensor
# CHECK: torch.prim.dtype %[[TENSOR]] : !torch.vtensor -> !torch.int
def scalar_dtype(value: Union[int, float, complex]) -> int:
    return torch.ops.prim.NumToTensor(value).dtype


print_imported(arithmetic, comparisons, conversions, min_max, rebuilt, scalar_dtype)


# `%` on ints is Python's floor remainder; torch-mlir folds aten.remainder.int the C way,
# so the importer spells it out with ops that fold right.
# CHECK-LABEL: func.func @remainder(%arg0: !torch.int, %arg1: !torch.int) -> !torch.int
# CHECK-NOT:     torch.aten.remainder.int
# CHECK:         %[[Q:.*]] = torch.aten.floordiv.int %arg0, %arg1
# CHECK:         %[[P:.*]] = torch.aten.mul.int %[[Q]], %arg1
# CHECK:         torch.aten.sub.int %arg0, %[[P]]
def remainder(a: int, b: int) -> int:
    return a % b


print_imported(remainder)
