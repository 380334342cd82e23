// The broadcast rule (a broadcast of two dynamic sizes asserts them equal, as torch.export
// does for its dims of at least 2) applies only to sizes that can exceed 1: a slice of a
// one-row bias from `max(0, 1 - q)` (MPT's position bias) is 1 at run time, and an add of
// it to `q` rows broadcasts as PyTorch says, whatever q is.
// RUN: torch-refine-opt --torch-refine-pipeline %s | FileCheck %s

// CHECK-LABEL: func.func @bias_of_one_row
// CHECK-NOT: requires %arg0[0] ==
// CHECK: torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[?,16],f32>
func.func @bias_of_one_row(%x: !torch.vtensor<[?,16],f32>, %bias: !torch.vtensor<[1,16],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %end = torch.constant.int 9223372036854775807
  %q = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,16],f32>, !torch.int -> !torch.int
  %d = torch.aten.sub.int %int1, %q : !torch.int, !torch.int -> !torch.int
  %start = torch.prim.max.int %int0, %d : !torch.int, !torch.int -> !torch.int
  %b = torch.aten.slice.Tensor %bias, %int0, %start, %end, %int1 : !torch.vtensor<[1,16],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %r = torch.aten.add.Tensor %x, %b, %int1 : !torch.vtensor<[?,16],f32>, !torch.vtensor, !torch.int -> !torch.vtensor
  return %r : !torch.vtensor
}
