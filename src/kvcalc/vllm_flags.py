"""The ``vllm serve`` flags kvcalc has no option for, sorted by what they do to the KV cache, so a
serve line pasted into the CLI either works or says precisely why not.

Flags that leave GPU memory alone (networking, parsers, logging, the tokenizer), or move it by less
than the estimate's band (a forced linear kernel), are ignored with a note; flags that change what
vLLM sizes but that kvcalc does not model are refused with the reason,
since answering without them would print a pool vLLM will not build. Names as in
``vllm/engine/arg_utils.py`` and ``vllm/entrypoints/openai/cli_args.py`` (v0.10 to v0.34).
"""

from __future__ import annotations

import re
from typing import Any, Callable

from . import textdepth
from .messages import Text

_OPT_LEVEL = re.compile(r"-O(?:[0-3]|\..*)?")

SPEC_SHORTHAND = {"--spec-method": "method", "--spec-model": "model", "--spec-tokens": "num_speculative_tokens"}
"""vLLM's shorthand for --speculative-config keys (v0.22+, vllm/engine/arg_utils.py
create_speculative_config); the CLI and a pasted command read them alike."""


COMPILATION_KEYS = ("cudagraph_mode", "cudagraph_capture_sizes", "max_cudagraph_capture_size")
"""The keys of vLLM's compilation config (--compilation-config / -O as JSON, or dotted
-O.cudagraph_mode=… up to v0.11, -cc.cudagraph_mode=… from v0.12, --compilation-config.cudagraph_mode=… in
every release) that kvcalc reads: each is one of its settings."""

ATTENTION_KEYS = {"backend": "attention_backend", "use_fp4_indexer_cache": "fp4_indexer_cache",
                  "indexer_kv_dtype": "fp4_indexer_cache"}
"""The keys of vLLM's attention config (--attention-config as JSON, or dotted
--attention-config.backend, v0.13+: vllm/config/attention.py) that kvcalc reads, with the setting
each gives: the MXFP4 indexer cache as ``use_fp4_indexer_cache`` (v0.22-v0.29) or ``indexer_kv_dtype``
"mxfp4" (v0.28+; another dtype is the fp8 default for DeepSeek-V4)."""


def attention_value(key: str, value: Any) -> Any:
    """The setting an attention-config key's value gives: ``indexer_kv_dtype`` names a dtype, whose
    "mxfp4" is the MXFP4 indexer cache; other keys as written (the core names a bad one)."""
    if key == "indexer_kv_dtype":
        return isinstance(value, str) and value.strip().lower() == "mxfp4"
    return value

_CONFIG_FLAGS = {"--compilation-config": "compilation", "-cc": "compilation", "-O": "compilation",
                 "--attention-config": "attention", "-ac": "attention"}
"""The config flags by the config they set: -cc is the compilation config's short name from v0.12
(vllm/engine/arg_utils.py), where -O became the optimization level; -O up to v0.11; -ac the attention
config's short name."""


LEVELS = ("0", "1", "2", "3")
"""The optimization levels (-O0 … -O3, Rule.OPTIMIZATION_LEVELS) as a serve line writes them."""
_LEVEL_FLAG = re.compile(r"-O=?([0-3])")


_FLAG_NAME = re.compile(r"(?<=--)[^.]*")
"""The part of a --flag's name vLLM's parser rewrites: from the dashes to the first dot (a dotted
config key after it keeps its underscores)."""


def as_vllm_parses(tokens: list[str]) -> list[str]:
    """The serve-line tokens as vLLM's own parser rewrites them before reading them
    (FlexibleArgumentParser.parse_args: vllm/utils/__init__.py up to v0.11, vllm/utils/argparse_utils.py
    from v0.12): underscores in a --flag's name become dashes (--max_model_len is --max-model-len), and
    an optimization level is spelled --optimization-level N (-O3, -O=1, -O 2: v0.12+; up to v0.11 the
    same spellings set the compilation level, of which kvcalc reads the default 3: settings.resolve)."""
    out: list[str] = []
    for i, token in enumerate(tokens):
        if token.startswith("--"):
            name, eq, value = token.partition("=")
            out.append(_FLAG_NAME.sub(lambda m: m.group(0).replace("_", "-"), name, count=1) + eq + value)
            continue
        m = _LEVEL_FLAG.fullmatch(token)
        if m:
            out += ["--optimization-level", m.group(1)]
        elif token == "-O" and i + 1 < len(tokens) and tokens[i + 1] in LEVELS:
            out.append("--optimization-level")
        else:
            out.append(token)
    return out


def config_flag(flag: str) -> tuple[str, str] | None:
    """For a serve-line flag (without its ``=value``), the config it sets ("compilation" for
    --compilation-config, -cc and -O, "attention" for --attention-config) and the key a dotted form names
    (``-O.cudagraph_mode`` -> "cudagraph_mode"; "" for the whole config as JSON), or None for any
    other flag (an optimization level -O3 included)."""
    base, dot, key = flag.partition(".")
    which = _CONFIG_FLAGS.get(base)
    if which is None:
        return None
    return which, key.replace("-", "_") if dot else ""


def dotted_value(value: str | None) -> Any:
    """The value of a dotted config flag (-O.max_cudagraph_capture_size=512,
    --compilation-config.cudagraph_capture_sizes '[1,2,4]', --attention-config.backend FLASHINFER):
    JSON where it is, else the text."""
    try:
        return textdepth.loads(value) if value is not None else None
    except ValueError:
        return value


DOTTED_JSON = {"--hf-overrides": "hf_overrides", "--limit-mm-per-prompt": "limit_mm_per_prompt",
               "--mm-processor-kwargs": "mm_processor_kwargs"}
"""JSON flags kvcalc reads whole that vLLM's parser also takes key by key (``--limit-mm-per-prompt.video 0``):
FlexibleArgumentParser.parse_args gathers every ``--FLAG.KEY value`` into one JSON it appends as ``--FLAG``,
so the keys replace a JSON given whole (argparse keeps the last); the speculative, compilation, attention
and KV-transfer configs have their own readers."""


def dotted_json(flag: str) -> tuple[str, list[str]] | None:
    """(the setting, the key path) of a JSON flag given key by key (DOTTED_JSON), else None."""
    base, dot, keys = flag.partition(".")
    return (DOTTED_JSON[base], keys.split(".")) if dot and keys and base in DOTTED_JSON else None


def nest_dotted(into: dict[str, Any], keys: list[str], value: Any) -> None:
    """Put ``value`` at the path ``keys`` of ``into``, as vLLM's parser builds a JSON argument from its
    dotted keys (--hf-overrides.text_config.num_hidden_layers 2 -> {"text_config": {"num_hidden_layers":
    2}}: FlexibleArgumentParser.parse_args, create_nested_dict and recursive_dict_update)."""
    for key in keys[:-1]:
        if not isinstance(into.get(key), dict):
            into[key] = {}
        into = into[key]
    into[keys[-1]] = value


def read_config(which: str, value: Any) -> tuple[dict[str, Any], Text | None]:
    """The settings a compilation or attention config gives (values as written: the core names a
    bad one), and why the rest cannot be read (None where nothing is left): a key kvcalc does not
    model changes what vLLM compiles, captures or runs in ways it does not size, and text that is no
    JSON object says nothing it can read (a level after -O is --optimization-level: as_vllm_parses)."""
    unreadable = Text("flags.compilation") if which == "compilation" else Text("flags.attention_config_json")
    if isinstance(value, str):
        try:
            value = textdepth.loads(value)
        except ValueError:
            return {}, unreadable
    if not isinstance(value, dict):
        return {}, unreadable
    if which == "attention":
        read = {ATTENTION_KEYS[k]: attention_value(k, v) for k, v in value.items() if k in ATTENTION_KEYS}
        rest = [str(k) for k in value if k not in ATTENTION_KEYS]
        return read, (Text("flags.attention_config", keys=", ".join(rest[:8])) if rest else None)
    read = {k: v.strip().upper() if k == "cudagraph_mode" and isinstance(v, str) else v
            for k, v in value.items() if k in COMPILATION_KEYS}
    rest = [str(k) for k in value if k not in COMPILATION_KEYS]
    return read, (Text("flags.compilation_keys", keys=", ".join(rest[:8])) if rest else None)


def moe_backend_marlin(value: object) -> bool:
    """Whether ``--moe-backend`` (v0.24+, vllm/config/kernel.py) asks for Marlin: the one MoE kernel
    choice kvcalc sizes (MXFP4 experts' padding, Settings.mxfp4_marlin); any other keeps the
    release's own choice."""
    return str(value).lower() == "marlin"


WITHOUT_MEMORY = frozenset({
    # the API server
    "--host", "--port", "--uds", "--uvicorn-log-level", "--disable-uvicorn-access-log", "--allow-credentials",
    "--allowed-origins", "--allowed-methods", "--allowed-headers", "--api-key", "--ssl-keyfile",
    "--ssl-certfile", "--ssl-ca-certs", "--ssl-cert-reqs", "--root-path", "--middleware",
    "--enable-ssl-refresh", "--disable-fastapi-docs", "--enable-request-id-headers",
    "--enable-server-load-tracking", "--enable-force-include-usage", "--enable-prompt-tokens-details",
    "--disable-frontend-multiprocessing", "--api-server-count", "-asc", "--headless",
    # what the server answers with
    "--served-model-name", "--chat-template", "--chat-template-content-format", "--response-role",
    "--enable-auto-tool-choice", "--tool-call-parser", "--tool-parser-plugin", "--reasoning-parser",
    "--return-tokens-as-token-ids", "--max-logprobs", "--generation-config", "--override-generation-config",
    "--guided-decoding-backend", "--structured-outputs-config", "--logits-processors",
    "--default-chat-template-kwargs", "--enable-log-outputs", "--reasoning-parser-plugin", "--stream-interval",
    # logging and metrics
    "--disable-log-stats", "--disable-log-requests", "--enable-log-requests", "--max-log-len",
    "--otlp-traces-endpoint", "--collect-detailed-traces", "--kv-events-config", "--enable-mfu-metrics",
    "--kv-cache-metrics",
    # kernel choices kvcalc sizes as the release's own (linear layers; a MoE backend other than Marlin):
    # public v0.29 probes (akamaslabs/vllm-benchmark studies 24, 28 and 30) show a forced --linear-backend
    # moving Qwen3-8B FP8's weights by up to 0.14 GiB (8.80 GiB with Cutlass or Triton, 8.88 with DeepGEMM,
    # 8.94 with Marlin) and Gemma-4-26B-A4B FP8's non-torch memory by 0.3 GiB (Cutlass), inside the band
    "--linear-backend", "--moe-backend",
    # reading the checkpoint
    "--trust-remote-code", "--tokenizer", "--tokenizer-mode", "--tokenizer-revision", "--revision",
    "--code-revision", "--download-dir", "--hf-token", "--ignore-patterns",
    "--safetensors-load-strategy", "--model-loader-extra-config", "--config-format", "--seed",
    # scheduling that leaves the batch limits and the cache alone
    "--scheduling-policy", "--long-prefill-token-threshold", "--max-num-partial-prefills",
    "--max-long-partial-prefills", "--prefix-caching-hash-algo", "--distributed-executor-backend",
    "--worker-extension-cls", "--swap-space",
    # where the data-parallel engines run (--data-parallel-size itself is a setting)
    "--data-parallel-size-local", "-dpl", "--data-parallel-backend", "-dpb", "--data-parallel-address", "-dpa",
    "--data-parallel-rpc-port", "-dpp", "--data-parallel-start-rank", "-dpr", "--data-parallel-rank", "-dpn",
    "--data-parallel-hybrid-lb", "-dph", "--data-parallel-external-lb", "-dpe",
    "--data-parallel-multi-port-external-lb", "-dpm",
    # the front end, logging, metrics and tracing of later releases
    "--aggregate-engine-logging", "--allowed-local-media-path", "--allowed-media-domains",
    "--anthropic-disabled-thinking-effort", "--cohere-format", "--cohere-is-reasoning-model",
    "--custom-histogram-buckets", "--cudagraph-metrics", "--disable-access-log-for-endpoints",
    "--enable-layerwise-nvtx-tracing", "--enable-log-deltas", "--enable-logging-iteration-details",
    "--enable-offline-docs", "--enable-per-request-metrics", "--enable-tokenizer-info-endpoint",
    "--exclude-tools-when-tool-choice-none", "--fingerprint-mode", "--fingerprint-value", "--grpc", "--grpc-port",
    "--h11-max-header-count", "--h11-max-incomplete-event-size", "--interleave-mm-strings", "--io-processor-plugin",
    "--jit-monitor-mode", "--jit-monitor-verbose", "--kv-cache-metrics-sample", "--log-config-file",
    "--log-error-stack", "--log-level", "--logging-config", "--logits-processor-pattern", "--logprobs-mode",
    "--per-request-spec-decode-metrics", "--profiler-config", "--ray-workers-use-nsight", "--reasoning-config",
    "--reasoning-effort-map", "--renderer-num-workers", "--show-hidden-metrics-for-version", "--shutdown-timeout",
    "--skip-tokenizer-init", "--sse-keep-alive-interval", "--ssl-ciphers", "--tokens-only", "--tool-server",
    "--tool-strict-level", "--trust-request-chat-template", "--trust-request-mm-kwargs", "--use-tqdm-on-load",
    "--watchdog-config", "--version", "-v", "--enable-flash-late-interaction", "--fail-on-environ-validation", "--guided-decoding-disable-additional-properties",
    "--guided-decoding-disable-any-whitespace", "--guided-decoding-disable-fallback",
    "--calculate-kv-scales", "--allow-deprecated-quantization", "--hf-config-path", "--additional-config",
    # the front end's multimodal processing on the host (its cache is host memory)
    "--media-io-kwargs", "--mm-hasher-algorithm", "--mm-processor-cache-gb", "--mm-processor-cache-type",
    "--mm-shm-cache-max-object-size-mb", "--mm-tensor-ipc", "--disable-mm-preprocessor-cache",
    "--mm-device-do-normalize", "--enable-mm-embeds", "--disable-chunked-mm-input", "--enable-shm-tensor-arena",
    # loading, placement and timeouts: where the processes run, not what they keep on a GPU
    "--max-parallel-loading-workers", "--safetensors-prefetch-block-size", "--safetensors-prefetch-num-threads",
    "--pt-load-map-location", "--nnodes", "-n", "--node-rank", "-r", "--master-addr", "--master-port",
    "--device-ids", "--numa-bind", "--numa-bind-cpus", "--numa-bind-nodes", "--distributed-timeout-seconds",
    "--cpu-distributed-timeout-seconds", "--data-parallel-supervisor-port", "--dp-supervisor-probe-failure-threshold",
    "--dp-supervisor-probe-interval-s", "--dp-supervisor-probe-timeout-s", "--dp-sync-interval",
    "--disable-nccl-for-dp-synchronization", "--enable-fault-tolerance", "--fault-tolerance-config",
    "--enable-scale-out",
    # admission and scheduling within the batch limits vLLM sizes (--max-num-active-seqs admits fewer requests
    # than --max-num-seqs, which still sizes the runner; the watermark keeps free blocks at admission)
    "--max-num-active-seqs", "--max-num-queued-reqs", "--max-num-queued-tokens", "--max-num-scheduled-tokens",
    "--long-prefill-token-threshold-adaptive", "--scheduler-reserve-full-isl", "--prefill-schedule-interval",
    "--scheduler-cls", "--watermark", "--prefix-match-unit", "--prefix-cache-retention-interval",
    "--preemption-mode", "--scheduler-delay-factor", "--num-scheduler-steps", "--num-lookahead-slots",
    "--multi-step-stream-outputs", "--disable-async-output-proc", "--override-neuron-config",
    # kernel choices (as --linear-backend) and cascade attention (a run-time path for shared prefixes, later
    # removed); v0.10's --max-seq-len-to-capture bounds CUDA graphs, whose memory vLLM deducts only from v0.20
    "--mamba-backend", "--mamba-ssu-algorithm", "--gdn-prefill-backend", "--kda-decode-backend",
    "--kda-prefill-backend", "--sparse-indexer-topk-backend", "--mm-encoder-attn-backend", "--kernel-config",
    "--ir-op-priority", "--enable-flashinfer-autotune", "--enable-bf16x3-router-gemm", "--disable-cascade-attn",
    "--enable-mamba-cache-stochastic-rounding", "--mamba-cache-philox-rounds", "--max-seq-len-to-capture",
    "--dcp-comm-backend", "--dcp-q-replicate", "--use-gpu-for-pooling-score",
    # settings that only act with a feature kvcalc refuses by its own flag (--enable-lora, --enable-eplb,
    # --enable-dbo, data parallelism with experts: --all2all-backend), or that leave the first GPU's share of
    # expert-parallel experts as it is (--expert-placement-strategy: linear and round-robin both give rank 0
    # ceil(E / EP) experts): alone they change nothing
    "--lora-dtype", "--lora-extra-vocab-size", "--lora-target-modules", "--max-cpu-loras", "--max-lora-cls-labels",
    "--fully-sharded-loras", "--enable-lora-bias", "--default-mm-loras", "--enable-mixed-moe-lora-format",
    "--enable-moe-shared-loras", "--enable-tower-connector-lora", "--specialize-active-lora", "--all2all-backend",
    "--eplb-config", "--eplb-window-size", "--eplb-step-interval", "--eplb-log-balancedness",
    "--expert-placement-strategy", "--enable-ep-weight-filter", "--num-redundant-experts",
    "--dbo-decode-token-threshold", "--dbo-prefill-token-threshold", "--mm-encoder-fp8-scale-path",
    "--mm-encoder-fp8-scale-save-path", "--mm-encoder-fp8-scale-save-margin",
    # v0.34: admission of requests by the prefix cache's state (the scheduler's, within the batch limits), KV
    # connector loads in flight, a CUDA checkpoint taken at start-up, the order safetensors files load in, the
    # headless client's handshake address
    "--cache-aware-admission-threshold", "--cache-aware-admission-window", "--max-num-inflight-kv-loads",
    "--checkpoint-prepare-on-startup", "--shuffle-safetensors-files", "--headless-client-handshake-address",
})
"""Flags that do not change what vLLM sizes on the GPU (--swap-space is host memory for the V0
engine's swapped blocks), or by less than the estimate's band (a forced --linear-backend)."""

ENV_WITHOUT_MEMORY = frozenset({
    "VLLM_MARLIN_INPUT_DTYPE",      # Marlin's 8-bit activations, up to v0.33 (commandline.REMOVED_ENVIRONMENT)
    "VLLM_LOGGING_LEVEL", "VLLM_CONFIGURE_LOGGING", "VLLM_LOGGING_CONFIG_PATH", "VLLM_LOGGING_PREFIX",
    "VLLM_LOG_STATS_INTERVAL", "VLLM_HOST_IP", "VLLM_PORT", "VLLM_API_KEY", "VLLM_USE_MODELSCOPE",
    "VLLM_NO_USAGE_STATS", "VLLM_DO_NOT_TRACK", "VLLM_RPC_TIMEOUT", "VLLM_ENGINE_ITERATION_TIMEOUT_S",
    "VLLM_HTTP_TIMEOUT_KEEP_ALIVE", "VLLM_SERVER_DEV_MODE", "VLLM_CACHE_ROOT", "VLLM_CONFIG_ROOT",
    "VLLM_ASSETS_CACHE", "VLLM_WORKER_MULTIPROC_METHOD", "VLLM_ENABLE_V1_MULTIPROCESSING",
    "VLLM_ALLOW_RUNTIME_LORA_UPDATING", "VLLM_DEBUG_LOG_API_SERVER_RESPONSE", "VLLM_KEEP_ALIVE_ON_ENGINE_DEATH",
    "VLLM_TRACE_FUNCTION", "VLLM_USE_RAY_COMPILED_DAG", "VLLM_MEDIA_LOADING_THREAD_COUNT",
    "VLLM_IMAGE_FETCH_TIMEOUT", "VLLM_VIDEO_FETCH_TIMEOUT", "VLLM_AUDIO_FETCH_TIMEOUT",
    "VLLM_TORCH_PROFILER_DIR", "VLLM_ENABLE_CUDA_COMPATIBILITY", "VLLM_WSL2_ENABLE_PIN_MEMORY",
    "NCCL_DEBUG", "NCCL_DEBUG_SUBSYS", "NCCL_SOCKET_IFNAME", "NCCL_IB_HCA", "NCCL_IB_GID_INDEX",
})
"""vLLM's (and NCCL's) environment variables that leave what vLLM sizes alone: logging, networking,
caches on disk, process start, timeouts; VLLM_WSL2_ENABLE_PIN_MEMORY=1 gives pinned host memory,
kvcalc's default. Other VLLM_*, NCCL_* and PYTORCH_CUDA_ALLOC_CONF assignments kvcalc does not read
are named as unknown (they may change memory: the FlashInfer workspace's size, NCCL's buffers, the
allocator's segments); the rest of the environment (HF_TOKEN, CUDA_VISIBLE_DEVICES …) is not vLLM's."""


def sort_environment(env: dict[str, str], read: set[str]) -> tuple[list[str], list[str]]:
    """The environment assignments kvcalc did not ``read``, as (ignored, unknown): see ENV_WITHOUT_MEMORY."""
    ignored: list[str] = []
    unknown: list[str] = []
    for var in env:
        if var in read:
            continue
        if var in ENV_WITHOUT_MEMORY:
            ignored.append(var)
        elif var.startswith(("VLLM_", "NCCL_")) or var == "PYTORCH_CUDA_ALLOC_CONF":
            unknown.append(var)
    return ignored, unknown


NOT_MODELLED = {
    "--enable-eplb": Text("flags.expert_parallel"),
    "--enable-lora": Text("flags.lora"),
    "--max-loras": Text("flags.lora"),
    "--max-lora-rank": Text("flags.lora"),
    "--lora-modules": Text("flags.lora"),
    "--kv-offloading-size": Text("flags.kv_connector"),
    "--compilation-config": Text("flags.compilation"),
    "-O": Text("flags.compilation"),
    "--enable-sleep-mode": Text("flags.sleep_mode"),
    "--enable-cumem-allocator": Text("flags.sleep_mode"),
    "--sleep-mode-backend": Text("flags.sleep_mode"),
    "--sleep-mode-offload-cudagraph": Text("flags.sleep_mode"),
    "--sleep-preserve-parameter-names": Text("flags.sleep_mode"),
    "--enable-nccl-comm-suspend": Text("flags.sleep_mode"),
    "--kv-offloading-backend": Text("flags.kv_connector"),
    "--ec-transfer-config": Text("flags.kv_connector"),
    "--ec-manager-config": Text("flags.kv_connector"),
    "--enable-elastic-ep": Text("flags.expert_parallel"),
    "--elastic-ep-max-dp-size": Text("flags.expert_parallel"),
    "--enable-multimodal-encoder-data-parallel": Text("flags.encoder_tp_mode"),
    "--config": Text("flags.config_file"),
    "--kv-cache-dtype-skip-layers": Text("flags.kv_skip_layers"),
    "--mamba-cache-dtype": Text("flags.state_cache"),
    "--mamba-block-size": Text("flags.state_cache"),
    "--mamba-cache-mode": Text("flags.state_cache"),
    "--use-replayssm": Text("flags.state_cache"),
    "--replayssm-buffer-len": Text("flags.state_cache"),
    "--enable-mamba-shared-prefix-checkpoint": Text("flags.state_cache"),
    "--enable-mamba-fine-grained-prefix-cache": Text("flags.state_cache"),
    "--swa-bounded-replay": Text("flags.state_cache"),
    "--enable-dbo": Text("flags.microbatching"),
    "--offload-backend": Text("flags.weight_offload"),
    "--offload-group-size": Text("flags.weight_offload"),
    "--offload-num-in-group": Text("flags.weight_offload"),
    "--offload-params": Text("flags.weight_offload"),
    "--offload-prefetch-step": Text("flags.weight_offload"),
    "--cpu-offload-params": Text("flags.weight_offload"),
    "--mm-encoder-only": Text("flags.multimodal_profile"),
    "--video-pruning-method": Text("flags.multimodal_profile"),
    "--use-fp64-gumbel": Text("flags.sampler"),
    "--enable-batch-sharded-sampling": Text("flags.sampler"),
    "--return-sampling-mask": Text("flags.sampler"),
    "--enable-trace-replay": Text("flags.sampler"),
    "--pooler-config": Text("flags.pooling"),
    "--override-pooler-config": Text("flags.pooling"),
    "--rope-scaling": Text("flags.rope_override"),
    "--rope-theta": Text("flags.rope_override"),
    "--quantization-config": Text("flags.quantization_config"),
    "--diffusion-config": Text("flags.not_sized"),
    "-dc": Text("flags.not_sized"),
    "--engram-config": Text("flags.not_sized"),
    "--weight-transfer-config": Text("flags.not_sized"),
    "--model-class-overrides": Text("flags.not_sized"),
    "--worker-cls": Text("flags.not_sized"),
    "--monokernel": Text("flags.not_sized"),
    "--enable-return-routed-experts": Text("flags.not_sized"),
    "--aux-output-config": Text("flags.not_sized"),
    "--override-attention-dtype": Text("flags.not_sized"),
    "--kv-sharing-fast-prefill": Text("flags.not_sized"),
    "--enable-hc-sp": Text("flags.not_sized"),
    "--watermark-config": Text("flags.not_sized"),
    "--enable-prompt-embeds": Text("flags.not_sized"),
}
"""Flags that change the memory vLLM sizes but that kvcalc does not model, with the reason."""

BY_VALUE = {
    "--dtype": (("auto", "half", "float16", "bfloat16", "bf16", "fp16"), Text("flags.dtype")),
    "--load-format": (("auto", "safetensors", "pt", "npcache", "dummy", "fastsafetensors", "runai_streamer",
                       "sharded_state", "tensorizer"), Text("flags.load_format")),
    "--mm-encoder-tp-mode": (("weights",), Text("flags.encoder_tp_mode")),
    "--runner": (("auto", "generate"), Text("flags.pooling")),
    "--convert": (("auto", "none"), Text("flags.pooling")),
    "--task": (("auto", "generate"), Text("flags.pooling")),
    "--model-impl": (("auto", "vllm"), Text("flags.model_impl")),
    "--prefill-context-parallel-size": (("1",), Text("flags.context_parallel")),
    "-pcp": (("1",), Text("flags.context_parallel")),
    "--cp-kv-cache-interleave-size": (("1",), Text("flags.context_parallel")),
    "--dcp-kv-cache-interleave-size": (("1",), Text("flags.context_parallel")),
    "--ubatch-size": (("0",), Text("flags.microbatching")),
    "--mm-ipc-gpu-memory-gb": (("0", "0.0"), Text("flags.multimodal_profile")),
    "--mm-processor-device": (("cpu",), Text("flags.multimodal_profile")),
    "--video-pruning-rate": (("0", "0.0"), Text("flags.multimodal_profile")),
    "--mm-encoder-attn-dtype": (("auto", "none"), Text("flags.multimodal_profile")),
}
"""Flags ignored for these values (16-bit weights; a way of reading the same checkpoint; the vision
encoder sharded as the rest; a generation model on vLLM's own implementation; no prefill context
parallelism or micro-batching; the front end's multimodal work on the host) and refused for others
(float32 weights; a bitsandbytes or GGUF checkpoint; a whole encoder per GPU; a pooling model; the
Transformers backend; …). Values as in vllm/config (v0.33): --ubatch-size 0 and --mm-ipc-gpu-memory-gb 0
are the defaults."""


SWITCHES = frozenset({
    "--allow-credentials", "--allow-deprecated-quantization", "--calculate-kv-scales",
    "--checkpoint-prepare-on-startup", "--cohere-is-reasoning-model", "--cudagraph-metrics",
    "--data-parallel-external-lb", "--data-parallel-hybrid-lb", "--dcp-q-replicate",
    "--disable-cascade-attn", "--disable-chunked-mm-input", "--disable-fastapi-docs",
    "--disable-frontend-multiprocessing", "--disable-log-requests", "--disable-nccl-for-dp-synchronization",
    "--disable-uvicorn-access-log", "--enable-auto-tool-choice", "--enable-batch-sharded-sampling",
    "--enable-bf16x3-router-gemm", "--enable-cumem-allocator", "--enable-dbo", "--enable-elastic-ep",
    "--enable-ep-weight-filter", "--enable-eplb", "--enable-fault-tolerance",
    "--enable-flash-late-interaction", "--enable-flashinfer-autotune", "--enable-force-include-usage",
    "--enable-hc-sp", "--enable-layerwise-nvtx-tracing", "--enable-log-deltas", "--enable-log-outputs",
    "--enable-log-requests", "--enable-logging-iteration-details", "--enable-lora", "--enable-lora-bias",
    "--enable-mamba-cache-stochastic-rounding", "--enable-mamba-fine-grained-prefix-cache",
    "--enable-mamba-shared-prefix-checkpoint", "--enable-mfu-metrics", "--enable-mixed-moe-lora-format",
    "--enable-mm-embeds", "--enable-moe-shared-loras", "--enable-nccl-comm-suspend", "--enable-offline-docs",
    "--enable-per-request-metrics", "--enable-prompt-embeds", "--enable-prompt-tokens-details",
    "--enable-request-id-headers", "--enable-return-routed-experts", "--enable-scale-out",
    "--enable-server-load-tracking", "--enable-shm-tensor-arena", "--enable-sleep-mode",
    "--enable-ssl-refresh", "--enable-tokenizer-info-endpoint", "--enable-tower-connector-lora",
    "--enable-trace-replay", "--eplb-log-balancedness", "--exclude-tools-when-tool-choice-none",
    "--fail-on-environ-validation", "--fully-sharded-loras", "--interleave-mm-strings",
    "--jit-monitor-verbose", "--kv-cache-metrics", "--kv-sharing-fast-prefill", "--log-error-stack",
    "--long-prefill-token-threshold-adaptive", "--mm-device-do-normalize", "--mm-encoder-only",
    "--monokernel", "--multi-step-stream-outputs", "--numa-bind", "--ray-workers-use-nsight",
    "--return-sampling-mask", "--return-tokens-as-token-ids", "--scheduler-reserve-full-isl",
    "--shuffle-safetensors-files", "--skip-tokenizer-init", "--sleep-mode-offload-cudagraph",
    "--specialize-active-lora", "--swa-bounded-replay", "--tokens-only", "--trust-remote-code",
    "--trust-request-chat-template", "--trust-request-mm-kwargs", "--use-fp64-gumbel",
    "--use-gpu-for-pooling-score", "--use-replayssm", "--use-tqdm-on-load", "-dpe", "-dph",
})
"""Flags kvcalc has no setting for that take no value: vLLM's on/off switches (argparse's
BooleanOptionalAction, from v0.34 its EnableDisableAction), each with a --no- form that turns it off
(and from v0.34 the --enable-/--disable- twin: ``negated_switch``). With ``PLAIN_SWITCHES``, ``MANY_VALUES`` and
``OPTIONAL_VALUE`` they say how many words after a flag vLLM's parser gives it (``value_words``), so the
model named after a switch (``vllm serve --trust-remote-code MODEL``) is read as the model, as vLLM reads it.
Read from the release wheels v0.10 to v0.34 (vllm/engine/arg_utils.py ``_compute_kwargs``: a bool field is a
switch, a list, tuple or set field takes several words, a ``bool | str | None`` field an optional one; and
the front end's add_argument calls); tests/fixtures/vllm_serve_flags.json records each flag's arity."""
PLAIN_SWITCHES = frozenset({
    "--aggregate-engine-logging", "--data-parallel-multi-port-external-lb", "--disable-async-output-proc",
    "--disable-log-stats", "--disable-mm-preprocessor-cache", "--enable-multimodal-encoder-data-parallel",
    "--grpc", "--guided-decoding-disable-additional-properties", "--guided-decoding-disable-any-whitespace",
    "--guided-decoding-disable-fallback", "--headless", "--version", "-dpm", "-v",
})
"""Switches without a --no- form (argparse's store_true, and vllm's own --version)."""
MANY_VALUES = frozenset({
    "--allowed-media-domains", "--api-key", "--collect-detailed-traces", "--cpu-offload-params",
    "--ignore-patterns", "--kv-cache-dtype-skip-layers", "--logits-processors", "--lora-modules",
    "--lora-target-modules", "--numa-bind-cpus", "--numa-bind-nodes", "--offload-params",
    "--served-model-name", "--sleep-preserve-parameter-names",
})
"""Flags that take every word up to the next flag (nargs "+"): ``--served-model-name a b`` names two."""
OPTIONAL_VALUE = frozenset({"--hf-token"})
"""Flags whose value may be left out (nargs "?"): the next word is theirs unless it is a flag, so in
``vllm serve --hf-token MODEL`` vLLM reads MODEL as the token, and kvcalc does too."""

ON_BY_DEFAULT = frozenset({"--swa-bounded-replay"})
"""The switches of ``NOT_MODELLED`` that are on unless turned off (vllm/config/cache.py
``swa_bounded_replay: bool = True``, v0.31 to v0.34): the switch itself asks for the default and is
ignored, its off form changes what vLLM sizes and is refused. The others
default to off (vllm/engine/arg_utils.py EngineArgs and the config classes, v0.34), so their off form
(``--no-enable-lora``, v0.34's ``--disable-lora``) asks for what vLLM does anyway and is ignored."""


def negated_switch(flag: str) -> str | None:
    """The switch a --no- flag turns off (``--no-trust-remote-code``), or from v0.34 the --enable-/--disable-
    twin that does (vllm/utils/argparse_utils.py EnableDisableAction: ``--disable-lora`` is
    ``--no-enable-lora``); None when ``flag`` is no such form of a switch kvcalc knows."""
    if flag.startswith("--no-") and "--" + flag[5:] in SWITCHES:
        return "--" + flag[5:]
    for prefix, twin in (("--disable-", "--enable-"), ("--enable-", "--disable-")):
        if flag.startswith(prefix) and twin + flag[len(prefix):] in SWITCHES:
            return twin + flag[len(prefix):]
    return None


def value_words(flag: str) -> int | None:
    """How many of the words after ``flag`` (given without ``=``) vLLM's parser takes as its value, at most:
    0 for a switch or its off form, None for every word up to the next flag (``MANY_VALUES``), else 1 (a
    flag kvcalc does not know is taken to have one value)."""
    if flag in SWITCHES or flag in PLAIN_SWITCHES or negated_switch(flag) is not None:
        return 0
    return None if flag in MANY_VALUES else 1


def is_flag(token: str) -> bool:
    """Whether a serve-line word is a flag rather than a value: it starts with a dash and is no number
    (``--seed -1``: -1 is the seed), as argparse tells them apart."""
    return token.startswith("-") and not token.lstrip("-").replace(".", "", 1).isdigit()


def free_words(tokens: list[str], takes: Callable[[str, str | None], int | None]) -> list[int]:
    """The positions of the words no flag before them takes, as argparse leaves them over: each flag
    takes ``takes(flag, the word after it)`` words (None: every word up to the next flag), and
    ``--flag=value`` none after it. In a serve line the first of them is the model; any other is stray."""
    free: list[int] = []
    room: int | None = 0        # words the last flag may still take; None: any number
    for i, token in enumerate(tokens):
        if is_flag(token):
            flag, eq, _ = token.partition("=")
            room = 0 if eq else takes(flag, tokens[i + 1] if i + 1 < len(tokens) else None)
        elif room != 0:
            room = None if room is None else room - 1
        else:
            free.append(i)
    return free


def sort_unknown(tokens: list[str]) -> tuple[list[str], dict[str, str], list[str]]:
    """The tokens argparse did not know, as (flags ignored, flags refused with their reason, tokens
    that are no vLLM flag kvcalc knows). A flag takes the words after it that vLLM's parser gives it
    (``value_words``); ``--flag=value`` is one token; a word no flag before it can take is a stray one
    (``--trust-remote-code zh``; ``--lang zh`` reads as --language-model-only, as argparse expands a
    prefix, and leaves ``zh``). A switch's off form (``--no-trust-remote-code``) goes where the switch
    goes. ``--enable-chunked-prefill`` on its own (always on in the V1 engine) and the harmless values
    of ``BY_VALUE`` change nothing kvcalc sizes and are ignored."""
    ignored: list[str] = []
    refused: dict[str, str] = {}
    strange: list[str] = []
    free = set(free_words(tokens, lambda name, _following: value_words(name)))
    flag = None
    for i, token in enumerate(tokens):
        if is_flag(token):
            name, _, value = token.partition("=")
            if _OPT_LEVEL.fullmatch(name):      # -O.cudagraph_mode=...: the compilation config
                name = "-O"
            elif name.startswith("--") and "." in name:     # a JSON flag given key by key
                name = name.split(".", 1)[0]
            flag = name
            switch = negated_switch(name)
            if name in WITHOUT_MEMORY:
                ignored.append(name)
            elif name in BY_VALUE:
                if value:
                    _by_value(name, value, ignored, refused)
            elif name in NOT_MODELLED and name not in ON_BY_DEFAULT:
                refused[name] = NOT_MODELLED[name]
            elif name in ON_BY_DEFAULT:
                ignored.append(name)        # on, as by default
            elif switch in WITHOUT_MEMORY or switch in NOT_MODELLED and switch not in ON_BY_DEFAULT:
                ignored.append(name)        # off, as by default: the feature kvcalc does not model is not used
            elif switch in NOT_MODELLED:
                refused[name] = NOT_MODELLED[switch]
            else:
                strange.append(name)
        elif i in free:     # a word no flag before it can take: argparse left it over
            strange.append(token)
        elif flag in BY_VALUE:
            _by_value(flag, token, ignored, refused)
    return ignored, refused, strange


def _by_value(flag: str, value: str, ignored: list[str], refused: dict[str, str]) -> None:
    harmless, reason = BY_VALUE[flag]
    if value.strip().lower() in harmless:
        ignored.append(flag)
    else:
        refused[flag] = reason
