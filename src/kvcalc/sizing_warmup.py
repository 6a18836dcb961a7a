"""The sizing warm-up of vLLM v0.34's extensible KV cache (Rule.EXTENSIBLE_KV_CACHE): steps vLLM runs
after the profile so that the transient peak it keeps free covers shapes the profile never reaches
(vllm/v1/worker/gpu/warmup.py ``run_kv_cache_sizing_warmup``; the peak is folded in by
``ExtensibleKVCache.record_transient_peak`` as allocated-at-peak less allocated-now).

Of its steps kvcalc sizes the one that can outgrow the profile: for a model with MLA attention, one
prefill over a prefix-cache hit's context, so that the peak covers up-projecting a cached context
chunk by chunk (``run_context_prefill_warmup``). Each chunk of cached latents goes through
``kv_b_proj`` into per-head keys and values, a transient no step from an empty prefix reaches
(vllm/model_executor/layers/attention/mla_attention.py ``MLACommonBaseImpl._compute_prefill_context``).
The full-budget prefill step the warm-up also runs is the profile's forward pass with attention added;
its MLA up-projection covers only the step's own tokens and stays under the MLP's intermediates, so
kvcalc leaves it to the activation term.
"""

from __future__ import annotations

from typing import Any

from .params import text_part

CONTEXT_WORKSPACE_MAX_TOKENS = 64 * 1024
"""The chunked-context workspace's cap (``MLACommonMetadataBuilder.determine_chunked_prefill_workspace_size``:
min(max(8 x max_model_len, 4 x max_num_seqs x block size), 64k tokens), rounded up to the block size)."""


def context_workspace_tokens(max_model_len: int, max_num_seqs: int, block_size: int) -> int:
    """Rows of the chunked-context workspace: the most cached tokens one chunk up-projects."""
    size = min(max(8 * max_model_len, 4 * max_num_seqs * block_size), CONTEXT_WORKSPACE_MAX_TOKENS)
    size = max(size, block_size)
    return -(-size // block_size) * block_size


def context_step_tokens(max_model_len: int, max_num_seqs: int, mnbt: int, block_size: int,
                        decode_query_len: int) -> int:
    """Cached tokens the context step's first chunk up-projects (``run_context_prefill_warmup``): requests
    whose context is min(max_model_len - query - 1, workspace), each with a query of decode_query_len + 1
    tokens, as many as fill the workspace, no more than max_num_seqs nor than the step's token budget
    allows (``_cap_num_warmup_reqs``; the draft slot a draft model adds to each request is left out).
    A pool too small to commit one such request skips the step, which kvcalc does not follow (the pool
    then comes out a little low)."""
    query = decode_query_len + 1
    workspace = context_workspace_tokens(max_model_len, max_num_seqs, block_size)
    context = min(max_model_len - query - 1, workspace)
    if context <= 0:
        return 0
    requests = min(-(-workspace // context), max_num_seqs, mnbt // query)
    return min(workspace, max(requests, 0) * context)


def mla_context_step_bytes(config: dict[str, Any], tp: int, dtype_bytes: int, tokens: int
                           ) -> tuple[int, int, int]:
    """Typical, low and high transient bytes of up-projecting ``tokens`` cached latents on one GPU: the
    ``kv_b_proj`` output of heads / TP x (qk_nope + v) values per token (the values a view of it), and the
    keys rebuilt with the rope part, heads / TP x (qk_nope + qk_rope) (``_concat_k_nope_k_pe``), in the
    model's dtype. The high end adds a contiguous copy of the values, which some prefill kernels take."""
    t = text_part(config)
    heads = t.get("num_attention_heads")
    dims = [t.get(k) for k in ("qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim")]
    if not isinstance(heads, int) or not all(isinstance(d, int) for d in dims) or tokens <= 0:
        return 0, 0, 0
    nope, rope, v = dims
    per_gpu = -(-heads // tp)
    typical = tokens * per_gpu * ((nope + v) + (nope + rope)) * dtype_bytes
    return typical, typical, typical + tokens * per_gpu * v * dtype_bytes
