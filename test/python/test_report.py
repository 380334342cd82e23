"""report: classification of refined tensor types against a truth, and counts without one."""

from __future__ import annotations

import pytest
from torch_mlir import ir

import torch_refine
from torch_refine import report
from torch_refine.ir import types
from torch_refine.ir.context import create_context
from torch_refine.library import loader

FUNCTION = """
func.func @f(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {{
  %0 = torch.aten.tanh %arg0 : !torch.vtensor<[2,3],f32> -> {0}
  %1 = torch.aten.tanh %0 : {0} -> {1}
  %2 = torch.aten.tanh %1 : {1} -> {2}
  %3 = torch.aten.tanh %2 : {2} -> {3}
  %4 = torch.aten.tanh %3 : {3} -> !torch.vtensor<[2,3],f32>
  return %4 : !torch.vtensor<[2,3],f32>
}}
"""
TRUTH = ("!torch.vtensor<[2,3],f32>",) * 4


def _parse(result_types):
    return ir.Module.parse(FUNCTION.format(*result_types))


@pytest.mark.parametrize(
    ("refined", "truth", "kind"),
    [
        ("!torch.vtensor<[2,3],f32>", "!torch.vtensor<[2,3],f32>", "exact"),
        ("!torch.vtensor<[2,?],f32>", "!torch.vtensor<[2,3],f32>", "partial"),
        ("!torch.vtensor<[2,3],unk>", "!torch.vtensor<[2,3],f32>", "partial"),
        ("!torch.vtensor<*,f32>", "!torch.vtensor<[2,3],f32>", "partial"),
        ("!torch.vtensor", "!torch.vtensor<[2,3],f32>", "unknown"),
        ("!torch.vtensor<[?,3],f32>", "!torch.vtensor<[?,3],f32>", "exact"),
        ("!torch.vtensor<[2,4],f32>", "!torch.vtensor<[2,3],f32>", "contradiction"),
        ("!torch.vtensor<[2,3],f64>", "!torch.vtensor<[2,3],f32>", "contradiction"),
        ("!torch.vtensor<[6],f32>", "!torch.vtensor<[2,3],f32>", "contradiction"),
        ("!torch.vtensor<[2,3],f32>", "!torch.vtensor<[?,3],f32>", "contradiction"),
    ],
)
def test_classify(refined, truth, kind):
    assert report.classify(types.parse_text(refined), types.parse_text(truth)) == kind


def test_compare_modules_counts_and_rows():
    refined_types = (
        "!torch.vtensor<[2,3],f32>",
        "!torch.vtensor<[2,?],f32>",
        "!torch.vtensor",
        "!torch.vtensor<[3,2],f32>",
    )
    with create_context():
        result = report.compare_modules(
            _parse(refined_types).operation, _parse(TRUTH).operation
        )
    # Four refined results plus the fifth tanh, whose type both modules keep.
    assert (result.exact, result.partial, result.unknown, result.contradictions) == (2, 1, 1, 1)
    assert result.op_count == 6
    assert [row.result_index for row in result.unknown_rows] == [0]
    assert result.unknown_rows[0].op_name == "torch.aten.tanh"
    assert result.contradiction_rows[0].truth == "!torch.vtensor<[2,3],f32>"
    assert result.to_dict()["contradictions"] == 1
    table = result.format_table()
    assert "contradictions" in table
    assert "!torch.vtensor<[3,2],f32>  (truth !torch.vtensor<[2,3],f32>)" in table


def test_compare_modules_rejects_different_structure():
    other = """
    func.func @f(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
      %0 = torch.aten.relu %arg0 : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],f32>
      return %0 : !torch.vtensor<[2,3],f32>
    }
    """
    with create_context():
        with pytest.raises(ValueError, match="structure differs"):
            report.compare_modules(ir.Module.parse(other).operation, _parse(TRUTH).operation)


def test_count_module_without_truth():
    refined_types = (
        "!torch.vtensor<[2,3],f32>",
        "!torch.vtensor<[2,?],f32>",
        "!torch.vtensor",
        "!torch.vtensor<[3,2],unk>",
    )
    with create_context():
        result = report.count_module(_parse(refined_types).operation)
    assert (result.exact, result.partial, result.unknown, result.contradictions) == (2, 2, 1, 0)
    assert not result.has_truth
    assert "no truth" in result.format_table()


def test_count_module_explains_a_module_the_pipeline_did_not():
    """Without the pipeline's own reasons (an imported module, not refined), the library
    still tells which ops have no function and which values inherit unknown operands."""
    refined_types = ("!torch.vtensor<[2,3],f32>", "!torch.vtensor", "!torch.vtensor<[2,?],f32>",
                     "!torch.vtensor<[2,3],f32>")
    with create_context() as context:
        module = _parse(refined_types).operation
        library = loader.load(context)
        result = report.count_module(module, lambda key, kinds: key != "aten.tanh")
        reasons = [row.reason for row in result.unknown_rows + result.partial_rows]
        assert reasons == ["no shape function for aten.tanh", "no shape function for aten.tanh"]
        result = report.count_module(module, library.has_function)
        reasons = [row.reason for row in result.unknown_rows + result.partial_rows]
        assert reasons[0] == (
            "shape function left it undecided (torch-refine-pipeline{explain=true} says why)"
        )
        assert reasons[1].startswith("operand already unknown (from %1 at ")
        assert "torch_refine." not in str(module)


def test_compare_modules_skips_casts_added_by_erasure():
    with_cast = """
    func.func @f(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
      %0 = torch.aten.tanh %arg0 : !torch.vtensor<[2,3],f32> -> !torch.vtensor
      %1 = torch.tensor_static_info_cast %0 : !torch.vtensor to !torch.vtensor<[2,3],f32>
      return %1 : !torch.vtensor<[2,3],f32>
    }
    """
    truth = """
    func.func @f(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
      %0 = torch.aten.tanh %arg0 : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],f32>
      return %0 : !torch.vtensor<[2,3],f32>
    }
    """
    with create_context():
        result = report.compare_modules(
            ir.Module.parse(with_cast).operation, ir.Module.parse(truth).operation
        )
    assert (result.unknown, result.values, result.op_count) == (1, 1, 2)


def test_count_module_tells_symbolic_sizes_from_partial_ones():
    """A dynamic size a `torch.bind_symbolic_shape` names (torch.export's batch) is
    symbolic-exact, not partial; without a truth nothing is compared, and the table says so."""
    text = """
func.func @main(%x: !torch.vtensor<[?,3],f32>) -> !torch.vtensor<[?,3],f32> {
  %s = torch.symbolic_int "s0" {min_val = 2, max_val = 64} : !torch.int
  %0 = torch.aten.tanh %x : !torch.vtensor<[?,3],f32> -> !torch.vtensor<[?,3],f32>
  torch.bind_symbolic_shape %0, [%s], affine_map<()[s0] -> (s0, 3)> : !torch.vtensor<[?,3],f32>
  %1 = torch.aten.tanh %0 : !torch.vtensor<[?,3],f32> -> !torch.vtensor<[?,3],f32>
  %2 = torch.aten.tanh %1 : !torch.vtensor<[?,3],f32> -> !torch.vtensor<[?,3],unk>
  torch.bind_symbolic_shape %2, [%s], affine_map<()[s0] -> (s0, 3)> : !torch.vtensor<[?,3],unk>
  return %0 : !torch.vtensor<[?,3],f32>
}
"""
    with create_context():
        result = report.count_module(ir.Module.parse(text).operation)
    assert (result.exact, result.symbolic_exact, result.partial, result.unknown) == (0, 1, 2, 0)
    assert result.to_dict()["symbolic_exact"] == 1
    table = result.format_table()
    assert "symbolic-exact" in table
    assert "n/a  (nothing to compare)" in table


def test_refine_counts_sizes_it_derived_as_symbolic_exact():
    """Without binds (torch-mlir's default import, hand-written IR), a dynamic size that
    refinement derives as an expression of the arguments' dims is symbolic-exact (the
    batch through tanh, the product a flatten makes); a size nothing determines (a
    nonzero's count) is partial. The dims it counted with do not stay in the output."""
    text = """
func.func @main(%x: !torch.vtensor<[?,3],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %0 = torch.aten.tanh %x : !torch.vtensor<[?,3],f32> -> !torch.vtensor
  %1 = torch.aten.flatten.using_ints %0, %int0, %int1 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %2 = torch.aten.nonzero %1 : !torch.vtensor -> !torch.vtensor
  return %2 : !torch.vtensor
}
"""
    module, result = torch_refine.refine(text)
    assert "!torch.vtensor<[?],f32>" in str(module)
    assert (result.exact, result.symbolic_exact, result.partial, result.unknown) == (0, 2, 1, 0)
    assert [row.op_name for row in result.partial_rows] == ["torch.aten.nonzero"]
    assert "torch_refine." not in str(module)
