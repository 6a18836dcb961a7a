"""Every flag validates its range as vLLM does, says what is allowed, and bad fields are
reported together; the CLI turns each into exit status 2 and one line, never a traceback."""

from __future__ import annotations

import pytest

from kvcalc import api
from kvcalc.catalog import find_gpu
from kvcalc.cli import main
from kvcalc.dtypes import KV_CACHE_DTYPE_CHOICES
from kvcalc.errors import SettingsError
from kvcalc.settings import VALID_BLOCK_SIZES, Settings, Speculative, resolve

from factories import llama_like

H100 = find_gpu("h100")


def llama(**overrides):
    """12 heads and 4 KV heads, so TP 3 is valid and TP 8 is not."""
    return llama_like(**{"hidden_size": 768, "num_attention_heads": 12, "num_key_value_heads": 4,
                         "max_position_embeddings": 8192, **overrides})


def estimate(cfg=None, **settings_):
    req = {"op": "estimate", "gpu": "h100", "settings": settings_}
    if cfg is None:
        req["model"] = "Qwen/Qwen3-8B"
    else:
        req["config"] = cfg
    return api.handle(req)


def problems(cfg=None, **settings_) -> dict[str, str]:
    r = estimate(cfg, **settings_)
    assert r["ok"] is False, settings_
    assert r["error"]["type"] == "SettingsError", r["error"]
    return r["error"]["fields"]


def ok(cfg=None, **settings_):
    r = estimate(cfg, **settings_)
    assert r["ok"] is True, r.get("error")
    return r["result"]


def resolve_problems(**kw) -> dict[str, str]:
    with pytest.raises(SettingsError) as info:
        resolve(Settings(**kw), H100.total_bytes, H100.device_name, 8192)
    return info.value.problems


# --------------------------------------------------------------------------- each flag


@pytest.mark.parametrize("util", [0, 0.0, -0.1, 1.0001, 2, float("nan"), float("inf"), "0.9", True, [0.9]],
                         ids=repr)
def test_gpu_memory_utilization_outside_0_1(util):
    msg = problems(gpu_memory_utilization=util)["--gpu-memory-utilization"]
    assert "(0, 1]" in msg or "at most 1" in msg


@pytest.mark.parametrize("util", [1e-3, 0.5, 0.9, 1, 1.0])
def test_gpu_memory_utilization_inside(util):
    assert ok(gpu_memory_utilization=util)["settings"]["gpu_memory_utilization"] == util


@pytest.mark.parametrize("tp,allowed", [(1, True), (2, True), (4, True), (3, False), (5, False),
                                        (6, False), (12, True), (8, False), (24, False)])
def test_tensor_parallel_divides_heads_and_kv_heads_rule(tp, allowed):
    """12 attention heads, 4 KV heads: TP must divide 12; KV heads split when 4 % TP == 0, are
    replicated when TP % 4 == 0 (vLLM's ModelConfig.verify_with_parallel_config)."""
    r = estimate(llama(), tensor_parallel_size=tp)
    if allowed:
        assert r["ok"] is True, r.get("error")
    else:
        msg = r["error"]["fields"]["--tensor-parallel-size"]
        assert "Sizes that work" in msg


def test_tensor_parallel_kv_head_rule_alone():
    # 12 heads, 3 KV heads, TP 2: heads divide, but 3 KV heads neither split nor replicate.
    msg = problems(llama(num_key_value_heads=3), tensor_parallel_size=2)["--tensor-parallel-size"]
    assert "3 KV heads" in msg and "1" in msg
    assert ok(llama(num_key_value_heads=3), tensor_parallel_size=6)


@pytest.mark.parametrize("flag,key,bad", [
    ("--tensor-parallel-size", "tensor_parallel_size", [0, -1, 1.5, "2", True, 2048]),
    ("--pipeline-parallel-size", "pipeline_parallel_size", [0, -2, 1.5, "2", False]),
    ("--decode-context-parallel-size", "decode_context_parallel_size", [0, -1, "1", 2.0]),
    ("--max-model-len", "max_model_len", [0, -2, 1.5, "4.5", "4k tokens", True, 10**9]),
    ("--max-num-batched-tokens", "max_num_batched_tokens", [0, -1, 2.5, "8192.5", "auto", True]),
    ("--max-num-seqs", "max_num_seqs", [0, -1, 2.5, "256", 10**7]),
    ("--avg-tokens", "avg_tokens", [0, -5, 1.5, "100"]),
    ("--kv-cache-memory-bytes", "kv_cache_memory_bytes", [0, -1, 1.5, "0", "8 GiB"]),
])
def test_whole_number_flags(flag, key, bad):
    for value in bad:
        msg = problems(**{key: value})[flag]
        assert "whole number" in msg or "between" in msg or "exceeds" in msg, (value, msg)


def test_pipeline_stages_need_layers():
    assert ok(llama(), pipeline_parallel_size=4)
    msg = problems(llama(), pipeline_parallel_size=5)["--pipeline-parallel-size"]
    assert "without layers" in msg


def test_decode_context_parallel_must_divide_tp():
    assert problems(llama(), tensor_parallel_size=4, decode_context_parallel_size=3)
    assert ok(llama(), tensor_parallel_size=4, decode_context_parallel_size=2)
    assert "must divide" in resolve_problems(decode_context_parallel_size=3)["--decode-context-parallel-size"]


def test_max_model_len_and_the_model_limit():
    assert ok(llama(), max_model_len=8192)["settings"]["max_model_len"] == 8192
    msg = problems(llama(), max_model_len=8193)["--max-model-len"]
    assert "8,192" in msg and "exceeds" in msg
    # no length key at all: vLLM assumes 2,048 and takes any --max-model-len given
    assert ok(llama(max_position_embeddings=None))["settings"]["max_model_len"] == 2048
    assert ok(llama(max_position_embeddings=None), max_model_len=100_000)["settings"]["max_model_len"] == 100_000


@pytest.mark.parametrize("size", VALID_BLOCK_SIZES)
def test_block_sizes_vllm_accepts(size):
    assert ok(llama(), block_size=size)["settings"]["block_size"] == size


@pytest.mark.parametrize("size", [48, 96, 512, 1024])
def test_any_multiple_of_16_from_v0_18(size):
    """Rule.BLOCK_SIZE_ANY_MULTIPLE_OF_16: v0.18 typed --block-size as a plain int (a public v0.29
    log starts at 48); before, only the BlockSize choices."""
    assert ok(llama(), block_size=size, vllm_version="0.18.0")["settings"]["block_size"] == size
    msg = problems(llama(), block_size=size, vllm_version="0.17.1")["--block-size"]
    assert "1, 8, 16, 32, 64, 128, 256" in msg and "multiple of 16" not in msg


@pytest.mark.parametrize("size", [0, -16, 2, 4, 24, 40, "16", 16.0, True, [16]], ids=repr)
def test_block_sizes_vllm_refuses(size):
    msg = problems(llama(), block_size=size)["--block-size"]
    assert "1, 8, 16, 32, 64, 128, 256 or any multiple of 16" in msg


@pytest.mark.parametrize("name", [n for n in KV_CACHE_DTYPE_CHOICES if n not in ("fp8_ds_mla", "fp8_inc")])
def test_kv_cache_dtype_names(name):
    """Every name is accepted (float16 on a float16 model: from v0.33 a float KV dtype must be the
    model's own, which test_dtypes checks)."""
    cfg = llama(torch_dtype="float16") if name == "float16" else \
        llama(hidden_size=1536) if name == "nvfp4" else llama()      # nvfp4 on Hopper: not 64-wide heads
    assert ok(cfg, kv_cache_dtype=name)


def test_cache_types_no_backend_keeps_are_refused_from_v0_18():
    """Rule.BACKEND_KV_DTYPE_LISTS: vLLM picks a backend by the cache types each lists; fp8_inc is
    Intel Gaudi's, no MLA backend keeps fp8_e5m2 (bar ROCm's AITER MLA), fp8_ds_mla is sparse MLA's."""
    from factories import calc
    assert "Intel Gaudi" in problems(llama(), kv_cache_dtype="fp8_inc")["--kv-cache-dtype"]
    assert ok(llama(), kv_cache_dtype="fp8_inc", vllm_version="0.17.0")
    for dtype in ("fp8_e5m2", "fp8_ds_mla"):
        with pytest.raises(SettingsError) as err:
            calc("deepseek-ai/DeepSeek-V3", "h200", tensor_parallel_size=8, max_model_len=8192, kv_cache_dtype=dtype)
        assert list(err.value.problems) == ["--kv-cache-dtype"]
    assert calc("deepseek-ai/DeepSeek-V3.2", "h200", tensor_parallel_size=8, max_model_len=8192,
                kv_cache_dtype="fp8_ds_mla").estimated.tokens > 0


@pytest.mark.parametrize("name", ["int3", "fp4", "FP9", "bf16", 8, True, {"x": 1}, ["fp8"]], ids=repr)
def test_kv_cache_dtype_refused_lists_the_choices(name):
    msg = problems(llama(), kv_cache_dtype=name)["--kv-cache-dtype"]
    assert "fp8_e4m3" in msg and "auto" in msg


def test_kv_cache_dtype_mla_only_and_release_gated():
    assert "MLA" in problems(llama(), kv_cache_dtype="fp8_ds_mla")["--kv-cache-dtype"]
    assert "needs vLLM" in problems(llama(), kv_cache_dtype="nvfp4", vllm_version="0.10.0")["--kv-cache-dtype"]


@pytest.mark.parametrize("version", ["0.9.0", "0.35.0", "1.0", "abc", "0.1.dev15181", 14, [0, 14]], ids=repr)
def test_vllm_version_range(version):
    msg = problems(vllm_version=version)["--vllm-version"]
    assert "0.10" in msg or "release" in msg


@pytest.mark.parametrize("version", ["0.10.0", "v0.14.1", "0.31.1rc1", "0.33", "0.34"])
def test_vllm_version_inside(version):
    assert ok(vllm_version=version)


def test_batched_tokens_not_below_max_seqs():
    msg = problems(max_num_batched_tokens=128, max_num_seqs=256)["--max-num-batched-tokens"]
    assert "--max-num-seqs" in msg
    assert ok(max_num_batched_tokens=256, max_num_seqs=256)


@pytest.mark.parametrize("flag,key", [("--enforce-eager", "enforce_eager"),
                                      ("--enable-prefix-caching", "enable_prefix_caching"),
                                      ("--disable-hybrid-kv-cache-manager", "disable_hybrid_kv_cache_manager"),
                                      ("--async-scheduling", "async_scheduling"),
                                      ("VLLM_USE_FLASHINFER_SAMPLER", "flashinfer_sampler"),
                                      ("--skip-mm-profiling", "skip_mm_profiling"),
                                      ("--language-model-only", "language_model_only")])
def test_boolean_flags_refuse_truthy_strings(flag, key):
    # "false" used to be truthy: enforce_eager="false" computed an eager-mode pool.
    for value in ("false", "true", 0, 1, [True]):
        assert "true or false" in problems(**{key: value})[flag]


def test_other_named_values():
    assert "float32" in problems(mamba_ssm_cache_dtype="int8")["--mamba-ssm-cache-dtype"]
    assert "weight format" in problems(weights=3)["weights"]
    assert "bf16" in problems(weights="bogus")["weights"]
    assert "serve" in problems(entrypoint="server")["entrypoint"]
    assert "eagle" in problems(speculative={"method": "telepathy"})["--speculative-config"]
    assert problems(speculative={"method": "eagle", "num_speculative_tokens": -1})["--speculative-config"]
    assert problems(speculative={"method": "eagle", "num_speculative_tokens": 65})["--speculative-config"]


def test_several_bad_fields_reported_at_once():
    fields = problems(gpu_memory_utilization=1.5, max_model_len=0, block_size=24, kv_cache_dtype="int3",
                      vllm_version="0.9.0", max_num_seqs=-1, avg_tokens=0, enforce_eager="no",
                      decode_context_parallel_size=0)
    assert set(fields) == {"--gpu-memory-utilization", "--max-model-len", "--block-size",
                           "--kv-cache-dtype", "--vllm-version", "--max-num-seqs", "--avg-tokens",
                           "--enforce-eager", "--decode-context-parallel-size"}
    probs = resolve_problems(gpu_memory_utilization=0, tensor_parallel_size=0, max_num_batched_tokens=0,
                             speculative=Speculative("eagle", num_speculative_tokens="x"))
    assert set(probs) == {"--gpu-memory-utilization", "--tensor-parallel-size",
                          "--max-num-batched-tokens", "--speculative-config"}


def test_messages_stay_short_for_hostile_values():
    deep = inner = []
    for _ in range(50_000):
        inner.append([])
        inner = inner[0]
    fields = problems(gpu_memory_utilization=deep, block_size="x" * 1_000_000, vllm_version=deep)
    assert all(len(m) < 400 for m in fields.values()), fields


# --------------------------------------------------------------------------- the CLI


def run(capsys, *argv):
    code = main(["estimate", "--model", "Qwen/Qwen3-8B", "--gpu", "h100", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("argv,needle", [
    (["--gpu-memory-utilization", "0"], "--gpu-memory-utilization"),
    (["--gpu-memory-utilization", "1.01"], "--gpu-memory-utilization"),
    (["--gpu-memory-utilization", "nan"], "--gpu-memory-utilization"),
    (["--gpu-memory-utilization", "inf"], "--gpu-memory-utilization"),
    (["--tp", "3"], "Sizes that work"),
    (["--tp", "0"], "--tensor-parallel-size"),
    (["--pp", "0"], "--pipeline-parallel-size"),
    (["--pp", "99"], "--pipeline-parallel-size"),
    (["--dcp", "0"], "--decode-context-parallel-size"),
    (["--dcp", "3"], "--decode-context-parallel-size"),
    (["--max-model-len", "0"], "--max-model-len"),
    (["--max-model-len", "-2"], "--max-model-len"),
    (["--max-model-len", "auto", "--vllm-version", "0.13.0"], "needs vLLM 0.14.0"),
    (["--max-model-len", "1.5K"], "1.5k for x 1000"),
    (["--kv-cache-memory-bytes", "8 GiB"], "8G = 8,589,934,592"),
    (["--max-model-len", "99999999"], "exceeds the model's maximum"),
    (["--block-size", "24"], "1, 8, 16, 32, 64, 128, 256"),
    (["--block-size", "0"], "--block-size"),
    (["--kv-cache-dtype", "int3"], "fp8_e4m3"),
    (["--vllm-version", "0.9.0"], "outside the range"),
    (["--vllm-version", "banana"], "not a release number"),
    (["--max-num-batched-tokens", "0"], "--max-num-batched-tokens"),
    (["--max-num-seqs", "0"], "--max-num-seqs"),
    (["--max-num-batched-tokens", "64", "--max-num-seqs", "128"], "--max-num-seqs"),
    (["--avg-tokens", "0"], "--avg-tokens"),
    (["--kv-cache-memory-bytes", "0"], "--kv-cache-memory-bytes"),
    (["--weights", "bogus"], "weight format"),
    (["--speculative-config", '{"method": "telepathy"}'], "--speculative-config"),
    (["--speculative-config", "{nope"], "not valid JSON"),
    (["--speculative-config", '"mtp"'], "--speculative-config"),
    (["--available-kv-gib", "-1"], "available_kv_gib"),
    (["--gpu-memory-gib", "-1"], "gpu_total_gib"),
])
def test_cli_bad_flag_one_line_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert needle in err and "Traceback" not in err
    assert err.startswith("kvcalc: error: ") and err.count("\n") == 1, err


@pytest.mark.parametrize("argv", [["--tp", "two"], ["--gpu-memory-utilization", "lots"],
                                  ["--entrypoint", "server"], ["--enable-prefix-caching", "maybe"]])
def test_cli_argparse_type_errors_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as info:
        run(capsys, *argv)
    err = capsys.readouterr().err
    assert info.value.code == 2 and "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("kvcalc estimate: error:")


def test_cli_gpu_memory_gib_infinite(capsys):
    code, _, err = run(capsys, "--gpu-memory-gib", "inf")
    assert code == 2


def test_cli_available_kv_gib_huge(capsys):
    code, _, err = run(capsys, "--available-kv-gib", "1e300")
    assert code == 2


def test_language_model_only_needs_its_release():
    """--language-model-only arrived in v0.17.0 (#34120; the v0.16.0 wheel has no such flag): an older
    release is named with the way out."""
    msg = problems(language_model_only=True, vllm_version="0.16.0")["--language-model-only"]
    assert "0.17.0" in msg and "#34120" in msg and "--skip-mm-profiling" in msg
    assert ok(language_model_only=True, vllm_version="0.17.0")
    assert ok(language_model_only=False, vllm_version="0.15.1")


def test_capture_size_flags_are_checked_as_vllm_does():
    """Whole numbers from 1; a list as text or numbers; both flags given must agree on the largest
    size max_num_batched_tokens leaves; both need v0.11.1 (#26016)."""
    bad = problems(cudagraph_capture_sizes="1 2 x", vllm_version="0.24.0")["--cudagraph-capture-sizes"]
    assert "whole numbers" in bad and "'1 2 x'" in bad
    assert "whole numbers" in problems(cudagraph_capture_sizes=[0, 4])["--cudagraph-capture-sizes"]
    assert "between 1" in problems(max_cudagraph_capture_size=0)["--max-cudagraph-capture-size"]
    mismatch = problems(cudagraph_capture_sizes="1 2 4 8", max_cudagraph_capture_size=16)
    assert "largest of --cudagraph-capture-sizes (8)" in mismatch["--max-cudagraph-capture-size"]
    assert ok(cudagraph_capture_sizes="1, 2, 4, 8", max_cudagraph_capture_size=8)
    assert "0.11.1" in problems(cudagraph_capture_sizes=[1, 2], vllm_version="0.11.0")["--cudagraph-capture-sizes"]
    assert "0.11.1" in problems(max_cudagraph_capture_size=8, vllm_version="0.11.0")["--max-cudagraph-capture-size"]


@pytest.mark.parametrize("bad", ["fast", "Throughput", "", 2, ["throughput"]], ids=repr)
def test_performance_mode_takes_vllms_three_modes(bad):
    field = problems(performance_mode=bad)["--performance-mode"]
    assert "balanced, interactivity, throughput" in field


def test_performance_mode_needs_v0_17_and_throughput_doubles_only_the_defaults():
    """--performance-mode arrived in v0.17 (#34936); 'throughput' doubles the batch limits vLLM
    fills in, never one the user gave, and the token budget is still capped at seqs × length."""
    assert "0.17.0" in problems(performance_mode="balanced", vllm_version="0.16.0")["--performance-mode"]
    base = ok(vllm_version="0.22.0", max_model_len=32768)["settings"]
    fast = ok(vllm_version="0.22.0", max_model_len=32768, performance_mode="throughput")["settings"]
    assert (fast["max_num_batched_tokens"], fast["max_num_seqs"]) == \
        (2 * base["max_num_batched_tokens"], 2 * base["max_num_seqs"])
    given = ok(vllm_version="0.22.0", max_num_seqs=64, performance_mode="throughput")["settings"]
    assert (given["max_num_seqs"], given["max_num_batched_tokens"]) == (64, 2 * base["max_num_batched_tokens"])
    short = ok(vllm_version="0.22.0", max_model_len=4, performance_mode="throughput")["settings"]
    assert short["max_num_batched_tokens"] == 2 * base["max_num_seqs"] * 4


@pytest.mark.parametrize("bad", ["lukewarm", "COLD", "", 1, True, ["warm"]], ids=repr)
def test_compile_cache_is_cold_or_warm(bad):
    """The compile cache's state is not a vLLM flag: the message says what the two states mean."""
    fields = problems(compile_cache=bad)
    assert "cold (a first start" in fields["compile cache"] and "warm (a restart" in fields["compile cache"]


@pytest.mark.parametrize("state", ["cold", "warm"])
def test_compile_cache_states_are_accepted(state):
    assert ok(compile_cache=state)["settings"]["compile_cache"] == state


def test_a_yarn_length_beyond_the_config_is_refused_from_v0_30_with_the_reason():
    """A Qwen config with a YaRN block (factor 4 over 32,768) allowed 131,072 tokens up to v0.29;
    from v0.30 vLLM refuses it unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1, and the message says why."""
    from test_hf_config import qwen_with_yarn
    cfg = qwen_with_yarn()
    assert ok(cfg, vllm_version="0.29.0")["settings"]["max_model_len"] == 131072
    assert ok(cfg, vllm_version="0.33.0")["settings"]["max_model_len"] == 32768
    assert ok(cfg, vllm_version="0.29.0", max_model_len=131072)
    msg = problems(cfg, vllm_version="0.33.0", max_model_len=131072)["--max-model-len"]
    assert "v0.30" in msg and "131,072" in msg and "32,768" in msg and "VLLM_ALLOW_LONG_MAX_MODEL_LEN" in msg
    plain = problems(llama(), vllm_version="0.33.0", max_model_len=10**6)["--max-model-len"]
    assert "YaRN" not in plain


def test_vllm_allow_long_max_model_len_takes_the_length_asked_with_a_note():
    """VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 lets a --max-model-len past the model's through (vLLM warns):
    the pool is sized for the length asked, a note says so, the serve command carries the variable,
    and a pasted command that sets it is read so."""
    from test_hf_config import qwen_with_yarn
    cfg = qwen_with_yarn()
    got = ok(cfg, vllm_version="0.33.0", max_model_len=131072, allow_long_max_model_len=True)
    assert got["settings"]["max_model_len"] == 131072 and got["settings"]["allow_long_max_model_len"] is True
    assert got["serve_command"].startswith("VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve")
    assert any("past the model's 32,768 tokens" in n for n in got["notes"])
    within = ok(cfg, vllm_version="0.33.0", max_model_len=8192, allow_long_max_model_len=True)
    assert not within["serve_command"].startswith("VLLM_") and not any("past the model" in n for n in within["notes"])
    from kvcalc.commandline import read_command
    pasted = read_command("VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve Qwen/Qwen3-8B --max-model-len 131072")
    assert pasted["settings"] == {"allow_long_max_model_len": True, "max_model_len": 131072}


def test_pinned_memory_takes_true_or_false_only():
    assert ok(llama(), pinned_memory=False)["settings"]["pinned_memory"] is False
    assert "true or false" in problems(llama(), pinned_memory="no")["pinned memory"]


def test_a_default_max_num_seqs_never_exceeds_the_batch_budget_from_0_10_1():
    """From v0.10.1 vLLM caps a max_num_seqs it fills in at max_num_batched_tokens, also when only
    the budget was given (Rule.SEQS_CAPPED_BY_MNBT); v0.10.0 did not."""
    def seqs(version, **given):
        return resolve(Settings(vllm_version=version, **given), H100.total_bytes, H100.device_name,
                       8192).max_num_seqs
    assert seqs("0.33.0", max_num_batched_tokens=128) == 128
    assert seqs("0.10.1", max_num_batched_tokens=128) == 128
    assert seqs("0.10.0", max_num_batched_tokens=128) == 1024
    assert seqs("0.33.0", max_num_batched_tokens=128, max_num_seqs=64) == 64


def test_a_longrope_model_defaults_to_its_original_length_from_0_11_1():
    """Phi-3.5-mini (LongRoPE, 131,072 positions, trained at 4,096): vLLM v0.11.1 and later serve
    4,096 tokens unless asked (Rule.LONGROPE_DEFAULT_ORIGINAL_LEN), and the result says how to get
    the rest; --max-model-len up to 131,072 is still accepted."""
    def run(**s):
        r = api.handle({"op": "estimate", "gpu": "l4", "model": "microsoft/Phi-3.5-mini-instruct",
                        "settings": s})
        assert r["ok"], r
        return r["result"]
    new, old = run(vllm_version="0.11.1"), run(vllm_version="0.11.0")
    assert new["settings"]["max_model_len"] == 4096 and old["settings"]["max_model_len"] == 131072
    assert any("--max-model-len 131072" in n for n in new["notes"])
    assert not any("LongRoPE" in n for n in old["notes"])
    full = run(vllm_version="0.11.1", max_model_len=131072)
    assert full["settings"]["max_model_len"] == 131072 and not any("LongRoPE" in n for n in full["notes"])
