// The evaluator (engine/evaluator.py) answers these ops by running their library functions
// on the known arguments, so no calculation is built in the IR (0 calculations-simplified),
// and keeps the checks the ranges do not decide as guards (4 guards-kept: an undecided
// overflow check is none; the stride-2 convolution's `(h + 1) // 2 >= 1` is kept, then
// pruned as implied by `h + 2 >= 3`); each case is one the IR path had to take until the evaluator
// learned it. The broadcast asserts an equality; the ops with dynamic dims before it are
// not refined again under it: each dim of theirs is a polynomial in the arguments' dims,
// which the equality only renames (no memo hit, no second evaluation); those after it
// were refined under it already.

// RUN: torch-refine-opt --torch-refine-pipeline --mlir-print-debuginfo --mlir-print-local-scope %s | filecheck %s
// RUN: torch-refine-opt --torch-refine-pipeline --mlir-pass-statistics %s -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS
// RUN: torch-refine-opt --pass-pipeline='builtin.module(torch-refine-pipeline{runtime-asserts=false})' %s | filecheck %s --check-prefix=NOASSERT

// STATS:       RefinePipeline
// STATS-NEXT:    (S) {{ *}}0 calculations-simplified
// STATS-NEXT:    (S) {{ *}}4 guards-kept
// STATS-NEXT:    (S) {{ *}}0 memo-hits
// STATS-NEXT:    (S) 23 ops-evaluated

// arange's bounds are Scalars (floats to its shape function): a size passed as one is the
// size converted to float; the non-constant device is passed through unread; the size
// function's finiteness checks compare the float with itself and with infinities.
// CHECK-LABEL: func.func @arange_to_a_dynamic_size(
// CHECK:         torch.aten.arange.start_step {{.*}} -> !torch.vtensor<[?],si64>
// CHECK:         torch.aten.unsqueeze {{.*}} -> !torch.vtensor<[1,?],si64>
// CHECK:         torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[?,?],si64>
// CHECK-NOT:     torch.runtime.assert
func.func @arange_to_a_dynamic_size(%arg0: !torch.vtensor<[?,?],si64>, %cpu: !torch.Device) -> !torch.vtensor {
  %s0 = torch.symbolic_int "s0" {min_val = 2, max_val = 64} : !torch.int
  %s1 = torch.symbolic_int "s1" {min_val = 4, max_val = 32} : !torch.int
  torch.bind_symbolic_shape %arg0, [%s0, %s1], affine_map<()[s0, s1] -> (s0, s1)> : !torch.vtensor<[?,?],si64>
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %false = torch.constant.bool false
  %seq = torch.aten.size.int %arg0, %int1 : !torch.vtensor<[?,?],si64>, !torch.int -> !torch.int
  %0 = torch.aten.arange.start_step %int0, %seq, %int1, %none, %none, %cpu, %false : !torch.int, !torch.int, !torch.int, !torch.none, !torch.none, !torch.Device, !torch.bool -> !torch.vtensor
  %1 = torch.aten.unsqueeze %0, %int0 : !torch.vtensor, !torch.int -> !torch.vtensor
  %2 = torch.aten.add.Tensor %arg0, %1, %int1 : !torch.vtensor<[?,?],si64>, !torch.vtensor, !torch.int -> !torch.vtensor
  return %2 : !torch.vtensor
}

// A bool Scalar the importer left as `aten.Int.bool` of a constant is that int. (The
// range of the size decides the storage-size check.)
// CHECK-LABEL: func.func @full_of_an_int_bool(
// CHECK-NOT:     torch.runtime.assert
// CHECK:         torch.aten.full {{.*}} -> !torch.vtensor<[?,3],si64>
func.func @full_of_an_int_bool(%arg0: !torch.vtensor<[?],f32>) -> !torch.vtensor {
  %s0 = torch.symbolic_int "s0" {min_val = 2, max_val = 1024} : !torch.int
  torch.bind_symbolic_shape %arg0, [%s0], affine_map<()[s0] -> (s0)> : !torch.vtensor<[?],f32>
  %int0 = torch.constant.int 0
  %int3 = torch.constant.int 3
  %int4 = torch.constant.int 4
  %true = torch.constant.bool true
  %none = torch.constant.none
  %n = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?],f32>, !torch.int -> !torch.int
  %fill = torch.aten.Int.bool %true : !torch.bool -> !torch.int
  %sizes = torch.prim.ListConstruct %n, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.full %sizes, %fill, %int4, %none, %none, %none : !torch.list<int>, !torch.int, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// neg's dtype function returns from inside a loop over the dtypes (`_has_bool`), a loop
// TorchScript lowers with the largest trip count and a condition: it runs while the
// condition holds, as the IR path peels it.
// CHECK-LABEL: func.func @neg_returns_from_a_loop(
// CHECK:         torch.aten.neg {{.*}} -> !torch.vtensor<[?,8],f32>
func.func @neg_returns_from_a_loop(%arg0: !torch.vtensor<[?,8],f32>) -> !torch.vtensor {
  %0 = torch.aten.neg %arg0 : !torch.vtensor<[?,8],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}

// Two batches nothing relates: the broadcast's check is undecided. Either may be 1 (no
// range excludes it), so the evaluator asserts PyTorch's own check, once, at the
// function's entry, at the op's location, with the check's text and condition; the sum's
// batch is the one that is not 1 (`b if a == 1 else a`).
// With runtime-asserts=false the guard is dropped and the types stay.
// CHECK-LABEL: func.func @undecided_broadcast_is_guarded(
// CHECK:         %[[A:.*]] = torch.aten.size.int %arg0, %{{.*}}
// CHECK:         %[[B:.*]] = torch.aten.size.int %arg1, %{{.*}}
// CHECK:         torch.aten.eq.int %[[A]], %[[B]]
// CHECK:         torch.runtime.assert %{{.*}}, "aten.add.Tensor: The size of tensor a %arg0[0] must match the size of tensor b (%arg1[0]) at non-singleton dimension 0 (requires %arg0[0] == %arg1[0] or %arg0[0] == 1 or %arg1[0] == 1)" loc("model.py":7:1)
// CHECK:         %[[SUM:.*]] = torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[?,8],f32>
// CHECK:         torch.aten.tanh %[[SUM]] {{.*}} -> !torch.vtensor<[?,8],f32>
// NOASSERT-LABEL: func.func @undecided_broadcast_is_guarded(
// NOASSERT-NOT:     torch.runtime.assert
// NOASSERT:         torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[?,8],f32>
func.func @undecided_broadcast_is_guarded(%arg0: !torch.vtensor<[?,8],f32>, %arg1: !torch.vtensor<[?,8],f32>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %0 = torch.aten.add.Tensor %arg0, %arg1, %int1 : !torch.vtensor<[?,8],f32>, !torch.vtensor<[?,8],f32>, !torch.int -> !torch.vtensor loc("model.py":7:1)
  %1 = torch.aten.tanh %0 : !torch.vtensor -> !torch.vtensor
  return %1 : !torch.vtensor
}

// An expand to a size no range bounds: the storage-size check's product of sizes could
// pass 2**63 only for sizes no program runs with, so it is no guard.
// CHECK-LABEL: func.func @unbounded_expand_keeps_no_overflow_guard(
// CHECK-NOT:     torch.runtime.assert
// CHECK:         torch.aten.expand {{.*}} -> !torch.vtensor<[?,4,8],f32>
// NOASSERT-LABEL: func.func @unbounded_expand_keeps_no_overflow_guard(
// NOASSERT-NOT:     torch.runtime.assert
// NOASSERT:         torch.aten.expand {{.*}} -> !torch.vtensor<[?,4,8],f32>
func.func @unbounded_expand_keeps_no_overflow_guard(%arg0: !torch.vtensor<[?,1,8],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int4 = torch.constant.int 4
  %int8 = torch.constant.int 8
  %false = torch.constant.bool false
  %n = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,1,8],f32>, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %n, %int4, %int8 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.expand %arg0, %sizes, %false : !torch.vtensor<[?,1,8],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor
  return %0 : !torch.vtensor
}

// view's check `numel == newsize or (an inferred dim and numel % newsize == 0)` on a
// dynamic batch: the first comparison is undecided, the remainder is 0, so the `or`
// holds and no guard is needed.
// CHECK-LABEL: func.func @view_check_decided_by_its_remainder(
// CHECK-NOT:     torch.runtime.assert
// CHECK:         torch.aten.view {{.*}} -> !torch.vtensor<[?,4,8],f32>
func.func @view_check_decided_by_its_remainder(%arg0: !torch.vtensor<[?,32],f32>) -> !torch.vtensor {
  %int-1 = torch.constant.int -1
  %int4 = torch.constant.int 4
  %int8 = torch.constant.int 8
  %sizes = torch.prim.ListConstruct %int-1, %int4, %int8 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %arg0, %sizes : !torch.vtensor<[?,32],f32>, !torch.list<int> -> !torch.vtensor
  return %0 : !torch.vtensor
}

// A stride-2 convolution of an image whose sizes have no range (a plain import): the
// overflow estimate `(h + 2p - d(k-1) - 1) / s + 1` in floats follows no polynomial past
// 2**53, so it is an opaque float, which compares with int64's bound as every dynamic size
// does (no overflow guard); the evaluator answers, and keeps the kernel-size checks.
// CHECK-LABEL: func.func @conv_of_unbounded_image_size(
// CHECK:         torch.runtime.assert %{{.*}}, "aten.conv2d: convolution: kernel size can't be greater than the padded input size (requires %arg0[2] + 2 >= 3)"
// CHECK:         torch.runtime.assert %{{.*}}, "aten.conv2d: convolution: kernel size can't be greater than the padded input size (requires %arg0[3] + 2 >= 3)"
// CHECK-NOT:     overflow
// CHECK:         torch.aten.conv2d {{.*}} -> !torch.vtensor<[?,8,?,?],f32>
func.func @conv_of_unbounded_image_size(%arg0: !torch.vtensor<[?,3,?,?],f32>, %w: !torch.vtensor<[8,3,3,3],f32>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %stride = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %padding = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %dilation = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.conv2d %arg0, %w, %none, %stride, %padding, %dilation, %int1 : !torch.vtensor<[?,3,?,?],f32>, !torch.vtensor<[8,3,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.int -> !torch.vtensor
  return %0 : !torch.vtensor
}
