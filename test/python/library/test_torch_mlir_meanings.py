"""The cases where the library follows torch-mlir's meaning of an op, wider than eager
PyTorch's (docs/library.md, "Where torch-mlir's meaning is wider than eager PyTorch").

test_library.py checks each `TorchMlirInvocation` against the op's entry in
TORCH_MLIR_MEANINGS; here PyTorch's own op must still reject it (else the case is an ordinary
one) and the meaning must accept it, and every meaning must have cases.
"""

import pytest

from torch_refine.library import registry
from torch_refine.library.testing import TORCH_MLIR_MEANINGS, TorchMlirInvocation, op_overload


def _cases():
    for entry in registry.functions("shape"):
        for index, invocation in enumerate(entry.invocations):
            if isinstance(invocation, TorchMlirInvocation):
                yield pytest.param(entry.op, invocation, id=f"{entry.op}-{index}")


CASES = list(_cases())


def test_every_torch_mlir_meaning_has_cases():
    ops = {op for op, _ in (case.values for case in CASES)}
    assert ops == set(TORCH_MLIR_MEANINGS)
    assert {"aten.avg_pool1d", "aten.avg_pool2d", "aten.avg_pool3d", "aten.pad",
            "prims.squeeze", "aten.broadcast_to", "aten.expand"} <= ops


@pytest.mark.parametrize(("op", "invocation"), CASES)
def test_pytorch_rejects_what_torch_mlir_accepts(op, invocation):
    args, kwargs = invocation.op_args()
    with pytest.raises(Exception):  # noqa: PT011 (PyTorch's checks raise several types)
        op_overload(op)(*args, **kwargs)
    invocation.run(TORCH_MLIR_MEANINGS[op])
