"""calculations/lists.py's one reader of list literals (`literal_elements`): a literal's
operands are its elements where nothing changes the list, through every alias, whatever op
reads it (reify, the evaluator, contents, express, casts and the list folds ask it)."""

from __future__ import annotations

import pytest

from torch_refine.calculations.lists import literal_elements, unmutated_literals_memo
from torch_refine.calculations.store import FactStore

T = "!torch.vtensor<[3,1,8],f32>"
L = "!torch.list<int>"


def _program(uses: str) -> str:
    return f"""
func.func private @callee(%l: {L}) -> !torch.int {{
  %int0 = torch.constant.int 0
  return %int0 : !torch.int
}}
func.func @main(%arg0: {T}) -> !torch.vtensor {{
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %list = torch.prim.ListConstruct %int1, %int2 : (!torch.int, !torch.int) -> {L} loc("list")
{uses}
  %r = torch.aten.view %arg0, %list : {T}, {L} -> !torch.vtensor
  return %r : !torch.vtensor
}}"""


READ = {
    "an op torch-mlir imports as torch.operator": f"""
  %0 = torch.operator "aten.squeeze.dims"(%arg0, %list) : ({T}, {L}) -> !torch.vtensor""",
    "a torch.operator as the FX importer names it": f"""
  %0 = torch.operator "torch.aten.squeeze.dims"(%arg0, %list) : ({T}, {L}) -> !torch.vtensor""",
    "a prims op": f"""
  %0 = torch.prims.squeeze %arg0, %list : {T}, {L} -> !torch.vtensor""",
    "an unpack": f"""
  %0:2 = torch.prim.ListUnpack %list : {L} -> !torch.int, !torch.int""",
}
CHANGED = {
    "an append through a derefine": f"""
  %0 = torch.derefine %list : {L} to !torch.optional<list<int>>
  %1 = torch.prim.unchecked_cast %0 : !torch.optional<list<int>> -> {L}
  torch.aten.append.t %1, %int1 : {L}, !torch.int -> {L}""",
    "a call that may change it": f"""
  %0 = func.call @callee(%list) : ({L}) -> !torch.int""",
}


@pytest.mark.parametrize("uses", list(READ.values()), ids=list(READ))
def test_a_literal_only_read_is_its_operands(parse, uses):
    program = parse(_program(uses))
    elements = literal_elements(program.value("list"))
    assert elements is not None
    assert len(elements) == 2


@pytest.mark.parametrize("uses", list(CHANGED.values()), ids=list(CHANGED))
def test_a_literal_that_may_change_is_not_read(parse, uses):
    """reify copied the first (its own test was that no direct user is a mutation)."""
    program = parse(_program(uses))
    assert literal_elements(program.value("list")) is None


def test_the_memo_of_unmutated_literals_is_one_greedy_rewrite_of_one_run(parse):
    """The literals found unmutated are remembered in the run's store for the length of its
    greedy rewrite only (`FactStore.unmutated_literals`), read by the readers it is given
    to; another run's store, at the same time, has none."""
    program = parse(_program(READ["an unpack"]))
    run, other = FactStore(), FactStore()
    with unmutated_literals_memo(run):
        memo = run.unmutated_literals
        assert literal_elements(program.value("list"), memo) is not None
        assert memo.literals  # remembered for the next read in this rewrite
        assert other.unmutated_literals is None
    assert run.unmutated_literals is None
