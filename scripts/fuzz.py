#!/usr/bin/env python3
"""A longer fuzzing campaign than the test suite runs: hostile configs, settings and logs.

    python3 scripts/fuzz.py                       # 2,000 cases per area, then the log timings
    python3 scripts/fuzz.py --examples 20000 --seconds 600 --seed 1
    python3 scripts/fuzz.py --pyodide             # the same cases in the page's Pyodide (site/ built)

Each case must end in a result or a documented error (``{"ok": false}`` with a KvcalcError
type), with finite JSON-safe numbers, and within ``--case-seconds``. A failing case is
shrunk (keys dropped, values simplified) and printed as a minimal repro. The script then
times ``parse_log`` on 1, 10 and 50 MB pastes and prints the per-MB cost (it should stay
flat: the parser is linear). Standard library only; hypothesis is not needed here.
Exit status 1 when any failure was found.

``--pyodide`` sends each case, as the JSON text the page's worker receives, to kvcalc running in the
built site's Pyodide under Node (scripts/pyodide_handle.mjs), where some inputs CPython refuses
cleanly overflow the WebAssembly stack and stop Python ("Pyodide stopped" failures); cases JSON
cannot spell (the page could not send them) are skipped.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import os
import random
import re
import reprlib
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from kvcalc import api  # noqa: E402
from kvcalc.catalog import load_models  # noqa: E402
from kvcalc.hf_config import read_model, show  # noqa: E402
from kvcalc.errors import KvcalcError  # noqa: E402
from kvcalc.logparse import parse_log  # noqa: E402
from kvcalc.settings import SIZE_SETTINGS, Settings  # noqa: E402
from kvcalc.validate import load_logs  # noqa: E402

ERROR_TYPES = {"ConfigError", "UnsupportedModelError", "SettingsError", "CatalogError",
               "VersionError", "KvcalcError", "RequestError"}


class Timeout(Exception):
    pass


NODE_STACK_KB = 500
"""Node's stack for Pyodide, cut below a browser worker's: a Chromium worker stopped on json.loads 5,000
deep and ast.parse 199 deep; Node's default stack (984 KB) took 10,000 and 199, 700 KB takes 199 no
more, and 500 KB stops at 3,000 and 150, so a case near the edge fails here before it fails a user."""


class PyodideRunner:
    """kvcalc's handle_json in the built site's Pyodide (scripts/pyodide_handle.mjs under Node), one
    request per line; restarted after a fatal error or a case that runs too long."""

    def __init__(self, site: Path) -> None:
        self.site = site
        self.proc: subprocess.Popen | None = None
        self.buffer = b""

    def _start(self) -> None:
        command = ["node", f"--stack-size={NODE_STACK_KB}", str(ROOT / "scripts" / "pyodide_handle.mjs"), str(self.site)]
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buffer = b""
        if self._line(180) != "READY":
            raise SystemExit(f"kvcalc fuzz: Pyodide did not start from {self.site} (build the site first)")

    def _line(self, seconds: float) -> str | None:
        """The next line the process prints, or None when it prints none in time or exits."""
        assert self.proc is not None and self.proc.stdout is not None
        deadline = time.monotonic() + seconds
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.proc.stdout], [], [], left)[0]:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 1 << 20)
            if not chunk:
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", "replace")

    def _stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def ask(self, text: str, seconds: float) -> tuple[str | None, str | None]:
        """(the reply's JSON, None), or (None, what went wrong)."""
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(text.encode() + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            self._stop()
            return None, "Pyodide stopped: its process is gone"
        deadline = time.monotonic() + seconds
        frames: list[str] = []      # what Python prints beside a fatal error: the frames it was in
        while True:
            line = self._line(deadline - time.monotonic())
            if line is None:
                self._stop()
                return None, f"ran past {seconds} s in Pyodide (or its process ended)"
            if line[:2] in ("R ", "F ", "E "):
                break
            if line.strip().startswith("File "):
                frames.append(line.strip())
        if line.startswith("F "):
            self._stop()
            where = f" in {frames[0][:160]}" if frames else ""
            return None, f"Pyodide stopped: {line[2:120]}{where}"
        if line.startswith("E "):
            return None, f"error outside handle_json in Pyodide: {line[2:200]}"
        return line[2:], None


RUNNER: PyodideRunner | None = None
"""Set by --pyodide: cases run there instead of in this CPython."""


def _as_page_sends(request: dict) -> dict:
    """The request as the page's worker would get it: read_model through an estimate."""
    if request.get("op") == "read_model":
        return {"op": "estimate", "config": request["config"], "gpu": "h100", "settings": {}}
    return request


def _run_in_pyodide(request: dict, case_seconds: int) -> str | None:
    assert RUNNER is not None
    try:
        text = json.dumps(_as_page_sends(request))
    except (TypeError, ValueError, RecursionError):
        return None     # JSON cannot spell it, so the page cannot send it
    reply, problem = RUNNER.ask(text, case_seconds)
    if problem is not None:
        return problem
    resp = json.loads(reply)
    if request.get("op") in ("parse_log", "read_command"):
        return check_envelope(resp)
    return check_response(resp)


def _alarm(signum, frame):
    raise Timeout()


def hostile(rng: random.Random):
    pick = rng.randrange(14)
    if pick == 0:
        return None
    if pick == 1:
        return rng.choice([True, False])
    if pick == 2:
        return rng.choice([0, -1, 1, 2, 3, 7, 16, 128, 4096, 10**9, 10**9 + 1, 2**63, 10**30, -10**9])
    if pick == 3:
        return rng.choice([0.0, -0.5, 0.5, 1.5, 1e-9, 1e308, -1e308, math.nan, math.inf, -math.inf])
    if pick == 4:
        return rng.choice(["", "8", "4096", "auto", "full_attention", "sliding_attention", "mamba",
                           "<script>alert(1)</script>", "x" * rng.randrange(1, 100_000)])
    if pick == 5:
        return [rng.choice([0, 1, "full_attention", None]) for _ in range(rng.randrange(0, 6))]
    if pick == 6:
        return {"factor": hostile(rng), "rope_type": rng.choice(["yarn", "dynamic", "linear", None])}
    if pick == 7:
        deep = inner = {}
        for _ in range(rng.choice([10, 1000, 50_000])):
            inner["a"] = {}
            inner = inner["a"]
        return deep
    if pick == 8:
        return {"quant_method": rng.choice(["awq", "gptq", "modelopt", "compressed-tensors", "fp8", 5]),
                "bits": hostile(rng), "group_size": hostile(rng), "config_groups": hostile(rng),
                "quantization": hostile(rng), "ignore": hostile(rng), "kv_cache_scheme": hostile(rng)}
    if pick == 9:
        return ["full_attention"] * rng.choice([1, 3, 100, 1_000_000])
    if pick == 11:      # JSON text nested deep: what overflowed json's C scanner in Pyodide
        depth = rng.choice([10, 100, 5000])
        return '{"a": ' + "[" * depth + "]" * depth + "}"
    return rng.randint(-2**70, 2**70) if pick == 10 else rng.choice([1, 2, 4, 8, 32, 64])


def check_envelope(resp) -> str | None:
    """Any reply: ok or a documented error, in strict JSON."""
    if not isinstance(resp, dict) or resp.get("ok") not in (True, False):
        return f"not a response: {str(resp)[:200]}"
    try:
        json.dumps(resp, allow_nan=False)
    except (TypeError, ValueError) as exc:
        return f"response is not strict JSON: {exc}"
    if not resp["ok"] and resp["error"].get("type") not in ERROR_TYPES:
        return f"error type {resp['error'].get('type')}"
    return None


def check_response(resp) -> str | None:
    """None when an estimate's answer keeps the contract, else what broke."""
    broken = check_envelope(resp)
    if broken is not None:
        return broken
    if resp["ok"]:
        r = resp["result"]
        lay = r["layout"]
        if not (lay["kv_bytes_per_token"] > 0 or
                (lay["kv_bytes_per_token"] == 0 and all(g["kind"] == "mamba" for g in lay["groups"]))):
            return f"kv_bytes_per_token {lay['kv_bytes_per_token']} for groups {[g['kind'] for g in lay['groups']]}"
        for part in ("estimated", "from_log"):
            p = r.get(part)
            if p and (not isinstance(p["tokens"], int) or p["tokens"] < 0):
                return f"{part}.tokens is {p['tokens']!r}"
        return None
    err = resp["error"]
    if err["type"] == "ConfigError":
        names = list(err.get("fields") or {})
        if len(names) != 1 or f"`{names[0]}`" not in err["message"]:
            return f"ConfigError does not name its field: {err['message'][:200]}"
    if len(err["message"]) > 2000:
        return f"error message of {len(err['message']):,} characters"
    return None


def run_case(request: dict, case_seconds: int) -> str | None:
    if RUNNER is not None:
        return _run_in_pyodide(request, case_seconds)
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(case_seconds)
    try:
        if request.get("op") == "read_model":
            try:
                arch = read_model(request["config"])
            except KvcalcError:
                return None
            for layer in arch.layers:
                if layer.kind in ("full", "sliding_window", "chunked_local", "mla") and \
                        (layer.num_kv_heads < 1 or layer.head_size < 1):
                    return f"layer with {layer.num_kv_heads} KV heads of size {layer.head_size}"
                if layer.kind == "sliding_window" and not (layer.window or 0) >= 1:
                    return f"sliding window {layer.window}"
            return None
        if request.get("op") == "parse_log":
            log = parse_log(request["text"])
            json.dumps(log.to_dict(), allow_nan=False)
            return None
        if request.get("op") == "read_command":
            return check_envelope(api.handle(request))
        return check_response(api.handle(request))
    except Timeout:
        return f"ran past {case_seconds} s"
    except BaseException as exc:  # noqa: BLE001 - reporting anything that escapes is the point
        if isinstance(exc, KeyboardInterrupt):
            raise
        return f"{type(exc).__name__}: {str(exc)[:200]}"
    finally:
        signal.alarm(0)


def _kind(problem: str) -> str:
    """The failure's class: exception type, or the broken rule without its numbers."""
    return re.sub(r"[0-9][0-9,.]*", "N", problem.split(":")[0])


def _copy(request: dict) -> dict:
    """Copy the dicts shrinking edits (request, config, text_config, settings); values are shared,
    so a value nested 50,000 deep is never walked."""
    out = dict(request)
    for where in ("config", "settings"):
        if isinstance(out.get(where), dict):
            out[where] = dict(out[where])
            if isinstance(out[where].get("text_config"), dict):
                out[where]["text_config"] = dict(out[where]["text_config"])
    return out


def shrink(request: dict, problem: str, case_seconds: int) -> dict:
    """Drop keys of the config / settings while the same kind of failure holds."""
    best = _copy(request)
    changed = True
    while changed:
        changed = False
        for where in ("config", "settings"):
            d = best.get(where)
            if isinstance(d, dict) and isinstance(d.get("text_config"), dict) and where == "config":
                d = d["text_config"]
            if not isinstance(d, dict):
                continue
            for key in list(d):
                trial = _copy(best)
                target = trial[where]
                if where == "config" and isinstance(target.get("text_config"), dict) and key in target["text_config"]:
                    target = target["text_config"]
                del target[key]
                p = run_case(trial, case_seconds)
                if p and _kind(p) == _kind(problem):
                    best, changed = trial, True
                    break
    return best


_REPRO = reprlib.Repr()
_REPRO.maxlevel, _REPRO.maxstring, _REPRO.maxother = 6, 80, 80
_REPRO.maxlist, _REPRO.maxdict = 8, 40


def _short(obj) -> str:
    """The repro as Python, long strings and lists elided ('xxx...xxx' is a long run of x)."""
    try:
        return _REPRO.repr(obj)
    except Exception:  # noqa: BLE001
        return show(obj)


def config_case(rng: random.Random, models) -> dict:
    cfg = copy.deepcopy(rng.choice(models).config)
    target = cfg["text_config"] if isinstance(cfg.get("text_config"), dict) and rng.random() < 0.8 else cfg
    keys = list(target) + ["head_dim", "sliding_window", "layer_types", "rope_scaling", "quantization_config",
                           "vision_config", "llm_config", "num_kv_shared_layers", "attention_chunk_size",
                           "hybrid_override_pattern", "block_configs", "num_nextn_predict_layers",
                           "preprocessor_config"]
    for key in rng.sample(keys, k=min(len(keys), rng.randint(1, 5))):
        if rng.random() < 0.25:
            target.pop(key, None)
        else:
            target[key] = hostile(rng)
    flags = rng.choice([{}, {"max_model_len": 4096}, {"tensor_parallel_size": 2}, {"pipeline_parallel_size": 2}])
    if rng.random() < 0.2:
        return {"op": "read_model", "config": cfg}
    return {"op": "estimate", "config": cfg, "gpu": rng.choice(["h100", "a100", "l4", "b200"]), "settings": flags}


SETTING_KEYS = list(Settings.__dataclass_fields__)


EAGLE3_HEAD = {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama", "hidden_size": 4096,
               "num_hidden_layers": 1, "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
               "intermediate_size": 14336, "vocab_size": 128256, "draft_vocab_size": 32000}


def hostile_drafter(rng: random.Random) -> object:
    """An EAGLE-3 head's config, plain or in the speculators format, with some values made hostile."""
    if rng.random() < 0.1:
        return hostile(rng)
    cfg = dict(EAGLE3_HEAD)
    for key in rng.sample(sorted(cfg) + ["target_hidden_size", "num_aux_hidden_states", "eagle_config"],
                          k=rng.randint(0, 3)):
        cfg[key] = hostile(rng)
    if rng.random() < 0.4:
        return {"speculators_model_type": rng.choice(["eagle3", "peagle", hostile(rng)]),
                "draft_vocab_size": cfg.pop("draft_vocab_size", None), "transformer_layer_config":
                cfg if rng.random() < 0.9 else hostile(rng)}
    return cfg


def settings_case(rng: random.Random, models) -> dict:
    settings = {}
    for key in rng.sample(SETTING_KEYS, k=rng.randint(1, 5)):
        if key == "mm_processor_kwargs" and rng.random() < 0.6:
            settings[key] = {k: rng.choice([1003520, 1, 0, 560, 281, hostile(rng), {"longest_edge": hostile(rng)}])
                             for k in rng.sample(["max_pixels", "size", "max_soft_tokens", "fps"], k=rng.randint(1, 3))}
        elif key == "limit_mm_per_prompt" and rng.random() < 0.6:
            settings[key] = {m: rng.choice([0, 1, 2, 999, hostile(rng), {"count": rng.randint(0, 3),
                                                                          "num_frames": rng.randint(1, 64)}])
                             for m in rng.sample(["image", "video", "audio", "vision"], k=rng.randint(1, 3))}
        elif key == "speculative" and rng.random() < 0.7:
            spec = {"method": rng.choice(["mtp", "eagle", "eagle3", "draft_model", "ngram", hostile(rng)]),
                    "num_speculative_tokens": rng.choice([1, 3, hostile(rng)]), "model": "acme/head"}
            if rng.random() < 0.5:
                spec["draft_config"] = hostile_drafter(rng)
            settings[key] = spec
            if rng.random() < 0.3:     # the page sends it as typed
                try:
                    settings[key] = json.dumps(spec)
                except (TypeError, ValueError, RecursionError):   # hostile values JSON cannot spell
                    pass
        elif key in SIZE_SETTINGS and rng.random() < 0.5:   # vLLM's size forms, typed as text
            settings[key] = rng.choice(["auto", "-1", "AUTO", "32k", "32K", "1.5K", "0.0001k", "8G", "1T", "9" * 29 + "t",
                                        "1e3", " 4096 ", "--1", "k", "٣k", "1" * 31])
        elif key == "weights" and rng.random() < 0.5:      # the formats vLLM refuses on old GPUs
            settings[key] = rng.choice(["awq", "gptq", "fp8", "mxfp4", "nvfp4", "int4"])
        else:
            settings[key] = hostile(rng)
    # GPUs below the quantization minimums (quant_support) and ROCm, beside the H100
    gpu = rng.choice(["h100", "h100", "t4", "v100-16g", "mi300x"])
    req = {"op": "estimate", "model": rng.choice(models).id, "gpu": gpu, "settings": settings}
    if rng.random() < 0.2:   # a drafter config the page fetched for the drafter the spec names
        req["drafter"] = {"id": rng.choice(["acme/head", hostile(rng)]), "config": hostile_drafter(rng)}
    if rng.random() < 0.2:
        req[rng.choice(["available_kv_gib", "gpu_total_gib", "weights_bytes"])] = hostile(rng)
    return req


def log_case(rng: random.Random, excerpts) -> dict:
    text = rng.choice(excerpts)
    for _ in range(rng.randint(0, 5)):
        i = rng.randrange(len(text) + 1)
        op = rng.randrange(5)
        if op == 0:
            text = text[:i]
        elif op == 1:
            text = text[:i] + "".join(chr(rng.randrange(0, 0x3000)) for _ in range(rng.randrange(50))) + text[i:]
        elif op == 2:
            text = text[:i] + text[i:i + 100] * rng.randrange(1, 300) + text[i:]
        elif op == 3:
            text = text.replace("\n", rng.choice(["\r\n", "\r", "\x0b", "\u2028"]))
        else:
            text = text[:i] + rng.choice(["9" * 5000, "{" * 3000, "Using " * 2000, "<script>alert(1)</script>",
                                          "'a': (1, 2), (3,): {4}", "1e999",
                                          # nested past what ast's parser survives in Pyodide
                                          "\nllm = LLM(model='Qwen/Qwen3-8B', x=" + "[" * 199 + "]" * 199 + ")\n",
                                          "{'model': 'Qwen/Qwen3-8B', 'x': " + "(" * 199 + ")" * 199 + "}",
                                          # chains ast's parser recurses through once per step
                                          "\nLLM('Qwen/Qwen3-8B', max_model_len=" + rng.choice(
                                              ["- ", "not ", "lambda: ", "2**", "1+", "a.", "~", "f(1)", "x[1]"])
                                          * rng.choice([250, 2000]) + "1)\n",
                                          # closing brackets in a comment, then a deep value
                                          "\nLLM('m',\n# " + ")" * 300 + "\nx=" + "[" * 199 + "]" * 199 + ")\n"]) + text[i:]
    # the page reads a paste as a command (serve, Compose, LLM(...)) too
    return {"op": "read_command" if rng.random() < 0.3 else "parse_log", "text": text}


def time_logs(excerpts) -> list[tuple[int, float]]:
    real = "\n".join(excerpts) + "\n"
    out = []
    for mb in (1, 10, 50):
        text = real * (mb * 1_000_000 // len(real) + 1)
        start = time.perf_counter()
        parse_log(text)
        out.append((mb, time.perf_counter() - start))
    hostile_line = "\n".join(["with config: " + "a" * 19_990, "backend " + "Using " * 3_300,
                              "Free memory on device (1/2 GiB) on startup. Desired GPU memory utilization is "
                              "(0.9, 1 GiB)" + "1" * 19_900]) + "\n"
    text = hostile_line * (10_000_000 // len(hostile_line) + 1)
    start = time.perf_counter()
    parse_log(text)
    out.append((-10, time.perf_counter() - start))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--examples", type=int, default=2000, help="cases per area (configs, settings, logs)")
    ap.add_argument("--seconds", type=float, default=300, help="stop the campaign after this many seconds")
    ap.add_argument("--case-seconds", type=int, default=20, help="a case running longer is a failure")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--no-timings", action="store_true", help="skip the 1/10/50 MB log timings")
    ap.add_argument("--pyodide", nargs="?", const=str(ROOT / "site"), default=None, metavar="SITE",
                    help="run the cases in the built site's Pyodide under Node (default site/)")
    args = ap.parse_args(argv)
    global RUNNER
    if args.pyodide is not None:
        RUNNER = PyodideRunner(Path(args.pyodide))
        args.no_timings = True      # the timings are CPython's
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    models = load_models()
    excerpts = [e["excerpt"] for e in load_logs() if e.get("excerpt")]
    makers = {"configs": lambda: config_case(rng, models), "settings": lambda: settings_case(rng, models),
              "logs": lambda: log_case(rng, excerpts)}
    tried = {k: 0 for k in makers}
    failures: dict[str, list[tuple[str, dict]]] = {k: [] for k in makers}
    seen: set[str] = set()
    start = time.monotonic()
    where = f", in Pyodide ({args.pyodide})" if RUNNER is not None else ""
    print(f"kvcalc fuzz: seed {seed}, up to {args.examples:,} cases per area, {args.seconds:g} s{where}")
    while time.monotonic() - start < args.seconds and min(tried.values()) < args.examples:
        for area, make in makers.items():
            if tried[area] >= args.examples:
                continue
            req = make()
            tried[area] += 1
            problem = run_case(req, args.case_seconds)
            if problem is None:
                continue
            key = f"{area}:{_kind(problem)}:{re.sub(r'[0-9][0-9,.]*', 'N', problem)[:80]}"
            if key in seen:
                continue
            seen.add(key)
            failures[area].append((problem, shrink(req, problem, args.case_seconds)))
    elapsed = time.monotonic() - start
    total = sum(len(v) for v in failures.values())
    print(f"\ncases tried: " + ", ".join(f"{k} {v:,}" for k, v in tried.items())
          + f" ({sum(tried.values()):,} in {elapsed:.1f} s)")
    print(f"distinct failures: {total}")
    for area, items in failures.items():
        for problem, req in items:
            call = (f"api.handle({_short(req)})" if req.get("op") not in ("read_model", "parse_log")
                    else f"{req['op']}({_short(req.get('config', req.get('text')))})")
            print(f"\n[{area}] {problem}\n  repro: {call}")
    if not args.no_timings:
        print("\nparse_log timings (real startup-log lines repeated):")
        for mb, secs in time_logs(excerpts):
            if mb > 0:
                print(f"  {mb:>3} MB  {secs:7.2f} s  {secs / mb * 1000:7.1f} ms/MB")
            else:
                print(f"  {-mb:>3} MB of adversarial 20 KB lines  {secs:7.2f} s  {secs / -mb * 1000:7.1f} ms/MB")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
