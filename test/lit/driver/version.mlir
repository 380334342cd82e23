// --version names torch-refine's version and those of what it runs on, for a bug report.
// RUN: torch-refine-opt --version | filecheck %s
// CHECK: torch-refine-opt (torch-refine {{[0-9]+\.[0-9]+\.[0-9]+.*}})
// CHECK-NEXT: torch-mlir {{[0-9]+}}
// CHECK-NEXT: torch 2.13
// CHECK-NEXT: python 3.11
