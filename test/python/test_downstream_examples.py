"""The downstream examples run as a user runs them (issue 29.5, 29.13): the custom-op
project's lit suite (examples/custom_op/test) with the documented lit configuration, and a
third-party package of passes (examples/pass_plugin), installed, found by torch-refine-opt
through the `torch_refine.passes` entry-point group."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from torch_refine.driver import registry
from torch_refine.tools.opt import main

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
LIT = str(Path(sys.executable).parent / "lit")
MODULE = "func.func @f(%x: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {\n  return %x : !torch.vtensor<[2],f32>\n}\n"


def _lit(suite: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([LIT, "-v", str(suite)], capture_output=True, text=True, timeout=600, check=False,
                          env={**os.environ, **env})


def test_custom_op_suite_passes():
    done = _lit(EXAMPLES / "custom_op" / "test")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Passed: 2" in done.stdout, done.stdout


def test_installed_pass_plugin_suite_passes(tmp_path):
    target = tmp_path / "site"
    install = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
               "--target", str(target), str(EXAMPLES / "pass_plugin")]
    # a copy: setuptools writes build/ and *.egg-info beside the sources
    source = tmp_path / "pass_plugin"
    subprocess.run(["cp", "-r", str(EXAMPLES / "pass_plugin"), str(source)], check=True)
    install[-1] = str(source)
    built = subprocess.run(install, capture_output=True, text=True, timeout=600, check=False)
    assert built.returncode == 0, built.stderr
    done = _lit(EXAMPLES / "pass_plugin" / "test", PYTHONPATH=str(target))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Passed: 1" in done.stdout, done.stdout


def test_pass_plugin_suite_without_the_package_says_to_install_it():
    installed = {entry.name for entry in metadata.entry_points(group=registry.ENTRY_POINT_GROUP)}
    if "example-strip-runtime-asserts" in installed:
        pytest.skip("the example package is installed in this environment")
    done = _lit(EXAMPLES / "pass_plugin" / "test")
    assert done.returncode != 0
    assert "the example pass is not installed: pip install ./examples/pass_plugin" in done.stdout + done.stderr


@pytest.fixture
def plugin(monkeypatch):
    """Register a third-party pass by entry point, as an installed package would."""

    def register(name: str, value: str) -> None:
        entry = metadata.EntryPoint(name, value, registry.ENTRY_POINT_GROUP)
        monkeypatch.setattr(registry, "_plugins", lambda: {name: entry})
        registry.get.cache_clear()

    yield register
    registry.get.cache_clear()


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("no_such_module:Pass", "cannot load pass 'x-pass' of package 'unknown' (no_such_module:Pass): "
         "ModuleNotFoundError"),
        ("os.path:join", "is not a torch_refine.passes.base.ModulePass subclass"),
        ("torch_refine.passes.pipeline:RefinePipeline", "is named 'torch-refine-pipeline', not 'x-pass'"),
    ],
)
def test_a_broken_plugin_is_a_located_pipeline_error(plugin, value, message, tmp_path, capsys):
    plugin("x-pass", value)
    source = tmp_path / "f.mlir"
    source.write_text(MODULE)
    assert main([str(source), "--pass-pipeline=builtin.module(canonicalize,x-pass)"]) == 1
    error = capsys.readouterr().err
    assert error.startswith("<pass-pipeline>:1:29: error: "), error
    assert message in error


def test_a_plugin_cannot_take_a_builtin_name(monkeypatch):
    registry._plugins.cache_clear()
    entry = metadata.EntryPoint("torch-refine-pipeline", "os.path:join", registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(metadata, "entry_points", lambda group: [entry])
    try:
        assert registry._plugins() == {}
        assert registry.provider("torch-refine-pipeline") is None
    finally:
        registry._plugins.cache_clear()


def test_help_lists_a_broken_plugin_with_its_error(plugin, capsys):
    plugin("x-pass", "no_such_module:Pass")
    assert main(["--help"]) == 0
    assert "(not loaded: cannot load pass 'x-pass'" in capsys.readouterr().out
