// What TOSA cannot take stays a located error of torch-mlir's conversion: sizes that grow
// with the batch (TOSA's shapes are constants, and no op of it makes a tensor of a size
// known only at run time).
// RUN: torch-refine-opt %s --split-input-file --verify-diagnostics --torch-refine-backend-pipeline='backend=tosa'

// An arange of the batch: no constant shape has its length.
func.func @positions(%x: !torch.vtensor<[?,4],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  // expected-error @+1 {{failed to legalize operation 'torch.aten.size.int' that was explicitly marked illegal}}
  %batch = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,4],f32>, !torch.int -> !torch.int
  %p = torch.aten.arange.start_step %int0, %batch, %int1, %none, %none, %none, %none : !torch.int, !torch.int, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor
  %q = torch.aten.unsqueeze %p, %int1 : !torch.vtensor, !torch.int -> !torch.vtensor
  %r = torch.aten.add.Tensor %x, %q, %int1 : !torch.vtensor<[?,4],f32>, !torch.vtensor, !torch.int -> !torch.vtensor
  return %r : !torch.vtensor
}

// -----

// A static row broadcast to the batch of another tensor: a tile by a multiple known only
// at run time.
func.func @rows_to_batch(%x: !torch.vtensor<[?,8],f32>, %row: !torch.vtensor<[1,8],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int8 = torch.constant.int 8
  // expected-error @+1 {{failed to legalize operation 'torch.aten.size.int' that was explicitly marked illegal}}
  %batch = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,8],f32>, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %batch, %int8 : (!torch.int, !torch.int) -> !torch.list<int>
  %rows = torch.aten.broadcast_to %row, %sizes : !torch.vtensor<[1,8],f32>, !torch.list<int> -> !torch.vtensor
  return %rows : !torch.vtensor
}
