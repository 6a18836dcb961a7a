"""The validation table is computed live in the page and equals `validate` in CPython."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from pagekit import SITE, oracle

pytestmark = pytest.mark.browser


def test_validation_table_equals_cpython(py_page):
    page = py_page
    table = page.get_by_test_id("validation-table")
    expect(table).to_have_attribute("data-state", "live", timeout=60_000)
    # the logs the site was built with (data/ may have moved on since the session's build)
    logs = json.loads((SITE / "data" / "vllm_logs.json").read_text())
    want = oracle({"op": "validate", "logs": logs["logs"] if isinstance(logs, dict) else logs})["result"]
    rows = table.locator("tbody tr")
    assert rows.count() == len(want["rows"]) == want["summary"]["entries"]
    for i, row in enumerate(want["rows"]):
        tr = rows.nth(i)
        assert tr.get_attribute("data-id") == row["id"]
        if (row["source"] or "").startswith("https://"):
            assert tr.locator("th a").get_attribute("href") == row["source"]
        else:   # not a web address: plain text, never a link (no javascript: or relative URLs)
            assert tr.locator("th a").count() == 0
            assert tr.locator("th span").get_attribute("title") == (row["source"] or "")
        cells = tr.locator("td")
        if row["skipped"]:
            assert row["skipped"] in cells.nth(cells.count() - 1).text_content()
            continue
        if row["logged_tokens"] is not None:
            assert cells.nth(3).text_content() == f"{row['logged_tokens']:,}"
        fl, est = cells.nth(4), cells.nth(5)
        if row["from_log"]:
            assert fl.get_attribute("data-tokens") == str(row["from_log"]["tokens"])
            assert float(fl.get_attribute("data-error-pct")) == row["from_log"]["error_pct"]
            assert f"{row['from_log']['tokens']:,}" in fl.text_content()
        if row["estimated"]:
            assert est.get_attribute("data-tokens") == str(row["estimated"]["tokens"])
            assert float(est.get_attribute("data-error-pct")) == row["estimated"]["error_pct"]
            assert f"{row['estimated']['kv_gib']:.2f} GiB" in est.text_content()
    summary = page.get_by_test_id("validation-summary").text_content()
    assert str(want["summary"]["entries"]) in summary
    # the fully estimated misses also in GiB of KV cache memory (a small pool makes % look large)
    assert f"largest {want['summary']['estimated_kv_max_abs_error_gib']:.2f}" in summary
    # progress toward the 5% ceiling on every row, counted
    s = want["summary"]
    assert f"{s['estimated_within_5pct']} of {s['estimated_checked']} within 5%" in summary


def test_method_rules_and_faq_come_from_the_core(py_page):
    page = py_page
    cat = oracle({"op": "catalog"})["result"]
    rules = page.get_by_test_id("rules-table").locator("tbody tr")
    assert rules.count() == len(cat["rules"])
    for i, r in enumerate(cat["rules"]):
        assert r["what"] in rules.nth(i).text_content()
    faq = page.get_by_test_id("faq")
    assert faq.locator("details").count() >= 8
    q = oracle({"op": "estimate", "model": "Qwen/Qwen3-8B", "gpu": "h100-sxm",
                "settings": {"max_model_len": 32768, "vllm_version": cat["newest_version"]}})["result"]
    q8 = oracle({"op": "estimate", "model": "Qwen/Qwen3-8B", "gpu": "h100-sxm",
                 "settings": {"max_model_len": 32768, "kv_cache_dtype": "fp8",
                              "vllm_version": cat["newest_version"]}})["result"]
    text = faq.text_content()
    assert f"{q['estimated']['tokens']:,}" in text
    assert f"{q8['estimated']['tokens']:,}" in text
    auto = oracle({"op": "estimate", "model": "Qwen/Qwen3-8B", "gpu": "l4",
                   "settings": {"max_model_len": "auto", "vllm_version": cat["newest_version"]}})["result"]
    assert f"room for {auto['estimated']['max_model_len']:,} of its {auto['settings']['max_model_len']:,}" in text
    assert "{" not in text and "}" not in text  # every placeholder was filled
