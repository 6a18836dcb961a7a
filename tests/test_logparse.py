"""The log parser, field by field, on the real excerpts stored with each public log, plus
prefixes, colours, both capacity-line formats and errors."""

import pytest

from kvcalc.logparse import parse_log
from kvcalc.validate import load_logs

EXCERPTS = [e for e in load_logs() if e.get("excerpt") and "GPU KV cache size" in e["excerpt"]]


@pytest.mark.parametrize("entry", EXCERPTS, ids=lambda e: e["id"])
def test_excerpt_numbers_match_the_recorded_entry(entry):
    p = parse_log(entry["excerpt"])
    logged = entry["logged"]
    assert p.gpu_kv_cache_tokens == logged["gpu_kv_cache_tokens"]
    if logged.get("available_kv_cache_gib") is not None and p.available_kv_cache_gib:
        assert logged["available_kv_cache_gib"] in p.available_kv_cache_gib
    if logged.get("max_concurrency") is not None and p.max_concurrency is not None:
        assert p.max_concurrency == logged["max_concurrency"]
    if p.concurrency_len is not None:
        assert p.concurrency_len == entry["max_model_len"]


def test_prefixes_colours_and_two_line_capacity():
    text = "\n".join([
        "(APIServer pid=15) INFO 08-27 21:02:14 [api_server.py:1805] vLLM API server version 0.10.1.1",
        "(APIServer pid=15) INFO 08-27 21:02:14 [utils.py:326] non-default args: {'model': 'Qwen/Qwen3-8B', "
        "'max_model_len': 32768, 'tensor_parallel_size': 2, 'gpu_memory_utilization': 0.85, "
        "'kv_cache_dtype': 'fp8', 'enforce_eager': True}",
        "\x1b[1;36m(Worker_TP0 pid=9)\x1b[0;0m INFO 08-27 21:03:25 [gpu_worker.py:276] Available KV cache memory: 19.25 GiB",
        "(Worker_TP1 pid=10) INFO 08-27 21:03:25 [gpu_worker.py:276] Available KV cache memory: 19.26 GiB",
        "(EngineCore_0 pid=82) INFO 08-27 21:03:26 [kv_cache_utils.py:849] GPU KV cache size: 157,648 tokens",
        "(EngineCore_0 pid=82) INFO 08-27 21:03:26 [kv_cache_utils.py:853] Maximum concurrency for 131,072 tokens per request: 1.20x",
        "some unrelated line with Available in it",
    ])
    p = parse_log(text)
    assert p.vllm_version == "0.10.1.1" and p.release() == "0.10.1"
    assert p.model == "Qwen/Qwen3-8B"
    assert p.available_kv_cache_gib == [19.25, 19.26]
    assert (p.gpu_kv_cache_tokens, p.concurrency_len, p.max_concurrency) == (157648, 131072, 1.2)
    assert p.settings() == {"tensor_parallel_size": 2, "gpu_memory_utilization": 0.85, "kv_cache_dtype": "fp8",
                            "max_model_len": 131072, "enforce_eager": True, "vllm_version": "0.10.1"}
    assert p.lines_used == 6 and p.lines_total == 7


def test_merged_capacity_line_and_breakdown():
    p = parse_log(
        "(EngineCore pid=326) INFO 10-06 17:00:33 [kv_cache_utils.py:2464] GPU KV cache size: 460,496 tokens, "
        "Maximum concurrency for 131,072 tokens per request: 3.51x\n"
        "(EngineCore pid=326) INFO 10-06 17:00:41 [gpu_worker.py:955] Free memory on device (78.84/79.25 GiB) on "
        "startup. Desired GPU memory utilization is (0.92, 72.91 GiB). Actual usage is 15.26 GiB for consumed memory "
        "(weights + non-torch), 1.44 GiB for peak activation, and 0.23 GiB for CUDAGraph memory.")
    assert (p.gpu_kv_cache_tokens, p.max_concurrency, p.concurrency_len) == (460496, 3.51, 131072)
    assert (p.total_memory_gib, p.requested_util) == (79.25, 0.92)
    assert p.usage == {"consumed": 15.26, "activation_peak": 1.44, "cuda_graph": 0.23}


@pytest.mark.parametrize("line,want", [
    ("(EngineCore_0 pid=1159) (RayWorkerWrapper pid=1273) INFO 09-10 23:27:29 [topk_topp_sampler.py:50] "
     "Using FlashInfer for top-p & top-k sampling.", True),
    ("WARNING 02-11 16:35:13 [topk_topp_sampler.py:66] FlashInfer is not available. Falling back to the "
     "PyTorch-native implementation of top-p & top-k sampling. For the best performance, please install "
     "FlashInfer.", False),
    ("INFO 05-01 10:00:00 [topk_topp_sampler.py:45] FlashInfer top-p/top-k sampling disabled via "
     "VLLM_USE_FLASHINFER_SAMPLER=0.", False),
    ("INFO 11-20 10:00:00 [topk_topp_sampler.py:60] FlashInfer is available, but it is not enabled.", False),
], ids=["on", "not-installed", "disabled", "opt-in-not-taken"])
def test_which_sampler_the_log_names_becomes_a_setting(line, want):
    """The sampler decides a GiB-sized part of the profile peak, so a pasted log that names it
    pins it (vllm/v1/sample/ops/topk_topp_sampler.py messages, several releases)."""
    log = parse_log(line)
    assert log.flashinfer_sampler is want
    assert log.settings() == {"flashinfer_sampler": want}
    assert parse_log("INFO Using max model len 4096").settings().get("flashinfer_sampler") is None


@pytest.mark.parametrize("args,skip,limits", [
    ("{'model': 'x', 'skip_mm_profiling': True}", True, None),
    ("{'model': 'x', 'limit_mm_per_prompt': {'image': 0, 'video': 0}}", None, {"image": 0, "video": 0}),
    ("{'model': 'x', 'limit_mm_per_prompt': {'image': 2, 'audio': 0}}", None, {"image": 2, "audio": 0}),
    ("{'model': 'x', 'limit_mm_per_prompt': {'image': 0, 'audio': 0}}", None, {"image": 0, "audio": 0}),
    ("{'model': 'x', 'limit_mm_per_prompt': {'vision': 1}}", None, None),    # not a modality vLLM counts
])
def test_a_log_that_limits_or_skips_the_vision_profile(args, skip, limits):
    """--skip-mm-profiling pins the setting; --limit-mm-per-prompt travels as it is, and the core
    decides what it leaves to warm up (a modality at 0 is not profiled)."""
    log = parse_log(f"INFO 01-01 00:00:00 [utils.py:1] non-default args: {args}")
    assert log.settings().get("skip_mm_profiling") is skip
    assert log.settings().get("limit_mm_per_prompt") == limits


def test_a_log_served_as_a_language_model_only():
    log = parse_log("INFO 01-01 00:00:00 [utils.py:1] non-default args: "
                    "{'model': 'google/gemma-4-E2B', 'language_model_only': True}")
    assert log.settings().get("language_model_only") is True
    assert "language_model_only" not in parse_log(
        "INFO 01-01 00:00:00 [utils.py:1] non-default args: {'model': 'x'}").settings()


def test_capture_size_flags_from_the_args():
    log = parse_log("INFO 01-01 00:00:00 [utils.py:1] non-default args: "
                    "{'model': 'x', 'cudagraph_capture_sizes': [1, 2, 4, 8], 'max_cudagraph_capture_size': 8}")
    assert log.settings()["cudagraph_capture_sizes"] == [1, 2, 4, 8]
    assert log.settings()["max_cudagraph_capture_size"] == 8


def test_prefix_caching_from_the_args_or_the_engine_line():
    """It decides how many state blocks a hybrid model's request holds, so a log that states it
    pins it: the non-default args, else the engine line's enable_prefix_caching=…"""
    args = parse_log("INFO 01-01 00:00:00 [utils.py:1] non-default args: {'model': 'x', 'enable_prefix_caching': True}")
    assert args.settings()["enable_prefix_caching"] is True
    engine = parse_log("INFO 01-01 00:00:00 [core.py:1] Initializing a V1 LLM engine (v0.19.0) with config: "
                       "model='x', enable_prefix_caching=False, chunked_prefill_enabled=True")
    assert engine.settings()["enable_prefix_caching"] is False
    assert "enable_prefix_caching" not in parse_log("INFO Using max model len 4096").settings()


def test_not_enough_memory_error():
    p = parse_log("ValueError: To serve at least one request with the model's max seq len (196608), (23.25 GiB KV "
                  "cache is needed, which is larger than the available KV cache memory (22.5 GiB). Based on the "
                  "available memory, the estimated maximum model length is 190272. Try increasing …")
    assert (p.error_needed_gib, p.error_available_gib, p.error_estimated_max_len) == (23.25, 22.5, 190272)
    assert p.settings()["max_model_len"] == 196608


@pytest.mark.parametrize("junk", ["", "\x00\xff" * 1000, "GPU KV cache size: lots tokens",
                                  "non-default args: {" + "'a': [" * 500, "x" * 100_000])
def test_junk_is_ignored(junk):
    p = parse_log(junk)
    assert p.gpu_kv_cache_tokens is None and not p.non_default_args


@pytest.mark.parametrize("lines,want", [
    (["(EngineCore pid=1214629) INFO 10-09 23:51:46 [backends.py:391] Compiling a graph for compile "
      "range (1, 8192) takes 6.40 s"], "cold"),
    (["INFO 04-18 08:26:15 [backends.py:120] Compiling a graph for dynamic shape takes 31.2 s"], "cold"),
    (["(EngineCore pid=662741) INFO 10-09 23:12:19 [decorators.py:312] Directly load AOT compilation "
      "from path .../torch_aot_compile/69c96d44/rank_0_0/model"], "warm"),
    (["INFO 04-18 08:26:15 [backends.py:120] Directly load the compiled graph(s) for shape None from "
      "the cache, took 4.190 s"], "warm"),
    # one graph loaded, another compiled: the start still paid for a compile
    (["INFO [backends.py:120] Directly load the compiled graph(s) for compile range (1, 2048) from the cache",
      "INFO [backends.py:391] Compiling a graph for compile range (2049, 8192) takes 3.10 s"], "cold"),
    (["INFO [backends.py:391] Compiling a graph for compile range (1, 8192) takes 6.40 s",
      "INFO [decorators.py:312] Directly load AOT compilation from path x"], "cold"),
], ids=["range", "dynamic-shape", "aot", "graphs", "load-then-compile", "compile-then-load"])
def test_whether_the_log_compiled_becomes_the_compile_cache_state(lines, want):
    """vLLM prints 'Compiling a graph' on a first start (empty torch.compile cache) and 'Directly
    load' on a restart (vllm/compilation/backends.py, decorators.py); from v0.27 that moves the pool."""
    log = parse_log("\n".join(lines))
    assert log.compile_cache == want
    assert log.settings()["compile_cache"] == want
    assert "compile_cache" not in parse_log("INFO Using max model len 4096").settings()


@pytest.mark.parametrize("line,want", [
    ("(Worker_TP0 pid=7) WARNING 06-04 10:00:00 [gpu_worker.py:471] CUDA graph memory profiling is disabled "
     "(VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0). Without it, CUDA graph memory is not accounted for during "
     "KV cache allocation, which may require lowering --gpu-memory-utilization to avoid OOM.", False),
    ("INFO 04-10 10:00:00 [gpu_worker.py:452] CUDA graph memory profiling is enabled "
     "(VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1). This will become the default in v0.19.", True),
    ("INFO 05-20 10:00:00 [gpu_worker.py:455] CUDA graph memory profiling is enabled (default since v0.21.0). "
     "The current --gpu-memory-utilization=0.9200 is equivalent to --gpu-memory-utilization=0.8929 without "
     "CUDA graph memory profiling.", None),
], ids=["off", "opted-in", "release-default"])
def test_the_cuda_graph_profiler_switch_the_log_names_becomes_a_setting(line, want):
    """VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS decides whether the CUDA-graph estimate is
    subtracted (vllm/v1/worker/gpu_worker.py prints which): a log that names the variable pins
    it; the default release's line says nothing beyond the release."""
    log = parse_log(line)
    assert log.cudagraph_memory_profiling is want
    assert log.settings().get("cudagraph_memory_profiling") is want


def test_the_pool_follows_the_smallest_rank_a_tp_log_quotes():
    """A TP 2 log whose 'Available KV cache memory' line comes from rank 0 (19.09 GiB) while rank 1's
    breakdown line ends 'Current kv cache memory in use is 19.08 GiB': vLLM sizes the pool from
    the smaller, and so does the parse (two Quadro RTX 6000s, v0.28 dev)."""
    text = ("(Worker_TP0 pid=1) INFO [gpu_worker.py:586] Available KV cache memory: 19.09 GiB\n"
            "(Worker_TP0 pid=1) INFO [gpu_worker.py:817] Free memory on device (23.09/23.47 GiB) on startup. "
            "Current kv cache memory in use is 19.09 GiB.\n"
            "(Worker_TP1 pid=2) INFO [gpu_worker.py:817] Free memory on device (23.09/23.46 GiB) on startup. "
            "Current kv cache memory in use is 19.08 GiB.\n")
    log = parse_log(text)
    assert min(log.available_kv_cache_gib) == 19.08


def test_a_wsl_start_turns_pinned_memory_off():
    """vLLM under WSL2 says it runs without pinned memory (both spellings of the warning); model
    runner V2 then keeps every request's token ids in GPU memory (reserve.dense_token_ids_bytes)."""
    from kvcalc.logparse import parse_log
    for line in ("WARNING 05-01 20:44:10 [interface.py:1074] Using 'pin_memory=False' as WSL is detected. "
                 "This may slow down performance.",
                 "WARNING 05-01 20:44:10 [interface.py:630] Using pin_memory=False as WSL is detected. "
                 "This may slow down performance."):
        log = parse_log(line + "\nINFO [gpu_worker.py:373] Available KV cache memory: 13.49 GiB\n")
        assert log.pinned_memory is False and log.settings()["pinned_memory"] is False
    assert "pinned_memory" not in parse_log("INFO [gpu_worker.py:373] Available KV cache memory: 13.49 GiB\n").settings()


ENGINE = ("(EngineCore pid=77) INFO 08-27 19:53:25 [core.py:113] Initializing a V1 LLM engine (v0.23.0) with "
          "config: model='Qwen/Qwen2.5-1.5B-Instruct', speculative_config={spec}, "
          "tokenizer='Qwen/Qwen2.5-1.5B-Instruct', skip_tokenizer_init=False, dtype=torch.bfloat16, "
          "max_seq_len=4096, tensor_parallel_size=1, pipeline_parallel_size=1")


@pytest.mark.parametrize("spec, want", [
    ("SpeculativeConfig(method='draft_model', model='Qwen/Qwen2.5-0.5B-Instruct', num_spec_tokens=5)",
     {"method": "draft_model", "model": "Qwen/Qwen2.5-0.5B-Instruct", "num_speculative_tokens": 5}),
    ("SpeculativeConfig(method='ngram', model=None, num_spec_tokens=5)",
     {"method": "ngram", "num_speculative_tokens": 5}),
    ("SpeculativeConfig(method='mtp', model='Qwen/Qwen2.5-1.5B-Instruct', num_spec_tokens=3)",
     {"method": "mtp", "model": "Qwen/Qwen2.5-1.5B-Instruct", "num_speculative_tokens": 3}),
    ("None", None),
])
def test_the_engine_lines_speculative_config_and_the_model_it_serves(spec, want):
    """SpeculativeConfig's repr carries its own model= (the drafter): it is read as the speculative
    config, and the model the log serves stays the target."""
    log = parse_log(ENGINE.format(spec=spec))
    assert log.model == "Qwen/Qwen2.5-1.5B-Instruct"
    assert log.settings().get("speculative") == want
    assert log.settings()["max_model_len"] == 4096


def test_speculative_settings_from_the_args_before_the_engine_line():
    spec = "SpeculativeConfig(method='ngram', model=None, num_spec_tokens=5)"
    as_json = ("INFO [utils.py:233] non-default args: {'model': 'Qwen/Qwen2.5-1.5B-Instruct', "
               "'speculative_config': {'method': 'ngram', 'num_speculative_tokens': 4, 'prompt_lookup_max': 5}}")
    log = parse_log(as_json + "\n" + ENGINE.format(spec=spec))
    assert log.settings()["speculative"] == {"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 5}
    # the v0.22+ shorthand flags, when no engine line resolved them
    flags = ("INFO [api_utils.py:273] non-default args: {'model': 'Qwen/Qwen2.5-1.5B-Instruct', "
             "'spec_method': 'draft_model', 'spec_model': 'Qwen/Qwen2.5-0.5B-Instruct', 'spec_tokens': 5}")
    assert parse_log(flags).settings()["speculative"] == {
        "method": "draft_model", "model": "Qwen/Qwen2.5-0.5B-Instruct", "num_speculative_tokens": 5}
    # without a method the flags say nothing kvcalc can size
    no_method = flags.replace("'spec_method': 'draft_model', ", "")
    assert "speculative" not in parse_log(no_method).settings()



@pytest.mark.parametrize("text", [
    "(EngineCore pid=9) INFO 03-02 10:00:00 [vllm.py:660] Performance mode set to 'throughput'.",
    "(APIServer pid=1) INFO 03-02 10:00:00 [utils.py:233] non-default args: {'model': 'Qwen/Qwen3-8B', "
    "'performance_mode': 'throughput'}",
])
def test_the_performance_mode_a_log_names_becomes_a_setting(text):
    assert parse_log(text).settings()["performance_mode"] == "throughput"


@pytest.mark.parametrize("args, want", [
    # an author's '...' elision: the nested config stays one setting, not loose keys
    ("{'model_tag': 'RedHatAI/Qwen3.6-35B-A3B-NVFP4', ..., 'max_num_seqs': 8, "
     "'speculative_config': {'method': 'qwen3_next_mtp', 'num_speculative_tokens': 2}}",
     {"model_tag": "RedHatAI/Qwen3.6-35B-A3B-NVFP4", "max_num_seqs": 8,
      "speculative_config": {"method": "qwen3_next_mtp", "num_speculative_tokens": 2}}),
    # commas inside strings and lists do not split; an escaped quote does not end the string
    ("{'served_model_name': ['a, b'], ..., 'chat_template': 'it\\'s, {x}', 'max_model_len': 4096}",
     {"served_model_name": ["a, b"], "chat_template": "it's, {x}", "max_model_len": 4096}),
    # a line cut off inside a value keeps the entries before it
    ("{'max_model_len': 4096, 'speculative_config': {'method': 'eagle3', 'model': 'x}",
     {"max_model_len": 4096}),
])
def test_non_default_args_that_are_not_a_literal_are_read_entry_by_entry(args, want):
    log = parse_log("(APIServer pid=1) INFO 05-03 18:36:06 [utils.py:233] non-default args: " + args)
    assert log.non_default_args == want

@pytest.mark.parametrize("line, want", [
    ("(EngineCore_DP0 pid=289) INFO 11-28 11:47:32 [mxfp4.py:141] Using Marlin backend", True),
    ("INFO 08-05 10:00:00 [mxfp4.py:101] Using Triton backend", False),
    ("INFO 08-05 10:00:00 [mxfp4.py:66] Using FlashInfer MXFP4 BF16 backend for SM100, For faster ...", False),
    ("INFO 05-01 10:00:00 [mxfp4.py:381] Using 'MARLIN' Mxfp4 MoE backend.", True),
    ("INFO 05-01 10:00:00 [mxfp4.py:381] Using 'BATCHED_MARLIN' Mxfp4 MoE backend.", True),
    ("INFO 05-01 10:00:00 [mxfp4.py:381] Using 'TRITON' Mxfp4 MoE backend.", False),
    # not the MXFP4 experts: --moe-backend (any MoE format; an MXFP4 model's log names its kernels
    # too), attention's Triton backend, FP8 MoE's Marlin
    ("INFO 01-01 00:00:00 [utils.py:1] non-default args: {'model': 'x/nvfp4-moe', 'moe_backend': 'marlin'}", None),
    ("INFO 10-01 00:00:00 [cuda.py:322] Using Triton backend on V1 engine.", None),
    ("INFO 10-01 00:00:00 [fp8.py:169] Using Marlin backend for FP8 MoE", None),
])
def test_the_kernels_mxfp4_experts_run_on_become_a_setting(line, want):
    assert parse_log(line).settings().get("mxfp4_marlin") is want


@pytest.mark.parametrize("line", [
    "(APIServer pid=1) INFO 10-08 13:23:01 [api_utils.py:347] vLLM server version 0.30.0, serving model Qwen/Qwen3-8B",
    "(APIServer pid=1) INFO 10-08 13:23:01 [api_utils.py:347]  ▄▄ ▄█ █     █     █ ▀▄▀ █  version 0.30.0",
])
def test_the_v0_30_server_banner_names_the_release(line):
    """From v0.30 the API server prints 'vLLM server version X, serving model M' (or, with its
    logo, '... version X' at the end of a line): either names the release."""
    assert parse_log(line).settings()["vllm_version"] == "0.30.0"


def test_settings_the_args_state_are_all_kept_and_auto_length_stays_auto():
    """non-default args carry settings that change the pool (decode context parallelism, a fixed
    --kv-cache-memory-bytes, async scheduling, the hybrid manager, the Mamba state dtype); --max-model-len
    auto is -1 there and stays auto (kvcalc fits the length again from the log's memory), whatever
    'Using max model len' says. With --kv-cache-memory-bytes vLLM prints the pool it reserved instead of
    'Available KV cache memory', and the comparison uses it."""
    text = ("INFO [utils.py:233] non-default args: {'model': 'Qwen/Qwen3-8B', 'max_model_len': -1, "
            "'tensor_parallel_size': 2, 'decode_context_parallel_size': 2, 'kv_cache_memory_bytes': 10737418240, "
            "'async_scheduling': False, 'disable_hybrid_kv_cache_manager': True, 'mamba_ssm_cache_dtype': 'float32'}\n"
            "INFO [model.py:1] Using max model len 40960\n"
            "INFO [gpu_worker.py:300] Initial free memory 78.50 GiB, reserved 10.00 GiB memory for KV Cache as "
            "specified by kv_cache_memory_bytes config and skipped memory profiling.\n")
    p = parse_log(text)
    s = p.settings()
    assert s["max_model_len"] == -1 and s["decode_context_parallel_size"] == 2
    assert s["kv_cache_memory_bytes"] == 10737418240 and s["async_scheduling"] is False
    assert s["disable_hybrid_kv_cache_manager"] is True and s["mamba_ssm_cache_dtype"] == "float32"
    assert p.available_kv_cache_gib == [10.0]


def test_a_start_refused_for_free_memory_gets_a_specific_answer():
    """'Free memory on device ... is less than desired GPU memory utilization': nothing was sized, so
    the comparison says what would have let the start through instead of 'nothing usable'."""
    from kvcalc import api
    text = ("ValueError: Free memory on device cuda:0 (40.12/79.19 GiB) on startup is less than desired GPU "
            "memory utilization (0.9, 71.27 GiB). Decrease GPU memory utilization or reduce GPU memory used by "
            "other processes.")
    r = api.handle({"op": "compare_log", "text": text, "gpu": "h100"})
    assert r["ok"] is False
    msg = r["error"]["message"]
    assert "40.12 of 79.19 GiB free" in msg and "at most 0.5" in msg


def test_the_cuda_graph_pool_line_gives_both_figures():
    """'CUDA graph pool memory: A GiB (actual), E GiB (estimated)' (v0.20+, both runners; the V2 runner
    prints no 'Estimated CUDA graph memory' line)."""
    p = parse_log("INFO [gpu_worker.py:600] CUDA graph pool memory: 0.45 GiB (actual), 0.52 GiB (estimated), "
                  "difference: 0.07 GiB (15.6%).\n")
    assert (p.graph_capture_gib, p.cuda_graph_estimate_gib) == (0.45, 0.52)


def test_the_auto_fit_line_marks_an_auto_length_and_gives_the_fitted_one():
    """'Auto-fit max_model_len: reduced from A to B ...' (v0.14+) says the start ran with --max-model-len
    auto even where the args are not quoted, and B is the length vLLM served; 'full model context length
    A fits' keeps A. Both wordings (before and from v0.32) are read."""
    old = parse_log("INFO [kv_cache_utils.py:1373] Auto-fit max_model_len: reduced from 10485760 to 324640 to "
                    "fit in available GPU memory (29.72 GiB available for KV cache)\n"
                    "INFO [kv_cache_utils.py:1087] Maximum concurrency for 324,640 tokens per request: 1.00x\n")
    assert old.auto_max_model_len and old.auto_fit_len == 324640 and old.settings()["max_model_len"] == -1
    new = parse_log("INFO [kv_cache_utils.py:2480] Auto-fit max_model_len: full model context length 262144 fits "
                    "in available KV cache memory (61.5 GiB GPU)\n")
    assert new.auto_max_model_len and new.auto_fit_len == 262144
    plain = parse_log("INFO [kv_cache_utils.py:1087] Maximum concurrency for 32,768 tokens per request: 3.00x\n")
    assert not plain.auto_max_model_len and plain.settings()["max_model_len"] == 32768


def test_a_frontend_decoding_reserve_sizes_the_pool_from_what_is_left():
    """v0.25+: with a GPU budget for the frontend's multimodal decoding, vLLM prints 'Available KV
    cache memory' first, then takes the reserve off ('KV cache memory reduced to Y GiB'): the pool
    is sized from Y, and the from-log pool with it."""
    from kvcalc import api
    text = ("INFO [gpu_worker.py:436] Available KV cache memory: 51.39 GiB\n"
            "INFO [gpu_ipc_memory.py:244] Reserving 4.0 GiB of GPU memory for frontend multimodal decoding "
            "(4.0 GiB raw-frame semaphore budget, 0.0 GiB decoder+CUDA-context across 1 API server(s) @ 0.0 "
            "GiB/server); KV cache memory reduced to 47.39 GiB.\n")
    assert min(parse_log(text).available_kv_cache_gib) == 47.39
    r = api.handle({"op": "compare_log", "text": text, "model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "h100",
                    "settings": {"vllm_version": "0.29.0", "max_model_len": 8192}})
    assert r["ok"], r
    assert r["result"]["calculation"]["from_log"]["available_gib"] == 47.39


def test_a_hisparse_start_is_named_not_compared():
    """v0.32+ prints 'GPU + host KV cache size' when HiSparse keeps part of the cache in host memory:
    that count is not a GPU pool, so the comparison says why it stops instead of a wrong difference."""
    from kvcalc import api
    text = ("INFO [gpu_worker.py:436] Available KV cache memory: 20.0 GiB\n"
            "INFO [kv_cache_utils.py:1148] GPU + host KV cache size: 2,000,000 tokens, Maximum concurrency for "
            "131,072 tokens per request: 15.26x\n")
    assert parse_log(text).host_kv_pool
    r = api.handle({"op": "compare_log", "text": text, "model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "h100"})
    assert not r["ok"] and "HiSparse" in r["error"]["message"]
    assert not parse_log("INFO GPU KV cache size: 100 tokens\n").host_kv_pool


def test_per_rank_pool_lines_keep_the_smallest():
    """Up to v0.10 each worker's KV config printed its own pool lines before vLLM gave every rank the
    smallest (Qwen3-32B over eight H100s, v0.10.0: three pool lines, 227,801 blocks served)."""
    from kvcalc.logparse import parse_log
    text = "\n".join([
        "INFO 08-16 01:49:52 [kv_cache_utils.py:833] GPU KV cache size: 3,650,960 tokens",
        "INFO 08-16 01:49:52 [kv_cache_utils.py:837] Maximum concurrency for 32,768 tokens per request: 111.42x",
        "INFO 08-16 01:49:52 [kv_cache_utils.py:833] GPU KV cache size: 3,644,816 tokens",
        "INFO 08-16 01:49:52 [kv_cache_utils.py:837] Maximum concurrency for 32,768 tokens per request: 111.23x",
        "INFO 08-16 01:49:52 [kv_cache_utils.py:833] GPU KV cache size: 3,675,536 tokens",
        "INFO 08-16 01:49:52 [kv_cache_utils.py:837] Maximum concurrency for 32,768 tokens per request: 112.17x",
    ])
    p = parse_log(text)
    assert (p.gpu_kv_cache_tokens, p.max_concurrency, p.concurrency_len) == (3644816, 111.23, 32768)
    assert 227801 * 16 == p.gpu_kv_cache_tokens


@pytest.mark.parametrize("line,release", [
    ("(APIServer pid=1) INFO 05-28 19:45:41 [api_server.py:1980] vLLM API server version 0.11.1+9114fd76.nv25.12",
     "0.11.1+nv25.12"),
    ("(EngineCore_DP0 pid=214) INFO 05-28 19:45:51 [core.py:93] Initializing a V1 LLM engine (v0.13.0+faa43dbf.nv26.01) "
     "with config: model='x'", "0.13.0+nv26.01"),
    ("(APIServer pid=1) INFO 03-26 10:43:48 [utils.py:299]  ▄▄ ▄█ █     █     █ ▀▄▀ █  version 0.18.1rc1.dev147+g290809456",
     "0.18.1"),
])
def test_an_ngc_build_keeps_its_container_release(line, release):
    """NVIDIA's NGC images can pair a vLLM release with a newer torch, which changes what a first
    start reserves (versions.first_start_compile_untied), so the container tag stays in the
    version the log sets; a stock development build keeps its release only."""
    assert parse_log(line).settings()["vllm_version"] == release


def test_the_debug_profile_line_and_the_graph_equivalence_line():
    """The DEBUG profile line gives the torch peak and, before vLLM reworded it, the non-torch
    increase (a negative one, which sleep mode prints, is not read); the equivalence line gives
    the utilization pair, and the graph estimate is that difference times the total."""
    log = parse_log(
        "DEBUG 11-20 15:29:52 [gpu_worker.py:297] Memory profiling takes 5.51 seconds. Total non KV cache "
        "memory: 10.89GiB; torch peak memory increase: 4.74GiB; non-torch forward increase memory: 0.13GiB; "
        "weights memory: 6.02GiB.\n"
        "INFO [gpu_worker.py:495] CUDA graph memory profiling is enabled (default since v0.21.0). The current "
        "--gpu-memory-utilization=0.9000 is equivalent to --gpu-memory-utilization=0.8918 without CUDA graph "
        "memory profiling.\n")
    assert (log.profile_torch_peak_gib, log.profile_non_torch_gib) == (4.74, 0.13)
    assert (log.cg_current_util, log.cg_equivalent_util) == (0.9, 0.8918)
    assert log.breakdown(79.19) == {"activation_peak_gib": 4.74, "non_torch_gib": 0.13, "cuda_graph_gib": 0.65}
    assert "cuda_graph_gib" not in log.breakdown(None)
    assert log.settings()["gpu_memory_utilization"] == 0.9
    newer = parse_log("DEBUG Memory profiling takes 6.43 seconds. Total non KV cache memory: 7.22GiB; torch peak "
                      "memory increase: 1.40GiB; total consumed (from mem_get_info): 7.25GiB; weights memory: 5.79GiB.")
    assert (newer.profile_torch_peak_gib, newer.profile_non_torch_gib) == (1.4, None)
    asleep = parse_log("DEBUG Memory profiling takes 5.52 seconds. Total non KV cache memory: 10.16GiB; torch peak "
                       "memory increase: 4.74GiB; non-torch forward increase memory: -0.60GiB; weights memory: 6.02GiB.")
    assert asleep.profile_non_torch_gib is None


def test_the_engine_lines_cudagraph_mode_reaches_the_settings_unless_it_is_the_default_or_eager():
    """The engine line prints the compilation config (v0.10.1+): a mode other than the default
    FULL_AND_PIECEWISE becomes the cudagraph_mode setting; --enforce-eager prints NONE, which the
    eager switch already says."""
    line = ("(EngineCore pid=1) INFO 10-09 23:35:00 [core.py:123] Initializing a V1 LLM engine (v0.31.0) with "
            "config: model='m', enforce_eager=False, compilation_config={'mode': <CompilationMode.VLLM_COMPILE: 3>, "
            "'cudagraph_mode': <CUDAGraphMode.NONE: 0>, 'use_inductor_graph_partition': False}\n")
    assert parse_log(line).settings()["cudagraph_mode"] == "NONE"
    default = line.replace("NONE: 0", "FULL_AND_PIECEWISE: (2, 1)")
    assert "cudagraph_mode" not in parse_log(default).settings()
    eager = line.replace("enforce_eager=False", "enforce_eager=True")
    settings = parse_log(eager).settings()
    assert settings.get("enforce_eager") is True and "cudagraph_mode" not in settings


def test_the_file_that_logged_the_loading_line_names_the_runner_where_the_release_has_a_choice():
    """'Model loading took' comes from the V1 runner's gpu_model_runner.py or model runner V2's
    gpu/model_runner.py: a V1 start of a release whose default is V2 (VLLM_USE_V2_MODEL_RUNNER=0)
    shows it nowhere else. Before v0.12, where there is no choice, the file sets nothing; an
    explicit runner line wins over the file."""
    v1 = ("(EngineCore pid=171) INFO 10-02 09:33:03 [core.py:123] Initializing a V1 LLM engine (v0.29.0) with config: "
          "model='m'\n(EngineCore pid=171) INFO 10-02 09:33:10 [gpu_model_runner.py:5471] Model loading took 8.88 GiB "
          "memory and 6.95 seconds\n")
    assert parse_log(v1).settings()["model_runner_v2"] is False
    v2 = v1.replace("[gpu_model_runner.py:5471]", "[model_runner.py:404]")
    assert parse_log(v2).settings()["model_runner_v2"] is True
    old = v1.replace("(v0.29.0)", "(v0.11.0)")
    assert "model_runner_v2" not in parse_log(old).settings()
    said = v2 + "(EngineCore pid=171) WARNING 10-02 09:33:01 [vllm.py:1] ... using the V1 model runner instead.\n"
    assert parse_log(said).settings()["model_runner_v2"] is False
