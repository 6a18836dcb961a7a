"""AI21's Jamba: Mamba-1 layers among attention layers, sized as vLLM's hybrid KV cache manager keeps
them (vllm/model_executor/models/jamba.py; mamba_utils.py ``mamba1_state_shape``). No public V1 startup
log of a Jamba model was found, so these pin the layout to vLLM's code."""

from __future__ import annotations

import copy

import pytest

from factories import assert_field_named, calc, config
from kvcalc import api
from kvcalc.errors import SettingsError, UnsupportedModelError
from kvcalc.hf_config import read_model
from kvcalc.kvspecs import mamba_state_bytes
from kvcalc.params import inventory

JAMBA = "ai21labs/Jamba-v0.1"


def test_attention_every_eighth_layer_from_the_fourth_and_mamba_1_elsewhere():
    arch = read_model(config(JAMBA))
    assert [i for i, l in enumerate(arch.layers) if l.kind == "full"] == [4, 12, 20, 28]
    assert sum(l.kind == "mamba" for l in arch.layers) == 28
    # the head is hidden / heads (JambaAttention), 8 KV heads
    assert {(l.num_kv_heads, l.head_size) for l in arch.layers if l.kind == "full"} == {(8, 128)}
    assert arch.mamba.flavour == "mamba1" and arch.hybrid_mamba_class
    # jamba.py reads the period and offset (layers_block_type), never a layer_types the config carries
    stray = read_model({**config(JAMBA), "layer_types": ["full_attention"] * 32})
    assert [l.kind for l in stray.layers] == [l.kind for l in arch.layers]


@pytest.mark.parametrize("tp,state", [(1, 311_296), (2, 155_648), (4, 77_824), (8, 38_912)])
def test_a_mamba_1_state_is_a_conv_and_an_ssm_state_of_the_inner_width(tp, state):
    """(4 − 1) × 8,192/TP conv values + 8,192/TP × 16 SSM values, in bf16."""
    dims = read_model(config(JAMBA)).mamba
    assert mamba_state_bytes(dims, tp, 0, "bfloat16") == state
    # no slot per speculative token, ever
    assert mamba_state_bytes(dims, tp, 3, "bfloat16") == state


def test_the_parameters_are_52b_with_12b_active():
    parts = inventory(config(JAMBA), 1)
    assert sum(p.params for p in parts) == 51_570_323_328
    assert sum(p.params for p in parts if p.name == "experts") == 16 * 16 * 3 * 4096 * 14336
    # vLLM builds the Mamba mixers without a quantization config
    assert not any(p.quantizable for p in parts if p.name == "mamba")


@pytest.mark.parametrize("tp", [1, 2, 4, 8])
def test_the_block_holds_one_state_page_at_every_tensor_parallel_size(tp):
    """16 × ⌈state / (16 × attention bytes per token)⌉ = 80 at TP 1 to 8 (8 KV heads split down to one),
    the state padded by 5.26% to 80 × 4,096 B at TP 1; 4 attention layers and 28 Mamba layers make
    one attention group and seven Mamba groups of four."""
    c = calc(JAMBA, "h200", vllm_version="0.20.0", tensor_parallel_size=tp, max_model_len=32768)
    assert c.layout.block_size == 80
    assert len(c.grouping.groups) == 8 and c.grouping.padding_layers == 0
    pct = next(n for n in c.notes if getattr(n, "key", "") == "note.mamba_page_padded").params["pct"]
    assert round(pct, 2) == 5.26


def test_prefix_caching_before_v0_28_keeps_a_state_per_2048_token_block():
    """JambaForCausalLM is SupportsMambaPrefixCaching: with prefix caching on, v0.11.1-v0.27 use cache mode
    'all', blocks of the 2,048-token Mamba chunk and a state per block (16 at 32,768 tokens); v0.28 turns
    prefix caching on by default in 'align' mode, 2 states per request at the 80-token block."""
    args = dict(tensor_parallel_size=2, max_model_len=32768, enable_prefix_caching=True)
    old = calc(JAMBA, "h200", vllm_version="0.20.0", **args)
    assert old.layout.block_size == 2048
    assert any(getattr(n, "key", "") == "note.mamba_all_mode" for n in old.notes)
    new = calc(JAMBA, "h200", vllm_version="0.28.0", **args)
    assert new.layout.block_size == 80
    assert new.estimated.max_concurrency > 2 * old.estimated.max_concurrency


def test_speculative_decoding_stops_before_v0_17_and_adds_blocks_not_conv_rows_after():
    spec = {"method": "ngram", "num_speculative_tokens": 2}
    args = dict(tensor_parallel_size=2, max_model_len=32768)
    with pytest.raises(SettingsError) as err:
        calc(JAMBA, "h200", vllm_version="0.16.0", speculative=spec, **args)
    assert "not supported yet" in str(err.value.problems["--speculative-config"])
    with_spec = calc(JAMBA, "h200", vllm_version="0.20.0", speculative=spec, **args)
    plain = calc(JAMBA, "h200", vllm_version="0.20.0", **args)
    assert with_spec.layout.mamba_state_bytes == plain.layout.mamba_state_bytes


def test_a_float32_ssm_state_nearly_doubles_the_page():
    """--mamba-ssm-cache-dtype float32: 24,576 + 131,072 × 2 = 286,720 B at TP 2, a 144-token block."""
    c = calc(JAMBA, "h200", vllm_version="0.20.0", tensor_parallel_size=2, max_model_len=32768,
             mamba_ssm_cache_dtype="float32")
    assert c.layout.mamba_state_bytes == 286_720 and c.layout.block_size == 144


def test_a_sliding_window_and_malformed_sizes_are_refused():
    with pytest.raises(UnsupportedModelError):
        read_model({**config(JAMBA), "sliding_window": 4096})
    for key, value in (("attn_layer_period", 0), ("mamba_expand", "2"), ("mamba_d_conv", 1)):
        assert_field_named({**copy.deepcopy(config(JAMBA)), key: value}, key)


def test_the_page_estimates_it_from_the_catalog():
    r = api.handle({"op": "estimate", "model": JAMBA, "gpu": "h200",
                    "settings": {"tensor_parallel_size": 2, "max_model_len": 32768, "vllm_version": "0.33.0"}})
    assert r["ok"], r
    assert r["result"]["layout"]["mamba_state_bytes"] == 155_648
    assert r["result"]["estimated"]["tokens"] > 0
