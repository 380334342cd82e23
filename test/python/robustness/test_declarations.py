"""Function declarations, calls of them and empty modules through every torch-refine pass:
a diagnosed failure is fine, an internal error (any other exception) is not, and what a
pass leaves must verify. Modules are drawn from a seeded generator (issue 43: any
body-less function once crashed the pipeline)."""

from __future__ import annotations

import random

import pytest
from torch_mlir import ir

from torch_refine import passes
from torch_refine.ir.context import create_context
from torch_refine.passes.base import PassFailure

_TYPES = ("!torch.vtensor<[2,3],f32>", "!torch.vtensor", "!torch.vtensor<[?,3],f32>", "!torch.int")


def _module(generator: random.Random) -> str:
    """Declarations (some called, some not, some with no arguments or results), a main
    calling them at top level and in `prim.If` branches, or nothing at all."""
    if generator.random() < 0.1:
        return "module {\n}\n"
    lines = []
    declarations = []
    for index in range(generator.randint(1, 3)):
        arguments = [generator.choice(_TYPES) for _ in range(generator.randint(0, 2))]
        results = [generator.choice(_TYPES) for _ in range(generator.randint(0, 2))]
        name = f"ext{index}"
        declarations.append((name, arguments, results))
        lines.append(f"func.func private @{name}({', '.join(arguments)}) -> ({', '.join(results)})")
    if generator.random() < 0.1:
        return "\n".join(lines) + "\n"
    body = ["  %int1 = torch.constant.int 1",
            "  %e = torch.tensor_static_info_cast %x : !torch.vtensor<[2,3],f32> to !torch.vtensor",
            "  %t = torch.aten.tanh %x : !torch.vtensor<[2,3],f32> -> !torch.vtensor"]
    available = {"!torch.vtensor<[2,3],f32>": "%x", "!torch.vtensor": "%e", "!torch.int": "%int1",
                 "!torch.vtensor<[?,3],f32>": None}
    for count, (name, arguments, results) in enumerate(declarations):
        if generator.random() < 0.3 or any(available[a] is None for a in arguments):
            continue  # declared, never called
        call = (f"func.call @{name}({', '.join(available[a] for a in arguments)}) : "
                f"({', '.join(arguments)}) -> ({', '.join(results)})")
        names = ", ".join(f"%r{count}_{i}" for i in range(len(results)))
        if generator.random() < 0.5:
            body.append(f"  {names + ' = ' if results else ''}{call}")
        else:
            body += ["  torch.prim.If %c -> () {", f"    {names + ' = ' if results else ''}{call}",
                     "    torch.prim.If.yield", "  } else {", "    torch.prim.If.yield", "  }"]
            continue
        for index, result in enumerate(results):
            if result == "!torch.vtensor":
                body.append(f"  %u{count}_{index} = torch.aten.tanh %r{count}_{index} : !torch.vtensor -> !torch.vtensor")
    lines.append("func.func @main(%x: !torch.vtensor<[2,3],f32>, %c: !torch.bool) -> !torch.vtensor {")
    lines += [*body, "  return %t : !torch.vtensor", "}"]
    return "\n".join(lines) + "\n"


_CASES = ["module {\n}\n", "func.func private @only(!torch.vtensor) -> !torch.vtensor\n", *(
    _module(random.Random(seed)) for seed in range(24))]


@pytest.mark.parametrize("name", passes.names())
def test_every_pass_takes_declarations(name):
    for text in _CASES:
        with create_context():
            module = ir.Module.parse(text)
            try:
                passes.get(name)().run(module.operation)
            except PassFailure:
                continue  # diagnosed at an op: what bad input gets
            assert module.operation.verify(), text
