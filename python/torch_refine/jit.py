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
import os
import re
import signal
import sys
import threading
import weakref
from dataclasses import dataclass, field

from torch_mlir import ir

from torch_refine.errors import RefinementError
from torch_refine.ir import parsing
from torch_refine.lowering.backend import backend_lowering, prepare_for_backend

LINALG = "linalg-on-tensors"
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
    "buffer-deallocation-pipeline",  # module-level: may add the helper a dealloc of branches needs (TOSA's broadcasts)
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
# Element types as callback symbols spell them (`mr` + this for memrefs) -> numpy dtype
# names; a torch tensor of any of them passes an argument of that type (i8: signless).
_ELEMENT_DTYPES = {
    "f16": ("float16",), "f32": ("float32",), "f64": ("float64",), "i1": ("bool",),
    "i8": ("int8", "uint8"), "i16": ("int16",), "i32": ("int32",), "i64": ("int64",),
    "c32": ("complex64",), "c64": ("complex128",),
}
_SCALAR_CTYPES = {"i1": ctypes.c_bool, "i64": ctypes.c_int64, "f32": ctypes.c_float,
                  "f64": ctypes.c_double}


def lower_to_linalg(module) -> ir.Module:
    """A copy of `module` (an `ir.Module`, a `Refined` or text) lowered to linalg on tensors,
    as every path to a backend lowers (`backend_pipeline.prepare_for_backend`)."""
    copy = _copy(parsing.as_module(module))
    with copy.context:
        prepare_for_backend(copy.operation, LINALG)
    _run(copy, f"builtin.module({backend_lowering(LINALG)})", "lowering to linalg-on-tensors")
    return copy


def compile_module(module, opt_level: int = 2, isolate: bool = True) -> CompiledModule:
    """Lower a Torch-dialect module to LLVM and JIT-compile it, once. With `isolate` (the
    default) every call runs in a forked worker process, so a failing runtime check, which
    aborts the process that runs the code, raises `RuntimeCheckError` in the caller."""
    return _compile(lower_to_linalg(module), opt_level, isolate)


def compile_linalg(module, opt_level: int = 2, isolate: bool = True) -> CompiledModule:
    """JIT-compile a copy of a module already lowered to linalg on tensors (for example by
    `torch-refine-backend-pipeline{backend=linalg-on-tensors}`)."""
    return _compile(_copy(parsing.as_module(module)), opt_level, isolate)


def _compile(lowered: ir.Module, opt_level: int, isolate: bool) -> CompiledModule:
    signatures = _signatures(lowered)
    _locate_checks(lowered)
    _run(lowered, f"builtin.module({','.join(_TO_LLVM)})", "lowering linalg to LLVM")
    return CompiledModule(lowered, opt_level, signatures, isolate)


def _signatures(module: ir.Module) -> dict[str, list[ir.Type]]:
    """The argument types of each public function of a linalg-on-tensors module."""
    found = {}
    for op in module.body.operations:
        if op.operation.name != "func.func" or "sym_visibility" in op.attributes:
            continue
        function_type = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
        found[ir.StringAttr(op.attributes["sym_name"]).value] = list(function_type.inputs)
    return found


def _locate_checks(module: ir.Module) -> None:
    """Append its op's location to the message of every runtime check (`cf.assert`, what
    torch-mlir's lowering and `torch.runtime.assert` become), so a failure says where."""

    def visit(op):
        if op.name == "cf.assert" and (where := _position(op.location)):
            message = ir.StringAttr(op.attributes["msg"]).value
            op.attributes["msg"] = ir.StringAttr.get(f"{message} (at {where})", module.context)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)


def _position(location: ir.Location) -> str:
    text = str(location)
    match = re.search(r'"([^"]*)":(\d+):(\d+)', text)
    return f"{match[1]}:{match[2]}:{match[3]}" if match else ""


def _copy(module: ir.Module) -> ir.Module:
    return ir.Module.parse(module.operation.get_asm(enable_debug_info=True), module.context)


def _run(module: ir.Module, pipeline: str, what: str) -> None:
    from torch_mlir.passmanager import PassManager

    try:
        with module.context:
            PassManager.parse(pipeline).run(module.operation)
    except ir.MLIRError as error:
        raise RefinementError(f"{what} failed", parsing.format_error(error)) from None


class JitError(RuntimeError):
    """A call of a compiled function failed: the process that ran it died."""


class RuntimeCheckError(JitError):
    """A runtime check of a compiled function failed; `check` is its message (with the
    location of the op it guards, where the module has one)."""

    def __init__(self, function: str, check: str):
        super().__init__(f"@{function}: runtime check failed: {check}")
        self.check = check


@dataclass
class CompiledModule:
    """A JIT-compiled module; call it with a function name and torch tensors.

    Each argument is checked against the function's signature first (rank, static sizes,
    dtype: `ValueError` or `TypeError` naming the argument). With `isolate`, the code runs
    in a forked worker process (`_Worker`, one per module, forked at the first call): a
    failed runtime check (which calls `abort()`) raises `RuntimeCheckError`, any other
    death `JitError`, and the caller's process lives on."""

    module: ir.Module
    opt_level: int = 2
    signatures: dict = field(default_factory=dict)
    isolate: bool = True
    _results: list = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        from torch_mlir.execution_engine import ExecutionEngine

        self._engine = ExecutionEngine(self.module, opt_level=self.opt_level)
        self._callbacks = []  # the ctypes wrappers must outlive the engine's use of them
        for symbol in _return_callbacks(self.module):
            self._register(symbol)
        for function in self.signatures:
            self._engine.lookup(function)  # compiles the module here, once, not in each worker
        self._worker: _Worker | None = None
        self._lock = threading.Lock()

    def __call__(self, function: str, *tensors):
        import numpy as np

        if not isinstance(function, str):
            names = ", ".join(f"'{name}'" for name in self.signatures) or "none"
            raise TypeError(f"call a compiled module with the function's name first, then its tensors "
                            f"(functions: {names}), not with a {type(function).__name__}")
        if function in self.signatures:
            _check_arguments(function, self.signatures[function], tensors)
        arrays = [np.ascontiguousarray(t.detach().cpu().numpy()) for t in tensors]
        if not (self.isolate and hasattr(os, "fork")):
            return self._invoke(function, arrays)
        with self._lock:
            if self._worker is None:
                self._worker = _Worker(self._invoke)
                self._finalizer = weakref.finalize(self, self._worker.close)
            try:
                return self._worker.call(function, arrays)
            except JitError:
                self._finalizer.detach()
                self._worker = None  # dead: the next call forks a new one
                raise

    def _invoke(self, function: str, arrays: list) -> tuple:
        from torch_mlir.runtime import get_unranked_memref_descriptor

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
        results = self._results  # not `self`: a callback holding the module would keep it (and its worker) alive

        def consume(*values):
            results.append(tuple(_to_torch(v, k) for v, k in zip(values, kinds, strict=True)))

        callback = prototype(consume)
        self._callbacks.append(callback)
        self._engine.register_runtime(symbol, callback)


def _check_arguments(function: str, expected: list[ir.Type], tensors: tuple) -> None:
    import torch

    if len(tensors) != len(expected):
        raise TypeError(f"@{function} takes {len(expected)} tensors, {len(tensors)} given")
    for index, (tensor, wanted) in enumerate(zip(tensors, expected, strict=True)):
        where = f"@{function} argument {index}"
        if not isinstance(tensor, torch.Tensor):
            raise TypeError(f"{where} must be a torch.Tensor, not {type(tensor).__name__}")
        try:
            ranked = ir.RankedTensorType(wanted)
        except ValueError:
            continue  # not a ranked tensor: nothing to check against
        dtypes = _ELEMENT_DTYPES.get(_element_token(ranked.element_type), ())
        if str(tensor.dtype).removeprefix("torch.") not in dtypes:
            raise TypeError(f"{where} is {wanted}, given a tensor of {tensor.dtype}")
        sizes = [None if ranked.is_dynamic_dim(d) else ranked.get_dim_size(d) for d in range(ranked.rank)]
        given = list(tensor.shape)
        if len(given) != len(sizes) or any(s is not None and s != g for s, g in zip(sizes, given, strict=True)):
            shown = ", ".join("?" if s is None else str(s) for s in sizes)
            raise ValueError(f"{where} has shape [{shown}], given a tensor of shape {given}")


class _Worker:
    """A forked child process that runs the calls of one compiled module, one at a time,
    until its request pipe closes; the code was compiled before the fork, so a call costs
    a round trip through two pipes, not a compilation (LLVM's JIT compiles at the first
    lookup, which a child used to repeat and lose on every call).

    The child writes what the code prints (a failed check prints its message, then aborts)
    to a file and never returns into the caller's code (`os._exit`). After its death the
    next call forks a new one."""

    def __init__(self, run):
        import tempfile

        self.printed = tempfile.TemporaryFile()
        request_read, request_write = os.pipe()
        response_read, response_write = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        self.pid = os.fork()
        if self.pid == 0:
            for fd in (request_write, response_read, *_LIVE_WORKER_FDS):  # their pipes must close with their owners
                os.close(fd)
            _serve(run, request_read, response_write, self.printed.fileno())
        os.close(request_read)
        os.close(response_write)
        self.fds = (request_write, response_read)
        _LIVE_WORKER_FDS.update(self.fds)
        self._requests = os.fdopen(request_write, "wb")
        self._responses = os.fdopen(response_read, "rb")

    def call(self, function: str, arrays: list):
        """The results of `function`, or its death as an exception (the worker is then
        closed)."""
        import pickle

        printed_before = os.fstat(self.printed.fileno()).st_size
        try:
            pickle.dump((function, arrays), self._requests)
            self._requests.flush()
            kind, value = pickle.load(self._responses)
        except (EOFError, BrokenPipeError, pickle.UnpicklingError):
            status = self.close()
            self.printed.seek(printed_before)
            output = self.printed.read().decode(errors="replace").strip()
            raise _death(function, status, output) from None
        if kind == "error":
            raise value
        return value

    def close(self) -> int:
        """Close the pipes (the child exits at the end of its input) and reap it."""
        _LIVE_WORKER_FDS.difference_update(self.fds)
        for stream in (self._requests, self._responses):
            try:
                stream.close()
            except OSError:
                pass  # a request half-written to a dead child
        _, status = os.waitpid(self.pid, 0)
        return status


# The parent's ends of live workers' pipes: a worker forked later closes them, so that a
# worker sees the end of its requests when its own module closes them.
_LIVE_WORKER_FDS: set[int] = set()


def _death(function: str, status: int, output: str) -> JitError:
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGABRT and output:
        return RuntimeCheckError(function, output.splitlines()[-1])
    cause = f"signal {signal.Signals(os.WTERMSIG(status)).name}" if os.WIFSIGNALED(status) \
        else f"exit status {os.WEXITSTATUS(status)}"
    return JitError(f"@{function} died ({cause})" + (f": {output[-2000:]}" if output else ""))


def _serve(run, request_fd: int, response_fd: int, output_fd: int) -> None:
    """The worker's loop: each request's results (or the exception it raised) back."""
    import faulthandler
    import pickle

    status = 0
    try:
        faulthandler.disable()  # an abort is the answer here, not a crash to report
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's to handle
        os.dup2(output_fd, 1)
        os.dup2(output_fd, 2)
        with os.fdopen(request_fd, "rb") as requests, os.fdopen(response_fd, "wb") as responses:
            while True:
                try:
                    function, arrays = pickle.load(requests)
                except EOFError:
                    break
                try:
                    payload = pickle.dumps(("ok", run(function, arrays)))
                except Exception as error:
                    payload = pickle.dumps(("error", error))
                responses.write(payload)
                responses.flush()
    except BaseException:
        status = 1
    finally:
        os._exit(status)


def _descriptor_type():
    from torch_mlir.runtime import UnrankedMemRefDescriptor

    return UnrankedMemRefDescriptor


def _to_torch(value, kind: str):
    import numpy as np
    import torch
    from torch_mlir.runtime import unranked_memref_to_numpy

    if kind in _SCALAR_CTYPES:
        return value
    element = kind.removeprefix("mr")
    if not kind.startswith("mr") or element not in _ELEMENT_DTYPES:
        raise RefinementError(f"a result of element type '{kind}' cannot be read back")
    array = unranked_memref_to_numpy(value, np.dtype(_ELEMENT_DTYPES[element][0]))
    return torch.from_numpy(np.array(array, copy=True))


def _element_token(element: ir.Type) -> str:
    """The element type as refback's callback names spell it (`f32`, `i64`, `c32`)."""
    text = str(element)
    return f"c{text[len('complex<f'):-1]}" if text.startswith("complex<f") else text


def _return_callbacks(module: ir.Module) -> list[str]:
    names = [re.sub(r'^"|"$', "", str(op.attributes["sym_name"])) for op in module.body.operations
             if "sym_name" in op.attributes]
    return [name for name in names if name.startswith(RETURN_CALLBACK_PREFIX)]
