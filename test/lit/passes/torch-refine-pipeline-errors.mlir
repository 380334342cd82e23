// RUN: torch-refine-opt %s --split-input-file --verify-diagnostics --torch-refine-pipeline

// A dim of a zero-rank tensor: PyTorch raises for every dim (maybe_wrap_dim alone accepts
// 0 and -1, and the list index that then fails left no check behind).
func.func @unique_dim_of_zero_rank(%arg0: !torch.vtensor<[],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %true = torch.constant.bool true
  // expected-error@+1 {{'torch.aten.unique_dim' op shape check failed: AssertionError: unique_dim: Dimension specified as 0 but tensor has no dimensions}}
  %0:3 = torch.aten.unique_dim %arg0, %int0, %true, %true, %true : !torch.vtensor<[],f32>, !torch.int, !torch.bool, !torch.bool, !torch.bool -> !torch.vtensor, !torch.vtensor, !torch.vtensor
  return %0#0 : !torch.vtensor
}

// -----

func.func @unique_consecutive_of_zero_rank(%arg0: !torch.vtensor<[],f32>) -> !torch.vtensor {
  %int-1 = torch.constant.int -1
  %true = torch.constant.bool true
  %dim = torch.derefine %int-1 : !torch.int to !torch.optional<int>
  // expected-error@+1 {{'torch.aten.unique_consecutive' op shape check failed: AssertionError: unique_consecutive: Dimension specified as -1 but tensor has no dimensions}}
  %0:3 = torch.aten.unique_consecutive %arg0, %true, %true, %dim : !torch.vtensor<[],f32>, !torch.bool, !torch.bool, !torch.optional<int> -> !torch.vtensor, !torch.vtensor, !torch.vtensor
  return %0#0 : !torch.vtensor
}
