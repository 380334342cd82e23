// RUN: torch-refine-opt %s --split-input-file --torch-refine-pipeline | FileCheck %s

// A cast that says less than its source, or something compatible with it, is narrowed to
// what both say (the errors are in torch-refine-pipeline-casts-errors.mlir).
// CHECK-LABEL: func.func @compatible_chain
// CHECK: torch.aten.tanh %{{.*}} : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],f32>
func.func @compatible_chain(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %0 = torch.tensor_static_info_cast %arg0 : !torch.vtensor<[2,3],f32> to !torch.vtensor
  %1 = torch.tensor_static_info_cast %0 : !torch.vtensor to !torch.vtensor<[2,?],unk>
  %2 = torch.aten.tanh %1 : !torch.vtensor<[2,?],unk> -> !torch.vtensor
  return %2 : !torch.vtensor
}

// -----

// A copy to a non-value tensor states its operand's type: the cast in front of it keeps
// the copy's type (narrowed, the copy failed its verifier), and the value copied back
// is typed by the program's own cast.
// CHECK-LABEL: func.func @copy_of_an_erasing_cast
// CHECK: torch.copy.to_tensor %{{.*}} : !torch.tensor{{$}}
// CHECK: torch.aten.tanh %{{.*}} : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],f32>
func.func @copy_of_an_erasing_cast(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %0 = torch.tensor_static_info_cast %arg0 : !torch.vtensor<[2,3],f32> to !torch.vtensor
  %1 = torch.copy.to_tensor %0 : !torch.tensor
  %2 = torch.tensor_static_info_cast %1 : !torch.tensor to !torch.tensor<[2,3],f32>
  %3 = torch.copy.to_vtensor %2 : !torch.vtensor<[2,3],f32>
  %4 = torch.aten.tanh %3 : !torch.vtensor<[2,3],f32> -> !torch.vtensor
  return %4 : !torch.vtensor
}

// -----

// A list something may change is no claim: the read's type is the program's to state.
// CHECK-LABEL: func.func @read_of_a_changed_list
// CHECK: torch.aten.tanh %{{.*}} : !torch.vtensor<[4,5],f32> -> !torch.vtensor<[4,5],f32>
func.func @read_of_a_changed_list(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[4,5],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %0 = torch.prim.ListConstruct %arg0 : (!torch.vtensor<[2,3],f32>) -> !torch.list<vtensor>
  %1 = torch.aten._set_item.t %0, %int0, %arg1 : !torch.list<vtensor>, !torch.int, !torch.vtensor<[4,5],f32> -> !torch.list<vtensor>
  %2 = torch.aten.__getitem__.t %0, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[4,5],f32>
  %3 = torch.aten.tanh %2 : !torch.vtensor<[4,5],f32> -> !torch.vtensor
  return %3 : !torch.vtensor
}
