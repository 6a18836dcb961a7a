"""Gemma 4 12B, the family's encoder-free "unified" member (model_type gemma4_unified,
vllm/model_executor/models/gemma4_unified.py): its language model is Gemma 4's, so its eight full
layers keep one 512-wide KV head in 64-token blocks beside 40 sliding layers of 8 × 256, and its
vision and audio inputs go through linear embedders rather than towers. Read as a generic model it
came out 12.5% short of public MI300X logs (every full layer sized like a sliding one)."""

from __future__ import annotations

import pytest

from kvcalc.params import inventory
from kvcalc.reserve import mm_prefix_lm_batch_floor, tower_modalities, tower_pass
from kvcalc.settings import mm_limits_of

from factories import calc, config

GEMMA4_12B = "google/gemma-4-12B-it"


def test_full_layers_keep_one_wide_head_in_their_own_group():
    c = calc(GEMMA4_12B, "mi300x", max_model_len=32768, vllm_version="0.31.0")
    assert c.kv_bytes_per_token == 40 * 8 * 256 * 2 * 2 + 8 * 1 * 512 * 2 * 2    # 344,064 B
    assert c.grouping.kind == "hybrid" and len(c.grouping.groups) == 6


def test_the_public_mi300x_start_is_inside_from_its_own_memory():
    """mi300x-rocm-gemma-4-12b-it-bf16-img0-audio0-v2runner-cold-v0.31.1rc1-dev23: 140.74 GiB,
    439,003 tokens; read generically the same memory gave 384,155."""
    c = calc(GEMMA4_12B, "mi300x", max_model_len=32768, gpu_memory_utilization=0.9, vllm_version="0.31.0",
             limit_mm_per_prompt={"image": 0, "audio": 0}, available_kv_gib=140.74)
    assert c.from_log_low.tokens <= 439003 <= c.from_log_high.tokens


def test_the_embedders_are_counted_and_the_parameters_match_the_checkpoint():
    """Vision: 6,912 → 3,840 patch projection with bias, three LayerNorms, a 1,120 × 2 × 3,840 position
    table and the 3,840 → 3,840 projection to the text width; audio: 640 → 3,840. With the text model
    that is 11,959,369,216 parameters, 22.28 GiB in bf16, what the log prints as the checkpoint size."""
    parts = inventory(config(GEMMA4_12B), 1)
    by_name = {p.name: p.params for p in parts if p.name in ("vision", "audio")}
    assert by_name == {"vision": 6912 * 3840 + 3840 + 2 * 6912 + 6 * 3840 + 1120 * 2 * 3840 + 3840 * 3840,
                       "audio": 640 * 3840}
    total = sum(p.params for p in parts)
    assert total == 11_959_369_216 and round(total * 2 / 2**30, 2) == 22.28


def test_the_patch_projection_splits_across_tp_and_the_rest_is_replicated():
    parts = {p.name: p for p in inventory(config(GEMMA4_12B), 2)}
    dense = 6912 * 3840 + 3840
    assert parts["vision"].per_rank == parts["vision"].params - dense + dense // 2
    assert parts["audio"].per_rank == parts["audio"].params


def test_the_embedders_stay_loaded_with_the_towers_switched_off():
    """gemma4_unified.py builds them in __init__ outside ``_mark_tower_model``: no limit drops them."""
    on = calc(GEMMA4_12B, "h200", max_model_len=8192, vllm_version="0.31.0")
    text_only = calc(GEMMA4_12B, "h200", max_model_len=8192, vllm_version="0.31.0", language_model_only=True)
    assert on.budget.weights.bytes == text_only.budget.weights.bytes


def test_the_profile_embeds_videos_and_keeps_their_outputs_and_pixels():
    """Six 2,496-token videos at 16,384 batched tokens, as the MI300X log prints; each keeps 2,496 rows
    of 3,840 values and 32 × 70 patches of 48 × 48 × 3 pixels in bf16 (0.28 GiB for six), while the pass
    itself embeds one frame at a time (a few MiB)."""
    cfg = config(GEMMA4_12B)
    assert tower_modalities(cfg) == ("image", "video", "audio")
    p = tower_pass(cfg, 16384, 1024, 32768, 1, 2)
    assert p is not None and p.item.modality == "video" and p.items == 6
    assert p.kept == 6 * (2496 * 3840 * 2 + 32 * 70 * 6912 * 2)
    assert p.peak < 8 << 20


def test_images_only_take_280_soft_tokens_from_num_soft_tokens():
    p = tower_pass(config(GEMMA4_12B), 2048, 256, 8192, 1, 2, limits=mm_limits_of({"video": 0, "audio": 0}))
    assert p is not None and p.item.modality == "image" and p.item.budget_tokens == 280 and p.item.patches == 280


def test_a_whole_video_sets_the_batch_floor_as_for_the_tower_models():
    assert mm_prefix_lm_batch_floor(config(GEMMA4_12B)) == 2496
    # a GPU under 70 GiB defaults to 2,048 batched tokens, raised to hold one whole video
    c = calc(GEMMA4_12B, "rtx-pro-6000", max_model_len=8192, vllm_version="0.31.0", gpu_memory_utilization=0.9)
    assert c.resolved.max_num_batched_tokens == 8192
    c = calc(GEMMA4_12B, "a100-40g-sxm", max_model_len=8192, vllm_version="0.31.0")
    assert c.resolved.max_num_batched_tokens == 2496


def test_the_basis_names_the_embedder_not_a_tower():
    c = calc(GEMMA4_12B, "h200", max_model_len=8192, vllm_version="0.31.0")
    basis = str(c.budget.term("activation peak").basis)
    assert "encoder-free vision embedder" in basis and "vision tower" not in basis


@pytest.mark.parametrize("model_type", ["gemma4_unified", "gemma4_unified_text"])
def test_a_text_config_of_either_name_is_read_as_gemma_4(model_type):
    text = dict(config(GEMMA4_12B)["text_config"], model_type=model_type)
    c = calc(text, "h200", max_model_len=8192, vllm_version="0.31.0")
    assert c.kv_bytes_per_token == 344_064
