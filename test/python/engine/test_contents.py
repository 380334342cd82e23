"""calculations/contents.py on its own: small int tensors known element by element, as ONNX
exports compute sizes with them (`Shape`, literals, `Gather`, `Concat`, arithmetic)."""

from __future__ import annotations

from torch_refine.calculations import contents, facts
from torch_refine.calculations.dim_facts import contents_reader
from torch_refine.calculations.store import FactStore
from torch_refine.symbolic.polynomial import Polynomial

# The quotient forms of one run (`FactStore.quotient_forms`), shared by this module's tests.
FORMS: dict = {}

T = "!torch.vtensor<[?,?,8],f32>"
H, W = Polynomial.symbol(0, 0), Polynomial.symbol(0, 1)
V3 = "!torch.vtensor<[3],si64>"


def _read(program, name: str) -> contents.Contents | None:
    return contents_reader(FactStore(), {}).contents(program.value(name))


def _constants(*values: int) -> tuple:
    return tuple(Polynomial.constant(v) for v in values)


def _program(body: str) -> str:
    return f"""
func.func @main(%arg0: {T}) -> {T} {{
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %false = torch.constant.bool false
  %shape = torch.aten._shape_as_tensor %arg0 : {T} -> {V3} loc("shape")
  %lit = torch.vtensor.literal(dense<[2, 4, 6]> : tensor<3xsi64>) : {V3} loc("literal")
{body}
  return %arg0 : {T}
}}"""


def test_a_literal_and_a_shape_are_known_element_by_element(parse):
    program = parse(_program(""))
    assert _read(program, "literal") == contents.Contents((3,), _constants(2, 4, 6))
    assert _read(program, "shape") == contents.Contents((3,), (H, W, Polynomial.constant(8)))


def test_selecting_slicing_and_concatenating(parse):
    program = parse(_program(f"""
  %0 = torch.aten.select.int %shape, %int0, %int1 : {V3}, !torch.int, !torch.int -> !torch.vtensor<[],si64> loc("w")
  %1 = torch.aten.slice.Tensor %shape, %int0, %int0, %int2, %int1 : {V3}, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[2],si64> loc("hw")
  %2 = torch.prim.ListConstruct %1, %lit : (!torch.vtensor<[2],si64>, {V3}) -> !torch.list<vtensor>
  %3 = torch.aten.cat %2, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[5],si64> loc("joined")
"""))
    assert _read(program, "w") == contents.Contents((), (W,))
    assert _read(program, "hw") == contents.Contents((2,), (H, W))
    assert _read(program, "joined") == contents.Contents((5,), (H, W, *_constants(2, 4, 6)))


def test_elementwise_arithmetic_on_known_tensors(parse):
    program = parse(_program(f"""
  %0 = torch.aten.mul.Tensor %shape, %lit : {V3}, {V3} -> {V3} loc("product")
  %1 = torch.aten.floor_divide.Scalar %shape, %int2 : {V3}, !torch.int -> {V3} loc("halves")
  %2 = torch.aten.eq.Scalar %lit, %int2 : {V3}, !torch.int -> !torch.vtensor<[3],i1> loc("is_two")
"""))
    assert _read(program, "product") == contents.Contents((3,), (Polynomial.constant(2) * H, Polynomial.constant(4) * W,
                                                                Polynomial.constant(48)))
    assert _read(program, "halves").elements[2] == Polynomial.constant(4)
    assert _read(program, "is_two") == contents.Contents((3,), _constants(1, 0, 0))


def test_a_size_divided_by_a_constant_is_the_quotient_express_gives(parse):
    program = parse(_program(f"""
  %0 = torch.aten.floor_divide.Scalar %shape, %int2 : {V3}, !torch.int -> {V3} loc("halves")
"""))
    assert _read(program, "halves").elements[0] == facts.floor_divide(H, 2, forms=FORMS)


def test_a_float_tensor_or_a_large_one_is_not_read(parse):
    many = ", ".join(str(i) for i in range(contents.MAX_ELEMENTS + 1))
    program = parse(_program(f"""
  %0 = torch.vtensor.literal(dense<[1.0, 2.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32> loc("floats")
  %1 = torch.vtensor.literal(dense<[{many}]> : tensor<{contents.MAX_ELEMENTS + 1}xsi64>) : !torch.vtensor<[{contents.MAX_ELEMENTS + 1}],si64> loc("large")
"""))
    assert _read(program, "floats") is None
    assert _read(program, "large") is None
    assert _read(program, "shape") is not None


def test_reversing_slices_transposes_and_permutes_as_python_and_pytorch_do(parse):
    """A negative step slices as Python slices the indices (torch-mlir's meaning: its ONNX
    Slice conversion reverses a dim so); transpose and permute move elements as PyTorch does."""
    import torch

    program = parse(_program(f"""
  %int-1 = torch.constant.int -1
  %int3 = torch.constant.int 3
  %int-9 = torch.constant.int -9223372036854775807
  %0 = torch.aten.slice.Tensor %lit, %int0, %int-1, %int-9, %int-1 : {V3}, !torch.int, !torch.int, !torch.int, !torch.int -> {V3} loc("reversed")
  %1 = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %2 = torch.prim.ListConstruct %lit, %lit : ({V3}, {V3}) -> !torch.list<vtensor>
  %3 = torch.aten.cat %2, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[6],si64>
  %4 = torch.aten.reshape %3, %1 : !torch.vtensor<[6],si64>, !torch.list<int> -> !torch.vtensor<[2,3],si64> loc("grid")
  %5 = torch.aten.transpose.int %4, %int0, %int1 : !torch.vtensor<[2,3],si64>, !torch.int, !torch.int -> !torch.vtensor<[3,2],si64> loc("transposed")
  %6 = torch.prim.ListConstruct %int1, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %7 = torch.aten.permute %4, %6 : !torch.vtensor<[2,3],si64>, !torch.list<int> -> !torch.vtensor<[3,2],si64> loc("permuted")
"""))
    grid = torch.tensor([2, 4, 6, 2, 4, 6]).reshape(2, 3)
    assert _read(program, "reversed") == contents.Contents((3,), _constants(6, 4, 2))
    expected = contents.Contents((3, 2), _constants(*grid.t().flatten().tolist()))
    assert _read(program, "transposed") == expected
    assert _read(program, "permuted") == expected


def test_remainders_slices_by_item_bounds_and_scalar_broadcasts(parse):
    """What a Swin exported by the legacy ONNX exporter computes its window pads with:
    ONNX Mod (`remainder.Tensor`, Python's `%`), a Slice whose bounds are `item`s of
    literals, and `8 - x` of a 0-d literal and a [1] tensor, which is [1] as PyTorch
    broadcasts it."""
    import torch

    program = parse(_program(f"""
  %int3 = torch.constant.int 3
  %four = torch.vtensor.literal(dense<4> : tensor<si64>) : !torch.vtensor<[],si64>
  %0 = torch.aten.remainder.Tensor %lit, %four : {V3}, !torch.vtensor<[],si64> -> {V3} loc("mod")
  %ones = torch.vtensor.literal(dense<[1]> : tensor<1xsi64>) : !torch.vtensor<[1],si64>
  %1 = torch.aten.select.int %ones, %int0, %int0 : !torch.vtensor<[1],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %start = torch.aten.item %1 : !torch.vtensor<[],si64> -> !torch.int
  %2 = torch.aten.slice.Tensor %lit, %int0, %start, %int3, %int1 : {V3}, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[2],si64> loc("tail")
  %eight = torch.vtensor.literal(dense<8> : tensor<si64>) : !torch.vtensor<[],si64>
  %3 = torch.aten.sub.Tensor %eight, %ones, %int1 : !torch.vtensor<[],si64>, !torch.vtensor<[1],si64>, !torch.int -> !torch.vtensor<[1],si64> loc("seven")
  %4 = torch.aten.remainder.Tensor %shape, %four : {V3}, !torch.vtensor<[],si64> -> {V3} loc("dims_mod")
"""))
    assert _read(program, "mod") == contents.Contents((3,), _constants(*(torch.tensor([2, 4, 6]) % 4).tolist()))
    assert _read(program, "tail") == contents.Contents((2,), _constants(4, 6))
    assert _read(program, "seven") == contents.Contents((1,), _constants(7))
    assert _read(program, "dims_mod") == contents.Contents((3,), (facts.remainder(H, 4, forms=FORMS), facts.remainder(W, 4, forms=FORMS),
                                                                  Polynomial.constant(0)))


def test_an_integer_div_tensor_rounds_toward_zero_as_torch_mlir_lowers_it(parse):
    """`div.Tensor` typed si64 is torch-mlir's `arith.divsi` (ONNX's integer Div): a size by a
    positive constant is its floor quotient; constants round toward zero; a quotient typed
    float stays exact-only."""
    program = parse(_program(f"""
  %int5 = torch.constant.int 5
  %int-7 = torch.constant.int -7
  %0 = torch.aten.select.int %shape, %int0, %int1 : {V3}, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %five = torch.prim.NumToTensor.Scalar %int5 : !torch.int -> !torch.vtensor<[],si64>
  %1 = torch.aten.div.Tensor %0, %five : !torch.vtensor<[],si64>, !torch.vtensor<[],si64> -> !torch.vtensor<[],si64> loc("w_by_5")
  %minus7 = torch.prim.NumToTensor.Scalar %int-7 : !torch.int -> !torch.vtensor<[],si64>
  %two = torch.prim.NumToTensor.Scalar %int2 : !torch.int -> !torch.vtensor<[],si64>
  %2 = torch.aten.div.Tensor %minus7, %two : !torch.vtensor<[],si64>, !torch.vtensor<[],si64> -> !torch.vtensor<[],si64> loc("minus_3")
  %3 = torch.aten.div.Tensor %0, %five : !torch.vtensor<[],si64>, !torch.vtensor<[],si64> -> !torch.vtensor<[],f32> loc("float_quotient")
"""))
    assert _read(program, "w_by_5") == contents.Contents((), (facts.floor_divide(W, 5, forms=FORMS),))
    assert _read(program, "minus_3") == contents.Contents((), _constants(-3))
    assert _read(program, "float_quotient") is None
