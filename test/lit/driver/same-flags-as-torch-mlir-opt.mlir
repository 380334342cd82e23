// Flags whose output is byte-identical to torch-mlir-opt's for C++ passes.

// RUN: torch-refine-opt %s --emit-bytecode -o %t.ours.mlirbc
// RUN: torch-mlir-opt %s --emit-bytecode -o %t.theirs.mlirbc
// RUN: diff %t.ours.mlirbc %t.theirs.mlirbc
// RUN: torch-refine-opt %s --emit-bytecode --emit-bytecode-producer=my-compiler -o %t.ours-producer.mlirbc
// RUN: torch-mlir-opt %s --emit-bytecode --emit-bytecode-producer=my-compiler -o %t.theirs-producer.mlirbc
// RUN: diff %t.ours-producer.mlirbc %t.theirs-producer.mlirbc
// RUN: torch-refine-opt %s --emit-bytecode --emit-bytecode-version=1 --emit-bytecode-producer=x -o %t.ours-v1.mlirbc
// RUN: torch-mlir-opt %s --emit-bytecode --emit-bytecode-version=1 --emit-bytecode-producer=x -o %t.theirs-v1.mlirbc
// RUN: diff %t.ours-v1.mlirbc %t.theirs-v1.mlirbc
// Bytecode input reads as text input does.
// RUN: torch-refine-opt %t.theirs.mlirbc -p 'builtin.module(canonicalize)' > %t.ours
// RUN: torch-mlir-opt %t.theirs.mlirbc -p 'builtin.module(canonicalize)' > %t.theirs
// RUN: diff %t.ours %t.theirs
// RUN: torch-refine-opt %s --mlir-elide-elementsattrs-if-larger=2 > %t.ours-elided
// RUN: torch-mlir-opt %s --mlir-elide-elementsattrs-if-larger=2 > %t.theirs-elided
// RUN: diff %t.ours-elided %t.theirs-elided
// RUN: torch-refine-opt %s -p 'builtin.module(canonicalize,func.func(cse))' --dump-pass-pipeline -o /dev/null 2> %t.ours-dump
// RUN: torch-mlir-opt %s -p 'builtin.module(canonicalize,func.func(cse))' --dump-pass-pipeline -o /dev/null 2> %t.theirs-dump
// RUN: diff %t.ours-dump %t.theirs-dump
// An empty input is an empty module.
// RUN: torch-refine-opt %S/Inputs/empty.mlir > %t.ours-empty
// RUN: torch-mlir-opt %S/Inputs/empty.mlir > %t.theirs-empty
// RUN: diff %t.ours-empty %t.theirs-empty
// RUN: torch-refine-opt %s --verify-roundtrip -p 'any(canonicalize)' > %t.ours-any
// RUN: torch-mlir-opt %s --verify-roundtrip -p 'any(canonicalize)' > %t.theirs-any
// RUN: diff %t.ours-any %t.theirs-any
// One flag per C++ pass or pipeline, with options, nested under func.func when needed.
// RUN: torch-refine-opt %s --canonicalize=max-iterations=2 --cse --torch-shape-refinement-pipeline > %t.ours-flags
// RUN: torch-mlir-opt %s --canonicalize=max-iterations=2 --cse --torch-shape-refinement-pipeline > %t.theirs-flags
// RUN: diff %t.ours-flags %t.theirs-flags
// RUN: torch-refine-opt %s --no-implicit-module > %t.ours-explicit
// RUN: torch-mlir-opt %s --no-implicit-module > %t.theirs-explicit
// RUN: diff %t.ours-explicit %t.theirs-explicit
// RUN: not torch-refine-opt %S/Inputs/split-marker.mlir --no-implicit-module 2>&1 | filecheck %s --check-prefix=EXPLICIT
// EXPLICIT: split-marker.mlir:0:0: error: source must contain a single top-level operation, found: 2
// Flags match exactly: no abbreviations.
// RUN: not torch-refine-opt %s --mlir-print-debug 2>&1 | filecheck %s --check-prefix=ABBREV
// ABBREV: torch-refine-opt: Unknown command line argument '--mlir-print-debug'.  Try: 'torch-refine-opt --help'
// ABBREV-NEXT: torch-refine-opt: Did you mean '--mlir-print-debuginfo'?
// ABBREV-NOT: usage

func.func @forward() -> !torch.vtensor<[4],f32> {
  %0 = torch.vtensor.literal(dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>) : !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}
