// An upsampling by scale factors computes each size as `int(float(h) * scale)`. A scale that
// is a power of two only moves the float's exponent, so the size is `2*h` (or `4*h`)
// exactly, as torch.export's ShapeEnv gives it: a max-pool by 2 after an upsampling by 2
// gives back `h`, and adding the input needs no broadcast check. Any other scale (1.5)
// rounds where `1.5*h` is not an integer below 2**53: the size stays a computed one, and the
// add keeps PyTorch's check over it. The input sizes' checks are PyTorch's own (an empty
// image is an error).
// RUN: torch-refine-opt --split-input-file --torch-refine-pipeline %s | FileCheck %s

// CHECK-LABEL: func.func @upsample_by_two_then_pool_by_two
// CHECK: torch.runtime.assert {{.*}} "aten.upsample_nearest2d.vec: upsample_nearest2d: input sizes should be greater than 0 (requires %arg0[2] > 0)"
// CHECK: torch.runtime.assert {{.*}} "aten.upsample_nearest2d.vec: upsample_nearest2d: input sizes should be greater than 0 (requires %arg0[3] > 0)"
// CHECK-NOT: torch.runtime.assert
// CHECK: torch.aten.upsample_nearest2d.vec {{.*}} -> !torch.vtensor<[?,3,?,?],f32>
// CHECK-NOT: torch.runtime.assert
// CHECK: torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[?,3,?,?],f32>
// CHECK-NOT: torch.runtime.assert
// CHECK: return
func.func @upsample_by_two_then_pool_by_two(%x: !torch.vtensor<[?,3,?,?],f32>) -> !torch.vtensor {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %float2 = torch.constant.float 2.000000e+00
  %scales = torch.prim.ListConstruct %float2, %float2 : (!torch.float, !torch.float) -> !torch.list<float>
  %up = torch.aten.upsample_nearest2d.vec %x, %none, %scales : !torch.vtensor<[?,3,?,?],f32>, !torch.none, !torch.list<float> -> !torch.vtensor
  %twos = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %zeros = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %ones = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %pooled = torch.aten.max_pool2d %up, %twos, %twos, %zeros, %ones, %false : !torch.vtensor, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor
  %sum = torch.aten.add.Tensor %pooled, %x, %int1 : !torch.vtensor, !torch.vtensor<[?,3,?,?],f32>, !torch.int -> !torch.vtensor
  return %sum : !torch.vtensor
}

// -----

// CHECK-LABEL: func.func @upsample_by_one_and_a_half_then_pool_by_two
// CHECK: torch.runtime.assert {{.*}} "aten.add.Tensor: The size of tensor a
// CHECK: torch.aten.add.Tensor
func.func @upsample_by_one_and_a_half_then_pool_by_two(%x: !torch.vtensor<[?,3,?,?],f32>) -> !torch.vtensor {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %float = torch.constant.float 1.500000e+00
  %scales = torch.prim.ListConstruct %float, %float : (!torch.float, !torch.float) -> !torch.list<float>
  %up = torch.aten.upsample_nearest2d.vec %x, %none, %scales : !torch.vtensor<[?,3,?,?],f32>, !torch.none, !torch.list<float> -> !torch.vtensor
  %twos = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %zeros = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %ones = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %pooled = torch.aten.max_pool2d %up, %twos, %twos, %zeros, %ones, %false : !torch.vtensor, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor
  %sum = torch.aten.add.Tensor %pooled, %x, %int1 : !torch.vtensor, !torch.vtensor<[?,3,?,?],f32>, !torch.int -> !torch.vtensor
  return %sum : !torch.vtensor
}
