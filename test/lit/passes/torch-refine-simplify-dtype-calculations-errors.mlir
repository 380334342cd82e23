// RUN: torch-refine-opt %s --split-input-file --verify-diagnostics --torch-refine-simplify-dtype-calculations

// The calculated dtype contradicts the stated one.
func.func @dtype_contradiction(%arg0: !torch.vtensor) -> !torch.vtensor<*,si64> {
  %0 = torch.dtype.calculate {
    // expected-error @+1 {{'torch.aten.tanh' op calculated dtype (!torch.vtensor<*,f32>) contradicts the stated type !torch.vtensor<*,si64>}}
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor<*,si64>
    torch.dtype.calculate.yield %1 : !torch.vtensor<*,si64>
  } dtypes {
    %int6 = torch.constant.int 6
    torch.dtype.calculate.yield.dtypes %int6 : !torch.int
  } : !torch.vtensor<*,si64>
  return %0 : !torch.vtensor<*,si64>
}

// -----

// Promotion undefined for the dtype code 13 (not a c10 dtype we promote).
func.func @promotion_undefined(%arg0: !torch.vtensor, %arg1: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    // expected-error @+1 {{'torch.aten.mul.Tensor' op dtype check failed: type promotion: type promotion is not defined for this dtype}}
    %1 = torch.aten.mul.Tensor %arg0, %arg1 : !torch.vtensor, !torch.vtensor -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %int1 = torch.constant.int 1
    %int6 = torch.constant.int 6
    %int13 = torch.constant.int 13
    %ranks = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<optional<int>>
    %dtypes = torch.prim.ListConstruct %int6, %int13 : (!torch.int, !torch.int) -> !torch.list<int>
    %p = torch.promote_dtypes %ranks, %dtypes : (!torch.list<optional<int>>, !torch.list<int>) -> !torch.int
    torch.dtype.calculate.yield.dtypes %p : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}
