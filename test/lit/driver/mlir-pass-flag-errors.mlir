// A bad option of an MLIR pass given as a flag is reported as in --pass-pipeline: LLVM's
// line once, named as torch-mlir-opt names it, then the located pipeline error; never an
// "Unknown command line argument".
// RUN: not torch-refine-opt %s --canonicalize=max-iterations=x 2>&1 | filecheck %s --check-prefix=FLAG
// FLAG: {{^}}torch-refine-opt: for the --max-iterations option: 'x' value invalid for long argument!
// FLAG-NEXT: <pass-pipeline>:1:16: error: failed to add `canonicalize` with options `max-iterations=x`
// FLAG-NEXT: builtin.module(canonicalize{max-iterations=x})
// FLAG-NEXT: {{^ {15}\^$}}
// FLAG-NOT: {{.}}

// RUN: not torch-refine-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=x})' 2>&1 | filecheck %s --check-prefix=PIPELINE
// PIPELINE: {{^}}torch-refine-opt: for the --max-iterations option: 'x' value invalid for long argument!
// PIPELINE-NEXT: <pass-pipeline>:1:16: error: failed to add `canonicalize` with options `max-iterations=x`
// PIPELINE-NOT: for the

// An unknown option of a pass flag, and of a pass nested on functions.
// RUN: not torch-refine-opt %s --canonicalize=no-such-option=1 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION: <pass-pipeline>:1:16: error: no such option no-such-option
// OPTION-NOT: Unknown command line argument
// RUN: not torch-refine-opt %s --affine-loop-tile=no-such-option=1 2>&1 | filecheck %s --check-prefix=NESTED
// NESTED: <pass-pipeline>:1:{{[0-9]+}}: error: no such option no-such-option
// NESTED-NEXT: builtin.module(func.func(affine-loop-tile{no-such-option=1}))
// NESTED-NOT: Unknown command line argument

// A good option still runs.
// RUN: torch-refine-opt %s --canonicalize=max-iterations=2 | filecheck %s --check-prefix=GOOD
// GOOD: func.func @f()

func.func @f() {
  return
}
