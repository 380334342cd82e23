// RUN: torch-refine-opt %s --split-input-file --torch-refine-pipeline | filecheck %s

// Loop-carried tensors whose type changes per iteration. Refinement first assumes the
// carried value keeps its initial type; until the back edge confirms that, the loop's
// users see the result through an opaque cast, so no op after the loop is typed by the
// assumption. PyTorch: relu(loop(unsqueeze)) of a [2,4] tensor is [1,2,4] after one trip.
// CHECK-LABEL: func.func @rank_grows_per_iteration(
// CHECK: } : (!torch.int, !torch.bool, !torch.vtensor<*,f32>) -> !torch.vtensor<*,f32>
// CHECK: torch.aten.relu %{{.*}} : !torch.vtensor<*,f32> -> !torch.vtensor<*,f32>
// CHECK-NOT: torch_refine.loop
func.func @rank_grows_per_iteration(%x: !torch.vtensor<[2,4],f32>, %n: !torch.int) -> !torch.vtensor {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %0 = torch.tensor_static_info_cast %x : !torch.vtensor<[2,4],f32> to !torch.vtensor
  %1 = torch.prim.Loop %n, %true, init(%0) {
  ^bb0(%i: !torch.int, %acc: !torch.vtensor):
    %2 = torch.aten.unsqueeze %acc, %int0 : !torch.vtensor, !torch.int -> !torch.vtensor
    torch.prim.Loop.condition %true, iter(%2 : !torch.vtensor)
  } : (!torch.int, !torch.bool, !torch.vtensor) -> !torch.vtensor
  %3 = torch.aten.relu %1 : !torch.vtensor -> !torch.vtensor
  return %3 : !torch.vtensor
}

// -----

// A tensor grown with cat: PyTorch gives [5,4] after three trips, not [2,4].
// CHECK-LABEL: func.func @size_grows_with_cat(
// CHECK: } : (!torch.int, !torch.bool, !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[?,4],f32>
// CHECK: torch.aten.neg %{{.*}} : !torch.vtensor<[?,4],f32> -> !torch.vtensor<[?,4],f32>
func.func @size_grows_with_cat(%x: !torch.vtensor<[2,4],f32>, %row: !torch.vtensor<[1,4],f32>, %n: !torch.int) -> !torch.vtensor {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %0 = torch.tensor_static_info_cast %x : !torch.vtensor<[2,4],f32> to !torch.vtensor
  %1 = torch.prim.Loop %n, %true, init(%0) {
  ^bb0(%i: !torch.int, %acc: !torch.vtensor):
    %list = torch.prim.ListConstruct %acc, %row : (!torch.vtensor, !torch.vtensor<[1,4],f32>) -> !torch.list<vtensor>
    %2 = torch.aten.cat %list, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor
    torch.prim.Loop.condition %true, iter(%2 : !torch.vtensor)
  } : (!torch.int, !torch.bool, !torch.vtensor) -> !torch.vtensor
  %3 = torch.aten.neg %1 : !torch.vtensor -> !torch.vtensor
  return %3 : !torch.vtensor
}

// -----

// The dtype changes in the first trip (si64 to f32): the user's dtype stays unknown.
// CHECK-LABEL: func.func @dtype_changes_per_iteration(
// CHECK: torch.aten.neg %{{.*}} : !torch.vtensor<[2,4],unk> -> !torch.vtensor<[2,4],unk>
func.func @dtype_changes_per_iteration(%x: !torch.vtensor<[2,4],si64>, %n: !torch.int) -> !torch.vtensor {
  %true = torch.constant.bool true
  %int6 = torch.constant.int 6
  %none = torch.constant.none
  %false = torch.constant.bool false
  %0 = torch.tensor_static_info_cast %x : !torch.vtensor<[2,4],si64> to !torch.vtensor
  %1 = torch.prim.Loop %n, %true, init(%0) {
  ^bb0(%i: !torch.int, %acc: !torch.vtensor):
    %2 = torch.aten.to.dtype %acc, %int6, %false, %false, %none : !torch.vtensor, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor
    torch.prim.Loop.condition %true, iter(%2 : !torch.vtensor)
  } : (!torch.int, !torch.bool, !torch.vtensor) -> !torch.vtensor
  %3 = torch.aten.neg %1 : !torch.vtensor -> !torch.vtensor
  return %3 : !torch.vtensor
}

// -----

// A constant trip count with an early exit, and an If in the body: the carried tensor
// is either unchanged or unsqueezed, so its rank is unknown after the loop.
// CHECK-LABEL: func.func @early_exit_and_if_in_body(
// CHECK: torch.aten.relu %{{.*}} : !torch.vtensor<*,f32> -> !torch.vtensor<*,f32>
func.func @early_exit_and_if_in_body(%x: !torch.vtensor<[2,4],f32>, %k: !torch.int) -> !torch.vtensor {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %int3 = torch.constant.int 3
  %0 = torch.tensor_static_info_cast %x : !torch.vtensor<[2,4],f32> to !torch.vtensor
  %1 = torch.prim.Loop %int3, %true, init(%0) {
  ^bb0(%i: !torch.int, %acc: !torch.vtensor):
    %more = torch.aten.lt.int %i, %k : !torch.int, !torch.int -> !torch.bool
    %2 = torch.prim.If %more -> (!torch.vtensor) {
      %3 = torch.aten.unsqueeze %acc, %int0 : !torch.vtensor, !torch.int -> !torch.vtensor
      torch.prim.If.yield %3 : !torch.vtensor
    } else {
      torch.prim.If.yield %acc : !torch.vtensor
    }
    torch.prim.Loop.condition %more, iter(%2 : !torch.vtensor)
  } : (!torch.int, !torch.bool, !torch.vtensor) -> !torch.vtensor
  %4 = torch.aten.relu %1 : !torch.vtensor -> !torch.vtensor
  return %4 : !torch.vtensor
}

// -----

// The assumption holds (relu keeps [2,4]): once the back edge confirms it, the user
// after the loop is refined too.
// CHECK-LABEL: func.func @confirmed_assumption_reaches_users(
// CHECK: } : (!torch.int, !torch.bool, !torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,4],f32>
// CHECK: torch.aten.neg %{{.*}} : !torch.vtensor<[2,4],f32> -> !torch.vtensor<[2,4],f32>
func.func @confirmed_assumption_reaches_users(%x: !torch.vtensor<[2,4],f32>, %n: !torch.int) -> !torch.vtensor {
  %true = torch.constant.bool true
  %0 = torch.tensor_static_info_cast %x : !torch.vtensor<[2,4],f32> to !torch.vtensor
  %1 = torch.prim.Loop %n, %true, init(%0) {
  ^bb0(%i: !torch.int, %acc: !torch.vtensor):
    %2 = torch.aten.relu %acc : !torch.vtensor -> !torch.vtensor
    torch.prim.Loop.condition %true, iter(%2 : !torch.vtensor)
  } : (!torch.int, !torch.bool, !torch.vtensor) -> !torch.vtensor
  %3 = torch.aten.neg %1 : !torch.vtensor -> !torch.vtensor
  return %3 : !torch.vtensor
}

// -----

// A check that fails only for the initial type, in a trip that is not the first: under
// the assumption (acc is [2,4]) the mm would fail, but from the second trip acc is [2,3].
// No error, no assert of false: only the first round's generic check stays.
// CHECK-LABEL: func.func @check_failing_under_the_assumption_only(
// CHECK-NOT: torch.constant.bool false
// CHECK: torch.aten.mm
func.func @check_failing_under_the_assumption_only(%x: !torch.vtensor<[2,4],f32>, %w: !torch.vtensor<[4,3],f32>, %v: !torch.vtensor<[3,3],f32>, %n: !torch.int) -> !torch.vtensor {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %0 = torch.tensor_static_info_cast %x : !torch.vtensor<[2,4],f32> to !torch.vtensor
  %1 = torch.prim.Loop %n, %true, init(%0) {
  ^bb0(%i: !torch.int, %acc: !torch.vtensor):
    %later = torch.aten.gt.int %i, %int0 : !torch.int, !torch.int -> !torch.bool
    %2 = torch.prim.If %later -> (!torch.vtensor) {
      %3 = torch.aten.mm %acc, %v : !torch.vtensor, !torch.vtensor<[3,3],f32> -> !torch.vtensor
      torch.prim.If.yield %3 : !torch.vtensor
    } else {
      %4 = torch.aten.mm %acc, %w : !torch.vtensor, !torch.vtensor<[4,3],f32> -> !torch.vtensor
      torch.prim.If.yield %4 : !torch.vtensor
    }
    torch.prim.Loop.condition %true, iter(%2 : !torch.vtensor)
  } : (!torch.int, !torch.bool, !torch.vtensor) -> !torch.vtensor
  return %1 : !torch.vtensor
}

// -----

// A check that fails whenever the op runs, in a branch: the op keeps an unknown type
// behind an assert of false (with a warning, see torch-refine-pipeline-errors.mlir).
// CHECK-LABEL: func.func @always_failing_check_in_a_branch(
// CHECK: %[[FALSE:.*]] = torch.constant.bool false
// CHECK-NEXT: torch.runtime.assert %[[FALSE]], "torch.aten.mm: shape check failed: AssertionError: Matrix dimensions don't match for mm: self[1]=3, mat2[0]=4"
// CHECK-NEXT: torch.aten.mm {{.*}} -> !torch.vtensor<*,f32>
func.func @always_failing_check_in_a_branch(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[4,5],f32>, %arg2: !torch.bool) -> !torch.vtensor {
  %0 = torch.prim.If %arg2 -> (!torch.vtensor) {
    %1 = torch.aten.mm %arg0, %arg1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[4,5],f32> -> !torch.vtensor
    torch.prim.If.yield %1 : !torch.vtensor
  } else {
    %2 = torch.tensor_static_info_cast %arg0 : !torch.vtensor<[2,3],f32> to !torch.vtensor
    torch.prim.If.yield %2 : !torch.vtensor
  }
  return %0 : !torch.vtensor
}

// -----

// Two carried tensors: the first grows (widened to [?,4]), the second keeps [2,16]. The
// widening resets the body; the second's back edge, read before that, still confirms it.
// CHECK-LABEL: func.func @one_carried_value_widens_the_other_holds(
// CHECK: } : (!torch.int, !torch.bool, !torch.vtensor<[?,4],f32>, !torch.vtensor<[2,16],f32>) -> (!torch.vtensor<[?,4],f32>, !torch.vtensor<[2,16],f32>)
func.func @one_carried_value_widens_the_other_holds(%x: !torch.vtensor<[2,4],f32>, %h: !torch.vtensor<[2,16],f32>, %n: !torch.int) -> (!torch.vtensor, !torch.vtensor) {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %0 = torch.tensor_static_info_cast %x : !torch.vtensor<[2,4],f32> to !torch.vtensor
  %1 = torch.tensor_static_info_cast %h : !torch.vtensor<[2,16],f32> to !torch.vtensor
  %2:2 = torch.prim.Loop %n, %true, init(%0, %1) {
  ^bb0(%i: !torch.int, %acc: !torch.vtensor, %state: !torch.vtensor):
    %list = torch.prim.ListConstruct %acc, %acc : (!torch.vtensor, !torch.vtensor) -> !torch.list<vtensor>
    %3 = torch.aten.cat %list, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor
    %4 = torch.aten.tanh %state : !torch.vtensor -> !torch.vtensor
    torch.prim.Loop.condition %true, iter(%3, %4 : !torch.vtensor, !torch.vtensor)
  } : (!torch.int, !torch.bool, !torch.vtensor, !torch.vtensor) -> (!torch.vtensor, !torch.vtensor)
  return %2#0, %2#1 : !torch.vtensor, !torch.vtensor
}

// -----

// Checks of a loop body wait until the loop's carried types have settled: refined with
// its carried tensors unknown (the first round), linear's and cat's checks would be the
// library's generic code, loops appending to lists included (545 ops, 13 asserts); with
// the settled types ([?,8] and [?,?,8]) one assert is left, cat's batch check.
// CHECK-LABEL: func.func @body_checks_wait_for_the_settled_types(
// CHECK-NOT: torch.aten.append.t
// CHECK: torch.aten.linear {{.*}} -> !torch.vtensor<[?,8],f32>
// CHECK-NOT: torch.aten.append.t
// CHECK: torch.runtime.assert %{{.*}}, "aten.cat: Sizes of tensors must match except in dimension 1, got %s{{[0-9]+}} and ? at dimension 0"
// CHECK-NOT: torch.runtime.assert
// CHECK: torch.aten.cat {{.*}} -> !torch.vtensor<[?,?,8],f32>
// CHECK-NOT: torch.runtime.assert
// CHECK-NOT: torch_refine.
// CHECK: return
func.func @body_checks_wait_for_the_settled_types(%x: !torch.vtensor<[?,8],f32>, %w: !torch.vtensor<[8,8],f32>, %b: !torch.vtensor<[8],f32>, %n: !torch.int) -> !torch.vtensor {
  %true = torch.constant.bool true
  %int1 = torch.constant.int 1
  %0 = torch.tensor_static_info_cast %x : !torch.vtensor<[?,8],f32> to !torch.vtensor
  %u = torch.aten.unsqueeze %0, %int1 : !torch.vtensor, !torch.int -> !torch.vtensor
  %1:2 = torch.prim.Loop %n, %true, init(%0, %u) {
  ^bb0(%i: !torch.int, %h: !torch.vtensor, %outs: !torch.vtensor):
    %2 = torch.aten.linear %h, %w, %b : !torch.vtensor, !torch.vtensor<[8,8],f32>, !torch.vtensor<[8],f32> -> !torch.vtensor
    %3 = torch.aten.tanh %2 : !torch.vtensor -> !torch.vtensor
    %4 = torch.aten.unsqueeze %3, %int1 : !torch.vtensor, !torch.int -> !torch.vtensor
    %list = torch.prim.ListConstruct %outs, %4 : (!torch.vtensor, !torch.vtensor) -> !torch.list<vtensor>
    %5 = torch.aten.cat %list, %int1 : !torch.list<vtensor>, !torch.int -> !torch.vtensor
    torch.prim.Loop.condition %true, iter(%3, %5 : !torch.vtensor, !torch.vtensor)
  } : (!torch.int, !torch.bool, !torch.vtensor, !torch.vtensor) -> (!torch.vtensor, !torch.vtensor)
  return %1#1 : !torch.vtensor
}

// -----

// A loop reading the result of an earlier loop (a two-layer LSTM's second layer reads the
// first layer's outputs). The second loop's body is first refined while the first loop's
// result is still behind its barrier: its back edge is unknown there, and widening to it
// would keep the state unknown for good (it feeds back into itself). The check waits
// until the first loop is confirmed; PyTorch: [2,16],f32 through every trip.
// CHECK-LABEL: func.func @second_loop_reads_the_first(
// CHECK: torch.aten.sigmoid {{.*}} -> !torch.vtensor<[2,16],f32>
// CHECK: torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[2,16],f32>
// CHECK: } : (!torch.int, !torch.bool, !torch.vtensor<[2,16],f32>) -> !torch.vtensor<[2,16],f32>
// CHECK-NOT: torch.runtime.assert
// CHECK: return
func.func @second_loop_reads_the_first(%x: !torch.vtensor<[2,16],f32>, %n: !torch.int) -> !torch.vtensor {
  %true = torch.constant.bool true
  %int1 = torch.constant.int 1
  %0 = torch.tensor_static_info_cast %x : !torch.vtensor<[2,16],f32> to !torch.vtensor
  %1 = torch.prim.Loop %n, %true, init(%0) {
  ^bb0(%i: !torch.int, %c: !torch.vtensor):
    %2 = torch.aten.tanh %c : !torch.vtensor -> !torch.vtensor
    torch.prim.Loop.condition %true, iter(%2 : !torch.vtensor)
  } : (!torch.int, !torch.bool, !torch.vtensor) -> !torch.vtensor
  %3 = torch.aten.sigmoid %1 : !torch.vtensor -> !torch.vtensor
  %4 = torch.prim.Loop %n, %true, init(%0) {
  ^bb0(%i: !torch.int, %h: !torch.vtensor):
    %5 = torch.aten.add.Tensor %h, %3, %int1 : !torch.vtensor, !torch.vtensor, !torch.int -> !torch.vtensor
    torch.prim.Loop.condition %true, iter(%5 : !torch.vtensor)
  } : (!torch.int, !torch.bool, !torch.vtensor) -> !torch.vtensor
  return %4 : !torch.vtensor
}

// -----

// A carried type the program states in part ([?,?,16]: an ONNX LSTM's output buffer)
// while the init says more ([8,?,16], zeros of the input's sizes): refinement assumes the
// init's type once and the back edge confirms it (slice_scatter keeps the sizes).
// PyTorch: [8,b,16] through every trip.
// CHECK-LABEL: func.func @stated_carried_type_narrowed_by_the_init(
// CHECK:         torch.aten.slice_scatter {{.*}} -> !torch.vtensor<[8,?,16],f32>
// CHECK:         } : (!torch.int, !torch.bool, !torch.vtensor<[8,?,16],f32>) -> !torch.vtensor<[8,?,16],f32>
// CHECK:         torch.aten.neg {{.*}} -> !torch.vtensor<[8,?,16],f32>
// CHECK-NOT:     torch_refine.
func.func @stated_carried_type_narrowed_by_the_init(%x: !torch.vtensor<[8,?,16],f32>, %row: !torch.vtensor<[1,?,16],f32>) -> !torch.vtensor {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int8 = torch.constant.int 8
  %0 = torch.tensor_static_info_cast %x : !torch.vtensor<[8,?,16],f32> to !torch.vtensor<[?,?,16],f32>
  %1 = torch.prim.Loop %int8, %true, init(%0) {
  ^bb0(%i: !torch.int, %buffer: !torch.vtensor<[?,?,16],f32>):
    %next = torch.aten.add.int %i, %int1 : !torch.int, !torch.int -> !torch.int
    %2 = torch.aten.slice_scatter %buffer, %row, %int0, %i, %next, %int1 : !torch.vtensor<[?,?,16],f32>, !torch.vtensor<[1,?,16],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[?,?,16],f32>
    torch.prim.Loop.condition %true, iter(%2 : !torch.vtensor<[?,?,16],f32>)
  } : (!torch.int, !torch.bool, !torch.vtensor<[?,?,16],f32>) -> !torch.vtensor<[?,?,16],f32>
  %3 = torch.aten.neg %1 : !torch.vtensor<[?,?,16],f32> -> !torch.vtensor
  return %3 : !torch.vtensor
}

// -----

// The same with a body that grows the tensor: the init's [2,4] is assumed once, the back
// edge ([3,4]) refutes it, and the carried type widens back to the stated [?,4].
// CHECK-LABEL: func.func @stated_carried_type_kept_when_the_body_grows_it(
// CHECK:         } : (!torch.int, !torch.bool, !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[?,4],f32>
// CHECK:         torch.aten.neg {{.*}} -> !torch.vtensor<[?,4],f32>
// CHECK-NOT:     torch_refine.
func.func @stated_carried_type_kept_when_the_body_grows_it(%x: !torch.vtensor<[2,4],f32>, %row: !torch.vtensor<[1,4],f32>, %n: !torch.int) -> !torch.vtensor {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %0 = torch.tensor_static_info_cast %x : !torch.vtensor<[2,4],f32> to !torch.vtensor<[?,4],f32>
  %1 = torch.prim.Loop %n, %true, init(%0) {
  ^bb0(%i: !torch.int, %acc: !torch.vtensor<[?,4],f32>):
    %list = torch.prim.ListConstruct %acc, %row : (!torch.vtensor<[?,4],f32>, !torch.vtensor<[1,4],f32>) -> !torch.list<vtensor>
    %2 = torch.aten.cat %list, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[?,4],f32>
    torch.prim.Loop.condition %true, iter(%2 : !torch.vtensor<[?,4],f32>)
  } : (!torch.int, !torch.bool, !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[?,4],f32>
  %3 = torch.aten.neg %1 : !torch.vtensor<[?,4],f32> -> !torch.vtensor
  return %3 : !torch.vtensor
}

// -----

// The loop's result is behind its barrier in the first round: the shape read off it, and
// the two elements sliced from that, are `[?]`, and the mul of the slices keeps its
// broadcast check. A round later the loop's type holds, the slices are `[1]`, and that
// check, reading sizes the types now state, is decided and goes with what computed it;
// so does the cast in front of the back edge, once it casts to its operand's own type.
// CHECK-LABEL: func.func @check_decided_a_round_later(
// CHECK-NOT:     torch.runtime.assert
// CHECK-NOT:     torch.prim.If
// CHECK:         torch.prim.Loop.condition %true, iter(%{{.*}} : !torch.vtensor<[2,3],f32>)
// CHECK:         torch.aten.mul.Tensor {{.*}} -> !torch.vtensor<[1],si64>
func.func @check_decided_a_round_later(%x: !torch.vtensor<[2,3],f32>, %n: !torch.int) -> !torch.vtensor {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %x0 = torch.tensor_static_info_cast %x : !torch.vtensor<[2,3],f32> to !torch.vtensor
  %l = torch.prim.Loop %n, %true, init(%x0) {
  ^bb0(%i: !torch.int, %a: !torch.vtensor):
    %r = torch.aten.relu %a : !torch.vtensor -> !torch.vtensor
    torch.prim.Loop.condition %true, iter(%r : !torch.vtensor)
  } : (!torch.int, !torch.bool, !torch.vtensor) -> !torch.vtensor
  %s = torch.aten._shape_as_tensor %l : !torch.vtensor -> !torch.vtensor
  %a = torch.aten.slice.Tensor %s, %int0, %int0, %int1, %int1 : !torch.vtensor, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %b = torch.aten.slice.Tensor %s, %int0, %int1, %int2, %int1 : !torch.vtensor, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %m = torch.aten.mul.Tensor %a, %b : !torch.vtensor, !torch.vtensor -> !torch.vtensor
  return %m : !torch.vtensor
}

// -----

// An op after a loop whose result type the first round does not know yet keeps its checks
// once the loop has settled, computed from the types that then hold: the view's -1 is one
// assert (the earlier rows times 8 elements, not 0), not the first round's calculation of
// it for an operand of unknown rank. The loop keeps its init's rows (induction), so the
// assert reads the argument's, at the entry.
// CHECK-LABEL: func.func @view_after_loop(
// CHECK-NOT: torch.prim.If
// CHECK: torch.runtime.assert %{{.*}}, "aten.view: division by zero in the shape calculation (requires %arg0[0] != 0)"
// CHECK: torch.prim.Loop
// CHECK: torch.aten.view %{{.*}} -> !torch.vtensor<[?,8],f32>
func.func @view_after_loop(%x: !torch.vtensor<[?,4,2],f32>, %n: !torch.int) -> !torch.vtensor {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %int-1 = torch.constant.int -1
  %0 = torch.tensor_static_info_cast %x : !torch.vtensor<[?,4,2],f32> to !torch.vtensor
  %1 = torch.prim.Loop %n, %true, init(%0) {
  ^bb0(%i: !torch.int, %acc: !torch.vtensor):
    %2 = torch.aten.relu %acc : !torch.vtensor -> !torch.vtensor
    torch.prim.Loop.condition %true, iter(%2 : !torch.vtensor)
  } : (!torch.int, !torch.bool, !torch.vtensor) -> !torch.vtensor
  %rows = torch.aten.size.int %1, %int0 : !torch.vtensor, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %rows, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %3 = torch.aten.view %1, %sizes : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  return %3 : !torch.vtensor
}

// -----

// The loop's result is first assumed [2,4] (its init's type) and then refuted (the body
// yields zeros_like(x), [2,1,3]). torch-mlir's folders read through the barrier cast that
// hides the assumption from the ops after the loop, so the cat's calculation once read the
// assumed sizes and claimed [2,1,3]; PyTorch gives [4,1,3] after a trip, [2,...] of the
// init's rank mismatch at none. A refuted assumption now resets the types derived from
// the result behind its barrier.
// CHECK-LABEL: func.func @assumption_refuted_after_loop(
// CHECK: torch.aten.cat %{{.*}} -> !torch.vtensor<[?,1,3],f64>
func.func @assumption_refuted_after_loop(%x: !torch.vtensor<[2,1,3],f64>, %y: !torch.vtensor<[2,4],f64>, %n: !torch.int) -> !torch.vtensor {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %0 = torch.tensor_static_info_cast %y : !torch.vtensor<[2,4],f64> to !torch.vtensor
  %1 = torch.prim.Loop %n, %true, init(%0) {
  ^bb0(%i: !torch.int, %acc: !torch.vtensor):
    %z = torch.aten.zeros_like %x, %none, %none, %none, %none, %none : !torch.vtensor<[2,1,3],f64>, !torch.none, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor
    torch.prim.Loop.condition %true, iter(%z : !torch.vtensor)
  } : (!torch.int, !torch.bool, !torch.vtensor) -> !torch.vtensor
  %l = torch.prim.ListConstruct %1, %x : (!torch.vtensor, !torch.vtensor<[2,1,3],f64>) -> !torch.list<vtensor>
  %c = torch.aten.cat %l, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor
  return %c : !torch.vtensor
}

// -----

// Induction over loop-carried sizes: the state starts with the input's batch, and the body
// gives it back with that batch (mm by [16,16], then added to the input), so every
// iteration starts with it: the add needs no check of the state's batch against the
// input's (it was asserted in the body, per iteration, with a fresh symbol for the state).
// CHECK-LABEL: func.func @carried_batch(
// CHECK-NOT: torch.runtime.assert
// CHECK: torch.aten.add.Tensor
func.func @carried_batch(%x: !torch.vtensor<[?,16],f32>, %w: !torch.vtensor<[16,16],f32>, %n: !torch.int) -> !torch.vtensor<[?,16],f32> {
  %true = torch.constant.bool true
  %int1 = torch.constant.int 1
  %0 = torch.prim.Loop %n, %true, init(%x) {
  ^bb0(%i: !torch.int, %h: !torch.vtensor<[?,16],f32>):
    %m = torch.aten.mm %h, %w : !torch.vtensor<[?,16],f32>, !torch.vtensor<[16,16],f32> -> !torch.vtensor<[?,16],f32>
    %a = torch.aten.add.Tensor %m, %x, %int1 : !torch.vtensor<[?,16],f32>, !torch.vtensor<[?,16],f32>, !torch.int -> !torch.vtensor<[?,16],f32>
    torch.prim.Loop.condition %true, iter(%a : !torch.vtensor<[?,16],f32>)
  } : (!torch.int, !torch.bool, !torch.vtensor<[?,16],f32>) -> !torch.vtensor<[?,16],f32>
  return %0 : !torch.vtensor<[?,16],f32>
}

// -----

// The body doubles the state's batch (a cat of it with itself): the back edge refutes
// the assumption, the body is refined again with the state's sizes its own, and the add
// keeps its check (PyTorch raises at the second trip, 6 against 3).
// CHECK-LABEL: func.func @carried_batch_doubles(
// CHECK: torch.prim.Loop
// CHECK: torch.runtime.assert %{{.*}}, "aten.add.Tensor: The size of tensor a
// CHECK-NEXT: torch.aten.add.Tensor
// CHECK-NOT: torch_refine.loop
func.func @carried_batch_doubles(%x: !torch.vtensor<[?,16],f32>, %n: !torch.int) -> !torch.vtensor<[?,16],f32> {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %0 = torch.prim.Loop %n, %true, init(%x) {
  ^bb0(%i: !torch.int, %h: !torch.vtensor<[?,16],f32>):
    %a = torch.aten.add.Tensor %h, %x, %int1 : !torch.vtensor<[?,16],f32>, !torch.vtensor<[?,16],f32>, !torch.int -> !torch.vtensor<[?,16],f32>
    %l = torch.prim.ListConstruct %a, %a : (!torch.vtensor<[?,16],f32>, !torch.vtensor<[?,16],f32>) -> !torch.list<vtensor>
    %d = torch.aten.cat %l, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[?,16],f32>
    torch.prim.Loop.condition %true, iter(%d : !torch.vtensor<[?,16],f32>)
  } : (!torch.int, !torch.bool, !torch.vtensor<[?,16],f32>) -> !torch.vtensor<[?,16],f32>
  return %0 : !torch.vtensor<[?,16],f32>
}

// -----

// Stacked loops (a two-layer RNN): the first loop's result keeps its init's batch (the
// induction above), so the second loop's add of it to a state of the input's batch, and
// the sub after both, need no check: each loop's result is the input's batch.
// CHECK-LABEL: func.func @stacked_carried_batch(
// CHECK-NOT: torch.runtime.assert
// CHECK: torch.aten.sub.Tensor {{.*}} -> !torch.vtensor<[?,16],f32>
func.func @stacked_carried_batch(%x: !torch.vtensor<[?,16],f32>, %w: !torch.vtensor<[16,16],f32>, %n: !torch.int) -> !torch.vtensor<[?,16],f32> {
  %true = torch.constant.bool true
  %int1 = torch.constant.int 1
  %0 = torch.prim.Loop %n, %true, init(%x) {
  ^bb0(%i: !torch.int, %h: !torch.vtensor<[?,16],f32>):
    %m = torch.aten.mm %h, %w : !torch.vtensor<[?,16],f32>, !torch.vtensor<[16,16],f32> -> !torch.vtensor<[?,16],f32>
    %a = torch.aten.add.Tensor %m, %x, %int1 : !torch.vtensor<[?,16],f32>, !torch.vtensor<[?,16],f32>, !torch.int -> !torch.vtensor<[?,16],f32>
    torch.prim.Loop.condition %true, iter(%a : !torch.vtensor<[?,16],f32>)
  } : (!torch.int, !torch.bool, !torch.vtensor<[?,16],f32>) -> !torch.vtensor<[?,16],f32>
  %1 = torch.prim.Loop %n, %true, init(%x) {
  ^bb0(%i: !torch.int, %h: !torch.vtensor<[?,16],f32>):
    %m = torch.aten.mm %h, %w : !torch.vtensor<[?,16],f32>, !torch.vtensor<[16,16],f32> -> !torch.vtensor<[?,16],f32>
    %a = torch.aten.add.Tensor %m, %0, %int1 : !torch.vtensor<[?,16],f32>, !torch.vtensor<[?,16],f32>, !torch.int -> !torch.vtensor<[?,16],f32>
    torch.prim.Loop.condition %true, iter(%a : !torch.vtensor<[?,16],f32>)
  } : (!torch.int, !torch.bool, !torch.vtensor<[?,16],f32>) -> !torch.vtensor<[?,16],f32>
  %2 = torch.aten.sub.Tensor %1, %0, %int1 : !torch.vtensor<[?,16],f32>, !torch.vtensor<[?,16],f32>, !torch.int -> !torch.vtensor<[?,16],f32>
  return %2 : !torch.vtensor<[?,16],f32>
}

// -----

// The body doubles the carried batch: the refuted induction also forgets what the ops
// after the loop derived from it. The view by the result's rows was typed [?,16] under
// the assumed rows (the input's); PyTorch gives [6,8] for a [3,16] input after one trip.
// CHECK-LABEL: func.func @view_by_doubled_rows(
// CHECK: torch.prim.Loop
// CHECK: torch.aten.view {{.*}} -> !torch.vtensor<[?,?],f32>
func.func @view_by_doubled_rows(%x: !torch.vtensor<[?,16],f32>, %n: !torch.int) -> !torch.vtensor {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %int-1 = torch.constant.int -1
  %0 = torch.prim.Loop %n, %true, init(%x) {
  ^bb0(%i: !torch.int, %h: !torch.vtensor<[?,16],f32>):
    %l = torch.prim.ListConstruct %h, %h : (!torch.vtensor<[?,16],f32>, !torch.vtensor<[?,16],f32>) -> !torch.list<vtensor>
    %d = torch.aten.cat %l, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[?,16],f32>
    torch.prim.Loop.condition %true, iter(%d : !torch.vtensor<[?,16],f32>)
  } : (!torch.int, !torch.bool, !torch.vtensor<[?,16],f32>) -> !torch.vtensor<[?,16],f32>
  %rows = torch.aten.size.int %0, %int0 : !torch.vtensor<[?,16],f32>, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %rows, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %v = torch.aten.view %x, %sizes : !torch.vtensor<[?,16],f32>, !torch.list<int> -> !torch.vtensor
  return %v : !torch.vtensor
}

// -----

// A reset keeps the types that give an op its meaning: the ONNX conversion's `where`
// condition, a bool read as a tensor (`type_bool_conditions` types it `[],i1`; PyTorch's
// NumToTensor gives int64, which `where` rejects). The refuted induction forgets what was
// derived from the loop's rows, but not that type: the pipeline once failed here.
// CHECK-LABEL: func.func @where_after_refuted_loop(
// CHECK: torch.aten.where.self {{.*}} : !torch.vtensor<[],i1>, !torch.vtensor<[],si64>, !torch.vtensor<[],si64> -> !torch.vtensor<[],si64>
func.func @where_after_refuted_loop(%x: !torch.vtensor<[?,16],f32>, %n: !torch.int) -> !torch.vtensor {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %0 = torch.prim.Loop %n, %true, init(%x) {
  ^bb0(%i: !torch.int, %h: !torch.vtensor<[?,16],f32>):
    %l = torch.prim.ListConstruct %h, %h : (!torch.vtensor<[?,16],f32>, !torch.vtensor<[?,16],f32>) -> !torch.list<vtensor>
    %d = torch.aten.cat %l, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[?,16],f32>
    torch.prim.Loop.condition %true, iter(%d : !torch.vtensor<[?,16],f32>)
  } : (!torch.int, !torch.bool, !torch.vtensor<[?,16],f32>) -> !torch.vtensor<[?,16],f32>
  %rows = torch.aten.size.int %0, %int0 : !torch.vtensor<[?,16],f32>, !torch.int -> !torch.int
  %empty = torch.aten.eq.int %rows, %int0 : !torch.int, !torch.int -> !torch.bool
  %flag = torch.aten.Int.bool %empty : !torch.bool -> !torch.int
  %cond = torch.prim.NumToTensor.Scalar %flag : !torch.int -> !torch.vtensor
  %one = torch.prim.NumToTensor.Scalar %int1 : !torch.int -> !torch.vtensor
  %count = torch.prim.NumToTensor.Scalar %rows : !torch.int -> !torch.vtensor
  %w = torch.aten.where.self %cond, %one, %count : !torch.vtensor, !torch.vtensor, !torch.vtensor -> !torch.vtensor
  return %w : !torch.vtensor
}
