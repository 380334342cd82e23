// --extra-library=FILE gives every torch-refine pass that takes `extra-library` its
// default: an MLIR file of library functions, or a Python file of decorated functions
// compiled at run time. Both refine the custom op `mylib.double_last` alike.

// RUN: torch-refine-opt %s --extra-library=%S/Inputs/extra-library.mlir --torch-refine-shape-pipeline | filecheck %s --check-prefix=MLIR
// RUN: torch-refine-opt %s --extra-library=%S/Inputs/extra_library.py --torch-refine-pipeline | filecheck %s --check-prefix=PY
// An option given to the pass itself wins over the flag.
// RUN: torch-refine-opt %s --extra-library=%S/Inputs/no-such-file.mlir --pass-pipeline='builtin.module(torch-refine-shape-pipeline{extra-library=%S/Inputs/extra-library.mlir})' | filecheck %s --check-prefix=MLIR

// MLIR-LABEL: func.func @double_last(
// MLIR:         torch.operator "mylib.double_last"(%{{.*}}) : (!torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3,8],unk>

// PY-LABEL: func.func @double_last(
// PY:         torch.operator "mylib.double_last"(%{{.*}}) : (!torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3,8],f32>
// PY:         torch.aten.tanh %{{.*}} : !torch.vtensor<[3,8],f32> -> !torch.vtensor<[3,8],f32>
func.func @double_last(%arg0: !torch.vtensor<[3,4],f32>) -> !torch.vtensor {
  %0 = torch.operator "mylib.double_last"(%arg0) : (!torch.vtensor<[3,4],f32>) -> !torch.vtensor
  %1 = torch.aten.tanh %0 : !torch.vtensor -> !torch.vtensor
  return %1 : !torch.vtensor
}
