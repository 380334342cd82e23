"""`python -m torch_refine`: the versions a bug report needs, and where things are."""

import os

from torch_refine.about import version_text


def main() -> None:
    package = os.path.dirname(os.path.abspath(__file__))
    print(version_text("torch_refine"))
    print(f"package: {package}")
    print(f"embedded library: {os.path.join(package, 'library', '_generated')}")
    print("commands: torch-refine-opt (mlir-opt's flags), torch-refine-ops (library coverage),")
    print("          torch-refine-signature (a new function's signature)")
    print("docs: README.md and docs/ in the source tree (python-api.md, driver.md, passes.md)")


if __name__ == "__main__":
    main()
