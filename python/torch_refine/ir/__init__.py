"""IR utilities with no knowledge of calculations: the context, tensor types, constants,
retyping values in place, erasing types, polynomials over dims, parsing and diagnostics."""
