"""Each kind of input change: the page's request equals the one built here, and every number
shown equals CPython's kvcalc.api.handle for that request."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from pagekit import (FORM, READY_TIMEOUT_MS, assert_numbers_match, fresh_form, open_advanced, open_page, oracle,
                     page_request, set_form, shown, value_of, wait_request)

pytestmark = pytest.mark.browser


def reset(page) -> None:
    page.get_by_test_id("reset").click()
    wait_request(page, page_request())


CHANGES = [
    # (request field, value): each set alone on the default form (pagekit.FORM names its control)
    ("model", "meta-llama/Llama-3.1-8B-Instruct"),
    ("gpu", "a100-80g-sxm"),
    ("tensor_parallel_size", 2),
    ("pipeline_parallel_size", 2),
    ("gpu_memory_utilization", 0.95),
    ("weights", "fp8"),
    ("kv_cache_dtype", "fp8"),
    ("max_model_len", 8192),
    ("max_model_len", None),
    ("avg_tokens", 1000),
    ("vllm_version", "0.11.0"),
    ("max_num_batched_tokens", 16384),
    ("max_num_seqs", 64),
    ("block_size", 32),
    ("block_size", 48),      # not among the suggestions: any multiple of 16 from v0.18
    ("enforce_eager", True),
    ("entrypoint", "llm"),
    ("available_kv_gib", 51.39),
    ("gpu_total_gib", 78.5),  # the card's memory as the user's log prints it
]


@pytest.mark.parametrize("field,val", CHANGES,
                         ids=[f"{FORM[f][0]}={'' if v is None else v}" for f, v in CHANGES])
def test_input_change_matches_cpython(py_page, field, val):
    page = py_page
    reset(page)
    open_advanced(page)
    want = set_form(page, **{field: val})
    wait_request(page, want)
    reply = oracle(want)
    assert reply["ok"], reply
    assert_numbers_match(page, reply["result"])


def test_combined_changes(py_page):
    page = py_page
    reset(page)
    want = set_form(page, model="meta-llama/Llama-3.1-70B-Instruct", gpu="h200", tensor_parallel_size=4,
                    kv_cache_dtype="fp8", max_model_len=131072)
    wait_request(page, want)
    assert_numbers_match(page, oracle(want)["result"])


def test_a_typed_gpu_total_sizes_the_chosen_card_and_a_new_card_clears_it(py_page):
    """An L20 with ECC off offers 47.37 GiB where the catalog's (ECC on) says 44.39: the typed total
    sizes the L20 the form names; picking another card from the list drops it."""
    page = py_page
    reset(page)
    want = set_form(page, gpu="l20", gpu_total_gib=47.37)
    wait_request(page, want)
    r = oracle(want)["result"]
    assert r["gpu"]["key"] == "l20" and r["gpu"]["total_gib"] == 47.37
    assert_numbers_match(page, r)
    assert "47.37 GiB" in shown(page, "gpu-total")
    page.get_by_test_id("gpu-select").select_option("a100-80g-sxm")
    expect(page.get_by_test_id("gpu-total-gib")).to_have_value("")
    wait_request(page, page_request(gpu="a100-80g-sxm"))


def test_an_empty_memory_share_shows_the_chosen_release_s_default(py_page):
    """The memory-share field, left empty, shows as its placeholder the utilization the core resolved:
    1.0 from v0.34 (extensible KV cache), 0.92 from v0.20, 0.9 before; a typed value keeps it."""
    page = py_page
    reset(page)
    util = page.get_by_test_id("util")
    expect(util).to_have_attribute("placeholder", "1")
    for version, default in (("0.33.0", "0.92"), ("0.19.0", "0.9")):
        wait_request(page, set_form(page, vllm_version=version))
        expect(util).to_have_attribute("placeholder", default)
    wait_request(page, set_form(page, vllm_version="0.19.0", gpu_memory_utilization=0.8))
    expect(util).to_have_attribute("placeholder", "0.9")
    reset(page)
    expect(util).to_have_attribute("placeholder", "1")


def test_a_concurrency_on_an_exact_tie_is_rounded_as_vllm_prints_it(py_page):
    """6,208 blocks of 64 tokens (v0.34's default) for 32,768-token requests make exactly 12.125x: vLLM's
    f-string rounds that half to even (12.12x), and so must the page's headline, beside the log line the
    core writes."""
    page = py_page
    fresh_form(page)
    open_advanced(page)
    page.get_by_test_id("num-blocks").fill("6208")
    want = page_request()
    want["settings"]["num_gpu_blocks_override"] = 6208
    wait_request(page, want)
    r = oracle(want)["result"]
    assert r["estimated"]["max_concurrency"] == 12.125
    assert shown(page, "max-concurrency") == "12.12x"
    assert any(line.endswith("12.12x") for line in r["estimated"]["log_lines"])


def test_a_gpu_total_that_is_not_a_number_is_named_beside_its_field(py_page):
    page = py_page
    reset(page)
    before = value_of(page, "pool-tokens")
    page.get_by_test_id("gpu-total-gib").fill("48GB")
    msg = page.locator("#gpu-total-gib-msg")
    expect(msg).to_contain_text("48GB", timeout=20_000)
    expect(page.get_by_test_id("gpu-total-gib")).to_have_attribute("aria-invalid", "true")
    assert value_of(page, "pool-tokens") == before  # the last good result stays
    reset(page)
    expect(msg).to_be_empty()


def test_from_log_headline_and_band(py_page):
    page = py_page
    reset(page)
    open_advanced(page)
    want = set_form(page, model="meta-llama/Llama-3.1-8B-Instruct", max_model_len=131072,
                    gpu_memory_utilization=0.9, vllm_version="0.14.0", available_kv_gib=51.39)
    wait_request(page, want)
    r = oracle(want)["result"]
    assert_numbers_match(page, r)
    expect(page.get_by_test_id("from-log")).to_be_visible()
    assert f"{r['from_log']['tokens_low']:,}" in shown(page, "from-log")


@pytest.mark.parametrize("model,gpu,over", [
    ("meta-llama/Llama-3.1-8B-Instruct", "rtx-4090", {"max_model_len": 131072}),  # length too long
    ("meta-llama/Llama-3.1-70B-Instruct", "h100-sxm", {"weights": "fp8"}),  # weights fill the GPU
    ("meta-llama/Llama-3.2-3B-Instruct", "t4", {"max_model_len": 131072}),  # no fp8 cache on a T4 (v0.24+)
])
def test_does_not_fit_shows_vllm_error_and_what_to_change(py_page, model, gpu, over):
    """vLLM's own error, then what to change: an fp8 KV cache only where the core says vLLM takes one."""
    page = py_page
    reset(page)
    want = set_form(page, model=model, gpu=gpu, **over)
    wait_request(page, want)
    r = oracle(want)["result"]
    assert not r["estimated"]["fits"]
    assert_numbers_match(page, r)  # includes: vLLM's error text is shown
    err = page.get_by_test_id("error")
    assert err.get_attribute("data-kind") == "does-not-fit"
    if r["estimated"]["estimated_max_model_len"]:
        assert f"{r['estimated']['estimated_max_model_len']:,}" in err.inner_text()
        assert "--max-model-len" in err.inner_text()
        assert ("--kv-cache-dtype fp8" in err.inner_text()) == r["fp8_cache_helps"]
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


def test_a_block_size_vllm_refuses_is_said_at_its_field(py_page):
    """The block size is typed (suggestions offered): one that is not a multiple of 16 gets the
    core's refusal beside the field, naming what vLLM takes, and the last result stays."""
    page = py_page
    fresh_form(page)
    open_advanced(page)
    before = value_of(page, "pool-tokens")
    page.get_by_test_id("block-size").fill("40")
    msg = page.locator("#block-size-msg")
    expect(msg).to_contain_text("40 is not accepted", timeout=20_000)
    expect(msg).to_contain_text("any multiple of 16")
    assert value_of(page, "pool-tokens") == before
    page.get_by_test_id("block-size").fill("")
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
    assert page.evaluate("() => document.activeElement.dataset.testid") == "gpu-total-gib"
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.testid") == "gpu-count"


def test_a_checkpoint_vllm_refuses_on_the_gpu_is_said_at_the_weights_field(py_page):
    """An AWQ checkpoint on a V100 (compute capability 7.0): vLLM stops at start-up, so the page
    names vLLM's minimum next to the weights field instead of showing a pool; a T4 (7.5) loads it."""
    page = py_page
    reset(page)
    set_form(page, model="Qwen/Qwen2.5-7B-Instruct-AWQ", gpu="v100-16g")
    msg = page.locator("#weights-msg")
    expect(msg).to_contain_text("Minimum capability: 75. Current capability: 70.", timeout=20_000)
    expect(page.get_by_test_id("error")).to_be_visible()
    expect(page.get_by_test_id("weights")).to_have_attribute("aria-invalid", "true")
    want = set_form(page, model="Qwen/Qwen2.5-7B-Instruct-AWQ", gpu="t4")
    wait_request(page, want)
    expect(msg).to_be_empty()
    reply = oracle(want)
    assert reply["ok"], reply
    assert_numbers_match(page, reply["result"])
    reset(page)


def test_a_shared_link_that_fails_at_once_says_the_result_is_the_built_in_example(browser, browser_context_args,
                                                                                   base_url):
    """Opening a link whose settings vLLM refuses (AWQ on a V100) computes nothing for them: the
    page says the result on show is its built-in example, not 'the last good result'."""
    ctx, page, watch = open_page(browser, browser_context_args, base_url,
                                 "/?model=Qwen%2FQwen2.5-7B-Instruct-AWQ&gpu=v100-16g", locale="en-US")
    try:
        expect(page.locator("#weights-msg")).to_contain_text("Minimum capability: 75", timeout=READY_TIMEOUT_MS)
        expect(page.get_by_test_id("error")).to_contain_text("built-in example")
        page.get_by_test_id("gpu-select").select_option("t4")
        expect(page.get_by_test_id("error")).to_be_hidden(timeout=20_000)
        page.get_by_test_id("gpu-select").select_option("v100-16g")
        expect(page.get_by_test_id("error")).to_contain_text("last good result")
    finally:
        ctx.close()
    watch.check()


def test_a_refusal_in_a_closed_section_opens_it_and_says_why_by_the_results(py_page):
    """Gemma-4-26B-A4B on an RTX 5090 with vLLM 0.21: the default step (2,048 tokens) is shorter
    than the video Gemma 4 takes whole, so vLLM refuses to start. The reason belongs to
    --max-num-batched-tokens, inside the closed Advanced section: the page opens it and also says
    the reason beside the results; videos off (--limit-mm-per-prompt video=0) lets it start."""
    page = py_page
    reset(page)
    if page.locator("#advanced").get_attribute("open") is not None:    # an earlier test opened it
        page.locator("#advanced summary").click()
    expect(page.locator("#mnbt")).to_be_hidden()
    set_form(page, model="google/gemma-4-26B-A4B-it", gpu="rtx-5090", vllm_version="0.21.0")
    msg = page.locator("#mnbt-msg")
    expect(msg).to_contain_text("vLLM 0.21.0 refuses to start", timeout=20_000)
    expect(msg).to_be_visible()
    expect(page.get_by_test_id("error")).to_contain_text("max_tokens_per_mm_item (2496)")
    page.get_by_test_id("mm-limits").fill("video=0")
    want = page_request(model="google/gemma-4-26B-A4B-it", gpu="rtx-5090", vllm_version="0.21.0",
                        limit_mm_per_prompt="video=0")
    wait_request(page, want)
    expect(msg).to_be_empty()
    assert_numbers_match(page, oracle(want)["result"])
    reset(page)
