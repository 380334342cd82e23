"""The real model of `make run`: Hugging Face's LlamaModel (grouped-query attention, rotary
embeddings, an attention mask) at a tiny config with random weights, no downloads.

The test corpus and build_tools/export_example.py (which writes llama.mlir beside this file)
build it from here too.
"""

from __future__ import annotations

BATCH = 2
SEQ = 8
VOCAB = 128


def build(layers: int = 2):
    """(model, (input_ids, attention_mask)), seeded; needs torch and transformers. The
    benchmark's block series varies `layers`."""
    import torch
    import transformers

    torch.manual_seed(0)
    config = transformers.LlamaConfig(
        vocab_size=VOCAB, hidden_size=32, num_hidden_layers=layers, num_attention_heads=4,
        num_key_value_heads=2, intermediate_size=64, max_position_embeddings=64,
        use_cache=False,
    )
    return TextModel(transformers.LlamaModel(config)).eval(), inputs(BATCH)


def inputs(batch: int):
    """Token ids and a mask with one padded sequence, so the mask matters."""
    import torch

    ids = torch.randint(0, VOCAB, (batch, SEQ))
    mask = torch.ones(batch, SEQ, dtype=torch.int64)
    mask[0, -3:] = 0
    return ids, mask


def dynamic_shapes():
    import torch

    batch = torch.export.Dim("batch", min=2, max=64)
    return ({0: batch}, {0: batch})


def _text_model_class():
    import torch

    class _TextModel(torch.nn.Module):
        """A Hugging Face text model called with ids and a mask, returning plain tensors."""

        def __init__(self, model: torch.nn.Module):
            super().__init__()
            self.model = persist_buffers(model)

        def forward(self, input_ids, attention_mask):
            out = self.model(input_ids=input_ids, attention_mask=attention_mask,
                             return_dict=False)
            return tuple(t for t in out if isinstance(t, torch.Tensor))

    return _TextModel


def persist_buffers(model):
    # torch-mlir's frozen-program import looks every buffer up in the state dict, where
    # non-persistent buffers (position ids, rotary frequencies) are missing.
    for module in model.modules():
        module._non_persistent_buffers_set.clear()
    return model


def TextModel(model):
    return _text_model_class()(model)
