"""vLLM's optimization level (-O0 .. -O3, --optimization-level, v0.12+): what each level changes in
the budget, what the serve command and a pasted log say, and the releases that read -O as a
compilation level instead."""

from __future__ import annotations

import pytest

from factories import calc
from kvcalc.errors import SettingsError
from kvcalc.logparse import parse_log


def term(c, name: str) -> int:
    return next((t.bytes for t in c.budget.terms if t.name == name), 0)


def test_o0_sizes_what_enforce_eager_sizes():
    """-O0 compiles and captures nothing (OPTIMIZATION_LEVEL_00: compilation mode NONE,
    cudagraph_mode NONE), as --enforce-eager does; the command keeps the user's spelling."""
    eager = calc("Qwen/Qwen3-8B", "h100", max_model_len=8192, enforce_eager=True)
    o0 = calc("Qwen/Qwen3-8B", "h100", max_model_len=8192, optimization_level=0)
    assert o0.estimated.tokens == eager.estimated.tokens and term(o0, "CUDA graphs") == 0
    assert term(o0, "first-start compile") == 0
    assert o0.serve_command.endswith("-O0") and "--enforce-eager" not in o0.serve_command


def test_o1_captures_piecewise_graphs_only_unless_a_mode_is_given():
    default = calc("Qwen/Qwen3-8B", "a100-80g-sxm", max_model_len=8192, max_num_seqs=64)
    o1 = calc("Qwen/Qwen3-8B", "a100-80g-sxm", max_model_len=8192, max_num_seqs=64, optimization_level=1)
    piecewise = calc("Qwen/Qwen3-8B", "a100-80g-sxm", max_model_len=8192, max_num_seqs=64, cudagraph_mode="PIECEWISE")
    assert term(o1, "CUDA graphs") == term(piecewise, "CUDA graphs") < term(default, "CUDA graphs")
    # a cudagraph_mode given with it wins, as vLLM applies the level's defaults to unset fields only
    both = calc("Qwen/Qwen3-8B", "a100-80g-sxm", max_model_len=8192, max_num_seqs=64, optimization_level=1,
                cudagraph_mode="FULL_AND_PIECEWISE")
    assert term(both, "CUDA graphs") == term(default, "CUDA graphs")
    assert o1.serve_command.endswith("-O1")


def test_o1_drops_the_all_reduce_fusion_pass():
    """Before v0.29 only the fusion pass makes FlashInfer's all-reduce workspace on Hopper at TP 2
    (Rule.ALLREDUCE_RMS_FUSION_DEFAULT, v0.17); -O1 runs no fusion pass, so it is not made."""
    kw = dict(vllm_version="0.26.0", tensor_parallel_size=2, max_model_len=8192)
    default = calc("Qwen/Qwen3-8B", "h100", **kw)
    o1 = calc("Qwen/Qwen3-8B", "h100", optimization_level=1, **kw)
    assert term(o1, "non-torch memory") < term(default, "non-torch memory")


@pytest.mark.parametrize("level", [2, 3])
def test_o2_and_o3_are_the_default(level):
    default = calc("Qwen/Qwen3-8B", "h100", max_model_len=8192)
    given = calc("Qwen/Qwen3-8B", "h100", max_model_len=8192, optimization_level=level)
    assert given.estimated.tokens == default.estimated.tokens and given.serve_command == default.serve_command


def test_before_v0_12_only_the_default_level_is_read():
    calc("Qwen/Qwen3-8B", "h100", vllm_version="0.11.0", optimization_level=3)
    with pytest.raises(SettingsError) as e:
        calc("Qwen/Qwen3-8B", "h100", vllm_version="0.11.0", optimization_level=0)
    assert "reads -O0 as a compilation level" in str(e.value.problems["--optimization-level"])
    with pytest.raises(SettingsError) as e:
        calc("Qwen/Qwen3-8B", "h100", optimization_level=5)
    assert "from 0 to 3" in str(e.value.problems["--optimization-level"])


@pytest.mark.parametrize("printed", ["<OptimizationLevel.O1: 1>", "1"])
def test_a_pasted_log_gives_its_level(printed):
    log = parse_log("INFO 01-01 00:00:00 [utils.py:1] non-default args: "
                    f"{{'model': 'Qwen/Qwen3-8B', 'optimization_level': {printed}}}")
    assert log.settings()["optimization_level"] == 1
