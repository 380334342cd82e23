"""The engine's pure algebra: no MLIR, no torch (docs/design.md, layer 1)."""
