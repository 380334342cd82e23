// RUN: torch-refine-opt %s --split-input-file --torch-refine-simplify-shape-calculations | filecheck %s

// CHECK-LABEL: func.func @refine_from_literal(
// CHECK: torch.aten.tanh %{{.*}} -> !torch.vtensor<[2,3],unk>
// CHECK: } : !torch.vtensor<[2,3],unk>
func.func @refine_from_literal(%arg0: !torch.vtensor) -> !torch.vtensor<[2,3],unk> {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int2 = torch.constant.int 2
    %int3 = torch.constant.int 3
    %1 = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor
  %2 = torch.tensor_static_info_cast %0 : !torch.vtensor to !torch.vtensor<[2,3],unk>
  return %2 : !torch.vtensor<[2,3],unk>
}

// -----

// A `_set_item.t` with a constant index is interpreted; the list is then a literal.
// CHECK-LABEL: func.func @set_item_constant_index(
// CHECK: } : !torch.vtensor<[2,7],unk>
func.func @set_item_constant_index(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int2 = torch.constant.int 2
    %int3 = torch.constant.int 3
    %int7 = torch.constant.int 7
    %int1 = torch.constant.int 1
    %1 = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
    %2 = torch.aten._set_item.t %1, %int1, %int7 : !torch.list<int>, !torch.int, !torch.int -> !torch.list<int>
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A `_set_item.t` of an unknown value at a constant index clobbers that element only.
// CHECK-LABEL: func.func @set_item_clobbers_one(
// CHECK: } : !torch.vtensor<[?,3],unk>
func.func @set_item_clobbers_one(%arg0: !torch.vtensor, %n: !torch.int) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int2 = torch.constant.int 2
    %int3 = torch.constant.int 3
    %int0 = torch.constant.int 0
    %1 = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
    %2 = torch.aten._set_item.t %1, %int0, %n : !torch.list<int>, !torch.int, !torch.int -> !torch.list<int>
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// An unknown index clobbers every element; the rank stays known.
// CHECK-LABEL: func.func @set_item_clobbers_all(
// CHECK: torch.aten._set_item.t
// CHECK: } : !torch.vtensor<[?,?],unk>
func.func @set_item_clobbers_all(%arg0: !torch.vtensor, %i: !torch.int) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int2 = torch.constant.int 2
    %int3 = torch.constant.int 3
    %1 = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
    %2 = torch.aten._set_item.t %1, %i, %int3 : !torch.list<int>, !torch.int, !torch.int -> !torch.list<int>
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Appends are interpreted up to a mutation at an unknown index; from there on the list is a
// literal of the state reached, so its length (the rank) stays known.
// CHECK-LABEL: func.func @appends_then_unknown_set_item(
// CHECK-NOT: torch.aten.append.t
// CHECK: torch.aten._set_item.t
// CHECK: } : !torch.vtensor<[?,?,?],unk>
func.func @appends_then_unknown_set_item(%arg0: !torch.vtensor, %i: !torch.int) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int2 = torch.constant.int 2
    %1 = torch.prim.ListConstruct  : () -> !torch.list<int>
    %2 = torch.aten.append.t %1, %int2 : !torch.list<int>, !torch.int -> !torch.list<int>
    %3 = torch.aten.append.t %1, %int2 : !torch.list<int>, !torch.int -> !torch.list<int>
    %4 = torch.aten.append.t %1, %int2 : !torch.list<int>, !torch.int -> !torch.list<int>
    %5 = torch.aten._set_item.t %1, %i, %int2 : !torch.list<int>, !torch.int, !torch.int -> !torch.list<int>
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A mutation in a nested region stops the interpretation the same way. Its index is the
// payload of an optional that is either None or 0 (the inferred dim of a view), so only
// element 0 is clobbered.
// CHECK-LABEL: func.func @nested_set_item_of_known_possible_index(
// CHECK-NOT: torch.aten.append.t
// CHECK: } : !torch.vtensor<[?,2,8],unk>
func.func @nested_set_item_of_known_possible_index(%arg0: !torch.vtensor, %c: !torch.bool, %n: !torch.int) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %none = torch.constant.none
    %int0 = torch.constant.int 0
    %int2 = torch.constant.int 2
    %int8 = torch.constant.int 8
    %inferred = torch.prim.If %c -> (!torch.optional<int>) {
      %d = torch.derefine %int0 : !torch.int to !torch.optional<int>
      torch.prim.If.yield %d : !torch.optional<int>
    } else {
      %d = torch.derefine %none : !torch.none to !torch.optional<int>
      torch.prim.If.yield %d : !torch.optional<int>
    }
    %1 = torch.prim.ListConstruct  : () -> !torch.list<int>
    %2 = torch.aten.append.t %1, %n : !torch.list<int>, !torch.int -> !torch.list<int>
    %3 = torch.aten.append.t %1, %int2 : !torch.list<int>, !torch.int -> !torch.list<int>
    %4 = torch.aten.append.t %1, %int8 : !torch.list<int>, !torch.int -> !torch.list<int>
    %is_set = torch.aten.__isnot__ %inferred, %none : !torch.optional<int>, !torch.none -> !torch.bool
    torch.prim.If %is_set -> () {
      %index = torch.prim.unchecked_cast %inferred : !torch.optional<int> -> !torch.int
      %5 = torch.aten._set_item.t %1, %index, %n : !torch.list<int>, !torch.int, !torch.int -> !torch.list<int>
      torch.prim.If.yield
    } else {
      torch.prim.If.yield
    }
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// The calculated sizes meet the dtype the IR already states.
// CHECK-LABEL: func.func @meet_with_existing(
// CHECK: } : !torch.vtensor<[2,3],f32>
func.func @meet_with_existing(%arg0: !torch.vtensor<*,f32>) -> !torch.vtensor<*,f32> {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor<*,f32> -> !torch.vtensor<*,f32>
    torch.shape.calculate.yield %1 : !torch.vtensor<*,f32>
  } shapes {
    %int2 = torch.constant.int 2
    %int3 = torch.constant.int 3
    %1 = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor<*,f32>
  return %0 : !torch.vtensor<*,f32>
}

// -----

// A user that allows refinement (an aten op) just sees the new type: no cast.
// CHECK-LABEL: func.func @no_cast_for_refinable_user(
// CHECK-NOT: torch.tensor_static_info_cast
// CHECK: torch.aten.sigmoid %{{.*}} : !torch.vtensor<[5],unk> -> !torch.vtensor
func.func @no_cast_for_refinable_user(%arg0: !torch.vtensor) {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int5 = torch.constant.int 5
    %1 = torch.prim.ListConstruct %int5 : (!torch.int) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor
  %2 = torch.aten.sigmoid %0 : !torch.vtensor -> !torch.vtensor
  return
}

// -----

// func.return keeps the signature's type through a cast.
// CHECK-LABEL: func.func @cast_for_return(
// CHECK: %[[CALC:.*]] = torch.shape.calculate
// CHECK: } : !torch.vtensor<[5],unk>
// CHECK: %[[CAST:.*]] = torch.tensor_static_info_cast %[[CALC]] : !torch.vtensor<[5],unk> to !torch.vtensor
// CHECK: return %[[CAST]] : !torch.vtensor
func.func @cast_for_return(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int5 = torch.constant.int 5
    %1 = torch.prim.ListConstruct %int5 : (!torch.int) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A loop with a constant trip count is unrolled and its appends interpreted.
// CHECK-LABEL: func.func @loop_unroll(
// CHECK-NOT: torch.prim.Loop
// CHECK: } : !torch.vtensor<[2,2,2],unk>
func.func @loop_unroll(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int2 = torch.constant.int 2
    %int3 = torch.constant.int 3
    %true = torch.constant.bool true
    %1 = torch.prim.ListConstruct : () -> !torch.list<int>
    torch.prim.Loop %int3, %true, init() {
    ^bb0(%iv: !torch.int):
      %2 = torch.aten.append.t %1, %int2 : !torch.list<int>, !torch.int -> !torch.list<int>
      torch.prim.Loop.condition %true, iter()
    } : (!torch.int, !torch.bool) -> ()
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Loop-carried ints are threaded through the unrolled iterations.
// CHECK-LABEL: func.func @loop_unroll_carried(
// CHECK: } : !torch.vtensor<[6],unk>
func.func @loop_unroll_carried(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int0 = torch.constant.int 0
    %int4 = torch.constant.int 4
    %true = torch.constant.bool true
    %sum = torch.prim.Loop %int4, %true, init(%int0) {
    ^bb0(%iv: !torch.int, %acc: !torch.int):
      %2 = torch.aten.add.int %acc, %iv : !torch.int, !torch.int -> !torch.int
      torch.prim.Loop.condition %true, iter(%2 : !torch.int)
    } : (!torch.int, !torch.bool, !torch.int) -> (!torch.int)
    %1 = torch.prim.ListConstruct %sum : (!torch.int) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A dynamic trip count is not unrolled; the list it appends to stays unknown.
// CHECK-LABEL: func.func @no_unroll_dynamic_count(
// CHECK: torch.prim.Loop %arg1
// CHECK: } : !torch.vtensor
func.func @no_unroll_dynamic_count(%arg0: !torch.vtensor, %n: !torch.int) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int2 = torch.constant.int 2
    %true = torch.constant.bool true
    %1 = torch.prim.ListConstruct : () -> !torch.list<int>
    torch.prim.Loop %n, %true, init() {
    ^bb0(%iv: !torch.int):
      %2 = torch.aten.append.t %1, %int2 : !torch.list<int>, !torch.int -> !torch.list<int>
      torch.prim.Loop.condition %true, iter()
    } : (!torch.int, !torch.bool) -> ()
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Only calculation regions are simplified: a loop in user code stays.
// CHECK-LABEL: func.func @loop_outside_calculation(
// CHECK: torch.prim.Loop %int3
// CHECK: torch.aten.append.t
func.func @loop_outside_calculation() -> !torch.list<int> {
  %int3 = torch.constant.int 3
  %true = torch.constant.bool true
  %1 = torch.prim.ListConstruct : () -> !torch.list<int>
  torch.prim.Loop %int3, %true, init() {
  ^bb0(%iv: !torch.int):
    %2 = torch.aten.append.t %1, %int3 : !torch.list<int>, !torch.int -> !torch.list<int>
    torch.prim.Loop.condition %true, iter()
  } : (!torch.int, !torch.bool) -> ()
  return %1 : !torch.list<int>
}

// -----

// len, __getitem__ (negative index too), add.t and slice.t of literals.
// CHECK-LABEL: func.func @list_ops_basic(
// CHECK: } : !torch.vtensor<[2,3,5,7],unk>
func.func @list_ops_basic(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int1 = torch.constant.int 1
    %int2 = torch.constant.int 2
    %int3 = torch.constant.int 3
    %int5 = torch.constant.int 5
    %int7 = torch.constant.int 7
    %intm1 = torch.constant.int -1
    %none = torch.constant.none
    %a = torch.prim.ListConstruct %int2, %int3, %int5, %int7 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %len = torch.aten.len.t %a : !torch.list<int> -> !torch.int
    %last = torch.aten.__getitem__.t %a, %intm1 : !torch.list<int>, !torch.int -> !torch.int
    %b = torch.aten.slice.t %a, %int1, %none, %int1 : !torch.list<int>, !torch.int, !torch.none, !torch.int -> !torch.list<int>
    %head = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
    %c = torch.aten.add.t %head, %b : !torch.list<int>, !torch.list<int> -> !torch.list<int>
    %d = torch.aten.slice.t %c, %int1, %int2, %int1 : !torch.list<int>, !torch.int, !torch.int, !torch.int -> !torch.list<int>
    %e = torch.prim.ListConstruct %int5, %last : (!torch.int, !torch.int) -> !torch.list<int>
    %f = torch.aten.add.t %c, %e : !torch.list<int>, !torch.list<int> -> !torch.list<int>
    %g = torch.aten.slice.t %f, %int1, %len, %int1 : !torch.list<int>, !torch.int, !torch.int, !torch.int -> !torch.list<int>
    %h = torch.aten.add.t %head, %g : !torch.list<int>, !torch.list<int> -> !torch.list<int>
    torch.shape.calculate.yield.shapes %h : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// append, insert (negative index, clamped index) and _set_item are interpreted in order.
// CHECK-LABEL: func.func @all_mutation_ops(
// CHECK-NOT: torch.aten.append.t
// CHECK-NOT: torch.aten.insert.t
// CHECK: } : !torch.vtensor<[1,2,4,2,3,8],unk>
func.func @all_mutation_ops(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int1 = torch.constant.int 1
    %int2 = torch.constant.int 2
    %int3 = torch.constant.int 3
    %int4 = torch.constant.int 4
    %int8 = torch.constant.int 8
    %int9 = torch.constant.int 9
    %int100 = torch.constant.int 100
    %intm1 = torch.constant.int -1
    %intm2 = torch.constant.int -2
    %l = torch.prim.ListConstruct %int1, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
    %a = torch.aten.append.t %l, %int3 : !torch.list<int>, !torch.int -> !torch.list<int>
    torch.aten.insert.t %l, %intm1, %int4 : !torch.list<int>, !torch.int, !torch.int
    torch.aten.insert.t %l, %int100, %int8 : !torch.list<int>, !torch.int, !torch.int
    %s = torch.aten._set_item.t %l, %intm2, %int2 : !torch.list<int>, !torch.int, !torch.int -> !torch.list<int>
    torch.aten.insert.t %l, %intm1, %int9 : !torch.list<int>, !torch.int, !torch.int
    %s2 = torch.aten._set_item.t %l, %intm2, %int3 : !torch.list<int>, !torch.int, !torch.int -> !torch.list<int>
    %r = torch.prim.ListConstruct : () -> !torch.list<int>
    torch.aten.insert.t %r, %int1, %int9 : !torch.list<int>, !torch.int, !torch.int
    torch.shape.calculate.yield.shapes %l : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Reads see the list as it is at their position, between mutations.
// CHECK-LABEL: func.func @mixed_mutation_and_reads(
// CHECK: } : !torch.vtensor<[1,2,3],unk>
func.func @mixed_mutation_and_reads(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int5 = torch.constant.int 5
    %l = torch.prim.ListConstruct : () -> !torch.list<int>
    %len0 = torch.aten.len.t %l : !torch.list<int> -> !torch.int
    %n1 = torch.aten.add.int %len0, %len0 : !torch.int, !torch.int -> !torch.int
    %a = torch.aten.append.t %l, %n1 : !torch.list<int>, !torch.int -> !torch.list<int>
    %len1 = torch.aten.len.t %l : !torch.list<int> -> !torch.int
    %b = torch.aten.append.t %l, %len1 : !torch.list<int>, !torch.int -> !torch.list<int>
    %len2 = torch.aten.len.t %l : !torch.list<int> -> !torch.int
    %c = torch.aten.append.t %l, %len2 : !torch.list<int>, !torch.int -> !torch.list<int>
    %len3 = torch.aten.len.t %l : !torch.list<int> -> !torch.int
    %r = torch.prim.ListConstruct %len1, %len2, %len3 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %r : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// The list %l escapes into %outer; a mutation through the alias %m must be seen by
// len(%l), so nothing about %l is folded while the alias exists: 3, not 2.
// CHECK-LABEL: func.func @alias_stays_correct(
// CHECK: } : !torch.vtensor<[3],unk>
func.func @alias_stays_correct(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int0 = torch.constant.int 0
    %int1 = torch.constant.int 1
    %l = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
    %outer = torch.prim.ListConstruct %l : (!torch.list<int>) -> !torch.list<list<int>>
    %m = torch.aten.__getitem__.t %outer, %int0 : !torch.list<list<int>>, !torch.int -> !torch.list<int>
    %a = torch.aten.append.t %m, %int1 : !torch.list<int>, !torch.int -> !torch.list<int>
    %len = torch.aten.len.t %l : !torch.list<int> -> !torch.int
    %r = torch.prim.ListConstruct %len : (!torch.int) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %r : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A list passed to an op we do not model (sort mutates in place): the append before it is
// interpreted, and sort gets a literal of the state reached; what sort leaves is not known.
// CHECK-LABEL: func.func @unmodelled_user_keeps_list(
// CHECK-NOT: torch.aten.append.t
// CHECK: %[[L:.*]] = torch.prim.ListConstruct %int2, %int1
// CHECK: torch.aten.sort.int %[[L]]
// CHECK: torch.shape.calculate.yield.shapes %[[L]]
// CHECK: } : !torch.vtensor
func.func @unmodelled_user_keeps_list(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int1 = torch.constant.int 1
    %int2 = torch.constant.int 2
    %false = torch.constant.bool false
    %l = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
    %a = torch.aten.append.t %l, %int1 : !torch.list<int>, !torch.int -> !torch.list<int>
    torch.aten.sort.int %l, %false : !torch.list<int>, !torch.bool
    torch.shape.calculate.yield.shapes %l : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A read in a nested region sees the list as it is at the enclosing op.
// CHECK-LABEL: func.func @read_only_user_in_child_region(
// CHECK: } : !torch.vtensor<[1,2],unk>
func.func @read_only_user_in_child_region(%arg0: !torch.vtensor, %c: !torch.bool) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int1 = torch.constant.int 1
    %int0 = torch.constant.int 0
    %l = torch.prim.ListConstruct : () -> !torch.list<int>
    %a = torch.aten.append.t %l, %int1 : !torch.list<int>, !torch.int -> !torch.list<int>
    %x = torch.prim.If %c -> (!torch.int) {
      %n = torch.aten.len.t %l : !torch.list<int> -> !torch.int
      torch.prim.If.yield %n : !torch.int
    } else {
      %g = torch.aten.__getitem__.t %l, %int0 : !torch.list<int>, !torch.int -> !torch.int
      torch.prim.If.yield %g : !torch.int
    }
    %b = torch.aten.append.t %l, %int1 : !torch.list<int>, !torch.int -> !torch.list<int>
    %b_len = torch.aten.len.t %l : !torch.list<int> -> !torch.int
    %r = torch.prim.ListConstruct %x, %b_len : (!torch.int, !torch.int) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %r : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A mutation inside a nested region (a loop we cannot unroll) blocks interpretation.
// CHECK-LABEL: func.func @mutation_in_child_region(
// CHECK: torch.prim.If
// CHECK: torch.aten.append.t
// CHECK: } : !torch.vtensor
func.func @mutation_in_child_region(%arg0: !torch.vtensor, %c: !torch.bool) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int1 = torch.constant.int 1
    %l = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
    torch.prim.If %c -> () {
      %a = torch.aten.append.t %l, %int1 : !torch.list<int>, !torch.int -> !torch.list<int>
      torch.prim.If.yield
    } else {
      torch.prim.If.yield
    }
    torch.shape.calculate.yield.shapes %l : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// An optional list that is known present: `__is__` folds, the If is inlined and the
// unchecked_cast of the derefined value folds away.
// CHECK-LABEL: func.func @unchecked_cast_fold(
// CHECK-NOT: torch.prim.unchecked_cast
// CHECK: } : !torch.vtensor<[4,6],unk>
func.func @unchecked_cast_fold(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int4 = torch.constant.int 4
    %int6 = torch.constant.int 6
    %none = torch.constant.none
    %l = torch.prim.ListConstruct %int4, %int6 : (!torch.int, !torch.int) -> !torch.list<int>
    %o = torch.derefine %l : !torch.list<int> to !torch.optional<list<int>>
    %is = torch.aten.__is__ %o, %none : !torch.optional<list<int>>, !torch.none -> !torch.bool
    %r = torch.prim.If %is -> (!torch.list<int>) {
      %e = torch.prim.ListConstruct : () -> !torch.list<int>
      torch.prim.If.yield %e : !torch.list<int>
    } else {
      %c = torch.prim.unchecked_cast %o : !torch.optional<list<int>> -> !torch.list<int>
      torch.prim.If.yield %c : !torch.list<int>
    }
    torch.shape.calculate.yield.shapes %r : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Sizes of a partially known operand give a partially known result.
// CHECK-LABEL: func.func @partially_dynamic(
// CHECK: } : !torch.vtensor<[?,3],unk>
func.func @partially_dynamic(%arg0: !torch.vtensor<[?,3],f32>) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor<[?,3],f32> -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %1 = torch.aten.size %arg0 : !torch.vtensor<[?,3],f32> -> !torch.list<int>
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Rank known, dims unknown.
// CHECK-LABEL: func.func @rank_known_dims_unknown(
// CHECK: } : !torch.vtensor<[?,?,?],unk>
func.func @rank_known_dims_unknown(%arg0: !torch.vtensor<[?,?,?],f32>) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor<[?,?,?],f32> -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %1 = torch.aten.size %arg0 : !torch.vtensor<[?,?,?],f32> -> !torch.list<int>
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A shape calculation wrapping a dtype calculation: both results and the op are retyped.
// CHECK-LABEL: func.func @nested_calculations(
// CHECK: torch.aten.tanh %{{.*}} -> !torch.vtensor<[7],unk>
// CHECK: torch.dtype.calculate.yield %{{.*}} : !torch.vtensor<[7],unk>
// CHECK: } : !torch.vtensor<[7],unk>
// CHECK: torch.shape.calculate.yield %{{.*}} : !torch.vtensor<[7],unk>
// CHECK: } : !torch.vtensor<[7],unk>
func.func @nested_calculations(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.dtype.calculate {
      %2 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
      torch.dtype.calculate.yield %2 : !torch.vtensor
    } dtypes {
      %int6 = torch.constant.int 6
      torch.dtype.calculate.yield.dtypes %int6 : !torch.int
    } : !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int7 = torch.constant.int 7
    %1 = torch.prim.ListConstruct %int7 : (!torch.int) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Repeats of the same op on the same operand types reuse the first result: the second
// calculation becomes a trivial literal (memo hit), with the same refined type.
// CHECK-LABEL: func.func @memo_repeat(
// CHECK: } : !torch.vtensor<[2,3],unk>
// CHECK: } shapes {
// CHECK-NOT: torch.aten.size
// CHECK: torch.prim.ListConstruct %{{.*}}, %{{.*}} : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK-NEXT: torch.shape.calculate.yield.shapes
// CHECK: } : !torch.vtensor<[2,3],unk>
func.func @memo_repeat(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor<[2,3],f32> -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %1 = torch.aten.size %arg0 : !torch.vtensor<[2,3],f32> -> !torch.list<int>
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor
  %2 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg1 : !torch.vtensor<[2,3],f32> -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %1 = torch.aten.size %arg1 : !torch.vtensor<[2,3],f32> -> !torch.list<int>
    %int0 = torch.constant.int 0
    %3 = torch.aten.__getitem__.t %1, %int0 : !torch.list<int>, !torch.int -> !torch.int
    %4 = torch.aten.size %arg1 : !torch.vtensor<[2,3],f32> -> !torch.list<int>
    torch.shape.calculate.yield.shapes %4 : !torch.list<int>
  } : !torch.vtensor
  return %2 : !torch.vtensor
}

// -----

// A while-like loop (a `for` with `break`, as TorchScript lowers it: the body decides
// whether to go on) is peeled one iteration at a time while its entry condition is
// known: here it appends 7 twice and stops when the counter reaches 2.
// CHECK-LABEL: func.func @while_loop_is_peeled(
// CHECK-NOT: torch.prim.Loop
// CHECK: } : !torch.vtensor<[7,7],unk>
func.func @while_loop_is_peeled(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int0 = torch.constant.int 0
    %int1 = torch.constant.int 1
    %int2 = torch.constant.int 2
    %int7 = torch.constant.int 7
    %true = torch.constant.bool true
    %max = torch.constant.int 9223372036854775807
    %l = torch.prim.ListConstruct : () -> !torch.list<int>
    %n = torch.prim.Loop %max, %true, init(%int0) {
    ^bb0(%iv: !torch.int, %count: !torch.int):
      %a = torch.aten.append.t %l, %int7 : !torch.list<int>, !torch.int -> !torch.list<int>
      %next = torch.aten.add.int %count, %int1 : !torch.int, !torch.int -> !torch.int
      %more = torch.aten.lt.int %next, %int2 : !torch.int, !torch.int -> !torch.bool
      torch.prim.Loop.condition %more, iter(%next : !torch.int)
    } : (!torch.int, !torch.bool, !torch.int) -> !torch.int
    torch.shape.calculate.yield.shapes %l : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A loop entered with a false condition runs no iteration: its results are its inits.
// CHECK-LABEL: func.func @loop_not_entered(
// CHECK-NOT: torch.prim.Loop
// CHECK: } : !torch.vtensor<[5],unk>
func.func @loop_not_entered(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int1 = torch.constant.int 1
    %int5 = torch.constant.int 5
    %int3 = torch.constant.int 3
    %false = torch.constant.bool false
    %n = torch.prim.Loop %int3, %false, init(%int5) {
    ^bb0(%iv: !torch.int, %x: !torch.int):
      %y = torch.aten.add.int %x, %int1 : !torch.int, !torch.int -> !torch.int
      torch.prim.Loop.condition %false, iter(%y : !torch.int)
    } : (!torch.int, !torch.bool, !torch.int) -> !torch.int
    %r = torch.prim.ListConstruct %n : (!torch.int) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %r : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// The induction variable of the loop left after peeling counts on: iteration k sees k.
// The loop appends iv while iv < 3: [0, 1, 2].
// CHECK-LABEL: func.func @peeled_induction_variable(
// CHECK: } : !torch.vtensor<[0,1,2],unk>
func.func @peeled_induction_variable(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int1 = torch.constant.int 1
    %int3 = torch.constant.int 3
    %true = torch.constant.bool true
    %max = torch.constant.int 9223372036854775807
    %l = torch.prim.ListConstruct : () -> !torch.list<int>
    torch.prim.Loop %max, %true, init() {
    ^bb0(%iv: !torch.int):
      %a = torch.aten.append.t %l, %iv : !torch.list<int>, !torch.int -> !torch.list<int>
      %next = torch.aten.add.int %iv, %int1 : !torch.int, !torch.int -> !torch.int
      %more = torch.aten.lt.int %next, %int3 : !torch.int, !torch.int -> !torch.bool
      torch.prim.Loop.condition %more, iter()
    } : (!torch.int, !torch.bool) -> ()
    torch.shape.calculate.yield.shapes %l : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A size is never negative: the inferred-dim (-1) and negative-dim checks of a view on a
// dynamic size are decided, so the static dims of the result survive.
// CHECK-LABEL: func.func @sizes_are_not_negative(
// CHECK: } : !torch.vtensor<[?,4],unk>
func.func @sizes_are_not_negative(%arg0: !torch.vtensor<[?,4],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int4 = torch.constant.int 4
  %int-1 = torch.constant.int -1
  %batch = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,4],f32>, !torch.int -> !torch.int
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor<[?,4],f32> -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %str = torch.constant.str "negative size"
    %none = torch.constant.none
    %is_inferred = torch.aten.eq.int %batch, %int-1 : !torch.int, !torch.int -> !torch.bool
    %negative = torch.aten.lt.int %batch, %int0 : !torch.int, !torch.int -> !torch.bool
    torch.prim.If %negative -> () {
      torch.prim.RaiseException %str, %none : !torch.str, !torch.none
      torch.prim.If.yield
    } else {
      torch.prim.If.yield
    }
    %d1 = torch.prim.If %is_inferred -> (!torch.int) {
      torch.prim.If.yield %int-1 : !torch.int
    } else {
      torch.prim.If.yield %int4 : !torch.int
    }
    %r = torch.prim.ListConstruct %batch, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %r : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Int floor division is folded exactly, never by torch-mlir's folder of aten.floordiv.int,
// which computes in doubles (it gives 9007199254740996 here, and -2**63 for
// 9223372036854775807 // 1).
// CHECK-LABEL: func.func @floordiv_is_exact(
// CHECK:         torch.shape.calculate.yield %{{.*}} : !torch.vtensor<[9007199254740995,9223372036854775807],unk>
func.func @floordiv_is_exact(%arg0: !torch.vtensor<[3],f32>) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor<[3],f32> -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int1 = torch.constant.int 1
    %big = torch.constant.int 9007199254740995
    %max = torch.constant.int 9223372036854775807
    %q = torch.aten.floordiv.int %big, %int1 : !torch.int, !torch.int -> !torch.int
    %r = torch.aten.floordiv.int %max, %int1 : !torch.int, !torch.int -> !torch.int
    %list = torch.prim.ListConstruct %q, %r : (!torch.int, !torch.int) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %list : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// List equality waits for the loop that fills one operand: torch-mlir's folder of
// `eq.int_list` would compare the empty literal with [2,4] and take the error branch.
// CHECK-LABEL: func.func @list_equality_after_a_filling_loop(
// CHECK-NOT: torch.prim.RaiseException
// CHECK: } : !torch.vtensor<[2,4],unk>
func.func @list_equality_after_a_filling_loop(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %true = torch.constant.bool true
    %none = torch.constant.none
    %str = torch.constant.str "AssertionError: "
    %int0 = torch.constant.int 0
    %int2 = torch.constant.int 2
    %int4 = torch.constant.int 4
    %shape = torch.prim.ListConstruct %int2, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
    %copy = torch.prim.ListConstruct  : () -> !torch.list<int>
    torch.prim.Loop %int2, %true, init() {
    ^bb0(%i: !torch.int):
      %dim = torch.aten.__getitem__.t %shape, %i : !torch.list<int>, !torch.int -> !torch.int
      %2 = torch.aten.append.t %copy, %dim : !torch.list<int>, !torch.int -> !torch.list<int>
      torch.prim.Loop.condition %true, iter()
    } : (!torch.int, !torch.bool) -> ()
    %same = torch.aten.eq.int_list %copy, %shape : !torch.list<int>, !torch.list<int> -> !torch.bool
    torch.prim.If %same -> () {
      torch.prim.If.yield
    } else {
      torch.prim.RaiseException %str, %none : !torch.str, !torch.none
      torch.prim.If.yield
    }
    torch.shape.calculate.yield.shapes %copy : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A range with a negative step (`range(n - 1, -1, -1)`) has a known length: torch-mlir
// folds positive steps only.
// CHECK-LABEL: func.func @reversed_range(
// CHECK: } : !torch.vtensor<[3,2],unk>
func.func @reversed_range(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %true = torch.constant.bool true
    %int-1 = torch.constant.int -1
    %int1 = torch.constant.int 1
    %int2 = torch.constant.int 2
    %int3 = torch.constant.int 3
    %shape = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
    %out = torch.prim.ListConstruct  : () -> !torch.list<int>
    %n = torch.aten.__range_length %int1, %int-1, %int-1 : !torch.int, !torch.int, !torch.int -> !torch.int
    torch.prim.Loop %n, %true, init() {
    ^bb0(%i: !torch.int):
      %index = torch.aten.__derive_index %i, %int1, %int-1 : !torch.int, !torch.int, !torch.int -> !torch.int
      %dim = torch.aten.__getitem__.t %shape, %index : !torch.list<int>, !torch.int -> !torch.int
      %2 = torch.aten.append.t %out, %dim : !torch.list<int>, !torch.int -> !torch.list<int>
      torch.prim.Loop.condition %true, iter()
    } : (!torch.int, !torch.bool) -> ()
    torch.shape.calculate.yield.shapes %out : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// The einsum plan of a constant equation folds to literals, which the calculation then
// reads: the implicit output of "ji" is the ellipsis (-1), then both labels in subscript
// order, [-1, 0, 1].
// CHECK-LABEL: func.func @einsum_plan_folds(
// CHECK-NOT:     torch_refine.einsum_plan
// CHECK: } : !torch.vtensor<[3],unk>
func.func @einsum_plan_folds(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %eq = torch.constant.str "ji"
    %int0 = torch.constant.int 0
    %plan = torch.operator "torch_refine.einsum_plan"(%eq) : (!torch.str) -> !torch.list<list<int>>
    %output = torch.aten.__getitem__.t %plan, %int0 : !torch.list<list<int>>, !torch.int -> !torch.list<int>
    %rank = torch.aten.len.t %output : !torch.list<int> -> !torch.int
    %1 = torch.prim.ListConstruct %rank : (!torch.int) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}
