// RUN: not torch-refine-opt %s -verify-diagnostics 2>&1 | filecheck %s

// An expected-*-re whose regex does not compile is an error at the comment.

// CHECK: verify-diagnostics-bad-regex.mlir:[[# @LINE + 2]]:6: error: invalid regex: missing ), unterminated subpattern
func.func @bad_regex() {
  // expected-error-re @+1 {{use of {{(undeclared}} SSA value}}
  return %undefined : !torch.int
}
