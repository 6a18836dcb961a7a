"""The JSON boundary: one request dict in, one plain dict out.

The CLI builds these requests from its flags; the page's Web Worker sends the same
requests as JSON strings (:func:`handle_json`). Errors come back as
``{"ok": false, "error": {"type", "message", "fields"}}`` — never a traceback.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from typing import Any

from . import __version__, textdepth
from .catalog import GPU_CLASS_LABELS, Gpu, find_gpu, find_model, gpu_class, load_gpus, load_models
from .dtypes import KV_CACHE_DTYPE_CHOICES
from .engine import calculate
from .errors import CatalogError, ConfigError, KvcalcError, SettingsError
from .messages import Text, message_of, translations
from .report import calculation_dict
from .settings import DRAFTER_METHODS, ENV_SETTINGS, VLLM_SPELLING, Settings, Speculative
from .versions import KNOWN_RELEASES, NEWEST, rules_table
from .weights import WEIGHT_FORMATS

_SETTING_KEYS = {f for f in Settings.__dataclass_fields__ if f != "speculative"}


def _finite_number(value: Any, key: str, low: float, high: float) -> float:
    """A real number in (low, high]; anything else is a SettingsError naming ``key``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not math.isfinite(value) or not low < value <= high:
        shown = repr(value) if isinstance(value, (int, float, str, type(None))) else type(value).__name__
        raise SettingsError({key: Text("request.number_range", low=low, high=high, value=shown[:40])})
    return float(value)


def settings_from_dict(d: dict[str, Any] | None) -> Settings:
    if d is not None and not isinstance(d, dict):
        raise SettingsError({"settings": Text("request.settings_object", got=type(d).__name__)})
    d = dict(d or {})
    unknown = sorted(set(d) - _SETTING_KEYS - {"speculative"})
    if unknown:
        raise SettingsError({k: Text("request.unknown_setting") for k in unknown})
    spec = d.pop("speculative", None)
    if isinstance(spec, str):     # the page's field: vLLM's --speculative-config JSON as typed
        try:
            spec = textdepth.loads(spec) if spec.strip() else None
        except ValueError as exc:
            raise SettingsError({"--speculative-config": Text("request.speculative_json",
                                                              error=str(exc)[:80])}) from exc
    speculative = None
    if spec:
        if not isinstance(spec, dict) or not isinstance(spec.get("method"), str):
            raise SettingsError({"--speculative-config": Text("request.speculative_object")})
        speculative = Speculative(
            method=spec["method"][:64],
            num_speculative_tokens=spec.get("num_speculative_tokens"),
            draft_config=spec.get("draft_config"), model=spec.get("model"))
    clean = {k: v for k, v in d.items() if v is not None}
    return Settings(**clean, speculative=speculative)


def custom_gpu(total_gib: float, base: Gpu | None = None) -> Gpu:
    """A GPU known only by its CUDA total (e.g. from a log's 'Free memory on device (F/T GiB)')."""
    total_gib = _finite_number(total_gib, "gpu_total_gib", 0, 16384)
    b = base
    # Without a catalog entry, assume an Ada-class CUDA GPU: it decides bf16 support, the MLA
    # backend's block size and the one-GPU non-torch figure (reserve.single_gpu_non_torch_gib:
    # 0.04 GiB before Hopper; a Hopper or later card keeps about 0.09 GiB more).
    return Gpu(b.key if b else "custom", b.name if b else f"GPU with {total_gib} GiB",
               int(total_gib * (1 << 30)), b.cuda_names if b else (), (),
               b.arch if b else "ada", b.compute_capability if b else "8.9",
               b.platform if b else "cuda", b.vendor if b else "", b.unified_memory if b else False, (),
               b.peer_to_peer if b else True, b.nvswitch if b else False, b.nvlink_all_pairs if b else False,
               b.driver_blocks_peer_to_peer if b else False)


def resolve_model(req: dict[str, Any]) -> tuple[str, dict[str, Any], int | None]:
    model = req.get("model")
    if model is not None and not isinstance(model, str):
        raise SettingsError({"model": Text("request.model_id")})
    model_id = (model or "")[:200]
    config = req.get("config")
    weights = req.get("weights_bytes")
    if weights is not None:
        if isinstance(weights, bool) or not isinstance(weights, int) or not 0 < weights <= 1 << 50:
            raise SettingsError({"weights_bytes": Text("settings.weights_bytes")})
    if config is None:
        if not model_id:
            raise SettingsError({"model": Text("request.model_missing")})
        entry = find_model(model_id)
        if entry is None:
            raise CatalogError(Text("request.model_not_in_catalog", model=repr(model_id)))
        config = entry.config
        weights = weights if weights is not None else entry.weights_bytes
    return model_id, config, weights


def with_drafter(settings: Settings, drafter: Any) -> Settings:
    """The drafter config a caller fetched (``{"id", "config"}``: the page reads the drafter's
    config.json from Hugging Face, the CLI in hub.py) put into the speculative config that names
    that drafter, unless it carries one already; anything else leaves the settings as they are."""
    spec = settings.speculative
    if spec is None or spec.draft_config is not None or not isinstance(drafter, dict) or \
            not isinstance(drafter.get("config"), dict) or not spec.model or drafter.get("id") != spec.model:
        return settings
    return replace(settings, speculative=replace(spec, draft_config=drafter["config"]))


def _inputs(req: dict[str, Any]) -> tuple[str, dict[str, Any], int | None, Gpu, Settings, int | None]:
    model_id, config, weights = resolve_model(req)
    gpu_key = req.get("gpu") or "h100-sxm"
    if not isinstance(gpu_key, str):
        raise SettingsError({"gpu": Text("request.gpu_key")})
    gpu = find_gpu(gpu_key[:120])
    if req.get("gpu_total_gib") is not None:
        gpu = custom_gpu(req["gpu_total_gib"], gpu)
    reserve = req.get("measured_reserve_gib")
    if reserve is not None and (isinstance(reserve, bool) or not isinstance(reserve, (int, float))
                                or not 0 <= reserve < 1e4):
        raise SettingsError({"measured_reserve_gib": Text("request.gib_number", value=repr(reserve))})
    reserve_bytes = int(reserve * (1 << 30)) if reserve is not None else None
    settings = with_drafter(settings_from_dict(req.get("settings")), req.get("drafter"))
    return model_id, config, weights, gpu, settings, reserve_bytes


def estimate(req: dict[str, Any]) -> dict[str, Any]:
    model_id, config, weights, gpu, settings, reserve = _inputs(req)
    calc = calculate(config, gpu, settings, model_id=model_id, weights_bytes=weights,
                     available_kv_gib=_available(req), measured_reserve_bytes=reserve)
    out = calculation_dict(calc)
    if req.get("curves"):
        from .plan import (concurrency_curve, max_context_for, pool_vs_utilization,  # noqa: PLC0415
                           starting_share)
        by_share = pool_vs_utilization(config, gpu, settings, weights_bytes=weights, measured_reserve_bytes=reserve,
                                       current=calc.resolved.gpu_memory_utilization)
        out["curves"] = {"concurrency_vs_max_model_len": concurrency_curve(calc),
                         "pool_vs_utilization": by_share,
                         # the share from which one request fits (None: every share or none)
                         "utilization_one_request": starting_share(by_share),
                         # the longest --max-model-len at which one request still fits (0: none)
                         "max_model_len_one_request": max_context_for(calc, 1)}
    return out


def _available(req: dict[str, Any]) -> float | None:
    value = req.get("available_kv_gib")
    return None if value is None else _finite_number(value, "available_kv_gib", 0, 16384)


def _positive(req: dict[str, Any], key: str) -> int:
    value = req.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise SettingsError({key: Text("request.positive_int", value=repr(value))})
    return value


def plan(req: dict[str, Any]) -> dict[str, Any]:
    """N requests of L tokens: the longest context N requests get on the chosen setup, and the
    smallest setup of each catalog GPU that serves them."""
    from .plan import max_context_for, smallest_setups  # noqa: PLC0415

    model_id, config, weights, gpu, settings, reserve = _inputs(req)
    requests, tokens = _positive(req, "requests"), _positive(req, "tokens")
    calc = calculate(config, gpu, settings, model_id=model_id, weights_bytes=weights,
                     available_kv_gib=_available(req), measured_reserve_bytes=reserve)
    setups = smallest_setups(config, settings, load_gpus(), requests, tokens, weights_bytes=weights)
    return {"requests": requests, "tokens": tokens,
            "max_context_for_requests": max_context_for(calc, requests),
            "setups": [s.to_dict() for s in setups]}


def levers(req: dict[str, Any]) -> dict[str, Any]:
    from .plan import levers as rank_levers, utilization_for  # noqa: PLC0415

    _, config, weights, gpu, settings, reserve = _inputs(req)
    out = rank_levers(config, gpu, settings, weights_bytes=weights, measured_reserve_bytes=reserve)
    if req.get("target_tokens") is not None:
        out["utilization_for_target"] = utilization_for(config, gpu, settings, _positive(req, "target_tokens"),
                                                        weights_bytes=weights, measured_reserve_bytes=reserve)
    return out


def catalog() -> dict[str, Any]:
    return {
        "kvcalc_version": __version__,
        "gpus": [{"key": g.key, "name": g.name, "total_bytes": g.total_bytes, "vendor": g.vendor,
                  "class": gpu_class(g)} for g in load_gpus()],
        "gpu_classes": [{"key": c, "label": label} for c, label in GPU_CLASS_LABELS.items()],
        "models": [{"id": m.id, "name": m.name, "family": m.family} for m in load_models()],
        "vllm_versions": list(KNOWN_RELEASES), "newest_version": str(NEWEST),
        "kv_cache_dtypes": list(KV_CACHE_DTYPE_CHOICES), "weight_formats": list(WEIGHT_FORMATS),
        "drafter_methods": list(DRAFTER_METHODS),
        "setting_spelling": dict(VLLM_SPELLING),
        "rules": rules_table(),
        # the page refuses a config.json nested deeper, so the request carrying it stays within textdepth's limit
        "config_max_depth": textdepth.CONFIG_MAX_DEPTH,
    }


def guess_gpu(total_gib: float) -> Gpu | None:
    """The catalog GPU whose CUDA total is closest to a log's "(free/total GiB)", within 0.5%."""
    best = min(load_gpus(), key=lambda g: abs(g.total_gib - total_gib))
    return best if abs(best.total_gib - total_gib) <= 0.005 * total_gib else None


ECC_SHARE = 1 / 16
"""The share of a GDDR card's memory its ECC keeps when turned on (nvidia-smi 49,140 MiB with ECC off,
46,068 MiB with it on, on L40S, L20 and RTX A6000 boards; an L20 start with ECC off prints a 47.37 GiB
total where the catalog's, with ECC on, is 44.39)."""


def same_card_with_ecc_toggled(gpu: Gpu, total_gib: float) -> bool:
    """Whether a log's total is the catalog card's with ECC switched the other way (within 0.5%)."""
    return any(abs(gpu.total_gib * f - total_gib) <= 0.005 * total_gib for f in (1 / (1 - ECC_SHARE), 1 - ECC_SHARE))


def gpu_for_log_total(total_gib: float, caller: str | None) -> Gpu | None:
    """The GPU a pasted log ran on, from the total it printed and the GPU the caller (the page's form)
    names: the closest catalog total (``guess_gpu``), unless the caller's card fits as well (several
    GPUs share a total) or is that card with ECC toggled (``same_card_with_ecc_toggled``): a total
    alone cannot tell an ECC-off L20 from another 48 GB card, the form can."""
    guessed = guess_gpu(total_gib)
    try:
        mine = find_gpu(str(caller)) if caller else None
    except KvcalcError:
        mine = None
    if mine is None:
        return guessed
    if guessed is not None and abs(mine.total_gib - total_gib) <= abs(guessed.total_gib - total_gib) + 0.01:
        return mine
    return mine if same_card_with_ecc_toggled(mine, total_gib) else guessed


def log_total_differs(gpu: Gpu, total_gib: float) -> bool:
    """Whether a log's two-decimal total says more than the catalog's (beyond its 0.005 GiB rounding)."""
    return abs(gpu.total_gib - total_gib) > 0.005


UNSTATED_BY_FLAGS = ("vllm_version", "weights", "avg_tokens", "entrypoint", "compile_cache", "pinned_memory",
                     "peer_to_peer", *ENV_SETTINGS)
"""What a log's non-default args or a serve command leave unsaid, so the form's choice stands: the
release (unless a log or an image tag names it), the checkpoint's format (a model id may name a
quantized variant the catalog lacks), kvcalc's own settings and vLLM's environment variables."""


def compare_log(req: dict[str, Any]) -> dict[str, Any]:
    """Paste → the settings the log shows, and its numbers beside kvcalc's (see compare.py)."""
    from .compare import compare  # noqa: PLC0415
    from .logparse import parse_log  # noqa: PLC0415

    text = req.get("text")
    parsed = parse_log(text if isinstance(text, str) else "")
    if not parsed.available_kv_cache_gib and parsed.error and \
            "less than desired GPU memory utilization" in parsed.error and \
            parsed.free_memory_gib is not None and parsed.total_memory_gib:
        # the start was refused before any sizing (and no later start in the paste got further):
        # say what would have let it start
        raise KvcalcError(Text(
            "log.util_error", free=parsed.free_memory_gib, total=parsed.total_memory_gib,
            util=parsed.requested_util, wanted=parsed.requested_gib,
            most=math.floor(parsed.free_memory_gib / parsed.total_memory_gib * 100) / 100))
    if not parsed.found_anything or not parsed.available_kv_cache_gib:
        raise SettingsError({"log": Text("log.nothing_usable")})
    if parsed.host_kv_pool:
        raise KvcalcError(Text("log.host_pool"))
    # "fallback": what the caller (the page's form) holds, used only where the log is silent:
    # {"model", "config", "weights_bytes", "gpu", "settings": {...}}. A log that printed its
    # "non-default args" has stated every flag it changed, so then only what a log never states
    # (release, checkpoint format, average length, environment variables such as
    # VLLM_USE_FLASHINFER_SAMPLER unless a sampler line names it or
    # VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS unless the profiler line does, the compile cache's state
    # unless a compile line shows it, pinned memory unless the WSL line says it is off) falls back. "filled_from_form" lists the
    # model, GPU and settings taken from the fallback.
    fallback = req.get("fallback") if isinstance(req.get("fallback"), dict) else {}
    filled: list[str] = []
    settings = {k: v for k, v in parsed.settings().items() if k in _SETTING_KEYS or k == "speculative"}
    for k, v in (fallback.get("settings") or {}).items():
        if v is None or k in settings or k not in _SETTING_KEYS:
            continue
        if parsed.non_default_args and k not in UNSTATED_BY_FLAGS:
            continue
        settings[k] = v
        if k not in ("avg_tokens", "entrypoint"):
            filled.append(k)
    settings.update({k: v for k, v in (req.get("settings") or {}).items() if v is not None})
    model = req.get("model") or (parsed.model if parsed.model and find_model(parsed.model) else None)
    if not model and req.get("config") is None and (fallback.get("model") or fallback.get("config")):
        model = fallback.get("model")
        req = {**req, "config": fallback.get("config"), "weights_bytes": fallback.get("weights_bytes")}
        filled.append("model")
    if not model and req.get("config") is None:
        raise SettingsError({"model": Text("log.model_not_in_catalog", model=repr(parsed.model))
                             if parsed.model else Text("log.no_model")})
    gpu_key = req.get("gpu")
    gpu_total_gib = req.get("gpu_total_gib")
    log_total = parsed.total_memory_gib
    if not gpu_key and log_total:
        chosen = gpu_for_log_total(log_total, fallback.get("gpu"))
        gpu_key = chosen.key if chosen else None
    if not gpu_key and gpu_total_gib is None and fallback.get("gpu"):
        gpu_key = fallback["gpu"]
        filled.append("gpu")
        if not log_total and fallback.get("gpu_total_gib") is not None:
            gpu_total_gib = fallback["gpu_total_gib"]     # the form's own total for its card
    if gpu_key and gpu_total_gib is None and log_total:
        # the log's own memory, where it says more than the catalog's (driver drift, ECC, WSL),
        # also on the form's card when no catalog total is near the log's
        try:
            if log_total_differs(find_gpu(str(gpu_key)), log_total):
                gpu_total_gib = log_total
        except KvcalcError:
            pass    # an unknown GPU is reported where the inputs are read
    if not gpu_key and req.get("gpu_total_gib") is None:
        raise SettingsError({"gpu": Text("log.no_gpu")})
    inner = {"model": model, "config": req.get("config"), "weights_bytes": req.get("weights_bytes"),
             "gpu": gpu_key, "gpu_total_gib": gpu_total_gib, "settings": settings,
             "drafter": req.get("drafter")}
    model_id, config, weights, gpu, parsed_settings, _ = _inputs(inner)
    calc = calculate(config, gpu, parsed_settings, model_id=model_id, weights_bytes=weights,
                     available_kv_gib=min(parsed.available_kv_cache_gib), committed_blocks=parsed.committed_blocks)
    out = compare(parsed, calc)
    out["gpu"] = gpu.key
    out["gpu_total_gib"] = gpu_total_gib      # the memory the comparison used, where not the catalog's
    out["model"] = model_id or out["model"]
    out["settings"] = settings
    out["log"] = parsed.to_dict()
    out["filled_from_form"] = filled
    out["calculation"] = calculation_dict(calc)   # raw numbers of both pools, for display
    return out




def command_settings(req: dict[str, Any]) -> dict[str, Any]:
    """A pasted ``vllm serve`` command or ``LLM(...)`` call (commandline.read_command), with the entry
    point it runs on and what it leaves unsaid taken from ``fallback.settings`` (the form) for the
    settings in UNSTATED_BY_FLAGS; the form's release judges whether vLLM would start with the line
    where the line names none."""
    from .commandline import read_command  # noqa: PLC0415
    fallback = req.get("fallback") if isinstance(req.get("fallback"), dict) else {}
    kept = fallback.get("settings") if isinstance(fallback.get("settings"), dict) else {}
    release = kept.get("vllm_version")
    out = read_command(req.get("text"), release if isinstance(release, str) else None)
    out["settings"]["entrypoint"] = out["kind"]     # a serve line is vllm serve, a call the LLM class
    for key in UNSTATED_BY_FLAGS:
        if key not in out["settings"] and kept.get(key) is not None:
            out["settings"][key] = kept[key]
    return out


def _error(exc: KvcalcError) -> dict[str, Any]:
    fields: dict[str, str] = {}
    message = message_of(exc)
    if isinstance(exc, SettingsError):
        fields = exc.problems
    elif isinstance(exc, ConfigError):
        fields = {exc.field: exc.text}
    return _translated({"ok": False, "error": {"type": type(exc).__name__, "message": message,
                                               "fields": fields}})


def _translated(reply: dict[str, Any]) -> dict[str, Any]:
    """Add ``"zh"``: the Chinese of every core sentence in the reply (messages.py)."""
    reply["zh"] = translations(reply)
    return reply


def handle(request: dict[str, Any]) -> dict[str, Any]:
    """Dispatch one request: ops "estimate", "catalog", "validate", "plan", "levers", "parse_log",
    "compare_log", "read_command"."""
    if not isinstance(request, dict):
        return _error(SettingsError({"request": Text("request.not_object")}))
    try:
        op = request.get("op", "estimate")
        if op == "estimate":
            return _translated({"ok": True, "result": estimate(request)})
        if op == "catalog":
            return _translated({"ok": True, "result": catalog()})
        if op == "plan":
            return _translated({"ok": True, "result": plan(request)})
        if op == "levers":
            return _translated({"ok": True, "result": levers(request)})
        if op == "parse_log":
            from .logparse import parse_log  # noqa: PLC0415
            parsed = parse_log(request.get("text") if isinstance(request.get("text"), str) else "")
            return _translated({"ok": True, "result": parsed.to_dict()})
        if op == "compare_log":
            return _translated({"ok": True, "result": compare_log(request)})
        if op == "read_command":
            return _translated({"ok": True, "result": command_settings(request)})
        if op == "validate":
            from .validate import validate_logs
            logs = request.get("logs")
            if logs is not None and (not isinstance(logs, list) or not all(isinstance(e, dict) for e in logs)):
                raise SettingsError({"logs": Text("request.logs_list")})
            return _translated({"ok": True, "result": validate_logs(logs)})
        shown = op if isinstance(op, str) else type(op).__name__
        raise SettingsError({"op": Text("request.unknown_op", op=repr(shown[:40]))})
    except KvcalcError as exc:
        return _error(exc)
    except RecursionError:
        return _error(SettingsError({"request": Text("request.too_deep")}))


def handle_json(text: str) -> str:
    """``handle`` over JSON strings, for the Web Worker, where nesting too deep for json's scanner would
    stop Python for good (textdepth): it gets the message ``handle`` gives a request too deep to handle."""
    try:
        request = textdepth.loads(text, constants=True)
    except textdepth.TooDeep:
        return json.dumps(_error(SettingsError({"request": Text("request.too_deep")})))
    except (ValueError, TypeError, RecursionError) as exc:
        return json.dumps({"ok": False, "error": {"type": "RequestError",
                                                  "message": f"request is not JSON: {exc}", "fields": {}}})
    return json.dumps(handle(request))
