// RUN: torch-refine-opt %s --split-input-file --torch-refine-inline-library-calls | filecheck %s

// Calls are inlined recursively; the library functions are then erased.
// CHECK-LABEL: func.func @nested_calls(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor
// CHECK:         } shapes {
// CHECK-NEXT:      %[[S:.*]] = torch.aten.size %[[X]]
// CHECK-NEXT:      %[[INT1:.*]] = torch.constant.int 1
// CHECK-NEXT:      %[[L:.*]] = torch.aten.len.t %[[S]]
// CHECK-NEXT:      %[[SUM:.*]] = torch.aten.add.int %[[L]], %[[INT1]]
// CHECK-NEXT:      %[[R:.*]] = torch.prim.ListConstruct %[[SUM]]
// CHECK-NEXT:      torch.shape.calculate.yield.shapes %[[R]]
// CHECK-NOT:   func.func private @__torch_refine
func.func @nested_calls(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %1 = torch.aten.size %arg0 : !torch.vtensor -> !torch.list<int>
    %2 = func.call @__torch_refine_shape_fn.aten.tanh(%1) : (!torch.list<int>) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %2 : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}
func.func private @__torch_refine_shape_fn.aten.tanh(%arg0: !torch.list<int>) -> !torch.list<int> {
  %0 = call @__torch_refine_helper.rank_plus_one(%arg0) : (!torch.list<int>) -> !torch.int
  %1 = torch.prim.ListConstruct %0 : (!torch.int) -> !torch.list<int>
  return %1 : !torch.list<int>
}
func.func private @__torch_refine_helper.rank_plus_one(%arg0: !torch.list<int>) -> !torch.int {
  %int1 = torch.constant.int 1
  %0 = torch.aten.len.t %arg0 : !torch.list<int> -> !torch.int
  %1 = torch.aten.add.int %0, %int1 : !torch.int, !torch.int -> !torch.int
  return %1 : !torch.int
}

// -----

// Calls inside nested regions of the inlined body are inlined too; user functions are
// not inlined, and a library function a user function still calls outside any
// calculation is kept.
// CHECK-LABEL: func.func @calls_in_regions(
// CHECK:         } dtypes {
// CHECK:           %[[IF:.*]] = torch.prim.If %{{.*}} -> (!torch.int) {
// CHECK-NEXT:        %[[INT6:.*]] = torch.constant.int 6
// CHECK-NEXT:        torch.prim.If.yield %[[INT6]]
// CHECK:           func.call @user_helper(
// CHECK:         call @__torch_refine_helper.six()
// CHECK:       func.func @user_helper(
// CHECK:       func.func private @__torch_refine_helper.six(
// CHECK-NOT:   func.func private @__torch_refine_dtype_fn
func.func @calls_in_regions(%arg0: !torch.vtensor, %arg1: !torch.bool) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %1 = func.call @__torch_refine_dtype_fn.aten.tanh(%arg1) : (!torch.bool) -> !torch.int
    %2 = func.call @user_helper(%1) : (!torch.int) -> !torch.int
    torch.dtype.calculate.yield.dtypes %2 : !torch.int
  } : !torch.vtensor
  %3 = func.call @__torch_refine_helper.six() : () -> !torch.int
  return %0 : !torch.vtensor
}
func.func @user_helper(%arg0: !torch.int) -> !torch.int {
  return %arg0 : !torch.int
}
func.func private @__torch_refine_dtype_fn.aten.tanh(%arg0: !torch.bool) -> !torch.int {
  %0 = torch.prim.If %arg0 -> (!torch.int) {
    %1 = func.call @__torch_refine_helper.six() : () -> !torch.int
    torch.prim.If.yield %1 : !torch.int
  } else {
    %int7 = torch.constant.int 7
    torch.prim.If.yield %int7 : !torch.int
  }
  return %0 : !torch.int
}
func.func private @__torch_refine_helper.six() -> !torch.int {
  %int6 = torch.constant.int 6
  return %int6 : !torch.int
}
