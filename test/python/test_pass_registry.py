"""Every registered pass is one name everywhere: its registry key, its class's `name`, its
module, its `--<name>` flag and `--help` entry in torch-refine-opt, and the name in IR dumps.
A typo in any one of them is a pass users cannot find."""

import dataclasses
import inspect

import pytest

from torch_refine import passes
from torch_refine.engine.refine import PipelineOptions
from torch_refine.lowering.backend import BackendOptions
from torch_refine.tools.opt import main

NAMES = passes.names()
PREFIX = "torch-refine-"
EMPTY_MODULE = "module {\n}\n"


def _help_text(capsys) -> str:
    assert main(["--help"]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("name", NAMES)
def test_class_name_matches_registry_key(name):
    cls = passes.get(name)
    assert cls.name == name
    assert name.startswith(PREFIX)


@pytest.mark.parametrize("name", NAMES)
def test_module_is_named_after_the_pass(name):
    """One pass per module, named after the pass."""
    module = inspect.getmodule(passes.get(name))
    assert module.__name__ == f"torch_refine.passes.{name.removeprefix(PREFIX).replace('-', '_')}"


@pytest.mark.parametrize("name", NAMES)
def test_help_lists_flag_with_description(name, capsys):
    lines = _help_text(capsys).splitlines()
    entry = [i for i, line in enumerate(lines) if line.strip().startswith(f"--{name} ")
             or line.strip() == f"--{name}"]
    assert entry, f"--{name} missing from --help"
    following = " ".join(lines[entry[0]: entry[0] + 4])
    assert passes.get(name).description.split()[0] in following


@pytest.mark.parametrize("name", NAMES)
def test_flag_runs_the_pass_under_its_name_in_ir_dumps(name, tmp_path, capfd):
    source = tmp_path / "empty.mlir"
    source.write_text(EMPTY_MODULE)
    assert main([f"--{name}", "--mlir-print-ir-after-all", str(source)]) == 0
    captured = capfd.readouterr()  # MLIR prints dumps to the file descriptor
    dumps = [line for line in (captured.out + captured.err).splitlines() if "IR Dump After" in line]
    # the dump after the whole pass comes last, after those of its stages (`name (stage)`)
    stages = [f"// -----// IR Dump After {passes.get(name).__name__}: {name} (" for _ in dumps[:-1]]
    assert [dump[: len(stage)] for dump, stage in zip(dumps, stages)] == stages
    assert dumps[-1] == f"// -----// IR Dump After {passes.get(name).__name__}: {name} //----- //"


@pytest.mark.parametrize("name", NAMES)
def test_pass_module_holds_only_its_wrapper(name):
    """passes/ holds the registered wrappers; the work is the engine's (engine/, lowering/)."""
    cls = passes.get(name)
    module = inspect.getmodule(cls)
    defined = [value for value in vars(module).values() if inspect.isclass(value) or inspect.isfunction(value)]
    own = [value for value in defined if value.__module__ == module.__name__]
    assert own == [cls]


@pytest.mark.parametrize(("name", "options"), [("torch-refine-pipeline", PipelineOptions),
                                                ("torch-refine-backend-pipeline", BackendOptions)])
def test_engine_options_agree_with_the_pass(name, options):
    """The engine's options of a pipeline are the pass's: the same names and defaults."""
    declared = {field.name: field.default for field in passes.get(name).options()}
    engine = {field.name: field.default for field in dataclasses.fields(options)}
    assert engine.keys() == declared.keys()
    assert all(engine[key] in (declared[key], dataclasses.MISSING) for key in engine)
