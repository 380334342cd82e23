// RUN: torch-refine-opt --split-input-file --torch-refine-pipeline %s | filecheck %s

// A size computed from the data is `?`; the dims the data cannot change stay static, and
// ops downstream keep them.
// CHECK-LABEL: func.func @nonzero(
// CHECK:         %[[NZ:.*]] = torch.aten.nonzero %arg0 : !torch.vtensor<[3,4],f32> -> !torch.vtensor<[?,2],si64>
// CHECK:         torch.aten.transpose.int %[[NZ]], {{.*}} -> !torch.vtensor<[2,?],si64>
// CHECK:         torch.aten.mm %[[NZ]], %arg1 : {{.*}} -> !torch.vtensor<[?,5],si64>
func.func @nonzero(%arg0: !torch.vtensor<[3,4],f32>, %arg1: !torch.vtensor<[2,5],si64>) -> (!torch.vtensor, !torch.vtensor) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %nz = torch.aten.nonzero %arg0 : !torch.vtensor<[3,4],f32> -> !torch.vtensor
  %t = torch.aten.transpose.int %nz, %int0, %int1 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %mm = torch.aten.mm %nz, %arg1 : !torch.vtensor, !torch.vtensor<[2,5],si64> -> !torch.vtensor
  return %t, %mm : !torch.vtensor, !torch.vtensor
}

// -----

// Broadcasting the unknown count against 7 may fail or not: no compile-time error. The
// count may be 1 (a size's range holds it), so the check is PyTorch's own, `count == 7 or
// count == 1`, asserted in front of the op; either way the sum is [7,2].
// CHECK-LABEL: func.func @unknown_count_check_is_undecided(
// CHECK:         torch.runtime.assert %{{.*}}, "aten.add.Tensor: {{.*}} (requires %s[[N:[0-9]+]] == 7 or %s[[N]] == 1)"
// CHECK:         torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[7,2],si64>
func.func @unknown_count_check_is_undecided(%arg0: !torch.vtensor<[3,4],f32>, %arg1: !torch.vtensor<[7,2],si64>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %nz = torch.aten.nonzero %arg0 : !torch.vtensor<[3,4],f32> -> !torch.vtensor
  %add = torch.aten.add.Tensor %nz, %arg1, %int1 : !torch.vtensor, !torch.vtensor<[7,2],si64>, !torch.int -> !torch.vtensor
  return %add : !torch.vtensor
}

// -----

// CHECK-LABEL: func.func @masked_select(
// CHECK:         torch.aten.masked_select {{.*}} -> !torch.vtensor<[?],f32>
func.func @masked_select(%arg0: !torch.vtensor<[3,4],f32>, %arg1: !torch.vtensor<[4],i1>) -> !torch.vtensor {
  %0 = torch.aten.masked_select %arg0, %arg1 : !torch.vtensor<[3,4],f32>, !torch.vtensor<[4],i1> -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Unique rows: their count is unknown, the inverse has one entry per input row.
// CHECK-LABEL: func.func @unique_dim(
// CHECK:         torch.aten.unique_dim {{.*}} -> !torch.vtensor<[?,4],f32>, !torch.vtensor<[3],si64>, !torch.vtensor<[?],si64>
func.func @unique_dim(%arg0: !torch.vtensor<[3,4],f32>) -> (!torch.vtensor, !torch.vtensor, !torch.vtensor) {
  %int0 = torch.constant.int 0
  %true = torch.constant.bool true
  %0:3 = torch.aten.unique_dim %arg0, %int0, %true, %true, %true : !torch.vtensor<[3,4],f32>, !torch.int, !torch.bool, !torch.bool, !torch.bool -> !torch.vtensor, !torch.vtensor, !torch.vtensor
  return %0#0, %0#1, %0#2 : !torch.vtensor, !torch.vtensor, !torch.vtensor
}

// -----

// CHECK-LABEL: func.func @one_hot(
// CHECK:         torch.aten.one_hot %arg0, %{{.*}} -> !torch.vtensor<[3,4,?],si64>
// CHECK:         torch.aten.one_hot %arg0, %{{.*}} -> !torch.vtensor<[3,4,10],si64>
func.func @one_hot(%arg0: !torch.vtensor<[3,4],si64>) -> (!torch.vtensor, !torch.vtensor) {
  %int-1 = torch.constant.int -1
  %int10 = torch.constant.int 10
  %0 = torch.aten.one_hot %arg0, %int-1 : !torch.vtensor<[3,4],si64>, !torch.int -> !torch.vtensor
  %1 = torch.aten.one_hot %arg0, %int10 : !torch.vtensor<[3,4],si64>, !torch.int -> !torch.vtensor
  return %0, %1 : !torch.vtensor, !torch.vtensor
}
