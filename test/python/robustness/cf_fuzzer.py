"""A control-flow fuzzer: random programs with `prim.If` and `prim.Loop`, refined, then run.

A case `cf#<k>` is a TorchScript function generated from the seed and k alone: tensor
statements (rank, size and dtype changes among them), `if`s on runtime ints and on sizes,
`for` loops over a dynamic or constant trip count with early exit (`break`), nesting, loop-
carried tensors that change rank, size and dtype per iteration, and lists of tensors or
ints built in loops. It is scripted (`torch.jit.CompilationUnit`), imported by our importer
into Torch dialect, given static or partly dynamic argument types (`api.specialize`) and
refined. Each instantiation (argument sizes, trip counts and ints) is then run by eager
PyTorch (the truth: the imported graph is TorchScript's unoptimized one, which keeps every
op eager runs; TorchScript's own run drops dead ops, and their errors with them) and by
`executor.execute` on the refined IR with `check_types=True`. Verdicts:

- wrong type: a tensor the refined program produced contradicts its refined type (also
  when it happens before the program raises: an assert must fire first);
- false error: refinement reported an error, or the refined program raised (a guard, or a
  library check before a kernel), although PyTorch runs that instantiation;
- (no verdict) PyTorch raises but the refined program runs to its end: the executor calls
  PyTorch's kernels, so every op left ran on arguments PyTorch accepts, and the op that
  raised in eager was dead (refinement erases unused pure ops, as TorchScript does);
- wrong value: both ran, and their results differ;
- traceback, crash, hang: refinement raised an internal error, killed the worker or ran
  out of time (`fuzzer.run` runs the cases in worker processes).

A program TorchScript rejects (the generator's types are not always TorchScript's) is
skipped; the summary counts skips, and the test bounds their share.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass, field

from robustness.fuzzer import INTERNAL, Outcome

# Unary tensor expressions (`a` an operand); some change rank, size or dtype, some raise on
# what a loop made of the operand (PyTorch's error is then the truth).
_UNARY = (
    "torch.relu(a)",
    "torch.neg(a)",
    "torch.abs(a)",
    "torch.unsqueeze(a, 0)",
    "torch.unsqueeze(a, -1)",
    "torch.flatten(a)",
    "a.to(torch.float64)",
    "a.to(torch.int64)",
    "a.to(torch.float32)",
    "torch.sum(a, 0)",
    "a.sum()",
    "a[0]",
    "a[1:]",
    "a.transpose(0, -1)",
    "torch.zeros_like(a)",
    "a.reshape([-1])",
    "torch.squeeze(a, 0)",
    "torch.cat([a, a], 0)",
    "torch.ones([a.size(0), 2])",
    "a * 2",
)
# Binary tensor expressions: broadcasting, concatenation, stacking, products.
_BINARY = (
    "a + b",
    "a * b",
    "torch.cat([a, b], 0)",
    "torch.cat([a, b], -1)",
    "torch.stack([a, b])",
    "torch.matmul(a, b)",
    "torch.where(a > 0, a, b)",
)
# Tensors from the int arguments.
_FROM_INTS = ("torch.ones([n + 1, 2])", "torch.arange(n)", "torch.zeros([k * k, 1])")
_CONDITIONS = ("n > {c}", "k == {c}", "a.dim() > {c}", "a.size(0) == {c}", "n + k < {c}",
               "bool(a.numel() > {c})")
_INDENT = "    "


@dataclass
class Program:
    source: str
    declared: list  # per tensor argument: its declared MLIR type
    instantiations: list = field(default_factory=list)  # (sizes of x, sizes of y, n, k)


class _Generator:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.names = 0
        self.lines: list[str] = []

    def fresh(self, prefix: str) -> str:
        self.names += 1
        return f"{prefix}{self.names}"

    def emit(self, depth: int, line: str) -> None:
        self.lines.append(_INDENT * depth + line)

    def expression(self, scope: list[str]) -> str:
        rng = self.rng
        roll = rng.random()
        if roll < 0.08:
            return rng.choice(_FROM_INTS)
        a = rng.choice(scope)
        if roll < 0.65:
            return _substitute(rng.choice(_UNARY), a, a)
        b = rng.choice(scope)
        return _substitute(rng.choice(_BINARY), a, b)

    def block(self, scope: list[str], depth: int, loop_variable: str | None, budget: int) -> None:
        """Statements at `depth` that may read `scope` and reassign it; names defined here
        stay local to the block (TorchScript needs both branches to define what is used)."""
        local = list(scope)
        for _ in range(self.rng.randint(1, budget)):
            roll = self.rng.random()
            if roll < 0.15 and depth < 3:
                self.if_statement(local, depth)
            elif roll < 0.3 and depth < 3:
                self.loop(local, depth)
            elif roll < 0.38 and loop_variable is not None:
                self.emit(depth, f"if {loop_variable} >= {self.rng.randint(0, 2)}:")
                self.emit(depth + 1, "break")
            elif roll < 0.65:
                self.emit(depth, f"{self.rng.choice(scope)} = {self.expression(local)}")
            else:
                name = self.fresh("t")
                self.emit(depth, f"{name} = {self.expression(local)}")
                local.append(name)

    def if_statement(self, scope: list[str], depth: int) -> None:
        condition = self.rng.choice(_CONDITIONS).format(c=self.rng.randint(0, 3))
        self.emit(depth, f"if {_substitute(condition, self.rng.choice(scope), '')}:")
        self.block(scope, depth + 1, None, 3)
        self.emit(depth, "else:")
        self.block(scope, depth + 1, None, 3)

    def loop(self, scope: list[str], depth: int) -> None:
        variable = self.fresh("i")
        bound = self.rng.choice(("n", "k", str(self.rng.randint(0, 3))))
        collected = self.rng.random() < 0.35
        if collected:
            tensors = self.rng.random() < 0.6
            items = self.fresh("xs" if tensors else "ns")
            self.emit(depth, f"{items}: List[{'Tensor' if tensors else 'int'}] = []")
        self.emit(depth, f"for {variable} in range({bound}):")
        self.block(scope, depth + 1, variable, 4)
        if collected:
            element = self.expression(scope) if tensors else f"{variable} + 1"
            self.emit(depth + 1, f"{items}.append({element})")
            use = (self.rng.choice(("torch.cat({}, 0)", "torch.stack({})")) if tensors
                   else "torch.ones({})")
            self.emit(depth, f"{self.rng.choice(scope)} = {use.format(items)}")


def _substitute(template: str, a: str, b: str) -> str:
    """The template with its operands `a` and `b` (whole words) replaced."""
    return re.sub(r"\b[ab]\b", lambda m: a if m.group() == "a" else b, template)


_SHAPES = ((2, 4), (3,), (1, 4), (2, 1, 3), (), (4, 1))
_DTYPES = (("f32", "torch.float32"), ("si64", "torch.int64"), ("f64", "torch.float64"))


def generate(seed: int, case_id: str) -> Program:
    digest = hashlib.sha256(f"{seed}:{case_id}".encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "little"))
    generator = _Generator(rng)
    generator.emit(0, "def f(x: Tensor, y: Tensor, n: int, k: int):")
    scope = ["x", "y"]
    generator.block(scope, 1, None, 6)
    returned = sorted(set(rng.sample(scope, 2)))
    generator.emit(1, f"return ({', '.join(returned)},)")
    shapes = [rng.choice(_SHAPES) for _ in scope]
    dtypes = [rng.choice(_DTYPES) for _ in scope]
    dynamic = rng.random() < 0.5
    declared = []
    for shape, (element, _) in zip(shapes, dtypes):
        dims = ["?" if dynamic and rng.random() < 0.6 else str(d) for d in shape]
        declared.append(f"!torch.vtensor<[{','.join(dims)}],{element}>")
    program = Program("\n".join(generator.lines) + "\n", declared)
    for _ in range(4):
        sizes = [tuple(rng.randint(1, 4) if d == "?" else int(d) for d in _dims(t))
                 for t in declared]
        program.instantiations.append((sizes, [d for _, d in dtypes], rng.randint(0, 3),
                                       rng.randint(-1, 3)))
    return program


def _dims(declared: str) -> list[str]:
    inner = declared[declared.index("[") + 1 : declared.index("]")]
    return [d for d in inner.split(",") if d]


def case_ids(count: int) -> list[str]:
    return [f"cf#{k}" for k in range(count)]


# --- checking ----------------------------------------------------------------------------


def check_case(seed: int, case_id: str, context, phase) -> Outcome:
    """Generate, refine and run one case (`fuzzer.run`'s checker); `phase(name, text)` names
    each phase as it starts, so a crash or a hang can be blamed."""
    import torch

    from torch_refine.importer import import_functions

    program = generate(seed, case_id)
    phase("script", program.source)
    try:
        scripted = torch.jit.CompilationUnit(program.source).f
    except Exception as error:  # TorchScript's own type rules: not a program to judge
        return Outcome(case_id, "skipped", f"TorchScript rejects it: {_first_line(error)}",
                       program.source)
    module = import_functions({"main": scripted}, context)
    outcome = _refined_outcome(case_id, program, module, phase)
    outcome.ir = program.source + "\n" + " ".join(program.declared) + "\n" + outcome.ir
    return outcome


def _refined_outcome(case_id: str, program: Program, module, phase) -> Outcome:
    from torch_refine.api import RefinementError, specialize

    eager = _eager(program.source)
    truths = [_run(eager, _arguments(instantiation)) for instantiation in program.instantiations]
    phase("refine", program.source)
    try:
        # PyTorch's semantics at every size, 1 included: a broadcast of two dynamic sizes
        # stays open (the default asserts them equal, as torch.export does; docs/facts.md).
        refined = specialize(module, [*program.declared, None, None]).module
    except RefinementError as error:
        internal = error.reproducer is not None
        runs = [i for i, truth in zip(program.instantiations, truths) if truth[0] is not None]
        if internal:
            return Outcome(case_id, "traceback", str(error))
        if runs:
            return Outcome(case_id, "false error", f"PyTorch runs {runs[0]}: {error}")
        return Outcome(case_id, "ok", "refinement reported the error PyTorch raises")
    except Exception:
        import traceback

        return Outcome(case_id, "traceback", traceback.format_exc())
    text = str(refined)
    if INTERNAL in text:
        return Outcome(case_id, "internal attribute", "", text)
    phase("execute", text)
    for instantiation, truth in zip(program.instantiations, truths):
        verdict = _compare(refined, instantiation, truth)
        if verdict is not None:
            return Outcome(case_id, verdict[0], f"at {instantiation}: {verdict[1]}", text)
    return Outcome(case_id, "ok", "", text)


def _arguments(instantiation) -> list:
    import torch

    sizes, dtypes, n, k = instantiation
    generator = torch.Generator().manual_seed(0)
    tensors = []
    for shape, dtype_name in zip(sizes, dtypes):
        dtype = getattr(torch, dtype_name.split(".")[1])
        values = torch.randint(-3, 4, shape, generator=generator)
        tensors.append(values.to(dtype))
    return [*tensors, n, k]


def _eager(source: str):
    """The program as a Python function: eager PyTorch is the truth."""

    import torch

    namespace = {"torch": torch, "Tensor": torch.Tensor, "List": list}
    exec(compile(source, "<fuzzed program>", "exec"), namespace)
    return namespace["f"]


def _run(function, arguments) -> tuple:
    """(results, None) or (None, the error PyTorch raised)."""
    try:
        return function(*arguments), None
    except Exception as error:
        return None, error


def _compare(refined, instantiation, truth) -> tuple[str, str] | None:
    import torch

    from torch_refine.executor import ExecutionError, TypeMismatchError, execute

    expected, raised = truth
    try:
        got = execute(refined, *_arguments(instantiation), check_types=True)
    except TypeMismatchError as error:
        return "wrong type", str(error)
    except ExecutionError as error:
        if raised is None:
            return "false error", f"PyTorch runs it; the refined program: {_first_line(error)}"
        return None
    if raised is not None:
        return None  # the op that raises was dead: refinement's clean-up erased it
    got = got if isinstance(got, tuple) else (got,)
    for index, (a, b) in enumerate(zip(got, expected)):
        same = (a.shape == b.shape and a.dtype == b.dtype
                and torch.allclose(a.double(), b.double(), equal_nan=True))
        if not same:
            return "wrong value", (f"result {index}: {tuple(a.shape)} {a.dtype} against "
                                   f"PyTorch's {tuple(b.shape)} {b.dtype}")
    return None


def _first_line(error) -> str:
    lines = [line for line in str(error).splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__
