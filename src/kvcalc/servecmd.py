"""The ``vllm serve`` command for a set of settings: the model plus every flag that differs
from the chosen release's default, in vLLM's own spelling."""

from __future__ import annotations

import json
import shlex
from typing import Any

from .settings import BACKEND_VARIABLE, Resolved
from .versions import Rule, applies, default_gpu_memory_utilization, flashinfer_sampler_default


def serve_command(model: str, r: Resolved, kv_name: str = "auto", prefix_caching_default: bool = True,
                  model_runner_v2_default: bool | None = None, quantization: str | None = None,
                  allow_deprecated_quantization: bool = False, mxfp4_experts: bool = False,
                  async_scheduling_default: bool = True) -> str:
    """``prefix_caching_default``: whether this model and release turn prefix caching on unasked
    (engine.prefix_caching_default), so only a change from it is spelled out; likewise
    ``model_runner_v2_default``, the runner the release picks for this model unasked
    (engine.uses_model_runner_v2; None: not known, so a chosen runner is always spelled out), and
    ``async_scheduling_default``, whether the release schedules asynchronously unasked.
    ``quantization``: the ``--quantization`` vLLM needs to quantize the checkpoint while loading
    (weights.serving_quantization); ``allow_deprecated_quantization``: the checkpoint's method is one
    vLLM starts only with --allow-deprecated-quantization (quant_support.needs_deprecated_flag).
    ``mxfp4_experts``: the model's experts are MXFP4, so Marlin, when chosen, is asked for
    (VLLM_MXFP4_USE_MARLIN=1, or --moe-backend marlin from v0.24: Rule.MXFP4_MARLIN_FLAG)."""
    s = r.settings
    parts = ["vllm", "serve", shlex.quote(model) if model else "MODEL"]

    def flag(name: str, value: object | None = None) -> None:
        parts.append(name if value is None else f"{name} {shlex.quote(str(value))}")

    if s.tensor_parallel_size != 1:
        flag("--tensor-parallel-size", s.tensor_parallel_size)
    if s.pipeline_parallel_size != 1:
        flag("--pipeline-parallel-size", s.pipeline_parallel_size)
    if s.data_parallel_size != 1:
        flag("--data-parallel-size", s.data_parallel_size)
    if s.enable_expert_parallel:
        flag("--enable-expert-parallel")
    if s.disable_custom_all_reduce:
        flag("--disable-custom-all-reduce")
    if s.kv_connector:      # the role is the deployment's (kv_producer / kv_consumer on split prefill/decode)
        flag("--kv-transfer-config", json.dumps({"kv_connector": s.kv_connector, "kv_role": "kv_both"},
                                                separators=(",", ":")))
    if s.decode_context_parallel_size != 1:
        flag("--decode-context-parallel-size", s.decode_context_parallel_size)
    if quantization:
        flag("--quantization", quantization)
    if allow_deprecated_quantization:
        flag("--allow-deprecated-quantization")
    if s.gpu_memory_utilization is not None and \
            abs(s.gpu_memory_utilization - default_gpu_memory_utilization(r.version)) > 1e-12:
        flag("--gpu-memory-utilization", f"{s.gpu_memory_utilization:g}")
    if kv_name and kv_name != "auto":
        flag("--kv-cache-dtype", kv_name)
    if r.auto_max_model_len:
        flag("--max-model-len", "auto")
    elif s.max_model_len is not None:
        flag("--max-model-len", s.max_model_len)
    if s.performance_mode not in (None, "balanced"):
        flag("--performance-mode", s.performance_mode)
    # a value equal to the default vLLM fills in (doubled in throughput mode) goes unsaid
    if s.max_num_batched_tokens is not None and \
            s.max_num_batched_tokens != r.batch_defaults.max_num_batched_tokens:
        flag("--max-num-batched-tokens", s.max_num_batched_tokens)
    if s.max_num_seqs is not None and s.max_num_seqs != r.batch_defaults.max_num_seqs:
        flag("--max-num-seqs", s.max_num_seqs)
    if s.block_size is not None:
        flag("--block-size", s.block_size)
    if s.enforce_eager:
        flag("--enforce-eager")
    if s.optimization_level in (0, 1):      # 2 is the default and 3 the same
        parts.append(f"-O{s.optimization_level}")
    if s.enable_prefix_caching is not None and s.enable_prefix_caching != prefix_caching_default:
        flag("--enable-prefix-caching" if s.enable_prefix_caching else "--no-enable-prefix-caching")
    if s.enable_chunked_prefill is False and applies(Rule.CHUNKED_PREFILL_OPTIONAL, r.version):
        flag("--no-enable-chunked-prefill")
    if applies(Rule.EXTENSIBLE_KV_CACHE, r.version):
        # off by choice, or on where a KV connector leaves it off by default (settings.extensible_kv_cache_in_effect)
        if s.enable_extensible_kv_cache is False:
            flag("--no-enable-extensible-kv-cache")
        elif s.enable_extensible_kv_cache and s.kv_connector is not None:
            flag("--enable-extensible-kv-cache")
    if s.async_scheduling is not None and s.async_scheduling != async_scheduling_default:
        flag("--async-scheduling" if s.async_scheduling else "--no-async-scheduling")
    if s.disable_hybrid_kv_cache_manager:
        flag("--disable-hybrid-kv-cache-manager")
    if s.skip_mm_profiling:
        flag("--skip-mm-profiling")
    if s.language_model_only:
        flag("--language-model-only")
    if s.disable_sliding_window:
        flag("--disable-sliding-window")
    if r.mm_limits is not None:
        flag("--limit-mm-per-prompt", r.mm_limits.spelled)
    if r.mm_processor is not None:
        flag("--mm-processor-kwargs", r.mm_processor.spelled)
    if s.max_cudagraph_capture_size is not None:
        flag("--max-cudagraph-capture-size", s.max_cudagraph_capture_size)
    if r.capture_sizes:
        parts.append(" ".join(["--cudagraph-capture-sizes", *map(str, r.capture_sizes)]))
    if s.cudagraph_mode is not None:     # the JSON form every release from v0.10.1 reads
        flag("--compilation-config", json.dumps({"cudagraph_mode": s.cudagraph_mode}, separators=(",", ":")))
    backend_flag = applies(Rule.ATTENTION_BACKEND_FLAG, r.version)
    backend = s.attention_backend
    if backend == "TRITON_ATTN" and not applies(Rule.TRITON_ATTN_RENAMED, r.version):
        backend = "TRITON_ATTN_VLLM_V1"
    if backend is not None and backend_flag:
        flag("--attention-backend", backend)
    if isinstance(s.hf_overrides, dict) and s.hf_overrides:     # engine.calculate made it a dict
        flag("--hf-overrides", json.dumps(s.hf_overrides, separators=(",", ":"), ensure_ascii=False))
    if s.kv_cache_memory_bytes:
        flag("--kv-cache-memory-bytes", s.kv_cache_memory_bytes)
    if s.num_gpu_blocks_override:
        flag("--num-gpu-blocks-override", s.num_gpu_blocks_override)
    if s.cpu_offload_gb:
        flag("--cpu-offload-gb", f"{s.cpu_offload_gb:g}")
    if s.mamba_ssm_cache_dtype not in (None, "auto"):
        flag("--mamba-ssm-cache-dtype", s.mamba_ssm_cache_dtype)
    if s.fp4_indexer_cache:     # the spelling the release takes (v0.30 refuses the old key)
        flag("--attention-config", '{"indexer_kv_dtype":"mxfp4"}' if applies(Rule.FP4_INDEXER_DTYPE_KEY, r.version)
             else '{"use_fp4_indexer_cache":true}')
    marlin_flag = applies(Rule.MXFP4_MARLIN_FLAG, r.version)
    if mxfp4_experts and s.mxfp4_marlin and marlin_flag:
        flag("--moe-backend", "marlin")
    if s.speculative is not None:
        cfg: dict[str, Any] = {"method": s.speculative.method}
        if s.speculative.num_speculative_tokens is not None:    # else vLLM's default for the method
            cfg["num_speculative_tokens"] = s.speculative.num_speculative_tokens
        if s.speculative.model:
            cfg["model"] = s.speculative.model
        flag("--speculative-config", json.dumps(cfg, separators=(",", ":")))
    # Environment variables, not flags: they go before the command, where they differ from the default.
    if s.flashinfer_sampler is not None and s.flashinfer_sampler != flashinfer_sampler_default(r.version):
        parts.insert(0, f"VLLM_USE_FLASHINFER_SAMPLER={int(s.flashinfer_sampler)}")
    if (s.rocm_quick_reduce or "NONE").upper() != "NONE":
        parts.insert(0, f"VLLM_ROCM_QUICK_REDUCE_QUANTIZATION={s.rocm_quick_reduce.upper()}")
    if s.cudagraph_memory_profiling is not None and \
            s.cudagraph_memory_profiling != applies(Rule.CUDA_GRAPH_ESTIMATE_DEDUCTED, r.version):
        parts.insert(0, f"VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS={int(s.cudagraph_memory_profiling)}")
    if s.allow_long_max_model_len and r.max_len_limit is not None and r.max_model_len > r.max_len_limit:
        parts.insert(0, "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1")
    if backend is not None and not backend_flag:
        parts.insert(0, f"{BACKEND_VARIABLE}={backend}")
    if mxfp4_experts and s.mxfp4_marlin and not marlin_flag:
        parts.insert(0, "VLLM_MXFP4_USE_MARLIN=1")
    if s.model_runner_v2 is not None and s.model_runner_v2 != model_runner_v2_default:
        parts.insert(0, f"VLLM_USE_V2_MODEL_RUNNER={int(s.model_runner_v2)}")
    return " ".join(parts)
