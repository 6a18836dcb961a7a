"""--num-gpu-blocks-override N: the pool gets N blocks whatever the memory; from v0.21 the fit check
and --max-model-len auto also measure N blocks' bytes instead of the profiled memory
(Rule.BLOCKS_OVERRIDE_SETS_MEMORY). Llama-3.1-8B in bf16: 2 MiB per 16-token block on one GPU;
--kv-cache-memory-bytes 20 GiB makes the memory exact: 10,240 blocks of its own."""

from __future__ import annotations

from kvcalc.logparse import parse_log

from factories import calc, compared, row_of

GIB = 1 << 30
LLAMA = "meta-llama/Llama-3.1-8B-Instruct"


def pool(version: str, override: int, **settings):
    return calc(LLAMA, kv_cache_memory_bytes=20 * GIB, num_gpu_blocks_override=override, vllm_version=version,
                **settings)


def test_the_pool_has_the_blocks_asked_for():
    """v0.20: 4,096 blocks = 65,536 tokens, half of one 131,072-token request (0.50x); one request is
    still checked against the 20 GiB, so vLLM starts."""
    c = pool("0.20.0", 4096, max_model_len=131072)
    p = c.estimated
    assert p.num_blocks == 4096 and p.tokens == 65536 and p.fits and round(p.max_concurrency, 2) == 0.5
    assert p.log_lines[1] == "Overriding num_gpu_blocks=10240 with num_gpu_blocks_override=4096"
    assert "--num-gpu-blocks-override 4096" in c.serve_command
    assert any(getattr(n, "key", "") == "note.blocks_override" for n in c.notes)


def test_from_v0_21_one_request_is_checked_against_the_blocks_bytes():
    """4,096 blocks are 8 GiB: a 131,072-token request needs 16 GiB, so v0.21 refuses with vLLM's
    own error and its estimate (65,536); auto fits 65,536, less the null block from v0.29 (65,520)."""
    p = pool("0.21.0", 4096, max_model_len=131072).estimated
    assert not p.fits and p.estimated_max_model_len == 65536
    assert "(16.0 GiB KV cache is needed, which is larger than the available KV cache memory (8.0 GiB)" in p.error
    assert pool("0.21.0", 4096, max_model_len="auto").estimated.max_model_len == 65536
    assert pool("0.29.0", 4096, max_model_len="auto").estimated.max_model_len == 65520


def test_more_blocks_than_the_memory_holds_is_a_warning():
    c = pool("0.25.0", 20000, max_model_len=8192)
    note = next(n for n in c.notes if getattr(n, "key", "") == "note.blocks_override_over")
    assert "39.06 GiB per GPU, more than the 20.00 GiB" in note


def test_a_log_states_the_override_in_its_args_not_in_the_profiles_line():
    """v0.19+ prints 'Overriding num_gpu_blocks=0 with num_gpu_blocks_override=512' for the CUDA-graph
    profile's own dry run: that is not the user's setting; the args are."""
    profile = parse_log("INFO [kv_cache_utils.py:829] Overriding num_gpu_blocks=0 with num_gpu_blocks_override=512\n")
    assert "num_gpu_blocks_override" not in profile.settings()
    text = ("INFO [utils.py:233] non-default args: {'model': 'meta-llama/Llama-3.1-8B-Instruct', "
            "'max_model_len': 8192, 'num_gpu_blocks_override': 4096}\n"
            "INFO [gpu_worker.py:298] Available KV cache memory: 20.0 GiB\n"
            "INFO [kv_cache_utils.py:1087] GPU KV cache size: 65,536 tokens\n")
    assert row_of(compared(text, "0.20.0"), "GPU KV cache size")["from_log"] == "65,536 tokens"
