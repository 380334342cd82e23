// A check of the op's shape function that fails on known sizes is an error at the op.
// RUN: torch-refine-opt --extra-library=%S/../my_ops.py --torch-refine-pipeline=explain=true %s -split-input-file -verify-diagnostics

func.func @odd_head_dim(%x: !torch.vtensor<[2,8,16,63],f32>, %cos: !torch.vtensor<[16,31],f32>) -> !torch.vtensor {
  // expected-error-re @+1 {{rotary: the head dimension must be even{{$}}}}
  %0 = torch.operator "mylib.rotary"(%x, %cos, %cos) : (!torch.vtensor<[2,8,16,63],f32>, !torch.vtensor<[16,31],f32>, !torch.vtensor<[16,31],f32>) -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Without its function (here: explain=true on a module the extra library does not cover),
// the op stays unknown, and the remark says why.
func.func @unknown_op(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  // expected-remark @+1 {{no shape function for mylib.unknown}}
  %0 = torch.operator "mylib.unknown"(%x) : (!torch.vtensor<[2,3],f32>) -> !torch.vtensor
  return %0 : !torch.vtensor
}
