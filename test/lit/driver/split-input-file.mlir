// RUN: torch-refine-opt %s -split-input-file | filecheck %s
// RUN: not torch-refine-opt %S/Inputs/split-error-in-second-chunk.mlir --split-input-file 2>&1 | filecheck %s --check-prefix=ERR
// RUN: not torch-refine-opt %S/Inputs/split-error-in-second-chunk.mlir --split-input-file 2>/dev/null | filecheck %s --check-prefix=PARTIAL

// Chunks are printed in order, each as its own module, separated like mlir-opt does.
// CHECK-LABEL: func.func @first
// CHECK: }
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: // -----
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @second
// CHECK: // -----
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @third

// The error is reported at its line in the whole file, not in its chunk.
// ERR: split-error-in-second-chunk.mlir:9:10: error: use of undeclared SSA value name
// ERR-NEXT: return %undefined : !torch.int

// Chunks that parse are still printed; the failing one prints nothing.
// PARTIAL: func.func @ok_before
// PARTIAL: // -----
// PARTIAL-NEXT: // -----
// PARTIAL-NEXT: module {
// PARTIAL-NEXT: func.func @ok_after

func.func @first() {
  return
}

// -----

func.func @second(%arg0: !torch.int) -> !torch.int {
  return %arg0 : !torch.int
}

// -----

func.func @third() {
  %c = torch.constant.int 7
  return
}

