// What torch-mlir's front ends write where eager PyTorch's checks are narrower than torch-mlir's
// meaning of the op (docs/library.md, "Where torch-mlir's meaning is wider than eager
// PyTorch"). Each function is the converted IR of a module exported to ONNX
// (torch.onnx.export, dynamic batch), imported with torch_mlir.tools.import_onnx and
// converted with --convert-torch-onnx-to-torch, the op's result type erased.
// RUN: torch-refine-opt --torch-refine-pipeline %s | FileCheck %s

// nn.AvgPool1d(3, 2), dynamo exporter: the stride list is ONNX's strides then its dilations.
// CHECK-LABEL: func.func @avg_pool1d_of_onnx
// CHECK: torch.aten.avg_pool1d {{.*}} -> !torch.vtensor<[?,2,4],f32>
func.func @avg_pool1d_of_onnx(%arg0: !torch.vtensor<[?,2,9],f32>) -> !torch.vtensor<*,f32> {
  %none = torch.constant.none
  %int3 = torch.constant.int 3
  %0 = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %1 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %2 = torch.prim.ListConstruct %int2, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none_0 = torch.constant.none
  %3 = torch.aten.avg_pool1d %arg0, %0, %2, %1, %false, %true : !torch.vtensor<[?,2,9],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool -> !torch.vtensor<*,f32>
  return %3 : !torch.vtensor<*,f32>
}

// nn.AvgPool2d(3, 2, padding=1), legacy exporter: stride [2, 2, 1, 1].
// CHECK-LABEL: func.func @avg_pool2d_of_onnx
// CHECK: torch.aten.avg_pool2d {{.*}} -> !torch.vtensor<[?,2,5,5],f32>
func.func @avg_pool2d_of_onnx(%arg0: !torch.vtensor<[?,2,9,9],f32>) -> !torch.vtensor<*,f32> {
  %none = torch.constant.none
  %int3 = torch.constant.int 3
  %int3_0 = torch.constant.int 3
  %0 = torch.prim.ListConstruct %int3, %int3_0 : (!torch.int, !torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %int1_1 = torch.constant.int 1
  %1 = torch.prim.ListConstruct %int1, %int1_1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int2 = torch.constant.int 2
  %int2_2 = torch.constant.int 2
  %int1_3 = torch.constant.int 1
  %int1_4 = torch.constant.int 1
  %2 = torch.prim.ListConstruct %int2, %int2_2, %int1_3, %int1_4 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none_5 = torch.constant.none
  %3 = torch.aten.avg_pool2d %arg0, %0, %2, %1, %false, %true, %none_5 : !torch.vtensor<[?,2,9,9],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<*,f32>
  return %3 : !torch.vtensor<*,f32>
}

// nn.AvgPool3d(2, 2), dynamo exporter: stride [2, 2, 2, 1, 1, 1].
// CHECK-LABEL: func.func @avg_pool3d_of_onnx
// CHECK: torch.aten.avg_pool3d {{.*}} -> !torch.vtensor<[?,2,3,3,3],f32>
func.func @avg_pool3d_of_onnx(%arg0: !torch.vtensor<[?,2,6,6,6],f32>) -> !torch.vtensor<*,f32> {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %int2_0 = torch.constant.int 2
  %int2_1 = torch.constant.int 2
  %0 = torch.prim.ListConstruct %int2, %int2_0, %int2_1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %int0_2 = torch.constant.int 0
  %int0_3 = torch.constant.int 0
  %1 = torch.prim.ListConstruct %int0, %int0_2, %int0_3 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %int2_4 = torch.constant.int 2
  %int2_5 = torch.constant.int 2
  %int2_6 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %int1_7 = torch.constant.int 1
  %int1_8 = torch.constant.int 1
  %2 = torch.prim.ListConstruct %int2_4, %int2_5, %int2_6, %int1, %int1_7, %int1_8 : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none_9 = torch.constant.none
  %3 = torch.aten.avg_pool3d %arg0, %0, %2, %1, %false, %true, %none_9 : !torch.vtensor<[?,2,6,6,6],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<*,f32>
  return %3 : !torch.vtensor<*,f32>
}

// An ONNX AveragePool (opset 19, built with onnx.helper) with pads [1, 0, 0, 1]: the padding
// list is the begin pads then the end pads, as torch-mlir's linalg lowering reads it.
// CHECK-LABEL: func.func @avg_pool2d_of_onnx_asymmetric_pads
// CHECK: torch.aten.avg_pool2d {{.*}} -> !torch.vtensor<[?,2,6,6],f32>
func.func @avg_pool2d_of_onnx_asymmetric_pads(%arg0: !torch.vtensor<[?,2,12,12],f32>) -> !torch.vtensor<*,f32> {
  %none = torch.constant.none
  %int3 = torch.constant.int 3
  %int3_0 = torch.constant.int 3
  %0 = torch.prim.ListConstruct %int3, %int3_0 : (!torch.int, !torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %int0_1 = torch.constant.int 0
  %int1_2 = torch.constant.int 1
  %1 = torch.prim.ListConstruct %int1, %int0, %int0_1, %int1_2 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %int2 = torch.constant.int 2
  %int2_3 = torch.constant.int 2
  %int1_4 = torch.constant.int 1
  %int1_5 = torch.constant.int 1
  %2 = torch.prim.ListConstruct %int2, %int2_3, %int1_4, %int1_5 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %false_6 = torch.constant.bool false
  %none_7 = torch.constant.none
  %3 = torch.aten.avg_pool2d %arg0, %0, %2, %1, %false, %false_6, %none_7 : !torch.vtensor<[?,2,12,12],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<*,f32>
  return %3 : !torch.vtensor<*,f32>
}

// nn.ReflectionPad2d((1, 2, 3, 0)), dynamo exporter: ONNX Pad writes a pair per dim, 8 entries
// for a 4-d input; torch-mlir's decomposition drops the trailing pairs of zeros.
// CHECK-LABEL: func.func @reflection_pad2d_of_onnx
// CHECK: torch.aten.pad {{.*}} -> !torch.vtensor<[?,3,15,11],f32>
func.func @reflection_pad2d_of_onnx(%arg0: !torch.vtensor<[?,3,12,8],f32>) -> !torch.vtensor<*,f32> {
  %0 = torch.vtensor.literal(dense<[0, 0, 3, 1, 0, 0, 0, 2]> : tensor<8xsi64>) : !torch.vtensor<[8],si64>
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %int0_0 = torch.constant.int 0
  %1 = torch.aten.select.int %0, %int0, %int0_0 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %2 = torch.aten.item %1 : !torch.vtensor<[],si64> -> !torch.int
  %int1 = torch.constant.int 1
  %3 = torch.aten.select.int %0, %int0, %int1 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %4 = torch.aten.item %3 : !torch.vtensor<[],si64> -> !torch.int
  %int2 = torch.constant.int 2
  %5 = torch.aten.select.int %0, %int0, %int2 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %6 = torch.aten.item %5 : !torch.vtensor<[],si64> -> !torch.int
  %int3 = torch.constant.int 3
  %7 = torch.aten.select.int %0, %int0, %int3 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %8 = torch.aten.item %7 : !torch.vtensor<[],si64> -> !torch.int
  %int4 = torch.constant.int 4
  %9 = torch.aten.select.int %0, %int0, %int4 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %10 = torch.aten.item %9 : !torch.vtensor<[],si64> -> !torch.int
  %int5 = torch.constant.int 5
  %11 = torch.aten.select.int %0, %int0, %int5 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %12 = torch.aten.item %11 : !torch.vtensor<[],si64> -> !torch.int
  %int6 = torch.constant.int 6
  %13 = torch.aten.select.int %0, %int0, %int6 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %14 = torch.aten.item %13 : !torch.vtensor<[],si64> -> !torch.int
  %int7 = torch.constant.int 7
  %15 = torch.aten.select.int %0, %int0, %int7 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %16 = torch.aten.item %15 : !torch.vtensor<[],si64> -> !torch.int
  %none_1 = torch.constant.none
  %17 = torch.prim.ListConstruct %8, %16, %6, %14, %4, %12, %2, %10 : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %str = torch.constant.str "reflect"
  %18 = torch.aten.pad %arg0, %17, %str, %none_1 : !torch.vtensor<[?,3,12,8],f32>, !torch.list<int>, !torch.str, !torch.none -> !torch.vtensor<*,f32>
  return %18 : !torch.vtensor<*,f32>
}

// nn.ReplicationPad2d((1, 2, 3, 0)), dynamo exporter.
// CHECK-LABEL: func.func @replication_pad2d_of_onnx
// CHECK: torch.aten.pad {{.*}} -> !torch.vtensor<[?,3,15,11],f32>
func.func @replication_pad2d_of_onnx(%arg0: !torch.vtensor<[?,3,12,8],f32>) -> !torch.vtensor<*,f32> {
  %0 = torch.vtensor.literal(dense<[0, 0, 3, 1, 0, 0, 0, 2]> : tensor<8xsi64>) : !torch.vtensor<[8],si64>
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %int0_0 = torch.constant.int 0
  %1 = torch.aten.select.int %0, %int0, %int0_0 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %2 = torch.aten.item %1 : !torch.vtensor<[],si64> -> !torch.int
  %int1 = torch.constant.int 1
  %3 = torch.aten.select.int %0, %int0, %int1 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %4 = torch.aten.item %3 : !torch.vtensor<[],si64> -> !torch.int
  %int2 = torch.constant.int 2
  %5 = torch.aten.select.int %0, %int0, %int2 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %6 = torch.aten.item %5 : !torch.vtensor<[],si64> -> !torch.int
  %int3 = torch.constant.int 3
  %7 = torch.aten.select.int %0, %int0, %int3 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %8 = torch.aten.item %7 : !torch.vtensor<[],si64> -> !torch.int
  %int4 = torch.constant.int 4
  %9 = torch.aten.select.int %0, %int0, %int4 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %10 = torch.aten.item %9 : !torch.vtensor<[],si64> -> !torch.int
  %int5 = torch.constant.int 5
  %11 = torch.aten.select.int %0, %int0, %int5 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %12 = torch.aten.item %11 : !torch.vtensor<[],si64> -> !torch.int
  %int6 = torch.constant.int 6
  %13 = torch.aten.select.int %0, %int0, %int6 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %14 = torch.aten.item %13 : !torch.vtensor<[],si64> -> !torch.int
  %int7 = torch.constant.int 7
  %15 = torch.aten.select.int %0, %int0, %int7 : !torch.vtensor<[8],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %16 = torch.aten.item %15 : !torch.vtensor<[],si64> -> !torch.int
  %none_1 = torch.constant.none
  %17 = torch.prim.ListConstruct %8, %16, %6, %14, %4, %12, %2, %10 : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %str = torch.constant.str "replicate"
  %18 = torch.aten.pad %arg0, %17, %str, %none_1 : !torch.vtensor<[?,3,12,8],f32>, !torch.list<int>, !torch.str, !torch.none -> !torch.vtensor<*,f32>
  return %18 : !torch.vtensor<*,f32>
}

// nn.MultiheadAttention(8, 2, batch_first=True), dynamo exporter (the ops around its first
// prims.squeeze): ONNX Squeeze's axis -2 as the conversion writes it; torch-mlir's
// decomposition counts a negative dim from the end.
// CHECK-LABEL: func.func @squeeze_of_onnx_negative_dim
// CHECK: torch.prims.squeeze {{.*}} -> !torch.vtensor<[3,5,?,8],f32>
func.func @squeeze_of_onnx_negative_dim(%arg0: !torch.vtensor<[3,5,?,1,8],f32>) -> !torch.vtensor<*,f32> {
  %6 = torch.vtensor.literal(dense<-2> : tensor<1xsi64>) : !torch.vtensor<[1],si64>
  %int0_7 = torch.constant.int 0
  %int0_8 = torch.constant.int 0
  %28 = torch.aten.select.int %6, %int0_7, %int0_8 : !torch.vtensor<[1],si64>, !torch.int, !torch.int -> !torch.vtensor<[1],si64>
  %29 = torch.aten.item %28 : !torch.vtensor<[1],si64> -> !torch.int
  %30 = torch.prim.ListConstruct %29 : (!torch.int) -> !torch.list<int>
  %31 = torch.prims.squeeze %arg0, %30 : !torch.vtensor<[3,5,?,1,8],f32>, !torch.list<int> -> !torch.vtensor<*,f32>
  return %31 : !torch.vtensor<*,f32>
}

// An ONNX Expand (opset 17, built with onnx.helper) of a [?,3,4] input to shape [3, 1]: ONNX's
// broadcast is bidirectional, and the conversion writes broadcast_to with 2 sizes for 3 dims
// (-1 for the dims that are not statically 1); the leading dims are kept.
// CHECK-LABEL: func.func @expand_of_onnx_to_lower_rank
// CHECK: torch.aten.broadcast_to {{.*}} -> !torch.vtensor<[?,3,4],f32>
func.func @expand_of_onnx_to_lower_rank(%arg0: !torch.vtensor<[?,3,4],f32>) -> !torch.vtensor<*,f32> {
  %0 = torch.vtensor.literal(dense<[3, 1]> : tensor<2xsi64>) : !torch.vtensor<[2],si64>
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %int0_0 = torch.constant.int 0
  %1 = torch.aten.select.int %0, %int0, %int0_0 : !torch.vtensor<[2],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %2 = torch.aten.item %1 : !torch.vtensor<[],si64> -> !torch.int
  %int-1 = torch.constant.int -1
  %int1 = torch.constant.int 1
  %3 = torch.aten.size.int %arg0, %int1 : !torch.vtensor<[?,3,4],f32>, !torch.int -> !torch.int
  %4 = torch.aten.ge.int %3, %2 : !torch.int, !torch.int -> !torch.bool
  torch.runtime.assert %4, "onnx.Expand input has a dim that is not statically 1; expected this dim >= dim provided shape."
  %int1_1 = torch.constant.int 1
  %5 = torch.aten.select.int %0, %int0, %int1_1 : !torch.vtensor<[2],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %6 = torch.aten.item %5 : !torch.vtensor<[],si64> -> !torch.int
  %int-1_2 = torch.constant.int -1
  %int2 = torch.constant.int 2
  %7 = torch.aten.size.int %arg0, %int2 : !torch.vtensor<[?,3,4],f32>, !torch.int -> !torch.int
  %8 = torch.aten.ge.int %7, %6 : !torch.int, !torch.int -> !torch.bool
  torch.runtime.assert %8, "onnx.Expand input has a dim that is not statically 1; expected this dim >= dim provided shape."
  %9 = torch.prim.ListConstruct %int-1, %int-1_2 : (!torch.int, !torch.int) -> !torch.list<int>
  %10 = torch.aten.broadcast_to %arg0, %9 : !torch.vtensor<[?,3,4],f32>, !torch.list<int> -> !torch.vtensor<*,f32>
  return %10 : !torch.vtensor<*,f32>
}


// nn.ReflectionPad2d((1, 2, 3, 0)), legacy exporter: ONNX Slice with step -1 reverses the pads'
// pairs (a slice PyTorch rejects; torch-mlir's lowering reverses the dim).
// CHECK-LABEL: func.func @slice_of_onnx_negative_step
// CHECK: torch.aten.slice.Tensor {{.*}} -> !torch.vtensor<[4,2],si64>
func.func @slice_of_onnx_negative_step(%arg0: !torch.vtensor<[4,2],si64>) -> !torch.vtensor<*,si64> {
  %11 = torch.vtensor.literal(dense<0> : tensor<1xsi64>) : !torch.vtensor<[1],si64>
  %12 = torch.vtensor.literal(dense<-1> : tensor<1xsi64>) : !torch.vtensor<[1],si64>
  %13 = torch.vtensor.literal(dense<-9223372036854775807> : tensor<1xsi64>) : !torch.vtensor<[1],si64>
  %14 = torch.vtensor.literal(dense<-1> : tensor<1xsi64>) : !torch.vtensor<[1],si64>
  %int0_5 = torch.constant.int 0
  %int0_6 = torch.constant.int 0
  %15 = torch.prim.NumToTensor.Scalar %int0_6 : !torch.int -> !torch.vtensor<[1],si64>
  %16 = torch.aten.index_select %12, %int0_5, %15 : !torch.vtensor<[1],si64>, !torch.int, !torch.vtensor<[1],si64> -> !torch.vtensor<[1],si64>
  %17 = torch.aten.item %16 : !torch.vtensor<[1],si64> -> !torch.int
  %18 = torch.aten.index_select %13, %int0_5, %15 : !torch.vtensor<[1],si64>, !torch.int, !torch.vtensor<[1],si64> -> !torch.vtensor<[1],si64>
  %19 = torch.aten.item %18 : !torch.vtensor<[1],si64> -> !torch.int
  %20 = torch.aten.index_select %11, %int0_5, %15 : !torch.vtensor<[1],si64>, !torch.int, !torch.vtensor<[1],si64> -> !torch.vtensor<[1],si64>
  %21 = torch.aten.item %20 : !torch.vtensor<[1],si64> -> !torch.int
  %22 = torch.aten.index_select %14, %int0_5, %15 : !torch.vtensor<[1],si64>, !torch.int, !torch.vtensor<[1],si64> -> !torch.vtensor<[1],si64>
  %23 = torch.aten.item %22 : !torch.vtensor<[1],si64> -> !torch.int
  %24 = torch.aten.slice.Tensor %arg0, %21, %17, %19, %23 : !torch.vtensor<[4,2],si64>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<*,si64>
  return %24 : !torch.vtensor<*,si64>
}

// nn.LayerNorm(16) after a patch embedding (conv 4x4 stride 4, reshape to [b, c, h*w],
// transpose), legacy exporter, dynamic batch and image: the input's last dim is typed `?`
// after the reshape, and the conversion writes normalized_shape [-1], which torch-mlir's
// lowering reads as the input's own last dim (eager PyTorch rejects it). The op, as
// converted, on the transposed input.
// CHECK-LABEL: func.func @layer_norm_of_onnx
// CHECK: torch.aten.native_layer_norm {{.*}} -> !torch.vtensor<[?,?,16],f32>, !torch.vtensor<[?,?,1],f32>, !torch.vtensor<[?,?,1],f32>
func.func @layer_norm_of_onnx(%arg0: !torch.vtensor<[?,16,?],f32>, %w: !torch.vtensor<[16],f32>, %b: !torch.vtensor<[16],f32>) -> !torch.vtensor<*,f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %0 = torch.aten.transpose.int %arg0, %int1, %int2 : !torch.vtensor<[?,16,?],f32>, !torch.int, !torch.int -> !torch.vtensor<[?,?,?],f32>
  %float9.999990e-06 = torch.constant.float 9.9999997473787516E-6
  %int-1 = torch.constant.int -1
  %1 = torch.prim.ListConstruct %int-1 : (!torch.int) -> !torch.list<int>
  %result0, %result1, %result2 = torch.aten.native_layer_norm %0, %1, %w, %b, %float9.999990e-06 : !torch.vtensor<[?,?,?],f32>, !torch.list<int>, !torch.vtensor<[16],f32>, !torch.vtensor<[16],f32>, !torch.float -> !torch.vtensor<*,f32>, !torch.vtensor<*,f32>, !torch.vtensor<*,f32>
  return %result0 : !torch.vtensor<*,f32>
}

// nn.Upsample(scale_factor=2, mode="nearest"), legacy exporter: ONNX Resize in nearest mode
// converts with align_corners false, which torch-mlir's lowering ignores in that mode (eager
// PyTorch rejects any align_corners there).
// CHECK-LABEL: func.func @interpolate_nearest_of_onnx
// CHECK: torch.aten.__interpolate.size_list_scale_list {{.*}} -> !torch.vtensor<[?,3,8,10],f32>
func.func @interpolate_nearest_of_onnx(%arg0: !torch.vtensor<[?,3,4,5],f32>) -> !torch.vtensor<*,f32> {
  %none = torch.constant.none
  %0 = torch.vtensor.literal(dense<[1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00]> : tensor<4xf32>) : !torch.vtensor<[4],f32>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %str = torch.constant.str "nearest"
  %none_0 = torch.constant.none
  %float1.000000e00 = torch.constant.float 1.000000e+00
  %int0 = torch.constant.int 0
  %int0_1 = torch.constant.int 0
  %1 = torch.aten.select.int %0, %int0, %int0_1 : !torch.vtensor<[4],f32>, !torch.int, !torch.int -> !torch.vtensor<[1],f32>
  %2 = torch.aten.item %1 : !torch.vtensor<[1],f32> -> !torch.float
  %3 = torch.aten.eq.float %2, %float1.000000e00 : !torch.float, !torch.float -> !torch.bool
  torch.runtime.assert %3, "Unsupported: non-trivial scale factor for dimension 0"
  %int0_2 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %4 = torch.aten.select.int %0, %int0_2, %int1 : !torch.vtensor<[4],f32>, !torch.int, !torch.int -> !torch.vtensor<[1],f32>
  %5 = torch.aten.item %4 : !torch.vtensor<[1],f32> -> !torch.float
  %6 = torch.aten.eq.float %5, %float1.000000e00 : !torch.float, !torch.float -> !torch.bool
  torch.runtime.assert %6, "Unsupported: non-trivial scale factor for dimension 1"
  %int0_3 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %7 = torch.aten.select.int %0, %int0_3, %int2 : !torch.vtensor<[4],f32>, !torch.int, !torch.int -> !torch.vtensor<[1],f32>
  %8 = torch.aten.item %7 : !torch.vtensor<[1],f32> -> !torch.float
  %int0_4 = torch.constant.int 0
  %int3 = torch.constant.int 3
  %9 = torch.aten.select.int %0, %int0_4, %int3 : !torch.vtensor<[4],f32>, !torch.int, !torch.int -> !torch.vtensor<[1],f32>
  %10 = torch.aten.item %9 : !torch.vtensor<[1],f32> -> !torch.float
  %11 = torch.prim.ListConstruct %8, %10 : (!torch.float, !torch.float) -> !torch.list<float>
  %12 = torch.aten.__interpolate.size_list_scale_list %arg0, %none_0, %11, %str, %false, %none_0, %false : !torch.vtensor<[?,3,4,5],f32>, !torch.none, !torch.list<float>, !torch.str, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<*,f32>
  return %12 : !torch.vtensor<*,f32>
}
