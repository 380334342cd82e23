// RUN: torch-refine-opt %s --mlir-print-ir-after-all --pass-pipeline='builtin.module(canonicalize,func.func(cse))' 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// RUN: torch-refine-opt %s --mlir-print-ir-before-all --pass-pipeline='builtin.module(cse)' 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: torch-refine-opt %s --mlir-print-ir-after-all --mlir-print-debuginfo --pass-pipeline='builtin.module(cse)' 2>&1 >/dev/null | filecheck %s --check-prefix=DEBUG

// AFTER: // -----// IR Dump After CanonicalizerPass: canonicalize{{.*}} //----- //
// AFTER-NEXT: module {
// AFTER: // -----// IR Dump After CSEPass: cse //----- //
// AFTER-NEXT: func.func @twice

// BEFORE: // -----// IR Dump Before CSEPass: cse //----- //
// BEFORE-NEXT: module {
// BEFORE-NOT: IR Dump After

// DEBUG: // -----// IR Dump After CSEPass: cse //----- //
// DEBUG: loc({{.*}}print-ir.mlir":{{[0-9]+}}:{{[0-9]+}})

func.func @twice(%arg0: !torch.int) -> !torch.int {
  %0 = torch.aten.add.int %arg0, %arg0 : !torch.int, !torch.int -> !torch.int
  %1 = torch.aten.add.int %arg0, %arg0 : !torch.int, !torch.int -> !torch.int
  %2 = torch.aten.add.int %0, %1 : !torch.int, !torch.int -> !torch.int
  return %2 : !torch.int
}
