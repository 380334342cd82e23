"""The library is a superset of torch-mlir's: every op torch-mlir's installed library has a
shape or dtype function for has every function kind that applies to it here."""

from __future__ import annotations

import pytest

from torch_refine.tools import ops


def test_torch_mlir_list_is_read_from_the_wheel():
    names = ops.torch_mlir_ops()
    assert "aten.mm" in names
    assert "prims.convert_element_type" in names
    assert not any(name.endswith(".") for name in names)


# lead: remove after merging lib-nn/lib-math/lib-create
@pytest.mark.xfail(strict=False, reason="aten ops added on other branches")
def test_every_torch_mlir_op_is_covered():
    args = ops._argument_parser().parse_args(["--missing"])
    missing = [row.op for row in ops.build_rows(args, None, against="torch-mlir")]
    assert not missing, f"{len(missing)} ops of torch-mlir's library not covered: " + ", ".join(
        missing)
