func.func @f(%arg0: !torch.int) -> !torch.float {
  return %arg0 : !torch.int
}
