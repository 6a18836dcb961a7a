"""Moonshot's Kimi Linear: KDA (Kimi delta attention) layers among MLA layers, sized as vLLM's hybrid KV
cache manager keeps them (vllm/model_executor/models/kimi_linear.py v0.11.1-v0.26, vllm/models/kimi_k3
from v0.27; mamba_utils.py ``kda_state_shape`` / ``kda_state_dtype``), and checked against the one public
startup log that prints its pool."""

from __future__ import annotations

import copy

import pytest

from factories import assert_field_named, calc, config
from kvcalc import api
from kvcalc.errors import SettingsError
from kvcalc.hf_config import read_model
from kvcalc.kvspecs import mamba_state_bytes
from kvcalc.params import inventory
from kvcalc.weights import rope_cache_bytes

KIMI = "moonshotai/Kimi-Linear-48B-A3B-Instruct"
MLA_TOKEN = (512 + 64) * 2
"""One MLA layer's bytes per token in bf16: the 512-wide latent and the 64-wide RoPE part."""


def notes_of(c, key):
    return [n for n in c.notes if getattr(n, "key", "") == key]


def test_kda_layers_count_from_one_and_the_rest_are_mla():
    arch = read_model(config(KIMI))
    mla = [i for i, l in enumerate(arch.layers) if l.kind == "mla"]
    assert mla == [3, 7, 11, 15, 19, 23, 26]        # full_attn_layers 4, 8, ... 27 counted from 1
    assert sum(l.kind == "mamba" for l in arch.layers) == 20
    assert {l.head_size for l in arch.layers if l.kind == "mla"} == {576}
    assert arch.hybrid_mamba_class and arch.is_mla and arch.mtp_layers == ()


@pytest.mark.parametrize("tp,state", [(1, 2_170_880), (2, 1_085_440), (8, 271_360)])
def test_a_kda_state_is_three_convolutions_and_a_float32_recurrent_state(tp, state):
    """3 × (4 − 1) × 4,096/TP bf16 conv values + 32/TP × 128 × 128 float32 values, whatever the model dtype."""
    dims = read_model(config(KIMI)).mamba
    assert mamba_state_bytes(dims, tp, 0, "bfloat16") == state
    assert mamba_state_bytes(dims, tp, 0, "float16") == state


def test_the_parameters_are_the_checkpoints():
    """49,122,681,728 in the checkpoint's tensor table (code index id 62691149540); kvcalc leaves out only
    the routers' e_score_correction_bias (26 layers × 256)."""
    parts = inventory(config(KIMI), 1)
    assert sum(p.params for p in parts) == 49_122_681_728 - 26 * 256
    kda = [p for p in parts if p.name == "linear_attention" and p.layer == 0]
    assert sum(p.params for p in kda) == 39_514_272
    # f_a and g_a are replicated: a TP-2 rank holds all of them and half of the rest
    half = [p for p in inventory(config(KIMI), 2) if p.name == "linear_attention" and p.layer == 0]
    assert sum(p.per_rank for p in half if p.per_rank is not None) == 2 * 128 * 2304


def test_its_mla_keeps_no_rotary_cache():
    """KimiMLAAttention passes rotary_emb=None (mla_use_nope)."""
    assert rope_cache_bytes(config(KIMI), 1_048_576, 2) == 0


ISSUE_28228 = dict(vllm_version="0.11.1", tensor_parallel_size=2, max_model_len=120_000,
                   max_num_batched_tokens=64_000, max_num_seqs=8, gpu_memory_utilization=0.95,
                   enable_prefix_caching=True)
"""vllm#28228: cyankiwi's AWQ 4-bit Kimi-Linear-48B-A3B-Instruct on 2 × RTX 3090, a nightly between v0.11.0
and v0.11.1 ('Setting attention block size to 960 tokens', 'Padding mamba page size by 1.89%', 'Add 1
padding layers', 2.30 GiB, 75,840 tokens, 2.48x at 120,000). vLLM turned the asked-for prefix caching off
for the hybrid."""


def test_the_public_start_comes_out_to_the_block():
    """The 960-token block holds a 1,085,440-byte KDA state (64 × ⌈1,085,440 / (64 × 1,152)⌉); 20 KDA layers
    make three groups of 7 (one padding slot) beside the 7 MLA layers, so a block is 7 pages across the
    groups. 318 blocks give both printed lines: 318 // 4 × 960 = 75,840 tokens and 318 / (125 + 3) = 2.48x."""
    page = 960 * MLA_TOKEN
    exact = calc(KIMI, "rtx-3090", kv_cache_memory_bytes=318 * 7 * page, **ISSUE_28228)
    assert exact.layout.block_size == 960 and exact.estimated.num_blocks == 318
    assert "GPU KV cache size: 75,840 tokens" in exact.estimated.log_lines
    assert "Maximum concurrency for 120,000 tokens per request: 2.48x" in exact.estimated.log_lines
    assert exact.grouping.padding_layers == 1 and len(exact.grouping.groups) == 4
    assert round(notes_of(exact, "note.mamba_page_padded")[0].params["pct"], 2) == 1.89
    c = calc(KIMI, "rtx-3090", available_kv_gib=2.30, **ISSUE_28228)
    assert c.from_log_low.tokens <= 75_840 <= c.from_log_high.tokens


@pytest.mark.parametrize("version,gpu,tp,block", [
    ("0.11.1", "h100", 1, 1920), ("0.11.1", "h100", 2, 960), ("0.19.0", "a100-80g-sxm", 2, 960),
    ("0.20.0", "h100", 2, 944),        # FLASH_ATTN_MLA's 16-token kernel blocks
    ("0.20.0", "rtx-3090", 2, 944),    # Triton MLA, 16
    ("0.20.0", "b200", 2, 960),        # FlashInfer MLA, 32
    ("0.26.0", "h100", 1, 1888),
    ("0.27.0", "h100", 2, 1024), ("0.33.0", "b200", 1, 1920),    # at least 128 for MLA hybrids
    ("0.11.1", "b200", 1, 1920), ("0.15.0", "b200", 2, 960),
])
def test_the_attention_block_follows_each_releases_alignment(version, gpu, tp, block):
    c = calc(KIMI, gpu, vllm_version=version, tensor_parallel_size=tp, max_model_len=32768)
    assert c.layout.block_size == block


@pytest.mark.parametrize("version", ["0.11.1", "0.14.0"])
def test_cutlass_mla_forcing_128_after_the_960_block_stops_the_start(version):
    """v0.11.1-v0.14 on Blackwell size the block at 960 for TP 2, then CUTLASS_MLA forces a multiple of
    128 and the attention page no longer equals the padded state page."""
    with pytest.raises(SettingsError) as err:
        calc(KIMI, "b200", vllm_version=version, tensor_parallel_size=2, max_model_len=32768)
    message = str(err.value.problems["--vllm-version"])
    assert "960" in message and "CUTLASS_MLA" in message and "0.18.0" in message


def test_releases_before_the_class_and_other_platforms_are_refused():
    with pytest.raises(SettingsError) as err:
        calc(KIMI, "h100", vllm_version="0.11.0", max_model_len=32768)
    assert "0.11.1" in str(err.value.problems["--vllm-version"])
    with pytest.raises(SettingsError) as err:
        calc(KIMI, "mi300x", vllm_version="0.29.0", tensor_parallel_size=2, max_model_len=32768)
    assert "ROCm" in str(err.value.problems["--gpu"])


def test_speculative_decoding_before_v0_17_stops_and_slots_count_from_v0_27():
    spec = {"method": "ngram", "num_speculative_tokens": 3}
    with pytest.raises(SettingsError) as err:
        calc(KIMI, "h100", vllm_version="0.16.0", tensor_parallel_size=2, max_model_len=32768, speculative=spec)
    assert "not supported yet" in str(err.value.problems["--speculative-config"])
    plain = calc(KIMI, "h100", vllm_version="0.27.0", tensor_parallel_size=2, max_model_len=32768)
    for version, extra in (("0.26.0", 0), ("0.27.0", 3 * 2048 * 3 * 2)):
        with_spec = calc(KIMI, "h100", vllm_version=version, tensor_parallel_size=2, max_model_len=32768,
                         speculative=spec)
        assert with_spec.layout.mamba_state_bytes - plain.layout.mamba_state_bytes == extra


def test_the_ssm_dtype_flag_leaves_kda_in_float32_or_stops_the_start():
    with pytest.raises(SettingsError) as err:
        calc(KIMI, "h100", vllm_version="0.31.0", tensor_parallel_size=2, max_model_len=32768,
             mamba_ssm_cache_dtype="float16")
    assert "float32" in str(err.value.problems["--mamba-ssm-cache-dtype"])
    old = calc(KIMI, "h100", vllm_version="0.29.0", tensor_parallel_size=2, max_model_len=32768,
               mamba_ssm_cache_dtype="float16")
    assert notes_of(old, "note.kda_ssm_dtype_ignored") and old.layout.mamba_state_bytes == 1_085_440


@pytest.mark.parametrize("change,field", [
    ({"linear_attn_config": None}, "linear_attn_config"),
    ({"linear_attn_config": [1, 2]}, "linear_attn_config"),
    ({"linear_attn_config": {"num_heads": 32, "head_dim": 128, "short_conv_kernel_size": 4}},
     "linear_attn_config.kda_layers"),
    ({"linear_attn_config": {"kda_layers": [0, 1], "num_heads": 32, "head_dim": 128,
                             "short_conv_kernel_size": 4}}, "linear_attn_config.kda_layers[0]"),
    ({"linear_attn_config": {"kda_layers": [1, 28], "num_heads": 32, "head_dim": 128,
                             "short_conv_kernel_size": 4}}, "linear_attn_config.kda_layers[1]"),
    ({"linear_attn_config": {"kda_layers": [True], "num_heads": 32, "head_dim": 128,
                             "short_conv_kernel_size": 4}}, "linear_attn_config.kda_layers[0]"),
    ({"linear_attn_config": {"kda_layers": [1], "head_dim": 128, "short_conv_kernel_size": 4}},
     "linear_attn_config.num_heads"),
    ({"kv_lora_rank": None}, "kv_lora_rank"),
], ids=repr)
def test_a_malformed_kda_config_names_the_field(change, field):
    assert_field_named({**copy.deepcopy(config(KIMI)), **change}, field)


def test_the_page_estimates_it_from_the_catalog():
    r = api.handle({"op": "estimate", "model": KIMI, "gpu": "h100",
                    "settings": {"tensor_parallel_size": 2, "max_model_len": 131072, "vllm_version": "0.33.0"}})
    assert r["ok"], r
    terms = {t["name"]: t for t in r["result"]["budget"]["terms"]}
    # 98,245,528,576 bytes of checkpoint, about half per GPU
    assert 45.0 < terms["weights"]["gib"] < 46.5
