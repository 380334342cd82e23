// The input comes from stdin or `-`; `-o` writes a file, only when everything succeeded.

// RUN: torch-refine-opt < %s | filecheck %s
// RUN: torch-refine-opt - < %s | filecheck %s
// RUN: torch-refine-opt %s -o %t.out
// RUN: filecheck %s --input-file %t.out
// RUN: torch-refine-opt --mlir-print-debuginfo < %s | filecheck %s --check-prefix=STDIN
// A bare pass flag never takes the input file as its options; options come with `=`.
// RUN: torch-refine-opt --torch-refine-drop-calculations %s | filecheck %s
// RUN: torch-refine-opt %s --torch-refine-drop-calculations=runtime-asserts=false | filecheck %s

// CHECK: func.func @f(%arg0: !torch.int) -> !torch.int
// STDIN: loc("<stdin>":15:1)

func.func @f(%arg0: !torch.int) -> !torch.int {
  return %arg0 : !torch.int
}
