// RUN: torch-refine-opt --torch-refine-pipeline %s | filecheck %s

// torch-mlir's decomposition of an adaptive average pool (--torch-decompose-complex-ops
// on `conv2d(1x1) -> AdaptiveAvgPool2d((7, 1)) -> squeeze(3)`, exported with dynamic
// H and W, then every intermediate type erased): the kernel is `h // 7 + int(bool(h % 7))`
// and `w // 1 + int(bool(w % 1))`, the strides `h // 7` and `w // 1`. `bool(w % 1)` is
// `w % 1 != 0`, which is 0: the pooled W is `(w - w) // w + 1`, 1, and the squeeze of
// dim 3 keeps its rank. The pooled H stays `?`: it is 7 only under the program's own
// asserts `7 > 6 * (h % 7)` (after the convolution, so no fact; issue 41).
// CHECK-LABEL: func.func @main(
// CHECK:         torch.aten.avg_pool2d {{.*}} -> !torch.vtensor<[1,4,?,1],f32>
// CHECK-NOT:     output size is too small
// CHECK:         torch.aten.squeeze.dim {{.*}} -> !torch.vtensor<[1,4,?],f32>
func.func @main(%arg0: !torch.vtensor<[1,3,?,?],f32>) -> !torch.vtensor<[1,4,7],f32> {
  %int6 = torch.constant.int 6
  %none = torch.constant.none
  %true = torch.constant.bool true
  %int2 = torch.constant.int 2
  %false = torch.constant.bool false
  %int3 = torch.constant.int 3
  %int7 = torch.constant.int 7
  %int0 = torch.constant.int 0
  %0 = torch.vtensor.literal(dense<5.000000e-01> : tensor<4x3x1x1xf32>) : !torch.vtensor<[4,3,1,1],f32>
  %1 = torch.vtensor.literal(dense<0.000000e+00> : tensor<4xf32>) : !torch.vtensor<[4],f32>
  %int1 = torch.constant.int 1
  %2 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %3 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %4 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %5 = torch.prim.ListConstruct  : () -> !torch.list<int>
  %6 = torch.aten.convolution %arg0, %0, %1, %2, %3, %4, %false, %5, %int1 : !torch.vtensor<[1,3,?,?],f32>, !torch.vtensor<[4,3,1,1],f32>, !torch.vtensor<[4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor
  %7 = torch.aten.size.int %6, %int2 : !torch.vtensor, !torch.int -> !torch.int
  %8 = torch.aten.size.int %6, %int3 : !torch.vtensor, !torch.int -> !torch.int
  %9 = torch.aten.remainder.int %7, %int7 : !torch.int, !torch.int -> !torch.int
  %10 = torch.aten.mul.int %9, %int6 : !torch.int, !torch.int -> !torch.int
  %11 = torch.aten.gt.int %int7, %10 : !torch.int, !torch.int -> !torch.bool
  torch.runtime.assert %11, "unimplemented: only support cases with fixed stride size."
  %12 = torch.aten.eq.int %9, %int0 : !torch.int, !torch.int -> !torch.bool
  %13 = torch.aten.Bool.int %9 : !torch.int -> !torch.bool
  %14 = torch.aten.__not__ %13 : !torch.bool -> !torch.bool
  %15 = torch.aten.Int.bool %14 : !torch.bool -> !torch.int
  %16 = torch.aten.add.int %9, %15 : !torch.int, !torch.int -> !torch.int
  %17 = torch.aten.remainder.int %int7, %16 : !torch.int, !torch.int -> !torch.int
  %18 = torch.aten.eq.int %17, %int0 : !torch.int, !torch.int -> !torch.bool
  %19 = torch.aten.__or__.bool %12, %18 : !torch.bool, !torch.bool -> !torch.bool
  torch.runtime.assert %19, "unimplemented: only support cases with fixed kernel size."
  %20 = torch.aten.floordiv.int %7, %int7 : !torch.int, !torch.int -> !torch.int
  %21 = torch.aten.floordiv.int %7, %int7 : !torch.int, !torch.int -> !torch.int
  %22 = torch.aten.Bool.int %9 : !torch.int -> !torch.bool
  %23 = torch.aten.Int.bool %22 : !torch.bool -> !torch.int
  %24 = torch.aten.add.int %21, %23 : !torch.int, !torch.int -> !torch.int
  %25 = torch.aten.remainder.int %8, %int1 : !torch.int, !torch.int -> !torch.int
  torch.runtime.assert %true, "unimplemented: only support cases with fixed stride size."
  %26 = torch.aten.eq.int %25, %int0 : !torch.int, !torch.int -> !torch.bool
  %27 = torch.aten.Bool.int %25 : !torch.int -> !torch.bool
  %28 = torch.aten.__not__ %27 : !torch.bool -> !torch.bool
  %29 = torch.aten.Int.bool %28 : !torch.bool -> !torch.int
  %30 = torch.aten.add.int %25, %29 : !torch.int, !torch.int -> !torch.int
  %31 = torch.aten.remainder.int %int1, %30 : !torch.int, !torch.int -> !torch.int
  %32 = torch.aten.eq.int %31, %int0 : !torch.int, !torch.int -> !torch.bool
  %33 = torch.aten.__or__.bool %26, %32 : !torch.bool, !torch.bool -> !torch.bool
  torch.runtime.assert %33, "unimplemented: only support cases with fixed kernel size."
  %34 = torch.aten.floordiv.int %8, %int1 : !torch.int, !torch.int -> !torch.int
  %35 = torch.aten.floordiv.int %8, %int1 : !torch.int, !torch.int -> !torch.int
  %36 = torch.aten.Bool.int %25 : !torch.int -> !torch.bool
  %37 = torch.aten.Int.bool %36 : !torch.bool -> !torch.int
  %38 = torch.aten.add.int %35, %37 : !torch.int, !torch.int -> !torch.int
  %39 = torch.prim.ListConstruct %24, %38 : (!torch.int, !torch.int) -> !torch.list<int>
  %40 = torch.prim.ListConstruct %20, %34 : (!torch.int, !torch.int) -> !torch.list<int>
  %41 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %42 = torch.aten.avg_pool2d %6, %39, %40, %41, %false, %true, %none : !torch.vtensor, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor
  %43 = torch.aten.squeeze.dim %42, %int3 : !torch.vtensor, !torch.int -> !torch.vtensor
  %44 = torch.tensor_static_info_cast %43 : !torch.vtensor to !torch.vtensor<[1,4,7],f32>
  return %44 : !torch.vtensor<[1,4,7],f32>
}
