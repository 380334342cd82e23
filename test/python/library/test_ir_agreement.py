"""The whole chain against PyTorch, one op at a time: library function, TorchScript, our
importer, the MLIR library and the refinement passes.

For every op overload with shape or dtype functions, the first of its cases that PyTorch
accepts, on meta tensors and on CPU ones (a shape function's cases are float32 whatever the
op's dtype rules; the dtype functions follow the CPU kernels), becomes a function that calls
the op on statically typed tensors and constant operands, its tensor results erased to
`!torch.vtensor`. Error cases and data-dependent ones are not used. An in-place op takes
non-value tensors, and an op the Torch dialect does not define is a `torch.operator`, as the
importers emit them. `torch-refine-pipeline` must give each result PyTorch's sizes and dtype:

- exact: sizes and dtype equal PyTorch's;
- imprecise: consistent but less precise (a `?` dim, an unknown dtype or rank); allowed only
  for the ops listed in KNOWN_IMPRECISE, with exactly the listed types, so a precision
  regression fails and so does an improvement, until the table is updated;
- contradiction (a static dim or a dtype PyTorch denies), or a pipeline error on a case
  PyTorch accepts: a failure.

A case the Torch dialect cannot express as built here (an operand type it rejects, a
schema type the builder does not handle, a Tensor[] result) is skipped with the reason.
"""

import pytest

from torch_refine import report
from torch_refine.api import RefinementError, refine
from torch_refine.library import registry
from torch_refine.library.testing import (
    DataDependentInvocation,
    DataDependentKernelInvocation,
    KernelInvocation,
    Unbuildable,
    build_ir,
    is_in_place,
    op_overload,
    parse_ir,
    pytorch_infos,
    result_infos,
    run_pytorch,
)

CHECKED_KINDS = ("shape", "dtype")

# Op -> the refined types of its tensor results where they are less precise than PyTorch's
# (none at present).
KNOWN_IMPRECISE: dict[str, tuple[str, ...]] = {}


def _cases():
    by_op: dict[str, list] = {}
    for entry in registry.functions():  # sorted by op, then shape before dtype
        if entry.kind in CHECKED_KINDS:
            by_op.setdefault(entry.op, []).extend(entry.invocations)
    for op, invocations in by_op.items():
        yield pytest.param(op, tuple(invocations), id=op)


def _agreement_case(op: str, invocations):
    """The first usable case and PyTorch's result on it; (None, None) when there is none.
    Chosen when the test runs: PyTorch has to run each candidate."""
    for invocation in invocations:
        if invocation.expects_error:
            continue
        if isinstance(invocation, DataDependentInvocation | DataDependentKernelInvocation):
            continue
        result, error = run_pytorch(op, invocation)
        on_cpu = KernelInvocation(*invocation.args, **invocation.kwargs)
        if error is None and run_pytorch(op, on_cpu)[1] is None:
            return invocation, result
    return None, None


# Both ways of refining: running the library function on the constant operands
# (engine/evaluator.py, the default) and calculating in the IR (reify, inline, simplify).
@pytest.mark.parametrize("evaluate", [True, False], ids=["evaluated", "in-ir"])
@pytest.mark.parametrize(("op", "invocations"), list(_cases()))
def test_refined_types_agree_with_pytorch(op, invocations, evaluate):
    invocation, result = _agreement_case(op, invocations)
    if invocation is None:
        pytest.skip("no case PyTorch accepts on meta and CPU tensors that is not data-dependent")
    try:
        text = build_ir(op, invocation)
        module = parse_ir(text)
    except Unbuildable as reason:
        pytest.skip(str(reason))
    expected = pytorch_infos(result, not is_in_place(op_overload(op)._schema))
    try:
        refined = result_infos(refine(module, evaluate=evaluate).module)
    except RefinementError as error:
        pytest.fail(f"{invocation}: the pipeline fails on\n{text}{error}")
    assert len(refined) == len(expected), f"{invocation}: PyTorch returns {len(expected)} tensors"
    verdicts = [report.classify(r, e) for r, e in zip(refined, expected, strict=True)]
    comparison = ", ".join(f"{r.text()} (PyTorch: {e.text()})"
                           for r, e in zip(refined, expected, strict=True))
    assert "contradiction" not in verdicts, f"{invocation}: {comparison}\n{text}"
    imprecise = tuple(r.text() for r in refined) if set(verdicts) != {"exact"} else None
    assert imprecise == KNOWN_IMPRECISE.get(op), (
        f"{invocation}: {comparison}; update KNOWN_IMPRECISE if this is an improvement")


def test_known_failures_name_registered_ops():
    registered = {entry.op for entry in registry.functions()}
    stale = set(KNOWN_IMPRECISE) - registered
    assert not stale, f"entries for ops without library functions: {sorted(stale)}"
