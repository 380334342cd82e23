"""The importer on every scriptable public function of torch.jit._shape_functions."""

import inspect
import re

import pytest
import torch
import torch.jit._shape_functions as upstream

from torch_refine.importer import UnsupportedNodeError, import_functions

# aten::lt/eq(Scalar, Scalar) on Union[int, float] have no Torch op (torch.aten.lt.int, .float
# and so on exist, but no untyped overload); the importer must say so, not guess.
UNSUPPORTED = {
    "arange_end": "aten::lt(Scalar a, Scalar b)",
    "arange_start": "aten::lt(Scalar a, Scalar b)",
    "arange_start_step": "aten::eq(Scalar a, Scalar b)",
}


def _scriptable_public_functions() -> dict[str, object]:
    scripted = {}
    for name, fn in sorted(vars(upstream).items()):
        if name.startswith("_") or not inspect.isfunction(fn) or fn.__module__ != upstream.__name__:
            continue
        try:
            scripted[name] = torch.jit.script(fn)
        except Exception:  # a few registration helpers are not TorchScript; not shape functions
            continue
    return scripted


SCRIPTED = _scriptable_public_functions()


def test_most_public_functions_script():
    assert len(SCRIPTED) >= 70


@pytest.mark.parametrize("name", sorted(SCRIPTED.keys() - UNSUPPORTED.keys()))
def test_imports_and_verifies(name):
    module = import_functions({name: SCRIPTED[name]})
    assert module.operation.verify()
    assert f"func.func @{name}(" in str(module)


@pytest.mark.parametrize("name", sorted(UNSUPPORTED))
def test_unsupported_node_is_named(name):
    with pytest.raises(UnsupportedNodeError) as error:
        import_functions({name: SCRIPTED[name]})
    message = str(error.value)
    assert UNSUPPORTED[name] in message
    assert f"_shape_functions.{name}" in message
    assert "_shape_functions.py" in message  # the location


def test_all_at_once_is_deterministic():
    supported = {name: fn for name, fn in SCRIPTED.items() if name not in UNSUPPORTED}
    first = str(import_functions(supported))
    assert first == str(import_functions(dict(reversed(supported.items()))))


def _shared(x: int) -> int:
    return x + 1


def _caller_a(x: int) -> int:
    return _shared(x)


def _caller_b(x: int) -> int:
    return _shared(_shared(x))


def test_shared_callee_is_imported_once():
    # Not upstream functions: torch.jit._shape_functions inlines the graphs it registers.
    module = import_functions(
        {"a": torch.jit.script(_caller_a), "b": torch.jit.script(_caller_b)}
    )
    text = str(module)
    (helper,) = re.findall(r"func.func private (@__torch_refine_helper\.[\w.]*_shared)\(", text)
    assert text.count(f"call {helper}(") == 3
