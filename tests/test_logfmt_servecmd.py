"""Log lines and errors in each release's format, and the serve command."""

import pytest

from factories import calc
from kvcalc import logfmt
from kvcalc.versions import parse_version

GIB = 1 << 30


@pytest.mark.parametrize("version,text", [("0.11.0", "50.60"), ("0.14.1", "50.6"), ("0.33.0", "50.6")])
def test_available_line_number_format(version, text):
    assert logfmt.available_line(int(50.6 * GIB), parse_version(version)) == \
        f"Available KV cache memory: {text} GiB"


def test_capacity_two_lines_before_0_28_one_after():
    two = logfmt.capacity_lines(420944, 131072, 3.2115, parse_version("0.27.1"))
    assert two == ["GPU KV cache size: 420,944 tokens",
                   "Maximum concurrency for 131,072 tokens per request: 3.21x"]
    one = logfmt.capacity_lines(420944, 131072, 3.2115, parse_version("0.28.0"))
    assert one == ["GPU KV cache size: 420,944 tokens, Maximum concurrency for 131,072 tokens per request: 3.21x"]


def test_fit_error_texts_by_release():
    args = (131072, 16 * GIB, 8 * GIB, 65520)
    new = logfmt.does_not_fit_error(*args, parse_version("0.33.0"))
    assert "model's max seq len (131072), (16.0 GiB KV cache is needed" in new
    assert "(which also controls CPU memory on the CPU backend)" in new
    mid = logfmt.does_not_fit_error(*args, parse_version("0.20.0"))
    assert "models's max seq len" in mid and "conserving_memory" in mid and "CPU backend" not in mid
    old = logfmt.does_not_fit_error(*args, parse_version("0.11.0"))
    assert "(16.00 GiB KV cache" in old and "(8.00 GiB)" in old and "conserving_memory" not in old
    assert "estimated maximum model length is 65520." in old


def test_estimated_message_left_out_when_nothing_fits():
    assert "Based on" not in logfmt.does_not_fit_error(1024, GIB, 1, 0, parse_version("0.33.0"))


def test_pool_log_lines_end_to_end():
    c = calc("meta-llama/Llama-3.1-8B-Instruct", max_model_len=131072, gpu_memory_utilization=0.9,
             vllm_version="0.14.1", available_kv_gib=51.39)
    assert c.from_log.log_lines == ("Available KV cache memory: 51.39 GiB",
                                    "GPU KV cache size: 420,976 tokens",
                                    "Maximum concurrency for 131,072 tokens per request: 3.21x")


def test_serve_command_lists_only_non_default_flags():
    assert calc("Qwen/Qwen3-8B").serve_command == "vllm serve Qwen/Qwen3-8B"
    # 0.9 is the default before v0.20, not after.
    assert calc("Qwen/Qwen3-8B", gpu_memory_utilization=0.9, vllm_version="0.19.1").serve_command == \
        "vllm serve Qwen/Qwen3-8B"
    assert calc("Qwen/Qwen3-8B", gpu_memory_utilization=0.9, vllm_version="0.20.0").serve_command == \
        "vllm serve Qwen/Qwen3-8B --gpu-memory-utilization 0.9"
    cmd = calc("Qwen/Qwen3-8B", tensor_parallel_size=2, gpu_memory_utilization=0.9, kv_cache_dtype="fp8",
               max_model_len=32768, max_num_batched_tokens=8192, max_num_seqs=64, enforce_eager=True).serve_command
    assert cmd == ("vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2 --gpu-memory-utilization 0.9 "
                   "--kv-cache-dtype fp8 --max-model-len 32768 --max-num-seqs 64 --enforce-eager")


def test_serve_command_sets_the_sampler_variable_only_against_the_release_default():
    """VLLM_USE_FLASHINFER_SAMPLER is an environment variable: it precedes the command, and only
    when it changes what the release would do (before v0.11.1 the default depends on the install,
    so any choice is spelled out)."""
    assert calc("Qwen/Qwen3-8B", vllm_version="0.25.0", flashinfer_sampler=True).serve_command == \
        "vllm serve Qwen/Qwen3-8B"
    assert calc("Qwen/Qwen3-8B", vllm_version="0.25.0", flashinfer_sampler=False).serve_command == \
        "VLLM_USE_FLASHINFER_SAMPLER=0 vllm serve Qwen/Qwen3-8B"
    assert calc("Qwen/Qwen3-8B", vllm_version="0.15.0", flashinfer_sampler=True).serve_command == \
        "VLLM_USE_FLASHINFER_SAMPLER=1 vllm serve Qwen/Qwen3-8B"
    assert calc("Qwen/Qwen3-8B", vllm_version="0.11.0", flashinfer_sampler=False).serve_command == \
        "VLLM_USE_FLASHINFER_SAMPLER=0 vllm serve Qwen/Qwen3-8B"


def test_serve_command_skip_mm_profiling():
    assert calc("Qwen/Qwen3.5-27B", max_model_len=8192, skip_mm_profiling=True).serve_command.endswith(
        "--max-model-len 8192 --skip-mm-profiling")


def test_serve_command_language_model_only():
    assert calc("Qwen/Qwen3.5-27B", max_model_len=8192, language_model_only=True).serve_command.endswith(
        "--max-model-len 8192 --language-model-only")


def test_serve_command_capture_size_flags():
    cmd = calc("Qwen/Qwen3-8B", max_model_len=8192, vllm_version="0.24.0", max_cudagraph_capture_size=64).serve_command
    assert cmd.endswith("--max-model-len 8192 --max-cudagraph-capture-size 64")
    cmd = calc("Qwen/Qwen3-8B", max_model_len=8192, vllm_version="0.24.0", cudagraph_capture_sizes="8 4 2 1").serve_command
    assert cmd.endswith("--cudagraph-capture-sizes 1 2 4 8")


def test_serve_command_speculative_config_is_quoted_json():
    cmd = calc("deepseek-ai/DeepSeek-V3", tensor_parallel_size=8, max_model_len=8192,
               speculative={"method": "mtp", "num_speculative_tokens": 2}).serve_command
    assert cmd.endswith("""--speculative-config '{"method":"mtp","num_speculative_tokens":2}'""")


def test_serve_command_sets_the_cuda_graph_profiler_variable_only_against_the_release_default():
    """VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS precedes the command when it changes what the release
    does: on by default from v0.20, an opt-in from v0.18; with the sampler's variable both show."""
    moe = "Qwen/Qwen3-30B-A3B"
    assert calc(moe, vllm_version="0.25.0", cudagraph_memory_profiling=True).serve_command == f"vllm serve {moe}"
    assert calc(moe, vllm_version="0.25.0", cudagraph_memory_profiling=False).serve_command == \
        f"VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0 vllm serve {moe}"
    assert calc(moe, vllm_version="0.19.1", cudagraph_memory_profiling=True).serve_command == \
        f"VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1 vllm serve {moe}"
    assert calc(moe, vllm_version="0.25.0", cudagraph_memory_profiling=False, flashinfer_sampler=False
                ).serve_command == f"VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0 VLLM_USE_FLASHINFER_SAMPLER=0 vllm serve {moe}"


def test_fp8_weights_of_an_unquantized_checkpoint_ask_vllm_to_quantize_while_loading():
    """--weights fp8 on a bf16 checkpoint is vLLM's online FP8 (--quantization fp8); an FP8
    checkpoint needs no flag; a packed format vLLM cannot make while loading gets a note instead."""
    assert "--quantization fp8" in calc("Qwen/Qwen3-8B", weights="fp8").serve_command
    plain = calc("Qwen/Qwen3-8B")
    assert "--quantization" not in plain.serve_command
    assert not any(getattr(n, "key", "") == "note.weights_need_checkpoint" for n in plain.notes)
    awq = calc("Qwen/Qwen3-8B", weights="awq")
    assert "--quantization" not in awq.serve_command
    assert any(getattr(n, "key", "") == "note.weights_need_checkpoint" for n in awq.notes)
    declared = calc("Qwen/Qwen2.5-7B-Instruct-AWQ", weights="awq")
    assert not any(getattr(n, "key", "") == "note.weights_need_checkpoint" for n in declared.notes)
