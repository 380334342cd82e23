"""A pre-pass over an ExportedProgram's FX graph: what `torch.export` writes that
torch-mlir's FX importer rejects, rewritten into what it imports.

- **State in lists.** The frozen import replaces the placeholders of parameters, buffers
  and lifted constants by the tensors themselves, and a list argument holding one
  (`table[index]` with an index buffer: swin's and levit's relative position biases is
  `aten.index.Tensor(table, [index])`) then fails "Heterogeneous lists are not
  supported". Such list elements read the tensor through a `get_attr` node instead, which
  the importer turns into a literal.
- **`torch.sym_*` functions** (`sym_max` of two sequence lengths, `sym_min`, `sym_not`,
  `sym_float`, `sym_int`, `sym_sqrt`, `sym_ite`, `sym_sum`) are Python functions, not ops:
  "Unimplemented call_function"; so are `math.trunc` (what `sym_int` of a float traces
  to), `math.ceil`, `max`, `min` and `operator.pow` (`**`: "Unsupported builtin function
  for symbolic types: pow", transformers' ConvNextV2 with a dynamic batch and image size)
  of symbolic numbers. Each becomes the ops of the Torch dialect that compute it
  (`prim.max.int`, `aten.__not__`, `aten.Int.float`, `aten.mul.int`, ...).
- **`aten.as_strided` of a symbolic size** (what torch-mlir's decomposition of
  `group_norm` leaves with a dynamic batch): where the input is contiguous and the
  strides are the size's contiguous strides with no offset, it reads the input as that
  size, which is `aten.view`; the importer's own rewrite takes only static sizes.

`prepare(program)` rewrites the program's graph in place (give it a copy) and returns it.
`input_checks(program)` says what the program checks of its inputs, `traced_types(program)`
what torch.export traced each op's tensor results as (a truth refined types can be
compared with, `report.compare_traced`).
"""

from __future__ import annotations

import math
import operator
import re
import warnings
from dataclasses import dataclass

import torch
from torch import fx
from torch.fx.experimental.symbolic_shapes import statically_known_true

_ATTRIBUTE_PREFIX = "_torch_refine_state_"
_LISTS = (list, tuple, fx.immutable_collections.immutable_list)


def prepare(program: torch.export.ExportedProgram) -> torch.export.ExportedProgram:
    graph = program.graph_module.graph
    _state_in_lists(program)
    for node in list(graph.nodes):
        if node.op != "call_function":
            continue
        if (rewrite := _SYM_FUNCTIONS.get(node.target)) is not None:
            _replace(node, rewrite(graph, node))
        elif node.target is torch.ops.aten.as_strided.default and (view := _as_view(graph, node)) is not None:
            _replace(node, view)
    graph.eliminate_dead_code()
    graph.lint()
    return program


def _replace(node: fx.Node, replacement) -> None:
    """`replacement` (a node or a Python value) takes `node`'s place; a new node takes its
    name too, which the graph signature may name."""
    node.replace_all_uses_with(replacement)
    name = node.name
    node.graph.erase_node(node)
    if isinstance(replacement, fx.Node) and replacement.op == "call_function":
        replacement.name = name


# -- state in lists ---------------------------------------------------------------------


def _state_in_lists(program) -> None:
    state = _state_by_placeholder(program)
    module = program.graph_module
    graph = module.graph
    readers: dict[str, fx.Node] = {}
    for node in list(graph.nodes):
        if node.op != "call_function":
            continue
        node.args = tuple(_reading_state(a, state, readers, module, node) for a in node.args)
        node.kwargs = {k: _reading_state(v, state, readers, module, node) for k, v in node.kwargs.items()}


def _state_by_placeholder(program) -> dict[str, torch.Tensor]:
    signature = program.graph_signature
    found = {}
    for sources, mapping in ((program.state_dict, signature.inputs_to_parameters),
                             (program.state_dict, signature.inputs_to_buffers),
                             (program.constants, signature.inputs_to_lifted_tensor_constants)):
        for placeholder, name in mapping.items():
            tensor = sources.get(name, program.constants.get(name))
            if isinstance(tensor, torch.Tensor):
                found[placeholder] = tensor
    return found


def _reading_state(argument, state: dict, readers: dict, module, user: fx.Node):
    if not isinstance(argument, _LISTS):
        return argument
    elements = [_reader(e, state, readers, module, user) for e in argument]
    return type(argument)(elements) if not isinstance(argument, fx.immutable_collections.immutable_list) \
        else fx.immutable_collections.immutable_list(elements)


def _reader(element, state: dict, readers: dict, module, user: fx.Node):
    if not isinstance(element, fx.Node) or element.op != "placeholder" or element.name not in state:
        return element
    if (reader := readers.get(element.name)) is not None:
        return reader
    attribute = f"{_ATTRIBUTE_PREFIX}{element.name}"
    setattr(module, attribute, state[element.name])
    graph = module.graph
    with warnings.catch_warnings(), graph.inserting_before(_first_user(graph)):
        warnings.simplefilter("ignore", UserWarning)  # a plain attribute, not a registered buffer
        reader = graph.get_attr(attribute)
    reader.meta["val"] = element.meta.get("val")
    readers[element.name] = reader
    return reader


def _first_user(graph: fx.Graph) -> fx.Node:
    """The first node after the placeholders: readers go there, before every user."""
    return next(n for n in graph.nodes if n.op != "placeholder")


# -- torch.sym_* functions --------------------------------------------------------------


def _is_float(argument) -> bool:
    return isinstance(_value(argument), float | torch.SymFloat)


def _call(graph: fx.Graph, node: fx.Node, target, args: tuple, value) -> fx.Node:
    with graph.inserting_before(node):
        new = graph.call_function(target, args)
    new.meta = {**node.meta, "val": value}
    return new


def _overload(packet, a, b):
    """`prim.max`'s (or `min`'s) overload for the kinds of `a` and `b`."""
    kinds = ("float" if _is_float(a) else "int", "float" if _is_float(b) else "int")
    return getattr(packet, kinds[0] if kinds[0] == kinds[1] else "_".join(kinds))


def _value(argument):
    """What FakeTensor computed for a node; a constant argument is its own value."""
    return argument.meta.get("val") if isinstance(argument, fx.Node) else argument


def _sym_max(graph, node):
    a, b = node.args
    return _call(graph, node, _overload(torch.ops.prim.max, a, b), (a, b), _value(node))


def _sym_min(graph, node):
    a, b = node.args
    return _call(graph, node, _overload(torch.ops.prim.min, a, b), (a, b), _value(node))


def _sym_not(graph, node):
    return _call(graph, node, torch.ops.aten.__not__.default, node.args, _value(node))


def _sym_float(graph, node):
    (a,) = node.args
    if _is_float(a):
        return a
    return _call(graph, node, torch.ops.aten.Float.Scalar, (a,), _value(node))


def _sym_int(graph, node):
    (a,) = node.args
    if not _is_float(a):
        return a
    return _call(graph, node, torch.ops.aten.Int.float, (a,), _value(node))


def _in_float64(graph, node, a, target, *operands):
    """`target(a, *operands)` of a number in float64 through a 0-d tensor, for what the
    Torch dialect has no number op (a float `sqrt` or `pow`)."""
    if not _is_float(a):
        a = _call(graph, node, torch.ops.aten.Float.Scalar, (a,), torch.sym_float(_value(a)))
    with _fake_mode(graph):  # the importer types a tensor by its FakeTensor
        scalar = torch.empty((), dtype=torch.float64)
    tensor = _call(graph, node, torch.ops.prim.NumToTensor.Scalar, (a,), scalar)
    result = _call(graph, node, target, (tensor, *operands), scalar)
    return _call(graph, node, torch.ops.aten.Float.Tensor, (result,), torch.sym_float(_value(node)))


def _sym_sqrt(graph, node):
    (a,) = node.args
    return _in_float64(graph, node, a, torch.ops.aten.sqrt.default)


def _pow(graph, node):
    """`a ** b` (`operator.pow`, `pow`, `math.pow`): an int to a constant power of at least 0
    as a product, exact and still an int; anything else in float64, an int result (an int
    to a symbolic power) converted back, exact below 2**53."""
    a, b = node.args
    if _is_float(node):
        return _in_float64(graph, node, a, torch.ops.aten.pow.Tensor_Scalar, b)
    if isinstance(b, int):
        if b == 0:
            return 1
        product, value = a, _value(a)
        for _ in range(b - 1):
            value = value * _value(a)
            product = _call(graph, node, operator.mul, (product, a), value)
        return product
    power = _in_float64(graph, node, a, torch.ops.aten.pow.Tensor_Scalar, b)
    return _call(graph, node, torch.ops.aten.Int.float, (power,), _value(node))


def _fake_mode(graph: fx.Graph):
    from torch._guards import detect_fake_mode

    return detect_fake_mode([n.meta.get("val") for n in graph.nodes])


def _sym_sum(graph, node):
    (terms,) = node.args
    total, value = terms[0], _value(terms[0])
    for term in terms[1:]:
        value = value + _value(term)
        total = _call(graph, node, operator.add, (total, term), value)
    return total


def _sym_ite(graph, node):
    """`then if condition else otherwise` as `otherwise + (then - otherwise) * int(condition)`
    (ints) or the float equivalent: no op of the Torch dialect selects a number."""
    condition, then, otherwise = node.args
    as_int = _call(graph, node, torch.ops.aten.Int.bool, (condition,), torch.sym_ite(_value(condition), 1, 0))
    difference = _call(graph, node, operator.sub, (then, otherwise), _value(node))
    scaled = _call(graph, node, operator.mul, (difference, as_int), _value(node))
    return _call(graph, node, operator.add, (otherwise, scaled), _value(node))


def _rounding(float_target):
    """`math.trunc` or `math.ceil` of a symbolic number: an int stays as it is."""

    def rewrite(graph, node):
        (a,) = node.args
        return _call(graph, node, float_target, (a,), _value(node)) if _is_float(a) else a

    return rewrite


# The functions below and the builtins the importer has no op for (it maps add, mul, ...).
_SYM_FUNCTIONS = {
    math.trunc: _rounding(torch.ops.aten.Int.float),
    math.ceil: _rounding(torch.ops.aten.ceil.float),
    max: _sym_max,
    min: _sym_min,
    torch.sym_max: _sym_max,
    torch.sym_min: _sym_min,
    torch.sym_not: _sym_not,
    torch.sym_float: _sym_float,
    torch.sym_int: _sym_int,
    torch.sym_sqrt: _sym_sqrt,
    torch.sym_sum: _sym_sum,
    torch.sym_ite: _sym_ite,
    operator.pow: _pow,
    pow: _pow,
    math.pow: _pow,
}


# -- as_strided of symbolic sizes -------------------------------------------------------


def _as_view(graph: fx.Graph, node: fx.Node) -> fx.Node | None:
    """`aten.view(input, size)` where `as_strided(input, size, stride)` reads exactly the
    contiguous input as `size` (the stride of a dim of size 1 is never used); None
    otherwise (the importer's own rewrite decides)."""
    source, size, stride, *rest = [*node.args, *node.kwargs.values()]
    if rest and rest[0] not in (0, None):
        return None
    fake = _value(source)
    sizes = [_value(s) for s in size]
    if not isinstance(fake, torch.Tensor) or all(isinstance(s, int) for s in sizes):
        return None
    if not _known(fake.is_contiguous()) or len(stride) != len(sizes):
        return None
    # A dim of size 1 is read once whatever its stride (swin's pooled [b, 32, 1, 1] has 32).
    strides = zip(sizes, stride, _contiguous_strides(sizes), strict=True)
    if not all(_known(size == 1) or _known(s == c) for size, s, c in strides):
        return None
    if not _known(math.prod(sizes) == fake.numel()):
        return None
    return _call(graph, node, torch.ops.aten.view.default, (source, list(size)), _value(node))


def _contiguous_strides(sizes: list) -> list:
    strides, running = [], 1
    for size in reversed(sizes):
        strides.append(running)
        running = running * size
    return strides[::-1]


def _known(condition) -> bool:
    return bool(condition) if isinstance(condition, bool) else statically_known_true(condition)


# -- what torch.export checks of its inputs ---------------------------------------------

# An int term over the inputs' sizes: an int, ("size", argument, dim), or (op, term, term)
# with op "add" or "mul".
Term = int | tuple


def input_checks(program: torch.export.ExportedProgram) -> list[tuple[str, Term, str, Term]]:
    """What the ExportedProgram checks of its user inputs' sizes before it runs, as
    `(message, term, comparison, term)` with comparison "ge", "le" or "eq": each symbol's
    range (`range_constraints`) at the first dim it names, and every other dim equal to its
    expression over the symbols (the batch of every input, `2*s`). A symbol no input dim is
    alone, named by a dim `c*s + k` (an image size export made a multiple of 16), is solved
    from the first such dim as torch.export does: that dim must be `k` more than a multiple
    of `c` and within `c*s + k` over the symbol's range. A dim reading a symbol neither
    gives is left out."""
    import sympy

    names = program.graph_signature.user_inputs
    placeholders = [n for n in program.graph.nodes if n.op == "placeholder" and n.name in names]
    dims = [(index, node.name, dim, size.node.expr) for index, node in enumerate(placeholders)
            if isinstance(node.meta.get("val"), torch.Tensor)
            for dim, size in enumerate(node.meta["val"].shape) if isinstance(size, torch.SymInt)]
    defined: dict = {}  # each symbol as a term over the input dim that defines it
    spelled: dict = {}  # each symbol as text over that dim
    definers: dict = {}  # each defining dim's expression -> the dim
    checks = []
    for solving in (False, True):
        for index, name, dim, expression in dims:
            found = _defined_symbol(expression, sympy) if solving else (expression, 1, 0)
            if found is None or not isinstance(found[0], sympy.Symbol) or found[0] in defined:
                continue
            symbol, multiple, offset = found
            size = ("size", index, dim)
            where, shape = f"input {name} (%arg{index}) dim {dim}", f"{name}.shape[{dim}]"
            defined[symbol] = _solved_term(size, multiple, offset)
            shifted = shape if offset == 0 else f"({shape} - {offset})"
            spelled[symbol] = sympy.Symbol(shifted if multiple == 1 else f"({shifted} // {multiple})")
            definers[expression] = (size, shape)
            if multiple > 1:
                remainder = ("remainder", size if offset == 0 else ("sub", size, offset), multiple)
                which = f"{offset} more than a multiple" if offset else "a multiple"
                checks.append((f"{where} must be {which} of {multiple} (torch.export traced it as {expression})",
                               remainder, "eq", 0))
            least, greatest = _integer_bounds(program.range_constraints.get(symbol))
            if least is not None and (lowest := multiple * least + offset) > 0:
                checks.append((f"{where} must be at least {lowest}", size, "ge", lowest))
            if greatest is not None:
                highest = multiple * greatest + offset
                checks.append((f"{where} must be at most {highest}", size, "le", highest))
    for index, name, dim, expression in dims:
        size, where = ("size", index, dim), f"input {name} (%arg{index}) dim {dim}"
        if expression in definers:  # the dim defining it, or one equal to that dim
            definer, shape = definers[expression]
            if definer != size:
                message = f"{where} must be {shape} (torch.export traced both as {expression})"
                checks.append((message, size, "eq", definer))
        elif (term := _term(expression, defined)) is not None:
            checks.append((f"{where} must be {expression.subs(spelled)} (torch.export traced it as {expression})",
                           size, "eq", term))
    return checks


def _defined_symbol(expression, sympy) -> tuple | None:
    """(symbol, multiple, offset) of a dim `multiple*symbol + offset` with a positive
    integer multiple, else None."""
    if len(expression.free_symbols) != 1:
        return None
    (symbol,) = expression.free_symbols
    polynomial = sympy.Poly(expression, symbol) if expression.is_polynomial(symbol) else None
    if polynomial is None or polynomial.degree() != 1:
        return None
    multiple, offset = polynomial.all_coeffs()
    if not (multiple.is_Integer and offset.is_Integer) or multiple <= 0:
        return None
    return symbol, int(multiple), int(offset)


def _solved_term(size: Term, multiple: int, offset: int) -> Term:
    """The symbol a dim `multiple*symbol + offset` gives, as a term over the dim."""
    shifted = size if offset == 0 else ("sub", size, offset)
    return shifted if multiple == 1 else ("floordiv", shifted, multiple)


def input_symbols(program: torch.export.ExportedProgram) -> tuple[dict[str, tuple], dict[int, list]]:
    """What torch.export says of its user inputs' sizes in the form
    `torch.bind_symbolic_shape` states it: each symbol's range (name -> (least, greatest),
    None for an unbounded side) and, per user input, each dim as an int or (symbol name,
    multiple). An input with a dim of any other expression is left out."""
    import sympy

    names = program.graph_signature.user_inputs
    placeholders = [n for n in program.graph.nodes if n.op == "placeholder" and n.name in names]
    bounds = {str(symbol): bound for symbol, bound in program.range_constraints.items()}
    symbols: dict[str, tuple] = {}
    inputs: dict[int, list] = {}
    for index, node in enumerate(placeholders):
        value = node.meta.get("val")
        if not isinstance(value, torch.Tensor) or all(isinstance(d, int) for d in value.shape):
            continue
        dims = [_symbol_multiple(size, sympy) for size in value.shape]
        if any(d is None for d in dims):
            continue
        inputs[index] = dims
        for dim in dims:
            if isinstance(dim, tuple) and dim[0] not in symbols:
                symbols[dim[0]] = _integer_bounds(bounds.get(dim[0]))
    return symbols, inputs


def _symbol_multiple(size, sympy) -> int | tuple[str, int] | None:
    if isinstance(size, int):
        return size
    expression = size.node.expr
    if isinstance(expression, sympy.Symbol):
        return str(expression), 1
    if isinstance(expression, sympy.Mul) and len(expression.args) == 2:
        multiple, symbol = sorted(expression.args, key=lambda a: not a.is_Integer)
        if multiple.is_Integer and isinstance(symbol, sympy.Symbol):
            return str(symbol), int(multiple)
    return None


def _integer_bounds(bounds) -> tuple[int | None, int | None]:
    """(least, greatest) of a sympy value range, None for a side that is not an integer
    (torch's `int_oo` passes sympy's `is_finite`, so the type decides)."""
    import sympy

    if bounds is None:
        return None, None
    least, greatest = (int(b) if isinstance(b, sympy.Integer) else None for b in (bounds.lower, bounds.upper))
    return least, greatest


def _term(expression, defined: dict) -> Term | None:
    import sympy

    if isinstance(expression, sympy.Integer):
        return int(expression)
    if isinstance(expression, sympy.Symbol):
        return defined.get(expression)
    if not isinstance(expression, sympy.Add | sympy.Mul):
        return None
    terms = [_term(a, defined) for a in expression.args]
    if any(t is None for t in terms):
        return None
    op = "add" if isinstance(expression, sympy.Add) else "mul"
    result = terms[0]
    for term in terms[1:]:
        result = (op, result, term)
    return result


# -- what torch.export traced each value as ----------------------------------------------


@dataclass(frozen=True)
class TracedDim:
    """A dim torch.export traced as an expression of its symbols: its value at the example
    inputs (None for a data-dependent size) and the range the symbols' ranges give it
    (None for an unbounded side)."""

    expression: str
    hint: int | None
    least: int | None
    greatest: int | None

    def __str__(self) -> str:
        return self.expression


@dataclass(frozen=True)
class TracedType:
    sizes: tuple[int | TracedDim, ...]
    dtype: str | None  # the Torch dialect's element type

    def __str__(self) -> str:
        return f"[{', '.join(str(s) for s in self.sizes)}],{self.dtype}"


# (the source frames of a node as a sorted tuple of (file, line), the op the importer
# emits for it, result index) -> each such node's traced type, in graph order.
TracedKey = tuple[tuple, str, int]

_FRAME = re.compile(r'File "([^"]+)", line ([0-9]+),')


def traced_types(program: torch.export.ExportedProgram) -> dict[TracedKey, list[TracedType]]:
    """What torch.export traced the tensor results of each op node as (`meta["val"]`,
    FakeTensors with symbolic sizes), keyed as torch-mlir's FX importer places the op: the
    frames of the node's stack trace (the importer's location), the op name it emits
    (`torch.aten.add.Tensor`) and the result index. Nodes without a stack trace or an op
    overload target are left out."""
    from torch_mlir.extras.fx_importer import TENSOR_SCALAR_OP_CONVERTER, _get_mlir_op_name_for_schema, is_scalar_arg

    found: dict[TracedKey, list[TracedType]] = {}
    for node in program.graph.nodes:
        if node.op != "call_function" or not isinstance(node.target, torch._ops.OpOverload):
            continue
        frames = tuple(sorted({(file, int(line)) for file, line in _FRAME.findall(node.stack_trace or "")}))
        if not frames:
            continue
        name = _get_mlir_op_name_for_schema(node.target._schema)
        if name in TENSOR_SCALAR_OP_CONVERTER and len(node.args) > 1 and is_scalar_arg(node.args[1]):
            name = TENSOR_SCALAR_OP_CONVERTER[name]
        value = node.meta.get("val")
        results = value if isinstance(value, list | tuple) else [value]
        for index, result in enumerate(results):
            if isinstance(result, torch.Tensor):
                found.setdefault((frames, name, index), []).append(_traced_type(result))
    return found


def _traced_type(tensor: torch.Tensor) -> TracedType:
    from torch_mlir.extras.fx_importer import TORCH_DTYPE_TO_MLIR_TYPE_ASM

    return TracedType(tuple(_traced_dim(size) for size in tensor.shape), TORCH_DTYPE_TO_MLIR_TYPE_ASM.get(tensor.dtype))


def _traced_dim(size) -> int | TracedDim:
    if isinstance(size, int):
        return size
    node = size.node
    if node.expr.is_number:
        return int(node.expr)
    least, greatest = _integer_bounds(node.shape_env.bound_sympy(node.expr))
    hint = node.hint if isinstance(node.hint, int) else None
    return TracedDim(str(node.expr), hint, least, greatest)


# -- Fourier transforms of real tensors, for the backend --------------------------------

# fft ops whose forward transform of a real tensor is taken apart here: (position of the
# sizes argument, position of the dims argument, the dims when none are given).
_FOURIER = {
    torch.ops.aten.fft_fft.default: (1, 2, [-1]),
    torch.ops.aten.fft_fft2.default: (1, 2, [-2, -1]),
    torch.ops.aten.fft_fftn.default: (1, 2, None),
}


def real_fourier_transforms(program: torch.export.ExportedProgram) -> torch.export.ExportedProgram:
    """`view_as_real(fft(x))` of a real float32/float64 `x` (what `fftn(x).real` exports as:
    FNet's token mixing) computed by real ops, for torch-mlir's backend pipeline, which
    rejects complex values: along each transformed dim, products with the cos and sin
    matrices of its size. Only the default transform (no sizes given, norm "backward").
    Returns a re-traced copy (ops functionalized, none decomposed), or `program` itself
    when it has no such transform."""
    import copy

    if not any(_real_fourier(node) is not None for node in program.graph.nodes):
        return program
    program = copy.deepcopy(program)
    graph = program.graph
    for node in list(graph.nodes):
        if (dims := _real_fourier(node)) is None:
            continue
        transform = node.args[0]
        with graph.inserting_before(node):
            real = graph.call_function(_fourier_as_real, (transform.args[0], dims))
        real.meta = dict(node.meta)
        node.replace_all_uses_with(real)
        graph.erase_node(node)
        if not transform.users:
            graph.erase_node(transform)
    program.graph_module.recompile()
    return program.run_decompositions({})


def _real_fourier(node: fx.Node) -> list[int] | None:
    """The dims of the transform a `view_as_real` node reads, where it is taken apart."""
    if node.op != "call_function" or node.target is not torch.ops.aten.view_as_real.default:
        return None
    transform = node.args[0]
    if not isinstance(transform, fx.Node) or transform.target not in _FOURIER:
        return None
    sizes_at, dims_at, default = _FOURIER[transform.target]
    source = _value(transform.args[0])
    if not isinstance(source, torch.Tensor) or source.dtype not in (torch.float32, torch.float64):
        return None
    if set(transform.kwargs) - {"s", "n", "dim", "norm"}:
        return None
    sizes = transform.kwargs.get("s", transform.kwargs.get("n", _argument(transform, sizes_at)))
    dims = transform.kwargs.get("dim", _argument(transform, dims_at))
    norm = transform.kwargs.get("norm", _argument(transform, 3))
    if sizes is not None or norm not in (None, "backward"):
        return None
    dims = default if dims is None else dims
    dims = range(source.dim()) if dims is None else ([dims] if isinstance(dims, int) else dims)
    return [d % source.dim() for d in dims]


def _argument(node: fx.Node, position: int):
    return node.args[position] if position < len(node.args) else None


def _fourier_as_real(x: torch.Tensor, dims: list[int]) -> torch.Tensor:
    """`view_as_real(fftn(x, dim=dims))` of a real x in real ops (traced, not run): the DFT
    along a dim of size n multiplies by W = C - iS, C[j, k] = cos(2 pi jk / n) and S the
    sine, so (re, im) becomes (C re + S im, C im - S re)."""
    real, imaginary = x, None
    for dim in dims:
        size = x.shape[dim]
        index = torch.arange(size, device=x.device)
        # jk mod n keeps the angle within one turn: cos of a large float angle is inexact.
        angle = (torch.outer(index, index) % size).to(x.dtype) * (2 * math.pi / size)
        cos, sin = torch.cos(angle), torch.sin(angle)

        def along(tensor, matrix, dim=dim):
            return torch.movedim(torch.movedim(tensor, dim, -1) @ matrix, -1, dim)

        if imaginary is None:
            real, imaginary = along(real, cos), -along(real, sin)
        else:
            real, imaginary = along(real, cos) + along(imaginary, sin), along(imaginary, cos) - along(real, sin)
    return torch.stack([real, imaginary], -1)
