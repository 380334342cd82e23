"""The torch-refine-opt driver: mlir-opt's command line over torch-refine's and MLIR's passes.

One `--pass-pipeline` (or one `--<pass>` flag per torch-refine pass) may mix our Python
passes with any pass torch-mlir or upstream MLIR registers. Flags, output and diagnostics
follow mlir-opt so that lit tests read the same. Never import torch here: start-up must
stay fast.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import traceback
from collections.abc import Sequence

# torch_mlir.ir imports numpy only to register DenseElementsAttr builders of generated op
# classes, which nothing here uses; numpy's import is a third of start-up. Hide it while
# the bindings load, unless something imported it already; a later `import numpy` works.
if "numpy" not in sys.modules:
    sys.modules["numpy"] = None  # type: ignore[assignment]
    try:
        import torch_mlir.ir  # noqa: F401
    finally:
        del sys.modules["numpy"]
from torch_mlir import ir

from torch_refine import passes
from torch_refine.driver import pipeline_syntax, verify_diagnostics
from torch_refine.driver.passmanager import InternalPassError, PassManager, save_reproducer
from torch_refine.ir import diagnostics, parsing
from torch_refine.ir.context import create_context
from torch_refine.passes import explain

PROG = "torch-refine-opt"
SPLIT_MARKER = "// -----"
STDIN_NAME = "<stdin>"


@dataclasses.dataclass(frozen=True)
class Chunk:
    source_name: str
    text: str  # padded with blank lines so that line numbers are those of the whole input
    implicit_module_line: int  # where mlir-opt places an implicit module: 0 or the marker line
    implicit_module_col: int


@dataclasses.dataclass(frozen=True)
class ChunkResult:
    output: str | None  # the printed module, None when the chunk failed
    succeeded: bool


class OptMain:
    """The driver; each step can be overridden by a subclass."""

    def __init__(self) -> None:
        self.stdout = sys.stdout
        self.stderr = sys.stderr
        self.sources: dict[str, list[str]] = {}  # file name -> lines, to quote in diagnostics
        self.collected: list[diagnostics.Diagnostic] = []
        self.current_source_name: str | None = None  # names the `-` buffer in diagnostics

    def run(self, argv: Sequence[str]) -> int:
        args = self.parse_args(argv)
        context = create_context(args.allow_unregistered_dialect)
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
            message = "not UTF-8 text (MLIR bytecode input is not supported)"
            self.stderr.write(f"cannot read input file '{args.input}': {message}\n")
            return 1
        results = [self.run_chunk(chunk, pass_manager, context, args) for chunk in chunks]
        succeeded = all(result.succeeded for result in results)
        try:
            self.emit(results, args, succeeded)
        except OSError as error:
            self.stderr.write(f"cannot open output file '{args.output}': {error.strerror}\n")
            return 1
        return 0 if succeeded else 1

    # --- steps ---------------------------------------------------------------------------

    def parse_args(self, argv: Sequence[str]) -> argparse.Namespace:
        parser = _argument_parser()
        args = parser.parse_args([_long_flag(arg) for arg in argv])
        if args.pass_flags and args.pass_pipeline is not None:
            parser.error("'--pass-pipeline' option can't be used with individual pass options")
        if args.pass_pipeline is None:
            args.pass_pipeline = pipeline_syntax.pipeline_text_from_flags(args.pass_flags)
        return args

    def build_pipeline(self, args: argparse.Namespace, context: ir.Context) -> PassManager:
        if args.extra_library:  # rewritten in args, so that reproducers carry the option too
            args.pass_pipeline = _with_extra_library(args.pass_pipeline, args.extra_library)
        pass_manager = PassManager(context)
        pass_manager.add_pipeline(pipeline_syntax.parse(args.pass_pipeline))
        pass_manager.enable_verifier(args.verify_each)
        if args.mlir_disable_threading:
            context.enable_multithreading(False)
        printing = {
            "print_before_all": args.mlir_print_ir_before_all,
            "print_after_all": args.mlir_print_ir_after_all,
            "print_after_change": args.mlir_print_ir_after_change,
            "print_after_failure": args.mlir_print_ir_after_failure,
        }
        if any(printing.values()):
            pass_manager.enable_ir_printing(
                **printing,
                print_module_scope=args.mlir_print_ir_module_scope,
                enable_debug_info=args.mlir_print_debuginfo,
            )
        return pass_manager

    def read_chunks(self, args: argparse.Namespace) -> list[Chunk]:
        """Raises OSError when the input cannot be read, UnicodeDecodeError if not text."""
        if args.input == "-":
            source_name, text = STDIN_NAME, sys.stdin.read()
        else:
            with open(args.input, encoding="utf-8") as file:
                source_name, text = args.input, file.read()
        lines = text.splitlines(keepends=True)
        self.sources[source_name] = [line.rstrip("\r\n") for line in lines]
        if not text:
            return []  # mlir-opt prints nothing for an empty input, not an empty module
        if not args.split_input_file:
            return [Chunk(source_name, text, 0, 0)]
        return list(_split(source_name, lines))

    def run_chunk(
        self, chunk: Chunk, pass_manager: PassManager, context: ir.Context, args: argparse.Namespace
    ) -> ChunkResult:
        self.collected = []
        self.current_source_name = chunk.source_name
        with context:
            output, errors, internal_error = self._parse_and_run(chunk, pass_manager, args)
        reported = self.collected + errors
        if args.verify_diagnostics:
            expectations = verify_diagnostics.parse_expectations(chunk.text, chunk.source_name)
            problems = verify_diagnostics.verify(expectations, reported)
            self._report(problems)
            return ChunkResult(output, not problems)
        self._report(reported)
        if internal_error:
            self._write_reproducer(chunk, context, args)
        return ChunkResult(output, output is not None)

    def emit(self, results: list[ChunkResult], args: argparse.Namespace, succeeded: bool) -> None:
        """Like mlir-opt: chunks joined by `// -----`; `-o` is written only on success."""
        text = f"{SPLIT_MARKER}\n".join(result.output or "" for result in results)
        if args.output == "-":
            self.stdout.write(text)
            self.stdout.flush()
            return
        if succeeded:
            with open(args.output, "w", encoding="utf-8") as file:
                file.write(text)

    # --- helpers -------------------------------------------------------------------------

    def _collect(self, diagnostic: ir.Diagnostic) -> bool:
        self.collected.append(diagnostics.from_mlir(diagnostic, self.current_source_name))
        return True  # handled: keep MLIR from printing it in its own format

    def _report(self, reported: list[diagnostics.Diagnostic]) -> None:
        for diagnostic in reported:
            self.stderr.write(diagnostics.format_diagnostic(diagnostic, self.sources))
        self.stderr.flush()

    def _print(self, module_op: ir.Operation, args: argparse.Namespace) -> str:
        asm = module_op.get_asm(
            enable_debug_info=args.mlir_print_debuginfo,
            pretty_debug_info=args.mlir_pretty_debuginfo,
            print_generic_op_form=args.mlir_print_op_generic,
            use_local_scope=args.mlir_print_local_scope,
            assume_verified=True,
        )
        return asm + "\n"

    def parse_module(self, chunk: Chunk):
        """Parse like mlir-opt (see `parsing.parse_source`); diagnostics of a first attempt
        that the second parse reports again are dropped."""
        collected_before = len(self.collected)

        def retrying() -> None:
            del self.collected[collected_before:]

        return parsing.parse_source(
            chunk.text, chunk.source_name, (chunk.implicit_module_line, chunk.implicit_module_col),
            before_retry=retrying,
        )

    def _parse_and_run(self, chunk: Chunk, pass_manager: PassManager, args: argparse.Namespace):
        """Returns (printed module or None, error diagnostics, whether torch-refine or MLIR
        failed on its own: a pass raised, failed without a diagnostic, or left invalid IR).
        A diagnosed failure is about the input and is not an internal error."""
        if (too_deep := parsing.nesting_too_deep(chunk.text, chunk.source_name)) is not None:
            return None, [too_deep], False
        try:
            module = self.parse_module(chunk)
            module.operation.verify()
        except ir.MLIRError as error:
            return None, _errors_of(error, chunk), False
        try:
            pass_manager.run(module.operation)
        except ir.MLIRError as error:
            errors = _errors_of(error, chunk)
            diagnosed = errors or any(d.severity == "error" for d in self.collected)
            if not diagnosed:
                errors = [diagnostics.error(f"the pass pipeline failed without a diagnostic: {error}")]
            return None, errors, not diagnosed
        except InternalPassError as error:
            return None, [self._internal_error(error)], True
        self.collected += _refinement_remarks(module.operation, chunk.source_name)
        try:
            module.operation.verify()
        except ir.MLIRError as error:
            return None, _errors_of(error, chunk), True  # the pipeline produced invalid IR
        return self._print(module.operation, args), [], False

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


def _split(source_name: str, lines: list[str]):
    """Chunks between `// -----` lines, each padded to keep its true line numbers."""
    start = 0
    marker_col = 0
    for index, line in enumerate([*lines, SPLIT_MARKER]):
        if line.strip() != SPLIT_MARKER:
            continue
        padding = "\n" * start
        marker_line = start  # 1-based number of the marker line above this chunk, or 0
        yield Chunk(source_name, padding + "".join(lines[start:index]), marker_line, marker_col)
        start = index + 1
        marker_col = line.index(SPLIT_MARKER) + len(SPLIT_MARKER) + 1


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
    if not passes.is_registered(name):
        return False
    return any(field.name == "extra_library" for field in passes.get(name).options())


# --- command line --------------------------------------------------------------------------


class _AppendPassFlag(argparse.Action):
    """Record `--<pass>[=options]` flags in command-line order."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        pass_name = option_string.removeprefix("--")
        options = values or None  # a bare flag arrives as `--<pass>=` (see _long_flag)
        setattr(namespace, self.dest, [*getattr(namespace, self.dest), (pass_name, options)])


class _HelpFormatter(argparse.HelpFormatter):
    """Loads pass descriptions only when --help is shown, so start-up imports no pass."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if isinstance(action, _AppendPassFlag):
            return passes.get(action.option_strings[0].removeprefix("--")).description
        return action.help


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
    if arg.startswith("--") and passes.is_registered(arg[2:]):
        return arg + "="
    return arg


def _argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="MLIR modular optimizer driver with torch-refine's Python passes",
        formatter_class=_HelpFormatter,
    )
    parser.set_defaults(pass_flags=[])
    add = parser.add_argument
    add("input", nargs="?", default="-", help="input file, '-' for stdin (default)")
    add("-o", dest="output", default="-", metavar="FILE", help="output file (default stdout)")
    add("--pass-pipeline", help="a textual pipeline, e.g. 'builtin.module(func.func(cse))'")
    add("--split-input-file", action="store_true", help="process chunks split by '// -----'")
    add("--verify-diagnostics", action="store_true", help="check expected-* comments")
    add("--allow-unregistered-dialect", action="store_true")
    add(
        "--extra-library", metavar="FILE", default="",
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
    flags = parser.add_argument_group("torch-refine passes and pipelines")
    for name in passes.names():
        flags.add_argument(
            f"--{name}", action=_AppendPassFlag, dest="pass_flags", default=[], nargs="?",
            metavar="OPTIONS", help=name,  # the description is loaded by _HelpFormatter
        )
    return parser
