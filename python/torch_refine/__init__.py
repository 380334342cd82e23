"""torch-refine: shape and dtype refinement for Torch-dialect MLIR.

Importing this package is cheap: nothing here imports torch. The PyTorch-facing
API (export_and_import, execute) imports torch on first use.
"""
