// RUN: torch-refine-opt %s --split-input-file --pass-pipeline='builtin.module(torch-refine-pipeline)' | filecheck %s

// Ops outside aten are found by name: prims with their own Torch dialect op, and
// `torch.operator`s (quantized_decomposed) by their `name`.

// CHECK-LABEL: func.func @prims_ops(
// CHECK:         torch.prims.convert_element_type %{{.*}} : !torch.vtensor<[2,3,4],f32>, !torch.int -> !torch.vtensor<[2,3,4],si32>
// CHECK:         torch.prims.collapse %{{.*}} : !torch.vtensor<[2,3,4],si32>, !torch.int, !torch.int -> !torch.vtensor<[6,4],si32>
func.func @prims_ops(%arg0: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor {
  %int3 = torch.constant.int 3
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %0 = torch.prims.convert_element_type %arg0, %int3 : !torch.vtensor<[2,3,4],f32>, !torch.int -> !torch.vtensor
  %1 = torch.prims.collapse %0, %int0, %int1 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  return %1 : !torch.vtensor
}

// -----

// CHECK-LABEL: func.func @quantized_decomposed_ops(
// CHECK:         torch.operator "quantized_decomposed.quantize_per_tensor"(%{{.*}}) : (!torch.vtensor<[2,3],f32>, !torch.float, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[2,3],ui8>
// CHECK:         torch.operator "quantized_decomposed.dequantize_per_tensor"(%{{.*}}) : (!torch.vtensor<[2,3],ui8>, !torch.float, !torch.int, !torch.int, !torch.int, !torch.int, !torch.none) -> !torch.vtensor<[2,3],f32>
func.func @quantized_decomposed_ops(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[2,3],ui8>) -> (!torch.vtensor, !torch.vtensor) {
  %scale = torch.constant.float 1.000000e-01
  %int0 = torch.constant.int 0
  %int255 = torch.constant.int 255
  %none = torch.constant.none
  %0 = torch.operator "quantized_decomposed.quantize_per_tensor"(%arg0, %scale, %int0, %int0, %int255, %int0) : (!torch.vtensor<[2,3],f32>, !torch.float, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.vtensor
  %1 = torch.operator "quantized_decomposed.dequantize_per_tensor"(%arg1, %scale, %int0, %int0, %int255, %int0, %none) : (!torch.vtensor<[2,3],ui8>, !torch.float, !torch.int, !torch.int, !torch.int, !torch.int, !torch.none) -> !torch.vtensor
  return %0, %1 : !torch.vtensor, !torch.vtensor
}

// -----

// torch.onnx ops, like aten and prims ops, take refined result types in place.
// CHECK-LABEL: func.func @onnx_and_torchvision_ops(
// CHECK:         %[[R:.*]] = torch.onnx.rotary_embedding {{.*}} -> !torch.vtensor<[1,3,2,6],f32>
// CHECK:         torch.operator "torchvision.roi_align"({{.*}}) : (!torch.vtensor<[2,3,16,16],f32>, !torch.vtensor<[4,5],f32>, !torch.float, !torch.int, !torch.int, !torch.int, !torch.bool) -> !torch.vtensor<[4,3,7,5],f32>
func.func @onnx_and_torchvision_ops(%arg0: !torch.vtensor<[1,3,2,6],f32>, %arg1: !torch.vtensor<[1,2],si64>, %arg2: !torch.vtensor<[4,3],f32>, %images: !torch.vtensor<[2,3,16,16],f32>, %rois: !torch.vtensor<[4,5],f32>) -> (!torch.vtensor, !torch.vtensor) {
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %int5 = torch.constant.int 5
  %int7 = torch.constant.int 7
  %true = torch.constant.bool true
  %float1 = torch.constant.float 1.000000e+00
  %0 = torch.onnx.rotary_embedding %arg0, %arg1, %arg2, %arg2, %int0, %int0, %int0, %int0, %float1 : !torch.vtensor<[1,3,2,6],f32>, !torch.vtensor<[1,2],si64>, !torch.vtensor<[4,3],f32>, !torch.vtensor<[4,3],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.float -> !torch.vtensor
  %1 = torch.operator "torchvision.roi_align"(%images, %rois, %float1, %int7, %int5, %int2, %true) : (!torch.vtensor<[2,3,16,16],f32>, !torch.vtensor<[4,5],f32>, !torch.float, !torch.int, !torch.int, !torch.int, !torch.bool) -> !torch.vtensor
  return %0, %1 : !torch.vtensor, !torch.vtensor
}

// -----

// torch-mlir's importer names an ATen op the dialect lacks `torch.aten.<op>`: the library
// function of `aten.<op>` applies. A torch.operator user keeps its operand type through a
// cast, and its calculation reads the refined type behind the cast; the two squeezes of
// differently shaped inputs get their own results (no memo hit across the casts).
// CHECK-LABEL: func.func @aten_ops_through_torch_operator(
// CHECK:         torch.operator "torch.aten._native_batch_norm_legit_no_training"({{.*}}) -> (!torch.vtensor<[2,8,4,4],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>)
// CHECK:         torch.operator "torch.aten.squeeze.dims"({{.*}}) : (!torch.vtensor, !torch.list<int>) -> !torch.vtensor<[2,8,4,4],f32>
// CHECK:         torch.operator "torch.aten.squeeze.dims"({{.*}}) : (!torch.vtensor, !torch.list<int>) -> !torch.vtensor<[8,4,4],f32>
func.func @aten_ops_through_torch_operator(%x: !torch.vtensor<[2,8,4,4],f32>, %y: !torch.vtensor<[1,8,4,4],f32>, %w: !torch.vtensor<[8],f32>) -> (!torch.vtensor, !torch.vtensor) {
  %eps = torch.constant.float 1.000000e-05
  %momentum = torch.constant.float 1.000000e-01
  %0:3 = torch.operator "torch.aten._native_batch_norm_legit_no_training"(%x, %w, %w, %w, %w, %momentum, %eps) : (!torch.vtensor<[2,8,4,4],f32>, !torch.vtensor<[8],f32>, !torch.vtensor<[8],f32>, !torch.vtensor<[8],f32>, !torch.vtensor<[8],f32>, !torch.float, !torch.float) -> (!torch.vtensor, !torch.vtensor, !torch.vtensor)
  %1 = torch.aten.relu %y : !torch.vtensor<[1,8,4,4],f32> -> !torch.vtensor
  %int0 = torch.constant.int 0
  %dims = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %2 = torch.operator "torch.aten.squeeze.dims"(%0#0, %dims) : (!torch.vtensor, !torch.list<int>) -> !torch.vtensor
  %3 = torch.operator "torch.aten.squeeze.dims"(%1, %dims) : (!torch.vtensor, !torch.list<int>) -> !torch.vtensor
  return %2, %3 : !torch.vtensor, !torch.vtensor
}
