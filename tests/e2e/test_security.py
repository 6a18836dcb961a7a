"""Untrusted text never becomes markup, the Content-Security-Policy holds, the HF token goes to
huggingface.co only.

* XSS: payloads (``<img src=x onerror=…>``, ``<script>…``, ``"><svg onload=…>``) go in through the
  Hugging Face id field, a stubbed huggingface.co (config string fields, error bodies and headers),
  a pasted log and every query-string parameter. Nothing executes (a flag the payload would set
  stays unset, no dialog, no CSP violation), no element is parsed out of them (no <img>, <iframe>,
  no new <script>, no on* attribute anywhere), and the text shows verbatim where it is displayed.
* CSP: the meta tag's directives, no inline handlers in the built HTML, and no violation during a
  normal session (HF load, pasted log, planner, language switch, share).
* Token: after a gated model loads with a token, the token is in no URL, storage, cookie, database
  name, console message, page state or non-huggingface.co request.
"""

from __future__ import annotations

import json
import re
import urllib.parse
import urllib.request
from html.parser import HTMLParser

import pytest
from playwright.sync_api import expect

from pagekit import (FIXTURES, HF, HF_ROUTE, ROOT, SITE, Hub, Watch, assert_numbers_match, load, oracle,
                     page_request, set_form, wait_ready, wait_request)

pytestmark = pytest.mark.browser

QWEN06 = json.loads((FIXTURES / "qwen3-0.6b" / "config.json").read_text())
QWEN8 = json.loads((FIXTURES / "qwen3-8b" / "config.json").read_text())
LLAMA = "meta-llama/Llama-3.1-8B-Instruct"
LOGS = {e["id"]: e for e in json.loads((ROOT / "data" / "vllm_logs.json").read_text())["logs"]}

# Each payload sets window.__xss (or opens a dialog) if it ever runs.
P_IMG = '<img src=x onerror="window.__xss=(window.__xss||0)+1;alert(1)">'
P_SCRIPT = "<script>window.__xss=(window.__xss||0)+1;alert(2)</script>"
P_SVG = '"><svg onload="window.__xss=(window.__xss||0)+1">'
P_IFRAME = "'><iframe srcdoc=\"<script>parent.__xss=1</script>\"></iframe>"
P_SHORT = "<img src=x onerror=alert(9)>"  # short enough that error messages quote it whole
PAYLOADS = [P_IMG, P_SCRIPT, P_SVG, P_IFRAME, P_SHORT]

# Recorded from the first script on: CSP violations and anything that tries to open a dialog.
RECORDER = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(
  {directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample, source: e.sourceFile}));
"""

INERT_JS = """() => ({
  xss: window.__xss ?? null,
  csp: window.__csp,
  tags: Object.fromEntries(['img', 'iframe', 'object', 'embed', 'script', 'svg', 'style', 'link',
    'meta', 'base', 'form', 'frame', 'video', 'audio', 'math'].map((t) => [t, document.getElementsByTagName(t).length])),
  scripts: [...document.scripts].map((s) => s.src ? new URL(s.src).pathname : 'inline:' + s.type),
  on: [...document.querySelectorAll('*')].flatMap((e) => [...e.attributes]
    .filter((a) => a.name.toLowerCase().startsWith('on')).map((a) => e.tagName + '[' + a.name + ']')),
  jsurls: [...document.querySelectorAll('[href], [src], [action], [formaction]')].map((e) =>
    e.getAttribute('href') || e.getAttribute('src') || e.getAttribute('action') || e.getAttribute('formaction'))
    .filter((u) => /^\\s*javascript:/i.test(u)),
})"""


# --- the page under attack --------------------------------------------------------------------

@pytest.fixture(scope="module")
def sec_page(browser, browser_context_args, base_url):
    """One page for the module, Python booted, recording CSP violations and dialogs from the
    start; fails the module on any off-origin request, console error or page error."""
    ctx = browser.new_context(**{**browser_context_args, "locale": "en-US"})
    ctx.add_init_script(RECORDER)
    watch = Watch()
    watch.attach(ctx, base_url)
    page = ctx.new_page()
    watch.page(page)
    page.dialogs = []

    def on_dialog(d):
        page.dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", on_dialog)
    page.goto("/")
    wait_ready(page)
    page.baseline = page.evaluate(INERT_JS)
    yield page
    ctx.close()
    watch.check()


def assert_inert(page) -> None:
    """Nothing a payload carries ran or became an element."""
    now = page.evaluate(INERT_JS)
    base = page.baseline
    assert now["xss"] is None, "a payload executed"
    assert page.dialogs == [], f"a payload opened a dialog: {page.dialogs}"
    assert now["csp"] == [], f"CSP violations (something tried to run or load): {now['csp']}"
    assert now["tags"] == base["tags"], f"elements appeared: {now['tags']} vs {base['tags']}"
    assert now["scripts"] == base["scripts"]
    assert now["on"] == [], f"inline handlers in the DOM: {now['on']}"
    assert now["jsurls"] == []


@pytest.fixture
def hub_page(sec_page):
    """``hub`` (conftest) stubs huggingface.co on the page under attack; once the stubs are gone,
    nothing the test's answers carried ran or became an element."""
    yield sec_page
    assert_inert(sec_page)


def text_of(page, testid: str) -> str:
    return page.get_by_test_id(testid).evaluate("(e) => e.textContent")


# --- CSP ---------------------------------------------------------------------------------------

def csp_directives(html: str) -> dict[str, list[str]]:
    m = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)"', html)
    assert m, "no Content-Security-Policy meta tag"
    out = {}
    for part in m.group(1).split(";"):
        words = part.split()
        if words:
            out[words[0].lower()] = words[1:]
    return out


class Elements(HTMLParser):
    def __init__(self):
        super().__init__()
        self.items: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.items.append((tag, dict(attrs)))


def test_csp_meta_tag_directives(site_url):
    html = urllib.request.urlopen(site_url).read().decode()
    d = csp_directives(html)
    assert d["default-src"] == ["'self'"]
    assert sorted(d["script-src"]) == ["'self'", "'wasm-unsafe-eval'"]  # Pyodide compiles wasm
    assert d["worker-src"] == ["'self'"]
    # fetches: this origin and Hugging Face only (its resolve redirects go to its own CDN hosts)
    allowed = {"'self'", "https://huggingface.co", "https://*.huggingface.co", "https://*.hf.co"}
    assert "'self'" in d["connect-src"] and "https://huggingface.co" in d["connect-src"]
    assert set(d["connect-src"]) <= allowed, d["connect-src"]
    assert d["object-src"] == ["'none'"]
    assert d["base-uri"] == ["'none'"]
    assert d["form-action"] == ["'none'"]
    for name, sources in d.items():  # nothing that re-opens inline code or arbitrary hosts
        for s in sources:
            assert s not in ("'unsafe-inline'", "'unsafe-eval'", "*", "http:", "https:", "blob:",
                             "'unsafe-hashes'", "'strict-dynamic'"), (name, s)
            assert not s.startswith(("'nonce-", "'sha")), (name, s)
            assert s in ("'self'", "'none'", "'wasm-unsafe-eval'", "data:") or s.startswith("https://"), (name, s)
    # a meta CSP covers only what follows it: it comes before every script, style and link
    items = Elements()
    items.feed(html)
    tags = [t for t, _ in items.items]
    first_meta = next(i for i, (t, a) in enumerate(items.items)
                      if t == "meta" and a.get("http-equiv") == "Content-Security-Policy")
    assert all(i > first_meta for i, t in enumerate(tags) if t in ("script", "link", "style"))


def test_built_html_has_no_inline_handlers_or_inline_scripts():
    pages = [SITE / "index.html"]
    for path in pages:
        p = Elements()
        p.feed(path.read_text(encoding="utf-8"))
        assert p.items, path
        for tag, attrs in p.items:
            on = [k for k in attrs if k.lower().startswith("on")]
            assert not on, f"{path.name}: <{tag}> has {on}"
            for k in ("href", "src", "action", "formaction", "xlink:href"):
                assert not (attrs.get(k) or "").strip().lower().startswith("javascript:"), (tag, k)
            assert "style" not in attrs, f"{path.name}: <{tag}> has an inline style (style-src 'self')"
            if tag == "script":  # only external modules and inert JSON data
                assert attrs.get("src") or attrs.get("type") == "application/json", attrs
                if attrs.get("src"):
                    assert not re.match(r"^(https?:)?//", attrs["src"]), attrs
    # the web sources never build markup from strings
    for js in (ROOT / "web").glob("*.js"):
        text = js.read_text(encoding="utf-8")
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                     "new Function", "srcdoc", "createContextualFragment", "DOMParser"):
            assert sink not in text, f"{js.name} uses {sink}"


def normal_session(page) -> None:
    """What a visitor does: settings, an HF model, a pasted log, the planner, both languages."""
    wait_request(page, set_form(page, kv_cache_dtype="fp8", tensor_parallel_size=2))
    h = Hub(page)
    h.add("acme/qwen3-8b-copy", body=QWEN8)
    load(page, "acme/qwen3-8b-copy")
    expect(page.get_by_test_id("model-id-msg")).to_have_attribute("data-kind", "hf_loaded")
    h.close()
    page.get_by_test_id("model-select").select_option(LLAMA)  # the model of the log below
    if page.get_by_test_id("log-paste").count():
        page.get_by_test_id("log-paste").fill(LOGS["a100-llama31-8b-v0.31.0"]["excerpt"])
        page.get_by_test_id("log-compare").click()
        expect(page.get_by_test_id("log-compare-out")).to_be_visible(timeout=20_000)
    if page.get_by_test_id("plan-run").count():
        page.get_by_test_id("plan-run").click()
        expect(page.get_by_test_id("plan-result")).to_be_visible(timeout=20_000)
    page.get_by_test_id("share").click()
    expect(page.locator("#share-msg")).not_to_be_empty()
    page.get_by_test_id("lang-toggle").click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    page.get_by_test_id("lang-toggle").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.locator("#advanced summary").click()
    page.locator("details.settings-used summary").click()
    page.wait_for_timeout(500)  # charts and tables drawn after the headline


def test_no_csp_violation_in_a_normal_session(sec_page):
    page = sec_page
    normal_session(page)
    assert page.evaluate("() => window.__csp") == []
    assert_inert(page)  # also: everything the scripts built has no on* attribute
    if page.get_by_test_id("log-clear").count():
        page.get_by_test_id("log-clear").click()


# --- XSS through each path -----------------------------------------------------------------

@pytest.mark.parametrize("payload", PAYLOADS)
def test_payload_in_the_id_field_is_refused_before_any_request(sec_page, hub, payload):
    page = sec_page
    for typed in (payload, f"{payload}/x", f"acme/{payload}", f"https://huggingface.co/{payload}/m"):
        load(page, typed)
        expect(page.get_by_test_id("model-id-msg")).to_have_attribute("data-kind", "hf_bad_id")
        assert page.get_by_test_id("model-id").input_value() == typed  # left as typed
        assert_inert(page)
    assert hub.seen == []  # an id that is not org/model never reaches the network


def test_payloads_in_hf_error_answers(sec_page, hub):
    page = sec_page
    hostile = {"x-error-code": P_IMG.replace('"', ""), "x-error-message": P_SCRIPT}
    for repo, status in (("acme/missing", 404), ("acme/broken", 500), ("acme/gated", 401)):
        hub.add(repo, status=status, body=P_IMG + P_SCRIPT + P_SVG, headers=hostile)
        load(page, repo)
        msg = page.get_by_test_id("model-id-msg")
        expect(msg).to_have_attribute("data-kind", re.compile(r"^hf_(404|http|401)$"))
        expect(msg).to_contain_text(repo)
        expect(msg).not_to_have_attribute("data-kind", "hf_loading")
        assert_inert(page)
    # a body that is HTML where JSON belongs
    hub.add("acme/html", body=f"<html><body>{P_IMG}{P_SCRIPT}</body></html>")
    load(page, "acme/html")
    expect(page.get_by_test_id("model-id-msg")).to_have_attribute("data-kind", "hf_bad_json")
    assert_inert(page)


def test_payloads_in_config_string_fields_show_verbatim(sec_page, hub):
    page = sec_page
    cfg = {**QWEN06, "architectures": [P_IMG], "model_type": P_SVG, "_name_or_path": P_SCRIPT,
           "transformers_version": P_IFRAME}
    hub.add("acme/hostile", body=cfg)
    hub.add("acme/hostile", "model.safetensors.index.json",
            body={"metadata": {"total_size": P_IMG}, "weight_map": {P_SCRIPT: P_SVG}})
    load(page, "acme/hostile")
    want = page_request(model="acme/hostile", config=cfg)
    wait_request(page, want)
    assert_numbers_match(page, oracle(want)["result"])
    msg = page.get_by_test_id("model-id-msg")
    expect(msg).to_have_attribute("data-kind", "hf_loaded")
    assert P_IMG in text_of(page, "model-id-msg")  # the architecture, as text
    assert P_IMG in text_of(page, "settings-used")
    assert_inert(page)


@pytest.mark.parametrize("field", ["hidden_size", "num_attention_heads", "vocab_size"])
def test_payload_echoed_by_a_config_error_shows_verbatim(sec_page, hub, field):
    page = sec_page
    hub.add("acme/bad-field", body={**QWEN06, field: P_SHORT})
    load(page, "acme/bad-field")
    msg = page.get_by_test_id("model-id-msg")
    expect(msg).to_have_attribute("data-kind", "hf_unsizeable", timeout=20_000)
    assert field in text_of(page, "model-id-msg")
    assert P_SHORT in text_of(page, "model-id-msg")
    wait_request(page, page_request())
    assert_inert(page)


def hostile_log() -> str:
    real = LOGS["a100-llama31-8b-v0.31.0"]["excerpt"].splitlines()
    return "\n".join([
        f"(APIServer pid=1) INFO 10-06 16:59:50 [utils.py:233] non-default args: {{'model': '{P_IMG.replace(chr(34), '')}', 'max_model_len': 32768}}",
        P_SCRIPT, P_SVG, P_IFRAME,
        *real[:2],
        f"(EngineCore pid=326) INFO {P_IMG} [gpu_worker.py:692] {P_SCRIPT}",
        *real[2:],
        "</textarea>" + P_IMG,
    ])


def test_payloads_in_a_pasted_log(sec_page):
    page = sec_page
    if page.get_by_test_id("log-paste").count() == 0 or page.get_by_test_id("log-compare").count() == 0:
        pytest.skip("the log paste area (log-paste, log-compare) is not on the page yet")
    page.get_by_test_id("reset").click()
    page.get_by_test_id("model-select").select_option(LLAMA)  # the model the real lines ran
    text = hostile_log()
    page.get_by_test_id("log-paste").fill(text)
    page.get_by_test_id("log-compare").click()
    expect(page.get_by_test_id("log-compare-out")).to_be_visible(timeout=20_000)
    assert page.get_by_test_id("log-paste").input_value() == text
    # the model the log names is shown as text where the page lists what it read
    model = P_IMG.replace('"', "")
    assert model in text_of(page, "log-sources")
    assert_inert(page)
    # a paste of payloads only: the "nothing usable" message, nothing else
    page.get_by_test_id("log-clear").click()
    page.get_by_test_id("log-paste").fill("\n".join(PAYLOADS * 50))
    page.get_by_test_id("log-compare").click()
    expect(page.get_by_test_id("log-paste-msg")).to_have_attribute("data-kind", "paste_nothing", timeout=20_000)
    assert_inert(page)
    page.get_by_test_id("log-paste").fill("")


# --- the query string (navigates: runs last in this module) -----------------------------------

URL_PARAMS = ["model", "gpu", "tp", "pp", "util", "weights", "kv", "mml", "avg", "ver", "mnbt",
              "mns", "bs", "eager", "ep", "avail", "gtot", "hf", "plan", "requests", "tokens", "target",
              "lang", "x<img src=x onerror=alert(3)>"]
TEXT_FIELDS = {"tp": "gpu-count", "pp": "pp", "util": "util", "mml": "max-model-len",
               "avg": "avg-tokens", "mnbt": "mnbt", "mns": "max-num-seqs", "avail": "available-kv-gib",
               "gtot": "gpu-total-gib"}


@pytest.mark.parametrize("payload", [P_SHORT, P_IMG, P_SCRIPT + P_SVG])
def test_payloads_in_every_query_parameter(sec_page, payload):
    page = sec_page
    hf_calls = []
    page.route(HF_ROUTE, lambda route: (hf_calls.append(route.request.url), route.abort()))
    # every parameter the page writes to its URL (read back from a share link) plus the known ones
    page.get_by_test_id("share").click()
    params = set(URL_PARAMS) | set(urllib.parse.parse_qs(urllib.parse.urlsplit(page.url).query))
    query = urllib.parse.urlencode({p: payload for p in sorted(params)})
    page.goto(f"/?{query}#{urllib.parse.quote(payload)}")
    wait_ready(page)
    page.wait_for_timeout(500)
    assert_inert(page)
    for p, el in TEXT_FIELDS.items():  # the text fields hold it as typed
        assert page.locator(f"#{el}").input_value() == payload, p
    assert page.get_by_test_id("model-id").input_value() == payload
    expect(page.get_by_test_id("model-id-msg")).to_have_attribute("data-kind", "hf_bad_id")
    assert hf_calls == []
    # the core names the bad value; the page shows its message as text, payload included
    # (the core reports the first bad field it reads, shortening long values)
    shown = page.evaluate("() => [...document.querySelectorAll('.field-error')].map((e) => e.textContent).join(' ')")
    assert payload[:24] in shown
    # the numbers shown are still the default ones, not anything parsed from the payloads
    assert page.get_by_test_id("pool-tokens").get_attribute("data-value") is not None
    page.unroute(HF_ROUTE)
    page.goto("/")
    wait_ready(page)
    assert_inert(page)


# --- the Hugging Face token ---------------------------------------------------------------------

TOKEN = "hf_kvcalcTESTtoken7f3a9c2e51d0"


def test_token_goes_to_huggingface_only_and_is_never_kept(browser, browser_context_args, base_url):
    ctx = browser.new_context(**{**browser_context_args, "locale": "en-US"})
    ctx.add_init_script(RECORDER)
    watch = Watch()
    watch.attach(ctx, base_url)
    requests = []
    ctx.on("request", lambda r: requests.append(r))
    page = ctx.new_page()
    watch.page(page)
    console = []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text} {m.location}"))
    page.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
    page.goto("/")
    wait_ready(page)

    hub = Hub(page)
    gated = lambda body: lambda req: (  # noqa: E731 - 200 only with the right token
        (200, json.dumps(body).encode(), {}) if req.headers.get("authorization") == f"Bearer {TOKEN}"
        else (401, b'{"error":"Access to model acme/gated is restricted."}', {"x-error-code": "GatedRepo"}))
    hub.files[f"{HF}/acme/gated/resolve/main/config.json"] = gated(QWEN06)
    hub.files[f"{HF}/acme/gated/resolve/main/model.safetensors.index.json"] = gated(
        {"metadata": {"total_size": 1_503_238_144}, "weight_map": {}})

    load(page, "acme/gated")  # no token yet: refused
    expect(page.get_by_test_id("model-id-msg")).to_have_attribute("data-kind", "hf_401")
    page.get_by_test_id("hf-token").fill(TOKEN)
    page.get_by_test_id("model-retry").click()
    want = page_request(model="acme/gated", config=QWEN06, weights_bytes=1_503_238_144)
    wait_request(page, want)
    assert_numbers_match(page, oracle(want)["result"])
    page.get_by_test_id("share").click()
    expect(page.locator("#share-msg")).not_to_be_empty()
    page.wait_for_timeout(300)

    with_token = [u for u, h in hub.seen if h.get("authorization") == f"Bearer {TOKEN}"]
    assert with_token and all(u.startswith(HF + "/") for u in with_token)

    seen = page.evaluate("""async () => ({
      href: location.href,
      history: history.state === null ? '' : JSON.stringify(history.state),
      local: JSON.stringify(Object.entries(localStorage)),
      session: JSON.stringify(Object.entries(sessionStorage)),
      cookie: document.cookie,
      idb: JSON.stringify(indexedDB.databases ? (await indexedDB.databases()).map((d) => d.name) : []),
      caches: JSON.stringify(self.caches ? await caches.keys() : []),
      resources: JSON.stringify(performance.getEntriesByType('resource').map((e) => e.name)),
      share: document.getElementById('share-msg').textContent,
      html: document.documentElement.outerHTML,
      state: (() => { try { return JSON.stringify(window.__kvcalc); } catch (e) { return 'unserializable: ' + e; } })(),
    })""")
    for where, text in seen.items():
        assert TOKEN not in text, f"the token is in {where}"
        assert "Bearer " not in text, f"an Authorization value is in {where}"
    for line in console:
        assert TOKEN not in line, f"the token was logged: {line}"
    # no request other than to huggingface.co carried it, in its URL, headers or body
    for r in requests:
        carried = TOKEN in r.url or TOKEN in json.dumps(r.all_headers()) or TOKEN in (r.post_data or "")
        if carried:
            assert r.url.startswith(HF + "/"), f"the token went to {r.url}"
    assert [u for u in watch.offorigin if not u.startswith(HF + "/")] == []

    # a reload forgets it: the field is empty and the model (from the URL) loads without it
    page.reload()
    wait_ready(page)
    assert page.get_by_test_id("hf-token").input_value() == ""
    expect(page.get_by_test_id("model-id-msg")).to_have_attribute("data-kind", "hf_401")
    assert TOKEN not in page.url
    assert page.evaluate("() => window.__csp") == []
    hub.close()
    ctx.close()
    watch.check()
