"""Faults the page must survive: huggingface.co slow, stuck, unreachable, answering 5xx or
malformed content, answers arriving out of order; and the loss of the Python worker (the wasm
does not load, worker.js throws, the worker crashes after it was ready).

Each HF fault shows its own message next to the id field with a retry button that works once the
fault is gone, and keeps the numbers shown. Each worker loss keeps the numbers shown, says what
happened in the status, and offers a reload button that brings Python back."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from pagekit import (FIXTURES, HF, ROOT, SITE, Watch, assert_numbers_match, oracle, page_request,
                     wait_ready, wait_request, fresh_form)

pytestmark = pytest.mark.browser

HF_ROUTE = re.compile(r"^https://huggingface\.co/.*")
QWEN06 = json.loads((FIXTURES / "qwen3-0.6b" / "config.json").read_text())
QWEN8 = json.loads((FIXTURES / "qwen3-8b" / "config.json").read_text())
CORS = {"access-control-allow-origin": "*", "access-control-expose-headers": "x-error-code"}


class Hub:
    """huggingface.co/<id>/resolve/main/<file> stubs. A file answers with (status, body, headers),
    aborts with a network error, or is held until release() (a slow or stuck server)."""

    def __init__(self, page):
        self.page = page
        self.files: dict[str, dict] = {}
        self.seen: list[str] = []
        self.held: list[tuple] = []
        page.route(HF_ROUTE, self.handle)

    def add(self, repo, name="config.json", status=200, body=b"", headers=None, abort=None,
            hold=False):
        if isinstance(body, (dict, list)) or body is None:
            body = json.dumps(body)
        if isinstance(body, str):
            body = body.encode()
        self.files[f"{HF}/{repo}/resolve/main/{name}"] = dict(
            status=status, body=body, headers=headers or {}, abort=abort, hold=hold)

    def handle(self, route, request):
        if request.method == "OPTIONS":
            route.fulfill(status=204, headers={**CORS, "access-control-allow-headers": "authorization, range"})
            return
        self.seen.append(request.url)
        spec = self.files.get(request.url)
        if spec is None:
            route.fulfill(status=404, body=b"Entry not found", headers={**CORS, "x-error-code": "EntryNotFound"})
        elif spec["hold"]:
            self.held.append((route, spec))
        else:
            self.answer(route, spec)

    @staticmethod
    def answer(route, spec):
        if spec["abort"]:
            route.abort(spec["abort"])
        else:
            route.fulfill(status=spec["status"], body=spec["body"], headers={**CORS, **spec["headers"]})

    def release(self):
        """Answer the held requests now (late); a request the page cancelled meanwhile is gone."""
        held, self.held = self.held, []
        for route, spec in held:
            try:
                self.answer(route, spec)
            except Exception:  # noqa: BLE001 - the page aborted it (a newer load): nothing to answer
                pass

    def close(self):
        self.release()
        self.page.unroute(HF_ROUTE)


@pytest.fixture
def hub(py_page):
    page = py_page
    fresh_form(page)
    # short limits (the page reads them from its state; defaults 5 s and 30 s) so the slow and
    # stuck cases take seconds, not minutes
    page.evaluate("() => { window.__kvcalc.hfSlowMs = 300; window.__kvcalc.hfTimeoutMs = 4000; }")
    h = Hub(page)
    yield h
    h.close()
    page.evaluate("() => { delete window.__kvcalc.hfSlowMs; delete window.__kvcalc.hfTimeoutMs; }")


def load(page, repo: str) -> None:
    page.get_by_test_id("model-id").fill(repo)
    page.get_by_test_id("model-load").click()


def expect_fault(page, kind: str, contains: str | None = None) -> None:
    """The fault's message next to the field, a retry button, and the previous numbers kept."""
    msg = page.get_by_test_id("model-id-msg")
    expect(msg).to_have_attribute("data-kind", kind)
    expect(msg).to_be_visible()
    if contains:
        expect(msg).to_contain_text(contains)
    expect(page.get_by_test_id("model-retry")).to_be_visible()
    expect(page.get_by_test_id("model-select")).to_have_value("Qwen/Qwen3-8B")
    assert_numbers_match(page, oracle(page_request())["result"])


def expect_loaded(page, repo: str, config: dict) -> None:
    want = page_request(model=repo, config=config)
    wait_request(page, want)
    assert_numbers_match(page, oracle(want)["result"])
    expect(page.get_by_test_id("model-id-msg")).to_have_attribute("data-kind", "hf_loaded")
    expect(page.get_by_test_id("model-id-msg")).to_contain_text(f"Loaded {repo}")
    expect(page.get_by_test_id("model-retry")).to_be_hidden()
    expect(page.get_by_test_id("model-select")).to_have_value("hf:" + repo)


# --- huggingface.co faults ---------------------------------------------------------------------

def test_slow_answer_says_so_then_loads(py_page, hub):
    page = py_page
    page.evaluate("() => { window.__kvcalc.hfTimeoutMs = 60000; }")  # slow, not stuck
    hub.add("acme/slow", body=QWEN06, hold=True)
    load(page, "acme/slow")
    msg = page.get_by_test_id("model-id-msg")
    expect(msg).to_have_attribute("data-kind", "hf_slow")
    expect(msg).to_contain_text("acme/slow")
    expect(page.get_by_test_id("model-retry")).to_be_visible()
    assert_numbers_match(page, oracle(page_request())["result"])  # nothing changes while waiting
    hub.release()  # the answer arrives late, before the time limit
    expect_loaded(page, "acme/slow", QWEN06)


def test_stuck_answer_times_out_and_retry_loads(py_page, hub):
    page = py_page
    hub.add("acme/stuck", body=QWEN06, hold=True)
    load(page, "acme/stuck")
    expect_fault(page, "hf_timeout", "acme/stuck")
    hub.add("acme/stuck", body=QWEN06)  # the server recovers
    page.get_by_test_id("model-retry").click()
    expect_loaded(page, "acme/stuck", QWEN06)


@pytest.mark.parametrize("error", ["failed", "connectionreset", "internetdisconnected", "timedout"])
def test_failed_request_and_retry(py_page, hub, error):
    page = py_page
    hub.add("acme/flaky", body=QWEN06, abort=error)
    load(page, "acme/flaky")
    expect_fault(page, "hf_offline", "huggingface.co")
    hub.add("acme/flaky", body=QWEN06)
    page.get_by_test_id("model-retry").click()
    expect_loaded(page, "acme/flaky", QWEN06)


@pytest.mark.parametrize("status", [500, 502, 503, 504, 429])
def test_server_errors_and_retry(py_page, hub, status):
    page = py_page
    hub.add("acme/busy", status=status, body="<html><body>Bad gateway</body></html>",
            headers={"content-type": "text/html"})
    load(page, "acme/busy")
    expect_fault(page, "hf_http", f"HTTP {status}")
    hub.add("acme/busy", body=QWEN06)
    page.get_by_test_id("model-retry").click()
    expect_loaded(page, "acme/busy", QWEN06)


@pytest.mark.parametrize("body,kind,contains", [
    ("<!doctype html><html><body>Sign in</body></html>", "hf_bad_json", "not valid JSON"),
    (json.dumps(QWEN06)[:40], "hf_bad_json", "not valid JSON"),  # truncated
    ("", "hf_bad_json", "not valid JSON"),
    ("[1, 2, 3]", "hf_bad_shape", "array"),
    ('"config"', "hf_bad_shape", "string"),
    ("null", "hf_bad_shape", "null"),
    ("42", "hf_bad_shape", "number"),
    ({"hello": "world"}, "hf_unsizeable", "architectures"),
    ({**QWEN06, "num_hidden_layers": "many"}, "hf_unsizeable", "num_hidden_layers"),
    ({**QWEN06, "architectures": "Qwen3ForCausalLM"}, "hf_unsizeable", "architectures"),
    ({**QWEN06, "hidden_size": -5}, "hf_unsizeable", "hidden_size"),
    ({**QWEN06, "num_attention_heads": 0}, "hf_unsizeable", "num_attention_heads"),
], ids=["html", "truncated", "empty", "array", "string", "null", "number", "no-arch", "str-layers",
        "str-arch", "neg-hidden", "zero-heads"])
def test_malformed_config_and_retry(py_page, hub, body, kind, contains):
    page = py_page
    hub.add("acme/odd", body=body)
    load(page, "acme/odd")
    expect_fault(page, kind, contains)
    wait_request(page, page_request())  # an unsizeable config falls back to the previous model
    hub.add("acme/odd", body=QWEN06)
    page.get_by_test_id("model-retry").click()
    expect_loaded(page, "acme/odd", QWEN06)


def test_retry_is_hidden_where_it_cannot_help(py_page, hub):
    page = py_page
    load(page, "not an id")
    expect(page.get_by_test_id("model-id-msg")).to_have_attribute("data-kind", "hf_bad_id")
    expect(page.get_by_test_id("model-retry")).to_be_hidden()
    hub.add("acme/gone", status=404, body="{}", headers={"x-error-code": "RepoNotFound"})
    load(page, "acme/gone")
    expect(page.get_by_test_id("model-id-msg")).to_have_attribute("data-kind", "hf_404")
    expect(page.get_by_test_id("model-retry")).to_be_hidden()


def test_old_request_never_overwrites_newer(py_page, hub):
    """The first id answers late, the second at once: the second stays loaded."""
    page = py_page
    page.evaluate("() => { window.__kvcalc.hfTimeoutMs = 60000; }")
    hub.add("acme/first", body=QWEN8, hold=True)
    hub.add("acme/second", body=QWEN06)
    load(page, "acme/first")
    expect(page.get_by_test_id("model-id-msg")).to_contain_text("acme/first")
    load(page, "acme/second")
    expect_loaded(page, "acme/second", QWEN06)
    computed = page.evaluate("() => window.__kvcalc.computed")
    hub.release()  # the first answer, late
    page.wait_for_timeout(1500)  # past the slow notice, time for any stale reply to land
    expect_loaded(page, "acme/second", QWEN06)
    assert page.evaluate("() => window.__kvcalc.hf.id") == "acme/second"
    assert page.evaluate("() => window.__kvcalc.computed") == computed  # nothing recomputed
    assert page.locator('#model-select option[value="hf:acme/first"]').count() == 0
    assert "hf=acme%2Fsecond" in page.url


def test_old_failure_never_overwrites_newer(py_page, hub):
    """The first id fails late (5xx): the message of the second stays."""
    page = py_page
    page.evaluate("() => { window.__kvcalc.hfTimeoutMs = 60000; }")
    hub.add("acme/failing", status=503, body="busy", hold=True)
    hub.add("acme/fine", body=QWEN06)
    load(page, "acme/failing")
    load(page, "acme/fine")
    expect_loaded(page, "acme/fine", QWEN06)
    hub.release()
    page.wait_for_timeout(1000)
    expect_loaded(page, "acme/fine", QWEN06)


def test_old_load_cancelled_by_reset(py_page, hub):
    page = py_page
    page.evaluate("() => { window.__kvcalc.hfTimeoutMs = 60000; }")
    hub.add("acme/late", body=QWEN06, hold=True)
    load(page, "acme/late")
    page.get_by_test_id("reset").click()
    hub.release()
    page.wait_for_timeout(1000)
    wait_request(page, page_request())
    expect(page.get_by_test_id("model-select")).to_have_value("Qwen/Qwen3-8B")
    expect(page.get_by_test_id("model-retry")).to_be_hidden()


# --- loss of the worker ----------------------------------------------------------------------

REAL_WORKER = (SITE / "worker.js") if (SITE / "worker.js").exists() else (ROOT / "web" / "worker.js")


def crash_on(marker: str) -> str:
    """The real worker, plus a message handler that throws (uncaught) on a request with marker."""
    body = REAL_WORKER.read_text()
    return body + (
        "\nconst realOnMessage = onmessage;\n"
        "onmessage = (ev) => {\n"
        f"  if (String(ev.data && ev.data.arg).includes({json.dumps(marker)})) throw new Error('kvcalc test: worker crashed');\n"
        "  realOnMessage(ev);\n"
        "};\n")


@pytest.fixture
def lossy(browser, browser_context_args, base_url):
    """A fresh page whose console errors are expected (missing files): off-origin requests and
    uncaught page errors still fail the test."""
    ctx = browser.new_context(**browser_context_args, locale="en-US")
    watch = Watch()
    watch.attach(ctx, base_url)
    page = ctx.new_page()
    page.page_errors = []
    page.on("pageerror", lambda exc: page.page_errors.append(str(exc)))
    page.on("dialog", lambda d: d.dismiss())
    yield ctx, page
    ctx.close()
    assert [u for u in watch.offorigin if not u.startswith(HF + "/")] == []
    assert page.page_errors == []


def expect_lost(page, state: str, status: str, contains: str) -> None:
    st = page.get_by_test_id("status")
    expect(st).to_have_attribute("data-state", state, timeout=90_000)
    expect(st).to_have_text(status)
    msg = page.get_by_test_id("runtime-msg")
    expect(msg).to_be_visible()
    expect(msg).to_contain_text(contains)
    expect(page.get_by_test_id("reload")).to_be_visible()
    expect(page.get_by_test_id("reload")).to_have_text("Reload the page")


def reload_restores(ctx, page, pattern) -> None:
    ctx.unroute(pattern)
    page.get_by_test_id("reload").click()
    wait_ready(page)
    expect(page.get_by_test_id("runtime-msg")).to_be_hidden()
    expect(page.get_by_test_id("reload")).to_be_hidden()
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready")


@pytest.mark.parametrize("fault", ["404", "abort"])
def test_wasm_missing_keeps_prerendered_numbers_and_reload_restores(lossy, fault):
    ctx, page = lossy
    pattern = re.compile(r".*/pyodide/pyodide\.asm\.wasm$")
    if fault == "404":
        ctx.route(pattern, lambda route: route.fulfill(status=404, body="not found"))
    else:
        ctx.route(pattern, lambda route: route.abort("failed"))
    page.goto("/?kv=fp8")  # a change that waits for Python
    expect_lost(page, "failed", "failed to start", "Python could not start")
    # the prerendered numbers stay (the default view, not the fp8 one nobody computed)
    assert_numbers_match(page, oracle(page_request())["result"])
    assert page.locator("#results").get_attribute("data-state") == "prerendered"
    page.get_by_test_id("gpu-count").fill("2")  # the form still works, nothing hangs or throws
    expect(page).to_have_url(re.compile(r"[?&]tp=2(&|$)"))
    reload_restores(ctx, page, pattern)
    want = page_request(kv_cache_dtype="fp8", tensor_parallel_size=2)
    wait_request(page, want)
    assert_numbers_match(page, oracle(want)["result"])


@pytest.mark.parametrize("fault", ["throws", "404", "syntax"])
def test_worker_script_fails_and_reload_restores(lossy, fault):
    ctx, page = lossy
    pattern = re.compile(r".*/worker\.js(\?.*)?$")
    bodies = {"throws": (200, "throw new Error('kvcalc test: worker died');\n"),
              "404": (404, "not found"),
              "syntax": (200, "this is not javascript (\n")}
    status, body = bodies[fault]
    ctx.route(pattern, lambda route: route.fulfill(status=status, body=body,
                                                   headers={"content-type": "text/javascript"}))
    page.goto("/")
    expect_lost(page, "failed", "failed to start", "Python could not start")
    if fault == "throws":
        expect(page.get_by_test_id("runtime-msg")).to_contain_text("worker died")
    assert_numbers_match(page, oracle(page_request())["result"])
    reload_restores(ctx, page, pattern)
    wait_request(page, page_request())


def test_worker_crash_after_ready_keeps_last_numbers(lossy):
    ctx, page = lossy
    pattern = re.compile(r".*/worker\.js(\?.*)?$")
    ctx.route(pattern, lambda route: route.fulfill(status=200, body=crash_on("crash-me"),
                                                   headers={"content-type": "text/javascript"}))
    page.goto("/")
    wait_ready(page)
    want = page_request(kv_cache_dtype="fp8")
    page.get_by_test_id("kv-dtype").select_option("fp8")
    wait_request(page, want)
    last = oracle(want)["result"]
    page.get_by_test_id("avg-tokens").fill("crash-me")
    expect_lost(page, "stopped", "stopped", "worker crashed")
    expect(page.get_by_test_id("runtime-msg")).to_contain_text("last ones it computed")
    assert_numbers_match(page, last)  # the last computed numbers, not the prerender
    # later changes neither throw nor hang the page
    page.get_by_test_id("gpu-count").fill("2")
    expect(page).to_have_url(re.compile(r"[?&]tp=2(&|$)"))
    assert_numbers_match(page, last)
    # the language switch keeps saying what happened
    page.get_by_test_id("lang-toggle").click()
    expect(page.get_by_test_id("status")).to_have_text("已停止")
    expect(page.get_by_test_id("runtime-msg")).to_contain_text("重新加载页面")
    expect(page.get_by_test_id("reload")).to_have_text("重新加载页面")
    page.get_by_test_id("lang-toggle").click()
    page.get_by_test_id("avg-tokens").fill("4096")
    reload_restores(ctx, page, pattern)
    want = page_request(kv_cache_dtype="fp8", tensor_parallel_size=2)
    wait_request(page, want)
    assert_numbers_match(page, oracle(want)["result"])


@pytest.mark.parametrize("where", ["llm call", "llm chain", "hf overrides"])
def test_input_nested_deep_enough_to_overflow_pyodide_is_refused_and_python_runs_on(py_page, where):
    """Python's own parsers recurse in C: in this page's Pyodide an LLM(...) call nested 400 deep or
    holding a chain of 2,000 unary minus signs (ast), or --hf-overrides JSON nested 5,000 deep (json),
    overflowed the WebAssembly stack and stopped Python for good. The core now refuses such text
    before parsing it (textdepth): the page says why, and the next change is still computed."""
    page = py_page
    fresh_form(page)
    if where.startswith("llm"):
        value = "[" * 400 + "]" * 400 if where == "llm call" else "- " * 2000 + "1"
        page.get_by_test_id("log-paste").fill(f"llm = LLM(model='Qwen/Qwen3-8B', foo={value})")
        page.get_by_test_id("log-compare").click()
        expect(page.locator("#log-paste-msg")).to_contain_text("too intricate to read safely")
        page.get_by_test_id("reset").click()
    else:
        page.locator("#advanced summary").click()
        page.locator("#hf-overrides").fill('{"a": ' + "[" * 5000 + "]" * 5000 + "}")
        expect(page.locator("#hf-overrides-msg")).to_contain_text("must be a JSON object")
        page.locator("#hf-overrides").fill("")
    wait_request(page, page_request())
    page.get_by_test_id("gpu-select").select_option("a100-80g-sxm")
    want = page_request(gpu="a100-80g-sxm")
    wait_request(page, want)
    assert_numbers_match(page, oracle(want)["result"])
    fresh_form(page)
