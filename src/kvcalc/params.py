"""The parameters of a checkpoint, by component, and where each lives under TP and PP.

The inventory follows vLLM's layer classes: vocab-parallel embedding and LM head (vocab
padded to a multiple of 64, ``vocab_parallel_embedding.py``), column/row-parallel
attention and MLP projections split across TP, KV projections replicated when there are
fewer KV heads than GPUs, MLA's low-rank projections (``ReplicatedLinear`` for the A
projections), fused MoE experts split across TP/EP, replicated routers and norms, linear
attention / Mamba mixers, multimodal towers (first PP stage) and MTP draft layers.
"""

from __future__ import annotations

import math

from dataclasses import dataclass
from typing import Any

from .config_aliases import ALWAYS_TIED, GEMMA4_TYPES, GEMMA4_UNIFIED, falcon_h1_mixer_width, KDA_LAYER_TYPE, MAMBA1_LAYER_TYPE, LEARNED_POSITION_ROWS, NON_GATED_MLP_TYPES, TIED_BY_DEFAULT, canonical, model_type_of
from .kvspecs import kv_heads_per_gpu
from .units import cdiv


@dataclass(frozen=True)
class Part:
    """``params`` of one component. ``per_rank`` is what one TP rank holds (None: params / TP).
    ``quantizable``: a linear layer the checkpoint's weight format compresses (and whether it is
    a MoE expert, which MXFP4 checkpoints alone quantize). ``layer`` places it on a PP stage
    (None + ``where``: "first" for embeddings and towers, "last" for the LM head and MTP).
    ``fp32``: vLLM keeps it in float32 whatever the model dtype (MiniMax's LM head and router gates)."""

    name: str
    params: int
    per_rank: int | None
    quantizable: bool
    expert: bool = False
    layer: int | None = None
    where: str = "layer"
    fp32: bool = False


def output_gate(t: dict[str, Any]) -> bool:
    """Whether attention has a sigmoid output gate, a projection as wide as the queries: Qwen3-Next's
    ``attn_output_gate``, or Ricursive's ``use_gated_attention``, on by default (RicursiveConfig, v0.34)."""
    if str(t.get("model_type") or "") == "ricursive":
        return t.get("use_gated_attention", True) is not False
    return bool(t.get("attn_output_gate"))


def config_int(d: dict, key: str, default: float = 0) -> int:
    """A size from the config, or ``default`` when it is not a finite number (read_model and
    _check_estimate_fields have refused malformed values the estimate depends on)."""
    v = d.get(key)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        return int(default)
    return int(v)


_n = config_int


TRANSFORMERS_TEXT_DEFAULTS: dict[str, dict[str, int]] = {
    "gemma3_text": {"vocab_size": 262_208},
    "gemma3n_text": {"vocab_size": 262_400, "vocab_size_per_layer_input": 262_144,
                     "hidden_size_per_layer_input": 256},
    "gemma": {"vocab_size": 256_000},
    "gemma2": {"vocab_size": 256_000},
    "llama": {"vocab_size": 32_000},
    "mistral": {"vocab_size": 32_000},
    "mixtral": {"vocab_size": 32_000},
    "qwen2": {"vocab_size": 151_936},
    "qwen2_moe": {"vocab_size": 151_936},
    "qwen3": {"vocab_size": 151_936},
    "qwen3_moe": {"vocab_size": 151_936},
}
"""transformers' class defaults (``configuration_<model>.py``) for the size fields a hub
config.json may leave out; vLLM reads the config through these classes, so the default is what
it builds. The one that matters in practice: google/gemma-3-*-it ship a ``text_config`` without
``vocab_size``, and Gemma3TextConfig fills in 262,208 (1.41 B embedding parameters on the 27B)."""

_TEXT_MODEL_TYPE = {"gemma3": "gemma3_text", "gemma3n": "gemma3n_text"}
"""The language model's class when a multimodal config's ``text_config`` does not name it."""


def text_part(config: dict[str, Any]) -> dict[str, Any]:
    """The language model's part of a config (``text_config`` of a multimodal model), with
    transformers' defaults for the size fields it leaves out (TRANSFORMERS_TEXT_DEFAULTS) and the
    standard names its class answers (config_aliases.canonical)."""
    t = config.get("text_config")
    t = t if isinstance(t, dict) else config
    model_type = t.get("model_type") or _TEXT_MODEL_TYPE.get(str(config.get("model_type")))
    defaults = TRANSFORMERS_TEXT_DEFAULTS.get(str(model_type), {})
    missing = {k: v for k, v in defaults.items() if t.get(k) is None}
    return canonical({**t, **missing} if missing else t)


def _gated(t: dict[str, Any], act_key: str = "hidden_act") -> bool:
    """Whether the dense MLP is gated (three matrices): not for squared-ReLU (Nemotron) nor for the
    GELU MLPs of GPT-2-style and Falcon models (config_aliases.NON_GATED_MLP_TYPES)."""
    return t.get(act_key) != "relu2" and model_type_of(t) not in NON_GATED_MLP_TYPES


VOCAB_PADDING = 64
"""vLLM pads the vocabulary of its embedding and LM head to a multiple of 64
(vllm/model_executor/layers/vocab_parallel_embedding.py ``DEFAULT_VOCAB_PADDING_SIZE``)."""


def padded_vocab(vocab: int) -> int:
    """The vocabulary rows vLLM allocates (``VOCAB_PADDING``); TP splits these."""
    return cdiv(vocab, VOCAB_PADDING) * VOCAB_PADDING


def tied_embeddings(config: dict[str, Any]) -> bool:
    """Whether the checkpoint ties its input embeddings to the LM head (one table for both)."""
    return _tied(config, text_part(config))


def _tied(config: dict[str, Any], t: dict[str, Any]) -> bool:
    if model_type_of(t) in ALWAYS_TIED:
        return True
    for d in (t, config):
        if isinstance(d.get("tie_word_embeddings"), bool):
            return d["tie_word_embeddings"]
    # transformers' per-class defaults: Gemma, GPT-2, GPT-BigCode and Falcon tie, most others do not.
    model_type = model_type_of(t)
    return model_type.startswith("gemma") or model_type in TIED_BY_DEFAULT


def _attention(t: dict, i: int, tp: int, kind: str, heads: int, kv: int, hd: int, H: int,
               k_eq_v: bool = False, out_gate: bool = False) -> list[Part]:
    bias = bool(t.get("attention_bias")) or t.get("model_type") in ("qwen2", "qwen2_moe")
    q = H * heads * hd * (2 if out_gate else 1)
    kv_one = H * hd
    # k_eq_v: the checkpoint stores K alone, but vLLM's QKVParallelLinear still allocates the V
    # slot and loads K into both (gemma4.py Gemma4Attention), so one GPU holds K and V.
    kv_total = kv * kv_one * (1 if k_eq_v else 2)
    kv_rank = kv_heads_per_gpu(kv, tp) * kv_one * 2
    o = heads * hd * H
    parts = [Part("attention", q + o, None, True, layer=i),
             Part("attention", kv_total, kv_rank, True, layer=i)]
    if bias:
        parts.append(Part("attention", (heads + 2 * kv) * hd, None, False, layer=i))
    if t.get("model_type") in ("qwen3", "qwen3_moe", "gemma3", "gemma3_text", "qwen3_next",
                               *GEMMA4_TYPES, *LFM2_TYPES) or t.get("use_qk_norm"):
        parts.append(Part("norms", 2 * hd, 2 * hd, False, layer=i))
    return parts


def _mla(t: dict, i: int, H: int) -> list[Part]:
    heads = _n(t, "num_attention_heads")
    nope, rope, v = _n(t, "qk_nope_head_dim"), _n(t, "qk_rope_head_dim"), _n(t, "v_head_dim")
    q_rank, kv_rank = _n(t, "q_lora_rank"), _n(t, "kv_lora_rank")
    parts = []
    if q_rank:
        parts += [Part("attention", H * q_rank + q_rank, H * q_rank + q_rank, True, layer=i),
                  Part("attention", q_rank * heads * (nope + rope), None, True, layer=i)]
    else:
        parts.append(Part("attention", H * heads * (nope + rope), None, True, layer=i))
    a = H * (kv_rank + rope) + kv_rank
    parts += [Part("attention", a, a, True, layer=i),
              Part("attention", kv_rank * heads * (nope + v) + heads * v * H, None, True, layer=i)]
    if t.get("index_topk"):
        ih, idim = _n(t, "index_n_heads", 64), _n(t, "index_head_dim", 128)
        idx = (q_rank or H) * ih * idim + H * idim + H * ih + 2 * idim
        parts.append(Part("attention", idx, idx, False, layer=i))
    return parts


def _mlp(i: int, H: int, inter: int, gated: bool = True, name: str = "mlp") -> Part:
    return Part(name, (3 if gated else 2) * H * inter, None, True, layer=i)


def expert_count(t: dict) -> int:
    """Routed experts per MoE layer, under any of the names configs use (0: a dense model)."""
    return _n(t, "num_local_experts") or _n(t, "num_experts") or _n(t, "n_routed_experts")


LFM2_TYPES = ("lfm2", "lfm2_moe")
"""Liquid AI's LFM2 models: short-convolution layers among attention layers (``layer_types``)."""


LIGHTNING_TYPES = ("minimax_text_01", "minimax_m1", "minimax")
"""MiniMax's lightning-attention models (``hf_config.LIGHTNING_MODEL_TYPES``)."""


def _moe_layer(t: dict, i: int) -> bool:
    """Whether layer ``i`` of a model with experts is a MoE layer (dense first layers, MLP-only
    layers and every-n-th-layer patterns leave some dense)."""
    if not expert_count(t):
        return False
    mt = (t.get("model_type") or "")
    if _n(t, "first_k_dense_replace") and i < _n(t, "first_k_dense_replace"):
        return False
    if mt == "lfm2_moe" and i < _n(t, "num_dense_layers", 2):     # lfm2_moe.py: dense first layers
        return False
    if mt == "jamba":       # JambaConfig.layers_num_experts: experts every expert_layer_period layers
        return i % max(1, _n(t, "expert_layer_period", 2)) == _n(t, "expert_layer_offset", 1)
    if i in (t.get("mlp_only_layers") or []):
        return False
    step = _n(t, "moe_layer_freq") or _n(t, "decoder_sparse_step") or _n(t, "interleave_moe_layer_step") or 1
    if mt.startswith("llama4"):
        return (i + 1) % step == 0
    return i % step == 0


def _experts(t: dict, i: int, H: int, tp: int) -> list[Part]:
    E = expert_count(t)
    inter = _n(t, "moe_intermediate_size") or _n(t, "intermediate_size")
    gated = _gated(t, "mlp_hidden_act")     # Nemotron-H's squared-ReLU experts have no gate
    latent = _n(t, "moe_latent_size")        # Nemotron-3 latent MoE: experts work in a smaller width
    width = latent or H
    per = (3 if gated else 2) * width * inter
    bias = t.get("model_type") == "gpt_oss"
    parts = [Part("experts", E * (per + ((2 * inter + H) if bias else 0)), None, True, expert=True, layer=i),
             Part("router", H * E + (E if bias else 0), H * E, False, layer=i,
                  fp32=(t.get("model_type") or "") in LIGHTNING_TYPES)]    # MiniMax's float32 gate
    if latent:
        parts.append(Part("experts", 2 * H * latent, None, True, layer=i))
    shared_n = _n(t, "n_shared_experts")
    shared_inter = _n(t, "shared_expert_intermediate_size") or _n(t, "moe_shared_expert_intermediate_size")
    if shared_inter:
        parts.append(_mlp(i, H, shared_inter, gated, "shared_expert"))
        if (t.get("model_type") or "").startswith(("qwen2_moe", "qwen3_next", "qwen3_5")):
            parts.append(Part("router", H, H, False, layer=i))
    elif shared_n:
        parts.append(_mlp(i, H, shared_n * inter, gated, "shared_expert"))
    if (t.get("model_type") or "").startswith("llama4"):
        parts.append(_mlp(i, H, _n(t, "intermediate_size"), True, "shared_expert"))
    return parts


def _gdn(t: dict, i: int, H: int) -> list[Part]:
    nk, nv = _n(t, "linear_num_key_heads"), _n(t, "linear_num_value_heads")
    dk, dv, kernel = _n(t, "linear_key_head_dim"), _n(t, "linear_value_head_dim"), _n(t, "linear_conv_kernel_dim")
    proj = H * (2 * nk * dk + 2 * nv * dv) + H * 2 * nv + nv * dv * H
    return [Part("linear_attention", proj, None, True, layer=i),
            Part("linear_attention", (2 * nk * dk + nv * dv) * kernel + 2 * nv + dv, None, False, layer=i)]


def _kda(t: dict, i: int, H: int) -> list[Part]:
    """A Kimi delta attention layer (vllm/model_executor/layers/kda.py, v0.11.1-v0.21; the same shapes
    in gdn/kimi_gdn_linear_attn.py later): q, k, v projections (heads × head_dim each), the decay
    gate's low-rank pair f_a (replicated) and f_b, the output gate's g_a (replicated) and g_b, b_proj
    (one value per head) and o_proj, all compressed by the checkpoint's format; three depthwise
    convolutions, dt_bias, A_log and the output norm are not. Kimi-Linear-48B: 39,514,272 per layer."""
    lin = t.get("linear_attn_config") if isinstance(t.get("linear_attn_config"), dict) else {}
    heads, D, K = _n(lin, "num_heads"), _n(lin, "head_dim"), _n(lin, "short_conv_kernel_size", 4)
    P = heads * D
    return [Part("linear_attention", 3 * P * H + heads * H + 2 * P * D + P * H, None, True, layer=i),
            Part("linear_attention", 2 * D * H, 2 * D * H, True, layer=i),
            Part("linear_attention", 3 * P * K + P + heads + D, None, False, layer=i)]


def _lightning(t: dict, i: int, H: int) -> list[Part]:
    """A MiniMax lightning-attention layer (minimax_text_01.py ``MiniMaxText01LinearAttention``): the fused
    q/k/v projection (3 × heads × head_dim), the output gate and out_proj, column/row parallel and
    compressed by the checkpoint's format, and the RMS norm over heads × head_dim. MiniMax-M1:
    251,666,432 per layer."""
    inner = _n(t, "num_attention_heads") * _n(t, "head_dim")
    return [Part("linear_attention", 3 * inner * H + inner * H + inner * H, None, True, layer=i),
            Part("norms", inner, None, False, layer=i)]


def _mamba1(t: dict, i: int, H: int) -> list[Part]:
    """A Jamba Mamba-1 mixer (vllm/model_executor/layers/mamba/mamba_mixer.py ``MambaMixer``), built without
    a quantization config whatever the checkpoint's format: in_proj H → 2I, the depthwise conv (I × d_conv
    and its bias), x_proj I → dt_rank + 2·d_state, dt_proj dt_rank → I with its bias, A and D, out_proj
    I → H, and the dt/B/C RMS norms; I = mamba_expand × H. Jamba-v0.1: 105,308,448 per layer."""
    inner = _n(t, "mamba_expand", 2) * H
    state, kernel = _n(t, "mamba_d_state", 16), _n(t, "mamba_d_conv", 4)
    rank = _n(t, "mamba_dt_rank") or cdiv(H, 16)
    bias = 2 * inner if t.get("mamba_proj_bias") else 0
    conv_bias = inner if t.get("mamba_conv_bias", True) else 0
    return [Part("mamba", 2 * inner * H + bias + (rank + 2 * state) * inner + inner * rank + inner * H +
                 (H if t.get("mamba_proj_bias") else 0), None, False, layer=i),
            Part("mamba", inner * kernel + conv_bias + inner + inner * state + inner, None, False, layer=i),
            Part("norms", rank + 2 * state, rank + 2 * state, False, layer=i)]


def _mamba2(t: dict, i: int, H: int, heads: int, hd: int, state: int, groups: int, kernel: int) -> list[Part]:
    inner = heads * hd
    conv = inner + 2 * groups * state
    return [Part("mamba", H * (2 * inner + 2 * groups * state + heads) + inner * H, None, True, layer=i),
            Part("mamba", conv * kernel + conv + 3 * heads + inner, None, False, layer=i)]


def _falcon_h1_mamba(t: dict, i: int, H: int) -> list[Part]:
    """The Mamba2 mixer every Falcon-H1 layer runs beside its attention (falcon_h1.py
    ``FalconH1SSMDecoderLayer``): ``mamba_d_ssm`` wide (transformers' 1,024 when the key is missing,
    mamba_expand × H when null), in_proj and out_proj compressed by the checkpoint's format, the conv
    filter, A, D and dt_bias not, and the gated norm only with ``mamba_rms_norm``."""
    width = falcon_h1_mixer_width(t)
    inner = width if isinstance(width, int) and not isinstance(width, bool) else 0
    heads, groups, state = _n(t, "mamba_n_heads"), _n(t, "mamba_n_groups", 1), _n(t, "mamba_d_state")
    conv = inner + 2 * groups * state
    proj_bias = bool(t.get("mamba_proj_bias"))
    return [Part("mamba", H * (inner + conv + heads) + inner * H + (inner + conv + heads + H if proj_bias else 0),
                 None, True, layer=i),
            Part("mamba", conv * _n(t, "mamba_d_conv", 4) + (conv if t.get("mamba_conv_bias", True) else 0) +
                 3 * heads + (inner if t.get("mamba_rms_norm") else 0), None, False, layer=i)]


def _zamba2(t: dict, H: int) -> list[Part]:
    """Zamba2's layers (vllm/model_executor/models/zamba2.py): a Mamba2 mixer and its norm in every layer;
    in each hybrid layer its own ``linear`` (H × H, replicated) and MLP adapter (adapter_rank × H, then
    2 × MLP width × adapter_rank), and q/k/v adapters with ``use_shared_attention_adapter``; and
    ``num_mem_blocks`` shared transformer blocks, counted once: norms, q/k/v/o over the 2 × H
    concatenation (multi-head) and the gated MLP."""
    types = t.get("layers_block_type") if isinstance(t.get("layers_block_type"), list) else []
    inner = _n(t, "mamba_expand", 2) * H
    heads = _n(t, "n_mamba_heads", 8) or 1
    F, r = _n(t, "intermediate_size"), _n(t, "adapter_rank", 128)
    parts: list[Part] = []
    first_hybrid = None
    for i, kind in enumerate(types):
        parts += _mamba2(t, i, H, heads, inner // heads, _n(t, "mamba_d_state", 64), _n(t, "mamba_ngroups", 1),
                         _n(t, "mamba_d_conv", 4))
        parts.append(Part("norms", H, H, False, layer=i))
        if kind == "hybrid":
            first_hybrid = i if first_hybrid is None else first_hybrid
            parts.append(Part("attention", H * H, H * H, True, layer=i))
            parts.append(Part("mlp", r * H + 2 * F * r, None, True, layer=i))
            if t.get("use_shared_attention_adapter"):
                parts.append(Part("attention", 3 * (r * 2 * H + 2 * H * r), None, True, layer=i))
    for _ in range(_n(t, "num_mem_blocks", 1) if first_hybrid is not None else 0):
        parts += [Part("norms", 3 * H, 3 * H, False, layer=first_hybrid),
                  Part("attention", 3 * 2 * H * 2 * H + H * 2 * H, None, True, layer=first_hybrid),
                  _mlp(first_hybrid, H, F)]
    return parts


def _short_conv(t: dict, i: int, H: int) -> list[Part]:
    """An LFM2 convolution layer (vllm/model_executor/layers/mamba/short_conv.py ``ShortConv``, built
    at ``dim`` = conv_dim for LFM2 and the hidden size for LFM2-MoE, which the published configs set
    equal): ``in_proj`` dim → 3 × dim and ``out_proj`` dim → dim, split across TP and compressed by
    the checkpoint's format, and the depthwise filter (dim × conv_L_cache), which vLLM builds
    without a quantization config."""
    dim = _n(t, "conv_dim") if t.get("model_type") == "lfm2" else H
    L = _n(t, "conv_L_cache", 3)
    bias = 1 if t.get("conv_bias") else 0
    return [Part("short_conv", 4 * dim * dim + bias * 4 * dim, None, True, layer=i),
            Part("short_conv", dim * L + bias * dim, None, False, layer=i)]


GEMMA4_POSITION_TABLE = 10240
"""Rows of Gemma 4's learned 2-D position table per axis (``position_embedding_size``), so the
31B tower counts 27 × (4·1152² + 3·1152·4304) + 2 × 10,240 × 1,152 + 16²·3·1,152 = 569.6M."""


def _gemma4_vision(cfg: dict, text_hidden: int) -> int:
    """Gemma 4's ViT: gated (GeGLU) MLP blocks, a learned 2-D position table and a patch
    projection, then ``embed_vision`` to the text width (gemma4_mm.py ``Gemma4MultimodalEmbedder``).
    E2B/E4B: 16 × 768 → 169M."""
    h, L = _n(cfg, "hidden_size"), _n(cfg, "num_hidden_layers")
    inter = _n(cfg, "intermediate_size") or 4 * h
    patch = _n(cfg, "patch_size", 16)
    table = _n(cfg, "position_embedding_size", GEMMA4_POSITION_TABLE)
    return L * (4 * h * h + 3 * h * inter + 6 * h) + 2 * table * h + 3 * patch * patch * h + h * text_hidden


def _gemma4_audio(cfg: dict, text_hidden: int) -> int:
    """Gemma 4's USM conformer (E2B/E4B): per block two macaron feed-forwards (2 × 8h²),
    attention with a relative-position key projection (5h²) and a light convolution module
    (GLU in 2h², depthwise, out h²); a 4× subsampling stem, ``output_proj_dims`` and
    ``embed_audio`` to the text width. 12 × 1024 → 304.8M + 3.9M (E4B)."""
    h, L = _n(cfg, "hidden_size"), _n(cfg, "num_hidden_layers")
    kernel = _n(cfg, "conv_kernel_size", 5)
    channels = cfg.get("subsampling_conv_channels")
    c1, c2 = (channels if isinstance(channels, list) and len(channels) == 2
              and all(isinstance(c, int) for c in channels) else (128, 32))
    mel = _n(cfg, "input_feat_size", 128)
    out = _n(cfg, "output_proj_dims") or h
    stem = 9 * c1 + 9 * c1 * c2 + c2 * (mel // 4) * h
    block = 24 * h * h + kernel * h + 10 * h
    return L * block + stem + h * out + out + out * text_hidden


def gemma4_unified_vision(cfg: dict, text_hidden: int, tp: int = 1) -> tuple[int, int]:
    """Gemma 4 12B's encoder-free vision front end (vllm/model_executor/models/gemma4_unified.py), as
    (parameters, what one TP rank holds): ``Gemma4UnifiedVisionEmbedder`` normalises each raw
    ``model_patch_size``² × 3 pixel patch (a LayerNorm with bias), projects it to ``mm_embed_dim``
    (``patch_dense``, a ColumnParallelLinear with bias: split across TP), normalises, adds a learned
    ``mm_posemb_size`` × 2 position table and normalises again; ``embed_vision`` then maps
    ``output_proj_dims`` to the text width without bias (gemma4_mm.py ``Gemma4MultimodalEmbedder``,
    replicated). The 12B: 6,912 → 3,840, a 1,120 × 2 × 3,840 table and 3,840 → 3,840, 49.9M."""
    patch = 3 * _n(cfg, "model_patch_size") ** 2
    mm = _n(cfg, "mm_embed_dim")
    if not (patch and mm):
        return 0, 0
    dense = patch * mm + mm
    rest = 2 * patch + 3 * 2 * mm + 2 * _n(cfg, "mm_posemb_size") * mm + (_n(cfg, "output_proj_dims") or mm) * text_hidden
    return dense + rest, cdiv(dense, tp) + rest


def gemma4_unified_audio(cfg: dict, text_hidden: int) -> int:
    """Gemma 4 12B's encoder-free audio front end: only ``embed_audio``, the waveform frames'
    ``output_proj_dims`` (640) mapped to the text width without bias (gemma4_unified.py builds a
    ``Gemma4MultimodalEmbedder`` and no audio tower), replicated. The 12B: 2.5M."""
    return (_n(cfg, "output_proj_dims") or _n(cfg, "hidden_size")) * text_hidden


QWEN2_VL_MODEL_TYPES = ("qwen2_vl", "qwen2_5_vl")
QWEN3_VL_MODEL_TYPES = ("qwen3_vl", "qwen3_vl_moe")
QWEN_VL_MODEL_TYPES = (*QWEN2_VL_MODEL_TYPES, *QWEN3_VL_MODEL_TYPES, "qwen3_5", "qwen3_5_moe")
"""The Qwen-VL family's ``model_type`` values, whose towers kvcalc sizes (here) and warms up
(reserve.py)."""


def _qwen_vl_tower(cfg: dict, model_type: str, text_hidden: int, tp: int) -> tuple[int, int]:
    """The Qwen-VL vision transformer (vllm/model_executor/models/qwen2_vl.py, qwen2_5_vl.py,
    qwen3_vl.py), as (parameters, what one TP rank holds): a Conv3d patch embedding (channels ×
    temporal patch × patch² × hidden), blocks of QKV + output projection (4h²) and an MLP (2 ×
    h × intermediate; Qwen2.5-VL's is gated, 3 ×), and the patch merger (a norm, 4h → 4h, 4h → the
    language model's width) — Qwen3-VL adds one merger per deepstack layer and a learned position
    table. The blocks' and mergers' linear layers are split across TP (QKVParallelLinear,
    Column/RowParallelLinear); the embeddings, norms and position table are not. Qwen2.5-VL-3B:
    668.8M. Qwen2-VL names its width ``embed_dim`` and its MLP ``mlp_ratio``."""
    qwen2, gated = model_type == "qwen2_vl", model_type == "qwen2_5_vl"
    h = _n(cfg, "embed_dim") if qwen2 else _n(cfg, "hidden_size")
    L = _n(cfg, "depth") or _n(cfg, "num_hidden_layers")
    ratio = cfg.get("mlp_ratio", 4)
    ratio = ratio if isinstance(ratio, (int, float)) and not isinstance(ratio, bool) and 0 < ratio <= 64 else 4
    inter = int(h * ratio) if qwen2 else _n(cfg, "intermediate_size")
    if not (h and L and inter):
        return 0, 0
    out = (_n(cfg, "hidden_size") if qwen2 else _n(cfg, "out_hidden_size")) or text_hidden
    patch = _n(cfg, "patch_size", 14)
    channels = _n(cfg, "in_channels") or _n(cfg, "in_chans") or 3
    embed = channels * (_n(cfg, "temporal_patch_size") or 2) * patch * patch * h + h
    position = 0 if model_type in QWEN2_VL_MODEL_TYPES else _n(cfg, "num_position_embeddings") * h
    block_linear = 4 * h * h + (3 if gated else 2) * h * inter
    block_small = 10 * h + 2 * inter          # biases and the two norms
    deepstack = cfg.get("deepstack_visual_indexes")
    mergers = 1 + (len(deepstack) if isinstance(deepstack, list) else 0)
    merger_linear = 16 * h * h + 4 * h * out
    merger_small = 8 * h + 4 * h + out
    total = L * (block_linear + block_small) + mergers * (merger_linear + merger_small) + embed + position
    per_rank = (L * (cdiv(block_linear, tp) + block_small) + mergers * (cdiv(merger_linear, tp) + merger_small)
                + embed + position)
    return total, per_rank


def _tower_dims(cfg: dict) -> tuple[int, int, int]:
    """(width, blocks, MLP width) of a generic encoder, under the names configs use."""
    h = _n(cfg, "hidden_size") or _n(cfg, "embed_dim") or _n(cfg, "width") or _n(cfg, "d_model")
    L = _n(cfg, "num_hidden_layers") or _n(cfg, "depth") or _n(cfg, "num_layers")
    return h, L, _n(cfg, "intermediate_size") or _n(cfg, "mlp_dim") or 4 * h


def _tower(cfg: Any, text_hidden: int) -> int:
    """A vision/audio encoder, from its dimensions: blocks of attention + MLP, a patch embedding
    and a projection to the language model's width."""
    if not isinstance(cfg, dict):
        return 0
    if cfg.get("model_type") == "gemma4_vision" and _n(cfg, "hidden_size") and _n(cfg, "num_hidden_layers"):
        return _gemma4_vision(cfg, text_hidden)
    if cfg.get("model_type") == "gemma4_audio" and _n(cfg, "hidden_size") and _n(cfg, "num_hidden_layers"):
        return _gemma4_audio(cfg, text_hidden)
    h, L, inter = _tower_dims(cfg)
    if not (h and L):
        return 0
    patch = _n(cfg, "patch_size", 14)
    per_block = 4 * h * h + 2 * h * inter + 9 * h
    out = _n(cfg, "out_hidden_size") or text_hidden
    return L * per_block + 3 * patch * patch * h * 2 + h * out + out * out


TP_SHARDED_TOWERS = ("siglip_vision_model", "llama4_vision_model")
"""Vision towers whose attention and MLP run on vLLM's QKV/Column/RowParallelLinear layers, so
each TP rank holds 1/TP of their blocks (vllm/model_executor/models/siglip.py: Gemma 3's SigLIP;
mllama4.py: Llama 4's, unless --mm-encoder-tp-mode data replicates it). Other generic towers are
counted whole on every GPU (the larger reserve where vLLM's layout is not checked)."""


def _tower_rank(cfg: Any, total: int, tp: int) -> int:
    """What one TP rank holds of a generic tower (``_tower``): its blocks' linear layers split across
    TP for ``TP_SHARDED_TOWERS``, the whole tower otherwise."""
    if tp <= 1 or not isinstance(cfg, dict) or cfg.get("model_type") not in TP_SHARDED_TOWERS:
        return total
    h, L, inter = _tower_dims(cfg)
    blocks = L * (4 * h * h + 2 * h * inter)
    return total - blocks + cdiv(blocks, tp)


def inventory(config: dict[str, Any], tp: int, towers_off: frozenset[str] = frozenset()) -> list[Part]:
    """Every component of the checkpoint, with what one TP rank holds. ``towers_off`` ("vision",
    "audio"): towers that stay in the checkpoint but that no GPU holds."""
    t = text_part(config)
    H = _n(t, "hidden_size")
    L = _n(t, "num_hidden_layers")
    heads = _n(t, "num_attention_heads")
    if not (H and L and heads):
        return []
    mt = str((t.get("model_type") or ""))
    kv = _n(t, "num_key_value_heads", heads) or heads
    hd = (_n(t, "head_dim") if mt != "olmo_hybrid" else 0) or H // heads    # OlmoHybridAttention: hidden / heads
    vocab = _n(t, "vocab_size")
    vocab_padded = padded_vocab(vocab)
    # OPT-350m embeds its words at word_embed_proj_dim and projects them in and out of the hidden
    # size (vllm/model_executor/models/opt.py project_in/project_out, replicated)
    width = (_n(t, "word_embed_proj_dim") or H) if mt == "opt" else H
    parts: list[Part] = [Part("embedding", vocab_padded * width, cdiv(vocab_padded, tp) * width, False,
                              where="first")]
    if not _tied(config, t):
        # MiniMax's lightning models cast the LM head to float32 (minimax_text_01.py ``lm_head.float()``)
        parts.append(Part("lm_head", vocab_padded * width, cdiv(vocab_padded, tp) * width, False, where="last",
                          fp32=mt in LIGHTNING_TYPES))
    if width != H:
        parts += [Part("embedding", width * H, width * H, False, where="first"),
                  Part("lm_head", H * width, H * width, False, where="last")]
    length_key, extra_rows = LEARNED_POSITION_ROWS.get(mt, ("", 0))
    if length_key and _n(t, length_key):
        rows = _n(t, length_key) + extra_rows
        parts.append(Part("embedding", rows * H, rows * H, False, where="first"))
    if _n(t, "vocab_size_per_layer_input") and _n(t, "hidden_size_per_layer_input"):
        hp = _n(t, "hidden_size_per_layer_input")
        n = _n(t, "vocab_size_per_layer_input") * L * hp
        parts.append(Part("embedding", n, n // tp, False, where="first"))
        parts.append(Part("embedding", H * L * hp, None, True, where="first"))
    parts.append(Part("norms", H, H, False, where="last"))
    if mt == "zamba2":
        return parts + _zamba2(t, H)
    inter = _n(t, "intermediate_size")
    pattern = t.get("hybrid_override_pattern") if isinstance(t.get("hybrid_override_pattern"), str) else None
    layer_types = t.get("layer_types") if isinstance(t.get("layer_types"), list) else None
    blocks = t.get("block_configs") if isinstance(t.get("block_configs"), list) else None
    mla = bool(t.get("kv_lora_rank"))
    n_layers = len(pattern) if pattern else L
    shared_kv = _n(t, "num_kv_shared_layers")
    per_layer_input = _n(t, "hidden_size_per_layer_input") if _n(t, "vocab_size_per_layer_input") else 0
    for i in range(n_layers):
        parts.append(Part("norms", 2 * H, 2 * H, False, layer=i))
        if per_layer_input:
            # Gemma 3n/4 per-layer inputs: a replicated gate (H → p) and projection (p → H)
            # in every decoder layer (gemma4.py ``per_layer_input_gate``/``per_layer_projection``).
            parts.append(Part("mlp", 2 * H * per_layer_input, 2 * H * per_layer_input, True, layer=i))
        lt = layer_types[i] if layer_types and i < len(layer_types) else None
        if pattern:
            c = pattern[i]
            if c == "M":
                parts += _mamba2(t, i, H, _n(t, "mamba_num_heads"), _n(t, "mamba_head_dim"),
                                 _n(t, "ssm_state_size"), _n(t, "n_groups", 1), _n(t, "conv_kernel", 4))
            elif c == "*":
                parts += _attention(t, i, tp, "full", heads, kv, _n(t, "head_dim") or hd, H)
            elif c == "-":
                parts.append(_mlp(i, H, inter, _gated(t, "mlp_hidden_act")))
            elif c == "E":
                parts += _experts(t, i, H, tp)
            continue
        if blocks is not None:
            b = blocks[i] if i < len(blocks) and isinstance(blocks[i], dict) else {}
            attn = b.get("attention") or {}
            if not (attn.get("no_op") or attn.get("replace_with_linear")):
                g = attn.get("n_heads_in_group") or 1
                parts += _attention(t, i, tp, "full", heads, max(1, heads // g), hd, H)
            ffn = b.get("ffn") or {}
            mult = ffn.get("ffn_mult")
            if not ffn.get("no_op") and isinstance(mult, (int, float)):
                parts.append(_mlp(i, H, cdiv(int(2 * mult * H / 3), 256) * 256))
            continue
        if lt == "mamba":
            parts += _mamba2(t, i, H, _n(t, "mamba_n_heads"), _n(t, "mamba_d_head"), _n(t, "mamba_d_state"),
                             _n(t, "mamba_n_groups", 1), _n(t, "mamba_d_conv", 4))
        elif lt == "linear_attention" and mt in LIGHTNING_TYPES:
            parts += _lightning(t, i, H)
        elif lt == "linear_attention":
            parts += _gdn(t, i, H)
        elif lt == "conv" and mt in LFM2_TYPES:
            parts += _short_conv(t, i, H)
        elif lt == KDA_LAYER_TYPE and mt == "kimi_linear":
            parts += _kda(t, i, H)
        elif lt == MAMBA1_LAYER_TYPE and mt == "jamba":
            parts += _mamba1(t, i, H)
        elif mla:
            parts += _mla(t, i, H)
        elif mt.startswith("gemma4") and lt == "full_attention":
            gkv = _n(t, "num_global_key_value_heads", kv) if t.get("attention_k_eq_v") else kv
            parts += _attention(t, i, tp, "full", heads, gkv, _n(t, "global_head_dim", hd), H,
                                k_eq_v=bool(t.get("attention_k_eq_v")))
        else:
            parts += _attention(t, i, tp, "full", heads, kv, hd, H,
                                out_gate=output_gate(t))
        if mt == "falcon_h1":
            parts += _falcon_h1_mamba(t, i, H)
        is_moe = _moe_layer(t, i)
        if is_moe:
            parts += _experts(t, i, H, tp)
            if t.get("enable_moe_block") and inter:
                parts.append(_mlp(i, H, inter))
        else:
            dense_inter = _n(t, "intermediate_size_mlp") or inter
            if t.get("use_double_wide_mlp") and shared_kv and i >= L - shared_kv:
                dense_inter *= 2
            if dense_inter:
                parts.append(_mlp(i, H, dense_inter, _gated(t)))
    top = str(config.get("model_type") or "")
    unified = top == GEMMA4_UNIFIED
    if top in QWEN_VL_MODEL_TYPES and isinstance(config.get("vision_config"), dict):
        vision, vision_rank = _qwen_vl_tower(config["vision_config"], top, H, tp)
    elif unified and isinstance(config.get("vision_config"), dict):
        vision, vision_rank = gemma4_unified_vision(config["vision_config"], H, tp)
    else:
        vision = _tower(config.get("vision_config"), H)
        vision_rank = _tower_rank(config.get("vision_config"), vision, tp)
    audio = gemma4_unified_audio(config["audio_config"], H) if unified and isinstance(config.get("audio_config"), dict) \
        else _tower(config.get("audio_config"), H)
    for name, total, rank in (("vision", vision, vision_rank), ("audio", audio, audio)):
        if total:
            # gemma4_unified.py builds its embedders outside ``_mark_tower_model``: loaded whatever the limits
            off = name in towers_off and not unified
            parts.append(Part(name, total, 0 if off else rank, False, where="first"))
    return parts


PLAIN_LAYER_TYPES = (None, "full_attention", "sliding_attention")


def big_tensors(config: dict[str, Any], tp: int) -> list[tuple[str, int | None, int, str]]:
    """The large tensors one TP rank allocates one at a time while vLLM builds a plain decoder,
    as (where, layer, elements, kind): the vocabulary-parallel embedding and LM head, and in each layer
    the fused QKV projection (KV heads replicated when fewer than TP), the output projection, and
    a dense MLP's fused gate/up and down projections (vllm/model_executor/layers/linear.py); kind is
    "embedding", "lm_head", "attention" or "mlp", which decides whether a weight format packs it. What
    the allocator rounds (``weights.allocator_rounding_bytes``) depends on these sizes one by one.
    Layers of other kinds (MLA, linear attention, Mamba, MoE experts, towers, Gemma 4's global
    layers) are left out: their tensors are reshaped after loading or too varied to list."""
    t = text_part(config)
    H, L, heads = _n(t, "hidden_size"), _n(t, "num_hidden_layers"), _n(t, "num_attention_heads")
    if not (H and L and heads):
        return []
    vocab_rank = cdiv(padded_vocab(_n(t, "vocab_size")), tp) * H
    out: list[tuple[str, int | None, int, str]] = [("first", None, vocab_rank, "embedding")]
    if not _tied(config, t):
        out.append(("last", None, vocab_rank, "lm_head"))
    mt = str(t.get("model_type") or "")
    layer_types = t.get("layer_types") if isinstance(t.get("layer_types"), list) else None
    if t.get("kv_lora_rank") or isinstance(t.get("hybrid_override_pattern"), str) or \
            isinstance(t.get("block_configs"), list) or mt.startswith("gemma4") or mt in LFM2_TYPES or \
            mt == "falcon_h1" or \
            (layer_types and any(x not in PLAIN_LAYER_TYPES for x in layer_types)):
        return out
    kv = _n(t, "num_key_value_heads", heads) or heads
    hd = _n(t, "head_dim") or H // heads
    q_rank = cdiv(heads, tp) * hd * (2 if output_gate(t) else 1)
    inter = _n(t, "intermediate_size_mlp") or _n(t, "intermediate_size")
    gated = _gated(t)
    for i in range(L):
        out.append(("layer", i, (q_rank + 2 * kv_heads_per_gpu(kv, tp) * hd) * H, "attention"))
        out.append(("layer", i, cdiv(heads, tp) * hd * H, "attention"))
        if inter and not _moe_layer(t, i):
            out.append(("layer", i, (2 if gated else 1) * cdiv(inter, tp) * H, "mlp"))
            out.append(("layer", i, cdiv(inter, tp) * H, "mlp"))
    return out


def mtp_parts(config: dict[str, Any], tp: int, n: int) -> list[Part]:
    """The ``n`` draft layers an MTP checkpoint adds (DeepSeek ``num_nextn_predict_layers``: each
    one decoder layer plus ``eh_proj`` 2H × H and norms), placed on the last stage. ``n`` comes
    from ``read_model``, which validates and caps it; the raw config value is never a loop bound."""
    t = text_part(config)
    if n <= 0:
        return []
    H = _n(t, "hidden_size")
    L = _n(t, "num_hidden_layers")
    full = inventory(config, tp)
    one = [p for p in full if p.layer == L - 1]
    # DeepSeek-style MTP modules carry their own embedding and LM head (deepseek_mtp.py).
    heads = [p for p in full if p.name in ("embedding", "lm_head") and p.where in ("first", "last")][:2] \
        if t.get("kv_lora_rank") else []
    out = []
    for _ in range(n):
        out += [Part("mtp", p.params, p.per_rank, p.quantizable, p.expert, None, "last") for p in one]
        out += [Part("mtp", p.params, p.per_rank, False, False, None, "last") for p in heads]
        out.append(Part("mtp", 2 * H * H + 3 * H, None, True, where="last"))
    return out


EAGLE3_AUX_STATES = 3
"""Hidden states of the target an EAGLE-3 head reads when its config names none
(vllm/model_executor/models/llama_eagle3.py ``num_aux_hidden_states``)."""


def drafter_parts(draft: dict[str, Any], target: dict[str, Any], tp: int, method: str) -> tuple[list[Part], int]:
    """What a speculative drafter adds to one GPU beside the target's weights (vLLM puts it on the
    last stage), and the parameters one rank holds of the embedding it may keep on top of them.

    - "eagle3" (llama_eagle3.py, qwen3_eagle3.py): its decoder layers, the first of which reads the
      token's embedding and the hidden state side by side (a QKV input of 2 × hidden), an extra
      norm, ``fc`` from the target's aux hidden states (3 × target hidden → hidden, replicated on
      every GPU) and its own LM head over ``draft_vocab_size``. The embedding is the target's:
      vllm/v1/worker/gpu/spec_decode/eagle/utils.py ``load_eagle_model`` shares it when the
      checkpoint carries none or the same one, so it is the second value.
    - "eagle" (llama_eagle.py): its layers and ``fc`` (2 × hidden → hidden); embedding and LM head
      are the target's.
    - "draft_model": the whole draft model, embedding and LM head included.
    ``draft`` is the drafter's config as vLLM reads it (``hf_config.speculators_view``)."""
    full = inventory(draft, tp)
    if not full:
        return [], 0
    if method == "draft_model":
        return [Part("draft", p.params, p.per_rank, p.quantizable, p.expert, None, "last") for p in full], 0
    t = text_part(draft)
    H = _n(t, "hidden_size")
    heads = _n(t, "num_attention_heads")
    kv = _n(t, "num_key_value_heads", heads) or heads
    hd = _n(t, "head_dim") or H // heads
    embedding = [p for p in full if p.name == "embedding" and p.where == "first"][:1]
    body = [Part("draft", p.params, p.per_rank, p.quantizable, p.expert, None, "last")
            for p in full if p.name not in ("embedding", "lm_head")]
    own_embedding = embedding[0].per_rank if embedding else 0
    if method == "eagle":
        return body + [Part("draft", 2 * H * H, 2 * H * H, True, where="last")], own_embedding
    eagle = t.get("eagle_config") if isinstance(t.get("eagle_config"), dict) else {}
    aux = eagle.get("eagle_aux_hidden_state_layer_ids") or t.get("eagle_aux_hidden_state_layer_ids")
    n_aux = _n(t, "num_aux_hidden_states") or (len(aux) if isinstance(aux, list) and aux else EAGLE3_AUX_STATES)
    target_h = _n(t, "target_hidden_size") or _n(text_part(target), "hidden_size") or H
    draft_vocab = _n(t, "draft_vocab_size") or _n(t, "vocab_size")
    vocab_padded = padded_vocab(draft_vocab)
    extra = [
        Part("draft", H * heads * hd, None, True, where="last"),            # q over the 2H input
        Part("draft", 2 * kv * H * hd, 2 * kv_heads_per_gpu(kv, tp) * H * hd, True, where="last"),  # k, v
        Part("draft", H, H, False, where="last"),                           # hidden_norm
        Part("draft", n_aux * target_h * H, n_aux * target_h * H, True, where="last"),   # fc
        Part("draft", vocab_padded * H, cdiv(vocab_padded, tp) * H, False, where="last"),  # LM head
    ]
    return body + extra, own_embedding
