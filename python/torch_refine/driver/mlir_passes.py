"""The passes and pipelines MLIR and torch-mlir register, as `--help` and `--list-passes`
list them beside torch-refine's.

The bindings can run any registered pass by name but cannot enumerate MLIR's registry. So
the listing is built once per torch-mlir install and cached: the names are those the
wheel's `torch-mlir-opt --help` describes (with their descriptions and options) and the
pass-like strings of the bindings' library, and a name is listed only where the bindings'
pipeline parser accepts it on a module or on its functions, as the driver runs it. A pass
torch-mlir-opt does not describe is listed with the options and defaults the parser prints.
"""

from __future__ import annotations

import functools
import os
import re
from importlib import metadata
from pathlib import Path
from typing import NamedTuple

from torch_mlir import ir
from torch_mlir import passmanager as mlir_passmanager

from torch_refine.about import cache_dir
from torch_refine.driver import bindings, pipeline_syntax
from torch_refine.driver.timing import captured_stderr_fd
from torch_refine.ir.context import create_context

FUNCTION_ANCHOR = "func.func"


class MlirPass(NamedTuple):
    name: str
    pipeline: bool
    description: str
    options: list[tuple[str, str]]  # ("--max-iterations=<long>", help) or ("=normal", help) for a value


def anchor_of(name: str) -> str | None:
    """"" for a pass the bindings run on the module, `func.func` for one that runs on
    functions only, None for a name MLIR does not register. Only the bare name is probed:
    MLIR prints a bad option's error itself, on every parse."""
    with ir.Context():
        return _anchor_in_context(name)


def _anchor_in_context(name: str) -> str | None:
    for anchor in ("", FUNCTION_ANCHOR):
        try:
            _parse(name, anchor)
        except ValueError:
            continue
        return anchor
    return None


def _parse(name: str, anchor: str) -> str:
    element = f"{anchor}({name})" if anchor else name
    return str(mlir_passmanager.PassManager.parse(f"{pipeline_syntax.ROOT_ANCHOR}({element})"))


@functools.cache
def listing() -> tuple[MlirPass, ...]:
    """Every pass and pipeline MLIR registers in the bindings, by name; from the cache
    when this torch-mlir install was listed before."""
    import json  # here and below: only the listings need them, and they cost start-up
    import tempfile

    path = _cache_path()
    try:
        with open(path, encoding="utf-8") as file:
            return tuple(MlirPass(name, pipeline, description, [tuple(o) for o in options])
                         for name, pipeline, description, options in json.load(file))
    except (OSError, ValueError, TypeError):  # not cached yet, or a cache of another shape
        pass
    found = _build()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=os.path.dirname(path))
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            json.dump(found, file)
        os.replace(temporary, path)  # atomic: a concurrent run reads the old file or this one
    except OSError:
        pass  # an unwritable cache costs the next listing the build, nothing else
    return tuple(found)


def _binary() -> Path | None:
    found = [p for p in bindings.libraries_dir().glob("torch-mlir-opt*") if p.is_file()]
    return found[0] if found else None


def _cache_path() -> str:
    """Named by torch-mlir's version and the binaries' sizes and times."""
    import hashlib

    digest = hashlib.sha256(metadata.version("torch-mlir").encode())
    binary = _binary()
    for source in [*bindings.aggregate_libraries(), *([binary] if binary is not None else [])]:
        stat = source.stat()
        digest.update(f"{source.name} {stat.st_size} {stat.st_mtime_ns}".encode())
    return os.path.join(cache_dir(), f"mlir-passes-{digest.hexdigest()[:16]}.json")


def _build() -> list[MlirPass]:
    described = _described_by_binary()
    candidates = sorted(set(described) | _library_strings())
    found = []
    with create_context(), captured_stderr_fd():  # a candidate that fails may print
        for name in candidates:
            if (anchor := _anchor_in_context(name)) is None:
                continue
            printed = _parse(name, anchor)
            pipeline = re.search(rf"\({re.escape(name)}[{{)]", printed) is None
            if name in described:
                found.append(MlirPass(name, pipeline, *described[name]))
                continue
            options = [] if pipeline else _printed_options(name, printed)
            found.append(MlirPass(name, pipeline, "", options))
    return found


_ENTRY = re.compile(r"^      --([a-z0-9][\w.-]*?)\s*-   (.*)$")
_OPTION = re.compile(r"^\s+(--\S+?|=\S+?)\s*- {1,3}(.*)$")


def _described_by_binary() -> dict[str, tuple[str, list[tuple[str, str]]]]:
    """name -> (description, options) from the pass sections of `torch-mlir-opt --help`."""
    import subprocess

    binary = _binary()
    if binary is None:
        return {}
    try:
        text = subprocess.run([str(binary), "--help"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    described: dict[str, tuple[str, list[tuple[str, str]]]] = {}
    in_passes, current = False, None
    for line in text.splitlines():
        if line.strip() in ("Passes:", "Pass Pipelines:"):
            in_passes = True
            continue
        if not in_passes or not line.startswith("    "):
            in_passes = False
            continue
        if (entry := _ENTRY.match(line)) is not None:
            current = entry.group(1)
            described[current] = (entry.group(2).strip(), [])
        elif current is not None and (option := _OPTION.match(line)) is not None:
            described[current][1].append((option.group(1), option.group(2).strip()))
    return described


_NAME = re.compile(rb"(?<=\0)[a-z][a-z0-9]*(?:[-.][a-z0-9]+)*(?=\0)")


def _library_strings() -> set[str]:
    """The NUL-terminated strings of the bindings' library that look like pass names."""
    import mmap

    names = set()
    for library in bindings.aggregate_libraries():
        with open(library, "rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
            names |= {found.decode() for found in _NAME.findall(data)}
    return names


_EMPTY = '""'


def _printed_options(name: str, printed: str) -> list[tuple[str, str]]:
    """`--key (default value)` for each option of the pass as MLIR prints its defaults."""
    pending = list(pipeline_syntax.parse(printed).elements)
    while pending:
        element = pending.pop()
        if element.name == name:
            options = pipeline_syntax.split_options(element.options or "")
            return [(f"--{key}", f"(default {value or _EMPTY})") for key, value in options]
        pending += element.nested or ()
    return []
