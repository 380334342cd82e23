"""The package reads top-down: no module imports from a higher layer.

Each subpackage (or top-level module) of torch_refine sits in one layer; a module may
import its own subpackage and anything in a lower layer, never a sibling of its own layer
or anything above it. Imports inside functions count too: a lazy import is still a
dependency.
"""

import ast
from pathlib import Path

import pytest

import torch_refine

PACKAGE_ROOT = Path(torch_refine.__file__).parent

# Lowest first. `torch_refine` itself (the lazy facade over api, executor and jit) sits above them.
LAYERS = (
    ("errors", "about"),
    ("symbolic",),
    ("ir",),
    ("calculations", "importer"),
    ("library",),
    ("patterns",),
    ("engine",),
    ("lowering",),
    ("passes",),
    ("driver",),
    ("report",),
    ("executor", "jit"),
    ("api",),
    ("",),  # the facade: lazy names of the layers below, seen by type checkers
    ("examples",),
    ("tools", "__main__"),
)
LAYER_OF = {part: index for index, parts in enumerate(LAYERS) for part in parts}


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE_ROOT.rglob("*.py") if "_generated" not in p.parts)


def _part(module_path: Path) -> str:
    """The layer part of a source file: its subpackage or top-level module name."""
    relative = module_path.relative_to(PACKAGE_ROOT).with_suffix("")
    first = relative.parts[0]
    return "" if first == "__init__" else first


def _imported_parts(module_path: Path):
    """(line, layer part) of every torch_refine import in the file."""
    tree = ast.parse(module_path.read_text(encoding="utf-8"))
    package = ["torch_refine", *module_path.relative_to(PACKAGE_ROOT).parent.parts]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names = [f"{module}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "torch_refine":
                yield node.lineno, parts[1] if len(parts) > 1 else ""


def test_every_part_has_a_layer():
    missing = sorted({_part(path) for path in _modules()} - set(LAYER_OF))
    assert not missing, f"give these a layer in LAYERS: {missing}"


@pytest.mark.parametrize("module_path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE_ROOT)))
def test_no_upward_import(module_path):
    own = _part(module_path)
    upward = [
        f"line {line}: imports torch_refine.{part or '(root)'} (layer {LAYER_OF[part]})"
        for line, part in _imported_parts(module_path)
        if part != own and LAYER_OF[part] >= LAYER_OF[own]
    ]
    assert not upward, f"{own} (layer {LAYER_OF[own]}) imports upward or sideways: {upward}"
