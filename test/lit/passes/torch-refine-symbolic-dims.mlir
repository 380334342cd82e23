// RUN: torch-refine-opt --split-input-file --torch-refine-pipeline %s | filecheck %s
// RUN: torch-refine-opt --split-input-file --pass-pipeline='builtin.module(torch-refine-pipeline{keep-symbolic-dims=true})' %s | filecheck %s --check-prefix=KEEP
// RUN: torch-refine-opt --split-input-file --pass-pipeline='builtin.module(torch-refine-pipeline{broadcast-equal=true})' %s | filecheck %s --check-prefix=EQUAL

// The inferred dim of a view on a dynamic batch: (b*8*32) // (b*8*8) = 4.
// CHECK-LABEL: func.func @view_infers_dim_on_dynamic_batch(
// CHECK:         torch.aten.view %arg0, %{{.*}} : !torch.vtensor<[?,8,32],f32>, !torch.list<int> -> !torch.vtensor<[?,8,4,8],f32>
// CHECK-NOT:     torch_refine.dims
// KEEP-LABEL:  func.func @view_infers_dim_on_dynamic_batch(
// KEEP:          torch.aten.view %arg0, %{{.*}} {torch_refine.dims = {{\[\["%arg0\[0\]", "8", "4", "8"\]\]}}}
func.func @view_infers_dim_on_dynamic_batch(%arg0: !torch.vtensor<[?,8,32],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int8 = torch.constant.int 8
  %int-1 = torch.constant.int -1
  %batch = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,8,32],f32>, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %batch, %int8, %int-1, %int8 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %arg0, %sizes : !torch.vtensor<[?,8,32],f32>, !torch.list<int> -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// The second view reads the first one's dim 0 (the batch) back through aten.size.int.
// CHECK-LABEL: func.func @chain_of_views(
// CHECK:         %[[FLAT:.*]] = torch.aten.view %arg0, %{{.*}} -> !torch.vtensor<[?,256],f32>
// CHECK:         torch.aten.view %[[FLAT]], %{{.*}} -> !torch.vtensor<[?,8,4,8],f32>
// KEEP-LABEL:  func.func @chain_of_views(
// KEEP:          torch.aten.view %arg0, %{{.*}} {torch_refine.dims = {{\[\["%arg0\[0\]", "256"\]\]}}}
// KEEP:          torch.aten.view %{{.*}}, %{{.*}} {torch_refine.dims = {{\[\["%arg0\[0\]", "8", "4", "8"\]\]}}}
func.func @chain_of_views(%arg0: !torch.vtensor<[?,8,32],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int8 = torch.constant.int 8
  %int256 = torch.constant.int 256
  %int-1 = torch.constant.int -1
  %batch = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,8,32],f32>, !torch.int -> !torch.int
  %flat_sizes = torch.prim.ListConstruct %batch, %int256 : (!torch.int, !torch.int) -> !torch.list<int>
  %flat = torch.aten.view %arg0, %flat_sizes : !torch.vtensor<[?,8,32],f32>, !torch.list<int> -> !torch.vtensor
  %sizes = torch.prim.ListConstruct %batch, %int8, %int-1, %int8 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %flat, %sizes : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Flatten batch*seq, go through an elementwise op, and split the flat dim back:
// (8*b*32) // (b*32) = 8 recovers the static sequence length.
// CHECK-LABEL: func.func @reshape_flattened_batch_back(
// CHECK:         torch.aten.view %arg0, %{{.*}} -> !torch.vtensor<[?,32],f32>
// CHECK:         torch.aten.relu %{{.*}} -> !torch.vtensor<[?,32],f32>
// CHECK:         torch.aten.view %{{.*}}, %{{.*}} -> !torch.vtensor<[?,8,4,8],f32>
// KEEP-LABEL:  func.func @reshape_flattened_batch_back(
// KEEP:          torch.aten.view %arg0, %{{.*}} {torch_refine.dims = {{\[\["8\*%arg0\[0\]", "32"\]\]}}}
// KEEP:          torch.aten.relu %{{.*}} {torch_refine.dims = {{\[\["8\*%arg0\[0\]", "32"\]\]}}}
func.func @reshape_flattened_batch_back(%arg0: !torch.vtensor<[?,8,32],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int4 = torch.constant.int 4
  %int8 = torch.constant.int 8
  %int32 = torch.constant.int 32
  %int-1 = torch.constant.int -1
  %flat_sizes = torch.prim.ListConstruct %int-1, %int32 : (!torch.int, !torch.int) -> !torch.list<int>
  %flat = torch.aten.view %arg0, %flat_sizes : !torch.vtensor<[?,8,32],f32>, !torch.list<int> -> !torch.vtensor
  %relu = torch.aten.relu %flat : !torch.vtensor -> !torch.vtensor
  %batch = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,8,32],f32>, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %batch, %int-1, %int4, %int8 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %relu, %sizes : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Two arguments' batches, nothing relating them. By default either may be 1 (no range
// excludes it): the add asserts PyTorch's own check, and the view of %arg0 to the second
// batch (before the add) keeps its own check and infers `32*%arg0[0] // %arg1[0]`, a
// symbol. Under broadcast-equal (torch.export's rule: its dynamic dims are at least 2) the
// add asserts the batches equal, once, at the function's entry; from then on the second
// batch is the first in every op, the view before the add included, and a later broadcast
// of the same batches asserts nothing. A quotient that still depends on the batch stays a
// symbolic dim. (The view, refined before the add, divides by the second batch: that it
// is not 0, which PyTorch's view of an inferred dim requires too, is asserted first.)
// CHECK-LABEL: func.func @no_cancellation(
// CHECK:         torch.runtime.assert %{{.*}}, "aten.view: invalid shape (requires 32*%arg0[0] == %arg1[0] or
// CHECK:         torch.runtime.assert %{{.*}}, "aten.view: division by zero in the shape calculation (requires %arg1[0] != 0)"
// CHECK:         torch.runtime.assert %{{.*}}, "aten.add.Tensor: {{.*}} (requires %arg0[0] == %arg1[0] or %arg0[0] == 1 or %arg1[0] == 1)"
// CHECK-NOT:     torch.runtime.assert
// CHECK:         torch.aten.view %arg0, %{{.*}} -> !torch.vtensor<[?,?],f32>
// CHECK:         torch.aten.view %arg0, %{{.*}} -> !torch.vtensor<[2,?],f32>
// CHECK:         torch.aten.add.Tensor %arg0, %arg1, %{{.*}} -> !torch.vtensor<[?,32],f32>
// CHECK:         torch.aten.sub.Tensor %arg1, %arg0, %{{.*}} -> !torch.vtensor<[?,32],f32>
// KEEP-LABEL:  func.func @no_cancellation(
// KEEP:          torch.aten.view %arg0, %{{.*}} {torch_refine.dims = {{\[\["%arg1\[0\]", "%s[0-9]+"\]\]}}}
// KEEP:          torch.aten.view %arg0, %{{.*}} {torch_refine.dims = {{\[\["2", "16\*%arg0\[0\]"\]\]}}}
// KEEP:          return
// EQUAL-LABEL: func.func @no_cancellation(
// EQUAL:         %[[B:.*]] = torch.aten.size.int %arg1
// EQUAL:         torch.runtime.assert %{{.*}}, "aten.view: division by zero in the shape calculation (requires %arg1[0] != 0)"
// EQUAL:         %[[A:.*]] = torch.aten.size.int %arg0
// EQUAL:         %[[EQ:.*]] = torch.aten.eq.int %[[A]], %[[B]]
// EQUAL:         torch.runtime.assert %[[EQ]], "aten.add.Tensor: The size of tensor a %arg0[0] must match the size of tensor b (%arg1[0]) at non-singleton dimension 0 (requires %arg0[0] == %arg1[0])"
// EQUAL-NOT:     torch.runtime.assert
// EQUAL:         torch.aten.view %arg0, %{{.*}} -> !torch.vtensor<[?,32],f32>
// EQUAL:         torch.aten.view %arg0, %{{.*}} -> !torch.vtensor<[2,?],f32>
// EQUAL:         torch.aten.add.Tensor %arg0, %arg1, %{{.*}} -> !torch.vtensor<[?,32],f32>
// EQUAL:         torch.aten.sub.Tensor %arg1, %arg0, %{{.*}} -> !torch.vtensor<[?,32],f32>
func.func @no_cancellation(%arg0: !torch.vtensor<[?,32],f32>, %arg1: !torch.vtensor<[?,32],f32>) -> (!torch.vtensor, !torch.vtensor, !torch.vtensor, !torch.vtensor) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int-1 = torch.constant.int -1
  %other = torch.aten.size.int %arg1, %int0 : !torch.vtensor<[?,32],f32>, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %other, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %arg0, %sizes : !torch.vtensor<[?,32],f32>, !torch.list<int> -> !torch.vtensor
  %halves = torch.prim.ListConstruct %int2, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.view %arg0, %halves : !torch.vtensor<[?,32],f32>, !torch.list<int> -> !torch.vtensor
  %2 = torch.aten.add.Tensor %arg0, %arg1, %int1 : !torch.vtensor<[?,32],f32>, !torch.vtensor<[?,32],f32>, !torch.int -> !torch.vtensor
  %3 = torch.aten.sub.Tensor %arg1, %arg0, %int1 : !torch.vtensor<[?,32],f32>, !torch.vtensor<[?,32],f32>, !torch.int -> !torch.vtensor
  return %0, %1, %2, %3 : !torch.vtensor, !torch.vtensor, !torch.vtensor, !torch.vtensor
}

// -----

// A view to a size nothing is known about: whether it is -1 (inferred) or a size, it is
// the first dim, so the other dims stay static.
// CHECK-LABEL: func.func @view_to_unknown_size(
// CHECK: torch.aten.view {{.*}} -> !torch.vtensor<[?,2,8],f32>
func.func @view_to_unknown_size(%arg0: !torch.vtensor<[?,16],f32>, %n: !torch.int) -> !torch.vtensor {
  %int2 = torch.constant.int 2
  %int8 = torch.constant.int 8
  %0 = torch.prim.ListConstruct %n, %int2, %int8 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.view %arg0, %0 : !torch.vtensor<[?,16],f32>, !torch.list<int> -> !torch.vtensor
  return %1 : !torch.vtensor
}

// -----

// Broadcasting against a lower-rank operand keeps the batch's symbol (`b if a == 1 else a`
// with b = 1 is a), so the residual add knows both batches equal: no guard.
// CHECK-LABEL: func.func @residual_after_lower_rank_broadcast(
// CHECK-NOT:     torch.runtime.assert
// CHECK:         torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[?,8,16,16],f32>
// KEEP-LABEL:  func.func @residual_after_lower_rank_broadcast(
// KEEP:          torch.aten.sub.Tensor {{.*}} {torch_refine.dims = {{\[\["%arg0\[0\]", "8", "16", "16"\]\]}}}
func.func @residual_after_lower_rank_broadcast(%arg0: !torch.vtensor<[?,8,16,16],f32>, %arg1: !torch.vtensor<[8,1,1],f32>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %0 = torch.aten.relu %arg0 : !torch.vtensor<[?,8,16,16],f32> -> !torch.vtensor
  %1 = torch.aten.sub.Tensor %0, %arg1, %int1 : !torch.vtensor, !torch.vtensor<[8,1,1],f32>, !torch.int -> !torch.vtensor
  %2 = torch.aten.add.Tensor %1, %0, %int1 : !torch.vtensor, !torch.vtensor, !torch.int -> !torch.vtensor
  return %2 : !torch.vtensor
}

// -----

// Imported with symbolic shape expressions, the inputs whose dims torch.export knows equal
// are bound to one `torch.symbolic_int`: the mask's batch is the ids' batch, so a view of
// the embedded ids sized by the mask's batch infers its -1. Without the binds the two
// batches are unrelated and the dim stays ?.
// CHECK-LABEL: func.func @inputs_sharing_a_symbol(
// CHECK:         torch.aten.view {{.*}} -> !torch.vtensor<[?,8,4,8],f32>
// KEEP-LABEL:  func.func @inputs_sharing_a_symbol(
// KEEP:          torch.aten.view {{.*}} {torch_refine.dims = {{\[\["%arg0\[0\]", "8", "4", "8"\]\]}}}
func.func @inputs_sharing_a_symbol(%ids: !torch.vtensor<[?,8],si64>, %mask: !torch.vtensor<[?,8],si64>, %table: !torch.vtensor<[128,32],f32>) -> !torch.vtensor {
  %s0 = torch.symbolic_int "s0" {min_val = 2, max_val = 64} : !torch.int
  torch.bind_symbolic_shape %ids, [%s0], affine_map<()[s0] -> (s0, 8)> : !torch.vtensor<[?,8],si64>
  torch.bind_symbolic_shape %mask, [%s0], affine_map<()[s0] -> (s0, 8)> : !torch.vtensor<[?,8],si64>
  %false = torch.constant.bool false
  %int0 = torch.constant.int 0
  %int8 = torch.constant.int 8
  %int-1 = torch.constant.int -1
  %e = torch.aten.embedding %table, %ids, %int-1, %false, %false : !torch.vtensor<[128,32],f32>, !torch.vtensor<[?,8],si64>, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor
  %b = torch.aten.size.int %mask, %int0 : !torch.vtensor<[?,8],si64>, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %b, %int8, %int-1, %int8 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %v = torch.aten.view %e, %sizes : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  return %v : !torch.vtensor
}

// -----

// Without the binds: two unrelated batches.
// CHECK-LABEL: func.func @inputs_without_symbols(
// CHECK:         torch.aten.view {{.*}} -> !torch.vtensor<[?,8,?,8],f32>
// KEEP-LABEL:  func.func @inputs_without_symbols(
func.func @inputs_without_symbols(%ids: !torch.vtensor<[?,8],si64>, %mask: !torch.vtensor<[?,8],si64>, %table: !torch.vtensor<[128,32],f32>) -> !torch.vtensor {
  %false = torch.constant.bool false
  %int0 = torch.constant.int 0
  %int8 = torch.constant.int 8
  %int-1 = torch.constant.int -1
  %e = torch.aten.embedding %table, %ids, %int-1, %false, %false : !torch.vtensor<[128,32],f32>, !torch.vtensor<[?,8],si64>, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor
  %b = torch.aten.size.int %mask, %int0 : !torch.vtensor<[?,8],si64>, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %b, %int8, %int-1, %int8 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %v = torch.aten.view %e, %sizes : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  return %v : !torch.vtensor
}

// -----

// arange's size function computes ceil((end - 0.0) / 1.0) in doubles; on a size converted
// to float that is the size again, so the range keeps the sequence symbol and the broadcast
// against the input (rotary positions) keeps every dim. The broadcast of the batch with
// the sequence length is PyTorch's check (either may be 1), and the sum's first dim is
// the one that is not 1. Under broadcast-equal it asserts them equal at the entry; from
// then on the sequence length is the batch.
// CHECK-LABEL: func.func @arange_of_a_size_keeps_its_symbol(
// CHECK:         torch.runtime.assert %{{.*}}, "aten.add.Tensor: {{.*}} (requires %arg0[0] == %arg0[1] or %arg0[0] == 1 or %arg0[1] == 1)"
// CHECK:         torch.aten.arange %{{.*}} -> !torch.vtensor<[?],si64>
// CHECK:         torch.aten.unsqueeze %{{.*}} -> !torch.vtensor<[?,1],si64>
// CHECK:         torch.aten.add.Tensor %arg0, %{{.*}} -> !torch.vtensor<[?,?],si64>
// KEEP-LABEL:  func.func @arange_of_a_size_keeps_its_symbol(
// KEEP:          torch.aten.arange %{{.*}} {torch_refine.dims = {{\[\["%arg0\[1\]"\]\]}}}
// KEEP:          torch.aten.unsqueeze %{{.*}} {torch_refine.dims = {{\[\["%arg0\[1\]", "1"\]\]}}}
// EQUAL-LABEL: func.func @arange_of_a_size_keeps_its_symbol(
// EQUAL:         torch.runtime.assert %{{.*}}, "aten.add.Tensor: {{.*}} (requires %arg0[0] == %arg0[1])"
// EQUAL:         torch.aten.add.Tensor %arg0, %{{.*}} -> !torch.vtensor<[?,?],si64>
func.func @arange_of_a_size_keeps_its_symbol(%arg0: !torch.vtensor<[?,?],si64>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %false = torch.constant.bool false
  %cpu = torch.constant.device "cpu"
  %seq = torch.aten.size.int %arg0, %int1 : !torch.vtensor<[?,?],si64>, !torch.int -> !torch.int
  %0 = torch.aten.arange %seq, %none, %none, %cpu, %false : !torch.int, !torch.none, !torch.none, !torch.Device, !torch.bool -> !torch.vtensor
  %1 = torch.aten.unsqueeze %0, %int1 : !torch.vtensor, !torch.int -> !torch.vtensor
  %2 = torch.aten.add.Tensor %arg0, %1, %int1 : !torch.vtensor<[?,?],si64>, !torch.vtensor, !torch.int -> !torch.vtensor
  return %2 : !torch.vtensor
}

// -----

// The ranges torch.export gave the dynamic dims (imported with symbolic shape expressions)
// decide the slice's bound (the sequence length, at most 32, never reaches the buffer's 64)
// and the broadcast (a batch of at least 2 is never 1): the slice keeps the sequence
// symbol, the add keeps both dims, and no guard is left.
// CHECK-LABEL: func.func @export_ranges_decide_bounds(
// CHECK:         torch.aten.slice.Tensor {{.*}} -> !torch.vtensor<[1,?],si64>
// CHECK-NOT:     torch.runtime.assert
// CHECK:         torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[?,?],si64>
// KEEP-LABEL:  func.func @export_ranges_decide_bounds(
// KEEP:          torch.aten.slice.Tensor {{.*}} {torch_refine.dims = {{\[\["1", "%arg0\[1\]"\]\]}}}
func.func @export_ranges_decide_bounds(%arg0: !torch.vtensor<[?,?],si64>) -> !torch.vtensor {
  %s0 = torch.symbolic_int "s0" {min_val = 2, max_val = 64} : !torch.int
  %s1 = torch.symbolic_int "s1" {min_val = 4, max_val = 32} : !torch.int
  torch.bind_symbolic_shape %arg0, [%s0, %s1], affine_map<()[s0, s1] -> (s0, s1)> : !torch.vtensor<[?,?],si64>
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %positions = torch.vtensor.literal(dense<0> : tensor<1x64xsi64>) : !torch.vtensor<[1,64],si64>
  %seq = torch.aten.size.int %arg0, %int1 : !torch.vtensor<[?,?],si64>, !torch.int -> !torch.int
  %0 = torch.aten.slice.Tensor %positions, %int1, %int0, %seq, %int1 : !torch.vtensor<[1,64],si64>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %1 = torch.aten.add.Tensor %arg0, %0, %int1 : !torch.vtensor<[?,?],si64>, !torch.vtensor, !torch.int -> !torch.vtensor
  return %1 : !torch.vtensor
}

// Without ranges the sequence length may exceed the buffer: the slice's size is
// `min(seq, 64)`, and the broadcast asserts it equal to the sequence length, once, at the
// entry, as the range that is (`seq <= 64`; the issue's `min(s, 512)` of a position
// embedding). The same ops in the same module must not reuse the result found with the
// ranges above.
// CHECK-LABEL: func.func @no_ranges_no_bound(
// CHECK:         torch.runtime.assert %{{.*}}, "aten.add.Tensor: {{.*}} (requires %arg0[1] <= 64)"
// CHECK:         torch.aten.slice.Tensor {{.*}} -> !torch.vtensor<[1,?],si64>
// CHECK-NOT:     torch.runtime.assert
// KEEP-LABEL:  func.func @no_ranges_no_bound(
// KEEP:          torch.runtime.assert
// KEEP:          torch.aten.slice.Tensor {{.*}} {torch_refine.dims = {{\[\["1", "%arg0\[1\]"\]\]}}}
// KEEP:          return
func.func @no_ranges_no_bound(%arg0: !torch.vtensor<[?,?],si64>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %positions = torch.vtensor.literal(dense<0> : tensor<1x64xsi64>) : !torch.vtensor<[1,64],si64>
  %seq = torch.aten.size.int %arg0, %int1 : !torch.vtensor<[?,?],si64>, !torch.int -> !torch.int
  %0 = torch.aten.slice.Tensor %positions, %int1, %int0, %seq, %int1 : !torch.vtensor<[1,64],si64>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %1 = torch.aten.add.Tensor %arg0, %0, %int1 : !torch.vtensor<[?,?],si64>, !torch.vtensor, !torch.int -> !torch.vtensor
  return %1 : !torch.vtensor
}

// -----

// The pieces of a split carry their symbolic dims (on the ListUnpack), so a view of one
// piece that reads its batch back cancels it: GPT-2's fused qkv projection.
// CHECK-LABEL: func.func @split_pieces_keep_the_batch(
// CHECK:         torch.prim.ListUnpack {{.*}} -> !torch.vtensor<[?,8,32],f32>, !torch.vtensor<[?,8,32],f32>, !torch.vtensor<[?,8,32],f32>
// CHECK:         torch.aten.view {{.*}} -> !torch.vtensor<[?,8,4,8],f32>
// KEEP-LABEL:  func.func @split_pieces_keep_the_batch(
// KEEP:          torch.prim.ListUnpack %{{.*}} {torch_refine.dims = {{\[\["%arg0\[0\]", "8", "32"\], \["%arg0\[0\]", "8", "32"\], \["%arg0\[0\]", "8", "32"\]\]}}}
func.func @split_pieces_keep_the_batch(%arg0: !torch.vtensor<[?,8,96],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %int8 = torch.constant.int 8
  %int32 = torch.constant.int 32
  %int-1 = torch.constant.int -1
  %0 = torch.aten.split.Tensor %arg0, %int32, %int2 : !torch.vtensor<[?,8,96],f32>, !torch.int, !torch.int -> !torch.list<vtensor>
  %1:3 = torch.prim.ListUnpack %0 : !torch.list<vtensor> -> !torch.vtensor, !torch.vtensor, !torch.vtensor
  %batch = torch.aten.size.int %1#1, %int0 : !torch.vtensor, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %batch, %int8, %int-1, %int8 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %2 = torch.aten.view %1#1, %sizes : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  return %2 : !torch.vtensor
}

// -----

// expand's storage-size overflow check multiplies the sizes in doubles; the export's
// range (a batch of at most 64) bounds the product far below the limit, so no guard is
// kept. Without the range no guard is kept either: sizes a program runs with never
// overflow int64 (next function; a static overflow is an error, pipeline-errors.mlir).
// CHECK-LABEL: func.func @export_range_decides_overflow_check(
// CHECK-NOT:     torch.runtime.assert
// CHECK:         torch.aten.broadcast_to {{.*}} -> !torch.vtensor<[?,4],f32>
// CHECK-LABEL: func.func @no_overflow_guard_without_range(
// CHECK-NOT:     torch.runtime.assert
// CHECK:         torch.aten.broadcast_to {{.*}} -> !torch.vtensor<[?,4],f32>
func.func @export_range_decides_overflow_check(%arg0: !torch.vtensor<[?,1],f32>) -> !torch.vtensor {
  %s0 = torch.symbolic_int "s0" {min_val = 2, max_val = 64} : !torch.int
  torch.bind_symbolic_shape %arg0, [%s0], affine_map<()[s0] -> (s0, 1)> : !torch.vtensor<[?,1],f32>
  %int0 = torch.constant.int 0
  %int4 = torch.constant.int 4
  %batch = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,1],f32>, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %batch, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.broadcast_to %arg0, %sizes : !torch.vtensor<[?,1],f32>, !torch.list<int> -> !torch.vtensor
  return %0 : !torch.vtensor
}
func.func @no_overflow_guard_without_range(%arg0: !torch.vtensor<[?,1],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int4 = torch.constant.int 4
  %batch = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,1],f32>, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %batch, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.broadcast_to %arg0, %sizes : !torch.vtensor<[?,1],f32>, !torch.list<int> -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Reductions over dims that are products of dynamic dims keep their size-1 dims, and the
// broadcasts that follow keep the product: `x.view(b*s, -1).sum(0, keepdim=True)` is
// [1,8], and `x - x.amax((0, 1), keepdim=True)` keeps [?,?,8]. The view keeps its guards:
// with b*s == 0 the -1 cannot be inferred (once per dim, at the entry; the amax needs the
// same and asserts nothing more).
// CHECK-LABEL: func.func @reductions_over_products_of_dynamic_dims(
// CHECK:         torch.runtime.assert {{.*}} "aten.view: division by zero in the shape calculation (requires %arg0[{{[01]}}] != 0)"
// CHECK:         torch.runtime.assert {{.*}} "aten.view: division by zero in the shape calculation (requires %arg0[{{[01]}}] != 0)"
// CHECK-NOT:     torch.runtime.assert
// CHECK:         torch.aten.view {{.*}} -> !torch.vtensor<[?,8],f32>
// CHECK:         torch.aten.sum.dim_IntList {{.*}} -> !torch.vtensor<[1,8],f32>
// CHECK:         torch.aten.mul.Tensor {{.*}} -> !torch.vtensor<[?,8],f32>
// CHECK:         torch.aten.amax {{.*}} -> !torch.vtensor<[1,1,8],f32>
// CHECK:         torch.aten.sub.Tensor {{.*}} -> !torch.vtensor<[?,?,8],f32>
func.func @reductions_over_products_of_dynamic_dims(%arg0: !torch.vtensor<[?,?,8],f32>) -> (!torch.vtensor, !torch.vtensor) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %true = torch.constant.bool true
  %none = torch.constant.none
  %b = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,?,8],f32>, !torch.int -> !torch.int
  %s = torch.aten.size.int %arg0, %int1 : !torch.vtensor<[?,?,8],f32>, !torch.int -> !torch.int
  %bs = torch.aten.mul.int %b, %s : !torch.int, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %bs, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %arg0, %sizes : !torch.vtensor<[?,?,8],f32>, !torch.list<int> -> !torch.vtensor
  %dim0 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.sum.dim_IntList %0, %dim0, %true, %none : !torch.vtensor, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor
  %2 = torch.aten.mul.Tensor %0, %1 : !torch.vtensor, !torch.vtensor -> !torch.vtensor
  %dims01 = torch.prim.ListConstruct %int0, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %3 = torch.aten.amax %arg0, %dims01, %true : !torch.vtensor<[?,?,8],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor
  %4 = torch.aten.sub.Tensor %arg0, %3, %int1 : !torch.vtensor<[?,?,8],f32>, !torch.vtensor, !torch.int -> !torch.vtensor
  return %2, %4 : !torch.vtensor, !torch.vtensor
}

// -----

// batch_norm's size function takes another path for an empty input; with dynamic dims
// neither is decided, and both paths yield a rank-4 list with 8 channels: the result
// keeps them.
// CHECK-LABEL: func.func @undecided_paths_that_agree_on_the_rank(
// CHECK:         torch.aten.batch_norm {{.*}} -> !torch.vtensor<[?,8,?,?],f32>
func.func @undecided_paths_that_agree_on_the_rank(%arg0: !torch.vtensor<[?,8,?,?],f32>, %w: !torch.vtensor<[8],f32>) -> !torch.vtensor {
  %false = torch.constant.bool false
  %momentum = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %0 = torch.aten.batch_norm %arg0, %w, %w, %w, %w, %false, %momentum, %eps, %false : !torch.vtensor<[?,8,?,?],f32>, !torch.vtensor<[8],f32>, !torch.vtensor<[8],f32>, !torch.vtensor<[8],f32>, !torch.vtensor<[8],f32>, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// An image size exported as a multiple of 8 (`s0 * 8`) is 8 times the symbol s0, which is
// `(%arg0[2]/8)`: a stride-4 convolution's output size `(8*s0 - 1) // 4 + 1` is `2*s0`.
// Flattened to tokens and given a class token, a view sized by the token count
// `4*s0*s0 + 1` divides the numel by a sum of terms and infers its -1 (4).
// CHECK-LABEL: func.func @strided_conv_over_multiple_of_8(
// CHECK:         torch.aten.convolution {{.*}} -> !torch.vtensor<[?,32,?,?],f32>
// CHECK:         torch.aten.view {{.*}} -> !torch.vtensor<[?,?,4,8],f32>
// KEEP-LABEL:  func.func @strided_conv_over_multiple_of_8(
// KEEP:          torch.aten.convolution {{.*}} {torch_refine.dims = {{\[\["%arg0\[0\]", "32", "2\*\(%arg0\[2\]/8\)", "2\*\(%arg0\[2\]/8\)"\]\]}}}
// KEEP:          torch.aten.cat {{.*}} {torch_refine.dims = {{\[\["%arg0\[0\]", "4\*\(%arg0\[2\]/8\)\*\(%arg0\[2\]/8\) \+ 1", "32"\]\]}}}
// KEEP:          torch.aten.view {{.*}} {torch_refine.dims = {{\[\["%arg0\[0\]", "4\*\(%arg0\[2\]/8\)\*\(%arg0\[2\]/8\) \+ 1", "4", "8"\]\]}}}
func.func @strided_conv_over_multiple_of_8(%arg0: !torch.vtensor<[?,3,?,?],f32>, %weight: !torch.vtensor<[32,3,4,4],f32>, %cls: !torch.vtensor<[1,1,32],f32>) -> !torch.vtensor {
  %s0 = torch.symbolic_int "s0" {min_val = 2, max_val = 8} : !torch.int
  %s1 = torch.symbolic_int "s1" {min_val = 2, max_val = 64} : !torch.int
  torch.bind_symbolic_shape %arg0, [%s0, %s1], affine_map<()[s0, s1] -> (s1, 3, s0 * 8, s0 * 8)> : !torch.vtensor<[?,3,?,?],f32>
  %none = torch.constant.none
  %false = torch.constant.bool false
  %int-1 = torch.constant.int -1
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %int8 = torch.constant.int 8
  %stride = torch.prim.ListConstruct %int4, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
  %padding = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %dilation = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %conv = torch.aten.convolution %arg0, %weight, %none, %stride, %padding, %dilation, %false, %padding, %int1 : !torch.vtensor<[?,3,?,?],f32>, !torch.vtensor<[32,3,4,4],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor
  %flat = torch.aten.flatten.using_ints %conv, %int2, %int-1 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %tokens = torch.aten.transpose.int %flat, %int1, %int2 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %b = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,3,?,?],f32>, !torch.int -> !torch.int
  %expand_sizes = torch.prim.ListConstruct %b, %int-1, %int-1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %cls_b = torch.aten.expand %cls, %expand_sizes, %false : !torch.vtensor<[1,1,32],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor
  %parts = torch.prim.ListConstruct %cls_b, %tokens : (!torch.vtensor, !torch.vtensor) -> !torch.list<vtensor>
  %x = torch.aten.cat %parts, %int1 : !torch.list<vtensor>, !torch.int -> !torch.vtensor
  %h = torch.aten.size.int %arg0, %int2 : !torch.vtensor<[?,3,?,?],f32>, !torch.int -> !torch.int
  %s = torch.aten.floordiv.int %h, %int8 : !torch.int, !torch.int -> !torch.int
  %ss = torch.aten.mul.int %s, %s : !torch.int, !torch.int -> !torch.int
  %n4 = torch.aten.mul.int %ss, %int4 : !torch.int, !torch.int -> !torch.int
  %n = torch.aten.add.int %n4, %int1 : !torch.int, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %b, %n, %int-1, %int8 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %v = torch.aten.view %x, %sizes : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  return %v : !torch.vtensor
}

// -----

// A dim export specialized is a constant in its bind, though the argument's type says ?
// (BEiT's image size, fixed by its relative position table); so is a dim whose symbol's
// range holds one value. Sizes computed from them are static.
// CHECK-LABEL: func.func @dims_export_specialized(
// CHECK:         torch.aten.convolution {{.*}} -> !torch.vtensor<[?,32,4,4],f32>
// CHECK:         torch.aten.view {{.*}} -> !torch.vtensor<[?,6,16],f32>
func.func @dims_export_specialized(%arg0: !torch.vtensor<[?,3,?,?],f32>, %weight: !torch.vtensor<[32,3,8,8],f32>, %arg1: !torch.vtensor<[?,?],f32>) -> (!torch.vtensor, !torch.vtensor) {
  %s0 = torch.symbolic_int "s0" {min_val = 2, max_val = 64} : !torch.int
  %s1 = torch.symbolic_int "s1" {min_val = 96, max_val = 96} : !torch.int
  torch.bind_symbolic_shape %arg0, [%s0], affine_map<()[s0] -> (s0, 3, 32, 32)> : !torch.vtensor<[?,3,?,?],f32>
  torch.bind_symbolic_shape %arg1, [%s0, %s1], affine_map<()[s0, s1] -> (s0, s1)> : !torch.vtensor<[?,?],f32>
  %none = torch.constant.none
  %false = torch.constant.bool false
  %int-1 = torch.constant.int -1
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int6 = torch.constant.int 6
  %int8 = torch.constant.int 8
  %stride = torch.prim.ListConstruct %int8, %int8 : (!torch.int, !torch.int) -> !torch.list<int>
  %padding = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %dilation = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %conv = torch.aten.convolution %arg0, %weight, %none, %stride, %padding, %dilation, %false, %padding, %int1 : !torch.vtensor<[?,3,?,?],f32>, !torch.vtensor<[32,3,8,8],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor
  %b = torch.aten.size.int %arg1, %int0 : !torch.vtensor<[?,?],f32>, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %b, %int6, %int-1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %v = torch.aten.view %arg1, %sizes : !torch.vtensor<[?,?],f32>, !torch.list<int> -> !torch.vtensor
  return %conv, %v : !torch.vtensor, !torch.vtensor
}
