"""Every stored public vLLM log is a data case: the logged pool must lie inside the interval
the log's own 'Available KV cache memory' (rounded to 0.01 GiB) allows. Adding a log adds
data, not code."""

import pytest

from kvcalc.validate import evaluate_entry, load_logs, validate_logs

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
