// Pipeline text errors point at their column; none of them prints a traceback.

// RUN: not torch-refine-opt %s --pass-pipeline='builtin.module(cse,no-such-pass)' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: <pass-pipeline>:1:20: error: 'no-such-pass' does not refer to a registered pass or pass pipeline
// UNKNOWN-NEXT: builtin.module(cse,no-such-pass)
// UNKNOWN-NEXT: {{^ {19}\^$}}

// RUN: not torch-refine-opt %s --pass-pipeline='builtin.module(cse, func.func(canonicalize, no-such-pass))' 2>&1 | filecheck %s --check-prefix=NESTED
// NESTED: <pass-pipeline>:1:45: error: 'no-such-pass' does not refer to a registered pass or pass pipeline

// RUN: not torch-refine-opt %s --pass-pipeline='builtin.module(cse,canonicalize{no-such-option=1})' 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION: <pass-pipeline>:1:20: error: no such option no-such-option
// OPTION: <pass-pipeline>:1:20: note: failed to add `canonicalize` with options `no-such-option=1`

// RUN: not torch-refine-opt %s --pass-pipeline='builtin.module(cse,canonicalize{max-iterations=3)' 2>&1 | filecheck %s --check-prefix=BRACE
// BRACE: <pass-pipeline>:1:32: error: missing closing '}' while processing pass options

// RUN: not torch-refine-opt %s --pass-pipeline='builtin.module(cse,func.func(cse)' 2>&1 | filecheck %s --check-prefix=PAREN
// PAREN: <pass-pipeline>:1:15: error: encountered unbalanced parentheses in pipeline

// RUN: not torch-refine-opt %s --pass-pipeline='builtin.module(cse canonicalize)' 2>&1 | filecheck %s --check-prefix=COMMA
// COMMA: <pass-pipeline>:1:20: error: expected ',' or ')' after pipeline element

// RUN: not torch-refine-opt %s --pass-pipeline='builtin.module(cse,)' 2>&1 | filecheck %s --check-prefix=EMPTY
// EMPTY: <pass-pipeline>:1:20: error: expected pass or pipeline name

// RUN: not torch-refine-opt %s --pass-pipeline='func.func(cse)' 2>&1 | filecheck %s --check-prefix=ANCHOR
// ANCHOR: <pass-pipeline>:1:1: error: expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'

// RUN: not torch-refine-opt %s --pass-pipeline='builtin.module(cse) cse' 2>&1 | filecheck %s --check-prefix=TRAILING
// TRAILING: <pass-pipeline>:1:21: error: unexpected text after the pass pipeline

// An option given twice is an error, not a silent override (an injected second
// extra-library would otherwise replace the first).
// RUN: not torch-refine-opt %s --pass-pipeline='builtin.module(torch-refine-pipeline{extra-library=a.mlir extra-library=b.py})' 2>&1 | filecheck %s --check-prefix=TWICE
// TWICE: <pass-pipeline>:1:16: error: option 'extra-library' of pass 'torch-refine-pipeline' is given more than once

// A quote in an --extra-library path stays in the path: the value is quoted, not spliced.
// RUN: not torch-refine-opt %s --extra-library='x.mlir" extra-library="evil.py' --torch-refine-pipeline 2>&1 | filecheck %s --check-prefix=QUOTED
// QUOTED: error: cannot read extra-library 'x.mlir" extra-library="evil.py': No such file or directory

// RUN: not torch-refine-opt %s --no-such-flag 2>&1 | filecheck %s --check-prefix=FLAG
// FLAG: torch-refine-opt: Unknown command line argument '--no-such-flag'.  Try: 'torch-refine-opt --help'
// FLAG-NOT: {{.}}

// COM: An empty pipeline is valid and round-trips the input.
// RUN: torch-refine-opt %s --pass-pipeline='builtin.module()' | filecheck %s --check-prefix=NOOP
// NOOP: func.func @f()

func.func @f() {
  return
}
