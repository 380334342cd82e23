"""examples/custom_op: the commands of docs/extending.md, run as written, and the extension API."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple  # noqa: UP035 (library signatures spell typing.List/Tuple)

import pytest

import torch_refine
from torch_refine.library import ExtraLibraryError, compile_extra_library
from torch_refine.library.registry import dtype, functions, shape

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "custom_op"
ROTARY = '"mylib.rotary"'
SHUFFLE = 'torch.operator "aten.native_channel_shuffle"'
ROTARY_TYPE = "!torch.vtensor<[2,8,16,64],f32>"
SHUFFLED_TYPE = "!torch.vtensor<[2,8,16,64],f32>"


def _opt_command() -> list[str]:
    """`torch-refine-opt` as installed, or the module when the package is not installed."""
    installed = shutil.which("torch-refine-opt", path=str(Path(sys.executable).parent))
    return [installed] if installed else [sys.executable, "-m", "torch_refine.tools.opt"]


def _run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO / "python")}
    return subprocess.run(
        [*_opt_command(), *args], cwd=REPO, env=env, capture_output=True, text=True, check=False
    )


def _result_type(text: str, op: str) -> str:
    match = re.search(rf"{re.escape(op)}[^\n]*-> (!torch\.vtensor(?:<[^>]*>)?)", text)
    assert match is not None, f"no {op} in\n{text}"
    return match.group(1)


def test_readme_command_refines_the_custom_and_the_missing_op():
    run = _run(
        "--extra-library=examples/custom_op/my_ops.py",
        "--torch-refine-pipeline",
        "examples/custom_op/model.mlir",
    )
    assert run.returncode == 0, run.stderr
    assert _result_type(run.stdout, ROTARY) == ROTARY_TYPE
    assert _result_type(run.stdout, SHUFFLE) == SHUFFLED_TYPE
    assert _result_type(run.stdout, "torch.aten.tanh") == SHUFFLED_TYPE


def test_without_the_extra_library_the_ops_stay_unknown():
    run = _run("--torch-refine-pipeline", "examples/custom_op/model.mlir")
    assert run.returncode == 0, run.stderr
    assert _result_type(run.stdout, ROTARY) == "!torch.vtensor"


def test_precompiled_mlir_gives_the_same_types(tmp_path):
    precompiled = tmp_path / "my_ops.mlir"
    precompiled.write_text(compile_extra_library(EXAMPLE / "my_ops.py"))
    model = "examples/custom_op/model.mlir"
    run = _run(f"--extra-library={precompiled}", "--torch-refine-pipeline", model)
    assert run.returncode == 0, run.stderr
    assert _result_type(run.stdout, SHUFFLE) == SHUFFLED_TYPE


def test_the_example_op_is_truly_missing_from_the_builtin_library():
    assert "aten.native_channel_shuffle" not in {entry.op for entry in functions()}


def test_refine_api_takes_a_python_extra_library():
    module, report = torch_refine.refine(
        (EXAMPLE / "model.mlir").read_text(), extra_library=str(EXAMPLE / "my_ops.py")
    )
    assert f"-> {SHUFFLED_TYPE} {{" in str(module)  # the signature is narrowed
    assert report.unknown == 0


def test_compile_extra_library_takes_decorated_functions():
    @shape("mylib.twice", signature_check=False)
    def mylib〇twice〡shape(x: List[int]) -> List[int]:  # noqa: UP006
        return x + x

    @dtype("mylib.twice", signature_check=False)
    def mylib〇twice〡dtype(x_rank_dtype: Tuple[int, int]) -> int:  # noqa: UP006
        return x_rank_dtype[1]

    text = compile_extra_library([mylib〇twice〡shape, mylib〇twice〡dtype])
    assert "func.func @__torch_refine_shape_fn.mylib.twice(" in text
    assert "func.func @__torch_refine_dtype_fn.mylib.twice(" in text


def test_user_functions_never_join_the_builtin_registry():
    @shape("aten.native_channel_shuffle")
    def aten〇native_channel_shuffle〡shape(self: List[int], groups: int) -> List[int]:  # noqa: UP006
        return self

    assert all(entry.fn is not aten〇native_channel_shuffle〡shape for entry in functions())


def test_undecorated_function_is_refused():
    def helper(x: List[int]) -> List[int]:  # noqa: UP006
        return x

    with pytest.raises(ExtraLibraryError, match="'helper' is not decorated"):
        compile_extra_library([helper])


def test_custom_dtype_function_follows_the_naming_conventions():
    @dtype("mylib.badname", signature_check=False)
    def mylib〇badname〡dtype(x: Tuple[int, int]) -> int:  # noqa: UP006
        return x[1]

    with pytest.raises(ExtraLibraryError, match=r"tensor parameter 'x' .* '<name>_rank_dtype'"):
        compile_extra_library([mylib〇badname〡dtype])


def test_custom_shape_function_returns_sizes():
    @shape("mylib.badreturn", signature_check=False)
    def mylib〇badreturn〡shape(x: List[int]) -> int:  # noqa: UP006
        return x[0]

    with pytest.raises(ExtraLibraryError, match=r"test_extension_example.py:\d+: shape function"):
        compile_extra_library([mylib〇badreturn〡shape])


def test_error_in_a_file_names_file_and_line(tmp_path):
    library = tmp_path / "ops.py"
    library.write_text("from torch_refine.library.registry import shape\n\nraise KeyError('x')\n")
    with pytest.raises(ExtraLibraryError, match=r"ops.py:3: error while loading: KeyError"):
        compile_extra_library(library)


def test_duplicate_in_one_file_is_refused(tmp_path):
    definition = (
        "@shape('mylib.a', signature_check=False)\n"
        "def mylib〇a〡shape(x: List[int]) -> List[int]:\n"
        "    return x\n\n"
    )
    library = tmp_path / "twice.py"
    header = "from typing import List\nfrom torch_refine.library.registry import shape\n\n"
    library.write_text(header + definition + definition)
    with pytest.raises(ExtraLibraryError, match="defined twice"):
        compile_extra_library(library)
