// RUN: torch-refine-opt %s --split-input-file --verify-diagnostics --torch-refine-pipeline

// Programs invalid under torch-mlir's meaning as under PyTorch's keep their error
// (frontend-meanings.mlir has the valid forms). An ONNX AveragePool's dilation of 0.
func.func @avg_pool2d_of_onnx_zero_dilation(%arg0: !torch.vtensor<[?,2,9,9],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none = torch.constant.none
  %kernel = torch.prim.ListConstruct %int3, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %stride = torch.prim.ListConstruct %int2, %int2, %int1, %int0 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %padding = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error@+1 {{'torch.aten.avg_pool2d' op shape check failed: AssertionError: avg_pool2d: dilation should be greater than zero}}
  %0 = torch.aten.avg_pool2d %arg0, %kernel, %stride, %padding, %false, %true, %none : !torch.vtensor<[?,2,9,9],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A reflect pad of the batch dim: torch-mlir's decomposition pads at most the last 3 dims.
func.func @reflect_pad_of_four_dims(%arg0: !torch.vtensor<[?,3,12,8],f32>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %str = torch.constant.str "reflect"
  %pad = torch.prim.ListConstruct %int1, %int1, %int1, %int1, %int1, %int1, %int1, %int1 : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  // expected-error@+1 {{'torch.aten.pad' op shape check failed: AssertionError: pad: reflect and replicate padding pad at most the last 3 dims, and no more than the input has; a pair for an earlier dim must be zeros}}
  %0 = torch.aten.pad %arg0, %pad, %str, %none : !torch.vtensor<[?,3,12,8],f32>, !torch.list<int>, !torch.str, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A negative dim counts from the end, and the dim it names must still have size 1.
func.func @squeeze_of_negative_dim_not_one(%arg0: !torch.vtensor<[3,5,?,2,8],f32>) -> !torch.vtensor {
  %int-2 = torch.constant.int -2
  %dims = torch.prim.ListConstruct %int-2 : (!torch.int) -> !torch.list<int>
  // expected-error@+1 {{'torch.prims.squeeze' op shape check failed: AssertionError: prims.squeeze: cannot squeeze a dimension whose size is not 1}}
  %0 = torch.prims.squeeze %arg0, %dims : !torch.vtensor<[3,5,?,2,8],f32>, !torch.list<int> -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Fewer sizes than dims align with the last dims, which must then broadcast.
func.func @broadcast_to_lower_rank_mismatch(%arg0: !torch.vtensor<[?,3,2],f32>) -> !torch.vtensor {
  %int4 = torch.constant.int 4
  %sizes = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  // expected-error@+1 {{'torch.aten.broadcast_to' op shape check failed: AssertionError: expand: the expanded size must match the existing size at a non-singleton dimension}}
  %0 = torch.aten.broadcast_to %arg0, %sizes : !torch.vtensor<[?,3,2],f32>, !torch.list<int> -> !torch.vtensor
  return %0 : !torch.vtensor
}
