"""Measure one zoo variant (`python zoo_run.py NAME DYNAMISM`; prints one JSON line):
export, torch-mlir's import, ours (`export_and_import`, Torch backend contract; its report's
counts and its comparison with export's traced types), execution
op by op against eager at both sizes with every type checked, and the JIT (linalg on
tensors, LLVM) against eager at both sizes. A stage that fails records its first error
line and the stages after it that need it are skipped. JIT calls run in a forked child
(`compile_module`'s default), so a failing runtime check is a recorded error, not a
dead process.
"""

from __future__ import annotations

import copy
import inspect
import json
import os
import sys
import time
import warnings

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0][:200] if text else ''}"


def _close(got, expected) -> float | None:
    """The largest |got - expected| over the outputs, None where shapes differ."""

    got = got if isinstance(got, tuple) else (got,)
    expected = expected if isinstance(expected, tuple) else (expected,)
    if len(got) != len(expected) or any(g.shape != e.shape for g, e in zip(got, expected, strict=True)):
        return None
    return max(float((g.double() - e.double()).abs().max()) if g.numel() else 0.0
               for g, e in zip(got, expected, strict=True))


def measure(name: str, dynamism: str) -> dict:
    import torch

    import torch_refine
    from torch_refine import jit
    from zoo import CASES

    torch.manual_seed(0)
    model, first, second, dims = CASES[name]()
    sizes = (first,) if dynamism == "static" else (first, second)
    with torch.no_grad():
        expected = [model(*inputs) for inputs in sizes]
    row: dict = {"model": name, "dynamism": dynamism}
    dynamic_shapes = None
    if dynamism == "dynamic":
        named = {n: torch.export.Dim(n, min=2, max=64) for d in dims.values() for n in d.values()}
        dynamic_shapes = tuple({dim: named[n] for dim, n in dims.get(i, {}).items()} for i in range(len(first)))
        parameters = inspect.signature(model.forward).parameters.values()
        if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in parameters):
            dynamic_shapes = (dynamic_shapes,)  # export sees `*inputs` as one tuple
    start = time.perf_counter()
    try:
        with torch.no_grad():
            program = torch.export.export(model, first, dynamic_shapes=dynamic_shapes, strict=False)
        row["export"] = "ok"
    except Exception as error:
        row["export"] = _first_line(error)
        return row
    try:
        from torch_mlir import fx

        fx.export_and_import(copy.deepcopy(program), output_type="torch")
        row["torch_mlir"] = "ok"
    except Exception as error:
        row["torch_mlir"] = _first_line(error)
    try:
        refined = torch_refine.export_and_import(program)
        report = refined.report
        row["import"] = "ok"
        row["report"] = {k: getattr(report, k) for k in ("exact", "symbolic_exact", "partial", "unknown",
                                                         "export_compared", "export_contradictions")}
        row["export_contradiction_rows"] = [r.to_dict() for r in report.export_contradiction_rows[:5]]
    except Exception as error:
        row["import"] = _first_line(error)
        return row
    row["execute"] = []
    for inputs, want in zip(sizes, expected, strict=True):
        try:
            row["execute"].append(_close(torch_refine.execute(refined, *inputs, check_types=True), want))
        except Exception as error:
            row["execute"].append(_first_line(error))
    try:
        compiled = jit.compile_module(refined)
    except Exception as error:
        row["jit"] = [f"lowering: {_first_line(error)}"]
        return row
    row["jit"] = []
    for inputs, want in zip(sizes, expected, strict=True):
        try:
            row["jit"].append(_close(compiled("main", *inputs), want))
        except Exception as error:
            row["jit"].append(_first_line(error))
    row["seconds"] = round(time.perf_counter() - start, 1)
    return row


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    print(json.dumps(measure(sys.argv[1], sys.argv[2])))
