"""A differential fuzzer: refinement of one op call against PyTorch.

A case is named `<op>#<k>` and generated from the seed, the op and k alone (adding ops to
the library does not change the other ops' cases). It takes one of the op's recorded
invocations as a template, mutates it (sizes, 0 and 1 among them, ranks, dtypes, small int
operands and the bounds of int64: ±2**62, ±(2**63-1), -2**63), and declares each tensor argument static, partly dynamic (`?` dims) or unranked
(`*`). `build_ir` makes the function (results erased), `api.refine` refines it in one
context shared by the worker's cases, and every instantiation of the dynamic dims (the
template's own sizes and a few random ones) is checked against PyTorch: the meta kernels,
and the CPU kernels (on tensors of ones) where meta has no kernel or lacks a check.

- wrong type: a refined result type contradicts PyTorch's result on an instantiation;
- missed error: the meta kernel raises on an instantiation, refinement reported no error,
  and the refined program run by `executor.execute` fails in the op itself instead of at a
  `torch.runtime.assert` (or raise) that refinement kept;
- cpu-only error (counted, not a failure): the same where only the CPU kernel raises; the
  library follows the meta kernels (docs/library.md), and a CPU kernel may raise on the data;
- false error: a compile-time error, or a kept guard that fails, although PyTorch (meta
  and CPU) accepts an instantiation;
- unlocated error: a compile-time error without `file:line:col`;
- traceback: refinement raised something other than a RefinementError with diagnostics
  (a pass failing with a Python exception included);
- crash and hang: the worker process died, or the case ran out of time, while refining.
  PyTorch's own kernels crash on some fuzzed shapes: that case is skipped.

Cases run in worker processes (spawned, so a crash or a hang costs only the worker).
"""

from __future__ import annotations

import hashlib
import multiprocessing
import random
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import wait

FAILURES = ("wrong type", "missed error", "false error", "unlocated error", "traceback",
            "crash", "hang", "harness error", "wrong value", "internal attribute")
INTERNAL = "torch_refine."  # refinement's own attributes never leave a pass
# Counted, not failures: the library follows the meta kernels where the CPU kernels differ
# (docs/library.md), and a CPU kernel also raises on the data (ones) it is given.
NOTED = ("cpu-only error",)
TIMEOUT_SECONDS = 60.0  # a fresh worker loads the library on its first case
INT64_BOUNDS = (2**62, -(2**62), 2**63 - 1, -(2**63 - 1), -(2**63))
INSTANTIATIONS = 3  # random instantiations of the dynamic dims, besides the template's own

_LOCATED = re.compile(r"^\S+:\d+:\d+: error: ", re.M)
_GUARD_FAILURES = ("torch.runtime.assert failed", "torch.prim.RaiseException")


@dataclass
class Outcome:
    case: str
    verdict: str  # "ok", "skipped", or one of FAILURES and NOTED
    detail: str = ""
    ir: str = ""

    @property
    def failed(self) -> bool:
        return self.verdict in FAILURES

    def reproducer(self) -> str:
        return f"--- {self.case}: {self.verdict}\n{self.detail}\n{self.ir}"


# --- choosing cases ----------------------------------------------------------------------


def fuzzed_ops() -> dict[str, list]:
    """Op -> its usable template invocations (data-dependent ones need fake tensors). Ops
    that PyTorch's registry lacks (torchvision's without torchvision) have no schema to
    build a program from."""
    from torch_refine.library import registry
    from torch_refine.library.testing import (
        DataDependentInvocation,
        DataDependentKernelInvocation,
        op_overload,
    )

    by_op: dict[str, list] = {}
    for entry in registry.functions():
        if entry.kind not in ("shape", "dtype") or not _has_schema(op_overload, entry.op):
            continue
        templates = [i for i in entry.invocations
                     if not isinstance(i, DataDependentInvocation | DataDependentKernelInvocation)]
        by_op.setdefault(entry.op, []).extend(templates)
    return {op: templates for op, templates in by_op.items() if templates}


def _has_schema(op_overload, op: str) -> bool:
    try:
        op_overload(op)._schema
    except (AttributeError, RuntimeError):
        return False
    return True


def case_ids(seed: int, count: int, ops) -> list[str]:
    """`count` cases: every op once (in an order the seed shuffles), then again."""
    order = sorted(ops, key=lambda op: hashlib.sha256(f"{seed}:{op}".encode()).hexdigest())
    return [f"{order[i % len(order)]}#{i // len(order)}" for i in range(count)]


# --- one case ----------------------------------------------------------------------------


@dataclass
class _Argument:
    tensor: object  # the template's TensorOfShape
    sizes: tuple | None  # declared: None is `*`, a None dim is `?`


@dataclass
class Case:
    id: str
    op: str
    invocation: object
    ir: str
    arguments: list[_Argument] = field(default_factory=list)
    instantiations: list[dict] = field(default_factory=list)  # id(template tensor) -> tensor
    follows_cpu: bool = False  # a KernelInvocation template: the CPU kernel's result is the truth
    phase: Callable[[str], None] = lambda name: None  # told "pytorch", "refine", "execute"


def _dtypes():
    import torch

    return [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64,
            torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool, torch.complex64]


def _mutated_tensor(rng: random.Random, tensor):
    from torch_refine.library.testing import TensorOfShape

    if rng.random() < 0.5:  # a copy: each argument is its own object (see _replaced)
        return TensorOfShape(*tensor.shape, dtype=tensor.dtype)
    shape = [rng.choice([0, 1, 1, 2, 3, 5]) if rng.random() < 0.3 else d for d in tensor.shape]
    if rng.random() < 0.15:
        shape.insert(rng.randint(0, len(shape)), rng.choice([1, 2, 3]))
    elif shape and rng.random() < 0.15:
        shape.pop(rng.randrange(len(shape)))
    dtype = rng.choice(_dtypes()) if rng.random() < 0.25 else tensor.dtype
    return TensorOfShape(*shape, dtype=dtype)


def _mutated(rng: random.Random, value, bounds: random.Random):
    from torch_refine.library.testing import TensorOfShape

    if isinstance(value, TensorOfShape):
        return _mutated_tensor(rng, value)
    if isinstance(value, list | tuple):
        items = [_mutated(rng, v, bounds) for v in value]
        return items if isinstance(value, list) else tuple(items)
    if not isinstance(value, int) or isinstance(value, bool):
        return value
    if rng.random() < 0.1:
        value = rng.choice([value - 1, value + 1, 0, 1, -1])
    if bounds.random() < 0.08:
        return bounds.choice(INT64_BOUNDS)  # indices clamp or wrap there; sizes overflow
    return value


def _declared(rng: random.Random, tensor) -> tuple | None:
    roll = rng.random()
    if roll < 0.4:
        return tuple(tensor.shape)
    if roll < 0.8:
        return tuple(None if rng.random() < 0.5 else d for d in tensor.shape)
    return None


def _replaced(value, tensors: dict):
    """`value` with each template tensor replaced by `tensors[id(tensor)]`."""
    if id(value) in tensors:
        return tensors[id(value)]
    if isinstance(value, list | tuple):
        items = [_replaced(v, tensors) for v in value]
        return items if isinstance(value, list) else tuple(items)
    return value


def _instantiation(rng: random.Random, arguments: list[_Argument]) -> dict:
    from torch_refine.library.testing import TensorOfShape

    tensors = {}
    for argument in arguments:
        shape = argument.tensor.shape
        if argument.sizes is None and rng.random() < 0.5:
            shape = tuple(rng.choice([1, 2, 3]) for _ in range(rng.randint(0, 4)))
        elif argument.sizes is not None:
            shape = tuple(rng.choice([0, 1, 2, 3, n]) if d is None else n
                          for d, n in zip(argument.sizes, shape, strict=True))
        tensors[id(argument.tensor)] = TensorOfShape(*shape, dtype=argument.tensor.dtype)
    return tensors


def generate(seed: int, case_id: str, templates: list) -> Case:
    """The case `case_id` (`<op>#<k>`); raises Unbuildable when it has no IR."""
    from torch_refine.library.testing import Invocation, KernelInvocation, build_ir, tensor_type

    op, _, k = case_id.rpartition("#")
    rng = random.Random(f"{seed}:{op}:{k}")
    # Its own stream, so that adding the int64 bounds left the other mutations as they were.
    bounds = random.Random(f"{seed}:{op}:{k}:int64")
    template = rng.choice(templates)
    args = [_mutated(rng, a, bounds) for a in template.args]
    kwargs = {name: _mutated(rng, v, bounds) for name, v in template.kwargs.items()}
    invocation = Invocation(*args, **kwargs)
    arguments: list[_Argument] = []

    def argument_type(tensor, value_semantics: bool) -> str:
        sizes = _declared(rng, tensor)
        arguments.append(_Argument(tensor, sizes))
        static = tensor_type(tensor, value_semantics)  # checks the element type
        head, element = static.split("<", 1)[0], static.rsplit(",", 1)[1]
        dims = "*" if sizes is None else "[" + ",".join(
            "?" if d is None else str(d) for d in sizes) + "]"
        return f"{head}<{dims},{element}"

    text = build_ir(op, invocation, argument_type)
    case = Case(case_id, op, invocation, text, arguments,
                follows_cpu=isinstance(template, KernelInvocation))
    case.instantiations = [{id(a.tensor): a.tensor for a in arguments}]
    dynamic = any(a.sizes is None or None in a.sizes for a in arguments)
    for _ in range(INSTANTIATIONS if dynamic else 0):
        case.instantiations.append(_instantiation(rng, arguments))
    return case


def _instantiated(case: Case, tensors: dict):
    from torch_refine.library.testing import Invocation

    return Invocation(*_replaced(list(case.invocation.args), tensors),
                      **{k: _replaced(v, tensors) for k, v in case.invocation.kwargs.items()})


def _describe(case: Case, tensors: dict) -> str:
    return ", ".join(f"%arg{i}: {tensors[id(a.tensor)]}" for i, a in enumerate(case.arguments))


# --- PyTorch -----------------------------------------------------------------------------


@dataclass
class _Truth:
    result: object  # the meta kernel's result (the CPU kernel's where meta has none)
    error: str | None  # why PyTorch raises: meta, or the CPU kernel where meta lacks a check
    cpu_accepts: bool
    cpu_only: bool = False  # only the CPU kernel raises


def _pytorch(op: str, invocation, follows_cpu: bool = False) -> _Truth:
    from torch_refine.library.testing import KernelInvocation, run_pytorch

    on_cpu = KernelInvocation(*invocation.args, **invocation.kwargs)
    result, error = run_pytorch(op, invocation)
    cpu_result, cpu_error = run_pytorch(op, on_cpu)
    if error is not None and "meta" in str(error).lower():  # no meta kernel, or it needs data
        result, error = cpu_result, cpu_error
    if follows_cpu and error is None and cpu_error is None:  # eval-mode batch norm's [0]
        result = cpu_result
    if error is not None:
        return _Truth(None, _first_line(error), cpu_error is None)
    if cpu_error is not None and not _unavailable(cpu_error):
        return _Truth(None, f"{_first_line(cpu_error)} (the CPU kernel; meta accepts)", False,
                      cpu_only=True)
    return _Truth(result, None, cpu_error is None)


def _unavailable(error: Exception) -> bool:
    """A CPU kernel missing for the dtype: a gap in PyTorch's CPU build, not a rule."""
    return "not implemented for" in str(error)


# --- checking ----------------------------------------------------------------------------


def check(seed: int, case_id: str, templates: list, context, phase=None) -> Outcome:
    """Generate and check one case; `phase(name, ir)` is called as each phase starts
    ("pytorch", "refine", "execute"), so a crash or a hang can be blamed."""
    from torch_refine.library.testing import Unbuildable, parse_ir

    try:
        case = generate(seed, case_id, templates)
        module = parse_ir(case.ir, context)
    except Unbuildable as reason:
        return Outcome(case_id, "skipped", str(reason))
    if phase is not None:
        case.phase = lambda name: phase(name, case.ir)
    case.phase("pytorch")
    truths = [_pytorch(case.op, _instantiated(case, t), case.follows_cpu)
              for t in case.instantiations]
    outcome = _refined_outcome(case, module, truths)
    outcome.ir = case.ir
    return outcome


def _refined_outcome(case: Case, module, truths: list[_Truth]) -> Outcome:
    from torch_refine.api import RefinementError, refine

    case.phase("refine")
    try:
        # PyTorch's semantics at every size, 1 included: a broadcast of two dynamic sizes
        # stays open (the default asserts them equal, as torch.export does; docs/facts.md).
        refined = refine(module).module
    except RefinementError as error:
        return _error_outcome(case, error, truths)
    except Exception as error:
        return Outcome(case.id, "traceback", f"refine raised {error!r}")
    if INTERNAL in str(refined):
        return Outcome(case.id, "internal attribute", "", str(refined))
    guarded = "torch.runtime.assert" in str(refined)
    found = [_type_or_guard_finding(case, refined, tensors, truth, guarded)
             for tensors, truth in zip(case.instantiations, truths, strict=True)]
    found = [outcome for outcome in found if outcome is not None]
    failures = [outcome for outcome in found if outcome.failed]
    return (failures or found or [Outcome(case.id, "ok")])[0]


def _error_outcome(case: Case, error, truths: list[_Truth]) -> Outcome:
    if not error.diagnostics:  # a pass raised a Python exception
        return Outcome(case.id, "traceback", str(error).splitlines()[0])
    if not _LOCATED.search(error.diagnostics):
        return Outcome(case.id, "unlocated error", error.diagnostics)
    for tensors, truth in zip(case.instantiations, truths, strict=True):
        if truth.error is None and truth.cpu_accepts:
            return Outcome(case.id, "false error",
                           f"PyTorch accepts {_describe(case, tensors)}\n{error.diagnostics}")
    return Outcome(case.id, "ok")


def _type_or_guard_finding(case: Case, refined, tensors: dict, truth: _Truth,
                           guarded: bool) -> Outcome | None:
    from torch_refine import report
    from torch_refine.library.testing import is_in_place, op_overload, pytorch_infos, result_infos

    where = _describe(case, tensors)
    if truth.error is not None:
        return _guard_finding(case, refined, tensors, truth)
    if guarded and truth.cpu_accepts and (failed := _failed_guard(case, refined, tensors)):
        return Outcome(case.id, "false error",
                       f"PyTorch accepts {where}, a kept guard fails: {failed}\n{refined}")
    value_semantics = not is_in_place(op_overload(case.op)._schema)
    expected = pytorch_infos(truth.result, value_semantics)
    claimed = result_infos(refined)
    if len(expected) != len(claimed):
        return Outcome(case.id, "harness error", f"PyTorch returns {len(expected)} tensors")
    for claim, fact in zip(claimed, expected, strict=True):
        if report.classify(claim, fact) == "contradiction":
            return Outcome(case.id, "wrong type",
                           f"on {where}: refined {claim.text()}, PyTorch {fact.text()}")
    return None


def _executed(case: Case, refined, tensors: dict) -> str | None:
    """The refined program run on CPU tensors of the instantiation: its first error line."""
    import torch

    from torch_refine.executor import execute

    inputs = [torch.ones(t.shape, dtype=t.dtype) for t in
              (tensors[id(a.tensor)] for a in case.arguments)]
    case.phase("execute")
    try:
        execute(refined, *inputs)
    except Exception as error:
        return _first_line(error)
    return None


def _failed_guard(case: Case, refined, tensors: dict) -> str | None:
    error = _executed(case, refined, tensors)
    return error if error is not None and error.startswith(_GUARD_FAILURES) else None


def _guard_finding(case: Case, refined, tensors: dict, truth: _Truth) -> Outcome | None:
    error = _executed(case, refined, tensors)
    # No error: the CPU kernel accepts what the meta kernel rejects (not ours to judge).
    if error is None or error.startswith(_GUARD_FAILURES):
        return None
    if not error.startswith((f"'torch.{case.op}' ", "'torch.operator' ")):
        return Outcome(case.id, "skipped", f"the executor cannot run the refined program: {error}")
    unranked = [f"%arg{i}" for i, a in enumerate(case.arguments) if a.sizes is None]
    return Outcome(case.id, "cpu-only error" if truth.cpu_only else "missed error",
                   f"PyTorch raises on {_describe(case, tensors)}: {truth.error}\n"
                   f"the refined program fails in the op: {error}\n"
                   f"unranked operands: {', '.join(unranked) or 'none'}\n{refined}")


def _first_line(error) -> str:
    """The message's first line (two when the first only introduces the second)."""
    lines = str(error).strip().splitlines()
    if not lines:
        return repr(error)
    return " ".join(lines[:2]) if lines[0].endswith(":") else lines[0]


# --- workers -----------------------------------------------------------------------------


def check_op_case(seed: int, case_id: str, context, phase) -> Outcome:
    """The op fuzzer's checker: the case's op templates are loaded once per worker."""
    global _TEMPLATES
    if _TEMPLATES is None:
        _TEMPLATES = fuzzed_ops()
    return check(seed, case_id, _TEMPLATES[case_id.rpartition("#")[0]], context, phase)


_TEMPLATES: dict | None = None


def _worker(connection, seed: int, checker) -> None:
    import os
    import warnings

    from torch_refine.ir.context import create_context

    # PyTorch warns about the odd shapes and dtypes it is given; outcomes come by the pipe.
    warnings.filterwarnings("ignore")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)

    context = create_context()
    while (case_id := connection.recv()) is not None:
        try:
            outcome = checker(seed, case_id, context,
                              lambda name, text: connection.send(("phase", (name, text))))
        except Exception as error:
            import traceback

            outcome = Outcome(case_id, "harness error", traceback.format_exc() or repr(error))
        connection.send(("done", outcome))


class _Slot:
    """One worker process and the case it runs."""

    def __init__(self, seed: int, checker):
        context = multiprocessing.get_context("spawn")
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_worker, args=(child, seed, checker), daemon=True)
        self.process.start()
        child.close()
        self.case: str | None = None
        self.phase, self.ir = "", ""
        self.deadline = 0.0

    def start(self, case_id: str, timeout: float) -> None:
        """Send the case; a worker that died since its last case is dead when polled."""
        self.case, self.phase, self.ir = case_id, "generate", ""
        self.deadline = time.monotonic() + timeout
        try:
            self.connection.send(case_id)
        except OSError:
            pass

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join()


def run(seed: int, cases: list[str], jobs: int = 1, timeout: float = TIMEOUT_SECONDS,
        on_outcome=None, checker=check_op_case) -> list[Outcome]:
    """Check `cases` in `jobs` worker processes with `checker(seed, case, context, phase)`
    (a module-level function: it is sent to spawned workers); `on_outcome(outcome)` as each
    finishes."""
    pending = list(reversed(cases))
    slots = [_Slot(seed, checker) for _ in range(max(1, min(jobs, len(cases))))]
    outcomes: list[Outcome] = []

    def finish(slot: _Slot, outcome: Outcome) -> None:
        outcomes.append(outcome)
        slot.case = None
        if on_outcome is not None:
            on_outcome(outcome)

    for slot in slots:
        if pending:
            slot.start(pending.pop(), timeout)
    while any(slot.case is not None for slot in slots):
        busy = [slot for slot in slots if slot.case is not None]
        nearest = min(slot.deadline for slot in busy)
        ready = wait([slot.connection for slot in busy] + [s.process.sentinel for s in busy],
                     timeout=max(0.0, nearest - time.monotonic()))
        for index, slot in enumerate(slots):
            if slot.case is None:
                continue
            outcome, worker_lost = _poll(slot, ready)
            if outcome is None:
                continue
            if worker_lost or not slot.process.is_alive():  # or it died after its result
                slot.stop()
                slots[index] = slot = _Slot(seed, checker)
            finish(slot, outcome)
            if pending:
                slot.start(pending.pop(), timeout)
    _shut_down(slots)
    return outcomes


def _shut_down(slots: list) -> None:
    for slot in slots:
        try:
            slot.connection.send(None)
            slot.process.join(timeout=10)
        except OSError:
            pass
        slot.stop()


def _poll(slot: _Slot, ready) -> tuple[Outcome | None, bool]:
    """The slot's outcome if its case has ended (a message, a dead worker or the deadline),
    and whether the worker is lost."""
    while slot.connection in ready and slot.connection.poll():
        try:
            kind, payload = slot.connection.recv()
        except (EOFError, OSError):
            break
        if kind == "done":
            return payload, False
        slot.phase, slot.ir = payload
    # Only refinement is judged: PyTorch's kernels (run by the executor too) are the oracle.
    if not slot.process.is_alive():
        verdict = "crash" if slot.phase == "refine" else "skipped"
        return Outcome(slot.case, verdict, f"the worker died in the {slot.phase} phase "
                       f"(exit code {slot.process.exitcode})", slot.ir), True
    if time.monotonic() >= slot.deadline:
        verdict = "hang" if slot.phase == "refine" else "skipped"
        return Outcome(slot.case, verdict, f"no result within the timeout in the {slot.phase} "
                       "phase", slot.ir), True
    return None, False


def summary(outcomes: list[Outcome]) -> str:
    counts = Counter(o.verdict for o in outcomes)
    parts = [f"{len(outcomes)} cases", f"{counts['ok']} ok", f"{counts['skipped']} skipped"]
    parts += [f"{counts[verdict]} {verdict}" for verdict in FAILURES + NOTED]
    return ", ".join(parts)
