"""Browser tests of the page (site/) in Debian's Chromium, with CPython's kvcalc as the oracle.

* The site is built once per session (scripts/build_site.py; needs node_modules from `npm ci`).
* Chromium: /usr/bin/chromium (or $CHROMIUM_PATH); never `playwright install`. Without it the
  tests are skipped, not failed (scripts/ci_install.sh installs it).
* Hermetic: every off-origin request is aborted and recorded; a test that needs huggingface.co
  stubs it with page.route. Any other off-origin request, console error or page error fails the
  module.
* Pyodide boots once per module (``py_page``).
* ``hub``: huggingface.co stubbed on a fresh form of ``hub_page`` (``py_page`` unless a module
  overrides ``hub_page``).
"""

from __future__ import annotations

import os
import sys
import threading
from functools import partial
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

try:
    from pagekit import (SITE, Hub, Watch, fresh_form, open_page, system_chromium, wait_ready,
                         CHROMIUM_ARGS)
except ImportError:  # plain `pytest` without the browser extras: skip this folder
    collect_ignore_glob = ["*.py"]


def pytest_collection_modifyitems(items):
    for item in items:
        if "/e2e/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


# --- site and server -------------------------------------------------------------------------

@pytest.fixture(scope="session")
def built_site() -> Path:
    import build_site
    if os.environ.get("KVCALC_SITE_PREBUILT") != "1" or not (SITE / "index.html").exists():
        build_site.build(SITE)
    return SITE


@pytest.fixture(scope="session")
def site_url(built_site):
    import build_site

    class Quiet(build_site.Handler):
        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(built_site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def base_url(site_url):
    return site_url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    exe = system_chromium()
    if exe is None:
        pytest.skip("no system Chromium: apt-get install chromium (scripts/ci_install.sh does)")
    return {**browser_type_launch_args, "executable_path": exe,
            "args": [*browser_type_launch_args.get("args", []), *CHROMIUM_ARGS]}


@pytest.fixture
def watch(context, base_url):
    w = Watch()
    w.attach(context, base_url)
    yield w
    w.check()


@pytest.fixture(scope="module")
def py_page(browser, browser_context_args, base_url):
    """One page per test module with Python booted; checks it stayed clean at the end."""
    ctx, page, watch = open_page(browser, browser_context_args, base_url, locale="en-US")
    wait_ready(page)
    page.watch = watch
    yield page
    ctx.close()
    watch.check()


@pytest.fixture
def hub_page(py_page):
    """The page ``hub`` stubs. A module with a page of its own overrides this fixture (and may
    check that page after each test, once the stubs are gone)."""
    return py_page


@pytest.fixture
def hub(hub_page):
    """huggingface.co stubbed (pagekit.Hub) on hub_page, from the default form and no token, so
    what a test loads depends on nothing an earlier test left; unstubbed afterwards."""
    fresh_form(hub_page)
    h = Hub(hub_page)
    yield h
    h.close()
