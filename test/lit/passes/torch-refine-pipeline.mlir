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
