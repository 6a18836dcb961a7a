"""What DeepSeek-V4's profile run holds at its peak: the forward pass of max_num_batched_tokens tokens and
the buffers vLLM's WorkspaceManager keeps after it.

kvcalc's generic activation model (reserve.forward_bytes: a gated MLP or fused-MoE caches beside a few
hidden-size tensors) misses what dominates DeepSeek-V4: a hyper-connection residual stream four hidden
sizes wide, queries padded to the attention kernel's head count, the sparse-attention indexer's
512 MiB logits placeholder, and grow-only workspaces whose size follows max_model_len (the indexer's
key gather, FlashMLA's prefill gather). Read from the v0.23-v0.30 wheels (vllm/models/deepseek_v4/
attention.py, nvidia/flashmla.py, nvidia/flashinfer_sparse.py; model_executor/layers/
sparse_attn_indexer.py; v1/attention/backends/mla/indexer.py; fused_moe/experts/*; v1/worker/
workspace.py). On a public B300 start (v0.26, with DSpark, whose dummy proposal sets the peak there) the same
reading gives 2.98 GiB against the logged 2.99 GiB of peak activation. Sizes are bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .params import config_int as _n, padded_vocab
from .sparse_indexer import logits_placeholder_bytes
from .units import MIB, cdiv
from .versions import Rule, Version, applies

FLASHINFER_SM120_WORKSPACE = 128 * MIB
"""FlashInfer's DeepSeek-V4 workspace on compute capability 12.x, allocated by the dummy pass and kept
(nvidia/flashinfer_sparse.py ``_get_flashinfer_dsv4_workspace``)."""
PREFILL_CHUNK = 4
INDEXER_GATHER_ROWS_PER_TOKEN = 10
"""The indexer's key gather holds 40 x max_model_len / 4 rows (indexer.py ``get_max_prefill_buffer_size``)."""


@dataclass(frozen=True)
class DeepseekV4Peak:
    """``workspace``: what the WorkspaceManager keeps from the forward pass on (the largest single
    request: it grows, never sums) plus FlashInfer's SM120 workspace; ``forward``: the worst layer's
    transient tensors on top of it; ``draft``: DSpark's proposal pass, also on top of it. The profile's
    peak is workspace + max(forward, draft, the sampler's warm-up)."""

    workspace: int
    forward: int
    workspace_kind: str
    draft: int = 0      # DSpark's dummy proposal after the forward pass (``dspark_draft_bytes``)


def padded_heads(heads: int, sm120: bool, version: Version) -> int:
    """The query heads the attention kernel pads to: FlashMLA 64 or 128 (nvidia/flashmla.py), FlashInfer's
    SM120 path the smallest of 16, 32, 64, 128 (8 too from v0.30; flashinfer_sparse.py)."""
    if sm120:
        sizes = ((8,) if applies(Rule.DSV4_SM120_HEADS_8, version) else ()) + (16, 32, 64, 128)
    else:
        sizes = (64, 128)
    return next((s for s in sizes if heads <= s), heads)


def deepseek_v4_peak(config: dict[str, Any], *, mnbt: int, max_model_len: int, tp: int, capability_major: int,
                     version: Version, expert_parallel: bool = False, dspark_tokens: int = 0,
                     max_num_seqs: int = 0, fp4_indexer: bool = False, spec_tokens: int = 0) -> DeepseekV4Peak:
    """The profile run's torch peak beside the sampler, for one GPU.

    Workspace (one buffer, the largest request): FlashMLA's prefill gather 4 x (L/4 + 128 + T) x 512 bf16
    values (compute capability 9.0 and 10.x; from v0.27 plus T x (index_topk + 128, rounded to 128)
    int32: Rule.DSV4_FLASHMLA_TOPK_WORKSPACE), the indexer's key gather 10 x L x (index_head_dim + 4)
    bytes plus 1 MiB (10 x L x 68 with the MXFP4 indexer cache, ``fp4_indexer``), and the MoE kernel's
    workspaces: Marlin's on 9.0 (T x top-k x (max(I/TP, H) + max(2I/TP, H)) bf16), DeepGEMM's on 12.x from
    v0.25 (rows rounded per expert to 128), the TRT-LLM kernel's output alone on 10.x (T x H).
    FlashInfer's 128 MiB on 12.x besides.

    Forward (the worst layer, one with ratio 4): two residual streams of hc_mult x H (the caller still
    holds the previous one) and two hidden states, the query projections and compressor scores
    (16,512 bytes a token for Flash's widths), the padded attention output, then either the query with
    its profile-only padding or the indexer's query and its logits placeholder (512 MiB; from v0.34 at least
    the decode logits over L/4 compressed keys: sparse_indexer.py, ``spec_tokens`` per step); from v0.28 the
    indexer runs after the query projection, so the placeholder meets the padded query
    (Rule.DSV4_INDEXER_AFTER_Q). With DSpark (``dspark_tokens`` speculative tokens) the target also keeps
    the hidden states its drafter fuses through the last layer, and the drafter's dummy proposal follows
    (``dspark_draft_bytes``; from v0.28 in a workspace lane of its own, Rule.DSPARK_DRAFT_WORKSPACE_LANE)."""
    T, L = mnbt, max_model_len
    H, hc = _n(config, "hidden_size"), _n(config, "hc_mult", 1) or 1
    head_dim = _n(config, "head_dim", 512)
    heads = max(1, _n(config, "num_attention_heads") // tp)
    sm120 = capability_major == 12
    padded = padded_heads(heads, sm120, version)
    ihd, ih = _n(config, "index_head_dim", 128), _n(config, "index_n_heads", 64)
    topk_idx = _n(config, "index_topk")
    r_q = _n(config, "q_lora_rank")
    E, k, I = _n(config, "n_routed_experts"), _n(config, "num_experts_per_tok", 1), _n(config, "moe_intermediate_size")
    i_tp = I if expert_parallel else cdiv(I, tp)

    # the indexer's keys as it gathers them: fp8 values and a float32 scale per 128, or with the MXFP4 cache
    # (every release with the flag) packed values and a scale per 32: 1,320 or 680 bytes a token
    key_bytes = ihd // 2 + ihd // 32 if fp4_indexer else ihd + ihd // 128 * 4
    gathers = {"indexer": INDEXER_GATHER_ROWS_PER_TOKEN * L * key_bytes + MIB}
    if not sm120:
        flashmla = PREFILL_CHUNK * (cdiv(L, PREFILL_CHUNK) + 128 + T) * head_dim * 2
        if applies(Rule.DSV4_FLASHMLA_TOPK_WORKSPACE, version):
            flashmla += T * cdiv(topk_idx + 128, 128) * 128 * 4 + 4 * T
        gathers["flashmla"] = flashmla
    def moe_workspace(tokens: int) -> int:
        if capability_major == 10:
            return tokens * H * 2
        if sm120 and applies(Rule.DSV4_SM120_DEEPGEMM_MOE, version):
            rows = cdiv(tokens * k + min(tokens * k, E) * 127, 128) * 128
            return 2 * rows * max(2 * i_tp, H) * 2
        return tokens * k * (max(i_tp, H) + max(2 * i_tp, H)) * 2

    gathers["moe"] = moe_workspace(T)
    kind = max(gathers, key=gathers.get)
    workspace = gathers[kind] + (FLASHINFER_SM120_WORKSPACE if sm120 else 0)
    draft = 0
    if dspark_tokens:
        rows = min(T, max_num_seqs or T)
        draft = dspark_draft_bytes(config, T, rows, dspark_tokens, tp)
        if applies(Rule.DSPARK_DRAFT_WORKSPACE_LANE, version):
            workspace += moe_workspace(rows * dspark_tokens)

    base = T * (2 * hc * H * 2 + 2 * H * 2 + _projections(r_q, head_dim, ihd, ih) + padded * head_dim * 2)
    query = T * heads * head_dim * 2
    query_pad = T * padded * head_dim * 2 if padded > heads else 0
    if fp4_indexer and applies(Rule.DSV4_EAGER_SCRATCH, version) and \
            not applies(Rule.DSV4_EAGER_SCRATCH_REMOVED, version):
        index_q = 0         # v0.27-v0.28 quantize the MXFP4 query into the eager scratch pool (in the weights)
    else:
        index_q = T * (ih * (ihd // 2 + ihd // 32 if fp4_indexer else ihd) + ih * 4)
    logits = logits_placeholder_bytes(version, capability_major, max_num_seqs or T, T, spec_tokens,
                                      L // PREFILL_CHUNK, topk_idx)
    if applies(Rule.DSV4_INDEXER_AFTER_Q, version):
        forward = base + max(query + query_pad + index_q, (query_pad or query) + index_q + logits)
    else:
        forward = base + max(query + query_pad, index_q + logits)
    if dspark_tokens:   # the target keeps the drafter's inputs: the other aux states and their fused stream
        forward += (len(config.get("dspark_target_layer_ids") or ()) - 1) * T * H * 2 + T * hc * H * 2
    return DeepseekV4Peak(workspace, forward, kind, draft)


def dspark_draft_bytes(config: dict[str, Any], tokens: int, rows: int, k: int, tp: int) -> int:
    """DSpark's dummy proposal (vllm/v1/worker/gpu/spec_decode/dspark/speculator.py): the target's hidden
    states, its aux states and their fusion ([T, H] each, bf16), the drafter's two hidden states over
    rows x k query tokens, its full-vocabulary logits over them (bf16) and, per step, the Markov bias and
    the step's logits with the previous pair still alive (3 x rows x vocab bf16). Over TP the drafter's
    logits are gathered across the vocabulary, which holds 2 x rows x k x vocab x (2 + 1/TP) bytes at once
    (logits_processor.py, the pynccl all-gather; read from the code, not seen in a log). B300, v0.26,
    1,024 rows, k 7: 2,957 MiB; with the 96.5 MiB workspace 2.98 GiB against the logged 2.99."""
    H, V = _n(config, "hidden_size"), padded_vocab(_n(config, "vocab_size"))
    n_aux = len(config.get("dspark_target_layer_ids") or ())
    proposal = tokens * H * 2 * (2 + n_aux) + 4 * rows * k * H + 2 * rows * k * V + 6 * rows * V
    if tp == 1:
        return proposal
    gather = 10 * tokens * H + 6 * rows * k * H + 2 * rows * k * V * (2 * tp + 1) // tp
    return max(proposal, gather)


def _projections(r_q: int, head_dim: int, ihd: int, ih: int) -> int:
    """Bytes a token of the attention's inputs alive at the worst layer: the fused q/kv projection
    (q_lora_rank + head_dim, bf16) and its normed copy, the ratio-4 compressor's float32 scores
    (2 x 2 x head_dim) and the indexer compressor's (2 x 2 x index_head_dim), the indexer's bf16 weights
    (one a head). Flash: 6,144 + 8,192 + 2,048 + 128 = 16,512 bytes."""
    return 2 * 2 * (r_q + head_dim) + 4 * 2 * 2 * head_dim + 4 * 2 * 2 * ihd + 2 * ih


__all__ = ["DeepseekV4Peak", "deepseek_v4_peak", "dspark_draft_bytes", "padded_heads"]
