// RUN: torch-refine-opt %s --pass-pipeline='builtin.module(torch-refine-pipeline{explain=true})' --verify-diagnostics | filecheck %s

// One remark per op that stopped refinement: an op without a shape function, a shape
// function whose loop has a non-constant trip count, a data-dependent size. Ops that are
// unknown only through an operand get no remark; the reasons leave no attribute behind.
// test/python/test_api.py and test_run_tool.py read their reasons from this file.

// CHECK-LABEL: func.func @why
// CHECK-NOT: torch_refine.
func.func @why(%x: !torch.vtensor<[4,3],f32>, %sizes: !torch.list<int>) -> !torch.vtensor {
  // expected-remark @+1 {{no shape function for foo.bar}}
  %0 = torch.operator "foo.bar"(%x) : (!torch.vtensor<[4,3],f32>) -> !torch.vtensor
  %1 = torch.aten.tanh %0 : !torch.vtensor -> !torch.vtensor
  // expected-remark @+1 {{shape function did not simplify: a loop with a non-constant trip count (computed by aten.len.t)}}
  %2 = torch.aten.view %x, %sizes : !torch.vtensor<[4,3],f32>, !torch.list<int> -> !torch.vtensor
  // expected-remark @+1 {{data-dependent size (aten.nonzero)}}
  %3 = torch.aten.nonzero %x : !torch.vtensor<[4,3],f32> -> !torch.vtensor
  %4 = torch.aten.tanh %3 : !torch.vtensor -> !torch.vtensor
  return %1 : !torch.vtensor
}
