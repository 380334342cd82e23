"""The flags of issue 13 through torch-mlir-opt and torch-refine-opt on the llama example.

With C++ passes only, the output (IR, bytecode, IR dumps, the pipeline dump) is
byte-identical; timing and statistics reports have the same layout (their numbers differ).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import torch_refine

TORCH_MLIR_OPT = shutil.which("torch-mlir-opt", path=str(Path(sys.executable).parent))
LLAMA = Path(torch_refine.__file__).parent / "examples" / "llama.mlir"
PIPELINE = "builtin.module(canonicalize,func.func(cse),symbol-dce)"
TIMING_LINE = re.compile(r"^ +\d+\.\d+ \( *\d+\.\d%\)  (.*)$")

pytestmark = pytest.mark.skipif(TORCH_MLIR_OPT is None, reason="torch-mlir-opt is not installed")

IDENTICAL = {
    "plain": [],
    "short-pipeline-flag": ["-p", PIPELINE],
    "elide": ["--mlir-elide-elementsattrs-if-larger=4", "-p", PIPELINE],
    "generic": ["--mlir-print-op-generic", "-p", PIPELINE],
    "bytecode": ["--emit-bytecode", "-p", PIPELINE],
    "dump-pipeline": ["--dump-pass-pipeline", "-p", PIPELINE],
    "print-after-all": ["--mlir-print-ir-after-all", "--mlir-disable-threading", "-p", PIPELINE],
    "print-before-all": ["--mlir-print-ir-before-all", "--mlir-disable-threading", "-p", PIPELINE],
    "print-after-change": [
        "--mlir-print-ir-after-change",
        "--mlir-disable-threading",
        "-p",
        PIPELINE,
    ],
    "statistics": ["--mlir-pass-statistics", "-p", PIPELINE],
    "print-before-named": [
        "--mlir-print-ir-before=cse",
        "--mlir-disable-threading",
        "-p",
        PIPELINE,
    ],
    "print-after-named": [
        "--mlir-print-ir-after=canonicalize,symbol-dce",
        "--mlir-disable-threading",
        "-p",
        PIPELINE,
    ],
    "verify-roundtrip": ["--verify-roundtrip", "-p", PIPELINE],
    "any-anchor": ["-p", "any(canonicalize,func.func(cse))"],
    "pass-flags": ["--canonicalize=max-iterations=2", "--cse", "--torch-shape-refinement-pipeline"],
    "bytecode-version": ["--emit-bytecode", "--emit-bytecode-version=1"],
    "skip-regions": ["--mlir-print-skip-regions"],
}

# Bare functions with a named location, a resource and a split marker: what llama lacks.
NAMED = """\
func.func @f(%arg0: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  %0 = torch.aten.tanh %arg0 : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32> loc("hidden_state")
  %1 = torch.vtensor.literal(dense_resource<weights> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %2 = torch.aten.mul.Tensor %0, %1 : !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  return %2 : !torch.vtensor<[2],f32>
}
// -----
func.func @g() {
  return
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040"
    }
  }
#-}
"""
IDENTICAL_ON_NAMED = {
    "plain": [],
    "nameloc-prefix": ["--mlir-use-nameloc-as-prefix"],
    "elide-resources": ["--mlir-elide-resource-strings-if-larger=8"],
    "output-split-marker": ["--split-input-file", "--output-split-marker=//=="],
}


def _run(command: list[str], *args) -> subprocess.CompletedProcess:
    return subprocess.run([*command, *map(str, args)], capture_output=True, check=False)


def _ours() -> list[str]:
    return [sys.executable, "-m", "torch_refine.tools.opt"]


@pytest.mark.parametrize("flags", IDENTICAL.values(), ids=IDENTICAL.keys())
def test_same_output_as_torch_mlir_opt(flags):
    theirs = _run([TORCH_MLIR_OPT], LLAMA, *flags)
    ours = _run(_ours(), LLAMA, *flags)
    assert ours.returncode == theirs.returncode == 0
    assert ours.stdout == theirs.stdout
    assert ours.stderr.decode() == theirs.stderr.decode()


@pytest.mark.parametrize("flags", IDENTICAL_ON_NAMED.values(), ids=IDENTICAL_ON_NAMED.keys())
def test_same_output_on_names_and_resources(flags, tmp_path):
    source = tmp_path / "named.mlir"
    source.write_text(NAMED)
    theirs = _run([TORCH_MLIR_OPT], source, *flags)
    ours = _run(_ours(), source, *flags)
    assert ours.returncode == theirs.returncode == 0
    assert ours.stdout == theirs.stdout


UNSUPPORTED_OP = """\
func.func @f(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %0 = torch.operator "foo.bar"(%arg0) : (!torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}
"""
DIAGNOSTIC_FLAGS = {
    "default": [],
    "no-notes": ["--mlir-disable-diagnostic-notes"],
    "no-op-note": ["--mlir-print-op-on-diagnostic=false"],
    "errors-only": ["--mlir-diagnostic-verbosity-level=errors"],
}


@pytest.mark.parametrize("flags", DIAGNOSTIC_FLAGS.values(), ids=DIAGNOSTIC_FLAGS.keys())
def test_same_diagnostics_as_torch_mlir_opt(flags, tmp_path):
    """A C++ pass fails (the error and its operation note): the same lines on stderr."""
    source = tmp_path / "unsupported.mlir"
    source.write_text(UNSUPPORTED_OP)
    command = [source, "--torch-backend-to-linalg-on-tensors-backend-pipeline", *flags]
    theirs = _run([TORCH_MLIR_OPT], *command)
    ours = _run(_ours(), *command)
    assert ours.returncode == theirs.returncode == 1
    assert _diagnostic_lines(ours.stderr) == _diagnostic_lines(theirs.stderr)


def test_run_reproducer_like_torch_mlir_opt(tmp_path):
    """A reproducer torch-mlir-opt wrote runs its pipeline again, in either tool."""
    source, reproducer = tmp_path / "unsupported.mlir", tmp_path / "reproducer.mlir"
    source.write_text(UNSUPPORTED_OP)
    _run([TORCH_MLIR_OPT], source, "--torch-backend-to-linalg-on-tensors-backend-pipeline",
         f"--mlir-pass-pipeline-crash-reproducer={reproducer}")
    theirs = _run([TORCH_MLIR_OPT], reproducer, "--run-reproducer")
    ours = _run(_ours(), reproducer, "--run-reproducer")
    assert ours.returncode == theirs.returncode == 1
    assert _diagnostic_lines(ours.stderr) == _diagnostic_lines(theirs.stderr)
    assert "failed to legalize operation 'torch.operator'" in ours.stderr.decode()


def _diagnostic_lines(stderr: bytes) -> list[str]:
    return [line for line in stderr.decode().splitlines() if re.match(r"^\S+:\d+:\d+: \w+: ", line)]


def test_bytecode_input_reads_as_text(tmp_path):
    bytecode = tmp_path / "llama.mlirbc"
    bytecode.write_bytes(_run([TORCH_MLIR_OPT], LLAMA, "--emit-bytecode").stdout)
    assert _run(_ours(), bytecode).stdout == _run([TORCH_MLIR_OPT], LLAMA).stdout


@pytest.mark.parametrize("display", ["tree", "list"])
def test_timing_report_has_the_same_structure(display):
    flags = ["--mlir-timing", f"--mlir-timing-display={display}", "-p", PIPELINE, "-o", "-"]
    theirs = _run([TORCH_MLIR_OPT], LLAMA, *flags).stderr.decode()
    ours = _run(_ours(), LLAMA, *flags).stderr.decode()
    assert _layout(ours) == _layout(theirs)
    assert _names(ours, display) == _names(theirs, display)


def test_json_timing_report_has_the_same_structure():
    """Tree display; times blanked, every other character compared."""
    flags = ["--mlir-timing", "--mlir-output-format=json", "--mlir-disable-threading", "-p", PIPELINE]
    theirs = _run([TORCH_MLIR_OPT], LLAMA, *flags, "-o", "/dev/null").stderr.decode()
    ours = _run(_ours(), LLAMA, *flags, "-o", "/dev/null").stderr.decode()
    number = re.compile(r" *\d+\.\d+")
    assert number.sub("<n>", ours) == number.sub("<n>", theirs)


def test_timing_nests_the_stages_of_the_refinement_pipeline():
    report = _run(_ours(), LLAMA, "--torch-refine-pipeline", "--mlir-timing", "-o", "-")
    names = [
        TIMING_LINE.match(line).group(1)
        for line in report.stderr.decode().splitlines()
        if TIMING_LINE.match(line)
    ]
    start = names.index("RefinePipeline")
    assert names[start + 1 : start + 5] == [
        "  load library",
        "  round 1",
        "    shape",
        "      evaluate",
    ]
    assert names[-3:] == ["Output", "Rest", "Total"]
    # The evaluator answers every op of the bundled model; without it, calculations are
    # built in the IR, and their stages nest under the kind's.
    report = _run(_ours(), LLAMA, "--pass-pipeline=builtin.module(torch-refine-pipeline{evaluate=false})",
                  "--mlir-timing", "-o", "-")
    names = [TIMING_LINE.match(line).group(1) for line in report.stderr.decode().splitlines()
             if TIMING_LINE.match(line)]
    assert "      reify" in names
    assert "        inline" in names


def test_statistics_of_the_refinement_pipeline():
    report = _run(_ours(), LLAMA, "--torch-refine-pipeline", "--mlir-pass-statistics", "-o", "-")
    lines = report.stderr.decode().splitlines()
    entry = lines.index("RefinePipeline")
    names = [line.split()[2] for line in lines[entry + 1 : entry + 7]]
    assert names == sorted(names)
    assert set(names) == {
        "calculations-simplified",
        "guards-kept",
        "memo-hits",
        "ops-evaluated",
        "ops-wrapped",
        "types-refined",
    }


def test_abbreviated_flags_are_rejected_like_torch_mlir_opt():
    assert _run([TORCH_MLIR_OPT], LLAMA, "--mlir-print-debug").returncode == 1
    assert _run(_ours(), LLAMA, "--mlir-print-debug").returncode == 1


def _layout(report: str) -> list[str]:
    """The report with times and percentages blanked."""
    return [
        TIMING_LINE.sub(r"<time>  \1", line)
        if TIMING_LINE.match(line)
        else re.sub(r"\d+\.\d+", "<time>", line)
        for line in report.splitlines()
    ][:4]


def _names(report: str, display: str) -> list[str]:
    names = [m.group(1) for line in report.splitlines() if (m := TIMING_LINE.match(line))]
    if display == "list":  # sorted by time: only the set and the last two lines are fixed;
        # MLIR's tree report, which the driver reads, has no adaptor's "Pipeline Collection"
        kept = [name for name in names[:-2] if not name.startswith("Pipeline Collection")]
        return sorted(kept) + names[-2:]
    return names
