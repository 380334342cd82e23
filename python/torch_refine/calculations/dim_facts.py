"""Symbolic dims: what a shape calculation found about dynamic sizes, kept on the op.

When a shape calculation yields a size that is a polynomial in the dims of the function's
arguments (`%argN[d]`, see `torch_refine.symbolic`), the op it calculated gets the
discardable attribute `torch_refine.dims`: per tensor result, per dim, that polynomial
as text ("" when not known). Later calculations read it back through `aten.size.int` of
the op's results (patterns/symbolic.py), so `view(x, [%batch, 8, -1, 8])` cancels the
batch and finds the `-1`. An attribute dies with its op: nothing refers to erased IR.

A fact is only recorded when the yielded element is that polynomial whenever the
calculation's checks pass.
"""

from __future__ import annotations

from torch_mlir import ir

from torch_refine.calculations import contents, facts, ranges
from torch_refine.calculations.binds import BIND, bound_expression, function_argument
from torch_refine.calculations.lists import literal_elements
from torch_refine.calculations.store import MARKS, FactStore
from torch_refine.ir import types
from torch_refine.ir.constants import NotConstant, constant_value, defining_op, op_key
from torch_refine.ir.module import completing_yields
from torch_refine.symbolic.comparisons import INT_COMPARISONS
from torch_refine.symbolic.polynomial import Polynomial, format_polynomial, is_computed, parse_polynomial
from torch_refine.symbolic.semantics import MEANINGS, names

ATTRIBUTE = "torch_refine.dims"
# On a prim.Loop: per carried value, the dims its body assumes the value has at every
# iteration (its init's), or none; engine/propagate.py checks them.
LOOP_DIMS = "torch_refine.loop_dims"
_CALCULATE_OPS = frozenset({"torch.shape.calculate", "torch.dtype.calculate"})
_MAX_DEPTH = 64


# -- facts on ops -------------------------------------------------------------------


def _facts(op) -> list[list[str]] | None:
    attributes = op.operation.attributes
    if ATTRIBUTE not in attributes:
        return None
    results = ir.ArrayAttr(attributes[ATTRIBUTE])
    return [[ir.StringAttr(d).value for d in ir.ArrayAttr(r)] for r in results]


def expresses_every_dim(op, result_index: int) -> bool:
    """Whether the dims this run derived for a result of `op` (kept with
    `keep-symbolic-dims`) are each a constant or an expression of the function's argument
    dims: no fresh symbol, which is an unknown size."""
    return _every_symbol(op, result_index, lambda s: not is_computed(s) or facts.definition(s) is not None)


def only_argument_dims(op, result_index: int) -> bool:
    """Whether every dim this run derived for a result of `op` is a polynomial in the
    function's argument dims alone: no computed symbol (a select, a quotient), which a
    fact asserted later may still decide."""
    return _every_symbol(op, result_index, lambda s: not is_computed(s))


def _every_symbol(op, result_index: int, test) -> bool:
    """Whether each dim derived for a result of `op` is a polynomial all of whose symbols
    pass `test`."""
    known = _facts(op)
    if known is None or result_index >= len(known) or not known[result_index]:
        return False
    for text in known[result_index]:
        polynomial = parse_polynomial(text)
        if polynomial is None or not all(test(s) for s in polynomial.symbols()):
            return False
    return True


def substitute(op, replacements: dict, run: FactStore) -> bool:
    """Rewrite the dims on `op` with `replacements` (symbol: polynomial) substituted: an
    op not refined again under new equalities still names each size canonically. True
    when a dim became a constant (`L == 5` asserted after the op): its type is to be
    refined again."""
    known = _facts(op)
    if not known or not replacements:
        return False
    rewritten = []
    constant = False
    for result in known:
        dims = []
        for text in result:
            polynomial = parse_polynomial(text) if text else None
            substituted = None if polynomial is None else polynomial.substitute(replacements)
            if substituted is not None and substituted != polynomial:
                constant |= substituted.constant_value() is not None
            dims.append(text if substituted is None else format_polynomial(substituted))
        rewritten.append(dims)
    if rewritten != known:
        _set_facts(op, rewritten, run)
    return constant


def _set_facts(op, dims: list[list[str]], run: FactStore) -> None:
    """Put the dims on `op` (noted in the run's store `run`, to strip); an unknown one ("")
    gets a fresh symbol of its own."""
    run.dims_set = True
    results = [ir.ArrayAttr.get([ir.StringAttr.get(d or format_polynomial(facts.fresh())) for d in result])
               for result in dims]
    op.operation.attributes[ATTRIBUTE] = ir.ArrayAttr.get(results)


def tensor_dims(value: ir.Value, run: FactStore) -> list[str] | None:
    """Per dim of the tensor `value`: its polynomial text, "" when unknown; None when
    nothing is known (unranked, no fact, or a tensor without value semantics, whose sizes
    in-place ops may change). `run`: the run's store, which keeps what the binds say."""
    if not _is_value_tensor(value):
        return None
    while True:
        argument = function_argument(value)
        if argument is not None:
            info = types.parse(value.type)
            if info is None or info.sizes is None:
                return None
            return [
                format_polynomial(_argument_dim(value, dim, run)) if size is None else str(size)
                for dim, size in enumerate(info.sizes)
            ]
        producer = defining_op(value)
        if producer is None:
            return _assumed_carried_dims(value)
        name = producer.operation.name
        if name == "torch.tensor_static_info_cast":
            value = producer.operands[0]
        elif name in _CALCULATE_OPS:
            body_yield = list(producer.regions[0].blocks[0].operations)[-1]
            value = body_yield.operands[value.result_number]
        elif name == "torch.prim.Loop" and (assumed := assumed_result_dims(producer, value.result_number)):
            return assumed
        else:
            known = _facts(producer)
            if known is None:
                known = _name_dims(producer, run)
            if known is None or value.result_number >= len(known):
                return None
            return known[value.result_number]


def assumed_loop_dims(loop) -> list[list[str]]:
    """Per carried value of a loop, the dims its body assumes (`LOOP_DIMS`; [] for none)."""
    if LOOP_DIMS not in loop.attributes:
        return []
    return [[ir.StringAttr(d).value for d in ir.ArrayAttr(dims)]
            for dims in ir.ArrayAttr(loop.attributes[LOOP_DIMS])]


def assumed_result_dims(loop, index: int) -> list[str] | None:
    """The dims a loop's result `index` has under the loop's induction (`LOOP_DIMS`): its
    init's, which each back edge gives again (checked before the loop settles; ops reading
    the result wait for that, engine/propagate.py)."""
    assumed = assumed_loop_dims(loop)
    return assumed[index] if index < len(assumed) and assumed[index] else None


def _assumed_carried_dims(value: ir.Value) -> list[str] | None:
    """A loop body's carried tensor: the dims the loop assumes it keeps (`LOOP_DIMS`)."""
    if not isinstance(value, ir.BlockArgument) or value.arg_number == 0:
        return None
    loop = value.owner.owner
    if loop is None or loop.operation.name != "torch.prim.Loop":
        return None
    return assumed_result_dims(loop, value.arg_number - 1)  # a carried value has its result's index


def _name_dims(producer, run: FactStore) -> list[list[str]] | None:
    """Dims for the results of an op no calculation described: a static size is itself,
    a dynamic one gets a fresh symbol (kept on the op, so every reader sees the same)."""
    dims = []
    for result in producer.results:
        info = types.parse(result.type) if _is_value_tensor(result) else None
        dims.append([] if info is None or info.sizes is None else
                    ["" if size is None else str(size) for size in info.sizes])
    if not any("" in result for result in dims):
        return None
    _set_facts(producer, dims, run)
    return _facts(producer)


def _argument_dim(argument: ir.BlockArgument, dim: int, run: FactStore) -> Polynomial:
    """The symbol of a function argument's dynamic dim. torch.export gives one symbol to
    dims it knows equal (the batch of every input); imported with symbolic shape
    expressions, `torch.bind_symbolic_shape` binds each argument dim to an expression of
    `torch.symbolic_int`s: a constant where export specialized the dim (the type may still
    say `?`), usually a symbol, or a multiple of one (`8 * s0` for an image size exported
    as a multiple of 8). That symbol is the first argument dim bound to it (lowest
    argument, then dim) divided by its multiple there, and the dim is its own multiple
    of that symbol; a symbol whose range holds one value is that value. (Remembered in
    the run's store: finding the bind scans every use of the argument.)"""
    key = (op_key(argument.owner.owner), argument.arg_number, dim)
    if key not in run.argument_dims:
        run.argument_dims[key] = _bound_argument_dim(argument, dim, run)
    return run.argument_dims[key]


def _bound_argument_dim(argument: ir.BlockArgument, dim: int, run: FactStore) -> Polynomial:
    bound = bound_expression(argument, dim, run)
    if bound is None:
        return Polynomial.symbol(argument.arg_number, dim)
    bind, expression = bound
    if isinstance(expression, ir.AffineConstantExpr):
        return Polynomial.constant(expression.value)
    found = _symbol_multiple(expression)
    if found is None:
        return Polynomial.symbol(argument.arg_number, dim)
    position, multiple = found
    symbol = bind.operands[1 + position]
    value = _single_value(symbol)
    if value is not None:
        return Polynomial.constant(multiple * value)
    representatives = run.representatives
    key = op_key(symbol.owner)
    if key not in representatives:
        representatives[key] = _first_bound_dim(symbol, argument.owner)
    return Polynomial.constant(multiple) * Polynomial.symbol(*representatives[key])


def _single_value(symbol: ir.Value) -> int | None:
    """The value of a `torch.symbolic_int` whose range holds only one."""
    if not isinstance(symbol, ir.OpResult) or symbol.owner.name != "torch.symbolic_int":
        return None
    attributes = symbol.owner.attributes
    least, greatest = (ir.IntegerAttr(attributes[name]).value for name in ("min_val", "max_val"))
    return least if least == greatest else None


def _first_bound_dim(symbol: ir.Value, entry_block: ir.Block) -> tuple[int, int, int]:
    """(argument, dim, multiple) of the first argument dim bound to a `torch.symbolic_int`:
    a symbol has a use per bound value (hundreds in a model), so the run's store keeps it."""
    bound = []
    for use in symbol.uses:
        bind = use.owner
        if bind.operation.name != BIND or use.operand_number == 0:
            continue
        tensor = bind.operands[0]
        if not isinstance(tensor, ir.BlockArgument) or tensor.owner != entry_block:
            continue
        position = use.operand_number - 1
        for d, found in enumerate(_symbol_multiples(bind)):
            if found is not None and found[0] == position:
                bound.append((tensor.arg_number, d, found[1]))
    return min(bound)


def _symbol_multiples(bind) -> list[tuple[int, int] | None]:
    """Per dim of a bind's tensor: (position of its symbol, multiple) when it is a symbol
    (multiple 1) or a symbol times a positive constant; None for any other expression."""
    shape = ir.AffineMapAttr(bind.operation.attributes["shape_expressions"]).value
    return [_symbol_multiple(r) for r in shape.results]


def _symbol_multiple(expression) -> tuple[int, int] | None:
    if isinstance(expression, ir.AffineSymbolExpr):
        return expression.position, 1
    if not isinstance(expression, ir.AffineMulExpr):
        return None
    for symbol, multiple in ((expression.lhs, expression.rhs), (expression.rhs, expression.lhs)):
        if isinstance(symbol, ir.AffineSymbolExpr) and isinstance(multiple, ir.AffineConstantExpr):
            return (symbol.position, multiple.value) if multiple.value > 0 else None
    return None


def _is_value_tensor(value: ir.Value) -> bool:
    return str(value.type).startswith("!torch.vtensor")


def dims_key(value: ir.Value, run: FactStore) -> tuple:
    """What a memo key needs beyond the type: the known dims of a dynamic tensor."""
    if "?" not in str(value.type):
        return ()
    dims = tensor_dims(value, run)
    return () if dims is None else tuple(dims)


# -- expressing ints as polynomials -------------------------------------------------


def express(value: ir.Value, run: FactStore, cache: dict | None = None, depth: int = 0) -> Polynomial | None:
    """`value` (an int) as a polynomial over function argument dims, or None; `run` is the
    run's store (its asserted ranges decide comparisons and extremes)."""
    if cache is None:
        cache = {}
    if value in cache:
        return cache[value]
    result = None if depth > _MAX_DEPTH else _express(value, run, cache, depth)
    cache[value] = result
    return result


# The opaque marker patterns/scalars.py puts between a division and its divisor while a
# calculation is simplified (torch-mlir's folders must not see the divisor).
DIVISOR_MARKER = "torch_refine.divisor"


def is_divisor_marker(op) -> bool:
    if op.operation.name != "torch.operator":
        return False
    return ir.StringAttr(op.attributes["name"]).value == DIVISOR_MARKER


def through_divisor_marker(value: ir.Value) -> ir.Value:
    """`value`, or the divisor a marker `value` stands for."""
    producer = defining_op(value)
    return producer.operands[0] if producer is not None and is_divisor_marker(producer) else value


def contents_reader(run: FactStore, cache: dict) -> contents.Reader:
    """The reader of small int tensors' contents through `express` and `tensor_dims`."""
    return contents.Reader(lambda value, known: express(value, run, known), lambda value: tensor_dims(value, run),
                           cache, run)


def _express(value: ir.Value, run: FactStore, cache: dict, depth: int) -> Polynomial | None:
    value = through_divisor_marker(value)
    producer = defining_op(value)
    if producer is None:
        return None
    name = producer.operation.name
    if name == "torch.constant.int":
        return Polynomial.constant(constant_value(value))
    if name == "torch.aten.Int.bool":
        return _express_bool(producer.operands[0], run, cache, depth)
    if name in _ELEMENT_READS:
        return _express_element(producer.operands[0], run, cache)
    if name == "torch.aten.size.int":
        return _express_size(producer, run, cache)
    if name in ("torch.aten.dim", "torch.aten.numel"):
        return _express_rank_or_numel(producer, run, cache)
    if name == "torch.prim.If":
        return _express_if(producer, value.result_number, run, cache, depth)
    if name not in _EXTREMES and name not in _INT_OPS:
        return None
    operands = [express(v, run, cache, depth + 1) for v in producer.operands]
    if any(p is None for p in operands):
        return None
    if name in _EXTREMES:
        return _express_extreme(producer, run, *operands)
    return MEANINGS[name].symbolic(ranges.SizesAlgebra(run), *operands)


def _express_bool(value: ir.Value, run: FactStore, cache: dict, depth: int) -> Polynomial | None:
    """A bool as 0 or 1: a constant, or an int comparison by its meaning over polynomials
    (symbolic/semantics.py: decided by the range of its sides' difference, else the select
    of 1 and 0 on it)."""
    try:
        return Polynomial.constant(int(constant_value(value)))
    except NotConstant:
        pass
    producer = defining_op(value)
    if producer is not None and producer.operation.name in _TRUTH_OF_INT:
        return _express_truth_of_int(producer, run, cache, depth)
    if producer is None or producer.operation.name not in INT_COMPARISONS:
        return None
    lhs, rhs = (express(v, run, cache, depth + 1) for v in producer.operands)
    if lhs is None or rhs is None:
        return None
    return MEANINGS[producer.operation.name].symbolic(ranges.SizesAlgebra(run), lhs, rhs)


_TRUTH_OF_INT = ("torch.aten.Bool.int", "torch.aten.__not__")


def _express_truth_of_int(producer, run: FactStore, cache: dict, depth: int) -> Polynomial | None:
    """`Bool.int(x)` as `x != 0` and `__not__(b)` as `1 - b`: torch-mlir's decomposition
    of an adaptive pool makes its kernel `h // 7 + int(bool(h % 7))`."""
    if producer.operation.name == "torch.aten.__not__":
        inner = _express_bool(producer.operands[0], run, cache, depth + 1)
        return None if inner is None else Polynomial.constant(1) - inner
    operand = express(producer.operands[0], run, cache, depth + 1)
    if operand is None:
        return None
    constant = operand.constant_value()
    if constant is not None:
        return Polynomial.constant(int(constant != 0))
    return facts.truth_of(("torch.aten.ne.int", operand, Polynomial.constant(0)))


# Ops reading the one element of a tensor as an int (contents.py knows the tensor).
_ELEMENT_READS = ("torch.aten.item", "torch.aten.Int.Tensor", "torch.aten.IntImplicit")


def _express_element(tensor: ir.Value, run: FactStore, cache: dict) -> Polynomial | None:
    known = contents_reader(run, cache).contents(tensor)
    if known is None or len(known.elements) != 1:
        return None
    return known.elements[0]


def _express_size(size_op, run: FactStore, cache: dict) -> Polynomial | None:
    try:
        dim = constant_value(size_op.operands[1])
    except NotConstant:
        return None
    info = _shape_info(size_op.operands[0], run, cache)
    if info is None or info.sizes is None or not isinstance(dim, int) or not -info.rank <= dim < info.rank:
        return None
    if info.sizes[dim] is not None:
        return Polynomial.constant(info.sizes[dim])
    dims = tensor_dims(size_op.operands[0], run)
    if dims is None or len(dims) != info.rank:
        return None
    return parse_polynomial(dims[dim])


def _shape_info(tensor: ir.Value, run: FactStore, cache: dict) -> types.TensorInfo | None:
    """The tensor's type, or, where it has no sizes, the shape of its known contents (a
    shape tensor whose type was erased)."""
    info = types.parse(tensor.type)
    if info is not None and info.sizes is not None:
        return info
    known = contents_reader(run, cache).contents(tensor)
    return None if known is None else types.TensorInfo(known.shape, None)


def _express_rank_or_numel(op, run: FactStore, cache: dict) -> Polynomial | None:
    """`aten.dim` or `aten.numel` of a tensor whose type (refined or stated) has a rank:
    the rank, or the product of its dims' polynomials."""
    info = _shape_info(op.operands[0], run, cache)
    if info is None or info.sizes is None:
        return None
    if op.operation.name == "torch.aten.dim":
        return Polynomial.constant(info.rank)
    dims = tensor_dims(op.operands[0], run) if None in info.sizes else [str(s) for s in info.sizes]
    if dims is None or len(dims) != info.rank or "" in dims:
        return None
    product = Polynomial.constant(1)
    for dim in dims:
        product = product * parse_polynomial(dim)
    return product


def _express_if(if_op, index: int, run: FactStore, cache: dict, depth: int) -> Polynomial | None:
    """An If result: the polynomial all its completing branches yield, or, where both
    branches complete on an int comparison, the select of the two (the fact store's:
    `1 if h == 1 else h`, a broadcast's size, is `h`)."""
    yielded = [express(t.operands[index], run, cache, depth + 1) for t in completing_yields(if_op)]
    if not yielded or None in yielded:
        return None
    if all(polynomial == yielded[0] for polynomial in yielded):
        return yielded[0]
    condition = defining_op(if_op.operands[0])
    if len(yielded) != 2 or condition is None or condition.operation.name not in INT_COMPARISONS:
        return None
    sides = [express(v, run, cache, depth + 1) for v in condition.operands]
    if None in sides:
        return None
    return facts.select((condition.operation.name, *sides), *yielded)


def _express_extreme(producer, run: FactStore, a: Polynomial, b: Polynomial) -> Polynomial | None:
    """`prim.max.int` (`a >= b` picks a) or `prim.min.int` (`a <= b`): the side the range
    of the difference picks (a constant, or the function's ranges: MPT's position bias row
    `1 - max(0, 1 - seq)` is 1 where seq >= 2); else the symbol of `a if a <test> b else b`
    (the evaluator's select)."""
    function = ranges.enclosing_function(producer)
    entry = None if function is None else function.regions[0].blocks[0]
    is_max = producer.operation.name == "torch.prim.max.int"
    least, greatest = ranges.polynomial_range(a - b if is_max else b - a, entry, run)  # a is picked where >= 0
    if least is not None and least >= 0:
        return a
    if greatest is not None and greatest < 0:
        return b
    return facts.select(("torch.aten.ge.int" if is_max else "torch.aten.le.int", a, b), a, b)


_EXTREMES = ("torch.prim.max.int", "torch.prim.min.int")
_INT_OPS = frozenset(names(result="int", symbolic=True))  # their meanings: symbolic/semantics.py


# -- recording ----------------------------------------------------------------------


def record(wrapped, yield_shapes, memo: dict, key, run: FactStore) -> list[list[Polynomial | None]] | None:
    """Put on `wrapped` the dims its calculation yields as polynomials (and remember
    them under the memo key, for ops that reuse the calculation; `run` is the run's
    store). Returns them per result ([] for a literal changed after it is built), None
    when nothing is recorded."""
    yielded = list(yield_shapes.operands)
    results = list(wrapped.operation.results)
    if len(yielded) != len(results) or not all(_is_value_tensor(r) for r in results):
        return None
    cache: dict = {}
    polynomials = [_yielded_dims(v, run, cache) for v in yielded]
    found = _facts_of(polynomials)
    if key is not None:
        memo[(ATTRIBUTE, key)] = found
    if found is not None:
        _set_facts(wrapped, found, run)
    return polynomials


def remember(wrapped, sizes: list[list], memo: dict, key) -> None:
    """Remember under the memo key the dims an evaluation found (per result of `wrapped`,
    ints, polynomials and None for unknown sizes): `restore` puts them on the op."""
    results = list(wrapped.operation.results)
    if len(sizes) != len(results) or not all(_is_value_tensor(r) for r in results):
        return
    polynomials = [[_as_size(d if d is None or isinstance(d, Polynomial) else Polynomial.constant(d))
                    for d in result] for result in sizes]
    memo[(ATTRIBUTE, key)] = _facts_of(polynomials)


def _facts_of(polynomials: list[list[Polynomial | None]]) -> list[list[str]] | None:
    """The attribute's texts ("" for an unknown dim); None when every dim is a constant
    (the types say it all)."""
    if all(p is not None and p.constant_value() is not None for result in polynomials for p in result):
        return None
    return [["" if p is None else format_polynomial(p) for p in result] for result in polynomials]


def restore(wrapped, memo: dict, key, run: FactStore) -> None:
    """On a memo hit, the dims the first op's calculation found."""
    found = memo.get((ATTRIBUTE, key)) if key is not None else None
    if found is not None and len(found) == len(wrapped.operation.results):
        _set_facts(wrapped, found, run)


def _yielded_dims(value: ir.Value, run: FactStore, cache: dict) -> list[Polynomial | None]:
    """The yielded list literal's elements as polynomials; [] when the literal is
    changed after it is built (then it does not state the sizes)."""
    elements = literal_elements(value)
    return [] if elements is None else [_as_size(express(element, run, cache)) for element in elements]


def _as_size(polynomial: Polynomial | None) -> Polynomial | None:
    """A negative constant is no size (the refinement reads it as unknown too)."""
    value = None if polynomial is None else polynomial.constant_value()
    return None if value is not None and value < 0 else polynomial


def strip(module: ir.Operation, names: tuple = (ATTRIBUTE, *MARKS)) -> None:
    """Remove every symbolic dims attribute and guard mark (or the attributes `names`): at
    a pass run's start and end (each run has a fact store of its own)."""
    remove_attributes(module, names)


def remove_attributes(module: ir.Operation, names: tuple = (ATTRIBUTE,)) -> None:
    """Remove the attributes `names` from every op, touching no process-wide state (a
    caller outside a pass run: another thread's run may be using the store)."""

    def visit(op):
        for name in names:
            if name in op.attributes:
                del op.attributes[name]
        return ir.WalkResult.ADVANCE

    module.walk(visit)


def strip_derived(module: ir.Operation, facts_store: FactStore) -> None:
    """Remove the attributes put on ops since the last `strip` (which removed those of the
    input; `facts_store`, the run's, marked asserts): without a walk when there are none,
    as on a module whose sizes are constants."""
    if facts_store.dims_set or facts_store.any_marked():
        strip(module)
