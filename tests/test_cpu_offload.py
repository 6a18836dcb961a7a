"""--cpu-offload-gb N: the UVA offloader moves whole parameters of the decoder layers to pinned host
memory until N GiB per GPU have moved (vllm/model_executor/offloader/uva.py), so the weights vLLM
counts ("Model loading took") shrink by N and the KV cache grows by as much; it can move at most
the layers themselves, never the embeddings or the LM head."""

from __future__ import annotations

from kvcalc import api

from factories import calc, compared, row_of

GIB = 1 << 30
LLAMA = "meta-llama/Llama-3.1-8B-Instruct"


def weights(c) -> int:
    return c.budget.weights.bytes


def test_the_offload_moves_weights_into_the_cache():
    plain = calc(LLAMA, max_model_len=8192, vllm_version="0.25.0")
    moved = calc(LLAMA, max_model_len=8192, vllm_version="0.25.0", cpu_offload_gb=4)
    assert weights(plain) - weights(moved) == 4 * GIB
    assert moved.estimated.available_bytes - plain.estimated.available_bytes == 4 * GIB
    assert moved.budget.weights.low < moved.budget.weights.bytes      # a parameter may cross the line
    assert "--cpu-offload-gb 4" in moved.serve_command
    assert "less 4.00 GiB per GPU of layer weights kept in host memory" in moved.budget.weights.basis


def test_no_more_than_the_layers_move():
    """Asking for more than the 32 layers hold leaves the embedding table and the LM head:
    2 x 128,256 x 4,096 x 2 B = 1.96 GiB, plus the rotary cache."""
    c = calc(LLAMA, max_model_len=8192, vllm_version="0.25.0", cpu_offload_gb=1000)
    assert 2 * 128256 * 4096 * 2 <= weights(c) < 2 * 128256 * 4096 * 2 + 64 << 20


def test_each_pipeline_stage_offloads_its_own_budget():
    """One offloader per process: at PP 2 each stage moves N of its own 16 layers."""
    plain = calc(LLAMA, max_model_len=8192, vllm_version="0.25.0", pipeline_parallel_size=2)
    moved = calc(LLAMA, max_model_len=8192, vllm_version="0.25.0", pipeline_parallel_size=2, cpu_offload_gb=2)
    before, after = plain.budget, moved.budget
    assert [a - b for a, b in zip(before.stage_available, after.stage_available)] == [-2 * GIB, -2 * GIB]


def test_a_bad_amount_is_named():
    r = api.handle({"op": "estimate", "model": LLAMA, "gpu": "h100", "settings": {"cpu_offload_gb": -1}})
    assert not r["ok"] and "0 or more" in r["error"]["fields"]["--cpu-offload-gb"]
    r = api.handle({"op": "estimate", "model": LLAMA, "gpu": "h100", "settings": {"cpu_offload_gb": "ten"}})
    assert not r["ok"] and "'ten'" in r["error"]["fields"]["--cpu-offload-gb"]


def test_a_log_of_an_offloaded_start_compares_what_was_moved():
    """'Total CPU offloaded parameters: X' (the offloader's count, GiB) is set beside kvcalc's."""
    text = ("INFO [utils.py:233] non-default args: {'model': 'meta-llama/Llama-3.1-8B-Instruct', "
            "'max_model_len': 8192, 'cpu_offload_gb': 4.0}\n"
            "INFO [uva.py:61] Total CPU offloaded parameters: 4.08\n"
            "INFO [gpu_worker.py:298] Available KV cache memory: 60.0 GiB\n")
    res = compared(text, "0.25.0")
    assert res["form"]["cpu_offload_gb"] == 4.0
    row = row_of(res, "Total CPU offloaded parameters")
    assert row["logged"] == "4.08 GiB" and row["estimated"] == "4.00 GiB"


def test_without_pinned_memory_releases_before_v0_17_refuse_to_offload():
    """WSL2 (no pinned host memory): v0.10-v0.16 assert 'V1 CPU offloading requires uva (pin memory)
    support'; v0.17 copies the offloaded layers in instead."""
    import pytest
    from kvcalc.errors import SettingsError
    with pytest.raises(SettingsError) as e:
        calc(LLAMA, "rtx-4090", max_model_len=8192, vllm_version="0.16.0", cpu_offload_gb=4, pinned_memory=False)
    assert "requires uva (pin memory) support" in e.value.problems["--cpu-offload-gb"]
    assert calc(LLAMA, "rtx-4090", max_model_len=8192, vllm_version="0.17.0", cpu_offload_gb=4,
                pinned_memory=False).estimated is not None
    assert calc(LLAMA, "rtx-4090", max_model_len=8192, vllm_version="0.16.0", cpu_offload_gb=4).estimated is not None
