"""The V1 runner's sampler warm-up with speculative decoding (reserve.py ``rejection_warmup_bytes``):
after the plain sampler it runs the rejection sampler over twice the dummy requests, counted from the
code of each release and checked on public A10G n-gram starts."""

from __future__ import annotations

import pytest

from factories import calc
from kvcalc.reserve import (SAMPLER_BYTES_PER_ENTRY, SAMPLER_BYTES_TRITON, native_top_k_top_p_bytes,
                            rejection_warmup_bytes)
from kvcalc.units import GIB
from kvcalc.validate import load_logs
from kvcalc.versions import parse_version

V = parse_version


@pytest.mark.parametrize("release,first_pass,want", [
    ("0.11.0", SAMPLER_BYTES_PER_ENTRY, SAMPLER_BYTES_PER_ENTRY),   # max_num_seqs target rows, below the plain pass
    ("0.12.0", SAMPLER_BYTES_PER_ENTRY, 46.5),   # the sort on the float32 target rows, no clone yet
    ("0.15.0", SAMPLER_BYTES_PER_ENTRY, 50.5),   # the clone from v0.14
    ("0.18.0", SAMPLER_BYTES_TRITON, 30.0),      # Triton top-k/top-p: probabilities, draw, its reciprocal
    ("0.23.0", 17.0, 30.0),                      # FlashInfer then the native pass: the same tail
    ("0.18.0", 14.0, 30.0),                      # FlashInfer's smaller plain pass changes nothing
])
def test_the_rejection_warm_up_per_release(release, first_pass, want):
    native = native_top_k_top_p_bytes(V(release), "cuda")
    assert rejection_warmup_bytes(V(release), first_pass, native) == pytest.approx(want)


def test_the_a10g_ngram_starts_keep_what_the_rejection_warm_up_holds():
    """Two public A10G starts of Qwen3.5-4B with n-gram speculation (v0.18.0) keep 0.44 GiB more than
    the same command without it, whatever the token count: the warm-up's peak moves from the vision
    tower's pass to the rejection sampler's (30 B × 256 × 248,320 entries, beside the tower's kept
    outputs)."""
    rows = {e["id"]: e for e in load_logs()}
    plain = rows["a10g-qwen3.5-4b-fp16-maxlen2k-seqs256-warm-v0.18.0"]
    ngram = rows["a10g-qwen3.5-4b-fp16-maxlen2k-ngram3-warm-v0.18.0"]
    logged = plain["logged"]["available_kv_cache_gib"] - ngram["logged"]["available_kv_cache_gib"]
    assert logged == pytest.approx(0.44)

    def activation(speculative):
        c = calc(plain["config"], "a10g", vllm_version="0.18.0", max_model_len=2048, max_num_seqs=256,
                 gpu_memory_utilization=0.9, speculative=speculative)
        return c.budget.term("activation peak").bytes / GIB

    extra = activation({"method": "ngram", "num_speculative_tokens": 3}) - activation(None)
    assert 0.15 < extra < 0.5


def test_model_runner_v2_and_releases_before_it_keep_the_plain_sampler():
    """V2 warms its speculative path differently (not modelled); v0.11.0 passed max_num_seqs target rows
    and filtered them in the model dtype, below the plain pass."""
    spec = {"method": "ngram", "num_speculative_tokens": 3}
    for release, v2 in (("0.11.0", None), ("0.33.0", True)):
        plain = calc("Qwen/Qwen3-8B", "h100", vllm_version=release, max_model_len=8192,
                     model_runner_v2=v2).budget.term("activation peak").bytes
        with_spec = calc("Qwen/Qwen3-8B", "h100", vllm_version=release, max_model_len=8192,
                         model_runner_v2=v2, speculative=spec).budget.term("activation peak").bytes
        assert with_spec == plain, release
    # the V1 runner either way (v0.20): 1,024 dummy requests × 151,936 entries × 13 B more
    plain = calc("Qwen/Qwen3-8B", "h100", vllm_version="0.20.0", max_model_len=8192)
    spec_v1 = calc("Qwen/Qwen3-8B", "h100", vllm_version="0.20.0", max_model_len=8192, speculative=spec)
    more = (spec_v1.budget.term("activation peak").bytes - plain.budget.term("activation peak").bytes) / GIB
    assert 1.5 < more < 2.3
    assert "rejection sampler" in str(spec_v1.budget.term("activation peak").basis)
