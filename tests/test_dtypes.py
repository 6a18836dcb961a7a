import pytest

from factories import calc, config, llama_like
from kvcalc.units import GIB
from kvcalc.dtypes import KV_CACHE_DTYPES, resolve_kv_dtype
from kvcalc.errors import SettingsError
from kvcalc.versions import parse_version

V = parse_version("0.33.0")


@pytest.mark.parametrize("name,head,expected", [
    ("bfloat16", 128, 512), ("float16", 128, 512), ("fp8", 128, 256), ("fp8_e5m2", 128, 256),
    ("int8_per_token_head", 128, 264), ("int4_per_token_head", 128, 136), ("nvfp4", 128, 144)])
def test_bytes_per_token_per_head(name, head, expected):
    assert KV_CACHE_DTYPES[name].head_bytes(head, head) == expected


def test_auto_is_model_dtype():
    assert resolve_kv_dtype("auto", "float16", None, V).name == "float16"
    assert resolve_kv_dtype("auto", "bfloat16", None, V).name == "bfloat16"


def test_auto_follows_llm_compressor_kv_scheme():
    cfg = llama_like(quantization_config={"quant_method": "compressed-tensors",
                                          "kv_cache_scheme": {"num_bits": 8, "type": "float"}})
    c = calc(cfg, max_model_len=4096)
    assert c.kv.name == "fp8"
    assert calc(cfg, max_model_len=4096, kv_cache_dtype="bfloat16").kv.name == "bfloat16"


def test_auto_follows_modelopt_kv_algo():
    cfg = llama_like(quantization_config={"quant_method": "modelopt", "kv_cache_quant_algo": "FP8"})
    assert calc(cfg, max_model_len=4096).kv.name == "fp8_e4m3"
    # 128-wide heads: FlashInfer's FA2 path, which keeps nvfp4 on Hopper from v0.32, refuses 64
    cfg = llama_like(hidden_size=1024, quantization_config={"quant_method": "modelopt", "kv_cache_quant_algo": "NVFP4"})
    assert calc(cfg, max_model_len=4096).kv.name == "nvfp4"
    # nvfp4 KV only exists from v0.20 (#37332): older releases stay in the model dtype.
    assert calc(cfg, max_model_len=4096, vllm_version="0.19.0").kv.name == "bfloat16"


def test_checkpoint_kv_dtypes_by_release():
    """ModelOpt's kv_cache_quant_algo sets auto from v0.14; an llm-compressor kv_cache_scheme from
    v0.15, never on MLA layers, and over an explicit value until v0.21 (#42782 in v0.22)."""
    opt = llama_like(quantization_config={"quant_method": "modelopt", "kv_cache_quant_algo": "FP8"})
    assert calc(opt, max_model_len=4096, vllm_version="0.13.0").kv.name == "bfloat16"
    assert calc(opt, max_model_len=4096, vllm_version="0.14.0").kv.name == "fp8_e4m3"
    ct = llama_like(quantization_config={"quant_method": "compressed-tensors",
                                         "kv_cache_scheme": {"num_bits": 8, "type": "float"}})
    assert calc(ct, max_model_len=4096, vllm_version="0.14.0").kv.name == "bfloat16"
    assert calc(ct, max_model_len=4096, vllm_version="0.15.0").kv.name == "fp8"
    assert calc(ct, max_model_len=4096, vllm_version="0.21.0", kv_cache_dtype="bfloat16").kv.name == "fp8"
    assert calc(ct, max_model_len=4096, vllm_version="0.22.0", kv_cache_dtype="bfloat16").kv.name == "bfloat16"
    mla = {**config("deepseek-ai/DeepSeek-V2-Lite"),
           "quantization_config": {"quant_method": "compressed-tensors",
                                   "kv_cache_scheme": {"num_bits": 8, "type": "float"}}}
    assert calc(mla, max_model_len=4096, vllm_version="0.33.0").kv.name == "bfloat16"


def test_a_modelopt_hf_quant_config_beside_the_config_is_read():
    """Older ModelOpt exports keep their quantization in hf_quant_config.json, which vLLM reads when
    config.json has none (the catalog keeps it beside the config): nvidia/Llama-3.1-70B-Instruct-FP8
    loads FP8 weights (about 17 GiB per GPU at TP 4, not 33), keeps an fp8 cache from v0.14 and stays
    on the V1 runner where V2 takes only unquantized Llama (v0.23)."""
    def run(version):
        return calc("nvidia/Llama-3.1-70B-Instruct-FP8", tensor_parallel_size=4, max_model_len=8192,
                    vllm_version=version)
    new = run("0.33.0")
    assert new.kv.name == "fp8_e4m3" and 16 * GIB < new.budget.weights.bytes < 18 * GIB
    assert run("0.13.0").kv.name == "bfloat16"
    assert run("0.23.0").model_runner_v2 is False


def test_fp32_checkpoints_run_in_bf16_or_fp16_on_old_gpus():
    cfg = llama_like(torch_dtype="float32")
    assert calc(cfg, "h100", max_model_len=4096).kv.name == "bfloat16"
    assert calc(cfg, "t4", max_model_len=4096).kv.name == "float16"


def test_unknown_and_too_new_dtypes_are_refused():
    with pytest.raises(SettingsError, match="not a vLLM KV cache dtype"):
        resolve_kv_dtype("fp6", "bfloat16", None, V)
    # the release wheels date them: int8/fp8 per token-head from v0.20.0 (#38378, absent from the
    # v0.19.1 wheel), int4 per token-head from v0.25.0 (#40835, absent from v0.24.0)
    with pytest.raises(SettingsError, match="needs vLLM 0.20.0"):
        resolve_kv_dtype("int8_per_token_head", "bfloat16", None, parse_version("0.19.1"))
    assert resolve_kv_dtype("fp8_per_token_head", "bfloat16", None, parse_version("0.20.0"))
    with pytest.raises(SettingsError, match=r"needs vLLM 0.25.0 or newer \(#40835\)"):
        resolve_kv_dtype("int4_per_token_head", "bfloat16", None, parse_version("0.24.0"))
    assert resolve_kv_dtype("int4_per_token_head", "bfloat16", None, parse_version("0.25.0"))
    with pytest.raises(SettingsError, match="MLA"):
        resolve_kv_dtype("fp8_ds_mla", "bfloat16", None, V, is_mla=False)


def test_glm5_takes_an_fp8_cache_on_datacentre_blackwell_from_v0_32():
    """GlmMoeDsaForCausalLM.verify_and_update_config (v0.32): auto becomes fp8_e4m3 on compute
    capability 10.x; elsewhere, earlier, or with an explicit dtype the choice stands."""
    def kv(version, major, requested="auto", arch="GlmMoeDsaForCausalLM"):
        return resolve_kv_dtype(requested, "bfloat16", None, parse_version(version), True, arch, "cuda", major).name
    assert kv("0.32.0", 10) == "fp8_e4m3"
    assert kv("0.31.0", 10) == "bfloat16"
    assert kv("0.33.0", 9) == "bfloat16"
    assert kv("0.33.0", 10, requested="bfloat16") == "bfloat16"
    assert kv("0.33.0", 10, arch="DeepseekV3ForCausalLM") == "bfloat16"


def test_the_glm5_fp8_default_is_said_in_a_note():
    from kvcalc import api
    r = api.handle({"op": "estimate", "model": "zai-org/GLM-5", "gpu": "b200",
                    "settings": {"tensor_parallel_size": 8, "max_model_len": 32768}})
    assert r["ok"] and r["result"]["settings"]["kv_cache_dtype_resolved"] == "fp8_e4m3"
    assert any("fp8_e4m3" in str(n) and "0.32" in str(n) for n in r["result"]["notes"])


def test_a_float_kv_dtype_other_than_the_models_is_refused_from_v0_33():
    """vLLM 0.33 (_reject_mismatched_float_kv_cache) refuses --kv-cache-dtype float16 on a bfloat16
    model and names what it takes; v0.32 stored it; the model's own dtype stays allowed."""
    from factories import calc
    from kvcalc.errors import SettingsError

    with pytest.raises(SettingsError) as err:
        calc("Qwen/Qwen3-8B", vllm_version="0.33.0", kv_cache_dtype="float16")
    text = str(err.value.problems["--kv-cache-dtype"])
    assert "bfloat16" in text and "auto or bfloat16" in text and "0.33.0" in text
    assert calc("Qwen/Qwen3-8B", vllm_version="0.32.0", kv_cache_dtype="float16").kv.name == "float16"
    assert calc("Qwen/Qwen3-8B", vllm_version="0.33.0", kv_cache_dtype="bfloat16").kv.name == "bfloat16"


@pytest.mark.parametrize("gpu,tp,version,asked,stored", [
    ("h200", 8, "0.11.0", "auto", "fp8_ds_mla"),     # v0.11.0 turned auto into DeepSeek's layout
    ("h200", 8, "0.11.1", "auto", "bfloat16"),
    ("h200", 8, "0.17.0", "fp8", "fp8_ds_mla"),      # every fp8 cache before v0.18
    ("h200", 8, "0.33.0", "fp8", "fp8_ds_mla"),      # Hopper: FLASHMLA_SPARSE
    ("b200", 4, "0.18.0", "fp8", "fp8_ds_mla"),      # 10.x, 32 heads per GPU: FLASHMLA_SPARSE
    ("b200", 8, "0.18.0", "fp8", "fp8"),             # 16 heads per GPU: FLASHINFER_MLA_SPARSE
    ("b200", 4, "0.19.0", "fp8", "fp8"),             # fp8 caches go to FlashInfer from v0.19
    ("rtx-pro-6000", 8, "0.24.0", "auto", "fp8_ds_mla"),   # SM120 backend
    ("rtx-pro-6000", 8, "0.23.0", "auto", "bfloat16"),
])
def test_sparse_mla_stores_deepseeks_fp8_layout_where_its_backend_does(gpu, tp, version, asked, stored):
    c = calc("deepseek-ai/DeepSeek-V3.2", gpu, tensor_parallel_size=tp, max_model_len=8192,
             vllm_version=version, kv_cache_dtype=asked)
    assert c.kv.name == stored
