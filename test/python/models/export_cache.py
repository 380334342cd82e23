"""Exported Torch-dialect IR of the corpus, exported once per test session.

pytest-xdist workers share one directory (the parent of their base temp dirs), so a model
exported by one worker is read by the others; writes are atomic, so a race only costs a
second export. The text keeps the importer's source locations (debug info).
"""

from __future__ import annotations

import os
from pathlib import Path

from .corpus import BY_NAME, export_torch_ir


def variant_name(dynamic: bool) -> str:
    return "dynamic" if dynamic else "static"


def exported_ir(name: str, dynamic: bool, cache_dir: Path, output_type: str = "torch") -> str:
    suffix = "" if output_type == "torch" else f".{output_type}"
    path = cache_dir / f"{name}-{variant_name(dynamic)}{suffix}.mlir"
    if path.exists():
        return path.read_text()
    module = export_torch_ir(BY_NAME[name], dynamic, output_type=output_type)
    text = module.operation.get_asm(enable_debug_info=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    partial.write_text(text)
    os.replace(partial, path)
    return text


def session_cache_dir(tmp_path_factory) -> Path:
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    path = root / "corpus-ir"
    path.mkdir(exist_ok=True)
    return path


def variants() -> list:
    """pytest params (name, dynamic) for every corpus model, static and dynamic batch."""
    import pytest

    from .corpus import MODELS

    return [
        pytest.param(case.name, dynamic, id=f"{case.name}-{variant_name(dynamic)}")
        for case in MODELS
        for dynamic in (False, True)
    ]
