// Checks the function's earlier asserts imply go (issue 41: no assert that never fails),
// under the default broadcast rule, where a broadcast of two dynamic sizes is the select
// `b if a == 1 else a` with PyTorch's check `a == b or a == 1 or b == 1` asserted.
// RUN: torch-refine-opt --torch-refine-pipeline %s | FileCheck %s

// The second view's check reads the select; split by its condition it is the first view's
// check (a != 1) or holds (a == 1: the quotient `(256*b) // (64*b)` is 4): a quotient
// reading the select is rebuilt in each case (`facts.rebuilt`), and a condition over three
// sizes is decided by the asserted conditions without splitting sizes.
// CHECK-LABEL: func.func @implied_through_a_broadcast
// CHECK: aten.view: invalid shape (requires 256*%arg0[0] == 64*%arg1[0]
// CHECK-NOT: aten.view: invalid shape
// CHECK: return
func.func @implied_through_a_broadcast(%x: !torch.vtensor<[?,256],f32>, %y: !torch.vtensor<[?,256],f32>) -> (!torch.vtensor, !torch.vtensor) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %int64 = torch.constant.int 64
  %b = torch.aten.size.int %y, %int0 : !torch.vtensor<[?,256],f32>, !torch.int -> !torch.int
  %shape = torch.prim.ListConstruct %b, %int-1, %int64 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %v1 = torch.aten.view %x, %shape : !torch.vtensor<[?,256],f32>, !torch.list<int> -> !torch.vtensor
  %sum = torch.aten.add.Tensor %x, %y, %int1 : !torch.vtensor<[?,256],f32>, !torch.vtensor<[?,256],f32>, !torch.int -> !torch.vtensor
  %v2 = torch.aten.view %sum, %shape : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  return %v1, %v2 : !torch.vtensor, !torch.vtensor
}

// The narrow of the broadcast `(X if Y == 1 else Y)` (X, Y the halves of x and y) needs it
// to be at least 2, asserted before the later narrow asserts `X >= 2`; that assert gave the
// select its range, but the select's cases decide it without it (`Y == 1`: X >= 2; else Y
// >= 2, Y being at least 1 where y is): it goes at clean-up (ConvNeXt's downsampling).
// CHECK-LABEL: func.func @implied_by_a_selects_cases
// CHECK-NOT: if (%arg1[0] + 1) // 2 == 1
// CHECK: requires 0 <= (%arg0[0] + 1) // 2 - 2
// CHECK-NOT: if (%arg1[0] + 1) // 2 == 1
// CHECK: return
func.func @implied_by_a_selects_cases(%x: !torch.vtensor<[?],f32>, %y: !torch.vtensor<[?],f32>) -> (!torch.vtensor, !torch.vtensor, !torch.vtensor) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %ex = torch.aten.size.int %x, %int0 : !torch.vtensor<[?],f32>, !torch.int -> !torch.int
  %ey = torch.aten.size.int %y, %int0 : !torch.vtensor<[?],f32>, !torch.int -> !torch.int
  %n0 = torch.aten.narrow %y, %int0, %int0, %int1 : !torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %hx = torch.aten.slice.Tensor %x, %int0, %int0, %ex, %int2 : !torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %hy = torch.aten.slice.Tensor %y, %int0, %int0, %ey, %int2 : !torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %sum = torch.aten.add.Tensor %hy, %hx, %int1 : !torch.vtensor, !torch.vtensor, !torch.int -> !torch.vtensor
  %n2 = torch.aten.narrow %sum, %int0, %int0, %int2 : !torch.vtensor, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %n1 = torch.aten.narrow %hx, %int0, %int0, %int2 : !torch.vtensor, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  return %n0, %n1, %n2 : !torch.vtensor, !torch.vtensor, !torch.vtensor
}

// One stage down: the half of that broadcast, `(S + 1) // 2` for `S = (X if Y == 1 else Y)`,
// broadcast against the quarter of x, `(x + 3) // 4`. Split by the select its quotient
// reads: `Y == 1` makes it `(X + 1) // 2`, the quarter; else `(y + 3) // 4`, and the first
// broadcast's asserted `Y == X or Y == 1 or X == 1` is split by its equalities
// (`Y == 1` excluded here): `X == Y` makes the quarter `(Y + 1) // 2` (a quotient through a
// replaced one), `X == 1` makes it 1 (ConvNeXt's second stage).
// CHECK-LABEL: func.func @implied_by_a_broadcasts_equality
// CHECK: aten.add.Tensor: The size of tensor a (%arg1[0] + 1) // 2
// CHECK-NOT: torch.runtime.assert
// CHECK: return
func.func @implied_by_a_broadcasts_equality(%x: !torch.vtensor<[?],f32>, %y: !torch.vtensor<[?],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %ex = torch.aten.size.int %x, %int0 : !torch.vtensor<[?],f32>, !torch.int -> !torch.int
  %ey = torch.aten.size.int %y, %int0 : !torch.vtensor<[?],f32>, !torch.int -> !torch.int
  %hx = torch.aten.slice.Tensor %x, %int0, %int0, %ex, %int2 : !torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %hy = torch.aten.slice.Tensor %y, %int0, %int0, %ey, %int2 : !torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %sum = torch.aten.add.Tensor %hy, %hx, %int1 : !torch.vtensor, !torch.vtensor, !torch.int -> !torch.vtensor
  %es = torch.aten.size.int %sum, %int0 : !torch.vtensor, !torch.int -> !torch.int
  %ehx = torch.aten.size.int %hx, %int0 : !torch.vtensor, !torch.int -> !torch.int
  %qs = torch.aten.slice.Tensor %sum, %int0, %int0, %es, %int2 : !torch.vtensor, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %qx = torch.aten.slice.Tensor %hx, %int0, %int0, %ehx, %int2 : !torch.vtensor, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %r = torch.aten.add.Tensor %qs, %qx, %int1 : !torch.vtensor, !torch.vtensor, !torch.int -> !torch.vtensor
  return %r : !torch.vtensor
}

// A view of the sum of two [?, ?, 32] tensors to [b0, b1, -1, 8] (b0, b1 the second's dims;
// a plain BERT's attention heads): its check `32*S0*S1 == 8*b0*b1 or (32*S0*S1) % (8*b0*b1) == 0`
// reads both broadcasts `Si = bi if ai == 1 else ai`. Split by each select's condition and
// then by both broadcasts' asserted equalities (`ai == bi or ai == 1 or bi == 1`, two splits
// deep at clean-up), it holds in every case; `ai == 1` is no case where the select's split
// says `ai != 1` (a case the assumptions exclude is skipped).
// CHECK-LABEL: func.func @a_view_after_two_broadcasts
// CHECK: requires %arg0[0] == %arg1[0] or %arg0[0] == 1 or %arg1[0] == 1
// CHECK: requires %arg0[1] == %arg1[1] or %arg0[1] == 1 or %arg1[1] == 1
// CHECK-NOT: aten.view: invalid shape
// CHECK: return
func.func @a_view_after_two_broadcasts(%x: !torch.vtensor<[?,?,32],f32>, %y: !torch.vtensor<[?,?,32],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %int8 = torch.constant.int 8
  %b0 = torch.aten.size.int %y, %int0 : !torch.vtensor<[?,?,32],f32>, !torch.int -> !torch.int
  %b1 = torch.aten.size.int %y, %int1 : !torch.vtensor<[?,?,32],f32>, !torch.int -> !torch.int
  %sum = torch.aten.add.Tensor %x, %y, %int1 : !torch.vtensor<[?,?,32],f32>, !torch.vtensor<[?,?,32],f32>, !torch.int -> !torch.vtensor
  %shape = torch.prim.ListConstruct %b0, %b1, %int-1, %int8 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %v = torch.aten.view %sum, %shape : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  return %v : !torch.vtensor
}

// The same view, then a linear whose weight makes the view's `-1` 4: that equality, asserted
// after the view's check, replaces the quotient, and the check with it replaced needs the
// equality itself; as it reads the quotient, the broadcasts imply it (erased Llama and BERT
// types reach this form).
// CHECK-LABEL: func.func @a_view_after_two_broadcasts_then_its_size_asserted
// CHECK-NOT: aten.view: invalid shape
// CHECK: aten.linear: linear: input and weight shapes cannot be multiplied
// CHECK-NOT: aten.view: invalid shape
// CHECK: return
func.func @a_view_after_two_broadcasts_then_its_size_asserted(%x: !torch.vtensor<[?,?,32],f32>, %y: !torch.vtensor<[?,?,32],f32>, %weight: !torch.vtensor<[16,4],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %int8 = torch.constant.int 8
  %none = torch.constant.none
  %b0 = torch.aten.size.int %y, %int0 : !torch.vtensor<[?,?,32],f32>, !torch.int -> !torch.int
  %b1 = torch.aten.size.int %y, %int1 : !torch.vtensor<[?,?,32],f32>, !torch.int -> !torch.int
  %sum = torch.aten.add.Tensor %x, %y, %int1 : !torch.vtensor<[?,?,32],f32>, !torch.vtensor<[?,?,32],f32>, !torch.int -> !torch.vtensor
  %shape = torch.prim.ListConstruct %b0, %b1, %int8, %int-1 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %v = torch.aten.view %sum, %shape : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  %l = torch.aten.linear %v, %weight, %none : !torch.vtensor, !torch.vtensor<[16,4],f32>, !torch.none -> !torch.vtensor
  return %l : !torch.vtensor
}

// A plain Llama's heads: views of x ([a, 256]) and of its first half to [b, -1, 64] (b
// another input's batch), the second expanded to 2 heads, the first broadcast against 4.
// Their checks say `(128*a) // (64*b)` is 2 or 1 and divides exactly, and `(256*a) //
// (64*b)` is 4 or 1: split by the first (its quotient solved in) and then by the view's
// check (a conjunction implies the equality it holds), `2 == (128*a) // (64*b)` leaves
// `a == b`, and `b == 2*a` makes the second quotient 2, an assumption of constants that is
// false: no case. So `a == b` holds, and the first view's check and x + w's broadcast go.
// CHECK-LABEL: func.func @heads_after_two_views
// CHECK-NOT: 256*%arg0[0] == 64*%arg1[0]
// CHECK: requires %arg1[0] != 0
// CHECK: aten.view: invalid shape (requires 128*%arg0[0] == 64*%arg1[0]
// CHECK: requires (128*%arg0[0]) // (64*%arg1[0]) == 2 or (128*%arg0[0]) // (64*%arg1[0]) == 1
// CHECK: requires (256*%arg0[0]) // (64*%arg1[0]) == 4 or (256*%arg0[0]) // (64*%arg1[0]) == 1
// CHECK-NOT: torch.runtime.assert
// CHECK: return
func.func @heads_after_two_views(%x: !torch.vtensor<[?,256],f32>, %w: !torch.vtensor<[?,256],f32>, %z: !torch.vtensor<[1,4,64],f32>) -> (!torch.vtensor, !torch.vtensor, !torch.vtensor) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int-1 = torch.constant.int -1
  %int64 = torch.constant.int 64
  %int128 = torch.constant.int 128
  %false = torch.constant.bool false
  %b = torch.aten.size.int %w, %int0 : !torch.vtensor<[?,256],f32>, !torch.int -> !torch.int
  %shape = torch.prim.ListConstruct %b, %int-1, %int64 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %v1 = torch.aten.view %x, %shape : !torch.vtensor<[?,256],f32>, !torch.list<int> -> !torch.vtensor
  %half = torch.aten.slice.Tensor %x, %int1, %int0, %int128, %int1 : !torch.vtensor<[?,256],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %v2 = torch.aten.view %half, %shape : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  %sizes = torch.prim.ListConstruct %b, %int2, %int64 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %e = torch.aten.expand %v2, %sizes, %false : !torch.vtensor, !torch.list<int>, !torch.bool -> !torch.vtensor
  %s = torch.aten.add.Tensor %v1, %z, %int1 : !torch.vtensor, !torch.vtensor<[1,4,64],f32>, !torch.int -> !torch.vtensor
  %t = torch.aten.add.Tensor %x, %w, %int1 : !torch.vtensor<[?,256],f32>, !torch.vtensor<[?,256],f32>, !torch.int -> !torch.vtensor
  return %e, %s, %t : !torch.vtensor, !torch.vtensor, !torch.vtensor
}

// SegFormer's stages, in small: of a square image of h >= 5 rows, the slices of every 8th
// row and column from 4 and from 0 flattened to `P = ((h + 3) // 8)**2` and `Q = ((h + 7) //
// 8)**2` rows, broadcast (`P == Q or P == 1 or Q == 1` asserted; the size `Q if P == 1 else
// P`) and viewed to Q rows. Where `P != 1`: `P == Q` is `(h + 3) // 8 == (h + 7) // 8` (equal
// squares of sizes, `facts.solve_powers`), `P == 1` is no case, and `Q == 1` is `(h + 7) //
// 8 == 1`, which puts h in [1, 8] (`facts.dividend_bounds`), so in [5, 8], where P is 1: no
// case either. The view's check goes.
// CHECK-LABEL: func.func @squares_after_a_broadcast
// CHECK: aten.add.Tensor: The size of tensor a (%arg0[1] + 3) // 8*(%arg0[1] + 3) // 8
// CHECK-NOT: aten.view: invalid shape
// CHECK: return
func.func @squares_after_a_broadcast(%x: !torch.vtensor<[?,?,?,16],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %int5 = torch.constant.int 5
  %int8 = torch.constant.int 8
  %int16 = torch.constant.int 16
  %b = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,?,?,16],f32>, !torch.int -> !torch.int
  %h = torch.aten.size.int %x, %int1 : !torch.vtensor<[?,?,?,16],f32>, !torch.int -> !torch.int
  %w = torch.aten.size.int %x, %int2 : !torch.vtensor<[?,?,?,16],f32>, !torch.int -> !torch.int
  %square = torch.aten.eq.int %h, %w : !torch.int, !torch.int -> !torch.bool
  torch.runtime.assert %square, "a square image"
  %large = torch.aten.ge.int %h, %int5 : !torch.int, !torch.int -> !torch.bool
  torch.runtime.assert %large, "at least 5 rows"
  %p1 = torch.aten.slice.Tensor %x, %int1, %int4, %h, %int8 : !torch.vtensor<[?,?,?,16],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %p2 = torch.aten.slice.Tensor %p1, %int2, %int4, %w, %int8 : !torch.vtensor, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %p = torch.aten.flatten.using_ints %p2, %int1, %int2 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %q1 = torch.aten.slice.Tensor %x, %int1, %int0, %h, %int8 : !torch.vtensor<[?,?,?,16],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %q2 = torch.aten.slice.Tensor %q1, %int2, %int0, %w, %int8 : !torch.vtensor, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %q = torch.aten.flatten.using_ints %q2, %int1, %int2 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  %sum = torch.aten.add.Tensor %p, %q, %int1 : !torch.vtensor, !torch.vtensor, !torch.int -> !torch.vtensor
  %n = torch.aten.size.int %q, %int1 : !torch.vtensor, !torch.int -> !torch.int
  %shape = torch.prim.ListConstruct %b, %n, %int16 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %v = torch.aten.view %sum, %shape : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  return %v : !torch.vtensor
}

// A plain Qwen2-MoE's router, in small: the sum of two [?, ?, 32] tensors viewed to
// [b0*b1, 32] (its check `S0*S1 == b0*b1`, asserted as `32*S0*S1 == 32*b0*b1`) and to [-1,
// 32], then added: the add's check `b0*b1 == S0*S1 or ...` reads the same equality once an
// equality's sides are divided by their common factor (`cases._canonical`), and goes.
// CHECK-LABEL: func.func @rows_of_a_broadcast_viewed_twice
// CHECK: aten.view: invalid shape (requires (%arg1[1] if %arg0[1] == 1 else %arg0[1])*(%arg1[0] if %arg0[0] == 1 else %arg0[0]) == %arg1[0]*%arg1[1])
// CHECK-NOT: torch.runtime.assert
// CHECK: return
func.func @rows_of_a_broadcast_viewed_twice(%x: !torch.vtensor<[?,?,32],f32>, %y: !torch.vtensor<[?,?,32],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %int32 = torch.constant.int 32
  %b0 = torch.aten.size.int %y, %int0 : !torch.vtensor<[?,?,32],f32>, !torch.int -> !torch.int
  %b1 = torch.aten.size.int %y, %int1 : !torch.vtensor<[?,?,32],f32>, !torch.int -> !torch.int
  %sum = torch.aten.add.Tensor %x, %y, %int1 : !torch.vtensor<[?,?,32],f32>, !torch.vtensor<[?,?,32],f32>, !torch.int -> !torch.vtensor
  %flat_shape = torch.prim.ListConstruct %int-1, %int32 : (!torch.int, !torch.int) -> !torch.list<int>
  %flat = torch.aten.view %sum, %flat_shape : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  %rows = torch.aten.mul.int %b0, %b1 : !torch.int, !torch.int -> !torch.int
  %shape = torch.prim.ListConstruct %rows, %int32 : (!torch.int, !torch.int) -> !torch.list<int>
  %v = torch.aten.view %sum, %shape : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  %r = torch.aten.add.Tensor %v, %flat, %int1 : !torch.vtensor, !torch.vtensor, !torch.int -> !torch.vtensor
  return %r : !torch.vtensor
}

// A view to [b*(s + 1)*t, -1, 8] of a [b, s + 1, t, 32] tensor checks `32*n == 8*n or (32*n
// != 8*n and 8*n > 0)` for n = b*(s + 1)*t, over three sizes: too many to split. Both
// comparisons compare n with 0, and no n (at least 0) makes the first false and the second
// false (`cases._satisfiable`): the check holds for every n, and goes. (A ViT's interpolated
// position embedding, plain.)
// CHECK-LABEL: func.func @rows_of_a_longer_sequence
// CHECK-NOT: aten.view: invalid shape
// CHECK: aten.view: division by zero in the shape calculation (requires %arg0[0]*%arg0[1]*%arg0[2] + %arg0[0]*%arg0[2] != 0)
// CHECK-NOT: aten.view: invalid shape
// CHECK: return
func.func @rows_of_a_longer_sequence(%x: !torch.vtensor<[?,?,?,32],f32>, %c: !torch.vtensor<[?,1,?,32],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int-1 = torch.constant.int -1
  %int8 = torch.constant.int 8
  %parts = torch.prim.ListConstruct %c, %x : (!torch.vtensor<[?,1,?,32],f32>, !torch.vtensor<[?,?,?,32],f32>) -> !torch.list<vtensor>
  %y = torch.aten.cat %parts, %int1 : !torch.list<vtensor>, !torch.int -> !torch.vtensor
  %b = torch.aten.size.int %y, %int0 : !torch.vtensor, !torch.int -> !torch.int
  %s = torch.aten.size.int %y, %int1 : !torch.vtensor, !torch.int -> !torch.int
  %t = torch.aten.size.int %y, %int2 : !torch.vtensor, !torch.int -> !torch.int
  %bs = torch.aten.mul.int %b, %s : !torch.int, !torch.int -> !torch.int
  %rows = torch.aten.mul.int %bs, %t : !torch.int, !torch.int -> !torch.int
  %shape = torch.prim.ListConstruct %rows, %int-1, %int8 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %v = torch.aten.view %y, %shape : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  return %v : !torch.vtensor
}

// A conv1d of a broadcast size S (`y if x == 1 else x`) checks `S + 2 >= 3` and then `S > 0`:
// both give S the range [1, ...]; the first, kept, is the fact, and the second goes
// (`cases._within_kept`; a plain ConvBERT's convolution and its im2col's `q != 0` and `q >
// 0`: 18 asserts to 13).
// CHECK-LABEL: func.func @a_convolution_of_a_broadcast
// CHECK: requires (%arg1[2] if %arg0[2] == 1 else %arg0[2]) + 2 >= 3
// CHECK-NOT: torch.runtime.assert
// CHECK: return
func.func @a_convolution_of_a_broadcast(%x: !torch.vtensor<[1,4,?],f32>, %y: !torch.vtensor<[1,4,?],f32>, %w: !torch.vtensor<[4,4,3],f32>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %sum = torch.aten.add.Tensor %x, %y, %int1 : !torch.vtensor<[1,4,?],f32>, !torch.vtensor<[1,4,?],f32>, !torch.int -> !torch.vtensor
  %stride = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %c = torch.aten.conv1d %sum, %w, %none, %stride, %stride, %stride, %int1 : !torch.vtensor, !torch.vtensor<[4,4,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.int -> !torch.vtensor
  return %c : !torch.vtensor
}

// A view of x [?, 256] to [b, -1, 64] (b the batch of y) checks that 64*b divides 256*x0,
// and the view of that to [b, 256] that the quotient q = (256*x0) // (64*b) is 4 (`64*b*q
// == 256*b`). Where 64*b divides its dividend, q == 4 is 256*x0 == 4*64*b: the check is
// asserted as x0 == b (engine/exact_quotients.py), which replaces a batch by the other, so
// the add's broadcast check holds, and so does the first view's (a plain DistilBERT's
// linear after a view of the other input's batch).
// CHECK-LABEL: func.func @quotient_equality_of_its_dividend
// CHECK-NOT: aten.view: invalid shape (requires 256
// CHECK: aten.view: invalid shape (requires %arg0[0] == %arg1[0])
// CHECK-NOT: torch.runtime.assert
// CHECK: return
func.func @quotient_equality_of_its_dividend(%x: !torch.vtensor<[?,256],f32>, %y: !torch.vtensor<[?,256],f32>) -> (!torch.vtensor, !torch.vtensor) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %int64 = torch.constant.int 64
  %int256 = torch.constant.int 256
  %b = torch.aten.size.int %y, %int0 : !torch.vtensor<[?,256],f32>, !torch.int -> !torch.int
  %shape = torch.prim.ListConstruct %b, %int-1, %int64 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %v1 = torch.aten.view %x, %shape : !torch.vtensor<[?,256],f32>, !torch.list<int> -> !torch.vtensor
  %flat = torch.prim.ListConstruct %b, %int256 : (!torch.int, !torch.int) -> !torch.list<int>
  %v2 = torch.aten.view %v1, %flat : !torch.vtensor, !torch.list<int> -> !torch.vtensor
  %sum = torch.aten.add.Tensor %x, %y, %int1 : !torch.vtensor<[?,256],f32>, !torch.vtensor<[?,256],f32>, !torch.int -> !torch.vtensor
  return %v2, %sum : !torch.vtensor, !torch.vtensor
}
