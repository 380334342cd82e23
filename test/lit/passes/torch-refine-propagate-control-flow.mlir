// RUN: torch-refine-opt %s --split-input-file --torch-refine-propagate-control-flow | filecheck %s

// The result of an If is the join of its branches.
// CHECK-LABEL: func.func @if_join(
// CHECK: torch.prim.If %arg0 -> (!torch.vtensor<[?,3],f32>)
// CHECK: torch.tensor_static_info_cast %arg1 : !torch.vtensor<[4,3],f32> to !torch.vtensor<[?,3],f32>
// CHECK: torch.tensor_static_info_cast %arg2 : !torch.vtensor<[5,3],f32> to !torch.vtensor<[?,3],f32>
// CHECK: %[[CAST:.*]] = torch.tensor_static_info_cast %{{.*}} : !torch.vtensor<[?,3],f32> to !torch.vtensor
// CHECK: return %[[CAST]]
func.func @if_join(%c: !torch.bool, %a: !torch.vtensor<[4,3],f32>, %b: !torch.vtensor<[5,3],f32>) -> !torch.vtensor {
  %0 = torch.prim.If %c -> (!torch.vtensor) {
    %1 = torch.tensor_static_info_cast %a : !torch.vtensor<[4,3],f32> to !torch.vtensor
    torch.prim.If.yield %1 : !torch.vtensor
  } else {
    %1 = torch.tensor_static_info_cast %b : !torch.vtensor<[5,3],f32> to !torch.vtensor
    torch.prim.If.yield %1 : !torch.vtensor
  }
  return %0 : !torch.vtensor
}

// -----

// Different dtypes join to unk; equal sizes stay.
// CHECK-LABEL: func.func @if_join_dtype(
// CHECK: torch.prim.If %arg0 -> (!torch.vtensor<[4,3],unk>)
func.func @if_join_dtype(%c: !torch.bool, %a: !torch.vtensor<[4,3],f32>, %b: !torch.vtensor<[4,3],si64>) -> !torch.vtensor {
  %0 = torch.prim.If %c -> (!torch.vtensor) {
    %1 = torch.tensor_static_info_cast %a : !torch.vtensor<[4,3],f32> to !torch.vtensor
    torch.prim.If.yield %1 : !torch.vtensor
  } else {
    %1 = torch.tensor_static_info_cast %b : !torch.vtensor<[4,3],si64> to !torch.vtensor
    torch.prim.If.yield %1 : !torch.vtensor
  }
  return %0 : !torch.vtensor
}

// -----

// Nested Ifs: the inner join feeds the outer one in the same run.
// CHECK-LABEL: func.func @nested_if(
// CHECK: %[[OUTER:.*]] = torch.prim.If %arg0 -> (!torch.vtensor<[?,3],f32>)
// CHECK: torch.prim.If %arg1 -> (!torch.vtensor<[?,3],f32>)
func.func @nested_if(%c: !torch.bool, %d: !torch.bool, %a: !torch.vtensor<[4,3],f32>, %b: !torch.vtensor<[5,3],f32>, %e: !torch.vtensor<[6,3],f32>) -> !torch.vtensor {
  %0 = torch.prim.If %c -> (!torch.vtensor) {
    %1 = torch.prim.If %d -> (!torch.vtensor) {
      %2 = torch.tensor_static_info_cast %a : !torch.vtensor<[4,3],f32> to !torch.vtensor
      torch.prim.If.yield %2 : !torch.vtensor
    } else {
      %2 = torch.tensor_static_info_cast %b : !torch.vtensor<[5,3],f32> to !torch.vtensor
      torch.prim.If.yield %2 : !torch.vtensor
    }
    torch.prim.If.yield %1 : !torch.vtensor
  } else {
    %1 = torch.tensor_static_info_cast %e : !torch.vtensor<[6,3],f32> to !torch.vtensor
    torch.prim.If.yield %1 : !torch.vtensor
  }
  return %0 : !torch.vtensor
}

// -----

// A carried tensor with an unknown type starts from its init value's type.
// CHECK-LABEL: func.func @loop_assume_init(
// CHECK: torch.prim.Loop %{{.*}}, %{{.*}}, init(%arg0)
// CHECK: ^bb0(%{{.*}}: !torch.int, %{{.*}}: !torch.vtensor<[4,3],f32>):
// CHECK: } : (!torch.int, !torch.bool, !torch.vtensor<[4,3],f32>) -> !torch.vtensor<[4,3],f32>
func.func @loop_assume_init(%a: !torch.vtensor<[4,3],f32>) -> !torch.vtensor {
  %int3 = torch.constant.int 3
  %true = torch.constant.bool true
  %i = torch.tensor_static_info_cast %a : !torch.vtensor<[4,3],f32> to !torch.vtensor
  %1 = torch.prim.Loop %int3, %true, init(%i) {
  ^bb0(%iv: !torch.int, %x: !torch.vtensor):
    %y = torch.aten.tanh %x : !torch.vtensor -> !torch.vtensor
    torch.prim.Loop.condition %true, iter(%y : !torch.vtensor)
  } : (!torch.int, !torch.bool, !torch.vtensor) -> (!torch.vtensor)
  return %1 : !torch.vtensor
}

// -----

// The body, refined under the assumption, yields the same type: the fixed point holds
// and nothing changes.
// CHECK-LABEL: func.func @loop_stable(
// CHECK: ^bb0(%{{.*}}: !torch.int, %{{.*}}: !torch.vtensor<[4,3],f32>):
// CHECK: torch.aten.tanh %{{.*}} : !torch.vtensor<[4,3],f32> -> !torch.vtensor<[4,3],f32>
// CHECK: } : (!torch.int, !torch.bool, !torch.vtensor<[4,3],f32>) -> !torch.vtensor<[4,3],f32>
func.func @loop_stable(%a: !torch.vtensor<[4,3],f32>) -> !torch.vtensor<[4,3],f32> {
  %int3 = torch.constant.int 3
  %true = torch.constant.bool true
  %1 = torch.prim.Loop %int3, %true, init(%a) {
  ^bb0(%iv: !torch.int, %x: !torch.vtensor<[4,3],f32>):
    %y = torch.aten.tanh %x : !torch.vtensor<[4,3],f32> -> !torch.vtensor<[4,3],f32>
    torch.prim.Loop.condition %true, iter(%y : !torch.vtensor<[4,3],f32>)
  } : (!torch.int, !torch.bool, !torch.vtensor<[4,3],f32>) -> (!torch.vtensor<[4,3],f32>)
  return %1 : !torch.vtensor<[4,3],f32>
}

// -----

// The body doubles dim 0 each iteration ([2,3] in, [4,3] on the back edge, reaching the
// yield through the casts simplification inserts to stay valid): the carried type widens to the join [?,3],f32 and the body's derived types are reset.
// CHECK-LABEL: func.func @loop_dim_changes(
// CHECK: torch.tensor_static_info_cast %arg0 : !torch.vtensor<[2,3],f32> to !torch.vtensor<[?,3],f32>
// CHECK: ^bb0(%{{.*}}: !torch.int, %[[X:.*]]: !torch.vtensor<[?,3],f32>):
// CHECK: torch.prim.ListConstruct %[[X]], %[[X]] : (!torch.vtensor<[?,3],f32>, !torch.vtensor<[?,3],f32>) -> !torch.list<vtensor>
// CHECK: torch.aten.cat %{{.*}}, %{{.*}} : !torch.list<vtensor>, !torch.int -> !torch.vtensor
// CHECK: } : (!torch.int, !torch.bool, !torch.vtensor<[?,3],f32>) -> !torch.vtensor<[?,3],f32>
// CHECK: torch.tensor_static_info_cast %{{.*}} : !torch.vtensor<[?,3],f32> to !torch.vtensor
func.func @loop_dim_changes(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %int3 = torch.constant.int 3
  %int0 = torch.constant.int 0
  %true = torch.constant.bool true
  %1 = torch.prim.Loop %int3, %true, init(%a) {
  ^bb0(%iv: !torch.int, %x: !torch.vtensor<[2,3],f32>):
    %l = torch.prim.ListConstruct %x, %x : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>) -> !torch.list<vtensor<[2,3],f32>>
    %y = torch.aten.cat %l, %int0 : !torch.list<vtensor<[2,3],f32>>, !torch.int -> !torch.vtensor<[4,3],f32>
    %w = torch.tensor_static_info_cast %y : !torch.vtensor<[4,3],f32> to !torch.vtensor
    %z = torch.tensor_static_info_cast %w : !torch.vtensor to !torch.vtensor<[2,3],f32>
    torch.prim.Loop.condition %true, iter(%z : !torch.vtensor<[2,3],f32>)
  } : (!torch.int, !torch.bool, !torch.vtensor<[2,3],f32>) -> (!torch.vtensor<[2,3],f32>)
  %r = torch.tensor_static_info_cast %1 : !torch.vtensor<[2,3],f32> to !torch.vtensor
  return %r : !torch.vtensor
}
