// A list of unranked tensors of one dtype: cat's result has that dtype, and its checks of
// the unranked operands leave no internal attribute behind (they marked the op and its
// checks while the pipeline ran).
// RUN: torch-refine-opt --torch-refine-pipeline %s | FileCheck %s

// CHECK-LABEL: func.func @cat_of_unranked
// CHECK-NOT: torch_refine.
// CHECK: torch.aten.cat {{.*}} -> !torch.vtensor<*,f32>
// CHECK-NOT: torch_refine.
func.func @cat_of_unranked(%a: !torch.vtensor<*,f32>, %b: !torch.vtensor<*,f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<*,f32>, !torch.vtensor<*,f32>) -> !torch.list<vtensor>
  %r = torch.aten.cat %l, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor
  return %r : !torch.vtensor
}
