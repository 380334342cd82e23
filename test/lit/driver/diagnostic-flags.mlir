// Diagnostic filters: --mlir-diagnostic-verbosity-level, --mlir-disable-diagnostic-notes and
// --verify-diagnostics=only-expected. The explain remarks are remarks; the unmatched mm is an
// error with no expectation.

// RUN: not torch-refine-opt %s --split-input-file --torch-refine-pipeline=explain=true -o /dev/null 2>&1 | filecheck %s --check-prefix=ALL
// RUN: not torch-refine-opt %s --split-input-file --torch-refine-pipeline=explain=true --mlir-diagnostic-verbosity-level=errors -o /dev/null 2>&1 | filecheck %s --check-prefix=ERRORS
// RUN: torch-refine-opt %s --split-input-file --torch-refine-pipeline=explain=true --verify-diagnostics=only-expected -o /dev/null
// RUN: not torch-refine-opt %s --split-input-file --torch-refine-pipeline=explain=true --verify-diagnostics -o /dev/null 2>&1 | filecheck %s --check-prefix=VERIFY

// ALL: remark: no shape function for foo.bar
// ALL: error: 'torch.aten.mm' op shape check failed
// ERRORS-NOT: remark:
// ERRORS: error: 'torch.aten.mm' op shape check failed
// VERIFY: error: unexpected remark: no shape function for foo.bar

func.func @no_function(%arg0: !torch.vtensor<[4,3],f32>) -> !torch.vtensor {
  %0 = torch.operator "foo.bar"(%arg0) : (!torch.vtensor<[4,3],f32>) -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

func.func @mismatch(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[4,5],f32>) -> !torch.vtensor {
  // expected-error @+1 {{shape check failed}}
  %0 = torch.aten.mm %arg0, %arg1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[4,5],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}
