"""Which model runner vLLM picks (engine.uses_model_runner_v2), release by release as the wheels'
``use_v2_model_runner`` decides, and VLLM_USE_V2_MODEL_RUNNER, which overrides it."""

from __future__ import annotations

import pytest

from factories import calc, config, llama_like
from kvcalc.engine import uses_model_runner_v2
from kvcalc.errors import SettingsError
from kvcalc.hf_config import read_model
from kvcalc.logparse import parse_log
from kvcalc.versions import default_v2_architectures, parse_version

QUANTIZED_QWEN3 = dict(config("Qwen/Qwen3-32B-FP8"))
DEEPSEEK_V2_LITE = llama_like(architectures=["DeepseekV2ForCausalLM"], model_type="deepseek_v2",
                              kv_lora_rank=512, qk_rope_head_dim=64, qk_nope_head_dim=128, v_head_dim=128,
                              n_routed_experts=64, num_experts_per_tok=6, moe_intermediate_size=1408)


def runner(model: str | dict, release: str, spec: str | None = None, chosen: bool | None = None) -> bool:
    cfg = config(model) if isinstance(model, str) else model
    return uses_model_runner_v2(read_model(cfg), parse_version(release), spec, chosen)


@pytest.mark.parametrize("model, release, v2", [
    ("Qwen/Qwen3-8B", "0.21.0", False),          # V2 is opt-in only
    ("Qwen/Qwen3-8B", "0.22.0", True),           # Qwen3ForCausalLM, listed
    (QUANTIZED_QWEN3, "0.22.0", False),          # a quantization_config keeps V1 in 0.22-0.23
    (QUANTIZED_QWEN3, "0.24.0", True),           # 0.24 drops that check
    ("meta-llama/Llama-3.1-8B-Instruct", "0.22.0", False),
    ("meta-llama/Llama-3.1-8B-Instruct", "0.23.0", True),
    ("Qwen/Qwen2.5-7B-Instruct", "0.24.0", False),   # Qwen2ForCausalLM is not listed
    ("Qwen/Qwen2.5-7B-Instruct", "0.25.0", True),    # every non-MoE model from 0.25
    ("google/gemma-3-27b-it", "0.24.0", False),
    ("google/gemma-3-27b-it", "0.25.0", True),       # sliding-window layers do not matter
    ("Qwen/Qwen3-30B-A3B", "0.28.0", False),         # MoE, not listed
    ("Qwen/Qwen3-30B-A3B", "0.29.0", True),          # every model from 0.29
    (DEEPSEEK_V2_LITE, "0.23.0", False),
    (DEEPSEEK_V2_LITE, "0.24.0", True),              # listed MoE (MLA) from 0.24
    (DEEPSEEK_V2_LITE, "0.28.0", True),
    ("Qwen/Qwen3-Next-80B-A3B-Instruct", "0.28.0", False),   # hybrid
])
def test_the_runner_each_release_picks(model, release, v2):
    assert runner(model, release) is v2


def test_the_moe_list_grows_release_by_release():
    """DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES in the v0.26-v0.28 wheels."""
    listed = [("KimiK3ForConditionalGeneration" in default_v2_architectures(parse_version(r)))
              for r in ("0.26.0", "0.27.0", "0.28.0")]
    assert listed == [False, True, True]
    ngram = llama_like(architectures=["LongcatFlashNgramForCausalLM"], num_local_experts=8,
                       num_experts_per_tok=2)
    assert [runner(ngram, r) for r in ("0.25.0", "0.26.0")] == [False, True]


def test_the_environment_variable_decides_when_set():
    assert runner("google/gemma-3-27b-it", "0.26.0", chosen=False) is False
    assert runner("Qwen/Qwen3-30B-A3B", "0.26.0", chosen=True) is True
    assert runner("Qwen/Qwen3-8B", "0.31.0", "suffix", chosen=None) is False


def test_forcing_v1_gives_back_the_cuda_graph_estimate_before_v0_29():
    """Model runner V2 deducts no CUDA-graph estimate before v0.29, V1 does from v0.21: the same
    Gemma 3 start on v0.26 differs by that term, and the command spells the variable out."""
    auto = calc("google/gemma-3-12b-it", vllm_version="0.26.0", max_model_len=8192)
    v1 = calc("google/gemma-3-12b-it", vllm_version="0.26.0", max_model_len=8192, model_runner_v2=False)
    graphs = {c.model_runner_v2: {t.name: t.bytes for t in c.budget.terms}["CUDA graphs"] for c in (auto, v1)}
    assert auto.model_runner_v2 and not v1.model_runner_v2
    assert graphs[True] == 0 < graphs[False]
    assert v1.estimated.tokens < auto.estimated.tokens
    assert v1.serve_command.startswith("VLLM_USE_V2_MODEL_RUNNER=0 vllm serve")
    assert auto.serve_command.startswith("vllm serve")
    # the release's own choice needs no variable in the command
    same = calc("google/gemma-3-12b-it", vllm_version="0.26.0", max_model_len=8192, model_runner_v2=True)
    assert same.serve_command == auto.serve_command


def test_the_variable_is_refused_where_vllm_refuses_it():
    with pytest.raises(SettingsError) as err:
        calc("Qwen/Qwen3-8B", vllm_version="0.11.0", model_runner_v2=True)
    assert "VLLM_USE_V2_MODEL_RUNNER" in err.value.problems and "0.12.0" in str(err.value.problems)
    with pytest.raises(SettingsError) as err:
        calc("Qwen/Qwen3-8B", vllm_version="0.30.0", model_runner_v2=True, speculative={"method": "ngram"})
    assert "ngram" in str(err.value.problems["VLLM_USE_V2_MODEL_RUNNER"])
    with pytest.raises(SettingsError):
        calc("Qwen/Qwen3-8B", vllm_version="0.30.0", model_runner_v2="yes")


@pytest.mark.parametrize("line, v2", [
    ("(EngineCore pid=1) INFO 10-08 21:35:30 [gpu_worker.py:429] Using V2 Model Runner", True),
    ("WARNING 06-02 12:00:00 [vllm.py:540] Model Runner V2 does not yet support custom logits processors; "
     "using the V1 model runner instead.", False),
])
def test_a_log_says_which_runner_it_ran(line, v2):
    log = parse_log(line)
    assert log.model_runner_v2 is v2 and log.settings()["model_runner_v2"] is v2


def test_a_shorter_draft_model_caps_max_model_len_on_v2_from_v0_33():
    """vLLM 0.33 lowers max_model_len to a draft model's (method draft_model, model runner V2): the
    pool's concurrency and the log line are computed at the drafter's 4,096 tokens, with a note;
    v0.32 keeps the target's length."""
    draft = llama_like(max_position_embeddings=4096)
    spec = {"method": "draft_model", "num_speculative_tokens": 3, "draft_config": draft}
    new = calc("meta-llama/Llama-3.1-8B-Instruct", vllm_version="0.33.0", max_model_len=32768, speculative=spec)
    old = calc("meta-llama/Llama-3.1-8B-Instruct", vllm_version="0.32.0", max_model_len=32768, speculative=spec)
    assert new.resolved.max_model_len == 4096 and old.resolved.max_model_len == 32768
    assert any("4,096" in str(n) and "v0.33" in str(n) for n in new.notes)
    assert any("for 4,096 tokens per request" in line for line in new.estimated.log_lines)
    eagle = calc("meta-llama/Llama-3.1-8B-Instruct", vllm_version="0.33.0", max_model_len=32768,
                 speculative={"method": "eagle3", "num_speculative_tokens": 3, "draft_config": draft})
    assert eagle.resolved.max_model_len == 32768


def test_rocm_keeps_sparse_mla_on_v1_from_0_29_to_0_31():
    """ROCM_DEFAULT_MRV1_ARCHITECTURES: DeepSeek-V3.2 stays on V1 on ROCm in v0.29-v0.31, GLM-5 in
    v0.30-v0.31; CUDA runs both on V2 from v0.29, and v0.32 drops the list."""
    def v2(model, release, platform):
        return uses_model_runner_v2(read_model(config(model)), parse_version(release), platform=platform)
    assert v2("deepseek-ai/DeepSeek-V3.2", "0.29.0", "rocm") is False
    assert v2("deepseek-ai/DeepSeek-V3.2", "0.29.0", "cuda") is True
    assert v2("zai-org/GLM-5", "0.29.0", "rocm") is True
    assert v2("zai-org/GLM-5", "0.31.0", "rocm") is False
    assert v2("deepseek-ai/DeepSeek-V3.2", "0.32.0", "rocm") is True


def test_dflash_runs_on_v2_from_0_24():
    """V2 took eagle, eagle3 and MTP in v0.22-v0.23 and DFlash too from v0.24 (config/vllm.py:2031)."""
    from kvcalc.versions import runs_on_v1_for
    assert runs_on_v1_for("dflash", parse_version("0.23.0")) is True
    assert runs_on_v1_for("dflash", parse_version("0.24.0")) is False


@pytest.mark.parametrize("gpu,release,kv,model,key", [
    ("t4", "0.10.1", "auto", "Qwen/Qwen3-8B", "note.v0_engine_capability"),
    ("t4", "0.10.2", "auto", "Qwen/Qwen3-8B", None),
    ("a100", "0.10.2", "fp8", "Qwen/Qwen3-8B", "note.v0_engine_kv"),
    ("h100", "0.10.2", "fp8", "Qwen/Qwen3-8B", None),
    ("a100", "0.11.0", "fp8", "Qwen/Qwen3-8B", None),
    ("h100", "0.10.1", "auto", "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", "note.v0_engine_mamba"),
    ("h100", "0.10.2", "auto", "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", None),
])
def test_v0_10_starts_on_the_v0_engine_are_flagged(gpu, release, kv, model, key):
    """v0.10 fell back to its V0 engine for old GPUs and Mamba-state models (until v0.10.2) and for fp8
    caches V1 could not hold (until v0.11); kvcalc sizes V1 only and says so."""
    c = calc(model, gpu, max_model_len=4096, vllm_version=release, kv_cache_dtype=kv)
    keys = [getattr(n, "key", "") for n in c.notes if getattr(n, "key", "").startswith("note.v0_engine")]
    assert keys == ([key] if key else [])


def test_the_runner_each_stored_log_loaded_on_is_the_runner_kvcalc_picks():
    """The file that logged "Model loading took" names the runner (the V1 runner's
    gpu_model_runner.py, model runner V2's gpu/model_runner.py): over every stored excerpt that
    has the line, from v0.12, kvcalc's choice (the release's default by architecture, spec method,
    platform, VLLM_USE_V2_MODEL_RUNNER, pinned memory) agrees."""
    from kvcalc.validate import _calculate, load_logs
    checked, disagree = 0, []
    for e in load_logs():
        told = parse_log(e.get("excerpt") or "")._runner_from_file()
        if told is None or e.get("skip_reason"):
            continue
        _, calc = _calculate(e)
        checked += 1
        if calc.model_runner_v2 != told:
            disagree.append(e["id"])
    assert checked >= 100 and disagree == []
