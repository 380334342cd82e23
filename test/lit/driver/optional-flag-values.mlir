// A flag whose value is optional takes it only after `=`, as in mlir-opt: the input file
// that follows is the input (it was read as the flag's value, or stdin was read instead).

// RUN: torch-refine-opt --split-input-file %s --torch-refine-pipeline < /dev/null | filecheck %s
// RUN: torch-refine-opt -split-input-file -verify-diagnostics %s --torch-refine-pipeline < /dev/null | filecheck %s
// RUN: not torch-refine-opt --mlir-print-op-on-diagnostic %s --verify-each %s --torch-refine-pipeline < /dev/null 2>&1 | filecheck %s --check-prefix=TWO-INPUTS
// RUN: torch-refine-opt --verify-each %s --torch-refine-pipeline < /dev/null | filecheck %s --check-prefix=ONE
// RUN: torch-refine-opt --verify-each=false --split-input-file=// %s --torch-refine-pipeline < /dev/null | filecheck %s --check-prefix=ONE

// CHECK-LABEL: func.func @first(
// CHECK: torch.aten.tanh {{.*}} -> !torch.vtensor<[2],f32>
// CHECK: // -----
// CHECK-LABEL: func.func @second(
// CHECK: torch.aten.relu {{.*}} -> !torch.vtensor<[3],f32>

// TWO-INPUTS: torch-refine-opt: Too many positional arguments specified!

// ONE: func.func @first(
// ONE: func.func @second(

func.func @first(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor {
  %0 = torch.aten.tanh %a : !torch.vtensor<[2],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

func.func @second(%a: !torch.vtensor<[3],f32>) -> !torch.vtensor {
  %0 = torch.aten.relu %a : !torch.vtensor<[3],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}
