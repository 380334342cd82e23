// 0 and -1, and the list index that then fails left no check behind).
func.func @unique_dim_of_zero_rank(%arg0: !torch.vtensor<[],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %true = torch.constant.bool true
  %0:3 = torch.aten.unique_dim %arg0, %int0, %true, %true, %true : !torch.vtensor<[],f32>, !torch.int, !torch.bool, !torch.bool, !torch.bool -> !torch.vtensor, !torch.vtensor, !torch.vtensor
  return %0#0 : !torch.vtensor
}
