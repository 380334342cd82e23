// The third-party pass runs by name, as a flag and in a pipeline beside torch-refine's.
// RUN: torch-refine-opt %s --torch-refine-pipeline | FileCheck %s --check-prefix=KEPT
// RUN: torch-refine-opt %s --torch-refine-pipeline --example-strip-runtime-asserts | FileCheck %s --check-prefix=STRIPPED
// RUN: torch-refine-opt %s --pass-pipeline='builtin.module(torch-refine-pipeline, example-strip-runtime-asserts{only-op=aten.mm})' | FileCheck %s --check-prefix=STRIPPED
// RUN: torch-refine-opt %s --pass-pipeline='builtin.module(torch-refine-pipeline, example-strip-runtime-asserts{only-op=aten.add})' | FileCheck %s --check-prefix=KEPT
// RUN: torch-refine-opt --help | FileCheck %s --check-prefix=HELP

// KEPT: torch.runtime.assert {{.*}}"aten.mm: Matrix dimensions
// STRIPPED-NOT: torch.runtime.assert
// STRIPPED: torch.aten.mm {{.*}} -> !torch.vtensor<[?,5],f32>
// HELP: {{^}}  --example-strip-runtime-asserts [OPTIONS]
// HELP-NEXT: Erase torch.runtime.assert ops (an example third-party pass) [from torch-refine-example-passes]
// HELP-NEXT: --only-op=<str> (default ""): erase only the asserts whose message names this op

func.func @mm(%a: !torch.vtensor<[?,?],f32>, %b: !torch.vtensor<[?,5],f32>) -> !torch.vtensor {
  %0 = torch.aten.mm %a, %b : !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,5],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}
