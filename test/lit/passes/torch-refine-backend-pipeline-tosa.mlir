// TOSA's shapes are constants: torch-mlir's conversion rejects every `aten.size.int` of a
// dynamic dim. torch-refine-backend-pipeline{backend=tosa} gives the sizes a program reads
// as constants where refinement proves them (backend_pipeline.sizes_for_tosa), so a
// dynamic batch reaches TOSA wherever its rules allow.
// RUN: torch-refine-opt --split-input-file --torch-refine-backend-pipeline='backend=tosa' %s | FileCheck %s

// A view whose size list reads the batch: its other sizes are constants, so the batch is
// the one size tosa.reshape infers.
// CHECK-LABEL: func.func @flatten_by_batch
// CHECK-SAME: (%[[X:.*]]: tensor<?x4x6x6xf32>) -> tensor<?x144xf32>
// CHECK: %[[SHAPE:.*]] = tosa.const_shape {values = dense<[-1, 144]> : tensor<2xindex>}
// CHECK: tosa.reshape %[[X]], %[[SHAPE]] : (tensor<?x4x6x6xf32>, !tosa.shape<2>) -> tensor<?x144xf32>
func.func @flatten_by_batch(%x: !torch.vtensor<[?,4,6,6],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int-1 = torch.constant.int -1
  %batch = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,4,6,6],f32>, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %batch, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %y = torch.aten.view %x, %sizes : !torch.vtensor<[?,4,6,6],f32>, !torch.list<int> -> !torch.vtensor
  return %y : !torch.vtensor
}

// -----

// Heads split and merged by the batch times a constant: each view has one size read
// (TOSA folds the two reshapes into one).
// CHECK-LABEL: func.func @heads
// CHECK-NOT: torch.
// CHECK: tosa.const_shape {values = dense<[-1, 8, 8]> : tensor<3xindex>}
// CHECK: tosa.reshape {{.*}} -> tensor<?x8x8xf32>
func.func @heads(%x: !torch.vtensor<[?,8,32],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int4 = torch.constant.int 4
  %int8 = torch.constant.int 8
  %int-1 = torch.constant.int -1
  %batch = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,8,32],f32>, !torch.int -> !torch.int
  %split = torch.prim.ListConstruct %batch, %int8, %int-1, %int8 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %h = torch.aten.view %x, %split : !torch.vtensor<[?,8,32],f32>, !torch.list<int> -> !torch.vtensor
  %rows = torch.aten.mul.int %batch, %int4 : !torch.int, !torch.int -> !torch.int
  %merge = torch.prim.ListConstruct %rows, %int8, %int8 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %m = torch.aten.view %h, %merge : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  return %m : !torch.vtensor
}

// -----

// A broadcast to sizes refinement proves its input's own (the batch of the tensor it was
// computed from) is that input: TOSA takes no broadcast of a dynamic dim.
// CHECK-LABEL: func.func @broadcast_to_own_batch
// CHECK-NOT: torch.
// CHECK: tosa.exp
// CHECK-NOT: tosa.tile
// CHECK: tosa.add
func.func @broadcast_to_own_batch(%x: !torch.vtensor<[?,8],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int8 = torch.constant.int 8
  %e = torch.aten.exp %x : !torch.vtensor<[?,8],f32> -> !torch.vtensor
  %batch = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,8],f32>, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %batch, %int8 : (!torch.int, !torch.int) -> !torch.list<int>
  %b = torch.aten.broadcast_to %e, %sizes : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  %r = torch.aten.add.Tensor %b, %x, %int1 : !torch.vtensor, !torch.vtensor<[?,8],f32>, !torch.int -> !torch.vtensor
  return %r : !torch.vtensor
}

// -----

// A zero broadcast to the batch for a `where` whose other operands make every dim of the
// result: `where` broadcasts the 0-d zero itself (same dtype: no promotion changes).
// CHECK-LABEL: func.func @masked_by_zero
// CHECK-NOT: torch.
// CHECK: tosa.select {{.*}} -> tensor<?x5xf32>
func.func @masked_by_zero(%x: !torch.vtensor<[?,5],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int5 = torch.constant.int 5
  %zero = torch.vtensor.literal(dense<0.000000e+00> : tensor<f32>) : !torch.vtensor<[],f32>
  %batch = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,5],f32>, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %batch, %int5 : (!torch.int, !torch.int) -> !torch.list<int>
  %zeros = torch.aten.broadcast_to %zero, %sizes : !torch.vtensor<[],f32>, !torch.list<int> -> !torch.vtensor
  %positive = torch.aten.gt.Scalar %x, %int0 : !torch.vtensor<[?,5],f32>, !torch.int -> !torch.vtensor
  %r = torch.aten.where.self %positive, %x, %zeros : !torch.vtensor, !torch.vtensor<[?,5],f32>, !torch.vtensor -> !torch.vtensor
  return %r : !torch.vtensor
}

// -----

// A key padding mask made additive: the other value operand is a 0-d literal, whose
// static sizes make no dim of the result; the mask makes them all.
// CHECK-LABEL: func.func @padding_mask
// CHECK-NOT: torch.
// CHECK: tosa.select {{.*}} -> tensor<?x8xf32>
func.func @padding_mask(%mask: !torch.vtensor<[?,8],i1>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int8 = torch.constant.int 8
  %minus_inf = torch.vtensor.literal(dense<0xFF800000> : tensor<f32>) : !torch.vtensor<[],f32>
  %zero = torch.vtensor.literal(dense<0.000000e+00> : tensor<f32>) : !torch.vtensor<[],f32>
  %batch = torch.aten.size.int %mask, %int0 : !torch.vtensor<[?,8],i1>, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %batch, %int8 : (!torch.int, !torch.int) -> !torch.list<int>
  %zeros = torch.aten.broadcast_to %zero, %sizes : !torch.vtensor<[],f32>, !torch.list<int> -> !torch.vtensor
  %r = torch.aten.where.self %mask, %minus_inf, %zeros : !torch.vtensor<[?,8],i1>, !torch.vtensor<[],f32>, !torch.vtensor -> !torch.vtensor
  return %r : !torch.vtensor
}
