"""Pasted log -> form settings and the side-by-side, for the stored public excerpts."""

import pytest

from kvcalc import api
from kvcalc.catalog import find_gpu
from kvcalc.errors import VersionError
from kvcalc.validate import load_logs
from kvcalc.versions import parse_version


def _in_range(version):
    try:
        parse_version(version)
        return version is not None
    except VersionError:
        return False


REFUSED_ON_PASTE = {
    # a fork that forces FLASHINFER for Gemma 3 with image input: stock vLLM refuses that from v0.13
    # (Rule.BACKEND_MM_PREFIX), so its pasted log gets vLLM's reason; the row itself leaves the backend out
    "gb10-gemma-3-27b-it-fp8kv-fi-util0.85-maxlen128k-mbt4k-16img-nvfp4kv-fork-v0.22": "attends fully over image tokens",
}
EXCERPTS = [e for e in load_logs() if e.get("excerpt") and "Available KV cache memory" in e["excerpt"]
            and "GPU KV cache size" in e["excerpt"] and not e.get("skip_reason")
            and _in_range(e.get("vllm_version"))]


def _paste(entry):
    gpu = entry["gpu"]
    req = {"op": "compare_log", "text": entry["excerpt"], "model": entry["model"],
           "config": entry.get("config"), "gpu": gpu, "gpu_total_gib": entry.get("gpu_total_gib"),
           "settings": {k: entry[k] for k in ("tensor_parallel_size", "pipeline_parallel_size",
                                               "max_model_len", "kv_cache_dtype", "vllm_version",
                                               "decode_context_parallel_size", "block_size",
                                               "language_model_only")
                        if entry.get(k) is not None}}
    if "speculative_config=" not in entry["excerpt"] and entry.get("speculative"):
        # an excerpt that starts after the engine's config line: the form says what it ran
        req["settings"]["speculative"] = entry["speculative"]
    spec = entry.get("speculative") or {}
    if spec.get("draft_config"):     # what the page reads from Hugging Face for the drafter the log names
        req["drafter"] = {"id": spec["model"], "config": spec["draft_config"]}
    return api.handle(req)


@pytest.mark.parametrize("entry", [e for e in EXCERPTS if e["id"] not in REFUSED_ON_PASTE], ids=lambda e: e["id"])
def test_paste_fills_and_from_log_pool_matches(entry):
    r = _paste(entry)
    assert r["ok"], r
    rows = {row["line"]: row for row in r["result"]["rows"]}
    pool = rows["GPU KV cache size"]
    logged = int(pool["logged"].split()[0].replace(",", ""))
    ours = int(pool["from_log"].split()[0].replace(",", ""))
    # Within 0.1%, or, for a pool so small that the log's 0.01 GiB rounding is wider than that
    # (0.27 GiB on a 12 GB laptop), inside the interval that rounding allows.
    fl = r["result"]["calculation"]["from_log"]
    assert abs(ours - logged) / logged < 0.001 or fl["tokens_low"] <= logged <= fl["tokens_high"]
    assert pool["cause"] is None          # inside the rounding interval


@pytest.mark.parametrize("entry", [e for e in EXCERPTS if e["id"] in REFUSED_ON_PASTE], ids=lambda e: e["id"])
def test_a_pasted_fork_log_gets_the_reason_stock_vllm_refuses_it(entry):
    r = _paste(entry)
    assert not r["ok"] and REFUSED_ON_PASTE[entry["id"]] in r["error"]["message"]


def test_nothing_usable():
    r = api.handle({"op": "compare_log", "text": "hello\nworld", "gpu": "h100"})
    assert not r["ok"] and "nothing usable" in r["error"]["message"]


def test_gpu_guessed_from_total_and_reserve_measured():
    text = ("(EngineCore pid=326) INFO 10-06 17:00:11 [model_runner.py:407] Model loading took 15.0 GiB memory\n"
            "(EngineCore pid=326) INFO 10-06 17:00:33 [gpu_worker.py:692] Available KV cache memory: 56.21 GiB\n"
            "(EngineCore pid=326) INFO 10-06 17:00:33 [kv_cache_utils.py:2464] GPU KV cache size: 460,496 tokens, "
            "Maximum concurrency for 131,072 tokens per request: 3.51x\n"
            "(EngineCore pid=326) INFO 10-06 17:00:41 [gpu_worker.py:955] Free memory on device (78.84/79.25 GiB) on "
            "startup. Desired GPU memory utilization is (0.92, 72.91 GiB). Actual usage is 15.26 GiB for consumed "
            "memory (weights + non-torch), 1.44 GiB for peak activation, and 0.23 GiB for CUDAGraph memory.\n")
    r = api.handle({"op": "compare_log", "text": text, "model": "meta-llama/Llama-3.1-8B-Instruct",
                    "settings": {"vllm_version": "0.33.0"}})
    assert r["ok"], r
    res = r["result"]
    assert res["gpu"] == "a100-80g-sxm"
    assert res["form"] == {"gpu_memory_utilization": 0.92, "max_model_len": 131072}
    # 79.25 × 0.92 − 56.21 − 15.0 = 1.70 GiB
    assert abs(res["measured_reserve_gib"] - 1.70) < 0.01
    # The measured reserve reproduces the log's memory when fed back as a what-if baseline.
    again = api.handle({"op": "estimate", "model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "a100-80g-sxm",
                        "settings": {"max_model_len": 131072, "gpu_memory_utilization": 0.92,
                                     "vllm_version": "0.33.0"},
                        "measured_reserve_gib": res["measured_reserve_gib"]})["result"]
    assert abs(again["estimated"]["available_gib"] - 56.21) < 0.02
    # v0.34's extensible cache prints its reservation, which leaves the CUDA graphs out: fed back, the
    # reserve reproduces that reservation, and the pool after warm-up also pays for the graphs
    v34 = api.handle({"op": "estimate", "model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "a100-80g-sxm",
                      "settings": {"max_model_len": 131072, "gpu_memory_utilization": 0.92, "vllm_version": "0.34.0"},
                      "measured_reserve_gib": res["measured_reserve_gib"]})["result"]
    graphs = next(t["bytes"] for t in v34["budget"]["terms"] if t["name"] == "CUDA graphs")
    assert abs(v34["budget"]["capacity_available"][0] / (1 << 30) - 56.21) < 0.02
    assert graphs > 0 and v34["estimated"]["available_bytes"] == v34["budget"]["capacity_available"][0] - graphs


def test_non_torch_memory_from_the_consumed_figure():
    """From v0.27 the breakdown gives 'consumed memory (weights + non-torch)': less 'Model loading took'
    it is the non-torch memory, which the comparison names when it is far from kvcalc's."""
    def causes(consumed):
        text = ("INFO [model_runner.py:407] Model loading took 15.0 GiB memory\n"
                "INFO [gpu_worker.py:692] Available KV cache memory: 56.21 GiB\n"
                "INFO [kv_cache_utils.py:2464] GPU KV cache size: 460,496 tokens, "
                "Maximum concurrency for 131,072 tokens per request: 3.51x\n"
                "INFO [gpu_worker.py:955] Free memory on device (78.84/79.25 GiB) on startup. Desired GPU memory "
                f"utilization is (0.92, 72.91 GiB). Actual usage is {consumed} GiB for consumed memory "
                "(weights + non-torch), 1.44 GiB for peak activation, and 0.23 GiB for CUDAGraph memory.\n")
        r = api.handle({"op": "compare_log", "text": text, "model": "meta-llama/Llama-3.1-8B-Instruct"})
        assert r["ok"], r
        return " ".join(r["result"]["causes"])
    assert "non-torch" not in causes("15.26")
    assert "non-torch" in causes("16.50")


def _entry(log_id):
    return next(e for e in load_logs() if e["id"] == log_id)


def test_fallback_fills_only_what_the_log_leaves_out():
    """The page sends its form as "fallback": used where the log is silent, listed in
    filled_from_form; a log with a non-default args line keeps vLLM's defaults for the rest."""
    e = _entry("a100-llama31-8b-v0.31.0")  # names no model, no version; total memory → A100 80GB
    fb = {"model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "h100-sxm",
          "settings": {"vllm_version": "0.31.0", "tensor_parallel_size": 1, "max_model_len": 4096}}
    res = api.handle({"op": "compare_log", "text": e["excerpt"], "fallback": fb})["result"]
    assert res["model"] == "meta-llama/Llama-3.1-8B-Instruct"
    assert res["gpu"] == "a100-80g-sxm"                   # the log's total wins over the form's H100
    assert res["settings"]["max_model_len"] == 131072     # stated by the log
    assert res["settings"]["vllm_version"] == "0.31.0"
    assert sorted(res["filled_from_form"]) == ["model", "tensor_parallel_size", "vllm_version"]
    fl = res["calculation"]["from_log"]
    assert fl["tokens_low"] <= e["logged"]["gpu_kv_cache_tokens"] <= fl["tokens_high"]
    # without the fallback the same excerpt cannot be compared (no model named)
    assert not api.handle({"op": "compare_log", "text": e["excerpt"]})["ok"]

    e = _entry("h200-qwen3-next-80b-tp2-v0.10.2")  # prints its non-default args
    fb = {"model": "Qwen/Qwen3-Next-80B-A3B-Instruct", "gpu": "h200",
          "settings": {"gpu_memory_utilization": 0.5, "vllm_version": "0.20.0"}}
    res = api.handle({"op": "compare_log", "text": e["excerpt"], "fallback": fb})["result"]
    assert "gpu_memory_utilization" not in res["filled_from_form"]   # the log's default stands
    assert res["settings"]["vllm_version"] == "0.10.2"                # the log states it


def _l20_ecc_off_log(total: str = "47.37") -> str:
    """An L20 start with ECC off (the card's 49,140 MiB all usable): the stock lines of a public
    v0.11 L20 start whose total is 3 GiB above the catalog's ECC-on 44.39 GiB."""
    return ("INFO [core.py:77] Initializing a V1 LLM engine (v0.11.0) with config: model='Qwen/Qwen3-8B', "
            "dtype=torch.bfloat16, max_seq_len=16384, tensor_parallel_size=1, pipeline_parallel_size=1, "
            "quantization=None, enforce_eager=False, kv_cache_dtype=auto\n"
            "INFO [gpu_model_runner.py:2653] Model loading took 15.27 GiB and 10.0 seconds\n"
            f"DEBUG [gpu_worker.py:598] Free memory on device (47.03/{total} GiB) on startup. Desired GPU "
            "memory utilization is (0.9, 42.64 GiB).\n"
            "INFO [gpu_worker.py:400] Available KV cache memory: 25.94 GiB\n"
            "INFO [kv_cache_utils.py:1286] GPU KV cache size: 188,864 tokens\n")


def test_a_log_of_the_forms_card_with_ecc_off_keeps_that_card_and_its_own_total():
    """A total alone cannot tell an ECC-off L20 (47.37 GiB) from the other 48 GB cards of the
    catalog; the form that names an L20 can, and the estimate then uses the log's memory."""
    res = api.handle({"op": "compare_log", "text": _l20_ecc_off_log(), "fallback": {"gpu": "l20"}})["result"]
    assert res["gpu"] == "l20"
    assert res["calculation"]["gpu"]["total_gib"] == 47.37
    # a form that names another kind of card does not claim the log: the closest total does
    res = api.handle({"op": "compare_log", "text": _l20_ecc_off_log(), "fallback": {"gpu": "h100-sxm"}})["result"]
    assert res["gpu"] != "h100-sxm"


def test_a_total_within_the_logs_rounding_keeps_the_catalogs_exact_bytes():
    """The log's two-decimal total replaces the catalog's only where it says more than its rounding
    (a B200, whose total no other catalog card comes near)."""
    b200 = api.handle({"op": "compare_log", "text": _l20_ecc_off_log("178.35"), "fallback": {"gpu": "b200"}})
    assert b200["result"]["calculation"]["gpu"]["total_bytes"] == find_gpu("b200").total_bytes
    drift = api.handle({"op": "compare_log", "text": _l20_ecc_off_log("178.42"), "fallback": {"gpu": "b200"}})
    assert drift["result"]["gpu"] == "b200" and drift["result"]["calculation"]["gpu"]["total_gib"] == 178.42
    # no catalog total lies near the log's (an RTX 4090 under WSL offers about the nvidia-smi size):
    # the form's card, with the log's memory
    wsl = api.handle({"op": "compare_log", "text": _l20_ecc_off_log("23.99"), "fallback": {"gpu": "rtx-4090"}})
    assert wsl["result"]["gpu"] == "rtx-4090" and wsl["result"]["calculation"]["gpu"]["total_gib"] == 23.99
    # the command line names its GPU outright (parse-log --compare --gpu): the log's memory still counts
    named = api.handle({"op": "compare_log", "text": _l20_ecc_off_log(), "gpu": "l20"})["result"]
    assert named["gpu"] == "l20" and named["calculation"]["gpu"]["total_gib"] == 47.37


def test_curves_give_the_longest_length_one_request_fits():
    """The chart's "one request fits up to" length agrees with the forward calculation."""
    r = api.handle({"op": "estimate", "model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "rtx-4090",
                    "settings": {"max_model_len": 8192}, "curves": True})["result"]
    one = r["curves"]["max_model_len_one_request"]
    assert 0 < one < r["model"]["max_model_len_limit"]
    at = api.handle({"op": "estimate", "model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "rtx-4090",
                     "settings": {"max_model_len": one}})["result"]["estimated"]
    past = api.handle({"op": "estimate", "model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "rtx-4090",
                       "settings": {"max_model_len": one + 16}})["result"]["estimated"]
    assert at["fits"] and not past["fits"]


def test_a_log_that_compiled_names_the_first_start_among_the_causes():
    """The H200 v0.31 log prints 'Compiling a graph for compile range (1, 8192)': the comparison
    says it was a first start and what a restart that reuses ~/.cache/vllm would keep; a log that
    loaded its compiled graphs (the warm H200 start) says nothing of the kind."""
    rows = {e["id"]: e for e in load_logs()}
    def causes(log_id):
        e = rows[log_id]
        r = api.handle({"op": "compare_log", "text": e["excerpt"], "model": e["model"], "gpu": e["gpu"]})
        assert r["ok"], r
        return r["result"]
    cold = causes("h200-llama32-1b-fp16-seqs32-v0.31.0")
    assert cold["settings"]["compile_cache"] == "cold"
    assert any("a first start, empty torch.compile cache" in str(c) for c in cold["causes"])
    warm = causes("h200-llama32-1b-fp16-seqs1024-v0.31.0")
    assert warm["settings"]["compile_cache"] == "warm"
    assert not any("first start" in str(c) for c in warm["causes"])


def _compared(e, settings=False):
    req = {"op": "compare_log", "text": e["excerpt"], "model": e["model"], "config": e.get("config"),
           "gpu": e["gpu"], "gpu_total_gib": e.get("gpu_total_gib")}
    if settings:      # every setting the stored row records, as kvcalc validate runs it
        from kvcalc.validate import _SETTING_FIELDS
        req["settings"] = {k: e[k] for k in _SETTING_FIELDS if e.get(k) is not None}
    r = api.handle(req)
    assert r["ok"], r
    return r["result"]


@pytest.mark.parametrize("log_id", ["h200-llama32-1b-fp16-seqs1024-v0.31.0", "24g-qwen3-8b-fp8-v0.10.2-debug",
                                    "a40-qwen2.5-7b-bf16-seqs128-nofisampler-v0.31.0"])
def test_the_breakdown_rows_are_the_validation_terms(log_id):
    """Every reserve term the log printed gets a row beside kvcalc's, and the pair is the one
    ``kvcalc validate`` checks for the same stored log (one rule, termcheck.term_checks): the newer
    "Actual usage" form (activation with the CUDA-graph estimate, non-torch from consumed memory),
    and a v0.10 DEBUG profile line (torch peak and non-torch forward increase)."""
    from kvcalc.validate import validate_logs
    e = _entry(log_id)
    want = next(r for r in validate_logs()["rows"] if r["id"] == log_id)["terms"]
    rows = {row["line"]: row for row in _compared(e, settings=True)["rows"]}
    names = {"activation": "peak activation", "non_torch": "non-torch memory",
             "cuda_graphs": "Estimated CUDA graph memory"}
    assert want
    for term, pair in want.items():
        row = rows[names[term]]
        assert row["logged"] == f"{pair['logged_gib']:.2f} GiB"
        assert row["estimated"] == f"{pair['estimated_gib']:.2f} GiB"
        assert row["difference_pct"] is None      # GiB side by side, no percentage of a small term
        assert row["difference_gib"] == pytest.approx(pair["estimated_gib"] - pair["logged_gib"], abs=0.006)
    assert not (set(names.values()) - {names[t] for t in want}) & set(rows)


def test_the_utilization_equivalence_line_gives_the_graph_estimate_and_the_utilization():
    """v0.21+ logs that do not print 'Estimated CUDA graph memory' still say what it was worth:
    'The current --gpu-memory-utilization=0.8500 is equivalent to --gpu-memory-utilization=0.8153
    without CUDA graph memory profiling' is 0.0347 of the GPU's 11.99 GiB, 0.42 GiB. A log whose
    head (the args line) is lost keeps the utilization that line states (a Colab T4 at 0.6)."""
    res = _compared(_entry("rtx4080-laptop-wsl-qwen2.5-1.5b-ngram5-seqs64-v0.23.0"))
    rows = {row["line"]: row for row in res["rows"]}
    assert rows["Estimated CUDA graph memory"]["logged"] == "0.42 GiB"
    assert rows["Estimated CUDA graph memory"]["estimated"] == "0.61 GiB"
    colab = _entry("colab-t4-qwen2.5-1.5b-serve-util0.6-maxlen32k-v0.24.0")
    assert "non-default args" not in colab["excerpt"]
    assert _compared(colab)["form"]["gpu_memory_utilization"] == 0.6


def test_the_cli_prints_each_breakdown_term_with_its_difference_in_gib(tmp_path, capsys):
    """`kvcalc parse-log --compare` shows the same rows as the page: a stored v0.31 log's peak
    activation, non-torch memory and graph estimate, each with ours − the log's in GiB."""
    from kvcalc.cli import main
    e = _entry("h200-llama32-1b-fp16-seqs1024-v0.31.0")
    log = tmp_path / "start.log"
    log.write_text(e["excerpt"])
    assert main(["parse-log", str(log), "--compare", "--model", e["model"], "--gpu", e["gpu"]]) == 0
    out = capsys.readouterr().out
    rows = {row["line"]: row for row in _compared(e)["rows"]}
    for line in ("peak activation", "non-torch memory", "Estimated CUDA graph memory"):
        shown = next(text for text in out.splitlines() if text.startswith(line))
        assert shown.endswith(f"{rows[line]['difference_gib']:+.2f} GiB"), shown


def test_a_first_start_that_kept_a_table_copy_says_so_instead_of_blaming_other_processes():
    """The RunPod RTX 4090 first start of Qwen3-1.7B (v0.27.1, model runner V2) keeps 0.89 GiB of
    non-torch memory where its restart keeps 0.33: one more copy of the 0.58 GiB input-embedding
    table, which kvcalc counts on V2 in the band only (reserve.COLD_KEPT_TABLE_COPIES). The cause
    names the copy; its restart, which keeps none, gets no such cause."""
    def causes(log_id):
        e = next(x for x in load_logs() if x["id"] == log_id)
        r = api.handle({"op": "compare_log", "text": e["excerpt"], "model": e["model"], "gpu": e["gpu"],
                        "settings": {"vllm_version": e["vllm_version"]}})
        assert r["ok"], r
        return " ".join(str(row.get("cause") or "") for row in r["result"]["rows"])
    cold = causes("rtx4090-runpod-qwen3-1.7b-maxlen2k-seqs256-cold-v0.27.1")
    assert "about one copy of the 0.58 GiB embedding table the compiled graph looks up" in cold
    assert "other processes" not in cold
    assert "looks up, which some first starts" not in causes("rtx4090-runpod-qwen3-1.7b-maxlen2k-seqs256-warm-v0.27.1")
