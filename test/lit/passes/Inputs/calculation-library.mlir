// Hand-written library functions for the reify/inline lit tests (bodies are minimal;
// the tests check how calls are built, not what the functions compute).
module {
  func.func @__torch_refine_shape_fn.aten.tanh(%self: !torch.list<int>) -> !torch.list<int> {
    %0 = call @__torch_refine_helper.unary(%self) : (!torch.list<int>) -> !torch.list<int>
    return %0 : !torch.list<int>
  }
  func.func private @__torch_refine_helper.unary(%self: !torch.list<int>) -> !torch.list<int> {
    return %self : !torch.list<int>
  }
  func.func @__torch_refine_shape_fn.mylib.scale(%self: !torch.list<int>, %factor: !torch.float) -> !torch.list<int> {
    return %self : !torch.list<int>
  }
  func.func @__torch_refine_shape_fn.mylib.with_count(%self: !torch.list<int>) -> !torch.list<int> {
    return %self : !torch.list<int>
  }
  func.func @__torch_refine_shape_fn.aten.bernoulli(%self: !torch.list<int>, %generator: !torch.any) -> !torch.list<int> {
    return %self : !torch.list<int>
  }
  func.func @__torch_refine_shape_fn.aten.add.Scalar(%self: !torch.list<int>, %other: !torch.float, %alpha: !torch.float) -> !torch.list<int> {
    return %self : !torch.list<int>
  }
  func.func @__torch_refine_shape_fn.aten.topk(%self: !torch.list<int>, %k: !torch.int, %dim: !torch.int, %largest: !torch.bool, %sorted: !torch.bool) -> !torch.tuple<list<int>, list<int>> {
    %0 = torch.prim.TupleConstruct %self, %self : !torch.list<int>, !torch.list<int> -> !torch.tuple<list<int>, list<int>>
    return %0 : !torch.tuple<list<int>, list<int>>
  }
  func.func @__torch_refine_shape_fn.aten.sum.dim_IntList(%self: !torch.list<int>, %dim: !torch.optional<list<int>>, %keepdim: !torch.bool, %dtype: !torch.optional<int>) -> !torch.list<int> {
    return %self : !torch.list<int>
  }
  func.func @__torch_refine_shape_fn.aten.linear(%input: !torch.list<int>, %weight: !torch.list<int>, %bias: !torch.optional<list<int>>) -> !torch.list<int> {
    return %input : !torch.list<int>
  }
  func.func @__torch_refine_shape_fn.aten.cat(%tensors: !torch.list<list<int>>, %dim: !torch.int) -> !torch.list<int> {
    %int0 = torch.constant.int 0
    %0 = torch.aten.__getitem__.t %tensors, %int0 : !torch.list<list<int>>, !torch.int -> !torch.list<int>
    return %0 : !torch.list<int>
  }
  func.func @__torch_refine_shape_fn.aten.arange(%end: !torch.float, %dtype: !torch.optional<int>, %layout: !torch.optional<int>, %device: !torch.optional<Device>, %pin_memory: !torch.optional<bool>) -> !torch.list<int> {
    %0 = torch.prim.ListConstruct : () -> !torch.list<int>
    return %0 : !torch.list<int>
  }
  func.func @__torch_refine_shape_fn.aten.split.Tensor(%self: !torch.list<int>, %split_size: !torch.int, %dim: !torch.int) -> !torch.list<list<int>> {
    %0 = torch.prim.ListConstruct %self, %self : (!torch.list<int>, !torch.list<int>) -> !torch.list<list<int>>
    return %0 : !torch.list<list<int>>
  }
  func.func @__torch_refine_dtype_fn.aten.tanh(%self_rank_dtype: !torch.tuple<int, int>) -> !torch.int {
    %int1 = torch.constant.int 1
    %0 = torch.prim.TupleIndex %self_rank_dtype, %int1 : !torch.tuple<int, int>, !torch.int -> !torch.int
    return %0 : !torch.int
  }
  func.func @__torch_refine_dtype_fn.aten.add.Scalar(%self_rank_dtype: !torch.tuple<int, int>, %other: !torch.number, %alpha: !torch.number) -> !torch.int {
    %int1 = torch.constant.int 1
    %0 = torch.prim.TupleIndex %self_rank_dtype, %int1 : !torch.tuple<int, int>, !torch.int -> !torch.int
    return %0 : !torch.int
  }
  func.func @__torch_refine_dtype_fn.aten.add(%a: !torch.number, %b: !torch.number) -> !torch.int {
    %int4 = torch.constant.int 4
    return %int4 : !torch.int
  }
  func.func @__torch_refine_dtype_fn.aten.linear(%input_rank_dtype: !torch.tuple<int, int>, %weight_rank_dtype: !torch.tuple<int, int>, %bias_rank_dtype: !torch.optional<tuple<int, int>>) -> !torch.int {
    %int1 = torch.constant.int 1
    %0 = torch.prim.TupleIndex %input_rank_dtype, %int1 : !torch.tuple<int, int>, !torch.int -> !torch.int
    return %0 : !torch.int
  }
  func.func @__torch_refine_dtype_fn.aten.topk(%self_rank_dtype: !torch.tuple<int, int>, %k: !torch.int, %dim: !torch.int, %largest: !torch.bool, %sorted: !torch.bool) -> !torch.tuple<int, int> {
    %int1 = torch.constant.int 1
    %int4 = torch.constant.int 4
    %0 = torch.prim.TupleIndex %self_rank_dtype, %int1 : !torch.tuple<int, int>, !torch.int -> !torch.int
    %1 = torch.prim.TupleConstruct %0, %int4 : !torch.int, !torch.int -> !torch.tuple<int, int>
    return %1 : !torch.tuple<int, int>
  }
  func.func @__torch_refine_dtype_fn.aten.cat(%tensors_rank_dtype: !torch.list<tuple<int, int>>, %dim: !torch.int) -> !torch.int {
    %int0 = torch.constant.int 0
    %int1 = torch.constant.int 1
    %0 = torch.aten.__getitem__.t %tensors_rank_dtype, %int0 : !torch.list<tuple<int, int>>, !torch.int -> !torch.tuple<int, int>
    %1 = torch.prim.TupleIndex %0, %int1 : !torch.tuple<int, int>, !torch.int -> !torch.int
    return %1 : !torch.int
  }
  func.func @__torch_refine_dtype_fn.mylib.scale(%self_rank_dtype: !torch.tuple<int, int>, %factor: !torch.float) -> !torch.int {
    %int6 = torch.constant.int 6
    return %int6 : !torch.int
  }
  func.func @__torch_refine_dtype_fn.aten.split.Tensor(%self_rank_dtype: !torch.tuple<int, int>, %split_size: !torch.int, %dim: !torch.int) -> !torch.list<int> {
    %int1 = torch.constant.int 1
    %0 = torch.prim.TupleIndex %self_rank_dtype, %int1 : !torch.tuple<int, int>, !torch.int -> !torch.int
    %1 = torch.prim.ListConstruct %0, %0 : (!torch.int, !torch.int) -> !torch.list<int>
    return %1 : !torch.list<int>
  }
}
