"""Hostile config.json dicts and requests: every case ends in a result or a documented error.

Through ``read_model`` a case ends in a ModelArch whose cache shapes are all positive, or a
KvcalcError. Through ``api.handle`` it ends in ``{"ok": true}`` with finite, JSON-safe
numbers, or ``{"ok": false}`` with a KvcalcError type whose message (and ``fields`` for a
ConfigError) names the field. Nothing else escapes, and no case runs past its deadline.
"""

from __future__ import annotations

import copy
import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kvcalc import api
from kvcalc.catalog import find_model
from kvcalc.errors import ConfigError, KvcalcError, UnsupportedModelError
from kvcalc.hf_config import read_model, show

from factories import deadline, llama_like

ERROR_TYPES = {"ConfigError", "UnsupportedModelError", "SettingsError", "CatalogError",
               "VersionError", "KvcalcError", "RequestError"}  # RequestError: handle_json, not JSON
CASE_SECONDS = 20


llama = llama_like


def _finite_numbers(value, path="result"):
    """Every number in a result is finite and every dict key a string."""
    if isinstance(value, float):
        assert math.isfinite(value), f"{path} is {value}"
    elif isinstance(value, dict):
        for k, v in value.items():
            assert isinstance(k, str), f"{path} has key {k!r}"
            _finite_numbers(v, f"{path}.{k}")
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _finite_numbers(v, f"{path}[{i}]")


def check_response(resp: dict, field: str | None = None) -> dict:
    """The invariant of every API answer; ``field``: the config field the error must name."""
    assert isinstance(resp, dict) and resp.get("ok") in (True, False), resp
    json.dumps(resp, allow_nan=False)  # what the worker sends to the page must be strict JSON
    if resp["ok"]:
        r = resp["result"]
        _finite_numbers(r)
        lay = r["layout"]
        assert lay["kv_bytes_per_token"] > 0 or (   # 0 only for a model of Mamba layers alone
            lay["kv_bytes_per_token"] == 0 and all(g["kind"] == "mamba" for g in lay["groups"])), lay
        for part in ("estimated", "from_log"):
            p = r.get(part)
            if p:
                assert isinstance(p["tokens"], int) and p["tokens"] >= 0
                assert p["max_concurrency"] >= 0
        assert field is None, f"expected an error naming {field}, got a result"
    else:
        err = resp["error"]
        assert err["type"] in ERROR_TYPES, err
        assert err["message"] and len(err["message"]) < 2000
        if err["type"] == "ConfigError":
            assert len(err["fields"]) == 1
            (name,) = err["fields"]
            assert f"`{name}`" in err["message"]
        if field is not None:
            assert field in err["message"], (field, err["message"])
    return resp


def estimate(cfg, **settings_):
    with deadline(CASE_SECONDS):
        return check_response(api.handle({"op": "estimate", "config": cfg, "gpu": "h100",
                                          "settings": settings_}))


def read(cfg):
    """read_model's invariant: a sane ModelArch or a KvcalcError."""
    with deadline(CASE_SECONDS):
        try:
            arch = read_model(cfg)
        except KvcalcError as exc:
            assert str(exc)
            return exc
    for layer in arch.layers + arch.mtp_layers:
        if layer.kind in ("full", "sliding_window", "chunked_local", "mla"):
            assert layer.num_kv_heads >= 1 and layer.head_size >= 1, layer
            assert layer.head_size_v >= 0
        if layer.kind == "sliding_window":
            assert layer.window is not None and layer.window >= 1
        if layer.kind == "chunked_local":
            assert layer.chunk is not None and layer.chunk >= 1
    if arch.derived_max_model_len is not None:
        assert 1 <= arch.derived_max_model_len <= 10**8
    return arch


# --------------------------------------------------------------------------- one field at a time

HOSTILE_VALUES = [0, -1, "8", "", True, False, [8], {"a": 1}, 1.5, float("nan"), float("inf"),
                  float("-inf"), 10**30, 2**63, 1e308]
FIELDS = ["num_hidden_layers", "hidden_size", "num_attention_heads", "num_key_value_heads",
          "head_dim", "max_position_embeddings", "sliding_window", "intermediate_size",
          "vocab_size"]


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("value", HOSTILE_VALUES, ids=repr)
def test_hostile_value_in_a_size_field(field, value):
    resp = estimate(llama(**{field: value}))
    read(llama(**{field: value}))
    if not resp["ok"]:
        return
    # The only hostile values that may give a result: ones that mean "absent" or "none", and
    # a per-layer intermediate_size list (Gemma 3n gives one).
    assert [field, value] in [["sliding_window", 0], ["sliding_window", False],
                              ["intermediate_size", 0], ["intermediate_size", [8]]], (field, value)


@pytest.mark.parametrize("overrides,field", [
    ({"num_key_value_heads": 0}, "num_key_value_heads"),
    ({"head_dim": 0}, "head_dim"),
    ({"sliding_window": -4096}, "sliding_window"),
    ({"num_key_value_heads": 16}, "num_key_value_heads"),
    ({"hidden_size": 500}, "hidden_size"),          # not a multiple of the heads, no head_dim
    ({"num_hidden_layers": 10_001}, "num_hidden_layers"),
    ({"attention_chunk_size": -1, "model_type": "llama4"}, "attention_chunk_size"),
    ({"layer_types": ["full_attention", 7, "x", "y"]}, "layer_types[1]"),
    ({"layer_types": ["full_attention"] * 3}, "layer_types"),
    ({"layer_types": ["banana"] * 4}, "layer_types[0]"),
    ({"text_config": "oops"}, "text_config"),
    ({"llm_config": "oops"}, "llm_config"),
    ({"language_config": 0}, "language_config"),
    ({"architectures": "LlamaForCausalLM"}, "architectures"),
    ({"architectures": [{"a": 1}]}, "architectures[0]"),
    ({"model_type": ["llama"]}, "model_type"),
    ({"torch_dtype": {"a": 1}}, "torch_dtype"),
    ({"rope_scaling": {"rope_type": "yarn", "factor": float("inf")}}, "rope_scaling.factor"),
    ({"rope_scaling": {"rope_type": "yarn", "factor": 1e300}}, "rope_scaling.factor"),
    ({"rope_scaling": {"rope_type": "dynamic", "factor": 10**400}}, "rope_scaling.factor"),
    ({"rope_scaling": {"rope_type": "dynamic", "factor": 1e308}}, "rope_scaling.factor"),   # length × factor = inf
    ({"rope_scaling": {"rope_type": "dynamic", "factor": 1e-9}}, "rope_scaling.factor"),
    ({"rope_scaling": {"rope_type": "yarn", "factor": 2, "original_max_position_embeddings": 0}},
     "original_max_position_embeddings"),
    ({"intermediate_size": float("nan")}, "intermediate_size"),
    ({"intermediate_size": "14336"}, "intermediate_size"),
    ({"vocab_size": 1e308}, "vocab_size"),
    ({"vocab_size": 0}, "vocab_size"),
    ({"num_experts": "8"}, "num_experts"),
    ({"num_experts": -4}, "num_experts"),
    ({"moe_intermediate_size": float("inf"), "num_experts": 4}, "moe_intermediate_size"),
    ({"partial_rotary_factor": float("nan")}, "partial_rotary_factor"),
    ({"partial_rotary_factor": 0}, "partial_rotary_factor"),
    ({"tie_word_embeddings": "yes"}, "tie_word_embeddings"),
    ({"model_type": "qwen2_moe", "num_experts": 4, "mlp_only_layers": 5}, "mlp_only_layers"),
    ({"vision_config": [1]}, "vision_config"),
    ({"vision_config": {"hidden_size": 1024, "num_hidden_layers": float("nan")}},
     "vision_config.num_hidden_layers"),
    ({"vision_config": {"hidden_size": 10**30, "num_hidden_layers": 24}}, "vision_config.hidden_size"),
    ({"quantization_config": "fp8"}, "quantization_config"),
    ({"quantization_config": {"quant_method": "awq", "bits": "4"}}, "quantization_config.bits"),
    ({"quantization_config": {"quant_method": "awq", "bits": float("nan")}}, "quantization_config.bits"),
    ({"quantization_config": {"quant_method": "modelopt", "quantization": [1]}},
     "quantization_config.quantization"),
    ({"quantization_config": {"quant_method": "compressed-tensors", "config_groups": [1]}},
     "quantization_config.config_groups"),
    ({"quantization_config": {"quant_method": "compressed-tensors", "ignore": 5}},
     "quantization_config.ignore"),
    ({"quantization_config": {"quant_method": "compressed-tensors",
                              "config_groups": {"g": {"weights": {"num_bits": "x"}}}}},
     "num_bits"),
])
def test_malformed_field_is_named(overrides, field):
    resp = estimate(llama(**overrides))
    assert resp["ok"] is False, overrides
    assert resp["error"]["type"] == "ConfigError"
    assert field in resp["error"]["message"]
    assert isinstance(read(llama(**overrides)), ConfigError)


def test_gptq_per_channel_group_size_is_accepted():
    cfg = llama(quantization_config={"quant_method": "gptq", "bits": 4, "group_size": -1})
    assert estimate(cfg)["ok"] is True


def test_nemotron_h_head_dim_never_zero():
    cfg = copy.deepcopy(find_model("nvidia/Nemotron-H-56B-Base-8K").config)
    for key in ("head_dim", "attention_head_dim"):
        cfg.pop(key, None)
    cfg["hidden_size"] = cfg["num_attention_heads"] - 1
    resp = estimate(cfg)
    assert resp["ok"] is False and "hidden_size" in resp["error"]["message"]


def test_nemotron_h_pattern_is_bounded():
    cfg = copy.deepcopy(find_model("nvidia/Nemotron-H-56B-Base-8K").config)
    cfg["hybrid_override_pattern"] = "M-" * 1_000_000
    resp = estimate(cfg)
    assert resp["ok"] is False and "hybrid_override_pattern" in resp["error"]["message"]


def test_nas_block_configs_ffn_is_checked():
    cfg = copy.deepcopy(find_model("nvidia/Llama-3_3-Nemotron-Super-49B-v1").config)
    cfg["block_configs"][0]["ffn"] = {"ffn_mult": float("nan")}
    assert "block_configs[0].ffn.ffn_mult" in estimate(cfg)["error"]["message"]
    cfg["block_configs"][0]["ffn"] = [1]
    assert "block_configs[0].ffn" in estimate(cfg)["error"]["message"]


@pytest.mark.parametrize("model_type", ["mamba", "whisper", "bert", "t5", "deepseek_v4"])
def test_unsupported_architectures_say_so(model_type):
    resp = estimate(llama(model_type=model_type))
    assert resp["error"]["type"] == "UnsupportedModelError"
    with pytest.raises(UnsupportedModelError):
        read_model(llama(model_type=model_type))


def test_unknown_architecture_is_read_as_a_standard_decoder():
    resp = estimate(llama(architectures=["FooBarForCausalLM"], model_type="foobar"))
    assert resp["ok"] is True
    assert resp["result"]["layout"]["kv_bytes_per_token"] == 4 * 2 * 2 * 64 * 2


def test_not_a_model_config_at_all():
    for cfg in ({}, {"foo": 1}, {"architectures": []}):
        resp = estimate(cfg)
        assert resp["ok"] is False and resp["error"]["type"] == "ConfigError"
    for cfg in ([1], "config", 5, None):
        resp = api.handle({"op": "estimate", "config": cfg, "gpu": "h100"})
        check_response(resp)
        assert resp["ok"] is False


# --------------------------------------------------------------------------- size and depth


def test_text_config_nested_a_thousand_levels():
    cfg = llama()
    for _ in range(1000):
        cfg = {"model_type": "llava", "architectures": ["LlavaForConditionalGeneration"], "text_config": cfg}
    resp = estimate(cfg)
    assert resp["ok"] is False and "text_config.num_hidden_layers" in resp["error"]["message"]


def test_deeply_nested_irrelevant_value_and_layer_type():
    deep = inner = {}
    for _ in range(100_000):
        inner["a"] = {}
        inner = inner["a"]
    assert estimate(llama(junk=deep))["ok"] is True
    resp = estimate(llama(layer_types=[deep] * 4))
    assert resp["ok"] is False and "layer_types[0]" in resp["error"]["message"]
    resp = estimate(llama(num_hidden_layers=[deep]))
    assert resp["ok"] is False and "num_hidden_layers" in resp["error"]["message"]


def test_ten_megabyte_configs():
    assert estimate(llama(layer_types=["full_attention"] * 700_000))["ok"] is True
    assert estimate(llama(**{"k" * 10_000_000: 1}))["ok"] is True
    assert estimate(llama(junk="y" * 10_000_000))["ok"] is True
    resp = estimate(llama(num_attention_heads="8" * 10_000_000))
    assert resp["ok"] is False and len(resp["error"]["message"]) < 300


def test_ten_thousand_layers_all_kinds():
    n = 10_000
    assert estimate(llama(num_hidden_layers=n, sliding_window=128,
                          layer_types=["sliding_attention"] * n))["ok"] is True
    assert estimate(llama(num_hidden_layers=n, sliding_window=128,
                          layer_types=["sliding_attention", "full_attention"] * (n // 2)))["ok"] is True
    gemma = copy.deepcopy(find_model("google/gemma-4-E2B-it").config)
    t = gemma.get("text_config", gemma)
    t["num_hidden_layers"] = n
    t["layer_types"] = (["sliding_attention"] * 4 + ["full_attention"]) * (n // 5)
    t["num_kv_shared_layers"] = n // 2
    estimate(gemma)


def test_huge_but_valid_sizes_give_no_pool_not_a_wrong_one():
    resp = estimate(llama(head_dim=10**9))
    assert resp["ok"] is True
    est = resp["result"]["estimated"]
    assert est is None or est["tokens"] == 0 or not est["fits"]


# --------------------------------------------------------------------------- random configs

VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-2**70, 2**70),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.lists(st.integers(-3, 3), max_size=3), st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
    st.sampled_from([0, -1, 1, 2, 16, 128, 4096, 10**9, 10**9 + 1, 1e308, "full_attention",
                     "sliding_attention", "mamba", ["full_attention"] * 3, {"factor": 4.0, "rope_type": "yarn"}]))

MODELS = ["meta-llama/Llama-3.1-8B-Instruct", "openai/gpt-oss-20b", "google/gemma-4-E2B-it",
          "meta-llama/Llama-4-Scout-17B-16E-Instruct", "Qwen/Qwen3-Next-80B-A3B-Instruct",
          "deepseek-ai/DeepSeek-V3.2", "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16",
          "nvidia/Llama-3_3-Nemotron-Super-49B-v1", "ibm-granite/granite-4.0-h-tiny",
          "google/gemma-2-9b-it", "Qwen/Qwen2.5-7B-Instruct-AWQ", "mistralai/Mixtral-8x7B-v0.1",
          "nvidia/Qwen3.6-35B-A3B-NVFP4"]
EXTRA_KEYS = ["head_dim", "sliding_window", "layer_types", "rope_scaling", "quantization_config",
              "vision_config", "text_config", "llm_config", "num_kv_shared_layers",
              "attention_chunk_size", "kv_lora_rank", "hybrid_override_pattern", "block_configs",
              "num_nextn_predict_layers", "full_attention_interval", "max_window_layers",
              "use_sliding_window", "sliding_window_pattern", "no_rope_layers", "index_topk"]


@st.composite
def mutated_configs(draw):
    cfg = copy.deepcopy(find_model(draw(st.sampled_from(MODELS))).config)
    target = cfg["text_config"] if isinstance(cfg.get("text_config"), dict) else cfg
    keys = sorted(set(target) | set(EXTRA_KEYS))
    for key in draw(st.lists(st.sampled_from(keys), min_size=1, max_size=4, unique=True)):
        if draw(st.booleans()) and key in target:
            del target[key]
        else:
            target[key] = draw(VALUES)
    return cfg


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated_configs(), st.sampled_from([{}, {"max_model_len": 4096}, {"tensor_parallel_size": 2},
                                           {"pipeline_parallel_size": 2, "max_model_len": 2048}]))
def test_mutated_catalog_configs(cfg, flags):
    read(cfg)
    estimate(cfg, **flags)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.dictionaries(st.sampled_from(["architectures", "model_type", "num_hidden_layers",
                                        "hidden_size", "num_attention_heads", "num_key_value_heads",
                                        "head_dim", "max_position_embeddings", "text_config",
                                        "sliding_window", "layer_types", "kv_lora_rank",
                                        "qk_rope_head_dim", "intermediate_size", "vocab_size"]),
                       VALUES, max_size=10))
def test_random_dicts(cfg):
    read(cfg)
    estimate(cfg, max_model_len=1024)


# --------------------------------------------------------------------------- the JSON boundary


def check_json(text):
    with deadline(CASE_SECONDS):
        out = api.handle_json(text)
    return check_response(json.loads(out))


@pytest.mark.parametrize("text", ["", "{nope", "nan", "[1, 2]", '"estimate"', "null", "5", "{}",
                                  '{"op": [1]}', '{"op": "estimate", "model": 5}'])
def test_handle_json_rejects_non_requests(text):
    assert check_json(text)["ok"] is False


def test_handle_json_huge_request():
    req = {"op": "estimate", "model": "Qwen/Qwen3-8B", "gpu": "h100",
           "settings": {"max_model_len": 4096}, "junk": "x" * 10_000_000}
    assert check_json(json.dumps(req))["ok"] is True
    req = {"op": "estimate", "config": llama(layer_types=["full_attention"] * 1_000_000), "gpu": "h100"}
    assert check_json(json.dumps(req))["ok"] is True


@pytest.mark.parametrize("settings_,flag", [
    ({"gpu_memory_utilization": {"a": [1]}}, "--gpu-memory-utilization"),
    ({"gpu_memory_utilization": "0.9"}, "--gpu-memory-utilization"),
    ({"tensor_parallel_size": [2]}, "--tensor-parallel-size"),
    ({"kv_cache_dtype": {"name": "fp8"}}, "--kv-cache-dtype"),
    ({"block_size": "16"}, "--block-size"),
    ({"enforce_eager": "false"}, "--enforce-eager"),
    ({"vllm_version": [0, 14]}, "--vllm-version"),
    ({"speculative": {"method": {"x": 1}}}, "--speculative-config"),
    ({"speculative": {"method": "eagle", "num_speculative_tokens": "3"}}, "--speculative-config"),
    ({"speculative": {"method": "eagle", "draft_config": [1]}}, "--speculative-config"),
    ({"speculative": "mtp"}, "--speculative-config"),
    ({"nonsense": 1}, "nonsense"),
])
def test_handle_json_nested_settings_of_wrong_types(settings_, flag):
    resp = check_json(json.dumps({"op": "estimate", "model": "Qwen/Qwen3-8B", "settings": settings_}))
    assert resp["ok"] is False and flag in resp["error"]["fields"], resp["error"]


def test_handle_json_nan_literal_is_a_settings_error():
    resp = check_json('{"op": "estimate", "model": "Qwen/Qwen3-8B", "settings": {"gpu_memory_utilization": NaN}}')
    assert resp["error"]["type"] == "SettingsError"


# --------------------------------------------------------------------------- request-level inputs
# (api.py, engine.py): once bugs, each now answered with a documented error.


def test_handle_json_deeply_nested_json():
    check_json("[" * 100_000 + "]" * 100_000)


@pytest.mark.parametrize("settings_", ["x", [1], 5], ids=repr)
def test_settings_that_are_not_an_object(settings_):
    check_response(api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B", "settings": settings_}))


DEEP: list = []
_inner = DEEP
for _ in range(50_000):
    _inner.append([])
    _inner = _inner[0]


@pytest.mark.parametrize("extra", [{"gpu_total_gib": float("inf")}, {"gpu_total_gib": 1e300},
                                   {"gpu_total_gib": [{"a": [1]}] * 10**6},
                                   {"gpu_total_gib": DEEP}, {"weights_bytes": {"a": 1}},
                                   {"available_kv_gib": 1e300}, {"weights_bytes": "5"},
                                   {"weights_bytes": float("nan")}], ids=lambda d: show(d)[:40])
def test_request_numbers_out_of_range(extra):
    check_response(api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B", "gpu": "h100",
                               "settings": {"max_model_len": 4096}, **extra}))


def test_model_type_null_in_a_moe_config():
    cfg = copy.deepcopy(find_model("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16").config)
    cfg["model_type"] = None          # params.py: None.startswith in _experts
    check_response(api.handle({"op": "estimate", "config": cfg, "gpu": "h100", "settings": {}}))


def test_mla_fields_of_a_config_without_model_type_are_validated():
    """Without model_type the MLA reader is skipped, but the weights estimate still reads
    qk_rope_head_dim (the rotary cache); a string there was a TypeError (found by fuzzing)."""
    for value in ("0", {"": 0}):
        cfg = copy.deepcopy(find_model("deepseek-ai/DeepSeek-V3.2").config)
        del cfg["model_type"]
        cfg["qk_rope_head_dim"] = value
        resp = estimate(cfg)
        assert resp["ok"] is False and resp["error"]["fields"] == {"qk_rope_head_dim": resp["error"]["message"]}


def test_unknown_mamba_state_dtype_names_its_field():
    cfg = copy.deepcopy(find_model("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16").config)
    cfg["mamba_ssm_cache_dtype"] = "0"   # was a KeyError in mamba_state_bytes (found by fuzzing)
    resp = estimate(cfg)
    assert resp["ok"] is False and "mamba_ssm_cache_dtype" in resp["error"]["fields"]
    assert "float32" in resp["error"]["message"]


def test_mtp_layer_count_is_read_once_and_capped():
    """The weights estimate takes the MTP count read_model validated, never a raw config value:
    ``num_nextn_predict_layers: 0`` beside ``mtp_num_hidden_layers: 10**9`` must not loop 10**9 times."""
    cfg = copy.deepcopy(find_model("deepseek-ai/DeepSeek-V3.2").config)
    cfg["num_nextn_predict_layers"] = 0
    cfg["mtp_num_hidden_layers"] = 10**9
    estimate(cfg)
    cfg["num_nextn_predict_layers"] = 65
    resp = estimate(cfg, speculative={"method": "mtp", "num_speculative_tokens": 1})
    assert resp["ok"] is False and "num_nextn_predict_layers" in resp["error"]["message"]


def test_layer_count_the_layout_ignores_is_still_bounded():
    """Nemotron-H takes its layers from hybrid_override_pattern; num_hidden_layers is still
    checked because the parameter inventory reads it."""
    cfg = copy.deepcopy(find_model("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16").config)
    cfg["num_hidden_layers"] = 10**9
    resp = estimate(cfg)
    assert resp["ok"] is False and "num_hidden_layers" in resp["error"]["message"]


def test_negative_weights_bytes_is_refused():
    resp = api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B", "gpu": "h100",
                       "settings": {"max_model_len": 4096}, "weights_bytes": -5})
    assert resp["ok"] is False


@pytest.mark.parametrize("logs", [[1], "x"], ids=repr)
def test_validate_with_malformed_logs(logs):
    check_response(api.handle({"op": "validate", "logs": logs}))


def test_speculative_method_nested_deeply():
    # api.settings_from_dict: str(spec["method"]) recurses through the nesting.
    check_response(api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B",
                               "settings": {"speculative": {"method": DEEP}}}))


def test_fuzz_found_an_unbounded_speculators_type_and_an_unchecked_weight_name():
    """scripts/fuzz.py (seed 15): a drafter whose speculators_model_type is a huge object made an
    error message of 18 MB (now bounded by show), and an unknown weight format with
    --kv-cache-memory-bytes reached the serve command's format lookup as a KeyError (now the same
    SettingsError every path gives)."""
    head = {"speculators_model_type": {"kv_cache_scheme": ["full_attention"] * 200_000},
            "transformer_layer_config": {}}
    r = api.handle({"op": "estimate", "gpu": "h100", "model": "meta-llama/Llama-3.1-8B-Instruct",
                    "settings": {"speculative": {"method": "eagle3", "model": "acme/head", "draft_config": head}}})
    assert r["ok"] is False and len(r["error"]["message"]) < 2000
    r = api.handle({"op": "estimate", "gpu": "h100", "model": "deepseek-ai/DeepSeek-V3",
                    "settings": {"kv_cache_memory_bytes": 64, "weights": "4096"}})
    assert r["ok"] is False and r["error"]["type"] == "SettingsError" and "not a known weight format" in r["error"]["message"]


@pytest.mark.parametrize("key", ["attn_layer_offset", "attn_layer_period"])
def test_fuzz_found_a_null_jamba_layer_pattern_field(key):
    """scripts/fuzz.py (seed 34): a Jamba config with attn_layer_offset null lost its layer pattern and
    ended in a TypeError. A null period or offset is its default, as for any field kvcalc reads, so the
    config is read as if the key were absent."""
    base = {"hidden_size": 4096, "model_type": "jamba", "num_attention_heads": 32, "num_hidden_layers": 32}
    null = read_model({**base, key: None})
    assert null.layers == read_model(base).layers
    assert [l.kind for l in null.layers].count("full") == 4      # layers 4, 12, 20, 28 (period 8, offset 4)


def test_fuzz_found_an_unbounded_model_type_in_a_refusal():
    """scripts/fuzz.py (seed 36): a 100,000-character model_type beside a recurrent-state field came
    back whole in the refusal; it is shown bounded, as every config value in a message."""
    reply = api.handle({"op": "estimate", "gpu": "l4", "settings": {},
                        "config": {"model_type": "x" * 100_000, "ssm_state_size": 256}})
    assert not reply["ok"] and len(reply["error"]["message"]) < 1000
