// An mlir-opt flag the Python bindings cannot serve is listed in --help with its reason,
// and using it is an error that gives the reason, not "unknown argument".
// RUN: torch-refine-opt --help | filecheck %s --check-prefix=HELP
// RUN: torch-refine-opt --help-hidden | filecheck %s --check-prefix=HELP
// RUN: not torch-refine-opt %s --mlir-print-value-users 2>&1 | filecheck %s --check-prefix=USERS
// RUN: not torch-refine-opt %s --mlir-print-unique-ssa-ids 2>&1 | filecheck %s --check-prefix=UNIQUE
// RUN: not torch-refine-opt %s --mlir-print-elementsattrs-with-hex-if-larger=4 2>&1 | filecheck %s --check-prefix=HEX
// RUN: not torch-refine-opt %s --mlir-print-stacktrace-on-diagnostic 2>&1 | filecheck %s --check-prefix=STACK
// RUN: not torch-refine-opt %s --mlir-generate-reproducer=x.mlir 2>&1 | filecheck %s --check-prefix=REPRO
// RUN: not torch-refine-opt %s --mlir-pass-pipeline-local-reproducer 2>&1 | filecheck %s --check-prefix=LOCAL
// RUN: not torch-refine-opt %s --elide-resource-data-from-bytecode 2>&1 | filecheck %s --check-prefix=ELIDE
// RUN: not torch-refine-opt %s --color 2>&1 | filecheck %s --check-prefix=COLOR

// HELP: mlir-opt flags the Python bindings cannot serve (docs/driver.md):
// HELP: --mlir-print-unique-ssa-ids [VALUE]
// HELP-NEXT: the binding's printer (get_asm) has no such option
// HELP: --color [VALUE] {{ *}}torch-refine-opt prints no colors

// USERS: torch-refine-opt: error: '--mlir-print-value-users' is not supported: the binding's printer (get_asm) has no such option
// UNIQUE: error: '--mlir-print-unique-ssa-ids' is not supported: the binding's printer
// HEX: error: '--mlir-print-elementsattrs-with-hex-if-larger' is not supported: the binding's printer
// STACK: error: '--mlir-print-stacktrace-on-diagnostic' is not supported: the C++ stack that emits a diagnostic is not reachable from Python
// REPRO: error: '--mlir-generate-reproducer' is not supported: needs MLIR's crash-recovery instrumentation
// LOCAL: error: '--mlir-pass-pipeline-local-reproducer' is not supported: needs MLIR's crash-recovery instrumentation
// ELIDE: error: '--elide-resource-data-from-bytecode' is not supported: the binding's write_bytecode always writes resource data
// COLOR: error: '--color' is not supported: torch-refine-opt prints no colors

func.func @f() {
  return
}
