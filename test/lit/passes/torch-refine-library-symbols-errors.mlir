// Library symbols are reserved: a function of the input named like a library function
// must be exactly the copy a reify step makes of it, else every pass that loads the
// library rejects it at the function, before refining anything.
// RUN: torch-refine-opt %s --split-input-file --verify-diagnostics --torch-refine-pipeline
// RUN: torch-refine-opt %s --split-input-file --verify-diagnostics --torch-refine-shape-pipeline
// RUN: torch-refine-opt %s --split-input-file --verify-diagnostics --torch-refine-dtype-pipeline
// RUN: torch-refine-opt %s --split-input-file --verify-diagnostics --torch-refine-reify-shape-calculations
// RUN: torch-refine-opt %s --split-input-file --verify-diagnostics --torch-refine-reify-dtype-calculations

// A private shape function that would make tanh of [2,3] a [7,7].
func.func @forged_shape_function(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %0 = torch.aten.tanh %arg0 : !torch.vtensor<[2,3],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}
// expected-error @+1 {{function @"__torch_refine_shape_fn.aten.tanh" uses a name reserved for torch-refine's library and is not that library function}}
func.func private @__torch_refine_shape_fn.aten.tanh(%arg0: !torch.list<int>) -> !torch.list<int> {
  %int7 = torch.constant.int 7
  %0 = torch.prim.ListConstruct %int7, %int7 : (!torch.int, !torch.int) -> !torch.list<int>
  return %0 : !torch.list<int>
}

// -----

// A public dtype function.
func.func @forged_dtype_function(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %0 = torch.aten.tanh %arg0 : !torch.vtensor<[2,3],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}
// expected-error @+1 {{function @"__torch_refine_dtype_fn.aten.tanh" uses a name reserved}}
func.func @__torch_refine_dtype_fn.aten.tanh(%arg0: !torch.tuple<int, int>) -> !torch.int {
  %int4 = torch.constant.int 4
  return %int4 : !torch.int
}

// -----

// A helper the library does not have, even if nothing calls it.
// expected-error @+1 {{function @"__torch_refine_helper.anything" uses a name reserved}}
func.func private @__torch_refine_helper.anything() -> !torch.int {
  %int4 = torch.constant.int 4
  return %int4 : !torch.int
}
