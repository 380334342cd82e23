"""The front-door zoo (issue 28): architectures whose export, import or JIT run failed
through `export_and_import`, each at a tiny config with random weights (no downloads).

A case builds `(model, inputs at a first size, inputs at a second size, dynamic dims)`:
the dynamic dims are those of the first inputs (`{input index: {dim: name}}`, one
`torch.export.Dim` per name, shared across inputs), and the second inputs differ from the
first in every one of them. `zoo_run.py` measures one variant in its own process.
"""

from __future__ import annotations

import torch

VOCAB = 64
_TEXT = dict(vocab_size=VOCAB, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
             intermediate_size=37, max_position_embeddings=64)


class _Tensors(torch.nn.Module):
    """A Hugging Face model called with keyword inputs, returning its tensors."""

    def __init__(self, model: torch.nn.Module, *names: str):
        super().__init__()
        self.model = model
        self.names = names

    def forward(self, *inputs):
        out = self.model(**dict(zip(self.names, inputs, strict=True)), return_dict=False)
        return tuple(o for o in out if isinstance(o, torch.Tensor))


def _ids(batch: int, sequence: int) -> torch.Tensor:
    return torch.randint(1, VOCAB, (batch, sequence))


def _hf(config_name: str, model_name: str, **config):
    import transformers

    cfg = getattr(transformers, config_name)(**config)
    cfg._attn_implementation = "eager"
    return getattr(transformers, model_name)(cfg).eval()


def _text(config_name: str, model_name: str, **config):
    def build():
        model = _Tensors(_hf(config_name, model_name, **{**_TEXT, **config}), "input_ids")
        return model, (_ids(2, 8),), (_ids(3, 12),), {0: {0: "batch", 1: "seq"}}

    return build


def _image(config_name: str, model_name: str, sizes=(32, 32), **config):
    def build():
        model = _Tensors(_hf(config_name, model_name, **config), "pixel_values")
        first, second = (torch.randn(batch, 3, size, size) for batch, size in zip((2, 3), sizes, strict=True))
        return model, (first,), (second,), {0: {0: "batch"}}

    return build


def layoutlm():
    model = _Tensors(_hf("LayoutLMConfig", "LayoutLMModel", **_TEXT), "input_ids", "bbox")

    def boxes(batch, sequence):
        corners = torch.randint(0, 500, (batch, sequence, 2))
        return torch.cat([corners, corners + 10], dim=-1)

    dims = {0: {0: "batch", 1: "seq"}, 1: {0: "batch", 1: "seq"}}
    return model, (_ids(2, 8), boxes(2, 8)), (_ids(3, 12), boxes(3, 12)), dims


def hubert():
    model = _Tensors(_hf("HubertConfig", "HubertModel", hidden_size=32, num_hidden_layers=1,
                         num_attention_heads=2, intermediate_size=37, conv_dim=(16, 16),
                         conv_stride=(5, 2), conv_kernel=(10, 3), num_conv_pos_embeddings=16,
                         num_conv_pos_embedding_groups=2, feat_extract_norm="group"),
                     "input_values")
    return model, (torch.randn(2, 400),), (torch.randn(3, 400),), {0: {0: "batch"}}


class WindowAttention(torch.nn.Module):
    """Swin's window attention: windows of a feature map, a relative position bias table
    indexed by a buffer, windows merged back."""

    def __init__(self, dim: int = 16, window: int = 4, heads: int = 2):
        super().__init__()
        self.window, self.heads = window, heads
        self.qkv = torch.nn.Linear(dim, 3 * dim)
        self.table = torch.nn.Parameter(torch.randn((2 * window - 1) ** 2, heads))
        coords = torch.stack(torch.meshgrid(torch.arange(window), torch.arange(window), indexing="ij")).flatten(1)
        relative = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0) + (window - 1)
        self.register_buffer("index", (relative[..., 0] * (2 * window - 1) + relative[..., 1]).flatten())

    def forward(self, x):
        batch, height, width, channels = x.shape
        w = self.window
        windows = x.view(batch, height // w, w, width // w, w, channels).permute(0, 1, 3, 2, 4, 5)
        windows = windows.reshape(-1, w * w, channels)
        q, k, v = self.qkv(windows).chunk(3, dim=-1)
        split = lambda t: t.view(t.shape[0], w * w, self.heads, -1).transpose(1, 2)  # noqa: E731
        q, k, v = split(q), split(k), split(v)
        bias = self.table[self.index].view(w * w, w * w, -1).permute(2, 0, 1)
        attention = (q @ k.transpose(-2, -1) + bias.unsqueeze(0)).softmax(-1)
        out = (attention @ v).transpose(1, 2).reshape(-1, w, w, channels)
        out = out.view(batch, height // w, width // w, w, w, channels).permute(0, 1, 3, 2, 4, 5)
        return out.reshape(batch, height, width, channels)


def window_attention():
    model = WindowAttention().eval()
    return model, (torch.randn(2, 8, 8, 16),), (torch.randn(3, 8, 8, 16),), {0: {0: "batch"}}


class PaddedPair(torch.nn.Module):
    """Two sequences padded to the longer one: `torch.sym_max` of their lengths."""

    def forward(self, x, y):
        longest = torch.sym_max(x.shape[1], y.shape[1])
        pad = torch.nn.functional.pad
        return pad(x, (0, longest - x.shape[1])) * pad(y, (0, longest - y.shape[1]))


def padded_pair():
    dims = {0: {1: "n"}, 1: {1: "m"}}
    return PaddedPair(), (torch.randn(2, 5), torch.randn(2, 7)), (torch.randn(2, 9), torch.randn(2, 4)), dims


CASES = {
    "roformer": _text("RoFormerConfig", "RoFormerModel", embedding_size=32),
    "mobilebert": _text("MobileBertConfig", "MobileBertModel", embedding_size=16, intra_bottleneck_size=16,
                        true_hidden_size=16, num_feedforward_networks=1),
    "convbert": _text("ConvBertConfig", "ConvBertModel", embedding_size=32, conv_kernel_size=3),
    "codegen": _text("CodeGenConfig", "CodeGenModel", n_embd=32, n_layer=1, n_head=2, rotary_dim=8,
                     n_positions=64, n_ctx=64),
    "bigbird": _text("BigBirdConfig", "BigBirdModel", attention_type="original_full"),
    "fnet": _text("FNetConfig", "FNetModel", use_tpu_fourier_optimizations=False),
    "mpt": _text("MptConfig", "MptModel", d_model=32, n_heads=2, n_layers=1, expansion_ratio=2),
    "layoutlm": layoutlm,
    "swin": _image("SwinConfig", "SwinModel", image_size=32, patch_size=4, embed_dim=16, depths=(1, 1),
                   num_heads=(2, 2), window_size=4),
    "poolformer": _image("PoolFormerConfig", "PoolFormerModel", hidden_sizes=(16, 32), depths=(1, 1),
                         num_encoder_blocks=2, patch_sizes=(7, 3), strides=(4, 2), padding=(2, 1),
                         sizes=(32, 32)),
    "mobilevit": _image("MobileViTConfig", "MobileViTModel", image_size=64, hidden_sizes=(32, 32, 32),
                        neck_hidden_sizes=(8, 8, 16, 16, 16, 32, 64), num_attention_heads=2,
                        sizes=(64, 64)),
    "hubert": hubert,
    "window_attention": window_attention,
    "padded_pair": padded_pair,
}
DYNAMISMS = ("static", "dynamic")
