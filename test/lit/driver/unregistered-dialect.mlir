// RUN: not torch-refine-opt %s 2>&1 | filecheck %s --check-prefix=REJECT
// RUN: torch-refine-opt %s --allow-unregistered-dialect | filecheck %s --check-prefix=ACCEPT

// REJECT: unregistered-dialect.mlir:10:20: error: operation being parsed with an unregistered dialect
// REJECT-NOT: Traceback

// ACCEPT: %0 = "mystery.op"() : () -> i32

func.func @f() -> i32 {
  %0 = "mystery.op"() : () -> i32
  return %0 : i32
}
