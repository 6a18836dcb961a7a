"""Plain-data views of a calculation: the one JSON shape the CLI prints with ``--json`` and the
page's worker returns. Bytes stay integers; GiB values are floats rounded to 4 places."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from .engine import Calculation, PoolResult
from .reserve import SAMPLER_NAMES
from .settings import speculative_tokens
from .units import GIB
from .versions import Rule, applies


def _gib(b: int | float) -> float:
    return round(b / GIB, 4)


def pool_dict(p: PoolResult | None) -> dict[str, Any] | None:
    if p is None:
        return None
    return {
        "available_bytes": p.available_bytes, "available_gib": _gib(p.available_bytes),
        "num_blocks": p.num_blocks, "blocks_per_request": p.blocks_per_request,
        "max_concurrency": p.max_concurrency, "tokens": p.tokens, "fits": p.fits,
        "needed_bytes": p.needed_bytes, "needed_gib": _gib(p.needed_bytes),
        "estimated_max_model_len": p.estimated_max_model_len, "error": p.error,
        "log_lines": list(p.log_lines), "avg_requests": p.avg_requests, "max_model_len": p.max_model_len,
    }


def calculation_dict(c: Calculation) -> dict[str, Any]:
    r = c.resolved
    s = r.settings
    kinds = Counter(l.kind for l in c.arch.layers)
    groups = [{"layers": len(g.layer_names), "kind": g.spec.kind, "block_size": g.spec.block_size,
               "page_bytes": g.page_size_bytes} for g in c.grouping.groups]
    budget = None
    if c.budget is not None:
        b = c.budget
        budget = {
            "total_bytes": b.total_bytes, "total_gib": _gib(b.total_bytes),
            "requested_bytes": b.requested_bytes, "requested_gib": _gib(b.requested_bytes),
            "terms": [{"name": t.name, "bytes": t.bytes, "gib": _gib(t.bytes), "low_gib": _gib(t.low),
                       "high_gib": _gib(t.high), "basis": t.basis} for t in b.terms],
            "available_bytes": b.available_bytes, "available_gib": _gib(b.available_bytes),
            "available_low_gib": _gib(b.available_low), "available_high_gib": _gib(b.available_high),
            "left_outside_util_bytes": b.total_bytes - b.requested_bytes,
            "left_outside_util_gib": _gib(b.total_bytes - b.requested_bytes),
            "checkpoint_bytes": b.checkpoint_bytes, "checkpoint_gib": _gib(b.checkpoint_bytes),
            # v0.34's extensible KV cache: the reservation vLLM prints as "Available KV cache memory", per stage
            "capacity_available": list(b.capacity_available),
        }
    band = None
    if c.estimated_low is not None and c.estimated_high is not None:
        band = {"tokens_low": c.estimated_low.tokens, "tokens_high": c.estimated_high.tokens}
    from_log = None
    if c.from_log is not None:
        from_log = pool_dict(c.from_log)
        from_log["tokens_low"] = c.from_log_low.tokens
        from_log["tokens_high"] = c.from_log_high.tokens
    return {
        "model": {"id": c.model_id, "architecture": c.arch.architecture,
                  "model_type": c.arch.model_type, "layers": dict(kinds),
                  "dtype": c.model_dtype, "max_model_len_limit": c.resolved.max_len_limit},
        "gpu": {"key": c.gpu.key, "name": c.gpu.name, "total_bytes": c.gpu.total_bytes,
                "total_gib": _gib(c.gpu.total_bytes)},
        "settings": {
            "vllm_version": str(r.version), "tensor_parallel_size": s.tensor_parallel_size,
            "pipeline_parallel_size": s.pipeline_parallel_size,
            "data_parallel_size": s.data_parallel_size,
            "enable_expert_parallel": bool(s.enable_expert_parallel),
            "disable_custom_all_reduce": bool(s.disable_custom_all_reduce),
            "kv_connector": s.kv_connector,
            "gpu_memory_utilization": r.gpu_memory_utilization,
            "kv_cache_dtype": s.kv_cache_dtype, "kv_cache_dtype_resolved": c.kv.name,
            "max_model_len": r.max_model_len, "max_model_len_auto": r.auto_max_model_len,
            "max_num_batched_tokens": r.max_num_batched_tokens,
            "max_num_seqs": r.max_num_seqs, "block_size": c.layout.block_size,
            "block_size_reason": c.layout.block_size_reason, "enforce_eager": s.enforce_eager,
            "entrypoint": s.entrypoint, "avg_tokens": s.avg_tokens,
            "flashinfer_sampler": s.flashinfer_sampler,
            "cudagraph_memory_profiling": s.cudagraph_memory_profiling,
            "allow_long_max_model_len": s.allow_long_max_model_len,
            "model_runner_v2": s.model_runner_v2,
            "rocm_quick_reduce": s.rocm_quick_reduce.upper() if isinstance(s.rocm_quick_reduce, str) else None,
            "sampler": SAMPLER_NAMES[c.sampler],
            "enable_prefix_caching": c.prefix_caching,
            "skip_mm_profiling": bool(s.skip_mm_profiling),
            "language_model_only": bool(s.language_model_only),
            "disable_sliding_window": bool(s.disable_sliding_window),
            "max_cudagraph_capture_size": s.max_cudagraph_capture_size,
            "cudagraph_capture_sizes": list(r.capture_sizes) if r.capture_sizes is not None else None,
            "limit_mm_per_prompt": json.loads(r.mm_limits.spelled) if r.mm_limits is not None else None,
            "mm_processor_kwargs": json.loads(r.mm_processor.spelled) if r.mm_processor is not None else None,
            "compile_cache": s.compile_cache,
            "pinned_memory": s.pinned_memory,
            "peer_to_peer": s.peer_to_peer,
            "mxfp4_marlin": s.mxfp4_marlin,
            "fp4_indexer_cache": s.fp4_indexer_cache,
            "performance_mode": s.performance_mode,
            "cudagraph_mode": s.cudagraph_mode,
            "attention_backend": s.attention_backend,
            "optimization_level": s.optimization_level,
            "enable_chunked_prefill": s.enable_chunked_prefill,
            "enable_extensible_kv_cache": s.enable_extensible_kv_cache,
            "extensible_kv_cache": r.extensible_kv_cache,
            "hf_overrides": s.hf_overrides,
            # the speculative config as vLLM's flag spells it, and whether the drafter's config was given
            "speculative": None if s.speculative is None else {
                "method": s.speculative.method, "num_speculative_tokens": speculative_tokens(s.speculative, r.version),
                "model": s.speculative.model, "drafter_config": s.speculative.draft_config is not None},
            "defaults_used": sorted(r.defaults_used), "batch_defaults_row": r.batch_defaults.memory_class,
        },
        "layout": {
            "kv_bytes_per_token": c.kv_bytes_per_token, "kv_heads_per_gpu": c.layout.kv_heads_per_gpu,
            "grouping": c.grouping.kind, "groups": groups, "group_size": c.grouping.group_size,
            "padding_layers": c.grouping.padding_layers, "hybrid_manager": c.layout.hybrid_manager,
            "mamba_state_bytes": c.layout.mamba_state_bytes, "in_flight_tokens": c.in_flight_tokens,
            "model_runner_v2": c.model_runner_v2, "async_scheduling": c.async_scheduling,
            "token_formula": ("int(max_concurrency × max_model_len)"
                              if applies(Rule.TOKENS_FROM_CONCURRENCY, r.version)
                              else "num_blocks // num_groups × block_size"),
        },
        "budget": budget, "budget_note": c.budget_note,
        "estimated": pool_dict(c.estimated), "estimated_band": band,
        "fp8_cache_helps": c.fp8_cache_helps,
        "from_log": from_log,
        "serve_command": c.serve_command,
        "notes": list(c.notes),
    }
