// RUN: torch-refine-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(torch-refine-reify-shape-calculations{extra-library=%S/Inputs/unparsable-library.mlir})'
// RUN: torch-refine-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(torch-refine-reify-shape-calculations{extra-library=%S/Inputs/does-not-exist.mlir})'
// RUN: torch-refine-opt %S/Inputs/reify-mismatch.mlir --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(torch-refine-reify-shape-calculations{extra-library=%S/Inputs/calculation-library.mlir})'

// expected-error@+1 {{extra-library '}}
module {
  func.func @f(%arg0: !torch.vtensor) -> !torch.vtensor {
    %0 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    return %0 : !torch.vtensor
  }
}
