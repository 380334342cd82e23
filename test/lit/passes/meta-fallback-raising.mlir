// RUN: torch-refine-opt %s --pass-pipeline='builtin.module(torch-refine-pipeline{broadcast-equal=true})' | filecheck %s --check-prefixes=CHECK,EQUAL
// RUN: torch-refine-opt %s --pass-pipeline='builtin.module(torch-refine-pipeline)' | filecheck %s --check-prefixes=CHECK,EVERY

// PyTorch's kernel raises at the example size (31) after one guard (`a != 3`): it raises
// wherever that holds, so the fallback asserts `a == 3`, a check (kept with
// the default too), and types the result as the kernel does at a = 3.
// CHECK-LABEL: func.func @square
// CHECK: torch.runtime.assert {{.*}}, "torch.aten.linalg_inv: PyTorch's meta kernel assumes it (requires %arg0[0] == 3)"
// CHECK: torch.operator "torch.aten.linalg_inv"{{.*}} -> !torch.vtensor<[3,3],f32>
func.func @square(%x: !torch.vtensor<[?,3],f32>) -> !torch.vtensor {
  %0 = torch.operator "torch.aten.linalg_inv"(%x) : (!torch.vtensor<[?,3],f32>) -> !torch.vtensor
  return %0 : !torch.vtensor
}

// A branch is no check: squeeze's `a != 1` is asserted only where broadcast-equal
// (torch.export's rule) lets dynamic sizes be assumed other than 1; by default `a` may be
// 1 (no range excludes it), and the rank stays unknown.
// CHECK-LABEL: func.func @squeeze
// EQUAL: torch.runtime.assert {{.*}} "torch.aten.squeeze_copy: PyTorch's meta kernel assumes it (requires %arg0[0] != 1)"
// EQUAL: torch.operator "torch.aten.squeeze_copy"{{.*}} -> !torch.vtensor<[?,3],f32>
// EVERY-NOT: torch.runtime.assert
// EVERY: torch.operator "torch.aten.squeeze_copy"{{.*}} -> !torch.vtensor<*,f32>
func.func @squeeze(%x: !torch.vtensor<[?,3],f32>) -> !torch.vtensor {
  %0 = torch.operator "torch.aten.squeeze_copy"(%x) : (!torch.vtensor<[?,3],f32>) -> !torch.vtensor
  return %0 : !torch.vtensor
}
