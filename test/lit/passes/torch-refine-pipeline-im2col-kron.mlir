// RUN: torch-refine-opt --split-input-file --pass-pipeline='builtin.module(torch-refine-pipeline{keep-symbolic-dims=true meta-fallback=false})' %s | filecheck %s

// im2col (ConvBERT's unfold) and kron have library functions (library/long_tail.py):
// PyTorch's fake kernels pin a dynamic size to its example value, so the meta fallback
// claims no size of them; the functions give every dim as an expression of the operand
// sizes, with meta-fallback off too. test/python/library/test_long_tail_symbolic.py checks
// these expressions against PyTorch at several sizes.

// im2col of [N,4,H,W], kernel [3,2], dilation [1,2], padding [1,0], stride [2,1]: the
// columns are 4*3*2 = 24 and the blocks ((H + 1) // 2) * (W - 2), the quotient a symbol of
// its own; the function's checks (non-empty spatial dims, at least one block per dim) are
// asserts at the entry. The view reads the blocks back: its -1 is 24.
// CHECK-LABEL: func.func @im2col_dynamic(
// CHECK:         torch.runtime.assert %{{.*}}, "aten.im2col: Expected 3D or 4D (batch mode) tensor {{.*}} (requires %arg0[2] != 0)"
// CHECK:         torch.runtime.assert %{{.*}}, "aten.im2col: Expected 3D or 4D (batch mode) tensor {{.*}} (requires %arg0[3] != 0)"
// CHECK:         torch.runtime.assert %{{.*}}, "aten.im2col: Given an input with spatial size {{.*}} (requires (%arg0[2] + 1) // 2 > 0)"
// CHECK:         torch.runtime.assert %{{.*}}, "aten.im2col: Given an input with spatial size {{.*}} (requires %arg0[3] - 2 > 0)"
// CHECK:         torch.aten.im2col {{.*}} {torch_refine.dims = {{\[\["%arg0\[0\]", "24", "%s1\*%arg0\[3\] - 2\*%s1"\]\]}}} {{.*}} -> !torch.vtensor<[?,24,?],f32>
// CHECK:         torch.aten.view {{.*}} {torch_refine.dims = {{\[\["%arg0\[0\]", "%s1\*%arg0\[3\] - 2\*%s1", "24"\]\]}}} {{.*}} -> !torch.vtensor<[?,?,24],f32>
func.func @im2col_dynamic(%arg0: !torch.vtensor<[?,4,?,?],f32>) -> !torch.vtensor {
  %int-1 = torch.constant.int -1
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %kernel = torch.prim.ListConstruct %int3, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %dilation = torch.prim.ListConstruct %int1, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %padding = torch.prim.ListConstruct %int1, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %stride = torch.prim.ListConstruct %int2, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.im2col %arg0, %kernel, %dilation, %padding, %stride : !torch.vtensor<[?,4,?,?],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int> -> !torch.vtensor
  %n = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,4,?,?],f32>, !torch.int -> !torch.int
  %blocks = torch.aten.size.int %0, %int2 : !torch.vtensor, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %n, %blocks, %int-1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.view %0, %sizes : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  return %1 : !torch.vtensor
}

// -----

// Stride 1 on a 3-d input: the blocks are a polynomial, (H - 1) * (W - 1) expanded.
// CHECK-LABEL: func.func @im2col_unbatched(
// CHECK:         torch.aten.im2col {{.*}} {torch_refine.dims = {{\[\["4\*%arg0\[0\]", "%arg0\[1\]\*%arg0\[2\] - %arg0\[1\] - %arg0\[2\] \+ 1"\]\]}}} {{.*}} -> !torch.vtensor<[?,?],f32>
func.func @im2col_unbatched(%arg0: !torch.vtensor<[?,?,?],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %kernel = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %ones = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %zeros = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.im2col %arg0, %kernel, %ones, %zeros, %ones : !torch.vtensor<[?,?,?],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int> -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// kron pads the lower-rank operand with leading 1s: [a,3] and [b,c,5] give
// [b, a*c, 15]; int64 and float16 promote to float16.
// CHECK-LABEL: func.func @kron_dynamic(
// CHECK:         torch.operator "torch.aten.kron"{{.*}} {torch_refine.dims = {{\[\["%arg1\[0\]", "%arg0\[0\]\*%arg1\[1\]", "15"\]\]}}} {{.*}} -> !torch.vtensor<[?,?,15],f16>
func.func @kron_dynamic(%arg0: !torch.vtensor<[?,3],si64>, %arg1: !torch.vtensor<[?,?,5],f16>) -> !torch.vtensor {
  %0 = torch.operator "torch.aten.kron"(%arg0, %arg1) : (!torch.vtensor<[?,3],si64>, !torch.vtensor<[?,?,5],f16>) -> !torch.vtensor
  return %0 : !torch.vtensor
}
