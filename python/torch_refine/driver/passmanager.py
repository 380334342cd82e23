"""The one adapter between torch-refine passes and MLIR's PassManager binding.

Binding traps handled here (docs/design.md, "Rules the bindings impose"):
- a Python pass added with `op_name="func.func"` aborts the process, so every Python pass
  is a generic pass at module level;
- a Python exception must not unwind through C++: the pass body catches it, signals a
  pass failure, and `run` re-raises it as `InternalPassError` once MLIR has returned; a
  `KeyboardInterrupt` (Ctrl-C) is re-raised as itself: an interrupt, not a bug.

Python passes run one at a time in the process (`_PASS_LOCK`): the bindings hold the GIL
while a pass runs, so threads would not refine in parallel anyway (docs/python-api.md).
Each run's facts are its own (`calculations/store.py`) whether or not the lock is held.
"""

from __future__ import annotations

import sys
import threading

from torch_mlir import ir
from torch_mlir import passmanager as mlir_passmanager

from torch_refine.driver import pipeline_syntax, timing
from torch_refine.engine import instrumentation
from torch_refine.passes.base import ModulePass, PassFailure

_PASS_LOCK = threading.RLock()


class InternalPassError(Exception):
    """A torch-refine pass raised something other than PassFailure: a bug, not bad input."""

    def __init__(self, pass_name: str):
        super().__init__(f"internal error in pass '{pass_name}'")
        self.pass_name = pass_name


class PassManager:
    def __init__(self, context: ir.Context):
        self._pm = mlir_passmanager.PassManager(pipeline_syntax.ROOT_ANCHOR, context)
        self._escaped: list[tuple[str, BaseException]] = []
        self._stage_timer: instrumentation.StageTimer | None = None
        self._running = ""  # the Python pass running, as IR dumps name it
        # (MLIR's name of the pass, its stage tree) per Python pass run, in order
        self.stage_trees: list[tuple[str, instrumentation.TimerNode]] = []
        self.statistics: list[tuple[str, dict[instrumentation.Statistic, int]]] = []

    def add_pipeline(self, pipeline: pipeline_syntax.PassPipeline) -> None:
        """Raises PipelineError, pointing into the pipeline text, for anything MLIR rejects."""
        for stage in pipeline_syntax.plan(pipeline):
            if isinstance(stage, pipeline_syntax.PythonStage):
                self.add_python_pass(stage.pass_instance)
                continue
            try:
                self._pm.add(stage.text)
            except ValueError as error:
                raise pipeline_syntax.error_from_mlir(pipeline.text, stage, error) from None

    def add_python_pass(self, pass_instance: ModulePass) -> None:
        pass_name = pass_instance.name
        mlir_name = type(pass_instance).__name__

        def run(op, external_pass) -> None:
            self._running = f"{mlir_name}: {pass_name}"
            if self._stage_timer is not None:
                self.stage_trees.append((mlir_name, self._stage_timer.begin_pass()))
            try:
                with _PASS_LOCK:
                    pass_instance.run(op)
            except PassFailure:
                external_pass.signal_pass_failure()
            except BaseException as error:  # re-raised by `run` after MLIR returns
                self._escaped.append((pass_name, error))
                external_pass.signal_pass_failure()
            finally:
                if instrumentation.statistics_enabled():
                    self.statistics.append((mlir_name, instrumentation.take_statistics()))

        self._pm.add(
            run,
            name=mlir_name,
            argument=pass_name,
            description=pass_instance.description,
        )

    def enable_ir_printing(self, **options) -> None:
        """MLIR prints around every pass; with `print_after_all`, Python passes also
        print after each of their stages (`instrumentation.after_stage`) on stderr (not
        into a tree directory, whose file names MLIR chooses)."""
        self._pm.enable_ir_printing(**options)
        stages_printable = not options.get("print_after_failure")
        if (
            options.get("print_after_all")
            and stages_printable
            and not options.get("tree_printing_dir_path")
        ):
            instrumentation.print_after_stages(self._stage_printer(options))

    def _stage_printer(self, options: dict):
        def print_stage(stage_name: str, module) -> None:
            asm = module.get_asm(
                enable_debug_info=options.get("enable_debug_info", False),
                print_generic_op_form=options.get("print_generic_op_form", False),
                large_elements_limit=options.get("large_elements_limit"),
                assume_verified=True,
            )
            header = f"// -----// IR Dump After {self._running} ({stage_name}) //----- //"
            sys.stderr.write(f"{header}\n{asm}\n\n")
            sys.stderr.flush()

        return print_stage

    def enable_timing(self) -> None:
        """MLIR times every pass; the stages inside Python passes are timed too."""
        self._pm.enable_timing()
        self._stage_timer = instrumentation.enable_timing()

    def enable_statistics(self) -> None:
        """Count the statistics of Python passes (MLIR's own are compiled out of
        torch-mlir's release build: its report is empty)."""
        instrumentation.enable_statistics()

    def finish_timing(self) -> list[instrumentation.TimerNode]:
        """Destroy MLIR's PassManager, which prints its timing report, and return the
        report's timers with the stages of Python passes nested in. Unusable afterwards."""
        with timing.captured_stderr_fd() as captured:
            del self._pm
        timers = timing.parse_mlir_timing(captured[0])
        timing.nest_python_stages(timers, self.stage_trees)
        return timers

    def __str__(self) -> str:
        """The pipeline as MLIR prints it (`--dump-pass-pipeline`)."""
        return str(self._pm)

    def enable_verifier(self, enable: bool) -> None:
        self._pm.enable_verifier(enable)

    def run(self, module_op: ir.Operation) -> None:
        """Raises MLIRError on a pass failure, InternalPassError on a bug in a Python pass."""
        self._escaped.clear()
        try:
            self._pm.run(module_op)
        except ir.MLIRError:
            if not self._escaped:
                raise
        if self._escaped:
            pass_name, error = self._escaped[0]
            if isinstance(error, KeyboardInterrupt):
                raise error
            if _interrupt_in_callback(error):
                raise KeyboardInterrupt from error
            raise InternalPassError(pass_name) from error


def _interrupt_in_callback(error: BaseException) -> bool:
    """Ctrl-C inside a callback MLIR called (an `op.walk` visitor): the bindings turn the
    KeyboardInterrupt into a RuntimeError whose text ends with its traceback's last line."""
    if not isinstance(error, RuntimeError):
        return False
    lines = [line for line in str(error).splitlines() if line.strip()]
    return bool(lines) and lines[-1].startswith("KeyboardInterrupt")


def save_reproducer(
    asm: str, pipeline_text: str, extra_flags: tuple[str, ...] = ()
) -> tuple[str, str]:
    """Save the IR a failed pipeline started from; returns its path and the
    torch-refine-opt command that reproduces the failure on it."""
    import shlex  # here: only a failed pipeline needs them, and they cost start-up
    import tempfile

    with tempfile.NamedTemporaryFile(
        "w", prefix="torch-refine-repro-", suffix=".mlir", delete=False
    ) as file:
        file.write(asm)
    command = [
        "torch-refine-opt",
        f"--pass-pipeline={shlex.quote(pipeline_text)}",
        shlex.quote(file.name),
        "--mlir-print-ir-after-all",
        "--mlir-disable-threading",
        *extra_flags,
    ]
    return file.name, " ".join(command)
