"""Timers and statistics for what happens inside a Python pass, for `--mlir-timing` and
`--mlir-pass-statistics`.

MLIR's timing and statistics see a Python pass as one opaque pass; the stages inside it
(the rounds of `torch-refine-pipeline`, reify, inline, simplify, drop, ...) are timed here
and handed to the driver, which nests them under the pass in MLIR's report. Off by
default and then free: `timed(name, fn)` returns `fn` itself and `stage(name)` a shared
null context, so the per-op loop pays nothing unless a driver called `enable_timing`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Callable
from typing import NamedTuple, TypeVar

F = TypeVar("F", bound=Callable)


@dataclasses.dataclass
class TimerNode:
    name: str
    seconds: float = 0.0
    children: dict[str, TimerNode] = dataclasses.field(default_factory=dict)

    def child(self, name: str) -> TimerNode:
        if name not in self.children:
            self.children[name] = TimerNode(name)
        return self.children[name]


class Statistic(NamedTuple):
    name: str
    description: str


# What torch-refine passes count, in MLIR's `(S) value name - description` layout.
OPS_WRAPPED = Statistic("ops-wrapped", "Ops whose calculation was wrapped from the library")
CALCULATIONS = Statistic("calculations-simplified", "Calculations simplified")
MEMO_HITS = Statistic("memo-hits", "Ops refined from the memo of an equal earlier op")
EVALUATED = Statistic("ops-evaluated", "Ops refined by running their library function on constants")
TYPES_REFINED = Statistic("types-refined", "Result types refined")
GUARDS_KEPT = Statistic("guards-kept", "Library checks kept as torch.runtime.assert")


class _NullTimer:
    """The state when timing is off."""

    def timed(self, name: str, fn: F) -> F:
        return fn

    def stage(self, name: str):
        return _NULL_CONTEXT


_NULL_CONTEXT = contextlib.nullcontext()


class StageTimer:
    """Accumulates wall time per stage, nested as the stages nest; one tree per pass run."""

    def __init__(self) -> None:
        self.root = TimerNode("")
        self._stack = [self.root]

    def begin_pass(self) -> TimerNode:
        """A fresh tree for the next pass run; returns its root."""
        self._stack = [TimerNode("")]
        return self._stack[0]

    @contextlib.contextmanager
    def stage(self, name: str):
        node = self._stack[-1].child(name)
        self._stack.append(node)
        start = time.perf_counter()
        try:
            yield node
        finally:
            node.seconds += time.perf_counter() - start
            self._stack.pop()

    def timed(self, name: str, fn: F) -> F:
        def timed_fn(*args, **kwargs):
            with self.stage(name):
                return fn(*args, **kwargs)

        return timed_fn  # type: ignore[return-value]


_timer: StageTimer | _NullTimer = _NullTimer()
_statistics: dict[Statistic, int] | None = None
_stage_printer: Callable[[str, object], None] | None = None


def enable_timing() -> StageTimer:
    global _timer
    if not isinstance(_timer, StageTimer):
        _timer = StageTimer()
    return _timer


def timed(name: str, fn: F) -> F:
    """`fn`, timed as stage `name` while timing is on."""
    return _timer.timed(name, fn)


def stage(name: str):
    """A context timing its body as stage `name` while timing is on."""
    return _timer.stage(name)


def enable_statistics() -> None:
    global _statistics
    _statistics = {}


def statistics_enabled() -> bool:
    return _statistics is not None


def count(statistic: Statistic, value: int) -> None:
    if _statistics is not None:
        _statistics[statistic] = _statistics.get(statistic, 0) + value


def take_statistics() -> dict[Statistic, int]:
    """What was counted since the last call (the pass that just ran), and reset."""
    global _statistics
    if _statistics is None:
        return {}
    taken, _statistics = _statistics, {}
    return taken


def print_after_stages(printer: Callable[[str, object], None] | None) -> None:
    """Have `after_stage` call `printer(stage name, module)` (None: stop)."""
    global _stage_printer
    _stage_printer = printer


def after_stage(name: str, module) -> None:
    """A pass finished stage `name` of its work on `module` (for --mlir-print-ir-after-all)."""
    if _stage_printer is not None:
        _stage_printer(name, module)
