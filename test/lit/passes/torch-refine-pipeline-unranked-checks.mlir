// The checks kept for an operand of unknown rank are as small as the facts they check:
// what the rank's range decides goes (calculations/value_ranges.py `value_range`), lists that
// only a check's loop wrote go, and one condition is asserted once.
// RUN: torch-refine-opt --split-input-file --torch-refine-pipeline %s | FileCheck %s

// cat's dim 0 wrapped against a rank of at least 1 is in range whatever the rank: no
// "Dimension out of range" check. What stays is the fact: the operand has a rank, and
// unless it is the legacy empty tensor, rank 2: the short-circuit `and` computing "legacy
// empty" is an `__and__.bool` of its comparisons. The check of its dim 1's size reads a
// size only rank 2 makes safe to read (no assert can say "unless empty, dim 1 is 3"
// without an If): it is dropped, as torch-mlir drops every check, not kept as library
// code, with the claim it protected ([?,3] would hold only where PyTorch does not raise):
// the result's shape stays unknown, and the op raises itself where PyTorch does.
// CHECK-LABEL: func.func @cat_unranked_first
// CHECK:         torch.runtime.assert %{{.*}}, "aten.cat: Cannot concatenate tensor with 0 dimensions"
// CHECK-NOT:     out of range
// CHECK:         %[[EMPTY:.*]] = torch.aten.__and__.bool
// CHECK:         %[[OK:.*]] = torch.aten.__or__.bool %[[EMPTY]], %{{.*}}
// CHECK-NEXT:    torch.runtime.assert %[[OK]], "aten.cat: Tensors must have same number of dimensions, got 2 and ?"
// CHECK-NEXT:    torch.aten.cat {{.*}} -> !torch.vtensor<*,f32>
// CHECK-NOT:     torch.prim.If
// CHECK-NOT:     torch.prim.Loop
func.func @cat_unranked_first(%a: !torch.vtensor<*,f32>, %b: !torch.vtensor<[4,3],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<*,f32>, !torch.vtensor<[4,3],f32>) -> !torch.list<vtensor>
  %r = torch.aten.cat %l, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor
  return %r : !torch.vtensor
}

// -----

// Batch norm of an input of unknown rank: a channel dim, and its size against the four
// per-channel tensors, asserted once (the four checks are one condition); no loop over
// the input's dims.
// CHECK-LABEL: func.func @batch_norm_unranked
// CHECK:         torch.runtime.assert %{{.*}}, "aten.native_batch_norm: batch_norm: expected an input with a channel dim (dim 1)"
// CHECK:         torch.runtime.assert %{{.*}}, "aten.native_batch_norm: batch_norm: the channel dim{{.*}}"
// CHECK-NOT:     torch.runtime.assert
// CHECK-NOT:     torch.prim.Loop
// CHECK:         torch.aten.native_batch_norm {{.*}} -> !torch.vtensor<*,f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>
func.func @batch_norm_unranked(%x: !torch.vtensor<*,f32>, %c: !torch.vtensor<[4],f32>) -> !torch.vtensor {
  %false = torch.constant.bool false
  %momentum = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %r:3 = torch.aten.native_batch_norm %x, %c, %c, %c, %c, %false, %momentum, %eps : !torch.vtensor<*,f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.bool, !torch.float, !torch.float -> !torch.vtensor, !torch.vtensor, !torch.vtensor
  return %r#0 : !torch.vtensor
}

// -----

// A broadcast with a tensor of unknown rank is checked by a loop over its dims: the
// check cannot be an assert and is dropped (as torch-mlir drops every check), not kept
// as the library's loop, with the shape it protected: the op raises itself where
// PyTorch does.
// CHECK-LABEL: func.func @mse_loss_unranked_target
// CHECK-NOT:     torch.prim.Loop
// CHECK-NOT:     torch.aten.append.t
// CHECK:         torch.aten.mse_loss {{.*}} -> !torch.vtensor<*,f32>
func.func @mse_loss_unranked_target(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<*,f32>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %r = torch.aten.mse_loss %a, %b, %int1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<*,f32>, !torch.int -> !torch.vtensor
  return %r : !torch.vtensor
}
