"""--disable-custom-all-reduce: NCCL then runs every tensor-parallel all-reduce, inside the CUDA
graphs too, which makes each captured graph cost more (reserve.nccl_in_graphs); read from the CLI,
a pasted command, a log and the API, and written back into the serve command; and the GPUs' peer-to-peer,
which decides whether vLLM can keep its custom all-reduce at all."""

from __future__ import annotations

import json

import pytest

from factories import calc
from kvcalc import api
from kvcalc.cli import main
from kvcalc.commandline import read_command
from kvcalc.logparse import parse_log

MODEL = "Qwen/Qwen3-32B"


def graphs_gib(result: dict) -> float:
    return next(t["gib"] for t in result["budget"]["terms"] if t["name"] == "CUDA graphs")


def test_the_flag_is_read_everywhere_and_written_back(capsys):
    assert read_command(f"vllm serve {MODEL} -tp 2 --disable-custom-all-reduce")["settings"] == \
        {"tensor_parallel_size": 2, "disable_custom_all_reduce": True}
    log = ("INFO 04-16 11:16:06 [utils.py:233] non-default args: {'model': 'Qwen/Qwen3-32B', "
           "'tensor_parallel_size': 2, 'disable_custom_all_reduce': True}\n")
    assert parse_log(log).settings()["disable_custom_all_reduce"] is True
    c = calc(MODEL, "h100", tensor_parallel_size=2, max_model_len=8192, disable_custom_all_reduce=True)
    assert "--tensor-parallel-size 2 --disable-custom-all-reduce --max-model-len 8192" in c.serve_command
    assert "--disable-custom-all-reduce" not in calc(MODEL, "h100", tensor_parallel_size=2,
                                                     max_model_len=8192).serve_command
    r = api.handle({"op": "estimate", "model": MODEL, "gpu": "h100",
                    "settings": {"tensor_parallel_size": 2, "disable_custom_all_reduce": True}})
    assert r["ok"] and r["result"]["settings"]["disable_custom_all_reduce"] is True

    def cli(*extra: str) -> dict:
        assert main(["estimate", "--model", MODEL, "--gpu", "h100", "--tp", "2", "--vllm-version", "0.30.0",
                     "--max-model-len", "8192", "--json", *extra]) == 0
        return json.loads(capsys.readouterr().out)
    on, off = cli(), cli("--disable-custom-all-reduce")
    assert off["settings"]["disable_custom_all_reduce"] is True and on["settings"]["disable_custom_all_reduce"] is False
    assert graphs_gib(off) > graphs_gib(on) + 0.5          # 64 layers × 0.17 MiB × 86+ graphs
    assert off["estimated"]["tokens"] < on["estimated"]["tokens"]
    assert "--disable-custom-all-reduce" in off["serve_command"]


def test_peer_to_peer_said_overrides_the_cards_usual_case(capsys):
    """GPU peer-to-peer (kvcalc's own setting, ``--peer-to-peer on|off``, the page's Advanced select) says
    what the host allows, which the card type only guesses: without it two A100s keep no NCCL buffer
    per peer (0.15 GiB once, not 0.45 per peer) and run NCCL inside the graphs; with it two L40S keep
    the custom all-reduce, so the band's top no longer holds NCCL's graphs. vLLM's 'lacks GPU P2P
    capability' line says no, and a log row that prints it carries peer_to_peer false."""
    from kvcalc.reserve import MULTI_GPU_NON_TORCH_GIB, NO_P2P_NON_TORCH_GIB  # noqa: PLC0415
    from kvcalc.units import GIB  # noqa: PLC0415
    from kvcalc.validate import load_logs  # noqa: PLC0415

    def terms(gpu, **flags):
        b = calc(MODEL, gpu, tensor_parallel_size=2, max_model_len=8192, vllm_version="0.30.0", **flags).budget
        return b.term("non-torch memory"), b.term("CUDA graphs")
    (nt, cg), (nt_off, cg_off) = terms("a100-80g-sxm"), terms("a100-80g-sxm", peer_to_peer=False)
    assert (nt.bytes - nt_off.bytes) / GIB == pytest.approx(MULTI_GPU_NON_TORCH_GIB - NO_P2P_NON_TORCH_GIB, abs=0.01)
    assert cg_off.bytes > cg.bytes + 0.5 * GIB and "as set" in cg_off.basis and "as set" in nt_off.basis
    assert "usually" not in nt_off.basis and "as set" not in nt.basis
    (_, l40s), (_, l40s_on) = terms("l40s"), terms("l40s", peer_to_peer=True)
    assert l40s.bytes == l40s_on.bytes and l40s_on.high < l40s.high and "band's top adds" in l40s.basis
    log = ("INFO 09-15 02:37:10 [custom_all_reduce.py:154] Custom allreduce is disabled because your platform "
           "lacks GPU P2P capability or P2P test failed. To silence this warning, specify "
           "disable_custom_all_reduce=True explicitly.\n")
    assert parse_log(log).settings()["peer_to_peer"] is False
    printed = [e for e in load_logs() if "lacks GPU P2P" in (e.get("excerpt") or "")]
    assert len(printed) >= 6 and all(e.get("peer_to_peer") is False for e in printed)

    def cli(*extra: str) -> dict:
        assert main(["estimate", "--model", MODEL, "--gpu", "a100-80g-sxm", "--tp", "2", "--vllm-version", "0.30.0",
                     "--max-model-len", "8192", "--json", *extra]) == 0
        return json.loads(capsys.readouterr().out)
    assert cli()["settings"]["peer_to_peer"] is None
    off = cli("--peer-to-peer", "off")
    assert off["settings"]["peer_to_peer"] is False and "--peer-to-peer" not in off["serve_command"]


def test_deepseek_v4_keeps_its_own_graph_price():
    """DeepSeek-V4's per-graph figure (reserve.DSV4_GRAPH_MIB) comes from a start that ran with
    --disable-custom-all-reduce, so NCCL's captured all-reduces are in it: no NCCL share on top."""
    flash = "deepseek-ai/DeepSeek-V4-Flash-0731"
    on = calc(flash, "rtx-pro-6000", tensor_parallel_size=2, vllm_version="0.25.0", max_model_len=65536, kv_cache_dtype="fp8",
              disable_custom_all_reduce=True).budget.term("CUDA graphs")
    off = calc(flash, "rtx-pro-6000", tensor_parallel_size=2, vllm_version="0.25.0",
               max_model_len=65536, kv_cache_dtype="fp8").budget.term("CUDA graphs")
    assert on.bytes == off.bytes > 1 << 30 and "NCCL" not in on.basis and "23.8 MiB" in on.basis


def test_stored_rows_carry_what_their_excerpts_say_of_the_all_reduce():
    """A row whose excerpt turns the custom all-reduce off, or prints the peer-to-peer refusal, carries
    the same setting, so its estimate is the one a user pasting that log gets."""
    from kvcalc.validate import load_logs  # noqa: PLC0415
    for e in load_logs():
        said = parse_log(e.get("excerpt") or "").settings()
        for key in ("disable_custom_all_reduce", "peer_to_peer"):
            if key in said:
                assert e.get(key) == said[key], (e["id"], key)
