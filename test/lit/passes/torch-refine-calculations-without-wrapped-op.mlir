// RUN: torch-refine-opt %s --split-input-file --torch-refine-simplify-shape-calculations | filecheck %s
// RUN: torch-refine-opt %s --split-input-file --torch-refine-simplify-dtype-calculations -o /dev/null
// RUN: torch-refine-opt %s --split-input-file --torch-refine-drop-calculations | filecheck %s --check-prefix=DROP
// RUN: torch-refine-opt %s --split-input-file --torch-refine-pipeline -o /dev/null

// Hand-written calculations of the kinds MLIR users write to test such passes: a body
// that wraps no op (it yields an argument or a value defined before it), loops that
// unroll fully or not at all, a loop outside any calculation, lists read through the
// alias a mutation returns, a list mutated in a branch. Every pass ends in valid IR
// (these raised IndexError before), refining what it can.

// CHECK-LABEL: func.func @yields_an_argument(
// CHECK: torch.tensor_static_info_cast %arg0 : !torch.vtensor to !torch.vtensor<[4,?],unk>
// CHECK: } : !torch.vtensor<[4,?],unk>
// DROP-LABEL: func.func @yields_an_argument(
// DROP-NEXT: return %arg0 : !torch.vtensor
func.func @yields_an_argument(%arg0: !torch.vtensor, %n: !torch.int) -> !torch.vtensor {
  %int4 = torch.constant.int 4
  %0 = torch.shape.calculate {
    torch.shape.calculate.yield %arg0 : !torch.vtensor
  } shapes {
    %1 = torch.prim.ListConstruct %int4, %n : (!torch.int, !torch.int) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}


// -----

// The user allows type refinement: no cast for it.
// CHECK-LABEL: func.func @yields_a_value_from_outside(
// CHECK: torch.aten.relu %arg0 : !torch.vtensor -> !torch.vtensor<[3],unk>
// CHECK: torch.aten.neg %{{.*}} : !torch.vtensor<[3],unk> -> !torch.vtensor
func.func @yields_a_value_from_outside(%arg0: !torch.vtensor) -> !torch.vtensor {
  %int3 = torch.constant.int 3
  %0 = torch.aten.relu %arg0 : !torch.vtensor -> !torch.vtensor
  %1 = torch.shape.calculate {
    torch.shape.calculate.yield %0 : !torch.vtensor
  } shapes {
    %2 = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %2 : !torch.list<int>
  } : !torch.vtensor
  %3 = torch.aten.neg %1 : !torch.vtensor -> !torch.vtensor
  return %3 : !torch.vtensor
}


// -----

// CHECK-LABEL: func.func @unrollable_loop(
// CHECK-NOT: torch.prim.Loop
// CHECK: } : !torch.vtensor<[4],unk>
func.func @unrollable_loop(%arg0: !torch.vtensor, %sizes: !torch.list<int>) -> !torch.vtensor {
  %true = torch.constant.bool true
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %0 = torch.shape.calculate {
    torch.shape.calculate.yield %arg0 : !torch.vtensor
  } shapes {
    %acc = torch.prim.Loop %int2, %true, init(%int1) {
    ^bb0(%i: !torch.int, %a: !torch.int):
      %m = torch.aten.mul.int %a, %int2 : !torch.int, !torch.int -> !torch.int
      torch.prim.Loop.condition %true, iter(%m : !torch.int)
    } : (!torch.int, !torch.bool, !torch.int) -> !torch.int
    %l = torch.prim.ListConstruct %acc : (!torch.int) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %l : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}


// -----

// CHECK-LABEL: func.func @dynamic_trip_count(
// CHECK: torch.prim.Loop
// CHECK: } : !torch.vtensor
func.func @dynamic_trip_count(%arg0: !torch.vtensor, %n: !torch.int) -> !torch.vtensor {
  %true = torch.constant.bool true
  %int2 = torch.constant.int 2
  %0 = torch.shape.calculate {
    torch.shape.calculate.yield %arg0 : !torch.vtensor
  } shapes {
    %l = torch.prim.ListConstruct : () -> !torch.list<int>
    torch.prim.Loop %n, %true, init() {
    ^bb0(%i: !torch.int):
      %x = torch.aten.append.t %l, %int2 : !torch.list<int>, !torch.int -> !torch.list<int>
      torch.prim.Loop.condition %true, iter()
    } : (!torch.int, !torch.bool) -> ()
    torch.shape.calculate.yield.shapes %l : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}


// -----

// Not a calculation's: left as it is.
// CHECK-LABEL: func.func @loop_outside_any_calculation(
// CHECK: torch.prim.Loop %int3
func.func @loop_outside_any_calculation(%n: !torch.int) -> !torch.int {
  %true = torch.constant.bool true
  %int3 = torch.constant.int 3
  %int0 = torch.constant.int 0
  %r = torch.prim.Loop %int3, %true, init(%int0) {
  ^bb0(%i: !torch.int, %a: !torch.int):
    %s = torch.aten.add.int %a, %n : !torch.int, !torch.int -> !torch.int
    torch.prim.Loop.condition %true, iter(%s : !torch.int)
  } : (!torch.int, !torch.bool, !torch.int) -> !torch.int
  return %r : !torch.int
}


// -----

// CHECK-LABEL: func.func @list_read_through_an_alias(
// CHECK: torch.aten.len.t
func.func @list_read_through_an_alias(%arg0: !torch.vtensor, %a: !torch.int, %b: !torch.int) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    torch.shape.calculate.yield %arg0 : !torch.vtensor
  } shapes {
    %l = torch.prim.ListConstruct : () -> !torch.list<int>
    %alias = torch.aten.append.t %l, %a : !torch.list<int>, !torch.int -> !torch.list<int>
    %n = torch.aten.len.t %alias : !torch.list<int> -> !torch.int
    %x = torch.aten.append.t %l, %b : !torch.list<int>, !torch.int -> !torch.list<int>
    %y = torch.aten.append.t %l, %n : !torch.list<int>, !torch.int -> !torch.list<int>
    torch.shape.calculate.yield.shapes %l : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}


// -----

// Element 0 may be overwritten: [?,5].
// CHECK-LABEL: func.func @list_mutated_in_a_branch(
// CHECK: } : !torch.vtensor<[?,5],unk>
func.func @list_mutated_in_a_branch(%arg0: !torch.vtensor, %c: !torch.bool, %a: !torch.int) -> !torch.vtensor {
  %int5 = torch.constant.int 5
  %int0 = torch.constant.int 0
  %0 = torch.shape.calculate {
    torch.shape.calculate.yield %arg0 : !torch.vtensor
  } shapes {
    %l = torch.prim.ListConstruct %int5, %int5 : (!torch.int, !torch.int) -> !torch.list<int>
    torch.prim.If %c -> () {
      %x = torch.aten._set_item.t %l, %int0, %a : !torch.list<int>, !torch.int, !torch.int -> !torch.list<int>
      torch.prim.If.yield
    } else {
      torch.prim.If.yield
    }
    torch.shape.calculate.yield.shapes %l : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}


// -----

// CHECK-LABEL: func.func @two_aliases_of_one_list(
// CHECK: torch.shape.calculate.yield.shapes
func.func @two_aliases_of_one_list(%arg0: !torch.vtensor, %a: !torch.int) -> !torch.vtensor {
  %int7 = torch.constant.int 7
  %0 = torch.shape.calculate {
    torch.shape.calculate.yield %arg0 : !torch.vtensor
  } shapes {
    %l = torch.prim.ListConstruct %int7 : (!torch.int) -> !torch.list<int>
    %first = torch.aten.append.t %l, %a : !torch.list<int>, !torch.int -> !torch.list<int>
    %second = torch.aten.append.t %first, %int7 : !torch.list<int>, !torch.int -> !torch.list<int>
    torch.shape.calculate.yield.shapes %second : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}
