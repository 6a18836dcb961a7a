"""Each kind of input change: the page's request equals the one built here, and every number
shown equals CPython's kvcalc.api.handle for that request."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from pagekit import assert_numbers_match, oracle, page_request, shown, value_of, wait_request

pytestmark = pytest.mark.browser


def reset(page) -> None:
    page.get_by_test_id("reset").click()
    wait_request(page, page_request())


def open_advanced(page) -> None:
    if page.locator("#advanced").get_attribute("open") is None:
        page.locator("#advanced summary").click()


CHANGES = [
    # (testid, how, value, expected request overrides)
    ("model-select", "select", "meta-llama/Llama-3.1-8B-Instruct", {"model": "meta-llama/Llama-3.1-8B-Instruct"}),
    ("gpu-select", "select", "a100-80g-sxm", {"gpu": "a100-80g-sxm"}),
    ("gpu-count", "fill", "2", {"tensor_parallel_size": 2}),
    ("pp", "fill", "2", {"pipeline_parallel_size": 2}),
    ("util", "fill", "0.95", {"gpu_memory_utilization": 0.95}),
    ("weights", "select", "fp8", {"weights": "fp8"}),
    ("kv-dtype", "select", "fp8", {"kv_cache_dtype": "fp8"}),
    ("max-model-len", "fill", "8192", {"max_model_len": 8192}),
    ("max-model-len", "fill", "", {"max_model_len": None}),
    ("avg-tokens", "fill", "1000", {"avg_tokens": 1000}),
    ("vllm-version", "select", "0.11.0", {"vllm_version": "0.11.0"}),
    ("mnbt", "fill", "16384", {"max_num_batched_tokens": 16384}),
    ("max-num-seqs", "fill", "64", {"max_num_seqs": 64}),
    ("block-size", "select", "32", {"block_size": 32}),
    ("enforce-eager", "check", None, {"enforce_eager": True}),
    ("entrypoint", "select", "llm", {"entrypoint": "llm"}),
    ("available-kv-gib", "fill", "51.39", {"available_kv_gib": 51.39}),
]


def expected(overrides):
    o = dict(overrides)
    top = {k: o.pop(k) for k in ("model", "gpu", "available_kv_gib") if k in o}
    return page_request(**top, **o)


@pytest.mark.parametrize("testid,how,val,over", CHANGES, ids=[f"{c[0]}={c[2]}" for c in CHANGES])
def test_input_change_matches_cpython(py_page, testid, how, val, over):
    page = py_page
    reset(page)
    open_advanced(page)
    el = page.get_by_test_id(testid)
    if how == "select":
        el.select_option(val)
    elif how == "fill":
        el.fill(val)
    else:
        el.check()
    want = expected(over)
    wait_request(page, want)
    reply = oracle(want)
    assert reply["ok"], reply
    assert_numbers_match(page, reply["result"])


def test_combined_changes(py_page):
    page = py_page
    reset(page)
    page.get_by_test_id("model-select").select_option("meta-llama/Llama-3.1-70B-Instruct")
    page.get_by_test_id("gpu-select").select_option("h200")
    page.get_by_test_id("gpu-count").fill("4")
    page.get_by_test_id("kv-dtype").select_option("fp8")
    page.get_by_test_id("max-model-len").fill("131072")
    want = page_request(model="meta-llama/Llama-3.1-70B-Instruct", gpu="h200",
                        tensor_parallel_size=4, kv_cache_dtype="fp8", max_model_len=131072)
    wait_request(page, want)
    assert_numbers_match(page, oracle(want)["result"])


def test_from_log_headline_and_band(py_page):
    page = py_page
    reset(page)
    open_advanced(page)
    page.get_by_test_id("model-select").select_option("meta-llama/Llama-3.1-8B-Instruct")
    page.get_by_test_id("max-model-len").fill("131072")
    page.get_by_test_id("util").fill("0.9")
    page.get_by_test_id("vllm-version").select_option("0.14.0")
    page.get_by_test_id("available-kv-gib").fill("51.39")
    want = page_request(model="meta-llama/Llama-3.1-8B-Instruct", max_model_len=131072,
                        gpu_memory_utilization=0.9, vllm_version="0.14.0", available_kv_gib=51.39)
    wait_request(page, want)
    r = oracle(want)["result"]
    assert_numbers_match(page, r)
    expect(page.get_by_test_id("from-log")).to_be_visible()
    assert f"{r['from_log']['tokens_low']:,}" in shown(page, "from-log")


@pytest.mark.parametrize("model,gpu,over", [
    ("meta-llama/Llama-3.1-8B-Instruct", "rtx-4090", {"max_model_len": 131072}),  # length too long
    ("meta-llama/Llama-3.1-70B-Instruct", "h100-sxm", {"weights": "fp8"}),  # weights fill the GPU
])
def test_does_not_fit_shows_vllm_error_and_what_to_change(py_page, model, gpu, over):
    page = py_page
    reset(page)
    page.get_by_test_id("model-select").select_option(model)
    page.get_by_test_id("gpu-select").select_option(gpu)
    if "weights" in over:
        page.get_by_test_id("weights").select_option(over["weights"])
    if "max_model_len" in over:
        page.get_by_test_id("max-model-len").fill(str(over["max_model_len"]))
    want = page_request(model=model, gpu=gpu, **over)
    wait_request(page, want)
    r = oracle(want)["result"]
    assert not r["estimated"]["fits"]
    assert_numbers_match(page, r)  # includes: vLLM's error text is shown
    err = page.get_by_test_id("error")
    assert err.get_attribute("data-kind") == "does-not-fit"
    if r["estimated"]["estimated_max_model_len"]:
        assert f"{r['estimated']['estimated_max_model_len']:,}" in err.inner_text()
        assert "--max-model-len" in err.inner_text()
    else:
        assert "--tensor-parallel-size" in err.inner_text()


@pytest.mark.parametrize("testid,text,flag", [
    ("max-model-len", "abc", "--max-model-len"),
    ("gpu-count", "0", "--tensor-parallel-size"),
    ("util", "1.5", "--gpu-memory-utilization"),
    ("avg-tokens", "12.5", "--avg-tokens"),
])
def test_malformed_input_message_next_to_field_keeps_last_result(py_page, testid, text, flag):
    page = py_page
    reset(page)
    before = value_of(page, "pool-tokens")
    computed = page.evaluate("() => window.__kvcalc.computed")
    page.get_by_test_id(testid).fill(text)
    msg = page.locator(f"#{testid}-msg")
    expect(msg).to_contain_text(flag, timeout=20_000)
    expect(page.get_by_test_id(testid)).to_have_attribute("aria-invalid", "true")
    assert page.evaluate("() => window.__kvcalc.computed") > computed
    assert value_of(page, "pool-tokens") == before  # the last good result stays
    expect(page.get_by_test_id("error")).to_be_visible()
    reset(page)
    expect(msg).to_be_empty()


def test_keyboard_only(py_page):
    """Tab reaches the inputs; arrow keys change a select; the result follows."""
    page = py_page
    reset(page)
    page.get_by_test_id("gpu-select").focus()
    page.keyboard.press("ArrowDown")  # h100-sxm -> h100-pcie
    want = page_request(gpu="h100-pcie")
    wait_request(page, want)
    assert_numbers_match(page, oracle(want)["result"])
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.testid") == "gpu-count"
