// RUN: torch-refine-opt %s --split-input-file --verify-diagnostics --torch-refine-inline-library-calls

func.func @recursive(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %1 = torch.aten.size %arg0 : !torch.vtensor -> !torch.list<int>
    %2 = func.call @__torch_refine_shape_fn.aten.tanh(%1) : (!torch.list<int>) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %2 : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}
func.func private @__torch_refine_shape_fn.aten.tanh(%arg0: !torch.list<int>) -> !torch.list<int> {
  // expected-error@+1 {{calls @__torch_refine_shape_fn.aten.tanh recursively}}
  %0 = call @__torch_refine_shape_fn.aten.tanh(%arg0) : (!torch.list<int>) -> !torch.list<int>
  return %0 : !torch.list<int>
}
