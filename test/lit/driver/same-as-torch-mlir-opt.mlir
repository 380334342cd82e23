// For a pipeline of C++ passes the output is byte-identical to torch-mlir-opt's.

// RUN: torch-refine-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(canonicalize,cse),symbol-dce)' > %t.ours
// RUN: torch-mlir-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(canonicalize,cse),symbol-dce)' > %t.theirs
// RUN: diff %t.ours %t.theirs
// RUN: torch-refine-opt %s -split-input-file --mlir-print-debuginfo > %t.ours-debug
// RUN: torch-mlir-opt %s -split-input-file --mlir-print-debuginfo > %t.theirs-debug
// RUN: diff %t.ours-debug %t.theirs-debug

func.func @forward(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int1 = torch.constant.int 1
  %int1_0 = torch.constant.int 1
  %0 = torch.aten.add.Tensor %arg0, %arg0, %int1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.int -> !torch.vtensor<[2,3],f32>
  %1 = torch.aten.add.Tensor %arg0, %arg0, %int1_0 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.int -> !torch.vtensor<[2,3],f32>
  %2 = torch.aten.mul.Tensor %0, %1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],f32>
  return %2 : !torch.vtensor<[2,3],f32>
}
func.func private @unused() {
  return
}

// -----

module {
  func.func @in_an_explicit_module(%arg0: !torch.int) -> !torch.int {
    %int0 = torch.constant.int 0
    %0 = torch.aten.add.int %arg0, %int0 : !torch.int, !torch.int -> !torch.int
    return %0 : !torch.int
  }
}
