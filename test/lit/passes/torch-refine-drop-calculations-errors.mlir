// RUN: torch-refine-opt %s --split-input-file --verify-diagnostics --torch-refine-drop-calculations

func.func @raise_outside_if(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    // expected-error@+1 {{'torch.aten.tanh' op always fails its check: input must not be empty}}
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %none = torch.constant.none
    %msg = torch.constant.str "input must not be empty"
    torch.prim.RaiseException %msg, %none : !torch.str, !torch.none
    %1 = torch.aten.size %arg0 : !torch.vtensor -> !torch.list<int>
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

func.func @constant_false_check(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    // expected-error@+1 {{'torch.aten.tanh' op always fails its check: dtype must be floating}}
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %none = torch.constant.none
    %false = torch.constant.bool false
    %msg = torch.constant.str "dtype must be floating"
    torch.prim.If %false -> () {
      torch.prim.If.yield
    } else {
      torch.prim.RaiseException %msg, %none : !torch.str, !torch.none
      torch.prim.If.yield
    }
    %int6 = torch.constant.int 6
    torch.dtype.calculate.yield.dtypes %int6 : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}
