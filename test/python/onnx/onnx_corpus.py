"""The ONNX corpus (issue 27): small architectures exported to ONNX with both of PyTorch's
exporters, imported with torch-mlir's ONNX importer and converted to the Torch dialect.

Every model is a hand-written `torch.nn` module (or one of torch.nn's layers) at a tiny
size with random weights: nothing is downloaded. Each is exported by the legacy
TorchScript exporter (`dynamo=False`, dynamic dims as `dynamic_axes`) and by the dynamo
exporter (`dynamo=True`, `dynamic_shapes`), three ways: static, a dynamic batch, and a
dynamic batch with a dynamic sequence length or image size. `build_tools/onnx_corpus.py`
measures refinement on them (onnx_measure.py).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # test/python: the models package

from models.corpus import BATCH, SEQ, ModelCase

EXPORTERS = ("legacy", "dynamo")
DYNAMISMS = ("static", "batch", "batch+extent")
# The forms a variant is refined in: the IR as converted (with the types ONNX shape
# inference gave), and with every intermediate tensor type erased.
FORMS = ("converted", "erased")

HIDDEN = 32
VOCAB = 64
TEXT = {"extent_dims": ((1,),)}
IMAGE = {"extent_dims": ((2, 3),), "extent_range": (16, 64), "extent_step": 8}


class NotApplicable(Exception):
    """The variant does not exist (a dynamism the model has no dim for)."""


# -- models ----------------------------------------------------------------------------


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.first, self.second = nn.Linear(12, 16), nn.Linear(16, 4)

    def forward(self, x):
        return self.second(torch.relu(self.first(x.flatten(1))))


class ReshapeHeads(nn.Module):
    """`reshape(b, s, 4, 8)` of a linear's output, then a mean over the heads."""

    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(HIDDEN, HIDDEN)

    def forward(self, x):
        y = self.linear(x)
        return y.reshape(y.size(0), y.size(1), 4, 8).mean(dim=2) + 1


class Cnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.head = nn.Linear(16, 5)

    def forward(self, x):
        return self.head(torch.flatten(self.features(x), 1)).softmax(-1)


class UNet(nn.Module):
    """Down with a stride-2 convolution, up with a transposed one, a skip by cat. (Not
    nearest interpolation: torch-mlir converts ONNX Resize in nearest mode to
    `__interpolate` with `align_corners=false`, which PyTorch rejects.)"""

    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, padding=1)
        self.down = nn.Conv2d(8, 16, 3, stride=2, padding=1)
        self.up = nn.ConvTranspose2d(16, 8, 2, stride=2)
        self.out = nn.Conv2d(16, 2, 1)

    def forward(self, x):
        skip = torch.relu(self.stem(x))
        low = torch.relu(self.down(skip))
        return self.out(torch.cat([skip, self.up(low)], 1))


class Separable(nn.Module):
    """MobileNet-like: depthwise (grouped) and pointwise convolutions, hardswish, a pool.
    (Max pooling, from when PyTorch's check on ONNX AveragePool's `avg_pool2d` with four
    strides stopped the truth; the average pools are the modules below now.)"""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.Hardswish(),
            nn.Conv2d(16, 16, 3, padding=1, groups=16), nn.BatchNorm2d(16), nn.ReLU6(),
            nn.Conv2d(16, 24, 1), nn.Hardswish(),
        )

    def forward(self, x):
        y = self.body(x)
        return nn.functional.max_pool2d(y, 2).mean(dim=(2, 3))


class Lstm(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(16, HIDDEN, batch_first=True)
        self.head = nn.Linear(HIDDEN, 4)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out)


class BiLstm(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(16, 16, num_layers=2, batch_first=True, bidirectional=True)

    def forward(self, x):
        out, (h, _) = self.lstm(x)
        return out.sum(-1), h


class Gru(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 16)
        self.gru = nn.GRU(16, HIDDEN, batch_first=True)

    def forward(self, ids):
        out, h = self.gru(self.embed(ids))
        return out, h


class SelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.attention = nn.MultiheadAttention(HIDDEN, 4, batch_first=True)

    def forward(self, x):
        out, weights = self.attention(x, x, x)
        return out, weights


class Encoder(nn.Module):
    """Embeddings with learned positions up to the sequence length, one encoder layer."""

    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, HIDDEN)
        self.position = nn.Embedding(64, HIDDEN)
        self.layer = nn.TransformerEncoderLayer(HIDDEN, 4, 64, dropout=0.0, batch_first=True)

    def forward(self, ids):
        positions = torch.arange(ids.shape[1]).unsqueeze(0)
        return self.layer(self.embed(ids) + self.position(positions))


class Decoder(nn.Module):
    """One decoder layer with a causal mask over the target and cross-attention."""

    def __init__(self):
        super().__init__()
        self.layer = nn.TransformerDecoderLayer(HIDDEN, 4, 64, dropout=0.0, batch_first=True)

    def forward(self, target, memory):
        length = target.shape[1]
        mask = torch.triu(torch.full((length, length), float("-inf")), diagonal=1)
        return self.layer(target, memory, tgt_mask=mask)


class CausalAttention(nn.Module):
    """GPT-style attention written out: qkv split, heads by view and transpose, a causal
    mask sliced from a buffer to the sequence length."""

    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, HIDDEN)
        self.qkv = nn.Linear(HIDDEN, 3 * HIDDEN)
        self.out = nn.Linear(HIDDEN, HIDDEN)
        self.register_buffer("causal", torch.tril(torch.ones(64, 64)).bool())

    def forward(self, ids):
        x = self.embed(ids)
        b, s, c = x.shape
        q, k, v = self.qkv(x).split(HIDDEN, dim=2)
        q, k, v = (t.view(b, s, 4, c // 4).transpose(1, 2) for t in (q, k, v))
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(c // 4)
        scores = scores.masked_fill(~self.causal[:s, :s], float("-inf"))
        y = (scores.softmax(-1) @ v).transpose(1, 2).reshape(b, s, c)
        return self.out(y)


class Audio(nn.Module):
    """1-D convolutions with stride over a signal, then frames to features."""

    def __init__(self):
        super().__init__()
        self.convs = nn.Sequential(nn.Conv1d(8, 16, 3, stride=2), nn.GELU(), nn.Conv1d(16, 16, 3, stride=2))
        self.norm = nn.LayerNorm(16)

    def forward(self, x):
        return self.norm(self.convs(x).transpose(1, 2))


class PatchEmbed(nn.Module):
    """ViT's front: patches by a strided convolution, a class token expanded to the
    batch, positions, one encoder layer (fixed image size: the positions fix it)."""

    def __init__(self):
        super().__init__()
        self.patch = nn.Conv2d(3, HIDDEN, 4, stride=4)
        self.token = nn.Parameter(torch.randn(1, 1, HIDDEN))
        self.position = nn.Parameter(torch.randn(1, 17, HIDDEN))
        self.layer = nn.TransformerEncoderLayer(HIDDEN, 4, 64, dropout=0.0, batch_first=True)

    def forward(self, x):
        patches = self.patch(x).flatten(2).transpose(1, 2)
        token = self.token.expand(x.shape[0], -1, -1)
        return self.layer(torch.cat([token, patches], dim=1) + self.position)[:, 0]


class Resize(nn.Module):
    """Bilinear upsampling and pooling: sizes computed from the input's. (No padding, from
    when PyTorch's check on the legacy exporter's Pad, a `slice` with a negative step,
    stopped the truth; the pad modules below measure it now.)"""

    def forward(self, x):
        y = nn.functional.interpolate(x, scale_factor=2.0, mode="bilinear", align_corners=False)
        return nn.functional.max_pool2d(y, 3, stride=2).sigmoid()


# Model-zoo style CNNs with average pools (the ONNX model zoo's resnet, densenet,
# inception and shufflenet, at tiny sizes): every one exports ONNX AveragePool, which
# torch-mlir's conversion writes as `avg_pool2d` with a stride per dim of the input.


def _conv_bn(inputs: int, outputs: int, kernel: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(inputs, outputs, kernel, stride, kernel // 2, bias=False),
                         nn.BatchNorm2d(outputs), nn.ReLU())


class ResidualBlock(nn.Module):
    """A basic block; downsampling, its shortcut is ResNet-D's: an average pool, then a
    1x1 convolution."""

    def __init__(self, inputs: int, outputs: int, stride: int):
        super().__init__()
        self.body = nn.Sequential(_conv_bn(inputs, outputs, 3, stride),
                                  nn.Conv2d(outputs, outputs, 3, padding=1, bias=False), nn.BatchNorm2d(outputs))
        self.shortcut = nn.Identity() if stride == 1 else nn.Sequential(
            nn.AvgPool2d(stride, stride), nn.Conv2d(inputs, outputs, 1, bias=False), nn.BatchNorm2d(outputs))

    def forward(self, x):
        return torch.relu(self.body(x) + self.shortcut(x))


class ResNet(nn.Module):
    """Stem (a stride-2 convolution, a max pool), residual blocks, a global average pool,
    a linear head."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(_conv_bn(3, 8, 3, 2), nn.MaxPool2d(3, 2, padding=1))
        self.blocks = nn.Sequential(ResidualBlock(8, 8, 1), ResidualBlock(8, 16, 2))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(16, 10)

    def forward(self, x):
        return self.head(torch.flatten(self.pool(self.blocks(self.stem(x))), 1))


class DenseBlock(nn.Module):
    """Each layer's features concatenated to all before it."""

    def __init__(self, inputs: int, growth: int, layers: int):
        super().__init__()
        self.layers = nn.ModuleList(
            nn.Sequential(nn.BatchNorm2d(inputs + i * growth), nn.ReLU(),
                          nn.Conv2d(inputs + i * growth, growth, 3, padding=1, bias=False))
            for i in range(layers))

    def forward(self, x):
        for layer in self.layers:
            x = torch.cat([x, layer(x)], 1)
        return x


class DenseNet(nn.Module):
    """Dense blocks joined by transitions (a 1x1 convolution, a 2x2 average pool), then a
    global average pool and a linear head."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, padding=1, bias=False)
        self.features = nn.Sequential(
            DenseBlock(8, 4, 2), self._transition(16, 8),
            DenseBlock(8, 4, 2), self._transition(16, 8),
            DenseBlock(8, 4, 2), nn.BatchNorm2d(16), nn.ReLU(),
        )
        self.head = nn.Linear(16, 10)

    @staticmethod
    def _transition(inputs: int, outputs: int) -> nn.Sequential:
        return nn.Sequential(nn.BatchNorm2d(inputs), nn.ReLU(), nn.Conv2d(inputs, outputs, 1, bias=False),
                             nn.AvgPool2d(2, stride=2))

    def forward(self, x):
        y = nn.functional.adaptive_avg_pool2d(self.features(self.stem(x)), 1)
        return self.head(torch.flatten(y, 1))


class InceptionModule(nn.Module):
    """Four parallel branches concatenated: 1x1, 1x1 then 3x3, 1x1 then two 3x3 (the 5x5
    of v2), and a 3x3 average pool then 1x1."""

    def __init__(self, inputs: int, width: int):
        super().__init__()
        self.one = _conv_bn(inputs, width, 1)
        self.three = nn.Sequential(_conv_bn(inputs, width, 1), _conv_bn(width, width, 3))
        self.five = nn.Sequential(_conv_bn(inputs, width, 1), _conv_bn(width, width, 3), _conv_bn(width, width, 3))
        self.pool = nn.Sequential(nn.AvgPool2d(3, stride=1, padding=1), _conv_bn(inputs, width, 1))

    def forward(self, x):
        return torch.cat([self.one(x), self.three(x), self.five(x), self.pool(x)], 1)


class Inception(nn.Module):
    """Stem, two inception modules with a stride-2 max pool between, a global average
    pool, a linear head."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(_conv_bn(3, 8, 3, 2), nn.MaxPool2d(3, 2, padding=1))
        self.stages = nn.Sequential(InceptionModule(8, 4), nn.MaxPool2d(3, 2, padding=1), InceptionModule(16, 8))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(32, 10)

    def forward(self, x):
        return self.head(torch.flatten(self.pool(self.stages(self.stem(x))), 1))


def _channel_shuffle(x: torch.Tensor, groups: int) -> torch.Tensor:
    b, c, h, w = x.shape
    return x.reshape(b, groups, c // groups, h, w).transpose(1, 2).reshape(b, c, h, w)


class ShuffleUnit(nn.Module):
    """ShuffleNet v1's unit: grouped 1x1, channel shuffle, depthwise 3x3, grouped 1x1;
    downsampling, the shortcut is a 3x3 stride-2 average pool, concatenated."""

    def __init__(self, inputs: int, outputs: int, stride: int, groups: int = 2):
        super().__init__()
        branch = outputs - inputs if stride == 2 else outputs
        middle = branch // 2
        self.groups, self.stride = groups, stride
        self.reduce = nn.Sequential(nn.Conv2d(inputs, middle, 1, groups=groups, bias=False),
                                    nn.BatchNorm2d(middle), nn.ReLU())
        self.depthwise = nn.Sequential(nn.Conv2d(middle, middle, 3, stride, 1, groups=middle, bias=False),
                                       nn.BatchNorm2d(middle))
        self.expand = nn.Sequential(nn.Conv2d(middle, branch, 1, groups=groups, bias=False), nn.BatchNorm2d(branch))
        self.shortcut = nn.AvgPool2d(3, stride=2, padding=1)

    def forward(self, x):
        y = self.expand(self.depthwise(_channel_shuffle(self.reduce(x), self.groups)))
        if self.stride == 2:
            return torch.relu(torch.cat([self.shortcut(x), y], 1))
        return torch.relu(x + y)


class ShuffleNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(_conv_bn(3, 8, 3, 2), nn.MaxPool2d(3, 2, padding=1))
        self.units = nn.Sequential(ShuffleUnit(8, 24, 2), ShuffleUnit(24, 24, 1))
        self.head = nn.Linear(24, 10)

    def forward(self, x):
        return self.head(self.units(self.stem(x)).mean(dim=(2, 3)))


def _ids() -> torch.Tensor:
    return torch.randint(0, VOCAB, (BATCH, SEQ))


MODELS: tuple[ModelCase, ...] = (
    ModelCase("mlp", lambda: (Mlp(), (torch.randn(BATCH, 3, 4),))),
    ModelCase("reshape_heads", lambda: (ReshapeHeads(), (torch.randn(BATCH, SEQ, HIDDEN),)), **TEXT),
    ModelCase("cnn", lambda: (Cnn(), (torch.randn(BATCH, 3, 32, 32),)), **IMAGE),
    ModelCase("unet", lambda: (UNet(), (torch.randn(BATCH, 3, 32, 32),)), **IMAGE),
    ModelCase("separable", lambda: (Separable(), (torch.randn(BATCH, 3, 32, 32),)), **IMAGE),
    ModelCase("resize", lambda: (Resize(), (torch.randn(BATCH, 3, 32, 32),)), **IMAGE),
    ModelCase("lstm", lambda: (Lstm(), (torch.randn(BATCH, SEQ, 16),)), **TEXT),
    ModelCase("bilstm", lambda: (BiLstm(), (torch.randn(BATCH, SEQ, 16),)), **TEXT),
    ModelCase("gru", lambda: (Gru(), (_ids(),)), **TEXT),
    ModelCase("self_attention", lambda: (SelfAttention(), (torch.randn(BATCH, SEQ, HIDDEN),)), **TEXT),
    ModelCase("encoder", lambda: (Encoder(), (_ids(),)), **TEXT),
    ModelCase("decoder", lambda: (Decoder(), (torch.randn(BATCH, SEQ, HIDDEN), torch.randn(BATCH, SEQ, HIDDEN))),
              batch_dims=((0,), (0,)), extent_dims=((1,), (1,))),
    ModelCase("causal_attention", lambda: (CausalAttention(), (_ids(),)), **TEXT),
    ModelCase("audio", lambda: (Audio(), (torch.randn(BATCH, 8, 40),)), extent_dims=((2,),),
              extent_range=(16, 64)),
    ModelCase("patch_embed", lambda: (PatchEmbed(), (torch.randn(BATCH, 3, 16, 16),))),
    # torch.nn's layers whose ONNX form torch-mlir's conversion writes wider than PyTorch
    # takes (docs/library.md, "Where torch-mlir's meaning is wider than eager PyTorch").
    ModelCase("avg_pool1d", lambda: (nn.AvgPool1d(3, 2), (torch.randn(BATCH, 4, 32),)),
              extent_dims=((2,),), extent_range=(16, 64)),
    ModelCase("avg_pool2d", lambda: (nn.AvgPool2d(3, 2, padding=1), (torch.randn(BATCH, 3, 32, 32),)), **IMAGE),
    ModelCase("avg_pool3d", lambda: (nn.AvgPool3d(2, 2), (torch.randn(BATCH, 2, 8, 8, 8),)),
              extent_dims=((2, 3, 4),), extent_range=(8, 16), extent_step=2),
    ModelCase("reflection_pad2d", lambda: (nn.ReflectionPad2d((1, 2, 3, 0)), (torch.randn(BATCH, 3, 32, 32),)),
              **IMAGE),
    ModelCase("replication_pad2d", lambda: (nn.ReplicationPad2d((1, 2, 3, 0)), (torch.randn(BATCH, 3, 32, 32),)),
              **IMAGE),
    ModelCase("resnet", lambda: (ResNet(), (torch.randn(BATCH, 3, 32, 32),)), **IMAGE),
    ModelCase("densenet", lambda: (DenseNet(), (torch.randn(BATCH, 3, 32, 32),)), **IMAGE),
    ModelCase("inception", lambda: (Inception(), (torch.randn(BATCH, 3, 32, 32),)), **IMAGE),
    ModelCase("shufflenet", lambda: (ShuffleNet(), (torch.randn(BATCH, 3, 32, 32),)), **IMAGE),
)

BY_NAME = {case.name: case for case in MODELS}


# -- export and import -----------------------------------------------------------------


def export(case: ModelCase, exporter: str, dynamism: str, path: Path) -> None:
    """Write the model's ONNX file for one exporter and dynamism."""
    if dynamism == "batch+extent" and not case.extent_dims:
        raise NotApplicable("the model has no sequence or image-size dim")
    model, inputs = case.make()
    names = [f"input{i}" for i in range(len(inputs))]
    if exporter == "dynamo":
        shapes = None if dynamism == "static" else case.dynamic_shapes(dynamism == "batch+extent")
        with torch.no_grad():
            program = torch.onnx.export(model, inputs, dynamo=True, input_names=names,
                                        dynamic_shapes=shapes, verbose=False)
        program.save(str(path))
        return
    axes = None if dynamism == "static" else _dynamic_axes(case, names, dynamism == "batch+extent")
    # With grad on: under no_grad, torch.nn's attention layers take their fused fast path,
    # which the legacy exporter cannot export.
    torch.onnx.export(model, inputs, str(path), dynamo=False, input_names=names, dynamic_axes=axes)


def _dynamic_axes(case: ModelCase, names: list[str], extent: bool) -> dict:
    extents = case.extent_dims if extent else ((),) * len(names)
    return {name: {**{d: "batch" for d in batch}, **{d: "extent" for d in more}}
            for name, batch, more in zip(names, case.batch_dims, extents, strict=True)}


def import_onnx(path: Path) -> str:
    """torch-mlir's ONNX importer, then `convert-torch-onnx-to-torch`: the Torch-dialect
    text, with locations."""
    import onnx
    from torch_mlir.extras import onnx_importer
    from torch_mlir.passmanager import PassManager

    from torch_refine.ir.context import create_context

    proto = onnx.shape_inference.infer_shapes(onnx.load(str(path)))
    with create_context() as context:
        info = onnx_importer.ModelInfo(proto)
        module = info.create_module(context=context)
        onnx_importer.NodeImporter.define_function(info.main_graph, module.operation).import_all()
        PassManager.parse("builtin.module(func.func(convert-torch-onnx-to-torch))").run(module.operation)
        return module.operation.get_asm(enable_debug_info=True)
