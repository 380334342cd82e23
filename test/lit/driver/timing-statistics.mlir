// --mlir-timing nests the stages of torch-refine-pipeline under its line; the report keeps
// mlir-opt's layout (Parser, the passes, Output, Rest, Total).

// RUN: torch-refine-opt %s --torch-refine-pipeline --mlir-timing -o /dev/null 2>&1 | filecheck %s --check-prefix=TREE
// RUN: torch-refine-opt %s --torch-refine-pipeline --mlir-timing --mlir-timing-display=list -o /dev/null 2>&1 | filecheck %s --check-prefix=LIST
// RUN: torch-refine-opt %s --pass-pipeline='builtin.module(canonicalize,torch-refine-pipeline)' --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS
// RUN: not torch-refine-opt %s --torch-refine-pipeline --mlir-timing-display=bogus 2>&1 | filecheck %s --check-prefix=BAD

// TREE:      ... Execution time report ...
// TREE:      Total Execution Time: {{[0-9.]+}} seconds
// TREE:      ----Wall Time----  ----Name----
// TREE-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Parser
// TREE-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  RefinePipeline
// TREE-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)    load library
// TREE-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)    round 1
// TREE-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)      shape
// TREE-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)        evaluate
// TREE-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)        reify
// TREE-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)        simplify
// TREE-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)          inline
// TREE-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)        drop
// TREE-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)      dtype
// TREE:      {{[0-9.]+}} ({{ *[0-9.]+}}%)      propagate
// TREE-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)    cleanup
// TREE-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Output
// TREE-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Rest
// TREE-NEXT: {{[0-9.]+}} (100.0%)  Total

// LIST:      ----Wall Time----  ----Name----
// LIST-NEXT: {{[0-9.]+}} (100.0%)  root
// LIST-DAG:  {{[0-9.]+}} ({{ *[0-9.]+}}%)  simplify
// LIST-DAG:  {{[0-9.]+}} ({{ *[0-9.]+}}%)  round 1
// LIST:      {{[0-9.]+}} ({{ *[0-9.]+}}%)  Rest
// LIST-NEXT: {{[0-9.]+}} (100.0%)  Total

// STATS:      ... Pass statistics report ...
// STATS:      RefinePipeline
// STATS-NEXT:   (S) 2 calculations-simplified - Calculations simplified
// STATS-NEXT:   (S) 0 guards-kept             - Library checks kept as torch.runtime.assert
// STATS-NEXT:   (S) 0 memo-hits               - Ops refined from the memo of an equal earlier op
// STATS-NEXT:   (S) 2 ops-evaluated           - Ops refined by running their library function on constants
// STATS-NEXT:   (S) 2 ops-wrapped             - Ops whose calculation was wrapped from the library
// STATS-NEXT:   (S) {{[0-9]+}} types-refined           - Result types refined

// BAD: argument --mlir-timing-display: invalid choice: 'bogus'

// The static tanh is evaluated; the other one's operand has no known rank or dtype, so
// both of its calculations are built, simplified and dropped in the IR.
func.func @forward(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor) -> (!torch.vtensor, !torch.vtensor) {
  %0 = torch.aten.tanh %arg0 : !torch.vtensor<[2,3],f32> -> !torch.vtensor
  %1 = torch.aten.tanh %arg1 : !torch.vtensor -> !torch.vtensor
  return %0, %1 : !torch.vtensor, !torch.vtensor
}
