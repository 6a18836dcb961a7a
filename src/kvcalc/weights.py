"""Weights one GPU loads ("Model loading took X GiB"), from the parameter inventory.

Bytes per parameter follow the checkpoint's format as vLLM stores it: bf16/fp16 2 B; fp8
1 B (+ fp32 block scales); int4 AWQ/GPTQ 0.5 B + fp16 scales and packed zeros per group;
MXFP4 0.5 B + one e8m0 scale per 32, with expert tensors padded to kernel tiles (see
``mxfp4_expert_padding``); NVFP4 0.5 B + one fp8 scale per 16. Layers every format
leaves alone (embeddings, LM head, norms, routers; MXFP4 quantizes only the experts) stay in
the model dtype. When the checkpoint's exact size is known, the modelled split between
components is kept and scaled to it. vLLM also keeps the rotary cos/sin cache
(max_position × rotary_dim in the model dtype) with the weights, and "Model loading took" counts
the blocks PyTorch's caching allocator hands out, rounded up (``cached_block_bytes``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from typing import Any

from .config_aliases import GEMMA4_WRAPPER_TYPES, model_type_of, modelopt_algo, quantization_config
from .deepseek_v4_weights import deepseek_v4_weights
from .kvspecs import parse_capability
from .errors import SettingsError
from .hf_config import CLASS_MAX_POSITIONS, YARN_ROPE_TYPES, mrope_position_dims
from .messages import Text, join_texts
from .params import LIGHTNING_TYPES, Part, big_tensors, drafter_parts, expert_count, inventory, mtp_parts, text_part
from .units import GIB, MIB, cdiv
from .versions import NEWEST, Rule, Version, applies

WEIGHT_FORMATS: tuple[str, ...] = ("auto", "bf16", "fp16", "fp8", "int8", "awq", "gptq", "int4",
                                   "mxfp4", "nvfp4")
VLLM_QUANTIZATION_FORMATS = {"fp8": "fp8", "awq": "awq", "awq_marlin": "awq", "gptq": "gptq",
                             "gptq_marlin": "gptq", "mxfp4": "mxfp4", "modelopt_fp4": "nvfp4",
                             "fbgemm_fp8": "fp8", "ptpc_fp8": "fp8"}
"""vLLM's ``--quantization`` values kvcalc can price, and the weight format it prices each as (a
checkpoint whose config declares its quantization needs none: "auto" reads it)."""


@dataclass(frozen=True)
class Format:
    name: str
    bytes_per_param: float     # for quantized linear layers
    experts_only: bool = False
    expert_bytes_per_param: float | None = None   # mixed precision: routed experts differ
    lm_head_bytes_per_param: float | None = None   # a checkpoint that quantizes its LM head too
    unquantized_parts: frozenset[str] = frozenset()  # params.Part names the ignore list keeps 16-bit


NVFP4_BYTES = 0.5 + 1 / 16
"""NVFP4 (and modelopt W4A16_NVFP4): packed 4-bit values + one fp8 scale per 16."""
MXFP4_BYTES = 0.5 + 1 / 32
"""MXFP4: packed 4-bit values + one e8m0 scale per 32."""


def _modelopt_bytes(algo: str) -> float:
    """Bytes per parameter of a modelopt algorithm as vLLM loads it
    (vllm/model_executor/layers/quantization/modelopt.py): the FP4 ones as NVFP4, else FP8 (1 B,
    per-tensor scale)."""
    return NVFP4_BYTES if "FP4" in algo.upper() else 1.0


def _modelopt_mixed(q: dict[str, Any]) -> Format:
    """modelopt ``MIXED_PRECISION``: ``quantized_layers`` gives each layer its algorithm
    (Qwen3.6-35B-A3B-NVFP4: experts W4A16_NVFP4, attention and GDN projections FP8). Routed
    experts take the algorithm of the ``*.experts`` entries; other linear layers the commonest
    of the rest; the LM head its own entry when it has one (else it stays in the model dtype)."""
    layers = q.get("quantized_layers")
    layers = layers if isinstance(layers, dict) else {}
    algos = [(str(name), str(v.get("quant_algo") or "")) for name, v in layers.items() if isinstance(v, dict)]
    expert = [a for n, a in algos if n.endswith(".experts") or ".experts." in n]
    other = [a for n, a in algos if not (n.endswith(".experts") or ".experts." in n)]
    common = max(set(other), key=other.count) if other else "FP8"
    expert_algo = max(set(expert), key=expert.count) if expert else common
    head = dict(algos).get("lm_head")
    return Format("mixed (modelopt)", _modelopt_bytes(common),
                  expert_bytes_per_param=_modelopt_bytes(expert_algo),
                  lm_head_bytes_per_param=_modelopt_bytes(head) if head else None)


def _int4(group: int) -> float:
    return 0.5 + 2.5 / max(1, group)        # packed 4-bit + fp16 scale + packed zero per group


def checkpoint_format(config: dict[str, Any]) -> Format | None:
    """The weight format a config's ``quantization_config`` declares (None: unquantized)."""
    q = quantization_config(config)
    if q is None:
        return None
    method = str(q.get("quant_method", "")).lower()
    if method in ("awq", "awq_marlin", "gptq", "gptq_marlin"):
        bits = q.get("bits") or q.get("w_bit") or 4
        group = q.get("group_size") or q.get("q_group_size") or 128
        group = group if isinstance(group, int) and group > 0 else 128
        per = bits / 8 + (2 + bits / 8) / group
        return Format(method.split("_")[0], per)
    if method in ("fp8", "fbgemm_fp8", "ptpc_fp8"):
        return Format("fp8", 1.0 + 4 / (128 * 128))
    if method == "mxfp4":
        return Format("mxfp4", MXFP4_BYTES, experts_only=True)
    if method.startswith("modelopt"):
        algo = modelopt_algo(q)
        ignore = q.get("ignore") or q.get("exclude_modules") or []
        mtp_off = isinstance(ignore, list) and any(str(x).startswith("mtp") for x in ignore)
        kept = frozenset({"mtp"}) if mtp_off else frozenset()
        if algo == "MIXED_PRECISION":
            return replace(_modelopt_mixed(q), unquantized_parts=kept)
        return Format("nvfp4" if "FP4" in algo else "fp8", _modelopt_bytes(algo), unquantized_parts=kept)
    if method == "bitsandbytes":
        return Format("bitsandbytes", 0.5 + 0.04 if q.get("load_in_4bit", True) else 1.0)
    if method == "compressed-tensors":
        groups = q.get("config_groups") or {}
        weights = next((g.get("weights") for g in groups.values() if isinstance(g, dict)
                        and isinstance(g.get("weights"), dict)), None) or {}
        bits = weights.get("num_bits", 8)
        kind = weights.get("type", "int")
        group = weights.get("group_size") or 128
        kept = compressed_tensors_kept_parts(q.get("ignore") or [])
        if bits == 4 and kind == "float":
            return Format("nvfp4", NVFP4_BYTES, unquantized_parts=kept)
        if bits == 4:
            return Format("int4", 0.5 + 2 / group, unquantized_parts=kept)
        return Format("fp8" if kind == "float" else "int8", 1.0, unquantized_parts=kept)
    return None


def unpriced_quant_method(config: dict[str, Any]) -> str | None:
    """The quant_method a config declares whose format ``checkpoint_format`` does not price (w4afp8, fp_quant,
    gguf, hqq …): its weights are then counted at 16 bits, which only the checkpoint's size corrects."""
    q = quantization_config(config)
    if q is None or checkpoint_format(config) is not None:
        return None
    method = q.get("quant_method")
    return str(method)[:40] if method else None


def compressed_tensors_kept_parts(ignore: list[Any]) -> frozenset[str]:
    """The parts (params.Part names) a compressed-tensors ``ignore`` list leaves in 16 bits: the
    attention when any entry names it ("self_attn" / "attn"), and for every layer a ``re:`` pattern
    that names the shared experts ("shared_experts" / "shared_expert", not the one-column
    "shared_expert_gate") or the dense MLP's
    projections ("mlp\\.(gate|up|gate_up|down)_proj", which does not reach
    "mlp.experts.N.gate_proj", nor the router "mlp.gate"). Module names of single layers are left
    alone: they keep one layer, not all. Kimi-K2-Thinking's INT4 checkpoint ignores both patterns,
    besides attention and the LM head: counted as INT4 they made its total about 0.7% (4.4 GB) low."""
    joined = " ".join(str(x) for x in ignore)
    kept = {"attention"} if "attn" in joined else set()
    for x in ignore:
        x = str(x)
        if not x.startswith("re:"):
            continue
        if re.search(r"shared_experts?(?!_gate)", x):
            kept.add("shared_expert")
        if re.search(r"mlp\\?\.\(?(gate|up|down)(_proj|\|)", x):
            kept.add("mlp")
    return frozenset(kept)


def checked_format_name(weight_format: Any) -> str:
    """The weight format's name in lower case, or a SettingsError naming the known ones."""
    name = (weight_format or "auto").lower() if isinstance(weight_format, str) else weight_format
    if name not in WEIGHT_FORMATS:
        raise SettingsError({"weights": Text("settings.weights_format", value=repr(str(weight_format)[:40]),
                                             allowed=", ".join(WEIGHT_FORMATS))})
    return name


def format_for(name: str, config: dict[str, Any]) -> Format | None:
    """The format to size: the checkpoint's ("auto") or the user's choice."""
    name = checked_format_name(name)
    if name == "auto":
        return checkpoint_format(config)
    if name in ("bf16", "fp16"):
        return None
    return {"fp8": Format("fp8", 1.0), "int8": Format("int8", 1.0), "awq": Format("awq", _int4(128)),
            "gptq": Format("gptq", _int4(128)), "int4": Format("int4", _int4(128)),
            "mxfp4": Format("mxfp4", MXFP4_BYTES, experts_only=True),
            "nvfp4": Format("nvfp4", NVFP4_BYTES)}[name]


def _part_bytes(p: Part, fmt: Format | None, dtype_bytes: int, tp: int,
                expert_pad: float = 1.0) -> tuple[float, float]:
    """(bytes in the checkpoint, bytes on one TP rank) for one part."""
    per_rank = p.per_rank if p.per_rank is not None else cdiv(p.params, tp)
    quantized = fmt is not None and p.quantizable and (p.expert or not fmt.experts_only) and \
        p.name not in fmt.unquantized_parts
    b = dtype_bytes
    if quantized:
        b = fmt.expert_bytes_per_param if p.expert and fmt.expert_bytes_per_param else fmt.bytes_per_param
    elif fmt is not None and fmt.lm_head_bytes_per_param and p.name == "lm_head":
        b = fmt.lm_head_bytes_per_param
    if p.fp32:
        return p.params * b, per_rank * 4      # vLLM holds it in float32 (params.Part.fp32)
    return p.params * b, per_rank * b * (expert_pad if p.expert else 1.0)


MXFP4_ALIGN_TRITON, MXFP4_ALIGN_MARLIN, MXFP4_ALIGN_TRTLLM = 64, 128, 256
"""What each GPU's share of the MXFP4 expert intermediate size is rounded up to, by the kernels
that run the experts (``mxfp4_round_up_hidden_size_and_intermediate_size``, fused_moe/oracle/mxfp4.py;
quantization/mxfp4.py before v0.19): the Triton kernels 64, Marlin 128, FlashInfer's TRT-LLM
kernels (data-centre Blackwell) 256."""


def mxfp4_expert_align(version: Version, platform: str, capability: str, marlin: bool | None) -> int:
    """The expert alignment (``MXFP4_ALIGN_*``) of the kernels vLLM runs MXFP4 experts on. CUDA:
    Marlin below compute capability 9.0 (its only kernel) and from 11.0 on from v0.12
    (Rule.MXFP4_MARLIN_FROM_SM110: Thor, GB10, RTX 50xx and RTX PRO Blackwell; Thor took the Triton kernels
    in v0.32-v0.33, Rule.MXFP4_TRITON_ON_SM110, Rule.MXFP4_MARLIN_FIRST_ON_SM110); FlashInfer's TRT-LLM
    kernels on B200 (10.0) from v0.12, where flashinfer became a dependency, and on the whole 10.x
    family (B300) from v0.19 (Rule.MXFP4_TRTLLM_ON_SM100, Rule.MXFP4_TRTLLM_ON_SM10X); the Triton
    kernels otherwise. ``marlin`` True: Marlin asked for (VLLM_MXFP4_USE_MARLIN=1, --moe-backend marlin
    from v0.24) or what the log shows ('Using Marlin backend': a v0.10-v0.11 install without the
    optional triton_kernels package takes it on Hopper too); False: the log names a native kernel
    (the release's native one is assumed); None: the release's choice. Other platforms keep
    Marlin's alignment (ROCm's AITER pads to 256; no public log to check it against)."""
    if platform != "cuda" or marlin is True:
        return MXFP4_ALIGN_MARLIN
    cc = parse_capability(capability)
    if cc is None or cc < (9, 0):
        return MXFP4_ALIGN_MARLIN
    if cc[0] == 10 and (applies(Rule.MXFP4_TRTLLM_ON_SM10X, version)
                        or (cc == (10, 0) and applies(Rule.MXFP4_TRTLLM_ON_SM100, version))):
        return MXFP4_ALIGN_TRTLLM
    if marlin is False or cc < (11, 0) or not applies(Rule.MXFP4_MARLIN_FROM_SM110, version):
        return MXFP4_ALIGN_TRITON
    if cc[0] == 11 and applies(Rule.MXFP4_TRITON_ON_SM110, version) and \
            not applies(Rule.MXFP4_MARLIN_FIRST_ON_SM110, version):
        return MXFP4_ALIGN_TRITON       # Thor: the Triton kernels, first in the order, in v0.32-v0.33
    return MXFP4_ALIGN_MARLIN


def mxfp4_expert_padding(config: dict[str, Any], tp: int, align: int = MXFP4_ALIGN_TRITON) -> float:
    """How much larger MXFP4 expert tensors get in memory: vLLM rounds the hidden size up to a
    multiple of 256 and each GPU's share of the expert intermediate size to ``align``
    (``mxfp4_expert_align``). gpt-oss: 2,880 -> 3,072 hidden, +6.7%."""
    t = text_part(config)
    hidden = t.get("hidden_size")
    inter = t.get("intermediate_size")
    if not (isinstance(hidden, int) and isinstance(inter, int) and hidden > 0 and inter > 0):
        return 1.0
    per_gpu = cdiv(inter, tp)
    return (cdiv(hidden, 256) * 256 * cdiv(per_gpu, align) * align) / (hidden * per_gpu)


def _rope_dims(t: dict[str, Any], dim: int) -> list[int]:
    """The rotary dim of each distinct rotary embedding: ``get_rope`` caches one per parameter
    set, and models that give sliding and full layers their own RoPE hold two (gemma3.py,
    gemma4.py). Gemma 4's full layers rotate ``global_head_dim`` whole: its proportional RoPE pads
    the unrotated part instead of narrowing the cache (rotary_embedding/gemma4_rope.py). Gemma 3
    always holds two: transformers fills in its local base (10,000) and its sliding/full layer
    pattern where config.json leaves them out (Gemma3TextConfig), and gemma3.py builds the sliding
    layers' RoPE from that base."""
    if t.get("model_type") == "gemma3_text":
        return [dim, dim]
    types = t.get("layer_types")
    if not (isinstance(types, list) and "sliding_attention" in types and "full_attention" in types):
        return [dim]
    params = t.get("rope_parameters")
    if isinstance(params, dict) and "full_attention" in params and "sliding_attention" in params:
        full = t.get("global_head_dim") if str(t.get("model_type", "")).startswith("gemma4") else None
        return [dim, full if isinstance(full, int) and full > 0 else dim]
    return [dim, dim] if t.get("rope_local_base_freq") else [dim]


def _partial_rotary_factor(t: dict[str, Any]) -> float:
    """The share of the head dim the RoPE rotates: ``partial_rotary_factor`` at the top of the text config,
    or, in transformers v5's layout, inside ``rope_parameters`` (Qwen3.5/3.6: 0.25 of 256); 1.0 where
    neither gives a fraction in (0, 1]."""
    rope = t.get("rope_parameters")
    for value in (t.get("partial_rotary_factor"), rope.get("partial_rotary_factor") if isinstance(rope, dict) else None):
        if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value <= 1:
            return float(value)
    return 1.0


def _full_ropes(t: dict[str, Any]) -> list[dict[str, Any]]:
    """The RoPE parameters of the full-attention layers, under either key (``rope_scaling``, or
    transformers v5's ``rope_parameters``, whose per-layer-type form keeps them under ``full_attention``)."""
    ropes = []
    for key in ("rope_scaling", "rope_parameters"):
        rope = t.get(key)
        if isinstance(rope, dict) and isinstance(rope.get("full_attention"), dict):
            rope = rope["full_attention"]
        if isinstance(rope, dict):
            ropes.append(rope)
    return ropes


def _scaled_rope(t: dict[str, Any], kinds: tuple[str, ...]) -> tuple[dict[str, Any], float] | None:
    """(the full layers' RoPE parameters, their factor) where their type is one of ``kinds`` with a
    factor of 1 to 1,024; None otherwise."""
    for rope in _full_ropes(t):
        factor = rope.get("factor")
        if rope.get("rope_type", rope.get("type")) in kinds and isinstance(factor, (int, float)) \
                and not isinstance(factor, bool) and 1 <= factor <= 1024:
            return rope, float(factor)
    return None


def _linear_rope_factor(t: dict[str, Any]) -> float:
    """The factor of a linear-scaled RoPE (the full-attention layers' where the config gives one per
    layer type), 1.0 for any other type. vLLM's LinearScalingRotaryEmbedding builds its cos/sin cache
    over max_position_embeddings × factor positions (rotary_embedding/linear_scaling_rope.py: "the
    maximum length after applying the rope scaling"), whatever max_model_len the model derives."""
    linear = _scaled_rope(t, ("linear",))
    return linear[1] if linear else 1.0


def _yarn_positions(t: dict[str, Any]) -> int | None:
    """The positions a YaRN RoPE caches: ``original_max_position_embeddings`` × its factor, as vLLM's
    YaRN and DeepSeek scaling classes build them (rotary_embedding/yarn_scaling_rope.py,
    deepseek_scaling_rope.py ``_compute_cos_sin_cache``), whatever length the model derives (from v0.30
    the config's own max_position_embeddings, Rule.YARN_LENGTH_AS_GIVEN). Qwen3 with a YaRN factor of 4
    over 32,768: 131,072 rows, where its 40,960 would give a third of them. None for other RoPEs."""
    yarn = _scaled_rope(t, YARN_ROPE_TYPES)
    if yarn is None:
        return None
    original = yarn[0].get("original_max_position_embeddings")
    if isinstance(original, int) and not isinstance(original, bool) and original > 0:
        return math.ceil(original * yarn[1])
    return None


MROPE_CACHE_FACTOR = 4
"""How many times max_position_embeddings vLLM's M-RoPE cache covers (rotary_embedding/mrope.py
MRotaryEmbedding: "we enlarge max_position_embeddings to 4 times" for the positions of long videos)."""
QWEN3_VL_MROPE_TYPES = frozenset({"qwen3_vl", "qwen3_vl_text", "qwen3_vl_moe", "qwen3_vl_moe_text", "qwen3_5",
                                  "qwen3_5_text", "qwen3_5_moe", "qwen3_5_moe_text"})
"""The models whose M-RoPE cache covers max_position_embeddings once from v0.32
(Rule.QWEN3_VL_MROPE_CACHE_UNSCALED): Qwen3-VL and Qwen3.5/3.6, dense and MoE."""


def mrope_cache_factor(config: dict[str, Any], version: Version) -> int:
    """How many times max_position_embeddings the RoPE cache covers: ``MROPE_CACHE_FACTOR`` for a model
    whose RoPE has an ``mrope_section`` (hf_config.mrope_position_dims), except from v0.32 for
    ``QWEN3_VL_MROPE_TYPES`` (whose video pruning, off by default, kvcalc does not model); 1 for every
    other RoPE, HunYuan's XD-RoPE and openPangu's interleaved M-RoPE included (they are classes of their
    own). Qwen3-VL-30B-A3B before v0.32: 4 × 262,144 × 128 × 2 B = 256 MiB where one length gives 64."""
    if not mrope_position_dims(config) or _single_length_position_rope(config):
        return 1
    if model_type_of(text_part(config)) in QWEN3_VL_MROPE_TYPES and applies(Rule.QWEN3_VL_MROPE_CACHE_UNSCALED, version):
        return 1
    return MROPE_CACHE_FACTOR


def _single_length_position_rope(config: dict[str, Any]) -> bool:
    """Whether the RoPE is one vLLM builds as its own class over a single length: HunYuan's XD-RoPE
    (``xdrope_section``) or openPangu's interleaved M-RoPE (MRotaryEmbeddingInterleaved)."""
    for d in (config, config.get("text_config")):
        if isinstance(d, dict):
            for key in ("rope_scaling", "rope_parameters"):
                rope = d.get(key)
                entries = [rope, *(v for v in rope.values() if isinstance(v, dict))] if isinstance(rope, dict) else []
                if any("xdrope_section" in e or e.get("rope_type", e.get("type")) == "openpangu" for e in entries):
                    return True
    return False


ROPE_NOTED_BYTES = 64 * MIB
"""RoPE caches from this size on are named in the weights' basis (Gemma 3 and 4, MiniMax, M-RoPE models); the 8 to
32 MiB of most models' single cache stay in the figure without a line of their own."""


def rope_cache_bytes(config: dict[str, Any], max_len: int | None, dtype_bytes: int,
                     version: Version | None = None) -> int:
    """The rotary cos/sin caches: max positions × rotary dim in the model dtype, on every GPU
    (rotary_embedding/base.py). Llama-3.1: 131,072 × 128 × 2 B = 32 MiB; Gemma 4 E4B: 131,072 ×
    (256 + 512) × 2 B = 192 MiB; a linear-scaled RoPE covers its factor times more positions
    (``_linear_rope_factor``): Gemma-3-4B (1,048,576 + 131,072) × 256 × 2 B = 576 MiB, which public
    logs load beyond the parameters (MI300X v0.23: 8.58 GiB against 8.08 without it; Gemma-3-27B on a
    GB10, v0.22: 51.54 against 51.33)."""
    t = text_part(config)
    heads = t.get("num_attention_heads") or 0
    hidden = t.get("hidden_size") or 0
    if not (isinstance(heads, int) and isinstance(hidden, int) and heads > 0 and max_len):
        return 0
    if t.get("mla_use_nope") is True:
        return 0    # Kimi Linear's MLA rotates nothing (kimi_linear.py ``rotary_emb=None``)
    if t.get("model_type") in LIGHTNING_TYPES and isinstance(t.get("rotary_dim"), int):
        # MiniMax: rotary_dim of float32 per position (minimax_text_01.py get_rope(dtype=torch.float32)):
        # 10,240,000 × 64 × 4 B = 2.44 GiB on MiniMax-M1
        return max_len * t["rotary_dim"] * 4
    if t.get("qk_rope_head_dim"):
        dim = t["qk_rope_head_dim"]
    else:
        hd = t.get("head_dim") if isinstance(t.get("head_dim"), int) else hidden // heads
        dim = int(hd * _partial_rotary_factor(t))
    dims = _rope_dims(t, dim)
    factor = _linear_rope_factor(t)
    if factor == 1.0:
        positions = _yarn_positions(t) or max_len
        return positions * mrope_cache_factor(config, version or NEWEST) * sum(dims) * dtype_bytes
    # the full layers' RoPE (the first) is linear-scaled over the config's positions (or the class
    # default, Gemma3TextConfig's 131,072) × the factor; a sliding layers' RoPE keeps the plain length
    positions = t.get("max_position_embeddings")
    if not (isinstance(positions, int) and positions > 0):
        positions = CLASS_MAX_POSITIONS.get(str(t.get("model_type")), max_len)
    return (int(positions * factor) * dims[0] + positions * sum(dims[1:])) * dtype_bytes


def per_layer_input_buffer_bytes(config: dict[str, Any], mnbt: int, dtype_bytes: int) -> int:
    """Gemma 4's multimodal wrapper pre-allocates its per-layer embeddings for CUDA graphs while
    the model loads: max_num_batched_tokens × layers × ``hidden_size_per_layer_input`` in the
    model dtype (gemma4_mm.py ``self.per_layer_embeddings``, since #38826, v0.19; gemma4_unified.py the
    same where a config turns per-layer inputs on, which the 12B does not). E4B at 2,048
    tokens: 2,048 × 42 × 256 × 2 B = 42 MiB."""
    t = config.get("text_config")
    if config.get("model_type") not in GEMMA4_WRAPPER_TYPES or not isinstance(t, dict):
        return 0
    layers, per_layer = t.get("num_hidden_layers"), t.get("hidden_size_per_layer_input")
    if not (isinstance(layers, int) and isinstance(per_layer, int) and layers > 0 and per_layer > 0):
        return 0
    return mnbt * layers * per_layer * dtype_bytes


def deepstack_buffer_bytes(config: dict[str, Any], mnbt: int, dtype_bytes: int,
                           towers_off: frozenset[str] = frozenset()) -> int:
    """Qwen3-VL (and the Qwen models built on it) pre-allocates one max_num_batched_tokens ×
    hidden-size buffer per deepstack level while the model loads, where its vision tower is built
    (vllm/model_executor/models/qwen3_vl.py ``self.deepstack_input_embeds``; none when the tower is
    not, ``use_deepstack``), in the model dtype. Qwen3-VL-30B-A3B at 8,192 tokens: 3 × 8,192 ×
    2,048 × 2 B = 96 MiB, about a third of what its public starts load beyond the parameters."""
    vision = config.get("vision_config")
    hidden = text_part(config).get("hidden_size")
    if "vision" in towers_off or not isinstance(vision, dict) or not isinstance(hidden, int):
        return 0
    levels = vision.get("deepstack_visual_indexes")
    if not isinstance(levels, list) or not levels:
        return 0
    return len(levels) * mnbt * hidden * dtype_bytes


LOAD_MAX_SPLIT_BYTES = 20 * MIB
"""The ``max_split_size_mb`` vLLM sets around model loading on CUDA from v0.21
(Rule.LOAD_MAX_SPLIT_20MIB; gpu_worker.py ``_scoped_allocator_max_split``)."""


def cached_block_bytes(n: int, max_split: int | None = None) -> int:
    """What torch's CUDA caching allocator counts as allocated (``torch.cuda.memory_allocated``,
    which "Model loading took" measures) for one tensor of ``n`` bytes made on its own
    (c10/cuda/CUDACachingAllocator.cpp ``round_size``, ``get_allocation_size``, ``should_split``).
    Sizes round up to 512 B. Up to 1 MiB they come from shared 2 MiB segments and below 10 MiB from
    shared 20 MiB ones, so they cost their own size. A larger tensor gets a new segment rounded up
    to 2 MiB and keeps all of it unless the allocator splits the rest off, which it does only when
    the rest exceeds 1 MiB and the tensor is smaller than ``max_split`` (None: no limit, torch's
    default). Qwen2.5-7B: the 259 MiB gate/up projection keeps its 260 MiB segment everywhere; the
    24.5 MiB output projection keeps 26 MiB only under vLLM's 20 MiB load-time limit."""
    size = max(512, cdiv(n, 512) * 512)
    if size < 10 * MIB:
        return size
    segment = cdiv(size, 2 * MIB) * 2 * MIB
    splits = segment - size > MIB and (max_split is None or size < max_split)
    return size if splits else segment


PACKED_BYTES_PER_PARAM = {"awq": 0.5, "gptq": 0.5, "int4": 0.5, "nvfp4": 0.5, "int8": 1.0, "fp8": 1.0}
"""Bytes per parameter of the packed weight tensor a format keeps for each linear layer (its scales
and zero points are separate tensors, under 10 MiB in the layers listed, which the allocator does
not round). Formats not listed (bitsandbytes, modelopt mixed precision) are not rounded."""


def _packed_bytes(kind: str, fmt: Format | None, dtype_bytes: int) -> float | None:
    """Bytes per parameter of one big tensor as it sits in GPU memory, None where not modelled."""
    if fmt is None or kind == "embedding":
        return dtype_bytes
    if kind == "lm_head":
        return None if fmt.lm_head_bytes_per_param else dtype_bytes
    if fmt.experts_only or (kind == "attention" and "attention" in fmt.unquantized_parts):
        return dtype_bytes
    return PACKED_BYTES_PER_PARAM.get(fmt.name)


def allocator_rounding_bytes(config: dict[str, Any], tp: int, dtype_bytes: int, max_split: int | None,
                             layers_per_stage: list[int], fmt: Format | None = None) -> list[int]:
    """Bytes each PP stage's rank loses to allocator rounding on the large tensors of a plain
    decoder (``params.big_tensors``, ``cached_block_bytes``): in the model dtype, or for a quantized
    checkpoint its packed weight tensors (``PACKED_BYTES_PER_PARAM``; AWQ's Marlin repack makes a
    tensor of the same size). Public logs show it in "Model loading took": Qwen2.5-7B loads 0.056 GiB
    over its checkpoint in v0.10.1 and 0.097 GiB from v0.22 (A100, L40S, RTX 3090/4090, A40),
    Qwen2.5-1.5B 0.007 in v0.20 and 0.097 in v0.28/v0.30, Qwen2.5-72B at TP 4 0.114 (0.117 modelled),
    Qwen3-32B at TP 2 0.067 (0.063); DeepSeek-R1-Distill-Qwen-32B FP8 0.203 (0.19); AWQ Qwen2.5-7B,
    Qwen3-14B, Qwen2.5-14B and Qwen2.5-32B 0.094, 0.139, 0.054 and 0.110 (0.080, 0.118, 0.061, 0.127);
    models whose projections are whole multiples of 2 MiB (Llama-3.1-8B, Qwen3-8B/14B) lose nothing."""
    pp = len(layers_per_stage)
    stage = [0] * pp
    for where, layer, elements, kind in big_tensors(config, tp):
        per = _packed_bytes(kind, fmt, dtype_bytes)
        if per is None:
            continue
        n = int(elements * per)
        lost = cached_block_bytes(n, max_split) - n
        s = 0 if where == "first" else pp - 1 if where == "last" else pp_stage_of(layer or 0, layers_per_stage)
        stage[s] += lost
    return stage


ONLINE_QUANTIZATION = frozenset({"fp8"})
"""Weight formats vLLM makes from an unquantized checkpoint while it loads (``--quantization fp8``)."""


def serving_quantization(config: dict[str, Any], weight_format: str | None) -> tuple[str | None, bool]:
    """What the chosen weight format means for the serve line: (the ``--quantization`` vLLM needs to
    quantize this checkpoint while loading, whether the format needs a checkpoint already in it).
    FP8 of an unquantized checkpoint is made while loading; packed formats (AWQ, GPTQ, int4, int8,
    NVFP4, MXFP4) are not, so the serve line needs such a checkpoint instead."""
    name = (weight_format or "auto").lower()
    if name in ("auto", "bf16", "fp16") or checkpoint_format(config) is not None:
        return None, False
    return (name, False) if name in ONLINE_QUANTIZATION else (None, True)


@dataclass(frozen=True)
class WeightsEstimate:
    total_bytes: int                  # the checkpoint (all GPUs)
    per_stage_bytes: tuple[int, ...]  # one TP rank of each PP stage, buffers included
    basis: str
    exact_total: bool
    offload_overshoot: tuple[int, ...] = ()   # per PP stage: how much more --cpu-offload-gb may move
    offloaded: tuple[int, ...] = ()           # per PP stage: what --cpu-offload-gb moves (bytes)

    @property
    def per_gpu_bytes(self) -> int:
        return max(self.per_stage_bytes)


def pp_stage_of(layer: int, sizes: list[int]) -> int:
    start = 0
    for stage, size in enumerate(sizes):
        if layer < start + size:
            return stage
        start += size
    return len(sizes) - 1


def experts_on_first_gpu(experts: int, tp: int, version: Version) -> int:
    """How many of ``experts`` whole experts the first of ``tp`` expert-parallel GPUs holds: from v0.10.1
    vLLM's expert map gives the first E mod TP ranks one more (ceil), v0.10.0 gave every rank floor(E / TP)
    and the last one the rest (Rule.EP_EXPERTS_BALANCED; fused_moe/layer.py ``determine_expert_map``)."""
    return cdiv(experts, tp) if applies(Rule.EP_EXPERTS_BALANCED, version) else experts // tp


def whole_experts(parts: list[Part], config: dict[str, Any], tp: int, version: Version) -> list[Part]:
    """``parts`` as --enable-expert-parallel places the routed experts: whole experts spread over
    the TP group (expert-parallel size = TP when data parallelism is 1), not a 1/TP slice of every
    expert. The first rank prints "Model loading took", so one GPU holds ``experts_on_first_gpu``
    of them (the linear and round-robin placements give rank 0 the same count). Shared experts,
    routers and the rest keep their TP split."""
    experts = expert_count(text_part(config))
    if not experts or tp == 1:
        return parts
    local = experts_on_first_gpu(experts, tp, version)
    return [replace(p, per_rank=p.params * local // experts) if p.expert and p.per_rank is None else p
            for p in parts]


def estimate_weights(config: dict[str, Any], weights_bytes: int | None, weight_format: str,
                     model_dtype_bytes: int, tp: int, pp: int, *, mxfp4_align: int = MXFP4_ALIGN_TRITON,
                     max_len: int | None = None, mtp_layers: int = 0,
                     mnbt: int = 0, towers_off: frozenset[str] = frozenset(),
                     rounding: bool = False, max_split: int | None = None,
                     cpu_offload_bytes: int = 0, expert_parallel: bool = False,
                     version: Version | None = None, capability_major: int = 9,
                     dspark_layers: int = 0) -> WeightsEstimate | None:
    """Per-GPU weights for each PP stage, or None when the config has no sizeable layers.

    ``mtp_layers``: MTP draft layers loaded with the model (``ModelArch.mtp_layers``, already
    validated and capped by ``read_model``); 0 when MTP decoding is off. ``mnbt``: the token
    budget, which sizes buffers some models allocate while they load. ``towers_off``: the towers
    ("vision", "audio") vLLM does not build (``--language-model-only``, or --limit-mm-per-prompt at
    0 for their modalities): the checkpoint keeps them; the GPUs do not load them. ``rounding``:
    count the caching allocator's rounding of the checkpoint's large tensors
    (``allocator_rounding_bytes``; GPUs run torch's allocator), under ``max_split`` bytes.
    ``cpu_offload_bytes``: --cpu-offload-gb per GPU (``cpu_offload_layers``). ``expert_parallel``:
    --enable-expert-parallel places whole experts on each GPU (``whole_experts``, by ``version``'s
    rule; the newest release's where it is not given)."""
    from .kvspecs import pp_partition  # noqa: PLC0415 - avoid a cycle at import time

    name = checked_format_name(weight_format)
    if model_type_of(text_part(config)) == "deepseek_v4":
        return _deepseek_v4(config, tp, pp, capability_major, version or NEWEST, mtp_layers > 0, mnbt,
                            expert_parallel, dspark_layers)
    parts = inventory(config, tp, towers_off)
    if not parts:
        return None
    if mtp_layers:
        parts += mtp_parts(config, tp, mtp_layers)
    if expert_parallel:
        parts = whole_experts(parts, config, tp, version or NEWEST)
    fmt = format_for(name, config)
    layers = max((p.layer for p in parts if p.layer is not None), default=0) + 1
    sizes = pp_partition(layers, pp) if layers >= pp else [layers] + [0] * (pp - 1)
    stage = [0.0] * pp
    layer_bytes = [0.0] * pp       # the decoder layers' share: what --cpu-offload-gb can move
    largest = [0.0] * pp           # the largest component of one layer
    total = 0.0
    # whole experts keep their intermediate size on every GPU (expert parallelism)
    pad = mxfp4_expert_padding(config, 1 if expert_parallel else tp, mxfp4_align) \
        if fmt and fmt.name == "mxfp4" else 1.0
    for p in parts:
        ckpt, rank = _part_bytes(p, fmt, model_dtype_bytes, tp, pad)
        total += ckpt
        s = 0 if p.where == "first" else pp - 1 if p.where == "last" else pp_stage_of(p.layer, sizes)
        stage[s] += rank
        if p.layer is not None and p.where == "layer":
            layer_bytes[s] += rank
            largest[s] = max(largest[s], rank)
    exact = bool(weights_bytes) and name == "auto"
    scale = weights_bytes / total if exact and total else 1.0
    if exact and not mtp_layers:
        basis = Text("basis.weights_checkpoint")
    else:
        label = fmt.name if fmt else f"{model_dtype_bytes * 8}-bit"
        loaded = sum(p.params for p in parts if p.per_rank != 0)
        basis = Text("basis.weights_params", billions=loaded / 1e9, label=label)
    buffers = rope_cache_bytes(config, max_len, model_dtype_bytes, version)
    first = per_layer_input_buffer_bytes(config, mnbt, model_dtype_bytes) + \
        deepstack_buffer_bytes(config, mnbt, model_dtype_bytes, towers_off)
    lost = allocator_rounding_bytes(config, tp, model_dtype_bytes, max_split, sizes, fmt) \
        if rounding else [0] * pp
    if pad > 1.0:
        padded = Text("basis.weights_mxfp4_marlin" if mxfp4_align == MXFP4_ALIGN_MARLIN
                      else "basis.weights_mxfp4_trtllm" if mxfp4_align == MXFP4_ALIGN_TRTLLM
                      else "basis.weights_mxfp4", pct=(pad - 1) * 100)
        basis = join_texts([basis, padded])
    if max(lost) >= MIB:
        basis = join_texts([basis, Text("basis.weights_rounding", mib=max(lost) / MIB)])
    if buffers >= ROPE_NOTED_BYTES:
        basis = join_texts([basis, Text("basis.weights_rope", mib=buffers / MIB)])
    per_stage = tuple(int(b * scale) + buffers + lost[i] + (first if i == 0 else 0) for i, b in enumerate(stage))
    overshoot: tuple[int, ...] = ()
    moved: list[int] = []
    if cpu_offload_bytes:
        moved, overshoot = cpu_offload_layers(cpu_offload_bytes, [b * scale for b in layer_bytes],
                                              [b * scale for b in largest])
        per_stage = tuple(b - m for b, m in zip(per_stage, moved))
        basis = join_texts([basis, Text("basis.weights_cpu_offload", gib=max(moved) / GIB,
                                        more=max(overshoot) / GIB)])
    return WeightsEstimate(int(weights_bytes if exact else total), per_stage, basis, exact, overshoot, tuple(moved))


def _deepseek_v4(config: dict[str, Any], tp: int, pp: int, capability_major: int, version: Version, mtp: bool,
                 mnbt: int, expert_parallel: bool, dspark_layers: int = 0) -> WeightsEstimate | None:
    """DeepSeek-V4's own pricing (deepseek_v4_weights), per pipeline stage as get_pp_indices splits it."""
    from .compressed_kv import ratios_of  # noqa: PLC0415
    from .kvspecs import pp_partition  # noqa: PLC0415 - avoid a cycle at import time
    ratios = ratios_of(config)
    w = deepseek_v4_weights(config, ratios, tp, capability_major=capability_major, version=version,
                            mtp=mtp, mnbt=mnbt, expert_parallel=expert_parallel,
                            stage_sizes=tuple(pp_partition(len(ratios), pp)), dspark_layers=dspark_layers)
    if w is None:
        return None
    basis = Text("basis.weights_dsv4", billions=w.params / 1e9, experts=w.expert_dtype)
    return WeightsEstimate(w.checkpoint, w.per_stage, basis, False)


def cpu_offload_layers(budget: int, layer_bytes: list[float], largest: list[float]) -> tuple[list[int], tuple[int, ...]]:
    """What --cpu-offload-gb moves off each GPU (one budget per process, so per PP stage): the UVA
    offloader (vllm/model_executor/offloader/uva.py; models/utils.py before v0.20) walks the decoder
    layers as they are built and moves whole parameters to pinned host memory until the bytes moved
    reach the budget, so it moves the budget (never more than the layers hold) plus part of the
    parameter that crosses it: up to one of the largest components more, the second figure."""
    moved = [int(min(budget, b)) for b in layer_bytes]
    more = tuple(int(min(big, b - m)) if b > m else 0 for m, b, big in zip(moved, layer_bytes, largest))
    return moved, more


DRAFTER_WEIGHT_METHODS = ("eagle", "eagle3", "draft_model")
"""Speculative methods whose drafter's weights kvcalc sizes from the drafter's config
(``params.drafter_parts``); others (dflash) keep a note that they are not counted."""


def drafter_weights(draft: dict[str, Any], target: dict[str, Any], method: str, tp: int,
                    model_dtype_bytes: int) -> tuple[int, int, int] | None:
    """Typical, low and high bytes one GPU of the last stage holds for a speculative drafter, in
    the drafter checkpoint's own format (vLLM loads it with the draft's quantization config,
    llama_eagle3.py ``get_draft_quant_config``): the high end adds the embedding an EAGLE
    checkpoint may carry of its own, which vLLM keeps only when it differs from the model's.
    None for a method whose drafter kvcalc does not size."""
    if method not in DRAFTER_WEIGHT_METHODS:
        return None
    parts, own_embedding = drafter_parts(draft, target, tp, method)
    if not parts:
        return None
    fmt = checkpoint_format(draft)
    typical = int(sum(_part_bytes(p, fmt, model_dtype_bytes, tp)[1] for p in parts))
    return typical, typical, typical + own_embedding * model_dtype_bytes
