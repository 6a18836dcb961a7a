"""Loading a model by Hugging Face id, with huggingface.co stubbed by page.route."""

from __future__ import annotations

import json
import re
import struct

import pytest
from playwright.sync_api import expect

from pagekit import (FIXTURES, HF, HF_ROUTE, Hub, assert_numbers_match, expect_in_both_languages, fresh_form,
                     load, open_advanced, oracle, page_request, wait_request)

pytestmark = pytest.mark.browser

QWEN8_CONFIG = json.loads((FIXTURES / "qwen3-8b" / "config.json").read_text())
QWEN8_INDEX = json.loads((FIXTURES / "qwen3-8b" / "model.safetensors.index.json").read_text())
QWEN06_CONFIG = json.loads((FIXTURES / "qwen3-0.6b" / "config.json").read_text())
QWEN25_15_CONFIG = json.loads((FIXTURES / "qwen2.5-1.5b-instruct" / "config.json").read_text())
QWEN25_05_CONFIG = json.loads((FIXTURES / "qwen2.5-0.5b-instruct" / "config.json").read_text())
LFM2_CONFIG = json.loads((FIXTURES / "lfm2-1.2b" / "config.json").read_text())


def safetensors_prefix() -> tuple[bytes, int]:
    """A real-format safetensors header (8-byte length + JSON) for two bf16 tensors."""
    header = {"__metadata__": {"format": "pt"},
              "model.embed_tokens.weight": {"dtype": "BF16", "shape": [151936, 1024],
                                            "data_offsets": [0, 311164928]},
              "model.norm.weight": {"dtype": "BF16", "shape": [1024],
                                    "data_offsets": [311164928, 311166976]}}
    body = json.dumps(header).encode()
    return struct.pack("<Q", len(body)) + body, 311166976


def test_load_sharded_model_uses_index_total_size(py_page, hub):
    page = py_page
    hub.add("acme/qwen3-8b-copy", "config.json", body=QWEN8_CONFIG)
    hub.add("acme/qwen3-8b-copy", "model.safetensors.index.json", body=QWEN8_INDEX)
    load(page, "acme/qwen3-8b-copy")
    want = page_request(model="acme/qwen3-8b-copy", config=QWEN8_CONFIG,
                        weights_bytes=QWEN8_INDEX["metadata"]["total_size"])
    wait_request(page, want)
    r = oracle(want)["result"]
    assert_numbers_match(page, r)
    expect(page.get_by_test_id("model-id-msg")).to_contain_text("Loaded acme/qwen3-8b-copy")
    expect(page.get_by_test_id("model-select")).to_have_value("hf:acme/qwen3-8b-copy")
    assert "hf=acme%2Fqwen3-8b-copy" in page.url


def test_load_single_file_model_reads_safetensors_header_by_range(py_page, hub):
    page = py_page
    prefix, data_bytes = safetensors_prefix()
    hub.add("acme/tiny", "config.json", body=QWEN06_CONFIG)
    hub.add("acme/tiny", "model.safetensors", status=206, body=prefix,
            headers={"content-range": f"bytes 0-{len(prefix) - 1}/{len(prefix) + data_bytes}"})
    load(page, "acme/tiny")
    want = page_request(model="acme/tiny", config=QWEN06_CONFIG, weights_bytes=data_bytes)
    wait_request(page, want)
    assert_numbers_match(page, oracle(want)["result"])
    ranged = [h for u, h in hub.seen if u.endswith("/model.safetensors")]
    assert ranged and ranged[0].get("range", "").startswith("bytes=0-")


def test_an_lfm2_model_loads_with_its_convolution_state_paged(py_page, hub):
    """A hybrid of short-convolution and attention layers (Liquid AI's LFM2): the page shows the
    core's numbers and says the state page is padded to the attention page, in both languages."""
    page = py_page
    hub.add("LiquidAI/LFM2-1.2B", "config.json", body=LFM2_CONFIG)
    load(page, "LiquidAI/LFM2-1.2B")
    want = page_request(model="LiquidAI/LFM2-1.2B", config=LFM2_CONFIG)
    wait_request(page, want)
    r = oracle(want)["result"]
    assert r["layout"]["kv_bytes_per_token"] == 6 * 2048
    assert_numbers_match(page, r)
    expect(page.get_by_test_id("model-id-msg")).to_contain_text("Loaded LiquidAI/LFM2-1.2B")
    # v0.34's 64-token attention page (64 × 2,048 B) holds the 8 KiB convolution state 16 times over
    expect_in_both_languages(page, page.get_by_test_id("notes"), "Mamba page padded by 1500.00%",
                             "Mamba 页补齐了 1500.00%")


def test_token_is_sent_but_never_stored(py_page, hub):
    page = py_page
    hub.add("acme/gated", "config.json", body=QWEN06_CONFIG)
    page.get_by_test_id("hf-token").fill("hf_secret_123")
    load(page, "acme/gated")
    wait_request(page, page_request(model="acme/gated", config=QWEN06_CONFIG))
    assert any(h.get("authorization") == "Bearer hf_secret_123" for _, h in hub.seen)
    assert "hf_secret" not in page.url
    storage = page.evaluate("() => JSON.stringify(localStorage) + JSON.stringify(sessionStorage)")
    assert "hf_secret" not in storage


@pytest.mark.parametrize("status,headers,token,kind", [
    (404, {"x-error-code": "RepoNotFound"}, "", "hf_404"),
    (401, {"x-error-code": "GatedRepo"}, "", "hf_401"),
    (401, {}, "hf_wrong", "hf_401_token"),
    (403, {"x-error-code": "GatedRepo"}, "hf_noaccess", "hf_403"),
    (404, {"x-error-code": "EntryNotFound"}, "", "hf_no_config"),
    (500, {}, "", "hf_http"),
])
def test_http_errors_each_have_a_message_and_keep_last_result(py_page, hub, status, headers, token, kind):
    page = py_page
    before = page.get_by_test_id("pool-tokens").get_attribute("data-value")
    hub.add("acme/missing", "config.json", status=status, body="{}", headers=headers)
    page.get_by_test_id("hf-token").fill(token)
    load(page, "acme/missing")
    msg = page.get_by_test_id("model-id-msg")
    expect(msg).to_have_attribute("data-kind", kind)
    expect(page.get_by_test_id("model-id")).to_have_attribute("aria-invalid", "true")
    assert page.get_by_test_id("pool-tokens").get_attribute("data-value") == before
    expect(page.get_by_test_id("model-select")).to_have_value("Qwen/Qwen3-8B")


def test_offline(py_page, hub):
    page = py_page
    hub.close()
    page.route(HF_ROUTE, lambda route: route.abort("internetdisconnected"))
    load(page, "acme/anything")
    expect(page.get_by_test_id("model-id-msg")).to_have_attribute("data-kind", "hf_offline")
    expect(page.get_by_test_id("model-id-msg")).to_contain_text("huggingface.co")
    page.unroute(HF_ROUTE)


def test_unsizeable_config_message_and_previous_model_back(py_page):
    page = py_page
    page.get_by_test_id("reset").click()
    wait_request(page, page_request())
    h = Hub(page)
    h.add("acme/not-a-model", "config.json", body={"hello": "world"})
    load(page, "acme/not-a-model")
    msg = page.get_by_test_id("model-id-msg")
    expect(msg).to_have_attribute("data-kind", "hf_unsizeable", timeout=20_000)
    expect(msg).to_contain_text("architectures")
    expect(page.get_by_test_id("model-select")).to_have_value("Qwen/Qwen3-8B")
    wait_request(page, page_request())
    h.close()


def test_bad_id_and_bad_json(py_page):
    page = py_page
    h = Hub(page)
    load(page, "no-slash")
    expect(page.get_by_test_id("model-id-msg")).to_have_attribute("data-kind", "hf_bad_id")
    h.add("acme/broken", "config.json", body="{not json")
    load(page, "acme/broken")
    expect(page.get_by_test_id("model-id-msg")).to_have_attribute("data-kind", "hf_bad_json")
    h.close()


def load_with_side_file(page, hub, model_id, config, file, body, key):
    """Serve config.json and a file beside it, load the id, and wait for the page's request that carries
    the file inside the config under ``key``; the page's numbers equal the oracle's, which is returned."""
    hub.add(model_id, "config.json", body=config)
    hub.add(model_id, file, body=body)
    load(page, model_id)
    want = page_request(model=model_id, config={**config, key: body})
    wait_request(page, want)
    r = oracle(want)["result"]
    assert_numbers_match(page, r)
    return r


def test_a_vision_model_brings_its_processor_limit(py_page, hub):
    """A Qwen2.5-VL fine-tune whose preprocessor_config.json lowers max_pixels to 1,003,520: the
    page fetches the file beside config.json, hands it to the core inside the config, and the
    warm-up's video is 14 frames of 1,280 tokens (8,960) instead of 32,768 tokens; the serve
    command gains no flag (it is the checkpoint's own default). A text model's load never asks."""
    from kvcalc.catalog import find_model
    page = py_page
    cfg = find_model("Qwen/Qwen2.5-VL-7B-Instruct").config
    pre = {"image_processor_type": "Qwen2VLImageProcessor", "max_pixels": 1003520, "min_pixels": 3136,
           "merge_size": 2, "patch_size": 14, "temporal_patch_size": 2}
    r = load_with_side_file(page, hub, "acme/vl-ocr", cfg, "preprocessor_config.json", pre, "preprocessor_config")
    act = next(t for t in r["budget"]["terms"] if t["name"] == "activation peak")
    assert "1 video(s) of 8,960 tokens" in act["basis"]
    expect(page.get_by_test_id("serve-command")).not_to_contain_text("--mm-processor-kwargs")
    hub.add("acme/qwen3-8b-copy", "config.json", body=QWEN8_CONFIG)
    load(page, "acme/qwen3-8b-copy")
    wait_request(page, page_request(model="acme/qwen3-8b-copy", config=QWEN8_CONFIG))
    assert not [u for u, _ in hub.seen if "qwen3-8b-copy/resolve/main/preprocessor_config.json" in u]


def test_a_modelopt_checkpoint_brings_its_hf_quant_config(py_page, hub):
    """An older ModelOpt FP8 export declares its quantization only in hf_quant_config.json: the page
    fetches it beside a config.json without quantization_config and hands it to the core, which
    sizes FP8 weights and the fp8 cache the checkpoint asks for."""
    page = py_page
    quant = {"producer": {"name": "modelopt", "version": "0.23.0"},
             "quantization": {"quant_algo": "FP8", "kv_cache_quant_algo": "FP8", "exclude_modules": ["lm_head"]}}
    r = load_with_side_file(page, hub, "acme/qwen3-8b-fp8-modelopt", QWEN8_CONFIG, "hf_quant_config.json", quant,
                            "hf_quant_config")
    assert r["settings"]["kv_cache_dtype_resolved"] == "fp8_e4m3"


EAGLE3_LLAMA8B = json.loads((FIXTURES / "eagle3-llama3.1-8b" / "config.json").read_text())
EAGLE3_SPEC = ('{"method": "eagle3", "model": "nm-testing/EAGLE3-LLaMA3.1-Instruct-8B-converted", '
               '"num_speculative_tokens": 5}')


def spec_request(spec: str, drafter: dict | None = None, **form) -> dict:
    """The page's request with --speculative-config as typed and, once read, the drafter's config."""
    want = page_request(model="meta-llama/Llama-3.1-8B-Instruct", **form)
    want["settings"]["speculative"] = spec
    if drafter is not None:
        want["drafter"] = drafter
    return want


def test_a_speculative_config_reads_its_drafter_and_counts_its_weights(py_page, hub):
    """--speculative-config naming an EAGLE-3 drafter: the page reads the drafter's config.json
    (the speculators format here), sends it with the request, and shows the core's 'draft model'
    term and the settings used, in both languages; the link keeps the flag."""
    page = py_page
    hub.add("nm-testing/EAGLE3-LLaMA3.1-Instruct-8B-converted", body=EAGLE3_LLAMA8B)
    page.get_by_test_id("model-select").select_option("meta-llama/Llama-3.1-8B-Instruct")
    open_advanced(page)
    page.get_by_test_id("spec-config").fill(EAGLE3_SPEC)
    want = spec_request(EAGLE3_SPEC, {"id": "nm-testing/EAGLE3-LLaMA3.1-Instruct-8B-converted",
                                      "config": EAGLE3_LLAMA8B})
    wait_request(page, want)
    result = oracle(want)["result"]
    assert_numbers_match(page, result)
    term = next(t for t in result["budget"]["terms"] if t["name"] == "draft model")
    assert 0.7 < term["gib"] < 1.0        # the layer, fc and a 32,000-entry head; the embedding shared
    expect(page.get_by_test_id("spec-drafter-msg")).to_have_attribute("data-kind", "spec_drafter_loaded")
    reserves = page.get_by_test_id("reserve-list")
    expect_in_both_languages(page, reserves, "draft model", "草稿模型")
    used = page.get_by_test_id("settings-used")
    expect(used).to_contain_text("sized from the drafter's config")
    expect(page.get_by_test_id("serve-command")).to_contain_text("--speculative-config")
    expect(page).to_have_url(re.compile(r"[?&]spec="))
    page.get_by_test_id("spec-config").fill("")
    fresh_form(page)


def test_a_drafter_that_cannot_be_read_and_a_config_that_is_not_json(py_page, hub):
    """A drafter Hugging Face does not have: the page says so beside the field and the core
    assumes one layer like the model's (no 'draft model' term); text that is not JSON gets the
    core's message under the field."""
    page = py_page
    page.get_by_test_id("model-select").select_option("meta-llama/Llama-3.1-8B-Instruct")
    open_advanced(page)
    spec = '{"method": "eagle3", "model": "acme/no-such-head", "num_speculative_tokens": 3}'
    hub.add("acme/no-such-head", status=404, body="{}", headers={"x-error-code": "RepoNotFound"})
    page.get_by_test_id("spec-config").fill(spec)
    msg = page.get_by_test_id("spec-drafter-msg")
    expect(msg).to_have_attribute("data-kind", "spec_drafter_failed")
    expect(msg).to_contain_text("acme/no-such-head")
    want = spec_request(spec)
    wait_request(page, want)
    assert all(t["name"] != "draft model" for t in oracle(want)["result"]["budget"]["terms"])
    expect(page.get_by_test_id("settings-used")).to_contain_text("drafter assumed")
    page.get_by_test_id("spec-config").fill("{method: eagle3}")
    expect(page.locator("#spec-config-msg")).to_contain_text("vLLM's JSON")
    page.get_by_test_id("spec-config").fill("")
    fresh_form(page)


def test_a_gated_drafter_is_read_once_a_token_is_entered(py_page, hub):
    """The drafter's repository answers 401 without a token: the page says so, and entering a
    token (the change of the token field) reads it again, with the token."""
    page = py_page
    repo = "acme/gated-eagle3-head"
    body = json.dumps(EAGLE3_LLAMA8B).encode()

    def gated(request):
        if request.headers.get("authorization") == "Bearer hf_drafter_ok":
            return 200, body, {}
        return 401, b"{}", {"x-error-code": "GatedRepo"}
    hub.files[f"{HF}/{repo}/resolve/main/config.json"] = gated
    page.get_by_test_id("model-select").select_option("meta-llama/Llama-3.1-8B-Instruct")
    open_advanced(page)
    spec = '{"method": "eagle3", "model": "acme/gated-eagle3-head", "num_speculative_tokens": 5}'
    page.get_by_test_id("spec-config").fill(spec)
    msg = page.get_by_test_id("spec-drafter-msg")
    expect(msg).to_have_attribute("data-kind", "spec_drafter_failed")
    token = page.get_by_test_id("hf-token")
    token.fill("hf_drafter_ok")
    token.dispatch_event("change")
    expect(msg).to_have_attribute("data-kind", "spec_drafter_loaded")
    wait_request(page, spec_request(spec, {"id": repo, "config": EAGLE3_LLAMA8B}))
    page.get_by_test_id("spec-config").fill("")
    fresh_form(page)


def test_a_pasted_draft_model_log_reads_its_drafter_and_lands_inside_the_logged_pool(py_page, hub):
    """A v0.23 log of Qwen2.5-1.5B drafted by Qwen2.5-0.5B (5 tokens): the engine line's
    SpeculativeConfig names the drafter (its own model= is not the model served); the page fills
    --speculative-config, reads the drafter's config.json and compares again, so the pool from the
    log's memory counts both models' KV (40,960 B per token) and holds the logged 140,832 tokens."""
    from kvcalc.validate import load_logs
    e = next(x for x in load_logs() if x["id"] == "rtx4080-laptop-wsl-qwen2.5-1.5b-draft0.5b-k5-seqs64-v0.23.0")
    page = py_page
    hub.add("Qwen/Qwen2.5-1.5B-Instruct", body=QWEN25_15_CONFIG)
    hub.add("Qwen/Qwen2.5-0.5B-Instruct", body=QWEN25_05_CONFIG)
    load(page, "Qwen/Qwen2.5-1.5B-Instruct")
    open_advanced(page)
    page.get_by_test_id("log-paste").fill(e["excerpt"])
    page.get_by_test_id("log-compare").click()
    expect(page.get_by_test_id("spec-drafter-msg")).to_have_attribute("data-kind", "spec_drafter_loaded")
    spec = json.loads(page.get_by_test_id("spec-config").input_value())
    assert spec == {"method": "draft_model", "num_speculative_tokens": 5, "model": "Qwen/Qwen2.5-0.5B-Instruct"}
    summary = page.get_by_test_id("log-compare-summary")
    expect(summary).to_have_attribute("data-logged", "140832")
    expect(summary).to_have_attribute("data-from-log", re.compile(r"^14\d{4}$"))
    low, high = int(summary.get_attribute("data-low")), int(summary.get_attribute("data-high"))
    assert low <= 140832 <= high
    req = page.evaluate("() => window.__kvcalc.lastCompare.request")
    assert req["drafter"] == {"id": "Qwen/Qwen2.5-0.5B-Instruct", "config": QWEN25_05_CONFIG}
    assert oracle(req)["result"]["calculation"]["from_log"]["tokens"] == int(summary.get_attribute("data-from-log"))
    expect(page.get_by_test_id("model-select")).not_to_have_value("Qwen/Qwen2.5-0.5B-Instruct")
    page.get_by_test_id("log-paste").fill("")
    page.get_by_test_id("spec-config").fill("")
    fresh_form(page)


def choose_config_file(page, name: str, body: bytes) -> None:
    page.get_by_test_id("config-file").set_input_files(files=[{"name": name, "mimeType": "application/json",
                                                               "buffer": body}])


def test_a_config_json_from_disk_is_sized_without_any_request(py_page, hub):
    """A local or fine-tuned model, or huggingface.co out of reach: the model's config.json chosen from
    disk is sized like a loaded one (weights counted from it), named after the path it was saved from,
    with no request to Hugging Face, and a shared link does not pretend to carry it."""
    page = py_page
    config = {**QWEN06_CONFIG, "_name_or_path": "/data/ckpt/qwen3-0.6b-sft"}
    choose_config_file(page, "config.json", json.dumps(config).encode())
    want = page_request(model="/data/ckpt/qwen3-0.6b-sft", config=config)
    wait_request(page, want)
    assert_numbers_match(page, oracle(want)["result"])
    expect_in_both_languages(page, page.get_by_test_id("model-id-msg"),
                             "Read config.json (/data/ckpt/qwen3-0.6b-sft): Qwen3ForCausalLM, weights estimated",
                             "已读取 config.json（/data/ckpt/qwen3-0.6b-sft）：Qwen3ForCausalLM")
    expect(page.locator("#model-select option:checked")).to_have_text(
        "From config.json on disk: /data/ckpt/qwen3-0.6b-sft")
    expect(page.get_by_test_id("serve-command")).to_contain_text("vllm serve /data/ckpt/qwen3-0.6b-sft")
    assert "hf=" not in page.url and hub.seen == []
    page.get_by_test_id("share").click()
    expect(page.locator("#share-msg")).to_contain_text("does not carry the model's config.json read from disk")
    # without a saved path the file's own name stands in
    choose_config_file(page, "my-finetune.json", json.dumps(QWEN06_CONFIG).encode())
    wait_request(page, page_request(model="my-finetune", config=QWEN06_CONFIG))
    fresh_form(page)
    expect(page.get_by_test_id("model-select")).not_to_have_value(re.compile("^hf:"))


@pytest.mark.parametrize("name,body,shows", [
    ("config.json", b"{\"architectures\": [", "The config.json of \u201cconfig.json\u201d is not valid JSON"),
    ("config.json", b"[1, 2]", "not an object of model settings (it is array)"),
    ("model.safetensors", b"x" * (5 << 20), "model.safetensors is 5.0 MiB"),
    # nested past the core's limit (textdepth), which in the worker's Pyodide would have overflowed the stack
    ("config.json", b'{"architectures": ["Qwen3ForCausalLM"], "junk": ' + b"[" * 5000 + b"]" * 5000 + b"}",
     "more than 60 levels deep"),
])
def test_a_file_that_is_no_config_is_named_and_the_result_kept(py_page, hub, name, body, shows):
    page = py_page
    before = page.get_by_test_id("pool-tokens").text_content()
    choose_config_file(page, name, body)
    expect(page.get_by_test_id("model-id-msg")).to_contain_text(shows)
    expect(page.get_by_test_id("model-id")).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_test_id("pool-tokens")).to_have_text(before)
    wait_request(page, page_request())
