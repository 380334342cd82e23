// RUN: torch-refine-opt %s -split-input-file -verify-diagnostics

// expected-error-re (and -warning-re, -remark-re, -note-re): literal text with {{regex}}
// parts, as MLIR's test suites write them.

func.func @same_line() {
  return %undefined : !torch.int // expected-error-re {{use of undeclared SSA value name{{$}}}}
}

// -----

// expected-note-re @below {{see existing {{[a-z]+}} definition here}}
func.func @twice() {
  return
}
// expected-error-re @+1 {{redefinition of symbol named '{{tw(i|o)ce}}'}}
func.func @twice() {
  return
}

// -----

func.func @literal_parts_are_escaped(%arg0: !torch.int) -> !torch.float {
  // expected-error-re @+1 {{type of return operand 0 ('!torch.int') doesn't match function result type ('{{.*}}')}}
  return %arg0 : !torch.int
}
