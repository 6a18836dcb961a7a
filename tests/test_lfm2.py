"""Liquid AI's LFM2: short-convolution layers among attention layers, sized as vLLM's hybrid KV cache
manager keeps them (vllm/model_executor/models/lfm2.py, lfm2_moe.py; mamba_utils.py
``short_conv_state_shape``), and checked against the public startup logs that print the pool."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from factories import calc
from kvcalc import api
from kvcalc.config_aliases import lfm2_mlp_width
from kvcalc.errors import ConfigError, SettingsError
from kvcalc.hf_config import read_model
from kvcalc.kvspecs import mamba_state_bytes
from kvcalc.params import inventory

LFM2_1_2B = json.loads((Path(__file__).parent / "fixtures" / "hf" / "lfm2-1.2b" / "config.json").read_text())
"""config.json of LFM2-1.2B-NPU2 (FastFlowLM's build of LiquidAI/LFM2-1.2B), quoted verbatim in a public
test file (code index id 68303452161). Its geometry is LFM2-1.2B's and LFM2.5-1.2B-Instruct's: the public
MetaX logs below print the padding and the pools this layout gives. It carries both of LFM2's spellings
of the MLP width (block_ff_dim wins, as in transformers' Lfm2Config)."""

LFM2_MOE = {
    "architectures": ["Lfm2MoeForCausalLM"], "model_type": "lfm2_moe", "vocab_size": 65536,
    "hidden_size": 2048, "intermediate_size": 7168, "num_hidden_layers": 24, "num_attention_heads": 32,
    "num_key_value_heads": 8, "conv_L_cache": 3, "conv_bias": False, "max_position_embeddings": 128000,
    "num_experts": 32, "num_experts_per_tok": 4, "moe_intermediate_size": 1792, "num_dense_layers": 2,
    "use_expert_bias": True, "torch_dtype": "bfloat16",
    "layer_types": ["full_attention" if i in (2, 6, 10, 14, 18, 21) else "conv" for i in range(24)],
}
"""LFM2-8B-A1B's geometry as a public TensorRT port lists it (code index id 58787885414)."""


def test_layers_come_from_full_attn_idxs_and_conv_layers_keep_one_small_state():
    arch = read_model(LFM2_1_2B)
    kinds = [l.kind for l in arch.layers]
    assert [i for i, k in enumerate(kinds) if k == "full"] == [2, 5, 8, 10, 12, 14]
    assert kinds.count("mamba") == 10 and arch.hybrid_mamba_class
    assert {(l.num_kv_heads, l.head_size) for l in arch.layers if l.kind == "full"} == {(8, 64)}
    # (conv_L_cache - 1) x conv_dim values in the model dtype: 2 x 2,048 x 2 B
    assert mamba_state_bytes(arch.mamba, 1, 0, "bfloat16") == 8192
    assert mamba_state_bytes(arch.mamba, 2, 0, "bfloat16") == 4096
    # transformers' default without layer_types or full_attn_idxs: every layer attention
    plain = {k: v for k, v in LFM2_1_2B.items() if k != "full_attn_idxs"}
    assert {l.kind for l in read_model(plain).layers} == {"full"}


def test_the_attention_head_is_hidden_over_heads_whatever_head_dim_says():
    """Lfm2Attention sets head_dim = hidden_size // num_attention_heads."""
    odd = {**LFM2_1_2B, "head_dim": 128}
    assert {l.head_size for l in read_model(odd).layers if l.kind == "full"} == {64}


def test_the_mlp_width_follows_lfm2s_adjustment():
    assert lfm2_mlp_width(12288, {}) == 8192
    assert lfm2_mlp_width(6656, {"block_multiple_of": 256}) == 4608      # LFM2.5-350M
    assert lfm2_mlp_width(10752, {"block_auto_adjust_ff_dim": False}) == 10752
    assert lfm2_mlp_width(12288, {"block_ffn_dim_multiplier": 1.5, "block_multiple_of": 256}) == 12288


def test_weights_count_lfm2_1_2b_as_one_tied_table():
    """1,170,340,608 parameters: what a public loader printed for LFM2.5-1.2B (code index id
    71524563249); vLLM ties the LM head whatever the config says."""
    parts = inventory(LFM2_1_2B, 1)
    assert not any(p.name == "lm_head" for p in parts)
    assert sum(p.params for p in parts) == 1_170_340_608
    half = inventory(LFM2_1_2B, 2)
    conv_rank = sum(p.per_rank if p.per_rank is not None else -(-p.params // 2)
                    for p in half if p.name == "short_conv")
    assert conv_rank == sum(p.params for p in parts if p.name == "short_conv") // 2


def test_lfm2_moe_keeps_dense_first_layers_and_convolves_at_the_hidden_size():
    arch = read_model(LFM2_MOE)
    assert arch.is_moe and arch.mamba.intermediate_size == 2048
    parts = inventory(LFM2_MOE, 1)
    expert_layers = sorted({p.layer for p in parts if p.name == "experts"})
    assert expert_layers == list(range(2, 24))
    assert {p.layer for p in parts if p.name == "mlp"} == {0, 1}
    dense = next(p for p in parts if p.name == "mlp")
    assert dense.params == 3 * 2048 * 7168          # lfm2_moe.py: intermediate_size as it is
    missing = {k: v for k, v in LFM2_MOE.items() if k != "layer_types"}
    with pytest.raises(ConfigError) as err:
        read_model(missing)
    assert "layer_types" in str(err.value)


def test_a_config_without_conv_dim_is_refused_with_the_field():
    cfg = {k: v for k, v in LFM2_1_2B.items() if k != "conv_dim"}
    r = api.handle({"op": "estimate", "config": cfg, "gpu": "l4", "settings": {"max_model_len": 4096}})
    assert not r["ok"] and "conv_dim" in r["error"]["message"]


@pytest.mark.parametrize("version,config,ok", [
    ("0.10.1", LFM2_1_2B, False), ("0.10.2", LFM2_1_2B, True),
    ("0.11.0", LFM2_MOE, False), ("0.11.1", LFM2_MOE, True),
])
def test_releases_before_the_model_class_are_refused(version, config, ok):
    if ok:
        assert calc(config, "h100", vllm_version=version, max_model_len=4096).estimated.tokens > 0
        return
    with pytest.raises(SettingsError) as err:
        calc(config, "h100", vllm_version=version, max_model_len=4096)
    assert "--vllm-version" in err.value.problems


METAX_STARTS = [
    # (max_model_len, Available KV cache memory GiB, GPU KV cache size, concurrency line), vLLM 0.17.0 with
    # the vllm_metax platform plugin on a MetaX C500, LFM2.5-1.2B-Instruct in float16, eager, no prefix
    # caching; github.com/ywh555hhh/collect-hardware-info raw/metax-c500-vllm/
    (2048, 7.46, 217_264, "313.37x"),   # kv_sweep_lfm25/len2048_mem0p70_bs1.log @31111c3
    (1024, 4.42, 128_608, "365.38x"),   # kv_sweep_lfm25/len1024_mem0p50_bs1.log @31111c3
    (2048, 7.48, 217_952, "314.35x"),   # c500_lfm25_api_server.log @0473a36
]
PAGE = 16 * 2 * 8 * 64 * 2
"""One layer's page: 16 tokens of 8 KV heads x 64 x K and V in 16 bits, 32,768 B; the 8,192-byte
convolution state is padded to it ('Padding mamba page size by 300.00%')."""


@pytest.mark.parametrize("max_len,gib,tokens,concurrency", METAX_STARTS)
def test_the_public_lfm2_starts_come_out_to_the_block(max_len, gib, tokens, concurrency):
    """Each prints 'Padding mamba page size by 300.00%' and 'Add 2 padding layers': ten conv layers in
    two groups and six attention layers in one, six tensors of one page per block. The printed pair
    fixes the block count (tokens = blocks // 3 groups x 16, concurrency = blocks / (length / 16 + 2
    state blocks)); that many blocks give both lines, and the logged GiB gives a pool whose rounding
    holds them. The vLLM core sizes the pool whatever the platform plugin (FlashAttention here)."""
    per_request = max_len // 16 + 2
    blocks = round(float(concurrency[:-1]) * per_request)
    assert blocks // 3 * 16 == tokens
    exact = calc(LFM2_1_2B, "h100", vllm_version="0.17.0", max_model_len=max_len, enforce_eager=True,
                 kv_cache_memory_bytes=blocks * 6 * PAGE)
    assert exact.estimated.num_blocks == blocks
    assert f"GPU KV cache size: {tokens:,} tokens" in exact.estimated.log_lines
    assert f"Maximum concurrency for {max_len:,} tokens per request: {concurrency}" in exact.estimated.log_lines
    c = calc(LFM2_1_2B, "h100", available_kv_gib=gib, vllm_version="0.17.0", max_model_len=max_len,
             enforce_eager=True)
    assert c.from_log_low.tokens <= tokens <= c.from_log_high.tokens
    assert any(getattr(n, "key", "") == "note.mamba_page_padded" and n.params["pct"] == 300 for n in c.notes)
    assert c.grouping.padding_layers == 2 and len(c.grouping.groups) == 3


def test_an_fp8_cache_halves_the_attention_page_and_the_padding():
    """A v0.26.0 start of LFM2.5-1.2B-Instruct with an fp8 KV cache, block 16 and prefix caching in
    'align' mode prints 'Padding mamba page size by 100.00%', 13.33 GiB and 2,324,244 tokens at 32,768
    (code index id 60449471537; a fork build, whose online INT4 weights leave the cache alone)."""
    c = calc(LFM2_1_2B, "h100", available_kv_gib=13.33, vllm_version="0.26.0", max_model_len=32768,
             kv_cache_dtype="fp8", block_size=16, enable_prefix_caching=True, max_num_batched_tokens=1024)
    assert c.from_log_low.tokens <= 2_324_244 <= c.from_log_high.tokens
    assert any(getattr(n, "key", "") == "note.mamba_page_padded" and n.params["pct"] == 100 for n in c.notes)


def test_the_page_reads_lfm2_from_a_pasted_config():
    r = api.handle({"op": "estimate", "config": copy.deepcopy(LFM2_1_2B), "gpu": "l4",
                    "settings": {"max_model_len": 32768, "vllm_version": "0.33.0"}})
    assert r["ok"], r
    terms = {t["name"] for t in r["result"]["budget"]["terms"]}
    assert {"weights", "activation peak"} <= terms


def test_lfm2_vl_needs_the_release_that_added_its_class():
    """LFM2-VL's language model is LFM2 (v0.10.2 on), but its class arrived in v0.14.0."""
    cfg = {"architectures": ["Lfm2VlForConditionalGeneration"], "model_type": "lfm2-vl",
           "text_config": {k: v for k, v in LFM2_1_2B.items() if k != "architectures"},
           "vision_config": {"model_type": "siglip2_vision_model", "hidden_size": 768, "intermediate_size": 3072,
                             "num_hidden_layers": 12, "num_attention_heads": 12, "patch_size": 16}}
    with pytest.raises(SettingsError) as err:
        calc(cfg, "l4", vllm_version="0.13.0", max_model_len=8192)
    assert "0.14.0" in str(err.value.problems["--vllm-version"])
    c = calc(cfg, "l4", vllm_version="0.14.0", max_model_len=8192)
    assert c.arch.mamba.flavour == "short_conv" and c.estimated.tokens > 0


@pytest.mark.parametrize("kv,tokens,ok", [("auto", 6, True), ("auto", 7, False), ("fp8", 2, True), ("fp8", 3, False)])
def test_speculative_slots_must_fit_the_page_lfm2s_state_is_padded_to(kv, tokens, ok):
    """From v0.29 ShortConv keeps a state slot per speculative token, but lfm2.py sizes the page it
    pads the state to without them; vLLM asserts the state fits: 2 + n slots of 2 × 2,048 bytes in a
    32,768-byte page (16 bf16 tokens of 2,048 B) or a 16,384-byte one with fp8 (Rule.SHORT_CONV_SPEC_SLOTS)."""
    spec = {"method": "ngram", "num_speculative_tokens": tokens}
    args = dict(max_model_len=8192, vllm_version="0.33.0", kv_cache_dtype=kv, speculative=spec)
    if ok:
        assert calc(LFM2_1_2B, "h100", **args).estimated.tokens > 0
        return
    with pytest.raises(SettingsError) as err:
        calc(LFM2_1_2B, "h100", **args)
    assert "--speculative-config" in err.value.problems
    assert calc(LFM2_1_2B, "h100", **{**args, "vllm_version": "0.28.0"}).estimated.tokens > 0   # no slots yet


@pytest.mark.parametrize("bad", [[2, "x"], [True, 3], "abc"], ids=repr)
def test_full_attn_idxs_that_are_not_layer_numbers_are_named(bad):
    r = api.handle({"op": "estimate", "config": {**LFM2_1_2B, "full_attn_idxs": bad}, "gpu": "l4", "settings": {}})
    assert not r["ok"] and "full_attn_idxs" in r["error"]["message"]
