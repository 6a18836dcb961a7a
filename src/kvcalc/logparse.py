"""Read a vLLM startup log (any V1 release, 0.10 on) and pull out what kvcalc can use.

Linear in the input: each line is cut to ``_MAX_LINE`` characters, stripped of colour
codes and process/level prefixes, checked against cheap substring guards, and only then
against a regular expression. No expression may scan a line once per starting position:
repeated words are matched only at word starts, and lazy or open-ended runs are bounded, so
a hostile paste costs the same per megabyte as a real log. Lines that match nothing, or
whose numbers are not finite and sane, are ignored. Nothing here trusts the text: numbers
are parsed with bounds, dict literals with ``ast.literal_eval`` on bounded input only, and
what comes out is plain JSON-safe data (strings are never interpreted).
"""

from __future__ import annotations

import ast
import math
import re
import warnings
from dataclasses import dataclass, field
from typing import Any

from . import textdepth
from .settings import AUTO_MAX_MODEL_LEN, FORCED_BACKENDS, KV_CONNECTORS, mm_limits_of, mm_processor_of
from .weights import VLLM_QUANTIZATION_FORMATS
from .errors import VersionError
from .versions import Rule, applies, ngc_tag, parse_version

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_PREFIX = re.compile(
    r"^\s*(?:\((?P<proc>[A-Za-z_][\w\-]*(?: rank=\d+)?) pid=\d+\)\s*)?"
    r"(?:(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\s+\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?\s+"
    r"\[(?P<tag>[^\]]*)\]\s*)?")
_NUM = r"([0-9][0-9,]*(?:\.[0-9]+)?)"
_RUNNER_FILES = {"gpu_model_runner.py": False, "model_runner.py": True}
"""The file in a line's tag that logged "Model loading took", and whether it is model runner V2's:
the V1 runner's vllm/v1/worker/gpu_model_runner.py, or V2's vllm/v1/worker/gpu/model_runner.py.
A V1-runner start of a release whose default is V2 (VLLM_USE_V2_MODEL_RUNNER=0) shows it nowhere else."""


_MAX_VALUE = 1e15
"""Larger numbers are not memory sizes, token counts or ratios any vLLM log prints."""


def _f(text: str) -> float:
    value = float(text.replace(",", ""))
    if not (math.isfinite(value) and 0 <= value <= _MAX_VALUE):
        raise ValueError(f"number out of range: {text[:40]}")
    return value


def _i(text: str) -> int:
    digits = text.replace(",", "").split(".")[0]
    if len(digits) > 16:
        raise ValueError(f"number out of range: {text[:40]}")
    return int(digits)


@dataclass
class ParsedLog:
    """Everything found; ``None`` / empty when a log does not say it."""

    vllm_version: str | None = None
    model: str | None = None
    non_default_args: dict[str, Any] = field(default_factory=dict)
    engine_config: dict[str, str] = field(default_factory=dict)
    max_model_len: int | None = None
    auto_max_model_len: bool = False     # --max-model-len auto: the args' -1, or the "Auto-fit" line
    auto_fit_len: int | None = None      # the length that line says vLLM serves
    cpu_offloaded_gib: float | None = None   # "Total CPU offloaded parameters" (first rank quoted)
    host_kv_pool: bool = False           # "GPU + host KV cache size": HiSparse keeps part of the cache in host memory
    max_num_batched_tokens: int | None = None
    model_loading_gib: list[float] = field(default_factory=list)
    available_kv_cache_gib: list[float] = field(default_factory=list)
    # v0.34's extensible KV cache: "Extended KV cache to N blocks (X GiB)", the blocks it committed after
    # warm-up (its "Available KV cache memory" is then only the reservation)
    extended_blocks: int | None = None
    extended_gib: float | None = None
    # "Memory after warmup: F GiB free, … T GiB kept for transient activations (P GiB allocated at peak, …);
    # N KV cache blocks": the free memory, the transient kept free and its allocated peak, the blocks
    after_warmup_free_gib: float | None = None
    transient_kept_gib: float | None = None
    transient_peak_gib: float | None = None
    after_warmup_blocks: int | None = None

    @property
    def committed_blocks(self) -> int | None:
        """The blocks v0.34's extensible KV cache committed: the "Extended" line, else the worker's
        measurement (which the engine lowers to the smallest over the workers)."""
        return self.extended_blocks if self.extended_blocks is not None else self.after_warmup_blocks
    cuda_graph_estimate_gib: float | None = None
    # "The current --gpu-memory-utilization=U is equivalent to --gpu-memory-utilization=E without CUDA
    # graph memory profiling" (v0.20+): U − E is vLLM's CUDA-graph estimate over the GPU's total
    cg_current_util: float | None = None
    cg_equivalent_util: float | None = None
    # the DEBUG profile line: "torch peak memory increase: A GiB; non-torch forward increase memory: B GiB"
    # (the second part up to v0.26; v0.27 prints "total consumed" there; negative values are not read)
    profile_torch_peak_gib: float | None = None
    profile_non_torch_gib: float | None = None
    graph_capture_gib: float | None = None
    free_memory_gib: float | None = None
    total_memory_gib: float | None = None
    requested_util: float | None = None
    requested_gib: float | None = None
    usage: dict[str, float] = field(default_factory=dict)
    gpu_kv_cache_tokens: int | None = None
    max_concurrency: float | None = None
    # Up to v0.10 each worker's KV config printed its own pool lines before vLLM gave every rank the
    # smallest (v1/core/kv_cache_utils.py ``unify_kv_cache_configs``): the smallest pool line, and the
    # concurrency line after it, are what vLLM serves.
    smaller_pool_line: bool = field(default=True, repr=False)
    concurrency_len: int | None = None
    num_gpu_blocks: int | None = None
    attention_block_size: int | None = None
    kv_block_size: int | None = None
    padding_layers: int | None = None
    hybrid_manager_disabled: bool = False
    backend: str | None = None
    dcp_multiplier: int | None = None
    flashinfer_sampler: bool | None = None
    cudagraph_memory_profiling: bool | None = None   # VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1/0
    model_runner_v2: bool | None = None   # "Using V2 Model Runner" / "... using the V1 model runner instead"
    runner_file_v2: bool | None = None    # the file that logged "Model loading took": model_runner.py is V2
    compile_cache: str | None = None    # "cold" when the log compiles the model, "warm" when it loads it
    pinned_memory: bool | None = None   # False: "Using 'pin_memory=False' as WSL is detected"
    peer_to_peer: bool | None = None    # False: "Custom allreduce is disabled because ... lacks GPU P2P capability"
    mxfp4_marlin: bool | None = None    # MXFP4 experts on Marlin (True) or a native kernel (False)
    fp4_indexer_cache: bool | None = None  # DeepSeek-V4's MXFP4 indexer keys ("use_fp4_indexer_cache=True")
    performance_mode: str | None = None  # "Performance mode set to 'throughput'." (v0.17+)
    cudagraph_mode: str | None = None   # the engine line's compilation config, where not the default
    optimization_level: int | None = None  # the non-default args' -O level (v0.12+), where given
    error: str | None = None
    error_needed_gib: float | None = None
    error_available_gib: float | None = None
    error_estimated_max_len: int | None = None
    lines_used: int = 0
    lines_total: int = 0

    def breakdown(self, total_gib: float | None) -> dict[str, float]:
        """The reserve terms this log printed, under the names of the stored logs' ``logged`` fields
        (termcheck.term_checks reads both). The "Actual usage" line wins; without it, the DEBUG
        profile line. vLLM's CUDA-graph estimate is its own line, else the utilization it says the
        estimate is worth, times ``total_gib`` (the log's total, or the GPU's), to 0.01 GiB."""
        out: dict[str, float] = {}
        u = self.usage
        if self.model_loading_gib:
            out["model_loading_gib"] = self.model_loading_gib[0]
        if u:
            for key, name in (("activation_peak", "activation_peak_gib"), ("non_torch", "non_torch_gib"),
                              ("consumed", "consumed_gib")):
                if key in u:
                    out[name] = u[key]
        else:
            _copy_present(out, (("activation_peak_gib", self.profile_torch_peak_gib),
                                ("non_torch_gib", self.profile_non_torch_gib)))
        if self.cuda_graph_estimate_gib is not None:
            out["cuda_graph_gib"] = self.cuda_graph_estimate_gib
        elif self.cg_equivalent_util is not None and self.cg_current_util is not None and total_gib:
            out["cuda_graph_gib"] = round((self.cg_current_util - self.cg_equivalent_util) * total_gib, 2)
        return out

    @property
    def found_anything(self) -> bool:
        return self.lines_used > 0

    def settings(self) -> dict[str, Any]:
        """The calculator inputs this log implies, in kvcalc's Settings names."""
        a = self.non_default_args
        e = self.engine_config
        out: dict[str, Any] = {}

        def pick(key: str, *sources: Any) -> None:
            for value in sources:
                if value not in (None, ""):
                    out[key] = value
                    return

        pick("tensor_parallel_size", a.get("tensor_parallel_size"), _int_or_none(e.get("tensor_parallel_size")))
        pick("pipeline_parallel_size", a.get("pipeline_parallel_size"),
             _int_or_none(e.get("pipeline_parallel_size")))
        pick("gpu_memory_utilization", a.get("gpu_memory_utilization"), self.requested_util, self.cg_current_util)
        pick("kv_cache_dtype", a.get("kv_cache_dtype"), e.get("kv_cache_dtype"))
        # --max-model-len auto (v0.14+) is -1 in the args: kvcalc fits the length again from the
        # log's memory (engine._pool), so the length vLLM printed is checked, not copied
        given_len = a.get("max_model_len")
        if self.auto_max_model_len or given_len == AUTO_MAX_MODEL_LEN:
            out["max_model_len"] = AUTO_MAX_MODEL_LEN
        else:
            pick("max_model_len", self.concurrency_len,
                 given_len if isinstance(given_len, int) and not isinstance(given_len, bool) and given_len > 0
                 else None, self.max_model_len, _int_or_none(e.get("max_seq_len")))
        pick("max_num_batched_tokens", a.get("max_num_batched_tokens"))
        pick("max_num_seqs", a.get("max_num_seqs"))
        pick("block_size", a.get("block_size"))
        # not the "Overriding num_gpu_blocks=0 with num_gpu_blocks_override=512" line: v0.19+ prints it for
        # the CUDA-graph profile's own dry run; the user's override shows in the args
        for key in ("data_parallel_size", "decode_context_parallel_size", "kv_cache_memory_bytes", "num_gpu_blocks_override",
                    "cpu_offload_gb", "async_scheduling", "enable_chunked_prefill",
                    "disable_hybrid_kv_cache_manager", "mamba_ssm_cache_dtype"):
            pick(key, a.get(key))
        caching = a.get("enable_prefix_caching")
        if not isinstance(caching, bool):
            caching = {"True": True, "False": False}.get(e.get("enable_prefix_caching", ""))
        pick("enable_prefix_caching", caching)
        if a.get("enforce_eager") or e.get("enforce_eager") == "True":
            out["enforce_eager"] = True
        pick("vllm_version", self.release())
        quant = a.get("quantization") or e.get("quantization")
        weights = VLLM_QUANTIZATION_FORMATS.get(str(quant).lower()) if isinstance(quant, str) else None
        if weights:
            out["weights"] = weights
        spec = _speculative(a, e)
        if spec is not None:
            out["speculative"] = spec
        _copy_present(out, (("flashinfer_sampler", self.flashinfer_sampler),
                            ("cudagraph_memory_profiling", self.cudagraph_memory_profiling),
                            ("model_runner_v2", self.model_runner_v2 if self.model_runner_v2 is not None
                             else self._runner_from_file()),
                            ("compile_cache", self.compile_cache),
                            ("pinned_memory", self.pinned_memory), ("peer_to_peer", self.peer_to_peer),
                            # not --moe-backend: it applies to every MoE format
                            ("mxfp4_marlin", self.mxfp4_marlin),
                            ("fp4_indexer_cache", self.fp4_indexer_cache)))
        limits = a.get("limit_mm_per_prompt")
        if isinstance(limits, dict) and mm_limits_of(limits) is not None:
            out["limit_mm_per_prompt"] = limits
        overrides = a.get("hf_overrides")
        if isinstance(overrides, dict) and overrides:
            out["hf_overrides"] = overrides
        kwargs = a.get("mm_processor_kwargs")
        if isinstance(kwargs, dict) and mm_processor_of(kwargs) is not None:
            out["mm_processor_kwargs"] = kwargs
        if a.get("skip_mm_profiling") is True or e.get("skip_mm_profiling") == "True":
            out["skip_mm_profiling"] = True
        if a.get("language_model_only") is True:
            out["language_model_only"] = True
        if a.get("disable_sliding_window") is True:
            out["disable_sliding_window"] = True
        if a.get("enable_expert_parallel") is True:
            out["enable_expert_parallel"] = True
        if a.get("disable_custom_all_reduce") is True:
            out["disable_custom_all_reduce"] = True
        transfer = a.get("kv_transfer_config")
        if isinstance(transfer, dict) and transfer.get("kv_connector") in KV_CONNECTORS:
            out["kv_connector"] = transfer["kv_connector"]     # others stay as they were: not read
        for key in ("max_cudagraph_capture_size", "cudagraph_capture_sizes"):
            if a.get(key) is not None:
                out[key] = a[key]
        mode = a.get("performance_mode")
        pick("performance_mode", mode if isinstance(mode, str) else None, self.performance_mode)
        if self.optimization_level is not None:
            out["optimization_level"] = self.optimization_level
        backend = a.get("attention_backend")
        if backend is None and isinstance(a.get("attention_config"), dict):
            backend = a["attention_config"].get("backend")
        # only a backend kvcalc sizes (attention.py); another (ROCm's, MLA's) leaves the release's pick
        if isinstance(backend, str) and backend.strip().upper() in FORCED_BACKENDS:
            out["attention_backend"] = backend.strip().upper()
        if self.cudagraph_mode is not None and not out.get("enforce_eager"):   # eager sets NONE itself
            out["cudagraph_mode"] = self.cudagraph_mode
        return {k: v for k, v in out.items() if v is not None}

    def _runner_from_file(self) -> bool | None:
        """The runner the loading line's file names, where the release has a choice of runner
        (VLLM_USE_V2_MODEL_RUNNER, Rule.MRV2_ENV_OPT_IN); before, or with no release, None."""
        release = self.release()
        try:
            known = release is not None and applies(Rule.MRV2_ENV_OPT_IN, parse_version(release))
        except VersionError:
            known = False
        return self.runner_file_v2 if known else None

    def release(self) -> str | None:
        """The release number in the version string: '0.18.1rc1.dev147+g29…' -> '0.18.1'; an
        NVIDIA NGC build keeps its container release, which can change rules the vLLM release
        alone does not decide (versions.ngc_release): '0.11.1+9114fd76.nv25.12' -> '0.11.1+nv25.12'."""
        if not self.vllm_version:
            return None
        m = re.match(r"v?(\d+\.\d+(?:\.\d+)?)", self.vllm_version)
        if not m:
            return None
        ngc = ngc_tag(self.vllm_version)
        return m.group(1) + (f"+nv{ngc[0]:02d}.{ngc[1]:02d}" if ngc else "")

    def to_dict(self) -> dict[str, Any]:
        d = {k: v for k, v in self.__dict__.items()}
        d["settings"] = self.settings()
        d["found_anything"] = self.found_anything
        return d


def _copy_present(out: dict[str, Any], pairs: tuple[tuple[str, Any], ...]) -> None:
    """Put each (name, value) the log gave (value not None) into ``out``."""
    for name, value in pairs:
        if value is not None:
            out[name] = value


def _int_or_none(text: Any) -> int | None:
    try:
        return int(str(text))
    except (TypeError, ValueError):
        return None


_PATTERNS: list[tuple[str, re.Pattern[str], str]] = [
    ("version", re.compile(r"vLLM API server version\s+(\S+)"), "version"),
    # vllm/entrypoints/serve/utils/api_utils.py log_version_and_model (v0.30+) without the logo
    ("vLLM server version", re.compile(r"vLLM server version\s+(\d+\.\d+[\w.+\-]*), serving model"), "version"),
    ("Initializing a V1 LLM engine", re.compile(r"Initializing a V1 LLM engine \(v?([^)\s]+)\)"), "version"),
    ("version", re.compile(r"(?:^|\s)version\s+(\d+\.\d+[\w.+\-]*)\s*$"), "version"),
    ("non-default args", re.compile(r"non-default args:\s*(\{.*)$"), "args"),
    ("with config:", re.compile(r"with config:\s*(.*)$"), "engine_config"),
    ("Using max model len", re.compile(r"Using max model len (\d{1,16})(?!\d)"), "max_len"),
    # vllm/v1/core/kv_cache_utils.py _auto_fit_max_model_len (v0.14+): --max-model-len auto at work
    ("Auto-fit max_model_len", re.compile(r"Auto-fit max_model_len: (?:reduced from (\d{1,16}) to (\d{1,16})"
                                          r"|full model context length (\d{1,16}) fits|attention-free model)"),
     "auto_fit"),
    # v1/core/kv_cache_planning.py (v0.34): the length auto reduced or kept, after warm-up where the extensible
    # KV cache fits it a second time (a line printed after any tentative one above, so it wins)
    ("--max-model-len auto reduced", re.compile(r"--max-model-len auto reduced max_model_len from (\d{1,16}) to "
                                                r"(\d{1,16})(?!\d)"), "auto_fit_final"),
    ("Auto-fit max_model_len: using", re.compile(r"Auto-fit max_model_len: using max_model_len=(\d{1,16})(?!\d)"),
     "auto_fit_kept"),
    # v1/worker/extensible_kv_cache.py (v0.34): the blocks the extensible KV cache committed after warm-up
    ("Extended KV cache to", re.compile(r"Extended KV cache to (\d{1,16}) blocks \(" + _NUM + r" ?GiB\)"), "extended"),
    # v1/worker/extensible_kv_cache.py measure_kv_cache_blocks (v0.34): what the worker measured after warm-up
    ("Memory after warmup", re.compile(
        r"Memory after warmup: " + _NUM + r" GiB free, " + _NUM + r" GiB committed to the KV cache, " + _NUM +
        r" GiB kept for transient activations \(" + _NUM + r" GiB allocated at peak, " + _NUM +
        r" GiB of torch reservation growth\); (\d{1,16}) KV cache blocks"), "after_warmup"),
    ("max_num_batched_tokens=", re.compile(r"max_num_batched_tokens=(\d{1,16})(?!\d)"), "mnbt"),
    # vllm/model_executor/offloader/uva.py (models/utils.py before v0.20): what --cpu-offload-gb moved
    ("Total CPU offloaded parameters", re.compile(r"Total CPU offloaded parameters: " + _NUM), "cpu_offloaded"),
    ("Model loading took", re.compile(r"Model loading took " + _NUM + r" ?GiB"), "loading"),
    ("Available KV cache memory", re.compile(r"Available KV cache memory:\s*" + _NUM + r" ?GiB"), "available"),
    # vllm/v1/worker/gpu_worker.py (from v0.10.2): each rank's own KV memory at the end of its breakdown
    # line; the engine sizes the pool from the smallest rank, which a log may quote only here.
    ("Current kv cache memory in use", re.compile(r"Current kv cache memory in use is " + _NUM + r" ?GiB"),
     "available"),
    # vllm/v1/worker/gpu_worker.py (v0.11+): with --kv-cache-memory-bytes vLLM skips the profile and
    # prints the pool it reserved instead of the "Available KV cache memory" line
    ("memory for KV Cache as specified", re.compile(r"reserved " + _NUM + r" ?GiB memory for KV Cache as specified"),
     "available"),
    # vllm/v1/worker/gpu_worker.py v0.25-v0.26, multimodal/gpu_ipc_memory.py from v0.27 (opt-in
    # --mm-ipc-gpu-memory-gb, or GPU video decoding): the
    # reserve for the frontend's decoders comes off after "Available KV cache memory" was printed; the pool
    # is sized from what is left
    ("KV cache memory reduced to", re.compile(r"KV cache memory reduced to " + _NUM + r" ?GiB"), "available"),
    ("Estimated CUDA graph memory", re.compile(r"Estimated CUDA graph memory:\s*" + _NUM + r" ?GiB"), "cg"),
    # vllm/v1/worker/gpu_worker.py (v0.20+): both runners print the profiled estimate beside the pool
    # they captured; the V1 runner also prints "Estimated CUDA graph memory", V2 only this
    ("CUDA graph pool memory", re.compile(r"CUDA graph pool memory: " + _NUM + r" GiB \(actual\), " + _NUM +
                                          r" GiB \(estimated\)"), "cg_pool"),
    ("is equivalent to --gpu-memory-utilization", re.compile(
        r"--gpu-memory-utilization=" + _NUM + r" is equivalent to --gpu-memory-utilization=" + _NUM), "cg_equiv"),
    ("torch peak memory increase", re.compile(
        r"torch peak memory increase:\s*" + _NUM + r" ?GiB(?:; non-torch forward increase memory:\s*" + _NUM +
        r" ?GiB)?"), "profile"),
    ("Graph capturing finished", re.compile(r"Graph capturing finished in .{0,200}?took " + _NUM + r" ?GiB"), "capture"),
    ("Free memory on device", re.compile(
        r"Free memory on device \(" + _NUM + r"/" + _NUM + r" GiB\) on startup\. Desired GPU memory "
        r"utilization is \(" + _NUM + r", " + _NUM + r" GiB\)(.*)$"), "free"),
    # vllm/v1/core/kv_cache_utils.py (v0.32+): "GPU + host KV cache size" counts HiSparse's host pool too
    ("+ host KV cache size", re.compile(r"\+ host KV cache size:"), "host_pool"),
    ("GPU KV cache size", re.compile(r"KV cache size:\s*" + _NUM + r" tokens"), "tokens"),
    ("Maximum concurrency for", re.compile(
        r"Maximum concurrency for\s*" + _NUM + r" tokens per request:\s*" + _NUM + r"x"), "concurrency"),
    ("num_gpu_blocks", re.compile(r"num_gpu_blocks(?: is)?[:=]\s*(\d{1,16})(?!\d)"), "blocks"),
    ("# GPU blocks", re.compile(r"# GPU blocks:\s*(\d{1,16})(?!\d)"), "blocks"),
    ("Setting attention block size", re.compile(r"Setting attention block size to (\d{1,16}) tokens"), "attn_block"),
    ("Setting kv cache block size", re.compile(r"Setting kv cache block size to (\d{1,16}) for (\S{1,100}) backend"),
     "kv_block"),
    ("padding layers", re.compile(r"Add (\d{1,16}) padding layers"), "padding"),
    ("Hybrid KV cache manager is disabled", re.compile(r"Hybrid KV cache manager is disabled"), "hybrid_off"),
    ("backend", re.compile(r"Using (?:AttentionBackendEnum\.)?([A-Z_]{1,60}|[A-Za-z ]{1,60}?) backend"), "backend"),
    ("cp_world_size", re.compile(r"Multiplying the GPU KV cache size by the \w{1,40} (\d{1,16})(?!\d)"), "dcp"),
    ("dcp_world_size", re.compile(r"Multiplying the GPU KV cache size by the \w{1,40} (\d{1,16})(?!\d)"), "dcp"),
    ("To serve at least one request", re.compile(
        r"To serve at least one request with the models?'s? max seq len \((\d{1,16})\), \(" + _NUM +
        r" GiB KV cache is needed, which is larger than the available KV cache memory \(" + _NUM +
        r" GiB\)\.(?:.{0,300}?estimated maximum model length is (\d{1,16})(?!\d))?"), "fit_error"),
    # vllm/v1/worker/utils.py (and gpu_worker.py before): the start refused for want of free memory
    ("is less than desired GPU memory utilization", re.compile(
        r"Free memory on device[^(]{0,40}\(" + _NUM + r"/" + _NUM + r" GiB\) on startup is less than desired GPU "
        r"memory utilization \(" + _NUM + r", " + _NUM + r" GiB\)"), "util_error"),
    ("No available memory for the cache blocks",
     re.compile(r"No available memory for the cache blocks"), "no_memory"),
    # vllm/v1/sample/ops/topk_topp_sampler.py: which sampler the profile run used.
    ("top-p & top-k sampling", re.compile(r"Using FlashInfer for top-p & top-k sampling"), "sampler_on"),
    ("PyTorch-native implementation", re.compile(r"Falling back to the PyTorch-native implementation of "
                                                 r"top-p & top-k sampling"), "sampler_off"),
    ("FlashInfer is available", re.compile(r"FlashInfer is available, but it is not enabled"), "sampler_off"),
    ("FlashInfer top-p/top-k sampling", re.compile(r"FlashInfer top-p/top-k sampling (?:disabled|unavailable)"),
     "sampler_off"),
    # vllm/v1/worker/gpu_worker.py: VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS set either way (the default
    # release's "is enabled (default since v0.21.0)" says nothing beyond the release)
    ("CUDA graph memory profiling is", re.compile(
        r"CUDA graph memory profiling is (enabled|disabled) \(VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=[01]\)"),
     "cg_profiling"),
    # vllm/v1/worker/gpu_worker.py and config/vllm.py (v0.22+): which model runner the worker runs
    ("Using V2 Model Runner", re.compile(r"Using V2 Model Runner"), "runner_v2"),
    ("using the V1 model runner instead", re.compile(r"using the V1 model runner instead", re.IGNORECASE),
     "runner_v1"),
    # vllm/compilation/backends.py and decorators.py: whether torch.compile found its cache
    ("Compiling a graph for", re.compile(r"Compiling a graph for (?:dynamic shape|compile range)"), "compile_cold"),
    ("Directly load", re.compile(r"Directly load (?:the compiled graph|AOT compilation)"), "compile_warm"),
    ("WSL is detected", re.compile(r"Using '?pin_memory=False'? as WSL is detected"), "unpinned"),
    # vllm/distributed/device_communicators/custom_all_reduce.py (v0.10-v0.34): the TP GPUs failed vLLM's
    # peer-to-peer test, so NCCL runs every all-reduce, without per-peer buffers in GPU memory
    ("lacks GPU P2P capability", re.compile(r"Custom allreduce is disabled because (?:your )?platform lacks GPU P2P"),
     "no_p2p"),
    # the kernels MXFP4 experts run on: vllm/model_executor/layers/quantization/mxfp4.py (v0.10.1-v0.18:
    # 'Using Marlin backend' / 'Using Triton backend' / 'Using FlashInfer MXFP4 ... backend for SM...')
    # and fused_moe/oracle/mxfp4.py (v0.19+: "Using 'MARLIN' Mxfp4 MoE backend.")
    # DeepSeek-V4's MXFP4 indexer cache: the non-default args' attention config (a dict, or AttentionConfig(...)
    # as its repr) and the indexer's own line (v1/attention/backends/mla/indexer.py, 'DSA indexer decode path:
    # ... use_fp4_indexer_cache=True'); from v0.28 also indexer_kv_dtype='mxfp4'
    ("use_fp4_indexer_cache", re.compile(r"""use_fp4_indexer_cache['"]?\s*[:=]\s*True|indexer_kv_dtype['"]?\s*[:=]\s*['"]mxfp4"""),
     "fp4_indexer"),
    ("Using Marlin backend", re.compile(r"Using Marlin backend\s*$"), "mxfp4_marlin"),
    ("Using Triton backend", re.compile(r"Using Triton backend\s*$"), "mxfp4_native"),
    ("Using FlashInfer MXFP4", re.compile(r"Using FlashInfer MXFP4 \S+"), "mxfp4_native"),
    ("Mxfp4 MoE backend", re.compile(r"Using '(\w{1,40})' Mxfp4 MoE backend"), "mxfp4_backend"),
    # vllm/config/vllm.py (v0.17+), printed when --performance-mode is not balanced
    ("Performance mode set to", re.compile(r"Performance mode set to '(\w{1,20})'"), "performance_mode"),
    # the engine line's compilation config (v0.10.1+): which CUDA graphs the start captures
    ("'cudagraph_mode': <CUDAGraphMode.", re.compile(r"'cudagraph_mode': <CUDAGraphMode\.([A-Z_]{1,30})"),
     "cudagraph_mode"),
    # the non-default args' optimization level (v0.12+: an IntEnum, printed as its repr or a number)
    ("'optimization_level': ", re.compile(r"'optimization_level': (?:<OptimizationLevel\.O[0-3]: )?([0-3])\b"),
     "optimization_level"),
]

_USAGE = re.compile(r"(?<![0-9.])([0-9.]{1,20}) GiB for ([a-zA-Z \-+()]{1,80}?)(?:,|\.| and)")
_MAX_LINE = 20_000


_SPEC_REPR = re.compile(r"speculative_config=SpeculativeConfig\(method='([\w\-]{1,40})', "
                        r"model=(?:'([^']{1,500})'|None), num_spec_tokens=(\d{1,6})\)")
"""The engine line's speculative config, as ``SpeculativeConfig.__repr__`` prints it (the same
f-string from v0.11.0 to v0.33.0, vllm/config/speculative.py): the method vLLM resolved, the
drafter's model (the target's own for MTP; None for n-gram and suffix) and the token count."""


def _engine_config(text: str) -> dict[str, str]:
    """``key=value, key=value`` of the 'with config:' line (values kept as text). The speculative
    config is read whole first (``_SPEC_REPR``) into ``speculative.method``, ``speculative.model``
    and ``speculative.tokens``: its own ``model=`` names the drafter, not the model served."""
    text = text[:_MAX_LINE]
    out: dict[str, str] = {}
    spec = _SPEC_REPR.search(text)
    if spec:
        out["speculative.method"], out["speculative.tokens"] = spec.group(1), spec.group(3)
        if spec.group(2):
            out["speculative.model"] = spec.group(2)
        text = text[:spec.start()] + text[spec.end():]
    for m in re.finditer(r"(?<!\w)(\w{1,100})=('(?:[^']*)'|[^,]*)", text):
        out[m.group(1)] = m.group(2).strip().strip("'")
    return out


def _speculative(args: dict[str, Any], engine: dict[str, str]) -> dict[str, Any] | None:
    """The speculative config a log shows: ``--speculative-config`` among the non-default args,
    else the engine line's resolved one (``_SPEC_REPR``), else the shorthand flags --spec-method,
    --spec-model and --spec-tokens (v0.22+, vllm/engine/arg_utils.py create_speculative_config),
    which need a method to say anything."""
    if isinstance(args.get("speculative_config"), dict):
        return args["speculative_config"]
    if engine.get("speculative.method"):
        out: dict[str, Any] = {"method": engine["speculative.method"],
                               "num_speculative_tokens": int(engine["speculative.tokens"])}
        if engine.get("speculative.model"):
            out["model"] = engine["speculative.model"]
        return out
    if isinstance(args.get("spec_method"), str):
        flags = {"method": args["spec_method"], "model": args.get("spec_model"),
                 "num_speculative_tokens": args.get("spec_tokens")}
        return {k: v for k, v in flags.items() if v is not None}
    return None


_DROP = object()


def _plain(value: Any, depth: int = 0) -> Any:
    """``value`` as JSON-safe data (str keys, finite numbers, no sets/bytes/tuples), or
    ``_DROP``: whatever the log says stays inert text and numbers."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value if abs(value) <= _MAX_VALUE else _DROP
    if isinstance(value, float):
        return value if math.isfinite(value) else _DROP
    if depth < 8 and isinstance(value, (list, tuple)):
        return [v for v in (_plain(x, depth + 1) for x in value) if v is not _DROP]
    if depth < 8 and isinstance(value, dict):
        out = {}
        for k, v in value.items():
            v = _plain(v, depth + 1)
            if isinstance(k, str) and v is not _DROP:
                out[k] = v
        return out
    return _DROP


def _args(text: str) -> dict[str, Any]:
    text = text.strip()
    if len(text) > _MAX_LINE or not text.endswith("}"):
        return {}
    try:
        value = _plain(_literal(text))
        return value if isinstance(value, dict) else {}
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        # Not a literal as a whole (an author's '...' elision, a cut-off line): read the top-level
        # entries one by one, nested values whole ('speculative_config': {...} stays one setting).
        out: dict[str, Any] = {}
        for entry in _top_level_entries(text):
            m = _ARG_ENTRY.match(entry)
            if m is None:
                continue
            try:
                value = _plain(_literal(m.group(2)))
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                connector = _CONNECTOR_REPR.match(m.group(2))
                if connector:    # the parsed KVTransferConfig prints as its repr: its connector is read
                    out[m.group(1)] = {"kv_connector": connector.group(1)}
                continue
            if value is not _DROP:
                out[m.group(1)] = value
        return out


_ARG_ENTRY = re.compile(r"\s*'(\w{1,100})'\s*:\s*(.+?)\s*$", re.S)
_CONNECTOR_REPR = re.compile(r"KVTransferConfig\(kv_connector='(\w{1,100})'")
_OPENERS, _CLOSERS = "{[(", "}])"


def _top_level_entries(text: str) -> list[str]:
    """The comma-separated entries of a dict's text at its outer level: commas inside nested
    brackets or quoted strings do not split (``text`` is bounded by ``_MAX_LINE``)."""
    entries, depth, quote, start, i = [], 0, "", 0, 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c in _OPENERS:
            depth += 1
            if depth == 1:
                start = i + 1
        elif c in _CLOSERS:
            if depth == 1:
                entries.append(text[start:i])
            depth -= 1
        elif c == "," and depth == 1:
            entries.append(text[start:i])
            start = i + 1
        i += 1
    return entries


def _literal(text: str) -> Any:
    """``ast.literal_eval`` without its warnings: a pasted string with an invalid escape ('\\8')
    would print a SyntaxWarning (DeprecationWarning before 3.12) to the worker's console."""
    # ast's parser would overflow the stack in the page's Pyodide on deep nesting or long operator runs
    if textdepth.literal_too_deep(text) or not textdepth.literal_tokens_only(text):
        raise ValueError("not a literal kvcalc reads")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.literal_eval(text)


def parse_log(text: str) -> ParsedLog:
    """Parse a pasted log. Never raises on bad input; unknown lines are skipped."""
    log = ParsedLog()
    if not isinstance(text, str):
        return log
    for raw in text.splitlines():
        log.lines_total += 1
        if len(raw) > _MAX_LINE:
            raw = raw[:_MAX_LINE]
        line = _ANSI.sub("", raw)
        prefix = _PREFIX.match(line)
        source = prefix.group("tag").partition(":")[0] if prefix and prefix.group("tag") else None
        line = line[prefix.end():].strip() if prefix else line.strip()
        if not line:
            continue
        if source in _RUNNER_FILES and line.startswith("Model loading took"):
            log.runner_file_v2 = _RUNNER_FILES[source]
        used = False
        for guard, rx, kind in _PATTERNS:
            if guard not in line:
                continue
            m = rx.search(line)
            try:
                found = m is not None and _apply(log, kind, m)
            except (ValueError, OverflowError, MemoryError, RecursionError):
                found = False   # a number out of range: this fact is not usable
            if found:
                used = True     # keep going: a pasted sentence may quote several log lines
        log.lines_used += used
    return log


def _apply(log: ParsedLog, kind: str, m: re.Match[str]) -> bool:
    g = m.groups()
    if kind == "version":
        if log.vllm_version is None:
            log.vllm_version = g[0]
        return True
    if kind == "args":
        args = _args(g[0])
        if not args:
            return False
        log.non_default_args.update(args)
        model = log.non_default_args.get("model") or log.non_default_args.get("model_tag")
        if isinstance(model, str):
            log.model = model
        return True
    if kind == "engine_config":
        log.engine_config.update(_engine_config(g[0]))
        if log.model is None and log.engine_config.get("model"):
            log.model = log.engine_config["model"]
        return True
    if kind == "max_len":
        log.max_model_len = int(g[0])
    elif kind == "cpu_offloaded":
        log.cpu_offloaded_gib = log.cpu_offloaded_gib if log.cpu_offloaded_gib is not None else _f(g[0])
    elif kind == "auto_fit":
        log.auto_fit_len = int(g[1] or g[2]) if (g[1] or g[2]) else None
        log.auto_max_model_len = True
    elif kind == "auto_fit_final":
        log.auto_fit_len = int(g[1])
        log.auto_max_model_len = True
    elif kind == "auto_fit_kept":
        log.auto_fit_len = int(g[0])
        log.auto_max_model_len = True
    elif kind == "extended":
        blocks = int(g[0])
        # every worker commits the same count (the minimum over ranks); keep the first
        log.extended_blocks = log.extended_blocks if log.extended_blocks is not None else blocks
        log.extended_gib = log.extended_gib if log.extended_gib is not None else _f(g[1])
    elif kind == "after_warmup":
        if log.after_warmup_free_gib is None:     # the first worker's, as for the other per-rank lines
            log.after_warmup_free_gib, log.transient_kept_gib = _f(g[0]), _f(g[2])
            log.transient_peak_gib, log.after_warmup_blocks = _f(g[3]), int(g[5])
    elif kind == "mnbt":
        log.max_num_batched_tokens = int(g[0])
    elif kind == "loading":
        log.model_loading_gib.append(_f(g[0]))
    elif kind == "available":
        log.available_kv_cache_gib.append(_f(g[0]))
    elif kind == "cg":
        log.cuda_graph_estimate_gib = _f(g[0])
    elif kind == "cg_equiv":
        log.cg_current_util, log.cg_equivalent_util = _f(g[0]), _f(g[1])
    elif kind == "profile":
        log.profile_torch_peak_gib = _f(g[0])
        log.profile_non_torch_gib = _f(g[1]) if g[1] is not None else None
    elif kind == "capture":
        log.graph_capture_gib = _f(g[0])
    elif kind == "cg_pool":
        log.graph_capture_gib = log.graph_capture_gib if log.graph_capture_gib is not None else _f(g[0])
        log.cuda_graph_estimate_gib = log.cuda_graph_estimate_gib if log.cuda_graph_estimate_gib is not None \
            else _f(g[1])
    elif kind == "free":
        log.free_memory_gib, log.total_memory_gib = _f(g[0]), _f(g[1])
        log.requested_util, log.requested_gib = _f(g[2]), _f(g[3])
        for value, label in _USAGE.findall(g[4]):
            key = label.strip().lower()
            key = {"weight": "weights", "consumed memory (weights + non-torch)": "consumed",
                   "peak activation": "activation_peak", "non-torch memory": "non_torch",
                   "cudagraph memory": "cuda_graph"}.get(key, key)
            log.usage[key] = float(value)
    elif kind == "host_pool":
        log.host_kv_pool = True
    elif kind == "tokens":
        tokens = _i(g[0])
        log.smaller_pool_line = log.gpu_kv_cache_tokens is None or tokens <= log.gpu_kv_cache_tokens
        if not log.smaller_pool_line:
            return True
        log.gpu_kv_cache_tokens = tokens
        rest = m.string[m.end():]
        mc = re.search(r"Maximum concurrency for\s*" + _NUM + r" tokens per request:\s*" + _NUM + "x", rest)
        if mc:
            log.concurrency_len, log.max_concurrency = _i(mc.group(1)), _f(mc.group(2))
    elif kind == "concurrency":
        if log.smaller_pool_line:
            log.concurrency_len, log.max_concurrency = _i(g[0]), _f(g[1])
    elif kind == "blocks":
        log.num_gpu_blocks = int(g[0])
    elif kind == "attn_block":
        log.attention_block_size = int(g[0])
    elif kind == "kv_block":
        log.kv_block_size, log.backend = int(g[0]), g[1]
    elif kind == "padding":
        log.padding_layers = int(g[0])
    elif kind == "hybrid_off":
        log.hybrid_manager_disabled = True
    elif kind == "backend":
        if log.backend is None:
            log.backend = g[0].strip()
    elif kind == "dcp":
        log.dcp_multiplier = int(g[0])
    elif kind == "fit_error":
        log.error = m.group(0)
        log.concurrency_len = log.concurrency_len or int(g[0])
        log.error_needed_gib, log.error_available_gib = _f(g[1]), _f(g[2])
        log.error_estimated_max_len = int(g[3]) if g[3] else None
    elif kind == "no_memory":
        log.error = m.group(0)
    elif kind == "util_error":
        log.error = m.group(0)
        log.free_memory_gib, log.total_memory_gib = _f(g[0]), _f(g[1])
        log.requested_util, log.requested_gib = _f(g[2]), _f(g[3])
    elif kind in ("sampler_on", "sampler_off"):
        log.flashinfer_sampler = kind == "sampler_on"
    elif kind in ("runner_v2", "runner_v1"):
        log.model_runner_v2 = kind == "runner_v2"
    elif kind == "cg_profiling":
        log.cudagraph_memory_profiling = g[0] == "enabled"
    elif kind == "unpinned":
        log.pinned_memory = False
    elif kind == "no_p2p":
        log.peer_to_peer = False
    elif kind == "fp4_indexer":
        log.fp4_indexer_cache = True
    elif kind in ("mxfp4_marlin", "mxfp4_native"):
        log.mxfp4_marlin = kind == "mxfp4_marlin"
    elif kind == "mxfp4_backend":
        log.mxfp4_marlin = g[0] in ("MARLIN", "BATCHED_MARLIN")
    elif kind == "performance_mode":
        log.performance_mode = g[0]
    elif kind == "optimization_level":
        log.optimization_level = int(g[0])
    elif kind == "cudagraph_mode":
        # the default says nothing a form needs (and would be spelled into the serve command)
        log.cudagraph_mode = g[0] if g[0] != "FULL_AND_PIECEWISE" else log.cudagraph_mode
    elif kind in ("compile_cold", "compile_warm"):
        # a compile anywhere in the start makes it a first start, whatever else was loaded
        log.compile_cache = "cold" if kind == "compile_cold" or log.compile_cache == "cold" else "warm"
    return True
