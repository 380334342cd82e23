// RUN: torch-refine-opt --split-input-file --torch-refine-pipeline %s | filecheck %s

// Values of small int tensors (calculations/contents.py): sizes an ONNX import computes.
// A Reshape's sizes are `item` of `select.int` of a literal: [2,16,32] to [-1,16,4,8].
// The reads fold to constants and the tensors they read are erased.
// CHECK-LABEL: func.func @reshape_to_a_literal_shape(
// CHECK-NOT:     torch.aten.item
// CHECK-NOT:     torch.aten.select.int
// CHECK:         %[[SIZES:.*]] = torch.prim.ListConstruct %int-1, %int16, %int4, %int8
// CHECK:         torch.aten.reshape %arg0, %[[SIZES]] {{.*}} -> !torch.vtensor<[2,16,4,8],f32>
// CHECK-NOT:     torch.runtime.assert
// CHECK:         torch.aten.mean.dim {{.*}} -> !torch.vtensor<[2,16,8],f32>
func.func @reshape_to_a_literal_shape(%arg0: !torch.vtensor<[2,16,32],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %false = torch.constant.bool false
  %none = torch.constant.none
  %shape = torch.vtensor.literal(dense<[-1, 16, 4, 8]> : tensor<4xsi64>) : !torch.vtensor<[4],si64>
  %s0 = torch.aten.select.int %shape, %int0, %int0 : !torch.vtensor<[4],si64>, !torch.int, !torch.int -> !torch.vtensor
  %d0 = torch.aten.item %s0 : !torch.vtensor -> !torch.int
  %s1 = torch.aten.select.int %shape, %int0, %int1 : !torch.vtensor<[4],si64>, !torch.int, !torch.int -> !torch.vtensor
  %d1 = torch.aten.item %s1 : !torch.vtensor -> !torch.int
  %s2 = torch.aten.select.int %shape, %int0, %int2 : !torch.vtensor<[4],si64>, !torch.int, !torch.int -> !torch.vtensor
  %d2 = torch.aten.item %s2 : !torch.vtensor -> !torch.int
  %s3 = torch.aten.select.int %shape, %int0, %int3 : !torch.vtensor<[4],si64>, !torch.int, !torch.int -> !torch.vtensor
  %d3 = torch.aten.item %s3 : !torch.vtensor -> !torch.int
  %sizes = torch.prim.ListConstruct %d0, %d1, %d2, %d3 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.reshape %arg0, %sizes : !torch.vtensor<[2,16,32],f32>, !torch.list<int> -> !torch.vtensor
  %axes = torch.vtensor.literal(dense<2> : tensor<1xsi64>) : !torch.vtensor<[1],si64>
  %a = torch.aten.select.int %axes, %int0, %int0 : !torch.vtensor<[1],si64>, !torch.int, !torch.int -> !torch.vtensor
  %axis = torch.aten.item %a : !torch.vtensor -> !torch.int
  %dims = torch.prim.ListConstruct %axis : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.mean.dim %0, %dims, %false, %none : !torch.vtensor, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor
  return %1 : !torch.vtensor
}

// -----

// The legacy exporter's `x.size(0)`: `_shape_as_tensor`, `index_select`, `squeeze`,
// `unsqueeze`, `cat` with literals, then `item` of each element; ONNX Reshape's 0 ("copy
// the dim") is a `where` between the size and the element, the same either way here. The
// batch stays the input's symbol, so the -1 is inferred: [?,16,4,8] (where the batch is
// not 0, which the entry asserts: PyTorch cannot infer a -1 of 0 elements). The backend
// gets the batch as `size.int` of the input (the one the guard reads); the shape tensor's
// ops are erased.
// CHECK-LABEL: func.func @reshape_to_a_shape_read_off_the_input(
// CHECK:         %[[BATCH:.*]] = torch.aten.size.int %arg0
// CHECK:         torch.runtime.assert %{{.*}}, "aten.reshape: division by zero in the shape calculation (requires %arg0[0] != 0)"
// CHECK-NOT:     torch.aten._shape_as_tensor
// CHECK:         %[[SIZES:.*]] = torch.prim.ListConstruct %[[BATCH]], %int16, %int-1, %int8
// CHECK:         torch.aten.reshape %arg0, %[[SIZES]] {{.*}} -> !torch.vtensor<[?,16,4,8],f32>
// CHECK-NOT:     torch.runtime.assert
func.func @reshape_to_a_shape_read_off_the_input(%arg0: !torch.vtensor<[?,16,32],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %shape = torch.aten._shape_as_tensor %arg0 : !torch.vtensor<[?,16,32],f32> -> !torch.vtensor
  %zero = torch.vtensor.literal(dense<0> : tensor<1xsi64>) : !torch.vtensor<[1],si64>
  %picked = torch.aten.index_select %shape, %int0, %zero : !torch.vtensor, !torch.int, !torch.vtensor<[1],si64> -> !torch.vtensor
  %scalar = torch.aten.squeeze.dim %picked, %int0 : !torch.vtensor, !torch.int -> !torch.vtensor
  %batch = torch.aten.unsqueeze %scalar, %int0 : !torch.vtensor, !torch.int -> !torch.vtensor
  %rest = torch.vtensor.literal(dense<[16, -1, 8]> : tensor<3xsi64>) : !torch.vtensor<[3],si64>
  %parts = torch.prim.ListConstruct %batch, %rest : (!torch.vtensor, !torch.vtensor<[3],si64>) -> !torch.list<vtensor>
  %target = torch.aten.cat %parts, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor
  %e0 = torch.aten.select.int %target, %int0, %int0 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %v0 = torch.aten.item %e0 : !torch.vtensor -> !torch.int
  %is0 = torch.aten.eq.int %v0, %int0 : !torch.int, !torch.int -> !torch.bool
  %c0 = torch.aten.Int.bool %is0 : !torch.bool -> !torch.int
  %dim0 = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,16,32],f32>, !torch.int -> !torch.int
  %t0 = torch.prim.NumToTensor.Scalar %c0 : !torch.int -> !torch.vtensor
  %t1 = torch.prim.NumToTensor.Scalar %dim0 : !torch.int -> !torch.vtensor
  %t2 = torch.prim.NumToTensor.Scalar %v0 : !torch.int -> !torch.vtensor
  %cond = torch.aten.ne.Scalar %t0, %int0 : !torch.vtensor, !torch.int -> !torch.vtensor
  %w0 = torch.aten.where.self %cond, %t1, %t2 : !torch.vtensor, !torch.vtensor, !torch.vtensor -> !torch.vtensor
  %d0 = torch.aten.item %w0 : !torch.vtensor -> !torch.int
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %e1 = torch.aten.select.int %target, %int0, %int1 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %d1 = torch.aten.item %e1 : !torch.vtensor -> !torch.int
  %e2 = torch.aten.select.int %target, %int0, %int2 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %d2 = torch.aten.item %e2 : !torch.vtensor -> !torch.int
  %e3 = torch.aten.select.int %target, %int0, %int3 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %d3 = torch.aten.item %e3 : !torch.vtensor -> !torch.int
  %sizes = torch.prim.ListConstruct %d0, %d1, %d2, %d3 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.reshape %arg0, %sizes : !torch.vtensor<[?,16,32],f32>, !torch.list<int> -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Arithmetic on the shape tensor: `shape[1] * 2` computed in a tensor, read back as the
// size of `zeros`.
// CHECK-LABEL: func.func @arithmetic_on_a_shape_tensor(
// CHECK:         torch.aten.zeros {{.*}} -> !torch.vtensor<[32],f32>
func.func @arithmetic_on_a_shape_tensor(%arg0: !torch.vtensor<[?,16],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %shape = torch.aten._shape_as_tensor %arg0 : !torch.vtensor<[?,16],f32> -> !torch.vtensor
  %width = torch.aten.select.int %shape, %int0, %int1 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %double = torch.aten.mul.Scalar %width, %int2 : !torch.vtensor, !torch.int -> !torch.vtensor
  %n = torch.aten.item %double : !torch.vtensor -> !torch.int
  %sizes = torch.prim.ListConstruct %n : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.zeros %sizes, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// `aten.dim` and `aten.numel` of a value whose type is refined during the run (not an
// argument): `flatten(neg(x), 0, dim(neg(x)) - 1)` is `[32]`, a view to its numel too.
// CHECK-LABEL: func.func @rank_and_numel_of_a_refined_value(
// CHECK:         torch.aten.flatten.using_ints {{.*}} -> !torch.vtensor<[32],f32>
// CHECK:         torch.aten.view {{.*}} -> !torch.vtensor<[32],f32>
func.func @rank_and_numel_of_a_refined_value(%arg0: !torch.vtensor<[2,16],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %0 = torch.aten.neg %arg0 : !torch.vtensor<[2,16],f32> -> !torch.vtensor
  %rank = torch.aten.dim %0 : !torch.vtensor -> !torch.int
  %last = torch.aten.sub.int %rank, %int1 : !torch.int, !torch.int -> !torch.int
  %1 = torch.aten.flatten.using_ints %0, %int0, %last : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %numel = torch.aten.numel %0 : !torch.vtensor -> !torch.int
  %sizes = torch.prim.ListConstruct %numel : (!torch.int) -> !torch.list<int>
  %2 = torch.aten.view %1, %sizes : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  return %2 : !torch.vtensor
}

// -----

// The legacy exporter's LSTM initial state, types erased: ONNX Gather's negative-index
// wrap (`where(i < 0, i + size(shape), i)`) reads the size of the shape tensor, whose type
// is erased but whose contents are known; the state's sizes `[1, batch, 32]` are read
// before `full` is calculated (its storage check cannot be evaluated on an unbounded
// batch, so it is calculated in IR, where the reads are constants): `[1,?,32]`, and no
// check of the constant sizes is left.
// CHECK-LABEL: func.func @sizes_read_before_the_calculation(
// CHECK-NOT:     torch.runtime.assert
// CHECK:         torch.aten.full {{.*}} -> !torch.vtensor<[1,?,32],f32>
func.func @sizes_read_before_the_calculation(%arg0: !torch.vtensor<[?,8,16],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int6 = torch.constant.int 6
  %none = torch.constant.none
  %float0 = torch.constant.float 0.000000e+00
  %shape = torch.aten._shape_as_tensor %arg0 : !torch.vtensor<[?,8,16],f32> -> !torch.vtensor
  %zero = torch.vtensor.literal(dense<0> : tensor<si64>) : !torch.vtensor<[],si64>
  %negative = torch.aten.lt.Scalar %zero, %int0 : !torch.vtensor<[],si64>, !torch.int -> !torch.vtensor
  %rank = torch.aten.size.int %shape, %int0 : !torch.vtensor, !torch.int -> !torch.int
  %wrapped = torch.aten.add.Scalar %zero, %rank, %int1 : !torch.vtensor<[],si64>, !torch.int, !torch.int -> !torch.vtensor
  %index = torch.aten.where.self %negative, %wrapped, %zero : !torch.vtensor, !torch.vtensor, !torch.vtensor<[],si64> -> !torch.vtensor
  %indices = torch.aten.unsqueeze %index, %int0 : !torch.vtensor, !torch.int -> !torch.vtensor
  %picked = torch.aten.index_select %shape, %int0, %indices : !torch.vtensor, !torch.int, !torch.vtensor -> !torch.vtensor
  %one = torch.vtensor.literal(dense<1> : tensor<1xsi64>) : !torch.vtensor<[1],si64>
  %width = torch.vtensor.literal(dense<32> : tensor<1xsi64>) : !torch.vtensor<[1],si64>
  %parts = torch.prim.ListConstruct %one, %picked, %width : (!torch.vtensor<[1],si64>, !torch.vtensor, !torch.vtensor<[1],si64>) -> !torch.list<vtensor>
  %state = torch.aten.cat %parts, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor
  %e0 = torch.aten.select.int %state, %int0, %int0 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %d0 = torch.aten.item %e0 : !torch.vtensor -> !torch.int
  %e1 = torch.aten.select.int %state, %int0, %int1 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %d1 = torch.aten.item %e1 : !torch.vtensor -> !torch.int
  %e2 = torch.aten.select.int %state, %int0, %int2 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %d2 = torch.aten.item %e2 : !torch.vtensor -> !torch.int
  %sizes = torch.prim.ListConstruct %d0, %d1, %d2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.full %sizes, %float0, %int6, %none, %none, %none : !torch.list<int>, !torch.float, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// torch-mlir's conversion of ONNX Reshape writes `where.self`'s condition as
// `NumToTensor.Scalar(Int.bool(b))` typed `[],i1`. With that type erased, PyTorch's rule
// (an int64 tensor) would stop refinement at where's condition check; the only meaning
// under which the program runs is the bool, so the condition gets its i1 back.
// CHECK-LABEL: func.func @erased_bool_condition(
// CHECK:         torch.prim.NumToTensor.Scalar {{.*}} -> !torch.vtensor<[],i1>
// CHECK:         torch.aten.where.self {{.*}} -> !torch.vtensor<[],si64>
// CHECK:         torch.prim.NumToTensor.Scalar {{.*}} -> !torch.vtensor<[],si64>
func.func @erased_bool_condition(%arg0: !torch.vtensor<[?,16],f32>, %arg1: !torch.int) -> (!torch.vtensor, !torch.vtensor) {
  %int0 = torch.constant.int 0
  %is0 = torch.aten.eq.int %arg1, %int0 : !torch.int, !torch.int -> !torch.bool
  %c0 = torch.aten.Int.bool %is0 : !torch.bool -> !torch.int
  %size = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,16],f32>, !torch.int -> !torch.int
  %condition = torch.prim.NumToTensor.Scalar %c0 : !torch.int -> !torch.vtensor
  %t1 = torch.prim.NumToTensor.Scalar %size : !torch.int -> !torch.vtensor
  %t2 = torch.prim.NumToTensor.Scalar %arg1 : !torch.int -> !torch.vtensor
  %picked = torch.aten.where.self %condition, %t1, %t2 : !torch.vtensor, !torch.vtensor, !torch.vtensor -> !torch.vtensor
  // Not a condition only: PyTorch's int64 stands.
  %counted = torch.prim.NumToTensor.Scalar %c0 : !torch.int -> !torch.vtensor
  return %picked, %counted : !torch.vtensor, !torch.vtensor
}

// -----

// ONNX GatherElements is `aten.gather`: element i of the result is the source's at index[i].
// Sizes gathered from the shape in reverse: `zeros([shape[2], shape[0]])` is `[32,?]`.
// CHECK-LABEL: func.func @gathered_sizes(
// CHECK:         torch.aten.zeros {{.*}} -> !torch.vtensor<[32,?],f32>
func.func @gathered_sizes(%arg0: !torch.vtensor<[?,16,32],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %shape = torch.aten._shape_as_tensor %arg0 : !torch.vtensor<[?,16,32],f32> -> !torch.vtensor
  %idx = torch.vtensor.literal(dense<[2, 1, 0]> : tensor<3xsi64>) : !torch.vtensor<[3],si64>
  %g = torch.aten.gather %shape, %int0, %idx, %false : !torch.vtensor, !torch.int, !torch.vtensor<[3],si64>, !torch.bool -> !torch.vtensor
  %e0 = torch.aten.select.int %g, %int0, %int0 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %d0 = torch.aten.item %e0 : !torch.vtensor -> !torch.int
  %int2 = torch.constant.int 2
  %e2 = torch.aten.select.int %g, %int0, %int2 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %d2 = torch.aten.item %e2 : !torch.vtensor -> !torch.int
  %int6 = torch.constant.int 6
  %none = torch.constant.none
  %sizes = torch.prim.ListConstruct %d0, %d2 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.zeros %sizes, %int6, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// ONNX Split with a sizes tensor: `split_with_sizes` of `prim.tolist` of a literal. The
// list is the literal's elements, so the pieces are `[32,32]` and `[64,32]`.
// CHECK-LABEL: func.func @split_by_a_sizes_tensor(
// CHECK-NOT:     torch.prim.tolist
// CHECK:         torch.prim.ListUnpack {{.*}} -> !torch.vtensor<[32,32],f32>, !torch.vtensor<[64,32],f32>
func.func @split_by_a_sizes_tensor(%arg0: !torch.vtensor<[96,32],f32>) -> (!torch.vtensor, !torch.vtensor) {
  %int0 = torch.constant.int 0
  %sizes = torch.vtensor.literal(dense<[32, 64]> : tensor<2xsi64>) : !torch.vtensor<[2],si64>
  %list = torch.prim.tolist(%sizes) : !torch.vtensor<[2],si64> -> !torch.list<int>
  %parts = torch.aten.split_with_sizes %arg0, %list, %int0 : !torch.vtensor<[96,32],f32>, !torch.list<int>, !torch.int -> !torch.list<vtensor>
  %0:2 = torch.prim.ListUnpack %parts : !torch.list<vtensor> -> !torch.vtensor, !torch.vtensor
  return %0#0, %0#1 : !torch.vtensor, !torch.vtensor
}

// -----

// The dynamo exporter's Slice as torch-mlir converts it: the step is read out of `ones`
// without a dtype typed `[1],si64` (the type says int64, as the conversion means it) at an
// index `NumToTensor.Scalar` typed `[1]`. The step is 1: the slice of `[0, 1)` is `[1,?,32]`.
// CHECK-LABEL: func.func @slice_step_read_out_of_ones(
// CHECK:         torch.aten.slice.Tensor {{.*}} -> !torch.vtensor<[1,?,32],f32>
func.func @slice_step_read_out_of_ones(%arg0: !torch.vtensor<[2,?,32],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %one = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %steps = torch.aten.ones %one, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[1],si64>
  %at = torch.prim.NumToTensor.Scalar %int0 : !torch.int -> !torch.vtensor<[1],si64>
  %picked = torch.aten.index_select %steps, %int0, %at : !torch.vtensor<[1],si64>, !torch.int, !torch.vtensor<[1],si64> -> !torch.vtensor
  %step = torch.aten.item %picked : !torch.vtensor -> !torch.int
  %0 = torch.aten.slice.Tensor %arg0, %int0, %int0, %int1, %step : !torch.vtensor<[2,?,32],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// The dynamo exporter's LSTM output buffer: `zeros([seq, batch, 16])`, the sizes read
// off the input, the sequence by `size.int` of its static dim (no folder sees it outside
// the calculation: its polynomial is the constant), the batch from its shape tensor.
// PyTorch: [8,b,16], the input's batch; the add with a slice of the input needs no check.
// CHECK-LABEL: func.func @zeros_sized_by_the_input(
// CHECK:         torch.aten.zeros {{.*}} -> !torch.vtensor<[8,?,16],f32>
// CHECK-NOT:     torch.runtime.assert
// CHECK:         torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[8,?,16],f32>
func.func @zeros_sized_by_the_input(%arg0: !torch.vtensor<[8,?,32],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int6 = torch.constant.int 6
  %int16 = torch.constant.int 16
  %none = torch.constant.none
  %seq = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[8,?,32],f32>, !torch.int -> !torch.int
  %shape = torch.aten._shape_as_tensor %arg0 : !torch.vtensor<[8,?,32],f32> -> !torch.vtensor
  %s1 = torch.aten.select.int %shape, %int0, %int1 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %batch = torch.aten.item %s1 : !torch.vtensor -> !torch.int
  %sizes = torch.prim.ListConstruct %seq, %batch, %int16 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.zeros %sizes, %int6, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor
  %1 = torch.aten.slice.Tensor %arg0, %int2, %int0, %int16, %int1 : !torch.vtensor<[8,?,32],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %2 = torch.aten.add.Tensor %0, %1, %int1 : !torch.vtensor, !torch.vtensor, !torch.int -> !torch.vtensor
  return %2 : !torch.vtensor
}

// -----

// A static-info cast the ONNX conversion wrote (an LSTM's initial state, narrowed to
// the hidden size) is the same tensor as its operand: refined to [2,?,16], the operand's
// type, where it stated [?,?,16]; a cast to its operand's own type, it then goes, and the
// select reads the slice. The cast refinement adds to keep the signature's type at the
// return stays as it is.
// CHECK-LABEL: func.func @cast_narrowed_by_its_operand(
// CHECK:         %[[STATE:.*]] = torch.aten.slice.Tensor {{.*}} -> !torch.vtensor<[2,?,16],f32>
// CHECK-NOT:     torch.tensor_static_info_cast %[[STATE]]
// CHECK:         torch.aten.select.int %[[STATE]], {{.*}} -> !torch.vtensor<[?,16],f32>
// CHECK:         torch.tensor_static_info_cast %{{.*}} : !torch.vtensor<[?,16],f32> to !torch.vtensor
// CHECK-NEXT:    return
func.func @cast_narrowed_by_its_operand(%arg0: !torch.vtensor<[2,?,32],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int16 = torch.constant.int 16
  %0 = torch.aten.slice.Tensor %arg0, %int2, %int0, %int16, %int1 : !torch.vtensor<[2,?,32],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %1 = torch.tensor_static_info_cast %0 : !torch.vtensor to !torch.vtensor<[?,?,16],f32>
  %2 = torch.aten.select.int %1, %int0, %int1 : !torch.vtensor<[?,?,16],f32>, !torch.int, !torch.int -> !torch.vtensor
  return %2 : !torch.vtensor
}

// -----

// ONNX Reshape's "0 copies the input's dim": each size is `where(s == 0, dim, s)`. An
// undecided comparison is the select of 1 and 0 on it, and a `where` on it the select of
// its sides (calculations/facts.py). The first reshape's check `b*s == select` is asserted
// once at the entry and, an equality, replaces the select by `b*s`; the second one's
// `where(b == 0, rows, b)` is then `b` wherever it decides (rows is `b*s`, 0 where b is), so
// its sizes are the input's and its check is decided: no raise, one assert, [?,?,20].
// CHECK-LABEL: func.func @reshape_copying_dims(
// CHECK-COUNT-1: torch.runtime.assert
// CHECK-NOT:     torch.runtime.assert
// CHECK-NOT:     torch.prim.RaiseException
// CHECK:         torch.aten.reshape {{.*}} -> !torch.vtensor<[?,20],f32>
// CHECK:         %[[SIZES:.*]] = torch.prim.ListConstruct %0, %1, %int20
// CHECK:         torch.aten.reshape %{{.*}}, %[[SIZES]] {{.*}} -> !torch.vtensor<[?,?,20],f32>
func.func @reshape_copying_dims(%x: !torch.vtensor<[?,?,20],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int20 = torch.constant.int 20
  %b = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,?,20],f32>, !torch.int -> !torch.int
  %s = torch.aten.size.int %x, %int1 : !torch.vtensor<[?,?,20],f32>, !torch.int -> !torch.int
  %rows = torch.aten.mul.int %b, %s : !torch.int, !torch.int -> !torch.int
  %copied = torch.prim.NumToTensor.Scalar %b : !torch.int -> !torch.vtensor<[],si64>
  %given = torch.prim.NumToTensor.Scalar %rows : !torch.int -> !torch.vtensor<[],si64>
  %rows_cond = torch.aten.eq.Scalar %given, %int0 : !torch.vtensor<[],si64>, !torch.int -> !torch.vtensor<[],i1>
  %rows_t = torch.aten.where.self %rows_cond, %copied, %given : !torch.vtensor<[],i1>, !torch.vtensor<[],si64>, !torch.vtensor<[],si64> -> !torch.vtensor<[],si64>
  %rows_size = torch.aten.item %rows_t : !torch.vtensor<[],si64> -> !torch.int
  %flat_sizes = torch.prim.ListConstruct %rows_size, %int20 : (!torch.int, !torch.int) -> !torch.list<int>
  %flat = torch.aten.reshape %x, %flat_sizes : !torch.vtensor<[?,?,20],f32>, !torch.list<int> -> !torch.vtensor
  %flat_rows = torch.aten.size.int %flat, %int0 : !torch.vtensor, !torch.int -> !torch.int
  %copied2 = torch.prim.NumToTensor.Scalar %flat_rows : !torch.int -> !torch.vtensor<[],si64>
  %given2 = torch.prim.NumToTensor.Scalar %b : !torch.int -> !torch.vtensor<[],si64>
  %b_cond = torch.aten.eq.Scalar %given2, %int0 : !torch.vtensor<[],si64>, !torch.int -> !torch.vtensor<[],i1>
  %b_t = torch.aten.where.self %b_cond, %copied2, %given2 : !torch.vtensor<[],i1>, !torch.vtensor<[],si64>, !torch.vtensor<[],si64> -> !torch.vtensor<[],si64>
  %b_size = torch.aten.item %b_t : !torch.vtensor<[],si64> -> !torch.int
  %sizes = torch.prim.ListConstruct %b_size, %s, %int20 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %y = torch.aten.reshape %flat, %sizes : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  return %y : !torch.vtensor
}

// -----

// The same as torch-mlir's ONNX conversion writes it: the condition a bool of an int
// comparison (`aten.Int.bool`), read as a tensor.
// CHECK-LABEL: func.func @reshape_copying_dims_by_int_conditions(
// CHECK-COUNT-1: torch.runtime.assert
// CHECK-NOT:     torch.runtime.assert
// CHECK-NOT:     torch.prim.RaiseException
// CHECK:         torch.aten.reshape {{.*}} -> !torch.vtensor<[?,?,20],f32>
func.func @reshape_copying_dims_by_int_conditions(%x: !torch.vtensor<[?,?,20],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int20 = torch.constant.int 20
  %b = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,?,20],f32>, !torch.int -> !torch.int
  %s = torch.aten.size.int %x, %int1 : !torch.vtensor<[?,?,20],f32>, !torch.int -> !torch.int
  %rows = torch.aten.mul.int %b, %s : !torch.int, !torch.int -> !torch.int
  %rows_zero = torch.aten.eq.int %rows, %int0 : !torch.int, !torch.int -> !torch.bool
  %rows_flag = torch.aten.Int.bool %rows_zero : !torch.bool -> !torch.int
  %rows_cond = torch.prim.NumToTensor.Scalar %rows_flag : !torch.int -> !torch.vtensor<[],i1>
  %copied = torch.prim.NumToTensor.Scalar %b : !torch.int -> !torch.vtensor<[],si64>
  %given = torch.prim.NumToTensor.Scalar %rows : !torch.int -> !torch.vtensor<[],si64>
  %rows_t = torch.aten.where.self %rows_cond, %copied, %given : !torch.vtensor<[],i1>, !torch.vtensor<[],si64>, !torch.vtensor<[],si64> -> !torch.vtensor<[],si64>
  %rows_size = torch.aten.item %rows_t : !torch.vtensor<[],si64> -> !torch.int
  %flat_sizes = torch.prim.ListConstruct %rows_size, %int20 : (!torch.int, !torch.int) -> !torch.list<int>
  %flat = torch.aten.reshape %x, %flat_sizes : !torch.vtensor<[?,?,20],f32>, !torch.list<int> -> !torch.vtensor
  %b_zero = torch.aten.eq.int %b, %int0 : !torch.int, !torch.int -> !torch.bool
  %b_flag = torch.aten.Int.bool %b_zero : !torch.bool -> !torch.int
  %b_cond = torch.prim.NumToTensor.Scalar %b_flag : !torch.int -> !torch.vtensor<[],i1>
  %flat_rows = torch.aten.size.int %flat, %int0 : !torch.vtensor, !torch.int -> !torch.int
  %copied2 = torch.prim.NumToTensor.Scalar %flat_rows : !torch.int -> !torch.vtensor<[],si64>
  %given2 = torch.prim.NumToTensor.Scalar %b : !torch.int -> !torch.vtensor<[],si64>
  %b_t = torch.aten.where.self %b_cond, %copied2, %given2 : !torch.vtensor<[],i1>, !torch.vtensor<[],si64>, !torch.vtensor<[],si64> -> !torch.vtensor<[],si64>
  %b_size = torch.aten.item %b_t : !torch.vtensor<[],si64> -> !torch.int
  %sizes = torch.prim.ListConstruct %b_size, %s, %int20 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %y = torch.aten.reshape %flat, %sizes : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  return %y : !torch.vtensor
}

// -----

// ONNX Expand by a shape tensor, every intermediate type erased (the legacy exporter's
// way): `full` of ones, `shape == -1` (false: a size is at least 0) picking the shape
// read off %arg1, a conversion's own `ge` assert, and a rotary half `div.Tensor` by 2
// cast to int64 (the cast's dtype operand, known before its result is typed). Either
// batch may be 1: the expand's own checks (`a == b or a == 1`) and the conversion's `ge`
// assert can still fail (an %arg0 batch of 1 against an %arg1 batch of 3), so they stay;
// the add's broadcast checks (`a == b or a == 1 or b == 1`) follow from the expand's and
// go at clean-up; the shape arithmetic folds away; every type is exact.
// CHECK-LABEL: func.func @onnx_expand_by_a_shape_tensor(
// CHECK-NOT:     torch.runtime.assert {{.*}}aten.add.Tensor
// CHECK-COUNT-2: torch.runtime.assert {{.*}}aten.broadcast_to
// CHECK:         torch.runtime.assert {{.*}}onnx.Expand
// CHECK-NOT:     torch.runtime.assert
// CHECK-NOT:     torch.aten.where.self
// CHECK:         torch.aten.broadcast_to {{.*}} -> !torch.vtensor<[?,5,?],f32>
// CHECK:         torch.aten.slice.Tensor {{.*}} -> !torch.vtensor<[?,5,?],f32>
func.func @onnx_expand_by_a_shape_tensor(%x: !torch.vtensor<[?,1,?],f32>, %y: !torch.vtensor<[?,5,?],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int4 = torch.constant.int 4
  %none = torch.constant.none
  %false = torch.constant.bool false
  %sum = torch.aten.add.Tensor %y, %x, %int1 : !torch.vtensor<[?,5,?],f32>, !torch.vtensor<[?,1,?],f32>, !torch.int -> !torch.vtensor
  %shape = torch.aten._shape_as_tensor %y : !torch.vtensor<[?,5,?],f32> -> !torch.vtensor
  %three = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
  %ones = torch.aten.full %three, %int1, %int4, %none, %none, %none : !torch.list<int>, !torch.int, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor
  %minus = torch.vtensor.literal(dense<-1> : tensor<si64>) : !torch.vtensor<[],si64>
  %minus_ones = torch.aten.mul.Tensor %ones, %minus : !torch.vtensor, !torch.vtensor<[],si64> -> !torch.vtensor
  %keep = torch.aten.eq.Tensor %shape, %minus_ones : !torch.vtensor, !torch.vtensor -> !torch.vtensor
  %target = torch.aten.where.self %keep, %ones, %shape : !torch.vtensor, !torch.vtensor, !torch.vtensor -> !torch.vtensor
  %t0 = torch.aten.select.int %target, %int0, %int0 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %d0 = torch.aten.item %t0 : !torch.vtensor -> !torch.int
  %x0 = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,1,?],f32>, !torch.int -> !torch.int
  %fits = torch.aten.ge.int %x0, %d0 : !torch.int, !torch.int -> !torch.bool
  torch.runtime.assert %fits, "onnx.Expand input has a dim that is not statically 1; expected this dim >= dim provided shape."
  %t1 = torch.aten.select.int %target, %int0, %int1 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %d1 = torch.aten.item %t1 : !torch.vtensor -> !torch.int
  %t2 = torch.aten.select.int %target, %int0, %int2 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %d2 = torch.aten.item %t2 : !torch.vtensor -> !torch.int
  %sizes = torch.prim.ListConstruct %d0, %d1, %d2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.broadcast_to %x, %sizes : !torch.vtensor<[?,1,?],f32>, !torch.list<int> -> !torch.vtensor
  %two = torch.vtensor.literal(dense<2> : tensor<si64>) : !torch.vtensor<[],si64>
  %last = torch.aten.select.int %shape, %int0, %int1 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %ten = torch.aten.mul.Tensor %last, %two : !torch.vtensor, !torch.vtensor<[],si64> -> !torch.vtensor
  %half = torch.aten.div.Tensor %ten, %two : !torch.vtensor, !torch.vtensor<[],si64> -> !torch.vtensor
  %half_int = torch.aten.to.dtype %half, %int4, %false, %false, %none : !torch.vtensor, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor
  %end = torch.aten.item %half_int : !torch.vtensor -> !torch.int
  %1 = torch.aten.slice.Tensor %0, %int1, %int0, %end, %int1 : !torch.vtensor, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %2 = torch.aten.add.Tensor %1, %sum, %int1 : !torch.vtensor, !torch.vtensor, !torch.int -> !torch.vtensor
  return %2 : !torch.vtensor
}

// -----

// The legacy ONNX exporter's Pad computes its pad list in tensors: the ONNX pads [0,1,0,1]
// padded with zeros to 8, reshaped to [4,2], reversed along dim 0 by a slice of step -1
// (torch-mlir's meaning of a negative step: Python's slicing), transposed and flattened.
// Each read folds to a constant: the pad is static, and none of constant_pad_nd's checks
// is kept.
// CHECK-LABEL: func.func @legacy_onnx_pad_list(
// CHECK-NOT:     torch.runtime.assert
// CHECK-NOT:     torch.aten.item
// CHECK:         torch.aten.constant_pad_nd %arg0, {{.*}} -> !torch.vtensor<[2,3,5,7],f32>
func.func @legacy_onnx_pad_list(%arg0: !torch.vtensor<[2,3,4,6],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int4 = torch.constant.int 4
  %int5 = torch.constant.int 5
  %int6 = torch.constant.int 6
  %int7 = torch.constant.int 7
  %int8 = torch.constant.int 8
  %int-1 = torch.constant.int -1
  %none = torch.constant.none
  %float0 = torch.constant.float 0.000000e+00
  %begin = torch.constant.int -9223372036854775807
  %pads = torch.vtensor.literal(dense<[0, 1, 0, 1]> : tensor<4xsi64>) : !torch.vtensor<[4],si64>
  %four = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %zeros = torch.aten.full %four, %int0, %int4, %none, %none, %none : !torch.list<int>, !torch.int, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[4],si64>
  %parts = torch.prim.ListConstruct %pads, %zeros : (!torch.vtensor<[4],si64>, !torch.vtensor<[4],si64>) -> !torch.list<vtensor>
  %eight = torch.aten.cat %parts, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[8],si64>
  %pairs_shape = torch.prim.ListConstruct %int4, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %pairs = torch.aten.reshape %eight, %pairs_shape : !torch.vtensor<[8],si64>, !torch.list<int> -> !torch.vtensor<[4,2],si64>
  %reversed = torch.aten.slice.Tensor %pairs, %int0, %int-1, %begin, %int-1 : !torch.vtensor<[4,2],si64>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[4,2],si64>
  %columns = torch.aten.transpose.int %reversed, %int0, %int1 : !torch.vtensor<[4,2],si64>, !torch.int, !torch.int -> !torch.vtensor<[2,4],si64>
  %flat_shape = torch.prim.ListConstruct %int8 : (!torch.int) -> !torch.list<int>
  %flat = torch.aten.reshape %columns, %flat_shape : !torch.vtensor<[2,4],si64>, !torch.list<int> -> !torch.vtensor<[8],si64>
  %e0 = torch.aten.select.int %flat, %int0, %int0 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %p0 = torch.aten.item %e0 : !torch.vtensor<[],si64> -> !torch.int
  %e1 = torch.aten.select.int %flat, %int0, %int1 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %p1 = torch.aten.item %e1 : !torch.vtensor<[],si64> -> !torch.int
  %e2 = torch.aten.select.int %flat, %int0, %int2 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %p2 = torch.aten.item %e2 : !torch.vtensor<[],si64> -> !torch.int
  %e3 = torch.aten.select.int %flat, %int0, %int3 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %p3 = torch.aten.item %e3 : !torch.vtensor<[],si64> -> !torch.int
  %e4 = torch.aten.select.int %flat, %int0, %int4 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %p4 = torch.aten.item %e4 : !torch.vtensor<[],si64> -> !torch.int
  %e5 = torch.aten.select.int %flat, %int0, %int5 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %p5 = torch.aten.item %e5 : !torch.vtensor<[],si64> -> !torch.int
  %e6 = torch.aten.select.int %flat, %int0, %int6 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %p6 = torch.aten.item %e6 : !torch.vtensor<[],si64> -> !torch.int
  %e7 = torch.aten.select.int %flat, %int0, %int7 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %p7 = torch.aten.item %e7 : !torch.vtensor<[],si64> -> !torch.int
  %list = torch.prim.ListConstruct %p3, %p7, %p2, %p6, %p1, %p5, %p0, %p4 : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.constant_pad_nd %arg0, %list, %float0 : !torch.vtensor<[2,3,4,6],f32>, !torch.list<int>, !torch.float -> !torch.vtensor
  return %0 : !torch.vtensor
}
