"""The broad corpus (issue 11 item 2): 30+ architectures from `transformers` and torch.nn,
tiny configs (1-2 layers, hidden 32-64), random weights, no downloads.

Each case is a `corpus.ModelCase` with batch dims and, where the model has one, the
sequence-length or image-size dims (`extent_dims`). `build_tools/corpus.py` and
`test_corpus3.py` import each three ways (see `LEVELS`) and three dynamisms (`DYNAMISMS`).
"""

from __future__ import annotations

import torch

from torch_refine.examples.tiny_llama import TextModel, persist_buffers

from .corpus import BATCH, SEQ, ModelCase, _ids, _ImageModel, _mask, _tensors
from .corpus import MODELS as FIRST_CORPUS

VOCAB = 128
TEXT_DIMS = {"batch_dims": ((0,), (0,)), "extent_dims": ((1,), (1,))}
IMAGE_DIMS = {"extent_dims": ((2, 3),), "extent_range": (16, 64), "extent_step": 8}

# What every decoder config gets: tiny, no cache, eager attention (the default SDPA path
# decomposes into views export's decomposition pass rejects on some models).
_DECODER = dict(
    vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
    intermediate_size=64, max_position_embeddings=64, use_cache=False,
    bos_token_id=0, eos_token_id=0, pad_token_id=0,
)


def _text(config_name: str, model_name: str, **config):
    import transformers

    def build():
        cfg = getattr(transformers, config_name)(**config)
        cfg._attn_implementation = "eager"
        model = TextModel(getattr(transformers, model_name)(cfg))
        return model, (_ids(VOCAB), _mask())

    return build


def _decoder(config_name: str, model_name: str, **overrides):
    return _text(config_name, model_name, **{**_DECODER, **overrides})


class _Seq2Seq(torch.nn.Module):
    """An encoder-decoder called with ids, a mask and decoder ids."""

    def __init__(self, model: torch.nn.Module):
        super().__init__()
        self.model = persist_buffers(model)

    def forward(self, input_ids, attention_mask, decoder_input_ids):
        out = self.model(input_ids=input_ids, attention_mask=attention_mask,
                         decoder_input_ids=decoder_input_ids, return_dict=False)
        return _tensors(out)


def _seq2seq(config_name: str, model_name: str, **config):
    import transformers

    def build():
        cfg = getattr(transformers, config_name)(**config)
        cfg._attn_implementation = "eager"
        model = _Seq2Seq(getattr(transformers, model_name)(cfg))
        return model, (_ids(VOCAB), _mask(), _ids(VOCAB))

    return build


def _image(config_name: str, model_name: str, size: int = 32, **config):
    import transformers

    def build():
        cfg = getattr(transformers, config_name)(**config)
        model = _ImageModel(getattr(transformers, model_name)(cfg))
        return model, (torch.randn(BATCH, 3, size, size),)

    return build


class _InterpolatedViT(torch.nn.Module):
    """ViT asked to interpolate its position embeddings to the input's size."""

    def __init__(self, model: torch.nn.Module):
        super().__init__()
        self.model = persist_buffers(model)

    def forward(self, pixel_values):
        out = self.model(pixel_values=pixel_values, interpolate_pos_encoding=True,
                         return_dict=False)
        return _tensors(out)


def vit_interpolate():
    import transformers

    config = transformers.ViTConfig(
        image_size=16, patch_size=4, num_channels=3, hidden_size=32, num_hidden_layers=1,
        num_attention_heads=4, intermediate_size=64,
    )
    return _InterpolatedViT(transformers.ViTModel(config)), (torch.randn(BATCH, 3, 24, 24),)


class _Audio(torch.nn.Module):
    def __init__(self, model: torch.nn.Module):
        super().__init__()
        self.model = persist_buffers(model)

    def forward(self, values):
        return _tensors(self.model(values, return_dict=False))


def wav2vec2():
    import transformers

    config = transformers.Wav2Vec2Config(
        vocab_size=32, hidden_size=32, num_hidden_layers=1, num_attention_heads=4,
        intermediate_size=64, conv_dim=(16, 16), conv_stride=(5, 2), conv_kernel=(10, 3),
        num_conv_pos_embeddings=16, num_conv_pos_embedding_groups=4,
        do_stable_layer_norm=True, mask_time_prob=0.0,
    )
    config._attn_implementation = "eager"
    return _Audio(transformers.Wav2Vec2Model(config)), (torch.randn(BATCH, 400),)


def whisper_encoder():
    import transformers
    from transformers.models.whisper.modeling_whisper import WhisperEncoder

    config = transformers.WhisperConfig(
        vocab_size=VOCAB, num_mel_bins=16, d_model=32, encoder_layers=1, decoder_layers=1,
        encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=64,
        decoder_ffn_dim=64, max_source_positions=16, max_target_positions=32,
    )
    config._attn_implementation = "eager"
    # Whisper requires exactly 2 * max_source_positions input frames.
    return _Audio(WhisperEncoder(config)), (torch.randn(BATCH, 16, 32),)


def gru_loop():
    """A GRU cell stepped over the sequence by a Python loop (unrolled by export)."""

    class Stepper(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = torch.nn.Embedding(64, 16)
            self.cell = torch.nn.GRUCell(16, 24)
            self.head = torch.nn.Linear(24, 5)

        def forward(self, ids):
            x = self.embed(ids)
            h = x.new_zeros(x.shape[0], 24)
            outs = []
            for step in range(x.shape[1]):
                h = self.cell(x[:, step], h)
                outs.append(h)
            return self.head(torch.stack(outs, 1)).softmax(-1)

    return Stepper(), (torch.randint(0, 64, (BATCH, SEQ)),)


def conv_loop():
    """A shared conv block applied a fixed number of times, with a residual."""

    class Refiner(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.block = torch.nn.Sequential(
                torch.nn.Conv2d(8, 8, 3, padding=1), torch.nn.BatchNorm2d(8), torch.nn.ReLU(),
            )
            self.stem = torch.nn.Conv2d(3, 8, 3, stride=2, padding=1)
            self.pool = torch.nn.AdaptiveAvgPool2d(1)

        def forward(self, x):
            x = self.stem(x)
            for _ in range(3):
                x = x + self.block(x)
            return self.pool(x).flatten(1)

    return Refiner(), (torch.randn(BATCH, 3, 16, 16),)


_NEW: tuple[ModelCase, ...] = (
    # Decoders: rotary, grouped-query attention, sliding windows, soft-capping, ALiBi.
    ModelCase("mistral", _decoder("MistralConfig", "MistralModel", num_key_value_heads=2,
                                  sliding_window=4), **TEXT_DIMS),
    ModelCase("qwen2", _decoder("Qwen2Config", "Qwen2Model", num_key_value_heads=2),
              **TEXT_DIMS),
    ModelCase("gemma", _decoder("GemmaConfig", "GemmaModel", num_key_value_heads=1,
                                head_dim=8), **TEXT_DIMS),
    ModelCase("gemma2", _decoder("Gemma2Config", "Gemma2Model", num_key_value_heads=2,
                                 head_dim=8, sliding_window=4, attn_logit_softcapping=50.0,
                                 final_logit_softcapping=30.0), **TEXT_DIMS),
    ModelCase("phi", _decoder("PhiConfig", "PhiModel", partial_rotary_factor=0.5),
              **TEXT_DIMS),
    ModelCase("phi3", _decoder("Phi3Config", "Phi3Model", num_key_value_heads=2),
              **TEXT_DIMS),
    ModelCase("gpt_neox", _decoder("GPTNeoXConfig", "GPTNeoXModel", rotary_pct=0.5),
              **TEXT_DIMS),
    ModelCase("falcon", _decoder("FalconConfig", "FalconModel", new_decoder_architecture=True,
                                 num_kv_heads=2), **TEXT_DIMS),
    ModelCase("opt", _text("OPTConfig", "OPTModel", vocab_size=VOCAB, hidden_size=32,
                           num_hidden_layers=2, num_attention_heads=4, ffn_dim=64,
                           word_embed_proj_dim=32, max_position_embeddings=64,
                           use_cache=False), **TEXT_DIMS),
    ModelCase("bloom", _text("BloomConfig", "BloomModel", vocab_size=VOCAB, hidden_size=32,
                             n_layer=2, n_head=4, use_cache=False), **TEXT_DIMS),
    ModelCase("gptj", _text("GPTJConfig", "GPTJModel", vocab_size=VOCAB, n_embd=32, n_layer=2,
                            n_head=4, rotary_dim=4, n_positions=64, use_cache=False),
              **TEXT_DIMS),
    ModelCase("stablelm", _decoder("StableLmConfig", "StableLmModel", num_key_value_heads=2),
              **TEXT_DIMS),
    ModelCase("gpt_bigcode", _text("GPTBigCodeConfig", "GPTBigCodeModel", vocab_size=VOCAB,
                                   n_embd=32, n_layer=2, n_head=4, n_positions=64,
                                   use_cache=False), **TEXT_DIMS),
    # Mixture of experts: top-k routing.
    ModelCase("mixtral", _decoder("MixtralConfig", "MixtralModel", num_hidden_layers=1,
                                  num_key_value_heads=2, num_local_experts=4,
                                  num_experts_per_tok=2), **TEXT_DIMS),
    ModelCase("qwen2_moe", _decoder("Qwen2MoeConfig", "Qwen2MoeModel", num_hidden_layers=1,
                                    num_key_value_heads=2, num_experts=4,
                                    num_experts_per_tok=2, moe_intermediate_size=32,
                                    shared_expert_intermediate_size=32), **TEXT_DIMS),
    # Encoders: relative-position attention.
    ModelCase("deberta_v2", _text("DebertaV2Config", "DebertaV2Model", vocab_size=VOCAB,
                                  hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                                  intermediate_size=64, max_position_embeddings=64,
                                  relative_attention=True, position_buckets=8,
                                  pos_att_type=["p2c", "c2p"]), **TEXT_DIMS),
    # Depth: a 24-layer BERT, whose dynamic variants must cost what the 2-layer one's do
    # against their static twins (issue 26: asserts stated once, not per layer).
    ModelCase("bert24", _text("BertConfig", "BertModel", vocab_size=VOCAB, hidden_size=32,
                              num_hidden_layers=24, num_attention_heads=4, intermediate_size=64,
                              max_position_embeddings=64), **TEXT_DIMS),
    # Span-based dynamic convolution: an unfold (im2col) of the sequence (issue 42).
    ModelCase("convbert", _text("ConvBertConfig", "ConvBertModel", vocab_size=VOCAB, hidden_size=32,
                                embedding_size=32, num_hidden_layers=2, num_attention_heads=4,
                                intermediate_size=64, max_position_embeddings=64, head_ratio=2,
                                conv_kernel_size=3), **TEXT_DIMS),
    ModelCase("distilbert", _text("DistilBertConfig", "DistilBertModel", vocab_size=VOCAB,
                                  dim=32, n_layers=2, n_heads=4, hidden_dim=64,
                                  max_position_embeddings=64), **TEXT_DIMS),
    # Encoder-decoders with cross-attention.
    ModelCase("t5", _seq2seq("T5Config", "T5Model", vocab_size=VOCAB, d_model=32, d_kv=8,
                             d_ff=64, num_layers=1, num_heads=4,
                             relative_attention_num_buckets=8, use_cache=False,
                             decoder_start_token_id=0),
              batch_dims=((0,), (0,), (0,)), extent_dims=((1,), (1,), (1,))),
    ModelCase("bart", _seq2seq("BartConfig", "BartModel", vocab_size=VOCAB, d_model=32,
                               encoder_layers=1, decoder_layers=1, encoder_attention_heads=4,
                               decoder_attention_heads=4, encoder_ffn_dim=64,
                               decoder_ffn_dim=64, max_position_embeddings=64,
                               use_cache=False),
              batch_dims=((0,), (0,), (0,)), extent_dims=((1,), (1,), (1,))),
    ModelCase("marian", _seq2seq("MarianConfig", "MarianModel", vocab_size=VOCAB, d_model=32,
                                 encoder_layers=1, decoder_layers=1, encoder_attention_heads=4,
                                 decoder_attention_heads=4, encoder_ffn_dim=64,
                                 decoder_ffn_dim=64, max_position_embeddings=64,
                                 decoder_start_token_id=0, pad_token_id=0, use_cache=False),
              batch_dims=((0,), (0,), (0,)), extent_dims=((1,), (1,), (1,))),
    # Audio front ends: 1-D convolutions.
    ModelCase("wav2vec2", wav2vec2, extent_dims=((1,),)),
    ModelCase("whisper_encoder", whisper_encoder),
    # Vision: batch norm, window attention, interpolating heads, position interpolation.
    ModelCase("mobilenet_v2", _image("MobileNetV2Config", "MobileNetV2Model", num_channels=3,
                                     image_size=32, depth_multiplier=0.25,
                                     min_depth=4)),  # export specializes its image size
    # No dynamic image size: export's reasoning over the window partition does not end
    # within 10 minutes (and the FX importer rejects every swin program: docs/corpus.md).
    ModelCase("swin", _image("SwinConfig", "SwinModel", image_size=32, patch_size=4,
                             embed_dim=16, depths=[1, 1], num_heads=[2, 4], window_size=4)),
    ModelCase("segformer", _image("SegformerConfig", "SegformerForSemanticSegmentation",
                                  num_encoder_blocks=2, depths=[1, 1], sr_ratios=[2, 1],
                                  hidden_sizes=[16, 32], num_attention_heads=[1, 2],
                                  patch_sizes=[7, 3], strides=[4, 2], mlp_ratios=[2, 2],
                                  decoder_hidden_size=32, num_labels=4), **IMAGE_DIMS),
    # No dynamic image size: export guards int(sqrt(tokens)) == 4, one image size only.
    ModelCase("dpt", _image("DPTConfig", "DPTForDepthEstimation", image_size=32,
                            patch_size=8, hidden_size=32, num_hidden_layers=2,
                            num_attention_heads=4, intermediate_size=64,
                            backbone_out_indices=[0, 1], neck_hidden_sizes=[16, 32],
                            reassemble_factors=[2, 1], fusion_hidden_size=16,
                            head_in_index=-1)),
    ModelCase("vit_interpolate", vit_interpolate, **IMAGE_DIMS),
    # Relative position bias from a meshgrid of patch indices; its table fixes the image
    # size, so export specializes it (a constant in the bind) under a dynamic type.
    ModelCase("beit", _image("BeitConfig", "BeitModel", image_size=32, patch_size=8,
                             hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                             intermediate_size=64, use_relative_position_bias=True),
              **IMAGE_DIMS),
    # torch.nn models with loops.
    ModelCase("gru_loop", gru_loop),  # export unrolls the loop: the length is specialized
    ModelCase("conv_loop", conv_loop, **IMAGE_DIMS),
)

# The first corpus' models, with their sequence or image-size dims. nn.LSTM has none:
# export unrolls it over the sequence, so the length is specialized.
_TEXT = {"extent_dims": TEXT_DIMS["extent_dims"]}
_EXTENTS = {
    "bert": _TEXT, "llama": _TEXT, "gpt2": _TEXT, "t5_encoder": _TEXT,
    "vit": {}, "resnet": IMAGE_DIMS, "convnext": IMAGE_DIMS, "lstm": {},
    "transformer_encoder_layer": {"extent_dims": ((1,),)},
    "multihead_attention": {"extent_dims": ((1,), (1,))},
}

MODELS: tuple[ModelCase, ...] = tuple(
    ModelCase(case.name, case.build, case.batch_dims, **_EXTENTS[case.name])
    for case in FIRST_CORPUS
) + _NEW

BY_NAME = {case.name: case for case in MODELS}

# How the model reaches the Torch dialect.
LEVELS = ("raw", "core", "torch")
# static; dynamic batch; dynamic batch and sequence length (or image size).
DYNAMISMS = ("static", "batch", "batch+extent")
# How a dynamic variant is imported: with its symbolic shape expressions (`symbolic`), or
# without them (`plain`, torch-mlir's default: every `?` unrelated to every other).
FORMS = ("symbolic", "plain")


def forms(dynamism: str) -> tuple[str, ...]:
    """A static program has one form: it has no symbolic shapes to import."""
    return FORMS[:1] if dynamism == "static" else FORMS


class NotApplicable(Exception):
    """The variant does not exist (a dynamism the model has no dim for)."""


def export_texts(case: ModelCase, dynamism: str) -> dict[tuple[str, str], str]:
    """The model's Torch-dialect module at every level (`LEVELS`) and form (`forms`) for
    one dynamism, as text with locations, by (level, form); one torch.export serves them
    all. One that fails maps to the exception it raised (the caller records it); a failed
    export raises.

    The `symbolic` form of a dynamic variant is imported with its symbolic shape
    expressions (`torch.symbolic_int` with the export's ranges, `torch.bind_symbolic_shape`),
    as a user who asks torch.export for dynamic dims would import them; the `plain` form
    without them, as torch-mlir's `export_and_import` does by default.
    """
    if dynamism == "batch+extent" and not case.extent_dims:
        raise NotApplicable("the model has no sequence or image-size dim")
    model, inputs = case.make()
    shapes = None if dynamism == "static" else case.dynamic_shapes(dynamism == "batch+extent")
    # Under no_grad, the `torch.no_grad()` regions of Hugging Face's rotary embeddings do
    # not become `wrap_with_set_grad_enabled` higher-order ops, which the importer lacks.
    with torch.no_grad():
        program = torch.export.export(model, inputs, dynamic_shapes=shapes)
    texts: dict[tuple[str, str], str | BaseException] = {}
    for level in LEVELS:
        for form in forms(dynamism):
            try:
                texts[level, form] = _import(program, level, symbolic=form == "symbolic" and shapes is not None)
            except Exception as error:  # one level's failure does not hide the others
                texts[level, form] = error
    return texts


def _import(program, level: str, symbolic: bool) -> str:
    """Imported as `torch_refine.export_and_import` imports (`api.import_program`): with
    the symbolic shape expressions of a dynamic program where the importer can translate
    them, and a raw program with in-place ops functionalized without decompositions."""
    import copy

    from torch_mlir.extras.fx_decomp_util import get_decomposition_table

    from torch_refine.api import import_program

    program = copy.deepcopy(program)  # the importer rewrites the graph it imports
    if level == "core":
        program = program.run_decompositions()
    if level == "torch":  # torch-mlir's own table, as its export_and_import applies it
        program = program.run_decompositions(get_decomposition_table())
    output_type = "torch" if level == "torch" else "raw"
    module = import_program(program, output_type, import_symbolic_shape_expressions=symbolic)
    return module.operation.get_asm(enable_debug_info=True)
