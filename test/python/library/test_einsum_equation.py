"""einsum_equation.einsum_plan (the one parser the library, the simplify passes and the
executor share): scripted and plain Python agree, its messages are PyTorch's, and the
executor evaluates the intrinsic where it runs the library's einsum functions."""

import subprocess
import sys

import pytest
import torch

import torch_refine
from torch_refine.executor import ExecutionError
from torch_refine.library.einsum_equation import einsum_plan

VALID = {
    "ij,jk->ik": [[0, 2], [0, 1], [1, 2]],
    "ij,jk": [[-1, 0, 2], [0, 1], [1, 2]],  # implicit: the ellipsis, then labels seen once
    " i j , j k -> i k ": [[0, 2], [0, 1], [1, 2]],
    "ii": [[-1], [0, 0]],
    "ii->i": [[0], [0, 0]],
    "Ba,aB": [[-1], [0, 1], [1, 0]],  # upper case sorts first
    "bA": [[-1, 0, 1], [1, 0]],
    "...ij,...jk->...ik": [[-1, 0, 2], [-1, 0, 1], [-1, 1, 2]],
    "ij->...ij": [[-1, 0, 1], [0, 1]],
    "": [[-1], []],
    "->": [[], []],
    ",->": [[], [], []],
}

# Equation-only errors, each with the operands' ranks that make PyTorch parse that far.
INVALID = {
    "i-j": [2],
    "i1": [2],
    "i.j": [2],
    "......": [2],
    "a.,..": [1, 0],
    "i->->i": [1],
    "i->i..": [1],
    "i->......": [1],
    "ij->ii": [2],
    "ij->k": [2],
}


@pytest.fixture(scope="module")
def scripted_plan():
    return torch.jit.script(einsum_plan)


@pytest.mark.parametrize(("equation", "plan"), VALID.items())
def test_plan(equation, plan, scripted_plan):
    assert einsum_plan(equation) == plan
    assert scripted_plan(equation) == plan


@pytest.mark.parametrize(("equation", "ranks"), INVALID.items())
def test_error_is_pytorchs(equation, ranks, scripted_plan):
    operands = [torch.empty([2] * rank, device="meta") for rank in ranks]
    with pytest.raises(RuntimeError) as pytorch_error:
        torch.einsum(equation, operands)
    with pytest.raises(AssertionError) as ours:
        einsum_plan(equation)
    assert str(ours.value) == str(pytorch_error.value).splitlines()[0]
    with pytest.raises(torch.jit.Error, match="AssertionError"):
        scripted_plan(equation)


def test_evaluator_needs_no_torch():
    script = ("import sys; import torch_refine.patterns.einsum; "
              "assert 'torch' not in sys.modules, 'imports torch'")
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert child.returncode == 0, child.stderr


def _program(equation: str, types: str) -> str:
    args = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(types))
    operands = ", ".join(f"%arg{i}" for i in range(len(types)))
    return f"""
func.func @main({args}) -> !torch.vtensor {{
  %eq = torch.constant.str "{equation}"
  %none = torch.constant.none
  %ops = torch.prim.ListConstruct {operands} : ({", ".join(types)}) -> !torch.list<vtensor>
  %0 = torch.aten.einsum %eq, %ops, %none : !torch.str, !torch.list<vtensor>, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}}
"""


def test_executor_runs_the_library_check_with_the_plan():
    program = _program("ij,jk->ik", ["!torch.vtensor<[?,?],f32>", "!torch.vtensor<[?,?],f32>"])
    a, b = torch.randn(2, 3), torch.randn(3, 4)
    torch.testing.assert_close(torch_refine.execute(program, a, b), a @ b)
    with pytest.raises(ExecutionError, match="do not broadcast"):
        torch_refine.execute(program, a, torch.randn(5, 4))


def test_executor_reports_an_invalid_equation():
    program = _program("i-j", ["!torch.vtensor<[?,?],f32>"])
    with pytest.raises(ExecutionError, match=r"invalid subscript given at index 1"):
        torch_refine.execute(program, torch.randn(2, 3))
