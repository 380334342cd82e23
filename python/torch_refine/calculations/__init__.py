"""The vocabulary of calculations: the shape and dtype `CalculationKind`s, library symbols,
the list ops the passes reason about, which ops are pure, and symbolic dim facts."""
