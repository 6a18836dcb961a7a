"""Hand-computed pools: expected values worked out on paper from vLLM's rules (cited in
each test), not copied from kvcalc's output."""

import pytest

from factories import calc, config, from_bytes, llama_like
from kvcalc.errors import SettingsError

GIB = 1 << 30
MIB = 1 << 20


def test_llama31_8b_is_128_kib_per_token():
    c = calc("meta-llama/Llama-3.1-8B-Instruct", max_model_len=8192, vllm_version="0.33.0")
    # 32 layers × 8 KV heads × (128 + 128) dims × 2 bytes
    assert c.kv_bytes_per_token == 32 * 8 * 256 * 2 == 128 * 1024
    assert c.grouping.kind == "uniform" and c.grouping.page_size_bytes == 16 * 8 * 256 * 2
    # v0.34's default block is 64 tokens (CacheConfig.DEFAULT_BLOCK_SIZE): pages four times as large
    v34 = calc("meta-llama/Llama-3.1-8B-Instruct", max_model_len=8192, vllm_version="0.34.0")
    assert v34.layout.block_size == 64 and v34.grouping.page_size_bytes == 64 * 8 * 256 * 2


def test_llama31_8b_blocks_from_a_logged_memory():
    # 51.39 GiB / (64 KiB page × 32 layers) = 51.39 × 512 = 26,311.68 -> 26,311 blocks of 16.
    c = calc("meta-llama/Llama-3.1-8B-Instruct", available_kv_gib=51.39, max_model_len=131072,
             gpu_memory_utilization=0.9, vllm_version="0.14.1")
    assert c.from_log.num_blocks == 26311
    assert c.from_log.tokens == 26311 * 16
    assert c.from_log.blocks_per_request == 131072 // 16
    # ±0.005 GiB of rounding = ±2.56 blocks: 26,309 … 26,314.
    assert (c.from_log_low.num_blocks, c.from_log_high.num_blocks) == (26309, 26314)


def test_tp_splits_kv_heads_and_replicates_below_one_per_gpu():
    per_gpu = {tp: calc("meta-llama/Llama-3.1-70B-Instruct", tensor_parallel_size=tp,
                        max_model_len=8192).kv_bytes_per_token for tp in (1, 2, 8)}
    assert per_gpu == {1: 80 * 8 * 256 * 2, 2: 80 * 4 * 256 * 2, 8: 80 * 1 * 256 * 2}
    # Qwen3-30B-A3B has 4 KV heads: at TP 8 each GPU still keeps one whole head.
    assert calc("Qwen/Qwen3-30B-A3B", tensor_parallel_size=8, max_model_len=8192).kv_bytes_per_token \
        == 48 * 1 * 256 * 2


def test_pipeline_parallel_smallest_stage_decides():
    # 61 MLA layers over PP 4 -> [15, 15, 16, 15] (get_pp_indices); the 16-layer stage has the
    # fewest blocks: 1 GiB // (16 × 1152 B × 16 layers) = 3,640.
    c = calc("deepseek-ai/DeepSeek-V3", pipeline_parallel_size=4, tensor_parallel_size=2,
             kv_cache_memory_bytes=GIB, max_model_len=4096, vllm_version="0.33.0")
    assert [len(s) for s in c.layout.stages] == [15, 15, 16, 15]
    assert c.estimated.num_blocks == GIB // (16 * 1152 * 16)


def test_gpt_oss_120b_two_groups_and_9225_blocks_per_request():
    c = calc("openai/gpt-oss-120b", max_model_len=131072, vllm_version="0.33.0")
    assert [(len(g.layer_names), g.spec.kind) for g in c.grouping.groups] == \
        [(18, "sliding_window"), (18, "full")]
    assert c.ctx.in_flight_tokens == 2 * 8192      # H100 serve default, async: two batches
    # full: 131,072 / 16 = 8,192; sliding: cdiv(127 + 16,384, 16) + 1 = 1,033.
    assert c.estimated.blocks_per_request == 9225
    assert c.grouping.page_size_bytes == 16 * 8 * 128 * 2 == 32 * 1024


def test_speculative_methods_that_keep_async_scheduling_by_release():
    """A draft model keeps async scheduling from v0.28 (off before); from v0.33 the methods that
    turn it off (n-gram here) do so on the V1 runner only; that sets how many batches a
    sliding-window layer keeps blocks for (gpt-oss-120b's layers, v0.26+)."""
    def run(version, method, runner_v2=None):
        spec = {"method": method, "num_speculative_tokens": 2}
        if method == "draft_model":
            spec["model"] = "openai/gpt-oss-20b"
            spec["draft_config"] = config("openai/gpt-oss-20b")
        c = calc("openai/gpt-oss-120b", max_model_len=32768, vllm_version=version, speculative=spec,
                 model_runner_v2=runner_v2)
        return c.async_scheduling, c.ctx.in_flight_tokens
    assert run("0.27.0", "draft_model") == (False, 8192)
    assert run("0.28.0", "draft_model")[0] is True
    assert run("0.32.0", "ngram", runner_v2=True)[0] is False
    assert run("0.33.0", "ngram", runner_v2=True) == (True, 2 * 8192)
    assert run("0.33.0", "ngram", runner_v2=False)[0] is False


def test_gpt_oss_sliding_window_before_0_26_uses_one_batch():
    c = calc("openai/gpt-oss-120b", max_model_len=131072, vllm_version="0.25.0")
    assert c.estimated.blocks_per_request == 8192 + 520 + 1     # cdiv(127 + 8,192, 16) + 1


def test_gpt_oss_tokens_formula_changed_in_0_21():
    available = 20 * GIB
    old = from_bytes("openai/gpt-oss-120b", available, max_model_len=131072, vllm_version="0.20.0")
    new = from_bytes("openai/gpt-oss-120b", available, max_model_len=131072, vllm_version="0.21.0")
    blocks = available // (32768 * 18)                          # 35,545
    assert old.num_blocks == new.num_blocks == blocks
    assert old.tokens == blocks // 2 * 16                       # two groups
    assert new.tokens == int(blocks / (8192 + 521) * 131072)


def test_uniform_sliding_window_keeps_plus_one_block():
    # Every layer slides a 4,096 window; at L = 1,024 a request needs cdiv(1024, 16) + 1 = 65.
    cfg = llama_like(model_type="mistral", sliding_window=4096)
    p = from_bytes(cfg, 64 * MIB, max_model_len=1024, vllm_version="0.33.0")
    assert p.blocks_per_request == 65
    # head_dim = 512 / 8 = 64: page per layer = 16 × 2 heads × (64 + 64) × 2 B = 8 KiB; 4 layers.
    assert p.num_blocks == 64 * MIB // (8 * 1024 * 4)
    # The printed pool can exceed num_blocks × 16: int(2,048 / 65 × 1,024) = 32,263.
    assert p.tokens == int(2048 / 65 * 1024)


def test_chunked_local_budgeted_full_length_by_default():
    c = calc("meta-llama/Llama-4-Scout-17B-16E-Instruct", max_model_len=131072, vllm_version="0.33.0")
    assert c.grouping.kind == "uniform" and not c.layout.hybrid_manager
    assert c.estimated.blocks_per_request == 131072 // 16


def test_chunked_local_with_hybrid_manager_groups_three_to_one():
    c = calc("meta-llama/Llama-4-Scout-17B-16E-Instruct", max_model_len=131072,
             disable_hybrid_kv_cache_manager=False, vllm_version="0.33.0")
    assert [len(g.layer_names) for g in c.grouping.groups] == [12, 12, 12, 12]
    # 3 chunked groups: cdiv(min(8,192 + 16,384, L), 16) = 1,536 each; full: 8,192.
    assert c.estimated.blocks_per_request == 3 * 1536 + 8192


@pytest.mark.parametrize("tp", [1, 2, 8])
def test_deepseek_v3_latent_is_whole_on_every_gpu(tp):
    c = calc("deepseek-ai/DeepSeek-V3", tensor_parallel_size=tp, max_model_len=8192, vllm_version="0.33.0")
    assert c.kv_bytes_per_token == 61 * 576 * 2
    assert c.layout.block_size == 16                            # FLASH_ATTN_MLA on Hopper
    # FLASH_ATTN_MLA takes multiples of 16, so v0.34's default 64 stands
    assert calc("deepseek-ai/DeepSeek-V3", tensor_parallel_size=tp, max_model_len=8192,
                vllm_version="0.34.0").layout.block_size == 64


@pytest.mark.parametrize("gpu,version,block", [
    # Hopper: FlashMLA's 64 forced through v0.17 (#24794 in v0.12 only reordered the backends)
    ("h100", "0.11.0", 64), ("h100", "0.14.0", 64), ("h100", "0.17.0", 64), ("h100", "0.18.0", 16),
    ("h100", "0.33.0", 16),
    # B200 (10.0): Triton in v0.10.0, CUTLASS's 128, FlashInfer MLA forced to 64, then its own 32
    ("b200", "0.10.0", 16), ("b200", "0.12.0", 128), ("b200", "0.14.0", 128), ("b200", "0.15.0", 64),
    ("b200", "0.17.0", 64), ("b200", "0.18.0", 32), ("b200", "0.33.0", 32),
    # B300 (10.3): outside the exact 10.0 test until v0.13
    ("b300", "0.12.0", 16), ("b300", "0.13.0", 128), ("b300", "0.33.0", 32),
    # compute capability 12.x has no MLA backend but Triton's
    ("rtx-5090", "0.12.0", 16), ("rtx-5090", "0.33.0", 16), ("rtx-pro-6000", "0.22.0", 16)])
def test_mla_block_size_follows_backend(gpu, version, block):
    """The backend each release picks for DeepSeek-V3's MLA (qk_nope_head_dim 128), read from the
    release wheels' vllm/platforms/cuda.py and, from v0.18, the backends' preferred block sizes."""
    assert calc("deepseek-ai/DeepSeek-V3", gpu, tensor_parallel_size=8, max_model_len=8192,
                vllm_version=version).layout.block_size == block


def test_mla_block_size_depends_on_the_cache_and_the_head_width():
    """FLASH_ATTN_MLA holds 16-bit caches only, so an fp8 cache on Hopper keeps FlashMLA's 64 from
    v0.18; FLASHINFER_MLA takes qk_nope_head_dim 64 or 128 (192 from v0.19), CUTLASS_MLA the rest."""
    def block(gpu, version, kv="auto", **over):
        return calc({**config("deepseek-ai/DeepSeek-V3"), **over}, gpu, tensor_parallel_size=8,
                    max_model_len=8192, vllm_version=version, kv_cache_dtype=kv).layout.block_size
    assert block("h100", "0.33.0", "fp8") == 64
    assert block("h100", "0.17.0", "fp8") == 64
    assert block("b200", "0.33.0", "fp8") == 32
    assert block("b200", "0.18.0", qk_nope_head_dim=192) == 128
    assert block("b200", "0.19.0", qk_nope_head_dim=192) == 32
    assert block("b200", "0.17.0", qk_nope_head_dim=64) == 128


def test_deepseek_v32_indexer_and_fp8_ds_mla():
    c = calc("deepseek-ai/DeepSeek-V3.2", tensor_parallel_size=8, max_model_len=8192,
             kv_cache_dtype="fp8_ds_mla", kv_cache_memory_bytes=GIB)
    assert c.grouping.kind == "uniform_type"
    assert c.layout.block_size == 64
    # 656 B main latent + 132 B indexer per token, 61 layers, 64-token blocks.
    assert c.estimated.num_blocks == GIB // (61 * 64 * (656 + 132))


def test_fp8_kv_doubles_qwen3_8b_pool():
    bf16 = from_bytes("Qwen/Qwen3-8B", 40 * GIB, max_model_len=32768, vllm_version="0.33.0")
    fp8 = from_bytes("Qwen/Qwen3-8B", 40 * GIB, max_model_len=32768, kv_cache_dtype="fp8", vllm_version="0.33.0")
    assert bf16.num_blocks == 40 * GIB // (16 * 8 * 256 * 2 * 36)
    assert fp8.num_blocks == 40 * GIB // (16 * 8 * 256 * 1 * 36)
    assert fp8.tokens in (2 * bf16.tokens, 2 * bf16.tokens + 16)


def test_gemma4_pages_unified_by_block_scaling():
    c = calc("google/gemma-4-26B-A4B", "h200", max_model_len=131072, vllm_version="0.28.0")
    groups = [(len(g.layer_names), g.spec.kind, g.spec.block_size) for g in c.grouping.groups]
    # sliding: 8 heads × 512 × 2 B = 8 KiB/token -> 128 KiB pages at 16; global: 2 × 1024 × 2
    # = 4 KiB/token -> 32-token blocks to reach the same 128 KiB page.
    assert groups == [(5, "sliding_window", 16)] * 5 + [(5, "full", 32)]
    assert c.grouping.page_size_bytes == 128 * 1024


@pytest.mark.parametrize("version,sliding,full", [
    ("0.24.0", 128, 256),   # every layer starts from --block-size; the 4 KiB/token full pages grow to match
    ("0.25.0", 64, 128),    # sliding layers start from the backend's 16 and grow to the 512 KiB full page
    ("0.29.0", 64, 128),    # a v0.29.0 L40S log at --block-size 128 prints exactly this (E-eager.log)
    ("0.30.0", 128, 256),   # --block-size again (Rule.SLIDING_WINDOW_PRIMARY_BLOCK)
])
def test_sliding_layers_take_their_own_block_from_v0_25_to_v0_29(version, sliding, full):
    """Rule.SLIDING_WINDOW_OWN_BLOCK: an explicit --block-size only sets the full-attention layers'
    blocks from v0.25 to v0.29; Gemma 4's sliding layers (8 KiB per token, twice the full layers')
    start from 16 tokens and are scaled to the full layers' page, so their blocks shrink."""
    c = calc("google/gemma-4-26B-A4B", "h200", max_model_len=131072, vllm_version=version, block_size=128)
    groups = [(g.spec.kind, g.spec.block_size) for g in c.grouping.groups]
    assert groups == [("sliding_window", sliding)] * 5 + [("full", full)]
    assert c.grouping.page_size_bytes == sliding * 8 * 1024


@pytest.mark.parametrize("version,padded", [("0.29.0", True), ("0.24.0", False), ("0.30.0", False)])
def test_a_page_that_does_not_divide_the_largest_is_padded(version, padded):
    """Rule.ATTENTION_PAGE_PADDING: at --block-size 48 Gemma 4's full layers take 192 KiB pages;
    from v0.25 to v0.29 its sliding layers start from 16 tokens (128 KiB), which does not divide
    192 KiB, so vLLM pads them (a public v0.29.0 L40S log: 27,946 tokens from 8.56 GiB). Before
    v0.25 and from v0.30 the sliding layers take 48 tokens (384 KiB) and the full ones grow to 96."""
    c = calc("google/gemma-4-26B-A4B", "h200", max_model_len=4096, vllm_version=version, block_size=48)
    sliding = c.grouping.groups[0].spec
    if padded:
        assert (sliding.block_size, sliding.page_size_padded) == (16, 48 * 4096)
        assert c.grouping.page_size_bytes == 48 * 4096
    else:
        assert (sliding.block_size, sliding.page_size_padded) == (48, None)
        assert c.grouping.groups[-1].spec.block_size == 96


def test_pages_that_do_not_divide_fail_before_v0_24():
    """The v0.23.0 wheel raises NotImplementedError where pages do not divide; so does kvcalc."""
    from kvcalc.errors import UnsupportedModelError
    from kvcalc.paging import unify_page_size
    from kvcalc.specs import FullAttentionSpec
    from kvcalc.versions import parse_version
    specs = {"a": FullAttentionSpec(block_size=16, token_bytes=3 * 1024, num_kv_heads=1, head_size=768,
                                    head_size_v=768),
             "b": FullAttentionSpec(block_size=16, token_bytes=2 * 1024, num_kv_heads=1, head_size=512,
                                    head_size_v=512)}
    with pytest.raises(UnsupportedModelError):
        unify_page_size(specs, parse_version("0.23.0"))
    assert unify_page_size(specs, parse_version("0.24.0"))["b"].page_size_bytes == 48 * 1024


def test_qwen35_gated_delta_net_block_alignment():
    c = calc("Qwen/Qwen3.5-35B-A3B", "h100", max_model_len=32768, vllm_version="0.32.0")
    # conv: (2·16·128 + 32·128) × 3 × 2 B = 49,152; recurrent: 32·128·128 × 4 B (float32) = 2,097,152.
    assert c.layout.mamba_state_bytes == 49152 + 2097152
    # attention: 2 heads × 512 × 2 B = 2,048 B/token -> 16 × cdiv(2,146,304, 32,768) = 1,056.
    assert c.layout.block_size == 1056
    assert [g.spec.kind for g in c.grouping.groups].count("mamba") == 3
    # full: cdiv(32,768, 1,056) = 32 blocks; each Mamba group keeps 2 in align mode.
    assert c.estimated.blocks_per_request == 32 + 3 * 2


@pytest.mark.parametrize("gpu,block,per_request", [
    ("h100", 1088, 31 + 3 * 3),       # 64 × cdiv(2,146,304, 64 × 2,048); 2 + 1 checkpoint block
    ("b200", 1088, 31 + 3 * 3),       # 10.x, 128-wide key heads, CUDA 13
    ("rtx-5090", 1088, 31 + 3 * 3),   # 12.x likewise
    ("a100", 1056, 32 + 3 * 2),       # Triton/FLA prefill: no checkpoints, v0.32's layout
    ("mi300x", 1056, 32 + 3 * 2),
])
def test_v033_flashinfer_gdn_prefill_aligns_blocks_to_64_and_keeps_a_checkpoint_block(gpu, block, per_request):
    """v0.33 (Rule.GDN_CHECKPOINT_BLOCK_ALIGNMENT): in align mode, where FlashInfer runs the GDN prefill
    (9.0; 10.x/12.x for 128-wide key heads), the attention block is a multiple of 64 and every GDN layer
    keeps a third state block for the prefill checkpoint it exports."""
    c = calc("Qwen/Qwen3.5-35B-A3B", gpu, max_model_len=32768, vllm_version="0.33.0")
    assert c.layout.block_size == block and c.estimated.blocks_per_request == per_request
    off = calc("Qwen/Qwen3.5-35B-A3B", gpu, max_model_len=32768, vllm_version="0.33.0",
               enable_prefix_caching=False)
    assert off.layout.block_size == 1056 and off.estimated.blocks_per_request == 32 + 3 * 1


def test_v032_mamba2_layers_keep_a_checkpoint_block_in_align_mode():
    """v0.32 (Rule.MAMBA2_CHECKPOINT_BLOCK): MambaMixer2 sets num_prefill_checkpoint_blocks = 1, which
    MambaSpec.max_memory_usage_bytes counts in align mode (2 + 1 state blocks a request)."""
    per = {v: calc("ibm-granite/granite-4.0-h-tiny", "h100", max_model_len=32768, vllm_version=v)
           for v in ("0.31.0", "0.32.0")}
    state_groups = [g for g in per["0.32.0"].grouping.groups if g.spec.kind == "mamba"]
    full_blocks = per["0.31.0"].estimated.blocks_per_request - 2 * len(state_groups)
    assert per["0.32.0"].estimated.blocks_per_request == full_blocks + 3 * len(state_groups)
    off = calc("ibm-granite/granite-4.0-h-tiny", "h100", max_model_len=32768, vllm_version="0.32.0",
               enable_prefix_caching=False)
    assert off.estimated.blocks_per_request == full_blocks + len(state_groups)


def test_hybrid_padding_layers_counted():
    # 12 sliding + 13 full (gpt-oss-20b + one EAGLE layer): 13 < 1.5 × 12 -> groups of 13.
    c = calc("openai/gpt-oss-20b", max_model_len=8192, speculative={"method": "eagle"})
    assert c.grouping.group_size == 13 and c.grouping.padding_layers == 1


def test_hybrid_groups_took_the_smallest_count_before_v0_12():
    """12 sliding + 13 full: the v0.10.0-v0.11.2 wheels always group by the smallest count (two
    groups of the full layers: 12 + 1, no padding); #29303 (v0.12) pads when the counts are close."""
    old = calc("openai/gpt-oss-20b", max_model_len=8192, speculative={"method": "eagle"}, vllm_version="0.11.2")
    assert old.grouping.group_size == 12 and old.grouping.padding_layers == 11
    new = calc("openai/gpt-oss-20b", max_model_len=8192, speculative={"method": "eagle"}, vllm_version="0.12.0")
    assert new.grouping.group_size == 13 and new.grouping.padding_layers == 1


def test_max_model_len_that_does_not_fit_reports_vllm_error():
    c = calc("meta-llama/Llama-3.1-8B-Instruct", max_model_len=131072, kv_cache_memory_bytes=8 * GIB,
             vllm_version="0.33.0")
    p = c.estimated
    assert not p.fits
    # need 131,072 × 128 KiB = 16 GiB; 8 GiB (minus one 2 MiB block since v0.28) holds
    # (8 GiB − 2 MiB) / 128 KiB = 65,520 tokens.
    assert p.needed_bytes == 16 * GIB
    assert p.estimated_max_model_len == 65520
    assert "estimated maximum model length is 65520" in p.error
    assert p.error.startswith("ValueError: To serve at least one request with the model's max seq len (131072)")


def test_qwen3_next_attention_block_544():
    c = calc("Qwen/Qwen3-Next-80B-A3B-Instruct", max_model_len=32768, vllm_version="0.32.0")
    # GDN state: (2·16·128 + 32·128) × 3 + 32·128·128 = 548,864 values × 2 B = 1,097,728 B.
    assert c.layout.mamba_state_bytes == 1097728
    # attention: 2 KV heads × (256 + 256) × 2 B = 2,048 B/token -> 16 × cdiv(1,097,728, 32,768) = 544.
    assert c.layout.block_size == 544
    assert [(len(g.layer_names), g.spec.kind) for g in c.grouping.groups] == [(12, "mamba")] * 3 + [(12, "full")]
    assert c.estimated.blocks_per_request == 61 + 3 * 2     # cdiv(32,768, 544) + 2 per Mamba group
    assert c.grouping.page_size_bytes == 544 * 2048
    # v0.33 on an H100: 64 × cdiv(1,097,728, 131,072) = 576, and a checkpoint block per Mamba group
    v33 = calc("Qwen/Qwen3-Next-80B-A3B-Instruct", max_model_len=32768, vllm_version="0.33.0")
    assert v33.layout.block_size == 576 and v33.estimated.blocks_per_request == 57 + 3 * 3


def test_mamba_state_blocks_before_align_mode():
    # Before prefix caching for hybrids (#30877, ~v0.15) a Mamba group kept one state block.
    c = calc("Qwen/Qwen3-Next-80B-A3B-Instruct", max_model_len=32768, vllm_version="0.11.0")
    assert c.estimated.blocks_per_request == 61 + 3 * 1


def test_gemma4_e2b_kv_shared_layers_take_no_cache():
    c = calc("google/gemma-4-E2B", "l4", max_model_len=8192)
    # 35 layers, the last 20 share earlier caches: 12 sliding + 3 full keep their own.
    assert len(c.layout.all_specs) == 15
    assert [(len(g.layer_names), g.spec.kind) for g in c.grouping.groups] == \
        [(3, "sliding_window")] * 4 + [(3, "full")]


def test_granite_hybrid_mamba2_state():
    c = calc("ibm-granite/granite-4.0-h-tiny", max_model_len=8192, vllm_version="0.33.0")
    # conv: (3,072 + 2·1·128) × 3 × 2 B = 19,968; SSM: 48 × 64 × 128 × 2 B = 786,432.
    assert c.layout.mamba_state_bytes == 19968 + 786432
    assert c.layout.block_size == 16 * 25                        # cdiv(806,400, 16 × 2,048) = 25
    # v0.34: the attention block starts from 64, so the page is 64 × cdiv(806,400, 64 × 2,048) = 448 tokens
    assert calc("ibm-granite/granite-4.0-h-tiny", max_model_len=8192,
                vllm_version="0.34.0").layout.block_size == 64 * 7


def test_mtp_adds_draft_layers_to_the_cache():
    base = calc("deepseek-ai/DeepSeek-V3", tensor_parallel_size=8, max_model_len=8192)
    mtp = calc("deepseek-ai/DeepSeek-V3", tensor_parallel_size=8, max_model_len=8192,
               speculative={"method": "deepseek_mtp", "num_speculative_tokens": 1})
    assert len(base.layout.all_specs) == 61 and len(mtp.layout.all_specs) == 62
    assert mtp.kv_bytes_per_token == 62 * 576 * 2


def test_n_gram_drafts_widen_the_gdn_state_but_load_no_mtp_layers():
    """vLLM sizes a GDN layer's conv state with num_speculative_tokens for every speculative method
    (vllm/model_executor/models/qwen3_5.py get_mamba_state_shape_from_config), so n-gram moves
    Qwen3.5's attention block as MTP does; only an MTP method loads the checkpoint's MTP layers.
    Two public A10G n-gram starts of Qwen3.5-4B (v0.18.0, K = 3 and 5) print 544-token blocks where
    the same command without speculation prints 528, and the same 8.61 GiB of weights."""
    def run(spec=None):
        return calc("Qwen/Qwen3.5-27B", "h200", max_model_len=8192, vllm_version="0.18.0", speculative=spec)
    base = run()
    ngram = run({"method": "ngram", "num_speculative_tokens": 3})
    mtp = run({"method": "mtp", "num_speculative_tokens": 3})
    assert ngram.layout.mamba_state_bytes == mtp.layout.mamba_state_bytes > base.layout.mamba_state_bytes
    assert ngram.budget.weights.bytes == base.budget.weights.bytes < mtp.budget.weights.bytes


def test_a_separate_draft_model_says_its_weights_are_not_counted():
    """EAGLE heads and Gemma 4 assistants are checkpoints of their own, loaded next to the model;
    MTP layers inside the checkpoint are counted with its weights and need no such note."""
    eagle = calc("openai/gpt-oss-20b", max_model_len=8192, speculative={"method": "eagle"})
    gemma = calc("google/gemma-4-26B-A4B-it", "h200", max_model_len=8192,
                 speculative={"method": "mtp", "model": "google/gemma-4-26B-A4B-it-assistant"})
    mtp = calc("deepseek-ai/DeepSeek-V3", tensor_parallel_size=8, max_model_len=8192,
               speculative={"method": "deepseek_mtp", "num_speculative_tokens": 1})
    for c in (eagle, gemma):
        assert any(getattr(n, "key", None) == "note.draft_weights" for n in c.notes), c.notes
    assert not any(getattr(n, "key", None) == "note.draft_weights" for n in mtp.notes)


@pytest.mark.parametrize("release,caching,state_blocks", [
    ("0.19.0", None, 1),      # hybrids kept prefix caching opt-in (#23716) ...
    ("0.19.0", True, 2),      # ... unless asked: 'align' keeps 2 state blocks per group
    ("0.28.0", None, 2),      # #50991: on by default
    ("0.28.0", False, 1),
])
def test_hybrid_prefix_caching_default_by_release(release, caching, state_blocks):
    """Qwen3-Next at 32,768 tokens: 61 attention blocks of 544 tokens plus the state blocks of its
    3 GDN groups; a v0.19.0 Qwen3.5 log without the flag shows 1 per group (12.90x, not 12.78x)."""
    kw = {} if caching is None else {"enable_prefix_caching": caching}
    c = calc("Qwen/Qwen3-Next-80B-A3B-Instruct", max_model_len=32768, vllm_version=release, **kw)
    assert c.estimated.blocks_per_request == 61 + 3 * state_blocks


def test_the_serve_command_spells_out_prefix_caching_only_against_the_default():
    def cmd(release, caching, model="Qwen/Qwen3-Next-80B-A3B-Instruct"):
        return calc(model, max_model_len=32768, vllm_version=release, enable_prefix_caching=caching).serve_command
    assert cmd("0.19.0", True).endswith("--enable-prefix-caching")
    assert "prefix-caching" not in cmd("0.28.0", True)
    assert cmd("0.28.0", False).endswith("--no-enable-prefix-caching")
    assert cmd("0.19.0", False, model="Qwen/Qwen3-8B").endswith("--no-enable-prefix-caching")


def test_a_speculators_drafter_config_gives_the_drafter_layers_shape():
    """gpt-oss-20b with an EAGLE-3 drafter in the speculators format (64 heads of 64, 8 KV heads):
    the drafter's one layer joins the full-attention layers with its own shape, as with an
    assumed layer (13 full layers beside 12 sliding ones), and the layout reads its KV heads from
    transformer_layer_config."""
    drafter = {"speculators_model_type": "eagle3", "draft_vocab_size": 64000,
               "transformer_layer_config": {"model_type": "llama", "hidden_size": 2880,
                                            "num_hidden_layers": 1, "num_attention_heads": 64,
                                            "num_key_value_heads": 8, "head_dim": 64,
                                            "intermediate_size": 2880, "vocab_size": 201088}}
    given = calc("openai/gpt-oss-20b", max_model_len=8192,
                 speculative={"method": "eagle3", "draft_config": drafter})
    assumed = calc("openai/gpt-oss-20b", max_model_len=8192, speculative={"method": "eagle3"})
    assert given.grouping.group_size == assumed.grouping.group_size == 13
    assert [n.params for n in given.notes if n.key == "note.draft_layers"] == [{"layers": 1}]
    assert not [n for n in assumed.notes if n.key == "note.draft_layers"]


def test_nemotron_h_with_prefix_caching_keeps_a_state_per_block_before_v0_28():
    """Mamba cache mode 'all' (v0.11.1-v0.27, classes that support Mamba prefix caching): with
    --enable-prefix-caching, Nemotron-3-Nano's block is a multiple of its SSD chunk (128) and a
    request keeps one Mamba state block per block of max_model_len (32,768 / 2,176 -> 16), so far
    fewer requests fit than without prefix caching (1 block) or in v0.28's 'align' mode (2)."""
    from factories import calc

    def mamba(c):
        spec = next(s for s in c.layout.all_specs.values() if s.kind == "mamba")
        return spec.block_size, spec.max_blocks(c.ctx)

    model = "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"
    all_mode = calc(model, vllm_version="0.20.0", enable_prefix_caching=True, max_model_len=32768)
    off = calc(model, vllm_version="0.20.0", enable_prefix_caching=False, max_model_len=32768)
    align = calc(model, vllm_version="0.28.0", enable_prefix_caching=True, max_model_len=32768)
    block, blocks = mamba(all_mode)
    assert block % 128 == 0 and all_mode.layout.block_size == block and blocks == -(-32768 // block)
    assert mamba(off)[1] == 1 and mamba(align)[1] == 2 and all_mode.ctx.mamba_mode == "all"
    assert all_mode.estimated.max_concurrency < off.estimated.max_concurrency / 3
    assert any("cache mode 'all'" in str(n) for n in all_mode.notes)
    assert not any("cache mode 'all'" in str(n) for n in align.notes)
    # an attention-only Granite 4.0 (no Mamba layers) has no state to cache
    micro = calc("ibm-granite/granite-4.0-micro", vllm_version="0.20.0", enable_prefix_caching=True,
                 max_model_len=8192)
    assert micro.estimated.tokens > 0 and not any("cache mode 'all'" in str(n) for n in micro.notes)
    # Qwen3-Next's class does not support it: 'align' from v0.15
    assert calc("Qwen/Qwen3-Next-80B-A3B-Instruct", vllm_version="0.20.0", enable_prefix_caching=True,
                max_model_len=32768).ctx.mamba_mode == "align"


def test_granite_micro_is_a_dense_model_from_0_11_1():
    """granite-4.0-micro's class is a Mamba hybrid but its layers are all attention: v0.11.0 raised
    its block to 1,312 tokens (a public L40S log), v0.11.1 onwards treat it as dense: 16-token
    blocks, prefix caching on and, where the release runs dense models on V2, model runner V2."""
    def run(version):
        return calc("ibm-granite/granite-4.0-micro", max_model_len=8192, vllm_version=version)
    old, new = run("0.11.0"), run("0.11.1")
    assert old.layout.block_size == 1312 and new.layout.block_size == 16
    assert run("0.26.0").model_runner_v2 is True


def test_speculative_decoding_keeps_nemotron_h_in_align_mode_in_0_20_and_0_21():
    """v0.20 and v0.21 give hybrids that support Mamba prefix caching the 'align' mode when a
    speculative config is present (models/config.py:353-360), 'all' before and after."""
    def mode(version):
        return calc("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", vllm_version=version, enable_prefix_caching=True,
                    max_model_len=32768, speculative={"method": "ngram", "num_speculative_tokens": 2}).ctx.mamba_mode
    assert [mode(v) for v in ("0.19.0", "0.20.0", "0.21.0", "0.22.0")] == ["all", "align", "align", "all"]


def test_llama4_keeps_the_hybrid_manager_in_0_10_0():
    """v0.10.0 kept the hybrid KV cache manager for chunked local attention (off only with EAGLE);
    from v0.10.1 vLLM turns it off and the chunked layers keep the whole context."""
    def groups(version):
        c = calc("meta-llama/Llama-4-Scout-17B-16E-Instruct", max_model_len=131072, vllm_version=version,
                 tensor_parallel_size=8)
        return len(c.grouping.groups)
    assert groups("0.10.0") > 1 and groups("0.10.1") == 1


@pytest.mark.parametrize("version,ssm_bytes", [
    ("0.12.0", 2), ("0.19.0", 2),     # the model dtype, then the config or float16
    ("0.20.0", 4), ("0.33.0", 4),     # float32 where the config names none
])
def test_nemotron_h_without_an_ssm_dtype_keeps_its_state_in_float32_from_v0_20(version, ssm_bytes):
    """Nemotron-H-56B-Base-8K's config has no mamba_ssm_cache_dtype: NemotronHForCausalLMConfig fills
    in float16 from v0.13 and float32 from v0.20 (Rule.NEMOTRON_H_SSM_FLOAT32_DEFAULT)."""
    c = calc("nvidia/Nemotron-H-56B-Base-8K", "h100", tensor_parallel_size=4, max_model_len=8192,
             vllm_version=version)
    dims = c.arch.mamba
    groups = dims.n_groups + (0 if dims.n_groups % 4 == 0 else 4 - dims.n_groups)
    conv = (dims.intermediate_size + 2 * groups * dims.state_size) // 4 * (dims.conv_kernel - 1) * 2
    ssm = dims.num_heads // 4 * dims.head_dim * dims.state_size * ssm_bytes
    assert c.layout.mamba_state_bytes == conv + ssm
    forced = calc("nvidia/Nemotron-H-56B-Base-8K", "h100", tensor_parallel_size=4, max_model_len=8192,
                  vllm_version=version, mamba_ssm_cache_dtype="float32")
    assert forced.layout.mamba_state_bytes == conv + ssm // ssm_bytes * 4


def test_qwen3_next_mtp_drafts_with_one_layer_where_the_config_names_no_count():
    """Qwen3-Next's configs carry no num_nextn_predict_layers; vLLM's Qwen3NextMTP builds one draft
    layer (qwen3_next_mtp.py), an attention layer beside the 12 full ones: 13 full + 36 GDN layers in
    groups of 13 (3 padding slots), 288-token blocks at TP 4 (v0.31)."""
    c = calc("Qwen/Qwen3-Next-80B-A3B-Instruct", "h100", tensor_parallel_size=4, max_model_len=32768,
             vllm_version="0.31.0", speculative={"method": "mtp", "num_speculative_tokens": 2})
    assert c.layout.block_size == 288 and c.grouping.padding_layers == 3
    assert [(len(g.layer_names), g.spec.kind) for g in c.grouping.groups][-1] == (13, "full")


def test_mamba2_speculative_slots_by_release_and_granites_page_before_v0_32():
    """Mamba2 layers keep a conv slot per speculative token from v0.17 (Rule.MAMBA2_SPEC_SLOTS);
    Granite 4.0-H's class left them out of the page its state is padded to until v0.32
    (Rule.GRANITE_HYBRID_SPEC_PAGE), so vLLM v0.17-v0.31 stops where they do not fit (ngram, 2 tokens:
    the layer's 819,712 bytes against an 819,200-byte page)."""
    spec = {"method": "ngram", "num_speculative_tokens": 2}
    args = dict(max_model_len=32768, speculative=spec)
    with pytest.raises(SettingsError) as err:
        calc("ibm-granite/granite-4.0-h-tiny", "h100", vllm_version="0.31.0", **args)
    assert "--speculative-config" in err.value.problems
    v32 = calc("ibm-granite/granite-4.0-h-tiny", "h100", vllm_version="0.32.0", **args)
    plain = calc("ibm-granite/granite-4.0-h-tiny", "h100", vllm_version="0.32.0", max_model_len=32768)
    dims = v32.arch.mamba
    conv_row = (dims.intermediate_size + 2 * dims.n_groups * dims.state_size) * 2
    assert v32.layout.mamba_state_bytes - plain.layout.mamba_state_bytes == 2 * conv_row
    # v0.10-v0.16 stop any state-layer model but Qwen3-Next with speculative decoding (Rule.HYBRID_SPEC_REFUSED)
    for version in ("0.10.2", "0.16.0"):
        with pytest.raises(SettingsError) as err:
            calc("ibm-granite/granite-4.0-h-tiny", "h100", vllm_version=version, **args)
        assert "not supported yet" in str(err.value.problems["--speculative-config"])


def test_before_v0_20_a_hybrids_block_is_a_multiple_of_16_whatever_block_size_says():
    """HybridAttentionMambaModelConfig (v0.11.1-v0.19) aligns the attention block to 16 tokens, 32 for
    256-wide heads on Blackwell (FlashInfer takes no 16-token blocks there), and keeps --block-size only
    where it is already larger; from v0.20 Platform._align_hybrid_block_size aligns to --block-size
    (Rule.HYBRID_ALIGN_FROM_BACKEND)."""
    args = dict(max_model_len=32768)
    assert calc("Qwen/Qwen3.5-27B", "h100", vllm_version="0.19.0", **args).layout.block_size == 784
    assert calc("Qwen/Qwen3.5-27B", "b200", vllm_version="0.19.0", **args).layout.block_size == 800
    forced = calc("Qwen/Qwen3.5-27B", "b200", vllm_version="0.19.0", attention_backend="TRITON_ATTN", **args)
    assert forced.layout.block_size == 784
    nxt = "Qwen/Qwen3-Next-80B-A3B-Instruct"
    assert calc(nxt, "h100", vllm_version="0.19.0", block_size=64, **args).layout.block_size == 544
    assert calc(nxt, "h100", vllm_version="0.20.0", block_size=64, **args).layout.block_size == 576


@pytest.mark.parametrize("dtype,refused_in,taken_in", [("float16", "0.12.0", "0.13.0"),
                                                       ("bfloat16", "0.21.0", "0.22.0")])
def test_the_mamba_ssm_dtypes_vllm_takes_grow_by_release(dtype, refused_in, taken_in):
    """vllm/config/cache.py MambaDType: auto and float32 always, float16 from v0.13, bfloat16 from v0.22
    (Rule.MAMBA_DTYPE_FLOAT16, Rule.MAMBA_DTYPE_BFLOAT16); a 16-bit SSM state is half a float32 one."""
    model, args = "ibm-granite/granite-4.0-h-tiny", dict(max_model_len=32768)
    with pytest.raises(SettingsError) as err:
        calc(model, "h100", vllm_version=refused_in, mamba_ssm_cache_dtype=dtype, **args)
    assert taken_in in str(err.value.problems["--mamba-ssm-cache-dtype"])
    half = calc(model, "h100", vllm_version=taken_in, mamba_ssm_cache_dtype=dtype, **args)
    full = calc(model, "h100", vllm_version=taken_in, mamba_ssm_cache_dtype="float32", **args)
    dims = full.arch.mamba
    ssm_values = dims.num_heads * dims.head_dim * dims.state_size
    assert full.layout.mamba_state_bytes - half.layout.mamba_state_bytes == 2 * ssm_values
