"""TII's Falcon-H1: a Mamba2 mixer beside the attention of every layer (vllm/model_executor/models/
falcon_h1.py ``FalconH1ParallelHybrid``), sized as vLLM's hybrid KV cache manager keeps them. No public
vLLM startup log of a Falcon-H1 model was found, so these pin the layout to vLLM's code."""

from __future__ import annotations

import pytest

from factories import assert_field_named, calc
from kvcalc.errors import SettingsError
from kvcalc.hf_config import read_model
from kvcalc.kvspecs import mamba_state_bytes
from kvcalc.params import inventory

FALCON_H1_05B = {
    "architectures": ["FalconH1ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
    "attention_in_multiplier": 1.0, "attention_out_multiplier": 0.9375, "attn_layer_indices": None,
    "bos_token_id": 1, "dtype": "bfloat16", "embedding_multiplier": 5.656854249492381, "eos_token_id": 11,
    "head_dim": 64, "hidden_act": "silu", "hidden_size": 1024, "initializer_range": 0.02,
    "intermediate_size": 2048, "key_multiplier": 0.39062499999999994, "lm_head_multiplier": 0.0390625,
    "mamba_chunk_size": 128, "mamba_conv_bias": True, "mamba_d_conv": 4, "mamba_d_head": 64, "mamba_d_ssm": 1536,
    "mamba_d_state": 128, "mamba_expand": 2, "mamba_n_groups": 1, "mamba_n_heads": 24,
    "mamba_norm_before_gate": False, "mamba_proj_bias": False, "mamba_rms_norm": False, "mamba_use_mlp": True,
    "max_position_embeddings": 16384, "mlp_bias": False, "mlp_expansion_factor": 8,
    "mlp_multipliers": [0.8838834764831844, 0.5859375], "model_type": "falcon_h1", "num_attention_heads": 8,
    "num_hidden_layers": 36, "num_key_value_heads": 2, "num_logits_to_keep": 1, "pad_token_id": 0,
    "projectors_bias": False, "rms_norm_eps": 1e-05,
    "rope_parameters": {"rope_theta": 100000000000.0, "rope_type": "default"},
    "ssm_in_multiplier": 1.25,
    "ssm_multipliers": [0.3535533905932738, 0.25, 0.3535533905932738, 0.5, 0.3535533905932738],
    "ssm_out_multiplier": 0.23570226039551587, "tie_word_embeddings": False, "torch_dtype": "bfloat16",
    "vocab_size": 32784,
}
"""The Falcon-H1-0.5B geometry: the config.json of MerlinSafety/HybridIntelligence-0.5B (a FalconH1ForCausalLM
of exactly that shape) as the Hub's page shows it up to rope_parameters
(https://huggingface.co/MerlinSafety/HybridIntelligence-0.5B/blob/main/config.json, docs corpus), with the
remaining keys from the Falcon-H1-0.5B config in Megatron-Bridge's unit test (code index id 54893243323).
No verbatim tiiuae config.json was found."""

FALCON_H1_7B = {**FALCON_H1_05B, "num_hidden_layers": 44, "num_attention_heads": 12, "num_key_value_heads": 2,
                "head_dim": 128, "hidden_size": 3072, "intermediate_size": 12288, "vocab_size": 130048,
                "mamba_d_ssm": 3072, "mamba_d_state": 256, "mamba_n_groups": 1, "mamba_n_heads": 24,
                "mamba_d_head": 128, "max_position_embeddings": 262144}
"""Falcon-H1-7B's sizes as two public code files list them (code index ids 70958236989 and 65865534003:
44 layers, 12 heads of 128 with 2 KV heads, hidden 3,072, MLP 12,288, mixer 24 × 128 with d_state 256)."""


def test_every_layer_keeps_an_attention_cache_and_a_mamba_state():
    arch = read_model(FALCON_H1_05B)
    assert arch.parallel_state and arch.mamba.flavour == "mamba2"
    assert {(l.kind, l.num_kv_heads, l.head_size) for l in arch.layers} == {("full", 2, 64)}
    c = calc(FALCON_H1_05B, "l4", vllm_version="0.20.0", max_model_len=16384)
    kinds = [g.spec.kind for g in c.grouping.groups]
    assert sorted(kinds) == ["full", "mamba"] and c.grouping.padding_layers == 0
    assert all(len(g.layer_names) == 36 for g in c.grouping.groups)


@pytest.mark.parametrize("cfg,tp,state,block", [
    (FALCON_H1_05B, 1, 403_968, 800), (FALCON_H1_7B, 1, 1_594_368, 1568), (FALCON_H1_7B, 2, 798_720, 1568),
])
def test_the_mixer_is_mamba_d_ssm_wide_and_the_head_is_the_configs(cfg, tp, state, block):
    """conv (3 × (d_ssm + 2 × groups' × d_state)/TP) and SSM (heads/TP × d_head × d_state) in bf16; the
    attention head is head_dim (128 on the 7B, where hidden / heads would give 256)."""
    c = calc(cfg, "h100", vllm_version="0.20.0", tensor_parallel_size=tp, max_model_len=16384)
    assert c.layout.mamba_state_bytes == state and c.layout.block_size == block


def test_a_missing_d_ssm_is_transformers_default_and_a_null_one_expand_times_hidden():
    no_key = {k: v for k, v in FALCON_H1_05B.items() if k != "mamba_d_ssm"}
    assert read_model(no_key).mamba.intermediate_size == 1024
    assert read_model({**FALCON_H1_05B, "mamba_d_ssm": None}).mamba.intermediate_size == 2048


def test_prefix_caching_before_v0_28_chunks_the_block_by_mamba_chunk_size():
    """FalconH1ForCausalLM is SupportsMambaPrefixCaching: cache mode 'all' with blocks of the config's
    128-token mamba_chunk_size (896 for the 0.5B; 256 by the class default without the key)."""
    args = dict(vllm_version="0.20.0", max_model_len=16384, enable_prefix_caching=True)
    assert calc(FALCON_H1_05B, "l4", **args).layout.block_size == 896
    no_chunk = {k: v for k, v in FALCON_H1_05B.items() if k != "mamba_chunk_size"}
    assert read_model(no_chunk).mamba.chunk_size == 256


@pytest.mark.parametrize("version,tokens,ok", [("0.20.0", 1, True), ("0.20.0", 2, False), ("0.32.0", 2, True)])
def test_speculative_slots_must_fit_the_page_the_class_sizes_without_them_before_v0_32(version, tokens, ok):
    """From v0.17 the mixers keep a conv slot per speculative token, but falcon_h1.py sizes the page without
    them until v0.32 (Rule.FALCON_H1_SPEC_PAGE): the 7B's 11,264 bytes of slack hold one 7,168-byte slot."""
    args = dict(vllm_version=version, max_model_len=32768,
                speculative={"method": "ngram", "num_speculative_tokens": tokens})
    if ok:
        assert calc(FALCON_H1_7B, "h100", **args).estimated.tokens > 0
        return
    with pytest.raises(SettingsError) as err:
        calc(FALCON_H1_7B, "h100", **args)
    assert "--speculative-config" in err.value.problems


def test_pipeline_stages_keep_each_layers_attention_and_mamba_together():
    c = calc(FALCON_H1_05B, "l4", vllm_version="0.20.0", pipeline_parallel_size=2, max_model_len=16384)
    for stage in c.layout.stages:
        kinds = [s.kind for s in stage.values()]
        assert kinds.count("mamba") == kinds.count("full") == 18


def test_the_parameters_follow_the_parallel_layers():
    """Per layer: attention (q 8 × 64, K and V 2 × 64), the MLP (3 × 1,024 × 2,048) and the mixer (in_proj
    to 2 × 1,536 + 2 × 128 + 24, out_proj, the conv filter with its bias, A, D, dt_bias; no norm weight
    without mamba_rms_norm), two norms; untied embedding and LM head of 32,784 rows."""
    parts = inventory(FALCON_H1_05B, 1)
    mixer = sum(p.params for p in parts if p.name == "mamba" and p.layer == 0)
    conv = 1536 + 2 * 128
    assert mixer == 1024 * (1536 + conv + 24) + 1536 * 1024 + conv * 4 + conv + 3 * 24
    assert sum(p.params for p in parts if p.name == "attention" and p.layer == 0) == 1024 * (512 + 256) + 512 * 1024
    assert sum(p.params for p in parts if p.name == "lm_head") == 32832 * 1024     # padded to 64


def test_malformed_mixer_sizes_are_named():
    for key, value in (("mamba_n_heads", None), ("mamba_d_state", "128"), ("mamba_d_ssm", 0)):
        assert_field_named({**FALCON_H1_05B, key: value}, key, gpu="l4")


def test_the_state_matches_the_generic_mamba2_formula():
    dims = read_model(FALCON_H1_7B).mamba
    assert mamba_state_bytes(dims, 1, 0, "bfloat16") == 3 * (3072 + 2 * 256) * 2 + 24 * 128 * 256 * 2


def test_a_quantized_checkpoint_before_v0_16_gets_a_note_on_its_mlp():
    awq = {**FALCON_H1_7B, "quantization_config": {"quant_method": "awq", "bits": 4, "group_size": 128,
                                                   "zero_point": True, "version": "gemm"}}
    keys = lambda c: {getattr(n, "key", "") for n in c.notes}  # noqa: E731
    assert "note.falcon_h1_mlp_16_bit" in keys(calc(awq, "h100", vllm_version="0.15.0", max_model_len=8192))
    assert "note.falcon_h1_mlp_16_bit" not in keys(calc(awq, "h100", vllm_version="0.16.0", max_model_len=8192))
    assert "note.falcon_h1_mlp_16_bit" not in keys(calc(FALCON_H1_7B, "h100", vllm_version="0.15.0",
                                                        max_model_len=8192))
