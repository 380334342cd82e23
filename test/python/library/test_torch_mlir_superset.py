"""The library is a superset of torch-mlir's: every op torch-mlir's installed library has a
shape or dtype function for has every function kind that applies to it here."""

from __future__ import annotations

from torch_refine.tools import ops


def test_torch_mlir_list_is_read_from_the_wheel():
    names = ops.torch_mlir_ops()
    assert "aten.mm" in names
    assert "prims.convert_element_type" in names
    assert not any(name.endswith(".") for name in names)


# Ops not covered yet, each with why; the test fails when one is covered (remove it here).
KNOWN_GAPS: dict[str, str] = {}


def test_every_torch_mlir_op_is_covered():
    args = ops._argument_parser().parse_args(["--missing"])
    missing = [row.op for row in ops.build_rows(args, None, against="torch-mlir")]
    unexpected = sorted(set(missing) - set(KNOWN_GAPS))
    assert not unexpected, f"{len(unexpected)} ops of torch-mlir's library not covered: " + ", ".join(
        unexpected)
    assert sorted(missing) == sorted(KNOWN_GAPS), "covered now: remove from KNOWN_GAPS"
