# RUN: %PYTHON %s | filecheck %s
from _harness import print_imported


# The raising branch still yields a value of the If's type: prim::Uninitialized.
# CHECK-LABEL: func.func @assigned_or_raise(%arg0: !torch.int) -> !torch.int
# CHECK: %[[UNSET:.*]] = torch.prim.Uninitialized : !torch.int
# CHECK: torch.prim.If %{{.*}} -> (!torch.int) {
# CHECK:   torch.prim.If.yield %arg0 : !torch.int
# CHECK: } else {
# CHECK:   torch.prim.RaiseException
# CHECK:   torch.prim.If.yield %[[UNSET]] : !torch.int
def assigned_or_raise(x: int) -> int:
    if x > 0:
        y = x
    else:
        raise AssertionError("not positive")
    return y


print_imported(assigned_or_raise)
