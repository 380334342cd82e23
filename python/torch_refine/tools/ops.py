"""torch-refine-ops: which op overloads the library covers, and which are Core ATen.

    torch-refine-ops                       every op overload with a library function
    torch-refine-ops model.mlir            the ops `model.mlir` uses, with their counts
    torch-refine-ops model.mlir --missing  ... only those lacking a shape or dtype function
    torch-refine-ops --missing             what the library still lacks, in two sections:
                                           against torch-mlir's library and against the registry
    torch-refine-ops --missing --against=torch-mlir     ... only one of the two sections
    torch-refine-ops --all-core --core-only --json
    torch-refine-ops --legal=aten.mm,aten.add.Tensor [model.mlir]   what a backend must implement

One row per op overload (the Torch dialect name without `torch.`; a `torch.operator`'s
`name`): Core ATen or not, whether the library has its shape, dtype and decomposition
functions, how many verified cases (registry invocations) its functions have, how often
the file uses it, and how refinement types it (`served`: by its library functions, by the
meta fallback where they are missing and PyTorch runs it on meta, only after a library
decomposition, or not at all; docs/library.md). `--missing` keeps the ops neither the
library nor the fallback serves, with the reason PyTorch cannot run them on meta (`meta`:
from its dispatcher and a try on meta tensors of a sample made from the schema). `--json`
prints a list of objects with the keys of `JSON_KEYS`
(`count` is null without a file). Reading the file needs only the MLIR bindings; core tags,
schemas and the registry's cases need torch, and are computed once per torch version and
library sources and then read from a cache (`TorchFacts`), so a file's listing takes well
under a second from the second run on.

A shape function applies to an op with a tensor result, a dtype function to one with a
tensor or number result (`aten.sym_size.int` has a dtype function and no shape function;
`aten.sym_is_contiguous`, whose bool result has one type, has neither). Where a kind does
not apply the table says `n/a` and `--json` gives null; such an op counts as covered when
it has every function that applies. Ops PyTorch's registry does not know (custom ops) need
both.

`--missing` without a file compares the library with two lists (`--against`, default both):
`torch-mlir`, the ops torch-mlir's own library has a shape or dtype function for (the public
symbol names `__torch_mlir_{shape,dtype}_fn.<op>` in the installed wheel's
`libTorchMLIRAggregateCAPI.so`), and `registry`, every `aten` op overload of PyTorch's registry
except the `out=` variants (which the Torch dialect does not express). Each section counts
how its ops are served (functions, fallback, decomposition, left, and the left by the kind of
their reason, `meta_fallback.META_REASONS`) and lists the ops neither the library nor the
fallback serves; `--json` then prints an object with one list per section.

`--legal` answers "which ops must my backend implement": given the backend's legal ops (a
comma list, or a file with one op a line, `#` comments), it lists the ops left after
`torch-refine-decompose{legal-ops=...}`: for a file, the ops the decomposed module holds
(with counts); without one, for every op overload the library has functions for, the ops
its decomposition reaches (any branch of it) or the op itself. Each row says whether the
op is legal; the ops that are not are what the backend still lacks.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import json
import os
import re
import sys
import tempfile
import warnings
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

# isort: split
import torch_refine.driver.bindings  # noqa: F401 (first: the bindings without numpy)

# isort: split
from torch_mlir import ir

from torch_refine.about import cache_dir, versions
from torch_refine.calculations.symbols import LIBRARY_PREFIXES, function_symbol
from torch_refine.driver.timing import captured_stderr_fd
from torch_refine.ir.context import create_context
from torch_refine.ir.module import symbol_name
from torch_refine.library import loader as library_loader

PROG = "torch-refine-ops"
KINDS = ("shape", "dtype", "decomposition")
OP_PREFIXES = ("torch.aten.", "torch.prims.")
JSON_KEYS = ("op", "core", "shape", "dtype", "decomposition", "cases", "count", "served", "meta")
SERVED = ("function", "fallback", "decomposition", "none")
NOT_REGISTERED = "not an ATen op of PyTorch's registry"

AGAINST = ("torch-mlir", "registry")
NOTHING_MISSING = ("nothing missing: every op has each shape and dtype function that applies to it, "
                   "or PyTorch runs it on meta (the meta fallback types it)")
TORCH_MLIR_LIBRARY = "libTorchMLIRAggregateCAPI.so"
_TORCH_MLIR_SYMBOL = re.compile(rb"__torch_mlir_(?:shape|dtype)_fn\.([A-Za-z0-9_.]+)")


@dataclass
class Row:
    op: str
    core: bool
    shape: bool | None  # None: no result a shape function describes
    dtype: bool | None  # None: no result a dtype function describes
    decomposition: bool
    cases: int
    count: int | None  # uses in the file; None without a file
    served: str = "none"  # how refinement types it: one of SERVED
    meta: str | None = None  # why PyTorch cannot run it on meta (the fallback cannot serve it)

    @property
    def covered(self) -> bool:
        """Every applicable shape and dtype function is present."""
        return self.shape is not False and self.dtype is not False

    @property
    def missing(self) -> bool:
        """Neither the library nor the meta fallback types it."""
        return not self.covered and self.meta is not None


# --- the file ------------------------------------------------------------------------------


def ops_in_text(text: str, source_name: str = "<input>") -> Counter:
    """Uses of each aten/prims op and `torch.operator` name outside library functions."""
    context = create_context(allow_unregistered_dialects=True)
    module = ir.Module.parse(text, context)
    counts: Counter = Counter()

    def visit(op: ir.Operation) -> ir.WalkResult:
        name = op.name
        if name == "torch.operator":
            counts[ir.StringAttr(op.attributes["name"]).value] += 1
        elif name.startswith(OP_PREFIXES):
            counts[name.removeprefix("torch.")] += 1
        return ir.WalkResult.ADVANCE

    for op in module.body.operations:
        if op.operation.name == "func.func" and symbol_name(op).startswith(LIBRARY_PREFIXES):
            continue  # reified library functions are not the model's ops
        op.operation.walk(visit)
    return counts


# --- the library ---------------------------------------------------------------------------


def library_ops(extra_library: str = "") -> dict[str, set[str]]:
    """kind -> ops with a function of that kind in the generated (and extra) library."""
    library = library_loader.load(create_context(), extra_library)
    found: dict[str, set[str]] = {kind: set() for kind in KINDS}
    for symbol in library.symbols():
        for kind in KINDS:
            if symbol.startswith(prefix := function_symbol(kind, "")):
                found[kind].add(symbol.removeprefix(prefix))
    return found


@dataclass(frozen=True)
class TorchFacts:
    """What only PyTorch knows about the ops: Core ATen tags, the registry's verified cases,
    and which schema ops have no result a shape or dtype function describes."""

    core: frozenset[str]
    cases: dict[str, int]
    no_shape: frozenset[str]
    no_dtype: frozenset[str]
    on_meta: frozenset[str]  # registry ops PyTorch runs on meta: the fallback's
    no_meta: dict[str, str]  # registry op -> why PyTorch cannot run it on meta

    def applies(self, op: str, kind: str) -> bool:
        """Whether `op` has a result a `kind` function describes (a custom op: every kind)."""
        return op not in (self.no_shape if kind == "shape" else self.no_dtype)

    def meta_reason(self, op: str) -> str | None:
        """Why PyTorch cannot run `op` on meta; None when it can."""
        return None if op in self.on_meta else self.no_meta.get(op, NOT_REGISTERED)


@functools.cache
def torch_facts() -> TorchFacts:
    """From the cache when torch's version and the library's sources are those it was
    computed for; else computed (importing torch and every library module, with their C++
    warnings silenced) and cached."""
    path = _cache_path()
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
        with open(path, encoding="utf-8") as file:
            cached = json.load(file)
        return TorchFacts(frozenset(cached["core"]), cached["cases"], frozenset(cached["no_shape"]),
                          frozenset(cached["no_dtype"]), frozenset(cached["on_meta"]), cached["no_meta"])
    facts = _compute_torch_facts()
    with contextlib.suppress(OSError):  # no cache where it cannot be written
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=os.path.dirname(path))
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            json.dump({"core": sorted(facts.core), "cases": facts.cases, "no_shape": sorted(facts.no_shape),
                       "no_dtype": sorted(facts.no_dtype), "on_meta": sorted(facts.on_meta),
                       "no_meta": facts.no_meta}, file)
        os.replace(temporary, path)  # atomic: a concurrent run reads the old file or this one
    return facts


def _cache_path() -> str:
    """Named by torch's and torch-refine's versions and the library sources' contents."""
    digest = hashlib.sha256(json.dumps(versions(), sort_keys=True).encode())
    library_dir = Path(library_loader.__file__).parent
    for source in sorted(library_dir.glob("*.py")):
        digest.update(source.name.encode() + source.read_bytes())
    return os.path.join(cache_dir(), f"ops-facts-{digest.hexdigest()[:16]}.json")


def _compute_torch_facts() -> TorchFacts:
    with captured_stderr_fd(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from torch_refine.library import meta_fallback, signatures

        cases = _registry_cases()
        inapplicable = {kind: set() for kind in ("shape", "dtype")}
        for op in signatures.schemas():
            for kind, ops in inapplicable.items():
                try:
                    signatures.expected_return(op, kind)
                except signatures.SignatureError:
                    ops.add(op)
        meta = {op: meta_fallback.meta_support(op) for op in registry_aten_ops()}  # tried on a sample: ~10 s
        return TorchFacts(_core_ops(), cases, frozenset(inapplicable["shape"]), frozenset(inapplicable["dtype"]),
                          frozenset(op for op, reason in meta.items() if reason is None),
                          {op: reason for op, reason in meta.items() if reason is not None})


def _registry_cases() -> dict[str, int]:
    """op -> distinct invocations recorded for its functions in the registry (imports torch)."""
    from torch_refine.library import registry

    invocations: dict[str, dict[int, object]] = {}
    for entry in registry.functions():
        for invocation in entry.invocations:
            invocations.setdefault(entry.op, {})[id(invocation)] = invocation
    return {op: len(found) for op, found in invocations.items()}


def _core_ops() -> frozenset[str]:
    """Every op overload PyTorch tags `core` (Core ATen), as Torch dialect names."""
    import torch

    core = set()
    for schema in torch._C._jit_get_all_schemas():
        namespace, _, name = schema.name.partition("::")
        if namespace != "aten":
            continue
        overload = _overload(name, schema.overload_name or "default")
        if overload is not None and torch.Tag.core in overload.tags:
            core.add(".".join(p for p in ("aten", name, schema.overload_name) if p))
    return frozenset(core)


@functools.cache
def torch_mlir_ops() -> frozenset[str]:
    """The ops torch-mlir's library has a shape or dtype function for: the names in the public
    symbols of the installed wheel's C API library, read as `strings | grep` would."""
    import torch_mlir

    path = Path(next(iter(torch_mlir.__path__))) / "_mlir_libs" / TORCH_MLIR_LIBRARY
    names = {match.decode() for match in _TORCH_MLIR_SYMBOL.findall(path.read_bytes())}
    return frozenset(name.removesuffix(".default") for name in names)


@functools.cache
def registry_aten_ops() -> frozenset[str]:
    """Every `aten` op overload of PyTorch's registry but the `out=` variants (imports torch)."""
    from torch_refine.library import signatures

    return frozenset(
        op for op, schema in signatures.schemas().items()
        if op.startswith("aten.") and not any(arg.is_out for arg in schema.arguments)
    )


def _against(name: str) -> frozenset[str]:
    return torch_mlir_ops() if name == "torch-mlir" else registry_aten_ops()


def _overload(name: str, overload_name: str):
    import torch

    try:
        return getattr(getattr(torch.ops.aten, name), overload_name)
    except (AttributeError, RuntimeError):  # schemas without a Python binding
        return None


# --- rows ----------------------------------------------------------------------------------


def build_rows(
    args: argparse.Namespace, counts: Counter | None, against: str | None = None
) -> list[Row]:
    """The rows for the file's ops, for the ops of the `against` list, or for the library's."""
    library = library_ops(args.extra_library)
    facts = torch_facts()
    cases, core = facts.cases, facts.core
    if counts is not None:
        names = set(counts)
    elif against is not None:
        names = set(_against(against))
    else:
        names = set().union(*library.values(), cases)
    if args.all_core:
        names |= core
    rows = [
        _served(Row(
            op=name,
            core=name in core,
            shape=name in library["shape"] if facts.applies(name, "shape") else None,
            dtype=name in library["dtype"] if facts.applies(name, "dtype") else None,
            decomposition=name in library["decomposition"],
            cases=cases.get(name, 0),
            count=None if counts is None else counts.get(name, 0),
            meta=facts.meta_reason(name),
        ))
        for name in sorted(names)
    ]
    if args.core_only:
        rows = [row for row in rows if row.core]
    if args.missing:
        rows = [row for row in rows if row.missing]
    return rows


def _served(row: Row) -> Row:
    """The row with how refinement types the op: by library functions, else by the meta
    fallback (library/meta_fallback.py), else only after a library decomposition."""
    if row.covered:
        row.served = "function"
    elif row.meta is None:
        row.served = "fallback"
    elif row.decomposition:
        row.served = "decomposition"
    return row


def summary(rows: list[Row]) -> str:
    core = [row for row in rows if row.core]
    covered = sum(row.covered for row in rows)
    core_covered = sum(row.covered for row in core)
    fallback = sum(row.served == "fallback" for row in rows)
    return (
        f"{len(rows)} ops, {len(core)} Core ATen; with all applicable shape and dtype functions: "
        f"{covered} of {len(rows)} (Core ATen: {core_covered} of {len(core)}); "
        f"served by the meta fallback: {fallback}; neither: {sum(row.missing for row in rows)}"
    )


def format_table(rows: list[Row], with_count: bool, with_reason: bool = False) -> str:
    """The rows' columns; `with_reason` adds why PyTorch cannot run the op on meta."""
    headers = ["op", "core", "shape", "dtype", "decomposition", "cases"]
    if with_count:
        headers.append("count")
    headers.append("served")
    if with_reason:
        headers.append("meta")
    cells = [[_cell(getattr(row, key)) for key in headers] for row in rows]
    widths = [max(len(line[i]) for line in [headers, *cells]) for i in range(len(headers))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip()
             for line in [headers, *cells]]
    return "\n".join(lines) + "\n"


def _cell(value) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


# --- what a backend must implement --------------------------------------------------------


def read_legal(text: str) -> frozenset[str]:
    """Legal ops from a file (one a line, `#` comments) or a comma list; without `torch.`."""
    from torch_refine.lowering.decompose import legal_op_names

    try:
        with open(text, encoding="utf-8") as file:
            text = ",".join(line.split("#", 1)[0] for line in file)
    except OSError:
        pass  # not a file: a comma list
    return legal_op_names(text)


def decomposed_counts(text: str, legal: frozenset[str]) -> Counter:
    """The ops `text` uses after `torch-refine-decompose` keeping `legal` (no refinement)."""
    from torch_refine.passes.decompose import Decompose

    context = create_context(allow_unregistered_dialects=True)
    module = ir.Module.parse(text, context)
    Decompose(legal_ops=",".join(sorted(legal)), refine=False).run(module.operation)
    return ops_in_text(str(module))


def reached_ops(op: str, legal: frozenset[str], library) -> set[str]:
    """The ops left of `op` after decomposing it: itself when legal or without a
    decomposition, else what its decomposition's body (and its helpers) use, decomposed in turn."""
    from torch_refine.calculations.symbols import DECOMPOSITION_FN_PREFIX

    reached: set[str] = set()
    pending, seen = [op], set()
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        fn = library.get(DECOMPOSITION_FN_PREFIX + name)
        if name in legal or fn is None:
            reached.add(name)
            continue
        pending.extend(_ops_in_function(fn, library))
    return reached


def _ops_in_function(fn, library) -> list[str]:
    found: list[str] = []
    callees = [fn]
    while callees:
        current = callees.pop()

        def visit(op: ir.Operation) -> ir.WalkResult:
            if op.name == "func.call":
                callees.append(library.get(ir.FlatSymbolRefAttr(op.attributes["callee"]).value))
            elif op.name.startswith(OP_PREFIXES):
                found.append(op.name.removeprefix("torch."))
            return ir.WalkResult.ADVANCE

        current.operation.walk(visit)
    return found


def backend_rows(legal: frozenset[str], counts: Counter | None, extra_library: str) -> list[dict]:
    """One row per op a backend must implement: op, legal, count (None without a file)."""
    if counts is not None:
        return [{"op": op, "legal": op in legal, "count": n} for op, n in sorted(counts.items())]
    library = library_loader.load(create_context(), extra_library)
    names = set().union(*library_ops(extra_library).values())
    needed = set().union(*(reached_ops(name, legal, library) for name in names))
    return [{"op": op, "legal": op in legal, "count": None} for op in sorted(needed)]


def print_backend_rows(rows: list[dict], as_json: bool) -> None:
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    for row in rows:
        count = "" if row["count"] is None else f"  {row['count']}"
        print(f"{row['op']}  {'legal' if row['legal'] else 'MISSING'}{count}")
    missing = sum(not row["legal"] for row in rows)
    print(f"{len(rows)} ops after decomposition; not legal (the backend must implement): {missing}")


# --- command line --------------------------------------------------------------------------


def _argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="List op overloads: Core ATen or not, and the library's functions for them.",
    )
    add = parser.add_argument
    add("input", nargs="?", help="a Torch-dialect .mlir file: list the ops it uses ('-': stdin)")
    add("--json", action="store_true", help=f"print a JSON list of objects {', '.join(JSON_KEYS)}")
    add("--core-only", action="store_true", help="only Core ATen op overloads")
    add("--missing", action="store_true",
        help="only ops lacking an applicable shape or dtype function that PyTorch cannot run on meta either")
    add("--against", choices=AGAINST,
        help="with --missing and no file: only this section (default: both)")
    add("--all-core", action="store_true", help="add every Core ATen overload, used or not")
    add("--extra-library", metavar="FILE", default="", help="also these functions (.mlir or .py)")
    add("--legal", metavar="FILE_OR_LIST", default=None,
        help="a backend's legal ops: list the ops left after decomposition and which are not legal")
    return parser


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as file:
        return file.read()


def main(argv: Sequence[str] | None = None) -> int:
    """The command; output cut short by a closed pipe (`| head`) ends it quietly."""
    try:
        code = _main(argv)
        sys.stdout.flush()
    except library_loader.LibraryError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 1
    return code


def _main(argv: Sequence[str] | None) -> int:
    args = _argument_parser().parse_args(argv)
    counts = None
    legal = None if args.legal is None else read_legal(args.legal)
    if args.input is not None:
        try:
            text = _read(args.input)
            if legal is None:
                counts = ops_in_text(text, args.input)
            else:
                counts = decomposed_counts(text, legal)
        except OSError as error:
            print(f"{PROG}: error: cannot read '{args.input}': {error.strerror}", file=sys.stderr)
            return 1
        except ir.MLIRError as error:
            print(f"{PROG}: error: cannot parse '{args.input}': {error}", file=sys.stderr)
            return 1
    if legal is not None:
        print_backend_rows(backend_rows(legal, counts, args.extra_library), args.json)
        return 0
    if args.missing and counts is None:
        return _print_missing_sections(args)
    rows = build_rows(args, counts)
    if args.json:
        print(json.dumps([asdict(row) for row in rows], indent=2))
        return 0
    if args.missing and not rows:
        print(NOTHING_MISSING)
        return 0
    sys.stdout.write(format_table(rows, with_count=counts is not None, with_reason=args.missing))
    print(summary(rows))
    return 0


def _print_missing_sections(args: argparse.Namespace) -> int:
    """`--missing` without a file: what the library lacks against each list of `--against`,
    after a line counting how the list's ops are served."""
    every = argparse.Namespace(**{**vars(args), "missing": False})
    sections = {name: build_rows(every, None, against=name)
                for name in ([args.against] if args.against else AGAINST)}
    if args.json:
        print(json.dumps({name: [asdict(row) for row in rows if row.missing] for name, rows in sections.items()},
                         indent=2))
        return 0
    for name, rows in sections.items():
        missing = [row for row in rows if row.missing]
        print(f"== missing against {name}: {len(missing)} of {len(rows)} ops ==")
        print(served_counts(rows))
        sys.stdout.write(format_table(missing, with_count=False, with_reason=True) if missing
                         else NOTHING_MISSING + "\n")
    return 0


def served_counts(rows: list[Row]) -> str:
    """How the rows' ops are served, and why PyTorch cannot run the rest on meta."""
    served = Counter(row.served for row in rows)
    reasons = Counter(_reason_kind(row.meta) for row in rows if row.missing)
    left = ", ".join(f"{kind}: {n}" for kind, n in reasons.most_common())
    return (f"served by library functions: {served['function']}, by the meta fallback: {served['fallback']}, "
            f"only after a library decomposition: {served['decomposition']}; "
            f"left: {served['none']}" + (f" ({left})" if left else ""))


def _reason_kind(reason: str) -> str:
    from torch_refine.library.meta_fallback import META_REASONS

    return next((kind for kind in META_REASONS if reason.startswith(kind)), reason)


if __name__ == "__main__":
    sys.exit(main())
