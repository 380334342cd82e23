"""Command-line tools: `torch-refine-opt` (tools/opt.py)."""
