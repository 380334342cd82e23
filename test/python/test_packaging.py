"""What the wheel installs (issue 29.3, 29.10): console scripts that only read and print
(regenerating the embedded library is a developer tool, build_tools/, which never rewrites
an installed package), and the metadata an index page shows."""

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]


def test_console_scripts_are_the_tools():
    scripts = PROJECT["scripts"]
    assert sorted(scripts) == ["torch-refine-ops", "torch-refine-opt", "torch-refine-signature"]
    assert all(target.startswith("torch_refine.tools.") for target in scripts.values())


def test_regeneration_is_a_build_tool():
    script = (REPO / "build_tools" / "update_abstract_interp_lib.sh").read_text()
    assert "torch_refine.library.generate" in script


def test_metadata_for_an_index_page():
    assert PROJECT["license"] == "Apache-2.0 WITH LLVM-exception"
    assert "Topic :: Software Development :: Compilers" in PROJECT["classifiers"]


def test_an_installed_package_is_not_regenerated_in_place(tmp_path, monkeypatch):
    from torch_refine.library import generate

    monkeypatch.setattr(generate, "__file__", str(tmp_path / "site-packages" / "torch_refine" / "library" / "generate.py"))
    assert not generate._in_source_checkout()
    assert generate.main([]) == 2


def test_the_checkout_is_a_source_checkout():
    from torch_refine.library import generate

    assert generate._in_source_checkout()
