"""`--mlir-timing` and `--mlir-pass-statistics` reports in mlir-opt's layout.

MLIR times the passes it runs (ours included, each as one opaque pass) and prints its
report when the PassManager is destroyed; the driver captures that text, reads it back
as a tree, nests the stages `engine.instrumentation` timed inside each Python pass under
that pass's line, adds the driver's own `Parser` and `Output` timers, and prints the whole
as mlir-opt does, as a tree or as a list.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import time

from torch_refine.engine.instrumentation import Statistic, TimerNode

BANNER = "===" + "-" * 73 + "==="
_LINE = re.compile(r"^((?:\s+\d+\.\d+ \(\s*[\d.]+%\))+)  ( *)(\S.*)$")


def header(title: str) -> str:
    indent = " " * ((80 - len(title)) // 2)  # as MLIR centres it
    return f"{BANNER}\n{indent}{title}\n{BANNER}\n"


@contextlib.contextmanager
def captured_stderr_fd():
    """Collect what C++ writes to file descriptor 2 while the body runs; yields a list
    that holds the text afterwards."""
    import tempfile  # here: only --mlir-print-ir-* need it, and it costs start-up

    sys.stderr.flush()
    saved = os.dup(2)
    text: list[str] = []
    with tempfile.TemporaryFile("w+b") as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield text
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            text.append(sink.read().decode("utf-8", "replace"))


def parse_mlir_timing(report: str) -> list[TimerNode]:
    """The top-level timers of MLIR's tree report, without its `Rest` and `Total`."""
    root = TimerNode("")
    stack = [(-1, root)]
    for line in report.splitlines():
        matched = _LINE.match(line)
        if matched is None:
            continue
        seconds = float(matched.group(1).split("(")[-2].split()[-1])
        depth, name = len(matched.group(2)) // 2, matched.group(3)
        if depth == 0 and name in ("Rest", "Total"):
            continue
        while stack[-1][0] >= depth:
            stack.pop()
        node = TimerNode(name, seconds)
        stack[-1][1].children[f"{name}#{len(stack[-1][1].children)}"] = node
        stack.append((depth, node))
    return list(root.children.values())


def nest_python_stages(timers: list[TimerNode], stages: list[tuple[str, TimerNode]]) -> None:
    """Put each Python pass run's stage tree under that pass's top-level line, in order."""
    pending = list(stages)
    for timer in timers:
        if pending and timer.name == pending[0][0]:
            timer.children.update(pending.pop(0)[1].children)


class TimingReport:
    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.timers: list[TimerNode] = []  # Parser, the passes, Output, in order

    @contextlib.contextmanager
    def timer(self, name: str):
        start = time.perf_counter()
        try:
            yield
        finally:
            self._add(TimerNode(name, time.perf_counter() - start))

    def _add(self, node: TimerNode) -> None:
        """Repeated timers (one per input chunk) add up, as in mlir-opt."""
        for timer in self.timers:
            if timer.name == node.name and not timer.children:
                timer.seconds += node.seconds
                return
        self.timers.append(node)

    def add_passes(self, timers: list[TimerNode]) -> None:
        output = [t for t in self.timers if t.name == "Output"]
        self.timers = [t for t in self.timers if t.name != "Output"] + timers + output

    def render(self, display: str, output_format: str = "text") -> str:
        total = time.perf_counter() - self.start
        rest = max(total - sum(t.seconds for t in self.timers), 0.0)
        if output_format == "json":
            return _render_json(self.timers, display, rest, total)
        if display == "list":
            rows = [("root", total), *_merged_by_name(self.timers)]
        else:
            rows = [
                (" " * depth * 2 + node.name, node.seconds) for node, depth in _walk(self.timers)
            ]
        rows += [("Rest", rest), ("Total", total)]
        lines = [
            header("... Execution time report ..."),
            f"  Total Execution Time: {total:.4f} seconds\n\n",
            "  ----Wall Time----  ----Name----\n",
        ]
        lines += [
            f"  {seconds:8.4f} ({_percent(seconds, total):5.1f}%)  {name}\n"
            for name, seconds in rows
        ]
        return "".join(lines)


def _render_json(timers: list[TimerNode], display: str, rest: float, total: float) -> str:
    """MLIR's `--mlir-output-format=json` timing report (wall times, as single-threaded)."""

    def entry(name: str, seconds: float) -> str:
        wall = f'{{"duration": {seconds:8.4f}, "percentage": {_percent(seconds, total):5.1f}}}'
        return f'{{"wall": {wall}, "name": "{name}"'

    def nested(node: TimerNode, indent: str) -> list[str]:
        lines = [f"{indent}{entry(node.name, node.seconds)}, \"passes\": [\n"]
        for child in node.children.values():
            lines += nested(child, indent + "  ")
        return [*lines, f"{indent}{{}}]}},\n"]

    if display == "list":
        rows = [("root", total), *_merged_by_name(timers)]
        lines = [f"{entry(name, seconds)}}},\n" for name, seconds in rows]
    else:
        lines = [line for node in timers for line in nested(node, "")]
    lines += [f"{entry('Rest', rest)}}},\n", f"{entry('Total', total)}}}\n"]
    return "[\n" + "".join(lines) + "]\n"


def _percent(seconds: float, total: float) -> float:
    return 100.0 * seconds / total if total else 0.0


def _walk(timers, depth: int = 0):
    for node in timers:
        yield node, depth
        yield from _walk(node.children.values(), depth + 1)


def _merged_by_name(timers: list[TimerNode]) -> list[tuple[str, float]]:
    merged: dict[str, float] = {}
    for node, _ in _walk(timers):
        merged[node.name] = merged.get(node.name, 0.0) + node.seconds
    return sorted(merged.items(), key=lambda item: -item[1])


def render_statistics(runs: list[tuple[str, dict[Statistic, int]]], display: str) -> str:
    """MLIR's statistics report for the Python passes (`pipeline`: one entry per pass run
    in order; `list`: summed per pass)."""
    if display == "list":
        summed: dict[str, dict[Statistic, int]] = {}
        for name, values in runs:
            entry = summed.setdefault(name, {})
            for statistic, value in values.items():
                entry[statistic] = entry.get(statistic, 0) + value
        runs = sorted(summed.items())
    lines = [header("... Pass statistics report ..."), "\n"]
    for name, values in runs:
        lines.append(f"{name}\n")
        if not values:
            continue
        ordered = sorted(values.items(), key=lambda item: item[0].name)
        name_width = max(len(s.name) for s in values)
        value_width = max(len(str(v)) for v in values.values())
        for statistic, value in ordered:
            described = f"{statistic.name:<{name_width}} - {statistic.description}"
            lines.append(f"  (S) {value:>{value_width}} {described}\n")
    return "".join(lines)
