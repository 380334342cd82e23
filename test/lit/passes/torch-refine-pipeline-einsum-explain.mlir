// RUN: torch-refine-opt %s --pass-pipeline='builtin.module(torch-refine-pipeline{explain=true})' --verify-diagnostics | filecheck %s

// An einsum product of integers that sums: its sizes are exact, its dtype is PyTorch's
// choice by sizes of 1 (an operand summed first, or not), and the remark says so.
// CHECK-LABEL: func.func @integer_product
// CHECK: torch.aten.einsum {{.*}} -> !torch.vtensor<[2,4],unk>
func.func @integer_product(%arg0: !torch.vtensor<[2,3],si32>, %arg1: !torch.vtensor<[3,4],si32>) -> !torch.vtensor {
  %eq = torch.constant.str "ij,jk->ik"
  %none = torch.constant.none
  %ops = torch.prim.ListConstruct %arg0, %arg1 : (!torch.vtensor<[2,3],si32>, !torch.vtensor<[3,4],si32>) -> !torch.list<vtensor>
  // expected-remark @+1 {{dtype decided by sizes (aten.einsum)}}
  %0 = torch.aten.einsum %eq, %ops, %none : !torch.str, !torch.list<vtensor>, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}
