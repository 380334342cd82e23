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
// CHECK: torch.runtime.assert %{{.*}}, "aten.mm: Matrix dimensions don't match for mm: self[1]=?, mat2[0]=?"
// CHECK: torch.aten.mm {{.*}} -> !torch.vtensor<[?,4],f32>
func.func @mm_of_unranked(%a: !torch.vtensor<*,f32>, %b: !torch.vtensor<[3,4],f32>) -> !torch.vtensor {
  %r = torch.aten.mm %a, %b : !torch.vtensor<*,f32>, !torch.vtensor<[3,4],f32> -> !torch.vtensor
  return %r : !torch.vtensor
}
