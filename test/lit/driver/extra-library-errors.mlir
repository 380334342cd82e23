// A bad extra library is reported at the module, naming the library file and, for a Python
// file, the line and function at fault. No traceback.

// RUN: not torch-refine-opt %s --extra-library=%S/Inputs/extra_library_syntax_error.py --torch-refine-pipeline 2>&1 | filecheck %s --check-prefix=SYNTAX
// SYNTAX: error: cannot compile extra-library '{{.*}}extra_library_syntax_error.py': {{.*}}extra_library_syntax_error.py:7: syntax error: expected ':'
// SYNTAX-NOT: Traceback

// RUN: not torch-refine-opt %s --extra-library=%S/Inputs/extra_library_not_scriptable.py --torch-refine-pipeline 2>&1 | filecheck %s --check-prefix=SCRIPT
// SCRIPT: error: cannot compile extra-library '{{.*}}': {{.*}}extra_library_not_scriptable.py:6: shape function 'mylib〇double_last〡shape' for 'mylib.double_last': not scriptable: Python builtin <built-in function globals> is currently not supported in Torchscript

// RUN: not torch-refine-opt %s --extra-library=%S/Inputs/extra_library_bad_signature.py --torch-refine-pipeline 2>&1 | filecheck %s --check-prefix=SIGNATURE
// SIGNATURE: error: cannot compile extra-library '{{.*}}': {{.*}}extra_library_bad_signature.py:6: shape function 'aten〇pixel_shuffle〡shape' for 'aten.pixel_shuffle': the shape function for 'aten.pixel_shuffle' has the signature
// SIGNATURE: but PyTorch's registry expects
// SIGNATURE-NEXT: def aten〇pixel_shuffle〡shape(self: List[int], upscale_factor: int) -> List[int]:

// RUN: not torch-refine-opt %s --extra-library=%S/Inputs/extra_library_unknown_op.py --torch-refine-pipeline 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: cannot compile extra-library '{{.*}}': {{.*}}extra_library_unknown_op.py:6: shape function 'mylib〇double_last〡shape' for 'mylib.double_last': 'mylib.double_last' is not an op overload in PyTorch's registry; for a custom op write @shape("mylib.double_last", signature_check=False)

// RUN: not torch-refine-opt %s --extra-library=%S/Inputs/no-such-library.py --torch-refine-pipeline 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING: error: cannot read extra-library '{{.*}}no-such-library.py': No such file or directory

// RUN: not torch-refine-opt %s --extra-library=%S/Inputs/extra-library.mlir --pass-pipeline='builtin.module(cse)' 2>&1 | filecheck %s --check-prefix=UNUSED
// UNUSED: <pass-pipeline>:1:1: error: '--extra-library' is given but no pass in the pipeline takes 'extra-library'

func.func @double_last(%arg0: !torch.vtensor<[3,4],f32>) -> !torch.vtensor {
  %0 = torch.operator "mylib.double_last"(%arg0) : (!torch.vtensor<[3,4],f32>) -> !torch.vtensor
  return %0 : !torch.vtensor
}
