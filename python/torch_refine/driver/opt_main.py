"""The torch-refine-opt driver: mlir-opt's command line over torch-refine's and MLIR's passes.

One `--pass-pipeline` (or one `--<pass>` flag per torch-refine pass) may mix our Python
passes with any pass torch-mlir or upstream MLIR registers. Flags, output and diagnostics
follow mlir-opt so that lit tests read the same. Never import torch here: start-up must
stay fast.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import re
import sys
import traceback
import typing
import warnings
from collections.abc import Sequence
from typing import NamedTuple

# isort: split
import torch_refine.driver.bindings  # first: the bindings without numpy

# isort: split
from torch_mlir import ir

from torch_refine.about import version_text
from torch_refine.driver import mlir_passes, pipeline_syntax, registry, timing, verify_diagnostics
from torch_refine.driver.passmanager import InternalPassError, PassManager, save_reproducer
from torch_refine.engine import explain
from torch_refine.errors import RefinementWarning
from torch_refine.ir import diagnostics, parsing
from torch_refine.ir.context import create_context

PROG = "torch-refine-opt"
SPLIT_MARKER = "// -----"
STDIN_NAME = "<stdin>"
BYTECODE_MAGIC = b"ML\xefR"
class Chunk(NamedTuple):
    source_name: str
    text: str | bytes  # padded with blank lines so that line numbers are those of the whole
    # input; bytes for MLIR bytecode
    implicit_module_line: int  # where mlir-opt places an implicit module: 0 or the marker line
    implicit_module_col: int


class ChunkResult(NamedTuple):
    output: bytes | None  # the printed module (UTF-8 text or bytecode), None on failure
    succeeded: bool


class OptMain:
    """The driver; each step can be overridden by a subclass."""

    def __init__(self) -> None:
        self.stdout = sys.stdout
        self.stderr = sys.stderr
        self.sources: dict[str, list[str]] = {}  # file name -> lines, to quote in diagnostics
        self.collected: list[diagnostics.Diagnostic] = []
        self.current_source_name: str | None = None  # names the `-` buffer in diagnostics
        self.timing: timing.TimingReport | None = None  # with --mlir-timing

    def run(self, argv: Sequence[str]) -> int:
        torch_refine.driver.bindings.name_llvm_program(PROG)
        args = self.parse_args(argv)
        if args.mlir_timing:
            self.timing = timing.TimingReport()
        context = create_context(args.allow_unregistered_dialect)
        if (listed := self.list_and_exit(args, context)) is not None:
            self.stdout.write(listed)
            return 0
        handler = context.attach_diagnostic_handler(self._collect)
        try:
            return self._run_with_context(args, context)
        finally:
            handler.detach()

    def _run_with_context(self, args: argparse.Namespace, context: ir.Context) -> int:
        try:
            pass_manager = self.build_pipeline(args, context)
        except pipeline_syntax.PipelineError as error:
            self.stderr.write(error.format())
            return 1
        try:
            chunks = self.read_chunks(args)
        except OSError as error:
            self.stderr.write(f"cannot open input file '{args.input}': {error.strerror}\n")
            return 1
        except UnicodeDecodeError:
            message = "neither UTF-8 text nor MLIR bytecode"
            self.stderr.write(f"cannot read input file '{args.input}': {message}\n")
            return 1
        if args.dump_pass_pipeline:
            self.stderr.write(_pretty_pipeline(str(pass_manager)))
        results = [self.run_chunk(chunk, pass_manager, context, args) for chunk in chunks]
        succeeded = all(result.succeeded for result in results)
        try:
            with self._timer("Output"):
                self.emit(results, args, succeeded)
        except OSError as error:
            self.stderr.write(f"cannot open output file '{args.output}': {error.strerror}\n")
            return 1
        finally:
            self.report_instrumentation(pass_manager, args)
        return 0 if succeeded else 1

    def report_instrumentation(self, pass_manager: PassManager, args: argparse.Namespace) -> None:
        """Statistics, then timing, on stderr, as mlir-opt prints them at exit."""
        if args.mlir_pass_statistics:
            display = args.mlir_pass_statistics_display
            self.stderr.write(timing.render_statistics(pass_manager.statistics, display))
        if self.timing is not None:
            self.timing.add_passes(pass_manager.finish_timing())
            self.stderr.write(self.timing.render(args.mlir_timing_display, args.mlir_output_format))
        self.stderr.flush()

    def _timer(self, name: str):
        return self.timing.timer(name) if self.timing is not None else _NO_TIMER

    # --- steps ---------------------------------------------------------------------------

    def parse_args(self, argv: Sequence[str]) -> argparse.Namespace:
        parser = _argument_parser()
        argv = _bind_optional_values(parser, [_long_flag(arg) for arg in argv])
        args = parser.parse_args(_mlir_pass_flags(parser, argv))
        if args.version:
            self.stdout.write(version_text("torch-refine-opt") + "\n")
            parser.exit(0)
        if args.pass_flags and args.pass_pipeline is not None:
            parser.error("'--pass-pipeline' option can't be used with individual pass options")
        if args.run_reproducer:
            _configure_from_reproducer(args, parser)
        if args.pass_pipeline is None:
            args.pass_pipeline = pipeline_syntax.pipeline_text_from_flags(args.pass_flags)
        return args

    def build_pipeline(self, args: argparse.Namespace, context: ir.Context) -> PassManager:
        if args.extra_library:  # rewritten in args, so that reproducers carry the option too
            args.pass_pipeline = _with_extra_library(args.pass_pipeline, args.extra_library)
        pass_manager = PassManager(context)
        pass_manager.add_pipeline(pipeline_syntax.parse(args.pass_pipeline))
        pass_manager.enable_verifier(args.verify_each)
        if args.mlir_timing:
            pass_manager.enable_timing()
        if args.mlir_pass_statistics:
            pass_manager.enable_statistics()
        if args.mlir_disable_threading:
            context.enable_multithreading(False)
        printing = {
            # named passes: MLIR prints around all, the driver keeps those named (_filter_dumps)
            "print_before_all": args.mlir_print_ir_before_all or bool(args.mlir_print_ir_before),
            # the bindings print after a pass only with print_after_all; print_after_failure
            # then narrows it to failures (mlir-opt needs no --mlir-print-ir-after-all)
            "print_after_all": args.mlir_print_ir_after_all
            or args.mlir_print_ir_after_failure
            or bool(args.mlir_print_ir_after),
            "print_after_change": args.mlir_print_ir_after_change,
            "print_after_failure": args.mlir_print_ir_after_failure,
        }
        if any(printing.values()):
            pass_manager.enable_ir_printing(
                **printing,
                print_module_scope=args.mlir_print_ir_module_scope,
                enable_debug_info=args.mlir_print_debuginfo,
                large_elements_limit=args.mlir_elide_elementsattrs_if_larger,
                print_generic_op_form=args.mlir_print_op_generic,
                tree_printing_dir_path=args.mlir_print_ir_tree_dir,
            )
        return pass_manager

    def list_and_exit(self, args: argparse.Namespace, context: ir.Context) -> str | None:
        """The text of `--list-passes` or `--show-dialects`, or None to go on."""
        if args.show_dialects:
            names = _dialect_names(context)
            return "Available Dialects: " + ",".join(names) + "\n"
        if args.list_passes:
            return _pass_listing()
        return None

    def read_chunks(self, args: argparse.Namespace) -> list[Chunk]:
        """Raises OSError when the input cannot be read, UnicodeDecodeError if not text."""
        if args.input == "-":
            stdin = sys.stdin
            data = stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read().encode()
            source_name = STDIN_NAME
        else:
            with open(args.input, "rb") as file:
                source_name, data = args.input, file.read()
        if data.startswith(BYTECODE_MAGIC):
            return [Chunk(source_name, data, 0, 0)]
        text = data.decode("utf-8")
        lines = text.splitlines(keepends=True)
        self.sources[source_name] = [line.rstrip("\r\n") for line in lines]
        if args.split_input_file is None:
            return [Chunk(source_name, text, 0, 0)]  # empty text: an empty module, as mlir-opt
        return list(_split(source_name, lines, args.split_input_file))

    def run_chunk(
        self, chunk: Chunk, pass_manager: PassManager, context: ir.Context, args: argparse.Namespace
    ) -> ChunkResult:
        self.collected = []
        self.current_source_name = chunk.source_name
        with context:
            output, errors, internal_error = self._parse_and_run(chunk, pass_manager, args)
        reported = self.collected + errors
        if args.verify_diagnostics:
            try:
                expectations = verify_diagnostics.parse_expectations(chunk.text, chunk.source_name)
            except verify_diagnostics.ExpectationError as bad:
                self._report([bad.diagnostic], args)
                return ChunkResult(output, False)
            problems = verify_diagnostics.verify(
                expectations, reported, only_expected=args.verify_diagnostics == "only-expected"
            )
            self._report(problems, args)
            return ChunkResult(output, not problems)
        self._report(reported, args)
        if internal_error:
            self._write_reproducer(chunk, context, args)
        return ChunkResult(output, output is not None)

    def emit(self, results: list[ChunkResult], args: argparse.Namespace, succeeded: bool) -> None:
        """Like mlir-opt: chunks joined by `// -----`; `-o` is written only on success."""
        separator = b"" if args.emit_bytecode else f"{args.output_split_marker}\n".encode()
        data = separator.join(result.output or b"" for result in results)
        if args.output == "-":
            self._write_stdout(data, args.emit_bytecode)
        elif succeeded:
            with open(args.output, "wb") as file:
                file.write(data)

    def _write_stdout(self, data: bytes, binary: bool) -> None:
        """To the byte stream under stdout, or, for a text-only stream (a test's StringIO),
        the decoded text."""
        buffer = getattr(self.stdout, "buffer", None)
        if buffer is None:
            self.stdout.write(data if binary else data.decode("utf-8"))
            self.stdout.flush()
            return
        self.stdout.flush()  # text written before goes first
        buffer.write(data)
        buffer.flush()

    # --- helpers -------------------------------------------------------------------------

    def _collect(self, diagnostic: ir.Diagnostic) -> bool:
        self.collected.append(diagnostics.from_mlir(diagnostic, self.current_source_name))
        return True  # handled: keep MLIR from printing it in its own format

    def _report(self, reported: list[diagnostics.Diagnostic], args: argparse.Namespace) -> None:
        shown = _SHOWN_SEVERITIES[args.mlir_diagnostic_verbosity_level]
        for diagnostic in reported:
            if diagnostic.severity not in shown:
                continue
            if args.run_reproducer and diagnostic.message == _REPRODUCER_WARNING:
                continue  # the resource was read, by _configure_from_reproducer
            notes = [note for note in diagnostic.notes if _note_shown(note, args)]
            if len(notes) != len(diagnostic.notes):
                diagnostic = diagnostic._replace(notes=tuple(notes))
            self.stderr.write(diagnostics.format_diagnostic(diagnostic, self.sources))
        self.stderr.flush()

    def _print(self, module_op: ir.Operation, args: argparse.Namespace) -> bytes:
        """The module as bytes: printed as UTF-8, not decoded into a str and encoded again
        (a fifth of the printing time of a large module)."""
        if args.emit_bytecode:
            buffer = io.BytesIO()
            module_op.write_bytecode(buffer, desired_version=args.emit_bytecode_version)
            if args.emit_bytecode_producer is None:
                return buffer.getvalue()
            return _with_producer(buffer.getvalue(), args.emit_bytecode_producer)
        asm = module_op.get_asm(
            large_elements_limit=args.mlir_elide_elementsattrs_if_larger,
            large_resource_limit=args.mlir_elide_resource_strings_if_larger,
            enable_debug_info=args.mlir_print_debuginfo,
            pretty_debug_info=args.mlir_pretty_debuginfo,
            print_generic_op_form=args.mlir_print_op_generic,
            use_local_scope=args.mlir_print_local_scope,
            use_name_loc_as_prefix=args.mlir_use_nameloc_as_prefix,
            assume_verified=True,
            skip_regions=args.mlir_print_skip_regions,
            binary=True,
        )
        return asm + b"\n"

    def parse_module(self, chunk: Chunk):
        """Parse like mlir-opt (see `parsing.parse_source`); diagnostics of a first attempt
        that the second parse reports again are dropped."""
        collected_before = len(self.collected)

        def retrying() -> None:
            del self.collected[collected_before:]

        if isinstance(chunk.text, bytes):  # bytecode: the bindings read it as text is read
            return ir.Module.parse(chunk.text)
        return parsing.parse_source(
            chunk.text,
            chunk.source_name,
            (chunk.implicit_module_line, chunk.implicit_module_col),
            before_retry=retrying,
        )

    def _parse_and_run(self, chunk: Chunk, pass_manager: PassManager, args: argparse.Namespace):
        """Returns (printed module or None, error diagnostics, whether torch-refine or MLIR
        failed on its own: a pass raised, failed without a diagnostic, or left invalid IR).
        A diagnosed failure is about the input and is not an internal error."""
        if (
            isinstance(chunk.text, str)
            and (too_deep := parsing.nesting_too_deep(chunk.text, chunk.source_name)) is not None
        ):
            return None, [too_deep], False
        try:
            with self._timer("Parser"):
                module = self._parse_top_level(chunk, args)  # parsing verifies
        except ir.MLIRError as error:
            return None, _errors_of(error, chunk), False
        if args.verify_roundtrip and (problem := _roundtrip_problem(module.operation)):
            return None, [diagnostics.error(f"round-trip testing failed: {problem}")], False
        reproducer_input = self._reproducer_input(module.operation, args)
        try:
            if module.operation.name == pipeline_syntax.ROOT_ANCHOR or _pipeline_elements(args):
                self._run_pipeline(pass_manager, module.operation, args)
        except ir.MLIRError as error:
            self._save_crash_reproducer(reproducer_input, args)
            errors = _errors_of(error, chunk)
            diagnosed = errors or any(d.severity == "error" for d in self.collected)
            if not diagnosed:
                errors = [
                    diagnostics.error(f"the pass pipeline failed without a diagnostic: {error}")
                ]
            return None, errors, not diagnosed
        except InternalPassError as error:
            self._save_crash_reproducer(reproducer_input, args)
            return None, [self._internal_error(error)], True
        self.collected += _refinement_remarks(module.operation, chunk.source_name)
        try:
            if not args.verify_each:  # else the pass manager verified after each pass
                module.operation.verify()
        except ir.MLIRError as error:
            return None, _errors_of(error, chunk), True  # the pipeline produced invalid IR
        return self._print(module.operation, args), [], False

    def _reproducer_input(self, op: ir.Operation, args: argparse.Namespace) -> str | None:
        """The IR the pipeline starts from, with --mlir-pass-pipeline-crash-reproducer."""
        if args.mlir_pass_pipeline_crash_reproducer is None:
            return None
        return op.get_asm(enable_debug_info=True, assume_verified=True)

    def _save_crash_reproducer(self, asm: str | None, args: argparse.Namespace) -> None:
        """mlir-opt's reproducer: the input IR and, as an external resource, the pipeline
        (which `torch-mlir-opt --run-reproducer` can run only without Python passes)."""
        if asm is None:
            return
        pipeline = args.pass_pipeline.replace("\\", "\\\\").replace('"', '\\"')
        resource = (
            "\n{-#\n  external_resources: {\n    mlir_reproducer: {\n"
            f'      pipeline: "{pipeline}",\n'
            f"      disable_threading: {str(args.mlir_disable_threading).lower()},\n"
            f"      verify_each: {str(args.verify_each).lower()}\n"
            "    }\n  }\n#-}\n"
        )
        with open(args.mlir_pass_pipeline_crash_reproducer, "w", encoding="utf-8") as file:
            file.write(asm + "\n" + resource)
        path = args.mlir_pass_pipeline_crash_reproducer
        self.stderr.write(f"note: pipeline failed: the reproducer is in {path}\n")

    def _run_pipeline(self, pass_manager: PassManager, op: ir.Operation, args) -> None:
        """Run; with --mlir-print-ir-before/after=PASS, keep only the dumps of those passes
        from what MLIR prints around every pass (its binding has no pass filter)."""
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", RefinementWarning)  # one per op, every time
                self._run_passes(pass_manager, op, args)
        finally:
            self._report_warnings(caught)  # outside: showwarning records while caught

    def _run_passes(self, pass_manager: PassManager, op: ir.Operation, args) -> None:
        if not (args.mlir_print_ir_before or args.mlir_print_ir_after):
            pass_manager.run(op)  # MLIR rejects a builtin.module pipeline on another op
            return
        with timing.captured_stderr_fd() as captured:
            try:
                pass_manager.run(op)
            finally:
                sys.stderr.flush()
        self.stderr.write(_filter_dumps(captured[0], args))
        self.stderr.flush()

    def _report_warnings(self, caught: list) -> None:
        """A pass's `RefinementWarning` is a `warning:` diagnostic at its op; other Python
        warnings are shown as Python shows them."""
        for record in caught:
            warning = record.message
            if not isinstance(warning, RefinementWarning):
                warnings.showwarning(record.message, record.category, record.filename,
                                     record.lineno, record.file, record.line)
                continue
            position = warning.position
            if position is not None and position[0] == diagnostics.UNNAMED_BUFFER:
                position = diagnostics.Position(self.current_source_name, *position[1:])
            self.collected.append(diagnostics.Diagnostic("warning", position, warning.text))

    def _parse_top_level(self, chunk: Chunk, args: argparse.Namespace):
        """With --no-implicit-module, the input's single top-level op, whatever it is."""
        if args.no_implicit_module and isinstance(chunk.text, str):
            return ir.Operation.parse(chunk.text, source_name=chunk.source_name)
        return self.parse_module(chunk)

    def _internal_error(self, error: InternalPassError) -> diagnostics.Diagnostic:
        cause = error.__cause__
        self.stderr.write("".join(traceback.format_exception(cause)))
        return diagnostics.error(f"{error}: {type(cause).__name__}: {cause}")

    def _write_reproducer(
        self, chunk: Chunk, context: ir.Context, args: argparse.Namespace
    ) -> None:
        """Save the IR the pipeline started from and print the command that fails on it."""
        with context:
            module = self.parse_module(chunk)
            asm = module.operation.get_asm(enable_debug_info=True, assume_verified=True)
        flags = ("--allow-unregistered-dialect",) if args.allow_unregistered_dialect else ()
        path, command = save_reproducer(asm, args.pass_pipeline, flags)
        self.stderr.write(
            f"note: internal error: the input IR is saved in {path} (remove it when done); "
            f"reproduce with:\n  {command}\n"
        )


def _errors_of(error: ir.MLIRError, chunk: Chunk) -> list[diagnostics.Diagnostic]:
    return [diagnostics.from_mlir(d, chunk.source_name) for d in error.error_diagnostics]


def _refinement_remarks(module_op: ir.Operation, source_name: str) -> list[diagnostics.Diagnostic]:
    """A remark at each op that stopped refinement, from the reasons `torch-refine-pipeline
    {explain=true}` left (removed from the output, like mlir-opt's remarks)."""
    return [
        diagnostics.Diagnostic("remark", diagnostics.position_of(location, source_name), reason)
        for location, reason in explain.take(module_op)
        if explain.stopped_refinement(reason)
    ]


def _split(source_name: str, lines: list[str], marker: str = SPLIT_MARKER):
    """Chunks between `marker` lines, each padded to keep its true line numbers."""
    start = 0
    marker_col = 0
    for index, line in enumerate([*lines, marker]):
        if line.strip() != marker:
            continue
        padding = "\n" * start
        marker_line = start  # 1-based number of the marker line above this chunk, or 0
        yield Chunk(source_name, padding + "".join(lines[start:index]), marker_line, marker_col)
        start = index + 1
        marker_col = line.index(marker) + len(marker) + 1


_NO_TIMER = contextlib.nullcontext()


_REPRODUCER = re.compile(
    r'mlir_reproducer:\s*\{\s*pipeline:\s*"((?:[^"\\]|\\.)*)",\s*'
    r"disable_threading:\s*(true|false),\s*verify_each:\s*(true|false)"
)
_REPRODUCER_WARNING = "ignoring unknown external resources for 'mlir_reproducer'"


def _configure_from_reproducer(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """--run-reproducer: the pipeline and options of the input's `mlir_reproducer` resource
    (what --mlir-pass-pipeline-crash-reproducer writes) replace the command line's."""
    if args.input == "-":
        parser.error("--run-reproducer reads its pipeline from an input file, not stdin")
    with open(args.input, encoding="utf-8", errors="replace") as file:
        found = _REPRODUCER.search(file.read())
    if found is None:
        parser.error(f"{args.input}: no mlir_reproducer resource with a pipeline")
    pipeline, disable_threading, verify_each = found.groups()
    args.pass_pipeline = re.sub(r"\\(.)", r"\1", pipeline)
    _refuse_file_options(args.pass_pipeline, args.input, parser)
    args.mlir_disable_threading = disable_threading == "true"
    args.verify_each = verify_each == "true"


def _refuse_file_options(pipeline_text: str, source: str, parser: argparse.ArgumentParser) -> None:
    """IR is data: an option in the input's text that reads or runs a file (an extra
    library is Python code) stops the run; the user gives it on the command line."""
    try:
        found = pipeline_syntax.file_options(pipeline_syntax.parse(pipeline_text))
    except (pipeline_syntax.PipelineError, ValueError):
        return  # reported as any bad pipeline is, when it is built
    if not found:
        return
    pass_name, option, value = found[0]
    parser.error(
        f"{source}: the reproducer's pipeline sets {option}='{value}' on {pass_name}; an "
        "option that reads or runs a file is taken from the command line only, never from "
        f"the input: if you trust that file, give the pipeline with --pass-pipeline and "
        f"--{option}=FILE yourself"
    )


def _note_shown(note: diagnostics.Diagnostic, args: argparse.Namespace) -> bool:
    """As mlir-opt: the operation note follows --mlir-print-op-on-diagnostic only, other
    notes --mlir-disable-diagnostic-notes."""
    if note.message.startswith(diagnostics.OP_NOTE_PREFIX):
        return args.mlir_print_op_on_diagnostic
    return not args.mlir_disable_diagnostic_notes


# --mlir-diagnostic-verbosity-level: the severities each level shows.
_SHOWN_SEVERITIES = {
    "errors": ("error",),
    "warnings": ("error", "warning"),
    "remarks": ("error", "warning", "remark"),
}


_DUMP_HEADER = re.compile(r"^// -----// IR Dump (Before|After) [^:]+: ([^{ ]+)")


def _filter_dumps(text: str, args: argparse.Namespace) -> str:
    """The IR dumps in `text` that the --mlir-print-ir-* flags ask for."""
    wanted = {
        "Before": (args.mlir_print_ir_before_all, set(args.mlir_print_ir_before)),
        "After": (
            args.mlir_print_ir_after_all or args.mlir_print_ir_after_failure,
            set(args.mlir_print_ir_after),
        ),
    }
    kept, keep = [], True
    for line in text.splitlines(keepends=True):
        if (header := _DUMP_HEADER.match(line)) is not None:
            every, named = wanted[header.group(1)]
            keep = every or header.group(2) in named
        if keep:
            kept.append(line)
    return "".join(kept)


def _pipeline_elements(args: argparse.Namespace) -> tuple:
    return pipeline_syntax.parse(args.pass_pipeline).elements


def _roundtrip_problem(module_op: ir.Operation) -> str | None:
    """What `--verify-roundtrip` finds: the module printed in generic form, and written as
    bytecode, must parse back to the same generic print."""
    reference = module_op.get_asm(print_generic_op_form=True, enable_debug_info=True)
    bytecode = io.BytesIO()
    module_op.write_bytecode(bytecode)
    for form, serialized in (("generic text", reference), ("bytecode", bytecode.getvalue())):
        try:
            reparsed = ir.Module.parse(serialized)
        except ir.MLIRError as error:
            return f"the {form} form does not parse back: {error}"
        printed = reparsed.operation.get_asm(print_generic_op_form=True, enable_debug_info=True)
        if printed != reference:
            return f"the module read back from its {form} form differs"
    return None


def _with_producer(bytecode: bytes, producer: str) -> bytes:
    """`--emit-bytecode-producer`: the binding's writer takes no producer string, so the
    header's is replaced (magic, version as a prefix varint, producer up to a NUL; no later
    section refers to an offset in the header)."""
    version_at = len(BYTECODE_MAGIC)
    first = bytecode[version_at]
    varint_bytes = 9 if first == 0 else (first & -first).bit_length()  # trailing zeros + 1
    producer_at = version_at + varint_bytes
    end = bytecode.index(b"\0", producer_at)
    return bytecode[:producer_at] + producer.encode("utf-8") + bytecode[end:]


def _pretty_pipeline(text: str) -> str:
    """`--dump-pass-pipeline`: MLIR's one-line pipeline laid out as mlir-opt prints it."""
    pipeline = pipeline_syntax.parse(text)
    root = pipeline_syntax.PipelineElement(
        pipeline_syntax.ROOT_ANCHOR, None, pipeline.elements, 0, 0
    )
    lines = "\n".join(_layout((root,), 0))
    return f"Pass Manager with {len(pipeline.elements)} passes:\n{lines}\n\n"


def _layout(elements: tuple[pipeline_syntax.PipelineElement, ...], depth: int) -> list[str]:
    lines = []
    for index, element in enumerate(elements):
        comma = "," if index < len(elements) - 1 else ""
        indent = "  " * depth
        if element.nested is None:
            options = "" if element.options is None else f"{{{element.options}}}"
            lines.append(f"{indent}{element.name}{options}{comma}")
            continue
        lines += [
            f"{indent}{element.name}(",
            *_layout(element.nested, depth + 1),
            f"{indent}){comma}",
        ]
    return lines


def _pass_listing() -> str:
    """`--list-passes`: torch-refine's passes (and third-party ones) with their options,
    then every pass and pipeline MLIR registers, in one column wide enough for the longest
    name (mlir-opt's fixed column runs a long name into its description)."""
    ours = registry.names()
    width = _name_width(ours)
    lines = ["Passes:"]
    for name in ours:
        description, *options = registry.describe(name, indent="      ")
        lines += [f"  --{name:<{width}} -   {description}", *options]
    lines += _mlir_pass_lines(width, "")
    return "\n".join(lines) + "\n"


def _name_width(ours: list[str]) -> int:
    return max(len(name) for name in [*ours, *(found.name for found in mlir_passes.listing())])


def _mlir_pass_lines(width: int, indent: str) -> list[str]:
    """MLIR's and torch-mlir's passes, then their pipelines, as mlir-opt lists them; the
    header `Pass Pipelines:` comes before the pipelines."""
    lines = []
    for pipelines in (False, True):
        if pipelines:
            lines.append(f"{indent}Pass Pipelines:")
        for found in mlir_passes.listing():
            if found.pipeline != pipelines:
                continue
            description = found.description or _UNDESCRIBED
            lines.append(f"{indent}  --{found.name:<{width}} -   {description}")
            lines += [_option_line(flag, help_text, width, indent) for flag, help_text in found.options]
    return lines


_UNDESCRIBED = "(torch-mlir-opt --help does not describe it; MLIR's pass documentation does)"


def _option_line(flag: str, help_text: str, width: int, indent: str) -> str:
    if flag.startswith("="):  # a value of the option above
        return f"{indent}      {flag:<{width - 2}} -   {help_text}".rstrip()
    return f"{indent}    {flag:<{width}} - {help_text}".rstrip()


# Dialect namespaces `--show-dialects` probes: the bindings cannot list what a context
# registers, only say whether a namespace loads.
_KNOWN_DIALECTS = (
    "acc affine amdgpu amx arith arm_neon arm_sme arm_sve async bufferization builtin chlo "
    "complex cf dlti emitc func gpu index irdl linalg llvm math memref ml_program mpi nvgpu "
    "nvvm omp pdl pdl_interp ptr quant rocdl scf shape shard smt sparse_tensor spirv "
    "stablehlo tensor tm_tensor torch torch_c tosa transform ub vector vhlo x86vector xegpu"
).split()


def _dialect_names(context: ir.Context) -> list[str]:
    context.load_all_available_dialects()
    return [name for name in _KNOWN_DIALECTS if context.is_dialect_loaded(name)]


def _with_extra_library(text: str, path: str) -> str:
    """`text` with `extra-library=<quoted path>` on each torch-refine pass that takes the
    option and does not set it itself. Raises PipelineError when no pass takes it, or when
    the path cannot be quoted as one option value."""
    pipeline = pipeline_syntax.parse(text)
    takers = [e for e in pipeline.elements if _takes_extra_library(e.name)]
    if not takers:
        message = "'--extra-library' is given but no pass in the pipeline takes 'extra-library'"
        raise pipeline_syntax.PipelineError(message, 1, text)
    try:
        quoted = pipeline_syntax.quote_option_value(path)
    except ValueError as error:
        raise pipeline_syntax.PipelineError(f"'--extra-library': {error}", 1, text) from None
    pieces, last = [], 0
    for element in takers:
        options = element.options or ""
        keys = [key.replace("_", "-") for key, _ in pipeline_syntax.split_options(options)]
        if "extra-library" in keys:
            continue  # the pass's own option wins
        joined = f"{options} extra-library={quoted}".strip()
        pieces += [text[last : element.start], f"{element.name}{{{joined}}}"]
        last = element.end
    return "".join([*pieces, text[last:]])


def _takes_extra_library(name: str) -> bool:
    if not registry.is_registered(name):
        return False
    try:
        return any(field.name == "extra_library" for field in registry.get(name).options())
    except registry.PluginError:
        return False  # reported at its name when the pipeline is built


# --- command line --------------------------------------------------------------------------


class _AppendPassFlag(argparse.Action):
    """Record `--<pass>[=options]` flags in command-line order."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        pass_name = option_string.removeprefix("--")
        options = values or None  # a bare flag arrives as `--<pass>=` (see _long_flag)
        setattr(namespace, self.dest, [*getattr(namespace, self.dest), (pass_name, options)])


class _HelpFormatter(argparse.HelpFormatter):
    """Loads pass descriptions and options only when --help is shown, so start-up imports no
    pass; a pass's options are listed one a line under its description."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if isinstance(action, _AppendPassFlag):
            return "\n".join(registry.describe(action.option_strings[0].removeprefix("--")))
        return action.help

    def _split_lines(self, text: str, width: int) -> list[str]:
        if "\n" not in text:
            return super()._split_lines(text, width)
        return text.splitlines()


class _ArgumentParser(argparse.ArgumentParser):
    """Usage errors in LLVM's two lines, not argparse's usage of every flag: an unknown flag
    gets a "did you mean" from the flags this driver has."""

    def format_help(self) -> str:
        """argparse's help, then MLIR's and torch-mlir's passes, which run by flag as ours."""
        heading = "MLIR's and torch-mlir's passes (as flags or in --pass-pipeline):"
        width = _name_width(registry.names())
        return "\n".join([super().format_help(), heading, *_mlir_pass_lines(width, "  ")]) + "\n"

    def error(self, message: str) -> typing.NoReturn:
        unknown = message.removeprefix("unrecognized arguments: ")
        if unknown == message:
            self.exit(2, f"{self.prog}: error: {message}\nTry: '{self.prog} --help'\n")
        flag = unknown.split()[0]
        if not flag.startswith("-"):
            self.exit(2, f"{self.prog}: Too many positional arguments specified!\n"
                      f"Can specify at most 1 positional arguments: See: {self.prog} --help\n")
        lines = [f"{self.prog}: Unknown command line argument '{flag}'.  Try: '{self.prog} --help'\n"]
        known = [
            option
            for option, action in self._option_string_actions.items()
            if option.startswith("--") and action.help != argparse.SUPPRESS
        ]
        if close := difflib.get_close_matches(flag.split("=")[0], known, n=1):
            lines.append(f"{self.prog}: Did you mean '{close[0]}'?\n")
        self.exit(2, "".join(lines))


class _AppendMlirPassFlag(argparse.Action):
    """Record `--<C++ pass>[=options]` (rewritten by `_mlir_pass_flags`) in order."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        setattr(namespace, self.dest, [*getattr(namespace, self.dest), (values, None)])


def _bind_optional_values(parser: argparse.ArgumentParser, argv: list[str]) -> list[str]:
    """A flag whose value is optional takes one only after `=`, as in mlir-opt: bare, it
    gets its default value bound, so that argparse never takes the next argument (the
    input file) as its value (`--split-input-file a.mlir`, `--verify-diagnostics t.mlir`)."""
    actions = parser._option_string_actions
    bound = []
    for arg in argv:
        action = actions.get(arg)
        if action is None or action.nargs != "?" or action.const is None:
            bound.append(arg)
            continue
        const = action.const
        bound.append(f"{arg}={str(const).lower() if isinstance(const, bool) else const}")
    return bound


def _mlir_pass_flags(parser: argparse.ArgumentParser, argv: list[str]) -> list[str]:
    """`--<pass>[=options]` for a pass MLIR registers (and the driver has no flag of that
    name) becomes `--mlir-pass-flag=<pipeline element>`, nested under `func.func` for a
    pass that runs on functions only, as mlir-opt nests it implicitly."""
    rewritten = []
    for arg in argv:
        name, sep, options = arg.removeprefix("--").partition("=")
        known = not arg.startswith("--") or f"--{name}" in parser._option_string_actions
        element = None if known else _mlir_pass_element(name, options if sep else None)
        rewritten.append(arg if element is None else f"--mlir-pass-flag={element}")
    return rewritten


def _mlir_pass_element(name: str, options: str | None) -> str | None:
    """The pipeline element of a pass MLIR registers, or None. Its options are left to the
    pipeline, which reports a bad one as `--pass-pipeline` does, once and located."""
    if (anchor := mlir_passes.anchor_of(name)) is None:
        return None
    element = name if options is None else f"{name}{{{options}}}"
    return f"{anchor}({element})" if anchor else element


def _llvm_bool(text: str) -> bool:
    if text.lower() in ("true", "1"):
        return True
    if text.lower() in ("false", "0"):
        return False
    raise argparse.ArgumentTypeError(f"'{text}' value invalid for boolean argument")


def _long_flag(arg: str) -> str:
    """LLVM accepts `-flag` for `--flag`; argparse needs the double dash for long names.

    A bare pass flag becomes `--<pass>=` so that argparse never takes the next argument
    (the input file) as the pass's options: options only come with `=`, as in mlir-opt.
    """
    is_single_dash_long = arg.startswith("-") and not arg.startswith("--")
    if is_single_dash_long and len(arg.split("=")[0]) > 2:
        arg = "-" + arg
    if arg.startswith("--") and registry.is_registered(arg[2:]):
        return arg + "="
    return arg


def _argument_parser() -> argparse.ArgumentParser:
    parser = _ArgumentParser(
        prog=PROG,
        description="MLIR modular optimizer driver with torch-refine's Python passes",
        formatter_class=_HelpFormatter,
        allow_abbrev=False,  # as LLVM: `--mlir-print-debug` is not `--mlir-print-debuginfo`
    )
    parser.set_defaults(pass_flags=[])
    add = parser.add_argument
    add("input", nargs="?", default="-", help="input file, '-' for stdin (default)")
    add("-o", dest="output", default="-", metavar="FILE", help="output file (default stdout)")
    add("-p", "--pass-pipeline", help="a textual pipeline, e.g. 'builtin.module(func.func(cse))'")
    add(
        "--split-input-file",
        nargs="?",
        const=SPLIT_MARKER,
        metavar="MARKER",
        help="process chunks split by the marker ('// -----' when none is given)",
    )
    add("--output-split-marker", default=SPLIT_MARKER, metavar="MARKER",
        help="the marker joining the output of split chunks")
    add(
        "--verify-diagnostics",
        nargs="?",
        const="all",
        choices=("all", "only-expected"),
        help="check expected-* comments (only-expected: unexpected diagnostics pass)",
    )
    add("--mlir-diagnostic-verbosity-level", choices=tuple(_SHOWN_SEVERITIES), default="remarks")
    add("--mlir-disable-diagnostic-notes", action="store_true", help="print no notes")
    add(
        "--mlir-print-op-on-diagnostic",
        type=_llvm_bool,
        nargs="?",
        const=True,
        default=True,
        metavar="BOOL",
        help="print the operation a diagnostic is on as a note",
    )
    add("--allow-unregistered-dialect", action="store_true")
    add(
        "--extra-library",
        metavar="FILE",
        default="",
        help="shape and dtype functions (an .mlir file, or a .py file of decorated functions, "
        "compiled with torch) for every pass of the pipeline that takes 'extra-library'",
    )
    add("--verify-each", type=_llvm_bool, nargs="?", const=True, default=True, metavar="BOOL")
    add("--mlir-disable-threading", action="store_true")
    add("--mlir-print-ir-before-all", action="store_true")
    add("--mlir-print-ir-after-all", action="store_true")
    add("--mlir-print-ir-after-change", action="store_true")
    add("--mlir-print-ir-after-failure", action="store_true")
    add("--mlir-print-ir-module-scope", action="store_true")
    add("--mlir-print-debuginfo", action="store_true")
    add("--mlir-pretty-debuginfo", action="store_true")
    add("--mlir-print-local-scope", action="store_true")
    add("--mlir-print-op-generic", action="store_true")
    add("--mlir-print-skip-regions", action="store_true", help="skip regions when printing ops")
    add("--mlir-use-nameloc-as-prefix", action="store_true", help="print SSA IDs using NameLocs as prefixes")
    add("--help-hidden", action="help", help="show this help message and exit (no option is hidden)")
    _add_instrumentation_flags(parser)
    _add_unserved_flags(parser)
    add("--mlir-pass-flag", action=_AppendMlirPassFlag, dest="pass_flags", help=argparse.SUPPRESS)
    flags = parser.add_argument_group("torch-refine passes and pipelines")
    for name in registry.names():
        flags.add_argument(
            f"--{name}",
            action=_AppendPassFlag,
            dest="pass_flags",
            default=[],
            nargs="?",
            metavar="OPTIONS",
            help=name,  # the description is loaded by _HelpFormatter
        )
    return parser


# mlir-opt flags the Python bindings cannot serve, with the reason `--help` and the error give.
_UNSERVED_FLAGS = {
    "--mlir-print-unique-ssa-ids": "the binding's printer (get_asm) has no such option",
    "--mlir-print-value-users": "the binding's printer (get_asm) has no such option",
    "--mlir-print-elementsattrs-with-hex-if-larger": "the binding's printer (get_asm) has no such option",
    "--mlir-print-stacktrace-on-diagnostic": "the C++ stack that emits a diagnostic is not reachable from Python",
    "--mlir-generate-reproducer": "needs MLIR's crash-recovery instrumentation, which the bindings do not expose",
    "--mlir-pass-pipeline-local-reproducer": "needs MLIR's crash-recovery instrumentation, which the bindings do not "
    "expose (--mlir-pass-pipeline-crash-reproducer works)",
    "--mlir-very-unsafe-disable-verifier-on-parsing": "the bindings' parser always verifies",
    "--elide-resource-data-from-bytecode": "the binding's write_bytecode always writes resource data",
    "--color": "torch-refine-opt prints no colors",
}


class _Unserved(argparse.Action):
    """An mlir-opt flag the bindings cannot serve: an error with its reason, not "unknown"."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        parser.error(f"'{option_string}' is not supported: {self.help}")


def _add_unserved_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("mlir-opt flags the Python bindings cannot serve (docs/driver.md)")
    for flag, reason in _UNSERVED_FLAGS.items():
        group.add_argument(flag, action=_Unserved, nargs="?", metavar="VALUE", help=reason)


def _add_instrumentation_flags(parser: argparse.ArgumentParser) -> None:
    """Timing, statistics, output formats and listings (docs/driver.md)."""
    add = parser.add_argument
    add("--mlir-timing", action="store_true", help="display execution times")
    add("--mlir-timing-display", choices=("list", "tree"), default="tree")
    add("--mlir-output-format", choices=("text", "json"), default="text", help="the timing report's format")
    add("--mlir-pass-statistics", action="store_true", help="display the statistics of each pass")
    add("--mlir-pass-statistics-display", choices=("list", "pipeline"), default="pipeline")
    add("--dump-pass-pipeline", action="store_true", help="print the pipeline that will be run")
    add("--emit-bytecode", action="store_true", help="emit bytecode when generating output")
    add("--emit-bytecode-version", type=int, metavar="N", help="the bytecode version to emit")
    add("--emit-bytecode-producer", metavar="PRODUCER", help="the producer string of the emitted bytecode")
    add(
        "--mlir-elide-resource-strings-if-larger",
        type=int,
        metavar="N",
        help="elide the values of resources longer than N characters",
    )
    add(
        "--mlir-elide-elementsattrs-if-larger",
        type=int,
        metavar="N",
        help="elide ElementsAttrs with '...' that have more elements than N",
    )
    add(
        "--mlir-print-ir-tree-dir",
        metavar="DIR",
        help="with --mlir-print-ir-*, print into a file tree rooted at DIR",
    )
    add("--list-passes", action="store_true", help="print torch-refine's passes and exit")
    add("--show-dialects", action="store_true", help="print the registered dialects and exit")
    add("--version", action="store_true", help="display the version of this program")
    add("--verify-roundtrip", action="store_true", help="round-trip the IR after parsing")
    add("--no-implicit-module", action="store_true", help="parse no implicit top-level module")
    add("--run-reproducer", action="store_true", help="run the pipeline stored in the input's mlir_reproducer resource")
    for when in ("before", "after"):
        add(
            f"--mlir-print-ir-{when}",
            type=lambda text: text.split(","),
            action="extend",
            default=[],
            metavar="PASS",
            help=f"print IR {when} the passes named (comma-separated)",
        )
    add(
        "--mlir-pass-pipeline-crash-reproducer",
        metavar="FILE",
        help="write a .mlir reproducer to FILE if the pass pipeline fails",
    )
