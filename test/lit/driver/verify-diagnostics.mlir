// RUN: torch-refine-opt %s -split-input-file -verify-diagnostics
// RUN: torch-refine-opt %s -split-input-file -verify-diagnostics | filecheck %s

// Every expectation form: same line, @+N, @-N, @above, @below; errors, warnings and
// notes, from the parser and from the verifier. Chunks that verify are still printed.

// CHECK: func.func @fine

func.func @fine() {
  return
}

// -----

func.func @same_line() {
  return %undefined : !torch.int // expected-error {{use of undeclared SSA value name}}
}

// -----

// expected-note @below {{see existing symbol definition here}}
func.func @twice() {
  return
}
// expected-error @+1 {{redefinition of symbol named 'twice'}}
func.func @twice() {
  return
}

// -----

func.func @above(%arg0: !torch.int) -> !torch.float {
  return %arg0 : !torch.int
  // expected-error @above {{type of return operand 0 ('!torch.int') doesn't match}}
}

// -----

func.func @minus(%arg0: !torch.int) -> !torch.float {
  return %arg0 : !torch.int
  // A plain comment in between.
  // expected-error @-2 {{doesn't match function result type ('!torch.float')}}
}

// -----

// The Python bindings' parser warns about resources nobody handles (mlir-opt keeps them).
func.func @warned() {
  return
}
{-#
  external_resources: {
    // expected-warning @below {{ignoring unknown external resources for 'nobody_handles_this'}}
    nobody_handles_this: {
      key: "x"
    }
  }
#-}
