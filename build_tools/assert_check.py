"""Brute-force check of refined programs' asserts: which `torch.runtime.assert`s can never fail.

    .venv/bin/python build_tools/assert_check.py refined.mlir [more.mlir ...] [--json FILE]
    .venv/bin/python build_tools/assert_check.py --refine out/corpus/*-plain.mlir

For every function, each dynamic dim of a tensor argument (or, where the argument has a
`torch.bind_symbolic_shape`, each of its symbols) is a variable. Each assert's condition is
evaluated by walking its def chain down to the arguments' dims (`aten.size.int`), through int,
float and bool arithmetic, comparisons, lists and `prim.If` results, over sampled values of the
variables it reads: every size in its range up to 64 (a bound symbol's `min_val`/`max_val`, else
0 and up: a tensor may be empty), and a few larger edge sizes. A sample counts for an assert only where the earlier
asserts of the function's entry block that read no other variable hold (a check implied by an
earlier one cannot fail either). An assert that holds for every counted sample is listed as
never failing: issue 41 wants none of them. An assert whose condition reads anything else (a
tensor's contents, a loop's value, an op below without a meaning here) is "unevaluated", never
"never fails". Asserts inside regions are checked as if they ran at every sample (conservative:
they can only look fallible).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import operator
import random
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from torch_mlir import ir

from torch_refine.ir import types
from torch_refine.ir.constants import CONSTANT_OPS, constant_value, defining_op, typed_constant
from torch_refine.ir.context import create_context

# Without a stated range a size is any int >= 0: a tensor may be empty at run time, and a
# check like `x >= 1` (a kernel larger than an empty padded input) fails there.
DEFAULT_LOW = 0
SMALL_SIZES = range(0, 65)
EDGE_SIZES = (127, 128, 129, 255, 256, 257, 1023, 1024, 1025, 4096)
# More samples than this for one assert: a fixed random subset of them (seed 0).
MAX_SAMPLES = 60_000

_INT_OPS = {
    "torch.aten.add.int": operator.add,
    "torch.aten.sub.int": operator.sub,
    "torch.aten.mul.int": operator.mul,
    "torch.aten.floordiv.int": operator.floordiv,
    "torch.aten.remainder.int": operator.mod,
    "torch.aten.neg.int": operator.neg,
    "torch.aten.eq.int": operator.eq,
    "torch.aten.ne.int": operator.ne,
    "torch.aten.lt.int": operator.lt,
    "torch.aten.le.int": operator.le,
    "torch.aten.gt.int": operator.gt,
    "torch.aten.ge.int": operator.ge,
    "torch.prim.max.int": max,
    "torch.prim.min.int": min,
    "torch.prim.max.self_int": max,
    "torch.prim.min.self_int": min,
    "torch.prim.abs.Scalar": abs,
    "torch.aten.Int.bool": int,
    "torch.aten.Int.float": int,
    "torch.aten.Int.Scalar": int,
}
_FLOAT_OPS = {
    "torch.aten.add.float": operator.add,
    "torch.aten.add.float_int": operator.add,
    "torch.aten.sub.float": operator.sub,
    "torch.aten.mul.float": operator.mul,
    "torch.aten.mul.float_int": operator.mul,
    "torch.aten.mul.int_float": operator.mul,
    "torch.aten.div.float": operator.truediv,
    "torch.aten.div.int": operator.truediv,
    "torch.aten.neg.float": operator.neg,
    "torch.aten.ceil.float": math.ceil,
    "torch.aten.sqrt.int": math.sqrt,
    "torch.aten.pow.int_float": operator.pow,
    "torch.aten.Float.Scalar": float,
    "torch.aten.eq.float": operator.eq,
    "torch.aten.lt.float": operator.lt,
    "torch.aten.gt.float": operator.gt,
    "torch.aten.ge.float": operator.ge,
    "torch.aten.ge.float_int": operator.ge,
    "torch.aten.gt.float_int": operator.gt,
    "torch.aten.lt.float_int": operator.lt,
    "torch.aten.ne.float_int": operator.ne,
}
_BOOL_OPS = {
    "torch.aten.__and__.bool": operator.and_,
    "torch.aten.__or__.bool": operator.or_,
    "torch.aten.__not__": operator.not_,
    "torch.aten.eq.bool": operator.eq,
    "torch.aten.ne.bool": operator.ne,
    "torch.aten.Bool.int": bool,
    "torch.aten.Bool.float": bool,
    "torch.aten.all.bool": all,
    "torch.aten.any.bool": any,
}
_LIST_OPS = {
    "torch.prim.ListConstruct": lambda *items: list(items),
    "torch.aten.__getitem__.t": operator.getitem,
    "torch.aten.len.t": len,
}
OPS = {**_INT_OPS, **_FLOAT_OPS, **_BOOL_OPS, **_LIST_OPS}
_IDENTITY_OPS = frozenset({"torch.derefine"})


class Unevaluated(Exception):
    """The condition reads something this checker gives no meaning to."""


@dataclass(frozen=True)
class Variable:
    """A sampled size: an argument's dynamic dim, or a bound symbol."""

    name: str
    low: int
    high: int | None = None

    def samples(self) -> list[int]:
        high = math.inf if self.high is None else self.high
        sizes = {s for s in (*SMALL_SIZES, *EDGE_SIZES) if self.low <= s <= high}
        sizes |= {self.low, self.low + 1}
        if self.high is not None:
            sizes |= {self.high - 1, self.high}
        return sorted(s for s in sizes if self.low <= s <= high)


@dataclass
class Compiled:
    """A value as a function of the variables' sizes, and the variables it reads."""

    evaluate: object  # Callable[[dict[str, int]], object]
    reads: frozenset = frozenset()


@dataclass
class AssertResult:
    message: str
    verdict: str  # "never fails", "can fail" or "unevaluated"
    reason: str = ""
    samples: int = 0


@dataclass
class FileResult:
    path: str
    asserts: list[AssertResult] = field(default_factory=list)

    def count(self, verdict: str) -> int:
        return sum(result.verdict == verdict for result in self.asserts)


_AFFINE_MAP = re.compile(r"affine_map<\(\)\[([^\]]*)\]\s*->\s*\((.*)\)>")
# A bind's dim expression this checker evaluates: symbols, constants, + - *, floordiv, mod.
_AFFINE_EXPRESSION = re.compile(r"(?:\s|\bs\d+\b|\d+|[-+*()]|\bfloordiv\b|\bmod\b)+")


class FunctionReader:
    """Compiles the int computations of one function into Python closures."""

    def __init__(self, function, min_size: int = DEFAULT_LOW) -> None:
        self.min_size = min_size
        self.entry = function.regions[0].blocks[0]
        self.variables: dict[str, Variable] = {}
        self.dims: dict[tuple[int, int], Compiled] = {}
        self._memo: dict = {}
        self._read_binds()

    def _read_binds(self) -> None:
        for op in self.entry.operations:
            if op.operation.name == "torch.bind_symbolic_shape":
                self._read_bind(op)

    def _read_bind(self, op) -> None:
        argument = op.operands[0]
        if not isinstance(argument, ir.BlockArgument) or argument.owner != self.entry:
            return
        match = _AFFINE_MAP.search(str(op.attributes["shape_expressions"]))
        if match is None:
            return
        names = [self._bound_symbol(symbol) for symbol in op.operands[1:]]
        parameters = [p.strip() for p in match.group(1).split(",") if p.strip()]
        expressions = [e.strip() for e in match.group(2).split(",")]
        for dim, expression in enumerate(expressions):
            if not _AFFINE_EXPRESSION.fullmatch(expression):
                continue  # the dim is sampled on its own: it can only look more fallible
            python = re.sub(r"\bfloordiv\b", "//", re.sub(r"\bmod\b", "%", expression))
            reads = frozenset(names[parameters.index(p)] for p in set(re.findall(r"\bs\d+\b", python)))
            mapping = dict(zip(parameters, names))
            code = compile(re.sub(r"\bs\d+\b", lambda m: f"env[{mapping[m.group()]!r}]", python), "<bind>", "eval")
            self.dims[(argument.arg_number, dim)] = Compiled(lambda env, code=code: eval(code, {"env": env}), reads)

    def _bound_symbol(self, value: ir.Value) -> str:
        op = defining_op(value)
        name = ir.StringAttr(op.attributes["symbol_name"]).value
        attributes = op.attributes
        low = ir.IntegerAttr(attributes["min_val"]).value if "min_val" in attributes else self.min_size
        high = ir.IntegerAttr(attributes["max_val"]).value if "max_val" in attributes else None
        self.variables[name] = Variable(name, max(low, 0), high)
        return name

    def dim(self, argument: int, dim: int) -> Compiled:
        """A dynamic dim of an argument: its bind's expression, else a variable of its own."""
        if (argument, dim) not in self.dims:
            name = f"%arg{argument}[{dim}]"
            self.variables[name] = Variable(name, self.min_size)
            self.dims[(argument, dim)] = Compiled(lambda env: env[name], frozenset({name}))
        return self.dims[(argument, dim)]

    def compile(self, value: ir.Value) -> Compiled:
        if value not in self._memo:
            self._memo[value] = self._compile(value)
        return self._memo[value]

    def _compile(self, value: ir.Value) -> Compiled:
        op = defining_op(value)
        if op is None:
            raise Unevaluated("a block argument that is no tensor's size")
        name = op.operation.name
        if name in CONSTANT_OPS:
            constant = constant_value(value)
            return Compiled(lambda env: constant)
        if name in _IDENTITY_OPS:
            return self.compile(op.operands[0])
        if name == "torch.aten.size.int":
            return self._size(op)
        if name == "torch.aten.size":
            return self._sizes(op.operands[0])
        if name == "torch.prim.If":
            return self._if(op, list(op.results).index(value))
        if name not in OPS:
            raise Unevaluated(f"{name} has no meaning here")
        return self._apply(OPS[name], [self.compile(operand) for operand in op.operands])

    @staticmethod
    def _apply(function, operands: list[Compiled]) -> Compiled:
        reads = frozenset().union(*(operand.reads for operand in operands))
        evaluators = [operand.evaluate for operand in operands]
        return Compiled(lambda env: function(*(e(env) for e in evaluators)), reads)

    def _tensor_size(self, tensor: ir.Value, dim: int) -> Compiled:
        info = types.parse(tensor.type)
        if info is None or info.sizes is None:
            raise Unevaluated("a size of a tensor of unknown rank")
        dim = dim + len(info.sizes) if dim < 0 else dim
        static = info.sizes[dim]
        if static is not None:
            return Compiled(lambda env: static)
        if not (isinstance(tensor, ir.BlockArgument) and tensor.owner == self.entry):
            raise Unevaluated("a dynamic size of a tensor the program computes")
        return self.dim(tensor.arg_number, dim)

    def _size(self, op) -> Compiled:
        dim = typed_constant(op.operands[1], int)
        if dim is None:
            raise Unevaluated("aten.size.int of a dim that is no constant")
        return self._tensor_size(op.operands[0], dim)

    def _sizes(self, tensor: ir.Value) -> Compiled:
        info = types.parse(tensor.type)
        if info is None or info.sizes is None:
            raise Unevaluated("the sizes of a tensor of unknown rank")
        sizes = [self._tensor_size(tensor, dim) for dim in range(len(info.sizes))]
        return self._apply(lambda *values: list(values), sizes)

    def _if(self, op, index: int) -> Compiled:
        condition = self.compile(op.operands[0])
        branches = []
        for region in op.regions:
            terminator = list(region.blocks[0].operations)[-1]
            branches.append(self.compile(terminator.operands[index]))
        then, otherwise = branches
        reads = condition.reads | then.reads | otherwise.reads
        return Compiled(lambda env: (then if condition.evaluate(env) else otherwise).evaluate(env), reads)


def _assignments(variables: list[Variable]):
    """Every combination of the variables' samples, or a fixed random subset of them."""
    sample_lists = [variable.samples() for variable in variables]
    names = [variable.name for variable in variables]
    total = math.prod(len(samples) for samples in sample_lists)
    if total <= MAX_SAMPLES:
        for values in itertools.product(*sample_lists):
            yield dict(zip(names, values))
        return
    # Too many to try all: every combination of each variable's smallest sizes first, where
    # the counterexamples of broadcasts and products lie (sizes equal, or 1, at once: a random
    # pick of four sizes out of 75 each almost never gives `1, 2, 2, 1`), then random ones.
    smallest = max(2, int((MAX_SAMPLES // 2) ** (1 / len(sample_lists))))
    for values in itertools.product(*(samples[:smallest] for samples in sample_lists)):
        yield dict(zip(names, values))
    generator = random.Random(0)
    for _ in range(MAX_SAMPLES // 2):
        yield {name: generator.choice(samples) for name, samples in zip(names, sample_lists)}


def _holds(compiled: Compiled, env: dict) -> bool | None:
    """The condition's truth at `env`; None where evaluating it raises (as division by
    zero does at run time: the run stops before the assert)."""
    try:
        return bool(compiled.evaluate(env))
    except (ZeroDivisionError, OverflowError, ValueError, IndexError, TypeError):
        return None


def check_function(function, min_size: int = DEFAULT_LOW) -> list[AssertResult]:
    reader = FunctionReader(function, min_size)
    results = []
    earlier: list[Compiled] = []  # the entry block's evaluable asserts so far
    asserts = []

    def visit(op) -> ir.WalkResult:
        if op.name == "torch.runtime.assert":
            asserts.append(op)
        return ir.WalkResult.ADVANCE

    function.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    for assertion in asserts:
        message = str(ir.StringAttr(assertion.attributes["message"]).value)
        try:
            condition = reader.compile(assertion.operands[0])
        except Unevaluated as error:
            results.append(AssertResult(message, "unevaluated", str(error)))
            continue
        results.append(_sample(condition, earlier, reader.variables, message))
        if assertion.operation.parent == function.operation:
            earlier.append(condition)
    return results


def _sample(condition: Compiled, earlier: list[Compiled], variables: dict, message: str) -> AssertResult:
    """A tautology holds at every sample; a check implied by earlier ones, wherever they hold."""
    samples = list(_assignments([variables[name] for name in sorted(condition.reads)]))
    counted, failure = _count_holding(condition, [], samples)
    if failure is None and counted:
        return AssertResult(message, "never fails", f"a tautology: holds at {counted} samples", counted)
    filters = [e for e in earlier if e.reads <= condition.reads]
    counted, failure = _count_holding(condition, filters, samples)
    if failure is not None:
        return AssertResult(message, "can fail", f"fails at {failure}")
    if not counted:
        return AssertResult(message, "unevaluated", "no sample passes the earlier asserts")
    return AssertResult(message, "never fails", f"implied by earlier asserts: holds at the {counted} samples "
                        "that pass them", counted)


def _count_holding(condition: Compiled, filters: list[Compiled], samples: list[dict]) -> tuple[int, dict | None]:
    """How many samples passing the filters the condition holds at, or the first it fails at."""
    counted = 0
    for env in samples:
        if not all(_holds(f, env) for f in filters):
            continue
        holds = _holds(condition, env)
        if holds is None:
            continue
        if not holds:
            return counted, env
        counted += 1
    return counted, None


def check_text(text: str, path: str = "<text>", min_size: int = DEFAULT_LOW) -> FileResult:
    result = FileResult(path)
    with create_context(allow_unregistered_dialects=True):
        module = ir.Module.parse(text)
        for op in module.body.operations:
            if op.operation.name == "func.func":
                result.asserts.extend(check_function(op, min_size))
    return result


def check_file(path: Path, min_size: int = DEFAULT_LOW, refine: bool = False) -> FileResult:
    """The file's asserts; with `refine`, those of its refinement by `torch-refine-opt
    --torch-refine-pipeline` (in a process of its own, as a user runs it)."""
    if not refine:
        return check_text(path.read_text(encoding="utf-8"), str(path), min_size)
    command = [sys.executable, "-m", "torch_refine.tools.opt", "--torch-refine-pipeline", str(path)]
    refined = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return check_text(refined, f"{path} (refined)", min_size)


def format_table(results: list[FileResult]) -> str:
    width = max([len("file"), *(len(Path(r.path).name) for r in results)])
    lines = [f"{'file':<{width}}  asserts  never-fail  unevaluated"]
    for result in results:
        lines.append(f"{Path(result.path).name:<{width}}  {len(result.asserts):>7}  "
                     f"{result.count('never fails'):>10}  {result.count('unevaluated'):>11}")
    for result in results:
        for assertion in result.asserts:
            if assertion.verdict != "can fail":
                lines.append(f"{Path(result.path).name}: {assertion.verdict} ({assertion.reason}): {assertion.message}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path, help="refined Torch-dialect MLIR files")
    parser.add_argument("--json", type=Path, help="also write every assert's verdict here")
    parser.add_argument("--refine", action="store_true",
                        help="refine each file with torch-refine-opt --torch-refine-pipeline first")
    parser.add_argument("--min-size", type=int, default=DEFAULT_LOW,
                        help="the smallest size of a dim with no stated range (default 0)")
    parser.add_argument("--fail-on-never-fail", action="store_true",
                        help="exit 1 when any assert can never fail")
    args = parser.parse_args(argv)
    results = [check_file(path, args.min_size, args.refine) for path in args.files]
    print(format_table(results))
    if args.json:
        args.json.write_text(json.dumps([{"file": r.path, "asserts": [vars(a) for a in r.asserts]}
                                         for r in results], indent=1), encoding="utf-8")
    never = sum(r.count("never fails") for r in results)
    return 1 if args.fail_on_never_fail and never else 0


if __name__ == "__main__":
    sys.exit(main())
