// RUN: torch-refine-opt %s --split-input-file --torch-refine-simplify-dtype-calculations | filecheck %s

// Two dim tensors, int32 and int64: the wider wins.
// CHECK-LABEL: func.func @tensors_same_category_int_widths(
// CHECK: } : !torch.vtensor<*,si64>
func.func @tensors_same_category_int_widths(%arg0: !torch.vtensor, %arg1: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.mul.Tensor %arg0, %arg1 : !torch.vtensor, !torch.vtensor -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %r0 = torch.constant.int 1
    %r1 = torch.constant.int 2
    %d0 = torch.constant.int 3
    %d1 = torch.constant.int 4
    %ranks = torch.prim.ListConstruct %r0, %r1 : (!torch.int, !torch.int) -> !torch.list<optional<int>>
    %dtypes = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
    %p = torch.promote_dtypes %ranks, %dtypes : (!torch.list<optional<int>>, !torch.list<int>) -> !torch.int
    torch.dtype.calculate.yield.dtypes %p : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// float16 and float32 dim tensors.
// CHECK-LABEL: func.func @tensors_same_category_float_widths(
// CHECK: } : !torch.vtensor<*,f32>
func.func @tensors_same_category_float_widths(%arg0: !torch.vtensor, %arg1: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.mul.Tensor %arg0, %arg1 : !torch.vtensor, !torch.vtensor -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %r0 = torch.constant.int 2
    %r1 = torch.constant.int 2
    %d0 = torch.constant.int 5
    %d1 = torch.constant.int 6
    %ranks = torch.prim.ListConstruct %r0, %r1 : (!torch.int, !torch.int) -> !torch.list<optional<int>>
    %dtypes = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
    %p = torch.promote_dtypes %ranks, %dtypes : (!torch.list<optional<int>>, !torch.list<int>) -> !torch.int
    torch.dtype.calculate.yield.dtypes %p : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A zero-rank float64 does not widen a dim float32 tensor.
// CHECK-LABEL: func.func @zero_rank_does_not_widen_dim(
// CHECK: } : !torch.vtensor<*,f32>
func.func @zero_rank_does_not_widen_dim(%arg0: !torch.vtensor, %arg1: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.mul.Tensor %arg0, %arg1 : !torch.vtensor, !torch.vtensor -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %r0 = torch.constant.int 0
    %r1 = torch.constant.int 1
    %d0 = torch.constant.int 7
    %d1 = torch.constant.int 6
    %ranks = torch.prim.ListConstruct %r0, %r1 : (!torch.int, !torch.int) -> !torch.list<optional<int>>
    %dtypes = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
    %p = torch.promote_dtypes %ranks, %dtypes : (!torch.list<optional<int>>, !torch.list<int>) -> !torch.int
    torch.dtype.calculate.yield.dtypes %p : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A zero-rank float32 with a dim int64 tensor: the float category wins.
// CHECK-LABEL: func.func @zero_rank_higher_category_wins(
// CHECK: } : !torch.vtensor<*,f32>
func.func @zero_rank_higher_category_wins(%arg0: !torch.vtensor, %arg1: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.mul.Tensor %arg0, %arg1 : !torch.vtensor, !torch.vtensor -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %r0 = torch.constant.int 0
    %r1 = torch.constant.int 3
    %d0 = torch.constant.int 6
    %d1 = torch.constant.int 4
    %ranks = torch.prim.ListConstruct %r0, %r1 : (!torch.int, !torch.int) -> !torch.list<optional<int>>
    %dtypes = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
    %p = torch.promote_dtypes %ranks, %dtypes : (!torch.list<optional<int>>, !torch.list<int>) -> !torch.int
    torch.dtype.calculate.yield.dtypes %p : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Only zero-rank tensors promote among themselves.
// CHECK-LABEL: func.func @zero_rank_only(
// CHECK: } : !torch.vtensor<*,f16>
func.func @zero_rank_only(%arg0: !torch.vtensor, %arg1: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.mul.Tensor %arg0, %arg1 : !torch.vtensor, !torch.vtensor -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %r0 = torch.constant.int 0
    %r1 = torch.constant.int 0
    %d0 = torch.constant.int 3
    %d1 = torch.constant.int 5
    %ranks = torch.prim.ListConstruct %r0, %r1 : (!torch.int, !torch.int) -> !torch.list<optional<int>>
    %dtypes = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
    %p = torch.promote_dtypes %ranks, %dtypes : (!torch.list<optional<int>>, !torch.list<int>) -> !torch.int
    torch.dtype.calculate.yield.dtypes %p : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A float scalar with an int32 tensor gives the default float dtype.
// CHECK-LABEL: func.func @scalar_float_with_int_tensor(
// CHECK: } : !torch.vtensor<*,f32>
func.func @scalar_float_with_int_tensor(%arg0: !torch.vtensor, %arg1: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.mul.Tensor %arg0, %arg1 : !torch.vtensor, !torch.vtensor -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %r0 = torch.constant.none
    %rd0 = torch.derefine %r0 : !torch.none to !torch.optional<int>
    %r1 = torch.constant.int 1
    %d0 = torch.constant.int 7
    %d1 = torch.constant.int 3
    %ranks = torch.prim.ListConstruct %rd0, %r1 : (!torch.optional<int>, !torch.int) -> !torch.list<optional<int>>
    %dtypes = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
    %p = torch.promote_dtypes %ranks, %dtypes : (!torch.list<optional<int>>, !torch.list<int>) -> !torch.int
    torch.dtype.calculate.yield.dtypes %p : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// An int scalar does not widen an int8 tensor.
// CHECK-LABEL: func.func @scalar_int_with_int8_tensor(
// CHECK: } : !torch.vtensor<*,si8>
func.func @scalar_int_with_int8_tensor(%arg0: !torch.vtensor, %arg1: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.mul.Tensor %arg0, %arg1 : !torch.vtensor, !torch.vtensor -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %r0 = torch.constant.none
    %rd0 = torch.derefine %r0 : !torch.none to !torch.optional<int>
    %r1 = torch.constant.int 1
    %d0 = torch.constant.int 4
    %d1 = torch.constant.int 1
    %ranks = torch.prim.ListConstruct %rd0, %r1 : (!torch.optional<int>, !torch.int) -> !torch.list<optional<int>>
    %dtypes = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
    %p = torch.promote_dtypes %ranks, %dtypes : (!torch.list<optional<int>>, !torch.list<int>) -> !torch.int
    torch.dtype.calculate.yield.dtypes %p : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Two scalars, int and float: the default float dtype.
// CHECK-LABEL: func.func @scalar_scalar(
// CHECK: } : !torch.vtensor<*,f32>
func.func @scalar_scalar(%arg0: !torch.vtensor, %arg1: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.mul.Tensor %arg0, %arg1 : !torch.vtensor, !torch.vtensor -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %r0 = torch.constant.none
    %rd0 = torch.derefine %r0 : !torch.none to !torch.optional<int>
    %r1 = torch.constant.none
    %rd1 = torch.derefine %r1 : !torch.none to !torch.optional<int>
    %d0 = torch.constant.int 4
    %d1 = torch.constant.int 7
    %ranks = torch.prim.ListConstruct %rd0, %rd1 : (!torch.optional<int>, !torch.optional<int>) -> !torch.list<optional<int>>
    %dtypes = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
    %p = torch.promote_dtypes %ranks, %dtypes : (!torch.list<optional<int>>, !torch.list<int>) -> !torch.int
    torch.dtype.calculate.yield.dtypes %p : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Two int scalars: int64.
// CHECK-LABEL: func.func @scalar_scalar_int(
// CHECK: } : !torch.vtensor<*,si64>
func.func @scalar_scalar_int(%arg0: !torch.vtensor, %arg1: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.mul.Tensor %arg0, %arg1 : !torch.vtensor, !torch.vtensor -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %r0 = torch.constant.none
    %rd0 = torch.derefine %r0 : !torch.none to !torch.optional<int>
    %r1 = torch.constant.none
    %rd1 = torch.derefine %r1 : !torch.none to !torch.optional<int>
    %d0 = torch.constant.int 4
    %d1 = torch.constant.int 4
    %ranks = torch.prim.ListConstruct %rd0, %rd1 : (!torch.optional<int>, !torch.optional<int>) -> !torch.list<optional<int>>
    %dtypes = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
    %p = torch.promote_dtypes %ranks, %dtypes : (!torch.list<optional<int>>, !torch.list<int>) -> !torch.int
    torch.dtype.calculate.yield.dtypes %p : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// complex64 with a float64 dim tensor: complex128.
// CHECK-LABEL: func.func @complex_with_float64(
// CHECK: } : !torch.vtensor<*,complex<f64>>
func.func @complex_with_float64(%arg0: !torch.vtensor, %arg1: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.mul.Tensor %arg0, %arg1 : !torch.vtensor, !torch.vtensor -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %r0 = torch.constant.int 1
    %r1 = torch.constant.int 1
    %d0 = torch.constant.int 9
    %d1 = torch.constant.int 7
    %ranks = torch.prim.ListConstruct %r0, %r1 : (!torch.int, !torch.int) -> !torch.list<optional<int>>
    %dtypes = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
    %p = torch.promote_dtypes %ranks, %dtypes : (!torch.list<optional<int>>, !torch.list<int>) -> !torch.int
    torch.dtype.calculate.yield.dtypes %p : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A complex scalar with a float16 tensor: complex<f16>.
// CHECK-LABEL: func.func @complex_scalar_with_half_tensor(
// CHECK: } : !torch.vtensor<*,complex<f16>>
func.func @complex_scalar_with_half_tensor(%arg0: !torch.vtensor, %arg1: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.mul.Tensor %arg0, %arg1 : !torch.vtensor, !torch.vtensor -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %r0 = torch.constant.none
    %rd0 = torch.derefine %r0 : !torch.none to !torch.optional<int>
    %r1 = torch.constant.int 1
    %d0 = torch.constant.int 9
    %d1 = torch.constant.int 5
    %ranks = torch.prim.ListConstruct %rd0, %r1 : (!torch.optional<int>, !torch.int) -> !torch.list<optional<int>>
    %dtypes = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
    %p = torch.promote_dtypes %ranks, %dtypes : (!torch.list<optional<int>>, !torch.list<int>) -> !torch.int
    torch.dtype.calculate.yield.dtypes %p : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// bool with bool stays bool.
// CHECK-LABEL: func.func @bool_bool(
// CHECK: } : !torch.vtensor<*,i1>
func.func @bool_bool(%arg0: !torch.vtensor, %arg1: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.mul.Tensor %arg0, %arg1 : !torch.vtensor, !torch.vtensor -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %r0 = torch.constant.int 1
    %r1 = torch.constant.int 1
    %d0 = torch.constant.int 11
    %d1 = torch.constant.int 11
    %ranks = torch.prim.ListConstruct %r0, %r1 : (!torch.int, !torch.int) -> !torch.list<optional<int>>
    %dtypes = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
    %p = torch.promote_dtypes %ranks, %dtypes : (!torch.list<optional<int>>, !torch.list<int>) -> !torch.int
    torch.dtype.calculate.yield.dtypes %p : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// bool with uint8: uint8.
// CHECK-LABEL: func.func @bool_with_uint8(
// CHECK: } : !torch.vtensor<*,ui8>
func.func @bool_with_uint8(%arg0: !torch.vtensor, %arg1: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.mul.Tensor %arg0, %arg1 : !torch.vtensor, !torch.vtensor -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %r0 = torch.constant.int 1
    %r1 = torch.constant.int 1
    %d0 = torch.constant.int 11
    %d1 = torch.constant.int 0
    %ranks = torch.prim.ListConstruct %r0, %r1 : (!torch.int, !torch.int) -> !torch.list<optional<int>>
    %dtypes = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
    %p = torch.promote_dtypes %ranks, %dtypes : (!torch.list<optional<int>>, !torch.list<int>) -> !torch.int
    torch.dtype.calculate.yield.dtypes %p : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// bfloat16 with float16 dim tensors: float32.
// CHECK-LABEL: func.func @bfloat16_with_half(
// CHECK: } : !torch.vtensor<*,f32>
func.func @bfloat16_with_half(%arg0: !torch.vtensor, %arg1: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.mul.Tensor %arg0, %arg1 : !torch.vtensor, !torch.vtensor -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %r0 = torch.constant.int 1
    %r1 = torch.constant.int 1
    %d0 = torch.constant.int 15
    %d1 = torch.constant.int 5
    %ranks = torch.prim.ListConstruct %r0, %r1 : (!torch.int, !torch.int) -> !torch.list<optional<int>>
    %dtypes = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
    %p = torch.promote_dtypes %ranks, %dtypes : (!torch.list<optional<int>>, !torch.list<int>) -> !torch.int
    torch.dtype.calculate.yield.dtypes %p : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A number result is refined to !torch.int or !torch.float; users that need a number get a derefine.
// CHECK-LABEL: func.func @number_result_int(
// CHECK: } : !torch.int
// CHECK: %[[D:.*]] = torch.derefine %{{.*}} : !torch.int to !torch.number
// CHECK: return %[[D]] : !torch.number
func.func @number_result_int(%a: !torch.int, %b: !torch.int) -> !torch.number {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.add %a, %b : !torch.int, !torch.int -> !torch.number
    torch.dtype.calculate.yield %1 : !torch.number
  } dtypes {
    %int4 = torch.constant.int 4
    torch.dtype.calculate.yield.dtypes %int4 : !torch.int
  } : !torch.number
  return %0 : !torch.number
}

// -----

// CHECK-LABEL: func.func @number_result_float(
// CHECK: torch.aten.add %{{.*}} -> !torch.float
// CHECK: } : !torch.float
func.func @number_result_float(%a: !torch.float, %b: !torch.int) -> !torch.number {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.add %a, %b : !torch.float, !torch.int -> !torch.number
    torch.dtype.calculate.yield %1 : !torch.number
  } dtypes {
    %int7 = torch.constant.int 7
    torch.dtype.calculate.yield.dtypes %int7 : !torch.int
  } : !torch.number
  return %0 : !torch.number
}

// -----

// The result is already refined: nothing changes, no cast appears.
// CHECK-LABEL: func.func @already_refined(
// CHECK-NOT: torch.tensor_static_info_cast
// CHECK: } : !torch.vtensor<[2],f32>
func.func @already_refined(%arg0: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
    torch.dtype.calculate.yield %1 : !torch.vtensor<[2],f32>
  } dtypes {
    %int6 = torch.constant.int 6
    torch.dtype.calculate.yield.dtypes %int6 : !torch.int
  } : !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// The operand dtype is unknown: promotion cannot be evaluated and the type stays.
// CHECK-LABEL: func.func @no_simplification_possible(
// CHECK: torch.promote_dtypes
// CHECK: } : !torch.vtensor
func.func @no_simplification_possible(%arg0: !torch.vtensor<[2],unk>, %arg1: !torch.vtensor<[2],f32>) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.mul.Tensor %arg0, %arg1 : !torch.vtensor<[2],unk>, !torch.vtensor<[2],f32> -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %0 = torch.aten.dim %arg0 : !torch.vtensor<[2],unk> -> !torch.int
    %1 = torch.prim.dtype %arg0 : !torch.vtensor<[2],unk> -> !torch.int
    %2 = torch.aten.dim %arg1 : !torch.vtensor<[2],f32> -> !torch.int
    %3 = torch.prim.dtype %arg1 : !torch.vtensor<[2],f32> -> !torch.int
    %ranks = torch.prim.ListConstruct %0, %2 : (!torch.int, !torch.int) -> !torch.list<optional<int>>
    %dtypes = torch.prim.ListConstruct %1, %3 : (!torch.int, !torch.int) -> !torch.list<int>
    %p = torch.promote_dtypes %ranks, %dtypes : (!torch.list<optional<int>>, !torch.list<int>) -> !torch.int
    torch.dtype.calculate.yield.dtypes %p : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// The reify form: each tensor becomes a (rank, dtype) tuple, unpacked in the function;
// the known sizes are kept when the dtype is met in.
// CHECK-LABEL: func.func @rank_dtype_tuples(
// CHECK: } : !torch.vtensor<[2,3],si64>
func.func @rank_dtype_tuples(%arg0: !torch.vtensor<[2,3],si32>, %arg1: !torch.vtensor<[3],si64>) -> !torch.vtensor<[2,3],unk> {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.mul.Tensor %arg0, %arg1 : !torch.vtensor<[2,3],si32>, !torch.vtensor<[3],si64> -> !torch.vtensor<[2,3],unk>
    torch.dtype.calculate.yield %1 : !torch.vtensor<[2,3],unk>
  } dtypes {
    %0 = torch.aten.dim %arg0 : !torch.vtensor<[2,3],si32> -> !torch.int
    %1 = torch.prim.dtype %arg0 : !torch.vtensor<[2,3],si32> -> !torch.int
    %t0 = torch.prim.TupleConstruct %0, %1 : !torch.int, !torch.int -> !torch.tuple<int, int>
    %2 = torch.aten.dim %arg1 : !torch.vtensor<[3],si64> -> !torch.int
    %3 = torch.prim.dtype %arg1 : !torch.vtensor<[3],si64> -> !torch.int
    %t1 = torch.prim.TupleConstruct %2, %3 : !torch.int, !torch.int -> !torch.tuple<int, int>
    %a:2 = torch.prim.TupleUnpack %t0 : !torch.tuple<int, int> -> !torch.int, !torch.int
    %int0 = torch.constant.int 0
    %int1 = torch.constant.int 1
    %b0 = torch.prim.TupleIndex %t1, %int0 : !torch.tuple<int, int>, !torch.int -> !torch.int
    %b1 = torch.prim.TupleIndex %t1, %int1 : !torch.tuple<int, int>, !torch.int -> !torch.int
    %ranks = torch.prim.ListConstruct %a#0, %b0 : (!torch.int, !torch.int) -> !torch.list<optional<int>>
    %dtypes = torch.prim.ListConstruct %a#1, %b1 : (!torch.int, !torch.int) -> !torch.list<int>
    %p = torch.promote_dtypes %ranks, %dtypes : (!torch.list<optional<int>>, !torch.list<int>) -> !torch.int
    torch.dtype.calculate.yield.dtypes %p : !torch.int
  } : !torch.vtensor<[2,3],unk>
  return %0 : !torch.vtensor<[2,3],unk>
}

// -----

// A scalar operand reaches the dtype function as NumToTensor: an int is si64, so
// int32 tensor * int scalar stays int32.
// CHECK-LABEL: func.func @num_to_tensor_dtype(
// CHECK: } : !torch.vtensor<*,si32>
func.func @num_to_tensor_dtype(%arg0: !torch.vtensor<[4],si32>, %s: !torch.int) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.mul.Scalar %arg0, %s : !torch.vtensor<[4],si32>, !torch.int -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %none = torch.constant.none
    %n = torch.derefine %s : !torch.int to !torch.number
    %t = torch.prim.NumToTensor.Scalar %n : !torch.number -> !torch.vtensor<[],unk>
    %sd = torch.prim.dtype %t : !torch.vtensor<[],unk> -> !torch.int
    %0 = torch.aten.dim %arg0 : !torch.vtensor<[4],si32> -> !torch.int
    %1 = torch.prim.dtype %arg0 : !torch.vtensor<[4],si32> -> !torch.int
    %nr = torch.derefine %none : !torch.none to !torch.optional<int>
    %opt0 = torch.derefine %0 : !torch.int to !torch.optional<int>
    %ranks = torch.prim.ListConstruct %opt0, %nr : (!torch.optional<int>, !torch.optional<int>) -> !torch.list<optional<int>>
    %dtypes = torch.prim.ListConstruct %1, %sd : (!torch.int, !torch.int) -> !torch.list<int>
    %p = torch.promote_dtypes %ranks, %dtypes : (!torch.list<optional<int>>, !torch.list<int>) -> !torch.int
    torch.dtype.calculate.yield.dtypes %p : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Tensors of unknown rank: promotion is decided when it does not depend on whether each
// is zero-rank or not. Two bool tensors give bool whatever their ranks.
// CHECK-LABEL: func.func @promote_unknown_ranks_same_dtype(
// CHECK: } : !torch.vtensor<*,i1>
func.func @promote_unknown_ranks_same_dtype(%a: !torch.vtensor<*,i1>, %b: !torch.vtensor<*,i1>) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.bitwise_and.Tensor %a, %b : !torch.vtensor<*,i1>, !torch.vtensor<*,i1> -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %int11 = torch.constant.int 11
    %ra = torch.aten.dim %a : !torch.vtensor<*,i1> -> !torch.int
    %rb = torch.aten.dim %b : !torch.vtensor<*,i1> -> !torch.int
    %ranks = torch.prim.ListConstruct %ra, %rb : (!torch.int, !torch.int) -> !torch.list<optional<int>>
    %dtypes = torch.prim.ListConstruct %int11, %int11 : (!torch.int, !torch.int) -> !torch.list<int>
    %d = torch.promote_dtypes %ranks, %dtypes : (!torch.list<optional<int>>, !torch.list<int>) -> !torch.int
    torch.dtype.calculate.yield.dtypes %d : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// f32 with an f64 tensor of unknown rank: a zero-rank f64 would give f32, a dim tensor f64.
// CHECK-LABEL: func.func @promote_unknown_rank_undecided(
// CHECK: torch.promote_dtypes
// CHECK: } : !torch.vtensor
func.func @promote_unknown_rank_undecided(%a: !torch.vtensor<[2],f32>, %b: !torch.vtensor<*,f64>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %0 = torch.dtype.calculate {
    %1 = torch.aten.add.Tensor %a, %b, %int1 : !torch.vtensor<[2],f32>, !torch.vtensor<*,f64>, !torch.int -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %int6 = torch.constant.int 6
    %int7 = torch.constant.int 7
    %rb = torch.aten.dim %b : !torch.vtensor<*,f64> -> !torch.int
    %ranks = torch.prim.ListConstruct %int1, %rb : (!torch.int, !torch.int) -> !torch.list<optional<int>>
    %dtypes = torch.prim.ListConstruct %int6, %int7 : (!torch.int, !torch.int) -> !torch.list<int>
    %d = torch.promote_dtypes %ranks, %dtypes : (!torch.list<optional<int>>, !torch.list<int>) -> !torch.int
    torch.dtype.calculate.yield.dtypes %d : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}
