// Bad input gives `file:line:col: error:` and exit 1, never a traceback.

// RUN: not torch-refine-opt %S/Inputs/malformed.mlir 2>&1 | filecheck %s --check-prefix=MALFORMED
// MALFORMED: malformed.mlir:3:39: error: expected ':'
// MALFORMED-NOT: Traceback

// RUN: not torch-refine-opt %S/Inputs/malformed.mlir -o %t.never 2>/dev/null
// RUN: not cat %t.never

// RUN: not torch-refine-opt %t.does-not-exist.mlir 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory

// RUN: not torch-refine-opt %S/Inputs/invalid-ir.mlir 2>&1 | filecheck %s --check-prefix=INVALID
// INVALID: invalid-ir.mlir:2:3: error: type of return operand 0 ('!torch.int') doesn't match function result type ('!torch.float') in function @f
// INVALID-NEXT: return %arg0 : !torch.int
// INVALID-NEXT: ^
// INVALID-NEXT: invalid-ir.mlir:2:3: note: see current operation

// RUN: not torch-refine-opt %S/Inputs/pass-failure.mlir --pass-pipeline='builtin.module(transform-interpreter)' 2>&1 | filecheck %s --check-prefix=REPRO
// REPRO: pass-failure.mlir:{{[0-9]+}}:{{[0-9]+}}: error: incompatible payload operation name
// REPRO: note: the pass pipeline failed; the input IR is saved in [[FILE:.*\.mlir]]; reproduce with:
// REPRO-NEXT: torch-refine-opt --pass-pipeline='builtin.module(transform-interpreter)' [[FILE]] --mlir-print-ir-after-all --mlir-disable-threading
