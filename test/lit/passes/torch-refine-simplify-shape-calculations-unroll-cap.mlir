// RUN: torch-refine-opt %s --torch-refine-simplify-shape-calculations 2>&1 >/dev/null | filecheck %s --check-prefix=WARN
// RUN: torch-refine-opt %s --pass-pipeline='builtin.module(torch-refine-simplify-shape-calculations{max-unroll=5000})' | filecheck %s --check-prefix=RAISED

// The Python bindings cannot emit warnings through MLIR's diagnostic engine, so the cap
// warning is printed to stderr in mlir-opt's format (and kept in the pass statistics).
// WARN: torch-refine-simplify-shape-calculations-unroll-cap.mlir:19:5: warning: 'torch.prim.Loop' op not unrolled: 5000 iterations of 1 ops exceed the unroll cap (max-unroll=1000, max-unroll-ops=200000)
// With a higher cap the loop is unrolled.
// RAISED-NOT: torch.prim.Loop
// Unrolling stops at the cap, with a warning at the loop.
func.func @unroll_cap(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %big = torch.constant.int 5000
    %int1 = torch.constant.int 1
    %true = torch.constant.bool true
    %1 = torch.prim.ListConstruct : () -> !torch.list<int>
    torch.prim.Loop %big, %true, init() {
    ^bb0(%iv: !torch.int):
      %2 = torch.aten.append.t %1, %int1 : !torch.list<int>, !torch.int -> !torch.list<int>
      torch.prim.Loop.condition %true, iter()
    } : (!torch.int, !torch.bool) -> ()
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}
