"""Laws of the tensor-type lattice in torch_refine.ir.types."""

import itertools

import pytest

from torch_refine.ir import types
from torch_refine.ir.context import create_context

T = types.TensorInfo
SAMPLES = [
    T(None, None),
    T(None, "f32"),
    T(None, "si64"),
    T((), "f32"),
    T((2, 3), None),
    T((2, 3), "f32"),
    T((None, 3), "f32"),
    T((None, None), None),
    T((4, 3), "f32"),
    T((2,), "si64"),
]
PAIRS = list(itertools.product(SAMPLES, SAMPLES))


@pytest.mark.parametrize("text", [
    "!torch.vtensor",
    "!torch.tensor",
    "!torch.vtensor<*,f32>",
    "!torch.vtensor<[],si64>",
    "!torch.vtensor<[2,?,3],unk>",
    "!torch.vtensor<[?],complex<f32>>",
])
def test_parse_text_round_trips(text):
    assert types.parse_text(text).text() == text


def test_parse_rejects_non_tensors():
    assert types.parse_text("!torch.int") is None
    assert types.parse_text("!torch.list<vtensor>") is None


def test_parse_of_ir_type():
    with create_context():

        info = T((2, None), "f16")
        assert types.parse(types.to_type(info)) == info


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_meet_and_join_commute(a, b):
    assert types.meet(a, b) == types.meet(b, a)
    assert types.join(a, b) == types.join(b, a)


@pytest.mark.parametrize("a", SAMPLES)
def test_idempotent_and_top(a):
    top = T(None, None)
    assert types.meet(a, a) == a
    assert types.join(a, a) == a
    assert types.meet(a, top) == a
    assert types.join(a, top) == top


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_meet_is_a_lower_bound_and_join_an_upper_bound(a, b):
    joined = types.join(a, b)
    assert types.is_at_least_as_precise(a, joined)
    assert types.is_at_least_as_precise(b, joined)
    met = types.meet(a, b)
    if met is not None:
        assert types.is_at_least_as_precise(met, a)
        assert types.is_at_least_as_precise(met, b)


@pytest.mark.parametrize(("a", "b", "c"), list(itertools.product(SAMPLES[:6], repeat=3)))
def test_join_associates(a, b, c):
    assert types.join(types.join(a, b), c) == types.join(a, types.join(b, c))


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_absorption(a, b):
    assert types.join(a, types.meet(a, b) or a) == a
    met = types.meet(a, types.join(a, b))
    assert met == a


def test_contradictions():
    assert types.meet(T((2, 3), "f32"), T((4, 3), "f32")) is None
    assert types.meet(T((2, 3), None), T((2,), None)) is None
    assert types.meet(T(None, "f32"), T(None, "si64")) is None


def test_examples():
    assert types.join(T((4, 3), "f32"), T((5, 3), "f32")) == T((None, 3), "f32")
    assert types.join(T((4, 3), "f32"), T((4,), "f32")) == T(None, "f32")
    assert types.meet(T((None, 3), None), T(None, "f32")) == T((None, 3), "f32")


def test_dtype_tables_are_inverse():
    for code, element in types.DTYPE_TO_ELEMENT.items():
        assert types.ELEMENT_TO_DTYPE[element] == code
