"""The versions a bug report needs, read from the installed packages' metadata (nothing is
imported: `torch-refine-opt --version` stays fast)."""

from __future__ import annotations

import os
import platform
from importlib import metadata

PACKAGES = ("torch-refine", "torch-mlir", "torch")


def versions() -> dict[str, str]:
    """torch-refine's, torch-mlir's, torch's and Python's versions ("not installed" for a
    package pip does not know, as in a source tree run without installing)."""
    found = {}
    for package in PACKAGES:
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = "not installed"
    found["python"] = platform.python_version()
    return found


def version_text(tool: str) -> str:
    """`tool (torch-refine X)` and a line per dependency: what `--version` prints."""
    found = versions()
    lines = [f"{tool} (torch-refine {found.pop('torch-refine')})"]
    lines += [f"  {name} {version}" for name, version in found.items()]
    return "\n".join(lines)


def cache_dir() -> str:
    """$TORCH_REFINE_CACHE_DIR, else torch-refine/ in $XDG_CACHE_HOME or ~/.cache."""
    if explicit := os.environ.get("TORCH_REFINE_CACHE_DIR"):
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "torch-refine")
