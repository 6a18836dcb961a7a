"""Zyphra's Zamba2: a Mamba2 mixer in every layer and, in its hybrid layers, a shared transformer block whose
attention keeps a cache per layer (vllm/model_executor/models/zamba2.py). No public vLLM startup log of a
Zamba2 model was found, so these pin the layout to vLLM's code (docs/research/zamba2.md)."""

from __future__ import annotations

import pytest

from factories import assert_field_named, calc
from kvcalc import api
from kvcalc.errors import SettingsError, UnsupportedModelError
from kvcalc.hf_config import read_model
from kvcalc.params import inventory

HYBRID_IDS = [6, 12, 18, 24, 30, 36, 42, 47, 51]
ZAMBA2_27B = {
    "adapter_rank": 128, "add_bias_linear": False, "architectures": ["Zamba2ForCausalLM"], "attention_dropout": 0.0,
    "attention_head_dim": 160, "attention_hidden_size": 5120, "bos_token_id": 1, "chunk_size": 256,
    "eos_token_id": 2, "ffn_hidden_size": 10240, "hidden_act": "gelu", "hidden_size": 2560,
    "hybrid_layer_ids": HYBRID_IDS, "initializer_range": 0.02, "intermediate_size": 10240, "kv_channels": 80,
    "layers_block_type": ["hybrid" if i in HYBRID_IDS else "mamba" for i in range(54)],
    "mamba_d_conv": 4, "mamba_d_state": 64, "mamba_expand": 2, "mamba_headdim": 64, "mamba_ngroups": 1,
    "max_position_embeddings": 4096, "model_type": "zamba2", "n_mamba_heads": 80,
    "num_attention_heads": 32, "num_hidden_layers": 54, "num_key_value_heads": 32, "num_mem_blocks": 2,
    "torch_dtype": "bfloat16", "vocab_size": 32000,
}
"""Zamba2-2.7B-Instruct-v2: its config.json as the Hub's page shows it up to n_mamba_heads
(https://huggingface.co/Zyphra/Zamba2-2.7B-Instruct-v2/blob/main/config.json, docs corpus); the keys after
that cut (heads, layers, two shared blocks, vocabulary) as the older Zamba2-2.7B config and transformers'
Zamba2Config give them. Assembled, not verbatim."""


def test_every_layer_keeps_a_mamba_state_and_hybrid_layers_an_attention_cache():
    arch = read_model(ZAMBA2_27B)
    assert arch.parallel_state and [i for i, l in enumerate(arch.layers) if l.kind == "full"] == HYBRID_IDS
    # multi-head attention over the 2 × hidden concatenation: 32 KV heads of 160
    assert {(l.num_kv_heads, l.head_size) for l in arch.layers if l.kind == "full"} == {(32, 160)}
    c = calc(ZAMBA2_27B, "h100", vllm_version="0.20.0", max_model_len=4096)
    kinds = [g.spec.kind for g in c.grouping.groups]
    assert kinds.count("mamba") == 6 and kinds.count("full") == 1 and c.grouping.padding_layers == 0


def test_the_block_holds_a_state_page():
    """conv 3 × (5,120 + 2 × 64) + SSM 80 × 64 × 64, bf16: 686,848 B; 9 layers × 2 × 32 × 160 × 2 B per
    token make 48-token blocks (16 × ⌈686,848 / (16 × 20,480)⌉), the state padded by 43%; with prefix
    caching before v0.28, 'all' blocks of the config's 256-token chunk."""
    c = calc(ZAMBA2_27B, "h100", vllm_version="0.20.0", max_model_len=4096)
    assert c.layout.mamba_state_bytes == 686_848 and c.layout.block_size == 48
    assert calc(ZAMBA2_27B, "h100", vllm_version="0.20.0", max_model_len=4096,
                enable_prefix_caching=True).layout.block_size == 256


def test_the_parameters_count_shared_blocks_once_and_tie_the_lm_head():
    """2,662,214,560 without attention adapters, 2,697,604,000 with them (docs/research/zamba2.md §4)."""
    parts = inventory(ZAMBA2_27B, 1)
    assert not any(p.name == "lm_head" for p in parts)
    assert sum(p.params for p in parts) == 2_662_214_560
    assert sum(p.params for p in inventory({**ZAMBA2_27B, "use_shared_attention_adapter": True}, 1)) == 2_697_604_000


def test_two_mamba_groups_do_not_split_across_four_gpus():
    seven = {**ZAMBA2_27B, "mamba_ngroups": 2}
    with pytest.raises(SettingsError) as err:
        calc(seven, "h100", vllm_version="0.20.0", tensor_parallel_size=4, max_model_len=4096)
    assert "groups" in str(err.value.problems["--tensor-parallel-size"])
    assert calc(seven, "h100", vllm_version="0.20.0", tensor_parallel_size=2, max_model_len=4096).estimated


def test_pipeline_parallelism_and_the_first_config_format_are_refused():
    with pytest.raises(SettingsError) as err:
        calc(ZAMBA2_27B, "h100", vllm_version="0.20.0", pipeline_parallel_size=2, max_model_len=4096)
    assert "--pipeline-parallel-size" in err.value.problems
    old = {**ZAMBA2_27B, "layers_block_type": ["g" if i in HYBRID_IDS else "m" for i in range(54)],
           "state_size": 64}
    with pytest.raises(UnsupportedModelError):
        read_model(old)
    assert_field_named({**ZAMBA2_27B, "layers_block_type": ["mamba", "attention"]}, "layers_block_type[1]")
    assert_field_named({**ZAMBA2_27B, "n_mamba_heads": 7}, "n_mamba_heads")
    r = api.handle({"op": "estimate", "config": old, "gpu": "h100", "settings": {"max_model_len": 4096}})
    assert not r["ok"] and "'mamba'/'hybrid'" in r["error"]["message"]
