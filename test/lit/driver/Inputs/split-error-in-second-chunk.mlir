func.func @ok_before() {
  return
}

// -----

func.func @bad(%arg0: !torch.int) -> !torch.int {
  %0 = torch.aten.add.int %arg0, %arg0 : !torch.int, !torch.int -> !torch.int
  return %undefined : !torch.int
}

// -----

func.func @ok_after() {
  return
}
