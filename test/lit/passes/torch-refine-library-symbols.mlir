// The library functions one reify pass clones into the module are the next pass's to
// use, in one run and across runs: a clone is recognized by its content (see
// torch-refine-library-symbols-errors.mlir for functions that are not clones).
// RUN: torch-refine-opt %s --torch-refine-reify-shape-calculations --torch-refine-reify-dtype-calculations --torch-refine-inline-library-calls --torch-refine-simplify-shape-calculations --torch-refine-drop-calculations | filecheck %s
// RUN: torch-refine-opt %s --torch-refine-reify-shape-calculations | torch-refine-opt --torch-refine-reify-dtype-calculations --torch-refine-inline-library-calls --torch-refine-simplify-shape-calculations --torch-refine-drop-calculations | filecheck %s

// CHECK-LABEL: func.func @tanh(
// CHECK:         torch.aten.tanh %{{.*}} : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],
// CHECK-NOT:   func.func private
func.func @tanh(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %0 = torch.aten.tanh %arg0 : !torch.vtensor<[2,3],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}
