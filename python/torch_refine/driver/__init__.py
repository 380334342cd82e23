"""The torch-refine-opt driver: pipeline text syntax, the pass-manager adapter (the only
code that hands Python passes to MLIR's PassManager), `--verify-diagnostics` and `OptMain`."""
