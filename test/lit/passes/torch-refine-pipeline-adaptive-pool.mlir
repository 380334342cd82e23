// RUN: torch-refine-opt --split-input-file --torch-refine-pipeline %s | filecheck %s

// torch-mlir's decomposition of an adaptive average pool (--torch-decompose-complex-ops
// on `conv2d(1x1) -> AdaptiveAvgPool2d((7, 1)) -> squeeze(3)`, exported with dynamic
// H and W, then every intermediate type erased): the kernel is `h // 7 + int(bool(h % 7))`
// and `w // 1 + int(bool(w % 1))`, the strides `h // 7` and `w // 1`, under the program's
// own asserts `7 > 6 * (h % 7)` (so `h % 7` is 0 or 1) and `h % 7 == 0 or 7 % (h % 7) ==
// 0`. The first compares sizes the entry has: it moves there and is a fact (guards.py
// `hoist_program_asserts`). With it and the stride's `h // 7 >= 1`, the pooled H is
// `(h - h // 7 - s) // (h // 7) + 1` with `s = h % 7 != 0`, 7 in both cases of `h % 7`
// (ranges.py `quotient_by_ranges`); the pooled W, `(w - w) // w + 1`, is 1. So the
// squeeze of dim 3 is [1,4,7], as PyTorch gives at every h the program accepts.
// CHECK-LABEL: func.func @main(
// CHECK:         torch.aten.floordiv.int %{{.*}}, %int7
// CHECK:         torch.runtime.assert %{{.*}}, "unimplemented: only support cases with fixed stride size."
// CHECK:         torch.aten.convolution
// CHECK-NOT:     only support cases with fixed stride size
// CHECK-NOT:     output size is too small
// CHECK:         torch.aten.avg_pool2d {{.*}} -> !torch.vtensor<[1,4,7,1],f32>
// CHECK:         torch.aten.squeeze.dim {{.*}} -> !torch.vtensor<[1,4,7],f32>
// CHECK-NEXT:    return %{{.*}} : !torch.vtensor<[1,4,7],f32>
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

// -----

// The same decomposition of AdaptiveAvgPool1d(5) after a padded conv1d asserts the
// length is 5: moved to the entry, the equality makes the convolution's length, refined
// before it as `%arg0[2]`, the constant 5 (refined again, not only renamed), and so the
// pool and the squeeze of its channel dim.
// CHECK-LABEL: func.func @adaptive_avg_pool1d(
// CHECK:         torch.runtime.assert %{{.*}}, "unimplemented: only support cases where input and output size are equal for non-unit output size"
// CHECK:         torch.aten.convolution {{.*}} -> !torch.vtensor<[?,1,5],f32>
// CHECK:         torch.aten.avg_pool1d {{.*}} -> !torch.vtensor<[?,1,5],f32>
// CHECK:         torch.aten.squeeze.dim {{.*}} -> !torch.vtensor<[?,5],f32>
func.func @adaptive_avg_pool1d(%arg0: !torch.vtensor<[?,3,?],f32>) -> !torch.vtensor<[?,5],f32> {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %false = torch.constant.bool false
  %int5 = torch.constant.int 5
  %0 = torch.vtensor.literal(dense<5.000000e-01> : tensor<1x3x3xf32>) : !torch.vtensor<[1,3,3],f32>
  %1 = torch.vtensor.literal(dense<0.000000e+00> : tensor<1xf32>) : !torch.vtensor<[1],f32>
  %int1 = torch.constant.int 1
  %2 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %3 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %4 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %5 = torch.prim.ListConstruct  : () -> !torch.list<int>
  %6 = torch.aten.convolution %arg0, %0, %1, %2, %3, %4, %false, %5, %int1 : !torch.vtensor<[?,3,?],f32>, !torch.vtensor<[1,3,3],f32>, !torch.vtensor<[1],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor
  %7 = torch.aten.size.int %6, %int2 : !torch.vtensor, !torch.int -> !torch.int
  %8 = torch.aten.eq.int %7, %int5 : !torch.int, !torch.int -> !torch.bool
  torch.runtime.assert %8, "unimplemented: only support cases where input and output size are equal for non-unit output size"
  %9 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %10 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %11 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %12 = torch.aten.avg_pool1d %6, %9, %10, %11, %false, %true : !torch.vtensor, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool -> !torch.vtensor
  %13 = torch.aten.squeeze.dim %12, %int1 : !torch.vtensor, !torch.int -> !torch.vtensor
  %14 = torch.tensor_static_info_cast %13 : !torch.vtensor to !torch.vtensor<[?,5],f32>
  return %14 : !torch.vtensor<[?,5],f32>
}
