// RUN: torch-refine-opt %s --split-input-file --verify-diagnostics --torch-refine-pipeline
// RUN: torch-refine-opt %s --split-input-file --verify-diagnostics --torch-refine-shape-pipeline

// A cast is a claim about the same tensor: one that contradicts what its source is known
// to be is an error at the cast (PyTorch's tanh of the [2,3] argument is [2,3]), never a
// type for the ops after it.
func.func @shape_lie_through_an_erasing_cast(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %0 = torch.tensor_static_info_cast %arg0 : !torch.vtensor<[2,3],f32> to !torch.vtensor
  // expected-error@+1 {{'torch.tensor_static_info_cast' op operand type '!torch.vtensor<[2,3],f32>' and result type '!torch.vtensor<[4,5],f32>' are cast incompatible}}
  %1 = torch.tensor_static_info_cast %0 : !torch.vtensor to !torch.vtensor<[4,5],f32>
  %2 = torch.aten.tanh %1 : !torch.vtensor<[4,5],f32> -> !torch.vtensor
  return %2 : !torch.vtensor
}

// -----

// The source's type is what refinement found: tanh of [2,3] is [2,3].
func.func @shape_lie_about_a_refined_value(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %0 = torch.aten.tanh %arg0 : !torch.vtensor<[2,3],f32> -> !torch.vtensor
  // expected-error@+1 {{'torch.tensor_static_info_cast' op operand type '!torch.vtensor<[2,3],unk>' and result type '!torch.vtensor<[4,5],f32>' are cast incompatible}}
  %1 = torch.tensor_static_info_cast %0 : !torch.vtensor to !torch.vtensor<[4,5],f32>
  %2 = torch.aten.tanh %1 : !torch.vtensor<[4,5],f32> -> !torch.vtensor
  return %2 : !torch.vtensor
}

// -----

func.func @dtype_lie_through_an_erasing_cast(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %0 = torch.tensor_static_info_cast %arg0 : !torch.vtensor<[2,3],f32> to !torch.vtensor<[2,3],unk>
  // expected-error@+1 {{'torch.tensor_static_info_cast' op operand type '!torch.vtensor<[2,3],f32>' and result type '!torch.vtensor<[2,3],si64>' are cast incompatible}}
  %1 = torch.tensor_static_info_cast %0 : !torch.vtensor<[2,3],unk> to !torch.vtensor<[2,3],si64>
  %2 = torch.aten.add.Scalar %1, %int1, %int1 : !torch.vtensor<[2,3],si64>, !torch.int, !torch.int -> !torch.vtensor
  return %2 : !torch.vtensor
}

// -----

// Only the first cast of a chain that lies is reported.
func.func @rank_lie_reported_once(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %0 = torch.tensor_static_info_cast %arg0 : !torch.vtensor<[2,3],f32> to !torch.vtensor
  // expected-error@+1 {{'torch.tensor_static_info_cast' op operand type '!torch.vtensor<[2,3],f32>' and result type '!torch.vtensor<[2,3,1],f32>' are cast incompatible}}
  %1 = torch.tensor_static_info_cast %0 : !torch.vtensor to !torch.vtensor<[2,3,1],f32>
  %2 = torch.tensor_static_info_cast %1 : !torch.vtensor<[2,3,1],f32> to !torch.vtensor<[?,?,?],f32>
  %3 = torch.aten.tanh %2 : !torch.vtensor<[?,?,?],f32> -> !torch.vtensor
  return %3 : !torch.vtensor
}

// -----

// An unchecked cast out of an optional states the type of the tensor `derefine` wrapped.
func.func @lie_through_an_optional(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %0 = torch.derefine %arg0 : !torch.vtensor<[2,3],f32> to !torch.optional<vtensor>
  // expected-error@+1 {{'torch.prim.unchecked_cast' op operand type '!torch.vtensor<[2,3],f32>' and result type '!torch.vtensor<[4,5],f32>' are cast incompatible}}
  %1 = torch.prim.unchecked_cast %0 : !torch.optional<vtensor> -> !torch.vtensor<[4,5],f32>
  %2 = torch.aten.tanh %1 : !torch.vtensor<[4,5],f32> -> !torch.vtensor
  return %2 : !torch.vtensor
}

// -----

// Reads out of a list literal nothing changes state the type of the element they take.
func.func @lie_through_a_list_read(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %0 = torch.prim.ListConstruct %arg0 : (!torch.vtensor<[2,3],f32>) -> !torch.list<vtensor>
  // expected-error@+1 {{'torch.aten.__getitem__.t' op operand type '!torch.vtensor<[2,3],f32>' and result type '!torch.vtensor<[4,5],f32>' are cast incompatible}}
  %1 = torch.aten.__getitem__.t %0, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[4,5],f32>
  %2 = torch.aten.tanh %1 : !torch.vtensor<[4,5],f32> -> !torch.vtensor
  return %2 : !torch.vtensor
}

// -----

func.func @lie_through_a_list_unpack(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %0 = torch.prim.ListConstruct %arg0 : (!torch.vtensor<[2,3],f32>) -> !torch.list<vtensor>
  // expected-error@+1 {{'torch.prim.ListUnpack' op operand type '!torch.vtensor<[2,3],f32>' and result type '!torch.vtensor<[4,5],f32>' are cast incompatible}}
  %1 = torch.prim.ListUnpack %0 : !torch.list<vtensor> -> !torch.vtensor<[4,5],f32>
  %2 = torch.aten.tanh %1 : !torch.vtensor<[4,5],f32> -> !torch.vtensor
  return %2 : !torch.vtensor
}

// -----

func.func @lie_through_a_tuple(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %0 = torch.prim.TupleConstruct %arg0 : !torch.vtensor<[2,3],f32> -> !torch.tuple<vtensor<[2,3],f32>>
  %1 = torch.derefine %0 : !torch.tuple<vtensor<[2,3],f32>> to !torch.tuple<vtensor>
  // expected-error@+1 {{'torch.prim.TupleUnpack' op operand type '!torch.vtensor<[2,3],f32>' and result type '!torch.vtensor<[4,5],f32>' are cast incompatible}}
  %2 = torch.prim.TupleUnpack %1 : !torch.tuple<vtensor> -> !torch.vtensor<[4,5],f32>
  %3 = torch.aten.tanh %2 : !torch.vtensor<[4,5],f32> -> !torch.vtensor
  return %3 : !torch.vtensor
}
