# RUN: %PYTHON %s | filecheck %s
from typing import Union

from _harness import print_imported


# On a number, isinstance tests the dtype NumToTensor gives it: int64 (4), float64 (7),
# complex128 (10); several types are or-ed (TorchScript sorts them).
# CHECK-LABEL: func.func @is_real(%arg0: !torch.number) -> !torch.bool
# CHECK: %[[TENSOR:.*]] = torch.prim.NumToTensor.Scalar %arg0 : !torch.number -> !torch.vtensor
# CHECK: %[[DTYPE:.*]] = torch.prim.dtype %[[TENSOR]] : !torch.vtensor -> !torch.int
# CHECK: %[[FLOAT:.*]] = torch.constant.int 7
# CHECK: %[[IS_FLOAT:.*]] = torch.aten.eq.int %[[DTYPE]], %[[FLOAT]]
# CHECK: %[[INT:.*]] = torch.constant.int 4
# CHECK: %[[IS_INT:.*]] = torch.aten.eq.int %[[DTYPE]], %[[INT]]
# CHECK: %[[EITHER:.*]] = torch.aten.__or__.bool %[[IS_FLOAT]], %[[IS_INT]]
# CHECK: return %[[EITHER]] : !torch.bool
def is_real(value: Union[int, float, complex]) -> bool:
    return isinstance(value, (int, float))


# Refining a union narrows it with unchecked_cast after the test.
# CHECK-LABEL: func.func @truncate(%arg0: !torch.union<float, int>) -> !torch.int
# CHECK: torch.constant.int 7
# CHECK: torch.prim.If %{{.*}} -> (!torch.int) {
# CHECK:   torch.prim.unchecked_cast %arg0 : !torch.union<float, int> -> !torch.float
# CHECK: } else {
# CHECK:   torch.prim.unchecked_cast %arg0 : !torch.union<float, int> -> !torch.int
def truncate(value: Union[int, float]) -> int:
    if isinstance(value, float):
        return int(value)
    return value


print_imported(is_real, truncate)
