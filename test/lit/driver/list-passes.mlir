// --list-passes and --help list every pass the driver runs by name, as mlir-opt lists
// its registry: torch-refine's first, then those torch-mlir and upstream MLIR register
// (described where the wheel's torch-mlir-opt describes them), then their pipelines.
// RUN: torch-refine-opt --list-passes | filecheck %s
// CHECK: Passes:
// CHECK-NEXT: --torch-refine-backend-pipeline {{ *}}-   Refine
// CHECK: --torch-refine-pipeline {{ *}}-   Refine shapes and dtypes
// CHECK: --canonicalize {{ *}}-   Canonicalize operations
// CHECK-NEXT: --cse-between-iterations {{ *}}- Run full CSE
// CHECK: --convert-linalg-to-loops {{ *}}-
// CHECK: --cse {{ *}}-   Eliminate common sub-expressions
// CHECK: --one-shot-bufferize {{ *}}-
// CHECK-NEXT: --allow-return-allocs-from-loops {{ *}}- (default false)
// CHECK: --torch-reify-shape-calculations {{ *}}-
// CHECK: Pass Pipelines:
// CHECK: --torch-shape-refinement-pipeline {{ *}}-   Pipeline refining shapes of tensors.
// CHECK-NEXT: --allow-non-finites

// One column, wide enough for the longest name: no name runs into its description.
// RUN: torch-refine-opt --list-passes | filecheck %s --check-prefix=COLUMN
// COLUMN-NOT: {{^ *--[^ ]+-   }}
// COLUMN: --torch-drop-abstract-interp-calculations {{ +}}-   Drop
// COLUMN-NOT: {{^ *--[^ ]+-   }}

// RUN: torch-refine-opt --help | filecheck %s --check-prefix=HELP
// HELP: torch-refine passes and pipelines:
// HELP: --torch-refine-pipeline [OPTIONS]
// HELP: MLIR's and torch-mlir's passes (as flags or in --pass-pipeline):
// HELP: --canonicalize {{ *}}-   Canonicalize operations
// HELP: --convert-linalg-to-loops {{ *}}-
// HELP: Pass Pipelines:
// HELP: --torch-shape-refinement-pipeline {{ *}}-

// What is listed runs as a flag, a pass MLIR registers that torch-mlir-opt does not
// describe too.
// RUN: torch-refine-opt %s --convert-linalg-to-loops --cse | filecheck %s --check-prefix=RUNS
// RUNS: func.func @f()

func.func @f() {
  return
}
