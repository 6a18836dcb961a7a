"""Model configs -> layer kinds, each checked on a real config from data/models.json."""

from collections import Counter

import pytest

from factories import config, llama_like
from kvcalc.errors import ConfigError, UnsupportedModelError
from kvcalc.hf_config import read_model


def kinds(model):
    return Counter(layer.kind for layer in read_model(config(model) if isinstance(model, str) else model).layers)


def test_dense_gqa_defaults_head_dim_from_hidden_size():
    arch = read_model(config("meta-llama/Llama-3.1-8B-Instruct"))
    assert {(l.kind, l.num_kv_heads, l.head_size, l.head_size_v) for l in arch.layers} == {("full", 8, 128, 128)}
    assert arch.num_layers == 32 and arch.derived_max_model_len == 131072


def test_explicit_head_dim_wins():
    layer = read_model(config("Qwen/Qwen3-8B")).layers[0]
    assert (layer.num_kv_heads, layer.head_size) == (8, 128)
    layer = read_model(llama_like(head_dim=96)).layers[0]
    assert layer.head_size == 96


def test_mha_without_num_key_value_heads():
    cfg = llama_like()
    del cfg["num_key_value_heads"]
    assert read_model(cfg).layers[0].num_kv_heads == 8


def test_gpt_oss_alternates_sliding_and_full():
    arch = read_model(config("openai/gpt-oss-120b"))
    assert [l.kind for l in arch.layers[:4]] == ["sliding_window", "full"] * 2
    assert kinds("openai/gpt-oss-120b") == {"sliding_window": 18, "full": 18}
    assert arch.layers[0].window == 128


def test_gemma2_generated_layer_types_without_layer_types_field():
    assert kinds("google/gemma-2-9b-it") == {"sliding_window": 21, "full": 21}


def test_gemma3_sliding_window_pattern():
    arch = read_model(config("google/gemma-3-1b-it"))
    assert [l.kind for l in arch.layers[:6]] == ["sliding_window"] * 5 + ["full"]
    assert kinds("google/gemma-3-1b-it") == {"sliding_window": 22, "full": 4}


def test_qwen2_use_sliding_window_false_means_no_window():
    cfg = config("Qwen/Qwen2.5-7B-Instruct")
    assert cfg["sliding_window"] and cfg["use_sliding_window"] is False
    assert kinds("Qwen/Qwen2.5-7B-Instruct") == {"full": 28}


def test_qwen2_partial_sliding_is_refused_as_vllm_does():
    cfg = dict(config("Qwen/Qwen2.5-7B-Instruct"), use_sliding_window=True, max_window_layers=20)
    with pytest.raises(UnsupportedModelError):
        read_model(cfg)


def test_all_layer_window_mistral_style():
    cfg = llama_like(model_type="mistral", sliding_window=4096)
    arch = read_model(cfg)
    assert {(l.kind, l.window) for l in arch.layers} == {("sliding_window", 4096)}
    assert kinds("microsoft/Phi-3.5-mini-instruct") == {"sliding_window": 32}


def test_sliding_window_zero_or_null_is_none():
    assert kinds(llama_like(sliding_window=0)) == {"full": 4}
    assert kinds(llama_like(sliding_window=None)) == {"full": 4}


def test_llama4_chunked_local_every_fourth_layer_global():
    arch = read_model(config("meta-llama/Llama-4-Scout-17B-16E-Instruct"))
    assert [l.kind for l in arch.layers[:4]] == ["chunked_local"] * 3 + ["full"]
    assert arch.layers[0].chunk == 8192


def test_mla_latent_is_rank_plus_rope():
    arch = read_model(config("deepseek-ai/DeepSeek-V3"))
    assert {(l.kind, l.num_kv_heads, l.head_size, l.head_size_v) for l in arch.layers} == {("mla", 1, 576, 0)}
    assert arch.num_layers == 61 and len(arch.mtp_layers) == 1
    assert read_model(config("moonshotai/Kimi-K2-Instruct")).layers[0].head_size == 576


def test_deepseek_v32_declares_indexer():
    assert read_model(config("deepseek-ai/DeepSeek-V3.2")).sparse_mla_index_head_dim == 128


def test_gemma4_global_layers_use_global_dims():
    arch = read_model(config("google/gemma-4-26B-A4B"))
    full = [l for l in arch.layers if l.kind == "full"]
    sliding = [l for l in arch.layers if l.kind == "sliding_window"]
    assert {(l.num_kv_heads, l.head_size, l.head_size_v) for l in full} == {(2, 512, 512)}
    assert {(l.num_kv_heads, l.head_size, l.window) for l in sliding} == {(8, 256, 1024)}


def test_kv_shared_layers_have_no_cache_of_their_own():
    cfg = llama_like(model_type="gemma3n_text", num_hidden_layers=6, num_kv_shared_layers=2,
                     sliding_window=512, layer_types=["sliding_attention", "full_attention"] * 3)
    layers = read_model(cfg).layers
    assert [l.kind for l in layers] == ["sliding_window", "full", "sliding_window", "full", "none", "none"]
    assert (layers[4].shared_from, layers[5].shared_from) == (2, 3)


def test_gated_delta_net_hybrid():
    arch = read_model(config("Qwen/Qwen3.5-35B-A3B"))
    assert Counter(l.kind for l in arch.layers) == {"mamba": 30, "full": 10}
    assert arch.mamba.flavour == "gdn" and arch.mamba.ssm_dtype == "float32"
    assert arch.hybrid_mamba_class and len(arch.mtp_layers) == 1


def test_nemotron_h_pattern():
    arch = read_model(config("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"))
    assert Counter(l.kind for l in arch.layers) == {"mamba": 23, "none": 23, "full": 6}
    assert arch.mamba.flavour == "mamba2"


def test_text_config_is_used_for_multimodal():
    cfg = {"architectures": ["X"], "model_type": "llava", "text_config": llama_like()}
    assert read_model(cfg).num_layers == 4


@pytest.mark.parametrize("field,value,path", [
    ("num_hidden_layers", None, "num_hidden_layers"),
    ("num_attention_heads", "eight", "num_attention_heads"),
    ("num_key_value_heads", 0, "num_key_value_heads"),
    ("hidden_size", 500, "hidden_size"),
])
def test_bad_field_errors_name_the_field(field, value, path):
    cfg = llama_like(**{field: value})
    if value is None:
        del cfg[field]
    with pytest.raises(ConfigError) as info:
        read_model(cfg)
    assert info.value.field == path and path in str(info.value)


def test_unsupported_architecture_is_refused_not_guessed():
    with pytest.raises(UnsupportedModelError, match="encoder-decoder"):
        read_model(llama_like(model_type="whisper"))
    with pytest.raises(UnsupportedModelError, match="DeepSeek-V4's vision model"):
        read_model(llama_like(architectures=["DeepseekV4ForConditionalGeneration"], model_type="deepseek_v4"))


def test_not_a_config():
    with pytest.raises(ConfigError):
        read_model([1, 2])
    with pytest.raises(ConfigError, match="architectures"):
        read_model({"foo": 1})


def test_a_speculators_format_drafter_is_read_as_vllm_reads_it():
    """RedHatAI's speculators configs keep the EAGLE-3 layer's shape in transformer_layer_config
    and its head's vocabulary at the top (draft_vocab_size); vLLM reads the layer config with
    those fields moved in (vllm/transformers_utils/configs/speculators/algos.py update_eagle3), so
    the drafter's KV layer has the layer config's heads, not the top level's (which has none)."""
    from kvcalc.hf_config import speculators_view
    drafter = {"architectures": ["Eagle3DraftModel"], "speculators_model_type": "eagle3",
               "draft_vocab_size": 64000, "norm_before_fc": True,
               "transformer_layer_config": {"model_type": "llama", "hidden_size": 2880,
                                            "num_hidden_layers": 1, "num_attention_heads": 64,
                                            "num_key_value_heads": 8, "head_dim": 64,
                                            "intermediate_size": 2880, "vocab_size": 201088}}
    view = speculators_view(drafter)
    assert view["draft_vocab_size"] == 64000 and view["hidden_size"] == 2880
    layers = [l for l in read_model(view).layers if l.kind != "none"]
    assert len(layers) == 1 and (layers[0].num_kv_heads, layers[0].head_size) == (8, 64)
    plain = {"model_type": "llama", "num_hidden_layers": 1}
    assert speculators_view(plain) is plain
    with pytest.raises(UnsupportedModelError):
        speculators_view({**drafter, "speculators_model_type": "medusa"})
    with pytest.raises(ConfigError):
        speculators_view({**drafter, "transformer_layer_config": None})


def qwen_with_yarn(**overrides):
    """Qwen2.5-7B-Instruct with the YaRN block its model card tells users to add for 131,072 tokens."""
    cfg = dict(config("Qwen/Qwen2.5-7B-Instruct"))
    cfg["rope_scaling"] = {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}
    cfg.update(overrides)
    return cfg


def test_yarn_scales_the_length_only_before_v0_30():
    """vllm/config/model.py _get_and_verify_max_len: v0.29 multiplies YaRN's original length by the
    factor; v0.30 takes max_position_embeddings as already scaled (Rule.YARN_LENGTH_AS_GIVEN)."""
    from kvcalc.versions import parse_version
    arch = read_model(qwen_with_yarn())
    assert arch.max_len_limit(parse_version("0.29.0")) == 131072
    assert arch.max_len_limit(parse_version("0.30.0")) == 32768
    # configs that state the scaled length agree in every release (gpt-oss: 4,096 × 32)
    gpt = read_model(config("openai/gpt-oss-20b"))
    assert gpt.max_len_limit(parse_version("0.29.0")) == gpt.max_len_limit(parse_version("0.33.0")) == 131072


def test_gemma3_keeps_its_class_length_unscaled():
    """google/gemma-3-27b-it ships no max_position_embeddings (Gemma3TextConfig fills in 131,072) and a
    linear factor of 8 that vLLM does not apply to Gemma 3 ("already scaled")."""
    arch = read_model(config("google/gemma-3-27b-it"))
    assert arch.derived_max_model_len == arch.derived_max_model_len_yarn_scaled == 131072


def test_rope_parameters_per_layer_type():
    """transformers v5 keeps one RoPE dict per layer type; vLLM applies the factor it finds there and
    drops the layer types without RoPE (None)."""
    cfg = llama_like(max_position_embeddings=4096)
    cfg["rope_parameters"] = {"full_attention": {"rope_type": "linear", "factor": 2.0},
                              "sliding_attention": {"rope_type": "default"}, "no_rope": None}
    assert read_model(cfg).derived_max_model_len == 8192


def test_model_max_length_replaces_the_smaller_length_keys():
    """vLLM takes the smallest length key, then lets a config's model_max_length replace it even
    when larger (Command-R: 8,192 positions, model_max_length 131,072), in every release
    (config.py in v0.10.0, model_arch_config_convertor.py in v0.33.0)."""
    cfg = llama_like(max_position_embeddings=8192, model_max_length=131072)
    assert read_model(cfg).derived_max_model_len == 131072
    assert read_model(llama_like(max_position_embeddings=8192, seq_length=4096)).derived_max_model_len == 4096
