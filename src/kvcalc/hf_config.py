"""Read a Hugging Face ``config.json`` dict into the layer list vLLM builds its cache from.

Nothing here depends on the GPU count: the result is per model. ``kvspecs.py`` turns it
into per-GPU specs. Every field read is validated; a missing or malformed one raises
:class:`ConfigError` naming the field, never a guess. Defaults are transformers' own
(e.g. ``head_dim = hidden_size // num_attention_heads``).
"""

from __future__ import annotations

import math
import reprlib
from dataclasses import dataclass, field, replace
from typing import Any

from .config_aliases import GEMMA4_TYPES, canonical_with_sources, falcon_h1_mixer_width, quantization_config
from .dtypes import MODEL_DTYPE_BYTES
from .errors import ConfigError, UnsupportedModelError
from .messages import Text
from .compressed_kv import CompressedDims, ratios_of
from .versions import Rule, Version, applies


@dataclass(frozen=True)
class AttentionLayer:
    """One decoder layer's KV cache shape before tensor parallelism.

    ``kind``: "full", "sliding_window", "chunked_local", "mla", "mamba", "compressed" (DeepSeek-V4:
    a window of ``window`` raw entries, compressed by ``chunk`` = 4 or 128 where not 1) or "none" (an
    MLP-only layer, or a layer that reuses an earlier layer's cache: KV sharing).
    For MLA ``head_size`` is the latent width (kv_lora_rank + qk_rope_head_dim) and
    ``head_size_v`` is 0; the latent is one "head" that TP does not split.
    """

    kind: str
    num_kv_heads: int = 0
    head_size: int = 0
    head_size_v: int = 0
    window: int | None = None
    chunk: int | None = None
    shared_from: int | None = None  # index of the layer whose cache this one reuses


@dataclass(frozen=True)
class MambaDims:
    """Recurrent-state dimensions of a hybrid model (before TP), with dtypes by name.

    ``flavour`` "mamba2": conv state ((intermediate + 2·groups·d_state)/TP, kernel − 1),
    SSM state (heads/TP, head_dim, d_state) — ``mamba_utils.mamba2_state_shape``.
    ``flavour`` "gdn" (gated delta net): conv (2·k_heads·k_dim + v_heads·v_dim)/TP ×
    (kernel − 1), recurrent (v_heads/TP, v_dim, k_dim) — ``gated_delta_net_state_shape``.
    ``flavour`` "short_conv" (LFM2): conv intermediate/TP × (kernel − 1) and no recurrent
    state — ``short_conv_state_shape``.
    ``flavour`` "mamba1" (Jamba): conv intermediate/TP × (kernel − 1), SSM intermediate/TP × d_state,
    never a speculative slot — ``mamba1_state_shape``.
    ``flavour`` "lightning" (MiniMax's linear attention): one state of heads/TP × head_dim × head_dim
    in the model dtype, no convolution — ``linear_attention_state_shape``.
    ``flavour`` "kda" (Kimi delta attention): a gated delta net's shapes with key heads = value heads
    and a float32 recurrent state whatever the model dtype — ``kda_state_shape``.
    """

    flavour: str
    conv_kernel: int
    num_heads: int = 0          # mamba2 heads, or gdn value heads
    head_dim: int = 0           # mamba2 head_dim, or gdn value head dim
    state_size: int = 0         # mamba2 d_state
    n_groups: int = 0           # mamba2 groups
    intermediate_size: int = 0  # mamba2 inner size
    num_k_heads: int = 0        # gdn key heads
    head_k_dim: int = 0         # gdn key head dim
    conv_dtype: str | None = None  # None: the model dtype
    ssm_dtype: str | None = None
    chunk_size: int = 2048      # SSD kernel chunk: mamba_chunk_size or chunk_size, else 2048
                                # (vllm/config/model.py ``get_mamba_chunk_size``)


@dataclass(frozen=True)
class ModelArch:
    """What vLLM's KV sizing needs from a model config."""

    architecture: str
    model_type: str
    layers: tuple[AttentionLayer, ...]
    torch_dtype: str | None
    max_position_embeddings: int | None
    derived_max_model_len: int | None       # vLLM's default max_model_len from v0.30
    derived_max_model_len_yarn_scaled: int | None  # the same before v0.30 (YaRN's factor applied)
    longrope_default_max_len: int | None = None  # a LongRoPE model's default from v0.11.1 (_longrope_default_len)
    mamba: MambaDims | None = None
    hybrid_mamba_class: bool = False   # vLLM aligns the attention block to a Mamba page
    parallel_state: bool = False       # every layer also keeps a Mamba state (Falcon-H1, Zamba2)
    mtp_layers: tuple[AttentionLayer, ...] = ()  # draft layers MTP speculative decoding adds
    compressed: CompressedDims | None = None  # DeepSeek-V4's compressed KV cache (compressed_kv)
    checkpoint_kv_dtype: str | None = None  # KV dtype the quantization_config asks for
    quant_method: str | None = None
    sparse_mla_index_head_dim: int | None = None  # DeepSeek-V3.2 indexer (index_head_dim)
    mla_qk_nope_head_dim: int = 0      # MLA's query/key width without RoPE: which Blackwell backend runs it
    num_attention_heads: int = 0
    hidden_size: int = 0
    is_moe: bool = False
    notes: tuple[str, ...] = field(default=())

    @property
    def num_layers(self) -> int:
        return len(self.layers)

    @property
    def is_mla(self) -> bool:
        return any(layer.kind == "mla" for layer in self.layers)

    @property
    def has_state_layers(self) -> bool:
        """A hybrid: layers with a Mamba-style recurrent state (Mamba, GDN, linear attention)."""
        return self.mamba is not None or any(layer.kind == "mamba" for layer in self.layers)

    def max_len_limit(self, version: Version) -> int | None:
        """vLLM's derived max_model_len in ``version`` (``max_len_limit``)."""
        return max_len_limit(self.derived_max_model_len, self.derived_max_model_len_yarn_scaled, version)

    def full_attention_layer(self) -> AttentionLayer | None:
        """The first layer with a full-length cache (the shape MTP/EAGLE drafts reuse)."""
        for layer in self.layers:
            if layer.kind in ("full", "mla"):
                return layer
        for layer in self.layers:
            if layer.kind in ("sliding_window", "chunked_local"):
                return AttentionLayer("full", layer.num_kv_heads, layer.head_size, layer.head_size_v)
        return None


# --------------------------------------------------------------------------- field access

_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother, _REPR.maxlist, _REPR.maxdict = 3, 60, 60, 6, 4


def show(value: Any) -> str:
    """A bounded ``repr`` for messages: a 10 MB string or a list nested 100,000 deep in a
    hostile config must not become a 10 MB message or a RecursionError."""
    try:
        return _REPR.repr(value)
    except Exception:  # noqa: BLE001 - a message must never fail
        return f"<{type(value).__name__}>"



class _Fields:
    """Typed access to a config dict; every error names the dotted field path."""

    def __init__(self, data: dict[str, Any], prefix: str = "", sources: dict[str, str] | None = None) -> None:
        self.data = data
        self.prefix = prefix
        self.sources = sources or {}    # standard name -> the config's own field (config_aliases)

    @classmethod
    def canonical(cls, data: dict[str, Any], prefix: str = "") -> _Fields:
        """Fields with the standard names filled in as vLLM's config classes answer them
        (config_aliases); errors still name the field the config has."""
        if not isinstance(data, dict):
            return cls(data, prefix)
        filled, sources = canonical_with_sources(data)
        return cls(filled, prefix, sources)

    def path(self, key: str) -> str:
        return f"{self.prefix}{self.sources.get(key, key)}"

    def has(self, key: str) -> bool:
        return self.data.get(key) is not None

    def raw(self, key: str, default: Any = None) -> Any:
        value = self.data.get(key)
        return default if value is None else value

    def int(self, key: str, default: int | None = None, *, minimum: int = 1,
            maximum: int = 10**9) -> int:
        value = self.data.get(key)
        if value is None:
            if default is None:
                raise ConfigError(self.path(key), Text("config.missing"))
            return default
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(self.path(key), Text("config.whole_number", value=show(value)))
        if isinstance(value, float):
            if not math.isfinite(value) or value != int(value):
                raise ConfigError(self.path(key), Text("config.whole_number", value=show(value)))
            value = int(value)
        if not minimum <= value <= maximum:
            raise ConfigError(self.path(key), Text("config.between", minimum=minimum, maximum=maximum,
                                                    value=value))
        return value

    def opt_int(self, key: str, *, minimum: int = 1, maximum: int = 10**9) -> int | None:
        if self.data.get(key) is None:
            return None
        return self.int(key, minimum=minimum, maximum=maximum)

    def bool(self, key: str, default: bool = False) -> bool:
        value = self.data.get(key)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise ConfigError(self.path(key), Text("config.bool", value=show(value)))
        return value

    def str(self, key: str, default: str | None = None) -> str | None:
        value = self.data.get(key)
        if value is None:
            return default
        if not isinstance(value, str):
            raise ConfigError(self.path(key), Text("config.string", value=show(value)))
        return value

    def list(self, key: str, length: int | None = None) -> list | None:
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, list):
            raise ConfigError(self.path(key), Text("config.list", type=type(value).__name__))
        if length is not None and len(value) < length:
            raise ConfigError(self.path(key), Text("config.list_too_short", count=len(value), layers=length))
        return value


def _text_fields(config: dict[str, Any]) -> _Fields:
    """The language-model part: ``text_config`` for multimodal models, else the config itself,
    with the standard names its class answers filled in (config_aliases.canonical)."""
    if not isinstance(config, dict):
        raise ConfigError("(root)", Text("config.object_got", type=type(config).__name__))
    text = config.get("text_config")
    if text is None:
        key = "llm_config" if config.get("llm_config") else "language_config"
        text = config.get(key)
        if text is None:
            return _Fields.canonical(config)
        if not isinstance(text, dict):
            raise ConfigError(key, Text("config.object_got", type=type(text).__name__))
        return _Fields.canonical(text, key + ".")
    if not isinstance(text, dict):
        raise ConfigError("text_config", Text("config.object_got", type=type(text).__name__))
    return _Fields.canonical(text, "text_config.")


_MAX_LEN_KEYS = ("max_position_embeddings", "n_positions", "max_seq_len", "seq_length",
                 "model_max_length", "max_sequence_length", "max_seq_length", "seq_len")


CLASS_MAX_POSITIONS = {"gemma3_text": 131072, "gemma3n_text": 32768, "falcon": 2048}
"""``max_position_embeddings`` transformers fills in from the config class when config.json leaves it
out (Gemma3TextConfig 131,072, Gemma3nTextConfig 32,768 in transformers 5.16, FalconConfig 2,048):
google/gemma-3-*-it and tiiuae/falcon-7b ship without it, and vLLM derives the default
max_model_len from the built config."""
UNSCALED_ROPE_TYPES = ("su", "longrope", "llama3")
"""RoPE types whose factor vLLM does not apply to the length key (_get_and_verify_max_len)."""
YARN_ROPE_TYPES = ("yarn", "deepseek_yarn", "deepseek_llama_scaling")
"""YaRN variants whose max_position_embeddings vLLM takes as already scaled from v0.30
(Rule.YARN_LENGTH_AS_GIVEN); before, the factor scaled YaRN's original_max_position_embeddings."""


def max_len_limit(as_given: int | None, yarn_scaled: int | None, version: Version) -> int | None:
    """The model's derived max_model_len in ``version``, from the two readings ``read_model`` keeps:
    the default, and the most --max-model-len may ask for without VLLM_ALLOW_LONG_MAX_MODEL_LEN
    (YaRN's factor applied before v0.30, Rule.YARN_LENGTH_AS_GIVEN)."""
    return as_given if applies(Rule.YARN_LENGTH_AS_GIVEN, version) else yarn_scaled


def _rope_entries(f: _Fields) -> list[tuple[str, dict[str, Any]]]:
    """(config key, one RoPE dict) pairs: ``rope_scaling``/``rope_parameters`` as one dict, or
    transformers v5's dict per layer type (entries that are None hold no RoPE and are dropped)."""
    key = "rope_scaling" if f.raw("rope_scaling") else "rope_parameters"
    rope = f.raw(key)
    if not isinstance(rope, dict):
        return []
    if "rope_type" in rope or "type" in rope or "factor" in rope:
        return [(key, rope)]
    return [(f"{key}.{name}", rp) for name, rp in rope.items() if isinstance(rp, dict)]


def mrope_position_dims(config: dict[str, Any]) -> int:
    """Position channels of an M-RoPE model (Qwen2-VL to Qwen3.6): the length of the
    ``mrope_section`` (or HunYuan-VL's ``xdrope_section``) its RoPE parameters declare, at least 3;
    0 for other models (vllm/transformers_utils/config.py ``mrope_num_dims``)."""
    for d in (config, config.get("text_config")):
        if not isinstance(d, dict):
            continue
        for key in ("rope_scaling", "rope_parameters"):
            rope = d.get(key)
            entries = [rope] + [v for v in rope.values() if isinstance(v, dict)] if isinstance(rope, dict) else []
            for entry in entries:
                section = entry.get("mrope_section", entry.get("xdrope_section"))
                if isinstance(section, list):
                    return max(len(section), 3)
    return 0


def _derived_max_len(f: _Fields, model_type: str, yarn_scaled: bool) -> int | None:
    """``_get_and_verify_max_len`` (vllm/config/model.py): the smallest length key (or the class
    default transformers fills in; a ``model_max_length`` replaces it), times the RoPE factor unless the type's length is already
    final (su/longrope/llama3, YaRN from v0.30) or the model is a Gemma 3 (whose 128K is already
    scaled). ``yarn_scaled`` is the rule before v0.30: YaRN's factor scales its
    original_max_position_embeddings."""
    lengths = [f.int(k, minimum=1, maximum=10**8) for k in _MAX_LEN_KEYS if f.has(k)]
    if not lengths and f.str("model_type") in CLASS_MAX_POSITIONS:
        lengths = [CLASS_MAX_POSITIONS[f.str("model_type")]]
    if not lengths:
        return None
    # the smallest key, unless the config sets model_max_length, which then wins even when larger
    # (Command-R: 8,192 positions, model_max_length 131,072; derive_max_model_len_and_key)
    derived = f.int("model_max_length", minimum=1, maximum=10**8) if f.has("model_max_length") else min(lengths)
    if "gemma3" in model_type:
        return derived
    factor, factor_key = None, ""
    for key, rope in _rope_entries(f):
        rope_type = rope.get("rope_type", rope.get("type"))
        final = UNSCALED_ROPE_TYPES + (() if yarn_scaled else YARN_ROPE_TYPES)
        value = rope.get("factor")
        if rope_type in (None, "default", "mrope") or rope_type in final or \
                not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0:
            continue
        if isinstance(value, int) and value > 10**8 or not math.isfinite(value):
            raise ConfigError(f.path(f"{key}.factor"), Text("config.rope_factor", value=show(value)))
        factor, factor_key = value, key
        if rope_type == "yarn" and isinstance(rope.get("original_max_position_embeddings"), int):
            derived = _Fields(rope, f.path(key + ".")).int("original_max_position_embeddings", maximum=10**8)
    if factor is None:
        return derived
    product = derived * factor
    scaled = int(product) if math.isfinite(product) else product     # 1e308 × 163,840 overflows to inf
    if not 1 <= scaled <= 10**8:
        raise ConfigError(f.path(f"{factor_key}.factor"),
                          Text("config.rope_factor_range", factor=show(factor), length=derived, scaled=scaled))
    return scaled


def _longrope_default_len(f: _Fields) -> int | None:
    """The max_model_len vLLM defaults to for a LongRoPE model (rope type "longrope", or "su", which
    transformers renames to it) from v0.11.1: its original_max_position_embeddings, the length it
    was trained at, while --max-model-len may still ask for the extended one
    (Rule.LONGROPE_DEFAULT_ORIGINAL_LEN). None for other models or where the key is absent."""
    if not any(rope.get("rope_type", rope.get("type")) in ("longrope", "su") for _, rope in _rope_entries(f)):
        return None
    return f.opt_int("original_max_position_embeddings", maximum=10**8)


def _checkpoint_kv_dtype(config: dict[str, Any]) -> tuple[str | None, str | None]:
    """(KV dtype the checkpoint asks for, quant_method) from ``quantization_config``.

    An llm-compressor ``kv_cache_scheme`` of 8-bit floats makes ``auto`` fp8
    (layers/attention/attention.py). ModelOpt checkpoints name it in ``kv_cache_quant_algo``
    or ``kv_cache_scheme``: FP8 -> fp8_e4m3, NVFP4 -> nvfp4
    (vllm/utils/torch_utils.py ``get_kv_cache_quant_algo_string``).
    """
    q = quantization_config(config)
    if q is None:
        return None, None
    method = q.get("quant_method")
    method = method if isinstance(method, str) else None
    if method and method.startswith("modelopt"):
        inner = q.get("quantization") if isinstance(q.get("quantization"), dict) else q
        algo = (inner.get("kv_cache_scheme") or q.get("kv_cache_scheme")
                or inner.get("kv_cache_quant_algo") or q.get("kv_cache_quant_algo"))
        if isinstance(algo, dict):
            if algo.get("dynamic") is False and algo.get("num_bits") == 8 and algo.get("type") == "float":
                return "fp8_e4m3", method
            if algo.get("num_bits") == 4 and algo.get("type") == "float":
                return "nvfp4", method
            return None, method
        if isinstance(algo, str):
            return {"fp8": "fp8_e4m3", "nvfp4": "nvfp4"}.get(algo.lower()), method
        return None, method
    scheme = q.get("kv_cache_scheme")
    if isinstance(scheme, dict) and scheme.get("num_bits") == 8 and \
            str(scheme.get("type", "float")) == "float":
        return "fp8", method
    return None, method


# --------------------------------------------------------------------------- layer patterns


def _head_counts(f: _Fields) -> tuple[int, int]:
    """(attention heads, KV heads): num_key_value_heads defaults to the heads and may not exceed them."""
    heads = f.int("num_attention_heads")
    kv_heads = f.int("num_key_value_heads", heads)
    if kv_heads > heads:
        raise ConfigError(f.path("num_key_value_heads"),
                          Text("config.kv_heads_exceed", kv_heads=kv_heads, heads=heads))
    return heads, kv_heads


def _standard_attention(f: _Fields) -> tuple[int, int, int]:
    """(kv heads, K head size, V head size) of a standard decoder."""
    heads = f.int("num_attention_heads")
    kv_heads = f.int("num_key_value_heads", heads)
    if kv_heads > heads and heads > 0:
        raise ConfigError(f.path("num_key_value_heads"),
                          Text("config.kv_heads_exceed", kv_heads=kv_heads, heads=heads))
    if f.has("head_dim"):
        head = f.int("head_dim")
    else:
        hidden = f.int("hidden_size")
        if hidden % heads:
            raise ConfigError(f.path("hidden_size"),
                              Text("config.hidden_not_multiple", hidden=hidden, heads=heads))
        head = hidden // heads
    head_v = f.int("v_head_dim", head) if f.has("v_head_dim") and not f.has("kv_lora_rank") else head
    return kv_heads, head, head_v


def _sliding_window(f: _Fields) -> int | None:
    """The config's window; 0 or null means none (ModelConfig converts 0 to None)."""
    if f.has("use_sliding_window") and not f.bool("use_sliding_window"):
        return None
    w = f.raw("sliding_window")
    if w in (None, 0, False):
        return None
    return f.int("sliding_window", maximum=10**8)


def _layer_type_names(f: _Fields, given: list, n: int) -> list[str]:
    """The first ``n`` entries of a ``layer_types`` list, each a string."""
    out = given[:n]
    for i, t in enumerate(out):
        if not isinstance(t, str):
            raise ConfigError(f.path(f"layer_types[{i}]"), Text("config.string", value=show(t)))
    return out


RICURSIVE_SLIDING_WINDOW = 1024
"""RicursiveConfig's default window (vllm/transformers_utils/configs/ricursive.py, v0.34)."""


def _layer_types(f: _Fields, model_type: str, n: int) -> list[str] | None:
    """``layer_types`` as transformers' config classes fill it in when config.json has none."""
    given = f.list("layer_types", n)
    if given is not None:
        return _layer_type_names(f, given, n)
    if model_type == "ricursive":       # RicursiveConfig: every fifth layer full attention (NoPE)
        return ["full_attention" if i % 5 == 4 else "sliding_attention" for i in range(n)]
    if model_type in ("gemma2",):
        return ["sliding_attention" if i % 2 == 0 else "full_attention" for i in range(n)]
    if model_type in ("gemma3", "gemma3_text", "cohere2"):
        pattern = f.int("sliding_window_pattern", 6 if model_type != "cohere2" else 4)
        return ["sliding_attention" if (i + 1) % pattern else "full_attention" for i in range(n)]
    if f.has("sliding_window_pattern"):
        pattern = f.int("sliding_window_pattern")
        return ["sliding_attention" if (i + 1) % pattern else "full_attention" for i in range(n)]
    if model_type == "gpt_oss":
        return ["sliding_attention" if i % 2 == 0 else "full_attention" for i in range(n)]
    if model_type in ("qwen2", "qwen3", "qwen2_moe", "qwen3_moe") and f.has("max_window_layers"):
        window = _sliding_window(f)
        mwl = f.int("max_window_layers", minimum=0)
        return ["sliding_attention" if window is not None and i >= mwl else "full_attention"
                for i in range(n)]
    return None


def _decoder_layers(f: _Fields, model_type: str) -> list[AttentionLayer]:
    """Full and sliding-window layers of a standard (non-MLA, non-hybrid) decoder.

    Mirrors ``EngineArgs.create_engine_config``: a model whose ``layer_types`` is absent or
    all sliding gets the config's window on every layer (Mistral-7B-v0.1, Phi-3); an
    interleaved one gets it only on its ``sliding_attention`` layers.
    """
    n = f.int("num_hidden_layers", maximum=10_000)
    kv_heads, head, head_v = _standard_attention(f)
    types = _layer_types(f, model_type, n)
    window = _sliding_window(f)
    if model_type == "ricursive" and f.raw("sliding_window") is None:
        window = RICURSIVE_SLIDING_WINDOW
    if model_type in ("qwen2", "qwen3", "qwen2_moe", "qwen3_moe") and types is not None \
            and len(set(types)) > 1:
        raise UnsupportedModelError(Text("model.qwen2_partial_sliding"))
    all_sliding = types is None or all(x == "sliding_attention" for x in types)
    layers = []
    for i in range(n):
        kind = "full"
        t = types[i] if types is not None else None
        if t is not None and t not in ("full_attention", "sliding_attention", "attention",
                                       "chunked_attention"):
            raise ConfigError(f.path(f"layer_types[{i}]"), Text("config.unknown_layer_type", value=show(t)))
        if window is not None and (t == "sliding_attention" or (all_sliding and t is None) or
                                   (all_sliding and t == "sliding_attention")):
            kind = "sliding_window"
        layers.append(AttentionLayer(kind, kv_heads, head, head_v,
                                     window=window if kind == "sliding_window" else None))
    return layers


def _mla_layers(f: _Fields, n: int) -> list[AttentionLayer]:
    rank = f.int("kv_lora_rank")
    rope = f.int("qk_rope_head_dim")
    return [AttentionLayer("mla", 1, rank + rope, 0) for _ in range(n)]


def _kv_shared(layers: list[AttentionLayer], num_shared: int, f: _Fields) -> list[AttentionLayer]:
    """Gemma 3n / Gemma 4 KV sharing: the last ``num_kv_shared_layers`` layers reuse the cache
    of the last earlier layer of the same kind (gemma3n.py, gemma4.py) and get no spec."""
    n = len(layers)
    if num_shared >= n:
        raise ConfigError(f.path("num_kv_shared_layers"),
                          Text("config.kv_shared_too_many", shared=num_shared, layers=n))
    first_shared = n - num_shared
    last_of_kind = {layer.kind: j for j, layer in enumerate(layers[:first_shared])}
    out = list(layers)
    for i in range(first_shared, n):
        target = last_of_kind.get(layers[i].kind)
        if target is None:
            raise ConfigError(f.path("num_kv_shared_layers"), Text("config.kv_shared_no_source", layer=i))
        out[i] = AttentionLayer("none", shared_from=target)
    return out


def _gemma4_layers(f: _Fields) -> list[AttentionLayer]:
    """Gemma 4: sliding layers use head_dim / num_key_value_heads; full ("global") layers use
    global_head_dim and, with attention_k_eq_v, num_global_key_value_heads. K and V are both
    stored either way (public v0.28–v0.31 logs)."""
    n = f.int("num_hidden_layers", maximum=10_000)
    types = _layer_types(f, "gemma4", n)
    if types is None:
        raise ConfigError(f.path("layer_types"), Text("config.gemma4_layer_types"))
    kv_heads, head, _ = _standard_attention(f)
    global_head = f.int("global_head_dim", head)
    global_kv = kv_heads
    if f.bool("attention_k_eq_v") and f.has("num_global_key_value_heads"):
        global_kv = f.int("num_global_key_value_heads")
    window = _sliding_window(f)
    layers = []
    for i, t in enumerate(types):
        if t == "sliding_attention" and window is not None:
            layers.append(AttentionLayer("sliding_window", kv_heads, head, head, window=window))
        else:
            layers.append(AttentionLayer("full", global_kv, global_head, global_head))
    return layers


def _llama4_layers(f: _Fields) -> list[AttentionLayer]:
    """Llama 4: RoPE layers use chunked local attention (attention_chunk_size); NoPE layers
    (``no_rope_layers[i] == 0``, by default every 4th) attend globally (llama4.py)."""
    n = f.int("num_hidden_layers", maximum=10_000)
    kv_heads, head, head_v = _standard_attention(f)
    chunk = f.opt_int("attention_chunk_size", maximum=10**8)
    no_rope = f.list("no_rope_layers", n)
    interval = f.int("no_rope_layer_interval", 4)
    layers = []
    for i in range(n):
        uses_rope = bool(no_rope[i]) if no_rope else (i + 1) % interval != 0
        if chunk and uses_rope:
            layers.append(AttentionLayer("chunked_local", kv_heads, head, head_v, chunk=chunk))
        else:
            layers.append(AttentionLayer("full", kv_heads, head, head_v))
    return layers


_STATE_DTYPES = tuple(MODEL_DTYPE_BYTES)
"""Dtypes vLLM keeps a Mamba / linear-attention state in (``MambaStateDtypeCalculator``): the
model dtypes."""


def _ssm_dtype(f: _Fields, *keys: str) -> str | None:
    for key in keys:
        value = f.str(key)
        if value:
            name = value.replace("torch.", "")
            if name not in _STATE_DTYPES:
                raise ConfigError(f.path(key), Text("config.state_dtype", value=show(value),
                                                    choices=", ".join(_STATE_DTYPES)))
            return name
    return None


def _typed_layers(f: _Fields, types: list[str], state_names: tuple[str, ...], attention_names: tuple[str, ...],
                  attention: AttentionLayer) -> list[AttentionLayer]:
    """A hybrid's layers from its ``layer_types``: a state layer ("mamba" kind) for each of
    ``state_names``, ``attention`` for each of ``attention_names``; any other name is refused."""
    layers = []
    for i, t in enumerate(types):
        if t in state_names:
            layers.append(AttentionLayer("mamba"))
        elif t in attention_names:
            layers.append(attention)
        else:
            raise ConfigError(f.path(f"layer_types[{i}]"), Text("config.unknown_layer_type", value=show(t)))
    return layers


def _qwen3_next_layers(f: _Fields, olmo: bool = False) -> tuple[list[AttentionLayer], MambaDims]:
    """Qwen3-Next / Qwen3.5: gated-delta-net linear attention with a full-attention layer
    every ``full_attention_interval`` layers (or as ``layer_types`` says).

    ``olmo``: OLMo-Hybrid (vllm/model_executor/models/olmo_hybrid.py, v0.18+), the same GDN state and
    config keys, but its attention head is hidden / heads whatever head_dim says (OlmoHybridAttention),
    ``layer_types`` is required (the class indexes it), and its class reads no mamba_ssm_dtype."""
    n = f.int("num_hidden_layers", maximum=10_000)
    kv_heads, head, head_v = _standard_attention(f)
    if olmo:
        head = head_v = _head_from_hidden(f, f.int("num_attention_heads"))
        if f.list("layer_types", n) is None:
            raise ConfigError(f.path("layer_types"), Text("config.missing"))
    types = f.list("layer_types", n)
    types = _layer_type_names(f, types, n) if types is not None else None
    if types is None:
        interval = f.int("full_attention_interval", 4)
        types = ["full_attention" if (i + 1) % interval == 0 else "linear_attention"
                 for i in range(n)]
    dims = MambaDims(
        "gdn", conv_kernel=f.int("linear_conv_kernel_dim"),
        num_heads=f.int("linear_num_value_heads"), head_dim=f.int("linear_value_head_dim"),
        num_k_heads=f.int("linear_num_key_heads"), head_k_dim=f.int("linear_key_head_dim"),
        ssm_dtype=None if olmo else _ssm_dtype(f, "mamba_ssm_dtype"))
    layers = _typed_layers(f, types[:n], ("linear_attention",), ("full_attention", "attention"),
                           AttentionLayer("full", kv_heads, head, head_v))
    return layers, dims


def _lfm2_layers(f: _Fields, model_type: str) -> tuple[list[AttentionLayer], MambaDims]:
    """LFM2 / LFM2-MoE: gated short-convolution layers with attention layers among them.

    Mirrors vllm/model_executor/models/lfm2.py and lfm2_moe.py (v0.10.2 on; MoE from v0.11.1):
    ``layer_types`` says "conv" or "full_attention" per layer; transformers' Lfm2Config builds it
    from ``full_attn_idxs`` when absent (every layer attention when both are), vLLM's Lfm2MoeConfig
    does not. The attention head size is hidden_size / num_attention_heads whatever the config
    says (Lfm2Attention). A conv layer keeps one state of (conv_L_cache − 1) × conv_dim / TP values
    in the model dtype (``MambaStateShapeCalculator.short_conv_state_shape``): conv_dim is the
    config's ``conv_dim`` for LFM2 and the hidden size for LFM2-MoE."""
    n = f.int("num_hidden_layers", maximum=10_000)
    heads, kv_heads = _head_counts(f)
    head = _head_from_hidden(f, heads)
    given = f.list("layer_types", n)
    if given is None:       # canonical (config_aliases._lfm2_fields) fills it from a valid full_attn_idxs
        if model_type == "lfm2":
            raise ConfigError(f.path("full_attn_idxs"), Text("config.lfm2_attn_idxs"))
        raise ConfigError(f.path("layer_types"), Text("config.lfm2_moe_layer_types"))
    types = _layer_type_names(f, given, n)
    layers = _typed_layers(f, types[:n], ("conv",), ("full_attention",), AttentionLayer("full", kv_heads, head, head))
    if model_type == "lfm2" and not f.has("conv_dim"):
        raise ConfigError(f.path("conv_dim"), Text("config.lfm2_conv_dim"))
    width = f.int("conv_dim") if model_type == "lfm2" else f.int("hidden_size")
    return layers, MambaDims("short_conv", conv_kernel=f.int("conv_L_cache", 3, minimum=2, maximum=64),
                             intermediate_size=width)


LIGHTNING_MODEL_TYPES = ("minimax_text_01", "minimax_m1", "minimax")
"""MiniMax-Text-01 / MiniMax-M1 (vllm/model_executor/models/minimax_text_01.py, v0.10-v0.23; "minimax" is
transformers' own MiniMaxConfig, which spells the pattern as layer_types)."""


def _lightning_layers(f: _Fields) -> tuple[list[AttentionLayer], MambaDims]:
    """MiniMax's lightning-attention models: ``attn_type_list`` (0 lightning, 1 softmax) or ``layer_types``
    ("linear_attention" / "full_attention") per layer. A lightning layer keeps one state of
    heads/TP × head_dim × head_dim in the model dtype (``linear_attention_state_shape``/``_dtype``); a
    softmax layer full attention of num_key_value_heads × head_dim (the config's head_dim; vLLM never
    passes the stored sliding window to it)."""
    n = f.int("num_hidden_layers", maximum=10_000)
    heads, kv_heads = _head_counts(f)
    head = f.int("head_dim")
    given = f.list("attn_type_list", n)
    for i, t in enumerate((given or [])[:n]):
        if t not in (0, 1) or isinstance(t, bool):
            raise ConfigError(f.path(f"attn_type_list[{i}]"), Text("config.attn_type_code", value=show(t)))
    # layer_types: the config's own (transformers' MiniMaxConfig), or config_aliases._minimax_fields'
    # from a valid attn_type_list
    listed = f.list("layer_types", n)
    if listed is None:
        raise ConfigError(f.path("attn_type_list"), Text("config.missing"))
    types = _layer_type_names(f, listed, n)
    layers = _typed_layers(f, types, ("linear_attention",), ("full_attention",),
                           AttentionLayer("full", kv_heads, head, head))
    return layers, MambaDims("lightning", conv_kernel=0, num_heads=heads, head_dim=head)


ZAMBA2_DEFAULTS = {"mamba_d_state": 64, "mamba_d_conv": 4, "mamba_expand": 2, "mamba_ngroups": 1,
                   "n_mamba_heads": 8, "chunk_size": 256}
"""transformers' Zamba2Config defaults for the state sizes a config.json may leave out."""


def _zamba2_layers(f: _Fields) -> tuple[list[AttentionLayer], MambaDims]:
    """Zamba2: a Mamba2 mixer in every layer, and in each "hybrid" layer of ``layers_block_type`` also a
    shared transformer block whose attention keeps a cache of its own (vllm/model_executor/models/zamba2.py:
    one Attention per hybrid layer though the weights are shared). The attention is multi-head over the
    2 × hidden concatenation: num_attention_heads KV heads of 2 × hidden / heads (transformers' Zamba2Config
    recomputes attention_head_dim so). The mixer is mamba_expand × hidden wide, n_mamba_heads heads.
    The first Zamba2 configs ("m"/"g" layer codes, ``state_size``) are refused: Zamba2Config reads none of
    those keys, so vLLM would build a model without attention."""
    types = f.list("layers_block_type")
    if types is None:
        raise ConfigError(f.path("layers_block_type"), Text("config.missing"))
    if f.has("state_size") or any(t in ("m", "g") for t in types):
        raise UnsupportedModelError(Text("model.zamba2_old_config"))
    if len(types) > 10_000:
        raise ConfigError(f.path("layers_block_type"), Text("config.too_many_layers", count=len(types)))
    heads = f.int("num_attention_heads")
    hidden = f.int("hidden_size")
    if 2 * hidden % heads:
        raise ConfigError(f.path("num_attention_heads"), Text("config.divides", total=2 * hidden, value=show(heads)))
    head = 2 * hidden // heads
    layers = []
    for i, t in enumerate(types):
        if t == "hybrid":
            layers.append(AttentionLayer("full", heads, head, head))
        elif t == "mamba":
            layers.append(AttentionLayer("none"))
        else:
            raise ConfigError(f.path(f"layers_block_type[{i}]"), Text("config.unknown_layer_type", value=show(t)))
    d = {k: f.int(k, v, maximum=100_000) for k, v in ZAMBA2_DEFAULTS.items()}
    inner = d["mamba_expand"] * hidden
    if inner % d["n_mamba_heads"]:
        raise ConfigError(f.path("n_mamba_heads"), Text("config.divides", total=inner, value=show(d["n_mamba_heads"])))
    return layers, MambaDims("mamba2", conv_kernel=d["mamba_d_conv"], num_heads=d["n_mamba_heads"],
                             head_dim=inner // d["n_mamba_heads"], state_size=d["mamba_d_state"],
                             n_groups=d["mamba_ngroups"], intermediate_size=inner,
                             ssm_dtype=_ssm_dtype(f, "mamba_ssm_cache_dtype"), chunk_size=d["chunk_size"])


FALCON_H1_CHUNK_DEFAULT = 256
"""transformers' FalconH1Config ``mamba_chunk_size`` when config.json leaves it out."""


def _falcon_h1_layers(f: _Fields) -> tuple[list[AttentionLayer], MambaDims]:
    """Falcon-H1: every decoder layer runs a Mamba2 mixer beside its attention
    (vllm/model_executor/models/falcon_h1.py ``FalconH1ParallelHybrid``), so L layers keep L attention
    caches and L Mamba states (``ModelArch.parallel_state``; vLLM names the mixers model.{L+i}.mixer).
    The attention head is the config's head_dim (hidden / heads only without one). The mixer is
    ``mamba_d_ssm`` wide: transformers' default 1,024 when the key is missing, mamba_expand × hidden when
    it is null; its 'all'-mode chunk is ``mamba_chunk_size`` (256 by the class default)."""
    n = f.int("num_hidden_layers", maximum=10_000)
    heads, kv_heads = _head_counts(f)
    head = f.int("head_dim", 0, minimum=0) or _head_from_hidden(f, heads)
    window = f.opt_int("sliding_window", maximum=10**8)
    layer = AttentionLayer("sliding_window", kv_heads, head, head, window=window) if window \
        else AttentionLayer("full", kv_heads, head, head)
    if "mamba_d_ssm" in f.data and f.raw("mamba_d_ssm") is None:     # expand × hidden: both must be numbers
        expand = f.raw("mamba_expand", 2)
        if isinstance(expand, bool) or not isinstance(expand, (int, float)) or not 0 < expand <= 64:
            raise ConfigError(f.path("mamba_expand"), Text("config.between", minimum=1, maximum=64, value=show(expand)))
        f.int("hidden_size")
        inner = falcon_h1_mixer_width(f.data)
    else:
        inner = f.int("mamba_d_ssm", falcon_h1_mixer_width(f.data))
    names = {"conv": "mamba_d_conv", "heads": "mamba_n_heads", "head_dim": "mamba_d_head",
             "state": "mamba_d_state", "groups": "mamba_n_groups"}
    dims = _mamba2_dims(f, names, inner)
    if not f.has("mamba_chunk_size") and not f.has("chunk_size"):
        dims = replace(dims, chunk_size=FALCON_H1_CHUNK_DEFAULT)
    return [layer] * n, dims


def _jamba_layers(f: _Fields) -> tuple[list[AttentionLayer], MambaDims]:
    """Jamba: Mamba-1 layers with an attention layer where i % attn_layer_period == attn_layer_offset
    (transformers' JambaConfig ``layers_block_type``, which vllm/model_executor/models/jamba.py reads; 8 and
    4 by default). The attention head is hidden_size / num_attention_heads whatever the config says
    (JambaAttention); a Mamba-1 layer keeps a conv state of (d_conv − 1) × intermediate/TP values and an
    SSM state of intermediate/TP × d_state, intermediate = mamba_expand × hidden_size, both in the model
    dtype unless --mamba-ssm-cache-dtype says otherwise (``MambaStateShapeCalculator.mamba1_state_shape``)."""
    n = f.int("num_hidden_layers", maximum=10_000)
    heads, kv_heads = _head_counts(f)
    if f.raw("sliding_window") is not None:
        raise UnsupportedModelError(Text("model.jamba_sliding_window", value=show(f.raw("sliding_window"))))
    f.int("attn_layer_period", 8, maximum=10_000)
    f.int("attn_layer_offset", 4, minimum=0, maximum=10_000)
    head = _head_from_hidden(f, heads)
    # layer_types: config_aliases._jamba_fields fills them from the period and offset, now known valid
    layers = _typed_layers(f, f.list("layer_types", n)[:n], ("mamba1",), ("full_attention",),
                           AttentionLayer("full", kv_heads, head, head))
    expand = f.int("mamba_expand", 2, maximum=64)
    chunk = f.opt_int("mamba_chunk_size", maximum=10**6) or f.opt_int("chunk_size", maximum=10**6) or 2048
    return layers, MambaDims("mamba1", conv_kernel=f.int("mamba_d_conv", 4, minimum=2, maximum=64),
                             state_size=f.int("mamba_d_state", 16, maximum=100_000),
                             intermediate_size=expand * f.int("hidden_size"),
                             ssm_dtype=_ssm_dtype(f, "mamba_ssm_cache_dtype"), chunk_size=chunk)


def _kimi_linear_layers(f: _Fields) -> tuple[list[AttentionLayer], MambaDims]:
    """Kimi Linear: KDA (Kimi delta attention) layers among MLA layers.

    Mirrors vllm/model_executor/models/kimi_linear.py (v0.11.1-v0.26; vllm/models/kimi_k3 from v0.27):
    layer i is KDA when i + 1 is in ``linear_attn_config.kda_layers`` (the list counts from 1:
    KimiLinearConfig.is_kda_layer), every other layer MLA with a latent of kv_lora_rank +
    qk_rope_head_dim. A KDA layer's state is a gated delta net's with as many key heads as value
    heads: three short convolutions over num_heads × head_dim channels / TP each, (kernel − 1) rows
    in the model dtype, and a recurrent state of num_heads/TP × head_dim × head_dim in float32
    (``MambaStateShapeCalculator.kda_state_shape``, ``MambaStateDtypeCalculator.kda_state_dtype``)."""
    n = f.int("num_hidden_layers", maximum=10_000)
    raw = f.raw("linear_attn_config")
    if not isinstance(raw, dict):
        raise ConfigError(f.path("linear_attn_config"),
                          Text("config.missing") if raw is None else Text("config.object_got", type=type(raw).__name__))
    g = _Fields(raw, f.path("linear_attn_config") + ".")
    kda = g.list("kda_layers")
    if kda is None:
        raise ConfigError(g.path("kda_layers"), Text("config.missing"))
    for i, k in enumerate(kda):
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= n:
            raise ConfigError(g.path(f"kda_layers[{i}]"), Text("config.kda_layer_number", value=show(k), layers=n))
    # layer_types: config_aliases._kimi_linear_fields fills them from kda_layers, now known valid
    heads = g.int("num_heads", maximum=100_000)
    head_dim = g.int("head_dim", maximum=100_000)
    kernel = g.int("short_conv_kernel_size", minimum=2, maximum=64)
    latent = AttentionLayer("mla", 1, f.int("kv_lora_rank") + f.int("qk_rope_head_dim"), 0)
    layers = _typed_layers(f, f.list("layer_types", n)[:n], ("kda",), ("full_attention",), latent)
    return layers, MambaDims("kda", conv_kernel=kernel, num_heads=heads, head_dim=head_dim,
                             num_k_heads=heads, head_k_dim=head_dim, ssm_dtype="float32")


def _mamba2_dims(f: _Fields, names: dict[str, str], intermediate: int) -> MambaDims:
    chunk = f.opt_int("mamba_chunk_size", maximum=10**6) or f.opt_int("chunk_size", maximum=10**6) or 2048
    return MambaDims(
        "mamba2", conv_kernel=f.int(names["conv"]), num_heads=f.int(names["heads"]),
        head_dim=f.int(names["head_dim"]), state_size=f.int(names["state"]),
        n_groups=f.int(names["groups"], 1), intermediate_size=intermediate,
        ssm_dtype=_ssm_dtype(f, "mamba_ssm_cache_dtype"), chunk_size=chunk)


def _nemotron_h_layers(f: _Fields) -> tuple[list[AttentionLayer], MambaDims]:
    """Nemotron-H: ``hybrid_override_pattern`` — M Mamba2, * attention, - MLP, E MoE."""
    pattern = f.str("hybrid_override_pattern")
    if not pattern:
        raise ConfigError(f.path("hybrid_override_pattern"), Text("config.nemotron_h_pattern"))
    if len(pattern) > 10_000:
        raise ConfigError(f.path("hybrid_override_pattern"),
                          Text("config.too_many_layers", count=len(pattern)))
    heads, kv_heads = _head_counts(f)
    head = f.int("head_dim", 0, minimum=0) or f.int("attention_head_dim", 0, minimum=0) or \
        _head_from_hidden(f, heads)
    layers = []
    for i, c in enumerate(pattern):
        if c == "M":
            layers.append(AttentionLayer("mamba"))
        elif c == "*":
            layers.append(AttentionLayer("full", kv_heads, head, head))
        elif c in "-E":
            layers.append(AttentionLayer("none"))
        else:
            raise ConfigError(f.path("hybrid_override_pattern"),
                              Text("config.unknown_layer_code", code=show(c), index=i))
    names = {"conv": "conv_kernel", "heads": "mamba_num_heads", "head_dim": "mamba_head_dim",
             "state": "ssm_state_size", "groups": "n_groups"}
    intermediate = f.int("mamba_num_heads") * f.int("mamba_head_dim")
    return layers, _mamba2_dims(f, names, intermediate)


def _granite_hybrid_layers(f: _Fields) -> tuple[list[AttentionLayer], MambaDims]:
    """Granite 4.0-H (GraniteMoeHybrid): ``layer_types`` of "mamba" / "attention"."""
    n = f.int("num_hidden_layers", maximum=10_000)
    kv_heads, head, head_v = _standard_attention(f)
    types = _layer_type_names(f, f.list("layer_types", n) or ["mamba"] * n, n)
    layers = _typed_layers(f, types[:n], ("mamba",), ("attention",), AttentionLayer("full", kv_heads, head, head_v))
    names = {"conv": "mamba_d_conv", "heads": "mamba_n_heads", "head_dim": "mamba_d_head",
             "state": "mamba_d_state", "groups": "mamba_n_groups"}
    intermediate = f.int("mamba_expand", 2) * f.int("hidden_size")
    return layers, _mamba2_dims(f, names, intermediate)


def _head_from_hidden(f: _Fields, heads: int) -> int:
    """transformers' default head_dim, hidden_size // num_attention_heads, never 0."""
    hidden = f.int("hidden_size")
    if hidden < heads:
        raise ConfigError(f.path("hidden_size"),
                          Text("config.hidden_below_heads", hidden=hidden, heads=heads))
    return hidden // heads


DSV4_RATIOS = (0, 1, 4, 128)
"""The compress ratios vLLM's DeepSeek-V4 builds (0 and 1: the window alone; compressor.py accepts 4
and 128)."""


def _deepseek_v4_layers(f: _Fields) -> tuple[list[AttentionLayer], CompressedDims]:
    """DeepSeek-V4: layer i keeps a ``sliding_window`` of raw entries, and where ``compress_ratios[i]``
    is 4 or 128 a compressed cache besides (vllm/models/deepseek_v4/attention.py reads
    ``max(1, compress_ratios[i])`` for i < num_hidden_layers; the list's extra entries, the MTP and
    DSpark layers', are not read). Its 584-byte entry is hard-coded for head_dim 512 with 64 RoPE
    dims (kv_cache_interface.py), so another geometry is refused rather than sized wrong."""
    n = f.int("num_hidden_layers", maximum=10_000)
    ratios = f.list("compress_ratios", n)
    if ratios is None:
        raise ConfigError(f.path("compress_ratios"), Text("config.dsv4_ratios_missing"))
    for i, r in enumerate(ratios[:n]):
        if isinstance(r, bool) or r not in DSV4_RATIOS:
            raise ConfigError(f.path(f"compress_ratios[{i}]"), Text("config.dsv4_ratio", value=show(r)))
    head_dim = f.int("head_dim", maximum=100_000)
    rope = f.int("qk_rope_head_dim", maximum=100_000)
    if (head_dim, rope) != (512, 64):
        raise UnsupportedModelError(Text("model.dsv4_entry", head_dim=head_dim, rope=rope))
    index_dim = f.int("index_head_dim", maximum=100_000)
    if index_dim % 128:
        raise ConfigError(f.path("index_head_dim"), Text("config.dsv4_index_dim", value=index_dim))
    window = f.int("sliding_window", maximum=10**8)
    dims = CompressedDims(ratios_of(f.data), window, head_dim, index_dim, _deepseek_v4_sizes(f, n))
    if 4 not in dims.ratios:
        # vLLM pads the windows and states to a page of the compressed group, which needs ratio-4 layers'
        # pages (kv_cache_utils.py asserts it before v0.27); the published checkpoints all have them
        raise UnsupportedModelError(Text("model.dsv4_no_ratio_4"))
    return [AttentionLayer("compressed", 1, head_dim, 0, window=window, chunk=r) for r in dims.ratios], dims


def _deepseek_v4_sizes(f: _Fields, n: int) -> int:
    """The sizes DeepSeek-V4's weights and profile read (deepseek_v4_weights, deepseek_v4_profile) beside
    the shared MoE/MLA ones (_ESTIMATE_SIZE_FIELDS): whole numbers in range, or a ConfigError naming them.
    Returns o_groups, which must divide the heads (vLLM splits wo_a into o_groups groups of heads)."""
    heads = f.int("num_attention_heads", maximum=100_000)
    groups = f.int("o_groups", maximum=100_000)
    if heads % groups:
        raise ConfigError(f.path("o_groups"), Text("config.heads_divisor", heads=heads, value=show(groups)))
    f.int("o_lora_rank", maximum=10**6)
    f.int("hc_mult", maximum=64)
    f.int("index_topk", maximum=10**6)
    f.int("num_hash_layers", 0, minimum=0, maximum=n)
    if f.has("dspark_markov_rank"):
        f.int("dspark_markov_rank", maximum=10**6)
    for i, t in enumerate(f.list("dspark_target_layer_ids") or []):
        if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < n:
            raise ConfigError(f.path(f"dspark_target_layer_ids[{i}]"), Text("config.layer_index", value=show(t)))
    expert_dtype = f.str("expert_dtype", "fp4")
    if expert_dtype not in ("fp4", "fp8"):
        raise ConfigError(f.path("expert_dtype"), Text("config.dsv4_expert_dtype", value=show(expert_dtype)))
    return groups


_MLA_MODEL_TYPES = ("deepseek_v2", "deepseek_v3", "deepseek_v32", "deepseek_mtp", "glm_moe_dsa",
                    "glm4_moe_lite", "kimi_k2", "longcat_flash", "pangu_ultra_moe", "dots3_note")
"""``is_deepseek_mla`` (vllm/transformers_utils/model_arch_config_convertor.py): these model
types use MLA when the config sets ``kv_lora_rank``."""


def _nas_layers(f: _Fields) -> list[AttentionLayer]:
    """Nemotron-NAS (DeciLM) ``block_configs``: per layer, attention may be a no-op or a linear
    replacement (no cache), else it has num_attention_heads // n_heads_in_group KV heads."""
    blocks = f.list("block_configs")
    if blocks is not None and len(blocks) > 10_000:
        raise ConfigError(f.path("block_configs"), Text("config.too_many_layers", count=len(blocks)))
    heads = f.int("num_attention_heads")
    head = f.int("head_dim", 0, minimum=0) or _head_from_hidden(f, heads)
    layers = []
    for i, block in enumerate(blocks or []):
        attn = block.get("attention") if isinstance(block, dict) else None
        if not isinstance(attn, dict):
            raise ConfigError(f.path(f"block_configs[{i}].attention"), Text("config.object"))
        ffn = block.get("ffn")
        if ffn is not None:
            if not isinstance(ffn, dict):
                raise ConfigError(f.path(f"block_configs[{i}].ffn"), Text("config.object"))
            mult = ffn.get("ffn_mult")
            if mult is not None and (isinstance(mult, bool) or not isinstance(mult, (int, float))
                                     or not math.isfinite(mult) or not 0 < mult <= 1000):
                raise ConfigError(f.path(f"block_configs[{i}].ffn.ffn_mult"),
                                  Text("config.positive_number", value=show(mult)))
        if attn.get("no_op") or attn.get("replace_with_linear"):
            layers.append(AttentionLayer("none"))
            continue
        group = attn.get("n_heads_in_group")
        if not isinstance(group, int) or isinstance(group, bool) or group <= 0 or heads % group:
            raise ConfigError(f.path(f"block_configs[{i}].attention.n_heads_in_group"),
                              Text("config.heads_divisor", heads=heads, value=show(group)))
        layers.append(AttentionLayer("full", heads // group, head, head))
    if not layers:
        raise ConfigError(f.path("block_configs"), Text("config.empty"))
    return layers


_UNSUPPORTED: dict[str, Text] = {
    "whisper": Text("model.reason.encoder_decoder"),
    "t5": Text("model.reason.encoder_decoder"),
    "bart": Text("model.reason.encoder_decoder"),
    "canary": Text("model.reason.encoder_decoder"),     # NVIDIA Canary speech models, v0.34's canary.py
    "mamba": Text("model.reason.attention_free", model="Mamba"),
    "mamba2": Text("model.reason.attention_free", model="Mamba2"),
    "bert": Text("model.reason.encoder_only"),
    "roberta": Text("model.reason.encoder_only"),
    "xlm-roberta": Text("model.reason.encoder_only"),
}
"""model_type -> what kvcalc cannot reproduce for it (the ``what`` of ``model.unsupported``)."""

STATE_CLASSES_NOT_READ = frozenset({
    "MambaForCausalLM", "Mamba2ForCausalLM", "FalconMambaForCausalLM",
    "MiniMaxVL01ForConditionalGeneration", "Plamo2ForCausalLM", "Phi4FlashForCausalLM",
    "BailingMoeV2_5ForCausalLM", "BailingMoeV3ForCausalLM", "BailingMoeV3VLForConditionalGeneration",
    "AliceAIForCausalLM", "ZayaForCausalLM", "Lfm3ForCausalLM", "Lfm3VlForConditionalGeneration",
    "Lfm3AudioForConditionalGeneration", "MingV3ASRForConditionalGeneration",
})
"""vLLM classes that keep a recurrent state (Mamba, linear attention, short convolution) beside or
instead of a KV cache (``IsHybrid`` / ``IsAttentionFree`` in vllm/model_executor/models, v0.10-v0.34:
v0.34 adds ZAYA, whose convolution state sits beside a KV cache of every KV head on each GPU, LFM3's
short convolutions and Ming-3.0-ASR's KDA layers)
whose state kvcalc does not read: sized as attention alone they would come out wrong, so they are
refused with the reason."""

NEW_LAYOUTS_NOT_READ: dict[str, Text] = {
    "DeepseekV41ForCausalLM": Text("model.reason.layout_indexer_compressed", model="DeepSeek-V4.1"),
    "Glm5NextForCausalLM": Text("model.reason.layout_kda_compressed", model="GLM-5-Next"),
    "Glm5NextForConditionalGeneration": Text("model.reason.layout_kda_compressed", model="GLM-5-Next"),
    "Qwen4ExpForCausalLM": Text("model.reason.layout_conv_compressed", model="Qwen4-Exp"),
    "Qwen4ExpForConditionalGeneration": Text("model.reason.layout_conv_compressed", model="Qwen4-Exp"),
    "KimiK3ForConditionalGeneration": Text("model.reason.layout_kda_mla", model="Kimi K3"),
    "HYV4ForCausalLM": Text("model.reason.layout_indexer", model="Hunyuan V4"),
    "MiniMaxM3SparseForCausalLM": Text("model.reason.layout_indexer", model="MiniMax-M3"),
    "MiniMaxM3SparseForConditionalGeneration": Text("model.reason.layout_indexer", model="MiniMax-M3"),
    "Step5ForCausalLM": Text("model.reason.layout_indexer", model="Step 5"),
    "Step5ForConditionalGeneration": Text("model.reason.layout_indexer", model="Step 5"),
    "InklingForCausalLM": Text("model.reason.layout_conv_sliding", model="Inkling"),
    "InklingForConditionalGeneration": Text("model.reason.layout_conv_sliding", model="Inkling"),
    "MistralLarge4ForCausalLM": Text("model.reason.layout_indexer", model="Mistral Large 4"),
    "KimiK31ForConditionalGeneration": Text("model.reason.layout_kda_mla", model="Kimi K3.1"),
}
"""Architectures of the v0.3x model packages (vllm/models/ in the v0.33 and v0.34 wheels) whose cache is not a
plain KV cache: sparse-attention indexer caches, compressed KV, KDA/GDN or short-convolution state
(the packages' own KV specs). kvcalc reads none of these yet; sized as a standard decoder they would
come out wrong, so they are refused with the reason."""

_NEW_LAYOUT_MODEL_TYPES = {"deepseek_v41": "DeepseekV41ForCausalLM", "hy_v4": "HYV4ForCausalLM",
                           "kimi_k3": "KimiK3ForConditionalGeneration",
                           "minimax_m3_text": "MiniMaxM3SparseForCausalLM",
                           "minimax_m3_vl": "MiniMaxM3SparseForConditionalGeneration",
                           "step5": "Step5ForCausalLM", "step5_vl": "Step5ForConditionalGeneration",
                           "inkling_model": "InklingForCausalLM", "inkling_mm_model": "InklingForConditionalGeneration",
                           "kimi_k31": "KimiK31ForConditionalGeneration",
                           "mistral_large_4": "MistralLarge4ForCausalLM"}
"""The config classes' model_type of those packages (vllm/transformers_utils/configs, vllm/models), for a
config.json whose ``architectures`` is missing or names a variant."""

STATE_FIELDS = ("mamba_d_state", "mamba_d_conv", "mamba_expand", "mamba_num_heads", "ssm_state_size",
                "linear_num_key_heads", "linear_num_value_heads", "linear_conv_kernel_dim", "conv_L_cache",
                "layers_block_type", "attn_layer_period", "mamba_step", "hybrid_override_pattern",
                "layer_group_size")
"""Config fields that only models with a recurrent state carry (Mamba, GDN, short convolution, or a
hybrid layer pattern; ``layer_group_size``: Ling's linear-attention models, whose Ring-mini/flash-linear-2.0
architecture, BailingMoeLinearV2ForCausalLM, no vLLM release registers). A model type kvcalc reads as a
plain decoder that has one is refused rather than sized as attention alone."""

LAYER_GEOMETRY_FIELDS = ("swa_num_key_value_heads", "swa_head_dim", "swa_kv_lora_rank", "swa_v_head_dim",
                         "hybrid_layer_pattern", "linear_attn_config")
"""Config fields that give some layers a cache geometry of their own, which kvcalc's readers do not
take: MiMo-V2-Flash's sliding-window layers (swa_* heads and head size, ``hybrid_layer_pattern``:
vllm/model_executor/models/mimo_v2.py), dots.llm3's sliding-window MLA
(swa_kv_lora_rank: vllm/models/dots3_note), KDA layers (``linear_attn_config``, read for Kimi Linear
alone: ``_kimi_linear_layers``). A config with one is refused rather than sized with a single geometry
for every layer."""

_HYBRID_READERS: dict[str, Any] = {
    **{t: _qwen3_next_layers for t in ("qwen3_next", "qwen3_5", "qwen3_5_text", "qwen3_5_moe", "qwen3_5_moe_text")},
    "olmo_hybrid": lambda f: _qwen3_next_layers(f, olmo=True),
    "lfm2": lambda f: _lfm2_layers(f, "lfm2"), "lfm2_moe": lambda f: _lfm2_layers(f, "lfm2_moe"),
    "kimi_linear": _kimi_linear_layers, "jamba": _jamba_layers, "falcon_h1": _falcon_h1_layers,
    "zamba2": _zamba2_layers, "nemotron_h": _nemotron_h_layers,
    **{t: _lightning_layers for t in LIGHTNING_MODEL_TYPES},
}
"""model_type -> the reader of a hybrid whose state kvcalc reads: (layers, MambaDims)."""

_STATE_MODEL_TYPES = (*_HYBRID_READERS, "granitemoehybrid", "bamba")
"""The hybrid model types whose state kvcalc reads (read_model dispatches each; Granite 4.0-H has its own
branch there and Bamba its own refusal)."""


def _refuse_unread_state(arch: str, model_type: str, f: _Fields) -> None:
    """UnsupportedModelError for a model with recurrent-state layers kvcalc does not read:
    a class in STATE_CLASSES_NOT_READ, or a config with a STATE_FIELDS entry outside the hybrids read."""
    layout_arch = arch if arch in NEW_LAYOUTS_NOT_READ else _NEW_LAYOUT_MODEL_TYPES.get(model_type)
    if layout_arch is not None:
        raise UnsupportedModelError(Text("model.unsupported", what=NEW_LAYOUTS_NOT_READ[layout_arch],
                                         model_type=show(model_type)))
    if arch in STATE_CLASSES_NOT_READ:
        raise UnsupportedModelError(Text("model.unsupported", what=Text("model.reason.state_layers", model=arch),
                                         model_type=show(model_type)))
    geometry_field = next((k for k in LAYER_GEOMETRY_FIELDS if f.raw(k) is not None
                           and not (k == "linear_attn_config" and model_type == "kimi_linear")
                           and not (k == "hybrid_layer_pattern" and model_type == "ricursive")), None)
    if geometry_field is not None:
        raise UnsupportedModelError(Text("model.layer_geometry_fields", model_type=show(model_type),
                                         field=geometry_field))
    if model_type in _STATE_MODEL_TYPES:
        return
    field_name = next((k for k in STATE_FIELDS if f.raw(k) is not None), None)
    if field_name is not None:
        raise UnsupportedModelError(Text("model.state_fields", model_type=show(model_type), field=field_name))


def _mtp_layers(f: _Fields, base: list[AttentionLayer]) -> tuple[AttentionLayer, ...]:
    """Draft layers an MTP checkpoint carries (DeepSeek ``num_nextn_predict_layers``, Qwen3-Next
    ``num_nextn_predict_layers`` / Qwen3.5 ``mtp_num_hidden_layers``, GLM-4.5 …). Each has the
    cache shape of the model's full-attention layers."""
    count = 0
    for key in ("num_nextn_predict_layers", "mtp_num_hidden_layers", "num_mtp_layers"):
        if f.has(key):
            count = f.int(key, minimum=0, maximum=64)
            break
    else:
        # Qwen3-Next's configs name no count: vLLM's Qwen3NextMTP builds one layer
        # (vllm/model_executor/models/qwen3_next_mtp.py getattr(config, "num_nextn_predict_layers", 1))
        count = 1 if f.str("model_type") == "qwen3_next" else 0
    if f.str("model_type") == "kimi_linear":
        count = 0   # vLLM's Kimi Linear has no MTP module (kimi_linear.py; vllm/models/kimi_k3)
    template = next((l for l in base if l.kind in ("full", "mla")), None)
    if f.str("model_type") == "deepseek_v4":    # a draft layer keeps the window alone (ratio 1)
        template = next((replace(l, chunk=1) for l in base if l.kind == "compressed"), None)
    if not count or template is None:
        return ()
    return tuple(template for _ in range(count))


_ESTIMATE_SIZE_FIELDS = (
    "intermediate_size", "intermediate_size_mlp", "moe_intermediate_size",
    "shared_expert_intermediate_size", "moe_shared_expert_intermediate_size", "moe_latent_size",
    "vocab_size", "vocab_size_per_layer_input", "hidden_size_per_layer_input",
    "num_local_experts", "num_experts", "n_routed_experts", "n_shared_experts",
    "num_experts_per_tok", "experts_per_token", "top_k_experts", "first_k_dense_replace",
    "moe_layer_freq", "decoder_sparse_step", "interleave_moe_layer_step",
    "q_lora_rank", "kv_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim",
    "index_n_heads", "index_head_dim",
    "global_head_dim", "num_global_key_value_heads", "conv_kernel", "n_groups",
    "mamba_num_heads", "mamba_head_dim", "ssm_state_size", "mamba_n_heads", "mamba_d_head",
    "mamba_d_state", "mamba_n_groups", "mamba_d_conv", "linear_num_key_heads",
    "linear_num_value_heads", "linear_key_head_dim", "linear_value_head_dim",
    "linear_conv_kernel_dim")
"""Sizes the weight and activation estimates (params.py, reserve.py) read from the language
model's config."""

_TOWER_SIZE_FIELDS = ("hidden_size", "embed_dim", "width", "d_model", "num_hidden_layers", "depth",
                      "num_layers", "intermediate_size", "mlp_dim", "patch_size", "out_hidden_size")


def _check_size(d: dict[str, Any], key: str, path: str) -> None:
    value = d.get(key)
    if value is None or (isinstance(value, list) and key == "intermediate_size"):
        return  # Gemma 3n gives one intermediate size per layer
    _Fields(d, path).int(key, minimum=1 if key == "vocab_size" else 0, maximum=10**9)


def _check_estimate_fields(config: dict[str, Any], f: _Fields) -> None:
    """Validate what the weight, activation and quantization estimates read, so a malformed
    value is a ConfigError naming it, not a crash or a silently ignored size."""
    text = config.get("text_config") if isinstance(config.get("text_config"), dict) else config
    scopes = [(f.data, f.prefix)]
    if text is not f.data:
        scopes.append((text, "text_config." if text is not config else ""))
    for d, prefix in scopes:
        for key in _ESTIMATE_SIZE_FIELDS:
            _check_size(d, key, prefix)
        g = _Fields(d, prefix)
        g.bool("tie_word_embeddings")
        if d.get("num_hidden_layers") is not None:  # params.py loops over it, whatever the layout read
            g.int("num_hidden_layers", minimum=0, maximum=10_000)
        prf = d.get("partial_rotary_factor")
        if prf is not None and (isinstance(prf, bool) or not isinstance(prf, (int, float))
                                or not math.isfinite(prf) or not 0 < prf <= 1):
            raise ConfigError(g.path("partial_rotary_factor"), Text("config.fraction", value=show(prf)))
        only = g.list("mlp_only_layers")
        for i, value in enumerate(only or []):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(g.path(f"mlp_only_layers[{i}]"),
                                  Text("config.layer_index", value=show(value)))
    for key in ("vision_config", "audio_config"):
        tower = config.get(key)
        if tower is None:
            continue
        if not isinstance(tower, dict):
            raise ConfigError(key, Text("config.object_got", type=type(tower).__name__))
        for size in _TOWER_SIZE_FIELDS:
            value = tower.get(size)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                _check_size(tower, size, key + ".")
    _check_quantization(config)


def _check_quantization(config: dict[str, Any]) -> None:
    """``quantization_config`` (top level or in text_config) as weights.py reads it."""
    for prefix, holder in (("", config), ("text_config.", config.get("text_config"))):
        if not isinstance(holder, dict) or holder.get("quantization_config") is None:
            continue
        q = holder["quantization_config"]
        path = prefix + "quantization_config"
        if not isinstance(q, dict):
            raise ConfigError(path, Text("config.object_got", type=type(q).__name__))
        g = _Fields(q, path + ".")
        g.str("quant_method")
        for key in ("quantization", "config_groups", "kv_cache_scheme"):
            value = q.get(key)
            if value is not None and not isinstance(value, (dict, str) if key == "kv_cache_scheme" else dict):
                raise ConfigError(g.path(key), Text("config.object_got", type=type(value).__name__))
        g.list("ignore")
        for key in ("bits", "w_bit"):
            if g.has(key):
                g.int(key, minimum=1, maximum=64)
        for key in ("group_size", "q_group_size"):
            if g.has(key) and g.raw(key) != -1:
                g.int(key, minimum=1, maximum=10**9)
        for name, group in (q.get("config_groups") or {}).items():
            if not isinstance(group, dict):
                raise ConfigError(g.path(f"config_groups.{name}"), Text("config.json_object"))
            weights = group.get("weights")
            if weights is None:
                continue
            if not isinstance(weights, dict):
                raise ConfigError(g.path(f"config_groups.{name}.weights"), Text("config.json_object"))
            w = _Fields(weights, g.path(f"config_groups.{name}.weights."))
            if w.has("num_bits"):
                w.int("num_bits", minimum=1, maximum=64)
            if w.has("group_size") and w.raw("group_size") != -1:
                w.int("group_size", minimum=1, maximum=10**9)


SPECULATORS_EAGLE_TYPES = ("eagle3", "peagle")
"""speculators_model_type values vLLM reads (vllm/transformers_utils/configs/speculators/algos.py)."""


def speculators_view(config: dict[str, Any]) -> dict[str, Any]:
    """A drafter config in the speculators format (RedHatAI/*speculator.eagle3: the layer's shape in
    ``transformer_layer_config``, the head's vocabulary in ``draft_vocab_size``) as vLLM reads it:
    the layer config with the EAGLE-3 fields moved in (vllm/transformers_utils/configs/speculators/
    ``SpeculatorsConfig.extract_transformers_pre_trained_config`` and ``update_eagle3``). Any other
    config is returned as it is."""
    kind = config.get("speculators_model_type")
    if kind is None:
        return _checked_drafter(config)
    if kind not in SPECULATORS_EAGLE_TYPES:
        raise UnsupportedModelError(Text("model.unsupported", what=Text("model.reason.speculators"),
                                         model_type=show(kind)))
    layer = config.get("transformer_layer_config")
    if not isinstance(layer, dict):
        raise ConfigError("transformer_layer_config",
                          Text("config.object_got", type=type(layer).__name__))
    view = dict(layer)
    for key in ("draft_vocab_size", "target_hidden_size"):
        if config.get(key) is not None:
            view[key] = config[key]
    return _checked_drafter(view)


def _checked_drafter(config: dict[str, Any]) -> dict[str, Any]:
    """The sizes only a drafter has (its head's vocabulary, the target width its fc reads, how many
    of the target's hidden states it takes) are whole numbers in range, or a ConfigError names them."""
    f = _Fields(config)
    for key in ("draft_vocab_size", "target_hidden_size", "num_aux_hidden_states"):
        if config.get(key) is not None:
            f.int(key, minimum=1, maximum=10**9)
    return config


def read_model(config: dict[str, Any]) -> ModelArch:
    """Parse a config.json dict. Raises ConfigError / UnsupportedModelError."""
    f = _text_fields(config)
    top = _Fields(config)
    archs = top.list("architectures") or f.list("architectures") or []
    if archs and not isinstance(archs[0], str):
        raise ConfigError("architectures[0]", Text("config.class_name", value=show(archs[0])))
    arch = archs[0] if archs else ""
    model_type = (f.str("model_type") or top.str("model_type") or "").lower()
    outer_type = (top.str("model_type") or "").lower()
    for key in (model_type, outer_type):
        if key in _UNSUPPORTED:
            raise UnsupportedModelError(
                Text("model.unsupported", what=_UNSUPPORTED[key], model_type=repr(key)))
    if not arch and not model_type:
        raise ConfigError("architectures", Text("config.no_architecture"))
    _refuse_unread_state(arch, model_type, f)
    notes: list[str] = []
    mamba = None
    hybrid_class = False
    index_dim = None
    compressed = None
    if model_type == "deepseek_v4":
        if arch not in ("", "DeepseekV4ForCausalLM"):
            raise UnsupportedModelError(Text("model.unsupported", what=Text("model.reason.dsv4_vision"),
                                             model_type=show(model_type)))
        layers, compressed = _deepseek_v4_layers(f)
    elif model_type in _MLA_MODEL_TYPES and f.has("kv_lora_rank"):
        n = f.int("num_hidden_layers", maximum=10_000)
        layers = _mla_layers(f, n)
        if f.has("index_topk"):
            index_dim = f.int("index_head_dim", 128)
    elif model_type == "nemotron-nas" or f.has("block_configs"):
        layers = _nas_layers(f)
    elif model_type in GEMMA4_TYPES:
        layers = _gemma4_layers(f)
    elif model_type in ("llama4", "llama4_text"):
        layers = _llama4_layers(f)
    elif model_type in _HYBRID_READERS:
        layers, mamba = _HYBRID_READERS[model_type](f)
        hybrid_class = True
    elif model_type in ("granitemoehybrid", "bamba"):
        if model_type == "bamba":
            raise UnsupportedModelError(Text("model.bamba"))
        layers, mamba = _granite_hybrid_layers(f)
        hybrid_class = True
        if not any(l.kind == "mamba" for l in layers):
            notes.append(Text("model.note_attention_only_hybrid"))
    else:
        layers = _decoder_layers(f, model_type)
    if f.has("num_kv_shared_layers") and f.int("num_kv_shared_layers", minimum=0):
        layers = _kv_shared(layers, f.int("num_kv_shared_layers", minimum=0), f)
    if not any(l.kind not in ("none",) for l in layers):
        raise UnsupportedModelError(Text("model.no_cache_layers"))
    _check_estimate_fields(config, f)
    ckpt_kv, method = _checkpoint_kv_dtype(config)
    heads = f.int("num_attention_heads", 0, minimum=0) if f.has("num_attention_heads") else 0
    return ModelArch(
        architecture=arch or model_type,
        model_type=model_type,
        layers=tuple(layers),
        torch_dtype=(f.str("torch_dtype") or f.str("dtype") or top.str("torch_dtype")
                     or top.str("dtype") or None),
        max_position_embeddings=f.opt_int("max_position_embeddings", maximum=10**8),
        derived_max_model_len=_derived_max_len(f, model_type, yarn_scaled=False),
        derived_max_model_len_yarn_scaled=_derived_max_len(f, model_type, yarn_scaled=True),
        longrope_default_max_len=_longrope_default_len(f),
        mamba=mamba,
        hybrid_mamba_class=hybrid_class,
        parallel_state=model_type in ("falcon_h1", "zamba2"),
        mtp_layers=_mtp_layers(f, layers),
        compressed=compressed,
        checkpoint_kv_dtype=ckpt_kv,
        quant_method=method,
        sparse_mla_index_head_dim=index_dim,
        mla_qk_nope_head_dim=f.int("qk_nope_head_dim", minimum=0) if f.has("qk_nope_head_dim") else 0,
        num_attention_heads=heads,
        hidden_size=f.int("hidden_size") if f.has("hidden_size") else 0,
        # a count of 0 is no MoE (granite-4.0-micro's num_local_experts: 0), as vLLM's get_num_experts
        is_moe=any(isinstance(f.raw(k), int) and not isinstance(f.raw(k), bool) and f.raw(k) > 0
                   for k in ("num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts")),
        notes=tuple(notes),
    )
