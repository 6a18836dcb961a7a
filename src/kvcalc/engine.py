"""One calculation, end to end: config → specs → groups → budget → capacity → report.

The page's worker, the CLI and the tests all call :func:`calculate`; nothing else
computes a number shown to a user.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from . import extensible, logfmt, paging, sizing_warmup
from .budget import Budget, cuda_graph_deducted, estimate_budget, measured_after_warmup
from .catalog import Gpu
from .config_aliases import GEMMA4_TYPES, GEMMA4_WRAPPER_TYPES
from .deepseek_v4_settings import (deepseek_v4_kv, deepseek_v4_problem, dspark_config_problem, dspark_layer_count,
                                   dspark_layers)
from .dtypes import (KvDtype, fp8_by_default, model_dtype_bytes, normalize_model_dtype, resolve_kv_dtype,
                     sparse_mla_storage)
from .errors import ConfigError, SettingsError, UnsupportedModelError
from .hf_config import AttentionLayer, ModelArch, read_model, show, speculators_view
from .hf_overrides import apply_overrides, keeps_checkpoint_shapes, overrides_of
from .attention import (dcp_backend_problem, flashinfer_trtllm_decode, forced_backend_problem, keeps_full_graphs,
                        mm_prefix_lm, nvfp4_kv_problem, runs_flashinfer, triton_fp8_problem)
from .kvspecs import (GpuTarget, Layout, LayoutRequest, attention_head_sizes, backend_block, build_layout,
                      default_ssm_dtype, fa_keeps_cache, flashinfer_keeps_cache)
from .messages import Text, message_of
from .params import expert_count, text_part
from .quant_support import check_quantization_supported, needs_deprecated_flag
from .servecmd import serve_command
from .settings import (NO_LENGTH_KEY_MAX_LEN, Resolved, Settings, Speculative, allreduce_fusion_pass,
                       cudagraph_mode_in_effect, resolve, runs_eager, spec_family, speculative_tokens,
                       with_batch_floor)
from .specs import SizingContext
from .units import GIB
from .versions import (NEWEST_LOGGED, Rule, Version, applies, breakable_cudagraphs, default_v2_architectures,
                       flashinfer_sampler_default, rocm_keeps_v1, runs_on_v1_for)
from .weights import (DRAFTER_WEIGHT_METHODS, drafter_weights, experts_on_first_gpu, format_for, mxfp4_expert_align,
                      serving_quantization, unpriced_quant_method)

_FLOAT_EPS = 1e-9

FIRST_START_COPY_NOTE_SHARE = 0.1
"""The share of the estimated pool from which a first start's possible table copy gets a note of its
own (``note.first_start_copy``): the band already allows the copy, but where it is a tenth of the
pool or more (a 1.16 GiB table beside a 3.7 GiB pool on a 16 GB RTX 5070 Ti, v0.30) the user should
read why the log may come out that much lower without looking at the band."""


@dataclass(frozen=True)
class PoolResult:
    """What vLLM does with one amount of available memory (bytes, per GPU)."""

    available_bytes: int
    num_blocks: int
    blocks_per_request: int
    max_concurrency: float
    tokens: int
    fits: bool
    needed_bytes: int
    estimated_max_model_len: int | None
    error: str | None
    log_lines: tuple[str, ...]
    avg_requests: float | None
    max_model_len: int          # the length the pool serves: --max-model-len, or what auto fitted
    fit_bytes: tuple[int, ...]  # per PP stage, the memory the fit check measures (bytes)


@dataclass(frozen=True)
class Calculation:
    model_id: str
    arch: ModelArch
    gpu: Gpu
    resolved: Resolved
    kv: KvDtype
    model_dtype: str
    layout: Layout
    grouping: paging.Grouping
    ctx: SizingContext
    model_runner_v2: bool
    async_scheduling: bool
    in_flight_tokens: int
    kv_bytes_per_token: int
    budget: Budget | None
    budget_note: str | None
    estimated: PoolResult | None
    estimated_low: PoolResult | None
    estimated_high: PoolResult | None
    from_log: PoolResult | None
    from_log_low: PoolResult | None
    from_log_high: PoolResult | None
    serve_command: str
    notes: tuple[str, ...]
    prefix_caching: bool = True     # --enable-prefix-caching as vLLM resolves it for this model
    sampler: str = "pytorch"        # the warm-up's sampler path (reserve.sampler_path)
    fp8_cache_helps: bool = False   # an fp8 KV cache would halve this wider one and vLLM would take it here
    mm_prefix: bool = False         # full attention over image tokens, which the backend must support


def uses_model_runner_v2(arch: ModelArch, version: Version, spec_method: str | None = None,
                         chosen: bool | None = None, platform: str = "cuda") -> bool:
    """Which runner vLLM picks (config/vllm.py ``use_v2_model_runner`` in each release's wheel).

    ``chosen`` is VLLM_USE_V2_MODEL_RUNNER (None: unset), which decides when set
    (Rule.MRV2_ENV_OPT_IN). Otherwise: every model from v0.29; from v0.25 every model that is
    neither MoE nor hybrid, plus the MoE architectures the release lists; in v0.24 the listed
    architectures; in v0.22-v0.23 the listed ones that are neither MoE nor quantized
    (``default_v2_architectures``). A speculative method V2 does not run keeps V1
    (Rule.MRV2_SPEC_FALLBACK); on ROCm v0.29 to v0.31 keep sparse-MLA architectures on V1
    (``rocm_keeps_v1``).
    """
    if chosen is not None:
        return chosen
    if spec_method is not None and spec_method.lower() == "dspark":
        return True     # DSpark forces model runner V2 (config/vllm.py use_v2_model_runner, v0.25-v0.28)
    if runs_on_v1_for(spec_method, version) or platform == "rocm" and rocm_keeps_v1(arch.architecture, version):
        return False
    if applies(Rule.MRV2_ALL_MODELS_CG_PROFILED, version):
        return True
    if arch.hybrid_mamba_class or not any(l.kind != "none" for l in arch.layers):
        return False     # is_hybrid / is_attention_free
    listed = arch.architecture in default_v2_architectures(version)
    if applies(Rule.MRV2_ALL_DENSE, version):
        return listed or not arch.is_moe
    if not listed:
        return False
    return applies(Rule.MRV2_LISTED_MOE, version) or (not arch.is_moe and arch.quant_method is None)


def _peer_to_peer(gpu: Gpu, s: Settings) -> bool | None:
    """Whether the TP GPUs reach each other directly, for vLLM's custom all-reduce: as the user or a log
    says (``Settings.peer_to_peer``), else no for cards whose driver refuses it (GeForce), yes on
    NVLink boards, and not known (None: the host decides; a virtual machine or GPUs under different CPU
    sockets may refuse it) for PCIe cards."""
    if s.peer_to_peer is not None:
        return s.peer_to_peer
    if gpu.driver_blocks_peer_to_peer:
        return False
    return True if gpu.nvlink_all_pairs else None


def _v1_without_pinned_memory(resolved: Resolved, version: Version) -> tuple[Resolved, Settings, bool]:
    """A start without pinned host memory (WSL2) whose release would pick model runner V2, before
    V2 could run without it (Rule.MRV2_WITHOUT_PINNED_MEMORY): vLLM's default fails there ("UVA is
    not available"), so the start that works, and the one a log of such a start shows, is the V1
    runner: sized as V1, and the command says VLLM_USE_V2_MODEL_RUNNER=0. Asking for V2 explicitly
    is refused: that start cannot happen."""
    s = resolved.settings
    if s.model_runner_v2:
        raise SettingsError({"pinned memory": Text("settings.mrv2_needs_pinned", version=str(version),
                                                   since=str(Rule.MRV2_WITHOUT_PINNED_MEMORY.value.since))})
    s = replace(s, model_runner_v2=False)
    return replace(resolved, settings=s), s, False


def _async_scheduling(s: Settings, version: Version, model_runner_v2: bool = False) -> bool:
    """On by default since v0.14 (#27614), except with a speculative method other than EAGLE-style,
    MTP, GPU n-gram and, from v0.28, a draft model (Rule.DRAFT_MODEL_ASYNC); from v0.33 that
    exception holds on the V1 runner only (Rule.ASYNC_SPEC_V1_ONLY) (vllm/config/vllm.py)."""
    if s.async_scheduling is not None:
        return s.async_scheduling
    if not applies(Rule.ASYNC_SCHEDULING_DEFAULT, version):
        return False
    method = s.speculative.method if s.speculative is not None else None
    if method is None or model_runner_v2 and applies(Rule.ASYNC_SPEC_V1_ONLY, version):
        return True
    if method == "draft_model":
        return applies(Rule.DRAFT_MODEL_ASYNC, version)
    return method not in ("ngram", "suffix", "medusa", "mlp_speculator")


def read_drafter(spec: Speculative) -> ModelArch:
    """The drafter's layers, read from its config as vLLM reads it (``hf_config.speculators_view``);
    what is wrong with the config is the speculative config's fault, not the model's."""
    try:
        return read_model(speculators_view(spec.draft_config))
    except (ConfigError, UnsupportedModelError) as exc:
        problem = message_of(exc)  # Text: ConfigError and UnsupportedModelError are raised with one
        raise SettingsError({"--speculative-config": Text("settings.draft_config_invalid",
                                                          problem=problem)}) from exc


def _draft_layers(arch: ModelArch, s: Settings
                  ) -> tuple[tuple[AttentionLayer, ...], list[str], ModelArch | None]:
    """The draft layers that keep a KV cache, the notes about them, and the drafter's own reading
    when its config.json was given (None otherwise)."""
    spec = s.speculative
    family = spec_family(spec.method) if spec is not None else None
    if spec is None or family == "none":
        return (), [], None
    if family == "mtp" and arch.model_type in GEMMA4_TYPES:
        # gemma4_mtp.py: the drafter's attention is query-only and reads the target's cache
        # through kv_sharing_target_layer_name, so it adds no cache of its own; its weights (the
        # "-assistant" checkpoint) are loaded next to the model's.
        return (), [Text("note.gemma4_mtp"), Text("note.draft_weights")], None
    if family == "dspark":
        return dspark_layers(arch, spec), [Text("note.dspark_layers", layers=dspark_layer_count(spec))], None
    if spec.draft_config is not None:
        draft = read_drafter(spec)
        sized = spec.method.lower() in DRAFTER_WEIGHT_METHODS     # the budget counts its weights
        return tuple(l for l in draft.layers if l.kind != "none"), \
            [Text("note.draft_layers", layers=sum(l.kind != "none" for l in draft.layers)),
             *([] if sized else [Text("note.draft_weights")])], draft
    if family == "mtp":
        if not arch.mtp_layers:
            raise SettingsError({"--speculative-config": Text("settings.mtp_without_layers")})
        return arch.mtp_layers, [Text("note.mtp_layers", layers=len(arch.mtp_layers))], None
    template = arch.full_attention_layer()
    if template is None:
        return (), [], None
    return (template,), [Text("note.draft_assumed"), Text("note.draft_weights")], None


def draft_length_cap(s: Settings, drafter: ModelArch | None, version: Version, model_runner_v2: bool,
                     max_model_len: int) -> int | None:
    """The shorter max_model_len vLLM takes from a draft model (Rule.MRV2_DRAFT_CAPS_MAX_LEN): from
    v0.33 model runner V2 cannot skip speculation on long sequences, so with method "draft_model"
    (whose drafter does not share the target's positions) vLLM lowers max_model_len to the drafter's
    own (vllm/config/vllm.py ``_limit_max_model_len_to_draft``). ``drafter``: the drafter's config as
    read (``_draft_layers``). None where nothing changes."""
    spec = s.speculative
    if spec is None or drafter is None or str(spec.method).lower() != "draft_model" or \
            not model_runner_v2 or not applies(Rule.MRV2_DRAFT_CAPS_MAX_LEN, version):
        return None
    draft_len = drafter.max_len_limit(version)
    return draft_len if draft_len is not None and draft_len < max_model_len else None


MAMBA_PREFIX_CACHING_TYPES = frozenset({"nemotron_h", "granitemoehybrid", "jamba", "falcon_h1", "zamba2"})
"""Model types kvcalc reads whose vLLM class is SupportsMambaPrefixCaching (nemotron_h.py,
granitemoehybrid.py, jamba.py, falcon_h1.py and zamba2.py from v0.11.1; Mamba, Mamba2 and Bamba share it
but are not read)."""


def mamba_cache_mode(arch: ModelArch, version: Version, prefix_caching: bool, speculative: bool = False) -> str:
    """vLLM's Mamba cache mode (vllm/model_executor/models/config.py ``MambaModelConfig``): with prefix
    caching on, classes that support Mamba prefix caching keep a state per block ("all",
    Rule.MAMBA_ALL_MODE: v0.11.1 to v0.27; #50991 made it "align" for all in v0.28), except with
    speculative decoding in v0.20 and v0.21 (Rule.MAMBA_ALIGN_WITH_SPEC, Rule.MAMBA_ALL_WITH_SPEC_AGAIN),
    the others two ("align", from v0.15; before, vLLM turned prefix caching off for them); "none"
    otherwise."""
    if not prefix_caching:
        return "none"
    spec_align = speculative and applies(Rule.MAMBA_ALIGN_WITH_SPEC, version) and \
        not applies(Rule.MAMBA_ALL_WITH_SPEC_AGAIN, version)
    if arch.model_type in MAMBA_PREFIX_CACHING_TYPES and applies(Rule.MAMBA_ALL_MODE, version) and \
            not applies(Rule.HYBRID_PREFIX_CACHING_DEFAULT, version) and not spec_align:
        return "all"
    return "align" if applies(Rule.MAMBA_ALIGN_MODE, version) else "none"


def v0_engine_note(arch: ModelArch, gpu: GpuTarget, version: Version, requested_kv: str) -> Text | None:
    """Why v0.10 runs this start on its V0 engine, whose memory profile and block manager kvcalc does
    not model (engine/arg_utils.py ``_is_v1_supported_oracle``), or None: compute capability below
    8.0 or a Mamba-state model in v0.10.0-v0.10.1 (Rule.V1_ENGINE_OLD_GPUS_AND_MAMBA), an fp8 KV cache
    V1 could not hold until v0.11 (Rule.V1_ENGINE_ALWAYS): only 10.0, Hopper's FlashAttention 3 and,
    from v0.10.2, MLA's FlashMLA and CUTLASS backends could."""
    if applies(Rule.V1_ENGINE_ALWAYS, version) or gpu.platform != "cuda":
        return None
    old_checks = not applies(Rule.V1_ENGINE_OLD_GPUS_AND_MAMBA, version)
    if old_checks and 0 < gpu.major < 8:
        return Text("note.v0_engine_capability", major=version.major, minor=version.minor)
    kv = (requested_kv or "auto").strip().lower()
    held = gpu.compute_capability == "10.0" or gpu.major == 9 and kv.startswith("fp8") or \
        arch.is_mla and not old_checks and kv.startswith("fp8")
    if kv != "auto" and not held:
        return Text("note.v0_engine_kv", major=version.major, minor=version.minor)
    if old_checks and arch.has_state_layers:
        return Text("note.v0_engine_mamba", major=version.major, minor=version.minor)
    return None


MODEL_FIRST_RELEASE: dict[str, Rule] = {
    "lfm2": Rule.LFM2_MODEL, "lfm2_moe": Rule.LFM2_MOE_MODEL, "kimi_linear": Rule.KIMI_LINEAR_MODEL,
    "olmo_hybrid": Rule.OLMO_HYBRID_MODEL, "deepseek_v4": Rule.DEEPSEEK_V4_MODEL,
    "Lfm2VlForConditionalGeneration": Rule.LFM2_VL_MODEL, "Lfm2VLForConditionalGeneration": Rule.LFM2_VL_MODEL,
    "ricursive": Rule.RICURSIVE_MODEL,
}
"""Model types (of the language model) and architectures kvcalc reads that vLLM added after v0.10.0,
by the rule for the release that added them. An earlier release has no class of its own for them: it
stops, or falls back to its Transformers backend (registry.py ``_try_resolve_transformers``), which
keeps no recurrent state the way the native class does."""


def refuse_model_before_release(arch: ModelArch, version: Version) -> None:
    """A SettingsError where ``version`` predates the model's class in vLLM (MODEL_FIRST_RELEASE: the
    later of its language model's and its architecture's, so LFM2-VL needs v0.14 though LFM2 ran
    from v0.10.2)."""
    rules = [r for r in (MODEL_FIRST_RELEASE.get(arch.model_type), MODEL_FIRST_RELEASE.get(arch.architecture))
             if r is not None]
    if not rules:
        return
    rule = max(rules, key=lambda r: r.value.since)
    if not applies(rule, version):
        raise SettingsError({"--vllm-version": Text("settings.model_before_release", model=arch.architecture,
                                                    version=str(version), since=str(rule.value.since))})


def ssm_dtype_flag_effect(arch: ModelArch, version: Version, ssm_dtype: str | None) -> tuple[str, Text] | None:
    """What --mamba-ssm-cache-dtype does to a model with KDA layers (Kimi Linear), whose layer keeps its
    recurrent state in float32 in every release: ("refuse", why) from v0.30, where the model class sizes
    the state page with the flag (Rule.KDA_SSM_DTYPE_SIZING: float16 raises, bfloat16 makes the page too
    small for the layer's state); ("note", what) before, where the flag leaves KDA alone; None for
    auto/float32 and models without KDA. MiniMax's lightning state ignores the flag in every release
    (``linear_attention_state_dtype`` reads only --mamba-cache-dtype): a note."""
    if arch.mamba is not None and arch.mamba.flavour == "lightning" and ssm_dtype not in (None, "auto"):
        return "note", Text("note.lightning_ssm_dtype_ignored", value=ssm_dtype)
    if arch.mamba is None or arch.mamba.flavour != "kda" or ssm_dtype in (None, "auto", "float32"):
        return None
    if not applies(Rule.KDA_SSM_DTYPE_SIZING, version):
        return "note", Text("note.kda_ssm_dtype_ignored", value=ssm_dtype, version=str(version))
    detail = Text("settings.kda_ssm_dtype.bfloat16" if ssm_dtype == "bfloat16" else "settings.kda_ssm_dtype.float16")
    return "refuse", Text("settings.kda_ssm_dtype", version=str(version), value=ssm_dtype, detail=detail)


def refuse_model_after_removal(arch: ModelArch, version: Version) -> None:
    """A SettingsError where ``version`` no longer has the model's class: MiniMax's lightning-attention
    models from v0.24 (Rule.MINIMAX_LIGHTNING_REMOVED: registry.py ``_PREVIOUSLY_SUPPORTED_MODELS``), Keye-VL
    from v0.34 (Rule.KEYE_REMOVED)."""
    if arch.mamba is not None and arch.mamba.flavour == "lightning" and \
            applies(Rule.MINIMAX_LIGHTNING_REMOVED, version):
        raise SettingsError({"--vllm-version": Text("settings.model_removed", model=arch.architecture,
                                                    version=str(version), last="0.23.0")})
    if arch.architecture in KEYE_ARCHITECTURES and applies(Rule.KEYE_REMOVED, version):
        raise SettingsError({"--vllm-version": Text("settings.model_removed", model=arch.architecture,
                                                    version=str(version), last="0.33.0")})


KEYE_ARCHITECTURES = frozenset({"KeyeForConditionalGeneration", "KeyeVL1_5ForConditionalGeneration"})
"""Kwai's Keye-VL, removed in v0.34 (Rule.KEYE_REMOVED)."""


def hybrid_spec_problem(arch: ModelArch, version: Version, speculative: bool) -> Text | None:
    """Why vLLM v0.10-v0.16 stops a state-layer model other than Qwen3-Next with speculative decoding (the
    V1 model runner, then MambaBase.get_kv_cache_spec: Rule.HYBRID_SPEC_REFUSED until
    Rule.HYBRID_SPEC_DECODING), or None."""
    if not speculative or not arch.has_state_layers or arch.model_type == "qwen3_next" or \
            not applies(Rule.HYBRID_SPEC_REFUSED, version) or applies(Rule.HYBRID_SPEC_DECODING, version):
        return None
    return Text("settings.hybrid_spec_refused", version=str(version), model=arch.architecture,
                since=str(Rule.HYBRID_SPEC_DECODING.value.since))


def _packed_stages(grouping: paging.Grouping, layout: Layout) -> paging.Grouping:
    """DeepSeek-V4 under pipeline parallelism: every stage must hold a layer of each group (vLLM keeps an
    empty group's whole-model specs, which from v0.29 it cannot allocate, and kvcalc does not size), and
    what vLLM prints comes from the first stage's projection (``report``)."""
    stages = [paging.project(grouping, stage) for stage in layout.stages]
    if any(not g.layer_names for proj in stages for g in proj.groups):
        raise SettingsError({"--pipeline-parallel-size": Text("dsv4.pp_empty_group", pp=len(layout.stages))})
    return replace(grouping, report=stages[0])


def as_release_reads(arch: ModelArch, version: Version) -> ModelArch:
    """The model as ``version`` classifies it: from v0.11.1 a hybrid class whose layers are all
    attention (granite-4.0-micro) is no hybrid (ModelConfig.is_hybrid, Rule.ATTENTION_ONLY_NOT_HYBRID),
    so it keeps 16-token blocks, prefix caching and the dense model's runner; v0.11.0 still raised
    its block to hold the Mamba state its class declares (a public L40S log: 1,312 tokens)."""
    if not arch.hybrid_mamba_class or arch.parallel_state or any(l.kind == "mamba" for l in arch.layers) or \
            not applies(Rule.ATTENTION_ONLY_NOT_HYBRID, version):
        return arch
    return replace(arch, hybrid_mamba_class=False, mamba=None,
                   notes=tuple(n for n in arch.notes if getattr(n, "key", "") != "model.note_attention_only_hybrid"))


def prefix_caching_default(arch: ModelArch, version: Version) -> bool:
    """vLLM's default for --enable-prefix-caching: on, except for hybrid models (layers with a
    Mamba-style state) before #50991 (Rule.HYBRID_PREFIX_CACHING_DEFAULT), which kept it opt-in
    (vllm/engine/arg_utils.py ``_set_default_chunked_prefill_and_prefix_caching_args``)."""
    return not arch.has_state_layers or applies(Rule.HYBRID_PREFIX_CACHING_DEFAULT, version)


def _tower_not_modelled(config: dict[str, Any], r: Resolved) -> bool:
    """A vision or audio tower vLLM profiles at startup whose pass kvcalc does not size
    (reserve.tower_profile_modelled)."""
    from .reserve import tower_profile_modelled  # noqa: PLC0415
    return not profile_off(config, r) and \
        not tower_profile_modelled(config, r.version, r.max_model_len, r.mm_limits, r.mm_processor)


def profile_off(config: dict[str, Any], r: Resolved) -> bool:
    """No tower warm-up: text input only (``embeds_in_graph``: no tower, ``--language-model-only``,
    or --limit-mm-per-prompt at 0 for every modality the towers serve), or ``--skip-mm-profiling``."""
    return embeds_in_graph(config, r) or bool(r.settings.skip_mm_profiling)


def embeds_in_graph(config: dict[str, Any], r: Resolved) -> bool:
    """Whether the compiled graph looks the input embeddings up itself: for text input only. A
    multimodal model whose towers take input gets its embeddings from the runner, outside the graph
    (gpu_model_runner.py, ``supports_mm_inputs``); --language-model-only or every modality at 0
    (vLLM: "running in text-only mode") is text input. Decides a first start's compile peak
    (reserve.cold_compile_reserve)."""
    from .reserve import tower_modalities  # noqa: PLC0415
    mods, limits = tower_modalities(config), r.mm_limits
    return not mods or bool(r.settings.language_model_only) or \
        (limits is not None and all(limits.off(m) for m in mods))


def _dummy_options_unmodelled(config: dict[str, Any], r: Resolved) -> bool:
    """--limit-mm-per-prompt options that shape the warm-up's dummy item in a way kvcalc does not
    size (width, height, length; num_frames where frames do not set the size)."""
    from .reserve import video_frames_modelled  # noqa: PLC0415
    limits = r.mm_limits
    return limits is not None and (limits.dummy_options or
                                   (limits.video_frames is not None and not video_frames_modelled(config)))


def _towers_off(config: dict[str, Any], r: Resolved) -> frozenset[str]:
    """Towers vLLM does not build: both with ``--language-model-only``; from #32605
    (Rule.TOWER_SKIPPED_AT_ZERO_LIMIT) each tower whose modalities --limit-mm-per-prompt all sets
    to 0 (interfaces.py ``_mark_tower_model``: the vision tower serves images and videos, the audio
    tower audio)."""
    from .reserve import tower_modalities  # noqa: PLC0415
    if r.settings.language_model_only:
        return frozenset(("vision", "audio"))
    limits = r.mm_limits
    if limits is None or not applies(Rule.TOWER_SKIPPED_AT_ZERO_LIMIT, r.version):
        return frozenset()
    mods = tower_modalities(config)
    vision = [m for m in mods if m in ("image", "video")]
    off = set()
    if vision and all(limits.off(m) for m in vision):
        off.add("vision")
    if "audio" in mods and limits.off("audio"):
        off.add("audio")
    return frozenset(off)


def _towers_missing(config: dict[str, Any]) -> bool:
    """A Gemma 4 multimodal wrapper config (``GEMMA4_WRAPPER_TYPES``) without its vision tower: a
    trimmed config (the catalog's E2B entries) that leaves the towers' weights and warm-up out."""
    return str(config.get("model_type")) in GEMMA4_WRAPPER_TYPES and not isinstance(config.get("vision_config"), dict)


def _sampler_depends_on_install(s: Settings, version: Version, gpu: Gpu, mrv2: bool) -> bool:
    """Before v0.11.1 the V1 runner sampled with FlashInfer whenever flashinfer was installed
    (versions.flashinfer_sampler_default): a GiB-sized difference the flags do not show."""
    return s.flashinfer_sampler is None and gpu.platform == "cuda" and not mrv2 and \
        flashinfer_sampler_default(version) is None


def _pool(calc_parts: dict[str, Any], available: int | tuple[int, ...]) -> PoolResult:
    """What vLLM makes of ``available`` bytes per GPU: one number for every worker, or one per
    pipeline stage. Blocks are the minimum over workers (``get_kv_cache_configs``); with
    ``--max-model-len auto`` the length is the longest the fit check passes first
    (``_auto_fit_max_model_len``, Rule.MAX_MODEL_LEN_AUTO)."""
    per_stage = available if isinstance(available, tuple) else None
    available = min(per_stage) if per_stage else available
    grouping: paging.Grouping = calc_parts["grouping"]
    layout: Layout = calc_parts["layout"]
    ctx: SizingContext = calc_parts["ctx"]
    version: Version = calc_parts["version"]
    avg = calc_parts["avg_tokens"]
    stage_bytes = list(per_stage) if per_stage else [available] * len(layout.stages)
    lines = [logfmt.available_line(available, version)] if available > 0 else []
    override = calc_parts.get("num_blocks_override")
    if override:
        stage_bytes, line = _override_blocks(grouping, layout, version, stage_bytes, override)
        lines.append(line)
    blocks = None
    no_memory = False
    for index, stage in enumerate(layout.stages):
        proj = paging.project(grouping, stage)
        if not any(g.layer_names for g in proj.groups):
            continue
        b = paging.num_blocks(proj, stage_bytes[index])
        blocks = b if blocks is None else min(blocks, b)
        no_memory = no_memory or stage_bytes[index] <= 0
    if override and blocks is not None:
        blocks = override       # before v0.21 the memory made its own count, then the override replaced it
    targets = paging.fit_targets(grouping, layout.stages, version, stage_bytes)
    error = None
    sizing: logfmt.Sizing = calc_parts.get("sizing") or logfmt.Sizing()
    if calc_parts.get("auto_max_model_len"):
        ctx, error = _fit_length(ctx, targets, version, grouping.kind == "attention_free", sizing, lines)
    check_error, check_len, worst_need = _fit_check(targets, ctx, version, sizing, no_memory)
    est_len: int | None = None
    if error is None:
        error, est_len = check_error, check_len
    fits = error is None
    blocks = blocks or 0
    cap = paging.capacity(grouping, blocks, ctx, version)
    if fits:
        lines += logfmt.capacity_lines(cap.tokens, ctx.max_model_len, cap.max_concurrency, version)
        lines += _later_stage_lines(grouping, layout, blocks, ctx, version, lines)
    elif error:
        lines.append(error)
    avg_requests = None
    if avg:
        per = paging.blocks_per_request(grouping, replace(ctx, max_model_len=min(avg, ctx.max_model_len)))
        avg_requests = blocks / per if per else None
    return PoolResult(available, blocks, cap.blocks_per_request, cap.max_concurrency, cap.tokens,
                      fits, worst_need, est_len, error, tuple(lines), avg_requests, ctx.max_model_len,
                      tuple(stage_bytes))


def _measured_pool(calc_parts: dict[str, Any], final: tuple[int, ...], capacity: tuple[int, ...],
                   committed: int | None = None) -> PoolResult:
    """The extensible KV cache of v0.34 (Rule.EXTENSIBLE_KV_CACHE, extensible.py): the profile's estimate
    (``capacity``, per stage) reserves the pool and sets a tentative --max-model-len auto; after warm-up
    each GPU commits the blocks its measured budget (``final``) holds, the fewest over the GPUs, never
    more than the reservation; then the length is fitted again, and the fit check runs, against those
    blocks less the null block (``finalize_extensible_kv_cache``, ``shrink_kv_cache_configs``). ``committed``:
    the blocks a log says were committed ("Extended KV cache to N blocks"), which replace the measurement."""
    grouping: paging.Grouping = calc_parts["grouping"]
    layout: Layout = calc_parts["layout"]
    ctx: SizingContext = calc_parts["ctx"]
    version: Version = calc_parts["version"]
    sizing: logfmt.Sizing = calc_parts.get("sizing") or logfmt.Sizing(extensible=True)
    after = replace(sizing, after_warmup=True)
    lines = [logfmt.available_line(min(capacity), version)] if min(capacity) > 0 else []
    stages = [(i, paging.project(grouping, st)) for i, st in enumerate(layout.stages)]
    stages = [(i, proj) for i, proj in stages if any(g.layer_names for g in proj.groups)]
    reserved = min((paging.num_blocks(proj, capacity[i]) for i, proj in stages), default=0)
    error, est_len, worst_need = None, None, 0
    auto = calc_parts.get("auto_max_model_len")
    attention_free = grouping.kind == "attention_free"
    first = paging.fit_targets(grouping, layout.stages, version, list(capacity))
    if auto:
        ctx, error = _fit_length(ctx, first, version, attention_free, sizing, lines, tentative=True)
    if error is None and calc_parts.get("utilization_cap_line"):
        lines.append(calc_parts["utilization_cap_line"])
    if error is None:       # the estimate's own check, before warm-up
        error, est_len, _ = _fit_check(first, ctx, version, sizing, min(capacity) <= 0)
    strides = {i: extensible.segment_strides(proj) for i, proj in stages}
    blocks = min((extensible.blocks_within(final[i], strides[i], reserved) for i, _ in stages), default=0) \
        if committed is None else committed
    if attention_free:
        blocks = 1
    measured = list(final)      # what the second fit and the check measure: the blocks each stage committed
    for i, proj in stages:
        measured[i] = blocks * paging.bytes_per_block(proj)
    second = paging.fit_targets(grouping, layout.stages, version, measured)
    if error is None and auto and not attention_free:
        ctx, error = _fit_length(ctx, second, version, False, after, lines)
    if error is None:       # shrink_kv_cache_configs' check of the committed blocks less the null block
        error, est_len, worst_need = _fit_check(second, ctx, version, after,
                                                any(target.check_bytes <= 0 for target in second))
    fits = error is None
    cap = paging.capacity(grouping, blocks, ctx, version)
    if fits:
        lines += logfmt.capacity_lines(cap.tokens, ctx.max_model_len, cap.max_concurrency, version)
        if stages and not attention_free:
            lines.append(logfmt.extended_line(blocks, extensible.committed_bytes(blocks, strides[stages[0][0]])))
    elif error:
        lines.append(error)
    avg_requests = None
    avg = calc_parts["avg_tokens"]
    if avg:
        per = paging.blocks_per_request(grouping, replace(ctx, max_model_len=min(avg, ctx.max_model_len)))
        avg_requests = blocks / per if per else None
    return PoolResult(min(final), blocks, cap.blocks_per_request, cap.max_concurrency, cap.tokens, fits,
                      worst_need, est_len, error, tuple(lines), avg_requests, ctx.max_model_len, tuple(measured))


def _measured_from_log(parts: dict[str, Any], logged: tuple[int, int, int], budget: Budget | None,
                       stages: int) -> tuple[PoolResult, PoolResult, PoolResult]:
    """With the extensible KV cache a log's "Available KV cache memory" is the reservation, not the pool:
    the pool is that figure less what kvcalc estimates warm-up takes beyond it (the CUDA graphs, the
    start-up memory, the margin: the gap between the estimate's capacity and its measured budget), an
    estimate with the estimate's band; without a budget only the ceiling is known."""
    if budget is None:
        return tuple(_measured_pool(parts, (m,) * stages, (m,) * stages) for m in logged)  # type: ignore[return-value]
    reserved = min(budget.capacity_available)
    gaps = (reserved - min(budget.stage_available), reserved - min(budget.stage_high),
            reserved - min(budget.stage_low))
    return tuple(_measured_pool(parts, (m - gap,) * stages, (m,) * stages)  # type: ignore[return-value]
                 for m, gap in zip(logged, gaps))


def _later_stage_lines(grouping: paging.Grouping, layout: Layout, blocks: int, ctx: SizingContext,
                       version: Version, printed: list[str]) -> list[str]:
    """DeepSeek-V4 under pipeline parallelism before v0.27: every worker logs its own capacity, measured in
    its own full-group pages (``get_kv_cache_configs``' loop; a line already printed is not repeated)."""
    if grouping.report is None or grouping.packed is None or grouping.packed.concurrency_page is None:
        return []
    out: list[str] = []
    for stage in layout.stages[1:]:
        cap = paging.capacity(replace(grouping, report=paging.project(grouping, stage)), blocks, ctx, version)
        for line in logfmt.capacity_lines(cap.tokens, ctx.max_model_len, cap.max_concurrency, version):
            if line not in printed and line not in out:
                out.append(line)
    return out


def _override_note(parts: dict[str, Any], override: int, available: int) -> Text:
    """What --num-gpu-blocks-override asks of each GPU (the stage with the largest blocks), and a
    warning where that is more than the memory vLLM found for the cache: it allocates the blocks
    anyway, so the start or a later batch can run out of GPU memory."""
    grouping: paging.Grouping = parts["grouping"]
    per_block = max((paging.bytes_per_block(paging.project(grouping, st)) for st in parts["layout"].stages), default=0)
    asked = override * per_block
    if asked > available:
        return Text("note.blocks_override_over", blocks=override, gib=asked / GIB, available=available / GIB)
    return Text("note.blocks_override", blocks=override, gib=asked / GIB, available=available / GIB)


def _override_blocks(grouping: paging.Grouping, layout: Layout, version: Version, stage_bytes: list[int],
                     override: int) -> tuple[list[int], str]:
    """--num-gpu-blocks-override: the line vLLM prints (the blocks the first stage's memory would have
    made), and the memory the fit check then measures: N blocks' bytes per stage from v0.21
    (Rule.BLOCKS_OVERRIDE_SETS_MEMORY), the profiled memory before."""
    out = list(stage_bytes)
    natural = None
    for index, stage in enumerate(layout.stages):
        proj = paging.project(grouping, stage)
        if not any(g.layer_names for g in proj.groups):
            continue
        per_block = paging.bytes_per_block(proj)
        if natural is None:
            natural = max(0, stage_bytes[index]) // per_block if per_block else 0
        if applies(Rule.BLOCKS_OVERRIDE_SETS_MEMORY, version):
            out[index] = override * per_block
    return out, logfmt.blocks_override_line(natural or 0, override)


def _fit_length(ctx: SizingContext, targets: list[paging.FitTarget], version: Version, attention_free: bool,
                sizing: logfmt.Sizing, lines: list[str], tentative: bool = False) -> tuple[SizingContext, str | None]:
    """--max-model-len auto (``_auto_fit``): the fitted context, its line added to ``lines``, or vLLM's error
    when not one token fits."""
    ctx, line = _auto_fit(ctx, targets, version, attention_free, sizing, tentative)
    if line is None:
        return ctx, logfmt.auto_fit_error(version, sizing)
    lines.append(line)
    return ctx, None


def _fit_check(targets: list[paging.FitTarget], ctx: SizingContext, version: Version, sizing: logfmt.Sizing,
               no_memory: bool) -> tuple[str | None, int | None, int]:
    """``_check_enough_kv_cache_memory`` over every target: the first error (no memory at all, else a length
    that does not fit, with the longest that would), that length, and the largest need."""
    error, est_len, worst_need = None, None, 0
    for target in targets:
        need = paging.needed_bytes(target.grouping, ctx, version, target.specs)
        if error is None and no_memory:
            error = logfmt.no_memory_error(version, sizing)
        elif error is None and need > target.check_bytes:
            est_len = paging.estimate_max_model_len(target.grouping, ctx, version, target.specs, target.check_bytes)
            error = logfmt.does_not_fit_error(ctx.max_model_len, need, target.check_bytes, est_len, version, sizing)
        worst_need = max(worst_need, need)
    return error, est_len, worst_need


def _auto_fit(ctx: SizingContext, targets: list[paging.FitTarget], version: Version,
              attention_free: bool, sizing: logfmt.Sizing | None = None,
              tentative: bool = False) -> tuple[SizingContext, str | None]:
    """``_auto_fit_max_model_len``: the longest length every worker's fit check passes (never
    above the model's own), with the line vLLM prints; no line when not one token fits (vLLM
    refuses to start). The memory named is the first worker's, or the one that cut the length."""
    original = ctx.max_model_len
    if attention_free or not targets:
        return ctx, logfmt.auto_fit_attention_free_line(original)
    fitted, memory = original, targets[0].check_bytes
    for target in targets:
        longest = paging.estimate_max_model_len(target.grouping, ctx, version, target.specs, target.check_bytes)
        if longest < fitted:
            fitted, memory = longest, target.check_bytes
    if fitted <= 0:
        return ctx, None
    return replace(ctx, max_model_len=fitted), logfmt.auto_fit_line(original, fitted, memory, version, sizing,
                                                                     tentative)


def _limiting_stage(parts: dict[str, Any], stage_available: tuple[int, ...]) -> int:
    """The PP stage with the fewest blocks for its memory (vLLM keeps the minimum)."""
    grouping: paging.Grouping = parts["grouping"]
    layout: Layout = parts["layout"]
    best, best_blocks = 0, None
    for i, stage in enumerate(layout.stages):
        proj = paging.project(grouping, stage)
        if not any(g.layer_names for g in proj.groups):
            continue
        blocks = paging.num_blocks(proj, stage_available[i])
        if best_blocks is None or blocks < best_blocks:
            best, best_blocks = i, blocks
    return best


def _estimate(config: dict[str, Any], arch: ModelArch, gpu: Gpu, r: Resolved, model_dtype: str,
              weights_bytes: int | None, mrv2: bool, parts: dict[str, Any],
              measured_reserve: int | None = None,
              num_spec: int = 0, sixteen_bit_cache: bool = True,
              fa_cache: bool = True, mm_prefix: bool = False,
              fi_cache: bool = True) -> tuple[Budget | None, str | None, tuple[str, ...]]:
    """The fully estimated budget, or why there is none, and the notes its reserve raises (none for
    a measured reserve). ``num_spec`` is the speculative tokens per step (any method, n-gram
    included): it sets the decode query length the CUDA-graph sizes follow; ``sixteen_bit_cache``
    the KV cache's values are 16-bit (it picks Hopper's MLA backend, whose graphs count); ``fa_cache``
    FlashAttention takes its type where it takes fp8 (kvspecs.fa_keeps_cache), else FlashInfer runs;
    ``mm_prefix`` the model attends fully over image tokens (attention.mm_prefix_lm)."""
    from .reserve import ReserveEstimate, estimate_reserve, flashinfer_workspace_bytes, nccl_in_graphs  # noqa: PLC0415
    from .weights import LOAD_MAX_SPLIT_BYTES, estimate_weights  # noqa: PLC0415

    s = r.settings
    expert_parallel = expert_parallel_in_effect(s, arch)
    dtype_bytes = model_dtype_bytes(model_dtype)
    mxfp4_align = mxfp4_expert_align(r.version, gpu.platform, gpu.compute_capability, s.mxfp4_marlin)
    # vLLM loads under a 20 MiB split limit on CUDA from v0.21; ROCm keeps torch's default
    load_split = LOAD_MAX_SPLIT_BYTES if gpu.platform == "cuda" and applies(Rule.LOAD_MAX_SPLIT_20MIB, r.version) \
        else None
    w = estimate_weights(config, weights_bytes, s.weights, dtype_bytes, s.tensor_parallel_size,
                         s.pipeline_parallel_size, mxfp4_align=mxfp4_align,
                         max_len=r.max_len_limit or r.max_model_len,
                         mtp_layers=len(arch.mtp_layers) if _mtp_drafts(s) else 0,
                         dspark_layers=dspark_layer_count(s.speculative) if _dspark(s) else 0,
                         mnbt=r.max_num_batched_tokens, towers_off=_towers_off(config, r),
                         rounding=True, max_split=load_split,
                         cpu_offload_bytes=int((s.cpu_offload_gb or 0) * GIB),
                         expert_parallel=expert_parallel, version=r.version,
                         capability_major=gpu.target.major)
    if w is None:
        return None, Text("note.weights_unknown"), ()
    vocab = text_part(config).get("vocab_size")
    if not isinstance(vocab, int):
        return None, Text("note.vocab_unknown"), ()
    eager = runs_eager(s)
    # the extensible KV cache measures the graphs after capture, whatever VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS
    cg = cuda_graph_deducted(r.version, eager, mrv2, None if r.extensible_kv_cache else s.cudagraph_memory_profiling,
                             gpu.platform)
    if cg and measured_reserve is None and s.attention_backend == "FLASHINFER" and len(attention_head_sizes(arch)) > 1:
        # FlashInfer over two head sizes (Gemma 4 text-only): one public start's graph estimate was
        # 2.82 GiB where Triton's is 0.50, by what kvcalc cannot tell yet
        return None, Text("note.flashinfer_mixed_heads"), ()
    # breakable CUDA graphs (Rule.BREAKABLE_CUDAGRAPHS) keep the graphs and drop torch.compile
    compiled = not eager and not breakable_cudagraphs(arch.architecture, r.version, gpu.platform)
    pp = s.pipeline_parallel_size
    fi_workspace = flashinfer_workspace_bytes(r.version, r.max_num_batched_tokens,
                                              arch.num_attention_heads // s.tensor_parallel_size,
                                              max(attention_head_sizes(arch), default=0))
    fi_trtllm = flashinfer_trtllm_decode(gpu.target, r.version)
    reserves = tuple(estimate_reserve(config, r.version, tp=s.tensor_parallel_size, pp=pp,
                                      mnbt=r.max_num_batched_tokens, max_num_seqs=r.max_num_seqs,
                                      vocab=vocab, dtype_bytes=dtype_bytes, cuda_graphs=cg,
                                      model_runner_v2=mrv2, last_stage=(i == pp - 1), first_stage=(i == 0),
                                      platform=gpu.platform, flashinfer_sampler=s.flashinfer_sampler,
                                      max_model_len=r.max_model_len, mm_profiling=not profile_off(config, r),
                                      decode_query_len=1 + num_spec, capability_major=gpu.target.major,
                                      hybrid=arch.has_state_layers,
                                      peer_to_peer=gpu.peer_to_peer if s.peer_to_peer is None else s.peer_to_peer,
                                      peer_to_peer_said=s.peer_to_peer is not None,
                                      nvswitch=gpu.nvswitch,
                                      nccl_graphs=nccl_in_graphs(s.tensor_parallel_size, gpu.platform,
                                                                 gpu.nvlink_all_pairs, _peer_to_peer(gpu, s),
                                                                 not s.disable_custom_all_reduce,
                                                                 s.peer_to_peer is not None),
                                      max_capture_size=s.max_cudagraph_capture_size,
                                      capture_sizes=r.capture_sizes, compiled=compiled,
                                      cudagraph_mode=cudagraph_mode_in_effect(s),
                                      allreduce_fusion_pass=allreduce_fusion_pass(s),
                                      full_graphs=keeps_full_graphs(s.attention_backend, arch, gpu.target,
                                                                    r.version, 1 + num_spec, sixteen_bit_cache,
                                                                    fa_cache, mm_prefix),
                                      # DeepSeek-V4 runs its own attention classes (FlashMLA, FlashInfer's SM120
                                      # path), whose workspace deepseek_v4_profile counts
                                      flashinfer_attention=arch.compressed is None and runs_flashinfer(
                                          s.attention_backend, arch, gpu.target, r.version, sixteen_bit_cache,
                                          fa_cache, mm_prefix, fi_cache),
                                      interactivity=s.performance_mode == "interactivity",
                                      embeds_in_graph=embeds_in_graph(config, r),
                                      mm_limits=r.mm_limits, mm_processor=r.mm_processor,
                                      compile_cache=s.compile_cache, unified_memory=gpu.unified_memory,
                                      stage_weights=w.per_stage_bytes[i], capability=gpu.compute_capability,
                                      quick_reduce_level=s.rocm_quick_reduce,
                                      spec_method=s.speculative.method if s.speculative else None,
                                      pinned_memory=s.pinned_memory,
                                      moe_workspace=_moe_workspace(config, s, r.version),
                                      expert_parallel=expert_parallel, fp4_indexer=bool(s.fp4_indexer_cache),
                                      graphs_captured=r.extensible_kv_cache,
                                      flashinfer_workspace=fi_workspace, flashinfer_trtllm_decode=fi_trtllm)
                     for i in range(pp))
    reserve_notes = reserves[0].notes if measured_reserve is None else ()
    if measured_reserve is not None:
        m = max(0, int(measured_reserve))
        # the extensible cache's reservation leaves the CUDA graphs out of what a log measured, while the
        # pool after warm-up pays for them: keep their estimate there
        reserves = tuple(ReserveEstimate((m, m, m), (0, 0, 0),
                                         estimated.cuda_graphs if r.extensible_kv_cache else (0, 0, 0),
                                         Text("basis.measured_reserve"), measured=True,
                                         cuda_graph_basis=estimated.cuda_graph_basis if r.extensible_kv_cache
                                         else "")
                         for estimated in reserves)
    drafter, drafter_basis = _drafter(config, s, dtype_bytes)
    draft = estimate_budget(gpu.total_bytes, r.gpu_memory_utilization, r.version, w, reserves, 0,
                            drafter, drafter_basis)
    limiting = _limiting_stage(parts, draft.stage_available)
    budget = estimate_budget(gpu.total_bytes, r.gpu_memory_utilization, r.version, w, reserves, limiting,
                             drafter, drafter_basis)
    if r.extensible_kv_cache:
        step, step_basis = _sizing_step(config, arch, r, parts["layout"].block_size, dtype_bytes, num_spec) \
            if measured_reserve is None else ((0, 0, 0), "")
        budget = measured_after_warmup(budget, reserves, gpu.platform, s.tensor_parallel_size * pp,
                                       gpu.unified_memory, step, step_basis)
    return budget, _weights_problem(budget, gpu.total_bytes), reserve_notes


def _sizing_step(config: dict[str, Any], arch: ModelArch, r: Resolved, block_size: int, dtype_bytes: int,
                 num_spec: int) -> tuple[tuple[int, int, int], str]:
    """The extensible cache's sizing-warm-up step that can outgrow the profile (sizing_warmup.py) and its
    basis: the MLA context step of a model with dense MLA. Sparse MLA (DeepSeek-V3.2, GLM-5) attends to
    its top-k cached tokens in the latent form without up-projecting a context, and DeepSeek-V4 runs its
    own attention, so neither has one."""
    if not arch.is_mla or arch.sparse_mla_index_head_dim or arch.compressed is not None:
        return (0, 0, 0), ""
    tokens = sizing_warmup.context_step_tokens(r.max_model_len, r.max_num_seqs, r.max_num_batched_tokens,
                                               block_size, 1 + num_spec)
    step = sizing_warmup.mla_context_step_bytes(config, r.settings.tensor_parallel_size, dtype_bytes, tokens)
    return step, Text("basis.mla_context_step", tokens=tokens, gib=step[0] / GIB, high=step[2] / GIB)


def expert_parallel_in_effect(s: Settings, arch: ModelArch) -> bool:
    """Whether --enable-expert-parallel changes what a GPU holds: a MoE model over more than one
    tensor-parallel GPU (the expert-parallel size is TP × DP, and data parallelism with experts is
    refused before this; vllm/config/parallel.py, FusedMoEParallelConfig.make)."""
    return bool(s.enable_expert_parallel) and arch.is_moe and s.tensor_parallel_size > 1


def _refuse_item_over_batch(config: dict[str, Any], r: Resolved, platform: str) -> None:
    """Where vLLM takes a prefix-LM model's multimodal items whole (Rule.MM_PREFIX_LM_WHOLE_ITEMS;
    ROCm from v0.30), a start whose step is shorter than the largest item is refused: say so, as
    vLLM would, instead of sizing a pool it never builds."""
    from .reserve import mm_item_taken_whole  # noqa: PLC0415
    rule = Rule.MM_PREFIX_LM_WHOLE_ITEMS if platform == "cuda" else Rule.MM_PREFIX_LM_WHOLE_ITEMS_ROCM
    if platform not in ("cuda", "rocm") or not applies(rule, r.version):
        return
    item = mm_item_taken_whole(config, r.mm_limits, r.mm_processor, bool(r.settings.language_model_only))
    if item is None or item[1] <= r.max_num_batched_tokens:
        return
    modality, tokens = item
    if r.settings.max_num_batched_tokens is not None:
        why = Text("settings.mm_item_whole_given", version=str(r.version), modality=modality, tokens=tokens,
                   mnbt=r.max_num_batched_tokens)
    else:
        why = Text("settings.mm_item_whole_default", version=str(r.version), modality=modality, tokens=tokens,
                   mnbt=r.max_num_batched_tokens)
    raise SettingsError({"--max-num-batched-tokens": why})


def _drafter(config: dict[str, Any], s: Settings, dtype_bytes: int) -> tuple[tuple[int, int, int], str]:
    """A speculative drafter's weights on the last stage, from its config (weights.drafter_weights),
    with the basis the budget shows; none without a drafter config or for a method not sized."""
    spec = s.speculative
    if spec is None or spec.draft_config is None or spec_family(spec.method) != "eagle":
        return (0, 0, 0), ""
    method = spec.method.lower()
    # the config was read and checked with the layers (_draft_layers, read_drafter)
    sized = drafter_weights(speculators_view(spec.draft_config), config, method,
                            s.tensor_parallel_size, dtype_bytes)
    if sized is None:
        return (0, 0, 0), ""
    basis = Text("basis.draft_model", gib=sized[0] / GIB) if method == "draft_model" else \
        Text("basis.draft_eagle", method=method, gib=sized[0] / GIB, high=sized[2] / GIB)
    return sized, basis


def _dspark(s: Settings) -> bool:
    return s.speculative is not None and spec_family(s.speculative.method) == "dspark"


def _mtp_drafts(s: Settings) -> bool:
    """Whether vLLM loads the checkpoint's own MTP layers: only for an MTP method (any *_mtp);
    n-gram, suffix decoding and EAGLE/draft models leave them unloaded."""
    return s.speculative is not None and spec_family(s.speculative.method) == "mtp"


def _mxfp4_experts(config: dict[str, Any], s: Settings) -> bool:
    """Whether the experts load as MXFP4 (the checkpoint's format, or the weights chosen), the
    only case where asking vLLM for Marlin (Settings.mxfp4_marlin) changes anything."""
    fmt = format_for(s.weights, config)
    return fmt is not None and fmt.name == "mxfp4"


def _moe_workspace(config: dict[str, Any], s: Settings, version: Version) -> str:
    """How the fused-MoE workspaces that stay allocated after the profile's forward pass from v0.14
    (Rule.MOE_WORKSPACE_KEPT) count: "kept" for 16-bit experts (the Triton experts' shapes),
    "possible" for quantized ones (other kernels: the band only), "" before v0.14
    (reserve.estimate_reserve; a model without experts has no workspace either way)."""
    if not applies(Rule.MOE_WORKSPACE_KEPT, version):
        return ""
    return "kept" if format_for(s.weights, config) is None else "possible"


def _weights_problem(budget: Budget, total: int) -> str | None:
    """Say so when the weights cannot fit, the way a user meets it in vLLM."""
    w = budget.weights.bytes
    if w >= total:
        return Text("note.weights_over_total", weights=w / GIB, total=total / GIB)
    if w >= budget.requested_bytes:
        return Text("note.weights_over_requested", weights=w / GIB, requested=budget.requested_bytes / GIB)
    return None


def without_sliding_window(config: dict[str, Any]) -> tuple[dict[str, Any], int | None]:
    """``config`` as --disable-sliding-window leaves it (its ``sliding_window`` set to None where it
    sits, the top level or the text config, so every layer attends over the whole context) and the
    window it had, in tokens: the smallest where layers differ, which vLLM caps the length at
    (vllm/config/model.py _get_and_verify_max_len with get_min_sliding_window; ModelConfig.__post_init__
    then sets the window to None); None where the model has none, which the flag leaves alone."""
    window = min((l.window for l in read_model(config).layers if l.kind == "sliding_window" and l.window),
                 default=0)
    if not window:
        return config, None
    if "sliding_window" in config:
        return apply_overrides(config, {"sliding_window": None}), window
    return apply_overrides(config, {"text_config": {"sliding_window": None}}), window


def sliding_window_rope_problem(config: dict[str, Any], version: Version) -> Text | None:
    """Why ``version`` refuses --disable-sliding-window for this config, or None: up to v0.11 vLLM
    raised NotImplementedError whenever the text config sets rope_scaling of a type other than su,
    longrope or llama3, Gemma 3 aside, whether or not the model has a sliding window
    (vllm/config/model.py _get_and_verify_max_len; Rule.SLIDING_WINDOW_OFF_WITH_ROPE_SCALING)."""
    if applies(Rule.SLIDING_WINDOW_OFF_WITH_ROPE_SCALING, version):
        return None
    t = text_part(config)
    rope = t.get("rope_scaling")
    if not isinstance(rope, dict) or "gemma3" in str(config.get("model_type") or t.get("model_type") or ""):
        return None
    kind = rope.get("rope_type", rope.get("type"))
    if kind in ("su", "longrope", "llama3"):
        return None
    return Text("settings.sliding_window_rope", version=str(version), kind=show(kind),
                since=str(Rule.SLIDING_WINDOW_OFF_WITH_ROPE_SCALING.value.since))


def calculate(config: dict[str, Any], gpu: Gpu, settings: Settings, *, model_id: str = "",
              weights_bytes: int | None = None, available_kv_gib: float | None = None,
              measured_reserve_bytes: int | None = None, committed_blocks: int | None = None) -> Calculation:
    """Compute everything for one model, GPU and set of flags.

    ``available_kv_gib`` is the "Available KV cache memory" a log printed; with it the pool
    is computed from the log's memory (exact up to its 0.01 GiB rounding), besides the
    fully estimated pool. ``measured_reserve_bytes`` replaces the estimated activation,
    non-torch and CUDA-graph terms with what a user's log showed (calibrated what-ifs).
    ``committed_blocks``: the blocks a v0.34 log's extensible KV cache committed ("Extended KV cache to N
    blocks"), which make the pool from the log exact there.
    """
    if weights_bytes is not None and (isinstance(weights_bytes, bool) or not isinstance(weights_bytes, int)
                                      or weights_bytes <= 0):
        raise SettingsError({"weights_bytes": Text("settings.weights_bytes")})
    shape_notes: tuple[Text, ...] = ()
    if settings.hf_overrides is not None:
        overrides = overrides_of(settings.hf_overrides)
        if overrides is None:
            raise SettingsError({"--hf-overrides": Text("settings.hf_overrides", value=show(settings.hf_overrides))})
        config = apply_overrides(config, overrides)
        settings = replace(settings, hf_overrides=overrides)
        if weights_bytes is not None and not keeps_checkpoint_shapes(overrides):
            weights_bytes = None        # the checkpoint's size no longer describes these shapes
            shape_notes = (Text("note.hf_overrides_shapes", keys=", ".join(sorted(overrides))[:120]),)
    config, window = without_sliding_window(config) if settings.disable_sliding_window else (config, None)
    arch = read_model(config)
    derived, yarn_scaled = arch.derived_max_model_len, arch.derived_max_model_len_yarn_scaled
    if window is not None and derived is not None and window < derived:
        # vLLM caps the model's length at the window before any YaRN factor applies (config/model.py
        # _get_and_verify_max_len), then drops the window (ModelConfig.__post_init__)
        yarn_scaled = yarn_scaled * window // derived if yarn_scaled is not None else None
        derived = window
    if window is not None:
        shape_notes = (*shape_notes, Text("note.sliding_window_disabled", window=window))
    resolved = resolve(settings, gpu.total_bytes, gpu.device_name, derived,
                       gpu.unified_memory, yarn_scaled, arch.longrope_default_max_len, window,
                       compute_capability=gpu.compute_capability, platform=gpu.platform)
    version = resolved.version
    rope_refusal = sliding_window_rope_problem(config, version) if settings.disable_sliding_window else None
    if rope_refusal is not None:
        raise SettingsError({"--disable-sliding-window": rope_refusal})   # Text: sliding_window_rope_problem
    refuse_model_before_release(arch, version)
    refuse_model_after_removal(arch, version)
    arch = as_release_reads(arch, version)
    from .reserve import mm_prefix_lm_batch_floor  # noqa: PLC0415
    floored = with_batch_floor(resolved, mm_prefix_lm_batch_floor(config, resolved.mm_limits, resolved.mm_processor,
                                                                 bool(settings.language_model_only)))
    batch_floor_notes = (Text("note.mm_prefix_lm_batch_floor", old=resolved.max_num_batched_tokens,
                              new=floored.max_num_batched_tokens),) \
        if floored.max_num_batched_tokens != resolved.max_num_batched_tokens else ()
    resolved = floored
    _refuse_item_over_batch(config, resolved, gpu.platform)
    s = resolved.settings     # the sizes read ("32k" -> 32,000)
    given_len = None if resolved.auto_max_model_len else s.max_model_len
    supports_bf16 = gpu.platform != "cuda" or gpu.target.major >= 8
    model_dtype = normalize_model_dtype(arch.torch_dtype, supports_bf16)
    dsv4_refused = deepseek_v4_problem(arch, gpu.target, version, s)
    if dsv4_refused is not None:
        flag, why = dsv4_refused
        raise SettingsError({flag: why})  # Text: deepseek_v4_problem gives one
    if s.fp4_indexer_cache and arch.compressed is None:
        raise SettingsError({"--attention-config": Text("settings.fp4_indexer_dsv4_only")})
    dspark_missing = dspark_config_problem(text_part(config)) if arch.compressed is not None and _dspark(s) else None
    if dspark_missing is not None:
        raise SettingsError({"--speculative-config": dspark_missing})  # Text: dspark_config_problem gives one
    kv = deepseek_v4_kv(s.kv_cache_dtype, version) if arch.compressed is not None else \
        resolve_kv_dtype(s.kv_cache_dtype, model_dtype, arch.checkpoint_kv_dtype, version, arch.is_mla,
                         arch.architecture, gpu.platform, gpu.target.major, arch.quant_method,
                         sparse_mla=bool(arch.sparse_mla_index_head_dim))
    if arch.sparse_mla_index_head_dim:
        kv = sparse_mla_storage(kv, s.kv_cache_dtype, version, gpu.platform, gpu.target.major,
                                max(1, arch.num_attention_heads // max(1, s.tensor_parallel_size)))
    mrv2 = uses_model_runner_v2(arch, version, s.speculative.method if s.speculative else None, s.model_runner_v2,
                                gpu.platform)
    unpinned_v1 = mrv2 and s.pinned_memory is False and not applies(Rule.MRV2_WITHOUT_PINNED_MEMORY, version)
    if unpinned_v1:
        resolved, s, mrv2 = _v1_without_pinned_memory(resolved, version)
    async_on = _async_scheduling(s, version, mrv2)
    draft, notes, drafter = _draft_layers(arch, s)
    if unpinned_v1:
        notes = [*notes, Text("note.unpinned_runs_v1", version=str(version),
                              since=str(Rule.MRV2_WITHOUT_PINNED_MEMORY.value.since))]
    if s.allow_long_max_model_len and resolved.max_len_limit is not None and \
            resolved.max_model_len > resolved.max_len_limit:
        notes = [*notes, Text("note.long_max_model_len", len=resolved.max_model_len, limit=resolved.max_len_limit)]
    capped = draft_length_cap(s, drafter, version, mrv2, resolved.max_model_len)
    if capped is not None:
        notes = [*notes, Text("note.draft_caps_max_len", draft=capped, target=resolved.max_model_len)]
        resolved = replace(resolved, max_model_len=capped)
    # last of all the notes: the specific ones come first
    release_notes = (Text("note.release_without_logs", major=version.major, minor=version.minor,
                          newest_major=NEWEST_LOGGED.major, newest_minor=NEWEST_LOGGED.minor),) \
        if (version.major, version.minor) > (NEWEST_LOGGED.major, NEWEST_LOGGED.minor) else ()
    notes = [*notes, *batch_floor_notes, *shape_notes]
    if gpu.total_estimated:     # a catalog total derived from sister cards (data/gpus.json says how)
        notes = [*notes, Text("note.gpu_total_estimated", gpu=gpu.name)]
    v0_note = v0_engine_note(arch, gpu.target, version, s.kv_cache_dtype)
    if v0_note:
        notes = [*notes, v0_note]
    if s.enable_chunked_prefill is False and not applies(Rule.CHUNKED_PREFILL_OPTIONAL, version):
        notes = [*notes, Text("note.chunked_prefill_forced", version=str(version),
                              since=str(Rule.CHUNKED_PREFILL_OPTIONAL.value.since))]
    if not runs_eager(s) and breakable_cudagraphs(arch.architecture, version, gpu.platform):
        notes = [*notes, Text("note.breakable_cudagraphs", major=version.major, minor=version.minor)]
    if arch.derived_max_model_len is None and given_len is None:
        notes = [*notes, Text("note.max_len_assumed", length=NO_LENGTH_KEY_MAX_LEN)]
    if given_len is None and arch.longrope_default_max_len is not None and \
            applies(Rule.LONGROPE_DEFAULT_ORIGINAL_LEN, version) and resolved.max_len_limit and \
            resolved.max_model_len < resolved.max_len_limit:
        notes = [*notes, Text("note.longrope_default", length=resolved.max_model_len, limit=resolved.max_len_limit)]
    if fp8_by_default(s.kv_cache_dtype, arch.architecture, gpu.platform, gpu.target.major, version):
        notes = [*notes, Text("note.glm_fp8_kv_on_sm10")]
    if s.kv_connector is not None:
        if any(l.kind in ("sliding_window", "chunked_local", "mamba", "compressed") for l in arch.layers) or \
                arch.has_state_layers:
            raise SettingsError({"--kv-transfer-config": Text("settings.kv_connector_hybrid")})
        notes = [*notes, Text("note.kv_connector", connector=s.kv_connector)]
    if s.enable_expert_parallel and not arch.is_moe:
        notes = [*notes, Text("note.expert_parallel_dense")]
    elif s.enable_expert_parallel and s.tensor_parallel_size == 1 and s.data_parallel_size == 1:
        notes = [*notes, Text("note.expert_parallel_one_gpu")]
    elif expert_parallel_in_effect(s, arch):
        experts = expert_count(text_part(config))
        notes = [*notes, Text("note.expert_parallel", tp=s.tensor_parallel_size, experts=experts,
                              local=experts_on_first_gpu(experts, s.tensor_parallel_size, version))]
    if s.data_parallel_size > 1:
        gpus_per_engine = s.tensor_parallel_size * s.pipeline_parallel_size
        if arch.is_moe:
            raise SettingsError({"--data-parallel-size": Text("settings.data_parallel_moe",
                                                              gpus=s.data_parallel_size * s.tensor_parallel_size)})
        notes = [*notes, Text("note.data_parallel", dp=s.data_parallel_size, per=gpus_per_engine,
                              gpus=s.data_parallel_size * gpus_per_engine)]
    check_quantization_supported(config, s.weights, version, gpu.platform, gpu.compute_capability, gpu.name)
    if arch.model_type == "falcon_h1" and (arch.quant_method or s.weights not in (None, "auto")) and \
            not applies(Rule.FALCON_H1_MLP_QUANTIZED, version):
        notes = [*notes, Text("note.falcon_h1_mlp_16_bit", version=str(version),
                              since=str(Rule.FALCON_H1_MLP_QUANTIZED.value.since))]
    deprecated_flag = needs_deprecated_flag(config, s.weights, version)
    if deprecated_flag:
        notes = [*notes, Text("note.deprecated_quantization", since=str(Rule.DEPRECATED_QUANTIZATION_GATE.info.since))]
    unpriced = unpriced_quant_method(config) if weights_bytes is None and s.weights in (None, "auto") else None
    if unpriced:
        notes = [*notes, Text("note.quant_method_unpriced", method=unpriced)]
    online, needs_checkpoint = serving_quantization(config, s.weights)
    if needs_checkpoint:
        notes = [*notes, Text("note.weights_need_checkpoint", fmt=s.weights)]
    spec_tokens = speculative_tokens(s.speculative, version) if s.speculative else 0
    if arch.model_type == "zamba2" and s.pipeline_parallel_size > 1:
        raise SettingsError({"--pipeline-parallel-size": Text("settings.zamba2_no_pp")})
    if arch.mamba is not None and arch.mamba.flavour == "kda" and gpu.target.platform != "cuda":
        raise SettingsError({"--gpu": Text("settings.kda_off_cuda", platform="ROCm" if gpu.target.platform == "rocm"
                                                                      else gpu.target.platform)})
    spec_refused = hybrid_spec_problem(arch, version, s.speculative is not None)
    if spec_refused is not None:
        raise SettingsError({"--speculative-config": spec_refused})  # Text: hybrid_spec_problem gives one
    ssm_flag = ssm_dtype_flag_effect(arch, version, s.mamba_ssm_cache_dtype)
    if ssm_flag is not None and ssm_flag[0] == "refuse":
        raise SettingsError({"--mamba-ssm-cache-dtype": ssm_flag[1]})  # Text: ssm_dtype_flag_effect gives one
    if ssm_flag is not None:
        notes = [*notes, ssm_flag[1]]
    # full attention over image tokens, which a backend must support (attention.mm_prefix_lm)
    mm_prefix = mm_prefix_lm(config, version, embeds_in_graph(config, resolved))
    if s.attention_backend is not None:
        why = forced_backend_problem(s.attention_backend, arch, gpu.target, version,
                                     0 if kv.four_bit else kv.value_bytes, kv.name, mm_prefix)
        if why is not None:
            raise SettingsError({"--attention-backend": why})  # Text: attention.forced_backend_problem gives one
    fp8_refused = triton_fp8_problem(s.attention_backend, arch, gpu.target, version, kv.name, mm_prefix)
    if fp8_refused is not None:
        flag = "--attention-backend" if s.attention_backend else "--kv-cache-dtype"
        raise SettingsError({flag: fp8_refused})  # Text: attention.triton_fp8_problem gives one
    dcp_refused = dcp_backend_problem(s.attention_backend, arch, gpu.target, version, s.decode_context_parallel_size,
                                      kv.sixteen_bit, kv.name, mm_prefix)
    if dcp_refused is not None:
        raise SettingsError({"--decode-context-parallel-size": dcp_refused})  # Text: dcp_backend_problem gives one
    nvfp4_refused = nvfp4_kv_problem(arch, gpu.target, version, kv.name, mm_prefix)
    if nvfp4_refused is not None:
        raise SettingsError({"--kv-cache-dtype": nvfp4_refused})  # Text: attention.nvfp4_kv_problem gives one
    caching_default = prefix_caching_default(arch, version)
    prefix_caching = s.enable_prefix_caching if s.enable_prefix_caching is not None else caching_default
    mamba_mode = mamba_cache_mode(arch, version, prefix_caching, s.speculative is not None)
    hybrid_manager = None if s.disable_hybrid_kv_cache_manager is None else not s.disable_hybrid_kv_cache_manager
    layout = build_layout(arch, LayoutRequest(
        tp=s.tensor_parallel_size, pp=s.pipeline_parallel_size, kv=kv, model_dtype=model_dtype,
        version=version, gpu=gpu.target, block_size=s.block_size, hybrid_manager=hybrid_manager,
        mamba_mode=mamba_mode, num_speculative_tokens=spec_tokens if arch.mamba else 0,
        draft_layers=draft,
        mamba_ssm_dtype=s.mamba_ssm_cache_dtype if s.mamba_ssm_cache_dtype not in (None, "auto")
        else default_ssm_dtype(arch, version, model_dtype),
        backend_block=backend_block(arch, gpu.target, version, mm_prefix, s.kv_connector is not None,
                                    s.attention_backend, kv.name),
        attention_backend=s.attention_backend, fp4_indexer=bool(s.fp4_indexer_cache)))
    grouping = paging.group_layers(layout.all_specs, version)
    if grouping.packed is not None and len(layout.stages) > 1:
        grouping = _packed_stages(grouping, layout)
    ift = paging.in_flight_tokens(version, resolved.max_num_batched_tokens, s.pipeline_parallel_size,
                                  async_on, mrv2)
    ctx = SizingContext(resolved.max_model_len, ift, mamba_mode, s.decode_context_parallel_size)
    state = next((sp for sp in layout.all_specs.values() if sp.kind == "mamba"), None)
    if mamba_mode == "all" and state is not None:   # an attention-only Granite 4.0 has no state
        notes = [*notes, Text("note.mamba_all_mode", version=str(version), block=state.block_size,
                              blocks=state.max_blocks(ctx), length=resolved.max_model_len)]
    kv_per_token = sum(sp.token_bytes for sp in layout.stages[0].values() if hasattr(sp, "token_bytes"))
    if grouping.packed is not None:     # DeepSeek-V4: what a token of context costs (the full group)
        kv_per_token = grouping.groups[0].page_size_bytes // layout.block_size
    elif len(layout.stages) > 1:
        kv_per_token = max(sum(sp.token_bytes for sp in st.values() if hasattr(sp, "token_bytes"))
                           for st in layout.stages)
    parts = {"grouping": grouping, "layout": layout, "ctx": ctx, "version": version,
             "avg_tokens": s.avg_tokens, "auto_max_model_len": resolved.auto_max_model_len,
             "num_blocks_override": s.num_gpu_blocks_override,
             "sizing": logfmt.Sizing(resolved.extensible_kv_cache, resolved.gpu_memory_utilization)}

    budget = None
    budget_note = None
    estimated = est_low = est_high = None
    if s.kv_cache_memory_bytes:
        estimated = _pool(parts, s.kv_cache_memory_bytes)
        budget_note = Text("note.kv_cache_memory_bytes")
    else:
        budget, budget_note, reserve_notes = _estimate(config, arch, gpu, resolved, model_dtype, weights_bytes,
                                                       mrv2, parts, measured_reserve_bytes, spec_tokens,
                                                       kv.sixteen_bit, fa_keeps_cache(kv.name), mm_prefix,
                                                       flashinfer_keeps_cache(kv.name))
        if budget is not None and budget.capacity_available:
            parts["utilization_cap_line"] = logfmt.utilization_cap_line(
                resolved.gpu_memory_utilization, budget.requested_bytes, budget.withheld_bytes)
            estimated = _measured_pool(parts, budget.stage_available, budget.capacity_available)
            est_low = _measured_pool(parts, budget.stage_low, budget.capacity_available)
            est_high = _measured_pool(parts, budget.stage_high, budget.capacity_available)
            # said after the model's own notes, beside the release's (a general note, not this model's)
            release_notes = (Text("note.extensible_kv_cache", util=resolved.gpu_memory_utilization), *release_notes)
        elif budget is not None:
            estimated = _pool(parts, budget.stage_available)
            est_low = _pool(parts, budget.stage_low)
            est_high = _pool(parts, budget.stage_high)
        if budget is not None:
            copy, pool_bytes = budget.compile_kept_possible_bytes, estimated.available_bytes if estimated else 0
            if copy and pool_bytes > 0:     # no pool left: the fit messages say so already
                if copy >= pool_bytes:
                    notes.append(Text("note.first_start_copy_exceeds", version=str(version), gib=copy / GIB))
                elif copy >= FIRST_START_COPY_NOTE_SHARE * pool_bytes:
                    notes.append(Text("note.first_start_copy", version=str(version), gib=copy / GIB,
                                      share=100 * copy / pool_bytes))
            if measured_reserve_bytes is None and _sampler_depends_on_install(s, version, gpu, mrv2):
                notes.append(Text("note.sampler_install"))
            if measured_reserve_bytes is None and _tower_not_modelled(config, resolved):
                notes.append(Text("note.mm_profile_unmodelled"))
            elif measured_reserve_bytes is None and _dummy_options_unmodelled(config, resolved) and \
                    not profile_off(config, resolved):
                notes.append(Text("note.mm_dummy_options"))
            proc = resolved.mm_processor
            if measured_reserve_bytes is None and proc is not None and proc.unmodelled and \
                    not profile_off(config, resolved):
                notes.append(Text("note.mm_processor_unmodelled", keys=", ".join(proc.unmodelled)))
            if _towers_missing(config) and not s.language_model_only:
                notes.append(Text("note.towers_missing"))
            notes.extend(reserve_notes)

    from_log = low = high = None
    if available_kv_gib is not None:
        if isinstance(available_kv_gib, bool) or not isinstance(available_kv_gib, (int, float)) \
                or not math.isfinite(available_kv_gib) or not 0 < available_kv_gib <= 16384:
            raise SettingsError({"available_kv_gib": Text("settings.available_kv_gib",
                                                          value=repr(available_kv_gib))})
        logged = (round(available_kv_gib * GIB), math.ceil((available_kv_gib - 0.005) * GIB - _FLOAT_EPS),
                  math.floor((available_kv_gib + 0.005) * GIB + _FLOAT_EPS))
        if resolved.extensible_kv_cache and committed_blocks:
            stages = len(layout.stages)
            from_log = low = high = _measured_pool(parts, (logged[0],) * stages, (logged[0],) * stages,
                                                   committed=committed_blocks)
        elif resolved.extensible_kv_cache:
            from_log, low, high = _measured_from_log(parts, logged, budget, len(layout.stages))
            notes.append(Text("note.extensible_from_log") if budget is not None else
                         Text("note.extensible_from_log_ceiling"))
        else:
            from_log = _pool(parts, logged[0])
            # The log rounds to 0.01 GiB: the true value lies within ±0.005 GiB.
            low = _pool(parts, logged[1])
            high = _pool(parts, logged[2])
    pool = from_log or estimated
    if s.num_gpu_blocks_override and pool is not None:
        notes.append(_override_note(parts, s.num_gpu_blocks_override, pool.available_bytes))
    cmd = serve_command(model_id or arch.architecture, resolved, kv_name=s.kv_cache_dtype,
                        prefix_caching_default=caching_default, quantization=online,
                        allow_deprecated_quantization=deprecated_flag,
                        mxfp4_experts=_mxfp4_experts(config, s),
                        model_runner_v2_default=uses_model_runner_v2(
                            arch, version, s.speculative.method if s.speculative else None, platform=gpu.platform),
                        async_scheduling_default=_async_scheduling(replace(s, async_scheduling=None), version, mrv2))
    from .reserve import sampler_path  # noqa: PLC0415
    sampler = sampler_path(version, mrv2, gpu.platform, s.flashinfer_sampler, gpu.compute_capability)
    return Calculation(
        model_id=model_id, arch=arch, gpu=gpu, resolved=resolved, kv=kv, model_dtype=model_dtype,
        layout=layout, grouping=grouping, ctx=ctx, model_runner_v2=mrv2, async_scheduling=async_on,
        in_flight_tokens=ift, kv_bytes_per_token=kv_per_token, budget=budget, budget_note=budget_note,
        estimated=estimated, estimated_low=est_low, estimated_high=est_high, from_log=from_log, from_log_low=low, from_log_high=high,
        serve_command=cmd, notes=tuple(notes) + layout.notes + release_notes,
        prefix_caching=prefix_caching,
        sampler=sampler,
        # what to suggest when the pool is short: not an fp8 cache vLLM refuses (a T4 from v0.24)
        fp8_cache_helps=kv.value_bytes > 1 and not kv.four_bit and
        triton_fp8_problem(s.attention_backend, arch, gpu.target, version, "fp8", mm_prefix) is None,
        mm_prefix=mm_prefix)
