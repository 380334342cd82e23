"""The calculation-function library: Python sources (one module per op family) and the
generated MLIR module embedded beside them in `_generated/`."""
