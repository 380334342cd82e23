// RUN: torch-refine-opt %s --split-input-file --torch-refine-pipeline | FileCheck %s

// A reshape whose sizes are read with aten.item (how ONNX exports read them): the checks
// the library's infer-size makes and refinement cannot decide stay, as asserts of the
// conditions that do not raise; no prim.RaiseException is left for a backend to lower.
// CHECK-LABEL: func.func @reshape_by_an_item(
// CHECK-NOT:     torch.prim.RaiseException
// CHECK:         torch.runtime.assert %{{.*}}, "invalid shape dimensions"
// CHECK:         torch.runtime.assert %{{.*}}, "only one dimension can be inferred"
// CHECK:         torch.runtime.assert %{{.*}}, "invalid shape"
// CHECK-NOT:     torch.prim.RaiseException
// CHECK:         torch.aten.reshape {{.*}} -> !torch.vtensor<[?,?],f32>
func.func @reshape_by_an_item(%x: !torch.vtensor<[6,4],f32>, %s: !torch.vtensor<[],si64>) -> !torch.vtensor {
  %int-1 = torch.constant.int -1
  %n = torch.aten.item %s : !torch.vtensor<[],si64> -> !torch.int
  %l = torch.prim.ListConstruct %n, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.reshape %x, %l : !torch.vtensor<[6,4],f32>, !torch.list<int> -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// The program's own check (TorchScript's `assert`): the branch that raises goes, the
// other branch's ops follow the assert of its condition.
// CHECK-LABEL: func.func @program_check(
// CHECK:         %[[GT:.*]] = torch.aten.gt.int
// CHECK-NEXT:    torch.runtime.assert %[[GT]], "positive"
// CHECK-NEXT:    %[[SUM:.*]] = torch.aten.add.int
// CHECK:         return %[[SUM]]
func.func @program_check(%n: !torch.int) -> !torch.int {
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %str = torch.constant.str "AssertionError: positive"
  %c = torch.aten.gt.int %n, %int0 : !torch.int, !torch.int -> !torch.bool
  %r = torch.prim.If %c -> (!torch.int) {
    %s = torch.aten.add.int %n, %n : !torch.int, !torch.int -> !torch.int
    torch.prim.If.yield %s : !torch.int
  } else {
    torch.prim.RaiseException %str, %none : !torch.str, !torch.none
    torch.prim.If.yield %int0 : !torch.int
  }
  return %r : !torch.int
}
