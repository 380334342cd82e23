"""Rewrite patterns for the calculation regions, grouped by op family.

Each family module exposes `patterns(options, run) -> list[(root op name, fn)]` (`run`: the
run's fact store, bound to the patterns that read it); a pattern is `fn(op, rewriter)` that
starts with guard clauses returning True (no match) and returns None after it changed the
IR (the greedy driver's inverted convention).
"""
