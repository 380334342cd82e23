// RUN: torch-refine-opt %s --split-input-file --verify-diagnostics --torch-refine-pipeline

// An equation PyTorch rejects: the folded einsum plan raises PyTorch's message, reported
// at the op.
func.func @invalid_subscript(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %eq = torch.constant.str "i-j"
  %none = torch.constant.none
  %ops = torch.prim.ListConstruct %arg0 : (!torch.vtensor<[2,3],f32>) -> !torch.list<vtensor>
  // expected-error@+1 {{'torch.aten.einsum' op shape check failed: AssertionError: einsum(): invalid subscript given at index 1 in the equation string, subscripts must be in [a-zA-Z]}}
  %0 = torch.aten.einsum %eq, %ops, %none : !torch.str, !torch.list<vtensor>, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

func.func @output_label_not_in_inputs(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %eq = torch.constant.str "ij->k"
  %none = torch.constant.none
  %ops = torch.prim.ListConstruct %arg0 : (!torch.vtensor<[2,3],f32>) -> !torch.list<vtensor>
  // expected-error@+1 {{'torch.aten.einsum' op shape check failed: AssertionError: einsum(): output subscript k does not appear in the equation for any input operand}}
  %0 = torch.aten.einsum %eq, %ops, %none : !torch.str, !torch.list<vtensor>, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Sizes the library function checks: a contracted label of sizes 3 and 4.
func.func @contracted_sizes_differ(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[4,5],f32>) -> !torch.vtensor {
  %eq = torch.constant.str "ij,jk->ik"
  %none = torch.constant.none
  %ops = torch.prim.ListConstruct %arg0, %arg1 : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[4,5],f32>) -> !torch.list<vtensor>
  // expected-error@+1 {{'torch.aten.einsum' op shape check failed: AssertionError: einsum(): a subscript has sizes in two operands that do not broadcast}}
  %0 = torch.aten.einsum %eq, %ops, %none : !torch.str, !torch.list<vtensor>, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

func.func @fewer_operands(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %eq = torch.constant.str "ij,jk->ik"
  %none = torch.constant.none
  %ops = torch.prim.ListConstruct %arg0 : (!torch.vtensor<[2,3],f32>) -> !torch.list<vtensor>
  // expected-error@+1 {{'torch.aten.einsum' op shape check failed: AssertionError: einsum(): fewer operands were provided than specified in the equation}}
  %0 = torch.aten.einsum %eq, %ops, %none : !torch.str, !torch.list<vtensor>, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}
