"""`torch-refine-ops --missing --against registry` lists only the overloads PyTorch itself
cannot run on meta, each with its reason, after counts of how the registry is served."""

from __future__ import annotations

import json

import pytest
import torch
from torch._decomp import decomposition_table, meta_table

from torch_refine.library import meta_fallback
from torch_refine.library.testing import op_overload
from torch_refine.tools import ops


@pytest.fixture(scope="module")
def listed() -> list[dict]:
    return ops.build_rows(ops._argument_parser().parse_args(["--missing"]), None, against="registry")


def _runs_on_meta(op: str) -> bool:
    """A meta kernel, a Python meta registration or decomposition, or a composite kernel."""
    try:
        overload = op_overload(op)
        kernels = {key for key in ("Meta", "CompositeImplicitAutograd")
                   if torch._C._dispatch_has_kernel_for_dispatch_key(overload.name(), key)}
    except (AttributeError, RuntimeError):  # TorchScript's own ops: no dispatcher entry
        return False
    return (bool(kernels) or overload in meta_table or overload in decomposition_table
            or torch._C.DispatchKey.Meta in overload.py_kernels)


def test_no_overload_with_a_meta_kernel_is_listed(listed):
    wrongly = [row.op for row in listed if _runs_on_meta(row.op)]
    assert not wrongly


def test_every_listed_overload_has_a_reason_of_a_known_kind(listed):
    assert listed
    unexplained = [(row.op, row.meta) for row in listed if not (row.meta or "").startswith(meta_fallback.META_REASONS)]
    assert not unexplained


@pytest.mark.parametrize(("op", "kind"), [
    ("aten.add.int", meta_fallback.NO_DISPATCHER_OP),
    ("aten.cudnn_convolution", meta_fallback.BACKEND_ONLY),
    ("aten._foreach_add.ScalarList", meta_fallback.FOREACH),
    ("aten.histogram.bin_ct", meta_fallback.CPU_ONLY),
    ("aten._pin_memory", meta_fallback.NEEDS_CPU_DATA),
])
def test_reasons(listed, op, kind):
    (row,) = [row for row in listed if row.op == op]
    assert row.meta.startswith(kind)


@pytest.mark.parametrize("op", ["aten.logsumexp", "aten.cummax", "aten._reshape_copy", "aten.view_as_real_copy"])
def test_ops_pytorch_runs_on_meta_are_not_listed(listed, op):
    """Served by a library function or the fallback; `_reshape_copy` and `view_as_real_copy`
    have only a CompositeExplicitAutograd kernel, which runs on meta though the sample
    made from their schema fails their checks."""
    assert op in ops.registry_aten_ops()
    assert op not in {row.op for row in listed}


def test_the_counts_add_up(capsys):
    assert ops.main(["--missing", "--against=registry"]) == 0
    header, counts, *_ = capsys.readouterr().out.splitlines()
    missing, total = (int(n) for n in header.split(": ")[1].removesuffix(" ops ==").split(" of "))
    numbers = [int(part.split(": ")[1].split(" ")[0].rstrip(",;")) for part in counts.split(", ")[:2]]
    assert total == len(ops.registry_aten_ops())
    assert f"left: {missing} (" in counts
    assert sum(numbers) + missing <= total


def test_json_lists_only_the_missing(capsys):
    assert ops.main(["--missing", "--json", "--against=registry"]) == 0
    rows = json.loads(capsys.readouterr().out)["registry"]
    assert all(row["served"] == "none" and row["meta"] for row in rows)
