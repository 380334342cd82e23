"""Shared code of `torch-refine-reify-shape-calculations` and `-dtype-calculations`.

Every op in a user function that has a library function is wrapped in a calculate op:

    %r = torch.shape.calculate {
      %0 = torch.aten.tanh %x : !torch.vtensor -> !torch.vtensor
      torch.shape.calculate.yield %0 : !torch.vtensor
    } shapes {
      %s = torch.aten.size %x : !torch.vtensor -> !torch.list<int>
      %c = func.call @"__torch_refine_shape_fn.aten.tanh"(%s) : (!torch.list<int>) -> !torch.list<int>
      torch.shape.calculate.yield.shapes %c : !torch.list<int>
    } : !torch.vtensor

The calculation region adapts each operand to the library function's parameter type.
The yield op carries one value per wrapped result; a result the function does not
describe (a non-tensor result of a shape function; a result that is neither a tensor nor
a number of a dtype function) gets a placeholder (an empty list, or dtype code -1) that
the simplify passes ignore because the result's type is not refinable by it.

An op with a `Tensor[]` result is wrapped only when that list's single user is a
`torch.prim.ListUnpack`: the calculate op then wraps both ops, its results are the
unpacked tensors, and each yielded shape (dtype) is an `aten.__getitem__.t` of the list
the function returns. Any other use of a tensor list leaves the op alone.
"""

from __future__ import annotations

from torch_mlir import ir

from torch_refine.calculations.kind import (
    CALCULATE_OPS,
    RANK_DTYPE,
    SIZES,
    UNREAD,
    CalculationKind,
)
from torch_refine.calculations.lists import literal_elements
from torch_refine.calculations.symbols import is_library_symbol, library_key, user_functions
from torch_refine.engine.convention import Step, inner_type, passing
from torch_refine.errors import PassFailure
from torch_refine.ir.module import callees, functions, symbol_name
from torch_refine.ir.retype import most_precise_alias
from torch_refine.ir.types import is_tensor_type_text
from torch_refine.ir.types import parse as parse_type
from torch_refine.library import loader as library_loader
from torch_refine.library import meta_fallback
from torch_refine.library.loader import Library
from torch_refine.library.plans import parameter_reads


def load_library(module: ir.Operation, extra_library: str) -> Library:
    """The library for `module`'s context; reports a bad extra library at the module, and
    a forged library function in `module` (see `reject_forged_functions`)."""
    try:
        library = library_loader.load(module.context, extra_library)
    except library_loader.LibraryError as error:
        module.location.emit_error(str(error))
        raise PassFailure from None
    reject_forged_functions(module, library)
    return library


def reject_forged_functions(module: ir.Operation, library: Library) -> None:
    """Library symbols are reserved: a function of `module` named with a library prefix
    must be the copy a reify step made of that library function (an earlier reify pass of
    the same pipeline leaves them for the next), else input IR could replace the library
    (a forged `@__torch_refine_shape_fn.aten.tanh` would give `tanh` any shape). Copies
    are recognized by content, not by a mark the input could forge too. Extra library
    functions are given with `extra-library`."""
    forged = [
        fn for fn in functions(module) if is_library_symbol(symbol_name(fn)) and not library.is_clone(fn)
    ]
    for fn in forged:
        fn.location.emit_error(
            f"function @\"{symbol_name(fn)}\" uses a name reserved for torch-refine's library "
            "and is not that library function (add library functions with extra-library)"
        )
    if forged:
        raise PassFailure


def reify(module: ir.Operation, kind: CalculationKind, library: Library, reify_refined_ops: bool = False) -> int:
    """Wrap the ops of `module`'s user functions; returns how many were wrapped."""
    with module.context:
        importer = LibraryCloner(module, library)
        found = targets(module, kind, importer, reify_refined_ops)
        for op, unpack, symbol in found:
            wrap(op, unpack, kind, importer.import_function(symbol, op))
    return len(found)


def targets(module: ir.Operation, kind: CalculationKind, importer, reify_refined_ops: bool = False,
            revisit_dynamic: bool = False, fallback=None) -> list:
    """(op, list unpack or None, library symbol) for each op to wrap, in program order;
    with `revisit_dynamic`, also ops with a dynamic dim (facts asserted since may fix it).
    With a `fallback` (engine/fallback.py), an op without a function that it serves and
    whose results are not exact comes with the symbol `meta_fallback.SYMBOL`."""
    finder = _TargetFinder(kind, importer, reify_refined_ops, revisit_dynamic, fallback)
    found: list = []
    for fn in user_functions(module):
        _collect(fn.regions[0], finder, found)
    return found


def _collect(region, finder: _TargetFinder, targets: list) -> None:
    """Post-order (an op's nested ops before it), with an explicit stack of region walks:
    input IR can nest `torch.prim.If`/`Loop` deeper than Python's recursion limit."""
    walks = [iter(_ops_in(region))]
    parents: list = []  # the op whose regions each inner walk goes through
    while walks:
        op = next(walks[-1], None)
        if op is None:
            walks.pop()
            if parents:
                finder.add_target(parents.pop(), targets)
            continue
        operation = op.operation
        if operation.name in CALCULATE_OPS:
            continue
        if len(operation.regions):
            parents.append(op)
            walks.append(iter([inner for nested in operation.regions for inner in _ops_in(nested)]))
            continue
        finder.add_target(op, targets)


def _ops_in(region) -> list:
    return [op for block in region.blocks for op in block.operations]


class _TargetFinder:
    """Decides which ops to wrap. A large module repeats a few op names and result types
    many times, so the library lookup is made once per op name and the decision once per
    tuple of result types (types are uniqued: equal types hash alike)."""

    def __init__(self, kind: CalculationKind, importer, reify_refined_ops: bool, revisit_dynamic: bool = False,
                 fallback=None):
        self._kind = kind
        self._fallback = fallback
        self._importer = importer
        self._reify_refined_ops = reify_refined_ops
        self._revisit_dynamic = revisit_dynamic
        self._symbols: dict[str, str | None] = {}
        self._decisions: dict[tuple, bool | str] = {}  # result types -> wrap, or _UNPACK

    def add_target(self, op, targets: list) -> None:
        if (target := self.target(op)) is not None:
            targets.append(target)

    def target(self, op):
        """(op, list unpack or None, library symbol) when `op` is to be wrapped."""
        symbol = self._symbol(op)
        if symbol is None:
            return None
        results = op.operation.results
        if symbol == meta_fallback.SYMBOL:
            unpack = _list_result_unpack(results, [str(t) for t in results.types])
            described = (op if unpack is None else unpack).operation.results
            return (op, unpack, symbol) if self._fallback.wanted(described) else None
        decision = self._decision(tuple(results.types))
        # An op whose checks were deferred is wrapped again, refined or not.
        deferred = self._kind.deferred_checks in op.operation.attributes
        if decision is not _UNPACK:
            return (op, None, symbol) if decision or deferred else None
        unpack = _unpack_user(results[0])
        if unpack is None:  # no piece to type, but its checks run
            return op, None, symbol
        if not (deferred or self._decision(tuple(unpack.operation.results.types))):
            return None
        return op, unpack, symbol

    def _symbol(self, op) -> str | None:
        name = op.operation.name
        if name == "torch.operator":  # keyed by its `name` attribute, not cacheable by name
            return self._library_symbol(library_key(op), op)
        if name not in self._symbols:
            self._symbols[name] = self._library_symbol(library_key(op), op)
        return self._symbols[name]

    def _library_symbol(self, key: str | None, op) -> str | None:
        if key is not None and self._importer.has(self._kind.prefix + key):
            return self._kind.prefix + key
        if self._fallback is not None and self._fallback.serves(op):
            return meta_fallback.SYMBOL
        return None

    def _decision(self, types: tuple) -> bool | str:
        decision = self._decisions.get(types)
        if decision is None:
            decision = self._decisions[types] = self._decide([str(t) for t in types])
        return decision

    def _decide(self, texts: list[str]) -> bool | str:
        """Whether results of these types are wrapped; _UNPACK when a single tensor list
        is, through its unpack."""
        if any(_is_tensor_list(text) for text in texts):
            return _UNPACK if len(texts) == 1 else False
        refined = [self._kind.is_refined(text) and not (self._revisit_dynamic and "?" in text)
                   for text in texts if self._kind.describes(text)]
        return bool(refined) and (self._reify_refined_ops or not all(refined))


_UNPACK = "unpack"


def checks_only(op, unpack) -> bool:
    """Whether wrapping `op` (with `unpack`) only runs its checks: a single tensor-list
    result that no `prim.ListUnpack` takes apart has no piece to type."""
    results = op.operation.results
    return unpack is None and len(results) == 1 and _is_tensor_list(str(results[0].type))


def _is_tensor_list(type_text: str) -> bool:
    return type_text.startswith("!torch.list<") and "tensor" in type_text


def _list_result_unpack(results, texts: list[str]):
    """The `torch.prim.ListUnpack` that is the only user of an op's single tensor-list result."""
    if len(results) != 1 or not _is_tensor_list(texts[0]):
        return None
    return _unpack_user(results[0])


def _unpack_user(result):
    """The `torch.prim.ListUnpack` that is `result`'s only user."""
    uses = list(result.uses)
    if len(uses) != 1 or uses[0].owner.operation.name != "torch.prim.ListUnpack":
        return None
    return uses[0].owner


class LibraryCloner:
    """Brings library functions (and what they call) into the module, once each."""

    def __init__(self, module: ir.Operation, library: Library):
        self._body = module.regions[0].blocks[0]
        self._library = library
        self._present = {
            symbol_name(op): op for op in self._body.operations if op.operation.name == "func.func"
        }

    def has(self, symbol: str) -> bool:
        return symbol in self._present or self._library.has(symbol)

    @property
    def functions(self) -> dict:
        """The module's functions by symbol, imported ones included."""
        return self._present

    def parameter_views(self, symbol: str) -> tuple:
        """Per parameter of `symbol`, what its calculation can see of the operand passed
        there (`memo_key` keys on no more): UNREAD when the function never reads it, SIZES
        or RANK_DTYPE when a tensor arrives as its sizes or as (rank, dtype), None for all."""
        plan = None if symbol in self._present else self._library.plan(symbol)
        if plan is not None:  # what the function reads, without parsing it
            return tuple(_VIEWS.get(t) if read else UNREAD for t, read in zip(plan[0], parameter_reads(plan)))
        fn = self._present.get(symbol) or self._library.get(symbol)
        if fn is None or not len(fn.regions[0].blocks):
            return ()
        return tuple(_view(a) for a in fn.regions[0].blocks[0].arguments)

    def import_function(self, symbol: str, user):
        worklist = [symbol]
        while worklist:
            name = worklist.pop()
            if name in self._present:
                continue
            source = self._library.get(name)
            if source is None:
                user.location.emit_error(
                    f"'{user.operation.name}' op needs library function @\"{name}\", which is not in the library"
                )
                raise PassFailure
            clone = source.operation.clone(ip=ir.InsertionPoint(self._body))
            clone.attributes["sym_visibility"] = ir.StringAttr.get("private")
            self._present[name] = clone
            worklist.extend(callees(clone))
        return self._present[symbol]


_VIEWS = {
    "!torch.list<int>": SIZES,
    "!torch.optional<list<int>>": SIZES,
    "!torch.tuple<int, int>": RANK_DTYPE,
    "!torch.optional<tuple<int, int>>": RANK_DTYPE,
}


def _view(argument: ir.BlockArgument):
    if not len(list(argument.uses)):
        return UNREAD
    return _VIEWS.get(str(argument.type))


# On a calculate op: the types its results had before the calculation refined them, for
# drop_calculations to withdraw the claims of a calculation whose checks it cannot keep.
STATED_TYPES = "torch_refine.stated_types"


def wrap(op, unpack, kind: CalculationKind, fn):
    """Wrap `op` (and the ListUnpack of its list result) in a calculate op calling `fn`."""
    location = op.location
    outer = list((unpack if unpack is not None else op).operation.results)
    calculate = ir.Operation.create(
        kind.calculate_op,
        results=[r.type for r in outer],
        attributes={STATED_TYPES: ir.ArrayAttr.get([ir.TypeAttr.get(r.type) for r in outer])},
        regions=2,
        loc=location,
        ip=ir.InsertionPoint(op),
    )
    body = ir.Block.create_at_start(calculate.regions[0])
    calculation = ir.Block.create_at_start(calculate.regions[1])
    for old, new in zip(outer, calculate.results, strict=True):
        old.replace_all_uses_with(new)
    body_yield = ir.Operation.create(kind.body_yield_op, operands=outer, loc=location, ip=ir.InsertionPoint(body))
    op.operation.move_before(body_yield)
    if unpack is not None:
        unpack.operation.move_before(body_yield)
    builder = _Builder(kind, op, fn, ir.InsertionPoint(calculation))
    builder.yield_calculation(outer, unpack is not None)
    return calculate


class _Builder:
    """Builds the calculation region of one calculate op."""

    def __init__(self, kind: CalculationKind, op, fn, ip: ir.InsertionPoint):
        self.kind = kind
        self.op = op
        self.fn = fn
        self.location = op.location
        self.fn_type = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
        self.symbol = symbol_name(fn)
        self.ip = ip

    def fail(self, message: str):
        self.location.emit_error(f"'{self.op.operation.name}' op {message}")
        raise PassFailure

    def create(self, name: str, operands=(), results=(), attributes=None, regions: int = 0):
        return ir.Operation.create(
            name,
            results=list(results),
            operands=list(operands),
            attributes=attributes,
            regions=regions,
            loc=self.location,
            ip=self.ip,
        )

    def type(self, text: str) -> ir.Type:
        return ir.Type.parse(text)

    def constant_int(self, value: int) -> ir.Value:
        attribute = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), value)
        int_type = self.type("!torch.int")
        return self.create("torch.constant.int", results=[int_type], attributes={"value": attribute}).result

    # Calls the function and yields one value per wrapped result.
    def yield_calculation(self, outer_results, from_list: bool) -> None:
        operands = list(self.op.operation.operands)
        params = list(self.fn_type.inputs)
        if len(operands) != len(params):
            self.fail(f"has {len(operands)} operands but @\"{self.symbol}\" takes {len(params)} parameters")
        if self.kind.name == "dtype" and bool_scalar_changes_promotion(operands, params):
            unknown = [self.placeholder() for _ in outer_results]
            self.create(self.kind.calculation_yield_op, operands=unknown)
            return
        args = [self.adapt(v, p, i) for i, (v, p) in enumerate(zip(operands, params, strict=True))]
        call = self.create(
            "func.call",
            operands=args,
            results=list(self.fn_type.results),
            attributes={"callee": ir.FlatSymbolRefAttr.get(self.symbol)},
        )
        if len(call.results) != 1:
            self.fail(f"expects @\"{self.symbol}\" to return one value, it returns {len(call.results)}")
        result = call.result
        if not from_list and checks_only(self.op, None):  # the call is there for its checks
            unknown = self.type(self.kind.result_type())
            values = [self.create("torch.prim.Uninitialized", results=[unknown]).result for _ in outer_results]
        elif from_list:
            values = self.split_list(result, len(outer_results))
        else:
            values = self.split_results(result, outer_results)
        self.create(self.kind.calculation_yield_op, operands=values)

    def split_list(self, result: ir.Value, count: int) -> list[ir.Value]:
        element = self.kind.result_type()
        if self.kind.name == "dtype" and str(result.type) == element:  # one dtype per piece: dtypes_agree
            return [result] * count
        expected = f"!torch.list<{element[len('!torch.'):]}>"
        if str(result.type) != expected:
            self.fail(f"expects @\"{self.symbol}\" to return '{expected}', not '{result.type}'")
        element_type = self.type(element)
        return [
            self.create("torch.aten.__getitem__.t", [result, self.constant_int(i)], [element_type]).result
            for i in range(count)
        ]

    def split_results(self, result: ir.Value, outer_results) -> list[ir.Value]:
        described = [i for i, r in enumerate(outer_results) if self.kind.describes(str(r.type))]
        element = self.kind.result_type()
        if len(described) == 1:
            expected = element
            values = [result]
        else:
            expected = "!torch.tuple<" + ", ".join([element[len("!torch.") :]] * len(described)) + ">"
            values = None
        if str(result.type) != expected:
            self.fail(f"expects @\"{self.symbol}\" to return '{expected}', not '{result.type}'")
        if values is None:
            element_types = [self.type(element)] * len(described)
            values = list(self.create("torch.prim.TupleUnpack", [result], element_types).results)
        by_index = dict(zip(described, values, strict=True))
        return [by_index[i] if i in by_index else self.placeholder() for i in range(len(outer_results))]

    def placeholder(self) -> ir.Value:
        if self.kind.name == "shape":
            return self.create("torch.prim.ListConstruct", results=[self.type("!torch.list<int>")]).result
        return self.constant_int(-1)

    # Operand adaptation: returns `value` converted to `param_type`, each step of the calling
    # convention (engine/convention.py) built in IR.
    def adapt(self, value: ir.Value, param_type: ir.Type, index: int) -> ir.Value:
        value_text = str(value.type)
        step = passing(value_text, str(param_type), self.kind.name)
        if step is Step.SAME:
            return self.copy_literal(value) if value_text.startswith("!torch.list<") else value
        if step in (Step.NONE, Step.OPTIONAL, Step.UNWRAP):
            return self.adapt_to_optional(value, param_type, index, step)
        if is_tensor_type_text(value_text):
            return self.adapt_tensor(value, param_type, index, step)
        if step is Step.ELEMENTS:
            return self.adapt_list(value, param_type, index)
        if step is Step.TO_FLOAT:
            return self.create("torch.aten.Float.Scalar", [value], [param_type]).result
        if step is Step.BOOL_AS_INT:
            as_int = self.create("torch.aten.Int.bool", [value], [self.type("!torch.int")]).result
            return self.adapt(as_int, param_type, index)
        return self.derefine(value, param_type, index)

    def copy_literal(self, value: ir.Value) -> ir.Value:
        """A copy, inside the calculation, of an unmutated list literal: reads of the copy
        are folded by looking at its own few users, not at every op sharing the literal."""
        elements = literal_elements(value)
        if elements is None:
            return value
        return self.create("torch.prim.ListConstruct", elements, [value.type]).result

    def adapt_to_optional(self, value: ir.Value, param_type: ir.Type, index: int, step: Step) -> ir.Value:
        if step is Step.NONE:
            return self.derefine(value, param_type, index)
        inner = self.type(inner_type(str(param_type)))
        if step is Step.OPTIONAL:
            return self.derefine(self.adapt(value, inner, index), param_type, index)
        none = self.create("torch.constant.none", results=[self.type("!torch.none")]).result
        is_none = self.create("torch.aten.__is__", [value, none], [self.type("!torch.bool")]).result
        branch = self.create("torch.prim.If", [is_none], [param_type], regions=2)
        outer_ip = self.ip
        try:
            self.ip = ir.InsertionPoint(ir.Block.create_at_start(branch.regions[0]))
            self.create("torch.prim.If.yield", [self.derefine(none, param_type, index)])
            self.ip = ir.InsertionPoint(ir.Block.create_at_start(branch.regions[1]))
            present = self.type(inner_type(str(value.type)))
            cast = self.create("torch.prim.unchecked_cast", [value], [present]).result
            adapted = self.derefine(self.adapt(cast, inner, index), param_type, index)
            self.create("torch.prim.If.yield", [adapted])
        finally:
            self.ip = outer_ip
        return branch.result

    def adapt_tensor(self, value: ir.Value, param_type: ir.Type, index: int, step: Step) -> ir.Value:
        value = most_precise_alias(value)  # memo keys read the same value (memo.memo_key)
        if step is Step.SIZES:
            return self.create("torch.aten.size", [value], [param_type]).result
        if step is Step.RANK_DTYPE:
            int_type = self.type("!torch.int")
            rank = self.create("torch.aten.dim", [value], [int_type]).result
            dtype = self.create("torch.prim.dtype", [value], [int_type]).result
            return self.create("torch.prim.TupleConstruct", [rank, dtype], [param_type]).result
        return self.derefine(value, param_type, index)

    def adapt_list(self, value: ir.Value, param_type: ir.Type, index: int) -> ir.Value:
        element_type = self.type(inner_type(str(param_type)))
        elements = literal_elements(value)
        if elements is not None:
            adapted = [self.adapt(e, element_type, index) for e in elements]
            return self.create("torch.prim.ListConstruct", adapted, [param_type]).result
        return self.adapt_list_in_loop(value, param_type, element_type, index)

    def adapt_list_in_loop(self, value, param_type, element_type, index) -> ir.Value:
        int_type, bool_type = self.type("!torch.int"), self.type("!torch.bool")
        adapted_list = self.create("torch.prim.ListConstruct", results=[param_type]).result
        length = self.create("torch.aten.len.t", [value], [int_type]).result
        true = self.create(
            "torch.constant.bool", results=[bool_type], attributes={"value": ir.BoolAttr.get(True)}
        ).result
        loop = self.create("torch.prim.Loop", [length, true], regions=1)
        body = ir.Block.create_at_start(loop.regions[0], [int_type], [self.location])
        outer_ip = self.ip
        try:
            self.ip = ir.InsertionPoint(body)
            value_element = self.type(inner_type(str(value.type)))
            element = self.create("torch.aten.__getitem__.t", [value, body.arguments[0]], [value_element]).result
            adapted = self.adapt(element, element_type, index)
            self.create("torch.aten.append.t", [adapted_list, adapted], [param_type])
            self.create("torch.prim.Loop.condition", [true])
        finally:
            self.ip = outer_ip
        return adapted_list

    def derefine(self, value: ir.Value, param_type: ir.Type, index: int) -> ir.Value:
        derefine = self.create("torch.derefine", [value], [param_type])
        if _verifies(derefine):
            return derefine.result
        derefine.erase()
        return self.fail(
            f"operand #{index} of type '{value.type}' cannot be passed as parameter of type "
            f"'{param_type}' of @\"{self.symbol}\""
        )


def bool_scalar_changes_promotion(operands, params) -> bool:
    """Whether a dtype function could answer differently for a bool Scalar passed as the
    int 0/1 (no number is typed bool). Promotion ranks a bool Scalar below every tensor
    category, so the int stands in exactly unless a tensor operand is (or may be) bool."""
    passes_bool = any(
        str(v.type) == "!torch.bool" and str(p) in ("!torch.number", "!torch.optional<number>")
        for v, p in zip(operands, params, strict=False)
    )
    if not passes_bool:
        return False
    for value in operands:
        if not is_tensor_type_text(str(value.type)):
            continue
        info = parse_type(value.type)
        if info is None or info.dtype in (None, "i1"):
            return True
    return False


def _verifies(op) -> bool:
    try:
        op.verify()
    except ir.MLIRError:
        return False
    return True
