// A type is missing after the colon.
func.func @f(%arg0: !torch.int) -> !torch.int {
  %0 = torch.aten.add.int %arg0, %arg0 !torch.int, !torch.int -> !torch.int
  return %0 : !torch.int
}
