"""Memo hits and memo keys of the simplify passes, and erase_tensor_types."""

from torch_mlir import ir

from torch_refine.calculations.kind import RANK_DTYPE, SHAPE, SIZES, UNREAD
from torch_refine.calculations.store import FactStore
from torch_refine.calculations.symbols import DTYPE_FN_PREFIX, SHAPE_FN_PREFIX
from torch_refine.engine.memo import memo_key
from torch_refine.engine.propagate import propagate
from torch_refine.engine.reify import LibraryCloner, load_library
from torch_refine.engine.simplifier import Options, Simplifier
from torch_refine.ir.context import create_context
from torch_refine.ir.erase import erase_tensor_types
from torch_refine.passes.pipeline import RefinePipeline
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


_TYPED_LIST = """
func.func @f(%x: !torch.vtensor<[2,8,64],f32>) -> !torch.vtensor<[2,8,32],f32> {
  %int32 = torch.constant.int 32
  %int2 = torch.constant.int 2
  %sizes = torch.prim.ListConstruct %int32, %int32 : (!torch.int, !torch.int) -> !torch.list<int>
  %l = torch.aten.split_with_sizes %x, %sizes, %int2 : !torch.vtensor<[2,8,64],f32>, !torch.list<int>, !torch.int -> !torch.list<vtensor<[2,8,32],f32>>
  %a, %b = torch.prim.ListUnpack %l : !torch.list<vtensor<[2,8,32],f32>> -> !torch.vtensor<[2,8,32],f32>, !torch.vtensor<[2,8,32],f32>
  {call}
  return %a : !torch.vtensor<[2,8,32],f32>
}
func.func private @g(!torch.list<vtensor<[2,8,32],f32>>) -> !torch.vtensor<[2,8,32],f32>
"""
_CALL = "%c = func.call @g(%l) : (!torch.list<vtensor<[2,8,32],f32>>) -> !torch.vtensor<[2,8,32],f32>"


def test_erase_of_a_typed_list_stays_valid():
    """No cast makes a list's element types precise again: a list only `prim.ListUnpack`
    takes is erased with it, one a call needs as typed keeps its type (the legacy ONNX
    exporter's split_with_sizes erased to an invalid `torch.derefine`)."""
    with create_context():
        module = ir.Module.parse(_TYPED_LIST.replace("{call}", ""))
        erase_tensor_types(module.operation)
        assert module.operation.verify()
        assert "torch.prim.ListUnpack %1 : !torch.list<vtensor> -> !torch.vtensor, !torch.vtensor" in str(module)
        module = ir.Module.parse(_TYPED_LIST.replace("{call}", _CALL))
        erase_tensor_types(module.operation)
        assert module.operation.verify()
        assert "-> !torch.list<vtensor<[2,8,32],f32>>" in str(module)


def test_erase_then_propagate_reaches_a_fixed_point():
    with create_context():
        module, run = ir.Module.parse(_CONTROL_FLOW), FactStore()
        erase_tensor_types(module.operation)
        # Step 1: the carried value assumes its init's type (the argument's).
        assert propagate(module.operation, run)
        assert module.operation.verify()
        assert "^bb0(%arg2: !torch.int, %arg3: !torch.vtensor<[2],f32>)" in str(module)
        # The loop's users see its result through a barrier until the assumption holds.
        assert "torch_refine.loop_assumption" in str(module)
        # Step 2: the back edge (a call result, typed by the callee) agrees: the barrier
        # goes, and the users see the result (a change for the next round to refine).
        assert propagate(module.operation, run)
        assert module.operation.verify()
        assert "torch_refine.loop" not in str(module)
        # Step 3: fixed point.
        assert not propagate(module.operation, run)


_VIEWS = """
func.func @views(%x: !torch.vtensor<[?,16],f32>, %n: !torch.int) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int8 = torch.constant.int 8
  %b = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,16],f32>, !torch.int -> !torch.int
  %s1 = torch.prim.ListConstruct %b, %int2, %int8 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %v1 = torch.aten.view %x, %s1 : !torch.vtensor<[?,16],f32>, !torch.list<int> -> !torch.vtensor
  %b2 = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,16],f32>, !torch.int -> !torch.int
  %s2 = torch.prim.ListConstruct %b2, %int2, %int8 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %v2 = torch.aten.view %x, %s2 : !torch.vtensor<[?,16],f32>, !torch.list<int> -> !torch.vtensor
  %b3 = torch.aten.mul.int %b, %int2 : !torch.int, !torch.int -> !torch.int
  %s3 = torch.prim.ListConstruct %b3, %int1, %int8 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %v3 = torch.aten.view %x, %s3 : !torch.vtensor<[?,16],f32>, !torch.list<int> -> !torch.vtensor
  %s4 = torch.prim.ListConstruct %n, %int2, %int8 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %v4 = torch.aten.view %x, %s4 : !torch.vtensor<[?,16],f32>, !torch.list<int> -> !torch.vtensor
  return %v4 : !torch.vtensor
}
"""


def _views(module):
    block = module.body.operations[0].regions[0].blocks[0]
    return [op for op in block.operations if op.operation.name == "torch.aten.view"]


def test_memo_key_knows_non_constant_sizes_as_polynomials():
    with create_context():
        module = ir.Module.parse(_VIEWS)
        same_batch, same_batch_again, twice_batch, unknown = (memo_key(v, 1, FactStore()) for v in _views(module))
        assert same_batch is not None
        assert same_batch == same_batch_again  # another SSA value, the same number
        assert twice_batch is not None
        assert twice_batch != same_batch
        assert unknown is None  # an int argument is no polynomial over argument dims


def test_memo_key_keeps_only_what_the_function_sees():
    with create_context():
        module = ir.Module.parse(_VIEWS)
        *_, unknown = _views(module)
        importer = LibraryCloner(module.operation, load_library(module.operation, ""))
        dtype_views = importer.parameter_views(DTYPE_FN_PREFIX + "aten.view")
        assert dtype_views == (RANK_DTYPE, UNREAD)  # a view's dtype does not depend on its sizes
        assert importer.parameter_views(SHAPE_FN_PREFIX + "aten.view")[0] == SIZES
        assert memo_key(unknown, 1, FactStore(), views=dtype_views) is not None


def test_views_sharing_a_memo_entry_refine_like_separate_calculations():
    with create_context():
        module = ir.Module.parse(_VIEWS)
        RefinePipeline().run(module.operation)
        assert module.operation.verify()
        results = [str(v.result.type) for v in _views(module)]
        assert results[:3] == ["!torch.vtensor<[?,2,8],f32>"] * 2 + ["!torch.vtensor<[?,1,8],f32>"]


_TANH_AND_SUM = """
func.func @f(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[4,5],f32>,
             %c: !torch.vtensor<[2,3],si64>) -> !torch.vtensor {
  %0 = torch.aten.tanh %a : !torch.vtensor<[2,3],f32> -> !torch.vtensor
  %1 = torch.aten.tanh %b : !torch.vtensor<[4,5],f32> -> !torch.vtensor
  %2 = torch.aten.tanh %c : !torch.vtensor<[2,3],si64> -> !torch.vtensor
  return %2 : !torch.vtensor
}
"""


def test_dtype_keys_see_rank_and_dtype_and_shape_keys_see_sizes():
    with create_context():
        module = ir.Module.parse(_TANH_AND_SUM)
        importer = LibraryCloner(module.operation, load_library(module.operation, ""))
        a, b, c = list(module.body.operations[0].regions[0].blocks[0].operations)[:3]
        run = FactStore()
        dtype_views = importer.parameter_views(DTYPE_FN_PREFIX + "aten.tanh")
        shape_views = importer.parameter_views(SHAPE_FN_PREFIX + "aten.tanh")
        assert memo_key(a, 1, run, views=dtype_views) == memo_key(b, 1, run, views=dtype_views)
        assert memo_key(a, 1, run, views=dtype_views) != memo_key(c, 1, run, views=dtype_views)
        assert memo_key(a, 1, run, views=shape_views) == memo_key(c, 1, run, views=shape_views)
        assert memo_key(a, 1, run, views=shape_views) != memo_key(b, 1, run, views=shape_views)
        RefinePipeline().run(module.operation)
        block = module.body.operations[0].regions[0].blocks[0]
        refined = [str(op.result.type) for op in list(block.operations)[:3]]
        # tanh of an int64 tensor is float32 (the default dtype), as in PyTorch
        assert refined == ["!torch.vtensor<[2,3],f32>", "!torch.vtensor<[4,5],f32>",
                           "!torch.vtensor<[2,3],f32>"]


_TWO_RESULTS = """
func.func @f(%x: !torch.vtensor<[?,?],f32>, %c: !torch.bool) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %d0 = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,?],f32>, !torch.int -> !torch.int
  %d1 = torch.aten.size.int %x, %int1 : !torch.vtensor<[?,?],f32>, !torch.int -> !torch.int
  %r:2 = torch.prim.If %c -> (!torch.int, !torch.int) {
    torch.prim.If.yield %d0, %d1 : !torch.int, !torch.int
  } else {
    torch.prim.If.yield %d0, %d1 : !torch.int, !torch.int
  }
  %a = torch.aten.select.int %x, %int0, %r#0 : !torch.vtensor<[?,?],f32>, !torch.int, !torch.int -> !torch.vtensor
  %b = torch.aten.select.int %x, %int0, %r#1 : !torch.vtensor<[?,?],f32>, !torch.int, !torch.int -> !torch.vtensor
  return %b : !torch.vtensor
}
"""


def test_memo_key_tells_results_of_one_producer_apart():
    with create_context():
        module = ir.Module.parse(_TWO_RESULTS)
        driver = Simplifier(SHAPE, Options())
        selects = [op for op in module.body.operations[0].regions[0].blocks[0].operations
                   if op.operation.name == "torch.aten.select.int"]
        first, second = (memo_key(op, 1, driver.store, driver._operand_fact) for op in selects)
        assert first is not None
        assert second is not None
        assert first != second  # %r#0 is the first dim, %r#1 the second
