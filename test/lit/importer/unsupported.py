# RUN: %PYTHON %s | filecheck %s
# Nodes without a Torch-dialect form fail with the node kind, its schema, the function and where.
from typing import Union

from _harness import print_import_error


# aten::lt(Scalar, Scalar) has no Torch op (only lt.int, lt.float, ...).
# CHECK: error: cannot import node aten::lt (aten::lt(Scalar a, Scalar b) -> bool) in __torch__.scalar_less
# CHECK-SAME: unsupported.py":{{[0-9]+}}:11
# CHECK-SAME: the Torch dialect has no op 'torch.aten.lt'
def scalar_less(a: Union[int, float], b: Union[int, float]) -> bool:
    return a < b


print_import_error(scalar_less)
