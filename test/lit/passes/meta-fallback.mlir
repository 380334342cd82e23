// RUN: torch-refine-opt %s --pass-pipeline='builtin.module(torch-refine-pipeline{keep-symbolic-dims=true broadcast-equal=true})' | filecheck %s
// RUN: torch-refine-opt %s --pass-pipeline='builtin.module(torch-refine-pipeline{meta-fallback=false})' | filecheck %s --check-prefix=OFF

// Ops without a library function typed by PyTorch's meta kernels (docs/library.md, "Three
// ways an op is served"): static sizes exact, dynamic ones as expressions of the argument
// dims, the dtype PyTorch gives (special_logsumexp of int64 is float32). test/python/library/
// test_meta_fallback.py checks the same ops against PyTorch.

// CHECK-LABEL: func.func @static
// CHECK: torch.operator "torch.aten.special_logsumexp"{{.*}} -> !torch.vtensor<[4],f32>
// CHECK: torch.operator "torch.aten.special_logsumexp"{{.*}} -> !torch.vtensor<[4,1],f32>
// CHECK: torch.operator "torch.aten.sort.stable"{{.*}} -> (!torch.vtensor<[4,5],f32>, !torch.vtensor<[4,5],si64>)
// CHECK: torch.operator "torch.aten.complex"{{.*}} -> !torch.vtensor<[4,3],complex<f32>>
// OFF-LABEL: func.func @static
// OFF: torch.operator "torch.aten.special_logsumexp"{{.*}} -> !torch.vtensor{{ *$}}
func.func @static(%x: !torch.vtensor<[4,3],f32>, %i: !torch.vtensor<[4,3],si64>, %y: !torch.vtensor<[4,5],f32>,
                  %a: !torch.vtensor<[4,3],f32>, %b: !torch.vtensor<[4,3],f32>)
    -> (!torch.vtensor, !torch.vtensor, !torch.vtensor, !torch.vtensor, !torch.vtensor) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none = torch.constant.none
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %0 = torch.operator "torch.aten.special_logsumexp"(%x, %dims, %false) : (!torch.vtensor<[4,3],f32>, !torch.list<int>, !torch.bool) -> !torch.vtensor
  %1 = torch.operator "torch.aten.special_logsumexp"(%i, %dims, %true) : (!torch.vtensor<[4,3],si64>, !torch.list<int>, !torch.bool) -> !torch.vtensor
  %2:2 = torch.operator "torch.aten.sort.stable"(%y, %none, %int0, %false) : (!torch.vtensor<[4,5],f32>, !torch.none, !torch.int, !torch.bool) -> (!torch.vtensor, !torch.vtensor)
  %3 = torch.operator "torch.aten.complex"(%a, %b) : (!torch.vtensor<[4,3],f32>, !torch.vtensor<[4,3],f32>) -> !torch.vtensor
  return %0, %1, %2#0, %2#1, %3 : !torch.vtensor, !torch.vtensor, !torch.vtensor, !torch.vtensor, !torch.vtensor
}

// Dynamic dims: special_logsumexp's result keeps the batch symbol, which the ops after it read
// (the view's -1 is 3); sort.stable keeps both dims. PyTorch's fake kernel for complex
// specializes a dynamic size to its example value: no size is claimed (not even the rank),
// the dtype is. (kron's did too: library/long_tail.py has its functions now.)
// CHECK-LABEL: func.func @dynamic
// CHECK: torch.operator "torch.aten.special_logsumexp"{{.*}} {torch_refine.dims = {{\[\[}}"%arg0[0]"]]} : {{.*}} -> !torch.vtensor<[?],f32>
// CHECK: torch.aten.view {{.*}} -> !torch.vtensor<[?,3],f32>
// CHECK: torch.operator "torch.aten.sort.stable"{{.*}} {torch_refine.dims = {{\[\[}}"%arg1[0]", "5"], ["%arg1[0]", "5"]]} : {{.*}} -> (!torch.vtensor<[?,5],f32>, !torch.vtensor<[?,5],si64>)
// CHECK: torch.operator "torch.aten.complex"{{.*}} -> !torch.vtensor<*,complex<f32>>
// CHECK: torch.operator "torch.aten.kron"{{.*}} {torch_refine.dims = {{\[\[}}"4*%arg2[0]", "15"]]} {{.*}} -> !torch.vtensor<[?,15],f32>
func.func @dynamic(%x: !torch.vtensor<[?,3],f32>, %y: !torch.vtensor<[?,5],f32>, %a: !torch.vtensor<[?,3],f32>,
                   %b: !torch.vtensor<[4,5],f32>) -> (!torch.vtensor, !torch.vtensor, !torch.vtensor, !torch.vtensor, !torch.vtensor) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %none = torch.constant.none
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %0 = torch.operator "torch.aten.special_logsumexp"(%x, %dims, %false) : (!torch.vtensor<[?,3],f32>, !torch.list<int>, !torch.bool) -> !torch.vtensor
  %n = torch.aten.size.int %0, %int0 : !torch.vtensor, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %n, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.view %x, %sizes : !torch.vtensor<[?,3],f32>, !torch.list<int> -> !torch.vtensor
  %2:2 = torch.operator "torch.aten.sort.stable"(%y, %none, %int1, %false) : (!torch.vtensor<[?,5],f32>, !torch.none, !torch.int, !torch.bool) -> (!torch.vtensor, !torch.vtensor)
  %3 = torch.operator "torch.aten.complex"(%a, %a) : (!torch.vtensor<[?,3],f32>, !torch.vtensor<[?,3],f32>) -> !torch.vtensor
  %4 = torch.operator "torch.aten.kron"(%a, %b) : (!torch.vtensor<[?,3],f32>, !torch.vtensor<[4,5],f32>) -> !torch.vtensor
  return %1, %2#0, %2#1, %3, %4 : !torch.vtensor, !torch.vtensor, !torch.vtensor, !torch.vtensor, !torch.vtensor
}

// A guard PyTorch's kernel needs becomes an assert at the entry, as a library function's
// check would: cross broadcasts its two dynamic sizes, asserted equal under
// broadcast-equal (torch.export's rule, which this file's CHECK lines run); the guards it needs only for its branches (sizes not 1) are proved unneeded.
// CHECK-LABEL: func.func @guarded
// CHECK: torch.runtime.assert {{.*}}, "torch.aten.cross: PyTorch's meta kernel assumes it (requires %arg1[0] == %arg0[0])"
// CHECK-NOT: torch.runtime.assert
// CHECK: torch.operator "torch.aten.cross"{{.*}} -> !torch.vtensor<[?,3],f32>
func.func @guarded(%a: !torch.vtensor<[?,3],f32>, %b: !torch.vtensor<[?,3],f32>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %0 = torch.operator "torch.aten.cross"(%a, %b, %int1) : (!torch.vtensor<[?,3],f32>, !torch.vtensor<[?,3],f32>, !torch.int) -> !torch.vtensor
  return %0 : !torch.vtensor
}

// In a branch the guard goes in front of the op, once (the dtype step and later rounds
// assert nothing again).
// CHECK-LABEL: func.func @guarded_in_branch
// CHECK: torch.prim.If
// CHECK-COUNT-1: torch.runtime.assert
// CHECK-NEXT: torch.operator "torch.aten.cross"{{.*}} -> !torch.vtensor<[?,3],f32>
// CHECK-NOT: torch.runtime.assert
func.func @guarded_in_branch(%a: !torch.vtensor<[?,3],f32>, %b: !torch.vtensor<[?,3],f32>, %c: !torch.bool) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %0 = torch.prim.If %c -> (!torch.vtensor) {
    %1 = torch.operator "torch.aten.cross"(%a, %b, %int1) : (!torch.vtensor<[?,3],f32>, !torch.vtensor<[?,3],f32>, !torch.int) -> !torch.vtensor
    torch.prim.If.yield %1 : !torch.vtensor
  } else {
    %2 = torch.tensor_static_info_cast %a : !torch.vtensor<[?,3],f32> to !torch.vtensor
    torch.prim.If.yield %2 : !torch.vtensor
  }
  return %0 : !torch.vtensor
}

// Erased types: the shape step cannot run the kernel before the operand's dtype is known;
// the dtype step gives the sizes too, and another round refines the tanh after it.
// CHECK-LABEL: func.func @erased
// CHECK: torch.operator "torch.aten.special_logsumexp"{{.*}} -> !torch.vtensor<[2],f32>
// CHECK: torch.aten.tanh {{.*}} -> !torch.vtensor<[2],f32>
func.func @erased(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.relu %x : !torch.vtensor<[2,3],f32> -> !torch.vtensor
  %1 = torch.operator "torch.aten.special_logsumexp"(%0, %dims, %false) : (!torch.vtensor, !torch.list<int>, !torch.bool) -> !torch.vtensor
  %2 = torch.aten.tanh %1 : !torch.vtensor -> !torch.vtensor
  return %2 : !torch.vtensor
}

// The ops after such an op keep their checks when the next round refines them: the first
// round wrapped this add while sort.stable's sizes were unknown (it claimed nothing then).
// CHECK-LABEL: func.func @late_checks
// CHECK: torch.operator "torch.aten.sort.stable"{{.*}} -> (!torch.vtensor<[?,2],si64>, !torch.vtensor<[?,2],si64>)
// CHECK: torch.runtime.assert {{.*}} "aten.add.Tensor: {{.*}}(requires %s{{[0-9]+}} == %arg1[0])"
// CHECK-NEXT: torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[?,2],si64>
func.func @late_checks(%x: !torch.vtensor<[?,3],f32>, %y: !torch.vtensor<[?,2],si64>) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %false = torch.constant.bool false
  %n = torch.aten.nonzero %x : !torch.vtensor<[?,3],f32> -> !torch.vtensor
  %0:2 = torch.operator "torch.aten.sort.stable"(%n, %none, %int0, %false) : (!torch.vtensor, !torch.none, !torch.int, !torch.bool) -> (!torch.vtensor, !torch.vtensor)
  %1 = torch.aten.add.Tensor %0#0, %y, %int0 : !torch.vtensor, !torch.vtensor<[?,2],si64>, !torch.int -> !torch.vtensor
  return %1 : !torch.vtensor
}

// A program whose types state the sizes already (torch.export's) gets the dims and the
// guards all the same: the view reads special_logsumexp's size as the batch, cross asserts.
// CHECK-LABEL: func.func @typed
// CHECK: torch.runtime.assert {{.*}} "torch.aten.cross: PyTorch's meta kernel assumes it (requires %arg2[0] == %arg1[0])"
// CHECK: torch.operator "torch.aten.special_logsumexp"{{.*}} {torch_refine.dims = {{\[\[}}"%arg0[0]"]]}
// CHECK: torch.aten.view {{.*}} {torch_refine.dims = {{\[\[}}"%arg0[0]", "3"]]}
// CHECK: torch.operator "torch.aten.cross"{{.*}} {torch_refine.dims = {{\[\[}}"%arg1[0]", "3"]]}
func.func @typed(%x: !torch.vtensor<[?,3],f32>, %a: !torch.vtensor<[?,3],f32>, %b: !torch.vtensor<[?,3],f32>)
    -> (!torch.vtensor<[?,3],f32>, !torch.vtensor<[?,3],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %0 = torch.operator "torch.aten.special_logsumexp"(%x, %dims, %false) : (!torch.vtensor<[?,3],f32>, !torch.list<int>, !torch.bool) -> !torch.vtensor<[?],f32>
  %n = torch.aten.size.int %0, %int0 : !torch.vtensor<[?],f32>, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %n, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.view %x, %sizes : !torch.vtensor<[?,3],f32>, !torch.list<int> -> !torch.vtensor<[?,3],f32>
  %2 = torch.operator "torch.aten.cross"(%a, %b, %int1) : (!torch.vtensor<[?,3],f32>, !torch.vtensor<[?,3],f32>, !torch.int) -> !torch.vtensor<[?,3],f32>
  return %1, %2 : !torch.vtensor<[?,3],f32>, !torch.vtensor<[?,3],f32>
}
