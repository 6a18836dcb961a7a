#!/usr/bin/env python3
"""Measure the page in Debian's Chromium: medians over several cold and warm loads.

    .venv/bin/python scripts/bench_page.py [--runs 5] [--no-build]

Prints, for cold loads (a fresh browser each time, empty cache) and warm loads (one persistent
profile, reloaded): time to first numbers (the prerendered result on screen, ms after
navigation start), time to `ready` (Python took over) with the worker's phases (Pyodide loaded,
kvcalc's wheel unpacked, kvcalc imported), recompute latency after an input change
(change → DOM updated, median of 10 changes), the longest main-thread task until ready, and the
bytes the server sent. Targets from issue 3: first numbers ≤ 500 ms, recompute ≤ 50 ms, longest
main-thread task ≤ 200 ms during boot, ready ≤ 6 s cold on a 2-core machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import threading
from functools import partial
from http.server import ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import build_site  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
LONGTASKS = """
window.__longest = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
}).observe({ type: "longtask", buffered: true });
"""


class Counter:
    def __init__(self) -> None:
        self.bytes = 0
        self.lock = threading.Lock()

    def add(self, n: int) -> None:
        with self.lock:
            self.bytes += n


def serve(site: Path, counter: Counter):
    class Counting(build_site.Handler):
        def log_message(self, *a):
            pass

        def copyfile(self, source, outputfile):
            data = source.read()
            counter.add(len(data))
            outputfile.write(data)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(Counting, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"


def one_load(page, url: str, counter: Counter) -> dict[str, float]:
    counter.bytes = 0
    page.goto(url)
    page.get_by_test_id("status").filter(has_text="ready").wait_for(timeout=120_000)
    page.wait_for_selector("body[data-computed]", state="attached")
    t = page.evaluate("""() => ({
        first: performance.getEntriesByName('kvcalc:first-numbers')[0]?.startTime,
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
        ready: window.__kvcalc.timings.ready, longest: window.__longest,
        boot: window.__kvcalc.runtime.t })""")
    boot = t.pop("boot")     # the worker's own clock: phases since the worker started
    t["pyodide"] = boot["loadPyodide"] - boot["start"]
    t["install"] = boot["installed"] - boot["loadPyodide"]
    t["import"] = boot["imported"] - boot["installed"]
    lat = []
    for i in range(10):
        n = page.evaluate("() => window.__kvcalc.computed")
        page.get_by_test_id("gpu-count").fill(str(1 + (i + 1) % 2))
        page.wait_for_selector(f'body[data-computed="{n + 1}"]', state="attached")
        lat.append(page.evaluate("() => window.__kvcalc.timings.recompute"))
    t["recompute"] = statistics.median(lat)
    t["bytes"] = counter.bytes
    return t


def summarize(name: str, runs: list[dict[str, float]]) -> None:
    def med(k):
        vals = [r[k] for r in runs if r.get(k) is not None]
        return statistics.median(vals) if vals else float("nan")

    print(f"{name} ({len(runs)} loads, median):")
    print(f"  first numbers      {med('first'):8.0f} ms   (first contentful paint {med('fcp'):.0f} ms)")
    each = ", ".join(f"{r['ready']:.0f}" for r in runs)
    print(f"  ready              {med('ready'):8.0f} ms   (runs: {each})")
    print(f"    in the worker: Pyodide {med('pyodide'):.0f} ms, wheel unpacked {med('install'):.0f} ms, "
          f"kvcalc imported {med('import'):.0f} ms")
    print(f"  recompute          {med('recompute'):8.1f} ms")
    print(f"  longest main task  {med('longest'):8.0f} ms")
    print(f"  bytes transferred  {med('bytes'):8.0f}")


def main() -> int:
    ap = argparse.ArgumentParser(description="Benchmark the built page in Chromium")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-build", action="store_true")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    site = build_site.SITE if args.no_build else build_site.build()
    counter = Counter()
    httpd, url = serve(site, counter)
    exe = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
    print(f"machine: {os.cpu_count()} CPUs; browser: {exe}")
    with sync_playwright() as p:
        cold = []
        for _ in range(args.runs):
            browser = p.chromium.launch(executable_path=exe, args=ARGS)
            ctx = browser.new_context()
            ctx.add_init_script(LONGTASKS)
            cold.append(one_load(ctx.new_page(), url, counter))
            browser.close()
        warm = []
        with tempfile.TemporaryDirectory() as profile:
            ctx = p.chromium.launch_persistent_context(profile, executable_path=exe, args=ARGS)
            ctx.add_init_script(LONGTASKS)
            page = ctx.new_page()
            one_load(page, url, counter)  # fill the cache
            for _ in range(args.runs):
                warm.append(one_load(page, url, counter))
            ctx.close()
    httpd.shutdown()
    summarize("cold", cold)
    summarize("warm", warm)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
