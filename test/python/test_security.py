"""IR is data (docs/trust-model.md): no input IR reads or writes a file, runs Python, or
overrides the library, through `refine`, `execute` or `torch-refine-opt`. Only the
library files the caller names are trusted code."""

from __future__ import annotations

import pytest
import torch

import torch_refine
from torch_refine.executor import SideEffectError
from torch_refine.tools.opt import main as opt_main

MM = """
func.func @main(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[3,5],f32>) -> !torch.vtensor {
  %0 = torch.aten.mm %a, %b : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3,5],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}
"""

FROM_FILE = """
func.func @main() -> !torch.vtensor<[4],ui8> {
  %path = torch.constant.str "PATH"
  %shared = torch.constant.bool SHARED
  %int4 = torch.constant.int 4
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %0 = torch.operator "aten.from_file"(%path, %shared, %int4, %int0, %none, %none, %none) : (!torch.str, !torch.bool, !torch.int, !torch.int, !torch.none, !torch.none, !torch.none) -> !torch.vtensor<[4],ui8>
  BODY
  return %0 : !torch.vtensor<[4],ui8>
}
"""

COPY_INTO_FILE = """
  %int7 = torch.constant.int 7
  %false = torch.constant.bool false
  %1 = torch.aten.fill.Scalar %0, %int7 : !torch.vtensor<[4],ui8>, !torch.int -> !torch.vtensor<[4],ui8>
  %2 = torch.operator "aten.copy_"(%0, %1, %false) : (!torch.vtensor<[4],ui8>, !torch.vtensor<[4],ui8>, !torch.bool) -> !torch.vtensor<[4],ui8>
"""


@pytest.fixture
def secret(tmp_path):
    path = tmp_path / "secret.bin"
    path.write_bytes(b"KEYS")
    return path


def _from_file(path, shared: bool, body: str = "") -> str:
    text = FROM_FILE.replace("PATH", str(path)).replace("SHARED", str(shared).lower())
    return text.replace("BODY", body)


def test_executor_refuses_to_read_a_file(secret):
    with pytest.raises(SideEffectError, match=r"refusing 'aten.from_file' at .*:8:\d+"):
        torch_refine.execute(_from_file(secret, shared=False))


def test_executor_refuses_to_write_a_file_through_shared_storage(secret):
    with pytest.raises(SideEffectError, match=r"refusing 'aten\.from_file'"):
        torch_refine.execute(_from_file(secret, shared=True, body=COPY_INTO_FILE))
    assert secret.read_bytes() == b"KEYS"


def test_file_io_runs_only_when_the_caller_opts_in(secret):
    data = torch_refine.execute(_from_file(secret, shared=False), allow_side_effects=True)
    assert bytes(data.tolist()) == b"KEYS"


@pytest.mark.parametrize(
    ("op", "operands", "types"),
    [
        ("aten.save", "%a, %path", "!torch.vtensor<[2],f32>, !torch.str"),
        ("aten.load", "%path", "!torch.str"),
        ("prim.Print", "%a", "!torch.vtensor<[2],f32>"),
        ("aten.manual_seed", "%int0", "!torch.int"),
        ("aten._assert_async.msg", "%a, %path", "!torch.vtensor<[2],f32>, !torch.str"),
    ],
)
def test_executor_refuses_io_and_global_state_ops(tmp_path, op, operands, types):
    text = f"""
    func.func @main(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {{
      %path = torch.constant.str "{tmp_path / "out.pt"}"
      %int0 = torch.constant.int 0
      torch.operator "{op}"({operands}) : ({types}) -> ()
      return %a : !torch.vtensor<[2],f32>
    }}
    """
    with pytest.raises(SideEffectError, match=f"refusing '{op}' at .*:5:"):
        torch_refine.execute(text, torch.ones(2))
    assert list(tmp_path.iterdir()) == []


def test_in_place_ops_never_reach_the_callers_tensors():
    text = """
    func.func @main(%a: !torch.tensor<[2],f32>) -> !torch.tensor<[2],f32> {
      %int5 = torch.constant.int 5
      %0 = torch.aten.fill_.Scalar %a, %int5 : !torch.tensor<[2],f32>, !torch.int -> !torch.tensor<[2],f32>
      return %0 : !torch.tensor<[2],f32>
    }
    """
    a = torch.zeros(2)
    assert torch_refine.execute(text, a).tolist() == [5.0, 5.0]
    assert a.tolist() == [0.0, 0.0]


def test_random_ops_use_the_executors_seed_not_the_callers_rng():
    text = """
    func.func @main() -> !torch.vtensor<[3],f32> {
      %int3 = torch.constant.int 3
      %none = torch.constant.none
      %sizes = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
      %0 = torch.aten.rand %sizes, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[3],f32>
      return %0 : !torch.vtensor<[3],f32>
    }
    """
    state = torch.get_rng_state()
    first = torch_refine.execute(text)
    assert torch.equal(torch.get_rng_state(), state)
    torch.testing.assert_close(torch_refine.execute(text), first)
    assert not torch.equal(torch_refine.execute(text, seed=1), first)


def test_extra_library_path_cannot_inject_options(tmp_path):
    evil = tmp_path / "evil.py"
    marker = tmp_path / "ran"
    evil.write_text(f"open({str(marker)!r}, 'w').close()\n")
    injected = f'{tmp_path / "x.mlir"}" extra-library="{evil}'
    with pytest.raises(torch_refine.RefinementError, match="cannot read extra-library"):
        torch_refine.refine(MM, extra_library=injected)
    assert not marker.exists()


def test_opt_extra_library_flag_and_pipeline_cannot_inject_options(tmp_path, capfd):
    evil = tmp_path / "evil.py"
    marker = tmp_path / "ran"
    evil.write_text(f"open({str(marker)!r}, 'w').close()\n")
    source = tmp_path / "in.mlir"
    source.write_text(MM)
    injected = f'{tmp_path / "x.mlir"}" extra-library="{evil}'
    assert opt_main([str(source), f"--extra-library={injected}", "--torch-refine-pipeline"]) == 1
    assert "cannot read extra-library" in capfd.readouterr().err
    # A second occurrence of an option does not silently replace the first.
    pipeline = f'builtin.module(torch-refine-pipeline{{extra-library="{tmp_path / "x.mlir"}" extra-library="{evil}"}})'
    assert opt_main([str(source), f"--pass-pipeline={pipeline}"]) == 1
    assert "option 'extra-library' of pass 'torch-refine-pipeline' is given more than once" in \
        capfd.readouterr().err
    assert not marker.exists()


def test_refinement_never_runs_ops_or_touches_files(secret):
    module, _ = torch_refine.refine(_from_file(secret, shared=True, body=COPY_INTO_FILE))
    assert "aten.from_file" in str(module)
    assert secret.read_bytes() == b"KEYS"


def test_input_ir_cannot_override_the_library():
    text = """
    func.func private @"__torch_refine_shape_fn.aten.tanh"(%arg0: !torch.list<int>) -> !torch.list<int> {
      %int7 = torch.constant.int 7
      %0 = torch.prim.ListConstruct %int7 : (!torch.int) -> !torch.list<int>
      return %0 : !torch.list<int>
    }
    func.func @main(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
      %0 = torch.aten.tanh %x : !torch.vtensor<[2,3],f32> -> !torch.vtensor
      return %0 : !torch.vtensor
    }
    """
    # Rejected, and said why (a forged function is never used).
    with pytest.raises(torch_refine.RefinementError, match=r"__torch_refine_shape_fn\.aten\.tanh"):
        torch_refine.refine(text)


def test_executor_checks_use_the_builtin_library_not_the_inputs():
    # An input function named like a library function does not vouch for bad arguments.
    text = """
    func.func private @"__torch_refine_dtype_fn.aten._native_batch_norm_legit.no_stats"(%a: !torch.tuple<int, int>, %b: !torch.optional<tuple<int, int>>, %c: !torch.optional<tuple<int, int>>, %t: !torch.bool, %m: !torch.float, %e: !torch.float) -> !torch.tuple<int, int, int> {
      %int6 = torch.constant.int 6
      %0 = torch.prim.TupleConstruct %int6, %int6, %int6 : !torch.int, !torch.int, !torch.int -> !torch.tuple<int, int, int>
      return %0 : !torch.tuple<int, int, int>
    }
    """ + BATCH_NORM_EVAL
    with pytest.raises(torch_refine.ExecutionError, match="running_mean and running_var"):
        torch_refine.execute(text, torch.randn(2, 4, 3), torch.ones(4))


BATCH_NORM_EVAL = """
func.func @main(%x: !torch.vtensor<[2,4,3],f32>, %w: !torch.vtensor<[4],f32>) -> !torch.vtensor<[2,4,3],f32> {
  %false = torch.constant.bool false
  %float0.1 = torch.constant.float 1.000000e-01
  %float1e-05 = torch.constant.float 1.000000e-05
  %none = torch.constant.none
  %0:3 = torch.operator "aten._native_batch_norm_legit.no_stats"(%x, %w, %none, %false, %float0.1, %float1e-05) : (!torch.vtensor<[2,4,3],f32>, !torch.vtensor<[4],f32>, !torch.none, !torch.bool, !torch.float, !torch.float) -> (!torch.vtensor<[2,4,3],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>)
  return %0#0 : !torch.vtensor<[2,4,3],f32>
}
"""


REPRODUCER_WITH_LIBRARY = """
func.func @f(%arg0: !torch.vtensor<[2],f32>) -> !torch.vtensor {
  %0 = torch.aten.tanh %arg0 : !torch.vtensor<[2],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}
{-#
  external_resources: {
    mlir_reproducer: {
      pipeline: "builtin.module(torch-refine-pipeline{extra-library=LIBRARY})",
      disable_threading: false,
      verify_each: true
    }
  }
#-}
"""


def test_reproducer_cannot_name_a_library_to_run(tmp_path, capsys):
    """--run-reproducer takes the pipeline from the input; an extra library there would be
    Python run from IR. It stops and says so; the file never runs."""
    marker = tmp_path / "ran"
    library = tmp_path / "library.py"
    library.write_text(f"open({str(marker)!r}, 'w').close()\n")
    source = tmp_path / "repro.mlir"
    source.write_text(REPRODUCER_WITH_LIBRARY.replace("LIBRARY", str(library)))
    assert opt_main([str(source), "--run-reproducer"]) == 1
    assert not marker.exists()
    assert "taken from the command line only" in capsys.readouterr().err
