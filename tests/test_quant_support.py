"""vLLM refuses some quantized checkpoints on some GPUs and releases (quant_support.py): kvcalc
says so on the weights field instead of sizing a server that never starts."""

from __future__ import annotations

import pytest

from factories import calc, config, llama_like
from kvcalc.api import custom_gpu
from kvcalc.catalog import find_gpu
from kvcalc.engine import calculate
from kvcalc.errors import SettingsError
from kvcalc.quant_support import min_capability, vllm_method
from kvcalc.settings import Settings
from kvcalc.versions import parse_version

BNB = llama_like(quantization_config={"quant_method": "bitsandbytes", "load_in_4bit": True})
MODELOPT_FP8 = llama_like(quantization_config={"quant_method": "modelopt", "quant_algo": "FP8"})


def refusal(model, gpu: str, **settings) -> str:
    with pytest.raises(SettingsError) as caught:
        calc(model, gpu, **settings)
    problems = caught.value.problems
    assert list(problems) == ["weights"]
    return str(problems["weights"])


def starts(model, gpu: str, **settings) -> None:
    """vLLM loads the checkpoint here: no refusal, and the estimate leaves it a KV cache pool."""
    pool = calc(model, gpu, **settings).estimated
    assert pool is not None and pool.error is None and pool.tokens > 0


def test_an_awq_checkpoint_on_a_v100_is_refused_with_vllms_own_numbers():
    text = refusal("Qwen/Qwen2.5-7B-Instruct-AWQ", "v100-16g")
    assert "does not load AWQ weights on Tesla V100" in text
    assert "compute capability 7.0" in text and "needs 7.5 or newer" in text
    assert "Minimum capability: 75. Current capability: 70." in text
    # a T4 (7.5) and an A100 run it
    starts("Qwen/Qwen2.5-7B-Instruct-AWQ", "t4")
    starts("Qwen/Qwen2.5-7B-Instruct-AWQ", "a100-80g-sxm")


def test_choosing_awq_weights_is_judged_like_an_awq_checkpoint():
    text = refusal("Qwen/Qwen2.5-7B-Instruct", "v100-16g", weights="awq")
    assert "Minimum capability: 75. Current capability: 70." in text
    # GPTQ's start-up minimum is 6.0: a V100 loads it while the ExLlama kernel still ran there
    starts("Qwen/Qwen2.5-7B-Instruct", "v100-16g", weights="gptq", vllm_version="0.21.0")


def test_fp8_reaches_turing_in_v0_14():
    text = refusal("Qwen/Qwen3-32B-FP8", "t4", vllm_version="0.13.0")
    assert "Minimum capability: 80. Current capability: 75." in text and "vLLM 0.13.0" in text
    starts("Qwen/Qwen3-32B-FP8", "t4", vllm_version="0.14.0", max_model_len=1024, tensor_parallel_size=4)
    assert "Minimum capability: 75. Current capability: 70." in refusal("Qwen/Qwen3-32B-FP8", "v100-32g")


def test_mxfp4_needs_ampere_in_every_release():
    for version in ("0.11.0", "0.33.0"):
        text = refusal("openai/gpt-oss-20b", "t4", vllm_version=version)
        assert "MXFP4" in text and "Minimum capability: 80. Current capability: 75." in text


def test_modelopt_fp8_reaches_ampere_in_v0_27():
    text = refusal(MODELOPT_FP8, "a100-80g-sxm", vllm_version="0.26.0")
    assert "ModelOpt FP8" in text and "Minimum capability: 89. Current capability: 80." in text
    starts(MODELOPT_FP8, "a100-80g-sxm", vllm_version="0.27.0")
    starts(MODELOPT_FP8, "l40s", vllm_version="0.26.0")      # 8.9
    # NVFP4 checkpoints follow Marlin: 8.0 until v0.13, 7.5 from v0.14
    assert "Minimum capability: 80. Current capability: 75." in \
        refusal("nvidia/Gemma-4-31B-IT-NVFP4", "t4", vllm_version="0.13.0")


def test_bitsandbytes_is_gone_from_v0_28():
    text = refusal(BNB, "rtx-4090", vllm_version="0.28.0")
    assert "no longer loads bitsandbytes checkpoints" in text and "removed in v0.28.0" in text
    assert "Unknown quantization method: bitsandbytes" in text
    starts(BNB, "rtx-4090", vllm_version="0.27.0")


def test_rocm_passes_and_a_gpu_given_by_its_total_keeps_its_capability():
    # ROCm reports gfx942 as 9.4, above every minimum
    starts("Qwen/Qwen2.5-7B-Instruct-AWQ", "mi300x")
    v100_from_a_log = custom_gpu(15.77, find_gpu("v100-16g"))
    with pytest.raises(SettingsError):
        calculate(config("Qwen/Qwen2.5-7B-Instruct-AWQ"), v100_from_a_log, Settings())


def test_the_refusal_reads_in_chinese_with_the_same_numbers():
    with pytest.raises(SettingsError) as caught:
        calc("Qwen/Qwen2.5-7B-Instruct-AWQ", "v100-16g")
    zh = caught.value.problems["weights"].render("zh")
    assert "不能在" in zh and "Minimum capability: 75. Current capability: 70." in zh


@pytest.mark.parametrize("quant, expected", [
    ({"quant_method": "awq"}, "awq"), ({"quant_method": "AWQ_Marlin"}, "awq"),
    ({"quant_method": "gptq"}, "gptq"), ({"quant_method": "fp8"}, "fp8"),
    ({"quant_method": "modelopt", "quant_algo": "NVFP4"}, "modelopt_fp4"),
    ({"quant_method": "modelopt", "quantization": {"quant_algo": "FP8"}}, "modelopt"),
    ({"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION"}, None),
    ({"quant_method": "compressed-tensors"}, None), ({"quant_method": 7}, None),
])
def test_the_method_vllm_resolves_from_the_checkpoint(quant, expected):
    assert vllm_method(llama_like(quantization_config=quant), "auto") == expected
    assert vllm_method(llama_like(), "auto") is None
    assert vllm_method(llama_like(quantization_config=quant), "bf16") is None


def test_minimum_capabilities_follow_the_release_table():
    v = parse_version
    assert min_capability("fp8", v("0.13.0")) == 80 and min_capability("fp8", v("0.14.0")) == 75
    assert min_capability("modelopt", v("0.26.0")) == 89 and min_capability("modelopt", v("0.27.0")) == 80
    assert min_capability("awq", v("0.10.0")) == 75 == min_capability("awq", v("0.33.0"))
    assert min_capability("int4", v("0.33.0")) is None
    assert find_gpu("t4").compute_capability == "7.5" and find_gpu("v100-16g").compute_capability == "7.0"


def test_gptq_leaves_the_v100_when_it_became_marlin_only_in_v0_22():
    starts("Qwen/Qwen2.5-7B-Instruct", "v100-16g", weights="gptq", vllm_version="0.21.0")
    text = refusal("Qwen/Qwen2.5-7B-Instruct", "v100-16g", weights="gptq", vllm_version="0.22.0")
    assert "from v0.22.0 GPTQ checkpoints always run on Marlin kernels, which need 7.5" in text
    assert "Only types = [] are supported" in text
    # a T4 (7.5) keeps it
    starts("Qwen/Qwen2.5-7B-Instruct", "t4", weights="gptq", vllm_version="0.33.0")


W4A16 = {"quant_method": "compressed-tensors", "format": "pack-quantized",
         "config_groups": {"group_0": {"targets": ["Linear"], "input_activations": None,
                                       "weights": {"num_bits": 4, "type": "int", "symmetric": True,
                                                   "strategy": "group", "group_size": 128}}}}
FP8_DYNAMIC = {"quant_method": "compressed-tensors", "format": "float-quantized",
               "config_groups": {"group_0": {"targets": ["Linear"],
                                             "input_activations": {"num_bits": 8, "type": "float", "dynamic": True},
                                             "weights": {"num_bits": 8, "type": "float", "strategy": "channel"}}}}


def test_compressed_tensors_checkpoints_are_judged_by_their_scheme():
    w4a16 = llama_like(quantization_config=W4A16)
    fp8 = llama_like(quantization_config=FP8_DYNAMIC)
    text = refusal(w4a16, "t4", vllm_version="0.11.0")
    assert "compressed-tensors int4/int8 (weight-only)" in text
    assert "Quantization scheme is not supported for the current GPU" in text and "(minimum 80, current 75)" in text
    starts(w4a16, "t4", vllm_version="0.12.0")
    assert "(minimum 75, current 70)" in refusal(w4a16, "v100-16g")
    # FP8 W8A8 falls back to W8A16 below 8.9: 8.0 until v0.15, 7.5 from v0.16
    assert "(minimum 80, current 75)" in refusal(fp8, "t4", vllm_version="0.15.0")
    starts(fp8, "t4", vllm_version="0.16.0")
    starts(fp8, "a100-80g-sxm", vllm_version="0.10.0")


def test_an_fbgemm_fp8_checkpoint_gets_the_deprecated_quantization_flag_from_v0_14():
    """fbgemm_fp8 (Llama-3.1-405B-Instruct-FP8's quant_method) is a deprecated method from v0.14:
    vLLM starts it only with --allow-deprecated-quantization, so the command carries it and a note
    says why; its minimum capability stays 8.0."""
    fbgemm = llama_like(quantization_config={"quant_method": "fbgemm_fp8", "activation_scale_ub": 1200.0,
                                             "modules_to_not_convert": ["lm_head"]})
    new = calc(fbgemm, "h100", vllm_version="0.14.0")
    assert " --allow-deprecated-quantization" in new.serve_command
    assert any("deprecated" in n and "v0.14.0" in n for n in new.notes)
    old = calc(fbgemm, "h100", vllm_version="0.13.0")
    assert "--allow-deprecated-quantization" not in old.serve_command
    assert not any("deprecated" in n for n in old.notes)
    assert "Minimum capability: 80. Current capability: 75." in refusal(fbgemm, "t4")
