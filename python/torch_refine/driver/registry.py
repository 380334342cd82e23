"""Every pass the driver runs by name: torch-refine's own (the `passes` registry) and those
that other installed packages register under the `torch_refine.passes` entry-point group,
as MLIR's pass plugins add passes to mlir-opt (docs/driver.md, "Third-party passes").

A package declares, in its pyproject.toml,

    [project.entry-points."torch_refine.passes"]
    my-pass = "my_package.my_pass:MyPass"

where `MyPass` is a `torch_refine.passes.base.ModulePass` whose `name` is `my-pass`. The
module is imported only when the pass is used or `--help` describes it.
"""

from __future__ import annotations

import functools
import typing
from importlib import metadata
from typing import NamedTuple

from torch_refine import passes
from torch_refine.passes.base import ModulePass

ENTRY_POINT_GROUP = "torch_refine.passes"


class PluginError(Exception):
    """A registered third-party pass that cannot be loaded or is not a ModulePass."""


@functools.cache
def _plugins() -> dict[str, metadata.EntryPoint]:
    """Third-party passes by name; a name torch-refine itself registers is not taken."""
    found = metadata.entry_points(group=ENTRY_POINT_GROUP)
    return {entry.name: entry for entry in found if not passes.is_registered(entry.name)}


def names() -> list[str]:
    return sorted([*passes.names(), *_plugins()])


def is_registered(name: str) -> bool:
    return passes.is_registered(name) or name in _plugins()


def provider(name: str) -> str | None:
    """The distribution that registers a third-party pass; None for torch-refine's own."""
    if (entry := _plugins().get(name)) is None:
        return None
    return entry.dist.name if entry.dist is not None else "unknown"


@functools.cache
def get(name: str) -> type[ModulePass]:
    """The pass class; raises PluginError, naming the package, for a third-party pass that
    fails to load."""
    if passes.is_registered(name):
        return passes.get(name)
    entry = _plugins()[name]
    where = f"pass '{name}' of package '{provider(name)}' ({entry.value})"
    try:
        pass_class = entry.load()
    except Exception as error:
        raise PluginError(f"cannot load {where}: {type(error).__name__}: {error}") from error
    if not (isinstance(pass_class, type) and issubclass(pass_class, ModulePass)):
        raise PluginError(f"{where} is not a torch_refine.passes.base.ModulePass subclass")
    if getattr(pass_class, "name", None) != name:
        raise PluginError(f"{where} is named '{getattr(pass_class, 'name', None)}', not '{name}'")
    return pass_class


class OptionRow(NamedTuple):
    flag: str  # `max-iterations`, as written in `{key=value}`
    kind: str  # bool, int or str
    default: str  # as written on a command line
    help: str


def option_rows(pass_class: type[ModulePass]) -> list[OptionRow]:
    """A pass's options as `--help`, `--list-passes` and docs/passes.md show them."""
    hints = typing.get_type_hints(pass_class)
    rows = []
    for field in pass_class.options():
        kind = hints[field.name]
        default = field.default
        shown = str(default).lower() if isinstance(default, bool) else (str(default) or '""')
        rows.append(OptionRow(field.name.replace("_", "-"), kind.__name__, shown, field.metadata.get("help", "")))
    return rows


def describe(name: str, indent: str = "  ") -> list[str]:
    """The lines `--help` and `--list-passes` print for a pass: its description, then one
    line per option with its type, default and help."""
    try:
        pass_class = get(name)
    except PluginError as error:  # --help still lists the rest
        return [f"(not loaded: {error})"]
    lines = [pass_class.description]
    if (package := provider(name)) is not None:
        lines[0] += f" [from {package}]"
    for row in option_rows(pass_class):
        help_text = f": {row.help}" if row.help else ""
        lines.append(f"{indent}--{row.flag}=<{row.kind}> (default {row.default}){help_text}")
    return lines
