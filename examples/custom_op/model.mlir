// A model with a custom op and an ATen op that torch-refine's built-in library lacks;
// my_ops.py gives both their shape and dtype functions.
func.func @forward(%x: !torch.vtensor<[2,8,16,64],f32>, %cos: !torch.vtensor<[16,32],f32>, %sin: !torch.vtensor<[16,32],f32>) -> !torch.vtensor {
  %int2 = torch.constant.int 2
  %rotated = torch.operator "mylib.rotary"(%x, %cos, %sin) : (!torch.vtensor<[2,8,16,64],f32>, !torch.vtensor<[16,32],f32>, !torch.vtensor<[16,32],f32>) -> !torch.vtensor
  %shuffled = torch.aten.pixel_shuffle %rotated, %int2 : !torch.vtensor, !torch.int -> !torch.vtensor
  %out = torch.aten.tanh %shuffled : !torch.vtensor -> !torch.vtensor
  return %out : !torch.vtensor
}
