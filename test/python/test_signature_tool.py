"""torch-refine-signature prints what the generator's signature check accepts."""

import pytest

from torch_refine.library.signatures import SignatureError, check_signature
from torch_refine.tools.signature import main


def test_printed_signature_passes_the_check(capsys):
    assert main(["aten.mm", "shape"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == '@shape("aten.mm", invocations=[])'
    check_signature("aten.mm", "shape", printed[1] + "\n    return self\n")


def test_mismatch_names_the_expected_signature():
    source = "def f(self: List[int], other: List[int]) -> List[int]:\n    return self\n"
    with pytest.raises(SignatureError, match=r"mat2: List\[int\]"):
        check_signature("aten.mm", "shape", source)


def test_unknown_op_is_an_error(capsys):
    assert main(["aten.no_such_op"]) == 1
    assert "not an op overload" in capsys.readouterr().err
