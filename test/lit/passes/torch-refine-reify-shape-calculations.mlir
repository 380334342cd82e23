// RUN: torch-refine-opt %s --split-input-file --pass-pipeline='builtin.module(torch-refine-reify-shape-calculations{extra-library=%S/Inputs/calculation-library.mlir})' | filecheck %s

// CHECK-LABEL: func.func @basic(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor<[2,?],f32>
// CHECK:         %[[R:.*]] = torch.shape.calculate {
// CHECK:           %[[T:.*]] = torch.aten.tanh %[[X]] : !torch.vtensor<[2,?],f32> -> !torch.vtensor
// CHECK:           torch.shape.calculate.yield %[[T]] : !torch.vtensor
// CHECK:         } shapes {
// CHECK:           %[[S:.*]] = torch.aten.size %[[X]] : !torch.vtensor<[2,?],f32> -> !torch.list<int>
// CHECK:           %[[C:.*]] = func.call @__torch_refine_shape_fn.aten.tanh(%[[S]]) : (!torch.list<int>) -> !torch.list<int>
// CHECK:           torch.shape.calculate.yield.shapes %[[C]] : !torch.list<int>
// CHECK:         } : !torch.vtensor
// CHECK:         return %[[R]] : !torch.vtensor
// The shape function and the helper it calls are brought in once, private.
// CHECK:       func.func private @__torch_refine_shape_fn.aten.tanh(
// CHECK:       func.func private @__torch_refine_helper.unary(
func.func @basic(%arg0: !torch.vtensor<[2,?],f32>) -> !torch.vtensor {
  %0 = torch.aten.tanh %arg0 : !torch.vtensor<[2,?],f32> -> !torch.vtensor
  %1 = torch.aten.tanh %0 : !torch.vtensor -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A custom op is looked up by its `name`.
// CHECK-LABEL: func.func @custom_op(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor, %[[F:.*]]: !torch.float
// CHECK:         torch.shape.calculate {
// CHECK:           torch.operator "mylib.scale"(%[[X]], %[[F]])
// CHECK:         } shapes {
// CHECK:           %[[S:.*]] = torch.aten.size %[[X]]
// CHECK:           func.call @__torch_refine_shape_fn.mylib.scale(%[[S]], %[[F]]) : (!torch.list<int>, !torch.float) -> !torch.list<int>
func.func @custom_op(%arg0: !torch.vtensor, %arg1: !torch.float) -> !torch.vtensor {
  %0 = torch.operator "mylib.scale"(%arg0, %arg1) : (!torch.vtensor, !torch.float) -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A Generator argument (here None) is passed as `!torch.any`.
// CHECK-LABEL: func.func @generator_arg(
// CHECK:         %[[NONE:.*]] = torch.constant.none
// CHECK:         } shapes {
// CHECK:           %[[S:.*]] = torch.aten.size
// CHECK:           %[[ANY:.*]] = torch.derefine %[[NONE]] : !torch.none to !torch.any
// CHECK:           func.call @__torch_refine_shape_fn.aten.bernoulli(%[[S]], %[[ANY]]) : (!torch.list<int>, !torch.any) -> !torch.list<int>
func.func @generator_arg(%arg0: !torch.vtensor) -> !torch.vtensor {
  %none = torch.constant.none
  %0 = torch.aten.bernoulli %arg0, %none : !torch.vtensor, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Scalars (int here, and a number) become `!torch.float` for shape functions.
// CHECK-LABEL: func.func @scalar_to_float(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor, %[[N:.*]]: !torch.number
// CHECK:         %[[INT2:.*]] = torch.constant.int 2
// CHECK:         } shapes {
// CHECK:           %[[S:.*]] = torch.aten.size %[[X]]
// CHECK:           %[[F0:.*]] = torch.aten.Float.Scalar %[[INT2]] : !torch.int -> !torch.float
// CHECK:           %[[F1:.*]] = torch.aten.Float.Scalar %[[N]] : !torch.number -> !torch.float
// CHECK:           func.call @__torch_refine_shape_fn.aten.add.Scalar(%[[S]], %[[F0]], %[[F1]])
func.func @scalar_to_float(%arg0: !torch.vtensor, %arg1: !torch.number) -> !torch.vtensor {
  %int2 = torch.constant.int 2
  %0 = torch.aten.add.Scalar %arg0, %int2, %arg1 : !torch.vtensor, !torch.int, !torch.number -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Several results: the function's tuple is unpacked, one shape per result.
// CHECK-LABEL: func.func @multiple_results(
// CHECK:         %[[R:.*]]:2 = torch.shape.calculate {
// CHECK:           %[[V:.*]], %[[I:.*]] = torch.aten.topk
// CHECK:           torch.shape.calculate.yield %[[V]], %[[I]] : !torch.vtensor, !torch.vtensor
// CHECK:         } shapes {
// CHECK:           %[[T:.*]] = func.call @__torch_refine_shape_fn.aten.topk({{.*}}) : ({{.*}}) -> !torch.tuple<list<int>, list<int>>
// CHECK:           %[[U:.*]]:2 = torch.prim.TupleUnpack %[[T]] : !torch.tuple<list<int>, list<int>> -> !torch.list<int>, !torch.list<int>
// CHECK:           torch.shape.calculate.yield.shapes %[[U]]#0, %[[U]]#1 : !torch.list<int>, !torch.list<int>
// CHECK:         } : !torch.vtensor, !torch.vtensor
// CHECK:         return %[[R]]#1 : !torch.vtensor
func.func @multiple_results(%arg0: !torch.vtensor) -> !torch.vtensor {
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %true = torch.constant.bool true
  %values, %indices = torch.aten.topk %arg0, %int2, %int1, %true, %true : !torch.vtensor, !torch.int, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor, !torch.vtensor
  return %indices : !torch.vtensor
}

// -----

// Optional parameters: None is derefined, a present value is derefined too. A list
// literal is passed as a copy made in the calculation.
// CHECK-LABEL: func.func @optional_none_and_present(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor
// CHECK:         %[[INT0:.*]] = torch.constant.int 0
// CHECK:         %[[DIMS:.*]] = torch.prim.ListConstruct
// CHECK:         %[[NONE:.*]] = torch.constant.none
// CHECK:         } shapes {
// CHECK:           %[[S:.*]] = torch.aten.size %[[X]]
// CHECK:           %[[COPY:.*]] = torch.prim.ListConstruct %[[INT0]] : (!torch.int) -> !torch.list<int>
// CHECK:           %[[OD:.*]] = torch.derefine %[[COPY]] : !torch.list<int> to !torch.optional<list<int>>
// CHECK:           %[[ON:.*]] = torch.derefine %[[NONE]] : !torch.none to !torch.optional<int>
// CHECK:           func.call @__torch_refine_shape_fn.aten.sum.dim_IntList(%[[S]], %[[OD]], %{{.*}}, %[[ON]])
func.func @optional_none_and_present(%arg0: !torch.vtensor) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %dims = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.sum.dim_IntList %arg0, %dims, %false, %none : !torch.vtensor, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// An optional tensor is tested for None at run time of the calculation.
// CHECK-LABEL: func.func @optional_tensor(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor, %[[W:.*]]: !torch.vtensor, %[[B:.*]]: !torch.optional<vtensor>
// CHECK:         } shapes {
// CHECK:           %[[NONE:.*]] = torch.constant.none
// CHECK:           %[[IS:.*]] = torch.aten.__is__ %[[B]], %[[NONE]] : !torch.optional<vtensor>, !torch.none -> !torch.bool
// CHECK:           %[[OB:.*]] = torch.prim.If %[[IS]] -> (!torch.optional<list<int>>) {
// CHECK:             %[[D:.*]] = torch.derefine %[[NONE]] : !torch.none to !torch.optional<list<int>>
// CHECK:             torch.prim.If.yield %[[D]]
// CHECK:           } else {
// CHECK:             %[[T:.*]] = torch.prim.unchecked_cast %[[B]] : !torch.optional<vtensor> -> !torch.vtensor
// CHECK:             %[[S:.*]] = torch.aten.size %[[T]]
// CHECK:             %[[D2:.*]] = torch.derefine %[[S]] : !torch.list<int> to !torch.optional<list<int>>
// CHECK:             torch.prim.If.yield %[[D2]]
// CHECK:           }
// CHECK:           func.call @__torch_refine_shape_fn.aten.linear(%{{.*}}, %{{.*}}, %[[OB]])
func.func @optional_tensor(%arg0: !torch.vtensor, %arg1: !torch.vtensor, %arg2: !torch.optional<vtensor>) -> !torch.vtensor {
  %0 = torch.aten.linear %arg0, %arg1, %arg2 : !torch.vtensor, !torch.vtensor, !torch.optional<vtensor> -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A list built in place gives its elements' sizes directly; any other list is read in a loop.
// CHECK-LABEL: func.func @list_of_tensors(
// CHECK-SAME:      %[[A:.*]]: !torch.vtensor, %[[B:.*]]: !torch.vtensor, %[[L:.*]]: !torch.list<vtensor>
// CHECK:         } shapes {
// CHECK:           %[[SA:.*]] = torch.aten.size %[[A]]
// CHECK:           %[[SB:.*]] = torch.aten.size %[[B]]
// CHECK:           %[[SIZES:.*]] = torch.prim.ListConstruct %[[SA]], %[[SB]] : (!torch.list<int>, !torch.list<int>) -> !torch.list<list<int>>
// CHECK:           func.call @__torch_refine_shape_fn.aten.cat(%[[SIZES]], %{{.*}})
// CHECK:         } shapes {
// CHECK:           %[[ACC:.*]] = torch.prim.ListConstruct  : () -> !torch.list<list<int>>
// CHECK:           %[[LEN:.*]] = torch.aten.len.t %[[L]] : !torch.list<vtensor> -> !torch.int
// CHECK:           torch.prim.Loop %[[LEN]], %{{.*}}, init() {
// CHECK:           ^bb0(%[[I:.*]]: !torch.int):
// CHECK:             %[[E:.*]] = torch.aten.__getitem__.t %[[L]], %[[I]] : !torch.list<vtensor>, !torch.int -> !torch.vtensor
// CHECK:             %[[SE:.*]] = torch.aten.size %[[E]]
// CHECK:             torch.aten.append.t %[[ACC]], %[[SE]]
// CHECK:             torch.prim.Loop.condition %{{.*}}, iter()
// CHECK:           }
// CHECK:           func.call @__torch_refine_shape_fn.aten.cat(%[[ACC]], %{{.*}})
func.func @list_of_tensors(%arg0: !torch.vtensor, %arg1: !torch.vtensor, %arg2: !torch.list<vtensor>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %list = torch.prim.ListConstruct %arg0, %arg1 : (!torch.vtensor, !torch.vtensor) -> !torch.list<vtensor>
  %0 = torch.aten.cat %list, %int1 : !torch.list<vtensor>, !torch.int -> !torch.vtensor
  %1 = torch.aten.cat %arg2, %int1 : !torch.list<vtensor>, !torch.int -> !torch.vtensor
  return %1 : !torch.vtensor
}

// -----

// A `number` operand (arange's end) becomes a float; optional none operands are derefined.
// CHECK-LABEL: func.func @number_arg(
// CHECK-SAME:      %[[END:.*]]: !torch.number
// CHECK:         } shapes {
// CHECK:           %[[F:.*]] = torch.aten.Float.Scalar %[[END]] : !torch.number -> !torch.float
// CHECK:           func.call @__torch_refine_shape_fn.aten.arange(%[[F]], {{.*}}) : (!torch.float, !torch.optional<int>, !torch.optional<int>, !torch.optional<Device>, !torch.optional<bool>) -> !torch.list<int>
func.func @number_arg(%arg0: !torch.number) -> !torch.vtensor {
  %none = torch.constant.none
  %0 = torch.aten.arange %arg0, %none, %none, %none, %none : !torch.number, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// No library function: the op is left alone and nothing is imported.
// CHECK-LABEL: func.func @no_library_function(
// CHECK-NOT:     torch.shape.calculate
// CHECK:         torch.operator "mylib.unknown"
// CHECK-NOT:     func.func private
func.func @no_library_function(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.operator "mylib.unknown"(%arg0) : (!torch.vtensor) -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Ops whose results already have static sizes are not wrapped.
// CHECK-LABEL: func.func @already_refined(
// CHECK-NOT:     torch.shape.calculate
// CHECK:         torch.aten.tanh
// CHECK-NOT:     torch.shape.calculate
// CHECK:         return
func.func @already_refined(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],unk> {
  %0 = torch.aten.tanh %arg0 : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],unk>
  return %0 : !torch.vtensor<[2,3],unk>
}

// -----

// A tensor-list result unpacked by its only user: the calculate op wraps both ops and
// yields one element of the function's list per unpacked tensor.
// CHECK-LABEL: func.func @list_result(
// CHECK:         %[[R:.*]]:2 = torch.shape.calculate {
// CHECK:           %[[LIST:.*]] = torch.aten.split.Tensor
// CHECK:           %[[PARTS:.*]]:2 = torch.prim.ListUnpack %[[LIST]]
// CHECK:           torch.shape.calculate.yield %[[PARTS]]#0, %[[PARTS]]#1 : !torch.vtensor, !torch.vtensor
// CHECK:         } shapes {
// CHECK:           %[[SHAPES:.*]] = func.call @__torch_refine_shape_fn.aten.split.Tensor({{.*}}) : ({{.*}}) -> !torch.list<list<int>>
// CHECK:           %[[I0:.*]] = torch.constant.int 0
// CHECK:           %[[S0:.*]] = torch.aten.__getitem__.t %[[SHAPES]], %[[I0]]
// CHECK:           %[[I1:.*]] = torch.constant.int 1
// CHECK:           %[[S1:.*]] = torch.aten.__getitem__.t %[[SHAPES]], %[[I1]]
// CHECK:           torch.shape.calculate.yield.shapes %[[S0]], %[[S1]] : !torch.list<int>, !torch.list<int>
// CHECK:         return %[[R]]#1
func.func @list_result(%arg0: !torch.vtensor) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %0 = torch.aten.split.Tensor %arg0, %int1, %int1 : !torch.vtensor, !torch.int, !torch.int -> !torch.list<vtensor>
  %1:2 = torch.prim.ListUnpack %0 : !torch.list<vtensor> -> !torch.vtensor, !torch.vtensor
  return %1#1 : !torch.vtensor
}

// -----

// A tensor-list result that nothing unpacks has no piece to type, but the function runs
// for its checks (split_size 0 of a non-empty dim raises): it yields an unknown shape.
// CHECK-LABEL: func.func @list_result_not_unpacked(
// CHECK:         torch.shape.calculate {
// CHECK:           torch.aten.split.Tensor
// CHECK:         } shapes {
// CHECK:           func.call @__torch_refine_shape_fn.aten.split.Tensor
// CHECK:           %[[UNKNOWN:.*]] = torch.prim.Uninitialized : !torch.list<int>
// CHECK:           torch.shape.calculate.yield.shapes %[[UNKNOWN]] : !torch.list<int>
// CHECK:         } : !torch.list<vtensor>
func.func @list_result_not_unpacked(%arg0: !torch.vtensor) -> !torch.list<vtensor> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.split.Tensor %arg0, %int1, %int1 : !torch.vtensor, !torch.int, !torch.int -> !torch.list<vtensor>
  return %0 : !torch.list<vtensor>
}

// -----

// A non-tensor result gets a placeholder shape; ops in nested regions are wrapped too.
// CHECK-LABEL: func.func @non_tensor_result_in_if(
// CHECK:         torch.prim.If
// CHECK:           %[[R:.*]]:2 = torch.shape.calculate {
// CHECK:             torch.operator "mylib.with_count"
// CHECK:           } shapes {
// CHECK:             %[[S:.*]] = func.call @__torch_refine_shape_fn.mylib.with_count
// CHECK:             %[[EMPTY:.*]] = torch.prim.ListConstruct  : () -> !torch.list<int>
// CHECK:             torch.shape.calculate.yield.shapes %[[S]], %[[EMPTY]] : !torch.list<int>, !torch.list<int>
// CHECK:           } : !torch.vtensor, !torch.int
func.func @non_tensor_result_in_if(%arg0: !torch.vtensor, %arg1: !torch.bool) -> !torch.vtensor {
  %0 = torch.prim.If %arg1 -> (!torch.vtensor) {
    %1:2 = torch.operator "mylib.with_count"(%arg0) : (!torch.vtensor) -> (!torch.vtensor, !torch.int)
    torch.prim.If.yield %1#0 : !torch.vtensor
  } else {
    torch.prim.If.yield %arg0 : !torch.vtensor
  }
  return %0 : !torch.vtensor
}

// -----

// Ops already inside a calculate op are not wrapped again.
// CHECK-LABEL: func.func @already_wrapped(
// CHECK:         torch.shape.calculate {
// CHECK-NOT:       torch.shape.calculate
// CHECK:           torch.aten.tanh
func.func @already_wrapped(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %1 = torch.aten.size %arg0 : !torch.vtensor -> !torch.list<int>
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}
