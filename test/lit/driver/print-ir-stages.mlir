// --mlir-print-ir-after-all also prints after each stage of torch-refine-pipeline;
// --mlir-print-ir-after-failure alone prints after the failing pass.

// RUN: torch-refine-opt %s --torch-refine-pipeline --mlir-print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=STAGES
// RUN: not torch-refine-opt %S/Inputs/shape-check-fails.mlir --torch-refine-pipeline --mlir-print-ir-after-failure 2>&1 | filecheck %s --check-prefix=FAILURE
// RUN: torch-refine-opt %s --torch-refine-pipeline --mlir-print-ir-after-all --mlir-print-ir-tree-dir=%t.tree -o /dev/null
// RUN: ls %t.tree/builtin_module_no-symbol-name | filecheck %s --check-prefix=TREE

// STAGES: // -----// IR Dump After RefinePipeline: torch-refine-pipeline (round 1/shape) //----- //
// STAGES: torch.aten.tanh {{.*}} -> !torch.vtensor<[2,3],unk>
// STAGES: // -----// IR Dump After RefinePipeline: torch-refine-pipeline (round 1/dtype) //----- //
// STAGES: torch.aten.tanh {{.*}} -> !torch.vtensor<[2,3],f32>
// STAGES: // -----// IR Dump After RefinePipeline: torch-refine-pipeline (round 1/propagate) //----- //
// STAGES: // -----// IR Dump After RefinePipeline: torch-refine-pipeline //----- //

// FAILURE: // -----// IR Dump After RefinePipeline Failed: torch-refine-pipeline //----- //
// FAILURE: error: 'torch.aten.unique_dim' op shape check failed

// TREE: 0_torch-refine-pipeline.mlir

func.func @forward(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %0 = torch.aten.tanh %arg0 : !torch.vtensor<[2,3],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}

// A failing pipeline leaves mlir-opt's reproducer: the input IR and the pipeline.
// RUN: not torch-refine-opt %S/Inputs/shape-check-fails.mlir --torch-refine-pipeline --mlir-pass-pipeline-crash-reproducer=%t.repro.mlir 2>&1 | filecheck %s --check-prefix=NOTE
// RUN: filecheck %s --check-prefix=REPRO < %t.repro.mlir
// NOTE: note: pipeline failed: the reproducer is in {{.*}}repro.mlir
// REPRO: torch.aten.unique_dim
// REPRO: pipeline: "builtin.module(torch-refine-pipeline)",
// REPRO-NEXT: disable_threading: false,
// REPRO-NEXT: verify_each: true
// --run-reproducer runs that pipeline again and fails the same way.
// RUN: not torch-refine-opt %t.repro.mlir --run-reproducer -o /dev/null 2>&1 | filecheck %s --check-prefix=AGAIN
// AGAIN-NOT: warning
// AGAIN: error: 'torch.aten.unique_dim' op shape check failed

// Dumps around named passes only, Python passes included.
// RUN: torch-refine-opt %s -p 'builtin.module(canonicalize,torch-refine-pipeline)' --mlir-print-ir-after=torch-refine-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=NAMED
// NAMED-NOT: IR Dump After CanonicalizerPass
// NAMED: // -----// IR Dump After RefinePipeline: torch-refine-pipeline (round 1/shape) //----- //
// NAMED: // -----// IR Dump After RefinePipeline: torch-refine-pipeline //----- //
