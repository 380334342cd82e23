"""Rewrite patterns for the calculation regions, grouped by op family.

Each family module exposes `patterns(options) -> list[(root op name, fn)]`; a pattern is
`fn(op, rewriter)` that starts with guard clauses returning True (no match) and returns
None after it changed the IR (the greedy driver's inverted convention).
"""
