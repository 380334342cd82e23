// An op located only by a name (torch-mlir's ONNX importer names each op after its ONNX
// node, with no file position) is reported under that name, as MLIR prints the location.
// RUN: not torch-refine-opt --torch-refine-pipeline %s 2>&1 | filecheck %s

// CHECK: loc("/mm/MatMul"): error: 'torch.aten.mm' op shape check failed: AssertionError: Matrix dimensions don't match for mm: self[1]=3, mat2[0]=4
// CHECK-NOT: <unknown>
func.func @main(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[4,5],f32>) -> !torch.vtensor {
  %0 = torch.aten.mm %a, %b : !torch.vtensor<[2,3],f32>, !torch.vtensor<[4,5],f32> -> !torch.vtensor loc(#loc1)
  return %0 : !torch.vtensor
}
#loc1 = loc("/mm/MatMul")
