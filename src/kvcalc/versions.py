"""vLLM releases and every sizing rule that changed between them, in one table.

Call sites ask ``applies(Rule.X, version)`` so a grep for ``Rule.X`` finds every
effect of a change. Each rule names the release it first shipped in, the upstream PR
and file, and whether that release is *confirmed* (release notes, a public log or
the log text itself) or *inferred* (merge date against release dates).

Sources: vLLM ``main`` read at upstream commits df13769 (2026-08-20) and 63344913
(2026-08-13), plus public startup logs (see ``data/vllm_logs.json``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from .errors import VersionError
from .messages import Text, register


@dataclass(frozen=True, order=True)
class Version:
    """A vLLM release number. Pre-release tags (rc, dev, post) are kept for display only."""

    major: int
    minor: int
    patch: int = 0
    text: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.text or f"{self.major}.{self.minor}.{self.patch}"


_VERSION_RE = re.compile(r"^\s*v?(\d+)\.(\d+)(?:\.(\d+))?((?:rc|\.?dev|\.?post|\+)[0-9A-Za-z.+]*)?\s*$")

OLDEST = Version(0, 10, 0)
NEWEST = Version(0, 34, 0)
"""The newest release confirmed: v0.34.0 is on PyPI (released 2026-11-16), read from its wheel."""

NEWEST_LOGGED = Version(0, 31, 0)
"""The newest minor release with a public startup log in data/vllm_logs.json (a test keeps the two
in step): for later releases every rule comes from reading the release wheels, none from a log."""

# Minor releases the page offers; any X.Y.Z in [OLDEST, NEWEST.minor.*] is accepted.
KNOWN_RELEASES: tuple[str, ...] = tuple(f"0.{m}.0" for m in range(10, 35))


def parse_version(text: str | None) -> Version:
    """Parse "0.14.1", "v0.11.0", "0.31.1rc1" or "0.20"; ``None`` or "" means the newest.

    Development builds numbered like "0.1.dev15181" carry no release and are refused,
    with a hint to give the release they were built after.
    """
    if text is None:
        return NEWEST
    if not isinstance(text, str) or len(text) > 64:
        raise VersionError(Text("version.not_text"))
    if text.strip() in ("", "latest", "newest"):
        return NEWEST
    raw = text.strip()
    m = _VERSION_RE.match(raw)
    if not m:
        raise VersionError(Text("version.unparsed", value=repr(raw)))
    v = Version(int(m.group(1)), int(m.group(2)), int(m.group(3) or 0), raw.lstrip("v"))
    if v < OLDEST or (v.major, v.minor) > (NEWEST.major, NEWEST.minor):
        if v.major == 0 and v.minor < 10 and "dev" in raw:
            raise VersionError(Text("version.dev_build", value=repr(raw)))
        raise VersionError(Text("version.out_of_range", value=repr(raw), lo_major=OLDEST.major,
                                lo_minor=OLDEST.minor, hi_major=NEWEST.major, hi_minor=NEWEST.minor))
    return v


@dataclass(frozen=True)
class RuleInfo:
    since: Version
    pr: str
    source: str
    what: str
    basis: str  # "confirmed: …" or "inferred: …"


def _v(text: str) -> Version:
    major, minor, patch = (int(x) for x in text.split("."))
    return Version(major, minor, patch)


class Rule(Enum):
    """Each member is one behaviour that starts at a release and stays on after it."""

    REQUESTED_MEMORY_CEIL = RuleInfo(
        _v("0.14.0"), "#29493", "vllm/v1/worker/utils.py request_memory",
        "requested memory = ceil(total × gpu_memory_utilization) (a float before)",
        "confirmed: v0.14.0 wheel (worker/utils.py request_memory takes math.ceil); v0.13.0 keeps a float")
    FORMAT_GIB_LOGS = RuleInfo(
        _v("0.14.0"), "#31865", "vllm/utils/mem_utils.py format_gib",
        "GiB figures in logs printed as str(round(x, 2)) ('50.6'); before: '%.2f' ('50.60')",
        "confirmed: v0.13.0 wheel prints '%.2f', v0.14.0 format_gib")
    ASYNC_SCHEDULING_DEFAULT = RuleInfo(
        _v("0.14.0"), "#27614", "vllm/config/scheduler.py",
        "async scheduling on by default (two batches in flight)",
        "confirmed: async_scheduling defaults to False in the v0.13.0 wheel (config/scheduler.py:133), to None "
        "in v0.14.0, which VllmConfig turns on (config/vllm.py:588-628); the v0.14.0 release notes")
    MAMBA_ALL_MODE = RuleInfo(
        _v("0.11.1"), "v0.11.1 wheel", "vllm/model_executor/models/config.py MambaModelConfig",
        "with prefix caching on, models whose class supports Mamba prefix caching (Nemotron-H, Granite "
        "4.0-H, Mamba, Jamba, Zamba2, Falcon-H1) cache a state per block: blocks are whole multiples of "
        "the SSD kernel's chunk and a request keeps one state block per block of max_model_len "
        "(mode 'all'), until #50991 (v0.28) makes every hybrid 'align'",
        "confirmed: absent from the v0.11.0 wheel (prefix caching off for every hybrid); in "
        "v0.11.1-v0.14.1 as mamba_block_size = the chunk-aligned block and cdiv(max_model_len, block) "
        "state pages, named 'all' from v0.15.0 and gone in v0.28.0")
    MAMBA_ALIGN_MODE = RuleInfo(
        _v("0.15.0"), "#30877", "vllm/model_executor/models/config.py MambaModelConfig",
        "prefix caching works for hybrids: with it on, Mamba cache mode 'align' keeps 2 state blocks "
        "per request (1 without; on by default only from #50991)",
        "confirmed: absent from the v0.14.1 wheel, in v0.15.0 (MambaModelConfig, MambaSpec)")
    HYBRID_PREFIX_CACHING_DEFAULT = RuleInfo(
        _v("0.28.0"), "#50991", "vllm/engine/arg_utils.py _set_default_chunked_prefill_and_prefix_caching_args",
        "prefix caching on by default for hybrid models (Mamba, GDN, linear-attention layers), so each "
        "state group keeps 2 blocks per request ('align'); before, it was opt-in for them (#23716)",
        "confirmed: the v0.27.1 wheel keeps prefix caching opt-in for hybrids, v0.28.0 turns it on; a v0.19.0 "
        "Qwen3.5 log without the flag shows 1 state block per group")
    FIT_CHECK_GROUP0 = RuleInfo(
        _v("0.14.0"), "#29431", "vllm/v1/core/kv_cache_utils.py _max_memory_usage_bytes_from_groups",
        "the max_model_len fit check needs group_size × page × blocks of group 0 (a per-layer "
        "sum over all layers before)",
        "confirmed: v0.13.0 wheel sums per layer, v0.14.0 checks group 0")
    HYBRID_GROUP_THRESHOLD_1_25 = RuleInfo(
        _v("0.12.0"), "#29303", "vllm/v1/core/kv_cache_utils.py _get_kv_cache_groups_uniform_page_size",
        "layer types are padded to the largest count when max < 1.25 × min; before, a group always "
        "held the smallest count",
        "confirmed: the v0.10.0-v0.11.2 wheels take the minimum, v0.12.0 the 1.25 rule")
    HYBRID_GROUP_THRESHOLD_1_5 = RuleInfo(
        _v("0.18.0"), "#36684", "vllm/v1/core/kv_cache_utils.py _get_kv_cache_groups_uniform_page_size",
        "layer types are padded to the largest count when max < 1.5 × min (1.25 before)",
        "confirmed: 1.25 in the v0.17.1 wheel, 1.5 in v0.18.0")
    CPU_OFFLOAD_WITHOUT_PINNED_MEMORY = RuleInfo(
        _v("0.17.0"), "v0.17.0 wheel", "vllm/model_executor/offloader/uva.py UVAOffloader",
        "without pinned host memory (WSL2) --cpu-offload-gb falls back to copying the offloaded "
        "parameters in for each forward pass; before, the V1 engine refused to start ('V1 CPU offloading "
        "requires uva (pin memory) support')",
        "confirmed: the assertion in model_executor/models/utils.py maybe_offload_to_cpu from the v0.10.0 "
        "to the v0.16.0 wheel, the offloader package with its fallback from v0.17.0")
    BLOCKS_OVERRIDE_SETS_MEMORY = RuleInfo(
        _v("0.21.0"), "v0.21.0 wheel", "vllm/v1/core/kv_cache_utils.py get_kv_cache_configs",
        "--num-gpu-blocks-override N replaces each worker's KV memory by N x the bytes of one block before "
        "the fit check and the automatic max_model_len; before, the pool had N blocks but one request was "
        "checked against the profiled memory",
        "confirmed: the v0.20.0 wheel overrides only the block count (may_override_num_blocks), the v0.21.0 "
        "to v0.33.0 wheels adjust available_memory ('_pool_bytes_per_block')")
    MAX_MODEL_LEN_AUTO = RuleInfo(
        _v("0.14.0"), "#29431", "vllm/v1/core/kv_cache_utils.py _auto_fit_max_model_len",
        "--max-model-len auto (or -1): the engine profiles at the model's own length, then serves the "
        "longest length whose fit check passes in the KV memory (a binary search, the minimum over "
        "workers) and prints 'Auto-fit max_model_len: ...'",
        "confirmed: the v0.13.0 wheel's parser refuses 'auto' (plain human_readable_int) and gives -1 no "
        "meaning; human_readable_int_or_auto and _auto_fit_max_model_len in v0.14.0 through v0.33.0")
    FIT_CHECK_PER_WORKER = RuleInfo(
        _v("0.17.0"), "#33698", "vllm/v1/core/kv_cache_utils.py get_kv_cache_configs",
        "the fit check (and the automatic max_model_len) measure each pipeline stage's own layers "
        "against its memory; v0.14-v0.16 measured the whole model's groups against the smallest "
        "worker's memory, so a PP start needed every stage's layers on one GPU",
        "confirmed: the v0.14.0-v0.16.0 wheels check global_kv_cache_groups against "
        "min(available_memory); v0.17.0 adds _project_kv_cache_groups_to_worker (merged 2026-02-03, "
        "'Regression introduced by #29431')")
    AUTO_FIT_LINE_KV_MEMORY = RuleInfo(
        _v("0.32.0"), "v0.32.0 wheel", "vllm/v1/core/kv_cache_utils.py _auto_fit_max_model_len",
        "the auto-fit line says 'to fit in available KV cache memory (X GiB GPU)'; before, 'to fit in "
        "available GPU memory (X GiB available for KV cache)'",
        "confirmed: the old wording in the v0.31.0 wheel, the new one in v0.32.0 and v0.33.0")
    FIT_CHECK_GROUP_AWARE = RuleInfo(
        _v("0.19.0"), "#36030", "vllm/v1/core/kv_cache_utils.py _max_memory_usage_bytes_from_groups",
        "the fit check needs group_size × page × Σ_groups blocks per request",
        "confirmed: the v0.18.0 and v0.18.1 wheels still count group 0 only (merged 2026-03-17), "
        "v0.19.0 sums the groups")
    PER_TOKEN_HEAD_KV_DTYPES = RuleInfo(
        _v("0.20.0"), "#38378", "vllm/config/cache.py CacheDType",
        "kv cache dtypes int8_per_token_head / fp8_per_token_head",
        "confirmed: absent from the v0.19.0 and v0.19.1 wheels (merged 2026-04-02), in v0.20.0")
    INT4_PER_TOKEN_HEAD_KV_DTYPE = RuleInfo(
        _v("0.25.0"), "#40835", "vllm/config/cache.py CacheDType",
        "kv cache dtype int4_per_token_head",
        "confirmed: absent from the v0.24.0 wheel, in v0.25.0")
    NVFP4_KV_DTYPE = RuleInfo(
        _v("0.20.0"), "#37332", "vllm/config/cache.py CacheDType",
        "kv cache dtype nvfp4", "confirmed: absent from the v0.19.1 wheel, in v0.20.0")
    GPU_UTIL_DEFAULT_092 = RuleInfo(
        _v("0.20.0"), "#38284", "vllm/config/cache.py gpu_memory_utilization",
        "default --gpu-memory-utilization 0.92 (0.9 before), to make room for the CUDA-graph estimate deducted "
        "from the same release",
        "confirmed: CacheConfig's default is 0.9 in the v0.19.0 wheel and 0.92 in v0.20.0 (the release's "
        "log text 'default as of v0.21.0' names the next one); two GLM-5.1 TP 8 starts that differ only by "
        "build (0.19.1 and 0.20.1 dev) differ by 0.02 x 139.80 GiB")
    V1_SAMPLER_WARMS_NATIVE = RuleInfo(
        _v("0.21.0"), "#41375", "vllm/v1/worker/gpu_model_runner.py _dummy_sampler_run",
        "the V1 runner's dummy sampler run samples a second time with a per-request generator, which "
        "FlashInfer cannot take, so the profile also runs the native path (vLLM's Triton top-k/top-p "
        "from 8 rows): with FlashInfer's sampler on, the warm-up peaks at the native path's cost",
        "confirmed: absent from the v0.20.0 wheel, in v0.21.0 through v0.33.0 (#41375 made it when "
        "#40376 turned FlashInfer's sampler on by default)")
    ROCM_CUDA_GRAPH_ESTIMATE = RuleInfo(
        _v("0.26.0"), "#44825", "vllm/v1/worker/gpu_worker.py determine_available_memory",
        "the CUDA-graph memory estimate runs on ROCm too (#44825 moved it to "
        "torch.accelerator.get_memory_info); before, it ran on CUDA only and ROCm subtracted none",
        "confirmed: the v0.18.0-v0.25.1 wheels skip ROCm ('Skip on ROCm/HIP/XPU'), v0.26.0 includes it "
        "(is_cuda_alike); a v0.23 MI300X log prints no 'Estimated CUDA graph memory' line")
    SLIDING_WINDOW_OFF_WITH_ROPE_SCALING = RuleInfo(
        _v("0.12.0"), "v0.12.0 wheel", "vllm/config/model.py _get_and_verify_max_len",
        "--disable-sliding-window is taken for a model whose config sets rope_scaling of any type; before, "
        "a type other than su, longrope or llama3 (Gemma 3 aside) raised NotImplementedError",
        "confirmed: the check in the v0.10.0, v0.10.2, v0.11.0 and v0.11.1 wheels (config.py, then "
        "config/model.py), absent from v0.12.0, v0.13.0, v0.14.0, v0.20.0, v0.26.0 and v0.33.0")
    EP_EXPERTS_BALANCED = RuleInfo(
        _v("0.10.1"), "#21497", "vllm/model_executor/layers/fused_moe/layer.py determine_expert_map",
        "with expert parallelism the first E mod EP ranks hold one expert more (the first GPU, whose "
        "'Model loading took' vLLM prints, ceil(E / EP)); before, every rank held floor(E / EP) and the last "
        "one the rest",
        "confirmed: floor and the rest on the last rank in the v0.10.0 wheel, the balanced split in v0.10.1, "
        "v0.11.0, v0.14.0, v0.20.0 and v0.33.0 (fused_moe/expert_map_manager.py)")
    LOAD_MAX_SPLIT_20MIB = RuleInfo(
        _v("0.21.0"), "#41268", "vllm/v1/worker/gpu_worker.py _scoped_allocator_max_split",
        "on CUDA the model loads under PyTorch's max_split_size_mb 20, so a weight tensor of 20 MiB or "
        "more keeps the whole 2 MiB-rounded segment the allocator gave it ('Model loading took' grows "
        "by up to 2 MiB per such tensor: 0.097 GiB for Qwen2.5-7B against 0.056 before)",
        "confirmed: absent from the v0.20.0 wheel, in v0.21.0 through v0.33.0; public logs of the same "
        "models before and after agree")
    ALLREDUCE_RMS_FUSION_DEFAULT = RuleInfo(
        _v("0.17.0"), "#34299", "vllm/config/vllm.py enable_allreduce_rms_fusion",
        "at the default -O2, a TP group of 2 or more on compute capability 9.0 or 10.x fuses all-reduce "
        "with RMSNorm through FlashInfer, whose IPC workspace stays allocated on every GPU",
        "confirmed: off at every optimization level in the v0.16.0 wheel, on at -O2 in v0.17.0; the "
        "v0.17.0–v0.33.0 wheels size it alike")
    FLASHINFER_ALLREDUCE_MNNVL = RuleInfo(
        _v("0.25.0"), "v0.25.0 wheel", "vllm/distributed/device_communicators/flashinfer_all_reduce.py "
        "_resolve_fi_ar_backend",
        "on one node FlashInfer's all-reduce uses the MNNVL backend (three Lamport buffers, about 6 × "
        "tokens × hidden × dtype bytes) where NVSwitch multicast exists, trtllm's IPC layout (4 × TP × "
        "tokens × hidden × dtype bytes) elsewhere",
        "confirmed: the v0.17.0–v0.24.0 wheels pick trtllm on one node (#35772), v0.25.0–v0.33.0 mnnvl "
        "with a trtllm fallback; sizes from flashinfer 0.7.2's trtllm_mnnvl_ar.py")
    FLASHINFER_ALLREDUCE_STANDALONE = RuleInfo(
        _v("0.29.0"), "v0.29.0 wheel", "vllm/envs.py VLLM_ALLREDUCE_USE_FLASHINFER",
        "FlashInfer's standalone all-reduce is on by default, so its workspace is made in the profile "
        "without torch.compile too (for the table's largest input, unclamped), MNNVL takes tuned sizes "
        "on Blackwell (B300 TP 4: 80 MiB; TP 8: 64, 128 MiB from v0.33; B200 TP 8: 128 MiB from v0.33) "
        "and B300's TP 8 table entry grows from 2 to 4 MiB",
        "confirmed: VLLM_ALLREDUCE_USE_FLASHINFER defaults to 0 in the v0.28.0 wheel and to 1 in "
        "v0.29.0–v0.33.0; FI_MNNVL_ALLREDUCE_MAX_SIZE_MB in all_reduce_utils.py of each wheel")
    QUICK_REDUCE_INT3 = RuleInfo(
        _v("0.25.0"), "#45666", "vllm/envs.py VLLM_ROCM_QUICK_REDUCE_QUANTIZATION",
        "ROCm quick all-reduce takes the INT3 codec (TP 2 only)",
        "confirmed: absent from the v0.24.0 wheel's choices, in v0.25.0 (INT3 at TP 2 only)")
    CUDA_GRAPH_ESTIMATE_OPT_IN = RuleInfo(
        _v("0.18.0"), "#30515", "vllm/envs.py VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS",
        "VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1 makes the V1 runner profile its CUDA graphs before "
        "sizing the KV cache and subtract the estimate (opt-in until it became the default)",
        "confirmed: absent from the v0.17.1 wheel, in v0.18.0 (default 0 through v0.19.1, 1 from v0.20.0)")
    CUDA_GRAPH_ESTIMATE_DEDUCTED = RuleInfo(
        _v("0.20.0"), "#38284", "vllm/envs.py VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS",
        "the CUDA-graph memory estimate is subtracted from the KV budget (V1 model runner)",
        "confirmed: VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 0 in the v0.19.0 wheel (envs.py:1654), "
        "to 1 in v0.20.0 (envs.py:1724; gpu_worker.py:399-424 subtracts it); two logs with the 0.20.0 "
        "banner print 'CUDA graph memory profiling is enabled (default since v0.21.0)' and subtract it")
    BLACKWELL_CAPTURE_1024 = RuleInfo(
        _v("0.28.0"), "#49390", "vllm/config/vllm.py _set_cudagraph_sizes",
        "on data-centre Blackwell (compute capability 10.x) CUDA graphs are captured up to 1,024 "
        "tokens by default (512 before and elsewhere), still bounded by max_num_seqs × decode query length × 2",
        "confirmed: the v0.27.0 and v0.27.1 wheels still cap at 512 (merged 2026-07-22), v0.28.0 takes "
        "1,024 on any 10.x; a v0.26.0 B300 log with 1,024 sequences captures up to 512")
    FLASHINFER_SAMPLER_OPT_IN = RuleInfo(
        _v("0.11.1"), "#26859", "vllm/v1/sample/ops/topk_topp_sampler.py TopKTopPSampler",
        "FlashInfer's top-k/top-p sampler only with VLLM_USE_FLASHINFER_SAMPLER=1; before, the V1 "
        "runner used it whenever flashinfer was installed (the Docker images; pip installs from "
        "v0.11.1, #26443), so the profile peak depended on the install",
        "confirmed: the v0.11.0 wheel tests 'is not False' (topk_topp_sampler.py:46), v0.11.1 asks for the "
        "variable (topk_topp_sampler.py:34); #26859 merged 2025-10-15")
    REJECTION_WARMUP_SAMPLES_BONUS = RuleInfo(
        _v("0.11.1"), "v0.11.1 wheel", "vllm/v1/sample/rejection_sampler.py RejectionSampler.forward",
        "with speculative decoding the V1 runner's dummy sampler run passes 2 × max_num_seqs random "
        "logits to the rejection sampler, which samples the bonus rows itself (keeping their logits in "
        "float32 as 'raw_logits') and takes the target rows to float32, then their probabilities and "
        "an exponential draw: a peak above the plain sampler's",
        "confirmed: the v0.11.0 wheel passes max_num_seqs target logits and the bonus token ids "
        "(compute_probs); from the v0.11.1 wheel through v0.33.0 bonus_logits = logits[…] is sampled "
        "inside forward with max_num_logprobs=-1; two public A10G n-gram starts of Qwen3.5-4B "
        "(v0.18.0) keep 0.44 GiB more than the same command without speculation")
    REJECTION_CLONES_TARGET = RuleInfo(
        _v("0.14.0"), "v0.14.0 wheel", "vllm/v1/sample/rejection_sampler.py RejectionSampler.forward",
        "the rejection sampler clones the float32 target logits before applying the logits processors "
        "(one more float32 copy of max_num_seqs rows in the warm-up)",
        "confirmed: target_logits.clone() absent from the v0.13.0 wheel, in v0.14.0 through v0.33.0")
    REJECTION_INVERTS_Q = RuleInfo(
        _v("0.17.0"), "v0.17.0 wheel", "vllm/v1/sample/rejection_sampler.py sample_recovered_tokens",
        "the recovered-token draw keeps the reciprocal of its exponential draw (inv_q, one more float32 "
        "copy of max_num_seqs rows)",
        "confirmed: inv_q = q.reciprocal() absent from the v0.16.0 wheel, in v0.17.0 through v0.33.0")
    TRITON_TOP_K_TOP_P = RuleInfo(
        _v("0.17.0"), "#33538", "vllm/v1/sample/ops/topk_topp_sampler.py apply_top_k_top_p",
        "top-k/top-p over 8 rows or more run as Triton kernels (topk_topp_triton.py) instead of "
        "sorting the logits, so the warm-up's sampler peak is less than half the sort's",
        "confirmed: absent from the v0.16.0 wheel, in v0.17.0 (merged 2026-02-17); four v0.17.1–v0.19.1 "
        "logs show the smaller peak, one does not; v0.14.1 and v0.15.1 logs show the sort's")
    FLASHINFER_SAMPLER_DEFAULT = RuleInfo(
        _v("0.21.0"), "#40376", "vllm/envs.py VLLM_USE_FLASHINFER_SAMPLER",
        "the V1 runner samples with FlashInfer's top-k/top-p kernels on CUDA by default (compute "
        "capability 7.5 to 12.1), which keeps no sorted copy of the logits (a much smaller profile peak)",
        "confirmed: unset means off in the v0.20.2 wheel, on in v0.21.0 where FlashInfer supports the "
        "GPU; public v0.21–v0.28 logs show the smaller peak")
    TOKENS_FROM_CONCURRENCY = RuleInfo(
        _v("0.20.1"), "#41069", "vllm/v1/core/kv_cache_utils.py get_kv_cache_capacity",
        "'GPU KV cache size' = int(max_concurrency × max_model_len); before: "
        "num_blocks // num_groups × block_size",
        "confirmed: the v0.20.0 wheel still counts blocks, the v0.20.1 wheel (PyPI) computes "
        "int(max_concurrency * max_model_len); issue #43308 compares v0.20.0 and v0.21.0, and v0.20.2 "
        "logs print 286,007 tokens = int(1.1172 × 256,000)")
    NEW_FIT_ERROR_TEXT = RuleInfo(
        _v("0.22.0"), "#42479", "vllm/v1/core/kv_cache_utils.py _check_enough_kv_cache_memory",
        "the 'To serve at least one request' error prints GiB with format_gib and mentions the CPU backend",
        "confirmed: absent from the v0.21.0 wheel, the same words in v0.22.0")
    FLASHINFER_WITHOUT_TURING = RuleInfo(
        _v("0.24.0"), "v0.24.0 wheel", "vllm/v1/attention/backends/flashinfer.py supports_compute_capability",
        "FlashInfer (and with it FlashInfer's top-k/top-p sampler) needs compute capability 8.0 or more: "
        "Turing (T4, RTX 20xx, Quadro RTX) samples with vLLM's Triton kernels",
        "confirmed: 7.5 to 12.1 in the v0.17.0-v0.23.0 wheels, 8.0 to 12.1 from v0.24.0 through v0.33.0 "
        "(flashinfer issue #3620, 'temporarily')")
    MRV2_ENV_OPT_IN = RuleInfo(
        _v("0.12.0"), "v0.12.0 wheel", "vllm/envs.py VLLM_USE_V2_MODEL_RUNNER",
        "VLLM_USE_V2_MODEL_RUNNER=1 runs the model on model runner V2 (=0 keeps V1 where V2 is the "
        "default); the variable, when set, decides over the release's own choice",
        "confirmed: absent from the v0.11.2 wheel, in vllm/envs.py from v0.12.0 (bool(int(...)) until "
        "v0.21, unset = the release's choice from v0.22) to v0.33.0")
    MRV2_QWEN3_DENSE = RuleInfo(
        _v("0.22.0"), "#39337", "vllm/config/vllm.py use_v2_model_runner",
        "Qwen3ForCausalLM checkpoints that are neither MoE nor quantized run on model runner V2, which "
        "deducts no CUDA-graph estimate",
        "confirmed: release notes; the v0.22.0 wheel lists only Qwen3ForCausalLM in "
        "DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES and keeps checkpoints with a quantization_config on V1")
    MRV2_LLAMA_MISTRAL_DENSE = RuleInfo(
        _v("0.23.0"), "#43458", "vllm/config/vllm.py use_v2_model_runner",
        "LlamaForCausalLM and MistralForCausalLM join, on the same terms (neither MoE nor quantized)",
        "confirmed: release notes and the v0.23.0 wheel")
    MRV2_LISTED_MOE = RuleInfo(
        _v("0.24.0"), "v0.24.0 wheel", "vllm/config/vllm.py _is_default_v2_model_runner_model",
        "every listed architecture runs on V2, quantized or MoE alike, and the list gains "
        "DeepseekV2ForCausalLM, Qwen2MoeForCausalLM and GraniteMoeForCausalLM",
        "confirmed: the v0.24.0 wheel drops the MoE and quantization checks of v0.22–v0.23")
    MRV2_ALL_DENSE = RuleInfo(
        _v("0.25.0"), "#44443", "vllm/config/vllm.py use_v2_model_runner",
        "every generative model that is neither MoE nor hybrid (Mamba/linear attention) runs on model "
        "runner V2, sliding-window and MLA models included, and so do the MoE architectures each "
        "release lists (DEFAULT_V2_ARCHITECTURES)",
        "confirmed: release notes; the v0.25.0–v0.28.0 wheels test only is_hybrid, is_attention_free, "
        "is_moe and the list, which grows in v0.26 (Inkling, LongcatFlashNgram), v0.27 (KimiK3) and "
        "v0.28 (DeepseekV4)")
    SW_IN_FLIGHT_TWO_BATCHES = RuleInfo(
        _v("0.26.0"), "#47728", "vllm/config/vllm.py max_in_flight_tokens",
        "sliding-window/chunked layers keep window − 1 + in-flight tokens, in-flight = "
        "batches in flight × max_num_batched_tokens (1 × before)",
        "confirmed: the v0.25.0 wheel keeps window − 1 + max_num_batched_tokens (kv_cache_interface.py:561), "
        "v0.26.0 max_in_flight_tokens (config/vllm.py:525-533); issue #49878 (Gemma 4, v0.25.1 → v0.26)")
    MERGED_CAPACITY_LOG_LINE = RuleInfo(
        _v("0.28.0"), "#50462", "vllm/v1/core/kv_cache_utils.py update_kv_cache_capacity",
        "'GPU KV cache size' and 'Maximum concurrency' printed on one line (two before)",
        "confirmed: two lines in the v0.27.1 wheel, one in v0.28.0; v0.27.x logs show two")
    SERVER_MNBT_16K_ON_160GIB = RuleInfo(
        _v("0.28.0"), "#51726", "vllm/engine/arg_utils.py get_batch_defaults",
        "devices with ≥ 160 GiB use max_num_batched_tokens 16384 for `vllm serve` too",
        "confirmed: absent from the v0.27.1 wheel, in v0.28.0 (unchanged through v0.33.0); MI300X logs of v0.29.1")
    QWEN25_VL_FUSED_NORM = RuleInfo(
        _v("0.10.1"), "#22184", "vllm/model_executor/models/qwen2_5_vl.py Qwen2_5_VisionBlock",
        "Qwen2.5-VL's vision block normalises with a fused residual add, keeping its input and the "
        "attention output beside the norm's two results through the MLP (when the norm runs as PyTorch "
        "code, as in a compiled model): 2 more hidden-size values per patch in the warm-up",
        "confirmed: absent from the v0.10.0 wheel, in v0.10.1")
    QWEN2_VL_VIDEO_14_FRAMES = RuleInfo(
        _v("0.11.0"), "#25557", "vllm/model_executor/models/qwen2_vl.py _MAX_FRAMES_PER_VIDEO",
        "Qwen2-VL / Qwen2.5-VL's largest dummy video has at most 14 frames (16 before), each full size",
        "confirmed: _MAX_FRAMES_PER_VIDEO is 16 in the v0.10.1 wheel (qwen2_vl.py:84), 14 in v0.11.0 "
        "(qwen2_vl.py:82) through v0.33.0; a v0.23 log profiles one 114,688-token video (7 × 16,384) at "
        "max_model_len 128,000")
    QWEN3_VL_FORMATTED_VIDEO = RuleInfo(
        _v("0.11.0"), "#25557", "vllm/model_executor/models/qwen3_vl.py get_max_video_tokens",
        "Qwen3-VL's encoder budget counts its largest video at 12.5 tokens per embedding (timestamps): "
        "153,600 tokens, more than an image, so the warm-up encodes one video of 12,288 embeddings",
        "confirmed: qwen3_vl.py first ships in the v0.11.0 wheel with the × 12.5 (qwen3_vl.py:674), "
        "kept through v0.12.0; a v0.11.0 log prints 'budget of 153600 tokens, and profiled with 1 video items'")
    QWEN_VL_VISION_QK_CONCAT = RuleInfo(
        _v("0.11.0"), "v0.11.0 wheel", "vllm/model_executor/models/qwen2_vl.py Qwen2VisionAttention",
        "the Qwen2-VL and Qwen2.5-VL vision attention concatenates q and k and rotates them in one "
        "float32 pass (2 + 18/TP hidden-size values per patch); before, q and k were rotated one at a "
        "time (QKV 3, the q, k, v copies 3, one float32 copy and its output 2 + 2, cast back 1: 2 + 11/TP)",
        "confirmed: apply_rotary_pos_emb_vision(q, …) then (k, …) in the v0.10.0-v0.10.2 wheels' "
        "qwen2_vl.py and qwen2_5_vl.py, qk_concat = torch.cat([q, k]) from v0.11.0; a v0.10.2 Qwen2-VL-2B "
        "breakdown prints a 2.65 GiB peak for one 65,536-patch image")
    QWEN_VL_VISION_NO_GATHER = RuleInfo(
        _v("0.11.1"), "#28271", "vllm/model_executor/models/qwen2_5_vl.py Qwen2_5_VisionAttention",
        "the Qwen-VL vision attention no longer gathers QKV across TP, and Qwen2.5-VL/Qwen3-VL rotate "
        "one contiguous q·k copy instead of copying q, k, v and concatenating (#28769): 2 + 15/TP "
        "hidden-size values per patch (Qwen2-VL's own attention keeps 2 + 18/TP)",
        "confirmed: all_gather_interleave and split_qkv are in the v0.11.0 wheel's qwen2_5_vl.py, gone "
        "from v0.11.1; the float32 rotation stays until v0.12.0")
    QWEN_VL_VISION_ATTENTION_SLIMMED = RuleInfo(
        _v("0.12.0"), "#28798", "vllm/model_executor/models/qwen2_vl.py apply_rotary_pos_emb_vision",
        "the Qwen-VL vision rotation runs in the model dtype (no float32 copy): 2 + 10/TP hidden-size "
        "values per patch for every Qwen-VL tower",
        "confirmed: the rotary cos/sin cache replaces t.float() in the v0.12.0 wheel, absent from "
        "v0.11.2")
    QWEN2_VL_TP_GATHER_BACK = RuleInfo(
        _v("0.13.0"), "#30542", "vllm/model_executor/models/qwen2_vl.py Qwen2VisionAttention",
        "Qwen2-VL's vision attention gathers QKV across TP again (3 whole hidden-size values per patch, "
        "6 while gathering)",
        "confirmed: tensor_model_parallel_all_gather is absent from qwen2_vl.py in the v0.11.1-v0.12.0 "
        "wheels and back from v0.13.0")
    QWEN_VL_IMAGE_SIZE_FACTORED = RuleInfo(
        _v("0.13.0"), "#29692", "vllm/model_executor/models/qwen2_vl.py get_image_size_with_most_features",
        "the Qwen-VL warm-up's largest image fills max_pixels exactly (the patch count's closest factor "
        "pair, aspect at most 200); before, a square image resized under max_pixels (fewer tokens when "
        "--mm-processor-kwargs sets a max_pixels that is not a square number of patches)",
        "confirmed: the v0.12.0 wheel resizes a square image, v0.13.0 factors the patch count")
    QWEN3_VL_PLAIN_VIDEO = RuleInfo(
        _v("0.13.0"), "#30475", "vllm/model_executor/models/qwen3_vl.py get_max_video_tokens",
        "Qwen3-VL's encoder budget counts a video by its embeddings (12,288), less than an image "
        "(16,384), so the warm-up encodes images again",
        "confirmed: the v0.12.0 wheel still multiplies by 12.5, v0.13.0 does not (merged 2025-12-16)")
    MM_PROFILE_PAD_TO_BUDGET = RuleInfo(
        _v("0.11.0"), "#25810", "vllm/v1/worker/gpu_model_runner.py profile_run",
        "the warm-up's encoder outputs, when shorter than the encoder budget, are copied into zero "
        "tensors of the whole budget (one per item) and kept in the encoder cache through the "
        "language model's pass and the sampler",
        "confirmed: the code of the v0.11.0 wheel; merged 2025-09-27")
    MM_PROFILE_PAD_TO_ITEM = RuleInfo(
        _v("0.12.0"), "#29386", "vllm/v1/worker/gpu_model_runner.py profile_run",
        "the warm-up pads each encoder output only to its item's token count (Qwen3-VL's formatted "
        "video: 153,600 rows for 12,288 embeddings); an item whose output fills its tokens is not padded",
        "confirmed: the code of the v0.12.0 wheel; merged 2025-11-25")
    MM_PROFILE_UNPADDED = RuleInfo(
        _v("0.13.0"), "#30475", "vllm/v1/worker/gpu_model_runner.py profile_run",
        "the warm-up caches the encoder outputs as they are (the encoder cache holds embeddings only)",
        "confirmed: the v0.13.0 wheel's profile_run caches the outputs unpadded, v0.12.0 pads them")
    ENCODER_BUDGET_EMBEDDINGS_ONLY = RuleInfo(
        _v("0.13.0"), "#30475", "vllm/multimodal/encoder_budget.py",
        "the encoder budget counts an item by its embeddings alone, no longer with the prompt tokens "
        "that frame them (Gemma 3: 256 per image, 260 before, so 32 images fill 8,192 tokens, not 31)",
        "confirmed: the v0.12.0 wheel counts contiguous tokens, v0.13.0 embeddings (get_mm_max_tokens); "
        "a v0.11 log profiles 31 Gemma 3 images at 8,192 tokens, a v0.23 one 32")
    MM_MODALITY_TIE_BY_NAME = RuleInfo(
        _v("0.17.0"), "#34533", "vllm/multimodal/encoder_budget.py get_modality_with_max_tokens",
        "when two modalities tie on tokens per item, the warm-up picks the later name ('video' over "
        "'image'); before, the first listed",
        "confirmed: the v0.16.0 wheel still ranks by tokens alone (merged 2026-02-13), v0.17.0 by tokens and name")
    COLD_COMPILE_RESERVE = RuleInfo(
        _v("0.27.0"), "#54383", "vllm/v1/worker/gpu_worker.py determine_available_memory",
        "a first start (empty torch.compile cache) compiles inside the profiling window, whose peak "
        "vLLM subtracts: a copy of the input-embedding table joins the peak, and the pool is smaller "
        "than on a restart that loads the compiled graphs (issue #54383; fixes #54209 and #54479 "
        "unmerged through v0.33); from v0.27 (torch 2.13) for every model",
        "inferred: cold/warm pairs of v0.27–v0.31 (tied and untied embeddings alike) and issue #54383 "
        "(v0.28) differ by up to 1.3 GiB, what one copy of the embedding table gives")
    V1_RUNNER_COLD_TABLE_KEPT = RuleInfo(
        _v("0.29.0"), "v0.29.0 logs", "vllm/v1/worker/gpu_worker.py determine_available_memory",
        "a first start on the V1 model runner also keeps the segment of a freed copy of the "
        "input-embedding table (a later allocation is carved out of it), which vLLM charges as consumed "
        "memory (FREED_SEGMENT_CHARGED) until the profile run stops splitting large blocks "
        "(PROFILE_RUN_SPLIT_LIMIT, v0.31); a restart (warm compile cache) keeps none",
        "inferred: every public V1-runner first start of v0.29-v0.30 shows it, from three sources: an "
        "RTX 4050 Laptop under WSL (0.53 GiB more non-torch than its restart, table 0.58), an RTX PRO "
        "4500 MIG slice (1.28 GiB non-torch, table 1.16) and an L4 n-gram start whose pool is 0.93 GiB "
        "below the same command on model runner V2 (table 1.02); V1-runner first starts of v0.27-v0.28 "
        "are not in public logs")
    FREED_SEGMENT_CHARGED = RuleInfo(
        _v("0.27.0"), "#49208", "vllm/utils/mem_utils.py memory_profiling",
        "a segment PyTorch's allocator cannot give back after the profile run (a freed block that a later, "
        "still-living allocation was carved out of) counts against the pool: vLLM charges the drop in free "
        "memory; before, it counted reserved segments as PyTorch's and charged only their peak use",
        "confirmed: the v0.26.0 wheel sums weights, the torch peak increase and the non-torch growth (CUDA "
        "memory less memory_reserved); from v0.27.0 non_kv_cache_memory is total_consumed (mem_get_info) "
        "plus the transient peak headroom")
    PROFILE_RUN_SPLIT_LIMIT = RuleInfo(
        _v("0.31.0"), "v0.31.0 wheel", "vllm/v1/worker/gpu_worker.py determine_available_memory",
        "the profile run holds PyTorch's allocator to max_split_size_mb 20: a freed block over 20 MiB is "
        "never split, so empty_cache() returns a first start's freed table copy before vLLM measures, and "
        "no copy stays charged (FREED_SEGMENT_CHARGED)",
        "confirmed: the v0.30.0 wheel wraps only load_model in _scoped_allocator_max_split; v0.31.0 also "
        "the profile run, whose comment says a later small allocation could otherwise be carved out of a "
        "freed multi-GiB block and pin its segment past the empty_cache()")
    QWEN3_VL_MROPE_CACHE_UNSCALED = RuleInfo(
        _v("0.32.0"), "v0.32.0 wheel",
        "vllm/model_executor/models/qwen3_vl.py mrope_positions_factor, rotary_embedding/mrope.py MRotaryEmbedding",
        "the M-RoPE cos/sin cache of Qwen3-VL and Qwen3.5/3.6 covers max_position_embeddings positions, where "
        "every M-RoPE model's covered four times as many before (for the positions of long videos); other "
        "M-RoPE models (Qwen2-VL, Qwen2.5-VL) keep four times, and so do these with video pruning on",
        "confirmed: the v0.31.0 wheel's MRotaryEmbedding sets cache_max_position_num = max_position_embeddings "
        "* 4; v0.32.0 takes a positions_factor, which qwen3_vl.py, qwen3_vl_moe.py and qwen3_5.py set to 1 "
        "unless video pruning is enabled; public logs of v0.11-v0.19 load the four times: Qwen2.5-VL-3B 0.09 "
        "GiB, Qwen3-VL-30B-A3B 0.19 GiB and Qwen3.5-27B 0.14 GiB over the weights with a single length")
    BLOCK_SIZE_ANY_MULTIPLE_OF_16 = RuleInfo(
        _v("0.18.0"), "v0.18.0 wheel", "vllm/engine/arg_utils.py EngineArgs.block_size, vllm/config/cache.py",
        "--block-size takes any positive integer, not only 1, 8, 16, 32, 64, 128 and 256; the CUDA and ROCm "
        "attention backends run blocks that are multiples of 16",
        "confirmed: the v0.17.0 wheel types it as BlockSize = Literal[1, 8, 16, 32, 64, 128, 256], the v0.18.0 "
        "wheel as int | None; a v0.29.0 L40S log of Gemma-4-26B-A4B starts at --block-size 48 "
        "(akamaslabs/vllm-benchmark E-o3.log)")
    ATTENTION_PAGE_PADDING = RuleInfo(
        _v("0.24.0"), "v0.24.0 wheel", "vllm/v1/core/kv_cache_utils.py unify_kv_cache_spec_page_size",
        "an attention layer whose page does not divide the largest page is padded to it (read through a "
        "strided view) instead of failing; before, such a model could not start",
        "confirmed: the v0.23.0 wheel raises NotImplementedError ('The page size of the layer is not "
        "divisible by the maximum page size'), the v0.24.0 wheel pads non-MLA attention pages; a v0.29.0 "
        "L40S log of Gemma-4-26B-A4B at --block-size 48 prints 27,946 tokens: 16-token sliding pages of "
        "128 KiB padded to the full layers' 192 KiB (E-o3.log)")
    SLIDING_WINDOW_OWN_BLOCK = RuleInfo(
        _v("0.25.0"), "v0.25.0 wheel", "vllm/model_executor/layers/attention/attention.py "
        "Attention.get_kv_cache_spec, _largest_kernel_block_within",
        "sliding-window layers no longer take --block-size: they start from the attention backend's "
        "smallest kernel block (16 on FlashAttention, Triton, FlashInfer and ROCm) and the page "
        "unification scales them up to the largest page, so where their per-token bytes exceed the "
        "full-attention layers' (Gemma 4) a larger --block-size shrinks their blocks instead of growing "
        "the full-attention ones",
        "confirmed: absent from the v0.24.0 wheel, in v0.25.0 to v0.29.0; a v0.29.0 L40S log of "
        "Gemma-4-26B-A4B at --block-size 128 (akamaslabs/vllm-benchmark E-eager.log) prints 167,127 "
        "tokens, 40.80x: sliding blocks of 64 tokens and full-attention blocks of 128")
    SLIDING_WINDOW_PRIMARY_BLOCK = RuleInfo(
        _v("0.30.0"), "v0.30.0 wheel", "vllm/model_executor/layers/attention/attention.py "
        "Attention.get_kv_cache_spec",
        "sliding-window layers take --block-size again when the backend can run it (the largest "
        "multiple of 16 within it), as before v0.25",
        "confirmed: the v0.30.0 to v0.33.0 wheels budget the sliding page at its per-token bytes x "
        "--block-size")
    COLD_COMPILE_UNTIED = RuleInfo(
        _v("0.19.0"), "#54383", "vllm/v1/worker/gpu_worker.py determine_available_memory",
        "the same first-start compile peak from v0.19 (torch >= 2.10, which also exports the AOT "
        "artifact inside the window) for models whose input embeddings are not tied to the LM head",
        "inferred: a v0.26 first start prints the peak (1.04 GiB for Qwen2.5-7B-AWQ, DEBUG before "
        "v0.26), and v0.19–v0.26 first starts of untied Qwen2.5-7B/14B and Llama-3.1-8B on five "
        "machines leave that much; tied Qwen2.5-1.5B first starts (RTX 4080 Laptop, v0.20 and v0.23) "
        "leave none, while tied models show it from v0.27; the cause of the split is not identified")
    CUDAGRAPH_MODE_OPTION = RuleInfo(
        _v("0.10.1"), "#20059", "vllm/config/compilation.py CompilationConfig.cudagraph_mode",
        "the compilation config's cudagraph_mode picks which CUDA graphs vLLM captures: NONE, "
        "PIECEWISE (one per capture size), FULL (a whole-model graph per size), FULL_DECODE_ONLY (whole-"
        "model graphs for decode batches only) or FULL_AND_PIECEWISE (both; the default from v0.11), "
        "and with them the graphs its CUDA-graph estimate counts",
        "inferred: #20059 (merged 2025-07-30, in v0.10.1) adds CUDAGraphMode in place of v0.10.0's "
        "full_cuda_graph switch; a v0.31.0 H200 start with cudagraph_mode NONE captures no graph "
        "('Skipping encoder and decoder CUDA graph capture') and subtracts no estimate")
    CHUNKED_PREFILL_OPTIONAL = RuleInfo(
        _v("0.11.1"), "v0.11.1 wheel", "vllm/engine/arg_utils.py _set_default_chunked_prefill_and_prefix_caching_args, "
        "_set_default_max_num_seqs_and_batched_tokens_args; vllm/config/scheduler.py verify_max_model_len",
        "a generation model may run without chunked prefill (--no-enable-chunked-prefill): max_num_batched_tokens "
        "then defaults to max(max_model_len, the release's default), at most max_num_seqs x max_model_len, and a "
        "smaller value given is refused; before, V1 turned chunked prefill on for every generation model",
        "confirmed: the v0.10.2 and v0.11.0 wheels set enable_chunked_prefill = True for non-pooling models "
        "whatever the flag; the v0.11.1, v0.13.0, v0.22.0 and v0.33.0 wheels keep the user's False and take "
        "max(max_model_len, default)")
    OPTIMIZATION_LEVELS = RuleInfo(
        _v("0.12.0"), "v0.12.0 wheel", "vllm/config/vllm.py OptimizationLevel, OPTIMIZATION_LEVEL_TO_CONFIG",
        "-O0 to -O3 (--optimization-level) are optimization levels: -O0 compiles and captures nothing, as "
        "--enforce-eager; -O1 compiles with piecewise CUDA graphs and no all-reduce + RMSNorm fusion; -O2, the "
        "default, and -O3 add the full graphs and the fusions; before, -O N was the compilation level, and "
        "-O3 (piecewise graphs) the default",
        "confirmed: OptimizationLevel absent from the v0.11.1 wheel, in v0.12.0; the level tables of the "
        "v0.12.0, v0.13.0, v0.17.0, v0.22.0 and v0.33.0 wheels set cudagraph_mode NONE / PIECEWISE / "
        "FULL_AND_PIECEWISE for 0 / 1 / 2-3 and fuse_allreduce_rms only from level 2")
    CUDAGRAPH_SIZE_FLAGS = RuleInfo(
        _v("0.11.1"), "#26016", "vllm/engine/arg_utils.py",
        "--cudagraph-capture-sizes and --max-cudagraph-capture-size as serve flags (the CUDA-graph "
        "capture sizes, which set the graph count of vLLM's CUDA-graph estimate)",
        "confirmed: absent from the v0.11.0 wheel (which has --cuda-graph-sizes), in v0.11.1")
    PERFORMANCE_MODE = RuleInfo(
        _v("0.17.0"), "#34936", "vllm/engine/arg_utils.py _set_default_max_num_seqs_and_batched_tokens_args, "
        "vllm/config/vllm.py _set_cudagraph_sizes",
        "--performance-mode: 'throughput' doubles the default max_num_batched_tokens and max_num_seqs "
        "(those not given); 'interactivity' captures a CUDA graph for every size from 1 to 32 (up to the "
        "largest capture size) instead of 1, 2, 4 and steps of 8; 'balanced' (the default) changes nothing",
        "confirmed: absent from the v0.16.0 wheel; the v0.17.0 to v0.33.0 wheels apply both alike")
    ATTENTION_BACKEND_FLAG = RuleInfo(
        _v("0.13.0"), "#26315", "vllm/engine/arg_utils.py, vllm/config/attention.py AttentionConfig.backend",
        "--attention-backend (and --attention-config.backend) forces the attention backend; before it "
        "only the VLLM_ATTENTION_BACKEND variable did, which vLLM reads through v0.14",
        "confirmed: absent from the v0.11.0, v0.11.1 and v0.12.0 wheels, in v0.13.0; VLLM_ATTENTION_BACKEND "
        "in vllm/envs.py of the v0.10.0 to v0.14.0 wheels, gone from v0.15.0")
    ATTENTION_BACKEND_ENV_DROPPED = RuleInfo(
        _v("0.15.0"), "#26315", "vllm/envs.py",
        "VLLM_ATTENTION_BACKEND is no longer read (deprecated by #26315 for removal in v0.14): only "
        "--attention-backend forces a backend",
        "confirmed: in vllm/envs.py and vllm/config/attention.py of the v0.13.0 and v0.14.0 wheels, "
        "absent from v0.15.0; vllm#50292 (v0.26.0) reports it silently ignored")
    IMAGE_RUNS_VLLM_SERVE = RuleInfo(
        _v("0.11.1"), "#25967", "docker/Dockerfile (vllm-openai target)",
        "the vllm/vllm-openai image runs vllm serve, which takes the model as its first free word; before, it "
        "ran python3 -m vllm.entrypoints.openai.api_server, whose parser reads that word as model_tag and drops "
        "it, so only --model names the model (else the default Qwen/Qwen3-0.6B)",
        "confirmed: ENTRYPOINT of the vllm-openai stage at the v0.10.0 to v0.11.0 tags is the api_server module, "
        "from v0.11.1 to v0.26.0 [\"vllm\", \"serve\"] (commit d00d652 of 2025-10-02); the api_server module's "
        "main() never copies model_tag into model (v0.10.0 api_server.py, v0.30.0 launchers/api_server/entry.py)")
    SERVE_MODEL_FLAG_MOVED = RuleInfo(
        _v("0.11.1"), "v0.11.1 wheel", "vllm/utils/argparse_utils.py FlexibleArgumentParser.parse_args",
        "vllm serve takes --model MODEL (its first occurrence) and moves MODEL to the front as the positional "
        "model, with a deprecation warning, so a line that also names a model as its first free word stops with "
        "'unrecognized arguments'; before, vllm serve refused the --model token itself (ValueError: 'you should "
        "provide the model as a positional argument'), --model=MODEL passing that check",
        "confirmed: the ValueError on arg == '--model' in vllm/utils/__init__.py of the v0.10.0 and v0.11.0 "
        "wheels, the move to the front in vllm/utils/argparse_utils.py of v0.11.1 through v0.34.0")
    SERVED_NAME_NEEDS_MODEL_FIRST = RuleInfo(
        _v("0.17.0"), "v0.17.0 wheel", "vllm/utils/argparse_utils.py FlexibleArgumentParser.parse_args",
        "a vllm serve line with --served-model-name (and no --config) whose first word after serve, once "
        "--model has moved to the front, is a flag stops with ValueError: '`model` should be provided as the "
        "first positional argument'",
        "confirmed: absent from the v0.16.0 wheel, in v0.17.0 through v0.34.0")
    FORCED_BACKEND_CHECKED = RuleInfo(
        _v("0.11.1"), "v0.11.1 wheel", "vllm/platforms/cuda.py get_attn_backend_cls",
        "a forced attention backend is checked against the model, the dtypes and the GPU "
        "(validate_configuration) and vLLM stops with 'Selected backend … is not valid for this "
        "configuration'; before, vLLM took it unchecked",
        "confirmed: the message and the check are absent from the v0.10.2 and v0.11.0 wheels, in v0.11.1")
    BACKEND_MM_PREFIX = RuleInfo(
        _v("0.13.0"), "v0.13.0 wheel", "vllm/attention/backends/abstract.py validate_configuration",
        "for a multimodal prefix-LM model (Gemma 3, Gemma 4 with bidirectional vision attention, "
        "PaliGemma …) the attention backend must attend fully over image tokens (supports_mm_prefix); "
        "FlashInfer never does, so vLLM refuses it forced ('partial multimodal token full attention not "
        "supported') and its priority passes it by",
        "confirmed: absent from the v0.11.1 and v0.12.0 wheels, in v0.13.0, v0.14.0, v0.17.0, v0.20.0, "
        "v0.22.0, v0.28.0 (v1/attention/backend.py) and v0.33.0")
    MM_PREFIX_OFF_TEXT_ONLY = RuleInfo(
        _v("0.27.0"), "v0.27.0 wheel", "vllm/config/model.py (mm_prefix cleared without multimodal inputs)",
        "a prefix-LM model served text-only (--language-model-only, or every --limit-mm-per-prompt at 0) "
        "no longer uses the multimodal prefix attention, so backends without it (FlashInfer) may run it "
        "('Disabled mm_prefix attention mode because multimodal inputs are configuration-disabled')",
        "confirmed: the message is absent from the v0.20.0-v0.26.0 wheels, in v0.27.0, v0.28.0 and v0.33.0; "
        "a v0.29 L40S start of Gemma-4-26B-A4B text-only prints it and runs --attention-backend FLASHINFER")
    FLASHINFER_HEAD_512 = RuleInfo(
        _v("0.22.0"), "v0.22.0 wheel", "vllm/v1/attention/backends/flashinfer.py get_supported_head_sizes",
        "FlashInfer's attention backend takes head size 512 besides 64, 128 and 256 (Gemma 4's global "
        "layers)",
        "confirmed: [64, 128, 256] in the v0.11.1-v0.21.0 wheels, [64, 128, 256, 512] from v0.22.0 through "
        "v0.33.0")
    FLASHINFER_XQA_HOPPER = RuleInfo(
        _v("0.25.0"), "v0.25.0 wheel", "vllm/utils/flashinfer.py supports_trtllm_attention",
        "FlashInfer decodes through TensorRT-LLM's XQA kernel on Hopper (9.0), whose fixed workspace, not "
        "the metadata builder's, a full decode graph then allocates; its graphs stay single-token decodes "
        "(get_cudagraph_support)",
        "confirmed: only the 10.x family in the v0.24.0 wheel, 9.0 (decode only) from v0.25.0 through v0.34.0")
    FLASHINFER_WORKSPACE_BY_BATCH = RuleInfo(
        _v("0.26.0"), "#48428", "vllm/v1/attention/backends/flashinfer.py _get_workspace_buffer",
        "FlashInfer's metadata-builder workspace is max(394 MiB, max_num_batched_tokens x query heads per "
        "GPU x head size x 16 B) instead of a fixed 394 MiB (VLLM_FLASHINFER_WORKSPACE_BUFFER_SIZE)",
        "confirmed: fixed in the v0.24.0-v0.25.1 wheels, FLASHINFER_PREFILL_WORKSPACE_BYTES_PER_ELEM = 16 from "
        "v0.26.0 through v0.34.0; vllm#50780 measures 128 KiB per batched token (32 heads x 256 x 16 B) on "
        "an RTX PRO 6000 Blackwell")
    FLASHINFER_XQA_SM12X = RuleInfo(
        _v("0.28.0"), "v0.28.0 wheel", "vllm/utils/flashinfer.py supports_trtllm_attention",
        "FlashInfer decodes through XQA on compute capability 12.x (RTX 50xx, RTX PRO Blackwell, GB10) too, "
        "and its full graphs take speculative decoding's uniform batches (UNIFORM_BATCH)",
        "confirmed: absent from the v0.26.0 and v0.27.1 wheels, in v0.28.0 through v0.34.0")
    FLASHINFER_XQA_SPEC_GRAPHS = RuleInfo(
        _v("0.30.0"), "v0.30.0 wheel", "vllm/v1/attention/backends/flashinfer.py get_cudagraph_support",
        "Hopper's XQA decode keeps full graphs for speculative decoding's uniform batches too (heads of 16 "
        "to 256 in steps of 16)",
        "confirmed: 9.0 returns UNIFORM_SINGLE_TOKEN_DECODE in the v0.25.0-v0.29.0 wheels, is_xqa_arch from "
        "v0.30.0 through v0.34.0")
    TRITON_ATTN_RENAMED = RuleInfo(
        _v("0.11.0"), "v0.11.0 wheel", "vllm/platforms/interface.py _Backend",
        "the Triton attention backend is named TRITON_ATTN; before, TRITON_ATTN_VLLM_V1",
        "confirmed: TRITON_ATTN_VLLM_V1 in the v0.10.0 and v0.10.2 wheels, TRITON_ATTN in v0.11.0")
    ATTENTION_BACKEND_AUTO = RuleInfo(
        _v("0.18.0"), "#35738", "vllm/config/attention.py AttentionConfig.validate_backend_before",
        "--attention-backend auto means no forced backend; earlier releases reject the value",
        "confirmed: absent from the v0.17.0 wheel, in v0.18.0")
    FLEX_FULL_GRAPHS = RuleInfo(
        _v("0.20.0"), "#36298", "vllm/v1/attention/backends/flex_attention.py FlexAttentionMetadataBuilder",
        "FlexAttention's metadata builder supports full CUDA graphs (AttentionCGSupport.ALWAYS); before, "
        "it supported none, so the default FULL_AND_PIECEWISE mode captured piecewise graphs only",
        "confirmed: no _cudagraph_support in the v0.19.0 wheel (the builder default, NEVER), ALWAYS in v0.20.0")
    TRITON_FP8_NEEDS_SM89 = RuleInfo(
        _v("0.24.0"), "#43914", "vllm/v1/attention/backends/triton_attn.py TritonAttentionImpl.__init__",
        "on CUDA the Triton attention backend refuses a KV cache whose type starts with fp8 below compute "
        "capability 8.9 (no native fp8e4nv there) and a bfloat16 one below 8.0, with a ValueError when the "
        "model's layers are built; before, the engine loaded and failed later in Inductor's autotuning",
        "confirmed: absent from the v0.23.0 wheel; the same check in the v0.24.0, v0.28.0, v0.31.0, v0.32.0 "
        "and v0.33.0 wheels")
    UMA_FREE_FROM_MEMAVAILABLE = RuleInfo(
        _v("0.11.1"), "#26098", "vllm/utils/mem_utils.py MemorySnapshot.measure",
        "on unified-memory GPUs (Jetson Orin and Thor, DGX Spark; any integrated GPU from #35356) free "
        "memory is the OS's MemAvailable, which counts reclaimable page cache as free; before, CUDA's "
        "figure, which counts it as used, so a checkpoint read from disk while loading also shrank the pool",
        "inferred: committed 2025-10-03 inside #26098, after v0.11.0; the v0.11.0 wheel reads cudaMemGetInfo "
        "only, the v0.12.0 wheel psutil's available memory on compute capabilities 8.7, 11.0 and 12.1")
    TOWER_SKIPPED_AT_ZERO_LIMIT = RuleInfo(
        _v("0.15.0"), "#32605", "vllm/model_executor/models/interfaces.py _mark_tower_model",
        "a vision or audio tower is not built when --limit-mm-per-prompt sets every modality it serves "
        "to 0 (before, it was loaded, only its warm-up skipped)",
        "confirmed: absent from the v0.14.1 wheel, in v0.15.0 (Qwen-VL models skipped their tower earlier: "
        "QWEN_VL_TOWER_SKIPPED_AT_ZERO_LIMIT)")
    LANGUAGE_MODEL_ONLY = RuleInfo(
        _v("0.17.0"), "#34120", "vllm/config/multimodal.py MultiModalConfig.language_model_only",
        "--language-model-only sets every modality's limit to 0, so a multimodal model's towers are "
        "neither built (interfaces.py _mark_tower_model, #32605) nor warmed up",
        "confirmed: no language_model_only in the v0.16.0 wheel (merged 2026-02-09), in v0.17.0")
    MRV2_PENALTY_BUFFER = RuleInfo(
        _v("0.27.0"), "#49208", "vllm/utils/mem_utils.py memory_profiling; vllm/v1/worker/gpu/sample/penalties.py",
        "vLLM charges the drop in free memory since the worker's first snapshot (plus the torch peak "
        "above what stays allocated), so buffers allocated after it count against the pool; among them "
        "model runner V2's sampler counts, an int32 per (max_num_seqs × vocabulary entry) plus a packed "
        "bit (about 4.1 bytes per entry; before, weights + torch peak + non-torch growth left them out)",
        "confirmed: memory_profiling charges the free-memory drop from the v0.27.0 wheel (v0.26.0 sums "
        "its three terms), and PenaltiesState allocates the counts unconditionally in the v0.27.0-v0.33.0 "
        "wheels; a v0.31 H200 pair (1,024 vs 32 sequences) differs by the 0.49 GiB they predict")
    FIT_CHECK_RESERVES_NULL_BLOCK = RuleInfo(
        _v("0.29.0"), "#47272", "vllm/v1/core/kv_cache_utils.py get_kv_cache_configs",
        "the fit check (and the automatic max_model_len) leaves out one block (the null block)",
        "confirmed: absent from the v0.28.0 wheel (merged 2026-08-20), in v0.29.0")
    GLM_DSA_FP8_KV_ON_SM10 = RuleInfo(
        _v("0.32.0"), "v0.32.0 wheel", "vllm/model_executor/models/config.py GlmMoeDsaForCausalLM",
        "GLM-5-class models (GlmMoeDsaForCausalLM) on CUDA compute capability 10.x (B200, B300) store "
        "their MLA cache in fp8_e4m3 when --kv-cache-dtype is auto: about twice the tokens of bf16",
        "confirmed: absent from the v0.31.0 wheel ('Using fp8 kv-cache for GlmMoeDsaForCausalLM on SM10x' "
        "in v0.32.0)")
    UNIFORM_DECODE_CAPTURE_SIZES = RuleInfo(
        _v("0.29.0"), "v0.29.0 wheel", "vllm/config/vllm.py _set_cudagraph_sizes",
        "with speculative decoding (decode query length q > 1) the default capture sizes also hold "
        "every request count × q up to the capture ceiling, off the 8/16-token grid (q = 3: 9 more sizes)",
        "confirmed: absent from the v0.28.0 wheel, in v0.29.0 (request_counts)")
    MLA_BLACKWELL_CUTLASS = RuleInfo(
        _v("0.10.1"), "#21626", "vllm/platforms/cuda.py check_and_update_config",
        "MLA on compute capability 10.0 defaults to CUTLASS_MLA, which forces 128-token blocks (Triton "
        "MLA's 16 before, where CUTLASS was an opt-in)",
        "confirmed: the v0.10.0 wheel takes CUTLASS only from VLLM_ATTENTION_BACKEND (cuda.py:165), "
        "v0.10.1 by default on 10.0 (cuda.py:152)")
    MLA_BLACKWELL_FAMILY = RuleInfo(
        _v("0.13.0"), "v0.13.0 wheel", "vllm/platforms/cuda.py check_and_update_config",
        "the Blackwell MLA default covers every 10.x device (B300's 10.3), not only 10.0, which ran "
        "Triton MLA's 16-token blocks",
        "confirmed: is_device_capability(100) in the v0.12.0 wheel (cuda.py:184), "
        "is_device_capability_family(100) in v0.13.0 (cuda.py:185)")
    MLA_BLACKWELL_FLASHINFER = RuleInfo(
        _v("0.15.0"), "#32615", "vllm/platforms/cuda.py check_and_update_config",
        "MLA on 10.x with qk_nope_head_dim 128 defaults to FLASHINFER_MLA, whose block-size check "
        "turns the default 16 into 64 (CUTLASS_MLA's 128 for other widths)",
        "confirmed: absent from the v0.14.0 wheel, in v0.15.0 (cuda.py:190-237)")
    MLA_BLOCK_FROM_BACKEND = RuleInfo(
        _v("0.18.0"), "v0.18.0 wheel", "vllm/platforms/interface.py update_block_size_for_backend",
        "the default block size is the one the chosen attention backend prefers: MLA on Hopper runs "
        "FLASH_ATTN_MLA (16; FlashMLA's 64 for an fp8 cache, which FLASH_ATTN_MLA cannot hold), on 10.x "
        "FLASHINFER_MLA (32; CUTLASS_MLA's 128 for a qk_nope_head_dim it does not take); before, "
        "FlashMLA's 64 was forced on Hopper",
        "confirmed: the v0.17.0 wheel forces 64 for FlashMLA (cuda.py:247), v0.18.0 sizes by the backend "
        "(interface.py:427; flashattn_mla.py:55 MultipleOf(16), flashinfer_mla.py:50 [32, 64])")
    FLASHINFER_MLA_NOPE_192 = RuleInfo(
        _v("0.19.0"), "#37475", "vllm/v1/attention/backends/mla/flashinfer_mla.py supports_combination",
        "FLASHINFER_MLA also takes qk_nope_head_dim 192 (64 and 128 before)",
        "confirmed: [64, 128] in the v0.18.0 wheel, [64, 128, 192] in v0.19.0 through v0.33.0")
    DRAFT_MODEL_ASYNC = RuleInfo(
        _v("0.28.0"), "v0.28.0 wheel", "vllm/config/vllm.py VllmConfig.__post_init__",
        "speculative decoding with a draft model keeps asynchronous scheduling on (it turned it off "
        "before, as every method outside EAGLE/MTP and GPU n-gram does)",
        "confirmed: the v0.27.0 wheel disables async scheduling for draft_model, v0.28.0 exempts it")
    ASYNC_SPEC_V1_ONLY = RuleInfo(
        _v("0.33.0"), "v0.33.0 wheel", "vllm/config/vllm.py VllmConfig.__post_init__",
        "the speculative methods that turn asynchronous scheduling off do so on the V1 model runner "
        "only: on model runner V2 n-gram, suffix, Medusa and MLP speculators keep it",
        "confirmed: the v0.32.0 wheel checks the method whatever the runner (config/vllm.py:1606), "
        "v0.33.0 only where use_v2_model_runner is false (config/vllm.py:1652)")
    MM_PREFIX_LM_WHOLE_ITEMS = RuleInfo(
        _v("0.20.0"), "#40534", "vllm/transformers_utils/model_arch_config_convertor.py Gemma4ModelArchConfigConvertor",
        "Gemma 4 with bidirectional vision attention is a multimodal prefix LM: on CUDA vLLM forces "
        "--disable-chunked-mm-input (platforms/cuda.py) and refuses to start when the largest item of a "
        "modality the prompt may carry is longer than max_num_batched_tokens "
        "(v1/core/encoder_cache_manager.py compute_mm_encoder_budget)",
        "confirmed: the v0.19.0 wheel reads no prefix LM for gemma4 (not in MM_PREFIX_LM_MODELS, no "
        "convertor override), v0.20.0 adds the override; a GB10 lab notebook's v0.20.0 retry note records "
        "the refused start at the default 2,048 ('failed_for_gemma4_mm_budget_2496'); a public v0.19.2 dev "
        "start at 2,048 ran. PR named by its description (merged 2026-04-21)")
    MM_PREFIX_LM_WHOLE_ITEMS_ROCM = RuleInfo(
        _v("0.30.0"), "v0.30.0 wheel", "vllm/platforms/rocm.py",
        "ROCm forces --disable-chunked-mm-input for multimodal prefix LMs too (Rule.MM_PREFIX_LM_WHOLE_ITEMS)",
        "confirmed: absent from the v0.29.0 wheel's platforms/rocm.py, in v0.30.0 through v0.33.0")
    MM_PREFIX_LM_MNBT_FLOOR = RuleInfo(
        _v("0.22.0"), "#43051", "vllm/engine/arg_utils.py _get_min_mm_batched_tokens",
        "a default max_num_batched_tokens is raised to the largest multimodal item of a prefix-LM model "
        "(Gemma 4 with bidirectional vision attention: a 32-frame video, 2,496 tokens), which must fit "
        "in one batch",
        "confirmed: absent from the v0.21.0 wheel, in v0.22.0 (arg_utils.py:2529) through v0.33.0")
    MODELOPT_KV_AUTO = RuleInfo(
        _v("0.14.0"), "v0.14.0 wheel", "vllm/utils/torch_utils.py resolve_kv_cache_dtype_string",
        "--kv-cache-dtype auto takes the KV dtype a ModelOpt checkpoint declares (kv_cache_quant_algo: "
        "FP8 -> fp8_e4m3, NVFP4 -> nvfp4); the model dtype before",
        "confirmed: absent from the v0.13.0 wheel (auto is the model dtype, attention/layer.py:163), in "
        "v0.14.0 (utils/torch_utils.py:239,301, called from engine/arg_utils.py:1398)")
    CT_KV_SCHEME_AUTO_FP8 = RuleInfo(
        _v("0.15.0"), "v0.15.0 wheel", "vllm/attention/layer.py Attention.__init__",
        "an llm-compressor checkpoint's kv_cache_scheme makes the cache fp8 (not on MLA layers, which "
        "do not read it); before, the scheme only carried scales for a cache asked for as fp8",
        "confirmed: absent from the v0.14.0 wheel, in v0.15.0 (attention/layer.py:198-203)")
    CT_KV_SCHEME_EXPLICIT_WINS = RuleInfo(
        _v("0.22.0"), "#42782", "vllm/model_executor/layers/attention/attention.py Attention.__init__",
        "an explicit --kv-cache-dtype wins over an llm-compressor kv_cache_scheme (v0.15 to v0.21 stored "
        "fp8 whatever was asked)",
        "confirmed: the v0.21.0 wheel sets fp8 unconditionally (attention.py:232-238), v0.22.0 only for "
        "auto (attention.py:237-238)")
    ATTENTION_ONLY_NOT_HYBRID = RuleInfo(
        _v("0.11.1"), "#28563", "vllm/config/model.py ModelConfig.is_hybrid",
        "a hybrid model class whose layer_types are all attention (granite-4.0-micro) is not treated as a "
        "hybrid: 16-token blocks instead of a block raised to hold a Mamba state, prefix caching on",
        "confirmed: absent from the v0.11.0 wheel (config/model.py:1427), in v0.11.1 (config/model.py:1632) "
        "through v0.33.0; a public v0.11.0 L40S log prints 1,312-token blocks")
    BREAKABLE_CUDAGRAPHS = RuleInfo(
        _v("0.29.0"), "v0.29.0 wheel", "vllm/config/vllm.py _maybe_enable_breakable_cudagraph",
        "listed architectures (DeepSeek-V3.2, GLM-5 and other sparse-attention models: "
        "BREAKABLE_CUDAGRAPH_ARCHITECTURES) run breakable CUDA graphs without torch.compile: no compile "
        "inside the memory profile, the eager forward pass, the same graph counts",
        "confirmed: absent from the v0.28.0 wheel, in v0.29.0 (config/vllm.py:75, 710-727) through v0.33.0")
    TRITON_MLA_FULL_GRAPHS = RuleInfo(
        _v("0.22.0"), "#42885", "vllm/v1/attention/backends/mla/triton_mla.py TritonMLAMetadataBuilder",
        "Triton MLA (MLA on Ampere, Ada, 12.x and ROCm without AITER) captures full CUDA graphs; before, "
        "its builder supported none and the default mode fell back to piecewise graphs only",
        "confirmed: the v0.21.0 wheel builds Triton MLA with MLACommonMetadataBuilder, whose support is "
        "NEVER (v1/attention/backend.py:519); v0.22.0 has its own builder, UNIFORM_BATCH (triton_mla.py:33)")
    TRITON_MLA_SINGLE_TOKEN_DECODE = RuleInfo(
        _v("0.26.0"), "v0.26.0 wheel", "vllm/v1/attention/backends/mla/triton_mla.py TritonMLAMetadataBuilder",
        "Triton MLA's full graphs cover single-token decodes only: with speculative decoding the default "
        "mode falls back to piecewise graphs only",
        "confirmed: UNIFORM_BATCH in the v0.25.0 wheel (triton_mla.py:51), UNIFORM_SINGLE_TOKEN_DECODE in "
        "v0.26.0 (triton_mla.py:51) through v0.30.0")
    TRITON_MLA_UNIFORM_BATCH = RuleInfo(
        _v("0.31.0"), "v0.31.0 wheel", "vllm/v1/attention/backends/mla/triton_mla.py TritonMLAMetadataBuilder",
        "Triton MLA captures full graphs for speculative decoding's uniform batches again",
        "confirmed: UNIFORM_SINGLE_TOKEN_DECODE in the v0.30.0 wheel, UNIFORM_BATCH in v0.31.0 "
        "(triton_mla.py:54) through v0.33.0")
    MAMBA_ALIGN_WITH_SPEC = RuleInfo(
        _v("0.20.0"), "#40454", "vllm/model_executor/models/config.py MambaModelConfig",
        "with prefix caching and speculative decoding, hybrids that support Mamba prefix caching take "
        "the 'align' cache mode (two states a request) instead of 'all' (a state a block)",
        "confirmed: absent from the v0.19.0 wheel, in v0.20.0 (models/config.py:353-360) and v0.21.0")
    MAMBA_ALL_WITH_SPEC_AGAIN = RuleInfo(
        _v("0.22.0"), "v0.22.0 wheel", "vllm/model_executor/models/config.py MambaModelConfig",
        "speculative decoding no longer changes the Mamba cache mode ('all' again for those hybrids until "
        "v0.28 makes 'align' the mode for all)",
        "confirmed: in the v0.21.0 wheel, absent from v0.22.0")
    HMA_OFF_FOR_CHUNKED_LOCAL = RuleInfo(
        _v("0.10.1"), "#21761", "vllm/config/__init__.py VllmConfig.__post_init__",
        "chunked local attention (Llama 4) turns the hybrid KV cache manager off, so those layers keep "
        "the whole context; v0.10.0 did so only with an EAGLE drafter",
        "confirmed: the v0.10.0 wheel disables it for chunked local attention with EAGLE only "
        "(config.py:4671), v0.10.1 unless VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=1 "
        "(config/__init__.py:3675) through v0.33.0")
    V32_AUTO_BF16 = RuleInfo(
        _v("0.11.1"), "v0.11.1 wheel", "vllm/model_executor/models/config.py DeepseekV32ForCausalLM",
        "DeepSeek-V3.2's --kv-cache-dtype auto stores bfloat16; v0.11.0 turned auto into its fp8_ds_mla "
        "layout (656 B a token instead of 1,152)",
        "confirmed: the v0.11.0 wheel converts auto and fp8 (models/config.py:419-421), v0.11.1 fp8 only "
        "(models/config.py:478)")
    FLASHINFER_SPARSE_FOR_FP8 = RuleInfo(
        _v("0.19.0"), "#37252", "vllm/platforms/cuda.py _get_backend_priorities",
        "on 10.x an fp8 cache of a sparse-MLA model goes to FLASHINFER_MLA_SPARSE, which stores standard "
        "fp8 (576 B a token); v0.18 chose FLASHMLA_SPARSE above 16 heads per GPU, which stores fp8_ds_mla",
        "confirmed: the v0.18.0 wheel orders the sparse backends by heads only, v0.19.0 puts FlashInfer "
        "first for fp8 caches (issue #35807)")
    SM120_SPARSE_MLA_FP8_DS_MLA = RuleInfo(
        _v("0.24.0"), "v0.24.0 wheel", "vllm/model_executor/layers/attention/mla_attention.py "
        "_canonicalize_sparse_mla_kv_cache_dtype",
        "on compute capability 12.x a sparse-MLA model runs FLASHINFER_MLA_SPARSE_SM120, which stores "
        "fp8_ds_mla for auto, fp8 and fp8_e4m3",
        "confirmed: absent from the v0.23.0 wheel, in v0.24.0 (platforms/cuda.py:130-134, "
        "mla_attention.py:323-336) through v0.33.0")
    V1_ENGINE_OLD_GPUS_AND_MAMBA = RuleInfo(
        _v("0.10.2"), "#23614", "vllm/engine/arg_utils.py _is_v1_supported_oracle",
        "GPUs below compute capability 8.0 and Mamba-state models run on the V1 engine; v0.10.0 and "
        "v0.10.1 fell back to the older V0 engine for them",
        "confirmed: the v0.10.1 wheel falls back (arg_utils.py:1403, 1429), v0.10.2's oracle checks neither")
    V1_ENGINE_ALWAYS = RuleInfo(
        _v("0.11.0"), "v0.11.0 wheel", "vllm/engine/arg_utils.py _is_v1_supported_oracle",
        "every start runs on the V1 engine; v0.10 fell back to the older V0 engine for an fp8 KV cache "
        "V1 could not hold (outside Hopper's FlashAttention 3, compute capability 10.0 and, from v0.10.2, "
        "MLA's FlashMLA and CUTLASS backends)",
        "confirmed: the v0.10.1 wheel (arg_utils.py:1409-1414) and v0.10.2 (arg_utils.py:1466) fall back, "
        "v0.11.0's oracle does not check the cache dtype")
    SEQS_CAPPED_BY_MNBT = RuleInfo(
        _v("0.10.1"), "v0.10.1 wheel", "vllm/engine/arg_utils.py _set_default_args",
        "a default max_num_seqs is capped at max_num_batched_tokens, also when --max-num-batched-tokens is given",
        "confirmed: absent from the v0.10.0 wheel, in v0.10.1 (arg_utils.py:1711) through v0.33.0")
    LONGROPE_DEFAULT_ORIGINAL_LEN = RuleInfo(
        _v("0.11.1"), "v0.11.1 wheel", "vllm/config/model.py _get_and_verify_max_len",
        "a LongRoPE model (Phi-3.5) defaults max_model_len to its original_max_position_embeddings; "
        "--max-model-len may still ask for the longer length",
        "confirmed: absent from the v0.11.0 wheel, in v0.11.1 (config/model.py:2112) through v0.33.0")
    MNBT_CAPTURE_SIZE = RuleInfo(
        _v("0.21.0"), "#40734", "vllm/config/vllm.py _set_cudagraph_sizes",
        "max_num_batched_tokens is a default CUDA-graph capture size when it fits under the ceiling "
        "(one more graph pair for a budget off the 8/16 grid)",
        "confirmed: absent from the v0.20.0 wheel, in v0.21.0 (config/vllm.py:1580) through v0.33.0")
    SPEC_CAPTURE_SIZES_ROUNDED = RuleInfo(
        _v("0.12.0"), "v0.12.0 wheel", "vllm/v1/worker/gpu_model_runner.py (temp-fix for vllm#28207)",
        "with speculative decoding the V1 runner rounds every capture size up to a multiple of the decode "
        "query length (adjust_cudagraph_sizes_for_spec_decode), where full decode graphs run their own "
        "routine (FULL_AND_PIECEWISE, FULL_DECODE_ONLY); piecewise-only capture keeps the sizes",
        "confirmed: absent from the v0.10.0 and v0.11.0 wheels; v0.12.0-v0.19.0 round where "
        "decode_mode() is FULL and separate_routine()")
    SPEC_CAPTURE_ROUNDED_FULL_MODE = RuleInfo(
        _v("0.20.0"), "v0.20.0 wheel", "vllm/config/compilation.py resolve_cudagraph_mode_and_sizes",
        "the rounding of the capture sizes moves into the compilation config and applies wherever decode "
        "graphs are full, FULL mode included",
        "confirmed: the v0.19.0 wheel also asks separate_routine(); v0.20.0 to v0.33.0 ask decode_mode() == FULL")
    MRV2_SPEC_CAPTURE_ROUNDED = RuleInfo(
        _v("0.21.0"), "v0.21.0 wheel", "vllm/v1/worker/gpu/cudagraph_utils.py CudaGraphManager",
        "model runner V2 rounds the capture sizes up to a multiple of the decode query length whatever the "
        "graph mode, until Rule.MRV2_SPEC_CAPTURE_ROUNDING_DROPPED",
        "confirmed: CudaGraphManager.__init__ calls adjust_cudagraph_sizes_for_spec_decode in the v0.21.0 to "
        "v0.24.0 wheels")
    MRV2_SPEC_CAPTURE_ROUNDING_DROPPED = RuleInfo(
        _v("0.25.0"), "v0.25.0 wheel", "vllm/v1/worker/gpu/cudagraph_utils.py _init_candidates",
        "model runner V2 keeps the capture sizes and rounds only its uniform decode graphs' token counts",
        "confirmed: the call is gone from the v0.25.0 wheel; v0.27.1's compilation config cites vllm#45953")
    MAX_NUM_SEQS_CAPTURE_SIZE = RuleInfo(
        _v("0.31.0"), "v0.31.0 wheel", "vllm/config/vllm.py _set_cudagraph_sizes",
        "without speculative decoding max_num_seqs itself is a default capture size when it fits under "
        "the ceiling (one more graph pair for a count off the 8/16 grid, e.g. 100)",
        "confirmed: absent from the v0.30.0 wheel, in v0.31.0")
    MRV2_SPEC_FALLBACK = RuleInfo(
        _v("0.22.0"), "v0.22.0 wheel", "vllm/config/vllm.py _get_v2_model_runner_unsupported_features",
        "speculative methods model runner V2 does not run yet keep a model on the V1 runner (its sampler, "
        "CUDA-graph cost, no V2 sampler counts): every method but EAGLE, EAGLE-3 and MTP (and DFlash) "
        "through v0.30; draft_model moves to V2 in v0.31, ngram and ngram_gpu in v0.32, medusa and "
        "mlp_speculator in v0.33 (suffix stays on V1)",
        "confirmed: the lists in the v0.22.0, v0.25.0, v0.28.0-v0.33.0 wheels")
    MRV2_WITHOUT_PINNED_MEMORY = RuleInfo(
        _v("0.30.0"), "#56908", "vllm/v1/worker/gpu/buffer_utils.py UvaBuffer",
        "model runner V2 starts without pinned host memory (WSL2 unless VLLM_WSL2_ENABLE_PIN_MEMORY=1): "
        "its UVA buffers fall back to device memory; before, V2 failed at start-up there with "
        "'RuntimeError: UVA is not available', so a start without pinned memory ran the V1 runner "
        "(VLLM_USE_V2_MODEL_RUNNER=0) or turned pinned memory on",
        "inferred: a v0.30.0 start under WSL2 prints 'Pinned memory is not available on this "
        "platform; falling back to device memory for UVA buffers'; default starts under WSL2 of v0.24.0 "
        "(vllm#47387), a v0.28.1rc1 nightly (vllm#54652) and v0.29.0 (mohitsoni48/TurboLLM#256) fail with "
        "'RuntimeError: UVA is not available'")
    NGRAM_DENSE_TOKEN_IDS = RuleInfo(
        _v("0.32.0"), "v0.32.0 wheel", "vllm/v1/worker/gpu/states.py RequestState.all_token_ids",
        "n-gram speculation on model runner V2 keeps every request's token ids on the GPU "
        "(max_num_seqs × max_model_len × 4 B, allocated at start-up; host memory otherwise)",
        "confirmed: the v0.32.0 wheel's model runner sets use_dense_all_token_ids for ngram/ngram_gpu, "
        "the first release where they run on V2")
    YARN_LENGTH_AS_GIVEN = RuleInfo(
        _v("0.30.0"), "v0.30.0 wheel", "vllm/config/model.py _get_and_verify_max_len",
        "YaRN RoPE (yarn, deepseek_yarn, deepseek_llama_scaling) no longer scales the length: the default "
        "max_model_len is max_position_embeddings as given; before, the factor times YaRN's "
        "original_max_position_embeddings (a Qwen config with a YaRN block of factor 4 over 32,768: "
        "131,072 before, 32,768 from v0.30, and a longer --max-model-len needs VLLM_ALLOW_LONG_MAX_MODEL_LEN=1)",
        "confirmed: the v0.29.0 wheel scales YaRN's original length, v0.30.0-v0.33.0 take it as given "
        "(transformers 5.16 does not rewrite max_position_embeddings)")
    MRV2_SAMPLER_WARMUP_PASS = RuleInfo(
        _v("0.33.0"), "v0.33.0 wheel", "vllm/v1/worker/gpu/model_runner.py _dummy_sampler_run",
        "model runner V2's warm-up samples a second time with SamplingParams.for_sampler_warmup() "
        "(temperature, top-k 50, top-p, min-p, penalties, logprobs), so the profile peak holds an fp32 "
        "copy of the logits and FlashInfer's masked logits and probabilities (the Triton fallback "
        "filters in place), not only the greedy pass's logits",
        "confirmed: the v0.33.0 wheel's _dummy_sampler_run adds the pass, absent from v0.28.0–v0.32.0; "
        "the bytes are read from the code (no public v0.33 log yet)")
    CUBLAS_HANDLES_BEFORE_SNAPSHOT = RuleInfo(
        _v("0.33.0"), "v0.33.0 wheel", "vllm/v1/worker/gpu_worker.py init_device",
        "the worker runs a 16 × 16 torch.mm and a linear with bias before its first memory snapshot, so "
        "cuBLAS and cuBLASLt handles, their kernels and torch's cuBLAS workspace count as baseline, not "
        "as memory the profile run consumed",
        "confirmed: the v0.33.0 wheel's init_device has the lines, absent from v0.32.0; the size "
        "(100 MiB) was measured on an H200 with torch 2.11.0+cu130 (scripts/probe_cublas_handles.py)")
    MRV2_DRAFT_CAPS_MAX_LEN = RuleInfo(
        _v("0.33.0"), "v0.33.0 wheel", "vllm/config/vllm.py _limit_max_model_len_to_draft",
        "on model runner V2, speculative method draft_model lowers max_model_len to the draft model's "
        "when that is shorter (V2 cannot skip speculation for longer sequences)",
        "confirmed: the v0.33.0 wheel adds _limit_max_model_len_to_draft, absent from v0.32.0")
    FLOAT_KV_MATCHES_MODEL = RuleInfo(
        _v("0.33.0"), "v0.33.0 wheel", "vllm/config/vllm.py _reject_mismatched_float_kv_cache",
        "an explicit --kv-cache-dtype float16 or bfloat16 must equal the model dtype (a ValueError "
        "otherwise: auto or the model's own dtype)",
        "confirmed: the v0.33.0 wheel adds _reject_mismatched_float_kv_cache, absent from v0.32.0")
    MRV2_ALL_MODELS_CG_PROFILED = RuleInfo(
        _v("0.29.0"), "v0.29.0 notes", "vllm/v1/worker/gpu/model_runner.py",
        "every model runs on model runner V2, which now profiles CUDA-graph memory",
        "confirmed: the v0.29.0 wheel (config/vllm.py use_v2_model_runner; V2's profile_cudagraph_memory "
        "returns 0 in v0.28.0)")
    MOE_WORKSPACE_KEPT = RuleInfo(
        _v("0.14.0"), "#31052", "vllm/model_executor/layers/fused_moe/unquantized_fused_moe_method.py",
        "16-bit MoE experts run through the modular fused-MoE kernel, whose workspaces the worker's "
        "WorkspaceManager keeps after the profile's forward pass: the sampler's warm-up peaks on top of them",
        "confirmed: the v0.14.0 wheel builds mk.FusedMoEModularKernel(TritonExperts) for unquantized "
        "experts and its workspaces come from current_workspace_manager() (v1/worker/workspace.py, which "
        "only grows them); v0.13.0 calls fused_experts, whose caches are freed on return")

    MARLIN_ON_TURING = RuleInfo(
        _v("0.14.0"), "v0.14.0 wheel", "vllm/model_executor/layers/quantization/fp8.py get_min_capability",
        "Marlin's weight-only kernels run on Turing: FP8 (Fp8Config), NVFP4 (ModelOptNvFp4Config), awq_marlin and "
        "gptq_marlin need compute capability 7.5 instead of 8.0, so T4s and RTX 20xx cards load FP8 and NVFP4 "
        "checkpoints and run AWQ/GPTQ on Marlin",
        "confirmed: get_min_capability returns 80 in the v0.10.0-v0.13.0 wheels and 75 from v0.14.0")
    MXFP4_MARLIN_FROM_SM110 = RuleInfo(
        _v("0.12.0"), "v0.12.0 wheel", "vllm/model_executor/layers/quantization/mxfp4.py get_mxfp4_backend",
        "MXFP4 experts (gpt-oss) run on Marlin kernels on compute capability 11.0 and newer (Thor, DGX Spark's "
        "GB10, RTX 50xx, RTX PRO Blackwell): the vendored triton_kernels are only used from 9.0 up to 11.0, and "
        "Marlin pads each GPU's expert intermediate size to 128 instead of 64",
        "confirmed: the v0.12.0 wheel vendors vllm.third_party.triton_kernels and limits them to "
        "(9, 0) <= capability < (11, 0), as do the fused_moe/oracle/mxfp4.py backends through v0.31.0; v0.33.0 "
        "lets the Triton kernels run on 12.x but orders Marlin first there; v0.11 used them on any capability "
        "from 9.0 whenever the optional triton_kernels package was installed")
    MXFP4_TRTLLM_ON_SM100 = RuleInfo(
        _v("0.12.0"), "v0.12.0 wheel", "vllm/model_executor/layers/quantization/mxfp4.py get_mxfp4_backend",
        "MXFP4 experts run on FlashInfer's TRT-LLM kernels on B200 (compute capability 10.0), which pad each "
        "GPU's expert intermediate size to 256: flashinfer-python became a dependency of the wheel",
        "confirmed: the v0.12.0 wheel requires flashinfer-python (v0.11.0 offers it as the 'flashinfer' extra) "
        "and picks SM100_FI_MXFP4_BF16 on is_device_capability(100) with flashinfer present")
    MXFP4_TRTLLM_ON_SM10X = RuleInfo(
        _v("0.19.0"), "v0.19.0 wheel", "vllm/model_executor/layers/fused_moe/experts/trtllm_mxfp4_moe.py",
        "FlashInfer's TRT-LLM MXFP4 experts, first in the gpt-oss order, run on the whole 10.x family: B300 "
        "(10.3) pads to 256 too (the Triton kernels before)",
        "confirmed: TrtLlmMxfp4Experts._supports_current_device tests is_device_capability_family(100) in the "
        "v0.19.0-v0.33.0 wheels; v0.12.0-v0.18.0 test is_device_capability(100)")
    MXFP4_MARLIN_FLAG = RuleInfo(
        _v("0.24.0"), "v0.24.0 wheel", "vllm/config/kernel.py MoEBackend",
        "Marlin for MXFP4 experts is asked for with --moe-backend marlin: VLLM_MXFP4_USE_MARLIN, read from "
        "v0.10.1, is gone",
        "confirmed: VLLM_MXFP4_USE_MARLIN is in vllm/envs.py of the v0.10.1-v0.23.0 wheels and not in v0.24.0, "
        "whose MoEBackend choices include 'marlin' (fused_moe/oracle/mxfp4.py map_mxfp4_backend)")
    MODELOPT_FP8_ON_AMPERE = RuleInfo(
        _v("0.27.0"), "v0.27.0 wheel", "vllm/model_executor/layers/quantization/modelopt.py ModelOptFp8Config",
        "ModelOpt FP8 checkpoints need compute capability 8.0 instead of 8.9, so A100s and RTX 30xx cards "
        "load them",
        "confirmed: ModelOptFp8Config.get_min_capability returns 89 in the v0.10.0-v0.26.0 wheels and 80 "
        "from v0.27.0")
    GPTQ_MARLIN_ONLY = RuleInfo(
        _v("0.22.0"), "v0.22.0 wheel", "vllm/model_executor/layers/quantization/auto_gptq.py AutoGPTQLinearMethod",
        "GPTQ checkpoints always take the Marlin-family linear method on CUDA (AutoGPTQ), which checks Marlin "
        "support when it is built: below compute capability 7.5 (V100) vLLM stops while creating the layers, "
        "although GPTQ's start-up minimum stays 6.0; before, the ExLlama kernel ran there",
        "confirmed: auto_gptq.py first ships in v0.22.0 and its linear method calls verify_marlin_supported, "
        "whose type list is empty below capability 75 (utils/marlin_utils.py), through v0.33.0")
    CT_WNA16_ON_TURING = RuleInfo(
        _v("0.12.0"), "v0.12.0 wheel",
        "vllm/model_executor/layers/quantization/compressed_tensors/schemes/compressed_tensors_wNa16.py",
        "compressed-tensors weight-only int4/int8 checkpoints (W4A16, W8A16) need compute capability 7.5 "
        "instead of 8.0",
        "confirmed: CompressedTensorsWNA16.get_min_capability returns 80 in the v0.10.0-v0.11.0 wheels and 75 "
        "from v0.12.0")
    CT_FP8_ON_TURING = RuleInfo(
        _v("0.16.0"), "v0.16.0 wheel",
        "vllm/model_executor/layers/quantization/compressed_tensors/schemes/compressed_tensors_w8a16_fp8.py",
        "compressed-tensors FP8 checkpoints, which fall back to the weight-only W8A16 scheme below compute "
        "capability 8.9, need 7.5 instead of 8.0",
        "confirmed: CompressedTensorsW8A16Fp8.get_min_capability returns 80 in the v0.10.0-v0.15.0 wheels and "
        "75 from v0.16.0")
    DEPRECATED_QUANTIZATION_GATE = RuleInfo(
        _v("0.14.0"), "v0.14.0 wheel", "vllm/config/model.py _verify_quantization",
        "deprecated quantization methods (fbgemm_fp8 checkpoints such as Llama-3.1-405B-Instruct-FP8; "
        "ptpc_fp8 until its removal in v0.19) stop at start-up unless --allow-deprecated-quantization is given",
        "confirmed: DEPRECATED_QUANTIZATION_METHODS and the flag first ship in the v0.14.0 wheel (absent from "
        "v0.13.0); fbgemm_fp8 is still listed in v0.33.0")
    BITSANDBYTES_REMOVED = RuleInfo(
        _v("0.28.0"), "v0.28.0 wheel", "vllm/model_executor/layers/quantization/__init__.py QuantizationMethods",
        "bitsandbytes is no longer a quantization method: a bitsandbytes checkpoint stops at start-up with "
        "'Unknown quantization method: bitsandbytes'",
        "confirmed: bitsandbytes.py and the method name are in the v0.27.0 wheel and gone from v0.28.0")
    MAMBA2_CHECKPOINT_BLOCK = RuleInfo(
        _v("0.32.0"), "v0.32.0 wheel", "vllm/model_executor/layers/mamba/mamba_mixer2.py get_kv_cache_spec",
        "in Mamba cache mode 'align' (prefix caching, on by default for hybrids) a Mamba2 layer (Nemotron-H, "
        "Granite 4.0-H) keeps a third state block per request for the prefill checkpoint it exports "
        "(MambaSpec.num_prefill_checkpoint_blocks = 1; max_memory_usage_bytes counts 2 + it)",
        "confirmed: MambaSpec has the field from the v0.29.0 wheel, MambaMixer2 sets it from v0.32.0 "
        "(absent from v0.31.0) through v0.33.0")
    GDN_CHECKPOINT_BLOCK_ALIGNMENT = RuleInfo(
        _v("0.33.0"), "v0.33.0 wheel", "vllm/platforms/interface.py _align_hybrid_block_size",
        "in Mamba cache mode 'align' (prefix caching, on by default for hybrids) the attention block of a "
        "gated-delta-net model (Qwen3-Next, Qwen3.5/3.6) is a multiple of 64 tokens wherever FlashInfer "
        "runs the GDN prefill and exports mid-prefill checkpoints (compute capability 9.0; 10.x and 12.x "
        "with 128-wide key heads on CUDA 13), and each such layer keeps a third state block per request",
        "confirmed: get_mamba_prefill_checkpoint_alignment and FLASHINFER_GDN_CHECKPOINT_ALIGNMENT = 64 "
        "(v1/attention/backends/gdn_attn.py; qwen_gdn_linear_attn.py _resolve_gdn_prefill_backend) are in "
        "the v0.33.0 wheel and absent from v0.28.0-v0.32.0")
    UNIFIED_MEMORY_CUDA_TOTAL = RuleInfo(
        _v("0.33.0"), "v0.33.0 wheel", "vllm/platforms/cuda.py get_device_total_memory; "
        "vllm/engine/arg_utils.py get_batch_defaults",
        "where NVML reports no memory (integrated GPUs) vLLM takes CUDA's total, and only compute capability "
        "12.1 (GB10) keeps the small batch defaults: a Jetson AGX Thor gets 8,192 batched tokens and 1,024 "
        "sequences for serve (2,048 and 256 before)",
        "confirmed: the v0.32.0 wheel lets the NVMLError through, so get_batch_defaults falls back to 0 bytes; "
        "v0.33.0 catches it (pynvml.NVMLError -> cuda total_memory) and adds is_gb10. Assumes the NVML platform "
        "(nvidia-smi present, memory N/A), as on Jetson Thor's JetPack 7; without NVML vLLM would read CUDA's "
        "total in every release")
    DCP_BACKEND_CHECKED = RuleInfo(
        _v("0.30.0"), "v0.30.0 wheel", "vllm/v1/attention/backend.py supports_dcp, validate_configuration",
        "a backend must declare decode-context-parallel support: FlashAttention, FlashInfer and the MLA "
        "backends do; Triton, FlexAttention, ROCm's plain-attention backends and its sparse MLA do not, so "
        "--decode-context-parallel-size above 1 stops there",
        "confirmed: AttentionImpl.supports_dcp defaults to True in the v0.29.0 wheel, to False from v0.30.0 "
        "(with 'DCP not supported' in validate_configuration) through v0.33.0")
    GEMMA4_MIXED_HEADS_BY_PRIORITY = RuleInfo(
        _v("0.24.0"), "v0.24.0 wheel", "vllm/model_executor/models/config.py Gemma4Config",
        "Gemma 4's two head sizes (256 and 512) are forced onto TRITON_ATTN only where FlashAttention 4 is "
        "missing (below 9.0, 12.x); on 9.x-11.x the CUDA priority picks, FlashInfer first on 10.x (with "
        "its workspace in the graph estimate) unless the model attends fully over image tokens",
        "confirmed: the v0.19.0-v0.23.0 wheels force TRITON_ATTN for heterogeneous heads over 256; "
        "v0.24.0 through v0.33.0 set flash_attn_version 4 where is_fa_version_supported(4) and force "
        "Triton only otherwise")
    NVFP4_KV_FA2 = RuleInfo(
        _v("0.32.0"), "v0.32.0 wheel", "vllm/v1/attention/backends/flashinfer.py supports_kv_cache_dtype, "
        "_nvfp4_kv_on_fa2, supports_combination",
        "an nvfp4 KV cache runs on compute capability 8.x, 9.x and 12.x too, through FlashInfer's FA2 path "
        "(not for head size 64 or attention sinks); before, only 10.x kept it",
        "confirmed: the v0.20.0-v0.31.0 wheels list nvfp4 for FlashInfer on the 10.x family only; "
        "_nvfp4_kv_on_fa2 is in v0.32.0 and v0.33.0")
    BACKEND_KV_DTYPE_LISTS = RuleInfo(
        _v("0.18.0"), "v0.18.0 wheel", "vllm/platforms/cuda.py _get_backend_priorities; "
        "vllm/v1/attention/backends/*.py supported_kv_cache_dtypes",
        "vLLM picks the attention backend by the cache types each lists and stops where none keeps the "
        "requested one: fp8_inc (Intel Gaudi's) on CUDA and ROCm, fp8_e5m2 on MLA models, fp8_ds_mla on "
        "dense MLA",
        "confirmed: no CUDA or ROCm backend lists fp8_inc and no CUDA MLA backend lists fp8_e5m2 in the v0.18.0, "
        "v0.20.0, v0.25.0, v0.29.0 and v0.33.0 wheels (ROCm's AITER MLA alone does); fp8_ds_mla only in the "
        "sparse backends (an audit of the v0.31 and v0.33 code)")
    MAMBA2_SPEC_SLOTS = RuleInfo(
        _v("0.17.0"), "v0.17.0 wheel", "vllm/model_executor/layers/mamba/mamba_mixer2.py, "
        "mamba_utils.py mamba2_state_shape",
        "a Mamba2 layer's conv state keeps a slot per speculative token (kernel - 1 + n rows), as gated "
        "delta nets always did",
        "confirmed: num_spec absent from mamba2_state_shape and mamba_mixer2.py in the v0.11.0-v0.16.0 wheels, "
        "in v0.17.0 through v0.33.0 (nemotron_h.py passes it to the page from v0.17.0 too)")
    GRANITE_HYBRID_SPEC_PAGE = RuleInfo(
        _v("0.32.0"), "v0.32.0 wheel", "vllm/model_executor/models/granitemoehybrid.py "
        "get_mamba_state_shape_from_config",
        "Granite 4.0-H's class counts the speculative slots in the page its state is padded to; before, "
        "from v0.17 its Mamba2 layers kept them and vLLM stopped where they did not fit the page",
        "confirmed: num_spec absent from granitemoehybrid.py get_mamba_state_shape_from_config in the "
        "v0.17.0-v0.31.0 wheels, in v0.32.0 and v0.33.0")
    MINIMAX_LIGHTNING_REMOVED = RuleInfo(
        _v("0.24.0"), "v0.24.0 wheel", "vllm/model_executor/models/registry.py _PREVIOUSLY_SUPPORTED_MODELS",
        "MiniMax-Text-01 and MiniMax-M1 (lightning attention) are no longer served: their architectures raise "
        "'was supported in vLLM until v0.23.0'",
        "confirmed: minimax_text_01.py and its registry entries in the v0.10.0-v0.23.0 wheels, the "
        "architectures listed as previously supported from v0.24.0 through v0.33.0")
    FALCON_H1_MLP_QUANTIZED = RuleInfo(
        _v("0.16.0"), "v0.16.0 wheel", "vllm/model_executor/models/falcon_h1.py FalconH1MLP",
        "Falcon-H1's MLP (and attention) take the checkpoint's quantization; before, vLLM built the MLP "
        "without it",
        "confirmed: FalconH1MLP(config) without quant_config in the v0.10.0-v0.15.0 wheels, with it from v0.16.0")
    ZAMBA2_SPEC_PAGE = RuleInfo(
        _v("0.32.0"), "v0.32.0 wheel", "vllm/model_executor/models/zamba2.py get_mamba_state_shape_from_config",
        "Zamba2's class counts the speculative slots in the page its state is padded to; before, from v0.17 "
        "its Mamba2 mixers kept them and vLLM stopped where they did not fit the page",
        "confirmed: num_spec absent from zamba2.py get_mamba_state_shape_from_config in the v0.17.0-v0.31.0 "
        "wheels, passed in v0.32.0 and v0.33.0")
    FALCON_H1_SPEC_PAGE = RuleInfo(
        _v("0.32.0"), "v0.32.0 wheel", "vllm/model_executor/models/falcon_h1.py get_mamba_state_shape_from_config",
        "Falcon-H1's class counts the speculative slots in the page its state is padded to; before, from v0.17 "
        "its Mamba2 mixers kept them and vLLM stopped where they did not fit the page",
        "confirmed: num_spec absent from falcon_h1.py get_mamba_state_shape_from_config in the v0.17.0-v0.31.0 "
        "wheels, passed in v0.32.0 and v0.33.0")
    SHORT_CONV_SPEC_SLOTS = RuleInfo(
        _v("0.29.0"), "v0.29.0 wheel", "vllm/model_executor/layers/mamba/short_conv.py get_state_shape",
        "an LFM2 convolution layer keeps a state slot per speculative token, which the page vLLM pads its "
        "state to (sized by the model class without them) must hold, or vLLM stops at an assertion",
        "confirmed: num_spec absent from short_conv.py in the v0.18.0-v0.28.0 wheels, in v0.29.0 through "
        "v0.33.0; lfm2.py get_mamba_state_shape_from_config passes none in every release")
    NEMOTRON_H_SSM_DTYPE_FROM_CONFIG = RuleInfo(
        _v("0.13.0"), "v0.13.0 wheel", "vllm/model_executor/models/config.py NemotronHForCausalLMConfig",
        "Nemotron-H's Mamba SSM state takes the config's mamba_ssm_cache_dtype, float16 where it has none "
        "(unless --mamba-ssm-cache-dtype is given); before, the state followed the model dtype",
        "confirmed: absent from the v0.10.2-v0.12.0 wheels, in v0.13.0 with the float16 default through v0.19.0")
    NEMOTRON_H_SSM_FLOAT32_DEFAULT = RuleInfo(
        _v("0.20.0"), "v0.20.0 wheel", "vllm/model_executor/models/config.py NemotronHForCausalLMConfig",
        "a Nemotron-H config without mamba_ssm_cache_dtype keeps its SSM state in float32 "
        "(DEFAULT_MAMBA_SSM_CACHE_DTYPE), twice float16's bytes: Nemotron-H-56B-Base-8K and the older 8B/47B",
        "confirmed: 'float16' in the v0.19.0 wheel, DEFAULT_MAMBA_SSM_CACHE_DTYPE = 'float32' from v0.20.0 "
        "through v0.33.0")
    ROCM_UNIFIED_ATTN_BLOCK_64 = RuleInfo(
        _v("0.29.0"), "v0.29.0 wheel", "vllm/v1/attention/backends/rocm_aiter_unified_attn.py "
        "get_preferred_block_size; vllm/platforms/rocm.py _get_backend_priorities",
        "on MI300X/MI325X/MI355X with AITER installed, a model ROCM_ATTN does not take (attention sinks as "
        "in gpt-oss, a KV connector, heads outside 32-256) runs on ROCM_AITER_UNIFIED_ATTN, which prefers "
        "64-token blocks",
        "confirmed: get_preferred_block_size returning 64 is absent from the v0.28.0 wheel and in v0.29.0 "
        "through v0.33.0; the priority (ROCM_ATTN unless a KV connector, ROCM_AITER_FA with "
        "VLLM_ROCM_USE_AITER=1, ROCM_AITER_UNIFIED_ATTN where AITER is found on CDNA 3+, TRITON_ATTN) is the "
        "same in v0.28.0-v0.33.0")
    ROCM_SPARSE_MLA = RuleInfo(
        _v("0.12.0"), "v0.12.0 wheel", "vllm/v1/attention/backends/mla/rocm_aiter_mla_sparse.py",
        "sparse MLA (DeepSeek-V3.2's indexer attention) runs on ROCm, on AITER's sparse backend",
        "confirmed: absent from the v0.11.0 and v0.11.1 wheels, in v0.12.0 through v0.33.0")
    ROCM_SPARSE_MLA_BLOCK_16 = RuleInfo(
        _v("0.28.0"), "v0.28.0 wheel", "vllm/v1/attention/backends/mla/rocm_aiter_mla_sparse.py, "
        "mla/indexer.py get_supported_kernel_block_sizes",
        "sparse MLA on ROCm (DeepSeek-V3.2, GLM-5) keeps the default 16-token blocks: AITER's sparse "
        "backend and the indexer take multiples of 16; before, they took 1 (and 64), so vLLM set 1",
        "confirmed: [1] in the v0.18.0-v0.20.0 wheels, [1, 64] in v0.21.0-v0.26.0, [1, MultipleOf(16)] from "
        "v0.28.0 through v0.33.0; v0.12.0-v0.17.0 assert block size 1 in platforms/rocm.py")
    MM_PREFIX_COMPOSITE_BACKEND = RuleInfo(
        _v("0.30.0"), "v0.30.0 wheel", "vllm/platforms/cuda.py _get_backend_priorities; "
        "vllm/v1/attention/backends/triton_flashinfer.py",
        "on compute capability 10.x a model that attends fully over image tokens with heads of 256 or 512 "
        "(Gemma 4 with bidirectional vision attention, Gemma 3 4B/12B) runs on the TRITON_FLASHINFER "
        "composite, whose only kernel block is 64 tokens: the default block size becomes 64",
        "confirmed: triton_flashinfer.py (kernel_block_sizes=(64,), device_major=10) and its place first "
        "in the 10.x priority with use_mm_prefix are absent from the v0.29.0 wheel and in v0.30.0 through "
        "v0.33.0")
    LFM2_MODEL = RuleInfo(
        _v("0.10.2"), "v0.10.2 wheel", "vllm/model_executor/models/lfm2.py",
        "vLLM runs Liquid AI's LFM2 (Lfm2ForCausalLM): short-convolution layers whose state the hybrid "
        "KV cache manager keeps beside the attention layers' blocks",
        "confirmed: absent from the v0.10.1 wheel's model registry, in v0.10.2 (registry.py, lfm2.py) through v0.33.0")
    LFM2_MOE_MODEL = RuleInfo(
        _v("0.11.1"), "v0.11.1 wheel", "vllm/model_executor/models/lfm2_moe.py",
        "vLLM runs LFM2's mixture-of-experts models (Lfm2MoeForCausalLM, LFM2-8B-A1B)",
        "confirmed: absent from the v0.11.0 wheel's model registry, in v0.11.1 (registry.py, lfm2_moe.py) "
        "through v0.33.0")
    LFM2_VL_MODEL = RuleInfo(
        _v("0.14.0"), "v0.14.0 wheel", "vllm/model_executor/models/lfm2_vl.py",
        "vLLM runs LFM2's vision-language models (Lfm2VlForConditionalGeneration, LFM2-VL)",
        "confirmed: absent from the v0.13.0 wheel's model registry, in v0.14.0 (registry.py, lfm2_vl.py) "
        "through v0.33.0")

    MAMBA_DTYPE_FLOAT16 = RuleInfo(
        _v("0.13.0"), "v0.13.0 wheel", "vllm/config/cache.py MambaDType",
        "--mamba-ssm-cache-dtype (and --mamba-cache-dtype) take float16; before, only auto and float32",
        "confirmed: Literal['auto', 'float32'] in the v0.10.0-v0.12.0 wheels, 'float16' added in v0.13.0")
    MAMBA_DTYPE_BFLOAT16 = RuleInfo(
        _v("0.22.0"), "v0.22.0 wheel", "vllm/config/cache.py MambaDType",
        "--mamba-ssm-cache-dtype (and --mamba-cache-dtype) take bfloat16",
        "confirmed: absent from the v0.21.0 wheel's MambaDType, in v0.22.0 through v0.33.0")
    OLMO_HYBRID_MODEL = RuleInfo(
        _v("0.18.0"), "v0.18.0 wheel", "vllm/model_executor/models/olmo_hybrid.py",
        "vLLM runs AllenAI's OLMo-Hybrid (OlmoHybridForCausalLM): gated-delta-net layers beside attention",
        "confirmed: absent from the v0.17.0 wheel, in v0.18.0 (registry.py, olmo_hybrid.py) through v0.33.0")
    KIMI_LINEAR_MODEL = RuleInfo(
        _v("0.11.1"), "#27809", "vllm/model_executor/models/kimi_linear.py",
        "vLLM runs Moonshot's Kimi Linear (KimiLinearForCausalLM): Kimi delta attention (KDA) layers, whose "
        "state the hybrid KV cache manager keeps beside the MLA layers' blocks",
        "confirmed: absent from the v0.11.0 wheel's model registry, in v0.11.1 (registry.py, kimi_linear.py) "
        "through v0.26.0; from v0.27.0 the registry serves it from vllm/models/kimi_k3 with the same cache specs")
    HYBRID_ALIGN_FROM_BACKEND = RuleInfo(
        _v("0.20.0"), "v0.20.0 wheel", "vllm/platforms/interface.py Platform._align_hybrid_block_size",
        "the attention block of a hybrid is a multiple of the attention backend's smallest kernel block "
        "(or of --block-size, when larger); before, HybridAttentionMambaModelConfig used 16, or 64 for MLA, "
        "whatever --block-size said, and kept --block-size only where it was already larger",
        "confirmed: HybridAttentionMambaModelConfig.verify_and_update_config sets kernel_block_alignment_size "
        "16 / 64 (MLA; 128 only for a forced CUTLASS_MLA) in the v0.11.1-v0.19.0 wheels "
        "(model_executor/models/config.py); v0.20.0 moves the sizing to Platform._align_hybrid_block_size")
    HYBRID_MLA_ALIGN_128 = RuleInfo(
        _v("0.27.0"), "v0.27.0 wheel", "vllm/platforms/interface.py Platform._align_hybrid_block_size",
        "an MLA + state-layer hybrid (Kimi Linear) aligns its attention block to at least 128 tokens, which "
        "the TRT-LLM and FlashInfer MLA decode kernels need",
        "confirmed: absent from the v0.26.0 wheel, 'kernel_block_alignment_size = max(..., 128)' for "
        "use_mla in v0.27.0 through v0.33.0")
    KDA_SPEC_SLOTS = RuleInfo(
        _v("0.27.0"), "v0.27.0 wheel", "vllm/model_executor/layers/mamba/mamba_utils.py kda_state_shape",
        "a KDA layer's convolution state keeps a slot per speculative token (kernel - 1 + n rows), in the "
        "page vLLM sizes from the model class and in the layer's own state",
        "confirmed: kda_state_shape takes num_spec but ignores it in the v0.23.0-v0.26.0 wheels; v0.27.0 "
        "through v0.33.0 add it to the conv rows, and KimiGatedDeltaNetAttention passes it")
    KDA_SSM_DTYPE_SIZING = RuleInfo(
        _v("0.30.0"), "v0.30.0 wheel", "vllm/models/kimi_k3/nvidia/model.py get_mamba_state_dtype_from_config",
        "--mamba-ssm-cache-dtype bfloat16 sizes Kimi Linear's state page for a 16-bit recurrent state, but "
        "the KDA layer still keeps float32 (KimiGatedDeltaNetAttention.get_state_dtype), so the start stops at "
        "MambaSpec's 'page_size_padded >= page_size' assertion; float16 is refused outright. Before, the flag "
        "left KDA's float32 state alone",
        "confirmed: kda_state_dtype takes mamba_ssm_cache_dtype from the v0.30.0 wheel (float32 or bfloat16, "
        "else ValueError) and the model class passes it, while kimi_gdn_linear_attn.py does not (v0.30.0-"
        "v0.33.0); the failing assertion is read from the code, not seen in a log")
    HYBRID_SPEC_REFUSED = RuleInfo(
        _v("0.10.0"), "v0.10.0 wheel", "vllm/v1/worker/gpu_model_runner.py, then "
        "vllm/model_executor/layers/mamba/abstract.py MambaBase.get_kv_cache_spec",
        "a state-layer model other than Qwen3-Next stops with speculative decoding ('Mamba with speculative "
        "decoding is not supported yet.') until v0.17",
        "confirmed: the NotImplementedError is in the V1 model runner of the v0.10.0-v0.11.0 wheels (every "
        "state-layer model in v0.10.0 and v0.10.1, Qwen3-Next let through from v0.10.2) and in abstract.py "
        "of the v0.11.1-v0.16.0 wheels")
    HYBRID_SPEC_DECODING = RuleInfo(
        _v("0.17.0"), "v0.17.0 wheel", "vllm/model_executor/layers/mamba/abstract.py MambaBase.get_kv_cache_spec",
        "every state-layer model may run speculative decoding (each state group keeps a block per "
        "speculative token)",
        "confirmed: the qwen3_next-only check is gone from the v0.17.0 wheel")
    DEEPSEEK_V4_MODEL = RuleInfo(
        _v("0.20.0"), "v0.20.0 wheel", "vllm/model_executor/models/deepseek_v4.py (vllm/models/deepseek_v4 from "
        "v0.22)",
        "vLLM runs DeepSeek-V4 (DeepseekV4ForCausalLM): a 128-token window of raw entries in every layer, "
        "compressed KV (one entry per 4 or 128 tokens), a sparse-attention indexer and float32 compressor "
        "states, planned as five kinds of group in one packed allocation",
        "confirmed: no deepseek_v4 module in the v0.10.0-v0.19.0 wheels; registry.py registers it from v0.20.0")
    DSV4_SM12X = RuleInfo(
        _v("0.24.0"), "v0.24.0 wheel", "vllm/models/deepseek_v4/nvidia/model.py, nvidia/flashinfer_sparse.py",
        "DeepSeek-V4 runs on compute capability 12.x (RTX PRO 6000, RTX 50, DGX Spark) through FlashInfer's "
        "SM120 attention, which keeps the fp8_ds_mla rows; before, only FlashMLA's 9.0 and 10.x",
        "confirmed: the v0.20.0-v0.23.0 wheels pick FlashMLA alone (its backend declares major in [9, 10]); "
        "v0.24.0 adds DeepseekV4FlashInferSM120Attention for 12.x")
    DSV4_BLOCK_SLOTS = RuleInfo(
        _v("0.23.0"), "v0.23.0 wheel", "vllm/v1/core/kv_cache_utils.py _bucket_layers_by_page_size",
        "a DeepSeek-V4 block costs, for each page size, the page times the most layers of that size in one "
        "group (Flash: 1,039,680 bytes); before, the layer tuples times the full group's distinct pages "
        "(1,051,776)",
        "confirmed: _get_kv_cache_config_deepseek_v4 of the v0.20.0-v0.22.0 wheels multiplies num_layer_tuples by "
        "the summed pages; v0.23.0 buckets the layers by page size (then _get_kv_cache_config_packed, v0.24)")
    DSV4_UNPADDED_STATE_PAGES = RuleInfo(
        _v("0.27.0"), "v0.27.0 wheel", "vllm/v1/core/kv_cache_utils.py _get_kv_cache_groups_uniform_groups, "
        "_get_packed_kv_cache_layout, get_max_concurrency_for_kv_cache_config",
        "DeepSeek-V4's window and state pages are no longer padded to a full-group page, a block costs the "
        "largest group's page (Flash: 1,002,240 bytes) and a request's blocks are summed over the groups; "
        "before, state pages of 32,832 bytes were padded to 37,440 and a request was measured in full-group "
        "pages",
        "confirmed: the padding loop is in the v0.20.0-v0.26.0 wheels and gone from v0.27.0 ('their page sizes "
        "do not need to match'); block_stride is the largest group page from v0.27.0")
    DSV4_CHECK_PER_BLOCK = RuleInfo(
        _v("0.29.0"), "v0.29.0 wheel", "vllm/v1/core/kv_cache_utils.py _get_kv_cache_bytes_per_block",
        "vLLM's max-model-len check (and --max-model-len auto) charges a DeepSeek-V4 block what the pool "
        "charges it; before, the layer tuples times the full group's distinct pages (Flash: 1,051,776 "
        "bytes) whatever the pool's bytes per block",
        "confirmed: the DeepSeek-V4 branch of the memory check in the v0.20.0-v0.28.0 wheels; the generic "
        "bytes-per-block planning from v0.29.0 (kv_cache_planning.py in v0.33.0)")
    DSV4_AUTO_KV_FP8 = RuleInfo(
        _v("0.30.0"), "v0.30.0 wheel", "vllm/models/deepseek_v4/attention.py _resolve_dsv4_kv_cache_dtype",
        "--kv-cache-dtype auto gives DeepSeek-V4 its fp8_ds_mla cache; before, vLLM asserts an fp8 cache "
        "and auto stops the start",
        "confirmed: 'assert kv_cache_dtype.startswith(\"fp8\")' with auto in the v0.20.0-v0.29.0 wheels; "
        "v0.30.0 maps auto to fp8")
    DSV4_TRTLLM_ALIGN_128 = RuleInfo(
        _v("0.27.0"), "v0.27.0 wheel", "vllm/model_executor/layers/fused_moe/oracle/mxfp4.py",
        "FlashInfer's TRT-LLM MXFP4 experts (compute capability 10.x) round each GPU's share of the expert "
        "intermediate size up to 128; before, to 256 (DeepSeek-V4-Pro at TP 8: 384 became 512, about 32 GiB "
        "more a GPU)",
        "confirmed: the rounding table of the v0.25.0 and v0.26.0 wheels gives 256 for the TRT-LLM backends, "
        "v0.27.0 128")
    DSV4_MTP_BUFFER_ON_DEMAND = RuleInfo(
        _v("0.27.0"), "v0.27.0 wheel", "vllm/models/deepseek_v4/nvidia/model.py",
        "DeepSeek-V4 allocates its MTP hidden-state buffer (bf16, max_num_batched_tokens x hc_mult x hidden: "
        "256 MiB for Flash at 8,192 tokens) only with speculative decoding; before, always, inside 'Model "
        "loading took'",
        "confirmed: unconditional _mtp_hidden_buffer in the v0.25.0 and v0.26.0 wheels, behind the speculative "
        "config from v0.27.0")
    DSV4_EAGER_SCRATCH = RuleInfo(
        _v("0.27.0"), "v0.27.0 wheel", "vllm/models/deepseek_v4/eager_scratch.py",
        "DeepSeek-V4 builds an eager scratch pool with the model (queries of max_num_batched_tokens x padded "
        "heads x 512 in bf16, and an index buffer), counted in 'Model loading took'",
        "confirmed: DeepseekV4EagerScratchPool is created in the v0.27.0 and v0.28.0 wheels' model __init__")
    DSV4_EAGER_SCRATCH_REMOVED = RuleInfo(
        _v("0.29.0"), "v0.29.0 wheel", "vllm/models/deepseek_v4/nvidia/model.py",
        "DeepSeek-V4's eager scratch pool is gone",
        "confirmed: no eager_scratch module in the v0.29.0 and v0.30.0 wheels")
    DSV4_SM120_DEEPGEMM_MOE = RuleInfo(
        _v("0.25.0"), "v0.25.0 wheel", "vllm/platforms/cuda.py support_deep_gemm; fused_moe/oracle/mxfp4.py",
        "DeepSeek-V4's MXFP4 experts run on DeepGEMM on compute capability 12.x, whose workspace rows are "
        "rounded up per expert; before, on Marlin",
        "confirmed: support_deep_gemm lists no 12.x family in the v0.23.0 and v0.24.0 wheels, 12.x from v0.25.0")
    DSV4_FLASHMLA_TOPK_WORKSPACE = RuleInfo(
        _v("0.27.0"), "v0.27.0 wheel", "vllm/models/deepseek_v4/nvidia/flashmla.py",
        "FlashMLA's DeepSeek-V4 profile reservation adds the combined top-k indices (max_num_batched_tokens x "
        "(index_topk + 128) int32) to its prefill gather",
        "confirmed: the v0.23.0-v0.26.0 wheels reserve the bf16 gather alone")
    DSV4_INDEXER_AFTER_Q = RuleInfo(
        _v("0.28.0"), "v0.28.0 wheel", "vllm/models/deepseek_v4/attention.py",
        "DeepSeek-V4's sparse-attention indexer runs after the query projection, so its 512 MiB logits "
        "placeholder is allocated while the padded queries are alive (about 0.1-0.3 GiB more peak); before, "
        "it ran first, beside the query projection on another stream",
        "confirmed: the indexer op moved after wq_b in the v0.28.0 wheel (attention.py), still there in v0.30.0")
    DSV4_SM120_HEADS_8 = RuleInfo(
        _v("0.30.0"), "v0.30.0 wheel", "vllm/models/deepseek_v4/nvidia/flashinfer_sparse.py",
        "FlashInfer's SM120 path pads DeepSeek-V4's query heads to 8 where a GPU holds that few (TP 8); "
        "before, to 16 at least",
        "confirmed: the padded head sizes are (16, 32, 64, 128) in the v0.25.0-v0.27.0 wheels and start at 8 "
        "in v0.30.0")
    DSV4_PIPELINE_PARALLEL = RuleInfo(
        _v("0.21.0"), "v0.21.0 wheel", "vllm/model_executor/models/deepseek_v4.py DeepseekV4ForCausalLM (SupportsPP)",
        "DeepSeek-V4 runs with pipeline parallelism: its five groups are planned over the whole model and "
        "projected on each stage, which divides its memory by its own bytes per block (the fewest blocks win); "
        "before, the class is not SupportsPP and vLLM refuses ('Pipeline parallelism is not supported for this "
        "model')",
        "confirmed: class DeepseekV4ForCausalLM(nn.Module) in the v0.20.0 wheel, SupportsPP from v0.21.0 "
        "(vllm/models/deepseek_v4/nvidia/model.py from v0.22)")
    DSPARK_METHOD = RuleInfo(
        _v("0.25.0"), "v0.25.0 wheel", "vllm/config/speculative.py (DSparkModelTypes); vllm/models/deepseek_v4/nvidia/dspark.py",
        "--speculative-config method 'dspark': DeepSeek-V4's DSpark drafter (n_mtp_layers or 3 window layers, "
        "a fusion of the target's hidden states and a Markov head), on model runner V2",
        "confirmed: no 'dspark' in the v0.24.0 wheel's config/speculative.py; DSparkModelTypes and dspark.py from "
        "v0.25.0; use_v2_model_runner returns True for it in v0.25.0-v0.28.0, V1 refuses it from v0.29.0")
    DSPARK_MARKOV_REPLICATED = RuleInfo(
        _v("0.27.0"), "v0.27.0 wheel", "vllm/model_executor/models/qwen3_dspark.py",
        "DSpark's Markov head (two vocab x dspark_markov_rank bf16 tables) is replicated on every GPU, and the "
        "drafter keeps its own top-k index buffer; before, the head was split by TP and the buffer shared",
        "confirmed: VocabParallelEmbedding / ParallelLMHead in the v0.25.0 and v0.26.0 wheels, nn.Embedding and "
        "ParallelLMHead(disable_tp=True) from v0.27.0, with dspark.py's topk_indices_buffer")
    DSPARK_DRAFT_WORKSPACE_LANE = RuleInfo(
        _v("0.28.0"), "v0.28.0 wheel", "vllm/v1/worker/gpu_worker.py _num_workspace_lanes; v1/worker/gpu/model_runner.py",
        "model runner V2 gives the DSpark drafter a workspace lane of its own, which keeps the MoE kernel's "
        "workspace for the drafter's query tokens beside the target's",
        "confirmed: one workspace lane in the v0.26.0 and v0.27.0 wheels, two with DSpark from v0.28.0 (read "
        "from the code; no public log shows it)")
    FP4_INDEXER_CACHE_FLAG = RuleInfo(
        _v("0.22.0"), "v0.22.0 wheel", "vllm/config/attention.py AttentionConfig.use_fp4_indexer_cache",
        "--attention-config with use_fp4_indexer_cache true keeps DeepSeek-V4's sparse-attention indexer keys "
        "in MXFP4 (compute capability 10.x only); from v0.28 also spelled indexer_kv_dtype mxfp4, the only "
        "spelling v0.30 accepts",
        "confirmed: absent from the v0.20.0 and v0.21.0 wheels' AttentionConfig, a bool from v0.22.0; a deprecated "
        "alias of indexer_kv_dtype in v0.28.0 and v0.29.0; rejected by the v0.30.0 wheel's extra='forbid'")
    FP4_INDEXER_DTYPE_KEY = RuleInfo(
        _v("0.28.0"), "v0.28.0 wheel", "vllm/config/attention.py AttentionConfig.indexer_kv_dtype",
        "the MXFP4 indexer cache is spelled --attention-config with indexer_kv_dtype mxfp4 (the old "
        "use_fp4_indexer_cache key is a deprecated alias until v0.29 and refused from v0.30)",
        "confirmed: indexer_kv_dtype read by the DeepSeek indexer from the v0.28.0 wheel (dsa_indexer_uses_fp4)")
    DSV4_FP4_INDEXER_PAGE = RuleInfo(
        _v("0.27.0"), "v0.27.0 wheel", "vllm/models/deepseek_v4/attention.py (the indexer's cache spec)",
        "with the MXFP4 indexer cache DeepSeek-V4's indexer keys take 68 bytes a token (64 packed values and "
        "a scale per 32): 4,608-byte pages where fp8 keys take 8,640; before, vLLM allocated the fp8 size "
        "anyway ('allocate the same amount of memory as FP8')",
        "confirmed: 132 bytes a token with the flag in the v0.22.0-v0.26.0 wheels, 68 from v0.27.0")

    EXTENSIBLE_KV_CACHE = RuleInfo(
        _v("0.34.0"), "v0.34.0 wheel", "vllm/v1/worker/extensible_kv_cache.py measure_kv_cache_bytes; "
        "vllm/config/cache.py enable_extensible_kv_cache",
        "the extensible KV cache, on by default on CUDA and ROCm: the profile only reserves address space "
        "('Available KV cache memory', with no CUDA-graph estimate, at gpu_memory_utilization 1.0 when unset); "
        "after warm-up and graph capture the pool takes the memory then free less the largest transient peak "
        "and a margin of max(1 GiB, 3 GiB on ROCm, 0.75 x that peak), committed in 2 MiB granules per layer "
        "(off with --no-enable-extensible-kv-cache, --kv-cache-memory-bytes, --num-gpu-blocks-override, a NIXL "
        "connector without an IMEX channel, or where the driver has no virtual memory management: WSL2)",
        "confirmed: absent from the v0.33.0 wheel, in v0.34.0 (config/cache.py, config/vllm.py "
        "_resolve_extensible_kv_cache, v1/worker/gpu_worker.py, v1/core/kv_cache_planning.py "
        "finalize_extensible_kv_cache); the sizes are read from the code, no public v0.34 log yet")
    DEFAULT_BLOCK_SIZE_64 = RuleInfo(
        _v("0.34.0"), "v0.34.0 wheel", "vllm/config/cache.py CacheConfig.DEFAULT_BLOCK_SIZE",
        "the default block is 64 tokens (16 before): FlashAttention, FlashInfer, Triton and the MLA backends that "
        "take it (FLASH_ATTN_MLA, Triton MLA, FlashInfer MLA's 32, ROCm's sparse MLA) use 64, so a hybrid's "
        "attention block is a multiple of 64; ROCM_ATTN keeps 16 (get_preferred_block_size), which RDNA 3 and 4 "
        "(gfx1100, gfx1201) now run only for an fp8_e5m2 cache, TRITON_ATTN coming first there",
        "confirmed: DEFAULT_BLOCK_SIZE = 16 in the v0.33.0 wheel, 64 in v0.34.0 (rocm_attn.py prefers 16; "
        "platforms/rocm.py swaps TRITON_ATTN ahead on gfx1100/gfx1201)")
    MODEL_RUNNER_V1_REMOVED = RuleInfo(
        _v("0.34.0"), "v0.34.0 wheel", "vllm/v1/worker/gpu_model_runner.py (removed); vllm/envs.py",
        "model runner V2 is the only runner: VLLM_USE_V2_MODEL_RUNNER=0 stops the start, and suffix decoding "
        "runs on V2, which keeps every request's token ids on the GPU for it (as for n-gram)",
        "confirmed: v1/worker/gpu_model_runner.py is absent from the v0.34.0 wheel; the suffix speculator's "
        "config sets prefer_dense_token_history (v1/worker/gpu/spec_decode/suffix/config.py)")
    AUTO_FIT_REDUCED_LINE = RuleInfo(
        _v("0.34.0"), "v0.34.0 wheel", "vllm/v1/core/kv_cache_planning.py _auto_fit_max_model_len",
        "a length --max-model-len auto reduces is printed as '--max-model-len auto reduced max_model_len from A "
        "to B (X GiB GPU available for the KV cache).' (a warning below 8,192 tokens); with the extensible KV "
        "cache the length is fitted twice, before warm-up (tentatively) and after it",
        "confirmed: 'Auto-fit max_model_len: reduced from …' in the v0.33.0 wheel, the new wording in v0.34.0")
    DSPARK_SKIPS_MTP_BUFFER = RuleInfo(
        _v("0.34.0"), "v0.34.0 wheel", "vllm/models/deepseek_v4/common/spec_decode.py needs_mtp_hidden_buffer",
        "DeepSeek-V4 with the DSpark drafter no longer allocates the MTP hidden-state buffer (max_num_batched_tokens "
        "x hc_mult x hidden, bf16: 256 MiB for Flash at 8,192 tokens): DSpark drafts from the target's aux hidden "
        "states; MTP and EAGLE still need it",
        "confirmed: the v0.33.0 wheel allocates it for every eagle-style method, DSpark included "
        "(nvidia/model.py needs_mtp_hidden_states); v0.34.0 excludes use_dspark()")
    SPARSE_INDEXER_DECODE_PLACEHOLDER = RuleInfo(
        _v("0.34.0"), "v0.34.0 wheel", "vllm/model_executor/layers/sparse_attn_indexer.py sparse_attn_indexer",
        "the sparse-attention indexer's profile placeholder (DeepSeek-V3.2, GLM-5, DeepSeek-V4) also covers the "
        "decode logits: max(512 MiB, min(max_num_seqs, max_num_batched_tokens) x (1 + speculative tokens) x the "
        "indexer's max_model_len, rounded to 256 (768 on 10.x), x 4 B); on 10.x decode rows are chunked to 2 GiB "
        "(VLLM_SPARSE_INDEXER_MAX_DECODE_LOGITS_MB) for top-k 512, 1,024 or 2,048",
        "confirmed: a flat VLLM_SPARSE_INDEXER_MAX_LOGITS_MB (512 MiB) in the v0.33.0 wheel, the decode term in "
        "v0.34.0; read from the code, no public v0.34 log")
    SM100_SPLIT_CAPTURE_SIZES = RuleInfo(
        _v("0.34.0"), "v0.34.0 wheel", "vllm/config/vllm.py _set_cudagraph_sizes; config/compilation.py",
        "on compute capability 10.x (B200, B300, GB200, GB300) prefill and decode CUDA graphs get grids of their "
        "own unless capture sizes are given: piecewise graphs on a token grid up to min(8,192, "
        "max_num_batched_tokens) (54 sizes at 8,192), full decode graphs on a request grid up to max_num_seqs "
        "(64 sizes at 1,024); elsewhere the shared sizes stand",
        "confirmed: absent from the v0.33.0 wheel (one list up to 1,024 on 10.x), in v0.34.0 "
        "(prefill_cudagraph_capture_grid, decode_cudagraph_capture_grid); no public v0.34 log")
    KEYE_REMOVED = RuleInfo(
        _v("0.34.0"), "v0.34.0 wheel", "vllm/model_executor/models/registry.py _PREVIOUSLY_SUPPORTED_MODELS",
        "Keye-VL (KeyeForConditionalGeneration, KeyeVL1_5ForConditionalGeneration) is no longer supported: vLLM "
        "stops with 'was supported in vLLM until v0.33.0'",
        "confirmed: registered in the v0.33.0 wheel, listed as previously supported (0.33.0) in v0.34.0")
    RICURSIVE_MODEL = RuleInfo(
        _v("0.34.0"), "v0.34.0 wheel", "vllm/model_executor/models/ricursive.py",
        "Ricursive (RicursiveForCausalLM): sliding-window layers (1,024 tokens by default) with every fifth "
        "layer full attention when layer_types is not given, and a query-wide output gate",
        "confirmed: absent from the v0.33.0 wheel's registry, in v0.34.0 (transformers_utils/configs/ricursive.py)")
    MXFP4_TRITON_ON_SM110 = RuleInfo(
        _v("0.32.0"), "v0.32.0 wheel", "vllm/model_executor/layers/fused_moe/experts/gpt_oss_triton_kernels_moe.py",
        "the Triton MXFP4 expert kernels run up to compute capability 13.0 and come before Marlin in the order, "
        "so Jetson Thor (11.0) pads each GPU's expert intermediate size to 64 instead of Marlin's 128 "
        "(12.x keeps Marlin first)",
        "confirmed: (9, 0) <= capability < (11, 0) in the v0.31.0 wheel, < (13, 0) in v0.32.0 and v0.33.0, whose "
        "oracle/mxfp4.py moves Triton behind Marlin on the 12.x family only")
    MXFP4_MARLIN_FIRST_ON_SM110 = RuleInfo(
        _v("0.34.0"), "v0.34.0 wheel", "vllm/model_executor/layers/fused_moe/oracle/mxfp4.py",
        "Jetson Thor (11.x) orders Marlin before the Triton MXFP4 kernels again, as 12.x does (128-column "
        "expert padding)",
        "confirmed: the v0.34.0 wheel adds is_device_capability_family(110) beside 120 ('Jetson Thor (SM110): "
        "MARLIN stays the default as it has not been benchmarked')")
    MARLIN_INPUT_DTYPE_REMOVED = RuleInfo(
        _v("0.34.0"), "v0.34.0 wheel", "vllm/envs.py removed_environment_variables",
        "VLLM_MARLIN_INPUT_DTYPE (Marlin's 8-bit activations) is removed: setting it stops the start",
        "confirmed: read in the v0.33.0 wheel's envs.py, listed in removed_environment_variables in v0.34.0")
    SUFFIX_DEFAULT_TOKENS_8 = RuleInfo(
        _v("0.34.0"), "v0.34.0 wheel", "vllm/v1/worker/gpu/spec_decode/suffix/config.py",
        "suffix decoding without num_speculative_tokens drafts min(8, suffix_decoding_max_tree_depth) tokens a "
        "step, 8 by default (the tree depth, 24, before), which sets the decode query length its graphs follow",
        "confirmed: the v0.33.0 wheel sets num_speculative_tokens to suffix_decoding_max_tree_depth "
        "(config/speculative.py:1735), v0.34.0 to min(8, it)")
    FP_QUANT_REMOVED = RuleInfo(
        _v("0.34.0"), "v0.34.0 wheel", "vllm/model_executor/layers/quantization/__init__.py QuantizationMethods",
        "the fp_quant method (FP-Quant's MXFP4/NVFP4 checkpoints) is no longer shipped: vLLM stops with 'Unknown "
        "quantization method'",
        "confirmed: 'fp_quant' in the v0.33.0 wheel's QuantizationMethods, absent from v0.34.0 (which adds "
        "w4afp8, lut_b_moe and mxfp4_hadamard32)")

    @property
    def info(self) -> RuleInfo:
        return self.value


def applies(rule: Rule, version: Version) -> bool:
    """Whether ``rule`` is in force in ``version`` (every rule stays on once introduced)."""
    return version >= rule.value.since


_NGC_TAG = re.compile(r"\.?nv(\d{2})\.(\d{2})(?![0-9])")


def ngc_tag(text: str) -> tuple[int, int] | None:
    """The NVIDIA NGC container release (year, month) a version string names, or None for a
    stock build: NGC images print their vLLM as '0.11.1+9114fd76.nv25.12' (the banner, 'vLLM API
    server version …' and the engine line); kvcalc also takes '0.11.1+nv25.12'."""
    m = _NGC_TAG.search(text or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


def ngc_release(version: Version) -> tuple[int, int] | None:
    """``ngc_tag`` of a parsed version."""
    return ngc_tag(version.text)


NGC_TORCH_2_10 = (25, 12)
"""The first NGC vLLM container (release 25.12) known to pair its vLLM with PyTorch 2.10 or newer.
NVIDIA's release notes list the PyTorch of each image: 'NVIDIA PyTorch 25.09' (2.9) for 25.10 with
vLLM 0.10.2, 2.10.0a0 for 26.01, 2.11.0a0 for 26.03 (vLLM 0.17.1), 2.12.0a0 for 26.05 (vLLM 0.20.1),
2.15.0a0 for 26.10 (vLLM 0.31.0) (docs.nvidia.com/deeplearning/frameworks/vllm-release-notes,
rel-25-10 to rel-26-10); a 25.12 first start of Qwen3-8B (vLLM 0.11.1+9114fd76.nv25.12, RTX 5060
Ti, JVarnica/vllm-server) keeps exactly the compile peak that stock wheels show from v0.19 (inferred:
its log prints no torch version). So an NGC image can carry behaviour of torch that the stock
wheel of the same vLLM release does not."""


def first_start_compile_untied(version: Version) -> bool:
    """Whether a first start's compile peak counts for a model with untied embeddings
    (Rule.COLD_COMPILE_UNTIED): from v0.19 on stock wheels, whose torch is 2.10 or newer, and in
    NGC images from 25.12, which pair older vLLM releases with torch 2.10 (``NGC_TORCH_2_10``)."""
    ngc = ngc_release(version)
    return applies(Rule.COLD_COMPILE_UNTIED, version) or (ngc is not None and ngc >= NGC_TORCH_2_10)


V1_SPECULATIVE_METHODS: tuple[tuple[Version, frozenset[str]], ...] = (
    (_v("0.34.0"), frozenset()),
    (_v("0.33.0"), frozenset({"suffix"})),
    (_v("0.32.0"), frozenset({"suffix", "medusa", "mlp_speculator"})),
    (_v("0.31.0"), frozenset({"ngram", "ngram_gpu", "suffix", "medusa", "mlp_speculator"})),
    (_v("0.24.0"), frozenset({"ngram", "ngram_gpu", "draft_model", "suffix", "medusa", "mlp_speculator"})),
    (_v("0.22.0"), frozenset({"ngram", "ngram_gpu", "draft_model", "dflash", "suffix", "medusa", "mlp_speculator"})),
)
"""Speculative methods that send a model to the V1 runner where V2 is the default
(Rule.MRV2_SPEC_FALLBACK; _get_v2_model_runner_unsupported_features in each release's wheel: V2 takes
eagle, eagle3 and MTP in v0.22 and v0.23, DFlash too from v0.24, config/vllm.py:2031); none from v0.34,
which has no V1 runner (Rule.MODEL_RUNNER_V1_REMOVED)."""


ROCM_V1_ARCHITECTURES: tuple[tuple[Version, frozenset[str]], ...] = (
    (_v("0.32.0"), frozenset()),
    (_v("0.30.0"), frozenset({"DeepseekV32ForCausalLM", "DeepseekV4ForCausalLM", "GlmMoeDsaForCausalLM"})),
    (_v("0.29.0"), frozenset({"DeepseekV32ForCausalLM", "DeepseekV4ForCausalLM"})),
)
"""Architectures the release keeps on the V1 runner on ROCm while V2 is the default for every model
(``ROCM_DEFAULT_MRV1_ARCHITECTURES``, vllm/config/vllm.py: v0.29 line 71, v0.30 line 73, gone in
v0.32)."""


def in_force(table: tuple[tuple[Version, frozenset[str]], ...], version: Version) -> frozenset[str]:
    """The entry of a release table (newest first) that ``version`` runs: the newest whose first
    release is not after it; empty before the oldest."""
    return next((names for since, names in table if version >= since), frozenset())


def rocm_keeps_v1(architecture: str, version: Version) -> bool:
    return architecture in in_force(ROCM_V1_ARCHITECTURES, version)


_BREAKABLE_0_29 = frozenset({
    "DeepseekV32ForCausalLM", "DeepseekV4ForCausalLM", "Dots3NoteForCausalLM", "GlmMoeDsaForCausalLM",
    "HYV4ForCausalLM", "InklingForCausalLM", "InklingForConditionalGeneration", "KimiK3ForConditionalGeneration",
    "KimiLinearForCausalLM", "MiniMaxM3SparseForCausalLM", "MiniMaxM3SparseForConditionalGeneration"})
_BREAKABLE_0_30 = _BREAKABLE_0_29 | {"DeepseekV41ForCausalLM", "DeepseekV4ForConditionalGeneration",
                                     "Glm5NextForCausalLM", "Glm5NextForConditionalGeneration",
                                     "Qwen4ExpForCausalLM", "Qwen4ExpForConditionalGeneration"}
_BREAKABLE_0_33 = _BREAKABLE_0_30 | {"AliceAIForCausalLM", "BeamForCausalLM", "MuseSpark1xForCausalLM",
                                    "MuseSparkForConditionalGeneration", "Step5ForCausalLM",
                                    "Step5ForConditionalGeneration"}
QWEN3_5_ARCHITECTURES = frozenset({"Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration",
                                   "Qwen3_5MoeForCausalLM", "Qwen3_5MoeForConditionalGeneration"})
"""Qwen3.5 and Qwen3.6 (``_QWEN3_5_ARCHITECTURES``, v0.34 config/vllm.py): breakable CUDA graphs on NVIDIA
from v0.34 (vllm/models/qwen3_5; the cache and the weights are the same)."""
BREAKABLE_CUDAGRAPH_ARCHITECTURES: tuple[tuple[Version, frozenset[str]], ...] = (
    (_v("0.34.0"), (_BREAKABLE_0_33 - {"MuseSpark1xForCausalLM"}) | QWEN3_5_ARCHITECTURES |
     {"KimiK31ForConditionalGeneration", "MistralLarge4ForCausalLM", "MuseSparkForCausalLM"}),
    (_v("0.33.0"), _BREAKABLE_0_33),
    (_v("0.30.0"), _BREAKABLE_0_30),
    (_v("0.29.0"), _BREAKABLE_0_29),
)
"""(first release, architectures) that default to breakable CUDA graphs on CUDA
(Rule.BREAKABLE_CUDAGRAPHS; ``DEFAULT_BREAKABLE_CUDAGRAPH_ARCHITECTURES`` in each release's
vllm/config/vllm.py)."""
ROCM_BREAKABLE_CUDAGRAPH_ARCHITECTURES: tuple[tuple[Version, frozenset[str]], ...] = (
    (_v("0.34.0"), frozenset({"DeepseekV41ForCausalLM", "HYV4ForCausalLM"})),
    (_v("0.30.0"), frozenset({"DeepseekV41ForCausalLM"})),
    (_v("0.29.0"), _BREAKABLE_0_29 - {"DeepseekV32ForCausalLM"}),
)
"""The same on ROCm (``default_breakable_cudagraph_architectures``): v0.29 leaves DeepSeek-V3.2 out,
from v0.30 only DeepSeek-V4.1, which cannot compile, qualifies, and from v0.34 Hunyuan V4 too; Qwen3.5
keeps torch.compile there."""


def breakable_cudagraphs(architecture: str, version: Version, platform: str = "cuda") -> bool:
    """Whether ``version`` runs this architecture without torch.compile, on breakable CUDA graphs
    (unless VLLM_USE_BREAKABLE_CUDAGRAPH=0, which kvcalc does not model)."""
    table = ROCM_BREAKABLE_CUDAGRAPH_ARCHITECTURES if platform == "rocm" else BREAKABLE_CUDAGRAPH_ARCHITECTURES
    return architecture in in_force(table, version)


_V2_MOE_0_25 = frozenset({"DeepseekV2ForCausalLM", "Qwen2MoeForCausalLM", "GraniteMoeForCausalLM"})
_V2_MOE_0_26 = _V2_MOE_0_25 | {"InklingForCausalLM", "InklingForConditionalGeneration",
                               "LongcatFlashNgramForCausalLM"}
DEFAULT_V2_ARCHITECTURES: tuple[tuple[Version, frozenset[str]], ...] = (
    (_v("0.28.0"), _V2_MOE_0_26 | {"KimiK3ForConditionalGeneration", "DeepseekV4ForCausalLM"}),
    (_v("0.27.0"), _V2_MOE_0_26 | {"KimiK3ForConditionalGeneration"}),
    (_v("0.26.0"), _V2_MOE_0_26),
    (_v("0.25.0"), _V2_MOE_0_25),
    (_v("0.24.0"), _V2_MOE_0_25 | {"Qwen3ForCausalLM", "LlamaForCausalLM", "MistralForCausalLM"}),
    (_v("0.23.0"), frozenset({"Qwen3ForCausalLM", "LlamaForCausalLM", "MistralForCausalLM"})),
    (_v("0.22.0"), frozenset({"Qwen3ForCausalLM"})),
)
"""``DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES`` (vllm/config/vllm.py) in each release's wheel, newest
first: before v0.25 the only models V2 takes by default, from v0.25 the MoE models that join every
model that is not MoE. From v0.29 every model runs on V2 and the list is gone."""


def default_v2_architectures(version: Version) -> frozenset[str]:
    """The architectures listed in ``version`` (empty before v0.22)."""
    return in_force(DEFAULT_V2_ARCHITECTURES, version)


def runs_on_v1_for(method: str | None, version: Version) -> bool:
    """Whether the speculative ``method`` keeps the model on the V1 runner in ``version``."""
    return method is not None and method.lower() in in_force(V1_SPECULATIVE_METHODS, version)


def default_gpu_memory_utilization(version: Version, extensible_kv_cache: bool = False) -> float:
    """``CacheConfig.gpu_memory_utilization`` default: 0.92 from v0.20.0 (#38284), else 0.9; 1.0 where
    the extensible KV cache sizes the pool from measured memory (``resolved_gpu_memory_utilization``,
    Rule.EXTENSIBLE_KV_CACHE)."""
    if extensible_kv_cache:
        return 1.0
    return 0.92 if applies(Rule.GPU_UTIL_DEFAULT_092, version) else 0.9


def flashinfer_sampler_default(version: Version) -> bool | None:
    """Whether the V1 runner samples with FlashInfer when ``VLLM_USE_FLASHINFER_SAMPLER`` is unset,
    on CUDA (vllm/v1/sample/ops/topk_topp_sampler.py): yes from v0.21 (#40376); no from v0.11.1
    (#26859, an opt-in) to v0.20; before v0.11.1, yes whenever the flashinfer package can be
    imported (``is not False``): the vllm/vllm-openai images ship it, ``pip install vllm`` did not
    until #26443 (v0.11.1). None there: it depends on the install."""
    if applies(Rule.FLASHINFER_SAMPLER_DEFAULT, version):
        return True
    if applies(Rule.FLASHINFER_SAMPLER_OPT_IN, version):
        return False
    return None


@dataclass(frozen=True)
class BatchDefaults:
    max_num_batched_tokens: int
    max_num_seqs: int
    memory_class: str  # which row of the table applied, for the "why" text


def default_batch_limits(
    version: Version, device_total_bytes: int, device_name: str, entrypoint: str,
    unified_memory: bool = False, compute_capability: str = "",
) -> BatchDefaults:
    """``EngineArgs.get_batch_defaults`` (vllm/engine/arg_utils.py).

    Rows by ``torch.cuda`` total memory: ≥ 70 GiB and not an A100 -> LLM 16384 /
    serve 8192 tokens, 1024 sequences (#12369); otherwise LLM 8192 / serve 2048,
    256 sequences. From v0.28 (#51726) devices of ≥ 160 GiB use 16384 for serve too.
    Unified-memory (integrated) devices (GB10 / DGX Spark, Jetson) get the small row: vLLM reads
    the total from NVML (platforms/cuda.py ``get_device_total_memory``), which reports none there
    (nvidia-smi shows memory as N/A), and public GB10 logs print the small row's serve defaults.
    From v0.33 (Rule.UNIFIED_MEMORY_CUDA_TOTAL) vLLM falls back to CUDA's total there and keeps
    only compute capability 12.1 (GB10) on the small row, so a Jetson AGX Thor (11.0, 122.8 GiB)
    takes the ≥ 70 GiB row.
    """
    gib = device_total_bytes / (1 << 30)
    llm = entrypoint == "llm"
    if unified_memory and compute_capability != "12.1" and applies(Rule.UNIFIED_MEMORY_CUDA_TOTAL, version):
        unified_memory = False
    if not unified_memory and gib >= 160 and applies(Rule.SERVER_MNBT_16K_ON_160GIB, version):
        return BatchDefaults(16384, 1024, "≥ 160 GiB device")
    if not unified_memory and gib >= 70 and "a100" not in device_name.lower():
        return BatchDefaults(16384 if llm else 8192, 1024, "≥ 70 GiB device (not A100)")
    return BatchDefaults(8192 if llm else 2048, 256, "< 70 GiB device or A100")


_RULES_ZH: dict[str, tuple[str, str]] = {
    "REQUESTED_MEMORY_CEIL": (
        "申请的显存 = ceil(总显存 × gpu_memory_utilization)（此前为浮点数）", "已确认：v0.14.0 wheel（worker/utils.py request_memory 用 math.ceil）；v0.13.0 仍为浮点数"),
    "FORMAT_GIB_LOGS": (
        "日志中的 GiB 数值按 str(round(x, 2)) 打印（'50.6'）；此前为 '%.2f'（'50.60'）", "已确认：v0.13.0 wheel 打印 '%.2f'，v0.14.0 用 format_gib"),
    "ASYNC_SCHEDULING_DEFAULT": (
        "默认开启异步调度（同时有两个批次在途）",
        "已确认：v0.13.0 wheel 中 async_scheduling 默认为 False（config/scheduler.py:133），v0.14.0 中为 None，"
        "由 VllmConfig 打开（config/vllm.py:588-628）；v0.14.0 发行说明"),
    "MAMBA_ALL_MODE": (
        "开启前缀缓存时，类支持 Mamba 前缀缓存的模型（Nemotron-H、Granite 4.0-H、Mamba、Jamba、Zamba2、Falcon-H1）"
        "按块缓存状态：块大小取 SSD kernel chunk 的整数倍，每个请求按 max_model_len 的每个块保留一个状态块（'all' 模式），"
        "直到 #50991（v0.28）把所有混合模型改为 'align'",
        "已确认：v0.11.0 wheel 中没有（所有混合模型都关闭前缀缓存）；v0.11.1–v0.14.1 中表现为 mamba_block_size = "
        "按 chunk 对齐的块、共 cdiv(max_model_len, block) 个状态页，v0.15.0 起命名为 'all'，v0.28.0 中移除"),
    "MAMBA_ALIGN_MODE": (
        "混合模型支持前缀缓存：开启时 Mamba 缓存模式 'align' 为每个请求保留 2 个状态块（不开启为 1 个；"
        "直到 #50991 才默认开启）",
        "已确认：v0.14.1 wheel 中没有，v0.15.0 中有（MambaModelConfig、MambaSpec）"),
    "HYBRID_PREFIX_CACHING_DEFAULT": (
        "混合模型（Mamba、GDN、线性注意力层）默认开启前缀缓存，每个状态组每个请求占 2 块（'align'）；"
        "此前对它们需要手动开启（#23716）",
        "已确认：v0.27.1 wheel 中混合模型的前缀缓存仍需手动开启，v0.28.0 默认开启；一条未加该参数的 v0.19.0 "
        "Qwen3.5 日志显示每组只有 1 个状态块"),
    "CPU_OFFLOAD_WITHOUT_PINNED_MEMORY": (
        "没有锁页主机内存时（WSL2），--cpu-offload-gb 退而在每次前向时把被卸载的参数拷入；此前 V1 引擎会拒绝启动"
        "（'V1 CPU offloading requires uva (pin memory) support'）",
        "已确认：v0.10.0 至 v0.16.0 wheel 的 model_executor/models/utils.py maybe_offload_to_cpu 中有该断言，"
        "v0.17.0 起改为带回退的 offloader 包"),
    "BLOCKS_OVERRIDE_SETS_MEMORY": (
        "--num-gpu-blocks-override N 在装载检查和自动 max_model_len 之前，把每个 worker 的 KV 显存换成 N x 一个块的字节数；"
        "此前缓存池虽有 N 个块，但一个请求仍按 profile 得到的显存检查",
        "已确认：v0.20.0 wheel 只覆盖块数（may_override_num_blocks），v0.21.0 至 v0.33.0 wheel 调整 available_memory"
        "（'_pool_bytes_per_block'）"),
    "MAX_MODEL_LEN_AUTO": (
        "--max-model-len auto（或 -1）：引擎按模型自身的长度做 profile，然后在 KV 显存内取能通过装载检查的"
        "最长长度（二分查找，取各 worker 的最小值）来服务，并打印 'Auto-fit max_model_len: ...'",
        "已确认：v0.13.0 wheel 的参数解析拒绝 'auto'（只有 human_readable_int），-1 也没有特殊含义；v0.14.0 至 v0.33.0 "
        "有 human_readable_int_or_auto 和 _auto_fit_max_model_len"),
    "FIT_CHECK_PER_WORKER": (
        "装载检查（以及自动 max_model_len）按每个流水线阶段自己的层对照它的显存计算；v0.14-v0.16 用整个模型的"
        "分组对照显存最少的 worker，因此 PP 启动需要把所有阶段的层都放进一块 GPU",
        "已确认：v0.14.0-v0.16.0 wheel 用 global_kv_cache_groups 对照 min(available_memory) 检查；"
        "v0.17.0 加入 _project_kv_cache_groups_to_worker（2026-02-03 合并，'Regression introduced by #29431'）"),
    "AUTO_FIT_LINE_KV_MEMORY": (
        "自动长度那一行写作 'to fit in available KV cache memory (X GiB GPU)'；此前为 'to fit in "
        "available GPU memory (X GiB available for KV cache)'",
        "已确认：v0.31.0 wheel 为旧写法，v0.32.0 和 v0.33.0 为新写法"),
    "FIT_CHECK_GROUP0": (
        "max_model_len 装载检查按第 0 组计算：group_size × 页大小 × 块数（此前为所有层逐层求和）",
        "已确认：v0.13.0 wheel 逐层求和，v0.14.0 检查第 0 组"),
    "HYBRID_GROUP_THRESHOLD_1_25": (
        "当最大层数 < 1.25 × 最小层数时，各层类型补齐到最大层数；此前每组总是取最小层数",
        "已确认：v0.10.0–v0.11.2 wheel 取最小值，v0.12.0 采用 1.25 规则"),
    "HYBRID_GROUP_THRESHOLD_1_5": (
        "当最大层数 < 1.5 × 最小层数时，各层类型补齐到最大层数（此前阈值为 1.25）",
        "已确认：v0.17.1 wheel 中为 1.25，v0.18.0 中为 1.5"),
    "FIT_CHECK_GROUP_AWARE": (
        "装载检查需要 group_size × 页大小 × 各组每请求块数之和",
        "已确认：v0.18.0 与 v0.18.1 wheel 仍只计第 0 组（2026-03-17 合并），v0.19.0 对各组求和"),
    "PER_TOKEN_HEAD_KV_DTYPES": (
        "新增 KV cache 数据类型 int8_per_token_head / fp8_per_token_head",
        "已确认：v0.19.0 与 v0.19.1 wheel 中没有（2026-04-02 合并），v0.20.0 中有"),
    "INT4_PER_TOKEN_HEAD_KV_DTYPE": (
        "新增 KV cache 数据类型 int4_per_token_head", "已确认：v0.24.0 wheel 中没有，v0.25.0 中有"),
    "NVFP4_KV_DTYPE": ("新增 KV cache 数据类型 nvfp4", "已确认：v0.19.1 wheel 中没有，v0.20.0 中有"),
    "GPU_UTIL_DEFAULT_092": (
        "--gpu-memory-utilization 默认值改为 0.92（此前为 0.9），为同时开始扣除的 CUDA graph 估算值留出空间",
        "已确认：v0.19.0 wheel 中 CacheConfig 的默认值是 0.9，v0.20.0 中是 0.92（该版本日志文字 "
        "'default as of v0.21.0' 说的是下一个版本）；两次只差构建版本（0.19.1 与 0.20.1 dev）的 "
        "GLM-5.1 TP 8 启动相差 0.02 x 139.80 GiB"),
    "ALLREDUCE_RMS_FUSION_DEFAULT": (
        "在默认的 -O2 下，计算能力 9.0 或 10.x 上 2 卡及以上的 TP 组通过 FlashInfer 把 all-reduce 与 RMSNorm 融合，"
        "其 IPC 工作区常驻每张 GPU",
        "已确认：v0.16.0 wheel 中各优化级别都关闭，v0.17.0 起 -O2 开启；v0.17.0–v0.33.0 的 wheel 中大小算法相同"),
    "FLASHINFER_ALLREDUCE_MNNVL": (
        "单节点上，FlashInfer 的 all-reduce 在有 NVSwitch multicast 的地方使用 MNNVL 后端（三个 Lamport 缓冲区，约 6 × "
        "token 数 × hidden × dtype 字节），其他地方使用 trtllm 的 IPC 布局（4 × TP × token 数 × hidden × dtype 字节）",
        "已确认：v0.17.0–v0.24.0 wheel 在单节点上选 trtllm（#35772），v0.25.0–v0.33.0 选 mnnvl 并以 trtllm 兜底；"
        "大小取自 flashinfer 0.7.2 的 trtllm_mnnvl_ar.py"),
    "FLASHINFER_ALLREDUCE_STANDALONE": (
        "FlashInfer 的独立 all-reduce 默认开启，所以不用 torch.compile 时它的工作区也在 profile 中创建（按表中最大输入，"
        "不受 max_num_batched_tokens 限制）；MNNVL 在 Blackwell 上采用调优后的大小（B300 TP 4：80 MiB；TP 8：64 MiB，"
        "v0.33 起 128 MiB；B200 TP 8：v0.33 起 128 MiB），B300 的 TP 8 表项从 2 MiB 增至 4 MiB",
        "已确认：VLLM_ALLREDUCE_USE_FLASHINFER 在 v0.28.0 wheel 中默认为 0，在 v0.29.0–v0.33.0 中默认为 1；"
        "各 wheel 的 all_reduce_utils.py 中的 FI_MNNVL_ALLREDUCE_MAX_SIZE_MB"),
    "QUICK_REDUCE_INT3": (
        "ROCm quick all-reduce 可用 INT3 编码（仅 TP 2）",
        "已确认：v0.24.0 wheel 的可选值中没有它，v0.25.0 中有（INT3 仅限 TP 2）"),
    "CUDA_GRAPH_ESTIMATE_OPT_IN": (
        "设置 VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1 后，V1 runner 会在确定 KV cache 大小之前对 CUDA graph 做 profile "
        "并扣除估算值（成为默认行为之前需手动开启）",
        "已确认：v0.17.1 wheel 中没有，v0.18.0 中有（直到 v0.19.1 默认 0，v0.20.0 起默认 1）"),
    "V1_SAMPLER_WARMS_NATIVE": (
        "V1 runner 的 dummy 采样运行会带上逐请求的随机数生成器再采样一次，FlashInfer 不支持这种情况，所以 profile "
        "也会走原生路径（8 行起为 vLLM 的 Triton top-k/top-p）：开启 FlashInfer 采样器时，预热峰值取原生路径的开销",
        "已确认：v0.20.0 wheel 中没有，v0.21.0 至 v0.33.0 中都有（#40376 默认开启 FlashInfer 采样器时，#41375 加入了这一步）"),
    "ROCM_CUDA_GRAPH_ESTIMATE": (
        "CUDA graph 显存估算在 ROCm 上也运行（#44825 改用 torch.accelerator.get_memory_info）；此前只在 CUDA 上运行，"
        "ROCm 不扣除这一项",
        "已确认：v0.18.0-v0.25.1 wheel 跳过 ROCm（'Skip on ROCm/HIP/XPU'），v0.26.0 包含它（is_cuda_alike）；"
        "一条 v0.23 MI300X 日志没有打印 'Estimated CUDA graph memory'"),
    "SLIDING_WINDOW_OFF_WITH_ROPE_SCALING": (
        "对于 config 中设置了任意类型 rope_scaling 的模型，--disable-sliding-window 都会被接受；此前除 su、longrope、"
        "llama3 之外的类型（Gemma 3 除外）会引发 NotImplementedError",
        "已确认：v0.10.0、v0.10.2、v0.11.0 与 v0.11.1 wheel 中有该检查（config.py，后为 config/model.py），"
        "v0.12.0、v0.13.0、v0.14.0、v0.20.0、v0.26.0 与 v0.33.0 中没有"),
    "EP_EXPERTS_BALANCED": (
        "启用专家并行时，前 E mod EP 个 rank 各多持有一个专家（第一张 GPU，即 vLLM 打印其 'Model loading took' 的那张，"
        "持有 ceil(E / EP) 个）；此前每个 rank 持有 floor(E / EP) 个，余下的都在最后一个 rank 上",
        "已确认：v0.10.0 wheel 中为 floor 且余数归最后一个 rank，v0.10.1、v0.11.0、v0.14.0、v0.20.0 与 v0.33.0 中为均衡划分"
        "（fused_moe/expert_map_manager.py）"),
    "LOAD_MAX_SPLIT_20MIB": (
        "在 CUDA 上模型在 PyTorch 的 max_split_size_mb 20 下加载，所以 20 MiB 及以上的权重张量保留分配器给它的整个按 2 MiB "
        "取整的段（'Model loading took' 每个这样的张量最多多 2 MiB：Qwen2.5-7B 为 0.097 GiB，此前为 0.056）",
        "已确认：v0.20.0 wheel 中没有，v0.21.0 至 v0.33.0 中都有；同一模型在此前后的公开日志一致"),
    "CUDA_GRAPH_ESTIMATE_DEDUCTED": (
        "CUDA graph 显存估算值从 KV 预算中扣除（V1 model runner）",
        "已确认：v0.19.0 wheel 中 VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS 默认为 0（envs.py:1654），v0.20.0 中为 1"
        "（envs.py:1724；gpu_worker.py:399-424 扣除它）；两条带 0.20.0 横幅的日志打印 "
        "'CUDA graph memory profiling is enabled (default since v0.21.0)' 并扣除了估算值"),
    "BLACKWELL_CAPTURE_1024": (
        "数据中心 Blackwell（compute capability 10.x）上 CUDA graph 默认捕获到 1,024 个 token"
        "（此前及其他 GPU 为 512），仍受 max_num_seqs × decode 查询长度 × 2 限制",
        "已确认：v0.27.0 与 v0.27.1 wheel 仍上限 512（2026-07-22 合并），v0.28.0 在任何 10.x 上取 1,024；"
        "一条 v0.26.0 B300 日志在 1,024 个序列下捕获到 512"),
    "FLASHINFER_SAMPLER_OPT_IN": (
        "只有设置 VLLM_USE_FLASHINFER_SAMPLER=1 才用 FlashInfer 的 top-k/top-p 采样器；此前只要装了 flashinfer"
        "（Docker 镜像自带；pip 安装从 v0.11.1 起才带，#26443），V1 runner 就会用它，所以 profile 峰值取决于安装方式",
        "已确认：v0.11.0 wheel 判断 'is not False'（topk_topp_sampler.py:46），v0.11.1 要求设置该变量"
        "（topk_topp_sampler.py:34）；#26859 于 2025-10-15 合并"),
    "REJECTION_WARMUP_SAMPLES_BONUS": (
        "启用推测解码时，V1 runner 的虚拟采样运行把 2 × max_num_seqs 行随机 logits 交给拒绝采样器，"
        "它自己对 bonus 行采样（其 logits 以 float32 保留为 'raw_logits'），把 target 行转成 float32，再算概率和一次指数抽样："
        "峰值高于普通采样器",
        "已确认：v0.11.0 wheel 传入 max_num_seqs 行 target logits 与 bonus token id（compute_probs）；从 v0.11.1 wheel "
        "到 v0.33.0，forward 内以 max_num_logprobs=-1 对 bonus_logits = logits[…] 采样；两条公开的 A10G Qwen3.5-4B "
        "n-gram 启动日志（v0.18.0）比不开推测解码的同一命令多占 0.44 GiB"),
    "REJECTION_CLONES_TARGET": (
        "拒绝采样器在应用 logits 处理器之前先克隆 float32 的 target logits（预热中多一份 max_num_seqs 行的 float32 副本）",
        "已确认：v0.13.0 wheel 中没有 target_logits.clone()，v0.14.0 到 v0.33.0 中有"),
    "REJECTION_INVERTS_Q": (
        "恢复 token 的抽样保留其指数抽样的倒数（inv_q，多一份 max_num_seqs 行的 float32 副本）",
        "已确认：v0.16.0 wheel 中没有 inv_q = q.reciprocal()，v0.17.0 到 v0.33.0 中有"),
    "TRITON_TOP_K_TOP_P": (
        "8 行及以上的 top-k/top-p 改用 Triton 内核（topk_topp_triton.py），不再对 logits 排序，"
        "预热时采样器的峰值不到排序方式的一半",
        "已确认：v0.16.0 wheel 中没有，v0.17.0 中有（2026-02-17 合并）；"
        "四条 v0.17.1–v0.19.1 日志显示峰值变小，一条没有；v0.14.1 与 v0.15.1 的日志显示的是排序方式的峰值"),
    "FLASHINFER_SAMPLER_DEFAULT": (
        "V1 runner 在 CUDA 上（计算能力 7.5 至 12.1）默认用 FlashInfer 的 top-k/top-p 内核采样，不再保留 logits 的排序副本"
        "（profile 峰值小得多）",
        "已确认：v0.20.2 wheel 中未设置即关闭，v0.21.0 中在 FlashInfer 支持该 GPU 时开启；v0.21–v0.28 的公开日志显示峰值变小"),
    "TOKENS_FROM_CONCURRENCY": (
        "'GPU KV cache size' = int(max_concurrency × max_model_len)；此前为 num_blocks // num_groups × block_size",
        "已确认：v0.20.0 wheel 仍按块数计算，v0.20.1 wheel（PyPI）已计算 int(max_concurrency * max_model_len)；"
        "issue #43308 对比了 v0.20.0 与 v0.21.0，v0.20.2 日志打印 286,007 tokens = int(1.1172 × 256,000)"),
    "NEW_FIT_ERROR_TEXT": (
        "'To serve at least one request' 报错改用 format_gib 打印 GiB，并提到 CPU 后端",
        "已确认：v0.21.0 wheel 中没有，v0.22.0 中措辞相同"),
    "FLASHINFER_WITHOUT_TURING": (
        "FlashInfer（以及它的 top-k/top-p 采样器）需要计算能力 8.0 及以上：Turing（T4、RTX 20 系列、Quadro RTX）改用 vLLM 的 Triton 内核采样",
        "已确认：v0.17.0–v0.23.0 wheel 中为 7.5 至 12.1，v0.24.0 至 v0.33.0 为 8.0 至 12.1（flashinfer issue #3620，“暂时”）"),
    "MRV2_ENV_OPT_IN": (
        "VLLM_USE_V2_MODEL_RUNNER=1 让模型在 model runner V2 上运行（在 V2 为默认的版本中 =0 保留 V1）；"
        "设置该变量时，它优先于该版本自己的选择",
        "已确认：v0.11.2 wheel 中没有；v0.12.0 到 v0.33.0 的 vllm/envs.py 中都有（v0.21 之前为 bool(int(...))，"
        "v0.22 起未设置即按版本自己的选择）"),
    "MRV2_QWEN3_DENSE": (
        "既非 MoE 也未量化的 Qwen3ForCausalLM checkpoint 改用 model runner V2，不扣除 CUDA graph 估算值",
        "已确认：发行说明；v0.22.0 wheel 的 DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES 只列出 Qwen3ForCausalLM，"
        "带 quantization_config 的 checkpoint 仍用 V1"),
    "MRV2_LLAMA_MISTRAL_DENSE": (
        "LlamaForCausalLM 与 MistralForCausalLM 按同样条件（非 MoE、未量化）加入", "已确认：发行说明与 v0.23.0 wheel"),
    "MRV2_LISTED_MOE": (
        "列表中的架构无论是否量化、是否 MoE 都用 V2，列表新增 DeepseekV2ForCausalLM、Qwen2MoeForCausalLM 与 "
        "GraniteMoeForCausalLM",
        "已确认：v0.24.0 wheel 去掉了 v0.22–v0.23 的 MoE 与量化检查"),
    "MRV2_ALL_DENSE": (
        "所有既非 MoE 也非混合（Mamba / 线性注意力）的生成模型改用 model runner V2（包括滑动窗口与 MLA 模型），"
        "各版本列出的 MoE 架构（DEFAULT_V2_ARCHITECTURES）也一样",
        "已确认：发行说明；v0.25.0–v0.28.0 wheel 只检查 is_hybrid、is_attention_free、is_moe 与该列表，"
        "列表在 v0.26（Inkling、LongcatFlashNgram）、v0.27（KimiK3）与 v0.28（DeepseekV4）中增加"),
    "SW_IN_FLIGHT_TWO_BATCHES": (
        "滑动窗口 / 分块注意力层保留 window − 1 + 在途 token 数，在途 = 在途批次数 × max_num_batched_tokens"
        "（此前为 1 ×）",
        "已确认：v0.25.0 wheel 保留 window − 1 + max_num_batched_tokens（kv_cache_interface.py:561），"
        "v0.26.0 改用 max_in_flight_tokens（config/vllm.py:525-533）；issue #49878（Gemma 4，v0.25.1 → v0.26）"),
    "MERGED_CAPACITY_LOG_LINE": (
        "'GPU KV cache size' 与 'Maximum concurrency' 打印在同一行（此前为两行）",
        "已确认：v0.27.1 wheel 中为两行，v0.28.0 中为一行；v0.27.x 日志为两行"),
    "SERVER_MNBT_16K_ON_160GIB": (
        "显存 ≥ 160 GiB 的设备上，`vllm serve` 也使用 max_num_batched_tokens 16384",
        "已确认：v0.27.1 wheel 中没有，v0.28.0 中有（直到 v0.33.0 未变）；v0.29.1 的 MI300X 日志可见"),
    "FIT_CHECK_RESERVES_NULL_BLOCK": (
        "装载检查（以及自动 max_model_len）扣掉一个块（null block）",
        "已确认：v0.28.0 wheel 中没有（2026-08-20 合并），v0.29.0 中有"),
    "QWEN25_VL_FUSED_NORM": (
        "Qwen2.5-VL 的视觉块用融合残差加法做归一化，MLP 期间除归一化的两个结果外还保留块输入和注意力输出"
        "（归一化以 PyTorch 代码运行时，即编译后的模型）：预热时每个 patch 多 2 个隐藏维度的值",
        "已确认：v0.10.0 wheel 中没有，v0.10.1 中有"),
    "QWEN2_VL_VIDEO_14_FRAMES": (
        "Qwen2-VL / Qwen2.5-VL 最大的虚拟视频最多 14 帧（此前 16 帧），每帧都是最大尺寸",
        "已确认：v0.10.1 wheel 中 _MAX_FRAMES_PER_VIDEO 为 16（qwen2_vl.py:84），v0.11.0（qwen2_vl.py:82）至 v0.33.0 "
        "中为 14；一条 v0.23 日志在 max_model_len 128,000 下 profile 了一段 114,688 token（7 × 16,384）的视频"),
    "QWEN3_VL_FORMATTED_VIDEO": (
        "Qwen3-VL 的编码器预算按每个嵌入 12.5 个 token（时间戳）计算最大视频：153,600 个 token，多于图像，"
        "所以预热编码一段 12,288 个嵌入的视频",
        "已确认：qwen3_vl.py 首次出现在 v0.11.0 wheel，带 × 12.5（qwen3_vl.py:674），一直保留到 v0.12.0；"
        "一条 v0.11.0 日志打印 'budget of 153600 tokens, and profiled with 1 video items'"),
    "QWEN_VL_VISION_QK_CONCAT": (
        "Qwen2-VL 与 Qwen2.5-VL 的视觉注意力把 q 和 k 拼接后一次性以 float32 旋转（每个 patch 2 + 18/TP 个隐藏维度的值）；"
        "此前 q 与 k 逐个旋转（QKV 3、q/k/v 副本 3、一份 float32 副本及其输出 2 + 2、转回 1：2 + 11/TP）",
        "已确认：v0.10.0–v0.10.2 wheel 的 qwen2_vl.py 与 qwen2_5_vl.py 先后调用 apply_rotary_pos_emb_vision(q, …) 和 (k, …)，"
        "v0.11.0 起为 qk_concat = torch.cat([q, k])；一条 v0.10.2 Qwen2-VL-2B 的明细打印一张 65,536 patch 图像的峰值 2.65 GiB"),
    "QWEN_VL_VISION_NO_GATHER": (
        "Qwen-VL 视觉注意力不再跨 TP 收集 QKV，Qwen2.5-VL/Qwen3-VL 改为旋转一份连续的 q·k 副本，不再复制 q、k、v 再拼接"
        "（#28769）：每个 patch 为 2 + 15/TP 个隐藏维度的值（Qwen2-VL 自己的注意力仍为 2 + 18/TP）",
        "已确认：v0.11.0 wheel 的 qwen2_5_vl.py 中有 all_gather_interleave 与 split_qkv，v0.11.1 起没有；"
        "float32 旋转保留到 v0.12.0"),
    "QWEN_VL_VISION_ATTENTION_SLIMMED": (
        "Qwen-VL 视觉旋转改用模型 dtype（不再做 float32 副本）：所有 Qwen-VL 视觉塔每个 patch 为 2 + 10/TP 个隐藏维度的值",
        "已确认：v0.12.0 wheel 用 rotary cos/sin 缓存取代了 t.float()，v0.11.2 中没有"),
    "QWEN2_VL_TP_GATHER_BACK": (
        "Qwen2-VL 的视觉注意力重新跨 TP 收集 QKV（每个 patch 3 个完整隐藏维度的值，收集时 6 个）",
        "已确认：v0.11.1–v0.12.0 wheel 的 qwen2_vl.py 中没有 tensor_model_parallel_all_gather，v0.13.0 起恢复"),
    "QWEN_VL_IMAGE_SIZE_FACTORED": (
        "Qwen-VL 预热用的最大图像正好占满 max_pixels（patch 数最接近的因数对，长宽比不超过 200）；此前是在 max_pixels "
        "之内缩放的正方形图像（当 --mm-processor-kwargs 设的 max_pixels 不是 patch 数的平方时 token 更少）",
        "已确认：v0.12.0 wheel 缩放正方形图像，v0.13.0 对 patch 数做因数分解"),
    "QWEN3_VL_PLAIN_VIDEO": (
        "Qwen3-VL 的编码器预算按嵌入数（12,288）计算视频，少于图像（16,384），所以预热重新编码图像",
        "已确认：v0.12.0 wheel 仍乘以 12.5，v0.13.0 不再乘（2025-12-16 合并）"),
    "MM_PROFILE_PAD_TO_BUDGET": (
        "预热时编码器输出短于编码器预算的，会被复制进整个预算大小的零张量（每项一个），并在语言模型前向与采样器运行期间一直留在编码器缓存中",
        "已确认：v0.11.0 wheel 中的代码；2025-09-27 合并"),
    "MM_PROFILE_PAD_TO_ITEM": (
        "预热时每个编码器输出只补齐到该项的 token 数（Qwen3-VL 带格式的视频：12,288 个嵌入补齐到 153,600 行）；"
        "输出已占满其 token 数的项不再补齐",
        "已确认：v0.12.0 wheel 中的代码；2025-11-25 合并"),
    "MM_PROFILE_UNPADDED": (
        "预热时按原样缓存编码器输出（编码器缓存只存嵌入）",
        "已确认：v0.13.0 wheel 的 profile_run 不再补齐输出，v0.12.0 仍补齐"),
    "ENCODER_BUDGET_EMBEDDINGS_ONLY": (
        "编码器预算只按嵌入数计算一项，不再计入包围它们的提示 token（Gemma 3：每张图 256 个，此前为 260 个，"
        "因此 8,192 个 token 能容纳 32 张而不是 31 张）",
        "已确认：v0.12.0 wheel 按连续 token 计，v0.13.0 按嵌入计（get_mm_max_tokens）；一条 v0.11 日志在 8,192 个 token 下预热 31 张 "
        "Gemma 3 图像，一条 v0.23 日志为 32 张"),
    "PERFORMANCE_MODE": (
        "--performance-mode：'throughput' 把未指定的 max_num_batched_tokens 与 max_num_seqs 默认值加倍；'interactivity' "
        "为 1 到 32 的每个尺寸（不超过最大捕获尺寸）各捕获一个 CUDA graph，而不是 1、2、4 和以 8 为步长；"
        "'balanced'（默认）不做改变",
        "已确认：v0.16.0 wheel 中没有；v0.17.0 到 v0.33.0 的 wheel 中两项行为相同"),
    "MM_MODALITY_TIE_BY_NAME": (
        "两种模态每项 token 数相同时，预热选名称靠后的（'video' 而非 'image'）；此前选先列出的",
        "已确认：v0.16.0 wheel 仍只按 token 数排序（2026-02-13 合并），v0.17.0 按 token 数与名称"),
    "COLD_COMPILE_RESERVE": (
        "首次启动（torch.compile 缓存为空）时，编译发生在 profiling 窗口之内，vLLM 会扣除其峰值：输入嵌入表的一份拷贝"
        "计入峰值，缓存池小于加载已编译图的重启（issue #54383；修复 #54209 与 #54479 直到 v0.33 仍未合并）；"
        "从 v0.27（torch 2.13）起适用于所有模型",
        "推断：v0.27–v0.31 的冷/热成对日志（嵌入绑定与不绑定的模型都有）与 issue #54383（v0.28）相差最多 1.3 GiB，"
        "与嵌入表的一份拷贝相当"),
    "V1_RUNNER_COLD_TABLE_KEPT": (
        "在 V1 model runner 上首次启动时，还会留住一份已释放的输入嵌入表拷贝所在的段（之后的分配从中切走一部分），"
        "vLLM 把它算作已消耗的显存并扣除（FREED_SEGMENT_CHARGED），直到 profile 运行不再切分大块"
        "（PROFILE_RUN_SPLIT_LIMIT，v0.31）；重启（编译缓存已热）没有这部分",
        "推断：v0.29–v0.30 所有公开的 V1-runner 首次启动都有，来自三个来源：WSL 下的 RTX 4050 Laptop（non-torch 比其"
        "重启多 0.53 GiB，嵌入表 0.58）、RTX PRO 4500 的 MIG 切片（non-torch 1.28 GiB，嵌入表 1.16），以及一次 L4 上的 "
        "n-gram 启动，其缓存池比同一命令在 model runner V2 上小 0.93 GiB（嵌入表 1.02）；v0.27–v0.28 的 V1-runner "
        "首次启动没有公开日志"),
    "FREED_SEGMENT_CHARGED": (
        "profile 运行后 PyTorch 分配器无法归还的段（一个已释放的块被之后仍存活的分配切走一部分）计入缓存池的扣除："
        "vLLM 扣除空闲显存的减少量；此前它把保留的段算作 PyTorch 自己的，只扣除其峰值用量",
        "已确认：v0.26.0 wheel 把权重、torch 峰值增量与 non-torch 增量（CUDA 显存减去 memory_reserved）相加；"
        "从 v0.27.0 起 non_kv_cache_memory 为 total_consumed（mem_get_info）加上瞬时峰值余量"),
    "PROFILE_RUN_SPLIT_LIMIT": (
        "profile 运行期间 PyTorch 分配器的 max_split_size_mb 设为 20：超过 20 MiB 的已释放块不再被切分，"
        "所以首次启动释放的嵌入表拷贝在 vLLM 测量之前就被 empty_cache() 归还，不再有拷贝被扣除（FREED_SEGMENT_CHARGED）",
        "已确认：v0.30.0 wheel 只在 load_model 外包了 _scoped_allocator_max_split；v0.31.0 也包住 profile 运行，"
        "其注释说明否则之后的小分配可能从已释放的数 GiB 块中切出，使整个段在 empty_cache() 之后仍被占住"),
    "QWEN3_VL_MROPE_CACHE_UNSCALED": (
        "Qwen3-VL 与 Qwen3.5/3.6 的 M-RoPE cos/sin 缓存只覆盖 max_position_embeddings 个位置，而此前每个 M-RoPE 模型都覆盖"
        "四倍的位置（为长视频的位置预留）；其他 M-RoPE 模型（Qwen2-VL、Qwen2.5-VL）仍为四倍，开启视频裁剪时这些模型也是",
        "已确认：v0.31.0 wheel 的 MRotaryEmbedding 设 cache_max_position_num = max_position_embeddings * 4；v0.32.0 接受 "
        "positions_factor，qwen3_vl.py、qwen3_vl_moe.py 与 qwen3_5.py 在未开启视频裁剪时把它设为 1；v0.11–v0.19 的公开日志"
        "加载的是四倍：按单倍长度计算时，Qwen2.5-VL-3B 多出 0.09 GiB，Qwen3-VL-30B-A3B 多出 0.19 GiB，Qwen3.5-27B 多出 0.14 GiB"),
    "BLOCK_SIZE_ANY_MULTIPLE_OF_16": (
        "--block-size 可取任意正整数，而不只是 1、8、16、32、64、128 与 256；CUDA 与 ROCm 的注意力后端运行 16 的倍数的块",
        "已确认：v0.17.0 wheel 中它的类型为 BlockSize = Literal[1, 8, 16, 32, 64, 128, 256]，v0.18.0 wheel 中为 int | None；"
        "一条 v0.29.0 的 L40S 日志中 Gemma-4-26B-A4B 以 --block-size 48 启动（akamaslabs/vllm-benchmark E-o3.log）"),
    "ATTENTION_PAGE_PADDING": (
        "页大小不能整除最大页的注意力层会被填充到最大页（通过跨步视图读取），而不是报错；此前这样的模型无法启动",
        "已确认：v0.23.0 wheel 抛出 NotImplementedError（“The page size of the layer is not divisible by the maximum page "
        "size”），v0.24.0 wheel 会填充非 MLA 的注意力页；一条 v0.29.0 的 L40S 日志中 Gemma-4-26B-A4B 在 --block-size 48 时"
        "打印 27,946 个 token：16 个 token、128 KiB 的滑动窗口页被填充到全注意力层的 192 KiB（E-o3.log）"),
    "SLIDING_WINDOW_OWN_BLOCK": (
        "滑动窗口层不再使用 --block-size：它们从注意力后端最小的 kernel 块（FlashAttention、Triton、FlashInfer 与 ROCm "
        "上为 16）开始，再由页大小统一按最大的页放大；因此当它们每个 token 的字节数大于全注意力层时（Gemma 4），"
        "更大的 --block-size 会缩小它们的块，而不是放大全注意力层的块",
        "已确认：v0.24.0 wheel 中没有，v0.25.0 到 v0.29.0 中有；一条 v0.29.0 的 L40S 日志（Gemma-4-26B-A4B，"
        "--block-size 128，akamaslabs/vllm-benchmark E-eager.log）打印 167,127 个 token、40.80x："
        "滑动窗口层的块为 64 个 token，全注意力层为 128"),
    "SLIDING_WINDOW_PRIMARY_BLOCK": (
        "后端能直接运行时（取不超过它的最大的 16 的倍数），滑动窗口层重新使用 --block-size，与 v0.25 之前相同",
        "已确认：v0.30.0 到 v0.33.0 的 wheel 按每个 token 的字节数 x --block-size 为滑动窗口页设定上限"),
    "COLD_COMPILE_UNTIED": (
        "同样的首次启动编译峰值从 v0.19 起（torch >= 2.10，它也在窗口内导出 AOT 产物）适用于输入嵌入未与 LM head 绑定的模型",
        "推断：一条 v0.26 首次启动日志打印了该峰值（Qwen2.5-7B-AWQ 为 1.04 GiB，v0.26 之前只在 DEBUG 级别打印），"
        "五台机器上未绑定嵌入的 Qwen2.5-7B/14B 与 Llama-3.1-8B 在 v0.19–v0.26 的首次启动也多占这么多；绑定嵌入的 "
        "Qwen2.5-1.5B 首次启动（RTX 4080 Laptop，v0.20 与 v0.23）没有，而绑定嵌入的模型从 v0.27 起都有；分界的原因尚未查明"),
    "CUDAGRAPH_MODE_OPTION": (
        "编译配置中的 cudagraph_mode 决定 vLLM 捕获哪些 CUDA graph：NONE、PIECEWISE（每个捕获尺寸一个）、FULL（每个尺寸"
        "一个整模型 graph）、FULL_DECODE_ONLY（只为 decode 批次捕获整模型 graph）或 FULL_AND_PIECEWISE（两者都有；v0.11 起"
        "为默认），vLLM 的 CUDA graph 显存估算也随之计数",
        "推断：#20059（2025-07-30 合并，进入 v0.10.1）以 CUDAGraphMode 取代 v0.10.0 的 full_cuda_graph 开关；一次 "
        "cudagraph_mode 为 NONE 的 v0.31.0 H200 启动不捕获任何 graph（“Skipping encoder and decoder CUDA graph capture”），"
        "也不扣除估算"),
    "ATTENTION_BACKEND_FLAG": (
        "--attention-backend（以及 --attention-config.backend）强制指定注意力后端；此前只能用 VLLM_ATTENTION_BACKEND "
        "环境变量，vLLM 读取它直到 v0.14",
        "已确认：v0.11.0、v0.11.1 与 v0.12.0 的 wheel 中没有，v0.13.0 中有；v0.10.0 到 v0.14.0 的 wheel 的 "
        "vllm/envs.py 中有 VLLM_ATTENTION_BACKEND，v0.15.0 起消失"),
    "ATTENTION_BACKEND_ENV_DROPPED": (
        "不再读取 VLLM_ATTENTION_BACKEND（#26315 将其弃用并计划在 v0.14 移除）：只有 --attention-backend 能强制指定后端",
        "已确认：v0.13.0 与 v0.14.0 的 wheel 的 vllm/envs.py 与 vllm/config/attention.py 中有，v0.15.0 中没有；"
        "vllm#50292（v0.26.0）报告它被静默忽略"),
    "IMAGE_RUNS_VLLM_SERVE": (
        "vllm/vllm-openai 镜像运行 vllm serve，它把第一个不属于任何参数的词当作模型；此前镜像运行 python3 -m "
        "vllm.entrypoints.openai.api_server，其解析器把这个词读作 model_tag 后丢弃，只有 --model 能指定模型（否则为默认的 "
        "Qwen/Qwen3-0.6B）",
        "已确认：v0.10.0 到 v0.11.0 标签的 vllm-openai 阶段 ENTRYPOINT 为 api_server 模块，v0.11.1 到 v0.26.0 为 "
        "[\"vllm\", \"serve\"]（2025-10-02 的提交 d00d652）；api_server 模块的 main() 从不把 model_tag 复制到 model"
        "（v0.10.0 的 api_server.py，v0.30.0 的 launchers/api_server/entry.py）"),
    "SERVE_MODEL_FLAG_MOVED": (
        "vllm serve 取第一次出现的 --model MODEL，把 MODEL 移到最前面当作位置参数模型（并给出弃用警告），所以若该行的第一个"
        "自由词也指定了模型，就会以“unrecognized arguments”停止；此前 vllm serve 直接拒绝 --model 这个词本身（ValueError："
        "“you should provide the model as a positional argument”），--model=MODEL 的写法能通过这项检查",
        "已确认：v0.10.0 与 v0.11.0 wheel 的 vllm/utils/__init__.py 对 arg == '--model' 抛出 ValueError，v0.11.1 到 "
        "v0.34.0 的 vllm/utils/argparse_utils.py 改为移到最前面"),
    "SERVED_NAME_NEEDS_MODEL_FIRST": (
        "带 --served-model-name（且没有 --config）的 vllm serve 命令，在 --model 移到最前面之后，若 serve 后的第一个词是参数，"
        "就以 ValueError 停止：“`model` should be provided as the first positional argument”",
        "已确认：v0.16.0 wheel 中没有，v0.17.0 到 v0.34.0 中有"),
    "FORCED_BACKEND_CHECKED": (
        "强制指定的注意力后端会按模型、数据类型与 GPU 检查（validate_configuration），不合适时 vLLM 以“Selected backend … "
        "is not valid for this configuration”停止；此前 vLLM 不加检查地接受",
        "已确认：v0.10.2 与 v0.11.0 的 wheel 中没有这条消息和检查，v0.11.1 中有"),
    "BACKEND_MM_PREFIX": (
        "对于多模态 prefix-LM 模型（Gemma 3、启用视觉双向注意力的 Gemma 4、PaliGemma 等），注意力后端必须能对图像"
        " token 做完整注意力（supports_mm_prefix）；FlashInfer 从不支持，因此强制指定时 vLLM 会拒绝它"
        "（'partial multimodal token full attention not supported'），自动选择时也会跳过它",
        "已确认：v0.11.1 与 v0.12.0 wheel 中没有，v0.13.0、v0.14.0、v0.17.0、v0.20.0、v0.22.0、v0.28.0"
        "（v1/attention/backend.py）与 v0.33.0 中都有"),
    "MM_PREFIX_OFF_TEXT_ONLY": (
        "以纯文本方式提供的 prefix-LM 模型（--language-model-only，或所有 --limit-mm-per-prompt 都为 0）不再使用多模态"
        " prefix 注意力，因此不支持它的后端（FlashInfer）也可以运行"
        "（'Disabled mm_prefix attention mode because multimodal inputs are configuration-disabled'）",
        "已确认：v0.20.0-v0.26.0 wheel 中没有该消息，v0.27.0、v0.28.0 与 v0.33.0 中有；一次 v0.29 L40S 上的 "
        "Gemma-4-26B-A4B 纯文本启动打印了它，并以 --attention-backend FLASHINFER 运行"),
    "FLASHINFER_HEAD_512": (
        "FlashInfer 注意力后端除 64、128、256 外还支持 head 大小 512（Gemma 4 的全局层）",
        "已确认：v0.11.1-v0.21.0 wheel 中为 [64, 128, 256]，v0.22.0 至 v0.33.0 中为 [64, 128, 256, 512]"),
    "FLASHINFER_XQA_HOPPER": (
        "FlashInfer 在 Hopper（9.0）上用 TensorRT-LLM 的 XQA 内核解码，full 解码图分配的是它固定大小的 workspace，"
        "而非元数据构建器的；其图仍只覆盖单 token 解码（get_cudagraph_support）",
        "已确认：v0.24.0 wheel 中只有 10.x 系列，v0.25.0 至 v0.34.0 加入 9.0（仅解码）"),
    "FLASHINFER_WORKSPACE_BY_BATCH": (
        "FlashInfer 元数据构建器的 workspace 改为 max(394 MiB, max_num_batched_tokens × 每 GPU 的 query 头数 × "
        "head 大小 × 16 B)，不再固定为 394 MiB（VLLM_FLASHINFER_WORKSPACE_BUFFER_SIZE）",
        "已确认：v0.24.0-v0.25.1 wheel 中固定，v0.26.0 至 v0.34.0 中 FLASHINFER_PREFILL_WORKSPACE_BYTES_PER_ELEM = 16；"
        "vllm#50780 在 RTX PRO 6000 Blackwell 上测得每个批内 token 128 KiB（32 头 × 256 × 16 B）"),
    "FLASHINFER_XQA_SM12X": (
        "FlashInfer 在计算能力 12.x（RTX 50 系列、RTX PRO Blackwell、GB10）上也用 XQA 解码，"
        "其 full 图也接受推测解码的统一批次（UNIFORM_BATCH）",
        "已确认：v0.26.0 与 v0.27.1 wheel 中没有，v0.28.0 至 v0.34.0 中有"),
    "FLASHINFER_XQA_SPEC_GRAPHS": (
        "Hopper 的 XQA 解码也为推测解码的统一批次保留 full 图（head 大小 16 至 256、步长 16）",
        "已确认：v0.25.0-v0.29.0 wheel 中 9.0 返回 UNIFORM_SINGLE_TOKEN_DECODE，v0.30.0 至 v0.34.0 中为 is_xqa_arch"),
    "TRITON_ATTN_RENAMED": (
        "Triton 注意力后端名为 TRITON_ATTN；此前为 TRITON_ATTN_VLLM_V1",
        "已确认：v0.10.0 与 v0.10.2 的 wheel 中为 TRITON_ATTN_VLLM_V1，v0.11.0 中为 TRITON_ATTN"),
    "ATTENTION_BACKEND_AUTO": (
        "--attention-backend auto 表示不强制指定后端；更早的版本不接受这个值",
        "已确认：v0.17.0 的 wheel 中没有，v0.18.0 中有"),
    "FLEX_FULL_GRAPHS": (
        "FlexAttention 的元数据构建器支持 full CUDA graph（AttentionCGSupport.ALWAYS）；此前一个也不支持，"
        "所以默认的 FULL_AND_PIECEWISE 模式只捕获 piecewise graph",
        "已确认：v0.19.0 的 wheel 中没有 _cudagraph_support（构建器默认值 NEVER），v0.20.0 中为 ALWAYS"),
    "TRITON_FP8_NEEDS_SM89": (
        "在 CUDA 上，Triton 注意力后端在计算能力 8.9 以下拒绝类型以 fp8 开头的 KV 缓存（那里没有原生 fp8e4nv），"
        "在 8.0 以下拒绝 bfloat16 KV 缓存：构建模型各层时抛出 ValueError；此前引擎会加载模型，之后在 Inductor 自动调优中失败",
        "已确认：v0.23.0 的 wheel 中没有；v0.24.0、v0.28.0、v0.31.0、v0.32.0 与 v0.33.0 的 wheel 中为同一检查"),
    "CHUNKED_PREFILL_OPTIONAL": (
        "生成模型可以不用分块预填充（--no-enable-chunked-prefill）：此时 max_num_batched_tokens 默认为 "
        "max(max_model_len, 版本默认值)，且不超过 max_num_seqs x max_model_len，给出更小的值会被拒绝；此前 V1 对所有生成"
        "模型强制开启分块预填充",
        "已确认：v0.10.2 与 v0.11.0 的 wheel 对非 pooling 模型无论参数如何都设 enable_chunked_prefill = True；v0.11.1、"
        "v0.13.0、v0.22.0 与 v0.33.0 的 wheel 保留用户的 False，并取 max(max_model_len, 默认值)"),
    "OPTIMIZATION_LEVELS": (
        "-O0 到 -O3（--optimization-level）成为优化级别：-O0 不编译也不捕获 graph，相当于 --enforce-eager；-O1 编译并"
        "捕获 piecewise CUDA graph，不做 all-reduce + RMSNorm 融合；默认的 -O2 与 -O3 再加上 full graph 与各项融合；"
        "此前 -O N 是编译级别，默认为 -O3（piecewise graph）",
        "已确认：v0.11.1 的 wheel 中没有 OptimizationLevel，v0.12.0 中有；v0.12.0、v0.13.0、v0.17.0、v0.22.0 与 v0.33.0 "
        "wheel 的级别表对 0 / 1 / 2-3 分别设 cudagraph_mode 为 NONE / PIECEWISE / FULL_AND_PIECEWISE，"
        "fuse_allreduce_rms 只在级别 2 起开启"),
    "CUDAGRAPH_SIZE_FLAGS": (
        "--cudagraph-capture-sizes 与 --max-cudagraph-capture-size 成为 serve 参数（CUDA graph 的捕获尺寸，"
        "决定 vLLM 的 CUDA graph 显存估算中的 graph 数）",
        "已确认：v0.11.0 wheel 中没有（它用 --cuda-graph-sizes），v0.11.1 中有"),
    "UMA_FREE_FROM_MEMAVAILABLE": (
        "在统一内存 GPU（Jetson Orin 与 Thor、DGX Spark；#35356 起为所有集成 GPU）上，空闲显存取操作系统的 "
        "MemAvailable，可回收的页缓存算作空闲；此前取 CUDA 的数值，页缓存算作已用，因此加载时从磁盘读入的检查点也会使缓存池变小",
        "推断：2025-10-03 随 #26098 提交，晚于 v0.11.0；v0.11.0 的 wheel 只读 cudaMemGetInfo，v0.12.0 的 wheel "
        "在计算能力 8.7、11.0 与 12.1 上读 psutil 的可用内存"),
    "TOWER_SKIPPED_AT_ZERO_LIMIT": (
        "当 --limit-mm-per-prompt 把某个视觉或音频塔所服务的每种模态都设为 0 时，不再构建该塔（此前仍会加载，只是跳过预热）",
        "已确认：v0.14.1 wheel 中没有，v0.15.0 中有（Qwen-VL 模型更早就跳过其视觉塔：QWEN_VL_TOWER_SKIPPED_AT_ZERO_LIMIT）"),
    "LANGUAGE_MODEL_ONLY": (
        "--language-model-only 把每种模态的上限设为 0，多模态模型的视觉/音频塔既不构建"
        "（interfaces.py _mark_tower_model，#32605）也不预热",
        "已确认：v0.16.0 wheel 中没有 language_model_only（2026-02-09 合并），v0.17.0 中有"),
    "MRV2_PENALTY_BUFFER": (
        "vLLM 扣除的是 worker 首次快照以来空闲显存的减少量（再加 torch 峰值超出仍在分配部分的量），所以快照之后分配的缓冲区"
        "都会从缓存池中扣除；其中包括 model runner V2 采样器的计数缓冲区：每个 (max_num_seqs × 词表条目) 一个 int32 计数"
        "和一个打包比特（每个条目约 4.1 字节；此前按权重 + torch 峰值 + 非 torch 增长计算，不含它们）",
        "已确认：从 v0.27.0 wheel 起 memory_profiling 扣除空闲显存的减少量（v0.26.0 为三项之和），v0.27.0–v0.33.0 的 wheel "
        "中 PenaltiesState 都无条件分配这些计数；一组 v0.31 H200 对比（1,024 与 32 个序列）正好相差它们所预测的 0.49 GiB"),
    "GLM_DSA_FP8_KV_ON_SM10": (
        "GLM-5 类模型（GlmMoeDsaForCausalLM）在 CUDA 计算能力 10.x（B200、B300）上、--kv-cache-dtype 为 auto 时，"
        "MLA 缓存按 fp8_e4m3 存储：token 数约为 bf16 的两倍",
        "已确认：v0.31.0 wheel 中没有，v0.32.0 中有（'Using fp8 kv-cache for GlmMoeDsaForCausalLM on SM10x'）"),
    "UNIFORM_DECODE_CAPTURE_SIZES": (
        "开启推测解码（decode 查询长度 q > 1）时，默认 capture size 还包括每个请求数 × q（不超过捕获上限），"
        "不必落在 8/16 token 的步长上（q = 3 时多 9 个）",
        "已确认：v0.28.0 wheel 中没有，v0.29.0 中有（request_counts）"),
    "MLA_BLACKWELL_CUTLASS": (
        "计算能力 10.0 上的 MLA 默认用 CUTLASS_MLA，块大小强制为 128 个 token（此前 CUTLASS 需手动选择，默认是 Triton MLA 的 16）",
        "已确认：v0.10.0 wheel 只在设置 VLLM_ATTENTION_BACKEND 时用 CUTLASS（cuda.py:165），"
        "v0.10.1 在 10.0 上默认使用（cuda.py:152）"),
    "MLA_BLACKWELL_FAMILY": (
        "Blackwell 的 MLA 默认值覆盖所有 10.x 设备（B300 的 10.3），不再只限 10.0（此前 B300 用 Triton MLA 的 16 token 块）",
        "已确认：v0.12.0 wheel 中是 is_device_capability(100)（cuda.py:184），"
        "v0.13.0 中是 is_device_capability_family(100)（cuda.py:185）"),
    "MLA_BLACKWELL_FLASHINFER": (
        "10.x 上 qk_nope_head_dim 为 128 的 MLA 默认用 FLASHINFER_MLA，其块大小检查把默认的 16 改成 64"
        "（其他宽度用 CUTLASS_MLA 的 128）",
        "已确认：v0.14.0 wheel 中没有，v0.15.0 中有（cuda.py:190-237）"),
    "MLA_BLOCK_FROM_BACKEND": (
        "默认块大小取所选注意力后端偏好的值：Hopper 上的 MLA 用 FLASH_ATTN_MLA（16；fp8 缓存它放不下，"
        "改用 FlashMLA 的 64），10.x 上用 FLASHINFER_MLA（32；它不支持的 qk_nope_head_dim 用 CUTLASS_MLA 的 128）；"
        "此前 Hopper 上强制为 FlashMLA 的 64",
        "已确认：v0.17.0 wheel 为 FlashMLA 强制 64（cuda.py:247），v0.18.0 按后端确定（interface.py:427；"
        "flashattn_mla.py:55 MultipleOf(16)，flashinfer_mla.py:50 [32, 64]）"),
    "FLASHINFER_MLA_NOPE_192": (
        "FLASHINFER_MLA 也接受 qk_nope_head_dim 192（此前只有 64 和 128）",
        "已确认：v0.18.0 wheel 中为 [64, 128]，v0.19.0 至 v0.33.0 中为 [64, 128, 192]"),
    "DRAFT_MODEL_ASYNC": (
        "用草稿模型做推测解码时仍保持异步调度（此前与 EAGLE/MTP、GPU n-gram 以外的方法一样会关闭它）",
        "已确认：v0.27.0 wheel 对 draft_model 关闭异步调度，v0.28.0 将其排除在外"),
    "ASYNC_SPEC_V1_ONLY": (
        "会关闭异步调度的推测解码方法只在 V1 model runner 上这样做：在 model runner V2 上，n-gram、suffix、"
        "Medusa 和 MLP speculator 都保持异步调度",
        "已确认：v0.32.0 wheel 不论 runner 都检查方法（config/vllm.py:1606），"
        "v0.33.0 只在 use_v2_model_runner 为假时检查（config/vllm.py:1652）"),
    "MM_PREFIX_LM_WHOLE_ITEMS": (
        "视觉双向注意力的 Gemma 4 是多模态前缀语言模型：在 CUDA 上 vLLM 强制 --disable-chunked-mm-input"
        "（platforms/cuda.py），若提示可携带的某种模态的最大单项长于 max_num_batched_tokens 就拒绝启动"
        "（v1/core/encoder_cache_manager.py compute_mm_encoder_budget）",
        "已确认：v0.19.0 wheel 不把 gemma4 视为前缀语言模型（不在 MM_PREFIX_LM_MODELS 中，也没有 convertor 覆盖），"
        "v0.20.0 加入该覆盖；一份 GB10 实验笔记的 v0.20.0 重试记录写明默认 2,048 下启动被拒"
        "（'failed_for_gemma4_mm_budget_2496'）；一个公开的 v0.19.2 开发版在 2,048 下正常启动。PR 按其描述认定（2026-04-21 合并）"),
    "MM_PREFIX_LM_WHOLE_ITEMS_ROCM": (
        "ROCm 也对多模态前缀语言模型强制 --disable-chunked-mm-input（见 Rule.MM_PREFIX_LM_WHOLE_ITEMS）",
        "已确认：v0.29.0 wheel 的 platforms/rocm.py 中没有，v0.30.0 至 v0.33.0 中有"),
    "MM_PREFIX_LM_MNBT_FLOOR": (
        "默认的 max_num_batched_tokens 提高到 prefix-LM 模型最大的单个多模态输入（视觉部分双向注意力的 Gemma 4："
        "32 帧视频，2,496 个 token），保证它能放进一个批次",
        "已确认：v0.21.0 wheel 中没有，v0.22.0（arg_utils.py:2529）至 v0.33.0 中有"),
    "MODELOPT_KV_AUTO": (
        "--kv-cache-dtype auto 采用 ModelOpt 检查点声明的 KV 类型（kv_cache_quant_algo：FP8 -> fp8_e4m3，"
        "NVFP4 -> nvfp4）；此前是模型的数据类型",
        "已确认：v0.13.0 wheel 中没有（auto 取模型数据类型，attention/layer.py:163），v0.14.0 中有"
        "（utils/torch_utils.py:239,301，由 engine/arg_utils.py:1398 调用）"),
    "CT_KV_SCHEME_AUTO_FP8": (
        "llm-compressor 检查点的 kv_cache_scheme 让缓存变为 fp8（MLA 层不读它，不受影响）；此前该方案只为"
        "显式要求 fp8 的缓存提供缩放系数",
        "已确认：v0.14.0 wheel 中没有，v0.15.0 中有（attention/layer.py:198-203）"),
    "CT_KV_SCHEME_EXPLICIT_WINS": (
        "显式的 --kv-cache-dtype 优先于 llm-compressor 的 kv_cache_scheme（v0.15 至 v0.21 不论要求什么都存 fp8）",
        "已确认：v0.21.0 wheel 无条件设为 fp8（attention.py:232-238），v0.22.0 只在 auto 时设置"
        "（attention.py:237-238）"),
    "ATTENTION_ONLY_NOT_HYBRID": (
        "layer_types 全是注意力层的混合模型类（granite-4.0-micro）不再按混合模型处理：块大小为 16 个 token，"
        "不再为容纳 Mamba 状态而调大，前缀缓存开启",
        "已确认：v0.11.0 wheel 中没有（config/model.py:1427），v0.11.1（config/model.py:1632）至 v0.33.0 中有；"
        "一条公开的 v0.11.0 L40S 日志打印 1,312 token 的块"),
    "BREAKABLE_CUDAGRAPHS": (
        "列出的架构（DeepSeek-V3.2、GLM-5 等稀疏注意力模型：BREAKABLE_CUDAGRAPH_ARCHITECTURES）使用可中断的 "
        "CUDA graph，不做 torch.compile：内存 profile 中没有编译，前向按 eager 计算，graph 数量不变",
        "已确认：v0.28.0 wheel 中没有，v0.29.0（config/vllm.py:75, 710-727）至 v0.33.0 中有"),
    "TRITON_MLA_FULL_GRAPHS": (
        "Triton MLA（Ampere、Ada、12.x 以及不开 AITER 的 ROCm 上的 MLA）会捕获完整 CUDA graph；此前它的构建器"
        "不支持完整 graph，默认模式退回只用分段 graph",
        "已确认：v0.21.0 wheel 用 MLACommonMetadataBuilder 构建 Triton MLA，其支持级别为 NEVER"
        "（v1/attention/backend.py:519）；v0.22.0 有自己的构建器，UNIFORM_BATCH（triton_mla.py:33）"),
    "TRITON_MLA_SINGLE_TOKEN_DECODE": (
        "Triton MLA 的完整 graph 只覆盖单 token 解码：开推测解码时默认模式退回只用分段 graph",
        "已确认：v0.25.0 wheel 中为 UNIFORM_BATCH（triton_mla.py:51），v0.26.0（triton_mla.py:51）至 v0.30.0 中为 "
        "UNIFORM_SINGLE_TOKEN_DECODE"),
    "TRITON_MLA_UNIFORM_BATCH": (
        "Triton MLA 重新为推测解码的统一批次捕获完整 graph",
        "已确认：v0.30.0 wheel 中为 UNIFORM_SINGLE_TOKEN_DECODE，v0.31.0（triton_mla.py:54）至 v0.33.0 中为 UNIFORM_BATCH"),
    "MAMBA_ALIGN_WITH_SPEC": (
        "同时开启前缀缓存和推测解码时，支持 Mamba 前缀缓存的混合模型采用 'align' 缓存模式（每个请求两个状态），"
        "而不是 'all'（每个块一个状态）",
        "已确认：v0.19.0 wheel 中没有，v0.20.0（models/config.py:353-360）和 v0.21.0 中有"),
    "MAMBA_ALL_WITH_SPEC_AGAIN": (
        "推测解码不再改变 Mamba 缓存模式（这些混合模型重新用 'all'，直到 v0.28 对所有模型改用 'align'）",
        "已确认：v0.21.0 wheel 中有，v0.22.0 中没有"),
    "HMA_OFF_FOR_CHUNKED_LOCAL": (
        "分块局部注意力（Llama 4）会关闭混合 KV cache 管理器，这些层保留完整上下文；v0.10.0 只在有 EAGLE 草稿模型时这样做",
        "已确认：v0.10.0 wheel 只对带 EAGLE 的分块局部注意力关闭它（config.py:4671），v0.10.1 起除非设置 "
        "VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=1 都会关闭（config/__init__.py:3675），直到 v0.33.0"),
    "V32_AUTO_BF16": (
        "DeepSeek-V3.2 的 --kv-cache-dtype auto 存 bfloat16；v0.11.0 会把 auto 改成它的 fp8_ds_mla 格式"
        "（每 token 656 B，而不是 1,152 B）",
        "已确认：v0.11.0 wheel 转换 auto 和 fp8（models/config.py:419-421），v0.11.1 只转换 fp8（models/config.py:478）"),
    "FLASHINFER_SPARSE_FOR_FP8": (
        "在 10.x 上，稀疏 MLA 模型的 fp8 缓存交给 FLASHINFER_MLA_SPARSE，按标准 fp8 存储（每 token 576 B）；"
        "v0.18 在每张 GPU 超过 16 个头时选 FLASHMLA_SPARSE，存成 fp8_ds_mla",
        "已确认：v0.18.0 wheel 只按头数排序稀疏后端，v0.19.0 对 fp8 缓存优先用 FlashInfer（issue #35807）"),
    "SM120_SPARSE_MLA_FP8_DS_MLA": (
        "在计算能力 12.x 上，稀疏 MLA 模型使用 FLASHINFER_MLA_SPARSE_SM120，auto、fp8 和 fp8_e4m3 都存成 fp8_ds_mla",
        "已确认：v0.23.0 wheel 中没有，v0.24.0（platforms/cuda.py:130-134，mla_attention.py:323-336）至 v0.33.0 中有"),
    "V1_ENGINE_OLD_GPUS_AND_MAMBA": (
        "计算能力低于 8.0 的 GPU 和带 Mamba 状态的模型使用 V1 引擎；v0.10.0 和 v0.10.1 会为它们退回旧的 V0 引擎",
        "已确认：v0.10.1 wheel 会退回（arg_utils.py:1403, 1429），v0.10.2 的判断两者都不检查"),
    "V1_ENGINE_ALWAYS": (
        "所有启动都使用 V1 引擎；v0.10 对 V1 放不下的 fp8 KV cache（Hopper 的 FlashAttention 3、计算能力 10.0，"
        "以及 v0.10.2 起 MLA 的 FlashMLA 和 CUTLASS 后端以外）会退回旧的 V0 引擎",
        "已确认：v0.10.1 wheel（arg_utils.py:1409-1414）和 v0.10.2（arg_utils.py:1466）会退回，v0.11.0 的判断不检查缓存类型"),
    "SEQS_CAPPED_BY_MNBT": (
        "默认的 max_num_seqs 不超过 max_num_batched_tokens，给了 --max-num-batched-tokens 时也一样",
        "已确认：v0.10.0 wheel 中没有，v0.10.1（arg_utils.py:1711）至 v0.33.0 中有"),
    "LONGROPE_DEFAULT_ORIGINAL_LEN": (
        "LongRoPE 模型（Phi-3.5）的 max_model_len 默认取 original_max_position_embeddings；"
        "--max-model-len 仍可要求更长的长度",
        "已确认：v0.11.0 wheel 中没有，v0.11.1（config/model.py:2112）至 v0.33.0 中有"),
    "MNBT_CAPTURE_SIZE": (
        "只要不超过上限，max_num_batched_tokens 本身也是默认的 CUDA graph capture size"
        "（不在 8/16 步长上的预算会多一对 graph）",
        "已确认：v0.20.0 wheel 中没有，v0.21.0（config/vllm.py:1580）至 v0.33.0 中有"),
    "SPEC_CAPTURE_SIZES_ROUNDED": (
        "开启推测解码时，V1 runner 把每个 capture size 向上取整到 decode 查询长度的倍数"
        "（adjust_cudagraph_sizes_for_spec_decode），前提是 full decode graph 走单独的路径"
        "（FULL_AND_PIECEWISE、FULL_DECODE_ONLY）；只捕获 piecewise graph 时 size 不变",
        "已确认：v0.10.0、v0.11.0 wheel 中没有；v0.12.0-v0.19.0 在 decode_mode() 为 FULL 且 separate_routine() 时取整"),
    "SPEC_CAPTURE_ROUNDED_FULL_MODE": (
        "capture size 的取整移到编译配置中，只要 decode graph 是 full 就取整，FULL 模式也包括在内",
        "已确认：v0.19.0 wheel 还要求 separate_routine()；v0.20.0 至 v0.33.0 只看 decode_mode() == FULL"),
    "MRV2_SPEC_CAPTURE_ROUNDED": (
        "model runner V2 不论 graph 模式都把 capture size 向上取整到 decode 查询长度的倍数，"
        "直到 Rule.MRV2_SPEC_CAPTURE_ROUNDING_DROPPED",
        "已确认：v0.21.0 至 v0.24.0 wheel 中 CudaGraphManager.__init__ 调用 adjust_cudagraph_sizes_for_spec_decode"),
    "MRV2_SPEC_CAPTURE_ROUNDING_DROPPED": (
        "model runner V2 保留原 capture size，只对其 uniform decode graph 的 token 数取整",
        "已确认：v0.25.0 wheel 中已无该调用；v0.27.1 的编译配置引用 vllm#45953"),
    "MAX_NUM_SEQS_CAPTURE_SIZE": (
        "不开推测解码时，只要不超过上限，max_num_seqs 本身也是默认 capture size（不在 8/16 步长上的数，"
        "比如 100，会多一对 graph）",
        "已确认：v0.30.0 wheel 中没有，v0.31.0 中有"),
    "MRV2_SPEC_FALLBACK": (
        "model runner V2 尚不支持的推测解码方法让模型留在 V1 runner（用 V1 的采样器与 CUDA graph 开销，没有 V2 的采样器计数）："
        "直到 v0.30，除 EAGLE、EAGLE-3 与 MTP（以及 DFlash）外的方法都如此；draft_model 在 v0.31 改用 V2，"
        "ngram 与 ngram_gpu 在 v0.32，medusa 与 mlp_speculator 在 v0.33（suffix 仍在 V1）",
        "已确认：v0.22.0、v0.25.0、v0.28.0–v0.33.0 各 wheel 中的列表"),
    "MRV2_WITHOUT_PINNED_MEMORY": (
        "model runner V2 在没有锁页主机内存时（WSL2，除非设置 VLLM_WSL2_ENABLE_PIN_MEMORY=1）也能启动：它的 UVA 缓冲区"
        "退回到显存；此前 V2 在那里启动即失败（“RuntimeError: UVA is not available”），因此没有锁页内存的启动要么运行 "
        "V1 runner（VLLM_USE_V2_MODEL_RUNNER=0），要么打开锁页内存",
        "推断：一次 WSL2 下的 v0.30.0 启动打印“Pinned memory is not available on this platform; falling back to "
        "device memory for UVA buffers”；WSL2 下 v0.24.0（vllm#47387）、一个 v0.28.1rc1 nightly（vllm#54652）与 "
        "v0.29.0（mohitsoni48/TurboLLM#256）的默认启动都以“RuntimeError: UVA is not available”失败"),
    "NGRAM_DENSE_TOKEN_IDS": (
        "model runner V2 上的 n-gram 推测解码把每个请求的 token id 都放在 GPU 上"
        "（max_num_seqs × max_model_len × 4 B，启动时分配；否则放在主机内存）",
        "已确认：v0.32.0 wheel 的 model runner 对 ngram/ngram_gpu 设置 use_dense_all_token_ids，这是它们首次在 V2 上运行的版本"),
    "YARN_LENGTH_AS_GIVEN": (
        "YaRN RoPE（yarn、deepseek_yarn、deepseek_llama_scaling）不再放大长度：默认 max_model_len 就是给定的 "
        "max_position_embeddings；此前为 factor 乘以 YaRN 的 original_max_position_embeddings（带 factor 4、原长 32,768 "
        "的 YaRN 配置的 Qwen：此前 131,072，v0.30 起 32,768，更长的 --max-model-len 需要 VLLM_ALLOW_LONG_MAX_MODEL_LEN=1）",
        "已确认：v0.29.0 wheel 放大 YaRN 的原始长度，v0.30.0–v0.33.0 按给定值取（transformers 5.16 不改写 max_position_embeddings）"),
    "MRV2_SAMPLER_WARMUP_PASS": (
        "model runner V2 的预热用 SamplingParams.for_sampler_warmup()（temperature、top-k 50、top-p、min-p、惩罚项、logprobs）"
        "再采样一次，所以 profile 峰值里有 logits 的 fp32 副本以及 FlashInfer 的掩码 logits 与概率（Triton 回退路径原地过滤），"
        "不再只有贪心那一遍的 logits",
        "已确认：v0.33.0 wheel 的 _dummy_sampler_run 新增这一遍，v0.28.0–v0.32.0 中没有；字节数按代码推算（尚无公开的 v0.33 日志）"),
    "CUBLAS_HANDLES_BEFORE_SNAPSHOT": (
        "worker 在第一次显存快照之前执行一次 16 × 16 的 torch.mm 和带 bias 的 linear，所以 cuBLAS 与 cuBLASLt 句柄、"
        "它们的 kernel 以及 torch 的 cuBLAS 工作区都算作基线，而不是 profile 运行消耗的显存",
        "已确认：v0.33.0 wheel 的 init_device 有这几行，v0.32.0 中没有；大小（100 MiB）在 H200 上用 torch 2.11.0+cu130 "
        "实测（scripts/probe_cublas_handles.py）"),
    "MRV2_DRAFT_CAPS_MAX_LEN": (
        "在 model runner V2 上，投机解码方法 draft_model 在草稿模型的 max_model_len 更短时把 max_model_len 降到草稿模型的长度"
        "（V2 无法对更长的序列跳过投机解码）",
        "已确认：v0.33.0 wheel 新增 _limit_max_model_len_to_draft，v0.32.0 中没有"),
    "FLOAT_KV_MATCHES_MODEL": (
        "显式指定的 --kv-cache-dtype float16 或 bfloat16 必须与模型 dtype 相同（否则报 ValueError：只能用 auto 或模型自己的 dtype）",
        "已确认：v0.33.0 wheel 新增 _reject_mismatched_float_kv_cache，v0.32.0 中没有"),
    "MARLIN_ON_TURING": (
        "Marlin 的仅权重量化内核支持 Turing：FP8（Fp8Config）、NVFP4（ModelOptNvFp4Config）、awq_marlin 与 gptq_marlin 所需的计算能力从 8.0 降到 7.5，因此 T4 与 RTX 20 系列显卡可以加载 FP8 和 NVFP4 检查点，AWQ/GPTQ 也走 Marlin",
        "已确认：v0.10.0–v0.13.0 wheel 中 get_min_capability 返回 80，v0.14.0 起返回 75"),
    "MXFP4_MARLIN_FROM_SM110": (
        "MXFP4 专家层（gpt-oss）在计算能力 11.0 及以上（Thor、DGX Spark 的 GB10、RTX 50 系列、RTX PRO Blackwell）走 Marlin "
        "内核：内置的 triton_kernels 只用于 9.0 到 11.0 之间，而 Marlin 把每张 GPU 的专家中间维度按 128 而不是 64 对齐",
        "已确认：v0.12.0 wheel 内置 vllm.third_party.triton_kernels，并限定 (9, 0) <= 计算能力 < (11, 0)，直到 v0.31.0 的 "
        "fused_moe/oracle/mxfp4.py 各后端都是如此；v0.33.0 允许 Triton 内核在 12.x 上运行，但在那里把 Marlin 排在前面；"
        "v0.11 只要装了可选的 triton_kernels 包，在 9.0 及以上任何计算能力上都用它"),
    "MXFP4_TRTLLM_ON_SM100": (
        "B200（计算能力 10.0）上 MXFP4 专家层走 FlashInfer 的 TRT-LLM 内核，每张 GPU 的专家中间维度对齐到 256："
        "flashinfer-python 成为 wheel 的依赖",
        "已确认：v0.12.0 wheel 依赖 flashinfer-python（v0.11.0 只作为 'flashinfer' extra 提供），在 "
        "is_device_capability(100) 且有 flashinfer 时选择 SM100_FI_MXFP4_BF16"),
    "MXFP4_TRTLLM_ON_SM10X": (
        "FlashInfer 的 TRT-LLM MXFP4 专家内核在 gpt-oss 的顺序中排第一，并覆盖整个 10.x 系列：B300（10.3）同样对齐到 256"
        "（此前走 Triton 内核）",
        "已确认：v0.19.0–v0.33.0 wheel 中 TrtLlmMxfp4Experts._supports_current_device 检查 "
        "is_device_capability_family(100)；v0.12.0–v0.18.0 检查 is_device_capability(100)"),
    "MXFP4_MARLIN_FLAG": (
        "MXFP4 专家层改用 --moe-backend marlin 指定 Marlin：自 v0.10.1 起读取的 VLLM_MXFP4_USE_MARLIN 已移除",
        "已确认：v0.10.1–v0.23.0 wheel 的 vllm/envs.py 中有 VLLM_MXFP4_USE_MARLIN，v0.24.0 中没有，其 MoEBackend 选项包含 "
        "'marlin'（fused_moe/oracle/mxfp4.py map_mxfp4_backend）"),
    "MODELOPT_FP8_ON_AMPERE": (
        "ModelOpt FP8 检查点所需的计算能力从 8.9 降到 8.0，因此 A100 与 RTX 30 系列显卡可以加载",
        "已确认：v0.10.0–v0.26.0 wheel 中 ModelOptFp8Config.get_min_capability 返回 89，v0.27.0 起返回 80"),
    "GPTQ_MARLIN_ONLY": (
        "CUDA 上的 GPTQ 检查点一律走 Marlin 系列线性层方法（AutoGPTQ），构建时会检查 Marlin 支持：计算能力低于 7.5（V100）时，vLLM 在创建各层时就会停止，尽管 GPTQ 的启动最低要求仍是 6.0；此前在这类 GPU 上运行的是 ExLlama 内核",
        "已确认：auto_gptq.py 首次出现在 v0.22.0 wheel，其线性层方法调用 verify_marlin_supported，计算能力低于 75 时类型列表为空（utils/marlin_utils.py），直到 v0.33.0 都是如此"),
    "CT_WNA16_ON_TURING": (
        "compressed-tensors 的仅权重 int4/int8 检查点（W4A16、W8A16）所需的计算能力从 8.0 降到 7.5",
        "已确认：v0.10.0–v0.11.0 wheel 中 CompressedTensorsWNA16.get_min_capability 返回 80，v0.12.0 起返回 75"),
    "CT_FP8_ON_TURING": (
        "compressed-tensors 的 FP8 检查点在计算能力低于 8.9 时回退到仅权重的 W8A16 方案，其所需的计算能力从 8.0 降到 7.5",
        "已确认：v0.10.0–v0.15.0 wheel 中 CompressedTensorsW8A16Fp8.get_min_capability 返回 80，v0.16.0 起返回 75"),
    "DEPRECATED_QUANTIZATION_GATE": (
        "已弃用的量化方法（fbgemm_fp8 检查点，如 Llama-3.1-405B-Instruct-FP8；ptpc_fp8 直到 v0.19 移除）在启动时报错，除非指定 --allow-deprecated-quantization",
        "已确认：DEPRECATED_QUANTIZATION_METHODS 与该参数首次出现在 v0.14.0 wheel（v0.13.0 中没有）；v0.33.0 中 fbgemm_fp8 仍在列表里"),
    "BITSANDBYTES_REMOVED": (
        "bitsandbytes 不再是量化方法：bitsandbytes 检查点在启动时报错 'Unknown quantization method: bitsandbytes'",
        "已确认：v0.27.0 wheel 中还有 bitsandbytes.py 和该方法名，v0.28.0 起没有"),
    "MAMBA2_CHECKPOINT_BLOCK": (
        "Mamba 缓存模式为 'align' 时（前缀缓存，混合模型默认开启），Mamba2 层（Nemotron-H、Granite 4.0-H）为其导出的"
        "预填充检查点每个请求多保留一个状态块（MambaSpec.num_prefill_checkpoint_blocks = 1；max_memory_usage_bytes "
        "按 2 + 它计算）",
        "已确认：MambaSpec 从 v0.29.0 wheel 起有该字段，MambaMixer2 从 v0.32.0 起设置它（v0.31.0 中没有），直到 v0.33.0"),
    "GDN_CHECKPOINT_BLOCK_ALIGNMENT": (
        "Mamba 缓存模式为 'align' 时（前缀缓存，混合模型默认开启），gated-delta-net 模型（Qwen3-Next、Qwen3.5/3.6）"
        "的注意力块在 FlashInfer 执行 GDN 预填充并导出预填充中途检查点的 GPU 上（计算能力 9.0；10.x 与 12.x 上"
        "key 头宽 128 且 CUDA 13）取 64 个 token 的整数倍，且每个这样的层为每个请求多保留一个状态块",
        "已确认：get_mamba_prefill_checkpoint_alignment 与 FLASHINFER_GDN_CHECKPOINT_ALIGNMENT = 64"
        "（v1/attention/backends/gdn_attn.py；qwen_gdn_linear_attn.py _resolve_gdn_prefill_backend）在 v0.33.0 "
        "wheel 中，v0.28.0-v0.32.0 中没有"),
    "UNIFIED_MEMORY_CUDA_TOTAL": (
        "NVML 报告不了显存的设备（集成 GPU）上，vLLM 改读 CUDA 的总量，只有计算能力 12.1（GB10）保持小的批处理默认值："
        "Jetson AGX Thor 的 serve 默认为 8,192 个批处理 token、1,024 个序列（此前为 2,048 与 256）",
        "已确认：v0.32.0 wheel 让 NVMLError 抛出，get_batch_defaults 因而按 0 字节处理；v0.33.0 捕获它"
        "（pynvml.NVMLError -> CUDA total_memory）并加入 is_gb10。前提是 NVML 平台（有 nvidia-smi，显存显示 N/A），"
        "如 Jetson Thor 的 JetPack 7；没有 NVML 时 vLLM 在所有版本中都读 CUDA 的总量"),
    "DCP_BACKEND_CHECKED": (
        "后端必须声明支持 decode context parallel：FlashAttention、FlashInfer 与 MLA 后端支持；Triton、FlexAttention、"
        "ROCm 的普通注意力后端及其稀疏 MLA 不支持，因此 --decode-context-parallel-size 大于 1 时在这些情况下停止",
        "已确认：v0.29.0 wheel 中 AttentionImpl.supports_dcp 默认为 True，v0.30.0 起到 v0.33.0 默认为 False"
        "（validate_configuration 中有 'DCP not supported'）"),
    "GEMMA4_MIXED_HEADS_BY_PRIORITY": (
        "Gemma 4 的两种头大小（256 与 512）只在没有 FlashAttention 4 的 GPU 上（9.0 以下、12.x）被强制使用 TRITON_ATTN；"
        "在 9.x-11.x 上由 CUDA 优先级选择，10.x 上 FlashInfer 优先（其工作区计入 graph 估算），除非模型对图像 token "
        "做全注意力",
        "已确认：v0.19.0-v0.23.0 wheel 对超过 256 的不同头大小强制 TRITON_ATTN；v0.24.0 到 v0.33.0 在 "
        "is_fa_version_supported(4) 时设置 flash_attn_version 4，否则才强制 Triton"),
    "NVFP4_KV_FA2": (
        "nvfp4 KV 缓存也可在计算能力 8.x、9.x 与 12.x 上通过 FlashInfer 的 FA2 路径运行（头大小 64 与 attention sink "
        "除外）；此前只有 10.x 支持",
        "已确认：v0.20.0-v0.31.0 wheel 只在 10.x 系列上为 FlashInfer 列出 nvfp4；_nvfp4_kv_on_fa2 在 v0.32.0 与 v0.33.0 中"),
    "BACKEND_KV_DTYPE_LISTS": (
        "vLLM 按各注意力后端列出的缓存类型选择后端，没有后端支持所请求的类型时停止：CUDA 与 ROCm 上的 fp8_inc（Intel "
        "Gaudi 的类型）、MLA 模型的 fp8_e5m2、稠密 MLA 的 fp8_ds_mla",
        "已确认：v0.18.0、v0.20.0、v0.25.0、v0.29.0 与 v0.33.0 wheel 中没有 CUDA 或 ROCm 后端列出 fp8_inc，也没有 CUDA "
        "MLA 后端列出 fp8_e5m2（只有 ROCm 的 AITER MLA）；fp8_ds_mla 只在稀疏后端中（对 v0.31 与 v0.33 代码的审查）"),
    "MAMBA2_SPEC_SLOTS": (
        "Mamba2 层的卷积状态为每个推测 token 保留一格（kernel - 1 + n 行），与 gated delta net 一直以来相同",
        "已确认：v0.11.0-v0.16.0 wheel 的 mamba2_state_shape 与 mamba_mixer2.py 中没有 num_spec，v0.17.0 到 v0.33.0 "
        "中有（nemotron_h.py 也从 v0.17.0 起在页大小中传入）"),
    "GRANITE_HYBRID_SPEC_PAGE": (
        "Granite 4.0-H 的模型类在状态补齐到的页中计入推测 token 的格；此前从 v0.17 起其 Mamba2 层保留这些格，"
        "放不下时 vLLM 停止",
        "已确认：v0.17.0-v0.31.0 wheel 中 granitemoehybrid.py 的 get_mamba_state_shape_from_config 没有 num_spec，"
        "v0.32.0 与 v0.33.0 中有"),
    "SHORT_CONV_SPEC_SLOTS": (
        "LFM2 的卷积层为每个推测 token 保留一格状态，vLLM 把状态补齐到的页（由模型类按不含推测 token 计算）必须放得下，"
        "否则 vLLM 在断言处停止",
        "已确认：v0.18.0-v0.28.0 wheel 的 short_conv.py 中没有 num_spec，v0.29.0 到 v0.33.0 中有；lfm2.py 的 "
        "get_mamba_state_shape_from_config 在所有版本中都不传入"),
    "NEMOTRON_H_SSM_DTYPE_FROM_CONFIG": (
        "Nemotron-H 的 Mamba SSM 状态采用配置中的 mamba_ssm_cache_dtype，没有该字段时为 float16（除非给出 "
        "--mamba-ssm-cache-dtype）；此前状态与模型 dtype 相同",
        "已确认：v0.10.2-v0.12.0 wheel 中没有，v0.13.0 起有（默认 float16），直到 v0.19.0"),
    "NEMOTRON_H_SSM_FLOAT32_DEFAULT": (
        "没有 mamba_ssm_cache_dtype 的 Nemotron-H 配置把 SSM 状态保存为 float32（DEFAULT_MAMBA_SSM_CACHE_DTYPE），"
        "字节数是 float16 的两倍：Nemotron-H-56B-Base-8K 以及较早的 8B/47B",
        "已确认：v0.19.0 wheel 中为 'float16'，v0.20.0 起到 v0.33.0 为 DEFAULT_MAMBA_SSM_CACHE_DTYPE = 'float32'"),
    "ROCM_UNIFIED_ATTN_BLOCK_64": (
        "在已安装 AITER 的 MI300X/MI325X/MI355X 上，ROCM_ATTN 不接受的模型（如 gpt-oss 的 attention sink、KV "
        "connector、32-256 以外的头大小）由 ROCM_AITER_UNIFIED_ATTN 运行，它偏好 64 token 的块",
        "已确认：返回 64 的 get_preferred_block_size 在 v0.28.0 wheel 中没有，v0.29.0 到 v0.33.0 中有；优先级"
        "（没有 KV connector 时 ROCM_ATTN，VLLM_ROCM_USE_AITER=1 时 ROCM_AITER_FA，CDNA 3+ 上找到 AITER 时 "
        "ROCM_AITER_UNIFIED_ATTN，TRITON_ATTN）在 v0.28.0-v0.33.0 中相同"),
    "ROCM_SPARSE_MLA": (
        "稀疏 MLA（DeepSeek-V3.2 的 indexer 注意力）可在 ROCm 上运行，使用 AITER 的稀疏后端",
        "已确认：v0.11.0 与 v0.11.1 wheel 中没有，v0.12.0 到 v0.33.0 中有"),
    "ROCM_SPARSE_MLA_BLOCK_16": (
        "ROCm 上的稀疏 MLA（DeepSeek-V3.2、GLM-5）保持默认的 16 token 块：AITER 稀疏后端与 indexer 接受 16 的倍数；"
        "此前它们只接受 1（及 64），vLLM 因此设为 1",
        "已确认：v0.18.0-v0.20.0 wheel 中为 [1]，v0.21.0-v0.26.0 中为 [1, 64]，v0.28.0 到 v0.33.0 为 "
        "[1, MultipleOf(16)]；v0.12.0-v0.17.0 在 platforms/rocm.py 中断言块大小为 1"),
    "MM_PREFIX_COMPOSITE_BACKEND": (
        "在计算能力 10.x 上，对图像 token 做全注意力且头宽为 256 或 512 的模型（启用视觉双向注意力的 Gemma 4、"
        "Gemma 3 4B/12B）由 TRITON_FLASHINFER 组合后端运行，它唯一的 kernel 块是 64 个 token：默认块大小变为 64",
        "已确认：triton_flashinfer.py（kernel_block_sizes=(64,)，device_major=10）及其在 10.x 优先级中因 "
        "use_mm_prefix 排在首位，v0.29.0 wheel 中没有，v0.30.0 到 v0.33.0 中有"),
    "LFM2_MODEL": (
        "vLLM 支持 Liquid AI 的 LFM2（Lfm2ForCausalLM）：短卷积层的状态由混合 KV cache 管理器与注意力层的块一起保存",
        "已确认：v0.10.1 wheel 的模型注册表中没有，v0.10.2 起有（registry.py、lfm2.py），直到 v0.33.0"),
    "LFM2_MOE_MODEL": (
        "vLLM 支持 LFM2 的混合专家模型（Lfm2MoeForCausalLM，LFM2-8B-A1B）",
        "已确认：v0.11.0 wheel 的模型注册表中没有，v0.11.1 起有（registry.py、lfm2_moe.py），直到 v0.33.0"),
    "LFM2_VL_MODEL": (
        "vLLM 支持 LFM2 的视觉语言模型（Lfm2VlForConditionalGeneration，LFM2-VL）",
        "已确认：v0.13.0 wheel 的模型注册表中没有，v0.14.0 起有（registry.py、lfm2_vl.py），直到 v0.33.0"),
    "MINIMAX_LIGHTNING_REMOVED": (
        "不再支持 MiniMax-Text-01 与 MiniMax-M1（lightning attention）：这些架构会报 'was supported in vLLM until "
        "v0.23.0'",
        "已确认：v0.10.0-v0.23.0 wheel 中有 minimax_text_01.py 及其注册项，从 v0.24.0 到 v0.33.0 这些架构列在 "
        "previously supported 中"),
    "FALCON_H1_MLP_QUANTIZED": (
        "Falcon-H1 的 MLP（以及注意力层）采用检查点的量化；此前 vLLM 构建 MLP 时不带量化",
        "已确认：v0.10.0-v0.15.0 wheel 中 FalconH1MLP(config) 不带 quant_config，从 v0.16.0 起带"),
    "ZAMBA2_SPEC_PAGE": (
        "Zamba2 的模型类在其状态补齐到的页中计入推测 token 的格；此前从 v0.17 起它的 Mamba2 混合器保留这些格，放不下时 "
        "vLLM 会停止",
        "已确认：v0.17.0-v0.31.0 wheel 中 zamba2.py 的 get_mamba_state_shape_from_config 没有 num_spec，v0.32.0 与 "
        "v0.33.0 传入它"),
    "FALCON_H1_SPEC_PAGE": (
        "Falcon-H1 的模型类在其状态补齐到的页中计入推测 token 的格；此前从 v0.17 起它的 Mamba2 混合器保留这些格，"
        "放不下时 vLLM 会停止",
        "已确认：v0.17.0-v0.31.0 wheel 中 falcon_h1.py 的 get_mamba_state_shape_from_config 没有 num_spec，"
        "v0.32.0 与 v0.33.0 传入它"),
    "MAMBA_DTYPE_FLOAT16": (
        "--mamba-ssm-cache-dtype（以及 --mamba-cache-dtype）接受 float16；此前只有 auto 与 float32",
        "已确认：v0.10.0-v0.12.0 wheel 中为 Literal['auto', 'float32']，v0.13.0 加入 'float16'"),
    "MAMBA_DTYPE_BFLOAT16": (
        "--mamba-ssm-cache-dtype（以及 --mamba-cache-dtype）接受 bfloat16",
        "已确认：v0.21.0 wheel 的 MambaDType 中没有，v0.22.0 到 v0.33.0 中有"),
    "OLMO_HYBRID_MODEL": (
        "vLLM 支持 AllenAI 的 OLMo-Hybrid（OlmoHybridForCausalLM）：门控 delta net 层与注意力层并存",
        "已确认：v0.17.0 wheel 中没有，v0.18.0（registry.py、olmo_hybrid.py）到 v0.33.0 中有"),
    "KIMI_LINEAR_MODEL": (
        "vLLM 支持 Moonshot 的 Kimi Linear（KimiLinearForCausalLM）：KDA（Kimi delta attention）层的状态由混合 "
        "KV cache 管理器与 MLA 层的块一起保存",
        "已确认：v0.11.0 wheel 的模型注册表中没有，v0.11.1 起有（registry.py、kimi_linear.py），直到 v0.26.0；"
        "从 v0.27.0 起注册表改由 vllm/models/kimi_k3 提供它，缓存规格不变"),
    "HYBRID_ALIGN_FROM_BACKEND": (
        "混合模型的注意力块是注意力后端最小 kernel 块的整数倍（--block-size 更大时则是它的整数倍）；此前 "
        "HybridAttentionMambaModelConfig 不管 --block-size 取 16，MLA 取 64，只有 --block-size 已经更大时才保留它",
        "已确认：v0.11.1-v0.19.0 wheel 中 HybridAttentionMambaModelConfig.verify_and_update_config 把 "
        "kernel_block_alignment_size 设为 16 / 64（MLA；只有强制 CUTLASS_MLA 时为 128）"
        "（model_executor/models/config.py）；v0.20.0 把这一计算移到 Platform._align_hybrid_block_size"),
    "HYBRID_MLA_ALIGN_128": (
        "MLA 加状态层的混合模型（Kimi Linear）把注意力块对齐到至少 128 个 token，这是 TRT-LLM 与 FlashInfer 的 "
        "MLA 解码 kernel 所需要的",
        "已确认：v0.26.0 wheel 中没有，v0.27.0 到 v0.33.0 对 use_mla 有 'kernel_block_alignment_size = max(..., 128)'"),
    "KDA_SPEC_SLOTS": (
        "KDA 层的卷积状态为每个推测 token 多保留一格（kernel - 1 + n 行），vLLM 按模型类计算的页和层自身的状态都计入",
        "已确认：v0.23.0-v0.26.0 wheel 中 kda_state_shape 接受 num_spec 但不使用；v0.27.0 到 v0.33.0 把它加到卷积行数上，"
        "且 KimiGatedDeltaNetAttention 会传入它"),
    "KDA_SSM_DTYPE_SIZING": (
        "--mamba-ssm-cache-dtype bfloat16 让 Kimi Linear 的状态页按 16 位递归状态计算，而 KDA 层仍保留 float32"
        "（KimiGatedDeltaNetAttention.get_state_dtype），于是启动停在 MambaSpec 的 'page_size_padded >= page_size' "
        "断言；float16 会被直接拒绝。此前该参数不影响 KDA 的 float32 状态",
        "已确认：从 v0.30.0 wheel 起 kda_state_dtype 接受 mamba_ssm_cache_dtype（float32 或 bfloat16，否则 "
        "ValueError），模型类会传入它，而 kimi_gdn_linear_attn.py 不传（v0.30.0-v0.33.0）；失败的断言是读代码得出的，"
        "未在日志中见到"),
    "HYBRID_SPEC_REFUSED": (
        "除 Qwen3-Next 外，带状态层的模型在 v0.17 之前开启推测解码会停止（'Mamba with speculative decoding is not "
        "supported yet.'）",
        "已确认：v0.10.0-v0.11.0 wheel 的 V1 model runner 中有该 NotImplementedError（v0.10.0 与 v0.10.1 对所有带状态层的"
        "模型，v0.10.2 起放行 Qwen3-Next），v0.11.1-v0.16.0 wheel 的 abstract.py 中也有"),
    "HYBRID_SPEC_DECODING": (
        "所有带状态层的模型都可以使用推测解码（每个状态组为每个推测 token 多保留一个块）",
        "已确认：v0.17.0 wheel 中只针对 qwen3_next 的检查已删除"),
    "MRV2_ALL_MODELS_CG_PROFILED": (
        "所有模型改用 model runner V2，且它现在会 profile CUDA graph 显存",
        "已确认：v0.29.0 wheel（config/vllm.py use_v2_model_runner；v0.28.0 中 V2 的 profile_cudagraph_memory 返回 0）"),
    "MOE_WORKSPACE_KEPT": (
        "16 位 MoE 专家层改走模块化 fused-MoE 内核，其工作区由 worker 的 WorkspaceManager 保留到 profile 的前向之后："
        "采样器预热的峰值叠加在它们之上",
        "已确认：v0.14.0 wheel 为未量化专家层构建 mk.FusedMoEModularKernel(TritonExperts)，工作区来自 "
        "current_workspace_manager()（v1/worker/workspace.py，只增不减）；v0.13.0 调用 fused_experts，其缓存在返回时释放"),
    "DEEPSEEK_V4_MODEL": (
        "vLLM 支持 DeepSeek-V4（DeepseekV4ForCausalLM）：每层保留 128 个 token 的原始条目窗口，另有压缩 KV"
        "（每 4 或 128 个 token 一个条目）、稀疏注意力 indexer 与 float32 压缩器状态，规划为一块打包分配中的五类组",
        "已确认：v0.10.0-v0.19.0 wheel 中没有 deepseek_v4 模块；registry.py 从 v0.20.0 起注册它"),
    "DSV4_SM12X": (
        "DeepSeek-V4 可在计算能力 12.x（RTX PRO 6000、RTX 50、DGX Spark）上通过 FlashInfer 的 SM120 注意力运行，"
        "它保留 fp8_ds_mla 行格式；此前只支持 FlashMLA 的 9.0 与 10.x",
        "已确认：v0.20.0-v0.23.0 wheel 只选 FlashMLA（其后端声明 major in [9, 10]）；v0.24.0 为 12.x 加入 "
        "DeepseekV4FlashInferSM120Attention"),
    "DSV4_BLOCK_SLOTS": (
        "DeepSeek-V4 每块的字节数为：对每种页大小，页大小乘以单个组中该大小的最多层数（Flash：1,039,680 字节）；"
        "此前为层元组数乘以完整组各不同页大小之和（1,051,776）",
        "已确认：v0.20.0-v0.22.0 wheel 的 _get_kv_cache_config_deepseek_v4 用 num_layer_tuples 乘以页大小之和；"
        "v0.23.0 按页大小分桶（v0.24 起为 _get_kv_cache_config_packed）"),
    "DSV4_UNPADDED_STATE_PAGES": (
        "DeepSeek-V4 的窗口页与状态页不再填充到完整组的页大小，每块的字节数取最大组的页（Flash：1,002,240 字节），"
        "一个请求的块数按组相加；此前 32,832 字节的状态页填充到 37,440，请求按完整组的页计量",
        "已确认：v0.20.0-v0.26.0 wheel 中有这段填充循环，v0.27.0 删除（'their page sizes do not need to match'）；"
        "v0.27.0 起 block_stride 为最大组的页"),
    "DSV4_CHECK_PER_BLOCK": (
        "vLLM 的最大模型长度检查（以及 --max-model-len auto）对 DeepSeek-V4 每块按池本身的每块字节数计；此前按层元组数"
        "乘以完整组各不同页大小之和（Flash：1,051,776 字节），与池的每块字节数无关",
        "已确认：v0.20.0-v0.28.0 wheel 显存检查中的 DeepSeek-V4 分支；v0.29.0 起为通用的每块字节数规划"
        "（v0.33.0 中为 kv_cache_planning.py）"),
    "DSV4_AUTO_KV_FP8": (
        "--kv-cache-dtype auto 给 DeepSeek-V4 使用它的 fp8_ds_mla 缓存；此前 vLLM 断言 KV cache 必须是 fp8，"
        "auto 会使启动失败",
        "已确认：v0.20.0-v0.29.0 wheel 中对 auto 执行 'assert kv_cache_dtype.startswith(\"fp8\")'；"
        "v0.30.0 把 auto 映射为 fp8"),
    "DSV4_TRTLLM_ALIGN_128": (
        "FlashInfer 的 TRT-LLM MXFP4 专家（计算能力 10.x）把每张 GPU 分到的专家中间维度向上取整到 128；此前为 256"
        "（DeepSeek-V4-Pro 在 TP 8 时 384 变为 512，每张 GPU 多约 32 GiB）",
        "已确认：v0.25.0 与 v0.26.0 wheel 的取整表对 TRT-LLM 后端为 256，v0.27.0 为 128"),
    "DSV4_MTP_BUFFER_ON_DEMAND": (
        "DeepSeek-V4 只在开启推测解码时分配 MTP 隐状态缓冲区（bf16，max_num_batched_tokens x hc_mult x hidden："
        "Flash 在 8,192 token 时为 256 MiB）；此前总会分配，计入 'Model loading took'",
        "已确认：v0.25.0 与 v0.26.0 wheel 中 _mtp_hidden_buffer 无条件分配，v0.27.0 起取决于推测解码配置"),
    "DSV4_EAGER_SCRATCH": (
        "DeepSeek-V4 随模型创建一个 eager 临时缓冲池（max_num_batched_tokens x 填充后的头数 x 512 的 bf16 查询，"
        "以及一个索引缓冲区），计入 'Model loading took'",
        "已确认：v0.27.0 与 v0.28.0 wheel 的模型 __init__ 中创建 DeepseekV4EagerScratchPool"),
    "DSV4_EAGER_SCRATCH_REMOVED": (
        "DeepSeek-V4 的 eager 临时缓冲池已删除",
        "已确认：v0.29.0 与 v0.30.0 wheel 中没有 eager_scratch 模块"),
    "DSV4_SM120_DEEPGEMM_MOE": (
        "DeepSeek-V4 的 MXFP4 专家在计算能力 12.x 上改用 DeepGEMM 运行，其工作区的行数按专家向上取整；此前用 Marlin",
        "已确认：v0.23.0 与 v0.24.0 wheel 的 support_deep_gemm 不含 12.x，v0.25.0 起包含"),
    "DSV4_FLASHMLA_TOPK_WORKSPACE": (
        "FlashMLA 为 DeepSeek-V4 在 profile 时预留的空间在 prefill gather 之外加上合并后的 top-k 索引"
        "（max_num_batched_tokens x (index_topk + 128) 个 int32）",
        "已确认：v0.23.0-v0.26.0 wheel 只预留 bf16 gather"),
    "DSV4_INDEXER_AFTER_Q": (
        "DeepSeek-V4 的稀疏注意力 indexer 改在 query 投影之后运行，因此它 512 MiB 的 logits 占位在填充后的 query "
        "仍然存活时分配（峰值多约 0.1-0.3 GiB）；此前它先运行，与 query 投影在另一个 stream 上并行",
        "已确认：v0.28.0 wheel 把 indexer 移到 wq_b 之后（attention.py），v0.30.0 仍是如此"),
    "DSV4_SM120_HEADS_8": (
        "FlashInfer 的 SM120 路径在单张 GPU 的 query 头数很少（TP 8）时把 DeepSeek-V4 的头数填充到 8；此前至少填充到 16",
        "已确认：v0.25.0-v0.27.0 wheel 中填充头数为 (16, 32, 64, 128)，v0.30.0 从 8 开始"),
    "DSV4_PIPELINE_PARALLEL": (
        "DeepSeek-V4 可以使用流水线并行：它的五个组按整个模型规划，再投影到各个阶段，每个阶段用自己的每块字节数去除显存"
        "（块数最少的阶段决定结果）；此前该模型类不是 SupportsPP，vLLM 会拒绝（'Pipeline parallelism is not supported "
        "for this model'）",
        "已确认：v0.20.0 wheel 中为 class DeepseekV4ForCausalLM(nn.Module)，v0.21.0 起为 SupportsPP"
        "（v0.22 起在 vllm/models/deepseek_v4/nvidia/model.py）"),
    "DSPARK_METHOD": (
        "--speculative-config 的 method 'dspark'：DeepSeek-V4 的 DSpark 草稿模型（n_mtp_layers 或 3 个窗口层、对目标模型"
        "隐状态的融合以及一个 Markov 头），运行在 model runner V2 上",
        "已确认：v0.24.0 wheel 的 config/speculative.py 中没有 'dspark'；v0.25.0 起有 DSparkModelTypes 与 dspark.py；"
        "v0.25.0-v0.28.0 中 use_v2_model_runner 对它返回 True，v0.29.0 起 V1 拒绝它"),
    "DSPARK_MARKOV_REPLICATED": (
        "DSpark 的 Markov 头（两张 vocab x dspark_markov_rank 的 bf16 表）在每张 GPU 上完整保存，草稿模型也有自己的 top-k "
        "索引缓冲区；此前该头按 TP 切分，缓冲区共用",
        "已确认：v0.25.0 与 v0.26.0 wheel 中为 VocabParallelEmbedding / ParallelLMHead，v0.27.0 起为 nn.Embedding 与 "
        "ParallelLMHead(disable_tp=True)，dspark.py 中有 topk_indices_buffer"),
    "DSPARK_DRAFT_WORKSPACE_LANE": (
        "model runner V2 给 DSpark 草稿模型单独一条工作区通道，在目标模型的工作区之外保留草稿 query token 的 MoE kernel 工作区",
        "已确认：v0.26.0 与 v0.27.0 wheel 只有一条工作区通道，v0.28.0 起 DSpark 有两条（读代码得出；没有公开日志显示）"),
    "FP4_INDEXER_CACHE_FLAG": (
        "--attention-config 中设 use_fp4_indexer_cache 为 true，把 DeepSeek-V4 稀疏注意力 indexer 的键存为 MXFP4"
        "（仅计算能力 10.x）；v0.28 起也可写作 indexer_kv_dtype mxfp4，v0.30 只接受这种写法",
        "已确认：v0.20.0 与 v0.21.0 wheel 的 AttentionConfig 中没有，v0.22.0 起为 bool；v0.28.0 与 v0.29.0 中是 "
        "indexer_kv_dtype 的已弃用别名；v0.30.0 wheel 的 extra='forbid' 会拒绝它"),
    "FP4_INDEXER_DTYPE_KEY": (
        "MXFP4 indexer 缓存写作 --attention-config 中的 indexer_kv_dtype mxfp4（旧的 use_fp4_indexer_cache "
        "到 v0.29 为已弃用别名，v0.30 起被拒绝）",
        "已确认：v0.28.0 wheel 起 DeepSeek indexer 读取 indexer_kv_dtype（dsa_indexer_uses_fp4）"),
    "DSV4_FP4_INDEXER_PAGE": (
        "使用 MXFP4 indexer 缓存时，DeepSeek-V4 indexer 的键每 token 占 68 字节（64 个打包值加每 32 个一个缩放）：页为 "
        "4,608 字节，而 fp8 键为 8,640；此前 vLLM 仍按 fp8 的大小分配（'allocate the same amount of memory as FP8'）",
        "已确认：v0.22.0-v0.26.0 wheel 中开启该项时每 token 132 字节，v0.27.0 起为 68"),
    "EXTENSIBLE_KV_CACHE": (
        "可扩展 KV 缓存，在 CUDA 与 ROCm 上默认开启：profile 只预留地址空间（'Available KV cache memory'，不扣 CUDA 图估计，"
        "未设置时 gpu_memory_utilization 取 1.0）；预热与 CUDA 图捕获之后，缓存池取当时的空闲显存，减去最大的瞬时峰值和 "
        "max(1 GiB（ROCm 为 3 GiB）, 0.75 x 该峰值) 的余量，按每层 2 MiB 粒度提交（--no-enable-extensible-kv-cache、"
        "--kv-cache-memory-bytes、--num-gpu-blocks-override、没有 IMEX 通道的 NIXL 连接器，或驱动不支持虚拟内存管理时"
        "（WSL2）关闭）",
        "已确认：v0.33.0 wheel 中没有，v0.34.0 中有（config/cache.py、config/vllm.py _resolve_extensible_kv_cache、"
        "v1/worker/gpu_worker.py、v1/core/kv_cache_planning.py finalize_extensible_kv_cache）；大小按代码推算，尚无公开的 v0.34 日志"),
    "DEFAULT_BLOCK_SIZE_64": (
        "默认块大小为 64 个 token（此前 16）：FlashAttention、FlashInfer、Triton 以及接受它的 MLA 后端（FLASH_ATTN_MLA、"
        "Triton MLA、FlashInfer MLA 的 32、ROCm 的稀疏 MLA）都用 64，混合模型的注意力块因此是 64 的倍数；ROCM_ATTN 保持 16"
        "（get_preferred_block_size），而 RDNA 3 与 4（gfx1100、gfx1201）现在只在 fp8_e5m2 缓存时使用它，其余情况先用 TRITON_ATTN",
        "已确认：v0.33.0 wheel 中 DEFAULT_BLOCK_SIZE = 16，v0.34.0 中为 64（rocm_attn.py 偏好 16；platforms/rocm.py 在 "
        "gfx1100/gfx1201 上把 TRITON_ATTN 调到前面）"),
    "MODEL_RUNNER_V1_REMOVED": (
        "model runner V2 成为唯一的 runner：VLLM_USE_V2_MODEL_RUNNER=0 会使启动失败；suffix 解码在 V2 上运行，"
        "V2 为它把每个请求的 token id 存在 GPU 上（与 n-gram 相同）",
        "已确认：v0.34.0 wheel 中没有 v1/worker/gpu_model_runner.py；suffix 推测器的配置设置了 prefer_dense_token_history"
        "（v1/worker/gpu/spec_decode/suffix/config.py）"),
    "AUTO_FIT_REDUCED_LINE": (
        "--max-model-len auto 缩短长度时打印 '--max-model-len auto reduced max_model_len from A to B (X GiB GPU available "
        "for the KV cache).'（低于 8,192 token 时为警告）；开启可扩展 KV 缓存时长度拟合两次：预热前（暂定）与预热后",
        "已确认：v0.33.0 wheel 中为 'Auto-fit max_model_len: reduced from …'，v0.34.0 为新写法"),
    "DSPARK_SKIPS_MTP_BUFFER": (
        "使用 DSpark 草稿模型时，DeepSeek-V4 不再分配 MTP 隐状态缓冲区（max_num_batched_tokens x hc_mult x hidden，bf16："
        "Flash 在 8,192 token 时为 256 MiB）：DSpark 从目标模型的辅助隐状态起草；MTP 与 EAGLE 仍需要它",
        "已确认：v0.33.0 wheel 对所有 eagle 类方法（包括 DSpark）都分配（nvidia/model.py needs_mtp_hidden_states）；"
        "v0.34.0 排除了 use_dspark()"),
    "SPARSE_INDEXER_DECODE_PLACEHOLDER": (
        "稀疏注意力 indexer 的 profile 占位（DeepSeek-V3.2、GLM-5、DeepSeek-V4）也覆盖 decode logits：max(512 MiB, "
        "min(max_num_seqs, max_num_batched_tokens) x (1 + 推测 token 数) x indexer 的 max_model_len（按 256 取整，10.x 上"
        "按 768）x 4 B)；在 10.x 上 top-k 为 512、1,024 或 2,048 时，decode 行按 2 GiB 分块"
        "（VLLM_SPARSE_INDEXER_MAX_DECODE_LOGITS_MB）",
        "已确认：v0.33.0 wheel 中为固定的 VLLM_SPARSE_INDEXER_MAX_LOGITS_MB（512 MiB），v0.34.0 加入 decode 项；"
        "读代码得出，尚无公开的 v0.34 日志"),
    "SM100_SPLIT_CAPTURE_SIZES": (
        "在计算能力 10.x（B200、B300、GB200、GB300）上，未给出 capture size 时 prefill 与 decode 的 CUDA graph 各有自己的"
        "网格：piecewise graph 取 token 网格，最大 min(8,192, max_num_batched_tokens)（8,192 时 54 个），full decode "
        "graph 取请求数网格，最大 max_num_seqs（1,024 时 64 个）；其他 GPU 仍用共同的 size 列表",
        "已确认：v0.33.0 wheel 中没有（10.x 上一个列表，最大 1,024），v0.34.0 中有（prefill_cudagraph_capture_grid、"
        "decode_cudagraph_capture_grid）；尚无公开的 v0.34 日志"),
    "KEYE_REMOVED": (
        "不再支持 Keye-VL（KeyeForConditionalGeneration、KeyeVL1_5ForConditionalGeneration）：vLLM 会以 "
        "'was supported in vLLM until v0.33.0' 停止",
        "已确认：v0.33.0 wheel 中已注册，v0.34.0 中列为曾经支持（0.33.0）"),
    "RICURSIVE_MODEL": (
        "Ricursive（RicursiveForCausalLM）：滑动窗口层（默认 1,024 token），未给出 layer_types 时每第五层为全注意力，"
        "另有与 query 同宽的输出门",
        "已确认：v0.33.0 wheel 的注册表中没有，v0.34.0 中有（transformers_utils/configs/ricursive.py）"),
    "MXFP4_TRITON_ON_SM110": (
        "Triton 的 MXFP4 专家 kernel 可在计算能力 13.0 以下运行，且排在 Marlin 之前，因此 Jetson Thor（11.0）把每张 GPU "
        "的专家中间维度补齐到 64，而不是 Marlin 的 128（12.x 仍以 Marlin 为先）",
        "已确认：v0.31.0 wheel 中为 (9, 0) <= 计算能力 < (11, 0)，v0.32.0 与 v0.33.0 中为 < (13, 0)，其 oracle/mxfp4.py "
        "只在 12.x 系列上把 Triton 排到 Marlin 之后"),
    "MXFP4_MARLIN_FIRST_ON_SM110": (
        "Jetson Thor（11.x）再次把 Marlin 排在 Triton 的 MXFP4 kernel 之前，与 12.x 相同（专家补齐到 128 列）",
        "已确认：v0.34.0 wheel 在 120 之外加入 is_device_capability_family(110)（'Jetson Thor (SM110): MARLIN stays the "
        "default as it has not been benchmarked'）"),
    "MARLIN_INPUT_DTYPE_REMOVED": (
        "移除 VLLM_MARLIN_INPUT_DTYPE（Marlin 的 8 位激活）：设置它会使启动失败",
        "已确认：v0.33.0 wheel 的 envs.py 读取它，v0.34.0 把它列入 removed_environment_variables"),
    "SUFFIX_DEFAULT_TOKENS_8": (
        "未给出 num_speculative_tokens 时，suffix 解码每步起草 min(8, suffix_decoding_max_tree_depth) 个 token，默认 8"
        "（此前为树深度 24），它决定 CUDA graph 所依据的 decode query 长度",
        "已确认：v0.33.0 wheel 把 num_speculative_tokens 设为 suffix_decoding_max_tree_depth（config/speculative.py:1735），"
        "v0.34.0 设为 min(8, 该值)"),
    "FP_QUANT_REMOVED": (
        "不再提供 fp_quant 量化方式（FP-Quant 的 MXFP4/NVFP4 检查点）：vLLM 会以 'Unknown quantization method' 停止",
        "已确认：v0.33.0 wheel 的 QuantizationMethods 中有 'fp_quant'，v0.34.0 中没有（新增 w4afp8、lut_b_moe 与 "
        "mxfp4_hadamard32）"),
}
"""The rule table's "what" and "basis" in Chinese, for the page (messages.py)."""

register({f"rule.{r.name}.{part}": (getattr(r.value, part), zh[i])
          for r in Rule for i, part in enumerate(("what", "basis")) for zh in [_RULES_ZH[r.name]]})


def rules_table() -> list[dict[str, str]]:
    """The whole table as plain data, for the page's method section and the CLI."""
    return [
        {"rule": r.name, "since": str(r.value.since), "pr": r.value.pr,
         "source": r.value.source, "what": Text(f"rule.{r.name}.what"),
         "basis": Text(f"rule.{r.name}.basis")}
        for r in sorted(Rule, key=lambda r: r.value.since)
    ]
