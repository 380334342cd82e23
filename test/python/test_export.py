"""torch_refine.export_and_import as a drop-in for torch_mlir.fx.export_and_import: Hugging
Face decoders with non-persistent buffers, every output type, the result as an ir.Module,
execute with keyword arguments and symbolic shape ops."""

from __future__ import annotations

import os

import pytest
import torch
from torch_mlir import ir
from torch_mlir.passmanager import PassManager

import torch_refine
from torch_refine import report
from torch_refine.ir.erase import erase_tensor_types

os.environ.setdefault("HF_HUB_OFFLINE", "1")

VOCAB, SEQ = 128, 8
TINY = dict(vocab_size=VOCAB, hidden_size=32, num_hidden_layers=1, num_attention_heads=4,
            intermediate_size=64, max_position_embeddings=64, use_cache=False)
# Config and model class names in transformers, and what each config needs beyond TINY.
DECODERS = {
    "mistral": ("MistralConfig", "MistralModel", {"num_key_value_heads": 2}),
    "llama": ("LlamaConfig", "LlamaModel", {"num_key_value_heads": 2}),
    "qwen2": ("Qwen2Config", "Qwen2Model", {"num_key_value_heads": 2}),
    "gemma": ("GemmaConfig", "GemmaModel", {"num_key_value_heads": 2, "head_dim": 8}),
    "phi": ("PhiConfig", "PhiModel", {}),
    "gpt_neox": ("GPTNeoXConfig", "GPTNeoXModel", {}),
}


class TextModel(torch.nn.Module):
    """A decoder called with keyword arguments, as Hugging Face models are."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask=None):
        return self.model(input_ids=input_ids, attention_mask=attention_mask,
                          return_dict=False)[0]


def decoder(name: str) -> TextModel:
    transformers = pytest.importorskip("transformers")
    config_class, model_class, extra = DECODERS[name]
    torch.manual_seed(0)
    config = getattr(transformers, config_class)(**TINY, **extra)
    return TextModel(getattr(transformers, model_class)(config)).eval()


def inputs(batch: int) -> dict:
    mask = torch.ones(batch, SEQ, dtype=torch.int64)
    mask[0, -3:] = 0
    return {"input_ids": torch.randint(0, VOCAB, (batch, SEQ)), "attention_mask": mask}


def dynamic_batch() -> dict:
    batch = torch.export.Dim("batch", min=1, max=64)
    return {"input_ids": {0: batch}, "attention_mask": {0: batch}}


def refined_against_import(model, dynamic_shapes, **options):
    """Refines the imported IR with every intermediate type erased; compares with the
    importer's types."""
    imported = torch_refine.export_and_import(model, **inputs(2), dynamic_shapes=dynamic_shapes,
                                              refine=False, **options)
    with imported.context:
        erased = ir.Module.parse(str(imported))
        erase_tensor_types(erased.operation)
    torch_refine.refine(erased)
    return report.compare_modules(erased.operation, imported.operation)


@pytest.mark.slow
@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic-batch"])
@pytest.mark.parametrize("name", sorted(DECODERS))
def test_decoders_export_refine_exactly_and_execute(name, dynamic):
    model = decoder(name)
    buffers = {key: value.clone() for key, value in model.named_buffers()}
    shapes = dynamic_batch() if dynamic else None
    compared = refined_against_import(model, shapes)
    assert (compared.partial, compared.unknown, compared.contradictions) == (0, 0, 0)
    module, result = torch_refine.export_and_import(model, **inputs(2), dynamic_shapes=shapes)
    assert result.unknown == 0
    assert not dynamic or "[?,8,32]" in str(module)
    # The caller's model keeps its non-persistent buffers as they were.
    assert all(key not in model.state_dict() for key in model.model.rotary_emb.state_dict())
    assert all(torch.equal(buffers[key], value) for key, value in model.named_buffers())
    refined = torch_refine.export_and_import(model, **inputs(2), dynamic_shapes=shapes)
    for batch in (2, 3) if dynamic else (2,):
        example = inputs(batch)
        with torch.no_grad():
            eager = model(**example)
        ours = torch_refine.execute(refined, check_types=True, **example)
        torch.testing.assert_close(ours, eager, rtol=1e-4, atol=1e-4)


@pytest.mark.slow
def test_symbolic_shape_expressions_lose_no_precision_and_execute():
    model = decoder("mistral")
    plain = torch_refine.export_and_import(model, **inputs(2), dynamic_shapes=dynamic_batch(),
                                           import_symbolic_shape_expressions=False)
    # A dynamic program is imported with its symbolic shape expressions by default.
    symbolic = torch_refine.export_and_import(model, **inputs(2), dynamic_shapes=dynamic_batch())
    assert "torch.bind_symbolic_shape" in str(symbolic)
    assert "torch.bind_symbolic_shape" not in str(plain)
    # The same dims known, and counted alike: a dynamic size a bind names, or (plain) one
    # refinement derived from the arguments' dims, is symbolic-exact.
    precision = [(r.exact, r.symbolic_exact, r.partial, r.unknown) for r in (symbolic.report, plain.report)]
    assert precision[0] == precision[1]
    assert symbolic.report.symbolic_exact > 0
    assert plain.report.partial == 0
    compared = refined_against_import(model, dynamic_batch(),
                                      import_symbolic_shape_expressions=True)
    assert (compared.partial, compared.unknown, compared.contradictions) == (0, 0, 0)
    example = inputs(3)
    with torch.no_grad():
        eager = model(**example)
    ours = torch_refine.execute(symbolic, check_types=True, **example)
    torch.testing.assert_close(ours, eager, rtol=1e-4, atol=1e-4)
    # export's range of the batch, asserted at the entry (test_export_checks.py), after the
    # argument's bind, which execute checks first
    with pytest.raises(torch_refine.ExecutionError,
                       match=r"input_ids \(%arg0\) dim 0 must be at most 64|dim 0 is 65, outside the range \[1, 64\]"):
        torch_refine.execute(symbolic, **inputs(65))


class Small(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(8, 4)
        self.register_buffer("scale", torch.full((4,), 2.0), persistent=False)

    def forward(self, x, shift=None):
        y = torch.relu(self.linear(x)) * self.scale
        return y if shift is None else y + shift


@pytest.mark.parametrize("output_type", ["raw", "torch", "linalg-on-tensors", "tosa",
                                         "stablehlo"])
def test_every_output_type(output_type):
    refined = torch_refine.export_and_import(Small(), torch.randn(3, 8),
                                             output_type=output_type, func_name="forward")
    text = str(refined)
    assert "func.func @forward(" in text
    assert refined.report.unknown == 0
    dialect = {"raw": "torch.aten", "torch": "torch.aten", "linalg-on-tensors": "linalg.",
               "tosa": "tosa.", "stablehlo": "stablehlo."}[output_type]
    assert dialect in text
    if output_type in ("raw", "torch"):
        assert "!torch.vtensor<[3,4],f32>" in text


def test_the_result_is_a_module():
    refined = torch_refine.export_and_import(Small(), torch.randn(3, 8))
    module, result = refined
    assert module is refined.module
    assert result is refined.report
    assert str(refined) == str(module)
    assert refined.operation.name == "builtin.module"
    assert refined.context is module.context
    assert len(refined.body.operations) == 1
    with refined.context:
        PassManager.parse("builtin.module(func.func(canonicalize))").run(refined.operation)
    again, _ = torch_refine.refine(refined)
    assert again is module
    assert torch_refine.execute(refined, torch.randn(3, 8)).shape == (3, 4)


def test_an_exported_program_and_keyword_arguments():
    model, x, shift = Small(), torch.randn(3, 8), torch.randn(3, 4)
    program = torch.export.export(model, (x,), {"shift": shift})
    refined = torch_refine.export_and_import(program, decomposition_table={})
    assert refined.input_names == ("x", "shift")
    torch.testing.assert_close(torch_refine.execute(refined, x, shift=shift), model(x, shift))
    torch.testing.assert_close(torch_refine.execute(refined, shift=shift, x=x), model(x, shift))
    with pytest.raises(TypeError, match=r"unexpected \['bias'\], missing \['shift'\]"):
        torch_refine.execute(refined, x, bias=shift)
    # Text has no input names: keyword arguments follow the positional ones.
    torch.testing.assert_close(torch_refine.execute(str(refined), x, shift=shift),
                               model(x, shift))


def test_non_persistent_buffers_import_without_changing_the_model():
    model = Small()
    refined = torch_refine.export_and_import(model, torch.randn(3, 8))
    assert refined.report.unknown == 0
    assert "scale" not in model.state_dict()
    assert model._non_persistent_buffers_set == {"scale"}


def test_options_of_refine_and_mutation_import():
    refined = torch_refine.export_and_import(Small(), torch.randn(3, 8), runtime_asserts=False,
                                             experimental_support_mutation=True)
    assert "!torch.vtensor<[3,4],f32>" in str(refined)
    with pytest.raises(TypeError, match="max_iterations must be an int"):
        torch_refine.export_and_import(Small(), torch.randn(3, 8), max_iterations="3")


class InPlace(torch.nn.Module):
    def forward(self, x, mask):
        y = x.clone()
        y.add_(1.0)
        y.masked_fill_(mask, 0.0)
        return y.view(x.shape[0], -1, 2)


def test_raw_program_with_in_place_ops_is_functionalized():
    """torch-mlir's importer emits a raw program's in-place ops on value tensors, which
    does not verify; export_and_import functionalizes such a program without decomposing."""
    x, mask = torch.randn(3, 8), torch.zeros(3, 8, dtype=torch.bool)
    batch = torch.export.Dim("batch", min=2, max=16)
    refined = torch_refine.export_and_import(InPlace(), x, mask, output_type="raw",
                                             decomposition_table={},
                                             dynamic_shapes=({0: batch}, {0: batch}))
    text = str(refined)
    assert "torch.aten.add_." not in text
    assert "torch.aten.add." in text
    assert "!torch.vtensor<[?,4,2],f32>" in text
    assert refined.report.unknown == 0
    assert refined.report.contradictions == 0
