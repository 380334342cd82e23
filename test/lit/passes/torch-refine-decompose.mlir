// RUN: torch-refine-opt %s --split-input-file --torch-refine-decompose | filecheck %s
// RUN: torch-refine-opt %s --split-input-file '--torch-refine-decompose=legal-ops=aten.linear,torch.aten.softmax.int' | filecheck %s --check-prefix=LEGAL
// RUN: torch-refine-opt %s --split-input-file '--torch-refine-decompose=refine=false' | filecheck %s --check-prefix=NOREFINE

// The optional bias is decided at decomposition time; the new ops are refined and the
// operands are read with their own types (no casts left).
// CHECK-LABEL: func.func @linear(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor<[2,3],f32>, %[[W:.*]]: !torch.vtensor<[4,3],f32>, %[[B:.*]]: !torch.vtensor<[4],f32>)
// CHECK-NOT:     torch.prim.If
// CHECK:         %[[T:.*]] = torch.aten.transpose.int %[[W]], {{.*}} : !torch.vtensor<[4,3],f32>, !torch.int, !torch.int -> !torch.vtensor<[3,4],f32>
// CHECK:         %[[M:.*]] = torch.aten.matmul %[[X]], %[[T]] : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3,4],f32> -> !torch.vtensor<[2,4],f32>
// CHECK:         %[[A:.*]] = torch.aten.add.Tensor %[[M]], %[[B]], %{{.*}} : !torch.vtensor<[2,4],f32>, !torch.vtensor<[4],f32>, !torch.int -> !torch.vtensor<[2,4],f32>
// CHECK-NEXT:    return %[[A]] : !torch.vtensor<[2,4],f32>
// LEGAL-LABEL: func.func @linear(
// LEGAL:         torch.aten.linear
// NOREFINE-LABEL: func.func @linear(
// NOREFINE:        torch.aten.matmul {{.*}} -> !torch.vtensor{{$}}
// NOREFINE:        %[[C:.*]] = torch.tensor_static_info_cast %{{.*}} : !torch.vtensor to !torch.vtensor<[2,4],f32>
// NOREFINE-NEXT:   return %[[C]]
func.func @linear(%x: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[4,3],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[2,4],f32> {
  %0 = torch.aten.linear %x, %w, %b : !torch.vtensor<[2,3],f32>, !torch.vtensor<[4,3],f32>, !torch.vtensor<[4],f32> -> !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// -----

// CHECK-LABEL: func.func @softmax(
// CHECK-NOT:     torch.aten.softmax.int
// CHECK:         torch.aten.max.dim {{.*}} -> !torch.vtensor<[2,1],f32>, !torch.vtensor<[2,1],si64>
// CHECK:         torch.aten.exp {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK:         torch.aten.sum.dim_IntList {{.*}} -> !torch.vtensor<[2,1],f32>
// CHECK:         %[[D:.*]] = torch.aten.div.Tensor {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK-NEXT:    return %[[D]]
// LEGAL-LABEL: func.func @softmax(
// LEGAL:         torch.aten.softmax.int
func.func @softmax(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %0 = torch.aten.softmax.int %x, %int1, %none : !torch.vtensor<[2,3],f32>, !torch.int, !torch.none -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// layer_norm decomposes into native_layer_norm, var_mean, var and mean in turn; the loop over the
// normalized dims is unrolled (the input's rank is known).
// CHECK-LABEL: func.func @layer_norm(
// CHECK-NOT:     torch.aten.layer_norm
// CHECK-NOT:     torch.aten.native_layer_norm
// CHECK-NOT:     torch.prim.Loop
// CHECK:         torch.aten.sum.dim_IntList {{.*}} -> !torch.vtensor<[2,3,1],f32>
// CHECK:         torch.aten.rsqrt {{.*}} -> !torch.vtensor<[2,3,1],f32>
// CHECK:         %[[R:.*]] = torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[2,3,4],f32>
// CHECK-NEXT:    return %[[R]]
// LEGAL-LABEL: func.func @layer_norm(
// LEGAL-NOT:     torch.aten.layer_norm
func.func @layer_norm(%x: !torch.vtensor<[2,3,4],f32>, %w: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[2,3,4],f32> {
  %int4 = torch.constant.int 4
  %eps = torch.constant.float 1.0e-05
  %true = torch.constant.bool true
  %shape = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.layer_norm %x, %shape, %w, %b, %eps, %true : !torch.vtensor<[2,3,4],f32>, !torch.list<int>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.float, !torch.bool -> !torch.vtensor<[2,3,4],f32>
  return %0 : !torch.vtensor<[2,3,4],f32>
}

// -----

// A tuple result: each element replaces its result.
// CHECK-LABEL: func.func @var_mean(
// CHECK:         %[[V:.*]] = torch.aten.div.Scalar {{.*}} : !torch.vtensor<[2,1],f32>, !torch.float -> !torch.vtensor<[2,1],f32>
// CHECK:         %[[VC:.*]] = torch.tensor_static_info_cast %[[V]] : !torch.vtensor<[2,1],f32> to !torch.vtensor
// CHECK:         %[[M:.*]] = torch.aten.div.Scalar {{.*}} : !torch.vtensor<[2,1],f32>, !torch.int -> !torch.vtensor<[2,1],f32>
// CHECK:         %[[MC:.*]] = torch.tensor_static_info_cast %[[M]] : !torch.vtensor<[2,1],f32> to !torch.vtensor
// CHECK:         return %[[VC]], %[[MC]]
func.func @var_mean(%x: !torch.vtensor<[2,3],f32>) -> (!torch.vtensor, !torch.vtensor) {
  %int1 = torch.constant.int 1
  %true = torch.constant.bool true
  %none = torch.constant.none
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %0:2 = torch.aten.var_mean.correction %x, %dims, %none, %true : !torch.vtensor<[2,3],f32>, !torch.list<int>, !torch.none, !torch.bool -> !torch.vtensor, !torch.vtensor
  return %0#0, %0#1 : !torch.vtensor, !torch.vtensor
}

// -----

// Ops without a decomposition function are left alone.
// CHECK-LABEL: func.func @untouched(
// CHECK-NEXT:    torch.aten.tanh
func.func @untouched(%x: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  %0 = torch.aten.tanh %x : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// A list result: the loop over the known size is unrolled and each piece replaces a
// result of the ListUnpack.
// CHECK-LABEL: func.func @split(
// CHECK-NOT:     torch.prim.Loop
// CHECK-NOT:     torch.prim.ListUnpack
// CHECK:         %[[A:.*]] = torch.aten.slice.Tensor {{.*}} -> !torch.vtensor<[2,4],f32>
// CHECK:         %[[B:.*]] = torch.aten.slice.Tensor {{.*}} -> !torch.vtensor<[2,4],f32>
// CHECK:         %[[C:.*]] = torch.aten.slice.Tensor {{.*}} -> !torch.vtensor<[1,4],f32>
// CHECK:         return %[[A]], %[[B]], %[[C]]
func.func @split(%x: !torch.vtensor<[5,4],f32>) -> (!torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>, !torch.vtensor<[1,4],f32>) {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %0 = torch.aten.split.Tensor %x, %int2, %int0 : !torch.vtensor<[5,4],f32>, !torch.int, !torch.int -> !torch.list<vtensor>
  %1:3 = torch.prim.ListUnpack %0 : !torch.list<vtensor> -> !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>, !torch.vtensor<[1,4],f32>
  return %1#0, %1#1, %1#2 : !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>, !torch.vtensor<[1,4],f32>
}
