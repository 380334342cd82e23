"""Benchmark torch-refine against torch-mlir's C++ refinement, in the same run.

Inputs (Torch IR with its tensor types erased; the imported types are the truth):
- the end-to-end models of test/python/models (static and dynamic batch);
- a block series: a small Llama with 1, 4 and 16 decoder layers;
- a chain series: generated IR repeating mm/add/tanh/mul/view/permute/softmax/mul.Scalar
  (and their constants) up to about 26,000 ops;
- an empty module: the fixed cost of each tool, process start included;
- scale series (torch-refine only, growth checked): generated IR that once cost more than
  linear time or overflowed the recursion limit: `prim.If` nested N deep, `aten.cat` of N
  tensors, `aten.permute` of rank N, and `aten.sum.dim_IntList` over N repeated dims (a
  located error). Their growth exponent is fitted from log time against log N.

For each input, runs alternate between
- torch-refine: `python -m torch_refine.tools.opt --pass-pipeline=builtin.module(torch-refine-pipeline)`,
- torch-mlir: `torch-mlir-opt --pass-pipeline=<TORCH_MLIR_PIPELINE>`,
both as child processes printing to a file (wall time and peak RSS from wait4). One more
child per input times torch-refine's stages in-process, and one torch-mlir run with
`--mlir-timing` gives its per-pass times. Results go to bench/results/ (JSON and markdown);
`--update-readme` rewrites the table between the markers in bench/README.md.

Usage: .venv/bin/python bench/run.py [--runs N] [--quick] [--only NAME...] [--update-readme]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
INPUTS = RESULTS / "inputs"
README = ROOT / "bench" / "README.md"
BEGIN_MARKER = "<!-- bench:begin -->"
END_MARKER = "<!-- bench:end -->"

sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "test" / "python"))

PYTHON = sys.executable
# The binary itself: .venv/bin/torch-mlir-opt is a Python script that starts it, which
# would add an interpreter start to torch-mlir's times.
TORCH_MLIR_OPT = str(
    Path(sys.executable).parent.parent / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    / "site-packages" / "torch_mlir" / "_mlir_libs" / "torch-mlir-opt"
)
TORCH_REFINE_PIPELINE = "builtin.module(torch-refine-pipeline)"
# torch-mlir's best C++ shape-plus-dtype refinement: its registered shape pipeline, then the
# dtype passes listed by hand (no dtype pipeline is registered; the dtype passes run after
# shape because promotion depends on ranks), then the public-return refinement and the
# canonicalize that torch-simplification-pipeline runs after them. Not the simplification
# pipeline itself: it also decomposes and recomposes ops, which changes what is measured.
# The same text is in test/python/test_differential_torch_mlir.py.
TORCH_MLIR_PIPELINE = (
    "builtin.module(torch-shape-refinement-pipeline, torch-reify-dtype-calculations, inline, "
    "func.func(torch-simplify-dtype-calculations, cse, torch-simplify-dtype-calculations, "
    "torch-drop-abstract-interp-calculations), torch-refine-public-return, "
    "func.func(canonicalize))"
)
EMPTY = "empty"


# --- inputs ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Input:
    name: str
    series: str  # "corpus", "blocks", "chain", "scale" or "empty"
    scale: int  # blocks, chain links or the scale input's N; 0 for the others


def all_inputs(quick: bool) -> list[Input]:
    from models.corpus import MODELS

    inputs = [Input(EMPTY, "empty", 0)]
    variants = ("static",) if quick else ("static", "dynamic")
    inputs += [Input(f"{c.name}-{v}", "corpus", 0) for c in MODELS for v in variants]
    layers = (1, 4) if quick else (1, 4, 16, 64)
    inputs += [Input(f"llama-{n}x", "blocks", n) for n in layers]
    # 24 to 1,536 links: about 400, 1,600, 6,500 and 26,000 ops.
    links = (24, 96) if quick else (24, 96, 384, 1536)
    inputs += [Input(f"chain-{n}x", "chain", n) for n in links]
    for family, sizes in SCALE_SIZES.items():
        inputs += [Input(f"scale-{family}-{n}", "scale", n) for n in sizes]
    return inputs


def ensure_input(item: Input) -> tuple[Path, Path]:
    """(truth, erased) files, generated once and cached under bench/results/inputs."""
    INPUTS.mkdir(parents=True, exist_ok=True)
    truth_path = INPUTS / f"{item.name}.truth.mlir"
    erased_path = INPUTS / f"{item.name}.erased.mlir"
    if not (truth_path.exists() and erased_path.exists()):
        truth = truth_text(item)
        _write_atomic(truth_path, truth)
        _write_atomic(erased_path, erased_text(truth))
    return truth_path, erased_path


def truth_text(item: Input) -> str:
    if item.series == "empty":
        return "module {\n}\n"
    if item.series == "chain":
        return chain_text(item.scale)
    if item.series == "scale":
        return SCALE_GENERATORS[scale_family(item)](item.scale)
    from models.corpus import BY_NAME, ModelCase, export_torch_ir

    if item.series == "blocks":
        from torch_refine.examples import tiny_llama

        case = ModelCase(item.name, lambda: tiny_llama.build(item.scale), ((0,), (0,)))
        dynamic = False
    else:
        name, variant = item.name.rsplit("-", 1)
        case, dynamic = BY_NAME[name], variant == "dynamic"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # torch.export's own deprecations
        module = export_torch_ir(case, dynamic)
    return module.operation.get_asm(enable_debug_info=True)


def erased_text(truth: str) -> str:
    from torch_mlir import ir

    from torch_refine.ir.context import create_context
    from torch_refine.ir.erase import erase_tensor_types

    with create_context():
        module = ir.Module.parse(truth)
        erase_tensor_types(module.operation)
        return module.operation.get_asm(enable_debug_info=True)


def _write_atomic(path: Path, text: str) -> None:
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    partial.write_text(text)
    os.replace(partial, path)


# One link of the chain: [4,8] -> mm -> add -> tanh -> mul -> view [8,4] -> permute [4,8]
# -> softmax -> mul.Scalar, each op depending on the previous one, with its own constants
# and list literals before it, as the FX importer emits them (9 more ops per link).
CHAIN_OPS_PER_LINK = 17
_X = "!torch.vtensor<[4,8],f32>"
_XT = "!torch.vtensor<[8,4],f32>"
_W = "!torch.vtensor<[8,8],f32>"
_INT = "!torch.int"
_INTS = "(!torch.int, !torch.int) -> !torch.list<int>"


def chain_text(links: int) -> str:
    """A function of `links` chained links, every op with its own source location."""
    lines = ["module {", f"  func.func @chain(%arg0: {_X}, %w: {_W}) -> {_X} {{"]
    x = "%arg0"
    for n in range(links):
        p = f"%l{n}_"
        ops = [
            f"{p}i0 = torch.constant.int 0",
            f"{p}i1 = torch.constant.int 1",
            f"{p}im1 = torch.constant.int -1",
            f"{p}i4 = torch.constant.int 4",
            f"{p}i8 = torch.constant.int 8",
            f"{p}none = torch.constant.none",
            f"{p}half = torch.constant.float 5.000000e-01",
            f"{p}sizes = torch.prim.ListConstruct {p}i8, {p}i4 : {_INTS}",
            f"{p}dims = torch.prim.ListConstruct {p}i1, {p}i0 : {_INTS}",
            f"{p}mm = torch.aten.mm {x}, %w : {_X}, {_W} -> {_X}",
            f"{p}add = torch.aten.add.Tensor {p}mm, {x}, {p}i1 : {_X}, {_X}, {_INT} -> {_X}",
            f"{p}tanh = torch.aten.tanh {p}add : {_X} -> {_X}",
            f"{p}mul = torch.aten.mul.Tensor {p}tanh, {x} : {_X}, {_X} -> {_X}",
            f"{p}view = torch.aten.view {p}mul, {p}sizes : {_X}, !torch.list<int> -> {_XT}",
            f"{p}perm = torch.aten.permute {p}view, {p}dims : {_XT}, !torch.list<int> -> {_X}",
            f"{p}soft = torch.aten.softmax.int {p}perm, {p}im1, {p}none"
            f" : {_X}, {_INT}, !torch.none -> {_X}",
            f"{p}out = torch.aten.mul.Scalar {p}soft, {p}half : {_X}, !torch.float -> {_X}",
        ]
        first = n * CHAIN_OPS_PER_LINK
        lines += [f'    {op} loc("chain":{first + k}:0)' for k, op in enumerate(ops)]
        x = f"{p}out"
    lines += [f"    return {x} : {_X}", "  }", "}"]
    return "\n".join(lines) + "\n"


# --- scale series --------------------------------------------------------------------------
# Small inputs (a few kilobytes to a few hundred) that must take about linear time: each
# once took from N^1.8 to N^2.9, or raised a RecursionError. Three sizes each, doubling.
SCALE_SIZES = {
    "if-nest": (250, 500, 1000),
    "cat": (250, 500, 1000),
    "permute": (100, 200, 400),
    "sum-dims": (250, 500, 1000),
}
# Families whose input is invalid IR: torch-refine must reject it with a located error.
SCALE_ERRORS = {"sum-dims": "a dim appears twice in the list of dims"}
# Near-linear: the fitted exponent of time (net of the empty module's) in N.
SCALE_EXPONENT_LIMIT = 1.3
_X23 = "!torch.vtensor<[2,3],f32>"
_T = "!torch.vtensor"


def scale_family(item: Input) -> str:
    return item.name.removeprefix("scale-").rsplit("-", 1)[0]


def nested_if_text(depth: int) -> str:
    """`prim.If`s nested `depth` deep, the innermost computing a tanh."""
    lines = ["module {", f"  func.func @nested(%c: !torch.bool, %x: {_X23}) -> {_T} {{",
             f"    %e = torch.tensor_static_info_cast %x : {_X23} to {_T}"]
    for level in range(depth):
        lines.append(f"    %r{level} = torch.prim.If %c -> ({_T}) {{")
    lines += [f"    %t = torch.aten.tanh %x : {_X23} -> {_T}", f"    torch.prim.If.yield %t : {_T}"]
    for level in reversed(range(depth)):
        lines += ["    } else {", f"    torch.prim.If.yield %e : {_T}", "    }"]
        if level > 0:
            lines.append(f"    torch.prim.If.yield %r{level} : {_T}")
    lines += [f"    return %r0 : {_T}", "  }", "}"]
    return "\n".join(lines) + "\n"


def nested_loop_text(depth: int) -> str:
    """`prim.Loop`s nested `depth` deep, each carrying a tensor, the innermost a tanh."""
    lines = ["module {", f"  func.func @nested(%n: !torch.int, %x: {_X23}) -> {_T} {{",
             f"    %e = torch.tensor_static_info_cast %x : {_X23} to {_T}",
             "    %true = torch.constant.bool true"]
    for level in range(depth):
        carried_in = "%e" if level == 0 else f"%b{level - 1}"
        lines += [f"    %r{level} = torch.prim.Loop %n, %true, init({carried_in}) {{",
                  f"    ^bb0(%i{level}: !torch.int, %b{level}: {_T}):"]
    lines += [f"    %t = torch.aten.tanh %b{depth - 1} : {_T} -> {_T}",
              f"    torch.prim.Loop.condition %true, iter(%t : {_T})"]
    for level in reversed(range(depth)):
        lines.append(f"    }} : (!torch.int, !torch.bool, {_T}) -> {_T}")
        if level > 0:
            lines.append(f"    torch.prim.Loop.condition %true, iter(%r{level} : {_T})")
    lines += [f"    return %r0 : {_T}", "  }", "}"]
    return "\n".join(lines) + "\n"


def cat_text(count: int) -> str:
    """`aten.cat` along dim 0 of `count` [2,3] tensors: [2 * count, 3]."""
    arguments = ", ".join(f"%a{i}: {_X23}" for i in range(count))
    operands = ", ".join(f"%a{i}" for i in range(count))
    return (
        f"module {{\n  func.func @cat({arguments}) -> {_T} {{\n"
        "    %int0 = torch.constant.int 0\n"
        f"    %list = torch.prim.ListConstruct {operands} : ({', '.join([_X23] * count)})"
        " -> !torch.list<vtensor>\n"
        f"    %cat = torch.aten.cat %list, %int0 : !torch.list<vtensor>, !torch.int -> {_T}\n"
        f"    return %cat : {_T}\n  }}\n}}\n"
    )


def permute_sizes(rank: int) -> list[int]:
    return [2 + i % 3 for i in range(rank)]


def permute_text(rank: int) -> str:
    """`aten.permute` of a rank-`rank` tensor, dims reversed."""
    tensor = f"!torch.vtensor<[{','.join(map(str, permute_sizes(rank)))}],f32>"
    constants = "".join(f"    %d{i} = torch.constant.int {i}\n" for i in range(rank))
    dims = ", ".join(f"%d{i}" for i in reversed(range(rank)))
    return (
        f"module {{\n  func.func @permute(%x: {tensor}) -> {_T} {{\n{constants}"
        f"    %dims = torch.prim.ListConstruct {dims} : ({', '.join(['!torch.int'] * rank)})"
        " -> !torch.list<int>\n"
        f"    %p = torch.aten.permute %x, %dims : {tensor}, !torch.list<int> -> {_T}\n"
        f"    return %p : {_T}\n  }}\n}}\n"
    )


SUM_DIMS_LINE = 7  # the line of the sum in sum_dims_text, for its error's location


def sum_dims_text(count: int) -> str:
    """`aten.sum.dim_IntList` of a [2,3] tensor over dim 0 repeated `count` times."""
    return (
        f"module {{\n  func.func @sum(%x: {_X23}) -> {_T} {{\n"
        "    %int0 = torch.constant.int 0\n    %false = torch.constant.bool false\n"
        f"    %none = torch.constant.none\n"
        f"    %dims = torch.prim.ListConstruct {', '.join(['%int0'] * count)} : "
        f"({', '.join(['!torch.int'] * count)}) -> !torch.list<int>\n"
        f"    %sum = torch.aten.sum.dim_IntList %x, %dims, %false, %none : {_X23}, "
        f"!torch.list<int>, !torch.bool, !torch.none -> {_T}\n"
        f"    return %sum : {_T}\n  }}\n}}\n"
    )


SCALE_GENERATORS = {
    "if-nest": nested_if_text,
    "cat": cat_text,
    "permute": permute_text,
    "sum-dims": sum_dims_text,
}


def growth_exponent(points: list[tuple[int, float]]) -> float:
    """The least-squares slope of log(seconds) against log(N)."""
    import math

    xs = [math.log(n) for n, _ in points]
    ys = [math.log(max(seconds, 1e-3)) for _, seconds in points]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / spread


# --- measuring ---------------------------------------------------------------------------


@dataclass
class Run:
    seconds: float  # wall
    cpu_seconds: float  # user + system: steadier than wall on a busy host
    max_rss_kb: int
    max_anon_kb: int  # sampled
    stderr: str = ""  # its tail


class Launcher:
    """A small forked process that starts the timed children and reports wait4's usage.

    Linux records the peak RSS of the process that forks a child into the child's own
    peak (kept across exec), so children started by this bench, which has imported torch,
    would all report its size. The launcher is forked before anything heavy is imported,
    so the floor under every reported peak is this small process (about 10 MB).
    """

    def __init__(self) -> None:
        requests_read, self._requests = os.pipe()
        self._replies, replies_write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            os.close(self._requests)
            os.close(self._replies)
            _serve(requests_read, replies_write)
        os.close(requests_read)
        os.close(replies_write)
        self._reply_file = os.fdopen(self._replies)

    def run(self, argv: list[str], stdout_path: str = os.devnull, returncode: int = 0) -> Run:
        os.write(self._requests, (json.dumps([argv, stdout_path]) + "\n").encode())
        reply = json.loads(self._reply_file.readline())
        if reply["returncode"] != returncode:
            raise RuntimeError(f"{argv[0]} exited {reply['returncode']}:\n{reply['stderr']}")
        return Run(reply["seconds"], reply["cpu_seconds"], reply["max_rss_kb"],
                   reply["max_anon_kb"], reply["stderr"])

    def close(self) -> None:
        os.close(self._requests)
        os.waitpid(self.pid, 0)


def _serve(requests_fd: int, replies_fd: int) -> None:
    """The launcher's loop: one JSON request per line, until the pipe closes."""
    with os.fdopen(requests_fd) as requests:
        for line in requests:
            argv, stdout_path = json.loads(line)
            with open(stdout_path, "w") as out, tempfile.TemporaryFile("w+") as err:
                start = time.perf_counter()
                child = subprocess.Popen(argv, stdout=out, stderr=err)
                status, usage, anon_kb = _wait_sampling_anon(child.pid)
                seconds = time.perf_counter() - start
                child.returncode = os.waitstatus_to_exitcode(status)
                err.seek(0)
                reply = {"seconds": seconds, "cpu_seconds": usage.ru_utime + usage.ru_stime,
                         "max_rss_kb": usage.ru_maxrss, "max_anon_kb": anon_kb,
                         "returncode": child.returncode, "stderr": _ends(err.read())}
            os.write(replies_fd, (json.dumps(reply) + "\n").encode())
    os._exit(0)


def _ends(text: str, keep: int = 4000) -> str:
    """The first and last `keep` characters: an error leads, a traceback trails."""
    return text if len(text) <= 2 * keep else f"{text[:keep]}\n...\n{text[-keep:]}"


def _wait_sampling_anon(pid: int) -> tuple[int, object, int]:
    """wait4 the child, sampling its anonymous memory (RssAnon) every 2 ms meanwhile.

    Peak RSS also counts the pages of the shared libraries a process maps, and how many of
    those are resident depends on the page cache (a fresh install's files sit in large
    folios and map in bigger pieces): anonymous memory is what the tool itself allocates.
    """
    peak = 0
    while True:
        waited, status, usage = os.wait4(pid, os.WNOHANG)
        if waited:
            return status, usage, peak
        try:
            with open(f"/proc/{pid}/status") as proc_status:
                for line in proc_status:
                    if line.startswith("RssAnon:"):
                        peak = max(peak, int(line.split()[1]))
        except (OSError, ValueError):
            pass  # exiting
        time.sleep(0.002)


def torch_refine_argv(source: Path, output: Path) -> list[str]:
    return [PYTHON, "-m", "torch_refine.tools.opt", f"--pass-pipeline={TORCH_REFINE_PIPELINE}",
            "--mlir-print-debuginfo", str(source), "-o", str(output)]


def torch_mlir_argv(source: Path, output: Path, *extra: str) -> list[str]:
    return [TORCH_MLIR_OPT, f"--pass-pipeline={TORCH_MLIR_PIPELINE}", "--mlir-print-debuginfo",
            *extra, str(source), "-o", str(output)]


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "python"), env.get("PYTHONPATH", "")])
    return env


@dataclass
class Timing:
    runs: list[Run] = field(default_factory=list)

    def summary(self) -> dict:
        seconds = [r.seconds for r in self.runs]
        return {
            "median_cpu_s": statistics.median(r.cpu_seconds for r in self.runs),
            "median_s": statistics.median(seconds),
            "min_s": min(seconds),
            "max_s": max(seconds),
            "runs": len(seconds),
            "peak_rss_mb": max(r.max_rss_kb for r in self.runs) / 1024,
            "peak_anon_mb": max(r.max_anon_kb for r in self.runs) / 1024,
        }


def measure(item: Input, erased: Path, runs: int, workdir: Path, launcher: Launcher) -> dict:
    """Alternating timed runs of both tools, then one breakdown run of each."""
    ours_out, theirs_out = workdir / f"{item.name}.ours.mlir", workdir / f"{item.name}.theirs.mlir"
    ours, theirs = Timing(), Timing()
    for _ in range(runs):
        ours.runs.append(launcher.run(torch_refine_argv(erased, ours_out)))
        theirs.runs.append(launcher.run(torch_mlir_argv(erased, theirs_out)))
    return {
        "torch_refine": ours.summary() | {"stages_s": torch_refine_stages(erased)},
        "torch_mlir": theirs.summary() | {"stages_s": torch_mlir_stages(erased, workdir)
                                          if theirs.summary()["median_cpu_s"] < 5 else {}},
        "outputs": (ours_out, theirs_out),
    }


def measure_scale(item: Input, erased: Path, runs: int, workdir: Path,
                  launcher: Launcher) -> dict:
    """Timed torch-refine runs of a scale input (torch-mlir is not the point here), and
    whether each ended as it must: refined, or the family's located error."""
    expected_error = SCALE_ERRORS.get(scale_family(item))
    timing = Timing()
    for _ in range(runs):
        timing.runs.append(launcher.run(torch_refine_argv(erased, workdir / "scale.mlir"),
                                        returncode=1 if expected_error else 0))
    stderr = timing.runs[-1].stderr
    located = re.search(rf"{re.escape(erased.name)}:\d+:\d+: error: .*{expected_error}", stderr)
    if "Traceback" in stderr:
        outcome = "traceback"
    elif expected_error:
        outcome = "located error" if located else "unlocated error"
    else:
        outcome = "refined"
    return {"torch_refine": timing.summary(), "outcome": outcome}


def torch_refine_stages(erased: Path) -> dict[str, float]:
    completed = subprocess.run(
        [PYTHON, __file__, "--stages-of", str(erased)], capture_output=True, text=True,
        check=False, env=child_env(),
    )
    if completed.returncode != 0:
        raise RuntimeError(f"stage timing of {erased.name} failed:\n{completed.stderr[-4000:]}")
    return json.loads(completed.stdout)


_MLIR_TIMING_ROW = re.compile(r"^\s*([\d.]+)\s+\(\s*[\d.]+%\)\s+(.*\S)\s*$")


def torch_mlir_stages(erased: Path, workdir: Path) -> dict[str, float]:
    """Wall seconds per top-level entry of `--mlir-timing` (list display, passes summed)."""
    completed = subprocess.run(
        torch_mlir_argv(erased, workdir / "timing.mlir", "--mlir-timing",
                        "--mlir-timing-display=list"),
        capture_output=True, text=True, check=True,
    )
    stages: dict[str, float] = {}
    for line in completed.stderr.splitlines():
        matched = _MLIR_TIMING_ROW.match(line)
        if matched and "Wall" not in line:
            stages[matched.group(2)] = stages.get(matched.group(2), 0.0) + float(matched.group(1))
    return stages


# --- in-process stage timing (run in a child: `run.py --stages-of FILE`) -----------------

# (module, attribute, stage): functions and pass methods timed in-process, as the pipelines
# call them. Inlining runs inside the simplifier (lazily, on memo misses) and is
# subtracted from "simplify".
_STAGES = (
    ("torch_refine.passes.pipelines", "load_library", "library"),
    ("torch_refine.passes.pipelines", "targets", "reify"),
    ("torch_refine.passes.pipelines", "wrap", "reify"),
    ("torch_refine.passes.pipelines", "inline_library_calls_in", "inline"),
    ("torch_refine.passes.simplifier", "Simplifier.simplify", "simplify"),
    ("torch_refine.passes.simplifier", "Simplifier.refine_known", "memo hits"),
    ("torch_refine.passes.pipelines", "drop", "drop"),
    ("torch_refine.passes.propagate_control_flow", "PropagateControlFlow.run", "propagate"),
    ("torch_refine.passes.pipelines", "_cleanup", "cleanup"),
)


def stages_of(path: Path) -> dict[str, float]:
    start = time.perf_counter()
    import importlib

    from torch_refine.tools import opt  # first: it imports the bindings as the command does

    opt.use_generic_op_views()
    from torch_mlir import ir

    from torch_refine import passes
    from torch_refine.ir.context import create_context

    pipeline_class = passes.get("torch-refine-pipeline")
    stages: dict[str, float] = {"imports": time.perf_counter() - start}
    for module_name, attribute, stage in _STAGES:
        owner = importlib.import_module(module_name)
        *path_to, name = attribute.split(".")
        for part in path_to:
            owner = getattr(owner, part)
        setattr(owner, name, _timed(getattr(owner, name), stage, stages))
    text = path.read_text()
    with create_context():
        began = time.perf_counter()
        module = ir.Module.parse(text)
        parsed = time.perf_counter()
        pipeline_class().run(module.operation)
        refined = time.perf_counter()
        module.operation.get_asm(enable_debug_info=True)
        printed = time.perf_counter()
    stages["simplify"] = stages.get("simplify", 0.0) - stages.get("inline", 0.0)
    stages["parse"] = parsed - began
    stages["print"] = printed - refined
    stages["pipeline total"] = refined - parsed
    stages["python overhead"] = stages["pipeline total"] - sum(
        seconds for stage, seconds in stages.items()
        if stage not in ("imports", "parse", "print", "pipeline total")
    )
    return stages


def _timed(function, stage: str, stages: dict[str, float]):
    def timed(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            stages[stage] = stages.get(stage, 0.0) + time.perf_counter() - start

    return timed


# --- precision -----------------------------------------------------------------------------


def precision(truth_path: Path, ours_path: Path, theirs_path: Path) -> dict:
    """Exact/partial/unknown/contradiction counts of both outputs against the truth."""
    from torch_mlir import ir

    from torch_refine import report
    from torch_refine.ir.context import create_context

    with create_context():
        truth, op_count = report.tensor_values(ir.Module.parse(truth_path.read_text()).operation)
        ours = report.tensor_values(ir.Module.parse(ours_path.read_text()).operation)[0]
        theirs = report.tensor_values(ir.Module.parse(theirs_path.read_text()).operation)[0]
    ours_report = report.compare_records(ours, truth, op_count)
    paired = report.pair_by_location(truth, theirs, ours)
    theirs_report = report.TypeReport(op_count=op_count)
    ours_on_paired = report.TypeReport(op_count=op_count)
    for truth_record, theirs_record, ours_record in paired:
        _count(theirs_report, report.classify(theirs_record.info, truth_record.info))
        _count(ours_on_paired, report.classify(ours_record.info, truth_record.info))
    return {
        "ops": op_count,
        "values": len(truth),
        "paired": len(paired),
        "torch_refine": _counts(ours_report),
        "torch_refine_on_paired": _counts(ours_on_paired),
        "torch_mlir_on_paired": _counts(theirs_report),
    }


def _count(type_report, kind: str) -> None:
    attribute = "contradictions" if kind == "contradiction" else kind
    setattr(type_report, attribute, getattr(type_report, attribute) + 1)


def _counts(type_report) -> dict[str, int]:
    return {k: getattr(type_report, k) for k in ("exact", "partial", "unknown", "contradictions")}


# --- tables ------------------------------------------------------------------------------


def markdown(all_results: list[dict], meta: dict) -> str:
    empty = next((r for r in all_results if r["input"] == EMPTY), None)
    results = [r for r in all_results if r["series"] != "scale"]
    scale = [r for r in all_results if r["series"] == "scale"]
    lines = [
        f"Run {meta['date']} on {meta['cpus']} CPUs in {meta['seconds'] / 60:.0f} min, "
        f"{meta['runs']} runs per tool and input "
        f"(median wall time, min–max, and median user+system CPU time; process start "
        "included; peak RSS of the child, and in parentheses its peak anonymous memory, "
        "sampled every 2 ms: RSS also counts the resident pages of the shared libraries, "
        "which depend on the page cache). "
        "Types: exact / partial / unknown / contradicting tensor values against the imported "
        "types; torch-mlir's are counted on the values its output keeps (paired by source "
        "location), and torch-refine's on the same values in parentheses.",
        "",
        "| input | ops | torch-refine types (on paired) | torch-mlir types | paired | "
        "torch-refine s | torch-mlir s | ratio wall | ratio CPU | torch-refine MB | "
        "torch-mlir MB |",
        "|---|---:|---|---|---:|---|---|---:|---:|---:|---:|",
    ]
    for r in results:
        ours, theirs = r["torch_refine"], r["torch_mlir"]
        p = r.get("precision")
        types_ours = types_theirs = paired = "–"
        if p and r["input"] != EMPTY:
            types_ours = f"{_types(p['torch_refine'])} ({_types(p['torch_refine_on_paired'])})"
            types_theirs = _types(p["torch_mlir_on_paired"])
            paired = f"{p['paired']}/{p['values']}"
        lines.append(
            f"| {r['input']} | {r.get('ops', 0)} | {types_ours} | {types_theirs} | {paired} | "
            f"{_span(ours)} | {_span(theirs)} | {ours['median_s'] / theirs['median_s']:.2f} | "
            f"{ours['median_cpu_s'] / theirs['median_cpu_s']:.2f} | "
            f"{_memory(ours)} | {_memory(theirs)} |"
        )
    lines += ["", _targets(results, empty, scale), "", _scaling_table(results, empty)]
    if scale:
        lines += ["", _scale_table(scale, empty)]
    lines += ["", _stages_table(results)]
    return "\n".join(lines) + "\n"


def scale_growth(scale: list[dict], empty: dict | None) -> dict[str, dict]:
    """Per scale family: its outcomes, (N, seconds) points and growth exponent. Seconds are
    median CPU net of the empty module's (process start, imports, library load)."""
    fixed = empty["torch_refine"]["median_cpu_s"] if empty else 0.0
    families: dict[str, dict] = {}
    for r in scale:
        family = families.setdefault(r["input"].removeprefix("scale-").rsplit("-", 1)[0],
                                     {"points": [], "outcomes": []})
        family["points"].append((r["scale"], r["torch_refine"]["median_cpu_s"] - fixed))
        family["outcomes"].append(r["outcome"])
    for family in families.values():
        family["exponent"] = growth_exponent(family["points"])
    return families


def _scale_table(scale: list[dict], empty: dict | None) -> str:
    lines = [
        "Scale series (torch-refine only): CPU seconds net of the empty module's at each N, "
        "and the growth exponent fitted from log time against log N:",
        "",
        "| family | outcome | N: net CPU s | exponent |",
        "|---|---|---|---:|",
    ]
    for name, family in scale_growth(scale, empty).items():
        points = ", ".join(f"{n}: {seconds:.2f}" for n, seconds in family["points"])
        outcomes = ", ".join(sorted(set(family["outcomes"])))
        lines.append(f"| {name} | {outcomes} | {points} | {family['exponent']:.2f} |")
    return "\n".join(lines)


def _memory(timing: dict) -> str:
    return f"{timing['peak_rss_mb']:.0f} ({timing['peak_anon_mb']:.0f})"


def _types(counts: dict) -> str:
    return "/".join(str(counts[k]) for k in ("exact", "partial", "unknown", "contradictions"))


def _span(timing: dict) -> str:
    return (f"{timing['median_s']:.2f} ({timing['min_s']:.2f}–{timing['max_s']:.2f}), "
            f"CPU {timing['median_cpu_s']:.2f}")


def _scaling_table(results: list[dict], empty: dict | None) -> str:
    lines = [
        "Time per op along the scaling series: µs/op of median wall time; of median CPU time "
        "net of the empty module's (process start, imports, library load); and marginal, "
        "the CPU time the input adds over the previous one in its series per op it adds:",
        "",
        "| input | ops | torch-refine µs/op | net CPU | marginal CPU | torch-mlir µs/op | "
        "net CPU | marginal CPU |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for series in ("blocks", "chain"):
        previous = None
        for r in (r for r in results if r["series"] == series):
            cells = []
            for tool in ("torch_refine", "torch_mlir"):
                marginal = None if previous is None else _marginal_cpu_per_op(r, previous, tool)
                cells += [f"{1e6 * r[tool]['median_s'] / r['ops']:.0f}",
                          f"{_net_cpu_per_op(r, tool, empty):.0f}",
                          "–" if marginal is None else f"{marginal:.0f}"]
            lines.append(f"| {r['input']} | {r['ops']} | " + " | ".join(cells) + " |")
            previous = r
    return "\n".join(lines)


def _net_cpu_per_op(result: dict, tool: str, empty: dict | None) -> float:
    fixed = empty[tool]["median_cpu_s"] if empty else 0.0
    return 1e6 * (result[tool]["median_cpu_s"] - fixed) / result["ops"]


def _marginal_cpu_per_op(result: dict, previous: dict, tool: str) -> float:
    added = result[tool]["median_cpu_s"] - previous[tool]["median_cpu_s"]
    return 1e6 * added / (result["ops"] - previous["ops"])


def _targets(results: list[dict], empty: dict | None, scale: list[dict] = ()) -> str:
    """The issue's targets, each with what this run measured."""
    measured = [r for r in results if r.get("precision")]
    behind = [r["input"] for r in measured
              if r["precision"]["torch_refine_on_paired"]["exact"]
              < r["precision"]["torch_mlir_on_paired"]["exact"]]
    contradictions = sum(r["precision"]["torch_refine"]["contradictions"] for r in measured)
    lines = ["Targets, as measured in this run:", ""]
    verdict = "met" if not behind and not contradictions else "not met"
    lines.append(f"- At least torch-mlir's exact count on every input and zero contradictions: "
                 f"**{verdict}** ({len(measured) - len(behind)} of {len(measured)} inputs; "
                 f"{contradictions} contradictions).")
    largest = [max((r for r in results if r["series"] == s), key=lambda r: r["ops"])
               for s in ("blocks", "chain") if any(r["series"] == s for r in results)]
    ratios = [(r["input"], r["torch_refine"]["median_s"] / r["torch_mlir"]["median_s"])
              for r in largest]
    verdict = "met" if all(x <= 0.5 for _, x in ratios) else "not met"
    aim = "met" if all(x <= 0.25 for _, x in ratios) else "not met"
    lines.append("- Wall time at most 0.5x torch-mlir's on the largest inputs: "
                 f"**{verdict}** ({', '.join(f'{n} {x:.2f}x' for n, x in ratios)}); "
                 f"the 0.25x aim: {aim}.")
    blocks = [r for r in results if r["series"] == "blocks"]
    if len(blocks) >= 2:
        lines.append(_flatness(blocks, empty))
    lines.append(_memory_target(results))
    if scale:
        lines.append(_scale_target(scale, empty))
    return "\n".join(lines)


def _scale_target(scale: list[dict], empty: dict | None) -> str:
    growth = scale_growth(scale, empty)
    expected = {name: "located error" if name in SCALE_ERRORS else "refined" for name in growth}
    wrong = [name for name, family in growth.items()
             if any(outcome != expected[name] for outcome in family["outcomes"])]
    steep = [name for name, family in growth.items()
             if family["exponent"] > SCALE_EXPONENT_LIMIT]
    verdict = "met" if not wrong and not steep else "not met"
    exponents = ", ".join(f"{name} {family['exponent']:.2f}" for name, family in growth.items())
    return (f"- Scale inputs end as expected (refined, or a located error) in near-linear time "
            f"(growth exponent at most {SCALE_EXPONENT_LIMIT}): **{verdict}** ({exponents}"
            + (f"; wrong outcome: {', '.join(wrong)}" if wrong else "") + ").")


def _memory_target(results: list[dict]) -> str:
    def within(measure: str) -> list[str]:
        return [r["input"] for r in results
                if r["torch_refine"][measure] <= r["torch_mlir"][measure]]

    rss, anon = within("peak_rss_mb"), within("peak_anon_mb")
    verdict = "met" if len(rss) == len(results) else "not met"
    return (f"- Peak memory no more than torch-mlir's: **{verdict}** (peak RSS on {len(rss)} of "
            f"{len(results)} inputs: {', '.join(rss) or 'none'}; anonymous memory on "
            f"{len(anon)}: {', '.join(anon) or 'none'}).")


def _flatness(blocks: list[dict], empty: dict | None) -> str:
    """Spread (max/min - 1) of µs/op over the blocks from 1x to 16x, as the issue asks."""
    span = [r for r in blocks if r["scale"] <= 16]
    wall = [1e6 * r["torch_refine"]["median_s"] / r["ops"] for r in span]
    net = [_net_cpu_per_op(r, "torch_refine", empty) for r in span]
    marginal = [_marginal_cpu_per_op(r, p, "torch_refine") for p, r in itertools.pairwise(blocks)]
    spreads = [max(v) / min(v) - 1 for v in (wall, net)]
    verdict = "met" if max(spreads) <= 0.2 else "not met"
    return (f"- Time per op flat within 20% from {span[0]['input']} to {span[-1]['input']}: "
            f"**{verdict}** (wall {wall[0]:.0f} to {wall[-1]:.0f} µs/op, spread "
            f"{100 * spreads[0]:.0f}%; net of the empty module {net[0]:.0f} to {net[-1]:.0f} "
            f"µs/op, spread {100 * spreads[1]:.0f}%; marginal CPU per added op along the series: "
            + ", ".join(f"{m:.0f}" for m in marginal) + " µs).")


def _stages_table(results: list[dict]) -> str:
    largest = sorted((r for r in results if r["series"] != "empty"), key=lambda r: -r["ops"])[:3]
    lines = ["In-process stages of torch-refine (s, one run) on the largest inputs:", ""]
    names: list[str] = []
    for r in largest:
        names += [n for n in r["torch_refine"]["stages_s"] if n not in names]
    lines.append("| stage | " + " | ".join(r["input"] for r in largest) + " |")
    lines.append("|---|" + "---:|" * len(largest))
    for name in names:
        cells = [f"{r['torch_refine']['stages_s'].get(name, 0.0):.3f}" for r in largest]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def update_readme(table: str) -> None:
    text = README.read_text()
    if BEGIN_MARKER not in text or END_MARKER not in text:
        raise SystemExit(f"{README} has no {BEGIN_MARKER} ... {END_MARKER} section")
    head, rest = text.split(BEGIN_MARKER, 1)
    _, tail = rest.split(END_MARKER, 1)
    README.write_text(f"{head}{BEGIN_MARKER}\n{table}{END_MARKER}{tail}")


# --- main --------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per tool and input")
    parser.add_argument("--quick", action="store_true", help="fewer and smaller inputs")
    parser.add_argument("--only", nargs="*", default=None, help="inputs whose name starts so")
    parser.add_argument("--update-readme", action="store_true",
                        help=f"write the table between the markers in {README.name}")
    parser.add_argument("--stages-of", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.stages_of:
        print(json.dumps(stages_of(args.stages_of)))
        return 0

    os.environ.update(child_env())
    launcher = Launcher()  # first: before any heavy import
    began = time.time()
    inputs = [i for i in all_inputs(args.quick)
              if args.only is None or i.name == EMPTY or i.name.startswith(tuple(args.only))]
    for item in inputs:  # every export first: nothing heavy runs next to the timed children
        ensure_input(item)
        print(f"input {item.name} ready ({time.time() - began:.0f} s)", flush=True)
    results = []
    with tempfile.TemporaryDirectory(prefix="torch-refine-bench-") as tmp:
        for item in inputs:
            truth, erased = ensure_input(item)
            result = {"input": item.name, "series": item.series, "scale": item.scale}
            if item.series == "scale":
                results.append(result | measure_scale(item, erased, args.runs, Path(tmp),
                                                      launcher) | {"ops": 0})
                print(_scale_progress(results[-1], time.time() - began), flush=True)
                continue
            measured = measure(item, erased, args.runs, Path(tmp), launcher)
            ours_out, theirs_out = measured.pop("outputs")
            result |= measured
            if item.series != "empty":
                result["precision"] = precision(truth, ours_out, theirs_out)
            result["ops"] = result.get("precision", {}).get("ops", 0)
            results.append(result)
            print(_progress(result, time.time() - began), flush=True)
    launcher.close()
    meta = {"date": time.strftime("%Y-%m-%d"), "cpus": os.cpu_count(), "runs": args.runs,
            "seconds": time.time() - began}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "results.json").write_text(json.dumps({"meta": meta, "results": results},
                                                     indent=1, default=str))
    table = markdown(results, meta)
    (RESULTS / "results.md").write_text(table)
    print(table)
    if args.update_readme:
        update_readme(table)
    print(f"bench: {time.time() - began:.0f} s; results in {RESULTS}", file=sys.stderr)
    return 0


def _scale_progress(result: dict, elapsed: float) -> str:
    ours = result["torch_refine"]
    return (f"{result['input']}: {result['outcome']}, torch-refine {ours['median_s']:.2f} s "
            f"(CPU {ours['median_cpu_s']:.2f}) [{elapsed:.0f} s]")


def _progress(result: dict, elapsed: float) -> str:
    ours, theirs = result["torch_refine"], result["torch_mlir"]
    p = result.get("precision")
    exact = f" exact {p['torch_refine']['exact']} vs {p['torch_mlir_on_paired']['exact']}" \
        f" (paired {p['torch_refine_on_paired']['exact']})" \
        f" contra {p['torch_refine']['contradictions']}" if p else ""
    return (f"{result['input']}: {result['ops']} ops, torch-refine {ours['median_s']:.2f} s "
            f"(CPU {ours['median_cpu_s']:.2f}), torch-mlir {theirs['median_s']:.2f} s "
            f"(CPU {theirs['median_cpu_s']:.2f}){exact} [{elapsed:.0f} s]")


if __name__ == "__main__":
    sys.exit(main())
