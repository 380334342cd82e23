"""How large the checks kept for an operand of unknown rank are (docs/limitations.md).

One case per op and tensor operand: the op's first valid library call (`build_ir`), that
operand declared `!torch.vtensor<*,...>`, the others static. Each case is refined, and its
output's ops counted against the same call's with every operand static: the difference is
what the kept checks add. Prints the totals, the cases whose checks build a list with
`append`, and with `--json` writes every case.

    .venv/bin/python build_tools/unranked_checks.py [--op SUBSTRING] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "test" / "python" / "robustness"))

_OP_LINE = re.compile(r"\s*(%[\w#:]+ = )?[a-z_]+\.[\w.]+")


def count_ops(text: str) -> int:
    """Ops in a printed module, but the function, its return and the module."""
    return sum(1 for line in text.splitlines()
               if _OP_LINE.match(line) and "func.func" not in line
               and not line.strip().startswith("return"))


def measure_op(op: str, invocation) -> dict[str, dict]:
    """Per tensor operand of `op`'s call, the ops its kept checks add (or why none)."""
    import torch_refine
    from torch_refine.library.testing import build_ir, tensor_type, unranked_at

    tensors = []

    def static_type(tensor, value_semantics: bool) -> str:
        tensors.append(tensor)
        return tensor_type(tensor, value_semantics)

    static_text = build_ir(op, invocation, static_type)
    try:
        static_ops = count_ops(str(torch_refine.refine(static_text).module))
    except torch_refine.RefinementError:
        return {}  # nothing to compare with (the fuzzer's business)
    cases = {}
    for unranked in range(len(tensors)):
        try:
            text = build_ir(op, invocation, unranked_at(unranked))
            refined = str(torch_refine.refine(text).module)
        except Exception as error:  # a refinement error is a finding to list, not a stop
            cases[f"{op}:{unranked}"] = {"error": str(error).splitlines()[0][:200]}
            continue
        cases[f"{op}:{unranked}"] = {
            "extra": count_ops(refined) - static_ops,
            "appends": refined.count("torch.aten.append.t"),
            "loops": refined.count("torch.prim.Loop "),
        }
    return cases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--op", default="", help="only ops whose name contains this")
    parser.add_argument("--json", type=Path, help="write every case here")
    args = parser.parse_args()

    import fuzzer

    from torch_refine.library.testing import Invocation, KernelInvocation, Unbuildable

    cases: dict[str, dict] = {}
    for op, templates in sorted(fuzzer.fuzzed_ops().items()):
        valid = [t for t in templates if type(t) in (Invocation, KernelInvocation)]
        if args.op not in op or not valid:
            continue
        try:
            cases.update(measure_op(op, valid[0]))
        except Unbuildable:
            continue
    if args.json:
        args.json.write_text(json.dumps(cases, indent=1))
    refined = [case for case in cases.values() if "extra" in case]
    print(f"{len(cases)} cases, {len(refined)} refined: the kept checks add "
          f"{sum(c['extra'] for c in refined)} ops; "
          f"{sum(1 for c in refined if c['appends'])} build a list with append, "
          f"{sum(1 for c in refined if c['loops'])} keep a loop")
    for name, case in cases.items():
        if case.get("appends") or "error" in case:
            print(f"  {name}: {case}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
