// RUN: torch-refine-opt %s --split-input-file --torch-refine-pipeline 2>/dev/null | FileCheck %s
// RUN: torch-refine-opt %s --split-input-file --torch-refine-pipeline --verify-diagnostics -o /dev/null

// A declaration (an external kernel a downstream flow links in) has no body to refine:
// its result stays what it states, and the ops after the call are refined from that.
// CHECK-LABEL: func.func private @ext(!torch.vtensor<[2,3],f32>) -> !torch.vtensor
// CHECK-LABEL: func.func @calls_a_declaration
// CHECK: %[[R:.*]] = call @ext(%{{.*}}) : (!torch.vtensor<[2,3],f32>) -> !torch.vtensor
// CHECK: torch.aten.tanh %[[R]] : !torch.vtensor -> !torch.vtensor{{$}}
func.func private @ext(!torch.vtensor<[2,3],f32>) -> !torch.vtensor
func.func @calls_a_declaration(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %0 = func.call @ext(%x) : (!torch.vtensor<[2,3],f32>) -> !torch.vtensor
  %1 = torch.aten.tanh %0 : !torch.vtensor -> !torch.vtensor
  return %1 : !torch.vtensor
}

// -----

// Declarations nothing calls, and calls of them in branches.
// CHECK-LABEL: func.func @declarations_in_branches
// CHECK: torch.aten.tanh %{{.*}} : !torch.vtensor -> !torch.vtensor{{$}}
// CHECK: torch.aten.sin %{{.*}} : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],f32>
func.func private @unused(!torch.vtensor) -> !torch.vtensor
func.func private @ext(!torch.vtensor<[2,3],f32>) -> !torch.vtensor
func.func private @ext2(!torch.vtensor, !torch.int) -> (!torch.vtensor, !torch.int)
func.func @declarations_in_branches(%x: !torch.vtensor<[2,3],f32>, %c: !torch.bool) -> (!torch.vtensor, !torch.vtensor) {
  %int1 = torch.constant.int 1
  %0 = torch.prim.If %c -> (!torch.vtensor) {
    %a = func.call @ext(%x) : (!torch.vtensor<[2,3],f32>) -> !torch.vtensor
    torch.prim.If.yield %a : !torch.vtensor
  } else {
    %e = torch.tensor_static_info_cast %x : !torch.vtensor<[2,3],f32> to !torch.vtensor
    %b:2 = func.call @ext2(%e, %int1) : (!torch.vtensor, !torch.int) -> (!torch.vtensor, !torch.int)
    torch.prim.If.yield %b#0 : !torch.vtensor
  }
  %1 = torch.aten.tanh %0 : !torch.vtensor -> !torch.vtensor
  %2 = torch.aten.sin %x : !torch.vtensor<[2,3],f32> -> !torch.vtensor
  return %1, %2 : !torch.vtensor, !torch.vtensor
}

// -----

// A module of declarations only, and an empty module, pass through.
// CHECK: module
// CHECK-NEXT: func.func private @only(!torch.vtensor<[2,3],f32>) -> !torch.vtensor
func.func private @only(!torch.vtensor<[2,3],f32>) -> !torch.vtensor

// -----

// CHECK: module {
// CHECK-NEXT: }
module {
}

// -----

// An invalid private function nothing calls is dropped by torch-mlir's pipeline, which
// completes: its failing check is a warning and an assert that fails if it ever runs,
// not an error for the whole module.
// CHECK-LABEL: func.func private @never_called
// CHECK: torch.runtime.assert %false, "torch.aten.mm: shape check failed
// CHECK-LABEL: func.func @main
// CHECK: torch.aten.tanh %{{.*}} : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],f32>
func.func private @never_called(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[4,5],f32>) -> !torch.vtensor {
  // expected-warning@+1 {{'torch.aten.mm' op shape check failed: AssertionError: Matrix dimensions don't match for mm: self[1]=3, mat2[0]=4; kept as a runtime assert: it fails if the program gets here}}
  %0 = torch.aten.mm %a, %b : !torch.vtensor<[2,3],f32>, !torch.vtensor<[4,5],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}
func.func @main(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %1 = torch.aten.tanh %x : !torch.vtensor<[2,3],f32> -> !torch.vtensor
  return %1 : !torch.vtensor
}
