// RUN: torch-refine-opt %s --split-input-file --torch-refine-pipeline | FileCheck %s

// Checks refinement cannot decide reach a backend as asserts of what they require, and
// only checks that can fail are kept.

// A reshape whose sizes are read with aten.item (how ONNX exports read them): the
// checks of the library's infer-size that refinement cannot decide stay as asserts of
// the conditions that do not raise, named after the op, at the op: the size is -1 or at
// least 0, it is not a second -1, and 24 elements fit the new size (1 where the size is
// -1, else the size: a select in int ops, no If). No prim.If or prim.RaiseException of
// the library is left in the program for a backend to lower.
// CHECK-LABEL: func.func @reshape_by_an_item(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor<[6,4],f32>, %[[S:.*]]: !torch.vtensor<[],si64>
// CHECK:         %[[N:.*]] = torch.aten.item %[[S]]
// CHECK:         %[[INFERRED:.*]] = torch.aten.eq.int %[[N]], %{{.*}}
// CHECK:         %[[SIZE:.*]] = torch.aten.ge.int %[[N]], %{{.*}}
// CHECK:         %[[OK:.*]] = torch.aten.__or__.bool %[[INFERRED]], %[[SIZE]]
// CHECK-NEXT:    torch.runtime.assert %[[OK]], "aten.reshape: invalid shape dimensions"
// CHECK:         torch.runtime.assert %{{.*}}, "aten.reshape: only one dimension can be inferred"
// CHECK:         torch.aten.Int.bool %[[INFERRED]]
// CHECK:         torch.runtime.assert %{{.*}}, "aten.reshape: invalid shape"
// CHECK-NEXT:    torch.aten.reshape %[[X]], {{.*}} -> !torch.vtensor<[?,?],f32>
// CHECK-NOT:     torch.prim.If
// CHECK-NOT:     torch.prim.RaiseException
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

// -----

// A reflect pad by a pad list read off a tensor (the legacy ONNX exporter's Pad): its
// int64 overflow checks are no guards (sizes a program runs with never pass int64), so
// only the checks that can fail stay.
// CHECK-LABEL: func.func @reflect_pad_by_data(
// CHECK-NOT:     past the int64 maximum
// CHECK:         torch.aten.pad {{.*}} -> !torch.vtensor<[2,3,?,?],f32>
func.func @reflect_pad_by_data(%x: !torch.vtensor<[2,3,8,8],f32>, %p: !torch.vtensor<[],si64>) -> !torch.vtensor {
  %str = torch.constant.str "reflect"
  %none = torch.constant.none
  %n = torch.aten.item %p : !torch.vtensor<[],si64> -> !torch.int
  %pad = torch.prim.ListConstruct %n, %n, %n, %n : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.pad %x, %pad, %str, %none : !torch.vtensor<[2,3,8,8],f32>, !torch.list<int>, !torch.str, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}
