"""Real models at small configs, with random weights: the end-to-end corpus.

Every model comes from a library nobody here wrote (Hugging Face transformers, torch.nn),
is built from its config class (no downloads) and seeded, and has example inputs and a
dynamic-batch variant. Configs are small so that export and refinement take seconds.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import torch

from torch_refine.examples import tiny_llama
from torch_refine.examples.tiny_llama import TextModel, persist_buffers

BATCH = 2
SEQ = 8


@dataclass(frozen=True)
class ModelCase:
    name: str
    build: Callable[[], tuple[torch.nn.Module, tuple[torch.Tensor, ...]]]
    # For each example input, the indices of its batch dims (usually dim 0).
    batch_dims: tuple[tuple[int, ...], ...] = field(default=((0,),))
    # For each example input, the indices of its sequence-length (or image-size) dims;
    # empty when the model has none that torch.export could leave dynamic.
    extent_dims: tuple[tuple[int, ...], ...] = field(default=())
    # The range of those dims, and a step they are multiples of: an image must stay large
    # enough that no downsampled map becomes 1 wide, and divisible by the patch and window
    # sizes (export would specialize it otherwise).
    extent_range: tuple[int, int] = (4, 32)
    extent_step: int = 1

    def make(self) -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
        torch.manual_seed(0)
        model, inputs = self.build()
        return model.eval(), inputs

    def dynamic_shapes(self, extent: bool = False) -> tuple[dict[int, torch.export.Dim], ...]:
        """A dynamic batch; with `extent`, a dynamic sequence length or image size too."""
        batch = torch.export.Dim("batch", min=2, max=64)
        shapes = tuple({d: batch for d in dims} for dims in self.batch_dims)
        if not extent:
            return shapes
        low, high = (bound // self.extent_step for bound in self.extent_range)
        size = torch.export.Dim("extent", min=low, max=high)
        if self.extent_step != 1:
            size = self.extent_step * size
        return tuple(
            {**dims, **{d: size for d in extents}}
            for dims, extents in zip(shapes, self.extent_dims, strict=True)
        )


def _tensors(out) -> tuple[torch.Tensor, ...]:
    return tuple(t for t in out if isinstance(t, torch.Tensor))


class _ImageModel(torch.nn.Module):
    """A Hugging Face vision model called with pixels, returning plain tensors."""

    def __init__(self, model: torch.nn.Module):
        super().__init__()
        self.model = persist_buffers(model)

    def forward(self, pixel_values):
        return _tensors(self.model(pixel_values=pixel_values, return_dict=False))


def _ids(vocab: int) -> torch.Tensor:
    return torch.randint(0, vocab, (BATCH, SEQ))


def _mask() -> torch.Tensor:
    mask = torch.ones(BATCH, SEQ, dtype=torch.int64)
    mask[0, -3:] = 0  # one padded sequence, so the mask matters
    return mask


def bert():
    import transformers

    config = transformers.BertConfig(
        vocab_size=128, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=64, max_position_embeddings=64,
    )
    model = TextModel(transformers.BertModel(config))
    return model, (_ids(128), _mask())


def llama():
    model, _ = tiny_llama.build()
    return model, (_ids(128), _mask())


def gpt2():
    import transformers

    config = transformers.GPT2Config(
        vocab_size=128, n_embd=32, n_layer=2, n_head=4, n_positions=64, use_cache=False,
        bos_token_id=0, eos_token_id=0,
    )
    # The default SDPA attention decomposes into a view of a non-contiguous tensor that
    # export's decomposition pass rejects; the eager attention exports.
    config._attn_implementation = "eager"
    model = TextModel(transformers.GPT2Model(config))
    return model, (_ids(128), _mask())


def vit():
    import transformers

    config = transformers.ViTConfig(
        image_size=16, patch_size=4, num_channels=3, hidden_size=32, num_hidden_layers=2,
        num_attention_heads=4, intermediate_size=64,
    )
    model = _ImageModel(transformers.ViTModel(config))
    return model, (torch.randn(BATCH, 3, 16, 16),)


def resnet():
    import transformers

    config = transformers.ResNetConfig(
        num_channels=3, embedding_size=8, hidden_sizes=[8, 16], depths=[1, 1],
        layer_type="basic",
    )
    model = _ImageModel(transformers.ResNetModel(config))
    return model, (torch.randn(BATCH, 3, 32, 32),)


def t5_encoder():
    import transformers

    config = transformers.T5Config(
        vocab_size=128, d_model=32, d_kv=8, d_ff=64, num_layers=2, num_heads=4,
        relative_attention_num_buckets=8, use_cache=False,
    )
    model = TextModel(transformers.T5EncoderModel(config))
    return model, (_ids(128), _mask())


def convnext():
    import transformers

    # Depthwise convolutions, channels-last layer norms and GELU; MobileNetV2 was the other
    # candidate, but its 17 fixed blocks make 1.5k ops, too slow for every `make test`.
    config = transformers.ConvNextConfig(
        num_channels=3, patch_size=2, hidden_sizes=[8, 16], depths=[1, 1], num_stages=2,
        image_size=16,
    )
    model = _ImageModel(transformers.ConvNextModel(config))
    return model, (torch.randn(BATCH, 3, 16, 16),)


def lstm():
    class Tagger(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = torch.nn.Embedding(64, 16)
            self.lstm = torch.nn.LSTM(16, 24, num_layers=2, batch_first=True)
            self.head = torch.nn.Linear(24, 5)

        def forward(self, ids):
            out, _ = self.lstm(self.embed(ids))
            return self.head(out).log_softmax(-1)

    return Tagger(), (torch.randint(0, 64, (BATCH, SEQ)),)


def transformer_encoder_layer():
    layer = torch.nn.TransformerEncoderLayer(
        d_model=32, nhead=4, dim_feedforward=64, batch_first=True, dropout=0.0,
    )
    return layer, (torch.randn(BATCH, SEQ, 32),)


def multihead_attention():
    class SelfAttention(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.attn = torch.nn.MultiheadAttention(32, 4, batch_first=True)

        def forward(self, x, padding_mask):
            out, weights = self.attn(x, x, x, key_padding_mask=padding_mask)
            return out, weights

    padding = torch.zeros(BATCH, SEQ, dtype=torch.bool)
    padding[0, -2:] = True
    return SelfAttention(), (torch.randn(BATCH, SEQ, 32), padding)


MODELS: tuple[ModelCase, ...] = (
    ModelCase("bert", bert, ((0,), (0,))),
    ModelCase("llama", llama, ((0,), (0,))),
    ModelCase("gpt2", gpt2, ((0,), (0,))),
    ModelCase("vit", vit),
    ModelCase("resnet", resnet),
    ModelCase("t5_encoder", t5_encoder, ((0,), (0,))),
    ModelCase("convnext", convnext),
    ModelCase("lstm", lstm),
    ModelCase("transformer_encoder_layer", transformer_encoder_layer),
    ModelCase("multihead_attention", multihead_attention, ((0,), (0,))),
)

BY_NAME = {case.name: case for case in MODELS}


def rebatched(case, inputs: tuple[torch.Tensor, ...], batch: int) -> tuple[torch.Tensor, ...]:
    """Inputs with `batch` rows: the example rows repeated; float inputs drawn afresh."""
    generator = torch.Generator().manual_seed(1)
    rows = torch.arange(batch) % inputs[0].shape[0]
    result = []
    for tensor, dims in zip(inputs, case.batch_dims, strict=True):
        for dim in dims:
            tensor = tensor.index_select(dim, rows)
        if tensor.is_floating_point():
            tensor = torch.randn(tensor.shape, generator=generator, dtype=tensor.dtype)
        result.append(tensor)
    return tuple(result)


def export_torch_ir(case: ModelCase, dynamic: bool, context=None, output_type: str = "torch"):
    """The model's Torch-dialect module as torch-mlir's FX importer emits it ("raw": as
    torch.export leaves it, without torch-mlir's decompositions)."""
    from torch_mlir import fx

    model, inputs = case.make()
    kwargs = {"dynamic_shapes": case.dynamic_shapes()} if dynamic else {}
    return fx.export_and_import(model, *inputs, output_type=output_type, **kwargs)
