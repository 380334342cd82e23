// RUN: not torch-refine-opt %S/Inputs/tabs.mlir 2>&1 | filecheck %s --strict-whitespace --match-full-lines

// A source line with tabs is printed with tabs expanded to stops of 8, as LLVM's SourceMgr
// prints it, and the caret stands under the column the diagnostic names.

// CHECK:{{.*}}tabs.mlir:3:10: error: use of undeclared SSA value name
// CHECK-NEXT:                return %undefined : !torch.int
// CHECK-NEXT:                       ^
