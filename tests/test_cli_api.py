import json

import pytest

from kvcalc import api
from kvcalc.cli import main
from kvcalc.reserve import UMA_HOST_GIB


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_estimate_table(capsys):
    code, out, _ = run(capsys, "estimate", "--model", "Qwen/Qwen3-8B", "--gpu", "h100",
                       "--max-model-len", "32768", "--avg-tokens", "4096")
    assert code == 0
    assert "GPU KV cache size" in out and "vllm serve Qwen/Qwen3-8B --max-model-len 32768" in out


def test_estimate_json_equals_api(capsys):
    code, out, _ = run(capsys, "estimate", "--model", "openai/gpt-oss-120b", "--gpu", "H100",
                       "--max-model-len", "131072", "--json", "--available-kv-gib", "20", "--vllm-version", "0.33.0")
    assert code == 0
    result = json.loads(out)
    direct = api.handle({"op": "estimate", "model": "openai/gpt-oss-120b", "gpu": "h100",
                         "settings": {"max_model_len": 131072, "vllm_version": "0.33.0"}, "available_kv_gib": 20})
    assert result == json.loads(json.dumps(direct["result"]))
    assert result["from_log"]["blocks_per_request"] == 9225


def test_cudagraph_memory_profiling_flag_sets_the_cuda_graph_term(capsys):
    """--cudagraph-memory-profiling on|off is VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS: off, vLLM
    0.25 subtracts no CUDA-graph estimate for a MoE model (the pool grows by that term); on, v0.19
    subtracts it; before v0.18 the variable does not exist, which the error says."""
    def graphs(*extra):
        code, out, err = run(capsys, "estimate", "--model", "Qwen/Qwen3-30B-A3B", "--gpu", "h100", "--json", *extra)
        assert code == 0, err
        r = json.loads(out)
        term = next(t for t in r["budget"]["terms"] if t["name"] == "CUDA graphs")
        return term["gib"], r["settings"]["cudagraph_memory_profiling"], r["serve_command"]
    (on, unset, cmd), (off, chosen, cmd_off) = graphs("--vllm-version", "0.25.0"), \
        graphs("--vllm-version", "0.25.0", "--cudagraph-memory-profiling", "off")
    assert on > 0.3 and off == 0 and unset is None and chosen is False
    assert cmd.startswith("vllm serve") and cmd_off.startswith("VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0 vllm")
    assert graphs("--vllm-version", "0.19.1")[0] == 0
    assert graphs("--vllm-version", "0.19.1", "--cudagraph-memory-profiling", "on")[0] > 0.3
    code, _, err = run(capsys, "estimate", "--model", "Qwen/Qwen3-30B-A3B", "--vllm-version", "0.17.0",
                       "--cudagraph-memory-profiling", "on")
    assert code == 2 and "VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS" in err and "0.18.0" in err and "#30515" in err


def test_model_runner_flag_sets_the_runner(capsys):
    """--model-runner-v2 on|off is VLLM_USE_V2_MODEL_RUNNER: off keeps Gemma 3 on the V1 runner in
    v0.26 (where V2 is its default), which subtracts a CUDA-graph estimate; before v0.12 the variable
    does not exist, which the error says."""
    def result(*extra):
        code, out, err = run(capsys, "estimate", "--model", "google/gemma-3-12b-it", "--gpu", "h100",
                             "--vllm-version", "0.26.0", "--json", *extra)
        assert code == 0, err
        return json.loads(out)
    auto, v1 = result(), result("--model-runner-v2", "off")
    assert auto["layout"]["model_runner_v2"] is True and v1["layout"]["model_runner_v2"] is False
    assert auto["settings"]["model_runner_v2"] is None and v1["settings"]["model_runner_v2"] is False
    assert v1["serve_command"].startswith("VLLM_USE_V2_MODEL_RUNNER=0 vllm serve")
    code, text, _ = run(capsys, "estimate", "--model", "google/gemma-3-12b-it", "--gpu", "h100",
                        "--vllm-version", "0.26.0", "--model-runner-v2", "off")
    assert code == 0 and "· model runner V1" in text.splitlines()[1]
    code, _, err = run(capsys, "estimate", "--model", "Qwen/Qwen3-8B", "--vllm-version", "0.11.0",
                       "--model-runner-v2", "on")
    assert code == 2 and "VLLM_USE_V2_MODEL_RUNNER" in err and "0.12.0" in err


def test_mxfp4_marlin_flag_grows_the_experts_and_spells_itself(capsys):
    """--mxfp4-marlin on: gpt-oss's experts sized in Marlin's layout (more weights per GPU at TP 2),
    the setting in the JSON, and the serve command asking for it (an env var on v0.22)."""
    def run_json(*extra):
        code, out, err = run(capsys, "estimate", "--model", "openai/gpt-oss-120b", "--gpu", "h200", "--tp", "2",
                             "--vllm-version", "0.22.1", "--max-model-len", "8192", "--json", *extra)
        assert code == 0, err
        return json.loads(out)
    plain, marlin = run_json(), run_json("--mxfp4-marlin", "on")
    assert marlin["budget"]["terms"][0]["gib"] - plain["budget"]["terms"][0]["gib"] > 1.2
    assert marlin["settings"]["mxfp4_marlin"] is True and plain["settings"]["mxfp4_marlin"] is None
    assert marlin["serve_command"].startswith("VLLM_MXFP4_USE_MARLIN=1 vllm serve")
    assert run_json("--mxfp4-marlin", "off")["budget"]["terms"][0]["gib"] == plain["budget"]["terms"][0]["gib"]


def test_rocm_quick_reduce_flag_adds_its_buffer(capsys):
    """--rocm-quick-reduce LEVEL is VLLM_ROCM_QUICK_REDUCE_QUANTIZATION (any case): 4 GiB more
    non-torch memory on an MI355X TP 2 group; an unknown level or INT3 before v0.25 is refused."""
    def non_torch(*extra):
        code, out, err = run(capsys, "estimate", "--model", "Qwen/Qwen3-32B", "--gpu", "mi355x", "--tp", "2",
                             "--vllm-version", "0.25.0", "--json", *extra)
        assert code == 0, err
        r = json.loads(out)
        return next(t for t in r["budget"]["terms"] if t["name"] == "non-torch memory")["gib"], \
            r["settings"]["rocm_quick_reduce"]
    (plain, unset), (with_qr, level) = non_torch(), non_torch("--rocm-quick-reduce", "int4")
    assert round(with_qr - plain, 2) == 4.0 and unset is None and level == "INT4"
    with pytest.raises(SystemExit):
        main(["estimate", "--model", "Qwen/Qwen3-32B", "--rocm-quick-reduce", "INT5"])
    assert "invalid choice" in capsys.readouterr().err
    code, _, err = run(capsys, "estimate", "--model", "Qwen/Qwen3-32B", "--gpu", "mi355x", "--tp", "2",
                       "--vllm-version", "0.24.0", "--rocm-quick-reduce", "INT3")
    assert code == 2 and "0.25.0" in err and "#45666" in err


def test_flashinfer_sampler_flag_changes_the_activation_term(capsys):
    """--flashinfer-sampler on|off is VLLM_USE_FLASHINFER_SAMPLER: on an H100 with vLLM 0.15 it
    swaps the sort-based sampler warm-up (1,024 × 151,936 entries) for FlashInfer's."""
    def activation(*extra):
        code, out, _ = run(capsys, "estimate", "--model", "Qwen/Qwen3-8B", "--gpu", "h100",
                           "--vllm-version", "0.15.0", "--json", *extra)
        assert code == 0
        r = json.loads(out)
        term = next(t for t in r["budget"]["terms"] if t["name"] == "activation peak")
        assert r["settings"]["sampler"] in term["basis"]   # the sampler the estimate assumed, named
        return term, r["serve_command"]
    (off, cmd_off), (on, cmd_on) = activation(), activation("--flashinfer-sampler", "on")
    # 38.5 B against 14 B per entry over 155.6 M entries: 5.58 against 2.03 GiB
    assert on["gib"] < off["gib"] - 3.5 and "FlashInfer" in on["basis"] and "PyTorch" in off["basis"]
    assert cmd_off.startswith("vllm serve") and cmd_on.startswith("VLLM_USE_FLASHINFER_SAMPLER=1 vllm serve")
    with pytest.raises(SystemExit) as info:
        main(["estimate", "--model", "Qwen/Qwen3-8B", "--flashinfer-sampler", "maybe"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "--flashinfer-sampler" in err and "on or off" in err


def test_vllm_spellings_of_switches_work_as_typed(capsys):
    """A `vllm serve` user types --enable-prefix-caching bare, --no-enable-prefix-caching and -tp 2;
    each reaches the same setting as kvcalc's own spelling (on|off, --tp)."""
    def settings(*extra):
        code, out, err = run(capsys, "estimate", "--model", "Qwen/Qwen3-8B", "--vllm-version", "0.10.0",
                             "--max-model-len", "4096", "--json", *extra)
        assert code == 0, err
        r = json.loads(out)
        return r["settings"]["enable_prefix_caching"], r["settings"]["tensor_parallel_size"], r["serve_command"]
    assert settings("--enable-prefix-caching", "-tp", "2")[:2] == (True, 2)
    assert settings("--enable-prefix-caching", "off") == settings("--no-enable-prefix-caching")
    off = settings("--no-enable-prefix-caching", "-pp", "2")
    assert off[0] is False and off[2].endswith("--no-enable-prefix-caching")
    assert "--pipeline-parallel-size 2" in off[2]
    # vLLM's --quantization names map onto kvcalc's weight formats; fp8 of a bf16 checkpoint is online
    assert "--quantization fp8" in settings("-q", "fp8")[2]
    with pytest.raises(SystemExit) as info:
        main(["estimate", "--model", "Qwen/Qwen3-8B", "--quantization", "bitsandbytes"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "--quantization" in err and "awq_marlin" in err


def test_every_setting_has_an_option_and_a_name():
    """A new Settings field reaches the CLI, the log rows and the page's names without a list to
    extend by hand: each is vLLM's (VLLM_SPELLING, which the page reads from the catalog) or
    kvcalc's own, and the parser has an option for every one but the speculative config's JSON."""
    import argparse
    from kvcalc.cli import SETTING_ARGS, _estimate_parser
    from kvcalc.settings import KVCALC_SETTINGS, VLLM_SPELLING, Settings
    names = set(Settings.__dataclass_fields__)
    assert set(VLLM_SPELLING) | set(KVCALC_SETTINGS) == names
    assert not set(VLLM_SPELLING) & set(KVCALC_SETTINGS)
    assert api.catalog()["setting_spelling"] == VLLM_SPELLING
    parser = argparse.ArgumentParser()
    _estimate_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["estimate", "--model", "Qwen/Qwen3-8B"])
    assert set(SETTING_ARGS) == names - {"speculative"} and all(hasattr(args, k) for k in SETTING_ARGS)


def test_async_scheduling_and_the_mamba_state_dtype_are_options(capsys):
    """vLLM's --async-scheduling / --no-async-scheduling and --mamba-ssm-cache-dtype: the serve
    command spells a switch only where it differs from the release's own choice."""
    def serve(*extra):
        code, out, err = run(capsys, "estimate", "--model", "Qwen/Qwen3-8B", "--json", *extra)
        assert code == 0, err
        return json.loads(out)["serve_command"]
    assert serve("--async-scheduling") == "vllm serve Qwen/Qwen3-8B"         # on by default since v0.14
    assert serve("--no-async-scheduling").endswith(" --no-async-scheduling")
    assert serve("--async-scheduling", "--vllm-version", "0.13.0").endswith(" --async-scheduling")
    assert serve("--mamba-ssm-cache-dtype", "float32").endswith(" --mamba-ssm-cache-dtype float32")
    with pytest.raises(SystemExit) as info:
        main(["estimate", "--model", "Qwen/Qwen3-8B", "--mamba-ssm-cache-dtype", "int8"])
    assert info.value.code == 2 and "--mamba-ssm-cache-dtype" in capsys.readouterr().err


def test_config_path(capsys, tmp_path):
    from factories import config
    p = tmp_path / "config.json"
    p.write_text(json.dumps(config("meta-llama/Llama-3.1-8B-Instruct")))
    code, out, _ = run(capsys, "estimate", "--config", str(p), "--model-id", "my/llama",
                       "--max-model-len", "8192", "--json")
    assert code == 0 and json.loads(out)["layout"]["kv_bytes_per_token"] == 131072


def test_a_local_config_is_served_by_its_folder(capsys, tmp_path):
    """Without --model-id the serve command points at what vLLM would serve: the folder of a model's
    config.json, else the checkpoint's _name_or_path, else the file's own name."""
    from factories import config
    cfg = config("Qwen/Qwen3-0.6B")
    folder = tmp_path / "qwen3-0.6b-sft"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({**cfg, "_name_or_path": "Qwen/Qwen3-0.6B"}))
    (tmp_path / "saved.json").write_text(json.dumps({**cfg, "_name_or_path": "/data/ckpt/run-7"}))
    (tmp_path / "bare.json").write_text(json.dumps(cfg))

    def command(path, *more):
        code, out, _ = run(capsys, "estimate", "--config", str(path), "--gpu", "l4", *more, "--json")
        assert code == 0
        return json.loads(out)["serve_command"]
    assert command(folder / "config.json") == f"vllm serve {folder}"
    assert command(tmp_path / "saved.json") == "vllm serve /data/ckpt/run-7"
    assert command(tmp_path / "bare.json") == "vllm serve bare"
    assert command(folder / "config.json", "--model-id", "my/sft") == "vllm serve my/sft"


@pytest.mark.parametrize("argv,needle", [
    (["--gpu-memory-utilization", "1.5"], "--gpu-memory-utilization"),
    (["--tp", "3"], "--tensor-parallel-size"),
    (["--kv-cache-dtype", "int3"], "--kv-cache-dtype"),
    (["--vllm-version", "0.9.0"], "outside the range"),
    (["--gpu", "h9000"], "unknown GPU"),
    (["--max-model-len", "999999"], "exceeds the model's maximum"),
    (["--block-size", "24"], "--block-size"),
])
def test_bad_input_gets_a_message_not_a_traceback(capsys, argv, needle):
    code, out, err = run(capsys, "estimate", "--model", "Qwen/Qwen3-8B", *argv)
    assert code == 2 and needle in err and "Traceback" not in err


def test_bad_config_file(capsys, tmp_path):
    p = tmp_path / "c.json"
    p.write_text("{not json")
    code, _, err = run(capsys, "estimate", "--config", str(p))
    assert code == 2 and "not valid JSON" in err


def test_validate_exit_status_and_json(capsys):
    code, out, _ = run(capsys, "validate", "--json")
    data = json.loads(out)
    assert set(data) == {"rows", "summary"}
    assert code == (1 if any(r["from_log"] and not r["from_log"]["inside"] for r in data["rows"]) else 0)
    row = data["rows"][0]
    assert {"id", "logged_tokens", "from_log", "estimated", "skipped"} <= set(row)
    s = data["summary"]
    errors = [r["estimated"]["error_pct"] for r in data["rows"] if r["estimated"]]
    assert s["estimated_within_5pct"] == sum(1 for e in errors if abs(e) <= 5) <= s["estimated_checked"]
    assert s["fitted_rows"]["estimated_within_5pct"] + s["held_out_rows"]["estimated_within_5pct"] == \
        s["estimated_within_5pct"]


def test_validate_fails_when_a_log_is_outside(capsys, tmp_path):
    from kvcalc.validate import load_logs
    entry = dict(load_logs()[0])
    entry["logged"] = dict(entry["logged"], gpu_kv_cache_tokens=entry["logged"]["gpu_kv_cache_tokens"] + 1000)
    p = tmp_path / "logs.json"
    p.write_text(json.dumps({"logs": [entry]}))
    code, out, _ = run(capsys, "validate", str(p))
    assert code == 1 and " NO" in out


def test_api_errors_are_structured():
    r = api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B",
                    "settings": {"gpu_memory_utilization": 0, "tensor_parallel_size": 3}})
    assert r["ok"] is False and r["error"]["type"] == "SettingsError"
    assert set(r["error"]["fields"]) == {"--gpu-memory-utilization"}
    assert json.loads(api.handle_json("nope"))["ok"] is False
    assert api.handle({"op": "explode"})["ok"] is False


def test_unknown_hf_model_is_fetched_and_an_unreachable_hub_is_explained(capsys):
    """Without huggingface_hub the CLI fetches over HTTPS (kvcalc.hub); here HF_ENDPOINT is a closed
    local port (conftest), so the failure is the network's, said in one line."""
    code, _, err = run(capsys, "estimate", "--model", "someone/unknown-model")
    assert code == 2 and "could not fetch someone/unknown-model" in err and "check your network" in err
    assert "Traceback" not in err


def test_python_m_kvcalc_works():
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    r = subprocess.run([sys.executable, "-m", "kvcalc", "gpus"], capture_output=True, text=True,
                       env={"PYTHONPATH": str(root / "src"), "PATH": "/usr/bin:/bin"})
    assert r.returncode == 0 and "h100-sxm" in r.stdout
    # the listing says which cards have no direct peer-to-peer path (non-torch memory per peer)
    l40s = next(line for line in r.stdout.splitlines() if line.startswith("l40s "))
    h100 = next(line for line in r.stdout.splitlines() if line.startswith("h100-sxm "))
    assert "no direct peer-to-peer" in l40s and "peer-to-peer" not in h100


def test_performance_mode_flag_sizes_the_warm_up_and_the_graphs_and_spells_itself(capsys):
    """--performance-mode throughput doubles the batch defaults (a larger forward pass in the
    warm-up), interactivity adds CUDA graphs; both show in the serve command, balanced does not."""
    def estimate(*extra):
        code, out, _ = run(capsys, "estimate", "--model", "Qwen/Qwen2.5-7B-Instruct", "--gpu", "l40s",
                           "--vllm-version", "0.22.0", "--max-model-len", "8192", "--json", *extra)
        assert code == 0
        return json.loads(out)

    def term(r, name):
        return next(t["bytes"] for t in r["budget"]["terms"] if t["name"] == name)
    base, balanced = estimate(), estimate("--performance-mode", "balanced")
    fast, fine = estimate("--performance-mode", "throughput"), estimate("--performance-mode", "interactivity")
    assert balanced["estimated"]["tokens"] == base["estimated"]["tokens"]
    assert "--performance-mode" not in balanced["serve_command"]
    assert (fast["settings"]["max_num_batched_tokens"], fast["settings"]["max_num_seqs"]) == (4096, 512)
    assert term(fast, "activation peak") > term(base, "activation peak")
    assert fast["serve_command"].endswith("--max-model-len 8192 --performance-mode throughput")
    assert term(fine, "CUDA graphs") > term(base, "CUDA graphs") and "76 piecewise" in \
        next(t["basis"] for t in fine["budget"]["terms"] if t["name"] == "CUDA graphs")
    assert fine["estimated"]["tokens"] < base["estimated"]["tokens"]
    assert (fast["settings"]["performance_mode"], base["settings"]["performance_mode"]) == ("throughput", None)
    # a value equal to the plain default differs from throughput's doubled one: it must be spelled out
    pinned = estimate("--performance-mode", "throughput", "--max-num-batched-tokens", "2048")
    assert "--max-num-batched-tokens 2048" in pinned["serve_command"]
    assert "--max-num-batched-tokens" not in estimate("--performance-mode", "throughput",
                                                      "--max-num-batched-tokens", "4096")["serve_command"]
    with pytest.raises(SystemExit) as info:
        main(["estimate", "--model", "Qwen/Qwen3-8B", "--performance-mode", "turbo"])
    assert info.value.code == 2 and "--performance-mode" in capsys.readouterr().err


def test_compile_cache_flag_drops_the_first_start_term(capsys):
    """--compile-cache warm (a restart that reuses ~/.cache/vllm) leaves out the first-start
    compile term the default (a first start) subtracts, and the pool gains exactly that term."""
    def budget(*extra):
        code, out, _ = run(capsys, "estimate", "--model", "Qwen/Qwen3-8B", "--gpu", "l4",
                           "--vllm-version", "0.28.0", "--max-model-len", "16384", "--json", *extra)
        assert code == 0
        return json.loads(out)
    first, cold, warm = budget(), budget("--compile-cache", "cold"), budget("--compile-cache", "warm")
    term = next(t for t in first["budget"]["terms"] if t["name"] == "first-start compile")
    assert "assumed a first start" in term["basis"]
    assert [t["bytes"] for t in cold["budget"]["terms"]] == [t["bytes"] for t in first["budget"]["terms"]]
    assert all(t["name"] != "first-start compile" for t in warm["budget"]["terms"])
    assert warm["budget"]["available_bytes"] - first["budget"]["available_bytes"] == term["bytes"]
    assert (first["settings"]["compile_cache"], warm["settings"]["compile_cache"]) == (None, "warm")
    with pytest.raises(SystemExit) as info:
        main(["estimate", "--model", "Qwen/Qwen3-8B", "--compile-cache", "hot"])
    assert info.value.code == 2 and "--compile-cache" in capsys.readouterr().err


def test_a_dgx_spark_estimate_lists_the_host_memory_vllm_counts(capsys):
    """On the GB10 (unified memory) the estimate subtracts the host memory vLLM counts there and
    says how to avoid the measurement; before v0.11.1 the band's top also holds the checkpoint a
    cold load leaves in page cache, which CUDA's free figure counted as used."""
    code, out, _ = run(capsys, "estimate", "--model", "Qwen/Qwen3-8B", "--gpu", "gb10")
    assert code == 0 and "− unified memory" in out and "--kv-cache-memory-bytes" in out

    def term(version):
        code, out, _ = run(capsys, "estimate", "--model", "Qwen/Qwen3-8B", "--gpu", "gb10",
                           "--vllm-version", version, "--json")
        assert code == 0
        result = json.loads(out)
        return next(t for t in result["budget"]["terms"] if t["name"] == "unified memory"), result
    now, _ = term("0.12.0")
    before, result = term("0.11.0")
    weights = result["budget"]["terms"][0]
    assert before["gib"] == now["gib"] == UMA_HOST_GIB[0]
    assert before["high_gib"] == pytest.approx(now["high_gib"] + weights["gib"], abs=0.01)
    assert "page cache" in before["basis"]


EAGLE3_8B = {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama", "hidden_size": 4096,
             "num_hidden_layers": 1, "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
             "intermediate_size": 12288, "vocab_size": 151936, "draft_vocab_size": 32000}


def test_the_speculative_config_as_typed_and_the_drafter_a_caller_fetched():
    """The page sends --speculative-config as typed: the core reads the JSON (or names what is
    wrong with it) and echoes it; a drafter config the caller fetched ({"id", "config"}) is used
    only for the drafter the config names."""
    def ask(spec, drafter=None):
        return api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B", "gpu": "l4",
                           "settings": {"max_model_len": 8192, "speculative": spec}, "drafter": drafter})
    bad = ask("{method: eagle3}")
    assert not bad["ok"] and "--speculative-config" in bad["error"]["fields"]
    assert "vLLM's JSON" in bad["error"]["fields"]["--speculative-config"]
    spec = '{"method": "eagle3", "model": "someone/eagle3-head", "num_speculative_tokens": 3}'
    assumed = ask(spec)["result"]
    assert assumed["settings"]["speculative"] == {"method": "eagle3", "num_speculative_tokens": 3,
                                                  "model": "someone/eagle3-head", "drafter_config": False}
    other = ask(spec, {"id": "someone/other-head", "config": EAGLE3_8B})["result"]
    assert other["settings"]["speculative"]["drafter_config"] is False
    sized = ask(spec, {"id": "someone/eagle3-head", "config": EAGLE3_8B})["result"]
    assert sized["settings"]["speculative"]["drafter_config"] is True
    assert any(t["name"] == "draft model" for t in sized["budget"]["terms"])
    assert ask("")["result"]["settings"]["speculative"] is None


def test_a_drafter_config_that_cannot_be_read_is_the_speculative_configs_fault():
    """A drafter config without its layer count, or with an absurd head vocabulary, is reported
    on --speculative-config (where the page shows it), not as the model's config error."""
    spec = '{"method": "eagle3", "model": "someone/eagle3-head", "num_speculative_tokens": 3}'
    for bad in ({**EAGLE3_8B, "num_hidden_layers": None}, {**EAGLE3_8B, "draft_vocab_size": 10**12}):
        r = api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B", "gpu": "l4",
                        "settings": {"max_model_len": 8192, "speculative": spec},
                        "drafter": {"id": "someone/eagle3-head", "config": bad}})
        assert not r["ok"] and list(r["error"]["fields"]) == ["--speculative-config"]
        assert "drafter's config.json" in r["error"]["fields"]["--speculative-config"]


def test_a_pasted_serve_line_runs_with_the_flags_that_leave_memory_alone(capsys):
    """--port, --served-model-name, a 16-bit --dtype … change nothing vLLM sizes: ignored, said once
    on stderr, and the answer is the one without them."""
    base = ["estimate", "--model", "Qwen/Qwen3-8B", "--gpu", "h100", "--max-model-len", "32k", "--json"]
    code, plain, _ = run(capsys, *base)
    code2, out, err = run(capsys, *base, "--host", "0.0.0.0", "--port", "8000", "--served-model-name", "a", "b",
                          "--trust-remote-code", "--dtype=bfloat16", "--load-format", "safetensors")
    assert code == code2 == 0 and out == plain
    assert err == ("kvcalc: note: ignored, as they leave GPU memory alone or move it by less than the band: --host, --port, --served-model-name, "
                   "--trust-remote-code, --dtype, --load-format\n")


@pytest.mark.parametrize("argv,needle", [
    (["--enable-lora", "--max-loras", "4"], "--enable-lora, --max-loras: LoRA adapters are not modelled"),
    (["--enable-eplb"], "--enable-eplb: expert load balancing (EPLB) and elastic expert parallelism are not modelled"),
    (["--dtype", "float32"], "float32 doubles the weights"),
    (["--load-format", "gguf"], "GGUF files are not modelled"),
    (["-O", "fast"], "-O: only a compilation config given as JSON"),
    (["--compilation-config", '{"pass_config": {}}'], "the other keys (pass_config)"),
    (["--frobnicate", "3"], "unrecognized arguments: --frobnicate (no vLLM flag kvcalc knows"),
    # a shortened flag is the option it starts (--language-model-only, a switch): the word after it is left over
    (["--lang", "zh"], "unexpected value: zh (no flag before it takes a value"),
    (["--enforce-eager", "yes"], "unexpected value: yes"),
])
def test_flags_that_change_memory_kvcalc_does_not_model_are_refused(capsys, argv, needle):
    code, out, err = run(capsys, "estimate", "--model", "Qwen/Qwen3-8B", "--gpu", "h100", *argv)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("kvcalc: error: ") and needle in err


def test_kvcalc_serve_reads_a_vllm_serve_line(capsys):
    """`kvcalc serve MODEL …`: a vllm serve line with "vllm" replaced answers as estimate does."""
    flags = ["--max-model-len", "32k", "-tp", "2", "--gpu", "a100-80g", "--json"]
    code, out, err = run(capsys, "serve", "Qwen/Qwen3-8B", *flags, "--port", "8000")
    code2, same, _ = run(capsys, "estimate", "--model", "Qwen/Qwen3-8B", *flags)
    assert code == code2 == 0 and out == same and "--port" in err
    code, _, err = run(capsys, "serve")
    assert code == 2 and "names no model" in err


@pytest.mark.parametrize("line", [
    ["--trust-remote-code", "Qwen/Qwen3-8B"],                 # a switch takes no value
    ["--seed", "0", "Qwen/Qwen3-8B"],                          # a flag kvcalc ignores takes one
    ["--seed", "-1", "Qwen/Qwen3-8B"],
    ["--max-model-len", "32k", "--no-trust-remote-code", "Qwen/Qwen3-8B"],
    ["--json", "--enable-prefix-caching", "Qwen/Qwen3-8B"],    # kvcalc's own switches
    ["--enable-prefix-caching", "on", "--gpu", "a100-80g", "Qwen/Qwen3-8B"],
    ["--served-model-name", "a", "b", "--enforce-eager", "Qwen/Qwen3-8B"],
])
def test_kvcalc_serve_finds_the_model_after_flags_as_vllm_does(capsys, line):
    """vLLM reads the first word no flag takes as the model, wherever it stands; so does kvcalc serve."""
    code, out, _ = run(capsys, "serve", *line, "--gpu", "a100-80g", "--json")
    assert code == 0 and json.loads(out)["model"]["id"] == "Qwen/Qwen3-8B"


@pytest.mark.parametrize("line", [["Qwen/Qwen3-8B", "--model", "acme/other"],
                                  ["--model", "acme/other", "Qwen/Qwen3-8B"],
                                  ["--model=acme/other", "Qwen/Qwen3-8B"]])
def test_kvcalc_serve_refuses_a_line_that_names_the_model_twice(capsys, line):
    """No vLLM release serves such a line with the word (Rule.SERVE_MODEL_FLAG_MOVED): kvcalc does not guess."""
    code, out, err = run(capsys, "serve", *line, "--gpu", "a100-80g", "--json")
    assert code == 2 and out == "" and "names the model twice" in err and "unrecognized arguments: Qwen/Qwen3-8B" in err


def test_parse_log_warns_where_the_api_server_module_would_drop_the_model(capsys, tmp_path):
    line = tmp_path / "run.sh"
    line.write_text("python -m vllm.entrypoints.openai.api_server Qwen/Qwen3-8B --max-model-len 8192\n",
                    encoding="utf-8")
    code, _, err = run(capsys, "parse-log", str(line))
    assert code == 2 and "warning: python -m vllm.entrypoints.openai.api_server" in err
    assert "serves Qwen/Qwen3-0.6B" in err and "names no model" in err
    code, out, err = run(capsys, "parse-log", str(line), "--model", "Qwen/Qwen3-8B")
    assert code == 0 and "warning:" in err and "max_model_len 8,192" in out
    line.write_text("vllm serve --served-model-name n Qwen/Qwen3-8B\n", encoding="utf-8")
    code, _, err = run(capsys, "parse-log", str(line), "--model", "Qwen/Qwen3-8B")
    assert code == 0 and "warning: vLLM would not start with this line: from v0.17.0" in err


def test_kvcalc_serve_names_the_missing_model_where_a_flag_took_every_word(capsys):
    code, _, err = run(capsys, "serve", "--served-model-name", "a", "Qwen/Qwen3-8B", "--gpu", "h100")
    assert code == 2 and "names no model" in err


def test_a_word_after_a_switch_is_a_stray_one_in_the_cli(capsys):
    code, _, err = run(capsys, "serve", "Qwen/Qwen3-8B", "--trust-remote-code", "zh", "--gpu", "h100")
    assert code == 2 and "unexpected value: zh" in err


def test_the_speculative_shorthands_and_moe_backend_in_the_cli(capsys):
    code, out, _ = run(capsys, "serve", "openai/gpt-oss-20b", "--gpu", "h100", "--spec-method", "ngram",
                       "--spec-tokens", "3", "--moe-backend", "marlin", "--json")
    r = json.loads(out)
    assert code == 0 and r["settings"]["speculative"]["method"] == "ngram"
    assert r["settings"]["speculative"]["num_speculative_tokens"] == 3 and r["settings"]["mxfp4_marlin"] is True


def test_the_speculative_config_key_by_key_in_the_cli(capsys):
    """--speculative-config.KEY and its short form -sc.KEY, with = or the next word, as vLLM reads them."""
    code, out, _ = run(capsys, "serve", "Qwen/Qwen3-8B", "--gpu", "h100", "--speculative-config.method", "ngram",
                       "-sc.num_speculative_tokens=3", "--json")
    spec = json.loads(out)["settings"]["speculative"]
    assert code == 0 and (spec["method"], spec["num_speculative_tokens"]) == ("ngram", 3)


def test_a_vllm_yaml_config_is_told_apart_from_a_model_config(capsys, tmp_path):
    """vLLM's --config is a YAML file of serve flags; kvcalc's --config is a config.json: say so."""
    yaml = tmp_path / "serve.yaml"
    yaml.write_text("model: Qwen/Qwen3-8B\nmax-model-len: 8192\n", encoding="utf-8")
    code, out, err = run(capsys, "serve", "--config", str(yaml))
    assert code == 2 and "not vLLM's YAML file of serve flags" in err and err.count("\n") == 1


@pytest.mark.parametrize("argv", [
    ["--compilation-config", '{"cudagraph_mode": "NONE"}'],
    ["--compilation-config={\"cudagraph_mode\":\"none\"}"],
    ["-O.cudagraph_mode=NONE"],
    ["-cc.cudagraph_mode=NONE"],
    ["-cc", '{"cudagraph_mode": "NONE"}'],
    ["--compilation-config.cudagraph_mode", "NONE"],
    ["--cudagraph-mode", "none"],
])
def test_a_compilation_configs_cudagraph_mode_is_read_in_every_spelling(capsys, argv):
    """vLLM's compilation config as JSON, dotted, or kvcalc's own option: cudagraph_mode NONE
    captures no graph, so no CUDA-graph estimate is subtracted, and the command says it back."""
    code, out, err = run(capsys, "serve", "Qwen/Qwen3-8B", "--gpu", "h100", "--max-model-len", "8192", "--json", *argv)
    assert code == 0, err
    result = json.loads(out)
    graphs = next(t for t in result["budget"]["terms"] if t["name"] == "CUDA graphs")
    assert graphs["bytes"] == 0 and "cudagraph_mode NONE" in graphs["basis"]
    assert result["serve_command"].endswith("""--compilation-config '{"cudagraph_mode":"NONE"}'""")


def test_without_chunked_prefill_a_step_holds_a_whole_prompt(capsys):
    """--no-enable-chunked-prefill (v0.11.1+): max_num_batched_tokens defaults to at least the length,
    so the warm-up grows; a smaller value given is refused as vLLM refuses it."""
    base = ["serve", "Qwen/Qwen3-8B", "--gpu", "h100", "--max-model-len", "32768", "--json"]
    code, out, err = run(capsys, *base, "--no-enable-chunked-prefill")
    assert code == 0, err
    result = json.loads(out)
    assert result["settings"]["max_num_batched_tokens"] == 32768
    assert result["serve_command"].endswith("--no-enable-chunked-prefill")
    code, plain, _ = run(capsys, *base)
    assert json.loads(plain)["settings"]["max_num_batched_tokens"] == 8192
    assert result["estimated"]["tokens"] < json.loads(plain)["estimated"]["tokens"]
    code, _, err = run(capsys, *base, "--no-enable-chunked-prefill", "--max-num-batched-tokens", "8192")
    assert code == 2 and "without chunked prefill a step must hold a whole prompt" in err


def test_the_cli_reads_the_multimodal_json_flags_key_by_key(capsys):
    code, out, _ = run(capsys, "serve", "Qwen/Qwen2.5-VL-7B-Instruct", "--gpu", "h100", "--json",
                       "--limit-mm-per-prompt.image", "0", "--limit-mm-per-prompt.video=0")
    whole = api.handle({"op": "estimate", "model": "Qwen/Qwen2.5-VL-7B-Instruct", "gpu": "h100",
                        "settings": {"limit_mm_per_prompt": {"image": 0, "video": 0}}})
    assert code == 0 and json.loads(out)["settings"]["limit_mm_per_prompt"] == {"image": 0, "video": 0}
    assert json.loads(out)["estimated"]["tokens"] == whole["result"]["estimated"]["tokens"]


def test_the_cli_reads_underscored_flag_names_and_hf_overrides_key_by_key(capsys):
    code, out, _ = run(capsys, "serve", "Qwen/Qwen3-8B", "--gpu", "h100", "--hf_overrides.max_position_embeddings",
                       "8192", "--gpu_memory_utilization", "0.8", "--json")
    settings = json.loads(out)["settings"]
    assert code == 0 and settings["hf_overrides"] == {"max_position_embeddings": 8192}
    assert (settings["max_model_len"], settings["gpu_memory_utilization"]) == (8192, 0.8)


def test_parse_log_estimates_a_pasted_command_or_llm_call_as_the_page_does(capsys, tmp_path):
    """A file with no log lines but a vllm serve command or a notebook's LLM(...) call gives the
    estimate for its settings (the LLM class's batch defaults for a call), the flags left out on stderr."""
    cell = tmp_path / "cell.py"
    cell.write_text("from vllm import LLM\nllm = LLM(model='Qwen/Qwen3-8B', max_model_len=16 * 1024,\n"
                    "          gpu_memory_utilization=0.8, max_num_seqs=N)\n", encoding="utf-8")
    code, out, err = run(capsys, "parse-log", str(cell), "--gpu", "l40s", "--json")
    r = json.loads(out)
    assert code == 0 and r["settings"]["entrypoint"] == "llm" and r["settings"]["max_model_len"] == 16384
    assert r["settings"]["gpu_memory_utilization"] == 0.8 and "max_num_seqs (its value is a Python expression" in err
    same = api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B", "gpu": "l40s", "settings": {
        "max_model_len": 16384, "gpu_memory_utilization": 0.8, "entrypoint": "llm"}})
    assert r["estimated"]["tokens"] == same["result"]["estimated"]["tokens"]
    serve = tmp_path / "serve.sh"
    serve.write_text("vllm serve Qwen/Qwen3-8B --max_model_len 8192 --port 8000\n", encoding="utf-8")
    code, out, err = run(capsys, "parse-log", str(serve))
    assert code == 0 and "--port" in err and "h100 assumed" in err and "max_model_len 8,192" in out
    other = tmp_path / "other.txt"
    other.write_text("hello\n", encoding="utf-8")
    code, _, err = run(capsys, "parse-log", str(other))
    assert code != 0 and "LLM(...) call" in err


def test_vllms_off_forms_of_switches_are_read_in_a_serve_line(capsys):
    """--no-X for every switch kvcalc reads and v0.34's --enable-/--disable- twins, as a pasted command reads
    them (commandline.SWITCH_OFF_FORMS): --disable-prefix-caching is --enable-prefix-caching off."""
    code, out, _ = run(capsys, "serve", "Qwen/Qwen3-8B", "--gpu", "h100", "-tp", "2", "--disable-prefix-caching",
                       "--no-enforce-eager", "--enable-custom-all-reduce", "--disable-chunked-prefill", "--json")
    code2, same, _ = run(capsys, "serve", "Qwen/Qwen3-8B", "--gpu", "h100", "-tp", "2", "--enable-prefix-caching",
                         "off", "--enable-chunked-prefill", "off", "--json")
    assert code == code2 == 0 and json.loads(out)["settings"] == json.loads(same)["settings"]
    assert json.loads(out)["settings"]["enable_prefix_caching"] is False
