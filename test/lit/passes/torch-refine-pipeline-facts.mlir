// RUN: torch-refine-opt --split-input-file --pass-pipeline='builtin.module(torch-refine-pipeline{broadcast-equal=true})' %s | filecheck %s
// RUN: torch-refine-opt --split-input-file --torch-refine-pipeline %s | filecheck %s --check-prefix=OPEN

// CHECK lines: under broadcast-equal (torch.export's rule everywhere); OPEN lines: the
// default, where a broadcast of two sizes whose ranges hold 1 stays PyTorch's check.
// Facts (engine/guards.py, calculations/facts.py): a check the sizes do not decide is
// asserted once, at the function's entry when its sizes exist there, and every later op
// relies on it. Two layers broadcasting the same two inputs' batches: one assert, and the
// equality makes the second batch the first, so the view of the second layer, which reads
// the second input's batch, infers its -1 (under the view's own fact: a batch of 0 has
// no -1 to infer).
// CHECK-LABEL: func.func @fact_asserted_once(
// CHECK:         %[[A:.*]] = torch.aten.size.int %arg0
// CHECK:         %[[B:.*]] = torch.aten.size.int %arg1
// CHECK:         %[[SAME:.*]] = torch.aten.eq.int %[[A]], %[[B]]
// CHECK:         torch.runtime.assert %[[SAME]], "aten.add.Tensor: The size of tensor a %arg0[0] must match the size of tensor b (%arg1[0]) at non-singleton dimension 0 (requires %arg0[0] == %arg1[0])"
// CHECK:         torch.runtime.assert %{{.*}}, "aten.view: division by zero in the shape calculation (requires %arg0[0] != 0)"
// CHECK-NOT:     torch.runtime.assert
// CHECK:         torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[?,8,32],f32>
// CHECK:         torch.aten.mul.Tensor {{.*}} -> !torch.vtensor<[?,8,32],f32>
// CHECK:         torch.aten.view {{.*}} -> !torch.vtensor<[?,8,4,8],f32>
// By default either batch may be 1: the guard says so, the sum's batch is
// the one that is not 1, and the view cannot infer its -1.
// OPEN-LABEL:  func.func @fact_asserted_once(
// OPEN:          torch.runtime.assert %{{.*}}, "aten.add.Tensor: {{.*}} (requires %arg0[0] == %arg1[0] or %arg0[0] == 1 or %arg1[0] == 1)"
// OPEN:          torch.aten.view {{.*}} -> !torch.vtensor<[?,8,?,8],f32>
func.func @fact_asserted_once(%arg0: !torch.vtensor<[?,8,32],f32>, %arg1: !torch.vtensor<[?,8,32],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int4 = torch.constant.int 4
  %int8 = torch.constant.int 8
  %int-1 = torch.constant.int -1
  %0 = torch.aten.add.Tensor %arg0, %arg1, %int1 : !torch.vtensor<[?,8,32],f32>, !torch.vtensor<[?,8,32],f32>, !torch.int -> !torch.vtensor
  %1 = torch.aten.mul.Tensor %0, %arg1 : !torch.vtensor, !torch.vtensor<[?,8,32],f32> -> !torch.vtensor
  %batch = torch.aten.size.int %arg1, %int0 : !torch.vtensor<[?,8,32],f32>, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %batch, %int8, %int-1, %int8 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %2 = torch.aten.view %1, %sizes : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  return %2 : !torch.vtensor
}

// -----

// A fact earlier facts imply is not asserted: a dynamic size broadcast against 5 is
// asserted to be 5 (the first sum; torch.export's dynamic sizes are never 1), after which
// the size is 5 and the same broadcast in the other order asserts nothing. A check of an
// op in an If branch (which may not run) is asserted in front of it, not at the entry.
// CHECK-LABEL: func.func @implied_and_nested(
// CHECK:         torch.runtime.assert %{{.*}}, "aten.add.Tensor: {{.*}} (requires %arg0[0] == 5)"
// CHECK-NOT:     torch.runtime.assert
// CHECK:         torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[5],f32>
// CHECK:         torch.aten.sub.Tensor {{.*}} -> !torch.vtensor<[5],f32>
// CHECK:         torch.prim.If
// CHECK:           torch.runtime.assert %{{.*}}, "aten.mul.Tensor: {{.*}} (requires %arg2[0] == 5)"
// CHECK:           torch.aten.mul.Tensor {{.*}} -> !torch.vtensor<[5],f32>
func.func @implied_and_nested(%arg0: !torch.vtensor<[?],f32>, %arg1: !torch.vtensor<[5],f32>, %arg2: !torch.vtensor<[?],f32>, %flag: !torch.bool) -> (!torch.vtensor, !torch.vtensor, !torch.vtensor) {
  %int1 = torch.constant.int 1
  %0 = torch.aten.add.Tensor %arg0, %arg1, %int1 : !torch.vtensor<[?],f32>, !torch.vtensor<[5],f32>, !torch.int -> !torch.vtensor
  %1 = torch.aten.sub.Tensor %arg1, %arg0, %int1 : !torch.vtensor<[5],f32>, !torch.vtensor<[?],f32>, !torch.int -> !torch.vtensor
  %2 = torch.prim.If %flag -> (!torch.vtensor) {
    %3 = torch.aten.mul.Tensor %arg2, %arg1 : !torch.vtensor<[?],f32>, !torch.vtensor<[5],f32> -> !torch.vtensor
    torch.prim.If.yield %3 : !torch.vtensor
  } else {
    %4 = torch.tensor_static_info_cast %arg1 : !torch.vtensor<[5],f32> to !torch.vtensor
    torch.prim.If.yield %4 : !torch.vtensor
  }
  return %0, %1, %2 : !torch.vtensor, !torch.vtensor, !torch.vtensor
}

// -----

// A view with an inferred dim divides by the product of the other sizes: where that may
// be 0, the division's guard is asserted per size, once (`8*b` and `2*b` need the same
// `b != 0`).
// CHECK-LABEL: func.func @division_facts(
// CHECK:         torch.runtime.assert %{{.*}}, "aten.view: division by zero in the shape calculation (requires %arg0[0] != 0)"
// CHECK-NOT:     torch.runtime.assert
// CHECK:         torch.aten.view {{.*}} -> !torch.vtensor<[?,4,8],f32>
// CHECK:         torch.aten.reshape {{.*}} -> !torch.vtensor<[?,2,16],f32>
func.func @division_facts(%arg0: !torch.vtensor<[?,32],f32>) -> (!torch.vtensor, !torch.vtensor) {
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %int8 = torch.constant.int 8
  %int16 = torch.constant.int 16
  %int-1 = torch.constant.int -1
  %batch = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,32],f32>, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %batch, %int-1, %int8 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %arg0, %sizes : !torch.vtensor<[?,32],f32>, !torch.list<int> -> !torch.vtensor
  %other = torch.prim.ListConstruct %batch, %int2, %int-1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.reshape %arg0, %other : !torch.vtensor<[?,32],f32>, !torch.list<int> -> !torch.vtensor
  return %0, %1 : !torch.vtensor, !torch.vtensor
}

// -----

// A value refined under the facts goes to `torch.bind_symbolic_shape` directly: the op
// binds dims whatever the type says, so no cast back to the old type is needed.
// CHECK-LABEL: func.func @bind_takes_the_refined_value(
// CHECK:         %[[T:.*]] = torch.aten.tanh %arg0 {{.*}} -> !torch.vtensor<[?,8],f32>
// CHECK:         torch.bind_symbolic_shape %[[T]], {{.*}} : !torch.vtensor<[?,8],f32>
func.func @bind_takes_the_refined_value(%arg0: !torch.vtensor<[?,8],f32>) -> !torch.vtensor {
  %s0 = torch.symbolic_int "s0" {min_val = 2, max_val = 64} : !torch.int
  torch.bind_symbolic_shape %arg0, [%s0], affine_map<()[s0] -> (s0, 8)> : !torch.vtensor<[?,8],f32>
  %0 = torch.aten.tanh %arg0 : !torch.vtensor<[?,8],f32> -> !torch.vtensor
  torch.bind_symbolic_shape %0, [%s0], affine_map<()[s0] -> (s0, 8)> : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// The asserts a function starts with are facts from the start (the input checks
// `torch_refine.import_program` writes from an ExportedProgram, or a front end's): the
// range `%arg0[1] <= 512` decides the end of the position table's slice, `min(s, 512)`,
// to be `s`, so the sum broadcasts without a guard and no new assert is written.
// CHECK-LABEL: func.func @entry_assert_is_a_range(
// CHECK:         torch.runtime.assert %{{.*}}, "input x dim 1 must be at most 512"
// CHECK-NOT:     torch.runtime.assert
// CHECK:         torch.aten.slice.Tensor {{.*}} -> !torch.vtensor<[?,8],f32>
// CHECK:         torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[?,?,8],f32>
// CHECK:         torch.aten.view {{.*}} -> !torch.vtensor<[?,?,2,4],f32>
func.func @entry_assert_is_a_range(%x: !torch.vtensor<[?,?,8],f32>, %pos: !torch.vtensor<[512,8],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %int512 = torch.constant.int 512
  %s = torch.aten.size.int %x, %int1 : !torch.vtensor<[?,?,8],f32>, !torch.int -> !torch.int
  %le = torch.aten.le.int %s, %int512 : !torch.int, !torch.int -> !torch.bool
  torch.runtime.assert %le, "input x dim 1 must be at most 512"
  %table = torch.aten.slice.Tensor %pos, %int0, %int0, %s, %int1 : !torch.vtensor<[512,8],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %sum = torch.aten.add.Tensor %x, %table, %int1 : !torch.vtensor<[?,?,8],f32>, !torch.vtensor, !torch.int -> !torch.vtensor
  %b = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,?,8],f32>, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %b, %s, %int2, %int4 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %view = torch.aten.view %sum, %sizes : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  return %view : !torch.vtensor
}

// -----

// An assert after an op that makes a tensor is no fact for the ops before it (they run
// whether or not it would fail): the slice's end stays `min(s, 512)`, and the sum
// broadcasting it against `s` needs its own guard. `s == min(s, 512)` is asserted as the
// range it is, `s <= 512`, at the entry: a second layer's clamp asserts nothing. The
// program's own late check of that very condition can then not fail: it goes.
// CHECK-LABEL: func.func @late_assert_is_no_fact(
// CHECK:         torch.runtime.assert %{{.*}}, "aten.add.Tensor: {{.*}} (requires %arg0[1] <= 512)"
// CHECK:         torch.aten.slice.Tensor {{.*}} -> !torch.vtensor<[?,8],f32>
// CHECK-NOT:     torch.runtime.assert
// CHECK:         torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[?,?,8],f32>
// CHECK:         torch.aten.slice.Tensor {{.*}} -> !torch.vtensor<[?,8],f32>
// CHECK:         torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[?,?,8],f32>
func.func @late_assert_is_no_fact(%x: !torch.vtensor<[?,?,8],f32>, %pos: !torch.vtensor<[512,8],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int512 = torch.constant.int 512
  %s = torch.aten.size.int %x, %int1 : !torch.vtensor<[?,?,8],f32>, !torch.int -> !torch.int
  %table = torch.aten.slice.Tensor %pos, %int0, %int0, %s, %int1 : !torch.vtensor<[512,8],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %le = torch.aten.le.int %s, %int512 : !torch.int, !torch.int -> !torch.bool
  torch.runtime.assert %le, "a late check"
  %sum = torch.aten.add.Tensor %x, %table, %int1 : !torch.vtensor<[?,?,8],f32>, !torch.vtensor, !torch.int -> !torch.vtensor
  %s2 = torch.aten.size.int %sum, %int1 : !torch.vtensor, !torch.int -> !torch.int
  %table2 = torch.aten.slice.Tensor %pos, %int0, %int0, %s2, %int1 : !torch.vtensor<[512,8],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %sum2 = torch.aten.add.Tensor %sum, %table2, %int1 : !torch.vtensor, !torch.vtensor, !torch.int -> !torch.vtensor
  return %sum2 : !torch.vtensor
}

// -----

// A view refined before the fact that decides it (the broadcast below makes the second
// input's batch the first's): its calculation first left the -1's inference undecided,
// an If computing "numel matches"; refined again under the fact, its check is erased and
// nothing of that computation is left (a plain-imported Llama kept one per projection).
// CHECK-LABEL: func.func @view_before_its_fact(
// CHECK-NOT:     torch.prim.If
// CHECK-NOT:     torch.derefine
// CHECK:         torch.aten.view %arg0, %{{.*}} -> !torch.vtensor<[?,4,8],f32>
// By default the batches may differ where one is 1: the view's check stays.
// OPEN-LABEL: func.func @view_before_its_fact(
// OPEN:         torch.runtime.assert %{{.*}}, "aten.view: invalid shape (requires 32*%arg0[0] == 8*%arg1[0] or
// OPEN:         torch.aten.view %arg0, %{{.*}} -> !torch.vtensor<[?,?,8],f32>
func.func @view_before_its_fact(%x: !torch.vtensor<[?,32],f32>, %y: !torch.vtensor<[?,32],f32>) -> (!torch.vtensor, !torch.vtensor) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %int8 = torch.constant.int 8
  %b = torch.aten.size.int %y, %int0 : !torch.vtensor<[?,32],f32>, !torch.int -> !torch.int
  %l = torch.prim.ListConstruct %b, %int-1, %int8 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %v = torch.aten.view %x, %l : !torch.vtensor<[?,32],f32>, !torch.list<int> -> !torch.vtensor
  %s = torch.aten.add.Tensor %x, %y, %int1 : !torch.vtensor<[?,32],f32>, !torch.vtensor<[?,32],f32>, !torch.int -> !torch.vtensor
  return %v, %s : !torch.vtensor, !torch.vtensor
}

// -----

// The view's -1 over another input's batch is a quotient symbol, `(32*a) // (8*b)`, so the
// view is decided at once; the broadcast with [1,4,8] asserts it is 4. Once the batches
// are asserted equal, the quotient is exact: the view is [?,4,8] and its assert, implied,
// is erased (the division's `b != 0` stays: PyTorch's view needs it too).
// CHECK-LABEL: func.func @quotient_made_exact(
// CHECK:         torch.runtime.assert %{{.*}}, "aten.view: division by zero in the shape calculation (requires %arg1[0] != 0)"
// CHECK:         torch.runtime.assert %{{.*}}, "aten.add.Tensor: {{.*}} (requires %arg0[0] == %arg1[0])"
// CHECK-NOT:     torch.runtime.assert
// CHECK:         torch.aten.view %arg0, %{{.*}} -> !torch.vtensor<[?,4,8],f32>
// OPEN-LABEL: func.func @quotient_made_exact(
func.func @quotient_made_exact(%x: !torch.vtensor<[?,32],f32>, %y: !torch.vtensor<[?,32],f32>, %z: !torch.vtensor<[1,4,8],f32>) -> (!torch.vtensor, !torch.vtensor) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %int8 = torch.constant.int 8
  %b = torch.aten.size.int %y, %int0 : !torch.vtensor<[?,32],f32>, !torch.int -> !torch.int
  %l = torch.prim.ListConstruct %b, %int-1, %int8 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %v = torch.aten.view %x, %l : !torch.vtensor<[?,32],f32>, !torch.list<int> -> !torch.vtensor
  %w = torch.aten.add.Tensor %v, %z, %int1 : !torch.vtensor, !torch.vtensor<[1,4,8],f32>, !torch.int -> !torch.vtensor
  %s = torch.aten.add.Tensor %x, %y, %int1 : !torch.vtensor<[?,32],f32>, !torch.vtensor<[?,32],f32>, !torch.int -> !torch.vtensor
  return %w, %s : !torch.vtensor, !torch.vtensor
}
