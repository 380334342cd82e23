"""engine/guards.py on its own: condition keys reduced and described, messages, the entry
asserts a function starts with adopted as facts, and raising branches turned into asserts."""

from __future__ import annotations

from torch_refine.calculations import facts, ranges
from torch_refine.calculations.store import FactStore
from torch_refine.engine import guards
from torch_refine.ir.constants import op_key
from torch_refine.symbolic.polynomial import Polynomial

# The quotient forms of one run (`FactStore.quotient_forms`), shared by this module's tests.
FORMS: dict = {}

H, W = Polynomial.symbol(0, 0), Polynomial.symbol(0, 1)
(H_SYMBOL,), (W_SYMBOL,) = H.symbols(), W.symbols()
EQ, NE, GE, GT = "torch.aten.eq.int", "torch.aten.ne.int", "torch.aten.ge.int", "torch.aten.gt.int"
T = "!torch.vtensor<[?,?],f32>"
I2 = "!torch.int, !torch.int"
SIZES = f"""
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int4 = torch.constant.int 4
  %h = torch.aten.size.int %arg0, %int0 : {T}, !torch.int -> !torch.int
  %w = torch.aten.size.int %arg0, %int1 : {T}, !torch.int -> !torch.int"""


def _function(body: str) -> str:
    return f"func.func @main(%arg0: {T}) -> {T} {{{SIZES}\n{body}\n  return %arg0 : {T}\n}}"


def test_an_equality_is_stated_without_its_sides_common_factor():
    c = Polynomial.constant
    assert guards.reduced((EQ, c(256) * H, c(256) * W)) == (EQ, H, W)
    assert guards.reduced(("not", (NE, c(6) * H, c(4) * W))) == ("not", (NE, c(3) * H, c(2) * W))
    assert guards.reduced((GE, c(4) * H, c(8))) == (GE, c(4) * H, c(8))  # an inequality stays
    assert guards.reduced((EQ, H, W)) == (EQ, H, W)


def test_negations_are_taken_off_a_condition():
    key = (EQ, H, W)
    assert guards.positive(key, True) == (key, True)
    assert guards.positive(("not", key), False) == (key, True)
    assert guards.positive(("not", ("not", key)), False) == (key, False)


def test_an_asserted_equality_defines_a_replacement():
    assert guards.defines_replacement((EQ, H, W), True)
    assert guards.defines_replacement((NE, H, W), False)
    assert not guards.defines_replacement((EQ, H, W), False)
    assert not guards.defines_replacement((GE, H, W), True)


def test_a_condition_reads_as_python_over_argument_dims():
    quarter = facts.floor_divide(H, 4, forms=FORMS)
    one = Polynomial.constant(1)
    assert guards.describe((EQ, quarter, W)) == "(%arg0[0]) // 4 == %arg0[1]"
    assert guards.describe(("or", (EQ, H, W), ("and", (EQ, H, one), (GE, W, one)))) == (
        "%arg0[0] == %arg0[1] or (%arg0[0] == 1 and %arg0[1] >= 1)")
    assert guards.describe(("not", (EQ, H, one))) == "%arg0[0] != 1"  # a negation moved onto the comparison


def test_a_formatted_value_is_its_size_or_a_question_mark():
    assert guards.value_text(Polynomial.constant(3)) == "3"
    assert guards.value_text([H, 2]) == "[%arg0[0], 2]"
    assert guards.value_text(None) == "?"


def test_a_message_names_the_op_the_check_and_the_condition(parse):
    program = parse(_function(f"  %sum = torch.aten.add.Tensor %arg0, %arg0, %int1 : {T}, {T}, !torch.int -> {T} "
                              'loc("add")'))
    add = program.op("add")
    check = "AssertionError: The size of tensor a ({}) must match the size of tensor b ({})"
    assert guards.check_message(add, check) == "aten.add.Tensor: The size of tensor a (?) must match the size of tensor b (?)"
    assert guards.check_message(add, None) == "aten.add.Tensor: a check failed"
    assert guards.guard_message(add, None, (EQ, H, W), False) == "aten.add.Tensor: a check failed (requires %arg0[0] != %arg0[1])"


def test_a_kept_conditions_text(parse):
    program = parse(_function(f"""
  %0 = torch.aten.eq.int %h, %w : {I2} -> !torch.bool
  %1 = torch.aten.eq.int %h, %int1 : {I2} -> !torch.bool
  %2 = torch.aten.__or__.bool %0, %1 : !torch.bool, !torch.bool -> !torch.bool loc("either")
  %3 = torch.aten.__not__ %2 : !torch.bool -> !torch.bool loc("neither")
  %4 = torch.aten.Int.Tensor %arg1 : !torch.vtensor<[],si64> -> !torch.int
  %5 = torch.aten.eq.int %4, %int1 : {I2} -> !torch.bool loc("read")
""").replace(f"%arg0: {T})", f"%arg0: {T}, %arg1: !torch.vtensor<[],si64>)"))
    assert guards.described_condition(program.value("either"), FactStore()) == "%arg0[0] == %arg0[1] or %arg0[0] == 1"
    assert guards.described_condition(program.value("neither"), FactStore()) == "%arg0[0] != %arg0[1] and %arg0[0] != 1"
    assert guards.described_condition(program.value("read"), FactStore()) is None


def test_entry_asserts_comparing_sizes_become_facts(parse, facts_store):
    """`h == w` replaces one by the other; `h >= 4` narrows h's range; an assert after the
    first op that makes a tensor is no fact (that op runs whether or not it holds)."""
    program = parse(_function(f"""
  %0 = torch.aten.eq.int %h, %w : {I2} -> !torch.bool
  torch.runtime.assert %0, "square"
  %1 = torch.aten.ge.int %h, %int4 : {I2} -> !torch.bool
  torch.runtime.assert %1, "at least 4"
  %2 = torch.aten.relu %arg0 : {T} -> {T}
  %3 = torch.aten.ne.int %w, %int1 : {I2} -> !torch.bool
  torch.runtime.assert %3, "after a tensor op"
"""))
    guards.adopt_entry_asserts(program.module.operation, facts_store)
    function_key = op_key(program.function)
    assert facts_store.asserted(function_key, (EQ, H, W)) is True
    assert facts_store.asserted(function_key, (GE, H, Polynomial.constant(4))) is True
    assert facts_store.asserted(function_key, (NE, W, Polynomial.constant(1))) is None
    replaced = facts.resolved(H - W, facts_store.replacements(function_key), forms=FORMS)
    assert replaced == Polynomial()
    symbol = H_SYMBOL if H_SYMBOL not in facts_store.replacements(function_key) else W_SYMBOL
    assert facts_store.asserted_range(function_key, symbol)[0] == 4
    decision = facts_store.decided(function_key, (EQ, H, W))  # decided by itself, and from where
    assert decision.by_assertion
    assert decision.facts[0].source.startswith("the program's entry assert at loc(")


def test_a_branch_that_only_raises_becomes_an_assert(parse):
    program = parse(_function(f"""
  %str = torch.constant.str "AssertionError: h must be w"
  %none = torch.constant.none
  %0 = torch.aten.eq.int %h, %w : {I2} -> !torch.bool
  %1 = torch.prim.If %0 -> (!torch.int) {{
    %2 = torch.aten.add.int %h, %int1 : {I2} -> !torch.int
    torch.prim.If.yield %2 : !torch.int
  }} else {{
    torch.prim.RaiseException %str, %none : !torch.str, !torch.none
    torch.prim.If.yield %int0 : !torch.int
  }}
  %3 = torch.aten.mul.int %1, %int4 : {I2} -> !torch.int loc("user")
"""))
    assert guards.raising_branches_to_asserts(program.module.operation) == 1
    text = str(program)
    assert "prim.If" not in text
    assert "prim.RaiseException" not in text
    (assertion,) = program.ops_named("torch.runtime.assert")
    assert str(assertion.attributes["message"]) == '"h must be w"'
    assert guards.described_condition(assertion.operands[0], FactStore()) == "%arg0[0] == %arg0[1]"
    user = program.op("user")
    assert user.operands[0].owner.name == "torch.aten.add.int"
    program.module.operation.verify()


def test_a_programs_assert_after_a_tensor_op_moves_to_the_entry_as_a_fact(parse, facts_store):
    """torch-mlir's adaptive pool asserts `7 > 6 * (h % 7)` after the op giving h: it goes
    to the entry (the program raises there instead), and `h % 7` is in [0, 1] from then
    on. One reading a size the entry does not name, and a check of ours (marked), stay."""
    program = parse(_function(f"""
  %int6 = torch.constant.int 6
  %int7 = torch.constant.int 7
  %0 = torch.aten.relu %arg0 : {T} -> !torch.vtensor loc("relu")
  %1 = torch.aten.remainder.int %h, %int7 : {I2} -> !torch.int
  %2 = torch.aten.mul.int %1, %int6 : {I2} -> !torch.int
  %3 = torch.aten.gt.int %int7, %2 : {I2} -> !torch.bool
  torch.runtime.assert %3, "only support cases with fixed stride size"
  %4 = torch.aten.size.int %0, %int0 : !torch.vtensor, !torch.int -> !torch.int
  %5 = torch.aten.ge.int %4, %int1 : {I2} -> !torch.bool
  torch.runtime.assert %5, "a size of an erased type"
  torch.runtime.assert %5, "ours" {{torch_refine.guard_of = 1 : i64}}
"""))
    with program.module.context:
        assert guards.hoist_program_asserts(program.module.operation, facts_store)
    names = [op.operation.name for op in program.entry.operations]
    assert names.index("torch.runtime.assert") < names.index("torch.aten.relu")
    asserts = [op for op in program.entry.operations if op.operation.name == "torch.runtime.assert"]
    assert [str(op.attributes["message"]) for op in asserts] == [
        '"only support cases with fixed stride size"', '"a size of an erased type"', '"ours"']
    remainder = facts.remainder(H, 7, forms=FORMS)
    function_key = op_key(program.function)
    assert facts_store.asserted(function_key, (GT, Polynomial.constant(7), remainder * Polynomial.constant(6))) is True
    (quotient,) = facts.floor_divide(H, 7, forms=FORMS).symbols()
    assert facts_store.asserted_range(function_key, ranges.remainder_key(quotient)) == (0, 1)


def test_a_programs_assert_after_a_loop_stays(parse, facts_store):
    """The first round assumes a loop's carried tensors keep their dims: a size read after
    the loop may rest on that assumption, so no assert past it moves."""
    program = parse(_function(f"""
  %true = torch.constant.bool true
  %0 = torch.prim.Loop %int1, %true, init(%arg0) {{
  ^bb0(%i: !torch.int, %carried: {T}):
    torch.prim.Loop.condition %true, iter(%carried : {T})
  }} : (!torch.int, !torch.bool, {T}) -> {T}
  %1 = torch.aten.ge.int %h, %int4 : {I2} -> !torch.bool
  torch.runtime.assert %1, "after a loop"
"""))
    with program.module.context:
        assert not guards.hoist_program_asserts(program.module.operation, facts_store)
    assert facts_store.asserted(op_key(program.function), (GE, H, Polynomial.constant(4))) is None


def test_binds_come_first_in_the_entry_block(parse):
    program = parse(f"""
func.func @main(%arg0: {T}) -> {T} {{
  %s0 = torch.symbolic_int "s0" {{min_val = 2, max_val = 64}} : !torch.int
  torch.bind_symbolic_shape %arg0, [%s0], affine_map<()[s0] -> (s0, s0)> : {T} loc("bind")
  %int0 = torch.constant.int 0 loc("first")
  return %arg0 : {T}
}}""")
    bind = program.op("bind")
    assert guards.binds_argument(bind.operation)
    assert not guards.binds_argument(program.op("first").operation)
    with guards.after_argument_binds(program.entry):
        program.op("first").operation.clone()
    operations = [op.operation.name for op in program.entry.operations]
    assert operations.index("torch.bind_symbolic_shape") + 1 == operations.index("torch.constant.int")
    assert guards.entry_guards(program.module.operation, FactStore()) == []


def test_an_assert_of_a_condition_asserted_before_it_goes(parse):
    """Two ops' checks merged into one condition value: the later assert, and one in a
    branch after it, cannot fail; an assert of another condition, or one before, stays."""
    program = parse("""
func.func @main(%arg0: !torch.vtensor<[?],f32>, %flag: !torch.bool) -> !torch.int {
  %int0 = torch.constant.int 0
  %int4 = torch.constant.int 4
  %n = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?],f32>, !torch.int -> !torch.int
  %c = torch.aten.ge.int %n, %int4 : !torch.int, !torch.int -> !torch.bool
  %d = torch.aten.ne.int %n, %int0 : !torch.int, !torch.int -> !torch.bool
  torch.runtime.assert %c, "reshape"
  torch.runtime.assert %d, "division"
  torch.runtime.assert %c, "view"
  %r = torch.prim.If %flag -> (!torch.int) {
    torch.runtime.assert %c, "in a branch"
    torch.prim.If.yield %n : !torch.int
  } else {
    torch.prim.If.yield %int0 : !torch.int
  }
  return %r : !torch.int
}""")
    guards.erase_repeated_asserts(program.module.operation)
    text = str(program.module)
    assert [line.split('"')[1] for line in text.splitlines() if "torch.runtime.assert" in line] == ["reshape", "division"]
