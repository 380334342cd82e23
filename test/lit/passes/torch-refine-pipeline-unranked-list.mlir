// A list of unranked tensors of one dtype: cat's result has that dtype, and its checks of
// the unranked operands leave no internal attribute behind (they marked the op and its
// checks while the pipeline ran).
// RUN: torch-refine-opt --split-input-file --torch-refine-pipeline %s | FileCheck %s

// The result's shape stays unknown, so it claims nothing a shape check would protect:
// no check is kept (they were about 200 ops of loops over the ranks), and PyTorch's own
// check in the op raises where it would have.
// CHECK-LABEL: func.func @cat_of_unranked
// CHECK-NOT: torch_refine.
// CHECK-NOT: torch.runtime.assert
// CHECK: torch.aten.cat {{.*}} -> !torch.vtensor<*,f32>
// CHECK-NOT: torch_refine.
func.func @cat_of_unranked(%a: !torch.vtensor<*,f32>, %b: !torch.vtensor<*,f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<*,f32>, !torch.vtensor<*,f32>) -> !torch.list<vtensor>
  %r = torch.aten.cat %l, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor
  return %r : !torch.vtensor
}

// -----

// A result whose type says something keeps the checks that make it hold: mm of an
// unranked matrix claims `[?,4]`, so the rank and the inner size are asserted first.
// CHECK-LABEL: func.func @mm_of_unranked
// CHECK: torch.runtime.assert %{{.*}}, "aten.mm: self must be a matrix (got ? dimensions)"
// CHECK: torch.runtime.assert %{{.*}}, "aten.mm: Matrix dimensions don't match for mm: self[1]=?, mat2[0]=3"
// CHECK: torch.aten.mm {{.*}} -> !torch.vtensor<[?,4],f32>
func.func @mm_of_unranked(%a: !torch.vtensor<*,f32>, %b: !torch.vtensor<[3,4],f32>) -> !torch.vtensor {
  %r = torch.aten.mm %a, %b : !torch.vtensor<*,f32>, !torch.vtensor<[3,4],f32> -> !torch.vtensor
  return %r : !torch.vtensor
}

// -----

// After the check that the unranked operand has the rank the dims name, the calculation
// reads its sizes as that many dims: the dims' range checks and the loop marking the
// dims seen (about 70 ops) are decided, and only the rank is asserted.
// CHECK-LABEL: func.func @permute_of_unranked
// CHECK: torch.runtime.assert %{{.*}}, "aten.permute: permute: the number of dims must equal the tensor's rank"
// CHECK-NEXT: torch.aten.permute {{.*}} -> !torch.vtensor<[?,?],f32>
func.func @permute_of_unranked(%a: !torch.vtensor<*,f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %dims = torch.prim.ListConstruct %int1, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %r = torch.aten.permute %a, %dims : !torch.vtensor<*,f32>, !torch.list<int> -> !torch.vtensor
  return %r : !torch.vtensor
}

// -----

// The product of an unranked tensor's sizes is its numel, not a loop over them.
// CHECK-LABEL: func.func @view_of_unranked
// CHECK: %[[NUMEL:.*]] = torch.aten.numel %arg0 : !torch.vtensor<*,f32> -> !torch.int
// CHECK: %[[OK:.*]] = torch.aten.eq.int %[[NUMEL]], %int12
// CHECK: torch.runtime.assert %[[OK]], "aten.view: invalid shape"
// CHECK-NOT: torch.prim.Loop
// CHECK: torch.aten.view {{.*}} -> !torch.vtensor<[3,4],f32>
func.func @view_of_unranked(%a: !torch.vtensor<*,f32>) -> !torch.vtensor {
  %int3 = torch.constant.int 3
  %int4 = torch.constant.int 4
  %sizes = torch.prim.ListConstruct %int3, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
  %r = torch.aten.view %a, %sizes : !torch.vtensor<*,f32>, !torch.list<int> -> !torch.vtensor
  return %r : !torch.vtensor
}

// -----

// An in-place op typed as its `self` claims nothing its operands do not: its broadcast
// checks of the unranked operand (about 70 ops) protect no claim and are not kept;
// PyTorch's own check in the op raises where it would have.
// CHECK-LABEL: func.func @in_place_by_unranked
// CHECK-NOT: torch.runtime.assert
// CHECK-NOT: torch.prim.Loop
// CHECK: torch.aten.mul_.Tensor {{.*}} -> !torch.tensor<[3,4],f32>
func.func @in_place_by_unranked(%a: !torch.tensor<[3,4],f32>, %b: !torch.tensor<*,f32>) -> !torch.tensor {
  %r = torch.aten.mul_.Tensor %a, %b : !torch.tensor<[3,4],f32>, !torch.tensor<*,f32> -> !torch.tensor
  return %r : !torch.tensor
}
