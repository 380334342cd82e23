// --help lists each torch-refine pass with its description and, one a line, each option
// with its type, default and help, as mlir-opt --help does; --list-passes the same.
// RUN: torch-refine-opt --help | filecheck %s
// RUN: torch-refine-opt --list-passes | filecheck %s --check-prefix=LIST

// CHECK: torch-refine passes and pipelines:
// CHECK: --torch-refine-pipeline [OPTIONS]
// CHECK-NEXT: Refine shapes and dtypes
// CHECK-NEXT: --extra-library=<str> (default ""): a file of extra shape and dtype functions
// CHECK: --max-iterations=<int> (default 10): rounds of refinement
// CHECK: --explain=<bool> (default false): say why values stay unknown or partial

// LIST: Passes:
// LIST: --torch-refine-drop-calculations {{ *}}-   Replace calculate ops
// LIST-NEXT: --runtime-asserts=<bool> (default true): keep undecided library checks as torch.runtime.assert

// An unknown flag: two lines, with the closest flag this driver has.
// RUN: not torch-refine-opt %s --torch-refine-pipline 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: torch-refine-opt: Unknown command line argument '--torch-refine-pipline'.  Try: 'torch-refine-opt --help'
// UNKNOWN-NEXT: torch-refine-opt: Did you mean '--torch-refine-pipeline'?
// UNKNOWN-NOT: {{.}}
