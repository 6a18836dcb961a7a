"""Share-URL round trip, the language toggle, locale formats, small screens."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from pagekit import (ROOT, assert_numbers_match, open_page, oracle, page_request, set_form, value_of,
                     wait_ready, wait_request)

pytestmark = pytest.mark.browser


def test_share_url_round_trip(py_page, browser, browser_context_args, base_url):
    page = py_page
    page.get_by_test_id("reset").click()
    page.locator("#advanced summary").click()
    want = set_form(page, model="openai/gpt-oss-20b", gpu="rtx-5090", tensor_parallel_size=2,
                    gpu_memory_utilization=0.9, kv_cache_dtype="fp8", max_model_len=100000,
                    avg_tokens=2000, vllm_version="0.17.0", max_num_batched_tokens=98304,
                    enforce_eager=True, available_kv_gib=16.62)
    page.get_by_test_id("hf-token").fill("hf_never_in_url")
    wait_request(page, want)
    url = page.url
    assert "hf_never" not in url and "token" not in url
    ctx, page2, watch = open_page(browser, browser_context_args, base_url,
                                  path="/" + url.split("/", 3)[3], locale="en-US")
    wait_ready(page2)
    wait_request(page2, want)
    assert_numbers_match(page2, oracle(want)["result"])
    for tid, v in [("gpu-count", "2"), ("util", "0.9"), ("max-model-len", "100000"),
                   ("mnbt", "98304"), ("available-kv-gib", "16.62")]:
        expect(page2.get_by_test_id(tid)).to_have_value(v)
    expect(page2.get_by_test_id("enforce-eager")).to_be_checked()
    expect(page2.get_by_test_id("hf-token")).to_have_value("")
    ctx.close()
    watch.check()


def test_language_toggle_and_memory(browser, browser_context_args, base_url):
    ctx, page, watch = open_page(browser, browser_context_args, base_url, locale="en-US")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("h1")).to_have_text("vLLM KV cache & concurrency calculator")
    page.get_by_test_id("lang-toggle").click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(page.locator("h1")).to_have_text(re.compile("计算器"))
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")  # remembered
    wait_ready(page)
    r = oracle(page_request())["result"]
    assert value_of(page, "pool-tokens") == str(r["estimated"]["tokens"])
    assert page.get_by_test_id("pool-tokens").inner_text() == format(r["estimated"]["tokens"], ",")
    page.get_by_test_id("lang-toggle").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    ctx.close()
    watch.check()


def test_the_gpu_list_is_grouped_by_kind_in_both_languages(browser, browser_context_args, base_url):
    """The core's groups (catalog.gpu_class) label the GPU list; the labels follow the language."""
    from kvcalc.catalog import GPU_CLASSES, gpu_class, load_gpus

    ctx, page, watch = open_page(browser, browser_context_args, base_url, locale="en-US")
    wait_ready(page)
    groups = page.eval_on_selector_all("#gpu-select optgroup", "gs => gs.map(g => [g.label, "
                                       "[...g.children].map(o => o.value)])")
    want = [[c, [g.key for g in load_gpus() if gpu_class(g) == c]] for c in GPU_CLASSES]
    assert [keys for _, keys in groups] == [keys for _, keys in want]
    assert [label for label, _ in groups][:3] == ["Data centre", "Unified memory (DGX Spark, Jetson)",
                                                  "Workstation (RTX PRO, Ada, A-series)"]
    page.get_by_test_id("lang-toggle").click()
    expect(page.locator("#gpu-select optgroup").first).to_have_attribute("label", "数据中心")
    page.get_by_test_id("lang-toggle").click()
    ctx.close()
    watch.check()


def test_default_language_from_browser(browser, browser_context_args, base_url):
    ctx, page, watch = open_page(browser, browser_context_args, base_url, locale="zh-CN")
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(page.get_by_test_id("lang-toggle")).to_have_text("English")
    ctx.close()
    ctx, page, watch2 = open_page(browser, browser_context_args, base_url, locale="de-DE")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    ctx.close()
    watch.check()
    watch2.check()


def test_phone_width_has_no_horizontal_scroll(browser, browser_context_args, base_url):
    ctx, page, watch = open_page(browser, browser_context_args, base_url,
                                 viewport={"width": 360, "height": 740})
    wait_ready(page)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360, width
    page.get_by_test_id("pool-tokens").scroll_into_view_if_needed()
    expect(page.get_by_test_id("pool-tokens")).to_be_in_viewport()
    page.screenshot(path=str(ROOT / "artifacts" / "phone.png"), full_page=False) if (ROOT / "artifacts").is_dir() else None
    ctx.close()
    watch.check()


def test_every_control_has_a_label(py_page):
    page = py_page
    missing = page.evaluate("""() => [...document.querySelectorAll('input, select')]
        .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label'))
        .map(el => el.id)""")
    assert missing == []


CJK = re.compile(r"[\u4e00-\u9fff]")


def test_core_sentences_follow_the_language(browser, browser_context_args, base_url):
    """Notes, field errors, the rule table and the log notes come from the core in English; a
    Chinese reader sees them in Chinese (the replies' zh maps), also before Python is ready."""
    ctx, page, watch = open_page(browser, browser_context_args, base_url, locale="zh-CN")
    what = page.locator("#rules-body tr").first.locator("td").nth(1)
    expect(what).to_have_text(CJK)                       # prerendered catalog + its zh map
    expect(page.locator("#val-sources li").first).to_have_text(CJK)
    wait_ready(page)
    page.get_by_test_id("model-select").select_option("ibm-granite/granite-4.0-h-tiny")
    expect(page.locator("#notes li").first).to_have_text(re.compile("Mamba 页补齐"))
    assert page.locator("#notes li[lang=en]").count() == 0
    expect(page.locator("#settings-used")).to_contain_text("提高到")   # block size raised for Mamba
    page.get_by_test_id("gpu-count").fill("3")
    msg = page.locator("#gpu-count-msg")
    expect(msg).to_have_text(re.compile("无法.*可用的 TP 大小"))
    page.get_by_test_id("lang-toggle").click()
    expect(msg).to_have_text(re.compile("Sizes that work"))
    expect(what).not_to_have_text(CJK)
    ctx.close()
    watch.check()
