// Ops whose operands do not fit their library function (used by
// torch-refine-reify-shape-calculations-errors.mlir).

func.func @wrong_arity(%arg0: !torch.vtensor) -> !torch.vtensor {
  // expected-error@+1 {{'torch.operator' op has 1 operands but @"__torch_refine_shape_fn.mylib.scale" takes 2 parameters}}
  %0 = torch.operator "mylib.scale"(%arg0) : (!torch.vtensor) -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

func.func @wrong_type(%arg0: !torch.vtensor, %arg1: !torch.str) -> !torch.vtensor {
  // expected-error@+1 {{'torch.operator' op operand #1 of type '!torch.str' cannot be passed as parameter of type '!torch.float' of @"__torch_refine_shape_fn.mylib.scale"}}
  %0 = torch.operator "mylib.scale"(%arg0, %arg1) : (!torch.vtensor, !torch.str) -> !torch.vtensor
  return %0 : !torch.vtensor
}
