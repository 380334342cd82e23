// RUN: torch-refine-opt %s --mlir-print-debuginfo | filecheck %s --check-prefix=DEBUG
// RUN: torch-refine-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: torch-refine-opt %s --mlir-print-local-scope --mlir-print-debuginfo | filecheck %s --check-prefix=LOCAL
// RUN: torch-refine-opt %s --mlir-disable-threading --verify-each=false | filecheck %s --check-prefix=PLAIN

// Locations name the input file, with the lines and columns of this file.
// DEBUG: func.func @f() {
// DEBUG-NEXT: return loc([[RETURN:#loc[0-9]*]])
// DEBUG: [[RETURN]] = loc("{{.*}}print-flags.mlir":18:3)

// GENERIC: "func.func"() <{function_type = () -> (), sym_name = "f"}>

// LOCAL: return loc("{{.*}}print-flags.mlir":18:3)

// PLAIN: func.func @f() {
// PLAIN-NEXT: return
func.func @f() {
  return
}
