"""A pasted LLM(...) call (llmcall.py, commandline.read_command): its literal keyword arguments read
as the serve flags they are, on the LLM class's entry point, without running any code."""

from __future__ import annotations

import json

import pytest

from kvcalc import api
from kvcalc.commandline import read_command
from kvcalc.llmcall import read_llm_call


def test_a_notebook_cell_with_an_llm_call_is_read():
    cell = ("from vllm import LLM, SamplingParams\n"
            "params = SamplingParams(max_tokens=256)  # LLM( in a comment is no call\n"
            "llm = LLM(\n"
            "    model=\"Qwen/Qwen3-8B\",          # the model\n"
            "    max_model_len=32 * 1024,\n"
            "    gpu_memory_utilization=0.85,\n"
            "    tensor_parallel_size=2,\n"
            "    enable_prefix_caching=False,\n"
            "    enforce_eager=False,\n"
            "    trust_remote_code=True,\n"
            "    chat_template=\"{{ ')' }}\",\n"
            "    speculative_config={\"method\": \"ngram\", \"num_speculative_tokens\": 3},\n"
            ")\n"
            "print(llm.generate(['hi'], params))\n")
    got = read_command(cell)
    assert got["kind"] == "llm" and got["model"] == "Qwen/Qwen3-8B"
    assert got["settings"] == {"max_model_len": 32768, "gpu_memory_utilization": 0.85, "tensor_parallel_size": 2,
                               "enable_prefix_caching": False, "enforce_eager": False,
                               "speculative": json.dumps({"method": "ngram", "num_speculative_tokens": 3})}
    assert got["ignored"] == ["--trust-remote-code", "--chat-template"] and got["refused"] == {}


def test_the_llm_class_entry_point_reaches_the_form():
    r = api.handle({"op": "read_command", "text": "llm = vllm.LLM('Qwen/Qwen3-8B', compilation_config=0)",
                    "fallback": {"settings": {"entrypoint": "serve"}}})
    assert r["ok"], r
    assert r["result"]["settings"] == {"entrypoint": "llm", "optimization_level": 0}


@pytest.mark.parametrize("text, unread", [
    ("LLM(model=MODEL, max_model_len=8192)", ["model"]),
    ("LLM('Qwen/Qwen3-8B', max_model_len=cfg.max_len, **engine_kwargs)", ["max_model_len", "**engine_kwargs"]),
    ("LLM('Qwen/Qwen3-8B', max_model_len=2 ** 100)", ["max_model_len"]),
    ("LLM('Qwen/Qwen3-8B', max_model_len=1 // 0)", ["max_model_len"]),
])
def test_an_argument_that_is_not_a_literal_is_named_not_run(text, unread):
    got = read_command(text)
    assert list(got["refused"]) == unread
    assert all("Python expression" in str(why) for why in got["refused"].values())


@pytest.mark.parametrize("text, field", [
    ("llm = LLM(model='Qwen/Qwen3-8B', max_model_len=8192", "command"),   # never closes
    ("engine = AsyncLLM.from_engine_args(args)", "log"),                   # no LLM( call
    ("MyLLM(model='x')", "log"),
])
def test_what_is_no_readable_llm_call_says_so(text, field):
    r = api.handle({"op": "read_command", "text": text})
    assert not r["ok"] and list(r["error"]["fields"]) == [field]


def test_the_call_is_parsed_never_evaluated():
    call = read_llm_call("LLM(model=__import__('os').system('echo x'), max_model_len=open('f').read())")
    assert call is not None and call.model is None and call.kwargs == {}
    assert call.unread == ("model", "max_model_len")
