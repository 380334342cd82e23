// The input comes from stdin or `-`; `-o` writes a file, only when everything succeeded.

// RUN: torch-refine-opt < %s | filecheck %s
// RUN: torch-refine-opt - < %s | filecheck %s
// RUN: torch-refine-opt %s -o %t.out
// RUN: filecheck %s --input-file %t.out
// RUN: torch-refine-opt --mlir-print-debuginfo < %s | filecheck %s --check-prefix=STDIN

// CHECK: func.func @f(%arg0: !torch.int) -> !torch.int
// STDIN: loc("<stdin>":12:1)

func.func @f(%arg0: !torch.int) -> !torch.int {
  return %arg0 : !torch.int
}
