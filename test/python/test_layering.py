"""The package reads top-down: no module imports from a higher layer.

Each subpackage (or top-level module) of torch_refine sits in one layer; a module may
import its own subpackage and anything in a lower layer, never a sibling of its own layer
or anything above it. Imports inside functions count too: a lazy import is still a
dependency.
"""

import ast
import re
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


def _imported_names(module_path: Path):
    """(line, dotted name) of every torch_refine name the file imports, in functions too."""
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
            if name.split(".")[0] == "torch_refine":
                yield node.lineno, name


def _imported_parts(module_path: Path):
    """(line, layer part) of every torch_refine import in the file."""
    for line, name in _imported_names(module_path):
        parts = name.split(".")
        yield line, parts[1] if len(parts) > 1 else ""


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


def _module_name(module_path: Path) -> str:
    relative = module_path.relative_to(PACKAGE_ROOT).with_suffix("")
    parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
    return ".".join(["torch_refine", *parts])


MODULES = {_module_name(path): path for path in _modules()}


def _imported_module(name: str) -> str:
    """The module a dotted import name reads: the longest prefix that is one of ours."""
    parts = name.split(".")
    return next(".".join(parts[:n]) for n in range(len(parts), 0, -1) if ".".join(parts[:n]) in MODULES)


def _cycle_from(start: str, graph: dict) -> list[str] | None:
    """A path of imports from `start` back to it, if any."""
    stack = [(start, [start])]
    seen = set()
    while stack:
        module, path = stack.pop()
        for imported in graph[module]:
            if imported == start:
                return [*path, start]
            if imported not in seen:
                seen.add(imported)
                stack.append((imported, [*path, imported]))
    return None


# Imports that close a cycle, each until the code it needs moves below the importer.
CYCLE_EXCEPTIONS = {
    # facts' normal form of a quotient asks the relaxation of quotients (`constant_quotient`,
    # 96ebf03), which reads facts' definitions: to move below facts, taking them as data.
    ("torch_refine.calculations.facts", "torch_refine.calculations.ranges"),
    # the store's range of a remainder asks ranges (`remainder_bounds`), which read the
    # asserted ranges of the run's store they are given (`run: FactStore`): to move below
    # the store with the remainder keys it reads.
    ("torch_refine.calculations.store", "torch_refine.calculations.ranges"),
}


def _import_graph(part: str) -> dict[str, set[str]]:
    """Module -> the modules of the same subpackage it imports (in-function imports too)."""
    inside = {name for name, path in MODULES.items() if _part(path) == part and not name.endswith(f".{part}")}
    return {
        name: {imported for _, imported_name in _imported_names(MODULES[name])
               if (imported := _imported_module(imported_name)) in inside and imported != name}
        for name in inside
    }


@pytest.mark.parametrize("part", sorted({_part(path) for path in _modules()} - {""}))
def test_no_import_cycle_inside_a_subpackage(part):
    """The modules of one subpackage import each other as a DAG (in-function imports count)."""
    graph = {name: {imported for imported in imports if (name, imported) not in CYCLE_EXCEPTIONS}
             for name, imports in _import_graph(part).items()}
    inside = set(graph)
    cycles = [cycle for name in sorted(inside) if (cycle := _cycle_from(name, graph))]
    assert not cycles, f"import cycles in {part}/: {[' -> '.join(cycle) for cycle in cycles]}"


@pytest.mark.parametrize(("importer", "imported"), sorted(CYCLE_EXCEPTIONS))
def test_each_cycle_exception_still_closes_a_cycle(importer, imported):
    graph = _import_graph(MODULES[importer].relative_to(PACKAGE_ROOT).parts[0])
    assert imported in graph[importer], f"remove ({importer}, {imported}) from CYCLE_EXCEPTIONS"
    assert _cycle_from(importer, graph) is not None, f"remove ({importer}, {imported}) from CYCLE_EXCEPTIONS"


# -- docs/design.md draws this layout, docs/facts.md names its modules ------------------------

REPOSITORY = Path(__file__).resolve().parents[2]
DOCS = REPOSITORY / "docs"
_SECTION = re.compile(r"^### `([\w/]+)`", re.M)
_CODE = re.compile(r"`([^`\n]+)`")


def _documented_modules() -> dict[str, set[str]]:
    """Per package of docs/design.md's "Modules" (`torch_refine/` for the top level), the
    `*.py` files its section names."""
    text = (DOCS / "design.md").read_text(encoding="utf-8")
    modules = text[text.index("\n## Modules\n"):]
    modules = modules[: modules.index("\n## ", 1)]
    sections = _SECTION.split(modules)[1:]
    return {package.strip("/"): {code for code in _CODE.findall(body) if re.fullmatch(r"\w+\.py", code)}
            for package, body in zip(sections[::2], sections[1::2])}


def _files_of(package: str) -> set[str]:
    directory = PACKAGE_ROOT if package == "torch_refine" else PACKAGE_ROOT / package
    return {path.name for path in directory.glob("*.py")}


def test_design_doc_lists_every_package():
    packages = {path.name for path in PACKAGE_ROOT.iterdir()
                if path.is_dir() and not path.name.startswith("__") and any(path.glob("*.py"))}
    assert set(_documented_modules()) == packages | {"torch_refine"}


@pytest.mark.parametrize("package", sorted(_documented_modules()))
def test_design_doc_lists_every_module_of_a_package(package):
    documented, on_disk = _documented_modules()[package], _files_of(package)
    assert documented <= on_disk, f"docs/design.md names modules {package}/ lacks: {sorted(documented - on_disk)}"
    missing = on_disk - documented - {"__init__.py"}
    assert not missing, f"docs/design.md does not say what these {package}/ modules hold: {sorted(missing)}"


def _top_level_names(path: Path) -> set[str]:
    names = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return names


def _module_files(parts: list[str]) -> list[tuple[Path, list[str]]]:
    """(file, the names after it) for a dotted reference: a path from the package root
    (`engine.refine.refine`), or a module's own name (`facts.quotient`)."""
    for count in range(len(parts), 0, -1):
        for candidate in (PACKAGE_ROOT.joinpath(*parts[:count]).with_suffix(".py"),
                          PACKAGE_ROOT.joinpath(*parts[:count], "__init__.py")):
            if candidate.is_file():
                return [(candidate, parts[count:])]
    return [(path, parts[1:]) for path in _modules() if path.stem == parts[0]]


def _stale_references(doc: str) -> list[str]:
    """The module paths (`engine/guards.py`) and dotted names (`ranges.symbol_range`) a
    doc names that the package does not have."""
    stale = []
    for code in _CODE.findall((DOCS / doc).read_text(encoding="utf-8")):
        if re.fullmatch(r"[\w/]+\.py", code):
            python_files = [*_modules(), *(REPOSITORY / "test").rglob("*.py")]
            if not any(path.as_posix().endswith(f"/{code}") for path in python_files):
                stale.append(code)
        elif re.fullmatch(r"[a-z_]+(\.\w+)+", code):
            files = _module_files(code.split("."))
            if files and not any(not rest or rest[0] in _top_level_names(path) for path, rest in files):
                stale.append(code)
    return stale


@pytest.mark.parametrize("doc", ["design.md", "facts.md"])
def test_docs_name_modules_and_functions_that_exist(doc):
    assert not _stale_references(doc)


# -- engine modules stay small (issue 41) -------------------------------------------------

MAX_MODULE_LINES, MAX_FUNCTION_LINES = 600, 60
SIZE_LIMITED = ("symbolic", "calculations", "engine")


def _sizes(module_path: Path):
    """(name, lines) of the module and of each function or method in it."""
    text = module_path.read_text(encoding="utf-8")
    relative = module_path.relative_to(PACKAGE_ROOT).as_posix()
    yield relative, len(text.splitlines()), MAX_MODULE_LINES
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield f"{relative}::{node.name}", node.end_lineno - node.lineno + 1, MAX_FUNCTION_LINES


@pytest.mark.parametrize("module_path", [p for p in _modules() if _part(p) in SIZE_LIMITED],
                         ids=lambda p: str(p.relative_to(PACKAGE_ROOT)))
def test_engine_modules_and_functions_stay_small(module_path):
    over = [f"{name}: {lines} lines (at most {limit})" for name, lines, limit in _sizes(module_path)
            if lines > limit]
    assert not over, over
