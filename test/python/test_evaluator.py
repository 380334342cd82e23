"""Units of engine/evaluator.py that the pipeline tests do not reach on their own."""

from __future__ import annotations

import pytest
from torch_mlir import ir

from torch_refine.calculations import facts
from torch_refine.calculations.store import FactStore, Scope
from torch_refine.engine import evaluator, evaluator_ops, evaluator_values
from torch_refine.ir.context import create_context
from torch_refine.library import loader, storage
from torch_refine.library.plans import function_plan
from torch_refine.symbolic.polynomial import Polynomial

BATCH = Polynomial.symbol(0, 0)
SEQUENCE = Polynomial.symbol(1, 0)


@pytest.mark.parametrize("convert", [evaluator_ops._to_int, evaluator_ops._ceil], ids=["Int.float", "ceil"])
def test_size_float_to_int(convert):
    """An exact size float is its size; an inexact product (rounded past 2**53) is no int
    the evaluator may claim (in an evaluation of a function without facts)."""
    scope = Scope(FactStore(), None, None)
    assert convert(scope, evaluator_values._SizeFloat(BATCH)) == BATCH
    with pytest.raises(evaluator_values.GiveUp):
        convert(scope, evaluator_values._SizeFloat(BATCH * SEQUENCE, exact=False))


MM_SHAPE = "__torch_refine_shape_fn.aten.mm"


def test_embedded_functions_run_from_their_stored_plans_without_parsing():
    library = loader.load(create_context())
    assert evaluator.evaluator_for(library, FactStore())._function(MM_SHAPE) is not None
    assert MM_SHAPE not in library._functions  # never parsed


def test_stored_plan_is_the_plan_of_the_function():
    library = loader.load(create_context())
    assert repr(library.plan(MM_SHAPE)) == repr(function_plan(library.get(MM_SHAPE)))


def test_extra_library_function_is_compiled_from_its_ir_not_the_stored_plan():
    context = create_context()
    extra = ir.Module.parse(
        f"func.func @{MM_SHAPE}(%a: !torch.list<int>, %b: !torch.list<int>) -> !torch.list<int> {{\n"
        "  return %a : !torch.list<int>\n}", context)
    library = loader.Library(context, [extra.operation])
    assert library.plan(MM_SHAPE) is None
    compiled = evaluator.evaluator_for(library, FactStore())._function(MM_SHAPE)
    assert compiled.body.yielded == compiled.body.arguments[:1]  # returns its first argument


def test_plans_of_another_python_are_ignored(tmp_path, monkeypatch):
    """Marshal's format is one Python version's: a plans file from another is not read,
    and functions compile from their IR."""
    foreign = tmp_path / "library.plans"
    foreign.write_bytes(b"TRLIBPL1 marshal 0 python 2.7\n" + b"\x00" * 16)
    monkeypatch.setattr(storage, "PLANS_PATH", str(foreign))
    storage.read_plans.cache_clear()
    try:
        library = loader.load(create_context())
        assert library.plan(MM_SHAPE) is None
        assert evaluator.evaluator_for(library, FactStore())._function(MM_SHAPE) is not None
    finally:
        monkeypatch.undo()
        storage.read_plans.cache_clear()


@pytest.mark.parametrize(("name", "chooses_first"), [("torch.prim.max.int", "torch.aten.ge.int"),
                                                     ("torch.prim.min.int", "torch.aten.le.int")])
def test_undecided_min_max_is_a_select_of_its_operands(name, chooses_first):
    """`max(s, 1)` of a size that may be 0 (a new tensor's stride check) is the select of
    the two, not a give-up that sends the op to the IR way; a decided one is its side."""
    step, payload = evaluator._METHOD_STEPS[name]
    run = evaluator.evaluator_for(loader.load(create_context()), FactStore())
    one = Polynomial.constant(1)
    (decided,) = step(run, [BATCH + one, one], payload, [])  # an evaluator's scope before any op: no facts
    (chosen,) = step(run, [BATCH, one], payload, [])
    assert decided == (BATCH + one if name.endswith("max.int") else 1)
    (select,) = chosen.symbols()
    assert facts.definition(select) == (facts.SELECT, (chooses_first, BATCH, one), BATCH, one)


@pytest.mark.parametrize("name", ["torch.aten.ne.float_int", "torch.aten.lt.float_int"])
def test_float_compared_with_an_int_runs_its_meaning(name):
    """A float against an int compares in double (symbolic/semantics.py): 2**53 + 1 is
    2**53 there; against a size it is no Python comparison (`2.0 != size` was True for
    every size, by polynomial equality) but a give-up."""
    step, payload = evaluator._METHOD_STEPS[name]
    run = evaluator.evaluator_for(loader.load(create_context()), FactStore())
    assert step(run, [2.0**53, 2**53 + 1], payload, []) == [False]
    with pytest.raises(TypeError):
        step(run, [2.0, BATCH], payload, [])
