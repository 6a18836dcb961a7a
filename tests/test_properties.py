"""Property-based tests (hypothesis) on random valid configs and settings.

vLLM rules checked: ``num_blocks = available // page // group_size`` grows with memory
(kv_cache_utils.get_num_blocks); an fp8 page is half a bf16 page, so it never holds fewer
tokens; nothing but the documented ``KvcalcError`` family escapes the core.
"""

from hypothesis import HealthCheck, given, settings, strategies as st

from factories import llama_like
from kvcalc.catalog import find_gpu
from kvcalc.engine import calculate
from kvcalc.errors import KvcalcError
from kvcalc.settings import Settings

GIB = 1 << 30


@st.composite
def configs(draw):
    heads = draw(st.sampled_from([1, 2, 4, 8, 16, 32, 64]))
    kv = draw(st.sampled_from([h for h in (1, 2, 4, 8, 16, 32, 64) if h <= heads]))
    layers = draw(st.integers(1, 96))
    head_dim = draw(st.sampled_from([32, 64, 80, 96, 128, 256]))
    cfg = llama_like(num_hidden_layers=layers, num_attention_heads=heads, num_key_value_heads=kv,
                     head_dim=head_dim, hidden_size=heads * head_dim,
                     max_position_embeddings=draw(st.sampled_from([2048, 8192, 32768, 131072])))
    kind = draw(st.sampled_from(["dense", "all_sliding", "interleaved"]))
    if kind == "all_sliding":
        cfg.update(model_type="mistral", sliding_window=draw(st.integers(16, 8192)))
    elif kind == "interleaved":
        cfg.update(model_type="gemma2", sliding_window=draw(st.integers(16, 8192)))
    return cfg


run_settings = st.fixed_dictionaries({
    "tensor_parallel_size": st.sampled_from([1, 2, 4, 8]),
    "max_model_len": st.one_of(st.none(), st.integers(1, 200_000)),
    "max_num_batched_tokens": st.one_of(st.none(), st.integers(1, 65536)),
    "vllm_version": st.sampled_from(["0.10.0", "0.14.1", "0.20.0", "0.21.0", "0.25.1", "0.26.0", "0.33.0", "0.34.0"]),
    "block_size": st.one_of(st.none(), st.sampled_from([8, 16, 32, 64])),
})

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(cfg=configs(), s=run_settings, gib=st.floats(0.01, 200))
def test_only_documented_errors(cfg, s, gib):
    try:
        c = calculate(cfg, find_gpu("h100"), Settings(**s, kv_cache_memory_bytes=int(gib * GIB)))
    except KvcalcError:
        return
    p = c.estimated
    assert p.num_blocks >= 0 and p.tokens >= 0 and p.blocks_per_request > 0
    assert p.max_concurrency == p.num_blocks / p.blocks_per_request


@SETTINGS
@given(cfg=configs(), s=run_settings, gib=st.floats(0.5, 100), extra=st.floats(0, 50))
def test_more_memory_never_fewer_tokens(cfg, s, gib, extra):
    try:
        small = calculate(cfg, find_gpu("h100"), Settings(**s, kv_cache_memory_bytes=int(gib * GIB)))
        big = calculate(cfg, find_gpu("h100"), Settings(**s, kv_cache_memory_bytes=int((gib + extra) * GIB)))
    except KvcalcError:
        return
    assert big.estimated.tokens >= small.estimated.tokens
    assert big.estimated.num_blocks >= small.estimated.num_blocks


@SETTINGS
@given(cfg=configs(), s=run_settings, gib=st.floats(0.5, 100))
def test_fp8_never_fewer_tokens_than_bf16(cfg, s, gib):
    try:
        bf16 = calculate(cfg, find_gpu("h100"), Settings(**s, kv_cache_memory_bytes=int(gib * GIB)))
        fp8 = calculate(cfg, find_gpu("h100"), Settings(**s, kv_cache_dtype="fp8",
                                                         kv_cache_memory_bytes=int(gib * GIB)))
    except KvcalcError:
        return
    assert fp8.estimated.tokens >= bf16.estimated.tokens


@SETTINGS
@given(cfg=configs(), s=run_settings, util=st.floats(0.3, 1.0))
def test_estimated_budget_is_consistent(cfg, s, util):
    try:
        c = calculate(cfg, find_gpu("h100"), Settings(**s, gpu_memory_utilization=util))
    except KvcalcError:
        return
    b = c.budget
    assert b.available_low <= b.available_bytes <= b.available_high
    assert b.requested_bytes <= b.total_bytes


@settings(max_examples=300, deadline=None)
@given(seqs=st.integers(1, 4096), mnbt=st.integers(1, 131072), spec=st.integers(0, 8),
       major=st.sampled_from([8, 9, 10, 12]), v2=st.booleans(),
       release=st.sampled_from(["0.20.0", "0.26.0", "0.27.0", "0.33.0"]))
def test_capture_sizes_stay_on_vllms_grid(seqs, mnbt, spec, major, v2, release):
    """Whatever the flags, the default capture sizes are distinct, ascending, within the ceiling
    (2 × max_num_seqs × decode query length, 512 or 1,024, max_num_batched_tokens), and each full
    decode graph has a piecewise twin; more graphs never cost less."""
    from kvcalc.reserve import cuda_graph_count, cuda_graph_estimate, cudagraph_capture_sizes
    from kvcalc.versions import parse_version

    q = 1 + spec
    sizes = cudagraph_capture_sizes(parse_version(release), seqs, mnbt, q, major, v2)
    assert list(sizes) == sorted(set(sizes))
    assert all(1 <= s <= min(seqs * q * 2, 1024, mnbt) for s in sizes)
    if q > 1 and not v2:
        assert all(s % q == 0 for s in sizes)
    piecewise, full = cuda_graph_count(sizes, seqs, q)
    assert 0 <= full <= piecewise == len(sizes)
    low, typ, high = (cuda_graph_estimate(piecewise + full, v2, False)[i] for i in (1, 0, 2))
    assert low <= typ <= high
    assert cuda_graph_estimate(piecewise + full + 1, v2, False)[0] >= typ


FLAG_WORDS = st.sampled_from(["--max-model-len", "-tp", "--gpu-memory-utilization", "--speculative-config",
                              "--speculative-config.method", "--cudagraph-capture-sizes", "--enable-lora", "-q",
                              "--no-async-scheduling", "--port", "auto", "32k", "0.9", "'{\"method\":", "\\\n",
                              "VLLM_USE_V2_MODEL_RUNNER=1", "-e", "=", "--dtype", "float32", "Qwen/Qwen3-8B"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.one_of(FLAG_WORDS, st.text(max_size=12)), max_size=25),
       lead=st.sampled_from(["vllm serve ", "docker run vllm/vllm-openai:v0.20.0 ", "", "python -m "
                             "vllm.entrypoints.openai.api_server "]))
def test_a_pasted_command_is_read_or_refused_with_a_reason(words, lead):
    """Whatever is pasted, read_command answers with settings the estimate then validates, or with a
    documented error; and the estimate from what it read answers the same way."""
    from kvcalc import api
    r = api.handle({"op": "read_command", "text": lead + " ".join(words)})
    if not r["ok"]:
        assert r["error"]["fields"], r
        return
    res = r["result"]
    if res["model"] is None:
        return
    est = api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B", "gpu": "h100", "settings": res["settings"]})
    assert est["ok"] or est["error"]["fields"], est


CALL_WORDS = st.sampled_from(["model=", "'Qwen/Qwen3-8B'", "max_model_len=", "32 * 1024", "2 ** 70", "0.9", ",",
                              "(", ")", "[", "]", "{", "}", "True", "False", "None", "**kw", "#", "'", '"""', "x",
                              "gpu_memory_utilization=", "speculative_config=", "{'method': 'ngram'}", "\n", "1/0"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.one_of(CALL_WORDS, st.text(max_size=8)), max_size=25),
       lead=st.sampled_from(["llm = LLM(", "vllm.LLM(", "LLM(model='Qwen/Qwen3-8B', ", "x = AsyncLLM("]))
def test_a_pasted_llm_call_is_read_or_refused_with_a_reason(words, lead):
    """Whatever follows LLM(, the call is read from its literals (the code never runs) or refused
    with a field, and what it read is settings the estimate validates."""
    from kvcalc import api
    r = api.handle({"op": "read_command", "text": lead + " ".join(words)})
    if not r["ok"]:
        assert r["error"]["fields"], r
        return
    est = api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B", "gpu": "h100", "settings": r["result"]["settings"]})
    assert est["ok"] or est["error"]["fields"], est


SPEC_WORDS = st.sampled_from(["image: vllm/vllm-openai:v0.31.0", "command:", "args:", "env:", "environment:",
                              "- name: X", "value: '1'", "- --max-model-len", "[\"--model\", \"m\"]", ">", "|",
                              "  ", "\n", "- ", "[", "]", "'", "\"", "Qwen/Qwen3-8B", "--port=1", "K: v", "valueFrom:"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.one_of(SPEC_WORDS, st.text(max_size=6)), max_size=30))
def test_a_pasted_deployment_spec_is_read_or_refused_with_a_reason(words):
    """Whatever a Compose or Kubernetes spec holds, it reads as a command or is refused with a field."""
    from kvcalc import api
    r = api.handle({"op": "read_command", "text": "image: vllm/vllm-openai:v0.31.0\ncommand:" + " ".join(words)})
    assert r["ok"] or r["error"]["fields"], r


@SETTINGS
@given(cfg=configs(), s=run_settings, util=st.one_of(st.none(), st.floats(0.3, 1.0)),
       gpu=st.sampled_from(["h100", "l4", "mi300x", "b200"]))
def test_the_extensible_pool_stays_inside_its_reservation(cfg, s, util, gpu):
    """v0.34's extensible KV cache (extensible.py): the blocks committed after warm-up never exceed what the
    printed reservation holds, their 2 MiB-granule footprint fits the measured budget, and the band holds the
    typical pool."""
    from kvcalc import extensible, paging
    s = {**s, "vllm_version": "0.34.0", "block_size": None}
    try:
        c = calculate(cfg, find_gpu(gpu), Settings(**s, gpu_memory_utilization=util))
    except KvcalcError:
        return
    b = c.budget
    if b is None or not b.capacity_available:
        return
    assert b.available_low <= b.available_bytes <= b.available_high
    assert b.available_bytes <= min(b.capacity_available)
    p = c.estimated
    if p.fits:
        strides = extensible.segment_strides(c.grouping)
        assert p.num_blocks <= paging.num_blocks(c.grouping, min(b.capacity_available))
        assert extensible.committed_bytes(p.num_blocks, strides) <= b.available_bytes
        assert c.estimated_low.num_blocks <= p.num_blocks <= c.estimated_high.num_blocks


def _flag_groups():
    """(flag, the words vLLM's parser gives it) for flags kvcalc has no setting for, by their arity."""
    from kvcalc.vllm_flags import MANY_VALUES, OPTIONAL_VALUE, PLAIN_SWITCHES, SWITCHES
    groups = [(f,) for f in sorted(SWITCHES | PLAIN_SWITCHES)] + [(f, "x") for f in sorted(OPTIONAL_VALUE)]
    groups += [(f, "a", "b") for f in sorted(MANY_VALUES)]
    groups += [(f, "1") for f in ("--port", "--seed", "--host", "--api-server-count", "--tokenizer-mode")]
    # flags kvcalc reads, and --model, which the positional model overrides in vllm serve
    return groups + [("--max-model-len", "4096"), ("--enforce-eager",), ("--no-enforce-eager",), ("-tp", "2"),
                     ("--cudagraph-capture-sizes", "1", "2"), ("--model", "acme/other"), ("--model=acme/other",)]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(groups=st.lists(st.sampled_from(_flag_groups()), max_size=6), at=st.integers(0, 6))
def test_the_model_is_the_word_no_flag_takes(groups, at):
    """Flags with the words vLLM's parser gives them, and the model where no flag takes it (after a flag
    that takes every word up to the next flag, a switch ends that flag's words first): the model is read,
    and every other word belongs to a flag; with --model too, vLLM (from v0.11.1) moves its value to the
    front and stops at the word."""
    from kvcalc.commandline import read_command, serve_value_words
    at = min(at, len(groups))
    before = [w for g in groups[:at] for w in g]
    if at and serve_value_words(groups[at - 1][0]) is None:
        before.append("--trust-remote-code")
    words = [*before, "Qwen/Qwen3-8B", *(w for g in groups[at:] for w in g)]
    read = read_command("vllm serve " + " ".join(words))
    twice = any(g[0].startswith("--model") for g in groups)     # vLLM moves --model's value to the front
    assert read["model"] == ("acme/other" if twice else "Qwen/Qwen3-8B"), words
    assert any("unrecognized arguments: Qwen/Qwen3-8B" in str(f) for f in read["fails"]) == twice, words
    assert read["unknown"] == [], words
