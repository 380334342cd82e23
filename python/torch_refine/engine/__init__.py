"""The refinement engine: reify, inline, simplify, evaluate, drop, guards, propagation
through control flow, the per-op refinement loop and its clean-up (docs/design.md)."""
