"""Chinese for config.json, unsupported-model, dtype, catalog and Hugging Face errors.

Real errors, raised through ``api.handle`` or ``read_model``, come back with a Chinese rendering
in the reply's ``zh`` map that has CJK text and the same numbers; the templates of
``config_messages.py`` keep numbers and full-width punctuation. (The source scan that every
error is given a Text, over the whole core, is in tests/test_messages.py.)
"""

from __future__ import annotations

import copy
import re
import sys
from collections import Counter

import pytest

from factories import HubErrors, config, fake_hub, llama_like
from kvcalc import hf_config
from kvcalc.api import handle
from kvcalc.catalog import parse_gpus, parse_models
from kvcalc.config_messages import CONFIG_MESSAGES
from kvcalc.dtypes import resolve_kv_dtype
from kvcalc.errors import CatalogError, ConfigError, SettingsError, UnsupportedModelError
from kvcalc.hf_config import read_model
from kvcalc.messages import Text, template_fields, translations
from kvcalc.versions import parse_version


CJK = re.compile(r"[\u4e00-\u9fff]")
NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")


def numbers(text: str) -> Counter:
    return Counter(NUMBER.findall(text))


def assert_chinese(english: str, chinese: str) -> None:
    assert chinese != english
    assert CJK.search(chinese), chinese
    assert numbers(chinese) == numbers(english), (english, chinese)


def estimate_error(cfg=None, *, gpu="h100", settings=None, **request):
    reply = handle({"op": "estimate", "config": cfg, "gpu": gpu, "settings": settings or {}, **request})
    assert reply["ok"] is False, reply
    return reply


def zh_of_error(reply) -> str:
    """The Chinese of the reply's error message, checked against the English."""
    english = reply["error"]["message"]
    assert english in reply["zh"], (english, reply["zh"])
    chinese = reply["zh"][english]
    assert_chinese(english, chinese)
    for field_english in reply["error"]["fields"].values():  # a ConfigError's field, a flag's problem
        assert field_english in reply["zh"]
    return chinese


# --------------------------------------------------------------------------- (a) real errors

def _without(cfg, key):
    cfg = dict(cfg)
    del cfg[key]
    return cfg


CONFIG_CASES = [
    # (config, English substring, key of the ConfigError's problem)
    (_without(llama_like(), "num_attention_heads"),
     "`num_attention_heads`: is required to size the KV cache but is missing", "config.missing"),
    (llama_like(num_hidden_layers="many"), "must be a whole number, got 'many'", "config.whole_number"),
    (llama_like(num_hidden_layers=20_000), "must be between 1 and 10000, got 20000", "config.between"),
    (llama_like(tie_word_embeddings="yes"), "must be true or false, got 'yes'", "config.bool"),
    (llama_like(layer_types="full"), "must be a list, got str", "config.list"),
    (llama_like(layer_types=["full_attention"]), "has 1 entries, fewer than the 4 layers",
     "config.list_too_short"),
    (llama_like(layer_types=["full_attention", "weird", "full_attention", "full_attention"]),
     "`layer_types[1]`: unknown layer type 'weird'", "config.unknown_layer_type"),
    (llama_like(num_key_value_heads=16), "(16) cannot exceed num_attention_heads (8)",
     "config.kv_heads_exceed"),
    (llama_like(hidden_size=500), "(500) is not a multiple of num_attention_heads (8)",
     "config.hidden_not_multiple"),
    (llama_like(rope_scaling={"rope_type": "yarn", "factor": 1e6}),
     "(1000000.0) scales the maximum length 4,096 to 4,096,000,000 tokens, outside 1 to 100,000,000",
     "config.rope_factor_range"),
    (llama_like(text_config="x"), "`text_config`: must be a JSON object, got str", "config.object_got"),
    (llama_like(partial_rotary_factor=2), "must be a number in (0, 1], got 2", "config.fraction"),
    (llama_like(mlp_only_layers=[0, "one"]), "`mlp_only_layers[1]`: must be a layer index, got 'one'",
     "config.layer_index"),
    (llama_like(architectures=[7]), "`architectures[0]`: must be a class name string, got 7",
     "config.class_name"),
    (_without(_without(llama_like(), "architectures"), "model_type"),
     "is missing, and so is model_type", "config.no_architecture"),
    (llama_like(model_type="nemotron-nas", block_configs=[{"attention": {"n_heads_in_group": 3}}]),
     "must be a positive divisor of num_attention_heads (8), got 3", "config.heads_divisor"),
    (llama_like(model_type="nemotron-nas", block_configs=[]), "`block_configs`: is empty", "config.empty"),
    (llama_like(model_type="nemotron_h", hybrid_override_pattern="M" * 10_001),
     "has 10,001 layers, more than the 10,000 kvcalc accepts", "config.too_many_layers"),
    (llama_like(model_type="nemotron_h", hybrid_override_pattern="M*X"),
     "unknown layer code 'X' at 2", "config.unknown_layer_code"),
    (llama_like(model_type="gemma4"), "`layer_types`: is required for Gemma 4 configs",
     "config.gemma4_layer_types"),
    (llama_like(quantization_config={"config_groups": {"g0": 5}}),
     "`quantization_config.config_groups.g0`: must be a JSON object", "config.json_object"),
]


@pytest.mark.parametrize("cfg,needle,key", CONFIG_CASES, ids=[c[2] for c in CONFIG_CASES])
def test_config_errors_come_with_chinese(cfg, needle, key):
    reply = estimate_error(cfg)
    assert reply["error"]["type"] == "ConfigError"
    assert needle in reply["error"]["message"]
    chinese = zh_of_error(reply)
    assert chinese.startswith("config.json 字段 `")
    # the problem is its own Text, rendered in Chinese inside the sentence
    with pytest.raises(ConfigError) as info:
        read_model(cfg)
    problem = info.value.text.params["problem"]
    assert isinstance(problem, Text) and problem.key == key
    assert problem.render("zh") in chinese


UNSUPPORTED_CASES = [
    (llama_like(model_type="bert"), "encoder-only models (vLLM keeps no KV cache for them)",
     "model.reason.encoder_only", "纯编码器"),
    (llama_like(model_type="mamba2"), "attention-free Mamba2 models", "model.reason.attention_free",
     "Mamba2"),
    (llama_like(architectures=["DeepseekV4ForConditionalGeneration"], model_type="deepseek_v4"),
     "DeepSeek-V4's vision model (its encoder and the experts' vision gates)", "model.reason.dsv4_vision",
     "DeepSeek-V4"),
    (llama_like(architectures=["Plamo2ForCausalLM"], model_type="plamo2", mamba_d_state=64),
     "the recurrent-state layers (Mamba, linear attention or short convolution) of Plamo2ForCausalLM",
     "model.reason.state_layers", "Plamo2ForCausalLM"),
]


@pytest.mark.parametrize("cfg,reason,key,in_zh", UNSUPPORTED_CASES, ids=[c[2] for c in UNSUPPORTED_CASES])
def test_unsupported_model_reasons_are_translated(cfg, reason, key, in_zh):
    reply = estimate_error(cfg)
    assert reply["error"]["type"] == "UnsupportedModelError"
    message = reply["error"]["message"]
    assert message.startswith(f"kvcalc does not reproduce {reason} yet (model_type ")
    chinese = zh_of_error(reply)
    assert in_zh in chinese and "model_type '" in chinese
    with pytest.raises(UnsupportedModelError) as info:
        read_model(cfg)
    text = info.value.args[0]
    assert text.key == "model.unsupported" and text.params["what"].key == key
    assert text.params["what"].render("zh") in chinese


@pytest.mark.parametrize("arch,model_type,needle", [
    ("KimiK3ForConditionalGeneration", "kimi_k3", "Kimi K3's KDA linear-attention state beside MLA layers"),
    ("Step5ForCausalLM", "step5", "Step 5's sparse-attention cache"),
    ("", "hy_v4", "Hunyuan V4's sparse-attention cache"),
    ("Qwen4ExpForCausalLM", "qwen4_exp", "Qwen4-Exp's compressed sparse-attention cache"),
])
def test_v033_packages_with_their_own_cache_layouts_are_refused(arch, model_type, needle):
    """The model packages of vLLM v0.33 (vllm/models/) whose cache is not a plain KV cache: by
    architecture, or by model_type where config.json names no architecture."""
    cfg = llama_like(architectures=[arch] if arch else [], model_type=model_type)
    reply = estimate_error(cfg)
    assert reply["error"]["type"] == "UnsupportedModelError"
    assert reply["error"]["message"].startswith(f"kvcalc does not reproduce {needle}")
    assert CJK.search(zh_of_error(reply))


def test_every_unsupported_reason_is_a_text():
    assert hf_config._UNSUPPORTED
    for model_type, reason in [*hf_config._UNSUPPORTED.items(), *hf_config.NEW_LAYOUTS_NOT_READ.items()]:
        assert isinstance(reason, Text) and reason.key.startswith("model.reason."), model_type
        assert CJK.search(reason.render("zh"))


def test_state_fields_on_a_plain_decoder_are_refused_not_sized_as_attention():
    """A model type kvcalc reads as a plain decoder, with a field only recurrent-state models carry
    (an unknown GDN hybrid): sized as attention alone its pool would be wrong, so it is refused."""
    for field in ("linear_num_value_heads", "mamba_d_state", "layers_block_type", "layer_group_size"):
        cfg = llama_like(architectures=["NewHybridForCausalLM"], model_type="new_hybrid", **{field: 4})
        reply = estimate_error(cfg)
        assert reply["error"]["type"] == "UnsupportedModelError"
        assert f"this config carries {field}" in reply["error"]["message"]
        assert field in zh_of_error(reply)
    assert handle({"op": "estimate", "config": llama_like(model_type="new_plain"), "gpu": "h100",
                   "settings": {}})["ok"]


@pytest.mark.parametrize("fields", [
    {"swa_num_key_value_heads": 8, "swa_head_dim": 192, "hybrid_layer_pattern": [0, 1, 1, 1]},   # MiMo-V2-Flash
    {"swa_kv_lora_rank": 256},                                                                   # dots.llm3
    {"linear_attn_config": {"kda_layers": [1, 2, 3]}},                                            # Kimi KDA
])
def test_layers_of_their_own_shape_are_refused_not_sized_with_one(fields):
    cfg = llama_like(architectures=["NewForCausalLM"], model_type="new_mixed", **fields)
    reply = estimate_error(cfg)
    assert reply["error"]["type"] == "UnsupportedModelError"
    assert reply["error"]["message"].startswith(f"this config carries {next(iter(fields))}")
    assert CJK.search(zh_of_error(reply))


@pytest.mark.parametrize("cfg,needle,key", [
    (llama_like(model_type="bamba"), "kvcalc does not reproduce Bamba yet (model_type 'bamba')", "model.bamba"),
    (llama_like(model_type="qwen2", use_sliding_window=True, sliding_window=1024, max_window_layers=2),
     "vLLM refuses Qwen2-style configs that slide the window on only some layers", "model.qwen2_partial_sliding"),
    (llama_like(model_type="nemotron-nas", block_configs=[{"attention": {"no_op": True}}]),
     "this config has no layer with a KV cache or state", "model.no_cache_layers"),
])
def test_other_unsupported_models(cfg, needle, key):
    reply = estimate_error(cfg)
    assert reply["error"]["type"] == "UnsupportedModelError" and needle in reply["error"]["message"]
    zh_of_error(reply)
    with pytest.raises(UnsupportedModelError) as info:
        read_model(cfg)
    assert info.value.args[0].key == key


def test_state_dtype_error_lists_the_same_choices():
    cfg = copy.deepcopy(config("Qwen/Qwen3.5-27B"))
    holder = cfg.get("text_config", cfg)
    holder["mamba_ssm_dtype"] = "float64"
    reply = estimate_error(cfg)
    assert "'float64' is not a state dtype; use one of float32, bfloat16, float16" in reply["error"]["message"]
    chinese = zh_of_error(reply)
    assert "float32, bfloat16, float16" in chinese


def test_unknown_gpu_hint_is_translated_too():
    reply = estimate_error(llama_like(), gpu="h1000")
    assert reply["error"]["message"] == ("unknown GPU 'h1000'. Run `kvcalc gpus` for the list, "
                                         "or pass --gpu-memory-gib for another GPU.")
    chinese = zh_of_error(reply)
    assert "`kvcalc gpus`" in chinese and "--gpu-memory-gib" in chinese and "Run" not in chinese

    reply = estimate_error(llama_like(), gpu="h100-")
    assert "Did you mean: " in reply["error"]["message"]
    chinese = zh_of_error(reply)
    assert "Did you mean" not in chinese and "h100" in chinese


@pytest.mark.parametrize("settings,needle", [
    ({"kv_cache_dtype": "nvfp4", "vllm_version": "0.10.0"}, "nvfp4 needs vLLM 0.20.0 or newer"),
    ({"kv_cache_dtype": "fp8_ds_mla"}, "fp8_ds_mla is only for DeepSeek-style MLA models"),
])
def test_kv_dtype_problems_are_translated(settings, needle):
    reply = estimate_error(llama_like(), settings=settings)
    problem = reply["error"]["fields"]["--kv-cache-dtype"]
    assert needle in problem and problem in reply["zh"]
    assert_chinese(problem, reply["zh"][problem])


def test_unknown_kv_dtype_from_resolve():
    with pytest.raises(SettingsError) as info:
        resolve_kv_dtype("fp9", "bfloat16", None, parse_version("0.14.1"))
    text = info.value.problems["--kv-cache-dtype"]
    assert text.key == "dtype.unknown_kv"
    assert text.startswith("'fp9' is not a vLLM KV cache dtype; choose one of auto, bfloat16")
    assert_chinese(text, text.render("zh"))


@pytest.mark.parametrize("parse,data,needle", [
    (parse_gpus, {"gpus": [{"name": "x"}]}, "gpus.json is malformed: KeyError('key')"),
    (parse_models, {"models": [{}]}, "models.json is malformed: KeyError('id')"),
])
def test_malformed_catalog(parse, data, needle):
    with pytest.raises(CatalogError) as info:
        parse(data)
    assert str(info.value) == needle
    text = info.value.args[0]
    assert_chinese(text, translations({"message": text})[needle])


@pytest.mark.parametrize("exc,needle,key", [
    (HubErrors.GatedRepoError("x"), "org/m-2 is gated: accept its licence", "hub.gated"),
    (HubErrors.RepositoryNotFoundError("x"), "org/m-2 was not found on Hugging Face", "hub.not_found"),
    (HubErrors.EntryNotFoundError("x"), "org/m-2 has no config.json at its top level", "hub.no_config"),
    (OSError("network down 503"), "could not fetch org/m-2 from Hugging Face (OSError: network down 503)",
     "hub.fetch_failed"),
])
def test_hub_errors_are_translated(monkeypatch, tmp_path, exc, needle, key):
    from kvcalc.hub import HubError, fetch_model

    monkeypatch.setitem(sys.modules, "huggingface_hub", fake_hub(tmp_path, {}, raise_on=exc))
    with pytest.raises(HubError) as info:
        fetch_model("org/m-2")
    text = info.value.args[0]
    assert needle in str(info.value) and text.key == key
    assert "org/m-2" in text.render("zh")
    assert_chinese(text, text.render("zh"))


def test_attention_only_hybrid_note_is_translated():
    """Said where the release still treats granite-4.0-micro as a hybrid (v0.11.0); from v0.11.1 it is
    a dense model and nothing needs saying (Rule.ATTENTION_ONLY_NOT_HYBRID)."""
    def notes(version):
        reply = handle({"op": "estimate", "model": "ibm-granite/granite-4.0-micro", "gpu": "h100",
                        "settings": {"vllm_version": version}})
        assert reply["ok"] is True
        return reply, [n for n in reply["result"]["notes"] if n.startswith("all layers are attention")]
    reply, said = notes("0.11.0")
    assert said and said[0] in reply["zh"]
    assert_chinese(said[0], reply["zh"][said[0]])
    assert notes("0.11.1")[1] == []


# --------------------------------------------------------------------------- the catalog itself

@pytest.mark.parametrize("key", sorted(CONFIG_MESSAGES))
def test_templates_agree(key):
    english, chinese = CONFIG_MESSAGES[key]
    assert template_fields(english) == template_fields(chinese)
    assert CJK.search(chinese), key
    # numbers written into the templates (not the fields) are the same in both languages
    literal = re.compile(r"\{[^{}]*\}")
    assert numbers(literal.sub("", english)) == numbers(literal.sub("", chinese))
    # Chinese sentences use full-width punctuation; code in backquotes and fields are exempt
    prose = re.sub(r"`[^`]*`", "", literal.sub("", chinese))
    assert ";" not in prose and ":" not in prose and "?" not in prose, key
    assert not re.search(r",\s*[\u4e00-\u9fff]", prose), key
    prefix = key.split(".")[0]
    assert prefix in ("config", "model", "dtype", "quant", "catalog", "hub", "local", "safetensors"), key
