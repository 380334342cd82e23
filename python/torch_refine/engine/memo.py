"""Memo keys: what determines the types an op's calculation finds.

Ops with the same name, attributes, operand types, operand values and operand aliasing
pattern calculate the same types. An operand value is known to the key as a constant, as a
polynomial over the function's argument dims (`dim_facts.express`: the same polynomial is
the same number), or, for an unmutated list literal, element by element (constants,
polynomials, tensor types with their symbolic dims); of each operand the key keeps only
what the library function sees (`views`)."""

from __future__ import annotations

import functools

from torch_mlir import ir

from torch_refine.calculations import dim_facts
from torch_refine.calculations.kind import RANK_DTYPE, SIZES, UNREAD
from torch_refine.calculations.lists import literal_elements
from torch_refine.calculations.store import FactStore
from torch_refine.ir import types
from torch_refine.ir.constants import NotConstant, constant_value
from torch_refine.ir.retype import most_precise_alias
from torch_refine.symbolic.polynomial import format_polynomial


def memo_key(wrapped, result_count: int, run: FactStore, describe=None, views: tuple = (),
             range_signature: tuple = (), type_text=str) -> tuple | None:
    """What determines the types an op's calculation finds; None when a scalar or list
    operand is not known at compile time (`run`: the run's fact store, which keeps what
    the binds say). `describe(value)` gives what is known of a non-constant scalar or
    list (default `operand_fact`). `views`, one per operand when
    given (`LibraryCloner.parameter_views`), narrow what counts of it: nothing when the
    function never reads it, a tensor's sizes (and symbolic dims) when the function sees
    only those, its rank and dtype when it sees only those. `range_signature`: the ranges
    of the function's symbolic sizes, which simplification may read. `type_text(type)`
    is a type's text (`types.TypeCache.text` saves printing it again)."""
    describe = describe or functools.partial(operand_fact, run=run)
    operation = wrapped.operation
    parts: list = [operation.name, result_count, range_signature]
    attributes = operation.attributes  # iterating yields names; indexing, NamedAttributes
    if len(attributes):  # the op's own; not refinement's marks (`torch_refine.*`)
        parts += sorted((attributes[i].name, str(attributes[i].attr)) for i in range(len(attributes))
                        if not attributes[i].name.startswith("torch_refine."))
    operands = list(operation.operands)
    if len(views) != len(operands):
        views = (None,) * len(operands)
    seen: list = []
    for operand, view in zip(operands, views, strict=True):
        if view == UNREAD:
            continue
        operand = most_precise_alias(operand)  # what the calculation reads (reify)
        text = type_text(operand.type)
        info = types.parse_text(text)
        if info is not None:
            alias = next((i for i, v in enumerate(seen) if v == operand), len(seen))
            seen.append(operand)
            parts.append(("tensor", alias, *_tensor_key(operand, text, info, view, run)))
            continue
        seen.append(operand)
        try:
            parts.append(("constant", text, constant_value(operand)))
            continue
        except NotConstant:
            pass
        fact = describe(operand)
        if fact is None:
            return None
        parts.append((text, fact))
    return tuple(parts)


def _tensor_key(operand: ir.Value, type_text: str, info: types.TensorInfo, view, run: FactStore) -> tuple:
    if view == RANK_DTYPE:
        return (view, info.rank, info.dtype)
    dims = dim_facts.dims_key(operand, run) if "?" in type_text else ()
    return (view, info.sizes, *dims) if view == SIZES else (type_text, *dims)


def operand_fact(value: ir.Value, run: FactStore, cache: dict | None = None) -> tuple | None:
    """A non-constant scalar or list operand as a memo key knows it: ("polynomial", text)
    for an int; for an unmutated list literal, ("list", per element a constant, polynomial
    or tensor fact); None otherwise. `cache` holds ints already expressed."""
    cache = {} if cache is None else cache
    elements = literal_elements(value)
    if elements is None:
        return _element_fact(value, run, cache)
    facts = tuple(_element_fact(e, run, cache) for e in elements)
    return None if None in facts else ("list", facts)


def _element_fact(value: ir.Value, run: FactStore, cache: dict) -> tuple | None:
    try:
        return ("constant", constant_value(value))
    except NotConstant:
        pass
    type_text = str(value.type)
    if types.parse_text(type_text) is not None:
        value = most_precise_alias(value)  # what the calculation reads (reify)
        return ("tensor", str(value.type), *dim_facts.dims_key(value, run))
    if type_text != "!torch.int":
        return None
    polynomial = dim_facts.express(value, run, cache)
    return None if polynomial is None else ("polynomial", format_polynomial(polynomial))
