// --split-input-file takes a marker, -p is --pass-pipeline.

// RUN: torch-refine-opt %S/Inputs/split-marker.mlir --split-input-file='// XX' -p 'builtin.module(canonicalize)' > %t.ours
// RUN: torch-mlir-opt %S/Inputs/split-marker.mlir --split-input-file='// XX' -p 'builtin.module(canonicalize)' > %t.theirs
// RUN: diff %t.ours %t.theirs
// RUN: torch-refine-opt %S/Inputs/split-marker.mlir --split-input-file='// XX' | filecheck %s

// CHECK: func.func @first
// CHECK: {{^}}// -----
// CHECK: func.func @second
