"""--enable-expert-parallel: a MoE model's experts placed whole across the tensor-parallel GPUs
(vLLM's expert map, fused_moe/layer.py determine_expert_map), read from the CLI, a pasted command
and a log, sized in the weights and the profile run's fused-MoE buffers."""

from __future__ import annotations

import pytest

from factories import calc, config
from kvcalc import api
from kvcalc.commandline import read_command
from kvcalc.errors import SettingsError
from kvcalc.logparse import parse_log
from kvcalc.units import GIB

MOE = "Qwen/Qwen3-30B-A3B"      # 128 experts of 3 × 2,048 × 768, top-8, 48 layers


def term(c, name: str) -> int:
    return next(t.bytes for t in c.budget.terms if t.name == name)


def test_whole_experts_weigh_the_same_when_the_gpus_divide_them():
    """128 experts over 2 GPUs: 64 whole experts hold what half of every expert holds."""
    tp, ep = calc(MOE, tensor_parallel_size=2), calc(MOE, tensor_parallel_size=2, enable_expert_parallel=True)
    assert term(ep, "weights") == term(tp, "weights")
    assert ep.estimated.tokens <= tp.estimated.tokens
    assert any("64 of the 128" in str(n) for n in ep.notes)
    assert ep.serve_command.endswith("--tensor-parallel-size 2 --enable-expert-parallel")
    assert "--enable-expert-parallel" not in tp.serve_command


def test_the_first_gpu_holds_the_extra_expert_where_they_do_not_divide():
    """60 experts over 8 GPUs: from v0.10.1 vLLM gives the first four ranks 8 experts and the others
    7, and the first rank prints the weights: half an expert per MoE layer more than a 1/8 slice of
    each."""
    cfg = {**config(MOE), "num_experts": 60}      # a copy: the catalog's config stays as it is
    tp = calc(cfg, tensor_parallel_size=8, vllm_version="0.13.0")
    ep = calc(cfg, tensor_parallel_size=8, vllm_version="0.13.0", enable_expert_parallel=True)
    half_an_expert = 3 * 2048 * 768 * 2 // 2        # bf16 bytes
    assert term(ep, "weights") - term(tp, "weights") == pytest.approx(48 * half_an_expert, rel=1e-3)
    assert any("8 of the 60" in str(n) for n in ep.notes)
    # v0.10.0 gave every rank floor(60 / 8) = 7 and the last one the rest (Rule.EP_EXPERTS_BALANCED)
    tp10 = calc(cfg, tensor_parallel_size=8, vllm_version="0.10.0")
    ep10 = calc(cfg, tensor_parallel_size=8, vllm_version="0.10.0", enable_expert_parallel=True)
    assert term(tp10, "weights") - term(ep10, "weights") == pytest.approx(48 * half_an_expert, rel=1e-3)
    assert any("7 of the 60" in str(n) for n in ep10.notes)


def test_the_fused_moe_buffers_keep_the_full_expert_width():
    """The profile's forward pass at 32,768 batched tokens (one sequence, so the sampler is small; v0.13,
    before the workspaces outlive the pass): per token top-8 × (max(2I, H) + I) + 3H values, with
    I = 768 / 4 under TP 4 and the whole 768 under expert parallelism."""
    common = dict(tensor_parallel_size=4, max_num_batched_tokens=32768, max_num_seqs=1, max_model_len=32768,
                  vllm_version="0.13.0")
    tp, ep = calc(MOE, **common), calc(MOE, **common, enable_expert_parallel=True)
    per_token_tp = 8 * (max(2 * 192, 2048) + 192) + 3 * 2048
    per_token_ep = 8 * (max(2 * 768, 2048) + 768) + 3 * 2048
    assert term(tp, "activation peak") == 32768 * per_token_tp * 2
    assert term(ep, "activation peak") == 32768 * per_token_ep * 2
    assert (term(ep, "activation peak") - term(tp, "activation peak")) / GIB == pytest.approx(0.28, abs=0.01)


def test_where_it_changes_nothing_the_note_says_why():
    """A dense model has no experts; TP 1 has an expert-parallel size of 1: the numbers stay those
    without the flag, and a note says why."""
    for model, tp_size, why in (("Qwen/Qwen3-8B", 2, "no experts"), (MOE, 1, "size is tensor × data parallel, here 1")):
        off = calc(model, tensor_parallel_size=tp_size)
        on = calc(model, tensor_parallel_size=tp_size, enable_expert_parallel=True)
        assert on.estimated.tokens == off.estimated.tokens
        assert any(why in str(n) for n in on.notes), on.notes


def test_data_parallel_experts_stay_refused():
    """With data parallelism the experts spread over data × tensor parallel GPUs and every rank's
    tokens are gathered for them: still refused, naming --data-parallel-size."""
    with pytest.raises(SettingsError) as err:
        calc(MOE, tensor_parallel_size=2, data_parallel_size=2, enable_expert_parallel=True)
    assert list(err.value.problems) == ["--data-parallel-size"]


def test_the_flag_is_read_from_a_command_a_log_and_the_cli_but_eplb_is_refused():
    assert read_command(f"vllm serve {MOE} -tp 2 -ep")["settings"] == \
        {"tensor_parallel_size": 2, "enable_expert_parallel": True}
    assert read_command(f"vllm serve {MOE} --tensor-parallel-size 2 --enable-expert-parallel")["settings"] == \
        {"tensor_parallel_size": 2, "enable_expert_parallel": True}
    log = ("INFO 08-23 10:13:54 [api_utils.py:273] non-default args: {'model_tag': 'Qwen/Qwen3-30B-A3B', "
           "'model': 'Qwen/Qwen3-30B-A3B', 'tensor_parallel_size': 2, 'enable_expert_parallel': True}\n")
    assert parse_log(log).settings()["enable_expert_parallel"] is True
    refused = read_command(f"vllm serve {MOE} -tp 2 --enable-expert-parallel --enable-eplb")
    assert list(refused["refused"]) == ["--enable-eplb"]
    r = api.handle({"op": "estimate", "model": MOE, "gpu": "h100",
                    "settings": {"tensor_parallel_size": 2, "enable_expert_parallel": True}})
    assert r["ok"] and r["result"]["settings"]["enable_expert_parallel"] is True
