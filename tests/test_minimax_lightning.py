"""MiniMax's lightning-attention models (MiniMax-Text-01, MiniMax-M1): linear-attention layers whose state
vLLM keeps beside the softmax layers' KV cache (vllm/model_executor/models/minimax_text_01.py, v0.10-v0.23;
mamba_utils.py ``linear_attention_state_shape``). No public startup log of these models was found, so these
pin the layout to vLLM's code."""

from __future__ import annotations

import copy

import pytest

from factories import calc, config
from kvcalc import api
from kvcalc.errors import ConfigError, SettingsError
from kvcalc.hf_config import read_model
from kvcalc.kvspecs import mamba_state_bytes
from kvcalc.params import inventory
from kvcalc.weights import rope_cache_bytes

M1 = "MiniMaxAI/MiniMax-M1-80k"


def test_a_softmax_layer_after_every_seven_lightning_layers():
    arch = read_model(config(M1))
    assert [i for i, l in enumerate(arch.layers) if l.kind == "full"] == list(range(7, 80, 8))
    assert {(l.num_kv_heads, l.head_size) for l in arch.layers if l.kind == "full"} == {(8, 128)}
    assert arch.mamba.flavour == "lightning"


@pytest.mark.parametrize("tp,state", [(1, 2_097_152), (8, 262_144)])
def test_a_lightning_state_is_heads_by_head_dim_squared_in_the_model_dtype(tp, state):
    dims = read_model(config(M1)).mamba
    assert mamba_state_bytes(dims, tp, 0, "bfloat16") == state
    assert mamba_state_bytes(dims, tp, 0, "bfloat16", ssm_dtype="float32") == state   # the SSM flag does not apply


def test_at_tp8_the_attention_page_equals_the_state_and_groups_are_tens():
    """16 × ⌈262,144 / (16 × 512)⌉ = 512 tokens: the page is the state exactly (no padding); 70 lightning and
    10 softmax layers make seven state groups and one attention group of ten."""
    c = calc(M1, "h200", vllm_version="0.20.0", tensor_parallel_size=8, max_model_len=131072)
    assert c.layout.block_size == 512 and c.grouping.padding_layers == 0
    assert len(c.grouping.groups) == 8 and c.grouping.group_size == 10
    assert not any(getattr(n, "key", "") == "note.mamba_page_padded" for n in c.notes)


def test_the_parameters_are_the_checkpoints_and_vllm_keeps_the_lm_head_in_float32():
    """456,089,655,296 parameters (the index's 912,210,767,872 bytes with the router gates in float32)."""
    parts = inventory(config(M1), 8)
    assert sum(p.params for p in parts) == 456_089_655_296
    assert {p.name for p in parts if p.fp32} == {"lm_head", "router"}
    lightning = sum(p.params for p in parts if p.name in ("linear_attention", "norms") and p.layer == 0)
    assert lightning == 251_666_432 + 2 * 6144


def test_the_float32_rotary_cache_covers_every_position():
    assert rope_cache_bytes(config(M1), 10_240_000, 2) == 10_240_000 * 64 * 4


def test_vllm_0_24_no_longer_runs_it():
    with pytest.raises(SettingsError) as err:
        calc(M1, "h200", vllm_version="0.24.0", tensor_parallel_size=8, max_model_len=131072)
    assert "until v0.23.0" in str(err.value.problems["--vllm-version"])
    assert calc(M1, "h200", vllm_version="0.23.0", tensor_parallel_size=8, max_model_len=131072).estimated


def test_layer_types_spell_the_same_pattern_and_bad_codes_are_named():
    cfg = copy.deepcopy(config(M1))
    types = ["full_attention" if t else "linear_attention" for t in cfg.pop("attn_type_list")]
    hf = {**cfg, "model_type": "minimax", "architectures": ["MiniMaxForCausalLM"], "layer_types": types}
    assert [l.kind for l in read_model(hf).layers] == [l.kind for l in read_model(config(M1)).layers]
    for bad in ([2] * 80, [True] * 80):
        with pytest.raises(ConfigError) as err:
            read_model({**config(M1), "attn_type_list": bad})
        assert err.value.field == "attn_type_list[0]"
    with pytest.raises(ConfigError) as err:
        read_model(cfg)
    assert err.value.field == "attn_type_list"


def test_the_page_estimates_it_from_the_catalog():
    r = api.handle({"op": "estimate", "model": M1, "gpu": "h200",
                    "settings": {"tensor_parallel_size": 8, "max_model_len": 131072, "vllm_version": "0.23.0"}})
    assert r["ok"], r
    assert r["result"]["layout"]["mamba_state_bytes"] == 262_144 and r["result"]["estimated"]["tokens"] > 0
