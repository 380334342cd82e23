"""Running a library function on an op whose arguments are all known at compile time.

The greedy way (reify, inline, simplify, drop) spends a few milliseconds of Python pattern
callbacks on each distinct calculation. When everything the function receives is a
constant (static sizes, known ranks and dtypes, constant scalars and list literals),
running it is cheaper: each library function is compiled once per process into steps
over Python values (ints, floats, bools, strings, lists, tuples) and executed. The steps
are linked from the function's plan (`function_plan`: its ops as plain data), which the
generator stores for the embedded library (library/storage.py), so no IR is parsed.

The evaluator decides nothing the greedy way would not: a size that is not a constant, a
tensor op, an op it does not know, a check that raises, a Python error (an index out of
range, a division by zero, an int beyond int64) or too many steps make it give up, and the
op is calculated the greedy way, which also reports failed checks at the op.

A comparison of sizes that their ranges do not decide is a `_Condition` (a bool known only
at run time). A check raising on it becomes a guard: the evaluation goes on along the
branch that does not raise, and `Evaluation.assert_guards` asserts the condition in front of the
op (`torch.runtime.assert`, as drop_calculations keeps an undecided check). An If on a
condition whose branches only compute values yields `and`/`or` of conditions for bools
and an unknown size for two different sizes; anything else that reads a condition gives up.
"""

from __future__ import annotations

import math
import operator
import weakref

from torch_refine.calculations.kind import SHAPE, CalculationKind, is_overflow_check
from torch_refine.calculations.ranges import (
    enclosing_function,
    polynomial_range,
)
from torch_refine.calculations.store import FactStore, Scope
from torch_refine.engine.cases import _canonical, _relevant, decide_by_cases
from torch_refine.engine.evaluator_arguments import _argument, _split
from torch_refine.engine.evaluator_ops import (
    _EXACT_FLOAT_INTEGERS,
    _FLOAT_ARITHMETIC,
    _FLOAT_COMPARISONS,
    _FLOAT_CONDITION_OPS,
    _PURE,
    _SCOPED,
    _compare_opaque,
    _give_up,
    _opaque,
    _product_factor,
    _scaled_by_power_of_two,
)
from torch_refine.engine.evaluator_values import (
    _UNKNOWN_SIZE,
    Evaluation,
    GiveUp,
    Guard,
    _broadcast_pair,
    _choose,
    _clamp_bound,
    _Condition,
    _connect,
    _copied,
    _decide,
    _is_size,
    _never_one_when_clamped,
    _nonzero_parts,
    _not,
    _OpaqueFloat,
    _SizeFloat,
    _symbolic,
)
from torch_refine.engine.exact_quotients import of_dividends
from torch_refine.engine.reify import bool_scalar_changes_promotion
from torch_refine.engine.simplifier import Options
from torch_refine.ir.constants import CONSTANT_OPS, op_key
from torch_refine.library.plans import IF, LOOP, function_plan
from torch_refine.symbolic.comparisons import INT_COMPARISON_OF_TEST, INT_COMPARISONS, MIRRORED_TESTS
from torch_refine.symbolic.polynomial import Polynomial
from torch_refine.symbolic.semantics import MEANINGS, Meaning

# Steps one evaluation may run (loops count each iteration) before giving up: a loop over
# an odd huge size costs the greedy way's unroll cap, not an unbounded Python loop.
MAX_STEPS = 100_000
MAX_UNROLL = Options.max_unroll


# Ops a branch run on an undecided condition must not hold (besides region ops): they
# change lists or run other functions.
_NOT_SPECULATIVE = frozenset({"func.call", "torch.aten._set_item.t", "torch.aten.append.t",
                              "torch.aten.insert.t"})

_COMPILED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # library -> symbol -> its compiled function


class _Raise:
    """A block's `prim.RaiseException`: its message's text where it is known at compile
    time (see ir.constants.string_text), and the message's slot."""

    __slots__ = ("slot", "text")

    def __init__(self, text: str | None, slot: int) -> None:
        self.text = text
        self.slot = slot


class _Block:
    """Steps and yielded slots; `raises`: the block's top-level raise, or None; `pure`:
    its steps but a raise only compute values (no loop, call, list mutation, or If that
    may raise), so it may run on a branch that is not taken."""

    __slots__ = ("arguments", "pure", "raises", "steps", "yielded")

    def __init__(self, arguments: list[int], steps: list, yielded: list[int], raises, pure: bool) -> None:
        self.arguments = arguments
        self.steps = steps
        self.yielded = yielded
        self.raises = raises
        self.pure = pure


class _Function:
    """A compiled function: its body, its environment's size, its parameter types' texts
    (read on every evaluation)."""

    __slots__ = ("body", "parameter_texts", "slots")

    def __init__(self, body: _Block, slots: int, parameter_texts: list[str]) -> None:
        self.body = body
        self.slots = slots
        self.parameter_texts = parameter_texts


def evaluator_for(library, store: FactStore) -> Evaluator:
    """An evaluator of `library` for one run (`store`, its facts); the functions it
    compiles are kept per library, so a function compiles once."""
    if library not in _COMPILED:
        _COMPILED[library] = {}
    return Evaluator(library, store, _COMPILED[library])


class Evaluator:
    """Runs library functions (`library.plan(symbol)`, else `library.get(symbol)`), each
    compiled on first use."""

    def __init__(self, library, store: FactStore, compiled: dict) -> None:
        self._library = library
        self._store = store  # the run's facts
        self._compiled: dict[str, _Function | None] = compiled
        self._steps = 0
        self._entry = None  # the entry block of the evaluated op's function: its ranges
        self._function_key = None  # and its asserted facts
        self._scope = Scope(store, None, None)  # the evaluation's view of them (of no function before one)
        self._guards: list[Guard] = []

    def evaluate(self, op, unpack, kind: CalculationKind, symbol: str) -> Evaluation | None:
        """What the library function returns for `op` (for `unpack`'s results for a list
        result) and the guards that needs; None when the evaluator gives up."""
        function = self._function(symbol)
        if function is None:
            return None
        operands = list(op.operation.operands)
        outer = list((unpack if unpack is not None else op).operation.results)
        self._steps = 0
        self._guards = []
        function_op = enclosing_function(op)
        self._entry = function_op.regions[0].blocks[0] if function_op is not None else None
        self._function_key = op_key(function_op) if function_op is not None else None
        self._scope = Scope(self._store, self._function_key, self._entry)
        return self._evaluate(kind, function, operands, outer, unpack is not None)

    def _evaluate(self, kind: CalculationKind, function: _Function, operands: list, outer: list,
                  unpacked: bool) -> Evaluation | None:
        parameters = function.parameter_texts
        try:
            if len(operands) != len(parameters):
                raise GiveUp
            if kind is not SHAPE and bool_scalar_changes_promotion(operands, function.parameter_texts):
                raise GiveUp  # reify passes no dtype then
            arguments = [_argument(v, p, kind, self._scope) for v, p in zip(operands, parameters, strict=True)]
            (result,) = self._call(function, arguments)
            values = _split(result, outer, kind, unpacked, self._scope)
            self._guard_divisors()
            return Evaluation(values, [g for g in self._guards if not self._holds_already(g)])
        except GiveUp:
            return None
        except (ArithmeticError, IndexError, TypeError, ValueError, RecursionError):
            return None  # what TorchScript raises on too: the greedy way reports it

    # -- compiling -----------------------------------------------------------------------

    def _function(self, symbol: str) -> _Function | None:
        if symbol not in self._compiled:
            self._compiled[symbol] = None  # a recursive call gives up rather than loop
            plan = self._library.plan(symbol)
            if plan is None:
                plan = function_plan(self._library.get(symbol))
            if plan is not None:
                self._compiled[symbol] = _link_function(plan)
        return self._compiled[symbol]

    # -- running -------------------------------------------------------------------------

    def _call(self, function: _Function, arguments: list) -> list:
        environment = [None] * function.slots
        return self._run(function.body, environment, arguments)

    def _run(self, block: _Block, environment: list, arguments: list) -> list:
        for slot, value in zip(block.arguments, arguments, strict=True):
            environment[slot] = value
        self._steps += len(block.steps)
        if self._steps > MAX_STEPS:
            raise GiveUp
        for kind, operands, results, payload in block.steps:
            values = [environment[i] for i in operands]
            if kind is _PURE_STEP:
                environment[results[0]] = payload(*values)
                continue
            if kind is _SCOPED_STEP:
                environment[results[0]] = payload(self._scope, *values)
                continue
            outputs = kind(self, values, payload, environment)
            for slot, value in zip(results, outputs, strict=True):
                environment[slot] = value
        return [environment[i] for i in block.yielded]

    def _if(self, values: list, branches: tuple, environment: list) -> list:
        condition = self._assumed(values[0])
        if isinstance(condition, _Condition):
            return self._if_undecided(condition, *branches, environment)
        return self._run(branches[0] if condition else branches[1], environment, [])

    def _if_undecided(self, condition: _Condition, then: _Block, otherwise: _Block, environment: list) -> list:
        """A check raising on one side is a guard, and the other side runs; an If whose
        sides only compute values runs both and chooses per result at run time."""
        if then.raises is not None and otherwise.raises is not None:
            raise GiveUp  # raises either way: the greedy way reports it
        if then.raises is not None or otherwise.raises is not None:
            decided = decide_by_cases(condition.key(), self._entry, self._store)
            if decided is not None:
                return self._run(then if decided else otherwise, environment, [])
            raises_on = then.raises is not None
            message = self._message(then if raises_on else otherwise, environment)
            if not is_overflow_check(message):
                guard = self._specialized(condition, raises_on, message)
                self._guards.append(Guard(of_dividends(guard.condition, self._entry, self._store), guard.holds,
                                          guard.message))
            return self._run(otherwise if raises_on else then, environment, [])
        if not (then.pure and otherwise.pure):
            return self._both_branches(condition, then, otherwise, environment)
        chosen = self._run(then, environment, [])
        others = self._run(otherwise, environment, [])
        condition = self._equality_at_bound(condition)
        return [self._choose_assumed(condition, a, b) for a, b in zip(chosen, others, strict=True)]

    def _choose_assumed(self, condition: _Condition, then, otherwise):
        """`_choose`, where the function's asserted conditions and this evaluation's own
        guards make one side the value in every case: `7 if n == 1 else n` after the
        broadcast check `n == 7 or n == 1` is 7."""
        if then is otherwise:  # both sides computed it alike: no case to split
            return then
        if not (_is_size(then) and _is_size(otherwise)) or then is _UNKNOWN_SIZE or otherwise is _UNKNOWN_SIZE:
            return _choose(condition, then, otherwise, self._scope)
        assumed = [*self._store.compound_assumptions(self._function_key),
                   *((g.condition.key(), g.holds) for g in self._guards if isinstance(g.condition, _Condition))]
        if not assumed:
            return _choose(condition, then, otherwise, self._scope)
        same = ("torch.aten.eq.int", _symbolic(then, self._scope), _symbolic(otherwise, self._scope))
        for key, side in (((("or", condition.key(), same)), then), (("or", ("not", condition.key()), same), otherwise)):
            if decide_by_cases(key, self._entry, self._store, assumptions=_relevant(key, assumed)) is True:
                return side
        return _choose(condition, then, otherwise, self._scope)

    def _equality_at_bound(self, condition: _Condition) -> _Condition:
        """`a >= b` where the ranges say `a <= b` holds only at `a == b` (and `a <= b`
        where `a >= b`): as that equality, `_choose` sees that `b if a >= b else a`, the
        clamp of a size `a` to an asserted bound `b`, is `a`."""
        if condition.op not in ("torch.aten.ge.int", "torch.aten.le.int"):
            return condition
        a, b = condition.operands
        least, greatest = polynomial_range(a - b, self._entry, self._store)
        if (greatest if condition.op == "torch.aten.ge.int" else least) != 0:
            return condition
        return _Condition("torch.aten.eq.int", a, b)

    def _both_branches(self, condition: _Condition, then: _Block, otherwise: _Block, environment: list) -> list:
        """An If whose branches check (or call, or mutate lists): each branch runs on a copy
        of the lists it may change; where one changed a list that exists outside it, give up.
        A guard of a branch holds only where the branch runs: `not condition or guard`; an
        equality it asserts replaces symbols only inside it."""
        original, guards = list(environment), self._guards
        results = []
        for block, taken in ((then, condition), (otherwise, _not(condition))):
            environment[:] = [_copied(v) for v in original]
            self._guards = []
            with self._scope.branch():
                results.append(self._run(block, environment, []))
            if any(isinstance(v, list) and v != environment[i] for i, v in enumerate(original)):
                raise GiveUp  # the branch changed a list the code after the If may read
            guards.extend(Guard(_connect("or", _not(taken), g.condition if g.holds else _not(g.condition)),
                                True, g.message) for g in self._guards)
        environment[:] = original
        self._guards = guards
        return [_choose(condition, a, b, self._scope) for a, b in zip(*results, strict=True)]

    def _holds_already(self, guard: Guard) -> bool:
        """A guard whose whole condition the ranges and the asserted conditions decide as it
        must hold: each If of a check asked only for its own comparison."""
        if not isinstance(guard.condition, _Condition):
            return False
        key = guard.condition.key()
        own = {_canonical(key), _canonical(("not", key))}
        assumptions = _relevant(key, [(a, h) for a, h in self._store.compound_assumptions(self._function_key)
                                      if _canonical(a) not in own])
        return decide_by_cases(key, self._entry, self._store, assumptions=assumptions) is guard.holds

    def _guard_divisors(self) -> None:
        """A quotient by a symbolic size holds where the size is not 0: where the ranges
        do not say so, that is a guard (TorchScript raises on it; so does PyTorch's op)."""
        scope = self._scope
        for divisor in {p for d in scope.divisors for p in _nonzero_parts(_symbolic(d, scope))}:
            try:
                if _decide(operator.ne, *polynomial_range(_symbolic(divisor, scope), self._entry, self._store)):
                    continue
            except GiveUp:
                pass
            nonzero = _Condition("torch.aten.ne.int", _symbolic(divisor, scope), Polynomial.constant(0))
            condition = self._assumed(nonzero)
            if isinstance(condition, _Condition):
                self._guards.append(Guard(condition, True, "division by zero in the shape calculation"))

    def _specialized(self, condition: _Condition, raises_on: bool, message: str | None) -> Guard:
        """The guard for a check. A broadcast check of two dynamic sizes (`a != b and a != 1
        and b != 1` raises) is asserted as `a == b` where the ranges put both at 2 or more
        (torch.export's dims), or everywhere under `broadcast-equal`: then one size stands
        for both, here and, once asserted at the entry, in every later op. Elsewhere it is
        PyTorch's own check, and the size stays `b if a == 1 else a`."""
        pair = _broadcast_pair(condition) if raises_on else None
        if pair is None:
            return Guard(condition, not raises_on, message)
        a, b = pair
        bound = _clamp_bound(a, b)
        if bound is None:
            bound = _clamp_bound(b, a)
        if bound is not None and _never_one_when_clamped(bound):
            return Guard(bound, True, message)
        if not self._equal_when_broadcast(a, b):
            return Guard(condition, not raises_on, message)
        self._scope.extend(a, b)
        return Guard(_Condition("torch.aten.eq.int", a, b) if bound is None else bound, True, message)

    def _equal_when_broadcast(self, a: Polynomial, b: Polynomial) -> bool:
        """Whether a broadcast of `a` and `b` asserts their equality: where neither can be 1
        (PyTorch's check then says no more), and under torch.export's rule
        (`broadcast-equal`) wherever both can be 2 or more (a computed size at most 1, a
        slice of a dim of 1, broadcasts as PyTorch says)."""
        ranges = [polynomial_range(size, self._entry, self._store) for size in (a, b)]
        if self._store.broadcast_equal:
            return all(greatest is None or greatest >= 2 for _, greatest in ranges)
        return all(least is not None and least >= 2 for least, _ in ranges)

    def _message(self, raising: _Block, environment: list) -> str | None:
        """A raise's message: the string its block builds before raising (from a function
        argument, as `op + ": ..."`, its formatted sizes named), else its compile-time
        text."""
        if not raising.pure:
            return raising.raises.text
        environment[raising.raises.slot] = None
        try:
            self._run(raising, environment, [])
        except GiveUp:
            pass  # the raise, or a step before it: either way the slot says what it built
        message = environment[raising.raises.slot]
        return message if isinstance(message, str) else raising.raises.text

    def _loop(self, values: list, body: _Block, environment: list) -> list:
        trip_count, condition, carried = values[0], values[1], values[2:]
        iteration = 0
        while condition and iteration < trip_count:
            if iteration == MAX_UNROLL:
                raise GiveUp  # the IR's unroll cap: both ways leave such a loop alone
            condition, *carried = self._run(body, environment, [iteration, *carried])
            iteration += 1
        return carried

    def _func_call(self, values: list, symbol: str, environment: list) -> list:
        callee = self._function(symbol)
        if callee is None:
            raise GiveUp
        return self._call(callee, values)

    # Int comparisons, decided on symbolic sizes by the range of their difference
    # (calculations/ranges.py), as patterns/scalars.py decides them in the IR; one the
    # ranges do not decide is a condition.
    def _compare(self, values: list, name: str, environment: list) -> list:
        a, b = values
        test = INT_COMPARISONS[name]
        if not isinstance(a, Polynomial) and not isinstance(b, Polynomial):
            return [test(a, b)]
        a, b = _symbolic(a, self._scope), _symbolic(b, self._scope)
        try:
            return [_decide(test, *polynomial_range(a - b, self._entry, self._store))]
        except GiveUp:
            return [self._assumed(_Condition(name, a, b))]

    def _assumed(self, condition):
        """A condition asserted at the function's entry is decided. It stays a guard of
        the evaluation (asserted there already, so nothing is built), so an answer that
        relies on it is not remembered for other functions."""
        if not isinstance(condition, _Condition):
            return condition
        decision = self._store.decided(self._function_key, condition.key())
        if decision is None or not decision.by_assertion:
            return condition
        self._guards.append(Guard(condition, decision.holds, None))
        return decision.holds

    def _test(self, test, a, b) -> bool:
        if not isinstance(a, Polynomial) and not isinstance(b, Polynomial):
            return test(a, b)
        difference = _symbolic(a, self._scope) - _symbolic(b, self._scope)
        return _decide(test, *polynomial_range(difference, self._entry, self._store))

    def _float_arithmetic(self, values: list, meaning: Meaning, environment: list) -> list:
        a, b = values
        combine = meaning.test
        if isinstance(a, _OpaqueFloat) or isinstance(b, _OpaqueFloat):
            return [_opaque(combine, b)]
        if not isinstance(a, _SizeFloat) and not isinstance(b, _SizeFloat):
            if combine is operator.truediv and b == 0:
                raise GiveUp
            return [meaning.compute(a, b)]
        if isinstance(a, _SizeFloat) and b == meaning.identity:
            return [a]
        if combine is operator.truediv:
            return [_opaque(combine, b)]
        if combine is operator.mul and (doubled := _scaled_by_power_of_two(a, b) or _scaled_by_power_of_two(b, a)):
            return [doubled]
        try:
            polynomial = combine(self._exact_polynomial(a), self._exact_polynomial(b))
            self._exact_polynomial(_SizeFloat(polynomial))
            return [_SizeFloat(polynomial)]
        except GiveUp:
            if combine is not operator.mul:
                return [_opaque(combine, b)]
            return [_SizeFloat(_product_factor(a) * _product_factor(b), exact=False)]

    def _exact_polynomial(self, value) -> Polynomial:
        """The polynomial of a float computed exactly from sizes, or give up."""
        if isinstance(value, _SizeFloat):
            if not value.exact:
                raise GiveUp
            least, greatest = polynomial_range(value.polynomial, self._entry, self._store)
            if least is None or greatest is None or max(-least, greatest) > _EXACT_FLOAT_INTEGERS:
                raise GiveUp
            return value.polynomial
        if not value.is_integer() or abs(value) > _EXACT_FLOAT_INTEGERS:
            raise GiveUp
        return Polynomial.constant(int(value))

    def _compare_floats(self, values: list, meaning: Meaning, environment: list) -> list:
        a, b = values
        test = meaning.test
        if isinstance(a, _OpaqueFloat) or isinstance(b, _OpaqueFloat):
            return [_compare_opaque(a, b, test)]
        if not isinstance(a, _SizeFloat) and not isinstance(b, _SizeFloat):
            return [meaning.compute(a, b)]
        if not isinstance(a, _SizeFloat):
            a, b, test = b, a, MIRRORED_TESTS[test]
        if isinstance(b, _SizeFloat):
            if a is b or (a.exact and b.exact and a.polynomial == b.polynomial):
                return [test(0, 0)]  # one exact value (`x == x`: a size is not NaN)
            difference = self._exact_polynomial(a) - self._exact_polynomial(b)
            return [_decide(test, *polynomial_range(difference, self._entry, self._store))]
        return self._compare_with_constant(a, b, test, environment)

    def _compare_with_constant(self, a: _SizeFloat, b: float, test, environment: list) -> list:
        """`test(a, b)` of a size float and a float constant."""
        if math.isnan(b):
            raise GiveUp
        if b == math.inf or b == -math.inf:
            return [test(0.0, b)]  # sizes are finite
        if a.exact and float(b).is_integer() and abs(b) < _EXACT_FLOAT_INTEGERS:
            # `float(n - 1) >= 0.0` is `n - 1 >= 0`
            return self._compare([a.polynomial, int(b)], INT_COMPARISON_OF_TEST[test], environment)
        low, high = self._float_range(a)
        if test is operator.eq or test is operator.ne:
            if b < low or b > high:
                return [test(0, 1)]
        elif test(low, b) == test(high, b):
            return [test(low, b)]
        if test not in _FLOAT_CONDITION_OPS:
            raise GiveUp
        return [_Condition(_FLOAT_CONDITION_OPS[test], a.polynomial, b)]

    def _float_range(self, value: _SizeFloat) -> tuple[float, float]:
        """Bounds of the float: its polynomial's range (rounding a size to a float is
        monotonic), widened for an inexact product by more than its rounding (2**-46 over
        64 factors)."""
        least, greatest = polynomial_range(value.polynomial, self._entry, self._store)
        low = -math.inf if least is None else float(least)
        high = math.inf if greatest is None else float(greatest)
        if value.exact:
            return low, high
        return low * (1 - 2**-40), high * (1 + 2**-40)

    def _extreme(self, values: list, name: str, environment: list) -> list:
        """`min`/`max` of two ints (`name` the comparison choosing `a`); where the ranges
        do not decide it (`max(s, 1)` of a size that may be 0), the select of the two."""
        a, b = values
        (chosen,) = self._compare(values, name, environment)
        if isinstance(chosen, _Condition):
            return [_choose(self._equality_at_bound(chosen), a, b, self._scope)]
        return [a if chosen else b]

    def _lists_equal(self, values: list, equal: bool, environment: list) -> list:
        a, b = values
        same = len(a) == len(b) and all(self._test(operator.eq, x, y) for x, y in zip(a, b))
        return [same == equal]

    def _contains(self, values: list, _payload, environment: list) -> list:
        elements, value = values
        found = [self._test(operator.eq, e, value) for e in elements]
        return [any(found)]

    def _tuple_unpack(self, values: list, _payload, environment: list) -> tuple:
        return values[0]

    def _constant(self, values: list, value, environment: list) -> list:
        return [value]


# Ops run by an Evaluator method (they read ranges or yield several results): the
# method, and what it is passed.
_METHOD_STEPS = {
    **{name: (Evaluator._compare, name) for name in INT_COMPARISONS},
    **{name: (Evaluator._compare_floats, MEANINGS[name]) for name in _FLOAT_COMPARISONS},
    **{name: (Evaluator._float_arithmetic, MEANINGS[name]) for name in _FLOAT_ARITHMETIC},
    "torch.prim.min.int": (Evaluator._extreme, "torch.aten.le.int"),
    "torch.prim.max.int": (Evaluator._extreme, "torch.aten.ge.int"),
    "torch.aten.eq.int_list": (Evaluator._lists_equal, True),
    "torch.aten.ne.int_list": (Evaluator._lists_equal, False),
    "torch.aten.__contains__.int_list": (Evaluator._contains, None),
    "torch.prim.TupleUnpack": (Evaluator._tuple_unpack, None),
}
_PURE_STEP = object()  # the marker of a step run inline by `_run`
_SCOPED_STEP = object()  # and of one run inline given the evaluation's scope too


def _link_function(plan: tuple) -> _Function:
    parameter_texts, slots, body = plan
    return _Function(_link_block(body), slots, parameter_texts)


def _link_block(plan: tuple) -> _Block:
    arguments, step_plans, yielded, raises = plan
    steps = tuple(_link_step(*step) for step in step_plans)
    pure = all(_speculative(step_plan[0], step) for step_plan, step in zip(step_plans, steps))
    return _Block(arguments, steps, yielded, None if raises is None else _Raise(*raises), pure)


def _link_step(name: str, operands: list, results: list, extra) -> tuple:
    if name in CONSTANT_OPS:
        return (Evaluator._constant, (), results, extra)
    if name == IF:
        return (Evaluator._if, operands, results, (_link_block(extra[0]), _link_block(extra[1])))
    if name == LOOP:
        return (Evaluator._loop, operands, results, _link_block(extra))
    if name == "func.call":
        return (Evaluator._func_call, operands, results, extra)
    method = _METHOD_STEPS.get(name)
    if method is not None:
        return (method[0], operands, results, method[1])
    scoped = _SCOPED.get(name)
    if scoped is not None and len(results) <= 1:
        return (_SCOPED_STEP, operands, results or (0,), scoped)
    pure = _PURE.get(name)
    if pure is None or len(results) > 1:
        return (_PURE_STEP, operands, (0,), _give_up)  # given up only if run
    return (_PURE_STEP, operands, results or (0,), pure)


def _speculative(name: str, step: tuple) -> bool:
    """Whether running the op `name` where it may not run changes nothing but its results."""
    if name == IF:
        return all(branch.pure and branch.raises is None for branch in step[3])
    return name != LOOP and name not in _NOT_SPECULATIVE


# -- arguments and results -----------------------------------------------------------------


