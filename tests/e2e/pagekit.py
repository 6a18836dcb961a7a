"""Helpers shared by the browser tests: the CPython oracle, the request the page should send,
setting the form, waiting for a rendered request, comparing the numbers shown, a stubbed
huggingface.co. (A plain module, not conftest, so
imports stay unambiguous next to other conftest.py files.)"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"
FIXTURES = ROOT / "tests" / "fixtures" / "hf"
for p in (ROOT / "src", ROOT / "scripts"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
READY_TIMEOUT_MS = 120_000
EXPECT_TIMEOUT_MS = 20_000
"""How long an ``expect`` waits for the page: every answer comes from the Pyodide worker, which on
a loaded shared machine can take longer than Playwright's 5 s default (a full run once timed out
waiting for a message that appears in under a second alone). A text that never appears still fails."""
expect.set_options(timeout=EXPECT_TIMEOUT_MS)
HF = "https://huggingface.co"
HF_ROUTE = re.compile(r"^https://huggingface\.co/.*")
CORS = {"access-control-allow-origin": "*", "access-control-expose-headers": "x-error-code"}


def system_chromium() -> str | None:
    for c in (os.environ.get("CHROMIUM_PATH"), "/usr/bin/chromium", shutil.which("chromium"),
              shutil.which("chromium-browser")):
        if c and os.path.exists(c):
            return c
    return None


# --- the oracle ------------------------------------------------------------------------------

def oracle(request: dict[str, Any]) -> dict[str, Any]:
    from kvcalc.api import handle
    return handle(copy.deepcopy(request))


def newest_version() -> str:
    return oracle({"op": "catalog"})["result"]["newest_version"]


def page_request(model: str = "Qwen/Qwen3-8B", gpu: str = "h100-sxm", config=None,
                 weights_bytes=None, available_kv_gib=None, gpu_total_gib=None,
                 **settings: Any) -> dict[str, Any]:
    """The request the page should send for a form: every field present, empty = None."""
    s = {"tensor_parallel_size": 1, "pipeline_parallel_size": 1, "gpu_memory_utilization": None,
         "kv_cache_dtype": "auto", "max_model_len": 32768, "max_num_batched_tokens": None,
         "max_num_seqs": None, "max_cudagraph_capture_size": None, "cudagraph_capture_sizes": None,
         "limit_mm_per_prompt": None, "mm_processor_kwargs": None, "block_size": None, "enforce_eager": False, "entrypoint": "serve",
         "vllm_version": newest_version(), "weights": "auto", "avg_tokens": 4096}
    unknown = set(settings) - set(s)
    assert not unknown, unknown
    s.update(settings)
    return {"op": "estimate", "model": model, "config": config, "weights_bytes": weights_bytes,
            "gpu": gpu, "gpu_total_gib": gpu_total_gib, "settings": s, "available_kv_gib": available_kv_gib}


class Watch:
    """Off-origin requests, console errors and page errors seen by one browser context."""

    def __init__(self) -> None:
        self.offorigin: list[str] = []
        self.errors: list[str] = []
        self.expected_hf_errors = True

    def attach(self, ctx, base_url: str) -> None:
        origin = re.escape(base_url.rstrip("/"))

        def refuse(route):
            self.offorigin.append(route.request.url)
            route.abort("internetdisconnected")

        ctx.route(re.compile(rf"^(?!{origin}([/?#]|$))"), refuse)

    def page(self, page) -> None:
        def on_console(msg):
            if msg.type != "error":
                return
            url = (msg.location or {}).get("url", "")
            # Failed stubbed huggingface.co fetches (404/401/offline) are logged by Chromium
            # itself; the tests of those cases expect them.
            if url.startswith(HF) or "huggingface.co" in msg.text:
                return
            if msg.text.startswith("Failed to load resource") and "huggingface" in url:
                return
            self.errors.append(f"console: {msg.text} ({url})")

        page.on("console", on_console)
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))

    def check(self) -> None:
        stray = [u for u in self.offorigin if not u.startswith(HF + "/")]
        assert stray == [], f"off-origin requests: {stray}"
        assert self.errors == [], "\n".join(self.errors)


def wait_ready(page) -> None:
    expect(page.get_by_test_id("status")).to_have_text("ready", timeout=READY_TIMEOUT_MS)
    page.wait_for_selector("body[data-computed]", state="attached", timeout=30_000)


def open_page(browser, browser_context_args, base_url, path="/", **ctx_args):
    ctx = browser.new_context(**{**browser_context_args, **ctx_args})
    watch = Watch()
    watch.attach(ctx, base_url)
    page = ctx.new_page()
    watch.page(page)
    page.goto(path)
    return ctx, page, watch


# --- helpers the tests share -------------------------------------------------------------------

def last_request(page) -> dict[str, Any] | None:
    return page.evaluate("() => window.__kvcalc.lastRequest ?? null")


def wait_request(page, want: dict[str, Any], timeout_s: float = 20.0) -> None:
    """Wait until the page has rendered the result of exactly this request."""
    deadline = time.monotonic() + timeout_s
    got = None
    while time.monotonic() < deadline:
        got = last_request(page)
        if got == want:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"page request\n{json.dumps(got, indent=1)}\n!= expected\n"
                         f"{json.dumps(want, indent=1)}")


# request field -> (the form control that sets it, how): what set_form types where
FORM = {
    "model": ("model-select", "select"),
    "gpu": ("gpu-select", "select"),
    "gpu_total_gib": ("gpu-total-gib", "fill"),
    "tensor_parallel_size": ("gpu-count", "fill"),
    "pipeline_parallel_size": ("pp", "fill"),
    "gpu_memory_utilization": ("util", "fill"),
    "weights": ("weights", "select"),
    "kv_cache_dtype": ("kv-dtype", "select"),
    "max_model_len": ("max-model-len", "fill"),
    "avg_tokens": ("avg-tokens", "fill"),
    "vllm_version": ("vllm-version", "select"),
    "max_num_batched_tokens": ("mnbt", "fill"),
    "max_num_seqs": ("max-num-seqs", "fill"),
    "block_size": ("block-size", "fill"),
    "enforce_eager": ("enforce-eager", "check"),
    "entrypoint": ("entrypoint", "select"),
    "available_kv_gib": ("available-kv-gib", "fill"),
}


def set_form(page, **fields: Any) -> dict[str, Any]:
    """Set the form's controls for these request fields, in the order given, as a user would
    (the value as text, None = empty), and return the request the page should then send (on a
    default form): a test names each value once, and only what differs from the defaults."""
    for name, value in fields.items():
        testid, how = FORM[name]
        el = page.get_by_test_id(testid)
        if how == "select":
            el.select_option(str(value))
        elif how == "check":
            el.set_checked(bool(value))
        else:
            el.fill("" if value is None else str(value))
    return page_request(**fields)


def advanced_result(page, **fields: Any) -> dict[str, Any]:
    """On a fresh form with Advanced open, set ``fields`` and return the core's result for them, the
    page showing it and its numbers checked."""
    fresh_form(page)
    open_advanced(page)
    want = set_form(page, **fields)
    wait_request(page, want)
    result = oracle(want)["result"]
    assert_numbers_match(page, result)
    return result


def choose_setting(page, testid: str, option: str, key: str, value: Any,
                   **fields: Any) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """On a fresh form with ``fields`` set and Advanced open, pick ``option`` in the select
    ``testid``, which the page sends as setting ``key`` = ``value``: (the result with it, the result
    without it, the request with it), the page showing the first and its numbers checked."""
    fresh_form(page)
    open_advanced(page)
    base = set_form(page, **fields)
    wait_request(page, base)
    page.get_by_test_id(testid).select_option(option)
    want = page_request(**fields)
    want["settings"][key] = value
    wait_request(page, want)
    chosen = oracle(want)["result"]
    assert_numbers_match(page, chosen)
    return chosen, oracle(base)["result"], want


def open_advanced(page) -> None:
    """Unfold the advanced settings (a click on the summary would fold them if already open)."""
    if page.locator("#advanced").get_attribute("open") is None:
        page.locator("#advanced summary").click()


def fresh_form(page) -> None:
    """Back to the default form (Reset), its estimate answered, and no Hugging Face token."""
    page.get_by_test_id("reset").click()
    wait_request(page, page_request())
    page.get_by_test_id("hf-token").fill("")


def link_restores(page, param: str, spelled: str, testid: str, value: str, want: dict[str, Any]) -> None:
    """The link carries the setting (``?param=spelled``, a regex) and opening it restores the
    field (``testid`` showing ``value``) and sends the same request."""
    expect(page).to_have_url(re.compile(rf"[?&]{param}={spelled}(&|$)"))
    page.goto(page.url)
    expect(page.get_by_test_id(testid)).to_have_value(value)
    wait_request(page, want)


def expect_in_both_languages(page, locator, english: str, chinese: str) -> None:
    """The locator shows ``english``, then ``chinese`` once the page switches language, and the
    page is switched back."""
    expect(locator).to_contain_text(english)
    page.get_by_test_id("lang-toggle").click()
    expect(locator).to_contain_text(chinese)
    page.get_by_test_id("lang-toggle").click()


def shown(page, testid: str) -> str:
    return page.get_by_test_id(testid).inner_text()


def value_of(page, testid: str) -> str | None:
    return page.get_by_test_id(testid).get_attribute("data-value")


def assert_numbers_match(page, result: dict[str, Any]) -> None:
    """The numbers on the page equal the oracle's result (raw values and en-US text)."""
    pool = result["from_log"] or result["estimated"]
    assert value_of(page, "pool-tokens") == str(pool["tokens"])
    assert shown(page, "pool-tokens") == f"{pool['tokens']:,}"
    assert float(value_of(page, "max-concurrency")) == pool["max_concurrency"]
    assert shown(page, "max-concurrency") == f"{pool['max_concurrency']:.2f}x"
    if pool["avg_requests"] is None:
        assert value_of(page, "avg-concurrency") is None
    else:
        assert float(value_of(page, "avg-concurrency")) == pool["avg_requests"]
    assert float(value_of(page, "kv-gib-per-gpu")) == pool["available_gib"]
    assert value_of(page, "kv-bytes-per-token") == str(result["layout"]["kv_bytes_per_token"])
    if result["budget"]:
        w = next(t for t in result["budget"]["terms"] if t["name"] == "weights")
        assert float(value_of(page, "weights-gib-per-gpu")) == w["gib"]
    assert shown(page, "serve-command") == result["serve_command"]
    assert shown(page, "log-lines") == "\n".join(pool["log_lines"])
    err = page.get_by_test_id("error")
    if pool["fits"]:
        expect(err).to_be_hidden()
    else:
        expect(err).to_be_visible()
        assert pool["error"] in err.inner_text()


# --- a stubbed huggingface.co -------------------------------------------------------------------

def load(page, repo: str) -> None:
    """Ask the page to load a model by its Hugging Face id."""
    page.get_by_test_id("model-id").fill(repo)
    page.get_by_test_id("model-load").click()


class Hub:
    """Stubs for huggingface.co/<id>/resolve/main/<file>: url -> (status, body, headers) or a
    function of the request giving them; records the requests asked (CORS preflights answered,
    not recorded). Anything not added answers 404 EntryNotFound, as the Hub does."""

    def __init__(self, page):
        self.page = page
        self.files: dict[str, object] = {}
        self.seen: list[tuple[str, dict]] = []
        page.route(HF_ROUTE, self.handle)

    def add(self, repo: str, name: str = "config.json", status: int = 200, body: Any = b"",
            headers: dict | None = None) -> None:
        """One file; a body that is not bytes or text is sent as JSON."""
        if not isinstance(body, (bytes, str)):
            body = json.dumps(body)
        if isinstance(body, str):
            body = body.encode()
        self.files[f"{HF}/{repo}/resolve/main/{name}"] = (status, body, headers or {})

    def handle(self, route, request):
        if request.method == "OPTIONS":
            route.fulfill(status=204, headers={**CORS, "access-control-allow-headers": "authorization, range"})
            return
        self.seen.append((request.url, dict(request.headers)))
        spec = self.files.get(request.url, (404, b"Entry not found", {"x-error-code": "EntryNotFound"}))
        if callable(spec):
            spec = spec(request)
        status, body, headers = spec
        route.fulfill(status=status, body=body, headers={**CORS, **headers})

    def close(self):
        """Unstub; again is a no-op (a test may close early to stub the Hub its own way)."""
        if self.page is not None:
            self.page.unroute(HF_ROUTE)
            self.page = None
