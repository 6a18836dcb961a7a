"""--hf-overrides: merged into config.json as vLLM merges it, then sized like any config; the
checkpoint's size stands only while the overrides leave every tensor's shape alone."""

from __future__ import annotations

import json

import pytest

from factories import calc, config
from kvcalc.catalog import find_model
from kvcalc.commandline import read_command
from kvcalc.errors import SettingsError
from kvcalc.hf_overrides import apply_overrides, keeps_checkpoint_shapes
from kvcalc.logparse import parse_log


def test_overrides_merge_as_vllm_merges_them():
    """A nested config merges key by key (objects inside too); any other object replaces the value
    whole, quantization_config included (transformers keeps it a plain dict)."""
    base = {"model_type": "x", "rope_scaling": {"type": "linear", "factor": 2.0},
            "text_config": {"num_hidden_layers": 4, "rope_scaling": {"type": "yarn", "factor": 2.0}},
            "quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]}}
    got = apply_overrides(base, {"rope_scaling": {"factor": 4.0},
                                 "text_config": {"rope_scaling": {"factor": 4.0}},
                                 "quantization_config": {"quant_method": "awq"}, "new_key": 1})
    assert got["rope_scaling"] == {"factor": 4.0}
    assert got["text_config"] == {"num_hidden_layers": 4, "rope_scaling": {"type": "yarn", "factor": 4.0}}
    assert got["quantization_config"] == {"quant_method": "awq"} and got["new_key"] == 1
    assert base["text_config"]["rope_scaling"]["factor"] == 2.0      # the caller's config is left alone


CHECKPOINT = find_model("Qwen/Qwen3-8B").weights_bytes


def test_a_longer_context_is_allowed_and_the_checkpoint_size_stands():
    with pytest.raises(SettingsError):
        calc("Qwen/Qwen3-8B", "h100", max_model_len=131072)
    c = calc("Qwen/Qwen3-8B", "h100", max_model_len=131072, hf_overrides='{"max_position_embeddings": 131072}',
             weights_bytes=CHECKPOINT)
    plain = calc("Qwen/Qwen3-8B", "h100", max_model_len=32768, weights_bytes=CHECKPOINT)
    assert c.resolved.max_model_len == 131072
    # the same checkpoint (the weights differ only by the longer rotary cache vLLM builds)
    assert c.budget.terms[0].basis.startswith("checkpoint size") and plain.budget.terms[0].basis.startswith("checkpoint")
    assert 0 < c.budget.terms[0].bytes - plain.budget.terms[0].bytes < 64 << 20
    assert """--hf-overrides '{"max_position_embeddings":131072}'""" in c.serve_command
    assert keeps_checkpoint_shapes({"text_config": {"rope_scaling": {"factor": 4}}})


def test_fewer_layers_count_the_weights_from_the_config():
    full = calc("Qwen/Qwen3-8B", "h100", max_model_len=8192, weights_bytes=CHECKPOINT)
    half = calc("Qwen/Qwen3-8B", "h100", max_model_len=8192, hf_overrides={"num_hidden_layers": 18},
                weights_bytes=CHECKPOINT)
    assert half.kv_bytes_per_token * 2 == full.kv_bytes_per_token
    assert half.budget.terms[0].bytes < 0.6 * full.budget.terms[0].bytes
    assert any("counted from the overridden config" in n for n in half.notes)
    assert not keeps_checkpoint_shapes({"num_hidden_layers": 18})


@pytest.mark.parametrize("value", ["[1]", "{not json", 3])
def test_what_is_no_json_object_is_named(value):
    with pytest.raises(SettingsError) as e:
        calc("Qwen/Qwen3-8B", "h100", hf_overrides=value)
    assert "must be a JSON object" in str(e.value.problems["--hf-overrides"])


def test_a_pasted_command_and_log_give_the_overrides():
    got = read_command("""vllm serve Qwen/Qwen3-8B --hf-overrides '{"max_position_embeddings": 131072}'""")
    assert json.loads(got["settings"]["hf_overrides"]) == {"max_position_embeddings": 131072}
    assert got["refused"] == {}
    log = parse_log("INFO 01-01 00:00:00 [utils.py:1] non-default args: "
                    "{'model': 'Qwen/Qwen3-8B', 'hf_overrides': {'max_position_embeddings': 131072}}")
    assert log.settings()["hf_overrides"] == {"max_position_embeddings": 131072}
    assert config("Qwen/Qwen3-8B")["max_position_embeddings"] == 40960      # the catalog is untouched


def test_disabling_the_sliding_window_makes_every_layer_full_and_caps_the_context():
    """--disable-sliding-window (vllm/config/model.py): vLLM caps the model's length at the window,
    then drops it, so every layer is full attention; a model without a window is left alone, and a
    length past the window is refused naming it unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1."""
    from kvcalc import api

    def est(model, **settings):
        return api.handle({"op": "estimate", "model": model, "gpu": "h100", "settings": settings})

    plain = est("google/gemma-3-27b-it")["result"]
    off = est("google/gemma-3-27b-it", disable_sliding_window=True)["result"]
    assert {g["kind"] for g in plain["layout"]["groups"]} == {"sliding_window", "full"}
    assert [(g["kind"], g["layers"]) for g in off["layout"]["groups"]] == [("full", 62)]
    assert off["settings"]["max_model_len"] == 1024 and off["serve_command"].endswith("--disable-sliding-window")
    assert any("sliding window (1,024 tokens)" in n for n in off["notes"])
    too_long = est("google/gemma-3-27b-it", disable_sliding_window=True, max_model_len=8192)
    assert "sliding window of 1,024 tokens" in too_long["error"]["fields"]["--max-model-len"]
    allowed = est("google/gemma-3-27b-it", disable_sliding_window=True, max_model_len=8192,
                  allow_long_max_model_len=True)["result"]
    assert allowed["settings"]["max_model_len"] == 8192
    same = est("Qwen/Qwen3-8B", disable_sliding_window=True)["result"]
    assert same["estimated"]["tokens"] == est("Qwen/Qwen3-8B")["result"]["estimated"]["tokens"]


def test_releases_before_0_12_refuse_disabling_the_window_with_rope_scaling():
    """Up to v0.11 vLLM raised NotImplementedError for --disable-sliding-window whenever the config
    set rope_scaling of a type other than su, longrope or llama3 (gpt-oss's YaRN), Gemma 3 aside;
    v0.12 took it (Rule.SLIDING_WINDOW_OFF_WITH_ROPE_SCALING)."""
    with pytest.raises(SettingsError) as err:
        calc("openai/gpt-oss-20b", disable_sliding_window=True, vllm_version="0.11.0")
    assert list(err.value.problems) == ["--disable-sliding-window"]
    assert "'yarn'" in str(err.value) and "0.12.0 or newer" in str(err.value)
    assert calc("openai/gpt-oss-20b", disable_sliding_window=True, vllm_version="0.12.0").estimated.tokens > 0
    # llama3 scaling passes, and so does Gemma 3 (its length is already scaled)
    assert calc("meta-llama/Llama-3.1-8B-Instruct", disable_sliding_window=True, vllm_version="0.10.0").estimated
    assert calc("google/gemma-3-27b-it", disable_sliding_window=True, vllm_version="0.10.0").estimated
