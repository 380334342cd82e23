// RUN: torch-refine-opt %s --pass-pipeline='builtin.module(torch-refine-pipeline{explain=true})' --verify-diagnostics | filecheck %s

// explain=true says which ops went through the meta fallback (docs/library.md), exact or
// not, and why it left sizes unknown; no attribute of the fallback's is left behind.
// CHECK-LABEL: func.func @why
// CHECK-NOT: torch_refine.
func.func @why(%x: !torch.vtensor<[?,3],f32>, %a: !torch.vtensor<[?,3],f32>)
    -> (!torch.vtensor, !torch.vtensor, !torch.vtensor) {
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %false = torch.constant.bool false
  // expected-remark @+1 {{served by PyTorch's meta kernel (no library function); dynamic dims from %arg0, an argument}}
  %0:2 = torch.operator "torch.aten.sort.stable"(%x, %none, %int0, %false) : (!torch.vtensor<[?,3],f32>, !torch.none, !torch.int, !torch.bool) -> (!torch.vtensor, !torch.vtensor)
  // expected-remark @+1 {{meta fallback: PyTorch's kernel needs a size pinned to its example value (%arg1[0] == 31)}}
  %1 = torch.operator "torch.aten.complex"(%a, %a) : (!torch.vtensor<[?,3],f32>, !torch.vtensor<[?,3],f32>) -> !torch.vtensor
  %2 = torch.aten.tanh %0#0 : !torch.vtensor -> !torch.vtensor
  return %2, %0#1, %1 : !torch.vtensor, !torch.vtensor, !torch.vtensor
}

// A tensor list's pieces are typed through its unpack, which carries the reason.
// CHECK-LABEL: func.func @pieces
func.func @pieces(%a: !torch.vtensor<[?],f32>, %b: !torch.vtensor<[4,?],f32>) -> (!torch.vtensor, !torch.vtensor) {
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[?],f32>, !torch.vtensor<[4,?],f32>) -> !torch.list<vtensor>
  %r = torch.operator "torch.aten.atleast_2d.Sequence"(%l) : (!torch.list<vtensor>) -> !torch.list<vtensor>
  // expected-remark @+1 {{served by PyTorch's meta kernel (no library function)}}
  %x, %y = torch.prim.ListUnpack %r : !torch.list<vtensor> -> !torch.vtensor, !torch.vtensor
  return %x, %y : !torch.vtensor, !torch.vtensor
}
