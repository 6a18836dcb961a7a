"""Per-layer KV cache specs on one GPU: page size and per-request maximum.

One small frozen dataclass per attention kind, mirroring ``vllm/v1/kv_cache_interface.py``
(upstream 63344913, 2026-08-13). Sizes are bytes; ``block_size`` is tokens per block.
Equality of two specs is vLLM's "same spec" test, which decides grouping.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .units import cdiv


@dataclass(frozen=True)
class SizingContext:
    """What a per-request maximum depends on besides the spec itself.

    ``in_flight_tokens`` is ``VllmConfig.max_in_flight_tokens``: tokens scheduled but not
    yet settled (see ``paging.in_flight_tokens``). ``mamba_mode`` is the Mamba cache
    mode: "none" (one state block), "align" (prefix caching: two) or "all" (prefix caching on a
    model that caches a state per block before v0.28: one per block of max_model_len).
    """

    max_model_len: int
    in_flight_tokens: int
    mamba_mode: str = "align"
    dcp: int = 1  # decode context parallel: each rank keeps 1/dcp of a full-attention sequence


@dataclass(frozen=True)
class FullAttentionSpec:
    """Full attention: a request keeps every token. ``token_bytes`` = heads/GPU × (K + V) bytes.

    Page = block_size × token_bytes; Llama-3.1-8B bf16 at TP 1: 16 × 8 × 256 × 2 = 64 KiB.
    A sliding-window or chunked layer promoted to full length (hybrid manager off) keeps
    its window in ``local_window`` only for display; it is not part of its identity.
    """

    block_size: int
    token_bytes: int
    num_kv_heads: int
    head_size: int
    head_size_v: int
    page_size_padded: int | None = None
    local_window: int | None = field(default=None, compare=False)

    kind = "full"

    @property
    def page_size_bytes(self) -> int:
        return self.page_size_padded or self.block_size * self.token_bytes

    def max_blocks(self, ctx: SizingContext) -> int:
        """cdiv(L, block_size): 131,072 tokens at 16 per block need 8,192 blocks. With decode
        context parallel the sequence is split across ranks first: cdiv(cdiv(L, dcp), bs)."""
        return cdiv(cdiv(ctx.max_model_len, ctx.dcp), self.block_size)

    def max_memory_usage_bytes(self, ctx: SizingContext) -> int:
        return self.max_blocks(ctx) * self.page_size_bytes

    def with_block_size(self, block_size: int):
        return replace(self, block_size=block_size)


@dataclass(frozen=True)
class MLASpec(FullAttentionSpec):
    """Multi-head latent attention: one latent per token and layer, never split by TP.

    DeepSeek-V3: kv_lora_rank 512 + qk_rope_head_dim 64 = 576 values, 1,152 bytes in bf16.
    Also used for the V3.2 indexer cache (128 fp8 values + one fp32 scale = 132 bytes).
    """

    kind = "mla"


@dataclass(frozen=True)
class SlidingWindowSpec(FullAttentionSpec):
    """Sliding-window attention (``SlidingWindowSpec.max_admission_blocks_per_request``).

    A request holds the last ``window − 1`` computed tokens plus the in-flight ones, never
    more than L, plus one block because the window need not start on a block boundary:
    gpt-oss (W 128, in-flight 2 × 8,192, bs 16) needs cdiv(127 + 16,384, 16) + 1 = 1,033.
    """

    window: int = 0
    kind = "sliding_window"

    def max_blocks(self, ctx: SizingContext) -> int:
        tokens = min(self.window - 1 + ctx.in_flight_tokens, ctx.max_model_len)
        return cdiv(tokens, self.block_size) + 1


@dataclass(frozen=True)
class ChunkedLocalSpec(FullAttentionSpec):
    """Chunked local attention (Llama 4): one chunk plus the in-flight tokens, no +1 block.

    chunk 8,192, in-flight 8,192, bs 16, L 131,072: cdiv(16,384, 16) = 1,024 blocks.
    """

    chunk: int = 0
    kind = "chunked_local"

    def max_blocks(self, ctx: SizingContext) -> int:
        return cdiv(min(self.chunk + ctx.in_flight_tokens, ctx.max_model_len), self.block_size)


@dataclass(frozen=True)
class MambaSpec:
    """Recurrent state (Mamba2, gated delta net): a fixed number of bytes per request.

    ``state_bytes`` = Σ prod(shape) × dtype bytes over the conv and SSM states on one GPU.
    A request holds 1 state block, or 2 in "align" mode (prefix caching) plus one for the
    prefill checkpoint a layer exports where it does (``checkpoint_blocks``: Mamba2 from v0.32,
    FlashInfer's GDN prefill from v0.33), plus one per speculative token, or in "all" mode one
    per block of max_model_len (``MambaSpec.max_memory_usage_bytes``).
    """

    block_size: int
    state_bytes: int
    num_speculative_blocks: int = 0
    page_size_padded: int | None = None
    checkpoint_blocks: int = 0      # ``num_prefill_checkpoint_blocks``, counted in "align" mode only

    kind = "mamba"

    @property
    def page_size_bytes(self) -> int:
        return self.page_size_padded or self.state_bytes

    def max_blocks(self, ctx: SizingContext) -> int:
        if ctx.mamba_mode == "all":     # a state cached per block of the sequence
            return cdiv(ctx.max_model_len, self.block_size)
        base = 2 + self.checkpoint_blocks if ctx.mamba_mode == "align" else 1
        return base + self.num_speculative_blocks

    def max_memory_usage_bytes(self, ctx: SizingContext) -> int:
        return self.max_blocks(ctx) * self.page_size_bytes

    def with_block_size(self, block_size: int):
        return replace(self, block_size=block_size)


LayerSpec = FullAttentionSpec | MambaSpec
"""Any per-layer spec (the attention classes all derive from FullAttentionSpec)."""


def uniform_base(spec: LayerSpec) -> tuple:
    """The family a spec can share a UniformType group with (``is_uniform_with_collection``).

    Full attention and MLA form one family (MLA derives from full attention upstream);
    sliding windows only with the same window, chunked only with the same chunk, Mamba
    only with the same number of speculative blocks.
    """
    if isinstance(spec, SlidingWindowSpec):
        return ("sliding_window", spec.window)
    if isinstance(spec, ChunkedLocalSpec):
        return ("chunked_local", spec.chunk)
    if isinstance(spec, MambaSpec):
        return ("mamba", spec.num_speculative_blocks)
    return ("full",)


def mergeable(a: LayerSpec, b: LayerSpec) -> bool:
    """vLLM's ``spec.merge`` succeeds: same class and equal fields (windows of promoted
    full-attention layers are ignored, as ``FullAttentionSpec.merge`` does)."""
    return type(a) is type(b) and a == b
