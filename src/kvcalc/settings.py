"""The settings of one calculation, as ``vllm serve`` flags, validated and resolved.

``Settings`` holds what the user chose (``None`` = vLLM's default); ``resolve`` fills in
the chosen release's defaults and checks every value the way vLLM would, reporting all
bad fields at once.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field, replace
from typing import Any

from . import textdepth
from .dtypes import KV_CACHE_DTYPE_CHOICES
from .errors import SettingsError, VersionError
from .messages import Text
from .hf_config import max_len_limit, show
from .versions import (BatchDefaults, Rule, Version, applies, default_batch_limits,
                       default_gpu_memory_utilization, parse_version, runs_on_v1_for)

VALID_BLOCK_SIZES = (1, 8, 16, 32, 64, 128, 256)
"""``BlockSize`` choices of ``--block-size`` (vllm/config/cache.py) before v0.18; from v0.18 any
multiple of 16 as well (Rule.BLOCK_SIZE_ANY_MULTIPLE_OF_16, ``block_size_accepted``)."""


def block_size_accepted(value: Any, version: Version | None) -> bool:
    """Whether vLLM ``version`` takes ``--block-size value``: the ``BlockSize`` choices, and from
    v0.18 any positive multiple of 16 (the block sizes its CUDA and ROCm attention backends run)."""
    if not _is_int(value):
        return False
    if value in VALID_BLOCK_SIZES:
        return True
    return version is not None and applies(Rule.BLOCK_SIZE_ANY_MULTIPLE_OF_16, version) and \
        value > 0 and value % 16 == 0


def block_size_refused(value: Any, version: Version | None) -> Text:
    """Why ``--block-size value`` is refused, naming what ``version`` takes."""
    listed = ", ".join(map(str, VALID_BLOCK_SIZES))
    if version is not None and applies(Rule.BLOCK_SIZE_ANY_MULTIPLE_OF_16, version):
        return Text("settings.block_size_multiple", value=show(value), allowed=listed)
    return Text("settings.not_accepted", value=show(value), allowed=listed)

MAMBA_SSM_CACHE_DTYPES = ("auto", "float32", "float16", "bfloat16")
"""``MambaDType`` choices of ``--mamba-ssm-cache-dtype`` (vllm/config/cache.py): "auto" and "float32"
in every release, "float16" from v0.13 (Rule.MAMBA_DTYPE_FLOAT16), "bfloat16" from v0.22
(Rule.MAMBA_DTYPE_BFLOAT16)."""

COMPILE_CACHE_STATES = ("cold", "warm")
"""What the torch.compile cache (~/.cache/vllm, VLLM_CACHE_ROOT) holds when vLLM starts: "cold"
on a first start of these settings (or in a fresh container without that directory on a volume),
"warm" on a restart that loads the compiled graphs. Not a vLLM flag; unset: not known."""

PERFORMANCE_MODES = ("balanced", "interactivity", "throughput")
"""``--performance-mode`` choices (vllm/config/vllm.py ``PerformanceMode``, from v0.17:
Rule.PERFORMANCE_MODE); "balanced" is vLLM's default."""

CUDAGRAPH_MODES = ("NONE", "PIECEWISE", "FULL", "FULL_DECODE_ONLY", "FULL_AND_PIECEWISE")
"""The compilation config's ``cudagraph_mode`` choices (vllm/config/compilation.py ``CUDAGraphMode``,
from v0.10.1: Rule.CUDAGRAPH_MODE_OPTION), read in any case as vLLM does; None: the release's own
(reserve.graphs_for_mode)."""

FORCED_BACKENDS = ("FLASH_ATTN", "FLASHINFER", "TRITON_ATTN", "FLEX_ATTENTION")
"""``--attention-backend`` values kvcalc sizes (vllm/v1/attention/backends/registry.py
``AttentionBackendEnum``: the same names in every release from v0.10; attention.py says what each
changes), read in any case as vLLM does; "auto" (v0.18+, Rule.ATTENTION_BACKEND_AUTO) is no choice."""

BACKEND_ALIASES = {"TRITON_ATTN_VLLM_V1": "TRITON_ATTN"}
"""The Triton backend's name before v0.11 (Rule.TRITON_ATTN_RENAMED): read as TRITON_ATTN, and
spelled as the chosen release spells it in the serve command (servecmd)."""

BACKEND_VARIABLE = "VLLM_ATTENTION_BACKEND"
"""The environment variable that forced the attention backend before --attention-backend (v0.13,
Rule.ATTENTION_BACKEND_FLAG); vLLM reads it through v0.14 (Rule.ATTENTION_BACKEND_ENV_DROPPED)."""

ENV_SETTINGS = {"flashinfer_sampler": "VLLM_USE_FLASHINFER_SAMPLER",
                "cudagraph_memory_profiling": "VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS",
                "rocm_quick_reduce": "VLLM_ROCM_QUICK_REDUCE_QUANTIZATION",
                "model_runner_v2": "VLLM_USE_V2_MODEL_RUNNER",
                "mxfp4_marlin": "VLLM_MXFP4_USE_MARLIN",
                "allow_long_max_model_len": "VLLM_ALLOW_LONG_MAX_MODEL_LEN"}
"""Settings that are environment variables, not flags: a log's "non-default args" never states them."""

VLLM_SPELLING = {
    "tensor_parallel_size": "--tensor-parallel-size", "pipeline_parallel_size": "--pipeline-parallel-size",
    "decode_context_parallel_size": "--decode-context-parallel-size",
    "gpu_memory_utilization": "--gpu-memory-utilization", "kv_cache_dtype": "--kv-cache-dtype",
    "max_model_len": "--max-model-len", "max_num_batched_tokens": "--max-num-batched-tokens",
    "max_num_seqs": "--max-num-seqs", "block_size": "--block-size", "enforce_eager": "--enforce-eager",
    "speculative": "--speculative-config", "enable_prefix_caching": "--enable-prefix-caching",
    "disable_hybrid_kv_cache_manager": "--disable-hybrid-kv-cache-manager",
    "async_scheduling": "--async-scheduling", "skip_mm_profiling": "--skip-mm-profiling",
    "language_model_only": "--language-model-only", "disable_sliding_window": "--disable-sliding-window",
    "max_cudagraph_capture_size": "--max-cudagraph-capture-size",
    "cudagraph_capture_sizes": "--cudagraph-capture-sizes", "performance_mode": "--performance-mode",
    "cudagraph_mode": "--compilation-config.cudagraph_mode", "attention_backend": "--attention-backend",
    "optimization_level": "--optimization-level", "enable_chunked_prefill": "--enable-chunked-prefill",
    "hf_overrides": "--hf-overrides", "data_parallel_size": "--data-parallel-size",
    "enable_expert_parallel": "--enable-expert-parallel", "kv_connector": "--kv-transfer-config",
    "disable_custom_all_reduce": "--disable-custom-all-reduce",
    "limit_mm_per_prompt": "--limit-mm-per-prompt", "mm_processor_kwargs": "--mm-processor-kwargs",
    "mamba_ssm_cache_dtype": "--mamba-ssm-cache-dtype", "kv_cache_memory_bytes": "--kv-cache-memory-bytes",
    "num_gpu_blocks_override": "--num-gpu-blocks-override", "cpu_offload_gb": "--cpu-offload-gb",
    "fp4_indexer_cache": "--attention-config", "enable_extensible_kv_cache": "--enable-extensible-kv-cache",
    **ENV_SETTINGS,
}
"""How vLLM spells each ``Settings`` field that is one of its own: the ``vllm serve`` flag, or the
environment variable. The page names settings by it (a pasted log's differences, what it read).
The other fields are kvcalc's: ``KVCALC_SETTINGS``."""

KVCALC_SETTINGS = ("entrypoint", "vllm_version", "weights", "avg_tokens", "compile_cache", "pinned_memory",
                   "peer_to_peer")
"""``Settings`` fields that are not a vLLM flag or variable: the entry point (``vllm serve`` or the
``LLM`` class), the release, the checkpoint's format, the average request length, the compile
cache's state, pinned host memory (off under WSL2, which no flag says) and whether the GPUs reach
each other directly (peer-to-peer, which the host decides: the catalog's card type guesses it)."""

KV_CONNECTORS = ("NixlConnector",)
"""KV connectors (--kv-transfer-config's ``kv_connector``) kvcalc sizes: NIXL, the prefill/decode
transfer of llm-d and vLLM's disaggregated serving, registers the KV cache the engine sizes with its
agent (vllm/distributed/kv_transfer/kv_connector/v1/nixl/connector.py ``register_kv_caches``, v0.20-v0.28
wheels) and keeps no GPU buffer of its own in public starts (seven prefill/decode starts of Qwen3-8B FP8 on an L4 and one
of Qwen2.5-7B on an RTX 3090, v0.29, land within 1.7% as if it were not there). Connectors that stage or offload blocks (LMCache, the
offloading and P2P NCCL connectors) allocate memory kvcalc does not size, and stay refused."""

ROCM_QUICK_REDUCE_LEVELS = ("NONE", "FP", "INT8", "INT6", "INT4", "INT3")
"""``VLLM_ROCM_QUICK_REDUCE_QUANTIZATION`` choices (vllm/envs.py; INT3 from v0.25, #45666): the codec
of ROCm's quick all-reduce, off ("NONE") by default."""

_BOOL_SETTINGS = ("enforce_eager", "enable_prefix_caching", "disable_hybrid_kv_cache_manager", "async_scheduling",
                  "flashinfer_sampler", "cudagraph_memory_profiling", "model_runner_v2", "mxfp4_marlin",
                  "skip_mm_profiling", "language_model_only", "pinned_memory", "enable_chunked_prefill",
                  "allow_long_max_model_len", "disable_sliding_window", "enable_expert_parallel",
                  "fp4_indexer_cache", "enable_extensible_kv_cache", "disable_custom_all_reduce", "peer_to_peer")


AUTO_MAX_MODEL_LEN = -1
"""``--max-model-len auto`` (or -1), as vLLM stores it (ModelConfig.max_model_len, #29431): serve the
longest length the KV pool holds (Rule.MAX_MODEL_LEN_AUTO; engine._pool finds it)."""

SIZE_SETTINGS = ("max_model_len", "max_num_batched_tokens", "kv_cache_memory_bytes")
"""Flags vLLM reads with ``human_readable_int`` ("32k", "8G"; vllm/engine/arg_utils.py); the other
numeric flags take plain numbers only."""

_DECIMAL_SUFFIX = {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}
_BINARY_SUFFIX = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
_SIZE = re.compile(r"([0-9]+(?:\.[0-9]+)?)([kmgtKMGT])")
_WHOLE = re.compile(r"-?[0-9]+")


def human_readable_int(text: str) -> int | Text:
    """A size typed the way vLLM's ``human_readable_int`` reads it (vllm/utils/argparse_utils.py):
    digits, or a number with k/m/g/t (x 1000: "25.6k" = 25,600) or K/M/G/T (x 1024: "8G" =
    8,589,934,592; whole numbers only). The reason as a Text when it is not one."""
    value = text.strip()
    if len(value) > 30:    # no size that long is a real one (and int() refuses 4,300+ digits)
        return Text("settings.size_text", value=show(text))
    match = _SIZE.fullmatch(value)
    if match:
        number, suffix = match.groups()
        if suffix in _DECIMAL_SUFFIX:
            return int(float(number) * _DECIMAL_SUFFIX[suffix])
        if "." in number:
            return Text("settings.binary_suffix_decimal", value=show(text), suffix=suffix,
                        lower=number + suffix.lower())
        return int(number) * _BINARY_SUFFIX[suffix]
    if _WHOLE.fullmatch(value):
        return int(value)
    return Text("settings.size_text", value=show(text))


def read_sizes(s: "Settings") -> tuple["Settings", dict[str, str]]:
    """``s`` with the sizes typed as text ("32k", "8G", "auto") turned into vLLM's integers, and
    the reason for each one that is not a size, by flag."""
    changes: dict[str, Any] = {}
    problems: dict[str, str] = {}
    for name in SIZE_SETTINGS:
        value = getattr(s, name)
        if not isinstance(value, str):
            continue
        if name == "max_model_len" and value.strip().lower() in ("auto", "-1"):
            changes[name] = AUTO_MAX_MODEL_LEN
            continue
        read = human_readable_int(value)
        if not isinstance(read, Text):
            changes[name] = read
        elif name == "max_model_len" and read.key == "settings.size_text":
            problems[VLLM_SPELLING[name]] = Text("settings.max_len_text", value=show(value))
        else:
            problems[VLLM_SPELLING[name]] = read
    return (replace(s, **changes) if changes else s), problems


@dataclass(frozen=True)
class Speculative:
    """``--speculative-config``: method ("mtp", "eagle", "eagle3", "draft_model", "ngram"),
    tokens per step, and the draft model's config.json when it has its own layers."""

    method: str
    num_speculative_tokens: int | None = 1      # None: not given, vLLM's default (``speculative_tokens``)
    draft_config: dict[str, Any] | None = None
    model: str | None = None


DRAFTER_METHODS = ("eagle", "eagle3", "draft_model", "dflash")
"""Speculative methods whose ``model`` is a drafter with a config.json of its own (and attention
layers with a cache of their own): the "eagle" family of ``spec_family``."""


SUFFIX_TREE_DEPTH = 24
"""``suffix_decoding_max_tree_depth``'s default (vllm/config/speculative.py, v0.33 and v0.34)."""


def speculative_tokens(spec: "Speculative", version: Version) -> int:
    """Tokens drafted a step: as given, else vLLM's default for the method: suffix decoding drafts its tree
    depth (24) before v0.34 and min(8, that depth) from v0.34 (Rule.SUFFIX_DEFAULT_TOKENS_8); kvcalc takes 1
    for the other methods (MTP checkpoints name one draft layer, which vLLM reads as one token)."""
    if spec.num_speculative_tokens is not None:
        return spec.num_speculative_tokens
    if isinstance(spec.method, str) and spec.method.lower() == "suffix":
        return min(8, SUFFIX_TREE_DEPTH) if applies(Rule.SUFFIX_DEFAULT_TOKENS_8, version) else SUFFIX_TREE_DEPTH
    return 1


def spec_family(method: str) -> str | None:
    """Group vLLM's ``SpeculativeMethod`` names (vllm/config/speculative.py) by how they use the
    KV cache: "mtp" (every *_mtp: the checkpoint's own draft layers), "eagle" (a draft model with
    attention layers: eagle, eagle3, draft_model, dflash), "dspark" (DeepSeek-V4's DSpark drafter: window
    layers read from the checkpoint's config), "none" (no draft attention: ngram, ngram_gpu, suffix,
    medusa, mlp_speculator)."""
    m = str(method).lower()
    if m == "mtp" or m.endswith("_mtp"):
        return "mtp"
    if m == "dspark":       # DeepSeek-V4's own drafter (v0.25+): window layers of its own, engine._draft_layers
        return "dspark"
    if m in DRAFTER_METHODS:
        return "eagle"
    if m in ("ngram", "ngram_gpu", "suffix", "medusa", "mlp_speculator"):
        return "none"
    return None


@dataclass(frozen=True)
class Settings:
    tensor_parallel_size: int = 1
    pipeline_parallel_size: int = 1
    data_parallel_size: int = 1                 # engines side by side (-dp); each sizes its own GPUs
    enable_expert_parallel: bool | None = None  # -ep: a MoE model's experts placed whole across the TP GPUs
    disable_custom_all_reduce: bool | None = None   # NCCL runs every TP all-reduce, inside CUDA graphs too
    kv_connector: str | None = None             # --kv-transfer-config's kv_connector (KV_CONNECTORS); None: none
    decode_context_parallel_size: int = 1
    gpu_memory_utilization: float | None = None
    kv_cache_dtype: str = "auto"
    max_model_len: int | None = None
    max_num_batched_tokens: int | None = None
    max_num_seqs: int | None = None
    block_size: int | None = None
    enforce_eager: bool = False
    entrypoint: str = "serve"
    vllm_version: str | None = None
    speculative: Speculative | None = None
    enable_prefix_caching: bool | None = None
    disable_hybrid_kv_cache_manager: bool | None = None
    async_scheduling: bool | None = None
    flashinfer_sampler: bool | None = None  # VLLM_USE_FLASHINFER_SAMPLER=1/0; None: unset
    cudagraph_memory_profiling: bool | None = None  # VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1/0
    rocm_quick_reduce: str | None = None    # VLLM_ROCM_QUICK_REDUCE_QUANTIZATION; None: unset (NONE)
    model_runner_v2: bool | None = None     # VLLM_USE_V2_MODEL_RUNNER=1/0; None: the release's choice
    mxfp4_marlin: bool | None = None        # MXFP4 experts on Marlin (VLLM_MXFP4_USE_MARLIN=1 / --moe-backend marlin)
    fp4_indexer_cache: bool | None = None   # DeepSeek-V4's indexer keys in MXFP4 (--attention-config
                                            # use_fp4_indexer_cache, indexer_kv_dtype "mxfp4" from v0.28)
    allow_long_max_model_len: bool | None = None  # VLLM_ALLOW_LONG_MAX_MODEL_LEN=1: a length past the model's
    skip_mm_profiling: bool | None = None
    language_model_only: bool | None = None   # no vision/audio towers loaded or profiled
    disable_sliding_window: bool | None = None  # every layer full attention, the context capped at the window
    max_cudagraph_capture_size: int | None = None
    cudagraph_capture_sizes: Any = None         # list of ints, or "1 2 4 8" / "1,2,4,8"
    performance_mode: str | None = None         # --performance-mode (PERFORMANCE_MODES); None: not given
    cudagraph_mode: str | None = None           # the compilation config's cudagraph_mode (CUDAGRAPH_MODES)
    attention_backend: str | None = None        # --attention-backend (FORCED_BACKENDS); None: the release's pick
    optimization_level: int | None = None       # -O0 .. -O3 (--optimization-level); None: the default 2
    enable_chunked_prefill: bool | None = None  # False: --no-enable-chunked-prefill (v0.11.1+); None: on
    hf_overrides: Any = None                    # --hf-overrides: a dict or its JSON (hf_overrides.py)
    limit_mm_per_prompt: Any = None             # {"image": 2, "video": 0}, its JSON, or "image=2,video=0"
    mm_processor_kwargs: Any = None             # {"max_pixels": 1003520} or its JSON
    mamba_ssm_cache_dtype: str | None = None
    compile_cache: str | None = None            # "cold" (first start) or "warm" (restart); None: not known
    pinned_memory: bool | None = None           # False under WSL2 (vLLM turns pin_memory off); None: available
    peer_to_peer: bool | None = None            # the GPUs reach each other directly; None: as the catalog's card
    weights: str = "auto"
    avg_tokens: int | None = None
    kv_cache_memory_bytes: int | None = None
    num_gpu_blocks_override: int | None = None    # the pool's block count, whatever the memory
    cpu_offload_gb: float | None = None           # GiB of each GPU's layer weights kept in host memory
    enable_extensible_kv_cache: bool | None = None  # v0.34's pool sized after warm-up; None: the release's choice


@dataclass(frozen=True)
class Resolved:
    """Settings with every default filled in for one release and one GPU."""

    settings: Settings
    version: Version
    gpu_memory_utilization: float
    max_model_len: int
    max_num_batched_tokens: int
    max_num_seqs: int
    batch_defaults: BatchDefaults                  # the limits vLLM fills in (doubled in throughput mode)
    defaults_used: frozenset[str] = field(default_factory=frozenset)
    capture_sizes: tuple[int, ...] | None = None   # --cudagraph-capture-sizes, parsed once
    mm_limits: MmLimits | None = None              # --limit-mm-per-prompt, parsed once
    mm_processor: MmProcessor | None = None        # --mm-processor-kwargs, parsed once
    max_len_limit: int | None = None               # the model's derived max_model_len in this release
    auto_max_model_len: bool = False               # --max-model-len auto: max_model_len is where the fit starts
    extensible_kv_cache: bool = False              # v0.34's pool sized from memory measured after warm-up


def with_batch_floor(r: Resolved, floor: int) -> Resolved:
    """``r`` with a default max_num_batched_tokens raised to ``floor`` where vLLM raises it so one
    multimodal item of a prefix-LM model fits in a batch (Rule.MM_PREFIX_LM_MNBT_FLOOR; the floor
    comes from reserve.mm_prefix_lm_batch_floor), still no more than max_num_seqs × max_model_len.
    The default the serve command compares with moves with it."""
    if r.settings.max_num_batched_tokens is not None or floor <= r.batch_defaults.max_num_batched_tokens \
            or not applies(Rule.MM_PREFIX_LM_MNBT_FLOOR, r.version):
        return r
    mnbt = min(floor, r.max_num_seqs * r.max_model_len)
    return replace(r, max_num_batched_tokens=max(mnbt, r.max_num_batched_tokens),
                   batch_defaults=replace(r.batch_defaults, max_num_batched_tokens=floor))


def _choice_problem(value: Any, choices: tuple[str, ...], rule: Rule, version: Version | None,
                    case_blind: bool = False) -> Text | None:
    """What is wrong with a setting that takes one of ``choices`` (in any case where vLLM reads it
    so: ``case_blind``) and exists from ``rule``'s release; None where nothing is (or it is not set)."""
    if value is None:
        return None
    word = value.strip().upper() if case_blind and isinstance(value, str) else value
    if word not in choices:
        return Text("settings.not_accepted", value=show(value), allowed=", ".join(choices))
    if version is not None and not applies(rule, version):
        info = rule.value
        return Text("settings.flag_needs_release", since=str(info.since), pr=info.pr, version=str(version))
    return None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


MAX_CAPTURE_SIZES = 1024
"""More capture sizes than any default list (at most 67) by far; longer lists are refused."""


def capture_sizes_of(value: Any) -> tuple[int, ...] | None:
    """``--cudagraph-capture-sizes`` as sorted distinct positive ints, from a list of ints or a text
    of numbers separated by spaces or commas ("1 2 4 8"); None when it is not that."""
    if isinstance(value, str):
        parts = [p for p in value.replace(",", " ").split() if p]
        if not parts or len(parts) > MAX_CAPTURE_SIZES or not all(p.isdigit() and len(p) <= 7 for p in parts):
            return None
        items: list[Any] = [int(p) for p in parts]
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        return None
    if not items or len(items) > MAX_CAPTURE_SIZES or not all(_is_int(i) and 1 <= i <= 1_000_000 for i in items):
        return None
    return tuple(sorted(set(items)))


MM_MODALITIES = ("image", "video", "audio")
"""The modalities ``--limit-mm-per-prompt`` counts for the towers kvcalc knows."""
MAX_MM_LIMIT = 1_000_000
MM_DUMMY_OPTIONS = ("count", "num_frames", "width", "height", "length")
"""Keys of a per-modality object (vllm/config/multimodal.py ``BaseDummyOptions`` and its video,
image and audio forms): ``count`` is the limit; the rest shape the warm-up's dummy item."""


@dataclass(frozen=True)
class MmLimits:
    """``--limit-mm-per-prompt``: items of each modality one prompt may carry (vLLM's default for
    a modality not named: 999), the video's ``num_frames`` option (it caps the warm-up's dummy
    video, vllm/multimodal/processing/dummy_inputs.py ``_get_dummy_videos``), and whether other
    dummy-item options were given (width, height, length: they shrink the item too; kvcalc sizes
    the largest one and says so)."""

    counts: tuple[tuple[str, int], ...]
    dummy_options: bool = False   # options beyond the counts and the video's num_frames
    spelled: str = ""          # the flag's value as vLLM reads it (JSON), options included
    video_frames: int | None = None   # the video object's num_frames: the dummy video's frame cap

    def of(self, modality: str) -> int | None:
        return dict(self.counts).get(modality)

    def off(self, modality: str) -> bool:
        return self.of(modality) == 0

    def as_dict(self) -> dict[str, int]:
        return dict(self.counts)


def mm_limits_of(value: Any) -> MmLimits | None:
    """``--limit-mm-per-prompt`` from a dict, its JSON text ('{"image": 2, "video": 0}') or
    ``image=2,video=0``; a modality's value is a count or an object with a ``count``. None when it
    is none of these, names a modality outside ``MM_MODALITIES`` or an unknown option."""
    if isinstance(value, str):
        text = value.strip()
        if not text or len(text) > 1000:
            return None
        if text.startswith("{"):
            try:
                value = textdepth.loads(text)
            except ValueError:
                return None
        else:
            value = {}
            for part in text.split(","):
                key, eq, num = part.partition("=")
                if not eq or not num.strip().isdigit() or len(num.strip()) > 7:
                    return None
                value[key.strip()] = int(num.strip())
    if not isinstance(value, dict) or not value or len(value) > len(MM_MODALITIES):
        return None
    counts: dict[str, int] = {}
    options = False
    frames = None
    given = value
    for key, item in value.items():
        if key not in MM_MODALITIES:
            return None
        if isinstance(item, dict):
            if not set(item) <= set(MM_DUMMY_OPTIONS) or "count" not in item or \
                    not all(_is_int(x) and 0 <= x <= MAX_MM_LIMIT for x in item.values()):
                return None
            extra = set(item) - {"count"}
            if key == "video" and "num_frames" in item:
                frames = item["num_frames"] or None
                extra.discard("num_frames")
            options = options or bool(extra)
            item = item["count"]
        if not _is_int(item) or not 0 <= item <= MAX_MM_LIMIT:
            return None
        counts[key] = item
    return MmLimits(tuple(sorted(counts.items())), options, json.dumps(given, separators=(",", ":")), frames)


GEMMA4_SOFT_TOKENS = (70, 140, 280, 560, 1120)
"""``max_soft_tokens`` values Gemma 4's processor takes (vllm/model_executor/models/gemma4_mm.py
``_SUPPORTED_SOFT_TOKENS``); vLLM's warm-up ignores any other."""
MAX_PROCESSOR_PIXELS = 1 << 30


@dataclass(frozen=True)
class MmProcessor:
    """``--mm-processor-kwargs``: the keys that size the warm-up's largest image — ``max_pixels``
    (or ``size.longest_edge``) for the Qwen-VL processors, ``max_soft_tokens`` for Gemma 4 — and
    the other keys given, which kvcalc passes on but does not model."""

    max_pixels: int | None = None
    max_soft_tokens: int | None = None
    unmodelled: tuple[str, ...] = ()
    spelled: str = ""


def processor_max_pixels(options: dict[str, Any]) -> Any:
    """The image size limit in a processor's options, as the Qwen-VL processors read it:
    ``max_pixels``, else ``size.longest_edge`` (the raw value; ``max_pixels_ok`` checks it)."""
    pixels = options.get("max_pixels")
    size = options.get("size")
    if pixels is None and isinstance(size, dict):
        pixels = size.get("longest_edge")
    return pixels


def max_pixels_ok(pixels: Any) -> bool:
    return _is_int(pixels) and 1 <= pixels <= MAX_PROCESSOR_PIXELS


def mm_processor_of(value: Any) -> MmProcessor | None:
    """``--mm-processor-kwargs`` from a dict or its JSON text; None when it is not a JSON object or
    a size key is not a whole number in range."""
    if isinstance(value, str):
        if not value.strip() or len(value) > 2000:
            return None
        try:
            value = textdepth.loads(value)
        except ValueError:
            return None
    if not isinstance(value, dict) or not value or len(value) > 32 or not all(isinstance(k, str) for k in value):
        return None
    pixels = processor_max_pixels(value)
    if pixels is not None and not max_pixels_ok(pixels):
        return None
    soft = value.get("max_soft_tokens")
    if soft is not None and not _is_int(soft):
        return None
    known = {"max_pixels", "max_soft_tokens"}
    if "max_pixels" not in value and pixels is not None:
        known.add("size")                       # its longest_edge is the limit
    others = tuple(sorted(k for k in value if k not in known))
    if soft is not None and soft not in GEMMA4_SOFT_TOKENS:
        others, soft = tuple(sorted((*others, "max_soft_tokens"))), None
    try:
        # strict JSON: vLLM parses the flag as JSON, and the page's reply must stay strict JSON too
        spelled = json.dumps(value, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        return None
    return MmProcessor(pixels, soft, others, spelled)


NO_LENGTH_KEY_MAX_LEN = 2048
"""vLLM's max_model_len for a config.json with none of the length keys (BLOOM's ALiBi configs, some
custom ones): ``_get_and_verify_max_len`` (vllm/config/model.py) warns "Assuming the model's maximum
length is 2048" and takes a --max-model-len given as it is, without a limit to check it against."""


def resolve(s: Settings, device_total_bytes: int, device_name: str, derived_max_len: int | None,
            unified_memory: bool = False, yarn_scaled_max_len: int | None = None,
            longrope_default_len: int | None = None, window_cap: int | None = None,
            compute_capability: str = "", platform: str = "cuda") -> Resolved:
    """Every setting with the release's defaults filled in, or SettingsError naming each bad flag.
    ``derived_max_len`` is the model's length limit; ``yarn_scaled_max_len`` the limit releases
    before v0.30 derive when it differs (hf_config.max_len_limit picks by release);
    ``longrope_default_len`` a LongRoPE model's shorter default (Rule.LONGROPE_DEFAULT_ORIGINAL_LEN);
    ``window_cap`` the sliding window --disable-sliding-window capped ``derived_max_len`` at, which a
    refused length names; ``platform`` "cuda" or "rocm"."""
    s, problems = read_sizes(s)
    version = None
    if s.vllm_version is not None and (not isinstance(s.vllm_version, str) or len(s.vllm_version) > 64):
        problems["--vllm-version"] = Text("settings.release", value=show(s.vllm_version))
    else:
        try:
            version = parse_version(s.vllm_version)
        except VersionError as exc:
            problems["--vllm-version"] = exc.args[0]  # Text: parse_version raises with one

    def need_int(flag: str, value: Any, lo: int, hi: int) -> None:
        if value is None or flag in problems:   # a size read_sizes could not read: its own reason
            return
        if not _is_int(value):
            problems[flag] = Text("settings.whole_number", value=show(value))
        elif not lo <= value <= hi:
            problems[flag] = Text("settings.between", lo=lo, hi=hi, value=value)

    need_int("--tensor-parallel-size", s.tensor_parallel_size, 1, 1024)
    need_int("--pipeline-parallel-size", s.pipeline_parallel_size, 1, 1024)
    need_int("--data-parallel-size", s.data_parallel_size, 1, 1024)
    need_int("--decode-context-parallel-size", s.decode_context_parallel_size, 1, 1024)
    if _is_int(s.decode_context_parallel_size) and _is_int(s.tensor_parallel_size) and \
            "--decode-context-parallel-size" not in problems and "--tensor-parallel-size" not in problems \
            and s.tensor_parallel_size % s.decode_context_parallel_size:
        problems["--decode-context-parallel-size"] = Text("settings.dcp_divides_tp",
                                                          tp=s.tensor_parallel_size)
    auto_len = s.max_model_len == AUTO_MAX_MODEL_LEN and _is_int(s.max_model_len)
    if auto_len and version is not None and not applies(Rule.MAX_MODEL_LEN_AUTO, version):
        rule = Rule.MAX_MODEL_LEN_AUTO.value
        problems["--max-model-len"] = Text("settings.max_len_auto_release", since=str(rule.since), pr=rule.pr,
                                           version=str(version))
    if not auto_len:
        need_int("--max-model-len", s.max_model_len, 1, 100_000_000)
    need_int("--max-num-batched-tokens", s.max_num_batched_tokens, 1, 100_000_000)
    need_int("--max-num-seqs", s.max_num_seqs, 1, 1_000_000)
    need_int("--avg-tokens", s.avg_tokens, 1, 100_000_000)
    need_int("--kv-cache-memory-bytes", s.kv_cache_memory_bytes, 1, 1 << 50)
    need_int("--num-gpu-blocks-override", s.num_gpu_blocks_override, 1, 1 << 40)
    offload = s.cpu_offload_gb
    if offload is not None and (isinstance(offload, bool) or not isinstance(offload, (int, float)) or
                                not math.isfinite(offload) or not 0 <= offload <= 100_000):
        problems["--cpu-offload-gb"] = Text("settings.cpu_offload", value=show(offload))
    elif offload and s.pinned_memory is False and version is not None and \
            not applies(Rule.CPU_OFFLOAD_WITHOUT_PINNED_MEMORY, version):
        rule = Rule.CPU_OFFLOAD_WITHOUT_PINNED_MEMORY.value
        problems["--cpu-offload-gb"] = Text("settings.cpu_offload_unpinned", version=str(version),
                                            since=str(rule.since))
    util = s.gpu_memory_utilization
    if util is not None:
        if isinstance(util, bool) or not isinstance(util, (int, float)) or not math.isfinite(util):
            problems["--gpu-memory-utilization"] = Text("settings.util_number", value=show(util))
        elif not 0 < util <= 1:
            problems["--gpu-memory-utilization"] = Text("settings.util_range", value=util)
    if s.max_num_batched_tokens is not None and s.max_num_seqs is not None and \
            "--max-num-batched-tokens" not in problems and "--max-num-seqs" not in problems and \
            s.max_num_batched_tokens < s.max_num_seqs:
        problems["--max-num-batched-tokens"] = Text("settings.mnbt_below_mns", mnbt=s.max_num_batched_tokens,
                                                    mns=s.max_num_seqs)
    if s.block_size is not None and not block_size_accepted(s.block_size, version):
        problems["--block-size"] = block_size_refused(s.block_size, version)
    kv_name = s.kv_cache_dtype
    if kv_name is not None and (not isinstance(kv_name, str) or
                                (kv_name.strip().lower() or "auto") not in KV_CACHE_DTYPE_CHOICES):
        problems["--kv-cache-dtype"] = Text("settings.kv_dtype", value=show(kv_name),
                                            allowed=", ".join(KV_CACHE_DTYPE_CHOICES))
    ssm = s.mamba_ssm_cache_dtype
    if ssm is not None and ssm not in MAMBA_SSM_CACHE_DTYPES:
        problems["--mamba-ssm-cache-dtype"] = Text("settings.not_accepted", value=show(ssm),
                                                   allowed=", ".join(MAMBA_SSM_CACHE_DTYPES))
    elif ssm in ("float16", "bfloat16") and version is not None:
        rule = Rule.MAMBA_DTYPE_FLOAT16 if ssm == "float16" else Rule.MAMBA_DTYPE_BFLOAT16
        if not applies(rule, version):
            allowed = [d for d in MAMBA_SSM_CACHE_DTYPES if d in ("auto", "float32") or
                       d == "float16" and applies(Rule.MAMBA_DTYPE_FLOAT16, version)]
            problems["--mamba-ssm-cache-dtype"] = Text("settings.mamba_dtype_release", value=ssm, version=str(version),
                                                       allowed=", ".join(allowed), since=str(rule.value.since))
    if s.kv_connector is not None and s.kv_connector not in KV_CONNECTORS:
        problems["--kv-transfer-config"] = Text("settings.kv_connector", value=show(s.kv_connector),
                                                allowed=", ".join(KV_CONNECTORS))
    if s.fp4_indexer_cache and version is not None and not applies(Rule.FP4_INDEXER_CACHE_FLAG, version):
        rule = Rule.FP4_INDEXER_CACHE_FLAG.value
        problems["--attention-config"] = Text(
            "settings.flag_needs_release", since=str(rule.since), pr=rule.pr, version=str(version))
    extensible_flag = s.enable_extensible_kv_cache
    if extensible_flag is not None and version is not None and not applies(Rule.EXTENSIBLE_KV_CACHE, version):
        rule = Rule.EXTENSIBLE_KV_CACHE.value
        problems["--enable-extensible-kv-cache"] = Text(
            "settings.flag_needs_release", since=str(rule.since), pr=rule.pr, version=str(version))
    elif extensible_flag is True and (s.kv_cache_memory_bytes or s.num_gpu_blocks_override):
        problems["--enable-extensible-kv-cache"] = Text(
            "settings.extensible_overridden",
            flag="--kv-cache-memory-bytes" if s.kv_cache_memory_bytes else "--num-gpu-blocks-override")
    elif extensible_flag is True and s.kv_connector is not None and platform == "rocm":
        problems["--enable-extensible-kv-cache"] = Text("settings.extensible_rocm_connector")
    if s.compile_cache is not None and s.compile_cache not in COMPILE_CACHE_STATES:
        problems["compile cache"] = Text("settings.compile_cache", value=show(s.compile_cache))
    if s.rocm_quick_reduce is not None and (not isinstance(s.rocm_quick_reduce, str) or
                                            s.rocm_quick_reduce.upper() not in ROCM_QUICK_REDUCE_LEVELS):
        problems["VLLM_ROCM_QUICK_REDUCE_QUANTIZATION"] = Text(
            "settings.quick_reduce", value=show(s.rocm_quick_reduce), levels=", ".join(ROCM_QUICK_REDUCE_LEVELS))
    elif isinstance(s.rocm_quick_reduce, str) and s.rocm_quick_reduce.upper() == "INT3" and version is not None \
            and not applies(Rule.QUICK_REDUCE_INT3, version):
        rule = Rule.QUICK_REDUCE_INT3.value
        problems["VLLM_ROCM_QUICK_REDUCE_QUANTIZATION"] = Text(
            "settings.flag_needs_release", since=str(rule.since), pr=rule.pr, version=str(version))
    if s.weights is not None and not isinstance(s.weights, str):
        problems["weights"] = Text("settings.weights_name", value=show(s.weights))
    for attr in _BOOL_SETTINGS:
        value = getattr(s, attr)
        if value is not None and not isinstance(value, bool):
            problems[VLLM_SPELLING.get(attr, attr.replace("_", " "))] = Text("settings.bool", value=show(value))
    if not isinstance(s.entrypoint, str) or s.entrypoint not in ("serve", "llm"):
        problems["entrypoint"] = Text("settings.entrypoint", value=show(s.entrypoint))
    if s.speculative is not None:
        if not isinstance(s.speculative.method, str) or spec_family(s.speculative.method) is None:
            problems["--speculative-config"] = Text("settings.spec_method", value=show(s.speculative.method))
        need_int("--speculative-config", s.speculative.num_speculative_tokens, 1, 64)
        if s.speculative.draft_config is not None and not isinstance(s.speculative.draft_config, dict):
            problems["--speculative-config"] = Text("settings.draft_config",
                                                    got=type(s.speculative.draft_config).__name__)
    if yarn_scaled_max_len is not None:
        derived_max_len = max_len_limit(derived_max_len, yarn_scaled_max_len, version) if version is not None \
            else None
    given_len = None if auto_len else s.max_model_len   # auto starts from the model's own length
    if given_len is not None:
        max_len = given_len
    elif longrope_default_len is not None and version is not None and \
            applies(Rule.LONGROPE_DEFAULT_ORIGINAL_LEN, version):
        max_len = longrope_default_len
    else:
        max_len = derived_max_len if derived_max_len is not None else NO_LENGTH_KEY_MAX_LEN
    # VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 lets a length past the model's through with a warning
    # (config/model.py _get_and_verify_max_len, every release): the engine notes it
    if given_len is not None and derived_max_len is not None and not s.allow_long_max_model_len and \
            _is_int(given_len) and given_len > derived_max_len:
        # a limit the YaRN factor raised before v0.30 would have allowed it: say why it no longer does
        scaled = yarn_scaled_max_len
        yarn = scaled is not None and scaled >= s.max_model_len
        problems["--max-model-len"] = \
            Text("settings.max_len_over_window", value=s.max_model_len, window=window_cap) \
            if window_cap is not None and window_cap == derived_max_len else \
            Text("settings.max_len_over_yarn", value=s.max_model_len, limit=derived_max_len, scaled=scaled) \
            if yarn else Text("settings.max_len_over", value=s.max_model_len, limit=derived_max_len)
    need_int("--max-cudagraph-capture-size", s.max_cudagraph_capture_size, 1, 1_000_000)
    sizes = None
    if s.cudagraph_capture_sizes is not None:
        sizes = capture_sizes_of(s.cudagraph_capture_sizes)
        if sizes is None:
            problems["--cudagraph-capture-sizes"] = Text("settings.capture_sizes",
                                                         value=show(s.cudagraph_capture_sizes))
    cg_flags = [f for f, v in (("--max-cudagraph-capture-size", s.max_cudagraph_capture_size),
                               ("--cudagraph-capture-sizes", s.cudagraph_capture_sizes)) if v is not None]
    if version is not None and cg_flags and not applies(Rule.CUDAGRAPH_SIZE_FLAGS, version):
        rule = Rule.CUDAGRAPH_SIZE_FLAGS.value
        for f in cg_flags:
            problems.setdefault(f, Text("settings.flag_needs_release", since=str(rule.since), pr=rule.pr,
                                        version=str(version)))
    for flag, value, choices, rule, case_blind in (
            ("--performance-mode", s.performance_mode, PERFORMANCE_MODES, Rule.PERFORMANCE_MODE, False),
            (VLLM_SPELLING["cudagraph_mode"], s.cudagraph_mode, CUDAGRAPH_MODES, Rule.CUDAGRAPH_MODE_OPTION, True)):
        why = _choice_problem(value, choices, rule, version, case_blind)
        if why is not None:
            problems[flag] = why
    backend = s.attention_backend
    if isinstance(backend, str):
        backend = BACKEND_ALIASES.get(backend.strip().upper(), backend.strip().upper())
    if backend == "AUTO" and version is not None and not applies(Rule.ATTENTION_BACKEND_AUTO, version):
        rule = Rule.ATTENTION_BACKEND_AUTO.value
        problems["--attention-backend"] = Text("attn.auto_release", since=str(rule.since), pr=rule.pr,
                                               version=str(version))
    elif backend not in (None, "AUTO", *FORCED_BACKENDS):
        problems["--attention-backend"] = Text("settings.attention_backend", value=show(s.attention_backend),
                                               allowed=", ".join(FORCED_BACKENDS))
    level = s.optimization_level
    if level is not None and (not _is_int(level) or not 0 <= level <= 3):
        problems["--optimization-level"] = Text("settings.optimization_level", value=show(level))
    elif level is not None and level != 3 and version is not None and not applies(Rule.OPTIMIZATION_LEVELS, version):
        rule = Rule.OPTIMIZATION_LEVELS.value
        problems["--optimization-level"] = Text("settings.optimization_level_release", since=str(rule.since),
                                                version=str(version), level=level)
    mm_limits = None
    if s.limit_mm_per_prompt is not None:
        mm_limits = mm_limits_of(s.limit_mm_per_prompt)
        if mm_limits is None:
            problems["--limit-mm-per-prompt"] = Text("settings.mm_limits", value=show(s.limit_mm_per_prompt),
                                                     modalities=", ".join(MM_MODALITIES))
    mm_processor = None
    if s.mm_processor_kwargs is not None:
        mm_processor = mm_processor_of(s.mm_processor_kwargs)
        if mm_processor is None:
            problems["--mm-processor-kwargs"] = Text("settings.mm_processor", value=show(s.mm_processor_kwargs))
    if s.cudagraph_memory_profiling is True and version is not None and \
            not applies(Rule.CUDA_GRAPH_ESTIMATE_OPT_IN, version):
        rule = Rule.CUDA_GRAPH_ESTIMATE_OPT_IN.value
        problems["VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS"] = Text(
            "settings.flag_needs_release", since=str(rule.since), pr=rule.pr, version=str(version))
    if s.model_runner_v2 is not None and version is not None and not applies(Rule.MRV2_ENV_OPT_IN, version):
        rule = Rule.MRV2_ENV_OPT_IN.value
        problems["VLLM_USE_V2_MODEL_RUNNER"] = Text("settings.flag_needs_release", since=str(rule.since),
                                                    pr=rule.pr, version=str(version))
    elif s.model_runner_v2 is False and version is not None and applies(Rule.MODEL_RUNNER_V1_REMOVED, version):
        problems["VLLM_USE_V2_MODEL_RUNNER"] = Text("settings.v1_runner_removed", version=str(version),
                                                    since=str(Rule.MODEL_RUNNER_V1_REMOVED.value.since))
    elif s.model_runner_v2 is True and version is not None and isinstance(s.speculative, Speculative) and \
            isinstance(s.speculative.method, str) and runs_on_v1_for(s.speculative.method, version):
        problems["VLLM_USE_V2_MODEL_RUNNER"] = Text("settings.v2_runner_spec", method=s.speculative.method,
                                                    version=str(version))
    if s.language_model_only is True and version is not None and not applies(Rule.LANGUAGE_MODEL_ONLY, version):
        rule = Rule.LANGUAGE_MODEL_ONLY.value
        problems["--language-model-only"] = Text("settings.needs_release", since=str(rule.since), pr=rule.pr,
                                                 version=str(version))
    if problems or version is None:
        raise SettingsError(problems)
    if s.cudagraph_mode is not None:
        s = replace(s, cudagraph_mode=s.cudagraph_mode.strip().upper())     # vLLM reads it in any case
    if backend is not None:
        s = replace(s, attention_backend=None if backend == "AUTO" else backend)
    defaults = default_batch_limits(version, device_total_bytes, device_name, s.entrypoint,
                                    unified_memory, compute_capability)
    if s.performance_mode == "throughput":
        # _set_default_max_num_seqs_and_batched_tokens_args doubles the defaults it fills in
        # (Rule.PERFORMANCE_MODE), before the token budget is capped; the serve command compares with these
        defaults = replace(defaults, max_num_batched_tokens=2 * defaults.max_num_batched_tokens,
                           max_num_seqs=2 * defaults.max_num_seqs)
    used = set()
    if s.gpu_memory_utilization is None:
        used.add("--gpu-memory-utilization")
    mnbt = s.max_num_batched_tokens
    seqs = s.max_num_seqs
    # without chunked prefill (Rule.CHUNKED_PREFILL_OPTIONAL) vLLM batches whole prompts
    whole_prompts = s.enable_chunked_prefill is False and applies(Rule.CHUNKED_PREFILL_OPTIONAL, version)
    if seqs is None:
        used.add("--max-num-seqs")
        seqs = defaults.max_num_seqs
    if mnbt is None:
        used.add("--max-num-batched-tokens")
        # _set_default_max_num_seqs_and_batched_tokens_args: never more than seqs × length.
        mnbt = defaults.max_num_batched_tokens
        if whole_prompts:       # a whole prompt in one step: at least the length
            mnbt = max(mnbt, max_len)
        mnbt = min(mnbt, seqs * max_len)
    if whole_prompts and mnbt < max_len:
        raise SettingsError({"--max-num-batched-tokens": Text("settings.mnbt_below_len_unchunked", mnbt=mnbt,
                                                              length=max_len, version=str(version))})
    if s.max_model_len is None:
        used.add("--max-model-len")
    # max_len is the model's own length with auto: vLLM fills the batch defaults from it before
    # the pool is known (the fitted length only sizes the pool: engine._pool)
    if s.max_num_seqs is None and applies(Rule.SEQS_CAPPED_BY_MNBT, version):
        seqs = min(seqs, mnbt)
    if sizes and s.max_cudagraph_capture_size is not None:
        # vllm/config/vllm.py _set_cudagraph_sizes: both given, the maximum must be the largest
        # listed size that max_num_batched_tokens leaves
        largest = max((x for x in sizes if x <= mnbt), default=0)
        if s.max_cudagraph_capture_size != largest:
            raise SettingsError({"--max-cudagraph-capture-size": Text(
                "settings.capture_max_mismatch", value=s.max_cudagraph_capture_size, largest=largest)})
    extensible = extensible_kv_cache_in_effect(s, version)
    return Resolved(
        settings=s, version=version,
        gpu_memory_utilization=float(util) if util is not None else
        default_gpu_memory_utilization(version, extensible),
        max_model_len=int(max_len), max_num_batched_tokens=int(mnbt), max_num_seqs=int(seqs),
        batch_defaults=defaults, defaults_used=frozenset(used), capture_sizes=sizes, mm_limits=mm_limits,
        mm_processor=mm_processor, max_len_limit=derived_max_len, auto_max_model_len=auto_len,
        extensible_kv_cache=extensible)


def extensible_kv_cache_in_effect(s: Settings, version: Version) -> bool:
    """Whether vLLM sizes the pool from memory measured after warm-up (extensible.py;
    ``VllmConfig._resolve_extensible_kv_cache``): from v0.34 on CUDA and ROCm unless
    --no-enable-extensible-kv-cache, --kv-cache-memory-bytes or --num-gpu-blocks-override (which size the
    pool themselves), a NIXL connector unless asked for
    (NIXL exports the cache through fabric handles, which need an IMEX channel most machines lack;
    ``resolve`` refuses asking for it on ROCm), or WSL2 (no virtual memory management: vLLM falls
    back with a warning, ``vmm_unavailable_reason``)."""
    if not applies(Rule.EXTENSIBLE_KV_CACHE, version) or s.enable_extensible_kv_cache is False:
        return False
    if s.kv_cache_memory_bytes or s.num_gpu_blocks_override or s.pinned_memory is False:
        return False
    return s.kv_connector is None or s.enable_extensible_kv_cache is True


def runs_eager(s: Settings) -> bool:
    """Whether vLLM neither compiles nor captures CUDA graphs: --enforce-eager, or -O0 from v0.12
    (Rule.OPTIMIZATION_LEVELS; settings.resolve refuses -O0 before)."""
    return bool(s.enforce_eager) or s.optimization_level == 0


def cudagraph_mode_in_effect(s: Settings) -> str | None:
    """The compilation config's cudagraph_mode vLLM runs: the one given, else the optimization
    level's (NONE at -O0, PIECEWISE at -O1, vllm/config/vllm.py OPTIMIZATION_LEVEL_TO_CONFIG; a given
    value wins, as vLLM applies the level's defaults to unset fields only); None: the release's own."""
    if s.cudagraph_mode is not None:
        return s.cudagraph_mode
    return {0: "NONE", 1: "PIECEWISE"}.get(s.optimization_level)


def allreduce_fusion_pass(s: Settings) -> bool:
    """Whether the optimization level runs the all-reduce + RMSNorm fusion pass (from -O2, the
    default; -O0 and -O1 leave the all-reduce to itself)."""
    return s.optimization_level not in (0, 1)
