"""Expected Python signatures of library functions, derived from PyTorch's operator registry.

Every library function mirrors the full schema of its op overload, defaults included,
so that the reify passes can pass the op's operands positionally. The rules:

- shape functions take `List[int]` for each Tensor and return one `List[int]` per
  Tensor result (`List[List[int]]` for a `Tensor[]` result);
- dtype functions take `<name>_rank_dtype: Tuple[int, int]` for each Tensor and
  return one `int` dtype code per Tensor or number result;
- decomposition functions take and return the op's own types;
- a `Scalar` is `float` for shape functions and `Union[int, float, complex]` for dtype
  functions (the value's Python type decides promotion) and decomposition functions
  (TorchScript has no `number` annotation; this one scripts to `Scalar`);
- list defaults become tuples (TorchScript rejects mutable defaults), `from` becomes
  `from_`, and keyword-only parameters are ordinary positional parameters.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass

KINDS = ("shape", "dtype", "decomposition")


class SignatureError(ValueError):
    pass


@functools.cache
def schemas() -> dict[str, object]:
    """All JIT schemas keyed by `ns.name[.overload]` (the Torch dialect op name without `torch.`)."""
    import torch
    import torch.ao.quantization.fx._decomposed

    table = {}
    for schema in torch._C._jit_get_all_schemas():
        key = schema.name.replace("::", ".")
        if schema.overload_name:
            key += "." + schema.overload_name
        table.setdefault(key, schema)
    return table


def lookup_schema(op: str):
    if (schema := schemas().get(op)) is None:
        raise SignatureError(f"'{op}' is not an op overload in PyTorch's registry")
    return schema


# Schema type -> annotation, per kind. Tensor-like types are handled separately.
_SCALAR_TYPES = {
    "int": "int",
    "SymInt": "int",
    "float": "float",
    "bool": "bool",
    "str": "str",
    "complex": "complex",
    "ScalarType": "int",
    "Layout": "int",
    "MemoryFormat": "int",
    "Device": "device",
    "Generator": "Any",
    "Any": "Any",
}


def _tensor_annotation(kind: str) -> str:
    if kind == "shape":
        return "List[int]"
    if kind == "dtype":
        return "Tuple[int, int]"
    return "Tensor"


def _number_annotation(kind: str) -> str:
    if kind == "shape":
        return "float"
    return "Union[int, float, complex]"


def annotation(jit_type, kind: str) -> str:
    """Map a JIT type (with its `real_type` spelling) to the annotation used by `kind`."""
    text = jit_type.annotation_str
    return _map_annotation(text, kind)


def _map_annotation(text: str, kind: str) -> str:
    if text.startswith("Optional[") and text.endswith("]"):
        return f"Optional[{_map_annotation(text[9:-1], kind)}]"
    if text.startswith("List[") and text.endswith("]"):
        return f"List[{_map_annotation(text[5:-1], kind)}]"
    if text == "Tensor":
        return _tensor_annotation(kind)
    if text == "number":
        return _number_annotation(kind)
    if (mapped := _SCALAR_TYPES.get(text)) is not None:
        return mapped
    raise SignatureError(f"no library type for schema type '{text}'")


def _default_text(value) -> str:
    if isinstance(value, list):
        value = tuple(value)
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "float('inf')" if value > 0 else "float('-inf')"
    return repr(value)


def _param_name(name: str, kind: str, is_tensor_like: bool) -> str:
    if name == "from":
        name = "from_"
    if kind == "dtype" and is_tensor_like:
        return f"{name}_rank_dtype"
    return name


def _is_tensor_like(text: str) -> bool:
    return "Tensor" in text


@dataclass(frozen=True)
class Parameter:
    name: str
    annotation: str
    default: str | None  # Python source text of the default, or None

    def render(self) -> str:
        head = f"{self.name}: {self.annotation}"
        return head if self.default is None else f"{head} = {self.default}"


def _returns(schema, kind: str) -> list[str]:
    results = []
    for ret in schema.returns:
        text = ret.type.annotation_str
        if kind == "decomposition":
            results.append(_map_annotation(text, kind))
        elif kind == "shape" and _is_tensor_like(text):
            results.append(_map_annotation(text, kind))
        elif kind == "dtype" and (_is_tensor_like(text) or text in ("number", "int", "float")):
            results.append("List[int]" if text.startswith("List[") else "int")
    return results


def expected_parameters(op: str, kind: str) -> list[Parameter]:
    schema = lookup_schema(op)
    params = []
    for arg in schema.arguments:
        real = getattr(arg, "real_type", arg.type).annotation_str
        annotation_text = _map_annotation(real, kind)
        default = None if not arg.has_default_value() else _default_text(arg.default_value)
        name = _param_name(arg.name, kind, _is_tensor_like(real))
        params.append(Parameter(name, annotation_text, default))
    return params


def expected_return(op: str, kind: str) -> str:
    results = _returns(lookup_schema(op), kind)
    if not results:
        raise SignatureError(f"'{op}' has no result a {kind} function can describe")
    if len(results) == 1:
        return results[0]
    return f"Tuple[{', '.join(results)}]"


def python_name(op: str, kind: str) -> str:
    """The conventional function name: `aten〇add〇Tensor〡shape` (torch-mlir's spelling)."""
    return op.replace(".", "〇") + "〡" + kind


def expected_signature(op: str, kind: str, name: str | None = None) -> str:
    """The `def` line a contributor pastes, e.g. for `torch-refine-signature aten.add.Tensor`."""
    if kind not in KINDS:
        raise SignatureError(f"unknown kind '{kind}', expected one of {', '.join(KINDS)}")
    params = ", ".join(p.render() for p in expected_parameters(op, kind))
    fn_name = name or python_name(op, kind)
    return f"def {fn_name}({params}) -> {expected_return(op, kind)}:"


def _normalized(def_source: str) -> str:
    """Signature text with the name dropped and formatting normalized through the ast."""
    tree = ast.parse(def_source.strip() + "\n    pass\n")
    node = tree.body[0]
    assert isinstance(node, ast.FunctionDef)
    node.body = [ast.Pass()]
    node.decorator_list = []
    node.name = "_"
    return ast.unparse(node)


def check_signature(op: str, kind: str, source: str) -> None:
    """Raise SignatureError naming the expected signature when `source`'s def differs."""
    actual_def = _def_header(source)
    expected = expected_signature(op, kind)
    accepted = [expected]
    if kind == "dtype" and expected.endswith("-> List[int]:"):
        # one int: the dtype of every piece of a Tensor[] (testing.dtypes_agree)
        accepted.append(expected[: -len("List[int]:")] + "int:")
    if _normalized(actual_def) in [_normalized(e) for e in accepted]:
        return
    raise SignatureError(
        f"the {kind} function for '{op}' has the signature\n    {actual_def.strip()}\n"
        f"but PyTorch's registry expects\n    {expected}"
    )


def _def_header(source: str) -> str:
    """The `def ...:` header of a function's source, decorators stripped."""
    import textwrap

    tree = ast.parse(textwrap.dedent(source))
    node = tree.body[0]
    if not isinstance(node, ast.FunctionDef):
        raise SignatureError("library entries must be plain `def` functions")
    node.body = [ast.Pass()]
    node.decorator_list = []
    header = ast.unparse(node)
    return header.rsplit("\n", 1)[0]
