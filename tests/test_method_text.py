"""The page's method section and the README state the reserve model's numbers in prose; each is
checked here against the constant or the computation it describes, so a refit or a new term
cannot leave the text behind (the Chinese text must keep every number of the English)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from factories import config
from kvcalc import reserve
from kvcalc.units import GIB
from kvcalc.validate import validate_logs
from kvcalc.versions import NEWEST, parse_version
from test_page_text import WEB, strings

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _g(x: float) -> str:
    return f"{x:g}"


def method_claims() -> list[str]:
    """Phrases the English method text must contain, each built from the core."""
    fixed = sorted(e.fixed_gib for e in reserve.ERAS.values())
    mib = reserve.CUDA_GRAPH_MIB_PER_GRAPH
    image = reserve.vision_profile(config("Qwen/Qwen3.5-27B"), 8192, 256, 262144, 1, 2)[0] / GIB
    video = reserve.vision_profile(config("google/gemma-4-26B-A4B-it"), 2048, 256, 262144, 1, 2)[0] / GIB
    qwen25 = config("Qwen/Qwen2.5-VL-7B-Instruct")
    clip = reserve.largest_tower_item(qwen25, NEWEST, 128000)
    return [
        f"{_g(reserve.SAMPLER_BYTES_PER_ENTRY)} bytes on the PyTorch path",
        f"{_g(reserve.SAMPLER_BYTES_FLASHINFER)} bytes with FlashInfer's kernels",
        f"{_g(reserve.SAMPLER_BYTES_TRITON)} bytes with vLLM's own Triton kernels",
        f"{_g(reserve.SAMPLER_BYTES_MRV2_GREEDY)} bytes on model runner V2",
        f"about {image:.1f} GiB for one",
        f"{clip.budget_tokens:,} tokens and about "
        f"{reserve.vision_profile(qwen25, 2048, 256, 128000, 1, 2)[0] / GIB:.1f} GiB for the 7B at its default 128,000",
        f"about {video:.2f} GiB each",
        f"{reserve.SINGLE_GPU_NON_TORCH_GIB:.2f} GiB on one GPU from Hopper on",
        f"{reserve.PRE_HOPPER_NON_TORCH_GIB:.2f} GiB on older NVIDIA GPUs",
        f"{reserve.ROCM_NON_TORCH_GIB:.2f} GiB on AMD GPUs",
        "(4 × TP × its largest input: "
        f"{reserve.allreduce_fusion_bytes(parse_version('0.25.0'), 'cuda', '9.0', 2, 8192, 5120, 2, True) / GIB:.2f} "
        "GiB at TP 2; about 6 × it where NVSwitch boards take the MNNVL layout from v0.25, "
        f"{reserve.allreduce_fusion_bytes(parse_version('0.25.0'), 'cuda', '9.0', 2, 8192, 5120, 2, True, True) / GIB:.2f} "
        "GiB",
        f"plus {reserve.QUICK_REDUCE_BUFFER_BYTES // GIB} GiB on AMD MI300-series and MI355X GPUs in a TP group of "
        f"{', '.join(map(str, reserve.QUICK_REDUCE_WORLD_SIZES[:-1]))} or {reserve.QUICK_REDUCE_WORLD_SIZES[-1]}",
        f"plus {reserve.MULTI_GPU_NON_TORCH_GIB:.2f} GiB per GPU",
        f"{reserve.NO_P2P_NON_TORCH_GIB:.2f} GiB in all where they cannot",
        f"({fixed[0]:.2f} to {fixed[-1]:.2f} GiB)",
        f"{reserve.penalty_buffer_bytes(parse_version('0.31.0'), True, 1024, 128256) / GIB:.2f} GiB for 1,024 "
        f"sequences of Llama 3",
        f"about {_g(mib['v1'][0])} MiB per captured graph ({_g(mib['v2'][0])} MiB on model runner V2; "
        f"on ROCm about {_g(reserve.ROCM_GRAPH_MIB_PER_LAYER[0])} MiB per decoder layer",
        f"plus {reserve.HYBRID_FIRST_CAPTURE_GIB[0]:.2f} GiB for models with Mamba, GDN, KDA (Kimi Linear) or short-convolution (LFM2) layers",
        f"about {_g(reserve.NCCL_GRAPH_MIB_PER_LAYER[2][0])} MiB per graph and decoder layer at TP 2 and "
        f"{_g(reserve.NCCL_GRAPH_MIB_PER_LAYER[3][0])} above it",
        f"where {_g(mib['v1'][0])} MiB a graph gives {86 * mib['v1'][0] / 1024:.2f})",
        f"plus {reserve.NVLS_NON_TORCH_GIB:.2f} GiB where a TP group of more than two GPUs shares NVSwitch multicast",
        f"the band's top adds {reserve.DRAFTER_GRAPHS_HIGH_GIB:.2f} GiB for them",
        f"plus {reserve.FLASHINFER_IN_ESTIMATE_BYTES >> 20} MiB for FlashInfer's {reserve.FLASHINFER_WORKSPACE_BYTES >> 20} "
        f"MiB attention workspace where the attention runs on FlashInfer",
        f"{reserve.HYBRID_TOWER_EXCESS_GIB_PER_16K:.1f} GiB per {reserve.HYBRID_TOWER_EXCESS_MIN_TOKENS:,} batched "
        f"tokens from {reserve.HYBRID_TOWER_EXCESS_MIN_TOKENS:,} on, up to {reserve.HYBRID_TOWER_EXCESS_GIB:.1f} GiB",
        f"First-start compile: from v{reserve.Rule.COLD_COMPILE_RESERVE.value.since.major}."
        f"{reserve.Rule.COLD_COMPILE_RESERVE.value.since.minor} (from v{reserve.Rule.COLD_COMPILE_UNTIED.value.since.major}."
        f"{reserve.Rule.COLD_COMPILE_UNTIED.value.since.minor} for models whose input embeddings are not tied",
        f"(fitted: {reserve.COLD_COMPILE_TABLE_COPIES:.2f} × the table plus {reserve.COLD_COMPILE_FIXED_GIB:.2f} GiB, "
        f"about {reserve.compile_peak_bytes(reserve.embedding_table_bytes(config('Qwen/Qwen3-8B'), 151936, 1, 2)) / GIB:.1f}"
        f" GiB for Qwen3-8B",
        f"(kvcalc counts {reserve.COLD_KEPT_TABLE_COPIES[0]:.1f} × the table there)",
        "{:.1f} GiB ({:.1f} to {:.1f}) from public DGX Spark logs".format(*reserve.UMA_HOST_GIB),
        "it adds {:.1f} GiB more ({:.1f} to {:.1f})".format(*reserve.UMA_HYBRID_TOWER_GIB),
        f"32 at 8,192 batched tokens, about "
        f"{reserve.vision_profile(config('google/gemma-3-27b-it'), 8192, 1024, 32768, 1, 2)[0] / GIB:.2f} GiB on one GPU",
        f"{reserve.cached_rows(reserve.TowerItem('video', 153600, 12288, 49152), 2048, parse_version('0.11.0')) * 2048 * 4 * 2 / GIB:.2f} "
        f"GiB for Qwen3-VL's v0.11 video",
    ]


@pytest.mark.parametrize("claim", method_claims())
def test_the_page_states_the_model_as_the_core_has_it(claim):
    assert claim in strings("en")["m_reserve"]


def test_the_weights_accuracy_claim_holds():
    """The method text and the FAQ on local configs state the weights' median miss; both must hold."""
    stated = re.search(r"within ([\d.]+)% \(median\)", strings("en")["m_reserve"])
    faq = re.search(r"the median miss is under ([\d.]+)%", (WEB / "i18n.js").read_text(encoding="utf-8"))
    median = validate_logs()["summary"]["weights_median_abs_error_pct"]
    assert stated and median <= float(stated.group(1)), (stated, median)
    assert faq and median < float(faq.group(1)), (faq, median)


def test_the_chinese_method_text_keeps_every_number():
    en, zh = strings("en")["m_reserve"], strings("zh")["m_reserve"]
    missing = set(NUMBER.findall(en)) - set(NUMBER.findall(zh))
    assert not missing, sorted(missing)


@pytest.mark.parametrize("claim", [
    lambda: f"({min(e.fixed_gib for e in reserve.ERAS.values()):.2f} to "
            f"{max(e.fixed_gib for e in reserve.ERAS.values()):.2f} GiB)",
    lambda: f"{reserve.SINGLE_GPU_NON_TORCH_GIB:.2f} GiB on one GPU from Hopper on",
    lambda: f"{reserve.PRE_HOPPER_NON_TORCH_GIB:.2f} GiB on older NVIDIA GPUs",
    lambda: f"{reserve.ROCM_NON_TORCH_GIB:.2f} GiB on AMD GPUs",
    lambda: f"GPUs the one-GPU figure is {reserve.ROCM_NON_TORCH_GIB:.2f} GiB",
    lambda: f"plus {reserve.MULTI_GPU_NON_TORCH_GIB:.2f} GiB per GPU",
    lambda: f"and {reserve.NO_P2P_NON_TORCH_GIB:.2f} GiB in all, whatever the number of peers, where they cannot",
    lambda: f"plus {reserve.HYBRID_FIRST_CAPTURE_GIB[0]:.2f} GiB for Mamba/GDN models",
    lambda: f"(about {reserve.vision_profile(config('Qwen/Qwen3.5-27B'), 8192, 256, 262144, 1, 2)[0] / GIB:.1f} "
            f"GiB for one",
    lambda: f"kvcalc models them as {reserve.COLD_COMPILE_TABLE_COPIES:.2f} × that table plus "
            f"{reserve.COLD_COMPILE_FIXED_GIB:.2f} GiB",
    lambda: f"the band runs from 0 to {reserve.COLD_COMPILE_SPREAD_GIB:.1f} GiB above it",
    lambda: f"so kvcalc counts {reserve.COLD_KEPT_TABLE_COPIES[0]:.1f} × the table there",
    lambda: f"end alone allows {reserve.COLD_KEPT_TABLE_COPIES[2]:.1f} × the table",
    lambda: "kvcalc adds {:.1f} GiB ({:.1f} to {:.1f}) from public DGX Spark logs".format(*reserve.UMA_HOST_GIB),
    lambda: "kvcalc adds {:.1f} GiB more ({:.1f} to {:.1f})".format(*reserve.UMA_HYBRID_TOWER_GIB),
    lambda: f"{reserve.HYBRID_TOWER_EXCESS_GIB_PER_16K:.1f} GiB per {reserve.HYBRID_TOWER_EXCESS_MIN_TOKENS:,} "
            f"batched tokens up to {reserve.HYBRID_TOWER_EXCESS_GIB:.1f} GiB",
], ids=["fixed part", "one GPU", "one older GPU", "one AMD GPU", "AMD figure", "per peer", "per peer without P2P",
        "hybrid graphs", "Qwen image", "first-start peak", "first-start band", "first-start kept copy",
        "first-start kept copy band", "unified memory", "unified memory hybrid",
        "hybrid tower band"])
def test_the_readme_states_the_model_as_the_core_has_it(claim):
    assert re.sub(r"\s+", " ", claim()) in re.sub(r"\s+", " ", README)


def test_the_readme_example_is_what_the_cli_prints(capsys):
    """The README's first console block is the output of its own command, so a change to the
    estimate cannot leave the example behind."""
    from kvcalc.cli import main

    command = "kvcalc estimate --model Qwen/Qwen3-8B --gpu h100 --max-model-len 32768 --avg-tokens 4096"
    start = README.index("$ " + command + "\n") + len(command) + 3
    shown = README[start:README.index("```", start)]
    assert main(command.split()[1:]) == 0
    assert capsys.readouterr().out == shown
