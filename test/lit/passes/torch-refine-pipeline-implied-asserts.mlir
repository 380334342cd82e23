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
