"""`torch-refine-inline-library-calls`: inline library functions into calculate regions.

Every `func.call` to a library function inside a `torch.{shape,dtype}.calculate` op is
replaced by a copy of the callee's body, recursively, so that the simplify passes see
one straight region per op. Calls to user functions are left alone. Library functions
nothing calls any more are erased.

Library functions come from TorchScript, so each is one block ending in `func.return`;
anything else is reported rather than guessed at.

This pass inlines the library functions the module holds, whoever wrote them: it loads no
library, so it has nothing to check them against. In a pipeline it runs after a reify
pass, which owns those functions (it cloned them, and it rejects input functions with
library symbols that are not such clones: `reify.reject_forged_functions`). Run alone on
hand-written IR, as in its lit suite, the module's functions are the library.
"""

from __future__ import annotations

from torch_mlir import ir

from torch_refine.calculations.kind import CALCULATE_OPS
from torch_refine.calculations.symbols import is_library_symbol, user_functions
from torch_refine.errors import PassFailure
from torch_refine.ir.module import copy_body_before, functions, ops_in, symbol_name


def inline_library_calls(module) -> None:
    """Inline every library call of the module's calculations; erase what nothing calls."""
    with module.context:
        by_symbol = {symbol_name(fn): fn for fn in functions(module)}
        _inline_all(_library_calls_in_calculations(module), by_symbol)
        erase_unused_library_functions(module)


def inline_library_calls_in(calculate, by_symbol: dict) -> None:
    """Inline the library calls of one calculate op's calculation region (the pipelines
    inline lazily, only the calculations their memo does not already know)."""
    _inline_all(_library_calls_in(calculate.regions[1]), by_symbol)


def _inline_all(calls: list, by_symbol: dict) -> None:
    worklist = [(call, ()) for call in calls]
    while worklist:
        call, chain = worklist.pop()
        callee_symbol = _callee(call)
        callee = by_symbol.get(callee_symbol)
        _check_inlinable(call, callee, callee_symbol, chain)
        inner_chain = (*chain, callee_symbol)
        worklist.extend((inner, inner_chain) for inner in _inline(call, callee))


def _callee(call) -> str:
    return ir.FlatSymbolRefAttr(call.attributes["callee"]).value


def _is_library_call(op) -> bool:
    return op.name == "func.call" and is_library_symbol(_callee(op))


def _library_calls_in_calculations(module) -> list:
    calls = []

    def visit(op):
        if op.name not in CALCULATE_OPS:
            return ir.WalkResult.ADVANCE
        calls.extend(_library_calls_in(op.regions[1]))
        return ir.WalkResult.SKIP

    for fn in user_functions(module):
        fn.operation.walk(visit)
    return calls


def _library_calls_in(region) -> list:
    return ops_in(region, _is_library_call)


def _check_inlinable(call, callee, symbol: str, chain: tuple) -> None:
    if callee is None:
        _fail(call, f"calls @{symbol}, which is not defined in the module")
    if symbol in chain:
        _fail(call, f"calls @{symbol} recursively (through {' -> '.join(chain)}); library functions cannot recurse")
    blocks = list(callee.regions[0].blocks)
    if len(blocks) != 1:
        _fail(call, f"calls @{symbol}, which has {len(blocks)} blocks; "
                    "only single-block library functions can be inlined")
    operations = list(blocks[0].operations)
    if not operations or operations[-1].operation.name != "func.return":
        _fail(call, f"calls @{symbol}, whose body does not end in func.return")


def _fail(call, message: str):
    call.location.emit_error(f"'func.call' op {message}")
    raise PassFailure


def _inline(call, callee) -> list:
    """Replace `call` by a copy of `callee`'s body; returns the library calls in the copy."""
    operations, returned = copy_body_before(callee, list(call.operands), call)
    new_calls = []

    def collect(op):
        if _is_library_call(op):
            new_calls.append(op)
        return ir.WalkResult.ADVANCE

    for op in operations:
        op.operation.walk(collect)
    for result, value in zip(call.results, returned, strict=True):
        result.replace_all_uses_with(value)
    call.erase()
    return new_calls


def erase_unused_library_functions(module) -> None:
    """Erase the private library functions that no user function reaches through calls."""
    by_symbol = {symbol_name(fn): fn for fn in functions(module)}
    if not any(is_library_symbol(symbol) for symbol in by_symbol):
        return  # nothing to erase: skip walking the user functions for calls
    reached: set[str] = set()
    worklist = [fn for fn in by_symbol.values() if not is_library_symbol(symbol_name(fn))]
    while worklist:
        fn = worklist.pop()
        for symbol in _called_symbols(fn):
            if symbol not in reached and symbol in by_symbol:
                reached.add(symbol)
                worklist.append(by_symbol[symbol])
    for symbol, fn in by_symbol.items():
        if is_library_symbol(symbol) and symbol not in reached and _is_private(fn):
            fn.operation.erase()


def _called_symbols(fn) -> list[str]:
    symbols = []

    def visit(op):
        if op.name == "func.call":
            symbols.append(_callee(op))
        return ir.WalkResult.ADVANCE

    fn.operation.walk(visit)
    return symbols


def _is_private(fn) -> bool:
    attributes = fn.operation.attributes
    return "sym_visibility" in attributes and ir.StringAttr(attributes["sym_visibility"]).value == "private"
