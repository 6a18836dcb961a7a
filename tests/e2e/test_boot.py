"""First numbers without Python, then the hand-over to the worker."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from pagekit import (ROOT, assert_numbers_match, open_page, oracle, page_request, shown, value_of,
                      wait_ready, wait_request)

pytestmark = pytest.mark.browser

PYODIDE = re.compile(r".*/pyodide/.*")


def default_result():
    return oracle(page_request())["result"]


def test_numbers_are_in_the_html(site_url):
    """The build wrote the default result into index.html: numbers without any script."""
    html = urllib.request.urlopen(site_url).read().decode()
    r = default_result()
    assert re.search(r'data-testid="pool-tokens">' + re.escape(f"{r['estimated']['tokens']:,}") + "<", html)
    assert r["serve_command"] in html
    assert 'http-equiv="Content-Security-Policy"' in html
    assert "{{" not in html


def test_prerendered_numbers_before_python(browser, browser_context_args, base_url):
    ctx = browser.new_context(**browser_context_args, locale="en-US")
    ctx.route(PYODIDE, lambda route: route.abort("failed"))  # Python never arrives
    page = ctx.new_page()
    page.goto("/")
    r = default_result()
    expect(page.get_by_test_id("pool-tokens")).to_have_attribute("data-value", str(r["estimated"]["tokens"]))
    assert_numbers_match(page, r)
    assert shown(page, "status") != "ready"
    assert page.get_by_test_id("validation-table").locator("tbody tr").count() == \
        len(oracle({"op": "validate"})["result"]["rows"])
    # the inputs work while Python is missing: the form and URL follow, the numbers wait
    page.get_by_test_id("gpu-count").fill("2")
    expect(page).to_have_url(re.compile(r"[?&]tp=2(&|$)"))
    expect(page.locator("#stale-note")).to_be_visible()
    ctx.close()


def test_change_during_boot_is_computed_when_ready(browser, browser_context_args, base_url):
    ctx, page, watch = open_page(browser, browser_context_args, base_url, locale="en-US")
    page.get_by_test_id("kv-dtype").select_option("fp8")  # Python takes seconds to boot
    assert shown(page, "status") != "ready"
    r0 = default_result()
    assert value_of(page, "pool-tokens") == str(r0["estimated"]["tokens"])  # still the prerender
    want = page_request(kv_cache_dtype="fp8")
    wait_ready(page)
    wait_request(page, want)
    assert_numbers_match(page, oracle(want)["result"])
    expect(page.locator("#stale-note")).to_be_hidden()
    ctx.close()
    watch.check()


def test_ready_runs_in_a_worker_and_loads_only_our_files(browser, browser_context_args, base_url):
    ctx, page, watch = open_page(browser, browser_context_args, base_url)
    urls = []
    page.on("request", lambda req: urls.append(req.url))
    page.reload()
    wait_ready(page)
    assert page.evaluate("() => typeof window.loadPyodide") == "undefined"  # not on the main thread
    rt = page.evaluate("() => window.__kvcalc.runtime")
    assert rt["pyodide"] == json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    assert any(u.endswith("/pyodide/pyodide.asm.wasm") for u in urls)
    assert any("/wheels/kvcalc-" in u for u in urls)
    assert [u for u in urls if not u.startswith(base_url)] == []
    check_wheel_bytecode(rt["python"])
    ctx.close()
    watch.check()


def check_wheel_bytecode(python: str) -> None:
    """The wheel carries, for every module, the bytecode of the page's own Python (its cache tag),
    as an unchecked-hash pyc (PEP 552 flags 0b01), so the worker imports without compiling. (The
    hash inside is keyed by that Python's magic number, so CPython 3.11 cannot recompute it here.)"""
    import zipfile
    manifest = json.loads((ROOT / "site" / "wheels" / "manifest.json").read_text())
    tag = "cpython-" + "".join(python.split(".")[:2])
    with zipfile.ZipFile(ROOT / "site" / "wheels" / manifest["kvcalc"]) as wheel:
        names = set(wheel.namelist())
        sources = sorted(n for n in names if n.startswith("kvcalc/") and n.endswith(".py"))
        assert sources
        for src in sources:
            folder, module = src.rsplit("/", 1)
            pyc = f"{folder}/__pycache__/{module[:-3]}.{tag}.pyc"
            assert pyc in names, pyc
            assert int.from_bytes(wheel.read(pyc)[4:8], "little") == 0b01   # hash-based, unchecked


def test_no_console_errors_or_csp_violations(browser, browser_context_args, base_url):
    ctx = browser.new_context(**browser_context_args)
    ctx.add_init_script("""window.__csp = [];
        document.addEventListener('securitypolicyviolation',
            (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));""")
    page = ctx.new_page()
    from pagekit import Watch
    watch = Watch()
    watch.attach(ctx, base_url)
    watch.page(page)
    page.goto("/")
    wait_ready(page)
    page.get_by_test_id("lang-toggle").click()
    page.get_by_test_id("gpu-count").fill("2")
    page.get_by_test_id("lang-toggle").click()
    wait_request(page, page_request(tensor_parallel_size=2))
    expect(page.get_by_test_id("validation-table")).to_have_attribute("data-state", "live", timeout=60_000)
    assert page.evaluate("() => window.__csp") == []
    assert page.evaluate("() => document.querySelectorAll('[onclick],[onload],[oninput],[onchange]').length") == 0
    ctx.close()
    watch.check()
