"""FlashInfer's attention workspace in vLLM's CUDA-graph estimate: sized for the batch from v0.26
(vllm#48428, the "graph memory" of vllm#50780), held only where FlashInfer decodes with its own kernels,
and the same rules for models with Mamba/GDN layers, whose FlashInfer graphs drop to piecewise with
speculative decoding as dense models' do."""

from __future__ import annotations

import pytest

from factories import calc
from kvcalc.attention import flashinfer_spec_full_graphs, flashinfer_trtllm_decode
from kvcalc.catalog import find_gpu
from kvcalc.reserve import FLASHINFER_WORKSPACE_BYTES, HYBRID_FIRST_CAPTURE_GIB, flashinfer_workspace_bytes
from kvcalc.units import GIB, MIB
from kvcalc.validate import validate_logs
from kvcalc.versions import parse_version

KIB = 1 << 10


def graphs(c) -> int:
    return next(t for t in c.budget.terms if t.name == "CUDA graphs").bytes


def test_the_workspace_is_fixed_before_v0_26_and_sized_for_the_batch_from_it():
    v25, v26 = parse_version("0.25.1"), parse_version("0.26.0")
    # Qwen3.5-122B-A10B on one GPU: 32 query heads of 256, the 128 KiB per batched token of vllm#50780
    assert flashinfer_workspace_bytes(v26, 32768, 32, 256) - flashinfer_workspace_bytes(v26, 32767, 32, 256) \
        == 128 * KIB
    assert flashinfer_workspace_bytes(v26, 32768, 32, 256) == 4 * GIB
    assert flashinfer_workspace_bytes(v25, 32768, 32, 256) == FLASHINFER_WORKSPACE_BYTES == 394 * MIB
    # vllm#52872's 24-head Qwen3.6-27B: flat up to 4,096 batched tokens, then +0.37 GiB at 8,192
    assert flashinfer_workspace_bytes(v26, 4096, 24, 256) == 394 * MIB
    assert flashinfer_workspace_bytes(v26, 8192, 24, 256) - 394 * MIB == pytest.approx(0.365 * GIB, abs=0.005 * GIB)
    # tensor parallelism splits the query heads
    assert flashinfer_workspace_bytes(v26, 32768, 16, 256) == 2 * GIB


@pytest.mark.parametrize("gpu, version, trtllm, spec_full", [
    ("b200", "0.23.0", True, True),            # trtllm-gen on data-centre Blackwell
    ("h100", "0.24.0", False, False),          # Hopper: its own decode before XQA
    ("h100", "0.25.0", True, False),           # XQA from v0.25, single-token graphs until v0.30
    ("h100", "0.30.0", True, True),
    ("rtx-5090", "0.27.1", False, False),      # 12.x: FlashInfer's own decode before v0.28
    ("rtx-5090", "0.28.0", True, True),
    ("l40s", "0.33.0", False, False),          # Ada never
    ("a100-80g-sxm", "0.33.0", False, False),  # Ampere never
])
def test_where_flashinfer_decodes_through_tensorrt_llm(gpu, version, trtllm, spec_full):
    target, v = find_gpu(gpu).target, parse_version(version)
    assert flashinfer_trtllm_decode(target, v) is trtllm
    assert flashinfer_spec_full_graphs(target, v) is spec_full


def test_a_batch_sized_workspace_follows_max_num_batched_tokens_in_the_v1_estimate():
    """Qwen3-8B (32 heads of 128: 64 KiB a batched token) forced onto FlashInfer on an L40S with the V1
    runner: at 4,096 batched tokens the workspace is the 394 MiB floor, at 16,384 it is 1 GiB and the
    graph estimate grows by the difference in every end of the band. v0.25 keeps 394 MiB."""
    kw = dict(max_model_len=8192, max_num_seqs=16, attention_backend="FLASHINFER", model_runner_v2=False)
    small = calc("Qwen/Qwen3-8B", "l40s", vllm_version="0.26.0", max_num_batched_tokens=4096, **kw)
    large = calc("Qwen/Qwen3-8B", "l40s", vllm_version="0.26.0", max_num_batched_tokens=16384, **kw)
    assert graphs(large) - graphs(small) == GIB - 394 * MIB
    assert large.estimated_high.available_bytes < small.estimated_high.available_bytes
    old_small = calc("Qwen/Qwen3-8B", "l40s", vllm_version="0.25.1", max_num_batched_tokens=4096, **kw)
    old_large = calc("Qwen/Qwen3-8B", "l40s", vllm_version="0.25.1", max_num_batched_tokens=16384, **kw)
    assert graphs(old_large) == graphs(old_small) == graphs(small)


def test_tensorrt_llm_decode_keeps_the_fixed_workspace_in_the_estimate():
    """On an RTX 5090 from v0.28 FlashInfer decodes through XQA, whose own 394 MiB buffer the first full
    graph allocates, so the estimate no longer follows the batch; v0.27 still does."""
    kw = dict(max_model_len=8192, max_num_seqs=16, kv_cache_dtype="fp8", model_runner_v2=False)
    for version, grows in (("0.27.1", True), ("0.28.0", False)):
        small = calc("Qwen/Qwen3-8B", "rtx-5090", vllm_version=version, max_num_batched_tokens=4096, **kw)
        large = calc("Qwen/Qwen3-8B", "rtx-5090", vllm_version=version, max_num_batched_tokens=16384, **kw)
        assert (graphs(large) - graphs(small) == GIB - 394 * MIB) is grows, version


def test_model_runner_v2_allocates_the_workspace_before_it_measures():
    """V2's estimate captures after its attention backends exist (vllm/v1/worker/gpu/cudagraph_utils.py
    ``profile_cudagraph_memory``): the batch-sized workspace does not show in it."""
    kw = dict(max_model_len=8192, max_num_seqs=16, attention_backend="FLASHINFER", vllm_version="0.29.0",
              model_runner_v2=True)
    small = calc("Qwen/Qwen3-8B", "l40s", max_num_batched_tokens=4096, **kw)
    large = calc("Qwen/Qwen3-8B", "l40s", max_num_batched_tokens=16384, **kw)
    assert graphs(large) == graphs(small)


def test_the_extensible_cache_pays_the_builders_workspace_and_tensorrt_llms():
    """v0.34 measures after the warm-up, which allocates the builder's batch-sized workspace and, on a
    B200, TensorRT-LLM's own 394 MiB: 512 MiB + 394 MiB for Qwen3-8B at 8,192 batched tokens."""
    kw = dict(max_model_len=8192, vllm_version="0.34.0", max_num_batched_tokens=8192)
    on = calc("Qwen/Qwen3-8B", "b200", **kw)
    off = calc("Qwen/Qwen3-8B", "b200", attention_backend="TRITON_ATTN", **kw)
    assert graphs(on) - graphs(off) == 512 * MIB + 394 * MIB


def test_a_hybrid_model_on_flashinfer_holds_the_workspace_instead_of_its_first_capture_term():
    """An fp8 cache puts Qwen3.5-35B-A3B's attention on FlashInfer on an RTX 5090 (FlashAttention 2
    keeps no fp8 cache): its first full capture holds the 394 MiB workspace, which stands in for the
    state layers' first-capture term; the bf16 cache runs FlashAttention and keeps that term."""
    kw = dict(max_model_len=32768, max_num_seqs=1, vllm_version="0.24.0")
    fp8 = calc("Qwen/Qwen3.5-35B-A3B", "rtx-5090", kv_cache_dtype="fp8", **kw)
    bf16 = calc("Qwen/Qwen3.5-35B-A3B", "rtx-5090", **kw)
    first = int(HYBRID_FIRST_CAPTURE_GIB[0] * GIB)
    assert graphs(fp8) - FLASHINFER_WORKSPACE_BYTES == graphs(bf16) - first
    assert "394 MiB attention workspace" in str(next(t for t in fp8.budget.terms if t.name == "CUDA graphs").basis)


def test_flashinfer_with_speculative_decoding_drops_to_piecewise_graphs_without_tensorrt_llm():
    """vLLM: "FULL_AND_PIECEWISE is not supported with spec-decode for attention backend
    FlashInferBackend … setting cudagraph_mode=PIECEWISE": no full graph, so no workspace in the
    estimate, on a GB10 before v0.28 (Qwen3.6 with MTP); a B200's trtllm-gen keeps the full graphs."""
    mtp = {"method": "mtp", "num_speculative_tokens": 2}
    kw = dict(max_model_len=32768, max_num_seqs=8, kv_cache_dtype="fp8", vllm_version="0.23.0")
    with_mtp = calc("Qwen/Qwen3.5-35B-A3B", "gb10", speculative=mtp, **kw)
    plain = calc("Qwen/Qwen3.5-35B-A3B", "gb10", **kw)
    assert "workspace" not in str(next(t for t in with_mtp.budget.terms if t.name == "CUDA graphs").basis)
    assert "workspace" in str(next(t for t in plain.budget.terms if t.name == "CUDA graphs").basis)
    b200 = calc("Qwen/Qwen3-8B", "b200", speculative={"method": "ngram", "num_speculative_tokens": 3},
                max_model_len=8192, vllm_version="0.23.0")
    assert "workspace" in str(next(t for t in b200.budget.terms if t.name == "CUDA graphs").basis)


def test_a_forced_flashinfer_with_speculative_decoding_is_sized():
    """The rule above also answers a forced FlashInfer with n-gram decoding: piecewise graphs on an A100,
    whose estimate then holds no workspace."""
    spec = {"method": "ngram", "num_speculative_tokens": 3}
    kw = dict(max_model_len=8192, vllm_version="0.26.0", model_runner_v2=False, speculative=spec)
    fi = calc("Qwen/Qwen3-8B", "a100-80g-sxm", attention_backend="FLASHINFER", **kw)
    assert "workspace" not in str(next(t for t in fi.budget.terms if t.name == "CUDA graphs").basis)
    assert fi.estimated.tokens > 0


def test_fp8_qwen3_6_starts_on_flashinfer_print_about_the_workspace():
    """The stored fp8-cache Qwen3.6-35B-A3B starts with one full graph (v0.20, RTX 5090 and GB10) print
    0.36 to 0.47 GiB of graph estimate: kvcalc's term lies within 0.1 GiB of each."""
    rows = [r for r in validate_logs()["rows"] if "qwen3.6-35b-a3b-redhat-nvfp4" in r["id"] and
            r["id"].endswith("v0.20.0") and (r.get("terms") or {}).get("cuda_graphs")]
    # the MTP twin captures one piecewise graph and prints -0.87 GiB: on unified memory the estimate's
    # free-memory difference went the other way (its notes); no workspace is in it
    rows = [r for r in rows if r["terms"]["cuda_graphs"]["logged_gib"] > 0]
    assert len(rows) >= 5
    for r in rows:
        term = r["terms"]["cuda_graphs"]
        assert abs(term["estimated_gib"] - term["logged_gib"]) <= 0.1, r["id"]
