// RUN: not torch-refine-opt %s -split-input-file -verify-diagnostics 2>&1 | filecheck %s

// Mismatches are reported in mlir-opt's words, at the diagnostic or at the expectation.

// CHECK: verify-diagnostics-mismatch.mlir:14:10: error: unexpected error: use of undeclared SSA value name
// CHECK: verify-diagnostics-mismatch.mlir:12:6: error: expected error "a different message" was not produced
// CHECK: verify-diagnostics-mismatch.mlir:22:4: error: 'error' diagnostic emitted when expecting a 'warning'
// CHECK: verify-diagnostics-mismatch.mlir:19:1: error: unexpected note: see existing symbol definition here
// CHECK: verify-diagnostics-mismatch.mlir:22:4: error: expected warning "redefinition of symbol" was not produced

func.func @wrong_message() {
  // expected-error @below {{a different message}}
  %0 = torch.constant.int 1
  return %undefined : !torch.int
}

// -----

func.func @wrong_kind() {
  return
}
// expected-warning @below {{redefinition of symbol}}
func.func @wrong_kind() {
  return
}
