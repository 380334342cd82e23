module attributes {transform.with_named_sequence} {
  func.func @f() {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %f, "hello remark" : !transform.any_op
    %g = transform.cast %f : !transform.any_op to !transform.op<"func.func">
    transform.yield
  }
}
