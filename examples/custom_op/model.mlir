// A model with a custom op and an ATen op that torch-refine's built-in library lacks (and the
// Torch dialect has no op for: it comes as a `torch.operator`);
// my_ops.py gives both their shape and dtype functions. A `torch.operator` is opaque as a
// user (it keeps the operand types it was built with), so both read the typed argument.
func.func @forward(%x: !torch.vtensor<[2,8,16,64],f32>, %cos: !torch.vtensor<[16,32],f32>, %sin: !torch.vtensor<[16,32],f32>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %rotated = torch.operator "mylib.rotary"(%x, %cos, %sin) : (!torch.vtensor<[2,8,16,64],f32>, !torch.vtensor<[16,32],f32>, !torch.vtensor<[16,32],f32>) -> !torch.vtensor
  %shuffled = torch.operator "aten.native_channel_shuffle"(%x, %int2) : (!torch.vtensor<[2,8,16,64],f32>, !torch.int) -> !torch.vtensor
  %sum = torch.aten.add.Tensor %rotated, %shuffled, %int1 : !torch.vtensor, !torch.vtensor, !torch.int -> !torch.vtensor
  %out = torch.aten.tanh %sum : !torch.vtensor -> !torch.vtensor
  return %out : !torch.vtensor
}
