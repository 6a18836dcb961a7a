"""Your log → the form → side by side → calibrated what-ifs; the planner, the levers and the
charts. Every number on the page equals CPython's kvcalc.api.handle for the request the page
sent (recorded on window.__kvcalc), and the requests are checked against the form."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from pagekit import (ROOT, assert_numbers_match, expect_in_both_languages, open_advanced, oracle, page_request,
                     set_form, shown, wait_request)

pytestmark = pytest.mark.browser

LOGS = {e["id"]: e for e in json.loads((ROOT / "data" / "vllm_logs.json").read_text())["logs"]}

# Real excerpts of different releases, models and layouts. Before pasting, the form is set to
# what the user knows about the run (a log excerpt often leaves out the model, the GPU or the
# version); whatever the log states wins over the form.
CASES = [
    "a100-llama31-8b-v0.31.0",                       # 0.31, dense, GPU found from the log's total memory
    "h200-qwen3-next-80b-tp2-v0.10.2",               # 0.10.2, GDN hybrid, TP 2, non-default args line
    "a100-80g-gpt-oss-120b-tp4-raynodes-v0.10.1.1",  # 0.10.1, sliding window MoE, TP 4
    "gb10-qwen3.5-35b-a3b-fp8-v0.18.1rc1",           # 0.18.1rc1 (a release the version list lacks)
    "l40s-qwen3-14b-bf16-v0.28.0",                   # 0.28
    "a100-40g-gce-llama31-8b-eager-v0.15.1",         # 0.15.1, --enforce-eager
    "l4-gemma-4-e2b",                                # 0.21, Gemma 4 sliding window + KV sharing
    "CodeEngine-granite-micro-l40s",                 # 0.11, engine config line only
    "gb10-qwen3.6-35b-a3b-nvfp4-mtp2-v0.22.1rc1-a",  # 0.22, --speculative-config (MTP) fills its field
    "rtx5060ti-qwen3-8b-redhat-nvfp4-fp8kv-seqs4-maxlen32k-cold-ngc-v0.11.1",  # an NGC build: 0.11.1+nv25.12
    # --block-size 48, which the suggestions lack (any multiple of 16 from v0.18)
    "l40s-gemma-4-26b-a4b-redhat-fp8-dynamic-lmonly-bs48-util0.80-o3-cg16-maxlen4k-noprefix-v2runner-cold-v0.29.0",
]

# form field per setting the log can show, and its value when neither log nor user sets it
FIELDS = [
    ("tensor_parallel_size", "gpu-count", 1),
    ("pipeline_parallel_size", "pp", 1),
    ("gpu_memory_utilization", "util", None),
    ("kv_cache_dtype", "kv-dtype", "auto"),
    ("max_model_len", "max-model-len", None),
    ("max_num_batched_tokens", "mnbt", None),
    ("max_num_seqs", "max-num-seqs", None),
    ("block_size", "block-size", None),
    ("enforce_eager", "enforce-eager", False),
    ("vllm_version", "vllm-version", None),
    ("weights", "weights", "auto"),
]


def poll(page, js: str, want: Any, timeout_s: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout_s
    got = None
    while time.monotonic() < deadline:
        got = page.evaluate(js)
        if got == want:
            return got
        page.wait_for_timeout(50)
    raise AssertionError(f"{js}\n{json.dumps(got, indent=1)}\n!= expected\n{json.dumps(want, indent=1)}")


def counter(page, name: str) -> int:
    return int(page.evaluate(f"() => document.body.dataset.{name} || '0'"))


def reset(page) -> None:
    page.get_by_test_id("reset").click()
    page.get_by_test_id("log-paste").fill("")
    poll(page, "() => window.__kvcalc.lastRequest?.measured_reserve_gib ?? null", None)


def catalog_gpu(name: str) -> str:
    from kvcalc.catalog import find_gpu
    return find_gpu(name).key


def has_option(page, testid: str, value: str) -> bool:
    return page.get_by_test_id(testid).locator(f'option[value="{value}"]').count() > 0


def paste(page, text: str) -> dict[str, Any]:
    """Paste, press the button, wait for the worker's answer; return {request, reply}."""
    n = counter(page, "compared")
    page.get_by_test_id("log-paste").fill(text)
    page.get_by_test_id("log-compare").click()
    page.wait_for_selector(f'body[data-compared="{n + 1}"]', state="attached", timeout=60_000)
    return page.evaluate("() => window.__kvcalc.lastCompare")


def set_form_like_the_run(page, e: dict[str, Any]) -> None:
    """What the user would choose before pasting: model, GPU and what they know of the flags."""
    listed = e["vllm_version"] and has_option(page, "vllm-version", e["vllm_version"])
    set_form(page, model=e["model"], gpu=catalog_gpu(e["gpu"]),
             tensor_parallel_size=e["tensor_parallel_size"],
             pipeline_parallel_size=e["pipeline_parallel_size"] or 1,
             **({"vllm_version": e["vllm_version"]} if listed else {}),
             kv_cache_dtype=e["kv_cache_dtype"] or "auto",
             gpu_memory_utilization=e["gpu_memory_utilization"] or None,
             max_model_len=e["max_model_len"] or None)


def expected_estimate(res: dict[str, Any], **override: Any) -> dict[str, Any]:
    """The estimate the page should send after filling the form from a compare result: the
    default form's but for what the log set (an empty length field when it set none)."""
    logged = {k: res["settings"][k] for k, _, _ in FIELDS if res["settings"].get(k) is not None}
    req = page_request(res["model"], res["gpu"], **{"max_model_len": None, **logged, **override})
    # the log's own GPU memory fills its field where it differs from the catalog's
    req["gpu_total_gib"] = res["gpu_total_gib"]
    # settings without a field in page_request's defaults ride along only when the log set them
    for key in ("enable_prefix_caching", "flashinfer_sampler", "skip_mm_profiling", "decode_context_parallel_size",
                "kv_cache_memory_bytes", "num_gpu_blocks_override", "cpu_offload_gb", "async_scheduling", "disable_hybrid_kv_cache_manager",
                "mamba_ssm_cache_dtype", "compile_cache", "model_runner_v2", "language_model_only",
                "max_cudagraph_capture_size", "performance_mode", "cudagraph_mode", "attention_backend",
                "optimization_level", "enable_chunked_prefill", "data_parallel_size", "allow_long_max_model_len",
                "disable_sliding_window", "enable_expert_parallel", "kv_connector"):
        if res["settings"].get(key) not in (None, "auto"):      # a Mamba dtype of auto is the select's default
            req["settings"][key] = res["settings"][key]
    if req["settings"]["max_model_len"] == -1:     # vLLM's -1 fills the field as auto, sent as typed
        req["settings"]["max_model_len"] = "auto"
    # --speculative-config fills its text field, which the page sends as typed (JSON.stringify)
    if res["settings"].get("hf_overrides") is not None:     # its text field, sent as typed
        req["settings"]["hf_overrides"] = json.dumps(res["settings"]["hf_overrides"], separators=(",", ":"),
                                                     ensure_ascii=False)
    if res["settings"].get("speculative") is not None:
        req["settings"]["speculative"] = json.dumps(res["settings"]["speculative"], separators=(",", ":"),
                                                    ensure_ascii=False)
    if res["measured_reserve_gib"] is not None and res["measured_reserve_gib"] >= 0:
        req["measured_reserve_gib"] = res["measured_reserve_gib"]
    return req


@pytest.mark.parametrize("log_id", CASES)
def test_paste_fills_form_and_compares(py_page, log_id):
    page = py_page
    e = LOGS[log_id]
    reset(page)
    open_advanced(page)
    set_form_like_the_run(page, e)
    got = paste(page, e["excerpt"])
    req, reply = got["request"], got["reply"]
    assert req["op"] == "compare_log" and req["text"] == e["excerpt"]
    assert req["fallback"]["model"] == e["model"] and req["fallback"]["gpu"] == catalog_gpu(e["gpu"])
    want = oracle(req)
    assert reply == want, "the worker's answer differs from CPython's"
    assert want["ok"], want
    res = want["result"]
    calc = res["calculation"]
    fl = calc["from_log"]

    # the from-log pool shown, and the logged pool inside its rounding interval
    summary = page.get_by_test_id("log-compare-summary")
    expect(page.get_by_test_id("log-compare-out")).to_be_visible()
    assert summary.get_attribute("data-from-log") == str(fl["tokens"])
    low, high = int(summary.get_attribute("data-low")), int(summary.get_attribute("data-high"))
    logged = e["logged"]["gpu_kv_cache_tokens"]
    assert summary.get_attribute("data-logged") == str(logged)
    assert low <= logged <= high, (log_id, low, logged, high)
    assert f"{fl['tokens']:,}" in summary.inner_text() and f"{logged:,}" in summary.inner_text()

    # the side-by-side table: one row per number the log printed
    rows = page.get_by_test_id("log-compare-table").locator("tbody tr")
    assert rows.count() == len(res["rows"]) >= 2
    for i, row in enumerate(res["rows"]):
        cells = rows.nth(i).locator("th, td")
        assert cells.nth(0).inner_text() == row["line"]
        assert cells.nth(1).inner_text() == row["logged"]
        assert cells.nth(2).inner_text() == (row["from_log"] or "–")
        assert cells.nth(3).inner_text() == (row["estimated"] or "–")
        if row["difference_pct"] is not None:
            assert float(cells.nth(4).get_attribute("data-value")) == row["difference_pct"]
        elif row.get("difference_gib") is not None:     # a breakdown term: the difference in GiB
            assert float(cells.nth(4).get_attribute("data-gib")) == row["difference_gib"]
            assert cells.nth(4).inner_text().endswith(" GiB")
        assert cells.nth(5).inner_text() == (row["cause"] or "")
    sources = shown(page, "log-sources")
    for line in res["sources"]["from_log"]:
        assert line in sources

    # the form now shows the log's settings (and the model and GPU it ran on)
    assert page.get_by_test_id("model-select").input_value() == res["model"]
    assert page.get_by_test_id("gpu-select").input_value() == res["gpu"]
    for k, tid, default in FIELDS:
        v = res["settings"].get(k, default)
        el = page.get_by_test_id(tid)
        if k == "enforce_eager":
            assert el.is_checked() == bool(v)
        elif k == "vllm_version":
            if v is not None:
                assert el.input_value() == v
        else:
            assert el.input_value() == ("" if v is None else str(v)), (k, v)

    # the headline is computed from the log's measured reserve
    est = expected_estimate(res)
    wait_request(page, est, timeout_s=30)
    assert_numbers_match(page, oracle(est)["result"])
    baseline = page.get_by_test_id("baseline")
    expect(baseline).to_have_attribute("data-state", "log" if "measured_reserve_gib" in est else "estimated")


def test_nothing_usable_says_so(py_page):
    page = py_page
    reset(page)
    for text in ["hello, this is not a log", LOGS["vllm#38107"]["excerpt"], "   "]:
        got = paste(page, text)
        assert got["reply"] == oracle(got["request"])
        assert not got["reply"]["ok"]
        msg = page.get_by_test_id("log-paste-msg")
        expect(msg).to_have_attribute("data-kind", "paste_nothing")
        expect(msg).to_contain_text("Available KV cache memory")
        expect(page.get_by_test_id("log-paste")).to_have_attribute("aria-invalid", "true")
        expect(page.get_by_test_id("log-compare-out")).to_be_hidden()
        expect(page.get_by_test_id("baseline")).to_have_attribute("data-state", "estimated")


def test_a_refused_start_and_switches_the_log_states_are_shown(py_page):
    """A start vLLM refused for want of free memory gets the core's specific answer (free, wanted and
    the largest utilization that fits), not 'nothing usable'; a log whose args turn async scheduling
    off says so in vLLM's own spelling among what the page read."""
    page = py_page
    reset(page)
    refused = ("ValueError: Free memory on device cuda:0 (40.12/79.19 GiB) on startup is less than desired GPU "
               "memory utilization (0.9, 71.27 GiB). Decrease GPU memory utilization or reduce GPU memory used "
               "by other processes.")
    got = paste(page, refused)
    assert got["reply"] == oracle(got["request"]) and not got["reply"]["ok"]
    msg = page.get_by_test_id("log-paste-msg")
    expect(msg).to_have_attribute("data-kind", "paste_error")
    expect(msg).to_contain_text("40.12 of 79.19 GiB free")
    reset(page)
    text = ("INFO [utils.py:233] non-default args: {'model': 'Qwen/Qwen3-8B', 'max_model_len': 32768, "
            "'async_scheduling': False}\n"
            "INFO [gpu_worker.py:298] Available KV cache memory: 51.39 GiB\n"
            "INFO [kv_cache_utils.py:1087] GPU KV cache size: 374,208 tokens\n")
    got = paste(page, text)
    assert got["reply"]["ok"] and got["reply"]["result"]["form"]["async_scheduling"] is False
    expect(page.get_by_test_id("log-sources")).to_contain_text("--no-async-scheduling")


def test_what_ifs_move_from_the_measured_baseline(py_page):
    page = py_page
    e = LOGS["a100-llama31-8b-v0.31.0"]
    reset(page)
    open_advanced(page)
    set_form_like_the_run(page, e)
    res = paste(page, e["excerpt"])["reply"]["result"]
    assert res["measured_reserve_gib"] > 0
    wait_request(page, expected_estimate(res), timeout_s=30)
    text = shown(page, "baseline")
    assert f"{res['measured_reserve_gib']:.2f} GiB" in text
    # each what-if (cumulative) keeps the measured reserve and equals CPython's estimate with it
    over_all: dict[str, Any] = {}
    for over in [{"max_model_len": 8192}, {"kv_cache_dtype": "fp8"}, {"gpu_memory_utilization": 0.95},
                 {"max_num_batched_tokens": 16384}, {"vllm_version": "0.20.0"}]:
        set_form(page, **over)
        over_all.update(over)
        want = expected_estimate(res, **over_all)
        assert want["measured_reserve_gib"] == res["measured_reserve_gib"]
        wait_request(page, want, timeout_s=30)
        r = oracle(want)["result"]
        assert_numbers_match(page, r)
        assert any("measured in your log" in t["basis"] for t in r["budget"]["terms"])
        expect(page.get_by_test_id("baseline")).to_have_attribute("data-state", "log")
        assert shown(page, "result-source").startswith("Computed from the settings above with the reserve")
    res_what_if = over_all
    # the toggle switches back to the estimate, and on again
    page.get_by_test_id("baseline-toggle").uncheck()
    plain = expected_estimate(res, **res_what_if)
    plain.pop("measured_reserve_gib")
    wait_request(page, plain, timeout_s=30)
    assert_numbers_match(page, oracle(plain)["result"])
    expect(page.get_by_test_id("baseline")).to_have_attribute("data-state", "estimated")
    page.get_by_test_id("baseline-toggle").check()
    wait_request(page, expected_estimate(res, **res_what_if), timeout_s=30)
    # forgetting the log clears the table and the baseline, and keeps the settings
    page.get_by_test_id("baseline-clear").click()
    wait_request(page, plain, timeout_s=30)
    expect(page.get_by_test_id("log-compare-out")).to_be_hidden()
    expect(page.get_by_test_id("baseline-toggle")).to_be_hidden()


def test_changing_the_model_compares_the_log_again(py_page):
    """An excerpt that does not name its model is compared with the form's; choosing another
    model compares the same log again with it."""
    page = py_page
    e = LOGS["l40s-qwen3-14b-bf16-v0.28.0"]
    reset(page)
    set_form(page, gpu="l40s", vllm_version="0.28.0")
    got = paste(page, e["excerpt"])  # the form still says Qwen3-8B
    assert got["reply"]["ok"] and got["reply"]["result"]["model"] == "Qwen/Qwen3-8B"
    assert "model" in got["reply"]["result"]["filled_from_form"]
    expect(page.get_by_test_id("log-paste-msg")).to_have_attribute("data-kind", "paste_done_form")
    n = counter(page, "compared")
    page.get_by_test_id("model-select").select_option("Qwen/Qwen3-14B")
    page.wait_for_selector(f'body[data-compared="{n + 1}"]', state="attached", timeout=60_000)
    again = page.evaluate("() => window.__kvcalc.lastCompare")
    assert again["request"]["model"] == "Qwen/Qwen3-14B"
    assert again["reply"] == oracle(again["request"])
    res = again["reply"]["result"]
    s = page.get_by_test_id("log-compare-summary")
    assert s.get_attribute("data-from-log") == str(res["calculation"]["from_log"]["tokens"])
    assert int(s.get_attribute("data-low")) <= e["logged"]["gpu_kv_cache_tokens"] <= int(s.get_attribute("data-high"))


def settle(page, **settings: Any) -> dict[str, Any]:
    """Wait until the curves, levers (and plan, when asked) follow the newest estimate, after the
    page has sent the estimate with ``settings`` (a field just typed is sent after a debounce)."""
    for key, value in settings.items():
        poll(page, f"() => window.__kvcalc.lastRequest?.settings?.{key}", value)
    last = page.evaluate("() => window.__kvcalc.lastRequest")
    poll(page, "() => window.__kvcalc.curves?.request", {**last, "curves": True})
    return last


def test_planner_and_levers_equal_cpython(py_page):
    page = py_page
    reset(page)
    set_form(page, model="meta-llama/Llama-3.1-8B-Instruct", max_model_len=32768)
    page.get_by_test_id("plan-requests").fill("64")
    page.get_by_test_id("plan-tokens").fill("8192")
    page.get_by_test_id("plan-run").click()
    page.get_by_test_id("target-tokens").fill("400000")
    base = settle(page, max_model_len=32768)
    preq = poll(page, "() => window.__kvcalc.plan?.request", {**base, "op": "plan", "requests": 64, "tokens": 8192})
    plan = oracle(preq)["result"]
    out = page.get_by_test_id("plan-result")
    expect(out).to_be_visible()
    assert page.get_by_test_id("plan-context").get_attribute("data-value") == str(plan["max_context_for_requests"])
    assert f"{plan['max_context_for_requests']:,}" in shown(page, "plan-context")
    rows = page.get_by_test_id("plan-table").locator("tbody tr")
    assert rows.count() == len(plan["setups"]) > 0
    for i, s in enumerate(plan["setups"]):
        tr = rows.nth(i)
        assert tr.get_attribute("data-gpu") == s["gpu"] and tr.get_attribute("data-count") == str(s["count"])
        assert tr.locator("td").nth(0).get_attribute("data-value") == str(s["pool_tokens"])
        assert float(tr.locator("td").nth(1).get_attribute("data-value")) == s["concurrency"]
        assert tr.locator("th").inner_text() == f"{s['count']} × {s['gpu_name']}"
    first = plan["setups"][0]
    assert f"{first['count']} × {first['gpu_name']}" in shown(page, "plan-summary")

    lreq = poll(page, "() => window.__kvcalc.levers?.request", {**base, "op": "levers", "target_tokens": 400000})
    lev = oracle(lreq)["result"]
    rows = page.get_by_test_id("levers-table").locator("tbody tr")
    assert rows.count() == len(lev["levers"]) + 1  # "as set now" first
    assert f"{lev['current']['concurrency']:.2f}x" in rows.nth(0).inner_text()
    for i, lv in enumerate(lev["levers"]):
        tr = rows.nth(i + 1)
        assert tr.get_attribute("data-flag") == lv["flag"]
        cells = tr.locator("td")
        assert float(cells.nth(2).get_attribute("data-value")) == lv["concurrency"]
        assert cells.nth(4).get_attribute("data-value") == str(lv["pool_tokens"])
        if lv["gain"] is not None:
            assert float(cells.nth(3).get_attribute("data-value")) == lv["gain"]
    conc = [lv["concurrency"] for lv in lev["levers"]]
    assert conc == sorted(conc, reverse=True)
    u = lev["utilization_for_target"]
    t = page.get_by_test_id("target-result")
    assert t.get_attribute("data-util") == json.dumps(u["gpu_memory_utilization"])
    assert t.get_attribute("data-bytes") == json.dumps(u["kv_cache_memory_bytes"])
    if u["gpu_memory_utilization"] is not None:
        assert f"--gpu-memory-utilization {u['gpu_memory_utilization']}" in t.inner_text()
    assert str(u["kv_cache_memory_bytes"]) in t.inner_text()

    # a bad planner input is named next to it; the planner follows form changes
    page.get_by_test_id("plan-requests").fill("many")
    expect(page.locator("#plan-msg")).to_contain_text("Requests at the same time: must be a whole number", timeout=30_000)
    expect(page.get_by_test_id("plan-requests")).to_have_attribute("aria-invalid", "true")
    page.get_by_test_id("plan-requests").fill("16")
    page.get_by_test_id("gpu-count").fill("2")
    wait_request(page, {**base, "settings": {**base["settings"], "tensor_parallel_size": 2}})
    base2 = settle(page)
    preq2 = poll(page, "() => window.__kvcalc.plan?.request", {**base2, "op": "plan", "requests": 16, "tokens": 8192})
    assert page.get_by_test_id("plan-context").get_attribute("data-value") == \
        str(oracle(preq2)["result"]["max_context_for_requests"])
    expect(page.locator("#plan-msg")).to_be_empty()


def test_charts_follow_the_core_curves(py_page):
    page = py_page
    e = LOGS["a100-llama31-8b-v0.31.0"]
    reset(page)
    open_advanced(page)
    set_form_like_the_run(page, e)
    paste(page, e["excerpt"])
    set_form(page, max_model_len=65536)
    base = settle(page, max_model_len=65536)
    assert "measured_reserve_gib" in base
    r = oracle({**base, "curves": True})["result"]
    cv = r["curves"]
    for tid, key in [("chart-concurrency", "concurrency_vs_max_model_len"), ("chart-util", "pool_vs_utilization")]:
        svg = page.get_by_test_id(tid)
        expect(svg).to_be_visible()
        assert svg.get_attribute("role") == "img"
        assert svg.get_attribute("data-points") == str(len(cv[key]))
        assert svg.locator("circle.pt").count() == len(cv[key])
        assert svg.locator("circle.cur").count() == 1  # the current point
        # its label sits beside it on the side the line leaves free: no point of the line lies under it
        assert svg.evaluate("""s => { const b = s.querySelector('text.cur-label').getBBox();
          return [...s.querySelectorAll('circle.pt')].filter((c) => {
            const x = +c.getAttribute('cx'), y = +c.getAttribute('cy');
            return x > b.x && x < b.x + b.width && y > b.y && y < b.y + b.height; }).length; }""") == 0
        labelled = svg.get_attribute("aria-labelledby").split()
        for id_ in labelled:
            assert page.locator(f"#{id_}").text_content().strip() != ""
    c = page.get_by_test_id("chart-concurrency")
    assert c.get_attribute("data-one-request") == str(cv["max_model_len_one_request"])
    # where vLLM starts: the first share whose pool holds a request, right after one that does not
    pu = cv["pool_vs_utilization"]
    starts = [b["gpu_memory_utilization"] for a, b in zip(pu, pu[1:]) if a["pool_tokens"] == 0 < b["pool_tokens"]]
    assert page.get_by_test_id("chart-util").get_attribute("data-starts-at") == (str(starts[0]) if starts else "")
    assert not starts and cv["utilization_one_request"] is None  # 65,536 tokens fit on an A100 80GB from 0.50 on
    desc = page.locator("#chart-c-desc").text_content()
    assert f"{r['from_log']['max_concurrency'] if r['from_log'] else r['estimated']['max_concurrency']:.2f}x" in desc
    assert "--max-model-len" in c.locator("text.label").first.text_content()
    # the same charts in Chinese: axis labels and description follow the language
    page.get_by_test_id("lang-toggle").click()
    expect(page.locator("#chart-c-title")).to_have_text("最大并发与 --max-model-len 的关系")
    assert "对数刻度" in c.locator("text.label").first.text_content()
    assert "token" in page.get_by_test_id("chart-util").locator("text.label").nth(1).text_content()
    assert page.get_by_test_id("chart-util").locator("circle.pt").count() == len(cv["pool_vs_utilization"])
    expect(page.get_by_test_id("baseline")).to_contain_text("基准")
    page.get_by_test_id("lang-toggle").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_the_utilization_chart_marks_where_vllm_starts(py_page):
    """Qwen3-8B at its full 40,960 tokens on an RTX 4090 with vLLM 0.33 holds one request only from a
    share between two grid points (about 0.95): the chart's line rises there, and its caption says where
    vLLM starts, in both languages, from the core's own points. (v0.34's extensible cache, with its
    margin, holds no such request on a 24 GB card at any share.)"""
    page = py_page
    reset(page)
    gpu = catalog_gpu("rtx-4090")
    set_form(page, model="Qwen/Qwen3-8B", gpu=gpu, vllm_version="0.33.0", max_model_len=40960)
    poll(page, "() => window.__kvcalc.lastRequest?.gpu", gpu)
    base = settle(page, max_model_len=40960, vllm_version="0.33.0")
    pu = oracle({**base, "curves": True})["result"]["curves"]["pool_vs_utilization"]
    starts = [b["gpu_memory_utilization"] for a, b in zip(pu, pu[1:]) if a["pool_tokens"] == 0 < b["pool_tokens"]]
    assert len(starts) == 1 and 0.5 < starts[0] < 1
    assert oracle({**base, "curves": True})["result"]["curves"]["utilization_one_request"] == starts[0]
    chart = page.get_by_test_id("chart-util")
    expect(chart).to_have_attribute("data-starts-at", str(starts[0]))
    assert chart.locator("circle.pt").count() == len(pu)
    expect(page.locator("#chart-u-cap")).to_contain_text(f"Below {starts[0]:.3f}".rstrip("0").rstrip("."))
    expect(page.locator("#chart-u-cap")).to_contain_text("vLLM refuses to start")
    page.get_by_test_id("lang-toggle").click()
    expect(page.locator("#chart-u-cap")).to_contain_text("vLLM 会拒绝启动")
    page.get_by_test_id("lang-toggle").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_keyboard_and_small_screen(py_page):
    page = py_page
    e = LOGS["l40s-qwen3-14b-bf16-v0.28.0"]
    reset(page)
    set_form(page, model="Qwen/Qwen3-14B", gpu="l40s")
    n = counter(page, "compared")
    page.get_by_test_id("log-paste").fill(e["excerpt"])
    page.get_by_test_id("log-paste").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.testid") == "log-compare"
    page.keyboard.press("Enter")
    page.wait_for_selector(f'body[data-compared="{n + 1}"]', state="attached", timeout=60_000)
    expect(page.get_by_test_id("log-compare-out")).to_be_visible()
    page.get_by_test_id("plan-requests").focus()
    page.keyboard.press("Enter")  # Enter in a planner field runs it
    settle(page)
    poll(page, "() => !!window.__kvcalc.plan", True)
    expect(page.get_by_test_id("plan-result")).to_be_visible()
    page.set_viewport_size({"width": 360, "height": 740})
    try:
        page.wait_for_timeout(200)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
        for tid in ("log-compare-table", "chart-concurrency", "levers-table"):
            page.get_by_test_id(tid).scroll_into_view_if_needed()
            expect(page.get_by_test_id(tid)).to_be_in_viewport()
        if (ROOT / "artifacts").is_dir():
            page.locator("#plan").screenshot(path=str(ROOT / "artifacts" / "plan-phone.png"))
    finally:
        page.set_viewport_size({"width": 1280, "height": 720})
    # every new control is labelled
    missing = page.evaluate("""() => [...document.querySelectorAll('input, select, textarea')]
        .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')).map(el => el.id)""")
    assert missing == []


def test_a_pasted_serve_command_fills_the_form(py_page):
    """The paste box takes a vllm serve command too: the core reads its flags (the environment in
    front included), the form shows them and the page computes; flags that leave memory alone and
    flags kvcalc does not model are named, in either language; a flag name with underscores reads as
    vLLM's parser reads it (--max_num_seqs is --max-num-seqs)."""
    page = py_page
    reset(page)
    got = paste(page, "VLLM_USE_FLASHINFER_SAMPLER=1 vllm serve meta-llama/Llama-3.1-8B-Instruct \\\n"
                      "  --max-model-len 16k -tp 2 --max_num_seqs 64 --port 8000 --enable-lora\n")
    assert got["request"]["op"] == "read_command" and got["reply"]["ok"], got
    msg = page.get_by_test_id("log-paste-msg")
    expect(msg).to_have_attribute("data-kind", "paste_command")
    expect(msg).to_contain_text("Left out, as they do not change GPU memory or move it by less than the band: --port")
    expect(msg).to_contain_text("--enable-lora (LoRA adapters are not modelled")
    want = page_request(model="meta-llama/Llama-3.1-8B-Instruct", max_model_len="16k", tensor_parallel_size=2,
                        max_num_seqs=64)
    want["settings"]["flashinfer_sampler"] = True
    wait_request(page, want, timeout_s=30)
    assert_numbers_match(page, oracle(want)["result"])
    expect(page.get_by_test_id("max-model-len")).to_have_value("16k")
    expect(page.get_by_test_id("log-compare-out")).to_be_hidden()
    expect_in_both_languages(page, msg, "Read your vllm serve command", "已读取")
    # a local path names no model the page can read: it says what to do instead
    paste(page, "vllm serve /models/my-llama --max-model-len 8192")
    expect(msg).to_contain_text("/models/my-llama is a local path")
    reset(page)


def test_a_model_named_after_flags_in_a_pasted_command_is_the_one_computed(py_page):
    """vLLM takes the first word no flag takes as the model: after a switch (--trust-remote-code) or a
    flag with a value kvcalc ignores (--seed 0) too. The page computes that model, not the form's."""
    page = py_page
    reset(page)
    got = paste(page, "vllm serve --trust-remote-code --seed 0 meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192")
    assert got["reply"]["ok"] and got["reply"]["result"]["model"] == "meta-llama/Llama-3.1-8B-Instruct", got
    expect(page.get_by_test_id("log-paste-msg")).to_contain_text("meta-llama/Llama-3.1-8B-Instruct")
    want = page_request(model="meta-llama/Llama-3.1-8B-Instruct", max_model_len=8192)
    wait_request(page, want, timeout_s=30)
    assert_numbers_match(page, oracle(want)["result"])
    # a flag that takes every word leaves no model, as in vLLM: the page says the form keeps its own
    reset(page)
    got = paste(page, "vllm serve --served-model-name a meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192")
    assert got["reply"]["result"]["model"] is None, got
    msg = page.get_by_test_id("log-paste-msg")
    expect(msg).to_contain_text("names no model vLLM would read")
    expect(msg).to_contain_text(f"the form keeps {page_request()['model']}")
    expect_in_both_languages(page, msg, "names no model", "没有 vLLM 会读作模型的词")
    # and from v0.17 (the form's 0.34 here) vLLM stops at such a line: the model must come first
    expect(msg).to_contain_text("vLLM would not start with this line as written: from v0.17.0 vllm serve stops")
    expect_in_both_languages(page, msg, "write vllm serve MODEL … with the model first", "请把模型放在最前面")
    reset(page)


def test_a_model_the_api_server_module_would_drop_is_named_not_computed(py_page):
    """python -m vllm.entrypoints.openai.api_server (and the vllm/vllm-openai image before v0.11.1)
    parses a model given without --model and drops it, serving Qwen/Qwen3-0.6B: the page says so and
    keeps the form's model, with the line's other flags; vllm serve reads the same word."""
    page = py_page
    reset(page)
    got = paste(page, "docker run --gpus all vllm/vllm-openai:v0.10.2 meta-llama/Llama-3.1-8B-Instruct "
                      "--max-model-len 8192")
    assert got["reply"]["result"]["model"] is None, got
    assert got["reply"]["result"]["model_ignored"]["word"] == "meta-llama/Llama-3.1-8B-Instruct", got
    msg = page.get_by_test_id("log-paste-msg")
    expect(msg).to_contain_text("Read your vllm serve command: the form now shows its flags")
    expect(msg).to_contain_text("it drops meta-llama/Llama-3.1-8B-Instruct and serves Qwen/Qwen3-0.6B")
    expect(msg).to_contain_text(f"The form keeps {page_request()['model']}")
    expect(msg).not_to_contain_text("names no model")
    want = page_request(max_model_len=8192, vllm_version="0.10.2")
    wait_request(page, want, timeout_s=30)
    assert_numbers_match(page, oracle(want)["result"])
    expect_in_both_languages(page, msg, "write --model meta-llama/Llama-3.1-8B-Instruct", "请写成 --model")
    reset(page)

def test_a_script_line_with_variables_and_redirections_fills_what_it_can(py_page):
    """A start script's line: the redirections and & are the shell's, an assigned variable is filled in,
    an unassigned one is named and leaves the form its own value (here the model and the memory share)."""
    page = py_page
    reset(page)
    got = paste(page, 'LEN=8192\nnohup vllm serve "$MODEL_ID" --max-model-len $LEN --gpu-memory-utilization "$UTIL" '
                      '> vllm.log 2>&1 &')
    res = got["reply"]["result"]
    assert res["model"] is None and res["unexpanded"] == ["$MODEL_ID", "$UTIL"] and res["unknown"] == [], got
    msg = page.get_by_test_id("log-paste-msg")
    expect(msg).to_contain_text("the model is $MODEL_ID, a variable the pasted text does not assign")
    expect(msg).to_contain_text("shell variables the pasted text does not assign ($MODEL_ID, $UTIL)")
    expect(msg).not_to_contain_text("Not known to this page")
    want = page_request(max_model_len=8192)
    wait_request(page, want, timeout_s=30)
    assert_numbers_match(page, oracle(want)["result"])
    expect_in_both_languages(page, msg, "paste the line with their values", "请粘贴代入实际值的命令")
    reset(page)


def test_a_pasted_kubernetes_spec_fills_the_form(py_page):
    """A Kubernetes container spec of the vLLM image reads as the command it runs: the image's tag
    sets the release, the args the flags."""
    page = py_page
    reset(page)
    got = paste(page, "      containers:\n      - name: vllm\n        image: vllm/vllm-openai:v0.30.0\n"
                      "        args:\n        - Qwen/Qwen3-8B\n        - --max-model-len=16384\n"
                      "        - --gpu-memory-utilization=0.9\n        - --port=8000\n")
    assert got["request"]["op"] == "read_command" and got["reply"]["ok"], got
    expect(page.get_by_test_id("log-paste-msg")).to_contain_text("Left out, as they do not change GPU memory or move it by less than the band: --port")
    want = page_request(max_model_len=16384, gpu_memory_utilization=0.9, vllm_version="0.30.0")
    wait_request(page, want, timeout_s=30)
    assert_numbers_match(page, oracle(want)["result"])
    reset(page)


def test_a_pasted_llm_call_fills_the_form_on_the_llm_class(py_page):
    """A notebook's LLM(...) call (Python, never run: its literals are read) fills the form like a
    serve command, on the LLM class's entry point; a name instead of a literal is named as left out."""
    page = py_page
    reset(page)
    got = paste(page, "from vllm import LLM\nllm = LLM(model='Qwen/Qwen3-8B', max_model_len=16 * 1024,\n"
                      "          gpu_memory_utilization=0.85, max_num_seqs=N, seed=0)\n")
    assert got["request"]["op"] == "read_command" and got["reply"]["ok"], got
    msg = page.get_by_test_id("log-paste-msg")
    expect(msg).to_contain_text("Read your LLM(...) call for Qwen/Qwen3-8B")
    expect(msg).to_contain_text("max_num_seqs (its value is a Python expression")
    want = page_request(max_model_len=16384, gpu_memory_utilization=0.85, entrypoint="llm")
    wait_request(page, want, timeout_s=30)
    assert_numbers_match(page, oracle(want)["result"])
    expect(page.get_by_test_id("entrypoint")).to_have_value("llm")
    expect_in_both_languages(page, msg, "Read your LLM(...) call", "LLM(...) 调用")
    # a serve command afterwards is vllm serve again
    paste(page, "vllm serve Qwen/Qwen3-8B --max-model-len 8192")
    expect(page.get_by_test_id("entrypoint")).to_have_value("serve")
    reset(page)


def test_a_pasted_command_that_forces_an_attention_backend_sets_the_select(py_page):
    """--attention-backend in a pasted command (any case) reaches the select and the estimate; the
    attention config's other keys are named as left out with the reason."""
    page = py_page
    reset(page)
    got = paste(page, "vllm serve Qwen/Qwen3-8B --max-model-len 8192 --attention-backend flashinfer "
                      """--attention-config '{"flash_attn_version": 3}'""")
    assert got["request"]["op"] == "read_command" and got["reply"]["ok"], got
    msg = page.get_by_test_id("log-paste-msg")
    expect(msg).to_contain_text("--attention-config (of the attention config kvcalc reads only backend")
    want = page_request(max_model_len=8192)
    want["settings"]["attention_backend"] = "FLASHINFER"
    wait_request(page, want, timeout_s=30)
    assert_numbers_match(page, oracle(want)["result"])
    expect(page.get_by_test_id("attn-backend")).to_have_value("FLASHINFER")
    expect(page.get_by_test_id("serve-command")).to_contain_text("--attention-backend FLASHINFER")
    reset(page)
