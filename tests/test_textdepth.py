"""textdepth: JSON from outside is refused past MAX_DEPTH before json's scanner recurses, because in
Pyodide that recursion overflows the WebAssembly stack and stops Python in the page for good."""

import json

import pytest

from kvcalc import api, textdepth
from kvcalc.hf_overrides import overrides_of


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_depth_is_counted_outside_strings_and_stops_at_the_limit():
    assert not textdepth.too_deep(nested(textdepth.MAX_DEPTH))
    assert textdepth.too_deep(nested(textdepth.MAX_DEPTH + 1))
    assert not textdepth.too_deep(json.dumps({"a": "[" * 1000, "b": '\\"[[[' * 100}))   # escaped quotes too
    assert textdepth.too_deep("[" * 10_000_000)          # unbalanced: refused at the first bracket too many
    assert textdepth.loads(b'{"x": [1, {"y": 2}]}') == {"x": [1, {"y": 2}]}


def test_too_deep_is_a_value_error_with_its_reason():
    with pytest.raises(ValueError, match="nested more than 64 levels deep"):
        textdepth.loads(nested(100))


def test_a_worker_request_nested_too_deep_gets_a_message_not_a_crash():
    """The page's worker calls handle_json: a config.json nested 5,000 deep (which stopped Pyodide in a
    Chromium worker before) comes back as the request error handle gives."""
    request = {"op": "estimate", "model": "x", "config": {"junk": json.loads(nested(50))}}
    text = json.dumps(request).replace(nested(50), nested(5000))
    reply = json.loads(api.handle_json(text))
    assert not reply["ok"] and "nested too deeply" in reply["error"]["fields"]["request"]


@pytest.mark.parametrize("setting,flag", [("hf_overrides", "--hf-overrides"),
                                          ("speculative", "--speculative-config")])
def test_deep_json_in_a_setting_is_refused_beside_its_field(setting, flag):
    """Typed into a field of the page, the JSON is refused there (in CPython its RecursionError used to
    become a request-wide error; in Pyodide it stopped Python)."""
    reply = api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B",
                        "settings": {setting: '{"a": ' + nested(5000) + "}"}})
    assert not reply["ok"] and set(reply["error"]["fields"]) == {flag}
    assert overrides_of(nested(5000)) is None


def test_python_literals_are_bounded_before_ast_reads_them():
    """ast.parse of an LLM(...) call 199 deep stopped Pyodide in a browser worker: a call nested past
    LITERAL_MAX_DEPTH is not read, a log's argument dict that deep is not parsed, and brackets inside
    strings do not count."""
    from kvcalc.llmcall import CallTooIntricate, read_llm_call
    from kvcalc.logparse import parse_log
    deep = "[" * 199 + "]" * 199
    with pytest.raises(CallTooIntricate):
        read_llm_call(f"LLM(model='Qwen/Qwen3-8B', foo={deep})")
    call = read_llm_call("LLM(model='Qwen/Qwen3-8B', max_model_len=4096, stop=['" + "[" * 100 + "'])")
    assert call is not None
    assert not textdepth.literal_too_deep("{'a': '" + "(" * 500 + "', 'b': \"[[[\"}")
    assert textdepth.literal_too_deep("(" * (textdepth.LITERAL_MAX_DEPTH + 1))
    line = ("INFO 01-01 00:00:00 [utils.py:233] non-default args: {'model': 'Qwen/Qwen3-8B', "
            f"'max_model_len': 4096, 'junk': {deep}}}")
    parsed = parse_log(line)
    assert parsed.non_default_args.get("max_model_len") == 4096 and "junk" not in parsed.non_default_args


def test_nan_and_infinity_are_no_json_numbers():
    """Python's json reads NaN and Infinity, JSON does not: an override holding one would come back in
    a reply the page's JSON.parse refuses (found by scripts/fuzz.py, seed 489918098)."""
    with pytest.raises(ValueError, match="Infinity is not a JSON number"):
        textdepth.loads('{"factor": -Infinity}')
    for overrides in ('{"factor": NaN}', {"rope_scaling": {"factor": float("-inf")}}):
        reply = api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B", "settings": {"hf_overrides": overrides}})
        assert not reply["ok"] and set(reply["error"]["fields"]) == {"--hf-overrides"}
        json.dumps(reply, allow_nan=False)


@pytest.mark.parametrize("text", ["- " * 2000 + "1", "not " * 2000 + "True", "lambda: " * 2000 + "1",
                                  "Using " * 2000 + " True", "2" + "**2" * 2000])
def test_operator_runs_never_reach_ast(text):
    """ast's parser recurses once per token on such runs: 2,000 stopped Pyodide (scripts/fuzz.py
    --pyodide, seed 37: a logged entry of 'Using ' × 2,000). No logged literal holds them, so the
    token check refuses them first and a log line carrying one is read without it."""
    from kvcalc.logparse import parse_log
    assert not textdepth.literal_tokens_only(text)
    line = ("INFO 01-01 00:00:00 [utils.py:233] non-default args: {'model': 'Qwen/Qwen3-8B', "
            f"'max_model_len': 4096, 'junk': {text}}}")
    args = parse_log(line).non_default_args
    assert args.get("max_model_len") == 4096 and "junk" not in args


def test_literal_tokens_keep_every_literal_a_log_prints():
    for text in ("{'a': 1, 'b': [1, 2.5e-3, -4], 'c': None, 'd': (True, False), 'e': {'x': \"y\\\"z\"}}",
                 "-1", "0x1F", "'''a'b'''", "{1, 2}", "b'x'", "1_000", "'it' 's'"):
        assert textdepth.literal_tokens_only(text), text


LLM_CHAINS = ["- " * 2000 + "1", "not " * 2000 + "True", "lambda: " * 2000 + "1", "2" + "**2" * 2000,
              "1" + "+1" * 5000, "a" + ".b" * 5000, "~" * 3000 + "1", "f" + "(1)" * 3000, "f" + "[1]" * 3000,
              "a " * 2000]


@pytest.mark.parametrize("chain", LLM_CHAINS, ids=lambda chain: repr(chain[:8]))
def test_an_llm_call_with_a_long_chain_is_refused_before_ast_reads_it(chain):
    """Each of these, inside an LLM(...) call whose brackets never nest, stopped Pyodide under a 500 KB
    stack (scripts/pyodide_handle.mjs): ast's parser recurses once per step of the chain. The call is
    refused with a message that says why, in CPython as in the page."""
    from kvcalc.llmcall import CallTooIntricate, read_llm_call
    text = f"llm = LLM('Qwen/Qwen3-8B', max_model_len={chain})"
    assert textdepth.expression_too_long(text[text.index("("):])
    with pytest.raises(CallTooIntricate):
        read_llm_call(text)
    reply = json.loads(api.handle_json(json.dumps({"op": "read_command", "text": text})))
    assert not reply["ok"] and "too intricate to read safely" in reply["error"]["fields"]["command"]


def test_the_step_count_stops_exactly_at_its_limit_and_spares_real_calls():
    """Names, operators and calls on a value count one step each; literals, separators and brackets that
    open a new value count none. A real call, however long its literal lists, reads as before."""
    limit = textdepth.EXPRESSION_MAX_STEPS
    assert not textdepth.expression_too_long("(x=" + "-" * (limit - 1) + "1)")     # x, then limit - 1 signs
    assert textdepth.expression_too_long("(x=" + "-" * limit + "1)")
    assert not textdepth.expression_too_long("(x=f" + "(1)" * (limit - 2) + ")")   # x, f, then the calls
    assert textdepth.expression_too_long("(x=f" + "(1)" * (limit - 1) + ")")
    assert not textdepth.expression_too_long("(a='" + "-" * 1000 + "', b=[" + "1.5, " * 5000 + "], c=None)")
    commented = "(\n" + "    # don't let a long comment's words count as names\n" * 40 + "\n    max_model_len=4096)"
    assert not textdepth.expression_too_long(commented)    # comments are skipped like whitespace
    from kvcalc.llmcall import read_llm_call
    sizes = list(range(1, 1025))
    call = read_llm_call(f"LLM('Qwen/Qwen3-8B', max_model_len=32 * 1024, enforce_eager=True, "
                         f"compilation_config={{'cudagraph_capture_sizes': {sizes}}}, dtype=torch.bfloat16)")
    assert call.kwargs["max_model_len"] == 32768 and call.kwargs["compilation_config"]["cudagraph_capture_sizes"] == sizes
    assert call.unread == ("dtype",)


def test_closing_brackets_in_a_comment_or_out_of_turn_hide_no_nesting():
    """A comment full of ')' once lowered the count below zero, so a 199-deep value after it (which
    stops ast's parser in Pyodide) passed as shallow: comments are skipped and the count never drops
    below zero, in a pasted call as in JSON."""
    from kvcalc.llmcall import CallTooIntricate, read_llm_call
    hidden = "LLM('Qwen/Qwen3-8B',\n    # " + ")" * 300 + "\n    foo=" + "[" * 199 + "]" * 199 + ")"
    with pytest.raises(CallTooIntricate):
        read_llm_call(hidden)
    assert textdepth.too_deep("]" * 300 + "[" * (textdepth.MAX_DEPTH + 1))
    call = read_llm_call("LLM(\n    'Qwen/Qwen3-8B',  # (see the notes [1\n    max_model_len=[[4096]][0][0],\n)")
    assert call is not None and call.model == "Qwen/Qwen3-8B"
