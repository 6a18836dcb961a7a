"""The Qwen-VL vision towers' warm-up (reserve.py ``largest_tower_item``, ``qwen_vl_patch_values``)
and weights (params.py ``_qwen_vl_tower``), against the code of each release and the public logs
they were checked on."""

from __future__ import annotations

import pytest

from factories import calc, config
from kvcalc.params import _qwen_vl_tower
from kvcalc.reserve import TowerItem, largest_tower_item, qwen_vl_patch_values, vision_profile
from kvcalc.units import GIB
from kvcalc.validate import load_logs
from kvcalc.versions import parse_version

V = parse_version
QWEN25_VL_7B = "Qwen/Qwen2.5-VL-7B-Instruct"


def logged_config(log_id: str) -> dict:
    return next(e for e in load_logs() if e["id"] == log_id)["config"]


@pytest.mark.parametrize("release,max_model_len,want", [
    # every two full-size frames are one 16,384-token temporal patch, at most 14 frames from v0.11
    ("0.23.0", 128000, TowerItem("video", 114688, 114688, 458752)),   # the public A100 log's budget
    ("0.23.0", 32768, TowerItem("video", 32768, 32768, 131072)),
    ("0.10.1", 131072, TowerItem("video", 131072, 131072, 524288)),   # 16 frames before #25557
    ("0.11.0", 131072, TowerItem("video", 114688, 114688, 458752)),
    # one frame is as large as the image: the image before #34533, the video after
    ("0.16.0", 8192, TowerItem("image", 16384, 16384, 65536)),     # the v0.16.0 wheel: first listed
    ("0.17.0", 8192, TowerItem("video", 16384, 16384, 65536)),
])
def test_qwen25_vl_warms_up_a_video_as_long_as_the_context_allows(release, max_model_len, want):
    assert largest_tower_item(config(QWEN25_VL_7B), V(release), max_model_len) == want


def test_qwen3_vl_counted_its_video_with_timestamps_between_two_releases():
    """v0.11.0 logs 'budget of 153600 tokens, and profiled with 1 video items': 12.5 prompt tokens
    per embedding made the 12,288-embedding video outweigh the image; #30475 dropped the factor and
    Qwen3.5 (later) never had it."""
    cfg = logged_config("rtx3090-qwen3-vl-30b-a3b-tp4-pcie-nocustomar-v0.11.0")
    assert largest_tower_item(cfg, V("0.11.0"), 65536) == TowerItem("video", 153600, 12288, 49152)
    assert largest_tower_item(cfg, V("0.14.0"), 65536) == TowerItem("image", 16384, 16384, 65536)
    assert largest_tower_item(config("Qwen/Qwen3.5-27B"), V("0.11.0"), 65536).modality == "image"


def test_patch_values_follow_the_attention_and_mlp_of_each_release():
    """Hidden-size units per patch. Qwen2.5-VL-7B (1,280 / 3,420, 14-pixel patches: 1,176 pixel
    values): from v0.12 the attention holds 2 + 10, the gated MLP 5 + 3 × 3,420 / 1,280 when the
    model is compiled (the fused norm's PyTorch form), 3 + … with --enforce-eager; v0.11 rotated
    q/k in float32: 2 + 18 = 20. Qwen3-VL at TP 4 on v0.11 also gathered the QKV: 2 + 18/4 + 3."""
    v = config(QWEN25_VL_7B)["vision_config"]
    assert qwen_vl_patch_values(v, 1, "qwen2_5_vl", V("0.23.0")) == 5 * 1280 + 3 * 3420 + 1176
    assert qwen_vl_patch_values(v, 1, "qwen2_5_vl", V("0.23.0"), compiled=False) == 12 * 1280 + 1176
    assert qwen_vl_patch_values(v, 1, "qwen2_5_vl", V("0.11.0")) == 20 * 1280 + 1176
    q3 = logged_config("rtx3090-qwen3-vl-30b-a3b-tp4-pcie-nocustomar-v0.11.0")["vision_config"]
    h = 1152
    assert qwen_vl_patch_values(q3, 4, "qwen3_vl_moe", V("0.11.0")) == 2 * h + 18 * h // 4 + 3 * h + 1536 + h
    # from v0.12 the MLP (3 + 2 × 4,304 / 4 / 1,152) outweighs the attention at TP 4
    assert qwen_vl_patch_values(q3, 4, "qwen3_vl_moe", V("0.23.0")) == 3 * h + 2 * 4304 // 4 + 1536 + h
    # the Qwen3.5 tower (1,152 / 4,304, 16-pixel patches) on a current release: 16,512 values,
    # 2.02 GiB for one 16,384-token image
    assert qwen_vl_patch_values(config("Qwen/Qwen3.5-27B")["vision_config"], 1, "qwen3_5") == 16512


def test_the_a100_log_that_ran_out_of_memory_is_reproduced():
    """A public v0.23 log: Qwen2.5-VL-7B on an A100 80GB at --gpu-memory-utilization 0.22 and the
    default max_model_len 128,000 profiles 'one video of 114,688 tokens', estimates 0.53 GiB of CUDA
    graphs and prints 'Available KV cache memory: -14.28 GiB' before failing. kvcalc sizes the
    video's pass at 15.2 GiB and lands within 0.3 GiB of the printed figure; the verl log of the
    same checkpoint counts 8.29B parameters."""
    c = calc(QWEN25_VL_7B, "a100-80g-sxm", gpu_memory_utilization=0.22, vllm_version="0.23.0")
    assert abs(c.budget.available_bytes / GIB - (-14.28)) < 0.3
    assert c.estimated is None or not c.estimated.fits
    activation = next(t for t in c.budget.terms if t.name == "activation peak")
    assert "1 video(s) of 114,688 tokens" in str(activation.basis)
    assert "8.29 B parameters" in str(c.budget.weights.basis)
    # the way out the log's user needed: a shorter context shrinks the video (4 frames at 32,768)
    short = calc(QWEN25_VL_7B, "a100-80g-sxm", gpu_memory_utilization=0.22, vllm_version="0.23.0",
                 max_model_len=32768)
    assert short.budget.available_bytes > c.budget.available_bytes + 10 * GIB


def test_the_l4_qwen25_vl_3b_log_needs_the_v011_attention():
    """The public v0.11 Ray log (one 16,384-token image on an L4) leaves 3.34 GiB for activation and
    non-torch memory; the float32 rotation of that release gives 3.27 GiB + 0.23, while from v0.12
    the gated MLP would set a 2.18 GiB peak."""
    cfg = logged_config("l4-ray-qwen2.5-vl-3b-mnbt2k-seqs128-maxlen8k-v0.11.0")
    old = vision_profile(cfg, 2048, 128, 8192, 1, 2, V("0.11.0"))[0] / GIB
    new = vision_profile(cfg, 2048, 128, 8192, 1, 2, V("0.12.0"))[0] / GIB
    assert 3.2 < old < 3.35 and 2.1 < new < 2.25


def test_qwen_vl_tower_weights_are_counted_and_split_across_tp():
    """Qwen2.5-VL-3B's tower: 668.8M parameters (32 gated blocks, merger, patch embedding); the
    blocks' and merger's linear layers split across TP, the embedding and norms do not."""
    v = logged_config("l4-ray-qwen2.5-vl-3b-mnbt2k-seqs128-maxlen8k-v0.11.0")["vision_config"]
    total, rank1 = _qwen_vl_tower(v, "qwen2_5_vl", 2048, 1)
    assert total == rank1 and abs(total - 668.8e6) < 0.1e6
    _, rank4 = _qwen_vl_tower(v, "qwen2_5_vl", 2048, 4)
    assert 0.25 * total < rank4 < 0.27 * total


@pytest.mark.parametrize("release,item,mnbt,rows", [
    # v0.10: outputs cached as they are
    ("0.10.2", TowerItem("image", 1280, 1280, 5120), 8192, 1280),
    # v0.11 (#25810): an output shorter than the encoder budget is copied into the whole budget
    ("0.11.0", TowerItem("image", 1280, 1280, 5120), 8192, 8192),
    ("0.11.0", TowerItem("image", 16384, 16384, 65536), 8192, 16384),      # fills max(8,192, 16,384)
    ("0.11.0", TowerItem("video", 153600, 12288, 49152), 2048, 153600),    # Qwen3-VL's formatted video
    # v0.12 (#29386): only up to the item's own tokens
    ("0.12.0", TowerItem("image", 1280, 1280, 5120), 8192, 1280),
    ("0.12.0", TowerItem("video", 153600, 12288, 49152), 2048, 153600),
    # #30475 (already in the v0.13.0 wheel): never padded
    ("0.13.0", TowerItem("video", 153600, 12288, 49152), 2048, 12288),
])
def test_the_warm_up_caches_padded_encoder_outputs_in_some_releases(release, item, mnbt, rows):
    from kvcalc.reserve import cached_rows
    assert cached_rows(item, mnbt, V(release)) == rows


def test_the_four_rtx_3090_qwen3_vl_log_keeps_the_padded_video_through_the_sampler():
    """v0.11.0, Qwen3-VL-30B-A3B on four RTX 3090s: the 12,288-embedding video is copied into
    153,600 rows of 4 × 2,048 values (2.34 GiB on every GPU) and stays in the encoder cache through
    the language model's pass and the sampler (1.39 GiB), with the pixels and the last unpadded
    output: the log leaves 0.9 × 23.59 − 14.77 − 2.31 = 4.15 GiB for activation and non-torch
    memory. Without the padding kvcalc reserved half of that (+99% pool)."""
    entry = next(e for e in load_logs() if e["id"] == "rtx3090-qwen3-vl-30b-a3b-tp4-pcie-nocustomar-v0.11.0")
    from kvcalc.validate import _calculate
    terms = {t.name: t for t in _calculate(entry)[1].budget.terms}
    padded = 153600 * 2048 * 4 * 2
    assert padded / GIB == pytest.approx(2.344, abs=0.001)
    activation = terms["activation peak"].bytes / GIB
    assert 3.9 < activation < 4.2        # padded video + pixels + last output + the sampler's sort
    reserve = activation + terms["non-torch memory"].bytes / GIB
    assert abs(reserve - 4.15) < 0.75     # non-torch memory on four GeForce cards is the rest


def test_vision_attention_in_between_releases_and_qwen2_vl_of_its_own():
    """v0.11.1-v0.11.2 (the wheels): no TP gather, and the Qwen2.5-VL/Qwen3-VL attention rotates one
    contiguous q·k copy in float32: 2 + 15/TP; Qwen2-VL keeps its q, k, v copies (2 + 18/TP) and
    gathers QKV across TP again from v0.13 (#30542), not in v0.11.1-v0.12."""
    h = 1152
    q3 = logged_config("rtx3090-qwen3-vl-30b-a3b-tp4-pcie-nocustomar-v0.11.0")["vision_config"]
    mid = qwen_vl_patch_values(q3, 4, "qwen3_vl_moe", V("0.11.1"))
    assert mid == max(2 * h + 15 * h // 4, 3 * h + 2 * 4304 // 4) + 1536 + h
    qwen2 = {"embed_dim": 1280, "hidden_size": 3584, "mlp_ratio": 4, "num_heads": 16, "patch_size": 14,
             "temporal_patch_size": 2, "in_chans": 3, "spatial_merge_size": 2, "depth": 32}
    pixels = 3 * 2 * 14 * 14
    e = 1280
    at = {r: qwen_vl_patch_values(qwen2, 2, "qwen2_vl", V(r)) for r in ("0.11.0", "0.11.1", "0.12.0", "0.13.0")}
    mlp = 3 * e + 3 * 5120 // 2       # compiled: QuickGELU as PyTorch code (three MLP-wide values)
    assert at["0.11.1"] == max(2 * e + 18 * e // 2, mlp) + pixels
    assert at["0.12.0"] == max(2 * e + 10 * e // 2, mlp) + pixels
    assert at["0.13.0"] == max(2 * e + 10 * e // 2 + 3 * e, mlp) + pixels
    assert at["0.11.0"] == max(2 * e + 18 * e // 2 + 3 * e, mlp) + pixels


def test_qwen2_vl_before_v011_rotates_q_and_k_one_at_a_time():
    """The v0.10.x wheels rotate q, then k, each through its own float32 copy (2 + 11 hidden-size
    values per patch at TP 1), and a compiled Qwen2-VL runs QuickGELU as PyTorch code, which holds
    the up projection, its sigmoid and their product (3 + 3 × 5,120 / 1,280 = 15): the MLP sets the
    peak. The public v0.10.2 RTX 4080 breakdown of Qwen2-VL-2B (one 65,536-patch image) prints
    2.65 GiB of peak activation; the v0.11 count (2 + 18) would give 3.27."""
    log_id = "rtx4080-wsl-qwen2-vl-2b-util0.8-maxlen4k-warm-v0.10.2"
    cfg = logged_config(log_id)
    v, e, pixels = cfg["vision_config"], 1280, 3 * 2 * 14 * 14
    assert qwen_vl_patch_values(v, 1, "qwen2_vl", V("0.10.2")) == 3 * e + 3 * 5120 + pixels
    assert qwen_vl_patch_values(v, 1, "qwen2_vl", V("0.10.2"), compiled=False) == 2 * e + 11 * e + pixels
    assert qwen_vl_patch_values(v, 1, "qwen2_vl", V("0.11.0")) == 2 * e + 18 * e + pixels
    peak = vision_profile(cfg, 2048, 256, 4096, 1, 2, V("0.10.2"))[0] / GIB
    assert 2.45 < peak < 2.65
    row = next(e for e in load_logs() if e["id"] == log_id)
    assert row["logged"]["activation_peak_gib"] == 2.65
