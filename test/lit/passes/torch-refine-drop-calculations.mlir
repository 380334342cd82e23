// RUN: torch-refine-opt %s --split-input-file --torch-refine-drop-calculations | filecheck %s
// RUN: torch-refine-opt %s --split-input-file '--torch-refine-drop-calculations=runtime-asserts=false' | filecheck %s --check-prefix=NOASSERT

// CHECK-LABEL: func.func @shape_wrapper(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor
// CHECK-NEXT:    %[[T:.*]] = torch.aten.tanh %[[X]] : !torch.vtensor -> !torch.vtensor<[2],f32>
// CHECK-NEXT:    return %[[T]] : !torch.vtensor<[2],f32>
func.func @shape_wrapper(%arg0: !torch.vtensor) -> !torch.vtensor<[2],f32> {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor<[2],f32>
    torch.shape.calculate.yield %1 : !torch.vtensor<[2],f32>
  } shapes {
    %1 = torch.aten.size %arg0 : !torch.vtensor -> !torch.list<int>
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// CHECK-LABEL: func.func @dtype_wrapper_with_two_results(
// CHECK:         %[[V:.*]], %[[I:.*]] = torch.aten.topk
// CHECK-NEXT:    return %[[I]] : !torch.vtensor
func.func @dtype_wrapper_with_two_results(%arg0: !torch.vtensor) -> !torch.vtensor {
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %true = torch.constant.bool true
  %0:2 = torch.dtype.calculate {
    %v, %i = torch.aten.topk %arg0, %int2, %int1, %true, %true : !torch.vtensor, !torch.int, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor, !torch.vtensor
    torch.dtype.calculate.yield %v, %i : !torch.vtensor, !torch.vtensor
  } dtypes {
    %int4 = torch.constant.int 4
    torch.dtype.calculate.yield.dtypes %int4, %int4 : !torch.int, !torch.int
  } : !torch.vtensor, !torch.vtensor
  return %0#1 : !torch.vtensor
}

// -----

// CHECK-LABEL: func.func @wrapper_in_loop(
// CHECK:         torch.prim.Loop
// CHECK-NEXT:    ^bb0(%{{.*}}: !torch.int, %[[CARRIED:.*]]: !torch.vtensor):
// CHECK-NEXT:      %[[T:.*]] = torch.aten.tanh %[[CARRIED]]
// CHECK-NEXT:      torch.prim.Loop.condition %{{.*}}, iter(%[[T]] : !torch.vtensor)
func.func @wrapper_in_loop(%arg0: !torch.vtensor, %arg1: !torch.int) -> !torch.vtensor {
  %true = torch.constant.bool true
  %0 = torch.prim.Loop %arg1, %true, init(%arg0) {
  ^bb0(%i: !torch.int, %carried: !torch.vtensor):
    %1 = torch.shape.calculate {
      %2 = torch.aten.tanh %carried : !torch.vtensor -> !torch.vtensor
      torch.shape.calculate.yield %2 : !torch.vtensor
    } shapes {
      %2 = torch.aten.size %carried : !torch.vtensor -> !torch.list<int>
      torch.shape.calculate.yield.shapes %2 : !torch.list<int>
    } : !torch.vtensor
    torch.prim.Loop.condition %true, iter(%1 : !torch.vtensor)
  } : (!torch.int, !torch.bool, !torch.vtensor) -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// An undecided check becomes an assert in front of the op, its message naming the
// condition over the arguments' dims; ops only the calculation used are erased.
// CHECK-LABEL: func.func @guard(
// CHECK-SAME:      %[[A:.*]]: !torch.vtensor<[?,?],f32>, %[[B:.*]]: !torch.vtensor<[?,7],f32>
// CHECK:         %[[INT1:.*]] = torch.constant.int 1
// CHECK:         %[[K1:.*]] = torch.aten.size.int %[[A]], %[[INT1]]
// CHECK:         %[[INT0:.*]] = torch.constant.int 0
// CHECK:         %[[K2:.*]] = torch.aten.size.int %[[B]], %[[INT0]]
// CHECK:         %[[EQ:.*]] = torch.aten.eq.int %[[K1]], %[[K2]]
// CHECK:         torch.runtime.assert %[[EQ]], "aten.mm: mat1 and mat2 shapes cannot be multiplied (requires %arg0[1] == %arg1[0])"
// CHECK-NEXT:    %[[MM:.*]] = torch.aten.mm %[[A]], %[[B]]
// CHECK-NEXT:    return %[[MM]]
// NOASSERT-LABEL: func.func @guard(
// NOASSERT-NEXT:    %[[MM:.*]] = torch.aten.mm
// NOASSERT-NEXT:    return %[[MM]]
func.func @guard(%arg0: !torch.vtensor<[?,?],f32>, %arg1: !torch.vtensor<[?,7],f32>) -> !torch.vtensor<[?,7],f32> {
  %int1 = torch.constant.int 1
  %0 = torch.shape.calculate {
    %1 = torch.aten.mm %arg0, %arg1 : !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,7],f32> -> !torch.vtensor<[?,7],f32>
    torch.shape.calculate.yield %1 : !torch.vtensor<[?,7],f32>
  } shapes {
    %none = torch.constant.none
    %int0 = torch.constant.int 0
    %int7 = torch.constant.int 7
    %str = torch.constant.str "mat1 and mat2 shapes cannot be multiplied"
    %s0 = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,?],f32>, !torch.int -> !torch.int
    %s1 = torch.aten.size.int %arg0, %int1 : !torch.vtensor<[?,?],f32>, !torch.int -> !torch.int
    %s2 = torch.aten.size.int %arg1, %int0 : !torch.vtensor<[?,7],f32>, !torch.int -> !torch.int
    %eq = torch.aten.eq.int %s1, %s2 : !torch.int, !torch.int -> !torch.bool
    torch.prim.If %eq -> () {
      torch.prim.If.yield
    } else {
      torch.prim.RaiseException %str, %none : !torch.str, !torch.none
      torch.prim.If.yield
    }
    %l = torch.prim.ListConstruct %s0, %int7 : (!torch.int, !torch.int) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %l : !torch.list<int>
  } : !torch.vtensor<[?,7],f32>
  return %0 : !torch.vtensor<[?,7],f32>
}

// -----

// A check raising in the `then` branch is negated; a check nested in the non-raising
// branch of another runs whenever the op does and is kept; a check depending on a loop
// variable cannot become an assert and is dropped: no library loop goes into the program.
// CHECK-LABEL: func.func @negated_and_nested_guards(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor, %[[N:.*]]: !torch.int
// CHECK:         %[[DIM:.*]] = torch.aten.dim %[[X]]
// CHECK:         %[[INT0:.*]] = torch.constant.int 0
// A negated comparison is the inverse comparison: backends lower no aten.__not__.
// CHECK:         %[[OK:.*]] = torch.aten.ne.int %[[DIM]], %[[INT0]]
// CHECK:         torch.runtime.assert %[[OK]], "aten.tanh: rank must be positive"
// CHECK:         %[[INT4:.*]] = torch.constant.int 4
// CHECK:         %[[LE:.*]] = torch.aten.le.int %[[DIM]], %[[INT4]]
// CHECK:         torch.runtime.assert %[[LE]], "aten.tanh: rank must be at most 4"
// CHECK-NEXT:    %[[T:.*]] = torch.aten.tanh
// CHECK-NEXT:    return %[[T]]
// NOASSERT-LABEL: func.func @negated_and_nested_guards(
// NOASSERT-NOT:     torch.prim.Loop
// NOASSERT:         torch.aten.tanh
func.func @negated_and_nested_guards(%arg0: !torch.vtensor, %arg1: !torch.int) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %none = torch.constant.none
    %true = torch.constant.bool true
    %msg0 = torch.constant.str "rank must be positive"
    %msg1 = torch.constant.str "rank must be at most 4"
    %msg2 = torch.constant.str "index out of range"
    %dim = torch.aten.dim %arg0 : !torch.vtensor -> !torch.int
    %int0 = torch.constant.int 0
    %is0 = torch.aten.eq.int %dim, %int0 : !torch.int, !torch.int -> !torch.bool
    torch.prim.If %is0 -> () {
      torch.prim.RaiseException %msg0, %none : !torch.str, !torch.none
      torch.prim.If.yield
    } else {
      %int4 = torch.constant.int 4
      %le = torch.aten.le.int %dim, %int4 : !torch.int, !torch.int -> !torch.bool
      torch.prim.If %le -> () {
        torch.prim.If.yield
      } else {
        torch.prim.RaiseException %msg1, %none : !torch.str, !torch.none
        torch.prim.If.yield
      }
      torch.prim.If.yield
    }
    torch.prim.Loop %arg1, %true, init() {
    ^bb0(%i: !torch.int):
      %lt = torch.aten.lt.int %i, %dim : !torch.int, !torch.int -> !torch.bool
      torch.prim.If %lt -> () {
        torch.prim.If.yield
      } else {
        torch.prim.RaiseException %msg2, %none : !torch.str, !torch.none
        torch.prim.If.yield
      }
      torch.prim.Loop.condition %true, iter()
    } : (!torch.int, !torch.bool) -> ()
    %sizes = torch.aten.size %arg0 : !torch.vtensor -> !torch.list<int>
    torch.shape.calculate.yield.shapes %sizes : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A condition computed by a short-circuit If of comparisons is their `__and__.bool`
// (a comparison cannot fail: computing it where the If would not is safe); the check,
// its negation, is the `__or__.bool` of the inverse comparisons, and the conjunction is
// gone. A message built with aten.format keeps its format string, its placeholders as
// `?`, after the op.
// CHECK-LABEL: func.func @short_circuit_guard(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor<[?],f32>
// CHECK:         %[[N:.*]] = torch.aten.size.int %[[X]]
// CHECK-NOT:     torch.aten.__and__.bool
// CHECK:         %[[IS3:.*]] = torch.aten.eq.int %[[N]]
// CHECK:         %[[IS1:.*]] = torch.aten.eq.int %[[N]]
// CHECK-NOT:     torch.prim.If
// CHECK:         %[[OK:.*]] = torch.aten.__or__.bool %[[IS3]], %[[IS1]]
// CHECK:         torch.runtime.assert %[[OK]], "aten.tanh: size %arg0[0] must be 1 or 3 (requires %arg0[0] == 3 or %arg0[0] == 1)"
// CHECK-NEXT:    torch.aten.tanh
func.func @short_circuit_guard(%arg0: !torch.vtensor<[?],f32>) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor<[?],f32> -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %none = torch.constant.none
    %false = torch.constant.bool false
    %int0 = torch.constant.int 0
    %int1 = torch.constant.int 1
    %int3 = torch.constant.int 3
    %prefix = torch.constant.str "AssertionError: "
    %fmt = torch.constant.str "size {} must be 1 or 3"
    %n = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?],f32>, !torch.int -> !torch.int
    %not3 = torch.aten.ne.int %n, %int3 : !torch.int, !torch.int -> !torch.bool
    %bad = torch.prim.If %not3 -> (!torch.bool) {
      %not1 = torch.aten.ne.int %n, %int1 : !torch.int, !torch.int -> !torch.bool
      torch.prim.If.yield %not1 : !torch.bool
    } else {
      torch.prim.If.yield %false : !torch.bool
    }
    torch.prim.If %bad -> () {
      %text = torch.aten.format(%fmt, %n) : !torch.str, !torch.int -> !torch.str
      %msg = torch.aten.add.str %prefix, %text : !torch.str, !torch.str -> !torch.str
      torch.prim.RaiseException %msg, %none : !torch.str, !torch.none
      torch.prim.If.yield
    } else {
      torch.prim.If.yield
    }
    %sizes = torch.aten.size %arg0 : !torch.vtensor<[?],f32> -> !torch.list<int>
    torch.shape.calculate.yield.shapes %sizes : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A condition reading a list that the calculation mutates cannot be moved out alone
// (it would read the list without its mutations): the check is dropped, as torch-mlir
// drops every check, rather than the library's list code going into the program.
// CHECK-LABEL: func.func @check_reads_a_mutated_list(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor
// CHECK-NEXT:    %[[T:.*]] = torch.aten.tanh %[[X]]
// CHECK-NEXT:    return %[[T]]
// NOASSERT-LABEL: func.func @check_reads_a_mutated_list(
// NOASSERT-NEXT:    %[[T:.*]] = torch.aten.tanh
// NOASSERT-NEXT:    return %[[T]]
func.func @check_reads_a_mutated_list(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %none = torch.constant.none
    %int1 = torch.constant.int 1
    %int-1 = torch.constant.int -1
    %int5 = torch.constant.int 5
    %msg = torch.constant.str "last size too small"
    %sizes = torch.aten.size %arg0 : !torch.vtensor -> !torch.list<int>
    %head = torch.aten.slice.t %sizes, %none, %int-1, %int1 : !torch.list<int>, !torch.none, !torch.int, !torch.int -> !torch.list<int>
    %1 = torch.aten.append.t %head, %int5 : !torch.list<int>, !torch.int -> !torch.list<int>
    %last = torch.aten.__getitem__.t %head, %int-1 : !torch.list<int>, !torch.int -> !torch.int
    %small = torch.aten.lt.int %last, %int1 : !torch.int, !torch.int -> !torch.bool
    torch.prim.If %small -> () {
      torch.prim.RaiseException %msg, %none : !torch.str, !torch.none
      torch.prim.If.yield
    } else {
      torch.prim.If.yield
    }
    torch.shape.calculate.yield.shapes %sizes : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A check nested in an If that is not itself a check (an early return of the library
// function) raises where the If's condition takes its branch: it is asserted as the
// `__or__.bool` of either condition on the way to the raise failing, with no If.
// CHECK-LABEL: func.func @check_under_an_early_return(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor, %[[N:.*]]: !torch.int
// CHECK:         %[[EMPTY:.*]] = torch.aten.eq.int %[[N]]
// CHECK:         %[[SMALL:.*]] = torch.aten.le.int %[[N]]
// CHECK:         %[[OK:.*]] = torch.aten.__or__.bool %[[EMPTY]], %[[SMALL]]
// CHECK-NEXT:    torch.runtime.assert %[[OK]], "aten.tanh: too large"
// CHECK-NEXT:    torch.aten.tanh %[[X]]
// CHECK-NOT:     torch.prim.If
func.func @check_under_an_early_return(%arg0: !torch.vtensor, %arg1: !torch.int) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %none = torch.constant.none
    %int0 = torch.constant.int 0
    %int3 = torch.constant.int 3
    %msg = torch.constant.str "too large"
    %empty = torch.aten.eq.int %arg1, %int0 : !torch.int, !torch.int -> !torch.bool
    %1 = torch.prim.If %empty -> (!torch.int) {
      torch.prim.If.yield %int0 : !torch.int
    } else {
      %large = torch.aten.gt.int %arg1, %int3 : !torch.int, !torch.int -> !torch.bool
      torch.prim.If %large -> () {
        torch.prim.RaiseException %msg, %none : !torch.str, !torch.none
        torch.prim.If.yield
      } else {
        torch.prim.If.yield
      }
      torch.prim.If.yield %arg1 : !torch.int
    }
    %sizes = torch.aten.size %arg0 : !torch.vtensor -> !torch.list<int>
    torch.shape.calculate.yield.shapes %sizes : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// The same through an alias: the list is mutated as the result of a cast of it.
// CHECK-LABEL: func.func @check_reads_a_list_mutated_through_an_alias(
// CHECK-NEXT:    %[[T:.*]] = torch.aten.tanh
// CHECK-NEXT:    return %[[T]]
func.func @check_reads_a_list_mutated_through_an_alias(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %none = torch.constant.none
    %int1 = torch.constant.int 1
    %int-1 = torch.constant.int -1
    %int5 = torch.constant.int 5
    %msg = torch.constant.str "last size too small"
    %sizes = torch.aten.size %arg0 : !torch.vtensor -> !torch.list<int>
    %head = torch.aten.slice.t %sizes, %none, %int-1, %int1 : !torch.list<int>, !torch.none, !torch.int, !torch.int -> !torch.list<int>
    %opt = torch.derefine %head : !torch.list<int> to !torch.optional<list<int>>
    %alias = torch.prim.unchecked_cast %opt : !torch.optional<list<int>> -> !torch.list<int>
    %1 = torch.aten.append.t %alias, %int5 : !torch.list<int>, !torch.int -> !torch.list<int>
    %last = torch.aten.__getitem__.t %head, %int-1 : !torch.list<int>, !torch.int -> !torch.int
    %small = torch.aten.lt.int %last, %int1 : !torch.int, !torch.int -> !torch.bool
    torch.prim.If %small -> () {
      torch.prim.RaiseException %msg, %none : !torch.str, !torch.none
      torch.prim.If.yield
    } else {
      torch.prim.If.yield
    }
    torch.shape.calculate.yield.shapes %sizes : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A check on the type of a number not known (`scalar_dtype` is prim.dtype of NumToTensor)
// is kept: NumToTensor of a number has no effect and moves out with the condition.
// CHECK-LABEL: func.func @check_on_number_type(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor<[3],si64>, %[[ALPHA:.*]]: !torch.number
// CHECK:         %[[T:.*]] = torch.prim.NumToTensor.Scalar %[[ALPHA]]
// CHECK-NEXT:    %[[CODE:.*]] = torch.prim.dtype %[[T]]
// CHECK:         %[[OK:.*]] = torch.aten.ne.int %[[CODE]], %{{.*}}
// CHECK-NEXT:    torch.runtime.assert %[[OK]], "aten.add.Tensor: alpha must not be a float"
// CHECK-NEXT:    torch.aten.add.Tensor
// NOASSERT-LABEL: func.func @check_on_number_type(
// NOASSERT-NOT:    torch.runtime.assert
func.func @check_on_number_type(%arg0: !torch.vtensor<[3],si64>, %alpha: !torch.number) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.add.Tensor %arg0, %arg0, %alpha : !torch.vtensor<[3],si64>, !torch.vtensor<[3],si64>, !torch.number -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %none = torch.constant.none
    %int7 = torch.constant.int 7
    %int4 = torch.constant.int 4
    %msg = torch.constant.str "alpha must not be a float"
    %t = torch.prim.NumToTensor.Scalar %alpha : !torch.number -> !torch.vtensor
    %code = torch.prim.dtype %t : !torch.vtensor -> !torch.int
    %ok = torch.aten.ne.int %code, %int7 : !torch.int, !torch.int -> !torch.bool
    torch.prim.If %ok -> () {
      torch.prim.If.yield
    } else {
      torch.prim.RaiseException %msg, %none : !torch.str, !torch.none
      torch.prim.If.yield
    }
    torch.dtype.calculate.yield.dtypes %int4 : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A short-circuit `and` whose second side divides (`n % d == 0` where `d > 0`): computed
// in front of the op, the division would run where the If never runs it, by zero; it
// divides by `d + int(d == 0)` instead, which is `d` wherever the If would divide.
// CHECK-LABEL: func.func @short_circuit_over_a_division(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor, %[[N:.*]]: !torch.int, %[[D:.*]]: !torch.int
// CHECK:         %[[POSITIVE:.*]] = torch.aten.gt.int %[[D]]
// CHECK:         %[[ZERO:.*]] = torch.aten.eq.int %[[D]]
// CHECK-NEXT:    %[[ONE_IF_ZERO:.*]] = torch.aten.Int.bool %[[ZERO]]
// CHECK-NEXT:    %[[NONZERO:.*]] = torch.aten.add.int %[[D]], %[[ONE_IF_ZERO]]
// CHECK-NEXT:    %[[R:.*]] = torch.aten.remainder.int %[[N]], %[[NONZERO]]
// CHECK-NEXT:    %[[DIVIDES:.*]] = torch.aten.eq.int %[[R]]
// CHECK-NEXT:    %[[OK:.*]] = torch.aten.__and__.bool %[[POSITIVE]], %[[DIVIDES]]
// CHECK-NEXT:    torch.runtime.assert %[[OK]], "aten.tanh: invalid shape"
// CHECK-NEXT:    torch.aten.tanh %[[X]]
// CHECK-NOT:     torch.prim.If
func.func @short_circuit_over_a_division(%arg0: !torch.vtensor, %n: !torch.int, %d: !torch.int) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %none = torch.constant.none
    %false = torch.constant.bool false
    %int0 = torch.constant.int 0
    %msg = torch.constant.str "invalid shape"
    %positive = torch.aten.gt.int %d, %int0 : !torch.int, !torch.int -> !torch.bool
    %divides = torch.prim.If %positive -> (!torch.bool) {
      %r = torch.aten.remainder.int %n, %d : !torch.int, !torch.int -> !torch.int
      %z = torch.aten.eq.int %r, %int0 : !torch.int, !torch.int -> !torch.bool
      torch.prim.If.yield %z : !torch.bool
    } else {
      torch.prim.If.yield %false : !torch.bool
    }
    torch.prim.If %divides -> () {
      torch.prim.If.yield
    } else {
      torch.prim.RaiseException %msg, %none : !torch.str, !torch.none
      torch.prim.If.yield
    }
    %sizes = torch.aten.size %arg0 : !torch.vtensor -> !torch.list<int>
    torch.shape.calculate.yield.shapes %sizes : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A check nested in a branch of an If computing a value (a reshape's infer-size: the
// new size is 1 where the size is -1, else the size) is asserted where the If's
// condition takes that branch (the size is -1 or at least the rows); a size read of a
// ranked tensor at a dim in range, which cannot fail, is computed in front of the op
// though only that branch read it. A check reading what the If computes reads it as a
// select without the If, `n + int(n == -1) * (1 - n)`: the branch that raises yields
// nothing once its check is asserted.
// CHECK-LABEL: func.func @check_reading_an_if_result(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor<[?,4],f32>, %[[N:.*]]: !torch.int
// CHECK:         %[[INFERRED:.*]] = torch.aten.eq.int %[[N]]
// CHECK:         %[[ROWS:.*]] = torch.aten.size.int %[[X]]
// CHECK:         %[[SIZE:.*]] = torch.aten.ge.int %[[N]], %[[ROWS]]
// CHECK:         %[[OK:.*]] = torch.aten.__or__.bool %[[INFERRED]], %[[SIZE]]
// CHECK-NEXT:    torch.runtime.assert %[[OK]], "aten.tanh: invalid shape dimensions"
// CHECK:         %[[AS_INT:.*]] = torch.aten.Int.bool %[[INFERRED]]
// CHECK-NEXT:    %[[DIFFERENCE:.*]] = torch.aten.sub.int %{{.*}}, %[[N]]
// CHECK-NEXT:    %[[CHANGE:.*]] = torch.aten.mul.int %[[AS_INT]], %[[DIFFERENCE]]
// CHECK-NEXT:    %[[NEWSIZE:.*]] = torch.aten.add.int %[[N]], %[[CHANGE]]
// CHECK:         %[[MATCHES:.*]] = torch.aten.eq.int %[[NEWSIZE]]
// CHECK-NEXT:    torch.runtime.assert %[[MATCHES]], "aten.tanh: invalid shape"
// CHECK-NEXT:    %[[T:.*]] = torch.aten.tanh %[[X]]
// CHECK-NEXT:    return %[[T]]
func.func @check_reading_an_if_result(%arg0: !torch.vtensor<[?,4],f32>, %n: !torch.int) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor<[?,4],f32> -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %none = torch.constant.none
    %int-1 = torch.constant.int -1
    %int0 = torch.constant.int 0
    %int1 = torch.constant.int 1
    %int12 = torch.constant.int 12
    %msg0 = torch.constant.str "invalid shape dimensions"
    %msg1 = torch.constant.str "invalid shape"
    %inferred = torch.aten.eq.int %n, %int-1 : !torch.int, !torch.int -> !torch.bool
    %newsize = torch.prim.If %inferred -> (!torch.int) {
      torch.prim.If.yield %int1 : !torch.int
    } else {
      %rows = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,4],f32>, !torch.int -> !torch.int
      %valid = torch.aten.ge.int %n, %rows : !torch.int, !torch.int -> !torch.bool
      torch.prim.If %valid -> () {
        torch.prim.If.yield
      } else {
        torch.prim.RaiseException %msg0, %none : !torch.str, !torch.none
        torch.prim.If.yield
      }
      torch.prim.If.yield %n : !torch.int
    }
    %matches = torch.aten.eq.int %newsize, %int12 : !torch.int, !torch.int -> !torch.bool
    torch.prim.If %matches -> () {
      torch.prim.If.yield
    } else {
      torch.prim.RaiseException %msg1, %none : !torch.str, !torch.none
      torch.prim.If.yield
    }
    %sizes = torch.aten.size %arg0 : !torch.vtensor<[?,4],f32> -> !torch.list<int>
    torch.shape.calculate.yield.shapes %sizes : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// `is not None` of an optional the op receives (not an If's result) is an op like any
// other: moved in front of the op, its check asserted.
// CHECK-LABEL: func.func @check_of_an_optional_operand(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor, %[[B:.*]]: !torch.optional<int>
// CHECK:         %[[GIVEN:.*]] = torch.aten.__isnot__ %[[B]]
// CHECK-NEXT:    torch.runtime.assert %[[GIVEN]], "aten.tanh: bias must be given"
// CHECK-NEXT:    torch.aten.tanh %[[X]]
func.func @check_of_an_optional_operand(%arg0: !torch.vtensor, %b: !torch.optional<int>) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %none = torch.constant.none
    %msg = torch.constant.str "bias must be given"
    %given = torch.aten.__isnot__ %b, %none : !torch.optional<int>, !torch.none -> !torch.bool
    torch.prim.If %given -> () {
      torch.prim.If.yield
    } else {
      torch.prim.RaiseException %msg, %none : !torch.str, !torch.none
      torch.prim.If.yield
    }
    %sizes = torch.aten.size %arg0 : !torch.vtensor -> !torch.list<int>
    torch.shape.calculate.yield.shapes %sizes : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}
