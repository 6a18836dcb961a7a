"""Planning backwards: from a target (N requests of L tokens, a pool size) to the settings.

Every answer is a search over :func:`kvcalc.engine.calculate` — the same numbers the page
and the CLI show for one setting — so a plan never disagrees with the forward calculation.
The pool vLLM makes does not depend on ``--max-model-len`` (the budget is measured with
``max_num_batched_tokens``), which lets the context searches reuse one block count.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable

from . import paging
from .attention import automatic_backend, runs_flashinfer
from .catalog import Gpu
from .config_aliases import quantization_config
from .engine import Calculation, calculate, profile_off
from .errors import KvcalcError, SettingsError
from .messages import Text
from .kvspecs import _tp_ok, fa_keeps_cache, flashinfer_keeps_cache
from .quant_support import check_quantization_supported
from .settings import Settings, cudagraph_mode_in_effect
from .versions import NEWEST, Rule, Version, applies


def _pool_blocks(c: Calculation) -> int | None:
    """Blocks of the pool this calculation is about: the log's if given, else the estimate's."""
    p = c.from_log or c.estimated
    return p.num_blocks if p is not None else None


def _available(c: Calculation) -> int | None:
    p = c.from_log or c.estimated
    return p.available_bytes if p is not None else None


def concurrency_at(c: Calculation, max_model_len: int) -> float:
    """num_blocks / blocks per request at another --max-model-len (same pool)."""
    blocks = _pool_blocks(c) or 0
    per = paging.blocks_per_request(c.grouping, replace(c.ctx, max_model_len=max_model_len))
    return blocks / per if per else 0.0


def max_context_for(c: Calculation, requests: int, limit: int | None = None) -> int:
    """The longest --max-model-len at which ``requests`` full-length requests fit at once
    (max concurrency ≥ requests), and one request passes vLLM's fit check. 0 if none."""
    if requests < 1:
        raise SettingsError({"requests": Text("plan.at_least_one_got", value=requests)})
    top = limit or c.resolved.max_len_limit or c.resolved.max_model_len
    available = _available(c)
    if available is None or (_pool_blocks(c) or 0) == 0:
        return 0

    version = c.resolved.version
    pool = c.from_log or c.estimated
    targets = paging.fit_targets(c.grouping, c.layout.stages, version, list(pool.fit_bytes))

    def ok(length: int) -> bool:
        if concurrency_at(c, length) < requests:
            return False
        at = replace(c.ctx, max_model_len=length)      # the same check as engine._pool
        return all(paging.needed_bytes(t.grouping, at, version, t.specs) <= t.check_bytes for t in targets)

    return paging.largest_true(1, top, ok)


@dataclass(frozen=True)
class Setup:
    gpu: str
    gpu_name: str
    count: int
    pool_tokens: int
    concurrency: float
    headroom: float          # concurrency / requests
    total_memory_gib: float

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def valid_tp_sizes(c_or_arch: Any, candidates: Iterable[int] = (1, 2, 4, 8)) -> list[int]:
    arch = getattr(c_or_arch, "arch", c_or_arch)
    return [tp for tp in candidates if _tp_ok(arch, tp)]


def smallest_setups(config: dict[str, Any], settings: Settings, gpus: Iterable[Gpu], requests: int,
                    tokens: int, *, weights_bytes: int | None = None,
                    tp_sizes: Iterable[int] = (1, 2, 4, 8)) -> list[Setup]:
    """For each GPU, the fewest GPUs (a TP size the model's heads allow) whose fully estimated
    pool serves ``requests`` concurrent requests of ``tokens`` tokens; sorted by GPU count,
    then by the memory they add up to ("1 × H200" before "2 × H100")."""
    if requests < 1 or tokens < 1:
        raise SettingsError({"requests": Text("plan.requests_and_tokens")})
    out: list[Setup] = []
    for gpu in gpus:
        for tp in tp_sizes:
            if tp > 1 and gpu.unified_memory:
                break          # unified-memory machines (DGX Spark) are planned one at a time
            try:
                c = calculate(config, gpu, replace(settings, tensor_parallel_size=tp, max_model_len=tokens,
                                                   pipeline_parallel_size=1),
                              weights_bytes=weights_bytes)
            except KvcalcError:
                continue
            p = c.estimated
            if p is None or not p.fits or p.max_concurrency < requests:
                continue
            out.append(Setup(gpu.key, gpu.name, tp, p.tokens, p.max_concurrency,
                             p.max_concurrency / requests, round(tp * gpu.total_bytes / 2**30, 1)))
            break
    return sorted(out, key=lambda s: (s.count, s.total_memory_gib, s.gpu))


@dataclass(frozen=True)
class Lever:
    key: str                 # stable id for translations: kv_fp8, weights_fp8, weights_int4, tp, max_model_len,
                             # util, mm_video_off, language_model_only, compile_cache, cudagraph_mode, version
    value: str               # the lever's value (the TP size, the length, the release …)
    name: str
    flag: str
    concurrency: float
    gain: float | None       # concurrency / current concurrency (None when nothing fits now)
    pool_tokens: int
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _tower_options(config: dict[str, Any], base: Calculation) -> list[tuple[str, str, str, str, Settings, str]]:
    """For a model whose warm-up encodes a video: videos off (``--limit-mm-per-prompt`` video 0,
    the current limits kept), then images profiled instead; for any model whose towers are warmed
    up: text only (``--language-model-only``, from v0.17), which also frees the towers' weights."""
    from .reserve import largest_tower_item  # noqa: PLC0415
    r, s = base.resolved, base.resolved.settings
    item = None if profile_off(config, r) else \
        largest_tower_item(config, r.version, r.max_model_len, r.mm_limits, r.mm_processor)
    if item is None:
        return []
    out = []
    if item.modality == "video":
        limits = {**(r.mm_limits.as_dict() if r.mm_limits else {}), "video": 0}
        spelled = json.dumps(limits, separators=(",", ":"))
        out.append(("mm_video_off", spelled, "videos off", f"--limit-mm-per-prompt '{spelled}'",
                    replace(s, limit_mm_per_prompt=limits), "prompts with a video are then refused"))
    if applies(Rule.LANGUAGE_MODEL_ONLY, r.version):
        out.append(("language_model_only", "", "text only", "--language-model-only",
                    replace(s, language_model_only=True), "images, videos and audio are then refused"))
    return out


def _int4_format(gpu: Gpu, version: Version) -> str:
    """AWQ where vLLM loads it, else GPTQ (a V100 runs GPTQ's ExLlama kernel until v0.22, not AWQ:
    quant_support); the lever is skipped where neither loads."""
    try:
        check_quantization_supported({}, "awq", version, gpu.platform, gpu.compute_capability, gpu.name)
    except SettingsError:
        return "gptq"
    return "awq"


def levers(config: dict[str, Any], gpu: Gpu, settings: Settings, *, weights_bytes: int | None = None,
           measured_reserve_bytes: int | None = None) -> dict[str, Any]:
    """Each change worth trying from the current settings, with its effect on concurrency at the
    current --max-model-len (fully estimated, or from the user's measured reserve), ranked."""
    base = calculate(config, gpu, settings, weights_bytes=weights_bytes,
                     measured_reserve_bytes=measured_reserve_bytes)
    if base.resolved.auto_max_model_len and base.estimated is not None and base.estimated.fits:
        # auto fits the length to each pool (about 1x at any pool): compare at the length it fitted now
        settings = replace(base.resolved.settings, max_model_len=base.estimated.max_model_len)
        base = calculate(config, gpu, settings, weights_bytes=weights_bytes,
                         measured_reserve_bytes=measured_reserve_bytes)
    now = base.estimated.max_concurrency if base.estimated and base.estimated.fits else 0.0
    r = base.resolved
    s = settings
    options: list[tuple[str, str, str, str, Settings, str]] = []
    if base.kv.value_bytes > 1 and not base.kv.is_fp8:
        options.append(("kv_fp8", "fp8", "fp8 KV cache", "--kv-cache-dtype fp8", replace(s, kv_cache_dtype="fp8"),
                        "halves the bytes per token; check quality on your task"))
    quantized = quantization_config(config) is not None
    if not quantized and s.weights in ("auto", "bf16", "fp16"):
        options.append(("weights_fp8", "fp8", "FP8 weights", "an FP8 checkpoint", replace(s, weights="fp8"),
                        "e.g. a -FP8 variant of the model"))
        int4 = _int4_format(gpu, r.version)
        options.append(("weights_int4", int4, "int4 weights (AWQ/GPTQ)", "an AWQ or GPTQ checkpoint",
                        replace(s, weights=int4), "largest saving, some quality cost"))
    bigger = [tp for tp in valid_tp_sizes(base, (2, 4, 8, 16)) if tp > s.tensor_parallel_size]
    if bigger:
        tp = bigger[0]
        options.append(("tp", str(tp), f"{tp} GPUs (tensor parallel)", f"--tensor-parallel-size {tp}",
                        replace(s, tensor_parallel_size=tp), "per GPU figures; the pool is shared"))
    if s.avg_tokens and s.avg_tokens < r.max_model_len:
        options.append(("max_model_len", str(s.avg_tokens), "--max-model-len down to your average",
                        f"--max-model-len {s.avg_tokens}", replace(s, max_model_len=s.avg_tokens),
                        "longer requests are then refused"))
    if r.extensible_kv_cache and s.gpu_memory_utilization is not None and s.gpu_memory_utilization < 1.0:
        # v0.34's extensible cache measures vLLM's own headroom (Rule.EXTENSIBLE_KV_CACHE): unset means 1.0
        options.append(("util_unset", "1.0", "--gpu-memory-utilization left unset (1.0)",
                        "no --gpu-memory-utilization", replace(s, gpu_memory_utilization=None),
                        "v0.34 measures its own headroom; keep a lower share only for other processes on the GPU"))
    elif r.gpu_memory_utilization < 0.95:
        options.append(("util", "0.95", "utilization 0.95", "--gpu-memory-utilization 0.95",
                        replace(s, gpu_memory_utilization=0.95), "leave room for other processes"))
    options += _tower_options(config, base)
    if base.budget is not None and base.budget.term("first-start compile") is not None:
        options.append(("compile_cache", "warm", "restarts that reuse the compile cache",
                        "VLLM_CACHE_ROOT on a volume", replace(s, compile_cache="warm"),
                        "the first start still compiles; later starts load ~/.cache/vllm"))
    graphs = base.budget.term("CUDA graphs") if base.budget is not None else None
    if graphs is not None and graphs.bytes and \
            (cudagraph_mode_in_effect(r.settings) or "FULL_AND_PIECEWISE") == "FULL_AND_PIECEWISE":
        # the decode graphs, where graphs pay off most, stay; vLLM's estimate drops the piecewise ones
        options.append(("cudagraph_mode", "FULL_DECODE_ONLY", "CUDA graphs for decode batches only",
                         """--compilation-config '{"cudagraph_mode":"FULL_DECODE_ONLY"}'""",
                         replace(s, cudagraph_mode="FULL_DECODE_ONLY"),
                         "prefill and mixed batches then run without graphs"))
    if graphs is not None and graphs.bytes and \
            runs_flashinfer(r.settings.attention_backend, base.arch, gpu.target, r.version, base.kv.sixteen_bit,
                            fa_keeps_cache(base.kv.name), base.mm_prefix, flashinfer_keeps_cache(base.kv.name)):
        # FlashInfer's workspace sits in vLLM's graph estimate (reserve.FLASHINFER_WORKSPACE_BYTES): the
        # release's own pick drops it where FlashInfer was forced, Triton where FlashInfer is the pick
        forced = r.settings.attention_backend is not None and \
            automatic_backend(base.arch, gpu.target, r.version, base.kv.sixteen_bit,
                              fa_keeps_cache(base.kv.name), base.mm_prefix,
                              flashinfer_keeps_cache(base.kv.name)) != "FLASHINFER"
        other = "auto" if forced else "TRITON_ATTN"
        options.append(("attention_backend", other, f"attention backend {other}",
                        "without --attention-backend" if forced else "--attention-backend TRITON_ATTN",
                        replace(s, attention_backend=None if forced else other),
                        "FlashInfer's attention workspace leaves vLLM's CUDA-graph estimate; the kernels' speed "
                        "changes too"))
    if r.version < NEWEST:
        options.append(("version", str(NEWEST), f"vLLM {NEWEST}", f"vLLM {NEWEST}",
                        replace(s, vllm_version=str(NEWEST)), "defaults and accounting of the newest release"))
    out = []
    for key, value, name, flag, changed, note in options:
        try:
            c = calculate(config, gpu, changed, weights_bytes=weights_bytes,
                          measured_reserve_bytes=measured_reserve_bytes)
        except KvcalcError:
            continue
        p = c.estimated
        if p is None:
            continue
        conc = p.max_concurrency if p.fits else 0.0
        out.append(Lever(key, value, name, flag, conc, round(conc / now, 4) if now else None,
                         p.tokens if p.fits else 0, note))
    out.sort(key=lambda lv: lv.concurrency, reverse=True)
    return {"current": {"concurrency": now, "pool_tokens": base.estimated.tokens if base.estimated else 0,
                        "max_model_len": r.max_model_len},
            "levers": [lv.to_dict() for lv in out]}


def _smallest_share(ok: Callable[[float], bool], lo: int, hi: int) -> float:
    """The smallest --gpu-memory-utilization in thousandths from ``lo`` to ``hi`` for which ``ok``
    holds, given that it holds at ``hi`` and the pool only grows with the share."""
    while lo < hi:
        mid = (lo + hi) // 2
        if ok(mid / 1000):
            hi = mid
        else:
            lo = mid + 1
    return lo / 1000


def utilization_for(config: dict[str, Any], gpu: Gpu, settings: Settings, target_tokens: int, *,
                    weights_bytes: int | None = None,
                    measured_reserve_bytes: int | None = None) -> dict[str, Any]:
    """The smallest --gpu-memory-utilization (to 0.001) whose estimated pool reaches
    ``target_tokens``, and the --kv-cache-memory-bytes that gives that pool directly."""
    if target_tokens < 1:
        raise SettingsError({"target_tokens": Text("plan.at_least_one")})

    def pool(util: float) -> int:
        c = calculate(config, gpu, replace(settings, gpu_memory_utilization=util),
                      weights_bytes=weights_bytes, measured_reserve_bytes=measured_reserve_bytes)
        p = c.estimated
        return p.tokens if p is not None and p.fits else 0

    result: dict[str, Any] = {"target_tokens": target_tokens, "gpu_memory_utilization": None,
                              "kv_cache_memory_bytes": None}
    if pool(1.0) >= target_tokens:
        result["gpu_memory_utilization"] = _smallest_share(lambda u: pool(u) >= target_tokens, 1, 1000)
    c = calculate(config, gpu, settings, weights_bytes=weights_bytes,
                  measured_reserve_bytes=measured_reserve_bytes)
    per_block = max(paging.bytes_per_block(paging.project(c.grouping, st)) for st in c.layout.stages)
    if per_block:
        lo, hi = 1, 1
        while paging.capacity(c.grouping, hi, c.ctx, c.resolved.version).tokens < target_tokens:
            hi *= 2
        while lo < hi:
            mid = (lo + hi) // 2
            if paging.capacity(c.grouping, mid, c.ctx, c.resolved.version).tokens >= target_tokens:
                hi = mid
            else:
                lo = mid + 1
        result["kv_cache_memory_bytes"] = lo * per_block
        result["num_blocks"] = lo
    return result


def concurrency_curve(c: Calculation, points: int = 24) -> list[dict[str, float]]:
    """Concurrency against --max-model-len for the same pool, from 1K tokens (or less) to the
    model's limit, on a geometric grid; the page draws it."""
    top = c.resolved.max_len_limit or c.resolved.max_model_len
    start = min(1024, top)
    out = []
    for i in range(points):
        length = int(start * (top / start) ** (i / max(1, points - 1)))
        out.append({"max_model_len": length, "concurrency": concurrency_at(c, length)})
    return out


UTILIZATION_GRID = [x / 100 for x in range(50, 101, 5)]
"""The --gpu-memory-utilization values the pool chart always samples: 0.50 to 1.00 by 0.05."""


def pool_vs_utilization(config: dict[str, Any], gpu: Gpu, settings: Settings, *,
                        weights_bytes: int | None = None,
                        measured_reserve_bytes: int | None = None,
                        current: float | None = None) -> list[dict[str, float]]:
    """The estimated pool (tokens; 0 where vLLM would refuse to start because one request of
    max_model_len does not fit) against --gpu-memory-utilization, for the page's chart: the grid
    (``UTILIZATION_GRID``), the ``current`` share (the resolved one of the caller's calculation),
    and where the pool first holds one request (to 0.001, with the point just below it at 0,
    ``starting_share``), so the line runs through the current point and rises where vLLM starts,
    not between two grid points."""
    computed: dict[float, dict[str, float] | None] = {}     # each share is calculated once

    def sample(util: float) -> dict[str, float] | None:
        if util not in computed:
            try:
                c = calculate(config, gpu, replace(settings, gpu_memory_utilization=util),
                              weights_bytes=weights_bytes, measured_reserve_bytes=measured_reserve_bytes)
                p = c.estimated
                computed[util] = {"gpu_memory_utilization": util, "pool_tokens": p.tokens if p and p.fits else 0}
            except KvcalcError:
                computed[util] = None
        return computed[util]

    points = {u: sample(u) for u in UTILIZATION_GRID}
    if current is not None and UTILIZATION_GRID[0] <= current <= UTILIZATION_GRID[-1]:
        points[current] = sample(current)
    known = sorted((u, p) for u, p in points.items() if p is not None)
    for (u0, p0), (u1, p1) in zip(known, known[1:]):
        if p0["pool_tokens"] == 0 and p1["pool_tokens"] > 0:      # vLLM starts somewhere in (u0, u1]
            first = _smallest_share(lambda u: (sample(u) or {}).get("pool_tokens", 0) > 0,
                                    round(u0 * 1000) + 1, round(u1 * 1000))
            for u in (round(first * 1000 - 1) / 1000, first):
                points[u] = sample(u)
            break
    return [p for _, p in sorted(points.items()) if p is not None]


def starting_share(curve: list[dict[str, float]]) -> float | None:
    """The share of ``pool_vs_utilization``'s curve from which one request fits (its first point
    with a pool right after one without), None where every point or none has a pool."""
    return next((b["gpu_memory_utilization"] for a, b in zip(curve, curve[1:])
                 if a["pool_tokens"] == 0 < b["pool_tokens"]), None)
