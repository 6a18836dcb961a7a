"""--data-parallel-size: each engine of a dense model sizes its own GPUs, so the figures are one
engine's (a stored T4 run of two DP ranks lands at -0.4% sized so); MoE models, whose experts vLLM
spreads over every rank, are refused with the reason."""

from __future__ import annotations

import pytest

from factories import calc
from kvcalc.errors import SettingsError


def test_a_dense_models_engines_each_size_their_own_gpus():
    one = calc("Qwen/Qwen3-8B", "h100", max_model_len=8192, tensor_parallel_size=2)
    four = calc("Qwen/Qwen3-8B", "h100", max_model_len=8192, tensor_parallel_size=2, data_parallel_size=4)
    assert four.estimated.tokens == one.estimated.tokens
    assert "--data-parallel-size 4" in four.serve_command
    note = next(n for n in four.notes if "--data-parallel-size 4" in n)
    assert "4 engines" in note and "on 8 GPUs" in note


def test_a_moe_model_with_data_parallelism_is_refused():
    with pytest.raises(SettingsError) as e:
        calc("Qwen/Qwen3-30B-A3B", "h100", data_parallel_size=2, tensor_parallel_size=2)
    assert "all 4 GPUs" in str(e.value.problems["--data-parallel-size"])
