// RUN: torch-refine-opt %s --split-input-file --verify-diagnostics --torch-refine-simplify-shape-calculations

// A library check decided false at compile time: mm of [2,3] x [4,5].
func.func @check_fails(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[4,5],f32>) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    // expected-error @+1 {{'torch.aten.mm' op shape check failed: AssertionError: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)}}
    %1 = torch.aten.mm %arg0, %arg1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[4,5],f32> -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %none = torch.constant.none
    %int1 = torch.constant.int 1
    %int0 = torch.constant.int 0
    %str = torch.constant.str "mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})"
    %prefix = torch.constant.str "AssertionError: "
    %k0 = torch.aten.size.int %arg0, %int1 : !torch.vtensor<[2,3],f32>, !torch.int -> !torch.int
    %k1 = torch.aten.size.int %arg1, %int0 : !torch.vtensor<[4,5],f32>, !torch.int -> !torch.int
    %m = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[2,3],f32>, !torch.int -> !torch.int
    %n = torch.aten.size.int %arg1, %int1 : !torch.vtensor<[4,5],f32>, !torch.int -> !torch.int
    %ok = torch.aten.eq.int %k0, %k1 : !torch.int, !torch.int -> !torch.bool
    torch.prim.If %ok -> () {
      torch.prim.If.yield
    } else {
      %msg = torch.aten.format(%str, %m, %k0, %k1, %n) : !torch.str, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.str
      %full = torch.aten.add.str %prefix, %msg : !torch.str, !torch.str -> !torch.str
      torch.prim.RaiseException %full, %none : !torch.str, !torch.none
      torch.prim.If.yield
    }
    %r = torch.prim.ListConstruct %m, %n : (!torch.int, !torch.int) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %r : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// The calculated shape contradicts the type the IR states.
func.func @contradiction(%arg0: !torch.vtensor) -> !torch.vtensor<[3],f32> {
  %0 = torch.shape.calculate {
    // expected-error @+1 {{'torch.aten.tanh' op calculated shape (!torch.vtensor<[2],unk>) contradicts the stated type !torch.vtensor<[3],f32>}}
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor<[3],f32>
    torch.shape.calculate.yield %1 : !torch.vtensor<[3],f32>
  } shapes {
    %int2 = torch.constant.int 2
    %1 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %1 : !torch.list<int>
  } : !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}


// -----

// An int division by a divisor that folds to zero raises, as in PyTorch; torch-mlir's
// folders would fold it (remainder.int crashed the process with SIGFPE, floordiv.int
// gave a garbage size).
func.func @remainder_by_zero(%arg0: !torch.vtensor<[0,3],f32>) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    // expected-error @+1 {{'torch.aten.tanh' op shape check failed: ZeroDivisionError: integer division or modulo by zero}}
    %1 = torch.aten.tanh %arg0 : !torch.vtensor<[0,3],f32> -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int0 = torch.constant.int 0
    %int1 = torch.constant.int 1
    %rows = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[0,3],f32>, !torch.int -> !torch.int
    %cols = torch.aten.size.int %arg0, %int1 : !torch.vtensor<[0,3],f32>, !torch.int -> !torch.int
    %r = torch.aten.remainder.int %cols, %rows : !torch.int, !torch.int -> !torch.int
    %list = torch.prim.ListConstruct %r, %cols : (!torch.int, !torch.int) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %list : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

func.func @floordiv_by_zero(%arg0: !torch.vtensor<[0,3],f32>) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    // expected-error @+1 {{'torch.aten.tanh' op shape check failed: ZeroDivisionError: integer division or modulo by zero}}
    %1 = torch.aten.tanh %arg0 : !torch.vtensor<[0,3],f32> -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %int0 = torch.constant.int 0
    %int1 = torch.constant.int 1
    %rows = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[0,3],f32>, !torch.int -> !torch.int
    %cols = torch.aten.size.int %arg0, %int1 : !torch.vtensor<[0,3],f32>, !torch.int -> !torch.int
    %q = torch.aten.floordiv.int %cols, %rows : !torch.int, !torch.int -> !torch.int
    %list = torch.prim.ListConstruct %q, %cols : (!torch.int, !torch.int) -> !torch.list<int>
    torch.shape.calculate.yield.shapes %list : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// The einsum plan of an equation PyTorch rejects folds to a raise of PyTorch's message.
func.func @einsum_plan_of_invalid_equation(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    // expected-error@+1 {{'torch.aten.tanh' op shape check failed: AssertionError: einsum(): found '.' for operand 0 that is not part of any ellipsis}}
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %1 : !torch.vtensor
  } shapes {
    %eq = torch.constant.str "i.j"
    %int0 = torch.constant.int 0
    %plan = torch.operator "torch_refine.einsum_plan"(%eq) : (!torch.str) -> !torch.list<list<int>>
    %output = torch.aten.__getitem__.t %plan, %int0 : !torch.list<list<int>>, !torch.int -> !torch.list<int>
    torch.shape.calculate.yield.shapes %output : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}
