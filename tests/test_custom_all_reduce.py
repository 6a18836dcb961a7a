"""--disable-custom-all-reduce: NCCL then runs every tensor-parallel all-reduce, inside the CUDA
graphs too, which makes each captured graph cost more (reserve.nccl_in_graphs); read from the CLI,
a pasted command, a log and the API, and written back into the serve command."""

from __future__ import annotations

import json

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
