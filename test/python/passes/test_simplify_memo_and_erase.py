"""Memo hits of the simplify passes on repeated blocks, and erase_tensor_types."""

from torch_mlir import ir

from torch_refine.context import create_context
from torch_refine.erase import erase_tensor_types
from torch_refine.passes.propagate_control_flow import propagate
from torch_refine.passes.simplify_shape_calculations import SimplifyShapeCalculations

_MM_CHECK = """
    %{n}_c = torch.shape.calculate {{
      %r = torch.aten.mm %{x}, %w : !torch.vtensor<[8,16],f32>, !torch.vtensor<[16,16],f32> -> !torch.vtensor
      torch.shape.calculate.yield %r : !torch.vtensor
    }} shapes {{
      %none = torch.constant.none
      %int0 = torch.constant.int 0
      %int1 = torch.constant.int 1
      %msg = torch.constant.str "mm: inner dimensions differ"
      %k0 = torch.aten.size.int %{x}, %int1 : !torch.vtensor<[8,16],f32>, !torch.int -> !torch.int
      %k1 = torch.aten.size.int %w, %int0 : !torch.vtensor<[16,16],f32>, !torch.int -> !torch.int
      %ok = torch.aten.eq.int %k0, %k1 : !torch.int, !torch.int -> !torch.bool
      torch.prim.If %ok -> () {{
        torch.prim.If.yield
      }} else {{
        torch.prim.RaiseException %msg, %none : !torch.str, !torch.none
        torch.prim.If.yield
      }}
      %m = torch.aten.size.int %{x}, %int0 : !torch.vtensor<[8,16],f32>, !torch.int -> !torch.int
      %n = torch.aten.size.int %w, %int1 : !torch.vtensor<[16,16],f32>, !torch.int -> !torch.int
      %l = torch.prim.ListConstruct %m, %n : (!torch.int, !torch.int) -> !torch.list<int>
      torch.shape.calculate.yield.shapes %l : !torch.list<int>
    }} : !torch.vtensor
    %{n} = torch.tensor_static_info_cast %{n}_c : !torch.vtensor to !torch.vtensor<[8,16],f32>"""


def _repeated_blocks(count: int) -> str:
    body = []
    previous = "x"
    for index in range(count):
        body.append(_MM_CHECK.format(n=f"b{index}", x=previous))
        previous = f"b{index}"
    return (
        "func.func @blocks(%x: !torch.vtensor<[8,16],f32>, %w: !torch.vtensor<[16,16],f32>) "
        "-> !torch.vtensor<[8,16],f32> {"
        + "".join(body)
        + f"\n    return %{previous} : !torch.vtensor<[8,16],f32>\n}}"
    )


def test_repeated_blocks_hit_the_memo():
    with create_context():
        module = ir.Module.parse(_repeated_blocks(10))
        simplify = SimplifyShapeCalculations()
        simplify.run(module.operation)
        assert module.operation.verify()
        assert simplify.statistics.calculations == 10
        assert simplify.statistics.memo_hits == 9
        text = str(module)
        assert text.count("torch.prim.RaiseException") == 0
        assert text.count("} : !torch.vtensor<[8,16],unk>") == 10


def test_undecided_check_is_not_memoized():
    text = _repeated_blocks(3).replace("!torch.vtensor<[16,16],f32>", "!torch.vtensor<[?,16],f32>")
    with create_context():
        module = ir.Module.parse(text)
        simplify = SimplifyShapeCalculations()
        simplify.run(module.operation)
        assert module.operation.verify()
        assert simplify.statistics.memo_hits == 0
        assert str(module).count("torch.prim.RaiseException") == 3  # each op keeps its guard


_CONTROL_FLOW = """
func.func @callee(%t: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  return %t : !torch.vtensor<[2],f32>
}
func.func @f(%c: !torch.bool, %a: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  %int2 = torch.constant.int 2
  %true = torch.constant.bool true
  %0 = torch.aten.tanh %a : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  %1 = torch.prim.If %c -> (!torch.vtensor<[2],f32>) {
    %2 = torch.aten.sigmoid %0 : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
    torch.prim.If.yield %2 : !torch.vtensor<[2],f32>
  } else {
    torch.prim.If.yield %0 : !torch.vtensor<[2],f32>
  }
  %3 = torch.prim.Loop %int2, %true, init(%a) {
  ^bb0(%i: !torch.int, %x: !torch.vtensor<[2],f32>):
    %4 = func.call @callee(%x) : (!torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>
    %l = torch.prim.ListConstruct %4 : (!torch.vtensor<[2],f32>) -> !torch.list<vtensor<[2],f32>>
    torch.prim.Loop.condition %true, iter(%4 : !torch.vtensor<[2],f32>)
  } : (!torch.int, !torch.bool, !torch.vtensor<[2],f32>) -> (!torch.vtensor<[2],f32>)
  %5 = torch.aten.add.Tensor %3, %1, %int2 : !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.int -> !torch.vtensor<[2],f32>
  return %5 : !torch.vtensor<[2],f32>
}
"""


def test_erase_keeps_signatures_and_validity():
    with create_context():
        module = ir.Module.parse(_CONTROL_FLOW)
        erase_tensor_types(module.operation)
        assert module.operation.verify()
        text = str(module)
        assert "func.func @f(%arg0: !torch.bool, %arg1: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>" in text
        assert "torch.aten.tanh %arg1 : !torch.vtensor<[2],f32> -> !torch.vtensor\n" in text
        assert "torch.prim.If %arg0 -> (!torch.vtensor)" in text
        assert "!torch.list<vtensor>" in text


def test_erase_then_propagate_reaches_a_fixed_point():
    with create_context():
        module = ir.Module.parse(_CONTROL_FLOW)
        erase_tensor_types(module.operation)
        # Step 1: the carried value assumes its init's type (the argument's).
        assert propagate(module.operation)
        assert module.operation.verify()
        assert "^bb0(%arg2: !torch.int, %arg3: !torch.vtensor<[2],f32>)" in str(module)
        # Step 2: the back edge (a call result, typed by the callee) agrees: fixed point.
        assert not propagate(module.operation)
        assert module.operation.verify()
