"""torch-refine-opt in-process: `main(argv)` with Python test passes registered."""

from __future__ import annotations

import io
import os
import re
import shlex
import subprocess
import sys
import tempfile

import _opt_test_passes
import pytest

from torch_refine import passes
from torch_refine.driver import pipeline_syntax, verify_diagnostics
from torch_refine.ir import diagnostics
from torch_refine.tools.opt import main

FUNC = """\
func.func @f(%arg0: !torch.int) -> !torch.int {
  %0 = torch.constant.int 5
  %1 = torch.constant.int 5
  %2 = torch.aten.add.int %0, %1 : !torch.int, !torch.int -> !torch.int
  %3 = torch.aten.add.int %arg0, %2 : !torch.int, !torch.int -> !torch.int
  return %3 : !torch.int
}
"""


@pytest.fixture(autouse=True)
def test_passes(monkeypatch):
    """Register the helper passes as if they lived in torch_refine.passes."""
    module_name = "_opt_test_passes"
    monkeypatch.setitem(sys.modules, f"{passes.__name__}.{module_name}", _opt_test_passes)
    registry = {cls.name: f"{module_name}:{cls.__name__}" for cls in _opt_test_passes.PASSES}
    monkeypatch.setattr(passes, "_REGISTRY", {**passes._REGISTRY, **registry})


@pytest.fixture
def func_file(tmp_path):
    path = tmp_path / "input.mlir"
    path.write_text(FUNC)
    return path


def run(capfd, *argv) -> tuple[int, str, str]:
    status = main([str(arg) for arg in argv])
    out, err = capfd.readouterr()
    return status, out, err


def test_help_lists_our_passes_with_descriptions(capfd):
    status, out, _ = run(capfd, "--help")
    assert status == 0
    assert "--test-opt-annotate" in out
    assert "Record the pass options in a module attribute" in out


def test_cxx_pipeline(capfd, func_file):
    status, out, err = run(capfd, func_file, "--pass-pipeline=builtin.module(func.func(cse))")
    assert (status, err) == (0, "")
    assert out.count("torch.constant.int 5") == 1
    assert out.endswith("}\n\n")


def test_python_pass_by_flag_equals_by_pipeline(capfd, func_file):
    flag = run(capfd, func_file, "--test-opt-annotate=count=3 label=hi enabled=false")
    pipeline = "builtin.module(test-opt-annotate{count=3 label=hi enabled=false})"
    text = run(capfd, func_file, f"--pass-pipeline={pipeline}")
    assert flag == text
    assert 'test.annotation = "hi:3:1.0:False"' in flag[1]


def test_pass_flags_run_in_command_line_order(capfd, func_file):
    flags = ["--mlir-print-ir-after-all", "--test-opt-annotate", "-test-opt-annotate=label=b"]
    status, out, err = run(capfd, func_file, *flags)
    assert status == 0
    assert '"b:1:1.0:True"' in out
    assert err.count("IR Dump After Annotate: test-opt-annotate") == 2


def test_python_and_cxx_passes_in_one_pipeline(capfd, func_file):
    pipeline = "builtin.module(canonicalize,test-opt-annotate{scale=2.5},func.func(cse))"
    flags = [f"--pass-pipeline={pipeline}", "--mlir-print-ir-before-all"]
    status, out, err = run(capfd, func_file, *flags)
    assert status == 0
    assert '"none:1:2.5:True"' in out
    assert "torch.constant.int 10" in out
    headers = re.findall(r"IR Dump Before (\S+)", err)
    assert headers == ["CanonicalizerPass:", "Annotate:", "CSEPass:"]


def test_plan_groups_consecutive_mlir_passes():
    text = "builtin.module(cse, canonicalize{max-iterations=2}, test-opt-annotate, func.func(cse))"
    stages = pipeline_syntax.plan(pipeline_syntax.parse(text))
    assert [type(stage).__name__ for stage in stages] == ["TextStage", "PythonStage", "TextStage"]
    assert stages[0].text == "cse, canonicalize{max-iterations=2}"
    assert stages[2].text == "func.func(cse)"


@pytest.mark.parametrize(
    ("pipeline", "message"),
    [
        (
            "builtin.module(test-opt-annotate{colour=red})",
            "<pass-pipeline>:1:16: error: no such option 'colour' for pass 'test-opt-annotate'; "
            "valid options: count, enabled, label, scale",
        ),
        (
            "builtin.module(test-opt-annotate{count=many})",
            "<pass-pipeline>:1:16: error: invalid value 'many' for option 'count' of pass "
            "'test-opt-annotate': expected int",
        ),
        (
            "builtin.module(cse,func.func(test-opt-annotate))",
            "<pass-pipeline>:1:30: error: torch-refine pass 'test-opt-annotate' cannot be nested "
            "under 'func.func'",
        ),
        (
            "builtin.module(test-opt-annotate(cse))",
            "<pass-pipeline>:1:16: error: 'test-opt-annotate' is a pass, not an operation anchor",
        ),
        (
            "builtin.module(cse,no-such-pass)",
            "<pass-pipeline>:1:20: error: 'no-such-pass' does not refer to a registered pass",
        ),
    ],
)
def test_pipeline_errors(capfd, func_file, pipeline, message):
    status, out, err = run(capfd, func_file, f"--pass-pipeline={pipeline}")
    assert (status, out) == (1, "")
    assert err.startswith(message)
    assert "Traceback" not in err


def test_pass_flags_and_pipeline_conflict(capfd, func_file):
    flags = ["--test-opt-annotate", "--pass-pipeline=builtin.module(cse)"]
    status, _, err = run(capfd, func_file, *flags)
    assert status == 1
    assert "'--pass-pipeline' option can't be used with individual pass options" in err


def test_python_pass_failure_prints_diagnostic_and_saves_nothing(capfd, func_file, tmp_path,
                                                                  monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    status, out, err = run(capfd, func_file, "--test-opt-refuse")
    assert (status, out) == (1, "")
    assert err.startswith(f"{func_file}:1:1: error: refusing this op\nfunc.func @f(")
    assert "saved" not in err  # the input's error, not a bug
    assert "reproduce" not in err
    assert list((tmp_path / "tmp").iterdir()) == []


def test_python_pass_exception_is_an_internal_error_with_a_reproducer(capfd, func_file, tmp_path,
                                                                       monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    status, out, err = run(capfd, func_file, "--pass-pipeline=builtin.module(cse,test-opt-crash)")
    assert (status, out) == (1, "")
    assert "RuntimeError: boom" in err  # a bug in a pass: the traceback helps
    assert "error: internal error in pass 'test-opt-crash': RuntimeError: boom" in err
    saved_in = re.search(r"note: internal error: the input IR is saved in (\S+) ", err).group(1)
    assert os.path.dirname(saved_in) == str(tmp_path)
    command = re.search(r"reproduce with:\n  (.*)\n", err).group(1)
    argv = shlex.split(command)
    assert argv[0] == "torch-refine-opt"
    assert argv[1] == "--pass-pipeline=builtin.module(cse,test-opt-crash)"
    assert argv[2] == saved_in
    assert argv[3:] == ["--mlir-print-ir-after-all", "--mlir-disable-threading"]
    saved = open(argv[2]).read()
    assert f'loc("{func_file}":1:1)' in saved  # debug info keeps the original positions
    status, _, err = run(capfd, *argv[1:])
    assert status == 1
    assert "internal error in pass 'test-opt-crash'" in err


@pytest.mark.parametrize(
    ("options", "label"),
    [
        ('label="a b" count=2', "a b:2"),
        ("label='say \"hi\"'", 'say "hi":1'),
        ("label=\"it's\"", "it's:1"),
        ("label='a}b'", "a}b:1"),
        ('label=x"y z" count=3', 'x"y z":3'),  # quotes inside a value, kept as MLIR does
    ],
)
def test_option_values_are_quoted_as_mlir_quotes_them(capfd, func_file, options, label):
    status, out, err = run(capfd, func_file, f"--pass-pipeline=builtin.module(test-opt-annotate{{{options}}})")
    assert (status, err) == (0, "")
    printed = label.replace('"', "\\22")  # MLIR's escape in string attributes
    assert f'test.annotation = "{printed}:' in out


def test_an_option_given_twice_is_an_error(capfd, func_file):
    pipeline = "builtin.module(test-opt-annotate{label=a label=b})"
    status, out, err = run(capfd, func_file, f"--pass-pipeline={pipeline}")
    assert (status, out) == (1, "")
    assert err.startswith("<pass-pipeline>:1:16: error: option 'label' of pass "
                          "'test-opt-annotate' is given more than once")


@pytest.mark.parametrize("value", ["plain", "a b", 'x" label="evil', "it's", "a}b", "{x}"])
def test_quote_option_value_round_trips(value):
    quoted = pipeline_syntax.quote_option_value(value)
    assert pipeline_syntax.split_options(f"label={quoted} count=1") == [("label", value), ("count", "1")]


def test_quote_option_value_refuses_both_quotes():
    with pytest.raises(ValueError, match="cannot be quoted"):
        pipeline_syntax.quote_option_value("""a"b'c""")


def test_verify_diagnostics_matches_python_pass_errors(capfd, tmp_path):
    path = tmp_path / "expect.mlir"
    path.write_text("// expected-error @below {{refusing this op}}\n" + FUNC)
    status, _, err = run(capfd, path, "--verify-diagnostics", "--test-opt-refuse")
    assert (status, err) == (0, "")


def test_verify_diagnostics_reports_mismatches(capfd, tmp_path):
    path = tmp_path / "expect.mlir"
    path.write_text("// expected-error @below {{something else}}\n" + FUNC)
    status, _, err = run(capfd, path, "--verify-diagnostics", "--test-opt-refuse")
    assert status == 1
    assert f"{path}:2:1: error: unexpected error: refusing this op" in err
    assert f'{path}:1:4: error: expected error "something else" was not produced' in err


def test_verify_diagnostics_unknown_location():
    expectations = verify_diagnostics.parse_expectations("// expected-error @unknown {{lost}}\n", "f.mlir")
    found = [diagnostics.error("lost somewhere")]
    assert verify_diagnostics.verify(expectations, found) == []


def test_split_input_file_keeps_line_numbers(capfd, tmp_path):
    path = tmp_path / "split.mlir"
    path.write_text(FUNC + "\n// -----\n\n" + FUNC.replace("return %3", "return %9"))
    status, out, err = run(capfd, path, "--split-input-file")
    assert status == 1
    assert err.startswith(f"{path}:16:10: error: use of undeclared SSA value name")
    assert out.count("// -----\n") == 1


def test_empty_input_prints_an_empty_module(capfd, tmp_path):
    path = tmp_path / "empty.mlir"
    path.write_text("")
    assert run(capfd, path) == (0, "module {\n}\n\n", "")  # as torch-mlir-opt


def test_malformed_ir(capfd, tmp_path):
    path = tmp_path / "bad.mlir"
    path.write_text("func.func @f( {\n")
    status, out, err = run(capfd, path)
    assert (status, out) == (1, "")
    assert re.match(rf"{re.escape(str(path))}:1:\d+: error: ", err)
    assert "Traceback" not in err


def test_missing_input(capfd, tmp_path):
    absent = tmp_path / "absent.mlir"
    status, _, err = run(capfd, absent)
    assert status == 1
    assert err == f"cannot open input file '{absent}': No such file or directory\n"


def test_binary_input_and_unwritable_output(capfd, func_file, tmp_path):
    binary = tmp_path / "module.mlirbc"
    binary.write_bytes(b"ML\xefR\x00\x01")
    status, _, err = run(capfd, binary)
    assert status == 1
    assert err == f"{binary}:0:0: error: attempting to parse 8 bytes when only 1 remain\n"
    latin1 = tmp_path / "latin1.mlir"
    latin1.write_bytes(b"\xff")
    status, _, err = run(capfd, latin1)
    assert status == 1
    assert err.startswith(f"cannot read input file '{latin1}': neither UTF-8 text")
    unwritable = tmp_path / "no-such-dir" / "out.mlir"
    status, _, err = run(capfd, func_file, "-o", unwritable)
    assert status == 1
    assert err == f"cannot open output file '{unwritable}': No such file or directory\n"


def test_stdin_and_output_file(capfd, monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "stdin", io.StringIO(FUNC))
    output = tmp_path / "out.mlir"
    status, out, err = run(capfd, "-", "-o", output, "--mlir-print-debuginfo")
    assert (status, out, err) == (0, "", "")
    assert 'loc("<stdin>":1:1)' in output.read_text()


def test_output_file_not_written_on_failure(capfd, func_file, tmp_path):
    output = tmp_path / "out.mlir"
    status, _, _ = run(capfd, func_file, "-o", output, "--test-opt-refuse")
    assert status == 1
    assert not output.exists()


def test_startup_does_not_import_torch(func_file):
    code = (
        "import sys; from torch_refine.tools.opt import main; "
        f"status = main(['--pass-pipeline=builtin.module(cse)', {str(func_file)!r}]); "
        "assert 'torch' not in sys.modules, 'torch was imported'; sys.exit(status)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_module_entry_point(func_file):
    command = [sys.executable, "-m", "torch_refine.tools.opt", str(func_file)]
    result = subprocess.run(command, capture_output=True, text=True)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.startswith("module {\n")


def test_list_passes_holds_every_pass_torch_mlir_opt_lists(capfd, tmp_path, monkeypatch):
    """--list-passes lists each pass the wheel's torch-mlir-opt lists, each runnable by the
    driver, built once into the cache."""
    from torch_refine.driver import bindings, mlir_passes

    binary = next(bindings.libraries_dir().glob("torch-mlir-opt*"), None)
    if binary is None:
        pytest.skip("the torch-mlir wheel has no torch-mlir-opt")
    theirs = subprocess.run([str(binary), "--list-passes"], capture_output=True, text=True, check=True).stdout
    names = set(re.findall(r"^  --([a-z][\w.-]*?)\s*-   ", theirs, re.M))
    monkeypatch.setenv("TORCH_REFINE_CACHE_DIR", str(tmp_path / "cache"))
    mlir_passes.listing.cache_clear()
    assert main(["--list-passes"]) == 0
    listed = set(re.findall(r"^  --(\S+) +-   ", capfd.readouterr().out, re.M))
    assert names
    assert names <= listed
    assert len(list((tmp_path / "cache").glob("mlir-passes-*.json"))) == 1
    assert all(mlir_passes.anchor_of(name) is not None for name in sorted(names))
    mlir_passes.listing.cache_clear()
