// RUN: torch-refine-opt %s --split-input-file --torch-refine-pipeline | filecheck %s

// Only the calculation is rewritten, never the wrapped op: torch-mlir's folder of
// aten.any.dims crashes on an erased result type (so does `canonicalize` on this input).
// CHECK-LABEL: func.func @wrapped_op_is_not_folded(
// CHECK: torch.aten.any.dims {{.*}} -> !torch.vtensor<[2,4],i1>
func.func @wrapped_op_is_not_folded(%arg0: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %0 = torch.aten.any.dims %arg0, %dims, %false : !torch.vtensor<[2,3,4],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Guards reach every backend conversion: checks decided on constants fold away (the
// float step 1.0 is non-zero and positive), undecided ones are negated without
// `aten.__not__`, which no torch-mlir backend lowers.
// CHECK-LABEL: func.func @arange_float_step(
// CHECK-NOT:     torch.aten.ne.float_int
// CHECK-NOT:     torch.aten.gt.float_int
// CHECK-NOT:     torch.aten.__not__
// CHECK:         torch.runtime.assert %{{.*}}, "aten.arange.start_step: arange: unsupported range"
// CHECK-NOT:     torch.aten.__not__
// CHECK:         torch.aten.arange.start_step {{.*}} -> !torch.vtensor<[?],f32>
func.func @arange_float_step(%n: !torch.int) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %step = torch.constant.float 1.000000e+00
  %none = torch.constant.none
  %0 = torch.aten.arange.start_step %int0, %n, %step, %none, %none, %none, %none : !torch.int, !torch.int, !torch.float, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A bool Scalar operand of a torch.operator op reaches the shape function as 1.0 and the
// dtype function as the int 1: promotion ranks a bool Scalar below every tensor category,
// so the int answers alike for an si32 tensor. For a bool tensor it would not (bool ^ 1
// is int64, bool ^ True is bool), so the dtype stays unknown there.
// CHECK-LABEL: func.func @bool_scalar(
// CHECK:         torch.operator "aten.bitwise_xor.Scalar"(%arg0, %{{.*}}) : (!torch.vtensor<[3],si32>, !torch.bool) -> !torch.vtensor<[3],si32>
// CHECK:         torch.operator "aten.bitwise_xor.Scalar"(%arg1, %{{.*}}) : (!torch.vtensor<[3],i1>, !torch.bool) -> !torch.vtensor<[3],unk>
func.func @bool_scalar(%ints: !torch.vtensor<[3],si32>, %bools: !torch.vtensor<[3],i1>) -> (!torch.vtensor, !torch.vtensor) {
  %true = torch.constant.bool true
  %0 = torch.operator "aten.bitwise_xor.Scalar"(%ints, %true) : (!torch.vtensor<[3],si32>, !torch.bool) -> !torch.vtensor
  %1 = torch.operator "aten.bitwise_xor.Scalar"(%bools, %true) : (!torch.vtensor<[3],i1>, !torch.bool) -> !torch.vtensor
  return %0, %1 : !torch.vtensor, !torch.vtensor
}

// -----

// A while-like loop peeled one iteration (expand's loop over an unranked operand's dims)
// gets its remaining trip count from a constant defined before it (once, it came after:
// "operand #0 does not dominate this use").
// CHECK-LABEL: func.func @peeled_loop_trip_count(
// CHECK:         torch.aten.broadcast_to {{.*}} -> !torch.vtensor<*,f32>
func.func @peeled_loop_trip_count(%arg0: !torch.vtensor<*,f32>) -> !torch.vtensor {
  %int4 = torch.constant.int 4
  %sizes = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.broadcast_to %arg0, %sizes : !torch.vtensor<*,f32>, !torch.list<int> -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// The pieces of a tensor list that `prim.ListUnpack` unpacks are typed in place: sizes
// from the shape function, dtypes from one dtype for every piece (split.Tensor, chunk and
// unbind cannot count their pieces from dtypes) or one per piece (split_with_sizes).
// CHECK-LABEL: func.func @unpacked_pieces(
// CHECK:         torch.prim.ListUnpack %{{.*}} : !torch.list<vtensor> -> !torch.vtensor<[?,4,8],f32>, !torch.vtensor<[?,4,8],f32>, !torch.vtensor<[?,4,8],f32>
// CHECK:         torch.prim.ListUnpack %{{.*}} : !torch.list<vtensor> -> !torch.vtensor<[?,8],si64>, !torch.vtensor<[?,8],si64>
// CHECK:         torch.prim.ListUnpack %{{.*}} : !torch.list<vtensor> -> !torch.vtensor<[?,4,8],f32>, !torch.vtensor<[?,8,8],f32>
func.func @unpacked_pieces(%x: !torch.vtensor<[?,12,8],f32>, %i: !torch.vtensor<[?,2,8],si64>) -> (!torch.vtensor, !torch.vtensor, !torch.vtensor) {
  %int1 = torch.constant.int 1
  %int4 = torch.constant.int 4
  %int8 = torch.constant.int 8
  %0 = torch.aten.split.Tensor %x, %int4, %int1 : !torch.vtensor<[?,12,8],f32>, !torch.int, !torch.int -> !torch.list<vtensor>
  %1:3 = torch.prim.ListUnpack %0 : !torch.list<vtensor> -> !torch.vtensor, !torch.vtensor, !torch.vtensor
  %2 = torch.aten.unbind.int %i, %int1 : !torch.vtensor<[?,2,8],si64>, !torch.int -> !torch.list<vtensor>
  %3:2 = torch.prim.ListUnpack %2 : !torch.list<vtensor> -> !torch.vtensor, !torch.vtensor
  %sizes = torch.prim.ListConstruct %int4, %int8 : (!torch.int, !torch.int) -> !torch.list<int>
  %4 = torch.aten.split_with_sizes %x, %sizes, %int1 : !torch.vtensor<[?,12,8],f32>, !torch.list<int>, !torch.int -> !torch.list<vtensor>
  %5:2 = torch.prim.ListUnpack %4 : !torch.list<vtensor> -> !torch.vtensor, !torch.vtensor
  return %1#2, %3#1, %5#1 : !torch.vtensor, !torch.vtensor, !torch.vtensor
}

// -----

// The grids of a meshgrid (relative position indices, as BEiT builds them): every piece
// has the lengths of all inputs, the first two swapped for "xy" indexing.
// CHECK-LABEL: func.func @meshgrid_pieces(
// CHECK:         torch.prim.ListUnpack %{{.*}} : !torch.list<vtensor> -> !torch.vtensor<[4,?],si64>, !torch.vtensor<[4,?],si64>
// CHECK:         torch.prim.ListUnpack %{{.*}} : !torch.list<vtensor> -> !torch.vtensor<[?,4],si64>, !torch.vtensor<[?,4],si64>
func.func @meshgrid_pieces(%a: !torch.vtensor<[4],si64>, %b: !torch.vtensor<[?],si64>) -> (!torch.vtensor, !torch.vtensor) {
  %ij = torch.constant.str "ij"
  %xy = torch.constant.str "xy"
  %list = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[4],si64>, !torch.vtensor<[?],si64>) -> !torch.list<vtensor>
  %0 = torch.aten.meshgrid.indexing %list, %ij : !torch.list<vtensor>, !torch.str -> !torch.list<vtensor>
  %1:2 = torch.prim.ListUnpack %0 : !torch.list<vtensor> -> !torch.vtensor, !torch.vtensor
  %2 = torch.aten.meshgrid.indexing %list, %xy : !torch.list<vtensor>, !torch.str -> !torch.list<vtensor>
  %3:2 = torch.prim.ListUnpack %2 : !torch.list<vtensor> -> !torch.vtensor, !torch.vtensor
  return %1#1, %3#0 : !torch.vtensor, !torch.vtensor
}
