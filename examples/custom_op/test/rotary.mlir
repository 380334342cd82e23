// The custom op and the ATen op the library lacks are refined from ../my_ops.py; the
// output goes through a file named after the tool, which the substitution leaves alone.
// RUN: torch-refine-opt --extra-library=%S/../my_ops.py --torch-refine-pipeline %S/../model.mlir -o %t.torch-refine-opt.mlir
// RUN: FileCheck %s < %t.torch-refine-opt.mlir

// CHECK-LABEL: func.func @forward(
// CHECK: torch.operator "mylib.rotary"{{.*}} -> !torch.vtensor<[2,8,16,64],f32>
// CHECK: torch.operator "aten.native_channel_shuffle"{{.*}} -> !torch.vtensor<[2,8,16,64],f32>
// CHECK: torch.aten.tanh {{.*}} -> !torch.vtensor<[2,8,16,64],f32>
