"""What refined IR needs before torch-mlir's backend pipelines: decompositions and the
backend preparation (docs/backends.md)."""
