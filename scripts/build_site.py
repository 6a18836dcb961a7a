#!/usr/bin/env python3
"""Assemble the self-contained static site in ``site/`` and optionally serve it.

    python scripts/build_site.py            # build site/
    python scripts/build_site.py --serve    # build, then serve on http://127.0.0.1:8000/

What goes into site/:
  index.html      web/index.html with the default result, the catalog, the validation table and
                  the FAQ numbers computed here by the core in CPython and embedded as JSON, so the
                  page shows real numbers before Python starts in the browser
  *.js, *.css     copied from web/
  pyodide/        the five core files of the pinned ``pyodide`` npm package (npm ci if missing)
  wheels/         kvcalc-<version>-py3-none-any.whl, built here from src/ (standard library only:
                  a pure-Python wheel is a zip with a dist-info) with each module's bytecode for
                  Pyodide's Python (compiled by that Pyodide under Node), plus manifest.json
  data/           data/*.json, as shipped inside the wheel

Needs only the standard library, Node's npm (once, for the pinned Pyodide) and a POSIX shell.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import html
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
SITE = ROOT / "site"
SRC = ROOT / "src"
DATA = ROOT / "data"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")

# The default view: what the page shows before (and right after) Python starts.
DEFAULT_MODEL = "Qwen/Qwen3-8B"
DEFAULT_GPU = "h100-sxm"
DEFAULT_SETTINGS = {"tensor_parallel_size": 1, "max_model_len": 32768, "avg_tokens": 4096}

sys.path.insert(0, str(SRC))
from kvcalc import __version__  # noqa: E402
from kvcalc.api import handle  # noqa: E402


def log(msg: str) -> None:
    print(f"build_site: {msg}", flush=True)


# --- Pyodide -----------------------------------------------------------------------------

def pinned_pyodide_version() -> str:
    return json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]


def ensure_pyodide() -> Path:
    pkg = ROOT / "node_modules" / "pyodide"
    want = pinned_pyodide_version()

    def have() -> str | None:
        try:
            return json.loads((pkg / "package.json").read_text())["version"]
        except (OSError, ValueError, KeyError):
            return None

    if have() != want or not all((pkg / f).exists() for f in PYODIDE_FILES):
        npm = shutil.which("npm")
        if npm is None:
            raise SystemExit("build_site: npm is needed once to fetch the pinned pyodide package "
                             "(apt-get install npm, or install Node.js), then run again")
        log(f"npm ci (pyodide {want})")
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=ROOT,
                       check=True)
    if have() != want:
        raise SystemExit(f"build_site: node_modules has pyodide {have()}, package.json pins {want}")
    return pkg


def copy_pyodide(dest: Path) -> None:
    pkg = ensure_pyodide()
    dest.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(pkg / name, dest / name)


# --- our wheel ---------------------------------------------------------------------------

def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def pyodide_bytecode(sources: list[tuple[str, bytes]], pyodide_dir: Path) -> list[tuple[str, bytes]]:
    """kvcalc's modules compiled by the Pyodide the page ships (scripts/compile_pyc.mjs under Node),
    as (wheel path, bytes) of kvcalc/__pycache__/*.cpython-314.pyc: the worker then imports without
    compiling (about 0.2 s of a cold start). Unchecked-hash pycs hold a hash of their source, so the
    wheel stays reproducible. [] when Node cannot run it: the page works the same, only slower."""
    node = shutil.which("node")
    if node is None:
        log("node not found: the wheel ships sources only (the page compiles them at start-up)")
        return []
    with tempfile.TemporaryDirectory() as tmp:
        for rel, data in sources:
            out = Path(tmp) / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(data)
        run = subprocess.run([node, str(ROOT / "scripts" / "compile_pyc.mjs"), str(pyodide_dir), tmp, "kvcalc"],
                             capture_output=True, text=True, timeout=300)
        cache = Path(tmp) / "kvcalc" / "__pycache__"
        if run.returncode != 0 or not cache.is_dir():
            log(f"bytecode not compiled (node exit {run.returncode}): {run.stderr.strip()[-300:]}")
            return []
        return [(p.relative_to(tmp).as_posix(), p.read_bytes()) for p in sorted(cache.rglob("*.pyc"))]


def build_wheel(dest: Path, pyodide_dir: Path | None = None) -> str:
    """A pure-Python wheel of src/kvcalc (symlinked data/ followed), reproducible byte for byte,
    with Pyodide's bytecode of each module when ``pyodide_dir`` is given (``pyodide_bytecode``)."""
    dest.mkdir(parents=True, exist_ok=True)
    name = f"kvcalc-{__version__}-py3-none-any.whl"
    dist_info = f"kvcalc-{__version__}.dist-info"
    files: list[tuple[str, bytes]] = []
    pkg = SRC / "kvcalc"
    for path in sorted(pkg.rglob("*")):
        rel = path.relative_to(SRC).as_posix()
        if "__pycache__" in rel or path.is_dir():
            continue
        if path.suffix in (".py", ".json", ".typed"):
            files.append((rel, path.read_bytes()))
    if not any(r.startswith("kvcalc/data/") for r, _ in files):  # symlink not followed
        for path in sorted(DATA.glob("*.json")):
            files.append((f"kvcalc/data/{path.name}", path.read_bytes()))
    if pyodide_dir is not None:
        files += pyodide_bytecode([(r, b) for r, b in files if r.endswith(".py")], pyodide_dir)
    metadata = (f"Metadata-Version: 2.1\nName: kvcalc\nVersion: {__version__}\n"
                "Summary: Reproduce, to the block, the KV cache pool vLLM prints at startup\n"
                "Requires-Python: >=3.11\nLicense: Apache-2.0\n")
    files += [
        (f"{dist_info}/METADATA", metadata.encode()),
        (f"{dist_info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: kvcalc build_site.py\n"
                               b"Root-Is-Purelib: true\nTag: py3-none-any\n"),
        (f"{dist_info}/top_level.txt", b"kvcalc\n"),
    ]
    record = "".join(f"{p},{_record_hash(b)},{len(b)}\n" for p, b in files)
    record += f"{dist_info}/RECORD,,\n"
    files.append((f"{dist_info}/RECORD", record.encode()))
    for old in dest.glob("kvcalc-*.whl"):
        old.unlink()
    with zipfile.ZipFile(dest / name, "w", zipfile.ZIP_DEFLATED) as zf:
        for rel, data in files:
            info = zipfile.ZipInfo(rel, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    (dest / "manifest.json").write_text(json.dumps({"kvcalc": name, "version": __version__}) + "\n")
    return name


# --- numbers computed by the core at build time ---------------------------------------------

_ZH: dict[str, str] = {}
"""The Chinese of every core sentence in the prerendered replies (their ``zh`` maps, merged)."""


def _ok(request: dict[str, Any]) -> dict[str, Any]:
    reply = handle(request)
    if not reply.get("ok"):
        raise SystemExit(f"build_site: core rejected {request}: {reply['error']['message']}")
    _ZH.update(reply.get("zh") or {})
    return reply["result"]


def estimate(model: str, gpu: str = DEFAULT_GPU, **settings: Any) -> dict[str, Any]:
    return _ok({"op": "estimate", "model": model, "config": None, "weights_bytes": None,
                "gpu": gpu, "settings": settings, "available_kv_gib": None})


def faq_numbers(newest: str) -> dict[str, Any]:
    """The cases the FAQ answers, each with its settings, computed by the core."""
    v = {"vllm_version": newest}

    def pick(r: dict[str, Any]) -> dict[str, Any]:
        e = r["estimated"]
        return {"tokens": e["tokens"], "kv_gib": e["available_gib"], "fits": e["fits"],
                "max_concurrency": e["max_concurrency"], "avg_requests": e["avg_requests"],
                "estimated_max_model_len": e["estimated_max_model_len"],
                "util": r["settings"]["gpu_memory_utilization"],
                "mnbt": r["settings"]["max_num_batched_tokens"],
                "max_model_len": r["settings"]["max_model_len"],
                "gpu": r["gpu"]["name"], "version": r["settings"]["vllm_version"]}

    qwen = estimate("Qwen/Qwen3-8B", max_model_len=32768, avg_tokens=4096, **v)
    qwen_fp8 = estimate("Qwen/Qwen3-8B", max_model_len=32768, kv_cache_dtype="fp8", **v)
    qwen_095 = estimate("Qwen/Qwen3-8B", max_model_len=32768, gpu_memory_utilization=0.95, **v)
    l70_1 = estimate("meta-llama/Llama-3.1-70B-Instruct", max_model_len=32768, weights="fp8", **v)
    l70_2 = estimate("meta-llama/Llama-3.1-70B-Instruct", max_model_len=32768, weights="fp8",
                     tensor_parallel_size=2, **v)
    oss = estimate("openai/gpt-oss-120b", max_model_len=131072, **v)
    auto = estimate("Qwen/Qwen3-8B", "l4", max_model_len="auto", **v)
    reserve = [t for t in qwen["budget"]["terms"] if t["name"] != "weights"]
    return {
        "version": newest,
        "qwen": pick(qwen), "qwen_fp8": pick(qwen_fp8), "qwen_095": pick(qwen_095),
        # from v0.34 (extensible KV cache, 1.0 by default) 0.95 takes cache away
        "qwen_095_less_gib": round(qwen["estimated"]["available_gib"]
                                   - qwen_095["estimated"]["available_gib"], 2),
        "llama70_tp1": pick(l70_1), "llama70_tp2": pick(l70_2),
        # --max-model-len auto: the length the pool fitted against the model's own
        "qwen_l4_auto": {**pick(auto), "fitted": auto["estimated"]["max_model_len"]},
        "oss120": {**pick(oss), "kv_bytes_per_token": oss["layout"]["kv_bytes_per_token"],
                   "groups": len(oss["layout"]["groups"])},
        "reserve_low_gib": round(sum(t["low_gib"] for t in reserve), 2),
        "reserve_high_gib": round(sum(t["high_gib"] for t in reserve), 2),
        "reserve_gib": round(sum(t["gib"] for t in reserve), 2),
    }


def log_entries() -> list[dict[str, Any]]:
    """Display fields (not numbers to compute with) of each public log, for the table."""
    logs = json.loads((DATA / "vllm_logs.json").read_text(encoding="utf-8"))
    logs = logs["logs"] if isinstance(logs, dict) else logs
    keep = ("id", "source", "model", "gpu", "gpu_total_gib", "tensor_parallel_size",
            "pipeline_parallel_size", "gpu_memory_utilization", "kv_cache_dtype", "max_model_len",
            "max_num_batched_tokens", "vllm_version", "quantization", "notes", "notes_zh")
    return [{k: e.get(k) for k in keep} for e in logs]


def prerender_data(wheel: str) -> dict[str, Any]:
    catalog = _ok({"op": "catalog"})
    newest = catalog["newest_version"]
    validation = _ok({"op": "validate"})
    faq = faq_numbers(newest)
    faq["faq_avg"] = DEFAULT_SETTINGS["avg_tokens"]
    faq["val_max_err"] = validation["summary"]["from_log_max_abs_error_pct"]
    request = {"op": "estimate", "model": DEFAULT_MODEL, "config": None, "weights_bytes": None,
               "gpu": DEFAULT_GPU, "settings": {**DEFAULT_SETTINGS, "vllm_version": newest},
               "available_kv_gib": None}
    return {
        "kvcalc_version": __version__, "pyodide_version": pinned_pyodide_version(), "wheel": wheel,
        "catalog": catalog, "default_request": request, "default_result": _ok(request),
        "validation": validation, "logs": log_entries(), "faq": faq, "zh": dict(_ZH),
    }


def _en_int(n: int) -> str:
    return f"{n:,}"


def render_index(data: dict[str, Any]) -> str:
    """Fill web/index.html: the embedded JSON plus the headline numbers as plain text (so they
    are there even before app.js runs; app.js re-renders them for the reader's locale)."""
    tpl = (WEB / "index.html").read_text(encoding="utf-8")
    r = data["default_result"]
    e = r["estimated"]
    # JSON inside <script type="application/json">: escape "<" so "</script>" cannot occur.
    blob = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    weights = next(t for t in r["budget"]["terms"] if t["name"] == "weights")
    fills = {
        "{{PRERENDER_JSON}}": blob,
        "{{pool_tokens}}": _en_int(e["tokens"]),
        "{{max_concurrency}}": f"{e['max_concurrency']:.2f}x",
        "{{avg_concurrency}}": f"{e['avg_requests']:.1f}" if e["avg_requests"] is not None else "–",
        "{{kv_gib}}": f"{e['available_gib']:.2f} GiB",
        "{{weights_gib}}": f"{weights['gib']:.2f} GiB",
        "{{kv_bytes_per_token}}": _en_int(r["layout"]["kv_bytes_per_token"]),
        "{{serve_command}}": html.escape(r["serve_command"]),
        "{{log_lines}}": html.escape("\n".join(e["log_lines"])),
    }
    for key, value in fills.items():
        if key not in tpl:
            raise SystemExit(f"build_site: web/index.html lacks the placeholder {key}")
        tpl = tpl.replace(key, value)
    return tpl


def build(site: Path = SITE) -> Path:
    if site.exists():
        shutil.rmtree(site)
    site.mkdir(parents=True)
    copy_pyodide(site / "pyodide")
    wheel = build_wheel(site / "wheels", site / "pyodide")
    (site / "data").mkdir()
    for path in sorted(DATA.glob("*.json")):
        shutil.copy2(path, site / "data" / path.name)
    for path in sorted(WEB.iterdir()):
        if path.is_file() and path.suffix in (".js", ".css", ".svg", ".ico"):
            shutil.copy2(path, site / path.name)
    (site / "index.html").write_text(render_index(prerender_data(wheel)), encoding="utf-8")
    total = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    log(f"built {site.relative_to(ROOT) if site.is_relative_to(ROOT) else site} "
        f"({total / 1e6:.1f} MB; wheel {wheel})")
    return site


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
                      ".json": "application/json", ".whl": "application/zip"}

    def log_message(self, fmt: str, *args: Any) -> None:  # quiet: one line per error only
        if args and str(args[1] if len(args) > 1 else "").startswith(("4", "5")):
            super().log_message(fmt, *args)


def serve(site: Path, host: str, port: int) -> None:
    httpd = http.server.ThreadingHTTPServer((host, port), partial(Handler, directory=str(site)))
    log(f"serving {site} at http://{host}:{httpd.server_address[1]}/  (Ctrl+C to stop)")
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--serve", action="store_true", help="serve site/ after building it")
    ap.add_argument("--no-build", action="store_true", help="with --serve: serve the existing site/")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    ap.add_argument("--out", type=Path, default=SITE, help="output folder (default site/)")
    args = ap.parse_args(argv)
    site = args.out.resolve()
    if not (args.serve and args.no_build):
        build(site)
    if args.serve:
        serve(site, args.host, args.port)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
