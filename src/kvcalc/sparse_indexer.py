"""The profile placeholder of the sparse-attention indexer (DeepSeek-V3.2, GLM-5, DeepSeek-V4): the logits
its dummy pass allocates so the memory profile holds the real steps' worst case
(vllm/model_executor/layers/sparse_attn_indexer.py ``sparse_attn_indexer``). Sizes are bytes."""

from __future__ import annotations

from .units import MIB, cdiv
from .versions import Rule, Version, applies

PREFILL_LOGITS_BYTES = 512 * MIB
"""``VLLM_SPARSE_INDEXER_MAX_LOGITS_MB`` (512): a prefill chunk's float32 logits, the whole placeholder
before v0.34."""

DECODE_LOGITS_BUDGET_BYTES = 2048 * MIB
"""``VLLM_SPARSE_INDEXER_MAX_DECODE_LOGITS_MB`` (2,048, v0.34): decode rows per chunk on compute capability
10.x, where top-k is 512, 1,024 or 2,048."""

CHUNKED_TOPK = (512, 1024, 2048)


def logits_placeholder_bytes(version: Version, capability_major: int, max_num_seqs: int, mnbt: int,
                             spec_tokens: int, indexer_len: int, topk: int) -> int:
    """The placeholder: 512 MiB before v0.34; from v0.34 (Rule.SPARSE_INDEXER_DECODE_PLACEHOLDER) at least
    the decode logits, min(max_num_seqs, max_num_batched_tokens) x (1 + ``spec_tokens``) rows of the
    indexer's length (``indexer_len``: max_model_len, a quarter of it for DeepSeek-V4's compressed
    keys) rounded up to lcm(KV split, 256) values (384 on 10.x, else 256), float32 logits; on 10.x with a
    top-k of 512, 1,024 or 2,048 the rows are chunked to DECODE_LOGITS_BUDGET_BYTES. DeepSeek-V3.2 at
    1,024 sequences and 163,840 tokens on an H200: 0.63 GiB."""
    if not applies(Rule.SPARSE_INDEXER_DECODE_PLACEHOLDER, version) or indexer_len <= 0:
        return PREFILL_LOGITS_BYTES
    rows = min(max_num_seqs, mnbt) * (1 + spec_tokens)
    blackwell = capability_major == 10
    if blackwell and topk in CHUNKED_TOPK:
        rows = min(rows, DECODE_LOGITS_BUDGET_BYTES // (4 * indexer_len))
    align = 768 if blackwell else 256
    return max(PREFILL_LOGITS_BYTES, rows * cdiv(indexer_len, align) * align * 4)
