"""How precise the tensor types of a refined module are, against a truth or on their own.

The truth is the module as the importer emitted it, before its types were erased; the
refined module has the same ops in the same order (plus the casts erasure may add at uses
that need the old type), so results pair up in walk order. Each
tensor value is classified:

- exact: sizes and dtype equal the truth's;
- partial: consistent with the truth but less precise;
- unknown: nothing known (`!torch.vtensor`);
- contradiction: the refined type says something the truth denies: a different rank, dim
  or dtype, or a static dim where the truth's dim is dynamic (the value may take other
  sizes at run time, so claiming one is unsound).

Without a truth (`count_module`), a value is exact when its sizes and dtype are all known,
symbolic-exact when its dtype is known and each of its dynamic sizes is an expression of
the program's symbols: a `torch.bind_symbolic_shape` gives it, or refinement derived it
(`calculations/dim_facts.py`: `%arg0[0]`, `4*%arg1[1]`, a select of them; not a fresh
symbol, an unknown size), and every value left unknown gets
a reason (`torch_refine.engine.explain`). Nothing can be contradicted then: the table says
so instead of counting 0.

A program from torch.export has a truth of its own: the types it traced each node's results
as (`importer.fx.traced_types`). `compare_traced` pairs refined values with them where the
import placed an op for the node (same source frames, op name and result index, as many
ops as nodes) and counts the pairs compared and the contradictions: a rank, dtype or static
dim that differs, or a static size where export's dim is symbolic, unless its symbols'
ranges leave that size alone (and it is the size export saw).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from torch_mlir import ir

from torch_refine.calculations import dim_facts
from torch_refine.engine import explain
from torch_refine.ir import types


@dataclass(frozen=True)
class ValueRecord:
    """One tensor value: where it comes from and what its type says."""

    op_name: str
    location: str
    result_index: int
    info: types.TensorInfo
    reason: str | None = None  # why a value is not exact (`engine.explain`), if known
    bound: bool = False  # its sizes are named: a bind, or the dims refinement derived


@dataclass(frozen=True)
class ValueRow:
    """A value worth looking at: left unknown, or contradicted by the truth."""

    op_name: str
    location: str
    result_index: int
    refined: str
    truth: str | None
    reason: str | None = None

    def to_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass
class TypeReport:
    exact: int = 0
    symbolic_exact: int = 0
    partial: int = 0
    unknown: int = 0
    contradictions: int = 0
    op_count: int = 0
    has_truth: bool = True
    unknown_rows: list[ValueRow] = field(default_factory=list)
    partial_rows: list[ValueRow] = field(default_factory=list)  # count_module only, with reasons
    contradiction_rows: list[ValueRow] = field(default_factory=list)
    # Against torch.export's traced types (`compare_traced`): None when not compared.
    export_compared: int | None = None
    export_contradiction_rows: list[ValueRow] = field(default_factory=list)

    @property
    def export_contradictions(self) -> int:
        return len(self.export_contradiction_rows)

    @property
    def values(self) -> int:
        return self.exact + self.symbolic_exact + self.partial + self.unknown + self.contradictions

    @property
    def exact_fraction(self) -> float:
        return self.exact / self.values if self.values else 1.0

    def to_dict(self) -> dict:
        return {
            "values": self.values,
            "exact": self.exact,
            "symbolic_exact": self.symbolic_exact,
            "partial": self.partial,
            "unknown": self.unknown,
            "contradictions": self.contradictions,
            "exact_fraction": self.exact_fraction,
            "op_count": self.op_count,
            "has_truth": self.has_truth,
            "unknown_rows": [row.to_dict() for row in self.unknown_rows],
            "partial_rows": [row.to_dict() for row in self.partial_rows],
            "contradiction_rows": [row.to_dict() for row in self.contradiction_rows],
            "export_compared": self.export_compared,
            "export_contradictions": self.export_contradictions,
            "export_contradiction_rows": [row.to_dict() for row in self.export_contradiction_rows],
            "unknown_reasons": self.unknown_reasons(),
        }

    def unknown_reasons(self) -> dict[str, int]:
        """How many unknown values each kind of reason explains (`explain.category`)."""
        counts: dict[str, int] = {}
        for row in self.unknown_rows:
            kind = explain.category(row.reason or "no reason recorded")
            counts[kind] = counts.get(kind, 0) + 1
        return counts

    def __str__(self) -> str:
        return self.format_table()

    def format_table(self, max_rows: int = 20) -> str:
        total = self.values or 1
        against = "against the imported types" if self.has_truth else "no truth: counts only"
        lines = [f"tensor values: {self.values} in {self.op_count} ops ({against})"]
        for label, count in (
            ("exact", self.exact),
            ("symbolic-exact", self.symbolic_exact),
            ("partial", self.partial),
            ("unknown", self.unknown),
        ):
            lines.append(f"  {label:<15}{count:>8}  {100.0 * count / total:6.2f}%")
        if self.has_truth:
            lines.append(f"  {'contradictions':<15}{self.contradictions:>8}  "
                         f"{100.0 * self.contradictions / total:6.2f}%")
        else:
            lines.append(f"  {'contradictions':<15}     n/a  (nothing to compare)")
        if self.export_compared is not None:
            lines.append(f"against torch.export's traced types: {self.export_compared} values compared, "
                         f"{self.export_contradictions} contradictions")
        reasons = self.unknown_reasons() if not self.has_truth else {}
        if reasons:
            lines.append("why values stayed unknown:")
            lines += [f"  {count:>8}  {kind}" for kind, count in sorted(reasons.items())]
        lines += _format_rows("contradictions", self.contradiction_rows, max_rows)
        lines += _format_rows("contradictions of torch.export's types", self.export_contradiction_rows, max_rows)
        lines += _format_rows("unknown values", self.unknown_rows, max_rows)
        lines += _format_rows("partial values", self.partial_rows, max_rows)
        return "\n".join(lines)


def _format_rows(title: str, rows: list[ValueRow], max_rows: int) -> list[str]:
    if not rows:
        return []
    lines = [f"{title}:"]
    for row in rows[:max_rows]:
        truth = f"  (truth {row.truth})" if row.truth is not None else ""
        reason = f"  ({row.reason})" if row.reason is not None else ""
        where = short_location(row.location)
        head = f"  {row.op_name} #{row.result_index} at {where}"
        lines.append(f"{head}: {row.refined}{truth}{reason}")
    if len(rows) > max_rows:
        lines.append(f"  ... {len(rows) - max_rows} more")
    return lines


_FILE_LINE_COL = re.compile(r'"([^"]*)":(\d+):(\d+)')


def short_location(location: str) -> str:
    """`file:line:col` of the innermost frame of a printed location, file without its
    directory; the location itself when it names no file."""
    match = _FILE_LINE_COL.search(location)
    if match is None:
        return location
    file, line, col = match.groups()
    return f"{file.rsplit('/', 1)[-1]}:{line}:{col}"


def op_name(op: ir.Operation) -> str:
    """The op's name, with a `torch.operator`'s own name in quotes after it."""
    name = op.name
    if name == "torch.operator":
        return f'{name} "{ir.StringAttr(op.attributes["name"]).value}"'
    return name


def tensor_values(module: ir.Operation) -> tuple[list[ValueRecord], int]:
    """The tensor results of every op inside the module's functions, in walk order, and
    the number of ops walked; an unknown value carries its op's reason (`engine.explain`),
    if any. Reads everything at once: no handle outlives the walk."""
    records: list[ValueRecord] = []
    op_count = 0

    def visit(op: ir.Operation) -> ir.WalkResult:
        nonlocal op_count
        if op.name in ("builtin.module", "func.func"):
            return ir.WalkResult.ADVANCE
        op_count += 1
        name = None
        for index, result in enumerate(op.results):
            info = types.parse(result.type)
            if info is None:
                continue
            name = name or op_name(op)
            reason = None if info.is_exact else explain.reason_of(op)
            bound = not info.has_sizes and (
                any(use.owner.name == "torch.bind_symbolic_shape" for use in result.uses)
                or dim_facts.expresses_every_dim(op, index))
            records.append(ValueRecord(name, str(op.location), index, info, reason, bound))
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.PRE_ORDER)
    return records, op_count


def classify(refined: types.TensorInfo, truth: types.TensorInfo) -> str:
    """One of "exact", "partial", "unknown", "contradiction"."""
    if types.meet(refined, truth) is None or _claims_static_where_dynamic(refined, truth):
        return "contradiction"
    if refined.sizes == truth.sizes and refined.dtype == truth.dtype:
        return "exact"
    if refined.is_unknown:
        return "unknown"
    return "partial"


def _claims_static_where_dynamic(refined: types.TensorInfo, truth: types.TensorInfo) -> bool:
    if refined.sizes is None or truth.sizes is None:
        return False
    return any(t is None and r is not None for r, t in zip(refined.sizes, truth.sizes, strict=True))


# Ops that type erasure may add (at uses that need the old type) and refinement may keep:
# they have no counterpart in the truth and are skipped when pairing.
_ADDED_BY_ERASURE = frozenset({"torch.tensor_static_info_cast"})


def pair_records(
    refined: list[ValueRecord], truth: list[ValueRecord]
) -> list[tuple[ValueRecord, ValueRecord]]:
    """(refined, truth) pairs in order; casts that erasure added are skipped."""
    pairs = []
    position = 0
    for ours in refined:
        theirs = truth[position] if position < len(truth) else None
        if theirs is not None and ours.op_name == theirs.op_name:
            pairs.append((ours, theirs))
            position += 1
        elif ours.op_name not in _ADDED_BY_ERASURE:
            expected = "nothing" if theirs is None else f"{theirs.op_name} at {theirs.location}"
            raise ValueError(
                f"structure differs: {ours.op_name} at {ours.location} pairs with {expected}"
            )
    if position != len(truth):
        raise ValueError(f"the truth has {len(truth) - position} tensor values left unpaired")
    return pairs


def compare_records(
    refined: list[ValueRecord], truth: list[ValueRecord], op_count: int = 0
) -> TypeReport:
    report = TypeReport(op_count=op_count)
    for ours, theirs in pair_records(refined, truth):
        kind = classify(ours.info, theirs.info)
        if kind == "exact":
            report.exact += 1
        elif kind == "partial":
            report.partial += 1
        elif kind == "unknown":
            report.unknown += 1
            report.unknown_rows.append(_row(ours, theirs))
        else:
            report.contradictions += 1
            report.contradiction_rows.append(_row(ours, theirs))
    return report


def _row(ours: ValueRecord, truth: ValueRecord | None) -> ValueRow:
    return ValueRow(
        ours.op_name,
        ours.location,
        ours.result_index,
        ours.info.text(),
        None if truth is None else truth.info.text(),
        ours.reason,
    )


def compare_modules(refined: ir.Operation, truth: ir.Operation) -> TypeReport:
    """Pairs the tensor results of two modules with the same ops in walk order (up to
    the casts erasure adds); the op count is the truth's."""
    ours, _ = tensor_values(refined)
    theirs, op_count = tensor_values(truth)
    return compare_records(ours, theirs, op_count)


def count_module(module: ir.Operation, has_library_function=None) -> TypeReport:
    """Counts exact, partial and unknown tensor values when no truth is at hand, with the
    reason each unknown value stayed unknown (`engine.explain`: the pipeline's own, when it
    ran with `explain`). `has_library_function` (`Library.has_function`) explains the ops
    the pipeline did not; None: only its reasons. The reasons are removed from the IR."""
    if has_library_function is not None:
        explain.annotate(module, has_library_function, without_blockers=True)
    records, op_count = tensor_values(module)
    explain.take(module)
    report = TypeReport(op_count=op_count, has_truth=False)
    for record in records:
        if record.info.is_exact:
            report.exact += 1
        elif record.bound and record.info.dtype is not None:
            report.symbolic_exact += 1
        elif record.info.is_unknown:
            report.unknown += 1
            report.unknown_rows.append(_row(record, None))
        else:
            report.partial += 1
            report.partial_rows.append(_row(record, None))
    return report


def compare_traced(report: TypeReport, module: ir.Operation, traced: dict) -> TypeReport:
    """Set the report's comparison with torch.export's traced types (`traced`, from
    `importer.fx.traced_types`) and return it. A key (frames, op, result index) pairs its
    values in order only when the module has as many as export traced: ops that the import
    or torch-mlir's pipeline decomposed, merged or added are not compared."""
    records, _ = tensor_values(module)
    groups: dict[tuple, list[ValueRecord]] = {}
    for record in records:
        groups.setdefault((_frames(record.location), record.op_name, record.result_index), []).append(record)
    report.export_compared = 0
    report.export_contradiction_rows = []
    for key, truths in traced.items():
        ours = groups.get(key, [])
        if len(ours) != len(truths):
            continue
        for record, truth in zip(ours, truths, strict=True):
            report.export_compared += 1
            if (why := traced_contradiction(record.info, truth)) is not None:
                report.export_contradiction_rows.append(ValueRow(
                    record.op_name, record.location, record.result_index, record.info.text(), str(truth), why))
    return report


def _frames(location: str) -> tuple:
    """The (file, line) pairs of a printed location, sorted (`importer.fx.traced_types`'s key)."""
    return tuple(sorted({(file, int(line)) for file, line, _ in _FILE_LINE_COL.findall(location)}))


def traced_contradiction(refined: types.TensorInfo, truth) -> str | None:
    """What the refined type says that export's traced type (`importer.fx.TracedType`)
    denies, or None."""
    if refined.dtype is not None and truth.dtype is not None and refined.dtype != truth.dtype:
        return f"dtype {refined.dtype}, export traced {truth.dtype}"
    if refined.sizes is None:
        return None
    if len(refined.sizes) != len(truth.sizes):
        return f"rank {len(refined.sizes)}, export traced {len(truth.sizes)}"
    for dim, (ours, theirs) in enumerate(zip(refined.sizes, truth.sizes, strict=True)):
        if ours is None or ours == theirs:
            continue
        if isinstance(theirs, int):
            return f"dim {dim} is {ours}, export traced {theirs}"
        if theirs.hint is not None and theirs.hint != ours:
            return f"dim {dim} is {ours}, export traced {theirs} (= {theirs.hint} at the example inputs)"
        if (theirs.least, theirs.greatest) != (ours, ours):
            return (f"dim {dim} is {ours}, export traced {theirs} within "
                    f"[{theirs.least}, {'oo' if theirs.greatest is None else theirs.greatest}]")
    return None


def pair_by_location(
    truth: list[ValueRecord], *outputs: list[ValueRecord]
) -> list[tuple[ValueRecord, ...]]:
    """(truth, output, ...) tuples for the values every output kept, paired by source
    location, for outputs that erased or merged ops (canonicalize, cse).

    Each tensor result is keyed by (location, op name, result index); within a key, values
    pair in walk order, and only when each output has as many values under the key as the
    truth. A key whose count changed (an op folded away or merged) is skipped, since order
    no longer says which is which. Locations are per source line, so one key usually
    covers the few ops a decomposition made from one line.
    """
    output_groups = [_by_location(records) for records in outputs]
    paired: list[tuple[ValueRecord, ...]] = []
    for key, truth_group in _by_location(truth).items():
        groups = [groups.get(key, []) for groups in output_groups]
        if any(len(group) != len(truth_group) for group in groups):
            continue
        paired += zip(truth_group, *groups, strict=True)
    return paired


def _by_location(records: list[ValueRecord]) -> dict[tuple[str, str, int], list[ValueRecord]]:
    groups: dict[tuple[str, str, int], list[ValueRecord]] = {}
    for record in records:
        groups.setdefault((record.location, record.op_name, record.result_index), []).append(record)
    return groups
