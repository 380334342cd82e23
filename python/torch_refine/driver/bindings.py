"""Load the MLIR bindings for a command-line tool, fast: import this before `torch_mlir.ir`.

torch_mlir.ir imports numpy only to register DenseElementsAttr builders of generated op
classes, which the tools do not use; numpy's import is a third of start-up. It is hidden
while the bindings load, unless something imported it already; a later `import numpy` works.
"""

import sys

if "numpy" not in sys.modules:
    sys.modules["numpy"] = None  # type: ignore[assignment]
    try:
        import torch_mlir.ir  # noqa: F401
    finally:
        del sys.modules["numpy"]
