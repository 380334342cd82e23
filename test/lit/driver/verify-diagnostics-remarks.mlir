// RUN: torch-refine-opt %s -verify-diagnostics --pass-pipeline='builtin.module(transform-interpreter)' | filecheck %s

// Remarks emitted by a pass (the transform interpreter) are matched too.
// CHECK: transform.named_sequence @__transform_main

module attributes {transform.with_named_sequence} {
  func.func @f() {
    %0 = torch.constant.int 1
    // expected-remark @above {{on the constant}}
    // expected-remark @below {{on the return}}
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %constants = transform.structured.match ops{["torch.constant.int"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %constants, "on the constant" : !transform.any_op
    %returns = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %returns, "on the return" : !transform.any_op
    transform.yield
  }
}
