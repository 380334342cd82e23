// Shape and dtype functions of the custom op `mylib.double_last` (the last size doubles).
module {
  func.func @"__torch_refine_shape_fn.mylib.double_last"(%self: !torch.list<int>) -> !torch.list<int> {
    %int-1 = torch.constant.int -1
    %int0 = torch.constant.int 0
    %int1 = torch.constant.int 1
    %int2 = torch.constant.int 2
    %last = torch.aten.__getitem__.t %self, %int-1 : !torch.list<int>, !torch.int -> !torch.int
    %doubled = torch.aten.mul.int %last, %int2 : !torch.int, !torch.int -> !torch.int
    %init = torch.aten.slice.t %self, %int0, %int-1, %int1 : !torch.list<int>, !torch.int, !torch.int, !torch.int -> !torch.list<int>
    %r = torch.prim.ListConstruct %doubled : (!torch.int) -> !torch.list<int>
    %out = torch.aten.add.t %init, %r : !torch.list<int>, !torch.list<int> -> !torch.list<int>
    return %out : !torch.list<int>
  }
}
