"""Config classes that spell the size fields their own way (ChatGLM, Falcon, GPT-2 and kin): kvcalc
reads them as vLLM's config classes and attention layers do, instead of failing or, worse, sizing a
multi-query model's KV cache with one KV head per attention head."""

from __future__ import annotations

from factories import calc, config
from kvcalc.config_aliases import canonical
from kvcalc.params import inventory, padded_vocab

# THUDM/chatglm2-6b as transformers printed it (find_string index id 35646499754): only num_layers,
# only padded_vocab_size's twin vocab_size, seq_length for the length.
CHATGLM2_6B = {
    "add_bias_linear": False, "add_qkv_bias": True, "architectures": ["ChatGLMModel"],
    "ffn_hidden_size": 13696, "hidden_size": 4096, "kv_channels": 128, "layernorm_epsilon": 1e-05,
    "model_type": "chatglm", "multi_query_attention": True, "multi_query_group_num": 2,
    "num_attention_heads": 32, "num_layers": 28, "original_rope": True, "padded_vocab_size": 65024,
    "post_layer_norm": True, "rmsnorm": True, "seq_length": 32768, "tie_word_embeddings": False,
    "torch_dtype": "float16", "vocab_size": 65024}

# tiiuae/falcon-7b as transformers printed it (find_string index id 2532861887): multi_query with
# the num_kv_heads = 71 the class fills in, which vLLM's FalconAttention ignores.
FALCON_7B = {
    "architectures": ["FalconForCausalLM"], "bias": False, "bos_token_id": 11, "eos_token_id": 11,
    "hidden_dropout": 0.0, "hidden_size": 4544, "initializer_range": 0.02, "layer_norm_epsilon": 1e-05,
    "model_type": "falcon", "multi_query": True, "new_decoder_architecture": False,
    "num_attention_heads": 71, "num_hidden_layers": 32, "num_kv_heads": 71, "parallel_attn": True,
    "torch_dtype": "bfloat16", "use_cache": True, "vocab_size": 65024}

# openai-community/gpt2-large's config.json (a public copy, find_string index id 39731583019),
# without the summary_* fields.
GPT2_LARGE = {
    "activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"], "attn_pdrop": 0.1,
    "bos_token_id": 50256, "embd_pdrop": 0.1, "eos_token_id": 50256, "initializer_range": 0.02,
    "layer_norm_epsilon": 1e-05, "model_type": "gpt2", "n_ctx": 1024, "n_embd": 1280, "n_head": 20,
    "n_layer": 36, "n_positions": 1024, "resid_pdrop": 0.1, "vocab_size": 50257}

# bigscience/bloom-560m as transformers printed it (find_string index id 46750199530): ALiBi, so no
# length key at all; the original configs spell hidden_size n_embed.
BLOOM_560M = {
    "_name_or_path": "bigscience/bloom-560m", "apply_residual_connection_post_layernorm": False,
    "architectures": ["BloomForCausalLM"], "attention_dropout": 0.0, "attention_softmax_in_fp32": True,
    "bias_dropout_fusion": True, "bos_token_id": 1, "eos_token_id": 2, "hidden_dropout": 0.0,
    "hidden_size": 1024, "initializer_range": 0.02, "layer_norm_epsilon": 1e-05, "masked_softmax_fusion": True,
    "model_type": "bloom", "n_head": 16, "n_inner": None, "n_layer": 24, "offset_alibi": 100, "pad_token_id": 3,
    "pretraining_tp": 1, "skip_bias_add": True, "skip_bias_add_qkv": False, "slow_but_exact": False,
    "transformers_version": "4.26.0", "unk_token_id": 0, "use_cache": True, "vocab_size": 250880}


def _params(cfg) -> float:
    return sum(p.params for p in inventory(cfg, 1)) / 1e9


def test_glm4_chat_keeps_two_kv_heads_per_layer():
    """ChatGLM's attention keeps multi_query_group_num KV heads (vLLM's chatglm.py): 40 layers × 2 ×
    128 × 2 × 2 B = 40,960 B per token, not the 655,360 that 32 heads would give; 9.40 B parameters
    (GLM-4-9B); the length is seq_length."""
    c = calc("THUDM/glm-4-9b-chat", "l40s")        # the catalog's config, as transformers printed it
    assert c.kv_bytes_per_token == 40 * 2 * 128 * 2 * 2
    assert c.resolved.max_model_len == 131072
    assert round(_params(config("THUDM/glm-4-9b-chat")), 2) == 9.40


def test_chatglm2_reads_num_layers_and_padded_vocab():
    """ChatGLM2-6B has no num_hidden_layers: vLLM's ChatGLMConfig maps it to num_layers (28), and
    the vocabulary is padded_vocab_size; 6.24 B parameters (ChatGLM2-6B)."""
    c = calc(CHATGLM2_6B, "l4")
    assert c.kv_bytes_per_token == 28 * 2 * 128 * 2 * 2
    assert c.resolved.max_model_len == 32768
    assert round(_params(CHATGLM2_6B), 2) == 6.24


def test_falcon_multi_query_keeps_one_kv_head():
    """Falcon-7B without the new decoder architecture is multi-query: one KV head of 64 whatever
    num_kv_heads says (vLLM's falcon.py), 8,192 B per token over 32 layers; transformers' class
    default length 2,048; 6.92 B parameters (tied embedding, GELU MLP of 4 × hidden)."""
    c = calc(FALCON_7B, "l4")
    assert c.kv_bytes_per_token == 32 * 1 * 64 * 2 * 2
    assert c.resolved.max_model_len == 2048
    assert round(_params(FALCON_7B), 2) == 6.92
    forty = canonical({**FALCON_7B, "new_decoder_architecture": True, "num_kv_heads": 8})
    assert forty["num_key_value_heads"] == 8


def test_gpt2_names_and_gpt_bigcode_multi_query():
    """GPT-2's n_layer/n_head/n_embd/n_positions answer the standard names (transformers'
    attribute_map): gpt2-large keeps 36 × 20 × 64 × 2 × 2 B per token over 1,024 positions and has
    0.77 B parameters (the tied embedding once, a GELU MLP of 4 × n_embd). GPT-BigCode is
    multi-query by default: one KV head."""
    c = calc(GPT2_LARGE, "l4")
    assert c.kv_bytes_per_token == 36 * 20 * 64 * 2 * 2
    assert c.resolved.max_model_len == 1024
    assert round(_params(GPT2_LARGE), 2) == 0.77
    bigcode = canonical({**GPT2_LARGE, "model_type": "gpt_bigcode"})
    assert bigcode["num_key_value_heads"] == 1
    assert canonical({**GPT2_LARGE, "model_type": "gpt_bigcode", "multi_query": False})["num_key_value_heads"] == 20


def test_canonical_never_replaces_a_name_the_config_has():
    """A standard name the config already holds wins, and a config with nothing to fill in comes
    back as the same object (every catalog model)."""
    own = {**CHATGLM2_6B, "num_hidden_layers": 30}
    assert canonical(own)["num_hidden_layers"] == 30
    llama = {"model_type": "llama", "num_hidden_layers": 2, "num_attention_heads": 4,
             "num_key_value_heads": 2, "hidden_size": 64}
    assert canonical(llama) is llama
    assert canonical({"model_type": "step3p5", "num_attention_groups": 4})["num_key_value_heads"] == 4


def test_a_bad_aliased_field_is_named_as_the_config_spells_it():
    """An error about a field read through an alias names the config's own field, which the user
    can find in their config.json: ChatGLM's multi_query_group_num and num_layers, not
    num_key_value_heads and num_hidden_layers."""
    import pytest
    from kvcalc.errors import ConfigError
    from kvcalc.hf_config import read_model

    with pytest.raises(ConfigError) as bad_groups:
        read_model({**CHATGLM2_6B, "multi_query_group_num": 0})
    assert "multi_query_group_num" in str(bad_groups.value)
    with pytest.raises(ConfigError) as bad_layers:
        read_model({**CHATGLM2_6B, "num_layers": "forty"})
    assert "num_layers" in str(bad_layers.value) and "num_hidden_layers" not in str(bad_layers.value)


def test_a_model_type_that_is_no_string_is_a_config_error():
    """A nested object where model_type belongs gets the config message, not a crash while the
    aliases look the type up (found by scripts/fuzz.py: a deeply nested one overflowed repr)."""
    import pytest
    from kvcalc.errors import ConfigError
    from kvcalc.hf_config import read_model

    deep: dict = {"a": 1}
    for _ in range(3000):
        deep = {"a": deep}
    for bad in (deep, ["chatglm"], 5):
        with pytest.raises(ConfigError, match="model_type"):
            read_model({**CHATGLM2_6B, "model_type": bad})
    assert canonical({"model_type": ["gpt2"], "n_layer": 2}) == {"model_type": ["gpt2"], "n_layer": 2}


def test_exaone_jais_and_telechat2_read_their_own_layer_names():
    """vLLM's ExaoneConfig, JAISConfig and Telechat2Config answer num_hidden_layers from num_layers,
    n_layer (and n_head, n_embd, ffn_hidden_size): the same names fill in here; their MLPs stay
    gated (SwiGLU)."""
    from kvcalc.params import _gated

    exaone = canonical({"model_type": "exaone", "num_layers": 32, "num_attention_heads": 32,
                        "num_key_value_heads": 8, "hidden_size": 4096})
    assert (exaone["num_hidden_layers"], exaone["num_key_value_heads"]) == (32, 8)
    tele = canonical({"model_type": "telechat2", "n_layer": 30, "n_head": 32, "hidden_size": 4096,
                      "ffn_hidden_size": 12288})
    assert (tele["num_hidden_layers"], tele["num_attention_heads"], tele["intermediate_size"]) == (30, 32, 12288)
    jais = canonical({"model_type": "jais", "n_layer": 40, "n_head": 40, "n_embd": 5120, "n_positions": 2048,
                      "n_inner": 13653})
    assert (jais["num_hidden_layers"], jais["hidden_size"], jais["max_position_embeddings"], jais["intermediate_size"]) == \
        (40, 5120, 2048, 13653)
    assert _gated(tele) and _gated(jais) and not _gated(canonical(GPT2_LARGE))


# mlx-community/dbrx-instruct-4bit's config.json as a public test quotes it (find_string index id
# 61021081746), with the original DBRX fields and without the PretrainedConfig clutter of its
# nested blocks and the mlx quantization block.
DBRX_INSTRUCT = {
    "architectures": ["DbrxForCausalLM"], "attn_config": {"clip_qkv": 8, "kv_n_heads": 8, "rope_theta": 500000},
    "d_model": 6144, "emb_pdrop": 0.0,
    "ffn_config": {"ffn_act_fn": {"name": "silu"}, "ffn_hidden_size": 10752, "moe_num_experts": 16,
                   "moe_top_k": 4, "moe_jitter_eps": 0, "moe_loss_weight": 0.05},
    "initializer_range": 0.02, "max_seq_len": 32768, "model_type": "dbrx", "n_heads": 48, "n_layers": 40,
    "vocab_size": 100352}


def test_dbrx_reads_its_nested_attention_and_expert_blocks():
    """DBRX keeps its sizes in d_model/n_heads/n_layers and two nested blocks: attn_config.kv_n_heads
    (8 KV heads of 128: 40 × 8 × 128 × 2 × 2 = 163,840 B per token) and ffn_config's 16 experts of
    10,752, top 4: 132 B parameters (DBRX's published total); the length is max_seq_len."""
    c = calc(DBRX_INSTRUCT, "h200", tensor_parallel_size=8)
    assert c.kv_bytes_per_token == 40 * 8 * 128 * 2 * 2 // 8
    assert c.resolved.max_model_len == 32768
    assert round(_params(DBRX_INSTRUCT)) == 132
    mpt = canonical({"model_type": "mpt", "d_model": 4096, "n_heads": 32, "n_layers": 32, "max_seq_len": 2048,
                     "expansion_ratio": 4, "attn_config": {"alibi": True}})
    assert (mpt["num_key_value_heads"], mpt["intermediate_size"], mpt["max_position_embeddings"]) == (32, 16384, 2048)


def test_bloom_reads_n_layer_and_n_head_and_takes_vllms_2048_default_length():
    """BLOOM's n_layer/n_head (and the older n_embed) answer the standard names (transformers'
    BloomConfig); every head keeps its KV (ALiBi, no GQA): 24 × 16 × 64 × 2 × 2 B = 98,304 B per token;
    0.56 B parameters (tied embedding, GELU MLP of 4 × hidden). With no length key vLLM assumes 2,048
    and takes a longer --max-model-len as given; the output says so."""
    c = calc(BLOOM_560M, "t4")
    assert c.kv_bytes_per_token == 24 * 16 * 64 * 2 * 2
    assert round(_params(BLOOM_560M), 2) == 0.56
    assert c.resolved.max_model_len == 2048
    assert any("assumes a maximum length of 2,048" in n for n in c.notes)
    longer = calc(BLOOM_560M, "t4", max_model_len=8192)
    assert longer.resolved.max_model_len == 8192
    assert not any("assumes a maximum length" in n for n in longer.notes)
    older = {k: v for k, v in BLOOM_560M.items() if k != "hidden_size"} | {"n_embed": 1024}
    assert calc(older, "t4").kv_bytes_per_token == c.kv_bytes_per_token



def _opt_6_7b():
    """facebook/opt-6.7b's config.json, as a stored log row carries it (its provenance in that row's notes)."""
    from kvcalc.validate import load_logs
    return next(e["config"] for e in load_logs() if e["id"] == "h100-nvl-opt-6.7b-node7-engine-debug-warm-v0.10.1.1")


def test_opt_reads_ffn_dim_ties_its_head_and_keeps_a_learned_position_table():
    """OPTConfig spells the MLP width ``ffn_dim``; OPT's MLP is fc1/fc2 (ReLU, not gated), its LM head
    is the embedding (PretrainedConfig ties by default) and it keeps a learned position table of
    max_position_embeddings + 2 rows (opt.py). The 6.7B's weights then come to the 12.4037 GiB its
    v0.10 start loaded."""
    cfg = _opt_6_7b()
    parts = inventory(cfg, 1)
    names = {p.name for p in parts}
    assert "lm_head" not in names
    assert canonical(cfg)["intermediate_size"] == cfg["ffn_dim"] == 16384
    mlp = [p for p in parts if p.name == "mlp" and p.layer == 0]
    assert sum(p.params for p in mlp if p.quantizable) == 2 * 4096 * 16384
    assert any(p.name == "embedding" and p.params == (2048 + 2) * 4096 for p in parts)
    weights = calc(cfg, "h100", max_model_len=2048, vllm_version="0.10.1").budget.weights_as_logged
    assert abs(weights / (1 << 30) - 12.4037) / 12.4037 < 0.001
    # OPT-350m's narrower word embedding projects in and out of the hidden size
    narrow = inventory({**cfg, "word_embed_proj_dim": 512}, 1)
    assert [p.params for p in narrow if p.name == "embedding"][:2] == [padded_vocab(50272) * 512, 512 * 4096]
