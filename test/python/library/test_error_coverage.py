"""Every library function with a check of its own is tested where PyTorch raises.

A function that only delegates (one `return helper(...)`, or straight-line code around the
shared helpers of `_helpers` and `torch.jit._shape_functions`) leaves the checking to those
helpers. A function that asserts or raises, itself or through a private helper of its family
module, rejects some inputs on its own, so it needs at least one ErrorInvocation or
KernelErrorInvocation among its cases.
"""

import ast
import inspect
import textwrap

from torch_refine.library import registry

CHECKED_KINDS = ("shape", "dtype")


def _checks(fn, seen: frozenset = frozenset()) -> bool:
    """Whether `fn` asserts or raises, itself or through its module's private helpers."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert | ast.Raise):
            return True
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        helper = fn.__globals__.get(node.func.id)
        if (node.func.id.startswith("_") and inspect.isfunction(helper)
                and helper.__module__ == fn.__module__ and helper not in seen
                and _checks(helper, seen | {fn})):
            return True
    return False


def _only_returns(source: str) -> bool:
    function = ast.parse(textwrap.dedent(source)).body[0]
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    return len(body) == 1 and isinstance(body[0], ast.Return)


def _without_error_cases() -> list[str]:
    missing = []
    for entry in registry.functions():
        if entry.kind not in CHECKED_KINDS or _only_returns(entry.source):
            continue
        if not _checks(entry.fn):
            continue
        if not any(invocation.expects_error for invocation in entry.invocations):
            missing.append(f"{entry.op} ({entry.kind})")
    return missing


def test_only_returns_recognizes_delegation():
    assert _only_returns("def f(x):\n    return helper(x)\n")
    assert _only_returns('def f(x):\n    """Doc."""\n    return x[1]\n')
    assert not _only_returns("def f(x):\n    assert x\n    return helper(x)\n")


def _private_check(x: int) -> None:
    assert x > 0


def _checked(x: int) -> int:
    _private_check(x)
    return x


def _unchecked(x: int) -> int:
    y = abs(x)
    return y


def test_checks_follow_private_helpers():
    assert _checks(_checked)
    assert _checks(_private_check)
    assert not _checks(_unchecked)


def test_functions_with_rules_have_error_cases():
    missing = _without_error_cases()
    assert not missing, (
        f"{len(missing)} library functions check inputs but have no error case: "
        + ", ".join(missing)
    )
