"""AllenAI's OLMo-Hybrid: gated-delta-net layers beside attention (vllm/model_executor/models/olmo_hybrid.py,
v0.18+), read like Qwen3-Next's state with OLMo's own attention head and GDN layer."""

from __future__ import annotations

import pytest

from factories import calc
from kvcalc.errors import ConfigError, SettingsError
from kvcalc.hf_config import read_model
from kvcalc.params import inventory

OLMO_HYBRID = {
    "model_type": "olmo_hybrid", "architectures": ["OlmoHybridForCausalLM"], "vocab_size": 49152,
    "hidden_size": 512, "intermediate_size": 1536, "num_hidden_layers": 8, "num_attention_heads": 8,
    "num_key_value_heads": 8, "hidden_act": "silu", "max_position_embeddings": 4096, "initializer_range": 0.02,
    "use_cache": True, "attention_bias": False, "attention_dropout": 0.0, "rms_norm_eps": 1e-05,
    "tie_word_embeddings": True,
    "layer_types": ["linear_attention"] * 3 + ["full_attention"] + ["linear_attention"] * 3 + ["full_attention"],
    "linear_num_key_heads": 8, "linear_num_value_heads": 8, "linear_key_head_dim": 96,
    "linear_value_head_dim": 192, "linear_conv_kernel_dim": 4, "linear_allow_neg_eigval": True,
    "bos_token_id": 0, "eos_token_id": 0, "pad_token_id": 0, "rope_parameters": None,
}
"""The OLMo-Hybrid example config of a public model-config gallery that cites transformers v5.8.0's
olmo_hybrid docs (code index id 54994935916): a small model of the real class."""


def test_the_state_is_a_gated_delta_nets_and_the_head_is_hidden_over_heads():
    """conv (2 × 8 × 96 + 8 × 192) × 3 + recurrent 8 × 192 × 96, bf16: 313,344 B; attention 2 × 8 × 64 × 2
    B a token per layer, so a 160-token block (16 × ⌈313,344 / (16 × 2,048)⌉). A head_dim in the config is
    ignored (OlmoHybridAttention takes hidden / heads)."""
    c = calc(OLMO_HYBRID, "h100", vllm_version="0.18.0", max_model_len=4096)
    assert c.layout.mamba_state_bytes == 313_344 and c.layout.block_size == 160
    odd = read_model({**OLMO_HYBRID, "head_dim": 128})
    assert {l.head_size for l in odd.layers if l.kind == "full"} == {64}


def test_v0_33_keeps_its_block_where_qwens_gdn_aligns_to_64():
    """The FlashInfer GDN prefill checkpoints of v0.33 belong to Qwen's GDN layer; OLMo's has none."""
    c = calc(OLMO_HYBRID, "h100", vllm_version="0.33.0", max_model_len=4096)
    assert c.layout.block_size == 160


def test_the_release_before_the_class_and_a_missing_layer_types_are_refused():
    with pytest.raises(SettingsError) as err:
        calc(OLMO_HYBRID, "h100", vllm_version="0.17.0", max_model_len=4096)
    assert "0.18.0" in str(err.value.problems["--vllm-version"])
    with pytest.raises(ConfigError) as e:
        read_model({k: v for k, v in OLMO_HYBRID.items() if k != "layer_types"})
    assert e.value.field == "layer_types"


def test_the_parameters_count_gdn_and_attention_layers():
    parts = inventory(OLMO_HYBRID, 1)
    gdn = sum(p.params for p in parts if p.name == "linear_attention" and p.layer == 0)
    nk, dk, nv, dv, H = 8, 96, 8, 192, 512
    assert gdn == H * (2 * nk * dk + 2 * nv * dv) + H * 2 * nv + nv * dv * H + (2 * nk * dk + nv * dv) * 4 + 2 * nv + dv
    assert sum(p.params for p in parts if p.name == "attention" and p.layer == 3) == 4 * H * H
