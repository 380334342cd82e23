"""engine/known_values.py on its own: checks the types or the function's facts decide are
erased, ints read out of tensors folded where they are known, bool conditions typed."""

from __future__ import annotations

from torch_refine.calculations.store import FactStore
from torch_refine.engine import guards, known_values

T = "!torch.vtensor<[?,4],f32>"
I2 = "!torch.int, !torch.int"


def _function(body: str, arguments: str = f"%arg0: {T}") -> str:
    return f"""
func.func @main({arguments}) -> !torch.int {{
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %h = torch.aten.size.int %arg0, %int0 : {T}, !torch.int -> !torch.int
  %w = torch.aten.size.int %arg0, %int1 : {T}, !torch.int -> !torch.int
{body}
  return %h : !torch.int
}}"""


STEM = f"""
  %s0 = torch.aten.sub.int %h, %int4 : {I2} -> !torch.int
  %s1 = torch.aten.floordiv.int %s0, %int4 : {I2} -> !torch.int
  %s2 = torch.aten.add.int %s1, %int1 : {I2} -> !torch.int
  %s3 = torch.aten.floordiv.int %h, %int4 : {I2} -> !torch.int
  %s4 = torch.aten.eq.int %s2, %s3 : {I2} -> !torch.bool
  torch.runtime.assert %s4, "stem"
"""


def _messages(program) -> list[str]:
    return [str(op.attributes["message"]).strip('"') for op in program.ops_named("torch.runtime.assert")]


def test_checks_the_types_decide_are_erased(parse, facts_store):
    """`w == 4` holds where the type says w is 4; `h == 4` is undecided; `w == 2` fails
    and stays (the program raises there)."""
    program = parse(_function(f"""
  %0 = torch.aten.eq.int %w, %int4 : {I2} -> !torch.bool
  torch.runtime.assert %0, "static"
  %1 = torch.aten.eq.int %h, %int4 : {I2} -> !torch.bool
  torch.runtime.assert %1, "dynamic"
  %2 = torch.aten.eq.int %w, %int2 : {I2} -> !torch.bool
  torch.runtime.assert %2, "fails"
"""))
    known_values.erase_decided_checks(program.module.operation, facts_store)
    assert _messages(program) == ["dynamic", "fails"]


def test_every_int_op_of_the_semantics_registry_decides(parse, facts_store):
    """`bool(w // 2)` and `len(range(0, w, 1)) == 4` hold where the type says w is 4
    (symbolic/semantics.py's meanings; no polynomial reads either); a division by zero or
    a zero step decides nothing."""
    program = parse(_function(f"""
  %0 = torch.aten.floordiv.int %w, %int2 : {I2} -> !torch.int
  %1 = torch.aten.Bool.int %0 : !torch.int -> !torch.bool
  torch.runtime.assert %1, "quotient"
  %2 = torch.aten.__range_length %int0, %w, %int1 : !torch.int, {I2} -> !torch.int
  %3 = torch.aten.eq.int %2, %int4 : {I2} -> !torch.bool
  torch.runtime.assert %3, "range length"
  %4 = torch.aten.floordiv.int %w, %int0 : {I2} -> !torch.int
  %5 = torch.aten.Bool.int %4 : !torch.int -> !torch.bool
  torch.runtime.assert %5, "by zero"
  %6 = torch.aten.__range_length %int0, %w, %int0 : !torch.int, {I2} -> !torch.int
  %7 = torch.aten.eq.int %6, %int4 : {I2} -> !torch.bool
  torch.runtime.assert %7, "zero step"
"""))
    known_values.erase_decided_checks(program.module.operation, facts_store)
    assert _messages(program) == ["by zero", "zero step"]


def test_float_arithmetic_of_constants_decides(parse, facts_store):
    """`2.5 * 2.5 < 17.0` holds; `2.5 / 0.0` decides nothing (the op raises)."""
    program = parse(_function("""
  %zero = torch.constant.float 0.000000e+00
  %half = torch.constant.float 2.500000e+00
  %limit = torch.constant.float 1.700000e+01
  %1 = torch.aten.mul.float %half, %half : !torch.float, !torch.float -> !torch.float
  %2 = torch.aten.lt.float %1, %limit : !torch.float, !torch.float -> !torch.bool
  torch.runtime.assert %2, "square"
  %3 = torch.aten.div.float %half, %zero : !torch.float, !torch.float -> !torch.float
  %4 = torch.aten.lt.float %3, %limit : !torch.float, !torch.float -> !torch.bool
  torch.runtime.assert %4, "by zero"
"""))
    known_values.erase_decided_checks(program.module.operation, facts_store)
    assert _messages(program) == ["by zero"]


def test_checks_the_entry_facts_decide_are_erased(parse, facts_store):
    """After the entry assert `h >= 4`, a later `h >= 2` cannot fail; the fact itself stays."""
    program = parse(_function(f"""
  %0 = torch.aten.ge.int %h, %int4 : {I2} -> !torch.bool
  torch.runtime.assert %0, "fact"
  %1 = torch.aten.relu %arg0 : {T} -> {T}
  %2 = torch.aten.ge.int %h, %int2 : {I2} -> !torch.bool
  torch.runtime.assert %2, "implied"
"""))
    guards.adopt_entry_asserts(program.module.operation, facts_store)
    known_values.erase_decided_checks(program.module.operation, facts_store)
    assert _messages(program) == ["fact"]


def test_checks_constants_alone_decide_are_erased_entry_guards_too(parse, facts_store):
    """An entry guard whose condition constants alone decide holds whatever the types say
    (a pad's `0 != 0`, its sizes folded to constants after it was asserted), and so does a
    float comparison of constants (ONNX Resize's scale `1.0 == 1.0`). A guard reading a
    size the type decides is no such guard (later ops were refined under it)."""
    program = parse(_function(f"""
  %0 = torch.aten.ne.int %int0, %int0 : {I2} -> !torch.bool
  %1 = torch.aten.__or__.bool %0, %0 : !torch.bool, !torch.bool -> !torch.bool
  %true = torch.constant.bool true
  %2 = torch.aten.ne.bool %1, %true : !torch.bool, !torch.bool -> !torch.bool
  torch.runtime.assert %2, "pad" {{torch_refine.entry_guard = 0 : i64}}
  %3 = torch.aten.eq.int %w, %int4 : {I2} -> !torch.bool
  torch.runtime.assert %3, "size" {{torch_refine.entry_guard = 1 : i64}}
  %one = torch.constant.float 1.000000e+00
  %4 = torch.aten.eq.float %one, %one : !torch.float, !torch.float -> !torch.bool
  torch.runtime.assert %4, "scale"
"""))
    known_values.erase_decided_checks(program.module.operation, facts_store)
    assert _messages(program) == ["size"]


def test_a_result_less_if_whose_taken_branch_does_nothing_is_erased(parse, facts_store):
    program = parse(_function(f"""
  %str = torch.constant.str "w must be 4"
  %none = torch.constant.none
  %0 = torch.aten.eq.int %w, %int4 : {I2} -> !torch.bool
  torch.prim.If %0 -> () {{
    torch.prim.If.yield
  }} else {{
    torch.prim.RaiseException %str, %none : !torch.str, !torch.none
    torch.prim.If.yield
  }}
"""))
    known_values.erase_decided_checks(program.module.operation, facts_store)
    assert program.ops_named("torch.prim.If") == []


def test_ints_read_out_of_known_tensors_are_folded(parse):
    """`item(select(shape(x), 0, 0))` is `size(x, 0)`; an element of a literal its value."""
    program = parse(_function("""
  %shape = torch.aten._shape_as_tensor %arg0 : !torch.vtensor<[?,4],f32> -> !torch.vtensor<[2],si64>
  %0 = torch.aten.select.int %shape, %int0, %int0 : !torch.vtensor<[2],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %1 = torch.aten.item %0 : !torch.vtensor<[],si64> -> !torch.int
  %lit = torch.vtensor.literal(dense<[7, 9]> : tensor<2xsi64>) : !torch.vtensor<[2],si64>
  %2 = torch.aten.select.int %lit, %int0, %int1 : !torch.vtensor<[2],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
  %3 = torch.aten.item %2 : !torch.vtensor<[],si64> -> !torch.int
  %4 = torch.aten.add.int %1, %3 : !torch.int, !torch.int -> !torch.int loc("sum")
"""))
    known_values.fold_tensor_reads(program.module.operation, FactStore())
    total = program.op("sum")
    first, second = (operand.owner for operand in total.operands)
    assert first.name == "torch.aten.size.int"
    assert str(first.operands[0].get_name()) == "%arg0"
    assert second.name == "torch.constant.int"
    assert str(second.attributes["value"]).startswith("9")
    assert program.ops_named("torch.aten.item") == []
    program.module.operation.verify()


WHERE = """
func.func @main(%arg0: !torch.vtensor<[3],f32>, %arg1: !torch.bool) -> !torch.vtensor<[3],f32> {
  %0 = torch.aten.Int.bool %arg1 : !torch.bool -> !torch.int
  %1 = torch.prim.NumToTensor.Scalar %0 : !torch.int -> !torch.vtensor loc("condition")
  %2 = torch.aten.where.self %1, %arg0, %arg0 : !torch.vtensor, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>
  return %2 : !torch.vtensor<[3],f32>
}"""


def test_a_where_condition_made_of_a_bool_gets_its_bool_type(parse):
    program = parse(WHERE)
    condition = program.value("condition")
    assert not known_values.is_typed_condition(condition)
    known_values.type_bool_conditions(program.module.operation)
    assert str(condition.type) == "!torch.vtensor<[],i1>"
    assert known_values.is_typed_condition(condition)


def test_a_creation_of_a_literal_minus_one_size_is_explained(parse):
    program = parse("""
func.func @main() -> !torch.vtensor {
  %int-1 = torch.constant.int -1
  %int3 = torch.constant.int 3
  %none = torch.constant.none
  %0 = torch.prim.ListConstruct %int-1, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.zeros %0, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor loc("zeros")
  %2 = torch.prim.ListConstruct %int3, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %3 = torch.aten.ones %2, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor loc("ones")
  return %1 : !torch.vtensor
}""")
    assert "size 0 is the literal -1" in known_values.negative_size_note(program.op("zeros"))
    assert known_values.negative_size_note(program.op("ones")) == ""


def test_a_check_the_facts_decide_after_a_tensor_op_is_erased(parse, facts_store):
    """`(h - 4) // 4 + 1 == h // 4` (issue 41's first tautology) holds for every h."""
    program = parse(_function(f"""
  %relu = torch.aten.relu %arg0 : {T} -> {T}
{STEM}"""))
    guards.adopt_entry_asserts(program.module.operation, facts_store)
    known_values.erase_decided_checks(program.module.operation, facts_store)
    assert _messages(program) == []


def test_a_tautology_at_the_entry_is_erased(parse, facts_store):
    program = parse(_function(STEM))
    guards.adopt_entry_asserts(program.module.operation, facts_store)
    known_values.erase_decided_checks(program.module.operation, facts_store)
    assert _messages(program) == []



SQUARE = "!torch.vtensor<[?,?],f32>"


def test_an_entry_check_of_what_a_bind_claims_stays(parse, facts_store):
    """Both dims bound to one symbol express the same, but the bind only claims it: the
    entry assert is what checks it at run time."""
    program = parse(f"""
func.func @main(%arg0: {SQUARE}) -> !torch.int {{
  %s0 = torch.symbolic_int "s0" {{min_val = 2, max_val = 64}} : !torch.int
  torch.bind_symbolic_shape %arg0, [%s0], affine_map<()[s0] -> (s0, s0)> : {SQUARE}
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %h = torch.aten.size.int %arg0, %int0 : {SQUARE}, !torch.int -> !torch.int
  %w = torch.aten.size.int %arg0, %int1 : {SQUARE}, !torch.int -> !torch.int
  %eq = torch.aten.eq.int %h, %w : !torch.int, !torch.int -> !torch.bool
  torch.runtime.assert %eq, "square"
  return %h : !torch.int
}}""")
    guards.adopt_entry_asserts(program.module.operation, facts_store)
    known_values.erase_decided_checks(program.module.operation, facts_store)
    assert _messages(program) == ["square"]


STRIDES = f"""
  %relu = torch.aten.relu %arg0 : {T} -> {T}
  %true = torch.constant.bool true
  %hh = torch.aten.mul.int %h, %h : {I2} -> !torch.int
  %hh4 = torch.aten.mul.int %hh, %int4 : {I2} -> !torch.int
  %fourh = torch.aten.mul.int %int4, %h : {I2} -> !torch.int
  %fourhh = torch.aten.mul.int %fourh, %h : {I2} -> !torch.int
  %same = torch.aten.eq.int %fourhh, %hh4 : {I2} -> !torch.bool
  %square = torch.aten.eq.int %h, %w : {I2} -> !torch.bool
  %0 = torch.prim.ListConstruct %same, %true : (!torch.bool, !torch.bool) -> !torch.list<bool>
  %1 = torch.aten.all.bool %0 : !torch.list<bool> -> !torch.bool
  torch.runtime.assert %1, "strides"
  %2 = torch.prim.ListConstruct %same, %square : (!torch.bool, !torch.bool) -> !torch.list<bool>
  %3 = torch.aten.all.bool %2 : !torch.list<bool> -> !torch.bool
  torch.runtime.assert %3, "square"
  %4 = torch.aten.any.bool %2 : !torch.list<bool> -> !torch.bool
  torch.runtime.assert %4, "either"
"""


def test_all_and_any_of_a_list_of_decided_conditions_are_decided(parse, facts_store):
    """torch-mlir's decomposition of a strided view asserts `all` of comparisons that hold
    for every size; one element that can fail keeps `all`, one that holds decides `any`."""
    program = parse(_function(STRIDES))
    known_values.erase_decided_checks(program.module.operation, facts_store)
    assert _messages(program) == ["square"]
