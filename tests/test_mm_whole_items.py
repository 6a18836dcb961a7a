"""Gemma 4 (bidirectional vision attention) takes each multimodal item whole from v0.20 on CUDA and
v0.30 on ROCm: a step shorter than the largest item a prompt may carry is a refused start
(vllm/v1/core/encoder_cache_manager.py compute_mm_encoder_budget: 'Chunked MM input disabled but
max_tokens_per_mm_item (2496) is larger than max_num_batched_tokens (2048)'). Its largest item is a
32-frame video of 78 tokens a frame: 2,496."""

from __future__ import annotations

import pytest

from kvcalc.errors import SettingsError

from factories import calc

GEMMA4 = "google/gemma-4-26B-A4B-it"


def refusal(**settings) -> str:
    with pytest.raises(SettingsError) as e:
        calc(GEMMA4, settings.pop("gpu", "rtx-5090"), **settings)
    return e.value.problems["--max-num-batched-tokens"]


def test_v0_20_refuses_the_default_step_of_2048():
    msg = refusal(vllm_version="0.20.0")
    assert "vLLM 0.20.0 refuses to start" in msg and "video item whole (2,496 tokens" in msg
    assert "max_tokens_per_mm_item (2496) is larger than max_num_batched_tokens (2048)" in msg
    assert "0.22 or newer" in msg      # the default one: the release that raises it is named


def test_what_lets_it_start():
    """A step that holds the video, videos off (an image is 280 tokens), text only, v0.19 (no prefix
    LM yet), v0.22 (the default is raised to 2,496)."""
    assert calc(GEMMA4, "rtx-5090", vllm_version="0.20.0", max_num_batched_tokens=2496).estimated is not None
    assert calc(GEMMA4, "rtx-5090", vllm_version="0.20.0", limit_mm_per_prompt={"video": 0}).estimated is not None
    assert calc(GEMMA4, "rtx-5090", vllm_version="0.20.0", language_model_only=True).estimated is not None
    assert calc(GEMMA4, "rtx-5090", vllm_version="0.19.0").estimated is not None
    assert calc(GEMMA4, "rtx-5090", vllm_version="0.22.0").resolved.max_num_batched_tokens == 2496


def test_a_given_step_is_refused_in_every_release_from_v0_20():
    msg = refusal(vllm_version="0.22.0", max_num_batched_tokens=2048)
    assert "more than --max-num-batched-tokens 2,048" in msg and "0.22 or newer" not in msg
    assert "video" in refusal(vllm_version="0.33.0", max_num_batched_tokens="2k")


def test_rocm_takes_items_whole_from_v0_30():
    assert calc(GEMMA4, "mi300x", vllm_version="0.29.0", max_num_batched_tokens=2048).estimated is not None
    assert "vLLM 0.30.0 refuses" in refusal(gpu="mi300x", vllm_version="0.30.0", max_num_batched_tokens=2048)


def test_gemma_4_without_bidirectional_attention_is_not_affected():
    """E2B's text config has no use_bidirectional_attention: causal, items may be chunked."""
    assert calc("google/gemma-4-E2B-it", "rtx-5090", vllm_version="0.20.0",
                max_num_batched_tokens=512).estimated is not None
