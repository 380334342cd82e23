// RUN: torch-refine-opt %s --split-input-file --verify-diagnostics --torch-refine-pipeline

// A dim of a zero-rank tensor: PyTorch raises for every dim (maybe_wrap_dim alone accepts
// 0 and -1, and the list index that then fails left no check behind).
func.func @unique_dim_of_zero_rank(%arg0: !torch.vtensor<[],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %true = torch.constant.bool true
  // expected-error@+1 {{'torch.aten.unique_dim' op shape check failed: AssertionError: unique_dim: Dimension specified as 0 but tensor has no dimensions}}
  %0:3 = torch.aten.unique_dim %arg0, %int0, %true, %true, %true : !torch.vtensor<[],f32>, !torch.int, !torch.bool, !torch.bool, !torch.bool -> !torch.vtensor, !torch.vtensor, !torch.vtensor
  return %0#0 : !torch.vtensor
}

// -----

func.func @unique_consecutive_of_zero_rank(%arg0: !torch.vtensor<[],f32>) -> !torch.vtensor {
  %int-1 = torch.constant.int -1
  %true = torch.constant.bool true
  %dim = torch.derefine %int-1 : !torch.int to !torch.optional<int>
  // expected-error@+1 {{'torch.aten.unique_consecutive' op shape check failed: AssertionError: unique_consecutive: Dimension specified as -1 but tensor has no dimensions}}
  %0:3 = torch.aten.unique_consecutive %arg0, %true, %true, %dim : !torch.vtensor<[],f32>, !torch.bool, !torch.bool, !torch.optional<int> -> !torch.vtensor, !torch.vtensor, !torch.vtensor
  return %0#0 : !torch.vtensor
}

// -----

// Element counts past int64: PyTorch raises "Storage size calculation overflowed". The
// library's check avoids aten.floordiv.int, whose torch-mlir folder computes in doubles
// (9223372036854775807 // 1 folds to -2**63, which refused every zeros of known sizes).
func.func @zeros_past_int64() -> !torch.vtensor {
  %int2_40 = torch.constant.int 1099511627776
  %none = torch.constant.none
  %size = torch.prim.ListConstruct %int2_40, %int2_40 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error@+1 {{'torch.aten.zeros' op shape check failed: AssertionError: zeros: storage size calculation overflowed}}
  %0 = torch.aten.zeros %size, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

func.func @expand_past_int64(%arg0: !torch.vtensor<[1,1],f32>) -> !torch.vtensor {
  %int2_62 = torch.constant.int 4611686018427387904
  %int4 = torch.constant.int 4
  %false = torch.constant.bool false
  %size = torch.prim.ListConstruct %int2_62, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error@+1 {{'torch.aten.expand' op shape check failed: AssertionError: expand: storage size calculation overflowed}}
  %0 = torch.aten.expand %arg0, %size, %false : !torch.vtensor<[1,1],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// 2**62 float32 elements are 2**64 bytes.
func.func @zeros_bytes_past_int64() -> !torch.vtensor {
  %int2_62 = torch.constant.int 4611686018427387904
  %none = torch.constant.none
  %size = torch.prim.ListConstruct %int2_62 : (!torch.int) -> !torch.list<int>
  // expected-error@+1 {{'torch.aten.zeros' op shape check failed: AssertionError: zeros: storage size calculation overflowed}}
  %0 = torch.aten.zeros %size, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// 7 * 2**60 int8 elements fit (no error expected).
func.func @new_zeros_below_int64(%arg0: !torch.vtensor<[2],f32>) -> !torch.vtensor {
  %int2_60 = torch.constant.int 1152921504606846976
  %int7 = torch.constant.int 7
  %int8_dtype = torch.constant.int 1
  %none = torch.constant.none
  %size = torch.prim.ListConstruct %int2_60, %int7 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.new_zeros %arg0, %size, %int8_dtype, %none, %none, %none : !torch.vtensor<[2],f32>, !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// In place, the result is self: an operand broadcasting self to more dims is an error.
func.func @add_inplace_broadcasting_past_self(%arg0: !torch.tensor<[3],f32>, %arg1: !torch.tensor<[2,3],f32>) -> !torch.tensor {
  %int1 = torch.constant.int 1
  // expected-error@+1 {{'torch.aten.add_.Tensor' op shape check failed: AssertionError: aten.add_.Tensor: the result's rank differs from self's}}
  %0 = torch.aten.add_.Tensor %arg0, %arg1, %int1 : !torch.tensor<[3],f32>, !torch.tensor<[2,3],f32>, !torch.int -> !torch.tensor
  return %0 : !torch.tensor
}

// -----

// Softmax of an empty floating-point tensor is accepted (no error expected).
func.func @softmax_of_empty(%arg0: !torch.vtensor<[0,3],f32>) -> (!torch.vtensor, !torch.vtensor, !torch.vtensor) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten._softmax %arg0, %int0, %false : !torch.vtensor<[0,3],f32>, !torch.int, !torch.bool -> !torch.vtensor
  %1 = torch.aten._log_softmax %arg0, %int1, %false : !torch.vtensor<[0,3],f32>, !torch.int, !torch.bool -> !torch.vtensor
  %2 = torch.aten.softmax.int %arg0, %int0, %none : !torch.vtensor<[0,3],f32>, !torch.int, !torch.none -> !torch.vtensor
  return %0, %1, %2 : !torch.vtensor, !torch.vtensor, !torch.vtensor
}

// -----

func.func @add_alpha_float_of_integers(%arg0: !torch.vtensor<[3],si64>, %arg1: !torch.vtensor<[3],si64>) -> !torch.vtensor {
  %alpha = torch.constant.float 1.500000e+00
  // expected-error@+1 {{'torch.aten.add.Tensor' op dtype check failed: AssertionError: aten.add.Tensor: For integral input tensors, argument alpha must not be a floating point number}}
  %0 = torch.aten.add.Tensor %arg0, %arg1, %alpha : !torch.vtensor<[3],si64>, !torch.vtensor<[3],si64>, !torch.float -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

func.func @scatter_float_index(%arg0: !torch.vtensor<[3,4],f32>, %arg1: !torch.vtensor<[3,2],f32>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %value = torch.constant.float 1.500000e+00
  // expected-error@+1 {{'torch.aten.scatter.value' op dtype check failed: AssertionError: scatter: expected dtype int32/int64 for index}}
  %0 = torch.aten.scatter.value %arg0, %int1, %arg1, %value : !torch.vtensor<[3,4],f32>, !torch.int, !torch.vtensor<[3,2],f32>, !torch.float -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A check that always fails where the program may never go (a branch, a loop body) is
// no error: PyTorch runs the program while it stays away. It warns and asserts false in
// front of the op, and the op's type stays unknown.
func.func @mm_in_a_branch(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[4,5],f32>, %arg2: !torch.bool) -> !torch.vtensor {
  %0 = torch.prim.If %arg2 -> (!torch.vtensor) {
    // expected-warning@+1 {{'torch.aten.mm' op shape check failed: AssertionError: Matrix dimensions don't match for mm: self[1]=3, mat2[0]=4; kept as a runtime assert: it fails if the program gets here}}
    %1 = torch.aten.mm %arg0, %arg1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[4,5],f32> -> !torch.vtensor
    torch.prim.If.yield %1 : !torch.vtensor
  } else {
    %2 = torch.tensor_static_info_cast %arg0 : !torch.vtensor<[2,3],f32> to !torch.vtensor
    torch.prim.If.yield %2 : !torch.vtensor
  }
  return %0 : !torch.vtensor
}

// -----

func.func @mm_in_a_loop_body(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[4,5],f32>, %n: !torch.int) {
  %true = torch.constant.bool true
  torch.prim.Loop %n, %true, init() {
  ^bb0(%i: !torch.int):
    // expected-warning@+1 {{'torch.aten.mm' op shape check failed}}
    %1 = torch.aten.mm %arg0, %arg1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[4,5],f32> -> !torch.vtensor
    torch.prim.Loop.condition %true, iter()
  } : (!torch.int, !torch.bool) -> ()
  return
}

// -----

func.func @mm_at_the_top_level(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[4,5],f32>) -> !torch.vtensor {
  // expected-error@+1 {{'torch.aten.mm' op shape check failed: AssertionError: Matrix dimensions don't match for mm: self[1]=3, mat2[0]=4}}
  %0 = torch.aten.mm %arg0, %arg1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[4,5],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A split list that nothing unpacks still has its checks: PyTorch raises for split_size 0
// of a non-empty dim.
func.func @split_size_zero_of_a_list_returned_whole(%x: !torch.vtensor<[5],f32>) -> !torch.list<vtensor> {
  %int0 = torch.constant.int 0
  // expected-error@+1 {{'torch.aten.split.Tensor' op shape check failed: AssertionError: split: split_size can only be 0 if the dimension size is 0}}
  %0 = torch.aten.split.Tensor %x, %int0, %int0 : !torch.vtensor<[5],f32>, !torch.int, !torch.int -> !torch.list<vtensor>
  return %0 : !torch.list<vtensor>
}

// -----

// torch-mlir's conversion of ONNX GRU writes a dynamic batch as a literal -1 in the size
// of the output it creates: PyTorch creates no such tensor. The error says where the -1
// comes from and what to do.
func.func @gru_output_of_a_dynamic_batch(%arg0: !torch.vtensor<[8,?,16],f32>) -> !torch.vtensor<[8,?,32],f32> {
  %int8 = torch.constant.int 8
  %int-1 = torch.constant.int -1
  %int32 = torch.constant.int 32
  %int6 = torch.constant.int 6
  %none = torch.constant.none
  %sizes = torch.prim.ListConstruct %int8, %int-1, %int32 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  // expected-error@+1 {{'torch.aten.zeros' op shape check failed: AssertionError: zeros: trying to create tensor with negative dimension (size 1 is the literal -1: torch-mlir's convert-torch-onnx-to-torch writes a dynamic dim so, as its GRU conversion does for a dynamic batch; PyTorch creates no such tensor and the program cannot run: export the model with a static batch)}}
  %0 = torch.aten.zeros %sizes, %int6, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[8,?,32],f32>
  return %0 : !torch.vtensor<[8,?,32],f32>
}

// -----

// Padding past the int64 maximum: 3 + 2 * (2**63 - 1) wraps in int64 back to 1, which
// refined the result to [2,1]; PyTorch raises.
func.func @constant_pad_wrapping_back_to_a_size(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %max = torch.constant.int 9223372036854775807
  %pad = torch.prim.ListConstruct %max, %max : (!torch.int, !torch.int) -> !torch.list<int>
  %float0 = torch.constant.float 0.000000e+00
  // expected-error@+1 {{'torch.aten.constant_pad_nd' op shape check failed: AssertionError: constant_pad_nd: the padded size is past the int64 maximum}}
  %0 = torch.aten.constant_pad_nd %arg0, %pad, %float0 : !torch.vtensor<[2,3],f32>, !torch.list<int>, !torch.float -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// The same with a dynamic size: no static answer, so the check is a guard, not a type.
func.func @constant_pad_wrapping_of_a_dynamic_size(%arg0: !torch.vtensor<[2,?],f32>) -> !torch.vtensor {
  %max = torch.constant.int 9223372036854775807
  %pad = torch.prim.ListConstruct %max, %max : (!torch.int, !torch.int) -> !torch.list<int>
  %float0 = torch.constant.float 0.000000e+00
  // expected-error@+1 {{'torch.aten.constant_pad_nd' op shape check failed: AssertionError: constant_pad_nd: the padded size is past the int64 maximum}}
  %0 = torch.aten.constant_pad_nd %arg0, %pad, %float0 : !torch.vtensor<[2,?],f32>, !torch.list<int>, !torch.float -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// repeat_interleave of 4 elements 2**62 times: 4 * 2**62 wraps in int64 to 0, a [0] result
// PyTorch never gives (it raises).
func.func @repeat_interleave_count_wrapping_to_zero(%arg0: !torch.vtensor<[4],f32>) -> !torch.vtensor {
  %repeats = torch.constant.int 4611686018427387904
  %none = torch.constant.none
  // expected-error@+1 {{'torch.aten.repeat_interleave.self_int' op shape check failed: AssertionError: repeat_interleave: storage size calculation overflowed}}
  %0 = torch.aten.repeat_interleave.self_int %arg0, %repeats, %none, %none : !torch.vtensor<[4],f32>, !torch.int, !torch.none, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A window size of -(2**63 - 1): folding the library's arithmetic met a value past int64
// (no constant can hold it) and raised, an internal error; such a value now stays an op,
// and the size check reports PyTorch's error.
func.func @unfold_window_at_the_int64_bound(%arg0: !torch.vtensor<[3,3],f32>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %size = torch.constant.int -9223372036854775807
  // expected-error@+1 {{'torch.aten.unfold' op shape check failed: AssertionError: unfold: the window size must be non-negative}}
  %0 = torch.aten.unfold %arg0, %int0, %size, %int1 : !torch.vtensor<[3,3],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A private function's failing check is an error once something calls it (uncalled, a
// warning: torch-refine-pipeline-declarations.mlir).
func.func private @called(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[4,5],f32>) -> !torch.vtensor {
  // expected-error@+1 {{'torch.aten.mm' op shape check failed}}
  %0 = torch.aten.mm %a, %b : !torch.vtensor<[2,3],f32>, !torch.vtensor<[4,5],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}
func.func @main(%x: !torch.vtensor<[2,3],f32>, %y: !torch.vtensor<[4,5],f32>) -> !torch.vtensor {
  %1 = func.call @called(%x, %y) : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[4,5],f32>) -> !torch.vtensor
  return %1 : !torch.vtensor
}
