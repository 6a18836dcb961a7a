"""--max-model-len auto (v0.14+, #29431) and the sizes vLLM reads with human_readable_int ("32k",
"8G"). Expected values are worked out on paper from vLLM's rules (cited in each test).

Llama-3.1-8B in bf16: 32 layers x 8 KV heads x 256 values x 2 B = 4,096 B per token per layer, a
65,536 B page of 16 tokens, 32 layers to a block: 2 MiB per 16 tokens on one GPU (1 MiB on a PP
stage of 16 layers)."""

from __future__ import annotations

import pytest

from kvcalc import api
from kvcalc.settings import human_readable_int

from factories import calc, compared, row_of

GIB = 1 << 30
MIB = 1 << 20
LLAMA = "meta-llama/Llama-3.1-8B-Instruct"     # its own length: 131,072


@pytest.mark.parametrize("text,value", [
    ("32768", 32768), ("32k", 32_000), ("32K", 32_768), ("25.6k", 25_600), ("8G", 8 * GIB),
    ("8.5g", 8_500_000_000), ("1T", 1 << 40), ("2m", 2_000_000), (" 7 ", 7), ("-3", -3),
])
def test_sizes_read_as_vllm_reads_them(text, value):
    """vllm/utils/argparse_utils.py human_readable_int: k/m/g/t multiply by 1000 (decimals allowed),
    K/M/G/T by 1024 (whole numbers only), plain digits are the number."""
    assert human_readable_int(text) == value


@pytest.mark.parametrize("text,needle", [
    ("1.5K", "1.5k for x 1000"), ("8 GiB", "8G = 8,589,934,592"), ("1e3", "whole number"),
    ("٣", "whole number"), ("9" * 40, "whole number"), ("k", "whole number"), (".5k", "whole number"),
])
def test_what_is_not_a_size_says_why(text, needle):
    assert needle in human_readable_int(text)


def test_the_api_and_cli_take_the_sizes_as_typed():
    """The page sends the fields as typed, the CLI passes them on: "32k" is the same start as 32000,
    "10G" as 10,737,418,240 bytes."""
    def result(**s):
        r = api.handle({"op": "estimate", "model": LLAMA, "gpu": "h100", "settings": s})
        assert r["ok"], r
        return r["result"]
    assert result(max_model_len="32k", max_num_batched_tokens="4K") == \
        result(max_model_len=32000, max_num_batched_tokens=4096)
    by_text = result(kv_cache_memory_bytes="10G")
    assert by_text["estimated"]["available_bytes"] == 10 * GIB
    assert "--kv-cache-memory-bytes 10737418240" in by_text["serve_command"]


def test_auto_cuts_the_length_to_what_the_pool_holds():
    """10 GiB at v0.20 (no null block kept back yet): cdiv(L, 16) x 2 MiB <= 10 GiB, so
    L <= 5,120 x 16 = 81,920 of the model's 131,072; the pool then serves exactly one such request."""
    c = calc(LLAMA, kv_cache_memory_bytes=10 * GIB, max_model_len="auto", vllm_version="0.20.0")
    p = c.estimated
    assert c.resolved.auto_max_model_len and c.resolved.max_model_len == 131072
    assert p.fits and p.max_model_len == 81920 and p.num_blocks == 5120 and p.tokens == 81920
    assert p.log_lines == (
        "Available KV cache memory: 10.0 GiB",
        "Auto-fit max_model_len: reduced from 131072 to 81920 to fit in available GPU memory "
        "(10.0 GiB available for KV cache)",
        "GPU KV cache size: 81,920 tokens",
        "Maximum concurrency for 81,920 tokens per request: 1.00x")
    assert "--max-model-len auto" in c.serve_command


def test_auto_keeps_the_null_block_out_from_v0_29_and_says_so_in_the_new_words_from_v0_32():
    """From v0.29 (#47272) one block is held back before the fit: 5,119 blocks, L = 81,904; the pool
    still has 5,120 blocks, int(5,120 / 5,119 x 81,904) = 81,920 tokens (v0.21+ formula)."""
    c = calc(LLAMA, kv_cache_memory_bytes=10 * GIB, max_model_len="auto", vllm_version="0.32.0")
    p = c.estimated
    assert p.max_model_len == 81904 and p.tokens == 81920
    assert p.log_lines[1] == ("Auto-fit max_model_len: reduced from 131072 to 81904 to fit in available KV "
                              "cache memory (10.0 GiB GPU)")
    assert p.log_lines[2].endswith("Maximum concurrency for 81,904 tokens per request: 1.00x")
    at_v31 = calc(LLAMA, kv_cache_memory_bytes=10 * GIB, max_model_len=-1, vllm_version="0.31.0").estimated
    assert at_v31.max_model_len == 81904 and "available GPU memory (10.0 GiB available" in at_v31.log_lines[1]


def test_auto_keeps_the_whole_length_when_it_fits_and_refuses_when_not_one_token_does():
    """20 GiB holds 8,192 blocks of 2 MiB (16 GiB) for 131,072 tokens; 1 MiB holds not even the first
    block, and vLLM stops with 'Cannot auto-fit max_model_len'."""
    whole = calc(LLAMA, kv_cache_memory_bytes=20 * GIB, max_model_len="auto", vllm_version="0.20.0").estimated
    assert whole.max_model_len == 131072 and whole.fits
    assert whole.log_lines[1] == ("Auto-fit max_model_len: full model context length 131072 fits in available "
                                  "GPU memory")
    none = calc(LLAMA, kv_cache_memory_bytes=MIB, max_model_len="auto", vllm_version="0.20.0").estimated
    assert not none.fits and none.error.startswith("ValueError: Cannot auto-fit max_model_len")
    assert none.log_lines[-1] == none.error


def test_before_v0_14_auto_is_refused_with_the_release_that_brought_it():
    r = api.handle({"op": "estimate", "model": LLAMA, "gpu": "h100",
                    "settings": {"max_model_len": "auto", "vllm_version": "0.13.0"}})
    assert not r["ok"] and "needs vLLM 0.14.0 or newer (#29431)" in r["error"]["fields"]["--max-model-len"]


def test_pipeline_stages_were_checked_as_the_whole_model_in_v0_14_to_v0_16():
    """PP 2 puts 16 layers on each GPU (1 MiB per block). v0.17+ (#33698) checks each stage: 10 GiB
    holds 10,240 blocks, more than the 8,192 of 131,072 tokens. v0.14-v0.16 checked all 32 layers
    against one GPU's 10 GiB: the same 81,920 as one GPU, and an explicit 131,072 is refused."""
    new = calc(LLAMA, kv_cache_memory_bytes=10 * GIB, max_model_len="auto", pipeline_parallel_size=2,
               vllm_version="0.17.0").estimated
    old = calc(LLAMA, kv_cache_memory_bytes=10 * GIB, max_model_len="auto", pipeline_parallel_size=2,
               vllm_version="0.16.0").estimated
    assert new.max_model_len == 131072 and old.max_model_len == 81920
    assert old.num_blocks == new.num_blocks == 10240      # the pool itself is per stage in both
    refused = calc(LLAMA, kv_cache_memory_bytes=10 * GIB, max_model_len=131072, pipeline_parallel_size=2,
                   vllm_version="0.16.0").estimated
    assert not refused.fits and refused.estimated_max_model_len == 81920
    assert "(16.0 GiB KV cache is needed" in refused.error
    assert calc(LLAMA, kv_cache_memory_bytes=10 * GIB, max_model_len=131072, pipeline_parallel_size=2,
                vllm_version="0.17.0").estimated.fits


def test_the_fitted_length_is_the_longest_that_passes_the_fit_check():
    """For a fully estimated pool on a small GPU: one more token would not pass the check."""
    from kvcalc import paging
    c = calc("Qwen/Qwen3-8B", "a10", max_model_len="auto", vllm_version="0.25.0")
    p = c.estimated
    assert p.fits and 0 < p.max_model_len < 40960
    [target] = paging.fit_targets(c.grouping, c.layout.stages, c.resolved.version, [p.available_bytes])
    from dataclasses import replace
    need = lambda length: paging.needed_bytes(target.grouping, replace(c.ctx, max_model_len=length),  # noqa: E731
                                              c.resolved.version, target.specs)
    assert need(p.max_model_len) <= target.check_bytes < need(p.max_model_len + 1)


def test_levers_under_auto_compare_at_the_fitted_length():
    """Auto fits every pool to about 1x, so the levers are ranked at the length it fitted now."""
    r = api.handle({"op": "levers", "model": "Qwen/Qwen3-8B", "gpu": "a10",
                    "settings": {"max_model_len": "auto", "vllm_version": "0.25.0"}})
    assert r["ok"], r
    est = api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B", "gpu": "a10",
                      "settings": {"max_model_len": "auto", "vllm_version": "0.25.0"}})["result"]["estimated"]
    assert r["result"]["current"]["max_model_len"] == est["max_model_len"] < 40960
    fp8 = next(lv for lv in r["result"]["levers"] if lv["key"] == "kv_fp8")
    assert fp8["concurrency"] > 1.9


def test_a_pasted_auto_start_is_fitted_again_from_its_memory():
    """A log of an auto start: kvcalc fits the length from the log's own memory and compares it with
    the length vLLM printed (here the v0.20 arithmetic above: 10.00 GiB, 81,920)."""
    text = ("INFO [utils.py:233] non-default args: {'model': 'meta-llama/Llama-3.1-8B-Instruct', "
            "'max_model_len': -1}\n"
            "INFO [gpu_worker.py:298] Available KV cache memory: 10.0 GiB\n"
            "INFO [kv_cache_utils.py:1373] Auto-fit max_model_len: reduced from 131072 to 81920 to fit in available "
            "GPU memory (10.0 GiB available for KV cache)\n"
            "INFO [kv_cache_utils.py:1087] GPU KV cache size: 81,920 tokens\n"
            "INFO [kv_cache_utils.py:1091] Maximum concurrency for 81,920 tokens per request: 1.00x\n")
    res = compared(text, "0.20.0")
    assert res["form"]["max_model_len"] == -1
    row = row_of(res, "Auto-fit max_model_len")
    assert row["logged"] == row["from_log"] == "81,920 tokens"


def test_two_public_auto_starts_of_a_hybrid_with_mtp_come_out_to_the_token():
    """A public lab notebook (GitHub file, search index id 63100081154, repository not identified)
    quotes two auto starts of Qwen3.6-27B AWQ (the Qwen3.5-27B architecture: GDN + full attention)
    over two 20 GB RTX 3080s, TP 2, MTP 3, fp8 cache: 'Available KV cache memory: 0.89 GiB' ->
    'reduced from 262144 to 30400', 30,400 tokens, 1.00x (util 0.82), and '(1.94 GiB available for
    KV cache)' -> 94,400 (util 0.88). Its release is not printed; v0.28 reproduces both (v0.24-v0.27
    give 35,200 and 99,200, v0.29's null block 92,800), so this pins the fit, not the release."""
    for gib, fitted in ((0.89, 30400), (1.94, 94400)):
        c = calc("Qwen/Qwen3.5-27B", "rtx-3080", available_kv_gib=gib, max_model_len="auto", tensor_parallel_size=2,
                 kv_cache_dtype="fp8", vllm_version="0.28.0", speculative={"method": "mtp", "num_speculative_tokens": 3})
        p = c.from_log
        assert (p.max_model_len, p.tokens, round(p.max_concurrency, 2)) == (fitted, fitted, 1.0)
        assert f"reduced from 262144 to {fitted} to fit in available GPU memory ({gib} GiB available" in p.log_lines[1]
