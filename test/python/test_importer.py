"""The importer on every scriptable public function of torch.jit._shape_functions."""

import inspect
import itertools
import operator
import re

import pytest
import torch
import torch.jit._shape_functions as upstream

from torch_refine.importer import UnsupportedNodeError
from torch_refine.importer.torchscript import _REBUILT_COMPARISONS
from torch_refine.ir.context import create_context
from torch_refine.library._helpers import unknown_dim
from torch_refine.library.generate import import_library_functions as import_functions

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


_PYTHON_COMPARISONS = {
    "eq": operator.eq, "ne": operator.ne, "lt": operator.lt,
    "le": operator.le, "gt": operator.gt, "ge": operator.ge,
}
_SAMPLES = {
    "int": [-3, 0, 2, 2**53 + 1],
    "float": [-3.0, -0.5, 0.0, 2.0, 2.0**53, float("inf"), float("nan")],
}


def _comparison(op_name: str):
    return _PYTHON_COMPARISONS[op_name.split(".")[-2]]


@pytest.mark.parametrize("head", sorted(_REBUILT_COMPARISONS))
def test_rebuilt_comparisons_are_exact(head):
    """Each rebuilt comparison agrees with Python's on every pair, NaN and 2**53 + 1 included."""
    context = create_context()
    assert not context.is_registered_operation("torch." + head.replace("::", "."))
    assert all(context.is_registered_operation(term[0]) for term in _REBUILT_COMPARISONS[head])
    name, overload = head.removeprefix("aten::").split(".")
    left, right = (overload, overload) if "_" not in overload else overload.split("_")
    for a, b in itertools.product(_SAMPLES[left], _SAMPLES[right]):
        result = False
        for op_name, swapped, negated in _REBUILT_COMPARISONS[head]:
            term = _comparison(op_name)(*((b, a) if swapped else (a, b)))
            result = result or (not term if negated else term)
        assert result == _PYTHON_COMPARISONS[name](a, b), (a, b)


def _data_dependent(x: int) -> list[int]:
    return [x, unknown_dim(), unknown_dim()]


def test_unknown_dim_is_an_opaque_int_per_call():
    assert torch.jit.script(_data_dependent)(3) == [3, -1, -1]  # the sentinel when run
    text = str(import_functions({"f": torch.jit.script(_data_dependent)}))
    assert text.count("torch.prim.Uninitialized : !torch.int") == 2
    assert "unknown_dim" not in text  # lowered, not called
