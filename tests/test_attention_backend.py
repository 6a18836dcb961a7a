"""A forced attention backend (--attention-backend, --attention-config.backend, VLLM_ATTENTION_BACKEND):
what it changes in the budget, what vLLM refuses and kvcalc with it, how the command spells it per
release, and how a pasted command, the CLI and a pasted log read it."""

from __future__ import annotations

import json

import pytest

from factories import calc
from kvcalc import api
from kvcalc.cli import main
from kvcalc.commandline import read_command
from kvcalc.errors import SettingsError
from kvcalc.logparse import parse_log
from kvcalc.reserve import FLASHINFER_IN_ESTIMATE_BYTES, FLASHINFER_WORKSPACE_BYTES


def graphs(c) -> int:
    return next(t for t in c.budget.terms if t.name == "CUDA graphs").bytes


def refusal(**kw) -> str:
    model = kw.pop("model", "Qwen/Qwen3-8B")
    gpu = kw.pop("gpu", "a100-80g-sxm")
    with pytest.raises(SettingsError) as e:
        calc(model, gpu, **kw)
    return str(e.value.problems["--attention-backend"])


def test_a_forced_flashinfer_adds_its_workspace_to_the_graph_estimate():
    """On an A100 vLLM picks FlashAttention for Qwen3-8B; forcing FlashInfer puts its 394 MiB
    workspace into the first full graph vLLM captures for its estimate, and only there (v0.33, the
    last release that sizes the pool from the estimate by default)."""
    kw = dict(max_model_len=8192, vllm_version="0.33.0")
    auto = calc("Qwen/Qwen3-8B", "a100-80g-sxm", **kw)
    fi = calc("Qwen/Qwen3-8B", "a100-80g-sxm", attention_backend="flashinfer", **kw)
    assert graphs(fi) - graphs(auto) == FLASHINFER_IN_ESTIMATE_BYTES
    assert fi.estimated.available_bytes < auto.estimated.available_bytes
    for same in ("FLASH_ATTN", "TRITON_ATTN"):       # FlashAttention is the pick; Triton keeps full graphs
        assert graphs(calc("Qwen/Qwen3-8B", "a100-80g-sxm", attention_backend=same, **kw)) == graphs(auto)


@pytest.mark.parametrize("eager", [False, True])
def test_under_the_extensible_cache_flashinfer_s_whole_workspace_is_paid(eager):
    """v0.34's extensible cache measures after the warm-up's steps, which build attention metadata and so
    allocate FlashInfer's whole 394 MiB workspace (VLLM_FLASHINFER_WORKSPACE_BUFFER_SIZE), graphs or not
    (the sizing steps run under --enforce-eager too: gpu_worker.py _compile_or_warm_up_model)."""
    kw = dict(max_model_len=8192, vllm_version="0.34.0", enforce_eager=eager)
    auto = calc("Qwen/Qwen3-8B", "a100-80g-sxm", **kw)
    fi = calc("Qwen/Qwen3-8B", "a100-80g-sxm", attention_backend="flashinfer", **kw)
    assert graphs(fi) - graphs(auto) == FLASHINFER_WORKSPACE_BYTES
    assert fi.budget.capacity_available == auto.budget.capacity_available   # the profile's figure holds none


def test_before_vllm_deducts_a_graph_estimate_a_backend_changes_nothing():
    auto = calc("Qwen/Qwen3-8B", "a100-80g-sxm", vllm_version="0.19.0", max_model_len=8192)
    fi = calc("Qwen/Qwen3-8B", "a100-80g-sxm", vllm_version="0.19.0", max_model_len=8192, attention_backend="FLASHINFER")
    assert graphs(fi) == graphs(auto) == 0 and fi.estimated.tokens == auto.estimated.tokens


def test_flex_attention_captures_no_full_graph_before_v0_20():
    """Before v0.20 FlexAttention's builder supports no full graph, so FULL_AND_PIECEWISE keeps the
    piecewise ones only (seen where v0.19's opt-in subtracts the estimate); from v0.20 it keeps both."""
    def flex_vs_auto(version):
        kw = dict(vllm_version=version, max_model_len=8192, cudagraph_memory_profiling=True)
        return graphs(calc("Qwen/Qwen3-8B", "a100-80g-sxm", attention_backend="FLEX_ATTENTION", **kw)), \
            graphs(calc("Qwen/Qwen3-8B", "a100-80g-sxm", **kw))
    flex, auto = flex_vs_auto("0.19.0")
    assert 0 < flex < auto
    flex, auto = flex_vs_auto("0.20.0")
    assert flex == auto


@pytest.mark.parametrize("kw, words", [
    (dict(gpu="t4", attention_backend="FLASH_ATTN"), "needs 8.0 or more"),
    (dict(attention_backend="FLASH_ATTN", kv_cache_dtype="fp8"), "FlashAttention 3 (Hopper)"),
    (dict(gpu="b200", attention_backend="FLASH_ATTN"), "FlashAttention 4"),
    (dict(gpu="t4", attention_backend="FLASHINFER"), "takes 8.0 to 12.1"),
    (dict(model="openai/gpt-oss-20b", attention_backend="FLASH_ATTN"), "attention sinks"),
    (dict(model="openai/gpt-oss-20b", attention_backend="FLEX_ATTENTION"), "attention sinks"),
    (dict(attention_backend="FLEX_ATTENTION", kv_cache_dtype="fp8"), "fp8"),
    (dict(model="google/gemma-4-26B-A4B", gpu="h100", attention_backend="FLASHINFER", vllm_version="0.21.0"),
     "head size 256, 512"),
    (dict(model="google/gemma-4-26B-A4B", gpu="h100", attention_backend="FLASHINFER"), "attends fully over image"),
    (dict(model="google/gemma-4-26B-A4B", gpu="l40s", attention_backend="FLASHINFER", language_model_only=True,
          vllm_version="0.26.0"), "attends fully over image"),
    (dict(model="google/gemma-4-26B-A4B", gpu="h100", attention_backend="FLASH_ATTN"), "head size 256, 512"),
    (dict(model="deepseek-ai/DeepSeek-V2-Lite", attention_backend="TRITON_ATTN"), "MLA"),
    (dict(gpu="mi300x", attention_backend="FLASHINFER"), "does not size a forced FLASHINFER on this GPU"),
    (dict(attention_backend="auto", vllm_version="0.17.0"), "auto needs vLLM 0.18.0"),
    (dict(attention_backend="FLASHMLA"), "not an attention backend kvcalc sizes"),
    (dict(attention_backend=["FLASHINFER"]), "not an attention backend kvcalc sizes"),
])
def test_what_vllm_or_kvcalc_refuses_is_said_at_the_field(kw, words):
    assert words in refusal(**kw)


def test_the_releases_own_pick_and_unchecked_releases_pass():
    """Forcing what vLLM picks anyway changes nothing; before v0.11.1 vLLM takes a forced backend
    unchecked (a FlashAttention T4 start fails later, not at sizing), and FlashInfer ran Turing until v0.24."""
    calc("Qwen/Qwen3-8B", "b200", attention_backend="FLASHINFER",
         speculative={"method": "ngram", "num_speculative_tokens": 3})
    calc("Qwen/Qwen3-8B", "t4", vllm_version="0.11.0", attention_backend="FLASH_ATTN")
    calc("Qwen/Qwen3-8B", "t4", vllm_version="0.23.0", attention_backend="FLASHINFER")
    auto = calc("Qwen/Qwen3-8B", "a100-80g-sxm", max_model_len=8192, attention_backend="auto")
    assert auto.resolved.settings.attention_backend is None


def test_flashinfer_runs_gemma_4_text_only_from_v0_27():
    """FlashInfer takes head size 512 from v0.22 (Rule.FLASHINFER_HEAD_512) but not the full attention
    over image tokens a multimodal Gemma 4 needs; from v0.27 a text-only run drops that
    (Rule.MM_PREFIX_OFF_TEXT_ONLY), as a v0.29 L40S start of Gemma-4-26B-A4B shows: it ran forced
    FLASHINFER. Its CUDA-graph estimate (2.82 GiB, 0.50 on Triton) is not one kvcalc can size, so the
    pool comes from a log's memory only; eager, with no graph estimate, it is sized."""
    common = dict(max_model_len=4096, language_model_only=True, vllm_version="0.29.0")
    fi = calc("google/gemma-4-26B-A4B", "l40s", attention_backend="FLASHINFER", available_kv_gib=11.16, **common)
    assert fi.estimated is None and "2.82 GiB" in str(fi.budget_note)
    assert fi.from_log.tokens > 0
    eager = calc("google/gemma-4-26B-A4B", "a100-80g-sxm", attention_backend="FLASHINFER", enforce_eager=True,
                 **common)
    assert eager.estimated.tokens > 0


def test_a_hybrid_model_keeps_its_block_and_pays_the_workspace():
    """Mamba/GDN models align their attention block to the state's page from a 16-token kernel
    block with all four backends, so a forced FlashInfer keeps the block; its workspace counts as for
    a plain model (fp8 Qwen3.6 starts on FlashInfer print it: test_flashinfer_workspace)."""
    kw = dict(max_model_len=8192, vllm_version="0.33.0")
    auto = calc("Qwen/Qwen3.5-27B", "h100", **kw)
    fi = calc("Qwen/Qwen3.5-27B", "h100", attention_backend="FLASHINFER", **kw)
    assert fi.layout.block_size == auto.layout.block_size
    assert graphs(fi) > graphs(auto) and fi.estimated.tokens < auto.estimated.tokens


@pytest.mark.parametrize("version, backend, spelled", [
    ("0.33.0", "flashinfer", "vllm serve Qwen/Qwen3-8B --max-model-len 8192 --attention-backend FLASHINFER"),
    ("0.12.0", "TRITON_ATTN", "VLLM_ATTENTION_BACKEND=TRITON_ATTN vllm serve Qwen/Qwen3-8B"),
    ("0.10.2", "TRITON_ATTN", "VLLM_ATTENTION_BACKEND=TRITON_ATTN_VLLM_V1 vllm serve Qwen/Qwen3-8B"),
    ("0.33.0", "TRITON_ATTN_VLLM_V1", "--attention-backend TRITON_ATTN"),
])
def test_the_command_spells_the_backend_as_the_release_reads_it(version, backend, spelled):
    c = calc("Qwen/Qwen3-8B", "a100-80g-sxm", vllm_version=version, max_model_len=8192, attention_backend=backend)
    assert spelled in c.serve_command


def test_a_pasted_command_gives_its_backend_in_every_spelling():
    assert read_command("vllm serve Qwen/Qwen3-8B --attention-backend flashinfer")["settings"] == \
        {"attention_backend": "FLASHINFER"}
    assert read_command("vllm serve Qwen/Qwen3-8B --attention-backend auto")["settings"] == {}
    assert read_command("vllm serve Qwen/Qwen3-8B --attention-backend triton_attn_vllm_v1")["settings"] == \
        {"attention_backend": "TRITON_ATTN"}
    # a backend kvcalc does not size is named, not dropped into a select that cannot show it
    got = read_command("vllm serve Qwen/Qwen3-8B --attention-backend FLASHMLA")
    assert got["settings"] == {} and "FLASHMLA" in got["refused"]["--attention-backend"]
    assert read_command("vllm serve Qwen/Qwen3-8B --attention-config.backend=FLEX_ATTENTION")["settings"] == \
        {"attention_backend": "FLEX_ATTENTION"}
    got = read_command("""vllm serve Qwen/Qwen3-8B --attention-config '{"backend": "TRITON_ATTN", "flash_attn_version": 3}'""")
    assert got["settings"] == {"attention_backend": "TRITON_ATTN"}
    assert "flash_attn_version" in got["refused"]["--attention-config"]
    assert read_command("VLLM_ATTENTION_BACKEND=FLASHINFER vllm serve Qwen/Qwen3-8B")["settings"] == \
        {"attention_backend": "FLASHINFER"}
    # from v0.15 vLLM no longer reads the variable: an image tag that says so leaves it out
    got = read_command("docker run -e VLLM_ATTENTION_BACKEND=FLASHINFER vllm/vllm-openai:v0.20.0 --model Qwen/Qwen3-8B")
    assert "attention_backend" not in got["settings"] and "VLLM_ATTENTION_BACKEND" in got["ignored"]


def test_the_cli_reads_the_flag_and_the_attention_config(capsys):
    def run(*argv):
        code = main(["serve", "Qwen/Qwen3-8B", "--gpu", "a100-80g-sxm", "--max-model-len", "8192", "--json", *argv])
        out = capsys.readouterr()
        return code, out.out, out.err
    code, plain, err = run()
    assert code == 0, err
    for argv in (["--attention-backend", "flashinfer"], ["--attention-config.backend", "FLASHINFER"],
                 ["--attention-config", '{"backend": "FLASHINFER"}']):
        code, out, err = run(*argv)
        assert code == 0, err
        result = json.loads(out)
        assert result["serve_command"].endswith("--attention-backend FLASHINFER")
        assert result["estimated"]["tokens"] < json.loads(plain)["estimated"]["tokens"]
    code, _, err = run("--attention-config", '{"backend": "FLASHINFER", "use_trtllm_attention": true}')
    assert code == 2 and "use_trtllm_attention" in err


def test_a_pasted_log_gives_the_backend_it_forced():
    def args(value):
        return parse_log("INFO 01-01 00:00:00 [utils.py:1] non-default args: "
                         f"{{'model': 'Qwen/Qwen3-8B', 'attention_backend': {value!r}}}").settings()
    assert args("flashinfer")["attention_backend"] == "FLASHINFER"
    assert "attention_backend" not in args("ROCM_AITER_FA")     # not one kvcalc sizes: the release's pick
    assert "attention_backend" not in args("auto")


def test_the_page_select_offers_what_the_core_sizes():
    from pathlib import Path
    import re
    from kvcalc.settings import FORCED_BACKENDS
    page = (Path(__file__).resolve().parents[1] / "web" / "index.html").read_text(encoding="utf-8")
    select = page[page.index('<select id="attn-backend"'):]
    select = select[:select.index("</select>")]
    assert tuple(v for v in re.findall(r'<option value="(\w*)"', select) if v) == FORCED_BACKENDS
    reply = api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B", "gpu": "t4",
                        "settings": {"attention_backend": "FLASH_ATTN"}})
    assert not reply["ok"] and "--attention-backend" in reply["error"]["fields"]


def test_an_amd_start_that_forces_triton_keeps_kvcalcs_rocm_sizing():
    """ROCm users force TRITON_ATTN often; kvcalc's ROCm figures come from starts on whatever backend
    ran, so the forced one is read (a pasted log compares) and changes nothing."""
    auto = calc("Qwen/Qwen3-8B", "mi300x", max_model_len=8192)
    forced = calc("Qwen/Qwen3-8B", "mi300x", max_model_len=8192, attention_backend="TRITON_ATTN")
    assert forced.estimated.tokens == auto.estimated.tokens
    log = ("INFO 01-01 00:00:00 [utils.py:1] non-default args: {'model': 'Qwen/Qwen3-8B', 'attention_backend': "
           "'TRITON_ATTN'}\nINFO 01-01 00:00:01 [gpu_worker.py:1] Available KV cache memory: 150.00 GiB")
    reply = api.handle({"op": "compare_log", "text": log, "model": "Qwen/Qwen3-8B", "gpu": "mi300x",
                        "fallback": {"model": "Qwen/Qwen3-8B", "gpu": "mi300x"}})
    assert reply["ok"], reply
    assert reply["result"]["settings"]["attention_backend"] == "TRITON_ATTN"


def test_levers_offer_a_backend_without_flashinfers_workspace():
    """Where FlashInfer's workspace sits in vLLM's graph estimate, the levers offer the way out:
    the release's own pick where FlashInfer was forced, Triton where FlashInfer is the pick (an fp8
    KV cache on an L40S); with FlashAttention, the pick, there is nothing to offer, nor on an A100,
    where Triton refuses an fp8 cache (Rule.TRITON_FP8_NEEDS_SM89)."""
    from kvcalc.catalog import find_gpu
    from kvcalc.plan import levers
    from kvcalc.settings import Settings
    from factories import config

    def offered(gpu="a100-80g-sxm", **kw):
        got = levers(config("Qwen/Qwen3-8B"), find_gpu(gpu), Settings(max_model_len=8192, **kw))
        return {lv["value"]: lv for lv in got["levers"] if lv["key"] == "attention_backend"}, got["current"]
    forced, now = offered(attention_backend="FLASHINFER")
    assert list(forced) == ["auto"] and forced["auto"]["pool_tokens"] > now["pool_tokens"]
    fp8, now = offered("l40s", kv_cache_dtype="fp8")
    assert list(fp8) == ["TRITON_ATTN"] and fp8["TRITON_ATTN"]["pool_tokens"] > now["pool_tokens"]
    assert offered(kv_cache_dtype="fp8")[0] == {}
    assert offered()[0] == {}


@pytest.mark.parametrize("gpu, model, forced, version, refused_on", [
    ("t4", "Qwen/Qwen3-8B", None, "0.33.0", "--kv-cache-dtype"),               # Turing: no FlashInfer from v0.24
    ("v100-32g", "Qwen/Qwen3-8B", None, "0.24.0", "--kv-cache-dtype"),
    ("a100-80g-sxm", "google/gemma-4-31B-it", None, "0.33.0", "--kv-cache-dtype"),  # 512-wide heads: no FlashInfer
    ("a100-80g-sxm", "Qwen/Qwen3-8B", "TRITON_ATTN", "0.33.0", "--attention-backend"),
    ("a100-80g-sxm", "Qwen/Qwen3-8B", None, "0.33.0", None),                   # FlashInfer takes it
    ("l40s", "Qwen/Qwen3-8B", "TRITON_ATTN", "0.33.0", None),                  # 8.9: native fp8
    ("t4", "Qwen/Qwen3-8B", None, "0.23.0", None),                             # Turing still on FlashInfer
    ("a100-80g-sxm", "Qwen/Qwen3-8B", "TRITON_ATTN", "0.23.0", None),          # before the check
])
def test_triton_refuses_an_fp8_cache_below_compute_capability_8_9(gpu, model, forced, version, refused_on):
    """From v0.24 TritonAttentionImpl raises for an fp8 KV cache below 8.9 (vllm#43914): kvcalc refuses
    it where Triton runs, forced or as what vLLM's priority leaves, and names the flag to change."""
    from kvcalc.catalog import find_gpu
    from kvcalc.engine import calculate
    from kvcalc.errors import SettingsError
    from kvcalc.settings import Settings
    from factories import config

    settings = Settings(max_model_len=4096, kv_cache_dtype="fp8", attention_backend=forced, vllm_version=version)
    if refused_on is None:
        assert calculate(config(model), find_gpu(gpu), settings).layout is not None
        return
    with pytest.raises(SettingsError) as err:
        calculate(config(model), find_gpu(gpu), settings)
    assert list(err.value.problems) == [refused_on]
    assert "FP8 KV cache is not supported by the Triton attention backend" in str(err.value.problems[refused_on])


@pytest.mark.parametrize("gpu, kv, version, helps", [
    ("t4", "auto", "0.33.0", False),           # vLLM refuses an fp8 cache there
    ("t4", "auto", "0.23.0", True),            # FlashInfer still took Turing
    ("h100-sxm", "auto", "0.33.0", True),
    ("h100-sxm", "fp8", "0.33.0", False),      # already fp8
])
def test_the_result_says_whether_an_fp8_cache_is_a_way_out(gpu, kv, version, helps):
    """What the page suggests when the pool is short leaves out an fp8 cache vLLM would refuse."""
    r = api.handle({"op": "estimate", "model": "meta-llama/Llama-3.2-3B-Instruct", "gpu": gpu,
                    "settings": {"max_model_len": 8192, "kv_cache_dtype": kv, "vllm_version": version}})
    assert r["ok"], r
    assert r["result"]["fp8_cache_helps"] is helps


def test_an_fp8_e5m2_cache_runs_on_flashinfer_on_hopper():
    """FlashAttention 3 keeps fp8 as e4m3 only (fa_utils.flash_attn_supports_kv_cache_dtype), so on an
    H100 an fp8_e5m2 cache runs on FlashInfer, whose workspace joins vLLM's CUDA-graph estimate, and a
    forced FLASH_ATTN is refused with the reason; fp8 (e4m3) stays on FlashAttention."""
    def graphs(kv, **more):
        r = api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B", "gpu": "h100",
                        "settings": {"max_model_len": 8192, "kv_cache_dtype": kv, "vllm_version": "0.33.0", **more}})
        assert r["ok"], r
        return next(t["bytes"] for t in r["result"]["budget"]["terms"] if t["name"] == "CUDA graphs")

    assert graphs("fp8_e5m2") - graphs("fp8") == FLASHINFER_IN_ESTIMATE_BYTES
    assert graphs("fp8_e5m2", attention_backend="TRITON_ATTN") == graphs("fp8")
    refused = api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B", "gpu": "h100", "settings": {
        "kv_cache_dtype": "fp8_e5m2", "attention_backend": "FLASH_ATTN"}})
    assert not refused["ok"] and "e4m3 only" in refused["error"]["fields"]["--attention-backend"]


def test_vllms_priority_passes_flashinfer_by_where_image_tokens_need_full_attention():
    """Gemma 3 with image input attends fully over image tokens, which FlashInfer cannot do: on a
    B200, where FlashInfer comes first, vLLM's priority passes it by from v0.13 (Rule.BACKEND_MM_PREFIX),
    so no FlashInfer workspace lands in the graph estimate; served text-only from v0.27 it runs
    FlashInfer again (Rule.MM_PREFIX_OFF_TEXT_ONLY), as does any release before v0.13."""
    def fi(**kw):       # on the V1 runner, which subtracts its graph estimate from v0.20
        c = calc("google/gemma-3-27b-it", "b200", max_model_len=8192, model_runner_v2=False, **kw)
        return "FlashInfer" in str(c.budget.term("CUDA graphs").basis), c.mm_prefix
    assert fi(vllm_version="0.28.0") == (False, True)
    assert fi(vllm_version="0.28.0", language_model_only=True) == (True, False)
    assert fi(vllm_version="0.26.0", language_model_only=True) == (False, True)
    assert calc("google/gemma-3-27b-it", "b200", max_model_len=8192, vllm_version="0.12.0").mm_prefix is False


@pytest.mark.parametrize("model,gpu,version,settings,block", [
    ("google/gemma-4-31B-it", "b200", "0.33.0", {}, 64),      # heads 256 and 512, images on: TRITON_FLASHINFER
    ("google/gemma-4-31B-it", "b200", "0.30.0", {}, 64),
    ("google/gemma-4-31B-it", "b200", "0.29.0", {}, 16),      # before the composite backend
    ("google/gemma-4-31B-it", "h100", "0.33.0", {}, 16),      # Hopper's TRITON_FLASH_ATTN takes 16
    ("google/gemma-4-31B-it", "b200", "0.33.0", {"language_model_only": True}, 16),   # no image attention
    ("google/gemma-4-31B-it", "b200", "0.33.0", {"attention_backend": "TRITON_ATTN"}, 16),
    ("google/gemma-3-12b-it", "b200", "0.33.0", {}, 64),      # heads of 256
    ("google/gemma-3-27b-it", "b200", "0.33.0", {}, 16),      # heads of 128: not the composite's
])
def test_image_attention_on_blackwell_runs_the_triton_flashinfer_composite_with_64_token_blocks(
        model, gpu, version, settings, block):
    """From v0.30 (Rule.MM_PREFIX_COMPOSITE_BACKEND) vLLM's 10.x priority puts TRITON_FLASHINFER first
    for a model attending fully over image tokens with 256- or 512-wide heads; its only kernel block is
    64, so get_preferred_block_size turns the default 16 into 64 (Gemma 4's 512-wide full layers then
    take 128, the page unification doubling them)."""
    c = calc(model, gpu, max_model_len=32768, vllm_version=version, **settings)
    assert c.layout.block_size == block
    if model == "google/gemma-4-31B-it" and block == 64:
        assert {(g.spec.kind, g.spec.block_size) for g in c.grouping.groups} == {("sliding_window", 64), ("full", 128)}


@pytest.mark.parametrize("version,settings,block,refused", [
    ("0.33.0", {}, 16, None),                 # [1, MultipleOf(16)] from v0.28: the default stays
    ("0.28.0", {}, 16, None),
    ("0.26.0", {}, 1, None),                  # [1, 64]: get_preferred_block_size takes the smallest
    ("0.18.0", {}, 1, None),                  # [1]
    ("0.17.0", {"block_size": 1}, 1, None),   # v0.12-v0.17 assert --block-size 1
    ("0.17.0", {}, None, "--block-size"),
    ("0.14.0", {"block_size": 1, "kv_cache_dtype": "fp8"}, None, "--kv-cache-dtype"),
    ("0.11.0", {"block_size": 1}, None, "--vllm-version"),   # no ROCm sparse MLA backend yet
])
def test_sparse_mla_on_rocm_takes_aiters_block_sizes(version, settings, block, refused):
    """DeepSeek-V3.2 on an MI355X runs AITER's sparse MLA backend and indexer, whose kernel blocks
    decide the block size (rocm_aiter_mla_sparse.py, mla/indexer.py get_supported_kernel_block_sizes),
    not CUDA's 64-token FlashMLA-sparse (Rule.ROCM_SPARSE_MLA, Rule.ROCM_SPARSE_MLA_BLOCK_16)."""
    args = dict(max_model_len=32768, tensor_parallel_size=8, vllm_version=version, **settings)
    if refused:
        with pytest.raises(SettingsError) as err:
            calc("deepseek-ai/DeepSeek-V3.2", "mi355x", **args)
        assert list(err.value.problems) == [refused]
        return
    assert calc("deepseek-ai/DeepSeek-V3.2", "mi355x", **args).layout.block_size == block
    if "block_size" not in settings:        # CUDA keeps FlashMLA-sparse's 64
        assert calc("deepseek-ai/DeepSeek-V3.2", "b200", **args).layout.block_size == 64


@pytest.mark.parametrize("model,gpu,version,settings,block", [
    ("openai/gpt-oss-120b", "mi300x", "0.33.0", {}, 64),     # sinks: ROCM_ATTN passes, the unified backend prefers 64
    ("openai/gpt-oss-120b", "mi355x", "0.29.0", {}, 64),
    ("openai/gpt-oss-120b", "mi300x", "0.28.0", {}, 16),     # before its preferred 64
    ("openai/gpt-oss-120b", "w7900", "0.33.0", {}, 16),      # RDNA: no AITER, Triton
    ("openai/gpt-oss-120b", "mi300x", "0.33.0", {"attention_backend": "TRITON_ATTN"}, 16),
    ("Qwen/Qwen3-8B", "mi300x", "0.33.0", {}, 16),           # ROCM_ATTN takes it
    ("Qwen/Qwen3-8B", "mi300x", "0.33.0", {"kv_connector": "NixlConnector"}, 64),   # ROCM_ATTN dropped
    ("google/gemma-4-31B-it", "mi300x", "0.33.0", {}, 16),   # Gemma4Config forces Triton (public logs: 16)
])
def test_models_rocm_attn_does_not_take_run_on_aiters_unified_backend_with_64_token_blocks(
        model, gpu, version, settings, block):
    """Rule.ROCM_UNIFIED_ATTN_BLOCK_64: on CDNA 3/4 with AITER (vLLM's ROCm images), what ROCM_ATTN
    refuses goes to ROCM_AITER_UNIFIED_ATTN, whose get_preferred_block_size is 64."""
    c = calc(model, gpu, max_model_len=32768, vllm_version=version, **settings)
    assert c.layout.block_size == block


def test_per_token_head_caches_run_on_triton_alone():
    """Only TRITON_ATTN lists the per-token-head cache types (v0.31-v0.33 wheels): below compute
    capability 8.9 Triton refuses anything named fp8 (Rule.TRITON_FP8_NEEDS_SM89), and where Triton
    takes it no FlashInfer workspace lands in the graph estimate."""
    with pytest.raises(SettingsError) as err:
        calc("Qwen/Qwen3-8B", "a100", max_model_len=8192, kv_cache_dtype="fp8_per_token_head")
    assert list(err.value.problems) == ["--kv-cache-dtype"]
    c = calc("Qwen/Qwen3-8B", "l40s", max_model_len=8192, kv_cache_dtype="fp8_per_token_head")
    assert "FlashInfer" not in str(c.budget.term("CUDA graphs").basis)
    fp8 = calc("Qwen/Qwen3-8B", "l40s", max_model_len=8192, kv_cache_dtype="fp8")
    assert "FlashInfer" in str(fp8.budget.term("CUDA graphs").basis)


@pytest.mark.parametrize("model,gpu,version,refused", [
    ("Qwen/Qwen3-8B", "b200", "0.31.0", False),           # TRT-LLM kernels on 10.x
    ("Qwen/Qwen3-8B", "h100", "0.31.0", True),            # 10.x only before v0.32
    ("Qwen/Qwen3-8B", "h100", "0.33.0", False),           # FlashInfer's FA2 path from v0.32
    ("openai/gpt-oss-20b", "h100", "0.33.0", True),       # the FA2 path refuses head size 64 and sinks
    ("openai/gpt-oss-20b", "b200", "0.33.0", False),
    ("google/gemma-3-27b-it", "b200", "0.33.0", True),    # full attention over image tokens: not FlashInfer
    ("Qwen/Qwen3-8B", "mi300x", "0.33.0", True),          # no ROCm backend lists nvfp4
])
def test_an_nvfp4_cache_runs_where_flashinfer_keeps_it(model, gpu, version, refused):
    """Only FlashInfer lists nvfp4 (Rule.NVFP4_KV_FA2; flashinfer.py supports_kv_cache_dtype,
    supports_combination); where it does, its workspace counts in the graph estimate."""
    args = dict(max_model_len=8192, vllm_version=version, kv_cache_dtype="nvfp4")
    if refused:
        with pytest.raises(SettingsError) as err:
            calc(model, gpu, **args)
        assert list(err.value.problems) == ["--kv-cache-dtype"]
        return
    c = calc(model, gpu, **args)
    assert c.estimated.tokens > 0 and "FlashInfer" in str(c.budget.term("CUDA graphs").basis)


def test_gemma4s_mixed_heads_run_on_flashinfer_on_10x_from_v0_24_when_text_only():
    """Rule.GEMMA4_MIXED_HEADS_BY_PRIORITY: Gemma4Config forces Triton for its 256/512 heads only where
    FlashAttention 4 is missing; on a B200 the priority then puts FlashInfer first, whose workspace
    lands in the graph estimate, unless the model attends fully over image tokens."""
    def fi(gpu, version, **kw):
        c = calc("google/gemma-4-31B-it", gpu, max_model_len=8192, vllm_version=version, **kw)
        return "FlashInfer" in str(c.budget.term("CUDA graphs").basis)
    assert fi("b200", "0.33.0", language_model_only=True)
    assert not fi("b200", "0.33.0")                                   # images: TRITON_FLASHINFER, no workspace counted
    assert not fi("b200", "0.23.0", language_model_only=True)         # Triton forced before v0.24
    assert not fi("h100", "0.33.0", language_model_only=True)         # FlashAttention 4 first on Hopper


@pytest.mark.parametrize("model,gpu,version,tp,refused", [
    ("Qwen/Qwen3-8B", "mi300x", "0.33.0", 2, True),        # ROCm's plain-attention backends: no DCP
    ("Qwen/Qwen3-8B", "mi300x", "0.29.0", 2, False),       # before backends had to declare it
    ("Qwen/Qwen3-8B", "t4", "0.33.0", 2, True),            # Triton on Turing
    ("Qwen/Qwen3-8B", "h100", "0.33.0", 2, False),         # FlashAttention
    ("deepseek-ai/DeepSeek-V3", "mi300x", "0.33.0", 8, False),   # Triton MLA supports it
])
def test_decode_context_parallelism_needs_a_backend_that_declares_it(model, gpu, version, tp, refused):
    """Rule.DCP_BACKEND_CHECKED: from v0.30 AttentionImpl.supports_dcp defaults to False."""
    args = dict(max_model_len=8192, tensor_parallel_size=tp, decode_context_parallel_size=2, vllm_version=version)
    if refused:
        with pytest.raises(SettingsError) as err:
            calc(model, gpu, **args)
        assert list(err.value.problems) == ["--decode-context-parallel-size"]
    else:
        assert calc(model, gpu, **args).estimated.tokens > 0
