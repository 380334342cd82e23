// RUN: torch-refine-opt %s --split-input-file --torch-refine-pipeline | filecheck %s

// The equation is parsed by the `torch_refine.einsum_plan` intrinsic, folded on the
// constant string; the sizes are the library function's, over static and dynamic dims.
// CHECK-LABEL: func.func @matmul(
// CHECK:         torch.aten.einsum {{.*}} -> !torch.vtensor<[2,4],f32>
func.func @matmul(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[3,4],f32>) -> !torch.vtensor {
  %eq = torch.constant.str "ij,jk->ik"
  %none = torch.constant.none
  %ops = torch.prim.ListConstruct %arg0, %arg1 : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[3,4],f32>) -> !torch.list<vtensor>
  %0 = torch.aten.einsum %eq, %ops, %none : !torch.str, !torch.list<vtensor>, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Dynamic dims stay in place: a label seen in one operand keeps its dim, the sizes of `b`
// and `j` in the two operands are checked at run time (asserts named after the op, of
// the sizes' conditions, no If or raising branch left), and `b` is `?`.
// CHECK-LABEL: func.func @batch_matmul_dynamic(
// CHECK-NOT:     torch.prim.If
// CHECK:         torch.runtime.assert %{{.*}}, "aten.einsum: einsum(): a subscript has sizes in two operands that do not broadcast (requires %arg0[0] == 1 or %arg1[0] == 1 or %arg0[0] == %arg1[0])"
// CHECK:         torch.runtime.assert %{{.*}}, "aten.einsum: einsum(): a subscript has sizes in two operands that do not broadcast (requires %arg0[2] == 1 or %arg1[1] == 1 or %arg0[2] == %arg1[1])"
// CHECK-NOT:     torch.prim.If
// CHECK:         torch.aten.einsum {{.*}} -> !torch.vtensor<[?,?,4],f32>
func.func @batch_matmul_dynamic(%arg0: !torch.vtensor<[?,?,?],f32>, %arg1: !torch.vtensor<[?,?,4],f32>) -> !torch.vtensor {
  %eq = torch.constant.str "bij,bjk->bik"
  %none = torch.constant.none
  %ops = torch.prim.ListConstruct %arg0, %arg1 : (!torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?,?,4],f32>) -> !torch.list<vtensor>
  %0 = torch.aten.einsum %eq, %ops, %none : !torch.str, !torch.list<vtensor>, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// The implicit output of one operand (its labels in order, here transposed): each dim is
// the operand's own, static or not.
// CHECK-LABEL: func.func @implicit_transpose_dynamic(
// CHECK:         torch.aten.einsum {{.*}} -> !torch.vtensor<[5,?],si64>
func.func @implicit_transpose_dynamic(%arg0: !torch.vtensor<[?,5],si64>) -> !torch.vtensor {
  %eq = torch.constant.str "ba"
  %none = torch.constant.none
  %ops = torch.prim.ListConstruct %arg0 : (!torch.vtensor<[?,5],si64>) -> !torch.list<vtensor>
  %0 = torch.aten.einsum %eq, %ops, %none : !torch.str, !torch.list<vtensor>, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// An ellipsis over a dynamic dim, broadcast with a static 1.
// CHECK-LABEL: func.func @ellipsis_dynamic(
// CHECK:         torch.aten.einsum {{.*}} -> !torch.vtensor<[?,7,2,4],f16>
func.func @ellipsis_dynamic(%arg0: !torch.vtensor<[?,1,2,3],f16>, %arg1: !torch.vtensor<[7,3,4],f16>) -> !torch.vtensor {
  %eq = torch.constant.str "...ij, ...jk -> ...ik"
  %none = torch.constant.none
  %ops = torch.prim.ListConstruct %arg0, %arg1 : (!torch.vtensor<[?,1,2,3],f16>, !torch.vtensor<[7,3,4],f16>) -> !torch.list<vtensor>
  %0 = torch.aten.einsum %eq, %ops, %none : !torch.str, !torch.list<vtensor>, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A diagonal of a dynamic square: its two sizes are checked equal at run time. Summing
// integers makes int64.
// CHECK-LABEL: func.func @trace_dynamic(
// CHECK:         torch.runtime.assert
// CHECK:         torch.aten.einsum {{.*}} -> !torch.vtensor<[],si64>
func.func @trace_dynamic(%arg0: !torch.vtensor<[?,?],si32>) -> !torch.vtensor {
  %eq = torch.constant.str "ii->"
  %none = torch.constant.none
  %ops = torch.prim.ListConstruct %arg0 : (!torch.vtensor<[?,?],si32>) -> !torch.list<vtensor>
  %0 = torch.aten.einsum %eq, %ops, %none : !torch.str, !torch.list<vtensor>, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A product of integers that sums: PyTorch sums an operand first or not as sizes of 1
// decide, so the dtype stays unknown while the sizes are exact.
// CHECK-LABEL: func.func @integer_product(
// CHECK:         torch.aten.einsum {{.*}} -> !torch.vtensor<[2,4],unk>
func.func @integer_product(%arg0: !torch.vtensor<[2,3],si32>, %arg1: !torch.vtensor<[3,4],si32>) -> !torch.vtensor {
  %eq = torch.constant.str "ij,jk->ik"
  %none = torch.constant.none
  %ops = torch.prim.ListConstruct %arg0, %arg1 : (!torch.vtensor<[2,3],si32>, !torch.vtensor<[3,4],si32>) -> !torch.list<vtensor>
  %0 = torch.aten.einsum %eq, %ops, %none : !torch.str, !torch.list<vtensor>, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}
