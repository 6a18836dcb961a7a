"""Every stored public vLLM log is a data case: the logged pool must lie inside the interval
the log's own 'Available KV cache memory' (rounded to 0.01 GiB) allows, and what else the log
prints that kvcalc resolves must agree with it (the CUDA graphs profiled, the batch limits, a
hybrid model's paging, the setup of the engine line). Adding a log adds data, not code."""

import re

import pytest

from kvcalc.validate import _calculate, evaluate_entry, load_logs, validate_logs

LOGS = load_logs()


def _checkable(entry):
    logged = entry.get("logged") or {}
    return logged.get("available_kv_cache_gib") and logged.get("gpu_kv_cache_tokens")


@pytest.mark.parametrize("entry", [e for e in LOGS if _checkable(e)], ids=lambda e: e["id"])
def test_logged_pool_inside_from_log_interval(entry):
    row = evaluate_entry(entry)
    if row["skipped"]:
        pytest.skip(f"not evaluable yet: {row['skipped']}")
    fl = row["from_log"]
    assert fl["tokens_low"] <= row["logged_tokens"] <= fl["tokens_high"], row
    if fl["concurrency_inside"] is not None:
        assert fl["concurrency_inside"], row


def test_brief_rows_are_evaluated_not_skipped():
    rows = {r["id"]: r for r in validate_logs(LOGS)["rows"]}
    for log_id in ("vllm#42593", "vllm#27604", "vllm#26480", "vllm#36849", "vllm#58580"):
        assert rows[log_id]["skipped"] is None, rows[log_id]
        assert rows[log_id]["from_log"]["inside"], rows[log_id]


def test_brief_fp8_row_samples_with_flashinfer():
    """vllm#27604's command selects FlashInfer attention, so the flashinfer package was installed and
    v0.11.0 warmed its sampler up with FlashInfer's kernels: the sort's 4.71 GiB over 1,024 x 128,256
    entries does not fit the 1.96 GiB the log leaves besides weights and KV cache."""
    entry = next(e for e in LOGS if e["id"] == "vllm#27604")
    assert entry["flashinfer_sampler"] is True
    assert abs(evaluate_entry(entry)["estimated"]["error_pct"]) < 0.5
    unknown_install = evaluate_entry({k: v for k, v in entry.items() if k != "flashinfer_sampler"})
    assert unknown_install["estimated"]["error_pct"] < -5


def test_ids_unique_and_schema_keys_present():
    keys = {"id", "source", "vllm_version", "model", "config", "quantization", "weights_gib", "gpu",
            "gpu_total_gib", "tensor_parallel_size", "pipeline_parallel_size", "gpu_memory_utilization",
            "kv_cache_dtype", "max_model_len", "max_num_batched_tokens", "max_num_seqs", "block_size",
            "enforce_eager", "entrypoint", "speculative", "logged", "notes"}
    assert len({e["id"] for e in LOGS}) == len(LOGS)
    for e in LOGS:
        assert keys <= set(e), (e["id"], keys - set(e))
        assert {"available_kv_cache_gib", "gpu_kv_cache_tokens", "max_concurrency",
                "model_loading_gib", "cuda_graph_gib"} <= set(e["logged"]), e["id"]


def test_summary_counts_every_row():
    result = validate_logs(LOGS)
    s = result["summary"]
    assert s["entries"] == len(LOGS) == len(result["rows"])
    assert s["from_log_inside"] == s["from_log_checked"]


def test_each_reserve_term_is_checked_against_the_logged_breakdown():
    rows = {r["id"]: r for r in validate_logs(LOGS)["rows"]}
    llmd = rows["llmd-h100-llama31-8b"]["terms"]          # v0.11: no CUDA-graph estimate yet
    assert llmd["activation"]["logged_gib"] == 4.76
    assert abs(llmd["activation"]["estimated_gib"] - 4.76) < 0.3
    # non-torch carries the era's fixed part (what the modelled terms leave over)
    from kvcalc.reserve import ERAS
    assert llmd["non_torch"] == {"logged_gib": 0.13,
                                 "estimated_gib": round(0.13 + ERAS["v1-before-0.21"].fixed_gib, 2)}
    # From v0.20 vLLM's "peak activation" holds the CUDA-graph estimate it subtracted, so the
    # V1-runner row is compared with kvcalc's activation + CUDA-graph terms together.
    entry = next(e for e in LOGS if e["id"] == "rtxpro6000-qwen3-235b-fp8-tp4-v0.27")
    terms = {t.name: t.bytes for t in _calculate(entry)[1].budget.terms}
    assert terms["CUDA graphs"] > 0
    want = round((terms["activation peak"] + terms["CUDA graphs"]) / (1 << 30), 2)
    assert rows[entry["id"]]["terms"]["activation"]["estimated_gib"] == want
    # The older form of the line leaves the estimate out of "peak activation": a v0.26.0 B300 log
    # balances 246.27 − 58.99 − 3.9 − 0.25 − 0.76 (the estimate) = 182.37 GiB, its pool.
    b300 = next(e for e in LOGS if e["id"] == "b300-gemma-4-31b-it-v1runner-maxlen16k-v0.26.0")
    terms = {t.name: t.bytes for t in _calculate(b300)[1].budget.terms}
    assert terms["CUDA graphs"] > 0 and "consumed_gib" not in b300["logged"]
    assert rows[b300["id"]]["terms"]["activation"]["estimated_gib"] == round(terms["activation peak"] / (1 << 30), 2)
    # A first start's compile counts in the peak vLLM measures: the RTX 4090 pair of Qwen3-8B
    # (v0.27.1) peaks at 1.18 GiB cold and 0.19 warm, and kvcalc's activation comparison carries
    # its first-start term on the cold row only.
    cold = next(e for e in LOGS if e["id"] == "rtx4090-runpod-qwen3-8b-maxlen8k-cold-v0.27.1")
    terms = {t.name: t.bytes for t in _calculate(cold)[1].budget.terms}
    assert terms["first-start compile"] > 0.5 * (1 << 30)
    want = round((terms["activation peak"] + terms["CUDA graphs"] + terms["first-start compile"]) / (1 << 30), 2)
    assert rows[cold["id"]]["terms"]["activation"] == {"logged_gib": 1.18, "estimated_gib": want}
    warm = rows["rtx4090-runpod-qwen3-8b-maxlen8k-warm-v0.27.1"]["terms"]["activation"]
    assert warm["logged_gib"] == 0.19 and abs(warm["estimated_gib"] - 0.19) < 0.1
    # "consumed (weights + non-torch)" minus "Model loading took" gives non-torch memory.
    wsl = rows["rtx4090-wsl-qwen2.5-0.5b-v0.27.1-a"]["terms"]["non_torch"]
    assert wsl["logged_gib"] == round(1.49 - 0.93, 2)
    s = validate_logs(LOGS)["summary"]
    assert s["activation_checked"] >= 15 and s["non_torch_checked"] >= 10
    assert s["activation_median_abs_error_gib"] < 0.5


def test_the_estimate_band_is_reported_and_mostly_holds_the_logged_pool():
    result = validate_logs(LOGS)
    rows = [r for r in result["rows"] if r["estimated"]]
    for r in rows:
        e = r["estimated"]
        assert e["tokens_low"] <= e["tokens"] <= e["tokens_high"], r["id"]
        assert e["inside_band"] == (e["tokens_low"] <= r["logged_tokens"] <= e["tokens_high"])
    s = result["summary"]
    assert s["estimated_inside_band"] == sum(r["estimated"]["inside_band"] for r in rows)
    assert s["estimated_inside_band"] >= 0.8 * s["estimated_checked"]   # the band means something


def test_the_newest_logged_release_is_the_datas():
    """versions.NEWEST_LOGGED, which decides the page's 'no public log of this release yet' note,
    is the newest minor release among the stored logs."""
    from kvcalc.errors import VersionError
    from kvcalc.versions import NEWEST_LOGGED, parse_version

    releases = []
    for e in LOGS:
        if e.get("vllm_version") is None:
            continue        # release not known (parse_version would answer the newest)
        try:
            releases.append(parse_version(e["vllm_version"]))
        except (VersionError, TypeError, ValueError):
            continue        # a release outside the modelled range, or none recorded
    newest = max((v.major, v.minor) for v in releases)
    assert newest == (NEWEST_LOGGED.major, NEWEST_LOGGED.minor)


def _printed_graph_counts(entry):
    """(PIECEWISE, FULL) of the log's 'Profiling CUDA graph memory' line (v0.18+), or None."""
    m = re.search(r"Profiling CUDA graph memory: ([^\n]*)", entry.get("excerpt", ""))
    if not m:
        return None
    counts = [re.search(rf"{mode}=(\d+)", m.group(1)) for mode in ("PIECEWISE", "FULL")]
    return tuple(int(c.group(1)) if c else 0 for c in counts)


def _priced_graph_counts(entry):
    """(PIECEWISE, FULL) kvcalc's CUDA-graph term prices for a row, or None where the release or the
    settings subtract no estimate (v0.18-v0.19 print their profile without deducting it)."""
    _, calculation = _calculate(entry)
    term = next((t for t in calculation.budget.terms if t.name == "CUDA graphs"), None) if calculation.budget else None
    counted = re.search(r"(\d+) piecewise \+ (\d+) full", str(term.basis)) if term else None
    return tuple(int(n) for n in counted.groups()) if counted else None


PROFILED = [(e["id"], priced, printed) for e in LOGS if (printed := _printed_graph_counts(e))
            and (priced := _priced_graph_counts(e))]
"""(row, kvcalc's counts, the log's) where vLLM subtracts its estimate: each row is computed once."""


def test_most_logs_that_print_their_graph_profile_are_priced():
    assert len(PROFILED) >= 50


@pytest.mark.parametrize("row, priced, printed", PROFILED, ids=[row for row, _, _ in PROFILED])
def test_the_graphs_kvcalc_prices_are_those_the_log_profiled(row, priced, printed):
    """Where vLLM subtracts its CUDA-graph estimate, kvcalc counts the graphs of each mode as the log's
    'Profiling CUDA graph memory' line does: the capture sizes, their rounding to the decode query length
    with speculative decoding (reserve.spec_sizes_rounded: not where only piecewise graphs are captured),
    the full decode graphs."""
    assert priced == printed


def _last_printed(entry, *patterns):
    """The number each pattern's last match in the log carries (None where it has none): the API server
    may print its import-time default before the one it runs with, so the last word counts."""
    found = [re.findall(pattern, entry.get("excerpt", "")) for pattern in patterns]
    return tuple(int(hits[-1]) if hits else None for hits in found)


def _printed_batch_limits(entry):
    """(max_num_batched_tokens, max_model_len) as the start printed them."""
    return _last_printed(entry, r"Chunked prefill is enabled with max_num_batched_tokens=(\d+)",
                         r"Using max model len (\d+)")


@pytest.mark.parametrize("entry", [e for e in LOGS if any(_printed_batch_limits(e))], ids=lambda e: e["id"])
def test_the_batch_limits_kvcalc_resolves_are_those_the_log_printed(entry):
    """The batched-token budget and the context length kvcalc resolves (a setting, or the release's default
    for the entry point, the GPU and the model) are those the start printed."""
    batched, length = _printed_batch_limits(entry)
    resolved = _calculate(entry)[1].resolved
    assert batched in (None, resolved.max_num_batched_tokens)
    assert length in (None, resolved.max_model_len)


def _printed_hybrid_paging(entry):
    """(attention block size, padding layers) a hybrid model's start printed."""
    return _last_printed(entry, r"Setting attention block size to (\d+) tokens", r"Add (\d+) padding layers")


@pytest.mark.parametrize("entry", [e for e in LOGS if any(_printed_hybrid_paging(e))], ids=lambda e: e["id"])
def test_the_hybrid_paging_kvcalc_builds_is_what_the_log_printed(entry):
    """The block size vLLM raises so one attention page covers a state page, and the padding layers it adds
    to even out the groups, as kvcalc's layout and grouping have them."""
    block, padding = _printed_hybrid_paging(entry)
    calculation = _calculate(entry)[1]
    assert block in (None, calculation.layout.block_size)
    assert padding in (None, calculation.grouping.padding_layers)


def _engine_line(entry):
    lines = [line for line in entry.get("excerpt", "").split("\n") if "with config:" in line]
    return lines[-1] if lines else None


@pytest.mark.parametrize("entry", [e for e in LOGS if _engine_line(e)], ids=lambda e: e["id"])
def test_each_row_runs_the_setup_its_engine_line_prints(entry):
    """The engine line ('Initializing a V1 LLM engine (vX) with config: …') and the row's settings agree on
    tensor and pipeline parallelism, eager mode, the KV cache dtype ('auto' is the model's own 16-bit type),
    prefix caching where the row sets it, and the context length kvcalc resolves (max_seq_len): a row
    that ran something else would validate the wrong setup."""
    line = _engine_line(entry)

    def printed(pattern):
        m = re.search(pattern, line)
        return m.group(1) if m else None
    for key, pattern in (("tensor_parallel_size", r"tensor_parallel_size=(\d+)"),
                         ("pipeline_parallel_size", r"pipeline_parallel_size=(\d+)")):
        assert printed(pattern) in (None, str(entry.get(key) or 1)), key
    assert printed(r"enforce_eager=(True|False)") in (None, str(bool(entry.get("enforce_eager"))))
    kv = printed(r"kv_cache_dtype=(\w+)")
    row_kv = entry.get("kv_cache_dtype") or "auto"
    assert kv is None or row_kv.startswith(kv[:3]) or kv == "auto" and row_kv in ("bfloat16", "float16")
    if entry.get("enable_prefix_caching") is not None:
        assert printed(r"enable_prefix_caching=(True|False)") in (None, str(entry["enable_prefix_caching"]))
    length = printed(r"max_seq_len=(\d+)")
    if length is not None:
        assert _calculate(entry)[1].resolved.max_model_len == int(length)
