"""engine/convention.py: the one calling convention reify builds in IR and the evaluator runs
on values; each step named for the types it passes between."""

from __future__ import annotations

import pytest

from torch_refine.engine.convention import Step, passing

CASES = [
    ("!torch.int", "!torch.int", "shape", Step.SAME),
    ("!torch.none", "!torch.optional<int>", "shape", Step.NONE),
    ("!torch.int", "!torch.optional<int>", "shape", Step.OPTIONAL),
    ("!torch.optional<int>", "!torch.optional<number>", "shape", Step.UNWRAP),
    ("!torch.vtensor<[2,3],f32>", "!torch.list<int>", "shape", Step.SIZES),
    ("!torch.vtensor<[2,3],f32>", "!torch.tuple<int, int>", "dtype", Step.RANK_DTYPE),
    ("!torch.vtensor<[2,3],f32>", "!torch.list<int>", "dtype", Step.DEREFINE),
    ("!torch.list<int>", "!torch.list<number>", "shape", Step.ELEMENTS),
    ("!torch.int", "!torch.float", "shape", Step.TO_FLOAT),
    ("!torch.bool", "!torch.number", "dtype", Step.BOOL_AS_INT),
    ("!torch.int", "!torch.number", "dtype", Step.DEREFINE),
]


@pytest.mark.parametrize(("value", "parameter", "kind", "step"), CASES)
def test_each_pair_of_types_is_passed_by_one_step(value, parameter, kind, step):
    assert passing(value, parameter, kind) is step
