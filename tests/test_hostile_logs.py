"""Hostile pastes: ``parse_log`` never raises, never hangs, and returns plain JSON-safe data.

Times are not asserted here (``scripts/fuzz.py`` prints them); each case runs under a
deadline far above the linear cost, so a parser that goes quadratic on a hostile line fails
instead of hanging the suite.
"""

from __future__ import annotations

import json
import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kvcalc.logparse import ParsedLog, parse_log
from kvcalc.validate import load_logs

from factories import deadline

EXCERPTS = [e["excerpt"] for e in load_logs() if e.get("excerpt")]
REAL = "\n".join(EXCERPTS)


def _plain(value, path="log"):
    """Only JSON types, string keys, finite numbers: nothing the page could execute or choke on."""
    if isinstance(value, float):
        assert math.isfinite(value), path
    elif isinstance(value, dict):
        for k, v in value.items():
            assert isinstance(k, str), f"{path} key {k!r}"
            _plain(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _plain(v, f"{path}[{i}]")
    else:
        assert value is None or isinstance(value, (bool, int, str)), f"{path}: {type(value).__name__}"


def parse(text, seconds: int = 30) -> ParsedLog:
    with deadline(seconds, "parse"):
        log = parse_log(text)
        d = log.to_dict()
    assert isinstance(log, ParsedLog)
    _plain(d)
    json.dumps(d, allow_nan=False)
    if isinstance(text, str):
        assert log.lines_used <= log.lines_total <= len(text.splitlines())
    for n in (log.gpu_kv_cache_tokens, log.num_gpu_blocks, log.max_model_len, log.concurrency_len):
        assert n is None or 0 <= n < 10**16
    return log


# --------------------------------------------------------------------------- random input


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(max_size=3000))
def test_random_unicode(text):
    parse(text)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.binary(max_size=3000), st.sampled_from(["utf-8", "latin-1", "utf-16"]))
def test_random_bytes_decoded(data, encoding):
    parse(data.decode(encoding, errors="replace"))


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(EXCERPTS), st.data())
def test_real_excerpts_cut_spliced_and_corrupted(excerpt, data):
    text = excerpt
    for _ in range(data.draw(st.integers(0, 4))):
        i = data.draw(st.integers(0, len(text)))
        op = data.draw(st.sampled_from(["cut", "insert", "dup", "crlf"]))
        if op == "cut":
            text = text[:i]
        elif op == "insert":
            text = text[:i] + data.draw(st.text(max_size=40)) + text[i:]
        elif op == "dup":
            text = text[:i] + text[i:i + 200] * data.draw(st.integers(1, 50)) + text[i:]
        else:
            text = text.replace("\n", "\r\n")
    parse(text)


def test_not_text():
    for value in (None, b"GPU KV cache size: 5 tokens", 5, ["a"], {"a": 1}):
        assert parse_log(value).lines_total == 0


# --------------------------------------------------------------------------- formats


def test_crlf_and_cr_give_the_same_facts():
    for excerpt in EXCERPTS:
        plain = parse(excerpt).to_dict()
        assert parse(excerpt.replace("\n", "\r\n")).to_dict() == plain
        assert parse(excerpt.replace("\n", "\r")).to_dict() == plain


def test_truncated_lines_never_invent_numbers():
    line = ("(EngineCore pid=1) INFO 10-06 17:00:33 [kv_cache_utils.py:2464] GPU KV cache size: "
            "460,496 tokens, Maximum concurrency for 131,072 tokens per request: 3.51x")
    for i in range(len(line) + 1):
        log = parse(line[:i])
        assert log.gpu_kv_cache_tokens in (None, 460_496) or str(log.gpu_kv_cache_tokens) in line[:i].replace(",", "")
        assert log.max_concurrency in (None, 3.51) or log.max_concurrency < 3.51 + 1e-9


def test_mixed_versions_in_one_paste():
    text = "\n".join(EXCERPTS)
    log = parse(text)
    first = parse(next(e for e in EXCERPTS if parse_log(e).vllm_version)).vllm_version
    assert log.vllm_version == first   # the first version line wins; later ones do not mix in
    assert log.gpu_kv_cache_tokens is not None


def test_numbers_out_of_range_are_ignored_not_infinite():
    log = parse("\n".join([
        "Available KV cache memory: " + "9" * 400 + " GiB",
        "GPU KV cache size: " + "9" * 5000 + " tokens",
        "Using max model len " + "7" * 5000,
        "Maximum concurrency for 1" + "0" * 40 + " tokens per request: 1e999x",
        "num_gpu_blocks is: " + "1" * 10_000,
        "Model loading took 1" + "0" * 20 + " GiB",
    ]))
    assert log.available_kv_cache_gib == [] and log.gpu_kv_cache_tokens is None
    assert log.max_model_len is None and log.num_gpu_blocks is None
    assert log.model_loading_gib == [] and log.max_concurrency is None


def test_non_default_args_come_back_as_plain_json():
    log = parse("non-default args: {'model': 'm', (1, 2): 3, 'a_set': {1, 2}, 'b': b'x', "
                "'c': 1e999, 'd': (1, 2), 'e': {'f': [1, None, 'g']}, 'h': ...}")
    assert log.non_default_args["model"] == "m"
    assert log.non_default_args["d"] == [1, 2]
    assert log.non_default_args["e"] == {"f": [1, None, "g"]}
    assert not {"a_set", "b", "c", "h"} & set(log.non_default_args)
    log = parse("non-default args: {'model': 'm', 'n': 10**5, 'k': __import__('os')}")
    assert log.non_default_args == {"model": "m"}      # not a literal: only the plain pairs
    log = parse("non-default args: {'model': 'm', 'x': [" * 300)
    assert log.non_default_args == {}


@pytest.mark.parametrize("payload", ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>",
                                     "\"><svg onload=alert(1)>", "javascript:alert(1)"])
def test_injected_markup_is_returned_as_inert_text(payload):
    log = parse("\n".join([
        f"vLLM API server version 0.11.0{payload}",
        f"non-default args: {{'model': '{payload}', 'kv_cache_dtype': '{payload}'}}",
        f"Using {payload} backend",
        f"INFO [core.py:1] Initializing a V1 LLM engine (v0.11.0) with config: model='{payload}', "
        f"tensor_parallel_size=1, kv_cache_dtype={payload}",
        f"ValueError: No available memory for the cache blocks. {payload}",
    ]))
    assert log.model == payload and isinstance(log.model, str)
    assert log.non_default_args["kv_cache_dtype"] == payload
    assert log.settings()["kv_cache_dtype"] == payload       # data for the page to escape, no more
    assert isinstance(log.vllm_version, str) and log.vllm_version.startswith("0.11.0")
    d = log.to_dict()
    assert json.loads(json.dumps(d))["model"] == payload


# --------------------------------------------------------------------------- size


QUADRATIC_BEFORE = [  # each of these lines cost O(n²) per line before the parser was bounded
    "with config: " + "a" * 19_990,
    "Free memory on device (1/2 GiB) on startup. Desired GPU memory utilization is (0.9, 1 GiB)"
    + "1" * 19_900,
    "backend " + "Using " * 3_300,
    "Graph capturing finished " + "in " * 6_600,
    "non-default args: " + "{" * 19_000,
    "Maximum concurrency for " + "1" * 19_000,
]


@pytest.mark.parametrize("line", QUADRATIC_BEFORE, ids=lambda s: s[:24])
def test_adversarial_lines_stay_linear(line):
    # 2 MB of the line; before the fix one of these took minutes.
    log = parse("\n".join([line] * 100), seconds=30)
    assert log.lines_total == 100


def test_one_megabyte_line():
    log = parse("GPU KV cache size: 1,024 tokens " + "x" * 1_000_000 + "\nAvailable KV cache memory: 3.5 GiB")
    assert log.gpu_kv_cache_tokens == 1024 and log.available_kv_cache_gib == [3.5]
    parse("\n".join(random.Random(7).choice("ab ,.:()[]{}'\"=\x1b") * 1_000_000 for _ in range(2)))


@pytest.mark.parametrize("megabytes", [1, 10, 50])
def test_large_pastes_complete(megabytes):
    text = (REAL + "\n") * (megabytes * 1_000_000 // (len(REAL) + 1) + 1)
    log = parse(text, seconds=120)
    assert log.gpu_kv_cache_tokens is not None and log.lines_total > megabytes * 5_000


def test_invalid_escapes_in_pasted_args_warn_nothing():
    """Found by the hypothesis run: ast.literal_eval warned about '\\8' inside a pasted dict."""
    import warnings
    line = "INFO 08-22 20:19:51 [api_utils.py:273] non-default args: {'model': 'a\\8b', 'max_model_len': 2048}"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        log = parse(line)
    assert [str(w.message) for w in caught] == []
    assert log.non_default_args == {"model": "a\\8b", "max_model_len": 2048}
