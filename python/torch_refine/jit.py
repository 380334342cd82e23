"""Run refined IR on a real backend: torch-mlir's linalg-on-tensors lowering, then MLIR's
LLVM lowering and JIT (`torch_mlir.execution_engine`), all from the wheel.

    compiled = compile_module(refined_module)        # a copy is lowered; the input stays
    outputs = compiled("main", *tensors)              # torch tensors in, a tuple out

The module's functions must have value-semantic tensor signatures with known dtypes (what
`torch_refine.refine` produces: it narrows public signatures). Results come back through
callbacks that `refback-munge-calling-conventions` makes every function call with its
return values, one callback per result signature.
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass, field

from torch_mlir import ir

from torch_refine.errors import RefinementError
from torch_refine.ir import parsing
from torch_refine.ir.module import erase_symbolic_shape_ops

LINALG_PIPELINE = "torch-backend-to-linalg-on-tensors-backend-pipeline"
# From linalg on tensors to the LLVM dialect: bufferize, make calling conventions
# JIT-friendly (unranked memrefs in, results through callbacks), lower loops and ops.
_TO_LLVM = (
    "func.func(linalg-generalize-named-ops)",
    "func.func(linalg-fuse-elementwise-ops)",
    "convert-shape-to-std",
    "func.func(refback-generalize-tensor-pad)",
    "func.func(refback-generalize-tensor-concat)",
    "func.func(tm-tensor-bufferize)",
    "one-shot-bufferize{copy-before-write bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map}",
    "refback-mlprogram-bufferize",
    "func.func(buffer-deallocation-pipeline)",
    "refback-munge-calling-conventions",
    "func.func(tm-tensor-to-loops)",
    "func.func(refback-munge-memref-copy)",
    "func.func(convert-linalg-to-loops)",
    "func.func(lower-affine)",
    "convert-scf-to-cf",
    "func.func(refback-expand-ops-for-llvm)",
    "func.func(arith-expand)",
    "func.func(convert-math-to-llvm)",
    "convert-math-to-libm",
    "expand-strided-metadata",
    "finalize-memref-to-llvm",
    "lower-affine",
    "convert-bufferization-to-memref",
    "finalize-memref-to-llvm",
    "func.func(convert-arith-to-llvm)",
    "convert-vector-to-llvm",
    "convert-func-to-llvm",
    "convert-cf-to-llvm",
    "convert-complex-to-llvm",
    "reconcile-unrealized-casts",
)
RETURN_CALLBACK_PREFIX = "refbackend_consume_func_return_"
# Element type names in callback symbols -> numpy dtype names (memrefs) or ctypes (scalars).
_MEMREF_DTYPES = {
    "mrf16": "float16", "mrf32": "float32", "mrf64": "float64", "mri1": "bool",
    "mri8": "int8", "mri32": "int32", "mri64": "int64", "mrc32": "complex64",
    "mrc64": "complex128",
}
_SCALAR_CTYPES = {"i1": ctypes.c_bool, "i64": ctypes.c_int64, "f32": ctypes.c_float,
                  "f64": ctypes.c_double}


def lower_to_linalg(module) -> ir.Module:
    """A copy of `module` (an `ir.Module`, a `Refined` or text) lowered to linalg on tensors."""
    copy = _copy(parsing.as_module(module))
    erase_symbolic_shape_ops(copy.operation)
    _run(copy, f"builtin.module({LINALG_PIPELINE})", "lowering to linalg-on-tensors")
    return copy


def compile_module(module, opt_level: int = 2) -> CompiledModule:
    """Lower a Torch-dialect module to LLVM and JIT-compile it."""
    return _compile(lower_to_linalg(module), opt_level)


def compile_linalg(module, opt_level: int = 2) -> CompiledModule:
    """JIT-compile a copy of a module already lowered to linalg on tensors (for example by
    `torch-refine-backend-pipeline{backend=linalg-on-tensors}`)."""
    return _compile(_copy(parsing.as_module(module)), opt_level)


def _compile(lowered: ir.Module, opt_level: int) -> CompiledModule:
    _run(lowered, f"builtin.module({','.join(_TO_LLVM)})", "lowering linalg to LLVM")
    return CompiledModule(lowered, opt_level)


def _copy(module: ir.Module) -> ir.Module:
    return ir.Module.parse(module.operation.get_asm(enable_debug_info=True), module.context)


def _run(module: ir.Module, pipeline: str, what: str) -> None:
    from torch_mlir.passmanager import PassManager

    try:
        with module.context:
            PassManager.parse(pipeline).run(module.operation)
    except ir.MLIRError as error:
        raise RefinementError(f"{what} failed", parsing.format_error(error)) from None


@dataclass
class CompiledModule:
    """A JIT-compiled module; call it with a function name and torch tensors."""

    module: ir.Module
    opt_level: int = 2
    _results: list = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        from torch_mlir.execution_engine import ExecutionEngine

        self._engine = ExecutionEngine(self.module, opt_level=self.opt_level)
        self._callbacks = []  # the ctypes wrappers must outlive the engine's use of them
        for symbol in _return_callbacks(self.module):
            self._register(symbol)

    def __call__(self, function: str, *tensors):
        import numpy as np
        from torch_mlir.runtime import get_unranked_memref_descriptor

        arrays = [np.ascontiguousarray(t.detach().cpu().numpy()) for t in tensors]
        arguments = [ctypes.pointer(ctypes.pointer(get_unranked_memref_descriptor(a))) for a in arrays]
        self._results.clear()
        self._engine.invoke(function, *arguments)
        if not self._results:
            raise RefinementError(f"'{function}' returned nothing through its result callback")
        return self._results.pop()

    def _register(self, symbol: str) -> None:
        kinds = symbol.removeprefix(RETURN_CALLBACK_PREFIX).split("_")
        argument_types = [
            _SCALAR_CTYPES[k] if k in _SCALAR_CTYPES else ctypes.POINTER(_descriptor_type())
            for k in kinds
        ]
        prototype = ctypes.CFUNCTYPE(None, *argument_types)

        def consume(*values):
            self._results.append(tuple(_to_torch(v, k) for v, k in zip(values, kinds, strict=True)))

        callback = prototype(consume)
        self._callbacks.append(callback)
        self._engine.register_runtime(symbol, callback)


def _descriptor_type():
    from torch_mlir.runtime import UnrankedMemRefDescriptor

    return UnrankedMemRefDescriptor


def _to_torch(value, kind: str):
    import numpy as np
    import torch
    from torch_mlir.runtime import unranked_memref_to_numpy

    if kind in _SCALAR_CTYPES:
        return value
    if kind not in _MEMREF_DTYPES:
        raise RefinementError(f"a result of element type '{kind}' cannot be read back")
    array = unranked_memref_to_numpy(value, np.dtype(_MEMREF_DTYPES[kind]))
    return torch.from_numpy(np.array(array, copy=True))


def _return_callbacks(module: ir.Module) -> list[str]:
    names = [re.sub(r'^"|"$', "", str(op.attributes["sym_name"])) for op in module.body.operations
             if "sym_name" in op.attributes]
    return [name for name in names if name.startswith(RETURN_CALLBACK_PREFIX)]
