"""The checked-in library is what the generator makes from the sources; the registry's rules."""

import difflib
import marshal
import subprocess
import sys
from pathlib import Path

import pytest
from torch_mlir import ir

from torch_refine.ir.context import create_context
from torch_refine.ir.module import functions
from torch_refine.library import generate, loader, registry, storage
from torch_refine.library.registry import DuplicateFunctionError, LibraryFunction
from torch_refine.library.signatures import SignatureError, check_signature, expected_signature

REGENERATE = "run build_tools/update_abstract_interp_lib.sh"


@pytest.fixture(scope="module")
def fresh_text() -> str:
    return generate.module_text(generate.generate_module())


def _assert_same(checked_in: str, fresh: str, name: str) -> None:
    if checked_in == fresh:
        return
    diff = difflib.unified_diff(
        checked_in.splitlines(keepends=True), fresh.splitlines(keepends=True),
        fromfile=f"{name} (checked in)", tofile=f"{name} (generated)",
    )
    pytest.fail(f"{name} is stale; {REGENERATE}\n{''.join(diff)}", pytrace=False)


def test_text_is_current(fresh_text):
    _assert_same(Path(storage.TEXT_PATH).read_text(encoding="utf-8"), fresh_text, "library.mlir")


def test_chunks_are_current(fresh_text):
    """library.chunks holds, function by function, what library.mlir holds."""
    context = create_context()
    library = loader.load(context)
    chunked = [library.get(symbol) for symbol in loader.builtin_symbols()]
    fresh = ir.Module.parse(fresh_text, context)
    _assert_same("\n".join(_asm(fn) for fn in chunked),
                 "\n".join(_asm(fn) for fn in functions(fresh.operation)), "library.chunks")


def test_plans_are_current(fresh_text):
    """library.plans holds the evaluator's plan of each function library.mlir holds."""
    expected = generate.library_plans(ir.Module.parse(fresh_text, create_context()))
    stored = {symbol: marshal.loads(blob) for symbol, blob in storage.read_plans().items()}
    assert stored.keys() == expected.keys(), f"library.plans is stale; {REGENERATE}"
    stale = sorted(s for s in expected if repr(stored[s]) != repr(expected[s]))
    assert not stale, f"library.plans is stale ({len(stale)} functions, {stale[:3]}...); {REGENERATE}"


def _asm(fn) -> str:
    return fn.operation.get_asm(assume_verified=True)


def test_every_registered_function_has_a_public_symbol():
    library = loader.load(create_context())
    public = {
        symbol for symbol in loader.builtin_symbols()
        if "sym_visibility" not in library.get(symbol).attributes
    }
    assert {entry.symbol for entry in registry.functions()} == public


def test_library_parses_a_function_once_per_context_and_only_when_asked():
    context = create_context()
    library = loader.load(context)
    symbol = "__torch_refine_shape_fn.aten.mm"
    assert library.has_function("aten.mm")
    assert symbol not in library._functions  # not parsed yet
    assert library.get(symbol) is library.get(symbol)
    assert loader.load(create_context()).get(symbol) is not library.get(symbol)
    assert library.get("__torch_refine_shape_fn.aten.no_such_op") is None


def test_loader_does_not_import_torch():
    code = (
        "import sys\n"
        "from torch_refine.ir.context import create_context\n"
        "from torch_refine.library import loader\n"
        "loader.load(create_context()).get('__torch_refine_shape_fn.aten.mm')\n"
        "assert 'torch' not in sys.modules, 'loader imported torch'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_duplicate_registration_raises():
    entry = registry.functions()[0]
    decorator = getattr(registry, entry.kind)(entry.op)
    with pytest.raises(DuplicateFunctionError, match="defined twice"):
        decorator(entry.fn)


def test_signature_mismatch_names_the_expected_signature():
    wrong = "def aten〇mm〡shape(self: List[int]) -> List[int]:\n    return self\n"
    with pytest.raises(SignatureError) as error:
        check_signature("aten.mm", "shape", wrong)
    assert expected_signature("aten.mm", "shape") in str(error.value)


def test_generator_refuses_a_mismatching_signature(monkeypatch, capsys):
    def aten〇mm〡shape(self: list) -> list:
        return self

    bogus = LibraryFunction("aten.mm", "shape", aten〇mm〡shape)
    monkeypatch.setattr(registry, "functions", lambda kind=None: [bogus])
    assert generate.main([]) == 1
    assert expected_signature("aten.mm", "shape") in capsys.readouterr().err
