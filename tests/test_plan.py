"""Planning answers against brute-force searches over the forward calculation."""

from dataclasses import replace

import pytest

from factories import config
from kvcalc import api
from kvcalc.catalog import find_gpu, find_model
from kvcalc.engine import calculate
from kvcalc.plan import (UTILIZATION_GRID, concurrency_at, levers, max_context_for, pool_vs_utilization,
                         smallest_setups, starting_share, utilization_for, valid_tp_sizes)
from kvcalc.settings import Settings


def _calc(model, gpu="h100", **s):
    m = find_model(model)
    return calculate(m.config, find_gpu(gpu), Settings(**s), weights_bytes=m.weights_bytes)


@pytest.mark.parametrize("model,gpu,requests", [("Qwen/Qwen3-8B", "h100", 16),
                                                ("openai/gpt-oss-20b", "h100", 40),
                                                ("Qwen/Qwen3.5-35B-A3B", "h200", 8)])
def test_max_context_is_the_boundary_of_the_forward_calculation(model, gpu, requests):
    c = _calc(model, gpu, max_model_len=4096)
    best = max_context_for(c, requests)
    assert best > 0
    m = find_model(model)

    def forward(length):
        p = calculate(m.config, find_gpu(gpu), Settings(max_model_len=length),
                      weights_bytes=m.weights_bytes).estimated
        return p.fits and p.max_concurrency >= requests

    assert forward(best)
    if best < (c.arch.derived_max_model_len or 0):
        assert not forward(best + 1)


def test_max_context_exhaustive_on_a_small_range():
    c = _calc("Qwen/Qwen3-0.6B", "t4", max_model_len=2048)
    for requests in (400, 1000, 3000):
        best = max_context_for(c, requests, limit=3000)
        brute = max([0] + [L for L in range(1, 3001) if concurrency_at(c, L) >= requests])
        assert best == brute


def test_smallest_setups_match_brute_force():
    cfg = config("meta-llama/Llama-3.1-70B-Instruct")
    weights = find_model("meta-llama/Llama-3.1-70B-Instruct").weights_bytes
    gpus = [find_gpu(g) for g in ("h100", "h200", "a100-80g-sxm", "l40s")]
    got = {s.gpu: s.count for s in smallest_setups(cfg, Settings(), gpus, 8, 16384, weights_bytes=weights)}
    brute = {}
    for gpu in gpus:
        for tp in (1, 2, 4, 8):
            p = calculate(cfg, gpu, Settings(tensor_parallel_size=tp, max_model_len=16384),
                          weights_bytes=weights).estimated
            if p.fits and p.max_concurrency >= 8:
                brute[gpu.key] = tp
                break
    assert got == brute
    assert got["h200"] <= got["h100-sxm"]


def test_valid_tp_sizes_follow_heads():
    assert valid_tp_sizes(_calc("Qwen/Qwen3-8B", max_model_len=4096)) == [1, 2, 4, 8]
    assert valid_tp_sizes(_calc("microsoft/phi-4", max_model_len=4096)) == [1, 2]   # 40 heads, 10 KV heads


def test_utilization_for_target_is_the_smallest_that_reaches_it():
    m = find_model("Qwen/Qwen3-8B")
    s = Settings(max_model_len=32768)
    u = utilization_for(m.config, find_gpu("h100"), s, 300000, weights_bytes=m.weights_bytes)
    util = u["gpu_memory_utilization"]

    def pool(x):
        return calculate(m.config, find_gpu("h100"), replace(s, gpu_memory_utilization=x),
                         weights_bytes=m.weights_bytes).estimated.tokens

    assert pool(util) >= 300000 > pool(round(util - 0.001, 3))
    # --kv-cache-memory-bytes gives at least the target pool directly.
    direct = calculate(m.config, find_gpu("h100"), replace(s, kv_cache_memory_bytes=u["kv_cache_memory_bytes"]))
    assert direct.estimated.tokens >= 300000


def test_levers_are_ranked_and_each_equals_the_forward_calculation():
    m = find_model("Qwen/Qwen3-8B")
    s = Settings(max_model_len=32768, avg_tokens=4096)
    out = levers(m.config, find_gpu("rtx-4090"), s, weights_bytes=m.weights_bytes)
    concs = [lv["concurrency"] for lv in out["levers"]]
    assert concs == sorted(concs, reverse=True)
    fp8 = next(lv for lv in out["levers"] if lv["flag"] == "--kv-cache-dtype fp8")
    direct = calculate(m.config, find_gpu("rtx-4090"), replace(s, kv_cache_dtype="fp8"),
                       weights_bytes=m.weights_bytes).estimated.max_concurrency
    assert fp8["concurrency"] == direct


def test_measured_reserve_replaces_the_estimate():
    m = find_model("meta-llama/Llama-3.1-8B-Instruct")
    s = Settings(gpu_memory_utilization=0.9, max_model_len=131072, vllm_version="0.14.1")
    # vllm#42593's H100 (v0.14.1) offered 79.19 GiB, the total of its day's drivers
    c = calculate(m.config, api.custom_gpu(79.19, find_gpu("h100")), s, weights_bytes=m.weights_bytes,
                  measured_reserve_bytes=int(4.89 * 2**30))
    assert abs(c.estimated.available_bytes / 2**30 - 51.39) < 0.01


def test_api_plan_and_levers_ops():
    r = api.handle({"op": "plan", "model": "Qwen/Qwen3-8B", "gpu": "h100", "requests": 64, "tokens": 8192})
    assert r["ok"] and r["result"]["setups"] and r["result"]["max_context_for_requests"] > 0
    bad = api.handle({"op": "plan", "model": "Qwen/Qwen3-8B", "requests": 0, "tokens": 8192})
    assert not bad["ok"] and "requests" in bad["error"]["fields"]
    lv = api.handle({"op": "levers", "model": "Qwen/Qwen3-8B", "gpu": "rtx-4090", "target_tokens": 60000,
                     "settings": {"max_model_len": 8192}})
    assert lv["ok"] and lv["result"]["levers"]
    curves = api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B", "curves": True})["result"]["curves"]
    assert len(curves["concurrency_vs_max_model_len"]) == 24 and curves["pool_vs_utilization"]


def test_a_first_start_offers_the_compile_cache_lever_and_a_restart_does_not():
    """From v0.19 (untied embeddings, as Qwen3-8B's) a first start subtracts the compile term; keeping ~/.cache/vllm on a volume makes
    every later start a warm one, which the levers rank like any other change. Already warm, or
    with --enforce-eager, there is nothing to gain."""
    m = find_model("Qwen/Qwen3-8B")
    s = Settings(max_model_len=16384, vllm_version="0.28.0")
    out = levers(m.config, find_gpu("l4"), s, weights_bytes=m.weights_bytes)
    lever = next(lv for lv in out["levers"] if lv["key"] == "compile_cache")
    warm = calculate(m.config, find_gpu("l4"), replace(s, compile_cache="warm"), weights_bytes=m.weights_bytes)
    assert lever["concurrency"] == warm.estimated.max_concurrency > out["current"]["concurrency"]
    for settled in (replace(s, compile_cache="warm"), replace(s, enforce_eager=True),
                    replace(s, vllm_version="0.18.0")):
        keys = [lv["key"] for lv in levers(m.config, find_gpu("l4"), settled, weights_bytes=m.weights_bytes)["levers"]]
        assert "compile_cache" not in keys, settled


def test_the_cudagraph_mode_lever_keeps_only_the_decode_graphs_where_an_estimate_is_subtracted():
    """Where vLLM subtracts its CUDA-graph estimate (v0.20+ on V1, v0.29+ on V2), FULL_DECODE_ONLY
    drops the piecewise graphs from it: the lever is the forward calculation with that mode. Not
    offered where no estimate is subtracted (--enforce-eager, v0.19) or a mode is already chosen."""
    m = find_model("Qwen/Qwen3-8B")
    s = Settings(max_model_len=8192, vllm_version="0.31.0")
    out = levers(m.config, find_gpu("rtx-4090"), s, weights_bytes=m.weights_bytes)
    lever = next(lv for lv in out["levers"] if lv["key"] == "cudagraph_mode")
    decode = calculate(m.config, find_gpu("rtx-4090"), replace(s, cudagraph_mode="FULL_DECODE_ONLY"),
                       weights_bytes=m.weights_bytes)
    assert lever["concurrency"] == decode.estimated.max_concurrency > out["current"]["concurrency"]
    assert lever["flag"] == """--compilation-config '{"cudagraph_mode":"FULL_DECODE_ONLY"}'"""
    for settled in (replace(s, enforce_eager=True), replace(s, vllm_version="0.19.0"),
                    replace(s, cudagraph_mode="PIECEWISE")):
        keys = [lv["key"] for lv in levers(m.config, find_gpu("rtx-4090"), settled,
                                           weights_bytes=m.weights_bytes)["levers"]]
        assert "cudagraph_mode" not in keys, settled


def test_the_int4_lever_takes_gptq_where_vllm_refuses_awq_and_none_where_both_are_refused():
    """A V100 (compute capability 7.0) loads no AWQ and no FP8 weights; GPTQ runs there on the
    ExLlama kernel until v0.22, when GPTQ became Marlin-only (quant_support)."""
    cfg, v100 = config("Qwen/Qwen2.5-7B-Instruct"), find_gpu("v100-32g")

    def offered(gpu, **s):
        return {lv["key"]: lv for lv in levers(cfg, gpu, Settings(max_model_len=32768, **s))["levers"]}
    old = offered(v100, vllm_version="0.21.0")
    assert old["weights_int4"]["value"] == "gptq" and "weights_fp8" not in old
    new = offered(v100, vllm_version="0.33.0")
    assert "weights_int4" not in new and "weights_fp8" not in new
    on_a100 = offered(find_gpu("a100-80g-sxm"))
    assert on_a100["weights_int4"]["value"] == "awq" and "weights_fp8" in on_a100


def test_the_utilization_curve_runs_through_the_current_setting_and_rises_where_vllm_starts():
    """Qwen3-8B at 32,768 tokens on an RTX 4090 (23.52 GiB): one request fits from a share between
    two grid points (0.90 and 0.95 on v0.33, above the current 0.92), so the curve carries that share
    and the one just below it, and the current 0.92 lies on the curve; each point is the forward
    calculation's own pool."""
    m = find_model("Qwen/Qwen3-8B")
    s = Settings(max_model_len=32768, vllm_version="0.33.0")
    curve = pool_vs_utilization(m.config, find_gpu("rtx-4090"), s, weights_bytes=m.weights_bytes, current=0.92)
    utils = [p["gpu_memory_utilization"] for p in curve]
    assert utils == sorted(set(utils)) and set(UTILIZATION_GRID) <= set(utils) and 0.92 in utils
    start = next(i for i, p in enumerate(curve) if p["pool_tokens"] > 0)
    assert curve[start - 1]["pool_tokens"] == 0
    assert round((curve[start]["gpu_memory_utilization"] - curve[start - 1]["gpu_memory_utilization"]) * 1000) == 1
    assert 0.92 < curve[start]["gpu_memory_utilization"] <= 0.95
    assert starting_share(curve) == curve[start]["gpu_memory_utilization"]
    # the same share through utilization_for: the smallest that holds one max_model_len request
    assert utilization_for(m.config, find_gpu("rtx-4090"), s, 32768,
                           weights_bytes=m.weights_bytes)["gpu_memory_utilization"] == curve[start]["gpu_memory_utilization"]
    for p in curve:
        c = calculate(m.config, find_gpu("rtx-4090"), replace(s, gpu_memory_utilization=p["gpu_memory_utilization"]),
                      weights_bytes=m.weights_bytes)
        assert p["pool_tokens"] == (c.estimated.tokens if c.estimated.fits else 0)


def test_the_utilization_curve_needs_no_threshold_when_every_share_fits():
    m = find_model("Qwen/Qwen3-0.6B")
    curve = pool_vs_utilization(m.config, find_gpu("h100"), Settings(max_model_len=4096), weights_bytes=m.weights_bytes,
                                current=0.92)
    assert [p["gpu_memory_utilization"] for p in curve] == sorted(set(UTILIZATION_GRID) | {0.92})
    assert all(p["pool_tokens"] > 0 for p in curve)
    assert starting_share(curve) is None
