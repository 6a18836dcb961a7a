"""Core sentences reach Chinese readers: every message has both languages with the same fields,
every error the core raises is given a Text with a known key (tests/textscan.py), and what the
page shows from a reply is in its ``zh`` map."""

from __future__ import annotations

import ast
import copy
import importlib
import re
from pathlib import Path
from string import Formatter

import pytest

from kvcalc import api
from kvcalc.catalog import find_model
from kvcalc.errors import CatalogError, ConfigError, SettingsError, UnsupportedModelError
from kvcalc.messages import MESSAGES, Text, Translated, join_texts, template_fields, translations

from textscan import check_source

SRC = Path(__file__).resolve().parents[1] / "src" / "kvcalc"
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_both_languages_take_the_same_fields(key):
    en, zh = MESSAGES[key]
    assert template_fields(en) == template_fields(zh), key
    assert en.strip() and zh.strip()
    words = "".join(literal for literal, *_ in Formatter().parse(en))
    if re.search(r"[a-z]{3,} [a-z]{3,}", words):   # a sentence, not only fields and identifiers
        assert CJK.search(zh), f"{key}: the Chinese is not Chinese: {zh!r}"


def test_every_message_is_used():
    """No dead entries: each key is named somewhere in the core (or registered by a table)."""
    literals = set()
    for path in SRC.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                literals.add(node.value)
    unused = [k for k in MESSAGES if k not in literals and not k.startswith("rule.")]
    assert not unused


SCAN_EXEMPT = {
    "__main__": "no messages",
    "cli": "the CLI's own messages (bad JSON in a flag, an unreadable --config file) are English only",
    "errors": "the mechanism: ConfigError and SettingsError wrap the Text they are given",
    "messages": "the mechanism itself",
}
SCAN_MINIMUM = {"api": 15, "hf_config": 45, "hub": 5, "kvspecs": 5, "settings": 1, "versions": 4}
"""Error constructions each module must still have, so a scan that finds nothing fails."""


@pytest.mark.parametrize("name", sorted(p.stem for p in SRC.glob("*.py") if p.stem not in SCAN_EXEMPT))
def test_core_errors_and_texts_pass_the_scan(name):
    """Every error the core raises is given a Text, every Text names a message key with exactly
    its fields, and no parameter is an assembled string (tests/textscan.py)."""
    module = importlib.import_module(f"kvcalc.{name}")
    problems, checked = check_source((SRC / f"{name}.py").read_text(encoding="utf-8"), vars(module),
                                     MESSAGES, dynamic_prefixes=("rule.",))
    assert problems == []
    assert checked >= SCAN_MINIMUM.get(name, 0)


def test_the_scan_catches_plain_strings():
    namespace = {"ConfigError": ConfigError, "CatalogError": CatalogError, "SettingsError": SettingsError,
                 "UnsupportedModelError": UnsupportedModelError}
    bad = '''
REASONS = {"a": "plain words"}
def f(x, problem):
    raise ConfigError("field", f"must be {x}")
def g():
    msg = "plain"
    raise CatalogError(msg)
def h():
    raise SettingsError({"--flag": "plain"})
def i(problem):
    raise ConfigError("field", problem)
def j(key):
    raise UnsupportedModelError(REASONS[key])
def k(x):
    raise ConfigError("field", Text("config.whole_number", got=x))
def m():
    raise ConfigError("field", Text("config.nope"))
def n(key):
    raise UnsupportedModelError(Text("model.unsupported", what=f"{key} things", model_type=key))
def o(key):
    raise UnsupportedModelError(Text("model.unsupported", what=REASONS[key], model_type=key))
def p(v):
    msg = Text("config.missing")
    if v:
        msg = "plain"
    raise ConfigError("field", msg)
'''
    problems, checked = check_source(bad, namespace, MESSAGES)
    assert checked == 10
    assert len(problems) == 10, problems
    good = '''
REASONS = {"a": Text("model.reason.encoder_only")}
def f(x, flag):
    hint = Text("catalog.gpu_suggestions", names=x) if x else Text("catalog.gpu_list_hint")
    raise CatalogError(Text("catalog.unknown_gpu", query=repr(x), hint=hint))
def g(key):
    raise UnsupportedModelError(Text("model.unsupported", what=REASONS[key], model_type=repr(key)))
def h(x):
    raise SettingsError({"--kv-cache-dtype": Text("dtype.mla_only")})
'''
    assert check_source(good, namespace, MESSAGES) == ([], 3)


def test_text_is_the_english_string_and_renders_chinese():
    t = Text("settings.between", lo=1, hi=1024, value=4096)
    assert t == "must be between 1 and 1,024, got 4,096" and isinstance(t, str)
    assert t.render("zh") == "须在 1 到 1,024 之间，收到的是 4,096"
    nested = Text("tp.sizes_that_work", problem=Text("tp.heads", heads=14, tp=4), sizes="1, 2")
    assert nested.render("zh").startswith("模型的 14 个注意力头")
    assert translations({"a": [nested], "b": ("x",)}) == {str(nested): nested.render("zh")}


def test_joined_causes_stay_translatable():
    parts = [Text("cause.kv_dtype", kv="fp8"), Text("cause.gpu_total", theirs=79.19, ours=79.11)]
    joined = join_texts(parts)
    assert joined == "; ".join(parts)
    assert joined.render("zh") == "；".join(p.render("zh") for p in parts)


def test_data_sentences_carry_their_own_chinese():
    t = Translated("release unknown", "版本不明")
    assert t == "release unknown" and t.render("zh") == "版本不明"
    assert translations([t]) == {"release unknown": "版本不明"}


# ------------------------------------------------------------------ what the page shows

def _shown(result: dict) -> list[str]:
    """The core sentences the page puts on screen from an estimate."""
    out = list(result["notes"]) + [result["settings"]["block_size_reason"]]
    if result.get("budget_note"):
        out.append(result["budget_note"])
    for term in (result.get("budget") or {}).get("terms", []):
        out.append(term["basis"])
    return out


SCENARIOS = [
    ("Qwen/Qwen3-8B", {}),
    ("Qwen/Qwen3-8B", {"kv_cache_memory_bytes": 8 << 30}),
    ("deepseek-ai/DeepSeek-V3.2", {"tensor_parallel_size": 8}),
    ("deepseek-ai/DeepSeek-V3", {"tensor_parallel_size": 8, "speculative": {"method": "mtp", "num_speculative_tokens": 1}}),
    ("meta-llama/Llama-4-Scout-17B-16E-Instruct", {"tensor_parallel_size": 4}),
    ("ibm-granite/granite-4.0-h-tiny", {}),
    ("Qwen/Qwen3-Next-80B-A3B-Instruct", {"tensor_parallel_size": 2}),
    ("google/gemma-4-E2B-it", {"speculative": {"method": "mtp", "num_speculative_tokens": 2}}),
    ("meta-llama/Llama-3.1-8B-Instruct", {"speculative": {"method": "eagle", "num_speculative_tokens": 3}}),
    ("meta-llama/Llama-3.1-8B-Instruct", {"vllm_version": "0.12.0", "pipeline_parallel_size": 2}),
    ("meta-llama/Llama-3.1-70B-Instruct", {}),
]


@pytest.mark.parametrize("model,settings", SCENARIOS, ids=lambda v: v if isinstance(v, str) else "")
def test_estimate_sentences_are_translated(model, settings):
    reply = api.handle({"op": "estimate", "model": model, "gpu": "h100", "settings": settings})
    assert reply["ok"], reply
    shown = _shown(reply["result"])
    missing = [s for s in shown if s not in reply["zh"]]
    assert not missing
    assert all(CJK.search(reply["zh"][s]) for s in shown)


@pytest.mark.parametrize("settings", [
    {"gpu_memory_utilization": 1.5}, {"tensor_parallel_size": 3}, {"tensor_parallel_size": "x"},
    {"vllm_version": "0.5.0"}, {"vllm_version": "banana"}, {"block_size": 7},
    {"max_num_seqs": 100, "max_num_batched_tokens": 50}, {"kv_cache_dtype": "fp7"},
    {"max_model_len": 10**7}, {"enforce_eager": "yes"}, {"entrypoint": "grpc"},
    {"speculative": {"method": "lookahead"}}, {"weights": "int3"}, {"pipeline_parallel_size": 64},
    {"nonsense": 1}, {"decode_context_parallel_size": 3, "tensor_parallel_size": 4},
])
def test_field_errors_are_translated(settings):
    reply = api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B", "gpu": "h100", "settings": settings})
    assert reply["ok"] is False
    fields = reply["error"]["fields"]
    assert fields and all(msg in reply["zh"] and CJK.search(reply["zh"][msg]) for msg in fields.values()), reply


def test_config_errors_and_request_errors_are_translated():
    cfg = copy.deepcopy(find_model("Qwen/Qwen3-8B").config)
    cfg["num_attention_heads"] = "many"
    for req in ({"op": "estimate", "config": cfg, "gpu": "h100"},
                {"op": "estimate", "model": "nobody/nothing", "gpu": "h100"},
                {"op": "estimate", "model": "Qwen/Qwen3-8B", "gpu": 5},
                {"op": "frobnicate"}, {"op": "compare_log", "text": "hello"}):
        reply = api.handle(req)
        assert reply["ok"] is False
        assert reply["error"]["message"] in reply["zh"] or all(
            m in reply["zh"] for m in reply["error"]["fields"].values()), reply


def test_rules_table_is_translated():
    reply = api.handle({"op": "catalog"})
    for rule in reply["result"]["rules"]:
        assert CJK.search(reply["zh"][rule["what"]]) and CJK.search(reply["zh"][rule["basis"]])


def test_validation_skips_are_translated():
    reply = api.handle({"op": "validate"})
    reasons = [r.get("skipped") or r.get("estimated_skipped") for r in reply["result"]["rows"]]
    reasons = [r for r in reasons if r]
    assert reasons and all(r in reply["zh"] for r in reasons)


def test_compare_causes_are_translated():
    log = ("INFO 10-01 [gpu_worker.py:104] Model loading took 20.00 GiB and 3.1 seconds\n"
           "INFO 10-01 [gpu_worker.py:276] Available KV cache memory: 40.00 GiB\n"
           "INFO 10-01 [kv_cache_utils.py:1087] GPU KV cache size: 291,248 tokens\n")
    reply = api.handle({"op": "compare_log", "text": log, "model": "Qwen/Qwen3-8B", "gpu": "h100",
                        "settings": {"max_model_len": 32768, "vllm_version": "0.14.0"}})
    assert reply["ok"], reply
    causes = reply["result"]["causes"]
    assert causes and all(c in reply["zh"] for c in causes)
    cells = [r["cause"] for r in reply["result"]["rows"] if r.get("cause")]
    assert cells and all(c in reply["zh"] for c in cells)
