"""Einsum equations as integer lists, in pure Python (no `import torch`).

The Torch dialect has no op that reads a character of a string, so a library function
cannot parse an equation in IR. `einsum_plan` parses it here, once for everyone: the
library's einsum functions call it (the importer lowers the call to one
`torch.operator "torch_refine.einsum_plan"`), the simplify passes fold that op with this
function when the equation is a constant, and the executor runs it. What the equation
alone decides (its syntax, the output's labels) is checked here, with PyTorch's messages;
sizes, ranks and the operand count are the library function's (`linalg.py`).
"""

from typing import List

EINSUM_PLAN_OPERATOR = "torch_refine.einsum_plan"


def _subscript(character: str) -> int:
    """PyTorch's subscript of a label: 'A'..'Z' are 0..25, 'a'..'z' 26..51; -1 otherwise."""
    code = ord(character)
    if code >= 65 and code <= 90:
        return code - 65
    if code >= 97 and code <= 122:
        return code - 71
    return -1


def _label(subscript: int) -> str:
    return chr(subscript + 65) if subscript < 26 else chr(subscript + 71)


def _misplaced_dot(operand: int, repeated: bool) -> str:
    """PyTorch's message for a '.' of `operand`'s term (-1: the output's)."""
    if operand < 0 and repeated:
        return "einsum(): found '.' for output but an ellipsis (...) was already found"
    if operand < 0:
        return "einsum(): found '.' for output that is not part of any ellipsis (...)"
    if repeated:
        return "einsum(): found '.' for operand " + str(operand) + " for which an ellipsis was already found"
    return "einsum(): found '.' for operand " + str(operand) + " that is not part of any ellipsis"


def _term_subscripts(term: str, offset: int, operand: int) -> List[int]:
    """The subscripts of one operand's term (`operand` -1: the output's), 52 for its
    ellipsis; `offset` is the term's index in the equation, for messages."""
    subscripts: List[int] = []
    has_ellipsis = False
    i = 0
    while i < len(term):
        character = term[i]
        if character == " ":
            i += 1
            continue
        if character == ".":
            if has_ellipsis:
                raise AssertionError(_misplaced_dot(operand, True))
            if i + 2 >= len(term) or term[i + 1] != "." or term[i + 2] != ".":
                raise AssertionError(_misplaced_dot(operand, False))
            subscripts.append(52)
            has_ellipsis = True
            i += 3
            continue
        subscript = _subscript(character)
        if subscript < 0:
            raise AssertionError("einsum(): invalid subscript given at index " + str(offset + i)
                                 + " in the equation string, subscripts must be in [a-zA-Z]")
        subscripts.append(subscript)
        i += 1
    return subscripts


def _output_subscripts(equation: str, arrow: int, counts: List[int]) -> List[int]:
    """The output's subscripts: the explicit ones after '->', or the implicit output (the
    ellipsis, then the labels seen once, in subscript order)."""
    if arrow < 0:
        implicit = [52]
        for subscript in range(52):
            if counts[subscript] == 1:
                implicit.append(subscript)
        return implicit
    output = _term_subscripts(equation[arrow + 2:], arrow + 2, -1)
    for i in range(len(output)):
        subscript = output[i]
        if subscript == 52:
            continue
        if counts[subscript] == 0:
            raise AssertionError("einsum(): output subscript " + _label(subscript)
                                 + " does not appear in the equation for any input operand")
        if subscript in output[:i]:
            raise AssertionError("einsum(): output subscript " + _label(subscript)
                                 + " appears more than once in the output")
    return output


def einsum_plan(equation: str) -> List[List[int]]:
    """[the output's labels, then each operand's labels] of an einsum equation.

    A label is its rank among the equation's distinct input labels in subscript order
    ('A' < 'Z' < 'a' < 'z'), so the labels are 0..L-1; the ellipsis is -1. Without '->'
    the output is PyTorch's implicit one: the ellipsis, then the labels seen once. Spaces
    are ignored. Raises AssertionError where the equation alone is wrong (a character
    other than a letter, a '.' outside an ellipsis, two ellipses in a term, an output
    label twice or not among the inputs').
    """
    arrow = equation.find("->")
    inputs = equation if arrow < 0 else equation[:arrow]
    terms: List[List[int]] = []
    offset = 0
    for term in inputs.split(","):
        terms.append(_term_subscripts(term, offset, len(terms)))
        offset += len(term) + 1
    counts: List[int] = []
    for _ in range(53):
        counts.append(0)
    for term_subscripts in terms:
        for subscript in term_subscripts:
            counts[subscript] += 1
    # Dense labels: a subscript's rank among those used; the ellipsis (52) is -1.
    labels: List[int] = []
    next_label = 0
    for subscript in range(52):
        labels.append(next_label if counts[subscript] > 0 else -1)
        if counts[subscript] > 0:
            next_label += 1
    labels.append(-1)
    plan: List[List[int]] = []
    for term_subscripts in [_output_subscripts(equation, arrow, counts)] + terms:
        term_labels: List[int] = []
        for subscript in term_subscripts:
            term_labels.append(labels[subscript])
        plan.append(term_labels)
    return plan
