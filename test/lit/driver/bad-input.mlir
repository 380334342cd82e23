// Bad input gives `file:line:col: error:` and exit 1, never a traceback.

// RUN: not torch-refine-opt %S/Inputs/malformed.mlir 2>&1 | filecheck %s --check-prefix=MALFORMED
// MALFORMED: malformed.mlir:3:39: error: expected ':'
// MALFORMED-NOT: Traceback

// A diagnosed pass failure is an error in the input: reported, and nothing saved (only
// internal errors save a reproducer; test_opt_cli.py covers those).
// RUN: not torch-refine-opt %S/Inputs/pass-failure.mlir --pass-pipeline='builtin.module(transform-interpreter)' 2>&1 | filecheck %s --check-prefix=DIAGNOSED
// DIAGNOSED: pass-failure.mlir:{{[0-9]+}}:{{[0-9]+}}: error: incompatible payload operation name
// DIAGNOSED-NOT: saved
// DIAGNOSED-NOT: reproduce

// RUN: not torch-refine-opt %t.does-not-exist.mlir 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory

// RUN: not torch-refine-opt %S/Inputs/invalid-ir.mlir 2>&1 | filecheck %s --check-prefix=INVALID
// INVALID: invalid-ir.mlir:2:3: error: type of return operand 0 ('!torch.int') doesn't match function result type ('!torch.float') in function @f
// INVALID-NEXT: return %arg0 : !torch.int
// INVALID-NEXT: ^
// INVALID-NEXT: invalid-ir.mlir:2:3: note: see current operation

// Last: lit's out-of-process `cat` replaces PYTHONPATH for every RUN line after it.
// RUN: not torch-refine-opt %S/Inputs/malformed.mlir -o %t.never 2>/dev/null
// RUN: not cat %t.never
