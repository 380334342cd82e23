"""The fact store of one run (calculations/store.py): which facts decide a condition, and
runs in two threads that keep their facts apart."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from torch_mlir import ir

from torch_refine.calculations import facts
from torch_refine.calculations.ranges import polynomial_range
from torch_refine.calculations.store import Fact, FactStore
from torch_refine.engine.refine import PipelineOptions, refine_to_fixed_point
from torch_refine.ir.constants import op_key
from torch_refine.ir.context import create_context
from torch_refine.symbolic.polynomial import Polynomial

A, B = Polynomial.symbol(0, 0), Polynomial.symbol(0, 1)
(A_SYMBOL,), (B_SYMBOL,) = A.symbols(), B.symbols()
EQ, NE, GE, LT = "torch.aten.eq.int", "torch.aten.ne.int", "torch.aten.ge.int", "torch.aten.lt.int"
FUNCTION = 1


def _constant(value: int) -> Polynomial:
    return Polynomial.constant(value)


def test_an_asserted_condition_is_decided_by_itself_with_its_source():
    store = FactStore()
    store.assume(FUNCTION, (EQ, A, B), True, "entry guard of aten.add.Tensor")
    decision = store.decided(FUNCTION, (EQ, A, B))
    assert decision.holds is True
    assert decision.by_assertion
    assert decision.facts == (Fact("asserted", (EQ, A, B), True, "entry guard of aten.add.Tensor"),)
    assert store.decided(FUNCTION + 1, (EQ, A, B)) is None  # another function's facts


def test_a_comparison_the_replacements_make_constant_is_decided_by_them():
    """`a == b` asserted replaces one symbol by the other: `a + 1 > b` then holds, and
    the decision names the replacement, not an assertion."""
    store = FactStore()
    store.add_equality(FUNCTION, A, B, "entry guard of aten.add.Tensor")
    decision = store.decided(FUNCTION, ("torch.aten.gt.int", A + _constant(1), B))
    assert decision.holds is True
    assert not decision.by_assertion
    ((fact),) = decision.facts
    assert fact.kind == "replacement"
    assert fact.key in (A_SYMBOL, B_SYMBOL)
    assert fact.source == "entry guard of aten.add.Tensor"
    assert store.decided(FUNCTION, (EQ, A, A * B)) is None  # `a == a*b` stays open


def test_a_comparison_of_one_symbol_is_decided_by_its_asserted_range():
    store = FactStore()
    assert store.add_range(FUNCTION, (GE, A, _constant(4)), True, "export input check")
    decision = store.decided(FUNCTION, (LT, _constant(2) * A, _constant(7)))
    assert decision.holds is False
    assert decision.facts == (Fact("range", A_SYMBOL, (4, None), "export input check"),)
    assert store.decided(FUNCTION, (NE, A, _constant(9))) is None  # 9 is in a's range
    assert store.decided(FUNCTION, (NE, A, _constant(3))).holds is True
    assert store.decided(FUNCTION, (GE, B, _constant(1))) is None  # nothing asserted of b


def test_two_stores_do_not_share_facts():
    first, second = FactStore(), FactStore()
    first.assume(FUNCTION, (EQ, A, B), True, "first")
    first.add_equality(FUNCTION, A, B)
    assert second.decided(FUNCTION, (EQ, A, B)) is None
    assert second.replacements(FUNCTION) == {}
    assert second.fact_count() == 0


def test_two_stores_in_two_threads_each_narrow_the_ranges_they_are_given(parse):
    """The ranges read the store they are passed, no store current anywhere: two threads
    reading one function's ranges at once, each with its own asserted range of the same
    dim, see their own; without a store the dim is a plain size."""
    program = parse("func.func @main(%arg0: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?],f32> {\n"
                    "  return %arg0 : !torch.vtensor<[?],f32>\n}")
    function_key = op_key(program.function)
    barrier = threading.Barrier(2, timeout=60)

    def run(least: int):
        own = FactStore()
        own.add_range(function_key, (GE, A, _constant(least)), True)
        barrier.wait()  # both runs at once
        found = polynomial_range(A, program.entry, own)
        barrier.wait()
        return found

    with ThreadPoolExecutor(2) as pool:
        seen = dict(zip((3, 5), pool.map(run, (3, 5))))
    assert seen == {3: (3, None), 5: (5, None)}
    assert polynomial_range(A, program.entry, FactStore()) == (0, None)


# Equal batches asserted at the entry (a fact the add relies on) in one program, not in the
# other (the add keeps PyTorch's broadcast check of the batches).
_PROGRAM = """
func.func @main(%x: !torch.vtensor<[?,4],f32>, %y: !torch.vtensor<[?,4],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %a = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,4],f32>, !torch.int -> !torch.int
  %b = torch.aten.size.int %y, %int0 : !torch.vtensor<[?,4],f32>, !torch.int -> !torch.int
  ASSERT
  %r = torch.aten.add.Tensor %x, %y, %int1 : !torch.vtensor<[?,4],f32>, !torch.vtensor<[?,4],f32>, !torch.int -> !torch.vtensor
  return %r : !torch.vtensor
}
"""
_EQUAL = """%eq = torch.aten.eq.int %a, %b : !torch.int, !torch.int -> !torch.bool
  torch.runtime.assert %eq, "equal batches\""""


def _refined(text: str) -> str:
    context = create_context()
    module = ir.Module.parse(text, context)
    refine_to_fixed_point(module.operation, PipelineOptions())
    return str(module)


def test_two_refinements_in_two_threads_do_not_see_each_others_facts():
    """Two refinements run at once in two threads (the engine called directly, without
    the pass manager's lock): each output is what a lone run gives, the asserted equality
    of one program's batches never reaching the other's add."""
    programs = {"equal": _PROGRAM.replace("ASSERT", _EQUAL), "open": _PROGRAM.replace("ASSERT", "")}
    expected = {name: _refined(text) for name, text in programs.items()}
    assert expected["equal"] != expected["open"]
    barrier = threading.Barrier(2, timeout=120)  # a failed thread breaks the other's wait

    def work(name: str) -> list[str]:
        outputs = []
        for _ in range(4):
            barrier.wait()
            outputs.append(_refined(programs[name]))
        return outputs

    with ThreadPoolExecutor(len(programs)) as pool:
        results = dict(zip(programs, pool.map(work, programs)))
    for name, texts in results.items():
        assert texts == [expected[name]] * 4


# A size whose quotient has two normal forms (`(x % 5) // 2 // 2` and `(x % 5) // 4`, one
# value): the form a run uses is the first the run made, so a program refined after another
# that made the other form must come out as it does alone.
_QUARTER_OF_REMAINDER = """
func.func @main(%x: !torch.vtensor<[?],f32>, %y: !torch.vtensor<[?],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %int5 = torch.constant.int 5
  %none = torch.constant.none
  %false = torch.constant.bool false
  %n = torch.aten.size.int %x, %int0 : !torch.vtensor<[?],f32>, !torch.int -> !torch.int
  %r = torch.aten.remainder.int %n, %int5 : !torch.int, !torch.int -> !torch.int
  QUARTER
  %sizes = torch.prim.ListConstruct %q : (!torch.int) -> !torch.list<int>
  %t = torch.aten.ones %sizes, %none, %none, %none, %false : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.bool -> !torch.vtensor
  %s = torch.aten.add.Tensor %t, %y, %int1 : !torch.vtensor, !torch.vtensor<[?],f32>, !torch.int -> !torch.vtensor
  return %s : !torch.vtensor
}
"""
_HALVED_TWICE = _QUARTER_OF_REMAINDER.replace("QUARTER", """%h = torch.aten.floordiv.int %r, %int2 : !torch.int, !torch.int -> !torch.int
  %q = torch.aten.floordiv.int %h, %int2 : !torch.int, !torch.int -> !torch.int""")
_QUARTERED = _QUARTER_OF_REMAINDER.replace(
    "QUARTER", "%q = torch.aten.floordiv.int %r, %int4 : !torch.int, !torch.int -> !torch.int")
_REFINE_EACH = """
import json, sys
from torch_mlir import ir
from torch_refine.engine.refine import PipelineOptions, refine_to_fixed_point
from torch_refine.ir.context import create_context
outputs = []
for text in json.load(sys.stdin):
    module = ir.Module.parse(text, create_context())
    refine_to_fixed_point(module.operation, PipelineOptions())
    outputs.append(str(module))
print(json.dumps(outputs))
"""


def _refined_in_a_new_process(*texts: str) -> list[str]:
    """Each program refined in turn by one fresh process (nothing made before the first)."""
    found = subprocess.run([sys.executable, "-c", _REFINE_EACH], input=json.dumps(texts), capture_output=True,
                           text=True, check=True)
    return json.loads(found.stdout)


def test_a_program_refined_after_another_comes_out_as_alone():
    """History independence: refined after a program that made the other normal form of
    its quotient first, a program's output is its output alone (until issue 41 moved the
    forms into the run's store, the first program's form was the second's too, and a
    nonnegative-size assert of the program alone went missing)."""
    (alone,) = _refined_in_a_new_process(_HALVED_TWICE)
    (quartered_alone,) = _refined_in_a_new_process(_QUARTERED)
    quartered, after = _refined_in_a_new_process(_QUARTERED, _HALVED_TWICE)
    assert quartered == quartered_alone
    assert after == alone
    assert alone != quartered_alone  # the two forms do differ: each program keeps its own


def test_the_pruning_remembers_as_a_refinement_does_and_forgets_after():
    """`FactStore.pruning`: the clean-up's pruning of implied guards reads ranges and binds
    through the refinement cache, as a refinement does; none is kept past it."""
    store = FactStore()
    assert store.refinement_cache() is None
    with store.pruning():
        store.refinement_cache()["remembered"] = True
        assert store.refinement_cache() == {"remembered": True}
    assert store.refinement_cache() is None
    assert store.run_cache() == {}


def test_a_resolved_polynomial_is_remembered_as_facts_resolves_it():
    """`FactStore.resolved`: `facts.resolved` under the run's quotient forms, the same
    value when asked again, and another for other replacements."""
    store = FactStore()
    quotient = facts.quotient(_constant(32) * A, _constant(8) * B, store.quotient_forms, guarded=True)
    replaced = {B_SYMBOL: A}
    assert store.resolved(quotient, replaced) == _constant(4) == facts.resolved(quotient, replaced, {})
    assert store.resolved(quotient, replaced) is store.resolved(quotient, replaced)
    assert store.resolved(quotient, {}) == facts.resolved(quotient, {}, store.quotient_forms)
