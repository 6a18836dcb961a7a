"""The profile-pass and cache settings on the page (VLLM_USE_FLASHINFER_SAMPLER,
--skip-mm-profiling, --language-model-only, --enable-prefix-caching): each
control reaches the core, moves the activation term by what the core says, and lands in the
link, the serve command and both languages."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from kvcalc.reserve import FLASHINFER_WORKSPACE_BYTES, UMA_HOST_GIB
from kvcalc.units import GIB
from pagekit import (advanced_result, assert_numbers_match, choose_setting, expect_in_both_languages, fresh_form,
                     link_restores, open_advanced, oracle, page_request, set_form, wait_request)

pytestmark = pytest.mark.browser


def sampler_request(chosen: bool, **settings):
    """page_request with the sampler set: the page sends the key only when the user set it."""
    want = page_request(**settings)
    want["settings"]["flashinfer_sampler"] = chosen
    return want


def type_and_compute(page, testid: str, text: str, **settings) -> tuple[dict, dict]:
    """Type into a field; the page sends page_request(**settings) and shows the core's numbers:
    (that request, its result)."""
    page.get_by_test_id(testid).fill(text)
    want = page_request(**settings)
    wait_request(page, want)
    result = oracle(want)["result"]
    assert_numbers_match(page, result)
    return want, result


def activation(result) -> dict:
    return next(t for t in result["budget"]["terms"] if t["name"] == "activation peak")


def test_the_sampler_select_changes_the_estimate(py_page):
    page = py_page
    fresh_form(page)
    open_advanced(page)
    page.get_by_test_id("vllm-version").select_option("0.15.0")
    wait_request(page, page_request(vllm_version="0.15.0"))
    unset = oracle(page_request(vllm_version="0.15.0"))["result"]
    page.get_by_test_id("flashinfer-sampler").select_option("1")
    want = sampler_request(True, vllm_version="0.15.0")
    wait_request(page, want)
    chosen = oracle(want)["result"]
    assert_numbers_match(page, chosen)
    # H100, 1,024 sequences × 151,936 entries: FlashInfer's kernels (14 B) need GiBs less than the
    # sort (38.5 B): 2.03 against 5.58 GiB
    assert activation(chosen)["gib"] < activation(unset)["gib"] - 3.5
    assert chosen["estimated"]["tokens"] > unset["estimated"]["tokens"]
    sampler = page.get_by_test_id("settings-used").locator("div").filter(has_text="sampler of the warm-up")
    expect(sampler.locator("dd")).to_have_text("FlashInfer top-k/top-p kernels")
    expect(page.get_by_test_id("serve-command")).to_have_text(re.compile(r"^VLLM_USE_FLASHINFER_SAMPLER=1 vllm serve"))
    link_restores(page, "fis", "1", "flashinfer-sampler", "1", want)
    # back to unset: the key leaves the request again
    open_advanced(page)
    page.get_by_test_id("flashinfer-sampler").select_option("")
    wait_request(page, page_request(vllm_version="0.15.0"))
    fresh_form(page)


def cuda_graphs_gib(result) -> float:
    return next(t for t in result["budget"]["terms"] if t["name"] == "CUDA graphs")["gib"]


def env_variable_round_trip(page, assignment: str, param: str, testid: str, want: dict,
                            too_old: tuple[str, str, str]) -> None:
    """An environment-variable select set to ``assignment`` (NAME=value): the serve command starts
    with it, the settings-used list shows it, the link (``param``) restores it; then, on the
    release ``too_old[0]``, picking ``too_old[1]`` shows the core's "needs vLLM ``too_old[2]``"
    beside the select in both languages. Ends on a fresh form."""
    value = assignment.split("=", 1)[1]
    expect(page.get_by_test_id("serve-command")).to_have_text(re.compile("^" + re.escape(assignment) + " vllm serve"))
    expect(page.get_by_test_id("settings-used")).to_contain_text(assignment.split("=", 1)[0])
    link_restores(page, param, value, testid, value, want)
    open_advanced(page)
    release, option, since = too_old
    page.get_by_test_id("vllm-version").select_option(release)
    page.get_by_test_id(testid).select_option(option)
    expect_in_both_languages(page, page.locator(f"#{testid}-msg"), f"needs vLLM {since}", f"需要 vLLM {since}")
    fresh_form(page)


def test_the_cuda_graph_profiler_select_sets_the_cuda_graph_term(py_page):
    """VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0 (Advanced): vLLM 0.25 subtracts no CUDA-graph
    estimate for a MoE model, the pool grows by that term, the serve command carries the
    variable, the settings-used list shows it and the link restores it; 1 on v0.17 (before the
    variable existed) gets the core's message beside the select, in both languages."""
    page = py_page
    off, on, want = choose_setting(page, "cg-profiling", "0", "cudagraph_memory_profiling", False,
                                   model="Qwen/Qwen3-30B-A3B", vllm_version="0.25.0")
    assert cuda_graphs_gib(on) > 0.3 and cuda_graphs_gib(off) == 0
    assert off["estimated"]["tokens"] > on["estimated"]["tokens"]
    env_variable_round_trip(page, "VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0", "cgp", "cg-profiling", want,
                            too_old=("0.17.0", "1", "0.18.0"))


def test_allowing_a_long_max_model_len_sizes_the_length_asked(py_page):
    """A --max-model-len past the model's own is refused beside the field, naming
    VLLM_ALLOW_LONG_MAX_MODEL_LEN=1; choosing it (Advanced) sizes the length asked, with a note, the
    serve command carries the variable, the settings-used list shows it and the link restores it."""
    page = py_page
    fresh_form(page)
    open_advanced(page)
    set_form(page, max_model_len=131072)     # refused: the message beside the field, no result
    expect(page.locator("#max-model-len-msg")).to_contain_text("VLLM_ALLOW_LONG_MAX_MODEL_LEN=1")
    page.get_by_test_id("allow-long").select_option("1")
    want = page_request(max_model_len=131072)
    want["settings"]["allow_long_max_model_len"] = True
    wait_request(page, want)
    assert_numbers_match(page, oracle(want)["result"])
    expect(page.get_by_test_id("notes")).to_contain_text("past the model's 40,960 tokens")
    expect(page.get_by_test_id("serve-command")).to_have_text(
        re.compile(r"^VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve"))
    expect(page.get_by_test_id("settings-used")).to_contain_text("VLLM_ALLOW_LONG_MAX_MODEL_LEN")
    link_restores(page, "al", "1", "allow-long", "1", want)
    fresh_form(page)


def check_a_switch(page, testid: str, setting: str, url_key: str, flag: str, note: str, **form) -> None:
    """Tick an Advanced checkbox on a form set to ``form``: the page sends ``setting`` true and shows
    the core's numbers and ``note``, the serve command carries ``flag`` and the link (``url_key=1``)
    restores the tick."""
    fresh_form(page)
    open_advanced(page)
    wait_request(page, set_form(page, **form))
    page.get_by_test_id(testid).check()
    want = page_request(**form)
    want["settings"][setting] = True
    wait_request(page, want)
    assert_numbers_match(page, oracle(want)["result"])
    expect(page.get_by_test_id("notes")).to_contain_text(note)
    expect(page.get_by_test_id("serve-command")).to_contain_text(flag)
    expect(page).to_have_url(re.compile(rf"[?&]{url_key}=1(&|$)"))
    page.goto(page.url)
    expect(page.get_by_test_id(testid)).to_be_checked()
    wait_request(page, want)
    fresh_form(page)


def test_disabling_the_sliding_window_makes_gemma_3_full_attention(py_page):
    """--disable-sliding-window (Advanced): Gemma 3's sliding layers become full ones and the context
    is capped at its 1,024-token window; the serve command carries the flag and the link restores it."""
    check_a_switch(py_page, "disable-sliding-window", "disable_sliding_window", "dsw", "--disable-sliding-window",
                   "sliding window (1,024 tokens)", model="google/gemma-3-27b-it", max_model_len=1024)


def test_expert_parallelism_places_whole_experts_on_each_gpu(py_page):
    """--enable-expert-parallel (Advanced): over two GPUs Qwen3-30B-A3B's experts are placed whole
    (64 of 128 on the first GPU); the note says so, the serve command carries the flag and the link
    restores it."""
    check_a_switch(py_page, "expert-parallel", "enable_expert_parallel", "xp", "--enable-expert-parallel",
                   "64 of the 128", model="Qwen/Qwen3-30B-A3B", tensor_parallel_size=2, max_model_len=8192)


def test_turning_custom_all_reduce_off_prices_nccl_inside_the_graphs(py_page):
    """--disable-custom-all-reduce (Advanced): two H100 SXM GPUs keep vLLM's custom all-reduce, so
    with the flag NCCL runs the all-reduces inside the CUDA graphs, which then cost more: the graph
    term grows, the pool shrinks, the terms say why, the serve command carries the flag and the link
    restores the tick."""
    page = py_page
    form = {"model": "Qwen/Qwen3-32B", "tensor_parallel_size": 2}
    fresh_form(page)
    open_advanced(page)
    base = set_form(page, **form)
    wait_request(page, base)
    page.get_by_test_id("no-custom-ar").check()
    want = page_request(**form)
    want["settings"]["disable_custom_all_reduce"] = True
    wait_request(page, want)
    on, off = oracle(want)["result"], oracle(base)["result"]
    assert_numbers_match(page, on)
    assert cuda_graphs_gib(on) > cuda_graphs_gib(off) + 0.5 and on["estimated"]["tokens"] < off["estimated"]["tokens"]
    expect(page.locator("#terms")).to_contain_text("--disable-custom-all-reduce")
    expect(page.get_by_test_id("serve-command")).to_contain_text("--disable-custom-all-reduce")
    expect(page).to_have_url(re.compile(r"[?&]ncar=1(&|$)"))
    page.goto(page.url)
    expect(page.get_by_test_id("no-custom-ar")).to_be_checked()
    wait_request(page, want)
    fresh_form(page)


def test_the_gpus_peer_to_peer_select_sets_the_all_reduce_terms(py_page):
    """GPU peer-to-peer (Advanced): two H100 SXM GPUs said to have none keep no NCCL buffer per peer
    and run NCCL inside the CUDA graphs, so the graph term grows; the settings-used list names the
    choice, the serve command stays the same (no vLLM flag says it) and the link restores it."""
    page = py_page
    off, usual, want = choose_setting(page, "peer-to-peer", "0", "peer_to_peer", False,
                                      model="Qwen/Qwen3-32B", tensor_parallel_size=2)
    assert cuda_graphs_gib(off) > cuda_graphs_gib(usual) + 0.5
    expect(page.locator("#terms")).to_contain_text("as set")
    expect(page.get_by_test_id("settings-used")).to_contain_text("GPU peer-to-peer")
    expect(page.get_by_test_id("serve-command")).not_to_contain_text("peer")
    link_restores(page, "p2p", "0", "peer-to-peer", "0", want)
    fresh_form(page)


def test_a_nixl_connector_is_sized_as_the_pool_without_it(py_page):
    """--kv-transfer-config (Advanced, KV connector): NixlConnector keeps no GPU buffer of its own, so
    Qwen3-8B's pool on vLLM 0.33 is the same with it (v0.34 turns its extensible cache off for NIXL:
    test_kv_connector.py); the note says why, the command and the link carry it, and a
    model with sliding-window layers gets the reason beside the field."""
    page = py_page
    on, off, want = choose_setting(page, "kv-connector", "NixlConnector", "kv_connector", "NixlConnector",
                                   max_model_len=8192, vllm_version="0.33.0")
    assert on["estimated"]["tokens"] == off["estimated"]["tokens"]
    expect(page.get_by_test_id("notes")).to_contain_text("--kv-transfer-config NixlConnector")
    expect(page.get_by_test_id("serve-command")).to_contain_text('--kv-transfer-config \'{"kv_connector":"NixlConnector"')
    link_restores(page, "kvc", "NixlConnector", "kv-connector", "NixlConnector", want)
    set_form(page, model="google/gemma-3-27b-it")
    expect(page.locator("#kv-connector-msg")).to_contain_text("hybrid KV cache manager")
    fresh_form(page)


def test_the_model_runner_select_keeps_gemma_3_on_v1(py_page):
    """VLLM_USE_V2_MODEL_RUNNER=0 (Advanced): vLLM 0.26 runs Gemma 3 on model runner V2, which
    subtracts no CUDA-graph estimate; forcing the V1 runner brings that term back and shrinks the
    pool, the serve command carries the variable, the settings-used list names the runner and the
    link restores it; 1 on v0.11 (before the variable existed) gets the core's message, in both
    languages."""
    page = py_page
    v1, auto, want = choose_setting(page, "model-runner", "0", "model_runner_v2", False,
                                    model="google/gemma-3-12b-it", vllm_version="0.26.0")
    assert auto["layout"]["model_runner_v2"] and not v1["layout"]["model_runner_v2"]
    assert cuda_graphs_gib(auto) == 0 < cuda_graphs_gib(v1) and v1["estimated"]["tokens"] < auto["estimated"]["tokens"]
    env_variable_round_trip(page, "VLLM_USE_V2_MODEL_RUNNER=0", "mr", "model-runner", want,
                            too_old=("0.11.0", "1", "0.12.0"))


def test_the_rocm_quick_reduce_select_adds_its_buffer_where_it_starts(py_page):
    """VLLM_ROCM_QUICK_REDUCE_QUANTIZATION=INT4 (Advanced) on two MI355X GPUs: the non-torch term
    grows by quick all-reduce's 4 GiB buffer, the serve command and the settings-used list carry
    the variable, the link restores it; on an H100 it starts nothing and the notes say so, in
    both languages."""
    page = py_page
    on, off, want = choose_setting(page, "rocm-quick-reduce", "INT4", "rocm_quick_reduce", "INT4",
                                   model="Qwen/Qwen3-32B", gpu="mi355x", tensor_parallel_size=2)
    nt = lambda r: next(t for t in r["budget"]["terms"] if t["name"] == "non-torch memory")  # noqa: E731
    assert round(nt(on)["gib"] - nt(off)["gib"], 2) == 4.0 and "quick all-reduce" in nt(on)["basis"]
    expect(page.get_by_test_id("serve-command")).to_have_text(
        re.compile(r"^VLLM_ROCM_QUICK_REDUCE_QUANTIZATION=INT4 vllm serve"))
    expect(page.get_by_test_id("settings-used")).to_contain_text("VLLM_ROCM_QUICK_REDUCE_QUANTIZATION")
    link_restores(page, "qr", "INT4", "rocm-quick-reduce", "INT4", want)
    page.get_by_test_id("gpu-select").select_option("h100-sxm")
    expect_in_both_languages(page, page.get_by_test_id("notes"), "changes nothing here", "不起作用")
    fresh_form(page)


def test_the_mxfp4_kernel_select_sizes_gpt_oss_experts_in_marlins_layout(py_page):
    """MXFP4 expert kernels: Marlin (Advanced) on two H200s with vLLM 0.22: gpt-oss-120b's
    weights per GPU grow by Marlin's padding (1,440 expert columns to 1,536), the weights basis
    says so in both languages, the serve command carries VLLM_MXFP4_USE_MARLIN=1, and the link
    restores the choice."""
    page = py_page
    on, off, want = choose_setting(page, "mxfp4-marlin", "1", "mxfp4_marlin", True,
                                   model="openai/gpt-oss-120b", gpu="h200", tensor_parallel_size=2,
                                   vllm_version="0.22.0", max_model_len=8192)
    w = lambda r: r["budget"]["terms"][0]  # noqa: E731
    assert w(on)["gib"] - w(off)["gib"] > 1.2 and "Marlin" in w(on)["basis"]
    expect(page.get_by_test_id("serve-command")).to_have_text(re.compile(r"^VLLM_MXFP4_USE_MARLIN=1 vllm serve"))
    expect_in_both_languages(page, page.get_by_test_id("weights-basis"),
                             "MXFP4 experts on Marlin kernels", "MXFP4 专家层走 Marlin 内核")
    expect(page.get_by_test_id("settings-used")).to_contain_text("MXFP4 expert kernels")
    link_restores(page, "mx", "1", "mxfp4-marlin", "1", want)
    fresh_form(page)


def test_the_performance_mode_select_doubles_the_batch_defaults(py_page):
    """--performance-mode throughput (v0.17+) on an L40S with vLLM 0.22: the batch defaults double
    (4,096 tokens, 512 sequences), the warm-up's activation term grows, the serve command and the
    settings-used list carry the flag, the link restores it; on v0.16 the core's "needs vLLM
    0.17.0" shows beside the select, in both languages."""
    page = py_page
    on, off, want = choose_setting(page, "performance-mode", "throughput", "performance_mode", "throughput",
                                   model="Qwen/Qwen2.5-7B-Instruct", gpu="l40s", vllm_version="0.22.0",
                                   max_model_len=8192)
    assert (on["settings"]["max_num_batched_tokens"], on["settings"]["max_num_seqs"]) == \
        (2 * off["settings"]["max_num_batched_tokens"], 2 * off["settings"]["max_num_seqs"])
    assert activation(on)["gib"] > activation(off)["gib"]
    expect(page.get_by_test_id("serve-command")).to_contain_text("--performance-mode throughput")
    expect(page.get_by_test_id("settings-used")).to_contain_text("--performance-mode")
    link_restores(page, "perf", "throughput", "performance-mode", "throughput", want)
    open_advanced(page)
    page.get_by_test_id("vllm-version").select_option("0.16.0")
    page.get_by_test_id("performance-mode").select_option("interactivity")
    expect_in_both_languages(page, page.locator("#performance-mode-msg"), "needs vLLM 0.17.0", "需要 vLLM 0.17.0")
    fresh_form(page)


def test_pinned_memory_off_puts_the_token_ids_in_gpu_memory(py_page):
    """Pinned host memory off (WSL2) on model runner V2: every request's token ids move to GPU
    memory, max_num_seqs × max_model_len × 4 B inside the non-torch term; the settings-used list
    says so and the link restores it."""
    page = py_page
    on, off, want = choose_setting(page, "pinned-memory", "0", "pinned_memory", False,
                                   model="Qwen/Qwen3-8B", gpu="rtx-4090", max_model_len=40960)
    nt = lambda r: next(t for t in r["budget"]["terms"] if t["name"] == "non-torch memory")  # noqa: E731
    seqs = on["settings"]["max_num_seqs"]
    assert round((nt(on)["bytes"] - nt(off)["bytes"]) / (seqs * 40960 * 4), 6) == 1.0
    assert "without pinned host memory (WSL2)" in nt(on)["basis"]
    expect(page.get_by_test_id("settings-used")).to_contain_text("Pinned host memory")
    link_restores(page, "pm", "0", "pinned-memory", "0", want)
    fresh_form(page)


def test_before_v0_30_pinned_memory_off_sizes_the_v1_runner_and_refuses_v2(py_page):
    """Under WSL2 before v0.30 model runner V2 cannot start (UVA): with pinned memory off the page
    shows the V1 runner's figures, a note in both languages and VLLM_USE_V2_MODEL_RUNNER=0 in the
    command; asking for V2 as well puts the reason beside the pinned-memory field."""
    page = py_page
    fresh_form(page)
    open_advanced(page)
    base = set_form(page, model="Qwen/Qwen3-8B", gpu="rtx-4090", vllm_version="0.29.0", max_model_len=8192)
    wait_request(page, base)
    page.get_by_test_id("pinned-memory").select_option("0")
    want = page_request(model="Qwen/Qwen3-8B", gpu="rtx-4090", vllm_version="0.29.0", max_model_len=8192)
    want["settings"]["pinned_memory"] = False
    wait_request(page, want)
    result = oracle(want)["result"]
    assert result["settings"]["model_runner_v2"] is False
    assert_numbers_match(page, result)
    expect(page.get_by_test_id("serve-command")).to_have_text(re.compile(r"^VLLM_USE_V2_MODEL_RUNNER=0 vllm serve"))
    expect_in_both_languages(page, page.get_by_test_id("notes"), "UVA is not available", "UVA is not available")
    expect_in_both_languages(page, page.get_by_test_id("notes"), "sized for the V1 runner", "按 V1 runner 估算")
    page.get_by_test_id("model-runner").select_option("1")
    msg = page.locator("#pinned-memory-msg")
    expect_in_both_languages(page, msg, "VLLM_WSL2_ENABLE_PIN_MEMORY=1", "无法启动 model runner V2")
    fresh_form(page)


def test_the_cudagraph_mode_select_sets_the_graphs_vllm_counts(py_page):
    """The compilation config's cudagraph_mode: NONE captures no graph, so the CUDA-graph term is 0
    and the pool grows by what it held; the command spells the compilation config and the link
    restores the select; an unsupported release puts its reason beside the field."""
    page = py_page
    on, off, want = choose_setting(page, "cg-mode", "NONE", "cudagraph_mode", "NONE",
                                   model="Qwen/Qwen3-8B", max_model_len=8192)
    graphs = lambda r: next(t for t in r["budget"]["terms"] if t["name"] == "CUDA graphs")  # noqa: E731
    assert graphs(on)["bytes"] == 0 < graphs(off)["bytes"]
    assert on["estimated"]["tokens"] > off["estimated"]["tokens"]
    expect(page.get_by_test_id("serve-command")).to_contain_text("""--compilation-config '{"cudagraph_mode":"NONE"}'""")
    link_restores(page, "cgm", "NONE", "cg-mode", "NONE", want)
    page.get_by_test_id("vllm-version").select_option("0.10.0")
    expect_in_both_languages(page, page.locator("#cg-mode-msg"), "needs vLLM 0.10.1", "需要 vLLM 0.10.1")
    fresh_form(page)


def test_a_pasted_log_that_turns_the_cuda_graph_profiler_off_sets_the_select(py_page):
    """The B200 Kimi-K2.5 log warns 'CUDA graph memory profiling is disabled
    (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0)': pasting it sets the select to 0. Its model is a
    local path the catalog lacks, so the form's model (Kimi-K2-Thinking, the same text model and
    context) stands in, as it would for a user."""
    page = py_page
    fresh_form(page)
    page.get_by_test_id("model-select").select_option("moonshotai/Kimi-K2-Thinking")
    reply = paste_stored_log(page, "b200x8-kimi-k2.5-nvfp4-tp8-seqs16-fp8kv-nocgprofile-v0.22.0",
                             "CUDA graph memory profiling is disabled", fresh=False)
    assert reply["result"]["settings"]["cudagraph_memory_profiling"] is False
    assert "model" in reply["result"]["filled_from_form"]
    expect(page.get_by_test_id("cg-profiling")).to_have_value("0")
    clear_pasted_log(page)


def test_a_pasted_log_names_the_runner_it_ran(py_page):
    """A v0.27.1 RTX 4090 start of Qwen3-8B prints 'Using V2 Model Runner': pasting it sets the
    runner select to V2, which is also that release's choice, so the serve command stays plain."""
    page = py_page
    reply = paste_stored_log(page, "rtx4090-runpod-qwen3-8b-maxlen8k-warm-v0.27.1", "Using V2 Model Runner")
    assert reply["result"]["settings"]["model_runner_v2"] is True
    expect(page.get_by_test_id("model-runner")).to_have_value("1")
    expect(page.get_by_test_id("serve-command")).to_have_text(re.compile(r"^vllm serve"))
    clear_pasted_log(page)


@pytest.mark.parametrize("testid,chinese,first_english", [
    ("flashinfer-sampler", ("排序", "默认"), "unset (the release's default)"),
    ("cg-profiling", ("扣除", "默认"), "unset (the release's default: on from v0.20)"),
    ("model-runner", ("该版本", "runner"), "unset (the release's choice for this model)"),
    ("compile-cache", ("首次启动", "重启"), "not known (a first start is assumed)"),
])
def test_the_profile_selects_speak_chinese(py_page, testid, chinese, first_english):
    """The sampler and compile-cache selects switch language with the page (and the first-start
    term in the reserve list with them)."""
    page = py_page
    fresh_form(page)
    open_advanced(page)
    page.get_by_test_id("lang-toggle").click()
    options = page.get_by_test_id(testid).locator("option").all_inner_texts()
    assert all(any(word in o for o in options) for word in chinese), options
    expect(page.get_by_test_id("reserve-list")).to_contain_text("首次启动编译")
    page.get_by_test_id("lang-toggle").click()
    expect(page.get_by_test_id(testid).locator("option").first).to_have_text(first_english)


def paste_stored_log(page, log_id: str, shows: str, fresh: bool = True) -> dict:
    """Paste a stored public log's excerpt (which must contain ``shows``) and compare it: the reply
    (on a fresh form unless ``fresh`` is False)."""
    from kvcalc.validate import load_logs  # noqa: PLC0415
    if fresh:
        fresh_form(page)
    entry = next(e for e in load_logs() if e["id"] == log_id)
    assert shows in entry["excerpt"]
    n = int(page.evaluate("() => document.body.dataset.compared || '0'"))
    page.get_by_test_id("log-paste").fill(entry["excerpt"])
    page.get_by_test_id("log-compare").click()
    page.wait_for_selector(f'body[data-compared="{n + 1}"]', state="attached", timeout=60_000)
    reply = page.evaluate("() => window.__kvcalc.lastCompare")["reply"]
    assert reply["ok"], reply
    return reply


def clear_pasted_log(page) -> None:
    page.get_by_test_id("reset").click()
    page.get_by_test_id("log-paste").fill("")


def test_a_pasted_log_that_names_its_sampler_sets_the_select(py_page):
    """The A100 gpt-oss-120b log prints 'Using FlashInfer for top-p & top-k sampling': pasting it
    sets the select to 1 and the comparison is computed with FlashInfer's sampler."""
    page = py_page
    reply = paste_stored_log(page, "a100-80g-gpt-oss-120b-tp4-raynodes-v0.10.1.1",
                             "Using FlashInfer for top-p & top-k sampling")
    assert reply["result"]["settings"]["flashinfer_sampler"] is True
    expect(page.get_by_test_id("flashinfer-sampler")).to_have_value("1")
    clear_pasted_log(page)


def tick_tower_checkbox(page, testid: str, key: str) -> tuple[dict, dict]:
    """Qwen3.5-27B with 8 sequences (a small sampler warm-up, so the vision tower's pass over the
    largest image sets the activation peak, above the 8,192-token pass), then the checkbox:
    (result with it, result without it), the page showing the first."""
    fresh_form(page)
    page.get_by_test_id("model-select").select_option("Qwen/Qwen3.5-27B")
    open_advanced(page)
    page.get_by_test_id("max-num-seqs").fill("8")
    base = page_request(model="Qwen/Qwen3.5-27B", max_num_seqs=8)
    wait_request(page, base)
    page.get_by_test_id(testid).check()
    want = page_request(model="Qwen/Qwen3.5-27B", max_num_seqs=8)
    want["settings"][key] = True
    wait_request(page, want)
    ticked, plain = oracle(want)["result"], oracle(base)["result"]
    assert_numbers_match(page, ticked)
    assert activation(plain)["gib"] > activation(ticked)["gib"] + 0.1
    assert "vision tower" in activation(plain)["basis"]
    return ticked, plain


def test_skip_mm_profiling_drops_the_vision_tower_pass(py_page):
    """--skip-mm-profiling: the activation term falls back to the language model's."""
    page = py_page
    tick_tower_checkbox(page, "skip-mm-profiling", "skip_mm_profiling")
    expect(page.get_by_test_id("serve-command")).to_have_text(re.compile(r"--skip-mm-profiling$"))
    expect(page).to_have_url(re.compile(r"[?&]smp=1(&|$)"))
    fresh_form(page)


def weights(result) -> dict:
    return next(t for t in result["budget"]["terms"] if t["name"] == "weights")


def test_language_model_only_drops_the_towers_weights_and_pass(py_page):
    """--language-model-only: the vision tower is neither loaded (the weights term falls by the
    tower) nor profiled (the activation term falls back to the language model's); on a release
    before 0.17 the checkbox gets the core's message beside it, in both languages."""
    page = py_page
    text_only, full = tick_tower_checkbox(page, "language-model-only", "language_model_only")
    assert weights(full)["gib"] > weights(text_only)["gib"] + 0.5
    expect(page.get_by_test_id("serve-command")).to_have_text(re.compile(r"--language-model-only$"))
    expect(page).to_have_url(re.compile(r"[?&]lmo=1(&|$)"))
    page.get_by_test_id("vllm-version").select_option("0.16.0")
    expect_in_both_languages(page, page.locator("#language-model-only-msg"), "0.17.0", "需要 vLLM 0.17.0")
    fresh_form(page)


def test_prefix_caching_select_sets_the_state_blocks_of_a_hybrid(py_page):
    """Qwen3-Next on v0.19: prefix caching was opt-in for hybrids, so each of its 3 state groups
    keeps 1 block per request; choosing "on" adds one per group (the 'align' mode), and the
    serve command spells the flag out."""
    page = py_page
    on, default, want = choose_setting(page, "prefix-caching", "1", "enable_prefix_caching", True,
                                       model="Qwen/Qwen3-Next-80B-A3B-Instruct", vllm_version="0.19.0")
    assert on["estimated"]["blocks_per_request"] == default["estimated"]["blocks_per_request"] + 3
    assert on["settings"]["enable_prefix_caching"] and not default["settings"]["enable_prefix_caching"]
    expect(page.get_by_test_id("serve-command")).to_contain_text("--enable-prefix-caching")
    expect(page.get_by_test_id("settings-used")).to_contain_text("on")
    expect(page).to_have_url(re.compile(r"[?&]pc=1(&|$)"))
    fresh_form(page)


def test_each_reserve_term_says_what_it_rests_on(py_page):
    """Under each reserve term the page prints the core's basis: the CUDA-graph line counts the
    graphs the default capture sizes give (51 piecewise + 51 full at 1,024 sequences on an H100),
    in Chinese too; the first-start compile line says a first start was assumed; v0.34's extensible
    cache adds the start-up memory and its margin."""
    page = py_page
    fresh_form(page)
    result = oracle(page_request())["result"]
    graphs = next(t for t in result["budget"]["terms"] if t["name"] == "CUDA graphs")
    assert "51 piecewise + 51 full graphs" in graphs["basis"]
    items = page.get_by_test_id("reserve-list").locator("li")
    cold = next(t for t in result["budget"]["terms"] if t["name"] == "first-start compile")
    expect(items).to_have_count(6)
    expect(items.nth(5).locator("small.basis")).to_contain_text("max(1 GiB, 0.75 × the largest transient peak")
    expect(items.nth(2).locator("small.basis")).to_have_text(graphs["basis"])
    expect(items.nth(3).locator("small.basis")).to_have_text(cold["basis"])
    expect(items.nth(3).locator("small.basis")).to_contain_text("assumed a first start")
    page.get_by_test_id("lang-toggle").click()
    expect(items.nth(2).locator("small.basis")).to_contain_text("51 个 piecewise + 51 个 full graph")
    expect(items.nth(3).locator("small.basis")).to_contain_text("按首次启动估算")
    expect(items.nth(5).locator("small.basis")).to_contain_text("0.75 × 最大的瞬时峰值")
    page.get_by_test_id("lang-toggle").click()
    expect(items.nth(2).locator("small.basis")).to_have_text(graphs["basis"])


def test_an_mla_model_shows_the_sizing_warm_up_step_it_keeps_free(py_page):
    """DeepSeek-V2-Lite at 64 sequences on v0.34: the warm-up's prefill over a cached prefix (65,536 tokens
    up-projected, 0.88 GiB) outgrows the 64-row sampler's peak, so the reserve list shows the part beyond it,
    named and explained in both languages, and the pool is the core's."""
    page = py_page
    result = advanced_result(page, model="deepseek-ai/DeepSeek-V2-Lite", max_num_seqs=64)
    step = next(t for t in result["budget"]["terms"] if t["name"] == "sizing warm-up")
    assert step["gib"] > 0
    row = page.get_by_test_id("reserve-list").locator("li", has_text="sizing warm-up step (beyond")
    expect(row.locator("small.basis")).to_have_text(step["basis"])
    expect(row.locator("small.basis")).to_contain_text("65,536 cached tokens")
    page.get_by_test_id("lang-toggle").click()
    row = page.get_by_test_id("reserve-list").locator("li", has_text="容量测定预热步骤（超出")
    expect(row.locator("small.basis")).to_contain_text("65,536 个已缓存 token")
    page.get_by_test_id("lang-toggle").click()
    fresh_form(page)


def test_capture_sizes_set_the_cuda_graph_term(py_page):
    """--cudagraph-capture-sizes typed as text reaches the core, which counts 4 piecewise + 4 full
    graphs instead of the default list; a malformed list gets the core's message beside the field,
    and the last numbers stay."""
    page = py_page
    fresh_form(page)
    open_advanced(page)
    page.get_by_test_id("cg-sizes").fill("8 4 2 1")
    want = page_request(cudagraph_capture_sizes="8 4 2 1")
    wait_request(page, want)
    result = oracle(want)["result"]
    assert_numbers_match(page, result)
    graphs = next(t for t in result["budget"]["terms"] if t["name"] == "CUDA graphs")
    assert "4 piecewise + 4 full graphs (capture sizes up to 8)" in graphs["basis"]
    expect(page.get_by_test_id("serve-command")).to_have_text(re.compile(r"--cudagraph-capture-sizes 1 2 4 8$"))
    expect(page.locator("#settings-used")).to_contain_text("--cudagraph-capture-sizes1 2 4 8")
    expect(page).to_have_url(re.compile(r"[?&]cgs=8\+4\+2\+1(&|$)"))
    page.get_by_test_id("cg-sizes").fill("1 x")
    expect(page.locator("#cg-sizes-msg")).to_contain_text("whole numbers")
    expect(page.get_by_test_id("error")).to_contain_text("last good result stays")
    expect(page.get_by_test_id("serve-command")).to_have_text(result["serve_command"])
    fresh_form(page)


def test_limit_mm_per_prompt_chooses_what_the_tower_warms_up(py_page):
    """--limit-mm-per-prompt typed as JSON reaches the core: Qwen2.5-VL-7B at 32,768 tokens of
    context warms up a 4-frame video; with videos at 0 one image, and the pool grows. The flag
    lands in the serve command, the settings used and the link; a modality vLLM does not count
    gets the core's message beside the field in both languages, and the last numbers stay."""
    page = py_page
    fresh_form(page)
    page.get_by_test_id("model-select").select_option("Qwen/Qwen2.5-VL-7B-Instruct")
    wait_request(page, page_request(model="Qwen/Qwen2.5-VL-7B-Instruct"))
    video = oracle(page_request(model="Qwen/Qwen2.5-VL-7B-Instruct"))["result"]
    assert "1 video(s) of 32,768 tokens" in activation(video)["basis"]
    open_advanced(page)
    want, image = type_and_compute(page, "mm-limits", '{"video": 0}', model="Qwen/Qwen2.5-VL-7B-Instruct",
                                   limit_mm_per_prompt='{"video": 0}')
    assert "1 image(s) of 16,384 tokens" in activation(image)["basis"]
    assert image["estimated"]["tokens"] > video["estimated"]["tokens"]
    expect(page.get_by_test_id("serve-command")).to_have_text(
        re.compile(r"""--limit-mm-per-prompt '\{"video":0\}'$"""))
    expect(page.locator("#settings-used")).to_contain_text('--limit-mm-per-prompt{"video":0}')
    link_restores(page, "mmlim", r"%7B%22video%22%3A(\+|%20)?0%7D", "mm-limits", '{"video": 0}', want)
    open_advanced(page)
    page.get_by_test_id("mm-limits").fill("vision=1")
    expect(page.get_by_test_id("error")).to_contain_text("last good result stays")
    expect_in_both_languages(page, page.locator("#mm-limits-msg"), "image=2,video=0", "每个提示的条数")
    fresh_form(page)


def test_mm_processor_kwargs_resize_the_largest_image(py_page):
    """--mm-processor-kwargs typed as JSON reaches the core: max_pixels 1,003,520 cuts Qwen2.5-VL's
    warm-up video to 14 frames of 1,280 tokens; unmodelled keys get a note; a malformed value gets
    the core's message beside the field."""
    page = py_page
    fresh_form(page)
    page.get_by_test_id("model-select").select_option("Qwen/Qwen2.5-VL-7B-Instruct")
    open_advanced(page)
    typed = '{"max_pixels": 1003520, "fps": 2}'
    _, result = type_and_compute(page, "mm-proc", typed, model="Qwen/Qwen2.5-VL-7B-Instruct",
                                 mm_processor_kwargs=typed)
    assert "1 video(s) of 8,960 tokens" in activation(result)["basis"]
    expect(page.get_by_test_id("serve-command")).to_have_text(
        re.compile(r"""--mm-processor-kwargs '\{"max_pixels":1003520,"fps":2\}'$"""))
    expect(page.get_by_test_id("notes")).to_contain_text("fps")
    page.get_by_test_id("mm-proc").fill("max_pixels=1")
    expect(page.locator("#mm-proc-msg")).to_contain_text("JSON object")
    fresh_form(page)


def test_a_pasted_log_with_multimodal_limits_fills_both_fields(py_page):
    """A log whose non-default args carry limit_mm_per_prompt and mm_processor_kwargs: pasting it
    fills the two fields with their JSON, and the comparison is computed with them."""
    page = py_page
    fresh_form(page)
    text = "\n".join([
        "(APIServer pid=1) INFO 10-06 16:59:50 [utils.py:233] non-default args: {'model': "
        "'Qwen/Qwen2.5-VL-7B-Instruct', 'max_model_len': 32768, 'limit_mm_per_prompt': {'video': 0}, "
        "'mm_processor_kwargs': {'max_pixels': 1003520}}",
        "(EngineCore_DP0 pid=300) INFO 10-06 17:00:40 [gpu_worker.py:298] Available KV cache memory: 4.5 GiB",
    ])
    n = int(page.evaluate("() => document.body.dataset.compared || '0'"))
    page.get_by_test_id("log-paste").fill(text)
    page.get_by_test_id("log-compare").click()
    page.wait_for_selector(f'body[data-compared="{n + 1}"]', state="attached", timeout=60_000)
    reply = page.evaluate("() => window.__kvcalc.lastCompare")["reply"]
    assert reply["ok"], reply
    settings = reply["result"]["settings"]
    assert settings["limit_mm_per_prompt"] == {"video": 0}
    assert settings["mm_processor_kwargs"] == {"max_pixels": 1003520}
    expect(page.get_by_test_id("mm-limits")).to_have_value('{"video":0}')
    expect(page.get_by_test_id("mm-proc")).to_have_value('{"max_pixels":1003520}')
    page.get_by_test_id("reset").click()
    page.get_by_test_id("log-paste").fill("")


def test_the_compile_cache_select_moves_the_first_start_term(py_page):
    """Unset, the page assumes a first start (v0.27+; v0.19+ for untied embeddings such as Qwen3-8B's):
    a 'first-start compile' term is subtracted
    (on an RTX 4090, whose 2,048-token warm-up peaks below the compile's temporaries; an H100's
    8,192-token pass hides them). 'warm' (a restart that reuses ~/.cache/vllm) drops it, and the
    pool grows by exactly that term; the choice lands in the link and in the settings used, and the
    link restores it."""
    page = py_page
    fresh_form(page)
    open_advanced(page)
    base = set_form(page, gpu="rtx-4090")
    wait_request(page, base)
    unset = oracle(base)["result"]
    cold_term = next(t for t in unset["budget"]["terms"] if t["name"] == "first-start compile")
    assert cold_term["gib"] > 0 and cold_term["low_gib"] == 0
    expect(page.get_by_test_id("reserve-list")).to_contain_text("first-start compile")
    page.get_by_test_id("compile-cache").select_option("warm")
    want = page_request(gpu="rtx-4090")
    want["settings"]["compile_cache"] = "warm"
    wait_request(page, want)
    warm = oracle(want)["result"]
    assert_numbers_match(page, warm)
    assert all(t["name"] != "first-start compile" for t in warm["budget"]["terms"])
    assert warm["budget"]["available_bytes"] - unset["budget"]["available_bytes"] == cold_term["bytes"]
    assert warm["estimated"]["tokens"] > unset["estimated"]["tokens"]
    used = page.get_by_test_id("settings-used").locator("div").filter(has_text="torch.compile cache")
    expect(used.locator("dd")).to_have_text("warm: restart that reuses ~/.cache/vllm")
    link_restores(page, "cc", "warm", "compile-cache", "warm", want)
    # before v0.19 a first start costs nothing more: no term, and the settings used leave it out
    fresh_form(page)
    open_advanced(page)
    page.get_by_test_id("vllm-version").select_option("0.18.0")
    wait_request(page, page_request(vllm_version="0.18.0"))
    expect(page.get_by_test_id("reserve-list")).not_to_contain_text("first-start compile")
    expect(page.get_by_test_id("settings-used")).not_to_contain_text("torch.compile cache")
    fresh_form(page)


def test_a_pasted_log_that_compiles_sets_the_compile_cache_to_cold(py_page):
    """The H200 v0.31 log that prints 'Compiling a graph for compile range (1, 8192)' is a first
    start: pasting it sets the select to cold."""
    page = py_page
    reply = paste_stored_log(page, "h200-llama32-1b-fp16-seqs32-v0.31.0", "Compiling a graph for compile range")
    assert reply["result"]["settings"]["compile_cache"] == "cold"
    expect(page.get_by_test_id("compile-cache")).to_have_value("cold")
    clear_pasted_log(page)


def test_a_pasted_throughput_mode_log_sets_the_performance_mode(py_page):
    """A v0.17 start with --performance-mode throughput ('Performance mode set to 'throughput''):
    pasting it sets the select, so the batch defaults the page uses double as vLLM's did
    (the log's 'max_num_batched_tokens=4096' on a 48 GB card, which the log does not name: the
    form's L40S stands in, as it would for a user)."""
    page = py_page
    fresh_form(page)
    page.get_by_test_id("gpu-select").select_option("l40s")
    reply = paste_stored_log(page, "l40s-class-qwen3-8b-awq-tp2-nop2p-util0.2-maxlen32k-throughputmode-warm-v0.17.0",
                             "Performance mode set to", fresh=False)
    assert reply["result"]["settings"]["performance_mode"] == "throughput"
    expect(page.get_by_test_id("performance-mode")).to_have_value("throughput")
    assert reply["result"]["calculation"]["settings"]["max_num_batched_tokens"] == 4096
    clear_pasted_log(page)


def test_a_unified_memory_gpu_lists_the_host_memory_vllm_counts(py_page):
    """A DGX Spark (GB10) shares its memory with the host, and vLLM reads free memory from the OS
    there: the page lists the 'unified memory' term the core subtracts, with its band and the
    --kv-cache-memory-bytes way around it, in both languages; a discrete GPU has no such term."""
    page = py_page
    fresh_form(page)
    want = set_form(page, gpu="gb10")
    wait_request(page, want)
    result = oracle(want)["result"]
    assert_numbers_match(page, result)
    term = next(t for t in result["budget"]["terms"] if t["name"] == "unified memory")
    assert (term["gib"], term["low_gib"], term["high_gib"]) == UMA_HOST_GIB
    reserves = page.get_by_test_id("reserve-list")
    expect(reserves).to_contain_text("--kv-cache-memory-bytes")
    expect_in_both_languages(page, reserves, "unified memory", "统一内存")
    fresh_form(page)
    expect(page.get_by_test_id("reserve-list")).not_to_contain_text("unified memory")


def test_a_hybrid_model_profiling_its_tower_at_a_large_batch_says_the_band_carries_more(py_page):
    """Qwen3.5-27B at 16,384 batched tokens with its vision tower profiled: the page's notes say
    that public starts of this kind kept 2.5-4.7 GiB more than kvcalc counts and that the band's
    low end includes it, in both languages; the band's reserve end is wider than the typical
    value by that much; --language-model-only takes the note away."""
    page = py_page
    result = advanced_result(page, model="Qwen/Qwen3.5-27B", max_num_batched_tokens=16384)
    act = activation(result)
    assert act["high_gib"] - act["gib"] >= 2.5
    notes = page.get_by_test_id("notes")
    expect_in_both_languages(page, notes, "the band's low end includes it", "区间下限已包含这部分")
    page.get_by_test_id("language-model-only").check()
    expect(notes).not_to_contain_text("the band's low end includes it")
    fresh_form(page)


def test_the_decode_context_parallel_field(py_page):
    """--decode-context-parallel-size: sent only when typed, it splits DeepSeek-V2-Lite's latent cache
    over the TP group's ranks (about twice the tokens at DCP 2), a size that does not divide the
    GPU count is named beside the field, and the URL keeps it."""
    page = py_page
    fresh_form(page)
    open_advanced(page)
    base = set_form(page, model="deepseek-ai/DeepSeek-V2-Lite", tensor_parallel_size=2)
    wait_request(page, base)
    plain = oracle(base)["result"]
    page.get_by_test_id("dcp").fill("2")
    want = page_request(model="deepseek-ai/DeepSeek-V2-Lite", tensor_parallel_size=2)
    want["settings"]["decode_context_parallel_size"] = 2
    wait_request(page, want)
    split = oracle(want)["result"]
    assert_numbers_match(page, split)
    assert split["estimated"]["tokens"] > 1.8 * plain["estimated"]["tokens"]
    expect(page.get_by_test_id("serve-command")).to_contain_text("--decode-context-parallel-size 2")
    link_restores(page, "dcp", "2", "dcp", "2", want)
    open_advanced(page)
    page.get_by_test_id("dcp").fill("3")
    expect(page.locator("#dcp-msg")).to_contain_text("--decode-context-parallel-size")
    page.get_by_test_id("dcp").fill("")
    fresh_form(page)


def sent_and_shown(page, key: str, value, model: str = "google/gemma-3-12b-it") -> tuple[dict, dict]:
    """The request with setting ``key`` = ``value`` (on vLLM 0.30) the page should now send, once
    it has, and CPython's result for it, which the page shows."""
    want = page_request(model=model, vllm_version="0.30.0")
    want["settings"][key] = value
    wait_request(page, want)
    result = oracle(want)["result"]
    assert_numbers_match(page, result)
    return want, result


def test_the_kv_cache_bytes_async_mamba_and_hybrid_manager_fields(py_page):
    """--kv-cache-memory-bytes (vLLM's 8G form, read by the core), --num-gpu-blocks-override,
    --cpu-offload-gb, --async-scheduling, --mamba-ssm-cache-dtype and --disable-hybrid-kv-cache-manager: each sent only when set, each
    changing what the core says it changes, and the link keeps them."""
    page = py_page
    fresh_form(page)
    open_advanced(page)
    base = set_form(page, model="google/gemma-3-12b-it", vllm_version="0.30.0")
    wait_request(page, base)
    plain = oracle(base)["result"]
    page.get_by_test_id("kv-bytes").fill("8G")
    _, fixed = sent_and_shown(page, "kv_cache_memory_bytes", "8G")
    assert fixed["estimated"]["available_bytes"] == 8 << 30 and fixed["budget"] is None
    expect(page.get_by_test_id("serve-command")).to_contain_text("--kv-cache-memory-bytes 8589934592")
    page.get_by_test_id("kv-bytes").fill("8.5G")
    expect(page.locator("#kv-bytes-msg")).to_contain_text("8.5g for x 1000")
    page.get_by_test_id("kv-bytes").fill("")
    wait_request(page, base)
    # a fixed block count: the pool whatever the memory
    page.get_by_test_id("num-blocks").fill("1000")
    _, fixed = sent_and_shown(page, "num_gpu_blocks_override", 1000)
    assert fixed["estimated"]["num_blocks"] == 1000
    expect(page.get_by_test_id("serve-command")).to_contain_text("--num-gpu-blocks-override 1000")
    expect(page.get_by_test_id("log-lines")).to_contain_text("with num_gpu_blocks_override=1000")
    page.get_by_test_id("num-blocks").fill("")
    wait_request(page, base)
    # 4 GiB of layer weights in host memory: 4 GiB more cache
    page.get_by_test_id("cpu-offload").fill("4")
    _, offloaded = sent_and_shown(page, "cpu_offload_gb", 4)
    assert offloaded["estimated"]["available_bytes"] - plain["estimated"]["available_bytes"] == 4 << 30
    expect(page.get_by_test_id("serve-command")).to_contain_text("--cpu-offload-gb 4")
    page.get_by_test_id("cpu-offload").fill("")
    wait_request(page, base)
    # without the hybrid manager every sliding-window layer keeps the whole context: fewer tokens
    page.get_by_test_id("disable-hybrid").check()
    _, flat = sent_and_shown(page, "disable_hybrid_kv_cache_manager", True)
    assert flat["layout"]["grouping"] != plain["layout"]["grouping"] and \
        flat["estimated"]["tokens"] != plain["estimated"]["tokens"]
    expect(page.get_by_test_id("serve-command")).to_contain_text("--disable-hybrid-kv-cache-manager")
    page.get_by_test_id("disable-hybrid").uncheck()
    wait_request(page, base)
    # async scheduling off: the sliding-window layers keep blocks for one batch in flight fewer
    page.get_by_test_id("async-scheduling").select_option("0")
    want, sync = sent_and_shown(page, "async_scheduling", False)
    assert sync["layout"]["in_flight_tokens"] < plain["layout"]["in_flight_tokens"]
    expect(page.get_by_test_id("serve-command")).to_contain_text("--no-async-scheduling")
    link_restores(page, "asy", "0", "async-scheduling", "0", want)
    fresh_form(page)
    open_advanced(page)
    # a hybrid's Mamba state in float32 is larger than in the model's bfloat16
    granite = "ibm-granite/granite-4.0-h-tiny"
    base = set_form(page, model=granite, vllm_version="0.30.0")
    wait_request(page, base)
    page.get_by_test_id("mamba-ssm-dtype").select_option("float32")
    _, wide = sent_and_shown(page, "mamba_ssm_cache_dtype", "float32", model=granite)
    assert wide["layout"]["mamba_state_bytes"] > oracle(base)["result"]["layout"]["mamba_state_bytes"]
    expect(page.get_by_test_id("serve-command")).to_contain_text("--mamba-ssm-cache-dtype float32")
    fresh_form(page)


def test_max_model_len_auto_fits_the_length_to_the_pool(py_page):
    """auto in the length field: the core fits the length to the pool, the settings list says which
    length and from what, the log lines carry vLLM's Auto-fit line, the link keeps it; 32k reads as
    32,000 as in vLLM."""
    page = py_page
    fresh_form(page)
    want = set_form(page, model="Qwen/Qwen3-8B", gpu="a10", max_model_len="auto")
    wait_request(page, want)
    res = oracle(want)["result"]
    assert_numbers_match(page, res)
    fitted = res["estimated"]["max_model_len"]
    assert res["settings"]["max_model_len_auto"] and fitted < res["settings"]["max_model_len"]
    expect(page.get_by_test_id("settings-used")).to_contain_text(f"auto: {fitted:,}")
    expect(page.get_by_test_id("conc-cap")).to_have_text(f"maximum concurrency at the {fitted:,} tokens auto fitted")
    # v0.34 fits twice: a tentative length from the reservation, then the final one after warm-up
    expect(page.get_by_test_id("log-lines")).to_contain_text("the final length is set after CUDA graph capture")
    expect(page.get_by_test_id("log-lines")).to_contain_text(f" to {fitted} (")
    expect(page.get_by_test_id("serve-command")).to_contain_text("--max-model-len auto")
    link_restores(page, "mml", "auto", "max-model-len", "auto", want)
    want = set_form(page, model="Qwen/Qwen3-8B", gpu="a10", max_model_len="32k")
    wait_request(page, want)
    expect(page.get_by_test_id("serve-command")).to_contain_text("--max-model-len 32000")
    set_form(page, model="Qwen/Qwen3-8B", gpu="a10", max_model_len="auto", vllm_version="0.13.0")
    expect(page.locator("#max-model-len-msg")).to_contain_text("needs vLLM 0.14.0")
    fresh_form(page)


def test_the_attention_backend_select_forces_a_backend(py_page):
    """--attention-backend: forcing FlashInfer on an A100 (vLLM picks FlashAttention there) adds
    FlashInfer's workspace, which v0.34's warm-up allocates before the extensible cache measures, to the
    graph term, the command spells the flag, the link restores the select, and a GPU vLLM refuses the
    backend on puts the reason beside the field."""
    page = py_page
    on, off, want = choose_setting(page, "attn-backend", "FLASHINFER", "attention_backend", "FLASHINFER",
                                   gpu="a100-80g-sxm", max_model_len=8192)
    assert cuda_graphs_gib(on) == pytest.approx(cuda_graphs_gib(off) + FLASHINFER_WORKSPACE_BYTES / GIB, abs=0.01)
    assert on["estimated"]["tokens"] < off["estimated"]["tokens"]
    expect(page.get_by_test_id("serve-command")).to_contain_text("--attention-backend FLASHINFER")
    link_restores(page, "ab", "FLASHINFER", "attn-backend", "FLASHINFER", want)
    page.get_by_test_id("gpu-select").select_option("t4")
    expect_in_both_languages(page, page.locator("#attn-backend-msg"), "takes 8.0 to 12.1", "只支持 8.0 到 12.1")
    fresh_form(page)


def test_the_optimization_level_select_sizes_the_level(py_page):
    """-O0 compiles and captures nothing: no CUDA-graph term, the pool of --enforce-eager, the command
    spells -O0 and the link restores it; a release that reads -O as a compilation level says why."""
    page = py_page
    on, off, want = choose_setting(page, "opt-level", "0", "optimization_level", 0,
                                   model="Qwen/Qwen3-8B", max_model_len=8192)
    assert cuda_graphs_gib(on) == 0 < cuda_graphs_gib(off)
    assert on["estimated"]["tokens"] > off["estimated"]["tokens"]
    expect(page.get_by_test_id("serve-command")).to_contain_text("-O0")
    link_restores(page, "ol", "0", "opt-level", "0", want)
    page.get_by_test_id("vllm-version").select_option("0.11.0")
    expect_in_both_languages(page, page.locator("#opt-level-msg"), "reads -O0 as a compilation level",
                             "当作编译级别")
    fresh_form(page)


def test_the_chunked_prefill_select_batches_whole_prompts(py_page):
    """Chunked prefill off: a step holds a whole prompt, so max_num_batched_tokens becomes the length
    (8,192 here) and the warm-up grows; the command says --no-enable-chunked-prefill."""
    page = py_page
    on, off, want = choose_setting(page, "chunked-prefill", "0", "enable_chunked_prefill", False,
                                   model="Qwen/Qwen3-8B", max_model_len=32768)
    assert on["settings"]["max_num_batched_tokens"] == 32768 > off["settings"]["max_num_batched_tokens"]
    assert on["estimated"]["tokens"] < off["estimated"]["tokens"]
    expect(page.get_by_test_id("serve-command")).to_contain_text("--no-enable-chunked-prefill")
    link_restores(page, "cp", "0", "chunked-prefill", "0", want)
    fresh_form(page)


def test_the_extensible_cache_select_sizes_the_pool_as_before_v034(py_page):
    """--no-enable-extensible-kv-cache (Advanced): vLLM 0.34 then sizes the pool from the profile's
    estimate at 0.92, as v0.33 did, without the start-up memory and margin terms; the command spells
    the flag and the link restores it; on v0.33, which has no such flag, the core's message stands
    beside the select in both languages."""
    page = py_page
    off, on, want = choose_setting(page, "extensible-kv", "0", "enable_extensible_kv_cache", False,
                                   model="Qwen/Qwen3-8B", max_model_len=32768)
    assert on["settings"]["gpu_memory_utilization"] == 1.0 and off["settings"]["gpu_memory_utilization"] == 0.92
    names = {t["name"] for t in on["budget"]["terms"]} - {t["name"] for t in off["budget"]["terms"]}
    assert names == {"start-up memory", "extensible margin"}
    assert off["estimated"]["tokens"] < on["estimated"]["tokens"]
    expect(page.get_by_test_id("serve-command")).to_contain_text("--no-enable-extensible-kv-cache")
    expect(page.get_by_test_id("log-lines")).not_to_contain_text("Extended KV cache")
    link_restores(page, "xkv", "0", "extensible-kv", "0", want)
    open_advanced(page)
    page.get_by_test_id("vllm-version").select_option("0.33.0")
    expect_in_both_languages(page, page.locator("#extensible-kv-msg"), "needs vLLM 0.34.0", "0.34.0")
    fresh_form(page)


def test_hf_overrides_reach_the_config_and_name_a_bad_value(py_page):
    """--hf-overrides: a longer max_position_embeddings lets a longer --max-model-len through, the
    command spells the overrides, and text that is no JSON object is named beside the field."""
    page = py_page
    fresh_form(page)
    open_advanced(page)
    set_form(page, model="Qwen/Qwen3-8B", max_model_len=65536)
    expect(page.locator("#max-model-len-msg")).to_contain_text("exceeds the model's maximum")
    page.get_by_test_id("hf-overrides").fill('{"max_position_embeddings": 131072}')
    want = page_request(max_model_len=65536)
    want["settings"]["hf_overrides"] = '{"max_position_embeddings": 131072}'
    wait_request(page, want)
    assert_numbers_match(page, oracle(want)["result"])
    expect(page.get_by_test_id("serve-command")).to_contain_text("""--hf-overrides '{"max_position_embeddings":131072}'""")
    page.get_by_test_id("hf-overrides").fill("[1]")
    expect_in_both_languages(page, page.locator("#hf-overrides-msg"), "must be a JSON object", "须为")
    fresh_form(page)


def test_data_parallel_engines_keep_one_engines_figures(py_page):
    """--data-parallel-size: the pool is one engine's, a note says how many there are in all, and a
    MoE model puts the reason beside the field in both languages."""
    page = py_page
    fresh_form(page)
    open_advanced(page)
    base = set_form(page, model="Qwen/Qwen3-8B", max_model_len=8192)
    wait_request(page, base)
    page.get_by_test_id("dp-size").fill("2")
    want = page_request(max_model_len=8192)
    want["settings"]["data_parallel_size"] = 2
    wait_request(page, want)
    got = oracle(want)["result"]
    assert got["estimated"]["tokens"] == oracle(base)["result"]["estimated"]["tokens"]
    assert_numbers_match(page, got)
    expect(page.get_by_test_id("serve-command")).to_contain_text("--data-parallel-size 2")
    set_form(page, model="Qwen/Qwen3-30B-A3B")
    expect_in_both_languages(page, page.locator("#dp-size-msg"), "spreads a MoE model's experts", "MoE")
    fresh_form(page)


def test_kimi_linear_from_the_catalog_pads_its_kda_state_and_refuses_a_16_bit_one(py_page):
    """Kimi Linear (KDA layers beside MLA) from the catalog at TP 2 on the newest release: a KDA state of
    1,085,440 bytes padded to a 1,024-token MLA page (8.68%), shown as the core computes it, in both
    languages; a bfloat16 --mamba-ssm-cache-dtype, which vLLM would size the page for while the layer keeps
    float32, is refused at its field."""
    page = py_page
    fresh_form(page)
    want = set_form(page, model="moonshotai/Kimi-Linear-48B-A3B-Instruct", tensor_parallel_size=2)
    wait_request(page, want)
    r = oracle(want)["result"]
    assert r["layout"]["mamba_state_bytes"] == 1_085_440 and r["layout"]["padding_layers"] == 1
    assert_numbers_match(page, r)
    expect_in_both_languages(page, page.get_by_test_id("notes"), "Mamba page padded by 8.68%", "Mamba 页补齐了 8.68%")
    open_advanced(page)
    page.get_by_test_id("mamba-ssm-dtype").select_option("bfloat16")
    expect(page.locator("#mamba-ssm-dtype-msg")).to_contain_text("keep the recurrent state in float32")
    page.get_by_test_id("mamba-ssm-dtype").select_option("")
    fresh_form(page)


def test_deepseek_v4_from_the_catalog_shows_its_packed_groups_and_needs_fp8_before_v0_30(py_page):
    """DeepSeek-V4-Flash from the catalog on two H200s: the five packed groups the core plans (the full
    group's 1,002,240-byte page on the newest release), in both languages; before v0.30 the automatic KV
    cache type stops vLLM (it asserts fp8), which the field says, and fp8 sizes it."""
    page = py_page
    fresh_form(page)
    want = set_form(page, model="deepseek-ai/DeepSeek-V4-Flash-0731", gpu="h200", tensor_parallel_size=2)
    wait_request(page, want)
    r = oracle(want)["result"]
    assert r["layout"]["grouping"] == "packed" and len(r["layout"]["groups"]) == 5
    assert_numbers_match(page, r)
    expect_in_both_languages(page, page.get_by_test_id("layout"),
                             "62 compressed_mla layers, block 256 tokens, page 1,002,240 bytes",
                             "62 个 compressed_mla 层，每块 256 个 token，每页 1,002,240 字节")
    page.get_by_test_id("vllm-version").select_option("0.29.0")
    expect(page.locator("#kv-dtype-msg")).to_contain_text("asserts an fp8 --kv-cache-dtype")
    page.get_by_test_id("kv-dtype").select_option("fp8")
    want = page_request(model="deepseek-ai/DeepSeek-V4-Flash-0731", gpu="h200", tensor_parallel_size=2,
                        vllm_version="0.29.0", kv_cache_dtype="fp8")
    wait_request(page, want)
    assert_numbers_match(page, oracle(want)["result"])
    fresh_form(page)


def test_the_indexer_cache_select_sizes_deepseek_v4s_mxfp4_keys(py_page):
    """The Advanced select for DeepSeek-V4's MXFP4 indexer cache reaches the core (4,608-byte indexer pages
    on a B200 from v0.27), lands in the serve command and the link, and is refused on a Hopper GPU."""
    page = py_page
    fresh_form(page)
    set_form(page, model="deepseek-ai/DeepSeek-V4-Flash-0731", gpu="b200", tensor_parallel_size=4)
    open_advanced(page)
    page.get_by_test_id("fp4-indexer").select_option("1")
    want = page_request(model="deepseek-ai/DeepSeek-V4-Flash-0731", gpu="b200", tensor_parallel_size=4)
    want["settings"]["fp4_indexer_cache"] = True
    wait_request(page, want)
    r = oracle(want)["result"]
    assert_numbers_match(page, r)
    expect(page.get_by_test_id("layout")).to_contain_text("page 917,568 bytes")
    expect(page.get_by_test_id("serve-command")).to_contain_text('--attention-config \'{"indexer_kv_dtype":"mxfp4"}\'')
    link_restores(page, "fi", "1", "fp4-indexer", "1", want)
    page.get_by_test_id("gpu-select").select_option("h200")
    expect(page.locator("#fp4-indexer-msg")).to_contain_text("compute capability 10.x only")
    page.get_by_test_id("fp4-indexer").select_option("")
    fresh_form(page)
