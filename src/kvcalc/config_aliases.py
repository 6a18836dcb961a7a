"""Config fields that some model classes spell their own way, answered as vLLM answers them.

vLLM never reads config.json as a plain dict: it builds the model's config class, whose
``attribute_map`` answers the standard names (transformers' GPT2Config maps ``num_hidden_layers``
to ``n_layer``; vLLM's own ChatGLMConfig, vllm/transformers_utils/configs/chatglm.py, maps it to
``num_layers``), and the model's attention layers decide how many KV heads the cache holds
(vllm/model_executor/models/chatglm.py, falcon.py, gpt_bigcode.py). kvcalc reads config.json
directly, so :func:`canonical` fills in the standard names the same way before anything sizes the
model. A name the config already has is never replaced, except where the class itself lets
another key win (LFM2's ``block_ff_dim`` and ``tie_embedding``, ``_lfm2_fields``).
"""

from __future__ import annotations

import math
from typing import Any

_GPT2_NAMES = {"hidden_size": "n_embd", "num_hidden_layers": "n_layer", "num_attention_heads": "n_head",
               "max_position_embeddings": "n_positions", "intermediate_size": "n_inner"}
_FALCON_NAMES = {"num_hidden_layers": "n_layer", "num_attention_heads": "n_head",
                 "intermediate_size": "ffn_hidden_size"}
FALCON_TYPES = ("falcon", "RefinedWeb", "RefinedWebModel")
_MPT_NAMES = {"hidden_size": "d_model", "num_attention_heads": "n_heads", "num_hidden_layers": "n_layers",
              "max_position_embeddings": "max_seq_len"}
_NESTED: dict[str, dict[str, tuple[str, str]]] = {
    "dbrx": {"num_local_experts": ("ffn_config", "moe_num_experts"),
             "num_experts_per_tok": ("ffn_config", "moe_top_k"),
             "intermediate_size": ("ffn_config", "ffn_hidden_size")},
}
"""Standard names a class keeps in a nested block (vLLM's DbrxConfig ``ffn_config``, read by
vllm/model_executor/models/dbrx.py)."""

ATTRIBUTE_MAPS: dict[str, dict[str, str]] = {
    "gpt2": _GPT2_NAMES, "gpt_bigcode": _GPT2_NAMES, "gptj": _GPT2_NAMES, "codegen": _GPT2_NAMES,
    "chatglm": {"num_hidden_layers": "num_layers", "vocab_size": "padded_vocab_size",
                "intermediate_size": "ffn_hidden_size", "max_position_embeddings": "seq_length"},
    **{t: _FALCON_NAMES for t in FALCON_TYPES},
    "dbrx": _MPT_NAMES, "mpt": _MPT_NAMES,
    "exaone": {"num_hidden_layers": "num_layers"},
    "jais": _GPT2_NAMES,
    "telechat2": {"num_hidden_layers": "n_layer", "num_attention_heads": "n_head",
                  "intermediate_size": "ffn_hidden_size"},
    "bloom": {"num_hidden_layers": "n_layer", "num_attention_heads": "n_head", "hidden_size": "n_embed"},
    "opt": {"intermediate_size": "ffn_dim"},
    "kimi_linear": {"num_experts_per_tok": "num_experts_per_token", "n_shared_experts": "num_shared_experts"},
}
"""Per ``model_type``: standard name -> the name the class stores it under (transformers'
GPT2Config, GPTBigCodeConfig, GPTJConfig and CodeGenConfig ``attribute_map`` plus ``n_inner``;
vLLM's ChatGLMConfig, which also sets ``vocab_size`` and ``max_position_embeddings`` from
``padded_vocab_size`` and ``seq_length``; Falcon's RW-era names and the DbrxConfig, MPTConfig,
ExaoneConfig, JAISConfig and Telechat2Config ``attribute_map`` of vllm/transformers_utils/configs/,
v0.10; transformers' BloomConfig, which also reads the older ``n_embed`` as hidden_size and has no
length key, so vLLM assumes 2,048: settings.NO_LENGTH_KEY_MAX_LEN; OPTConfig's ``ffn_dim``; the MoE
sizes vLLM's KimiLinearConfig keeps under its own names, read by kimi_linear.py)."""

KV_HEAD_NAMES = ("n_head_kv", "num_kv_heads", "num_key_value_heads", "multi_query_group_num",
                 "num_attention_groups")
"""The spellings of the KV-head count vLLM tries in order (vllm/transformers_utils/config.py
``CONFIG_FIELD_ALIASES["total_num_kv_heads"]``, v0.33)."""

NON_GATED_MLP_TYPES = frozenset({"gpt2", "gpt_bigcode", "gptj", "codegen", "mpt", "bloom", "opt", *FALCON_TYPES})
"""Model types whose MLP is one up and one down projection (GELU; OPT's fc1/fc2 with ReLU), not a
gated three-matrix one."""

WIDE_MLP_TYPES = NON_GATED_MLP_TYPES
"""Model types whose MLP width defaults to 4 × hidden size when the config leaves it out
(``n_inner`` None, Falcon's ``ffn_hidden_size`` absent)."""

TIED_BY_DEFAULT = frozenset({"gpt2", "gpt_bigcode", "mpt", "bloom", "opt", *FALCON_TYPES})
"""Model types whose class ties the LM head to the embedding unless the config says otherwise
(vllm/model_executor/models/opt.py OPTForCausalLM: ``lm_head = self.model.decoder.embed_tokens``
when ``tie_word_embeddings``, the PretrainedConfig default)."""

ALWAYS_TIED = frozenset({"lfm2", "lfm2_moe", "zamba2"})
"""Model types whose vLLM class ties the LM head to the embedding whatever the config says
(vllm/model_executor/models/lfm2.py, lfm2_moe.py and zamba2.py call ``lm_head.tie_weights``
unconditionally, v0.10-v0.33): one table in GPU memory."""

GEMMA4_UNIFIED = "gemma4_unified"
"""Gemma 4 12B's ``model_type``: the encoder-free member (vllm/model_executor/models/gemma4_unified.py)."""
GEMMA4_WRAPPER_TYPES = ("gemma4", GEMMA4_UNIFIED)
"""The multimodal Gemma 4 configs: the tower models (E2B to 31B, vllm/model_executor/models/gemma4_mm.py)
and the encoder-free "unified" 12B (gemma4_unified.py, which subclasses the former and builds plain
linear embedders in place of the vision and audio towers). Both nest a Gemma 4 text model."""
GEMMA4_TYPES = (*GEMMA4_WRAPPER_TYPES, "gemma4_text", "gemma4_unified_text")
"""Every Gemma 4 ``model_type``, wrappers and their text configs: vLLM runs all of their language
models as ``Gemma4ForCausalLM`` (gemma4.py), so the layer layout, the K-equals-V full layers and the
head sizes are read one way."""


LEARNED_POSITION_ROWS: dict[str, tuple[str, int]] = {
    "gpt2": ("max_position_embeddings", 0), "gpt_bigcode": ("max_position_embeddings", 0),
    "opt": ("max_position_embeddings", 2),
}
"""Model types with a learned absolute position table, replicated on every GPU: the length field it
has one row per position of, plus the extra rows it keeps (OPT's table is offset by 2:
vllm/model_executor/models/opt.py ``OPTLearnedPositionalEmbedding``; gpt2.py and gpt_bigcode.py
``wpe``)."""


def model_type_of(t: dict[str, Any]) -> str:
    """The config's ``model_type``, or "" when it is missing or not a string (read_model reports
    that; lookups must not trip on it first)."""
    model_type = t.get("model_type")
    return model_type if isinstance(model_type, str) else ""


def _kv_heads(t: dict[str, Any], model_type: str) -> tuple[Any, str] | None:
    """The KV heads the model's attention layers keep and the config field they come from, or None
    to leave the config as it is."""
    heads = t.get("num_attention_heads")
    if model_type in FALCON_TYPES:
        # falcon.py FalconAttention: the new decoder architecture (40B/180B) reads num_kv_heads,
        # otherwise multi-query means one KV head, else one per attention head
        if t.get("new_decoder_architecture"):
            own = "num_kv_heads" if t.get("num_kv_heads") is not None else "n_head_kv"
            return (t.get(own) if t.get(own) is not None else 1), own
        return (1, "multi_query") if t.get("multi_query", True) else (heads, "num_attention_heads")
    if model_type == "gpt_bigcode":                         # gpt_bigcode.py; multi-query by default
        return (1, "multi_query") if t.get("multi_query", True) else (heads, "num_attention_heads")
    if model_type in ("dbrx", "mpt"):
        # dbrx.py / mpt.py: attn_config.kv_n_heads, else one KV head per attention head
        attn = t.get("attn_config") if isinstance(t.get("attn_config"), dict) else {}
        if attn.get("kv_n_heads") is not None:
            return attn["kv_n_heads"], "attn_config.kv_n_heads"
        return heads, "num_attention_heads"
    if model_type == "chatglm":
        # chatglm.py GLMAttention: the groups only with multi-query attention on (class default 1)
        if t.get("multi_query_attention"):
            groups = t.get("multi_query_group_num")
            return (1 if groups is None else groups), "multi_query_group_num"
        return heads, "num_attention_heads"
    if "num_key_value_heads" in t:
        return None
    return next(((t[name], name) for name in KV_HEAD_NAMES if t.get(name) is not None), None)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def lfm2_mlp_width(ff: int, t: dict[str, Any]) -> int:
    """The MLP width vLLM's ``Lfm2MLP`` builds from the config's ``intermediate_size``
    (vllm/model_executor/models/lfm2.py): with ``block_auto_adjust_ff_dim`` (on by default) two
    thirds of it, times ``block_ffn_dim_multiplier``, rounded up to ``block_multiple_of``.
    LFM2-1.2B: 12,288 -> 8,192."""
    if t.get("block_auto_adjust_ff_dim", True) is False:
        return ff
    width = int(2 * ff / 3)
    mult = t.get("block_ffn_dim_multiplier", 1.0)
    if _number(mult):
        width = int(mult * width)
    step = t.get("block_multiple_of", 256)
    step = int(step) if _number(step) and step >= 1 else 256
    return step * -(-width // step)


def _lfm2_fields(t: dict[str, Any]) -> dict[str, Any]:
    """What transformers' Lfm2Config answers that config.json spells otherwise: the original keys
    ``block_ff_dim`` and ``tie_embedding`` win over ``intermediate_size`` and
    ``tie_word_embeddings``, and ``layer_types`` comes from ``full_attn_idxs`` (every layer
    attention without either). ``intermediate_size`` then holds the width vLLM's MLP is built at
    (``lfm2_mlp_width``), which is what kvcalc sizes."""
    out: dict[str, Any] = {}
    ff = t.get("block_ff_dim", t.get("intermediate_size", 12288))
    if _number(ff) and ff >= 1:
        out["intermediate_size"] = lfm2_mlp_width(int(ff), t)
    if isinstance(t.get("tie_embedding"), bool):
        out["tie_word_embeddings"] = t["tie_embedding"]
    n, idxs = t.get("num_hidden_layers"), t.get("full_attn_idxs")
    if t.get("layer_types") is None and isinstance(n, int) and not isinstance(n, bool) and 0 < n <= 10_000:
        attn = set(idxs) if isinstance(idxs, list) and \
            all(isinstance(i, int) and not isinstance(i, bool) for i in idxs) else \
            set(range(n)) if idxs is None else None
        if attn is not None:
            out["layer_types"] = ["full_attention" if i in attn else "conv" for i in range(n)]
    return out


KDA_LAYER_TYPE = "kda"
"""The ``layer_types`` name kvcalc gives Kimi Linear's KDA layers (``_kimi_linear_fields``)."""


def _kimi_linear_fields(t: dict[str, Any]) -> dict[str, Any]:
    """``layer_types`` for Kimi Linear: "kda" where KimiLinearConfig.is_kda_layer says so (i + 1 in
    ``linear_attn_config.kda_layers``), "full_attention" (MLA) elsewhere, whatever ``layer_types`` the
    config carries (the class never reads one). Left out when the list is malformed;
    hf_config._kimi_linear_layers reports that."""
    n, lin = t.get("num_hidden_layers"), t.get("linear_attn_config")
    kda = lin.get("kda_layers") if isinstance(lin, dict) else None
    if not isinstance(n, int) or isinstance(n, bool) or not 0 < n <= 10_000 \
            or not isinstance(kda, list) or not all(isinstance(k, int) and not isinstance(k, bool) for k in kda):
        return {}
    numbers = set(kda)
    return {"layer_types": [KDA_LAYER_TYPE if i + 1 in numbers else "full_attention" for i in range(n)]}


MAMBA1_LAYER_TYPE = "mamba1"
"""The ``layer_types`` name kvcalc gives Jamba's Mamba-1 layers (``_jamba_fields``)."""


def _jamba_fields(t: dict[str, Any]) -> dict[str, Any]:
    """``layer_types`` for Jamba as transformers' JambaConfig answers ``layers_block_type``: attention
    where i % attn_layer_period == attn_layer_offset (8 and 4 by default), Mamba-1 elsewhere, whatever
    ``layer_types`` the config carries (jamba.py reads layers_block_type). A null period or offset is
    its default, as everywhere kvcalc reads a config (hf_config._Fields.int). Left out when the fields
    are malformed; hf_config._jamba_layers reports that."""
    n, period, offset = t.get("num_hidden_layers"), t.get("attn_layer_period"), t.get("attn_layer_offset")
    period, offset = 8 if period is None else period, 4 if offset is None else offset
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (n, period, offset)) \
            or not 0 < n <= 10_000 or period < 1 or offset < 0:
        return {}
    return {"layer_types": ["full_attention" if i % period == offset else MAMBA1_LAYER_TYPE for i in range(n)]}


FALCON_H1_D_SSM_DEFAULT = 1024
"""transformers' FalconH1Config ``mamba_d_ssm`` when config.json leaves the key out."""


def falcon_h1_mixer_width(t: dict[str, Any]) -> Any:
    """The width Falcon-H1's Mamba2 mixer is built at (falcon_h1.py): ``mamba_d_ssm``; transformers'
    default 1,024 when the key is missing; int(mamba_expand × hidden_size) when it is null (None when
    those are not numbers; hf_config._falcon_h1_layers reports that)."""
    if "mamba_d_ssm" not in t:
        return FALCON_H1_D_SSM_DEFAULT
    if t["mamba_d_ssm"] is not None:
        return t["mamba_d_ssm"]
    expand, hidden = t.get("mamba_expand", 2), t.get("hidden_size")
    return int(expand * hidden) if _number(expand) and _number(hidden) else None


def _minimax_fields(t: dict[str, Any]) -> dict[str, Any]:
    """``layer_types`` for MiniMax-Text-01 / M1 from ``attn_type_list`` (0 lightning, 1 softmax), as
    minimax_text_01.py reads it. Left out when malformed; hf_config._lightning_layers reports that."""
    types = t.get("attn_type_list")
    if t.get("layer_types") is not None or not isinstance(types, list) or \
            not all(v in (0, 1) and not isinstance(v, bool) for v in types):
        return {}
    return {"layer_types": ["full_attention" if v == 1 else "linear_attention" for v in types]}


def canonical_with_sources(t: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """``t`` (a language model's config) with the standard names filled in from the class's own
    spellings, ``num_key_value_heads`` from the model's attention layers and the MLP width's class
    default (``t`` itself when nothing is missing), and for each name filled in the config field
    it was read from, so an error can name the field the user's config has."""
    if not isinstance(t, dict):
        return t, {}
    model_type = model_type_of(t)
    sources = {std: own for std, own in ATTRIBUTE_MAPS.get(model_type, {}).items()
               if t.get(std) is None and t.get(own) is not None}
    filled = {std: t[own] for std, own in sources.items()}
    for std, (block, own) in _NESTED.get(model_type, {}).items():
        inner = t.get(block)
        if t.get(std) is None and isinstance(inner, dict) and inner.get(own) is not None:
            filled[std], sources[std] = inner[own], f"{block}.{own}"
    if model_type == "mpt" and t.get("intermediate_size") is None and isinstance(t.get("d_model"), int) \
            and isinstance(t.get("expansion_ratio", 4), (int, float)) and not isinstance(t.get("d_model"), bool):
        filled["intermediate_size"] = int(t.get("expansion_ratio", 4) * t["d_model"])   # mpt.py MPTMLP
    merged = {**t, **filled} if filled else t
    kv = _kv_heads(merged, model_type)
    if kv is not None and kv[0] != merged.get("num_key_value_heads"):
        filled["num_key_value_heads"], sources["num_key_value_heads"] = kv
    hidden = merged.get("hidden_size")
    if model_type in WIDE_MLP_TYPES and merged.get("intermediate_size") is None and isinstance(hidden, int) \
            and not isinstance(hidden, bool):
        filled["intermediate_size"] = 4 * hidden
    if model_type == "lfm2":
        filled.update(_lfm2_fields(t))
    if model_type == "kimi_linear":
        filled.update(_kimi_linear_fields(t))
    if model_type == "jamba":
        filled.update(_jamba_fields(t))
    if model_type in ("minimax_text_01", "minimax_m1"):
        filled.update(_minimax_fields(t))
    return ({**t, **filled} if filled else t), sources


def canonical(t: dict[str, Any]) -> dict[str, Any]:
    """``t`` with the standard names filled in (``canonical_with_sources``)."""
    return canonical_with_sources(t)[0]


MODELOPT_FP8_ALGOS = ("FP8", "FP8_PER_CHANNEL_PER_TOKEN", "FP8_PB_WO")


def quantization_config(config: dict[str, Any]) -> dict[str, Any] | None:
    """The checkpoint's ``quantization_config``: top level, or in ``text_config`` for the
    multimodal configs that keep it there, or else the ModelOpt ``hf_quant_config.json`` that older
    ModelOpt exports ship beside config.json (kept under ``hf_quant_config``: the catalog, the CLI's
    and the page's Hub fetch), which vLLM reads in its place (transformers_utils/config.py); None
    when none holds a dict."""
    q = config.get("quantization_config")
    if not isinstance(q, dict):
        text = config.get("text_config")
        q = text.get("quantization_config") if isinstance(text, dict) else None
    if not isinstance(q, dict):
        q = _from_hf_quant_config(config.get("hf_quant_config"))
    return q if isinstance(q, dict) else None


def _from_hf_quant_config(h: Any) -> dict[str, Any] | None:
    """An ``hf_quant_config.json`` with the ``quant_method`` vLLM gives it from its ``quant_algo``
    (model_arch_config_convertor.py, for producer "modelopt", the tool that writes this file):
    "modelopt" for FP8, "modelopt_fp4" for NVFP4."""
    if not isinstance(h, dict) or not isinstance(h.get("quantization"), dict):
        return None
    algo = str(h["quantization"].get("quant_algo") or "").upper()
    method = "modelopt" if algo in MODELOPT_FP8_ALGOS else "modelopt_fp4" if algo == "NVFP4" else None
    return {**h, "quant_method": method} if method and "quant_method" not in h else h


def modelopt_algo(q: dict[str, Any]) -> str:
    """A ModelOpt ``quant_algo`` (FP8, NVFP4, MIXED_PRECISION …), upper case, read at the top level
    or inside ``quantization`` (hf_quant_config.json's layout); "" when absent."""
    inner = q.get("quantization") if isinstance(q.get("quantization"), dict) else {}
    return str(q.get("quant_algo") or inner.get("quant_algo") or "").upper()
