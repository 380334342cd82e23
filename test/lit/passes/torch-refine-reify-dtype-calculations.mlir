// RUN: torch-refine-opt %s --split-input-file --pass-pipeline='builtin.module(torch-refine-reify-dtype-calculations{extra-library=%S/Inputs/calculation-library.mlir})' | filecheck %s

// A tensor operand becomes its (rank, dtype) tuple.
// CHECK-LABEL: func.func @basic(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor<[2],unk>
// CHECK:         %[[R:.*]] = torch.dtype.calculate {
// CHECK:           %[[T:.*]] = torch.aten.tanh %[[X]]
// CHECK:           torch.dtype.calculate.yield %[[T]] : !torch.vtensor
// CHECK:         } dtypes {
// CHECK:           %[[RANK:.*]] = torch.aten.dim %[[X]] : !torch.vtensor<[2],unk> -> !torch.int
// CHECK:           %[[DTYPE:.*]] = torch.prim.dtype %[[X]] : !torch.vtensor<[2],unk> -> !torch.int
// CHECK:           %[[RD:.*]] = torch.prim.TupleConstruct %[[RANK]], %[[DTYPE]] : !torch.int, !torch.int -> !torch.tuple<int, int>
// CHECK:           %[[D:.*]] = func.call @__torch_refine_dtype_fn.aten.tanh(%[[RD]]) : (!torch.tuple<int, int>) -> !torch.int
// CHECK:           torch.dtype.calculate.yield.dtypes %[[D]] : !torch.int
// CHECK:         } : !torch.vtensor
// CHECK:         return %[[R]]
// CHECK:       func.func private @__torch_refine_dtype_fn.aten.tanh(
func.func @basic(%arg0: !torch.vtensor<[2],unk>) -> !torch.vtensor {
  %0 = torch.aten.tanh %arg0 : !torch.vtensor<[2],unk> -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Scalars are derefined to `!torch.number`.
// CHECK-LABEL: func.func @scalar_to_number(
// CHECK:         %[[INT2:.*]] = torch.constant.int 2
// CHECK:         %[[F:.*]] = torch.constant.float
// CHECK:         } dtypes {
// CHECK:           %[[N0:.*]] = torch.derefine %[[INT2]] : !torch.int to !torch.number
// CHECK:           %[[N1:.*]] = torch.derefine %[[F]] : !torch.float to !torch.number
// CHECK:           func.call @__torch_refine_dtype_fn.aten.add.Scalar(%{{.*}}, %[[N0]], %[[N1]]) : (!torch.tuple<int, int>, !torch.number, !torch.number) -> !torch.int
func.func @scalar_to_number(%arg0: !torch.vtensor) -> !torch.vtensor {
  %int2 = torch.constant.int 2
  %float = torch.constant.float 1.5
  %0 = torch.aten.add.Scalar %arg0, %int2, %float : !torch.vtensor, !torch.int, !torch.float -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A `!torch.number` result is described by the dtype function too.
// CHECK-LABEL: func.func @number_result(
// CHECK:         %[[R:.*]] = torch.dtype.calculate {
// CHECK:           torch.aten.add %{{.*}}, %{{.*}} : !torch.number, !torch.number -> !torch.number
// CHECK:         } dtypes {
// CHECK:           %[[D:.*]] = func.call @__torch_refine_dtype_fn.aten.add(
// CHECK:           torch.dtype.calculate.yield.dtypes %[[D]] : !torch.int
// CHECK:         } : !torch.number
func.func @number_result(%arg0: !torch.number, %arg1: !torch.number) -> !torch.number {
  %0 = torch.aten.add %arg0, %arg1 : !torch.number, !torch.number -> !torch.number
  return %0 : !torch.number
}

// -----

// An optional tensor that is None is derefined to `!torch.optional<tuple<int, int>>`.
// CHECK-LABEL: func.func @optional_tensor_none(
// CHECK:         %[[NONE:.*]] = torch.constant.none
// CHECK:         } dtypes {
// CHECK:           %[[D:.*]] = torch.derefine %[[NONE]] : !torch.none to !torch.optional<tuple<int, int>>
// CHECK:           func.call @__torch_refine_dtype_fn.aten.linear(%{{.*}}, %{{.*}}, %[[D]])
func.func @optional_tensor_none(%arg0: !torch.vtensor, %arg1: !torch.vtensor) -> !torch.vtensor {
  %none = torch.constant.none
  %0 = torch.aten.linear %arg0, %arg1, %none : !torch.vtensor, !torch.vtensor, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Several results: one dtype per result from the unpacked tuple.
// CHECK-LABEL: func.func @multiple_results(
// CHECK:         } dtypes {
// CHECK:           %[[T:.*]] = func.call @__torch_refine_dtype_fn.aten.topk({{.*}}) : ({{.*}}) -> !torch.tuple<int, int>
// CHECK:           %[[U:.*]]:2 = torch.prim.TupleUnpack %[[T]] : !torch.tuple<int, int> -> !torch.int, !torch.int
// CHECK:           torch.dtype.calculate.yield.dtypes %[[U]]#0, %[[U]]#1 : !torch.int, !torch.int
func.func @multiple_results(%arg0: !torch.vtensor) -> !torch.vtensor {
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %true = torch.constant.bool true
  %values, %indices = torch.aten.topk %arg0, %int2, %int1, %true, %true : !torch.vtensor, !torch.int, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor, !torch.vtensor
  return %indices : !torch.vtensor
}

// -----

// A list of tensors becomes a list of (rank, dtype) tuples.
// CHECK-LABEL: func.func @list_of_tensors(
// CHECK-SAME:      %[[A:.*]]: !torch.vtensor, %[[B:.*]]: !torch.vtensor
// CHECK:         } dtypes {
// CHECK:           %[[TA:.*]] = torch.prim.TupleConstruct
// CHECK:           %[[TB:.*]] = torch.prim.TupleConstruct
// CHECK:           %[[L:.*]] = torch.prim.ListConstruct %[[TA]], %[[TB]] : (!torch.tuple<int, int>, !torch.tuple<int, int>) -> !torch.list<tuple<int, int>>
// CHECK:           func.call @__torch_refine_dtype_fn.aten.cat(%[[L]], %{{.*}})
func.func @list_of_tensors(%arg0: !torch.vtensor, %arg1: !torch.vtensor) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %list = torch.prim.ListConstruct %arg0, %arg1 : (!torch.vtensor, !torch.vtensor) -> !torch.list<vtensor>
  %0 = torch.aten.cat %list, %int1 : !torch.list<vtensor>, !torch.int -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A custom op, looked up by name; an op whose result dtype is known is not wrapped.
// CHECK-LABEL: func.func @custom_op_and_refined(
// CHECK:         torch.dtype.calculate {
// CHECK:           torch.operator "mylib.scale"
// CHECK:         } dtypes {
// CHECK:           func.call @__torch_refine_dtype_fn.mylib.scale(
// CHECK:         } : !torch.vtensor
// CHECK-NOT:     torch.dtype.calculate
// CHECK:         torch.aten.tanh
// CHECK:         return
func.func @custom_op_and_refined(%arg0: !torch.vtensor, %arg1: !torch.float) -> !torch.vtensor<[?],f32> {
  %0 = torch.operator "mylib.scale"(%arg0, %arg1) : (!torch.vtensor, !torch.float) -> !torch.vtensor
  %1 = torch.aten.tanh %0 : !torch.vtensor -> !torch.vtensor<[?],f32>
  return %1 : !torch.vtensor<[?],f32>
}

// -----

// A tensor-list result unpacked by its only user takes one dtype per element.
// CHECK-LABEL: func.func @list_result(
// CHECK:         } dtypes {
// CHECK:           %[[DTYPES:.*]] = func.call @__torch_refine_dtype_fn.aten.split.Tensor({{.*}}) : ({{.*}}) -> !torch.list<int>
// CHECK:           %[[D0:.*]] = torch.aten.__getitem__.t %[[DTYPES]], %{{.*}} : !torch.list<int>, !torch.int -> !torch.int
// CHECK:           %[[D1:.*]] = torch.aten.__getitem__.t %[[DTYPES]], %{{.*}} : !torch.list<int>, !torch.int -> !torch.int
// CHECK:           torch.dtype.calculate.yield.dtypes %[[D0]], %[[D1]] : !torch.int, !torch.int
func.func @list_result(%arg0: !torch.vtensor) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %0 = torch.aten.split.Tensor %arg0, %int1, %int1 : !torch.vtensor, !torch.int, !torch.int -> !torch.list<vtensor>
  %1:2 = torch.prim.ListUnpack %0 : !torch.list<vtensor> -> !torch.vtensor, !torch.vtensor
  return %1#1 : !torch.vtensor
}
