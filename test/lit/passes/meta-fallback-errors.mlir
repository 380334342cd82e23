// RUN: torch-refine-opt %s --split-input-file --verify-diagnostics --torch-refine-pipeline

// A check PyTorch's meta kernel fails on operands without a dynamic size is an error at
// the op, as a library function's certain failure is (engine/fallback.py).
func.func @static_failure(%x: !torch.vtensor<[5,3],si64>) -> !torch.vtensor {
  %p = torch.constant.float 2.0
  // expected-error @+1 {{'torch.operator' op meta kernel check of aten.pdist failed: pdist only supports floating-point dtypes}}
  %0 = torch.operator "torch.aten.pdist"(%x, %p) : (!torch.vtensor<[5,3],si64>, !torch.float) -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Where the op may not run (a branch), the failure is an assert of false in front of it, and
// a warning.
func.func @static_failure_in_branch(%x: !torch.vtensor<[5,3],si64>, %c: !torch.bool) -> !torch.vtensor {
  %p = torch.constant.float 2.0
  %0 = torch.prim.If %c -> (!torch.vtensor) {
    // expected-warning @+1 {{meta kernel check of aten.pdist failed: pdist only supports floating-point dtypes; kept as a runtime assert}}
    %1 = torch.operator "torch.aten.pdist"(%x, %p) : (!torch.vtensor<[5,3],si64>, !torch.float) -> !torch.vtensor
    torch.prim.If.yield %1 : !torch.vtensor
  } else {
    %2 = torch.tensor_static_info_cast %x : !torch.vtensor<[5,3],si64> to !torch.vtensor
    torch.prim.If.yield %2 : !torch.vtensor
  }
  return %0 : !torch.vtensor
}

// -----

// A dynamic size leaves the kernel's checks to its guards: no error.
func.func @dynamic_no_error(%x: !torch.vtensor<[?,3],f32>) -> !torch.vtensor {
  %p = torch.constant.float 2.0
  %0 = torch.operator "torch.aten.pdist"(%x, %p) : (!torch.vtensor<[?,3],f32>, !torch.float) -> !torch.vtensor
  return %0 : !torch.vtensor
}
